"""Differential check of ``ndcg-research evaluate`` against trec_eval 10.0, byte for byte, on random files.

    python tools/differential.py                    # about 2 minutes (CI's bounded step)
    python tools/differential.py --seconds 1800     # longer, on request
    python tools/differential.py --cases 500 --seed 7

Each case writes random qrels and run files with what makes evaluators disagree: tied scores (coarse,
constant, written with exponents or signs), document ids whose string order differs from their numeric
order, long ids, interleaved queries, comment and blank lines, tabs and runs of blanks, CRLF line ends,
extra fields, a missing final newline, negative and large grades, queries judged but not ranked (with
``-c``) and ranked but not judged, tags with non-UTF-8 bytes; and options: ``-q``, ``-c``, ``-J``,
``-M N`` (0 too), ``-n``, ``ndcg``, ``ndcg_cut`` (default and given cut-offs), gain maps (``ndcg.1=3,2=9``),
``runid``, ``num_q``. ``evaluate`` reads the files (gzip-compressed in some cases, or from standard
input) and its output must equal trec_eval's on the plain files, byte for byte, exit status included.
Every value must also be trec_eval's to the last bit: a second trec_eval, built to print 17 significant
digits instead of 4 decimals, is compared with ``evaluate --format csv`` (whose floats are exact), so that
a value near a rounding boundary of the 4 decimals cannot agree by luck.

Then the claims the evaluator's messages make about trec_eval are checked against the binary: where
``evaluate`` refuses a line that trec_eval reads otherwise (a hexadecimal score, a grade with a
fraction or an exponent, the qrels comment rule), the refusal happens and trec_eval does read it the
way the message says.

trec_eval's source is looked for at ``$TREC_EVAL_SRC``, then ``<repository>/../shared/tools/trec_eval``,
then ``/work/shared/tools/trec_eval``, and built in a temporary folder. Without it the check says so
loudly and exits 0: the project's own tests do not need it (they compare with pytrec-eval-terrier).
A failing case is kept in ``build/differential/`` with the command lines to replay it. Exit status: 0
when every case agreed, 1 otherwise.
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import gzip
import io
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from ndcg_research.cli import main  # noqa: E402  (the repository's package, not an installed one)


def trec_eval_source() -> Path | None:
    """Where trec_eval's source is, or None."""
    candidates = [
        os.environ.get("TREC_EVAL_SRC"),
        ROOT.parent / "shared" / "tools" / "trec_eval",
        "/work/shared/tools/trec_eval",
    ]
    for candidate in candidates:
        if candidate and (Path(candidate) / "Makefile").is_file():
            return Path(candidate)
    return None


def build_trec_eval(source: Path, folder: Path, *, all_digits: bool = False) -> Path:
    """Build a copy of trec_eval in ``folder``; return the binary. ``all_digits``: its values printed with 17
    significant digits (``%.17g``, enough to read the double back exactly) instead of ``%6.4f``."""
    copy = folder / ("trec_eval_17" if all_digits else "trec_eval")
    shutil.copytree(source, copy)
    if all_digits:
        for name in ("meas_print_single.c", "meas_print_final.c"):
            path = copy / name
            path.write_text(path.read_text().replace("%6.4f", "%.17g"))
    subprocess.run(["make", "-C", str(copy)], check=True, capture_output=True)
    return copy / "trec_eval"


@dataclass
class Case:
    """One comparison: the files, the options, how ``evaluate`` reads them."""

    qrels: bytes
    run: bytes
    options: list[str]
    gzip_qrels: bool = False
    gzip_run: bool = False
    stdin: bool = False
    notes: list[str] = field(default_factory=list)


# ---------------------------------------------------------------- random cases


def _doc_id(rng: np.random.Generator, n: int) -> str:
    style = rng.integers(0, 6)
    if style == 0:
        return f"d{n}"  # d10 < d9 as strings
    if style == 1:
        return f"DOC-{n:06d}"
    if style == 2:
        return f"{n}"
    if style == 3:
        return f"clueweb09-en{n % 7:04d}-{n:02d}-{n * 7 % 1000:05d}"
    if style == 4:
        return "x" * int(rng.integers(1, 4)) + f"{n}" + "y" * int(rng.integers(0, 200) if rng.random() < 0.1 else 0)
    return f"Ä{n}".encode().decode() if rng.random() < 0.5 else f"doc_{n}.html"


