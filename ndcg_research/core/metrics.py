r"""CG, DCG, ideal DCG and nDCG, on one ranked list or on many queries at once.

Definitions (ranks r start at 1; ``rel_r`` is the grade of the document at rank r):

.. math::

    \mathrm{CG@k} = \sum_{r=1}^{k} g(rel_r), \qquad
    \mathrm{DCG@k} = \sum_{r=1}^{k} g(rel_r)\, D(r), \qquad
    \mathrm{nDCG@k} = \mathrm{DCG@k} / \mathrm{IDCG@k}

with gain g (default linear: g(rel) = rel) and discount D, a multiplier
(default D(r) = 1 / log2(r + 1)). IDCG@k is the DCG of the *ideal* ranking:
all known grades of the query, retrieved or not (``ideal=``), sorted by
non-increasing gain and cut at k. Without ``ideal`` the list itself is the
ideal (scikit-learn's convention). ``k=None`` cuts nothing (trec_eval's
``ndcg``); ``k=10`` cuts both list and ideal at 10 (trec_eval's ``ndcg_cut.10``);
a list shorter than k counts as padded with non-relevant documents.

Input shapes: a 1-D list gives a float; a 2-D array or a sequence of 1-D lists
(one per query, ragged allowed) gives a 1-D array with one value per query.

A query whose ideal DCG is 0 (no relevant document known) has no defined
nDCG; ``zero_ideal`` chooses what it gets: ``"zero"`` (default, as trec_eval
and scikit-learn), ``"one"`` (as allRank), ``"nan"`` (then average with
:func:`mean_over_queries`, which states which queries count) or ``"raise"``.
An :class:`UndefinedNDCGWarning` says how many queries the rule touched.

This module imports only numpy.
"""

from __future__ import annotations

import os
import sys
import warnings
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Literal, NamedTuple

import numpy as np

from . import kernels, validation
from .ranking import check_ties, ranked_gains
from .discounts import Discount, DiscountLike, parse_discount
from .gains import Gain, GainLike, parse_gain

__all__ = [
    "cg",
    "dcg",
    "idcg",
    "ndcg",
    "ndcg_parts",
    "dcg_from_scores",
    "ndcg_from_scores",
    "ndcg_parts_from_scores",
    "mean_over_queries",
    "NDCGParts",
    "UndefinedNDCGWarning",
    "ZERO_IDEAL_POLICIES",
]

ZeroIdeal = Literal["zero", "one", "nan", "raise"]
#: What a query whose ideal DCG is 0 may get.
ZERO_IDEAL_POLICIES: tuple[str, ...] = ("zero", "one", "nan", "raise")
Ties = Literal["average", "first", "pessimistic", "optimistic"]
Value = float | np.ndarray


class UndefinedNDCGWarning(UserWarning):
    """A query had ideal DCG 0 and got the value chosen by ``zero_ideal``."""


class NDCGParts(NamedTuple):
    """DCG, ideal DCG and nDCG side by side (floats for one list, arrays per query)."""

    dcg: Value
    idcg: Value
    ndcg: Value


def _out(values: np.ndarray, batch: validation.Batch) -> Value:
    return float(values[0]) if batch.single else values


def _grades(relevance: Any, name: str = "relevance") -> validation.Batch:
    batch = validation.as_batch(relevance, name=name, fill=0.0, keep_integers=True)
    validation.check_grades(batch)
    return batch


def _ideal_grades(ideal: Any, relevance: validation.Batch) -> validation.Batch:
    """The known grades of each query, checked to contain what was retrieved."""
    known = _grades(ideal, "ideal")
    if known.single != relevance.single or known.n_queries != relevance.n_queries:
        raise ValueError(
            f"ideal must give the known grades of each query of {relevance.name}: expected "
            f"{'one 1-D list' if relevance.single else f'{relevance.n_queries} lists'}, got "
            f"{'one 1-D list' if known.single else f'{known.n_queries} lists'}"
        )
    _check_ideal_covers(relevance, known)
    return known


