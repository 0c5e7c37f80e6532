"""The figures of notebook 16: the headline (one journal column) and the two-feature rankers' gain by rank."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import matplotlib
import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.lines import Line2D

from ...pipeline.headlines import Headline
from ...pipeline.style import COLUMN_WIDTH_CM, cell_grid, column_figure
from ...simulation.tables import read_table
from .models import TwoFeatureModel

#: Font sizes (points) of the figures: none below 7 at their printed size.
FONT_SIZES = {"font.size": 7.5, "axes.titlesize": 8, "axes.labelsize": 7.5}
FONT_SIZES |= dict.fromkeys(("legend.fontsize", "xtick.labelsize", "ytick.labelsize"), 7)
_MARKERS = "osD^v<>"


def headline_figure(sparse_ndcg: pd.DataFrame, ratios: pd.DataFrame, floor: float) -> Figure:
    """(a) Mean nDCG under log2 against n of bayes (simulated) and random (exact) per sparse model; (b) the ratio of
    standardized gaps loglog / log2 per pair and n where resolved, 95% interval, against ``floor``."""
    with column_figure(12.7, 2, 1) as (fig, (top, bottom)):
        models = list(dict.fromkeys([*sparse_ndcg["model"], *ratios["model"]]))
        colors = {m: ("black" if m not in set(sparse_ndcg["model"]) else f"C{i}") for i, m in enumerate(models)}
        markers = {m: _MARKERS[i % len(_MARKERS)] for i, m in enumerate(models)}
        log2 = sparse_ndcg[sparse_ndcg["discount"] == "log2"]
        for m in dict.fromkeys(sparse_ndcg["model"]):
            rows = log2[log2["model"] == m]
            best, random = rows[rows["ranker"] == "bayes"], rows[rows["ranker"] == "random"]
            top.plot(best["n"], best["mean"], "-", marker=markers[m], color=colors[m], ms=3, lw=1.2)
            top.plot(random["n"], random["exact"], "--", color=colors[m], lw=1.0)
        top.set(xscale="log", ylim=(0, 1.02), xlabel="list length n", ylabel="mean nDCG (log2)")
        top.set_xticks(sorted(log2["n"].unique()))
        top.set_title("(a) solid: bayes; dashed: random (exact)", loc="left")
        shown = ratios[ratios["resolved"]]
        cells = shown.groupby(["model", "first", "second"], sort=False)
        half = (cells.ngroups - 1) / 2
        for k, ((model, _, _), rows) in enumerate(cells):
            shift = 1.25 ** ((k - half) / max(1.0, half))  # spread the cells of one n
            yerr = [rows["ratio"] - rows["ratio_low"], rows["ratio_high"] - rows["ratio"]]
            style = dict(fmt=markers[model], color=colors[model], ms=2.5, lw=0.7, capsize=0)
            bottom.errorbar(rows["n"] * shift, rows["ratio"], yerr=yerr, **style)
        bottom.axhline(floor, color="0.3", lw=0.9, ls="--")
        bottom.axhline(1.0, color="0.6", lw=0.7, ls=":")
        bottom.set(xscale="log", xlabel="list length n", ylabel="std. gap loglog / log2")
        bottom.set_xticks(sorted(shown["n"].unique()))
        bottom.set_title(f"(b) per pair, 95% interval; refuted below {floor:g}", loc="left")
        handles = [Line2D([], [], color=colors[m], marker=markers[m], ls="none", ms=3.5, label=m) for m in models]
        fig.legend(
            handles=handles, loc="outside lower center", ncols=3, frameon=False, handletextpad=0.2, columnspacing=0.6
        )
        return fig


def _headline_from_tables(results: Path) -> Figure:
    from . import findings

    names = ("sparse_ndcg", "sparse_ratios", "two_feature_ratios")
    ndcg, *ratios = (read_table(results / findings.TABLES[name]) for name in names)
    return headline_figure(ndcg, pd.concat(ratios, ignore_index=True), findings.threshold("ratio_floor"))


HEADLINE = Headline.from_tables(
    "16_headline",
    _headline_from_tables,
    lambda results: (
        "Sparse relevance: mean nDCG under log2 of bayes (simulated) and random (exact) against n; ratio of "
        "standardized paired gaps loglog / log2 per pair and n, sparse and two-feature models."
    ),
)


def gain_by_rank_figure(
    model: TwoFeatureModel, rankers: Sequence[str], n: int, bins: pd.DataFrame, crossings: pd.DataFrame
) -> Figure:
    """Expected gain by rank of every two-feature ranker (exact: lines; simulated per bin: markers), with the ranks
    where studied pairs cross."""
    with matplotlib.rc_context(FONT_SIZES):
        fig, [[ax]], _ = cell_grid([None], [None], (COLUMN_WIDTH_CM / 2.54, 3.3), pad=0.0)
        r = np.arange(1, n + 1)
        for c, ranker in enumerate(rankers):
            ax.plot(r, model.rank_gains(ranker, n), color=f"C{c}", lw=1.1, label=ranker)
            rows = bins[bins["ranker"] == ranker]
            middle = (rows["rank_from"] + rows["rank_to"]) / 2
            ax.plot(middle, rows["simulated"], _MARKERS[c % len(_MARKERS)], color=f"C{c}", ms=2.5, mfc="none", mew=0.7)
        depths = sorted({float(d) for text in crossings.loc[crossings["studied"], "depths"] for d in text.split(", ")})
        for depth in depths:
            ax.axvline(depth * n, color="0.5", lw=0.5, ls=":")
        ax.set(
            xscale="log", xlim=(1, n), ylim=(0.35, 1.01), xlabel=f"rank r (n = {n})", ylabel="expected gain at rank r"
        )
        ax.set_title("lines: exact; markers: simulated; dotted: crossings", loc="left")
        ax.legend(ncols=2, frameon=False, loc="lower left", handlelength=1.5)
        return fig
