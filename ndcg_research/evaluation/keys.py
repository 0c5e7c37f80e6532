"""Identifiers in bulk: query codes, document hashes, exact matching and ``strcmp`` order.

Query and document ids arrive as Arrow binary arrays (millions of short byte strings);
handling them one by one as Python objects would be far too slow. Here:

- :func:`query_names` numbers the distinct query ids of an array in ``strcmp`` order (the
  order trec_eval prints queries in), through Arrow's dictionary encoding, and
  :func:`lookup_codes` finds the codes of other ids among them;
- :class:`ByteIds` reads ids eight bytes at a time straight from the Arrow buffers:
  :meth:`ByteIds.hashes` mixes each id (and its query code) into a 64-bit hash. An id's hash
  depends on its own bytes only, and the word loop visits only the ids still long enough, so
  the cost is proportional to the bytes read (one long id does not make every id cost more);
- :class:`HashTable` finds, for every run document, the judgment of the same document for
  the same query: one small open-addressing hash table per query (probes stay in that
  query's slice, which stays in cache); :func:`same_ids` then compares the bytes of every hit
  (Arrow's comparison, proportional to the bytes), so the result never depends on the hash;
- :func:`descending_order` orders ids by descending ``strcmp`` within groups (Arrow's sort of
  binary ids compares bytes as ``strcmp`` does, ids holding no NUL byte).

Everything is vectorised; the loops run over chunks, words or probe rounds, never over
documents or queries.
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from ..core.constraints import Instance
from ..core.params import validate_params
from .arrow import ARROW_ARRAY, IDS, INDICES, int_array, numbers

__all__ = ["query_names", "lookup_codes", "ByteIds", "same_ids", "HashTable", "descending_order", "BYTE_IDS"]


# _KEEP[n] keeps the first n bytes of a little-endian word.
_KEEP = np.array([(1 << (8 * n)) - 1 for n in range(9)], dtype=np.uint64)
_MIX = np.uint64(0x9E3779B97F4A7C15)
_MIX2 = np.uint64(0xBF58476D1CE4E5B9)
_SEED = np.uint64(0x243F6A8885A308D3)
_SHIFT, _SHIFT2 = np.uint64(31), np.uint64(29)
_SLICE = 1 << 17  # rows hashed at a time
_ONE_CHUNK = 1 << 22  # ids of a block of a run are copied into one chunk; larger arrays (big qrels) are not
_LOOP_WORDS = 16  # words of an id read in the vectorised loop over rows; the rest of long ids all at once


def binary_chunks(array: pa.Array | pa.ChunkedArray) -> list[pa.Array]:
    """The chunks of an id array as binary (dictionaries decoded, strings viewed as bytes)."""
    chunks = array.chunks if isinstance(array, pa.ChunkedArray) else [array]
    out = []
    for chunk in chunks:
        if pa.types.is_dictionary(chunk.type):
            chunk = chunk.dictionary_decode()
        if pa.types.is_string(chunk.type):
            chunk = chunk.view(pa.binary())
        elif pa.types.is_large_string(chunk.type):
            chunk = chunk.view(pa.large_binary())
        elif not (pa.types.is_binary(chunk.type) or pa.types.is_large_binary(chunk.type)):
            raise TypeError(f"ids must be strings, got Arrow type {chunk.type}")
        if chunk.null_count:
            raise ValueError("ids must not be missing (null)")
        out.append(chunk)
    return out


def _distinct(array: pa.ChunkedArray) -> tuple[pa.Array, list[np.ndarray]]:
    """The distinct values of an id array (binary) and, per chunk, each row's index among them."""
    chunks = [c if pa.types.is_dictionary(c.type) else pc.dictionary_encode(pa.chunked_array(binary_chunks(c))).chunks[0]
              for c in (array.chunks if isinstance(array, pa.ChunkedArray) else [array])]
    values = [binary_chunks(c.dictionary)[0] for c in chunks]
    distinct = pc.unique(pa.chunked_array(values, type=pa.binary()) if values else pa.chunked_array([], pa.binary()))
    indices = []
    dtype = np.int32 if len(distinct) < 2**31 else np.int64
    for chunk, dictionary in zip(chunks, values):
        position = numbers.unchecked(pc.index_in(dictionary, value_set=distinct)).astype(dtype)
        indices.append(position[numbers.unchecked(chunk.indices)])
    return distinct, indices


