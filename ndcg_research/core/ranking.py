"""Order documents by model score, with an explicit rule for tied scores.

Returns, for each query, the gain at each rank 1..width. With ``ties="average"``
each rank in a group of tied scores holds the mean gain of the group, which is
McSherry & Najork's (2008) tie-averaged DCG (scikit-learn's default): the
expected DCG over all orderings of the tied documents.
"""

from __future__ import annotations

import numpy as np

__all__ = ["TIES", "check_ties", "group_means", "top_order", "ranked_gains"]

#: Tie rules: group average, input order (earlier document first), worst case, best case.
TIES: tuple[str, ...] = ("average", "first", "pessimistic", "optimistic")


def check_ties(ties: object) -> str:
    """Return ``ties`` if it is one of :data:`TIES`, else raise ValueError naming the valid rules."""
    if ties not in TIES:
        raise ValueError(f"ties must be one of {', '.join(map(repr, TIES))}, got {ties!r}")
    return str(ties)


def group_means(sorted_scores: np.ndarray, sorted_gains: np.ndarray) -> np.ndarray:
    """Replace each gain by the mean gain of its run of equal scores (2-D rows sorted by score).

    Examples
    --------
    >>> group_means(np.array([[3.0, 2.0, 2.0]]), np.array([[1.0, 0.0, 1.0]])).tolist()
    [[1.0, 0.5, 0.5]]
    """
    new_group = np.ones(sorted_scores.shape, dtype=bool)
    new_group[:, 1:] = sorted_scores[:, 1:] != sorted_scores[:, :-1]
    if new_group.all():  # no ties: nothing to average
        return sorted_gains
    group = np.cumsum(new_group.ravel()) - 1  # ids run on across rows, each row starts a new group
    means = np.bincount(group, weights=sorted_gains.ravel()) / np.bincount(group)
    return means[group].reshape(sorted_gains.shape)


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
    kth = np.partition(flat, n - k, axis=1)[:, n - k : n - k + 1]  # k-th largest score of each row
    above = flat > kth
    # Of the entries equal to the k-th largest, keep the lowest-indexed ones that fill up to k.
    at = flat == kth
    room = k - np.count_nonzero(above, axis=1, keepdims=True)
    chosen = above | (at & (np.cumsum(at, axis=1) <= room))
    picked = (np.flatnonzero(chosen) % n).reshape(-1, k)  # in index order
    order = np.argsort(-np.take_along_axis(flat, picked, 1), axis=1, kind="stable")
    return np.take_along_axis(picked, order, 1).reshape(*scores.shape[:-1], k)


def _order_all(gains: np.ndarray, scores: np.ndarray, ties: str, index: np.ndarray | None) -> np.ndarray:
    """Gains of every column of each row in rank order (highest score first)."""
    if ties == "average":
        order = np.argsort(-scores, axis=1)
        return group_means(np.take_along_axis(scores, order, 1), np.take_along_axis(gains, order, 1))
    if ties == "first" and index is None:
        order = np.argsort(-scores, axis=1, kind="stable")
    else:
        # np.lexsort sorts by the last key first: score descending, then the tie key ascending.
        tie_key = {"first": index, "pessimistic": gains, "optimistic": -gains}[ties]
        order = np.lexsort((tie_key, -scores), axis=1)
    return np.take_along_axis(gains, order, 1)


def ranked_gains(gains: np.ndarray, scores: np.ndarray, k: int | None, ties: str) -> np.ndarray:
    """Gain at ranks 1..min(k, width) of each row, documents ordered by score.

    For k smaller than the row width only the top k are sorted (after a
    partition), unless a group of tied scores straddles rank k: such rows are
    ordered whole, since every tie rule needs the complete group.

    Examples
    --------
    >>> ranked_gains(np.array([[1.0, 0.0, 3.0]]), np.array([[0.5, 0.5, 0.9]]), None, "average").tolist()
    [[3.0, 0.5, 0.5]]
    """
    n_queries, width = scores.shape
    if k is None or k >= width:
        return _order_all(gains, scores, ties, None)
    # The k-th largest score of each row by partitioning values (cheaper than argpartition),
    # then the top k as the entries at or above it. A row has more than k such entries
    # exactly when a tie group straddles rank k (or the row is padding-short): those rows
    # are ordered whole, since every tie rule needs the complete group.
    kth = np.partition(scores, width - k, axis=1)[:, width - k]
    at_least = scores >= kth[:, None]
    if np.count_nonzero(at_least) == n_queries * k:  # one cheap pass settles the common case
        top = (np.flatnonzero(at_least) % width).reshape(n_queries, k)
        return _order_all(np.take_along_axis(gains, top, 1), np.take_along_axis(scores, top, 1), ties, top)
    whole = np.count_nonzero(at_least, axis=1) > k
    inside = ~whole
    out = np.empty((n_queries, k))
    top = (np.flatnonzero(at_least[inside]) % width).reshape(-1, k)
    out[inside] = _order_all(
        np.take_along_axis(gains[inside], top, 1), np.take_along_axis(scores[inside], top, 1), ties, top
    )
    out[whole] = _order_all(gains[whole], scores[whole], ties, None)[:, :k]
    return out
