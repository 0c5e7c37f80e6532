"""Tables in and out of the evaluator: DataFrames in the package's, PyTerrier's or ir_measures' columns, ranx objects,
pytrec_eval dicts, Dask DataFrames (runs, partition by partition); ids compared as text. The naming of runs."""

import contextlib
import functools
import os
import re
import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from itertools import chain, repeat
from typing import TYPE_CHECKING, Any

import numpy as np
import pyarrow as pa

from .._validation import check_path, type_and_value
from ..core._ranking import merged_by_float64
from ._readers import (
    GRADE_LIMIT,
    MAX_GRADE,
    CastOptions,
    Columns,
    Kind,
    MatchSubstringOptions,
    PathLike,
    binary_ids,
    flags,
    kernel,
    numbers,
    predictions_columns,
    quoted,
    read_whole,
    row_label,
    svmlight_columns,
)
from ._sources import STDIN, InputError, describe

if TYPE_CHECKING:  # pandas is imported only where a DataFrame is made or read
    import pandas as pd

#: Column names per table style: (query, document, grade columns accepted, score).
STYLES: dict[str, tuple[str, str, tuple[str, ...], str]] = {
    "": ("query", "doc", ("relevance",), "score"),
    "PyTerrier's": ("qid", "docno", ("label", "relevance"), "score"),  # (its "query", the query's text, is not read)
    "ir_measures'": ("query_id", "doc_id", ("relevance",), "score"),
}


def is_path(value: Any) -> bool:
    return isinstance(value, (str, os.PathLike))


# The tests of a Dask collection, a pandas DataFrame, a ranx Qrels or Run import none of these libraries.
def is_dask(value: Any) -> bool:
    return type(value).__module__.startswith("dask") and hasattr(value, "to_delayed")


def is_frame(value: Any) -> bool:
    return any(c.__module__.startswith("pandas") and c.__name__ == "DataFrame" for c in type(value).__mro__)


def is_ranx(value: Any) -> bool:
    return type(value).__module__.startswith("ranx") and hasattr(value, "to_dict")


def is_nested_dict(value: Any) -> bool:
    """Whether ``value`` is a pytrec_eval dict ``{query: {document: number}}`` (not a mapping of runs)."""
    if not isinstance(value, Mapping) or not value or not all(isinstance(v, Mapping) for v in value.values()):
        return False
    # The first query that maps to documents tells the shape; if none does, a run retrieved nothing (no run is {}).
    return not any(isinstance(x, Mapping) for x in next((v for v in value.values() if v), {}).values())


def is_table(value: Any) -> bool:
    return is_frame(value) or is_ranx(value) or is_nested_dict(value) or is_dask(value)


def frame_style(columns: Any) -> str:
    """The table style of a frame's columns: ``""`` (the package's), ``"PyTerrier's"`` or ``"ir_measures'"``."""
    names = set(map(str, columns))
    return next((style for style in ("PyTerrier's", "ir_measures'") if set(STYLES[style][:2]) <= names), "")


#: What pyarrow reads as bytes (as binary, or as text where it is UTF-8).
BYTES = (bytes, bytearray, memoryview)


def _first(mask: np.ndarray) -> int | None:  # the row a message names
    return int(mask.argmax()) if mask.any() else None


def id_kind(value: Any) -> str:
    """The kind of an id as messages name it: strings, bytes, booleans, integers, floats, else its type's name."""
    t = type(value)
    kinds = {"booleans": (bool, np.bool_), "integers": (int, np.integer), "floats": (float, np.floating)}
    kind = "strings" if issubclass(t, str) else "bytes" if issubclass(t, BYTES) else t.__name__
    return next((k for k, types in kinds.items() if issubclass(t, types)), kind)  # (a bool is an int: first)


