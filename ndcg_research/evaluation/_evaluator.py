"""Evaluate runs against qrels: the judgments prepared once, each run evaluated in parts (file blocks, a table, Dask
partitions on the workers) and merged; a query's value depends on that query alone, so any split gives the same bits."""

import contextlib
import os
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from .._validation import check_bool, check_int, check_path, type_and_value
from ..core import _kernels as kernels
from ..core import format_number, parse_gain
from ._frames import STYLES, frame_style, id_kind, is_dask, is_frame, is_path, is_table, named_runs, table_columns
from ._matching import Judgments, Ranked, distinct, measure_values, query_codes, rank_part, tie_groups, tied_pairs
from ._measures import Convention, Measure, atol, get_convention, parse_measures
from ._readers import Columns, InputError, binary_ids, query_blocks, read_whole
from ._sources import STDIN, NoJudgedQuery, Recording, prefetched, standard_input

if TYPE_CHECKING:
    import pandas as pd


def mean_of(values: np.ndarray) -> np.ndarray:
    """The mean of each row over its defined (not NaN) values, as trec_eval and ``compare`` average (to the bit)."""
    defined = [row[~np.isnan(row)] for row in values]
    return np.array([kernels.mean_in_order(row) if row.size else np.nan for row in defined], dtype=np.float64)


@dataclass(frozen=True, eq=False)
class Evaluation:
    """Per-query values and means of runs, from ``evaluate``: unpacks as ``per_query, means``; ``mean()``: a float.

    Attributes
    ----------
    runs : tuple of str
        Run names, in the order given (see ``evaluate``).
    tags : tuple of str or None
        Each run's tag (trec_eval's ``runid``: the tag of its last line).
    measures : tuple of Measure
    queries : tuple of numpy.ndarray
        Per run, the ids of its queries in ``strcmp`` order.
    values : tuple of numpy.ndarray
        Per run, shape (n_measures, n_queries); NaN for a query the convention leaves undefined.
    mean_values : numpy.ndarray
        Shape (n_runs, n_measures): the mean over each run's defined values.
    convention : Convention
    notes : tuple of str
        What the evaluation left out, zero-filled, left undefined or decided, naming the queries.
    query_column : str
        ``per_query``'s query column, as the caller's frame names it (``qid``, ``query_id``), else ``query``.
    """

    runs: tuple[str, ...]
    tags: tuple[str | None, ...]
    measures: tuple[Measure, ...]
    queries: tuple[np.ndarray, ...]
    values: tuple[np.ndarray, ...]
    mean_values: np.ndarray
    convention: Convention
    notes: tuple[str, ...]
    query_column: str = "query"

    @property
    def per_query(self) -> "pd.DataFrame":
        """Long table: columns ``run, query, measure, value`` (query named as the caller's frame), one row each. Ids
        from files that are not UTF-8 stay str (an ``object`` column) with surrogate escapes for undecodable bytes:
        ``query.encode("utf-8", "surrogateescape")`` gives the bytes back."""
        import pandas as pd

        names = np.array([m.name for m in self.measures], dtype=object)
        columns = {
            "run": np.repeat(np.array(self.runs, dtype=object), [q.size * names.size for q in self.queries]),
            self.query_column: np.concatenate([np.tile(q.astype(object), names.size) for q in self.queries]),
            "measure": np.concatenate([np.repeat(names, q.size) for q in self.queries]),
        }
        table = pd.DataFrame(columns, dtype=object).assign(value=np.concatenate([v.ravel() for v in self.values]))
        for column in columns:
            with contextlib.suppress(UnicodeEncodeError):  # surrogate escapes: an object column
                table[column] = table[column].astype("str")
        return table

    @property
    def means(self) -> "pd.DataFrame":
        """Wide table: one row per run (index ``run``), one column per measure, and ``queries`` (how many averaged)."""
        import pandas as pd

        index, columns = pd.Index(list(self.runs), name="run"), [m.name for m in self.measures]
        table = pd.DataFrame(self.mean_values, index=index, columns=columns)
        return table.assign(queries=self.averaged())

    def averaged(self) -> list[int]:
        """How many queries each run's means average (its queries with a defined value)."""
        return [int(np.count_nonzero(~np.isnan(v[0]))) if v.shape[0] else 0 for v in self.values]

    def mean(self, measure: str | Measure | None = None, *, run: str | None = None) -> float:
        """One run's mean of one measure, as a float.

        Parameters
        ----------
        measure : str or Measure, optional
            Its name in the results (``"ndcg_cut_10"``) or any spec of it (``"ndcg@10"``); optional for one measure.
        run : str, optional
            The run's name; optional for one run.

        Examples
        --------
        >>> import pandas as pd
        >>> qrels = pd.DataFrame({"query": ["q", "q"], "doc": ["a", "b"], "relevance": [1, 2]})
        >>> run = pd.DataFrame({"query": ["q", "q"], "doc": ["a", "b"], "score": [2.0, 1.0]})
        >>> round(evaluate(qrels, run, "ndcg_cut.10").mean("ndcg@10"), 4)
        0.8597
        """
        if run is None and len(self.runs) != 1:
            raise ValueError(f"{len(self.runs)} runs ({', '.join(map(repr, self.runs))}): say which with run=")
        if run is not None and run not in self.runs:
            raise ValueError(f"run {run!r} was not evaluated; evaluated: {', '.join(map(repr, self.runs))}")
        means = self.mean_values[0 if run is None else self.runs.index(run)]
        names = [m.name for m in self.measures]
        listed = ", ".join(map(repr, names))
        if measure is None and len(names) != 1:
            raise ValueError(f"{len(names)} measures ({listed}): say which, e.g. mean({names[0]!r})")
        measure = names[0] if measure is None else measure
        if not isinstance(measure, (str, Measure)):
            raise TypeError(f"measure must be a measure name or spec, got {type_and_value(measure)}")
        if measure in names:  # a name as in the results, else any spec of the same measure
            return float(means[names.index(measure)])
        parsed, keys = parse_measures(measure), [m.key for m in self.measures]
        if len(parsed) == 1 and parsed[0].key in keys:
            return float(means[keys.index(parsed[0].key)])
        raise ValueError(f"measure {getattr(measure, 'name', measure)!r} was not evaluated; evaluated: {listed}")

    def __iter__(self) -> Iterator["pd.DataFrame"]:
        yield self.per_query
        yield self.means


