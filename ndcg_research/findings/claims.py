"""The findings: each text of ``texts/`` joined with its rule of :mod:`~ndcg_research.findings.rules`.

:data:`FINDINGS` lists them in page order; each is called with the committed tables
(:class:`~ndcg_research.findings.model.Results`) and returns a
:class:`~ndcg_research.findings.model.Finding`. A finding is also reachable by its rule's name
(``claims.queries_depend_on_discount(results)``), as notebook 07 calls it.

To add a finding: its text goes into its notebook's file ``texts/NN_notebook.toml`` and its rule (one
function, decorated with ``@rule("its-key")``) into that notebook's module of ``rules/``.
"""

from __future__ import annotations

from collections.abc import Callable

from .catalogue import Text, load_texts, make_finding
from .model import Finding, Results
from .rules import RULES
from .rules.base import Rule, recording

__all__ = ["FINDINGS", "Claim", "collect"]


class Claim:
    """One finding: its fixed text and its rule; calling it on the committed tables gives the :class:`Finding`."""

    def __init__(self, text: Text, rule: Rule) -> None:
        self.text, self.rule = text, rule
        self.key, self.__name__ = text.key, rule.__name__

    def __call__(self, results: Results) -> Finding:
        with recording() as used:
            measured = self.rule(results)
            finding = make_finding(self.text, measured.verdict, measured.values, measured.numbers)
        undeclared = sorted(used - set(self.text.thresholds))
        if undeclared:
            raise ValueError(f"finding {self.key!r} uses thresholds its text does not list ({self.text.notebook[:-6]}"
                             f".toml, thresholds = [...]): {undeclared}")
        return finding

    def __repr__(self) -> str:
        return f"Claim({self.key!r})"


def _claims() -> tuple[Claim, ...]:
    texts = load_texts()
    keys = {text.key for text in texts}
    if keys != set(RULES):
        raise ValueError(f"findings without a rule: {sorted(keys - set(RULES))}; "
                         f"rules without a text: {sorted(set(RULES) - keys)}")
    return tuple(Claim(text, RULES[text.key]) for text in texts)


#: The findings in page order.
FINDINGS: tuple[Callable[[Results], Finding], ...] = _claims()
_BY_NAME = {claim.__name__: claim for claim in FINDINGS if isinstance(claim, Claim)}


def __getattr__(name: str) -> Claim:
    """A finding by its rule's name (``claims.worked_example``)."""
    try:
        return _BY_NAME[name]
    except KeyError:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None


def collect(results: Results) -> list[Finding]:
    """Evaluate every finding on the committed tables.

    Examples
    --------
    >>> import tempfile
    >>> collect(Results(tempfile.mkdtemp()))
    Traceback (most recent call last):
    ...
    ndcg_research.findings.model.MissingTableError: table '01_worked_example.csv' is not in ...
    """
    return [finding(results) for finding in FINDINGS]