def _check_ideal_covers(retrieved: validation.Batch, known: validation.Batch) -> None:
    """Every retrieved relevant document must be among the known grades.

    Checked as: for every grade level, the list has no more documents at or above
    it than the ideal has. This is what keeps nDCG <= 1 for every discount and gain.
    Small integer grades are counted level by level; other grades are sorted.
    """
    top_ours, top_theirs = kernels.levels_if_countable(retrieved.values), kernels.levels_if_countable(known.values)
    if top_ours is not None and top_theirs is not None:
        top = max(top_ours, top_theirs)
        ours, theirs = kernels.count_at_least(retrieved.values, top), kernels.count_at_least(known.values, top)
        bad = np.argwhere(ours > theirs)
        if bad.size:
            q, level = bad[0]
            _raise_not_covered(retrieved, q, float(level + 1), int(ours[q, level]), int(theirs[q, level]))
        return
    width = max(retrieved.values.shape[1], known.values.shape[1])
    ours = -np.sort(-_pad_to(retrieved.values, width), axis=1)
    theirs = -np.sort(-_pad_to(known.values, width), axis=1)
    bad = np.argwhere(ours > theirs)
    if bad.size:
        q, position = bad[0]
        grade = float(ours[q, position])
        _raise_not_covered(
            retrieved, q, grade, int(np.count_nonzero(ours[q] >= grade)), int(np.count_nonzero(theirs[q] >= grade))
        )


def _raise_not_covered(retrieved: validation.Batch, query: int, grade: float, ours: int, theirs: int) -> None:
    where = "" if retrieved.single else f" of query {query}"
    raise ValueError(
        f"ideal{where} does not contain the retrieved grades: {retrieved.name} has {ours} documents of "
        f"grade >= {grade!r}, ideal only {theirs}; ideal must list all known grades of the query, "
        f"retrieved or not"
    )


def _pad_to(values: np.ndarray, width: int) -> np.ndarray:
    return np.pad(values, ((0, 0), (0, width - values.shape[1])))


def _stacklevel_outside_package() -> int:
    """Stack level of the first caller outside this package, so warnings point at user code."""
    package_dir = os.path.dirname(__file__)
    frame, level = sys._getframe(1), 1
    while frame is not None and frame.f_code.co_filename.startswith(package_dir):
        frame, level = frame.f_back, level + 1
    return level


def _normalize(dcg_values: np.ndarray, idcg_values: np.ndarray, zero_ideal: str) -> np.ndarray:
    if zero_ideal not in ZERO_IDEAL_POLICIES:
        raise ValueError(f"zero_ideal must be one of {', '.join(map(repr, ZERO_IDEAL_POLICIES))}, got {zero_ideal!r}")
    undefined = idcg_values == 0
    if not undefined.any():
        return dcg_values / idcg_values
    queries = np.flatnonzero(undefined)
    listed = ", ".join(map(str, queries[:10])) + (", ..." if queries.size > 10 else "")
    if zero_ideal == "raise":
        raise ValueError(
            f"nDCG is undefined for {queries.size} quer{'y' if queries.size == 1 else 'ies'} with ideal DCG 0 "
            f"(no relevant document known): {listed}; choose zero_ideal='zero', 'one' or 'nan'"
        )
    fill = {"zero": 0.0, "one": 1.0, "nan": np.nan}[zero_ideal]
    warnings.warn(
        f"{queries.size} quer{'y has' if queries.size == 1 else 'ies have'} ideal DCG 0 (no relevant document "
        f"known): {listed}; nDCG set to {fill} by zero_ideal={zero_ideal!r}",
        UndefinedNDCGWarning,
        stacklevel=_stacklevel_outside_package(),
    )
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(undefined, fill, dcg_values / idcg_values)


def _ranked_parts(
    relevance: Any,
    k: Any,
    ideal: Any,
    gain: GainLike,
    discount: DiscountLike,
    judged: Any = None,
    *,
    need_dcg: bool = True,
) -> tuple[validation.Batch, np.ndarray | None, np.ndarray]:
    k = validation.check_k(k)
    gain_fn, discount_fn = parse_gain(gain), parse_discount(discount)
    batch = _grades(relevance)
    if judged is not None:  # before the ideal: grades of unjudged documents are unknown
        batch = validation.condense(batch, validation.judged_mask(judged, batch), fill=0.0)
    known = batch if ideal is None else _ideal_grades(ideal, batch)
    dcg_values = None
    if need_dcg:
        dcg_values = kernels.ranked_dcg(kernels.apply_gain(gain_fn, batch.values, name="relevance"), discount_fn, k)
    idcg_values = kernels.ideal_dcg(known.values, gain_fn, discount_fn, k, name=known.name)
    return batch, dcg_values, idcg_values


