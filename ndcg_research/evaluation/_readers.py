"""TREC qrels and run files, SVMlight/LETOR files into :class:`Columns` as trec_eval 10.0 reads them, else refused
by file and line (the guide "Evaluating run files"); pyarrow reads regular blocks, the others go line by line."""

import itertools
import math
import os
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal

import numpy as np
import pyarrow as pa
import pyarrow.csv as pacsv

try:  # Arrow's kernels and options without pyarrow.compute's import (see kernel); its options re-exported
    from pyarrow._compute import CastOptions, MatchSubstringOptions, SetLookupOptions, SortOptions, call_function
except ImportError:  # a pyarrow release that moved its private module: the public one, 57 ms slower to import
    from pyarrow.compute import (  # noqa: F401 (re-exported)
        CastOptions,
        MatchSubstringOptions,
        SetLookupOptions,
        SortOptions,
        call_function,
    )

from ._measures import TREC_NUMBER, atof_refusal, atol
from ._sources import BLOCK_SIZE, STDIN, InputError, check_text, describe, line_blocks, open_source

Kind = Literal["qrels", "run"]
PathLike = str | os.PathLike[str]

#: Grades must stay below this magnitude (integers beyond it are not exact in float64).
MAX_GRADE = 2**53
#: Why a grade is refused as too large (every preset, real-valued grades too: they are held as float64 and compared).
GRADE_LIMIT = "grades must be below 2^53 in magnitude, where a float64 holds every integer exactly"


@dataclass(frozen=True, eq=False)
class Columns:
    """Every input as the evaluator takes it: ids (Arrow binary or string, maybe dictionaries), grades (int64; float64
    if one has a fraction: ``fraction``, its row and text) or scores; ``lines`` (None: from ``first_line`` on)."""

    query: pa.ChunkedArray
    doc: pa.ChunkedArray
    value: np.ndarray
    kind: Kind
    source: str
    tag: str | None = None
    lines: np.ndarray | None = None
    first_line: int = 1
    fraction: tuple[int, str] | None = None
    notes: tuple[str, ...] = ()
    # How messages name a row: a file's line, a DataFrame's index label (in ``lines``), a dict's or ranx object's
    # query and document (they have no lines). Never guessed from ``source``: a file may be named "DataFrame".
    named_by: Literal["line", "label", "key"] = "line"
    unranked: pa.ChunkedArray | None = None  # a run dict's queries that map to no document
    ordered: bool = True  # False: the rows' order is not the caller's (a ranx Run re-sorts its documents)

    def __len__(self) -> int:
        return int(self.value.size)

    def where(self, row: int) -> str:
        """``"FILE:LINE"`` (or ``"run DataFrame row LABEL"``) of a row, for messages."""
        if self.named_by == "key":
            query, doc = (binary_ids(a)[row].as_py().decode("utf-8", "surrogateescape") for a in (self.query, self.doc))
            return f"{self.source}: query {query!r}, document {doc!r}"
        if self.named_by == "label":
            return row_label(self.source, self.lines, row)
        return f"{self.source}:{int(self.lines[row]) if self.lines is not None else self.first_line + row}"

    def line_numbers(self) -> np.ndarray:
        """The line number (or DataFrame label) of every row."""
        return self.lines if self.lines is not None else self.first_line + np.arange(len(self), dtype=np.int64)

    def __getitem__(self, rows: slice) -> "Columns":
        """The rows of a slice without step (Arrow slices and numpy views: no copy)."""
        return replace(
            self,
            query=self.query[rows],
            doc=self.doc[rows],
            value=self.value[rows],
            lines=None if self.lines is None else self.lines[rows],
            first_line=self.first_line + rows.indices(len(self))[0],
            fraction=None,
            unranked=None,  # (a whole dict's: never sliced)
        )

    @staticmethod
    def concat(parts: Sequence["Columns"]) -> "Columns":
        """The rows of ``parts`` one after the other (ids stay in their Arrow chunks)."""
        offsets = itertools.accumulate((len(p) for p in parts), initial=0)
        fractions = [(o + p.fraction[0], p.fraction[1]) for o, p in zip(offsets, parts, strict=False) if p.fraction]
        contiguous = all(p.lines is None for p in parts) and all(
            b.first_line == a.first_line + len(a) for a, b in itertools.pairwise(parts)
        )
        return replace(
            parts[0],
            query=_joined([p.query for p in parts]),
            doc=_joined([p.doc for p in parts]),
            value=np.concatenate([p.value for p in parts]),  # float64 if a part's grades are (one has a fraction)
            tag=parts[-1].tag,
            lines=None if contiguous else np.concatenate([p.line_numbers() for p in parts]),
            fraction=fractions[0] if fractions else None,
            unranked=None,  # (a whole dict's: never concatenated)
        )


