"""Tests of ndcg_research.simulation.sweeps: identical results for any worker count or backend, resumable cache,
tables."""

from __future__ import annotations

import math
import re
import shutil
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from ndcg_research.simulation import finite_n as fn
from ndcg_research.simulation import replicates
from ndcg_research.simulation import simulate as sim
from ndcg_research.simulation import sweeps as ex
from ndcg_research.simulation.sweeps import Design, Sweep, distinct_specs, ranker_pairs, run_sweep
from ndcg_research.studies.convergence.report import compare_with_theory
from ndcg_research.studies.distinguishability.report import compare_pairs_with_theory

SMALL = dict(
    ns=[30, 300, 3000],
    replicates=[40, 20, 6],
    seed=2013,
    rankers=["bayes", "noisy(sigma=1)", "coarse(bins=3)", "random"],
    discounts=["geometric(p=0.5)", "zipf", "power(beta=0.5)", "log2", "none"],
    pairs=[("bayes", "noisy(sigma=1)"), ("bayes", "coarse(bins=3)"), ("noisy(sigma=1)", "random")],
)


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
    pd.testing.assert_frame_equal(a.ranker_table(), b.ranker_table(), check_exact=True)
    pd.testing.assert_frame_equal(a.pair_table(), b.pair_table(), check_exact=True)


def test_values_are_those_of_the_replicates(sweep, reference):
    # Each row of values[n] is replicate_ndcg of that replicate: nothing depends on the sweep machinery.
    for n in sweep.ns:
        for r in (0, sweep.replicates[sweep.ns.index(n)] - 1):
            direct = sim.replicate_ndcg(sweep.model, sweep.rankers, sweep.discounts, n, seed=sweep.seed, replicate=r)
            np.testing.assert_array_equal(reference.values[n][r], direct)


def test_two_workers_give_identical_tables(sweep, reference):
    _same(reference, ex.run_sweep(sweep, n_jobs=2, chunk_items=2000))


def test_multiprocessing_backend_gives_identical_values():
    # joblib's multiprocessing backend yields no results as they finish: parallel_map asked it to and crashed
    # ("does not support return_as=generator_unordered"); it now gives them all at the end.
    small = ex.Sweep.build("probit", **{**TINY, "ns": [10, 20], "replicates": 5})
    result = ex.run_sweep(small, n_jobs=2, backend="multiprocessing", chunk_items=40)
    assert result.computed_chunks == len(small.chunks(40)) == 5
    for n in small.ns:
        np.testing.assert_array_equal(result.values[n], ex.run_sweep(small).values[n])


def test_dask_cluster_gives_identical_tables(sweep, reference):
    from dask import distributed

    # Worker processes, not threads: the replicates are pickled to and seeded in other processes.
    with (
        distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster,
        distributed.Client(cluster),
    ):
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
    real = ex.Sweep.compute_chunk
    calls = []

    def dies_after_three(self, chunk):
        if len(calls) == 3:
            raise KeyboardInterrupt("simulated interruption")
        calls.append(chunk)
        return real(self, chunk)

    monkeypatch.setattr(ex.Sweep, "compute_chunk", dies_after_three)
    with pytest.raises(KeyboardInterrupt):
        ex.run_sweep(sweep, cache_dir=tmp_path, chunk_items=1000)
    assert len(calls) == 3
    monkeypatch.setattr(ex.Sweep, "compute_chunk", real)
    total = len(sweep.chunks(1000))
    resumed = ex.run_sweep(sweep, cache_dir=tmp_path, chunk_items=1000)
    assert (resumed.reused_chunks, resumed.computed_chunks) == (3, total - 3)
    assert not list(tmp_path.rglob("*.tmp"))  # no half-written chunk left behind
    _same(reference, resumed)


def _damage(how, path):
    if how == "truncated":
        path.write_bytes(path.read_bytes()[:100])
    elif how == "empty":
        path.write_bytes(b"")
    elif how == "garbage":
        path.write_bytes(b"hello world")
    elif how == "fewer rows":
        np.save(path, np.load(path)[:2])
    elif how == "another ranker count":
        np.save(path, np.zeros((4, 3, 1)))


