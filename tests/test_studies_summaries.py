"""Tests of ndcg_research.studies.summaries against hand computations and scipy's own formulas."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

from ndcg_research.studies import summaries as su

Z = 1.959963984540054  # the 97.5% point of the standard normal


def _wilson_by_hand(k: int, m: int) -> tuple[float, float]:
    # (p + z^2/2m -+ z sqrt(p(1-p)/m + z^2/4m^2)) / (1 + z^2/m)
    p = k / m
    centre = (p + Z * Z / (2 * m)) / (1 + Z * Z / m)
    half = Z * math.sqrt(p * (1 - p) / m + Z * Z / (4 * m * m)) / (1 + Z * Z / m)
    return centre - half, centre + half


@pytest.mark.parametrize(("k", "m"), [(0, 10), (3, 5), (50, 100), (99, 100), (10, 10), (1, 1)])
def test_wilson_interval_is_the_closed_form(k, m):
    low, high = su.wilson_interval(k, m)
    want_low, want_high = _wilson_by_hand(k, m)
    assert low == pytest.approx(max(want_low, 0.0), abs=1e-12)
    assert high == pytest.approx(min(want_high, 1.0), abs=1e-12)
    assert low <= k / m <= high


@pytest.mark.parametrize(("args", "error", "match"), [
    ((3, 2), ValueError, "successes must be <= trials"),
    ((1, 0), ValueError, "trials must be an integer >= 1"),
    ((1.0, 2), TypeError, "successes must be an integer"),
])
def test_wilson_interval_rejects_bad_counts(args, error, match):
    with pytest.raises(error, match=match):
        su.wilson_interval(*args)


def test_mean_interval_by_hand_and_along_an_axis():
    v = np.array([0.9, 0.8, 0.7, 0.6, 0.5])
    out = su.mean_interval(v)
    half = 2.776445105 * math.sqrt(0.025) / math.sqrt(5)  # t(0.975, 4) * sd / sqrt(m), tables of t
    assert out["mean"] == pytest.approx(0.7) and out["sd"] == pytest.approx(math.sqrt(0.025))
    assert (out["ci_low"], out["ci_high"]) == pytest.approx((0.7 - half, 0.7 + half))
    grid = np.stack([v, 2 * v, np.ones(5)], axis=1)  # replicates along axis 0
    out = su.mean_interval(grid)
    assert out["mean"] == pytest.approx([0.7, 1.4, 1.0])
    assert out["ci_high"][1] - out["mean"][1] == pytest.approx(2 * half)
    assert out["ci_low"][2] == out["ci_high"][2] == 1.0  # equal values: the interval is the value
    one = su.mean_interval([0.3])
    assert one["mean"] == 0.3 and math.isnan(one["sd"]) and math.isnan(one["ci_low"])
    lower = su.mean_interval(v, confidence=0.5)
    assert lower["ci_high"] - lower["mean"] < half


def test_paired_comparison_counts_and_snaps_rounding_to_ties():
    better = np.array([[0.9, 1.0], [0.8, 1.0], [0.7, 1.0], [0.6, 1.0 - 3e-16]])
    worse = np.array([[0.8, 1.0], [0.8, 1.0], [0.8, 1.0 - 2e-16], [0.5, 1.0]])
    out = su.paired_comparison(better, worse)
    assert out["p_better"].tolist() == [0.5, 0.0] and out["p_tie"].tolist() == [0.25, 1.0]
    assert out["p_worse"].tolist() == [0.25, 0.0]
    gaps = np.array([0.1, 0.0, -0.1, 0.1])
    assert out["mean_gap"][0] == pytest.approx(gaps.mean()) and out["sd_gap"][0] == pytest.approx(gaps.std(ddof=1))
    assert out["std_gap"][0] == pytest.approx(gaps.mean() / gaps.std(ddof=1))
    # Second column: every gap is rounding noise, so it is a tie throughout and the standardized gap undefined.
    assert out["mean_gap"][1] == 0.0 and out["sd_gap"][1] == 0.0 and math.isnan(out["std_gap"][1])
    low, high = stats.binomtest(2, 4).proportion_ci(0.95, method="wilson")
    assert (out["p_better_low"][0], out["p_better_high"][0]) == pytest.approx((low, high))


def test_grid_table_rows_follow_the_axes():
    table = su.grid_table({"a": ["x", "y"], "n": [1, 2, 3]}, {"v": np.arange(6).reshape(2, 3), "c": "const"})
    assert table[["a", "n", "v"]].values.tolist() == [["x", 1, 0], ["x", 2, 1], ["x", 3, 2],
                                                       ["y", 1, 3], ["y", 2, 4], ["y", 3, 5]]
    assert set(table["c"]) == {"const"}
    with pytest.raises(ValueError, match="column 'v' has shape"):
        su.grid_table({"a": ["x", "y"]}, {"v": [1, 2, 3]})


@pytest.mark.parametrize(("draw", "m"), [
    (lambda rng, size: rng.normal(0.3, 1.0, size), 400),                # normal: Var = (1 + d^2/2) / m
    (lambda rng, size: rng.exponential(1.0, size) - 0.6, 400),          # skewed
    # rare big losses: the moments need enough replicates to see the rare values (80 here; 8 are too few)
    (lambda rng, size: np.where(rng.random(size) < 0.02, -5.0, 0.2) + rng.normal(0, 0.05, size), 4000),
])
def test_standardized_gap_se_matches_the_spread_over_repeated_samples(draw, m):
    # Reference: the standard deviation of mean/sd over 3000 independent samples of size m.
    rng = np.random.default_rng(12)
    samples = draw(rng, (3000, m))
    d = samples.mean(axis=1) / samples.std(axis=1, ddof=1)
    predicted = su.standardized_gap_se(samples, axis=1)
    assert np.median(predicted) == pytest.approx(d.std(ddof=1), rel=0.1)


def test_standardized_gap_se_is_nan_for_constant_gaps_and_needs_two_values():
    assert np.isnan(su.standardized_gap_se(np.zeros(10)))
    with pytest.raises(ValueError, match="at least two replicates"):
        su.standardized_gap_se([1.0])


def test_bootstrap_interval_covers_the_truth_about_as_often_as_it_says():
    rng = np.random.default_rng(5)
    covered = 0
    for i in range(200):
        a = rng.normal(1.0, 1.0, 60)
        b = a + rng.normal(0.5, 1.0, 60)   # paired: the mean difference is 0.5
        value, low, high = su.bootstrap_interval(lambda a, b, axis: (b - a).mean(axis), [a, b], seed=i,
                                                 n_resamples=500)
        assert low <= value <= high
        covered += low <= 0.5 <= high
    assert 0.88 <= covered / 200 <= 0.99


def test_family_confidence_is_bonferroni():
    assert su.family_confidence(1) == pytest.approx(0.95)
    assert su.family_confidence(10, 0.9) == pytest.approx(0.99)
    with pytest.raises(ValueError, match="family_size must be an integer >= 1"):
        su.family_confidence(0)