def _kinds_error(values: np.ndarray, label: str, at: Callable[[int], str]) -> InputError:
    """Why ids neither all text nor all integers are refused, each kind shown by its first value (``at``: its row)."""
    shown: dict[str, str] = {}
    for t in dict.fromkeys(map(type, values)):  # each type's first value, in order: a column may hold millions
        i, x = next((i, x) for i, x in enumerate(values) if type(x) is t)
        kind = id_kind(x)
        value = x.item() if isinstance(x, np.generic) else bytes(x) if isinstance(x, memoryview) else x
        shown.setdefault(kind, f"{kind} ({value!r} at {at(i)})")
    if len(shown) > 1 and not {"floats", "booleans"} & shown.keys():
        same = "1 and '1'"
        if "bytes" in shown:
            same = "b'1' and '1'" if "strings" in shown else "1 and b'1'"
        return InputError(
            f"{label} mixes {' and '.join(list(shown.values())[:2])}: ids are compared as text, so {same} would be one "
            "id; convert them to one type first"
        )
    kind = "floats" if "floats" in shown else "booleans" if "booleans" in shown else next(iter(shown))
    why = "ids are compared as text: 1.0 would not match '1'" if kind == "floats" else "ids must be strings or integers"
    return InputError(f"{label} holds {shown[kind]}: {why}; convert them to int or str first")


def _object_ids(values: np.ndarray, column: str, where: Any, label: str, at: Callable[[int], str]) -> pa.ChunkedArray:
    """Ids of an object array: all strings, all bytes, or all integers (their decimal text); none empty."""
    present = set(map(type, values))
    if type(None) in present:  # a dict's key (a DataFrame's missing values are refused before)
        raise InputError(f"{where(next(i for i, x in enumerate(values) if x is None))}: {column} is missing (None)")
    # pyarrow reads str and bytes alike (as text or as binary): mixed, they are refused as other mixes are
    if any(issubclass(t, str) for t in present) and any(issubclass(t, BYTES) for t in present):
        raise _kinds_error(values, label, at)
    for arrow_type in (pa.string(), pa.binary()):  # all strings, or all bytes (binary where not UTF-8)
        with contextlib.suppress(pa.ArrowInvalid, pa.ArrowTypeError):
            try:
                ids = pa.chunked_array([pa.array(values, type=arrow_type)])
            except UnicodeEncodeError:  # surrogate escapes, as Evaluation.queries keeps undecodable bytes: the bytes
                ids = pa.chunked_array([pa.array([_escaped(x, i, column, where) for i, x in enumerate(values)])])
            break
    else:
        if any(issubclass(t, (bool, np.bool_)) or not issubclass(t, (int, np.integer)) for t in present):
            raise _kinds_error(values, label, at)
        return pa.chunked_array([[str(x) for x in values]], type=pa.string())  # (decimal text: never empty, no NUL)
    if (i := _first(numbers(kernel("binary_length", ids)) == 0)) is not None:
        raise InputError(f"{where(i)}: {column} is an empty string (trec_eval could not read an empty id)")
    # A C string ends at a NUL: pytrec_eval cuts such an id there (two ids may become one), trec_eval's files cannot
    # hold one (the readers refuse it); other characters, blanks too, are kept as given.
    nul = kernel("match_substring", ids, options=MatchSubstringOptions("\x00")).combine_chunks()
    if (i := _first(flags(nul))) is not None:
        raw = binary_ids(ids)[i].as_py()
        raise InputError(
            f"{where(i)}: {column} {quoted(raw)} holds a NUL character (byte {raw.index(0) + 1}), which C tools read "
            "as its end"
        )
    return ids


def _escaped(value: Any, i: int, column: str, where: Any) -> Any:
    """A str id as its bytes, a surrogate escape (U+DC80 to U+DCFF) as the byte it stands for; other values as given."""
    try:
        raw = value.encode("utf-8", "surrogateescape") if isinstance(value, str) else value
    except UnicodeEncodeError:
        raise InputError(
            f"{where(i)}: {column} {value!r} holds a surrogate that stands for no byte (not U+DC80 to U+DCFF), so it "
            f"is not text; give the id as str or bytes"
        ) from None
    if isinstance(value, str) and (text := raw.decode("utf-8", "surrogateescape")) != value:
        raise InputError(  # escapes of bytes that are UTF-8 text: the id would be that text's, another key's
            f"{where(i)}: {column} {value!r} escapes bytes that are UTF-8 text: it is the id {text!r}; write it so"
        )
    return raw