def row_label(source: str, labels: np.ndarray | None, row: int) -> str:
    """How messages name a row of a table: by its index label, else (labels not unique) by position."""
    if labels is None:
        return f"{source} row at position {row}"
    label = labels[row]
    return f"{source} row {(label.item() if isinstance(label, np.generic) else label)!r}"


def _joined(arrays: list[pa.ChunkedArray]) -> pa.ChunkedArray:
    """The chunks of several id arrays as one (decoded into one binary array if their types differ)."""
    chunks = [c for a in arrays for c in a.chunks]
    return pa.chunked_array(chunks) if len({c.type for c in chunks}) == 1 else pa.chunked_array([binary_ids(*arrays)])


def binary_array(items: Sequence[bytes]) -> pa.Array:
    """A binary Arrow array of byte strings (one copy of their bytes; pyarrow.array would import pandas)."""
    offsets = np.zeros(len(items) + 1, dtype=np.int64)
    np.cumsum(np.fromiter(map(len, items), dtype=np.int64, count=len(items)), out=offsets[1:])
    large = offsets[-1] >= 2**31
    buffers = [None, pa.py_buffer(offsets if large else offsets.astype(np.int32)), pa.py_buffer(b"".join(items))]
    return pa.Array.from_buffers(pa.large_binary() if large else pa.binary(), len(items), buffers)


def _line_columns(
    queries: list[bytes], docs: list[bytes], values: list[Any], kind: Kind, name: str, lines: list[int], **more: Any
) -> Columns:
    """Rows read line by line (a grade with a fraction as written, bytes: the first is the ``fraction``)."""
    query, doc = (pa.chunked_array([binary_array(items)]) for items in (queries, docs))
    first = None if kind == "run" else next((i for i, v in enumerate(values) if isinstance(v, bytes)), None)
    fraction = None if first is None else (first, values[first].decode(errors="replace"))
    value = np.asarray(values, dtype=np.int64 if kind == "qrels" and first is None else np.float64)
    return Columns(query, doc, value, kind, name, lines=np.asarray(lines, dtype=np.int64), fraction=fraction, **more)


def kernel(name: str, *args: Any, options: Any = None) -> Any:
    """Arrow's compute function ``name`` on ``args``, not through pyarrow.compute nor the Array methods that import it
    (``take``, ``cast``...): its import builds ~300 wrappers, 57 ms of evaluate's 210 on 250,000 lines (pyarrow 26)."""
    return call_function(name, list(args), options)


def binary_ids(*arrays: pa.ChunkedArray | pa.Array) -> pa.Array:
    """The rows of ``arrays`` as one binary array (dictionaries decoded, text viewed as bytes; one copy at most)."""
    chunks = [c for a in arrays for c in (a.chunks if isinstance(a, pa.ChunkedArray) else [a])]
    if not chunks:
        return binary_array([])
    types = [c.type.value_type if pa.types.is_dictionary(c.type) else c.type for c in chunks]
    target = pa.large_binary() if any(t in (pa.large_binary(), pa.large_string()) for t in types) else pa.binary()
    out = [c if c.type == target else kernel("cast", c, options=CastOptions.safe(target)) for c in chunks]
    return out[0] if len(out) == 1 else pa.concat_arrays(out)


def numbers(array: pa.Array | pa.ChunkedArray, missing: int = -1) -> np.ndarray:
    """A numeric Arrow array as numpy, nulls as ``missing`` (``to_numpy``, ``fill_null`` import pandas: 0.3 s)."""
    if isinstance(array, pa.ChunkedArray):  # (never without chunks here)
        array = array.chunk(0) if array.num_chunks == 1 else array.combine_chunks()
    values = np.frombuffer(array.buffers()[1], array.type.to_pandas_dtype())[array.offset : array.offset + len(array)]
    return values if not array.null_count else np.where(flags(array, 0), values, missing)


