"""Evaluate runs against qrels: per-query nDCG values and their means, for several runs at once.

:func:`evaluate` works in named phases:

1. **check the arguments** (:func:`plan`): measures, convention, options;
2. **encode the judgments** (:class:`~ndcg_research.evaluation.judgments.Judgments`): query codes
   in ``strcmp`` order, a hash table of the judged documents, the ideal grades;
3. **evaluate each run, part by part** (:func:`evaluate_part`): a TREC run file is read in
   blocks of whole queries (memory bounded by the largest block, not by the file); a
   DataFrame is one part; a Dask DataFrame's partitions are evaluated on the workers. Each
   part's queries are matched, checked, ordered (:mod:`~ndcg_research.evaluation.rankings`)
   and scored (:mod:`~ndcg_research.evaluation.scoring`);
4. **choose the queries** (:func:`merge_parts`): the parts' queries in ``strcmp`` order, a
   judged query missing from the run scored 0 or left out (the convention's rule, or
   ``complete=``), the mean summed query by query in that order, as trec_eval accumulates;
5. **collect the notes**: what was left out, zero-filled or decided, naming the queries.

A query's value depends on that query alone (see :mod:`~ndcg_research.evaluation.scoring`), so
blocks, partitions and workers give the same bits as one piece.

Which queries count: a query is evaluated when it is in the run and has judgments (for
``gdeval``: a grade above 0); run queries without judgments are left out (and named in a note).
A judged query missing from the run: trec_eval 10.0 stops unless ``-c``, which scores it 0; the
``trec_eval`` and ``ranx`` presets score it 0, the others leave it out, as their tools do;
``complete=True`` / ``False`` chooses for any preset (the command line's ``-c`` /
``--answered-only``).
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

import numpy as np
import pyarrow as pa

from ..core.constraints import Array, Boolean, Instance, Integer, SequenceOf
from ..core.params import validate_params
from . import keys
from .collection import QRELS, RUNS
from .arrow import OPTIONAL_IDS, OPTIONAL_INDICES
from .conventions import CONVENTION, Convention
from .judgments import JUDGMENTS, Judgments, compact_grades
from .measures import MEASURES, Measure
from .rankings import Ranked, SetAside, block_starts, first_docs, rank_part, refuse_single_documents
from .readers import COLUMNS, Columns, InputError, columns_from_frame, is_dask, qrels_columns, run_blocks, run_columns
from .scoring import measure_values
from .sources import STDIN, TEXT, prefetched

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["evaluate", "Evaluation", "Plan", "plan", "evaluate_part", "PartValues", "merge_parts"]


# ---------------------------------------------------------------- results


@dataclass(frozen=True, eq=False)
class Evaluation:
    """Per-query values and means of several runs (returned by :func:`evaluate`).

    Unpacks as ``per_query, means = evaluate(...)``.

    Attributes
    ----------
    runs : tuple of str
        Run names, in the order given (see :func:`run_names`).
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
        What the evaluation left out, zero-filled or decided, naming the queries.
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


# ---------------------------------------------------------------- phase 1: the arguments


@dataclass(frozen=True)
class Plan:
    """The checked arguments of :func:`evaluate`: what every part of every run is evaluated with."""

    convention: Convention
    measures: tuple[Measure, ...]
    complete: bool
    judged_only: bool
    max_docs: int | None


#: The options of an evaluation, declared once for :func:`plan`, :func:`evaluate` and
#: :func:`~ndcg_research.stats.runs.run_matrices`.
PLAN_PARAMETERS = dict(measures=MEASURES, convention=CONVENTION, complete=Boolean(none=True),
                       judged_only=Boolean(), max_docs=Integer(1, none=True))


@validate_params(**PLAN_PARAMETERS)
def plan(measures: Any = ("ndcg",), *, convention: str | Convention = "trec_eval", complete: bool | None = None,
         judged_only: bool = False, max_docs: int | None = None) -> Plan:
    """Check the arguments of :func:`evaluate` (before any file is read).

    Examples
    --------
    >>> plan("ndcg@10", convention="ranx").complete
    True
    >>> plan("ndcg", complete="no")
    Traceback (most recent call last):
    ...
    TypeError: complete must be True, False or None, got str 'no'
    """
    if complete is None:  # the convention's rule
        complete = convention.missing == "zero"
    return Plan(convention, tuple(measures), complete, judged_only, max_docs)


#: A :class:`Plan` (the checked arguments of :func:`evaluate`).
PLAN = Instance(Plan, what="a Plan (see plan)", example=lambda: plan())