def _id_array(series: "pd.Series", column: str, where: Any, label: str, at: Callable[[int], str]) -> pa.ChunkedArray:
    """The ids of a DataFrame column (``label``: "run DataFrame column 'doc'"), checked; ``at`` names a row."""
    if (i := _first(series.isna().to_numpy())) is not None:
        raise InputError(f"{where(i)}: {column} is missing")
    if str(series.dtype) == "category":  # its categories checked (an empty one too, used or not), in their own dtype
        import pandas as pd

        values = pd.Series(series.cat.categories, dtype=series.cat.categories.dtype)
        categories = _id_array(values, column, lambda i: f"{label}, category {i}", label, lambda i: f"category {i}")
        return kernel("take", categories, pa.array(series.cat.codes.to_numpy().astype(np.int64)))
    if series.dtype.kind in "fb":  # a float or boolean column: named by its first value
        raise _kinds_error(series.iloc[:1].to_numpy(dtype=object), label, at)
    if series.dtype.kind in "iu":  # integer ids are compared as their decimal text
        return pa.chunked_array([kernel("cast", pa.array(series.to_numpy()), options=CastOptions.safe(pa.string()))])
    return _object_ids(series.to_numpy(dtype=object), column, where, label, at)


def _values(
    series: Any, kind: Kind, column: str, where: Any, exact: np.ndarray | None = None
) -> tuple[np.ndarray, tuple[int, str] | None]:
    """A column's grades or scores, checked: whole grades as int64, else float64 and the first fractional grade.
    ``exact``: a run's scores as given where float64 may change them (a dict's integers beside floats)."""
    dtype = series.dtype
    if dtype.kind not in "iuf":
        raise InputError(f"{kind} DataFrame column {column!r} must be numeric, got dtype {dtype}")  # (a dict's are)
    raw = series.to_numpy(dtype=np.float64, na_value=np.nan) if hasattr(series, "to_numpy") else series.astype(float)
    if (i := _first(~np.isfinite(raw))) is not None:  # a nullable column's <NA> (Int64, Float64, pyarrow) is missing
        missing = dtype.kind in "iu" or not isinstance(dtype, np.dtype) and bool(series.isna().iloc[i])
        problem = "is missing" if missing else f"must be finite, got {float(raw[i])!r}"
        raise InputError(f"{where(i)}: {column} {problem}")
    if dtype.kind in "iu":  # an integer column's own values (uint64 beyond 2^63 too) are its exact ones
        exact = np.asarray(series, dtype=np.uint64 if dtype.kind == "u" else np.int64)
    # long double: refused where float64 makes two scores one (a tie); pandas' extension dtypes (Sparse) have no size
    elif kind == "run" and getattr(dtype, "itemsize", 8) > 8:
        wide = np.asarray(series, dtype=dtype)
        if (found := merged_by_float64(wide[None, :])) is not None:
            i, other = found[1]
            a, b = (str(wide[k]) for k in (i, other))  # str: every digit of a long double
            raise InputError(
                f"{where(i)}: {column} {a} and {b} ({where(other)}) are one float64, "
                f"{float(raw[i])!r} (the tools' precision): they would tie; round the {column}s to float64 first"
            )
    if kind == "run":
        if exact is not None:
            with np.errstate(invalid="ignore"):  # a float64 beyond the integer type is inexact anyway
                i = _first((np.abs(raw) >= 2**53) & (raw.astype(exact.dtype) != exact))
            if i is not None:
                raise InputError(
                    f"{where(i)}: {column} {exact[i]} is not exact as a float64 (beyond 2^53: it would tie with its "
                    f"neighbours); rescale the {column}s"
                )
        return raw, None
    if (i := _first(np.abs(raw) >= MAX_GRADE)) is not None:
        grade = (raw if exact is None else exact)[i].item()  # an integer column's as given
        raise InputError(f"{where(i)}: {column} {grade!r} is too large; {GRADE_LIMIT}")
    if (i := _first(np.floor(raw) != raw)) is not None:
        return raw, (i, repr(float(raw[i])))
    return raw.astype(np.int64), None


