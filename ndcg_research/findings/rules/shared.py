"""Helpers the rules of several notebooks share: stacking per-model tables, counts, the weakest pair."""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from ..model import Results, proportion

__all__ = ["THEORY_MODELS", "SLOW", "labelled", "cases", "worst"]

#: Model labels of the theory notebooks' tables (03, 04).
THEORY_MODELS = ("certain", "uncertain", "graded")
#: The slowly varying discounts of the theory notebooks, fastest first.
SLOW = ("log2", "logpower(gamma=0.5)", "loglog")


def labelled(results: Results, pattern: str, labels: Sequence[str]) -> pd.DataFrame:
    """The tables ``pattern.format(label)`` stacked, with a ``label`` column."""
    return pd.concat([results.table(pattern.format(label)).assign(label=label) for label in labels], ignore_index=True)


def cases(count: int, total: int) -> str:
    """'count of total'.

    Examples
    --------
    >>> cases(3, 4)
    '3 of 4'
    """
    return f"{count} of {total}"


def worst(rows: pd.DataFrame) -> str:
    """The smallest P(better strictly higher) of some pair-table rows, with its interval (never a bare 1)."""
    row = rows.sort_values(["p_better_low", "p_better"]).iloc[0]
    if row["p_better"] == 1:
        return f"won all {int(row['replicates'])} (Wilson lower bound {row['p_better_low']:.3f})"
    return "P = " + proportion(row["p_better"], row["p_better_low"], row["p_better_high"], int(row["replicates"]))
