"""Evaluate runs against qrels: per-query nDCG values and their means, for several runs at once.

:func:`evaluate` reads (or takes) the qrels and the runs, matches every ranked document to
its judgment, orders each query's documents as the convention says (by default trec_eval's:
score descending, ties by document id in descending ``strcmp`` order, the rank column
ignored), groups the queries into padded batches and hands them to the metric core
(:func:`ndcg_research.ndcg_parts` / :func:`ndcg_research.ndcg_parts_from_scores` with
``ideal=``, ``ties=``, ``judged=``, ``zero_ideal=``, ``k=``, ``gain=``, ``discount=``).
The metric itself is computed only there; this module reads, matches, orders, pads and
averages, with numpy over all documents at once (no Python loop over queries).

Which queries count (trec_eval's rules): a query is evaluated when it is in the run and
in the qrels; run queries without judgments are left out (and counted in a note); judged
queries missing from the run are left out too, unless ``complete=True`` (trec_eval's
``-c``), which gives them 0. The conventions ``gdeval`` (queries with a grade above 0 only)
and ``ranx`` (``complete`` by default) differ, see
:mod:`~ndcg_research.evaluation.conventions`.
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from ..core import UndefinedNDCGWarning, ndcg_parts, ndcg_parts_from_scores
from ..core.validation import check_integer
from . import keys
from .conventions import Convention, get_convention
from .measures import Measure, parse_measures
from .readers import Columns, InputError, columns_from_frame, load_qrels, load_run

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["evaluate", "Evaluation"]


# ---------------------------------------------------------------- results


@dataclass(frozen=True, eq=False)
class Evaluation:
    """Per-query values and means of several runs (returned by :func:`evaluate`).

    Unpacks as ``per_query, means = evaluate(...)``.

    Attributes
    ----------
    runs : tuple of str
        Run names, in the order given.
    tags : tuple of str or None
        Each run's tag (trec_eval's ``runid``: the tag of its last line).
    measures : tuple of Measure
    queries : tuple of numpy.ndarray
        Per run, the ids of the averaged queries in ``strcmp`` order.
    values : tuple of numpy.ndarray
        Per run, shape (n_measures, n_queries).
    mean_values : numpy.ndarray
        Shape (n_runs, n_measures).
    convention : Convention
    notes : tuple of str
        What the evaluation left out or decided (queries without judgments, undefined nDCG...).
    """

    runs: tuple[str, ...]
    tags: tuple[str | None, ...]
    measures: tuple[Measure, ...]
    queries: tuple[np.ndarray, ...]
    values: tuple[np.ndarray, ...]
    mean_values: np.ndarray
    convention: Convention
    notes: tuple[str, ...]

    @property
    def per_query(self) -> pd.DataFrame:
        """Long table: columns ``run, query, measure, value``, one row per run, query and measure."""
        import pandas as pd

        frames = []
        names = [m.name for m in self.measures]
        for run, queries, values in zip(self.runs, self.queries, self.values):
            n_q = queries.size
            frames.append(pd.DataFrame({
                "run": np.repeat(np.array([run], dtype=object), n_q * len(names)),
                "query": np.tile(queries.astype(object), len(names)),
                "measure": np.repeat(np.array(names, dtype=object), n_q),
                "value": values.ravel(),
            }))
        table = pd.concat(frames, ignore_index=True)
        return table.astype({"run": "str", "query": "str", "measure": "str"})

    @property
    def means(self) -> pd.DataFrame:
        """Wide table: one row per run (index ``run``), one column per measure, and ``queries`` (how many averaged)."""
        import pandas as pd

        table = pd.DataFrame(self.mean_values, index=pd.Index(list(self.runs), name="run"),
                             columns=[m.name for m in self.measures])
        table["queries"] = [q.size for q in self.queries]
        return table

    def __iter__(self):
        yield self.per_query
        yield self.means


# ---------------------------------------------------------------- inputs


def _as_columns(obj: Any, kind: str) -> Columns:
    if isinstance(obj, Columns):
        if obj.kind != kind:
            raise ValueError(f"expected {kind}, got {obj.kind} read from {obj.source}")
        return obj
    if isinstance(obj, (str, os.PathLike)):
        return load_qrels(obj) if kind == "qrels" else load_run(obj)
    return columns_from_frame(obj, kind)


def _named_runs(runs: Any) -> list[tuple[str, Columns]]:
    if isinstance(runs, Mapping):
        named = [(str(key), _as_columns(value, "run")) for key, value in runs.items()]
    else:
        single = isinstance(runs, (str, os.PathLike, Columns)) or hasattr(runs, "columns")
        items = [runs] if single else list(runs)
        named = []
        for i, item in enumerate(items):
            columns = _as_columns(item, "run")
            if isinstance(item, (str, os.PathLike)):
                label = os.fspath(item)
            elif columns.source != "DataFrame":
                label = columns.source
            else:
                label = columns.tag if columns.tag is not None else f"run{i + 1}"
            named.append((label, columns))
    if not named:
        raise ValueError("no run given")
    labels = [label for label, _ in named]
    if len(set(labels)) != len(labels):
        raise ValueError(f"run names must be distinct, got {labels}; pass a dict {{name: run}}")
    return named


# ---------------------------------------------------------------- query ids


def _block_starts(words: np.ndarray) -> np.ndarray:
    """First row of each run of equal ids."""
    if words.shape[0] == 0:
        return np.zeros(0, dtype=np.int64)
    change = np.any(words[1:] != words[:-1], axis=1)
    return np.concatenate(([0], np.flatnonzero(change) + 1))


def _widen(words: np.ndarray, width: int) -> np.ndarray:
    if words.shape[1] == width:
        return words
    return np.concatenate([words, np.zeros((words.shape[0], width - words.shape[1]), np.uint64)], axis=1)


def _text(row: np.ndarray) -> str:
    raw = b"".join(int(w).to_bytes(8, "big") for w in row).rstrip(b"\0")
    return raw.decode("utf-8", errors="surrogateescape")


def _query_codes(inputs: list[Columns]) -> tuple[np.ndarray, list[np.ndarray]]:
    """Sorted distinct query ids over all inputs, and each input's row codes into them."""
    words = [keys.byte_words(columns.query) for columns in inputs]
    width = max(w.shape[1] for w in words)
    starts = [_block_starts(w) for w in words]
    representatives = np.concatenate([_widen(w[s], width) for w, s in zip(words, starts)])
    vocabulary, inverse = np.unique(representatives, axis=0, return_inverse=True)
    codes, offset = [], 0
    for w, s in zip(words, starts):
        block_codes = inverse.ravel()[offset : offset + s.size]
        offset += s.size
        codes.append(np.repeat(block_codes, np.diff(np.append(s, w.shape[0]))).astype(np.int64))
    names = np.array([_text(row) for row in vocabulary], dtype=object)
    return names, codes


