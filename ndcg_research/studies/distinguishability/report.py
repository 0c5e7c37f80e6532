"""Notebook 04 (distinguishability): its tables to read and its derived result tables, from the stacked pair tables."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from ...core import parse_discount
from ...findings import threshold
from ...pipeline.tables import chance_level, count_cells, headed, pivot, rounded, value_range

MODEL, PAIR, N = "model", "pair (better > worse)", "list length n"


def _p_grid(rows: pd.DataFrame, columns: str, name: str) -> pd.DataFrame:
    """P(better strictly higher) as counts, chance cells marked: one row per (model, pair), a column per ``columns``."""
    cells = count_cells(rows, "p_better", flag=chance_level(rows, "p_better", family=len(rows)))
    return pivot(rows.assign(cell=cells), ["label", "pair"], columns, "cell").rename_axis(
        index=[MODEL, PAIR], columns=name
    )


def log2_table(compared: pd.DataFrame, discount: str = "log2") -> pd.DataFrame:
    """P(better ranker scores strictly higher) under ``discount``: one row per (model, pair), one column per n."""
    return _p_grid(compared[compared["discount"] == discount], "n", N)


def sure_from(compared: pd.DataFrame, discount: str = "log2") -> pd.DataFrame:
    """Per model: the smallest n from which every pair is certain (Wilson lower bound at least ``wilson_sure_lower``,
    where there are ``wilson_sure_min_replicates`` data sets): the rule of the findings' log2 verdict."""
    lower, enough = threshold("wilson_sure_lower"), threshold("wilson_sure_min_replicates")
    out = {}
    for label, rows in compared[compared["discount"] == discount].groupby("label", sort=False):
        eligible = rows[rows["replicates"] >= enough]
        ns = sorted(eligible["n"].unique())
        sure = [n for n in ns if (eligible[eligible["n"] >= n]["p_better_low"] >= lower).all()]
        out[label] = {
            "every pair certain from n": sure[0] if sure else "no n of this run",
            f"largest n with at least {enough} data sets": ns[-1] if ns else "none",
        }
    return pd.DataFrame.from_dict(out, orient="index").rename_axis(MODEL)


def slow_table(compared: pd.DataFrame, n: int, slow: Sequence[str]) -> pd.DataFrame:
    """At list length ``n``: the mean gap and the standardized gap of each pair under each slowly varying discount."""
    rows = compared[(compared["n"] == n) & compared["discount"].isin(slow)]
    parts = {
        "mean gap (nDCG)": rounded(pivot(rows, ["label", "pair"], "discount", "mean_gap"), 4),
        "standardized gap (mean / sd)": rounded(pivot(rows, ["label", "pair"], "discount", "std_gap"), 2),
    }
    return pd.concat(parts, axis=1).rename_axis([MODEL, PAIR])


def gap_ratios(results: Mapping[str, Any], slow: Sequence[str], n: int, *, seed: int, n_resamples: int) -> pd.DataFrame:
    """Bootstrap ratios of the mean and the standardized gap under each slower discount to ``log2`` at ``n``."""
    rows = []
    for label, result in results.items():
        for other in [d for d in slow if d != "log2"] if "log2" in slow else []:
            for statistic in ("mean_gap", "std_gap"):
                t = result.ratio_table(other, "log2", statistic=statistic, seed=seed, n_resamples=n_resamples)
                rows.append(t[t["n"] == n].assign(label=label))
    return pd.concat(rows, ignore_index=True) if rows else pd.DataFrame()


def ratio_summary(ratios: pd.DataFrame) -> pd.DataFrame:
    """Per (slower discount, statistic): the ratios' range and where their 95% intervals lie against 1."""
    names = {"mean_gap": "mean gap", "std_gap": "standardized gap"}
    out = {}
    for (other, statistic), rows in ratios.groupby(["numerator", "statistic"], sort=False):
        above, below = int((rows["ratio_low"] > 1).sum()), int((rows["ratio_high"] < 1).sum())
        out[(f"{other} / log2", names.get(statistic, statistic))] = {
            "range over the cells": f"{rows['ratio'].min():.2f} to {rows['ratio'].max():.2f}",
            "interval above 1": above,
            "interval below 1": below,
            "interval contains 1": len(rows) - above - below,
            "cells (model, pair)": len(rows),
        }
    return pd.DataFrame.from_dict(out, orient="index").rename_axis(["ratio", "of the"])


