"""The discounts at the edge of summability, zipflog(gamma) = 1 / (r log2(r+1)^gamma), and their theory.

References are hand computations (math module, one rank at a time) and exact partial sums.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import ndcg_research as nr
from ndcg_research.simulation import finite_n, theory

RANKS = [1, 2, 3, 4, 7, 10, 100, 12345]


@pytest.mark.parametrize("gamma", [0.5, 1, 2])
def test_zipflog_matches_the_hand_formula(gamma):
    d = nr.parse_discount(f"zipflog(gamma={gamma})")
    expected = [1 / (r * (math.log(r + 1) / math.log(2)) ** gamma) for r in RANKS]
    np.testing.assert_allclose(d(RANKS), expected, rtol=1e-13)
    assert d([1])[0] == 1.0  # normalised like every built-in: D(1) = 1
    # The same discount as 1 / (r ln(r+1)^gamma), up to the factor (1 / ln 2)^gamma that nDCG divides out.
    ln_form = np.array([1 / (r * math.log(r + 1) ** gamma) for r in RANKS])
    np.testing.assert_allclose(d(RANKS) / ln_form, math.log(2) ** gamma, rtol=1e-13)
    grades = [2, 0, 1, 1, 3, 0, 1]
    dcg = sum(g * e for g, e in zip(grades, [1 / (r * math.log2(r + 1) ** gamma) for r in range(1, 8)], strict=False))
    assert math.isclose(nr.dcg(grades, discount=d), dcg, rel_tol=1e-13)
    ideal = sorted(grades, reverse=True)
    idcg = sum(g / (r * math.log(r + 1) ** gamma) for r, g in enumerate(ideal, start=1))
    ln_dcg = sum(g / (r * math.log(r + 1) ** gamma) for r, g in enumerate(grades, start=1))
    assert math.isclose(nr.ndcg(grades, discount=d), ln_dcg / idcg, rel_tol=1e-12)


@pytest.mark.parametrize(
    "text, canonical",
    [
        (" zipflog( gamma = 1.0 ) ", "zipflog(gamma=1)"),
        ("zipflog(gamma=2)", "zipflog(gamma=2)"),
        ("zipflog(gamma=0.25)", "zipflog(gamma=0.25)"),
    ],
)
def test_zipflog_spec_prints_back_canonically(text, canonical):
    d = nr.parse_discount(text)
    assert str(d) == canonical
    assert nr.parse_discount(canonical) == d
    assert d.formula == "1 / (r log2(r + 1)^gamma)"


@pytest.mark.parametrize(
    "spec, match",
    [
        ("zipflog", "needs parameter 'gamma'"),
        ("zipflog(gamma=0)", "gamma must be > 0, got 0.0"),
        ("zipflog(gamma=-1)", "gamma must be > 0"),
        ("zipflog(beta=1)", "has no parameter 'beta'"),
    ],
)
def test_zipflog_bad_specs(spec, match):
    with pytest.raises(ValueError, match=match):
        nr.parse_discount(spec)


def test_decay_classes_at_the_edge_of_summability():
    # Integral test: sum 1/(r ln^g r) diverges for g <= 1 and converges for g > 1.
    assert nr.parse_discount("zipflog(gamma=1)").decay == "critical"
    assert nr.parse_discount("zipflog(gamma=0.5)").decay == "critical"
    assert nr.parse_discount("zipflog(gamma=2)").decay == "summable"
    assert nr.parse_discount("zipflog(gamma=1.01)").decay == "summable"
    assert [nr.parse_discount(f"power(beta={b})").decay for b in (0.8, 0.9, 1, 1.1, 1.2)] == [
        "regularly varying",
        "regularly varying",
        "critical",
        "summable",
        "summable",
    ]


@pytest.mark.parametrize("gamma", [0.5, 1, 2])
@pytest.mark.parametrize("n", [3.0, 100.0, 1e6])
def test_zipflog_eps_is_the_log_slope(gamma, n):
    spec = f"zipflog(gamma={gamma})"
    # By hand: -d ln D / d ln r = 1 + gamma r / ((r + 1) ln(r + 1)).
    assert math.isclose(theory.eps(spec, n), 1 + gamma * n / ((n + 1) * math.log(n + 1)), rel_tol=1e-13)
    assert math.isclose(theory.eps(spec, n), theory.eps_numeric(spec, n), rel_tol=1e-7)


def test_zipflog_prediction_is_the_top_limit():
    for spec in ("zipflog(gamma=1)", "zipflog(gamma=2)"):
        p = finite_n.prediction("probit(lo=0.1, hi=0.6)", "noisy(sigma=1)", spec, 1000)
        assert math.isclose(p["limit"], 0.6, rel_tol=1e-9)  # g_f(0+) / g*(0+) = hi / 1
        assert math.isnan(p["first_order"])
        assert 0 < p["finite_n"] < 1
    table = finite_n.theory_table("probit", ["bayes", "random"], ["zipflog(gamma=1)"], [100, 1000])
    assert table["first_order"].isna().all() and (table["decay"] == "critical").all()
