"""Order documents by model score, with an explicit rule for tied scores.

Returns, for each query, the gain at each rank 1..width. With ``ties="average"``
each rank in a group of tied scores holds the mean gain of the group, which is
McSherry & Najork's (2008) tie-averaged DCG (scikit-learn's default): the
expected DCG over all orderings of the tied documents.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

__all__ = ["TIES", "check_ties", "group_means", "top_order", "ranked_gains"]

#: Tie rules: group average, input order (earlier document first), worst case, best case.
TIES: tuple[str, ...] = ("average", "first", "pessimistic", "optimistic")


def check_ties(ties: object) -> str:
    """Return ``ties`` if it is one of :data:`TIES`, else raise ValueError naming the valid rules."""
    if ties not in TIES:
        raise ValueError(f"ties must be one of {', '.join(map(repr, TIES))}, got {ties!r}")
    return str(ties)


def _mean_from_first(first: np.ndarray, offsets_sum: np.ndarray, count: np.ndarray) -> np.ndarray:
    """Mean of a group written as its first value plus the mean offset from it.

    Exactly the common value when every member is equal (a plain sum / count is not:
    0.1 + 0.1 + 0.1 = 0.30000000000000004), so that tied documents of equal grade keep
    their gain and a perfect ranking keeps nDCG exactly 1.
    """
    return first + offsets_sum / count


def group_means(sorted_scores: np.ndarray, sorted_gains: np.ndarray) -> np.ndarray:
    """Replace each gain by the mean gain of its run of equal scores (2-D rows sorted by score).

    A run whose gains are all equal keeps them exactly.

    Examples
    --------
    >>> group_means(np.array([[3.0, 2.0, 2.0]]), np.array([[1.0, 0.0, 1.0]])).tolist()
    [[1.0, 0.5, 0.5]]
    >>> group_means(np.array([[1.0, 1.0, 1.0]]), np.array([[0.1, 0.1, 0.1]])).tolist()
    [[0.1, 0.1, 0.1]]
    """
    new_group = np.ones(sorted_scores.shape, dtype=bool)
    new_group[:, 1:] = sorted_scores[:, 1:] != sorted_scores[:, :-1]
    if new_group.all():  # no ties: nothing to average
        return sorted_gains
    flat_gains = sorted_gains.ravel().astype(np.float64, copy=False)
    group = np.cumsum(new_group.ravel()) - 1  # ids run on across rows, each row starts a new group
    first = flat_gains[new_group.ravel()]
    means = _mean_from_first(first, np.bincount(group, weights=flat_gains - first[group]), np.bincount(group))
    return means[group].reshape(sorted_gains.shape)


class _Straddle(NamedTuple):
    """Rows where a group of equal scores crosses the cut at rank k."""

    rows: np.ndarray  # their indices
    above: np.ndarray  # per row: how many scores are strictly above the group's
    group: np.ndarray  # per row: mask of the group's members (the entries equal to the k-th largest score)


def _top_k(scores: np.ndarray, k: int) -> tuple[np.ndarray, _Straddle | None]:
    """The k highest scores of each row of a 2-D array (1 <= k < width), equal scores at the cut by index.

    Returns the k chosen columns of each row, in column order, and the rows where a group of
    equal scores crosses the cut (None if there is none). The k-th largest score comes from a
    partition of the values (cheaper than argpartition); one pass then settles the common case
    of no straddling group.
    """
    n_rows, width = scores.shape
    kth = np.partition(scores, width - k, axis=1)[:, width - k : width - k + 1]
    at_least = scores >= kth
    if np.count_nonzero(at_least) == n_rows * k:
        return (np.flatnonzero(at_least) % width).reshape(n_rows, k), None
    rows = np.flatnonzero(np.count_nonzero(at_least, axis=1) > k)
    group = scores[rows] == kth[rows]
    above = np.count_nonzero(at_least[rows], axis=1) - np.count_nonzero(group, axis=1)
    # Of the group's members, keep the lowest-indexed ones that fill up to k.
    at_least[rows] &= ~group | (np.cumsum(group, axis=1) <= (k - above)[:, None])
    return (np.flatnonzero(at_least) % width).reshape(n_rows, k), _Straddle(rows, above, group)


def top_order(scores: np.ndarray, k: int) -> np.ndarray:
    """Indices of the ``k`` highest scores along the last axis, best first; equal scores by index.

    Ties are broken by position (lower index first) also across the cut, so the
    result is deterministic: the first ``k`` entries of a stable descending sort,
    found with one partition and a sort of the ``k`` selected entries only.

    Parameters
    ----------
    scores : numpy.ndarray, shape (..., n)
        Finite scores.
    k : int
        How many, >= 1; capped at n.

    Returns
    -------
    numpy.ndarray of intp, shape (..., min(k, n))

    Examples
    --------
    >>> top_order(np.array([0.1, 0.9, 0.5, 0.9]), 2).tolist()
    [1, 3]
    >>> top_order(np.array([[1.0, 1.0, 1.0], [0.0, 2.0, 1.0]]), 2).tolist()
    [[0, 1], [1, 2]]
    """
    n = scores.shape[-1]
    if k >= n:
        return np.argsort(-scores, axis=-1, kind="stable")
    flat = scores.reshape(-1, n)
    picked, _ = _top_k(flat, k)  # in index order
    order = np.argsort(-np.take_along_axis(flat, picked, 1), axis=1, kind="stable")
    return np.take_along_axis(picked, order, 1).reshape(*scores.shape[:-1], k)


def _order_all(gains: np.ndarray, scores: np.ndarray, ties: str) -> np.ndarray:
    """Gains of every column of each row in rank order (highest score first; columns in input order)."""
    if ties == "average":
        order = np.argsort(-scores, axis=1)
        return group_means(np.take_along_axis(scores, order, 1), np.take_along_axis(gains, order, 1))
    if ties == "first":
        order = np.argsort(-scores, axis=1, kind="stable")
    else:
        # np.lexsort sorts by the last key first: score descending, then the gain ascending or descending.
        order = np.lexsort((gains if ties == "pessimistic" else -gains, -scores), axis=1)
    return np.take_along_axis(gains, order, 1)


def _straddling_group(gains: np.ndarray, at: np.ndarray, k: int, ties: str) -> np.ndarray:
    """Gains at the first k ranks of each row's group of tied scores (``at``), under a tie rule.

    "average": the group's mean gain at every rank; "pessimistic" / "optimistic": the k
    lowest / highest gains of the group, in that order. Only the group's members are read:
    one pass over the row, and a partition for the two extreme rules.
    """
    count = np.count_nonzero(at, axis=1)
    if ties == "average":
        first = np.take_along_axis(gains, np.argmax(at, axis=1)[:, None], 1)[:, 0].astype(np.float64)
        offsets = np.where(at, gains - first[:, None], 0.0).sum(axis=1)
        return np.repeat(_mean_from_first(first, offsets, count)[:, None], k, axis=1)
    sign = 1.0 if ties == "pessimistic" else -1.0
    key = np.where(at, sign * gains, np.inf)  # members first, smallest key first
    width = min(k, key.shape[1])
    return sign * np.sort(np.partition(key, width - 1, axis=1)[:, :width], axis=1)


def ranked_gains(gains: np.ndarray, scores: np.ndarray, k: int | None, ties: str) -> np.ndarray:
    """Gain at ranks 1..min(k, width) of each row, documents ordered by score.

    For k smaller than the row width only the top k are sorted (after a partition).
    Where a group of tied scores straddles rank k, every tie rule but "first" needs
    the whole group: only its members are read (their mean, or their k lowest or
    highest gains), never the rest of the row.

    Examples
    --------
    >>> ranked_gains(np.array([[1.0, 0.0, 3.0]]), np.array([[0.5, 0.5, 0.9]]), None, "average").tolist()
    [[3.0, 0.5, 0.5]]
    >>> ranked_gains(np.array([[1.0, 0.0, 3.0, 2.0]]), np.array([[0.5, 0.5, 0.9, 0.5]]), 2, "average").tolist()
    [[3.0, 1.0]]
    """
    width = scores.shape[1]
    if k is None or k >= width:
        return _order_all(gains, scores, ties)
    columns, straddle = _top_k(scores, k)
    out = _order_all(np.take_along_axis(gains, columns, 1), np.take_along_axis(scores, columns, 1), ties)
    if straddle is None or ties == "first":  # "first" took the lowest-indexed members: already right
        return out
    # Ranks above + 1 .. k of a straddling row belong to its tied group.
    rows, above = straddle.rows, straddle.above[:, None]
    group = _straddling_group(gains[rows], straddle.group, k, ties)
    rank = np.arange(k)
    filled = np.take_along_axis(group, np.clip(rank - above, 0, group.shape[1] - 1), 1)
    out = out.astype(np.float64, copy=False)
    out[rows] = np.where(rank >= above, filled, out[rows])
    return out
