"""Notebook 06's tables: by hand, and the replication comparison against the committed full profile."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from ndcg_research.simulation.tables import read_table
from ndcg_research.studies.limitations import experiment as lim
from ndcg_research.studies.limitations import report
from ndcg_research.studies.limitations.report import (
    appending_cases,
    appending_example,
    bias_table,
    novel_ahead,
    order_table,
    replication_summary,
    signed,
    truncation_pair,
    truncation_summary,
)

FULL = Path(__file__).resolve().parent.parent / "results" / "full"
NAMES = ("06_appending.csv", "06_truncation.csv", "06_pooling_bias.csv", "06_pooling_order.csv")


def test_appending_never_lowers_and_the_example_table():
    rng = np.random.default_rng(7)
    lists = lim.random_graded_lists(200, 12, [0.5, 0.2, 0.2, 0.1], seed=rng)
    lists[:, 0] = np.maximum(lists[:, 0], 1)
    known = np.concatenate([lists, lim.random_graded_lists(200, 3, [0.5, 0.2, 0.2, 0.1], seed=rng)], axis=1)
    cases = report.appending_cases(lists, known, [1, 10], [None, 5, "longer"])
    assert cases["cases"] == 200 * 2 * 3 * 3 * 2 and cases["lowered"] == cases["changed"] == 0
    table = report.appending_example([3, 2, 3, 0, 1, 2], [3, 2, 3, 0, 1, 2, 3, 2])
    assert table["nDCG"].nunique() == 1 and table.loc[50, "precision"] == round(5 / 56, 3)


def test_truncation_pair_by_hand():
    pair = report.truncation_pair([1, 1, 1, 1, 1], 3, [1, 1, 1, 1, 1], 5)
    # Own ideal: both lists are perfect, 1.0; all judgments @k = 5: the prefix holds 3 of the 5 relevant ones.
    assert pair.loc["own ideal, whole list"].tolist() == [1.0, 1.0, "short = long"]
    dcg = lambda m: sum(1 / math.log2(i + 1) for i in range(1, m + 1))  # noqa: E731
    assert pair.loc["all judgments, @k", "nDCG, short"] == round(dcg(3) / dcg(5), 3)
    summary = report.truncation_summary({"c": (np.array([0.5, 0.7, 0.6]), np.array([0.6, 0.6, 0.6]))})
    assert summary.loc["c"].tolist() == pytest.approx([2 / 3, 1 / 3, 0.6, 0.6])


def test_pooling_tables_carry_the_bias_arrays():
    model = lim.PoolingModel(n_docs=200, grade_probs=(0.9, 0.05, 0.03, 0.02), pooled_noise=(0.0, 1.0))
    common = dict(n_queries=5, replicates=4, seed=3, k=10, run_length=30, n_jobs=1)
    pool = lim.pooling_experiment(model, [1, 10], **common)
    control = lim.pooling_experiment(model, [1, 10], pool_novel=True, **common)
    bias, bias_control = lim.summarize_bias(pool["means"]), lim.summarize_bias(control["means"])
    systems, novel = pool["systems"], len(pool["systems"]) - 1
    order, ties = report.novel_ahead(pool, control, 0, novel)
    truly = pool["means"][:, 0, 0]
    assert order[1][0] == np.mean(truly[:, novel] > truly[:, 0]) and len(ties) == 2
    tables = report.result_tables(
        cases={"cases": 1, "lowered": 0, "changed": 0},
        truncation=report.truncation_summary({"c": (np.ones(2), np.ones(2))}),
        lists=2,
        bias=bias,
        control=bias_control,
        order=order,
        depths=[1, 10],
        systems=systems,
        replicates=4,
        seed=3,
    )
    shown = report.bias_table(tables["06_pooling_bias.csv"], systems[0], systems[novel])
    assert shown.loc[10, "novel, condensed"].startswith(report.signed(bias["bias"][1, 1, novel]))
    assert shown.shape == (2, 5) and report.order_table(tables["06_pooling_order.csv"]).shape == (2, 4)


def test_the_replication_of_the_full_profile_with_itself_and_with_a_shifted_copy():
    there = {name: read_table(FULL / name) for name in NAMES}
    cells = report.replication_cells(there, there)
    summary, line = report.replication_summary(cells)
    total = sum(len(t) for t in there.values())  # every cell of every table, matched with itself
    assert (summary["|z| > 3"] == 0).all() and line.startswith(f"replication: {total} of {total} comparisons")
    shifted = dict(there)
    shifted["06_pooling_bias.csv"] = there["06_pooling_bias.csv"].assign(bias=lambda t: t["bias"] + 0.05)
    far = report.beyond_chance(report.replication_cells(shifted, there))
    # A shift far beyond the intervals' width is beyond chance wherever the intervals are narrow.
    assert len(far) > 0 and set(far["table"]) == {"06_pooling_bias.csv"}
    assert (far["this run"] - far["full profile"]).round(3).eq(0.05).all()


# ------------------------------------------------------------ examples of studies.limitations.report


def test_signed_example():
    assert (signed(-1e-17), signed(0.1234), signed(-0.0426)) == ("+0.000", "+0.123", "-0.043")


def test_appending_example_example():
    assert appending_example([1, 0], [1, 0], (0, 2))["nDCG"].tolist() == [1.0, 1.0]


def test_appending_cases_example():
    out = appending_cases(np.array([[2, 0, 1]]), np.array([[2, 1, 1, 0]]), [1], [None, 2])
    assert (out["cases"], out["lowered"], out["changed"]) == (12, 0, 0)


def test_truncation_pair_example():
    expected = "short < long"
    assert truncation_pair([1, 1, 1, 1, 1], 3, [1, 1, 1, 1, 1], 5).loc["all judgments, @k", "short vs long"] == expected


def test_truncation_summary_example():
    t = {"c": (np.array([0.5, 0.9]), np.array([0.6, 0.6]))}
    assert truncation_summary(t).values.tolist() == [[0.5, 0.5, 0.7, 0.6]]


def test_novel_ahead_example():
    means = np.zeros((2, 1, 3, 2))
    means[0, 0, :, 1] = 1.0
    assert novel_ahead({"means": means, "depths": [5]}, {"means": means}, 0, 1) == ({5: [0.5, 0.5, 0.5, 0.5]}, [4])


def test_bias_table_example():
    r = pd.DataFrame(
        {
            "depth": 1,
            "system": ["a", "b"],
            "method": "unjudged = 0",
            "novel_pooled": False,
            "bias": [0.1, -0.2],
            "low": [0.05, -0.3],
            "high": [0.15, -0.1],
        }
    )
    assert bias_table(r, "a", "b").values.tolist() == [["+0.100 [+0.050, +0.150]", "-0.200 [-0.300, -0.100]"]]


def test_order_table_example():
    r = pd.DataFrame({"depth": 1, "method": ["true", "condensed"], "p_novel_ahead": [1.0, 0.5], "collections": 30})
    assert order_table(r).values.tolist() == [["30/30 [0.89,1.00]", "15/30 [0.33,0.67]"]]


def test_replication_summary_example():
    cells = {"06_truncation.csv": pd.DataFrame({"z": [0.5, np.nan, 3.5]})}
    table, line = replication_summary(cells)
    expected = (
        [[3.0, 1.0, 3.5, 1.0]],
        "replication: 2 of 3 comparisons agree within chance (|z| <= 3); if the two runs measured the same "
        "quantities, about 0.0 of the 2 with a test would exceed 3 by chance",
    )
    assert (table.values.tolist(), line) == expected
