"""Each notebook's headline figure (its study's ``HEADLINE``), legible one journal column wide; :func:`main` redraws
it from ``results/full`` without running the notebook: ``python -m ndcg_research.pipeline.headlines [--only 04]``."""

from __future__ import annotations

import argparse
import importlib.util
import os
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import matplotlib
from matplotlib.figure import Figure

from .._validation import check_instance, check_path
from . import profiles
from .figures import read_provenance, save_figure, write_index
from .style import COLUMN_STYLE


@dataclass(frozen=True)
class Headline:
    """A headline: its ``name``, ``draw(results_dir, parameters)`` and ``caption(results_dir, parameters)`` (the
    parameters of the run, for what its tables do not record)."""

    name: str
    draw: Callable[[Path, Mapping[str, Any]], Figure]
    caption: Callable[[Path, Mapping[str, Any]], str]

    @classmethod
    def from_tables(cls, name: str, draw: Callable[[Path], Figure], caption: Callable[[Path], str]) -> Headline:
        """A headline drawn and captioned from the result tables alone."""
        return cls(name, lambda results, _: draw(results), lambda results, _: caption(results))


def headline_of(notebook: str | os.PathLike[str]) -> Headline:
    """The ``HEADLINE`` of ``ndcg_research.studies.<name>.plots`` (or ``.figures``) of notebook ``NN_<name>.ipynb``,
    which must be the headline the notebook declares."""
    stem = Path(check_path(notebook, "notebook")).stem
    number, _, study = stem.partition("_")
    if not (len(number) == 2 and number.isdigit() and study):  # "distinguishability" or "04" was an IndexError
        raise ValueError(
            f"notebook must be a notebook's path such as 'notebooks/04_distinguishability.ipynb', got {str(notebook)!r}"
        )
    try:
        package = importlib.util.find_spec(f"ndcg_research.studies.{study}")
    except ModuleNotFoundError:  # a dotted stem: its first part is no study
        package = None
    if package is None:  # (find_spec of its plots module raised ModuleNotFoundError)
        raise ValueError(f"notebook {str(notebook)!r} has no study: ndcg_research/studies/{study}/ does not exist")
    modules = (f"ndcg_research.studies.{study}.{name}" for name in ("plots", "figures"))
    found = next((module for module in modules if importlib.util.find_spec(module)), None)
    if found is None:
        raise profiles.RunnerError(f"no figures module (plots.py or figures.py) in ndcg_research/studies/{study}/")
    headline = getattr(importlib.import_module(found), "HEADLINE", None)
    declared = profiles.declared_headline(notebook)
    if not isinstance(headline, Headline) or headline.name != declared:
        raise profiles.RunnerError(
            f"{Path(notebook).name} declares the headline {declared!r}, its study's HEADLINE is {headline!r}"
        )
    return headline


def save_headline(
    headline: Headline,
    results_dir: str | os.PathLike[str],
    *,
    figures_dir: str | os.PathLike[str],
    notebook: str,
    parameters: Mapping[str, Any],
    seed: Any = None,
) -> Figure:
    """Draw ``headline`` from the tables in ``results_dir``, save it (:func:`~.figures.save_figure`) in
    :data:`~.style.COLUMN_STYLE` and return it, to display. ``parameters``: the run's, holding every one the headline
    reads (a missing one is a ValueError naming it)."""
    check_instance(headline, "headline", Headline)
    results = Path(check_path(results_dir, "results_dir"))  # (it may not exist: a headline need not read tables)
    check_path(figures_dir, "figures_dir")
    check_instance(notebook, "notebook", str)
    read = _Parameters(check_instance(parameters, "parameters", Mapping), headline.name)
    fig = headline.draw(results, read)
    with matplotlib.rc_context(COLUMN_STYLE):  # saved the same way whatever the notebook's global style
        save_figure(
            fig,
            headline.name,
            figures_dir=figures_dir,
            caption=headline.caption(results, read),
            notebook=notebook,
            parameters=parameters,
            seed=seed,
        )
    return fig


class _Parameters(dict[str, Any]):
    """A run's parameters as a headline reads them: one it lacks is a ValueError naming it (a bare KeyError 'gain'
    did not say that the parameters given were incomplete)."""

    def __init__(self, parameters: Mapping[str, Any], headline: str) -> None:
        super().__init__(parameters)
        self.headline = headline

    def __missing__(self, key: str) -> Any:
        given = ", ".join(map(str, self)) or "none"
        raise ValueError(
            f"parameters has no {key!r}, which headline {self.headline} reads (given: {given}): pass the run's "
            "parameters, as its figures' provenance records hold them"
        )


def _run_record(figures: Path, name: str, notebook: str) -> dict[str, Any]:
    own = figures / f"{name}.json"
    if own.is_file():
        return read_provenance(own)
    for path in sorted(figures.glob(f"{name[:2]}_*.json")):
        record = read_provenance(path)
        if record.get("notebook") == notebook:
            return record
    raise profiles.RunnerError(
        f"no figure of {notebook} in {figures} names the run that wrote the tables: run the notebook instead"
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m ndcg_research.pipeline.headlines",
        description="Redraw the notebooks' headline figures from result tables, without running the notebooks.",
    )
    root = profiles.repo_root()
    parser.add_argument("--only", nargs="+", metavar="NAME", help="these notebooks (number, stem or file name)")
    parser.add_argument("--results", type=Path, default=root / "results" / "full", help="default: results/full")
    parser.add_argument("--figures", type=Path, default=root / "figures", help="default: figures")
    args = parser.parse_args(argv)
    try:
        selected = profiles.select_notebooks(profiles.discover_notebooks(root / "notebooks"), args.only)
        for path in filter(profiles.declared_headline, selected):
            headline = headline_of(path)
            record = _run_record(args.figures, headline.name, path.name)
            save_headline(
                headline,
                args.results,
                figures_dir=args.figures,
                notebook=path.name,
                parameters=record["parameters"],
                seed=record["seed"],
            )
            print(f"wrote {args.figures / headline.name}.png")
        write_index(args.figures)
    except (profiles.RunnerError, ValueError, OSError) as exc:  # a bad name, folder or table: one line
        print(f"error: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":  # run as a script: the studies' HEADLINEs are instances of the imported module's class
    from ndcg_research.pipeline.headlines import main as imported_main

    sys.exit(imported_main())