def gap_theory_summary(gaps: pd.DataFrame, n: int, slow: Sequence[str]) -> pd.DataFrame:
    """At ``n``, per (model, slowly varying discount): the mean gap against the first-order and finite-n predictions."""
    rows = gaps[(gaps["n"] == n) & gaps["discount"].isin(slow)]
    out = {}
    for key, part in rows.groupby(["label", "discount"], sort=False):
        first, finite = part["mean_gap"] / part["first_order_gap"], part["mean_gap"] / part["finite_n_gap"]
        inside = int(((part["finite_n_gap"] - part["mean_gap"]).abs() <= part["gap_ci_half"]).sum())
        out[key] = {
            "simulated / first order": f"{first.min():.3f} to {first.max():.3f}",
            "simulated / finite-n theory": f"{finite.min():.3f} to {finite.max():.3f}",
            "finite-n theory inside the 95% interval": f"{inside} of {len(part)}",
        }
    return pd.DataFrame.from_dict(out, orient="index").rename_axis([MODEL, "discount"])


def fast_discount_table(
    compared: pd.DataFrame,
    labels: Sequence[str],
    pairs: Sequence[Sequence[str]],
    discounts: Sequence[str],
    n0: int,
    n1: int,
) -> pd.DataFrame:
    """The result table ``04_fast_discounts.csv``: per (model, pair, discount) the probabilities at n0 and n1."""
    keys = ["label", "pair", "discount"]
    order = pd.MultiIndex.from_product([list(labels), [f"{b} > {w}" for b, w in pairs], list(discounts)], names=keys)
    start, end = (compared[compared["n"] == n].set_index(keys).reindex(order) for n in (n0, n1))
    return pd.DataFrame(
        {
            "p_n0": start["p_better"],
            "p_n1": end["p_better"],
            "p_n1_ci": [
                f"[{low:.2f},{high:.2f}]" for low, high in zip(end["p_better_low"], end["p_better_high"], strict=True)
            ],
            "tie_n1": end["p_tie"],
            "worse_n1": end["p_worse"],
            "std_gap_n0": start["std_gap"],
            "std_gap_n1": end["std_gap"],
        }
    ).reset_index()


def fast_p_table(compared: pd.DataFrame, n: int, discounts: Sequence[str]) -> pd.DataFrame:
    """P(better ranker scores strictly higher) at ``n`` per (model, pair) and discount, chance cells marked."""
    rows = compared[(compared["n"] == n) & compared["discount"].isin(discounts)]
    return _p_grid(rows, "discount", f"discount (n = {n})")


def fast_class_summary(fast: pd.DataFrame, replicates: int) -> pd.DataFrame:
    """Per (model, class of discount) of :func:`fast_discount_table`: the ranges of P(correct) (wins out of
    ``replicates``), ties, wins of the worse ranker and standardized gap."""
    summary = fast.assign(decay=fast["discount"].map(lambda d: parse_discount(d).decay))
    wins = fast["p_n1"].to_numpy(dtype=float) * replicates
    if not np.allclose(wins, np.round(wins)):
        raise ValueError(f"p_n1 must be shares of {replicates} data sets")
    summary["wins"] = np.round(wins).astype(int)
    out = {}
    for key, rows in summary.groupby(["label", "decay"], sort=False):
        low, high = rows["wins"].min(), rows["wins"].max()
        out[key] = {
            "P(correct) at n1, wins": f"{low}/{replicates}" + ("" if low == high else f" to {high}/{replicates}"),
            "exact ties at n1": value_range(rows["tie_n1"], 2),
            "worse ranker wins at n1": value_range(rows["worse_n1"], 2),
            "standardized gap at n0": value_range(rows["std_gap_n0"], 2),
            "standardized gap at n1": value_range(rows["std_gap_n1"], 2),
        }
    return pd.DataFrame.from_dict(out, orient="index").rename_axis([MODEL, "class of discount"])


def tail_gap(gap: np.ndarray, what: str) -> str:
    """One sentence on the size of paired gaps: their median and largest absolute value."""
    size = np.abs(np.asarray(gap, dtype=float))
    return f"{what}: median |gap| {np.median(size):.1e}, largest {size.max():.1e}"


