"""A finding (claim, measurement, verdict, conditions, links) and the committed result tables it reads."""

from __future__ import annotations

import math
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

__all__ = ["VERDICTS", "Finding", "Results", "MissingTableError", "number"]

#: The verdicts a finding may have: the claim as stated holds, holds only under stated
#: conditions or with a qualification the one-line claim lacks, or does not hold.
VERDICTS: tuple[str, ...] = ("holds", "holds with qualification", "does not hold")


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
    verdict : str
        One of :data:`VERDICTS`.
    conditions : str
        Under which conditions the verdict holds (models, n, discounts, replicates).
    figures : tuple of str
        Figure names in ``figures/``.
    tables : tuple of str
        Table file names in ``results/full/``.
    numbers : dict of str to float
        The quoted numbers by name (for tests and the JSON output).
    """

    key: str
    title: str
    claim: str
    source: str
    measurement: str
    verdict: str
    conditions: str
    figures: tuple[str, ...] = ()
    tables: tuple[str, ...] = ()
    numbers: dict[str, float] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.verdict not in VERDICTS:
            raise ValueError(f"verdict of finding {self.key!r} must be one of {VERDICTS}, got {self.verdict!r}")


class Results:
    """The committed result tables of one profile (default ``results/full``), read once each with pandas.

    Parameters
    ----------
    folder : path
        The folder holding the CSV tables the notebooks wrote.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (folder / "t.csv").write_text("n,mean\\n10,0.5\\n")
    >>> Results(folder).table("t.csv")["mean"].tolist()
    [0.5]
    """

    def __init__(self, folder: str | os.PathLike[str]) -> None:
        self.folder = Path(folder)
        self._cache: dict[str, Any] = {}

    def table(self, name: str) -> Any:
        """The table ``name`` as a pandas DataFrame (raises :class:`MissingTableError` if absent)."""
        if name not in self._cache:
            import pandas as pd

            path = self.folder / name
            if not path.is_file():
                raise MissingTableError(
                    f"table {name!r} is not in {str(self.folder)!r}; run the full profile "
                    f"(python3 tasks.py reproduce) to write it"
                )
            self._cache[name] = pd.read_csv(path, keep_default_na=False, na_values=[""])
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
