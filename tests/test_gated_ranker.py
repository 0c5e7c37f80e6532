"""The ranker gated(q): a fixed function of x, exact above the population quantile Phi^-1(1 - q), random below.

References: its definition applied to explicit scores, the metric core, Monte Carlo means, closed forms
(Phi(X) is uniform in the probit model with a = 1).
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import integrate
from scipy.special import ndtri

import ndcg_research as nr
from ndcg_research.simulation import finite_n as fn
from ndcg_research.simulation import simulate as sim
from ndcg_research.simulation import theory as th
from ndcg_research.simulation.model import parse_ranker

DISCOUNTS = ["power(beta=2)", "zipf", "zipflog(gamma=1)", "power(beta=0.5)", "log2", "loglog"]


def test_spec_round_trip_and_errors():
    r = parse_ranker(" gated( q = 0.10 ) ")
    assert str(r) == "gated(q=0.1)" and parse_ranker(str(r)) == r
    assert r.gate() == pytest.approx(ndtri(0.9), abs=1e-15)
    for bad, error, match in [
        ("gated(q=0)", ValueError, "0 < q < 1, got 'gated\\(q=0\\)'"),
        ("gated(q=1.5)", ValueError, "got 'gated\\(q=1.5\\)'"),
        ("gated", ValueError, "needs parameter"),
    ]:
        with pytest.raises(error, match=match):
            parse_ranker(bad)
    with pytest.raises(ValueError, match="has no gate"):
        parse_ranker("bayes").gate()


@pytest.mark.parametrize("model", ["probit", "probit(lo=0.1, hi=0.6)", "probit(lo=0.2, hi=0.9, a=2, grades=3)"])
@pytest.mark.parametrize("n", [1, 9, 3000])
@pytest.mark.filterwarnings("ignore::ndcg_research.UndefinedNDCGWarning")  # n = 1 may have no relevant item
def test_fast_path_equals_the_definition_and_the_metric_core(model, n):
    ranker = "gated(q=0.2)"
    fast = sim.replicate_ndcg(model, [ranker], DISCOUNTS, n, seed=4, replicate=3, gain="exp2")
    s = sim.sample(model, [ranker], n, seed=4, replicate=3)
    score = s.scores[ranker]
    assert sorted(score) == list(range(1, n + 1))  # a strict order
    order = np.argsort(-score)
    above = int((s.x >= ndtri(0.8)).sum())
    # the items above the gate come first, in descending x; every other item comes after them
    np.testing.assert_array_equal(order[:above], np.argsort(-s.x)[:above])
    assert (s.x[order[above:]] < ndtri(0.8)).all()
    for j, d in enumerate(DISCOUNTS):
        ref = nr.ndcg_from_scores(s.grades, score, discount=d, gain="exp2")
        assert fast[0, j] == pytest.approx(ref, rel=1e-12, abs=1e-12), (d, n)


def test_below_the_gate_the_order_is_uniformly_random():
    # The item of largest x below the gate lands at a uniform position k among the m places below the gate:
    # standardized by the uniform's mean (m + 1)/2 and sd sqrt((m^2 - 1)/12), its mean over data sets is 0.
    n, reps, z = 40, 3000, []
    for r in range(reps):
        s = sim.sample("probit", ["gated(q=0.25)"], n, seed=9, replicate=r)
        above = int((s.x >= ndtri(0.75)).sum())
        m = n - above
        if m > 1:
            k = (n - s.scores["gated(q=0.25)"] + 1)[np.argsort(-s.x)[above]] - above
            z.append((k - (m + 1) / 2) / math.sqrt((m * m - 1) / 12))
    assert abs(np.mean(z)) < 4 / math.sqrt(len(z))
    assert abs(np.var(z) - 1) < 0.1


@pytest.mark.filterwarnings("ignore::ndcg_research.UndefinedNDCGWarning")
def test_stream_prefixes_of_the_gated_ranker_equal_the_metric_core():
    spec, ns = "probit(lo=0.1, hi=0.6)", [1, 4, 30, 300]
    v = sim.stream_ndcg(spec, ["gated(q=0.3)"], DISCOUNTS, ns, seed=1, replicate=2)
    s = sim.stream_sample(spec, ["gated(q=0.3)"], 300, seed=1, replicate=2)
    for i, n in enumerate(ns):
        x, score = s.x[:n], s.scores["gated(q=0.3)"][:n].copy()
        top = x >= ndtri(0.7)
        score[top] = 10.0 + x[top]  # above the gate: by x, ahead of the random keys in [0, 1)
        for k, d in enumerate(DISCOUNTS):
            ref = nr.ndcg_from_scores(s.grades[:n], score, discount=d)
            assert v[i, 0, k] == pytest.approx(ref, rel=1e-12, abs=1e-12), (n, d)


def test_profile_and_constants_in_closed_form():
    # probit, a = 1: eta(X) = Phi(X) is uniform, so g(t) = 1 - t above the gate and (1 - q)/2 below it.
    q = 0.1
    g = th.gain_profile("probit", f"gated(q={q})")
    np.testing.assert_allclose(g(np.array([0.01, 0.05, 0.099, 0.2, 0.9])), [0.99, 0.95, 0.901, 0.45, 0.45], atol=1e-12)
    assert th.gated_rest_gain("probit(lo=0.1, hi=0.6)", "gated(q=0.1)") == pytest.approx(0.1 + 0.5 * 0.45, abs=1e-12)
    log_integral = (
        integrate.quad(lambda t: (1 - t) * -math.log(t), 0, q)[0]
        + (1 - q) / 2 * integrate.quad(lambda t: -math.log(t), q, 1)[0]
    )
    star = 0.5 * (1 - math.log(0.5))  # int_0^p (-ln t) dt, p = 1/2
    assert th.c_coefficient("probit", "gated(q=0.1)") == pytest.approx((star - log_integral) / 0.5, rel=1e-9)
    power = integrate.quad(lambda t: (1 - t) * t**-0.5, 0, q)[0] + (1 - q) / 2 * (2 - 2 * math.sqrt(q))
    assert th.power_limit("probit", "gated(q=0.1)", 0.5) == pytest.approx(power / (2 * math.sqrt(0.5)), rel=1e-9)
    assert th.top_limit("probit(lo=0.1, hi=0.6)", "gated(q=0.1)") == pytest.approx(0.6)


@pytest.mark.parametrize("model", ["probit", "probit(lo=0.1, hi=0.6)", "probit(grades=3)"])
@pytest.mark.parametrize("n", [5, 100, 3000, 60_000])
def test_rank_gains_sum_to_n_times_the_mean_gain(model, n):
    # exact up to quadrature error, and the normal approximation of the truncated mean in the middle ranks
    assert fn.rank_gains(model, "gated(q=0.1)", n).sum() == pytest.approx(n * th.mean_gain(model), rel=1e-7)


def test_rank_gains_match_monte_carlo():
    n, reps = 60, 20_000
    total = np.zeros(n)
    for r in range(reps):
        s = sim.sample("probit", ["gated(q=0.1)"], n, seed=12, replicate=r)
        total += s.grades[np.argsort(-s.scores["gated(q=0.1)"])]
    mc = total / reps
    exact = fn.rank_gains("probit", "gated(q=0.1)", n)
    se = np.sqrt(np.maximum(mc * (1 - mc), 1e-4) / reps)
    assert np.abs((mc - exact) / se).max() < 4.5  # 60 ranks: |z| > 4.5 has probability ~4e-4 by chance
    # The transition at rank nq = 6 is smooth, between the exact head and the random rest.
    assert exact[0] > exact[5] > exact[9] > th.gated_rest_gain("probit", "gated(q=0.1)") - 1e-12


@pytest.mark.parametrize("discount", ["log2", "power(beta=2)", "zipf", "zipflog(gamma=2)"])
def test_finite_n_theory_matches_the_simulation(discount):
    model, n, reps = "probit(lo=0.1, hi=0.6)", 3000, 400
    v = np.array(
        [sim.replicate_ndcg(model, ["gated(q=0.1)"], [discount], n, seed=6, replicate=r)[0, 0] for r in range(reps)]
    )
    pred = fn.finite_n_ndcg(model, "gated(q=0.1)", discount, n)
    # E[DCG / IDCG] differs from E DCG / E IDCG by O(1/n) here
    assert abs(v.mean() - pred) < 4 * v.std(ddof=1) / math.sqrt(reps) + 1e-3


@pytest.mark.parametrize("n, ranks", [(50_000, [4800, 4950, 5000, 5050, 5200]), (3000, [250, 300, 350])])
def test_rank_gains_near_the_gate_against_the_beta_density(n, ranks):
    # E[g(U_(r)); U_(r) < q] + P(U_(r) > q) g_rest by scipy's adaptive quadrature over the Beta(r, n - r + 1)
    # density: the transition ranks, where the item at rank r may be above or below the gate (for n = 3000
    # inside the exactly computed first ranks, for n = 50,000 in the middle).
    from scipy import stats

    model, q = "probit(lo=0.1, hi=0.6)", 0.1
    bayes = th.gain_profile(model, "bayes")
    rest = th.gated_rest_gain(model, f"gated(q={q})")
    got = fn.rank_gains(model, f"gated(q={q})", n)
    for r in ranks:
        beta = stats.beta(r, n - r + 1)
        above = integrate.quad(
            lambda u, beta=beta: float(bayes(np.array([u]))[0]) * beta.pdf(u),
            beta.ppf(1e-15),
            q,
            limit=400,
            epsabs=1e-14,
        )[0]
        assert got[r - 1] == pytest.approx(above + rest * beta.sf(q), abs=2e-6)
