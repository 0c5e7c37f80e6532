"""Corrections against hand computations; the randomised Tukey HSD test against exact enumeration."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from ndcg_research.stats import adjust_pvalues, compare_systems, tukey_hsd


def test_holm_by_hand():
    # m = 5 p-values. Sorted: 0.005 (x5 = 0.025), 0.011 (x4 = 0.044), 0.02 (x3 = 0.06),
    # 0.04 (x2 = 0.08), 0.3 (x1 = 0.3); running maximum: 0.025, 0.044, 0.06, 0.08, 0.3.
    p = [0.04, 0.005, 0.3, 0.011, 0.02]
    expected = [0.08, 0.025, 0.3, 0.044, 0.06]
    np.testing.assert_allclose(adjust_pvalues(p, "holm"), expected, rtol=1e-12)


def test_holm_step_down_keeps_monotone_order_and_caps_at_one():
    # sorted 0.01 (x4 = 0.04), 0.02 (x3 = 0.06), 0.03 (x2 = 0.06), 0.6 (x1 = 0.6); and 0.4 x 4 > 1
    np.testing.assert_allclose(adjust_pvalues([0.03, 0.6, 0.01, 0.02]), [0.06, 0.6, 0.04, 0.06], rtol=1e-12)
    # sorted 0.3 x 3 = 0.9, 0.4 x 2 = 0.8 -> max(0.9, 0.8) = 0.9, 0.5 x 1 -> 0.9
    np.testing.assert_allclose(adjust_pvalues([0.5, 0.3, 0.4]), [0.9, 0.9, 0.9], rtol=1e-12)
    assert adjust_pvalues([0.5, 0.6]).tolist() == [1.0, 1.0]


def test_bonferroni_and_benjamini_hochberg_by_hand():
    p = [0.01, 0.04, 0.03, 0.20]
    np.testing.assert_allclose(adjust_pvalues(p, "bonferroni"), [0.04, 0.16, 0.12, 0.80], rtol=1e-12)
    # BH: sorted 0.01 (x4/1 = 0.04), 0.03 (x4/2 = 0.06), 0.04 (x4/3 = 0.0533), 0.2 (x4/4 = 0.2);
    # running minimum from the top: 0.2, 0.0533, 0.0533, 0.04
    np.testing.assert_allclose(adjust_pvalues(p, "bh"), [0.04, 0.16 / 3, 0.16 / 3, 0.2], rtol=1e-12)
    np.testing.assert_array_equal(adjust_pvalues(p, "none"), p)


def test_bad_pvalues_are_named():
    with pytest.raises(ValueError, match=r"pvalues must be in \[0, 1\], got 1.2"):
        adjust_pvalues([0.1, 1.2])
    with pytest.raises(ValueError, match="correction must be one of 'holm', 'bonferroni', 'bh', 'none', got 'sidak'"):
        adjust_pvalues([0.1], "sidak")
    with pytest.raises(ValueError, match="correction must be one of"):
        adjust_pvalues([0.1], correction="sidak")


def exact_tukey_pvalues(x: np.ndarray) -> np.ndarray:
    """Share of all (S!)^n relabelings (systems shuffled within each query) whose range of means
    reaches each pair's |difference| (pairs in row-major order)."""
    s, n = x.shape
    means = x.mean(axis=1)
    pairs = list(itertools.combinations(range(s), 2))
    observed = np.array([abs(means[i] - means[j]) for i, j in pairs])
    hits = np.zeros(len(pairs))
    total = 0
    per_query = list(itertools.permutations(range(s)))
    for labels in itertools.product(per_query, repeat=n):
        shuffled = np.array([[x[labels[q][k], q] for q in range(n)] for k in range(s)])
        m = shuffled.mean(axis=1)
        hits += (m.max() - m.min()) >= observed * (1 - 1e-12)
        total += 1
    return hits / total


def test_randomised_tukey_hsd_matches_exact_enumeration():
    x = np.array([[0.9, 0.7, 0.8, 0.6], [0.5, 0.6, 0.4, 0.5], [0.45, 0.5, 0.55, 0.6]])
    exact = exact_tukey_pvalues(x)  # 6^4 = 1296 relabelings
    b = 40_000
    r = tukey_hsd(x, n_resamples=b, seed=1)
    se = np.sqrt(exact * (1 - exact) / b) + 1 / b
    # 5 standard errors: false failure below 1e-5 per pair for a random seed
    np.testing.assert_array_less(np.abs(r.pvalue - exact), 5 * se)
    assert r.first.tolist() == [0, 0, 1] and r.second.tolist() == [1, 2, 2]


