"""Tests of the intervals of ndcg_research.stats (t, Wilson) and of the studies' labels of proportions, bootstrap of a
statistic and family confidence (private ``stats._replication``) against hand computations and scipy's own formulas;
the bootstrap intervals of many rows are tested in tests/test_stats_paired.py."""

from __future__ import annotations

import math

import numpy as np
import pytest

from ndcg_research import stats as iv
from ndcg_research.stats import _replication as rep

Z = 1.959963984540054  # the 97.5% point of the standard normal


def _wilson_by_hand(k: int, m: int) -> tuple[float, float]:
    # (p + z^2/2m -+ z sqrt(p(1-p)/m + z^2/4m^2)) / (1 + z^2/m)
    p = k / m
    centre = (p + Z * Z / (2 * m)) / (1 + Z * Z / m)
    half = Z * math.sqrt(p * (1 - p) / m + Z * Z / (4 * m * m)) / (1 + Z * Z / m)
    return centre - half, centre + half


@pytest.mark.parametrize(("k", "m"), [(0, 10), (3, 5), (50, 100), (99, 100), (10, 10), (1, 1)])
def test_wilson_interval_is_the_closed_form(k, m):
    low, high = iv.wilson_interval(k, m)
    want_low, want_high = _wilson_by_hand(k, m)
    assert low == pytest.approx(max(want_low, 0.0), abs=1e-12)
    assert high == pytest.approx(min(want_high, 1.0), abs=1e-12)
    assert low <= k / m <= high


@pytest.mark.parametrize(
    ("args", "error", "match"),
    [
        ((3, 2), ValueError, "successes must be <= trials"),
        ((1, 0), ValueError, r"trials must be an integer in \[1, 9223372036854775807\], got 0"),
        ((1.0, 2), TypeError, "successes must be an integer"),
    ],
)
def test_wilson_interval_rejects_bad_counts(args, error, match):
    with pytest.raises(error, match=match):
        iv.wilson_interval(*args)


def test_a_perfect_record_reads_as_1_only_from_381_trials():
    # The Wilson lower bound of R successes in R trials is R / (R + z^2) (closed form): at least 0.99
    # from R >= 0.99 z^2 / 0.01 = 380.3, so 380 of 380 is written as a count and 381 of 381 as 1.
    assert 380 / (380 + Z * Z) < 0.99 <= 381 / (381 + Z * Z)
    assert rep.proportion_label(380, 380).startswith("380/380 [0.99,")
    assert rep.proportion_label(381, 381).startswith("1.00 [0.99,")
    assert rep.proportion_label(20, 20) == f"20/20 [{20 / (20 + Z * Z):.2f},1.00]"
    # the same at 0 (upper bound z^2 / (R + z^2)) and wherever rounding alone would print 1 or 0
    assert rep.proportion_label(0, 380).startswith("0/380 [0.00,")
    assert rep.proportion_label(0, 381).startswith("0.00 [0.00,")
    assert iv.wilson_interval(996, 1000)[0] < 0.99 <= iv.wilson_interval(997, 1000)[0]
    assert rep.proportion_label(996, 1000).startswith("996/1000 [")  # 0.996 rounds to 1.00: lower bound 0.9898
    assert rep.proportion_label(997, 1000).startswith("1.00 [")  # lower bound 0.9912
    assert rep.proportion_label(995, 1000).startswith("0.99 [")  # 0.995 rounds to 0.99: a count is not needed
    assert rep.proportion_label(20, 20, interval=False) == "20/20"
    assert rep.proportion_label(381, 381, interval=False) == "1.00"


def test_proportion_label_of_an_ordinary_proportion_is_the_rounded_share_and_wilson_interval():
    low, high = _wilson_by_hand(87, 100)
    assert rep.proportion_label(87, 100) == f"0.87 [{low:.2f},{high:.2f}]"
    low, high = _wilson_by_hand(3, 7)
    assert rep.proportion_label(3, 7, digits=3) == f"0.429 [{low:.3f},{high:.3f}]"


def test_proportion_label_refuses_more_successes_than_trials():
    with pytest.raises(ValueError, match="successes must be <= trials"):
        rep.proportion_label(5, 4)


def test_share_label_recovers_the_count_and_refuses_a_share_that_is_not_one():
    assert rep.share_label(7 / 9, 9) == rep.proportion_label(7, 9)  # 7/9 * 9 is not exactly 7 in binary
    assert rep.share_label(1.0, 380, interval=False) == "380/380"
    with pytest.raises(ValueError, match=r"^share must be a share of 3 trials \(a whole count\), got 0.5$"):
        rep.share_label(0.5, 3)