def flags(array: pa.Array, buffer: int = 1) -> np.ndarray:
    """A bitmap of ``array`` as numpy bools: a boolean array's values (no nulls), or (buffer 0) its validity."""
    bits = np.unpackbits(np.frombuffer(array.buffers()[buffer], dtype=np.uint8), bitorder="little")
    return bits[array.offset : array.offset + len(array)].view(bool)


_SCORE = re.compile(TREC_NUMBER.pattern.encode())  # a score: what C's atof reads in full and Python's float alike
# A grade: a decimal number without exponent; its integer prefix is what atol reads.
_GRADE = re.compile(rb"([+-]?[0-9]*)(?:\.([0-9]*))?")


def quoted(raw: bytes, limit: int = 60) -> str:
    """The repr of a line or a field, for messages (cut at ``limit`` characters)."""
    text = raw.decode(errors="replace")
    return repr(text if len(text) <= limit else text[:limit] + "...")


def parse_score(text: bytes, where: str) -> float:
    """A score as trec_eval reads it, or InputError naming the line and what trec_eval's atof (C's strtod) reads."""
    if _SCORE.fullmatch(text) and math.isfinite(value := float(text)):
        return value
    raise InputError(f"{where}: score {quoted(text)} {atof_refusal(text.decode('latin-1'))}")


def parse_grade(text: bytes, where: str) -> int | bytes:
    """A grade as trec_eval's ``atol`` reads it (its integer prefix), or ``text`` itself if written with a fraction."""
    grade = atol(text.decode("latin-1"))
    match = _GRADE.fullmatch(text)
    if match is None or not (match.group(1).strip(b"+-") or match.group(2)):
        what = "has an exponent; write the integer" if _SCORE.fullmatch(text) else "is not a number"
        raise InputError(f"{where}: relevance {quoted(text)} {what} (trec_eval's atol reads {grade})")
    if abs(grade) >= MAX_GRADE:
        raise InputError(f"{where}: relevance {quoted(text)} is too large; {GRADE_LIMIT}")
    return text if (match.group(2) or b"").strip(b"0") else grade


_LAYOUT = {
    "qrels": "exactly 4 fields (query iteration document relevance)",
    "run": "6 fields (query Q0 document rank score tag)",
}


def _as_judgment(fields: list[bytes]) -> str:
    """What trec_eval's qrels reader does with a comment line it does not skip (get_qrels.c): reads it as data."""
    if len(fields) != 4:
        return f'refuses this line as data with {len(fields)} fields ("Malformed line")'
    return f"reads this line as a judgment of a query named {quoted(fields[0])}"


def _line_block(
    block: bytes, kind: Kind, name: str, first_line: int, comment_line: int | None
) -> tuple[Columns, int, int | None]:
    """Parse a block line by line (the reference semantics): its rows, its number of lines, and (qrels) its
    last line's number if that is a comment (the comment rule spans blocks), else None."""
    queries, docs, lines = [], [], []
    values: list[float | bytes] = []
    tag, run = None, kind == "run"
    if run and block.isspace():  # blank lines only, which trec_eval skips (a gzip bomb of them: 3 min)
        return _line_columns([], [], [], kind, name, []), block.removesuffix(b"\n").count(b"\n") + 1, None
    pieces = block.removesuffix(b"\n").split(b"\n")  # (blocks are not empty)
    for number, line in enumerate(pieces, first_line):
        where = f"{name}:{number}"
        fields = line.split()  # at C's isspace characters (space, \t, \n, \v, \f, \r), as trec_eval splits
        if run and (not fields or fields[0].startswith(b"#")):
            continue
        if not run and line.startswith(b"#"):
            if comment_line is not None:
                raise InputError(
                    f"{where}: a comment line right after another comment line (line {number - 1}): trec_eval's qrels "
                    f"reader skips only the first of such lines and {_as_judgment(fields)}; merge them into one line"
                )
            comment_line = number
            continue
        comment_line = None
        if not fields:  # (qrels: a run skips it)
            raise InputError(f'{where}: a blank line: trec_eval refuses it in qrels ("Malformed line"); remove it')
        if fields[0].startswith(b"#"):  # (qrels)
            raise InputError(
                f"{where}: '#' after blanks: trec_eval starts a qrels comment only in the first column and "
                f"{_as_judgment(fields)}; remove the blanks or the line"
            )
        if not (len(fields) >= 6 if run else len(fields) == 4):  # a run's extra fields are ignored, as trec_eval does
            hint = ""  # the common mistakes: files given in the wrong order, a CSV file
            if (run, len(fields)) == (False, 6):
                hint = "; a run's line? the qrels file comes first"
            elif (run, len(fields)) == (True, 4) and fields[1] != b"Q0":
                hint = "; a qrels line? the qrels file comes first, then the runs"
            elif len(fields) == 1 and b"," in line:
                hint = "; fields are separated by blanks, not commas"
            raise InputError(
                f"{where}: a {kind} line needs {_LAYOUT[kind]}, got {len(fields)}: {quoted(line.strip())}{hint}"
            )
        values.append(parse_score(fields[4], where) if run else parse_grade(fields[3], where))
        tag = fields[5] if run else None
        queries.append(fields[0])
        docs.append(fields[2])
        lines.append(number)
    tag_text = None if tag is None else tag.decode("utf-8", "surrogateescape")
    return _line_columns(queries, docs, values, kind, name, lines, tag=tag_text), len(pieces), comment_line


