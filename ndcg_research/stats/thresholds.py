"""The thresholds of every verdict rule, read from one committed file (``thresholds.toml``).

A verdict ("holds", "keeps", "agrees", ...) turns measured numbers into words by comparing them
with a threshold (or by sorting cells into named classes). Each threshold lives in
:file:`ndcg_research/stats/thresholds.toml` with the rule it belongs to and when it was fixed (before
the runs that judge it, together with their first outputs, or after seeing which data), so that a
finding can say which of its thresholds were chosen after looking. The file is read once.

Examples
--------
>>> from ndcg_research.stats.thresholds import threshold, THRESHOLDS
>>> threshold("wilson_sure_lower")
0.99
>>> THRESHOLDS["tie_share"].fixed
'after seeing data'
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path

from .._validation import check_instance

__all__ = ["Threshold", "THRESHOLDS", "FIXED_WHEN", "threshold"]

#: When a threshold was fixed: before any run that judges it; in the commit that holds the first outputs
#: of those runs (the history cannot show which came first); or after seeing data.
FIXED_WHEN: tuple[str, ...] = ("before the runs", "with the first run", "after seeing data")


@dataclass(frozen=True)
class Threshold:
    """One threshold of a verdict rule.

    Attributes
    ----------
    name : str
        Its key in ``thresholds.toml``.
    value : float, int or tuple of str
        The threshold, or the names of the classes a rule singles out.
    rule : str
        What it decides, in words.
    fixed : str
        One of :data:`FIXED_WHEN`.
    fixed_note : str
        The evidence for ``fixed``: which data had been seen (required unless ``"before the runs"``).
    """

    name: str
    value: float | tuple[str, ...]
    rule: str
    fixed: str
    fixed_note: str = ""


def _value(value: object) -> float | tuple[str, ...] | None:
    """The entry's value if it is a number (not a bool) or a non-empty list of names, else None."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return value
    if isinstance(value, list) and value and all(isinstance(v, str) for v in value):
        return tuple(value)
    return None


def _load(path: Path) -> dict[str, Threshold]:
    """Parse and check ``thresholds.toml``: every entry has a number (or names), a rule and a known ``fixed``."""
    entries = tomllib.loads(path.read_text(encoding="utf-8"))
    loaded = {}
    for name, entry in entries.items():
        unknown = set(entry) - {"value", "rule", "fixed", "fixed_note"}
        value = _value(entry.get("value"))
        if unknown or value is None:
            raise ValueError(f"{path}: entry {name!r} needs a numeric 'value' (or a list of names) and no other keys "
                             f"than value, rule, fixed, fixed_note; got {sorted(entry)}")
        if entry.get("fixed") not in FIXED_WHEN:
            raise ValueError(f"{path}: entry {name!r}: 'fixed' must be one of {FIXED_WHEN}, got {entry.get('fixed')!r}")
        if entry["fixed"] != "before the runs" and not entry.get("fixed_note"):
            raise ValueError(f"{path}: entry {name!r} was fixed {entry['fixed']!r}: say which in 'fixed_note'")
        loaded[name] = Threshold(name=name, value=value, rule=str(entry.get("rule", "")),
                                 fixed=entry["fixed"], fixed_note=str(entry.get("fixed_note", "")))
    return loaded


#: Every threshold by name, read from ``thresholds.toml`` beside this module.
THRESHOLDS: dict[str, Threshold] = _load(Path(__file__).with_name("thresholds.toml"))


def threshold(name: str) -> float | tuple[str, ...]:
    """The value of the threshold ``name``.

    Parameters
    ----------
    name : str
        A key of ``thresholds.toml``.

    Returns
    -------
    float, int or tuple of str
        The threshold, as written in the file (a list of names as a tuple).

    Raises
    ------
    KeyError
        If no threshold has that name (the message lists the names).

    Examples
    --------
    >>> threshold("cutoff_keeps_lower"), threshold("cutoff_loses_upper")
    (0.9, 0.6)
    >>> threshold("movielens_small_cutoffs")
    ('5', '10')
    """
    check_instance(name, "name", str)
    try:
        return THRESHOLDS[name].value
    except KeyError:
        raise KeyError(f"no threshold named {name!r}; known: {', '.join(sorted(THRESHOLDS))}") from None