def cg(relevance: Any, k: int | None = None, *, gain: GainLike = "linear") -> Value:
    r"""Cumulative gain: :math:`\mathrm{CG@k} = \sum_{r=1}^{k} g(rel_r)`, the order ignored.

    Parameters
    ----------
    relevance : array-like
        Grades (>= 0) in rank order, rank 1 first: a 1-D list, or a 2-D array /
        sequence of 1-D lists with one query each.
    k : int or None, default None
        Cut-off; None sums the whole list.
    gain : str, mapping or callable, default "linear"
        See :mod:`ndcg_research.core.gains`.

    Returns
    -------
    float or numpy.ndarray
        One value for a 1-D list, one per query otherwise.

    Examples
    --------
    >>> cg([3, 2, 3, 0, 1, 2])
    11.0
    >>> cg([[3, 2], [1]]).tolist()
    [5.0, 1.0]
    """
    return dcg(relevance, k, gain=gain, discount="none")


def dcg(relevance: Any, k: int | None = None, *, gain: GainLike = "linear", discount: DiscountLike = "log2") -> Value:
    r"""Discounted cumulative gain: :math:`\mathrm{DCG@k} = \sum_{r=1}^{k} g(rel_r)\, D(r)`.

    Parameters
    ----------
    relevance : array-like
        Grades (>= 0) in rank order, rank 1 first: a 1-D list, or a 2-D array /
        sequence of 1-D lists (ragged allowed) with one query each.
    k : int or None, default None
        Cut-off; None uses the whole list.
    gain : str, mapping or callable, default "linear"
        g(rel); ``"exp2"`` is 2^rel - 1. See :mod:`ndcg_research.core.gains`.
    discount : str or callable, default "log2"
        D(r), a multiplier on 1-based ranks; ``"log2"`` is 1 / log2(r + 1).
        See :mod:`ndcg_research.core.discounts`.

    Returns
    -------
    float or numpy.ndarray

    Examples
    --------
    >>> round(dcg([3, 2, 3, 0, 1, 2]), 3)
    6.861
    >>> round(dcg([3, 2, 3, 0, 1, 2], gain="exp2"), 3)
    13.848
    >>> dcg([[1, 0], [0, 1]], discount="zipf").tolist()
    [1.0, 0.5]
    """
    k = validation.check_k(k)
    gain_fn, discount_fn = parse_gain(gain), parse_discount(discount)
    batch = validation.as_batch(relevance, name="relevance", fill=0.0, keep_integers=True)
    whole_list = k is None or k >= batch.values.shape[1]
    if whole_list and gain_fn == Gain("linear"):
        # Hot path: one minimum pass, then the dot product. A finite DCG over every
        # entry certifies there is no +inf (D > 0), so the maximum pass is skipped.
        validation.check_grades(batch, upper_checked=True)
        try:
            values = kernels.ranked_dcg(batch.values, discount_fn, k)
        except ValueError:  # not finite: report +inf in the input if that is the cause, else the overflow
            validation.check_grades(batch)
            raise
        return _out(values, batch)
    validation.check_grades(batch)
    return _out(kernels.ranked_dcg(kernels.apply_gain(gain_fn, batch.values, name="relevance"), discount_fn, k), batch)


def idcg(
    relevance: Any,
    k: int | None = None,
    *,
    ideal: Any = None,
    gain: GainLike = "linear",
    discount: DiscountLike = "log2",
) -> Value:
    """Ideal DCG: the DCG of the known grades sorted by non-increasing gain, cut at k.

    Parameters
    ----------
    relevance : array-like
        Grades in rank order (used as the ideal when ``ideal`` is None, and to
        check that ``ideal`` contains them).
    k : int or None, default None
        Cut-off applied to the ideal ranking; None keeps every known grade.
    ideal : array-like, optional
        All known grades of each query, retrieved or not, in any order.
    gain, discount
        As in :func:`dcg`.

    Returns
    -------
    float or numpy.ndarray

    Examples
    --------
    The worked example: six returned documents, two more relevant ones (3 and 2)
    known but not returned.

    >>> returned = [3, 2, 3, 0, 1, 2]
    >>> round(idcg(returned, 6, ideal=returned + [3, 2]), 3)
    8.74
    """
    batch, _, idcg_values = _ranked_parts(relevance, k, ideal, gain, discount, need_dcg=False)
    return _out(idcg_values, batch)


