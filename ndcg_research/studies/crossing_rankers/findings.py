"""Notebook 10: rankers whose gain profiles cross, so that the better one depends on the discount and on n."""

from __future__ import annotations

import pandas as pd

from ...findings import Measured, Results, labelled, proportion


def _first_label(results: Results) -> pd.DataFrame:
    """10_crossings.csv for its first model label (the crossings do not depend on it)."""
    crossings = results.table("10_crossings.csv")
    return crossings[crossings["label"] == crossings["label"].iloc[0]]


def crossing_winner(results: Results) -> Measured:
    """Numbers and verdict of 'crossing-winner' (text: ``findings.toml``)."""
    first = _first_label(results)
    heads, ranges = [], []
    for head, rows in first.groupby("first", sort=False):
        rows = rows.sort_values("crossing_n")
        found, missing = rows[rows["crossing_n"].notna()], rows[rows["crossing_n"].isna()]
        heads.append(
            {
                "head": head,
                "second": rows["second"].iloc[0],
                "crossings": ", ".join(f"{r.discount} {int(r.crossing_n)}" for r in found.itertuples()),
                "none": f"; no crossing up to n = {int(rows['n_max'].iloc[0])} for {', '.join(missing['discount'])}"
                if len(missing)
                else "",
            }
        )
        ranges.append(
            {
                "head": head,
                "low": int(rows["crossing_n"].min()),
                "high": int(rows["crossing_n"].max()),
                "none": f", none for {', '.join(missing['discount'])}" if len(missing) else "",
            }
        )
    distinct = first.groupby("first")["crossing_n"].apply(lambda c: c.nunique(dropna=False) > 1).all()
    return Measured(
        "holds" if distinct and first["first_ahead_below"].all() else "does not hold",
        {"heads": heads, "ranges": ranges},
        {f"{r.first} {r.discount}": float(r.crossing_n) for r in first.itertuples()},
    )


def slower_discounts_reverse(results: Results) -> Measured:
    """Numbers and verdict of 'slower-discounts-reverse' (text: ``findings.toml``)."""
    first = _first_label(results)
    bands = []
    for head, rows in first.groupby("first", sort=False):
        rows = rows.set_index("discount")
        slow = [d for d in ("logpower(gamma=0.5)", "loglog") if d in rows.index]
        bands.append(
            {
                "head": head,
                "log2": int(rows.loc["log2", "crossing_n"]),
                "slow": ", ".join(f"{d} {int(rows.loc[d, 'crossing_n'])}" for d in slow),
            }
        )
    decisions = labelled(results, "10_decisions_{}.csv", ("certain", "uncertain"))
    decay = decisions["discount"].map(first.drop_duplicates("discount").set_index("discount")["decay"])
    other = decisions[decisions["discount"] != "log2"].assign(decay=decay)
    worst_rows = other.loc[other.groupby("decay")["p_differs"].idxmax()].set_index("decay")
    worst = worst_rows["p_differs"]

    def share(decay: str) -> str:
        if decay not in worst_rows.index:
            return "n/a"
        r = worst_rows.loc[decay]
        if r["p_differs"] == 1:
            return f"all {int(r['replicates'])} (Wilson lower bound {r['p_differs_low']:.3f})"
        return proportion(r["p_differs"], r["p_differs_low"], r["p_differs_high"], int(r["replicates"]))

    slow_max, fast_max = worst.get("slowly varying", 0.0), worst.get("summable", 0.0)
    verdict = "does not hold" if slow_max == 0 else "holds with qualification" if slow_max < fast_max else "holds"
    return Measured(
        verdict,
        {
            "bands": bands,
            "shares": ", ".join(f"{k} {share(k)}" for k in worst.index),
            "slow_share": share("slowly varying"),
            "summable_share": share("summable"),
            "n_max": int(decisions["n"].max()),
        },
        {"slow_max": float(slow_max), "summable_max": float(fast_max)},
    )
