"""The command line, ``python -m ndcg_research COMMAND ...``.

Each subpackage that offers commands has a ``cli`` module with a
``register(subparsers)`` function; it adds its commands, each with a ``run``
default: a function of the parsed arguments that returns the exit status.
The modules are listed in :data:`COMMAND_MODULES`; they import their heavy
dependencies only when a command runs, so ``--help`` stays fast.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

__all__ = ["COMMAND_MODULES", "build_parser", "main"]

#: Modules whose ``register`` adds subcommands, in the order ``--help`` lists them.
COMMAND_MODULES: tuple[str, ...] = (
    "ndcg_research.pipeline.cli",
    "ndcg_research.findings.cli",
    "ndcg_research.evaluation.cli",
)


def build_parser() -> argparse.ArgumentParser:
    """Return the argument parser of ``python -m ndcg_research``.

    Examples
    --------
    >>> args = build_parser().parse_args(["params", "notebooks/01_worked_example.ipynb"])
    >>> args.command, callable(args.run)
    ('params', True)
    """
    parser = argparse.ArgumentParser(
        prog="python -m ndcg_research",
        description="nDCG research package: run the notebooks and regenerate their figures.",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status (0 on success, 1 on an error, 2 on bad usage)."""
    args = build_parser().parse_args(argv)
    try:
        return args.run(args)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