def _integer_grades(array: pa.ChunkedArray) -> np.ndarray | None:
    """Grades written as plain integers (digits, a leading minus) as int64, or None (then read line by line)."""
    try:  # Arrow reads decimal digits after an optional minus, and hexadecimal numbers
        value = numbers(kernel("cast", array, options=CastOptions.safe(pa.int64())))
    except pa.ArrowInvalid:  # an empty grade ("q 0 d " ends in a blank), a fraction, a plus sign ...
        return None
    offsets, data = _binary_parts(binary_ids(array))
    hexadecimal = np.any(data[offsets[0] : offsets[-1]] | 0x20 == ord("x"))
    return None if hexadecimal or value.max() >= MAX_GRADE or value.min() <= -MAX_GRADE else value  # (or too large)


_BLANKS = bytes.maketrans(b"\t\x0b\x0c", b"   ")


def _single_spaced(block: bytes) -> bytes:
    """``block`` with each run of blanks (C's isspace: trec_eval's field separators) as one space, none at line ends."""
    block = block.translate(_BLANKS)
    while b"  " in block:
        block = block.replace(b"  ", b" ")
    block = block.replace(b" \r\n", b"\r\n")  # (a lone \r is refused before: one ends a line)
    return block.replace(b" \n", b"\n").replace(b"\n ", b"\n").removeprefix(b" ").removesuffix(b" ")


def _arrow_block(block: bytes, kind: Kind, name: str, first_line: int) -> tuple[Columns, int, None] | None:
    """Parse a block with pyarrow as :func:`_line_block` does (the two must agree), or None if a line is irregular.
    Blanks other than single separators (common in real runs; 4-5x slower line by line) are made single first."""
    if block.isspace() or block[block.rfind(b"\n") + 1 :].isspace():  # blank lines (a last one without its end too)
        return None  # the line rules: a run skips them, qrels refuse them
    tab = b"\t" in block
    mixed = tab and b" " in block or b"\x0b" in block or b"\x0c" in block
    parsed = None if mixed else _arrow_table(block, kind, name, first_line, "\t" if tab else " ")
    if parsed is None and (spaced := _single_spaced(block)) != block:
        parsed = _arrow_table(spaced, kind, name, first_line, " ")
    return None if parsed is None else (parsed, len(parsed), None)


def _fast_block(block: bytes, kind: Kind, name: str, first_line: int) -> tuple[Columns, int, None] | None:
    """A block parsed by pyarrow (a run's without its comment and blank lines), or None: read line by line."""
    return _arrow_block(block, kind, name, first_line) or (
        _arrow_run_block(block, name, first_line) if kind == "run" else None
    )


