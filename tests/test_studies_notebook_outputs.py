"""The committed notebooks 01-06 show what they compute: every figure as an image, no stray results.

A figure cell saves its figure(s) with ``save_figure`` and displays them; the stored notebook must hold
the images (``image/png`` outputs), at least one per declared figure, so the notebooks read well before
they are run (in JupyterLab, on GitHub). Results are shown deliberately (print, display), never as the
accidental value of a cell's last expression (such as the length that ``Path.write_text`` returns).
No notebook (01-10) prints a probability of 1 (or 0) that its Wilson interval does not support.
"""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pytest

from ndcg_research.pipeline import runner

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"
ALL = runner.discover_notebooks(NOTEBOOKS)
STUDIES = [p for p in runner.discover_notebooks(NOTEBOOKS) if p.name[:2] in {"01", "02", "03", "04", "05", "06"}]


def _code_cells(path: Path) -> list[nbformat.NotebookNode]:
    return [c for c in nbformat.read(path, as_version=4).cells if c.cell_type == "code"]


def _images(cell: nbformat.NotebookNode) -> int:
    return sum("image/png" in output.get("data", {}) for output in cell.outputs)


def test_the_notebooks_are_there():
    assert [p.name[:2] for p in STUDIES] == ["01", "02", "03", "04", "05", "06"]


@pytest.mark.parametrize("path", STUDIES, ids=[p.stem for p in STUDIES])
def test_every_figure_cell_stores_its_images(path):
    cells = _code_cells(path)
    figure_cells = [c for c in cells if "save_figure(" in c.source]
    assert figure_cells, f"{path.name} saves no figure"
    blank = [c.execution_count for c in figure_cells if _images(c) == 0]
    assert not blank, f"{path.name}: figure cells {blank} display no image (display(fig) after save_figure)"
    declared = runner.declared_figures(path)
    assert sum(_images(c) for c in cells) >= len(declared), (
        f"{path.name} declares {len(declared)} figures but stores {sum(_images(c) for c in cells)} images"
    )


@pytest.mark.parametrize("path", STUDIES, ids=[p.stem for p in STUDIES])
def test_no_cell_shows_a_stray_result(path):
    stray = [
        (c.execution_count, o.get("data", {}).get("text/plain", ""))
        for c in _code_cells(path)
        for o in c.outputs
        if o.output_type == "execute_result"
    ]
    assert not stray, f"{path.name}: cells end with an expression whose value is shown by accident: {stray}"


# A probability printed as 1 (or 0) must rest on enough data sets: Wilson lower bound >= 0.99 (upper <= 0.01);
# otherwise the notebooks write the count "k/k" (stats._replication.proportion_label).
_CERTAIN = re.compile(r"(?<![\d./])(?P<p>[01]\.0+) \[(?P<low>\d\.\d+), ?(?P<high>\d\.\d+)\]")


def unsupported_certainties(text: str) -> list[str]:
    """Printed 'p [low,high]' with p reading 1 (or 0) whose interval does not support it."""
    bad = []
    for m in _CERTAIN.finditer(text):
        p, low, high = (float(m[g]) for g in ("p", "low", "high"))
        if (p == 1 and low < 0.99) or (p == 0 and high > 0.01):
            bad.append(m[0])
    return bad


def test_the_certainty_check_finds_what_it_should():
    assert unsupported_certainties("x 1.00 [0.84,1.00] y 0.000 [0.000, 0.114] z") == [
        "1.00 [0.84,1.00]",
        "0.000 [0.000, 0.114]",
    ]
    assert unsupported_certainties("1.00 [0.99,1.00] 0.00 [0.00,0.01] 20/20 [0.84,1.00] 0.87 [0.79,0.92]") == []


@pytest.mark.parametrize("path", ALL, ids=[p.stem for p in ALL])
def test_no_probability_of_1_from_too_few_data_sets(path):
    texts = []
    for cell in _code_cells(path):
        for output in cell.outputs:
            texts.append(output.get("text", ""))
            texts.extend(output.get("data", {}).get(kind, "") for kind in ("text/plain", "text/html"))
    bad = unsupported_certainties("\n".join(texts))
    assert not bad, (
        f"{path.name} prints probabilities of 1 (or 0) whose Wilson interval does not support them "
        f"(write them with stats._replication.proportion_label): {bad[:5]}"
    )


# Tables are shown as DataFrames (HTML in JupyterLab, text in a terminal), never printed as padded text,
# which wraps at a normal window width: a printed block of four or more lines that each hold two or more
# column gaps (runs of 2+ spaces between words) is a text table.
_COLUMN_GAP = re.compile(r"\S {2,}\S")


def printed_tables(text: str) -> list[str]:
    """The first line of every printed text table in ``text``."""
    found, run = [], 0
    for line in text.splitlines():
        run = run + 1 if len(_COLUMN_GAP.findall(line)) >= 2 else 0
        if run == 4:
            found.append(line)
    return found


