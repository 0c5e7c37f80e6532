"""All-pairs bootstrap and sign-flip tests: ndcg_research.stats against scipy.stats one pair at a time.

Run: ``python benchmarks/bench_stats.py [--systems 100] [--queries 200] [--resamples 10000] [--sample-pairs 40]``

The task: every pair of ``systems`` systems (4950 pairs for 100) on ``queries`` queries, with
``resamples`` resamples each:

- ours, bootstrap: :func:`ndcg_research.stats.pairwise_tests` with ``test="bootstrap"`` and the
  percentile interval: Sakai's studentised bootstrap test (ASL) *and* the 95% interval of every
  pair's mean difference, resamples shared by all pairs (seeded blocks, one matrix product per chunk);
  also :func:`~ndcg_research.stats.discriminative_power` (ASL only);
- ours, sign flip: ``test="permutation"`` (Monte Carlo, ``resamples`` sign vectors);
- baseline 1: :func:`scipy.stats.bootstrap` per pair (percentile interval of the mean difference,
  ``vectorized`` statistic ``np.mean``) - it computes the interval only, less than ours does;
- baseline 2: :func:`scipy.stats.permutation_test` per pair (``permutation_type="samples"``, the
  sign flip), ``resamples`` random sign vectors;
- baseline 3: :func:`scipy.stats.bootstrap` once on the (pairs x queries) array of differences,
  ``axis=-1`` (scipy's own vectorisation: it gathers pairs x batch x queries values).

The baselines take minutes on all pairs, so they are timed on ``--sample-pairs`` random pairs
(baseline 3 on ten times as many) and scaled linearly to all pairs (each pair costs the same).
Ours runs on all pairs, with the machine's BLAS threads, then on one BLAS thread for a like-for-like
comparison with the single-threaded baselines, then with ``n_jobs=2`` worker threads.
All timings in one run, on the same data, best of ``--repeats`` for ours.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
import time

import numpy as np
from record import Recorder
from scipy import stats

from ndcg_research.stats import discriminative_power, pairwise_tests


def best_of(repeats: int, function) -> float:
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        function()
        times.append(time.perf_counter() - t0)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--systems", type=int, default=100)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--resamples", type=int, default=10_000)
    parser.add_argument("--sample-pairs", type=int, default=40)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    recorder = Recorder("bench_stats", " ".join(["python benchmarks/bench_stats.py", *sys.argv[1:]]))
    s, n, b = args.systems, args.queries, args.resamples
    rng = np.random.default_rng(0)
    topic = rng.beta(2, 3, n)
    x = np.clip(topic + np.linspace(0, 0.1, s)[:, None] + rng.normal(0, 0.12, (s, n)), 0, 1)
    first, second = np.triu_indices(s, k=1)
    pairs = first.size
    sample = rng.choice(pairs, size=min(args.sample_pairs, pairs), replace=False)

    try:
        from threadpoolctl import threadpool_info, threadpool_limits

        blas_threads = max((i["num_threads"] for i in threadpool_info() if i["user_api"] == "blas"), default=1)
        one_thread = lambda: threadpool_limits(1, user_api="blas")  # noqa: E731
    except ImportError:  # pragma: no cover
        blas_threads, one_thread = "?", contextlib.nullcontext

    ours = {}
    ours["bootstrap: ASL + percentile CI"] = best_of(
        args.repeats, lambda: pairwise_tests(x, test="bootstrap", interval="percentile", n_resamples=b)
    )
    ours["bootstrap: ASL only (discriminative_power)"] = best_of(
        args.repeats, lambda: discriminative_power(x, test="bootstrap", n_resamples=b)
    )
    ours["sign flip: p only"] = best_of(
        args.repeats, lambda: pairwise_tests(x, test="permutation", interval="none", n_resamples=b, exact=False)
    )
    with one_thread():
        ours["bootstrap: ASL + percentile CI, 1 BLAS thread"] = best_of(
            args.repeats, lambda: pairwise_tests(x, test="bootstrap", interval="percentile", n_resamples=b)
        )
        ours["sign flip: p only, 1 BLAS thread"] = best_of(
            args.repeats, lambda: pairwise_tests(x, test="permutation", interval="none", n_resamples=b, exact=False)
        )
    ours["bootstrap: ASL + percentile CI, n_jobs=2"] = best_of(
        args.repeats, lambda: pairwise_tests(x, test="bootstrap", interval="percentile", n_resamples=b, n_jobs=2)
    )

    def scipy_bootstrap_per_pair() -> None:
        for k in sample:
            d = x[first[k]] - x[second[k]]
            stats.bootstrap((d,), np.mean, n_resamples=b, method="percentile", rng=np.random.default_rng(k))

    def scipy_permutation_per_pair() -> None:
        for k in sample:
            d = x[first[k]] - x[second[k]]
            stats.permutation_test(
                (d,),
                lambda v, axis: v.mean(axis=axis),
                vectorized=True,
                permutation_type="samples",
                n_resamples=b,
                rng=np.random.default_rng(k),
            )

    block = rng.choice(pairs, size=min(10 * args.sample_pairs, pairs), replace=False)

    def scipy_bootstrap_vectorised() -> None:
        d = x[first[block]] - x[second[block]]
        stats.bootstrap(
            (d,), np.mean, axis=-1, n_resamples=b, method="percentile", batch=50, rng=np.random.default_rng(1)
        )

    base = {
        "scipy.stats.bootstrap per pair (CI only)": scipy_bootstrap_per_pair,
        "scipy.stats.permutation_test per pair": scipy_permutation_per_pair,
        "scipy.stats.bootstrap over pairs, axis=-1 (CI only)": scipy_bootstrap_vectorised,
    }
    timed = {name: (time.perf_counter(), f(), time.perf_counter()) for name, f in base.items()}
    measured = {name: stop - start for name, (start, _, stop) in timed.items()}
    scale = {name: pairs / (block.size if "axis" in name else sample.size) for name in base}

    print(f"{s} systems x {n} queries = {pairs} pairs, {b} resamples; BLAS threads: {blas_threads}")
    print(
        f"ours: all pairs, best of {args.repeats}; baselines: timed on {sample.size} pairs "
        f"({block.size} for the axis=-1 one) and scaled to {pairs}"
    )
    print(f"{'':58} {'seconds':>9}")
    for name, sec in ours.items():
        print(f"ours     {name:<49} {sec:9.2f}")
    for name in base:
        print(f"baseline {name:<49} {measured[name] * scale[name]:9.1f}   (measured {measured[name]:.1f} s)")
    boot = ours["bootstrap: ASL + percentile CI"]
    boot1 = ours["bootstrap: ASL + percentile CI, 1 BLAS thread"]
    flip1 = ours["sign flip: p only, 1 BLAS thread"]
    per_pair = measured["scipy.stats.bootstrap per pair (CI only)"] * scale["scipy.stats.bootstrap per pair (CI only)"]
    perm = measured["scipy.stats.permutation_test per pair"] * scale["scipy.stats.permutation_test per pair"]
    print(
        f"speed-up, bootstrap vs scipy.stats.bootstrap per pair: {per_pair / boot:6.0f}x "
        f"({per_pair / boot1:.0f}x on one BLAS thread, like for like)"
    )
    print(f"speed-up, sign flip (1 BLAS thread) vs scipy.stats.permutation_test per pair: {perm / flip1:6.0f}x")
    task = f"all {pairs} pairs of {s} systems x {n} queries, {b} resamples"
    recorder.row(
        f"{task}: bootstrap test (ASL) and 95% interval of every pair",
        f"{boot:.1f} s; {per_pair / boot:.0f}x faster than scipy.stats.bootstrap one pair at a time "
        f"({per_pair / boot1:.0f}x on one BLAS thread)",
        "seconds",
    )
    recorder.row(
        f"{task}: sign-flip test of every pair",
        f"{flip1:.1f} s on one BLAS thread; {perm / flip1:.0f}x faster than scipy.stats.permutation_test "
        f"one pair at a time",
        "seconds",
    )
    print(f"written: {recorder.write()}")


if __name__ == "__main__":
    main()