# ---------------------------------------------------------------- phase 2: the judgments


def _qrels(qrels: Any) -> Columns:
    if isinstance(qrels, Columns):
        if qrels.kind != "qrels":
            raise ValueError(f"qrels: expected judgments, got a {qrels.kind} read from {qrels.source}")
        return qrels
    if isinstance(qrels, (str, os.PathLike)):
        return qrels_columns.unchecked(qrels)
    return columns_from_frame.unchecked(qrels, "qrels")


def _judgments(qrels: Any, plan: Plan) -> Judgments:
    """Read (or take) the qrels, check their grades for the convention, and index them.

    The grades are held as int32 where they fit before the index is built, and no reference to
    the qrels as read outlives this function: for the qrels of a 10^8-line run (2*10^7 lines)
    that is 160 MB less at the peak.
    """
    rows = _qrels(qrels)
    rows = replace(rows, value=compact_grades.unchecked(rows.value))
    check_grades(rows, plan)
    return Judgments.build(rows)


def check_grades(qrels: Columns, plan: Plan) -> None:
    """Refuse grades the convention's tool refuses (fractions, negatives, too large), naming the line."""
    conv, value = plan.convention, qrels.value

    def fail(bad: np.ndarray, what: str) -> None:
        row = int(np.flatnonzero(bad)[0])
        raise InputError(f"{qrels.where(row)}: grade {value[row].item()!r} {what} (convention {conv.name!r})")

    fractional = value.dtype.kind == "f" and bool(np.any(np.floor(value) != value))
    if conv.integer_grades and fractional:
        fail(np.floor(value) != value, "is not an integer; the tool reads integer grades")
    if any(m.gains is not None for m in plan.measures) and fractional:
        fail(np.floor(value) != value, "is not an integer; a gain map (gains=...) needs integer grades")
    if conv.negative == "error" and value.min() < 0:
        fail(value < 0, "is negative; the tool refuses negative labels")
    if conv.max_grade is not None and value.max() > conv.max_grade:
        fail(value > conv.max_grade, f"is above {conv.max_grade}, the largest grade the tool accepts")


# ---------------------------------------------------------------- phase 3: each run, part by part


@dataclass
class PartValues:
    """The evaluated queries of one part of a run: codes, values (measure x query), and what was set aside."""

    codes: np.ndarray
    values: np.ndarray
    undefined: np.ndarray
    set_aside: SetAside
    tied_queries: int = 0
    unstable_queries: int = 0

    @classmethod
    def empty(cls, n_measures: int) -> PartValues:
        """A part without queries (an empty partition), for ``n_measures`` measures."""
        return cls(np.zeros(0, dtype=np.int64), np.zeros((n_measures, 0)), np.zeros((n_measures, 0), dtype=bool),
                   SetAside())


@validate_params(judgments=JUDGMENTS, columns=COLUMNS, plan=PLAN, name=TEXT, codes=OPTIONAL_INDICES,
                 local=OPTIONAL_INDICES, distinct=OPTIONAL_IDS)
def evaluate_part(judgments: Judgments, columns: Columns, plan: Plan, name: str = "run", *,
                  codes: np.ndarray | None = None, local: np.ndarray | None = None,
                  distinct: pa.Array | None = None) -> PartValues:
    """Evaluate the queries of one part of a run (a part holds whole queries).

    A pure function of its arguments: the blocks of a streamed file and the partitions of a
    Dask DataFrame (on the workers) go through it alike.
    """
    conv = plan.convention
    ranked, set_aside = rank_part.unchecked(judgments, columns, conv, codes=codes, local=local, distinct=distinct)
    keep = None
    if plan.judged_only:
        keep = ranked.judged
    elif conv.negative == "drop":
        keep = ~ranked.negative
    if keep is not None and not keep.all():
        ranked = ranked.take(np.flatnonzero(keep))
    if plan.max_docs is not None:
        ranked = first_docs.unchecked(ranked, plan.max_docs)
    if conv.single_document == "error":
        refuse_single_documents.unchecked(ranked, judgments, conv, name)
    values = np.zeros((len(plan.measures), ranked.codes.size))
    undefined = np.zeros((len(plan.measures), ranked.codes.size), dtype=bool)
    for j, measure in enumerate(plan.measures):
        values[j], undefined[j] = measure_values.unchecked(measure, conv, ranked, judgments)
    part = PartValues(ranked.codes, values, undefined, set_aside)
    if conv.random_ties or conv.unstable_ties_from is not None:
        tied = _queries_with_ties(ranked)
        part.tied_queries = int(tied.sum())
        if conv.unstable_ties_from is not None:
            part.unstable_queries = int((tied & (ranked.lengths >= conv.unstable_ties_from)).sum())
    return part


