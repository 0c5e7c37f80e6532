"""The ``compare`` command: every run's mean with its interval, every pair's test (``compare_systems``), per measure.

Exit status: 0 on success, 1 on bad input (a message naming the file and line, or the argument), 2 on bad usage.
"""

from __future__ import annotations

import argparse
from typing import Any

from ..cli_common import fail, finish, non_negative_int, positive_int, resample_count, share, strict_json
from ..evaluation.cli import add_collection_arguments, read_collection

__all__ = ["register", "run", "TESTS", "CORRECTIONS", "INTERVALS"]

#: The library's choices, repeated so that ``--help`` does not import scipy (tested to stay equal).
TESTS = ("t", "wilcoxon", "permutation", "bootstrap", "tukey")
CORRECTIONS = ("holm", "bonferroni", "bh", "none")
INTERVALS = ("t", "percentile", "bca")

_DESCRIPTION = """\
Compare systems on a test collection: for each measure, every run's mean with its confidence
interval, then every pair of runs with the mean difference (first minus second), its confidence
interval, the p-value of a paired test over the queries and the p-value adjusted for the number of
pairs. Measures (-m, repeatable) as in the evaluate command: ndcg, ndcg@10,
"ndcg@10(gain=exp2, discount='power(beta=0.5)')", ndcg_cut.10. A judged query missing from a run is
treated as in the evaluate command (the convention's rule: trec_eval and ranx score it 0, trec_eval's
-c, so that a run that skips hard queries does not look better; -c / --answered-only choose); every
run is compared on the same queries, and the notes name any left out.
"""


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``compare`` command to the subcommands of ``python -m ndcg_research``."""
    parser = sub.add_parser(
        "compare",
        help="compare runs: means with confidence intervals, paired tests of every pair, adjusted p-values",
        description=_DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_collection_arguments(
        parser,
        runs_help="two or more run files (query Q0 document rank score tag)",
        measure_help="measure (repeatable; default ndcg)",
    )
    parser.add_argument(
        "--test",
        "--method",
        dest="test",
        default="t",
        choices=TESTS,
        help="paired test of each pair (default t); tukey: randomised Tukey HSD over all runs "
        "(compare_systems' test=; --method is accepted too)",
    )
    parser.add_argument(
        "--correction", choices=CORRECTIONS, help="multiple-comparison correction (default holm; none for --test tukey)"
    )
    parser.add_argument(
        "--interval", choices=INTERVALS, help="confidence interval (default t for --test t, else percentile bootstrap)"
    )
    parser.add_argument("--confidence", type=share, default=0.95, help="confidence level (default 0.95)")
    parser.add_argument(
        "--resamples",
        type=resample_count,
        default=10_000,
        help="bootstrap resamples / random sign flips / Tukey permutations (default 10000)",
    )
    parser.add_argument("--seed", type=non_negative_int, default=0, help="seed of the resamples (default 0)")
    parser.add_argument(
        "--format",
        default="text",
        choices=["text", "csv", "json"],
        help="output format (default text; csv: one table, a row per run and per pair)",
    )
    parser.add_argument(
        "-j", "--jobs", type=positive_int, default=1, help="worker threads (results do not depend on it)"
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Run the ``compare`` command; return the exit status."""
    from ..evaluation import InputError
    from ._compare import compare_systems
    from ._intervals import check_resample_count
    from ._paired import _interval_of
    from ._runs import run_matrices

    if args.test == "tukey" and args.correction not in (None, "none"):
        args.command_parser.error(
            f"--correction {args.correction} is not allowed with --test tukey (its p-values are "
            "family-wise adjusted): give --correction none, or no --correction"
        )
    try:  # first what the options alone decide, in their names
        check_resample_count(
            args.resamples, args.confidence, _interval_of(args.test, args.interval), args.test, "--resamples"
        )
        qrels, runs = read_collection(args.qrels, args.runs, svmlight=args.input == "svmlight")
        if len(runs) < 2:
            return fail("compare", f"compare needs at least 2 runs, got {len(runs)}")
        data = run_matrices(qrels, runs, args.measures or ["ndcg"], complete=args.complete, convention=args.convention)
        options = dict(test=args.test, correction=args.correction, interval=args.interval, confidence=args.confidence)
        options.update(systems=data.systems, n_resamples=args.resamples, seed=args.seed, n_jobs=args.jobs)
        comparisons = {measure: compare_systems(matrix, **options) for measure, matrix in data.matrices.items()}
    except (InputError, ValueError, TypeError, OSError) as error:
        return fail("compare", str(error))
    except MemoryError:
        return fail(
            "compare",
            "not enough memory for these runs, queries and resamples at once: compare fewer runs at a time, or ask "
            "for fewer --resamples where the test or the interval draws them",
        )
    writer = {"text": _text, "csv": _csv, "json": _json}[args.format]
    return finish("compare", data.notes, args.quiet, writer(comparisons, n_queries=data.queries.size))


