"""CG, DCG, ideal DCG and nDCG of one ranked list or of many queries at once: the public metric functions.
Every parameter is checked before the data, and all input before any computation."""

import re
import textwrap
import threading
import warnings
from collections.abc import Callable
from typing import Any, Literal, NamedTuple, TypeVar

import numpy as np

from .._validation import check_array, check_int, check_option
from . import _batch, _kernels
from ._batch import Batch
from ._discounts import Discount, DiscountFunction, DiscountLike, parse_discount
from ._gains import Gain, GainFunction, GainLike, parse_gain
from ._ranking import TIES, ranked_gains
from ._specs import format_number

ZeroIdeal = Literal["zero", "one", "nan", "raise"]
#: What a query whose ideal DCG is 0 may get.
ZERO_IDEAL_POLICIES: tuple[str, ...] = ("zero", "one", "nan", "raise")
Ties = Literal["average", "first", "pessimistic", "optimistic"]
Value = float | np.ndarray
#: With ``threads=None``, batches of at least this many entries compute the ideal DCG on a second thread.
OVERLAP_MIN_ENTRIES = 1 << 18

# The zero-ideal warning is raised in _parts, called by a public function, called by the user:
# three frames up. Public functions therefore call _parts directly.
_STACKLEVEL = 3
_T = TypeVar("_T")
_NO_DISCOUNT = Discount("none")
_LINEAR = Gain("linear")
#: The checked labels, their DCG and ideal DCG, and how many terms a row sums at most (``_kernels.ndcg_ratio``'s bound).
_Computed = tuple[Batch, np.ndarray, np.ndarray | None, int]


class UndefinedNDCGWarning(UserWarning):
    """A query had ideal DCG 0 and got the value chosen by ``zero_ideal``."""


class NDCGParts(NamedTuple):
    """DCG, ideal DCG and nDCG side by side (floats for one list, arrays per query)."""

    dcg: Value
    idcg: Value
    ndcg: Value


class _Options(NamedTuple):
    """The checked parameters of one call."""

    k: int | None
    gain: GainFunction
    discount: DiscountFunction
    zero_ideal: str = "zero"
    ties: str = "first"
    threads: int | None = None

    def ideal_dcg(self, known: Batch, ranks: int) -> np.ndarray:
        return _kernels.ideal_dcg(known.values, self.gain, self.discount, self.k, name=known.name, ranks=ranks)


def _options(
    k: Any, gain: Any, discount: Any, zero_ideal: Any = "zero", ties: Any = "first", threads: Any = None
) -> _Options:
    return _Options(
        check_int(k, "k", low=1, none=True),
        parse_gain(gain),
        parse_discount(discount),
        check_option(zero_ideal, "zero_ideal", ZERO_IDEAL_POLICIES),
        check_option(ties, "ties", TIES),
        check_int(threads, "threads", low=1, high=2, none=True),
    )


def _scalar_if_single(values: np.ndarray, batch: Batch) -> Value:
    return float(values[0]) if batch.single else values


def _width(batch: Batch, k: int | None) -> int:
    return batch.values.shape[1] if k is None else min(k, batch.values.shape[1])


def _grades(data: Any, name: str, *, allow_empty: bool = False) -> Batch:
    batch = _batch.as_batch(data, name=name, fill=0.0, keep_integers=True, allow_empty=allow_empty)
    _batch.check_grades(batch)
    return batch


def _known_grades(ideal: Any, retrieved: Batch) -> Batch:
    """The known grades of each query (``ideal``, or the list itself), checked to contain what was retrieved."""
    if ideal is None:
        return retrieved
    known = _grades(ideal, "ideal")
    if known.single != retrieved.single or known.n_queries != retrieved.n_queries:
        raise ValueError(
            f"ideal must give the known grades of each query of {retrieved.name}: expected "
            f"{'one 1-D list' if retrieved.single else f'{retrieved.n_queries} lists'}, got "
            f"{'one 1-D list' if known.single else f'{known.n_queries} lists'}"
        )
    _check_contains(known, retrieved)
    return known


