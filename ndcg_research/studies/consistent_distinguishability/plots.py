"""Notebook 09 (consistent distinguishability): its figures (conventions: :mod:`ndcg_research.pipeline.style`)."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.lines import Line2D

from ...pipeline import style
from ...pipeline.headlines import Headline
from ...simulation.tables import read_table

#: The plotted columns of the failure share against n and of the settled share against n0, with their intervals.
FAILED, SETTLED = ("n", "p_fail", "p_fail_low", "p_fail_high"), ("n0", "p_settled", "p_settled_low", "p_settled_high")
#: A panel of the appendix grids (inches): two models side by side are 6.8 inches, shown unshrunk.
PANEL = (3.4, 2.4)


#: A panel's log range reaches this factor beyond its outermost values (a marker at the edge is drawn whole).
LOG_MARGIN = 10**0.1


def _fit_log_range(ax: Axes, measured: np.ndarray, drawn: np.ndarray) -> None:
    """A log y range from the positive ``measured`` values (shares and interval ends), up to the largest ``drawn``
    value too, with :data:`LOG_MARGIN`, at least one decade tall (a flat series looks flat), labelled at decades or,
    on a range of under two decades, at 1, 2 and 5 times them. Each panel's range follows its own data: a fixed
    10^-6 to 1 squashed shares of 0.1 to 0.5 into a sixth of the panel; a line below every measured value (the
    normal approximation, far below what a sample can show) leaves the panel at its foot."""
    values = measured[np.isfinite(measured) & (measured > 0)]
    if not values.size:
        return
    top = max(values.max(), np.nanmax(drawn, initial=0.0)) * LOG_MARGIN
    bottom = min(values.min() / LOG_MARGIN, top / 10)
    ax.set_ylim(bottom, top)
    (style.decade_ticks if math.log10(top / bottom) >= 2 else style.log_ticks_1_2_5)(ax)


def failure_rate_grid(
    failure_tables: Mapping[str, pd.DataFrame], discounts: Sequence[str], pairs: Sequence[Sequence[str]]
) -> Figure:
    """1 - P(better strictly higher) against n, log-log: measured (Wilson 95%; a share of 0 at its upper bound, a
    downward triangle) and Phi(-d) (lines); a row per discount, a column per model (two columns fit the width of a
    page: :data:`~ndcg_research.pipeline.style.READER_WIDTH_IN`), each panel's range from its data
    (:func:`_fit_log_range`)."""
    models = list(failure_tables)
    fig, axes, cells = style.cell_grid(discounts, models, PANEL)
    handles = []
    for ax, (d, label) in cells:
        measured, drawn = [], []
        for i, (better, worse) in enumerate(pairs):
            rows = style.select(failure_tables[label], discount=d, better=better, worse=worse)
            n, p, low, high = (style.plotted_column(rows, c) for c in FAILED)
            seen = p > 0
            bar = style.interval_markers(ax, n[seen], p[seen], low[seen], high[seen], i)
            handles.append((bar, style.pair_label(better, worse)))
            if (~seen).any():
                bound = ax.plot(n[~seen], high[~seen], "v", ms=5, mfc="none", color=f"C{i}")[0]
                handles.append((bound, "none failed: Wilson upper bound"))
            normal = style.plotted_column(rows, "p_fail_normal")
            ax.plot(n, np.where(normal > 0, normal, np.nan), "-", color=f"C{i}", lw=1)
            measured += [p[seen], low[seen], high[seen], high[~seen]]
            drawn.append(normal)
        ax.set(xscale="log", yscale="log", title=f"{label}: {d}", xlabel="n")
        _fit_log_range(ax, np.concatenate(measured), np.concatenate(drawn))
    style.label_rows(axes.ravel(), len(models), "1 - P(better strictly higher)")
    handles.append((Line2D([], [], color="0.3", lw=1), "normal approximation Phi(-mean/sd)"))
    style.legend_below(fig, handles, ncols=2)
    style.wrapped_suptitle(
        fig,
        "Failure probability against n (log-log): measured (markers, Wilson 95%) and Phi(-standardized gap) (lines; "
        "below the measured range, off the panel)",
    )
    return fig


def stream_stability_grid(
    stability_tables: Mapping[str, pd.DataFrame], discounts: Sequence[str], pairs: Sequence[Sequence[str]]
) -> Figure:
    """Share of streams on which the better ranker wins at every grid n from n0 on, against n0 (Wilson 95% band); a
    row per discount, a column per model, as :func:`failure_rate_grid`."""
    models = list(stability_tables)
    fig, axes, cells = style.cell_grid(discounts, models, PANEL)
    handles = []
    for ax, (d, label) in cells:
        for i, (better, worse) in enumerate(pairs):
            rows = style.select(stability_tables[label], discount=d, better=better, worse=worse).sort_values("n0")
            settled = (style.plotted_column(rows, c) for c in SETTLED)
            look = dict(ls=style.LINESTYLES[i % len(style.LINESTYLES)], color=f"C{i}", lw=1.2)
            handles.append((style.band_line(ax, *settled, 0.2, **look), style.pair_label(better, worse)))
        # a share's whole range, 0 to 1: every band is inside it
        ax.set(xscale="log", ylim=(-0.03, 1.03), title=f"{label}: {d}", xlabel="n0")
    style.label_rows(axes.ravel(), len(models), "share settled from n0")
    style.legend_below(fig, handles, ncols=2)
    style.wrapped_suptitle(
        fig,
        "Growing samples: share of streams on which the better ranker wins at every n >= n0 "
        "(up to the stream's end; Wilson 95%)",
    )
    return fig


#: The headline's model (an uncertain top: the slowest failures) and pair.
HEADLINE_MODEL, HEADLINE_PAIR = "uncertain", ("bayes", "noisy(sigma=0.5)")


def headline_figure(results: Path) -> Figure:
    """One column, per discount for :data:`HEADLINE_PAIR` in :data:`HEADLINE_MODEL`: (a) the failure probability
    against n, log-log; (b) the share of streams on which the better ranker wins at every n from n0 on (Wilson 95%)."""
    failures = read_table(results / f"09_failure_{HEADLINE_MODEL}.csv")
    streams = read_table(results / f"09_stream_stability_{HEADLINE_MODEL}.csv")
    better, worse = HEADLINE_PAIR
    discounts = list(dict.fromkeys(failures["discount"]))
    styles = style.column_discount_styles(discounts)
    with style.column_figure(11.0, 2, 1) as (fig, (top, bottom)):
        for d in discounts:
            look = styles[d]
            rows = style.select(failures, discount=d, better=better, worse=worse)
            n, p, low, high = (style.plotted_column(rows, c) for c in FAILED)
            seen = p > 0
            yerr = style.error_bar_lengths(p, low, high)[:, seen]
            top.errorbar(n[seen], p[seen], yerr=yerr, capsize=0, elinewidth=0.7, label=d, **look)
            top.plot(n[~seen], high[~seen], "v", mfc="white", mec=look["color"], ms=3.5, ls="none")
            rows = style.select(streams, discount=d, better=better, worse=worse).sort_values("n0")
            settled = (style.plotted_column(rows, c) for c in SETTLED)
            style.band_line(bottom, *settled, 0.15, color=look["color"], ls=look["ls"], lw=look["lw"])
        top.set(xscale="log", yscale="log", xlabel="list length n", ylabel="failure probability")
        style.decade_ticks(top)
        top.set_title("(a) reading (a): fresh data set at each n")
        bottom.set(xscale="log", ylim=(-0.03, 1.03), ylabel="share settled from n0")
        bottom.set_title("(b) reading (b): one growing sample")
        return style.column_legend(fig, (top, bottom), 3, "n0 (items of the growing sample)")


def headline_caption(results: Path) -> str:
    """The headline's caption."""
    failures = read_table(results / f"09_failure_{HEADLINE_MODEL}.csv")
    streams = read_table(results / f"09_stream_stability_{HEADLINE_MODEL}.csv")
    return (
        f"{style.pair_label(*HEADLINE_PAIR)}, model {failures['model'].iloc[0]} (an uncertain top), per discount: (a) "
        f"the probability that the worse ranker scores at least as high on a fresh data set of n items "
        f"({int(failures['replicates'].min()):,} data sets per n; Wilson 95%; open triangles: none failed, the upper "
        f"bound); (b) the share of {int(streams['streams'].iloc[0])} growing samples on which the better ranker wins "
        f"at every n from n0 on (Wilson 95% band)."
    )


HEADLINE = Headline.from_tables("09_headline", headline_figure, headline_caption)