def _score(rng: np.random.Generator, style: int, i: int) -> str:
    if style == 0:
        return f"{int(rng.integers(0, 5))}"  # coarse: many ties
    if style == 1:
        return f"{rng.normal():.2f}"
    if style == 2:
        return "1.5"  # one tie across the whole list
    if style == 3:
        return f"{rng.normal() * 10 ** int(rng.integers(-3, 4)):e}"  # exponents
    if style == 4:
        return rng.choice(["+", ""]) + f"{rng.integers(0, 100)}." + ("5" if rng.random() < 0.5 else "")
    return repr(float(100 - i) + float(rng.integers(0, 3)) * 1e-9)


def random_case(rng: np.random.Generator) -> Case:
    large = rng.random() < 0.02  # several MB: read in several blocks, parsed in several chunks
    n_queries = int(rng.integers(30, 80)) if large else int(rng.integers(1, 10))
    qids: list[str] = []
    while len(qids) < n_queries:
        qid = str(int(rng.integers(1, 300))) if rng.random() < 0.6 else f"topic-{int(rng.integers(0, 50))}"
        if qid not in qids:
            qids.append(qid)
    complete = rng.random() < 0.5
    qrels_lines: list[str] = []
    run_lines: list[list[str]] = []
    tag = rng.choice(["run", "bm25", "tag-\udce9", "x"])
    top = int(rng.choice([1, 2, 3, 4, 10, 200]))
    for q, qid in enumerate(qids):
        size = int(rng.integers(500, 3000)) if large else int(rng.integers(1, 60))
        pool = [_doc_id(rng, int(n)) for n in rng.choice(50_000 if large else 5000, size, replace=False)]
        pool = list(dict.fromkeys(pool))
        grades = {d: int(rng.integers(-1 if rng.random() < 0.2 else 0, top + 1)) for d in pool if rng.random() < 0.6}
        if not any(g >= 0 for g in grades.values()):
            grades[pool[0]] = int(rng.integers(0, top + 1))
        unranked = complete and rng.random() < 0.2  # judged, not ranked: needs -c
        judged = rng.random() < 0.85 or q == 0 or unranked
        if judged:
            qrels_lines += [f"{qid} 0 {d} {g}" for d, g in grades.items()]
        if unranked:
            continue
        style = int(rng.integers(0, 6))
        retrieved = [d for d in pool if rng.random() < 0.7] or pool[:1]
        for i, d in enumerate(retrieved):
            run_lines.append([qid, "Q0", d, str(int(rng.integers(0, 1000))), _score(rng, style, i), str(tag)])
    if not run_lines:  # a run needs one line of a judged query
        qid = qrels_lines[0].split()[0]
        run_lines.append([qid, "Q0", "only", "1", "1.0", str(tag)])
    options = _options(rng, complete)
    # A document ranked twice for one query, anywhere: both refuse (trec_eval among the documents -M keeps;
    # with -m runid or num_q alone trec_eval checks nothing, evaluate still does: a difference left out).
    if rng.random() < 0.03 and any(o.startswith("ndcg") for o in options):
        twice = run_lines[int(rng.integers(0, len(run_lines)))]
        run_lines.insert(int(rng.integers(0, len(run_lines) + 1)), [*twice[:4], "0.5", twice[5]])
    if rng.random() < 0.03 and any(o.startswith("ndcg") for o in options):  # a document judged twice
        judged_twice = qrels_lines[int(rng.integers(0, len(qrels_lines)))]
        qrels_lines.insert(int(rng.integers(0, len(qrels_lines) + 1)), judged_twice)
    interleaved = rng.random() < 0.5
    if interleaved:  # read whole instead of in blocks (standard input: again, from the copy kept as it is read)
        order = rng.permutation(len(run_lines))
        run_lines = [run_lines[i] for i in order]
    if rng.random() < 0.3:
        rng.shuffle(qrels_lines)
    run_text = _layout(rng, [fields for fields in run_lines], run=True)
    qrels_text = _layout(rng, [line.split() for line in qrels_lines], run=False)
    gzip_run = rng.random() < 0.2
    return Case(
        qrels_text,
        run_text,
        options,
        gzip_qrels=rng.random() < 0.2,
        gzip_run=gzip_run,
        stdin=rng.random() < 0.05,
    )


