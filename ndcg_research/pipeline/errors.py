"""The notebook runner's errors: one base class, the failure of one notebook, and the failure of a run."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .execution import NotebookResult

__all__ = ["RunnerError", "NotebookFailed", "RunFailed"]


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