# ---------------------------------------------------------------- checks


def _check_grades(qrels: Columns, convention: Convention) -> None:
    value = qrels.value

    def fail(bad: np.ndarray, what: str) -> None:
        row = int(np.flatnonzero(bad)[0])
        raise InputError(f"{qrels.where(row)}: grade {value[row]!r} {what} (convention {convention.name!r})")

    if convention.integer_grades and value.dtype.kind == "f":
        fail(np.floor(value) != value, "is not an integer; the tool reads integer grades")
    if convention.negative == "error" and value.min() < 0:
        fail(value < 0, "is negative; the tool refuses negative labels")
    if convention.max_grade is not None and value.max() > convention.max_grade:
        fail(value > convention.max_grade, f"is above {convention.max_grade}, the largest grade the tool accepts")


def _check_duplicates(columns: Columns, codes: np.ndarray, doc_words: np.ndarray, names: np.ndarray) -> None:
    what = "judged" if columns.kind == "qrels" else "ranked"
    h = keys.hash_rows(doc_words, codes)
    ordered = np.sort(h)
    repeated = ordered[1:][ordered[1:] == ordered[:-1]]
    if repeated.size == 0:
        return
    rows = np.flatnonzero(np.isin(h, repeated))
    pair = keys.first_duplicate(codes[rows], doc_words[rows])
    if pair is None:
        return  # equal hashes of different keys
    a, b = rows[pair[0]], rows[pair[1]]
    raise InputError(
        f"{columns.where(a)}: document {_text(doc_words[a])!r} is {what} twice for query "
        f"{names[codes[a]]!r} (again at {columns.where(b)}); trec_eval refuses this too"
    )


# ---------------------------------------------------------------- ordering


