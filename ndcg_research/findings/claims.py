"""The findings, one function each: read the committed tables, compute the quoted numbers, decide.

Each function takes :class:`~ndcg_research.findings.model.Results` and returns a
:class:`~ndcg_research.findings.model.Finding`. :data:`FINDINGS` lists them in the order
the page shows them. A verdict is decided by a rule written in the function (fixed
before looking at the numbers), never typed.
"""

from __future__ import annotations

from collections.abc import Callable

from .model import Finding, Results

__all__ = ["FINDINGS", "collect"]

#: The findings in page order.
FINDINGS: tuple[Callable[[Results], Finding], ...] = ()


def collect(results: Results) -> list[Finding]:
    """Evaluate every finding on the committed tables."""
    return [finding(results) for finding in FINDINGS]
