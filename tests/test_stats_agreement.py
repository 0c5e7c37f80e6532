"""Rank correlations and swap rates against direct computations from their definitions."""

from __future__ import annotations

import itertools
import math
import re
from fractions import Fraction

import numpy as np
import pytest

from ndcg_research.stats import kendall_tau, swap_rates, tau_ap, variance_components
from ndcg_research.stats._resampling import query_subsets


def tau_ap_by_definition(reference, other) -> float:
    """Yilmaz, Aslam & Robertson (2008), eq. (2), one position at a time."""
    n = len(reference)
    by_other = sorted(range(n), key=lambda s: -other[s])
    total = 0.0
    for i in range(1, n):
        item = by_other[i]
        correct = sum(1 for above in by_other[:i] if reference[above] > reference[item])
        total += correct / i
    return 2.0 / (n - 1) * total - 1.0


def test_tau_ap_by_hand():
    truth = [5, 4, 3, 2, 1]  # systems s0 > s1 > s2 > s3 > s4
    other = [4, 3, 5, 2, 1]  # order by other: s2, s0, s1, s3, s4
    # s0 at 2: above it s2 (truth 3 < 5) -> 0/1; s1 at 3: s2 no, s0 yes -> 1/2;
    # s3 at 4: all three above in truth -> 3/3; s4 at 5: 4/4.  tau_AP = 2/4 * (0 + 1/2 + 1 + 1) - 1 = 0.25
    assert tau_ap(truth, other) == pytest.approx(0.25)
    assert tau_ap(truth, truth) == 1.0
    assert tau_ap(truth, truth[::-1]) == -1.0


def test_tau_ap_equals_its_definition_on_random_orderings():
    rng = np.random.default_rng(0)
    for _ in range(50):
        n = int(rng.integers(2, 15))
        a, b = rng.permutation(n).astype(float), rng.permutation(n).astype(float)
        assert tau_ap(a, b) == pytest.approx(tau_ap_by_definition(a, b), abs=1e-12)


def test_kendall_tau_counts_concordant_pairs_without_ties():
    rng = np.random.default_rng(1)
    a, b = rng.random(12), rng.random(12)
    pairs = list(itertools.combinations(range(12), 2))
    concordant = sum(np.sign(a[i] - a[j]) == np.sign(b[i] - b[j]) for i, j in pairs)
    assert kendall_tau(a, b) == pytest.approx((2 * concordant - len(pairs)) / len(pairs), abs=1e-12)


def test_tau_ap_refuses_ties():
    with pytest.raises(ValueError, match="other has tied scores"):
        tau_ap([3, 2, 1], [1, 1, 0])


def test_disjoint_subsets_are_disjoint_and_of_the_right_size():
    first_subsets, second_subsets = query_subsets(40, 12, trials=30, seed=3, count=2)
    for first, second in zip(first_subsets, second_subsets, strict=True):
        assert len(set(first)) == len(set(second)) == 12 and not set(first) & set(second)


def test_subsets_do_not_depend_on_the_other_sizes_asked_for():
    x = np.random.default_rng(2).random((4, 50))
    both = swap_rates(x, [5, 20], trials=40, seed=9)
    alone = swap_rates(x, [20], trials=40, seed=9)
    assert both[both["size"] == 20].reset_index(drop=True).equals(alone)


def test_swap_rates_equal_a_direct_count():
    rng = np.random.default_rng(4)
    x = rng.random((6, 60)) + np.linspace(0, 0.1, 6)[:, None]
    edges = [0.0, 0.02, 0.05]
    table = swap_rates(x, [10], trials=50, bins=edges, seed=1)
    means = x[:, query_subsets(60, 10, trials=50, seed=1, count=2)].mean(axis=3).transpose(1, 2, 0)
    counts = [0, 0, 0]
    swaps = [0, 0, 0]
    for t in range(50):
        for i, j in itertools.combinations(range(6), 2):
            d1 = means[0][t, i] - means[0][t, j]
            d2 = means[1][t, i] - means[1][t, j]
            k = 2 if abs(d1) >= 0.05 else (1 if abs(d1) >= 0.02 else 0)
            counts[k] += 1
            swaps[k] += abs(d1) > 1e-12 and abs(d2) > 1e-12 and d1 * d2 < 0
    assert table.pairs.tolist() == counts and table.swaps.tolist() == swaps
    assert table.bin_high.tolist() == [0.02, 0.05, float("inf")]


