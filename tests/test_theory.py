"""Tests of ndcg_research.simulation.theory against closed forms derived by hand and against the simulation."""

from __future__ import annotations

import math

import numpy as np
import pytest

from ndcg_research.simulation import finite_n as fn
from ndcg_research.simulation import simulate as sim
from ndcg_research.simulation import theory as th
from ndcg_research.simulation.finite_n import (
    finite_n_ndcg,
    finite_n_values,
    ideal_rank_gains,
    prediction,
    rank_gains,
    rare_miss_share,
    theory_table,
)
from ndcg_research.simulation.model import parse_model
from ndcg_research.simulation.theory import (
    c_coefficient,
    eps,
    eps_numeric,
    gain_profile,
    gated_rest_gain,
    ideal_profile,
    mean_gain,
    power_limit,
    top_limit,
    zipf_approximation,
)

SLOW = ["log2", "log(base=10)", "logpower(gamma=0.5)", "logpower(gamma=2)", "loglog", "jarvelin(base=2)"]


@pytest.mark.parametrize("discount", SLOW + ["power(beta=0.5)", "power(beta=2)", "zipf", "geometric(p=0.5)", "none"])
@pytest.mark.parametrize("n", [10.0, 1e3, 1e6, 1e9])
def test_eps_analytic_equals_numerical_derivative(discount, n):
    if discount.startswith("geometric") and n > 1e3:
        with pytest.raises(ValueError, match="underflows"):  # p^(n-1) is 0 in float64
            th.eps_numeric(discount, n)
        return
    assert th.eps(discount, n) == pytest.approx(th.eps_numeric(discount, n), rel=1e-6, abs=1e-12)


def test_eps_hand_values():
    n = 1e6
    assert th.eps("log2", n) == pytest.approx(1 / math.log(n), rel=1e-5)  # n/((1+n) ln(1+n)) ~ 1/ln n
    assert th.eps("logpower(gamma=0.5)", n) == pytest.approx(0.5 * th.eps("log2", n))
    L = math.log2(1 + n)  # D = 1/log2(1+L): -dlnD/dlnr = r L'(r) / ((1+L) ln(1+L)), L' = 1/((1+r) ln 2)
    assert th.eps("loglog", n) == pytest.approx(n / ((1 + n) * math.log(2) * (1 + L) * math.log(1 + L)))
    assert th.eps("power(beta=0.5)", n) == 0.5 and th.eps("zipf", n) == 1 and th.eps("none", n) == 0
    # slower discounts have smaller eps: loglog < logpower(0.5) < log2 for large n
    assert th.eps("loglog", n) < th.eps("logpower(gamma=0.5)", n) < th.eps("log2", n)
    np.testing.assert_allclose(th.eps("log2", np.array([1e3, 1e6])), [th.eps("log2", 1e3), th.eps("log2", 1e6)])


@pytest.mark.parametrize(("lo", "hi"), [(0.0, 1.0), (0.1, 0.6), (0.3, 0.5)])
def test_random_ranker_closed_forms(lo, hi):
    # g_f = p: c = (1/p)[p(1 - ln p) - p] = ln(1/p); power limit = p / (p^(1-b)/(1-b)) * 1/(1-b) = p^b.
    model = f"probit(lo={lo}, hi={hi})"
    p = (lo + hi) / 2
    assert th.c_coefficient(model, "random") == pytest.approx(math.log(1 / p), rel=1e-8)
    for beta in (0.2, 0.5, 0.8):
        assert th.power_limit(model, "random", beta) == pytest.approx(p**beta, rel=1e-8)
    assert th.top_limit(model, "random") == pytest.approx(p)


