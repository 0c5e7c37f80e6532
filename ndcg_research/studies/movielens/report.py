"""Notebook 08: its sections' items, in order: a sentence (``str``) or a table (``DataFrame``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from ...findings import threshold
from ...pipeline.tables import pivot, rounded
from . import experiment as rd

Item = str | pd.DataFrame


def rankers_items(table: pd.DataFrame, pairs: pd.DataFrame) -> list[Item]:
    """Per cut-off, the rankers' mean nDCG (log2) by gain as "mean [95% t interval]", the best first; then the pairs
    not significantly different (paired t, Holm, at the findings' significance level; first gain, whole list)."""
    table = table.assign(
        cutoff=table.cutoff.astype(str),
        cell=[f"{r.mean:.3f} [{r.ci_low:.3f},{r.ci_high:.3f}]" for r in table.itertuples()],
    )
    items: list[Item] = []
    for cutoff, t in table.groupby("cutoff", sort=False):
        order = t[t.gain == t.gain.iloc[0]].sort_values("mean", ascending=False, kind="stable")["system"]
        measure = "mean nDCG, whole list" if cutoff == "all" else f"mean nDCG@{cutoff}"
        items += [measure + " (log2) [95% t interval]:", pivot(t, "system", "gain", "cell").loc[order]]
    t = pairs[(pairs.gain == pairs.gain.iloc[0]) & (pairs.cutoff.astype(str) == "all")]
    level = threshold("significance_level")  # the findings' level, so that the two never drift apart
    tied = t[t.pvalue_adjusted >= level].itertuples()
    listed = ", ".join(f"{r.system_a} vs {r.system_b} ({r.difference:+.4f}, p = {r.pvalue_adjusted:.2f})" for r in tied)
    items.append(
        f"pairs not significantly different (paired t, Holm, {level:.0%}; gain {t.gain.iloc[0]}, whole list): "
        f"{listed or 'none'}"
    )
    return items


def list_length_info(problem: Any, lengths: Sequence[int | None], labels: Sequence[str]) -> pd.DataFrame:
    """The sampled lists by list length: their mean length, the mean share of relevant items, and the share of users
    whose share of test items is kept (at least one relevant item in the sample)."""
    share = problem.relevant_counts() / problem.lengths
    sizes = np.array([rd.list_lengths(problem, n) for n in lengths])  # (lengths, users)
    relevant = np.array([rd.relevant_in_lists(problem, n) for n in lengths])
    kept = np.rint(sizes * share) >= 1
    per_user = {"mean_length": sizes, "mean_share_relevant": relevant / sizes, "users_with_share_kept": kept}
    return pd.DataFrame({"list_length": list(labels)} | {k: v.mean(axis=1) for k, v in per_user.items()})


def list_length_items(f: Mapping[str, Any], means: pd.DataFrame, first_order: pd.DataFrame) -> list[Item]:
    """Question 1 (list length), with the verdicts ``f`` of :func:`.findings.list_length_findings`."""
    n0, n1, g0, slow = f["n0"], f["n1"], f["gains"][0], f["slow"]
    means = means.assign(list_length=means.list_length.astype(str))
    t = means[(means.gain == g0) & means.list_length.isin([n0, n1])]
    drift = pivot(t, ["discount", "list_length"], "system", "mean")
    drift = drift.reindex(pd.MultiIndex.from_product([f["discounts"], [n0, n1]], names=["discount", "n"]))
    drift["spread"] = [f["spread"][(g0, d)][0 if n == n0 else 1] for d, n in drift.index]
    failing = [f"{d} ({g})" for g in f["gains"] for d in slow if (g, d) not in f["rising"]]
    spread = pd.DataFrame({d: [f["spread"][(g, d)][1] for g in f["gains"]] for d in slow}, index=f["gains"])
    e = first_order[(first_order.list_length.astype(str) == n1) & (first_order.discount == "log2")]["eps"].iloc[0]
    share_n1 = means[means.list_length == n1]["mean_share_relevant"].iloc[0]
    counts = [[f["significant"][(n, d)] for n in f["lengths"]] for d in f["discounts"]]
    r = f["dz_ratio"]
    return [
        f"1a. mean nDCG (gain {g0}) at n = {n0}, the first length that keeps every user's share of test items, and at "
        f"the whole list (mean {means['mean_length'].iloc[-1]:.0f} items); spread = best - worst ranker",
        rounded(drift.rename(columns=lambda s: s.split("(")[0]), 3),
        f"slowly varying discount x gain cells: {f['cells']}; every ranker rises in {len(f['rising'])}"
        + (f" (not in: {', '.join(failing)})" if failing else "")
        + f"; the spread narrows in {len(f['narrowing'])}",
        "spread (best - worst ranker) at the whole list, slowly varying discounts:",
        rounded(spread.rename_axis(index="gain", columns="discount"), 3),
        f"first-order law at the whole list, c = mean over users of (1 - nDCG) / eps_D(n) (gain {g0}; equal across "
        f"the discounts if the law held):",
        rounded(f["c"], 2),
        f"c under {slow[-1]} / c under log2: {f['c_ratio'].min():.2f}-{f['c_ratio'].max():.2f}",
        f"size of the first-order expansion's parameter at the whole list, eps_log2(n) * ln(1/share): "
        f"{e * np.log(1 / share_n1):.2f} (small only for much longer lists or denser relevance)",
        f"1b/1c. pairs of rankers significantly different (paired t, Holm, 5%), gain {g0}, by list length n:",
        pd.DataFrame(counts, index=pd.Index(f["discounts"], name="discount"), columns=pd.Index(f["lengths"], name="n")),
        f"|d_z| under {slow[-1]} / under log2 at the whole list (pairs with |d_z| > 0.1 under log2): "
        f"median {r.median():.2f}, range {r.min():.2f}-{r.max():.2f}",
        *(f"verdict {k}: {w}" for k, w in f["verdicts"].items()),
    ]


def query_set_items(
    power: pd.DataFrame,
    swaps: pd.DataFrame,
    agreement: pd.DataFrame,
    gains: Sequence[str],
    discounts: Sequence[str],
    f: Mapping[str, Any],
) -> list[Item]:
    """Question 2 (query sets), with the verdict ``f`` of :func:`.findings.query_set_findings`."""

    def wide(t: pd.DataFrame, columns: str, values: str) -> pd.DataFrame:
        return t.pivot(index="discount", columns=columns, values=values).loc[list(discounts)]

    items: list[Item] = []
    for gain in gains:
        items += [f"discriminative power, gain {gain}:", rounded(wide(power[power.gain == gain], "users", "power"), 2)]
    if len(swaps):
        smallest = min(swaps["size"])
        table = wide(swaps[swaps["size"] == smallest], "gain", "swap_rate")[list(gains)]
        items += [f"swap rate between disjoint sets of {smallest} users:", rounded(table, 3)]
    return items + [
        f"Kendall tau of the systems' order against log2 with gain {gains[0]}:",
        rounded(wide(agreement, "gain", "kendall_tau")[list(gains)], 2),
        f"discriminative power at {f['users']} users, mean over the gains:",
        rounded(f["power"].rename("power").to_frame(), 2),
        f"verdict: {f['verdict']}; the most discriminating discount there: {f['best']}",
    ]


def convention_items(summary: pd.DataFrame, f: Mapping[str, Any]) -> list[Item]:
    """Question 3 (conventions): each preset against trec_eval, with the verdict ``f`` of
    :func:`.findings.convention_findings`."""
    columns = ["convention", "max_mean_shift", "orders_reversed", "decisions_changed", "significant_reversals"]
    columns.append("kendall_tau_vs_reference")
    items: list[Item] = []
    for (depth, measure), t in summary[summary.convention != "trec_eval"].groupby(["depth", "measure"], sort=False):
        table = t[columns].set_index("convention").rename(columns=lambda c: c.replace("_", " "))
        items += [f"{measure}, run files of depth {depth}: each preset against trec_eval", rounded(table, 3)]
    items.append(f"largest shift of a mean: {f['max_shift']:.3f}; verdict: {f['verdict']}")
    if not f["reversing"].empty:
        items.append(
            "presets that reverse a significant trec_eval decision or reorder the rankers (tau < 0.8): "
            + ", ".join(sorted(set(f["reversing"].convention)))
        )
    return items


def cutoff_items(summary: pd.DataFrame, f: Mapping[str, Any]) -> list[Item]:
    """Question 4 (cut-offs), with the verdict ``f`` of :func:`.findings.cutoff_findings`."""
    return [
        "each cut-off against the whole list (log2, paired t, Holm, 5%):",
        rounded(summary.set_index(["gain", "cutoff"]).rename(columns=lambda c: c.replace("_", " ")), 3),
        f"verdict: {f['verdict']}; decisions changed at @5 and @10 (summed over the gains): {f['changed']}; "
        f"significant decisions reversed at any cut-off: {f['reversed_significant']}",
    ]
