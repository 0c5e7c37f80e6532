"""Tests of ndcg_research.simulation.crossing: crossings by brute force, invariance, decisions by hand, simulation."""

from __future__ import annotations

import math

import numpy as np
import pytest

from ndcg_research.simulation import crossing as cr
from ndcg_research.simulation import finite_n as fn
from ndcg_research.simulation import sweeps as sw
from ndcg_research.simulation.crossing import crossing_n, crossing_table, expected_gap


def test_expected_gap_is_the_difference_of_the_finite_n_theory():
    want = fn.finite_n_ndcg("probit", "head(m=5)", "zipf", 300) - fn.finite_n_ndcg(
        "probit", "noisy(sigma=1)", "zipf", 300
    )
    assert cr.expected_gap("probit", "head(m=5)", "noisy(sigma=1)", "zipf", 300) == want


@pytest.mark.parametrize("discount", ["log2", "loglog", "zipf"])
def test_crossing_n_is_the_first_sign_change_found_by_brute_force(discount):
    model, a, b = "probit", "head(m=10)", "noisy(sigma=1)"
    gaps = {n: cr.expected_gap(model, a, b, discount, n) for n in range(10, 151)}
    first = next(n for n in range(11, 151) if np.sign(gaps[n]) != np.sign(gaps[10]))
    n, start, end = cr.crossing_n(model, a, b, discount, 10, 150, points=6)
    assert n == first and start == gaps[10] and end == gaps[150]


def test_no_crossing_in_range_is_none():
    n, start, end = cr.crossing_n("probit", "head(m=10)", "noisy(sigma=1)", "geometric(p=0.5)", 10, 2000, points=5)
    assert n is None and start > 0 and end > 0


def test_crossings_do_not_depend_on_lo_and_hi():
    # Linear gain: a ranker's expected gain at each rank is lo + (hi - lo) times that in probit, so the gap
    # in expected DCG is (hi - lo) times probit's (the ideal is common to both rankers): same sign at every n.
    a = cr.crossing_table("probit", "head(m=10)", "noisy(sigma=1)", ["log2", "zipf"], 10, 3000, points=7)
    b = cr.crossing_table(
        "probit(lo=0.1, hi=0.6)", "head(m=10)", "noisy(sigma=1)", ["log2", "zipf"], 10, 3000, points=7
    )
    assert a["crossing_n"].tolist() == b["crossing_n"].tolist()
    assert (np.sign(a["gap_at_n_max"]) == np.sign(b["gap_at_n_max"])).all()


def test_decision_table_by_hand():
    s = sw.Sweep.build(
        "probit(lo=0.1, hi=0.6)",
        ns=[50],
        replicates=40,
        seed=1,
        rankers=["head(m=10)", "noisy(sigma=1)"],
        discounts=["log2", "zipf"],
        pairs=[("head(m=10)", "noisy(sigma=1)")],
    )
    result = sw.run_sweep(s)
    table = cr.decision_table(result, "head(m=10)", "noisy(sigma=1)").set_index("discount")
    gap = {d: result.ndcg("head(m=10)", d, 50) - result.ndcg("noisy(sigma=1)", d, 50) for d in ("log2", "zipf")}
    assert table.loc["zipf", "p_first"] == pytest.approx(np.mean(gap["zipf"] > 0))
    assert table.loc["zipf", "p_differs"] == pytest.approx(np.mean(np.sign(gap["zipf"]) != np.sign(gap["log2"])))
    assert table.loc["zipf", "p_reversed"] == pytest.approx(np.mean(gap["zipf"] * gap["log2"] < 0))
    assert table.loc["log2", "p_differs"] == 0.0 and table.loc["zipf", "reference"] == "log2"


def test_simulated_winner_follows_the_theory_far_from_the_crossing():
    # log2, head(m=10) vs noisy(sigma=1), certain model: the crossing is at n = 71. Well below it the head ranker
    # should win most data sets, well above it the noisy one.
    s = sw.Sweep.build(
        "probit",
        ns=[15, 3000],
        replicates=200,
        seed=2,
        rankers=["head(m=10)", "noisy(sigma=1)"],
        discounts=["log2"],
        pairs=[("head(m=10)", "noisy(sigma=1)")],
    )
    table = cr.decision_table(sw.run_sweep(s), "head(m=10)", "noisy(sigma=1)").set_index("n")
    assert table.loc[15, "p_first_low"] > 0.5 and table.loc[3000, "p_first_high"] < 0.5
    n, _, _ = cr.crossing_n("probit", "head(m=10)", "noisy(sigma=1)", "log2", 15, 3000, points=5)
    assert 15 < n < 3000 and not math.isnan(n)


# ------------------------------------------------------------ examples of simulation.crossing


def test_expected_gap_example():
    # the exact head wins short lists
    assert expected_gap("probit", "head(m=10)", "noisy(sigma=1)", "log2", 20) > 0


def test_crossing_n_example():
    n, start, end = crossing_n("probit", "head(m=10)", "noisy(sigma=1)", "loglog", 10, 10_000, points=9)
    expected = (True, True)
    assert (start > 0 > end, expected_gap("probit", "head(m=10)", "noisy(sigma=1)", "loglog", n - 1) > 0) == expected


def test_crossing_table_example():
    t = crossing_table("probit", "head(m=10)", "noisy(sigma=1)", ["log2", "geometric(p=0.5)"], 10, 1000, points=5)
    # log2 turns to the noisy ranker at n = 71; geometric keeps the head up to 1000
    assert repr(t["crossing_n"].tolist()) == "[71.0, nan]"
