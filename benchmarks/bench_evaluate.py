"""Speed and memory of ``evaluate``, side by side with trec_eval, Python peers and a pyarrow-only floor, in one run.

    python benchmarks/bench_evaluate.py                  # 50,000 and 250,000 lines (9 rounds), 10^7 (3), in process
    python benchmarks/bench_evaluate.py --huge           # and 10^8 lines (about 3.4 GB, 1 round: the memory target)
    python benchmarks/bench_evaluate.py --quick          # 50,000 and 250,000 lines (a smoke run)
    python benchmarks/bench_evaluate.py --trec-eval PATH # a trec_eval binary (else on PATH, else built from shared/)

The benchmark writes its own files into a temporary folder (removed afterwards; never committed): a
TREC run of Q queries x 1,000 documents (scores with 4 decimals, so some tie; documents drawn from a
collection of 5 million ids, named ``doc<number>``; rank order, grouped by query, as systems write
runs) and qrels of 200 judgments per query (half of them retrieved documents, biased to the top,
half unretrieved; grades 0..3). Q = 50, 250, 10,000 (and 100,000): 5*10^4 to 10^8 run lines.

Whole process, each tool a child process timed alone (wall time; peak memory = GNU time's ``%M``), the
package's bytecode compiled first as ``pip install`` does (where ``PYTHONDONTWRITEBYTECODE`` is set, as on
this project's machines, every start would otherwise compile the package from source: some 50 ms); the
tools run round-robin in every round so all see the same machine load; best of the rounds, every
round's ratio printed too, and the load average before and after each size:

- ours: ``python -m ndcg_research evaluate -m ndcg -m ndcg_cut.10 QRELS RUN`` (the run read in blocks
  of whole queries);
- trec_eval 10.0: ``trec_eval -m ndcg -m ndcg_cut.10 QRELS RUN``; the outputs compared byte for byte;
- the floor: a Python process that only reads both files with pyarrow's CSV reader, and the import
  floor: a Python process that only imports numpy, pyarrow.csv and pyarrow._compute (what the command
  line cannot do without; it calls Arrow's kernels without loading pyarrow.compute's generated wrappers),
  and numpy's import alone (the floor of any process built on the metric core: where it takes more than
  twice trec_eval's time, the 50,000-line target cannot be met by a process that imports numpy).

In process, 250,000 lines: ``nr.evaluate`` on the files against pytrec_eval (its own file parsers,
``RelevanceEvaluator``, the mean) and ranx (``Qrels.from_file``, ``Run.from_file``, ``evaluate``),
reading included, the means compared; each tool is called once before 9 timed rounds (ranx compiles its
numba functions then, ours imports its evaluation modules). It runs first: run after the 10^8-line
size (this process then holds gigabytes), ours took 0.114 s instead of 0.071 s while the peers' times did
not change (one run, 2026-12-05), so what the process did before would be measured too.

Targets (issue 24): 50,000 lines at most 2x trec_eval's time; 250,000 lines at most 1x; 10^7 lines at
least 5x faster than trec_eval; 10^8 lines at most 2 GiB of memory; in process at 250,000 lines at least
3x faster than pytrec_eval and than ranx. Ratios, not limits: the numbers depend on the machine and its
load, which the record keeps. The table (CSV) and a figure of time and memory against the number of lines
are written to ``benchmarks/results/`` (``--results``); the rows to ``benchmarks/results/bench_evaluate.json``
(``record.py``) for the documentation's Speed page.
"""

from __future__ import annotations

import argparse
import compileall
import csv
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.csv as pacsv
from record import Recorder

ROOT = Path(__file__).resolve().parent.parent
MEASURES = ["-m", "ndcg", "-m", "ndcg_cut.10"]
IMPORTS = "import numpy, pyarrow.csv, pyarrow._compute"
FLOOR = """
import sys
import pyarrow as pa, pyarrow.csv as pacsv
def read(path, names, types):
    return pacsv.read_csv(path, read_options=pacsv.ReadOptions(column_names=names, block_size=1 << 22),
        parse_options=pacsv.ParseOptions(delimiter=" ", quote_char=False, double_quote=False, escape_char=False),
        convert_options=pacsv.ConvertOptions(include_columns=list(types), column_types=types, check_utf8=False,
                                             strings_can_be_null=False, null_values=[]))
query = pa.dictionary(pa.int32(), pa.binary())
qrels = read(sys.argv[1], ["q", "i", "d", "v"], {"q": query, "d": pa.binary(), "v": pa.int64()})
run = read(sys.argv[2], ["q", "i", "d", "r", "v", "t"], {"q": query, "d": pa.binary(), "v": pa.float64()})
print(qrels.num_rows, run.num_rows)
"""


