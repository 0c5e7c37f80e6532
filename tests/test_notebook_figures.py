"""Every figure a notebook saves is displayed as an image by the cell that saves it, and stored so.

A notebook that saves figures without showing them reads badly in JupyterLab (issue 7: cells
that display only ``<Figure size 1100x420 with 2 Axes>``), and nbval cannot see it: it checks
only the text of the cells tagged ``nbval-check-output``. So:

- each notebook is executed with its default parameters (only the output folders are
  redirected to a scratch folder); the *figure cells* are the code cells during whose execution
  a declared figure was saved (papermill records when each cell started and ended; the figure's
  provenance record is written last by ``save_figure``), and each of them must display at least
  as many ``image/png`` outputs as it saves figures (a loop ending in a bare ``fig`` shows only
  the last one);
- the committed notebook must store those images in the same cells.

The checks themselves are tested on fixture notebooks (tests/fixtures/figure_display): one that
shows every figure, one with both defects of issue 7.
"""

from __future__ import annotations

import copy
from datetime import UTC, datetime
from pathlib import Path

import nbformat
import pytest

from ndcg_research.pipeline import runner

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
ALL = runner.discover_notebooks(NOTEBOOKS)
FIXTURES = Path(__file__).parent / "fixtures" / "figure_display"


def own_code_cells(nb) -> list:
    """The code cells of the notebook as committed (papermill's injected parameters left out)."""
    return [c for c in nb.cells if c.cell_type == "code" and "injected-parameters" not in c.metadata.get("tags", [])]


def images(cell) -> int:
    """How many PNG images a code cell displays."""
    return sum(
        1
        for o in cell.get("outputs", [])
        if o.output_type in ("display_data", "execute_result") and "image/png" in o.get("data", {})
    )


def figure_cells(executed: Path, figures_dir: Path, declared: list[str]) -> dict[int, list[str]]:
    """``{position among the notebook's own code cells: [figures saved while it ran]}``.

    Fails if a declared figure was not saved during any cell of this run.
    """
    cells = own_code_cells(nbformat.read(executed, as_version=4))
    windows = []
    for position, cell in enumerate(cells):
        meta = cell.metadata.get("papermill", {})
        if meta.get("start_time") and meta.get("end_time"):
            windows.append(
                (position, datetime.fromisoformat(meta["start_time"]), datetime.fromisoformat(meta["end_time"]))
            )
    owners: dict[int, list[str]] = {}
    for name in declared:
        record = figures_dir / f"{name}.json"
        assert record.is_file(), f"{executed.name}: declared figure {name} was not saved"
        saved = datetime.fromtimestamp(record.stat().st_mtime, tz=UTC)
        matches = [position for position, start, end in windows if start <= saved <= end]
        assert len(matches) == 1, f"{executed.name}: {name} was saved outside any one cell ({saved})"
        owners.setdefault(matches[0], []).append(name)
    return owners


def display_problems(nb, owners: dict[int, list[str]], verb: str = "displays") -> list[str]:
    """One message per figure cell of ``nb`` that shows fewer images than it saves figures."""
    cells = own_code_cells(nb)
    problems = []
    for position, names in sorted(owners.items()):
        cell = cells[position]
        shown = images(cell)
        if shown < len(names):
            first = cell.source.strip().splitlines()[0] if cell.source.strip() else ""
            problems.append(
                f"code cell {position + 1} (starting {first!r}) saves {len(names)} figure(s) "
                f"({', '.join(names)}) but {verb} {shown} image(s)"
            )
    return problems


def execute(notebook: Path, scratch: Path) -> tuple[Path, Path]:
    """Run a notebook with its defaults, outputs redirected into ``scratch``; return (executed, figures)."""
    figures_dir = scratch / "figures"
    executed = scratch / "executed" / notebook.name
    runner.run_notebook(
        notebook,
        executed,
        {"figures_dir": str(figures_dir), "results_dir": str(scratch / "results")},
        cwd=notebook.parent,
    )
    return executed, figures_dir


# --------------------------------------------------------------------------- the checks, on fixtures


