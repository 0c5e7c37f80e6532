"""Notebook 05's reader tables: short, named, and equal to the result tables they come from."""

from __future__ import annotations

import re
from pathlib import Path

import pandas as pd
import pytest

from ndcg_research.pipeline.tables import chance_level
from ndcg_research.simulation import theory
from ndcg_research.simulation.tables import read_table
from ndcg_research.studies.cutoff import report
from ndcg_research.studies.cutoff.report import (
    curve_summary,
    detail,
    limit_distance,
    limits,
    p_last_grid,
    values_at,
    verdict_grid,
)

FULL = Path(__file__).resolve().parent.parent / "results" / "full"
SPEC = {"certain": "probit", "uncertain": "probit(lo=0.1, hi=0.6)"}


@pytest.fixture(scope="module")
def full():
    return {name: read_table(FULL / f"05_cutoff_{name}.csv") for name in ("means", "pairs", "verdicts")}


def test_values_sit_beside_the_theorys_limits(full):
    n = int(full["means"]["n"].max())
    table = report.values_at(full["means"], SPEC["uncertain"], n, ["bayes", "noisy(sigma=1)"])
    assert table.shape == (8, 8)
    # A fixed cut-off: every ranker with a signal heads for the top limit hi = 0.6 of the uncertain-top model.
    limit = table["limit (theory)"]
    assert (limit.loc["fixed(k=10)"] == theory.top_limit(SPEC["uncertain"], "bayes")).all().all()
    source = full["means"].set_index(["model", "rule", "discount", "ranker", "n"])["mean"]
    for (rule, ranker), row in table[f"mean nDCG@k at n = {n}"].iterrows():
        for discount, value in row.items():
            assert value == round(source[(SPEC["uncertain"], rule, discount, ranker, n)], 3)


def test_verdict_grids_are_short_and_carry_the_verdict_tables_cells(full):
    verdicts = full["verdicts"]
    grid, p = report.verdict_grid(verdicts), report.p_last_grid(verdicts)
    assert grid.shape == p.shape == (8, 4)
    flags = chance_level(verdicts, "p_better_last")
    for r, flag in zip(verdicts.itertuples(), flags, strict=False):
        assert grid.loc[(r.model, r.rule), r.discount] == r.verdict
        cell = p.loc[(r.model, r.rule), r.discount]
        wins = round(r.p_better_last * r.replicates)
        assert re.match(rf"^{wins}/{r.replicates} \[\d\.\d\d,\d\.\d\d\]", cell) and cell.endswith("(chance)") == flag
    # A cell the rule calls a loss at 300 data sets may be a coin flip, never a win.
    assert not any(flag and r.verdict == "keeps" for r, flag in zip(verdicts.itertuples(), flags, strict=False))


def test_detail_and_curve_summary_by_hand(full):
    table = report.detail(full["pairs"], SPEC, ["fixed(k=10)", "power(a=0.5)"], "log2")
    assert len(table) == 8
    pairs = full["pairs"]
    rows = pairs[
        (pairs["model"] == "probit")
        & (pairs["rule"] == "fixed(k=10)")
        & (pairs["discount"] == "log2")
        & (pairs["worse"] == "noisy(sigma=1)")
    ].sort_values("n")
    first, last = rows.iloc[0], rows.iloc[-1]
    want = f"{round(first.p_better * 300)}/300 -> {round(last.p_better * 300)}/300"
    assert table.loc[("certain", "bayes > noisy(sigma=1)", "fixed(k=10)")].iloc[0] == want
    curves = pd.DataFrame({"model": "m", "ranker": "r", "k": [1, 2, 3, 4], "mean": [0.9, 0.7, 0.6, 0.95]})
    assert report.curve_summary(curves, {"m": 3.4}).values.tolist() == [[0.9, 0.6, 3.0, 0.95, 3.0]]


def test_limit_distance_by_hand():
    means = pd.DataFrame(
        {
            "model": "probit",
            "rule": ["fixed(k=10)"] * 2 + ["all"] * 2,
            "discount": "log2",
            "ranker": ["bayes", "random"] * 2,
            "n": 100,
            "mean": [0.98, 0.47, 0.97, 0.93],
        }
    )
    out = report.limit_distance(means, ["probit"], 100, ["bayes", "random"])
    # fixed: limits 1 and 0.5 (top limits); all under log2: 1 for both.
    assert out.loc["fixed(k=10)", "log2"] == 0.03 and out.loc["all", "log2"] == 0.07


# ------------------------------------------------------------ examples of studies.cutoff.report


def test_limits_example():
    assert limits("probit", "fixed(k=10)", "log2", ["bayes", "random"]) == [1.0, 0.5]
    assert limits("probit", "all", "log2", ["random"]) == [1.0]


def test_values_at_example():
    m = pd.DataFrame(
        {
            "model": "probit",
            "rule": "fixed(k=10)",
            "discount": "log2",
            "ranker": ["bayes", "random"],
            "n": 100,
            "mean": [0.99, 0.51],
        }
    )
    assert values_at(m, "probit", 100, ["bayes", "random"]).values.tolist() == [[0.99, 1.0], [0.51, 0.5]]


def test_limit_distance_example():
    m = pd.DataFrame(
        {
            "model": "probit",
            "rule": "fixed(k=10)",
            "discount": "log2",
            "ranker": ["bayes", "random"],
            "n": 100,
            "mean": [0.99, 0.53],
        }
    )
    assert limit_distance(m, ["probit"], 100, ["bayes", "random"]).values.tolist() == [[0.03]]


def test_verdict_grid_example():
    v = pd.DataFrame({"model": "m", "rule": "all", "discount": ["log2", "zipf"], "verdict": ["keeps", "loses"]})
    assert verdict_grid(v).values.tolist() == [["keeps", "loses"]]


def test_p_last_grid_example():
    v = pd.DataFrame(
        {"model": "m", "rule": "all", "discount": ["log2", "zipf"], "p_better_last": [1.0, 0.5], "replicates": [20, 20]}
    )
    assert p_last_grid(v).values.tolist() == [["20/20 [0.84,1.00]", "10/20 [0.30,0.70] (chance)"]]


def test_detail_example():
    p = pd.DataFrame(
        {
            "model": "probit",
            "rule": "fixed(k=10)",
            "discount": "log2",
            "better": "a",
            "worse": "b",
            "n": [10, 100],
            "p_better": [0.5, 0.05],
            "p_tie": [0.3, 0.95],
            "mean_gap": [0.02, 0.004],
            "replicates": 20,
        }
    )
    expected = [["10/20 -> 1/20", "6/20 -> 19/20", "0.020 -> 0.004"]]
    assert detail(p, {"certain": "probit"}, ["fixed(k=10)"], "log2").values.tolist() == expected


def test_curve_summary_example():
    c = pd.DataFrame({"model": "m", "ranker": "r", "k": [1, 5, 10], "mean": [1.0, 0.8, 0.97]})
    assert curve_summary(c, {"m": 5.0}).values.tolist() == [[1.0, 0.8, 5.0, 0.97, 5.0]]
