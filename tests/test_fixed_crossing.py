"""Fixed rankers that cross (studies/simulation/fixed_crossing.py): first-order constants, profile crossings in closed
form, expected gaps against the finite-n theory, and the decision rules on constructed tables."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from scipy.special import ndtr, ndtri

from ndcg_research.simulation import finite_n as fn
from ndcg_research.simulation import theory as th
from ndcg_research.studies.fixed_crossings import experiment as fc
from ndcg_research.studies.fixed_crossings.experiment import (
    answer_lines,
    crossings,
    expected_gaps,
    family_table,
    first_order_table,
    law_slope,
    preference_table,
    profile_crossings,
    sigma_window,
)

MODEL, GATED = "probit", "gated(q=0.1)"


def test_sigma_window_ties_the_two_criteria():
    half, zero = fc.sigma_window(MODEL, GATED)
    assert half < zero
    assert th.c_coefficient(MODEL, f"noisy(sigma={zero!r})") == pytest.approx(th.c_coefficient(MODEL, GATED), abs=1e-8)
    assert th.power_limit(MODEL, f"noisy(sigma={half!r})", 0.5) == pytest.approx(
        th.power_limit(MODEL, GATED, 0.5), abs=1e-8
    )


def test_profile_crossings_in_closed_form():
    # gated(q) jumps from 1 - q to (1 - q)/2 at q; noisy(sigma) = Phi(kappa z_t) sinks below (1 - q)/2 where
    # kappa z_t = Phi^-1((1 - q)/2), i.e. t = Phi(-Phi^-1((1 - q)/2) / kappa).
    q, sigma = 0.1, 1.5
    kappa = 1 / math.sqrt(1 + 2 * sigma**2)
    second = float(ndtr(-ndtri((1 - q) / 2) / kappa))
    found = fc.profile_crossings(MODEL, GATED, f"noisy(sigma={sigma})")
    assert found == pytest.approx([q, second], abs=1e-9)


def test_first_order_table_is_consistent():
    t = fc.first_order_table(MODEL, GATED, ["noisy(sigma=1)", "noisy(sigma=1.5)", "noisy(sigma=2)"]).set_index("second")
    # J1 = int (g_A - g_B)(-ln t) dt = p (c_B - c_A), p = 1/2
    np.testing.assert_allclose(t["j1"], 0.5 * t["delta_c"], atol=1e-9)
    assert list(t["slow_winner"]) == ["noisy(sigma=1)", "noisy(sigma=1.5)", GATED]  # sigma_zero = 1.91 ...
    assert list(t["half_winner"]) == ["noisy(sigma=1)", GATED, GATED]  # sigma_half = 1.28
    # the second-order estimate exists only where J1 and J2 pull in opposite directions
    assert math.isnan(t.loc["noisy(sigma=1)", "second_order_log_n"])
    assert t.loc["noisy(sigma=1.5)", "second_order_log_n"] == pytest.approx(
        t.loc["noisy(sigma=1.5)", "j2"] / -t.loc["noisy(sigma=1.5)", "j1"]
    )


def test_expected_gaps_are_the_finite_n_theory():
    gaps = fc.expected_gaps(MODEL, GATED, ["noisy(sigma=1.5)"], ["log2", "zipf"], [300, 30_000])
    for r in gaps.itertuples():
        want = fn.finite_n_ndcg(MODEL, GATED, r.discount, r.n) - fn.finite_n_ndcg(
            MODEL, "noisy(sigma=1.5)", r.discount, r.n
        )
        assert r.gap == pytest.approx(want, abs=1e-12)
        assert r.preferred == (GATED if r.gap > 0 else "noisy(sigma=1.5)")


def test_crossings_interpolate_in_log_n_and_count_changes():
    g = pd.DataFrame(
        dict(
            model="m",
            first="a",
            second="b",
            discount=["d"] * 4 + ["e"] * 4,
            decay="x",
            n=[10, 100, 1000, 10000] * 2,
            gap=[0.3, 0.1, -0.1, 0.2, -0.1, -0.2, -0.3, -0.1],
            preferred=["a", "a", "b", "a", "b", "b", "b", "b"],
        )
    )
    c = fc.crossings(g).set_index("discount")
    assert c.loc["d", "crossing_n"] == round(math.exp(math.log(100) + math.log(10) / 2))
    assert c.loc["d", "changes"] == 2 and c.loc["d", "preferred_at_n_max"] == "a"
    assert math.isnan(c.loc["e", "crossing_n"]) and c.loc["e", "changes"] == 0


def _decisions(p_first, low, high, n=(100, 1000, 10000), discount="log2", first=GATED, second="noisy(sigma=1.5)"):
    return pd.DataFrame(
        dict(
            first=first,
            second=second,
            discount=discount,
            n=list(n),
            replicates=1000,
            p_first=p_first,
            p_first_low=low,
            p_first_high=high,
        )
    )


def test_agreement_table_rules():
    decisions = _decisions([0.8, 0.55, 0.1], [0.75, 0.49, 0.08], [0.85, 0.6, 0.13])
    gaps = pd.DataFrame(
        dict(
            second="noisy(sigma=1.5)",
            discount="log2",
            n=[100, 1000, 10000],
            preferred=[GATED, GATED, "noisy(sigma=1.5)"],
        )
    )
    crossing_table = pd.DataFrame(dict(second=["noisy(sigma=1.5)"], discount=["log2"], crossing_n=[2000.0]))
    t = fc.agreement_table(decisions, gaps, crossing_table)
    assert t["far"].tolist() == [True, False, True]  # 1000 is within a factor 3 of 2000
    assert t["decided"].tolist() == [True, False, True]  # 0.49..0.6 contains one half
    assert t["majority"].tolist() == [GATED, "undecided", "noisy(sigma=1.5)"]
    assert t["agrees"].tolist() == [True, False, True]


def test_asymptotic_table_and_reliable_n():
    first_order = pd.DataFrame(
        dict(
            first=[GATED],
            second=["noisy(sigma=1.5)"],
            delta_c=[-0.05],
            slow_winner=["noisy(sigma=1.5)"],
            half_winner=[GATED],
        )
    )
    decisions = pd.concat(
        [
            _decisions([0.6, 0.3, 0.02], [0.55, 0.25, 0.01], [0.65, 0.35, 0.04]),
            _decisions([0.9, 0.95, 0.97], [0.88, 0.93, 0.95], [0.92, 0.96, 0.98], discount="power(beta=0.5)"),
            _decisions([0.5, 0.5, 0.5], [0.45, 0.45, 0.45], [0.55, 0.55, 0.55], discount="zipf"),
        ]
    )
    a = fc.asymptotic_table(decisions, first_order).set_index("discount")
    assert a.loc["log2", "majority"] == "noisy(sigma=1.5)" and a.loc["log2", "agrees"] == 1.0
    assert a.loc["power(beta=0.5)", "majority"] == GATED and a.loc["power(beta=0.5)", "agrees"] == 1.0
    assert a.loc["zipf", "majority"] == "undecided" and a.loc["zipf", "first_order_winner"] == ""
    assert math.isnan(a.loc["zipf", "agrees"])
    # reliable_n wants the winner first: P(noisy strictly higher) = 1 - p_first here (no ties)
    flipped = _decisions(
        [0.4, 0.7, 0.98], [0.35, 0.65, 0.96], [0.45, 0.75, 0.99], first="noisy(sigma=1.5)", second=GATED
    )
    r = fc.reliable_n(flipped, first_order).iloc[0]
    assert r["n_reliable"] == 10000 and r["winner"] == "noisy(sigma=1.5)" and r["delta_c"] == -0.05
    never = _decisions([0.4, 0.95, 0.5], [0.35, 0.93, 0.45], [0.45, 0.97, 0.55], first="noisy(sigma=1.5)", second=GATED)
    assert math.isnan(fc.reliable_n(never, first_order)["n_reliable"].iloc[0])
    with pytest.raises(ValueError, match="first-order winner first"):
        fc.reliable_n(decisions, first_order)


# ------------------------------------------------------------ examples of studies.fixed_crossings.experiment


def test_sigma_window_example():
    assert [round(s, 3) for s in sigma_window("probit", "gated(q=0.1)")] == [1.284, 1.912]


def test_profile_crossings_example():
    assert [round(t, 4) for t in profile_crossings("probit", "gated(q=0.1)", "noisy(sigma=1.5)")] == [0.1, 0.6159]


def test_first_order_table_example():
    t = first_order_table("probit", "gated(q=0.1)", ["noisy(sigma=1.5)"])
    assert t[["slow_winner", "half_winner"]].values.tolist() == [["noisy(sigma=1.5)", "gated(q=0.1)"]]


def test_expected_gaps_example():
    t = expected_gaps("probit", "gated(q=0.1)", ["noisy(sigma=1.5)"], ["zipf", "loglog"], [100, 100_000])
    assert t["preferred"].tolist() == ["gated(q=0.1)", "gated(q=0.1)", "gated(q=0.1)", "noisy(sigma=1.5)"]


def test_crossings_example():
    g = pd.DataFrame(
        dict(
            model="m",
            first="a",
            second="b",
            discount="d",
            decay="x",
            n=[10, 100, 1000],
            gap=[0.2, 0.1, -0.1],
            preferred=["a", "a", "b"],
        )
    )
    # halfway between 100 and 1000 in ln n
    assert int(crossings(g)["crossing_n"].iloc[0]) == 316


def test_law_slope_example():
    fo = pd.DataFrame(dict(second=["a", "b", "c"], second_order_log_n=[1.0, 2.0, 4.0]))
    cr = pd.DataFrame(dict(second=["a", "b", "c"], discount="log2", crossing_n=np.exp([7.0, 8.0, 10.0])))
    assert law_slope(fo, cr)["slope"] == 1.0


def test_preference_table_example():
    a = pd.DataFrame(
        dict(
            discount="log2",
            n=[100, 1000],
            expected=["gated(q=0.1)", "noisy(sigma=1.5)"],
            majority=["gated(q=0.1)", "undecided"],
            far=[True, False],
        )
    )
    assert preference_table(a).loc["log2"].tolist() == ["gated / gated", "noisy / - *"]


def test_family_table_example():
    fo = pd.DataFrame(dict(second=["noisy(sigma=1.5)"], delta_c=[-0.046], second_order_log_n=[2.7]))
    cr = pd.DataFrame(dict(second=["noisy(sigma=1.5)"], discount=["log2"], crossing_n=[6023.0]))
    rel = {"certain": pd.DataFrame(dict(winner=["noisy(sigma=1.5)"], n_reliable=[30000.0]))}
    expected = ["noisy(sigma=1.5)", "0.046", "2.7", "6023", "30000"]
    assert [str(v) for v in family_table(fo, cr, rel, ["log2"]).iloc[0]] == expected


def test_answer_lines_example():
    ag = pd.DataFrame(dict(label="m", far=[True, True], decided=[True, False], agrees=[True, False]))
    asy = pd.DataFrame(
        dict(
            label="m",
            discount=["log2", "power(beta=0.5)"],
            decay=["slowly varying", "x"],
            majority=["b", "a"],
            first_order_winner=["b", "a"],
            agrees=[1.0, 1.0],
            n=1000,
        )
    )
    rel = {"m": pd.DataFrame(dict(winner=["b"], delta_c=[-0.05], n_reliable=[1000.0]))}
    expected = (
        "m top: far from a predicted crossing, the simulated majority picks the ranker the finite-n theory "
        "picks in "
        "1 of 1 decided cells (1 more undecided)."
    )
    assert answer_lines(ag, asy, rel, dict(slope=1.0, points=3, agrees=1.0), 1000)[0] == expected
