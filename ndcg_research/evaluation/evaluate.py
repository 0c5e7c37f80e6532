"""Evaluate runs against qrels: per-query nDCG values and their means, for several runs at once.

:func:`evaluate` reads (or takes) the qrels and the runs, matches every ranked document to
its judgment, orders each query's documents as the convention says (by default trec_eval's:
score descending, ties by document id in descending ``strcmp`` order, the rank column
ignored), groups the queries into padded batches and hands them to the metric core
(:func:`ndcg_research.ndcg_parts` / :func:`ndcg_research.ndcg_parts_from_scores` with
``ideal=``, ``ties=``, ``judged=``, ``zero_ideal=``, ``k=``, ``gain=``, ``discount=``).
The metric itself is computed only there; this module reads the inputs, checks them,
applies the convention and averages; :mod:`~ndcg_research.evaluation.rankings` matches,
orders and pads, with numpy over all documents at once (no Python loop over queries).

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
from . import keys, rankings
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


# ---------------------------------------------------------------- checks


def _check_grades(qrels: Columns, convention: Convention) -> None:
    value = qrels.value

    def fail(bad: np.ndarray, what: str) -> None:
        row = int(np.flatnonzero(bad)[0])
        raise InputError(f"{qrels.where(row)}: grade {value[row].item()!r} {what} (convention {convention.name!r})")

    if convention.integer_grades and value.dtype.kind == "f":
        fail(np.floor(value) != value, "is not an integer; the tool reads integer grades")
    if convention.negative == "error" and value.min() < 0:
        fail(value < 0, "is negative; the tool refuses negative labels")
    if convention.max_grade is not None and value.max() > convention.max_grade:
        fail(value > convention.max_grade, f"is above {convention.max_grade}, the largest grade the tool accepts")


def _check_duplicates(
    columns: Columns, codes: np.ndarray, hashes: np.ndarray, ids: keys.ByteIds, names: np.ndarray, width: int
) -> None:
    """Refuse a document judged (or ranked) twice for one query, naming both lines.

    ``hashes`` is sorted in place (it is not needed afterwards); if two are equal, they
    are computed again to find the rows.
    """
    hashes.sort()
    repeated = hashes[1:][hashes[1:] == hashes[:-1]]
    if repeated.size == 0:
        return
    hashes = ids.hashes(width, codes)
    rows = np.flatnonzero(np.isin(hashes, repeated))
    rows = rows[np.argsort(hashes[rows], kind="stable")]
    pairs = []
    for group in np.split(rows, np.flatnonzero(np.diff(hashes[rows])) + 1):  # equal hashes: rare
        for i, a in enumerate(group):
            for b in group[i + 1 :]:
                if codes[a] == codes[b] and keys.same_ids(ids, np.array([a]), ids, np.array([b]))[0]:
                    pairs.append((min(a, b), max(a, b)))
    if not pairs:
        return  # equal hashes of different keys
    a, b = min(pairs, key=lambda pair: pair[1])
    what = "judged" if columns.kind == "qrels" else "ranked"
    raise InputError(
        f"{columns.where(a)}: document {ids.text(a)!r} is {what} twice for query {names[codes[a]]!r} "
        f"(again at {columns.where(b)}); trec_eval refuses this too"
    )


# ---------------------------------------------------------------- the metric, through the core


def _gain_table(gains: tuple[tuple[int, float], ...], top: int) -> np.ndarray:
    table = np.arange(max(top, max(g for g, _ in gains)) + 1, dtype=np.float64)
    for level, gain in gains:
        table[level] = gain
    return table


def _measure_values(
    measure: Measure, convention: Convention, batch: rankings.Batch, ranked: rankings.Ranked, keep: np.ndarray | None,
    ideal_grade: np.ndarray,
) -> tuple[np.ndarray, np.ndarray]:
    """nDCG and ideal DCG of one measure on one batch, computed by the metric core."""
    gain = measure.gain if measure.gain is not None else convention.gain
    discount = measure.discount if measure.discount is not None else convention.discount
    k = measure.k
    negative = None
    if measure.gains is not None:
        top = int(max(ranked.grade.max(initial=0), ideal_grade.max(initial=0)))
        table = _gain_table(measure.gains, top)
        mapped = np.where(ranked.judged, table[ranked.grade], 0.0)
        listed = batch.rows(mapped)
        listed, negative, gain = np.maximum(listed, 0.0), np.minimum(listed, 0.0), "linear"
        known = None
        if batch.ideal is not None:
            ideal_gains = np.maximum(table[ideal_grade], 0.0)  # trec_eval: only gains above 0 fill the ideal
            ideal_gains[-1] = 0.0  # the padding entry
            known = ideal_gains[batch.ideal]
    else:
        listed = batch.rows(ranked.grade)
        known = None if batch.ideal is None else ideal_grade[batch.ideal]
    mask = None if keep is None else batch.rows(keep)
    if convention.ties != "average" and mask is None and known is not None and k is not None and k < listed.shape[1]:
        listed = listed[:, :k]  # ranks below k cannot count (the ideal comes from the qrels)
        negative = None if negative is None else negative[:, :k]
    options = dict(gain=gain, discount=discount, zero_ideal=convention.zero_ideal)
    scores = None
    if convention.ties == "average":
        scores = batch.rows(ranked.score, pad=float(np.nextafter(ranked.score.min(), -np.inf)))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedNDCGWarning)
        if scores is not None:
            parts = ndcg_parts_from_scores(listed, scores, k, ideal=known, ties="average", judged=mask, **options)
        else:
            parts = ndcg_parts(listed, k, ideal=known, judged=mask, **options)
        values, idcg = np.asarray(parts.ndcg), np.asarray(parts.idcg)
        if negative is not None and np.any(negative < 0):
            # trec_eval lets a gain map hold negative gains: they lower the DCG and stay out of
            # the ideal. DCG is linear in the gains, so the negative part is a second core call.
            if scores is not None:
                lost = ndcg_parts_from_scores(-negative, scores, k, ties="average", judged=mask, **options).dcg
            else:
                lost = ndcg_parts(-negative, k, judged=mask, **options).dcg
            with np.errstate(divide="ignore", invalid="ignore"):
                values = np.where(idcg > 0, (np.asarray(parts.dcg) - np.asarray(lost)) / idcg, values)
    return values, idcg


def _run_values(
    values: np.ndarray, undefined: np.ndarray, name: str, ranked: rankings.Ranked, ids: keys.ByteIds, evaluated: np.ndarray,
    conv: Convention, wanted: list[Measure], ideal: tuple[np.ndarray, np.ndarray, int] | None,
    ideal_grade: np.ndarray, *, judged_only: bool, max_docs: int | None,
) -> None:
    """Fill ``values`` (measure x evaluated query) and ``undefined`` (ideal DCG 0) for one run."""
    if not evaluated[ranked.block_codes].all():
        ranked = ranked.take(np.flatnonzero(np.repeat(evaluated[ranked.block_codes], ranked.block_lengths)))
    ranked = rankings.rank_order(ranked, ids, conv.ties)
    if max_docs is not None:
        ranked = rankings.first_docs(ranked, max_docs)
    if conv.ties == "average" and not np.isfinite(np.nextafter(ranked.score.min(), -np.inf)):
        raise InputError(f"run {name}: scores reach the smallest float64; rescale them")
    keep = None
    if judged_only:
        keep = ranked.judged
    elif conv.negative == "drop" and ranked.negative is not None:
        keep = ~ranked.negative
        keep[-1] = False
    query_position = np.full(evaluated.size, -1, dtype=np.int64)
    query_position[evaluated] = np.arange(values.shape[1])
    batches = rankings.batches(ranked, query_position, ideal)
    for j, measure in enumerate(wanted):
        for batch in batches:
            got, idcg = _measure_values(measure, conv, batch, ranked, keep, ideal_grade)
            values[j, batch.queries] = got
            undefined[batch.queries] |= idcg == 0


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
        raise InputError(f"{judgments.where(row)}: a gain map (gains=...) needs integer grades, got {judgments.value[row].item()!r}")

    raw_names, codes = keys.query_codes([judgments.query] + [columns.query for _, columns in named])
    names = np.array([name.decode("utf-8", errors="surrogateescape") for name in raw_names], dtype=object)
    n_codes = names.size
    judged_codes = codes[0]
    judged_ids = keys.ByteIds(judgments.doc)
    run_ids = [keys.ByteIds(columns.doc) for _, columns in named]
    width = max(1, -(-max(ids.longest for ids in [judged_ids, *run_ids]) // 8))
    judged_hashes = judged_ids.hashes(width, judged_codes)
    table = keys.HashTable(judged_codes, judged_hashes, n_codes)
    _check_duplicates(judgments, judged_codes, judged_hashes, judged_ids, names, width)
    del judged_hashes

    grade = judgments.value
    has_judgment = np.bincount(judged_codes, minlength=n_codes) > 0
    has_relevant = np.bincount(judged_codes[grade > 0], minlength=n_codes) > 0
    eligible = has_relevant if conv.queries == "relevant" else has_judgment
    ideal = None
    ideal_grade = np.zeros(1, dtype=grade.dtype)
    if conv.ideal == "judged":
        # Judged rows (grade >= 0) grouped by query fill the ideal; the last entry pads.
        judged_rows = np.flatnonzero(grade >= 0)
        judged_rows = judged_rows[np.argsort(judged_codes[judged_rows], kind="stable")]
        ideal_grade = np.append(grade[judged_rows], np.zeros(1, dtype=grade.dtype))
        ideal_counts = np.bincount(judged_codes[judged_rows], minlength=n_codes)
        ideal = (np.cumsum(ideal_counts) - ideal_counts, ideal_counts, judged_rows.size)

    notes: list[str] = []
    if conv.queries == "relevant":
        skipped = int(np.count_nonzero(has_judgment & ~has_relevant))
        if skipped:
            notes.append(f"{skipped} judged queries have no grade above 0; {conv.name} does not evaluate them")
    for m in wanted:
        if m.gains is None or conv.name != "trec_eval":
            continue
        gains = sorted({g for _, g in m.gains} | {float(level) for level in range(int(grade.max(initial=0)) + 1)})
        close = [(a, b) for a, b in zip(gains, gains[1:]) if 0 < b - a < 1]
        if close:
            notes.append(
                f"{m.name}: trec_eval sorts gain levels with a comparison that truncates their difference to an "
                f"integer; with gains less than 1 apart (e.g. {close[0][0]:g} and {close[0][1]:g}) its ideal ranking, "
                f"and so its values, can differ from the correct ones computed here"
            )

    run_names, tags, query_lists, value_lists, means = [], [], [], [], []
    for (name, columns), run_codes, ids in zip(named, codes[1:], run_ids):
        ranked, hashes = rankings.match_run(columns, run_codes, ids, width, table, judged_ids, judged_codes, grade)
        _check_duplicates(columns, run_codes, hashes, ids, names, width)
        del hashes

        in_run = np.zeros(n_codes, dtype=bool)
        in_run[ranked.block_codes] = True
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
        if not evaluated.any() and not (complete and missing.any()):
            raise InputError(f"run {name}: no query has both a ranking and judgments in {judgments.source}")
        evaluated_codes = np.flatnonzero(evaluated)
        values = np.zeros((len(wanted), evaluated_codes.size))
        undefined = np.zeros(evaluated_codes.size, dtype=bool)
        if evaluated_codes.size:  # (with complete=True every judged query may be missing: all score 0)
            _run_values(values, undefined, name, ranked, ids, evaluated, conv, wanted, ideal, ideal_grade,
                        judged_only=judged_only, max_docs=max_docs)
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