@pytest.mark.parametrize("how", ["truncated", "empty", "garbage", "fewer rows", "another ranker count"])
def test_a_damaged_cached_chunk_is_computed_again_with_a_warning_naming_it(how, tmp_path):
    # Before: fewer rows or another trailing shape were reused as they were, unreadable files raised numpy's
    # errors without the file's name.
    small = ex.Sweep.build("probit", **{**TINY, "replicates": 4})
    expected = ex.run_sweep(small).values[10]
    ex.run_sweep(small, cache_dir=tmp_path)
    (path,) = tmp_path.rglob("*.npy")
    _damage(how, path)
    with pytest.warns(RuntimeWarning, match=f"the cached chunk {re.escape(str(path))} .*: computing it again"):
        again = ex.run_sweep(small, cache_dir=tmp_path)
    assert (again.computed_chunks, again.reused_chunks) == (1, 0)
    np.testing.assert_array_equal(again.values[10], expected)
    np.testing.assert_array_equal(np.load(path), expected)  # written again: the next run reuses it
    assert ex.run_sweep(small, cache_dir=tmp_path).reused_chunks == 1


def test_a_folder_in_place_of_a_cached_chunk_is_refused_by_name(tmp_path):
    small = ex.Sweep.build("probit", **TINY)
    ex.run_sweep(small, cache_dir=tmp_path)
    (path,) = tmp_path.rglob("*.npy")
    path.unlink()
    path.mkdir()  # the chunk could not be written there: refused before computing
    with pytest.raises(IsADirectoryError, match=f"the cached chunk {re.escape(str(path))} is a folder: remove it"):
        ex.run_sweep(small, cache_dir=tmp_path)


def test_changed_configuration_does_not_reuse_cache(sweep, tmp_path):
    ex.run_sweep(sweep, cache_dir=tmp_path)
    other = ex.Sweep.build("probit(lo=0.1, hi=0.6)", **{**SMALL, "seed": 1})
    assert other.key() != sweep.key()
    assert ex.run_sweep(other, cache_dir=tmp_path).reused_chunks == 0


def test_tables_by_hand():
    s = ex.Sweep.build(
        "probit",
        ns=[10],
        replicates=5,
        seed=0,
        rankers=["bayes", "random"],
        discounts=["log2", "none"],
        pairs=[("bayes", "random")],
    )
    values = np.zeros((5, 2, 2))
    values[:, 0, 0] = [0.9, 0.8, 0.7, 0.6, 0.5]
    values[:, 1, 0] = [0.8, 0.8, 0.8, 0.5, 0.4]  # gaps 0.1, 0, -0.1, 0.1, 0.1
    values[:, :, 1] = 1.0
    values[3, 1, 1] = 1.0 - 2e-16  # a rounding gap under `none`: a tie, not a measured gap
    result = ex.SweepResult(s, {10: values})
    log2, none = result.pair_table().to_dict("records")
    assert (log2["discount"], log2["better"], log2["worse"], log2["n"], log2["replicates"]) == (
        "log2",
        "bayes",
        "random",
        10,
        5,
    )
    assert log2["mean_gap"] == pytest.approx(0.04)
    assert log2["sd_gap"] == pytest.approx(math.sqrt(((0.06**2) * 3 + 0.04**2 + 0.14**2) / 4))
    assert (log2["p_better"], log2["p_tie"], log2["p_worse"]) == pytest.approx((0.6, 0.2, 0.2))
    wilson = stats.binomtest(3, 5).proportion_ci(0.95, method="wilson")
    assert (log2["p_better_low"], log2["p_better_high"]) == pytest.approx((wilson.low, wilson.high))
    assert log2["std_gap"] == pytest.approx(log2["mean_gap"] / log2["sd_gap"])
    assert log2["eps"] == pytest.approx(10 / (11 * math.log(11)))
    assert none["p_tie"] == 1.0 and none["mean_gap"] == 0.0 and none["sd_gap"] == 0.0 and math.isnan(none["std_gap"])
    ranker = result.ranker_table().to_dict("records")
    assert [(r["discount"], r["ranker"]) for r in ranker] == [
        ("log2", "bayes"),
        ("log2", "random"),
        ("none", "bayes"),
        ("none", "random"),
    ]
    assert ranker[0]["mean"] == pytest.approx(0.7) and ranker[0]["decay"] == "slowly varying"
    half = 2.776445105 * math.sqrt(0.025) / math.sqrt(5)  # t(0.975, 4) * sd / sqrt(5)
    assert (ranker[0]["ci_low"], ranker[0]["ci_high"]) == pytest.approx((0.7 - half, 0.7 + half))
    np.testing.assert_array_equal(result.ndcg("random", "log2", 10), values[:, 1, 0])
    with pytest.raises(ValueError, match="ranker 'noisy\\(sigma=1\\)' is not in this sweep"):
        result.ndcg("noisy(sigma=1)", "log2", 10)


