"""Run the notebooks with papermill under a profile of ``notebooks/profiles.yaml`` (:func:`reproduce`: into
``build/<profile>`` unless it publishes, each checked for the figures and tables it declares), and store committed
notebooks re-executed and clean (:func:`store`)."""

from __future__ import annotations

import contextlib
import copy
import functools
import json
import logging
import os
import shutil
import sys
import tempfile
import time
import uuid
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from .._validation import check_bool, check_instance, check_int
from . import profiles
from .profiles import (
    DEFAULT_TIMEOUT,
    INJECTED_PARAMETERS,
    RunnerError,
    declared_figures,
    declared_tables,
    discover_notebooks,
    load_profiles,
    notebook_parameters,
    read_notebook,
    select_notebooks,
)

#: Kernel used for every run: the ``python3`` kernel of the Python running the runner.
KERNEL_NAME = "python3"


class NotebookFailed(RunnerError):
    """A notebook raised, timed out or did not write a declared output (``output_path``: the executed notebook)."""

    def __init__(self, message: str, *, notebook: str, output_path: Path | None = None) -> None:
        super().__init__(message)
        self.notebook, self.output_path = notebook, output_path


@dataclass(frozen=True)
class NotebookResult:
    """What one notebook run produced; ``error`` is why it failed (``None`` when it succeeded)."""

    notebook: str
    output_path: Path
    seconds: float
    figures: tuple[str, ...]
    parameters: dict[str, Any] = field(default_factory=dict)
    error: str | None = None


class RunFailed(RunnerError):
    """Notebooks of a run failed (every selected notebook still ran); ``failures`` and ``results`` in run order."""

    def __init__(self, failures: Sequence[NotebookFailed], results: Sequence[NotebookResult]) -> None:
        self.failures, self.results = tuple(failures), tuple(results)
        listed = "\n".join(f"- {failure}" for failure in self.failures)
        super().__init__(f"{len(self.failures)} of {len(self.results)} notebook(s) failed:\n{listed}")


# Drop papermill's warnings about parameter lines it cannot parse (defaults such as "power(beta=2)"): the runner
# checks every parameter against the cell with Python's parser before running (profiles.notebook_parameters).
for _name in ("papermill", "papermill.translators"):
    logging.getLogger(_name).addFilter(
        lambda record: not record.getMessage().startswith(("Unable to parse line", "Passed unknown parameter"))
    )


@dataclass(frozen=True)
class NotebookRun:
    """One notebook of a run: its file, parameters, and declared figures and tables."""

    path: Path
    parameters: dict[str, Any]
    figures: tuple[str, ...]
    tables: tuple[str, ...]


@dataclass(frozen=True)
class Publishing:
    """Whether a run publishes, and the note it prints about it."""

    publish: bool
    note: str = ""


@dataclass(frozen=True)
class RunPlan:
    """Everything a run does, decided before it starts."""

    profile: str
    notebooks_dir: Path
    executed_dir: Path
    figures_dir: Path
    results_dir: Path
    publishing: Publishing
    runs: tuple[NotebookRun, ...]


def publishing(*, partial: bool, publish: bool | None, other: Sequence[str] = ()) -> Publishing:
    """Does a run write the committed ``figures/`` and ``results/full/``? Only a run of the full profile of
    ``notebooks/`` and its ``profiles.yaml`` into the default folders (``other``: the options saying otherwise, e.g.
    ``--output``, which an explicit ``publish`` may not be given with): as asked, else when it runs every notebook."""
    partial = check_bool(partial, "partial")
    # None (not asked) is the default that decides from the run; any other non-bool ("no", 1) was read as true
    publish = check_bool(publish, "publish", none=True)
    if publish and other:
        raise RunnerError(
            "--publish writes the committed figures/ and results/full/ from the full profile of notebooks/ and "
            f"its profiles.yaml only, into no other folder: not with {', '.join(other)}"
        )
    if publish is None:
        publish = not partial and not other
    if partial and not publish and not other:
        return Publishing(
            False, " (a partial run: the committed figures/ and results/full/ are left alone; --publish updates them)"
        )
    return Publishing(publish)