def ndcg_parts(
    relevance: Any,
    k: int | None = None,
    *,
    ideal: Any = None,
    gain: GainLike = "linear",
    discount: DiscountLike = "log2",
    zero_ideal: ZeroIdeal = "zero",
    judged: Any = None,
) -> NDCGParts:
    """DCG, ideal DCG and nDCG computed together; arguments as in :func:`ndcg`.

    Examples
    --------
    >>> parts = ndcg_parts([3, 2, 3, 0, 1, 2], 6, ideal=[3, 2, 3, 0, 1, 2, 3, 2])
    >>> [round(x, 3) for x in parts]
    [6.861, 8.74, 0.785]
    """
    batch, dcg_values, idcg_values = _ranked_parts(relevance, k, ideal, gain, discount, judged)
    ndcg_values = _normalize(dcg_values, idcg_values, zero_ideal)
    return NDCGParts(_out(dcg_values, batch), _out(idcg_values, batch), _out(ndcg_values, batch))


def ndcg(
    relevance: Any,
    k: int | None = None,
    *,
    ideal: Any = None,
    gain: GainLike = "linear",
    discount: DiscountLike = "log2",
    zero_ideal: ZeroIdeal = "zero",
    judged: Any = None,
) -> Value:
    r"""Normalized DCG: :math:`\mathrm{nDCG@k} = \mathrm{DCG@k} / \mathrm{IDCG@k}`, in [0, 1].

    Parameters
    ----------
    relevance : array-like
        Grades (>= 0) in rank order, rank 1 first: a 1-D list (one query), or a
        2-D array / sequence of 1-D lists (ragged allowed), one per query.
    k : int or None, default None
        Cut-off for both the list and the ideal. None cuts nothing (the ideal
        then runs over every known grade, as trec_eval's ``ndcg``); ``k=10``
        matches trec_eval's ``ndcg_cut.10``.
    ideal : array-like, optional
        All known grades of each query (retrieved or not, any order; same
        nesting as ``relevance``). None builds the ideal from the list itself.
        Must contain the retrieved grades, else ValueError.
    gain : str, mapping or callable, default "linear"
        g(rel); ``"exp2"`` = 2^rel - 1; a dict maps grade to gain.
    discount : str or callable, default "log2"
        D(r) on 1-based ranks; see :mod:`ndcg_research.core.discounts`.
    zero_ideal : {"zero", "one", "nan", "raise"}, default "zero"
        Value for a query whose ideal DCG is 0 (with an UndefinedNDCGWarning).
    judged : array-like of bool, optional
        Same shape as ``relevance``: False marks a document nobody judged.
        Given, the metric runs on the *condensed list* (Sakai 2007; trec_eval
        ``-J``): unjudged documents are removed and the ranks below close up;
        with ``ideal=None`` the ideal is built from the judged documents only.
        Not given, every document counts as judged, so unjudged documents must
        carry grade 0 (the usual, pessimistic convention).

    Returns
    -------
    float or numpy.ndarray
        nDCG of the list, or one value per query.

    See Also
    --------
    ndcg_from_scores : the same from labels and model scores.
    ndcg_parts : DCG and ideal DCG alongside.

    Examples
    --------
    >>> returned = [3, 2, 3, 0, 1, 2]
    >>> round(ndcg(returned, 6, ideal=returned + [3, 2]), 3)
    0.785
    >>> round(ndcg(returned), 3)  # ideal from the returned list only: inflated
    0.961
    >>> ndcg([[3, 2, 1], [0, 1]]).round(3).tolist()
    [1.0, 0.631]

    Condensed list: the unjudged document at rank 2 is dropped, the 1 moves up.

    >>> round(ndcg([0, 0, 1], judged=[True, False, True]), 3)
    0.631
    """
    return ndcg_parts(
        relevance, k, ideal=ideal, gain=gain, discount=discount, zero_ideal=zero_ideal, judged=judged
    ).ndcg


