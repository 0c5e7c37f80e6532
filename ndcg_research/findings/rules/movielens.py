"""Notebook 08: the questions of notebooks 03-05 on MovieLens-100k recommenders, and the tools' conventions.

The four ``*_findings`` functions turn the notebook's tables (as written, or read back from CSV) into the
quoted numbers and the verdicts of its questions; the notebook prints them for its own run and for the
committed full-profile tables, and the seven findings quote them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ...core.discounts import parse_discount
from ..model import Results, number, span
from .base import Measured, rule
from .shared import cases

__all__ = ["list_length_findings", "query_set_findings", "cutoff_findings", "convention_findings",
           "movielens_drift_together", "movielens_first_order", "movielens_differences_detectable",
           "movielens_fast_discounts_lose", "movielens_query_sets", "movielens_conventions", "movielens_cutoffs"]

SLOW = "slowly varying"
FAST = ("summable", "critical")


def _decay(discount: str) -> str:
    return parse_discount(discount, builtin_only=True).decay


def _drift(means: Any, gains: list[str], discounts: list[str], slow: list[str], n0: str, n1: str) -> tuple:
    """Spread (best minus worst ranker) at n0 and n1 per (gain, discount), and the slow cells where every
    ranker's mean rises and where the spread narrows."""
    def at(n: str, gain: str, d: str) -> Any:
        t = means[(means.list_length == n) & (means.gain == gain) & (means.discount == d)]
        return t.set_index("system")["mean"]

    spread, rising, narrowing = {}, [], []
    for gain in gains:
        for d in discounts:
            a, b = at(n0, gain, d), at(n1, gain, d)
            spread[(gain, d)] = (float(a.max() - a.min()), float(b.max() - b.min()))
            if d in slow and bool((b > a.reindex(b.index)).all()):
                rising.append((gain, d))
            if d in slow and spread[(gain, d)][1] < spread[(gain, d)][0]:
                narrowing.append((gain, d))
    return spread, rising, narrowing


def list_length_findings(means: Any, pairs: Any, first_order: Any, *, alpha: float = 0.05) -> dict[str, Any]:
    """Numbers and verdicts of the list-length question from its three tables.

    Rules: **1a** (drift together) holds if, for every slowly varying discount and gain, every ranker's mean
    rises and the spread (best minus worst ranker) narrows from ``n0``, the first list length at which every
    user's share of relevant items is kept, to the whole list (``n1``); with qualification if only the
    spread always narrows. The **first-order law** holds if, at ``n1``, each ranker's estimate of c under the
    slowest discount is within 20% of its estimate under ``log2``. **1b** holds if at ``n1`` the slowest
    discount finds at least as many significant pairs (Holm-adjusted p < alpha) as ``log2`` and the median
    ratio of |effect size| (pairs with |d_z| > 0.1 under log2) is at least 0.9. **1c** holds if ``zipf`` and
    the summable discounts find fewer significant pairs than ``log2`` at ``n1``.

    Returns
    -------
    dict
        ``n0``, ``n1``, ``slow`` and ``fast`` discounts, ``cells``, ``rising``, ``narrowing`` (lists of
        (gain, discount)), ``spread`` {(gain, discount): (at n0, at n1)}, ``c`` (DataFrame system x slow
        discount at n1, first gain), ``c_ratio`` (Series), ``significant`` {(n, discount): count, first
        gain}, ``dz_ratio`` (Series), ``verdicts`` {name: verdict}.
    """
    gains = list(dict.fromkeys(means["gain"]))
    discounts = list(dict.fromkeys(means["discount"]))
    lengths = list(dict.fromkeys(means["list_length"].astype(str)))
    means = means.assign(list_length=means["list_length"].astype(str))
    pairs = pairs.assign(list_length=pairs["list_length"].astype(str))
    first_order = first_order.assign(list_length=first_order["list_length"].astype(str))
    kept = means.groupby("list_length", sort=False)["users_with_share_kept"].first().reindex(lengths)
    n0 = next((n for n in lengths if kept[n] >= 0.999), lengths[-1])
    n1 = lengths[-1]
    slow = [d for d in discounts if _decay(d) == SLOW]
    fast = [d for d in discounts if _decay(d) in FAST]
    spread, rising, narrowing = _drift(means, gains, discounts, slow, n0, n1)
    cells = len(slow) * len(gains)
    fo = first_order[(first_order.list_length == n1) & (first_order.gain == gains[0])]
    systems = list(dict.fromkeys(fo["system"]))
    c = fo.pivot(index="system", columns="discount", values="c_estimate").reindex(index=systems, columns=slow)
    c_ratio = c[slow[-1]] / c["log2"]
    first_gain = pairs[pairs.gain == gains[0]]
    significant = {(n, d): int((first_gain[(first_gain.list_length == n) & (first_gain.discount == d)]
                                .pvalue_adjusted < alpha).sum()) for n in lengths for d in discounts}

    def dz(d: str) -> Any:
        t = first_gain[(first_gain.list_length == n1) & (first_gain.discount == d)]
        return t.set_index(["system_a", "system_b"])["effect_size"].abs()

    base = dz("log2")
    dz_ratio = (dz(slow[-1]) / base)[base > 0.1]
    verdicts = {
        "1a drift together (slowly varying)": "holds" if len(rising) == cells and len(narrowing) == cells else (
            "holds with qualification" if len(narrowing) == cells else "does not hold"),
        "1a first-order law": "holds" if c_ratio.between(1 / 1.2, 1.2).all() else "does not hold",
        "1b differences stay detectable": "holds" if (significant[(n1, slow[-1])] >= significant[(n1, "log2")]
                                                      and dz_ratio.median() >= 0.9) else "does not hold",
        "1c zipf/summable lose": "holds" if all(significant[(n1, d)] < significant[(n1, "log2")] for d in fast)
        else "does not hold",
    }
    return dict(n0=n0, n1=n1, slow=slow, fast=fast, gains=gains, discounts=discounts, lengths=lengths, cells=cells,
                rising=rising, narrowing=narrowing, spread=spread, c=c, c_ratio=c_ratio, significant=significant,
                dz_ratio=dz_ratio, verdicts=verdicts)


