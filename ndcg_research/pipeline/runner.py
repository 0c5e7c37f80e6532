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

:func:`store` re-executes committed notebooks in place with their default
parameters, strips volatile metadata and records the kernel metadata that
JupyterLab fills in when it opens a notebook (:func:`kernel_metadata`), so that
stored outputs (checked by nbval) can be refreshed with one command and opening
a stored notebook does not mark it modified.
"""

from __future__ import annotations

import copy
import functools
import io
import logging
import os
import sys
import tempfile
import time
import tokenize
import uuid
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

__all__ = [
    "RunnerError",
    "NotebookFailed",
    "RunFailed",
    "NotebookResult",
    "NotebookParameter",
    "DEFAULT_TIMEOUT",
    "KERNEL_NAME",
    "repo_root",
    "discover_notebooks",
    "select_notebooks",
    "load_profiles",
    "declared_figures",
    "declared_tables",
    "notebook_parameters",
    "describe_parameters",
    "kernel_manager_class",
    "kernel_metadata",
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

#: Where a publishing run (the full profile) writes the result tables, relative to the repository.
PUBLISHED_RESULTS = Path("results") / "full"
#: Where a publishing run writes the figures, relative to the repository.
PUBLISHED_FIGURES = Path("figures")


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


class RunFailed(RunnerError):
    """Notebooks of a run failed; every selected notebook was still run.

    Attributes
    ----------
    failures : tuple of NotebookFailed
        One per failed notebook, in run order.
    results : tuple of NotebookResult
        Every notebook run, failed or not, in run order.
    """

    def __init__(self, failures: Sequence[NotebookFailed], results: Sequence[NotebookResult]) -> None:
        self.failures = tuple(failures)
        self.results = tuple(results)
        listed = "\n".join(f"- {failure}" for failure in self.failures)
        super().__init__(f"{len(self.failures)} of {len(self.results)} notebook(s) failed:\n{listed}")


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
        The figures the notebook declared (all verified to be written unless ``error`` is set).
    parameters : dict
        The parameters injected into the notebook.
    error : str or None
        Why the notebook failed; ``None`` when it succeeded.
    """

    notebook: str
    output_path: Path
    seconds: float
    figures: tuple[str, ...]
    parameters: dict[str, Any] = field(default_factory=dict)
    error: str | None = None