def _notebook_run(
    path: Path, profile: str, settings: dict[str, Any], figures_dir: Path, results_dir: Path
) -> NotebookRun:
    declared = notebook_parameters(path)
    missing = [name for name in INJECTED_PARAMETERS if name not in declared]
    if missing:
        raise RunnerError(f"notebook {path.name} does not declare {', '.join(missing)} in its parameters cell")
    undeclared = sorted(set(settings) - set(declared))
    if undeclared:
        raise RunnerError(
            f"profile {profile!r} sets {', '.join(undeclared)} for notebook {path.name}, "
            f"which its parameters cell does not declare (declared: {', '.join(declared)})"
        )
    for name, value in settings.items():  # papermill writes them into the notebook's metadata, as JSON
        try:
            json.dumps(value)
        except (TypeError, ValueError) as exc:
            raise RunnerError(
                f"profile {profile!r} sets {name} for notebook {path.name} to {value!r}, which is not a JSON value "
                f"(text, number, boolean, null, list or mapping): {exc}"
            ) from exc
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
    """Plan a run (:func:`reproduce`'s parameters), checking every notebook first: a typo fails fast. ``only``: a list
    of notebook names (:func:`~.profiles.select_notebooks`), or None for every notebook; ``publish``: True, False, or
    None to publish only a run of every notebook of the full profile (:func:`publishing`)."""
    check_instance(profile, "profile", str)  # a list was "unhashable type: 'list'"
    publish = check_bool(publish, "publish", none=True)  # before anything: "no" or 1 published a partial run
    for option, given in (
        ("--output", output),
        ("--notebooks-dir", notebooks_dir),
        ("--profiles-file", profiles_file),
        ("--figures-dir", figures_dir),
        ("--results-dir", results_dir),
    ):
        if given is not None:
            profiles.given_path(given, option)
    root = profiles.repo_root()
    nb_dir = Path(notebooks_dir).resolve() if notebooks_dir is not None else root / "notebooks"
    notebooks = discover_notebooks(nb_dir)  # first: a notebooks folder that is not one is named as such
    profiles_path = Path(profiles_file) if profiles_file is not None else nb_dir / "profiles.yaml"
    loaded = load_profiles(profiles_path)
    if profile not in loaded:
        raise RunnerError(
            f"profile {profile!r} is not in {str(profiles_path)!r}; available: {', '.join(sorted(loaded))}"
        )
    unknown = sorted(set(loaded[profile]) - {p.stem for p in notebooks})
    if unknown:
        raise RunnerError(
            f"profile {profile!r} names notebooks that do not exist in {str(nb_dir)!r}: {', '.join(unknown)}"
        )
    selected = select_notebooks(notebooks, only)
    committed = (root / "notebooks").resolve()
    other = {  # the options under which a run must not publish
        f"--profile {profile}": profile != "full",
        "--notebooks-dir": nb_dir != committed,
        "--profiles-file": profiles_file is not None and profiles_path.resolve() != committed / "profiles.yaml",
        "--output": output is not None,
        "--figures-dir": figures_dir is not None,
        "--results-dir": results_dir is not None,
    }
    rule = publishing(partial=len(selected) < len(notebooks), publish=publish, other=[k for k, v in other.items() if v])
    out_dir = Path(output).resolve() if output is not None else (root / "build" / profile).resolve()
    published = {"figures": (root / "figures").resolve(), "results": (root / "results" / "full").resolve()}
    fig_dir, res_dir = (
        (Path(given) if given is not None else published[kind] if rule.publish else out_dir / kind).resolve()
        for given, kind in ((figures_dir, "figures"), (results_dir, "results"))
    )
    # The folders --output makes must not be the notebooks run (papermill would write over them) or, for a run that
    # does not publish, the committed ones (only an explicit --figures-dir or --results-dir may name those).
    clashes = [
        (out_dir / "notebooks", nb_dir, "the folder of the notebooks it runs"),
        (out_dir / "notebooks", committed, "the folder of the committed notebooks"),
    ] + [
        (out_dir / kind, published[kind], f"the committed {kind} folder")
        for given, kind in ((figures_dir, "figures"), (results_dir, "results"))
        if given is None and not rule.publish
    ]
    for made, folder, what in clashes:
        if made.resolve() == folder.resolve():
            raise RunnerError(
                f"--output {str(output or out_dir)!r} would write into {str(folder)!r}, {what}: choose another folder"
            )
    checks: list[tuple[str, Any, Path]] = [("--output", output or out_dir, out_dir / "notebooks")]
    for option, given, kind, folder in (
        ("--figures-dir", figures_dir, "figures", fig_dir),
        ("--results-dir", results_dir, "results", res_dir),
    ):
        if given is not None:
            checks.append((option, given, folder))
        else:
            checks.append(
                (f"the committed {kind} folder", folder, folder)
                if rule.publish
                else ("--output", output or out_dir, folder)
            )
    for option, given, folder in checks:  # the folder, or its first parent that exists, must be a folder (else late)
        found = next(p for p in (folder, *folder.parents) if p.exists())
        if not found.is_dir():
            needs = "" if found == Path(given).resolve() else f" needs {str(found)!r}, which"
            raise RunnerError(f"{option} {str(given)!r}{needs} is a file, not a folder")
    runs = tuple(_notebook_run(p, profile, loaded[profile].get(p.stem, {}), fig_dir, res_dir) for p in selected)
    return RunPlan(profile, nb_dir, out_dir / "notebooks", fig_dir, res_dir, rule, runs)


