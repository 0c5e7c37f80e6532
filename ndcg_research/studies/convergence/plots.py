"""Notebook 03 (convergence): its figures (conventions: :mod:`ndcg_research.pipeline.style`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

import pandas as pd
from matplotlib.figure import Figure

from ...core import parse_discount
from ...pipeline import style
from ...pipeline.headlines import Headline
from ...simulation.tables import read_table


def convergence_grid(
    ranker_table: pd.DataFrame, theory_table: pd.DataFrame, discounts: Sequence[str], rankers: Sequence[str], title: str
) -> Figure:
    """Mean nDCG vs n with 95% intervals, one panel per discount; theory: finite-n (line), limit (dotted)."""
    cols = min(4, len(discounts))
    fig, axes = style.panel_grid(len(discounts), cols)
    handles = []
    for ax, d in zip(axes, discounts, strict=False):
        for i, r in enumerate(rankers):
            rows = style.select(ranker_table, discount=d, ranker=r)
            n, mean, low, high = (style.plotted_column(rows, c) for c in ("n", "mean", "ci_low", "ci_high"))
            handles.append((style.interval_markers(ax, n, mean, low, high, i), r))
            th = style.select(theory_table, discount=d, ranker=r)
            if len(th):
                theory_line = (style.plotted_column(th, c) for c in ("n", "finite_n"))
                ax.plot(*theory_line, "-", color=f"C{i}", lw=1, alpha=0.8)
                ax.axhline(style.round_significant(th["limit"].iloc[0]), color=f"C{i}", ls=":", lw=1)
        ax.set(xscale="log", title=style.discount_title(d), xlabel="n")
        if parse_discount(d).decay == "constant":  # exactly 1: keep the axis from zooming into rounding
            ax.set_ylim(0.9, 1.05)
    style.label_rows(axes, cols, "mean nDCG")
    handles += style.theory_handles(":", "limit")
    style.legend_below(fig, handles, ncols=len(rankers) + 2)
    fig.suptitle(f"{title}: markers simulation (95% CI), lines finite-n theory, dotted the limit")
    return fig


def slow_convergence_grid(
    ranker_tables: Mapping[str, pd.DataFrame],
    theory_tables: Mapping[str, pd.DataFrame],
    discounts: Sequence[str],
    rankers: Sequence[str],
) -> Figure:
    """1 - mean nDCG vs n (log-log, 95% CI) under slowly varying discounts; finite-n theory, eps_D(n) c_f (dashed)."""
    fig, axes, panels = style.model_panel_grid(list(ranker_tables), discounts, size=(3.6, 2.9))
    handles = []
    for ax, label, d in panels:
        for i, r in enumerate(rankers):
            rows = style.select(ranker_tables[label], discount=d, ranker=r)
            gap, low, high = (1 - style.plotted_column(rows, c) for c in ("mean", "ci_high", "ci_low"))
            handles.append((style.interval_markers(ax, style.plotted_column(rows, "n"), gap, low, high, i), r))
            th = style.select(theory_tables[label], discount=d, ranker=r)
            tn = style.plotted_column(th, "n")
            ax.plot(tn, style.round_significant(1 - th["finite_n"].to_numpy()), "-", color=f"C{i}", lw=1)
            ax.plot(tn, style.round_significant(th["eps"].to_numpy() * th["c"].to_numpy()), "--", color=f"C{i}", lw=1)
        ax.set(xscale="log", yscale="log", title=f"{label}: {d}", xlabel="n")
        style.log_ticks_1_2_5(ax)
    style.label_rows(axes, len(discounts), "1 - mean nDCG")
    handles += style.theory_handles("--", "first order eps_D(n) c_f")
    style.legend_below(fig, handles, ncols=4)
    fig.suptitle("Slowly varying discounts: 1 - nDCG (markers, 95% CI), finite-n theory (line), eps_D(n) c_f (dashed)")
    return fig


#: The headline's model and discounts: a slowly varying discount and a regularly varying one.
HEADLINE_MODEL, HEADLINE_DISCOUNTS = "certain", ("log2", "power(beta=0.5)")


def headline_figure(results: Path) -> Figure:
    """One column, two panels (``log2``, ``power(beta=0.5)``; the certain model of the run's ``03_ndcg_*.csv``): each
    ranker's mean nDCG against n (markers, 95% interval), the finite-n theory (line) and the limit (dotted)."""
    means = read_table(results / f"03_ndcg_{HEADLINE_MODEL}.csv")
    theory = read_table(results / f"03_theory_{HEADLINE_MODEL}.csv")
    rankers = list(dict.fromkeys(means["ranker"]))
    with style.column_figure(7.0, 1, 2, sharey=True) as (fig, axes):
        for ax, (panel, discount) in zip(axes, zip("ab", HEADLINE_DISCOUNTS, strict=True), strict=True):
            for i, ranker in enumerate(rankers):
                rows = style.select(means, discount=discount, ranker=ranker)
                n, (mean, bars) = style.plotted_column(rows, "n"), style.centre_and_bars(rows)
                fmt = style.MARKERS[i]
                ax.errorbar(n, mean, yerr=bars, fmt=fmt, color=f"C{i}", ms=3, lw=0.8, capsize=0, label=ranker)
                th = style.select(theory, discount=discount, ranker=ranker)
                ax.plot(style.plotted_column(th, "n"), style.plotted_column(th, "finite_n"), "-", color=f"C{i}", lw=0.9)
                ax.axhline(style.round_significant(th["limit"].iloc[0]), color=f"C{i}", ls=":", lw=0.8)
            ax.set(xscale="log", xlabel="list length n", title=f"({panel}) {discount}")
            style.decade_x_ticks(ax, n)
        axes[0].set_ylabel("mean nDCG")
        return style.column_legend(fig, axes, 3, xlabel=None)


def headline_caption(results: Path) -> str:
    """The headline's caption."""
    means = read_table(results / f"03_ndcg_{HEADLINE_MODEL}.csv")
    return (
        f"Mean nDCG of each ranker against the list length n (up to {style.n_text(means['n'].max())}, {HEADLINE_MODEL} "
        f"model {means['model'].iloc[0]}) under {' and '.join(HEADLINE_DISCOUNTS)}: simulation (markers, 95% "
        f"intervals), finite-n theory (lines) and each ranker's limit (dotted)."
    )


HEADLINE = Headline.from_tables("03_headline", headline_figure, headline_caption)