@dataclass(frozen=True)
class Plan:
    """The checked arguments of :func:`evaluate`: what every part of every run is evaluated with."""

    convention: Convention
    measures: tuple[Measure, ...]
    complete: bool
    judged_only: bool
    max_docs: int | None
    complete_by_default: bool  # the convention's default, not the caller's choice


def _qrels(qrels: Any, plan: Plan) -> Columns:
    """The judgments as read, refusing grades the convention's tool refuses (fractions, negatives, too large)."""
    if is_dask(qrels):  # (its repr is a table of many lines)
        raise TypeError("qrels must not be a Dask DataFrame (Dask frames are read as runs): compute() it into pandas")
    if not (is_path(qrels) or isinstance(qrels, (Columns, Mapping)) or is_table(qrels)):
        raise TypeError(
            f"qrels must be a qrels file path, a DataFrame, a ranx Qrels or a dict "
            f"{{query: {{document: grade}}}}, got {type_and_value(qrels)}"
        )
    columns = read_whole(check_path(qrels, "qrels"), "qrels") if is_path(qrels) else table_columns(qrels, "qrels")
    conv, value = plan.convention, columns.value
    if columns.fraction is not None and (conv.integer_grades or any(m.gains is not None for m in plan.measures)):
        row, text = columns.fraction
        what = "the tool reads" if conv.integer_grades else "a gain map (gains=...) needs"
        atol_reads = f"; trec_eval's atol would read {atol(text)}" if conv.name == "trec_eval" else ""
        raise InputError(
            f"{columns.where(row)}: grade {text!r} is not an integer; {what} integer grades (convention "
            f"{conv.name!r}{atol_reads})"
        )
    # The tool's largest grade is that of its own gain (XGBoost's 2^31, LightGBM's label_gain table): a measure with
    # a gain of its own is this package's extension, with no such limit.
    own_gain = str(parse_gain(conv.gain))
    top = conv.max_grade if any(m.gains is None and m.gain in (None, own_gain) for m in plan.measures) else None
    negative = conv.negative == "error" and value.min() < 0
    if negative or top is not None and value.max() > top:
        row = int(np.argmax(value < 0 if negative else value > top))
        what = (
            "is negative, which the tool refuses"
            if negative
            else f"is above {top}, the largest grade the tool accepts with its gain, {own_gain} (a measure with "
            "another gain, e.g. ndcg(gain=linear), has no such limit)"
        )
        raise InputError(f"{columns.where(row)}: grade {value[row].item()!r} {what} (convention {conv.name!r})")
    return columns


