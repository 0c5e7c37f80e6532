"""Each notebook has one headline figure that can be read in one journal column, and the committed one is what the
code draws from the committed tables.

The rule (issue 25, item 7): printed :data:`~ndcg_research.pipeline.style.COLUMN_WIDTH_CM` (8.5 cm) wide, no text of
the figure is smaller than :data:`~ndcg_research.pipeline.style.MIN_TEXT_PT` (7 pt). The saved width is read from the
committed PNG's pixels (at the resolution its record names), the font sizes from the record's ``layout`` (every text
the figure draws, :func:`~ndcg_research.pipeline.figures.figure_layout`); a text of ``s`` points in a figure ``w`` cm
wide prints at ``s * 8.5 / w`` points.

The headline is then drawn again from ``results/full`` (the tables the full profile committed) with the parameters
and seed of its record: its caption, its size and every text it draws must equal the committed record's, so a caption
or a label changed in the code without regenerating the figure (``python -m ndcg_research.pipeline.headlines``)
fails here, without running the full profile.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image

from ndcg_research.pipeline import headlines, runner
from ndcg_research.pipeline.figures import read_provenance
from ndcg_research.pipeline.style import COLUMN_WIDTH_CM, MIN_TEXT_PT

ROOT = Path(__file__).resolve().parent.parent
ALL = runner.discover_notebooks(ROOT / "notebooks")
FIGURES = ROOT / "figures"
FULL = ROOT / "results" / "full"


def committed(path: Path) -> tuple[str, dict]:
    name = runner.profiles.declared_headline(path)
    assert name, f"{path.name} declares no headline figure (metadata ndcg_research.headline)"
    return name, read_provenance(FIGURES / f"{name}.json")


@pytest.mark.parametrize("path", ALL, ids=[p.stem for p in ALL])
def test_every_notebook_declares_one_headline_its_study_draws(path):
    headline = headlines.headline_of(path)  # raises unless the study's HEADLINE is the declared figure
    assert headline.name in runner.declared_figures(path)


@pytest.mark.parametrize("path", ALL, ids=[p.stem for p in ALL])
def test_the_committed_headline_is_legible_in_one_column(path):
    name, record = committed(path)
    with Image.open(FIGURES / f"{name}.png") as image:
        width_px = image.size[0]
    width_cm = width_px / record["png_dpi"] * 2.54
    layout = record["layout"]
    assert width_cm == pytest.approx(layout["width_cm"], abs=0.01), f"{name}: the record's width is not the PNG's"
    printed = layout["smallest_text_pt"] * COLUMN_WIDTH_CM / width_cm
    assert printed >= MIN_TEXT_PT, (
        f"{name}: printed {COLUMN_WIDTH_CM} cm wide (it is {width_cm:.2f} cm), its smallest text is {printed:.2f} pt "
        f"(< {MIN_TEXT_PT} pt)"
    )


@pytest.mark.parametrize("path", ALL, ids=[p.stem for p in ALL])
def test_the_committed_headline_is_what_the_code_draws_from_the_committed_tables(path, tmp_path):
    name, record = committed(path)
    headlines.save_headline(
        headlines.headline_of(path),
        FULL,
        figures_dir=tmp_path,
        notebook=path.name,
        parameters=record["parameters"],
        seed=record["seed"],
    )
    drawn = read_provenance(tmp_path / f"{name}.json")
    assert drawn["caption"] == record["caption"], f"{name}: the committed caption is stale"
    assert drawn["layout"]["texts"] == record["layout"]["texts"], f"{name}: the committed figure's texts are stale"
    assert drawn["layout"] == record["layout"], f"{name}: the committed figure's size or text sizes are stale"


def test_the_redraw_command_reports_a_bad_notebook_name_in_one_line(capsys):
    # `--only 99` was a RunnerError traceback (the selection ran outside the command's error handling)
    assert headlines.main(["--only", "99"]) == 1
    err = capsys.readouterr().err
    assert (
        err.startswith("error: --only '99' matches no notebook; available: 01_worked_example") and err.count("\n") == 1
    )