@pytest.mark.parametrize("seed", range(12))
def test_tukey_hsd_of_systems_apart_on_one_query_only_gives_p_1(seed):
    # Systems 0 and 2 are equal, system 1 differs from them on query 0 alone. Shuffling the systems within a query
    # moves that one value to some system, so every range of means is |difference| exactly: every p-value is 1 (by
    # hand; the exact enumeration would list 6^n relabelings, all reaching). The float means of a shuffle and of
    # the observed systems are summed in other orders: a range short of |difference| by rounding is no evidence.
    rng = np.random.default_rng(seed)
    x = np.tile(rng.uniform(0.3, 0.9, 50), (3, 1))
    x[1, 0] += 0.1
    assert tukey_hsd(x, n_resamples=200, seed=seed).pvalue.tolist() == [1.0, 1.0, 1.0]


def test_a_query_alike_in_every_system_does_not_hide_a_difference():
    # Query 0 holds 1e9 in both systems (shuffling it changes nothing); b is 1e-5 above a on the other 19. Exact:
    # 2 of the 2^19 relabelings reach the difference (p = 3.8e-6), so 2,000 shuffles give the smallest p-values. A
    # rounding allowance of 8 n eps max |value| (3.5e-5, above the difference itself) gave p = 1.
    a = np.full(20, 0.5)
    a[0] = 1e9
    b = a.copy()
    b[1:] += 1e-5
    assert tukey_hsd(np.array([a, b]), n_resamples=2000, seed=0).pvalue[0] <= 2 / 2001


def test_randomised_tukey_hsd_controls_the_family_wise_error_under_the_null():
    # 600 collections of 5 exchangeable systems (i.i.d. per query): the share with any pair
    # significant at 0.05 must be near 0.05. Its standard error is 0.009: a random seed fails the
    # bound 0.05 + 0.035 with probability ~1e-4, the lower bound 0.02 (3.3 SE) with ~5e-4.
    rng = np.random.default_rng(2012)
    any_significant = 0
    for k in range(600):
        x = rng.beta(2, 3, (5, 20))
        any_significant += tukey_hsd(x, n_resamples=400, seed=k).pvalue.min() < 0.05
    assert 0.02 <= any_significant / 600 <= 0.085


def test_tukey_results_identical_for_one_and_two_workers():
    x = np.random.default_rng(0).random((12, 30))
    one = tukey_hsd(x, n_resamples=3500, seed=4, n_jobs=1)
    two = tukey_hsd(x, n_resamples=3500, seed=4, n_jobs=2)
    np.testing.assert_array_equal(one.ranges, two.ranges)
    np.testing.assert_array_equal(one.pvalue, two.pvalue)
    assert one.critical_difference == two.critical_difference == np.sort(one.ranges)[-175]  # ceil(3500 * 0.05)


def test_compare_systems_tables():
    rng = np.random.default_rng(5)
    topic = rng.random(25)
    scores = {"a": topic + 0.1, "b": topic + rng.normal(0, 0.05, 25), "c": topic - 0.2 + rng.normal(0, 0.05, 25)}
    c = compare_systems(scores, test="permutation", correction="bonferroni", n_resamples=2000)
    assert c.systems.system.tolist() == ["a", "b", "c"]
    np.testing.assert_allclose(c.systems["mean"], [np.mean(v) for v in scores.values()])
    assert (c.systems.ci_low < c.systems["mean"]).all() and (c.systems["mean"] < c.systems.ci_high).all()
    assert list(zip(c.pairs.system_a, c.pairs.system_b, strict=True)) == [("a", "b"), ("a", "c"), ("b", "c")]
    np.testing.assert_allclose(c.pairs.pvalue_adjusted, np.minimum(1, 3 * c.pairs.pvalue))
    assert (c.pairs.wins + c.pairs.ties + c.pairs.losses == 25).all()
    tukey = compare_systems(scores, test="tukey", n_resamples=2000)
    assert tukey.correction == "none"
    np.testing.assert_array_equal(tukey.pairs.pvalue, tukey.pairs.pvalue_adjusted)
    with pytest.raises(ValueError, match="correction must be 'none' with test='tukey'"):
        compare_systems(scores, test="tukey", correction="holm")


@pytest.mark.parametrize("interval", ["t", "percentile", "bca"])
@pytest.mark.parametrize("n", [10, 1000])
def test_a_constant_systems_interval_is_its_reported_mean(interval, n):
    # 0.1 added n times one by one (as trec_eval and evaluate average) is not numpy's pairwise mean of them: the
    # zero-width interval was numpy's (0.1) beside a mean of 0.09999999999999999, outside its own interval.
    constant = np.full(n, 0.1)
    reported = 0.0
    for value in constant:  # the mean as documented, by hand: added in order
        reported += value
    reported /= n
    table = compare_systems(np.vstack([constant, np.linspace(0, 1, n)]), interval=interval, n_resamples=200).systems
    assert table["mean"].iloc[0] == table["ci_low"].iloc[0] == table["ci_high"].iloc[0] == reported
    assert ((table["ci_low"] <= table["mean"]) & (table["mean"] <= table["ci_high"])).all()
