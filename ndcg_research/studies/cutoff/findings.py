"""Notebook 05: nDCG@k with a fixed, a growing and a proportional cut-off."""

from __future__ import annotations

import pandas as pd

from ...findings import Measured, Results, cases, number, span

#: The slowly varying discounts of the theory notebooks, fastest first.
SLOW = ("log2", "logpower(gamma=0.5)", "loglog")


def _count(rows: pd.DataFrame, word: str) -> int:
    return int((rows["verdict"] == word).sum())


def fixed_cutoff(results: Results) -> Measured:
    """Numbers and verdict of 'fixed-cutoff' (text: ``findings.toml``)."""
    verdicts = results.table("05_cutoff_verdicts.csv")
    rule_kind = verdicts["rule"].str.extract(r"^(\w+)")[0]
    fixed, fraction, root = (verdicts[rule_kind == kind] for kind in ("fixed", "fraction", "power"))
    slow_fraction = fraction[fraction["discount"].isin(SLOW)]
    verdict = "does not hold" if _count(fixed, "keeps") == 0 else "holds with qualification"
    return Measured(
        verdict,
        {
            "n_last": int(verdicts["n_last"].max()),
            "replicates": int(verdicts["replicates"].iloc[0]),
            "family": number(verdicts["family_confidence"].iloc[0], 4),
            "cells": len(verdicts),
            "fixed_keeps": _count(fixed, "keeps"),
            "fixed_loses": _count(fixed, "loses"),
            "fixed_undecided": _count(fixed, "undecided"),
            "fixed_cells": len(fixed),
            "ties": span(fixed[fixed["model"] == "probit"]["p_tie_last"], 2),
            "fraction_keeps": _count(slow_fraction, "keeps"),
            "fraction_cells": len(slow_fraction),
            "root": [
                {"model": m, "keeps": _count(g, "keeps"), "cells": len(g)} for m, g in root.groupby("model", sort=False)
            ],
            "totals": [
                {"verdict": k, "count": v} for k, v in sorted(verdicts["verdict"].value_counts().to_dict().items())
            ],
        },
        {"fixed_keeps": float(_count(fixed, "keeps")), "fixed_loses": float(_count(fixed, "loses"))},
    )


def ndcg_at_k_not_monotone(results: Results) -> Measured:
    """Numbers and verdict of 'ndcg-at-k-not-monotone' (text: ``findings.toml``)."""
    curves = results.table("05_ndcg_by_k.csv")
    curves_text, dips = [], 0
    groups = list(curves.groupby(["model", "ranker"], sort=False))
    for (model, ranker), rows in groups:
        rows = rows.sort_values("k")
        low = rows.iloc[int(rows["mean"].to_numpy().argmin())]
        # A dip: the minimum's interval lies below the intervals of both k = 1 and k = n.
        dips += bool(low["ci_high"] < rows.iloc[0]["ci_low"] and low["ci_high"] < rows.iloc[-1]["ci_low"])
        curves_text.append(
            {
                "model": model,
                "ranker": ranker,
                "first": number(rows.iloc[0]["mean"], 3),
                "low": number(low["mean"], 3),
                "k": int(low["k"]),
                "last": number(rows.iloc[-1]["mean"], 3),
            }
        )
    return Measured(
        "holds" if dips else "does not hold",
        {
            "n": int(curves["n"].iloc[0]),
            "replicates": int(curves["replicates"].iloc[0]),
            "curves": curves_text,
            "dips": cases(dips, len(groups)),
        },
        {"dips": float(dips)},
    )