def _check_contains(known: Batch, retrieved: Batch) -> None:
    """Per query and positive grade, the list may hold no more documents of that grade than the ideal: this
    keeps nDCG <= 1 and catches misaligned batches (grade 0 may be unjudged and need not be listed)."""
    countable = _kernels.levels_if_countable
    top_ours, top_theirs = countable(retrieved.values), countable(known.values)
    if top_ours is not None and top_theirs is not None:
        top = max(top_ours, top_theirs)
        ours = _kernels.level_counts(retrieved.values, top)[:, 1:]
        theirs = _kernels.level_counts(known.values, top)[:, 1:]
        bad = np.argwhere(ours > theirs)
        if bad.size:
            query, level = bad[0]
            _raise_not_contained(retrieved, query, level + 1, ours[query, level], theirs[query, level])
        return
    # Otherwise: every positive entry of both, sorted by (query, grade); in each run of one
    # (query, grade), the retrieved entries must not outnumber the known ones.
    ours_q, ours_c = np.nonzero(retrieved.valid() & (retrieved.values > 0))
    theirs_q, theirs_c = np.nonzero(known.valid() & (known.values > 0))
    if ours_q.size == 0:
        return
    queries = np.concatenate([ours_q, theirs_q])
    grades = np.concatenate([retrieved.values[ours_q, ours_c], known.values[theirs_q, theirs_c]]).astype(np.float64)
    order = np.lexsort((grades, queries))
    queries, grades, is_ours = queries[order], grades[order], order < ours_q.size
    starts = np.flatnonzero(np.r_[True, (queries[1:] != queries[:-1]) | (grades[1:] != grades[:-1])])
    n_ours = np.add.reduceat(is_ours.astype(np.intp), starts)
    n_theirs = np.diff(np.r_[starts, queries.size]) - n_ours
    excess = np.flatnonzero(n_ours > n_theirs)
    if excess.size:
        run = excess[0]
        _raise_not_contained(retrieved, queries[starts[run]], grades[starts[run]], n_ours[run], n_theirs[run])


def _raise_not_contained(retrieved: Batch, query: int, grade: float, ours: int, theirs: int) -> None:
    where = "" if retrieved.single else f" of query {query}"
    raise ValueError(
        f"ideal{where} does not contain the retrieved grades: {retrieved.name} has {ours} "
        f"document{'' if ours == 1 else 's'} of grade {format_number(grade)}, ideal {theirs}; "
        f"ideal must list all known grades of the query, retrieved or not"
    )


def _parts(
    batch: Batch, dcg_values: np.ndarray, idcg_values: np.ndarray | None, n_terms: int, zero_ideal: str
) -> NDCGParts:
    """DCG, ideal DCG and nDCG (zero_ideal applied); call it from a public function (the warning's stack level)."""
    assert idcg_values is not None  # computed for every caller of _parts
    undefined = idcg_values == 0
    if not undefined.any():
        ndcg_values = _kernels.ndcg_ratio(dcg_values, idcg_values, n_terms)
        return NDCGParts(*(_scalar_if_single(v, batch) for v in (dcg_values, idcg_values, ndcg_values)))
    queries = np.flatnonzero(undefined)
    # Row positions in the batch, said as such: a bare "0" would read like a value.
    listed = (
        f"the quer{'y' if queries.size == 1 else 'ies'} at row{'' if queries.size == 1 else 's'} "
        + ", ".join(map(str, queries[:10]))
        + (", ..." if queries.size > 10 else "")
    )
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
        stacklevel=_STACKLEVEL,
    )
    ndcg_values = np.full(idcg_values.shape, fill)
    ndcg_values[~undefined] = _kernels.ndcg_ratio(dcg_values[~undefined], idcg_values[~undefined], n_terms)
    return NDCGParts(*(_scalar_if_single(v, batch) for v in (dcg_values, idcg_values, ndcg_values)))


