"""Notebook 03 (convergence): its reader tables and derived result tables, from the stacked per-model tables ``means``
(the sweeps' ranker tables, with a ``label`` column), ``compared`` (:func:`compare_with_theory`) and theory."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import pairwise

import numpy as np
import pandas as pd
from scipy.stats import norm

from ...core import parse_discount
from ...findings import threshold
from ...pipeline.tables import pivot, rounded, stack, value_range
from ...simulation import finite_n, theory
from ...stats._replication import mean_z

#: A prediction agrees with a simulated mean when it lies within this many standard errors of it
#: (two-sided 99.7% for a normal mean; with 120 cells about 0.3 would exceed it by chance);
#: :func:`compare_with_theory` applies it. ``agreement_z`` in ``findings.toml`` (with when it was fixed).
AGREEMENT_Z = threshold("agreement_z")

MODEL = "model"


def slow_means(means: pd.DataFrame, n0: int, n1: int, slow: Sequence[str]) -> pd.DataFrame:
    """Mean nDCG at ``n0`` and ``n1`` under the ``slow`` discounts: rows (model, discount), columns (ranker, n)."""
    ends = means[means["discount"].isin(slow) & means["n"].isin([n0, n1])]
    return rounded(pivot(ends, ["label", "discount"], ["ranker", "n"], "mean")).rename_axis([MODEL, "discount"])


def slow_order(means: pd.DataFrame, ns: Sequence[int], slow: Sequence[str]) -> list[str]:
    """Two sentences: does every mean rise with n, and from which n are the slow discounts ordered by their eps?"""
    n0, n1 = min(ns), max(ns)
    by_n = pivot(means[means["discount"].isin(slow)], ["label", "discount", "ranker"], "n", "mean")
    lowest = by_n[n1].idxmin()
    rises = (
        f"every ranker's mean nDCG rises with n: {bool((by_n[n1] > by_n[n0]).all())}; lowest mean at n = {n1}: "
        f"{by_n[n1].min():.3f} ({lowest[2]}, {lowest[0]} model, {lowest[1]})"
    )
    order = sorted(slow, key=lambda d: theory.eps(d, float(n1)))  # smallest eps (slowest) first
    wide = pivot(means[means["discount"].isin(slow)], ["label", "ranker", "n"], "discount", "mean")
    grid = sorted(ns)
    holds = [all((at[a] > at[b]).all() for a, b in pairwise(order)) for at in (wide.xs(n, level="n") for n in grid)]
    since = next((n for i, n in enumerate(grid) if all(holds[i:])), None)
    ordered = (
        f"mean nDCG ordered {' > '.join(order)} for every ranker and model: at every n from {since} on"
        if since is not None
        else "the slowly varying discounts are not ordered by their eps at the largest n"
    )
    return [rises, ordered]


def first_order_summary(compared: pd.DataFrame, n: int) -> pd.DataFrame:
    """At ``n``, per (model, slowly varying discount): 1 - nDCG, the relative errors of the first-order law and the
    finite-n theory, and how many cells the latter matches."""
    rows = compared[(compared["n"] == n) & (compared["decay"] == "slowly varying")]
    out = {
        key: {
            "1 - mean nDCG": value_range(part["simulated"]),
            "first order eps*c: |relative error|": value_range(part["rel_err_first_order"].abs()),
            "first order below the simulation (rankers)": int((part["rel_err_first_order"] < 0).sum()),
            "finite-n theory: largest |relative error|": f"{part['rel_err_finite_n'].abs().max():.3f}",
            f"finite-n theory within {AGREEMENT_Z:g} se": f"{int(part['finite_n_agrees'].sum())} of {len(part)}",
        }
        for key, part in rows.groupby(["label", "discount"], sort=False)
    }
    return pd.DataFrame.from_dict(out, orient="index").rename_axis([MODEL, "discount"])


def first_order_far(models: Mapping[str, str], rankers: Sequence[str], slow: Sequence[str], n: int) -> str:
    """One sentence: the first-order law eps_D(n) c_f against the finite-n theory at ``n`` (theory alone)."""
    eps, errors = np.array([theory.eps(d, float(n)) for d in slow]), []
    for spec in models.values():
        c = np.array([theory.c_coefficient(spec, ranker) for ranker in rankers])
        errors += list(np.abs(eps * c[:, None] / (1 - finite_n.finite_n_values(spec, rankers, slow, n)) - 1).ravel())
    return (
        f"first order against the finite-n theory at n = {n}: relative error {min(errors):.3f} to "
        f"{max(errors):.3f} (median {np.median(errors):.3f})"
    )


def power_table(compared: pd.DataFrame, n: int, discount: str = "power(beta=0.5)") -> pd.DataFrame:
    """Mean nDCG under ``discount`` at ``n`` per (model, ranker), against its limit and the finite-n theory."""
    rows = compared[(compared["n"] == n) & (compared["discount"] == discount)]
    table = rows.assign(gap=rows["simulated"] - rows["limit"])[
        ["label", "ranker", "simulated", "ci_half", "limit", "gap", "finite_n"]
    ].set_axis([MODEL, "ranker", "mean nDCG", "95% CI half-width", "limit", "mean - limit", "finite-n theory"], axis=1)
    table = rounded(table, 4).set_index([MODEL, "ranker"])
    limits = rows.groupby("label", sort=False)["limit"]
    shared = {label: "yes" if values.round(4).nunique() < len(values) else "no" for label, values in limits}
    table["a limit shared with another ranker"] = table.index.get_level_values(0).map(shared)
    return table


def fast_discount_table(
    means: pd.DataFrame, theory_tables: Mapping[str, pd.DataFrame], fast: Sequence[str], n0: int, n1: int
) -> pd.DataFrame:
    """``03_fast_discounts.csv``: per (model, ``fast`` discount, ranker), the mean and sd at n0 and n1, the limit."""
    keys = ["label", "discount", "ranker"]
    start, end = (means[means["discount"].isin(fast) & (means["n"] == n)].set_index(keys) for n in (n0, n1))
    limits = stack(theory_tables)
    limits = limits[limits["n"] == n1].set_index(keys)["limit"]
    parts = [start["mean"], end["mean"], limits.reindex(start.index), start["sd"], end["sd"]]
    return pd.concat(parts, axis=1, keys=["mean_n0", "mean_n1", "limit", "sd_n0", "sd_n1"]).reset_index()


FAST_COLUMNS = {f"{q}_{n}": f"{q} at {n}" for q in ("mean", "sd") for n in ("n0", "n1")}


def zipf_table(fast: pd.DataFrame, discount: str = "zipf") -> pd.DataFrame:
    """Under ``discount``: per (model, ranker) the mean at n0 and n1 and the limit g_f(0+)/g*(0+)."""
    rows = fast[fast["discount"] == discount].rename(columns={"label": MODEL})
    return rounded(rows.set_index([MODEL, "ranker"])[["mean_n0", "mean_n1", "limit"]]).rename(columns=FAST_COLUMNS)


def summable_spread(fast: pd.DataFrame, single: Sequence[str], grouped: Sequence[str]) -> pd.DataFrame:
    """Under the summable discounts, per (model, discount): the sd across data sets at n0 and n1 of the ``single``-item
    rankers and of those whose ties are averaged (``grouped``)."""
    rows = fast[fast["discount"].map(lambda d: parse_discount(d).decay) == "summable"]
    out = {}
    for key, part in rows.groupby(["label", "discount"], sort=False):
        one, ties = part[part["ranker"].isin(single)], part[part["ranker"].isin(grouped)]
        out[key] = {
            "sd at n0, single-item rankers": value_range(one["sd_n0"]),
            "sd at n1, single-item rankers": value_range(one["sd_n1"]),
            "sd at n1, tie-averaging rankers": value_range(ties["sd_n1"]) if len(ties) else "-",
        }
    return pd.DataFrame.from_dict(out, orient="index").rename_axis([MODEL, "discount"])


def agreement_table(compared: pd.DataFrame, models: Mapping[str, str]) -> pd.DataFrame:
    """``03_agreement.csv``: every cell's simulation against the finite-n theory, with ``rare_miss_share`` where they
    disagree (:func:`~ndcg_research.simulation.finite_n.rare_miss_share`)."""
    columns = "label model discount decay ranker n replicates simulated finite_n finite_n_z finite_n_agrees"
    agreement = compared[columns.split()].copy()
    agreement["rare_miss_share"] = [
        np.nan
        if r.finite_n_agrees
        else finite_n.rare_miss_share(models[r.label], r.ranker, r.discount, r.n, r.replicates)
        for r in agreement.itertuples()
    ]
    return agreement


def agreement_summary(agreement: Mapping[str, pd.DataFrame]) -> pd.DataFrame:
    """Per scope (e.g. "every n"): the cells the finite-n theory matches and misses, by chance and short of data."""
    chance = 2 * norm.sf(AGREEMENT_Z)  # the share of cells beyond AGREEMENT_Z standard errors by chance alone
    out = {}
    for scope, table in agreement.items():
        bad = table[~table["finite_n_agrees"]]
        out[scope] = {
            "cells": len(table),
            f"within {AGREEMENT_Z:g} se": len(table) - len(bad),
            "outside": len(bad),
            "outside by chance alone (expected)": f"{len(table) * chance:.1f}",
            "outside and short of data": int((bad["rare_miss_share"] >= 0.5).sum()),
        }
    return pd.DataFrame.from_dict(out, orient="index").rename_axis("cells")


def misses(agreement: pd.DataFrame) -> pd.DataFrame:
    """The cells the finite-n theory misses, per (model, discount): rankers and n, the largest |z|, and the share of
    rare misses (short of data when at least half)."""
    bad = agreement[~agreement["finite_n_agrees"]]
    out = {}
    for key, part in bad.groupby(["label", "discount"], sort=False):
        z = part["finite_n_z"].abs()
        short = int((part["rare_miss_share"] >= 0.5).sum())
        out[key] = {
            "ranker: n": "; ".join(
                f"{ranker}: " + ", ".join(str(int(n)) for n in cells["n"])
                for ranker, cells in part.groupby("ranker", sort=False)
            ),
            "largest |z|": "undefined (sd 0)" if z.isna().all() else (f"{z.max():.1f}" if z.max() < 100 else "> 100"),
            "share of rare misses": value_range(part["rare_miss_share"], 2),
            "class": f"short of data at {short} of {len(part)} cells" if short else "not short of data",
        }
    return pd.DataFrame.from_dict(out, orient="index").rename_axis([MODEL, "discount"]) if out else pd.DataFrame()


def full_profile_numbers(compared: pd.DataFrame, means: pd.DataFrame, theory_table: pd.DataFrame) -> pd.DataFrame:
    """The full profile's main numbers, one per row (its tables stacked by :func:`stack`)."""
    n1, n0 = int(compared["n"].max()), int(means["n"].min())
    top = compared[compared["n"] == n1]
    slow_top = top[top["decay"] == "slowly varying"]
    low = means[(means["n"] == n1) & (means["decay"] == "slowly varying")].sort_values("mean").iloc[0]
    err = slow_top["rel_err_first_order"].abs()
    ft = theory_table[(theory_table["n"] == n1) & (theory_table["decay"] == "slowly varying")]
    err_theory = ((ft["eps"] * ft["c"]) / (1 - ft["finite_n"]) - 1).abs()
    power = top[top["discount"] == "power(beta=0.5)"]
    rows = {
        "largest n (data sets there), seed": f"{n1} ({int(top['replicates'].min())}), {int(means['seed'].iloc[0])}",
        f"lowest mean nDCG, slowly varying, n = {n1}": f"{low['mean']:.3f} ({low['ranker']}, {low['label']}, "
        f"{low['discount']})",
        "first order eps*c: |relative error| against the simulation": f"{value_range(err)} (median {err.median():.3f})",
        "first order eps*c: |relative error| against the finite-n theory": (
            f"{value_range(err_theory)} (median {err_theory.median():.3f})"
        ),
        "power(beta=0.5): largest |mean - limit|": f"{(power['simulated'] - power['limit']).abs().max():.4f}",
    }
    spread = means[
        (means["decay"] == "summable") & (means["label"] == "uncertain") & (means["ranker"] != "coarse(bins=4)")
    ]
    for n in (n0, n1):
        sd = spread[spread["n"] == n]["sd"]
        if len(sd):
            rows[f"summable, uncertain, single-item rankers: sd at n = {n}"] = value_range(sd, 2)
    return pd.DataFrame({"full profile": rows})