@dataclass(frozen=True)
class NotebookParameter:
    """One parameter of a notebook's ``parameters`` cell.

    Attributes
    ----------
    name : str
        The variable name.
    default : str
        The default value, as source text.
    comment : str
        The comment written on the assignment's line(s), without ``#``; empty if none.
    """

    name: str
    default: str
    comment: str = ""


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
        If the file is missing or not shaped as above, or a profile sets a
        parameter the runner injects (``figures_dir``, ``results_dir``).
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
            injected = [name for name in INJECTED_PARAMETERS if name in params]
            if injected:
                raise RunnerError(
                    f"profile {profile!r}, notebook {stem!r} in {str(path)!r} sets {', '.join(injected)}, "
                    "which the runner sets itself: choose the output folders with --output DIR "
                    "(or --figures-dir DIR) instead"
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
    """Return the parameters declared in a notebook's ``parameters`` cell with their defaults.

    Parameters
    ----------
    path : str or path-like
        The notebook.

    Returns
    -------
    dict
        ``{name: default value as source text}``, in the order of the cell
        (see :func:`describe_parameters`, which also gives the comments).

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
    return {p.name: p.default for p in describe_parameters(path)}


def describe_parameters(path: str | os.PathLike[str]) -> list[NotebookParameter]:
    """Return the parameters of a notebook's ``parameters`` cell: name, default and comment.

    The cell is parsed with :mod:`ast` (papermill's own inspection is
    line-based and gives up on lines such as ``k = 6  # "quoted" (comment)``).
    Every top-level assignment ``name = value`` or ``name: type = value`` counts;
    its comment is the text of the ``#`` comments on the lines the assignment
    spans (several are joined with a space).

    Parameters
    ----------
    path : str or path-like
        The notebook.

    Returns
    -------
    list of NotebookParameter
        In the order of the cell; a name assigned twice appears once, with its last value.

    Raises
    ------
    RunnerError
        If the notebook has no cell tagged ``parameters``, or the cell is not valid Python.

    Examples
    --------
    >>> import nbformat, tempfile, os
    >>> nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(
    ...     'ns = [10,\\n      100]  # list lengths\\nseed = 1')])
    >>> nb.cells[0].metadata["tags"] = ["parameters"]
    >>> path = os.path.join(tempfile.mkdtemp(), "01_x.ipynb")
    >>> nbformat.write(nb, path)
    >>> [(p.name, p.comment) for p in describe_parameters(path)]
    [('ns', 'list lengths'), ('seed', '')]
    """
    import ast

    nb = _read(path)
    cells = [c for c in nb.cells if "parameters" in c.metadata.get("tags", [])]
    if not cells:
        raise RunnerError(
            f"notebook {Path(path).name} has no cell tagged 'parameters' "
            "(papermill would inject parameters at the top and the defaults would win)"
        )
    declared: dict[str, NotebookParameter] = {}
    for cell in cells:
        try:
            tree = ast.parse(cell.source)
        except SyntaxError as exc:
            raise RunnerError(
                f"the parameters cell of notebook {Path(path).name} is not valid Python: {exc}"
            ) from exc
        comments = _comments_by_line(cell.source)
        for node in tree.body:
            if isinstance(node, ast.Assign):
                targets = [t.id for t in node.targets if isinstance(t, ast.Name)]
            elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.value:
                targets = [node.target.id]
            else:
                continue
            text = ast.get_source_segment(cell.source, node.value) or ""
            end = node.end_lineno if node.end_lineno is not None else node.lineno
            comment = " ".join(comments[line] for line in range(node.lineno, end + 1) if line in comments)
            for name in targets:
                declared.pop(name, None)
                declared[name] = NotebookParameter(name, text, comment)
    return list(declared.values())


def _comments_by_line(source: str) -> dict[int, str]:
    """``{line number: comment text without '#'}`` of a piece of valid Python source."""
    comments = {}
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.COMMENT:
            comments[token.start[0]] = token.string.lstrip("#").strip()
    return comments


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


@functools.cache
def kernel_manager_class() -> type:
    """Return the kernel manager class of every notebook run (a subclass of jupyter_client's).

    It differs from :class:`jupyter_client.AsyncKernelManager` in two ways, both to keep
    successful runs quiet without hiding real errors:

    - On POSIX systems the kernel talks over local IPC sockets instead of TCP, so
      ipykernel has no reason for its warning "Kernel is running over TCP without
      encryption" (Windows has no IPC transport and keeps TCP).
      Each kernel's sockets get a unique path in the temporary directory (jupyter_client
      would number them ``kernel-ipc-1`` ... in the working directory, where two runs at
      once would take each other's sockets); they are removed at shutdown.
    - It does not interrupt the kernel when shutting it down. jupyter_client sends
      SIGINT before the shutdown request to stop running code; after a run every cell
      has finished, and a SIGINT that lands while the kernel handles a message is
      logged as ``ERROR | KeyboardInterrupt caught in kernel.``. A kernel that does not
      stop after the shutdown request is still killed. (Interrupting a running cell,
      e.g. on a timeout, is unchanged.)

    Returns
    -------
    type
        The class, created once (jupyter_client is imported on first use).

    Examples
    --------
    >>> from jupyter_client import AsyncKernelManager
    >>> cls = kernel_manager_class()
    >>> issubclass(cls, AsyncKernelManager), cls().transport in {"ipc", "tcp"}
    (True, True)
    """
    from jupyter_client import AsyncKernelManager
    from traitlets import CaselessStrEnum, default

    class RunnerKernelManager(AsyncKernelManager):
        """jupyter_client's kernel manager, on IPC sockets where possible and quiet at shutdown."""

        transport = CaselessStrEnum(
            ["tcp", "ipc"], default_value="ipc" if os.name == "posix" else "tcp", config=True,
            help="Transport of the kernel's sockets (IPC on POSIX: no unencrypted TCP).",
        )

        @default("ip")
        def _unique_ipc_path(self) -> str:
            if self.transport != "ipc":
                return super()._ip_default()
            # Short: a socket path has at most 103 bytes on macOS, whose $TMPDIR alone takes ~50.
            return os.path.join(tempfile.gettempdir(), f"ndcg-kernel-{uuid.uuid4().hex[:12]}")

        async def _async_interrupt_kernel(self) -> None:
            # jupyter_client calls this at the start of every shutdown (and only there:
            # the public interrupt_kernel is a separate function object).
            if self.shutting_down:
                return
            await super()._async_interrupt_kernel()

    return RunnerKernelManager


def kernel_metadata(kernel_name: str = KERNEL_NAME) -> dict[str, Any]:
    """Return the notebook metadata that JupyterLab fills in when it opens a notebook with this kernel.

    JupyterLab writes ``kernelspec`` (name, display name and language of the kernel
    spec) and ``language_info`` (the kernel's ``kernel_info`` reply, with the Python
    version) into the notebook it opens; if either differs from what the file
    stores, the notebook is marked modified and autosave rewrites it. This function
    starts the kernel once, as papermill does, to read the same values.

    Parameters
    ----------
    kernel_name : str, optional
        The kernel spec; default ``python3``, the kernel of this Python.

    Returns
    -------
    dict
        ``{"kernelspec": {...}, "language_info": {...}}``.

    Raises
    ------
    RunnerError
        If the kernel spec does not exist or the kernel does not start.

    Examples
    --------
    >>> import platform
    >>> meta = kernel_metadata()
    >>> meta["kernelspec"]["name"], meta["language_info"]["version"] == platform.python_version()
    ('python3', True)
    """
    import nbformat
    from jupyter_client.kernelspec import KernelSpecManager, NoSuchKernel
    from nbclient import NotebookClient

    try:
        spec = KernelSpecManager().get_kernel_spec(kernel_name)
    except NoSuchKernel as exc:
        raise RunnerError(f"no Jupyter kernel named {kernel_name!r}") from exc
    nb = nbformat.v4.new_notebook()
    client = NotebookClient(nb, kernel_name=kernel_name, kernel_manager_class=kernel_manager_class())
    try:
        client.execute()
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
        notebook and the failing cell as a user finds it: by the prompt number
        JupyterLab shows in the saved executed notebook (``[4]:``), by its position
        among the code cells of the notebook as committed (papermill's injected
        parameters and error banners not counted), and by its first line; then the
        exception.
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
            kernel_manager_class=kernel_manager_class(),
        )
    except PapermillExecutionError as exc:
        evalue = _first_lines(str(exc.evalue), 3)
        where = _describe_cell(output_path, path, execution_count=exc.exec_count, source=exc.source)
        raise NotebookFailed(
            f"notebook {path.name} failed{where}:\n"
            f"  {exc.ename}: {evalue}\n"
            f"  executed notebook (with the traceback): {output_path}",
            notebook=path.name,
            output_path=output_path,
        ) from exc
    except Exception as exc:  # timeouts, dead kernels, kernel start failures
        where = _describe_cell(output_path, path)
        raise NotebookFailed(
            f"notebook {path.name} failed{where}:\n"
            f"  {type(exc).__name__}: {_first_lines(str(exc), 3)}\n"
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
    partial = len(selected) < len(notebooks)

    out_dir = Path(output).resolve() if output is not None else (root / "build" / profile).resolve()
    if publish is None:
        publish = (output is None and profile == "full" and not partial
                   and nb_dir == (root / "notebooks").resolve())
    fig_dir = Path(figures_dir) if figures_dir is not None else (
        root / PUBLISHED_FIGURES if publish else out_dir / "figures")
    res_dir = Path(results_dir) if results_dir is not None else (
        root / PUBLISHED_RESULTS if publish else out_dir / "results")
    fig_dir, res_dir = fig_dir.resolve(), res_dir.resolve()
    executed_dir = out_dir / "notebooks"

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
        params["results_dir"] = str(res_dir)
        plans.append((nb_path, params, declared_figures(nb_path), declared_tables(nb_path)))

    for folder in (fig_dir, res_dir, executed_dir):
        folder.mkdir(parents=True, exist_ok=True)
    note = ""
    if partial and not publish and output is None and figures_dir is None and results_dir is None and profile == "full":
        note = " (a partial run: the committed figures/ and results/full/ are left alone; --publish updates them)"
    print(
        f"Running {len(plans)} notebook(s) with profile {profile!r}\n"
        f"  executed notebooks: {executed_dir}\n  figures: {fig_dir}{note}\n  results: {res_dir}",
        file=out,
        flush=True,
    )
    show_bar = progress if progress is not None else _stderr_is_tty()
    from tqdm import tqdm

    results: list[NotebookResult] = []
    failures: list[NotebookFailed] = []
    with tqdm(total=len(plans), unit="notebook", file=sys.stderr, dynamic_ncols=True,
              disable=not show_bar) as bar:
        for nb_path, params, figures, tables in plans:
            bar.set_description(nb_path.stem)
            if not show_bar:
                print(f"- {nb_path.name} ...", file=out, flush=True)
            output_path = executed_dir / nb_path.name
            started = time.time()
            clock = time.perf_counter()
            try:
                seconds = run_notebook(nb_path, output_path, params, timeout=timeout, cwd=nb_dir)
                _check_outputs(nb_path.name, figures, tables, fig_dir, res_dir, since=started,
                               output_path=output_path)
            except NotebookFailed as exc:
                failures.append(exc)
                results.append(NotebookResult(nb_path.name, output_path, time.perf_counter() - clock,
                                              tuple(figures), params, error=str(exc)))
                message = f"  FAILED: {exc}"
                if show_bar:
                    bar.write(message, file=out)
                else:
                    print(message, file=out, flush=True)
            else:
                results.append(NotebookResult(nb_path.name, output_path, seconds, tuple(figures), params))
                if not show_bar:
                    print(f"  done in {seconds:.1f} s, {len(figures)} figure(s)", file=out, flush=True)
            bar.update(1)

    from .figures import write_index

    index = write_index(fig_dir)
    print(format_summary(results), file=out)
    print(f"Figure index: {index}", file=out, flush=True)
    if failures:
        raise RunFailed(failures, results)
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


# --------------------------------------------------------------------------- storing outputs

#: Cell metadata keys dropped by :func:`strip_volatile`.
_VOLATILE_CELL_KEYS = ("papermill", "execution", "ExecuteTime", "collapsed", "scrolled")
#: Notebook metadata keys dropped by :func:`strip_volatile`.
_VOLATILE_NB_KEYS = ("papermill", "widgets", "toc", "varInspector")


def strip_volatile(nb: Any) -> Any:
    """Return a copy of a notebook without volatile metadata.

    Removes papermill's notebook and cell metadata, cell timings (``execution``,
    ``ExecuteTime``), view state (``collapsed``, ``scrolled``) and output
    metadata of execute results; drops papermill's ``injected-parameters`` cells
    and error markers. Execution counts, outputs, ``kernelspec`` and
    ``language_info`` are kept (JupyterLab writes the last two back when it
    opens a notebook; :func:`store` sets them with :func:`kernel_metadata`).

    Parameters
    ----------
    nb : nbformat.NotebookNode
        The notebook.

    Returns
    -------
    nbformat.NotebookNode
        The stripped copy; stripping twice changes nothing.

    Examples
    --------
    >>> import nbformat
    >>> cell = nbformat.v4.new_code_cell("1 + 1", metadata={"papermill": {"duration": 0.1}})
    >>> nb = nbformat.v4.new_notebook(cells=[cell], metadata={"papermill": {}})
    >>> clean = strip_volatile(nb)
    >>> dict(clean.metadata), dict(clean.cells[0].metadata)
    ({}, {})
    """
    nb = copy.deepcopy(nb)
    for key in _VOLATILE_NB_KEYS:
        nb.metadata.pop(key, None)
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
    """Re-execute committed notebooks in place with their defaults, then store them clean.

    Each notebook runs with papermill without injected parameters (so with the
    defaults of its ``parameters`` cell, writing figures to the git-ignored
    ``build/figures``). Then volatile metadata is stripped (:func:`strip_volatile`)
    and the kernel metadata JupyterLab fills in is recorded (:func:`kernel_metadata`:
    kernel spec and ``language_info`` with this Python's version), so that opening
    the stored notebook in JupyterLab with this environment does not mark it
    modified. The file is replaced only when the run succeeds.

    Parameters
    ----------
    only : iterable of str, optional
        Notebook names (stem, file name or number); default all.
    notebooks_dir : str or path-like, optional
        Default ``<repo>/notebooks``.
    timeout : float or None, optional
        Per-cell execution timeout in seconds.
    execute : bool, optional
        ``False`` does not execute: it only strips the metadata and records the
        kernel metadata (outputs are kept as they are).
    stream : text file, optional
        Where to print progress; default standard output.

    Returns
    -------
    list of pathlib.Path
        The notebooks rewritten.

    Raises
    ------
    NotebookFailed
        If a notebook fails; it is left unchanged (and the notebooks after it are not stored).
    """
    import nbformat

    out = stream if stream is not None else sys.stdout
    nb_dir = Path(notebooks_dir) if notebooks_dir is not None else repo_root() / "notebooks"
    selected = select_notebooks(discover_notebooks(nb_dir), only)
    kernel = kernel_metadata()
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
        nb.metadata.update(copy.deepcopy(kernel))
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


def _describe_cell(executed: Path, notebook: Path, *, execution_count: int | None = None,
                   source: str | None = None) -> str:
    """Name the failed (or still running) cell the way a user finds it, from the executed notebook.

    Returns text such as `` at cell [4] of the executed notebook (code cell 3 of 03_x.ipynb,
    starting 'raise ValueError')``, or only what is known (empty if nothing).
    """
    try:
        nb = _read(executed)
    except Exception:
        nb = None
    code = []
    if nb is not None:
        code = [c for c in nb.cells
                if c.cell_type == "code" and "injected-parameters" not in c.metadata.get("tags", [])]
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


def _stderr_is_tty() -> bool:
    if os.environ.get("CI", "").lower() in {"1", "true", "yes"}:
        return False
    try:
        return sys.stderr.isatty()
    except (AttributeError, ValueError):
        return False
