"""The checks of the statistics' input (scores matrices, levels, seeds, counts) and the deprecated ``method=``."""

import functools
import os
import warnings
from collections.abc import Callable, Mapping
from typing import Any, NamedTuple, TypeVar

import numpy as np

from .._validation import check_array, check_instance, check_int, check_real, type_and_value

_F = TypeVar("_F", bound=Callable[..., Any])


class Scores(NamedTuple):
    """A checked score matrix: ``values`` (systems x queries, finite float64) and the systems' ``names``."""

    values: np.ndarray
    names: list[str]


_QUERY_LABELS = {"query", "qid", "query_id", "topic"}
_SYSTEM_LABELS = {"run", "system", "runs", "systems"}


def check_scores(value: Any, name: str, systems: Any = None) -> Scores:
    """``value`` as a systems x queries matrix of finite values, at least 2 x 2, and the systems' names: ``systems``
    (one distinct str per row), else a 2-D array-like's ``"s0", "s1", ...``, a mapping's keys or a DataFrame's index
    (one laid out as queries x systems is refused: its index named like queries or columns like runs, numbered rows
    beside named columns, or more rows than columns, unless its index is named like systems or ``systems`` is given)."""
    if isinstance(value, Mapping):
        check_same_index({f"{name}[{key!r}]": row for key, row in value.items()})
        names = [str(key) for key in value]
        rows = [check_array(row, f"{name}[{key!r}]", ndim=1) for key, row in value.items()]
        if len({row.size for row in rows}) > 1:
            raise ValueError(
                f"{name}: every system needs the same number of queries, got lengths "
                f"{ {n: r.size for n, r in zip(names, rows, strict=True)} }"
            )
        matrix = np.vstack(rows) if rows else np.empty((0, 0))
    else:
        index = getattr(value, "index", None)
        names = [str(i) for i in index] if index is not None and hasattr(value, "to_numpy") else []
        # A pivot of evaluate's per_query (index "query", columns "run") is queries x systems: taken as it comes,
        # every query would be compared as a system.
        labels = (getattr(index, "name", None), getattr(getattr(value, "columns", None), "name", None))
        if labels[0] in _QUERY_LABELS or labels[1] in _SYSTEM_LABELS:
            raise ValueError(
                f"{name} is a DataFrame of queries (rows, index {labels[0]!r}) x systems (columns {labels[1]!r}); "
                f"systems are rows here: pass its transpose ({name}.T)"
            )
        # pandas' own layout (pd.DataFrame({"bm25": ..., "dense": ...}, index=topics)) has observations, queries, as
        # rows: read as systems they would be compared with each other, silently. Rows numbered where columns are
        # named (topics 301..350, or 0..n-1), or more rows than columns, look like queries: the caller says which.
        columns = getattr(value, "columns", None)
        confirmed = labels[0] in _SYSTEM_LABELS or labels[1] in _QUERY_LABELS or systems is not None
        if columns is not None and not confirmed:
            numbered = index.dtype.kind in "iu" and columns.dtype.kind not in "iu"
            if numbered or len(index) > len(columns):
                rows, shown = (
                    ", ".join(map(repr, list(x)[:3])) + (", ..." if len(x) > 3 else "") for x in (index, columns)
                )
                why = "numbered rows" if numbered else f"more rows ({len(index)}) than columns ({len(columns)})"
                raise ValueError(
                    f"{name} is a DataFrame with {why} ({rows}; columns {shown}), as queries x systems are laid out: "
                    f"systems are its rows here; if its columns are the systems, pass {name}.T; if its rows are, "
                    f"name its index: {name}.rename_axis(index='system')"
                )
        matrix = check_array(value, name, ndim=2)
    if not names:
        names = [f"s{i}" for i in range(matrix.shape[0])]
    if len(set(names)) != len(names):
        raise ValueError(f"system names must be distinct, got {names!r}")
    if matrix.shape[0] < 2:
        raise ValueError(f"{name} must hold at least 2 systems (rows), got {matrix.shape[0]}")
    if matrix.shape[1] < 2:
        raise ValueError(f"{name} must hold at least 2 queries (columns), got {matrix.shape[1]}")
    if systems is None:
        return Scores(matrix, names)
    if not isinstance(systems, (list, tuple, np.ndarray)):
        raise TypeError(f"systems must be a sequence of str or None, got {type_and_value(systems)}")
    systems = [check_instance(s, f"systems[{i}]", str) for i, s in enumerate(systems)]
    if len(systems) != matrix.shape[0]:
        raise ValueError(f"systems names {len(systems)} systems but scores has {matrix.shape[0]} rows")
    if len(set(systems)) != len(systems):
        raise ValueError(f"systems must name each row once, got {systems!r}")
    return Scores(matrix, systems)