def _judgments(qrels: Any, plan: Plan) -> tuple[Judgments, list[str]]:
    """The judgments and notes on them; refuses gain maps that trec_eval sorts undefinedly."""
    judgments = Judgments.build(_qrels(qrels, plan))  # no other reference to the qrels as read: freed early
    conv = plan.convention
    notes, trec = list(judgments.qrels.notes), conv.name in ("trec_eval", "pytrec_eval")
    skipped = int(np.count_nonzero(judgments.relevant_count == 0))
    if conv.eligible == "relevant" and skipped:
        them = "query has no grade above 0; it is" if skipped == 1 else "queries have no grade above 0; they are"
        notes.append(f"{skipped} judged {them} not evaluated ({conv.name})")
    negative_only = np.flatnonzero(judgments.ideal_count == 0)  # every grade below 0 (ids decoded for a note only)
    if conv.name == "trec_eval" and negative_only.size:
        have = "query has" if negative_only.size == 1 else "queries have"
        notes.append(
            f"{judgments.qrels.source}: {negative_only.size} judged {have} only negative grades "
            f"({_listed(judgments.query_text(negative_only))}), scored 0 here; trec_eval 10.0 stops on such a query "
            '("Can\'t calculate measure") if it is the first evaluated, and crashes on one whose highest grade is -2 '
            "or below after another"
        )
    # gain_init.c: a 24-byte entry per grade from 0, sized by a byte count cast to 32 bits (common.h's Malloc)
    top = int(judgments.grade.max())
    if top >= 2**32 // 24 and trec:
        crash = (
            "its ndcg's gain table (gain_init.c) overflows a 32-bit byte count from grade 178956970 on (it crashes); "
        )
        notes.append(
            f"the largest grade, {top}, is beyond what trec_eval computes reliably: "
            f"{crash if any(m.k is None for m in plan.measures) else ''}each measure reserves 8 bytes per grade from 0 "
            f"for each query (form_res_rels.c: {(top + 1) * 8 / 1e9:.1f} GB), and it stops where it cannot have them "
            '("Can\'t calculate measure"); the values here are exact'
        )
    for m in plan.measures:
        if not trec or m.gains is None:
            continue
        name, mapped = m.name, dict(m.gains)
        # gain_init.c sorts a gain for every listed grade and for every level from 0 to the top grade (an unlisted
        # level's gain is the level): level 0 always, the present levels bound the others.
        levels = {0, *distinct(judgments.grade[judgments.grade >= 0])[0].tolist()}
        gains = sorted({*mapped.values(), *(float(level) for level in levels if level not in mapped)})
        if gains[-1] - gains[0] >= 2**31:
            raise ValueError(
                f"{name}: gains {format_number(gains[0])} and {format_number(gains[-1])} are 2^31 or more apart; "
                f"trec_eval sorts gain levels by their difference as a C int, which overflows, so its values are "
                f"undefined; scale the gains down (nDCG does not change when all gains are multiplied by one factor)"
            )
        close = [(a, b) for a, b in zip(gains, gains[1:], strict=False) if 0 < b - a < 1]
        if close:
            notes.append(
                f"{name}: trec_eval sorts gain levels by their difference truncated to an integer: with gains less "
                f"than 1 apart (e.g. {close[0][0]:g} and {close[0][1]:g}) its values can differ from the correct ones "
                f"computed here"
            )
    return judgments, notes


