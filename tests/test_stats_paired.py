"""Paired tests and intervals against independent references.

- t test, Wilcoxon: scipy.stats.ttest_rel / wilcoxon on the same data (p-values and the t interval);
- exact sign-flip test: brute-force enumeration of all 2**n sign vectors, and scipy.stats.permutation_test;
- Monte Carlo sign-flip test: the exact p-value within its binomial error;
- bootstrap intervals: scipy.stats.bootstrap on the very same resamples (same generator), and coverage
  near nominal on simulated data;
- bootstrap test (Sakai 2006): a direct per-resample loop over the same resampled query indices;
- effect size and wins/ties/losses: hand computation.
- paired_comparison of replicates: hand computation and scipy's Wilson interval; the standardized
  gap's standard error against the spread over repeated samples.
"""

from __future__ import annotations

import itertools
import math
import warnings

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from ndcg_research.stats import compare_systems, discriminative_power, mean_interval, paired_test, pairwise_tests
from ndcg_research.stats._intervals import bootstrap_interval
from ndcg_research.stats._replication import paired_comparison, standardized_gap_se
from ndcg_research.stats._resampling import BOOTSTRAP_STREAM, Resamples, block_generator


def nDCG_like(rng: np.random.Generator, systems: int, queries: int) -> np.ndarray:
    """Per-query values in [0, 1] with a per-query difficulty shared by all systems (paired data)."""
    topic = rng.beta(2, 3, queries)
    skill = np.linspace(-0.05, 0.05, systems)[:, None]
    return np.clip(topic + skill + rng.normal(0, 0.1, (systems, queries)), 0, 1)


def brute_force_sign_flip(d: np.ndarray) -> float:
    """p = share of all 2**n sign vectors s with |sum(s d)| >= |sum(d)|, by enumeration (no vectorisation)."""
    observed = abs(sum(d))
    hits = 0
    total = 0
    for signs in itertools.product((1.0, -1.0), repeat=len(d)):
        total += 1
        if abs(sum(s * x for s, x in zip(signs, d, strict=True))) >= observed * (1 - 1e-12):
            hits += 1
    return hits / total


# --------------------------------------------------------------------------- t test and Wilcoxon


def test_t_test_pvalues_and_interval_equal_scipy():
    rng = np.random.default_rng(1)
    x = nDCG_like(rng, 6, 40)
    tests = pairwise_tests(x, test="t", confidence=0.9)
    for k, (i, j) in enumerate(zip(tests.first, tests.second, strict=True)):
        ref = stats.ttest_rel(x[i], x[j])
        ci = ref.confidence_interval(0.9)
        assert tests.pvalue[k] == pytest.approx(ref.pvalue, rel=1e-12)
        assert (tests.ci_low[k], tests.ci_high[k]) == pytest.approx((ci.low, ci.high), rel=1e-12)


def test_wilcoxon_pvalues_equal_scipy():
    rng = np.random.default_rng(2)
    x = np.round(nDCG_like(rng, 5, 30), 2)  # rounded: zero differences and ties occur, as with nDCG@10
    tests = pairwise_tests(x, test="wilcoxon")
    for k, (i, j) in enumerate(zip(tests.first, tests.second, strict=True)):
        assert tests.pvalue[k] == pytest.approx(stats.wilcoxon(x[i], x[j]).pvalue, rel=1e-12)


def test_effect_size_and_wins_by_hand():
    a = [0.5, 0.7, 0.6, 0.8, 0.3]
    b = [0.4, 0.6, 0.6, 0.5, 0.4]
    r = paired_test(a, b)
    d = [0.1, 0.1, 0.0, 0.3, -0.1]  # a - b
    mean = sum(d) / 5  # 0.08
    sd = math.sqrt(sum((x - mean) ** 2 for x in d) / 4)
    assert r.difference == pytest.approx(0.08)
    assert r.effect_size == pytest.approx(mean / sd)
    assert (r.wins, r.ties, r.losses) == (3, 1, 1)


def test_a_rounding_gap_is_a_tie_and_equal_differences_have_no_effect_size():
    # 0.3 - 0.1 and 0.7 - 0.5 differ in the last bit; within the tie tolerance they are equal values
    r = paired_test([0.3, 0.7, 0.5], [0.1, 0.5, 0.5 - 1e-16])
    assert (r.wins, r.ties, r.losses) == (2, 1, 0)
    assert np.isnan(paired_test([0.75, 0.5], [0.5, 0.25]).effect_size)  # d = 0.25, 0.25: sd 0


def test_identical_systems_give_pvalue_one_for_every_method():
    a = [0.2, 0.5, 0.9, 0.1]
    for method in ("t", "wilcoxon", "permutation", "bootstrap"):
        r = paired_test(a, a, test=method, n_resamples=200)
        assert r.pvalue == 1.0 and r.difference == 0.0 and r.ci == (0.0, 0.0)
        assert (r.wins, r.ties, r.losses) == (0, 4, 0)


def test_systems_that_differ_only_in_rounding_are_the_same_system_for_every_method():
    # Every query a tie (the last bit of each value, as another summation order gives): a test of zero differences
    # says p = 1, as for identical systems; it said p = 9e-12 (t) to 0 (bootstrap), "significant" with no win or loss.
    a = np.random.default_rng(0).uniform(0.05, 1, 30)
    b = np.nextafter(a, 0)
    assert np.all(a != b)
    for method in ("t", "wilcoxon", "permutation", "bootstrap"):
        r = paired_test(a, b, test=method, n_resamples=200)
        assert (r.wins, r.ties, r.losses) == (0, 30, 0)
        assert r.pvalue == 1.0 and r.difference == 0.0 and np.isnan(r.effect_size), method
    # A tie among real differences enters as 0: scipy's Wilcoxon on the differences with the tie made exactly 0.
    c = a + np.random.default_rng(1).normal(0.05, 0.1, 30)
    c[:3] = np.nextafter(a[:3], 1)
    d = a - c
    d[:3] = 0.0
    assert paired_test(a, c, test="wilcoxon").pvalue == pytest.approx(stats.wilcoxon(d).pvalue, rel=1e-12)