# The parameter texts the public functions share, written once and filled into each docstring at import
# (as scipy's doccer does), so that help() shows every one in full.
_PARAMETERS = {
    "relevance": """relevance : array-like
    Grades (>= 0) in rank order, rank 1 first: a 1-D list (one query), or a 2-D array /
    sequence of 1-D lists (ragged allowed, padded to the longest), one per query. Iterators
    are read whole; masked arrays and sets are refused.""",
    "ideal": """ideal : array-like, optional
    All known grades of each query, retrieved or not, in any order (same nesting as the
    list). It must contain every retrieved grade above 0, as many times as it is
    retrieved, else ValueError. None: the list's own grades.""",
    "judged": """judged : array-like of bool, optional
    Same shape as the list: False marks a document nobody judged. Given, the metric runs
    on the *condensed list* (Sakai 2007; trec_eval ``-J``): unjudged documents are removed
    and the ranks below close up, and with ``ideal=None`` the ideal holds the judged
    documents only. Not given, every document counts as judged, so unjudged documents
    must carry grade 0 (the usual, pessimistic convention).""",
    "gain": """gain : str, mapping or callable, default "linear"
    g(rel): "linear" (rel), "exp2" (2^rel - 1), "mapping({0: 0, 1: 1, 2: 3})" or a
    dict from grade to gain, or a non-decreasing callable with g(0) = 0 (see ``parse_gain``).""",
    "discount": """discount : str or callable, default "log2"
    D(r) on 1-based ranks: "log2" (1 / log2(r + 1)), "log(base=2)", "jarvelin(base=2)",
    "power(beta=...)" (r^-beta), "zipf" (1 / r), "geometric(p=...)" (p^(r-1)),
    "logpower(gamma=...)", "loglog", "zipflog(gamma=...)", "none" (see ``parse_discount``),
    or a non-increasing callable on ranks, finite, >= 0 and D(1) > 0 (it may underflow to 0
    deep down, as geometric does).""",
    "k_ndcg": """k : int or None, default None
    Cut-off for both the list and the ideal. None cuts nothing (the ideal
    then runs over every known grade, as trec_eval's ``ndcg``); ``k=10``
    matches trec_eval's ``ndcg_cut.10``.""",
    "k_scores": """k : int or None, default None
    Cut-off for the ranking and the ideal; None cuts nothing. Only the top k are sorted.""",
    "zero_ideal": """zero_ideal : {"zero", "one", "nan", "raise"}, default "zero"
    nDCG of a query whose ideal DCG is 0 (with an UndefinedNDCGWarning).""",
    "y_true": """y_true : array-like
    Grades (>= 0) of the documents, in any order: a 1-D list for one query, or a 2-D array /
    sequence of 1-D lists (ragged allowed), one per query. May be empty (nothing returned:
    DCG 0) only when ``ideal`` is given.""",
    "y_score": """y_score : array-like
    Finite model scores, same shape as ``y_true``; higher ranks first. Paired with ``y_true`` by
    position: pandas objects whose labels differ from ``y_true``'s are refused (align them first).""",
    "ties": """ties : {"average", "first", "pessimistic", "optimistic"}, default "average"
    Documents with equal scores: ``"average"`` gives each rank of a tied group the group's
    mean gain (McSherry & Najork 2008; scikit-learn's default), the expected DCG over the
    group's orderings; ``"first"`` puts the earlier document first (pass documents in
    descending document-id order to mimic trec_eval); ``"pessimistic"`` / ``"optimistic"``
    put the lowest / highest gain first. A constant model gets the average over orders (1 only
    where every order is ideal).""",
    "threads": """threads : {None, 1, 2}, default None
    The ideal DCG and the ranking are independent: on a large batch the ideal DCG runs
    on a second thread (started and joined within the call) while the documents are
    ranked. 2: always (built-in gain and discount only: a user's callable runs on the
    calling thread); 1: one thread, for a caller that runs evaluations in parallel
    itself; None: 2 for batches of at least OVERLAP_MIN_ENTRIES (2^18) entries, else 1.
    The values do not depend on it.""",
    "value": """float or numpy.ndarray
    One value for a 1-D list, one per query otherwise.""",
    "parts": """NDCGParts
    ``(dcg, idcg, ndcg)``: floats for a 1-D list, arrays with one value per query otherwise.""",
}


def _documented(function: Callable[..., _T]) -> Callable[..., _T]:
    """Fill the shared texts into the docstring: a line ``%(gain, discount)s`` becomes those texts, indented."""
    function.__doc__ = re.sub(
        r"^( *)%\(([\w, ]+)\)s$",
        lambda line: textwrap.indent("\n".join(_PARAMETERS[key.strip()] for key in line[2].split(",")), line[1]),
        function.__doc__ or "",
        flags=re.MULTILINE,
    )
    return function


def _dcg(relevance: Any, options: _Options, what: str = "DCG") -> Value:
    """DCG (``what``: CG without a discount) of ranked lists, the parameters checked (``dcg`` and ``cg``)."""
    batch = _batch.as_batch(relevance, name="relevance", fill=0.0, keep_integers=True, empty_hint="")  # no ideal=
    gain, discount, width = options.gain, options.discount, _width(batch, options.k)
    if width == batch.values.shape[1] and gain == _LINEAR:
        # Hot path: one minimum pass, then the dot product. A finite DCG over every
        # entry certifies there is no +inf (D > 0), so the maximum pass is skipped.
        _batch.check_grades(batch, upper_checked=True)
        try:
            values = _kernels.ranked_dcg(batch.values, discount, None, what)
        except ValueError:  # not finite: report +inf in the input if that is the cause, else the overflow
            _batch.check_grades(batch)
            raise
        return _scalar_if_single(values, batch)
    _batch.check_grades(batch)
    gains = _kernels.apply_gain(gain, batch.values[:, :width], name="relevance")
    return _scalar_if_single(_kernels.ranked_dcg(gains, discount, None, what), batch)