@validate_params(array=ARROW_ARRAY)
def query_names(array: pa.ChunkedArray) -> tuple[pa.Array, np.ndarray]:
    """The distinct ids of ``array`` in ``strcmp`` order, and each row's code (position among them).

    Examples
    --------
    >>> names, codes = query_names(pa.chunked_array([[b"10", b"9"], [b"10", b"2"]]))
    >>> names.to_pylist(), codes.tolist()
    ([b'10', b'2', b'9'], [0, 2, 0, 1])
    """
    distinct, indices = _distinct(array)
    order = numbers.unchecked(pc.sort_indices(distinct))
    dtype = np.int32 if order.size < 2**31 else np.int64
    rank = np.empty(order.size, dtype=dtype)
    rank[order] = np.arange(order.size, dtype=dtype)
    codes = np.empty(sum(i.size for i in indices), dtype=dtype)
    start = 0
    for part in indices:  # chunk by chunk: no int64 copy of the whole column
        codes[start : start + part.size] = rank[part]
        start += part.size
    return distinct.take(int_array.unchecked(order)), codes


@validate_params(array=ARROW_ARRAY, names=IDS)
def lookup_codes(array: pa.ChunkedArray, names: pa.Array) -> tuple[np.ndarray, np.ndarray, pa.Array]:
    """Codes of the ids of ``array`` among ``names`` (-1 if absent), and a local number per distinct id.

    Returns ``(codes, local, distinct)``: ``codes[i]`` is the position of row i's id in ``names``
    or -1, ``local[i]`` the position of row i's id among ``distinct`` (the distinct ids of
    ``array``, in first-seen order per chunk).

    Examples
    --------
    >>> codes, local, distinct = lookup_codes(pa.chunked_array([[b"b", b"x", b"b"]]), pa.array([b"a", b"b"]))
    >>> codes.tolist(), local.tolist(), distinct.to_pylist()
    ([1, -1, 1], [0, 1, 0], [b'b', b'x'])
    """
    distinct, indices = _distinct(array)
    known = pc.index_in(distinct, value_set=names.cast(pa.binary()) if pa.types.is_string(names.type) else names)
    known = numbers.unchecked(known, missing=-1).astype(np.int64)
    local = np.concatenate(indices) if indices else np.zeros(0, dtype=np.int64)
    return known[local], local, distinct


