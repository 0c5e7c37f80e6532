"""The figures of notebook 15: the headline (one journal column) and the first-order appendix figure.

Plotted values are rounded to 8 significant digits: the last bits of a sum differ between machines."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from ...pipeline.headlines import Headline
from ...pipeline.style import COLUMN_WIDTH_CM, MIN_TEXT_PT, column_figure, round_significant, select, short_pair_label
from ...simulation.tables import read_table
from .findings import TABLES

#: The appendix figure's style.
_STYLE = dict.fromkeys(
    ("font.size", "axes.labelsize", "legend.fontsize", "xtick.labelsize", "ytick.labelsize"), MIN_TEXT_PT
)
_STYLE |= {"axes.titlesize": MIN_TEXT_PT + 0.5, "lines.linewidth": 1.0, "lines.markersize": 3.5, "axes.grid": True}
_STYLE |= {"grid.alpha": 0.3, "axes.spines.top": False, "axes.spines.right": False}
_COLORS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd")


def headline_figure(results: Path, discount: str = "log2") -> Figure:
    """The headline, from the run's tables: (a) the standardized gap under 1/r with an uncertain top against n, beside
    its limit; (b) the fitted growth exponent of nDCG@n^a's standardized gap under ``discount`` against a, beside the
    law."""
    levels, exponents, crossings = (read_table(results / TABLES[role]) for role in ("zipf", "exponents", "crossings"))
    with column_figure(12.0, 2, 1, height_ratios=[1, 1.15]) as (fig, (top, bottom)):
        uncertain = levels[levels["hi"] < 1]
        pairs = uncertain.groupby(["better", "worse"], sort=False)
        for color, ((better, worse), g) in zip(_COLORS * 4, pairs, strict=False):
            g = g.sort_values("n")
            n = g["n"].to_numpy(dtype=float)
            d, bar = round_significant(g["std_gap"].to_numpy()), round_significant(1.96 * g["std_gap_se"].to_numpy())
            top.errorbar(n, d, yerr=bar, fmt="o", color=color, capsize=1.5, label=short_pair_label(better, worse))
            top.plot(n, round_significant(g["std_gap_ind"].to_numpy()), ":", color=color)
            top.axhline(float(round_significant(g["std_gap_limit"].iloc[0])), ls="--", color=color, lw=0.9)
        top.set(xscale="log", xlabel="list length n", ylabel="standardized gap d")
        top.set_title("(a) 1/r, uncertain top: d against its limit (dashed)", loc="left")
        top.legend(loc="center right", bbox_to_anchor=(1.0, 0.58), frameon=False, handletextpad=0.3)

        cells = exponents[exponents["discount"] == discount]
        for i, ((label, better, worse), g) in enumerate(cells.groupby(["model", "better", "worse"], sort=False)):
            g = g.sort_values("a")
            color, marker = _COLORS[i % len(_COLORS)], "osD^"[i % 4]
            half = ((g["exponent_high"] - g["exponent_low"]) / 2).to_numpy()
            shown = half <= 0.5
            a = g["a"].to_numpy()
            exponent, bar = round_significant(g["exponent"].to_numpy()[shown]), round_significant(half[shown])
            name = f"{label}, {short_pair_label(better, worse)}"
            style = dict(fmt=marker, color=color, capsize=1.2, ms=3, label=name)
            bottom.errorbar(a[shown] + (i - 1.5) * 0.004, exponent, yerr=bar, **style)
            bottom.plot(a, round_significant(g["law_local_exponent"].to_numpy()), "-", color=color, lw=0.8)
            row = select(crossings, model=label, discount=discount, better=better, worse=worse)
            if not row.empty and math.isfinite(row["a_star_n"].iloc[0]):
                bottom.axvline(float(round_significant(row["a_star_n"].iloc[0])), color=color, ls=":", lw=0.8)
        bottom.axhline(0.0, color="0.3", lw=0.7)
        bottom.set(xlabel="cut-off exponent a (k = n^a)", ylabel="growth exponent of d")
        bottom.set_title(f"(b) nDCG@n^a, {discount}: fitted (bars) and law (lines)", loc="left")
        low, high = bottom.get_ylim()
        bottom.set_ylim(low, high + 0.4 * (high - low))  # room for the legend above the points
        bottom.legend(loc="upper left", frameon=False, handletextpad=0.3)
    return fig


def first_order(gaps: pd.DataFrame) -> Figure:
    """Appendix figure: d / sqrt(n) of T and of each slowly varying discount, per top and pair, and the limit."""
    import matplotlib

    with matplotlib.rc_context(_STYLE):
        groups = list(gaps.groupby(["model", "better", "worse"], sort=False))
        rows = math.ceil(len(groups) / 2)
        fig = Figure(figsize=(2 * COLUMN_WIDTH_CM / 2.54, (4.2 * rows + 1.0) / 2.54), layout="constrained")
        axes = np.atleast_1d(fig.subplots(rows, 2, squeeze=False)).ravel()
        for ax, ((label, better, worse), g) in zip(axes, groups, strict=False):
            for j, (statistic, s) in enumerate(g.groupby("statistic", sort=False)):
                s = s.sort_values("n")
                name = "T (no discount)" if statistic == "T" else statistic
                d = round_significant(s["std_gap_per_root_n"].to_numpy())
                bar = round_significant(1.96 * s["se_per_root_n"].to_numpy())
                style = dict(fmt="osD^"[j % 4] + "-", color=_COLORS[j % 4], capsize=1.5, label=name)
                ax.errorbar(s["n"].to_numpy(dtype=float), d, yerr=bar, **style)
            limit = float(round_significant(g["limit"].iloc[0]))
            ax.axhline(limit, color="0.2", ls="--", lw=0.9, label="first-order limit")
            ax.set(xscale="log", xlabel="list length n", ylabel="d / sqrt(n)")
            ax.set_title(f"{label} top, {short_pair_label(better, worse)}", loc="left")
        for ax in axes[len(groups) :]:
            ax.set_visible(False)
        fig.legend(*axes[0].get_legend_handles_labels(), loc="outside lower center", ncol=3, frameon=False)
    return fig


HEADLINE = Headline.from_tables(
    "15_levels_and_thresholds",
    headline_figure,
    lambda results: (
        "(a) Under 1/r with an uncertain top, the standardized gap of each pair against its computed finite limit "
        "(dashed; dotted: independent grades). (b) nDCG@n^a under log2: fitted growth exponent of the standardized "
        "gap against a, the law (lines) and a*_n (dotted)."
    ),
)