@dataclass
class PartValues:
    """A part of a run: evaluated codes and values (measure x query), unjudged ids, ineligible codes, notes' counts."""

    codes: np.ndarray
    values: np.ndarray
    unjudged: set[bytes]
    ineligible: np.ndarray
    counts: list[int]  # queries: ideal DCG 0, with ties, with ties in a long list, with ties in no input order
    unranked: np.ndarray  # judged queries that the run lists with no document


def _check_cut_ties(ranked: Ranked, max_docs: int, judgments: Judgments, convention: str) -> None:
    """Refuse a cut inside a group of tied scores of unequal grades, where the convention averages over tie orders:
    which of them are kept would be the rows' order (no tool of such a convention has -M)."""
    _, pairs = tied_pairs(ranked.score, ranked.starts)
    query = np.searchsorted(ranked.starts, pairs, side="right") - 1
    group = tie_groups(pairs)
    mixed = np.zeros(pairs.size, dtype=bool)  # per group: two of its documents' grades differ
    mixed[group[ranked.grade[pairs] != ranked.grade[pairs + 1]]] = True
    cut = np.flatnonzero((pairs - ranked.starts[query] == max_docs - 1) & mixed[group])
    if cut.size:
        raise InputError(
            f"max_docs={max_docs} (-M) cuts a group of tied scores of different grades in query "
            f"{judgments.query_text(ranked.codes[query[cut[:1]]])[0]!r}, whose orders {convention} averages "
            "over: which of them are kept would be the rows' order (no tool of the convention has -M); cut the run "
            "first, or break the ties"
        )


def evaluate_part(judgments: Judgments, columns: Columns, plan: Plan) -> PartValues:
    """Evaluate one part of a run (whole queries): a pure function, for file blocks and Dask partitions alike."""
    conv = plan.convention
    ranked, unjudged, ineligible = rank_part(judgments, columns, conv, plan.max_docs)
    if conv.negative == "drop" and ranked.negative.any():  # TF-Ranking: negative labels are padding
        ranked = ranked.take(np.flatnonzero(~ranked.negative))
    if plan.max_docs is not None:  # trec_eval (form_res_rels.c) cuts the ranking first ...
        if conv.ties == "average" and ranked.lengths.max(initial=0) > plan.max_docs:
            _check_cut_ties(ranked, plan.max_docs, judgments, conv.name)
        ranked = ranked.first(plan.max_docs)
    if plan.judged_only and not ranked.judged.all():  # ... then -J keeps the judged documents
        ranked = ranked.take(np.flatnonzero(ranked.judged))
    results = [measure_values(measure, conv, ranked, judgments) for measure in plan.measures]
    values = np.array([v for v, _ in results])
    zero_ideal = np.any([zero for _, zero in results], axis=0)  # for some measure
    if conv.single_document == "undefined":  # scikit-learn refuses a list of one document
        values[:, ranked.lengths == 1] = np.nan
        zero_ideal &= ranked.lengths != 1  # undefined, not scored 0: not counted in the ideal-DCG-0 note
    tied = np.zeros(ranked.codes.size, dtype=bool)  # the queries with a tied pair, where the convention notes them
    # Ties in input order from rows not in the caller's order (ranx's own presets read a Run as ranx does)
    unordered = conv.ties == "input" and not columns.ordered and conv.unstable_ties_from is None
    if conv.random_ties or conv.unstable_ties_from is not None or unordered:
        _, pairs = tied_pairs(ranked.score, ranked.starts)
        tied[np.searchsorted(ranked.starts, pairs, side="right") - 1] = True  # the query of each tied pair
    long = ranked.lengths >= (conv.unstable_ties_from or np.inf)  # (none long where the convention has no limit)
    counts = [int(zero_ideal.sum()), int(tied.sum()), int((tied & long).sum()), int(tied.sum()) if unordered else 0]
    unranked = np.zeros(0, dtype=np.int64)
    if columns.unranked is not None:
        unranked, absent = query_codes(columns.unranked, judgments.names)
        unranked, unjudged = unranked[unranked >= 0], unjudged | set(absent)
    return PartValues(ranked.codes, values, unjudged, ineligible, counts, unranked)