@pytest.mark.parametrize(("lo", "hi"), [(0.0, 1.0), (0.1, 0.6)])
def test_bayes_closed_forms_for_a_equal_one(lo, hi):
    # a = 1: eta(X) = lo + (hi - lo) U with U uniform, so the Bayes profile is g(t) = lo + (hi - lo)(1 - t).
    # int (1-t)(-ln t) dt = 1 - 1/4; int (1-t) t^-b dt = 1/(1-b) - 1/(2-b); int_0^p t^-b = p^(1-b)/(1-b).
    model = f"probit(lo={lo}, hi={hi})"
    p = (lo + hi) / 2
    c = (p * (1 - math.log(p)) - lo - 0.75 * (hi - lo)) / p
    assert th.c_coefficient(model, "bayes") == pytest.approx(c, rel=1e-8)
    if (lo, hi) == (0.0, 1.0):
        assert c == pytest.approx(math.log(2) - 0.5)
    for beta in (0.3, 0.5):
        num = lo / (1 - beta) + (hi - lo) * (1 / (1 - beta) - 1 / (2 - beta))
        assert th.power_limit(model, "bayes", beta) == pytest.approx(num / (p ** (1 - beta) / (1 - beta)), rel=1e-8)
    assert th.top_limit(model, "bayes") == pytest.approx(hi)
    # zipf to order 1/ln n: [hi (ln n + g) - (hi - lo)] / [(ln n + g) + ln p]   (int (g - g0)/t = -(hi - lo))
    n = 1e6
    L = math.log(n) + th.EULER_GAMMA
    assert th.zipf_approximation(model, "bayes", n) == pytest.approx((hi * L - (hi - lo)) / (L + math.log(p)))


def test_coarse_profile_closed_form():
    # a = 1, lo = 0, hi = 1: eta(X) = U uniform; the j-th bin from the top holds U in (1 - (j+1)/m, 1 - j/m).
    g = th.gain_profile("probit", "coarse(bins=4)")
    np.testing.assert_allclose(g.values, [0.875, 0.625, 0.375, 0.125], atol=1e-9)
    np.testing.assert_allclose(g.edges, [0, 0.25, 0.5, 0.75, 1])


def test_graded_ideal_profile_closed_form():
    # G = 2, eta = U uniform: P(y = 2) = E U^2 = 1/3, P(y >= 1) = 1 - E (1-U)^2 = 2/3.
    g = th.ideal_profile("probit(grades=2)")
    np.testing.assert_allclose(g.edges, [0, 1 / 3, 2 / 3, 1], atol=1e-9)
    assert g.values.tolist() == [2.0, 1.0, 0.0]
    g = th.ideal_profile("probit(grades=2)", gain="exp2")
    assert g.values.tolist() == [3.0, 1.0, 0.0]


@pytest.mark.parametrize("model", ["probit", "probit(lo=0.1, hi=0.6, a=2)", "probit(grades=3)"])
@pytest.mark.parametrize("ranker", ["bayes", "noisy(sigma=0.5)", "noisy(sigma=2)", "coarse(bins=3)", "random"])
def test_profiles_integrate_to_the_mean_gain(model, ranker):
    # Every ranking places all items somewhere: int g_f = int g* = E gain(y) = G (lo + hi) / 2 (linear).
    m = parse_model(model)
    p = m.grades * (m.lo + m.hi) / 2
    assert th.gain_profile(m, ranker).integral("one") == pytest.approx(p, rel=1e-7)
    assert th.ideal_profile(m).integral("one") == pytest.approx(p, rel=1e-7)
    assert th.mean_gain(m) == pytest.approx(p, rel=1e-9)


@pytest.mark.parametrize("ranker", ["bayes", "noisy(sigma=0.5)", "noisy(sigma=3)", "random"])
def test_closed_form_profile_equals_quadrature(ranker):
    t = np.array([1e-9, 0.01, 0.3, 0.7, 0.999])
    for model in ["probit(lo=0.2, hi=0.9, a=0.7)", "probit(grades=3, a=2)"]:
        closed = th.gain_profile(model, ranker, method="closed")(t)
        quad = th.gain_profile(model, ranker, method="quadrature")(t)
        np.testing.assert_allclose(closed, quad, rtol=1e-9, atol=1e-12)