def _score_parts(
    y_true: Any,
    y_score: Any,
    k: Any,
    ideal: Any,
    gain: GainLike,
    discount: DiscountLike,
    ties: str,
    judged: Any = None,
    *,
    need_ideal: bool = True,
) -> tuple[validation.Batch, np.ndarray, np.ndarray | None]:
    k = validation.check_k(k)
    ties = check_ties(ties)
    gain_fn, discount_fn = parse_gain(gain), parse_discount(discount)
    labels = _grades(y_true, "y_true")
    scores = validation.as_batch(y_score, name="y_score", fill=-np.inf)
    validation.check_same_shape(labels, scores)
    validation.check_scores(scores)
    if judged is not None:  # before the ideal: grades of unjudged documents are unknown
        mask = validation.judged_mask(judged, labels)
        labels = validation.condense(labels, mask, fill=0.0)
        scores = validation.condense(scores, mask, fill=-np.inf)
    known = labels if ideal is None else _ideal_grades(ideal, labels)
    ideal_job = None
    if need_ideal:
        ideal_job = _start(kernels.ideal_dcg, known.values, gain_fn, discount_fn, k, name=known.name)
    gains = kernels.apply_gain(gain_fn, labels.values, name="y_true")
    dcg_values = kernels.ranked_dcg(ranked_gains(gains, scores.values, k, ties), discount_fn, k)
    return labels, dcg_values, None if ideal_job is None else ideal_job()


# Below this many entries a second thread costs more than it saves.
_THREAD_MIN_SIZE = 1 << 18
_helper_thread: ThreadPoolExecutor | None = None


def _forget_helper_thread() -> None:
    # A forked child inherits the executor but not its thread: jobs would wait for ever.
    global _helper_thread
    _helper_thread = None


os.register_at_fork(after_in_child=_forget_helper_thread)


def _start(
    ideal_dcg: Callable[..., np.ndarray],
    grades: np.ndarray,
    gain: Any,
    discount: Any,
    k: int | None,
    *,
    name: str,
) -> Callable[[], np.ndarray]:
    """Start the ideal DCG, on a helper thread when that pays; return a call that gives it.

    The ideal DCG and the ranking by score are independent and numpy releases the
    GIL in its partitions and sorts, so on a large batch they overlap on two
    cores. Only built-in gains and discounts go to the thread (a user callable
    need not be thread-safe), and the discount vector is cached here first so the
    thread only reads the cache. The result is the same either way.
    """
    global _helper_thread
    if grades.size < _THREAD_MIN_SIZE or not (isinstance(gain, Gain) and isinstance(discount, Discount)):
        value = ideal_dcg(grades, gain, discount, k, name=name)
        return lambda: value
    kernels.cumulative_discount(discount, grades.shape[1] if k is None else min(k, grades.shape[1]))
    if _helper_thread is None:
        _helper_thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="ndcg_research")
    return _helper_thread.submit(ideal_dcg, grades, gain, discount, k, name=name).result


def ndcg_parts_from_scores(
    y_true: Any,
    y_score: Any,
    k: int | None = None,
    *,
    ideal: Any = None,
    gain: GainLike = "linear",
    discount: DiscountLike = "log2",
    ties: Ties = "average",
    zero_ideal: ZeroIdeal = "zero",
    judged: Any = None,
) -> NDCGParts:
    """DCG, ideal DCG and nDCG from labels and scores; arguments as in :func:`ndcg_from_scores`.

    Examples
    --------
    >>> parts = ndcg_parts_from_scores([2, 0, 1], [0.1, 0.9, 0.5])
    >>> [round(x, 3) for x in parts]
    [1.631, 2.631, 0.62]
    """
    labels, dcg_values, idcg_values = _score_parts(y_true, y_score, k, ideal, gain, discount, ties, judged)
    ndcg_values = _normalize(dcg_values, idcg_values, zero_ideal)
    return NDCGParts(_out(dcg_values, labels), _out(idcg_values, labels), _out(ndcg_values, labels))


