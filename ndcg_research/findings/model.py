"""A finding (claim, measurement, verdict, conditions, links) and the committed result tables it reads."""

from __future__ import annotations

import json
import math
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

__all__ = ["VERDICTS", "Finding", "Results", "MissingTableError", "number", "proportion", "span"]

#: The verdicts a finding may have: the claim as stated holds; holds only under stated conditions or with a
#: qualification the one-line claim lacks; is consistent with the measurements, which agree with it where they
#: reach while the claim goes beyond them (a limit as n grows, a rate) through an extrapolation or a model
#: assumption they cannot check; does not hold; or the measurements cannot decide it. A claim about
#: n -> infinity checked at finite n is at most "consistent with" (``limit = true`` in its text).
VERDICTS: tuple[str, ...] = ("holds", "holds with qualification", "consistent with", "does not hold", "undecided")


class MissingTableError(FileNotFoundError):
    """A finding needs a committed table that does not exist (run the full profile first)."""


@dataclass(frozen=True)
class Finding:
    """One claim with the measurement that tests it.

    Attributes
    ----------
    key : str
        Stable identifier (a slug), also the Markdown anchor.
    title : str
        Short name of the claim.
    claim : str
        What is claimed, as its source states it.
    source : str
        Who claims it: the source article, Wang et al. (2013), or this package's own derivation.
    measurement : str
        What was measured and the numbers, computed from the tables.
    summary : str
        The measurement in one short line, for the README's table.
    verdict : str
        One of :data:`VERDICTS`.
    conditions : str
        Under which conditions the verdict holds (models, n, discounts, replicates).
    figures : tuple of str
        Figure names in ``figures/``.
    tables : tuple of str
        Table file names in ``results/full/``.
    notebooks : tuple of str
        The notebooks (file names in ``notebooks/``) that make the tables and figures.
    numbers : dict of str to float
        The quoted numbers by name (for tests and the JSON output).
    rule : str
        The verdict rule in words.
    thresholds : tuple of str
        The names of the rule's thresholds in ``ndcg_research/stats/thresholds.toml``.
    attribution : str
        For a claim taken from Wang et al. (2013), whose abstract only could be read: which words of the
        abstract it tests and what this package added to make them testable (empty otherwise).
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

    def __post_init__(self) -> None:
        if self.verdict not in VERDICTS:
            raise ValueError(f"verdict of finding {self.key!r} must be one of {VERDICTS}, got {self.verdict!r}")


class Results:
    """The committed result tables of one profile (default ``results/full``), each read once.

    Tables are read with :func:`ndcg_research.studies.runtime.tables.read_table`, so every column
    keeps the type it was written with (its ``.dtypes.json`` must be beside it).

    Parameters
    ----------
    folder : path
        The folder holding the CSV tables the notebooks wrote.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> from ndcg_research.studies.runtime.tables import write_table
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> _ = write_table([{"label": "007", "mean": 0.5}], folder / "t.csv")
    >>> table = Results(folder).table("t.csv")
    >>> table["label"].tolist(), table["mean"].tolist()
    (['007'], [0.5])
    """

    def __init__(self, folder: str | os.PathLike[str]) -> None:
        self.folder = Path(folder)
        self._cache: dict[str, Any] = {}

    def table(self, name: str) -> Any:
        """The table ``name`` as a pandas DataFrame (raises :class:`MissingTableError` if absent)."""
        from ..studies.runtime.tables import read_table

        return self._load(name, "table", read_table)

    def record(self, name: str) -> Any:
        """The JSON file ``name`` (a notebook's summary, with its parameters), parsed.

        Raises :class:`MissingTableError` if absent.

        Examples
        --------
        >>> import json, tempfile, pathlib
        >>> folder = pathlib.Path(tempfile.mkdtemp())
        >>> _ = (folder / "s.json").write_text(json.dumps({"parameters": {"seed": 7}}))
        >>> Results(folder).record("s.json")["parameters"]["seed"]
        7
        """
        return self._load(name, "record", lambda path: json.loads(path.read_text(encoding="utf-8")))

    def _load(self, name: str, kind: str, read: Any) -> Any:
        """``read(path)`` of the file ``name``, once; a missing file says how to write it."""
        if name not in self._cache:
            path = self.folder / name
            if not path.is_file():
                raise MissingTableError(
                    f"{kind} {name!r} is not in {str(self.folder)!r}; run the full profile "
                    f"(python3 tasks.py reproduce) to write it"
                )
            self._cache[name] = read(path)
        return self._cache[name]


def number(value: float, digits: int = 3) -> str:
    """Format a quoted number: ``digits`` significant digits, no sign on a zero, 'n/a' for NaN.

    Examples
    --------
    >>> number(0.12345), number(-0.0), number(float("nan")), number(1234567.0, 2)
    ('0.123', '0', 'n/a', '1.2e+06')
    """
    value = float(value)
    if math.isnan(value):
        return "n/a"
    if value == 0:
        return "0"
    return f"{value:.{digits}g}"


def proportion(p: float, low: float, high: float, trials: int | None = None) -> str:
    """A proportion with its 95% interval; a proportion of 1 (or 0) is given with its bound, never as a bare 1.00.

    Examples
    --------
    >>> proportion(0.734, 0.71, 0.76)
    '0.73 [0.71, 0.76]'
    >>> proportion(1.0, 0.9261, 1.0, 50)
    'all 50 (>= 0.926)'
    >>> proportion(0.0, 0.0, 0.0038, 1000)
    'none of 1000 (<= 0.0038)'
    >>> proportion(0.997, 0.991, 0.999)
    '0.997 [0.991, 0.999]'
    """
    if p == 1 and trials is not None:
        return f"all {trials} (>= {low:.3f})"
    if p == 0 and trials is not None:
        return f"none of {trials} (<= {number(high, 2)})"
    digits = 3 if min(p, 1 - p) < 0.01 else 2   # near 0 or 1, two decimals would round to a bare 1.00 or 0.00
    return f"{p:.{digits}f} [{low:.{digits}f}, {high:.{digits}f}]"


def span(values: Any, digits: int = 3) -> str:
    """The range of some numbers, as 'a to b' (or one number when they are all equal).

    Examples
    --------
    >>> span([0.12, 0.3, 0.25]), span([2.0, 2.0])
    ('0.12 to 0.3', '2')
    """
    import numpy as np

    array = np.asarray(values, dtype=np.float64)
    low, high = number(np.nanmin(array), digits), number(np.nanmax(array), digits)
    return low if low == high else f"{low} to {high}"
