"""The committed notebooks 01-06 show what they compute: every figure as an image, no stray results.

A figure cell saves its figure(s) with ``save_figure`` and displays them; the stored notebook must hold
the images (``image/png`` outputs), at least one per declared figure, so the notebooks read well before
they are run (in JupyterLab, on GitHub). Results are shown deliberately (print, display), never as the
accidental value of a cell's last expression (such as the length that ``Path.write_text`` returns).
"""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest

from ndcg_research.pipeline import runner

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"
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
    stray = [(c.execution_count, o.get("data", {}).get("text/plain", "")) for c in _code_cells(path)
             for o in c.outputs if o.output_type == "execute_result"]
    assert not stray, f"{path.name}: cells end with an expression whose value is shown by accident: {stray}"
