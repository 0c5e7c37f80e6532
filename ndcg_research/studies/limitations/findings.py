"""Notebook 06: the source article's three limitations of nDCG, measured."""

from __future__ import annotations

import pandas as pd

from ...findings import Measured, Results, cases, number, proportion


def appending_nonrelevant(results: Results) -> Measured:
    """Numbers and verdict of 'appending-nonrelevant' (text: ``findings.toml``)."""
    row = results.table("06_appending.csv").iloc[0]
    return Measured(
        "holds" if int(row["lowered"]) == 0 else "does not hold",
        {"lowered": cases(int(row["lowered"]), int(row["cases"])), "changed": int(row["changed"])},
        {"lowered": float(row["lowered"])},
    )


def truncation(results: Results) -> Measured:
    """Numbers and verdict of 'truncation' (text: ``findings.toml``)."""
    table = results.table("06_truncation.csv").set_index("convention")
    own = table.loc["own ideal, whole list"]
    common = table.loc["all judgments, @k"]
    verdict = (
        "holds with qualification"
        if own["p_short_geq_long"] > 0 and common["p_short_gt_long"] == 0
        else "holds"
        if own["p_short_geq_long"] > 0
        else "does not hold"
    )
    return Measured(
        verdict,
        {
            "own_geq": number(own["p_short_geq_long"], 3),
            "own_gt": number(own["p_short_gt_long"], 3),
            "common_gt": number(common["p_short_gt_long"], 3),
        },
        {"own_geq": float(own["p_short_geq_long"])},
    )


def _ahead(row: pd.Series) -> str:
    return proportion(row["p_novel_ahead"], row["low"], row["high"], int(row["collections"]))


def pooling_bias(results: Results) -> Measured:
    """Numbers and verdict of 'pooling-bias' (text: ``findings.toml``)."""
    bias = results.table("06_pooling_bias.csv")
    order = results.table("06_pooling_order.csv")
    main = bias[~bias["novel_pooled"]]
    systems = list(dict.fromkeys(main["system"]))
    novel, best = systems[-1], systems[0]
    shallow, deep = int(main["depth"].min()), int(main["depth"].max())

    def at(depth: int, system: str) -> pd.Series:
        return main[(main["depth"] == depth) & (main["system"] == system) & (main["method"] == "unjudged = 0")].iloc[0]

    nov, nov_deep, pooled_up = at(shallow, novel), at(deep, novel), at(shallow, best)
    flip = order[(order["depth"] == shallow) & (order["method"] == "unjudged = 0")].iloc[0]
    true = order[(order["depth"] == shallow) & (order["method"] == "true")].iloc[0]
    under = nov["high"] < 0
    flipped = (flip["high"] < 0.5 < true["low"]) or (true["high"] < 0.5 < flip["low"])
    verdict = "holds with qualification" if under and pooled_up["low"] > 0 else "holds" if under else "does not hold"
    return Measured(
        verdict,
        {
            "collections": int(nov["collections"]),
            "shallow": shallow,
            "deep": deep,
            "bias": number(nov["bias"], 3),
            "bias_low": number(nov["low"], 3),
            "bias_high": number(nov["high"], 3),
            "bias_deep": number(nov_deep["bias"], 2),
            "pooled_up": number(pooled_up["bias"], 3),
            "bias_short": number(nov["bias"], 2),
            "flipped": _ahead(flip),
            "truly": _ahead(true),
            "order": "order flipped" if flipped else "order not shown to flip (95% intervals)",
        },
        {"novel_bias_shallow": float(nov["bias"])},
    )
