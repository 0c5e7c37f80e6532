"""Notebook 14's study (``ndcg_research/studies/advise``): its verdict rules on made-up tables whose answers are known
by construction, the rules read through the findings engine from a made-up results folder, the thresholds against
the constants ``advise`` applies, and the legibility of its figure at one column's width."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

from ndcg_research.findings import Results, answer, threshold
from ndcg_research.simulation.tables import read_table, write_table
from ndcg_research.studies.advise import findings as rules

ROOT = Path(__file__).resolve().parents[1]


def candidate(discount, cutoff="none", gain="linear", *, power=0.5, phi=0.99, swap=0.1, tau=1.0, **flags):
    """One row of advise's table; ``pairs_significant`` out of 10 pairs; not shortlisted, not recommended unless
    said."""
    k = "" if cutoff == "none" else f"@{cutoff}"
    return {
        "measure": f"ndcg{k}(gain={gain},discount={discount})",
        "discount": discount,
        "cutoff": cutoff,
        "gain": gain,
        "power": power,
        "pairs_significant": round(10 * power),
        "phi": phi,
        "swap_rate": swap,
        "tau_log2": tau,
        "shortlisted": flags.get("shortlisted", False),
        "recommended": flags.get("recommended", False),
    }


def table(*rows) -> pd.DataFrame:
    return pd.DataFrame(list(rows))


# --------------------------------------------------------------------------- what advise recommends


def test_log2_recommended_without_a_better_discount_holds():
    t = table(
        candidate("log2", power=0.6, phi=0.99, swap=0.10, shortlisted=True, recommended=True),
        # more dependable but less stable: not better on both
        candidate("loglog", power=0.6, phi=0.995, swap=0.12, shortlisted=True),
        # better on both, but not as discriminative (not shortlisted)
        candidate("zipf", power=0.3, phi=0.999, swap=0.05),
        # better on both and shortlisted, but at another cut-off
        candidate("loglog", "10", power=0.6, phi=0.999, swap=0.05, shortlisted=True),
    )
    f = rules.recommendation(t)
    assert f["verdict"] == "holds"
    assert f["rivals"].empty and f["row"]["discount"] == "log2"


def test_a_shortlisted_discount_better_on_phi_and_swaps_qualifies_it():
    t = table(
        candidate("log2", power=0.6, phi=0.990, swap=0.10, shortlisted=True, recommended=True),
        candidate("loglog", power=0.58, phi=0.995, swap=0.08, shortlisted=True),
        candidate("loglog", gain="exp2", power=0.6, phi=0.999, swap=0.01, shortlisted=True),  # another gain
    )
    f = rules.recommendation(t)
    assert f["verdict"] == "holds with qualification"
    assert list(f["rivals"]["measure"]) == ["ndcg(gain=linear,discount=loglog)"]


def test_another_discount_recommended_does_not_hold():
    t = table(
        candidate("log2", power=0.4, shortlisted=False),
        candidate("zipf", power=0.6, shortlisted=True, recommended=True),
    )
    assert rules.recommendation(t)["verdict"] == "does not hold"


@pytest.mark.parametrize("marked", [0, 2])
def test_the_table_must_mark_one_recommendation(marked):
    t = table(*(candidate(d, recommended=i < marked) for i, d in enumerate(["log2", "loglog"])))
    with pytest.raises(ValueError, match=f"marks {marked}"):
        rules.recommendation(t)


# --------------------------------------------------------------------------- notebook 08's rule on the discounts


def _discounts(log2, loglog, zipf, geometric):
    """Powers per discount at the whole run file under two gains (means given; the gains differ by +-0.02)."""
    rows = []
    for d, p in (("log2", log2), ("loglog", loglog), ("zipf", zipf), ("geometric(p=0.8)", geometric)):
        rows += [candidate(d, gain="linear", power=p - 0.02), candidate(d, gain="exp2", power=p + 0.02)]
        rows += [candidate(d, "10", power=0.0)]  # a cut-off, left out of the whole run file's powers
    return table(*rows)


def test_discount_powers_are_the_whole_run_files_mean_over_the_gains():
    power = rules.discount_powers(_discounts(0.5, 0.46, 0.3, 0.32))
    assert list(power.index) == ["log2", "loglog", "zipf", "geometric(p=0.8)"]
    assert power.to_numpy() == pytest.approx([0.5, 0.46, 0.3, 0.32])


@pytest.mark.parametrize(
    ("loglog", "zipf", "expected"),
    [
        (0.46, 0.3, "holds"),  # loglog within the margin (0.05) below log2, zipf below
        (0.6, 0.3, "holds"),  # loglog above log2
        (0.44, 0.3, "does not hold"),  # loglog further below than the margin
        (0.46, 0.5, "does not hold"),  # zipf as discriminative as log2: not below it
    ],
)
def test_notebook_08s_discount_rule(loglog, zipf, expected):
    assert threshold("movielens_power_margin") == 0.05  # the margin the cases are built around
    assert set(threshold("movielens_fast_decays")) == {"summable", "critical"}
    f = rules.discounts_verdict(rules.discount_powers(_discounts(0.5, loglog, zipf, 0.32)))
    assert f["verdict"] == expected
    assert f["slow"] == ["loglog"] and f["fast"] == ["zipf", "geometric(p=0.8)"]


def test_the_discount_rule_is_undecided_without_a_fast_discount():
    power = pd.Series({"log2": 0.5, "loglog": 0.5, "power(beta=0.5)": 0.4})
    assert rules.discounts_verdict(power)["verdict"] == "undecided"


# --------------------------------------------------------------------------- notebook 08's rule on the cut-offs


def _cutoffs(counts):
    """log2 rows with ``counts`` {gain: {cutoff: pairs}} (power = pairs / 10), and a zipf row that must not count."""
    rows = [candidate("log2", k, g, power=n / 10) for g, cells in counts.items() for k, n in cells.items()]
    return table(*rows, candidate("zipf", "10", power=0.9))


def test_cutoff_counts_are_log2s_by_gain_and_cutoff():
    counts = rules.cutoff_counts(_cutoffs({"linear": {"none": 6, "10": 4}, "exp2": {"none": 7, "10": 5}}))
    assert counts == {"linear": {"none": 6, "10": 4}, "exp2": {"none": 7, "10": 5}}


@pytest.mark.parametrize(
    ("counts", "expected"),
    [
        ({"linear": {"none": 6, "10": 4, "20": 7}, "exp2": {"none": 7, "10": 5}}, "holds"),  # @20 is not a small one
        ({"linear": {"none": 6, "10": 4}, "exp2": {"none": 5, "10": 5}}, "does not hold"),  # a tie is not fewer
        ({"linear": {"none": 6, "20": 4}}, "undecided"),  # no small cut-off of notebook 08 measured
        ({"linear": {"10": 4, "20": 5}}, "undecided"),  # no whole run file
    ],
)
def test_notebook_08s_cutoff_rule(counts, expected):
    assert tuple(threshold("movielens_small_cutoffs")) == ("5", "10")
    assert rules.cutoffs_verdict(rules.cutoff_counts(_cutoffs(counts)))["verdict"] == expected


# --------------------------------------------------------------------------- the findings on a made-up run


@pytest.fixture
def made_up_run(tmp_path):
    """A results folder as the notebook writes it: three systems (3 pairs), log2 kept over a better loglog."""
    rows = []
    for gain in ("linear", "exp2"):
        for k, scale in (("none", 1.0), ("10", 0.5)):
            rows += [
                candidate("log2", k, gain, power=0.6 * scale, phi=0.990, swap=0.10, shortlisted=scale == 1.0),
                candidate("loglog", k, gain, power=0.6 * scale, phi=0.995, swap=0.08, shortlisted=scale == 1.0),
                candidate("zipf", k, gain, power=0.3 * scale, phi=0.980, swap=0.20, tau=0.5),
            ]
    t = table(*rows)
    t.loc[0, "recommended"] = True  # log2, whole run file, linear
    t["pairs_significant"] = (3 * t["power"]).round().astype("int64")
    write_table(t, tmp_path / "14_advise_movielens.csv")
    record = {
        "parameters": {
            "seed": 7,
            "test_fraction": 0.2,
            "depth": 100,
            "convention": "trec_eval",
            "n_resamples": 10,
            "swap_trials": 5,
        },
        "movielens": {"systems": ["a", "b", "c"], "users": 50, "swap_set_size": 25, "alpha": 0.05},
    }
    (tmp_path / "14_advise.json").write_text(json.dumps(record), encoding="utf-8")
    return tmp_path


def test_the_findings_read_the_run_and_quote_it(made_up_run):
    results = Results(made_up_run, prefix="14_")
    kept = rules.advise_keeps_log2(results)
    assert kept.verdict == "holds with qualification"
    assert kept.values["recommended"] == "ndcg(gain=linear,discount=log2)"
    assert kept.values["rivals"] == [{"measure": "ndcg(gain=linear,discount=loglog)", "phi": "0.995", "swap": "0.08"}]
    assert kept.values["pairs"] == 3 and kept.values["design"] == "3 discounts x 2 cut-offs x 2 gains"
    assert kept.values["alpha"] == "5%" and kept.values["swap_users"] == 25
    discounts = rules.advise_discounts_agree(results)
    assert discounts.verdict == "holds"  # loglog = log2 = 0.6, zipf 0.3
    assert discounts.values["power"] == [
        {"discount": "log2", "value": "0.6"},
        {"discount": "loglog", "value": "0.6"},
        {"discount": "zipf", "value": "0.3"},
    ]
    cutoffs = rules.advise_cutoffs_agree(results)
    assert cutoffs.verdict == "holds"  # @10: round(3 * 0.3) = 1 pair against 2 for the whole run file
    assert cutoffs.values["counts"][0] == {"gain": "linear", "cells": "whole run file 2, @10 1"}


def test_the_answer_table_shows_the_three_findings_of_a_run(made_up_run):
    shown = answer("14_advise.ipynb", made_up_run).table
    assert list(shown["Verdict"]) == ["holds with qualification", "holds", "holds"]


# --------------------------------------------------------------------------- thresholds and the committed table


def test_the_thresholds_are_the_margins_advise_applies():
    from ndcg_research.advice import PHI_MARGIN, POWER_MARGIN

    assert threshold("advise_power_margin") == POWER_MARGIN
    assert threshold("advise_phi_margin") == PHI_MARGIN


def test_the_committed_table_was_shortlisted_with_the_files_margin():
    path = ROOT / "results" / "full" / "14_advise_movielens.csv"
    t = read_table(path)
    within = t["power"] >= t["power"].max() - threshold("advise_power_margin") - 1e-12
    assert (t["shortlisted"] == within).all()
    assert t["recommended"].sum() == 1
