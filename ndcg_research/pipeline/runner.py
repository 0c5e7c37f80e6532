"""Run the notebooks with papermill under a named parameter profile.

The notebooks live in ``notebooks/`` and are named ``NN_short_description.ipynb``.
:func:`reproduce` executes them in order with papermill under a profile read
from ``notebooks/profiles.yaml``::

    quick:                      # profile name
      01_worked_example:        # notebook stem
        k: 6                    # parameter: value
    full:
      01_worked_example: {}

Each run also injects ``figures_dir`` and ``results_dir`` (absolute paths).
Executed notebooks go to ``<output>/notebooks/``; the figures to
``<output>/figures/``, except for the ``full`` profile without ``--output``,
which writes the publication figures into the committed ``figures/`` folder.

A notebook declares the figures and result tables it writes in its metadata::

    {"ndcg_research": {"figures": ["01_contributions"], "tables": ["03_ndcg_*.csv"]}}

and the run fails unless each declared figure's PNG, PDF and JSON files, and a
file matching each declared table (in ``results_dir``), were written during the run. At the end the figure index ``<figures>/README.md`` is
regenerated from the provenance records.

:func:`store` re-executes committed notebooks in place with their default
parameters and strips volatile metadata, so that stored outputs (checked by
nbval) can be refreshed with one command.
"""

from __future__ import annotations

import copy
import logging
import os
import sys
import tempfile
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

__all__ = [
    "RunnerError",
    "NotebookFailed",
    "NotebookResult",
    "DEFAULT_TIMEOUT",
    "KERNEL_NAME",
    "repo_root",
    "discover_notebooks",
    "select_notebooks",
    "load_profiles",
    "declared_figures",
    "declared_tables",
    "notebook_parameters",
    "run_notebook",
    "reproduce",
    "strip_volatile",
    "store",
    "format_summary",
]

#: Kernel used for every run: the ``python3`` kernel of the Python running the runner.
KERNEL_NAME = "python3"

#: Default execution timeout per cell, in seconds.
DEFAULT_TIMEOUT = 3600

#: Glob of the notebooks the runner executes.
NOTEBOOK_GLOB = "[0-9][0-9]_*.ipynb"

#: Notebook metadata namespace of this project.
METADATA_KEY = "ndcg_research"

#: Parameters the runner injects into every notebook.
INJECTED_PARAMETERS = ("figures_dir", "results_dir")


class RunnerError(Exception):
    """A problem that stops the run, with a message meant for the user."""


class NotebookFailed(RunnerError):
    """A notebook raised an error, timed out, or did not write a declared figure.

    Attributes
    ----------
    notebook : str
        File name of the notebook.
    output_path : pathlib.Path or None
        Where the executed (partial) notebook was written.
    """

    def __init__(self, message: str, *, notebook: str, output_path: Path | None = None) -> None:
        super().__init__(message)
        self.notebook = notebook
        self.output_path = output_path


@dataclass(frozen=True)
class NotebookResult:
    """What one notebook run produced.

    Attributes
    ----------
    notebook : str
        File name of the notebook.
    output_path : pathlib.Path
        The executed notebook.
    seconds : float
        Wall-clock time of the run.
    figures : tuple of str
        The figures the notebook declared (all verified to be written).
    parameters : dict
        The parameters injected into the notebook.
    """

    notebook: str
    output_path: Path
    seconds: float
    figures: tuple[str, ...]
    parameters: dict[str, Any] = field(default_factory=dict)


# --------------------------------------------------------------------------- discovery


def repo_root() -> Path:
    """Return the folder that holds ``notebooks/`` for this checkout.

    The package is meant to be installed in editable mode from its repository,
    so the repository is the parent of the package folder. When that folder has
    no ``notebooks/`` (a non-editable install), the current working directory is
    used instead.

    Returns
    -------
    pathlib.Path
        The repository root.
    """
    candidate = Path(__file__).resolve().parents[2]  # ndcg_research/pipeline/runner.py -> repository
    if (candidate / "notebooks").is_dir():
        return candidate
    return Path.cwd()


