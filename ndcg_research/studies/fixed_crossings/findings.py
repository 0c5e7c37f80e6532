"""Notebook 12: fixed rankers whose order depends on the discount, and how different two rankers must be."""

from __future__ import annotations

import math

import numpy as np

from ...findings import Measured, Results, labelled, number, threshold

LABELS = ("certain", "uncertain")


def fixed_crossings_finite_n(results: Results) -> Measured:
    """Numbers and verdict of 'fixed-crossings-finite-n' (text: ``findings.toml``)."""
    agreement = results.table("12_agreement.csv")
    # Both thresholds were applied by the notebook's agreement table (far from a crossing; decided).
    threshold("crossing_far_factor")
    threshold("majority_share")
    judged = agreement[agreement["far"] & agreement["decided"]]
    agree, decided = int(judged["agrees"].sum()), len(judged)
    rival = agreement["second"].iloc[0]
    crossings = results.table("12_crossings.csv")
    rows = crossings[crossings["second"] == rival]
    found = rows[rows["crossing_n"].notna()]
    misses = decided - agree
    allowed = threshold("fixed_crossings_miss_share") * decided
    verdict = "holds" if misses == 0 else "holds with qualification" if misses <= allowed else "does not hold"
    return Measured(
        verdict,
        {
            "rival": rival,
            "crossings": ", ".join(f"{r.discount} {int(r.crossing_n)}" for r in found.itertuples()) or "none",
            "never": ", ".join(rows[rows["crossing_n"].isna()]["discount"]) or "no discount",
            "n_theory": int(rows["n_max"].max()),
            "agree": agree,
            "decided": decided,
            "n_max": int(agreement["n"].max()),
            "undecided": int((agreement["far"] & ~agreement["decided"]).sum()),
        },
        {"agree": float(agree), "decided": float(decided)},
    )


def slow_discounts_agree_asymptotically(results: Results) -> Measured:
    """Numbers and verdict of 'slow-discounts-agree-asymptotically' (text: ``findings.toml``)."""
    asymptotic = results.table("12_asymptotic.csv")
    threshold("majority_share")  # applied by the notebook's asymptotic table
    judged = asymptotic[asymptotic["first_order_winner"] != ""]
    agree = int(judged["agrees"].sum())
    contradict = int(((judged["majority"] != "undecided") & (judged["agrees"] == 0)).sum())
    verdict = "does not hold" if contradict else "holds" if agree == len(judged) else "undecided"
    cells = [
        {
            "label": label,
            "picks": "; ".join(f"{r.discount} {r.majority} ({r.first_order_winner})" for r in rows.itertuples()),
        }
        for label, rows in judged.groupby("label", sort=False)
    ]
    return Measured(
        verdict,
        {
            "n_max": int(asymptotic["n"].max()),
            "cells": cells,
            "agree": agree,
            "judged": len(judged),
            "contradict": contradict,
        },
        {"agree": float(agree), "judged": float(len(judged)), "contradict": float(contradict)},
    )


def how_different(results: Results) -> Measured:
    """Numbers and verdict of 'how-different' (text: ``findings.toml``)."""
    first_order, crossings = results.table("12_first_order.csv"), results.table("12_crossings.csv")
    log2 = crossings[crossings["discount"] == "log2"].merge(
        first_order[["second", "delta_c", "second_order_log_n"]], on="second"
    )
    usable = log2[log2["crossing_n"].notna() & log2["second_order_log_n"].notna()].sort_values("second_order_log_n")
    near = usable.tail(3)
    slope = (
        float(np.polyfit(near["second_order_log_n"], np.log(near["crossing_n"]), 1)[0]) if len(near) >= 2 else math.nan
    )
    factor = threshold("law_slope_factor")
    threshold("reliable_lower")  # applied by the notebook's reliable-n tables
    verdict = "undecided" if not math.isfinite(slope) else "holds" if 1 / factor <= slope <= factor else "does not hold"
    reliable = labelled(results, "12_reliable_{}.csv", LABELS)
    cells = []
    for label, rows in reliable.groupby("label", sort=False):
        rows = rows.sort_values("delta_c")
        cells.append(
            {
                "label": label,
                "cells": ", ".join(
                    f"{abs(r.delta_c):.3f} -> "
                    + (f"n = {int(r.n_reliable)}" if math.isfinite(r.n_reliable) else "not reached")
                    for r in rows.itertuples()
                ),
            }
        )
    return Measured(
        verdict,
        {
            "crossings": [{"dc": f"{abs(r.delta_c):.4f}", "n_c": int(r.crossing_n)} for r in usable.itertuples()],
            "slope": number(slope, 3),
            "reliable": cells,
            "n_max": int(results.table("12_agreement.csv")["n"].max()),
            "n_c_low": int(usable["crossing_n"].min()) if len(usable) else 0,
            "n_c_high": int(usable["crossing_n"].max()) if len(usable) else 0,
        },
        {"slope": slope},
    )