def test_profile_crossings_from_zero_or_only_between_signs():
    # bayes and gated(q) agree exactly above q (difference 0), then separate at q and cross again deeper
    bayes, gated = th.gain_profile("probit", "bayes"), th.gain_profile("probit", "gated(q=0.2)")
    grid = np.linspace(0.01, 0.99, 99)
    assert th.profile_crossings(bayes, gated, grid) == pytest.approx([0.2, 0.6], abs=1e-12)
    assert th.profile_crossings(bayes, gated, grid, from_zero=False) == pytest.approx([0.6], abs=1e-12)


def test_first_order_expansion_improves_with_n():
    # 1 - nDCG ~ eps_D(n) c_f: the ratio (1 - finite-n value) / (eps c) must approach 1 as n grows
    # (slowly: the next term is of relative order eps itself, about 1 / ln n).
    for model, ranker in [("probit(lo=0.1, hi=0.6)", "bayes"), ("probit", "random")]:
        c = th.c_coefficient(model, ranker)
        for discount in ["log2", "logpower(gamma=0.5)", "loglog"]:
            ns = (10**4, 10**5, 10**6, 10**7)
            errors = [
                abs((1 - fn.finite_n_ndcg(model, ranker, discount, n)) / (th.eps(discount, float(n)) * c) - 1)
                for n in ns
            ]
            assert all(a > b for a, b in zip(errors, errors[1:], strict=False)), (model, ranker, discount, errors)
            # The neglected term is of relative order eps: error / eps settles towards a constant,
            # its change shrinking decade by decade.
            scaled = [e / th.eps(discount, float(n)) for e, n in zip(errors, ns, strict=False)]
            steps = [abs(b - a) for a, b in zip(scaled, scaled[1:], strict=False)]
            assert all(a > b for a, b in zip(steps, steps[1:], strict=False)), (model, ranker, discount, scaled)


def test_power_finite_n_approaches_limit_and_none_is_one():
    lim = th.power_limit("probit", "noisy(sigma=1)", 0.5)
    gaps = [abs(fn.finite_n_ndcg("probit", "noisy(sigma=1)", "power(beta=0.5)", n) - lim) for n in (10**3, 10**6)]
    assert gaps[1] < gaps[0] and gaps[1] < 2e-3
    assert fn.finite_n_ndcg("probit(grades=3)", "random", "none", 500) == pytest.approx(1.0, abs=1e-12)
    assert fn.prediction("probit", "bayes", "none", 10)["limit"] == 1.0


@pytest.mark.parametrize("discount", ["log2", "power(beta=0.5)", "zipf", "loglog"])
def test_theory_matches_simulated_mean(discount):
    # The expected nDCG of simulated data sets agrees with the finite-n prediction (ratio of expectations).
    model, ranker, n, reps = "probit(lo=0.1, hi=0.6)", "noisy(sigma=0.5)", 20_000, 40
    v = np.array([sim.replicate_ndcg(model, [ranker], [discount], n, seed=4, replicate=r)[0, 0] for r in range(reps)])
    pred = fn.finite_n_ndcg(model, ranker, discount, n)
    assert abs(v.mean() - pred) < 4 * v.std(ddof=1) / math.sqrt(reps) + 2e-4


def test_bad_input():
    with pytest.raises(ValueError, match="beta must be in \\(0, 1\\)"):
        th.power_limit("probit", "bayes", 1.5)
    with pytest.raises(ValueError, match="n must be finite and >= 1"):
        th.eps("log2", 0.5)
    with pytest.raises(TypeError, match="built-in discount"):
        th.eps(lambda r: 1 / r, 10.0)
    with pytest.raises(ValueError, match="method='closed' needs gain='linear'"):
        th.gain_profile("probit", "bayes", gain="exp2", method="closed")


@pytest.mark.parametrize("n", [50, 5000])
def test_rank_gains_of_bayes_are_the_mean_order_statistics(n):
    # probit (a = 1, lo = 0, hi = 1): g(t) = 1 - t is linear, so E g(U_(r)) = 1 - E U_(r) = 1 - r / (n + 1).
    r = np.arange(1, n + 1)
    np.testing.assert_allclose(fn.rank_gains("probit", "bayes", n), 1 - r / (n + 1), rtol=0, atol=1e-10)


