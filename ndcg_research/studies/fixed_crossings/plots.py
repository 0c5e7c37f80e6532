"""Notebook 12 (fixed crossings): its figures (conventions: :mod:`ndcg_research.pipeline.style`)."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.lines import Line2D

from ...pipeline import style
from ...pipeline.headlines import Headline
from ...simulation.tables import read_table

#: The plotted columns of the share of data sets won by the first ranker against n, with its Wilson interval.
WON = ("n", "p_first", "p_first_low", "p_first_high")


def gain_profile_panel(profiles: Mapping[str, Any], crossings: Sequence[float]) -> Figure:
    """Expected gain ``profiles[ranker](t)`` against the relative rank t (log scale); dotted: where they cross."""
    fig = Figure(figsize=(6.4, 3.8), layout="constrained")
    ax = fig.subplots()
    t = np.geomspace(1e-5, 1 - 1e-5, 800)
    for c, (name, g) in enumerate(profiles.items()):
        ls = style.LINESTYLES[c % len(style.LINESTYLES)]
        ax.plot(t, style.round_significant(g(t)), ls, color=f"C{c}", lw=1.6, label=name)
    text = dict(rotation=90, fontsize=8, ha="right", va="bottom")
    for depth in crossings:
        ax.axvline(style.round_significant(depth), color="0.4", lw=0.8, ls=":")
        ax.annotate(f"t = {depth:.3g}", (depth, 0.02), xycoords=("data", "axes fraction"), **text)
    ax.set(xscale="log", xlabel="relative rank t (share of the list above the item)", ylabel="expected gain g(t)")
    fig.legend(loc="outside lower center", ncols=len(profiles), fontsize=9, frameon=False)
    fig.suptitle("Expected gain profiles (dotted: where they cross)", fontsize=11)
    return fig


def preference_panels(
    decisions: Mapping[str, pd.DataFrame], crossing_table: pd.DataFrame, discounts: Sequence[str]
) -> Figure:
    """Per model: the share of data sets won by the first ranker against n, per discount; diamonds: the crossings."""
    labels = list(decisions)
    first, second = decisions[labels[0]]["first"].iloc[0], decisions[labels[0]]["second"].iloc[0]
    fig = Figure(figsize=(5.2 * len(labels), 4.2), layout="constrained")
    axes = fig.subplots(1, len(labels), sharey=True, squeeze=False)[0]
    colors = style.decay_colors(discounts)
    handles = []
    for ax, label in zip(axes, labels, strict=False):
        for d in discounts:
            rows = style.select(decisions[label], discount=d, first=first, second=second)
            won = (style.plotted_column(rows, c) for c in WON)
            handles.append((style.band_line(ax, *won, color=colors[d], marker="o", ls="-", ms=3, lw=1.2), d))
            where = style.crossing_n(crossing_table, first, second, d)
            if math.isfinite(where):
                ax.plot([style.round_significant(where)], [0.5], "D", color=colors[d], ms=7, mec="k", mew=0.6)
        ax.axhline(0.5, color="0.5", lw=0.8, ls="--")
        ax.set(xscale="log", xlabel="n", ylim=(-0.03, 1.03), title=f"{label} top")
    axes[0].set_ylabel(f"P({first} scores higher)")
    handles.append((Line2D([], [], color="0.3", marker="D", mec="k", ls="none"), "expected crossing (finite-n theory)"))
    style.legend_below(fig, handles, ncols=4)
    fig.suptitle(f"{first} against {second}: share of data sets won by {first} (Wilson 95%)", fontsize=11)
    return fig


def crossing_growth_panel(family: pd.DataFrame, reliable: pd.DataFrame, n_max: int) -> Figure:
    """How far out the decision moves as the pair approaches equal first-order constants: the expected crossings
    (``family``) and the simulated ``n_reliable`` (``reliable``; not reached: drawn filled above ``n_max``)."""
    fig = Figure(figsize=(6.4, 4.4), layout="constrained")
    ax = fig.subplots()
    discounts = list(dict.fromkeys(family["discount"]))
    colors = style.decay_colors(discounts)
    for d in discounts:
        rows = family[family["discount"] == d].sort_values("abs_delta_c")
        x, y = style.plotted_column(rows, "abs_delta_c"), style.plotted_column(rows, "crossing_n")
        ax.plot(x, y, "o-", color=colors[d], ms=4, lw=1.3, label=f"{d}: expected crossing (theory)")
    above = 1.8 * n_max  # where "not reached within the simulated n" is drawn, above the line at n_max
    for m, (label, rows) in enumerate(reliable.groupby("label", sort=False)):
        x, y = style.plotted_column(rows, "abs_delta_c"), style.plotted_column(rows, "n_reliable")
        seen, color, marker = np.isfinite(y), ("C3", "C1")[m % 2], style.PAIR_MARKERS[m % len(style.PAIR_MARKERS)]
        text = f"log2 decides reliably from n ({label} top, simulated)"
        ax.plot(x[seen], y[seen], marker, color=color, ms=8, ls="none", mfc="none", mew=1.5, label=text)
        if (~seen).any():
            text = f"not reliable within the simulated n ({label} top)"
            ax.plot(x[~seen], np.full(int((~seen).sum()), above), marker, color=color, ms=7, ls="none", label=text)
    # named in the legend, not beside the line: a text on the line overprinted the markers at n_max
    ax.axhline(n_max, color="0.5", lw=0.8, ls=":", label=f"largest simulated n = {n_max:,}")
    xlabel = "|c(gated) - c(noisy)|: difference of the first-order constants"
    ax.set(xscale="log", yscale="log", xlabel=xlabel, ylabel="list length n")
    ax.invert_xaxis()
    fig.legend(loc="outside lower center", ncols=2, fontsize=8.5, frameon=False)
    fig.suptitle("As the first-order constants approach each other (right), the decision moves out", fontsize=11)
    return fig


#: The headline's models: the labels of the run's ``12_decisions_<label>.csv``, certain top first.
HEADLINE_MODELS = ("certain", "uncertain")


def headline_figure(results: Path) -> Figure:
    """One column, a panel per model: the share of data sets won by the first ranker (``12_decisions_*.csv``) against n,
    per discount (Wilson 95%), with the expected crossings (``12_crossings.csv``) as diamonds."""
    crossings = read_table(results / "12_crossings.csv")
    with style.column_figure(11.0, len(HEADLINE_MODELS), 1, sharex=True) as (fig, axes):
        for ax, panel, label in zip(axes, "ab", HEADLINE_MODELS, strict=True):
            decisions = read_table(results / f"12_decisions_{label}.csv")
            first, second = decisions["first"].iloc[0], decisions["second"].iloc[0]
            discounts = list(dict.fromkeys(decisions["discount"]))
            styles = style.column_discount_styles(discounts)
            for d in discounts:
                rows = style.select(decisions, discount=d, first=first, second=second)
                n, *won = (style.plotted_column(rows, c) for c in WON)
                style.band_line(ax, n, *won, 0.15, label=d, **styles[d])
                # the expected gaps of the two models differ by a factor (notebook 10): one crossing for both
                where = style.round_significant(style.crossing_n(crossings, first, second, d))
                if math.isfinite(where):
                    ax.plot([where], [0.5], "D", color=styles[d]["color"], ms=5, mec="k", mew=0.5)
            ax.axhline(0.5, color="0.5", lw=0.7, ls=":")
            ax.set(xscale="log", ylim=(-0.03, 1.03), ylabel=f"P({first} higher)")
            ax.set_title(f"({panel}) {label} top, model {decisions['model'].iloc[0]}")
            style.decade_x_ticks(ax, n)
        axes[0].plot([], [], "D", color="0.4", mec="k", mew=0.5, ms=5, label="expected crossing")  # legend only
        return style.column_legend(fig, axes, 2)


def headline_caption(results: Path) -> str:
    """The headline's caption."""
    decisions = read_table(results / f"12_decisions_{HEADLINE_MODELS[0]}.csv")
    first, second = decisions["first"].iloc[0], decisions["second"].iloc[0]
    return (
        f"Two fixed rankers whose expected gain profiles cross ({first} and {second}): the share of "
        f"{int(decisions['replicates'].min()):,} or more simulated data sets per n on which {first} scores higher, "
        f"per discount, with a certain (a) and an uncertain (b) top (Wilson 95% bands); diamonds: where the expected "
        f"nDCG changes order (finite-n theory; the same n in both models)."
    )


HEADLINE = Headline.from_tables("12_headline", headline_figure, headline_caption)