def replication(means: pd.DataFrame, full: pd.DataFrame, seed: int) -> tuple[str, pd.DataFrame]:
    """This run's means against the full profile's (Welch z per cell): a sentence, and the cells with |z| > 3."""
    full_seed = int(full["seed"].iloc[0])
    if full_seed == seed:
        return "this run is the full profile itself: no independent replication to compare with", pd.DataFrame()
    keys = ["label", "discount", "ranker", "n"]
    both = means.merge(full, on=keys, suffixes=("", "_full"))
    z = mean_z(*(both[c] for c in ("mean", "sd", "replicates", "mean_full", "sd_full", "replicates_full")))
    line = (
        f"replication (seed {seed} here, {full_seed} in the full profile): {len(both)} cells at common n, "
        f"largest |z| = {z.abs().max():.2f}, |z| > 3 in {int((z.abs() > 3).sum())}"
    )
    far = both[z.abs() > 3].assign(z=z)[keys + ["mean", "replicates", "mean_full", "replicates_full", "z"]]
    return line, rounded(far.rename(columns={"label": MODEL}).set_index([MODEL, "discount", "ranker", "n"]), 4)


#: The simulation-against-theory columns, in words, for the appendix.
COMPARED_COLUMNS = {
    "label": MODEL,
    **{c: c for c in ("discount", "ranker", "n", "quantity", "simulated")},
    "ci_half": "95% CI half-width",
    "first_order": "first order",
    "rel_err_first_order": "rel. error, first order",
    "finite_n": "finite-n theory",
    "rel_err_finite_n": "rel. error, finite-n",
}