def write_collection(
    folder: Path, n_queries: int, n_docs: int = 1000, n_judged: int = 200, seed: int = 8, chunk: int = 2000
) -> tuple[Path, Path]:
    """Write ``run.txt`` and ``qrels.txt`` (see the module docstring), ``chunk`` queries at a time; return them."""
    rng = np.random.default_rng(np.random.SeedSequence(seed))
    collection = 5_000_000
    options = pacsv.WriteOptions(include_header=False, delimiter=" ", quoting_style="none")
    half = n_judged // 2

    def repeat(text: str, n: int) -> pa.Array:
        return pa.array([text]).take(pa.array(np.zeros(n, dtype=np.int64)))

    def ids(prefix: str, numbers: np.ndarray) -> pa.Array:
        return pc.binary_join_element_wise(prefix, pc.cast(pa.array(numbers.ravel()), pa.string()), "")

    run_path, qrels_path = folder / "run.txt", folder / "qrels.txt"
    run_writer = qrels_writer = None
    for first in range(0, n_queries, chunk):
        size = min(chunk, n_queries - first)
        docs = np.empty((size, n_docs), dtype=np.int64)
        judged = np.empty((size, n_judged), dtype=np.int64)
        for q in range(size):  # data generation only
            docs[q] = rng.choice(collection, size=n_docs, replace=False)
            top = np.unique(np.minimum((rng.pareto(1.0, size=3 * half) * 20).astype(np.int64), n_docs - 1))[:half]
            if top.size < half:
                rest = np.setdiff1d(np.arange(n_docs), top)
                top = np.concatenate([top, rng.choice(rest, half - top.size, replace=False)])
            others = rng.choice(collection, size=n_judged, replace=False)
            others = others[~np.isin(others, docs[q])][: n_judged - half]
            judged[q] = np.concatenate([docs[q, top], others])
        scores = -np.sort(-np.round(rng.gamma(4.0, 3.0, size=(size, n_docs)), 4), axis=1)
        grades = rng.choice(4, size=judged.shape, p=[0.6, 0.25, 0.1, 0.05])
        qids = np.arange(first + 1, first + size + 1)
        n, m = size * n_docs, size * n_judged
        run = pa.table(
            {
                "q": pc.cast(pa.array(np.repeat(qids, n_docs)), pa.string()),
                "iter": repeat("Q0", n),
                "doc": ids("doc", docs),
                "rank": pa.array(np.tile(np.arange(1, n_docs + 1), size)),
                "score": pa.array(scores.ravel()),
                "tag": repeat("bench", n),
            }
        )
        qrels = pa.table(
            {
                "q": pc.cast(pa.array(np.repeat(qids, n_judged)), pa.string()),
                "iter": repeat("0", m),
                "doc": ids("doc", judged),
                "rel": pa.array(grades.ravel()),
            }
        )
        if run_writer is None:
            run_writer = pacsv.CSVWriter(run_path, run.schema, write_options=options)
            qrels_writer = pacsv.CSVWriter(qrels_path, qrels.schema, write_options=options)
        run_writer.write_table(run)
        qrels_writer.write_table(qrels)
    run_writer.close()
    qrels_writer.close()
    return qrels_path, run_path


def find_trec_eval(given: str | None) -> str | None:
    """A trec_eval binary: the one given, one on PATH, or one built from shared/tools/trec_eval."""
    if given:
        return given
    if shutil.which("trec_eval"):
        return shutil.which("trec_eval")
    for shared in (ROOT.parent / "shared", ROOT.parent.parent / "shared"):
        source = shared / "tools" / "trec_eval"
        if (source / "Makefile").exists():
            build = Path(tempfile.mkdtemp(prefix="trec_eval_build_")) / "trec_eval"
            shutil.copytree(source, build)
            subprocess.run(["make", "-C", str(build)], check=True, capture_output=True)
            return str(build / "trec_eval")
    return None