def check_same_index(rows: Mapping[str, Any]) -> None:
    """Refuse pandas Series (by argument name) whose indexes differ: values are paired by position."""
    indexed = {name: row.index for name, row in rows.items() if hasattr(row, "index") and hasattr(row, "to_numpy")}
    first = next(iter(indexed), None)
    for name, index in indexed.items():
        if not index.equals(indexed[first]):
            raise ValueError(
                f"{first} and {name} are pandas Series with different indexes (labels in another order, or "
                f"other labels); values are paired by position: align them first, e.g. "
                f"{name}.reindex({first}.index)"
            )


def check_pair(first: Any, second: Any, names: tuple[str, str], unit: str, what: str) -> tuple[np.ndarray, np.ndarray]:
    """Two 1-D arrays of at least 2 ``unit``, paired by position: the same size, and Series with equal indexes."""
    check_same_index(dict(zip(names, (first, second), strict=True)))
    a = check_array(first, names[0], ndim=1, min_size=2, unit=unit)
    b = check_array(second, names[1], ndim=1, min_size=2, unit=unit)
    if a.size != b.size:
        raise ValueError(f"{names[0]} and {names[1]} must {what}: got {a.size} and {b.size} values")
    return a, b


def check_level(value: Any, name: str) -> float:
    """A confidence level or a significance level: strictly between 0 and 1."""
    return check_real(value, name, low=0, high=1, closed="neither")


def check_jobs(n_jobs: Any) -> int:
    """Worker threads by joblib's rule: a positive number, or the cores plus one plus ``n_jobs`` (-1: every core)."""
    n_jobs = check_int(n_jobs, "n_jobs")
    if n_jobs == 0:
        raise ValueError(
            "n_jobs must be a positive number of threads, or negative as in joblib (-1: every core), got 0"
        )
    return n_jobs if n_jobs > 0 else max((os.cpu_count() or 1) + 1 + n_jobs, 1)


def renamed_test(function: _F) -> _F:
    """Accept ``method=``, the former name of ``test=``, with a DeprecationWarning."""

    @functools.wraps(function)
    def accepting_method(*args: Any, **kwargs: Any) -> Any:
        if "method" in kwargs:
            name = function.__name__
            if "test" in kwargs:
                raise TypeError(f"{name}() got both method= (deprecated) and test=; give only test=")
            warnings.warn(
                f"{name}(method=...) is deprecated and will be removed: use test=", DeprecationWarning, stacklevel=2
            )
            kwargs["test"] = kwargs.pop("method")
        return function(*args, **kwargs)

    return accepting_method  # type: ignore[return-value]


def _deprecated_method(result: Any) -> str:
    warnings.warn(
        f"{type(result).__name__}.method is deprecated and will be removed: use .test", DeprecationWarning, stacklevel=2
    )
    return result.test


#: ``.method``, the former name of a result's ``.test`` (with a DeprecationWarning): ``method = METHOD_ALIAS``.
METHOD_ALIAS = property(_deprecated_method)