def test_tables_keep_their_types_through_csv(reference, tmp_path):
    from ndcg_research.simulation.tables import read_table, write_table

    table = reference.pair_table()
    back = read_table(write_table(table, tmp_path / "pairs.csv"))
    pd.testing.assert_frame_equal(back, table, check_exact=False, rtol=1e-9, atol=1e-15)


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
        (dict(ns=[10], replicates=2, seed=0, pairs=[("bayes", "oracle")]), "unknown ranker 'oracle'"),
        (dict(ns=[10], replicates=2, seed=0, rankers=["bayes"], pairs=[("bayes", "random")]), "not among rankers"),
    ],
)
def test_bad_sweeps_are_rejected(kwargs, match):
    with pytest.raises(ValueError, match=match):
        ex.Sweep.build("probit", **kwargs)


TINY = dict(ns=[10], replicates=2, seed=1, rankers=["bayes", "random"], discounts=["log2"], pairs=[])


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        (dict(seed=None), TypeError, "seed must be an integer >= 0, got NoneType None"),
        (dict(seed=True), TypeError, "seed must be an integer >= 0, got bool True"),
        (dict(seed=-1), ValueError, "seed must be an integer >= 0, got -1"),
        (dict(seed=1.5), TypeError, "seed must be an integer >= 0, got float 1.5"),
        (dict(seed="1"), TypeError, "seed must be an integer >= 0, got str '1'"),
        (dict(ns=[0]), ValueError, "list length in ns must be an integer >= 1, got 0"),
        (dict(ns=[-3]), ValueError, "list length in ns must be an integer >= 1, got -3"),
        (dict(ns=[10.5]), TypeError, "list length in ns must be an integer >= 1, got float 10.5"),
        (dict(replicates=0), ValueError, "replicates must be an integer >= 1, got 0"),
        (dict(replicates=-1), ValueError, "replicates must be an integer >= 1, got -1"),
        (dict(replicates=2.5), TypeError, "replicates must be an integer >= 1, got float 2.5"),
        (dict(replicates=np.array([2, 3])), TypeError, "replicates must be an integer >= 1, got ndarray"),
        (dict(ns=[10, 20], replicates="23"), TypeError, "replicates must be an integer >= 1, got str '23'"),
        (
            dict(replicates={10: 2, 99: 5}),
            ValueError,
            "replicates gives counts for n = [99], which ns [10] does not have",
        ),
        (dict(rankers="bayes"), TypeError, "rankers must be a list of specs, got str 'bayes'"),
        (dict(discounts="log2"), TypeError, "discounts must be a list of specs, got str 'log2'"),
    ],
)
def test_sweep_arguments_are_checked_by_name(kwargs, error, match):
    # Before: seed None drew OS entropy (its cache key "seed": null), True ran as 1 under another key, ns=[0] divided
    # by zero, replicates=0 gave no values at all, a count for an n not in ns was dropped, "bayes" was read letter by
    # letter.
    with pytest.raises(error, match=re.escape(match)):
        ex.Sweep.build("probit", **{**TINY, **kwargs})


def test_numpy_integers_are_plain_ints_in_the_sweep_and_its_cache_key():
    plain = ex.Sweep.build("probit", **TINY)
    numpy = ex.Sweep.build("probit", **{**TINY, "seed": np.int64(1), "ns": [np.int64(10)], "replicates": np.int32(2)})
    assert numpy == plain and numpy.key() == plain.key()  # np.int64 seeds failed in the key's json.dumps
    assert type(numpy.seed) is int and type(numpy.ns[0]) is int and type(numpy.replicates[0]) is int


@pytest.mark.parametrize(
    ("options", "error", "match"),
    [
        (dict(n_jobs=0), ValueError, "n_jobs must be a number of workers >= 1, or negative as in joblib"),
        (dict(n_jobs="2"), TypeError, "n_jobs must be an integer, got str '2'"),
        (dict(chunk_items=0), ValueError, "chunk_items must be an integer >= 1, got 0"),
        (dict(chunk_items=-5), ValueError, "chunk_items must be an integer >= 1, got -5"),
        (dict(chunk_items=25.5), TypeError, "chunk_items must be an integer >= 1, got float 25.5"),
    ],
)
def test_run_options_are_checked_by_name(options, error, match):
    # Before: chunk_items <= 0 ran silently with one replicate per chunk, n_jobs="2" reached joblib.
    with pytest.raises(error, match=re.escape(match)):
        ex.run_sweep(ex.Sweep.build("probit", **TINY), **options)


