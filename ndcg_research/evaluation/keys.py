"""Identifiers in bulk: query codes, document hashes, exact matching and ``strcmp`` order.

Query and document ids arrive as Arrow binary arrays (millions of short byte strings);
handling them one by one as Python objects would be far too slow. Here:

- :func:`query_codes` numbers the distinct query ids of several inputs in ``strcmp``
  order (the order trec_eval prints queries in), through Arrow's dictionary encoding;
- :class:`ByteIds` reads ids eight bytes at a time straight from the Arrow buffers:
  :meth:`ByteIds.hashes` mixes each id (and its query code) into a 64-bit hash, chunk by
  chunk so the work stays in cache, and :meth:`ByteIds.words` gives the bytes of chosen
  ids as rows of big-endian 64-bit words, which compare as ``strcmp`` compares the ids;
- :class:`HashTable` finds, for every run document, the judgment of the same document for
  the same query: one small open-addressing hash table per query (probes stay in that
  query's slice, which stays in cache), then an exact comparison of the bytes of every
  hit, so the result never depends on the hash.

Everything is vectorised; the loops run over chunks, words or probe rounds, never over
documents or queries.
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

__all__ = ["query_codes", "ByteIds", "same_ids", "HashTable", "descending_order_keys"]

# _KEEP_LE[n] keeps the first n bytes of a little-endian word, _KEEP_BE[n] of a big-endian one.
_KEEP_LE = np.array([(1 << (8 * n)) - 1 for n in range(9)], dtype=np.uint64)
_KEEP_BE = np.array([0] + [(0xFFFFFFFFFFFFFFFF << (64 - 8 * n)) & 0xFFFFFFFFFFFFFFFF for n in range(1, 9)], dtype=np.uint64)
_MIX = np.uint64(0x9E3779B97F4A7C15)
_MIX2 = np.uint64(0xBF58476D1CE4E5B9)


def _binary_chunks(array: pa.Array | pa.ChunkedArray) -> list[pa.Array]:
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


def query_codes(arrays: list[pa.ChunkedArray]) -> tuple[list[bytes], list[np.ndarray]]:
    """Number the distinct ids of several arrays in ``strcmp`` order.

    Parameters
    ----------
    arrays : list of pyarrow.ChunkedArray
        Query ids (binary or string, optionally dictionary-encoded, as the readers give them).

    Returns
    -------
    names : list of bytes
        The distinct ids, sorted bytewise.
    codes : list of numpy.ndarray of int32 (int64 beyond 2^31 ids)
        For each array, the position of each row's id in ``names``.

    Examples
    --------
    >>> names, codes = query_codes([pa.chunked_array([[b"10", b"9", b"10"]]), pa.chunked_array([[b"2"]])])
    >>> names, [c.tolist() for c in codes]
    ([b'10', b'2', b'9'], [[0, 2, 0], [1]])
    """
    encoded = []
    for array in arrays:
        chunks = array.chunks if isinstance(array, pa.ChunkedArray) else [array]
        if not all(pa.types.is_dictionary(chunk.type) for chunk in chunks):
            chunks = pc.dictionary_encode(pa.chunked_array(chunks)).chunks
        encoded.append([(chunk.dictionary.cast(pa.binary()).to_pylist(), chunk.indices) for chunk in chunks])
    names = sorted({name for chunks in encoded for values, _ in chunks for name in values})
    position = {name: i for i, name in enumerate(names)}
    dtype = np.int32 if len(names) < 2**31 else np.int64
    codes = []
    for chunks in encoded:
        out = np.empty(sum(len(indices) for _, indices in chunks), dtype=dtype)
        start = 0
        for values, indices in chunks:
            table = np.fromiter((position[v] for v in values), dtype=dtype, count=len(values))
            np.take(table, indices.to_numpy(zero_copy_only=False), out=out[start : start + len(indices)])
            start += len(indices)
        codes.append(out)
    return names, codes


class ByteIds:
    """Byte-string ids held in Arrow buffers, read as 64-bit words without Python objects.

    Examples
    --------
    >>> ids = ByteIds(pa.chunked_array([[b"d1", b"d10"], [b"d9"]]))
    >>> len(ids), ids.longest
    (3, 3)
    >>> ids.words(np.array([2, 0]), 1).tolist() == [[int.from_bytes(b"d9".ljust(8, b"\\0"), "big")],
    ...                                              [int.from_bytes(b"d1".ljust(8, b"\\0"), "big")]]
    True
    """

    def __init__(self, array: pa.Array | pa.ChunkedArray) -> None:
        self._chunks = []
        bounds = [0]
        longest = 0
        for chunk in _binary_chunks(array):
            if len(chunk) == 0:
                continue
            dtype = np.int64 if pa.types.is_large_binary(chunk.type) else np.int32
            offsets = np.frombuffer(chunk.buffers()[1], dtype=dtype)[chunk.offset : chunk.offset + len(chunk) + 1]
            data = chunk.buffers()[2]
            self._chunks.append((offsets, np.frombuffer(data, dtype=np.uint8) if data is not None else np.zeros(0, np.uint8)))
            bounds.append(bounds[-1] + len(chunk))
            if offsets.size > 1:
                longest = max(longest, int(np.diff(offsets).max()))
        self._bounds = np.array(bounds, dtype=np.int64)
        self.longest = longest

    def __len__(self) -> int:
        return int(self._bounds[-1])

    def _read(self, chunk: int, positions: np.ndarray, order: str) -> np.ndarray:
        """The 8 bytes at each byte position of a chunk's data, as uint64 (``order`` "<" or ">").

        Read in place (unaligned) where 8 bytes remain; the few positions near the end of
        the buffer read a zero-padded copy of its last bytes. Bytes past an id's end belong
        to the next id (or are zero): callers mask them off.
        """
        _, data = self._chunks[chunk]
        size = data.size
        if size >= 8:
            view = np.ndarray(shape=(size - 7,), dtype=order + "u8", buffer=data, strides=(1,))
            safe = positions <= size - 8
            if safe.all():
                return view[positions].astype(np.uint64)
        else:
            safe = np.zeros(positions.size, dtype=bool)
        out = np.empty(positions.size, dtype=np.uint64)
        if safe.any():
            out[safe] = view[positions[safe]]
        tail_start = max(size - 8, 0)
        tail = np.zeros(max(int(positions.max()) + 8, size) - tail_start, dtype=np.uint8)
        tail[: size - tail_start] = data[tail_start:]
        tail_view = np.ndarray(shape=(tail.size - 7,), dtype=order + "u8", buffer=tail, strides=(1,))
        out[~safe] = tail_view[positions[~safe] - tail_start]
        return out

    @property
    def chunk_bounds(self) -> list[tuple[int, int]]:
        """(first row, end row) of each stored chunk: work chunk by chunk stays in cache."""
        return list(zip(self._bounds[:-1].tolist(), self._bounds[1:].tolist()))

    def hashes(self, width: int, codes: np.ndarray, chunk: int | None = None) -> np.ndarray:
        """A non-zero 64-bit hash of each (code, id), reading ``width`` words of every id.

        ``width`` must cover the longest id of every array whose hashes are compared
        (the same ``width`` everywhere), so that equal keys get equal hashes. With
        ``chunk``, only that chunk's rows are hashed and ``codes`` holds their codes.
        """
        if chunk is not None:
            return self._chunk_hashes(chunk, width, codes)
        out = np.empty(len(self), dtype=np.uint64)
        for i, (start, stop) in enumerate(self.chunk_bounds):
            out[start:stop] = self._chunk_hashes(i, width, codes[start:stop])
        return out

    def _chunk_hashes(self, chunk: int, width: int, codes: np.ndarray) -> np.ndarray:
        offsets, _ = self._chunks[chunk]
        starts, lengths = offsets[:-1].astype(np.int64), np.diff(offsets)
        h = (codes.astype(np.uint64) + np.uint64(0x243F6A8885A308D3)) * _MIX
        h ^= lengths.astype(np.uint64)
        for w in range(width):
            h ^= self._read(chunk, starts + 8 * w, "<") & _KEEP_LE[np.clip(lengths - 8 * w, 0, 8)]
            h *= _MIX
            h ^= h >> np.uint64(31)
        h *= _MIX2
        h ^= h >> np.uint64(29)
        return h | np.uint64(1)

    def words(self, rows: np.ndarray, width: int | None = None) -> np.ndarray:
        """Rows of big-endian words (zero padded) of the ids at ``rows``; they compare as ``strcmp`` does."""
        width = max(1, -(-self.longest // 8)) if width is None else width
        out = np.zeros((rows.size, width), dtype=np.uint64)
        chunk_of = np.searchsorted(self._bounds, rows, side="right") - 1
        for c in np.unique(chunk_of):
            offsets, _ = self._chunks[c]
            pick = np.flatnonzero(chunk_of == c) if len(self._chunks) > 1 else np.arange(rows.size)
            local = rows[pick] - self._bounds[c]
            starts, lengths = offsets[local].astype(np.int64), offsets[local + 1] - offsets[local]
            for w in range(width):
                out[pick, w] = self._read(c, starts + 8 * w, ">") & _KEEP_BE[np.clip(lengths - 8 * w, 0, 8)]
        return out

    def lengths(self, rows: np.ndarray) -> np.ndarray:
        """Length in bytes of the ids at ``rows``."""
        out = np.zeros(rows.size, dtype=np.int64)
        chunk_of = np.searchsorted(self._bounds, rows, side="right") - 1
        for c in np.unique(chunk_of):
            offsets, _ = self._chunks[c]
            pick = np.flatnonzero(chunk_of == c)
            local = rows[pick] - self._bounds[c]
            out[pick] = offsets[local + 1] - offsets[local]
        return out

    def text(self, row: int) -> str:
        """The id at ``row`` as text (for messages)."""
        raw = b"".join(int(w).to_bytes(8, "big") for w in self.words(np.array([row]))[0])
        return raw[: int(self.lengths(np.array([row]))[0])].decode("utf-8", errors="replace")


def same_ids(a: ByteIds, rows_a: np.ndarray, b: ByteIds, rows_b: np.ndarray) -> np.ndarray:
    """Whether id ``rows_a[i]`` of ``a`` equals id ``rows_b[i]`` of ``b``, compared byte for byte.

    Examples
    --------
    >>> a, b = ByteIds(pa.array([b"x", b"yz"])), ByteIds(pa.array([b"yz", b"x\\0"]))
    >>> same_ids(a, np.array([0, 1, 0]), b, np.array([1, 0, 1])).tolist()
    [False, True, False]
    """
    width = max(1, -(-max(a.longest, b.longest) // 8))
    same = a.lengths(rows_a) == b.lengths(rows_b)
    return same & np.all(a.words(rows_a, width) == b.words(rows_b, width), axis=1)


def _table_sizes(counts: np.ndarray) -> np.ndarray:
    """Per-query numbers of buckets: a power of two at least the number of keys (load <= 1)."""
    return (1 << np.ceil(np.log2(np.maximum(counts, 1))).astype(np.int64)).astype(np.int64)


class HashTable:
    """Judgments (code, hash) indexed for lookup: one small hash table per code (query).

    Each query gets a power-of-two number of buckets, at least its number of entries; the
    entries are sorted by bucket, so a bucket is a short range of that order (empty for
    most probes, rarely longer than one). Probes for one query stay in its slice of the
    table, which stays in cache while that query's run documents are looked up.

    Examples
    --------
    >>> table = HashTable(np.array([0, 0, 1]), np.array([5, 7, 5], np.uint64), 2)
    >>> table.find(np.array([0, 1, 0, 1]), np.array([7, 5, 9, 7], np.uint64)).tolist()
    [1, 2, -1, -1]
    """

    def __init__(self, codes: np.ndarray, hashes: np.ndarray, n_codes: int) -> None:
        sizes = _table_sizes(np.bincount(codes, minlength=n_codes))
        self._bases = np.concatenate(([0], np.cumsum(sizes)[:-1])).astype(np.int64)
        self._masks = (sizes - 1).astype(np.uint64)
        bucket = self._bases[codes] + (hashes & self._masks[codes]).astype(np.int64)
        self._order = np.argsort(bucket, kind="stable")
        self._hashes = hashes[self._order]
        self._filled = np.bincount(bucket, minlength=int(sizes.sum())).astype(np.int32)
        self._starts = np.cumsum(self._filled, dtype=np.int64) - self._filled

    def find(self, codes: np.ndarray, hashes: np.ndarray) -> np.ndarray:
        """For each (code, hash), the index of an entry with the same code and hash, or -1.

        The caller compares the ids of the hits: a hash match is not yet an id match.
        """
        bucket = self._bases[codes] + (hashes & self._masks[codes]).astype(np.int64)
        filled = self._filled[bucket]
        found = np.full(codes.size, -1, dtype=np.int64)
        candidates = np.flatnonzero(filled)
        first = self._starts[bucket[candidates]]
        step = 0
        while candidates.size:
            position = first + step
            hit = self._hashes[position] == hashes[candidates]
            found[candidates[hit]] = self._order[position[hit]]
            step += 1
            more = ~hit & (filled[candidates] > step)
            candidates, first = candidates[more], first[more]
        return found


def descending_order_keys(words: np.ndarray) -> list[np.ndarray]:
    """Keys for :func:`numpy.lexsort` ordering rows of big-endian words by *descending* id.

    Examples
    --------
    >>> ids = ByteIds(pa.array([b"d1", b"d10", b"d9"]))
    >>> np.lexsort(descending_order_keys(ids.words(np.arange(3)))).tolist()   # d9 > d10 > d1
    [2, 1, 0]
    """
    return [~words[:, column] for column in range(words.shape[1] - 1, -1, -1)]