def ndcg_from_scores(
    y_true: Any,
    y_score: Any,
    k: int | None = None,
    *,
    ideal: Any = None,
    gain: GainLike = "linear",
    discount: DiscountLike = "log2",
    ties: Ties = "average",
    zero_ideal: ZeroIdeal = "zero",
    judged: Any = None,
) -> Value:
    """nDCG of the ranking that sorts documents by decreasing model score.

    Parameters
    ----------
    y_true : array-like
        Grades (>= 0) of the documents, in any order: a 1-D list for one query,
        or a 2-D array / sequence of 1-D lists (ragged allowed), one per query.
    y_score : array-like
        Finite model scores, same shape as ``y_true``; higher ranks first.
    k : int or None, default None
        Cut-off for the ranking and the ideal. Only the top k are sorted.
    ideal : array-like, optional
        All known grades of each query, if ``y_true`` does not hold them all
        (relevant documents the model never scored). Default: ``y_true``.
    gain, discount
        As in :func:`ndcg`.
    ties : {"average", "first", "pessimistic", "optimistic"}, default "average"
        Documents with equal scores: ``"average"`` gives each rank of a tied
        group the group's mean gain (McSherry & Najork 2008; scikit-learn's
        default), the expected DCG over the group's orderings; ``"first"``
        puts the earlier document first (deterministic; pass documents in
        descending document-id order to mimic trec_eval); ``"pessimistic"`` /
        ``"optimistic"`` put the lowest / highest gain first. A constant
        model gets the average, never 1 by accident.
    zero_ideal : {"zero", "one", "nan", "raise"}, default "zero"
        Value for a query whose ideal DCG is 0.
    judged : array-like of bool, optional
        Same shape as ``y_true``; unjudged documents (False) are removed before
        ranking (condensed list, trec_eval ``-J``). See :func:`ndcg`.

    Returns
    -------
    float or numpy.ndarray

    Examples
    --------
    >>> round(ndcg_from_scores([2, 0, 1], [0.1, 0.9, 0.5]), 3)
    0.62
    >>> round(ndcg_from_scores([1, 0], [0.5, 0.5]), 3)  # tied: mean over both orders
    0.815
    >>> ndcg_from_scores([1, 0], [0.5, 0.5], ties="pessimistic")
    0.6309297535714575
    """
    return ndcg_parts_from_scores(
        y_true, y_score, k, ideal=ideal, gain=gain, discount=discount, ties=ties, zero_ideal=zero_ideal, judged=judged
    ).ndcg


def dcg_from_scores(
    y_true: Any,
    y_score: Any,
    k: int | None = None,
    *,
    gain: GainLike = "linear",
    discount: DiscountLike = "log2",
    ties: Ties = "average",
) -> Value:
    """DCG of the ranking by decreasing score; arguments as in :func:`ndcg_from_scores`.

    Examples
    --------
    >>> round(dcg_from_scores([2, 0, 1], [0.1, 0.9, 0.5]), 3)
    1.631
    """
    labels, dcg_values, _ = _score_parts(y_true, y_score, k, None, gain, discount, ties, need_ideal=False)
    return _out(dcg_values, labels)


def mean_over_queries(values: Any, *, nan_policy: Literal["raise", "omit", "propagate"] = "raise") -> float:
    """Average per-query values, saying which queries count.

    Every query counts, with the value the ``zero_ideal`` policy gave it
    (``"zero"``: queries without relevant documents count as 0, as in
    trec_eval). Queries set to NaN (``zero_ideal="nan"``) are the only ones
    that can be left out, and only by asking: ``nan_policy="omit"`` averages
    over the others (as trectools), ``"propagate"`` returns NaN, ``"raise"``
    (default) refuses.

    Parameters
    ----------
    values : array-like
        One value per query.
    nan_policy : {"raise", "omit", "propagate"}, default "raise"

    Returns
    -------
    float

    Examples
    --------
    >>> mean_over_queries([1.0, 0.5, float("nan")], nan_policy="omit")
    0.75
    """
    if nan_policy not in ("raise", "omit", "propagate"):
        raise ValueError(f"nan_policy must be 'raise', 'omit' or 'propagate', got {nan_policy!r}")
    array = np.asarray(values, dtype=np.float64)
    if array.ndim != 1 or array.size == 0:
        raise ValueError(f"values must be a non-empty 1-D array of per-query values, got shape {array.shape}")
    missing = np.isnan(array)
    if missing.any():
        if nan_policy == "raise":
            raise ValueError(
                f"{missing.sum()} of {array.size} per-query values are NaN (undefined nDCG); pass "
                f"nan_policy='omit' to average over the {array.size - missing.sum()} defined queries"
            )
        if nan_policy == "omit":
            if missing.all():
                raise ValueError("every per-query value is NaN; there is nothing to average")
            return float(array[~missing].mean())
    return float(array.mean())
