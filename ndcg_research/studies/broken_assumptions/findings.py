"""Notebook 16: the findings of notebooks 03-04 asked of sparse relevance and of rankers that use different evidence.

Texts, rules and thresholds: ``findings.toml`` (committed before any run of this study, 8f36de7); each function
computes its finding's numbers and verdict. ``threshold`` is re-exported for the experiment's tables.
"""

from __future__ import annotations

import math

import pandas as pd
from scipy import stats

from ...findings import Measured, Results, threshold

__all__ = [
    "TABLES",
    "threshold",
    "sparse_ndcg_to_one",
    "sparse_loglog_as_well_as_log2",
    "two_feature_profiles_cross",
    "two_feature_ndcg_to_one",
    "two_feature_loglog_as_well_as_log2",
]

#: The tables the notebook writes (file names in its results folder) by the name the rules use.
TABLES = {
    name: f"16_{name}.csv"
    for name in (
        "sparse_ndcg",
        "sparse_pairs",
        "sparse_ratios",
        "two_feature_ndcg",
        "two_feature_pairs",
        "two_feature_ratios",
        "two_feature_crossings",
        "two_feature_constants",
        "two_feature_rank_bins",
    )
}
#: The slowly varying discounts of the study.
SLOW = ("log2", "logpower(gamma=0.5)", "loglog")


def _chance_allowance(cells: int) -> float:
    """max(1, exact_chance_allowance x the cells expected beyond exact_agreement_z standard errors by chance)."""
    return max(1.0, threshold("exact_chance_allowance") * 2 * stats.norm.sf(threshold("exact_agreement_z")) * cells)


def _f(value: float, digits: int = 3) -> str:
    if not math.isfinite(value):
        return "n/a"
    return f"{value:.{digits}g}" if abs(value) >= 1e-3 or value == 0 else f"{value:.1e}"


def sparse_ndcg_to_one(results: Results) -> Measured:
    """Numbers and verdict of 'sparse-ndcg-to-one' (text: ``findings.toml``)."""
    table = results.table(TABLES["sparse_ndcg"])
    log2 = table[table["discount"] == "log2"]
    n0, n1 = int(log2["n"].min()), int(log2["n"].max())
    random = log2[log2["ranker"] == "random"]
    sparse, control = random[random["kind"] == "sparse"], random[random["kind"] == "control"]
    limits = sparse.groupby("model", sort=False)["limit"].first()
    fails = limits <= 1 - threshold("limit_margin")
    outside = int((sparse["z"].abs() > threshold("exact_agreement_z")).sum())
    checked = outside <= _chance_allowance(len(sparse))
    verdict = "undecided" if not checked else "does not hold" if fails.any() else "holds"
    random_loglog = table[(table["discount"] == "loglog") & (table["ranker"] == "random")]
    loglog = random_loglog.groupby("model", sort=False)["limit"].first()
    best = log2[log2["ranker"] == "bayes"].pivot_table(index="model", columns="n", values="mean", sort=False)
    per_model = []
    for label, rows in sparse.groupby("model", sort=False):
        at = rows.set_index("n")
        per_model.append(
            f"{label}: random ranker's exact expected nDCG {_f(at.loc[n0, 'exact'])} at n = {n0}, "
            f"{_f(at.loc[n1, 'exact'])} at n = {n1} (simulated {_f(at.loc[n1, 'mean'])}), limit "
            f"{_f(limits[label], 2)} (under loglog {_f(loglog[label], 2)}); bayes "
            f"{_f(best.loc[label, n0])} -> {_f(best.loc[label, n1])}"
        )
    values = dict(
        per_model="; ".join(per_model),
        control=", ".join(control["model"].unique()),
        control_limit=", ".join(_f(v, 2) for v in control.groupby("model")["limit"].first()),
        better=(
            f"Simulated means of the random ranker within {threshold('exact_agreement_z'):g} standard errors "
            f"of the exact value in {len(sparse) - outside} of {len(sparse)} (model, n) cells"
        ),
        limits=", ".join(f"{k}: {_f(v, 2)}" for k, v in limits.items()),
        agree=f"{len(sparse) - outside} of {len(sparse)} cells",
        n1=n1,
        best_last=", ".join(f"{k} {_f(best.loc[k, n1])}" for k in limits.index),
    )
    return Measured(verdict, values, {"largest_limit": float(limits.max()), "outside": float(outside)})


def _ratio_cells(rows: pd.DataFrame) -> str:
    return (
        "; ".join(
            f"{r.model}, {r.first} vs {r.second}: d_log2 {_f(r.d_denominator)}, ratio {r.ratio:.2f} "
            f"[{r.ratio_low:.2f}, {r.ratio_high:.2f}] ({r.call})"
            for r in rows.itertuples()
        )
        or "none"
    )