def _queries_with_ties(ranked: Ranked) -> np.ndarray:
    if ranked.size < 2:
        return np.zeros(ranked.codes.size, dtype=bool)
    same = ranked.score[1:] == ranked.score[:-1]
    query = np.repeat(np.arange(ranked.codes.size), ranked.lengths)
    same &= query[1:] == query[:-1]
    return np.bincount(query[1:][same], minlength=ranked.codes.size) > 0


class _Interleaved(Exception):
    """A query of a streamed run appears again after other queries."""

    def __init__(self, query: str, where: str) -> None:
        super().__init__(query, where)
        self.query, self.where = query, where


class _Stream:
    """A run file evaluated block by block: iterating gives each block's :class:`PartValues`.

    Each block holds whole queries: the rows of a block's last query wait for the next block
    (memory is bounded by the largest block, or the largest query). A query seen again after
    other queries raises :class:`_Interleaved`. ``tag`` is the run's tag once iterated.
    """

    def __init__(self, judgments: Judgments, path: str, plan: Plan, name: str) -> None:
        self.judgments, self.path, self.plan, self.name = judgments, path, plan, name
        self.tag: str | None = None

    def __iter__(self) -> Iterator[PartValues]:
        judgments = self.judgments
        seen = np.zeros(judgments.n_queries, dtype=bool)
        carry = None
        for block in _with_end(prefetched.unchecked(run_blocks.unchecked(self.path))):
            if block is None:
                if carry is None:
                    return
                columns = carry
            else:
                self.tag = block.tag
                columns = block if carry is None else Columns.concat([carry, block])
            codes, local, distinct = keys.lookup_codes.unchecked(columns.query, judgments.names)
            if block is not None:
                last = int(block_starts.unchecked(local)[-1])
                carry = columns.slice(last)
                if last == 0:
                    continue
                columns, codes, local = columns.slice(0, last), codes[:last], local[:last]
            part = evaluate_part.unchecked(judgments, columns, self.plan, self.name, codes=codes, local=local,
                                           distinct=distinct)
            again = part.codes[seen[part.codes]]
            if again.size:
                row = int(np.flatnonzero(codes == again[0])[0])
                raise _Interleaved(judgments.query_text(again[:1])[0], columns.where(row))
            seen[part.codes] = True
            yield part


def _with_end(blocks: Iterable[Columns]) -> Iterator[Columns | None]:
    yield from blocks
    yield None


def _run_parts(judgments: Judgments, run: Any, plan: Plan, name: str, notes: list[str]) -> tuple[list[PartValues], str | None]:
    """Evaluate one run: a file streamed in blocks, anything else in one part (Dask: one per partition)."""
    if isinstance(run, (str, os.PathLike)):
        path = os.fspath(run)
        stream = _Stream(judgments, path, plan, name)
        try:
            return list(stream), stream.tag
        except _Interleaved as interleaved:
            if path == STDIN:
                raise InputError(
                    f"{interleaved.where}: query {interleaved.query!r} appears again after other queries: standard "
                    f"input is read in blocks of whole queries, so its lines must be grouped by query (sort -s -k1,1)"
                ) from None
            notes.append(f"{name}: query {interleaved.query!r} appears again at {interleaved.where} after other "
                         f"queries; the run was read whole into memory instead of in blocks of whole queries")
            columns = run_columns.unchecked(path)
            return [evaluate_part.unchecked(judgments, columns, plan, name)], columns.tag
    if isinstance(run, (list, tuple)) and run and all(isinstance(r, (str, os.PathLike)) for r in run):
        # One run in several files (shards of whole queries): each streamed, the parts merged.
        parts, tag = [], None
        for shard in run:
            shard_parts, tag = _run_parts(judgments, shard, plan, name, notes)
            parts.extend(shard_parts)
        return parts, tag
    if is_dask(run):
        from .distributed import dask_parts

        return dask_parts.unchecked(judgments, run, plan, name), None
    columns = _run_columns(run)
    return [evaluate_part.unchecked(judgments, columns, plan, name)], columns.tag


