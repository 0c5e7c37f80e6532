"""Each notebook's headline figure (its study's ``HEADLINE``), drawn from a run's tables, legible one journal column
wide."""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import matplotlib
from matplotlib.figure import Figure

from . import profiles
from .figures import save_figure
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


def study_figures(notebook: str | os.PathLike[str]) -> ModuleType:
    """``ndcg_research.studies.<name>.plots`` (or ``.figures``) of notebook ``NN_<name>.ipynb``."""
    study = Path(notebook).stem.split("_", 1)[1]
    for module in ("plots", "figures"):
        try:
            return importlib.import_module(f"ndcg_research.studies.{study}.{module}")
        except ModuleNotFoundError as exc:
            if exc.name != f"ndcg_research.studies.{study}.{module}":
                raise
    raise profiles.RunnerError(f"no figures module (plots.py or figures.py) in ndcg_research/studies/{study}/")


def headline_of(notebook: str | os.PathLike[str]) -> Headline:
    """The notebook's study's ``HEADLINE``, which must be the headline the notebook declares."""
    headline = getattr(study_figures(notebook), "HEADLINE", None)
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
    :data:`~.style.COLUMN_STYLE` and return it, to display."""
    results = Path(results_dir)
    fig = headline.draw(results, parameters)
    with matplotlib.rc_context(COLUMN_STYLE):  # saved the same way whatever the notebook's global style
        save_figure(
            fig,
            headline.name,
            figures_dir=figures_dir,
            caption=headline.caption(results, parameters),
            notebook=notebook,
            parameters=parameters,
            seed=seed,
        )
    return fig
