"""The qrels, prepared once for every run and every block of a run: codes, a hash table, the ideal grades.

:class:`Judgments` numbers the judged queries in ``strcmp`` order (the order results are
printed in), indexes the judged documents of each query in a small hash table
(:class:`~ndcg_research.evaluation.keys.HashTable`), refuses a document judged twice, and keeps
each query's judged grades in descending order (the ideal ranking of the conventions whose
ideal comes from the judgments). It is built once and shared, read-only, by the blocks of a
streamed run and by the workers of a Dask cluster.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np
import pyarrow as pa

from ..core.constraints import AnyOf, Array, Boolean, Instance, Integer, Real
from ..core.params import validate_params
from . import keys
from .arrow import IDS, INDICES, OPTIONAL_INDICES, int_array
from .readers import COLUMNS, Columns, InputError

__all__ = ["Judgments", "group_rows", "padded", "check_duplicates", "compact_grades", "JUDGMENTS"]

_VALUES = Array(as_is=True, ndim=1, kinds="biuf")
_HASHES = Array(as_is=True, ndim=1, kinds="u")


@validate_params(n_codes=Integer(0), codes=INDICES)
def group_rows(codes: np.ndarray, n_codes: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Rows ordered by code (stable), and each code's first position and count in that order.

    Examples
    --------
    >>> order, starts, counts = group_rows(np.array([1, 0, 1]), 2)
    >>> order.tolist(), starts.tolist(), counts.tolist()
    ([1, 0, 2], [0, 1], [1, 2])
    """
    order = np.argsort(codes, kind="stable")
    counts = np.bincount(codes, minlength=n_codes)
    return order, np.cumsum(counts) - counts, counts


@validate_params(width=Integer(0), fill=AnyOf(Integer(None), Real(finite=False)), values=_VALUES, starts=INDICES,
                 lengths=INDICES)
def padded(values: np.ndarray, starts: np.ndarray, lengths: np.ndarray, width: int, fill: float | int = 0) -> np.ndarray:
    """Rows ``values[starts[i] : starts[i] + lengths[i]]`` (at most ``width``) padded with ``fill`` to ``width``.

    Examples
    --------
    >>> padded(np.array([5, 6, 7, 8]), np.array([0, 2]), np.array([2, 2]), 3, -1).tolist()
    [[5, 6, -1], [7, 8, -1]]
    """
    n = starts.size
    out = np.full((n, width), fill, dtype=values.dtype)
    if n == 0 or values.size == 0:
        return out
    lengths = np.minimum(lengths, width)
    length = int(lengths[0])
    if np.all(lengths == length) and np.all(starts == int(starts[0]) + np.arange(n) * length):
        first = int(starts[0])  # equal, consecutive rows: a reshape
        out[:, :length] = values[first : first + n * length].reshape(n, length)
        return out
    used = int(lengths.max())
    column = np.arange(used)
    inside = column[None, :] < lengths[:, None]
    index = np.minimum(starts[:, None] + column[None, :], values.size - 1)
    out[:, :used] = np.where(inside, values[index], fill)
    return out


@validate_params(by_row=Boolean(), columns=COLUMNS, ids=keys.BYTE_IDS, hashes=_HASHES, starts=INDICES, lengths=INDICES,
                 names=IDS, codes=INDICES, rows=OPTIONAL_INDICES)
def check_duplicates(columns: Columns, ids: keys.ByteIds, hashes: np.ndarray, starts: np.ndarray, lengths: np.ndarray,
                     names: pa.Array, codes: np.ndarray, rows: np.ndarray | None = None, *, by_row: bool = False) -> None:
    """Refuse a document listed twice in one group of positions (a query), naming both lines.

    Positions ``starts[i] : starts[i] + lengths[i]`` form group i; ``rows`` maps a position to its
    row of ``columns`` (None: the same). ``hashes`` and ``codes`` are per position, or per row with
    ``by_row`` (then only 32-bit keys are gathered in position order: large qrels). The top 32 bits
    of each hash are sorted within each group (numpy's vectorised sort of 32-bit keys); equal
    neighbours are checked on the whole hash, then on the bytes.
    """
    if starts.size == 0 or hashes.size == 0:
        return
    key = (hashes >> np.uint64(32)).astype(np.uint32)
    key |= np.uint32(1)  # 0 pads
    if by_row:
        key = key[rows]
    for group in _length_classes(lengths):
        width = int(lengths[group].max())
        if width < 2:
            continue
        sorted_keys = np.sort(padded.unchecked(key, starts[group], lengths[group], width, 0), axis=1)
        equal = (sorted_keys[:, 1:] == sorted_keys[:, :-1]) & (sorted_keys[:, 1:] != 0)
        if equal.any():
            if by_row:  # rare: the whole arrays in position order, to name the pair
                hashes, codes, by_row = hashes[rows], codes[rows], False
            _name_duplicate(columns, ids, hashes, starts[group], lengths[group], np.flatnonzero(equal.any(axis=1)),
                            names, codes, rows)


