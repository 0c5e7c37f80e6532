"""Storing executed notebooks: volatile metadata stripped, the kernel metadata JupyterLab fills in recorded.

nbstripout (a maintained library) was considered for the stripping and not used: it is built to strip
outputs, which a stored notebook keeps (nbval checks them); kept, it still needs our lists of keys and tags
spelled out as its options, it cannot clear an execute_result's output metadata nor an emptied tag list,
and its ``drop_tagged_cells`` (0.9) binds its filter to the last tag only (a closure over the loop
variable), so the two papermill tags would not both be dropped. The few lines below do exactly this job.
"""

from __future__ import annotations

import copy
import os
import sys
import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import Any, TextIO

from . import profiles
from .execution import DEFAULT_TIMEOUT, kernel_metadata, run_notebook
from .profiles import discover_notebooks, select_notebooks

__all__ = ["strip_volatile", "store"]

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
    nb_dir = Path(notebooks_dir) if notebooks_dir is not None else profiles.repo_root() / "notebooks"
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
