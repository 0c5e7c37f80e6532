"""The ``advise`` command, ``ndcg-research advise QRELS RUN [RUN ...]`` (:func:`ndcg_research.advice.advise`).
Exit status: 0 on success, 1 on bad input (a one-line message), 2 on bad usage."""

from __future__ import annotations

import argparse
import importlib.util
import os
from typing import Any

from ..cli_common import (
    checked_argument,
    fail,
    finish,
    non_negative_int,
    path_argument,
    resample_count,
    share,
    strict_json,
)
from ..evaluation.cli import add_convention_arguments

_DESCRIPTION = """\
Which nDCG setting suits this collection? For every candidate discount (log2, loglog,
power(beta=0.5), zipf, geometric(p=0.8)), cut-off (none, 10, 20, 100) and gain (linear, exp2),
the runs are evaluated once and compared: discriminative power (the share of pairs of runs
significantly different, randomised Tukey HSD; Sakai 2006), the swap rate between disjoint query
sets and the queries needed for a target swap rate (Voorhees & Buckley 2002), the dependability Phi
of generalizability theory (Kanoulas & Aslam 2009) and Kendall's tau of the runs' order against
log2's. A fixed rule recommends one setting, with its reasons. Needs at least two runs.
"""


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``advise`` command to the subcommands of ``ndcg-research``."""
    parser = sub.add_parser(
        "advise",
        help="which discount, cut-off and gain suit this collection: candidates measured, one recommended",
        description=_DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("qrels", metavar="QRELS", help="qrels file (query iteration document relevance)")
    parser.add_argument(
        "runs", metavar="RUN", nargs="+", help="two or more run files (query Q0 document rank score tag)"
    )
    add_convention_arguments(parser)
    parser.add_argument("--alpha", type=share, default=0.05, help="significance level (default 0.05)")
    parser.add_argument(
        "--target-swap-rate",
        type=_swap_target,
        default=0.05,
        help="swap rate whose query count is estimated, below 0.5 (default 0.05)",
    )
    parser.add_argument(
        "--resamples",
        type=resample_count,
        default=1000,
        help="resamples of the randomised Tukey HSD test (default 1000)",
    )
    parser.add_argument(
        "--trials",
        type=resample_count,
        default=200,
        help="pairs of disjoint query sets per size of the swap curve (default 200)",
    )
    parser.add_argument("--seed", type=non_negative_int, default=0, help="seed of every draw (default 0)")
    parser.add_argument(
        "--figure", type=path_argument, metavar="PATH", help="also write the figure (PNG, PDF or SVG, by the suffix)"
    )
    parser.add_argument(
        "--format",
        default="text",
        choices=["text", "csv", "json"],
        help="text (default): the recommendation and the table; csv: the table; json: everything (an infinite query "
        'count is "Infinity", an undefined value null)',
    )
    parser.add_argument("--quiet", action="store_true", help="do not print notes (queries left out, ...) on stderr")
    parser.set_defaults(run=run)


def _swap_target(text: str) -> float:
    """``--target-swap-rate``: what :func:`advise` accepts, refused in its words (imported only when given)."""
    from ._advise import check_swap_target

    return checked_argument(check_swap_target)(text)


def run(args: argparse.Namespace) -> int:
    """Run the ``advise`` command; return the exit status."""
    from ..evaluation import InputError
    from ._advise import advise, too_few_resamples

    message = too_few_resamples(args.alpha, args.resamples, ("--alpha ", "--resamples "))
    if message:  # before the work, whose every candidate would tell no pair apart
        return fail("advise", message)
    if args.figure:  # before the work, which a missing library or an unknown format would throw away
        if importlib.util.find_spec("matplotlib") is None:
            return fail("advise", "--figure needs matplotlib: pip install matplotlib")
        from matplotlib.backend_bases import FigureCanvasBase

        suffix = os.path.splitext(args.figure)[1].lstrip(".").lower()
        if suffix not in FigureCanvasBase.get_supported_filetypes():
            return fail(
                "advise", f"--figure {args.figure!r}: give the file a suffix matplotlib writes (.png, .pdf, .svg)"
            )
        if not os.path.isdir(os.path.dirname(os.path.abspath(args.figure))):
            return fail("advise", f"--figure {args.figure!r}: its folder does not exist")
    try:
        options = dict(convention=args.convention, complete=args.complete, alpha=args.alpha, seed=args.seed)
        options.update(target_swap_rate=args.target_swap_rate, n_resamples=args.resamples, swap_trials=args.trials)
        advice = advise(args.qrels, list(args.runs), **options)
    except (InputError, ValueError, TypeError, OSError) as error:
        return fail("advise", str(error))
    except MemoryError:
        return fail("advise", "not enough memory for this many resamples or trials; ask for fewer")
    if args.figure:
        try:
            advice.figure().savefig(args.figure, dpi=150)
        except (OSError, ValueError, ImportError) as error:  # ImportError: matplotlib not installed
            return fail("advise", f"cannot write the figure {args.figure}: {error}")
    # csv: every float exactly (the shortest text that reads back the same), as compare writes them
    writer = {"text": _text, "csv": lambda advice: advice.table.to_csv(index=False), "json": _json}[args.format]
    return finish("advise", advice.notes, args.quiet, writer(advice))


def _text(advice: Any) -> str:
    table = advice.table.drop(columns=["shortlisted"]).set_index("measure")
    return f"{advice.text()}\n\n{table.to_string(float_format=lambda v: f'{v:.4f}')}\n"


def _json(advice: Any) -> str:
    """Strict JSON, which has no infinity: an infinite query count is the string ``"Infinity"`` (as JavaScript's
    ``Number`` and Python's ``float`` read it), an undefined value (NaN) null."""
    return strict_json(
        {
            "recommended": advice.recommended,
            "reasons": list(advice.reasons),
            "by_cutoff": advice.by_cutoff,
            "systems": list(advice.systems),
            "queries": advice.n_queries,
            "settings": advice.settings,
            "notes": list(advice.notes),
            "candidates": advice.table.replace(float("inf"), "Infinity"),
            "swap_curves": advice.swap_curves,
        }
    )