def _dict_columns(table: Mapping[Any, Any], kind: Kind, label: str, tag: str | None = None) -> Columns:
    """pytrec_eval's ``{query: {document: value}}`` as Columns (a Python loop over queries: the dict is Python's)."""
    what = "grades" if kind == "qrels" else "scores"
    for query, ranked in table.items():
        if not isinstance(ranked, Mapping):
            raise InputError(f"{label}: query {query!r} must map documents to {what}, got {type_and_value(ranked)}")
    # np.fromiter keeps a tuple id as one value (np.asarray would make it a row of a 2-D array)
    queries = np.fromiter(chain.from_iterable(repeat(query, len(ranked)) for query, ranked in table.items()), object)
    docs = np.fromiter(chain.from_iterable(table.values()), object)
    values = list(chain.from_iterable(ranked.values() for ranked in table.values()))
    if not values:
        raise InputError(f"{label} is empty" if not table else f"{label}: every query maps to an empty dict")
    # A run's query with an empty ranking is answered with nothing (pytrec_eval and ranx score it 0); a qrels' has
    # no judgments (no tool evaluates it). Its id is read with the others', so that all follow one rule.
    empty = [query for query, ranked in table.items() if not ranked] if kind == "run" else []
    every_query = np.concatenate((queries, np.fromiter(empty, object, len(empty))))

    def where(i: int) -> str:
        return f"{label}: query {every_query[i]!r}, " + (f"document {docs[i]!r}" if i < docs.size else "no document")

    kinds = set(map(type, values))
    real, not_real = (int, float, np.integer, np.floating), (bool, np.bool_, np.timedelta64)
    # Each value one real number (a numpy 0-d array of one too): numpy would read True beside numbers as 1, lists as
    # rows, a timedelta (a numpy integer) as a duration.
    if any(issubclass(k, not_real) or not issubclass(k, real) for k in kinds):  # (rare: each value looked at)
        odd = (
            i
            for i, v in enumerate(values)
            if isinstance(v, not_real)
            or not (isinstance(v, real) or isinstance(v, np.ndarray) and v.ndim == 0 and v.dtype.kind in "iuf")
        )
        if (i := next(odd, None)) is not None:
            raise InputError(f"{where(i)}: {what[:-1]} must be a real number, got {type_and_value(values[i])}")
    array = np.asarray(values)
    if array.dtype.kind not in "iuf":  # only Python integers beyond 64 bits make an object array of real numbers
        i = next((i for i, v in enumerate(values) if isinstance(v, int) and not -(2**63) <= v < 2**64), 0)
        advice = "give it as a float if that is what it means" if kind == "run" else GRADE_LIMIT
        raise InputError(f"{where(i)}: {what[:-1]} {values[i]!r} does not fit in 64 bits; {advice}")
    exact = None  # integers beside floats in a run, made float64: does one change (2^53 + 1)?
    if array.dtype.kind == "f" and kind == "run" and any(issubclass(k, (int, np.integer, np.ndarray)) for k in kinds):
        exact = np.fromiter((v.item() if isinstance(v, np.ndarray | np.generic) else v for v in values), object)
    value, fraction = _values(array, kind, "relevance" if kind == "qrels" else "score", where, exact)
    query_ids = _object_ids(every_query, "query", where, f"{label} (its query ids)", lambda i: f"entry {i}")
    doc_ids = _object_ids(docs, "doc", where, f"{label} (its document ids)", lambda i: f"entry {i}")
    ranked_queries, empty_queries = query_ids[: docs.size], query_ids[docs.size :] if empty else None
    return Columns(
        ranked_queries, doc_ids, value, kind, label, tag, fraction=fraction, named_by="key", unranked=empty_queries
    )


