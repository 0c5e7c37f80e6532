"""The checks of the statistics' input: per-query value vectors, systems x queries matrices, levels."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from ..core.validation import check_number

__all__ = ["query_values", "score_matrix", "check_level", "check_choice", "all_pairs"]


def _finite_float_array(values: Any, name: str, ndim: int) -> np.ndarray:
    try:
        array = np.asarray(values)
    except ValueError as exc:  # ragged nesting
        raise ValueError(f"{name} must be a {ndim}-D array of numbers, got ragged input ({exc})") from None
    if array.dtype.kind not in "biuf" or array.dtype.kind == "b":
        raise TypeError(f"{name} must hold real numbers, got dtype {array.dtype}")
    if array.ndim != ndim:
        raise ValueError(f"{name} must be {ndim}-D, got shape {array.shape}")
    array = array.astype(np.float64)
    bad = np.argwhere(~np.isfinite(array))
    if bad.size:
        where = tuple(int(i) for i in bad[0])
        raise ValueError(f"{name} must be finite, got {float(array[where])!r} at index {where if ndim > 1 else where[0]}")
    return array


def query_values(values: Any, name: str) -> np.ndarray:
    """One system's per-query values as a finite float64 vector of length >= 2.

    Examples
    --------
    >>> query_values([0.5, 1], "a")
    array([0.5, 1. ])
    >>> query_values([0.5, float("nan")], "a")
    Traceback (most recent call last):
    ...
    ValueError: a must be finite, got nan at index 1
    """
    array = _finite_float_array(values, name, 1)
    if array.size < 2:
        raise ValueError(f"{name} must hold at least 2 queries, got {array.size}")
    return array


def score_matrix(scores: Any, systems: Sequence[str] | None = None) -> tuple[np.ndarray, list[str]]:
    """A systems x queries matrix of per-query values, and the system names.

    Parameters
    ----------
    scores : 2-D array-like or mapping
        One row per system, one column per query (the same queries, in the same order, for
        every system); or a mapping ``{system name: per-query values}``; or a pandas
        DataFrame (rows are systems, its index gives the names).
    systems : sequence of str, optional
        Names of the rows (default: the mapping's keys, the DataFrame's index, or
        ``"s0", "s1", ...``).

    Returns
    -------
    (numpy.ndarray, list of str)

    Examples
    --------
    >>> x, names = score_matrix({"bm25": [0.2, 0.4], "dense": [0.3, 0.3]})
    >>> x.tolist(), names
    ([[0.2, 0.4], [0.3, 0.3]], ['bm25', 'dense'])
    """
    if isinstance(scores, Mapping):
        names = [str(k) for k in scores]
        rows = []
        for key, value in scores.items():
            rows.append(_finite_float_array(value, f"scores[{key!r}]", 1))
        lengths = {r.size for r in rows}
        if len(lengths) > 1:
            raise ValueError(f"scores: every system needs the same number of queries, got lengths "
                             f"{ {n: r.size for n, r in zip(names, rows)} }")
        matrix = np.vstack(rows) if rows else np.empty((0, 0))
    else:
        index = getattr(scores, "index", None)
        names = [str(i) for i in index] if index is not None and hasattr(scores, "to_numpy") else []
        matrix = _finite_float_array(scores.to_numpy() if hasattr(scores, "to_numpy") else scores, "scores", 2)
    if systems is not None:
        names = [str(s) for s in systems]
        if len(names) != matrix.shape[0]:
            raise ValueError(f"systems names {len(names)} systems but scores has {matrix.shape[0]} rows")
    elif not names:
        names = [f"s{i}" for i in range(matrix.shape[0])]
    if len(set(names)) != len(names):
        raise ValueError(f"system names must be distinct, got {names!r}")
    if matrix.shape[0] < 2:
        raise ValueError(f"scores must hold at least 2 systems (rows), got {matrix.shape[0]}")
    if matrix.shape[1] < 2:
        raise ValueError(f"scores must hold at least 2 queries (columns), got {matrix.shape[1]}")
    return matrix, names


def check_level(value: Any, name: str) -> float:
    """A probability strictly between 0 and 1 (a confidence level or a significance level alpha).

    Examples
    --------
    >>> check_level(0.95, "confidence")
    0.95
    >>> check_level(1, "alpha")
    Traceback (most recent call last):
    ...
    ValueError: alpha must be strictly between 0 and 1, got 1.0
    """
    value = check_number(value, name)
    if not 0.0 < value < 1.0:
        raise ValueError(f"{name} must be strictly between 0 and 1, got {value!r}")
    return value


def check_choice(value: Any, name: str, choices: Sequence[str]) -> str:
    """``value`` if it is one of ``choices``, else ValueError listing them.

    Examples
    --------
    >>> check_choice("t", "method", ("t", "wilcoxon"))
    't'
    """
    if not isinstance(value, str) or value not in choices:
        raise ValueError(f"{name} must be one of {', '.join(map(repr, choices))}; got {value!r}")
    return value


def all_pairs(n_systems: int) -> tuple[np.ndarray, np.ndarray]:
    """Row indices ``(i, j)`` with ``i < j`` of every pair of ``n_systems`` systems, in row-major order.

    Examples
    --------
    >>> [a.tolist() for a in all_pairs(3)]
    [[0, 0, 1], [1, 2, 2]]
    """
    first, second = np.triu_indices(n_systems, k=1)
    return first.astype(np.int64), second.astype(np.int64)
