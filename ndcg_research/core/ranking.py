"""Order documents by model score, with an explicit rule for tied scores.

Returns, for each query, the gain at each rank 1..width. With ``ties="average"``
each rank in a group of tied scores holds the mean gain of the group, which is
McSherry & Najork's (2008) tie-averaged DCG (scikit-learn's default): the
expected DCG over all orderings of the tied documents.
"""

from __future__ import annotations

import numpy as np

__all__ = ["TIES", "ranked_gains"]

#: Tie rules: group average, input order (earlier document first), worst case, best case.
TIES: tuple[str, ...] = ("average", "first", "pessimistic", "optimistic")


def check_ties(ties: object) -> str:
    if ties not in TIES:
        raise ValueError(f"ties must be one of {', '.join(map(repr, TIES))}, got {ties!r}")
    return str(ties)


def group_means(sorted_scores: np.ndarray, sorted_gains: np.ndarray) -> np.ndarray:
    """Replace each gain by the mean gain of its run of equal scores (rows sorted by score)."""
    new_group = np.ones(sorted_scores.shape, dtype=bool)
    new_group[:, 1:] = sorted_scores[:, 1:] != sorted_scores[:, :-1]
    if new_group.all():  # no ties: nothing to average
        return sorted_gains
    group = np.cumsum(new_group.ravel()) - 1  # ids run on across rows, each row starts a new group
    means = np.bincount(group, weights=sorted_gains.ravel()) / np.bincount(group)
    return means[group].reshape(sorted_gains.shape)


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