def _arrow_run_block(block: bytes, name: str, first_line: int) -> tuple[Columns, int, None] | None:
    """A run block that :func:`_arrow_block` refused, without its comment and blank lines (trec_eval skips them): the
    other lines parsed by pyarrow, each row numbered by its line (a comment every 10^4 lines made a run 6x slower,
    read line by line); None if no line is skipped, none is left, or the others are irregular too."""
    lines = block.removesuffix(b"\n").split(b"\n")
    kept = [i for i, line in enumerate(lines) if line.lstrip(b" \t\r\x0b\x0c")[:1] not in (b"#", b"")]
    if not 0 < len(kept) < len(lines):
        return None
    parsed = _arrow_block(b"\n".join([lines[i] for i in kept]), "run", name, first_line)
    if parsed is None:
        return None
    return replace(parsed[0], lines=first_line + np.array(kept, dtype=np.int64)), len(lines), None


def _arrow_table(block: bytes, kind: Kind, name: str, first_line: int, delimiter: str) -> Columns | None:
    """:func:`_arrow_block`'s parse of a block whose fields are separated by single ``delimiter`` characters."""
    run = kind == "run"
    names = ("query", "iteration", "doc", "rank", "value", "tag") if run else ("query", "iteration", "doc", "value")
    # A run's ids plain: the evaluation hashes them on the thread that is not reading (dictionaries cost the reading
    # thread, the slower one, 4 ms per 2 MB block for documents, 0.6 for queries). The qrels' queries are dictionaries.
    special = {"value": pa.float64()} if run else {"query": pa.dictionary(pa.int32(), pa.binary())}
    types = dict.fromkeys(names, pa.binary()) | special
    try:
        table = pacsv.read_csv(
            pa.BufferReader(block),
            read_options=pacsv.ReadOptions(column_names=list(names), block_size=1 << 20),  # chunks parsed in parallel
            parse_options=pacsv.ParseOptions(delimiter=delimiter, quote_char=False, ignore_empty_lines=False),
            convert_options=pacsv.ConvertOptions(column_types=types, null_values=[]),  # ids binary: no UTF-8 check
        )
    except (pa.ArrowInvalid, pa.ArrowTypeError):
        return None
    # Two blanks in a row make an empty field here, where trec_eval sees a missing one; a line whose first field
    # starts with '#' is a comment (its rules are the line reader's), a '#' in another field is data.
    ids = [table.column(column) for column in names if column != "value"]
    queries = ids[0].chunks if run else [c.dictionary for c in ids[0].chunks]  # (each qrels chunk's)
    if any(kernel("min", kernel("binary_length", i)).as_py() == 0 for i in [*queries, *ids[1:]]):
        return None
    if b"#" in block and any(np.any(data[offsets[:-1]] == ord("#")) for offsets, data in map(_binary_parts, queries)):
        return None  # (a query's first byte)
    value = numbers(table.column("value")) if run else _integer_grades(table.column("value"))
    if value is None or (run and not np.all(np.isfinite(value))):
        return None
    tag = table.column("tag")[-1].as_py().decode("utf-8", "surrogateescape") if run else None
    return Columns(table.column("query"), table.column("doc"), value, kind, name, tag, None, first_line)


def _binary_parts(ids: pa.Array) -> tuple[np.ndarray, np.ndarray]:
    """A binary array's offsets (one per id, then its end) and its bytes, from the buffers (no copy)."""
    offsets = np.frombuffer(ids.buffers()[1], dtype=np.int32)[ids.offset : ids.offset + len(ids) + 1]
    return offsets, np.frombuffer(ids.buffers()[2] or b"", dtype=np.uint8)  # (no data buffer in an empty array)


def _last_query_start(query: pa.ChunkedArray) -> int:
    """The first of the rows at the end of ``query`` (a run's ids as parsed) that hold its last id (0: all do)."""
    last, end = query[len(query) - 1], len(query)
    for chunk in reversed(query.chunks):  # 2 or 3 a block: the last id's rows are nearly always in the last
        other = np.flatnonzero(~flags(kernel("equal", chunk, last)))
        if other.size:
            return end - len(chunk) + int(other[-1]) + 1
        end -= len(chunk)
    return 0


