"""Notebook 08 (MovieLens): its figures (conventions: :mod:`ndcg_research.pipeline.style`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from ...pipeline import style
from ...pipeline.headlines import Headline
from ...pipeline.style import centre_and_bars, column_discount_styles, column_figure, plotted_column, round_significant
from ...simulation.tables import read_table

#: The size (inches) of a panel in a row of two: both fit the width a page shows a figure at, unshrunk (at 5.5 to 6.2
#: inches each the rows were shrunk to about 0.7, their 7-point legends to 6.8 px).
PAIR_PANEL = (style.reader_panel_width(2), 3.8)


def _legend_below(fig: Figure, ax: Axes, ncols: int) -> None:
    """``ax``'s legend entries below the panels (inside a panel as wide as the page allows it hid lines and bars)."""
    style.legend_below(fig, list(zip(*ax.get_legend_handles_labels(), strict=True)), ncols=ncols)


def ranker_means_panels(
    table: pd.DataFrame, systems: Sequence[str], gains: Sequence[str], cutoffs: Sequence[str]
) -> Figure:
    """Mean nDCG of each system with its 95% interval, per gain (colour), one panel per cut-off ("all": whole list)."""
    width = min(6.2, style.reader_panel_width(len(cutoffs)))  # side by side, as wide as the page shows
    fig, axes, cells = style.cell_grid([None], cutoffs, (width, 3.6), pad=0.0)
    for ax, (_, cutoff) in cells:
        for c, gain in enumerate(gains):
            t = table[(table.gain == gain) & (table.cutoff.astype(str) == cutoff)]
            mean, bars = centre_and_bars(t.set_index("system").loc[list(systems)])
            y = np.arange(len(systems)) + (c - 1) * 0.22
            ax.errorbar(mean, y, xerr=bars, fmt="o", ms=4, color=f"C{c}", label=gain, capsize=2)
        ax.set_yticks(np.arange(len(systems)), systems)
        ax.invert_yaxis()
        ax.set_xlabel("mean nDCG" + ("" if cutoff == "all" else f"@{cutoff}") + " (95% t interval)")
        ax.set_title("whole list" if cutoff == "all" else f"cut-off {cutoff}")
    axes[0, 0].legend(fontsize=8, loc="center left", title="gain")
    return fig