def test_constant_nonzero_difference_is_certain():
    a = [0.75, 0.5, 1.0]
    b = [0.5, 0.25, 0.75]  # a - b = 0.25 exactly on every query: the t statistic is infinite
    for method in ("t", "bootstrap"):
        r = paired_test(a, b, test=method, n_resamples=100)
        assert r.pvalue == 0.0 and r.ci == (0.25, 0.25)


def test_a_mean_difference_that_rounds_to_a_residue_of_zero_gives_pvalue_one():
    # d = 0.1, 0.1, -0.2, 0, 0, 0 (in floats): the mean is 4.6e-18, not 0. In exact arithmetic it is 0, so
    # every sign pattern reaches it (p = 1, as scipy's permutation_test and the t test say); counting only
    # the patterns whose float mean is not exactly 0 gave 0.875 (permutation) and 0.9975 (bootstrap).
    a = [0.7, 0.4, 0.1, 0.9, 0.3, 0.6]
    b = [0.6, 0.3, 0.3, 0.9, 0.3, 0.6]
    assert 0 < np.mean(np.subtract(a, b)) < 1e-17
    reference = stats.permutation_test(
        (np.subtract(a, b),), np.mean, permutation_type="samples", n_resamples=np.inf
    ).pvalue
    assert reference == 1.0
    for method in ("permutation", "bootstrap"):
        assert paired_test(a, b, test=method, n_resamples=400).pvalue == 1.0
    assert paired_test(a, b, test="permutation", exact=False, n_resamples=400).pvalue == 1.0  # Monte Carlo


def sakai_bootstrap_pvalue(d: np.ndarray, b: int, seed: int) -> float:
    """Sakai's (2006) ASL one resample at a time on the same draws as ours: share of |t*| of the shifted differences
    that reach |t| (scipy's tolerance); a resample of equal values has t* = 0/0, which reaches nothing."""
    n = d.size
    t_obs = abs(d.mean() / (d.std(ddof=1) / math.sqrt(n)))
    w = d - d.mean()
    hits = 0
    for row in block_generator(0, BOOTSTRAP_STREAM, 0).integers(0, n, size=(b, n)):
        sample = w[row]
        with np.errstate(divide="ignore", invalid="ignore"):
            hits += bool(abs(sample.mean() / (sample.std(ddof=1) / math.sqrt(n))) >= t_obs * (1 - 1e-12))
    return hits / b


def test_differences_equal_in_decimal_are_one_constant_difference_for_every_test():
    # a - b = 0.1 on every query in decimal; in floats 0.9 - 0.8, 0.8 - 0.7, ... differ in their last bits. By hand:
    # sd = 0, so the t statistic is infinite (p = 0), Sakai's shifted differences are all 0 (no t* reaches it: p = 0),
    # the effect size is undefined (NaN) and every interval is the difference itself; 2 of the 2**5 sign patterns
    # reach |mean| (p = 1/16). The bootstrap said p = 0.70 and the effect size 2e15.
    a, b = [0.9, 0.8, 0.7, 0.6, 0.5], [0.8, 0.7, 0.6, 0.5, 0.4]
    d = np.subtract(a, b)
    assert np.unique(d).size > 1
    expected = {"t": 0.0, "bootstrap": 0.0, "permutation": brute_force_sign_flip(d)}
    assert expected["permutation"] == 1 / 16
    for test, p in expected.items():
        for interval in ("t", "percentile", "bca"):
            r = paired_test(a, b, test=test, interval=interval, n_resamples=500)
            assert r.pvalue == p and math.isnan(r.effect_size), (test, interval)
            assert r.ci == (r.difference, r.difference) and r.difference == pytest.approx(0.1), (test, interval)
    # three systems 0.1 apart on every query: every pair is separated (the bootstrap said none was)
    x = np.array([np.linspace(0.2, 1, 20), np.linspace(0.2, 1, 20) - 0.1, np.linspace(0.2, 1, 20) - 0.2])
    assert discriminative_power(x).power == 1.0


@pytest.mark.parametrize("spread", [3e-14, 1e-13, 1e-12])
def test_bootstrap_of_nearly_equal_differences_equals_a_direct_loop(spread):
    # differences 0.1 (1 + spread * noise): just beyond rounding, so not constant; resampling d and subtracting the
    # mean lost ~eps * 0.1 of each resampled mean, a share of the spread, and gave ASLs unlike Sakai's own loop
    rng = np.random.default_rng(5)
    for _ in range(15):
        n = int(rng.integers(3, 30))
        b = rng.random(n) * 0.5
        a = b + 0.1 * (1 + rng.normal(0, spread, n))
        assert paired_test(a, b, test="bootstrap", n_resamples=500).pvalue == sakai_bootstrap_pvalue(a - b, 500, 0)


def test_nearly_equal_differences_reach_no_scipy_precision_warning():
    # scipy's t test warns of catastrophic cancellation when the differences are equal to ~15 digits; they are then
    # constant under the rounding policy (p = 0), and the warning never reaches the user
    a = [0.9, 0.8, 0.7, 0.6, 0.5, 0.45]
    b = [0.8, 0.7, 0.6, 0.5, 0.4, 0.35]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert pairwise_tests([a, b, np.add(b, 0.3)], test="t").pvalue.tolist() == [0.0, 0.0, 0.0]


# --------------------------------------------------------------------------- sign-flip permutation test


@pytest.mark.parametrize("n", [2, 5, 9, 12])
def test_exact_permutation_equals_brute_force_enumeration(n):
    rng = np.random.default_rng(n)
    a = rng.random(n)
    b = a + rng.normal(0.05, 0.2, n)
    r = paired_test(a, b, test="permutation")
    assert r.exact and r.n_resamples == 2 ** (n - 1)
    assert r.pvalue == pytest.approx(brute_force_sign_flip(a - b), abs=1e-15)


def test_exact_permutation_with_ties_in_the_null_distribution():
    # integer-valued differences make many sign vectors reach exactly the observed |sum|
    a = np.array([3, 1, 2, 0, 1, 2, 1, 0]) / 4
    b = np.array([1, 0, 2, 1, 0, 1, 0, 0]) / 4
    r = paired_test(a, b, test="permutation")
    assert r.pvalue == pytest.approx(brute_force_sign_flip(a - b), abs=1e-15)