def _rank_order(codes: np.ndarray, scores: np.ndarray, doc_words: np.ndarray, rows: np.ndarray, ties: str) -> np.ndarray:
    """``rows`` reordered: grouped by query, score descending, ties as the convention says.

    A run file is usually already grouped by query and sorted by score, so this is
    checked first and only the tied documents are re-sorted (by descending document id).
    """
    c, s = codes[rows], scores[rows]
    grouped = np.count_nonzero(c[1:] != c[:-1]) + 1 == np.count_nonzero(np.bincount(c)) if c.size else True
    if not grouped:
        order = np.argsort(c, kind="stable")
        rows, c, s = rows[order], c[order], s[order]
    same = c[1:] == c[:-1]
    if np.any((s[1:] > s[:-1]) & same):
        order = np.lexsort((-s, c))  # stable: equal scores keep the file order
        rows, c, s = rows[order], c[order], s[order]
        same = c[1:] == c[:-1]
    if ties == "docno":
        tie = (s[1:] == s[:-1]) & same
        if tie.any():
            member = np.zeros(rows.size, dtype=bool)
            member[1:] |= tie
            member[:-1] |= tie
            positions = np.flatnonzero(member)
            group = np.cumsum(np.concatenate(([True], ~tie)))[positions]
            tied = rows[positions]
            order = np.lexsort(keys.descending_order_keys(doc_words[tied]) + [group])
            rows = rows.copy()
            rows[positions] = tied[order]
    return rows


def _positions(c: np.ndarray) -> np.ndarray:
    """Rank (0-based) of each row within its query, rows grouped by query."""
    n = c.size
    start = np.zeros(n, dtype=bool)
    if n:
        start[0] = True
        start[1:] = c[1:] != c[:-1]
    index = np.arange(n)
    return index - np.maximum.accumulate(np.where(start, index, 0))


def _buckets(lengths: np.ndarray, ideal_lengths: np.ndarray | None) -> list[np.ndarray]:
    """Group queries so that padding at most doubles each batch (lengths in powers of two)."""
    key = np.ceil(np.log2(np.maximum(lengths, 1))).astype(np.int64)
    if ideal_lengths is not None:
        key = key * 64 + np.ceil(np.log2(np.maximum(ideal_lengths, 1))).astype(np.int64)
    order = np.argsort(key, kind="stable")
    bounds = np.flatnonzero(np.diff(key[order])) + 1
    return np.split(order, bounds)


# ---------------------------------------------------------------- the metric through the core


@dataclass
class _Batch:
    """One padded batch: indices into the per-row arrays, whose last entry is the padding."""

    queries: np.ndarray  # positions among the evaluated queries
    ranked: np.ndarray  # (n, L) indices into the rank-ordered run rows (padding: the last index)
    ideal: np.ndarray | None  # (n, J) indices into the judged qrels rows (padding: the last index)


@dataclass
class _Rows:
    """Per-row arrays of one run in rank order, and of the judged qrels, each with a padding entry last."""

    grade: np.ndarray  # grade of each ranked document (0 if unjudged or negative); padding 0
    judged: np.ndarray  # in the qrels with a grade >= 0; padding False
    keep: np.ndarray | None  # documents that stay in the list (judged_only, dropped negatives); padding False
    score: np.ndarray  # padding: just below the smallest score
    ideal_grade: np.ndarray  # grades of the judged qrels rows; padding 0


def _gain_table(gains: tuple[tuple[int, float], ...], top: int) -> np.ndarray:
    table = np.arange(max(top, max(g for g, _ in gains)) + 1, dtype=np.float64)
    for level, gain in gains:
        table[level] = gain
    return table