@_documented
def cg(relevance: Any, k: int | None = None, *, gain: GainLike = "linear") -> Value:
    """Cumulative gain: CG@k = sum over ranks r = 1..k of g(rel_r), the order ignored.

    Parameters
    ----------
    %(relevance)s
    k : int or None, default None
        Cut-off; None sums the whole list.
    %(gain)s

    Returns
    -------
    %(value)s

    Examples
    --------
    >>> cg([3, 2, 3, 0, 1, 2])
    11.0
    >>> cg([[3, 2], [1]]).tolist()
    [5.0, 1.0]
    """
    return _dcg(relevance, _options(k, gain, _NO_DISCOUNT), "CG")


@_documented
def dcg(relevance: Any, k: int | None = None, *, gain: GainLike = "linear", discount: DiscountLike = "log2") -> Value:
    """Discounted cumulative gain: DCG@k = sum over ranks r = 1..k of g(rel_r) D(r).

    Parameters
    ----------
    %(relevance)s
    k : int or None, default None
        Cut-off; None uses the whole list.
    %(gain, discount)s

    Returns
    -------
    %(value)s

    Examples
    --------
    >>> round(dcg([3, 2, 3, 0, 1, 2]), 3)
    6.861
    >>> round(dcg([3, 2, 3, 0, 1, 2], gain="exp2"), 3)
    13.848
    >>> dcg([[1, 0], [0, 1]], discount="zipf").tolist()
    [1.0, 0.5]
    """
    return _dcg(relevance, _options(k, gain, discount))


@_documented
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
    %(relevance)s
        The ideal when ``ideal`` is None; may be empty when ``ideal`` is given.
    k : int or None, default None
        Cut-off applied to the ideal ranking; None keeps every known grade.
    %(ideal, gain, discount)s

    Returns
    -------
    %(value)s

    Examples
    --------
    The worked example: six returned documents, two more relevant ones (3 and 2)
    known but not returned.

    >>> returned = [3, 2, 3, 0, 1, 2]
    >>> round(idcg(returned, 6, ideal=returned + [3, 2]), 3)
    8.74
    """
    options = _options(k, gain, discount)
    batch = _grades(relevance, "relevance", allow_empty=ideal is not None)
    return _scalar_if_single(options.ideal_dcg(_known_grades(ideal, batch), _width(batch, options.k)), batch)


@_documented
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
    """DCG, ideal DCG and nDCG of ranked lists, computed together (the arguments of ``ndcg``).

    Parameters
    ----------
    %(relevance)s
        May be empty (nothing returned) only when ``ideal`` is given: it scores 0.
    %(k_ndcg, ideal, gain, discount, zero_ideal, judged)s

    Returns
    -------
    %(parts)s

    Examples
    --------
    >>> parts = ndcg_parts([3, 2, 3, 0, 1, 2], 6, ideal=[3, 2, 3, 0, 1, 2, 3, 2])
    >>> [round(x, 3) for x in parts]
    [6.861, 8.74, 0.785]
    """
    options = _options(k, gain, discount, zero_ideal)
    return _parts(*_listed(relevance, ideal, judged, options), options.zero_ideal)


@_documented
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
    """Normalized DCG: nDCG@k = DCG@k / IDCG@k, in [0, 1].

    A list in ideal order gets exactly 1.0, and no list more: a ratio above 1 by no more
    than the summation's rounding bound (a few ulps) is 1; a larger one is a RuntimeError.

    Parameters
    ----------
    %(relevance)s
        May be empty (nothing returned) only when ``ideal`` is given: it scores 0.
    %(k_ndcg, ideal, gain, discount, zero_ideal, judged)s

    Returns
    -------
    %(value)s

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
    >>> ndcg([4, 4, 3, 1])  # ideal order: exactly 1
    1.0
    >>> ndcg([], ideal=[2, 1])  # nothing returned for a query with relevant documents
    0.0

    Condensed list: the unjudged document at rank 2 is dropped, the 1 moves up.

    >>> round(ndcg([0, 0, 1], judged=[True, False, True]), 3)
    0.631
    """
    options = _options(k, gain, discount, zero_ideal)
    return _parts(*_listed(relevance, ideal, judged, options), options.zero_ideal).ndcg


def _start_on_thread(function: Callable[..., _T], *args: Any, **kwargs: Any) -> Callable[[], _T]:
    """Start ``function(*args, **kwargs)`` on a thread of its own (no pool, no module state, safe across fork);
    the call returned waits for the result and re-raises the thread's exception."""
    outcome: dict[str, Any] = {}

    def run() -> None:
        try:
            outcome["value"] = function(*args, **kwargs)
        except BaseException as error:  # handed to the caller below
            outcome["error"] = error

    thread = threading.Thread(target=run, name="ndcg_research-ideal-dcg", daemon=True)
    thread.start()

    def result() -> _T:
        thread.join()
        if "error" in outcome:
            raise outcome["error"]
        return outcome["value"]

    return result


