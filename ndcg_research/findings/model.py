"""A finding and what its rule reads and returns: the committed tables, the measured values and the verdict words.

Also the formats every rule quotes numbers in (:func:`number`, :func:`proportion`, :func:`span`, :func:`cases`,
:func:`worst`) and :func:`labelled`, the per-model tables of a study stacked.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

#: The verdicts a finding may have: the claim as stated holds; holds only under stated conditions or with a
#: qualification the one-line claim lacks (a finite claim only); is consistent with the measurements, which agree
#: with it where they reach while the claim, about n -> infinity, goes beyond them (a limit claim only); does not
#: hold; or the measurements cannot decide it. :func:`limit_verdict` is the one rule that joins them.
VERDICTS: tuple[str, ...] = ("holds", "holds with qualification", "consistent with", "does not hold", "undecided")


def limit_verdict(verdict: str, limit: bool, derivation: str = "") -> str:
    """The verdict a finding reads, from the verdict its rule gives: THE rule of the verdict words.

    A finite claim (``limit`` false) reads its rule's verdict, which is never "consistent with" (that word is for
    limit claims). A claim about n -> infinity is at most "consistent with": measurements at finite n agree with a
    limit, they do not establish it. It reads "holds" only when a derivation of the Theory page (``docs/theory.md``,
    checked in notebook 15) carries it (``derivation``, e.g. ``"(d)"``) and its rule finds the measurements to
    agree. "holds with qualification" is for finite claims: a limit claim's rule gives holds, consistent with
    (its check agrees where it reaches and no further), does not hold or undecided.

    Raises ValueError for a verdict that is not one of :data:`VERDICTS` or that the claim's kind excludes.

    Examples
    --------
    >>> limit_verdict("holds", limit=False), limit_verdict("holds", limit=True)
    ('holds', 'consistent with')
    >>> limit_verdict("holds", limit=True, derivation="(b)"), limit_verdict("does not hold", limit=True)
    ('holds', 'does not hold')
    """
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
    """A finding needs a committed table that does not exist (run the full profile first)."""


@dataclass(frozen=True)
class Finding:
    """One claim with the measurement that tests it.

    ``key``: stable identifier (a slug); ``title``, ``claim``, ``source``, ``measurement``, ``summary``, ``verdict``,
    ``conditions``: short name of the claim; what is claimed and who claims it (the source article, Wang et al.
    (2013), or this package); what was measured, with the numbers computed from the tables, and that in one short
    line for the README's table; one of :data:`VERDICTS`; under which conditions the verdict holds; ``figures``,
    ``tables``, ``notebooks``: figure names in ``figures/``, table names in ``results/full/``, notebook file names in
    ``notebooks/``; ``numbers``: the quoted numbers by name (for tests and the JSON output); ``rule``: the verdict
    rule in words; ``thresholds``: the names of the thresholds the verdict depends on; ``attribution``: for a claim
    of Wang et al. (2013), whose abstract only could be read: which words of the abstract it tests and what this
    package added to make them testable (empty otherwise); ``limit``: a claim about n -> infinity;
    ``derivation``: the derivation of the Theory page that carries it, in words (empty if none); ``revised``: how
    its rule was revised after seeing data (empty if it was not); ``fixed``: when its rule and thresholds were
    fixed, in words (before the runs it judges, or after seeing data); ``values``: the values its texts place, as
    written (for the notebook's answer sentences).
    """

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
    """What a finding's rule returns: the verdict, the values its texts place (``{name}``; counts, intervals and
    lists already formatted) and the quoted numbers by name (tests and the JSON output)."""

    verdict: str
    values: Mapping[str, Any]
    numbers: Mapping[str, float] = field(default_factory=dict)


class Results:
    """The result tables of a folder (the committed ``results/full``, or a notebook's run), each read once.

    Tables are read with :func:`ndcg_research.simulation.tables.read_table`, so every column keeps the type it was
    written with. With ``prefix`` (``"04_"``), only that notebook's files count: a run folder holds the tables of
    whichever notebooks ran into it, and a finding must not read a mix of runs.
    """

    def __init__(self, folder: str | os.PathLike[str], prefix: str = "") -> None:
        self.folder, self.prefix = Path(folder), prefix
        self._cache: dict[str, Any] = {}

    def table(self, name: str) -> Any:
        """The table ``name`` as a pandas DataFrame (:class:`MissingTableError` if absent)."""
        from ..simulation.tables import read_table

        return self._load(name, "table", read_table)

    def record(self, name: str) -> Any:
        """The JSON file ``name`` (a notebook's summary, with its parameters), parsed."""
        return self._load(name, "record", lambda path: json.loads(path.read_text(encoding="utf-8")))

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
            self._cache[name] = read(path)
        return self._cache[name]


def size(value: int) -> str:
    """A count or list length as a reader reads it: a power of ten from 10^4 on as ``10^k``, other numbers from
    10,000 on with thousands separators, smaller ones as they are.

    Examples
    --------
    >>> size(100), size(51200), size(10_000_000), size(2873584)
    ('100', '51,200', '10^7', '2,873,584')
    """
    value = int(value)
    if value < 10_000:
        return str(value)
    power = round(math.log10(value))
    return f"10^{power}" if 10**power == value else f"{value:,}"


def number(value: float, digits: int = 3) -> str:
    """Format a quoted number: ``digits`` significant digits, no sign on a zero, 'n/a' for NaN."""
    value = float(value)
    if math.isnan(value):
        return "n/a"
    return "0" if value == 0 else f"{value:.{digits}g}"


def proportion(p: float, low: float, high: float, trials: int | None = None) -> str:
    """A proportion with its 95% interval; a proportion of 1 (or 0) is given with its bound, never as a bare 1.00."""
    if p == 1 and trials is not None:
        return f"all {trials} (>= {low:.3f})"
    if p == 0 and trials is not None:
        return f"none of {trials} (<= {number(high, 2)})"
    digits = 3 if min(p, 1 - p) < 0.01 else 2  # near 0 or 1, two decimals would round to a bare 1.00 or 0.00
    return f"{p:.{digits}f} [{low:.{digits}f}, {high:.{digits}f}]"


def span(values: Any, digits: int = 3) -> str:
    """The range of some numbers, as 'a to b' (or one number when they are all equal)."""
    import numpy as np

    array = np.asarray(values, dtype=np.float64)
    low, high = number(np.nanmin(array), digits), number(np.nanmax(array), digits)
    return low if low == high else f"{low} to {high}"


def cases(count: int, total: int) -> str:
    """'count of total' (large numbers as :func:`size` writes them)."""
    return f"{size(count)} of {size(total)}"


def worst(rows: Any) -> str:
    """The smallest P(better strictly higher) of some pair-table rows, with its interval (never a bare 1)."""
    row = rows.sort_values(["p_better_low", "p_better"]).iloc[0]
    if row["p_better"] == 1:
        return f"won all {int(row['replicates'])} (Wilson lower bound {row['p_better_low']:.3f})"
    return "P = " + proportion(row["p_better"], row["p_better_low"], row["p_better_high"], int(row["replicates"]))


def labelled(results: Results, pattern: str, labels: Sequence[str]) -> Any:
    """The tables ``pattern.format(label)`` stacked, with a ``label`` column."""
    import pandas as pd

    return pd.concat([results.table(pattern.format(label)).assign(label=label) for label in labels], ignore_index=True)
