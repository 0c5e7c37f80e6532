"""The command line, ``ndcg-research COMMAND ...`` (or ``python -m ndcg_research COMMAND ...``).

Each subpackage that offers commands has a ``cli`` module with a
``register(subparsers)`` function; it adds its commands, each with a ``run``
default: a function of the parsed arguments that returns the exit status.
The modules are listed in :data:`COMMAND_MODULES`; they import their heavy
dependencies only when a command runs, so ``--help`` stays fast.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence
from typing import NoReturn

__all__ = ["COMMAND_MODULES", "build_parser", "main", "console"]

#: Modules whose ``register`` adds subcommands, in the order ``--help`` lists them.
COMMAND_MODULES: tuple[str, ...] = (
    "ndcg_research.pipeline.cli",
    "ndcg_research.findings.cli",
    "ndcg_research.evaluation.cli",
    "ndcg_research.stats.cli",
)


def build_parser() -> argparse.ArgumentParser:
    """Return the argument parser of ``python -m ndcg_research``.

    Examples
    --------
    >>> args = build_parser().parse_args(["params", "notebooks/01_worked_example.ipynb"])
    >>> args.command, callable(args.run)
    ('params', True)
    """
    from . import __version__

    parser = argparse.ArgumentParser(
        prog="ndcg-research",
        description="nDCG research package: evaluate and compare runs, run the notebooks and regenerate "
                    "their figures and findings.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
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


#: Commands whose file readers run Arrow's C++ thread pools (evaluation.readers).
ARROW_COMMANDS = frozenset({"evaluate", "compare"})


def console(argv: Sequence[str] | None = None) -> NoReturn:
    """Run the command line and exit with its status: the ``ndcg-research`` script and ``python -m``.

    After ``evaluate`` and ``compare`` the process leaves without the interpreter's teardown:
    Arrow's idle pool threads can abort the process while it tears them down ("terminate called
    without an active exception", exit -6; apache/arrow#34314), seen once in CI after a complete,
    correct run. Their work and output are done by then: flush and leave.
    """
    argv = sys.argv[1:] if argv is None else list(argv)
    status = main(argv)
    if argv[:1] and argv[0] in ARROW_COMMANDS:
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        except BrokenPipeError:  # a reader such as `head` closed the pipe: its business, not an error
            pass
        os._exit(status)
    sys.exit(status)
