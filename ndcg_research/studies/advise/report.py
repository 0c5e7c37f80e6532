"""Notebook 14's short tables (views of :attr:`ndcg_research.advice.Advice.table`, which its appendix shows whole)
and the record of a run (what :func:`ndcg_research.advise` said, for the findings)."""

from __future__ import annotations

from typing import Any

import pandas as pd

from ...pipeline.tables import headed, pivot

#: The columns of a candidate, in words.
COLUMNS = {
    "discount": "discount",
    "gain": "gain",
    "pairs_significant": "pairs told apart",
    "power": "power",
    "phi": "Phi",
    "swap_rate": "swap rate",
    "queries_for_swap_target": "users for the target swap rate",
    "tau_log2": "tau vs log2",
    "shortlisted": "shortlisted",
    "recommended": "recommended",
}


def pairs_grid(table: pd.DataFrame) -> pd.DataFrame:
    """Pairs of systems told apart: one row per discount, one column per (gain, cut-off), in the table's order."""
    grid = table.assign(cutoff=["whole" if c == "none" else f"@{c}" for c in table["cutoff"]])
    return pivot(grid, "discount", ["gain", "cutoff"], "pairs_significant")


def candidates(table: pd.DataFrame, cutoff: str = "none") -> pd.DataFrame:
    """The candidates of one cut-off (default the whole run file), their measurements in words."""
    digits = {"phi": 4, "swap_rate": 3, "queries_for_swap_target": 0, "tau_log2": 2}
    return headed(table[table["cutoff"] == cutoff], COLUMNS, digits=digits, index=("discount", "gain"))


def record(advice: Any) -> dict[str, Any]:
    """What the findings read of one :class:`~ndcg_research.advice.Advice`."""
    return {
        "systems": list(advice.systems),
        "users": int(advice.n_queries),
        "swap_set_size": int(advice.swap_curves["size"].max()),
        "alpha": float(advice.settings["alpha"]),
        "recommended": advice.recommended,
        "by_cutoff": dict(advice.by_cutoff),
    }