def test_bad_sizes_are_named():
    with pytest.raises(
        ValueError, match=r"sizes\[1\] must be at most half the 10 queries \(two disjoint subsets\), got 6"
    ):
        swap_rates(np.zeros((2, 10)), [2, 6])
    with pytest.raises(ValueError, match=r"^sizes must be at most half the 10 queries \(two disjoint subsets\), got 6"):
        swap_rates(np.zeros((2, 10)), 6)
    with pytest.raises(
        TypeError, match=r"sizes must be an integer >= 1 or a sequence of them \(ordered.*got set \{5\}"
    ):
        swap_rates(np.zeros((2, 10)), {5})
    with pytest.raises(TypeError, match=r"sizes\[0\] must be an integer >= 1, got float 2.0"):
        swap_rates(np.zeros((2, 10)), [2.0])
    with pytest.raises(ValueError, match="bins must be increasing"):
        swap_rates(np.zeros((2, 10)), [2], bins=[0.1, 0.05])
    # trials are resamples: at most 2^31 - 1, named (10^23 gave numpy's "Maximum allowed dimension exceeded")
    with pytest.raises(ValueError, match=r"trials must be an integer in \[1, 2147483647\], got 10{23}"):
        swap_rates(np.zeros((2, 10)), [2], trials=10**23)


def test_sizes_may_be_any_sequence_and_give_rows_in_their_order():
    x = np.random.default_rng(2).random((3, 12))
    by_list = swap_rates(x, [3, 1, 2], trials=20)
    assert by_list["size"].tolist() == [3, 1, 2]
    for sizes in (range(3, 0, -1), (3, 2, 1), np.array([3, 2, 1])):
        assert swap_rates(x, sizes, trials=20).equals(by_list.iloc[[0, 2, 1]].reset_index(drop=True))


def test_bins_that_would_leave_pairs_out_are_refused():
    # bins from 0.05 dropped every pair whose difference was under it, silently
    with pytest.raises(
        ValueError, match=r"bins must be increasing edges from 0 \(every pair has a bin\), got \[0.05, 0.1\]"
    ):
        swap_rates(np.random.default_rng(0).random((3, 10)), [2], bins=[0.05, 0.1])


def test_variance_components_by_hand():
    y = np.array([[0.3, 0.5, 0.9], [0.1, 0.4, 0.7]])
    # system means 17/30, 12/30, grand mean 29/60; topic means 0.2, 0.45, 0.8
    # MS_system = 3 * 2 * (5/60)^2 / 1 = 1/24; MS_topic = 2 * (0.2833^2 + 0.0333^2 + 0.3167^2) / 2 = 0.181667
    # residuals +-1/60, -+1/30, +-1/60: MS_residual = 2 * (1/3600 + 4/3600 + 1/3600) / 2 = 1/600
    v = variance_components(y)
    assert v.interaction == pytest.approx(1 / 600)
    assert v.system == pytest.approx((1 / 24 - 1 / 600) / 3)
    assert v.topic == pytest.approx((0.181666666666666 - 1 / 600) / 2)
    assert v.stability(3) == pytest.approx(v.system / (v.system + v.interaction / 3))
    assert v.topics_for_stability(0.95) == pytest.approx(19 * v.interaction / v.system)


