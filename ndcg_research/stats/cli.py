"""The ``compare`` command: ``python -m ndcg_research compare QRELS RUN_A RUN_B [RUN ...] [-m MEASURE] ...``.

For each measure: every run's mean with its confidence interval, then every pair of runs with
the mean difference, its interval, the p-value and the adjusted p-value
(:func:`ndcg_research.stats.compare_systems` on the per-query values of
:func:`ndcg_research.stats.runs.run_matrices`). Exit status: 0 on success, 1 on bad input (a
message naming the file and line, or the argument), 2 on bad usage.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from ..evaluation.cli import add_collection_arguments, non_negative_int, number_argument, positive_int

__all__ = ["register", "run", "TESTS", "CORRECTIONS", "INTERVALS", "FORMATS"]

#: Choices of the options (the library's: :data:`ndcg_research.stats.compare.COMPARE_METHODS`,
#: :data:`ndcg_research.stats.multiple.CORRECTIONS`, :data:`ndcg_research.stats.intervals.INTERVALS`;
#: repeated here so that ``--help`` does not import scipy, and tested to stay equal).
TESTS = ("t", "wilcoxon", "permutation", "bootstrap", "tukey")
CORRECTIONS = ("holm", "bonferroni", "bh", "none")
INTERVALS = ("t", "percentile", "bca")
FORMATS = ("text", "csv", "json")

_DESCRIPTION = """\
Compare systems on a test collection: for each measure, every run's mean with its confidence
interval, then every pair of runs with the mean difference (first minus second), its confidence
interval, the p-value of a paired test over the queries and the p-value adjusted for the number of
pairs. Measures (-m, repeatable) as in the evaluate command: ndcg, ndcg@10,
"ndcg@10(gain=exp2, discount='power(beta=0.5)')", ndcg_cut.10. A judged query missing from a run
scores 0 for it (trec_eval -c), so that every run is compared on the same queries; --answered-only
keeps only the queries every run answered instead.
"""


# One parser of numeric options for every command (evaluation.cli): same texts accepted, same messages.
_level = number_argument(float, minimum=0, maximum=1, strict=True)


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``compare`` command to the subcommands of ``python -m ndcg_research``."""
    parser = sub.add_parser(
        "compare",
        help="compare runs: means with confidence intervals, paired tests of every pair, adjusted p-values",
        description=_DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_collection_arguments(parser, runs_help="two or more run files (query Q0 document rank score tag)",
                             measure_help="measure (repeatable; default ndcg)")
    parser.add_argument("--test", default="t", choices=TESTS,
                        help="paired test of each pair (default t); tukey: randomised Tukey HSD over all runs")
    parser.add_argument("--correction", default=None, choices=CORRECTIONS,
                        help="multiple-comparison correction (default holm; none for --test tukey)")
    parser.add_argument("--interval", default=None, choices=INTERVALS,
                        help="confidence interval (default t for --test t, else percentile bootstrap)")
    parser.add_argument("--confidence", type=_level, default=0.95, help="confidence level (default 0.95)")
    parser.add_argument("--resamples", type=positive_int, default=10_000,
                        help="bootstrap resamples / random sign flips / Tukey permutations (default 10000)")
    parser.add_argument("--seed", type=non_negative_int, default=0, help="seed of the resamples (default 0)")
    parser.add_argument("--answered-only", action="store_true",
                        help="compare on the queries every run answered instead of scoring missing ones 0")
    parser.add_argument("--format", default="text", choices=FORMATS, help="output format (default text)")
    parser.add_argument("-j", "--jobs", type=positive_int, default=1, help="worker threads (results do not depend on it)")
    parser.set_defaults(run=run)


def _fail(message: str) -> int:
    print(f"ndcg_research compare: error: {message}", file=sys.stderr)
    return 1


def run(args: argparse.Namespace) -> int:
    """Run the ``compare`` command; return the exit status."""
    from ..evaluation import InputError
    from .compare import compare_systems
    from .runs import run_matrices

    if len(args.runs) < 2:
        return _fail(f"compare needs at least 2 runs, got {len(args.runs)}")
    try:
        data = run_matrices(args.qrels, args.runs, args.measures or ["ndcg"], complete=not args.answered_only,
                            convention=args.convention)
        comparisons = {
            measure: compare_systems(matrix, systems=data.systems, method=args.test, correction=args.correction,
                                     interval=args.interval, confidence=args.confidence,
                                     n_resamples=args.resamples, seed=args.seed, n_jobs=args.jobs)
            for measure, matrix in data.matrices.items()
        }
    except (InputError, ValueError, TypeError, OSError) as error:
        return _fail(" ".join(str(error).split("\n")))
    if not args.quiet:
        for note in data.notes:
            print(f"ndcg_research compare: note: {note}", file=sys.stderr)
    writer = {"text": _text, "csv": _csv, "json": _json}[args.format]
    try:
        sys.stdout.write(writer(comparisons, n_queries=data.queries.size))
        sys.stdout.flush()
    except BrokenPipeError:  # e.g. piped into head
        sys.stderr.close()
        return 141
    return 0


def _frames(comparisons: dict[str, Any]) -> tuple[Any, Any]:
    import pandas as pd

    systems = pd.concat([c.systems.assign(measure=m) for m, c in comparisons.items()], ignore_index=True)
    pairs = pd.concat([c.pairs.assign(measure=m) for m, c in comparisons.items()], ignore_index=True)
    first = ["measure"]
    return systems[first + [c for c in systems.columns if c not in first]], pairs[first + [c for c in pairs.columns if c not in first]]


def _describe(c: Any) -> str:
    level = f"{c.confidence * 100:g}%"
    resampled = c.method in ("permutation", "bootstrap", "tukey") or c.interval != "t"
    return (f"test {c.method}, correction {c.correction}, {level} intervals ({c.interval})"
            + (f", {c.n_resamples} resamples, seed {c.seed}" if resampled else ""))


def _text(comparisons: dict[str, Any], *, n_queries: int) -> str:
    lines = []
    for measure, c in comparisons.items():
        lines.append(f"measure {measure}: {len(c.systems)} runs, {n_queries} queries; {_describe(c)}")
        lines.append("")
        lines.append(c.systems.to_string(index=False, float_format=lambda v: f"{v:.4f}"))
        lines.append("")
        table = c.pairs.drop(columns=["effect_size"])
        lines.append(table.to_string(index=False, float_format=lambda v: f"{v:.4f}"))
        lines.append("")
    return "\n".join(lines)


def _csv(comparisons: dict[str, Any], *, n_queries: int) -> str:
    systems, pairs = _frames(comparisons)
    return systems.to_csv(index=False, float_format="%.10g") + "\n" + pairs.to_csv(index=False, float_format="%.10g")


def _json(comparisons: dict[str, Any], *, n_queries: int) -> str:
    out = []
    for measure, c in comparisons.items():
        out.append({
            "measure": measure, "queries": n_queries, "test": c.method, "correction": c.correction,
            "interval": c.interval, "confidence": c.confidence, "resamples": c.n_resamples, "seed": c.seed,
            "systems": c.systems.to_dict("records"),
            "pairs": c.pairs.to_dict("records"),
        })
    return json.dumps(out, indent=1, default=_plain) + "\n"


def _plain(value: Any) -> Any:
    """numpy scalars as Python numbers for JSON."""
    return value.item() if hasattr(value, "item") else str(value)
