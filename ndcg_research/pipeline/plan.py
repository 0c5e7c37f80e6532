"""The plan of a run, computed once before any notebook runs: which notebooks, with which parameters, where
the executed notebooks, figures and tables go, and whether the run publishes.

A run *publishes* when it writes the committed ``figures/`` and ``results/full/`` (from which the
findings and the notebooks' "full profile" paragraphs read): :func:`publishing` is the one rule that
decides it.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from . import profiles
from .errors import RunnerError
from .profiles import (
    INJECTED_PARAMETERS,
    NOTEBOOK_GLOB,
    declared_figures,
    declared_tables,
    discover_notebooks,
    load_profiles,
    notebook_parameters,
    select_notebooks,
)

__all__ = ["PUBLISHED_RESULTS", "PUBLISHED_FIGURES", "NotebookRun", "RunPlan", "Publishing", "publishing",
           "plan_run"]

#: Where a publishing run (the full profile) writes the result tables, relative to the repository.
PUBLISHED_RESULTS = Path("results") / "full"
#: Where a publishing run writes the figures, relative to the repository.
PUBLISHED_FIGURES = Path("figures")


@dataclass(frozen=True)
class NotebookRun:
    """One notebook of a run: its file, the parameters injected, and the figures and tables it declares."""

    path: Path
    parameters: dict[str, Any]
    figures: tuple[str, ...]
    tables: tuple[str, ...]


@dataclass(frozen=True)
class Publishing:
    """Whether a run publishes, and what the run says about it (empty, or why the committed folders stay)."""

    publish: bool
    note: str = ""


@dataclass(frozen=True)
class RunPlan:
    """Everything a run does, decided before it starts.

    Attributes
    ----------
    profile : str
    notebooks_dir, executed_dir, figures_dir, results_dir : pathlib.Path
        Where the notebooks are, and where the executed notebooks, figures and tables go.
    publishing : Publishing
    runs : tuple of NotebookRun
        The selected notebooks in run order.
    """

    profile: str
    notebooks_dir: Path
    executed_dir: Path
    figures_dir: Path
    results_dir: Path
    publishing: Publishing
    runs: tuple[NotebookRun, ...]

    def describe(self) -> str:
        """What the run prints before it starts."""
        return (f"Running {len(self.runs)} notebook(s) with profile {self.profile!r}\n"
                f"  executed notebooks: {self.executed_dir}\n  figures: {self.figures_dir}{self.publishing.note}\n"
                f"  results: {self.results_dir}")


def publishing(*, profile: str, partial: bool, default_notebooks: bool, output_given: bool, folders_given: bool,
               publish: bool | None) -> Publishing:
    """The publish rule: does a run write the committed ``figures/`` and ``results/full/``?

    Asked (``publish`` True or False), the run does as asked. Otherwise only the ``full`` profile run on
    every notebook of the repository's own ``notebooks/`` without an output folder publishes. A partial run
    of the full profile that does not publish, and writes nowhere it was told to, says that it leaves the
    committed folders alone.

    Parameters
    ----------
    profile : str
    partial : bool
        Whether only some of the notebooks run (``--only``).
    default_notebooks : bool
        Whether the notebooks are the repository's own ``notebooks/``.
    output_given, folders_given : bool
        Whether an output folder was given; whether a figures or results folder was.
    publish : bool or None
        The caller's choice, if any.

    Examples
    --------
    >>> rule = dict(profile="full", default_notebooks=True, output_given=False, folders_given=False, publish=None)
    >>> publishing(partial=False, **rule).publish, publishing(partial=True, **rule).publish
    (True, False)
    >>> publishing(partial=True, **{**rule, "publish": True})
    Publishing(publish=True, note='')
    """
    if publish is None:
        publish = profile == "full" and not output_given and not partial and default_notebooks
    if profile == "full" and partial and not publish and not output_given and not folders_given:
        return Publishing(False, " (a partial run: the committed figures/ and results/full/ are left alone; "
                                 "--publish updates them)")
    return Publishing(publish)


def _profile(profile: str, profiles_file: Path, nb_dir: Path) -> tuple[dict[str, dict[str, Any]], list[Path]]:
    """The profile's parameters by notebook stem, and the notebooks (the profile, and every notebook it
    names, must exist)."""
    loaded = load_profiles(profiles_file)
    if profile not in loaded:
        raise RunnerError(
            f"profile {profile!r} is not in {str(profiles_file)!r}; available: {', '.join(sorted(loaded))}")
    notebooks = discover_notebooks(nb_dir)
    if not notebooks:
        raise RunnerError(f"no notebooks matching {NOTEBOOK_GLOB} in {str(nb_dir)!r}")
    unknown = sorted(set(loaded[profile]) - {p.stem for p in notebooks})
    if unknown:
        raise RunnerError(f"profile {profile!r} names notebooks that do not exist in {str(nb_dir)!r}: "
                          f"{', '.join(unknown)}")
    return loaded[profile], notebooks


def _notebook_run(path: Path, profile: str, settings: dict[str, Any], figures_dir: Path,
                  results_dir: Path) -> NotebookRun:
    """Check one notebook's parameters against its profile entry and plan its run."""
    declared = notebook_parameters(path)
    missing = [name for name in INJECTED_PARAMETERS if name not in declared]
    if missing:
        raise RunnerError(f"notebook {path.name} does not declare {', '.join(missing)} in its parameters cell")
    undeclared = sorted(set(settings) - set(declared))
    if undeclared:
        raise RunnerError(
            f"profile {profile!r} sets {', '.join(undeclared)} for notebook {path.name}, "
            f"which its parameters cell does not declare (declared: {', '.join(declared)})")
    parameters = {**settings, "figures_dir": str(figures_dir), "results_dir": str(results_dir)}
    return NotebookRun(path, parameters, tuple(declared_figures(path)), tuple(declared_tables(path)))


