"""The command line, ``ndcg-research COMMAND ...`` (or ``python -m ndcg_research COMMAND ...``): each module of
:data:`COMMAND_MODULES` has a ``register(subparsers)`` that adds its commands, each with a ``run`` default
(parsed arguments -> exit status), and imports its heavy dependencies only when a command runs."""

from __future__ import annotations

import argparse
import contextlib
import importlib
import io
import os
import re
import sys
from collections.abc import Sequence
from typing import Any, NoReturn

from .cli_common import PROG, drop_stdout

__all__ = ["COMMAND_MODULES", "USER_COMMANDS", "build_parser", "main", "console"]

#: Modules whose ``register`` adds subcommands.
COMMAND_MODULES: tuple[str, ...] = (
    "ndcg_research.evaluation.cli",
    "ndcg_research.stats._cli",
    "ndcg_research.advice.cli",
    "ndcg_research.pipeline.cli",
    "ndcg_research.findings.cli",
)
#: The commands for users of the package, listed first by ``--help`` in this order; every other
#: command is a maintainer command (listed after them, in the order of registration).
USER_COMMANDS: tuple[str, ...] = ("evaluate", "compare", "advise")


def build_parser() -> argparse.ArgumentParser:
    """Return the argument parser of ``ndcg-research`` (and ``python -m ndcg_research``)."""
    parser = argparse.ArgumentParser(
        prog=PROG,
        usage="%(prog)s [-h] [--version] COMMAND ...",
        description="nDCG research package: evaluate and compare runs; run the notebooks and regenerate "
        "their figures and findings. `ndcg-research COMMAND --help` describes a command.",
    )
    parser.add_argument("--version", action=_Version)
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND", prog=PROG)
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(sub)
    for command in sub.choices.values():  # so that a command's unknown option is reported with its usage
        command.set_defaults(command_parser=command)
    # The commands in ``--help`` under two headings, the user's first, before the options: argparse has no public
    # way, so through ``_choices_actions``, ``_group_actions`` and ``_action_groups`` (stable since 3.2).
    entries = {entry.dest: entry for entry in sub._choices_actions}
    users = parser.add_argument_group("commands")
    users._group_actions.extend(entries[name] for name in USER_COMMANDS if name in entries)
    maintainers = parser.add_argument_group(
        "maintainer commands", "run this repository's notebooks, regenerate its figures and findings"
    )
    maintainers._group_actions.extend(entry for name, entry in entries.items() if name not in USER_COMMANDS)
    others = [group for group in parser._action_groups if group not in (users, maintainers)]
    parser._action_groups[:] = [users, maintainers, *others]
    sub.help = argparse.SUPPRESS
    return parser


class _Version(argparse.Action):
    """``--version``: the version is looked up only when asked (``ndcg_research.__version__`` reads metadata)."""

    def __init__(self, option_strings: Sequence[str], dest: str, **kwargs: Any) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, help="show the version and exit")

    def __call__(self, parser: argparse.ArgumentParser, *args: Any) -> None:
        from . import __version__

        print(f"{parser.prog} {__version__}")
        parser.exit()


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status (0 on success, 1 on an error, 2 on bad usage)."""
    args, unknown = build_parser().parse_known_args(argv)
    # Run files after an option (evaluate Q run_a -m ndcg run_b) are run files, as trec_eval's getopt reads them
    if unknown and isinstance(getattr(args, "runs", None), list) and not any(a.startswith("-") for a in unknown):
        args.runs, unknown = [*args.runs, *unknown], []
    if unknown:  # argparse would report it with the program's usage, not the command's
        args.command_parser.error(f"unrecognized arguments: {' '.join(unknown)}")
    # argparse reads -M=1 as -M 1; trec_eval's getopt reads the value "=1" (atol: 0; -m=ndcg: measure '=ndcg')
    given = list(sys.argv[1:] if argv is None else argv)
    glued = [a for a in given[: given.index("--") if "--" in given else None] if re.match(r"-[qncJ]*[mMlNRT]=", a)]
    if glued:
        option, value = glued[0].split("=", 1)
        args.command_parser.error(
            f"{glued[0]}: give the value after a blank ({option} {value}): trec_eval reads '={value}' as the value, "
            f"this parser would read {value!r}"
        )
    try:
        return args.run(args)
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # a reader such as `head` closed the pipe: its business, not an error
        drop_stdout()
        return 0


def _writable(stream: Any) -> bool:
    """Whether ``stream`` takes writes: Python has none for a closed descriptor, and one that a shell's ``exec`` left
    on the script it read (``2>&-`` in a wrapper) refuses them (EBADF)."""
    if stream is None:
        return False
    try:
        os.write(stream.fileno(), b"")
    except (io.UnsupportedOperation, AttributeError):  # no descriptor (a test's or a notebook's stream)
        return True
    except OSError:
        return False
    return True


def console(argv: Sequence[str] | None = None) -> NoReturn:
    """Run the command line and exit with its status: the ``ndcg-research`` script and ``python -m``. After the
    :data:`USER_COMMANDS`, whose file readers run Arrow's C++ thread pools, it flushes and leaves without the
    interpreter's teardown, in which Arrow's idle pool threads can abort the process (exit -6, apache/arrow#34314;
    seen once in CI after a complete, correct run)."""
    argv = sys.argv[1:] if argv is None else list(argv)
    if not _writable(sys.stderr):  # closed (2>&-): notes and errors are lost, as a C tool's are, not put in the output
        sys.stderr = open(os.devnull, "w")  # (open until the process ends)
    status = main(argv)
    if argv[:1] and argv[0] in USER_COMMANDS:
        with contextlib.suppress(BrokenPipeError):  # a reader such as `head` closed the pipe: its business
            if sys.stdout is not None:  # (closed: write_output said so)
                sys.stdout.flush()
            sys.stderr.flush()
        os._exit(status)
    sys.exit(status)