def reproduce(
    profile: str = "full",
    *,
    output: str | os.PathLike[str] | None = None,
    only: Iterable[str] | None = None,
    timeout: int | None = DEFAULT_TIMEOUT,
    notebooks_dir: str | os.PathLike[str] | None = None,
    profiles_file: str | os.PathLike[str] | None = None,
    figures_dir: str | os.PathLike[str] | None = None,
    results_dir: str | os.PathLike[str] | None = None,
    publish: bool | None = None,
    progress: bool | None = None,
    stream: TextIO | None = None,
) -> list[NotebookResult]:
    """Execute the notebooks under a profile, check their figures and tables, and index the figures; raise
    :class:`RunnerError` before any notebook runs, :class:`RunFailed` after all ran if some failed."""
    timeout = check_int(timeout, "timeout", low=1, none=True)  # (before any folder is made)
    progress = check_bool(progress, "progress", none=True)
    report_to = stream if stream is not None else sys.stdout
    plan = plan_run(
        profile,
        output=output,
        only=only,
        notebooks_dir=notebooks_dir,
        profiles_file=profiles_file,
        figures_dir=figures_dir,
        results_dir=results_dir,
        publish=publish,
    )
    for folder in (plan.figures_dir, plan.results_dir, plan.executed_dir):
        folder.mkdir(parents=True, exist_ok=True)
    print(
        f"Running {len(plan.runs)} notebook(s) with profile {plan.profile!r}\n  executed notebooks: "
        f"{plan.executed_dir}\n  figures: {plan.figures_dir}{plan.publishing.note}\n  results: {plan.results_dir}",
        file=report_to,
        flush=True,
    )
    results, failures = execute_plan(plan, timeout=timeout, progress=progress, out=report_to)

    from .figures import write_index

    index = write_index(plan.figures_dir)
    print(format_summary(results), file=report_to)
    print(f"Figure index: {index}", file=report_to, flush=True)
    if failures:
        raise RunFailed(failures, results)
    return results


def execute_plan(
    plan: RunPlan, *, timeout: int | None, progress: bool | None, out: TextIO
) -> tuple[list[NotebookResult], list[NotebookFailed]]:
    """Run and check every notebook of ``plan`` in order (a failure does not stop the run): results and failures."""
    from tqdm import tqdm

    show_bar = progress
    if show_bar is None:
        try:
            show_bar = os.environ.get("CI", "").lower() not in {"1", "true", "yes"} and sys.stderr.isatty()
        except (AttributeError, ValueError):  # no stderr, or a closed one
            show_bar = False
    say = print if not show_bar else (lambda *args, **kw: None)
    results: list[NotebookResult] = []
    failures: list[NotebookFailed] = []
    with tqdm(total=len(plan.runs), unit="notebook", file=sys.stderr, dynamic_ncols=True, disable=not show_bar) as bar:
        for run in plan.runs:
            bar.set_description(run.path.stem)
            say(f"- {run.path.name} ...", file=out, flush=True)
            output_path = plan.executed_dir / run.path.name
            started, clock, error = time.time(), time.perf_counter(), None
            try:
                seconds = run_notebook(run.path, output_path, run.parameters, timeout=timeout, cwd=plan.notebooks_dir)
                check_outputs(run, plan, since=started, output_path=output_path)
            except NotebookFailed as exc:
                failures.append(exc)
                seconds, error = time.perf_counter() - clock, str(exc)
                bar.write(f"  FAILED: {exc}", file=out)  # clear of the bar, if it is shown
                out.flush()
            else:
                say(f"  done in {seconds:.1f} s, {len(run.figures)} figure(s)", file=out, flush=True)
            results.append(NotebookResult(run.path.name, output_path, seconds, run.figures, run.parameters, error))
            bar.update(1)
    return results, failures


