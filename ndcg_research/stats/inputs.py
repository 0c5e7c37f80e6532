"""The constraints of the statistics' parameters and input (see :mod:`ndcg_research.core.params`).

- :data:`SCORES`: a systems x queries matrix of per-query values (a 2-D array, a mapping of system
  name to values, or a pandas DataFrame), normalised to :class:`Scores`; :data:`QUERY_VALUES`: one
  system's per-query values;
- :data:`LEVEL`: a confidence or significance level; :data:`SEED`, :data:`N_RESAMPLES`,
  :data:`N_JOBS`: the seed, resample count and worker threads of every resampling function;
- :data:`SYSTEM_NAMES`: optional names of the rows, matched to the matrix by :func:`system_names`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

import numpy as np

from ..core.constraints import Array, Constraint, Instance, Integer, Real, SequenceOf
from ..core.params import validate_params

__all__ = ["Scores", "ScoreMatrix", "SCORES", "QUERY_VALUES", "LEVEL", "SEED", "N_RESAMPLES", "N_JOBS",
           "SYSTEM_NAMES", "system_names", "all_pairs"]

#: A confidence level or a significance level alpha: strictly between 0 and 1.
LEVEL = Real(0, 1, closed="neither")
#: The entropy of every SeedSequence: an integer >= 0.
SEED = Integer(0)
#: Resamples of a bootstrap or randomisation test.
N_RESAMPLES = Integer(1)
#: Worker threads (the results never depend on them).
N_JOBS = Integer(1)
#: One system's per-query values: a finite 1-D array of at least 2 queries.
QUERY_VALUES = Array(ndim=1, min_size=2, unit="queries")
#: Names of the rows of a score matrix (None: from the matrix, see :func:`system_names`).
SYSTEM_NAMES = SequenceOf(Instance(str), none=True)

_ROW = Array(ndim=1)
_MATRIX = Array(ndim=2)


class Scores(NamedTuple):
    """A checked score matrix: ``values`` (systems x queries, finite float64) and the systems' ``names``."""

    values: np.ndarray
    names: list[str]


class ScoreMatrix(Constraint):
    """A systems x queries matrix of finite per-query values, at least 2 x 2; normalised to :class:`Scores`.

    Accepts a 2-D array-like (one row per system; names ``"s0", "s1", ...``), a mapping
    ``{system name: per-query values}`` (the same number of queries each), or a pandas DataFrame
    (rows are systems, its index gives the names).

    Examples
    --------
    >>> SCORES.check({"bm25": [0.2, 0.4], "dense": [0.3, 0.3]}, "scores")
    Scores(values=array([[0.2, 0.4],
           [0.3, 0.3]]), names=['bm25', 'dense'])
    >>> SCORES.check({"bm25": [0.2, float("nan")], "dense": [0.3, 0.3]}, "scores")
    Traceback (most recent call last):
    ...
    ValueError: scores['bm25'] must be finite, got nan at index 1
    """

    def _describe(self) -> str:
        return ("a systems x queries matrix of finite numbers (a 2-D array, a mapping of system name to per-query "
                "values, or a pandas DataFrame)")

    def _check(self, value: Any, name: str) -> Scores:
        if isinstance(value, Mapping):
            names = [str(key) for key in value]
            rows = [_ROW.check(row, f"{name}[{key!r}]") for key, row in value.items()]
            if len({row.size for row in rows}) > 1:
                raise ValueError(f"{name}: every system needs the same number of queries, got lengths "
                                 f"{ {n: r.size for n, r in zip(names, rows)} }")
            matrix = np.vstack(rows) if rows else np.empty((0, 0))
        else:
            index = getattr(value, "index", None)
            names = [str(i) for i in index] if index is not None and hasattr(value, "to_numpy") else []
            matrix = _MATRIX.check(value, name)
        if not names:
            names = [f"s{i}" for i in range(matrix.shape[0])]
        if len(set(names)) != len(names):
            raise ValueError(f"system names must be distinct, got {names!r}")
        if matrix.shape[0] < 2:
            raise ValueError(f"{name} must hold at least 2 systems (rows), got {matrix.shape[0]}")
        if matrix.shape[1] < 2:
            raise ValueError(f"{name} must hold at least 2 queries (columns), got {matrix.shape[1]}")
        return Scores(matrix, names)

    def example(self) -> list[list[float]]:
        return [[0.1, 0.4, 0.3], [0.2, 0.3, 0.5]]

    def invalid_values(self) -> list[Any]:
        return ["abc", [], [0.1, 0.2], [[0.1, 0.2]], [[0.1], [0.2]], [[0.1, float("nan")], [0.2, 0.3]],
                [[0.1, float("inf")], [0.2, 0.3]], [[True, False], [False, True]], {"a": [0.1, 0.2]},
                {"a": [0.1, 0.2], "b": [0.1]}, *super().invalid_values()]


#: The ``scores`` of every function comparing systems.
SCORES = ScoreMatrix()


@validate_params(scores=SCORES, systems=SYSTEM_NAMES)
def system_names(scores: Scores, systems: list[str] | None = None) -> list[str]:
    """The names of the rows of ``scores``: ``systems`` if given (one distinct name per row), else its own.

    Parameters
    ----------
    scores : 2-D array-like, mapping or pandas.DataFrame
        A score matrix (see :class:`ScoreMatrix`).
    systems : sequence of str, optional
        Names of the rows.

    Returns
    -------
    list of str

    Examples
    --------
    >>> system_names({"bm25": [0.2, 0.4], "dense": [0.3, 0.3]})
    ['bm25', 'dense']
    >>> system_names([[0.2, 0.4], [0.3, 0.3]], ["a", "a"])
    Traceback (most recent call last):
    ...
    ValueError: system names must be distinct, got ['a', 'a']
    """
    if systems is None:
        return scores.names
    if len(systems) != scores.values.shape[0]:
        raise ValueError(f"systems names {len(systems)} systems but scores has {scores.values.shape[0]} rows")
    if len(set(systems)) != len(systems):
        raise ValueError(f"system names must be distinct, got {systems!r}")
    return systems


@validate_params(n_systems=Integer(1))
def all_pairs(n_systems: int) -> tuple[np.ndarray, np.ndarray]:
    """Row indices ``(i, j)`` with ``i < j`` of every pair of ``n_systems`` systems, in row-major order.

    Examples
    --------
    >>> [a.tolist() for a in all_pairs(3)]
    [[0, 0, 1], [1, 2, 2]]
    """
    first, second = np.triu_indices(n_systems, k=1)
    return first.astype(np.int64), second.astype(np.int64)
