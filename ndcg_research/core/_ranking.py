"""Documents ordered by model score under a rule for tied scores (checks nothing: 2-D arrays of finite values).
With a cut-off k only the top k are ordered; a tied group across rank k is handled from its members alone."""

from typing import NamedTuple

import numpy as np

#: Tie rules: group average, input order (earlier document first), worst case, best case.
TIES: tuple[str, ...] = ("average", "first", "pessimistic", "optimistic")


def _run_means(values: np.ndarray, starts: np.ndarray) -> np.ndarray:
    """Mean of each run ``values[starts[i]:starts[i + 1]]`` of finite values, within the run's range: equal
    values keep their value exactly ((0.1 + 0.1 + 0.1) / 3 does not), so a perfect ranking keeps nDCG 1."""
    counts = np.diff(np.append(starts, values.size))
    low, high = np.minimum.reduceat(values, starts), np.maximum.reduceat(values, starts)
    with np.errstate(over="ignore"):
        means = np.add.reduceat(values, starts) / counts
    overflowed = np.isinf(means)
    if overflowed.any():  # the sum overflowed, not the mean: sum again scaled by 2^-e <= 1 / count, then scale back
        e = np.ceil(np.log2(counts)).astype(np.intp)
        scaled = np.add.reduceat(np.ldexp(values, -np.repeat(e, counts)), starts) / counts
        means = np.where(overflowed, np.ldexp(scaled, e), means)
    return np.where(low == high, low, np.clip(means, low, high))


def group_means(sorted_scores: np.ndarray, sorted_gains: np.ndarray) -> np.ndarray:
    """Each gain replaced by the mean gain of its run of equal scores (rows sorted by score; McSherry & Najork 2008)."""
    new_group = np.ones(sorted_scores.shape, dtype=bool)
    new_group[:, 1:] = sorted_scores[:, 1:] != sorted_scores[:, :-1]
    if new_group.all():  # no ties: nothing to average
        return sorted_gains
    starts = np.flatnonzero(new_group)  # runs of equal scores; each row starts a new one
    means = _run_means(sorted_gains.ravel().astype(np.float64, copy=False), starts)
    return np.repeat(means, np.diff(np.append(starts, sorted_gains.size))).reshape(sorted_gains.shape)


class _Straddle(NamedTuple):
    """The rows where a group of equal scores crosses the cut at rank k, and that group's members."""

    rows: np.ndarray  # the rows, ascending
    above: np.ndarray  # per row: how many scores are strictly above the group's
    member_rows: np.ndarray  # the group's members, row by row (ascending), ...
    members: np.ndarray  # ... as flat (row-major) positions


def _top_k(scores: np.ndarray, k: int) -> tuple[np.ndarray, _Straddle | None]:
    """The columns (in column order) of the k highest scores of each row (1 <= k < width; ties at the cut by index),
    and the rows where a group of equal scores crosses the cut (None if none). Under heavy ties the row maxima
    suffice; otherwise the k-th score comes from a partition, and only the entries at or above it are read again."""
    n_rows, width = scores.shape
    row_starts = np.arange(n_rows) * width
    if np.count_nonzero(scores[0] == scores[0].max()) >= k:
        top_group = scores == scores.max(axis=1, keepdims=True)
        n_members = np.count_nonzero(top_group, axis=1)
        if np.all(n_members >= k):
            members = np.flatnonzero(top_group)  # row by row
            first = np.cumsum(n_members) - n_members
            chosen = members[first[:, None] + np.arange(k)] - row_starts[:, None]
            member_rows = np.repeat(np.arange(n_rows), n_members)
            return chosen, _straddle(n_members > k, np.zeros(n_rows, np.intp), member_rows, members)
    kth = np.partition(scores, width - k, axis=1)[:, width - k]
    at_least = scores >= kth[:, None]
    if np.count_nonzero(at_least) == n_rows * k:
        return np.flatnonzero(at_least).reshape(n_rows, k) - row_starts[:, None], None
    candidates = np.flatnonzero(at_least)  # row by row
    n_candidates = np.count_nonzero(at_least, axis=1)  # >= k in every row
    rows = np.repeat(np.arange(n_rows), n_candidates)
    in_group = np.take(scores, candidates) == kth[rows]
    first = np.cumsum(n_candidates) - n_candidates
    seen = np.cumsum(in_group)  # group members so far, counted on across rows
    rank_in_group = seen - (seen[first] - in_group[first])[rows]  # 1, 2, ... within each row's group
    above = n_candidates - np.add.reduceat(in_group, first)
    # Keep every candidate above the group, and its lowest-indexed members up to k.
    keep = ~in_group | (rank_in_group <= (k - above)[rows])
    chosen = candidates[keep].reshape(n_rows, k) - row_starts[:, None]
    return chosen, _straddle(n_candidates > k, above, rows[in_group], candidates[in_group])