def list_length_panels(
    means: pd.DataFrame, info: pd.DataFrame, systems: Sequence[str], discounts: Sequence[str], gain: str
) -> Figure:
    """Mean nDCG of each system (95% band) against the mean length of the sampled candidate lists, one panel per
    discount; shaded: the lengths at which every user's share of test items is kept; the legend in the first empty
    cell (else in the first panel)."""
    width = style.reader_panel_width(3)  # three columns fit the page (four, 12.8 inches, were shrunk to 0.7)
    cols = style.reader_columns(len(discounts), width)
    rows = -(-len(discounts) // cols)
    fig, axes, _ = style.cell_grid(range(rows), range(cols), (width, 2.9), pad=0.0, sharex=True)
    x = info["mean_length"].to_numpy(dtype=float)
    kept = info.loc[info.users_with_share_kept >= 0.999, "mean_length"]
    for ax, d in zip(axes.flat, discounts, strict=False):
        for c, s in enumerate(systems):
            t = means[(means.gain == gain) & (means.discount == d) & (means.system == s)]
            band = (plotted_column(t, k) for k in ("mean", "ci_low", "ci_high"))
            style.band_line(ax, x, *band, 0.2, color=f"C{c}", marker="o", ms=3, label=s)
        if len(kept):
            ax.axvspan(kept.min(), x.max(), color="0.9", zorder=0)
        ax.set(xscale="log", title=d)
    for i, ax in enumerate(axes.flat[: len(discounts)]):
        if i + cols >= len(discounts):  # no panel below (an empty cell or the last row): n labelled here
            ax.tick_params(axis="x", labelbottom=True)
            ax.set_xlabel("list length n")
    for ax in axes.flat[len(discounts) :]:
        ax.axis("off")
    style.label_rows(axes.flat, cols, "mean nDCG (95% interval)")
    handles = axes.flat[0].get_legend_handles_labels()
    if len(discounts) < axes.size:
        axes.flat[len(discounts)].legend(*handles, fontsize=8, loc="center", frameon=False)
    else:
        axes.flat[0].legend(*handles, fontsize=8, loc="upper right")
    return fig


def list_length_distinguishability_panels(
    pairs: pd.DataFrame,
    info: pd.DataFrame,
    significant: Mapping,
    labels: Sequence[str],
    discounts: Sequence[str],
    gain: str,
    n_pairs: int,
) -> Figure:
    """Pairs of systems told apart (left) and their median standardized paired gap ``|d_z|`` (right) against the list
    length, one line per discount. ``significant[(list_length, discount)]`` counts the significant pairs."""
    fig, (axes,), _ = style.cell_grid([None], range(2), PAIR_PANEL, pad=0.5)
    x = info["mean_length"].to_numpy(dtype=float)
    for c, d in enumerate(discounts):
        t = pairs[(pairs.gain == gain) & (pairs.discount == d)]
        axes[0].plot(x, [significant[(n, d)] for n in labels], marker="o", ms=3, color=f"C{c}", label=d)
        median_effect = [t[t.list_length == n].effect_size.abs().median() for n in labels]
        axes[1].plot(x, round_significant(median_effect), marker="o", ms=3, color=f"C{c}", label=d)
    left = dict(ylabel=f"significant pairs (of {n_pairs})", title="paired t test, Holm, 5%")
    axes[0].set(xscale="log", xlabel="list length n", **left)
    axes[1].set(xscale="log", xlabel="list length n", ylabel="median |d_z| over pairs", title="standardized paired gap")
    _legend_below(fig, axes[0], ncols=4)
    return fig


def query_set_panels(
    power: pd.DataFrame, swaps: pd.DataFrame, discounts: Sequence[str], gain: str, n_pairs: int
) -> Figure:
    """Discriminative power (left) and swap rate (right) of each discount against the number of users."""
    fig, (axes,), _ = style.cell_grid([None], range(2), PAIR_PANEL, pad=0.5)
    for c, d in enumerate(discounts):
        line = dict(marker="o", ms=3, color=f"C{c}", label=d)
        t = power[(power.gain == gain) & (power.discount == d)]
        axes[0].plot(plotted_column(t, "users"), plotted_column(t, "power"), **line)
        s = swaps[(swaps.gain == gain) & (swaps.discount == d)]
        axes[1].plot(plotted_column(s, "size"), plotted_column(s, "swap_rate"), **line)
    power_title = f"share of {n_pairs} pairs significant (bootstrap, 5%)"
    axes[0].set(xscale="log", xlabel="users", ylabel="discriminative power", title=power_title)
    axes[1].set(xscale="log", xlabel="users per set", ylabel="swap rate", title="order reversed on a disjoint user set")
    for ax, ticks in ((axes[0], sorted(set(power.users))), (axes[1], sorted(set(swaps["size"])))):
        ax.set_xticks(ticks, [str(t) for t in ticks])
        ax.minorticks_off()
    _legend_below(fig, axes[0], ncols=4)
    return fig


def convention_panels(
    means: pd.DataFrame,
    systems: Sequence[str],
    conventions: Sequence[str],
    depths: Sequence[str],
    measures: Sequence[str],
) -> Figure:
    """Mean of each system (95% interval) under each tool's convention, one panel per (run depth, measure)."""
    width = min(5.6, style.reader_panel_width(len(measures)))  # a row as wide as the page shows, unshrunk
    fig, axes, cells = style.cell_grid(depths, measures, (width, 3.4), pad=0.5, sharey=True)
    for ax, (depth, measure) in cells:
        for c, s in enumerate(systems):
            t = means[(means.depth == depth) & (means.measure == measure) & (means.system == s)]
            mean, bars = centre_and_bars(t.set_index("convention").reindex(list(conventions)))
            y = np.arange(len(conventions)) + (c - 2.5) * 0.1
            ax.errorbar(mean, y, xerr=bars, fmt="o", ms=3, color=f"C{c}", label=s, capsize=1.5)
        ax.set_yticks(np.arange(len(conventions)), conventions)
        ax.set_title(f"{measure}, run files of depth {depth}", fontsize=10)
        ax.set_xlabel("mean (95% interval)")
    axes[0, 0].invert_yaxis()
    _legend_below(fig, axes[0, 0], ncols=3)
    return fig


def cutoff_panels(
    means: pd.DataFrame,
    summary: pd.DataFrame,
    systems: Sequence[str],
    gains: Sequence[str],
    cutoffs: Sequence[str],
    n_pairs: int,
) -> Figure:
    """nDCG@k against the whole list: the systems' means (left, first gain) and, per gain, the pairs significantly
    different and the decisions that change from the whole list (right)."""
    fig, (axes,), _ = style.cell_grid([None], range(2), PAIR_PANEL, pad=0.0)
    xk = np.arange(len(cutoffs))
    names = ["whole" if k == "all" else f"@{k}" for k in cutoffs]
    for c, s in enumerate(systems):
        t = means[(means.gain == gains[0]) & (means.system == s)]
        mean, bars = centre_and_bars(t)
        axes[0].errorbar(xk + (c - 2.5) * 0.05, mean, yerr=bars, marker="o", ms=3, color=f"C{c}", label=s, capsize=2)
    axes[0].set(ylabel="mean nDCG (log2, 95% interval)", title=f"{len(systems)} systems, gain = {gains[0]}")
    for c, gain in enumerate(gains):
        t = summary[summary.gain == gain]
        axes[1].plot(xk, plotted_column(t, "significant"), marker="o", color=f"C{c}", label=f"{gain}: significant")
        changed = plotted_column(t, "decisions_changed")
        axes[1].plot(xk, changed, marker="s", ls="--", color=f"C{c}", label=f"{gain}: changed vs whole")
    axes[1].set(ylabel=f"pairs (of {n_pairs})", title="decisions (paired t, Holm, 5%)")
    for ax in axes:
        ax.set_xticks(xk, names)
        ax.legend(fontsize=8)
    return fig


#: The headline's gain (the ratings as grades) and the discount of its left panel.
HEADLINE_GAIN, HEADLINE_DISCOUNT = "rating", "log2"


def headline_figure(results: Path) -> Figure:
    """Against the list length n: (a) each recommender's mean nDCG, 95% bands; (b) the median ``|d_z|`` over pairs,
    per discount."""
    tables = (read_table(results / f"08_list_length_{name}.csv") for name in ("means", "pairs"))
    means, pairs = (t[t["gain"] == HEADLINE_GAIN] for t in tables)
    length = dict(zip(means["list_length"].astype(str), means["mean_length"], strict=False))
    systems, discounts = list(dict.fromkeys(means["system"])), list(dict.fromkeys(pairs["discount"]))
    styles = column_discount_styles(discounts)
    with column_figure(11.5, 2, 1, sharex=True) as (fig, (top, bottom)):
        for i, system in enumerate(systems):
            rows = means[(means["discount"] == HEADLINE_DISCOUNT) & (means["system"] == system)]
            band = (plotted_column(rows, k) for k in ("mean_length", "mean", "ci_low", "ci_high"))
            style.band_line(top, *band, 0.18, color=f"C{i}", ls="-", marker="o", ms=2.5, lw=1.0, label=system)
        top.set(xscale="log", ylabel=f"mean nDCG ({HEADLINE_DISCOUNT})", title="(a) each recommender, 95% bands")
        top.legend(loc="upper right", ncols=2, frameon=False, fontsize=7, handlelength=1.2)
        top.set_ylim(top.get_ylim()[0], top.get_ylim()[1] + 0.25 * (top.get_ylim()[1] - top.get_ylim()[0]))
        for d in discounts:
            rows = pairs[pairs["discount"] == d]
            medians = rows.assign(size=rows["effect_size"].abs()).groupby("list_length", sort=False)["size"].median()
            x = np.array([length[str(n)] for n in medians.index])
            order = np.argsort(x)
            bottom.plot(round_significant(x[order]), round_significant(medians.to_numpy()[order]), label=d, **styles[d])
        xlabel = "candidate-list length n (last: all unrated films)"
        bottom.set(xscale="log", xlabel=xlabel, ylabel="median |d_z| over pairs")
        bottom.set_title("(b) standardized paired gap, per discount")
        legend = dict(loc="outside lower center", ncols=2, frameon=False, handlelength=2.0)
        fig.legend(*bottom.get_legend_handles_labels(), **legend)
        return fig


def headline_caption(results: Path) -> str:
    """The headline's caption."""
    means = read_table(results / "08_list_length_means.csv")
    systems = means["system"].nunique()
    return (
        f"MovieLens-100k ({int(means['queries'].iloc[0])} users, gain = {HEADLINE_GAIN}): against the length n of "
        f"each user's candidate list (sampled, keeping the user's share of test films), (a) the mean nDCG "
        f"({HEADLINE_DISCOUNT}) of {systems} recommenders and (b) the median standardized paired gap over their "
        f"{systems * (systems - 1) // 2} pairs, per discount."
    )


HEADLINE = Headline.from_tables("08_headline", headline_figure, headline_caption)
