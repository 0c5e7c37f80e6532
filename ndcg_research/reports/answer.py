"""A notebook's answer: the verdicts of its findings, evaluated on a folder of result tables.

This is the one place where the reports call into :mod:`ndcg_research.findings`; it uses only
``claims.FINDINGS`` and the attributes of a :class:`~ndcg_research.findings.model.Finding`
(``notebooks``, ``title``, ``verdict``, ``summary``).
"""

from __future__ import annotations

import os
from pathlib import Path

import pandas as pd

from ..findings import claims
from ..findings.model import MissingTableError, Results

__all__ = ["answer", "ANSWER_COLUMNS"]

#: The columns of :func:`answer`'s table (its index is the finding's title).
ANSWER_COLUMNS = ("Verdict", "What the tables show")


class _NotebookTables(Results):
    """The tables of one notebook in a folder (names starting ``NN_``); any other table counts as missing.

    A run folder holds the tables of whichever notebooks ran into it; a finding of another notebook
    must not be evaluated on them (it would read a mix of runs), so it is skipped as not available.
    """

    def __init__(self, folder: str | os.PathLike[str], prefix: str) -> None:
        super().__init__(folder)
        self.prefix = prefix

    def table(self, name: str) -> pd.DataFrame:
        self._own(name)
        return super().table(name)

    def record(self, name: str) -> dict:
        self._own(name)
        return super().record(name)

    def _own(self, name: str) -> None:
        if not name.startswith(self.prefix):
            raise MissingTableError(f"{name!r} is not a table of notebook {self.prefix[:-1]}")


def answer(notebook: str, results_dir: str | os.PathLike[str]) -> pd.DataFrame:
    """The findings of ``notebook``, each with its verdict and its one-line measurement, from ``results_dir``.

    Every finding's rule (:mod:`ndcg_research.findings`) is applied to the tables in ``results_dir``:
    the committed full profile (``results/full``) gives the verdicts of ``FINDINGS.md``; a notebook's
    own results folder gives the verdicts of that run by the same rules.

    Parameters
    ----------
    notebook : str
        The notebook's file name, e.g. ``"04_distinguishability.ipynb"``.
    results_dir : path
        A folder of result tables as the notebooks write them.

    Returns
    -------
    DataFrame
        One row per finding, in the findings' order, indexed by its title, with the columns
        ``ANSWER_COLUMNS`` (``"Verdict"``, ``"What the tables show"``); the columns' name,
        "Finding", heads the titles in a displayed table.

        When no finding of ``notebook`` can be evaluated on ``results_dir`` (its tables are missing, e.g. a
        notebook copied out of the repository), one row "(not available)" says so and how to write them.

    Raises
    ------
    ValueError
        If ``notebook`` is not a notebook file name ``NN_name.ipynb``.

    Examples
    --------
    >>> from pathlib import Path
    >>> full = Path(__file__).resolve().parents[2] / "results" / "full"
    >>> table = answer("01_worked_example.ipynb", full)
    >>> table.columns.tolist(), table["Verdict"].tolist()
    (['Verdict', 'What the tables show'], ['holds'])
    """
    name = Path(notebook).name
    if not (name.endswith(".ipynb") and name[:2].isdigit() and name[2:3] == "_"):
        raise ValueError(f"notebook must be a notebook file name such as '04_distinguishability.ipynb', got {notebook!r}")
    results = _NotebookTables(results_dir, name[:3])
    rows = []
    for rule in claims.FINDINGS:
        try:
            finding = rule(results)
        except MissingTableError:
            continue
        if name in finding.notebooks:
            rows.append({"Finding": finding.title, ANSWER_COLUMNS[0]: finding.verdict,
                         ANSWER_COLUMNS[1]: finding.summary})
    if not rows:
        rows.append({"Finding": "(not available)", ANSWER_COLUMNS[0]: "-",
                     ANSWER_COLUMNS[1]: f"no tables of {name} in {str(results_dir)!r}: run the notebook, or the full "
                                        f"profile (python3 tasks.py reproduce), to write them"})
    table = pd.DataFrame(rows).set_index("Finding")
    # The index's name shown in the header row beside the columns' names, not on a row of its own.
    table.index.name, table.columns.name = None, "Finding"
    return table
