"""Ids matched by pyarrow's hashing, on whole arrays: qrels prepared once (:class:`Judgments`, shared read-only by
blocks and Dask workers), each part of a run ranked (:func:`rank_part`) and scored (:func:`measure_values`)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import pyarrow as pa

from ..core import _kernels as kernels
from ..core import parse_discount, parse_gain
from ..core._ranking import ranked_gains
from ._measures import Convention, Measure
from ._readers import Columns, SetLookupOptions, SortOptions, binary_array, binary_ids, flags, kernel, numbers, quoted
from ._sources import InputError


def _int_array(values: np.ndarray) -> pa.Array:
    """An int64 Arrow array over the same memory (pyarrow.array would import pandas)."""
    values = np.ascontiguousarray(values, dtype=np.int64)
    return pa.Array.from_buffers(pa.int64(), values.size, [None, pa.py_buffer(values)])


def _encoded(array: pa.ChunkedArray) -> tuple[pa.Array, np.ndarray]:
    """The distinct values of an id array (binary; unused entries possible) and each row's index among them. Dictionary
    chunks keep their int32 indices (half the memory of large qrels): only their dictionaries are hashed."""
    chunks = array.chunks
    if chunks and all(pa.types.is_dictionary(c.type) for c in chunks):
        encoded = kernel("dictionary_encode", binary_ids(*(c.dictionary for c in chunks)))
        remap = numbers(encoded.indices)
        offsets = np.cumsum([0] + [len(c.dictionary) for c in chunks])
        index = np.concatenate([remap[o:][numbers(c.indices)] for c, o in zip(chunks, offsets, strict=False)])
        return binary_ids(encoded.dictionary), index
    # Rows come in runs of one id (a run file is grouped by query): only the first row of each run is hashed.
    ids = binary_ids(array)
    heads = np.flatnonzero(np.r_[len(ids) > 0, flags(kernel("not_equal", ids[1:], ids[:-1]))])
    encoded = kernel("dictionary_encode", kernel("take", ids, _int_array(heads)))
    return binary_ids(encoded.dictionary), np.repeat(numbers(encoded.indices), np.diff(np.r_[heads, len(ids)]))


def query_codes(array: pa.ChunkedArray, names: pa.Array) -> tuple[np.ndarray, list[bytes]]:
    """Each row's position among ``names`` (-1 if absent), and the absent ids that rows hold."""
    dictionary, indices = _encoded(array)
    # index_in hashes its value set at every call: the smaller side is hashed, the other looked up in it. A block of
    # a run file holds some 60 distinct ids, the judged queries are often thousands: the names looked up.
    if len(dictionary) < len(names):
        found = numbers(kernel("index_in", names, options=SetLookupOptions(dictionary)), missing=-1)
        position = np.full(len(dictionary), -1, dtype=np.int64)
        position[found[found >= 0]] = np.flatnonzero(found >= 0)
    else:
        position = numbers(kernel("index_in", dictionary, options=SetLookupOptions(names)), missing=-1).astype(np.int64)
    absent = np.flatnonzero(position < 0)
    if absent.size:  # (a dictionary may hold ids that no row holds)
        absent = absent[np.bincount(indices, minlength=len(dictionary))[absent] > 0]
    return position[indices], kernel("take", dictionary, _int_array(absent)).to_pylist() if absent.size else []


