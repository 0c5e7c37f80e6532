"""Notebook 09 (consistent distinguishability): its figures (conventions: :mod:`ndcg_research.pipeline.style`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.lines import Line2D

from ...pipeline import style
from ...pipeline.headlines import Headline
from ...simulation.tables import read_table

#: The plotted columns of the failure share against n and of the settled share against n0, with their intervals.
FAILED, SETTLED = ("n", "p_fail", "p_fail_low", "p_fail_high"), ("n0", "p_settled", "p_settled_low", "p_settled_high")


def failure_rate_grid(
    failure_tables: Mapping[str, pd.DataFrame], discounts: Sequence[str], pairs: Sequence[Sequence[str]]
) -> Figure:
    """1 - P(better strictly higher) against n, log-log: measured (Wilson 95%; a share of 0 at its upper bound, a
    downward triangle) and Phi(-d) (lines); a row per model, a column per discount."""
    fig, axes, panels = style.model_panel_grid(list(failure_tables), discounts, size=(3.3, 2.8))
    handles = []
    for ax, label, d in panels:
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
        # One range for every panel (10^-6 to 1), labelled at the decades: panels compare at a glance.
        ax.set(xscale="log", yscale="log", title=f"{label}: {d}", xlabel="n", ylim=(1e-6, 1.5))
        style.decade_ticks(ax)
    style.label_rows(axes, len(discounts), "1 - P(better strictly higher)")
    handles.append((Line2D([], [], color="0.3", lw=1), "normal approximation Phi(-mean/sd)"))
    style.legend_below(fig, handles, ncols=4)
    fig.suptitle("Failure probability against n (log-log): measured (markers, Wilson 95%) and Phi(-standardized gap)")
    return fig


def stream_stability_grid(
    stability_tables: Mapping[str, pd.DataFrame], discounts: Sequence[str], pairs: Sequence[Sequence[str]]
) -> Figure:
    """Share of streams on which the better ranker wins at every grid n from n0 on, against n0 (Wilson 95% band)."""
    fig, axes, panels = style.model_panel_grid(list(stability_tables), discounts, size=(3.3, 2.8))
    handles = []
    for ax, label, d in panels:
        for i, (better, worse) in enumerate(pairs):
            rows = style.select(stability_tables[label], discount=d, better=better, worse=worse).sort_values("n0")
            settled = (style.plotted_column(rows, c) for c in SETTLED)
            look = dict(ls=style.LINESTYLES[i % len(style.LINESTYLES)], color=f"C{i}", lw=1.2)
            handles.append((style.band_line(ax, *settled, 0.2, **look), style.pair_label(better, worse)))
        ax.set(xscale="log", ylim=(-0.03, 1.03), title=f"{label}: {d}", xlabel="n0")
    style.label_rows(axes, len(discounts), "share settled from n0")
    style.legend_below(fig, handles)
    fig.suptitle(
        "Growing samples: share of streams on which the better ranker wins at every n >= n0 "
        "(up to the stream's end; Wilson 95%)"
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