@pytest.fixture(scope="module")
def fixture_runs(tmp_path_factory) -> dict[str, tuple[Path, dict[int, list[str]]]]:
    scratch = tmp_path_factory.mktemp("figure_fixtures")
    runs = {}
    for notebook in sorted(FIXTURES.glob("*.ipynb")):
        executed, figures_dir = execute(notebook, scratch)
        runs[notebook.stem] = (executed, figure_cells(executed, figures_dir, runner.declared_figures(notebook)))
    return runs


def test_figure_cells_are_found_by_when_they_saved(fixture_runs):
    # Code cells: parameters, imports, one figure, a loop of two.
    assert fixture_runs["01_displayed"][1] == {2: ["01_one"], 3: ["01_two_a", "01_two_b"]}
    assert fixture_runs["02_not_displayed"][1] == {2: ["02_object"], 3: ["02_loop_a", "02_loop_b"]}


def test_shown_figures_pass(fixture_runs):
    executed, owners = fixture_runs["01_displayed"]
    assert display_problems(nbformat.read(executed, as_version=4), owners) == []


def test_unshown_figures_and_a_loop_showing_only_its_last_figure_fail(fixture_runs):
    executed, owners = fixture_runs["02_not_displayed"]
    nb = nbformat.read(executed, as_version=4)
    # The defect as a user sees it: the Figure object prints as text.
    reprs = [o.data["text/plain"] for o in own_code_cells(nb)[2].outputs if o.output_type == "execute_result"]
    assert reprs and reprs[0].startswith("<Figure size")
    assert display_problems(nb, owners) == [
        "code cell 3 (starting 'fig = Figure(figsize=(3, 2))') saves 1 figure(s) (02_object) but displays 0 image(s)",
        "code cell 4 (starting 'import matplotlib.pyplot as plt') saves 2 figure(s) (02_loop_a, 02_loop_b) "
        "but displays 1 image(s)",
    ]


def test_a_notebook_stored_without_its_images_fails(fixture_runs):
    executed, owners = fixture_runs["01_displayed"]
    stored = runner.strip_volatile(nbformat.read(executed, as_version=4))
    assert display_problems(stored, owners, "stores") == []
    stripped = copy.deepcopy(stored)
    for cell in own_code_cells(stripped):
        cell.outputs = []
    assert display_problems(stripped, owners, "stores") == [
        "code cell 3 (starting 'fig, ax = plt.subplots(figsize=(3, 2))') saves 1 figure(s) (01_one) "
        "but stores 0 image(s)",
        'code cell 4 (starting \'for name in ["01_two_a", "01_two_b"]:\') saves 2 figure(s) '
        "(01_two_a, 01_two_b) but stores 0 image(s)",
    ]


# --------------------------------------------------------------------------- the project's notebooks


@pytest.fixture(scope="module")
def notebook_runs(tmp_path_factory):
    """Executes each notebook once, on first use, in a scratch copy of notebooks/.

    The notebooks share one results folder, so notebook 04 reuses the finished sweep points
    of 03 as in a real run.
    """
    scratch = tmp_path_factory.mktemp("notebook_figures")
    runs: dict[str, tuple[Path, dict[int, list[str]]]] = {}

    def run(path: Path) -> tuple[Path, dict[int, list[str]]]:
        if path.stem not in runs:
            executed, figures_dir = execute(path, scratch)
            runs[path.stem] = (executed, figure_cells(executed, figures_dir, runner.declared_figures(path)))
        return runs[path.stem]

    return run


@pytest.mark.parametrize("path", ALL, ids=[p.stem for p in ALL])
def test_every_figure_cell_displays_its_figures(path, notebook_runs):
    executed, owners = notebook_runs(path)
    assert sum(len(names) for names in owners.values()) == len(runner.declared_figures(path))
    problems = display_problems(nbformat.read(executed, as_version=4), owners)
    assert not problems, (
        f"{path.name}, run with its defaults, does not show every figure it saves "
        "(show each one, e.g. with IPython.display.display(fig)):\n  " + "\n  ".join(problems)
    )


@pytest.mark.parametrize("path", ALL, ids=[p.stem for p in ALL])
def test_committed_notebook_stores_its_figures(path, notebook_runs):
    _, owners = notebook_runs(path)
    problems = display_problems(nbformat.read(path, as_version=4), owners, "stores")
    assert not problems, (
        f"{path.name} as committed does not store the images of its figure cells "
        f"(refresh with `python -m ndcg_research store --only {path.stem}`):\n  " + "\n  ".join(problems)
    )