def _run_parts(
    judgments: Judgments, run: Any, plan: Plan, name: str, notes: list[str]
) -> tuple[list[PartValues], str | None]:
    """One run's parts (file blocks read ahead on a thread, shards, a table, Dask partitions) and its tag."""
    if isinstance(run, list):  # one run in several files (shards of whole queries), each streamed
        shards = [_run_parts(judgments, shard, plan, name, notes) for shard in run]
        return [part for parts, _ in shards for part in parts], shards[-1][1]
    if is_dask(run):
        return _dask_parts(judgments, run, plan), None
    if not is_path(run):
        columns = table_columns(run, "run")
        return [evaluate_part(judgments, columns, plan)], columns.tag
    path = os.fspath(run)
    with contextlib.ExitStack() as opened:
        stream = None
        # Standard input and named pipes (a shell's <(zcat run.gz)) can be read once: kept in a temporary file as
        # they are read, so that an interleaved run can be read again.
        if path == STDIN or (os.path.exists(path) and not os.path.isfile(path) and not os.path.isdir(path)):
            import tempfile  # only for standard input and named pipes: not loaded for a run file

            source = standard_input() if path == STDIN else opened.enter_context(open(path, "rb"))
            stream = Recording(source, opened.enter_context(tempfile.TemporaryFile()))
        seen, parts = np.zeros(len(judgments.names), dtype=bool), []
        with contextlib.closing(prefetched(query_blocks(path, stream=stream))) as blocks:
            for columns in blocks:
                part = evaluate_part(judgments, columns, plan)
                again = part.codes[seen[part.codes]]
                if again.size:  # a query seen again: the run is read whole
                    break
                seen[part.codes] = True
                parts.append(part)
            else:
                return parts, columns.tag
        query = judgments.query_text(again[:1])[0]
        row = binary_ids(columns.query).to_pylist().index(query.encode("utf-8", "surrogateescape"))
        notes.append(
            f"{name}: query {query!r} appears again at {columns.where(row)} after other queries; the run was read "
            "whole into memory instead of in blocks of whole queries"
        )
        del parts, part, columns  # evaluated again from the whole run: freed before it is read
        if stream is not None:  # the rest of the input joins what was read of it
            import shutil

            shutil.copyfileobj(stream.stream, stream.copy)
            stream.copy.seek(0)
        columns = read_whole(path, "run", None if stream is None else stream.copy)
        return [evaluate_part(judgments, columns, plan)], columns.tag


def _partition_values(judgments: Judgments, frame: Any, plan: Plan) -> tuple[PartValues, tuple[str, ...]]:
    """Evaluate one partition (a pandas DataFrame, maybe empty) on a worker; the kind of its query and document ids
    (each one kind in a partition: checked), which must be the same in every partition."""
    if len(frame) == 0:
        none = np.zeros(0, dtype=np.int64)
        return PartValues(none, np.zeros((len(plan.measures), 0)), set(), none, [0, 0, 0, 0], none), ()
    part = evaluate_part(judgments, table_columns(frame, "run"), plan)
    return part, tuple(id_kind(frame[column].iloc[0]) for column in STYLES[frame_style(frame.columns)][:2])


def _dask_parts(judgments: Judgments, frame: Any, plan: Plan) -> list[PartValues]:
    """Every partition's values, the judgments sent once to each worker (scattered if a distributed client runs);
    ids of one kind in every partition, as in a pandas DataFrame (1 and '1' would be one id)."""
    import dask

    client = None
    with contextlib.suppress(ImportError, ValueError):  # no distributed, or no client running
        from distributed import get_client

        client = get_client()
    shared = dask.delayed(judgments, pure=True) if client is None else client.scatter(judgments, broadcast=True)
    tasks = [dask.delayed(_partition_values)(shared, part, plan) for part in frame.to_delayed()]
    parts, kinds = zip(*dask.compute(*tasks), strict=True)
    for position, column in enumerate(STYLES[frame_style(frame.columns)][:2]):
        found = list(dict.fromkeys(k[position] for k in kinds if k))
        if len(found) > 1:
            raise InputError(
                f"run Dask DataFrame column {column!r} holds {found[0]} in one partition and {found[1]} in another: "
                "ids are compared as text, so 1 and '1' would be one id; convert them to one type first"
            )
    return list(parts)


