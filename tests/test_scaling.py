"""Scaling laws of the standardized gap (studies/simulation/scaling.py): hand computations and the model's tails."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from scipy.special import log_ndtr, ndtr, ndtri

from ndcg_research.simulation import finite_n as fn
from ndcg_research.simulation import scaling as sc
from ndcg_research.simulation import theory as th
from ndcg_research.simulation.scaling import (
    cutoff_threshold,
    decay_index,
    gap_exponent,
    gap_trend,
    heuristic_table,
    local_exponent,
    power_law_fit,
    shortfall_exponent,
)

UNCERTAIN, CERTAIN = "probit(lo=0.1, hi=0.6)", "probit"


def heuristic_std_gap(model, better, worse, discount, n, k=None):
    """The heuristic d of one cell, through heuristic_table."""
    cutoff = None if k is None else (lambda _: k)
    return float(heuristic_table(model, [(better, worse)], [discount], [n], cutoff)["heuristic_d"].iloc[0])


def test_shortfall_exponents_are_the_tails_of_the_profiles():
    # bayes in probit (a = 1): g(t) = 1 - t exactly, so the shortfall is t^1.
    g = th.gain_profile(CERTAIN, "bayes")
    t = np.array([1e-9, 1e-6, 1e-3])
    np.testing.assert_allclose(1 - g(t), t, rtol=1e-6)
    assert sc.shortfall_exponent(CERTAIN, "bayes") == 1.0
    assert sc.shortfall_exponent("probit(a=2)", "gated(q=0.1)") == 4.0
    # noisy(sigma): 1 - Phi(kappa z_t) ~ t^(kappa^2) times a power of ln(1/t): the local log-slope tends to
    # kappa^2 (slowly). kappa^2 = 1 / (1 + 2 sigma^2) for a = 1.
    for sigma in (0.5, 1.0):
        rho = sc.shortfall_exponent(CERTAIN, f"noisy(sigma={sigma})")
        assert rho == pytest.approx(1 / (1 + 2 * sigma**2), rel=1e-12)
        g = th.gain_profile(CERTAIN, f"noisy(sigma={sigma})")
        t = np.array([1e-3, 1e-6])
        np.testing.assert_allclose(1 - g(t), ndtr(math.sqrt(rho) * ndtri(t)), rtol=1e-9)  # the profile's tail
        t1, t2 = 1e-200, 1e-100  # far out, where the log factor has flattened: log_ndtr keeps the precision
        slope = (log_ndtr(math.sqrt(rho) * ndtri(t2)) - log_ndtr(math.sqrt(rho) * ndtri(t1))) / math.log(t2 / t1)
        assert slope == pytest.approx(rho, abs=0.02)
    with pytest.raises(ValueError, match="no n-free top"):
        sc.shortfall_exponent(CERTAIN, "head(m=5)")


@pytest.mark.parametrize(
    "model, worse, discount, a, expected",
    [
        # uncertain top, rho = 2/3 (noisy(0.5)) or 1/3 (noisy(1)), by hand from the table
        (UNCERTAIN, "noisy(sigma=0.5)", "log2", 0.5, 0.5 * (0.5 + 2 / 3) - 2 / 3),
        (UNCERTAIN, "noisy(sigma=1)", "log2", 0.5, 0.5 * (0.5 + 1 / 3) - 1 / 3),
        (UNCERTAIN, "noisy(sigma=1)", "power(beta=0.8)", 1.0, 1 - 0.8),
        (UNCERTAIN, "noisy(sigma=1)", "power(beta=1.2)", 1.0, 1 - 1.2),
        (UNCERTAIN, "noisy(sigma=1)", "power(beta=2)", 1.0, -1 / 3),
        (UNCERTAIN, "noisy(sigma=0.5)", "zipf", 1.0, 0.0),
        (UNCERTAIN, "noisy(sigma=0.5)", "geometric(p=0.5)", 0.7, -2 / 3),
        # certain top
        (CERTAIN, "noisy(sigma=0.5)", "log2", 1.0, 0.5),
        (CERTAIN, "noisy(sigma=0.5)", "zipf", 1.0, 1 / 3),
        (CERTAIN, "noisy(sigma=1)", "power(beta=1.1)", 1.0, 1 - 1.1 + 1 / 6),
        (CERTAIN, "noisy(sigma=1)", "power(beta=0.75)", 0.5, 0.5 * (1 + 1 / 3 - 0.75) - 1 / 6),
        (CERTAIN, "noisy(sigma=0.5)", "log2", 0.25, (0.25 * (1 + 2 / 3) - 2 / 3) / 2),
        (CERTAIN, "noisy(sigma=0.5)", "power(beta=2)", 1.0, -1 / 3),
        # a fixed k (a = 0): the gap shrinks like n^-rho over a bounded noise (uncertain), n^-rho/2 (certain)
        (UNCERTAIN, "noisy(sigma=1)", "log2", 0.0, -1 / 3),
        (CERTAIN, "noisy(sigma=1)", "log2", 0.0, -1 / 6),
    ],
)
def test_gap_exponent_by_hand(model, worse, discount, a, expected):
    assert sc.gap_exponent(model, "bayes", worse, discount, a).exponent == pytest.approx(expected, abs=1e-12)


def test_zipflog_carries_a_log_power_and_zipf_is_exactly_flat():
    e = sc.gap_exponent(UNCERTAIN, "bayes", "noisy(sigma=1)", "zipflog(gamma=2)")
    assert (e.exponent, e.log_power) == (0.0, -2.0)
    assert sc.gap_exponent(UNCERTAIN, "bayes", "noisy(sigma=1)", "zipf").exponent == 0.0


@pytest.mark.parametrize(
    "call, match",
    [
        (lambda: sc.gap_exponent("probit(grades=3)", "bayes", "noisy(sigma=1)", "log2"), "binary relevance"),
        (lambda: sc.gap_exponent(CERTAIN, "noisy(sigma=1)", "bayes", "log2"), "smaller shortfall exponent"),
        (lambda: sc.gap_exponent(CERTAIN, "bayes", "noisy(sigma=1)", "log2", a=1.5), r"a must be in \[0, 1\]"),
        (lambda: sc.gap_exponent(CERTAIN, "bayes", "noisy(sigma=1)", "none"), "constant discount"),
        (
            lambda: heuristic_std_gap(CERTAIN, "bayes", "noisy(sigma=1)", "log2", 10, 11),
            r"cutoff\(10\) must be an integer in \[1, 10\], got 11",
        ),
    ],
)
def test_errors(call, match):
    with pytest.raises(ValueError, match=match):
        call()


def test_cutoff_thresholds_by_hand():
    for sigma in (0.5, 1.0):
        rho = 1 / (1 + 2 * sigma**2)
        w = f"noisy(sigma={sigma})"
        assert sc.cutoff_threshold(UNCERTAIN, "bayes", w, "log2") == pytest.approx(2 * rho / (1 + 2 * rho))
        assert sc.cutoff_threshold(CERTAIN, "bayes", w, "log2") == pytest.approx(rho / (1 + rho))
        assert sc.cutoff_threshold(CERTAIN, "bayes", w, "zipf") == pytest.approx(0.5)
        assert sc.cutoff_threshold(UNCERTAIN, "bayes", w, "zipf") == math.inf
        assert sc.cutoff_threshold(UNCERTAIN, "bayes", w, "power(beta=0.75)") == pytest.approx(rho / (1.25 + rho - 1))
        assert sc.cutoff_threshold(CERTAIN, "bayes", w, "power(beta=2)") == math.inf
    assert sc.cutoff_threshold(CERTAIN, "bayes", "random", "log2") == 0.0  # rho = 0: grows for every a


def test_heuristic_by_hand_on_a_short_list():
    n, k = 6, 4
    gb, gw = fn.rank_gains(UNCERTAIN, "bayes", n)[:k], fn.rank_gains(UNCERTAIN, "random", n)[:k]
    D = 1 / np.log2(np.arange(2, k + 2))
    want = ((gb - gw) @ D) / math.sqrt((gb * (1 - gb) + gw * (1 - gw)) @ D**2)
    assert heuristic_std_gap(UNCERTAIN, "bayes", "random", "log2", n, k) == pytest.approx(want, rel=1e-12)
    # the full list under a discount no faster than r^-1/2: the independence assumption breaks down
    assert math.isnan(heuristic_std_gap(UNCERTAIN, "bayes", "random", "log2", n))
    assert math.isnan(heuristic_std_gap(UNCERTAIN, "bayes", "random", "power(beta=0.5)", n))


@pytest.mark.parametrize(
    "model, discount",
    [(UNCERTAIN, "power(beta=0.8)"), (UNCERTAIN, "power(beta=1.2)"), (UNCERTAIN, "zipf"), (CERTAIN, "zipf")],
)
def test_heuristic_slope_approaches_the_asymptotic_exponent(model, discount):
    ns = (10**5, 10**6)
    d = [heuristic_std_gap(model, "bayes", "noisy(sigma=0.5)", discount, n) for n in ns]
    slope = math.log(d[1] / d[0]) / math.log(10)
    assert slope == pytest.approx(sc.gap_exponent(model, "bayes", "noisy(sigma=0.5)", discount).exponent, abs=0.05)


def test_power_law_fit_interval_covers_the_true_exponent():
    # d = 0.3 (n/1000)^0.2 observed with normal noise of known sd: the 95% interval should cover 0.2 about
    # 95% of the time (binomial band for 300 trials: 0.91 to 0.98), also when points fall below 0.
    rng = np.random.default_rng(7)
    n = np.array([1e3, 1e4, 1e5, 1e6])
    truth = 0.3 * (n / 1e3) ** 0.2
    se = np.full(4, 0.1)
    covered = 0
    for _ in range(300):
        e, low, high = sc.power_law_fit(n, truth + rng.normal(0, 0.1, 4), se)
        covered += low <= 0.2 <= high
    assert 0.91 <= covered / 300 <= 0.99
    assert math.isnan(sc.power_law_fit(n[:1], truth[:1], se[:1])[0])
    assert math.isnan(sc.power_law_fit(n, truth, np.zeros(4))[0])


# ------------------------------------------------------------ examples of simulation.scaling


def test_shortfall_exponent_example():
    expected = (1.0, 0.6667)
    assert (
        shortfall_exponent("probit", "bayes"),
        round(shortfall_exponent("probit", "noisy(sigma=0.5)"), 4),
    ) == expected
    assert shortfall_exponent("probit", "random") == 0.0


def test_decay_index_example():
    expected = "[0.0, 0.8, 1.0, inf]"
    assert (
        repr([decay_index(d) for d in ["log2", "power(beta=0.8)", "zipflog(gamma=2)", "geometric(p=0.5)"]]) == expected
    )


def test_gap_exponent_example():
    e = gap_exponent("probit(lo=0.1, hi=0.6)", "bayes", "noisy(sigma=0.5)", "log2", a=0.5)
    # the k = sqrt(n) case: shrinks for noisy(0.5)
    assert (round(e.exponent, 4), e.regime) == (-0.0833, "uncertain top, beta < 1/2")
    expected = 0.0833
    assert (
        round(gap_exponent("probit(lo=0.1, hi=0.6)", "bayes", "noisy(sigma=1)", "log2", a=0.5).exponent, 4) == expected
    )
    # 1/r: flat
    assert gap_exponent("probit(lo=0.1, hi=0.6)", "bayes", "noisy(sigma=1)", "zipf").exponent == 0.0


def test_cutoff_threshold_example():
    # 2 rho / (1 + 2 rho)
    assert round(cutoff_threshold("probit(lo=0.1, hi=0.6)", "bayes", "noisy(sigma=0.5)", "log2"), 4) == 0.5714
    assert repr(cutoff_threshold("probit(lo=0.1, hi=0.6)", "bayes", "noisy(sigma=1)", "zipf")) == "inf"
    assert cutoff_threshold("probit", "bayes", "noisy(sigma=1)", "zipf") == 0.5


def test_heuristic_std_gap_example():
    d1 = heuristic_std_gap("probit(lo=0.1, hi=0.6)", "bayes", "noisy(sigma=1)", "log2", 10_000, 100)
    d2 = heuristic_std_gap("probit(lo=0.1, hi=0.6)", "bayes", "noisy(sigma=1)", "log2", 1_000_000, 1000)
    # k = sqrt(n) grows slowly for noisy(1)
    assert bool(d2 > d1)


def test_heuristic_table_example():
    t = heuristic_table("probit", [("bayes", "noisy(sigma=1)")], ["zipf", "log2"], [100, 1000])
    # rows by n, then discount: the full list under log2 has no heuristic
    assert t["heuristic_d"].isna().tolist() == [False, True, False, True]


def test_local_exponent_example():
    # doubling per decade
    assert round(local_exponent([100, 1000, 10000], [1.0, 2.0, 4.0]), 4) == 0.301
    assert repr(local_exponent([100, 1000], [1.0, float("nan")])) == "nan"


def test_power_law_fit_example():
    n = np.array([1e3, 1e4, 1e5, 1e6])
    e, low, high = power_law_fit(n, 0.02 * n**0.5, 0.01 * np.ones(4))
    assert (round(e, 6), low < 0.5 < high) == (0.5, True)
    e, low, high = power_law_fit(n, [0.1, 0.02, -0.01, 0.005], [0.03, 0.03, 0.03, 0.03])
    # shrinking into the noise: negative, widely uncertain
    assert bool(e < 0 and high - low > 0.2)


def test_gap_trend_example():
    t = pd.DataFrame(
        dict(pair="a", n=[100, 1000, 10000, 100000], std_gap=[0.1, 0.3, 1.0, 3.2], std_gap_se=[0.02, 0.02, 0.03, 0.05])
    )
    assert gap_trend(t, ["pair"], 0.95)[["n_from", "points", "trend"]].values.tolist() == [[10000, 2, "grows"]]