def _listed(relevance: Any, ideal: Any, judged: Any, options: _Options) -> _Computed:
    """A ranked list's DCG and ideal DCG."""
    _batch.check_aligned(relevance, judged, ("relevance", "judged"))
    batch = _grades(relevance, "relevance", allow_empty=ideal is not None)
    if judged is not None:  # before the ideal: grades of unjudged documents are unknown
        batch = _batch.condense(batch, _batch.judged_mask(judged, batch), fill=0.0)
    known = _known_grades(ideal, batch)
    width = _width(batch, options.k)
    idcg_values = options.ideal_dcg(known, width)
    gains = _kernels.apply_gain(options.gain, batch.values[:, :width], name=batch.name)
    dcg_values = _kernels.ranked_dcg(gains, options.discount, None)
    return batch, dcg_values, idcg_values, max(width, _width(known, options.k))


def _scored(y_true: Any, y_score: Any, ideal: Any, judged: Any, options: _Options, *, idcg: bool = True) -> _Computed:
    """The DCG of the documents ranked by ``y_score`` and the ideal DCG if asked (a tied group's mean gain sums up to
    a whole row: the bound counts every column)."""
    _batch.check_aligned(y_true, y_score, ("y_true", "y_score"))
    _batch.check_aligned(y_true, judged, ("y_true", "judged"))
    batch = _grades(y_true, "y_true", allow_empty=ideal is not None)
    scores = _batch.as_batch(y_score, name="y_score", fill=-np.inf, allow_empty=ideal is not None)
    _batch.check_same_shape(batch, scores)
    _batch.check_scores(scores)
    if judged is not None:  # before the ideal: grades of unjudged documents are unknown
        mask = _batch.judged_mask(judged, batch)
        batch = _batch.condense(batch, mask, fill=0.0)
        scores = _batch.condense(scores, mask, fill=-np.inf)
    known = _known_grades(ideal, batch)
    # Every input is checked: the work starts here.
    builtin = isinstance(options.gain, Gain) and isinstance(options.discount, Discount)
    large = batch.values.size + known.values.size >= OVERLAP_MIN_ENTRIES
    # numpy releases the GIL in its partitions and sorts: the ideal DCG can overlap the ranking on a second thread
    # (with built-ins only: a user's callable need not be thread-safe)
    overlap = idcg and builtin and (options.threads == 2 or (options.threads is None and large))
    ideal_job = _start_on_thread(options.ideal_dcg, known, _width(batch, options.k)) if overlap else None
    idcg_values = options.ideal_dcg(known, _width(batch, options.k)) if idcg and not overlap else None
    gains = _kernels.apply_gain(options.gain, batch.values, name=batch.name)
    ranked = ranked_gains(gains, scores.values, options.k, options.ties)
    dcg_values = _kernels.ranked_dcg(ranked, options.discount, None)
    if ideal_job is not None:
        idcg_values = ideal_job()
    return batch, dcg_values, idcg_values, max(batch.values.shape[1], _width(known, options.k))


@_documented
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
    threads: int | None = None,
) -> NDCGParts:
    """DCG, ideal DCG and nDCG of the ranking by decreasing model score, computed together.

    Parameters
    ----------
    %(y_true, y_score, k_scores, ideal, gain, discount, ties, zero_ideal, judged, threads)s

    Returns
    -------
    %(parts)s

    Examples
    --------
    >>> parts = ndcg_parts_from_scores([2, 0, 1], [0.1, 0.9, 0.5])
    >>> [round(x, 3) for x in parts]
    [1.631, 2.631, 0.62]
    """
    options = _options(k, gain, discount, zero_ideal, ties, threads)
    return _parts(*_scored(y_true, y_score, ideal, judged, options), options.zero_ideal)