def test_a_draw_needs_an_integer_seed():
    # seed=None drew entropy from the system: numbers no one could reproduce.
    for call in (
        lambda seed: sim.replicate_ndcg("probit", ["bayes"], ["log2"], 5, seed=seed, replicate=0),
        lambda seed: sim.sample("probit", ["bayes"], 5, seed=seed).x,
        lambda seed: sim.stream_ndcg("probit", ["bayes"], ["log2"], [5], seed=seed, replicate=0),
    ):
        with pytest.raises(TypeError, match="seed must be an integer >= 0, got NoneType None"):
            call(None)
        np.testing.assert_array_equal(call(np.int64(3)), call(3))


def test_compare_with_theory_by_hand():
    ranker = pd.DataFrame(
        [
            dict(
                model="m",
                discount="log2",
                decay="slowly varying",
                ranker="bayes",
                n=100,
                replicates=10,
                mean=0.9,
                sd=0.01,
                ci_low=0.89,
                ci_high=0.91,
            ),
            dict(
                model="m",
                discount="power(beta=0.5)",
                decay="regularly varying",
                ranker="bayes",
                n=100,
                replicates=10,
                mean=0.8,
                sd=0.01,
                ci_low=0.79,
                ci_high=0.81,
            ),
        ]
    )
    theory = pd.DataFrame(
        [
            dict(discount="log2", ranker="bayes", n=100, limit=1.0, first_order=0.92, eps=0.2, c=0.4, finite_n=0.905),
            dict(
                discount="power(beta=0.5)",
                ranker="bayes",
                n=100,
                limit=0.84,
                first_order=0.84,
                eps=0.5,
                c=math.nan,
                finite_n=0.85,
            ),
        ]
    )
    slow, power = compare_with_theory(ranker, theory).to_dict("records")
    # slowly varying: compare 1 - nDCG: simulated 0.1, first order eps*c = 0.08 (-20%), finite-n 0.095 (-5%)
    assert slow["quantity"] == "1 - nDCG" and slow["simulated"] == pytest.approx(0.1)
    assert slow["rel_err_first_order"] == pytest.approx(-0.2) and slow["rel_err_finite_n"] == pytest.approx(-0.05)
    assert slow["finite_n_in_ci"]  # |0.905 - 0.9| <= 0.01
    # otherwise nDCG itself: limit 0.84 vs 0.8 (+5%), finite-n 0.85 outside the interval
    assert power["rel_err_first_order"] == pytest.approx(0.05) and not power["finite_n_in_ci"]
    # z = (theory - mean) / (sd / sqrt(replicates)): 0.005 / 0.00316 = 1.58 (agrees), 0.05 / 0.00316 = 15.8 (not)
    assert slow["finite_n_z"] == pytest.approx(0.005 / (0.01 / math.sqrt(10))) and slow["finite_n_agrees"]
    assert power["finite_n_z"] == pytest.approx(0.05 / (0.01 / math.sqrt(10))) and not power["finite_n_agrees"]


def test_ratio_table_is_the_ratio_of_the_paired_statistics():
    s = ex.Sweep.build(
        "probit(lo=0.1, hi=0.6)",
        ns=[300],
        replicates=60,
        seed=2,
        rankers=["bayes", "noisy(sigma=1)"],
        discounts=["log2", "loglog"],
        pairs=[("bayes", "noisy(sigma=1)")],
    )
    result = ex.run_sweep(s)
    (row,) = result.ratio_table("loglog", "log2", seed=1, n_resamples=300).to_dict("records")
    gap = {d: result.ndcg("bayes", d, 300) - result.ndcg("noisy(sigma=1)", d, 300) for d in ("log2", "loglog")}
    by_hand = (gap["loglog"].mean() / gap["loglog"].std(ddof=1)) / (gap["log2"].mean() / gap["log2"].std(ddof=1))
    assert row["ratio"] == pytest.approx(by_hand, rel=1e-12)
    assert row["ratio_low"] < row["ratio"] < row["ratio_high"] and row["replicates"] == 60
    (row,) = result.ratio_table("loglog", "log2", statistic="mean_gap", seed=1, n_resamples=300).to_dict("records")
    assert row["ratio"] == pytest.approx(gap["loglog"].mean() / gap["log2"].mean(), rel=1e-12)
    with pytest.raises(ValueError, match="statistic must be"):
        result.ratio_table("loglog", "log2", statistic="median", seed=1)
    # The bootstrap is seeded by the seed given (it used the sweep's, whatever seed= said).
    again = result.ratio_table("loglog", "log2", seed=1, n_resamples=300)
    other = result.ratio_table("loglog", "log2", seed=3, n_resamples=300)
    assert again.equals(result.ratio_table("loglog", "log2", seed=1, n_resamples=300))
    assert (again["ratio"] == other["ratio"]).all() and (again["ratio_low"] != other["ratio_low"]).all()