def _straddle(
    straddling: np.ndarray, above: np.ndarray, member_rows: np.ndarray, members: np.ndarray
) -> _Straddle | None:
    """The straddling rows (mask) with their groups' members (given for every row), or None if there is none."""
    if not straddling.any():
        return None
    if not straddling.all():
        keep = straddling[member_rows]
        member_rows, members = member_rows[keep], members[keep]
    return _Straddle(np.flatnonzero(straddling), above[straddling], member_rows, members)


def top_order(scores: np.ndarray, k: int) -> np.ndarray:
    """Indices of the ``k`` highest scores along the last axis, best first: the head of a stable descending sort."""
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


def _straddling_group(gains: np.ndarray, straddle: _Straddle, k: int, ties: str) -> np.ndarray:
    """Gains at the first k ranks of each straddling row's tied group: its mean, or its k lowest / highest gains."""
    member_gains = np.take(gains, straddle.members).astype(np.float64, copy=False)
    if ties == "average":
        starts = np.searchsorted(straddle.member_rows, straddle.rows)
        return np.repeat(_run_means(member_gains, starts)[:, None], k, axis=1)
    # The members' gains, one row per straddling row, padded with +inf; the k smallest of +-gain.
    sign = 1.0 if ties == "pessimistic" else -1.0
    counts = np.diff(np.append(np.searchsorted(straddle.member_rows, straddle.rows), straddle.members.size))
    key = np.full((straddle.rows.size, max(counts.max(), k)), np.inf)
    row = np.repeat(np.arange(straddle.rows.size), counts)
    key[row, np.arange(row.size) - (np.cumsum(counts) - counts)[row]] = sign * member_gains
    return sign * np.sort(np.partition(key, k - 1, axis=1)[:, :k], axis=1)


def ranked_gains(gains: np.ndarray, scores: np.ndarray, k: int | None, ties: str) -> np.ndarray:
    """Gain at ranks 1..min(k, width) of each row, documents ordered by score under the tie rule ``ties``."""
    width = scores.shape[1]
    if k is None or k >= width:
        return _order_all(gains, scores, ties)
    columns, straddle = _top_k(scores, k)
    if straddle is not None and ties != "first" and straddle.rows.size == scores.shape[0] and not straddle.above.any():
        return _straddling_group(gains, straddle, k, ties)  # every row's first k ranks hold its top group
    out = _order_all(np.take_along_axis(gains, columns, 1), np.take_along_axis(scores, columns, 1), ties)
    if straddle is None or ties == "first":  # "first" took the lowest-indexed members: already right
        return out
    # Ranks above + 1 .. k of a straddling row belong to its tied group.
    rows, above = straddle.rows, straddle.above[:, None]
    group = _straddling_group(gains, straddle, k, ties)
    rank = np.arange(k)
    filled = np.take_along_axis(group, np.clip(rank - above, 0, group.shape[1] - 1), 1)
    out = out.astype(np.float64, copy=False)
    out[rows] = np.where(rank >= above, filled, out[rows])
    return out


def merged_by_float64(rows: np.ndarray) -> tuple[int, tuple[int, int]] | None:
    """The first row of long doubles (rows x n) in which float64 makes two distinct values one, and their positions
    (the larger first), or None: each value is compared with its neighbour in its row's order (NaN never merges)."""
    order = np.argsort(rows, axis=1, kind="stable")
    wide = np.take_along_axis(rows, order, 1)
    narrow = wide.astype(np.float64)
    merged = np.argwhere((narrow[:, 1:] == narrow[:, :-1]) & (wide[:, 1:] != wide[:, :-1]))
    if not merged.size:
        return None
    row, j = merged[0]
    return int(row), (int(order[row, j + 1]), int(order[row, j]))
