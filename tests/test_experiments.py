"""Tests of ndcg_research.studies.sweeps: identical results for any worker count or backend, resumable cache, tables."""

from __future__ import annotations

import math

import numpy as np
import pytest

from ndcg_research.studies import sweeps as ex
from ndcg_research.studies import simulate as sim

SMALL = dict(ns=[30, 300, 3000], replicates=[40, 20, 6], seed=2013,
             rankers=["bayes", "noisy(sigma=1)", "coarse(bins=3)", "random"],
             discounts=["geometric(p=0.5)", "zipf", "power(beta=0.5)", "log2", "none"],
             pairs=[("bayes", "noisy(sigma=1)"), ("bayes", "coarse(bins=3)"), ("noisy(sigma=1)", "random")])


@pytest.fixture(scope="module")
def sweep():
    return ex.Sweep.build("probit(lo=0.1, hi=0.6)", **SMALL)


@pytest.fixture(scope="module")
def reference(sweep):
    return ex.run_sweep(sweep, n_jobs=1)


def _same(a, b):
    assert a.sweep.ns == b.sweep.ns
    for n in a.sweep.ns:
        np.testing.assert_array_equal(a.values[n], b.values[n])
    assert a.ranker_rows() == b.ranker_rows()
    pa, pb = a.pair_rows(), b.pair_rows()
    assert [{k: v for k, v in r.items() if k != "std_gap"} for r in pa] == \
           [{k: v for k, v in r.items() if k != "std_gap"} for r in pb]


def test_values_are_those_of_the_replicates(sweep, reference):
    # Each row of values[n] is replicate_ndcg of that replicate: nothing depends on the sweep machinery.
    for n in sweep.ns:
        for r in (0, sweep.replicates[sweep.ns.index(n)] - 1):
            direct = sim.replicate_ndcg(sweep.model, sweep.rankers, sweep.discounts, n, entropy=sweep.seed, replicate=r)
            np.testing.assert_array_equal(reference.values[n][r], direct)


def test_two_workers_give_identical_tables(sweep, reference):
    _same(reference, ex.run_sweep(sweep, n_jobs=2, chunk_items=2000))


def test_dask_cluster_gives_identical_tables(sweep, reference):
    from dask import distributed

    # Worker processes, not threads: the replicates are pickled to and seeded in other processes.
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, distributed.Client(cluster):
        result = ex.run_sweep(sweep, n_jobs=-1, backend="dask", chunk_items=3000)
    _same(reference, result)


def test_chunking_does_not_change_values(sweep, reference):
    _same(reference, ex.run_sweep(sweep, chunk_items=1))
    assert len(sweep.chunks(1)) == sum(sweep.replicates)


def test_cache_reuses_finished_points(sweep, reference, tmp_path):
    first = ex.Sweep.build("probit(lo=0.1, hi=0.6)", **{**SMALL, "ns": [30, 300], "replicates": [40, 20]})
    part = ex.run_sweep(first, cache_dir=tmp_path, chunk_items=3000)
    assert (part.computed_chunks, part.reused_chunks) == (len(first.chunks(3000)), 0)
    full = ex.run_sweep(sweep, cache_dir=tmp_path, chunk_items=3000)
    assert full.reused_chunks == len(first.chunks(3000))
    assert full.computed_chunks == len(sweep.chunks(3000)) - len(first.chunks(3000))
    _same(reference, full)
    again = ex.run_sweep(sweep, cache_dir=tmp_path, chunk_items=3000)
    assert (again.computed_chunks, again.reused_chunks) == (0, len(sweep.chunks(3000)))
    _same(reference, again)


def test_interrupted_run_resumes_without_recomputing(sweep, reference, tmp_path, monkeypatch):
    real = ex._compute_chunk
    calls = []

    def dies_after_three(*args):
        if len(calls) == 3:
            raise KeyboardInterrupt("simulated interruption")
        calls.append(args[-3:])
        return real(*args)

    monkeypatch.setattr(ex, "_compute_chunk", dies_after_three)
    with pytest.raises(KeyboardInterrupt):
        ex.run_sweep(sweep, cache_dir=tmp_path, chunk_items=1000)
    assert len(calls) == 3
    monkeypatch.setattr(ex, "_compute_chunk", real)
    total = len(sweep.chunks(1000))
    resumed = ex.run_sweep(sweep, cache_dir=tmp_path, chunk_items=1000)
    assert (resumed.reused_chunks, resumed.computed_chunks) == (3, total - 3)
    assert not list(tmp_path.rglob("*.tmp"))  # no half-written chunk left behind
    _same(reference, resumed)


def test_changed_configuration_does_not_reuse_cache(sweep, tmp_path):
    ex.run_sweep(sweep, cache_dir=tmp_path)
    other = ex.Sweep.build("probit(lo=0.1, hi=0.6)", **{**SMALL, "seed": 1})
    assert other.key() != sweep.key()
    assert ex.run_sweep(other, cache_dir=tmp_path).reused_chunks == 0