def _layout(rng: np.random.Generator, rows: list[list[str]], *, run: bool) -> bytes:
    """Lines with the blanks, comments and line ends trec_eval's grammar allows (qrels: its stricter rule)."""
    out: list[bytes] = []
    blank = rng.choice([" ", "\t", "  ", " \t "]) if rng.random() < 0.4 else " "
    for fields in rows:
        if run and rng.random() < 0.05:
            out.append(rng.choice([b"", b"   ", b"# a comment", b"  # indented comment 1 2 3 4 5 6"]))
        if not run and rng.random() < 0.05 and out and not out[-1].startswith(b"#"):
            out.append(b"# a comment line " + str(rng.integers(0, 9)).encode())
        line = str(blank).join(fields)
        if run and rng.random() < 0.1:
            line += " extra fields"
        if run and rng.random() < 0.1:
            line = "  " + line
        out.append(line.encode("utf-8", "surrogateescape"))
    end = b"\r\n" if rng.random() < 0.1 else b"\n"
    text = end.join(out)
    return text if rng.random() < 0.1 else text + end


def _options(rng: np.random.Generator, complete: bool) -> list[str]:
    options = []
    if rng.random() < 0.6:
        options.append("-q")
    if complete or rng.random() < 0.2:
        options.append("-c")
    if rng.random() < 0.3:
        options.append("-J")
    if rng.random() < 0.3:
        options += ["-M", "0" if rng.random() < 0.2 else str(int(rng.integers(1, 30)))]  # -M 0: every query 0
    if "-q" in options and rng.random() < 0.15:
        options.append("-n")
    measures = []
    if rng.random() < 0.7:
        # (a blank after a gain map stays in the name trec_eval prints: seen once the name passes 22 characters)
        blank = str(rng.choice(["", "", "", " ", "\t"]))
        measures.append("ndcg" if rng.random() < 0.6 else "ndcg." + _gain_map(rng) + blank)
    if rng.random() < 0.6:
        cutoffs = sorted({int(k) for k in rng.integers(1, 40, int(rng.integers(1, 4)))})
        measures.append("ndcg_cut" if rng.random() < 0.3 else "ndcg_cut." + ",".join(map(str, cutoffs)))
    if rng.random() < 0.2:
        measures.append("runid")
    if rng.random() < 0.2:
        measures.append("num_q")
    for m in measures or ["ndcg"]:
        options += ["-m", m]
    return options


def _gain_map(rng: np.random.Generator) -> str:
    """A gain map whose gains differ by 0 or at least 1 from each other and from unlisted levels.

    trec_eval sorts gain levels with a comparison that truncates their difference to an integer
    (gain_init.c, comp_rel_gain): gains less than 1 apart are misordered there, on purpose computed
    correctly by ``evaluate`` (with a note); the differential leaves that documented difference out.
    """
    while True:
        levels = sorted({int(x) for x in rng.integers(0, 5, int(rng.integers(1, 4)))})
        gains = {level: float(rng.integers(-2, 12)) + (0.5 if rng.random() < 0.3 else 0.0) for level in levels}
        values = list(gains.values()) + [float(v) for v in range(0, 201) if v not in gains]
        values = np.unique(values)
        if not np.any((np.diff(values) > 0) & (np.diff(values) < 1)):
            return ",".join(f"{level}={gain:g}" for level, gain in gains.items())


# ---------------------------------------------------------------- running both


def run_ours(argv: list[str], stdin: bytes | None = None) -> tuple[int, bytes, str]:
    """``ndcg-research evaluate ARGV`` in this process: exit status, standard output bytes, standard error."""
    out, err = io.BytesIO(), io.StringIO()
    wrapper = io.TextIOWrapper(out, encoding="utf-8", errors="surrogateescape")
    old_stdin = sys.stdin
    if stdin is not None:
        sys.stdin = io.TextIOWrapper(io.BufferedReader(io.BytesIO(stdin)))  # a pipe's buffer can peek
    try:
        with contextlib.redirect_stdout(wrapper), contextlib.redirect_stderr(err):
            status = main(["evaluate", "--quiet", *argv])
            wrapper.flush()
    finally:
        sys.stdin = old_stdin
    return status, out.getvalue(), err.getvalue()


