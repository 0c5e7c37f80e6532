"""Tidy result tables as CSV files whose column types survive a round trip.

Read naively, ``"True"`` becomes a boolean and ``"007"`` the integer 7: the column types go beside the CSV
(``name.csv.dtypes.json``). Floats get 10 significant digits: machine-dependent last bits do not show. The table's
SHA-256 goes beside it too (``name.csv.sha256``, as ``sha256sum`` writes it): a table edited, cut or appended to
after the run wrote it does not read.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from pandas.api.types import is_bool_dtype, is_float_dtype, is_integer_dtype, is_string_dtype

FLOAT_FORMAT = "%.10g"
#: The column types :func:`write_table` records.
_KINDS = ("str", "int64", "float64", "bool")
_NAN = "NaN"


def dtypes_path(path: str | os.PathLike[str]) -> Path:
    """The file that records the column types of the table at ``path`` (``<path>.dtypes.json``)."""
    path = Path(path)
    return path.with_name(path.name + ".dtypes.json")


def checksum_path(path: str | os.PathLike[str]) -> Path:
    """The file that records the SHA-256 of the table at ``path`` (``<path>.sha256``, ``sha256sum -c`` reads it)."""
    path = Path(path)
    return path.with_name(path.name + ".sha256")


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _column_type(name: str, column: pd.Series) -> str:
    dtype = column.dtype
    for test, kind in ((is_bool_dtype, "bool"), (is_integer_dtype, "int64"), (is_float_dtype, "float64")):
        if test(dtype):
            return kind
    if is_string_dtype(dtype) and column.map(lambda v: isinstance(v, str)).all():
        return "str"
    kinds = sorted({type(v).__name__ for v in column})
    raise TypeError(f"column {name!r} must hold only text, integers, floats or booleans (no missing text), got {kinds}")


def write_table(table: pd.DataFrame | Sequence[Mapping[str, Any]], path: str | os.PathLike[str]) -> Path:
    """Write a table (text, integer, float or boolean columns) as CSV at ``path``, its column types beside it."""
    frame = table if isinstance(table, pd.DataFrame) else pd.DataFrame(list(table))
    if frame.columns.size == 0:
        raise ValueError("table must have at least one column")
    types = {str(name): _column_type(str(name), frame[name]) for name in frame.columns}
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    frame.to_csv(path, index=False, float_format=FLOAT_FORMAT, na_rep=_NAN, lineterminator="\n")
    dtypes_path(path).write_text(json.dumps(types, indent=1) + "\n", encoding="utf-8")
    checksum_path(path).write_text(f"{_sha256(path)}  {path.name}\n", encoding="utf-8")
    return path


def read_table(path: str | os.PathLike[str], *, checked: bool = False) -> pd.DataFrame:
    """Read a table written by :func:`write_table` (its ``.dtypes.json`` beside it), each column with its type; a
    table that differs from its ``.sha256`` is refused (``checked``: one without that file too)."""
    path = Path(path)
    if checksum_path(path).is_file() or checked:
        try:
            recorded = checksum_path(path).read_text(encoding="utf-8").split()[:1]
        except FileNotFoundError:
            raise FileNotFoundError(
                f"{checksum_path(path)} is missing: the table's SHA-256, which write_table writes (a table of an "
                "older version of the package, or not written by it)"
            ) from None
        if recorded != [_sha256(path)]:
            raise ValueError(
                f"{path} is not the table write_table wrote: its SHA-256 differs from {checksum_path(path).name} "
                "(edited, cut or appended to since)"
            )
    try:
        types = json.loads(dtypes_path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise FileNotFoundError(
            f"{dtypes_path(path)} is missing: read_table reads tables written by write_table "
            f"(use pandas.read_csv for other CSV files)"
        ) from None
    if not isinstance(types, dict) or not all(isinstance(k, str) and k in _KINDS for k in types.values()):
        raise ValueError(
            f"{dtypes_path(path)} must map each column name to one of {', '.join(_KINDS)}, as write_table writes it"
        )
    try:
        frame = pd.read_csv(
            path,
            dtype={n: (str if k == "str" else k) for n, k in types.items()},
            keep_default_na=False,
            na_values={n: [_NAN] for n, k in types.items() if k == "float64"},
        )
    except (ValueError, OverflowError) as exc:  # not CSV, not text, or a value its column's type cannot hold
        raise ValueError(f"{path} does not read with the column types of {dtypes_path(path).name}: {exc}") from exc
    if list(frame.columns) != list(types):
        raise ValueError(f"{path} has columns {list(frame.columns)}, its dtypes file lists {list(types)}")
    return frame


def grid_table(axes: Mapping[str, Sequence[Any]], columns: Mapping[str, Any]) -> pd.DataFrame:
    """One row per combination of axis labels (first axis slowest), one column per array over the axes (or scalar)."""
    shape = tuple(len(labels) for labels in axes.values())
    table = pd.DataFrame(list(itertools.product(*axes.values())), columns=list(axes))
    for name, value in columns.items():
        array = np.asarray(value)
        if array.ndim and array.shape != shape:
            raise ValueError(f"column {name!r} has shape {array.shape}, the axes {list(axes)} need {shape}")
        table[name] = array.reshape(-1) if array.ndim else value
    return table