def test_exact_permutation_equals_scipy_permutation_test():
    rng = np.random.default_rng(11)
    x = nDCG_like(rng, 4, 14)
    tests = pairwise_tests(x, test="permutation")
    assert tests.exact
    for k, (i, j) in enumerate(zip(tests.first, tests.second, strict=True)):
        ref = stats.permutation_test(
            (x[i] - x[j],),
            lambda d, axis: d.mean(axis=axis),
            vectorized=True,
            permutation_type="samples",
            n_resamples=np.inf,
        )
        assert tests.pvalue[k] == pytest.approx(ref.pvalue, abs=1e-12)


def test_monte_carlo_permutation_within_binomial_error_of_exact():
    rng = np.random.default_rng(5)
    x = nDCG_like(rng, 5, 16)
    exact = pairwise_tests(x, test="permutation", interval="none")
    mc = pairwise_tests(x, test="permutation", interval="none", exact=False, n_resamples=20_000, seed=3)
    assert exact.exact and not mc.exact and mc.n_resamples == 20_000
    se = np.sqrt(exact.pvalue * (1 - exact.pvalue) / 20_000) + 1 / 20_001
    # 5 standard errors: a false failure has probability below 1e-5 per pair for a random seed
    assert np.all(np.abs(mc.pvalue - exact.pvalue) <= 5 * se)


def test_permutation_default_switches_to_monte_carlo_above_20_queries():
    rng = np.random.default_rng(0)
    assert paired_test(rng.random(20), rng.random(20), test="permutation").exact
    r = paired_test(rng.random(21), rng.random(21), test="permutation", n_resamples=999)
    assert not r.exact and r.n_resamples == 999
    assert r.pvalue * 1000 == pytest.approx(round(r.pvalue * 1000))  # (count + 1) / (B + 1)


# --------------------------------------------------------------------------- bootstrap


@pytest.mark.parametrize("kind, scipy_method", [("percentile", "percentile"), ("bca", "BCa")])
def test_bootstrap_intervals_equal_scipy_on_the_same_resamples(kind, scipy_method):
    # scipy.stats.bootstrap draws rng.integers(0, n, (B, n)); our block 0 draws the same from
    # the same generator, so both compute the interval from identical resamples.
    rng = np.random.default_rng(8)
    x = nDCG_like(rng, 2, 50)
    d = x[0] - x[1]
    seed, b = 4, 3000
    r = paired_test(x[0], x[1], test="bootstrap", interval=kind, n_resamples=b, seed=seed, confidence=0.9)
    ref = stats.bootstrap(
        (d,),
        np.mean,
        n_resamples=b,
        method=scipy_method,
        confidence_level=0.9,
        rng=block_generator(seed, BOOTSTRAP_STREAM, 0),
    )
    assert r.ci == pytest.approx((ref.confidence_interval.low, ref.confidence_interval.high), rel=1e-9)
    means = Resamples.build("bootstrap", n_queries=50, n_resamples=b, seed=seed).weighted_sums(d[None, :])[0] / 50
    np.testing.assert_allclose(means, ref.bootstrap_distribution, rtol=0, atol=1e-14)


@pytest.mark.parametrize("seed", range(4))
def test_bca_counts_resampled_means_equal_in_exact_arithmetic_as_ties(seed):
    # decimal data: a - b in tenths, so a resampled sum equals the observed one exactly when its integer sum does
    # (3 or 4 resamples in 100 here); BCa's z0 counts those half (Efron & Tibshirani 1993, ch. 14), whichever
    # way the float sums happen to round. By hand on integer tenths, the interval from numpy's quantiles.
    rng = np.random.default_rng(seed)
    n, b = 12, 4000
    a, bb = np.round(rng.random(n), 1), np.round(rng.random(n), 1)
    tenths = np.round((a - bb) * 10).astype(np.int64)
    rows = block_generator(seed, BOOTSTRAP_STREAM, 0).integers(0, n, size=(b, n))
    sums = tenths[rows].sum(axis=1)
    below = 2 * np.count_nonzero(sums < tenths.sum()) + np.count_nonzero(sums == tenths.sum())
    z0 = stats.norm.ppf(below / (2 * b))
    c = tenths - tenths.mean()
    accel = (c**3).sum() / (6 * (c**2).sum() ** 1.5)
    z = stats.norm.ppf([0.025, 0.975])
    levels = stats.norm.cdf(z0 + (z0 + z) / (1 - accel * (z0 + z)))
    expected = np.quantile(sums / (10 * n), levels)
    r = paired_test(a, bb, interval="bca", n_resamples=b, seed=seed)
    assert r.ci == pytest.approx(tuple(expected), rel=1e-12, abs=1e-15)


def test_bootstrap_test_equals_a_direct_loop_over_the_same_resamples():
    rng = np.random.default_rng(21)
    x = nDCG_like(rng, 3, 25)
    seed, b, alpha = 6, 2000, 0.05
    tests = pairwise_tests(x, test="bootstrap", interval="none", n_resamples=b, seed=seed, alpha=alpha)
    indices = block_generator(seed, BOOTSTRAP_STREAM, 0).integers(0, 25, size=(b, 25))
    for k, (i, j) in enumerate(zip(tests.first, tests.second, strict=True)):
        z = x[i] - x[j]
        t_obs = abs(z.mean() / (z.std(ddof=1) / math.sqrt(25)))
        w = z - z.mean()
        t_star = []
        w_means = []
        for row in indices:  # Sakai (2006), Figure 1, one resample at a time
            sample = w[row]
            w_means.append(sample.mean())
            t_star.append(abs(sample.mean() / (sample.std(ddof=1) / math.sqrt(25))))
        t_star = np.array(t_star)
        assert tests.pvalue[k] == pytest.approx(np.mean(t_star >= t_obs), abs=1.5 / b)
        # critical difference: |mean(w*)| of the resample with the ceil(B alpha)-th largest |t*|
        at = np.argsort(-t_star, kind="stable")[math.ceil(b * alpha) - 1]
        assert tests.critical_difference[k] == pytest.approx(abs(w_means[at]), rel=1e-9)


