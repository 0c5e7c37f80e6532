"""Notebook 04: does the better ranker score higher, under which discounts, and how reliably."""

from __future__ import annotations

import math

import pandas as pd

from ...findings import Measured, Results, cases, labelled, number, proportion, span, threshold, worst

#: The slowly varying discounts of the theory notebooks, fastest first.
SLOW = ("log2", "logpower(gamma=0.5)", "loglog")
#: Model labels of the theory notebooks' tables.
THEORY_MODELS = ("certain", "uncertain", "graded")


def log2_distinguishes(results: Results) -> Measured:
    """Numbers and verdict of 'log2-distinguishes' (text: ``findings.toml``)."""
    pairs = labelled(results, "04_pairs_{}.csv", THEORY_MODELS)
    models, n_first, perfect_beyond = [], [], True
    for label, rows in pairs[pairs["discount"] == "log2"].groupby("label", sort=False):
        ns = sorted(rows["n"].unique())
        # A lower bound of 0.99 needs about 380 data sets even for a perfect record: judge it where there are 400.
        eligible = rows[rows["replicates"] >= threshold("wilson_sure_min_replicates")]
        sure = [
            n
            for n in sorted(eligible["n"].unique())
            if (eligible[eligible["n"] >= n]["p_better_low"] >= threshold("wilson_sure_lower")).all()
        ]
        later = rows[rows["n"] > (eligible["n"].max() if len(eligible) else 0)]
        perfect_beyond &= bool((later["p_better"] == 1).all())
        models.append(
            {
                "label": label,
                "n_first": ns[0],
                "p_first": number(rows[rows["n"] == ns[0]]["p_better"].min(), 2),
                "sure": f"from n = {sure[0]}" if sure else "at no n",
                "n_last": ns[-1],
                "weakest": worst(rows[rows["n"] == ns[-1]]),
            }
        )
        n_first.append(sure[0] if sure else math.inf)
    power = pairs[(pairs["discount"] == "power(beta=0.5)") & (pairs["n"] == pairs["n"].max())]
    log2_top = pairs[(pairs["discount"] == "log2") & (pairs["n"] == pairs["n"].max())]
    top = pairs[pairs["n"] == pairs["n"].max()]
    reversed_at_top = bool(((top["discount"] == "log2") & (top["p_better_high"] < 0.5)).any())
    if all(math.isfinite(n) for n in n_first) and perfect_beyond:
        verdict = "holds"
    else:
        verdict = "does not hold" if reversed_at_top else "undecided"
    return Measured(
        verdict,
        {
            "models": models,
            "power_weakest": worst(power),
            "labels": ", ".join(THEORY_MODELS),
            "sure_from": ", ".join(str(int(n)) if math.isfinite(n) else "-" for n in n_first),
            "n_last": int(log2_top["n"].iloc[0]),
            "weakest_last": worst(log2_top),
        },
        {f"sure_from_{label}": float(n) for label, n in zip(THEORY_MODELS, n_first, strict=False)},
    )


def slower_discounts_keep_the_order(results: Results) -> Measured:
    """Numbers and verdict of 'slower-discounts-keep-the-order' (text: ``findings.toml``)."""
    ratios = results.table("04_ratios.csv")
    loglog = ratios[ratios["numerator"] == "loglog"]
    mean, std = loglog[loglog["statistic"] == "mean_gap"], loglog[loglog["statistic"] == "std_gap"]
    std_below = int((std["ratio_high"] < 1).sum())
    std_above = int((std["ratio_low"] > 1).sum())
    pairs = labelled(results, "04_pairs_{}.csv", THEORY_MODELS)
    top = pairs[(pairs["n"] == pairs["n"].max()) & pairs["discount"].isin(SLOW)]
    verdict = "does not hold" if std_below == 0 else "holds" if std_below == len(std) else "undecided"
    return Measured(
        verdict,
        {
            "n": int(loglog["n"].iloc[0]),
            "cells": len(mean),
            "mean_ratio": span(mean["ratio"], 2),
            "mean_below": cases(int((mean["ratio_high"] < 1).sum()), len(mean)),
            "std_ratio": span(std["ratio"], 2),
            "std_above": std_above,
            "std_below": std_below,
            "std_undecided": len(std) - std_above - std_below,
            "weakest_log2": worst(top[top["discount"] == "log2"]),
            "weakest_loglog": worst(top[top["discount"] == "loglog"]),
        },
        {"std_gap_ratio_min": float(std["ratio"].min()), "mean_gap_ratio_max": float(mean["ratio"].max())},
    )