def query_set_findings(power: Any, *, near_users: int = 100) -> dict[str, Any]:
    """Numbers and verdict of the query-set question from its power table.

    Rule: at the user-set size nearest ``near_users``, with the power averaged over the gains, the claim
    holds if every slowly varying discount's power is at least ``log2``'s minus 0.05 and ``zipf`` and the
    summable discounts have a lower power than ``log2``.

    Returns
    -------
    dict
        ``users`` (the size used), ``power`` (Series by discount), ``best`` discount, ``verdict``.
    """
    discounts = list(dict.fromkeys(power["discount"]))
    sizes = sorted(set(power["users"]))
    users = min(sizes, key=lambda s: abs(s - near_users))
    p = power[power.users == users].groupby("discount")["power"].mean().reindex(discounts)
    slow = [d for d in discounts if _decay(d) == SLOW]
    fast = [d for d in discounts if _decay(d) in FAST]
    holds = all(p[d] >= p["log2"] - 0.05 for d in slow) and all(p[d] < p["log2"] for d in fast)
    return dict(users=users, power=p, best=str(p.idxmax()), verdict="holds" if holds else "does not hold")


def cutoff_findings(decisions: Any, *, small: Sequence[str] = ("5", "10")) -> dict[str, Any]:
    """Numbers and verdict of the cut-off question from its decisions table (column cutoff).

    Rule: holds if, for every gain, each small cut-off (@5, @10) finds fewer significant pairs than the whole
    list and at least one decision changes.

    Returns
    -------
    dict
        ``changed`` (decisions changed at the small cut-offs, summed over gains), ``significant``
        {(gain, cutoff): count}, ``reversed_significant`` (significant decisions reversed, all cut-offs),
        ``verdict``.
    """
    d = decisions.assign(cutoff=decisions["cutoff"].astype(str))
    significant = {(g, k): int(x) for g, k, x in d[["gain", "cutoff", "significant"]].itertuples(index=False)}
    gains = list(dict.fromkeys(d["gain"]))
    cond = all(significant[(g, k)] < significant[(g, "all")] for g in gains for k in small if (g, k) in significant)
    changed = int(d[d.cutoff.isin(list(small))]["decisions_changed"].sum())
    return dict(changed=changed, significant=significant,
                reversed_significant=int(d["significant_reversals"].sum()),
                verdict="holds" if cond and changed > 0 else "does not hold")