def test_bootstrap_interval_coverage_near_nominal():
    # 10,000 simulated query sets of n = 100 per-query differences shaped like nDCG differences
    # (30 % exact ties, the rest skewed), true mean known. B = 1000 resamples each.
    # Coverage measured once with other seeds: percentile ~0.943, BCa ~0.94, t ~0.951 (the bootstrap
    # intervals are slightly narrow at n = 100). The test allows 0.95 +/- 0.02 for the bootstrap and
    # +/- 0.01 for t. With 10,000 sets the standard error of a coverage is 0.0024, so if the true
    # coverage is 0.94 a random seed fails the bootstrap bound with probability ~1e-5 (4.2 SE), and
    # the t bound (true 0.951, 3.7 SE) with probability ~2e-4.
    rng = np.random.default_rng(2002)
    reps, n, b = 10_000, 100, 1000
    tie = rng.random((reps, n)) < 0.3
    d = np.where(tie, 0.0, rng.beta(0.6, 2.5, (reps, n)) - rng.beta(0.6, 3.0, (reps, n)))
    true_mean = 0.7 * (0.6 / 3.1 - 0.6 / 3.6)
    resamples = Resamples.build("bootstrap", n_queries=n, n_resamples=b, seed=7)
    for kind in ("percentile", "bca"):
        covered = 0
        for start in range(0, reps, 2000):
            rows = d[start : start + 2000]
            low, high = bootstrap_interval(resamples.weighted_sums(rows) / n, rows, confidence=0.95, interval=kind)
            covered += np.count_nonzero((low <= true_mean) & (true_mean <= high))
        assert abs(covered / reps - 0.95) <= 0.02, (kind, covered / reps)
    t = mean_interval(d, axis=1)
    low, high = t["ci_low"], t["ci_high"]
    assert abs(np.mean((low <= true_mean) & (true_mean <= high)) - 0.95) <= 0.01


# --------------------------------------------------------------------------- seeds, pairs, workers


@pytest.mark.parametrize("method", ["permutation", "bootstrap"])
def test_a_pair_gets_the_same_result_whatever_other_pairs_are_tested(method):
    rng = np.random.default_rng(4)
    x = nDCG_like(rng, 5, 30)
    everything = pairwise_tests(x, test=method, n_resamples=3000, seed=1)
    alone = pairwise_tests(x, [(1, 3)], test=method, n_resamples=3000, seed=1)
    k = int(np.flatnonzero((everything.first == 1) & (everything.second == 3))[0])
    assert alone.pvalue[0] == everything.pvalue[k]
    assert alone.ci_low[0] == pytest.approx(everything.ci_low[k], rel=1e-12)


@pytest.mark.parametrize("test", ["t", "permutation", "bootstrap"])
def test_a_pair_gets_the_same_result_whatever_the_number_of_systems(test):
    # 2 systems, and 1700 of which the pair is the first two, with 20,000 resamples: their resampled means were taken
    # from the systems' (one subtraction per pair) when resamples x systems fit in 2**25 elements, else from the
    # differences, and the BCa interval moved by up to 5e-4 (and the critical difference by rounding)
    rng = np.random.default_rng(5)
    x = np.round(rng.random((1700, 30)), 2)
    x[1] = np.round(x[0] + rng.integers(-2, 3, 30) * 0.01, 2)
    options = dict(test=test, interval="bca", n_resamples=20_000, seed=0)
    two, many = pairwise_tests(x[:2], **options), pairwise_tests(x, [(0, 1)], **options)
    for key in ("pvalue", "ci_low", "ci_high", "critical_difference"):
        assert getattr(two, key)[0] == getattr(many, key)[0], key


@pytest.mark.parametrize("method", ["t", "wilcoxon", "permutation", "bootstrap"])
def test_results_identical_for_one_and_two_workers(method):
    rng = np.random.default_rng(9)
    x = nDCG_like(rng, 40, 60)  # 780 pairs: several chunks of pairs with 20,000 resamples
    kwargs = dict(test=method, n_resamples=20_000, seed=5, interval="bca")
    one = pairwise_tests(x, n_jobs=1, **kwargs)
    two = pairwise_tests(x, n_jobs=2, **kwargs)
    for name in ("pvalue", "ci_low", "ci_high", "critical_difference", "difference"):
        np.testing.assert_array_equal(getattr(one, name), getattr(two, name), err_msg=name)


def test_n_jobs_counts_as_joblib_counts(monkeypatch):
    # -1 is every core, as in joblib and the simulation's sweeps (it was refused); far below, one thread, as joblib's
    # effective_n_jobs; 0 is refused.
    from ndcg_research.stats._inputs import check_jobs

    monkeypatch.setattr("os.cpu_count", lambda: 2)
    assert [check_jobs(n) for n in (3, -1, -2, -3, -100)] == [3, 2, 1, 1, 1]
    rng = np.random.default_rng(9)
    x = nDCG_like(rng, 6, 30)
    one = pairwise_tests(x, test="permutation", n_resamples=2000, seed=5, n_jobs=1)
    every = pairwise_tests(x, test="permutation", n_resamples=2000, seed=5, n_jobs=-1)
    np.testing.assert_array_equal(one.pvalue, every.pvalue)
    with pytest.raises(ValueError, match=r"n_jobs must be a positive number.*\(-1: every core\), got 0"):
        pairwise_tests(x, n_jobs=0)


def test_seed_changes_monte_carlo_results_and_fixes_them():
    rng = np.random.default_rng(3)
    a, b = rng.random(40), rng.random(40)
    r1 = paired_test(a, b, test="bootstrap", n_resamples=500, seed=1)
    assert r1 == paired_test(a, b, test="bootstrap", n_resamples=500, seed=1)
    assert r1.ci != paired_test(a, b, test="bootstrap", n_resamples=500, seed=2).ci


