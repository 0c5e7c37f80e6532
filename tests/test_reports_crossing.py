"""Notebook 10's reader tables against the committed full profile and by hand."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pandas as pd

from ndcg_research.studies.crossing_rankers import report
from ndcg_research.pipeline.tables import chance_level
from ndcg_research.simulation.tables import read_table

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
    flags = dict(zip(zip(decisions["first"], decisions["discount"], decisions["n"]), chance_level(decisions, "p_first")))
    for (head, discount), row in wins.iterrows():
        for n, cell in row.items():
            assert re.match(r"^\d+/1000 \[\d\.\d\d,\d\.\d\d\]", cell)
            assert cell.endswith("(chance)") == flags[(head, discount, n)]
    shares = report.disagreement_shares(decisions)
    assert shares.shape[0] == 12 and "log2" not in shares.index.get_level_values("discount")


def test_largest_disagreement_and_theory_agreement_by_hand():
    decisions = {"m": pd.DataFrame({"first": "h", "discount": ["log2", "zipf", "zipf", "loglog"], "n": [10, 10, 20, 10],
                                    "p_differs": [0.0, 0.1, 0.5, 0.02], "replicates": 100})}
    out = report.largest_disagreement(decisions, {"zipf": "critical", "loglog": "slowly varying"})
    assert out.loc["critical"].tolist()[1:] == ["zipf", "h", 20, "m"] and out.loc["critical"].iloc[0].startswith("50/100")
    crossings = pd.DataFrame({"label": "m", "first": "h", "discount": ["log2", "zipf"], "crossing_n": [100.0, np.nan],
                              "first_ahead_below": True})
    table = pd.DataFrame({"first": "h", "discount": ["log2"] * 3 + ["zipf"], "n": [10, 50, 1000, 10],
                          "p_first_low": [0.6, 0.2, 0.55, 0.45], "p_first_high": [0.7, 0.3, 0.6, 0.55]})
    # log2: n = 10 far below (head expected, head wins: agrees), n = 50 not far (skipped), n = 1000 far above (noisy
    # expected, head wins: disagrees); zipf never crosses (head expected) but its cell is undecided (skipped).
    assert report.theory_agreement({"m": table}, crossings).endswith("in 1 of 2 decided cells")
