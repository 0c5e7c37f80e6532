"""The notebook commands of ``python -m ndcg_research``: ``reproduce``, ``store`` and ``params``."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from ..cli_common import PROG, fail, non_negative_int, path_argument
from . import profiles


def _timeout(text: str) -> int | None:
    """'none' or 0 for no limit, else a whole number of seconds (papermill's cell timeout takes no fraction)."""
    return None if text.strip().lower() == "none" else non_negative_int(text) or None


def _add_notebook_options(parser: argparse.ArgumentParser, only_help: str) -> None:
    parser.add_argument("--only", metavar="NAME", nargs="+", action="extend", help=only_help)
    parser.add_argument(
        "--timeout",
        type=_timeout,
        default=profiles.DEFAULT_TIMEOUT,
        metavar="SECONDS",
        help=f"per-cell timeout in whole seconds (default {profiles.DEFAULT_TIMEOUT}; 'none' or 0 for none)",
    )
    parser.add_argument(
        "--notebooks-dir", type=path_argument, metavar="DIR", help="folder of the notebooks (default: notebooks/)"
    )


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``reproduce``, ``store`` and ``params`` commands to the subcommands of ``python -m ndcg_research``."""
    rep = sub.add_parser(
        "reproduce",
        help="execute all notebooks under a profile, write figures and the figure index",
        description=(
            "Execute notebooks/NN_*.ipynb in order with papermill under a parameter profile from "
            "notebooks/profiles.yaml. Executed notebooks go to OUTPUT/notebooks, result tables to OUTPUT/results, "
            "figures to OUTPUT/figures; OUTPUT defaults to build/PROFILE. Exception: the full profile run on every "
            "notebook of notebooks/ with its profiles.yaml, without --output, --figures-dir or --results-dir, "
            "publishes: figures to the committed figures/, result tables to the committed results/full/ (a partial "
            "run with --only does not, unless --publish). A failing notebook does not stop the run: the others run, "
            "then the command fails listing every failure."
        ),
    )
    rep.add_argument("--profile", default="full", help="profile name in the profiles file (default: full)")
    rep.add_argument("--output", type=path_argument, metavar="DIR", help="output folder (default: build/<profile>)")
    _add_notebook_options(rep, only_help="run only these notebooks (stem, file name or number, e.g. 01)")
    rep.add_argument(
        "--profiles-file",
        type=path_argument,
        metavar="FILE",
        help="profiles YAML (default: <notebooks-dir>/profiles.yaml)",
    )
    rep.add_argument("--figures-dir", type=path_argument, metavar="DIR", help="the figures folder")
    rep.add_argument("--results-dir", type=path_argument, metavar="DIR", help="the result tables folder")
    rep.add_argument(
        "--publish",
        action="store_true",
        default=None,
        help="write figures to the committed figures/ and tables to results/full/ (e.g. after a partial run of the "
        "full profile with --only); refused with another profile, --notebooks-dir, --profiles-file, --output, "
        "--figures-dir or --results-dir",
    )
    rep.add_argument(
        "--progress",
        action=argparse.BooleanOptionalAction,
        help="always (or never) show the progress bar (default: only in a terminal)",
    )
    rep.set_defaults(run=_reproduce)

    sto = sub.add_parser(
        "store",
        help="re-execute committed notebooks in place with their defaults and store them clean",
        description=(
            "Re-execute notebooks in place with their default parameters, strip volatile metadata "
            "and record the kernel metadata JupyterLab fills in (kernelspec, language_info with this "
            "Python's version), so that opening a stored notebook in JupyterLab does not modify it."
        ),
    )
    _add_notebook_options(sto, only_help="only these notebooks")
    sto.add_argument(
        "--strip-only",
        action="store_true",
        help="do not execute: only strip volatile metadata and record the kernel metadata",
    )
    sto.set_defaults(run=_store)

    par = sub.add_parser(
        "params",
        help="list a notebook's parameters with defaults and comments (also those papermill --help-notebook misses)",
    )
    par.add_argument("notebook", help="the notebook: its path, or its number, stem or file name in notebooks/")
    par.set_defaults(run=_params)


#: The options of ``reproduce`` that :func:`.runner.reproduce` takes under the same names.
_REPRODUCE_OPTIONS = "output only timeout notebooks_dir profiles_file figures_dir results_dir publish progress".split()


def _reproduce(args: argparse.Namespace) -> int:
    from . import runner  # imported when the command runs: `evaluate` does not load it, nor need its extra

    options = {name: getattr(args, name) for name in _REPRODUCE_OPTIONS}
    return _reporting_errors("reproduce", lambda: runner.reproduce(args.profile, **options))


def _store(args: argparse.Namespace) -> int:
    from . import runner

    options = {name: getattr(args, name) for name in ("only", "notebooks_dir", "timeout")}
    return _reporting_errors("store", lambda: runner.store(execute=not args.strip_only, **options))


def _params(args: argparse.Namespace) -> int:
    return _reporting_errors(
        "params", lambda: print(format_parameters(profiles.describe_parameters(notebook_path(args.notebook))))
    )


def notebook_path(name: str) -> Path:
    """The notebook ``name``: a file, or one of ``notebooks/`` as ``reproduce --only`` names it."""
    path = Path(name)
    if path.is_file():
        return path
    (found,) = profiles.select_notebooks(
        profiles.discover_notebooks(profiles.repo_root() / "notebooks"), [name], what="notebook"
    )
    return found


def format_parameters(parameters: Sequence[profiles.NotebookParameter]) -> str:
    """A notebook's parameters as ``name = default  # comment`` lines, comments aligned."""
    lines = [f"{p.name} = {p.default}" for p in parameters]
    ends = [len(line.splitlines()[-1]) for line in lines]
    # Comments start in one column, unless a line is too long for that to help.
    width = max((end for end, p in zip(ends, parameters, strict=False) if p.comment and end <= 40), default=0)
    return "\n".join(
        f"{line}{' ' * max(width - end, 0)}  # {p.comment}" if p.comment else line
        for line, end, p in zip(lines, ends, parameters, strict=False)
    )


#: The modules of the notebooks extra (pyproject.toml) and those they bring, by their import names.
_NOTEBOOKS_EXTRA = ("matplotlib", "papermill", "nbformat", "yaml", "tqdm", "ipykernel", "jupyter_client", "nbclient")


def _reporting_errors(command: str, action: Callable[[], object]) -> int:
    """Run ``action``; a :class:`~.profiles.RunnerError` or a missing library of the notebooks extra: exit 1."""
    try:
        action()
    except profiles.RunnerError as exc:  # several lines when several notebooks failed: kept
        print(f"{PROG} {command}: error: {exc}", file=sys.stderr)
        return 1
    except ModuleNotFoundError as exc:
        if (exc.name or "").partition(".")[0] not in _NOTEBOOKS_EXTRA:
            raise
        # (the package is installed from its folder: no index holds it under that name)
        return fail(
            command, f"needs {exc.name}, of the notebooks extra: pip install '.[notebooks]' in the package's folder"
        )
    except BrokenPipeError:  # a reader such as `head` closed the pipe: main's business (quiet, status 0)
        raise
    except OSError as exc:  # a file or folder it reads or writes (the figure index, a notebook): one line
        return fail(command, f"{exc.strerror}: {exc.filename!r}" if exc.filename else str(exc))
    return 0