# --------------------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    "kwargs, error, text",
    [
        (dict(test="sign"), ValueError, "test must be one of"),
        (dict(interval="basic"), ValueError, "interval must be one of"),
        (dict(confidence=95), ValueError, "confidence must be strictly between 0 and 1"),
        (dict(n_resamples=0), ValueError, r"n_resamples must be an integer in \[1, 2147483647\], got 0"),
        (dict(n_resamples=2**31), ValueError, r"n_resamples must be an integer in \[1, 2147483647\], got 2147483648"),
        (dict(seed=-3), ValueError, "seed must be an integer >= 0"),
        (dict(exact="yes"), TypeError, "exact must be True, False or None"),
    ],
)
def test_bad_arguments_are_named(kwargs, error, text):
    with pytest.raises(error, match=text):
        paired_test([0.1, 0.2, 0.3], [0.2, 0.2, 0.1], **kwargs)


def test_bad_data_is_named():
    with pytest.raises(ValueError, match="a and b must hold the same queries: got 3 and 2"):
        paired_test([0.1, 0.2, 0.3], [0.2, 0.2])
    with pytest.raises(ValueError, match=r"b must be finite, got nan at index 1"):
        paired_test([0.1, 0.2], [0.2, float("nan")])
    with pytest.raises(ValueError, match="a must hold at least 2 queries"):
        paired_test([0.1], [0.2])
    with pytest.raises(ValueError, match="pairs must name two different rows"):
        pairwise_tests([[0.1, 0.2], [0.3, 0.1]], [(0, 0)])
    with pytest.raises(ValueError, match="n_queries = 26 is more than the 25 it allows"):
        paired_test(np.zeros(26), np.ones(26), test="permutation", exact=True)


def test_paired_comparison_counts_and_snaps_rounding_to_ties():
    better = np.array([[0.9, 1.0], [0.8, 1.0], [0.7, 1.0], [0.6, 1.0 - 3e-16]])
    worse = np.array([[0.8, 1.0], [0.8, 1.0], [0.8, 1.0 - 2e-16], [0.5, 1.0]])
    out = paired_comparison(better, worse)
    assert out["p_better"].tolist() == [0.5, 0.0] and out["p_tie"].tolist() == [0.25, 1.0]
    assert out["p_worse"].tolist() == [0.25, 0.0]
    gaps = np.array([0.1, 0.0, -0.1, 0.1])
    assert out["mean_gap"][0] == pytest.approx(gaps.mean()) and out["sd_gap"][0] == pytest.approx(gaps.std(ddof=1))
    assert out["std_gap"][0] == pytest.approx(gaps.mean() / gaps.std(ddof=1))
    # Second column: every gap is rounding noise, so it is a tie throughout and the standardized gap undefined.
    assert out["mean_gap"][1] == 0.0 and out["sd_gap"][1] == 0.0 and math.isnan(out["std_gap"][1])
    low, high = stats.binomtest(2, 4).proportion_ci(0.95, method="wilson")
    assert (out["p_better_low"][0], out["p_better_high"][0]) == pytest.approx((low, high))


@pytest.mark.parametrize(
    ("draw", "m"),
    [
        (lambda rng, size: rng.normal(0.3, 1.0, size), 400),  # normal: Var = (1 + d^2/2) / m
        (lambda rng, size: rng.exponential(1.0, size) - 0.6, 400),  # skewed
        # rare big losses: the moments need enough replicates to see the rare values (80 here; 8 are too few)
        (lambda rng, size: np.where(rng.random(size) < 0.02, -5.0, 0.2) + rng.normal(0, 0.05, size), 4000),
    ],
)
def test_standardized_gap_se_matches_the_spread_over_repeated_samples(draw, m):
    # Reference: the standard deviation of mean/sd over 3000 independent samples of size m.
    rng = np.random.default_rng(12)
    samples = draw(rng, (3000, m))
    d = samples.mean(axis=1) / samples.std(axis=1, ddof=1)
    predicted = standardized_gap_se(samples, axis=1)
    assert np.median(predicted) == pytest.approx(d.std(ddof=1), rel=0.1)


def test_standardized_gap_se_is_nan_for_constant_gaps_and_needs_two_values():
    assert np.isnan(standardized_gap_se(np.zeros(10)))
    with pytest.raises(ValueError, match="at least two replicates"):
        standardized_gap_se([1.0])
    # paired_comparison does not raise for one replicate: its standardized gap and that gap's error are undefined.
    one = paired_comparison([[0.9, 0.5]], [[0.8, 0.5]])
    assert np.isnan(one["std_gap"]).all() and np.isnan(one["std_gap_se"]).all() and one["std_gap_se"].shape == (2,)


@pytest.mark.parametrize("queries", [10, 15, 60])
def test_wilcoxon_pvalue_of_a_pair_is_scipys_on_that_pair_alone(queries):
    # scipy's method="auto" picks one method per call: a pair without zeros or ties (exact
    # distribution when tested alone) must not get the normal approximation because another pair has ties.
    rng = np.random.default_rng(queries)
    base = rng.random(queries)
    clean = base + rng.normal(0.05, 0.1, queries)  # no zero difference, no tie
    tied = base.copy()
    tied[:5] += 0.1  # five equal differences and zeros elsewhere
    rounded = np.round(base + rng.normal(0.02, 0.1, queries), 1)  # ties by rounding
    x = np.vstack([base, clean, tied, rounded])
    tests = pairwise_tests(x, test="wilcoxon")
    for k, (i, j) in enumerate(zip(tests.first, tests.second, strict=True)):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)
            alone = stats.wilcoxon(x[i], x[j]).pvalue
        assert tests.pvalue[k] == pytest.approx(alone, rel=1e-12), (i, j)
    # and through paired_test, on the pair alone
    assert paired_test(base, clean, test="wilcoxon").pvalue == pytest.approx(
        stats.wilcoxon(base, clean).pvalue, rel=1e-12
    )


def test_wilcoxon_repro_of_a_pair_compared_with_a_tied_pair():
    rng = np.random.default_rng(0)
    n = 15
    base = rng.random(n)
    s1 = base + rng.normal(0.05, 0.1, n)
    s2 = base.copy()
    s2[:5] += 0.1
    got = pairwise_tests(np.vstack([base, s1, s2]), test="wilcoxon").pvalue[0]
    # alone, 15 distinct non-zero differences: the exact null distribution, p = count / 2**15
    assert got == pytest.approx(stats.wilcoxon(base, s1, method="exact").pvalue, rel=1e-12)
    assert got == pytest.approx(1352 / 2**15, rel=1e-12)