def _measure_values(measure: Measure, convention: Convention, batch: _Batch, rows: _Rows) -> tuple[np.ndarray, np.ndarray]:
    """nDCG and ideal DCG of one measure on one batch, computed by the metric core."""
    gain = measure.gain if measure.gain is not None else convention.gain
    discount = measure.discount if measure.discount is not None else convention.discount
    k = measure.k
    negative = None
    if measure.gains is not None:
        top = int(max(rows.grade.max(initial=0), rows.ideal_grade.max(initial=0)))
        table = _gain_table(measure.gains, top)
        mapped = np.where(rows.judged, table[rows.grade], 0.0)[batch.ranked]
        listed, negative, gain = np.maximum(mapped, 0.0), np.minimum(mapped, 0.0), "linear"
        known = None
        if batch.ideal is not None:
            # trec_eval fills the ideal with the gains above 0 only (the padding entry maps to 0).
            ideal_gains = np.maximum(table[rows.ideal_grade], 0.0)
            ideal_gains[-1] = 0.0
            known = ideal_gains[batch.ideal]
    else:
        listed = rows.grade[batch.ranked]
        known = None if batch.ideal is None else rows.ideal_grade[batch.ideal]
    mask = None if rows.keep is None else rows.keep[batch.ranked]
    if convention.ties != "average" and mask is None and known is not None and k is not None and k < listed.shape[1]:
        listed = listed[:, :k]  # ranks below k cannot count (the ideal comes from the qrels)
        negative = None if negative is None else negative[:, :k]
    options = dict(gain=gain, discount=discount, zero_ideal="zero")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedNDCGWarning)
        if convention.ties == "average":
            scores = rows.score[batch.ranked]
            parts = ndcg_parts_from_scores(listed, scores, k, ideal=known, ties="average", judged=mask, **options)
        else:
            parts = ndcg_parts(listed, k, ideal=known, judged=mask, **options)
        values, idcg = np.asarray(parts.ndcg), np.asarray(parts.idcg)
        if negative is not None and np.any(negative < 0):
            # trec_eval lets a gain map hold negative gains: they lower the DCG and stay out of
            # the ideal. DCG is linear in the gains, so the negative part is a second core call.
            if convention.ties == "average":
                lost = ndcg_parts_from_scores(-negative, scores, k, ties="average", judged=mask, **options).dcg
            else:
                lost = ndcg_parts(-negative, k, judged=mask, **options).dcg
            with np.errstate(divide="ignore", invalid="ignore"):
                values = np.where(idcg > 0, (np.asarray(parts.dcg) - np.asarray(lost)) / idcg, 0.0)
    if convention.zero_ideal == "one":
        values = np.where(idcg == 0, 1.0, values)
    return values, idcg


# ---------------------------------------------------------------- evaluate


