"""Notebook 08: the questions of notebooks 03-05 on MovieLens-100k recommenders, and the tools' conventions.

The four ``*_findings`` functions turn the notebook's tables (as written, or read from CSV) into the numbers and
verdicts of its questions, which the notebook prints and the seven findings quote.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cached_property
from typing import Any

import numpy as np

from ...core import parse_discount
from ...findings import Measured, Results, cases, number, span, threshold

SLOW = "slowly varying"


def _decay(discount: str) -> str:
    return parse_discount(discount, builtin_only=True).decay


class ListLength:
    """The list-length question on its three tables; each number and verdict is computed, and its thresholds
    (``findings.toml``) read, only when asked for, so a finding names only those it uses.

    ``n0`` is the first list length at which (nearly) every user's share of relevant items is kept
    (``movielens_share_kept``), ``n1`` the whole list. The rules are the ``rule`` texts of ``findings.toml``: 1a
    movielens-drift-together and movielens-first-order, 1b movielens-differences-detectable, 1c
    movielens-fast-discounts-lose.
    """

    def __init__(self, means: Any, pairs: Any, first_order: Any, *, alpha: float | None = None) -> None:
        self.alpha = alpha
        self.gains = list(dict.fromkeys(means["gain"]))
        self.discounts = list(dict.fromkeys(means["discount"]))
        self.lengths = list(dict.fromkeys(means["list_length"].astype(str)))
        self.means = means.assign(list_length=means["list_length"].astype(str))
        self.pairs = pairs.assign(list_length=pairs["list_length"].astype(str))
        self.first_order = first_order.assign(list_length=first_order["list_length"].astype(str))
        self.n1 = self.lengths[-1]
        self.slow = [d for d in self.discounts if _decay(d) == SLOW]
        self.cells = len(self.slow) * len(self.gains)

    @cached_property
    def n0(self) -> str:
        kept = self.means.groupby("list_length", sort=False)["users_with_share_kept"].first().reindex(self.lengths)
        return next((n for n in self.lengths if kept[n] >= threshold("movielens_share_kept")), self.lengths[-1])

    @cached_property
    def fast(self) -> list[str]:
        return [d for d in self.discounts if _decay(d) in threshold("movielens_fast_decays")]

    def _at(self, n: str, gain: str, d: str) -> Any:
        m = self.means
        return m[(m.list_length == n) & (m.gain == gain) & (m.discount == d)].set_index("system")["mean"]

    @cached_property
    def drift(self) -> tuple[dict, list, list]:
        """Spread (best minus worst ranker) at n0 and n1 per (gain, discount); the slow cells where every
        ranker's mean rises, and where the spread narrows."""
        spread, rising, narrowing = {}, [], []
        for gain in self.gains:
            for d in self.discounts:
                a, b = self._at(self.n0, gain, d), self._at(self.n1, gain, d)
                spread[(gain, d)] = (float(a.max() - a.min()), float(b.max() - b.min()))
                if d in self.slow and bool((b > a.reindex(b.index)).all()):
                    rising.append((gain, d))
                if d in self.slow and spread[(gain, d)][1] < spread[(gain, d)][0]:
                    narrowing.append((gain, d))
        return spread, rising, narrowing

    @cached_property
    def c(self) -> Any:
        fo = self.first_order[(self.first_order.list_length == self.n1) & (self.first_order.gain == self.gains[0])]
        systems = list(dict.fromkeys(fo["system"]))
        return fo.pivot(index="system", columns="discount", values="c_estimate").reindex(
            index=systems, columns=self.slow
        )

    @property
    def c_ratio(self) -> Any:
        return self.c[self.slow[-1]] / self.c["log2"]

    @cached_property
    def significant(self) -> dict[tuple[str, str], int]:
        alpha = threshold("significance_level") if self.alpha is None else self.alpha
        first = self.pairs[self.pairs.gain == self.gains[0]]
        return {
            (n, d): int((first[(first.list_length == n) & (first.discount == d)].pvalue_adjusted < alpha).sum())
            for n in self.lengths
            for d in self.discounts
        }

    @cached_property
    def dz_ratio(self) -> Any:
        first = self.pairs[(self.pairs.gain == self.gains[0]) & (self.pairs.list_length == self.n1)]

        def dz(d: str) -> Any:
            return first[first.discount == d].set_index(["system_a", "system_b"])["effect_size"].abs()

        base = dz("log2")
        return (dz(self.slow[-1]) / base)[base > threshold("movielens_effect_min")]

    def drift_verdict(self) -> str:
        _, rising, narrowing = self.drift
        if len(rising) == self.cells and len(narrowing) == self.cells:
            return "holds"
        return "holds with qualification" if len(narrowing) == self.cells else "does not hold"

    def first_order_verdict(self) -> str:
        factor = threshold("first_order_factor")
        return "holds" if self.c_ratio.between(1 / factor, factor).all() else "does not hold"

    def detectable_verdict(self) -> str:
        n1, sig = self.n1, self.significant
        if sig[(n1, "log2")] == 0:  # a small collection: no significant pair under log2, nothing to stay detectable
            return "undecided"
        return (
            "holds"
            if sig[(n1, self.slow[-1])] >= sig[(n1, "log2")]
            and self.dz_ratio.median() >= threshold("movielens_effect_ratio")
            else "does not hold"
        )

    def fast_verdict(self) -> str:
        sig = self.significant
        return "holds" if all(sig[(self.n1, d)] < sig[(self.n1, "log2")] for d in self.fast) else "does not hold"