def discover_notebooks(notebooks_dir: str | os.PathLike[str]) -> list[Path]:
    """List the notebooks ``NN_*.ipynb`` of a folder, in order.

    Parameters
    ----------
    notebooks_dir : str or path-like
        The folder.

    Returns
    -------
    list of pathlib.Path
        Sorted by name, so ``01_...`` runs before ``02_...``.

    Raises
    ------
    RunnerError
        If the folder does not exist.
    """
    folder = Path(notebooks_dir)
    if not folder.is_dir():
        raise RunnerError(f"notebooks directory {str(folder)!r} does not exist")
    return sorted(p for p in folder.glob(NOTEBOOK_GLOB) if p.is_file())


def select_notebooks(notebooks: Sequence[Path], only: Iterable[str] | None) -> list[Path]:
    """Keep the notebooks named in ``only``, in run order.

    A name matches a notebook by its stem (``01_worked_example``), its file name
    (``01_worked_example.ipynb``) or its number (``01``).

    Parameters
    ----------
    notebooks : sequence of pathlib.Path
        All notebooks, in run order.
    only : iterable of str or None
        Names to keep; ``None`` or empty keeps all.

    Returns
    -------
    list of pathlib.Path

    Raises
    ------
    RunnerError
        If a name matches no notebook.

    Examples
    --------
    >>> from pathlib import Path
    >>> nbs = [Path("01_a.ipynb"), Path("02_b.ipynb")]
    >>> [p.name for p in select_notebooks(nbs, ["02"])]
    ['02_b.ipynb']
    """
    names = list(only or [])
    if not names:
        return list(notebooks)
    chosen: set[Path] = set()
    for name in names:
        matches = [
            p for p in notebooks
            if name in (p.stem, p.name) or (name.isdigit() and p.stem.split("_", 1)[0] == name.zfill(2))
        ]
        if not matches:
            available = ", ".join(p.stem for p in notebooks) or "(none)"
            raise RunnerError(f"--only {name!r} matches no notebook; available: {available}")
        chosen.update(matches)
    return [p for p in notebooks if p in chosen]


def load_profiles(path: str | os.PathLike[str]) -> dict[str, dict[str, dict[str, Any]]]:
    """Read a profiles file: ``{profile: {notebook_stem: {parameter: value}}}``.

    Parameters
    ----------
    path : str or path-like
        The YAML file.

    Returns
    -------
    dict
        Profiles; a notebook entry that is empty (``null``) becomes ``{}``.

    Raises
    ------
    RunnerError
        If the file is missing or not shaped as above.
    """
    import yaml

    path = Path(path)
    if not path.is_file():
        raise RunnerError(f"profiles file {str(path)!r} does not exist")
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except yaml.YAMLError as exc:
        raise RunnerError(f"profiles file {str(path)!r} is not valid YAML: {exc}") from exc
    if not isinstance(data, dict) or not data:
        raise RunnerError(f"profiles file {str(path)!r} must map profile names to notebooks")
    profiles: dict[str, dict[str, dict[str, Any]]] = {}
    for profile, notebooks in data.items():
        if notebooks is None:
            notebooks = {}
        if not isinstance(notebooks, dict):
            raise RunnerError(
                f"profile {profile!r} in {str(path)!r} must map notebook names to parameters, "
                f"got {type(notebooks).__name__}"
            )
        entry: dict[str, dict[str, Any]] = {}
        for stem, params in notebooks.items():
            if params is None:
                params = {}
            if not isinstance(params, dict):
                raise RunnerError(
                    f"profile {profile!r}, notebook {stem!r} in {str(path)!r} must map parameter "
                    f"names to values, got {type(params).__name__}"
                )
            entry[str(stem)] = dict(params)
        profiles[str(profile)] = entry
    return profiles


def declared_figures(notebook: str | os.PathLike[str] | Any) -> list[str]:
    """Return the figures a notebook declares in ``metadata["ndcg_research"]["figures"]``.

    Parameters
    ----------
    notebook : str, path-like or nbformat.NotebookNode
        The notebook file or an already-read notebook.

    Returns
    -------
    list of str
        Figure names (possibly empty).

    Raises
    ------
    RunnerError
        If the declaration is not a list of strings.

    Examples
    --------
    >>> import nbformat
    >>> declared_figures(nbformat.v4.new_notebook(metadata={"ndcg_research": {"figures": ["01_a"]}}))
    ['01_a']
    """
    return _declared(notebook, "figures")


