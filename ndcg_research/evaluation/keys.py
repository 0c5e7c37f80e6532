"""Identifiers as fixed-width integer keys: exact, orderable like ``strcmp``, and hashable in bulk.

Query and document ids arrive as Arrow binary arrays (millions of short byte strings).
Hashing or sorting them one by one as Python objects is far too slow, so each id becomes a
row of 64-bit words (:func:`byte_words`): its bytes read eight at a time, big-endian, with
zeros past its end. Two ids are equal exactly when their rows are equal, and comparing
rows word by word orders the ids as C's ``strcmp`` does (the order trec_eval breaks ties
by). On these rows:

- :func:`hash_rows` mixes a row (and a query code) into one 64-bit hash;
- :func:`lookup` finds, for every run document, the matching judgment of the same query,
  through one small open-addressing hash table per query (probes stay in that query's
  slice of the table, so they hit the cache) and then compares the words, so the match
  is exact whatever the hashes do.

Everything is vectorised with numpy; the loops below run over probe rounds or words,
never over documents or queries.
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa

__all__ = ["byte_words", "hash_rows", "lookup", "first_duplicate", "descending_order_keys"]

_ALL_ONES = np.uint64(0xFFFFFFFFFFFFFFFF)
# _KEEP[n]: mask keeping the first n bytes of a big-endian word (n = 0..8).
_KEEP = np.array([0] + [(0xFFFFFFFFFFFFFFFF << (64 - 8 * n)) & 0xFFFFFFFFFFFFFFFF for n in range(1, 9)], dtype=np.uint64)
_MIX = np.uint64(0x9E3779B97F4A7C15)
_MIX2 = np.uint64(0xBF58476D1CE4E5B9)


def _chunks(array: pa.Array | pa.ChunkedArray) -> list[pa.Array]:
    chunks = array.chunks if isinstance(array, pa.ChunkedArray) else [array]
    out = []
    for chunk in chunks:
        if pa.types.is_string(chunk.type):
            chunk = chunk.view(pa.binary())
        elif pa.types.is_large_string(chunk.type):
            chunk = chunk.view(pa.large_binary())
        elif not (pa.types.is_binary(chunk.type) or pa.types.is_large_binary(chunk.type)):
            raise TypeError(f"ids must be strings, got Arrow type {chunk.type}")
        out.append(chunk)
    return out


def _offsets(chunk: pa.Array) -> np.ndarray:
    dtype = np.int64 if pa.types.is_large_binary(chunk.type) else np.int32
    return np.frombuffer(chunk.buffers()[1], dtype=dtype)[chunk.offset : chunk.offset + len(chunk) + 1]


def byte_words(array: pa.Array | pa.ChunkedArray) -> np.ndarray:
    """Each byte string as a row of big-endian uint64 words, zero padded to the longest.

    Parameters
    ----------
    array : pyarrow.Array or pyarrow.ChunkedArray
        Binary or string values (no nulls).

    Returns
    -------
    numpy.ndarray of uint64, shape (n, W)
        ``W = max(1, ceil(longest / 8))``. Rows are equal exactly when the strings are,
        and compare (lexicographically, word by word) as ``strcmp`` compares the strings.

    Examples
    --------
    >>> w = byte_words(pa.array([b"b", b"ab", b"abcdefghi"]))
    >>> w.shape
    (3, 2)
    >>> [hex(x) for x in w[1]]
    ['0x6162000000000000', '0x0']
    >>> sorted(range(3), key=lambda i: tuple(w[i]))
    [1, 2, 0]
    """
    chunks = _chunks(array)
    if any(chunk.null_count for chunk in chunks):
        raise ValueError("ids must not be missing (null)")
    offsets = [_offsets(chunk) for chunk in chunks]
    longest = max((int(np.diff(o).max()) for o in offsets if o.size > 1), default=0)
    width = max(1, -(-longest // 8))
    out = np.empty((sum(len(c) for c in chunks), width), dtype=np.uint64)
    row = 0
    for chunk, offset in zip(chunks, offsets):
        n = len(chunk)
        if n == 0:
            continue
        data_buffer = chunk.buffers()[2]
        data = np.frombuffer(data_buffer, dtype=np.uint8) if data_buffer is not None else np.zeros(0, np.uint8)
        start = offset[:-1].astype(np.int64)
        lengths = np.diff(offset)
        base = int(start[0])
        end = int(offset[-1])
        padded = np.zeros(end - base + 8 * width + 8, dtype=np.uint8)
        padded[: end - base] = data[base:end]
        # Unaligned big-endian 8-byte reads at any byte position.
        unaligned = np.ndarray(shape=(padded.size - 7,), dtype=">u8", buffer=padded, strides=(1,))
        start -= base
        for w in range(width):
            words = unaligned[start + 8 * w].astype(np.uint64)
            keep = np.clip(lengths - 8 * w, 0, 8)
            out[row : row + n, w] = words & _KEEP[keep]
        row += n
    return out


def hash_rows(words: np.ndarray, codes: np.ndarray | None = None) -> np.ndarray:
    """A 64-bit hash of each row of words, mixed with an optional integer code per row.

    Examples
    --------
    >>> w = byte_words(pa.array([b"a", b"a", b"b"]))
    >>> h = hash_rows(w, np.array([0, 1, 0]))
    >>> len(set(h.tolist()))
    3
    """
    h = np.full(words.shape[0], 0x243F6A8885A308D3, dtype=np.uint64)
    if codes is not None:
        h = (h ^ codes.astype(np.uint64)) * _MIX
    for column in range(words.shape[1]):
        h = (h ^ words[:, column]) * _MIX
        h ^= h >> np.uint64(31)
    h *= _MIX2
    h ^= h >> np.uint64(29)
    return h


def _table_sizes(counts: np.ndarray) -> np.ndarray:
    """Per-query table sizes: a power of two at least twice the number of keys (load <= 1/2)."""
    need = np.maximum(2 * counts, 2)
    return (1 << np.ceil(np.log2(need)).astype(np.int64)).astype(np.int64)


def lookup(
    table_codes: np.ndarray,
    table_words: np.ndarray,
    query_codes: np.ndarray,
    query_words: np.ndarray,
    n_codes: int,
) -> np.ndarray:
    """For each query key (code, words), the index of the equal table key, or -1.

    The table keys must be unique (check with :func:`first_duplicate`). Keys are compared
    in full after the hash probe, so the answer is exact whatever the hashes do.

    Parameters
    ----------
    table_codes, query_codes : numpy.ndarray of int
        Codes in ``range(n_codes)`` (the query id of each judgment / run line).
    table_words, query_words : numpy.ndarray of uint64, shape (n, W1) and (m, W2)
        Document ids as :func:`byte_words`.
    n_codes : int

    Returns
    -------
    numpy.ndarray of int64, shape (m,)

    Examples
    --------
    >>> tw = byte_words(pa.array([b"d1", b"d2", b"d1"]))
    >>> qw = byte_words(pa.array([b"d2", b"d1", b"d3", b"d1"]))
    >>> lookup(np.array([0, 0, 1]), tw, np.array([0, 1, 0, 0]), qw, 2).tolist()
    [1, 2, -1, 0]
    """
    counts = np.bincount(table_codes, minlength=n_codes)
    sizes = _table_sizes(counts)
    bases = np.concatenate(([0], np.cumsum(sizes)[:-1]))
    masks = (sizes - 1).astype(np.uint64)
    table = np.full(int(sizes.sum()), -1, dtype=np.int64)
    table_hash = hash_rows(table_words, table_codes)

    # Insert: each round, every pending key tries its current slot; of several keys
    # aiming at one free slot, the last write wins and the others move on.
    slot = (table_hash & masks[table_codes]).astype(np.int64)
    pending = np.arange(table_codes.size)
    base_of = bases[table_codes]
    while pending.size:
        where = base_of[pending] + slot[pending]
        free = table[where] == -1
        candidates, targets = pending[free], where[free]
        table[targets] = candidates
        placed = table[targets] == candidates
        moving = np.concatenate((pending[~free], candidates[~placed]))
        slot[moving] = (slot[moving] + 1) & masks[table_codes[moving]].astype(np.int64)
        pending = moving

    # Probe: stop at the equal key or at an empty slot (there is always one). A hash hit is
    # checked word by word; a collision (equal hash, other key) probes on.
    query_hash = hash_rows(query_words, query_codes)
    found = np.full(query_codes.size, -1, dtype=np.int64)
    pending = np.arange(query_codes.size)
    slot = (query_hash & masks[query_codes]).astype(np.int64)
    while pending.size:
        held = table[bases[query_codes[pending]] + slot]
        occupied = held >= 0
        hit = occupied.copy()
        hit[occupied] = table_hash[held[occupied]] == query_hash[pending[occupied]]
        if hit.any():
            hit[hit] = _same_keys(table_codes, table_words, held[hit], query_codes, query_words, pending[hit])
        found[pending[hit]] = held[hit]
        go_on = occupied & ~hit
        pending = pending[go_on]
        slot = (slot[go_on] + 1) & masks[query_codes[pending]].astype(np.int64)
    return found


def _same_keys(codes_a, words_a, rows_a, codes_b, words_b, rows_b) -> np.ndarray:
    """Whether key rows_a[i] of (codes_a, words_a) equals key rows_b[i] of (codes_b, words_b)."""
    same = codes_a[rows_a] == codes_b[rows_b]
    for column in range(max(words_a.shape[1], words_b.shape[1])):
        a = words_a[rows_a, column] if column < words_a.shape[1] else np.uint64(0)
        b = words_b[rows_b, column] if column < words_b.shape[1] else np.uint64(0)
        same &= a == b
    return same


def first_duplicate(codes: np.ndarray, words: np.ndarray) -> tuple[int, int] | None:
    """Two row indices holding the same key (code, words), or None if all keys are distinct.

    Examples
    --------
    >>> w = byte_words(pa.array([b"a", b"b", b"a", b"a"]))
    >>> first_duplicate(np.array([0, 0, 1, 0]), w)
    (0, 3)
    >>> first_duplicate(np.array([0, 0, 1]), w[:3]) is None
    True
    """
    if codes.size < 2:
        return None
    h = hash_rows(words, codes)
    order = np.argsort(h, kind="stable")
    hs = h[order]
    # Equal hashes only (none in a clean file, bar a 2^-64 accident): compare the keys exactly.
    for i in np.flatnonzero(hs[1:] == hs[:-1]):
        j = i + 1
        while j < hs.size and hs[j] == hs[i]:
            a, b = order[i], order[j]
            if codes[a] == codes[b] and np.array_equal(words[a], words[b]):
                return (int(min(a, b)), int(max(a, b)))
            j += 1
    return None


def descending_order_keys(words: np.ndarray) -> list[np.ndarray]:
    """Keys for :func:`numpy.lexsort` that order rows by *descending* id, most significant last.

    Examples
    --------
    >>> w = byte_words(pa.array([b"d1", b"d10", b"d9"]))
    >>> np.lexsort(descending_order_keys(w)).tolist()   # d9 > d10 > d1 in strcmp order
    [2, 1, 0]
    """
    return [~words[:, column] for column in range(words.shape[1] - 1, -1, -1)]