def run_trec_eval(binary: Path, argv: list[str]) -> tuple[int, bytes, str]:
    result = subprocess.run([str(binary), *argv], capture_output=True, timeout=120)
    return result.returncode, result.stdout, result.stderr.decode(errors="replace")


def compare(binary: Path, case: Case, folder: Path) -> str | None:
    """Run both on ``case``; None when they agree, else what differs."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "qrels").write_bytes(case.qrels)
    (folder / "run").write_bytes(case.run)
    theirs = run_trec_eval(binary, [*case.options, str(folder / "qrels"), str(folder / "run")])
    qrels, run = folder / "qrels", folder / "run"
    if case.gzip_qrels:
        qrels = folder / "qrels.gz"
        qrels.write_bytes(gzip.compress(case.qrels))
    if case.gzip_run:
        run = folder / "run.gz"
        run.write_bytes(gzip.compress(case.run))
    ours = run_ours(
        [*case.options, str(qrels), "-" if case.stdin else str(run)], stdin=run.read_bytes() if case.stdin else None
    )
    if theirs[0] != 0:
        case.notes.append("both refused")
        return None if ours[0] != 0 else f"trec_eval refused ({theirs[0]}: {theirs[2].strip()}), evaluate did not"
    if ours[0] != 0:
        return f"evaluate refused (status {ours[0]}: {ours[2].strip()}), trec_eval did not"
    if ours[1] != theirs[1]:
        return (
            "outputs differ:\n--- trec_eval\n"
            + theirs[1].decode(errors="replace")
            + "--- evaluate\n"
            + ours[1].decode(errors="replace")
        )
    return None


def compare_digits(binary: Path, case: Case, folder: Path) -> str | None:
    """Every value of a case both evaluated, to the last bit: trec_eval's 17 digits against the exact CSV floats."""
    options = [o for o in case.options if o != "-n"]  # the means are compared too
    files = [str(folder / "qrels"), str(folder / "run")]
    status, out, _ = run_trec_eval(binary, ["-q", *options, *files])
    ours = run_ours(["-q", "--format", "csv", *options, *files])
    if status != 0 or ours[0] != 0:
        return f"the 17-digit comparison: trec_eval status {status}, evaluate status {ours[0]}"
    theirs = {}
    for line in out.decode(errors="surrogateescape").splitlines():
        measure, query, value = (field.strip() for field in line.rsplit("\t", 2))  # (a gain map's name may hold one)
        if measure not in ("runid", "num_q"):
            theirs[measure, query] = float(value)
    rows = list(csv.reader(io.StringIO(ours[1].decode(errors="surrogateescape"))))[1:]
    if not theirs or any(query == "all" for _, query, _, _ in rows):
        return None  # only runid / num_q asked for; or a query named as trec_eval's means, lines not told apart
    mine = {(m.strip(), query or "all"): float(value) for _, query, m, value in rows if m not in ("runid", "num_q")}
    if len(mine) != len(theirs):
        return f"the 17-digit comparison: {len(theirs)} values from trec_eval, {len(mine)} from evaluate"
    differ = [(key, theirs[key], mine.get(key)) for key in theirs if mine.get(key) != theirs[key]]
    if differ:
        key, t, o = differ[0]
        return f"{len(differ)} values differ in their last bits, e.g. {key}: trec_eval {t!r}, evaluate {o!r}"
    return None


# ---------------------------------------------------------------- the messages' claims about trec_eval


