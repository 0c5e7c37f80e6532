"""Threads and warnings in the metric core: no global state to go stale.

- The ideal DCG of a large batch may run on a second thread started for that call (``threads``);
  the values never depend on it, and no thread outlives the call.
- The discount cache is shared by threads calling the metrics at once, under a lock.
- The zero-ideal warning points at the caller's line, from every public function.
"""

from __future__ import annotations

import math
import sys
import threading
import warnings

import numpy as np
import pytest

import ndcg_research as nr
from ndcg_research.core import _kernels as kernels
from ndcg_research.core import _metrics as metrics


def _batch(seed, shape=(600, 500)):
    rng = np.random.default_rng(np.random.SeedSequence(seed))
    return rng.integers(0, 5, size=shape), rng.normal(size=shape).round(1)  # rounded: ties, some across rank k


@pytest.mark.parametrize("k", [None, 10])
@pytest.mark.parametrize("gain", ["linear", "exp2"])
def test_thread_count_never_changes_the_values(k, gain):
    labels, scores = _batch(2026)
    assert labels.size >= metrics.OVERLAP_MIN_ENTRIES  # threads=None uses the second thread here
    one = nr.ndcg_parts_from_scores(labels, scores, k, gain=gain, threads=1)
    for threads in (2, None):
        other = nr.ndcg_parts_from_scores(labels, scores, k, gain=gain, threads=threads)
        for a, b in zip(one, other, strict=True):
            np.testing.assert_array_equal(a, b)
    # Small batches computed in line give the same values as the large one.
    parts = [
        nr.ndcg_parts_from_scores(labels[i : i + 100], scores[i : i + 100], k, gain=gain) for i in range(0, 600, 100)
    ]
    for field in range(3):
        np.testing.assert_array_equal(one[field], np.concatenate([p[field] for p in parts]))


def test_no_thread_outlives_the_call():
    labels, scores = _batch(1)
    before = threading.active_count()
    nr.ndcg_from_scores(labels, scores, 10, threads=2)
    assert threading.active_count() == before
    assert not [t for t in threading.enumerate() if t.name.startswith("ndcg_research")]


def test_an_error_on_the_helper_thread_reaches_the_caller():
    # The ideal holds a grade whose exp2 gain overflows: computed on the second thread, raised here.
    with pytest.raises(ValueError, match="gain 'exp2' overflows float64 for grade 2000.0 in ideal"):
        nr.ndcg_from_scores([[1, 0]], [[0.2, 0.1]], ideal=[[1, 2000]], gain="exp2", threads=2)


@pytest.mark.parametrize(
    "threads, error, match",
    [
        (0, ValueError, r"threads must be an integer in \[1, 2\] or None, got 0"),
        (3, ValueError, r"threads must be an integer in \[1, 2\] or None, got 3"),
        (True, TypeError, r"threads must be an integer in \[1, 2\] or None, got bool True"),
        (1.0, TypeError, r"threads must be an integer in \[1, 2\] or None, got float 1.0"),
    ],
)
def test_threads_must_be_one_two_or_none(threads, error, match):
    with pytest.raises(error, match=match):
        nr.ndcg_from_scores([1, 0], [0.1, 0.2], threads=threads)


