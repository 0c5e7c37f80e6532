"""Notebook 14: the verdicts of its findings, from ``advise``'s table for the MovieLens-100k recommenders
(``14_advise_movielens.csv``, one row per candidate setting; cut-off ``"none"``: the whole run file) and the run's
record (``14_advise.json``). The functions that take a table decide on it alone (the tests give made-up tables)."""

from __future__ import annotations

from typing import Any

import pandas as pd

from ...core import parse_discount
from ...findings import Measured, Results, number, span, threshold

#: The table and the record the rules read.
TABLE, RECORD = "14_advise_movielens.csv", "14_advise.json"
#: trec_eval's discount, the reference of advise's rule and of notebook 08's.
REFERENCE = "log2"
#: The cut-off label of the whole run file.
WHOLE = "none"
#: The decay class notebook 08's rule holds to at least log2's power.
SLOW = "slowly varying"


def _decay(discount: str) -> str:
    return parse_discount(discount, builtin_only=True).decay


def recommendation(table: pd.DataFrame) -> dict[str, Any]:
    """The recommended row, its rivals (shortlisted discounts at its gain and cut-off with a higher Phi and a lower
    swap rate) and the verdict of 'advise-keeps-log2' ("holds with qualification": log2 recommended, with rivals).

    Returns dict: ``row`` (the recommended row, a Series), ``rivals`` (DataFrame), ``verdict``.
    """
    chosen = table[table["recommended"]]
    if len(chosen) != 1:
        raise ValueError(f"the table must mark exactly one candidate as recommended, it marks {len(chosen)}")
    row = chosen.iloc[0]
    same = table[
        (table["gain"] == row["gain"])
        & (table["cutoff"] == row["cutoff"])
        & (table["discount"] != row["discount"])
        & table["shortlisted"]
    ]
    rivals = same[(same["phi"] > row["phi"]) & (same["swap_rate"] < row["swap_rate"])]
    if row["discount"] != REFERENCE:
        verdict = "does not hold"
    elif len(rivals):
        verdict = "holds with qualification"
    else:
        verdict = "holds"
    return {"row": row, "rivals": rivals, "verdict": verdict}


def discount_powers(table: pd.DataFrame) -> pd.Series:
    """Each discount's discriminative power over the whole run file, averaged over the gains (table order)."""
    whole = table[table["cutoff"] == WHOLE]
    return whole.groupby("discount", sort=False)["power"].mean()


def discounts_verdict(power: pd.Series) -> dict[str, Any]:
    """Notebook 08's rule on query sets applied to ``power`` (:func:`discount_powers`): slowly varying discounts at
    least log2's power minus ``movielens_power_margin``, fast ones below it ("undecided" if a class is missing).

    Returns dict: ``slow`` and ``fast`` (the discounts judged), ``verdict``.
    """
    slow = [d for d in power.index if d != REFERENCE and _decay(d) == SLOW]
    fast = [d for d in power.index if _decay(d) in threshold("movielens_fast_decays")]
    if REFERENCE not in power.index or not slow or not fast:
        return {"slow": slow, "fast": fast, "verdict": "undecided"}
    margin = threshold("movielens_power_margin")
    holds = all(power[d] >= power[REFERENCE] - margin for d in slow) and all(power[d] < power[REFERENCE] for d in fast)
    return {"slow": slow, "fast": fast, "verdict": "holds" if holds else "does not hold"}


def cutoff_counts(table: pd.DataFrame) -> dict[str, dict[str, int]]:
    """Pairs told apart under log2, by gain and then cut-off label (table order)."""
    log2 = table[table["discount"] == REFERENCE]
    return {
        gain: dict(zip(rows["cutoff"], rows["pairs_significant"].astype(int), strict=True))
        for gain, rows in log2.groupby("gain", sort=False)
    }


def cutoffs_verdict(counts: dict[str, dict[str, int]]) -> dict[str, Any]:
    """Notebook 08's rule on cut-offs: for every gain, each small cut-off (``movielens_small_cutoffs``) tells fewer
    pairs apart than the whole run file ("undecided" without them or the whole run file).

    Returns dict: ``small`` (the cut-offs judged), ``verdict``.
    """
    measured = {k for cells in counts.values() for k in cells}
    small = [k for k in threshold("movielens_small_cutoffs") if k in measured]
    if not small or WHOLE not in measured:
        return {"small": small, "verdict": "undecided"}
    holds = all(cells[k] < cells[WHOLE] for cells in counts.values() for k in small)
    return {"small": small, "verdict": "holds" if holds else "does not hold"}