def test_compare_pairs_with_theory_by_hand():
    pair = pd.DataFrame(
        [
            dict(
                model="m",
                discount="log2",
                decay="slowly varying",
                better="a",
                worse="b",
                n=100,
                mean_gap=0.03,
                gap_ci_low=0.02,
                gap_ci_high=0.04,
                eps=0.2,
            )
        ]
    )
    theory = pd.DataFrame(
        [
            dict(discount="log2", ranker="a", n=100, finite_n=0.95, c=0.1),
            dict(discount="log2", ranker="b", n=100, finite_n=0.93, c=0.2),
        ]
    )
    (row,) = compare_pairs_with_theory(pair, theory).to_dict("records")
    assert row["finite_n_gap"] == pytest.approx(0.02) and row["c_difference"] == pytest.approx(0.1)
    assert row["first_order_gap"] == pytest.approx(0.02) and row["gap_over_eps"] == pytest.approx(0.15)
    assert row["gap_ci_half"] == pytest.approx(0.01)


def test_theory_table_agrees_with_prediction():
    table = fn.theory_table(
        "probit(lo=0.1, hi=0.6)", ["bayes", "random"], ["log2", "zipf", "power(beta=0.5)"], [50, 500]
    )
    assert len(table) == 12
    for r in table.to_dict("records"):
        p = fn.prediction("probit(lo=0.1, hi=0.6)", r["ranker"], r["discount"], r["n"])
        assert r["finite_n"] == pytest.approx(p["finite_n"], rel=1e-12)
        assert r["first_order"] == pytest.approx(p["first_order"], rel=1e-12)
        assert r["limit"] == pytest.approx(p["limit"], rel=1e-12)


def _copy_package(tmp_path: Path) -> Path:
    source = Path(ex.__file__).resolve().parents[1]  # ndcg_research/simulation/sweeps.py
    target = tmp_path / "ndcg_research"
    shutil.copytree(source, target, ignore=shutil.ignore_patterns("__pycache__"))
    return target


def test_cache_key_ignores_documentation_but_not_code(tmp_path):
    # The key hashes the code that computes a replicate, not its text: a docstring or comment edit keeps
    # the cached chunks, a changed statement (anywhere the simulation imports) discards them.
    package = _copy_package(tmp_path)
    model = package / "simulation" / "model.py"  # imported by simulate
    kernels = package / "core" / "_kernels.py"
    name = "ndcg_research.simulation.simulate"
    original = replicates.code_fingerprint(name, package)
    assert original == replicates.code_fingerprint(name)  # a copy hashes like the installed package

    text = model.read_text()
    edited = (
        text.replace('"""Draw ``n`` items:', '"""Draw ``n`` items (edited docstring):', 1).replace(
            "# loop over relevance units, not items", "# an edited comment", 1
        )
        + "\n\n# end\n"
    )
    assert edited.count("edited") == 2
    model.write_text(edited)
    assert replicates.code_fingerprint(name, package) == original

    kernels.write_text(kernels.read_text() + "\n_A_NEW_STATEMENT = 1\n")  # code, not documentation
    assert replicates.code_fingerprint(name, package) != original


# ------------------------------------------------------------ examples of simulation.sweeps


def test_distinct_specs_example():
    with pytest.raises(
        ValueError,
        match="rules\\ must\\ be\\ a\\ non\\-empty\\ list\\ of\\ distinct\\ rules,\\ got\\ \\['all',\\ 'all'\\]",
    ):
        distinct_specs("rules", ["all", "all"])


def test_ranker_pairs_example():
    expected = (("bayes", "noisy(sigma=1)"),)
    assert ranker_pairs([["bayes", "noisy( sigma=1 )"]], ["bayes", "noisy(sigma=1)"]) == expected


def test_Design_example():
    expected = ("noisy(sigma=1)", "bayes")
    assert (
        Design.canonical_fields(
            "probit",
            rankers=["noisy( sigma=1.0 )", "bayes"],
            discounts=["log2"],
            pairs=[("bayes", "noisy(sigma=1)")],
            seed=3,
        )["rankers"]
        == expected
    )


def test_Sweep_example():
    s = Sweep.build("probit", ns=[100, 1000], replicates=50, seed=1)
    assert (s.replicates, s.discounts[:2]) == ((50, 50), ("power(beta=2)", "geometric(p=0.5)"))


def test_run_sweep_example():
    s = Sweep.build(
        "probit",
        ns=[50],
        replicates=4,
        seed=0,
        rankers=["bayes", "random"],
        discounts=["log2"],
        pairs=[("bayes", "random")],
    )
    r = run_sweep(s)
    assert (r.values[50].shape, r.computed_chunks) == ((4, 2, 1), 1)
