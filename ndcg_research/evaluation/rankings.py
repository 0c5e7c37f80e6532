"""One part of a run (a block of a streamed file, a Dask partition, a whole run) as rankings of judged queries.

:func:`rank_part` turns the rows of a part into :class:`Ranked`, query by query in rank order:

1. the rows are grouped by query (a part of a run written query by query is left as it is);
2. queries without judgments, and those the convention does not evaluate, are set aside;
3. every document gets its grade (:meth:`Judgments.table`, then the bytes of every hit compared);
   a document ranked twice for one query is refused;
4. scores are ordered descending within each query; tied scores follow the convention
   (document id descending as trec_eval, file order, or left for averaging); scores are first
   rounded to float32 for the tools that keep them so.

Everything works on whole arrays; nothing loops over queries or documents in Python.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pyarrow as pa

from ..core.constraints import Array, Instance, Integer
from ..core.params import validate_params
from . import keys
from .arrow import INDICES, OPTIONAL_IDS, OPTIONAL_INDICES, int_array
from .conventions import CONVENTION, Convention
from .judgments import JUDGMENTS, Judgments, check_duplicates
from .readers import COLUMNS, Columns, InputError
from .sources import TEXT

__all__ = ["Ranked", "SetAside", "block_starts", "rank_part", "first_docs", "refuse_single_documents", "RANKED"]


@validate_params(codes=INDICES)
def block_starts(codes: np.ndarray) -> np.ndarray:
    """First row of each run of equal codes.

    Examples
    --------
    >>> block_starts(np.array([4, 4, 1, 4])).tolist()
    [0, 2, 3]
    """
    if codes.size == 0:
        return np.zeros(0, dtype=np.int64)
    return np.concatenate(([0], np.flatnonzero(codes[1:] != codes[:-1]) + 1))


@dataclass
class SetAside:
    """Queries of a part that are not evaluated: without judgments (their ids), or not eligible (their codes)."""

    unjudged: set[bytes] = field(default_factory=set)
    ineligible: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))


@dataclass
class Ranked:
    """The documents of a part's evaluated queries, query by query, in rank order.

    Per document: ``grade`` (0 if unjudged; below 0 only where the convention keeps negative
    grades), ``judged`` (in the qrels with a grade >= 0), ``negative`` (in the qrels with a
    grade below 0), ``score``, ``row`` (row in the part, for messages). Per query: ``codes``,
    ``starts``, ``lengths``.
    """

    grade: np.ndarray
    judged: np.ndarray
    negative: np.ndarray
    score: np.ndarray
    row: np.ndarray
    codes: np.ndarray
    starts: np.ndarray
    lengths: np.ndarray

    @property
    def size(self) -> int:
        return self.score.size

    def take(self, rows: np.ndarray) -> Ranked:
        """The documents at ``rows`` (a subset in the same query order), queries recomputed; empty queries kept."""
        query = np.repeat(np.arange(self.codes.size), self.lengths)[rows]
        lengths = np.bincount(query, minlength=self.codes.size)
        return Ranked(self.grade[rows], self.judged[rows], self.negative[rows], self.score[rows], self.row[rows],
                      self.codes, np.cumsum(lengths) - lengths, lengths)


def _example_ranked() -> Ranked:
    one = np.zeros(1, dtype=np.int64)
    return Ranked(one, np.ones(1, bool), np.zeros(1, bool), np.zeros(1), one, one, one, np.ones(1, dtype=np.int64))


#: The ranked documents of a part (:class:`Ranked`).
RANKED = Instance(Ranked, what="a Ranked (see rank_part)", example=_example_ranked)


def _grouped(local: np.ndarray) -> tuple[np.ndarray | None, np.ndarray]:
    """The order that groups rows by query (None: already grouped) and the first row of each group."""
    starts = block_starts.unchecked(local)
    if np.bincount(local[starts]).max(initial=0) <= 1:
        return None, starts
    order = np.argsort(local, kind="stable")
    return order, block_starts.unchecked(local[order])


@validate_params(judgments=JUDGMENTS, columns=COLUMNS, conv=CONVENTION, codes=OPTIONAL_INDICES, local=OPTIONAL_INDICES,
                 distinct=OPTIONAL_IDS)
def rank_part(judgments: Judgments, columns: Columns, conv: Convention, *, codes: np.ndarray | None = None,
              local: np.ndarray | None = None, distinct: pa.Array | None = None) -> tuple[Ranked, SetAside]:
    """The evaluated queries of ``columns`` as :class:`Ranked`, and what was set aside (see the module docstring).

    ``codes``, ``local`` and ``distinct`` (from :func:`keys.lookup_codes`) may be passed when
    already computed.
    """
    if codes is None:
        codes, local, distinct = keys.lookup_codes.unchecked(columns.query, judgments.names)
    order, starts = _grouped(local)
    row = np.arange(codes.size) if order is None else order
    block_codes = codes[row[starts]]
    set_aside = SetAside()
    unjudged = block_codes < 0
    if unjudged.any():
        set_aside.unjudged = set(distinct.take(int_array.unchecked(local[row[starts[unjudged]]])).to_pylist())
    eligible = ~unjudged
    if conv.eligible == "relevant":
        relevant = np.zeros(block_codes.size, dtype=bool)
        relevant[eligible] = judgments.has_relevant[block_codes[eligible]]
        set_aside.ineligible = block_codes[eligible & ~relevant]
        eligible &= relevant
    lengths = np.diff(np.append(starts, codes.size))
    if not eligible.all():
        row = row[np.repeat(eligible, lengths)]
        lengths, block_codes = lengths[eligible], block_codes[eligible]
        starts = np.cumsum(lengths) - lengths
    ids = keys.ByteIds(columns.doc)
    hashes = ids.hashes(np.maximum(codes, 0))  # rows set aside get some code: their hashes are not used
    if row.size != codes.size or order is not None:
        hashes = hashes[row]
    row_codes = np.repeat(block_codes, lengths)
    check_duplicates.unchecked(columns, ids, hashes, starts, lengths, judgments.names, row_codes, row)
    found = judgments.table.find(row_codes, hashes)
    hits = np.flatnonzero(found >= 0)
    same = keys.same_ids.unchecked(ids, row[hits], judgments.ids, found[hits])
    if not same.all():  # a 64-bit hash collision inside one query: look the few up byte for byte (never seen)
        found[hits[~same]] = _slow_find(judgments, ids, row[hits[~same]], row_codes[hits[~same]])
        hits = np.flatnonzero(found >= 0)
    grade = np.zeros(row.size, dtype=judgments.grade.dtype)
    matched = judgments.grade[found[hits]]
    negative = np.zeros(row.size, dtype=bool)
    negative[hits] = matched < 0
    judged = np.zeros(row.size, dtype=bool)
    judged[hits] = matched >= 0
    grade[hits] = matched if conv.negative == "keep" else np.maximum(matched, 0)
    score = columns.value[row]
    if conv.score_dtype == "float32":
        score = score.astype(np.float32).astype(np.float64)
    ranked = Ranked(grade, judged, negative, score, row, block_codes, starts, lengths)
    return _rank_order(ranked, ids, conv.ties), set_aside


def _scatter(values: np.ndarray, rows: np.ndarray, size: int) -> np.ndarray:
    """``values`` placed at ``rows`` of an array of ``size`` (code 0 elsewhere: those rows are not used)."""
    out = np.zeros(size, dtype=values.dtype)
    out[rows] = values
    return out


def _slow_find(judgments: Judgments, ids: keys.ByteIds, rows: np.ndarray, codes: np.ndarray) -> np.ndarray:
    out = np.full(rows.size, -1, dtype=np.int64)
    for i, (r, c) in enumerate(zip(rows, codes)):
        candidates = np.flatnonzero(judgments.codes == c)
        equal = keys.same_ids.unchecked(ids, np.full(candidates.size, r), judgments.ids, candidates)
        out[i] = candidates[equal][0] if equal.any() else -1
    return out


def _tied_pairs(score: np.ndarray, starts: np.ndarray) -> tuple[bool, np.ndarray]:
    """Whether scores ever rise inside a query, and the positions i tied with i + 1 in the same query."""
    if score.size < 2:
        return False, np.zeros(0, dtype=np.int64)
    same_query = np.ones(score.size - 1, dtype=bool)
    same_query[starts[(starts > 0)] - 1] = False
    step = score[1:] - score[:-1]
    rises = bool(np.any((step > 0) & same_query))
    return rises, np.flatnonzero((step == 0) & same_query)


def _rank_order(ranked: Ranked, ids: keys.ByteIds, ties: str) -> Ranked:
    """Order each query's documents: score descending, tied scores as the convention says.

    A run file is usually sorted by score already: that is checked first, and then only
    tied documents move (by descending document id, for "docno").
    """
    rises, pairs = _tied_pairs(ranked.score, ranked.starts)
    if rises:
        query = np.repeat(np.arange(ranked.codes.size), ranked.lengths)
        ranked = ranked.take(np.lexsort((-ranked.score, query)))  # stable: equal scores keep the file order
        _, pairs = _tied_pairs(ranked.score, ranked.starts)
    if ties == "docno" and pairs.size:
        # Tied groups: chains of consecutive tied pairs. Reorder their rows by descending id.
        group_of_pair = np.cumsum(np.concatenate(([True], pairs[1:] != pairs[:-1] + 1)))
        positions, first = np.unique(np.concatenate((pairs, pairs + 1)), return_index=True)
        group = np.concatenate((group_of_pair, group_of_pair))[first]
        moved = positions[keys.descending_order.unchecked(ids.take(ranked.row[positions]), group)]
        for array in (ranked.grade, ranked.judged, ranked.negative, ranked.row):
            array[positions] = array[moved]
    return ranked


@validate_params(max_docs=Integer(1), ranked=RANKED)
def first_docs(ranked: Ranked, max_docs: int) -> Ranked:
    """Only the first ``max_docs`` documents of each query (trec_eval -M).

    Examples
    --------
    >>> r = Ranked(np.array([2, 1, 0, 1]), np.ones(4, bool), np.zeros(4, bool), np.array([4.0, 3, 2, 1]),
    ...            np.arange(4), np.array([0, 1]), np.array([0, 3]), np.array([3, 1]))
    >>> first_docs(r, 2).grade.tolist()
    [2, 1, 1]
    """
    if ranked.lengths.max(initial=0) <= max_docs:
        return ranked
    position = np.arange(ranked.size) - np.repeat(ranked.starts, ranked.lengths)
    return ranked.take(np.flatnonzero(position < max_docs))


@validate_params(ranked=RANKED, judgments=JUDGMENTS, conv=CONVENTION, name=TEXT)
def refuse_single_documents(ranked: Ranked, judgments: Judgments, conv: Convention, name: str) -> None:
    """scikit-learn's ndcg_score refuses a list of one document: so does its preset (InputError naming the query)."""
    single = np.flatnonzero(ranked.lengths == 1)
    if single.size:
        query = judgments.query_text(ranked.codes[single[:1]])[0]
        raise InputError(
            f"run {name}: query {query!r} has a single ranked document, which {conv.tool.split(' ')[0]} refuses "
            f"(\"Computing NDCG is only meaningful when there is more than 1 document\"); {single.size} "
            f"quer{'y has' if single.size == 1 else 'ies have'} one"
        )