def chance_cells(pairs: pd.DataFrame, gaps: pd.DataFrame) -> tuple[pd.DataFrame, int]:
    """Chance cells: the worse ranker wins significantly more often (Wilson 95% of P below 1/2) although the finite-n
    expected gap is positive (about 2.5% of cells near a coin flip do by chance); returns them and how many cells
    could have (interval of P reaching below 1/2)."""
    keys = ["model", "discount", "better", "worse", "n"]
    cells = pairs.merge(gaps[[*keys, "finite_n_gap"]], on=keys, how="inner", validate="one_to_one")
    against = cells[
        (cells["p_better_high"] < 0.5) & (cells["p_worse"] > cells["p_better"]) & (cells["finite_n_gap"] > 0)
    ]
    return against, int((cells["p_better_low"] < 0.5).sum())


def critical_point(results: Results) -> Measured:
    """Numbers and verdict of 'critical-point' (text: ``findings.toml``)."""
    fast = results.table("04_fast_discounts.csv")
    close = fast[~fast["pair"].str.contains("coarse|random")]
    unc = close[(close["label"] == "uncertain")]
    cer = close[(close["label"] != "uncertain")]
    z_unc, z_cer = unc[unc["discount"] == "zipf"], cer[cer["discount"] == "zipf"]
    summ_unc = unc[unc["discount"].isin(["power(beta=2)", "geometric(p=0.5)"])]
    half = unc[unc["discount"] == "power(beta=0.5)"]
    pairs = labelled(results, "04_pairs_{}.csv", THEORY_MODELS)
    top = pairs[(pairs["n"] == pairs["n"].max()) & ~pairs["worse"].isin(["coarse(bins=4)", "random"])]
    half_rows = top[(top["discount"] == "power(beta=0.5)") & (top["label"] == "uncertain")]
    zipf_certain = top[(top["discount"] == "zipf") & (top["label"] != "uncertain")]
    gaps = labelled(results, "04_gaps_vs_theory_{}.csv", THEORY_MODELS)
    against, could = chance_cells(top, gaps.drop(columns="label"))
    cells = [
        {
            "label": r.label,
            "discount": r.discount,
            "better": r.better,
            "worse": r.worse,
            "p": proportion(r.p_better, r.p_better_low, r.p_better_high, int(r.replicates)),
            "gap": number(r.mean_gap, 2),
            "expected": number(r.finite_n_gap, 2),
        }
        for r in against.itertuples()
    ]
    far, separates = threshold("critical_far_from_certain"), threshold("critical_separates")
    beyond = bool((z_unc["p_n1"] < far).all() and (summ_unc["p_n1"] < far).all() and (half["p_n1"] > separates).all())
    refuted = bool(
        (half["p_n1"] <= separates).any() or (z_unc["p_n1"] > separates).any() or (summ_unc["p_n1"] > separates).any()
    )
    verdict = "holds" if beyond else "does not hold" if refuted else "undecided"
    return Measured(
        verdict,
        {
            "zipf_uncertain": span(z_unc["p_n1"], 2),
            "zipf_uncertain_gap": span(z_unc["std_gap_n1"], 2),
            "summable_uncertain": span(summ_unc["p_n1"], 2),
            "summable_worse": span(summ_unc["worse_n1"], 2),
            "half_weakest": worst(half_rows),
            "zipf_certain_weakest": worst(zipf_certain),
            "zipf_certain_gap": span(z_cer["std_gap_n1"], 2),
            "geometric_ties": span(cer[cer["discount"] == "geometric(p=0.5)"]["tie_n1"], 2),
            "zipf_certain_low": f"{zipf_certain['p_better_low'].min():.3f}",
            "n_top": int(top["n"].max()),
            "against": cells,
            "chance": len(cells),
            "could": could,
            "groups": len(against.drop_duplicates(["label", "better", "worse"])),
            "expected_chance": number(0.025 * could, 2),
            "replicates": int(top["replicates"].min()),
        },
        {"zipf_uncertain_p_max": float(z_unc["p_n1"].max())},
    )