GNU_TIME = "/usr/bin/time"


def run_child(command: list[str]) -> tuple[float, float, bytes]:
    """Wall seconds, peak resident MiB (this child only) and stdout of a command.

    The peak is GNU time's ``%M`` of the command (its own fork of a small process): a child
    forked from this Python process would inherit this process's resident size in its
    ``ru_maxrss`` (Linux keeps the high-water mark across exec), which would hide the small
    peaks of small runs. Without GNU time, ``ru_maxrss`` is used, with that caveat.
    """
    with tempfile.TemporaryFile() as out, tempfile.NamedTemporaryFile("r") as peak:
        gnu = os.path.exists(GNU_TIME)
        start = time.perf_counter()
        child = subprocess.Popen(
            ([GNU_TIME, "-f", "%M", "-o", peak.name] if gnu else []) + command, stdout=out, stderr=subprocess.DEVNULL
        )
        _, status, usage = os.wait4(child.pid, 0)
        elapsed = time.perf_counter() - start
        if os.waitstatus_to_exitcode(status) != 0:
            raise RuntimeError(f"{command[0]} failed with status {os.waitstatus_to_exitcode(status)}")
        out.seek(0)
        kib = float(peak.read().split()[-1]) if gnu else usage.ru_maxrss
        return elapsed, kib / 1024, out.read()


def side_by_side(qrels: Path, run: Path, trec_eval: str | None, rounds: int) -> dict[str, dict]:
    """Every tool, round-robin, ``rounds`` times: best and worst wall time, peak memory, last output."""
    tools = {
        "ours": [sys.executable, "-m", "ndcg_research", "evaluate", "--quiet", *MEASURES, str(qrels), str(run)],
        "floor": [sys.executable, "-c", FLOOR, str(qrels), str(run)],
        "imports": [sys.executable, "-c", IMPORTS],
        "numpy": [sys.executable, "-c", "import numpy"],
    }
    if trec_eval:
        tools["trec_eval"] = [trec_eval, *MEASURES, str(qrels), str(run)]
    results = {name: {"times": [], "memory": 0.0, "output": b""} for name in tools}
    for _ in range(rounds):
        for name, command in tools.items():
            elapsed, peak, out = run_child(command)
            results[name]["times"].append(elapsed)
            results[name]["memory"] = max(results[name]["memory"], peak)
            results[name]["output"] = out
    return results


