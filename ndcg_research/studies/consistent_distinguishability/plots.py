"""Notebook 09 (consistent distinguishability): its figures (conventions: :mod:`ndcg_research.pipeline.style`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.lines import Line2D

from ...pipeline.style import (
    LINESTYLES,
    decade_ticks,
    interval_markers,
    label_rows,
    legend_below,
    model_panel_grid,
    pair_label,
    plotted_column,
    select,
)


def failure_rate_grid(
    failure_tables: Mapping[str, pd.DataFrame], discounts: Sequence[str], pairs: Sequence[Sequence[str]]
) -> Figure:
    """1 - P(better strictly higher) against n, log-log: measured (markers, Wilson 95%) and Phi(-d) (lines).

    One row of panels per model, one column per discount. A measured failure share of 0 is drawn
    as its Wilson upper bound (a downward triangle), since 0 has no place on a log axis.
    """
    fig, axes, panels = model_panel_grid(list(failure_tables), discounts, size=(3.3, 2.8))
    handles = []
    for ax, label, d in panels:
        for i, (better, worse) in enumerate(pairs):
            rows = select(failure_tables[label], discount=d, better=better, worse=worse)
            n, p = plotted_column(rows, "n"), plotted_column(rows, "p_fail")
            low, high = plotted_column(rows, "p_fail_low"), plotted_column(rows, "p_fail_high")
            seen = p > 0
            bar = interval_markers(ax, n[seen], p[seen], low[seen], high[seen], i)
            handles.append((bar, pair_label(better, worse)))
            if (~seen).any():
                bound = ax.plot(n[~seen], high[~seen], "v", ms=5, mfc="none", color=f"C{i}")[0]
                handles.append((bound, "none failed: Wilson upper bound"))
            normal = plotted_column(rows, "p_fail_normal")
            ax.plot(n, np.where(normal > 0, normal, np.nan), "-", color=f"C{i}", lw=1)
        # One range for every panel (10^-6 to 1), labelled at the decades: panels compare at a glance, and a
        # short range no longer gets a label on every minor tick.
        ax.set(xscale="log", yscale="log", title=f"{label}: {d}", xlabel="n", ylim=(1e-6, 1.5))
        decade_ticks(ax)
    label_rows(axes, len(discounts), "1 - P(better strictly higher)")
    handles.append((Line2D([], [], color="0.3", lw=1), "normal approximation Phi(-mean/sd)"))
    legend_below(fig, handles, ncols=4)
    fig.suptitle("Failure probability against n (log-log): measured (markers, Wilson 95%) and Phi(-standardized gap)")
    return fig


def stream_stability_grid(
    stability_tables: Mapping[str, pd.DataFrame], discounts: Sequence[str], pairs: Sequence[Sequence[str]]
) -> Figure:
    """Share of streams on which the better ranker wins at every grid n from n0 on, against n0 (Wilson 95% band)."""
    fig, axes, panels = model_panel_grid(list(stability_tables), discounts, size=(3.3, 2.8))
    handles = []
    for ax, label, d in panels:
        for i, (better, worse) in enumerate(pairs):
            rows = select(stability_tables[label], discount=d, better=better, worse=worse).sort_values("n0")
            n0 = plotted_column(rows, "n0")
            line = ax.plot(
                n0, plotted_column(rows, "p_settled"), LINESTYLES[i % len(LINESTYLES)], color=f"C{i}", lw=1.2
            )[0]
            ax.fill_between(
                n0,
                plotted_column(rows, "p_settled_low"),
                plotted_column(rows, "p_settled_high"),
                color=f"C{i}",
                alpha=0.2,
                lw=0,
            )
            handles.append((line, pair_label(better, worse)))
        ax.set(xscale="log", ylim=(-0.03, 1.03), title=f"{label}: {d}", xlabel="n0")
    label_rows(axes, len(discounts), "share settled from n0")
    legend_below(fig, handles)
    fig.suptitle(
        "Growing samples: share of streams on which the better ranker wins at every n >= n0 "
        "(up to the stream's end; Wilson 95%)"
    )
    return fig
