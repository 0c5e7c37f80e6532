"""A finding, what its rule reads (:class:`Results`) and returns (:class:`Measured`), the verdict words, and the
formats every rule quotes numbers in."""

from __future__ import annotations

import json
import math
import numbers
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .._validation import check_array, check_instance, check_int, check_real, type_and_value

#: The verdicts: "holds with qualification" is for finite claims only, "consistent with" (the measurements agree
#: where they reach, the claim goes beyond them) for claims about n -> infinity only (:func:`limit_verdict`).
VERDICTS: tuple[str, ...] = ("holds", "holds with qualification", "consistent with", "does not hold", "undecided")


def limit_verdict(verdict: str, limit: bool, derivation: str = "") -> str:
    """The verdict a finding reads from its rule's: a claim about n -> infinity (``limit``) is at most "consistent
    with" (finite n do not establish a limit) unless a derivation of the Theory page carries it (``"(d)"``)."""
    if verdict not in VERDICTS:
        raise ValueError(f"a verdict must be one of {VERDICTS}, got {verdict!r}")
    if derivation and not limit:
        raise ValueError(f"only a claim about n -> infinity names a derivation that carries it, got {derivation!r}")
    if limit and verdict == "holds with qualification":
        raise ValueError(
            "'holds with qualification' is for finite claims: a limit claim's rule gives 'consistent with'"
        )
    if not limit and verdict == "consistent with":
        raise ValueError("'consistent with' is for claims about n -> infinity (limit = true)")
    return "consistent with" if limit and verdict == "holds" and not derivation else verdict


class MissingTableError(FileNotFoundError):
    """A finding needs a table that does not exist (run the full profile first)."""


class UnreadableTableError(ValueError):
    """A finding needs a table that exists but does not read as written (wrong columns, no dtypes file)."""


