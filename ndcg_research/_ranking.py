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


def _group_means(sorted_scores: np.ndarray, sorted_gains: np.ndarray) -> np.ndarray:
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
        return _group_means(np.take_along_axis(scores, order, 1), np.take_along_axis(gains, order, 1))
    if ties == "first" and index is None:
        order = np.argsort(-scores, axis=1, kind="stable")
    else:
        # np.lexsort sorts by the last key first: score descending, then the tie key ascending.
        tie_key = {"first": index, "pessimistic": gains, "optimistic": -gains}[ties]
        order = np.lexsort((tie_key, -scores), axis=1)
    return np.take_along_axis(gains, order, 1)


def ranked_gains(gains: np.ndarray, scores: np.ndarray, k: int | None, ties: str) -> np.ndarray:
    """Gain at ranks 1..min(k, width) of each row, documents ordered by score.

    For k smaller than the row width only the top k are sorted (argpartition),
    unless a group of tied scores straddles rank k: such rows are ordered whole,
    since every tie rule needs the complete group.

    Examples
    --------
    >>> ranked_gains(np.array([[1.0, 0.0, 3.0]]), np.array([[0.5, 0.5, 0.9]]), None, "average").tolist()
    [[3.0, 0.5, 0.5]]
    """
    width = scores.shape[1]
    if k is None or k >= width:
        return _order_all(gains, scores, ties, None)
    top = np.argpartition(-scores, k - 1, axis=1)[:, :k]
    top_scores = np.take_along_axis(scores, top, 1)
    kth = top_scores.min(axis=1)
    # Padding (score -inf, gain 0) may tie at the boundary harmlessly; real scores are finite.
    straddles = (np.count_nonzero(scores >= kth[:, None], axis=1) > k) & np.isfinite(kth)
    if not straddles.any():
        return _order_all(np.take_along_axis(gains, top, 1), top_scores, ties, top)
    out = np.empty((scores.shape[0], k))
    inside = ~straddles
    out[inside] = _order_all(np.take_along_axis(gains[inside], top[inside], 1), top_scores[inside], ties, top[inside])
    out[straddles] = _order_all(gains[straddles], scores[straddles], ties, None)[:, :k]
    return out