@_documented
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
    threads: int | None = None,
) -> Value:
    """nDCG of the ranking that sorts documents by decreasing model score.

    Parameters
    ----------
    %(y_true, y_score, k_scores, ideal, gain, discount, ties, zero_ideal, judged, threads)s

    Returns
    -------
    %(value)s

    Examples
    --------
    >>> round(ndcg_from_scores([2, 0, 1], [0.1, 0.9, 0.5]), 3)
    0.62
    >>> round(ndcg_from_scores([1, 0], [0.5, 0.5]), 3)  # tied: mean over both orders
    0.815
    >>> ndcg_from_scores([1, 0], [0.5, 0.5], ties="pessimistic")
    0.6309297535714575
    >>> ndcg_from_scores([[2, 1], [0, 3]], [[0.9, 0.1], [0.5, 0.6]], threads=1).tolist()
    [1.0, 1.0]
    """
    options = _options(k, gain, discount, zero_ideal, ties, threads)
    return _parts(*_scored(y_true, y_score, ideal, judged, options), options.zero_ideal).ndcg


@_documented
def dcg_from_scores(
    y_true: Any,
    y_score: Any,
    k: int | None = None,
    *,
    ideal: Any = None,
    gain: GainLike = "linear",
    discount: DiscountLike = "log2",
    ties: Ties = "average",
    judged: Any = None,
) -> Value:
    """DCG of the ranking by decreasing model score: ``ndcg_from_scores`` times the ideal DCG.

    Parameters
    ----------
    %(y_true, y_score)s
    k : int or None, default None
        Cut-off of the ranking; None cuts nothing.
    %(ideal)s
        A DCG needs no ideal: given, it is only checked.
    %(gain, discount, ties, judged)s

    Returns
    -------
    %(value)s

    Examples
    --------
    >>> round(dcg_from_scores([2, 0, 1], [0.1, 0.9, 0.5]), 3)
    1.631
    >>> dcg_from_scores([], [], ideal=[2, 1])  # nothing returned
    0.0
    >>> round(dcg_from_scores([0, 2, 1], [0.9, 0.5, 0.1], judged=[False, True, True]), 3)  # 2 then 1
    2.631
    """
    options = _options(k, gain, discount, ties=ties)
    labels, dcg_values, _, _ = _scored(y_true, y_score, ideal, judged, options, idcg=False)
    return _scalar_if_single(dcg_values, labels)


def mean_over_queries(values: Any, *, nan_policy: Literal["raise", "omit", "propagate"] = "raise") -> float:
    """Average per-query values, saying which queries count.

    Every query counts, with the value ``zero_ideal`` gave it (``"zero"``, as trec_eval); only
    queries set to NaN (``zero_ideal="nan"``) can be left out, and only by asking.

    Parameters
    ----------
    values : array-like
        One value per query (1-D, not empty).
    nan_policy : {"raise", "omit", "propagate"}, default "raise"
        What NaN values do: refuse, leave out (averaging over the others, as trectools), or
        make the mean NaN.

    Returns
    -------
    float

    Examples
    --------
    >>> mean_over_queries([1.0, 0.5, float("nan")], nan_policy="omit")
    0.75
    """
    nan_policy = check_option(nan_policy, "nan_policy", ("raise", "omit", "propagate"))
    values = check_array(values, "values", ndim=1, min_size=1, finite=False)
    missing = np.isnan(values)
    if np.isinf(values).any():  # (NaN is the policy's; an infinity is no nDCG, and inf - inf would be NaN)
        i = int(np.flatnonzero(np.isinf(values))[0])
        raise ValueError(f"values must be finite or NaN, got {float(values[i])!r} at position {i}")
    if missing.any():
        if nan_policy == "raise":
            raise ValueError(
                f"{missing.sum()} of {values.size} per-query values are NaN (undefined nDCG); pass "
                f"nan_policy='omit' to average over the {values.size - missing.sum()} defined queries"
            )
        if nan_policy == "omit":
            if missing.all():
                raise ValueError("every per-query value is NaN; there is nothing to average")
            values = values[~missing]
    # Scaled by 1/n before summing: the sum of large finite values may overflow where their mean does not.
    return float((values / values.size).sum()) if np.abs(values).max() > 1e300 else float(values.mean())
