"""Read judgments and rankings: TREC qrels and run files, SVMlight/LETOR files, pandas DataFrames.

File formats (whitespace-separated; plain or gzip, recognised by content; as trec_eval reads
them, a line whose first non-blank character is ``#`` is a comment, blank lines are skipped):

- qrels: ``query iteration document relevance``, exactly four fields. The relevance is a
  number; trec_eval reads an integer, and a grade below 0 means "in the pool but not
  judged" (see :mod:`ndcg_research.evaluation.conventions`).
- run: ``query Q0 document rank score tag``, six fields, more are ignored (as trec_eval does).
  The rank column is ignored: documents are ranked by score. The run's name is the tag of
  its last line (trec_eval's ``runid``).
- SVMlight / LETOR: ``relevance qid:QUERY feature:value ... # comment``, with model scores
  in a separate file, one number per line in the same order.

Every reader returns :class:`Columns` (the loaded form, used by
:func:`~ndcg_research.evaluation.evaluate.evaluate` and the command line, no pandas needed)
or, through :func:`read_qrels` / :func:`read_run` / :func:`read_svmlight`, pandas DataFrames
with columns ``query, doc, relevance`` or ``query, doc, score``. A malformed line raises
:class:`InputError` naming the file and line; nothing is skipped silently.

Large files are parsed by pyarrow's multithreaded CSV reader when their lines are regular
(one separator character, the expected number of fields); any irregular file (comments,
mixed blanks, extra fields) goes through a line-by-line reader with the same result and
exact line numbers in its errors.
"""

from __future__ import annotations

import gzip
import io
import math
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

import numpy as np
import pyarrow as pa
import pyarrow.csv as pacsv

if TYPE_CHECKING:  # pandas is imported only by the functions that return DataFrames
    import pandas as pd

__all__ = [
    "InputError",
    "Columns",
    "load_qrels",
    "load_run",
    "load_svmlight",
    "columns_from_frame",
    "read_qrels",
    "read_run",
    "read_svmlight",
]

Kind = Literal["qrels", "run"]
PathLike = str | os.PathLike


class InputError(ValueError):
    """A qrels, run or SVMlight input is malformed; the message names the file and line."""


@dataclass(frozen=True, eq=False)
class Columns:
    """Judgments or a ranking in columnar form.

    Attributes
    ----------
    query, doc : pyarrow.ChunkedArray
        Query and document ids (binary or string), one per row.
    value : numpy.ndarray
        Relevance grades (int64 if all integral, else float64) or scores (float64).
    kind : {"qrels", "run"}
    source : str
        File name, or ``"DataFrame"``.
    tag : str or None
        The run's tag (trec_eval's ``runid``): the tag field of the last line.
    row_labels : numpy.ndarray or None
        Where each row came from, for messages: file line numbers, or DataFrame index
        labels; None when row i is line i + 1 of the file.
    """

    query: pa.ChunkedArray
    doc: pa.ChunkedArray
    value: np.ndarray
    kind: Kind
    source: str
    tag: str | None = None
    row_labels: np.ndarray | None = None
    _path: str | None = field(default=None, repr=False)

    def __len__(self) -> int:
        return int(self.value.size)

    def labels(self) -> np.ndarray:
        """Where each row came from: line numbers in the file (found again by reading it, if
        lines were skipped), or DataFrame index labels."""
        if self.row_labels is None:
            labels = _line_numbers(self._path) if self._path is not None else np.arange(1, len(self) + 1)
            object.__setattr__(self, "row_labels", labels)
        return self.row_labels

    def where(self, row: int) -> str:
        """``"FILE:LINE"`` (or ``"DataFrame row LABEL"``) of a row, for messages."""
        labels = self.row_labels
        if labels is None and self._path is not None:
            labels = self.labels()
        if self.source == "DataFrame":
            return f"DataFrame row {labels[row] if labels is not None else row}"
        return f"{self.source}:{int(labels[row]) if labels is not None else row + 1}"


# ---------------------------------------------------------------- opening files