def full_profile_table(pairs: pd.DataFrame, discount: str = "log2") -> pd.DataFrame:
    """Per model, the full profile's ``discount`` numbers: P at the smallest n, certainty, the largest n."""
    sure = sure_from(pairs, discount)
    out = {}
    for label, rows in pairs[pairs["discount"] == discount].groupby("label", sort=False):
        first, last = rows[rows["n"] == rows["n"].min()], rows[rows["n"] == rows["n"].max()]
        out[label] = {
            f"smallest P at n = {int(first['n'].iloc[0])}": f"{first['p_better'].min():.2f}",
            "every pair certain from n": sure.loc[label, "every pair certain from n"],
            f"weakest Wilson lower bound at n = {int(last['n'].iloc[0])} (data sets)": (
                f"{last['p_better_low'].min():.3f} ({int(last['replicates'].min())})"
            ),
            "standardized gap there": value_range(last["std_gap"], 0),
        }
    return pd.DataFrame.from_dict(out, orient="index").rename_axis(MODEL)


#: The pair tables' columns, in words, for the appendix.
PAIR_COLUMNS = {
    "label": MODEL,
    "pair": PAIR,
    "discount": "discount",
    "n": N,
    "replicates": "data sets",
    "p_better": "P(better higher)",
    "p_better_low": "Wilson low",
    "p_better_high": "Wilson high",
    "p_tie": "P(exact tie)",
    "p_worse": "P(worse higher)",
    "mean_gap": "mean gap",
    "std_gap": "standardized gap",
}
#: The gap-against-theory tables' columns, in words, for the appendix.
GAP_COLUMNS = {k: PAIR_COLUMNS[k] for k in ("label", "pair", "discount", "mean_gap")} | {
    "gap_ci_half": "95% CI half-width",
    "first_order_gap": "first-order gap",
    "finite_n_gap": "finite-n theory gap",
    "gap_over_eps": "gap / eps_D(n)",
    "c_difference": "c_worse - c_better",
}
#: :func:`fast_discount_table`'s columns, in words, for the appendix.
FAST_COLUMNS = {k: PAIR_COLUMNS[k] for k in ("label", "pair", "discount")} | {
    "p_n0": "P(correct) at n0",
    "p_n1": "P(correct) at n1",
    "p_n1_ci": "Wilson 95% at n1",
    "tie_n1": "P(exact tie) at n1",
    "worse_n1": "P(worse higher) at n1",
    "std_gap_n0": "standardized gap at n0",
    "std_gap_n1": "standardized gap at n1",
}


def appendix_pairs(compared: pd.DataFrame) -> pd.DataFrame:
    """Every (model, pair, discount, n) cell of the stacked pair tables, columns in words."""
    digits = {"mean_gap": 5, "std_gap": 2}
    return headed(compared, PAIR_COLUMNS, digits, index=["label", "pair", "n"])


def appendix_gaps(gaps: pd.DataFrame, n: int, slow: Sequence[str]) -> pd.DataFrame:
    """The gap-against-theory rows at ``n`` under the slowly varying discounts, columns in words."""
    rows = gaps[(gaps["n"] == n) & gaps["discount"].isin(slow)]
    return headed(rows, GAP_COLUMNS, {c: 5 for c in GAP_COLUMNS}, index=["label", "pair", "discount"])


def appendix_fast(fast: pd.DataFrame) -> pd.DataFrame:
    """:func:`fast_discount_table`, columns in words."""
    return headed(fast, FAST_COLUMNS, {"std_gap_n0": 2, "std_gap_n1": 2}, index=["label", "pair", "discount"])


def compare_pairs_with_theory(pair_table: pd.DataFrame, theory_table: pd.DataFrame) -> pd.DataFrame:
    """Mean gaps next to their finite-n theory and, for slowly varying discounts (else NaN), ``eps_D(n) (c_worse -
    c_better)`` and the gap rescaled by ``eps_D(n)``."""
    merged = pair_table
    for name in ("better", "worse"):
        names = {"ranker": name, "finite_n": f"finite_{name}", "c": f"c_{name}"}
        side = theory_table[["discount", "ranker", "n", "finite_n", "c"]].rename(columns=names)
        merged = merged.merge(side, on=["discount", name, "n"])
    slow = merged["decay"] == "slowly varying"
    c_difference = (merged["c_worse"] - merged["c_better"]).where(slow)
    out = merged[["model", "discount", "decay", "better", "worse", "n", "mean_gap"]].copy()
    out["gap_ci_half"] = (merged["gap_ci_high"] - merged["gap_ci_low"]) / 2
    out["finite_n_gap"] = merged["finite_better"] - merged["finite_worse"]
    out["first_order_gap"] = merged["eps"] * c_difference
    out["gap_over_eps"] = (merged["mean_gap"] / merged["eps"]).where(slow)
    out["c_difference"] = c_difference
    return out
