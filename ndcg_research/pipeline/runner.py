"""Run the notebooks with papermill under a named parameter profile.

The notebooks live in ``notebooks/`` and are named ``NN_short_description.ipynb``.
:func:`reproduce` executes them in order with papermill under a profile read
from ``notebooks/profiles.yaml``::

    quick:                      # profile name
      01_worked_example:        # notebook stem
        k: 6                    # parameter: value
    full:
      01_worked_example: {}

Each run also injects ``figures_dir`` and ``results_dir`` (absolute paths; a profile
must not set them). Executed notebooks go to ``<output>/notebooks/``, result tables
to ``<output>/results/`` and figures to ``<output>/figures/``; the default output is
``build/<profile>``, except that a run of *every* notebook with the ``full`` profile
*publishes*: it writes the figures into the committed ``figures/`` folder and the
result tables into the committed ``results/full/`` folder (:data:`PUBLISHED_RESULTS`),
from which the findings and the notebooks' "full profile" paragraphs read them. A
partial run (``only=...``) publishes only when asked (``publish=True``, or the
folders given as ``figures_dir`` / ``results_dir``).

A notebook declares the figures and result tables it writes in its metadata::

    {"ndcg_research": {"figures": ["01_contributions"], "tables": ["03_ndcg_*.csv"]}}

and its run fails unless each declared figure's PNG, PDF and JSON files, and a
file matching each declared table (in ``results_dir``), were written during the
run. A failing notebook does not stop the run: the others still run, and the run
then fails listing every failure. At the end the figure index
``<figures>/README.md`` is regenerated from the provenance records.

:func:`~ndcg_research.pipeline.storing.store` re-executes committed notebooks in place with their default
parameters, strips volatile metadata and records the kernel metadata that
JupyterLab fills in when it opens a notebook (:func:`kernel_metadata`), so that
stored outputs (checked by nbval) can be refreshed with one command and opening
a stored notebook does not mark it modified.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Iterable, Sequence
from typing import TextIO

# The runner's parts, by job; their names stay reachable here (runner.X), where notebooks, tests and the
# command line have always found them.
from .errors import NotebookFailed, RunFailed, RunnerError
from .execution import (
    DEFAULT_TIMEOUT,
    KERNEL_NAME,
    NotebookResult,
    check_outputs,
    kernel_manager_class,
    kernel_metadata,
    run_notebook,
)
from .plan import PUBLISHED_FIGURES, PUBLISHED_RESULTS, RunPlan, plan_run, publishing
from .profiles import (
    INJECTED_PARAMETERS,
    METADATA_KEY,
    NOTEBOOK_GLOB,
    NotebookParameter,
    declared_figures,
    declared_tables,
    describe_parameters,
    discover_notebooks,
    load_profiles,
    notebook_parameters,
    repo_root,
    select_notebooks,
)
from .storing import store, strip_volatile

__all__ = [
    "RunnerError", "NotebookFailed", "RunFailed", "NotebookResult", "NotebookParameter", "RunPlan",
    "DEFAULT_TIMEOUT", "KERNEL_NAME", "NOTEBOOK_GLOB", "METADATA_KEY", "INJECTED_PARAMETERS",
    "PUBLISHED_RESULTS", "PUBLISHED_FIGURES", "repo_root", "discover_notebooks", "select_notebooks",
    "load_profiles", "declared_figures", "declared_tables", "notebook_parameters", "describe_parameters",
    "kernel_manager_class", "kernel_metadata", "run_notebook", "check_outputs", "plan_run", "publishing",
    "reproduce", "execute_plan", "strip_volatile", "store", "format_summary",
]


def reproduce(
    profile: str = "full",
    *,
    output: str | os.PathLike[str] | None = None,
    only: Iterable[str] | None = None,
    timeout: float | None = DEFAULT_TIMEOUT,
    notebooks_dir: str | os.PathLike[str] | None = None,
    profiles_file: str | os.PathLike[str] | None = None,
    figures_dir: str | os.PathLike[str] | None = None,
    results_dir: str | os.PathLike[str] | None = None,
    publish: bool | None = None,
    progress: bool | None = None,
    stream: TextIO | None = None,
) -> list[NotebookResult]:
    """Execute the notebooks under a profile, check their figures and tables, and index the figures.

    Parameters
    ----------
    profile : str, optional
        Profile name in the profiles file (``"quick"`` or ``"full"``).
    output : str or path-like, optional
        Output folder: executed notebooks go to ``<output>/notebooks``, result
        tables to ``<output>/results`` and figures to ``<output>/figures``.
        Default: ``build/<profile>`` under the repository.
    only : iterable of str, optional
        Run only these notebooks (stem, file name or number).
    timeout : float or None, optional
        Per-cell execution timeout in seconds.
    notebooks_dir : str or path-like, optional
        Where the notebooks are; default ``<repo>/notebooks``.
    profiles_file : str or path-like, optional
        Default ``<notebooks_dir>/profiles.yaml``.
    figures_dir : str or path-like, optional
        The figures folder, overriding the default above.
    results_dir : str or path-like, optional
        The result tables folder (and the sweeps' cache under it), overriding the default above.
    publish : bool, optional
        Write figures to the committed ``figures/`` and tables to the committed
        ``results/full/`` (unless ``figures_dir`` / ``results_dir`` say otherwise).
        Default: only for the ``full`` profile run on every notebook of the
        repository without ``output``; a partial run never publishes unless asked.
    progress : bool, optional
        Show a progress bar; default: only when standard error is a terminal.
    stream : text file, optional
        Where to print progress messages and the summary; default standard output.

    Returns
    -------
    list of NotebookResult
        One per notebook run, in order (all succeeded).

    Raises
    ------
    RunnerError
        On a bad profile, notebook name or profiles file (before any notebook runs).
    RunFailed
        When notebooks failed or did not write a declared figure or table. Every
        selected notebook is still run; the error lists each failure, and the
        figure index is written for what the run produced.
    """
    report_to = stream if stream is not None else sys.stdout
    plan = plan_run(profile, output=output, only=only, notebooks_dir=notebooks_dir, profiles_file=profiles_file,
                    figures_dir=figures_dir, results_dir=results_dir, publish=publish)
    for folder in (plan.figures_dir, plan.results_dir, plan.executed_dir):
        folder.mkdir(parents=True, exist_ok=True)
    print(plan.describe(), file=report_to, flush=True)
    results, failures = execute_plan(plan, timeout=timeout, progress=progress, stream=report_to)

    from .figures import write_index

    index = write_index(plan.figures_dir)
    print(format_summary(results), file=report_to)
    print(f"Figure index: {index}", file=report_to, flush=True)
    if failures:
        raise RunFailed(failures, results)
    return results


def execute_plan(plan: RunPlan, *, timeout: float | None = DEFAULT_TIMEOUT, progress: bool | None = None,
                 stream: TextIO | None = None) -> tuple[list[NotebookResult], list[NotebookFailed]]:
    """Run every notebook of ``plan`` in order, checking each one's declared figures and tables.

    A failing notebook does not stop the run: its result carries the error and the next one runs.

    Parameters
    ----------
    plan : RunPlan
    timeout : float or None, optional
        Per-cell execution timeout in seconds.
    progress : bool, optional
        Show a progress bar; default: only when standard error is a terminal.
    stream : text file, optional
        Where to print progress messages; default standard output.

    Returns
    -------
    results : list of NotebookResult
        One per notebook, in run order (``error`` set on the failed ones).
    failures : list of NotebookFailed
        The failures, in run order.
    """
    from tqdm import tqdm

    out = stream if stream is not None else sys.stdout
    show_bar = progress if progress is not None else _stderr_is_tty()
    say = print if not show_bar else (lambda *args, **kw: None)
    results: list[NotebookResult] = []
    failures: list[NotebookFailed] = []
    with tqdm(total=len(plan.runs), unit="notebook", file=sys.stderr, dynamic_ncols=True, disable=not show_bar) as bar:
        for run in plan.runs:
            bar.set_description(run.path.stem)
            say(f"- {run.path.name} ...", file=out, flush=True)
            output_path = plan.executed_dir / run.path.name
            started, clock = time.time(), time.perf_counter()
            try:
                seconds = run_notebook(run.path, output_path, run.parameters, timeout=timeout, cwd=plan.notebooks_dir)
                check_outputs(run.path.name, run.figures, run.tables, plan.figures_dir, plan.results_dir,
                              since=started, output_path=output_path)
            except NotebookFailed as exc:
                failures.append(exc)
                results.append(NotebookResult(run.path.name, output_path, time.perf_counter() - clock, run.figures,
                                              run.parameters, error=str(exc)))
                if show_bar:
                    bar.write(f"  FAILED: {exc}", file=out)
                else:
                    print(f"  FAILED: {exc}", file=out, flush=True)
            else:
                results.append(NotebookResult(run.path.name, output_path, seconds, run.figures, run.parameters))
                say(f"  done in {seconds:.1f} s, {len(run.figures)} figure(s)", file=out, flush=True)
            bar.update(1)
    return results, failures


def format_summary(results: Sequence[NotebookResult]) -> str:
    """Format the per-notebook summary table printed after a run.

    Parameters
    ----------
    results : sequence of NotebookResult

    Returns
    -------
    str
        One row per notebook (a failed one shows ``FAILED`` instead of its
        figures), then the total.

    Examples
    --------
    >>> from pathlib import Path
    >>> ok = NotebookResult("01_a.ipynb", Path("x"), 1.234, ("01_fig",))
    >>> bad = NotebookResult("02_b.ipynb", Path("y"), 0.5, ("02_fig",), error="boom")
    >>> print(format_summary([ok, bad]))
    notebook    seconds  figures
    01_a.ipynb      1.2  01_fig
    02_b.ipynb      0.5  FAILED
    total           1.7  1 figure(s), 1 notebook(s) FAILED
    """
    rows = [(r.notebook, f"{r.seconds:.1f}", "FAILED" if r.error else (", ".join(r.figures) or "-"))
            for r in results]
    total = sum(r.seconds for r in results)
    n_fig = sum(len(r.figures) for r in results if not r.error)
    n_failed = sum(1 for r in results if r.error)
    tail = f"{n_fig} figure(s)" + (f", {n_failed} notebook(s) FAILED" if n_failed else "")
    rows.append(("total", f"{total:.1f}", tail))
    header = ("notebook", "seconds", "figures")
    w0 = max(len(header[0]), *(len(r[0]) for r in rows))
    w1 = max(len(header[1]), *(len(r[1]) for r in rows))
    lines = [f"{header[0]:<{w0}}  {header[1]:>{w1}}  {header[2]}"]
    lines += [f"{a:<{w0}}  {b:>{w1}}  {c}" for a, b, c in rows]
    return "\n".join(lines)


def _stderr_is_tty() -> bool:
    if os.environ.get("CI", "").lower() in {"1", "true", "yes"}:
        return False
    try:
        return sys.stderr.isatty()
    except (AttributeError, ValueError):
        return False