def growth(sizes: list[int], trec_eval: str | None, rounds: dict[int, int], folder: Path) -> list[dict]:
    rows = []
    for n_queries in sizes:
        lines = n_queries * 1000
        here = folder / f"q{n_queries}"
        here.mkdir(parents=True, exist_ok=True)
        start = time.perf_counter()
        qrels, run = write_collection(here, n_queries)
        print(
            f"\n{lines:,} run lines ({run.stat().st_size / 1e9:.2f} GB), {n_queries * 200:,} qrels lines: files "
            f"written "
            f"in {time.perf_counter() - start:.0f} s; load average before {os.getloadavg()[0]:.1f}",
            flush=True,
        )
        load_before = os.getloadavg()[0]
        result = side_by_side(qrels, run, trec_eval, rounds.get(n_queries, 1))
        load_after = os.getloadavg()[0]
        ours, floor = result["ours"], result["floor"]
        row = {
            "lines": lines,
            "qrels_lines": n_queries * 200,
            "rounds": len(ours["times"]),
            "ours_s": min(ours["times"]),
            "ours_s_worst": max(ours["times"]),
            "ours_mib": ours["memory"],
            "floor_s": min(floor["times"]),
            "floor_mib": floor["memory"],
            "ours_over_floor": min(ours["times"]) / min(floor["times"]),
            "imports_s": min(result["imports"]["times"]),
            "numpy_s": min(result["numpy"]["times"]),
            "load_before": load_before,
            "load_after": load_after,
        }
        if "trec_eval" in result:
            theirs = result["trec_eval"]
            row |= {
                "trec_eval_s": min(theirs["times"]),
                "trec_eval_s_worst": max(theirs["times"]),
                "trec_eval_mib": theirs["memory"],
                "speedup": min(theirs["times"]) / min(ours["times"]),
                "imports_over_trec_eval": min(result["imports"]["times"]) / min(theirs["times"]),
                "numpy_over_trec_eval": min(result["numpy"]["times"]) / min(theirs["times"]),
                "speedup_per_round": ";".join(
                    f"{t / o:.2f}" for t, o in zip(theirs["times"], ours["times"], strict=True)
                ),
                "memory_ratio": ours["memory"] / theirs["memory"],
                "identical_output": ours["output"] == theirs["output"],
            }
        rows.append(row)
        print(
            f"  ours      best {row['ours_s']:7.2f} s (worst {row['ours_s_worst']:.2f})  peak "
            f"{row['ours_mib']:7.0f} MiB"
        )
        if "trec_eval" in result:
            print(
                f"  trec_eval best {row['trec_eval_s']:7.2f} s (worst {row['trec_eval_s_worst']:.2f})  peak "
                f"{row['trec_eval_mib']:7.0f} MiB"
            )
        print(
            f"  floor     best {row['floor_s']:7.2f} s                 peak {row['floor_mib']:7.0f} MiB "
            f"(pyarrow reads both files, no evaluation)"
        )
        print(f"  imports   best {row['imports_s']:7.2f} s (python -c '{IMPORTS}')")
        print(f"  numpy     best {row['numpy_s']:7.2f} s (python -c 'import numpy')")
        if "trec_eval" in result:
            print(
                f"  speed-up over trec_eval {row['speedup']:.2f}x (per round {row['speedup_per_round']}); memory "
                f"ours / trec_eval {row['memory_ratio']:.2f}; ours / floor {row['ours_over_floor']:.2f}; outputs "
                f"byte-identical: {row['identical_output']}"
            )
            if not row["identical_output"]:
                print("  ours:\n" + ours["output"].decode() + "  trec_eval:\n" + result["trec_eval"]["output"].decode())
        print(f"  load average {load_before:.1f} before, {load_after:.1f} after", flush=True)
        shutil.rmtree(here, ignore_errors=True)
    return rows


#: The targets of issue 24, by number of run lines: their words, and whether a row (with identical output) meets it.
TARGETS: dict[int, tuple[str, Callable[[dict], bool]]] = {
    5 * 10**4: ("at most 2x trec_eval's time", lambda row: 1 / row["speedup"] <= 2),
    25 * 10**4: ("at most 1x trec_eval's time", lambda row: 1 / row["speedup"] <= 1),
    10**7: ("at least 5x faster than trec_eval", lambda row: row["speedup"] >= 5),
    10**8: ("peak memory at most 2 GiB; identical output", lambda row: row["ours_mib"] <= 2048),
}


def record_rows(recorder: Recorder, rows: list[dict]) -> None:
    """One row of the record per size: time and memory against trec_eval, ours / the pyarrow read, the import floor."""
    for row in rows:
        task = (
            f"{row['lines']:,} run lines, {row['qrels_lines']:,} qrels lines: evaluate -m ndcg -m ndcg_cut.10, "
            f"whole process"
        )
        floor = f"ours / pyarrow reading the files alone {row['ours_over_floor']:.2f}"
        load = f"load average {row['load_before']:.1f} before, {row['load_after']:.1f} after"
        target, meets = TARGETS.get(row["lines"], ("", None))
        if "speedup" not in row:
            recorder.row(
                task,
                f"{row['ours_s']:.2f} s, {row['ours_mib']:.0f} MiB; {floor} (no trec_eval); "
                f"best of {row['rounds']} rounds; {load}",
                "",
            )
            continue
        recorder.row(
            task,
            f"ours / trec_eval 10.0 time {1 / row['speedup']:.2f} (speed-up {row['speedup']:.2f}x; ours "
            f"{row['ours_s']:.3f} s, trec_eval {row['trec_eval_s']:.3f} s; speed-up per round "
            f"{row['speedup_per_round'].replace(';', ', ')}), best of {row['rounds']} rounds; the imports "
            f"alone "
            f"(numpy, pyarrow) take {row['imports_over_trec_eval']:.2f}x trec_eval's time, numpy's alone "
            f"{row['numpy_over_trec_eval']:.2f}x; peak memory ours / "
            f"trec_eval {row['memory_ratio']:.2f} ({row['ours_mib']:.0f} MiB, "
            f"{row['trec_eval_mib']:.0f} MiB); "
            f"{floor}; output byte-identical: {'yes' if row['identical_output'] else 'NO'}; {load}",
            target or "information",
            None if meets is None else bool(row["identical_output"] and meets(row)),
        )