def table_columns(table: Any, kind: Kind) -> Columns:
    """Judgments or a run (Columns, ranx, pytrec_eval dict, DataFrame in any style's columns) as Columns; a
    DataFrame's rows named by index label (by position where labels repeat), its tag ``attrs["run"]``."""
    if isinstance(table, Columns):  # read by the command line (SVMlight)
        return table
    if is_ranx(table):
        source, tag = f"ranx {type(table).__name__}", getattr(table, "name", None) or None
        if type(table).__name__ != ("Qrels" if kind == "qrels" else "Run"):  # the class says which it is
            raise InputError(f"a {source} was given as the {kind}: give a ranx {'Qrels' if kind == 'qrels' else 'Run'}")
        columns = _dict_columns(table.to_dict(), kind, source, None if tag is None else str(tag))  # (tags are text)
        # ranx sorts a Run's documents when it builds and evaluates it: ties are not in the order they were given
        return replace(columns, ordered=False) if kind == "run" else columns
    if not is_frame(table):
        return _dict_columns(table, kind, f"{kind} dict")
    source = f"{kind} DataFrame"
    # PyTerrier's ids win beside "query" and "doc" (its "query" is the query's text); ir_measures' beside either
    pairs = [(q, d) for q, d, _, _ in STYLES.values() if {q, d} <= set(map(str, table.columns))]
    if len(pairs) > 1 and ("query_id", "doc_id") in pairs:
        shown = " and ".join(", ".join(pair) for pair in pairs)
        raise InputError(f"{source} has the id columns {shown}: which are its ids? drop or rename the others")
    style = frame_style(table.columns)
    query, doc, grades, score = STYLES[style]
    if kind == "qrels" and (count := sum(g in table.columns for g in grades)) > 1:
        raise InputError(f"{source} has {count} grade columns ({', '.join(grades)}): keep one")
    value = next((g for g in grades if g in table.columns), grades[0]) if kind == "qrels" else score
    wanted = [query, doc, value]
    if any(c not in table.columns for c in wanted):
        ours, pyterrier, ir_measures = (f"{q}, {d}, {g[0] if kind == 'qrels' else s}" for q, d, g, s in STYLES.values())
        choices = f"{ours} (or PyTerrier's {pyterrier}, or ir_measures' {ir_measures})"
        needs = f"{', '.join(wanted)} ({style} columns)" if style else choices
        raise InputError(f"{source} needs columns {needs}; has {', '.join(map(str, table.columns))}")
    for column in wanted:
        if (count := int(np.count_nonzero(table.columns == column))) > 1:
            raise InputError(f"{source} has {count} columns named {column!r}; keep one")
        if not hasattr(table[column], "dtype"):  # columns of several levels: a group of columns
            raise InputError(f"{source} column {column!r} is a group of columns ({table.columns.nlevels} levels)")
    if len(table) == 0:
        raise InputError(f"{source} is empty")
    labels = None
    if table.index.is_unique:  # (timestamps as pandas shows them: numpy's item() of nanoseconds is an integer)
        labels = table.index.to_numpy(dtype=object if table.index.dtype.kind in "mM" else None)
    where = functools.partial(row_label, source, labels)  # "run DataFrame row 3": whose row
    values, fraction = _values(table[value], kind, value, where)
    row = functools.partial(row_label, "", labels)  # " row 3", " row at position 3" (labels not unique)
    query_ids, doc_ids = (
        _id_array(table[c], c, where, f"{source} column {c!r}", lambda i: row(i).strip().removeprefix("row at "))
        for c in (query, doc)
    )
    tag = None if table.attrs.get("run") is None else str(table.attrs["run"])  # (tags are text: any attrs value)
    return Columns(query_ids, doc_ids, values, kind, source, tag, labels, fraction=fraction, named_by="label")


def _file_name(path: str) -> str:
    """A file's name without directory, compression suffix and extension (``runs/bm25.run.gz`` -> ``bm25``)."""
    base = re.sub(r"(?<=.)\.(?:gz|bz2|xz)\Z", "", os.path.basename(path) or path)
    return base.rpartition(".")[0] or base


def _own_name(run: Any, position: int) -> tuple[str, str | None]:
    """A run's name by itself, and the file it was read from (to tell runs of the same name apart)."""
    if is_path(run) or isinstance(run, Columns):  # Columns: a model's predictions read by the command line (SVMlight)
        path = run.source if isinstance(run, Columns) else os.fspath(run)
        return _file_name(describe(path)), path
    attrs = run.attrs if isinstance(getattr(run, "attrs", None), Mapping) else {}  # a DataFrame's (not ranx's)
    tag = (getattr(run, "name", None) or None) if is_ranx(run) else attrs.get("run")
    return (f"run{position + 1}" if tag is None else str(tag)), attrs.get("source")


def run_names(runs: Sequence[Any]) -> list[str]:
    """Run names by the one rule ``evaluate``'s docstring states (``compare``, every output format); tags stay tags."""
    own = [_own_name(run, i) for i, run in enumerate(runs)]
    names = [name for name, _ in own]
    for name in dict.fromkeys(names):  # in the order of the runs, so that a rename never depends on set order
        clashing = [i for i, n in enumerate(names) if n == name]
        sources = [own[i][1] for i in clashing]
        if len(clashing) < 2 or any(s is None for s in sources) or len(set(sources)) < len(sources):
            continue
        stems = [_file_name(s) for s in sources if s is not None]
        for i, source, stem in zip(clashing, sources, stems, strict=False):
            names[i] = stem if len(set(stems)) == len(stems) and stem not in names else source or name
    return names