def list_length_findings(means: Any, pairs: Any, first_order: Any, *, alpha: float | None = None) -> dict[str, Any]:
    """Numbers and verdicts of the list-length question from its three tables (rules: :class:`ListLength`).

    Returns dict: ``n0``, ``n1``, ``slow`` and ``fast`` discounts, ``cells``, ``rising``, ``narrowing`` (lists of
    (gain, discount)), ``spread`` {(gain, discount): (at n0, at n1)}, ``c`` (DataFrame system x slow discount at n1,
    first gain), ``c_ratio`` (Series), ``significant`` {(n, discount): count, first gain}, ``dz_ratio`` (Series),
    ``verdicts`` {name: verdict}.
    """
    q = ListLength(means, pairs, first_order, alpha=alpha)
    spread, rising, narrowing = q.drift
    verdicts = {
        "1a drift together (slowly varying)": q.drift_verdict(),
        "1a first-order law": q.first_order_verdict(),
        "1b differences stay detectable": q.detectable_verdict(),
        "1c zipf/summable lose": q.fast_verdict(),
    }
    return dict(
        n0=q.n0,
        n1=q.n1,
        slow=q.slow,
        fast=q.fast,
        gains=q.gains,
        discounts=q.discounts,
        lengths=q.lengths,
        cells=q.cells,
        rising=rising,
        narrowing=narrowing,
        spread=spread,
        c=q.c,
        c_ratio=q.c_ratio,
        significant=q.significant,
        dz_ratio=q.dz_ratio,
        verdicts=verdicts,
    )


def query_set_findings(power: Any, *, near_users: int | None = None) -> dict[str, Any]:
    """Numbers and verdict of the query-set question from its power table.

    Rule: at the user-set size nearest ``near_users``, with the power averaged over the gains, the claim
    holds if every slowly varying discount's power is at least ``log2``'s minus 0.05 and ``zipf`` and the
    summable discounts have a lower power than ``log2`` (100, 0.05 and the fast classes: ``findings.toml``).

    Returns dict: ``users`` (the size used), ``power`` (Series by discount), ``best`` discount, ``verdict``.
    """
    near_users = threshold("movielens_near_users") if near_users is None else near_users
    discounts = list(dict.fromkeys(power["discount"]))
    sizes = sorted(set(power["users"]))
    users = min(sizes, key=lambda s: abs(s - near_users))
    p = power[power.users == users].groupby("discount")["power"].mean().reindex(discounts)
    slow = [d for d in discounts if _decay(d) == SLOW]
    fast = [d for d in discounts if _decay(d) in threshold("movielens_fast_decays")]
    margin = threshold("movielens_power_margin")
    holds = all(p[d] >= p["log2"] - margin for d in slow) and all(p[d] < p["log2"] for d in fast)
    return dict(users=users, power=p, best=str(p.idxmax()), verdict="holds" if holds else "does not hold")


