"""Tests of ndcg_research.simulation.replicates: seeds, chunk plans, parallel map and chunk runs with a cache."""

from __future__ import annotations

import sys
import tomllib
from pathlib import Path

import numpy as np
import pytest

from ndcg_research.simulation import replicates as rp
from ndcg_research.simulation.replicates import (
    code_fingerprint,
    parallel_map,
    plan_chunks,
    replicate_counts,
    run_chunks,
    seed_sequence,
)


def test_seed_sequence_is_numpys():
    s = rp.seed_sequence(7, 6003, 2)
    assert s.entropy == 7 and s.spawn_key == (6003, 2)
    assert (
        np.random.default_rng(s).random()
        == np.random.default_rng(np.random.SeedSequence(7, spawn_key=(6003, 2))).random()
    )


def test_replicate_counts_forms():
    assert rp.replicate_counts([30, 10], 5) == ((10, 30), (5, 5))
    assert rp.replicate_counts([30, 10], [1, 2]) == ((10, 30), (2, 1))
    assert rp.replicate_counts([30, 10], {10: 4, 30: 3}) == ((10, 30), (4, 3))


def test_chunk_plan_covers_every_replicate_once_and_is_stable():
    chunks = rp.plan_chunks([10, 1000], [25, 7], chunk_items=100)
    for n, count in ((10, 25), (1000, 7)):
        covered = [r for c in chunks if c.n == n for r in range(c.start, c.stop)]
        assert covered == list(range(count))
    assert all(c.stop - c.start <= max(1, 100 // c.n) for c in chunks)
    # Adding replicates keeps the finished chunks (boundaries at multiples of the chunk size).
    more = rp.plan_chunks([10, 1000], [35, 7], chunk_items=100)
    assert set(chunks) - set(more) == {rp.Chunk(10, 20, 25)}


def _square(chunk: rp.Chunk) -> np.ndarray:
    return np.arange(chunk.start, chunk.stop, dtype=float) ** 2 + chunk.n


def test_parallel_map_gives_every_result_whatever_the_workers():
    items = list(range(10))
    assert sorted(rp.parallel_map(abs, [-x for x in items], n_jobs=2)) == sorted((-x, x) for x in items)


def test_run_chunks_joins_in_replicate_order_and_resumes_from_cache(tmp_path):
    chunks = rp.plan_chunks([10, 20], [9, 4], chunk_items=40)
    expected = {10: np.arange(9.0) ** 2 + 10, 20: np.arange(4.0) ** 2 + 20}
    first = rp.run_chunks(_square, chunks, n_jobs=2, cache=tmp_path / "key", description={"what": "squares"})
    assert (first.computed, first.reused) == (len(chunks), 0)
    again = rp.run_chunks(_square, chunks, cache=tmp_path / "key")
    assert (again.computed, again.reused) == (0, len(chunks))
    for run in (first, again):
        for n, values in expected.items():
            np.testing.assert_array_equal(run.values[n], values)
    assert (tmp_path / "key" / "description.json").is_file()


def test_every_extra_that_runs_sweeps_installs_threadpoolctl():
    # run_chunks needs tqdm; an environment with the notebooks extra alone ran sweeps without threadpoolctl, so with
    # OpenBLAS's threads in this process and one in a worker: values that moved in their last bits with n_jobs.
    pyproject = tomllib.loads((Path(__file__).resolve().parents[1] / "pyproject.toml").read_text(encoding="utf-8"))
    extras = pyproject["project"]["optional-dependencies"]
    runs_sweeps = {name for name, needs in extras.items() if any(need.startswith("tqdm") for need in needs)}
    assert runs_sweeps >= {"notebooks", "experiments"}
    for name in runs_sweeps:
        assert any(need.startswith("threadpoolctl") for need in extras[name]), name


def test_chunks_do_not_run_without_threadpoolctl(monkeypatch):
    # Without it a chunk ran on every BLAS thread (values depending on the workers), silently.
    monkeypatch.setitem(sys.modules, "threadpoolctl", None)
    with pytest.raises(ImportError, match="threadpoolctl"):
        list(parallel_map(abs, [-1]))


# ------------------------------------------------------------ examples of simulation.replicates


def test_seed_sequence_example():
    a = np.random.default_rng(seed_sequence(1, 6003, 0)).random()
    expected = (True, False)
    assert (
        a == np.random.default_rng(seed_sequence(1, 6003, 0)).random(),
        a == np.random.default_rng(seed_sequence(1, 6003, 1)).random(),
    ) == expected


def test_replicate_counts_example():
    assert replicate_counts([1000, 100], [20, 100]) == ((100, 1000), (100, 20))


def test_plan_chunks_example():
    expected = "[Chunk(n=100, start=0, stop=5), Chunk(n=1000, start=0, stop=2), Chunk(n=1000, start=2, stop=3)]"
    assert repr(plan_chunks([100, 1000], [5, 3], chunk_items=2000)) == expected


def test_parallel_map_example():
    assert sorted(parallel_map(abs, [-2, 1])) == [(-2, 2), (1, 1)]


def test_run_chunks_example():
    run = run_chunks(lambda c: np.arange(c.start, c.stop) * c.n, plan_chunks([10], [3], chunk_items=10))
    assert (run.values[10].tolist(), run.computed) == ([0, 10, 20], 3)


def test_code_fingerprint_example():
    assert len(code_fingerprint("ndcg_research.simulation.simulate")) == 16