def evaluate(
    qrels: Any,
    runs: Any,
    measures: str | Measure | Sequence[str | Measure] = ("ndcg",),
    *,
    convention: str | Convention = "trec_eval",
    complete: bool | None = None,
    judged_only: bool = False,
    max_docs: int | None = None,
) -> Evaluation:
    """nDCG of one or several runs, per query and averaged, under a tool's convention.

    Parameters
    ----------
    qrels : str, path-like, pandas.DataFrame or Columns
        Judgments: a TREC qrels file, or a DataFrame with columns ``query, doc, relevance``.
    runs : run, sequence of runs or mapping of name to run
        Each a TREC run file, a DataFrame with columns ``query, doc, score``, or
        :class:`~ndcg_research.evaluation.readers.Columns`. Names: the mapping's keys, else
        the file paths (DataFrames: ``attrs["run"]`` or ``run1, run2, ...``).
    measures : str, Measure or sequence of them, default ("ndcg",)
        Spec strings such as ``"ndcg"``, ``"ndcg@10"``,
        ``"ndcg@10(gain=exp2, discount='power(beta=0.5)')"``, or trec_eval names
        (``"ndcg_cut.5,10"``, ``"ndcg.1=3,2=9"``); see :mod:`~ndcg_research.evaluation.measures`.
    convention : str or Convention, default "trec_eval"
        Whose rules to follow (gain, ideal, ties, empty queries, negative grades, which
        queries count); see :mod:`~ndcg_research.evaluation.conventions`. A measure's own
        ``gain``/``discount`` override the convention's.
    complete : bool, optional
        Average over every judged query, one missing from the run scoring 0 (trec_eval
        ``-c``). Default: the convention's (False except for ranx).
    judged_only : bool, default False
        Remove unjudged documents (not in the qrels, or with a negative grade) from each
        ranking before computing (condensed lists; trec_eval ``-J``).
    max_docs : int, optional
        Use only the first ``max_docs`` documents of each ranking, after ordering
        (trec_eval ``-M``); the ideal is not cut by it.

    Returns
    -------
    Evaluation
        ``.per_query`` (DataFrame: run, query, measure, value), ``.means`` (DataFrame:
        one row per run), ``.notes``; unpacks as ``per_query, means``.

    Raises
    ------
    InputError
        Malformed files, a document ranked or judged twice for one query, grades the
        convention's tool refuses, or a run without any judged query.

    Examples
    --------
    >>> import pandas as pd
    >>> qrels = pd.DataFrame({"query": ["q1", "q1", "q1", "q2"], "doc": ["a", "b", "c", "a"],
    ...                       "relevance": [2, 0, 1, 1]})
    >>> run = pd.DataFrame({"query": ["q1", "q1", "q2", "q2"], "doc": ["b", "a", "b", "a"],
    ...                     "score": [0.9, 0.5, 0.3, 0.3]})
    >>> per_query, means = evaluate(qrels, {"bm25": run}, ["ndcg", "ndcg@1"])
    >>> per_query
        run query measure     value
    0  bm25    q1    ndcg  0.479625
    1  bm25    q2    ndcg  0.630930
    2  bm25    q1  ndcg@1  0.000000
    3  bm25    q2  ndcg@1  0.000000
    >>> means.round(4)  # doctest: +NORMALIZE_WHITESPACE
            ndcg  ndcg@1  queries
    run
    bm25  0.5553     0.0        2

    In q1 the ideal holds the unretrieved "c" (grade 1); in q2 the tied, unjudged "b" goes
    first (document ids descending, as trec_eval). scikit-learn's convention builds the
    ideal from the ranked list and averages over the tie:

    >>> evaluate(qrels, {"bm25": run}, "ndcg", convention="sklearn").means.round(4)  # doctest: +NORMALIZE_WHITESPACE
            ndcg  queries
    run
    bm25  0.7232        2
    """
    conv = get_convention(convention)
    wanted = parse_measures(measures)
    if max_docs is not None:
        max_docs = check_integer(max_docs, "max_docs")
    complete = (conv.queries == "qrels") if complete is None else bool(complete)
    judgments = _as_columns(qrels, "qrels")
    if len(judgments) == 0:
        raise InputError(f"{judgments.source}: no judgments")
    named = _named_runs(runs)
    for name, columns in named:
        if len(columns) == 0:
            raise InputError(f"run {name}: no ranked documents")
    _check_grades(judgments, conv)
    if any(m.gains is not None for m in wanted) and judgments.value.dtype.kind == "f":
        row = int(np.flatnonzero(np.floor(judgments.value) != judgments.value)[0])
        raise InputError(f"{judgments.where(row)}: a gain map (gains=...) needs integer grades, got {judgments.value[row]!r}")

    names, codes = _query_codes([judgments] + [columns for _, columns in named])
    n_codes = names.size
    judged_codes = codes[0]
    judged_docs = keys.byte_words(judgments.doc)
    _check_duplicates(judgments, judged_codes, judged_docs, names)

    grade = judgments.value
    has_judgment = np.bincount(judged_codes, minlength=n_codes) > 0
    has_relevant = np.bincount(judged_codes[grade > 0], minlength=n_codes) > 0
    eligible = has_relevant if conv.queries == "relevant" else has_judgment
    # Judged rows (grade >= 0) grouped by query: they fill the ideal.
    judged_rows = np.flatnonzero(grade >= 0)
    judged_rows = judged_rows[np.argsort(judged_codes[judged_rows], kind="stable")]
    ideal_codes = judged_codes[judged_rows]
    ideal_grades = grade[judged_rows]
    ideal_positions = _positions(ideal_codes)
    n_ideal = np.bincount(ideal_codes, minlength=n_codes)

    notes: list[str] = []
    if conv.queries == "relevant":
        skipped = int(np.count_nonzero(has_judgment & ~has_relevant))
        if skipped:
            notes.append(f"{skipped} judged queries have no grade above 0; {conv.name} does not evaluate them")
    gain_maps = [m for m in wanted if m.gains is not None]
    for m in gain_maps:
        gains = sorted({g for _, g in m.gains} | {float(level) for level in range(int(grade.max(initial=0)) + 1)})
        close = [(a, b) for a, b in zip(gains, gains[1:]) if 0 < b - a < 1]
        if close and conv.name == "trec_eval":
            notes.append(
                f"{m.name}: trec_eval sorts gain levels with a comparison that truncates their difference to an "
                f"integer; with gains less than 1 apart (e.g. {close[0][0]:g} and {close[0][1]:g}) its ideal ranking, "
                f"and so its values, can differ from the correct ones computed here"
            )

    run_names, tags, query_lists, value_lists, means = [], [], [], [], []
    for (name, columns), run_codes in zip(named, codes[1:]):
        doc_words = keys.byte_words(columns.doc)
        _check_duplicates(columns, run_codes, doc_words, names)
        found = keys.lookup(judged_codes, judged_docs, run_codes, doc_words, n_codes)

        in_run = np.bincount(run_codes, minlength=n_codes) > 0
        evaluated = in_run & eligible
        unjudged_queries = int(np.count_nonzero(in_run & ~has_judgment))
        if unjudged_queries:
            notes.append(f"{name}: {unjudged_queries} queries have no judgments in {judgments.source}; left out")
        missing = eligible & ~in_run
        if missing.any() and not complete:
            notes.append(
                f"{name}: {int(missing.sum())} judged queries have no ranking; left out of the mean "
                f"(complete=True / -c counts them as 0)"
            )
        if not evaluated.any():
            raise InputError(f"run {name}: no query has both a ranking and judgments in {judgments.source}")

        keep_rows = evaluated[run_codes]
        rows = np.arange(run_codes.size) if keep_rows.all() else np.flatnonzero(keep_rows)
        rows = _rank_order(run_codes, columns.value, doc_words, rows, conv.ties)
        c = run_codes[rows]
        position = _positions(c)
        if max_docs is not None and position.max(initial=0) >= max_docs:
            cut = position < max_docs
            rows, c, position = rows[cut], c[cut], position[cut]

        hit = found[rows]
        matched = hit >= 0
        row_grade = np.where(matched, grade[np.maximum(hit, 0)], 0)
        negative = matched & (row_grade < 0)
        judged = matched & ~negative
        row_grade = np.where(negative, 0, row_grade)
        keep = None
        if judged_only:
            keep = judged
        elif conv.negative == "drop" and negative.any():
            keep = ~negative
        scores = columns.value[rows]
        score_pad = float(np.nextafter(scores.min(), -np.inf))
        if not np.isfinite(score_pad):
            raise InputError(f"run {name}: scores reach the smallest float64; rescale them")
        row_data = _Rows(
            np.append(row_grade, np.zeros(1, row_grade.dtype)),
            np.append(judged, False),
            None if keep is None else np.append(keep, False),
            np.append(scores, score_pad),
            np.append(ideal_grades, np.zeros(1, ideal_grades.dtype)),
        )

        evaluated_codes = np.flatnonzero(evaluated)
        lengths = np.bincount(c, minlength=n_codes)[evaluated_codes]
        use_judged_ideal = conv.ideal == "judged"
        groups = _buckets(lengths, n_ideal[evaluated_codes] if use_judged_ideal else None)
        local = np.full(n_codes, -1, dtype=np.int64)
        batches = []
        for members in groups:
            member_codes = evaluated_codes[members]
            local[:] = -1
            local[member_codes] = np.arange(members.size)
            in_batch = local[c] >= 0 if len(groups) > 1 else np.ones(c.size, dtype=bool)
            width = max(int(lengths[members].max()), 1)
            ranked = np.full((members.size, width), rows.size, dtype=np.int64)
            ranked[local[c[in_batch]], position[in_batch]] = np.flatnonzero(in_batch)
            ideal_index = None
            if use_judged_ideal:
                in_ideal = local[ideal_codes] >= 0
                ideal_width = max(int(n_ideal[member_codes].max()), 1)
                ideal_index = np.full((members.size, ideal_width), ideal_codes.size, dtype=np.int64)
                ideal_index[local[ideal_codes[in_ideal]], ideal_positions[in_ideal]] = np.flatnonzero(in_ideal)
            batches.append(_Batch(members, ranked, ideal_index))

        values = np.zeros((len(wanted), evaluated_codes.size))
        undefined = np.zeros(evaluated_codes.size, dtype=bool)
        for j, measure in enumerate(wanted):
            for batch in batches:
                got, idcg = _measure_values(measure, conv, batch, row_data)
                values[j, batch.queries] = got
                undefined[batch.queries] |= idcg == 0
        if undefined.any() and conv.queries != "relevant":
            notes.append(
                f"{name}: {int(undefined.sum())} queries have ideal DCG 0 (no relevant judged document) for some "
                f"measure; they score {1 if conv.zero_ideal == 'one' else 0} ({conv.name})"
            )
        out_codes = evaluated_codes
        if complete and missing.any():
            out_codes = np.flatnonzero(evaluated | missing)
            full = np.zeros((len(wanted), out_codes.size))
            full[:, np.isin(out_codes, evaluated_codes)] = values
            values = full
        run_names.append(name)
        tags.append(columns.tag)
        query_lists.append(names[out_codes])
        value_lists.append(values)
        # Summed query by query in id order, as trec_eval accumulates (same last digit).
        means.append(np.cumsum(values, axis=1)[:, -1] / out_codes.size)

    return Evaluation(
        tuple(run_names), tuple(tags), tuple(wanted), tuple(query_lists), tuple(value_lists),
        np.array(means), conv, tuple(notes),
    )
