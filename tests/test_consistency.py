"""Tests of ndcg_research.studies.consistent_distinguishability.experiment: grids, stream studies and their
summaries by hand, the growth fit."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from ndcg_research.simulation import simulate as sim
from ndcg_research.studies.consistent_distinguishability import experiment as co
from ndcg_research.studies.consistent_distinguishability.experiment import (
    StreamStudy,
    failure_table,
    geometric_grid,
    growth_table,
    run_streams,
)


def test_geometric_grid():
    assert co.geometric_grid(100, 800, 1) == [100, 200, 400, 800]
    grid = co.geometric_grid(100, 100_000, 4)
    assert grid[0] == 100 and grid[-1] == 100_000 and len(grid) == 41
    ratios = np.diff(np.log2(grid))
    assert np.allclose(ratios, 0.25, atol=0.01)
    with pytest.raises(ValueError, match="n_max must be larger than n_min"):
        co.geometric_grid(10, 10, 2)


def _result(winner_signs: np.ndarray, ns: list[int]) -> co.StreamResult:
    """A StreamResult whose pair (a, b) has the given signs of the gap (streams x ns), under log2."""
    study = co.StreamStudy.build(
        "probit",
        ns=ns,
        streams=winner_signs.shape[0],
        seed=0,
        rankers=["bayes", "random"],
        discounts=["log2"],
        pairs=[("bayes", "random")],
    )
    values = np.zeros((*winner_signs.shape, 2, 1))
    values[:, :, 0, 0] = 0.5 + 0.1 * winner_signs
    values[:, :, 1, 0] = 0.5
    return co.StreamResult(study, values)


def test_change_and_stability_tables_by_hand():
    ns = [10, 20, 40, 80]
    signs = np.array(
        [
            [1, 1, 1, 1],  # never changes, never fails
            [-1, 1, 1, 1],  # last change at 20, last failure at 10
            [1, -1, 1, 1],  # last change at 40, last failure at 20
            [1, 1, 0, -1],  # last change at 80 (a tie at 40 counts as a change), last failure at 80
        ]
    )
    r = _result(signs, ns)
    (row,) = r.change_table().to_dict("records")
    assert row["never_changes"] == 0.25 and row["never_fails"] == 0.25
    assert row["change_median"] == 30.0 and row["change_max"] == 80.0  # last changes 10, 20, 40, 80
    assert row["fail_in_last_decade"] == 0.75  # last failures 0, 10, 20, 80 > 8
    assert row["p_better_last"] == 0.75 and (row["n_first"], row["n_last"]) == (10, 80)
    stab = r.stability_table().set_index("n0")
    assert stab.loc[10, "p_stable"] == 0.25 and stab.loc[20, "p_stable"] == 0.5 and stab.loc[40, "p_stable"] == 0.75
    assert stab.loc[20, "p_settled"] == 0.5 and stab.loc[40, "p_settled"] == 0.75
    assert stab.loc[80, "p_settled"] == 0.75 and stab.loc[80, "p_stable"] == 1.0
    assert stab.loc[10, "p_stable_low"] < 0.25 < stab.loc[10, "p_stable_high"]


def test_run_streams_gives_the_streams_whatever_the_workers_and_chunks(tmp_path):
    study = co.StreamStudy.build(
        "probit(lo=0.1, hi=0.6)",
        ns=[20, 60, 200],
        streams=5,
        seed=3,
        rankers=["bayes", "noisy(sigma=1)"],
        discounts=["log2", "zipf"],
        pairs=[("bayes", "noisy(sigma=1)")],
    )
    one = co.run_streams(study)
    for r in range(5):
        np.testing.assert_array_equal(
            one.values[r], sim.stream_ndcg(study.model, study.rankers, study.discounts, study.ns, seed=3, replicate=r)
        )
    two = co.run_streams(study, n_jobs=2, chunk_items=400, cache_dir=tmp_path)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the cached streams have the study's shape: reused without a warning
        again = co.run_streams(study, cache_dir=tmp_path, chunk_items=400)
    np.testing.assert_array_equal(one.values, two.values)
    np.testing.assert_array_equal(one.values, again.values)


def test_a_cached_stream_chunk_of_another_shape_is_computed_again(tmp_path):
    study = co.StreamStudy.build("probit", ns=[5, 10], streams=3, seed=1, rankers=["bayes", "random"], pairs=[])
    expected = co.run_streams(study).values
    co.run_streams(study, cache_dir=tmp_path)
    (path,) = tmp_path.rglob("*.npy")
    np.save(path, np.load(path)[:, :1])  # one prefix length instead of two: was reused as it was
    with pytest.warns(RuntimeWarning, match=r"has shape \(3, 1, 2, 1\), not \(3, 2, 2, 1\): computing it again"):
        again = co.run_streams(study, cache_dir=tmp_path)
    np.testing.assert_array_equal(again.values, expected)


def test_stream_study_rejects_bad_grids():
    with pytest.raises(ValueError, match="increasing list"):
        co.StreamStudy.build("probit", ns=[100, 10], streams=2, seed=0)
    # Before: a prefix length <= 0 sliced from the end of the stream; streams=0 ran nothing.
    with pytest.raises(ValueError, match="prefix length in ns must be an integer >= 1, got -2"):
        co.StreamStudy.build("probit", ns=[-2, 10], streams=2, seed=0)
    with pytest.raises(ValueError, match="streams must be an integer >= 1, got 0"):
        co.StreamStudy.build("probit", ns=[5, 10], streams=0, seed=0)
    with pytest.raises(TypeError, match="seed must be an integer >= 0, got NoneType None"):
        co.StreamStudy.build("probit", ns=[5, 10], streams=2, seed=None)
    with pytest.raises(TypeError, match="must be a StreamStudy"):
        co.run_streams("probit")


def test_growth_table_recovers_the_exponent_and_refuses_non_positive_gaps():
    n = np.array([100, 200, 400, 800, 1600, 3200])
    rng = np.random.default_rng(1)
    d = 0.2 * n**0.35 * np.exp(rng.normal(0, 0.01, n.size))
    table = pd.DataFrame(dict(discount="log2", better="a", worse="b", n=n, std_gap=d, std_gap_se=0.01 * d))
    (row,) = co.growth_table(table).to_dict("records")
    assert row["exponent"] == pytest.approx(0.35, abs=0.03) and row["vanishes_superpolynomially"]
    assert (row["n_from"], row["n_to"], row["points"]) == (800, 3200, 3)  # the upper half of the grid
    # The weighted least squares slope by hand (equal weights here): cov(x, y) / var(x) over the upper half.
    x, y = np.log(n[3:]), np.log(d[3:])
    assert row["exponent"] == pytest.approx(np.polyfit(x, y, 1)[0], rel=1e-9)
    table.loc[5, "std_gap"] = -0.1
    (row,) = co.growth_table(table).to_dict("records")
    assert math.isnan(row["exponent"]) and not row["positive"] and not row["vanishes_superpolynomially"]


def test_failure_table_normal_approximation():
    t = pd.DataFrame(
        dict(p_better=[0.5, 1.0], p_better_low=[0.4, 0.99], p_better_high=[0.6, 1.0], std_gap=[0.0, np.nan])
    )
    out = co.failure_table(t)
    assert out["p_fail"].tolist() == [0.5, 0.0] and out["p_fail_high"].tolist() == pytest.approx([0.6, 0.01])
    assert out["p_fail_normal"].iloc[0] == pytest.approx(stats.norm.cdf(0.0))
    assert math.isnan(out["p_fail_normal"].iloc[1])


# ------------------------------------------------- examples of studies.consistent_distinguishability.experiment


def test_failure_table_example():
    t = pd.DataFrame(dict(p_better=[0.9], p_better_low=[0.8], p_better_high=[0.95], std_gap=[1.0]))
    expected = [[0.1, 0.05, 0.1587]]
    assert failure_table(t)[["p_fail", "p_fail_low", "p_fail_normal"]].round(4).values.tolist() == expected


def test_growth_table_example():
    n = np.array([100, 400, 1600, 6400])
    t = pd.DataFrame(
        dict(discount="log2", better="a", worse="b", n=n, std_gap=0.1 * n**0.5, std_gap_se=0.01 * np.ones(4))
    )
    assert round(float(growth_table(t)["exponent"].iloc[0]), 6) == 0.5


def test_geometric_grid_example():
    assert geometric_grid(100, 800, 2) == [100, 141, 200, 283, 400, 566, 800]


def test_StreamStudy_example():
    s = StreamStudy.build(
        "probit",
        ns=[10, 100],
        streams=3,
        seed=1,
        rankers=["bayes", "random"],
        discounts=["log2"],
        pairs=[("bayes", "random")],
    )
    assert (s.ns, s.streams) == ((10, 100), 3)


def test_run_streams_example():
    s = StreamStudy.build(
        "probit",
        ns=[10, 100],
        streams=3,
        seed=1,
        rankers=["bayes", "random"],
        discounts=["log2"],
        pairs=[("bayes", "random")],
    )
    assert run_streams(s).values.shape == (3, 2, 2, 1)
