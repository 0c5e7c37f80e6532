"""What a finding's rule returns, and the registry that joins each rule to its text by the finding's key."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

from ...stats import thresholds
from ..model import Results

__all__ = ["Measured", "Rule", "RULES", "rule", "threshold", "recording", "THRESHOLD_VALUES"]


@dataclass(frozen=True)
class Measured:
    """The outcome of a finding's rule on the committed tables.

    Attributes
    ----------
    verdict : str
        One of :data:`~ndcg_research.findings.model.VERDICTS`.
    values : mapping of str to object
        The quoted values by placeholder name, already formatted where the format is part of the
        value (counts, intervals, lists); the finding's texts place them with ``{name}``.
    numbers : mapping of str to float
        The quoted numbers by name (tests and the JSON output).
    """

    verdict: str
    values: Mapping[str, Any]
    numbers: Mapping[str, float] = field(default_factory=dict)


#: A finding's rule: the committed tables in, the quoted values and the verdict out.
Rule = Callable[[Results], Measured]

#: Every rule by the key of the finding it decides (filled by :func:`rule` as the modules load).
RULES: dict[str, Rule] = {}


def rule(key: str) -> Callable[[Rule], Rule]:
    """Register the decorated function as the rule of finding ``key`` (its text is in ``texts/``).

    Examples
    --------
    >>> @rule("doc-example")
    ... def example(results):
    ...     return Measured("holds", {"x": 1})
    >>> RULES["doc-example"] is example
    True
    >>> del RULES["doc-example"]
    """
    def register(function: Rule) -> Rule:
        if key in RULES:
            raise ValueError(f"two rules for finding {key!r}: {RULES[key].__name__} and {function.__name__}")
        RULES[key] = function
        return function

    return register


_USED: ContextVar[set[str] | None] = ContextVar("thresholds used by the finding being evaluated", default=None)


def threshold(name: str) -> Any:
    """The threshold ``name`` of ``stats/thresholds.toml``, noted as used by the finding being evaluated.

    Examples
    --------
    >>> with recording() as used:
    ...     threshold("cutoff_keeps_lower")
    0.9
    >>> used
    {'cutoff_keeps_lower'}
    """
    used = _USED.get()
    if used is not None:
        used.add(name)
    return thresholds.threshold(name)


@contextmanager
def recording() -> Iterator[set[str]]:
    """Collect the names of the thresholds read through :func:`threshold` inside the ``with`` block."""
    used: set[str] = set()
    token = _USED.set(used)
    try:
        yield used
    finally:
        _USED.reset(token)


class _Thresholds(Mapping[str, Any]):
    """The thresholds as a mapping for the texts' ``{T[name]}`` placeholders (each read is noted)."""

    def __getitem__(self, name: str) -> Any:
        return threshold(name)

    def __iter__(self) -> Iterator[str]:
        return iter(thresholds.THRESHOLDS)

    def __len__(self) -> int:
        return len(thresholds.THRESHOLDS)


#: The thresholds as the texts place them: ``{T[cutoff_keeps_lower]}``.
THRESHOLD_VALUES: Mapping[str, Any] = _Thresholds()