@dataclass(frozen=True)
class Finding:
    """One claim with the measurement that tests it, its texts filled; ``numbers``: the quoted numbers (tests and
    JSON); ``attribution``: which words of Wang et al.'s abstract it tests; ``values``: the values its texts place."""

    key: str
    title: str
    claim: str
    source: str
    measurement: str
    summary: str
    verdict: str
    conditions: str
    figures: tuple[str, ...] = ()
    tables: tuple[str, ...] = ()
    notebooks: tuple[str, ...] = ()
    numbers: dict[str, float] = field(default_factory=dict)
    rule: str = ""
    thresholds: tuple[str, ...] = ()
    attribution: str = ""
    limit: bool = False
    derivation: str = ""
    revised: str = ""
    fixed: str = ""
    values: dict[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.verdict not in VERDICTS:
            raise ValueError(f"verdict of finding {self.key!r} must be one of {VERDICTS}, got {self.verdict!r}")


@dataclass(frozen=True)
class Measured:
    """What a finding's rule returns: the verdict, the values its texts place and the quoted numbers by name."""

    verdict: str
    values: Mapping[str, Any]
    numbers: Mapping[str, float] = field(default_factory=dict)


class Results:
    """The result tables of a folder, each read once; with ``prefix`` (``"04_"``) only that notebook's (a run folder
    may hold several runs' tables, which a finding must not mix)."""

    def __init__(self, folder: str | os.PathLike[str], prefix: str = "") -> None:
        self.folder, self.prefix = Path(folder), prefix
        self._cache: dict[str, Any] = {}

    def table(self, name: str) -> Any:
        """The table ``name`` as a pandas DataFrame (:class:`MissingTableError` if absent, :class:`UnreadableTableError`
        if it has no rows, no run writes one and a rule would read nothing as something, or if it is not the table
        the run wrote, by its SHA-256: cut short or edited, a rule would read it as a verdict)."""
        from ..simulation.tables import read_table

        table = self._load(name, "table", lambda path: read_table(path, checked=True))  # as the run wrote it
        if table.empty:
            raise UnreadableTableError(f"table {name!r} in {str(self.folder)!r} has no rows; re-run the full profile")
        return table

    def record(self, name: str) -> Any:
        """The JSON file ``name`` (a notebook's summary, an object with its ``parameters`` object), parsed."""
        return self._load(name, "record", _read_record)

    def _load(self, name: str, kind: str, read: Any) -> Any:
        if not name.startswith(self.prefix):
            raise MissingTableError(f"{name!r} is not a table of notebook {self.prefix[:-1]}")
        if name not in self._cache:
            path = self.folder / name
            if not path.is_file():
                raise MissingTableError(
                    f"{kind} {name!r} is not in {str(self.folder)!r}; run the full profile "
                    f"(python3 tasks.py reproduce) to write it"
                )
            try:
                self._cache[name] = read(path)
            except (OSError, ValueError) as exc:  # a table of another layout, a missing dtypes file, broken JSON
                raise UnreadableTableError(f"{kind} {name!r} in {str(self.folder)!r} does not read: {exc}") from exc
        return self._cache[name]


def _read_record(path: Path) -> dict[str, Any]:
    record = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(record, dict) or not isinstance(record.get("parameters"), dict):
        raise ValueError("a notebook's record is a JSON object with a 'parameters' object")
    return record


def size(value: int) -> str:
    """A count as a reader reads it: from 10^4 on, ``10^k`` for a power of ten, else with thousands separators."""
    value = check_int(value, "value")  # int(2.5) wrote 2
    if value < 10_000:
        return str(value)
    power = round(math.log10(value))
    return f"10^{power}" if 10**power == value else f"{value:,}"


def number(value: float, digits: int = 3) -> str:
    """A quoted number: ``digits`` significant digits, no sign on a zero, 'n/a' for NaN."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):  # (NaN is a value here: check_real refuses it)
        raise TypeError(f"value must be a number, got {type_and_value(value)}")
    digits = check_int(digits, "digits", low=1)  # None was "Format specifier missing precision"
    value = float(value)
    if math.isnan(value):
        return "n/a"
    return "0" if value == 0 else f"{value:.{digits}g}"


def proportion(p: float, low: float, high: float, trials: int | None = None) -> str:
    """A proportion with its 95% interval; a proportion of 1 (or 0) is given with its bound, never as a bare 1.00.
    ``p``, ``low`` and ``high`` are proportions, in [0, 1]; ``trials`` (if given) at least 1."""
    p, low, high = (check_real(v, name, low=0, high=1) for v, name in ((p, "p"), (low, "low"), (high, "high")))
    trials = check_int(trials, "trials", low=1, none=True)
    if p == 1 and trials is not None:
        return f"all {trials} (>= {low:.3f})"
    if p == 0 and trials is not None:
        return f"none of {trials} (<= {number(high, 2)})"
    digits = 3 if min(p, 1 - p) < 0.01 else 2  # near 0 or 1, two decimals would round to a bare 1.00 or 0.00
    return f"{p:.{digits}f} [{low:.{digits}f}, {high:.{digits}f}]"


def span(values: Any, digits: int = 3) -> str:
    """The range of some numbers, as 'a to b' (or one number when they are all equal)."""
    import numpy as np

    # (NaN is left out by nanmin and nanmax: finite=False; an empty input was numpy's "zero-size array" error)
    array = check_array(values, "values", min_size=1, finite=False)
    digits = check_int(digits, "digits", low=1)
    low, high = number(np.nanmin(array), digits), number(np.nanmax(array), digits)
    return low if low == high else f"{low} to {high}"


def cases(count: int, total: int) -> str:
    """'count of total' (large numbers as :func:`size` writes them): whole counts, ``count`` at most ``total``."""
    count, total = check_int(count, "count", low=0), check_int(total, "total", low=0)
    if count > total:
        raise ValueError(f"count must be at most total ({total}), got {count}")
    return f"{size(count)} of {size(total)}"


def worst(rows: Any) -> str:
    """The smallest P(better strictly higher) of some pair-table rows, with its interval (never a bare 1)."""
    import pandas as pd

    check_instance(rows, "rows", pd.DataFrame)
    if rows.empty:  # (it was IndexError from .iloc[0])
        raise ValueError("rows must hold at least one row of a pair table, got none")
    row = rows.sort_values(["p_better_low", "p_better"]).iloc[0]
    if row["p_better"] == 1:
        return f"won all {int(row['replicates'])} (Wilson lower bound {row['p_better_low']:.3f})"
    return "P = " + proportion(row["p_better"], row["p_better_low"], row["p_better_high"], int(row["replicates"]))


def labelled(results: Results, pattern: str, labels: Sequence[str]) -> Any:
    """The tables ``pattern.format(label)`` stacked, with a ``label`` column (``labels``: at least one, as text)."""
    import pandas as pd

    check_instance(results, "results", Results)
    check_instance(pattern, "pattern", str)
    if isinstance(labels, str) or not isinstance(labels, Sequence):  # a str's letters would be the labels
        raise TypeError(f"labels must be a list of labels, got {type_and_value(labels)}")
    if not labels:  # it was pandas' "No objects to concatenate"
        raise ValueError("labels must name at least one table, got none")
    for position, label in enumerate(labels):
        check_instance(label, f"labels[{position}]", str)
    return pd.concat([results.table(pattern.format(label)).assign(label=label) for label in labels], ignore_index=True)