def plan_run(
    profile: str = "full",
    *,
    output: str | os.PathLike[str] | None = None,
    only: Iterable[str] | None = None,
    notebooks_dir: str | os.PathLike[str] | None = None,
    profiles_file: str | os.PathLike[str] | None = None,
    figures_dir: str | os.PathLike[str] | None = None,
    results_dir: str | os.PathLike[str] | None = None,
    publish: bool | None = None,
) -> RunPlan:
    """Plan a run (see :func:`ndcg_research.pipeline.runner.reproduce` for the parameters).

    Every selected notebook is checked here, before any runs, so that a typo fails fast.

    Raises
    ------
    RunnerError
        On a bad profile, notebook name, profiles file or parameter.

    Examples
    --------
    >>> plan = plan_run("quick", only=["01"], output="/tmp/ndcg-plan-example")
    >>> [run.path.name for run in plan.runs], plan.publishing.publish, plan.figures_dir.name
    (['01_worked_example.ipynb'], False, 'figures')
    """
    root = profiles.repo_root()
    nb_dir = Path(notebooks_dir).resolve() if notebooks_dir is not None else root / "notebooks"
    settings, notebooks = _profile(
        profile, Path(profiles_file) if profiles_file is not None else nb_dir / "profiles.yaml", nb_dir)
    selected = select_notebooks(notebooks, only)
    rule = publishing(profile=profile, partial=len(selected) < len(notebooks),
                      default_notebooks=nb_dir == (root / "notebooks").resolve(),
                      output_given=output is not None, folders_given=figures_dir is not None or results_dir is not None,
                      publish=publish)
    out_dir = Path(output).resolve() if output is not None else (root / "build" / profile).resolve()
    fig_dir = Path(figures_dir) if figures_dir is not None else (
        root / PUBLISHED_FIGURES if rule.publish else out_dir / "figures")
    res_dir = Path(results_dir) if results_dir is not None else (
        root / PUBLISHED_RESULTS if rule.publish else out_dir / "results")
    fig_dir, res_dir = fig_dir.resolve(), res_dir.resolve()
    runs = tuple(_notebook_run(p, profile, settings.get(p.stem, {}), fig_dir, res_dir) for p in selected)
    return RunPlan(profile, nb_dir, out_dir / "notebooks", fig_dir, res_dir, rule, runs)
