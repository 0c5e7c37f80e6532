"""Discriminative power against a direct count of significant pairs (Sakai 2006)."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from scipy import stats

from ndcg_research.stats import discriminative_power, tukey_hsd
from ndcg_research.stats._resampling import BOOTSTRAP_STREAM, block_generator


def collection(seed: int, systems: int = 8, queries: int = 30) -> np.ndarray:
    rng = np.random.default_rng(seed)
    topic = rng.beta(2, 3, queries)
    skill = np.linspace(0, 0.15, systems)[:, None]
    return np.clip(topic + skill + rng.normal(0, 0.12, (systems, queries)), 0, 1)


def test_t_power_is_the_share_of_scipy_t_tests_below_alpha():
    x = collection(1)
    dp = discriminative_power(x, test="t", alpha=0.05)
    pairs = list(itertools.combinations(range(8), 2))
    p = [stats.ttest_rel(x[i], x[j]).pvalue for i, j in pairs]
    assert dp.power == sum(v < 0.05 for v in p) / len(pairs)
    np.testing.assert_allclose(dp.asl_curve, np.sort(p), rtol=1e-12)
    # difference required: the largest per-pair t critical difference t(0.975, n-1) s_d / sqrt(n)
    critical = [stats.t.ppf(0.975, 29) * np.std(x[i] - x[j], ddof=1) / math.sqrt(30) for i, j in pairs]
    assert dp.difference_required == pytest.approx(max(critical), rel=1e-12)


def test_bootstrap_power_and_difference_required_equal_a_direct_count():
    x = collection(2, systems=6, queries=20)
    seed, b, alpha = 3, 1000, 0.05
    dp = discriminative_power(x, test="bootstrap", n_resamples=b, seed=seed, alpha=alpha)
    indices = block_generator(seed, BOOTSTRAP_STREAM, 0).integers(0, 20, size=(b, 20))
    significant = 0
    required = []
    for i, j in itertools.combinations(range(6), 2):  # Sakai (2006), Figures 1 and 5
        z = x[i] - x[j]
        t_obs = abs(z.mean()) / (z.std(ddof=1) / math.sqrt(20))
        w = z - z.mean()
        samples = w[indices]
        t_star = np.abs(samples.mean(axis=1)) / (samples.std(axis=1, ddof=1) / math.sqrt(20))
        significant += np.mean(t_star >= t_obs) < alpha
        at = np.argsort(-t_star, kind="stable")[math.ceil(b * alpha) - 1]
        required.append(abs(samples[at].mean()))
    assert dp.power == significant / 15
    assert dp.difference_required == pytest.approx(max(required), rel=1e-9)
    assert dp.n_resamples == b and dp.test == "bootstrap"


def test_tukey_power_counts_pairs_beyond_the_honest_difference():
    x = collection(3)
    dp = discriminative_power(x, test="tukey", n_resamples=2000, seed=1)
    hsd = tukey_hsd(x, n_resamples=2000, seed=1)
    assert dp.power == np.mean(hsd.pvalue < 0.05)
    assert dp.difference_required == hsd.critical_difference
    # a pair is significant exactly when its |difference| exceeds most resampled ranges
    big = np.abs(hsd.difference) > np.sort(hsd.ranges)[-100]  # the 100 = 2000 * 0.05 largest
    np.testing.assert_array_equal(dp.significant, big)


def test_correction_lowers_power_and_is_refused_for_tukey():
    x = collection(4)
    plain = discriminative_power(x, test="t")
    holm = discriminative_power(x, test="t", correction="holm")
    assert holm.power <= plain.power
    assert holm.power == np.mean(np.sort(holm.pvalues) < 0.05)
    with pytest.raises(ValueError, match="correction must be None with test='tukey'"):
        discriminative_power(x, test="tukey", correction="holm")


@pytest.mark.parametrize("method", ["bootstrap", "permutation", "tukey"])
def test_power_identical_for_one_and_two_workers(method):
    x = collection(5, systems=60, queries=40)  # 1770 pairs: several chunks of pairs
    one = discriminative_power(x, test=method, n_resamples=6000, seed=2, n_jobs=1)
    two = discriminative_power(x, test=method, n_resamples=6000, seed=2, n_jobs=2)
    np.testing.assert_array_equal(one.pvalues, two.pvalues)
    np.testing.assert_array_equal(one.critical_differences, two.critical_differences)
    assert one.power == two.power


def test_table_lists_every_pair():
    x = collection(6, systems=4)
    table = discriminative_power(x, test="t", systems=["a", "b", "c", "d"]).table()
    assert list(zip(table.system_a, table.system_b, strict=True)) == list(itertools.combinations("abcd", 2))
    assert table.significant.tolist() == (table.asl < 0.05).tolist()