def test_wilcoxon_in_compare_systems_is_scipys_on_each_pair_alone():
    from ndcg_research.stats import compare_systems

    rng = np.random.default_rng(0)
    base = rng.random(15)
    x = np.vstack([base, base + rng.normal(0.05, 0.1, 15), np.where(np.arange(15) < 5, base + 0.1, base)])
    pairs = compare_systems(x, test="wilcoxon").pairs
    for (i, j), p in zip([(0, 1), (0, 2), (1, 2)], pairs["pvalue"], strict=True):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)
            assert p == pytest.approx(stats.wilcoxon(x[i], x[j]).pvalue, rel=1e-12)


SCALE_TESTS = ["t", "wilcoxon", "permutation", "bootstrap"]


def scale_reference(test: str, d: np.ndarray) -> float:
    """The p-value of differences ``d`` (against 0) from scipy, or for the bootstrap the package's at scale 1."""
    if test == "t":
        return float(stats.ttest_rel(d, np.zeros_like(d)).pvalue)
    if test == "wilcoxon":
        return float(stats.wilcoxon(d).pvalue)
    if test == "permutation":
        return float(stats.permutation_test((d,), np.mean, permutation_type="samples").pvalue)
    return paired_test(d, np.zeros_like(d), test="bootstrap", n_resamples=2000).pvalue


@pytest.mark.parametrize("test", SCALE_TESTS)
@pytest.mark.parametrize("scale", [1e160, 1e-6, 2.0**1000, 2.0**-20])  # (below TIE_TOLERANCE a difference is a tie)
def test_pvalues_do_not_depend_on_the_scale_of_the_differences(test, scale):
    d = np.random.default_rng(0).normal(0.1, 1, 10)
    reference = scale_reference(test, d)
    r = paired_test(d * scale, np.zeros(10), test=test, n_resamples=2000, interval="t")
    assert r.pvalue == pytest.approx(reference, rel=1e-9)
    assert r.difference == pytest.approx(d.mean() * scale, rel=1e-12)
    ci = stats.ttest_1samp(d, 0.0).confidence_interval(0.95)
    assert r.ci == pytest.approx((ci.low * scale, ci.high * scale), rel=1e-9)
    if scale in (2.0**1000, 2.0**-20):  # exactly scaled values: exactly the same p-value
        assert r.pvalue == paired_test(d, np.zeros(10), test=test, n_resamples=2000, interval="t").pvalue


@pytest.mark.parametrize("test", SCALE_TESTS)
def test_a_pairs_pvalue_does_not_depend_on_the_scale_of_other_systems(test):
    rng = np.random.default_rng(1)
    a, b = rng.random(12), rng.random(12)
    alone = paired_test(a, b, test=test, n_resamples=2000).pvalue
    matrix = np.vstack([a, b, rng.random(12) * 1e300, rng.random(12) * 1e-300])
    assert pairwise_tests(matrix, test=test, n_resamples=2000).pvalue[0] == pytest.approx(alone, rel=1e-12)


@pytest.mark.parametrize("test", SCALE_TESTS)
def test_differences_that_overflow_are_refused(test):
    with pytest.raises(ValueError, match=r"rows 0 and 1 .*overflow.*1e\+308 - -1e\+308"):
        paired_test([1e308, -1e308, 1e308], [-1e308, 1e308, 0], test=test)
    with pytest.raises(ValueError, match="overflow"):
        pairwise_tests([[0.5, 0.4, 0.3], [1e308, -1e308, 0.0], [-1e308, 1e308, 0.0]], test=test)


@pytest.mark.parametrize("test", SCALE_TESTS)
def test_values_near_the_largest_float_whose_differences_are_finite(test):
    # a mean of 1.23e308 is finite although the sum of the differences is not
    a = np.array([1e308, 1e308, 1.7e308, 1.2e308])
    r = paired_test(a, np.zeros(4), test=test)
    scaled = paired_test(a / 2.0**1000, np.zeros(4), test=test)
    assert r.pvalue == scaled.pvalue
    assert r.difference == pytest.approx(np.mean(a / 4) * 4, rel=1e-12)


@pytest.mark.parametrize("confidence, needed", [(0.95, 40), (0.9, 20), (0.99, 200)])
@pytest.mark.parametrize("interval", ["percentile", "bca"])
def test_one_minimum_of_bootstrap_resamples_for_paired_test_pairwise_tests_and_compare_systems(
    confidence, needed, interval
):
    # each tail of the interval holds (1 - confidence) / 2 of the resamples: at least one resample
    assert needed == round(2 / (1 - confidence))
    from ndcg_research.stats import compare_systems

    rng = np.random.default_rng(3)
    x = rng.random((3, 8))
    calls = [
        lambda b: paired_test(x[0], x[1], test="bootstrap", interval=interval, confidence=confidence, n_resamples=b),
        lambda b: paired_test(x[0], x[1], test="t", interval=interval, confidence=confidence, n_resamples=b),
        lambda b: pairwise_tests(x, test="permutation", interval=interval, confidence=confidence, n_resamples=b),
        lambda b: compare_systems(x, test="bootstrap", interval=interval, confidence=confidence, n_resamples=b),
    ]
    for call in calls:
        with pytest.raises(ValueError, match=f"n_resamples must be at least {needed} .*got {needed - 1}"):
            call(needed - 1)
        call(needed)
    # a t interval, or none, needs no resamples (the bootstrap test needs 1 / alpha of them: tested below)
    paired_test(x[0], x[1], test="permutation", exact=False, interval="t", n_resamples=10)
    pairwise_tests(x, test="permutation", exact=False, interval="none", n_resamples=10)


def test_series_indexed_by_query_are_paired_by_query_or_refused():
    # Values are paired by position: two Series in different query orders used to be tested as given, silently
    # pairing one query with another.
    pd = pytest.importorskip("pandas")
    a = pd.Series([0.1, 0.4, 0.35, 0.8], index=["q1", "q2", "q3", "q4"])
    shuffled = (a + [0.01, 0.02, 0.015, 0.03]).sort_values(ascending=False)
    with pytest.raises(ValueError, match=r"a and b are pandas Series with different indexes.*b\.reindex\(a\.index\)"):
        paired_test(a, shuffled)
    with pytest.raises(ValueError, match=r"scores\['x'\] and scores\['y'\] are pandas Series with different indexes"):
        compare_systems({"x": a, "y": shuffled})
    aligned = shuffled.reindex(a.index)
    assert paired_test(a, aligned).pvalue == pytest.approx(stats.ttest_rel(a.to_numpy(), aligned.to_numpy()).pvalue)
    assert paired_test(a, aligned.to_numpy()).pvalue == paired_test(a, aligned).pvalue  # an array pairs by position