def _run(results: Results) -> dict[str, Any]:
    """The run as the shared description of the data quotes it."""
    record = results.record(RECORD)
    params, movielens = record["parameters"], record["movielens"]
    return {
        "test_fraction": f"{params['test_fraction']:.0%}",
        "systems": len(movielens["systems"]),
        "system_names": ", ".join(movielens["systems"]),
        "users": movielens["users"],
        "depth": params["depth"],
        "seed": params["seed"],
        "convention": params["convention"],
        "n_resamples": params["n_resamples"],
        "swap_trials": params["swap_trials"],
        "alpha": f"{movielens['alpha']:.0%}",
    }


def _swap_users(results: Results) -> int:
    """The users in each of the two disjoint sets of the swap rate the table quotes (the swap curve's last size)."""
    return int(results.record(RECORD)["movielens"]["swap_set_size"])


def _pairs(results: Results) -> int:
    systems = len(results.record(RECORD)["movielens"]["systems"])
    return systems * (systems - 1) // 2


def _cutoff_label(cutoff: str) -> str:
    return "whole run file" if cutoff == WHOLE else f"@{cutoff}"


def advise_keeps_log2(results: Results) -> Measured:
    """Numbers and verdict of 'advise-keeps-log2' (text: ``findings.toml``)."""
    table = results.table(TABLE)
    f = recommendation(table)
    row, rivals = f["row"], f["rivals"]
    best = table.loc[table["power"].idxmax()]
    short = table[table["shortlisted"]]
    steady = short.loc[short["phi"].idxmax()]
    listed = [
        {"measure": r.measure, "phi": number(r.phi, 4), "swap": number(r.swap_rate, 2)} for r in rivals.itertuples()
    ]
    return Measured(
        f["verdict"],
        {
            **_run(results),
            "candidates": len(table),
            "design": " x ".join(
                f"{table[column].nunique()} {word}"
                for column, word in (("discount", "discounts"), ("cutoff", "cut-offs"), ("gain", "gains"))
            ),
            "recommended": row["measure"],
            "significant": int(row["pairs_significant"]),
            "pairs": _pairs(results),
            "power": number(row["power"], 3),
            "best": best["measure"],
            "best_power": number(best["power"], 3),
            "shortlisted": len(short),
            "phi_range": span(table["phi"], 3),
            "phi": number(row["phi"], 4),
            "best_phi": number(steady["phi"], 4),
            "best_phi_measure": steady["measure"],
            "swap": number(row["swap_rate"], 2),
            "swap_users": _swap_users(results),
            "rivals": listed,
            "rivals_short": [{"discount": r.discount} for r in rivals.itertuples()],
        },
        {
            "power": float(row["power"]),
            "best_power": float(best["power"]),
            "phi": float(row["phi"]),
            "best_phi": float(steady["phi"]),
            "rivals": float(len(rivals)),
        },
    )


def advise_discounts_agree(results: Results) -> Measured:
    """Numbers and verdict of 'advise-discounts-agree' (text: ``findings.toml``)."""
    table = results.table(TABLE)
    power = discount_powers(table)
    f = discounts_verdict(power)
    whole = table[table["cutoff"] == WHOLE]
    taus = whole[whole["discount"] != REFERENCE].groupby("discount", sort=False)["tau_log2"]
    swaps = whole.groupby("discount", sort=False)["swap_rate"].mean()
    return Measured(
        f["verdict"],
        {
            **_run(results),
            "pairs": _pairs(results),
            "gains": ", ".join(dict.fromkeys(table["gain"])),
            "power": [{"discount": d, "value": number(p, 3)} for d, p in power.items()],
            "slow": ", ".join(f["slow"]) or "none",
            "fast": ", ".join(f["fast"]) or "none",
            "taus": [{"discount": d, "value": span(t, 2)} for d, t in taus],
            "swaps": [{"discount": d, "value": number(s, 2)} for d, s in swaps.items()],
            "swap_users": _swap_users(results),
        },
        {d: float(p) for d, p in power.items()},
    )


def advise_cutoffs_agree(results: Results) -> Measured:
    """Numbers and verdict of 'advise-cutoffs-agree' (text: ``findings.toml``)."""
    counts = cutoff_counts(results.table(TABLE))
    f = cutoffs_verdict(counts)
    pairs = _pairs(results)
    return Measured(
        f["verdict"],
        {
            **_run(results),
            "pairs": pairs,
            "small": ", ".join(f"@{k}" for k in f["small"]) or "none",
            "counts": [
                {"gain": gain, "cells": ", ".join(f"{_cutoff_label(k)} {n}" for k, n in cells.items())}
                for gain, cells in counts.items()
            ],
        },
        {f"{gain} {k}": float(n) for gain, cells in counts.items() for k, n in cells.items()},
    )