@pytest.mark.parametrize(("n", "r"), [(10, 1), (10, 7), (2000, 1), (2000, 30), (10**6, 3)])
def test_rank_gains_of_a_noisy_ranker_equal_the_beta_expectation(n, r):
    # E g(U_(r)) with U_(r) ~ Beta(r, n - r + 1), by scipy's adaptive quadrature over the Beta density.
    from scipy import integrate, stats

    g = th.gain_profile("probit(lo=0.1, hi=0.6)", "noisy(sigma=1)")
    beta = stats.beta(r, n - r + 1)
    lo, hi = beta.ppf(1e-15), beta.isf(1e-15)
    expected = integrate.quad(
        lambda t: float(g(np.array([t]))[0]) * beta.pdf(t),
        lo,
        hi,
        points=[beta.mean()],
        limit=500,
        epsabs=1e-13,
        epsrel=1e-11,
    )[0]
    assert fn.rank_gains("probit(lo=0.1, hi=0.6)", "noisy(sigma=1)", n)[r - 1] == pytest.approx(expected, abs=1e-9)


@pytest.mark.parametrize("model", ["probit", "probit(lo=0.1, hi=0.6)", "probit(grades=3)"])
@pytest.mark.parametrize("ranker", ["bayes", "noisy(sigma=1)", "random", "head(m=7)", "coarse(bins=4)"])
def test_rank_gains_and_ideal_rank_gains_sum_to_n_times_the_mean_gain(model, ranker):
    # Every ranking places all n items: sum over ranks of E[gain at rank r] = E[total gain] = n p.
    n = 3000
    p = th.mean_gain(model)
    assert fn.rank_gains(model, ranker, n).sum() == pytest.approx(n * p, rel=1e-5)
    assert fn.ideal_rank_gains(model, n).sum() == pytest.approx(n * p, rel=1e-9)


def test_ideal_rank_gains_are_binomial_tails():
    # binary, p = 0.35: the r-th largest grade is 1 when at least r of the n items are relevant.
    from scipy import stats

    n = 200
    r = np.arange(1, n + 1)
    np.testing.assert_allclose(
        fn.ideal_rank_gains("probit(lo=0.1, hi=0.6)", n), stats.binom.sf(r - 1, n, 0.35), atol=1e-15
    )
    # graded (G = 2, eta uniform): P(y >= 1) = 2/3, P(y = 2) = 1/3; gains 1 per level.
    want = stats.binom.sf(r - 1, n, 2 / 3) + stats.binom.sf(r - 1, n, 1 / 3)
    np.testing.assert_allclose(fn.ideal_rank_gains("probit(grades=2)", n), want, atol=1e-9)


def test_head_ranker_rank_gains():
    # head(m): bayes on the first m ranks, then the mean of the rest; head(m >= n) is bayes.
    n = 100
    bayes = fn.rank_gains("probit", "bayes", n)
    head = fn.rank_gains("probit", "head(m=10)", n)
    np.testing.assert_allclose(head[:10], bayes[:10])
    np.testing.assert_allclose(head[10:], (n * 0.5 - bayes[:10].sum()) / 90)
    np.testing.assert_allclose(fn.rank_gains("probit", "head(m=500)", n), bayes)
    with pytest.raises(ValueError, match="no n-free gain profile"):
        th.gain_profile("probit", "head(m=10)")
    p = fn.prediction("probit", "head(m=10)", "log2", 1000)
    assert math.isnan(p["limit"]) and p["finite_n"] == pytest.approx(
        fn.finite_n_ndcg("probit", "head(m=10)", "log2", 1000)
    )


