"""Notebook 10's reader tables against the committed full profile and by hand."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pandas as pd

from ndcg_research.pipeline.tables import chance_level
from ndcg_research.simulation.tables import read_table
from ndcg_research.studies.crossing_rankers import report
from ndcg_research.studies.crossing_rankers.report import (
    crossing_grid,
    crossing_order,
    disagreement_in_expectation,
    disagreement_shares,
    head_wins,
    largest_disagreement,
    same_in_every_model,
    theory_agreement,
)

FULL = Path(__file__).resolve().parent.parent / "results" / "full"
DISCOUNTS = ["power(beta=2)", "geometric(p=0.5)", "zipf", "power(beta=0.5)", "log2", "logpower(gamma=0.5)", "loglog"]


def test_crossing_tables_of_the_full_profile():
    crossings = read_table(FULL / "10_crossings.csv")
    grid = report.crossing_grid(crossings, "certain", DISCOUNTS, 10**6)
    assert grid.shape == (7, 2)
    assert grid.loc["log2", "head(m=10)"] == "71" and grid.loc["geometric(p=0.5)", "head(m=10)"] == "none up to 1000000"
    assert report.same_in_every_model(crossings, 10).startswith("the crossings are the same in every model: True")
    order = report.crossing_order(crossings, "certain", 10**6)
    assert order.loc["head(m=10)", "crossing order (n)"].split(" < ")[0] == "logpower(gamma=0.5) (60)"
    # slowly varying crossings for m = 10: 60, 67, 71 -> factor 71 / 60 and 6.0 to 7.1 times m
    assert order.loc["head(m=10)"].iloc[2:].tolist() == [f"{71 / 60:.2f}", "6.0 to 7.1"]
    expected = report.disagreement_in_expectation(crossings, "certain", 10**6)
    assert expected.loc["zipf", "head(m=10)"] == "n in [71, 110)" and len(expected) == 6


def test_decision_tables_are_counts_with_chance_cells_marked():
    decisions = read_table(FULL / "10_decisions_uncertain.csv")
    wins = report.head_wins(decisions)
    assert wins.shape[0] == 14
    flags = dict(
        zip(
            zip(decisions["first"], decisions["discount"], decisions["n"], strict=False),
            chance_level(decisions, "p_first"),
            strict=False,
        )
    )
    for (head, discount), row in wins.iterrows():
        for n, cell in row.items():
            assert re.match(r"^\d+/1000 \[\d\.\d\d,\d\.\d\d\]", cell)
            assert cell.endswith("(chance)") == flags[(head, discount, n)]
    shares = report.disagreement_shares(decisions)
    assert shares.shape[0] == 12 and "log2" not in shares.index.get_level_values("discount")


def test_largest_disagreement_and_theory_agreement_by_hand():
    decisions = {
        "m": pd.DataFrame(
            {
                "first": "h",
                "discount": ["log2", "zipf", "zipf", "loglog"],
                "n": [10, 10, 20, 10],
                "p_differs": [0.0, 0.1, 0.5, 0.02],
                "replicates": 100,
            }
        )
    }
    out = report.largest_disagreement(decisions, {"zipf": "critical", "loglog": "slowly varying"})
    assert out.loc["critical"].tolist()[1:] == ["zipf", "h", 20, "m"] and out.loc["critical"].iloc[0].startswith(
        "50/100"
    )
    crossings = pd.DataFrame(
        {
            "label": "m",
            "first": "h",
            "discount": ["log2", "zipf"],
            "crossing_n": [100.0, np.nan],
            "first_ahead_below": True,
        }
    )
    table = pd.DataFrame(
        {
            "first": "h",
            "discount": ["log2"] * 3 + ["zipf"],
            "n": [10, 50, 1000, 10],
            "p_first_low": [0.6, 0.2, 0.55, 0.45],
            "p_first_high": [0.7, 0.3, 0.6, 0.55],
        }
    )
    # log2: n = 10 far below (head expected, head wins: agrees), n = 50 not far (skipped), n = 1000 far above (noisy
    # expected, head wins: disagrees); zipf never crosses (head expected) but its cell is undecided (skipped).
    assert report.theory_agreement({"m": table}, crossings).endswith("in 1 of 2 decided cells")


# ------------------------------------------------------------ examples of studies.crossing_rankers.report


def test_crossing_grid_example():
    c = pd.DataFrame(
        {"label": "m", "first": ["head(m=10)"] * 2, "discount": ["log2", "zipf"], "crossing_n": [71.0, np.nan]}
    )
    assert crossing_grid(c, "m", ["log2", "zipf"], 1000).values.tolist() == [["71"], ["none up to 1000"]]


def test_same_in_every_model_example():
    c = pd.DataFrame(
        {"label": ["a", "b"], "first": "h", "discount": "log2", "crossing_n": [71.0, 71.0], "first_ahead_below": True}
    )
    expected = "the crossings are the same in every model: True; the head leads at n = 10 under every discount: True"
    assert same_in_every_model(c, 10) == expected


def test_crossing_order_example():
    c = pd.DataFrame(
        {
            "label": "m",
            "first": "head(m=10)",
            "discount": ["log2", "loglog", "zipf"],
            "decay": ["slowly varying", "slowly varying", "critical"],
            "crossing_n": [70.0, 60.0, np.nan],
        }
    )
    assert crossing_order(c, "m", 1000).values.tolist() == [["loglog (60) < log2 (70)", "zipf", "1.17", "6.0 to 7.0"]]


def test_theory_agreement_example():
    d = {
        "m": pd.DataFrame(
            {"first": "h", "discount": "log2", "n": [10, 1000], "p_first_low": [0.6, 0.01], "p_first_high": [0.8, 0.1]}
        )
    }
    c = pd.DataFrame(
        {"label": "m", "first": "h", "discount": "log2", "crossing_n": [100.0], "first_ahead_below": [True]}
    )
    expected = (
        "far from the crossing (a factor 3 either side), the majority of data sets picks the ranker the theory "
        "expects in 2 of 2 decided cells"
    )
    assert theory_agreement(d, c) == expected


def test_head_wins_example():
    d = pd.DataFrame({"first": "h", "discount": "log2", "n": [10, 100], "p_first": [0.5, 0.0], "replicates": 200})
    assert head_wins(d).values.tolist() == [["100/200 [0.43,0.57] (chance)", "0/200 [0.00,0.02]"]]


def test_disagreement_in_expectation_example():
    c = pd.DataFrame(
        {
            "label": "m",
            "first": "h",
            "discount": ["log2", "zipf", "geometric(p=0.5)"],
            "crossing_n": [71.0, 110.0, np.nan],
        }
    )
    expected = [["n in [71, 110)"], ["from n = 71 on (no crossing up to 1000)"]]
    assert disagreement_in_expectation(c, "m", 1000).values.tolist() == expected


def test_disagreement_shares_example():
    d = pd.DataFrame({"first": "h", "discount": ["log2", "zipf"], "n": 10, "p_differs": [0.0, 0.25], "replicates": 200})
    assert disagreement_shares(d).values.tolist() == [["50/200"]]


def test_largest_disagreement_example():
    d = {
        "m": pd.DataFrame(
            {"first": "h", "discount": ["log2", "zipf"], "n": 10, "p_differs": [0.0, 0.25], "replicates": 200}
        )
    }
    expected = [["50/200 [0.20,0.31]", "zipf", "h", 10, "m"]]
    assert largest_disagreement(d, {"zipf": "critical", "log2": "slowly varying"}).values.tolist() == expected