def format_summary(results: Sequence[NotebookResult]) -> str:
    """The per-notebook summary table printed after a run, then the total."""
    rows = [(r.notebook, f"{r.seconds:.1f}", "FAILED" if r.error else (", ".join(r.figures) or "-")) for r in results]
    n_fig = sum(len(r.figures) for r in results if not r.error)
    n_failed = sum(1 for r in results if r.error)
    tail = f"{n_fig} figure(s)" + (f", {n_failed} notebook(s) FAILED" if n_failed else "")
    rows = [("notebook", "seconds", "figures"), *rows, ("total", f"{sum(r.seconds for r in results):.1f}", tail)]
    w0, w1 = max(len(r[0]) for r in rows), max(len(r[1]) for r in rows)
    return "\n".join(f"{a:<{w0}}  {b:>{w1}}  {c}" for a, b, c in rows)


@functools.cache
def kernel_manager_class() -> type:
    """jupyter_client's kernel manager, quiet on successful runs: IPC sockets on POSIX (no "Kernel is running over TCP
    without encryption"), each at a unique temporary path (the numbered ``kernel-ipc-1`` in the working directory
    would clash between two runs), and no interrupt at shutdown (it logs ``KeyboardInterrupt caught in kernel``)."""
    from jupyter_client import AsyncKernelManager
    from traitlets import CaselessStrEnum, default

    class RunnerKernelManager(AsyncKernelManager):
        transport = CaselessStrEnum(
            ["tcp", "ipc"],
            default_value="ipc" if os.name == "posix" else "tcp",
            config=True,
            help="Transport of the kernel's sockets (IPC on POSIX: no unencrypted TCP).",
        )

        @default("ip")
        def _unique_ipc_path(self) -> str:
            if self.transport != "ipc":
                return super()._ip_default()
            # Short: a socket path has at most 103 bytes on macOS, whose $TMPDIR alone takes ~50.
            return os.path.join(tempfile.gettempdir(), f"ndcg-kernel-{uuid.uuid4().hex[:12]}")

        async def _async_interrupt_kernel(self) -> None:
            # jupyter_client calls this at the start of every shutdown (and only there: the public
            # interrupt_kernel is a separate function object).
            if self.shutting_down:
                return
            await super()._async_interrupt_kernel()

    return RunnerKernelManager


def kernel_metadata(kernel_name: str = KERNEL_NAME) -> dict[str, Any]:
    """The ``kernelspec`` and ``language_info`` JupyterLab writes into a notebook it opens (read from the kernel)."""
    import nbformat
    from jupyter_client.kernelspec import KernelSpecManager, NoSuchKernel
    from nbclient import NotebookClient

    try:
        spec = KernelSpecManager().get_kernel_spec(kernel_name)
    except NoSuchKernel as exc:
        raise RunnerError(f"no Jupyter kernel named {kernel_name!r}") from exc
    nb = nbformat.v4.new_notebook()
    try:
        NotebookClient(nb, kernel_name=kernel_name, kernel_manager_class=kernel_manager_class()).execute()
    except Exception as exc:
        raise RunnerError(f"kernel {kernel_name!r} did not start: {type(exc).__name__}: {exc}") from exc
    return {
        "kernelspec": {"display_name": spec.display_name, "language": spec.language, "name": kernel_name},
        "language_info": dict(nb.metadata["language_info"]),
    }