def named_runs(runs: Any) -> list[tuple[str, Any]]:
    """Every form of a ``runs`` argument (one run, a list, a mapping of names to runs or to shards) as (name, run)
    pairs; two runs of one name are refused, saying whether one run was given twice or how to name them."""
    if isinstance(runs, (list, tuple, Mapping)) and not runs:
        shown = "mapping" if isinstance(runs, Mapping) else type(runs).__name__
        raise ValueError(f"runs must hold at least one run, got an empty {shown}")
    if isinstance(runs, Mapping) and not is_nested_dict(runs):
        keys: dict[str, Any] = {}
        for key, run in runs.items():
            if not (isinstance(run, (list, tuple)) and run and all(is_path(r) for r in run)):  # (or shards)
                _check_run(run, f"runs[{key!r}]")
            if (label := keys.setdefault(str(key), key)) is not key:  # 1 and "1": two runs of one name in the results
                raise ValueError(
                    f"runs[{label!r}] and runs[{key!r}] would both be named {str(key)!r} (names are text); rename one"
                )
        return [(str(key), list(run) if isinstance(run, (list, tuple)) else run) for key, run in runs.items()]
    many = isinstance(runs, (list, tuple))  # else one run, named "runs" in messages
    listed = list(runs) if many else [runs]
    labels = run_names(listed)  # (names any value: the runs are checked below)
    first: dict[Any, int] = {}
    for j, run in enumerate(listed):  # one table or file given twice may have two names (run1, run2; a, ./a)
        _check_run(run, f"runs[{j}]" if many else "runs")
        if (i := first.setdefault(_identity(run), j)) != j:
            shown = os.fspath(run) if is_path(run) else labels[i]
            raise ValueError(f"runs[{j}]: run {shown!r} is given twice (as runs[{i}] too); give each run once")
    for j, label in enumerate(labels):
        if (i := labels.index(label)) != j:
            raise ValueError(
                f"runs[{i}] and runs[{j}] are different runs named {label!r}; name them with a dict "
                f"{{name: run}}, e.g. {{{label + '-1'!r}: runs[{i}], {label + '-2'!r}: runs[{j}]}}"
            )
    return list(zip(labels, listed, strict=False))


def _identity(run: Any) -> Any:
    """What a run is, for finding one given twice: a file by device and inode (however its path is spelled)."""
    with contextlib.suppress(OSError):  # a missing file (reading it says so) by its path, as standard input
        if is_path(run) and os.fspath(run) != STDIN:  # (not a file named "-")
            status = os.stat(run)
            return (status.st_dev, status.st_ino)
    return os.fspath(run) if is_path(run) else id(run)  # a table by itself


def _check_run(run: Any, name: str) -> None:
    if is_path(run):
        check_path(run, name)
    elif not (isinstance(run, Columns) or is_table(run)):
        raise TypeError(
            f"{name} must be a run file path, a DataFrame, a Dask DataFrame, a ranx Run or a dict "
            f"{{query: {{document: score}}}}, got {type_and_value(run)}"
        )


def as_frame(columns: Columns, keeps_bytes: str = "evaluate") -> "pd.DataFrame":
    """Columns read from a file as a DataFrame ``query, doc, relevance`` / ``query, doc, score``, indexed by line
    (``keeps_bytes``: what reads the file with ids that are not UTF-8, for the message that refuses them)."""

    def text(array: pa.ChunkedArray, what: str) -> pa.Array:
        ids = binary_ids(array)
        try:
            return kernel("cast", ids, options=CastOptions.safe(pa.string()))
        except pa.ArrowInvalid:  # name the first id that is not UTF-8 (its bytes come back changed from "replace")
            row, raw = next((i, v) for i, v in enumerate(ids.to_pylist()) if v.decode(errors="replace").encode() != v)
            raise InputError(
                f"{columns.where(row)}: {what} id {raw!r} is not UTF-8 text, as a DataFrame needs; pass the file to "
                f"{keeps_bytes}, which keeps the bytes"
            ) from None

    frame = pa.table({"query": text(columns.query, "query"), "doc": text(columns.doc, "document")}).to_pandas()
    frame["relevance" if columns.kind == "qrels" else "score"] = columns.value
    frame.index = columns.line_numbers()  # in place: set_axis and rename_axis copy the frame under pandas 2.x
    frame.index.name = "line"
    frame.attrs["source"] = columns.source
    if columns.tag is not None:
        frame.attrs["run"] = columns.tag
    return frame