@pytest.mark.parametrize(
    ("ranker", "discount"), [("head(m=10)", "log2"), ("head(m=10)", "power(beta=2)"), ("head(m=3)", "zipf")]
)
def test_head_ranker_theory_matches_the_simulation(ranker, discount):
    model, n, reps = "probit(lo=0.1, hi=0.6)", 2000, 400
    v = np.array([sim.replicate_ndcg(model, [ranker], [discount], n, seed=6, replicate=r)[0, 0] for r in range(reps)])
    pred = fn.finite_n_ndcg(model, ranker, discount, n)
    assert abs(v.mean() - pred) < 4 * v.std(ddof=1) / math.sqrt(reps) + 1e-3


def test_exact_order_statistics_fix_the_midpoint_rule_at_the_top():
    # noisy(sigma=1) in the certain model under power(beta=2): the expected gain at rank r is E g(U_(r)).
    # The midpoint rule g((r - 1/2) / n) overstates the top ranks; 20,000 simulated data sets tell the two apart.
    model, ranker, discount, n, reps = "probit", "noisy(sigma=1)", "power(beta=2)", 1000, 20_000
    v = np.array([sim.replicate_ndcg(model, [ranker], [discount], n, seed=11, replicate=r)[0, 0] for r in range(reps)])
    se = v.std(ddof=1) / math.sqrt(reps)
    D = 1 / np.arange(1, n + 1) ** 2
    midpoint = (th.gain_profile(model, ranker)((np.arange(n) + 0.5) / n) @ D) / (fn.ideal_rank_gains(model, n) @ D)
    exact = fn.finite_n_ndcg(model, ranker, discount, n)
    assert abs(v.mean() - exact) < 3 * se
    assert midpoint - v.mean() > 3 * se


def test_rare_miss_share_by_hand():
    # bayes, certain model: E gain at rank r = 1 - r/(n+1), so p_r = r/(n+1); with R replicates the ranks with
    # R r/(n+1) < 1 are r <= (n+1)/R - ...; under zipf the shortfall at rank r is p_r / r = 1/(n+1): equal per rank.
    n, R = 999, 7  # the ideal's top gain fills ranks 1..499; ranks with 7 r / 1000 < 1: r <= 142
    assert fn.rare_miss_share("probit", "bayes", "zipf", n, R) == pytest.approx(142 / 499, rel=1e-6)
    assert fn.rare_miss_share("probit", "bayes", "zipf", n, 10**6) == 0.0
    # random: p_r = 1/2 at every rank: one data set sees each miss half a time (rare), three see it 1.5 times.
    assert fn.rare_miss_share("probit", "random", "power(beta=2)", 100, 1) == pytest.approx(1.0)
    assert fn.rare_miss_share("probit", "random", "power(beta=2)", 100, 3) == 0.0


# ------------------------------------------------------------ examples of simulation.theory


def test_eps_example():
    assert round(eps("log2", 1e6), 6) == round(1e6 / (1e6 + 1) / math.log(1e6 + 1), 6)
    assert (eps("power(beta=0.5)", 10.0), eps("none", 10.0)) == (0.5, 0.0)
    assert abs(eps("zipflog(gamma=2)", 1e4) - eps_numeric("zipflog(gamma=2)", 1e4)) < 1e-8


def test_eps_numeric_example():
    assert abs(eps_numeric("log2", 1e4) - eps("log2", 1e4)) < 1e-8


def test_mean_gain_example():
    # G (lo + hi) / 2
    assert (round(mean_gain("probit"), 6), round(mean_gain("probit(lo=0.1, hi=0.6, grades=3)"), 6)) == (0.5, 1.05)
    assert round(mean_gain("probit(grades=3)", gain="exp2"), 6) == 2.75


def test_gain_profile_example():
    g = gain_profile("probit", "bayes")
    # eta(X) is uniform on [0, 1]: g(t) = 1 - t
    assert g(np.array([0.25, 0.5])).round(6).tolist() == [0.75, 0.5]


def test_gated_rest_gain_example():
    # Phi(X) is uniform on [0, 0.9] below the gate
    assert round(gated_rest_gain("probit", "gated(q=0.1)"), 6) == 0.45