def test_the_text_table_check_finds_what_it_should():
    table = "\n".join(
        f"{name:<10}  {v:6.3f}  {w:6.3f}" for name, v, w in [("a", 1, 2), ("bb", 3, 4), ("ccc", 5, 6), ("d", 7, 8)]
    )
    assert len(printed_tables("title\n" + table)) == 1
    sentences = "verdict: holds (0.5 to 0.7)\nfinding: x  y\nP 0.74 -> 20/20, ties 0.15 -> 0/20\nsummary written"
    assert printed_tables(sentences) == []


@pytest.mark.parametrize("path", ALL, ids=[p.stem for p in ALL])
def test_tables_are_displayed_as_dataframes_not_printed(path):
    cells = _code_cells(path)
    assert not [c.execution_count for c in cells if ".to_string(" in c.source], (
        f"{path.name} prints a DataFrame as text: display(plots.rounded(table)) instead"
    )
    printed = [
        (c.execution_count, line)
        for c in cells
        for o in c.outputs
        if o.output_type == "stream"
        for line in printed_tables(o.get("text", ""))
    ]
    assert not printed, f"{path.name} prints text tables (cell, line): {printed[:3]}; display a DataFrame instead"


# --------------------------------------------------------------------------- notebooks written as papers
# Each notebook opens with its answer (the findings' verdicts, printed by code from the committed tables), shows
# tables a reader reads (at most about 15 rows; the full tables in a collapsed appendix) and code cells that read
# as steps of the analysis (at most about 25 lines; the formatting lives in ndcg_research/studies/<name>/).
PAPERS = ALL
MAX_ROWS, MAX_LINES = 15, 25
HIDDEN_TAG = "hide-output"


def _is_appendix(cell: nbformat.NotebookNode) -> bool:
    return HIDDEN_TAG in cell.metadata.get("tags", [])


def table_rows(html: str) -> list[int]:
    """The number of body rows of every HTML table in ``html`` (a DataFrame's rich output)."""
    return [len(re.findall(r"<tr\b", body)) for body in re.findall(r"<tbody>(.*?)</tbody>", html, re.S)]


def test_the_row_count_sees_every_table():
    html = (
        "<table><thead><tr><th>a</th></tr></thead><tbody><tr><td>1</td></tr><tr><td>2</td></tr></tbody></table>"
        "<p>x</p><table><tbody>\n<tr>\n<td>3</td></tr></tbody></table>"
    )
    assert table_rows(html) == [2, 1]


@pytest.mark.parametrize("path", PAPERS, ids=[p.stem for p in PAPERS])
def test_the_notebook_opens_with_its_answer(path):
    cells = nbformat.read(path, as_version=4).cells
    assert cells[0].cell_type == "markdown" and "**Question.**" in cells[0].source
    assert "**Answer" not in cells[0].source, f"{path.name}: the answer is printed from the tables, not typed"
    first = cells[1]
    assert first.cell_type == "code" and "answer(" in first.source and "results/full" in first.source, (
        f"{path.name}: the first code cell must print the answer from the committed full profile"
    )
    said = "".join(o.get("data", {}).get("text/markdown", "") for o in first.outputs)
    assert said.startswith("**Answer.**"), f"{path.name}: the answer cell prints no answer paragraph"
    shown = "".join(o.get("data", {}).get("text/html", "") for o in first.outputs)
    assert "Verdict" in shown and table_rows(shown), f"{path.name}: the answer cell shows no verdict table"


@pytest.mark.parametrize("path", PAPERS, ids=[p.stem for p in PAPERS])
def test_shown_tables_are_short_and_the_full_ones_collapsed(path):
    cells = nbformat.read(path, as_version=4).cells
    long = [
        (i, rows)
        for i, c in enumerate(cells)
        if c.cell_type == "code" and not _is_appendix(c)
        for o in c.outputs
        for rows in table_rows(o.get("data", {}).get("text/html", ""))
        if rows > MAX_ROWS
    ]
    assert not long, f"{path.name}: tables over {MAX_ROWS} rows outside the appendix (cell, rows): {long}"
    appendix = [c for c in cells if _is_appendix(c)]
    assert all(c.metadata.get("jupyter", {}).get("outputs_hidden") is True for c in appendix), (
        f"{path.name}: a cell tagged {HIDDEN_TAG} must also be collapsed in JupyterLab (jupyter.outputs_hidden)"
    )
    heading = next((i for i, c in enumerate(cells) if c.cell_type == "markdown" and "## Appendix" in c.source), None)
    if appendix:
        assert heading is not None and all(cells.index(c) > heading for c in appendix), (
            f"{path.name}: the collapsed tables belong to an '## Appendix' section at the end"
        )


@pytest.mark.parametrize("path", PAPERS, ids=[p.stem for p in PAPERS])
def test_code_cells_are_short(path):
    # The parameters cell is exempt: it only declares values, and papermill reads it line by line, so a spec
    # list whose specs hold "=" needs one spec per line (notebooks 07 and 08).
    long = [
        (c.execution_count, len(c.source.splitlines()))
        for c in _code_cells(path)
        if len(c.source.splitlines()) > MAX_LINES and "parameters" not in c.metadata.get("tags", [])
    ]
    assert not long, f"{path.name}: code cells over {MAX_LINES} lines (execution count, lines): {long}"