def test_variance_components_recover_known_components():
    # y = system effect + topic effect + interaction with variances 0.01, 0.04, 0.02: 400 x 400 cells
    rng = np.random.default_rng(7)
    y = rng.normal(0, 0.1, (400, 1)) + rng.normal(0, 0.2, (1, 400)) + rng.normal(0, np.sqrt(0.02), (400, 400))
    v = variance_components(y)
    # standard errors of the estimates: ~ sigma^2 sqrt(2 / 399) = 7e-4 (system), 2.8e-3 (topic), 1e-4 (residual)
    assert v.system == pytest.approx(0.01, abs=0.003)
    assert v.topic == pytest.approx(0.04, abs=0.012)
    assert v.interaction == pytest.approx(0.02, abs=0.0006)


@pytest.mark.parametrize("seed", range(5))
def test_identical_systems_have_no_system_or_interaction_variance(seed):
    # Two or three copies of one system: every system mean is the grand mean and every residual is 0, by hand;
    # the computed sums of squares are rounding residues (1e-32), which used to give stability(12) = 0.909.
    x = np.random.default_rng(seed).random(12)
    for copies in (2, 3):
        v = variance_components(np.vstack([x] * copies))
        assert (v.system, v.interaction) == (0.0, 0.0)
        # the topic variance is that of x itself: MS_topic = copies * var(x, ddof=1), MS_residual = 0
        assert v.topic == pytest.approx(np.var(x, ddof=1), rel=1e-12)
        assert math.isnan(v.stability(12)) and math.isnan(v.topics_for_stability(0.95))
    # a copy shifted by a constant: a system effect, still no interaction
    v = variance_components(np.vstack([x, x + 0.1]))
    assert v.interaction == 0.0 and v.system == pytest.approx(0.05**2 * 2)  # MS_system = 12 * 2 * 0.05^2, / 12 topics
    assert v.stability(12) == 1.0 and v.topics_for_stability(0.95) == 0.0


def exact_components(y: np.ndarray) -> tuple[Fraction, Fraction]:
    """(system, topic) components of the two-way ANOVA in exact rational arithmetic of the float values."""
    s, t = y.shape
    cells = [[Fraction(v) for v in row] for row in y.tolist()]
    grand = sum(map(sum, cells)) / (s * t)
    rows = [sum(row) / t for row in cells]
    columns = [sum(row[j] for row in cells) / s for j in range(t)]
    ms_s = t * sum((m - grand) ** 2 for m in rows) / (s - 1)
    ms_t = s * sum((m - grand) ** 2 for m in columns) / (t - 1)
    residual = sum((cells[i][j] - rows[i] - columns[j] + grand) ** 2 for i in range(s) for j in range(t))
    ms_e = residual / ((s - 1) * (t - 1))
    return (ms_s - ms_e) / t, (ms_t - ms_e) / s


@pytest.mark.parametrize("seed", range(20))
def test_a_component_zero_in_exact_arithmetic_is_zero(seed):
    # Copies of one system but a single cell: MS_system = MS_residual exactly (checked in rational arithmetic), so the
    # system component is 0; the floats' deviations are rounded to ~1e-16 each, and the mean squares (~1e-7) then
    # differ by ~1e-20 in relative steps far above 100 eps: that difference is rounding, not a system variance.
    y = np.tile(np.random.default_rng(seed).uniform(0.3, 0.9, 12), (3, 1))
    y[1, 0] += 0.002
    system, topic = exact_components(y)
    assert system == 0
    v = variance_components(y)
    assert v.system == 0.0 and v.topic == pytest.approx(float(topic), rel=1e-9)


@pytest.mark.parametrize("seed", range(5))
def test_small_real_components_are_kept(seed):
    # System effects of 1e-6 and 3e-6 on two rows of three: a real component of about 2e-12, far above rounding,
    # kept to the exact value's precision.
    y = np.tile(np.random.default_rng(seed).uniform(0.3, 0.9, 12), (3, 1))
    y[1] += 1e-6
    y[2] += 3e-6
    system, topic = exact_components(y)
    v = variance_components(y)
    assert system > 0 and v.system == pytest.approx(float(system), rel=1e-6)


