"""Read judgments and rankings: TREC qrels and run files, SVMlight/LETOR files, pandas DataFrames.

File formats (trec_eval's; plain, gzip, bzip2 or xz, recognised by content; ``"-"`` reads
standard input):

- qrels: ``query iteration document relevance``, exactly four fields. A grade is a decimal
  number without exponent (trec_eval reads its integer part); below 0 means "in the pool but
  not judged" (see :mod:`ndcg_research.evaluation.conventions`).
- run: ``query Q0 document rank score tag``, six fields, more are ignored (as trec_eval does).
  The rank column is ignored: documents are ranked by score (a decimal number, exponent
  allowed: what C's ``atof`` reads the same way). The run's tag is the tag of its last line
  (trec_eval's ``runid``).
- SVMlight / LETOR (:mod:`~ndcg_research.evaluation.svmlight`): ``relevance qid:QUERY
  feature:value ... # docid = ID ...``, with model scores in a separate file.

One grammar, as trec_eval parses: fields are separated by runs of blanks (space, tab, vertical
tab, form feed), a line may start with blanks and end with ``\\r\\n``, blank lines and lines whose
first non-blank character is ``#`` are skipped. Anything trec_eval would read differently from
what the line seems to say is refused with the file and line (:class:`InputError`): a missing
field (two blanks in a row do not make an empty field), a number trec_eval reads differently
(``1_0``, ``0x10``, ``1e1`` as a grade), a non-finite score, a grade beyond 2^53, and (see
:mod:`~ndcg_research.evaluation.sources`) a byte-order mark, a carriage return inside a line,
NUL bytes.

Files are read in blocks of whole lines (:func:`~ndcg_research.evaluation.sources.line_blocks`).
A block whose lines are regular (one kind of separator, the expected number of fields, no
comment) is parsed by pyarrow's multithreaded CSV reader; any other block line by line; both
give the same result (tested on random files, property-based). Every reader returns
:class:`Columns` (no pandas needed) or, through :func:`read_qrels` / :func:`read_run` /
pandas DataFrames with columns ``query, doc, relevance`` or
``query, doc, score``.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Literal

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.csv as pacsv

from ..core.constraints import Boolean, Constraint, Instance, Integer, Options
from ..core.constraints.base import type_and_value
from ..core.params import validate_params
from .arrow import binary_array, numbers
from .sources import PATH, STDIN, InputError, Source, check_text, line_blocks, open_source

if TYPE_CHECKING:  # pandas is imported only by the functions that return DataFrames
    import pandas as pd

__all__ = [
    "InputError",
    "Columns",
    "qrels_columns",
    "run_columns",
    "run_blocks",
    "columns_from_frame",
    "read_qrels",
    "read_run",
    "COLUMNS",
    "DataFrameOf",
    "DATA_FRAME",
    "DATA_FRAMES",
]

Kind = Literal["qrels", "run"]
PathLike = str | os.PathLike

#: Largest magnitude of a grade (integers beyond it are not exact in float64).
MAX_GRADE = 2**53


@dataclass(frozen=True, eq=False)
class Columns:
    """Judgments or a ranking in columnar form.

    Attributes
    ----------
    query, doc : pyarrow.ChunkedArray
        Query and document ids (binary or string, possibly dictionary-encoded), one per row.
    value : numpy.ndarray
        Relevance grades (int64 if all integral, else float64) or scores (float64).
    kind : {"qrels", "run"}
    source : str
        File name, ``"standard input"``, or ``"DataFrame"``.
    tag : str or None
        The run's tag (trec_eval's ``runid``): the tag field of the last line.
    lines : numpy.ndarray or None
        Where each row came from, for messages: line numbers, or DataFrame index labels; None
        when row i is line ``first_line + i``.
    first_line : int
        See ``lines``.
    """

    query: pa.ChunkedArray
    doc: pa.ChunkedArray
    value: np.ndarray
    kind: Kind
    source: str
    tag: str | None = None
    lines: np.ndarray | None = None
    first_line: int = 1

    def __len__(self) -> int:
        return int(self.value.size)

    def where(self, row: int) -> str:
        """``"FILE:LINE"`` (or ``"DataFrame row LABEL"``) of a row, for messages.

        Examples
        --------
        >>> columns = Columns(pa.chunked_array([[b"q"]]), pa.chunked_array([[b"d"]]), np.array([1.0]), "run", "run.txt",
        ...                   first_line=7)
        >>> columns.where(0)
        'run.txt:7'
        """
        if self.source == "DataFrame":
            return f"DataFrame row {_plain(self.lines[row])!r}" if self.lines is not None else f"DataFrame row at position {row}"
        return f"{self.source}:{int(self.lines[row]) if self.lines is not None else self.first_line + row}"

    def line_numbers(self) -> np.ndarray:
        """The line number (or DataFrame label) of every row."""
        if self.lines is not None:
            return self.lines
        return np.arange(self.first_line, self.first_line + len(self), dtype=np.int64)

    def slice(self, start: int, stop: int | None = None) -> Columns:
        """Rows ``start:stop`` (Arrow slices and numpy views: no copy).

        Examples
        --------
        >>> columns = Columns(pa.chunked_array([[b"q", b"q"]]), pa.chunked_array([[b"a", b"b"]]), np.array([2.0, 1.0]),
        ...                   "run", "run.txt")
        >>> columns.slice(1).where(0)
        'run.txt:2'
        """
        stop = len(self) if stop is None else stop
        return replace(
            self, query=self.query.slice(start, stop - start), doc=self.doc.slice(start, stop - start),
            value=self.value[start:stop], lines=None if self.lines is None else self.lines[start:stop],
            first_line=self.first_line + start,
        )

    @staticmethod
    def concat(parts: Sequence[Columns]) -> Columns:
        """The rows of ``parts`` one after the other (ids stay in their Arrow chunks).

        Grades become int64 when every part's are integral (see :func:`integral_grades`).
        """
        if len(parts) == 1:
            return parts[0]
        first = parts[0]
        contiguous = all(p.lines is None for p in parts) and all(
            b.first_line == a.first_line + len(a) for a, b in zip(parts, parts[1:]))
        value = np.concatenate([p.value for p in parts])
        return Columns(
            _joined([p.query for p in parts]), _joined([p.doc for p in parts]),
            integral_grades(value) if first.kind == "qrels" else value,
            first.kind, first.source, parts[-1].tag,
            None if contiguous else np.concatenate([p.line_numbers() for p in parts]),
            first.first_line,
        )


def _example_columns() -> Columns:
    return Columns(pa.chunked_array([[b"q"]]), pa.chunked_array([[b"d"]]), np.array([1]), "qrels", "example")


#: Judgments or a ranking already read.
COLUMNS = Instance(Columns, what="a Columns (see qrels_columns, run_columns)", example=_example_columns)
_KIND = Options(("qrels", "run"))
_BLOCK_SIZE = Integer(1, none=True)


class DataFrameOf(Constraint):
    """A pandas DataFrame, or with ``dask=True`` a Dask DataFrame too; passed on as is.

    pandas is imported only when a value is checked (the command line never needs it).

    Parameters
    ----------
    dask : bool, default False
    none : bool, default False

    Examples
    --------
    >>> DATA_FRAME.check([1, 2], "run")
    Traceback (most recent call last):
    ...
    TypeError: run must be a pandas DataFrame, got list [1, 2]
    """

    def __init__(self, *, dask: bool = False, none: bool = False) -> None:
        super().__init__(none=none)
        self.dask = dask

    def _describe(self) -> str:
        return "a pandas or Dask DataFrame" if self.dask else "a pandas DataFrame"

    def _check(self, value: Any, name: str) -> Any:
        if self.dask and is_dask(value):
            return value
        import pandas as pd

        if isinstance(value, pd.DataFrame):
            return value
        raise TypeError(f"{name} must be {self.describe()}, got {type_and_value(value)}")

    def example(self) -> Any:
        import pandas as pd

        return pd.DataFrame({"query": ["q"], "doc": ["d"], "relevance": [1]})

    def invalid_values(self) -> list[Any]:
        return [[1, 2], "frame.csv", object(), *super().invalid_values()]


def is_dask(value: Any) -> bool:
    """Whether ``value`` is a Dask collection (without importing Dask)."""
    return type(value).__module__.startswith("dask") and hasattr(value, "to_delayed")


#: A pandas DataFrame (of judgments or of a ranking).
DATA_FRAME = DataFrameOf()
#: A pandas or Dask DataFrame (of a ranking).
DATA_FRAMES = DataFrameOf(dask=True)


def _plain(label: Any) -> Any:
    """A numpy scalar as the Python value it holds (its repr is then the plain one: 0, not np.int64(0))."""
    return label.item() if isinstance(label, np.generic) else label


def _joined(arrays: list[pa.ChunkedArray]) -> pa.ChunkedArray:
    """The chunks of several id arrays as one (dictionary chunks decoded if the types differ)."""
    chunks = [c for a in arrays for c in a.chunks]
    if len({c.type for c in chunks}) > 1:
        chunks = [c.dictionary_decode() if pa.types.is_dictionary(c.type) else c for c in chunks]
        chunks = [c.cast(pa.binary()) if pa.types.is_string(c.type) else c for c in chunks]
    return pa.chunked_array(chunks, type=chunks[0].type)


def integral_grades(value: np.ndarray) -> np.ndarray:
    """Grades as int64 when all are integral (exact, and what trec_eval reads), else float64.

    Examples
    --------
    >>> integral_grades(np.array([2.0, -1.0])).dtype, integral_grades(np.array([0.5])).dtype
    (dtype('int64'), dtype('float64'))
    """
    if value.dtype.kind == "f" and value.size and np.all(np.floor(value) == value):
        return value.astype(np.int64)
    return value


# ---------------------------------------------------------------- the line grammar

_FIELDS = {"qrels": ("query", "iteration", "doc", "value"), "run": ("query", "iteration", "doc", "rank", "value", "tag")}
_USAGE = {"qrels": "exactly 4 fields (query iteration document relevance)",
          "run": "6 fields (query Q0 document rank score tag)"}
# What C's atof reads in full, and Python's float the same way; grades: no exponent (atol stops there).
_SCORE = re.compile(rb"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
_GRADE = re.compile(rb"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)")
# Python's bytes.split() splits at exactly C's isspace characters: space, \t, \n, \v, \f, \r.
_IRREGULAR = (b"#", b"\x0b", b"\x0c")


def quoted(raw: bytes, limit: int = 60) -> str:
    """The repr of a line or a field, for messages (cut at ``limit`` characters).

    Examples
    --------
    >>> quoted(b"q1 0 d1")
    "'q1 0 d1'"
    """
    text = raw.decode(errors="replace")
    return repr(text if len(text) <= limit else text[:limit] + "...")


def parse_number(text: bytes, what: str, where: str) -> float:
    """A score (``what="score"``) or grade (``"relevance"``), exactly as trec_eval reads it, or InputError.

    Examples
    --------
    >>> parse_number(b"-1.5e3", "score", "run:1")
    -1500.0
    >>> parse_number(b"1_0", "score", "run:1")
    Traceback (most recent call last):
    ...
    ndcg_research.evaluation.sources.InputError: run:1: score '1_0' is not a number (trec_eval's atof would read 1)
    >>> parse_number(b"1e1", "relevance", "qrels:3")
    Traceback (most recent call last):
    ...
    ndcg_research.evaluation.sources.InputError: qrels:3: relevance '1e1' has an exponent; trec_eval reads grades as integers (its atol would read 1): write the integer
    """
    grade = what == "relevance"
    if (_GRADE if grade else _SCORE).fullmatch(text) is None:
        prefix = _SCORE.match(text)
        if grade and prefix is not None and prefix.end() == len(text):
            raise InputError(f"{where}: {what} {quoted(text)} has an exponent; trec_eval reads grades as integers "
                             f"(its atol would read {_c_prefix(text, grade)}): write the integer")
        read = _c_prefix(text, grade)
        said = f" (trec_eval's {'atol' if grade else 'atof'} would read {read})" if read is not None else ""
        raise InputError(f"{where}: {what} {quoted(text)} is not a number{said}")
    value = float(text)
    if not np.isfinite(value):
        raise InputError(f"{where}: {what} {quoted(text)} is not finite (beyond the float64 range)")
    if grade and abs(value) >= MAX_GRADE:
        raise InputError(f"{where}: relevance {quoted(text)} is too large (grades are integers below 2^53)")
    return value


def _c_prefix(text: bytes, integer: bool) -> str | None:
    """What C's atol / atof read from the start of ``text`` (None if nothing but 0 of a non-number)."""
    match = re.match(rb"[+-]?[0-9]+" if integer else _SCORE.pattern, text)
    if match is None:
        return None
    number = float(match.group())
    return str(int(number)) if integer else f"{number:g}"


def _line_block(block: bytes, kind: Kind, name: str, first_line: int) -> tuple[Columns, int]:
    """Parse a block line by line (the reference semantics); return it and the number of lines read."""
    queries, docs, values, lines = [], [], [], []
    tag = None
    wanted = len(_FIELDS[kind])
    pieces = block.split(b"\n")
    if pieces and pieces[-1] == b"":
        pieces.pop()
    for offset, line in enumerate(pieces):
        fields = line.split()
        if not fields or fields[0].startswith(b"#"):
            continue
        where = f"{name}:{first_line + offset}"
        if len(fields) < wanted or (kind == "qrels" and len(fields) > wanted):
            raise InputError(f"{where}: a {kind} line needs {_USAGE[kind]}, got {len(fields)}: {quoted(line.strip())}")
        value_field = fields[3] if kind == "qrels" else fields[4]
        values.append(parse_number(value_field, "relevance" if kind == "qrels" else "score", where))
        queries.append(fields[0])
        docs.append(fields[2])
        lines.append(first_line + offset)
        if kind == "run":
            tag = fields[5]
    value = np.asarray(values, dtype=np.float64)
    if kind == "qrels":
        value = integral_grades(value)
    columns = Columns(
        pa.chunked_array([binary_array.unchecked(queries)]), pa.chunked_array([binary_array.unchecked(docs)]),
        value, kind, name, None if tag is None else tag.decode(errors="replace"), np.asarray(lines, dtype=np.int64),
    )
    return columns, len(pieces)


def _arrow_block(block: bytes, kind: Kind, name: str, first_line: int) -> Columns | None:
    """Parse a regular block with pyarrow; None if any line is irregular (then it is read line by line)."""
    if any(mark in block for mark in _IRREGULAR):
        return None
    tab = b"\t" in block
    if tab and b" " in block:
        return None
    names = _FIELDS[kind]
    binary = pa.binary()
    types = dict.fromkeys(names, binary) | {"query": pa.dictionary(pa.int32(), binary)}
    if kind == "run":
        types["value"] = pa.float64()
    try:
        table = pacsv.read_csv(
            pa.BufferReader(block),
            read_options=pacsv.ReadOptions(column_names=list(names), block_size=1 << 22),
            parse_options=pacsv.ParseOptions(delimiter="\t" if tab else " ", quote_char=False, double_quote=False,
                                             escape_char=False, newlines_in_values=False, ignore_empty_lines=False),
            convert_options=pacsv.ConvertOptions(column_types=types, check_utf8=False, strings_can_be_null=False,
                                                 quoted_strings_can_be_null=False, null_values=[]),
        )
    except (pa.ArrowInvalid, pa.ArrowTypeError):
        return None
    if table.num_rows == 0:
        return None
    # Two blanks in a row make an empty field here, where trec_eval sees a missing one.
    for column in names:
        array = table.column(column)
        if column == "query":
            if any(pc.min(pc.binary_length(c.dictionary)).as_py() == 0 for c in array.chunks):
                return None
        elif column != "value" and pc.min(pc.binary_length(array)).as_py() == 0:
            return None
    if kind == "run":
        value = numbers.unchecked(table.column("value"))
        if not np.all(np.isfinite(value)):
            return None
        tag = table.column("tag")[-1].as_py().decode(errors="replace")
    else:
        value = _integer_grades(table.column("value"))
        if value is None:
            return None
        tag = None
    return Columns(table.column("query"), table.column("doc"), value, kind, name, tag, None, first_line)


_DIGIT = np.zeros(256, dtype=bool)
_DIGIT[list(b"0123456789")] = True


def _integer_grades(array: pa.ChunkedArray) -> np.ndarray | None:
    """Grades written as plain integers (digits, a leading minus) as int64, or None (then read line by line)."""
    out = []
    for chunk in array.chunks:
        offsets = np.frombuffer(chunk.buffers()[1], dtype=np.int32)[chunk.offset : chunk.offset + len(chunk) + 1]
        data = np.frombuffer(chunk.buffers()[2], dtype=np.uint8)[offsets[0] : offsets[-1]]
        starts = offsets[:-1] - offsets[0]
        minus = data == ord("-")
        if not np.all(_DIGIT[data] | minus) or np.count_nonzero(minus) != np.count_nonzero(minus[starts]):
            return None
        if np.any(np.diff(offsets) - minus[starts] > 15):  # 10^15 < 2^53: longer ones are checked line by line
            return None
        out.append(numbers.unchecked(pc.cast(chunk, pa.int64())))
    return np.concatenate(out) if len(out) != 1 else out[0]


def parse_block(block: bytes, kind: Kind, name: str, first_line: int, *, fast: bool = True) -> tuple[Columns, int]:
    """Parse one block of whole lines; return its rows and its number of lines.

    ``fast=False`` forces the line-by-line reader (the two must agree on every input).

    Examples
    --------
    >>> rows, n_lines = parse_block(b"q1 0 a 2\\n# comment\\nq1 0 b 0\\n", "qrels", "qrels.txt", 1)
    >>> rows.value.tolist(), rows.where(1), n_lines
    ([2, 0], 'qrels.txt:3', 3)
    """
    if fast:
        columns = _arrow_block(block, kind, name, first_line)
        if columns is not None:
            return columns, columns.value.size
    return _line_block(block, kind, name, first_line)


def _blocks(path: PathLike, kind: Kind, block_size: int | None, fast: bool) -> Iterator[Columns]:
    sizes = {} if block_size is None else {"size": block_size}
    first_line = 1
    with open_source.unchecked(path, kind) as source:
        for block in line_blocks.unchecked(source, **sizes):
            check_text.unchecked(block, source.name, first_line)
            columns, n_lines = parse_block(block, kind, source.name, first_line, fast=fast)
            first_line += n_lines
            if len(columns):
                yield columns


def numbered_lines(source: Source) -> Iterator[tuple[int, bytes]]:
    """(line number, line) of every line of ``source`` (for the small line-by-line formats)."""
    first_line = 1
    for block in line_blocks.unchecked(source):
        check_text.unchecked(block, source.name, first_line)
        pieces = block.split(b"\n")
        if pieces[-1] == b"":
            pieces.pop()
        for offset, line in enumerate(pieces):
            yield first_line + offset, line
        first_line += len(pieces)


@validate_params(block_size=_BLOCK_SIZE, fast=Boolean(), path=PATH)
def run_blocks(path: PathLike, *, block_size: int | None = None, fast: bool = True) -> Iterator[Columns]:
    """The rows of a TREC run file, block by block (memory bounded by a block, whatever the file's size).

    Examples
    --------
    >>> import tempfile, os
    >>> path = os.path.join(tempfile.mkdtemp(), "run")
    >>> _ = open(path, "w").write("q1 Q0 d1 1 0.9 bm25\\nq2 Q0 d1 1 0.5 bm25\\n")
    >>> [len(block) for block in run_blocks(path, block_size=10)]
    [1, 1]
    """
    yield from _blocks(path, "run", block_size, fast)


def _whole(path: PathLike, kind: Kind, *, block_size: int | None = None, fast: bool = True) -> Columns:
    parts = list(_blocks(path, kind, block_size, fast))
    if not parts:
        name = "standard input" if os.fspath(path) == STDIN else os.fspath(path)
        raise InputError(f"{name}: no data lines (only blank or comment lines)")
    return Columns.concat(parts)


@validate_params(block_size=_BLOCK_SIZE, fast=Boolean(), path=PATH)
def qrels_columns(path: PathLike, *, block_size: int | None = None, fast: bool = True) -> Columns:
    """Read a TREC qrels file (``query iteration document relevance``) into :class:`Columns`.

    Parameters
    ----------
    path : str or path-like
        Plain or compressed (gzip, bzip2, xz: recognised by content); ``"-"`` reads standard input.
    block_size : int, optional
        Bytes read at a time (default :data:`~ndcg_research.evaluation.sources.BLOCK_SIZE`).
    fast : bool, default True
        False forces the line-by-line parser (the two agree on every input).

    Returns
    -------
    Columns

    Raises
    ------
    InputError
        A malformed line (file and line named), or a missing file.

    Examples
    --------
    >>> import tempfile, os
    >>> path = os.path.join(tempfile.mkdtemp(), "qrels")
    >>> _ = open(path, "w").write("# judged by NIST\\nq1 0 d1 2\\nq1 0 d2 0\\n")
    >>> qrels = qrels_columns(path)
    >>> len(qrels), qrels.value.tolist(), qrels.where(1).endswith(":3")
    (2, [2, 0], True)
    """
    return _whole(path, "qrels", block_size=block_size, fast=fast)


@validate_params(block_size=_BLOCK_SIZE, fast=Boolean(), path=PATH)
def run_columns(path: PathLike, *, block_size: int | None = None, fast: bool = True) -> Columns:
    """Read a whole TREC run file (``query Q0 document rank score tag``) into :class:`Columns`.

    The options are those of :func:`qrels_columns`.

    Examples
    --------
    >>> import tempfile, os
    >>> path = os.path.join(tempfile.mkdtemp(), "run")
    >>> _ = open(path, "w").write("q1 Q0 d1 1 0.9 bm25\\nq1 Q0 d2 2 0.5 bm25\\n")
    >>> run = run_columns(path)
    >>> run.tag, run.value.tolist()
    ('bm25', [0.9, 0.5])
    """
    return _whole(path, "run", block_size=block_size, fast=fast)


# ---------------------------------------------------------------- DataFrames

_VALUE_COLUMN = {"qrels": "relevance", "run": "score"}


def _id_array(series: pd.Series, name: str, where: Any) -> pa.ChunkedArray:
    if series.isna().any():
        raise InputError(f"{where(int(np.flatnonzero(series.isna().to_numpy())[0]))}: {name} is missing")
    kind = series.dtype.kind
    if kind == "f":
        first = _plain(series.iloc[0])
        raise InputError(
            f"DataFrame column {name!r} holds floats ({first!r}, ...): ids are compared as text, and "
            f"{first!r} would not match {str(first).removesuffix('.0')!r}; convert the column to int or str first"
        )
    if kind == "b":
        raise InputError(f"DataFrame column {name!r} holds booleans; ids must be strings or integers")
    if kind in "iu":  # integer ids are compared as their decimal text
        series = series.astype(str)
    try:
        return pa.chunked_array([pa.array(series.to_numpy(dtype=object), pa.string())])
    except (pa.ArrowInvalid, pa.ArrowTypeError):
        raise InputError(f"DataFrame column {name!r} must hold strings or integers (ids), got dtype {series.dtype}") from None


@validate_params(kind=_KIND, name=Instance(str, none=True), frame=DATA_FRAME)
def columns_from_frame(frame: pd.DataFrame, kind: Kind, *, name: str | None = None) -> Columns:
    """Convert a DataFrame (``query, doc, relevance`` or ``query, doc, score``) into :class:`Columns`.

    Integer ids are turned into their decimal text (they are compared as strings, as trec_eval
    compares document ids); float or boolean ids are refused. Messages name rows by their index
    label, or by position when the index has duplicate labels.

    Examples
    --------
    >>> import pandas as pd
    >>> run = columns_from_frame(pd.DataFrame({"query": ["q1"], "doc": ["d1"], "score": [0.5]}), "run")
    >>> run.value.tolist(), run.where(0)
    ([0.5], 'DataFrame row 0')
    """
    value_column = _VALUE_COLUMN[kind]
    wanted = ["query", "doc", value_column]
    missing = [c for c in wanted if c not in frame.columns]
    if missing:
        raise InputError(
            f"{kind} DataFrame needs columns {', '.join(wanted)}; missing {', '.join(missing)} "
            f"(has {', '.join(map(str, frame.columns))})"
        )
    for column in wanted:
        count = int(np.count_nonzero(frame.columns == column))
        if count > 1:
            raise InputError(f"{kind} DataFrame has {count} columns named {column!r}; keep one")
    if len(frame) == 0:
        raise InputError(f"{kind} DataFrame is empty")
    labels = np.asarray(frame.index) if frame.index.is_unique else None
    where = (lambda i: f"DataFrame row {_plain(labels[i])!r}") if labels is not None else (lambda i: f"DataFrame row at position {i}")
    values = frame[value_column]
    if values.dtype.kind not in "iuf":
        raise InputError(f"{kind} DataFrame column {value_column!r} must be numeric, got dtype {values.dtype}")
    raw = values.to_numpy(dtype=np.float64)
    bad = ~np.isfinite(raw)
    if bad.any():
        position = int(np.flatnonzero(bad)[0])
        raise InputError(f"{where(position)}: {value_column} must be finite, got {float(raw[position])!r}")
    if values.dtype.kind in "iu":
        exact = values.to_numpy()
        inexact = np.flatnonzero((np.abs(exact) > 2**53) & (raw.astype(np.int64) != exact))
        if inexact.size:
            i = int(inexact[0])
            raise InputError(f"{where(i)}: {value_column} {int(exact[i])} is not exact as a float64 (beyond 2^53: "
                             f"it would tie with its neighbours); rescale the {value_column}s")
    if kind == "qrels" and np.abs(raw).max() >= MAX_GRADE:
        i = int(np.argmax(np.abs(raw) >= MAX_GRADE))
        raise InputError(f"{where(i)}: relevance {raw[i]!r} is too large (grades are integers below 2^53)")
    return Columns(
        _id_array(frame["query"], "query", where), _id_array(frame["doc"], "doc", where),
        integral_grades(raw) if kind == "qrels" else raw, kind, "DataFrame",
        name if name is not None else frame.attrs.get("run"), labels,
    )


def as_frame(columns: Columns) -> pd.DataFrame:
    import pandas as pd

    def text(array: pa.ChunkedArray) -> pa.ChunkedArray:
        chunks = [c.dictionary_decode() if pa.types.is_dictionary(c.type) else c for c in array.chunks]
        try:
            return pa.chunked_array(chunks, type=chunks[0].type if chunks else pa.binary()).cast(pa.string())
        except pa.ArrowInvalid:
            raise InputError(f"{columns.source}: ids must be UTF-8 text to go into a DataFrame") from None

    table = pa.table({"query": text(columns.query), "doc": text(columns.doc)})
    frame = table.to_pandas()
    frame[_VALUE_COLUMN[columns.kind]] = columns.value
    if columns.source != "DataFrame":
        frame.index = pd.Index(columns.line_numbers(), name="line")
    frame.attrs["source"] = columns.source
    if columns.tag is not None:
        frame.attrs["run"] = columns.tag
    return frame


@validate_params(path=PATH)
def read_qrels(path: PathLike) -> pd.DataFrame:
    """Read a TREC qrels file into a DataFrame with columns ``query, doc, relevance``.

    The index is the line number in the file; ``attrs["source"]`` is the path.

    Examples
    --------
    >>> import tempfile, os
    >>> path = os.path.join(tempfile.mkdtemp(), "qrels.txt")
    >>> _ = open(path, "w").write("401 0 FBIS3-10 1\\n401 0 FBIS3-11 0\\n")
    >>> read_qrels(path)  # doctest: +NORMALIZE_WHITESPACE
         query       doc  relevance
    line
    1      401  FBIS3-10          1
    2      401  FBIS3-11          0
    """
    return as_frame(qrels_columns.unchecked(path))


@validate_params(path=PATH)
def read_run(path: PathLike) -> pd.DataFrame:
    """Read a TREC run file into a DataFrame with columns ``query, doc, score``.

    The index is the line number; ``attrs["run"]`` is the tag of the last line and
    ``attrs["source"]`` the path. The rank column is not kept (trec_eval ranks by score).

    Examples
    --------
    >>> import tempfile, os
    >>> path = os.path.join(tempfile.mkdtemp(), "run.txt")
    >>> _ = open(path, "w").write("401 Q0 FBIS3-10 1 12.5 bm25\\n401 Q0 FBIS3-11 2 11.0 bm25\\n")
    >>> run = read_run(path)
    >>> run.attrs["run"], run["score"].tolist()
    ('bm25', [12.5, 11.0])
    """
    return as_frame(run_columns.unchecked(path))