def _listed(names: Sequence[str] | np.ndarray, limit: int = 10) -> str:
    shown = ", ".join(repr(n) for n in names[:limit])
    return shown + (f" and {len(names) - limit} more" if len(names) > limit else "")


#: The document trec_eval -c ranks, alone, for a judged query missing from a run (trec_eval.c, bogus_result).
PLACEHOLDER = b"ceci_nest_pas_un_docno"


def merge_parts(
    judgments: Judgments, parts: Sequence[PartValues], plan: Plan, name: str
) -> tuple[np.ndarray, np.ndarray, list[str]]:
    """The run's queries, each once, in ``strcmp`` order (codes, values, notes); missing judged ones scored 0 or not."""
    conv, source = plan.convention, judgments.qrels.source
    # (every run has a part: a file without one is refused, a Dask frame has a partition)
    codes = np.concatenate([p.codes for p in parts])
    ineligible = np.concatenate([p.ineligible for p in parts])
    eligible = judgments.relevant_count > 0 if conv.eligible == "relevant" else judgments.counts > 0
    answered = codes.size + ineligible.size > 0  # a judged query ranked
    unranked = np.concatenate([p.unranked for p in parts])  # answered with no document: scored 0, or missing
    unranked = unranked[eligible[unranked]] if conv.empty == "zero" else unranked[:0]
    ranked = np.zeros(len(judgments.names), dtype=bool)  # (np.setdiff1d would import numpy.ma: 25 ms at the start)
    ranked[np.concatenate((codes, ineligible, unranked))] = True
    missing = np.flatnonzero(eligible & ~ranked)
    scored = missing if plan.complete else missing[:0]  # scored 0, else left out
    zeros = np.zeros((len(plan.measures), scored.size + unranked.size))
    codes = np.concatenate((codes, scored, unranked))
    order = np.argsort(codes, kind="stable")
    codes, values = codes[order], np.concatenate([p.values for p in parts] + [zeros], axis=1)[:, order]
    repeated = codes[1:][codes[1:] == codes[:-1]]
    if repeated.size:
        raise InputError(
            f"run {name}: query {judgments.query_text(repeated[:1])[0]!r} is in two parts of the run "
            f"(partitions or files); each part must hold whole queries"
        )
    notes: list[str] = []

    def note(count: int, text: str, judged: str = "") -> None:  # "1 query has", "2 judged queries have"
        notes.append(f"{name}: {count} {judged}{'query has' if count == 1 else 'queries have'} {text}")

    unjudged = [u.decode("utf-8", "surrogateescape") for u in sorted(set().union(*(p.unjudged for p in parts)))]
    if not answered and plan.complete and plan.complete_by_default:  # (ids that do not match, most often)
        ranks = f"none of its queries ({_listed(unjudged)}) is judged in {source}" if unjudged else "it ranks no query"
        raise NoJudgedQuery(
            f"run {name}: {ranks} (judged: {_listed(judgments.query_text(np.flatnonzero(eligible)))}); scoring every "
            f"judged query 0 (the {conv.name} convention's default for a judged query that a run misses) would say "
            "nothing of the run: check its query ids, or give complete=True (-c) to score them 0"
        )
    if unjudged:
        note(len(unjudged), f"no judgments in {source} ({_listed(unjudged)}); left out")
    if unranked.size:
        note(unranked.size, f"an empty ranking ({_listed(judgments.query_text(unranked))}); scored 0", "judged ")
    if missing.size:
        them = "it" if missing.size == 1 else "them"
        if plan.complete:
            done = f"scored 0 (complete=True, trec_eval -c; --answered-only leaves {them} out)"
        else:
            done = f"left out of the mean (complete=False; -c scores {them} 0)"
        note(missing.size, f"no ranking ({_listed(judgments.query_text(missing))}); {done}", "judged ")
    # (-M 0 cuts the placeholder too: it scores 0 there as here)
    placed = conv.name == "trec_eval" and scored.size and plan.max_docs != 0
    placeholder = judgments.judging(PLACEHOLDER, scored) if placed else ((), ())
    for code, grade in zip(*placeholder, strict=True):  # a gain where trec_eval -c scores it, and 0 is scored here
        for m in plan.measures:  # gain_init.c: a listed grade's gain, else the grade (negative grades gain nothing)
            gain = dict(m.gains or ()).get(int(grade), max(float(grade), 0.0))
            if gain != 0:
                raise InputError(
                    f"{source}: query {judgments.query_text(np.array([code]))[0]!r}, which {name} does not rank, "
                    f"judges the document {PLACEHOLDER.decode()!r} with gain {format_number(gain)} under {m.name}; "
                    f"trec_eval -c ranks that document alone for such a query (its placeholder, trec_eval.c) and "
                    f"scores the query by its grade; here the query scores 0: rename the document, or leave such "
                    f"queries out (complete=False, --answered-only)"
                )
    if codes.size == 0:  # none judged, or (ineligible) ranked and judged but nothing above grade 0
        what = "ranked query has a judgment above 0" if ineligible.size else "query has both a ranking and judgments"
        only = f", and {conv.name} evaluates only such queries" if ineligible.size else ""
        raise NoJudgedQuery(f"run {name}: no {what} in {source}{only}")
    zero_ideal, tied, unstable, unordered = map(sum, zip(*(p.counts for p in parts), strict=True))
    if zero_ideal and conv.eligible != "relevant":
        score = 1 if conv.zero_ideal == "one" else 0
        note(zero_ideal, f"ideal DCG 0 (no relevant judged document) for some measure; scored {score} ({conv.name})")
    undefined = np.flatnonzero(np.isnan(values).all(axis=0))
    if undefined.size:
        listed = _listed(judgments.query_text(codes[undefined]))
        refused = f'which {conv.tool.split(" ")[0]} refuses ("only meaningful when there is more than 1 document")'
        if undefined.size == codes.size:  # the mean of no value: refused, as a run without a judged query is
            raise NoJudgedQuery(
                f"run {name}: every query it is scored on has a single ranked document ({listed}), {refused}"
            )
        note(undefined.size, f"a single ranked document ({listed}), {refused}: undefined (NaN), left out of the mean")
    if conv.random_ties and tied:
        orders = "the values are the expectation over those orders (the tie average)"
        note(tied, f"tied scores, which {conv.name} orders at random; {orders}")
    if unstable:
        sort = f"{conv.name} orders ties by an unstable sort; its values there may differ from these (file order)"
        note(unstable, f"tied scores in a list of {conv.unstable_ties_from} or more documents, where {sort}")
    if unordered:
        note(
            unordered,
            f"tied scores, which {conv.name} orders as its input, but a ranx Run keeps no input order (ranx sorts "
            "it): they are ordered as the Run holds them now; give the run as a dict or DataFrame in your order",
        )
    return codes, values, notes


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
    qrels : str, path-like, DataFrame, ranx Qrels or dict
        Judgments: a TREC qrels file (``"-"``: standard input); a DataFrame with the columns ``query, doc,
        relevance`` (or PyTerrier's ``qid, docno, label``, or ir_measures' ``query_id, doc_id, relevance``); a ranx
        ``Qrels``; a pytrec_eval dict ``{query: {document: grade}}``.
    runs : run, sequence of runs or mapping of name to run
        Each a TREC run file (read in blocks of whole queries: memory is bounded by the largest block); a DataFrame
        with the columns ``query, doc, score`` (or PyTerrier's ``qid, docno, score``, or ir_measures' ``query_id,
        doc_id, score``); a Dask DataFrame partitioned by query (evaluated on the workers); a ranx ``Run``; a
        pytrec_eval dict ``{query: {document: score}}`` (a query mapped to ``{}`` is missing, but scores 0 under the
        ``pytrec_eval`` preset, as pytrec_eval scores it); in a mapping, a list of files is one run in shards of whole
        queries. Names: the mapping's keys, else a file's name without directory, compression suffix and extension
        (``runs/bm25.txt.gz``: ``bm25``), a DataFrame's ``attrs["run"]`` (``read_run`` sets the tag), a ranx Run's
        name, else ``run1``, ``run2``... Where names clash, runs read from files are named by their file name (by
        their path as given where those clash too: ``a/bm25.txt``, ``b/bm25.txt``); other runs of one name are
        refused.
    measures : str, Measure or sequence of them, default ("ndcg",)
        Spec strings such as ``"ndcg"``, ``"ndcg@10"``, ``"ndcg@10(gain=exp2, discount='power(beta=0.5)')"``, or
        trec_eval names (``"ndcg_cut.5,10"``, ``"ndcg.1=3,2=9"``); see ``parse_measures``.
    convention : str or Convention, default "trec_eval"
        Whose rules to follow (gain, ideal, ties, empty queries, negative grades, which queries count); see
        ``nr.evaluation.CONVENTIONS``. A measure's own ``gain``/``discount`` override the convention's.
    complete : bool, optional
        True: a judged query missing from a run scores 0 (trec_eval ``-c``); False: it is left out of the mean.
        Default: the convention's (0 for ``trec_eval`` and ``ranx``, as their tools do; left out for the others).
    judged_only : bool, default False
        Remove unjudged documents (not in the qrels, or with a negative grade) from each ranking (condensed lists;
        trec_eval ``-J``), after ``max_docs`` has cut it.
    max_docs : int, optional
        Use only the first ``max_docs`` documents of each ranking, after ordering (trec_eval ``-M``; the ideal is not
        cut, but where the convention takes it from the ranked list it is the kept documents'). 0 keeps none, so
        every query scores 0: refused where the ideal comes from the ranked list (undefined); a cut inside a group of
        tied scores is refused where the convention averages over their orders.

    Returns
    -------
    Evaluation
        ``.per_query`` (DataFrame: run, query, measure, value), ``.means`` (DataFrame: one row per run), ``.mean()``
        (one float), ``.notes``; unpacks as ``per_query, means``.

    Raises
    ------
    InputError
        Malformed files or tables, a document ranked or judged twice for one query, grades the convention's tool
        refuses; ``NoJudgedQuery`` (a subclass) for a run that ranks no judged query (unless ``complete=True`` is
        given: then every judged query scores 0, as with trec_eval ``-c``).
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

    In q1 the ideal holds the unretrieved "c" (grade 1); in q2 the tied, unjudged "b" goes first (document ids
    descending, as trec_eval). scikit-learn's convention builds the ideal from the ranked list and averages over the
    tie; one run and one measure give one float:

    >>> round(evaluate(qrels, run, "ndcg", convention="sklearn").mean(), 4)
    0.7232
    """
    conv = get_convention(convention)  # the options checked before any file is read
    complete = check_bool(complete, "complete", none=True)
    checked = Plan(
        conv,
        tuple(parse_measures(measures)),
        conv.missing == "zero" if complete is None else complete,
        check_bool(judged_only, "judged_only"),
        check_int(max_docs, "max_docs", low=0, none=True),
        complete is None,
    )
    if checked.max_docs == 0 and conv.ideal == "ranking":
        raise ValueError(
            f"max_docs=0 (-M 0) leaves no document, and convention {conv.name!r} takes its ideal from the ranked list: "
            "every query would score as an ideal DCG of 0 does, which says nothing of the run; give max_docs (-M) >= 1"
        )
    named = named_runs(runs)
    if sum(is_path(r) and os.fspath(r) == STDIN for r in [qrels] + [run for _, run in named]) > 1:
        raise ValueError("standard input (-) can be read once: give it as the qrels or as one run, not both")
    judgments, notes = _judgments(qrels, checked)
    merged = []
    for name, run in named:
        parts, tag = _run_parts(judgments, run, checked, name, notes)
        merged.append((*merge_parts(judgments, parts, checked, name), tag))
    judgments.check_twice()  # the judged queries no run ranked: trec_eval refuses their duplicates too
    codes, values, run_notes, tags = zip(*merged, strict=True)
    # per_query names the query column as the caller's frames do (the first run's, else the qrels')
    frame = next((table for _, table in [*named, ("", qrels)] if is_frame(table) or is_dask(table)), None)
    return Evaluation(
        tuple(name for name, _ in named),
        tags,
        checked.measures,
        tuple(judgments.query_text(c) for c in codes),
        values,
        np.array([mean_of(v) for v in values]),
        checked.convention,
        tuple(notes + [note for run in run_notes for note in run]),
        "query" if frame is None else STYLES[frame_style(frame.columns)][0],
    )