@pytest.mark.parametrize("test", ["t", "wilcoxon", "bootstrap"])
def test_exact_with_a_test_that_has_no_exact_form_is_refused(test):
    # exact chooses how the permutation test enumerates sign vectors; the other tests used to ignore it silently.
    a, b = [0.5, 0.7, 0.6, 0.8], [0.4, 0.6, 0.6, 0.5]
    with pytest.raises(
        ValueError, match=rf"exact applies to the permutation test only, got exact=True with test='{test}'"
    ):
        paired_test(a, b, test=test, exact=True)
    with pytest.raises(ValueError, match="exact applies to the permutation test only"):
        pairwise_tests(np.array([a, b]), test=test, exact=False)
    assert paired_test(a, b, test="permutation", exact=True).exact


def test_kendall_tau_of_a_constant_scoring_is_nan_as_documented():
    from ndcg_research.stats import kendall_tau

    assert math.isnan(kendall_tau([1, 1, 1], [1, 2, 3])) and math.isnan(stats.kendalltau([1, 1, 1], [1, 2, 3])[0])


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda m: pairwise_tests(m, pairs=[]), r"pairs must not be empty, got shape \(0,\)"),
        (lambda m: paired_test([], m[0]), r"a must hold at least 2 queries, got 0"),
        (lambda m: compare_systems({"x": [], "y": []}), r"scores must hold at least 2 queries \(columns\), got 0"),
    ],
)
def test_an_empty_input_is_called_empty_not_a_float_dtype(call, message):
    # numpy types [] as float64: integer-only arguments (pairs) said "must hold integers, got dtype float64".
    with pytest.raises(ValueError, match=message):
        call(np.random.default_rng(0).random((3, 5)))


@pytest.mark.parametrize("size", [1e-2, 1e-4, 1e-6])
def test_exact_permutation_p_counts_the_identity_and_equals_scipy_on_small_differences(size):
    # The null means came from the systems' resampled means, rounded at the systems' scale (up to 2**26 times the
    # differences'): the identity resample could miss the observed mean, and an exact test returned p = 0, which
    # is impossible (for small same-sign differences, about half the time at 1e-4).
    rng = np.random.default_rng(7)
    for _ in range(20):
        a = rng.uniform(0.2, 0.9, 12)
        b = a - rng.uniform(0.2, 1.0, 12) * size * a
        mine = pairwise_tests(np.array([a, b, b - 0.3]), test="permutation", interval="none").pvalue[0]
        reference = stats.permutation_test(
            (a - b,), np.mean, permutation_type="samples", n_resamples=np.inf, alternative="two-sided"
        ).pvalue
        assert mine >= 1 / 2**11 and mine == pytest.approx(reference, rel=1e-12)


def test_a_queries_by_systems_frame_is_refused_not_transposed_silently():
    # evaluate's per_query pivoted as people pivot it (index "query", columns "run") is queries x systems: it was
    # taken as systems x queries, and every query compared as a system.
    rng = np.random.default_rng(2)
    wide = pd.DataFrame(
        nDCG_like(rng, 3, 10).T,
        index=pd.Index([f"q{i}" for i in range(10)], name="query"),
        columns=pd.Index(["a", "b", "c"], name="run"),
    )
    for function in (compare_systems, pairwise_tests):
        with pytest.raises(ValueError, match=r"queries \(rows, index 'query'\) x systems.*pass its transpose"):
            function(wide)
    unnamed_rows = wide.rename_axis(index=None)
    with pytest.raises(ValueError, match=r"x systems \(columns 'run'\)"):
        compare_systems(unnamed_rows)
    assert compare_systems(wide.T).systems["system"].tolist() == ["a", "b", "c"]


def test_a_frame_in_pandas_layout_is_refused_as_ambiguous_not_read_as_many_systems():
    # pd.DataFrame({"bm25": ..., "dense": ...}) has queries as unnamed rows 0..n-1: it was read as 20 systems of 2
    # queries (190 pairs) where the same dict gives 2 systems; variance_components swapped its components silently.
    from ndcg_research.stats import variance_components

    rng = np.random.default_rng(4)
    scores = {"bm25": nDCG_like(rng, 1, 20)[0], "dense": nDCG_like(rng, 1, 20)[0]}
    frame = pd.DataFrame(scores)
    for function in (compare_systems, pairwise_tests, variance_components):
        with pytest.raises(ValueError, match=r"numbered rows \(0, 1, 2, ...; columns 'bm25', 'dense'\).*pass scores.T"):
            function(frame)
    assert compare_systems(frame.T).pairs.equals(compare_systems(scores).pairs)
    # rows named by system, or a plain matrix, are read as before
    named = pd.DataFrame(np.vstack(list(scores.values())), index=["bm25", "dense"])
    assert compare_systems(named).systems["system"].tolist() == ["bm25", "dense"]
    # TREC topics as rows (301..320: not 0..n-1), or query ids as text, were read as 20 systems (190 pairs, power 0)
    topics = frame.set_axis(range(301, 321))
    texts = frame.set_axis([f"q{i}" for i in range(20)])
    with pytest.raises(ValueError, match=r"numbered rows \(301, 302, 303, ...; columns 'bm25', 'dense'\)"):
        discriminative_power(topics)
    with pytest.raises(ValueError, match=r"more rows \(20\) than columns \(2\).*rename_axis\(index='system'\)"):
        compare_systems(texts)
    # said to be systems x queries (index named, or systems named): read as given
    assert len(compare_systems(texts.rename_axis(index="system")).pairs) == 190
    assert len(pairwise_tests(pd.DataFrame(np.vstack([scores["bm25"]] * 3).T[:3]).T).pvalue) == 3


