"""What a finding's rule returns, and the registry that joins each rule to its text by the finding's key."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..model import Results

__all__ = ["Measured", "Rule", "RULES", "rule"]


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