def _parsed_blocks(
    path: PathLike, kind: Kind, stream: Any = None, size: int = BLOCK_SIZE, first: int | None = None, fast: bool = True
) -> Iterator[Columns]:
    """The rows of a TREC qrels or run file, a block of whole lines at a time (without rows: skipped; none: refused)."""
    first_line, comment_line, rows = 1, None, False
    with open_source(path, kind, stream) as source:
        for block in line_blocks(source, size, first):
            check_text(block, source.name, first_line)
            parsed = _fast_block(block, kind, source.name, first_line) if fast else None
            columns, n_lines, comment_line = parsed or _line_block(block, kind, source.name, first_line, comment_line)
            first_line += n_lines
            if len(columns):
                rows = True
                yield columns
    if comment_line is not None:
        raise InputError(
            f"{describe(path)}:{comment_line}: a comment as the last line: trec_eval's qrels reader "
            f"reads past the end of the file after it (and crashes); remove it"
        )
    if not rows:  # (get_trec_results.c: "Cannot read results file" when empty)
        why = "trec_eval refuses an empty run file and stops on one of blank or comment lines"
        if os.fspath(path) == STDIN:  # (also Path("-")) from standard input, an empty run is blank lines to trec_eval
            why = "trec_eval stops on an empty run from standard input"
        raise InputError(
            f"{describe(path)}: no data lines (empty, or only blank or comment lines); "
            + ("trec_eval refuses it too" if kind == "qrels" else why + " (under -c it scores every judged query 0)")
        )


def query_blocks(
    path: PathLike, *, block_size: int = BLOCK_SIZE, fast: bool = True, stream: Any = None
) -> Iterator[Columns]:
    """The rows of a TREC run file in blocks of whole queries: memory is bounded by the largest block or query."""
    waiting: list[Columns] = []  # the rows of the last query seen, from one block or more
    for columns in _parsed_blocks(path, "run", stream, block_size, min(block_size, 1 << 20), fast):
        cut = _last_query_start(columns.query)
        if cut or (waiting and waiting[-1].query[-1].as_py() != columns.query[0].as_py()):
            yield Columns.concat([*waiting, columns[:cut]] if cut else waiting)
            waiting = []
        waiting.append(columns[cut:])  # (cut 0: a query longer than a block goes on)
    yield Columns.concat(waiting)  # (never empty: a run without rows is refused)


def read_whole(path: PathLike, kind: Kind, stream: Any = None) -> Columns:
    """A whole TREC qrels or run file (``evaluate`` streams run files in :func:`query_blocks` instead)."""
    return Columns.concat(list(_parsed_blocks(path, kind, stream)))


_DOCID = re.compile(rb"\bdocid\s*=\s*(\S+)")
# A feature as the learning-to-rank tools read it: an integer index, a number as strtod reads it in full.
_FEATURE = re.compile(rb"[0-9]+:" + _SCORE.pattern + rb"|[0-9]+:[+-]?(?i:inf(?:inity)?|nan)")


def _numbered_lines(path: PathLike, what: str, skip: bool = True) -> Iterator[tuple[int, bytes]]:
    """(line number, line) of a small line-by-line file; ``skip``: without its blank and '#' comment lines."""
    first_line = 1
    with open_source(path, what) as source:
        for block in line_blocks(source):
            check_text(block, source.name, first_line)
            pieces = block.removesuffix(b"\n").split(b"\n")
            for number, line in enumerate(pieces, first_line):
                if not skip or line.strip() and not line.lstrip().startswith(b"#"):
                    yield number, line
            first_line += len(pieces)