def _settings(c: Any) -> dict[str, Any]:
    """The settings of comparison ``c`` and what its p-values (sign patterns or random resamples) and intervals
    (bootstrap resamples) rest on, None where they do not apply; the same in every format."""
    return {
        "test": c.test,
        "correction": c.correction,
        "interval": c.interval,
        "confidence": c.confidence,
        "exact": bool(c.exact),
        "sign_patterns": c.test_resamples if c.exact else None,
        "resamples": c.test_resamples if (c.test_resamples and not c.exact) else None,
        "interval_resamples": c.n_resamples if c.interval != "t" else None,
        "seed": c.seed,
    }


def _describe(c: Any) -> str:
    done = _settings(c)
    drawn, boot = done["resamples"], done["interval_resamples"]  # None where they do not apply, else >= 1
    test = f" ({drawn} resamples)" if drawn else ""
    if done["exact"]:
        test = f" (exact: {done['sign_patterns']} sign patterns)"
    interval = c.interval + (f", {boot} resamples" if boot else "")
    seed = f", seed {c.seed}" if drawn or boot else ""
    return f"test {c.test}{test}, correction {c.correction}, {c.confidence * 100:g}% intervals ({interval}){seed}"


def _text(comparisons: dict[str, Any], *, n_queries: int) -> str:
    lines = []
    for measure, c in comparisons.items():
        pairs = c.pairs.drop(columns=["effect_size"])
        tables = [t.to_string(index=False, float_format=lambda v: f"{v:.4f}") for t in (c.systems, pairs)]
        lines += [f"measure {measure}: {len(c.systems)} runs, {n_queries} queries; {_describe(c)}", ""]
        lines += [tables[0], "", tables[1], ""]
    return "\n".join(lines)


def _csv(comparisons: dict[str, Any], *, n_queries: int) -> str:
    """One tidy table: a row per run (``kind`` mean: ``system_a`` and its mean) and per pair (``kind``
    difference: ``system_a`` minus ``system_b``), with the measure and the settings on every row."""
    import pandas as pd

    rows = []
    for measure, c in comparisons.items():
        settings = {"measure": measure, "queries": n_queries, **_settings(c)}
        systems = c.systems.rename(columns={"system": "system_a", "mean": "estimate"}).assign(kind="mean", **settings)
        pairs = c.pairs.rename(columns={"difference": "estimate"}).assign(kind="difference", **settings)
        rows.extend([systems, pairs])
    table = pd.concat(rows, ignore_index=True)
    first = ["measure", "kind", "system_a", "system_b", "estimate", "ci_low", "ci_high", "queries"]
    # counts stay integers (pandas makes a column with a gap float): empty where they do not apply
    for column in ("wins", "ties", "losses", "sign_patterns", "resamples", "interval_resamples"):
        table[column] = table[column].astype("Int64")
    table = table[first + [c for c in table.columns if c not in first]]
    return table.to_csv(index=False)  # every float exactly (the shortest text that reads back the same)


def _json(comparisons: dict[str, Any], *, n_queries: int) -> str:
    """JSON (strict: a value that is not a finite number, e.g. an effect size of identical runs, is null)."""
    return strict_json(
        [
            {"measure": m, "queries": n_queries, **_settings(c), "systems": c.systems, "pairs": c.pairs}
            for m, c in comparisons.items()
        ]
    )