def _ratio_rule(table: pd.DataFrame, kind: str) -> Measured:
    """The rule of both ratio findings: each cell called again with the file's ``ratio_floor``."""
    from .experiment import call

    floor = threshold("ratio_floor")
    top = table[table["n"] == table["n"].max()]
    top = top.assign(call=[call(r.ratio_low, r.ratio_high, bool(r.resolved), floor) for r in top.itertuples()])
    cells = top[top["kind"] == kind]
    judged = cells[cells["call"] != "not judged"]
    refuted, supported = int((judged["call"] == "refutes").sum()), int((judged["call"] == "supports").sum())
    verdict = "does not hold" if refuted else "holds" if len(judged) and supported == len(judged) else "undecided"
    ratios = judged["ratio"]
    control = top[(top["kind"] == "control") & (top["call"] != "not judged")]["ratio"]
    values = dict(
        n=int(top["n"].max()),
        cells=_ratio_cells(cells),
        ratio_range=(f"{ratios.min():.2f} to {ratios.max():.2f}" if len(judged) else "n/a"),
        judged=len(judged),
        refuted=refuted,
        supported=supported,
    )
    if kind == "sparse":  # the dense control runs beside the sparse models only
        values["control"] = _ratio_cells(top[top["kind"] == "control"])
        values["control_range"] = f"{control.min():.2f} to {control.max():.2f}" if len(control) else "n/a"
    numbers = {
        "refuted": float(refuted),
        "supported": float(supported),
        "judged": float(len(judged)),
        "ratio_min": float(ratios.min()) if len(judged) else math.nan,
    }
    return Measured(verdict, values, numbers)


def sparse_loglog_as_well_as_log2(results: Results) -> Measured:
    """Numbers and verdict of 'sparse-loglog-as-well-as-log2' (text: ``findings.toml``)."""
    return _ratio_rule(results.table(TABLES["sparse_ratios"]), "sparse")


def two_feature_profiles_cross(results: Results) -> Measured:
    """Numbers and verdict of 'two-feature-profiles-cross' (text: ``findings.toml``)."""
    crossings = results.table(TABLES["two_feature_crossings"])
    bins = results.table(TABLES["two_feature_rank_bins"])
    studied = crossings[crossings["crossings"] >= threshold("min_crossings")]
    outside = int((bins["z"].abs() > threshold("exact_agreement_z")).sum())
    chance = 2 * stats.norm.sf(threshold("exact_agreement_z")) * len(bins)
    verdict = "holds" if len(studied) and outside <= _chance_allowance(len(bins)) else "does not hold"
    values = dict(
        pairs="; ".join(f"{r.first} vs {r.second} at t = {r.depths}" for r in studied.itertuples()) or "none",
        n=int(bins["n"].iloc[0]),
        replicates=int(bins["replicates"].iloc[0]),
        outside=outside,
        bins=len(bins),
        chance=_f(chance, 2),
        count=len(studied),
    )
    return Measured(verdict, values, {"studied_pairs": float(len(studied)), "bins_outside": float(outside)})


def two_feature_ndcg_to_one(results: Results) -> Measured:
    """Numbers and verdict of 'two-feature-ndcg-to-one' (text: ``findings.toml``)."""
    table, constants = results.table(TABLES["two_feature_ndcg"]), results.table(TABLES["two_feature_constants"])
    slow = table[table["discount"].isin(SLOW)]
    n0, n1 = int(slow["n"].min()), int(slow["n"].max())
    first = slow[slow["n"] == n0].set_index(["discount", "ranker"])
    last = slow[slow["n"] == n1].set_index(["discount", "ranker"])
    rises = bool((last["mean"] > first["mean"]).all())
    falls = bool((last["ci_high"] < first["ci_low"]).any())
    finite = bool(constants["c_f"].map(math.isfinite).all())
    verdict = "holds" if rises and finite else "does not hold" if falls else "undecided"
    low = last["mean"].idxmin()
    values = dict(
        n0=n0,
        n1=n1,
        rises="every ranker's mean rises" if rises else "not every ranker's mean rises",
        lowest=f"{_f(last['mean'].min())} ({low[1]}, {low[0]})",
        constants=", ".join(f"{r.ranker} {_f(r.c_f)}" for r in constants.itertuples()),
        p=_f(float(constants["p"].iloc[0])),
    )
    return Measured(verdict, values, {"lowest_mean": float(last["mean"].min())})


def two_feature_loglog_as_well_as_log2(results: Results) -> Measured:
    """Numbers and verdict of 'two-feature-loglog-as-well-as-log2' (text: ``findings.toml``)."""
    return _ratio_rule(results.table(TABLES["two_feature_ratios"]), "two features")