def declared_tables(notebook: str | os.PathLike[str] | Any) -> list[str]:
    """Return the result tables a notebook declares in ``metadata["ndcg_research"]["tables"]``.

    Each entry is a file name in ``results_dir`` or a glob pattern (``"03_ndcg_*.csv"``,
    for tables named after a parameter); the runner requires at least one matching
    file written during the run.

    Parameters
    ----------
    notebook : str, path-like or nbformat.NotebookNode

    Returns
    -------
    list of str

    Examples
    --------
    >>> import nbformat
    >>> declared_tables(nbformat.v4.new_notebook(metadata={"ndcg_research": {"tables": ["02_*.csv"]}}))
    ['02_*.csv']
    """
    return _declared(notebook, "tables")


def _declared(notebook: str | os.PathLike[str] | Any, kind: str) -> list[str]:
    nb = _read(notebook) if isinstance(notebook, (str, os.PathLike)) else notebook
    meta = nb.metadata.get(METADATA_KEY, {}) or {}
    names = meta.get(kind, [])
    if not isinstance(names, list) or not all(isinstance(f, str) for f in names):
        raise RunnerError(f"metadata[{METADATA_KEY!r}][{kind!r}] must be a list of names, got {names!r}")
    return list(names)


def notebook_parameters(path: str | os.PathLike[str]) -> dict[str, str]:
    """Return the parameters declared in a notebook's ``parameters`` cell.

    The cell is parsed with :mod:`ast` (papermill's own inspection is
    line-based and gives up on lines such as ``k = 6  # "quoted" (comment)``).
    Every top-level assignment ``name = value`` or ``name: type = value`` counts.

    Parameters
    ----------
    path : str or path-like
        The notebook.

    Returns
    -------
    dict
        ``{name: default value as source text}``, in the order of the cell.

    Raises
    ------
    RunnerError
        If the notebook has no cell tagged ``parameters``, or the cell is not valid Python.

    Examples
    --------
    >>> import nbformat, tempfile, os
    >>> nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(
    ...     'k = 6  # cut-off "k" (None: all)\\nfigures_dir = "../build/figures"')])
    >>> nb.cells[0].metadata["tags"] = ["parameters"]
    >>> path = os.path.join(tempfile.mkdtemp(), "01_x.ipynb")
    >>> nbformat.write(nb, path)
    >>> notebook_parameters(path)
    {'k': '6', 'figures_dir': '"../build/figures"'}
    """
    import ast

    nb = _read(path)
    cells = [c for c in nb.cells if "parameters" in c.metadata.get("tags", [])]
    if not cells:
        raise RunnerError(
            f"notebook {Path(path).name} has no cell tagged 'parameters' "
            "(papermill would inject parameters at the top and the defaults would win)"
        )
    declared: dict[str, str] = {}
    for cell in cells:
        try:
            tree = ast.parse(cell.source)
        except SyntaxError as exc:
            raise RunnerError(
                f"the parameters cell of notebook {Path(path).name} is not valid Python: {exc}"
            ) from exc
        for node in tree.body:
            if isinstance(node, ast.Assign):
                targets = [t.id for t in node.targets if isinstance(t, ast.Name)]
            elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.value:
                targets = [node.target.id]
            else:
                continue
            text = ast.get_source_segment(cell.source, node.value) or ""
            for name in targets:
                declared[name] = text
    return declared


# --------------------------------------------------------------------------- execution


