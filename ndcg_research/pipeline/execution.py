"""Executing notebooks: the kernels (IPC sockets, quiet shutdown), one notebook with papermill, and the
check that a run wrote the figures and tables its notebook declares."""

from __future__ import annotations

import functools
import logging
import os
import tempfile
import time
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .errors import NotebookFailed, RunnerError
from .profiles import read_notebook

__all__ = ["KERNEL_NAME", "DEFAULT_TIMEOUT", "NotebookResult", "kernel_manager_class", "kernel_metadata",
           "run_notebook", "check_outputs"]

#: Kernel used for every run: the ``python3`` kernel of the Python running the runner.
KERNEL_NAME = "python3"

#: Default execution timeout per cell, in seconds.
DEFAULT_TIMEOUT = 3600


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
    from papermill.exceptions import PapermillExecutionError

    path = Path(path)
    output_path = Path(output_path)
    output_path.parent.mkdir(parents=True, exist_ok=True)
    if timeout is not None and timeout <= 0:
        raise RunnerError(f"timeout must be a positive number of seconds or None, got {timeout!r}")
    start = time.perf_counter()
    try:
        _execute_with_papermill(path, output_path, parameters, timeout=timeout,
                                cwd=cwd if cwd is not None else path.parent)
    except PapermillExecutionError as exc:
        where = _describe_cell(output_path, path, execution_count=exc.exec_count, source=exc.source)
        raise _notebook_failed(path, output_path, where, f"{exc.ename}: {_first_lines(str(exc.evalue), 3)}",
                               "with the traceback") from exc
    except Exception as exc:  # timeouts, dead kernels, kernel start failures
        where = _describe_cell(output_path, path)
        raise _notebook_failed(path, output_path, where, f"{type(exc).__name__}: {_first_lines(str(exc), 3)}",
                               "partial") from exc
    return time.perf_counter() - start


def _execute_with_papermill(path: Path, output_path: Path, parameters: Mapping[str, Any] | None, *,
                            timeout: float | None, cwd: str | os.PathLike[str]) -> None:
    """Run the notebook in this project's kernel, saving the executed notebook after every cell."""
    import papermill

    papermill.execute_notebook(
        str(path),
        str(output_path),
        parameters=dict(parameters or {}),
        kernel_name=KERNEL_NAME,
        cwd=str(cwd),
        execution_timeout=timeout,
        progress_bar=False,
        log_output=False,
        request_save_on_cell_execute=True,
        kernel_manager_class=kernel_manager_class(),
    )


def _notebook_failed(path: Path, output_path: Path, where: str, error: str, saved: str) -> NotebookFailed:
    """The error of a failed run: the notebook, the cell (``where``), the error's first lines, the saved notebook."""
    return NotebookFailed(
        f"notebook {path.name} failed{where}:\n"
        f"  {error}\n"
        f"  executed notebook ({saved}): {output_path}",
        notebook=path.name,
        output_path=output_path,
    )


def check_outputs(notebook: str, figures: Sequence[str], tables: Sequence[str], fig_dir: Path,
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
        nb = read_notebook(executed)
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