def read_qrels(path: PathLike) -> Any:
    """Read a TREC qrels file into a DataFrame with columns ``query, doc, relevance``.

    Parameters
    ----------
    path : str or path-like
        A qrels file (``query iteration document relevance``), plain, gzip, bzip2 or xz; ``"-"`` reads standard input.

    Returns
    -------
    pandas.DataFrame
        The index is the line number in the file; ``attrs["source"]`` is the path.

    Raises
    ------
    InputError
        A missing file, or a line trec_eval would read otherwise (file and line named).

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
    return as_frame(read_whole(check_path(path, "path"), "qrels"))


def read_run(path: PathLike) -> Any:
    """Read a TREC run file into a DataFrame with columns ``query, doc, score`` (no rank: trec_eval ranks by score).

    Parameters
    ----------
    path : str or path-like
        A run file (``query Q0 document rank score tag``), plain, gzip, bzip2 or xz; ``"-"`` reads standard input.

    Returns
    -------
    pandas.DataFrame
        The index is the line number; ``attrs["run"]`` is the tag of the last line, ``attrs["source"]`` the path.

    Raises
    ------
    InputError
        A missing file, or a line trec_eval would read otherwise (file and line named).

    Examples
    --------
    >>> import tempfile, os
    >>> path = os.path.join(tempfile.mkdtemp(), "run.txt")
    >>> _ = open(path, "w").write("401 Q0 FBIS3-10 1 12.5 bm25\\n401 Q0 FBIS3-11 2 11.0 bm25\\n")
    >>> run = read_run(path)
    >>> run.attrs["run"], run["score"].tolist()
    ('bm25', [12.5, 11.0])
    """
    return as_frame(read_whole(check_path(path, "path"), "run"))


def read_svmlight(path: PathLike, predictions: PathLike | None = None) -> tuple[Any, Any]:
    """Read an SVMlight/LETOR file (and a model's predictions for it) into qrels and run DataFrames.

    Parameters
    ----------
    path : str or path-like
        An SVMlight/LETOR file: one line ``relevance qid:QUERY features # docid = ID`` per document (one without a
        docid is named by its place among the data lines, zero-padded: ``"01"`` to ``"50"`` in a file of 50;
        a ``UserWarning`` names such lines where others have a docid). A qid whose lines are not consecutive, or
        written two ways (``qid:1``, ``qid:01``), is refused: the learning-to-rank tools group otherwise. Features are
        not read, but a line the tools refuse (a qid that is not an integer, a feature not ``INDEX:VALUE``) is refused.
    predictions : str or path-like, optional
        A model's scores for the lines of ``path``, one number per line, in the same order (no blank or comment line).

    Returns
    -------
    (pandas.DataFrame, pandas.DataFrame or None)
        The judgments (``query, doc, relevance``) and the run (``query, doc, score``; None without ``predictions``).

    Raises
    ------
    InputError
        A missing file, a malformed line, or not one prediction per line.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (folder / "test.txt").write_text("2 qid:7 1:0.5\\n0 qid:7 1:0.1\\n")
    >>> _ = (folder / "pred.txt").write_text("0.1\\n0.7\\n")
    >>> qrels, run = read_svmlight(folder / "test.txt", folder / "pred.txt")
    >>> qrels["relevance"].tolist(), run["score"].tolist()
    ([2, 0], [0.1, 0.7])
    """
    if predictions is not None:
        check_path(predictions, "predictions")
    qrels = svmlight_columns(check_path(path, "path"))
    for note in qrels.notes:
        warnings.warn(note, stacklevel=2)
    command = "ndcg-research evaluate --input svmlight"  # (nr.evaluate takes DataFrames of SVMlight files)
    qrels_frame = as_frame(qrels, command)  # first: an id that is not UTF-8 is the SVMlight file's, not the scores'
    run = None if predictions is None else as_frame(predictions_columns(qrels, predictions), command)
    return qrels_frame, run