def cutoff_findings(decisions: Any, *, small: Sequence[str] | None = None) -> dict[str, Any]:
    """Numbers and verdict of the cut-off question from its decisions table (column cutoff).

    Rule: holds if, for every gain, each small cut-off (@5, @10) finds fewer significant pairs than the whole
    list and at least one decision changes (``small``: ``movielens_small_cutoffs`` of ``findings.toml``).

    Returns dict: ``changed`` (decisions changed at the small cut-offs, summed over gains), ``significant`` {(gain,
    cutoff): count}, ``reversed_significant`` (significant decisions reversed, all cut-offs), ``verdict``.
    """
    small = threshold("movielens_small_cutoffs") if small is None else small
    d = decisions.assign(cutoff=decisions["cutoff"].astype(str))
    significant = {(g, k): int(x) for g, k, x in d[["gain", "cutoff", "significant"]].itertuples(index=False)}
    gains = list(dict.fromkeys(d["gain"]))
    cond = all(significant[(g, k)] < significant[(g, "all")] for g in gains for k in small if (g, k) in significant)
    changed = int(d[d.cutoff.isin(list(small))]["decisions_changed"].sum())
    return dict(
        changed=changed,
        significant=significant,
        reversed_significant=int(d["significant_reversals"].sum()),
        verdict="holds" if cond and changed > 0 else "does not hold",
    )


def convention_findings(
    decisions: Any, *, reference: str = "trec_eval", min_tau: float | None = None
) -> dict[str, Any]:
    """Numbers and verdict of the conventions question (the tools agree on which ranker is better, only the values
    differ) from its decisions table. Rule: holds if no preset reverses a decision significant under the reference
    and every Kendall tau against the reference's order is at least ``min_tau`` (``convention_min_tau``).

    Returns dict: ``max_shift`` (largest change of a mean over all presets and settings), ``reversing`` (DataFrame of
    the rows with a significant reversal or a low tau), ``verdict``.
    """
    min_tau = threshold("convention_min_tau") if min_tau is None else min_tau
    d = decisions[decisions["convention"] != reference]
    bad = d[(d["significant_reversals"] > 0) | (d["kendall_tau_vs_reference"] < min_tau)]
    return dict(
        max_shift=float(d["max_mean_shift"].max()), reversing=bad, verdict="holds" if bad.empty else "does not hold"
    )


def _run(results: Results) -> dict[str, Any]:
    """The run's parameters as the shared description of the data quotes them."""
    params = results.record("08_movielens.json")["parameters"]
    return {
        "test_fraction": f"{params['test_fraction']:.0%}",
        "recommenders": len(params["rankers"]),
        "recommender_names": ", ".join(params["rankers"]),
        "seed": params["seed"],
    }


def _list_length(results: Results) -> ListLength:
    return ListLength(
        results.table("08_list_length_means.csv"),
        results.table("08_list_length_pairs.csv"),
        results.table("08_list_length_first_order.csv"),
    )