def test_a_real_component_of_values_far_from_zero_is_kept():
    # 20 systems x 5,000 topics at 1e6 with system effects of 2e-4 and noise of 1e-3: a system component of about
    # 2e-8 in exact arithmetic. A rounding bound of the whole table's cell count times max |y| (8.9e-5 per deviation,
    # not a system mean's 4.4e-6) called it rounding and gave 0.
    rng = np.random.default_rng(3)
    y = 1e6 + rng.uniform(-2e-4, 2e-4, (20, 1)) + rng.normal(0, 1, (1, 5000)) + rng.normal(0, 1e-3, (20, 5000))
    system, topic = exact_components(y)
    v = variance_components(y)
    assert system > 0 and v.system == pytest.approx(float(system), rel=1e-3)


def test_equal_mean_squares_give_a_zero_component():
    # [[0.1, 0.1], [0.2, 0.1]]: system means 0.1, 0.15, grand mean 0.125: MS_system = 2 * 2 * 0.025^2 = 0.0025;
    # topic means 0.15, 0.1: MS_topic = 0.0025; residuals +-0.025: MS_residual = 4 * 0.025^2 = 0.0025. Both
    # estimates (MS - MS_residual) / 2 are exactly 0 (the float subtraction left 6.5e-19 for the system).
    v = variance_components([[0.1, 0.1], [0.2, 0.1]])
    assert (v.system, v.topic) == (0.0, 0.0) and v.interaction == pytest.approx(0.0025)
    assert v.stability(5) == 0.0 and v.topics_for_stability(0.8) == math.inf  # no system variance to reach


def test_a_constant_table_has_undefined_shares_and_stability():
    for constant in (0.0, 0.3):
        v = variance_components(np.full((2, 4), constant))
        assert (v.system, v.topic, v.interaction) == (0.0, 0.0, 0.0)
        assert all(math.isnan(share) for share in v.shares().values())
        assert math.isnan(v.stability(10)) and np.isnan(v.stability([1, 10])).all()


@pytest.mark.parametrize(
    "topics, error, text",
    [
        ("a", TypeError, "topics must be an array of real numbers, got str 'a'"),
        (0, ValueError, "topics must be finite and >= 1, got 0.0"),  # was a RuntimeWarning, then 0.0
        (-5, ValueError, "topics must be finite and >= 1, got -5.0"),  # was -0.0
        ([10, 0.5], ValueError, "topics must be finite and >= 1, got 0.5 at index 1"),
    ],
)
def test_stability_checks_its_topics_as_topics_for_stability_checks_its_target(topics, error, text):
    v = variance_components([[0.3, 0.5, 0.9], [0.1, 0.4, 0.7]])
    with pytest.raises(error, match=re.escape(text)):
        v.stability(topics)


def test_a_small_real_effect_is_kept():
    # a system effect of 1e-9 on values near 0.5 is 10^5 times the rounding scale (100 eps * 0.5 = 1e-14): kept.
    # Effects +-0.5e-9 on 2 topics: MS_system = 2 * 2 * (0.5e-9)^2, MS_residual = 0 -> system = (1e-9)^2 / 2.
    v = variance_components([[0.5 + 0.5e-9, 0.4 + 0.5e-9], [0.5 - 0.5e-9, 0.4 - 0.5e-9]])
    assert v.system == pytest.approx(0.5e-18, rel=1e-5)


def test_system_scores_as_series_are_paired_by_system_or_refused():
    # kendall_tau and tau_ap paired two Series of system means by position, whatever their system names.
    pd = pytest.importorskip("pandas")
    x = pd.Series([0.3, 0.2, 0.1], index=["bm25", "dense", "splade"])
    y = pd.Series([0.1, 0.2, 0.3], index=["splade", "dense", "bm25"])  # the same ordering of systems as x
    for function, names in ((kendall_tau, ("x", "y")), (tau_ap, ("reference", "other"))):
        with pytest.raises(ValueError, match=rf"{names[0]} and {names[1]} are pandas Series with different indexes"):
            function(x, y)
        assert function(x, y.reindex(x.index)) == pytest.approx(1.0)