def test_share_labels_of_a_table_recover_the_counts_from_the_shares():
    import pandas as pd

    # 7/9 and 1/3 are not exact in binary: the counts are recovered by rounding, then labelled
    t = pd.DataFrame({"p": [7 / 9, 1 / 3, 1.0, 0.0], "replicates": [9, 300, 20, 400]})
    want = [
        rep.proportion_label(7, 9),
        rep.proportion_label(100, 300),
        "20/20 [0.84,1.00]",
        rep.proportion_label(0, 400),
    ]
    rows = list(zip(t["p"], t["replicates"], strict=True))
    assert [rep.share_label(p, int(n)) for p, n in rows] == want
    assert [rep.share_label(p, int(n), interval=False) for p, n in rows] == ["0.78", "0.33", "20/20", "0.00"]


def test_mean_interval_by_hand_and_along_an_axis():
    v = np.array([0.9, 0.8, 0.7, 0.6, 0.5])
    out = iv.mean_interval(v)
    half = 2.776445105 * math.sqrt(0.025) / math.sqrt(5)  # t(0.975, 4) * sd / sqrt(m), tables of t
    assert out["mean"] == pytest.approx(0.7) and out["sd"] == pytest.approx(math.sqrt(0.025))
    assert (out["ci_low"], out["ci_high"]) == pytest.approx((0.7 - half, 0.7 + half))
    grid = np.stack([v, 2 * v, np.ones(5)], axis=1)  # replicates along axis 0
    out = iv.mean_interval(grid)
    assert out["mean"] == pytest.approx([0.7, 1.4, 1.0])
    assert out["ci_high"][1] - out["mean"][1] == pytest.approx(2 * half)
    assert out["ci_low"][2] == out["ci_high"][2] == 1.0  # equal values: the interval is the value
    one = iv.mean_interval([0.3])
    assert one["mean"] == 0.3 and math.isnan(one["sd"]) and math.isnan(one["ci_low"])
    lower = iv.mean_interval(v, confidence=0.5)
    assert lower["ci_high"] - lower["mean"] < half


def test_bootstrap_statistic_interval_covers_the_truth_about_as_often_as_it_says():
    rng = np.random.default_rng(5)
    covered = 0
    for i in range(200):
        a = rng.normal(1.0, 1.0, 60)
        b = a + rng.normal(0.5, 1.0, 60)  # paired: the mean difference is 0.5
        value, low, high = rep.bootstrap_statistic_interval(
            lambda a, b, axis: (b - a).mean(axis), [a, b], seed=i, n_resamples=500
        )
        assert low <= value <= high
        covered += low <= 0.5 <= high
    assert 0.88 <= covered / 200 <= 0.99


def test_family_confidence_is_bonferroni():
    assert rep.family_confidence(1) == pytest.approx(0.95)
    assert rep.family_confidence(10, confidence=0.9) == pytest.approx(0.99)


@pytest.mark.parametrize(
    "call",
    [
        lambda c: iv.mean_interval([0.1, 0.2], confidence=c),
        lambda c: iv.wilson_interval(1, 2, confidence=c),
    ],
)
@pytest.mark.parametrize("confidence", [0.0, 1.0, 95])
def test_a_confidence_outside_0_1_is_refused_by_name(call, confidence):
    with pytest.raises(ValueError, match="confidence must be strictly between 0 and 1"):
        call(confidence)


@pytest.mark.parametrize("axis, shape", [(5, (2,)), (-2, (2,)), (2, (2, 3))])
def test_mean_interval_names_an_axis_the_values_do_not_have(axis, shape):
    # was a bare IndexError from the shape lookup
    high = len(shape) - 1
    with pytest.raises(ValueError, match=rf"axis must be an integer in \[{-high - 1}, {high}\], got {axis}"):
        iv.mean_interval(np.full(shape, 0.5), axis=axis)


@pytest.mark.parametrize("values", [[0.5], [0.5, 0.7], [0.5, 0.7, 0.9], [[0.5, 0.1]], [[0.5, 0.1], [0.7, 0.3]]])
def test_mean_interval_returns_float_arrays_of_the_reduced_shape_for_any_count(values):
    out = iv.mean_interval(values)
    shape = np.asarray(values).shape[1:]
    for key in ("mean", "sd", "ci_low", "ci_high"):
        assert type(out[key]) is np.ndarray and out[key].dtype == np.float64 and out[key].shape == shape, key
    assert np.allclose(out["mean"], np.mean(values, axis=0))
    if len(values) == 1:  # one value: no spread, no interval
        assert np.isnan(out["sd"]).all() and np.isnan(out["ci_low"]).all() and np.isnan(out["ci_high"]).all()
    else:
        assert np.allclose(out["sd"], np.std(values, axis=0, ddof=1))