def run_notebook(
    path: str | os.PathLike[str],
    output_path: str | os.PathLike[str],
    parameters: Mapping[str, Any] | None = None,
    *,
    timeout: int | None = DEFAULT_TIMEOUT,
    cwd: str | os.PathLike[str] | None = None,
) -> float:
    """Execute one notebook with papermill into ``output_path`` (also on failure); return the seconds taken. A failure
    is a :class:`NotebookFailed` naming the cell as a user finds it (:func:`_describe_cell`)."""
    from papermill.exceptions import PapermillExecutionError

    path, output_path = Path(path), Path(output_path)
    timeout = check_int(timeout, "timeout", low=1, none=True)  # papermill's TraitError on 2.5 would fail every notebook
    output_path.parent.mkdir(parents=True, exist_ok=True)
    if output_path.resolve() != path.resolve():  # (run in place, papermill reads the notebook before writing it)
        output_path.unlink(missing_ok=True)  # an earlier run's would pass for this run's partial notebook
    start = time.perf_counter()
    try:
        import papermill

        papermill.execute_notebook(
            str(path),
            str(output_path),
            parameters=dict(parameters or {}),
            kernel_name=KERNEL_NAME,
            cwd=str(cwd if cwd is not None else path.parent),
            execution_timeout=timeout,
            progress_bar=False,
            log_output=False,
            request_save_on_cell_execute=True,
            kernel_manager_class=kernel_manager_class(),
        )
    except Exception as exc:  # a cell raised; or a timeout, a dead kernel, a kernel that did not start
        if isinstance(exc, PapermillExecutionError):
            where = _describe_cell(output_path, path, execution_count=exc.exec_count, source=exc.source)
            error, saved = f"{exc.ename}: {_first_lines(str(exc.evalue), 3)}", "with the traceback"
        else:
            where = _describe_cell(output_path, path)
            error, saved = f"{type(exc).__name__}: {_first_lines(str(exc), 3)}", "partial"
        written = output_path.is_file()  # not when papermill failed before the kernel started
        raise NotebookFailed(
            f"notebook {path.name} failed{where}:\n  {error}"
            + (f"\n  executed notebook ({saved}): {output_path}" if written else "\n  (no executed notebook written)"),
            notebook=path.name,
            output_path=output_path if written else None,
        ) from exc
    return time.perf_counter() - start


def check_outputs(run: NotebookRun, plan: RunPlan, *, since: float, output_path: Path) -> None:
    """Fail unless every figure and table ``run`` declares was written during the run."""
    from .figures import figure_files

    since -= 2.0  # the file system's clock and time.time() may differ by a little
    problems = []
    for name in run.figures:
        for file in figure_files(name, plan.figures_dir):
            if not file.is_file():
                problems.append(f"{name}: {file.name} is missing")
            elif file.stat().st_mtime < since:
                problems.append(f"{name}: {file.name} is stale (not rewritten by this run)")
    for pattern in run.tables:
        matches = [file for file in plan.results_dir.glob(pattern) if file.is_file()]
        if not matches:
            problems.append(f"table {pattern}: no such file in {plan.results_dir}")
        elif all(file.stat().st_mtime < since for file in matches):
            problems.append(f"table {pattern}: stale (not rewritten by this run)")
    if problems:
        raise NotebookFailed(
            f"notebook {run.path.name} did not write the figures and tables it declares (figures: "
            f"{plan.figures_dir}):\n  " + "\n  ".join(problems) + f"\n  executed notebook: {output_path}",
            notebook=run.path.name,
            output_path=output_path,
        )


def _first_lines(text: str, n: int) -> str:
    lines = [line for line in str(text).strip().splitlines() if line.strip()]
    return " | ".join(lines[:n]) + (" ..." if len(lines) > n else "")


