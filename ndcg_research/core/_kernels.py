"""Vectorised kernels on padded batches (``_batch``), for the metric functions and the studies' fast paths;
they check nothing. The ideal DCG is summed like any ranked list, so a list in ideal order gets nDCG 1."""

import functools
import math
import threading
from collections.abc import Callable
from typing import Any

import numpy as np

from ._discounts import Discount, DiscountFunction
from ._gains import Gain, GainFunction

#: Largest grade for which grades are counted level by level.
MAX_COUNTED_LEVEL = 32
#: From this length on, one row of countable grades is put in ideal order by counting each level
#: instead of sorting: 10^7 grades 0..4 in a third of the sort's time as float64, a fortieth as int8.
COUNTED_ROW_FROM = 1 << 16
#: How many built-in discounts keep their vectors cached (160 MB each for a 10^7-long list).
DISCOUNT_CACHE_SIZE = 12

_cache: dict[Discount, tuple[np.ndarray, np.ndarray]] = {}
_cache_lock = threading.Lock()


def clear_discount_cache() -> None:
    """Forget the cached discount vectors, to free their memory (they are rebuilt on demand).

    The metric functions keep the vectors of the last 12 built-in discounts, each as long as the
    longest list seen: up to 12 x 160 MB after lists of 10^7 documents. The values never depend on it.

    Examples
    --------
    >>> clear_discount_cache()
    """
    with _cache_lock:
        _cache.clear()


def _cached(discount: Discount, length: int) -> tuple[np.ndarray, np.ndarray]:
    """D(1..L) and its cumulative sums [0, D(1), ...] for L >= length, read-only; built under the lock."""
    with _cache_lock:
        entry = _cache.get(discount)
        if entry is None or entry[0].size < length:
            # Grow geometrically so that lists of slowly increasing length do not rebuild every call.
            size = max(length, 2 * (0 if entry is None else entry[0].size), 64)
            vector = discount.values(np.arange(1, size + 1, dtype=np.float64))
            cumulative = np.concatenate(([0.0], np.cumsum(vector)))
            vector.flags.writeable = False
            cumulative.flags.writeable = False
            _cache.pop(discount, None)
            while _cache and len(_cache) >= DISCOUNT_CACHE_SIZE:  # evict the least recently built
                _cache.pop(next(iter(_cache)))
            entry = _cache[discount] = (vector, cumulative)
        return entry


def _label(function: Callable[..., Any]) -> str:
    return getattr(function, "__name__", repr(function))


def _call(
    role: str, function: Callable[[np.ndarray], Any], argument: np.ndarray, entries: str, called_on: str
) -> np.ndarray:
    """``function(argument)`` as float64; a failure names the callable, its role ("gain", "discount") and argument."""
    try:
        result = function(argument)
    except Exception as error:
        raise ValueError(
            f"{role} {_label(function)} raised {type(error).__name__}: {error}, called on {called_on}"
        ) from error
    # numpy would drop an imaginary part (with a warning only) and a mask (silently)
    if isinstance(result, np.ma.MaskedArray) or np.iscomplexobj(result):
        kind = "a masked array" if isinstance(result, np.ma.MaskedArray) else "complex numbers"
        raise TypeError(
            f"{role} {_label(function)} must return real numbers in a plain array, got {kind} when called on "
            f"{called_on}"
        )
    try:
        values = np.asarray(result, dtype=np.float64)
    except (TypeError, ValueError) as error:
        raise TypeError(
            f"{role} {_label(function)} must map an array of {entries} to an array of numbers, got {result!r:.80} "
            f"when called on {called_on}"
        ) from error
    if values.shape != argument.shape:
        raise ValueError(
            f"{role} {_label(function)} must return one value per {entries[:-1]}: called on {called_on}, it "
            f"returned shape {values.shape}"
        )
    return values