def _length_classes(lengths: np.ndarray) -> list[np.ndarray]:
    """Groups of indices by power-of-two length class (padding at most doubles a class)."""
    if lengths.size and lengths.max() <= 2 * max(int(lengths.min()), 1):
        return [np.arange(lengths.size)]
    key = np.ceil(np.log2(np.maximum(lengths, 1))).astype(np.int64)
    order = np.argsort(key, kind="stable")
    return np.split(order, np.flatnonzero(np.diff(key[order])) + 1)


def _name_duplicate(columns: Columns, ids: keys.ByteIds, hashes: np.ndarray, starts: np.ndarray, lengths: np.ndarray,
                    groups: np.ndarray, names: pa.Array, codes: np.ndarray, rows: np.ndarray | None) -> None:
    """Find, in the groups whose keys repeat, two rows with equal bytes; raise naming them (rare: Python is fine)."""
    found = []
    for g in groups:
        positions = np.arange(starts[g], starts[g] + lengths[g])
        positions = positions[np.argsort(hashes[positions], kind="stable")]
        for i in np.flatnonzero(hashes[positions][1:] == hashes[positions][:-1]):
            a, b = int(positions[i]), int(positions[i + 1])
            row_a, row_b = (a, b) if rows is None else (int(rows[a]), int(rows[b]))
            if keys.same_ids.unchecked(ids, np.array([row_a]), ids, np.array([row_b]))[0]:
                found.append((max(row_a, row_b), min(row_a, row_b), a))
    if not found:
        return  # equal hash keys of different ids
    second, first, position = min(found)
    what = "judged" if columns.kind == "qrels" else "ranked"
    query = names[int(codes[position])].as_py()
    query = query.decode(errors="replace") if isinstance(query, bytes) else query
    raise InputError(
        f"{columns.where(first)}: document {ids.text(first)!r} is {what} twice for query {query!r} "
        f"(again at {columns.where(second)}); trec_eval refuses this too"
    )


@validate_params(grade=Array(as_is=True, ndim=1, kinds="iuf"))
def compact_grades(grade: np.ndarray) -> np.ndarray:
    """Integer grades in int32 when they fit (half the memory of int64 for large qrels).

    Examples
    --------
    >>> compact_grades(np.array([3, -1])).dtype, compact_grades(np.array([2**40])).dtype
    (dtype('int32'), dtype('int64'))
    """
    if grade.dtype.kind == "i" and grade.size and -(2**31) < grade.min() and grade.max() < 2**31:
        return grade.astype(np.int32)
    return grade


def _ideal_grades(codes: np.ndarray, grade: np.ndarray, n_codes: int) -> tuple[np.ndarray, np.ndarray]:
    """Each code's grades >= 0 in descending order, one code after the other, and how many each code has.

    Small integer grades (0..255, nearly every qrels) are counted per code and level, and the
    descending lists written from the counts: no sort, and one temporary key the size of the codes;
    other grades by a lexsort.

    Examples
    --------
    >>> grades, counts = _ideal_grades(np.array([1, 0, 1, 1]), np.array([0, 2, 3, -1]), 2)
    >>> grades.tolist(), counts.tolist()
    ([2, 3, 0], [1, 2])
    """
    judged = grade >= 0
    everything = bool(judged.all())
    g = grade if everything else grade[judged]
    c = codes if everything else codes[judged]
    if g.dtype.kind in "iu" and (g.size == 0 or g.max() <= 255):
        levels = int(g.max(initial=0)) + 1
        key = c.astype(np.int64 if n_codes * levels >= 2**31 else np.int32) * levels
        key += g
        per_level = np.bincount(key, minlength=n_codes * levels).reshape(n_codes, levels)[:, ::-1]
        del key
        descending = np.tile(np.arange(levels - 1, -1, -1, dtype=grade.dtype), n_codes)
        return np.repeat(descending, per_level.ravel()), per_level.sum(axis=1)
    order = np.lexsort((-g, c))
    return g[order], np.bincount(c, minlength=n_codes)