def _describe_cell(
    executed: Path, notebook: Path, *, execution_count: int | None = None, source: str | None = None
) -> str:
    """The failed (or still running) cell as a user finds it: `` at cell [4] of the executed notebook (code cell 3 of
    03_x.ipynb, starting 'raise ValueError')``, or only what is known (empty if nothing)."""
    try:
        cells = read_notebook(executed).cells
    except Exception:
        cells = []
    code = [c for c in cells if c.cell_type == "code" and "injected-parameters" not in c.metadata.get("tags", [])]
    found = None
    if execution_count is not None:
        found = next((i for i, c in enumerate(code) if c.get("execution_count") == execution_count), None)
    if found is None:
        found = next((i for i, c in enumerate(code) if c.metadata.get("papermill", {}).get("exception")), None)
    if found is None:  # a timeout or a dead kernel: the last cell papermill started
        started = [i for i, c in enumerate(code) if c.metadata.get("papermill", {}).get("start_time")]
        found = started[-1] if started else None
    if found is None:
        return f" in the cell starting {_first_lines(source, 1)!r}" if source is not None else ""
    cell = code[found]
    count = cell.get("execution_count") if execution_count is None else execution_count
    first = _first_lines(cell.source if source is None else source, 1)
    where = f"code cell {found + 1} of {notebook.name}"
    if count is None:
        return f" at {where} (starting {first!r})"
    return f" at cell [{count}] of the executed notebook ({where}, starting {first!r})"


# Not nbstripout: it strips outputs (which nbval checks), keeps execute_result metadata and emptied tag lists, and
# its drop_tagged_cells (0.9) drops only the last tag's cells.
_VOLATILE_CELL_KEYS = ("papermill", "execution", "ExecuteTime", "collapsed", "scrolled")
_VOLATILE_NB_KEYS = ("papermill", "widgets", "toc", "varInspector")


def strip_volatile(nb: Any) -> Any:
    """A copy of a notebook without volatile metadata (papermill's, timings, view state, injected cells, execute
    results' metadata); outputs, counts and kernel metadata are kept; idempotent."""
    nb = copy.deepcopy(nb)
    for key in _VOLATILE_NB_KEYS:
        nb.metadata.pop(key, None)
    papermill_tags = {"injected-parameters", "papermill-error-cell-tag"}
    nb.cells = [cell for cell in nb.cells if not papermill_tags & set(cell.metadata.get("tags", []))]
    for cell in nb.cells:
        for key in _VOLATILE_CELL_KEYS:
            cell.metadata.pop(key, None)
        if cell.metadata.get("tags") == []:
            cell.metadata.pop("tags")
        for output in cell.get("outputs", []):
            if output.get("output_type") == "execute_result":
                output["metadata"] = {}
    return nb


def store(
    *,
    only: Iterable[str] | None = None,
    notebooks_dir: str | os.PathLike[str] | None = None,
    timeout: int | None = DEFAULT_TIMEOUT,
    execute: bool = True,
    stream: TextIO | None = None,
) -> list[Path]:
    """Re-execute committed notebooks in place with their defaults (``execute=False``: do not), strip them and record
    :func:`kernel_metadata`; return those rewritten. A failure leaves that notebook and the later ones as they were."""
    import nbformat

    timeout = check_int(timeout, "timeout", low=1, none=True)  # (checked here too when execute is False)
    execute = check_bool(execute, "execute")  # "no" would execute
    out = stream if stream is not None else sys.stdout
    nb_dir = notebooks_dir if notebooks_dir is not None else profiles.repo_root() / "notebooks"
    selected = select_notebooks(discover_notebooks(nb_dir), only)
    kernel = kernel_metadata()
    written = []
    for nb_path in selected:
        if execute:
            print(f"- executing {nb_path.name} with its default parameters ...", file=out, flush=True)
            scratch = Path(tempfile.mkdtemp(prefix="ndcg-store-"))
            try:
                seconds = run_notebook(nb_path, scratch / nb_path.name, None, timeout=timeout, cwd=nb_path.parent)
            except NotebookFailed:
                with contextlib.suppress(OSError):
                    scratch.rmdir()  # only if empty: the executed notebook the message names is kept
                raise
            nb = read_notebook(scratch / nb_path.name)
            shutil.rmtree(scratch)
            print(f"  done in {seconds:.1f} s", file=out, flush=True)
        else:
            nb = read_notebook(nb_path)
        nb = strip_volatile(nb)
        nb.metadata.update(copy.deepcopy(kernel))
        nbformat.validate(nb)
        nbformat.write(nb, nb_path)
        written.append(nb_path)
        print(f"  stored {nb_path}", file=out, flush=True)
    return written
