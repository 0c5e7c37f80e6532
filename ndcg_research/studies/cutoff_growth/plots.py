"""Notebook 13 (cut-off growth): its figures (conventions: :mod:`ndcg_research.pipeline.style`)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.lines import Line2D

from ...pipeline import style
from ...pipeline.headlines import Headline
from ...pipeline.tables import NOT_RESOLVED
from ...simulation import scaling
from ...simulation.model import parse_model
from ...simulation.tables import read_table

#: The columns of a fitted exponent with its interval (``13_trends.csv``).
EXPONENT_COLUMNS = ("exponent", "exponent_low", "exponent_high")


def _draw_law(ax: Axes, cell: tuple[str, str, str, str], p: int, **kw: Any) -> Line2D:
    """The law's exponent (linear in a: two points) against a for ``cell`` = (model, better, worse, discount)."""
    grid = np.array([0.0, 1.0])
    law = style.round_significant([scaling.gap_exponent(*cell, float(a)).exponent for a in grid])
    return ax.plot(grid, law, style.LINESTYLES[p % len(style.LINESTYLES)], color=f"C{p}", **kw)[0]


def cutoff_exponent_grid(trend: pd.DataFrame, discounts: Sequence[str]) -> Figure:
    """Per model (row) and discount (column): the fitted exponent of the standardized gap of nDCG@n^a against a (95%
    intervals; fixed k: a = 0) and the law's (lines), a colour per pair; intervals wider than ±1 run off."""
    models = list(dict.fromkeys(trend["model"]))
    pairs = list(dict.fromkeys(zip(trend["better"], trend["worse"], strict=False)))
    fig, axes, cells = style.cell_grid(models, discounts, (2.5, 2.6), pad=1.2, sharex=True, sharey=True)
    handles = []
    for ax, (model, d) in cells:
        for p, (better, worse) in enumerate(pairs):
            rows = style.select(trend, model=model, discount=d, better=better, worse=worse).sort_values("a")
            a = rows["a"].to_numpy(dtype=np.float64) + 0.012 * (p - (len(pairs) - 1) / 2)
            bar = style.pair_intervals(ax, a, rows, EXPONENT_COLUMNS, p, ms=4, capsize=2, lw=1)
            line = _draw_law(ax, (model, better, worse, d), p, lw=1)
            name = style.short_pair_label(better, worse)
            handles += [(bar, f"{name}: fitted (95%)"), (line, f"{name}: law")]
        ax.axhline(0, color="0.3", lw=0.8)
    style.label_grid_edges(axes, discounts, [f"{model}\nexponent of d" for model in models])
    for ax in axes[-1]:
        ax.set_xlabel("a (k = n^a; 0: fixed k)")
    axes[0, 0].set_ylim(-style.EXPONENT_RANGE, style.EXPONENT_RANGE)  # shared: wide intervals run off the panels
    style.legend_below(fig, handles, ncols=2)
    title = "nDCG@n^a: growth exponent of the standardized gap against a\n(above 0 the gap grows with n)"
    fig.suptitle(title, fontsize=11)
    return fig


def cutoff_gap_grid(pair_table: pd.DataFrame, discounts: Sequence[str], better: str, worse: str) -> Figure:
    """Per model (row) and discount (column): the standardized gap of one pair against n, one line per cut-off rule."""
    models = list(dict.fromkeys(pair_table["model"]))
    rules = list(dict.fromkeys(pair_table["rule"]))
    fig, axes, cells = style.cell_grid(models, discounts, (2.5, 2.6), pad=1.1, sharex=True)
    colors = style.decay_colors(rules)
    handles = []
    for ax, (model, d) in cells:
        for rule in rules:
            rows = style.select(pair_table, model=model, rule=rule, discount=d, better=better, worse=worse)
            handles.append((style.draw_standardized_gap(ax, rows, colors[rule]), rule))
        ax.set_xscale("log")
        ax.set_yscale("symlog", linthresh=0.1)
        ax.axhline(0, color="0.3", lw=0.8)
    style.label_grid_edges(axes, discounts, [f"{model}\nstandardized gap d" for model in models])
    style.legend_below(fig, handles, ncols=4)
    title = f"{style.pair_label(better, worse)}: standardized gap of nDCG@k\nagainst n per cut-off rule (95% bands)"
    fig.suptitle(title, fontsize=11)
    return fig


#: The headline's discount.
HEADLINE_DISCOUNT = "log2"


def headline_figure(results: Path) -> Figure:
    """One column, a panel per model (``13_trends.csv``): under :data:`HEADLINE_DISCOUNT`, the fitted growth exponent
    of d for k = n^a against a, per pair, beside the law (lines); unresolved fits are not drawn, but counted."""
    from .experiment import fitted_texts

    trend = read_table(results / "13_trends.csv")
    resolved = fitted_texts(trend, read_table(results / "13_cutoff_pairs.csv")) != NOT_RESOLVED
    trend = trend[trend["discount"] == HEADLINE_DISCOUNT].assign(resolved=resolved)
    models = list(dict.fromkeys(trend["model"]))
    pairs = list(dict.fromkeys(zip(trend["better"], trend["worse"], strict=True)))
    with style.column_figure(10.0, len(models), 1, sharex=True, sharey=True) as (fig, axes):
        for ax, panel, model in zip(axes, "abcd", models, strict=False):
            hidden = 0
            for p, (better, worse) in enumerate(pairs):
                rows = style.select(trend, model=model, better=better, worse=worse).sort_values("a")
                hidden += int((~rows["resolved"]).sum())
                rows = rows[rows["resolved"]]
                a = rows["a"].to_numpy(dtype=np.float64) + 0.015 * (p - (len(pairs) - 1) / 2)
                name = style.short_pair_label(better, worse)
                style.pair_intervals(
                    ax, a, rows, EXPONENT_COLUMNS, p, ms=3.5, lw=0.9, capsize=0, label=f"{name}: fitted"
                )
                _draw_law(ax, (model, better, worse, HEADLINE_DISCOUNT), p, lw=0.9, label=f"{name}: law")
            ax.axhline(0, color="0.3", lw=0.7)
            not_drawn = f" ({hidden} fits not resolved, not drawn)" if hidden else ""
            ax.set_title(f"({panel}) {parse_model(model).top_label}{not_drawn}")
            ax.set_ylabel("exponent e of d ~ n^e")
        axes[-1].set_xlim(-0.05, 1.0)
        return style.column_legend(fig, axes, 2, "a, the cut-off's exponent (k = n^a; 0: fixed k)")


def headline_caption(results: Path) -> str:
    """The headline's caption."""
    trend = read_table(results / "13_trends.csv")
    return (
        f"nDCG@k with k = n^a under {HEADLINE_DISCOUNT}: the growth exponent of the standardized gap d, fitted over "
        f"n = {style.n_text(trend['n_from'].min())} to {style.n_text(trend['n_to'].max())} (95% intervals), against a, "
        f"per pair, beside this package's scaling law (lines), per model ({', '.join(dict.fromkeys(trend['model']))}); "
        f"above 0 the gap grows with n. Fits whose gaps are indistinguishable from 0 or whose interval is unbounded "
        f"are not drawn."
    )


HEADLINE = Headline.from_tables("13_headline", headline_figure, headline_caption)
