"""Notebook 05 (nDCG@k): its figures (conventions: :mod:`ndcg_research.pipeline.style`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.lines import Line2D

from ...pipeline import style
from ...pipeline.headlines import Headline
from ...simulation.cutoff import parse_cutoff
from ...simulation.model import parse_model
from ...simulation.tables import read_table


def cutoff_values_grid(
    mean_table: pd.DataFrame, model: str, rules: Sequence[str], discounts: Sequence[str], rankers: Sequence[str]
) -> Figure:
    """Mean nDCG@k against n with 95% bands: one row per cut-off rule, one column per discount."""
    fig, axes, cells = style.cell_grid(rules, discounts, (3.1, 2.5), pad=0.9, sharex=True, sharey=True)
    handles = []
    for ax, (rule, d) in cells:
        for c, r in enumerate(rankers):
            rows = style.select(mean_table, model=model, rule=rule, discount=d, ranker=r)
            curve = (style.plotted_column(rows, b) for b in ("n", "mean", "ci_low", "ci_high"))
            handles.append((style.band_line(ax, *curve, 0.2, marker="o", ms=3, color=f"C{c}"), r))
        ax.set_xscale("log")
    style.label_grid_edges(axes, discounts, [f"{rule}\nmean nDCG@k" for rule in rules])
    style.legend_below(fig, handles)
    fig.suptitle(f"Mean nDCG@k vs n, model {model} (95% intervals)", fontsize=11)
    return fig


def cutoff_pair_grid(
    pair_table: pd.DataFrame,
    models: Sequence[str],
    rules: Sequence[str],
    discounts: Sequence[str],
    better: str,
    worse: str,
) -> Figure:
    """P(better scores strictly higher) against n with Wilson intervals and the share of exact ties (hollow, dotted):
    a row per model, a column per cut-off rule; the discounts side by side (shifted along n) so as not to hide."""
    fig, axes, cells = style.cell_grid(models, rules, (3.3, 2.9), pad=0.9, sharex=True, sharey=True)
    shift = 10 ** (0.045 * (np.arange(len(discounts)) - (len(discounts) - 1) / 2))  # side by side on a log axis
    handles, tie_handle = [], []
    for ax, (m, rule) in cells:
        for c, d in enumerate(discounts):
            rows = style.select(pair_table, model=m, better=better, worse=worse, rule=rule, discount=d)
            n = style.plotted_column(rows, "n") * shift[c]
            bounds = (style.plotted_column(rows, b) for b in style.P_BETTER)
            handles.append((style.interval_markers(ax, n, *bounds, c, "-"), d))
            ties = style.plotted_column(rows, "p_tie")
            if ties.max() > 0:
                ax.plot(n, ties, style.MARKERS[c % len(style.MARKERS)] + ":", ms=4, mfc="none", color=f"C{c}", lw=1)
                tie_handle = [(Line2D([], [], color="0.3", marker="o", mfc="none", ls=":"), "share of exact ties")]
        ax.axhline(0.5, color="0.5", lw=0.8, ls="--")
        ax.set(xscale="log", ylim=(-0.03, 1.03))
    style.label_grid_edges(axes, rules, [f"{m}\nP({better} > {worse})" for m in models])
    handles += tie_handle
    style.legend_below(fig, handles)
    fig.suptitle(f"P({better} scores strictly higher than {worse}), Wilson 95%; hollow dotted: exact ties", fontsize=11)
    return fig


def ndcg_by_k_panels(
    curves: Mapping[tuple[str, str], Mapping[str, np.ndarray]],
    ks: Sequence[int],
    models: Sequence[str],
    rankers: Sequence[str],
    *,
    n: int,
    relevant: Mapping[str, float],
) -> Figure:
    """Mean nDCG@k against k (95% band) per model and ranker; dashed: the expected number of relevant items."""
    fig, axes, cells = style.cell_grid([n], models, (5.5, 4.3), pad=0.0, sharey=True)
    handles = []
    ks = np.asarray(ks)
    for ax, (_, m) in cells:
        for c, r in enumerate(rankers):
            curve = (style.round_significant(curves[(m, r)][b]) for b in ("mean", "ci_low", "ci_high"))
            handles.append((style.band_line(ax, ks, *curve, 0.2, marker="o", ms=3, color=f"C{c}"), r))
        handles.append((ax.axvline(relevant[m], color="0.4", ls="--", lw=1), "expected number of relevant items"))
        ax.set(xscale="log", xlabel="cut-off k", title=f"{m}, n = {n}, log2")
    axes[0, 0].set_ylabel("mean nDCG@k (95% interval)")
    style.legend_below(fig, handles)
    return fig


#: The headline's pair (far apart) and discount; one line per cut-off rule of the run.
HEADLINE_PAIR, HEADLINE_DISCOUNT = ("bayes", "noisy(sigma=1)"), "log2"
#: How each cut-off rule reads in the headline's legend (``'fixed(k=10)'`` -> ``'k = 10'``).
RULE_WORDS = {"fixed": "k = {:g}", "power": "k = n^{:g}", "fraction": "k = {:g} n", "all": "whole list"}


def headline_figure(results: Path) -> Figure:
    """One column, a panel per model (``05_cutoff_pairs.csv``): P(the better ranker of :data:`HEADLINE_PAIR` scores
    strictly higher) under :data:`HEADLINE_DISCOUNT` against n, a line per cut-off rule, with Wilson 95% intervals."""
    pairs = read_table(results / "05_cutoff_pairs.csv")
    models, rules = list(dict.fromkeys(pairs["model"])), list(dict.fromkeys(pairs["rule"]))
    pair = dict(discount=HEADLINE_DISCOUNT, better=HEADLINE_PAIR[0], worse=HEADLINE_PAIR[1])
    with style.column_figure(9.6, len(models), 1, sharex=True) as (fig, axes):
        for ax, panel, model in zip(axes, "abcd", models, strict=False):
            for i, rule in enumerate(rules):
                rows = style.select(pairs, model=model, rule=rule, **pair)
                n, (p, bars) = style.plotted_column(rows, "n"), style.centre_and_bars(rows, *style.P_BETTER)
                fmt, parsed = style.MARKERS[i] + style.LINESTYLES[i % len(style.LINESTYLES)], parse_cutoff(rule)
                label = RULE_WORDS[parsed.kind].format(parsed.value)
                ax.errorbar(
                    n, p, yerr=bars, fmt=fmt, color=f"C{i}", ms=3.5, lw=1.0, elinewidth=0.7, capsize=0, label=label
                )
            ax.axhline(0.5, color="0.5", lw=0.7, ls=":")
            ax.set(ylim=(-0.03, 1.03), ylabel="P(better scores higher)", xscale="log")
            ax.set_title(f"({panel}) {parse_model(model).top_label}, model {model}")
            style.decade_x_ticks(ax, n)
        return style.column_legend(fig, axes, 4)


def headline_caption(results: Path) -> str:
    """The headline's caption."""
    pairs = read_table(results / "05_cutoff_pairs.csv")
    return (
        f"nDCG@k ({HEADLINE_DISCOUNT}): probability that {style.pair_label(*HEADLINE_PAIR)} scores strictly higher on "
        f"a fresh data set, against the list length n (up to {style.n_text(pairs['n'].max())}), for a fixed k, k "
        f"growing with n and the whole list, with a certain (a) and an uncertain (b) top; Wilson 95% intervals; "
        f"dotted: a coin flip. Exact ties count as failures."
    )


HEADLINE = Headline.from_tables("05_headline", headline_figure, headline_caption)