def _is_gzip(path: str) -> bool:
    with open(path, "rb") as handle:
        return handle.read(2) == b"\x1f\x8b"


def _open_binary(path: str) -> io.BufferedIOBase:
    return gzip.open(path, "rb") if _is_gzip(path) else open(path, "rb")


def _data_lines(path: str):
    """(line number, bytes) of each line that is neither blank nor a comment."""
    with _open_binary(path) as handle:
        for number, line in enumerate(handle, start=1):
            text = line.lstrip()
            if text and not text.startswith(b"#"):
                yield number, line


def _line_numbers(path: str) -> np.ndarray:
    return np.fromiter((number for number, _ in _data_lines(path)), dtype=np.int64)


def _check_path(path: PathLike, what: str) -> str:
    path = os.fspath(path)
    if not os.path.isfile(path):
        raise InputError(f"{what} file {path!r} does not exist or is not a file")
    return path


# ---------------------------------------------------------------- TREC files

_FIELDS = {"qrels": ("query", "iteration", "doc", "value"), "run": ("query", "iteration", "doc", "rank", "value", "tag")}


def _sniff_delimiter(path: str) -> str | None:
    """The one separator of the first data line (" " or tab), or None if it mixes them."""
    with _open_binary(path) as handle:
        for line in handle:
            text = line.rstrip(b"\r\n")
            if not text.strip() or text.lstrip().startswith(b"#"):
                continue
            if b"\t" in text and b" " not in text:
                return "\t"
            if b" " in text and b"\t" not in text:
                return " "
            return None
    return " "


def _fast(path: str, kind: Kind) -> tuple[pa.Table, bool] | None:
    """Parse a regular file with pyarrow; None if any line is irregular (then read line by line).

    Returns the table and whether some lines (blank, comment) were skipped.
    """
    delimiter = _sniff_delimiter(path)
    if delimiter is None:
        return None
    irregular = []
    skipped = []

    def handler(row: Any) -> str:
        text = row.text.strip()
        if not text or text.startswith("#"):  # a blank or comment line: skipped, line numbers shift
            skipped.append(True)
        else:
            irregular.append(row.text)
        return "skip"

    names = _FIELDS[kind]
    value_type = pa.float64()
    convert = pacsv.ConvertOptions(
        include_columns=["query", "doc", "value"] + (["tag"] if kind == "run" and _is_gzip(path) else []),
        column_types={"query": pa.dictionary(pa.int32(), pa.binary()), "doc": pa.binary(), "value": value_type,
                      "tag": pa.binary()},
        check_utf8=False,
        strings_can_be_null=False,
        quoted_strings_can_be_null=False,
        null_values=[],
    )
    parse = pacsv.ParseOptions(
        delimiter=delimiter, quote_char=False, double_quote=False, escape_char=False,
        newlines_in_values=False, ignore_empty_lines=False, invalid_row_handler=handler,
    )
    read = pacsv.ReadOptions(column_names=list(names), block_size=1 << 22)
    try:
        table = pacsv.read_csv(path, read_options=read, parse_options=parse, convert_options=convert)
    except (pa.ArrowInvalid, pa.ArrowTypeError, UnicodeDecodeError):
        return None
    if irregular:
        return None
    # A comment line with exactly the expected number of fields parses as data: drop it.
    for chunk in table["query"].chunks:
        if any(name.startswith(b"#") for name in chunk.dictionary.to_pylist()):
            return None
    if table.column("value").null_count:
        return None
    return table, bool(skipped)