class ByteIds:
    """Byte-string ids held in Arrow buffers, read as 64-bit words without Python objects.

    Examples
    --------
    >>> ids = ByteIds(pa.chunked_array([[b"d1", b"d10"], [b"d9"]]))
    >>> len(ids), ids.text(2)
    (3, 'd9')
    """

    def __init__(self, array: pa.Array | pa.ChunkedArray) -> None:
        chunks = binary_chunks(array)
        if len(chunks) > 1 and sum(len(c) for c in chunks) <= _ONE_CHUNK:
            chunks = [pa.concat_arrays(chunks)]  # one chunk (a copy of a block's ids): every step below is simpler
        self.array = pa.chunked_array(chunks, type=pa.binary())
        self._chunks = []
        bounds = [0]
        for chunk in self.array.chunks:
            offsets = np.frombuffer(chunk.buffers()[1], dtype=np.int32)[chunk.offset : chunk.offset + len(chunk) + 1]
            data = chunk.buffers()[2]
            self._chunks.append((offsets, np.frombuffer(data, dtype=np.uint8) if data is not None else np.zeros(0, np.uint8)))
            bounds.append(bounds[-1] + len(chunk))
        self._bounds = np.array(bounds, dtype=np.int64)

    def __len__(self) -> int:
        return int(self._bounds[-1])

    @property
    def chunk_bounds(self) -> list[tuple[int, int]]:
        """(first row, end row) of each stored chunk: work chunk by chunk stays in cache."""
        return list(zip(self._bounds[:-1].tolist(), self._bounds[1:].tolist()))

    def _read(self, chunk: int, positions: np.ndarray) -> np.ndarray:
        """The 8 bytes at each byte position of a chunk's data, as little-endian uint64.

        Read in place (unaligned) where 8 bytes remain; the few positions near the end of
        the buffer read a zero-padded copy of its last bytes. Bytes past an id's end belong
        to the next id (or are zero): callers mask them off.
        """
        _, data = self._chunks[chunk]
        size = data.size
        safe = positions <= size - 8
        if size >= 8:
            view = np.ndarray(shape=(size - 7,), dtype="<u8", buffer=data, strides=(1,))
            if safe.all():
                return view[positions]
        out = np.empty(positions.size, dtype=np.uint64)
        if safe.any():
            out[safe] = view[positions[safe]]
        tail_start = max(size - 8, 0)
        tail = np.zeros(max(int(positions.max()) + 8, size) - tail_start, dtype=np.uint8)
        tail[: size - tail_start] = data[tail_start:]
        tail_view = np.ndarray(shape=(tail.size - 7,), dtype="<u8", buffer=tail, strides=(1,))
        out[~safe] = tail_view[positions[~safe] - tail_start]
        return out

    def hashes(self, codes: np.ndarray) -> np.ndarray:
        """A non-zero 64-bit hash of each (code, id): equal for equal pairs in any :class:`ByteIds`.

        Examples
        --------
        >>> a, b = ByteIds(pa.chunked_array([[b"d1", b"x" * 30]])), ByteIds(pa.chunked_array([[b"d1"]]))
        >>> bool(a.hashes(np.zeros(2, np.int64))[0] == b.hashes(np.zeros(1, np.int64))[0])
        True
        """
        out = np.empty(len(self), dtype=np.uint64)
        for chunk, (start, stop) in enumerate(self.chunk_bounds):
            for first in range(0, stop - start, _SLICE):  # slices whose temporaries stay in cache
                last = min(first + _SLICE, stop - start)
                out[start + first : start + last] = self._chunk_hashes(chunk, codes[start + first : start + last], first, last)
        return out

    def _chunk_hashes(self, chunk: int, codes: np.ndarray, first: int, last: int) -> np.ndarray:
        offsets = self._chunks[chunk][0][first : last + 1]
        starts = offsets[:-1].astype(np.int64)
        lengths = np.diff(offsets).astype(np.int64)
        h = (codes.astype(np.uint64) + _SEED) * _MIX
        h ^= lengths.astype(np.uint64)
        if lengths.size == 0:
            return h
        rows = None  # None: every row still has bytes at word w
        shortest, longest = int(lengths.min()), int(lengths.max())
        for w in range(min(-(-longest // 8), _LOOP_WORDS)):
            if rows is None and shortest > 8 * w:
                word = self._read(chunk, starts + 8 * w)
                if shortest < 8 * (w + 1):  # some ids end inside this word: mask the bytes past their end
                    word &= _KEEP[np.minimum(lengths - 8 * w, 8)]
                h ^= word
                h *= _MIX
                h ^= h >> _SHIFT
                continue
            rows = np.flatnonzero(lengths > 8 * w) if rows is None else rows[lengths[rows] > 8 * w]
            part = h[rows] ^ (self._read(chunk, starts[rows] + 8 * w) & _KEEP[np.minimum(lengths[rows] - 8 * w, 8)])
            part *= _MIX
            part ^= part >> _SHIFT
            h[rows] = part
        if longest > 8 * _LOOP_WORDS:  # the rest of the long ids, all their words at once
            long_rows = np.flatnonzero(lengths > 8 * _LOOP_WORDS)
            row, words = self._tail_words(chunk, starts[long_rows], lengths[long_rows])
            h[long_rows] ^= np.add.reduceat(words, np.flatnonzero(np.r_[True, row[1:] != row[:-1]]))
            h[long_rows] *= _MIX
        h *= _MIX2
        h ^= h >> _SHIFT2
        return h | np.uint64(1)

    def _tail_words(self, chunk: int, starts: np.ndarray, lengths: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Words past the first ``_LOOP_WORDS`` of each id (rows longer than that), flat: (row, word) pairs.

        Each word is multiplied by an odd constant of its number in the id, so that the sum of a
        row's words depends on their order.
        """
        counts = -(-(lengths - 8 * _LOOP_WORDS) // 8)
        row = np.repeat(np.arange(starts.size), counts)
        index = np.arange(row.size) - np.repeat(np.cumsum(counts) - counts, counts)  # word number within the tail
        positions = starts[row] + 8 * (_LOOP_WORDS + index)
        left = lengths[row] - 8 * (_LOOP_WORDS + index)
        words = self._read(chunk, positions) & _KEEP[np.minimum(left, 8)]
        # position-dependent weight inside each row: multiply by an odd constant per word number
        words *= _MIX * (np.uint64(2) * index.astype(np.uint64) + np.uint64(1))
        return row, words

    def locate(self, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Chunk, byte offset in the chunk's data and length of the ids at ``rows``."""
        if len(self._chunks) == 1:
            chunk = np.zeros(rows.size, dtype=np.int64)
            offsets = self._chunks[0][0]
            return chunk, offsets[rows].astype(np.int64), (offsets[rows + 1] - offsets[rows]).astype(np.int64)
        chunk = np.searchsorted(self._bounds, rows, side="right") - 1
        start = np.empty(rows.size, dtype=np.int64)
        length = np.empty(rows.size, dtype=np.int64)
        for c in np.unique(chunk):
            pick = np.flatnonzero(chunk == c)
            local = rows[pick] - self._bounds[c]
            offsets = self._chunks[c][0]
            start[pick] = offsets[local]
            length[pick] = offsets[local + 1] - offsets[local]
        return chunk, start, length

    def read_words(self, chunks: np.ndarray, positions: np.ndarray) -> np.ndarray:
        """The little-endian 8 bytes at ``positions`` of ``chunks`` (callers mask past an id's end)."""
        if len(self._chunks) == 1:
            return self._read(0, positions)
        out = np.empty(positions.size, dtype=np.uint64)
        for c in np.unique(chunks):
            pick = np.flatnonzero(chunks == c)
            out[pick] = self._read(int(c), positions[pick])
        return out

    def take(self, rows: np.ndarray) -> pa.Array:
        """The ids at ``rows`` as one binary array."""
        taken = self.array.take(int_array.unchecked(rows))
        return taken.combine_chunks() if taken.num_chunks != 1 else taken.chunk(0)

    def text(self, row: int) -> str:
        """The id at ``row`` as text (for messages)."""
        return self.array[int(row)].as_py().decode("utf-8", errors="replace")


#: Ids read as bytes (:class:`ByteIds`).
BYTE_IDS = Instance(ByteIds, what="a ByteIds", example=lambda: ByteIds(pa.array([b"d"])))


@validate_params(a=BYTE_IDS, rows_a=INDICES, b=BYTE_IDS, rows_b=INDICES)
def same_ids(a: ByteIds, rows_a: np.ndarray, b: ByteIds, rows_b: np.ndarray) -> np.ndarray:
    """Whether id ``rows_a[i]`` of ``a`` equals id ``rows_b[i]`` of ``b``, compared byte for byte.

    Lengths first, then eight bytes at a time, each round only over the pairs still equal and
    long enough: the cost is proportional to the bytes compared.

    Examples
    --------
    >>> a, b = ByteIds(pa.array([b"x", b"yz"])), ByteIds(pa.array([b"yz", b"x\\0"]))
    >>> same_ids(a, np.array([0, 1, 0]), b, np.array([1, 0, 1])).tolist()
    [False, True, False]
    """
    if rows_a.size == 0:
        return np.zeros(0, dtype=bool)
    chunk_a, start_a, length = a.locate(rows_a)
    chunk_b, start_b, length_b = b.locate(rows_b)
    same = length == length_b
    pending = np.flatnonzero(same & (length > 0))
    w = 0
    while pending.size and w < _LOOP_WORDS:
        keep = _KEEP[np.minimum(length[pending] - 8 * w, 8)]
        left = a.read_words(chunk_a[pending], start_a[pending] + 8 * w) & keep
        right = b.read_words(chunk_b[pending], start_b[pending] + 8 * w) & keep
        differ = left != right
        same[pending[differ]] = False
        w += 1
        pending = pending[~differ & (length[pending] > 8 * w)]
    if pending.size:  # long ids equal so far: the rest of their bytes at once
        counts = -(-(length[pending] - 8 * w) // 8)
        row = np.repeat(np.arange(pending.size), counts)
        index = np.arange(row.size) - np.repeat(np.cumsum(counts) - counts, counts)
        offset = 8 * (w + index)
        keep = _KEEP[np.minimum(length[pending][row] - offset, 8)]
        left = a.read_words(chunk_a[pending][row], start_a[pending][row] + offset) & keep
        right = b.read_words(chunk_b[pending][row], start_b[pending][row] + offset) & keep
        starts = np.flatnonzero(np.r_[True, row[1:] != row[:-1]])
        same[pending] = np.logical_and.reduceat(left == right, starts)
    return same


@validate_params(ids=IDS, groups=INDICES)
def descending_order(ids: pa.Array, groups: np.ndarray) -> np.ndarray:
    """Positions ordering ``ids`` by group, then by descending ``strcmp`` order of the ids.

    Examples
    --------
    >>> descending_order(pa.array([b"d1", b"d10", b"d9", b"a"]), np.array([0, 0, 0, 1])).tolist()   # d9 > d10 > d1
    [2, 1, 0, 3]
    """
    table = pa.Table.from_arrays([int_array.unchecked(groups), ids], names=["group", "id"])
    return numbers.unchecked(pc.sort_indices(table, sort_keys=[("group", "ascending"), ("id", "descending")]))


def _top(hashes: np.ndarray) -> np.ndarray:
    return (hashes >> np.uint64(32)).astype(np.uint32)


def _table_sizes(counts: np.ndarray) -> np.ndarray:
    """Per-query numbers of buckets: a power of two at least the number of keys (load <= 1).

    A fuller table than the usual half: it takes 9 bytes a bucket, and the qrels of 10^8-line runs
    hold 2*10^7 judgments; the entries that lose their bucket go to the next, smaller level.
    """
    return (1 << np.ceil(np.log2(np.maximum(counts, 1))).astype(np.int64)).astype(np.int64)


class HashTable:
    """Judgments (code, hash) indexed for lookup: one small hash table per code (query).

    Each query gets a power-of-two number of buckets, at least its number of entries.
    A bucket holds one entry: its row, and the top 32 bits of its hash (the low bits chose the
    bucket), 8 bytes in all. One probe answers most lookups; the entries that lost their bucket
    to another wait in a short overflow list sorted by bucket. Probes for one query stay in its
    slice of the table, which stays in cache while that query's run documents are looked up. A
    hit is a candidate: the caller compares the ids' bytes.

    Examples
    --------
    >>> h = lambda *x: np.array(x, np.uint64) << np.uint64(40)   # hashes differ in their top bits
    >>> table = HashTable(np.array([0, 0, 1]), h(5, 7, 5), 2)
    >>> table.find(np.array([0, 1, 0, 1]), h(7, 5, 9, 7)).tolist()
    [1, 2, -1, -1]
    """

    def __init__(self, codes: np.ndarray, hashes: np.ndarray, n_codes: int, level: int = 0) -> None:
        sizes = _table_sizes(np.bincount(codes, minlength=n_codes))
        self._shift = np.uint64(17 * level)  # each level picks its buckets with other bits of the hash
        self._bases = np.concatenate(([0], np.cumsum(sizes)[:-1])).astype(np.int32 if sizes.sum() < 2**31 else np.int64)
        self._masks = (sizes - 1).astype(np.uint64)
        bucket = self._bucket(codes, hashes)
        index = np.int32 if codes.size < 2**31 - 1 else np.int64
        rows = np.arange(codes.size, dtype=index)
        self._row = np.full(int(sizes.sum()), -1, dtype=index)
        self._row[bucket] = rows  # one entry per bucket wins
        self._hash = np.zeros(self._row.size, dtype=np.uint32)
        self._hash[bucket] = _top(hashes)
        lost = np.flatnonzero(self._row[bucket] != rows)
        self._crowded = np.zeros(self._row.size, dtype=bool)
        self._crowded[bucket[lost]] = True
        # The entries that lost their bucket go to a smaller table of the same kind, and so on.
        self._lost = lost
        self._overflow = HashTable(codes[lost], hashes[lost], n_codes, level + 1) if lost.size else None

    def _bucket(self, codes: np.ndarray, hashes: np.ndarray) -> np.ndarray:
        bucket = ((hashes >> self._shift) & self._masks[codes]).astype(self._bases.dtype)
        bucket += self._bases[codes]
        return bucket

    def find(self, codes: np.ndarray, hashes: np.ndarray) -> np.ndarray:
        """For each (code, hash), the index of an entry with the same code and hash, or -1.

        Codes below 0 (queries without judgments) find nothing. The caller compares the ids
        of the hits: a hash match is not yet an id match.
        """
        if codes.size and codes.min() < 0:
            found = np.full(codes.size, -1, dtype=np.int64)
            known = np.flatnonzero(codes >= 0)
            found[known] = self.find(codes[known], hashes[known])
            return found
        bucket = self._bucket(codes, hashes)
        found = np.where(self._hash[bucket] == _top(hashes), self._row[bucket], -1).astype(np.int64, copy=False)
        if self._overflow is not None:
            again = np.flatnonzero((found < 0) & self._crowded[bucket])
            if again.size:
                deeper = self._overflow.find(codes[again], hashes[again])
                hit = deeper >= 0
                found[again[hit]] = self._lost[deeper[hit]]
        return found
        bucket = self._bucket(codes, hashes)
        found = np.where(self._hash[bucket] == _top(hashes), self._row[bucket], -1).astype(np.int64, copy=False)
        again = np.flatnonzero((found < 0) & self._crowded[bucket])
        if again.size:
            first = np.searchsorted(self._overflow_bucket, bucket[again], side="left")
            count = np.searchsorted(self._overflow_bucket, bucket[again], side="right") - first
            for step in range(int(count.max(initial=0))):  # a few entries per crowded bucket at most
                look = np.flatnonzero((count > step) & (found[again] < 0))
                at = first[look] + step
                hit = self._overflow_hash[at] == hashes[again[look]]
                found[again[look[hit]]] = self._overflow_row[at[hit]]
        return found