def check_claims(binary: Path, folder: Path) -> list[str]:
    """Where ``evaluate`` refuses a line trec_eval reads otherwise, check the refusal and what the message claims."""
    failures = []
    folder.mkdir(parents=True, exist_ok=True)
    qrels = b"q 0 a 1\nq 0 b 2\nq 0 c 0\n"
    # Scores: the message says what atof (strtod) reads; trec_eval's output must be that of the number said.
    for text in ["0x1p1", "0x1.8p0", "0X10", "1_5", "2abc", "-0x.8p2", "0x1p99999"]:
        run = f"q Q0 a 1 {text} r\nq Q0 b 2 1.75 r\nq Q0 c 3 0.5 r\n".encode()
        failures += _claim(binary, folder, qrels, run, rb"atof reads ([-0-9.e+inf]+)", run_side=True, token=text)
    # Grades: the message says what atol reads.
    for text in ["1.9999999999999999", "0.99999999999999999", "1e1", "2.5"]:
        graded = f"q 0 a {text}\nq 0 b 2\nq 0 c 0\n".encode()
        failures += _claim(
            binary,
            folder,
            graded,
            b"q Q0 a 1 3 r\nq Q0 b 2 2 r\nq Q0 c 3 1 r\n",
            rb"atol,? (?:which )?(?:would read|reads) (-?[0-9]+)",
            run_side=False,
            token=text,
        )
    # The qrels comment rule: trec_eval reads the second of two comment lines as a judgment of query '#'.
    (folder / "qrels").write_bytes(b"# one\n# a b 1\nq 0 a 1\n")
    (folder / "run").write_bytes(b"q Q0 a 1 1 r\n")
    ours = run_ours([str(folder / "qrels"), str(folder / "run")])
    theirs = run_trec_eval(binary, ["-c", "-q", "-m", "ndcg", str(folder / "qrels"), str(folder / "run")])
    if ours[0] != 1 or "right after another comment line" not in ours[2]:
        failures.append(f"consecutive comments: evaluate did not refuse them ({ours[2].strip()})")
    if b"ndcg                  \t#\t" not in theirs[1]:
        failures.append("consecutive comments: trec_eval did not read the second one as a judgment of query '#'")
    for text, what in [(b"q 0 a 1\n\nq 0 b 1\n", "a blank line"), (b"q 0 a 1\n# end\n", "a final comment line")]:
        (folder / "qrels").write_bytes(text)
        ours = run_ours([str(folder / "qrels"), str(folder / "run")])
        theirs = run_trec_eval(binary, [str(folder / "qrels"), str(folder / "run")])
        if ours[0] != 1:
            failures.append(f"{what} in qrels: evaluate did not refuse it")
        if theirs[0] == 0:
            failures.append(f"{what} in qrels: trec_eval read it without failing, as the message says it does not")
    failures += _more_claims(binary, folder)
    return failures


def _more_claims(binary: Path, folder: Path) -> list[str]:
    """Lines that look like qrels comments but are data to trec_eval, NUL bytes, cut-offs 2^31 apart."""
    failures = []
    qrels, run = folder / "qrels", folder / "run"
    run.write_bytes(b"q Q0 a 1 1 r\nq Q0 b 2 0.5 r\n")
    for text in (b"q 0 a 1\n  # note\n", b"# one\n# two\nq 0 a 1\n"):  # not 4 fields: "Malformed line"
        qrels.write_bytes(text)
        ours, theirs = run_ours([str(qrels), str(run)]), run_trec_eval(binary, [str(qrels), str(run)])
        if ours[0] != 1 or "Malformed line" not in ours[2] or "Malformed line" not in theirs[2]:
            failures.append(f"{text!r}: evaluate says trec_eval finds it malformed: {ours[2].strip()} / {theirs[2]}")
    # A NUL at the start of a line ends the file for trec_eval: its output is that of the lines before.
    qrels.write_bytes(b"q 0 a 1\nq 0 b 2\n")
    run.write_bytes(b"q Q0 a 1 1 r\n\x00q Q0 b 2 2 r\n")
    ours, theirs = run_ours([str(qrels), str(run)]), run_trec_eval(binary, [str(qrels), str(run)])
    (folder / "cut").write_bytes(b"q Q0 a 1 1 r\n")
    if (
        ours[0] != 1
        or "it ends the file there" not in ours[2]
        or theirs != run_trec_eval(binary, [str(qrels), str(folder / "cut")])
    ):
        failures.append("a NUL beginning a line: trec_eval did not end the file there, as the message says")
    # Cut-offs 2^31 apart: trec_eval's comparison (their difference as a C int) puts them out of order.
    run.write_bytes(b"q Q0 a 1 2 r\nq Q0 b 2 1 r\n")
    ours = run_ours(["-m", "ndcg_cut.1,3000000000", str(qrels), str(run)])
    theirs = run_trec_eval(binary, ["-m", "ndcg_cut.1,3000000000", str(qrels), str(run)])
    if ours[0] != 1 or "comp_long" not in ours[2] or not theirs[1].startswith(b"ndcg_cut_3000000000"):
        failures.append("cut-offs 2^31 apart: trec_eval did not put them out of order, as the message says")
    return failures