def _parse_number(text: bytes, what: str, where: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise InputError(f"{where}: {what} {text.decode(errors='replace')!r} is not a number") from None
    if not math.isfinite(value):
        raise InputError(f"{where}: {what} {text.decode(errors='replace')!r} is not finite")
    return value


def _exact(path: str, kind: Kind) -> tuple[list[bytes], list[bytes], list[float], list[int], bytes | None]:
    """Parse line by line as trec_eval does; raise InputError at the first malformed line."""
    queries, docs, values, lines = [], [], [], []
    tag = None
    for number, line in _data_lines(path):
        fields = line.split()
        where = f"{path}:{number}"
        if kind == "qrels":
            if len(fields) != 4:
                raise InputError(
                    f"{where}: a qrels line needs exactly 4 fields (query iteration document relevance), "
                    f"got {len(fields)}: {line.strip().decode(errors='replace')!r}"
                )
            value = _parse_number(fields[3], "relevance", where)
        else:
            if len(fields) < 6:
                raise InputError(
                    f"{where}: a run line needs 6 fields (query Q0 document rank score tag), "
                    f"got {len(fields)}: {line.strip().decode(errors='replace')!r}"
                )
            value = _parse_number(fields[4], "score", where)
            tag = fields[5]
        queries.append(fields[0])
        docs.append(fields[2])
        values.append(value)
        lines.append(number)
    return queries, docs, values, lines, tag


def _last_tag(path: str) -> str | None:
    """The tag of the last data line of a plain run file, read from its end."""
    size = os.path.getsize(path)
    with open(path, "rb") as handle:
        chunk = 1 << 16
        while True:
            start = max(0, size - chunk)
            handle.seek(start)
            tail = handle.read(size - start)
            lines = tail.split(b"\n")
            if start > 0:
                lines = lines[1:]  # maybe cut
            for line in reversed(lines):
                text = line.strip()
                if text and not text.startswith(b"#"):
                    fields = text.split()
                    return fields[5].decode(errors="replace") if len(fields) >= 6 else None
            if start == 0:
                return None
            chunk *= 4


def _values(raw: np.ndarray, kind: Kind) -> np.ndarray:
    """Grades become int64 when all are integral (exact, and what trec_eval reads)."""
    if kind == "qrels" and raw.size and np.all(np.floor(raw) == raw) and np.abs(raw).max() < 2**53:
        return raw.astype(np.int64)
    return raw


def _load_trec(path: PathLike, kind: Kind) -> Columns:
    path = _check_path(path, kind)
    fast = _fast(path, kind)
    if fast is not None:
        table, skipped = fast
        raw = table.column("value").to_numpy()
        if not np.all(np.isfinite(raw)):
            fast = None  # let the line reader name the line
    if fast is not None:
        tag = None
        if kind == "run":
            if "tag" in table.column_names:
                tag = table.column("tag")[-1].as_py().decode(errors="replace") if table.num_rows else None
            else:
                tag = _last_tag(path)
        return Columns(
            table.column("query"), table.column("doc"), _values(raw, kind), kind, path, tag,
            None, path if skipped else None,
        )
    queries, docs, values, lines, tag = _exact(path, kind)
    return Columns(
        pa.chunked_array([pa.array(queries, pa.binary())]),
        pa.chunked_array([pa.array(docs, pa.binary())]),
        _values(np.asarray(values, dtype=np.float64), kind),
        kind,
        path,
        tag.decode(errors="replace") if tag is not None else None,
        np.asarray(lines, dtype=np.int64),
    )


def load_qrels(path: PathLike) -> Columns:
    """Read a TREC qrels file (``query iteration document relevance``) into :class:`Columns`.

    Parameters
    ----------
    path : str or path-like
        Plain or gzip-compressed file.

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
    >>> folder = tempfile.mkdtemp()
    >>> path = os.path.join(folder, "qrels")
    >>> _ = open(path, "w").write("# judged by NIST\\nq1 0 d1 2\\nq1 0 d2 0\\n")
    >>> qrels = load_qrels(path)
    >>> len(qrels), qrels.value.tolist(), qrels.where(1).endswith(":3")
    (2, [2, 0], True)
    """
    return _load_trec(path, "qrels")


def load_run(path: PathLike) -> Columns:
    """Read a TREC run file (``query Q0 document rank score tag``) into :class:`Columns`.

    Examples
    --------
    >>> import tempfile, os
    >>> path = os.path.join(tempfile.mkdtemp(), "run")
    >>> _ = open(path, "w").write("q1 Q0 d1 1 0.9 bm25\\nq1 Q0 d2 2 0.5 bm25\\n")
    >>> run = load_run(path)
    >>> run.tag, run.value.tolist()
    ('bm25', [0.9, 0.5])
    """
    return _load_trec(path, "run")


# ---------------------------------------------------------------- SVMlight / LETOR


def load_svmlight(path: PathLike, predictions: PathLike | None = None) -> tuple[Columns, Columns | None]:
    """Read an SVMlight/LETOR file (``relevance qid:Q f:v ...``) and, optionally, its predictions.

    Documents have no names in this format: document i of the file (counting data lines
    from 1) is called by its line number, zero-padded so that the string order of the
    names is the file order.

    Parameters
    ----------
    path : str or path-like
        The SVMlight file (plain or gzip); features are not read.
    predictions : str or path-like, optional
        One model score per line, in the order of the SVMlight file's data lines.

    Returns
    -------
    qrels : Columns
        The relevance label of every document.
    run : Columns or None
        The scores, if ``predictions`` is given.

    Examples
    --------
    >>> import tempfile, os
    >>> folder = tempfile.mkdtemp()
    >>> data, scores = os.path.join(folder, "test.txt"), os.path.join(folder, "pred.txt")
    >>> _ = open(data, "w").write("2 qid:7 1:0.5 2:1\\n0 qid:7 1:0.1 # doc b\\n1 qid:8 1:3\\n")
    >>> _ = open(scores, "w").write("0.1\\n0.7\\n0.3\\n")
    >>> qrels, run = load_svmlight(data, scores)
    >>> qrels.value.tolist(), run.value.tolist(), run.doc.to_pylist()
    ([2, 0, 1], [0.1, 0.7, 0.3], [b'1', b'2', b'3'])
    """
    path = _check_path(path, "SVMlight")
    queries, labels, lines = [], [], []
    for number, line in _data_lines(path):
        fields = line.split(None, 2)
        where = f"{path}:{number}"
        if len(fields) < 2 or not fields[1].startswith(b"qid:") or len(fields[1]) == 4:
            raise InputError(
                f"{where}: an SVMlight ranking line starts 'relevance qid:QUERY', got "
                f"{line.strip()[:60].decode(errors='replace')!r}"
            )
        labels.append(_parse_number(fields[0], "relevance", where))
        queries.append(fields[1][4:])
        lines.append(number)
    if not labels:
        raise InputError(f"{path}: no data lines")
    width = len(str(len(labels)))
    docs = pa.chunked_array([pa.array([str(i).zfill(width).encode() for i in range(1, len(labels) + 1)], pa.binary())])
    query = pa.chunked_array([pa.array(queries, pa.binary())])
    line_numbers = np.asarray(lines, dtype=np.int64)
    qrels = Columns(query, docs, _values(np.asarray(labels, dtype=np.float64), "qrels"), "qrels", path, None, line_numbers)
    if predictions is None:
        return qrels, None
    predictions = _check_path(predictions, "predictions")
    scores, score_lines = [], []
    for number, line in _data_lines(predictions):
        fields = line.split()
        where = f"{predictions}:{number}"
        if len(fields) != 1:
            raise InputError(f"{where}: a predictions line holds one number, got {len(fields)} fields")
        scores.append(_parse_number(fields[0], "score", where))
        score_lines.append(number)
    if len(scores) != len(labels):
        raise InputError(
            f"{predictions}: {len(scores)} predictions for the {len(labels)} data lines of {path}; "
            f"there must be one per line, in the same order"
        )
    run = Columns(query, docs, np.asarray(scores, dtype=np.float64), "run", predictions,
                  Path(predictions).name, np.asarray(score_lines, dtype=np.int64))
    return qrels, run


# ---------------------------------------------------------------- DataFrames

_VALUE_COLUMN = {"qrels": "relevance", "run": "score"}


def _id_array(series: pd.Series, name: str) -> pa.ChunkedArray:
    if series.isna().any():
        position = int(np.flatnonzero(series.isna().to_numpy())[0])
        raise InputError(f"DataFrame row {series.index[position]!r}: {name} is missing")
    if series.dtype.kind in "biuf":  # numeric ids are compared as their decimal text
        series = series.astype(str)
    try:
        array = pa.chunked_array([pa.array(series.to_numpy(dtype=object), pa.string())])
    except (pa.ArrowInvalid, pa.ArrowTypeError):
        raise InputError(f"DataFrame column {name!r} must hold strings (ids), got dtype {series.dtype}") from None
    return array


def columns_from_frame(frame: pd.DataFrame, kind: Kind, *, name: str | None = None) -> Columns:
    """Convert a DataFrame (``query, doc, relevance`` or ``query, doc, score``) into :class:`Columns`.

    Numeric ids are turned into their decimal text (they are compared as strings, as
    trec_eval compares document ids).

    Examples
    --------
    >>> import pandas as pd
    >>> run = columns_from_frame(pd.DataFrame({"query": ["q1"], "doc": ["d1"], "score": [0.5]}), "run")
    >>> run.value.tolist(), run.where(0)
    ([0.5], 'DataFrame row 0')
    """
    import pandas as pd

    if not isinstance(frame, pd.DataFrame):
        raise TypeError(f"{kind} must be a pandas DataFrame or a file path, got {type(frame).__name__}")
    wanted = ["query", "doc", _VALUE_COLUMN[kind]]
    missing = [c for c in wanted if c not in frame.columns]
    if missing:
        raise InputError(
            f"{kind} DataFrame needs columns {', '.join(wanted)}; missing {', '.join(missing)} "
            f"(has {', '.join(map(str, frame.columns))})"
        )
    values = frame[_VALUE_COLUMN[kind]]
    if values.dtype.kind not in "biuf":
        raise InputError(f"{kind} DataFrame column {_VALUE_COLUMN[kind]!r} must be numeric, got dtype {values.dtype}")
    raw = values.to_numpy(dtype=np.float64)
    bad = ~np.isfinite(raw)
    if bad.any():
        position = int(np.flatnonzero(bad)[0])
        raise InputError(
            f"DataFrame row {frame.index[position]!r}: {_VALUE_COLUMN[kind]} must be finite, got {float(raw[position])!r}"
        )
    if len(frame) == 0:
        raise InputError(f"{kind} DataFrame is empty")
    return Columns(
        _id_array(frame["query"], "query"), _id_array(frame["doc"], "doc"), _values(raw, kind), kind,
        "DataFrame", name if name is not None else frame.attrs.get("run"), np.asarray(frame.index),
    )


def _frame(columns: Columns) -> pd.DataFrame:
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
        frame.index = pd.Index(columns.labels(), name="line")
    frame.attrs["source"] = columns.source
    if columns.tag is not None:
        frame.attrs["run"] = columns.tag
    return frame


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
    return _frame(load_qrels(path))


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
    return _frame(load_run(path))


def read_svmlight(path: PathLike, predictions: PathLike | None = None) -> tuple[pd.DataFrame, pd.DataFrame | None]:
    """Read an SVMlight/LETOR file (and its predictions) into qrels and run DataFrames.

    See :func:`load_svmlight` for the format and the document names.

    Examples
    --------
    >>> import tempfile, os
    >>> folder = tempfile.mkdtemp()
    >>> data, scores = os.path.join(folder, "test.txt"), os.path.join(folder, "pred.txt")
    >>> _ = open(data, "w").write("2 qid:7 1:0.5\\n0 qid:7 1:0.1\\n")
    >>> _ = open(scores, "w").write("0.1\\n0.7\\n")
    >>> qrels, run = read_svmlight(data, scores)
    >>> qrels["relevance"].tolist(), run["score"].tolist()
    ([2, 0], [0.1, 0.7])
    """
    qrels, run = load_svmlight(path, predictions)
    return _frame(qrels), (None if run is None else _frame(run))
