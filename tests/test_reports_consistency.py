"""Notebook 09's reader tables and its reading-(b) verdict rule, against the committed tables and by hand."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pandas as pd

from ndcg_research.findings.catalogue import catalogue
from ndcg_research.simulation.tables import read_table
from ndcg_research.studies.consistent_distinguishability import experiment as consistency
from ndcg_research.studies.consistent_distinguishability import report
from ndcg_research.studies.consistent_distinguishability.report import (
    failure_ends,
    growth_by_discount,
    growth_grid,
    normal_check,
    settle_from,
    stream_by_discount,
    stream_grid,
    stream_verdicts,
)

THRESHOLDS = catalogue().thresholds

FULL = Path(__file__).resolve().parent.parent / "results" / "full"
LABELS = ("uncertain", "certain")


def test_the_stream_verdicts_reproduce_the_committed_table():
    committed = read_table(FULL / "09_stream_changes.csv")
    stability = {label: read_table(FULL / f"09_stream_stability_{label}.csv") for label in LABELS}
    base = committed.drop(columns=["n0", "p_settled", "p_settled_low", "p_settled_high", "verdict"])
    n_last = int(committed["n_last"].iloc[0])
    grid = sorted(stability["certain"]["n0"].unique())
    n0 = report.settle_from(grid, n_last)
    assert n0 == int(committed["n0"].iloc[0]) and n0 <= THRESHOLDS["stream_settle_from"].value * n_last
    pd.testing.assert_frame_equal(report.stream_verdicts(stability, base, n0), committed, check_dtype=False)
    assert all(
        THRESHOLDS[name].fixed == "before the runs"
        for name in ("stream_settled_lower", "stream_not_settled_upper", "stream_settle_from")
    )


def test_the_verdict_rule_by_hand():
    stability = {
        "m": pd.DataFrame(
            {
                "discount": "d",
                "better": "a",
                "worse": "b",
                "n0": 10,
                "p_settled": [0.99, 0.3, 0.7],
                "p_settled_low": [0.951, 0.2, 0.5],
                "p_settled_high": [1.0, 0.5, 0.8],
            }
        ).assign(better=["a", "c", "e"])
    }
    changes = pd.DataFrame({"label": "m", "discount": "d", "better": ["a", "c", "e"], "worse": "b"})
    out = report.stream_verdicts(stability, changes, 10)
    assert out["verdict"].tolist() == ["settled", "not settled", "partly settled"]


def test_reader_tables_are_short_and_carry_the_counts():
    failures = {label: read_table(FULL / f"09_failure_{label}.csv") for label in LABELS}
    ends = report.failure_ends(failures, 100, 12800)
    assert ends.shape == (10, 4)
    row = failures["certain"].query("discount == 'log2' and better == 'bayes' and n == 12800").iloc[0]
    cell = ends.loc[("certain", "log2"), ("bayes > noisy(sigma=0.5)", 12800)]
    assert re.match(rf"^{round(row.p_fail * row.replicates)}/{row.replicates} \[\d\.\d{{4}},\d\.\d{{4}}\]$", cell)
    growth = read_table(FULL / "09_growth.csv")
    grid = report.growth_grid(growth)
    assert grid.shape == (10, 2)
    assert sum(c.endswith(": yes") for c in grid.to_numpy().ravel()) == int(growth["vanishes_superpolynomially"].sum())
    by = report.growth_by_discount(growth)
    assert by.loc["log2", "faster than any power (cases)"] == "4 of 4" and len(by) == 5
    changes = read_table(FULL / "09_stream_changes.csv")
    assert report.stream_grid(changes).shape == (10, 2) and len(report.stream_by_discount(changes)) == 5


def test_normal_check_by_hand():
    rows = pd.DataFrame(
        {
            "discount": "d",
            "p_fail": [0.2, 0.005, 0.6, 0.1],
            "p_fail_low": [0.15, 0.0, 0.5, 0.05],
            "p_fail_high": [0.25, 0.01, 0.7, 0.12],
            "p_fail_normal": [0.22, 0.001, 0.6, 0.15],
        }
    )
    # Only the cells with a share from 0.01 to 0.5 count: 0.2 (inside) and 0.1 (outside, ratio 1.5).
    assert report.normal_check({"m": rows}).values.tolist() == [["1 of 2", "1.10 to 1.50"]]
    assert consistency.geometric_grid(100, 400, 1) == [100, 200, 400]


# ------------------------------------------------------------ examples of studies.consistent_distinguishability.report


def test_settle_from_example():
    assert settle_from([100, 141, 200, 283, 400], 3200) == 283
    assert settle_from([500, 1000], 3200) == 500


def test_stream_verdicts_example():
    s = {
        "m": pd.DataFrame(
            {
                "discount": "log2",
                "better": "a",
                "worse": "b",
                "n0": [10, 20],
                "p_settled": [0.9, 1.0],
                "p_settled_low": [0.8, 0.96],
                "p_settled_high": [0.95, 1.0],
            }
        )
    }
    c = pd.DataFrame({"label": ["m"], "discount": ["log2"], "better": ["a"], "worse": ["b"]})
    assert stream_verdicts(s, c, 20)["verdict"].tolist() == ["settled"]


def test_failure_ends_example():
    f = pd.DataFrame(
        {"discount": "log2", "better": "a", "worse": "b", "n": [10, 20], "p_fail": [0.25, 0.0], "replicates": 400}
    )
    assert failure_ends({"m": f}, 10, 20).values.tolist() == [["100/400 [0.2101,0.2947]", "0/400 [0.0000,0.0095]"]]


def test_growth_grid_example():
    g = pd.DataFrame(
        {
            "label": "m",
            "discount": "log2",
            "better": "a",
            "worse": "b",
            "exponent": [0.5],
            "exponent_low": [0.3],
            "exponent_high": [0.7],
            "vanishes_superpolynomially": [True],
        }
    )
    assert growth_grid(g).values.tolist() == [["0.50 [0.30, 0.70]: yes"]]


def test_growth_by_discount_example():
    g = pd.DataFrame(
        {"discount": ["log2", "log2"], "exponent": [0.4, np.nan], "vanishes_superpolynomially": [True, False]}
    )
    assert growth_by_discount(g).values.tolist() == [["1 of 2", "0.40"]]


def test_normal_check_example():
    f = pd.DataFrame(
        {
            "discount": "log2",
            "p_fail": [0.1, 0.2, 0.001],
            "p_fail_low": [0.08, 0.15, 0.0],
            "p_fail_high": [0.12, 0.25, 0.01],
            "p_fail_normal": [0.11, 0.3, 0.001],
        }
    )
    assert normal_check({"m": f}).values.tolist() == [["1 of 2", "1.10 to 1.50"]]


def test_stream_grid_example():
    c = pd.DataFrame(
        {
            "label": "m",
            "discount": "log2",
            "better": "a",
            "worse": "b",
            "p_settled": [0.95],
            "streams": [40],
            "verdict": ["partly settled"],
        }
    )
    assert stream_grid(c).values.tolist() == [["partly settled: 38/40 [0.83,0.99]"]]


def test_stream_by_discount_example():
    c = pd.DataFrame({"discount": "log2", "verdict": ["settled", "partly settled"], "p_settled": [0.99, 0.9]})
    assert stream_by_discount(c).values.tolist() == [["partly settled: 1, settled: 1", "0.90 to 0.99"]]