def movielens_drift_together(results: Results) -> Measured:
    """Numbers and verdict of 'movielens-drift-together' (text: ``findings.toml``)."""
    q = _list_length(results)
    spread, rising, narrowing = q.drift
    means = results.table("08_list_length_means.csv")
    g0 = q.gains[0]
    failing = [f"{d} ({g})" for g in q.gains for d in q.slow if (g, d) not in rising]
    length = means[means["list_length"].astype(str) == q.n1]["mean_length"].iloc[0]
    return Measured(
        q.drift_verdict(),
        {
            **_run(results),
            "n0": q.n0,
            "length": number(length, 4),
            "rising": cases(len(rising), q.cells),
            "failing": f" (not in: {', '.join(failing)})" if failing else "",
            "narrowing": cases(len(narrowing), q.cells),
            "gain": g0,
            "spreads": [
                {"discount": d, "first": number(spread[(g0, d)][0], 3), "last": number(spread[(g0, d)][1], 3)}
                for d in q.slow
            ],
            "draws": results.record("08_movielens.json")["parameters"]["list_replicates"],
        },
        {"rising": float(len(rising)), "narrowing": float(len(narrowing)), "cells": float(q.cells)},
    )


def movielens_first_order(results: Results) -> Measured:
    """Numbers and verdict of 'movielens-first-order' (text: ``findings.toml``)."""
    q = _list_length(results)
    means = results.table("08_list_length_means.csv")
    first_order = results.table("08_list_length_first_order.csv")
    whole = first_order[first_order["list_length"].astype(str) == q.n1]
    eps = whole[whole["discount"] == "log2"]["eps"].iloc[0]
    share = means[means["list_length"].astype(str) == q.n1]["mean_share_relevant"].iloc[0]
    slowest = q.slow[-1]
    return Measured(
        q.first_order_verdict(),
        {
            **_run(results),
            "gain": q.gains[0],
            "c_log2": span(q.c["log2"], 3),
            "slowest": slowest,
            "c_slowest": span(q.c[slowest], 3),
            "ratio": span(q.c_ratio, 3),
            "expansion": number(eps * np.log(1 / share), 2),
        },
        {"c_ratio_min": float(q.c_ratio.min()), "c_ratio_max": float(q.c_ratio.max())},
    )


def movielens_differences_detectable(results: Results) -> Measured:
    """Numbers and verdict of 'movielens-differences-detectable' (text: ``findings.toml``)."""
    q = _list_length(results)
    params = results.record("08_movielens.json")["parameters"]
    pairs = results.table("08_ranker_pairs.csv")
    g0, n1, slowest = q.gains[0], q.n1, q.slow[-1]
    whole = pairs[(pairs["gain"] == g0) & (pairs["cutoff"].astype(str) == "all")]
    tied = whole[whole["pvalue_adjusted"] >= threshold("significance_level")]
    return Measured(
        q.detectable_verdict(),
        {
            **_run(results),
            "gain": g0,
            "rankers": len(params["rankers"]),
            "slowest": slowest,
            "log2_significant": q.significant[(n1, "log2")],
            "slowest_significant": q.significant[(n1, slowest)],
            "ratio_median": number(q.dz_ratio.median(), 3),
            "ratio_range": span(q.dz_ratio, 3),
            "tied": [
                {
                    "a": r.system_a,
                    "b": r.system_b,
                    "difference": f"{r.difference:+.4f}",
                    "p": number(r.pvalue_adjusted, 2),
                }
                for r in tied.itertuples()
            ],
            "pairs": len(whole),
        },
        {"dz_ratio_median": float(q.dz_ratio.median())},
    )


def movielens_fast_discounts_lose(results: Results) -> Measured:
    """Numbers and verdict of 'movielens-fast-discounts-lose' (text: ``findings.toml``)."""
    q = _list_length(results)
    params = results.record("08_movielens.json")["parameters"]
    counts = [{"discount": d, "count": q.significant[(q.n1, d)]} for d in q.discounts]
    return Measured(
        q.fast_verdict(),
        {
            **_run(results),
            "gain": q.gains[0],
            "rankers": len(params["rankers"]),
            "counts": counts,
            "counts_short": [c for c in counts if c["discount"] in q.fast or c["discount"] == "log2"],
        },
        {c["discount"]: float(c["count"]) for c in counts},
    )