def write_results(rows: list[dict], results: Path) -> None:
    """The growth table (CSV) and its figure (time and peak memory against the number of run lines)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    results.mkdir(parents=True, exist_ok=True)
    columns = list(dict.fromkeys(key for row in rows for key in row))
    with open(results / "evaluate_growth.csv", "w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=columns, lineterminator="\n")
        writer.writeheader()
        for row in rows:
            writer.writerow({k: (f"{v:.4g}" if isinstance(v, float) else v) for k, v in row.items()})
    lines = [r["lines"] for r in rows]
    figure, (left, right) = plt.subplots(1, 2, figsize=(10, 4))
    for key, label, style in (
        ("ours", "ours (evaluate)", "o-"),
        ("trec_eval", "trec_eval 10.0", "s-"),
        ("floor", "floor: pyarrow reads the files", "^--"),
    ):
        if f"{key}_s" in rows[0]:
            left.plot(lines, [r[f"{key}_s"] for r in rows], style, label=label)
            right.plot(lines, [r[f"{key}_mib"] for r in rows], style, label=label)
    right.axhline(2048, color="grey", linestyle=":", label="2 GiB")
    for axis, title, unit in ((left, "wall time (best of rounds)", "seconds"), (right, "peak memory", "MiB")):
        axis.set_xscale("log")
        axis.set_yscale("log")
        axis.set_xlabel("run lines (1,000 per query; 200 qrels lines per query)")
        axis.set_ylabel(unit)
        axis.set_title(title)
        axis.grid(True, which="both", alpha=0.3)
    left.legend()
    right.legend()
    figure.suptitle("python -m ndcg_research evaluate -m ndcg -m ndcg_cut.10, whole process, 2 shared cores")
    figure.tight_layout()
    figure.savefig(results / "evaluate_growth.png", dpi=110)
    print(f"\nwrote {results / 'evaluate_growth.csv'} and {results / 'evaluate_growth.png'}")


def in_process(qrels: Path, run: Path, rounds: int, recorder: Recorder, lines: int) -> None:
    """In process, reading included: ours against pytrec_eval and ranx, each called once before timing, the means
    compared."""
    import ndcg_research as nr

    def ours() -> dict[str, float]:
        result = nr.evaluate(str(qrels), str(run), ["ndcg", "ndcg_cut.10"])
        return dict(zip(("ndcg", "ndcg_cut_10"), result.mean_values[0], strict=True))

    tools = {"ours (nr.evaluate, reading included)": ours}
    try:
        import pytrec_eval

        def with_pytrec_eval() -> dict[str, float]:
            with open(qrels) as q, open(run) as r:
                judged, ranked = pytrec_eval.parse_qrel(q), pytrec_eval.parse_run(r)
            values = pytrec_eval.RelevanceEvaluator(judged, {"ndcg", "ndcg_cut.10"}).evaluate(ranked)
            return {m: float(np.mean([v[m] for v in values.values()])) for m in ("ndcg", "ndcg_cut_10")}

        tools["pytrec_eval (its parsers, evaluate, mean)"] = with_pytrec_eval
    except ImportError:
        print("pytrec_eval not installed: skipped")
    try:
        import ranx

        def with_ranx() -> dict[str, float]:
            values = ranx.evaluate(
                ranx.Qrels.from_file(str(qrels), kind="trec"),
                ranx.Run.from_file(str(run), kind="trec"),
                ["ndcg", "ndcg@10"],
            )
            return {"ndcg": values["ndcg"], "ndcg_cut_10": values["ndcg@10"]}

        tools["ranx (from_file, evaluate)"] = with_ranx
    except ImportError:
        print("ranx not installed: skipped")
    for function in tools.values():  # each once before timing: lazy imports, numba's compilation, memory pools
        function()
    times: dict[str, list[float]] = {name: [] for name in tools}
    values = {}
    load_before = os.getloadavg()[0]
    for _ in range(rounds):
        for name, function in tools.items():
            start = time.perf_counter()
            values[name] = function()
            times[name].append(time.perf_counter() - start)
    load_after = os.getloadavg()[0]
    ours_name = next(iter(tools))
    print(f"{'tool':42s} {'best s':>8s} {'ours faster':>12s}  max |mean difference|")
    for name in tools:
        ratio = min(times[name]) / min(times[ours_name])
        diff = max(abs(values[name][m] - values[ours_name][m]) for m in values[ours_name])
        print(f"{name:42s} {min(times[name]):8.3f} {ratio:11.2f}x  {diff:.2e}")
        if name != ours_name:
            per_round = ", ".join(f"{t / o:.2f}" for t, o in zip(times[name], times[ours_name], strict=True))
            recorder.row(
                f"{lines:,} run lines in process, reading included: ours against {name}",
                f"ours faster {ratio:.2f}x (ours {min(times[ours_name]):.3f} s, theirs "
                f"{min(times[name]):.3f} s; "
                f"per round {per_round}), best of {rounds} rounds; means differ by at most {diff:.1e}; load "
                f"average {load_before:.1f} before, {load_after:.1f} after",
                "at least 3x faster",
                met=ratio >= 3,
            )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="50,000 and 250,000 lines only")
    parser.add_argument("--huge", action="store_true", help="add 10^8 lines (about 3.4 GB of files, 1 round)")
    parser.add_argument(
        "--no-in-process",
        dest="in_process",
        action="store_false",
        help="skip the in-process comparison with pytrec_eval and ranx",
    )
    parser.add_argument("--trec-eval", help="path of a trec_eval binary")
    parser.add_argument("--rounds", type=int, default=3, help="rounds of the 10^7-line size (default 3)")
    parser.add_argument("--folder", help="write the files here (default: a temporary folder, removed afterwards)")
    parser.add_argument(
        "--results",
        default=str(ROOT / "benchmarks" / "results"),
        help="where the growth table and figure go (default benchmarks/results)",
    )
    args = parser.parse_args(argv)
    recorder = Recorder(
        "bench_evaluate", " ".join(["python benchmarks/bench_evaluate.py", *(sys.argv[1:] if argv is None else argv)])
    )
    sizes = [50, 250] if args.quick else [50, 250, 10_000]
    # Small sizes take under a second a round, and this machine's wall times of a start-up-bound process
    # spread over 2x from round to round (page faults, a memory reclaimer): they get 9 rounds.
    rounds = {q: (9 if q <= 250 else args.rounds) for q in sizes}
    folder = Path(args.folder) if args.folder else Path(tempfile.mkdtemp(prefix="bench_evaluate_"))
    if args.huge:
        free = shutil.disk_usage(folder).free
        if free < 12e9:
            print(
                f"--huge needs about 12 GB free beside {folder} (3.4 GB run, 0.4 GB qrels, and room); "
                f"{free / 1e9:.1f} GB free: 10^8 skipped"
            )
        else:
            sizes.append(100_000)
            rounds[100_000] = 1
    trec_eval = find_trec_eval(args.trec_eval)
    compileall.compile_dir(ROOT / "ndcg_research", quiet=1)
    print(
        f"machine: {os.cpu_count()} cores; load average {os.getloadavg()[0]:.1f}; python {sys.version.split()[0]}; "
        f"trec_eval: {trec_eval or 'not found (give --trec-eval PATH): no comparison'}"
    )
    try:
        if args.in_process:  # first: after the large sizes this process holds gigabytes, which slowed pyarrow here
            here = folder / "in_process"
            here.mkdir(parents=True, exist_ok=True)
            print("\nin process, 250,000 run lines")
            in_process(*write_collection(here, 250), 9, recorder, 250_000)  # under a second a round
        rows = growth(sizes, trec_eval, rounds, folder)
        write_results(rows, Path(args.results))
        record_rows(recorder, rows)
        print(f"written: {recorder.write()}")
    finally:
        if not args.folder:
            shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