def appendix_compared(compared: pd.DataFrame) -> pd.DataFrame:
    """Every cell of simulation against theory, columns in words (for the appendix)."""
    return rounded(compared[list(COMPARED_COLUMNS)].rename(columns=COMPARED_COLUMNS), 4).set_index(
        [MODEL, "discount", "ranker", "n"]
    )


def appendix_fast(fast: pd.DataFrame) -> pd.DataFrame:
    """:func:`fast_discount_table`, columns in words (for the appendix)."""
    return rounded(fast.rename(columns={"label": MODEL, **FAST_COLUMNS})).set_index([MODEL, "discount", "ranker"])


def compare_with_theory(ranker_table: pd.DataFrame, theory_table: pd.DataFrame) -> pd.DataFrame:
    """Simulated means against the theory table on (discount, ranker, n): the quantity is ``1 - nDCG`` for slowly
    varying discounts (what ``eps_D(n) c_f`` predicts), else nDCG; relative errors ``(theory - simulation) /
    simulation``; ``finite_n_agrees``: within :data:`AGREEMENT_Z` standard errors (within 1e-9 when it is 0)."""
    keys = ["discount", "ranker", "n"]
    merged = ranker_table.merge(
        theory_table[[*keys, "limit", "first_order", "eps", "c", "finite_n"]], on=keys, validate="one_to_one"
    )
    slow = merged["decay"] == "slowly varying"
    simulated, finite, limit = (merged[c].where(~slow, 1 - merged[c]) for c in ("mean", "finite_n", "limit"))
    first = merged["first_order"].where(~slow, merged["eps"] * merged["c"])
    half = (merged["ci_high"] - merged["ci_low"]) / 2
    se = merged["sd"] / np.sqrt(merged["replicates"])
    difference = merged["finite_n"] - merged["mean"]
    return merged[["model", "discount", "decay", "ranker", "n", "replicates"]].assign(
        quantity=np.where(slow, "1 - nDCG", "nDCG"),
        simulated=simulated,
        ci_half=half,
        first_order=first,
        finite_n=finite,
        limit=limit,
        rel_err_first_order=((first - simulated) / simulated).where(simulated != 0),
        rel_err_finite_n=((finite - simulated) / simulated).where(simulated != 0),
        finite_n_in_ci=(difference.abs() <= half) & half.notna(),
        finite_n_z=(difference / se).where(se > 0),
        finite_n_agrees=difference.abs() <= AGREEMENT_Z * se.fillna(0.0) + 1e-9,
    )
