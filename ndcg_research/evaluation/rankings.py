"""A run in rank order, and its queries as padded batches for the metric core.

- :func:`match_run` gives every ranked document its grade from the qrels (exactly: per-query
  hash tables, then the bytes of every hit compared), chunk by chunk;
- :func:`rank_order` orders each query's documents by score, ties by the convention's rule
  (descending document id for trec_eval); a run already in rank order is only checked, and
  only its tied documents move;
- :func:`first_docs` keeps the first N documents of each query (trec_eval ``-M``);
- :func:`batches` groups the queries into padded 2-D batches (lengths in powers of two, so
  padding at most doubles a batch; queries of equal length are the rows themselves, reshaped).

Everything works on whole arrays; nothing loops over queries or documents in Python.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pyarrow as pa

from . import keys
from .readers import Columns

__all__ = ["Ranked", "block_starts", "match_run", "rank_order", "first_docs", "Batch", "batches"]


@dataclass
class Ranked:
    """A run's documents in rank order, query by query (one block of rows per query); see :func:`match_run`.

    ``grade``, ``judged`` and ``negative`` have one more entry than there are documents:
    the padding of the batches (grade 0, not judged); ``score`` has none (it is the run's
    own array until the order changes).
    """

    grade: np.ndarray  # grade of each document (0 if unjudged or negative)
    judged: np.ndarray  # in the qrels with a grade >= 0
    negative: np.ndarray | None  # in the qrels with a grade < 0 (None: no such document)
    score: np.ndarray
    block_codes: np.ndarray  # query code of each block
    block_starts: np.ndarray
    block_lengths: np.ndarray
    origin: np.ndarray | None = None  # line (row of the run) of each position; None: the same

    @property
    def size(self) -> int:
        return self.score.size

    def take(self, rows: np.ndarray) -> Ranked:
        """The documents at ``rows`` (a new order or a subset), blocks recomputed."""
        padded = np.append(rows, self.size)
        codes = np.repeat(self.block_codes, self.block_lengths)[rows]
        starts = block_starts(codes)
        return Ranked(
            self.grade[padded], self.judged[padded], None if self.negative is None else self.negative[padded],
            self.score[rows], codes[starts], starts, np.diff(np.append(starts, codes.size)),
            rows if self.origin is None else self.origin[rows],
        )


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


def match_run(
    columns: Columns, codes: np.ndarray, ids: keys.ByteIds, width: int,
    table: keys.HashTable, judged_ids: keys.ByteIds, judged_codes: np.ndarray, grade: np.ndarray,
) -> tuple[Ranked, np.ndarray]:
    """Match every run document to its judgment, chunk by chunk (temporaries stay in cache).

    Returns the run in file order as :class:`Ranked` (not yet ordered) and the hash of
    each (query, document), for the duplicate check.

    Examples
    --------
    >>> ranked, _ = _example()   # a: 2, b: 1, x: unjudged
    >>> ranked.grade.tolist(), ranked.judged.tolist()   # (the last entry pads)
    ([2, 1, 0, 0], [True, True, False, False])
    """
    n = len(columns)
    row_grade = np.zeros(n + 1, dtype=grade.dtype)
    judged = np.zeros(n + 1, dtype=bool)
    negative = np.zeros(n + 1, dtype=bool)
    hashes = np.empty(n, dtype=np.uint64)
    for chunk, (start, stop) in enumerate(ids.chunk_bounds):
        chunk_codes = codes[start:stop]
        h = ids.hashes(width, chunk_codes, chunk=chunk)
        hashes[start:stop] = h
        found = table.find(chunk_codes, h)
        hits = np.flatnonzero(found >= 0)
        same = keys.same_ids(ids, hits + start, judged_ids, found[hits])
        if not same.all():  # a 64-bit hash collision inside one query: compare bytes directly (never seen)
            for i in hits[~same]:
                candidates = np.flatnonzero(judged_codes == chunk_codes[i])
                equal = keys.same_ids(ids, np.full(candidates.size, start + i), judged_ids, candidates)
                found[i] = candidates[equal][0] if equal.any() else -1
            hits = np.flatnonzero(found >= 0)
        g = grade[found[hits]]
        row_grade[start + hits] = np.maximum(g, 0)
        judged[start + hits] = g >= 0
        negative[start + hits] = g < 0
    starts = block_starts(codes)
    ranked = Ranked(row_grade, judged, negative if negative.any() else None, columns.value,
                     codes[starts], starts, np.diff(np.append(starts, n)))
    return ranked, hashes


_SLICE = 1 << 20  # rows per slice when scanning neighbours (keeps temporaries small and in cache)


def _neighbours(score: np.ndarray, block_starts: np.ndarray) -> tuple[bool, np.ndarray]:
    """Whether scores never rise inside a query, and the rows i tied with row i + 1 of the same query."""
    n = score.size
    rises, ties = False, []
    for start in range(0, max(n - 1, 0), _SLICE):
        stop = min(start + _SLICE, n - 1)
        here, after = score[start:stop], score[start + 1 : stop + 1]
        same_query = np.ones(stop - start, dtype=bool)
        inside = block_starts[(block_starts > start) & (block_starts <= stop)]
        same_query[inside - 1 - start] = False
        rises = rises or bool(np.any((after > here) & same_query))
        ties.append(np.flatnonzero((after == here) & same_query) + start)
    return rises, np.concatenate(ties) if ties else np.zeros(0, dtype=np.int64)


def rank_order(ranked: Ranked, ids: keys.ByteIds, ties: str) -> Ranked:
    """Order each query's documents: score descending, ties as the convention says.

    A run file is usually grouped by query and sorted by score already: that is checked
    first, and then only tied documents move (by descending document id, for "docno").

    Examples
    --------
    >>> ranked, ids = _example()   # b and x tie at 2.0: x goes first (document ids descending)
    >>> rank_order(ranked, ids, "docno").grade.tolist()
    [2, 0, 1, 0]
    >>> rank_order(_example()[0], ids, "input").grade.tolist()   # file order kept
    [2, 1, 0, 0]
    """
    grouped = np.bincount(ranked.block_codes).max(initial=0) <= 1
    rises, pairs = _neighbours(ranked.score, ranked.block_starts)
    if not grouped or rises:
        codes = np.repeat(ranked.block_codes, ranked.block_lengths)
        ranked = ranked.take(np.lexsort((-ranked.score, codes)))  # stable: equal scores keep the file order
        _, pairs = _neighbours(ranked.score, ranked.block_starts)
    if ties == "docno" and pairs.size:
        # Tied groups: chains of consecutive tied pairs. Reorder their rows by descending id.
        group_of_pair = np.cumsum(np.concatenate(([True], pairs[1:] != pairs[:-1] + 1)))
        positions, first = np.unique(np.concatenate((pairs, pairs + 1)), return_index=True)
        group = np.concatenate((group_of_pair, group_of_pair))[first]
        file_rows = positions if ranked.origin is None else ranked.origin[positions]
        order = np.lexsort(keys.descending_order_keys(ids.words(file_rows)) + [group])
        moved = positions[order]
        for array in (ranked.grade, ranked.judged, ranked.negative):
            if array is not None:
                array[positions] = array[moved]
    return ranked


def first_docs(ranked: Ranked, max_docs: int) -> Ranked:
    """Only the first ``max_docs`` documents of each query (trec_eval -M).

    Examples
    --------
    >>> first_docs(_example()[0], 2).grade.tolist()
    [2, 1, 0]
    """
    if ranked.block_lengths.max(initial=0) <= max_docs:
        return ranked
    position = np.arange(ranked.size) - np.repeat(ranked.block_starts, ranked.block_lengths)
    return ranked.take(np.flatnonzero(position < max_docs))


# ---------------------------------------------------------------- padded batches


@dataclass
class Batch:
    """One padded batch of queries: which evaluated queries, and where their rows are (see :func:`batches`).

    ``ranked`` indexes the rank-ordered rows ((n, L), padding: the last row); None means
    the batch is the rows themselves reshaped to ``shape`` (all queries of equal length, in
    order). ``ideal`` indexes the judged qrels rows the same way (None: ideal from the list).
    """

    queries: np.ndarray
    shape: tuple[int, int]
    ranked: np.ndarray | None
    ideal: np.ndarray | None

    def rows(self, values: np.ndarray, pad: float | None = None) -> np.ndarray:
        """``values`` (one per ranked row, plus the padding entry unless ``pad`` is given) as a batch."""
        if self.ranked is None:
            return values[: self.shape[0] * self.shape[1]].reshape(self.shape)
        if pad is not None:
            values = np.append(values, pad)
        return values[self.ranked]


def _padded_index(starts: np.ndarray, lengths: np.ndarray, pad: int) -> np.ndarray:
    """(n, max length) matrix of row indices starts[i] + j (j < lengths[i]), ``pad`` elsewhere."""
    width = max(int(lengths.max(initial=0)), 1)
    index = np.full((starts.size, width), pad, dtype=np.int64)
    total = int(lengths.sum())
    if total:
        block = np.repeat(np.arange(starts.size), lengths)
        offset = np.arange(total) - np.repeat(np.cumsum(lengths) - lengths, lengths)
        index[block, offset] = np.repeat(starts, lengths) + offset
    return index


def batches(
    ranked: Ranked, query_position: np.ndarray, ideal: tuple[np.ndarray, np.ndarray, int] | None
) -> list[Batch]:
    """Group the queries into padded batches; lengths in powers of two, so padding at most doubles a batch.

    Parameters
    ----------
    ranked : Ranked
        The run in rank order.
    query_position : numpy.ndarray
        For each query code, its position among the evaluated queries.
    ideal : (starts, counts, pad) or None
        Where each query's judged grades are (rows of the judged qrels, grouped by query),
        or None when the ideal comes from the ranked list.

    Examples
    --------
    >>> ranked, _ = _example()
    >>> (batch,) = batches(ranked, np.array([0]), (np.array([0]), np.array([3]), 3))
    >>> batch.shape, batch.rows(ranked.grade).tolist(), batch.ideal.tolist()
    ((1, 3), [[2, 1, 0]], [[0, 1, 2]])
    """
    lengths = ranked.block_lengths
    ideal_lengths = None if ideal is None else ideal[1][ranked.block_codes]
    if lengths.size and np.all(lengths == lengths[0]):
        groups = [np.arange(lengths.size)]
    else:
        key = np.ceil(np.log2(np.maximum(lengths, 1))).astype(np.int64)
        if ideal_lengths is not None:
            key = key * 64 + np.ceil(np.log2(np.maximum(ideal_lengths, 1))).astype(np.int64)
        order = np.argsort(key, kind="stable")
        groups = np.split(order, np.flatnonzero(np.diff(key[order])) + 1)
    batches = []
    for blocks in groups:
        shape = (blocks.size, max(int(lengths[blocks].max(initial=0)), 1))
        identity = len(groups) == 1 and np.all(lengths == shape[1])
        index = None if identity else _padded_index(ranked.block_starts[blocks], lengths[blocks], ranked.size)
        ideal_index = None
        if ideal is not None:
            ideal_starts, ideal_counts, pad = ideal
            codes = ranked.block_codes[blocks]
            ideal_index = _padded_index(ideal_starts[codes], ideal_counts[codes], pad)
        batches.append(Batch(query_position[ranked.block_codes[blocks]], shape, index, ideal_index))
    return batches


def _example() -> tuple[Ranked, keys.ByteIds]:
    """A three-document run for the examples: query q ranks a (3.0), b (2.0), x (2.0); a is
    judged 2, b 1, and c (unretrieved) 3."""
    run = Columns(pa.chunked_array([[b"q", b"q", b"q"]]), pa.chunked_array([[b"a", b"b", b"x"]]),
                  np.array([3.0, 2.0, 2.0]), "run", "example")
    judged_ids, judged_codes = keys.ByteIds(pa.array([b"a", b"b", b"c"])), np.zeros(3, dtype=np.int64)
    table = keys.HashTable(judged_codes, judged_ids.hashes(1, judged_codes), 1)
    ids = keys.ByteIds(run.doc)
    ranked, _ = match_run(run, np.zeros(3, dtype=np.int64), ids, 1, table, judged_ids, judged_codes, np.array([2, 1, 3]))
    return ranked, ids
