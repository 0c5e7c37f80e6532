"""``findings.answer``: a notebook's findings on a folder of tables, the same as FINDINGS.md's, and only its own."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from ndcg_research.findings import Results, answer, collect

ANSWER_COLUMNS = ("Verdict", "Rule fixed", "What the tables show")

ROOT = Path(__file__).resolve().parent.parent
FULL = ROOT / "results" / "full"
NOTEBOOKS = sorted(p.name for p in (ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))


def test_every_notebook_answers_with_exactly_its_findings_of_the_full_profile():
    every = collect(Results(FULL))
    for notebook in NOTEBOOKS:
        want = [(f.title, f.verdict, f.fixed, f.summary) for f in every if notebook in f.notebooks]
        table = answer(notebook, FULL).table
        assert list(table.columns) == list(ANSWER_COLUMNS)
        got = [(title, *row[list(ANSWER_COLUMNS)]) for title, row in table.iterrows()]
        assert got == want, notebook
        assert len(table) <= 15


def test_a_run_folder_answers_only_for_the_notebook_asked(tmp_path):
    for path in FULL.glob("0[14]_*"):  # two notebooks' tables in one folder, as in build/results
        shutil.copy(path, tmp_path / path.name)
    assert answer("01_worked_example.ipynb", tmp_path).table["Verdict"].tolist() == ["holds"]
    assert len(answer("04_distinguishability.ipynb", tmp_path).table) == 3
    missing = answer("02_discount_functions.ipynb", tmp_path).table  # its tables are not there: said, not raised
    assert missing.index.tolist() == ["(not available)"]
    assert missing.iloc[0]["What the tables show"].startswith("no tables of 02_discount_functions.ipynb in ")
    with pytest.raises(ValueError, match="notebook must be a notebook file name"):
        answer("distinguishability", tmp_path)