def test_ideal_profile_example():
    # binary, p = 0.35
    g = ideal_profile("probit(lo=0.1, hi=0.6)")
    assert (g.edges.tolist(), g.values.tolist()) == ([0.0, 0.35, 1.0], [1.0, 0.0])


def test_c_coefficient_example():
    # ln(1/p), p = 1/2
    assert round(c_coefficient("probit", "random"), 6) == round(math.log(2), 6)


def test_power_limit_example():
    # p^beta
    assert round(power_limit("probit", "random", 0.5), 6) == round(0.5**0.5, 6)


def test_top_limit_example():
    # random: p / g*(0+)
    assert (round(top_limit("probit", "bayes"), 6), round(top_limit("probit", "random"), 6)) == (1.0, 0.5)
    # hi: the ideal's top has grade 1
    assert round(top_limit("probit(lo=0.1, hi=0.6)", "noisy(sigma=1)"), 6) == 0.6


def test_zipf_approximation_example():
    assert round(zipf_approximation("probit", "noisy(sigma=1)", 1000), 3) == 0.87
    from ndcg_research.simulation.finite_n import finite_n_ndcg

    # the exact finite-n value
    assert round(finite_n_ndcg("probit", "noisy(sigma=1)", "zipf", 1000), 3) == 0.883
    # slowly, to the limit
    assert (round(zipf_approximation("probit", "random", 1e6), 3), top_limit("probit", "random")) == (0.525, 0.5)


# ------------------------------------------------------------ examples of simulation.finite_n


def test_rank_gains_example():
    # eta(X) uniform: E U_(r) = r / (n + 1)
    g = rank_gains("probit", "bayes", 3)
    assert np.round(g, 6).tolist() == [0.75, 0.5, 0.25]
    # (2 - 0.8 - 0.6) / 2
    assert round(float(rank_gains("probit", "head(m=2)", 4)[3]), 6) == 0.3


def test_ideal_rank_gains_example():
    # p = 1/2: P(at least 1 of 2), P(both)
    assert np.round(ideal_rank_gains("probit", 2), 6).tolist() == [0.75, 0.25]


def test_finite_n_values_example():
    assert finite_n_values("probit", ["bayes", "random"], ["log2", "none"], 100).round(6)[:, 1].tolist() == [1.0, 1.0]


def test_finite_n_ndcg_example():
    assert round(finite_n_ndcg("probit", "bayes", "none", 1000), 12) == 1.0


def test_rare_miss_share_example():
    # p_r = 1/2: seen 50 times in 100 data sets
    assert rare_miss_share("probit", "random", "log2", 1000, 100) == 0.0
    # p_r = r / 10001
    assert round(rare_miss_share("probit", "bayes", "geometric(p=0.5)", 10_000, 100), 3) == 1.0


def test_prediction_example():
    p = prediction("probit", "random", "power(beta=0.5)", 1000)
    assert (p["regime"], round(p["limit"], 4)) == ("regularly varying", 0.7071)


def test_theory_table_example():
    table = theory_table("probit", ["bayes", "random"], ["log2", "none"], [100, 1000])
    assert (len(table), list(table.columns[:5])) == (8, ["model", "discount", "decay", "ranker", "n"])


@pytest.mark.parametrize("ranker", ["bayes", "coarse(bins=4)", "gated(q=0.2)"])
def test_gain_profile_refuses_an_unknown_method_for_every_ranker(ranker):
    # The check sat after the coarse and gated branches, which ignored the method: "bogus" went through for them.
    with pytest.raises(ValueError, match="method must be 'auto', 'closed' or 'quadrature', got 'bogus'"):
        th.gain_profile("probit(lo=0.1, hi=0.6)", ranker, method="bogus")


def test_order_statistic_means_of_a_linear_profile():
    # E[1 - U_(r)] = 1 - r / (n + 1) for the r-th smallest of n = 9 uniforms.
    means = fn.order_statistic_means(lambda t: 1 - t, 9, 3)
    assert [round(float(x), 9) for x in means] == [0.9, 0.8, 0.7]