def svmlight_columns(path: PathLike) -> Columns:
    """The judgments of an SVMlight/LETOR file, lines ``relevance qid:Q features # docid = ID`` (no docid: named by
    its data line number, zero-padded); a query is a run of lines with one qid, an integer, as the learning-to-rank
    tools read it: a qid that comes back after another, or two spellings of one integer, are refused, not regrouped."""
    rows: list[tuple[bytes, bytes | None, int | bytes, int]] = []  # qid, docid, grade, line number
    seen: dict[Any, tuple[bytes, int]] = {}  # a qid's integer (negative?, digits) -> as first written, its line
    name = describe(path)
    for number, line in _numbered_lines(path, "SVMlight"):
        data, _, comment = line.partition(b"#")
        fields = data.split(None, 2)
        where = f"{name}:{number}"
        if len(fields) < 2 or not fields[1].startswith(b"qid:") or len(fields[1]) == 4:
            raise InputError(f"{where}: an SVMlight line starts 'relevance qid:QUERY', got {quoted(line.strip())}")
        grade, qid = parse_grade(fields[0], where), fields[1][4:]
        # Features are not read, but checked: a file the learning-to-rank tools refuse is not scored
        features = fields[2].split() if len(fields) > 2 else []
        bad = next((feature for feature in features if not _FEATURE.fullmatch(feature)), None)
        if bad is not None:
            raise InputError(
                f"{where}: feature {quoted(bad)} is not INDEX:VALUE (an integer, a number), which the learning-to-rank "
                "tools refuse"
            )
        if not rows or qid != rows[-1][0]:  # a new run of lines: a new query, spelled as no other
            integer = re.fullmatch(rb"([+-]?)0*([0-9]+)", qid)  # as text: int() refuses more than 4,300 digits
            if integer is None:
                raise InputError(
                    f"{where}: qid:{qid.decode(errors='replace')} is not an integer, which XGBoost and scikit-learn "
                    "read qids as (they refuse it)"
                )
            key = (integer[1] == b"-" and integer[2] != b"0", integer[2])
            other, start = seen.setdefault(key, (qid, number))
            if other != qid:
                raise InputError(
                    f"{where}: qid:{qid.decode()} and qid:{other.decode()} (line {start}) are one "
                    f"integer to XGBoost, LightGBM and scikit-learn, which read qids as integers: write them alike"
                )
            if start != number:
                raise InputError(
                    f"{where}: qid:{qid.decode(errors='replace')} comes back after other queries (its lines begin at "
                    f"line {start}); the learning-to-rank tools would make two queries of it: sort the file by qid "
                    f"and predict again from it (predictions are matched to its lines in order)"
                )
        match = _DOCID.search(comment)
        rows.append((qid, match.group(1) if match else None, grade, number))
    if not rows:
        raise InputError(f"{name}: no data lines")
    queries, docids, values, lines = map(list, zip(*rows, strict=True))
    width = len(str(len(rows)))
    docs = [docid or str(i + 1).zfill(width).encode() for i, docid in enumerate(docids)]
    # Documents are matched to their grades by name: two lines of a qid named alike (a docid repeated, or a docid
    # equal to another line's number) would be one document here, where the learning-to-rank tools see two.
    first_line: dict[tuple[bytes, bytes], int] = {}
    for qid, doc, number, docid in zip(queries, docs, lines, docids, strict=True):
        if (earlier := first_line.setdefault((qid, doc), number)) != number:
            how = "by its docid" if docid is not None else "by its data line number, having no docid"
            raise InputError(
                f"{name}:{number}: document {doc.decode(errors='replace')!r} of qid:{qid.decode(errors='replace')} is "
                f"named as line {earlier} is (this one {how}); documents match by name: give each line its own docid"
            )
    missing = [number for number, docid in zip(lines, docids, strict=True) if docid is None]
    shown = ", ".join(map(str, missing[:5])) + (" ..." if len(missing) > 5 else "")
    if len(missing) == 1:
        named = "lines has no docid comment; its document is named by its data line number"
    else:
        named = "lines have no docid comment; their documents are named by their data line number"
    notes = (f"{name}: {len(missing)} of {len(rows)} {named} (line {shown})",) if 0 < len(missing) < len(rows) else ()
    return _line_columns(queries, docs, values, "qrels", name, lines, notes=notes)


def predictions_columns(qrels: Columns, path: PathLike) -> Columns:
    """A model's scores for an SVMlight file's data lines (one a line, in order) as a run of ``qrels``' documents."""
    scores, lines = [], []
    name = describe(path)
    for number, line in _numbered_lines(path, "predictions", skip=False):  # one line per data line, none skipped
        fields = line.split()
        if len(fields) != 1:
            got = f"got {len(fields)} fields" if fields else "got a blank line"
            raise InputError(f"{name}:{number}: a predictions line holds one number (one per data line), {got}")
        scores.append(parse_score(fields[0], f"{name}:{number}"))
        lines.append(number)
    if len(scores) != len(qrels):
        raise InputError(
            f"{name}: {len(scores)} prediction(s) for {len(qrels)} data lines of {qrels.source}: one per line, in order"
        )
    value, tag = np.asarray(scores, dtype=np.float64), os.path.basename(name)
    return Columns(qrels.query, qrels.doc, value, "run", name, tag, np.asarray(lines, dtype=np.int64))