def _run_columns(run: Any) -> Columns:
    if isinstance(run, Columns):
        if run.kind != "run":
            raise ValueError(f"runs: expected a ranking, got {run.kind} read from {run.source}")
        return run
    return columns_from_frame.unchecked(run, "run")


# ---------------------------------------------------------------- phase 4: the queries


@dataclass
class RunValues:
    """One run's values on its averaged queries (codes in ``strcmp`` order)."""

    name: str
    tag: str | None
    codes: np.ndarray
    values: np.ndarray
    mean: np.ndarray
    notes: list[str] = field(default_factory=list)


def _listed(names: Sequence[str], limit: int = 10) -> str:
    shown = ", ".join(repr(n) for n in names[:limit])
    return shown + (f" and {len(names) - limit} more" if len(names) > limit else "")


def _count(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


_PARTS = SequenceOf(Instance(PartValues, what="a PartValues", example=lambda: PartValues.empty(1)), min_size=0)


@validate_params(judgments=JUDGMENTS, parts=_PARTS, plan=PLAN, name=TEXT, tag=Instance(str, none=True))
def merge_parts(judgments: Judgments, parts: Sequence[PartValues], plan: Plan, name: str, tag: str | None) -> RunValues:
    """The run's queries from its parts: each once, in ``strcmp`` order; missing judged queries zero-filled or left out."""
    conv = plan.convention
    n_measures = len(plan.measures)
    codes = np.concatenate([p.codes for p in parts]) if parts else np.zeros(0, dtype=np.int64)
    values = np.concatenate([p.values for p in parts], axis=1) if parts else np.zeros((n_measures, 0))
    undefined = np.concatenate([p.undefined for p in parts], axis=1) if parts else np.zeros((n_measures, 0), bool)
    order = np.argsort(codes, kind="stable")
    codes, values, undefined = codes[order], values[:, order], undefined[:, order]
    repeated = codes[1:][codes[1:] == codes[:-1]]
    if repeated.size:
        raise InputError(f"run {name}: query {judgments.query_text(repeated[:1])[0]!r} is in two parts of the run "
                         f"(partitions or files); each part must hold whole queries")
    notes = []
    unjudged = sorted(set().union(*(p.set_aside.unjudged for p in parts)) if parts else set())
    if unjudged:
        text = [u.decode(errors="replace") for u in unjudged]
        notes.append(f"{name}: {_count(len(text), 'query has', 'queries have')} no judgments in "
                     f"{judgments.columns.source} ({_listed(text)}); left out")
    eligible = judgments.has_relevant if conv.eligible == "relevant" else np.ones(judgments.n_queries, dtype=bool)
    ranked = np.zeros(judgments.n_queries, dtype=bool)
    ranked[codes] = True
    for p in parts:
        ranked[p.set_aside.ineligible] = True
    missing = np.flatnonzero(eligible & ~ranked)
    if missing.size:
        text = list(judgments.query_text(missing))
        if plan.complete:
            notes.append(f"{name}: {_count(missing.size, 'judged query has', 'judged queries have')} no ranking "
                         f"({_listed(text)}); scored 0 (complete=True, trec_eval -c; --answered-only leaves "
                         f"{'it' if missing.size == 1 else 'them'} out)")
        else:
            notes.append(f"{name}: {_count(missing.size, 'judged query has', 'judged queries have')} no ranking "
                         f"({_listed(text)}); left out of the mean (complete=False; -c scores "
                         f"{'it' if missing.size == 1 else 'them'} 0)")
    if codes.size == 0 and not (plan.complete and missing.size):
        raise InputError(f"run {name}: no query has both a ranking and judgments in {judgments.columns.source}")
    if undefined.any() and conv.eligible != "relevant":
        n = int(undefined.any(axis=0).sum())
        notes.append(f"{name}: {_count(n, 'query has', 'queries have')} ideal DCG 0 (no relevant judged document) "
                     f"for some measure; {'it scores' if n == 1 else 'they score'} "
                     f"{1 if conv.zero_ideal == 'one' else 0} ({conv.name})")
    notes.extend(_tie_notes(parts, conv, name))
    if plan.complete and missing.size:
        all_codes = np.union1d(codes, missing)
        full = np.zeros((n_measures, all_codes.size))
        full[:, np.searchsorted(all_codes, codes)] = values
        codes, values = all_codes, full
    # Summed query by query in id order, as trec_eval accumulates (same last digit).
    mean = np.cumsum(values, axis=1)[:, -1] / codes.size if codes.size else np.full(n_measures, np.nan)
    return RunValues(name, tag, codes, values, mean, notes)


def _tie_notes(parts: Sequence[PartValues], conv: Convention, name: str) -> list[str]:
    notes = []
    tied = sum(p.tied_queries for p in parts)
    unstable = sum(p.unstable_queries for p in parts)
    if conv.random_ties and tied:
        notes.append(f"{name}: {_count(tied, 'query has', 'queries have')} tied scores, which {conv.name} orders at "
                     f"random; the values are the expectation over those orders (the tie average)")
    if unstable:
        notes.append(f"{name}: {_count(unstable, 'query has', 'queries have')} tied scores in a list of "
                     f"{conv.unstable_ties_from} or more documents, where {conv.name} orders ties by an unstable sort; "
                     f"its values there may differ from these (file order)")
    return notes


# ---------------------------------------------------------------- evaluate


@validate_params(**PLAN_PARAMETERS, qrels=QRELS, runs=RUNS)
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
        Judgments: a TREC qrels file (``"-"``: standard input), or a DataFrame with columns
        ``query, doc, relevance``.
    runs : run, sequence of runs or mapping of name to run
        Each a TREC run file (read in blocks of whole queries: memory is bounded by the largest
        block), a DataFrame with columns ``query, doc, score``, a Dask DataFrame partitioned by
        query (evaluated on the workers), or :class:`~ndcg_research.evaluation.readers.Columns`;
        in a mapping, a list of files is one run split in shards of whole queries. Names: the
        mapping's keys, else :func:`run_names`.
    measures : str, Measure or sequence of them, default ("ndcg",)
        Spec strings such as ``"ndcg"``, ``"ndcg@10"``,
        ``"ndcg@10(gain=exp2, discount='power(beta=0.5)')"``, or trec_eval names
        (``"ndcg_cut.5,10"``, ``"ndcg.1=3,2=9"``); see :mod:`~ndcg_research.evaluation.measures`.
    convention : str or Convention, default "trec_eval"
        Whose rules to follow (gain, ideal, ties, empty queries, negative grades, which
        queries count); see :mod:`~ndcg_research.evaluation.conventions`. A measure's own
        ``gain``/``discount`` override the convention's.
    complete : bool, optional
        True: a judged query missing from a run scores 0 (trec_eval ``-c``); False: it is left
        out of the mean. Default: the convention's (0 for ``trec_eval`` and ``ranx``, as their
        tools do; left out for the others).
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
    TypeError, ValueError
        Bad arguments, named.

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
    checked = plan.unchecked(measures, convention=convention, complete=complete, judged_only=judged_only,
                             max_docs=max_docs)
    judgments = _judgments(qrels, checked)
    notes = _qrels_notes(judgments, checked)
    results = []
    for name, run in runs:  # (name, run) pairs: see RUNS
        parts, tag = _run_parts(judgments, run, checked, name, notes)
        results.append(merge_parts.unchecked(judgments, parts, checked, name, tag))
    for result in results:
        notes.extend(result.notes)
    return Evaluation(
        tuple(r.name for r in results), tuple(r.tag for r in results), checked.measures,
        tuple(judgments.query_text(r.codes) for r in results), tuple(r.values for r in results),
        np.array([r.mean for r in results]), checked.convention, tuple(notes),
    )


def _qrels_notes(judgments: Judgments, plan: Plan) -> list[str]:
    """Notes about the judgments themselves (queries a convention skips, trec_eval's gain-map sorting)."""
    conv, notes = plan.convention, []
    if conv.eligible == "relevant":
        skipped = int(np.count_nonzero(~judgments.has_relevant))
        if skipped:
            notes.append(f"{_count(skipped, 'judged query has', 'judged queries have')} no grade above 0; "
                         f"{conv.name} does not evaluate {'it' if skipped == 1 else 'them'}")
    for m in plan.measures:
        if m.gains is None or conv.name not in ("trec_eval", "pytrec_eval"):
            continue
        levels = np.unique(judgments.grade[judgments.grade >= 0])
        gains = sorted({g for _, g in m.gains} | {float(level) for level in levels if level not in dict(m.gains)})
        close = [(a, b) for a, b in zip(gains, gains[1:]) if 0 < b - a < 1]
        if close:
            notes.append(
                f"{m.name}: trec_eval sorts gain levels with a comparison that truncates their difference to an "
                f"integer; with gains less than 1 apart (e.g. {close[0][0]:g} and {close[0][1]:g}) its ideal ranking, "
                f"and so its values, can differ from the correct ones computed here"
            )
    return notes