@pytest.mark.parametrize(
    "shape, threads, gain, second_thread",
    [
        ((600, 500), None, "linear", True),  # the default: a batch of >= OVERLAP_MIN_ENTRIES entries overlaps
        ((20, 50), None, "linear", False),  # a small batch stays on the calling thread
        ((20, 50), 2, "linear", True),
        ((600, 500), 1, "linear", False),
        ((600, 500), None, np.sqrt, False),  # a user's callable need not be thread-safe: never on a second thread
        ((20, 50), 2, np.sqrt, False),
    ],
)
def test_when_the_ideal_dcg_runs_on_a_second_thread(monkeypatch, shape, threads, gain, second_thread):
    # The documented default (docs/guides/metric-conventions.md): threads=None overlaps exactly the large
    # batches with a built-in gain and discount.
    started = []
    # noqa below: counting the calls of the one place that starts the thread
    start_on_thread = metrics._start_on_thread  # noqa: SLF001

    def counting(*args, **kwargs):
        started.append(threading.current_thread().name)
        return start_on_thread(*args, **kwargs)

    monkeypatch.setattr(metrics, "_start_on_thread", counting)
    labels, scores = _batch(3, shape)
    got = nr.ndcg_from_scores(labels, scores, 10, gain=gain, threads=threads)
    assert len(started) == int(second_thread)
    monkeypatch.setattr(metrics, "_start_on_thread", start_on_thread)
    np.testing.assert_array_equal(got, nr.ndcg_from_scores(labels, scores, 10, gain=gain, threads=1))


def _large_batch_ndcg(seed):
    labels, scores = _batch(seed, (300, 1000))
    return nr.ndcg_from_scores(labels, scores, 10)


def test_large_batches_work_in_a_forked_child():
    import multiprocessing

    expected = _large_batch_ndcg(7)  # the parent has used a second thread
    with multiprocessing.get_context("fork").Pool(1) as pool:
        got = pool.apply_async(_large_batch_ndcg, (7,)).get(timeout=60)
    np.testing.assert_array_equal(got, expected)


def test_the_second_thread_works_at_interpreter_exit():
    # an atexit handler (e.g. a notebook's last report) may still score a batch on two threads
    import subprocess

    code = (
        "import atexit, ndcg_research as nr\n"
        "atexit.register(lambda: print(nr.ndcg_from_scores([[1, 0]], [[0.2, 0.1]], threads=2)))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert (done.returncode, done.stderr, done.stdout.strip()) == (0, "", "[1.]")


def test_discount_cache_is_safe_under_concurrent_threads(monkeypatch):
    # Many threads asking for more discounts than the cache holds: every lookup, build and eviction
    # races with the others (a fast thread switch makes the races likely). Without the lock,
    # evictions collided (KeyError) about once a run on this test.
    monkeypatch.setattr(kernels, "DISCOUNT_CACHE_SIZE", 2)
    specs = [nr.Discount("power", beta=0.1 + 0.05 * i) for i in range(40)]
    errors = []

    def work(seed):
        rng = np.random.default_rng(seed)
        try:
            for _ in range(1500):
                discount = specs[rng.integers(len(specs))]
                n = int(rng.integers(1, 300))
                assert np.array_equal(kernels.discount_vector(discount, n), discount(np.arange(1, n + 1.0)))
                assert math.isclose(
                    kernels.cumulative_discount(discount, n)[-1],
                    math.fsum(discount(np.arange(1, n + 1.0))),
                    rel_tol=1e-12,
                )
        except Exception as error:  # reported below
            errors.append(repr(error))

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        threads = [threading.Thread(target=work, args=(seed,)) for seed in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        sys.setswitchinterval(interval)
        nr.clear_discount_cache()
    assert errors == []
    assert len(kernels._cache) <= 2  # noqa: SLF001 - the bound holds under contention too


@pytest.mark.parametrize(
    "call",
    [
        lambda: nr.ndcg([0, 0]),
        lambda: nr.ndcg_parts([0, 0]),
        lambda: nr.ndcg_from_scores([0, 0], [0.1, 0.2]),
        lambda: nr.ndcg_parts_from_scores([0, 0], [0.1, 0.2]),
        lambda: nr.ndcg([[0, 0], [1, 0]], judged=[[True, True], [True, False]]),
        lambda: nr.ndcg_from_scores(np.zeros((600, 500)), np.ones((600, 500)), 10),  # the threaded path
    ],
)
def test_zero_ideal_warning_points_at_the_callers_line(call):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        call()
    [warning] = [w for w in caught if issubclass(w.category, nr.UndefinedNDCGWarning)]
    assert warning.filename == __file__
