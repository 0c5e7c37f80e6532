"""Notebook 09: the two stronger readings of consistent distinguishability."""

from __future__ import annotations

import numpy as np

from ...findings import Measured, Results, cases, labelled, number, proportion, span, threshold
from ...stats import wilson_interval


def failure_probability(results: Results) -> Measured:
    """Numbers and verdict of 'failure-probability' (text: ``findings.toml``)."""
    growth = results.table("09_growth.csv")
    per = growth.groupby("discount", sort=False).agg(
        fast=("vanishes_superpolynomially", "sum"),
        cases=("vanishes_superpolynomially", "size"),
        low=("exponent", "min"),
        high=("exponent", "max"),
    )
    log2 = growth[growth["discount"] == "log2"]
    summable = per.loc[[d for d in per.index if d.startswith(("power(beta=2", "geometric"))]]
    # A growing gap (interval of a above 0) is the premise of derivation (b)'s rate, which carries the claim.
    if len(log2) and bool(log2["vanishes_superpolynomially"].all()):
        verdict = "holds"
    elif (log2["exponent_high"] < 0).any() or not len(log2):
        verdict = "does not hold"
    else:
        verdict = "undecided"
    failure = labelled(results, "09_failure_{}.csv", ("uncertain", "certain"))
    n1 = int(failure["n"].max())
    end = failure[(failure["n"] == n1) & (failure["discount"] == "log2")]
    discounts = [
        {
            "discount": d,
            "fast": cases(int(r.fast), int(r.cases)),
            "exponent": f"{number(r.low, 2)} to {number(r.high, 2)}" if np.isfinite(r.low) else "undefined",
        }
        for d, r in per.iterrows()
    ]
    return Measured(
        verdict,
        {
            "n0": int(failure["n"].min()),
            "n1": n1,
            "discounts": discounts,
            "log2_failure": span(end["p_fail"], 4),
            "replicates": int(end["replicates"].iloc[0]),
            "fit_from": int(growth["n_from"].min()),
            "fit_to": int(growth["n_to"].max()),
            "points": int(growth["points"].max()),
            "log2_fast": cases(int(log2["vanishes_superpolynomially"].sum()), len(log2)),
            "summable_fast": cases(int(summable["fast"].sum()), int(summable["cases"].sum())),
        },
        {"log2_superpolynomial": float(log2["vanishes_superpolynomially"].sum())},
    )


def eventual_order(results: Results) -> Measured:
    """Numbers and verdict of 'eventual-order' (text: ``findings.toml``)."""
    changes = results.table("09_stream_changes.csv")  # n0: stream_settle_from of the stream, set by notebook 09
    changes = changes.assign(settled=changes["p_settled_low"] >= threshold("stream_settled_lower"))
    log2 = changes[changes["discount"] == "log2"]
    settled = int(log2["settled"].sum())
    # The share of streams with the better ranker ahead at their end, with its Wilson interval.
    ahead = [(r, *wilson_interval(round(r.p_better_last * r.streams), int(r.streams))) for r in log2.itertuples()]
    ahead_everywhere = bool(len(log2)) and all(low > threshold("chance_p") for _, low, _ in ahead)
    # A finite horizon cannot refute 'eventually': never 'does not hold'; 'holds' reads 'consistent with'.
    verdict = "holds" if ahead_everywhere and settled else "undecided"
    discounts = [
        {"discount": d, "settled": cases(int(g["settled"].sum()), len(g)), "share": span(g["p_settled"], 2)}
        for d, g in changes.groupby("discount", sort=False)
    ]
    return Measured(
        verdict,
        {
            "streams": int(changes["streams"].iloc[0]),
            "n_last": int(changes["n_last"].iloc[0]),
            "n_first": int(changes["n_first"].iloc[0]),
            "n0": int(changes["n0"].iloc[0]),
            "discounts": discounts,
            "change_median": span(log2["change_median"], 3),
            "change_q90": span(log2["change_q90"], 3),
            "log2_settled": cases(settled, len(log2)),
            "log2_share": span(log2["p_settled"], 2),
            "ahead": "; ".join(
                f"{r.label} top, {r.better} > {r.worse}: {proportion(r.p_better_last, low, high, int(r.streams))}"
                for r, low, high in ahead
            ),
            "ahead_short": "; ".join(
                dict.fromkeys(proportion(r.p_better_last, low, high, int(r.streams)) for r, low, high in ahead)
            ),
        },
        {"log2_settled": float(settled)},
    )
