"""Speed and memory of ``evaluate``, measured side by side with trec_eval, ir_measures and ranx in one run.

    python benchmarks/bench_evaluate.py                  # the sizes of issue 8 (10^6 and 10^7 lines)
    python benchmarks/bench_evaluate.py --quick          # 10^5 and 10^6 lines, fewer rounds (a smoke run)
    python benchmarks/bench_evaluate.py --trec-eval PATH # a trec_eval binary (else built from shared/tools)

The benchmark writes its own files into a temporary folder: a TREC run of Q queries x 1,000
documents (scores with 4 decimals, so some tie; documents drawn from a collection of 5 million
ids, named ``doc<number>``; rank order, as systems write runs) and qrels of 200 judgments per query
(half of them retrieved documents, biased to the top, half unretrieved; grades 0..3).

(a) Whole process, Q = 10,000 (10^7 run lines, 2*10^6 qrels lines):
    ``python -m ndcg_research evaluate -m ndcg -m ndcg_cut.10 QRELS RUN`` against
    ``trec_eval -m ndcg -m ndcg_cut.10 QRELS RUN``: wall time and peak memory (ru_maxrss of each
    child, from os.wait4), and the outputs compared byte for byte.
    Targets: at least 3x faster than trec_eval, peak memory at most 2x trec_eval's.
(b) In process, Q = 1,000 (10^6 run lines): ``nr.evaluate(qrels_path, run_path, ["ndcg", "ndcg_cut.10"])``
    (reading included) against ir_measures (``read_trec_qrels``/``read_trec_run`` + ``calc_aggregate``,
    which runs pytrec_eval) and ranx (``Qrels.from_file`` + ``Run.from_file`` + ``evaluate``, warm:
    numba compiled before timing). Target: at least 5x faster than each.

Every time is the best of N rounds, tools timed round-robin (so all see the same machine load);
the range over the rounds is printed too. Values: ours against trec_eval's output (bytes) and
ir_measures' means (1e-9); ranx orders tied documents differently (its numba sort), so its
difference is shown, not required to be 0.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.csv as pacsv

ROOT = Path(__file__).resolve().parent.parent


def write_collection(folder: Path, n_queries: int, n_docs: int = 1000, n_judged: int = 200, seed: int = 8) -> tuple[Path, Path]:
    """Write ``run.txt`` and ``qrels.txt`` (see the module docstring); return their paths."""
    rng = np.random.default_rng(np.random.SeedSequence(seed))
    collection = 5_000_000
    docs = np.empty((n_queries, n_docs), dtype=np.int64)
    judged = np.empty((n_queries, n_judged), dtype=np.int64)
    half = n_judged // 2
    for q in range(n_queries):  # data generation only
        docs[q] = rng.choice(collection, size=n_docs, replace=False)
        top = np.unique(np.minimum((rng.pareto(1.0, size=3 * half) * 20).astype(np.int64), n_docs - 1))[:half]
        if top.size < half:
            rest = np.setdiff1d(np.arange(n_docs), top)
            top = np.concatenate([top, rng.choice(rest, half - top.size, replace=False)])
        others = rng.choice(collection, size=n_judged, replace=False)
        others = others[~np.isin(others, docs[q])][: n_judged - half]
        judged[q] = np.concatenate([docs[q, top], others])
    scores = -np.sort(-np.round(rng.gamma(4.0, 3.0, size=(n_queries, n_docs)), 4), axis=1)
    grades = rng.choice(4, size=judged.shape, p=[0.6, 0.25, 0.1, 0.05])

    def repeat(text: str, n: int) -> pa.Array:
        return pa.array([text]).take(pa.array(np.zeros(n, dtype=np.int64)))

    def ids(prefix: str, numbers: np.ndarray) -> pa.Array:
        return pc.binary_join_element_wise(prefix, pc.cast(pa.array(numbers.ravel()), pa.string()), "")

    n = n_queries * n_docs
    qids = np.arange(1, n_queries + 1)
    run = pa.table({
        "q": pc.cast(pa.array(np.repeat(qids, n_docs)), pa.string()), "iter": repeat("Q0", n), "doc": ids("doc", docs),
        "rank": pa.array(np.tile(np.arange(1, n_docs + 1), n_queries)), "score": pa.array(scores.ravel()),
        "tag": repeat("bench", n),
    })
    m = n_queries * n_judged
    qrels = pa.table({
        "q": pc.cast(pa.array(np.repeat(qids, n_judged)), pa.string()), "iter": repeat("0", m),
        "doc": ids("doc", judged), "rel": pa.array(grades.ravel()),
    })
    options = pacsv.WriteOptions(include_header=False, delimiter=" ", quoting_style="none")
    pacsv.write_csv(run, folder / "run.txt", options)
    pacsv.write_csv(qrels, folder / "qrels.txt", options)
    return folder / "qrels.txt", folder / "run.txt"


def find_trec_eval(given: str | None) -> str | None:
    """A trec_eval binary: the one given, one on PATH, or one built from shared/tools/trec_eval."""
    if given:
        return given
    if shutil.which("trec_eval"):
        return shutil.which("trec_eval")
    for source in (ROOT.parent / "shared" / "tools" / "trec_eval", ROOT.parent.parent / "shared" / "tools" / "trec_eval"):
        if (source / "Makefile").exists():
            build = Path(tempfile.mkdtemp(prefix="trec_eval_build_")) / "trec_eval"
            shutil.copytree(source, build)
            subprocess.run(["make", "-C", str(build)], check=True, capture_output=True)
            return str(build / "trec_eval")
    return None


def run_child(command: list[str]) -> tuple[float, float, bytes]:
    """Wall seconds, peak resident MiB (this child only) and stdout of a command."""
    with tempfile.TemporaryFile() as out:
        start = time.perf_counter()
        child = subprocess.Popen(command, stdout=out, stderr=subprocess.DEVNULL)
        _, status, usage = os.wait4(child.pid, 0)
        elapsed = time.perf_counter() - start
        child.returncode = os.waitstatus_to_exitcode(status)
        if child.returncode != 0:
            raise RuntimeError(f"{command[0]} failed with status {child.returncode}")
        out.seek(0)
        return elapsed, usage.ru_maxrss / 1024, out.read()


def whole_process(qrels: Path, run: Path, trec_eval: str | None, rounds: int) -> None:
    measures = ["-m", "ndcg", "-m", "ndcg_cut.10"]
    tools = {"ours (python -m ndcg_research evaluate)": [sys.executable, "-m", "ndcg_research", "evaluate", "--quiet",
                                                        *measures, str(qrels), str(run)]}
    if trec_eval:
        tools["trec_eval"] = [trec_eval, *measures, str(qrels), str(run)]
    times = {name: [] for name in tools}
    memory = {name: 0.0 for name in tools}
    outputs = {}
    for _ in range(rounds):
        for name, command in tools.items():
            elapsed, peak, out = run_child(command)
            times[name].append(elapsed)
            memory[name] = max(memory[name], peak)
            outputs[name] = out
    print(f"{'tool':42s} {'best s':>8s} {'range s':>15s} {'peak MiB':>9s}")
    for name in tools:
        print(f"{name:42s} {min(times[name]):8.2f} {min(times[name]):7.2f}-{max(times[name]):<7.2f} {memory[name]:9.0f}")
    if trec_eval:
        ours, theirs = next(iter(tools)), "trec_eval"
        print(f"speed-up over trec_eval (best): {min(times[theirs]) / min(times[ours]):.2f}x (target >= 3); "
              f"per round: {', '.join(f'{t / o:.2f}x' for t, o in zip(times[theirs], times[ours]))}")
        print(f"memory vs trec_eval: {memory[ours] / memory[theirs]:.2f}x (target <= 2)")
        same = outputs[ours] == outputs[theirs]
        print(f"outputs byte-identical: {same}")
        print(outputs[ours].decode(), end="")
        if not same:
            print("trec_eval printed:\n" + outputs[theirs].decode(), end="")
    else:
        print("trec_eval not found (give --trec-eval PATH): no comparison")


def in_process(qrels: Path, run: Path, rounds: int) -> None:
    import ndcg_research as nr

    def ours():
        result = nr.evaluate(str(qrels), str(run), ["ndcg", "ndcg_cut.10"])
        return dict(zip(("ndcg", "ndcg_cut_10"), result.mean_values[0]))

    tools = {"ours (nr.evaluate, reading included)": ours}
    try:
        import ir_measures

        def with_ir_measures():
            values = ir_measures.calc_aggregate([ir_measures.nDCG, ir_measures.nDCG @ 10],
                                                ir_measures.read_trec_qrels(str(qrels)), ir_measures.read_trec_run(str(run)))
            return {"ndcg": values[ir_measures.nDCG], "ndcg_cut_10": values[ir_measures.nDCG @ 10]}

        tools["ir_measures readers + pytrec_eval"] = with_ir_measures
    except ImportError:
        print("ir_measures not installed: skipped")
    try:
        import ranx

        def with_ranx():
            values = ranx.evaluate(ranx.Qrels.from_file(str(qrels), kind="trec"), ranx.Run.from_file(str(run), kind="trec"),
                                   ["ndcg", "ndcg@10"])
            return {"ndcg": values["ndcg"], "ndcg_cut_10": values["ndcg@10"]}

        with_ranx()  # compile numba's functions before timing (warm)
        tools["ranx from_file + evaluate (warm)"] = with_ranx
    except ImportError:
        print("ranx not installed: skipped")
    times = {name: [] for name in tools}
    values = {}
    for _ in range(rounds):
        for name, function in tools.items():
            start = time.perf_counter()
            values[name] = function()
            times[name].append(time.perf_counter() - start)
    ours_name = next(iter(tools))
    print(f"{'tool':42s} {'best s':>8s} {'range s':>15s} {'ours faster':>12s}  max |mean difference|")
    for name in tools:
        ratio = min(times[name]) / min(times[ours_name])
        diff = max(abs(values[name][m] - values[ours_name][m]) for m in values[ours_name])
        print(f"{name:42s} {min(times[name]):8.2f} {min(times[name]):7.2f}-{max(times[name]):<7.2f} {ratio:11.2f}x  {diff:.2e}")
    print("target: ours >= 5x faster than ir_measures + pytrec_eval and than ranx")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="10^5 and 10^6 lines, 2 rounds")
    parser.add_argument("--trec-eval", help="path of a trec_eval binary")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--folder", help="write the files here (default: a temporary folder, removed afterwards)")
    args = parser.parse_args(argv)
    rounds = 2 if args.quick else args.rounds
    small, large = (100, 1000) if args.quick else (1000, 10000)
    trec_eval = find_trec_eval(args.trec_eval)
    folder = Path(args.folder) if args.folder else Path(tempfile.mkdtemp(prefix="bench_evaluate_"))
    try:
        print(f"machine: {os.cpu_count()} cores; load average {os.getloadavg()[0]:.1f}; python {sys.version.split()[0]}")
        (folder / "large").mkdir(parents=True, exist_ok=True)
        (folder / "small").mkdir(parents=True, exist_ok=True)
        start = time.perf_counter()
        large_files = write_collection(folder / "large", large)
        small_files = write_collection(folder / "small", small)
        print(f"files written in {time.perf_counter() - start:.0f} s to {folder}: run {large * 1000:,} lines "
              f"({large_files[1].stat().st_size / 1e6:.0f} MB), qrels {large * 200:,} lines; and {small * 1000:,} lines")
        print(f"\n(a) whole process, run of {large * 1000:,} lines")
        whole_process(*large_files, trec_eval, rounds)
        print(f"\n(b) in process, run of {small * 1000:,} lines")
        in_process(*small_files, rounds)
    finally:
        if not args.folder:
            shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