def convention_findings(decisions: Any, *, reference: str = "trec_eval", min_tau: float = 0.8) -> dict[str, Any]:
    """Numbers and verdict of the conventions question from its decisions table.

    Claim tested: the tools agree on which ranker is better and only the values differ. Rule: holds if no
    preset reverses a decision that is significant under the reference (``significant_reversals`` 0) and
    every Kendall tau against the reference's order is at least ``min_tau``.

    Returns
    -------
    dict
        ``max_shift`` (largest change of a mean over all presets and settings), ``reversing`` (DataFrame of
        the rows with a significant reversal or a low tau), ``verdict``.
    """
    d = decisions[decisions["convention"] != reference]
    bad = d[(d["significant_reversals"] > 0) | (d["kendall_tau_vs_reference"] < min_tau)]
    return dict(max_shift=float(d["max_mean_shift"].max()), reversing=bad,
                verdict="holds" if bad.empty else "does not hold")


# --------------------------------------------------------------------------- the findings


def _run(results: Results) -> dict[str, Any]:
    """The run's parameters as the shared description of the data quotes them."""
    params = results.record("08_movielens.json")["parameters"]
    return {"test_fraction": f"{params['test_fraction']:.0%}", "recommenders": len(params["rankers"]),
            "recommender_names": ", ".join(params["rankers"]), "seed": params["seed"]}


def _list_length(results: Results) -> dict[str, Any]:
    return list_length_findings(results.table("08_list_length_means.csv"), results.table("08_list_length_pairs.csv"),
                                results.table("08_list_length_first_order.csv"))


@rule("movielens-drift-together")
def movielens_drift_together(results: Results) -> Measured:
    f = _list_length(results)
    means = results.table("08_list_length_means.csv")
    g0 = f["gains"][0]
    failing = [f"{d} ({g})" for g in f["gains"] for d in f["slow"] if (g, d) not in f["rising"]]
    length = means[means["list_length"].astype(str) == f["n1"]]["mean_length"].iloc[0]
    return Measured(
        f["verdicts"]["1a drift together (slowly varying)"],
        {**_run(results), "n0": f["n0"], "length": number(length, 4), "rising": cases(len(f["rising"]), f["cells"]),
         "failing": f" (not in: {', '.join(failing)})" if failing else "",
         "narrowing": cases(len(f["narrowing"]), f["cells"]), "gain": g0,
         "spreads": [{"discount": d, "first": number(f["spread"][(g0, d)][0], 3),
                      "last": number(f["spread"][(g0, d)][1], 3)} for d in f["slow"]],
         "draws": results.record("08_movielens.json")["parameters"]["list_replicates"]},
        {"rising": float(len(f["rising"])), "narrowing": float(len(f["narrowing"])), "cells": float(f["cells"])},
    )


@rule("movielens-first-order")
def movielens_first_order(results: Results) -> Measured:
    f = _list_length(results)
    means = results.table("08_list_length_means.csv")
    first_order = results.table("08_list_length_first_order.csv")
    whole = first_order[first_order["list_length"].astype(str) == f["n1"]]
    eps = whole[whole["discount"] == "log2"]["eps"].iloc[0]
    share = means[means["list_length"].astype(str) == f["n1"]]["mean_share_relevant"].iloc[0]
    slowest = f["slow"][-1]
    return Measured(
        f["verdicts"]["1a first-order law"],
        {**_run(results), "gain": f["gains"][0], "c_log2": span(f["c"]["log2"], 3), "slowest": slowest,
         "c_slowest": span(f["c"][slowest], 3), "ratio": span(f["c_ratio"], 3),
         "expansion": number(eps * np.log(1 / share), 2)},
        {"c_ratio_min": float(f["c_ratio"].min()), "c_ratio_max": float(f["c_ratio"].max())},
    )


@rule("movielens-differences-detectable")
def movielens_differences_detectable(results: Results) -> Measured:
    f = _list_length(results)
    params = results.record("08_movielens.json")["parameters"]
    pairs = results.table("08_ranker_pairs.csv")
    g0, n1, slowest = f["gains"][0], f["n1"], f["slow"][-1]
    whole = pairs[(pairs["gain"] == g0) & (pairs["cutoff"].astype(str) == "all")]
    tied = whole[whole["pvalue_adjusted"] >= 0.05]
    return Measured(
        f["verdicts"]["1b differences stay detectable"],
        {**_run(results), "gain": g0, "rankers": len(params["rankers"]), "slowest": slowest,
         "log2_significant": f["significant"][(n1, "log2")], "slowest_significant": f["significant"][(n1, slowest)],
         "ratio_median": number(f["dz_ratio"].median(), 3), "ratio_range": span(f["dz_ratio"], 3),
         "tied": [{"a": r.system_a, "b": r.system_b, "difference": f"{r.difference:+.4f}",
                   "p": number(r.pvalue_adjusted, 2)} for r in tied.itertuples()],
         "pairs": len(whole)},
        {"dz_ratio_median": float(f["dz_ratio"].median())},
    )