@dataclass(eq=False)
class Judgments:
    """Qrels indexed for matching and for the ideal ranking (see the module docstring).

    Attributes
    ----------
    columns : Columns
        The qrels as read.
    names : pyarrow.Array
        The judged query ids in ``strcmp`` order; a query's code is its position here.
    codes : numpy.ndarray
        Code of each qrels row.
    ids : ByteIds
        The judged document ids.
    grade : numpy.ndarray
        Grade of each qrels row.
    table : HashTable
        (code, document hash) -> qrels row.
    has_relevant : numpy.ndarray
        Per code: some grade above 0.
    ideal_grade, ideal_start, ideal_count : numpy.ndarray
        The grades >= 0 of each code, descending, at ``ideal_grade[ideal_start[c] :][: ideal_count[c]]``.
    """

    columns: Columns
    names: pa.Array
    codes: np.ndarray
    ids: keys.ByteIds
    grade: np.ndarray
    table: keys.HashTable
    has_relevant: np.ndarray
    ideal_grade: np.ndarray
    ideal_start: np.ndarray
    ideal_count: np.ndarray

    @property
    def n_queries(self) -> int:
        return len(self.names)

    @classmethod
    def build(cls, qrels: Columns) -> Judgments:
        """Index ``qrels``; InputError if a document is judged twice for one query.

        Examples
        --------
        >>> qrels = Columns(pa.chunked_array([[b"q2", b"q1", b"q2"]]), pa.chunked_array([[b"a", b"a", b"b"]]),
        ...                 np.array([1, 0, 3]), "qrels", "qrels.txt")
        >>> judged = Judgments.build(qrels)
        >>> judged.names.to_pylist(), judged.has_relevant.tolist(), judged.ideal_grade.tolist()
        ([b'q1', b'q2'], [False, True], [0, 3, 1])
        """
        if len(qrels) == 0:
            raise InputError(f"{qrels.source}: no judgments")
        names, codes = keys.query_names.unchecked(qrels.query)
        ids = keys.ByteIds(qrels.doc)
        hashes = ids.hashes(codes)
        n = len(names)
        runs = np.flatnonzero(np.r_[True, codes[1:] != codes[:-1]]) if codes.size else np.zeros(0, dtype=np.int64)
        if runs.size == n:  # grouped by query, as qrels files are: each query's rows are one run already
            check_duplicates.unchecked(qrels, ids, hashes, runs, np.diff(np.r_[runs, codes.size]), names, codes)
        else:
            order, starts, counts = group_rows.unchecked(codes, n)
            check_duplicates.unchecked(qrels, ids, hashes, starts, counts, names, codes, order, by_row=True)
            del order  # (large qrels: every temporary freed as soon as it is used)
        table = keys.HashTable(codes, hashes, n)
        del hashes
        grade = compact_grades.unchecked(qrels.value)
        has_relevant = np.bincount(codes[grade > 0], minlength=n) > 0
        ideal_grade, ideal_count = _ideal_grades(codes, grade, n)
        # Kept for messages (file, lines): not the query ids, which the codes and names replace.
        kept = replace(qrels, query=pa.chunked_array([], type=pa.binary()), value=grade)
        return cls(kept, names, codes, ids, grade, table, has_relevant, ideal_grade,
                   np.cumsum(ideal_count) - ideal_count, ideal_count)

    def query_text(self, codes: np.ndarray) -> np.ndarray:
        """The ids of ``codes`` as str (undecodable bytes kept by surrogate escapes), an object array."""
        raw = self.names.take(int_array.unchecked(codes)).to_pylist()
        return np.array([r.decode("utf-8", errors="surrogateescape") for r in raw], dtype=object)


#: Prepared qrels (:class:`Judgments`).
JUDGMENTS = Instance(Judgments, what="a Judgments (see Judgments.build)",
                     example=lambda: Judgments.build(COLUMNS.example()))
