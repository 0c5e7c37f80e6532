"""``advise`` on TREC files: 20 systems x 50 queries x 1,000 documents, 40 candidate settings.

Run: ``python benchmarks/bench_advise.py [--systems 20] [--queries 50] [--docs 1000] [--repeats 3]``

Writes a qrels file and ``systems`` run files (every system ranks ``docs`` documents per query; grades
0-3) to a temporary folder, then times, best of ``--repeats``, on the same files:

- ``advise`` end to end (files read once, 40 candidates' per-query values, their statistics, the rule);
- its evaluation step alone: one :func:`ndcg_research.stats.run_matrices` call with the 40 measures;
- baseline 1: the same 40 measures as 40 separate ``evaluate`` calls (the files read 40 times);
- baseline 2: one ``evaluate`` of trec_eval's ``ndcg`` (what a single evaluation of the runs costs).

The target (issue 26): at most about 10 s on 2 cores.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
from record import Recorder

from ndcg_research.advice import advise
from ndcg_research.advice._advise import CUTOFFS, DISCOUNTS, GAINS, _candidates
from ndcg_research.evaluation import evaluate
from ndcg_research.stats import run_matrices


def write_collection(folder: Path, systems: int, queries: int, docs: int, seed: int = 0) -> tuple[str, list[str]]:
    """A qrels file and ``systems`` run files: system i scores a document skill_i * grade * difficulty + noise."""
    rng = np.random.default_rng(seed)
    q = np.repeat(np.arange(queries), docs)
    d = np.tile(np.arange(docs), queries)
    grades = rng.choice([0, 0, 0, 0, 0, 0, 0, 1, 2, 3], size=q.size)
    judged = grades > 0
    qrels = folder / "qrels.txt"
    qrels.write_text(
        "".join(f"q{a} 0 d{b} {g}\n" for a, b, g in zip(q[judged], d[judged], grades[judged], strict=True))
    )
    difficulty = np.repeat(rng.lognormal(0, 0.5, queries), docs)
    runs = []
    for i, skill in enumerate(np.linspace(0.2, 1.0, systems)):
        score = skill * grades * difficulty + rng.normal(0, 1, q.size)
        path = folder / f"sys{i:02d}.txt"
        path.write_text("".join(f"q{a} Q0 d{b} 0 {s:.6f} sys{i:02d}\n" for a, b, s in zip(q, d, score, strict=True)))
        runs.append(str(path))
    return str(qrels), runs


def best_of(repeats: int, function) -> float:
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        function()
        times.append(time.perf_counter() - started)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--systems", type=int, default=20)
    parser.add_argument("--queries", type=int, default=50)
    parser.add_argument("--docs", type=int, default=1000)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    recorder = Recorder("bench_advise", " ".join(["python benchmarks/bench_advise.py", *sys.argv[1:]]))
    specs = [c["measure"] for c in _candidates(DISCOUNTS, CUTOFFS, GAINS)]
    size = f"{args.systems} systems x {args.queries} queries x {args.docs} documents"
    with tempfile.TemporaryDirectory() as folder:
        qrels, runs = write_collection(Path(folder), args.systems, args.queries, args.docs)
        advise(qrels, runs)  # warm-up: imports, caches of the discounts
        whole = best_of(args.repeats, lambda: advise(qrels, runs))
        matrices = best_of(args.repeats, lambda: run_matrices(qrels, runs, specs))
        separate = best_of(1, lambda: [evaluate(qrels, runs, spec) for spec in specs])
        single = best_of(args.repeats, lambda: evaluate(qrels, runs, "ndcg"))
    print(f"{size}, {len(specs)} candidates")
    print(f"advise, end to end:                         {whole:6.2f} s")
    print(f"  its evaluation (one run_matrices call):    {matrices:6.2f} s")
    print(f"  its statistics and rule (the rest):        {whole - matrices:6.2f} s")
    print(f"baseline 1, 40 separate evaluate calls:      {separate:6.2f} s")
    print(f"baseline 2, one evaluate of ndcg:            {single:6.2f} s")
    recorder.row(
        f"advise, {size}, {len(specs)} candidates, from files",
        f"{whole:.2f} s ({whole / single:.1f}x one evaluate of ndcg, {single:.2f} s)",
        "at most about 10 s on 2 cores",
        met=whole <= 10,
    )
    recorder.row(
        "its evaluation: the 40 measures in one run_matrices call",
        f"{matrices:.2f} s; 40 separate evaluate calls {separate:.2f} s ({separate / matrices:.1f}x)",
    )
    recorder.row(
        "its statistics (Tukey HSD, swap curves, variance components, tau) and the rule", f"{whole - matrices:.2f} s"
    )
    print(f"written {recorder.write()}")


if __name__ == "__main__":
    main()