@rule("movielens-fast-discounts-lose")
def movielens_fast_discounts_lose(results: Results) -> Measured:
    f = _list_length(results)
    params = results.record("08_movielens.json")["parameters"]
    n1 = f["n1"]
    return Measured(
        f["verdicts"]["1c zipf/summable lose"],
        {**_run(results), "gain": f["gains"][0], "rankers": len(params["rankers"]),
         "counts": [{"discount": d, "count": f["significant"][(n1, d)]} for d in f["discounts"]],
         "counts_short": [{"discount": d, "count": f["significant"][(n1, d)]} for d in f["discounts"]
                          if d in f["fast"] or d == "log2"]},
        {d: float(f["significant"][(n1, d)]) for d in f["discounts"]},
    )


@rule("movielens-query-sets")
def movielens_query_sets(results: Results) -> Measured:
    power = results.table("08_query_sets_power.csv")
    swaps = results.table("08_query_sets_swaps.csv")
    params = results.record("08_movielens.json")["parameters"]
    f = query_set_findings(power)
    smallest = swaps[swaps["size"] == swaps["size"].min()].groupby("discount", sort=False)["swap_rate"].mean()
    systems = len(params["rankers"]) + len(params["extra_rankers"])
    return Measured(
        f["verdict"],
        {**_run(results), "pairs": systems * (systems - 1) // 2, "systems": systems, "draws": params["power_draws"],
         "users": f["users"], "power": [{"discount": d, "value": number(x, 2)} for d, x in f["power"].items()],
         "best": f["best"], "swap_users": int(swaps["size"].min()),
         "swaps": [{"discount": d, "value": number(x, 2)} for d, x in smallest.items()],
         "log2_power": number(f["power"]["log2"], 2), "best_power": number(f["power"].max(), 2),
         "lowest": f["power"].idxmin(), "lowest_power": number(f["power"].min(), 2),
         "variants": len(params["extra_rankers"])},
        {d: float(x) for d, x in f["power"].items()},
    )


@rule("movielens-conventions")
def movielens_conventions(results: Results) -> Measured:
    decisions = results.table("08_conventions_decisions.csv")
    f = convention_findings(decisions)
    others = decisions[decisions["convention"] != "trec_eval"]
    reversing = sorted(set(others[others["significant_reversals"] > 0]["convention"]))
    depths = [{"depth": depth, "reversed": int(rows["significant_reversals"].sum()),
               "tau": number(rows["kendall_tau_vs_reference"].min(), 2),
               "shift": number(rows["max_mean_shift"].max(), 2)}
              for depth, rows in others.groupby(others["depth"].astype(str), sort=False)]
    return Measured(
        f["verdict"],
        {**_run(results), "depths": depths, "reversing": ", ".join(reversing) or "none",
         "low_tau": ", ".join(sorted(set(others[others["kendall_tau_vs_reference"] < 0.8]["convention"]))) or "none",
         "max_shift": number(f["max_shift"], 2)},
        {"max_shift": float(f["max_shift"]), "reversing_presets": float(len(reversing))},
    )


@rule("movielens-cutoffs")
def movielens_cutoffs(results: Results) -> Measured:
    decisions = results.table("08_cutoffs_decisions.csv")
    params = results.record("08_movielens.json")["parameters"]
    f = cutoff_findings(decisions)
    d = decisions.assign(cutoff=decisions["cutoff"].astype(str))
    g0 = d["gain"].iloc[0]
    first = d[d["gain"] == g0]
    return Measured(
        f["verdict"],
        {**_run(results), "pairs": int(first["pairs"].iloc[0]), "gain": g0,
         "counts": [{"cutoff": "whole list" if r.cutoff == "all" else f"@{r.cutoff}", "count": r.significant}
                    for r in first.itertuples()],
         "changed": f["changed"], "reversed": f["reversed_significant"],
         "taus": span(d[d["cutoff"].isin(["5", "10"])]["kendall_tau_vs_reference"], 2),
         "none_reversed": "; no significant decision reversed" if f["reversed_significant"] == 0 else "",
         "systems": len(params["rankers"]) + len(params["extra_rankers"])},
        {"changed": float(f["changed"]), "reversed_significant": float(f["reversed_significant"])},
    )