class _ParametersCheckedByRunner(logging.Filter):
    """Drop papermill's warnings about parameter lines it cannot read.

    papermill reads the parameters cell line by line and gives up on defaults that are
    spec strings holding an '=' (``"power(beta=2)"``), then calls such parameters
    unknown. The runner checks every parameter against the cell with Python's parser
    before running (:func:`notebook_parameters`), so these warnings are noise here.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        return not record.getMessage().startswith(("Unable to parse line", "Passed unknown parameter"))


for _name in ("papermill", "papermill.translators"):
    logging.getLogger(_name).addFilter(_ParametersCheckedByRunner())


def run_notebook(
    path: str | os.PathLike[str],
    output_path: str | os.PathLike[str],
    parameters: Mapping[str, Any] | None = None,
    *,
    timeout: float | None = DEFAULT_TIMEOUT,
    cwd: str | os.PathLike[str] | None = None,
) -> float:
    """Execute one notebook with papermill and return its wall-clock time.

    Parameters
    ----------
    path : str or path-like
        The notebook to run.
    output_path : str or path-like
        Where to write the executed notebook (also written on failure).
    parameters : mapping, optional
        Parameters to inject after the ``parameters`` cell. ``None`` or empty
        injects nothing, so the notebook runs with its defaults.
    timeout : float or None, optional
        Per-cell execution timeout in seconds; ``None`` for none.
    cwd : str or path-like, optional
        Working directory of the kernel; default: the notebook's folder.

    Returns
    -------
    float
        Seconds taken.

    Raises
    ------
    NotebookFailed
        If a cell raises or times out, or the kernel dies. The message names the
        notebook and the failing cell (index in the executed notebook, execution
        count, exception name and value, first line of the source).
    """
    import papermill
    from papermill.exceptions import PapermillExecutionError

    path = Path(path)
    output_path = Path(output_path)
    output_path.parent.mkdir(parents=True, exist_ok=True)
    if timeout is not None and timeout <= 0:
        raise RunnerError(f"timeout must be a positive number of seconds or None, got {timeout!r}")
    start = time.perf_counter()
    try:
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
            # The kernel's own log (not the notebook's output): keep errors, drop the
            # per-start "running over TCP without encryption" warning that breaks the progress bar.
            extra_arguments=["--IPKernelApp.log_level=ERROR"],
        )
    except PapermillExecutionError as exc:
        evalue = _first_lines(str(exc.evalue), 3)
        raise NotebookFailed(
            f"notebook {path.name} failed in cell {exc.cell_index} "
            f"(execution count [{exc.exec_count}]) of the executed notebook: "
            f"{exc.ename}: {evalue}\n"
            f"  cell source starts: {_first_lines(exc.source, 1)!r}\n"
            f"  executed notebook (with the traceback): {output_path}",
            notebook=path.name,
            output_path=output_path,
        ) from exc
    except Exception as exc:  # timeouts, dead kernels, kernel start failures
        where = _running_cell(output_path)
        raise NotebookFailed(
            f"notebook {path.name} failed{where}: {type(exc).__name__}: "
            f"{_first_lines(str(exc), 3)}\n"
            f"  executed notebook (partial): {output_path}",
            notebook=path.name,
            output_path=output_path,
        ) from exc
    return time.perf_counter() - start


def reproduce(
    profile: str = "full",
    *,
    output: str | os.PathLike[str] | None = None,
    only: Iterable[str] | None = None,
    timeout: float | None = DEFAULT_TIMEOUT,
    notebooks_dir: str | os.PathLike[str] | None = None,
    profiles_file: str | os.PathLike[str] | None = None,
    figures_dir: str | os.PathLike[str] | None = None,
    progress: bool | None = None,
    stream: TextIO | None = None,
) -> list[NotebookResult]:
    """Execute the notebooks under a profile, check their figures, and index them.

    Parameters
    ----------
    profile : str, optional
        Profile name in the profiles file (``"quick"`` or ``"full"``).
    output : str or path-like, optional
        Output folder: executed notebooks go to ``<output>/notebooks``, results
        to ``<output>/results`` and figures to ``<output>/figures``. Default:
        ``build/<profile>`` under the repository, except that the ``full``
        profile then writes its figures to the committed ``figures/`` folder.
    only : iterable of str, optional
        Run only these notebooks (stem, file name or number).
    timeout : float or None, optional
        Per-cell execution timeout in seconds.
    notebooks_dir : str or path-like, optional
        Where the notebooks are; default ``<repo>/notebooks``.
    profiles_file : str or path-like, optional
        Default ``<notebooks_dir>/profiles.yaml``.
    figures_dir : str or path-like, optional
        Override the figures folder.
    progress : bool, optional
        Show a progress bar; default: only when standard error is a terminal.
    stream : text file, optional
        Where to print progress messages and the summary; default standard output.

    Returns
    -------
    list of NotebookResult
        One per notebook run, in order.

    Raises
    ------
    RunnerError
        On a bad profile, notebook name or profiles file.
    NotebookFailed
        When a notebook fails or does not write a declared figure; notebooks
        after it are not run.
    """
    out = stream if stream is not None else sys.stdout
    root = repo_root()
    nb_dir = Path(notebooks_dir).resolve() if notebooks_dir is not None else root / "notebooks"
    prof_file = Path(profiles_file) if profiles_file is not None else nb_dir / "profiles.yaml"
    profiles = load_profiles(prof_file)
    if profile not in profiles:
        raise RunnerError(
            f"profile {profile!r} is not in {str(prof_file)!r}; available: {', '.join(sorted(profiles))}"
        )
    settings = profiles[profile]

    notebooks = discover_notebooks(nb_dir)
    if not notebooks:
        raise RunnerError(f"no notebooks matching {NOTEBOOK_GLOB} in {str(nb_dir)!r}")
    stems = {p.stem for p in notebooks}
    unknown = sorted(set(settings) - stems)
    if unknown:
        raise RunnerError(
            f"profile {profile!r} names notebooks that do not exist in {str(nb_dir)!r}: {', '.join(unknown)}"
        )
    selected = select_notebooks(notebooks, only)

    if output is not None:
        out_dir = Path(output).resolve()
        fig_dir = out_dir / "figures"
    else:
        out_dir = (root / "build" / profile).resolve()
        fig_dir = (root / "figures") if profile == "full" else out_dir / "figures"
    if figures_dir is not None:
        fig_dir = Path(figures_dir)
    fig_dir = fig_dir.resolve()
    results_dir = out_dir / "results"
    executed_dir = out_dir / "notebooks"
    for folder in (fig_dir, results_dir, executed_dir):
        folder.mkdir(parents=True, exist_ok=True)

    # Check every selected notebook before running any, so a typo fails fast.
    plans: list[tuple[Path, dict[str, Any], list[str], list[str]]] = []
    for nb_path in selected:
        declared = notebook_parameters(nb_path)
        params = dict(settings.get(nb_path.stem, {}))
        missing = [name for name in INJECTED_PARAMETERS if name not in declared]
        if missing:
            raise RunnerError(
                f"notebook {nb_path.name} does not declare {', '.join(missing)} in its parameters cell"
            )
        undeclared = sorted(set(params) - set(declared))
        if undeclared:
            raise RunnerError(
                f"profile {profile!r} sets {', '.join(undeclared)} for notebook {nb_path.name}, "
                f"which its parameters cell does not declare (declared: {', '.join(declared)})"
            )
        params["figures_dir"] = str(fig_dir)
        params["results_dir"] = str(results_dir)
        plans.append((nb_path, params, declared_figures(nb_path), declared_tables(nb_path)))

    print(
        f"Running {len(plans)} notebook(s) with profile {profile!r}\n"
        f"  executed notebooks: {executed_dir}\n  figures: {fig_dir}\n  results: {results_dir}",
        file=out,
        flush=True,
    )
    show_bar = progress if progress is not None else _stderr_is_tty()
    results: list[NotebookResult] = []
    bar = _progress_bar(len(plans), enabled=show_bar)
    try:
        for nb_path, params, figures, tables in plans:
            bar.set_description(nb_path.stem)
            if not show_bar:
                print(f"- {nb_path.name} ...", file=out, flush=True)
            output_path = executed_dir / nb_path.name
            started = time.time()
            seconds = run_notebook(nb_path, output_path, params, timeout=timeout, cwd=nb_dir)
            _check_outputs(nb_path.name, figures, tables, fig_dir, results_dir, since=started, output_path=output_path)
            results.append(NotebookResult(nb_path.name, output_path, seconds, tuple(figures), params))
            if not show_bar:
                print(f"  done in {seconds:.1f} s, {len(figures)} figure(s)", file=out, flush=True)
            bar.update(1)
    finally:
        bar.close()

    from .figures import write_index

    index = write_index(fig_dir)
    print(format_summary(results), file=out)
    print(f"Figure index: {index}", file=out, flush=True)
    return results


def _check_outputs(notebook: str, figures: Sequence[str], tables: Sequence[str], fig_dir: Path,
                   results_dir: Path, *, since: float, output_path: Path) -> None:
    """Fail unless every declared figure and table exists and was written during the run."""
    from .figures import figure_files

    def fresh(file: Path) -> bool:
        return file.stat().st_mtime >= since - 2.0

    problems = []
    for name in figures:
        for file in figure_files(name, fig_dir):
            if not file.is_file():
                problems.append(f"{name}: {file.name} is missing")
            elif not fresh(file):
                problems.append(f"{name}: {file.name} is stale (not rewritten by this run)")
    for pattern in tables:
        matches = [file for file in results_dir.glob(pattern) if file.is_file()]
        if not matches:
            problems.append(f"table {pattern}: no such file in {results_dir}")
        elif not any(fresh(file) for file in matches):
            problems.append(f"table {pattern}: stale (not rewritten by this run)")
    if problems:
        raise NotebookFailed(
            f"notebook {notebook} did not write the figures and tables it declares (figures: {fig_dir}):\n  "
            + "\n  ".join(problems)
            + f"\n  executed notebook: {output_path}",
            notebook=notebook,
            output_path=output_path,
        )


def format_summary(results: Sequence[NotebookResult]) -> str:
    """Format the per-notebook summary table printed after a run.

    Parameters
    ----------
    results : sequence of NotebookResult

    Returns
    -------
    str

    Examples
    --------
    >>> from pathlib import Path
    >>> r = NotebookResult("01_a.ipynb", Path("x"), 1.234, ("01_fig",))
    >>> print(format_summary([r]))
    notebook    seconds  figures
    01_a.ipynb      1.2  01_fig
    total           1.2  1 figure(s)
    """
    rows = [(r.notebook, f"{r.seconds:.1f}", ", ".join(r.figures) or "-") for r in results]
    total = sum(r.seconds for r in results)
    n_fig = sum(len(r.figures) for r in results)
    rows.append(("total", f"{total:.1f}", f"{n_fig} figure(s)"))
    header = ("notebook", "seconds", "figures")
    w0 = max(len(header[0]), *(len(r[0]) for r in rows))
    w1 = max(len(header[1]), *(len(r[1]) for r in rows))
    lines = [f"{header[0]:<{w0}}  {header[1]:>{w1}}  {header[2]}"]
    lines += [f"{a:<{w0}}  {b:>{w1}}  {c}" for a, b, c in rows]
    return "\n".join(lines)


# --------------------------------------------------------------------------- storing outputs

#: Cell metadata keys dropped by :func:`strip_volatile`.
_VOLATILE_CELL_KEYS = ("papermill", "execution", "ExecuteTime", "collapsed", "scrolled")
#: Notebook metadata keys dropped by :func:`strip_volatile`.
_VOLATILE_NB_KEYS = ("papermill", "widgets", "toc", "varInspector")
#: The kernelspec stored in every notebook.
_KERNELSPEC = {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}


def strip_volatile(nb: Any) -> Any:
    """Return a copy of a notebook without volatile metadata.

    Removes papermill's notebook and cell metadata, cell timings (``execution``,
    ``ExecuteTime``), view state (``collapsed``, ``scrolled``), the Python
    version in ``language_info`` and output metadata of execute results; sets a
    fixed ``python3`` kernelspec; drops papermill's ``injected-parameters``
    cells and error markers. Execution counts and outputs are kept.

    Parameters
    ----------
    nb : nbformat.NotebookNode
        The notebook.

    Returns
    -------
    nbformat.NotebookNode
        The stripped copy; stripping twice changes nothing.
    """
    nb = copy.deepcopy(nb)
    for key in _VOLATILE_NB_KEYS:
        nb.metadata.pop(key, None)
    nb.metadata["kernelspec"] = dict(_KERNELSPEC)
    info = nb.metadata.get("language_info")
    if isinstance(info, dict):
        info.pop("version", None)
    kept = []
    for cell in nb.cells:
        tags = cell.metadata.get("tags", [])
        if "injected-parameters" in tags or "papermill-error-cell-tag" in tags:
            continue
        for key in _VOLATILE_CELL_KEYS:
            cell.metadata.pop(key, None)
        if cell.metadata.get("tags") == []:
            cell.metadata.pop("tags")
        for output in cell.get("outputs", []):
            if output.get("output_type") == "execute_result":
                output["metadata"] = {}
        kept.append(cell)
    nb.cells = kept
    return nb


def store(
    *,
    only: Iterable[str] | None = None,
    notebooks_dir: str | os.PathLike[str] | None = None,
    timeout: float | None = DEFAULT_TIMEOUT,
    execute: bool = True,
    stream: TextIO | None = None,
) -> list[Path]:
    """Re-execute committed notebooks in place with their defaults and strip volatile metadata.

    Each notebook runs with papermill without injected parameters (so with the
    defaults of its ``parameters`` cell, writing figures to the git-ignored
    ``build/figures``). The file is replaced only when the run succeeds.

    Parameters
    ----------
    only : iterable of str, optional
        Notebook names (stem, file name or number); default all.
    notebooks_dir : str or path-like, optional
        Default ``<repo>/notebooks``.
    timeout : float or None, optional
        Per-cell execution timeout in seconds.
    execute : bool, optional
        ``False`` only strips the metadata without executing.
    stream : text file, optional
        Where to print progress; default standard output.

    Returns
    -------
    list of pathlib.Path
        The notebooks rewritten.

    Raises
    ------
    NotebookFailed
        If a notebook fails; it is left unchanged.
    """
    import nbformat

    out = stream if stream is not None else sys.stdout
    nb_dir = Path(notebooks_dir) if notebooks_dir is not None else repo_root() / "notebooks"
    selected = select_notebooks(discover_notebooks(nb_dir), only)
    written = []
    for nb_path in selected:
        if execute:
            print(f"- executing {nb_path.name} with its default parameters ...", file=out, flush=True)
            with tempfile.TemporaryDirectory() as tmp:
                executed = Path(tmp) / nb_path.name
                seconds = run_notebook(nb_path, executed, None, timeout=timeout, cwd=nb_path.parent)
                nb = nbformat.read(executed, as_version=4)
            print(f"  done in {seconds:.1f} s", file=out, flush=True)
        else:
            nb = nbformat.read(nb_path, as_version=4)
        nb = strip_volatile(nb)
        nbformat.validate(nb)
        nbformat.write(nb, nb_path)
        written.append(nb_path)
        print(f"  stored {nb_path}", file=out, flush=True)
    return written


# --------------------------------------------------------------------------- helpers


def _read(path: str | os.PathLike[str]) -> Any:
    import nbformat

    try:
        return nbformat.read(str(path), as_version=4)
    except FileNotFoundError as exc:
        raise RunnerError(f"notebook {str(path)!r} does not exist") from exc


def _first_lines(text: str, n: int) -> str:
    lines = [line for line in str(text).strip().splitlines() if line.strip()]
    shown = " | ".join(lines[:n])
    return shown + (" ..." if len(lines) > n else "")


def _running_cell(output_path: Path) -> str:
    """Describe the cell that was executing when a run stopped, from the partial output."""
    try:
        nb = _read(output_path)
    except Exception:
        return ""
    last = None
    for index, cell in enumerate(nb.cells):
        meta = cell.metadata.get("papermill", {})
        if meta.get("start_time") or meta.get("exception"):
            last = (index, cell)
    if last is None:
        return ""
    index, cell = last
    count = cell.get("execution_count")
    return (
        f" in cell {index} (execution count [{count}]) of the executed notebook, "
        f"source starts {_first_lines(cell.source, 1)!r}"
    )


def _stderr_is_tty() -> bool:
    if os.environ.get("CI", "").lower() in {"1", "true", "yes"}:
        return False
    try:
        return sys.stderr.isatty()
    except (AttributeError, ValueError):
        return False


class _NoBar:
    def set_description(self, text: str) -> None:
        pass

    def update(self, n: int) -> None:
        pass

    def close(self) -> None:
        pass


def _progress_bar(total: int, *, enabled: bool) -> Any:
    if not enabled:
        return _NoBar()
    from tqdm import tqdm

    return tqdm(total=total, unit="notebook", file=sys.stderr, dynamic_ncols=True)