def test_nullable_float_frames_are_read_as_numbers():
    # pandas' Float64 columns give an object array: "scores must hold real numbers, got dtype object"
    frame = pd.DataFrame([[0.5, 0.6, 0.7], [0.4, 0.5, 0.65]], index=["a", "b"])
    assert compare_systems(frame.astype("Float64")).pairs.equals(compare_systems(frame).pairs)
    with pytest.raises(ValueError, match=r"scores must be finite, got nan at index \(0, 1\)"):
        compare_systems(frame.astype("Float64").mask(frame == 0.6))


def test_tukey_counts_differences_within_the_tie_tolerance_as_ties():
    # 4e-13 apart on every query: 30 ties, no win nor loss, yet Tukey's p was 0.0001 (the t and permutation tests: 1)
    x = np.random.default_rng(0).uniform(0.2, 0.9, 30)
    tied = np.vstack([x, x + 4e-13, x - 0.2])
    pairs = compare_systems(tied, test="tukey").pairs
    assert pairs["pvalue"].iloc[0] == 1.0 and pairs["difference"].iloc[0] == 0.0 and pairs["ties"].iloc[0] == 30
    power = discriminative_power(tied, test="tukey")
    assert power.differences[0] == 0.0 and not power.significant[0] and power.significant[1:].all()


def test_monte_carlo_tests_refuse_too_few_resamples_to_call_a_pair_significant():
    # (count + 1) / (B + 1) >= 1 / (B + 1) = 0.05 at B = 19: discriminative power 0.0 where 1,000 resamples give 0.83
    rng = np.random.default_rng(7)
    topic = rng.normal(0.5, 0.15, 50)
    scores = np.array([topic + shift + rng.normal(0, 0.05, 50) for shift in (0.0, 0.01, 0.1)])
    for test in ("permutation", "tukey"):
        with pytest.raises(ValueError, match=rf"at least 20 for the {test} test at alpha 0.05: .* got 19"):
            discriminative_power(scores, test=test, n_resamples=19)
        with pytest.raises(ValueError, match=rf"at least 33 for the {test} test at alpha 0.03: .* got 32"):
            discriminative_power(scores, test=test, alpha=0.03, n_resamples=32)
        assert discriminative_power(scores, test=test, n_resamples=20).power > 0
    # 20 queries or fewer: the exact permutation test, whose p-values do not depend on B
    assert discriminative_power(scores[:, :12], test="permutation", n_resamples=5).power >= 0
    # the bootstrap test's limit follows the alpha given (it followed confidence, 0.95, whatever alpha was)
    with pytest.raises(ValueError, match=r"at least 100 for the bootstrap test at alpha 0.01: .*got 50"):
        pairwise_tests(scores, test="bootstrap", alpha=0.01, n_resamples=50)


def test_a_mapping_of_scores_names_its_rows_and_the_bad_value():
    # Were doctests of the private _inputs.check_scores.
    from ndcg_research.stats._inputs import check_scores

    scores = check_scores({"bm25": [0.2, 0.4], "dense": [0.3, 0.3]}, "scores")
    assert scores.names == ["bm25", "dense"] and scores.values.tolist() == [[0.2, 0.4], [0.3, 0.3]]
    with pytest.raises(ValueError, match=r"^scores\['bm25'\] must be finite, got nan at index 1$"):
        check_scores({"bm25": [0.2, float("nan")], "dense": [0.3, 0.3]}, "scores")
    with pytest.raises(ValueError, match=r"^systems must name each row once, got \['a', 'a'\]$"):
        check_scores([[0.2, 0.4], [0.3, 0.3]], "scores", ["a", "a"])


def test_the_bootstrap_test_refuses_too_few_resamples_to_reach_alpha():
    # Its p-value is count / B: with B = 1 a pair of identical systems got p = 0 (and discriminative power 0.47 where
    # 10,000 resamples give 0); from B = 1 / alpha on, p = 0 means "below alpha" at least.
    from ndcg_research.stats import compare_systems, discriminative_power

    scores = np.random.default_rng(0).normal(0.5, 0.2, (6, 30))
    message = r"n_resamples must be at least 20 for the bootstrap test at alpha 0.05 \(1 - confidence\): .*got 19"
    with pytest.raises(ValueError, match=message):
        paired_test(scores[0], scores[1], test="bootstrap", interval="t", n_resamples=19)
    with pytest.raises(ValueError, match=message):
        compare_systems(scores, test="bootstrap", interval="t", n_resamples=19)
    with pytest.raises(ValueError, match=r"at least 10 for the bootstrap test at alpha 0.1: .*got 9"):
        discriminative_power(scores, alpha=0.1, n_resamples=9)
    assert 0 < paired_test(scores[0], scores[1], test="bootstrap", interval="t", n_resamples=20).pvalue <= 1
    # the tests whose p-values are never 0 are not limited: (count + 1) / (B + 1)
    assert paired_test(scores[0], scores[1], test="permutation", exact=False, interval="t", n_resamples=1).pvalue > 0


def test_pair_results_wilson_counts_and_boolean_pairs_are_checked_by_name():
    # result(3) was an IndexError, result(1.5) numpy's message; wilson_interval beyond int64 a ufunc TypeError;
    # pairs=[(True, 0)] compared rows 1 and 0 (numpy reads True beside an integer as 1)
    from ndcg_research.stats import wilson_interval

    scores = np.random.default_rng(5).normal(0.5, 0.2, (3, 30))
    tests = pairwise_tests(scores)
    with pytest.raises(ValueError, match=r"index must be an integer in \[0, 2\], got 3"):
        tests.result(3)
    with pytest.raises(TypeError, match=r"index must be an integer in \[0, 2\], got float 1.5"):
        tests.result(1.5)
    assert tests.result(np.int64(2)).pvalue == tests.pvalue[2]
    with pytest.raises(ValueError, match=r"successes must be an integer in \[0, 9223372036854775807\]"):
        wilson_interval(2**63, 2**64)
    with pytest.raises(TypeError, match=r"pairs must hold row numbers \(integers\), not booleans, got \[\(True, 0\)\]"):
        pairwise_tests(scores, pairs=[(True, 0)])