def _checked_custom_discount(discount: Callable[[np.ndarray], np.ndarray], length: int) -> np.ndarray:
    values = _call("discount", discount, np.arange(1, length + 1, dtype=np.float64), "ranks", f"the ranks 1..{length}")
    name = _label(discount)
    # D may reach 0 (underflow deep down, as geometric's does) but not start there: D(1) > 0.
    bad = ~np.isfinite(values) | (values < 0)
    bad[:1] |= values[:1] <= 0
    if np.any(bad):
        rank = int(np.argmax(bad)) + 1
        raise ValueError(
            f"discount {name} must be finite and >= 0 over the ranks used (1..{length}), positive at rank 1, "
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


def discount_vector(discount: DiscountFunction, length: int) -> np.ndarray:
    """D(1), ..., D(length): cached and read-only for built-ins (copy before writing), checked for callables."""
    if isinstance(discount, Discount):
        return _cached(discount, length)[0][:length]
    return _checked_custom_discount(discount, length)


def cumulative_discount(discount: DiscountFunction, length: int) -> np.ndarray:
    """[0, D(1), D(1) + D(2), ..., sum_{r <= length} D(r)]: ranks a+1..b of one gain g give g * (c[b] - c[a])."""
    if isinstance(discount, Discount):
        return _cached(discount, length)[1][: length + 1]
    return np.concatenate(([0.0], np.cumsum(_checked_custom_discount(discount, length))))


def apply_gain(gain: GainFunction, grades: np.ndarray, *, name: str) -> np.ndarray:
    """Gains of validated grades (``grades`` itself for the linear gain). A user's callable is called once, on the
    distinct grades and 0 (never on int64 wrap-around or padding), and checked there."""
    if isinstance(gain, Gain):
        if gain.name == "linear":  # the identity: no copy, and it cannot overflow finite grades
            return grades
        gains = gain.values(grades)
        top = float(grades.max())
        if not np.isfinite(gain.values(np.array([top]))[0]):
            raise ValueError(
                f"gain {str(gain)!r} overflows float64 for grade {top!r} in {name}; use a smaller grade scale or "
                f"gain='linear'"
            )
        return gains
    levels, where = np.unique(np.concatenate(([0.0], grades.ravel())), return_inverse=True)
    level_gains = _call("gain", gain, levels, "grades", f"the {levels.size} distinct grades of {name}")
    label = _label(gain)
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
    return level_gains[where[1:]].reshape(grades.shape)


def levels_if_countable(grades: np.ndarray) -> int | None:
    """The largest grade if all grades are integers in [0, MAX_COUNTED_LEVEL], else None."""
    top = grades.max()
    if not top <= MAX_COUNTED_LEVEL:
        return None
    if grades.dtype.kind in "biu" or np.array_equal(np.floor(grades), grades):
        return int(top)
    return None


def level_counts(grades: np.ndarray, top_level: int) -> np.ndarray:
    """counts[q, g]: entries of row q with grade g, for integer grades g = 0..top_level (padding counts as 0)."""
    n_rows, n_levels = grades.shape[0], top_level + 1
    if n_rows == 1:  # one long list: a count per level beats a bincount of an integer copy
        at_least = [np.count_nonzero(grades >= level) for level in range(1, n_levels)]
        return -np.diff([grades.size, *at_least, 0])[None, :]
    codes = grades.astype(np.intp) + (np.arange(n_rows) * n_levels)[:, None]
    return np.bincount(codes.ravel(), minlength=n_rows * n_levels).reshape(n_rows, n_levels)


def top_grades(grades: np.ndarray, width: int) -> np.ndarray:
    """The ``width`` largest grades of each row, non-increasing: the ideal ranking's grades (numpy's sort beat
    counting small integer grades on every batch timed, except one long row)."""
    row_width = grades.shape[1]
    if 8 * width <= row_width:
        grades = np.partition(grades, row_width - width, axis=1)[:, row_width - width :]
    elif grades.shape[0] == 1 and row_width >= COUNTED_ROW_FROM:
        top_level = levels_if_countable(grades)
        if top_level is not None:  # the row rebuilt from how many grades there are of each level
            levels = np.arange(top_level, -1, -1).astype(grades.dtype)
            return np.repeat(levels, level_counts(grades, top_level)[0, ::-1])[None, :width]
    return np.sort(grades, axis=1)[:, ::-1][:, :width]


def ranked_dcg(gains: np.ndarray, discount: DiscountFunction, k: int | None, what: str = "DCG") -> np.ndarray:
    """DCG of each row of gains (rank order, padding 0) cut at k (None: every rank), refusing an overflow; every
    DCG, ranked or ideal, is summed here on C-contiguous float64 gains, so equal rows give bit-equal sums."""
    width = gains.shape[1] if k is None else min(k, gains.shape[1])
    gains = np.ascontiguousarray(gains[:, :width], dtype=np.float64)
    with np.errstate(over="ignore", invalid="ignore"):
        # einsum sums each row alone, in one order: BLAS's matrix-vector product sums a row by its place in the
        # batch (7 equal rows gave 2 values) and a 1-row batch otherwise (as fast here at typical shapes)
        sums = np.einsum("ij,j->i", gains, discount_vector(discount, width))
    return _finite_sums(sums, what)


def _finite_sums(sums: np.ndarray, what: str) -> np.ndarray:
    if not np.all(np.isfinite(sums)):
        row = int(np.argmax(~np.isfinite(sums)))
        raise ValueError(
            f"{what} of query {row} overflows float64 (its gains{'' if what == 'CG' else ' times their discounts'} sum "
            f"past 1.8e308); use a smaller grade scale{'' if what == 'CG' else ' or discount'}"
        )
    return sums


def rowwise_discounted_sum(gains: np.ndarray, discount: DiscountFunction, *, what: str) -> np.ndarray:
    """Row sums of gains[r] * D(r + 1) bit for bit as trec_eval sums them (m_ndcg.c): term by term in rank order.

    log2's terms are divided by C's log2 (``math.log2``; numpy's differs in the last bit for some ranks), so
    values at a rounding boundary of the 4 printed decimals print as trec_eval's. A row's sum never depends on
    the other rows (BLAS does), as evaluating in blocks or on Dask workers needs."""
    width = gains.shape[1]
    if width == 0:
        return np.zeros(gains.shape[0])
    with np.errstate(over="ignore", invalid="ignore"):
        if discount == _LOG2:  # C's log2(r + 1), cached by powers of two
            terms = np.divide(gains, _log2_table(max(64, 1 << (width - 1).bit_length()))[:width])
        else:
            terms = np.multiply(gains, discount_vector(discount, width))
        # in place: numpy's overlap rule keeps the result that of a separate output (it copies if it must)
        sums = np.add.accumulate(terms, axis=1, out=terms)[:, -1].copy()
    return _finite_sums(sums, what)


_LOG2 = Discount("log2")


@functools.lru_cache(maxsize=4)
def _log2_table(size: int) -> np.ndarray:
    table = np.array([math.log2(rank + 1) for rank in range(1, size + 1)])  # once per size: C's log2
    table.flags.writeable = False
    return table


def mean_in_order(values: np.ndarray) -> Any:
    """Means along the last axis as trec_eval takes them: added one by one (numpy's ``mean`` adds pairwise)."""
    return np.add.accumulate(values, axis=-1)[..., -1] / values.shape[-1]


def ideal_dcg(
    grades: np.ndarray,
    gain: GainFunction,
    discount: DiscountFunction,
    k: int | None,
    *,
    name: str,
    ranks: int | None = None,
) -> np.ndarray:
    """DCG of each row's grades (any order; int8 sorts fastest) in ideal order, cut at k; summed over ``ranks``
    ranks, those of the DCG it will divide, so that a list in ideal order gets a bit-identical value."""
    width = grades.shape[1] if k is None else min(k, grades.shape[1])
    ideal = top_grades(grades, width)
    if ranks is not None and ranks < width:  # rows are non-increasing: count the positives past `ranks`
        ideal = ideal[:, : ranks + int(np.count_nonzero(ideal[:, ranks:], axis=1).max())]
    elif ranks is not None and ranks > width:
        ideal = np.pad(ideal, ((0, 0), (0, ranks - width)))
    gains = apply_gain(gain, ideal, name=name)
    if ranks is None or gains.shape[1] <= ranks:
        return ranked_dcg(gains, discount, None, "ideal DCG")
    # Summed over the DCG's ranks as the DCG is, the ranks past them added after (0 for most rows): a wider sum of
    # the same terms may round otherwise, and a list in ideal order would miss 1.0 in its last bit.
    head = ranked_dcg(gains[:, :ranks], discount, None, "ideal DCG")
    with np.errstate(over="ignore", invalid="ignore"):
        tail = np.einsum("ij,j->i", gains[:, ranks:], discount_vector(discount, gains.shape[1])[ranks:])
        return _finite_sums(head + tail, "ideal DCG")


_U = 2.0**-53  # unit roundoff of float64


def ndcg_ratio(dcg: np.ndarray, idcg: np.ndarray, n_terms: int) -> np.ndarray:
    """dcg / idcg per row (idcg > 0): a sum of n >= 0 terms is off by at most n u / (1 - n u) (Higham 2002,
    eq. 3.5; ``n_terms`` bounds n), so a ratio up to 1 + 4 (n + 1) u is 1, and more is a RuntimeError."""
    ratio = dcg / idcg
    above = ratio > 1.0
    if above.any():
        limit = 1.0 + 4 * (n_terms + 1) * _U
        if np.any(ratio[above] > limit):
            row = int(np.flatnonzero(ratio > limit)[0])
            raise RuntimeError(
                f"DCG of query {row} exceeds its ideal DCG by more than rounding allows ({float(dcg[row])!r} > "
                f"{float(idcg[row])!r}): the gain or discount is not a function of the grade or rank alone, or this is "
                f"a bug in ndcg_research"
            )
        ratio[above] = 1.0
    return ratio
