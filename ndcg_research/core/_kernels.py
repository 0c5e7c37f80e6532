"""Vectorised kernels on padded batches (see ``_batch``): no loop over documents or queries.

Exactness: the ideal DCG is the DCG of the ideal ranking's gains, summed by ``discounted_sum`` like any
ranked list, so a list in ideal order has a DCG bit-identical to its ideal DCG (nDCG exactly 1);
``ndcg_ratio`` bounds the remaining rounding. The discount cache is shared by all threads, behind a lock.

The kernels check nothing (float64 or integer arrays of finite values, 2-D where the name says rows):
they serve the metric functions and the studies' fast paths, which check their arrays themselves.
"""

import functools
import math
import threading
from collections.abc import Callable
from typing import Any

import numpy as np

from ._discounts import Discount
from ._gains import Gain

#: Largest grade for which grades are counted level by level (see :func:`levels_if_countable`).
MAX_COUNTED_LEVEL = 32
#: From this length on, one row of countable grades is put in ideal order by counting each grade
#: level (a pass per level) instead of sorting it: 10^7 grades 0..4 in a third of the sort's time as
#: float64, a fortieth as int8.
COUNTED_ROW_FROM = 1 << 16
#: How many built-in discounts keep their vectors cached (a vector for a 10^7-long list takes
#: 160 MB with its cumulative sums).
DISCOUNT_CACHE_SIZE = 12

_cache: dict[Discount, tuple[np.ndarray, np.ndarray]] = {}
_cache_lock = threading.Lock()


def clear_discount_cache() -> None:
    """Forget the cached discount vectors, to free their memory (they are rebuilt on demand).

    On the top level for a reason: the metric functions keep the vectors of the last
    DISCOUNT_CACHE_SIZE (12) built-in discounts, each as long as the longest list seen, so after
    lists of 10^7 documents the cache holds up to 12 x 160 MB. A long-running process that is
    done with such lists calls this to give the memory back. The values never depend on it.

    Examples
    --------
    >>> clear_discount_cache()
    """
    with _cache_lock:
        _cache.clear()


def _cached(discount: Discount, length: int) -> tuple[np.ndarray, np.ndarray]:
    """Discounts D(1..L) and cumulative sums [0, D(1), D(1)+D(2), ...] for L >= length, read-only.

    Lookup, build and eviction run under one lock: no thread sees a half-built or evicted entry.
    """
    with _cache_lock:
        entry = _cache.get(discount)
        if entry is None or entry[0].size < length:
            # Grow geometrically so that lists of slowly increasing length do not rebuild every call.
            size = max(length, 2 * (0 if entry is None else entry[0].size), 64)
            vector = discount(np.arange(1, size + 1, dtype=np.float64))
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
    """D(1), ..., D(length): cached and read-only for built-ins (copy before writing), checked for callables.

    Examples
    --------
    >>> discount_vector(Discount("zipf"), 3).tolist()
    [1.0, 0.5, 0.3333333333333333]
    """
    if isinstance(discount, Discount):
        return _cached(discount, length)[0][:length]
    return _checked_custom_discount(discount, length)


def cumulative_discount(discount: Discount | Callable[[np.ndarray], np.ndarray], length: int) -> np.ndarray:
    """[0, D(1), D(1) + D(2), ..., sum_{r <= length} D(r)] (length + 1 entries).

    The DCG of ranks ``a + 1 .. b`` that all hold one gain g is ``g * (c[b] - c[a])``. Read-only for built-ins.

    Examples
    --------
    >>> cumulative_discount(Discount("none"), 3).tolist()
    [0.0, 1.0, 2.0, 3.0]
    """
    if isinstance(discount, Discount):
        return _cached(discount, length)[1][: length + 1]
    return np.concatenate(([0.0], np.cumsum(_checked_custom_discount(discount, length))))


