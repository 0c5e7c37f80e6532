"""Notebook 04 (distinguishability): its figures (conventions: :mod:`ndcg_research.pipeline.style`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from ...pipeline import style
from ...pipeline.headlines import Headline
from ...simulation.tables import read_table

#: A panel of :func:`pair_grid` (inches).
PANEL = (3.3, 2.7)


def pair_grid(
    pair_table: pd.DataFrame, discounts: Sequence[str], pairs: Sequence[Sequence[str]], value: str, title: str
) -> Figure:
    """One panel per discount, ``value`` against n for every pair: ``"p_better"`` (Wilson intervals, exact ties
    dashed) or ``"std_gap"`` (symmetric log scale keeping the sign; undefined values marked, not plotted)."""
    if value not in ("p_better", "std_gap"):
        raise ValueError(f"value must be 'p_better' or 'std_gap', got {value!r}")
    cols = style.reader_columns(len(discounts), PANEL[0])  # (four columns were shrunk to 0.67 on a page)
    fig, axes = style.panel_grid(len(discounts), cols, PANEL)
    handles = []
    for ax, d in zip(axes, discounts, strict=False):
        low_data = 0.0
        for i, (better, worse) in enumerate(pairs):
            rows = style.select(pair_table, discount=d, better=better, worse=worse)
            n = style.plotted_column(rows, "n")
            if value == "p_better":
                bar = style.interval_markers(ax, n, *(style.plotted_column(rows, c) for c in style.P_BETTER), i, "-")
                ties = style.plotted_column(rows, "p_tie")
                if np.any(ties > 0):
                    handles.append((ax.plot(n, ties, "--", color=f"C{i}", lw=1)[0], "share of exact ties (dashed)"))
            else:
                y = style.plotted_column(rows, value)
                bar = ax.plot(n, y, style.MARKERS[i % len(style.MARKERS)] + "-", ms=4, lw=1, color=f"C{i}")[0]
                if np.isfinite(y).any():
                    low_data = min(low_data, float(np.nanmin(y)))
                handles += [(mark, style.UNDEFINED_LABEL) for mark in style.mark_undefined(ax, n, y)]
            handles.append((bar, style.pair_label(better, worse)))
        ax.set(xscale="log", title=style.discount_title(d), xlabel="n")
        if value == "p_better":
            ax.set_ylim(-0.03, 1.03)
            ax.axhline(0.5, color="grey", lw=0.8, ls=":")
        else:
            # symlog keeps the sign (a negative gap: the worse ranker wins on average); below 0 only as much
            # room as the data need, so panels whose gaps are all positive do not waste half their height.
            ax.set_yscale("symlog", linthresh=0.1)
            ax.axhline(0, color="grey", lw=0.8, ls=":")
            if np.isfinite(style.select(pair_table, discount=d)[value].to_numpy(float)).any():
                ax.set_ylim(bottom=-0.05 if low_data >= 0 else 1.5 * low_data)
            else:
                ax.set_ylim(-1, 1)
                ax.text(0.5, 0.75, "undefined: every gap is 0", transform=ax.transAxes, ha="center", va="center")
    style.label_rows(axes, cols, "P(better strictly higher)" if value == "p_better" else "mean(gap) / sd(gap)")
    style.legend_below(fig, handles, ncols=2)
    style.wrapped_suptitle(fig, title)
    return fig


def gap_over_eps_grid(
    pair_tables: Mapping[str, pd.DataFrame],
    theory_tables: Mapping[str, pd.DataFrame],
    discounts: Sequence[str],
    pairs: Sequence[Sequence[str]],
    title: str,
) -> Figure:
    """Mean gap / eps_D(n) against n (a row per model, a column per slowly varying discount), with ``c_worse -
    c_better`` (dashed) and the finite-n theory (line)."""
    fig, axes, panels = style.model_panel_grid(list(pair_tables), discounts, size=(3.8, 2.9))
    handles = []
    for ax, label, d in panels:
        for i, (better, worse) in enumerate(pairs):
            rows = style.select(pair_tables[label], discount=d, better=better, worse=worse)
            gap = rows[["mean_gap", "gap_ci_low", "gap_ci_high"]].to_numpy() / rows[["eps"]].to_numpy()
            bar = style.interval_markers(ax, style.plotted_column(rows, "n"), *style.round_significant(gap.T), i)
            handles.append((bar, style.pair_label(better, worse)))
            th = theory_tables[label]
            tb, tw = style.select(th, discount=d, ranker=better), style.select(th, discount=d, ranker=worse)
            scaled_theory = (tb["finite_n"].to_numpy() - tw["finite_n"].to_numpy()) / tb["eps"].to_numpy()
            ax.plot(style.plotted_column(tb, "n"), style.round_significant(scaled_theory), "-", color=f"C{i}", lw=1)
            ax.axhline(style.round_significant(tw["c"].iloc[0] - tb["c"].iloc[0]), color=f"C{i}", ls="--", lw=1)
        ax.set_yscale("log", nonpositive="mask")
        ax.set(xscale="log", title=f"{label}: {d}", xlabel="n")
        style.log_ticks_1_2_5(ax)
    style.label_rows(axes, len(discounts), "mean gap / eps_D(n)")
    handles += style.theory_handles("--", "first order c_worse - c_better")
    style.legend_below(fig, handles, ncols=3)
    fig.suptitle(title)
    return fig


#: The headline's pair (close: the same best items, a little noise) and discounts (one or two of each class).
HEADLINE_PAIR = ("bayes", "noisy(sigma=0.5)")
HEADLINE_DISCOUNTS = ("power(beta=2)", "zipf", "power(beta=0.5)", "log2", "loglog")
HEADLINE_MODELS = {"certain": "certain top", "uncertain": "uncertain top"}


def headline_figure(results: Path) -> Figure:
    """One column, a panel per :data:`HEADLINE_MODELS` (``04_pairs_*.csv``): P(the better ranker of
    :data:`HEADLINE_PAIR` scores strictly higher) against n, per discount, with its Wilson 95% interval."""
    styles = style.column_discount_styles(HEADLINE_DISCOUNTS)
    # one y range for both panels, Matplotlib's, from every drawn interval (a fixed floor of 0.3 cut one off)
    with style.column_figure(9.6, 2, 1, sharex=True, sharey=True) as (fig, axes):
        for ax, (panel, (label, title)) in zip(axes, zip("ab", HEADLINE_MODELS.items(), strict=True), strict=True):
            table = read_table(results / f"04_pairs_{label}.csv")
            for discount in HEADLINE_DISCOUNTS:
                rows = style.select(table, discount=discount, better=HEADLINE_PAIR[0], worse=HEADLINE_PAIR[1])
                n, (p, bars) = style.plotted_column(rows, "n"), style.centre_and_bars(rows, *style.P_BETTER)
                ax.errorbar(n, p, yerr=bars, capsize=0, elinewidth=0.7, label=discount, **styles[discount])
            ax.axhline(0.5, color="0.5", lw=0.7, ls=":")
            ax.set(ylabel="P(better scores higher)", xscale="log")
            ax.set_title(f"({panel}) {title}, model {table['model'].iloc[0]}")
            style.decade_x_ticks(ax, n)
        return style.column_legend(fig, axes, 3)


def headline_caption(results: Path) -> str:
    """The headline's caption."""
    table = read_table(results / f"04_pairs_{next(iter(HEADLINE_MODELS))}.csv")
    return (
        f"Probability that {style.pair_label(*HEADLINE_PAIR)} scores strictly higher on a fresh data set, against the "
        f"list length n (up to {style.n_text(table['n'].max())}), per discount, with a certain (a) and an uncertain "
        f"(b) top; Wilson 95% intervals; dotted: a coin flip."
    )


HEADLINE = Headline.from_tables("04_headline", headline_figure, headline_caption)