def movielens_query_sets(results: Results) -> Measured:
    """Numbers and verdict of 'movielens-query-sets' (text: ``findings.toml``)."""
    power = results.table("08_query_sets_power.csv")
    swaps = results.table("08_query_sets_swaps.csv")
    params = results.record("08_movielens.json")["parameters"]
    f = query_set_findings(power)
    smallest = swaps[swaps["size"] == swaps["size"].min()].groupby("discount", sort=False)["swap_rate"].mean()
    systems = len(params["rankers"]) + len(params["extra_rankers"])
    return Measured(
        f["verdict"],
        {
            **_run(results),
            "pairs": systems * (systems - 1) // 2,
            "systems": systems,
            "draws": params["power_draws"],
            "users": f["users"],
            "power": [{"discount": d, "value": number(x, 2)} for d, x in f["power"].items()],
            "best": f["best"],
            "swap_users": int(swaps["size"].min()),
            "swaps": [{"discount": d, "value": number(x, 2)} for d, x in smallest.items()],
            "log2_power": number(f["power"]["log2"], 2),
            "best_power": number(f["power"].max(), 2),
            "lowest": f["power"].idxmin(),
            "lowest_power": number(f["power"].min(), 2),
            "variants": len(params["extra_rankers"]),
        },
        {d: float(x) for d, x in f["power"].items()},
    )


def movielens_conventions(results: Results) -> Measured:
    """Numbers and verdict of 'movielens-conventions' (text: ``findings.toml``)."""
    decisions = results.table("08_conventions_decisions.csv")
    f = convention_findings(decisions)
    others = decisions[decisions["convention"] != "trec_eval"]
    reversing = sorted(set(others[others["significant_reversals"] > 0]["convention"]))
    depths = [
        {
            "depth": depth,
            "reversed": int(rows["significant_reversals"].sum()),
            "tau": number(rows["kendall_tau_vs_reference"].min(), 2),
            "shift": number(rows["max_mean_shift"].max(), 2),
        }
        for depth, rows in others.groupby(others["depth"].astype(str), sort=False)
    ]
    return Measured(
        f["verdict"],
        {
            **_run(results),
            "depths": depths,
            "reversing": ", ".join(reversing) or "none",
            "low_tau": ", ".join(
                sorted(set(others[others["kendall_tau_vs_reference"] < threshold("convention_min_tau")]["convention"]))
            )
            or "none",
            "max_shift": number(f["max_shift"], 2),
        },
        {"max_shift": float(f["max_shift"]), "reversing_presets": float(len(reversing))},
    )


def movielens_cutoffs(results: Results) -> Measured:
    """Numbers and verdict of 'movielens-cutoffs' (text: ``findings.toml``)."""
    decisions = results.table("08_cutoffs_decisions.csv")
    params = results.record("08_movielens.json")["parameters"]
    f = cutoff_findings(decisions)
    d = decisions.assign(cutoff=decisions["cutoff"].astype(str))
    g0 = d["gain"].iloc[0]
    first = d[d["gain"] == g0]
    return Measured(
        f["verdict"],
        {
            **_run(results),
            "pairs": int(first["pairs"].iloc[0]),
            "gain": g0,
            "counts": [
                {"cutoff": "whole list" if r.cutoff == "all" else f"@{r.cutoff}", "count": r.significant}
                for r in first.itertuples()
            ],
            "changed": f["changed"],
            "reversed": f["reversed_significant"],
            "taus": span(d[d["cutoff"].isin(["5", "10"])]["kendall_tau_vs_reference"], 2),
            "none_reversed": "; no significant decision reversed" if f["reversed_significant"] == 0 else "",
            "systems": len(params["rankers"]) + len(params["extra_rankers"]),
        },
        {"changed": float(f["changed"]), "reversed_significant": float(f["reversed_significant"])},
    )
