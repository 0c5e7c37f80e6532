"""Notebook 10 (crossing rankers): its figures (conventions: :mod:`ndcg_research.pipeline.style`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.lines import Line2D

from ...pipeline import style
from ...pipeline.headlines import Headline
from ...simulation.tables import read_table


def _gap_line(
    ax: Axes, theory: pd.DataFrame, crossings: pd.DataFrame, pair: Sequence[str], d: str, **line: Any
) -> Line2D:
    """Draw E nDCG(first) - E nDCG(second) under ``d`` (finite-n theory) against n, with ``line``'s ``marker`` (of size
    ``ms``) at the crossing; return the line."""
    first, second = pair
    marker, ms = line.pop("marker"), line.pop("ms")
    a = style.select(theory, discount=d, ranker=first).set_index("n")["finite_n"]
    gap = (a - style.select(theory, discount=d, ranker=second).set_index("n")["finite_n"]).dropna()
    x, y = style.round_significant(gap.index.to_numpy(float)), style.round_significant(gap.to_numpy())
    drawn = ax.plot(x, y, **line)[0]
    where = style.crossing_n(crossings, first, second, d)
    if np.isfinite(where):
        ax.plot([style.round_significant(where)], [0.0], marker, color=line["color"], ms=ms)
    return drawn


def expected_gap_panels(
    theory_table: pd.DataFrame, crossings: pd.DataFrame, pairs: Sequence[Sequence[str]], discounts: Sequence[str]
) -> Figure:
    """E nDCG(first) - E nDCG(second) (finite-n theory) against n, a panel per pair and a line per discount, marking
    the crossings."""
    fig, axes = style.panel_grid(len(pairs), min(2, len(pairs)), size=(5.2, 3.6))
    handles = []
    for ax, (first, second) in zip(axes, pairs, strict=False):
        for c, d in enumerate(discounts):
            look = dict(ls=style.LINESTYLES[c % len(style.LINESTYLES)], marker=style.MARKERS[c % len(style.MARKERS)])
            line = _gap_line(ax, theory_table, crossings, (first, second), d, color=f"C{c}", lw=1.3, ms=6, **look)
            handles.append((line, d))
        ax.axhline(0, color="grey", lw=0.8, ls=":")
        ax.set(xscale="log", xlabel="n", title=f"{first} - {second}")
        ax.set_yscale("symlog", linthresh=0.01)
    style.label_rows(axes, min(2, len(pairs)), "E nDCG(first) - E nDCG(second)")
    handles.append((Line2D([], [], color="0.3", marker="o", ls="none"), "crossing (the order changes)"))
    style.legend_below(fig, handles, ncols=4)
    fig.suptitle(
        "Expected nDCG gap (finite-n theory, symmetric log scale, linear within ±0.01): above 0 the exact head wins"
    )
    return fig


def decision_grid(
    decision_tables: Mapping[str, pd.DataFrame],
    discounts: Sequence[str],
    value: str,
    crossings: pd.DataFrame | None = None,
) -> Figure:
    """Per model (row) and pair (column): ``value`` ``"p_first"`` (the head ranker wins; Wilson 95%) or ``"p_differs"``
    (the decision differs from log2's on the same data set) against n, a line per discount."""
    if value not in ("p_first", "p_differs"):
        raise ValueError(f"value must be 'p_first' or 'p_differs', got {value!r}")
    models = list(decision_tables)
    first = decision_tables[models[0]]
    pairs = list(dict.fromkeys(zip(first["first"], first["second"], strict=True)))
    # The expected crossings get a strip above the panels, a row per discount (lines inside them pile up).
    strip = crossings is not None and value == "p_first"
    fig = Figure(figsize=(5.0 * len(pairs), 3.2 * len(models) + 0.9 + (1.1 if strip else 0.0)), layout="constrained")
    ratios = [1.1] * strip + [3.2] * len(models)
    grid = fig.subplots(len(ratios), len(pairs), sharex=True, squeeze=False, gridspec_kw=dict(height_ratios=ratios))
    axes, strips = grid[int(strip) :], grid[0] if strip else []
    for ax in axes.flat[1:]:
        ax.sharey(axes.flat[0])
    shift = 10 ** (0.03 * (np.arange(len(discounts)) - (len(discounts) - 1) / 2))
    markers, handles = [style.MARKERS[c % len(style.MARKERS)] for c in range(len(discounts))], []
    for i, m in enumerate(models):
        for j, (first, second) in enumerate(pairs):
            ax = axes[i, j]
            for c, d in enumerate(discounts):
                rows = style.select(decision_tables[m], first=first, second=second, discount=d)
                if value == "p_differs" and d == rows["reference"].iloc[0]:
                    continue
                n = style.plotted_column(rows, "n") * shift[c]
                p, bars = style.centre_and_bars(rows, value, f"{value}_low", f"{value}_high")
                fmt = markers[c] + style.LINESTYLES[c % len(style.LINESTYLES)]
                handles.append((ax.errorbar(n, p, yerr=bars, fmt=fmt, ms=3.5, capsize=1.5, lw=1, color=f"C{c}"), d))
            if value == "p_first":
                ax.axhline(0.5, color="0.5", lw=0.8, ls="--")
            ax.set(xscale="log", ylim=(-0.03, 1.03))
            ax.label_outer()
    ylabel = "P(first ranker scores higher)" if value == "p_first" else "decision differs from log2"
    style.label_grid_edges(axes, [f"{a} vs {b}" for a, b in pairs], [f"{m}\n{ylabel}" for m in models])
    for ax, top, (first, second) in zip(strips, axes[0], pairs, strict=False):
        for c, d in enumerate(discounts):  # a marker at the n where the expected gap changes sign, "none" if never
            where = style.crossing_n(crossings, first, second, d)
            if np.isfinite(where):
                ax.plot([style.round_significant(where)], [c], markers[c], color=f"C{c}", ms=5)
            else:
                at_right = dict(transform=ax.get_yaxis_transform(), ha="right", va="center", fontsize=7)
                ax.text(0.99, c, "none", color=f"C{c}", **at_right)
        ax.set(ylim=(len(discounts) - 0.4, -0.6), yticks=[])
        ax.set_ylabel("expected\ncrossing", fontsize=8)
        ax.grid(axis="y", visible=False)
        ax.set_title(f"{first} vs {second}", fontsize=10)
        top.set_title("")
    style.legend_below(fig, handles, ncols=4)
    what = (
        "the exact head scores strictly higher" if value == "p_first" else "a discount picks another winner than log2"
    )
    fig.suptitle(f"Share of data sets on which {what} (Wilson 95%)", fontsize=11)
    return fig


#: The headline's model and pair: an exact head against a ranker imperfect everywhere.
HEADLINE_MODEL, HEADLINE_PAIR = "certain", ("head(m=10)", "noisy(sigma=1)")


def headline_figure(results: Path) -> Figure:
    """One column, two panels for :data:`HEADLINE_PAIR` in :data:`HEADLINE_MODEL`, per discount: (a) the expected nDCG
    gap against n, crossings marked; (b) the share of data sets on which the discount picks another winner than log2."""
    expected, crossings = (read_table(results / f"10_{name}.csv") for name in ("expected_ndcg", "crossings"))
    expected, crossings = (table[table["label"] == HEADLINE_MODEL] for table in (expected, crossings))
    decisions = read_table(results / f"10_decisions_{HEADLINE_MODEL}.csv")
    first, second = HEADLINE_PAIR
    discounts = list(dict.fromkeys(expected["discount"]))
    styles = style.column_discount_styles(discounts)
    with style.column_figure(11.5, 2, 1, sharex=True) as (fig, (top, bottom)):
        for d in discounts:
            _gap_line(top, expected, crossings, HEADLINE_PAIR, d, **(styles[d] | dict(ms=4)))
            rows = style.select(decisions, discount=d, first=first, second=second)
            if d != "log2":
                bottom.plot(style.plotted_column(rows, "n"), style.plotted_column(rows, "p_differs"), **styles[d])
        top.axhline(0, color="0.5", lw=0.7, ls=":")
        top.set_yscale("symlog", linthresh=0.01)
        top.set(ylabel="expected nDCG gap")
        top.set_title(f"(a) E nDCG: {first} minus {second}")
        bottom.set(xscale="log", ylim=(-0.02, 1.0), xlabel="list length n", ylabel="share of data sets")
        bottom.set_title("(b) the discount picks another winner than log2")
        handles = [Line2D([], [], **styles[d]) for d in discounts]
        fig.legend(handles, discounts, loc="outside lower center", ncols=2, frameon=False)
        return fig


def headline_caption(results: Path) -> str:
    """The headline's caption."""
    decisions = read_table(results / f"10_decisions_{HEADLINE_MODEL}.csv")
    first, second = HEADLINE_PAIR
    return (
        f"An exact head against a ranker imperfect everywhere ({first} and {second}, model "
        f"{decisions['model'].iloc[0]}), per discount: (a) the expected nDCG of the first minus the second against the "
        f"list length n (finite-n theory; symmetric log scale, linear within 0.01; markers: where the order changes); "
        f"(b) the share of {int(decisions['replicates'].min()):,} simulated data sets per n on which the discount "
        f"picks another winner than log2."
    )


HEADLINE = Headline.from_tables("10_headline", headline_figure, headline_caption)