def apply_gain(gain: Gain | Callable[[np.ndarray], np.ndarray], grades: np.ndarray, *, name: str) -> np.ndarray:
    """Gains of validated grades, shaped like ``grades`` (``grades`` itself for the linear gain).

    Built-in gains are non-decreasing with g(0) = 0 by construction: only overflow is checked, at the
    largest grade. Any other callable is called once, on the distinct grades with 0 among them (so it
    never meets int64 wrap-around nor a batch's padding), and checked there: finite, g(0) = 0,
    non-decreasing. ``name`` says whose grades these are, for the messages.

    Examples
    --------
    >>> apply_gain(Gain("exp2"), np.array([[0, 1, 3]]), name="relevance").tolist()
    [[0.0, 1.0, 7.0]]
    >>> apply_gain(np.sqrt, np.array([[4, 0, 9]]), name="relevance").tolist()
    [[2.0, 0.0, 3.0]]
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
    """The largest grade if all grades are integers in [0, MAX_COUNTED_LEVEL], else None.

    Examples
    --------
    >>> levels_if_countable(np.array([[0, 3, 1]])), levels_if_countable(np.array([[0.5, 1.0]]))
    (3, None)
    """
    top = grades.max()
    if not top <= MAX_COUNTED_LEVEL:
        return None
    if grades.dtype.kind in "biu" or np.array_equal(np.floor(grades), grades):
        return int(top)
    return None


def level_counts(grades: np.ndarray, top_level: int) -> np.ndarray:
    """counts[q, g] = number of entries of row q with grade g, for g = 0..top_level (one bincount pass).

    ``grades`` must hold integers in [0, top_level] (see :func:`levels_if_countable`); the
    padding of a batch counts as grade 0.

    Examples
    --------
    >>> level_counts(np.array([[2, 0, 2], [1, 1, 0]]), 2).tolist()
    [[1, 0, 2], [1, 2, 0]]
    """
    n_rows, n_levels = grades.shape[0], top_level + 1
    if n_rows == 1:  # one long list: a count per level beats a bincount of an integer copy
        at_least = [np.count_nonzero(grades >= level) for level in range(1, n_levels)]
        return -np.diff([grades.size, *at_least, 0])[None, :]
    codes = grades.astype(np.intp) + (np.arange(n_rows) * n_levels)[:, None]
    return np.bincount(codes.ravel(), minlength=n_rows * n_levels).reshape(n_rows, n_levels)


def count_at_least(grades: np.ndarray, top_level: int) -> np.ndarray:
    """counts[q, g - 1] = number of entries of row q with grade >= g, for g = 1..top_level.

    Examples
    --------
    >>> count_at_least(np.array([[2, 0, 2, 1]]), 2).tolist()
    [[3, 2]]
    """
    return np.cumsum(level_counts(grades, top_level)[:, :0:-1], axis=1)[:, ::-1]


def top_grades(grades: np.ndarray, width: int) -> np.ndarray:
    """The ``width`` largest grades of each row, in non-increasing order: the ideal ranking's grades.

    A partition first when ``width`` is small next to the row, then a sort: numpy's
    vectorised sort beat a counting sort of small integer grades on every batch timed. One
    row of at least ``COUNTED_ROW_FROM`` countable grades (:func:`levels_if_countable`)
    that would be sorted whole is counted instead, level by level, which gives the same
    grades. Rows shorter than ``width`` come out padded as they went in. Since a gain is
    non-decreasing, the gains of these grades are the ideal gains.

    Examples
    --------
    >>> top_grades(np.array([[1, 3, 0, 3], [2, 0, 0, 1]]), 3).tolist()
    [[3, 3, 1], [2, 1, 0]]
    >>> top_grades(np.array([[0.5, 2.5, 1.0]]), 2).tolist()
    [[2.5, 1.0]]
    """
    row_width = grades.shape[1]
    if 8 * width <= row_width:
        grades = np.partition(grades, row_width - width, axis=1)[:, row_width - width :]
    elif grades.shape[0] == 1 and row_width >= COUNTED_ROW_FROM:
        top_level = levels_if_countable(grades)
        if top_level is not None:
            return _counted_top_grades(grades, top_level, width)
    return np.sort(grades, axis=1)[:, ::-1][:, :width]


def _counted_top_grades(grades: np.ndarray, top_level: int, width: int) -> np.ndarray:
    """One row of integer grades 0..top_level in non-increasing order, rebuilt from how many there are of each."""
    per_level = level_counts(grades, top_level)[0]
    levels = np.arange(top_level, -1, -1).astype(grades.dtype)
    return np.repeat(levels, per_level[::-1])[None, :width]


def discounted_sum(gains: np.ndarray, discounts: np.ndarray, *, what: str) -> np.ndarray:
    """Row sums of gains * discounts, refusing a sum that overflows float64.

    Every DCG, ranked or ideal, goes through here, on a C-contiguous float64 copy (or
    view) of its gains, so equal rows of gains give bit-equal sums. Single gains are
    checked where they are computed; this catches finite gains whose discounted sum
    is not (e.g. several documents with exp2 gain 2^1023).

    Examples
    --------
    >>> discounted_sum(np.array([[3.0, 1.0]]), np.array([1.0, 0.5]), what="DCG").tolist()
    [3.5]
    """
    gains = np.ascontiguousarray(gains, dtype=np.float64)
    with np.errstate(over="ignore", invalid="ignore"):
        # One row (one long list): a vector dot product, which BLAS runs faster than a 1-row matrix product.
        sums = np.array([gains[0] @ discounts]) if gains.shape[0] == 1 else gains @ discounts
    return _finite_sums(sums, what)


def _finite_sums(sums: np.ndarray, what: str) -> np.ndarray:
    if not np.all(np.isfinite(sums)):
        row = int(np.argmax(~np.isfinite(sums)))
        raise ValueError(
            f"{what} of query {row} overflows float64 (its gains sum past 1.8e308); use a smaller grade scale "
            f"or gain='linear'"
        )
    return sums


def rowwise_discounted_sum(
    gains: np.ndarray, discount: Discount | Callable[[np.ndarray], np.ndarray], *, what: str
) -> np.ndarray:
    """Row sums of gains[r] * D(r + 1), each row summed on its own and in trec_eval's order: bit for bit its sums.

    trec_eval adds a query's terms one at a time in rank order, and divides each gain by C's
    ``log2(rank + 1)`` (m_ndcg.c, m_ndcg_cut.c). Each row here is summed the same way (``np.add.accumulate``,
    sequential), and log2's terms are divided by C's log2 (Python's ``math.log2``; numpy's own log2 differs
    from it in the last bit for some ranks): the sums, and so the printed values, are trec_eval's to the last
    bit, even for a value at a rounding boundary of the 4 printed decimals. A row's sum never depends on the
    other rows either (BLAS's products split batches by row position), which the evaluation of runs in blocks
    or on Dask workers needs to agree exactly with one process.

    Examples
    --------
    >>> rowwise_discounted_sum(np.array([[3.0, 1.0], [1.0, 0.0]]), Discount("zipf"), what="DCG").tolist()
    [3.5, 1.0]
    """
    width = gains.shape[1]
    if width == 0:
        return np.zeros(gains.shape[0])
    with np.errstate(over="ignore", invalid="ignore"):
        if discount == _LOG2:
            terms = np.divide(gains, log2_of_ranks(width))
        else:
            terms = np.multiply(gains, discount_vector(discount, width))
        # in place: numpy's overlap rule keeps the result that of a separate output (it copies if it must)
        sums = np.add.accumulate(terms, axis=1, out=terms)[:, -1].copy()
    return _finite_sums(sums, what)


_LOG2 = Discount("log2")


def log2_of_ranks(length: int) -> np.ndarray:
    """C's ``log2(r + 1)`` for r = 1..length, as trec_eval divides by it (read-only, cached by powers of two).

    Examples
    --------
    >>> log2_of_ranks(3).tolist()
    [1.0, 1.584962500721156, 2.0]
    """
    return _log2_table(max(64, 1 << (length - 1).bit_length()))[:length]


@functools.lru_cache(maxsize=4)
def _log2_table(size: int) -> np.ndarray:
    table = np.array([math.log2(rank + 1) for rank in range(1, size + 1)])  # once per size: C's log2
    table.flags.writeable = False
    return table


def mean_in_order(values: np.ndarray) -> Any:
    """Means along the last axis (not empty) as trec_eval averages a measure over queries: added one by one, then
    divided (numpy's ``mean`` adds pairwise, which can differ in the last bit).

    Examples
    --------
    >>> mean_in_order(np.array([[1.0, 0.5, 0.0], [0.1, 0.2, 0.3]])).tolist()
    [0.5, 0.20000000000000004]
    """
    return np.add.accumulate(values, axis=-1)[..., -1] / values.shape[-1]


def ranked_dcg(gains: np.ndarray, discount: Discount | Callable[[np.ndarray], np.ndarray], k: int | None) -> np.ndarray:
    """DCG of each row of gains (rank order, padding 0) cut at k (None: every rank), by ``discounted_sum``.

    Examples
    --------
    >>> ranked_dcg(np.array([[3.0, 2.0, 4.0]]), Discount("zipf"), 2).tolist()
    [4.0]
    """
    width = gains.shape[1] if k is None else min(k, gains.shape[1])
    return discounted_sum(gains[:, :width], discount_vector(discount, width), what="DCG")


def ideal_dcg(
    grades: np.ndarray,
    gain: Gain | Callable[[np.ndarray], np.ndarray],
    discount: Discount | Callable[[np.ndarray], np.ndarray],
    k: int | None,
    *,
    name: str,
    ranks: int | None = None,
) -> np.ndarray:
    """DCG of each row's grades (any order; int8 sorts fastest) sorted by non-increasing gain, cut at k.

    ``ranks`` is the number of ranks of the DCG this ideal will divide (None: the width cut at k): when
    every positive grade of the ideal falls within them, the ideal is summed over exactly that many
    ranks (trailing grade-0 ranks dropped or added), so that a list in ideal order gets a bit-identical value.

    Examples
    --------
    >>> ideal_dcg(np.array([[1, 0, 3]]), Gain("linear"), Discount("zipf"), None, name="relevance").tolist()
    [3.5]
    """
    width = grades.shape[1] if k is None else min(k, grades.shape[1])
    ideal = top_grades(grades, width)
    if ranks is not None and ranks < width:  # rows are non-increasing: count the positives past `ranks`
        ideal = ideal[:, : ranks + int(np.count_nonzero(ideal[:, ranks:], axis=1).max())]
    elif ranks is not None and ranks > width:
        ideal = np.pad(ideal, ((0, 0), (0, ranks - width)))
    return ranked_dcg(apply_gain(gain, ideal, name=name), discount, None)


# Unit roundoff of float64.
_U = 2.0**-53


def ndcg_ratio(dcg: np.ndarray, idcg: np.ndarray, n_terms: int) -> np.ndarray:
    """dcg / idcg per row (idcg > 0), where dcg <= idcg holds in exact arithmetic.

    Both come from :func:`discounted_sum` of non-negative terms, so each carries a
    relative rounding error of at most gamma_n = n u / (1 - n u) (Higham, *Accuracy and
    Stability of Numerical Algorithms*, 2002, eq. 3.5; u = 2^-53), where ``n_terms`` bounds
    the number of gains summed into one row: its ranks, and for tie-averaged gains every
    gain of a tied group (at most the row's width). A list that differs from the ideal order
    by rounding-sized amounts can thus get a DCG a few ulps above its ideal DCG: a ratio
    within (1 + gamma_2n)(1 + u) / (1 - gamma_n) <= 1 + 4 (n + 1) u is exactly 1. A larger
    excess cannot come from rounding: RuntimeError (a gain or discount that is not a
    function of the grade or rank alone, or a bug).

    Examples
    --------
    >>> ndcg_ratio(np.array([1.0, 2.0000000000000004]), np.array([2.0, 2.0]), 2).tolist()
    [0.5, 1.0]
    """
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
