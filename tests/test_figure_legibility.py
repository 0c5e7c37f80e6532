"""Figures read well at the size a reader sees them, and draw every interval and every point where it can be seen.

The documentation site and JupyterLab show a figure about 896 px wide; a notebook stores it at ``figure.dpi`` 100,
so a figure w inches wide is shown at min(1, 896 / (100 w)) of its size, and a text of s points at
s * 100 / 72 * that scale pixels. A review found notebook 09's appendix grids 16.6 inches wide (shown at 0.54: its
9-point legend about 6.7 px, unreadable), their uncertain-top panels fixed at 10^-6 to 1 while the shares sat
between 0.1 and 0.5, notebook 04's headline cutting a Wilson interval (lower end 0.276) at a floor of 0.3, and
notebook 12's "largest simulated n" label printed over the markers beside it.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.collections import LineCollection, PolyCollection
from matplotlib.container import ErrorbarContainer
from matplotlib.figure import Figure

from ndcg_research.pipeline.figures import save_figure, use_style
from ndcg_research.simulation.tables import read_table
from ndcg_research.studies.consistent_distinguishability import plots as consistency_plots
from ndcg_research.studies.discount_functions import plots as discount_plots
from ndcg_research.studies.distinguishability import plots as distinguishability_plots
from ndcg_research.studies.fixed_crossings import plots as crossing_plots
from ndcg_research.studies.movielens import findings as movielens_findings
from ndcg_research.studies.movielens import plots as movielens_plots

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "results" / "full"
FIGURES = ROOT / "figures"

#: What a reader sees: a page about 896 px wide, a notebook's figure stored at 100 dpi; the smallest text, in px.
READER_PX, NOTEBOOK_DPI, MIN_TEXT_PX = 896, 100, 8.0


def shown_text_px(layout: dict) -> float:
    """The smallest text of a figure (its provenance record's layout), in pixels as a reader sees it."""
    width_px = layout["width_cm"] / 2.54 * NOTEBOOK_DPI
    return layout["smallest_text_pt"] / 72 * NOTEBOOK_DPI * min(1.0, READER_PX / width_px)


def saved_layout(fig: Figure, tmp_path: Path, name: str) -> dict:
    save_figure(fig, name, figures_dir=tmp_path, caption="c", notebook="n.ipynb", parameters={})
    return json.loads((tmp_path / f"{name}.json").read_text())["layout"]


def test_shown_text_px_by_hand():
    # 16.61 inches (the old 09 grid): shown at 896 / 1661 = 0.539; 9 pt = 12.5 px at 100 dpi, 6.74 px shown.
    assert shown_text_px({"width_cm": 16.61 * 2.54, "smallest_text_pt": 9.0}) == pytest.approx(6.74, abs=0.01)
    # a figure narrower than the page is not enlarged: 7 pt = 9.72 px
    assert shown_text_px({"width_cm": 8.38, "smallest_text_pt": 7.0}) == pytest.approx(9.72, abs=0.01)


def _records() -> list[Path]:
    return sorted(FIGURES.glob("*.json"))


@pytest.mark.parametrize("record", _records(), ids=[p.stem for p in _records()])
def test_every_committed_figure_is_readable_at_the_page_width(record):
    layout = json.loads(record.read_text())["layout"]
    assert shown_text_px(layout) >= MIN_TEXT_PX, (record.stem, layout["width_cm"], layout["smallest_text_pt"])


def _tables(prefix: str, labels=("uncertain", "certain")) -> dict[str, pd.DataFrame]:
    return {label: read_table(RESULTS / f"{prefix}_{label}.csv") for label in labels}


def _discounts_and_pairs(table: pd.DataFrame) -> tuple[list[str], list[tuple[str, str]]]:
    return list(dict.fromkeys(table["discount"])), list(
        dict.fromkeys(zip(table["better"], table["worse"], strict=True))
    )


def test_appendix_grids_of_notebooks_04_and_09_are_readable_at_the_page_width(tmp_path):
    use_style()  # the notebooks' style
    failures, streams = _tables("09_failure"), _tables("09_stream_stability")
    discounts, pairs = _discounts_and_pairs(failures["uncertain"])
    pairs04 = read_table(RESULTS / "04_pairs_uncertain.csv")
    figures = {
        "09_failure_rate": consistency_plots.failure_rate_grid(failures, discounts, pairs),
        "09_stream_stability": consistency_plots.stream_stability_grid(streams, discounts, pairs),
        "04_p_correct": distinguishability_plots.pair_grid(pairs04, *_discounts_and_pairs(pairs04), "p_better", "t"),
        "04_standardized_gap": distinguishability_plots.pair_grid(
            pairs04, *_discounts_and_pairs(pairs04), "std_gap", "t"
        ),
    }
    shown = {name: shown_text_px(saved_layout(fig, tmp_path, name)) for name, fig in figures.items()}
    assert min(shown.values()) >= MIN_TEXT_PX, shown


def _failure_rows(p, low, high, normal) -> pd.DataFrame:
    return pd.DataFrame(
        dict(discount="log2", better="a", worse="b", n=[100, 1000, 10000], p_fail=p, p_fail_low=low,
             p_fail_high=high, p_fail_normal=normal)
    )  # fmt: skip


def test_failure_rate_panels_range_follows_their_data():
    # shares between 0.38 and 0.5 (an uncertain top): the panel holds them, no more than a decade below and above
    flat = _failure_rows([0.45, 0.42, 0.44], [0.40, 0.38, 0.39], [0.50, 0.46, 0.49], [0.44, 0.43, 0.43])
    # failures dying out: the last share is 0 (its Wilson upper bound 4e-4 drawn), the normal curve falls to 1e-12
    falling = _failure_rows([0.1, 0.002, 0.0], [0.08, 0.001, 0.0], [0.12, 0.004, 4e-4], [0.12, 0.003, 1e-12])
    fig = consistency_plots.failure_rate_grid({"m": flat, "k": falling}, ["log2"], [("a", "b")])
    fig.canvas.draw()
    flat_ax, falling_ax = fig.axes[:2]
    low, high = flat_ax.get_ylim()
    assert low <= 0.38 and high >= 0.50  # every measured value and interval end inside
    assert low >= 0.02 and high <= 1.0  # not 10^-6 to 1: the shares fill the panel
    assert math.log10(high / low) >= 1 - 1e-9  # at least a decade: a flat series looks flat
    shown = [t.get_text() for t in flat_ax.get_yticklabels() if t.get_text() and low <= t.get_position()[1] <= high]
    assert len(shown) >= 2  # a reader can read the scale
    low, high = falling_ax.get_ylim()
    assert low <= 4e-4 and high >= 0.12  # the upper bound of the share 0 and the largest share
    assert low > 1e-6  # the normal curve's 1e-12, below anything measured, does not stretch the panel
    assert not [t.get_text() for t in falling_ax.yaxis.get_minorticklabels() if t.get_text()]


def interval_ends_outside(fig: Figure) -> list[tuple[str, float, tuple[float, float]]]:
    """Every end of an error bar or a band drawn outside its axes' y range: (axes title, value, limits)."""
    outside = []
    for ax in fig.axes:
        low, high = ax.get_ylim()
        ends: list[float] = []
        for container in ax.containers:
            if isinstance(container, ErrorbarContainer):
                for bars in container.lines[2]:
                    if isinstance(bars, LineCollection):
                        ends += [float(y) for segment in bars.get_segments() for y in segment[:, 1]]
        for band in ax.collections:
            if isinstance(band, PolyCollection):
                ends += [float(y) for path in band.get_paths() for y in path.vertices[:, 1]]
        outside += [(ax.get_title(), y, (low, high)) for y in ends if np.isfinite(y) and not low <= y <= high]
    return outside


@pytest.mark.parametrize("plots", [distinguishability_plots, consistency_plots, crossing_plots])
def test_headlines_draw_every_interval_inside_their_axes(plots):
    fig = plots.HEADLINE.draw(RESULTS, {})
    fig.canvas.draw()
    assert not interval_ends_outside(fig)


def test_interval_ends_outside_finds_a_cut_bar():
    ax = Figure().subplots()
    ax.errorbar([1, 2], [0.5, 0.4], yerr=[[0.1, 0.124], [0.1, 0.1]])
    ax.fill_between([1, 2], [0.2, 0.3], [0.6, 0.7])
    ax.set_ylim(0.3, 1.0)
    assert sorted(round(y, 3) for _, y, _ in interval_ends_outside(ax.figure)) == [0.2, 0.276]


def texts_over_markers(fig: Figure) -> list[str]:
    """The texts inside an axes whose drawn box covers a marker of a line (a data point)."""
    renderer = FigureCanvasAgg(fig).get_renderer()
    covering = []
    for ax in fig.axes:
        points = [
            ax.transData.transform(np.column_stack([line.get_xdata(), line.get_ydata()]))
            for line in ax.get_lines()
            if line.get_marker() not in (None, "", "None", " ")
        ]
        drawn = np.concatenate(points) if points else np.empty((0, 2))
        for text in ax.texts:
            box = text.get_window_extent(renderer).expanded(1.1, 1.2)
            if any(box.contains(x, y) for x, y in drawn if np.isfinite(x) and np.isfinite(y)):
                covering.append(text.get_text())
    return covering


def test_crossing_growth_panel_prints_no_text_over_its_markers():
    # the notebook's figure from the committed tables (notebook 12's cell of 12_crossing_growth)
    crossings, first_order = read_table(RESULTS / "12_crossings.csv"), read_table(RESULTS / "12_first_order.csv")
    family = crossings[crossings["decay"] == "slowly varying"].merge(first_order[["second", "delta_c"]], on="second")
    family["abs_delta_c"] = family["delta_c"].abs()
    reliable = pd.concat(
        [read_table(RESULTS / f"12_reliable_{label}.csv") for label in ("certain", "uncertain")], ignore_index=True
    ).assign(abs_delta_c=lambda t: t["delta_c"].abs())
    n_max = int(read_table(RESULTS / "12_family_certain.csv")["n"].max())
    assert (reliable["n_reliable"] == n_max).any()  # a marker sits on the line at n_max, as in the review
    fig = crossing_plots.crossing_growth_panel(family, reliable, n_max)
    fig.canvas.draw()
    assert not texts_over_markers(fig)
    legend = [t.get_text() for t in fig.legends[0].get_texts()]
    assert f"largest simulated n = {n_max:,}" in legend


def test_texts_over_markers_finds_a_covering_label():
    ax = Figure().subplots()
    ax.plot([1, 2], [1, 2], "o")
    ax.text(2, 2, "over the point", ha="center", va="center")
    ax.text(1.5, 1.0, "away")
    ax.figure.canvas.draw()
    assert texts_over_markers(ax.figure) == ["over the point"]


def _movielens_figures() -> dict[str, Figure]:
    """Notebook 08's figures drawn as its cells draw them, from the committed tables."""
    tables = {
        name: read_table(RESULTS / f"08_{name}.csv")
        for name in ("rankers", "list_length_means", "list_length_pairs", "list_length_first_order",
                     "query_sets_power", "query_sets_swaps", "conventions_means", "cutoffs_means", "cutoffs_decisions")
    }  # fmt: skip
    means, pairs = tables["list_length_means"], tables["list_length_pairs"]
    systems = list(dict.fromkeys(means["system"]))
    gains, discounts = list(dict.fromkeys(means["gain"])), list(dict.fromkeys(means["discount"]))
    labels = list(dict.fromkeys(means["list_length"].astype(str)))
    info = means.drop_duplicates("list_length")[["list_length", "mean_length", "users_with_share_kept"]]
    significant = movielens_findings.list_length_findings(means, pairs, tables["list_length_first_order"])[
        "significant"
    ]
    power, swaps = tables["query_sets_power"], tables["query_sets_swaps"]
    conventions = tables["conventions_means"]
    cut_means, cut_summary = tables["cutoffs_means"], tables["cutoffs_decisions"]
    n_all = len(set(cut_means["system"]))
    return {
        "08_rankers": movielens_plots.ranker_means_panels(
            tables["rankers"], systems, gains, list(dict.fromkeys(tables["rankers"]["cutoff"].astype(str)))
        ),
        "08_list_length": movielens_plots.list_length_panels(means, info, systems, discounts, gains[0]),
        "08_list_length_distinguishability": movielens_plots.list_length_distinguishability_panels(
            pairs, info, significant, labels, discounts, gains[0], len(systems) * (len(systems) - 1) // 2
        ),
        "08_query_sets": movielens_plots.query_set_panels(power, swaps, discounts, gains[0], n_all * (n_all - 1) // 2),
        "08_conventions": movielens_plots.convention_panels(
            conventions,
            systems,
            list(dict.fromkeys(conventions["convention"])),
            list(dict.fromkeys(conventions["depth"].astype(str))),
            list(dict.fromkeys(conventions["measure"])),
        ),
        "08_cutoffs": movielens_plots.cutoff_panels(
            cut_means,
            cut_summary,
            systems,
            gains,
            list(dict.fromkeys(cut_means["cutoff"].astype(str))),
            n_all * (n_all - 1) // 2,
        ),  # fmt: skip
    }


def test_figures_of_notebooks_02_and_08_are_readable_at_the_page_width(tmp_path):
    # a review found them shrunk on a page (02's three panels 14 inches wide, 08's rows 11 to 13 inches) so that
    # their smallest text showed at 6.75 to 7.95 px
    use_style()  # the notebooks' style
    discounts = list(read_table(RESULTS / "02_top_share.csv")["discount"])
    figures = {"02_discount_functions": discount_plots.discount_panels(discounts, 10**7), **_movielens_figures()}
    shown = {name: shown_text_px(saved_layout(fig, tmp_path, name)) for name, fig in figures.items()}
    assert min(shown.values()) >= MIN_TEXT_PX, shown