def test_pair_rows_by_hand():
    s = ex.Sweep.build("probit", ns=[10], replicates=5, seed=0, rankers=["bayes", "random"],
                       discounts=["log2", "none"], pairs=[("bayes", "random")])
    values = np.zeros((5, 2, 2))
    values[:, 0, 0] = [0.9, 0.8, 0.7, 0.6, 0.5]
    values[:, 1, 0] = [0.8, 0.8, 0.8, 0.5, 0.4]   # gaps 0.1, 0, -0.1, 0.1, 0.1
    values[:, :, 1] = 1.0
    rows = ex.SweepResult(s, {10: values}).pair_rows()
    log2, none = rows
    assert log2["mean_gap"] == pytest.approx(0.04)
    assert log2["sd_gap"] == pytest.approx(math.sqrt(((0.06**2) * 3 + 0.04**2 + 0.14**2) / 4))
    assert (log2["p_better"], log2["p_tie"], log2["p_worse"]) == pytest.approx((0.6, 0.2, 0.2))
    assert (log2["p_better_low"], log2["p_better_high"]) == pytest.approx(ex.wilson_interval(3, 5))
    assert log2["std_gap"] == pytest.approx(log2["mean_gap"] / log2["sd_gap"])
    assert none["p_tie"] == 1.0 and math.isnan(none["std_gap"])
    ranker = ex.SweepResult(s, {10: values}).ranker_rows()[0]
    assert ranker["mean"] == pytest.approx(0.7)
    half = 2.776445105 * math.sqrt(0.025) / math.sqrt(5)  # t(0.975, 4) * sd / sqrt(5)
    assert (ranker["ci_low"], ranker["ci_high"]) == pytest.approx((0.7 - half, 0.7 + half))


def test_wilson_interval_by_hand():
    # 0 of 10: centre = (z^2/20) / (1 + z^2/10), half the same, so (0, 2 * centre).
    z2 = 1.959963984540054**2
    centre = (z2 / 20) / (1 + z2 / 10)
    assert ex.wilson_interval(0, 10) == pytest.approx((0.0, 2 * centre))
    low, high = ex.wilson_interval(50, 100)
    assert (low + high) / 2 == pytest.approx(0.5) and high - low == pytest.approx(0.1923, abs=1e-4)
    with pytest.raises(ValueError, match="successes <= trials"):
        ex.wilson_interval(3, 2)


def test_csv_round_trip(reference, tmp_path):
    rows = reference.pair_rows()
    path = ex.write_csv(rows, tmp_path / "pairs.csv")
    back = ex.read_csv(path)
    assert len(back) == len(rows) and back[0]["better"] == rows[0]["better"] and back[0]["n"] == rows[0]["n"]
    assert back[5]["mean_gap"] == pytest.approx(rows[5]["mean_gap"], rel=1e-9, abs=1e-15)


def test_progress_bar_can_be_forced(sweep, capsys):
    small = ex.Sweep.build("probit", ns=[20], replicates=3, seed=1)
    ex.run_sweep(small, progress=True)
    assert "rep" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        (dict(ns=[10, 10], replicates=2, seed=0), "distinct list lengths"),
        (dict(ns=[10, 20], replicates=[2], seed=0), "one count per n"),
        (dict(ns=[10], replicates={20: 3}, seed=0), "no count for n"),
        (dict(ns=[10], replicates=0, seed=0), "replicates must be a positive integer"),
        (dict(ns=[10], replicates=2, seed=-1), "seed must be a non-negative integer"),
        (dict(ns=[10], replicates=2, seed=0, pairs=[("bayes", "oracle")]), "unknown ranker 'oracle'"),
        (dict(ns=[10], replicates=2, seed=0, rankers=["bayes"], pairs=[("bayes", "random")]), "not among rankers"),
    ],
)
def test_bad_sweeps_are_rejected(kwargs, match):
    with pytest.raises(ValueError, match=match):
        ex.Sweep.build("probit", **kwargs)


def test_compare_with_theory_by_hand():
    ranker = [
        dict(model="m", discount="log2", decay="slowly varying", ranker="bayes", n=100, replicates=10, mean=0.9,
             sd=0.01, ci_low=0.89, ci_high=0.91),
        dict(model="m", discount="power(beta=0.5)", decay="regularly varying", ranker="bayes", n=100, replicates=10,
             mean=0.8, sd=0.01, ci_low=0.79, ci_high=0.81),
    ]
    theory_rows = [
        dict(discount="log2", ranker="bayes", n=100, limit=1.0, first_order=0.92, eps=0.2, c=0.4, finite_n=0.905),
        dict(discount="power(beta=0.5)", ranker="bayes", n=100, limit=0.84, first_order=0.84, eps=0.5, c=math.nan,
             finite_n=0.85),
    ]
    slow, power = ex.compare_with_theory(ranker, theory_rows)
    # slowly varying: compare 1 - nDCG: simulated 0.1, first order eps*c = 0.08 (-20%), finite-n 0.095 (-5%)
    assert slow["quantity"] == "1 - nDCG" and slow["simulated"] == pytest.approx(0.1)
    assert slow["rel_err_first_order"] == pytest.approx(-0.2) and slow["rel_err_finite_n"] == pytest.approx(-0.05)
    assert slow["finite_n_in_ci"]  # |0.905 - 0.9| <= 0.01
    # otherwise nDCG itself: limit 0.84 vs 0.8 (+5%), finite-n 0.85 outside the interval
    assert power["rel_err_first_order"] == pytest.approx(0.05) and not power["finite_n_in_ci"]


def test_theory_rows_agree_with_prediction():
    from ndcg_research.studies import theory as th

    rows = th.theory_rows("probit(lo=0.1, hi=0.6)", ["bayes", "random"], ["log2", "zipf", "power(beta=0.5)"], [50, 500])
    for r in rows:
        p = th.prediction("probit(lo=0.1, hi=0.6)", r["ranker"], r["discount"], r["n"])
        assert r["finite_n"] == pytest.approx(p["finite_n"], rel=1e-12)
        assert r["first_order"] == pytest.approx(p["first_order"], rel=1e-12)
        assert r["limit"] == pytest.approx(p["limit"], rel=1e-12)
