"""Tests of ndcg_research.stats._replication.proportion_z and mean_z against scipy: the two-proportion z squared is Pearson's
chi-square of the 2x2 table (no continuity correction), the mean z is Welch's t statistic."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from ndcg_research.stats._replication import mean_z, proportion_z


@pytest.mark.parametrize(
    ("k1", "n1", "k2", "n2"), [(90, 100, 80, 100), (3, 20, 11, 50), (950, 1000, 180, 200), (1, 7, 0, 3)]
)
def test_proportion_z_squared_is_pearsons_chi_square(k1, n1, k2, n2):
    table = [[k1, n1 - k1], [k2, n2 - k2]]
    chi2 = stats.chi2_contingency(table, correction=False).statistic
    z = proportion_z(k1 / n1, n1, k2 / n2, n2)
    assert z**2 == pytest.approx(chi2, rel=1e-12)
    assert np.sign(z) == np.sign(k1 / n1 - k2 / n2)


def test_mean_z_is_welchs_t_statistic():
    rng = np.random.default_rng(np.random.SeedSequence(7))
    a, b = rng.normal(0.5, 0.2, 40), rng.normal(0.45, 0.3, 90)
    welch = stats.ttest_ind(a, b, equal_var=False).statistic
    assert mean_z(a.mean(), a.std(ddof=1), a.size, b.mean(), b.std(ddof=1), b.size) == pytest.approx(welch, rel=1e-12)


def test_a_standard_error_of_zero_follows_the_documented_policy():
    # the same 0 or 1 in both runs: nothing to test, they agree; different values with no spread: infinitely apart
    assert proportion_z(1.0, 20, 1.0, 500) == 0.0 and proportion_z(0.0, 20, 0.0, 500) == 0.0
    assert mean_z(0.3, 0.0, 10, 0.3, 0.0, 10) == 0.0
    assert mean_z(0.3, 0.0, 10, 0.2, 0.0, 10) == np.inf and mean_z(0.2, 0.0, 10, 0.3, 0.0, 10) == -np.inf


def test_element_wise_on_arrays_and_series_keeping_the_index():
    p1 = pd.Series([0.9, 1.0, 0.5], index=["a", "b", "c"])
    z = proportion_z(p1, 100, pd.Series([0.8, 1.0, 0.5], index=["a", "b", "c"]), 200)
    assert isinstance(z, pd.Series) and list(z.index) == ["a", "b", "c"]
    assert z["a"] == pytest.approx(proportion_z(0.9, 100, 0.8, 200)) and z["b"] == 0.0 and z["c"] == 0.0
    arr = mean_z(np.array([1.0, 2.0]), np.array([1.0, 1.0]), 4, np.array([1.0, 1.0]), np.array([1.0, 1.0]), 4)
    assert arr.tolist() == [0.0, pytest.approx(1 / np.sqrt(0.5))]
    assert proportion_z([0.9, 1.0], [100, 20], [0.8, 1.0], 200).tolist() == [pytest.approx(z["a"]), 0.0]  # lists too