def distinct(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The distinct values, ascending, and where each first occurs (``np.unique`` imports numpy.ma)."""
    order = np.argsort(values, kind="stable")
    first = block_starts(values[order])
    return values[order[first]], order[first]


def block_starts(codes: np.ndarray) -> np.ndarray:
    """First row of each run of equal codes."""
    return np.flatnonzero(np.r_[codes.size > 0, codes[1:] != codes[:-1]])


def _ranges(starts: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """The positions ``starts[i] : starts[i] + counts[i]`` of every i, one after the other."""
    offsets = np.cumsum(counts) - counts
    return np.repeat(starts - offsets, counts) + np.arange(int(counts.sum()))


def _repeated(keys: np.ndarray) -> tuple[int, int] | None:
    """The first two positions holding one key twice (the earliest repeated key), or None."""
    ordered = np.sort(keys)
    equal = ordered[1:] == ordered[:-1]
    if not equal.any():
        return None
    first = int(np.flatnonzero(np.isin(keys, ordered[1:][equal]))[0])  # rare path: which repeated key comes first
    return first, int(np.flatnonzero(keys == keys[first])[1])


def _twice(columns: Columns, rows: list[int], doc: bytes, query: str, verb: str) -> InputError:
    """A document ``verb`` twice for ``query``, at two rows of ``columns`` (refused as trec_eval refuses it)."""
    first, second = sorted(rows)
    return InputError(
        f"{columns.where(first)}: document {quoted(doc)} is {verb} twice for query {query!r} "
        f"(again at {columns.where(second)}); trec_eval refuses this too"
    )


def _ideal_grades(codes: np.ndarray, grade: np.ndarray, n_codes: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each code's grades >= 0 in descending order, one code after the other, with each code's start and count.
    Small integer grades (0..255, nearly every qrels) are counted per code and level; others lexsorted."""
    judged = grade >= 0
    g, c = (grade, codes) if judged.all() else (grade[judged], codes[judged])
    if g.dtype.kind in "iu" and g.max(initial=0) <= 255:
        levels = int(g.max(initial=0)) + 1
        key = c.astype(np.int64) * levels + g
        per_level = np.bincount(key, minlength=n_codes * levels).reshape(n_codes, levels)[:, ::-1]
        descending = np.tile(np.arange(levels - 1, -1, -1, dtype=grade.dtype), n_codes)
        ideal, counts = np.repeat(descending, per_level.ravel()), per_level.sum(axis=1)
    else:
        ideal, counts = g[np.lexsort((-g, c))], np.bincount(c, minlength=n_codes)
    return ideal, np.cumsum(counts) - counts, counts


@dataclass(eq=False)
class Judgments:
    """Qrels prepared for matching and the ideal: ``qrels`` as read, ids dropped (for messages); ``names``: the judged
    query ids in ``strcmp`` order (a code is a position there); ``docs``, ``grade``: judgments grouped by code (code c's
    ``counts[c]`` from ``starts[c]``; ``rows``: their qrels rows, None if the same); per code ``relevant_count`` (grades
    above 0), grades >= 0 descending (``ideal_grade``, ``ideal_start``, ``ideal_count``), ``checked`` for repeats."""

    qrels: Columns
    names: pa.Array
    docs: pa.Array
    grade: np.ndarray
    rows: np.ndarray | None
    starts: np.ndarray
    counts: np.ndarray
    relevant_count: np.ndarray
    ideal_grade: np.ndarray
    ideal_start: np.ndarray
    ideal_count: np.ndarray
    checked: np.ndarray

    @classmethod
    def build(cls, qrels: Columns) -> Judgments:
        """Prepare ``qrels`` (never empty: readers refuse it), freed once their ids are copied (the peak memory)."""
        dictionary, indices = _encoded(qrels.query)
        used = np.flatnonzero(np.bincount(indices, minlength=len(dictionary)))  # (a dictionary may hold unused ids)
        used = used[numbers(kernel("sort_indices", kernel("take", dictionary, _int_array(used)))).astype(np.int64)]
        rank = np.full(len(dictionary), -1, dtype=np.int32)
        rank[used] = np.arange(used.size)
        codes = rank[indices]
        del indices
        names, n = kernel("take", dictionary, _int_array(used)), used.size
        grade = qrels.value
        if grade.dtype.kind == "i" and -(2**31) < grade.min() and grade.max() < 2**31:
            grade = grade.astype(np.int32)  # half the memory of int64 for large qrels
        first_rows = block_starts(codes)
        counts = np.bincount(codes, minlength=n)
        rows: np.ndarray | None = None
        if first_rows.size == n:  # grouped by query, as qrels files are: no copy
            starts = first_rows[np.argsort(codes[first_rows])]  # code c's one block starts at starts[c]
            docs = binary_ids(qrels.doc)
        else:
            rows = np.argsort(codes, kind="stable")
            starts = np.cumsum(counts) - counts
            docs = kernel("take", binary_ids(qrels.doc), _int_array(rows))
            grade, codes = grade[rows], codes[rows]  # codes in the order of the grouped judgments, as the grades
        if qrels.named_by != "key":  # a dict's ids stay: messages name its rows by them (a Mapping may repeat a key)
            # The ids as read are freed here: the caller holds no other reference.
            empty = pa.chunked_array([], type=pa.binary())
            qrels = replace(qrels, query=empty, doc=empty, value=np.zeros(0, dtype=grade.dtype))
        ideal = _ideal_grades(codes, grade, n)
        relevant = np.bincount(codes[grade > 0], minlength=n)
        return cls(qrels, names, docs, grade, rows, starts, counts, relevant, *ideal, np.zeros(n, dtype=bool))

    def query_text(self, codes: np.ndarray) -> np.ndarray:
        """The ids of ``codes`` as str (undecodable bytes kept by surrogate escapes), an object array."""
        raw = kernel("take", self.names, _int_array(codes)).to_pylist()
        return np.array([r.decode("utf-8", errors="surrogateescape") for r in raw], dtype=object)

    def check(self, group: np.ndarray, positions: np.ndarray, query: np.ndarray, keys: np.ndarray) -> None:
        """Refuse a document judged twice for a query of ``group``, from its judgments at ``positions`` (grouped):
        each one's query (an index into ``group``) and key (that index and its document, as one integer)."""
        pair = _repeated(keys)
        if pair is not None:
            rows = [int(p if self.rows is None else self.rows[p]) for p in positions[list(pair)]]
            doc, text = self.docs[int(positions[pair[0]])].as_py(), self.query_text(group[query[pair[0]] :][:1])[0]
            raise _twice(self.qrels, rows, doc, text, "judged")
        self.checked[group] = True

    def judging(self, doc: bytes, codes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Those of ``codes`` whose judgments include the document ``doc``, and its grade for each."""
        positions = _ranges(self.starts[codes], self.counts[codes])
        docs = kernel("take", self.docs, _int_array(positions))  # matched by index_in: pa.scalar would import pandas
        found = numbers(kernel("index_in", docs, options=SetLookupOptions(binary_array([doc]))), missing=-1) == 0
        return np.repeat(codes, self.counts[codes])[found], self.grade[positions[found]]

    def check_twice(self, limit: int = 1 << 20) -> None:
        """Refuse a document judged twice for a query not checked yet (in groups of whole queries)."""
        codes = np.flatnonzero(~self.checked)
        group_of = (np.cumsum(self.counts[codes]) - self.counts[codes]) // limit  # about ``limit`` judgments each
        for group in np.split(codes, np.flatnonzero(np.diff(group_of)) + 1):
            positions = _ranges(self.starts[group], self.counts[group])
            encoded = kernel("dictionary_encode", kernel("take", self.docs, _int_array(positions)))
            local = np.repeat(np.arange(group.size), self.counts[group])
            self.check(group, positions, local, local * len(encoded.dictionary) + numbers(encoded.indices))


@dataclass
class Ranked:
    """A part's evaluated queries, in rank order. Per document: ``grade`` (0 if unjudged; below 0 only if the preset
    keeps them), ``judged`` / ``negative`` (qrels grade >= 0 / below 0), ``score``, ``row`` (place among kept rows)."""

    grade: np.ndarray
    judged: np.ndarray
    negative: np.ndarray
    score: np.ndarray
    row: np.ndarray
    codes: np.ndarray
    starts: np.ndarray
    lengths: np.ndarray

    def take(self, rows: np.ndarray) -> Ranked:
        """The documents at ``rows`` (a subset in the same query order), queries recomputed; empty queries kept."""
        lengths = np.bincount(np.repeat(np.arange(self.codes.size), self.lengths)[rows], minlength=self.codes.size)
        grade, judged, negative, score, row = (
            a[rows] for a in (self.grade, self.judged, self.negative, self.score, self.row)
        )
        return Ranked(grade, judged, negative, score, row, self.codes, np.cumsum(lengths) - lengths, lengths)

    def first(self, n: int) -> Ranked:
        """Only the first ``n`` documents of each query (trec_eval -M)."""
        if self.lengths.max(initial=0) <= n:
            return self
        position = np.arange(self.score.size) - np.repeat(self.starts, self.lengths)
        return self.take(np.flatnonzero(position < n))


def rank_part(
    judgments: Judgments, columns: Columns, conv: Convention, max_docs: int | None = None
) -> tuple[Ranked, set[bytes], np.ndarray]:
    """The evaluated queries of ``columns`` as :class:`Ranked`, the ids of queries without judgments and the codes of
    those not eligible (``max_docs``, -M, bounds only the check of documents ranked twice). One hash pass encodes the
    run's documents and the judged ones: each (query, document) is one integer key, matched and found twice exactly."""
    codes, unknown = query_codes(columns.query, judgments.names)
    keep, ineligible = codes >= 0, np.zeros(0, dtype=np.int64)
    if conv.eligible == "relevant":  # (code -1 reads the last query's count: not kept anyway)
        relevant = judgments.relevant_count[codes] > 0
        ineligible = distinct(codes[keep & ~relevant])[0]
        keep &= relevant
    identity = bool(keep.all())  # every row kept, in its order: no copies
    rows = np.arange(codes.size) if identity else np.flatnonzero(keep)
    kept_codes = codes if identity else codes[rows]
    starts = block_starts(kept_codes)
    if np.bincount(kept_codes[starts], minlength=len(judgments.names)).max(initial=0) > 1:  # not grouped by query
        rows, identity = rows[np.argsort(kept_codes, kind="stable")], False
        kept_codes = codes[rows]
        starts = block_starts(kept_codes)
    lengths = np.diff(np.append(starts, rows.size))
    block_codes = kept_codes[starts]
    positions = _ranges(judgments.starts[block_codes], judgments.counts[block_codes])
    judged_docs = kernel("take", judgments.docs, _int_array(positions))
    encoded = kernel("dictionary_encode", binary_ids(columns.doc, judged_docs))
    doc_ids, doc_codes = binary_ids(encoded.dictionary), numbers(encoded.indices)
    n_ids = len(doc_ids)
    run_doc = doc_codes[: codes.size] if identity else doc_codes[rows]  # per row of the part
    judged_doc = doc_codes[codes.size :]
    judged_query = np.repeat(np.arange(block_codes.size), judgments.counts[block_codes])
    judged_keys = judged_query * n_ids + judged_doc
    ranked_query = np.repeat(np.arange(block_codes.size), lengths)
    if not judgments.checked[block_codes].all():
        judgments.check(block_codes, positions, judged_query, judged_keys)
    # Ranked keys searched among the sorted judged keys (index_in's hash table raised a large part's peak memory 10%)
    order = np.argsort(judged_keys, kind="stable")
    sorted_keys = judged_keys[order]
    judged_somewhere = np.zeros(n_ids, dtype=bool)
    judged_somewhere[judged_doc] = True
    hits = np.flatnonzero(judged_somewhere[run_doc])  # documents judged for some query of the part: for theirs?
    keys = ranked_query[hits] * n_ids + run_doc[hits]
    at = np.minimum(np.searchsorted(sorted_keys, keys), positions.size - 1)  # (no hits if nothing is judged)
    found = sorted_keys[at] == keys
    hits, at = hits[found], at[found]
    matched = judgments.grade[positions[order[at]]]
    grade = np.zeros(rows.size, dtype=judgments.grade.dtype)
    grade[hits] = matched if conv.negative == "keep" else np.maximum(matched, 0)
    judged, negative = np.zeros((2, rows.size), dtype=bool)
    judged[hits], negative[hits] = matched >= 0, matched < 0
    score = columns.value if identity else columns.value[rows]  # not copied: nothing writes a ranking's scores
    if conv.score_dtype == "float32":  # beyond float32's range a score becomes an infinity, as in the tool
        with np.errstate(over="ignore"):
            score = score.astype(np.float32).astype(np.float64)
    ranked = Ranked(grade, judged, negative, score, np.arange(rows.size), block_codes, starts, lengths)
    ranked = _rank_order(ranked, ranked_query, doc_ids, run_doc, conv.ties)
    # A document twice in one query, among the documents trec_eval keeps (form_res_rels.c checks after
    # the -M cut): only ids that occur twice in the part need a look.
    kept = ranked.row if max_docs is None else ranked.first(max_docs).row
    kept_doc = run_doc[kept]
    look = kept[np.bincount(kept_doc, minlength=n_ids)[kept_doc] > 1]
    pair = _repeated(ranked_query[look] * n_ids + run_doc[look])
    if pair is not None:
        first = int(look[pair[0]])
        query = judgments.query_text(block_codes[ranked_query[first] :][:1])[0]
        raise _twice(columns, [int(rows[look[i]]) for i in pair], doc_ids[int(run_doc[first])].as_py(), query, "ranked")
    return ranked, set(unknown), ineligible


def tied_pairs(score: np.ndarray, starts: np.ndarray) -> tuple[bool, np.ndarray]:
    """Whether scores ever rise inside a query, and the positions i tied with i + 1 in the same query."""
    same_query = np.ones(max(score.size - 1, 0), dtype=bool)
    same_query[starts[(starts > 0) & (starts < score.size)] - 1] = False  # a last query may be empty (-J, tf_ranking)
    # Compared, not subtracted: two equal infinities (a float32 preset's overflow) tie, and inf - inf is NaN.
    before, after = score[:-1], score[1:]
    return bool(np.any((after > before) & same_query)), np.flatnonzero((after == before) & same_query)


def tie_groups(pairs: np.ndarray) -> np.ndarray:
    """The group (0, 1, ...) of each tied pair of :func:`tied_pairs`: a chain of consecutive pairs ties one group."""
    return np.cumsum(np.diff(pairs, prepend=-2) != 1) - 1


def _rank_order(ranked: Ranked, query: np.ndarray, ids: pa.Array, index: np.ndarray, ties: str) -> Ranked:
    """Order each query's documents (``ids[index[ranked.row[i]]]``; ``query``: the index of each one's query) by score
    descending, ties as the preset says. Run files are usually sorted already: checked first, then only ties move."""
    rises, pairs = tied_pairs(ranked.score, ranked.starts)
    if rises:
        ranked = ranked.take(np.lexsort((-ranked.score, query)))  # stable: equal scores keep the file order
        _, pairs = tied_pairs(ranked.score, ranked.starts)
    if ties == "docno" and pairs.size:
        # The rows of each tied group reordered by descending id (strcmp order).
        group_of_pair = tie_groups(pairs)
        positions, first = distinct(np.concatenate((pairs, pairs + 1)))
        group = np.concatenate((group_of_pair, group_of_pair))[first]
        keys = [_int_array(group), kernel("take", ids, _int_array(index[ranked.row[positions]]))]
        table = pa.Table.from_arrays(keys, names=["group", "id"])
        order = SortOptions([("group", "ascending"), ("id", "descending")])
        moved = positions[numbers(kernel("sort_indices", table, options=order))]
        for array in (ranked.grade, ranked.judged, ranked.negative, ranked.row):
            array[positions] = array[moved]
    return ranked


def padded(values: np.ndarray, starts: np.ndarray, lengths: np.ndarray, width: int, fill: float) -> np.ndarray:
    """Rows ``values[starts[i] : starts[i] + lengths[i]]`` (at most ``width``) padded with ``fill`` to ``width``."""
    out = np.full((starts.size, width), fill, dtype=values.dtype)
    lengths = np.minimum(lengths, width)
    first, length = (int(starts[0]), int(lengths[0])) if starts.size else (0, 0)
    if np.all(lengths == length) and np.all(starts == first + np.arange(starts.size) * length):  # equal, consecutive
        out[:, :length] = values[first : first + starts.size * length].reshape(starts.size, length)
    else:
        out[np.arange(width) < lengths[:, None]] = values[_ranges(starts, lengths)]
    return out


def _gains(measure: Measure, gain: Any, grades: np.ndarray, judged: np.ndarray | None, source: str) -> np.ndarray:
    """Gains of ``grades`` (from ``source``); a gain map maps the grades it lists, keeps others, zeroes unjudged."""
    if measure.gains is None:
        if grades.size == 0:
            return np.zeros(grades.shape)
        name = f"the grades of {source} (measure {measure.name})"
        return np.asarray(kernels.apply_gain(gain, grades, name=name), dtype=np.float64)
    levels, values = np.array(measure.gains, dtype=np.float64).T  # (grade, gain) pairs, sorted, never none
    out = grades.astype(np.float64)
    where = np.minimum(np.searchsorted(levels, out), levels.size - 1)
    listed = levels[where] == out
    out[listed] = values[where[listed]]
    if judged is not None:
        out[~judged] = 0.0
    return out


def measure_values(
    measure: Measure, conv: Convention, ranked: Ranked, judgments: Judgments
) -> tuple[np.ndarray, np.ndarray]:
    """nDCG of each query of ``ranked`` (unset options: the convention's; its value where the ideal DCG is 0), and
    whether that ideal DCG is 0. Queries go in padded batches of one width (a power of two covering the list and ideal
    cut at ``k``), rows summed alone: a value never depends on block, partition or batch; ideal order gets exactly 1."""
    gain = parse_gain(measure.gain if measure.gain is not None else conv.gain)
    discount = parse_discount(measure.discount if measure.discount is not None else conv.discount)
    k = measure.k if measure.k is not None else conv.truncation
    k = 2**62 if k is None else min(k, 2**62)  # no cut-off: one beyond every list (below int64's limit for numpy)
    gains = _gains(measure, gain, ranked.grade, ranked.judged, judgments.qrels.source)
    longest = np.maximum(ranked.lengths, judgments.ideal_count[ranked.codes] if conv.ideal == "judged" else 0)
    widths = 1 << np.ceil(np.log2(np.maximum(np.minimum(longest, k), 1))).astype(np.int64)
    values, undefined = np.zeros(ranked.codes.size), np.zeros(ranked.codes.size, dtype=bool)
    for width in distinct(widths)[0].tolist():  # the DCG and ideal DCG of the queries of one width, each row alone
        group = np.flatnonzero(widths == width)
        starts, counts = ranked.starts[group], ranked.lengths[group]
        full = int(max(counts.max(), 1))
        if conv.ties == "average":
            scores = padded(ranked.score, starts, counts, full, -np.inf)
            rows = ranked_gains(padded(gains, starts, counts, full, 0.0), scores, k, "average")[:, :width]
        else:
            rows = padded(gains, starts, np.minimum(counts, k), width, 0.0)
        dcg = kernels.rowwise_discounted_sum(rows, discount, what="DCG")
        # The ideal ranking's gains, summed over as many ranks as the group's longest needs: zero gains beyond a
        # query's own add exactly 0, so its sum does not depend on the group.
        if conv.ideal != "judged":
            top = -np.sort(-padded(gains, starts, counts, full, -np.inf), axis=1)
            top[np.isneginf(top)] = 0.0
        else:
            codes = ranked.codes[group]
            mapped = measure.gains is not None
            # Grades are stored descending: without a gain map their gains are the ideal's, 0 from grade 0 on.
            ideal_count = judgments.ideal_count[codes] if mapped else np.minimum(judgments.relevant_count[codes], k)
            ideal_width = int(max(ideal_count.max(), 1))
            top = padded(judgments.ideal_grade, judgments.ideal_start[codes], ideal_count, ideal_width, 0)
            # A gain map may reorder the grades; only gains above 0 fill the ideal (trec_eval). The padding maps like
            # grade 0 (any grade a Measure's map may list): zeroed as unjudged, before sorting.
            real = np.arange(ideal_width) < ideal_count[:, None] if mapped else None
            top = _gains(measure, gain, top, real, judgments.qrels.source)
            if mapped:
                top = -np.sort(-np.maximum(top, 0.0), axis=1)
        idcg = kernels.rowwise_discounted_sum(top[:, :k], discount, what="ideal DCG")
        zero, positive, negative = idcg == 0, idcg > 0, idcg < 0  # (finite: rowwise_discounted_sum refuses others)
        values[group[positive]] = kernels.ndcg_ratio(dcg[positive], idcg[positive], max(width, full))
        # Negative grades kept as gains (TorchMetrics) can make the ideal DCG negative: the tool divides all the same.
        values[group[negative]] = dcg[negative] / idcg[negative]
        values[group[zero]] = 1.0 if conv.zero_ideal == "one" else 0.0
        undefined[group] = zero
    return values, undefined
