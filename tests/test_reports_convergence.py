"""Notebook 03's reader tables: short, named, and equal to the result tables they come from."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy.stats import norm

from ndcg_research.pipeline.tables import stack
from ndcg_research.simulation import finite_n
from ndcg_research.simulation.tables import read_table
from ndcg_research.studies.convergence import report
from ndcg_research.studies.convergence.report import (
    agreement_summary,
    compare_with_theory,
    first_order_far,
    first_order_summary,
    misses,
    power_table,
    replication,
    slow_means,
    slow_order,
    summable_spread,
    zipf_table,
)

FULL = Path(__file__).resolve().parent.parent / "results" / "full"
MAX_ROWS = 15  # a reader table's longest (tests/test_studies_notebook_outputs.py)
MODELS = {"certain": "probit", "uncertain": "probit(lo=0.1, hi=0.6)", "graded": "probit(grades=3)"}


@pytest.fixture(scope="module")
def full():
    return {
        kind: stack({label: read_table(FULL / f"03_{kind}_{label}.csv") for label in MODELS})
        for kind in ("ndcg", "theory", "theory_vs_simulation")
    }


def test_the_derived_result_tables_reproduce_the_committed_ones(full):
    means, compared = full["ndcg"], full["theory_vs_simulation"]
    theory_tables = {label: read_table(FULL / f"03_theory_{label}.csv") for label in MODELS}
    fast = report.fast_discount_table(
        means,
        theory_tables,
        ["power(beta=2)", "geometric(p=0.5)", "zipf"],
        int(means["n"].min()),
        int(means["n"].max()),
    )
    committed = read_table(FULL / "03_fast_discounts.csv")
    pd.testing.assert_frame_equal(
        fast.sort_values(["label", "discount", "ranker"]).reset_index(drop=True),
        committed.sort_values(["label", "discount", "ranker"]).reset_index(drop=True),
        check_dtype=False,
    )
    agreement = report.agreement_table(compared, MODELS)
    pd.testing.assert_frame_equal(
        agreement.reset_index(drop=True), read_table(FULL / "03_agreement.csv"), check_dtype=False
    )


def test_reader_tables_of_the_full_profile_are_short(full):
    n1 = int(full["ndcg"]["n"].max())
    fast = read_table(FULL / "03_fast_discounts.csv")
    agreement = read_table(FULL / "03_agreement.csv")
    tables = [
        report.slow_means(full["ndcg"], 100, n1, ["log2", "logpower(gamma=0.5)", "loglog"]),
        report.first_order_summary(full["theory_vs_simulation"], n1),
        report.power_table(full["theory_vs_simulation"], n1),
        report.zipf_table(fast),
        report.summable_spread(fast, ["bayes", "random"], ["coarse(bins=4)"]),
        report.misses(agreement),
        report.full_profile_numbers(full["theory_vs_simulation"], full["ndcg"], full["theory"]),
    ]
    assert all(0 < len(t) <= MAX_ROWS for t in tables), [len(t) for t in tables]
    # The misses table groups the cells the theory misses: every one of them, once.
    rankers = [cell for row in report.misses(agreement)["ranker: n"] for cell in row.split("; ")]
    shown = sum(len(cell.split(": ")[1].split(", ")) for cell in rankers)
    assert shown == int((~agreement["finite_n_agrees"]).sum())


def test_agreement_summary_counts_and_the_misses_chance_would_give():
    table = pd.DataFrame(
        {"finite_n_agrees": [True] * 1174 + [False] * 26, "rare_miss_share": [np.nan] * 1174 + [0.9] * 16 + [0.1] * 10}
    )
    row = report.agreement_summary({"every n": table}).loc["every n"]
    assert row.tolist() == [1200, 1174, 26, f"{1200 * 2 * norm.sf(3):.1f}", 16]
    assert row.iloc[3] == "3.2"  # issue 18: about 3.2 of 1,200 cells outside 3 se by chance alone


def test_misses_and_slow_order_by_hand():
    a = pd.DataFrame(
        {
            "label": ["m", "m", "m", "m"],
            "discount": ["d", "d", "d", "e"],
            "ranker": ["r", "r", "s", "r"],
            "n": [10, 100, 1000, 10],
            "finite_n_agrees": [False, False, False, False],
            "finite_n_z": [3.5, -150.0, 4.0, np.nan],
            "rare_miss_share": [0.2, 0.6, 0.1, 1.0],
            "replicates": [100, 100, 100, 20],
        }
    )
    out = report.misses(a)
    assert out.loc[("m", "d")].tolist() == [
        "r: 10, 100; s: 1000",
        "> 100",
        "0.10 to 0.60",
        "short of data at 1 of 3 cells",
    ]
    assert out.loc[("m", "e")].tolist() == ["r: 10", "undefined (sd 0)", "1.00", "short of data at 1 of 1 cells"]
    assert report.misses(a.assign(finite_n_agrees=True)).empty

    m = pd.DataFrame(
        {
            "label": "a",
            "ranker": "r",
            "discount": ["log2"] * 3 + ["loglog"] * 3,
            "n": [10, 100, 1000] * 2,
            "mean": [0.8, 0.9, 0.95, 0.79, 0.92, 0.96],
        }
    )
    rises, ordered = report.slow_order(m, [10, 100, 1000], ["log2", "loglog"])
    assert rises == "every ranker's mean nDCG rises with n: True; lowest mean at n = 1000: 0.950 (r, a model, log2)"
    assert ordered.endswith("at every n from 100 on")  # loglog below log2 at n = 10


def test_replication_is_welchs_z_by_hand():
    a = pd.DataFrame(
        {
            "label": "m",
            "discount": "d",
            "ranker": "r",
            "n": [10, 20],
            "mean": [0.5, 0.6],
            "sd": [0.1, 0.2],
            "replicates": [100, 50],
            "seed": 1,
        }
    )
    b = a.assign(mean=[0.45, 0.6], replicates=[400, 50], seed=2)
    z = 0.05 / math.sqrt(0.1**2 / 100 + 0.1**2 / 400)
    line, far = report.replication(a, b, seed=1)
    assert line == (
        f"replication (seed 1 here, 2 in the full profile): 2 cells at common n, largest |z| = {z:.2f}, |z| > 3 in 1"
    )
    assert far.index.tolist() == [("m", "d", "r", 10)]


# ------------------------------------------------------------ examples of studies.convergence.report


def test_stack_example():
    expected = [[1, "a"], [2, "b"]]
    assert stack({"a": pd.DataFrame({"x": [1]}), "b": pd.DataFrame({"x": [2]})}).values.tolist() == expected


def test_slow_means_example():
    m = pd.DataFrame({"label": "a", "discount": "log2", "ranker": "r", "n": [10, 100, 1000], "mean": [0.9, 0.95, 0.97]})
    assert slow_means(m, 10, 1000, ["log2"]).values.tolist() == [[0.9, 0.97]]


def test_slow_order_example():
    m = pd.DataFrame(
        {
            "label": "a",
            "ranker": "r",
            "discount": ["log2"] * 2 + ["loglog"] * 2,
            "n": [10, 100] * 2,
            "mean": [0.8, 0.9, 0.85, 0.95],
        }
    )
    expected = "mean nDCG ordered loglog > log2 for every ranker and model: at every n from 10 on"
    assert slow_order(m, [10, 100], ["log2", "loglog"])[1] == expected


def test_first_order_summary_example():
    c = pd.DataFrame(
        {
            "label": "a",
            "discount": "log2",
            "decay": "slowly varying",
            "n": 10,
            "simulated": [0.1, 0.2],
            "rel_err_first_order": [-0.1, -0.2],
            "rel_err_finite_n": [0.001, -0.002],
            "finite_n_agrees": [True, False],
        }
    )
    assert first_order_summary(c, 10).values.tolist() == [["0.100 to 0.200", "0.100 to 0.200", 2, "0.002", "1 of 2"]]


def test_first_order_far_example():
    assert first_order_far({"a": "probit"}, ["random"], ["log2"], 1000).startswith(
        "first order against the finite-n theory at n = 1000"
    )


def test_power_table_example():
    c = pd.DataFrame(
        {
            "label": "a",
            "ranker": "r",
            "discount": "power(beta=0.5)",
            "n": 10,
            "simulated": [0.7071],
            "ci_half": [0.001],
            "limit": [0.70711],
            "finite_n": [0.7072],
        }
    )
    assert power_table(c, 10).values.tolist() == [[0.7071, 0.001, 0.7071, 0.0, 0.7072, "no"]]


def test_zipf_table_example():
    f = pd.DataFrame(
        {
            "label": "a",
            "discount": "zipf",
            "ranker": "r",
            "mean_n0": [0.61],
            "mean_n1": [0.6049],
            "limit": [0.6],
            "sd_n0": [0.3],
            "sd_n1": [0.3],
        }
    )
    assert zipf_table(f).values.tolist() == [[0.61, 0.605, 0.6]]


def test_summable_spread_example():
    f = pd.DataFrame(
        {
            "label": "a",
            "discount": "power(beta=2)",
            "ranker": ["r", "s", "c"],
            "sd_n0": [0.3, 0.27, 0.1],
            "sd_n1": [0.33, 0.26, 0.003],
        }
    )
    assert summable_spread(f, ["r", "s"], ["c"]).values.tolist() == [["0.270 to 0.300", "0.260 to 0.330", "0.003"]]


def test_agreement_summary_example():
    a = pd.DataFrame({"finite_n_agrees": [True] * 999 + [False], "rare_miss_share": [np.nan] * 999 + [0.7]})
    assert agreement_summary({"every n": a}).values.tolist() == [[1000, 999, 1, "2.7", 1]]


def test_misses_example():
    a = pd.DataFrame(
        {
            "label": "a",
            "discount": "d",
            "ranker": "r",
            "n": [10, 100],
            "finite_n_agrees": False,
            "finite_n_z": [-4.0, np.nan],
            "rare_miss_share": [0.2, 0.9],
            "replicates": [100, 20],
        }
    )
    assert misses(a).values.tolist() == [["r: 10, 100", "4.0", "0.20 to 0.90", "short of data at 1 of 2 cells"]]


def test_replication_example():
    a = pd.DataFrame(
        {
            "label": "m",
            "discount": "d",
            "ranker": "r",
            "n": [10],
            "mean": [0.5],
            "sd": [0.1],
            "replicates": [100],
            "seed": [1],
        }
    )
    expected = "replication (seed 1 here, 2 in the full profile): 1 cells at common n, largest |z| = 3.54, |z| > 3 in 1"
    assert replication(a, a.assign(mean=0.45, seed=2), seed=1)[0] == expected


def test_compare_with_theory_example():
    from ndcg_research.simulation.sweeps import Sweep, run_sweep

    s = Sweep.build("probit", ns=[100], replicates=5, seed=0, rankers=["bayes"], discounts=["log2"], pairs=[])
    th = finite_n.theory_table("probit", ["bayes"], ["log2"], [100])
    expected = [["1 - nDCG", 100]]
    assert compare_with_theory(run_sweep(s).ranker_table(), th)[["quantity", "n"]].values.tolist() == expected
