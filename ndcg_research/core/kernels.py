"""Vectorised kernels: discount vectors, gains, DCG of ranked rows, ideal DCG.

All functions take padded 2-D batches (float64, or int64 for integer grades; see
validation) and return one float64 value per row; nothing here loops over
documents or queries.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from .discounts import Discount
from .gains import Gain

__all__ = ["discount_vector", "cumulative_discount", "apply_gain", "ranked_dcg", "ideal_dcg", "clear_discount_cache"]

# Largest grade for which the ideal DCG is computed by counting grade levels
# (one pass per level) instead of sorting.
_MAX_COUNTED_LEVEL = 32

_cache: dict[Discount, tuple[np.ndarray, np.ndarray]] = {}
# A vector for a 10^7-long list takes 160 MB with its cumulative sums: keep only a few discounts.
_CACHE_SIZE = 12


def clear_discount_cache() -> None:
    """Forget the cached discount vectors (they are rebuilt on demand)."""
    _cache.clear()


def _cached(discount: Discount, length: int) -> tuple[np.ndarray, np.ndarray]:
    """Discounts D(1..L) and cumulative sums [0, D(1), D(1)+D(2), ...] for L >= length."""
    vector, cumulative = _cache.get(discount, (None, None))
    if vector is None or vector.size < length:
        # Grow geometrically so that lists of slowly increasing length do not rebuild every call.
        size = max(length, 2 * (0 if vector is None else vector.size), 64)
        vector = discount(np.arange(1, size + 1, dtype=np.float64))
        cumulative = np.concatenate(([0.0], np.cumsum(vector)))
        vector.flags.writeable = False
        cumulative.flags.writeable = False
        _cache.pop(discount, None)
        while len(_cache) >= _CACHE_SIZE:  # evict the least recently built
            _cache.pop(next(iter(_cache)))
        _cache[discount] = (vector, cumulative)
    return vector, cumulative


def _checked_custom_discount(discount: Callable[[np.ndarray], np.ndarray], length: int) -> np.ndarray:
    ranks = np.arange(1, length + 1, dtype=np.float64)
    name = getattr(discount, "__name__", repr(discount))
    try:
        values = np.asarray(discount(ranks), dtype=np.float64)
    except (TypeError, ValueError) as error:
        raise TypeError(f"discount {name} must map an array of ranks to an array of numbers: {error}") from error
    if values.shape != ranks.shape:
        raise ValueError(f"discount {name} must return one value per rank: got shape {values.shape} for {length} ranks")
    bad = ~np.isfinite(values) | (values <= 0)
    if np.any(bad):
        rank = int(np.argmax(bad)) + 1
        raise ValueError(
            f"discount {name} must be positive and finite over the ranks used (1..{length}), "
            f"got D({rank}) = {float(values[rank - 1])!r}"
        )
    rising = np.flatnonzero(np.diff(values) > 0)
    if rising.size:
        rank = int(rising[0]) + 1
        raise ValueError(
            f"discount {name} must be non-increasing over the ranks used, got D({rank}) = {float(values[rank - 1])!r} "
            f"< D({rank + 1}) = {float(values[rank])!r}"
        )
    return values


def discount_vector(discount: Discount | Callable[[np.ndarray], np.ndarray], length: int) -> np.ndarray:
    """D(1), ..., D(length): cached and read-only for built-ins, checked for other callables."""
    if isinstance(discount, Discount):
        return _cached(discount, length)[0][:length]
    return _checked_custom_discount(discount, length)


def cumulative_discount(discount: Discount | Callable[[np.ndarray], np.ndarray], length: int) -> np.ndarray:
    """[0, D(1), D(1) + D(2), ..., sum_{r <= length} D(r)] (length + 1 entries)."""
    if isinstance(discount, Discount):
        return _cached(discount, length)[1][: length + 1]
    return np.concatenate(([0.0], np.cumsum(_checked_custom_discount(discount, length))))


def apply_gain(gain: Gain | Callable[[np.ndarray], np.ndarray], grades: np.ndarray, *, name: str) -> np.ndarray:
    """Gains of a batch of (already validated) grades.

    Built-in gains are non-decreasing with g(0) = 0 by construction, so only
    overflow is checked (at the largest grade, which suffices for a monotone
    gain). Other callables are checked on the distinct grades present.
    """
    if isinstance(gain, Gain):
        if gain.name == "linear":  # the identity: no copy, and it cannot overflow finite grades
            return grades
        gains = gain(grades)
        top = float(grades.max())
        if not np.isfinite(gain(np.array([top]))[0]):
            raise ValueError(
                f"gain {str(gain)!r} overflows float64 for grade {top!r} in {name}; use a smaller grade scale or "
                f"gain='linear'"
            )
        return gains
    label = getattr(gain, "__name__", repr(gain))
    grades = grades.astype(np.float64, copy=False)  # a user's formula must not meet int64 wrap-around
    try:
        gains = np.asarray(gain(grades), dtype=np.float64)
        levels = np.unique(np.concatenate(([0.0], grades.ravel())))
        level_gains = np.asarray(gain(levels), dtype=np.float64)
    except (TypeError, ValueError) as error:
        raise TypeError(f"gain {label} must map an array of grades to an array of numbers: {error}") from error
    if gains.shape != grades.shape or level_gains.shape != levels.shape:
        raise ValueError(f"gain {label} must return one value per grade, got shape {gains.shape} for {grades.shape}")
    if level_gains[0] != 0:
        raise ValueError(f"gain {label} must map grade 0 to 0, got gain(0) = {level_gains[0].item()!r}")
    infinite = np.flatnonzero(~np.isfinite(level_gains))
    if infinite.size:
        i = infinite[0]
        raise ValueError(
            f"gain {label} is not finite (overflow?) for grade {levels[i].item()!r}, got {level_gains[i].item()!r}"
        )
    falling = np.flatnonzero(np.diff(level_gains) < 0)
    if falling.size:
        i = falling[0]
        raise ValueError(
            f"gain {label} must be non-decreasing, got gain({levels[i].item()!r}) = {level_gains[i].item()!r} > "
            f"gain({levels[i + 1].item()!r}) = {level_gains[i + 1].item()!r}"
        )
    return gains


def discounted_sum(gains: np.ndarray, discounts: np.ndarray, *, what: str) -> np.ndarray:
    """Row sums of gains * discounts, refusing a sum that overflows float64.

    Single gains are checked where they are computed; this catches finite gains
    whose discounted sum is not (e.g. several documents with exp2 gain 2^1023).
    """
    with np.errstate(over="ignore", invalid="ignore"):
        sums = gains @ discounts
    if not np.all(np.isfinite(sums)):
        row = int(np.argmax(~np.isfinite(sums)))
        raise ValueError(
            f"{what} of query {row} overflows float64 (its gains sum past 1.8e308); use a smaller grade scale "
            f"or gain='linear'"
        )
    return sums


def ranked_dcg(gains: np.ndarray, discount: Discount | Callable[[np.ndarray], np.ndarray], k: int | None) -> np.ndarray:
    """DCG of each row of gains in rank order, cut at k: sum_r gains[q, r-1] * D(r)."""
    width = gains.shape[1] if k is None else min(k, gains.shape[1])
    return discounted_sum(gains[:, :width], discount_vector(discount, width), what="DCG")


def levels_if_countable(grades: np.ndarray) -> int | None:
    """The largest grade if all grades are integers in [0, _MAX_COUNTED_LEVEL], else None."""
    top = grades.max()
    if not top <= _MAX_COUNTED_LEVEL:
        return None
    if grades.dtype.kind in "biu" or np.array_equal(np.floor(grades), grades):
        return int(top)
    return None


def count_at_least(grades: np.ndarray, top_level: int) -> np.ndarray:
    """counts[q, g - 1] = number of entries of row q with grade >= g, for g = 1..top_level."""
    if grades.shape[0] == 1:  # one long list: the flat count is about twice as fast as the per-row one
        counts = [np.full(1, np.count_nonzero(grades >= level)) for level in range(1, top_level + 1)]
    else:
        counts = [np.count_nonzero(grades >= level, axis=1) for level in range(1, top_level + 1)]
    return np.stack(counts, axis=1) if counts else np.zeros((grades.shape[0], 0), dtype=np.intp)


def ideal_dcg(
    grades: np.ndarray,
    gain: Gain | Callable[[np.ndarray], np.ndarray],
    discount: Discount | Callable[[np.ndarray], np.ndarray],
    k: int | None,
    *,
    name: str,
) -> np.ndarray:
    """DCG of each row's grades sorted by non-increasing gain, cut at k.

    Integer grades up to 32 are counted level by level (exact, no sort) unless
    k is small next to the row width (then a partition of the top k is cheaper): level
    g fills ideal ranks count(>= g+1) + 1 .. count(>= g), so its share is
    gain(g) * (C[count(>= g)] - C[count(>= g+1)]) with C the cumulative discount
    capped at k. Other grades are sorted (only the top k when k is small).
    """
    width = grades.shape[1] if k is None else min(k, grades.shape[1])
    # Counting costs one pass per grade level; a partition for a small top k is cheaper.
    top = None if 8 * width <= grades.shape[1] else levels_if_countable(grades)
    if top == 0:
        return np.zeros(grades.shape[0])
    if top is not None:
        counts = np.concatenate([count_at_least(grades, top), np.zeros((grades.shape[0], 1), np.intp)], axis=1)
        # Only the levels that occur need a gain (a mapping may not list the others).
        present = (counts[:, :-1] > counts[:, 1:]).any(axis=0)
        level_gains = np.zeros(top)
        levels = np.arange(1, top + 1, dtype=np.float64)[present]
        level_gains[present] = apply_gain(gain, levels[None, :], name=name)[0]
        capped = np.minimum(counts, width)
        cumulative = cumulative_discount(discount, width)
        shares = cumulative[capped[:, :-1]] - cumulative[capped[:, 1:]]
        return discounted_sum(shares, level_gains, what="ideal DCG")
    gains = apply_gain(gain, grades, name=name)
    if width < gains.shape[1]:
        gains = np.partition(gains, gains.shape[1] - width, axis=1)[:, gains.shape[1] - width :]
    ordered = -np.sort(-gains, axis=1)
    return discounted_sum(ordered[:, :width], discount_vector(discount, width), what="ideal DCG")