def _claim(
    binary: Path, folder: Path, qrels: bytes, run: bytes, pattern: bytes, *, run_side: bool, token: str
) -> list[str]:
    (folder / "qrels").write_bytes(qrels)
    (folder / "run").write_bytes(run)
    ours = run_ours([str(folder / "qrels"), str(folder / "run")])
    found = re.search(pattern.decode(), ours[2])
    if ours[0] != 1 or found is None:
        return [f"{token!r}: evaluate did not refuse it saying what trec_eval reads ({ours[2].strip()})"]
    said = found.group(1)
    theirs = run_trec_eval(binary, ["-q", str(folder / "qrels"), str(folder / "run")])
    (folder / "said_qrels").write_bytes(qrels if run_side else qrels.replace(token.encode(), said.encode()))
    (folder / "said_run").write_bytes(run.replace(token.encode(), said.encode()) if run_side else run)
    same = run_trec_eval(binary, ["-q", str(folder / "said_qrels"), str(folder / "said_run")])
    if theirs != same:
        return [f"{token!r}: evaluate says trec_eval reads {said}, but trec_eval's output differs from that of {said}"]
    return []


# ---------------------------------------------------------------- main


def main_(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=120.0, help="stop after this long (default 120)")
    parser.add_argument("--cases", type=int, default=None, help="stop after this many cases")
    parser.add_argument("--seed", type=int, default=20260524, help="seed of the random cases")
    parser.add_argument("--keep", default=str(ROOT / "build" / "differential"), help="where failing cases go")
    args = parser.parse_args(argv)
    source = trec_eval_source()
    if source is None:
        print(
            "=" * 78 + "\nDIFFERENTIAL CHECK NOT RUN: trec_eval's source was not found (set TREC_EVAL_SRC, or put it "
            "at ../shared/tools/trec_eval).\nThe project's tests do not need it; this check compares with the real "
            "binary when it is there.\n" + "=" * 78,
            flush=True,
        )
        return 0
    start = time.monotonic()
    rng = np.random.default_rng(np.random.SeedSequence(args.seed))
    with tempfile.TemporaryDirectory(prefix="differential_") as scratch:
        binary = build_trec_eval(source, Path(scratch))
        binary_17 = build_trec_eval(source, Path(scratch), all_digits=True)
        print(f"trec_eval built from {source}; seed {args.seed}", flush=True)
        failures = check_claims(binary, Path(scratch) / "claims")
        claims_hold = not failures
        for failure in failures:
            print(f"CLAIM FAILED: {failure}", flush=True)
        n = agreed = refused = digits = 0
        kept = Path(args.keep)
        while (args.cases is None or n < args.cases) and time.monotonic() - start < args.seconds:
            case = random_case(rng)
            problem = compare(binary, case, Path(scratch) / "case")
            if problem is None and "both refused" not in case.notes:
                problem = compare_digits(binary_17, case, Path(scratch) / "case")
                digits += problem is None
            n += 1
            if problem is None:
                agreed += 1
                refused += "both refused" in case.notes
                continue
            folder = kept / f"case-{n}"
            shutil.rmtree(folder, ignore_errors=True)
            shutil.copytree(Path(scratch) / "case", folder)
            (folder / "README").write_text(
                f"trec_eval {' '.join(case.options)} qrels run\nndcg-research evaluate "
                f"{' '.join(case.options)} qrels{'.gz' if case.gzip_qrels else ''} "
                f"{'- < run' if case.stdin else 'run.gz' if case.gzip_run else 'run'}\n\n"
                f"{problem}\n"
            )
            failures.append(f"case {n} ({folder}): {problem.splitlines()[0]}")
            print(f"CASE {n} DIFFERS, kept in {folder}:\n{problem}", flush=True)
    print(
        f"{agreed} of {n} random cases agree with trec_eval 10.0 ({agreed - refused} byte-identical outputs, "
        f"{refused} refused by both; every value to the last bit in {digits}) in {time.monotonic() - start:.0f} s; the "
        f"messages' claims about trec_eval: {'all hold' if claims_hold else 'see CLAIM FAILED above'}",
        flush=True,
    )
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main_())
