"""Cost of one simulated replicate vs the unavoidable cost: one argsort of n float64 per ranker.

Run: ``python benchmarks/bench_simulation.py [--n 1000000] [--repeats 15]``

One replicate (:func:`ndcg_research.simulation.simulate.replicate_ndcg`) draws a data set of
n items, ranks it by every ranker and computes nDCG under every discount. The
reference is what any implementation must at least do: sort n scores once per
ranker (``np.argsort`` of a fresh float64 array, generation not timed).
Replicate and reference are timed alternately, in the same process, on one
BLAS thread (as the sweep runs them), and the medians are compared; the best
(fastest) times are compared too, which a shared, loaded machine disturbs least.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

import numpy as np
from record import Recorder

from ndcg_research.simulation.model import parse_ranker
from ndcg_research.simulation.simulate import replicate_ndcg
from ndcg_research.simulation.sweeps import DEFAULT_DISCOUNTS, DEFAULT_RANKERS


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=1_000_000)
    parser.add_argument("--repeats", type=int, default=15)
    parser.add_argument("--model", default="probit(lo=0.1, hi=0.6)")
    args = parser.parse_args()
    recorder = Recorder("bench_simulation", " ".join(["python benchmarks/bench_simulation.py", *sys.argv[1:]]))
    n, model = args.n, args.model
    rankers, discounts = DEFAULT_RANKERS, DEFAULT_DISCOUNTS
    sorting = sum(parse_ranker(r).kind == "noisy" for r in rankers)  # bayes/coarse share one np.sort of x

    try:  # one BLAS thread, as the sweep runs replicates (threadpoolctl comes with scikit-learn)
        from threadpoolctl import threadpool_limits

        one_thread = threadpool_limits(1, user_api="blas")
    except ImportError:  # pragma: no cover
        import contextlib

        one_thread = contextlib.nullcontext()

    rng = np.random.default_rng(0)
    replicate_times, sort_times = [], []
    with one_thread:
        replicate_ndcg(model, rankers, discounts, n, seed=1, replicate=10**6)  # warm the discount caches
        for r in range(args.repeats):
            t0 = time.perf_counter()
            replicate_ndcg(model, rankers, discounts, n, seed=1, replicate=r)
            replicate_times.append(time.perf_counter() - t0)
            arrays = [rng.standard_normal(n) for _ in rankers]
            t0 = time.perf_counter()
            for a in arrays:
                np.argsort(a)
            sort_times.append((time.perf_counter() - t0) / len(rankers))
    rep, one = statistics.median(replicate_times), statistics.median(sort_times)
    best_ratio = min(replicate_times) / (len(rankers) * min(sort_times))
    print(
        f"n = {n:,}, model {model}, {len(rankers)} rankers, {len(discounts)} discounts, "
        f"{args.repeats} repeats (medians)"
    )
    print(
        f"work per replicate: {sorting} argsorts (noisy rankers), one np.sort of the features (shared by bayes "
        f"and coarse), one shuffle of uint8 grades (random), no sort for the ideal"
    )
    print(f"one replicate (all rankers, all discounts):  {rep * 1e3:8.1f} ms")
    print(f"one argsort of n float64:                    {one * 1e3:8.1f} ms")
    print(
        f"reference: one argsort per ranker ({len(rankers)}):     {len(rankers) * one * 1e3:8.1f} ms"
        f"   ratio {rep / (len(rankers) * one):.2f}  (target <= 1.5)"
    )
    print(
        f"only the argsorts this run performs ({sorting}):  {sorting * one * 1e3:8.1f} ms"
        f"   ratio {rep / (sorting * one):.2f}"
    )
    print(
        f"best times instead of medians: replicate {min(replicate_times) * 1e3:.1f} ms, argsort "
        f"{min(sort_times) * 1e3:.1f} ms, ratio {best_ratio:.2f}"
    )
    recorder.row(
        f"one simulated replicate, n = {n:,}, {len(rankers)} rankers x {len(discounts)} discounts",
        f"{rep / (len(rankers) * one):.2f}x the cost of one argsort of n float64 per ranker "
        f"({rep * 1e3:.0f} ms, median of {args.repeats}); best times {best_ratio:.2f}x",
        "<= 1.5x",
        met=rep / (len(rankers) * one) <= 1.5,
    )
    print(f"written: {recorder.write()}")


if __name__ == "__main__":
    main()
