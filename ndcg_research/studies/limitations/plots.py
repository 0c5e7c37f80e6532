"""Notebook 06 (limitations): its figures (conventions: :mod:`ndcg_research.pipeline.style`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
from matplotlib.figure import Figure
from matplotlib.lines import Line2D

from ...pipeline.headlines import Headline
from ...pipeline.style import column_figure, error_bar_lengths, legend_below, plotted_column, round_significant
from ...simulation.tables import read_table
from ...stats import wilson_interval


def appending_panels(
    extras: Sequence[int],
    example: Mapping[str, Sequence[float]],
    random_extras: Sequence[int],
    random: Mapping[str, Sequence[float]],
    *,
    title_example: str,
    title_random: str,
) -> Figure:
    """nDCG and precision as non-relevant documents are added: the worked ``example`` (left; nDCG ``appended`` at the
    end or ``inserted`` at the top, ``precision``) and the mean of ``random`` lists (right; ``ndcg``, ``precision``)."""
    fig = Figure(figsize=(10, 4.2), layout="constrained")
    ax1, ax2 = fig.subplots(1, 2, sharey=True)
    ax1.plot(extras, round_significant(example["appended"]), color="C0", label="nDCG, appended at the end")
    ax1.plot(extras, round_significant(example["inserted"]), color="C0", ls="--", label="nDCG, inserted at the top")
    ax1.plot(extras, round_significant(example["precision"]), color="C1", label="precision of the whole list")
    ax1.set(xlabel="non-relevant documents added", ylabel="value", ylim=(0, 1.02), title=title_example)
    ax1.legend(loc="upper right", fontsize=9)
    ax2.plot(random_extras, round_significant(random["ndcg"]), "o-", color="C0", label="mean nDCG, appended")
    ax2.plot(random_extras, round_significant(random["precision"]), "s-", color="C1", label="mean precision")
    ax2.set(xlabel="non-relevant documents appended", ylabel="mean value", title=title_random)
    ax2.yaxis.set_tick_params(labelleft=True)
    ax2.legend(loc="upper right", fontsize=9)
    return fig


def truncation_violins(
    differences: Mapping[str, np.ndarray], p_short_wins: Mapping[str, float], *, short_length: int, list_length: int
) -> Figure:
    """Distribution of nDCG(prefix) - nDCG(whole list) under each convention (violins with extremes and median)."""
    names = list(differences)
    fig = Figure(figsize=(9.5, 4.0), layout="constrained")
    ax = fig.subplots()
    ax.violinplot(
        [round_significant(differences[n]) for n in names], orientation="horizontal", showmedians=True, widths=0.8
    )
    ax.axvline(0, color="0.3", lw=1)
    ax.set_yticks(np.arange(1, len(names) + 1), [f"{n}\nP(short ≥ long) = {p_short_wins[n]:.3f}" for n in names])
    count = len(next(iter(differences.values())))
    ax.set_xlabel(f"nDCG(first {short_length}) − nDCG(all {list_length})   (> 0: the short list wins)")
    ax.set_title(f"Same documents, same order, different length ({count} random lists missing a relevant document)")
    return fig


def pooling_bias_panels(
    depths: Sequence[int],
    bias: Mapping[str, np.ndarray],
    control: Mapping[str, np.ndarray],
    order: Mapping[str, Sequence[float]],
    *,
    best: int,
    novel: int,
    k: int,
    replicates: int,
) -> Figure:
    """Left: bias of nDCG@k (estimate - true, ``summarize_bias``) by pool depth with 95% intervals, for the best pooled
    and the novel system, unjudged = 0 and condensed, and the ``control`` (novel pooled too). Right: the share of
    collections in which the novel system is ranked above the best pooled one (``order``: per method and depth)."""
    fig = Figure(figsize=(11, 4.9), layout="constrained")
    ax1, ax2 = fig.subplots(1, 2)
    x = np.asarray(depths)
    # Colour = how the run is scored, in both panels; line style and marker = which system (left panel).
    method = {"true": "0.15", "unjudged = 0": "C3", "condensed": "C0", "unjudged = 0, novel pooled too": "C2"}
    system = {best: ("--", "s", "best pooled system"), novel: ("-", "o", "novel (unpooled) system")}
    curves = [(bias, e, s, label) for e, label in ((0, "unjudged = 0"), (1, "condensed")) for s in (best, novel)]
    curves.append((control, 0, novel, "unjudged = 0, novel pooled too"))
    widest, bars = 0.0, dict(ms=4, capsize=3, lw=1.4)
    for table, e, s, label in curves:
        centre, low, high = (round_significant(table[key][:, e, s]) for key in ("bias", "low", "high"))
        widest = max(widest, float(np.max(high - low)) / 2)
        ls, marker, _ = system[s]
        yerr = error_bar_lengths(centre, low, high)
        ax1.errorbar(x, centre, yerr=yerr, color=method[label], ls=ls, marker=marker, **bars)
    ax1.axhline(0, color="0.3", lw=1)
    ax1.set(xscale="log", xlabel="pool depth", ylabel=f"bias of nDCG@{k} (estimate − true)")
    ax1.set_title(
        f"Bias: mean over {replicates} collections, bars 95% intervals\n(the largest half-width is {widest:.3f})"
    )
    dodge = 10 ** (0.025 * (np.arange(len(order)) - (len(order) - 1) / 2))  # bars at 0 and 1 side by side
    for (label, shares), shift in zip(order.items(), dodge, strict=False):
        p = round_significant(shares)
        bounds = np.array([wilson_interval(int(round(v * replicates)), replicates) for v in p])
        yerr = error_bar_lengths(p, bounds[:, 0], bounds[:, 1])
        ax2.errorbar(x * shift, p, yerr=yerr, color=method.get(label, "C2"), ls="-", marker="o", **bars)
    ax2.set(xscale="log", xlabel="pool depth", ylabel="P(novel ranked above best pooled)", ylim=(-0.03, 1.03))
    ax2.set_title(f"Is the better, unpooled system recognised?\n(share of {replicates} collections, Wilson 95%)")
    handles = [Line2D([], [], color=color, lw=2.5) for color in method.values()]
    handles += [Line2D([], [], color="0.3", ls=ls, marker=marker, ms=5) for ls, marker, _ in system.values()]
    labels = [f"scored: {label}" for label in method] + [name for _, _, name in system.values()]
    legend_below(fig, list(zip(handles, labels, strict=False)), ncols=3)
    return fig


#: The headline's pooling methods, with their colours (as in the pooling figure).
HEADLINE_METHODS = {"unjudged = 0": "C3", "condensed": "C0"}


def headline_figure(results: Path, parameters: Mapping[str, Any]) -> Figure:
    """One column, two panels from the run's tables: (a) the share of random lists whose prefix scores at least as high
    as the whole list, per convention (``06_truncation.csv``); (b) the bias of the unpooled system's nDCG@k against the
    pool depth, per way of scoring unjudged documents (``06_pooling_bias.csv``), 95% intervals. ``parameters``: the
    run's (``short_length``, ``list_length``, ``k``)."""
    truncation = read_table(results / "06_truncation.csv")
    bias = read_table(results / "06_pooling_bias.csv")
    novel = bias[bias["system"].str.startswith("novel") & ~bias["novel_pooled"].astype(bool)]
    with column_figure(10.5, 2, 1, height_ratios=(1.2, 1)) as (fig, (top, bottom)):
        y = np.arange(len(truncation))[::-1]
        shares = round_significant(truncation["p_short_geq_long"])
        top.barh(y, shares, color="C0", height=0.6)
        beside = dict(xytext=(2, 0), textcoords="offset points", va="center", fontsize=7)
        for yi, share in zip(y, shares, strict=True):
            top.annotate(f"{share:.2f}", (share, yi), **beside)
        top.set_yticks(y, [c.replace(", ", "\n") for c in truncation["convention"]])
        top.set(xlim=(0, 1), xlabel=f"share of {int(truncation['lists'].iloc[0]):,} random lists")
        top.grid(axis="y", visible=False)
        top.set_title(
            f"(a) top {parameters['short_length']} scores at least as high as all {parameters['list_length']}"
        )
        for method, color in HEADLINE_METHODS.items():
            rows = novel[novel["method"] == method].sort_values("depth")
            depth, centre = plotted_column(rows, "depth"), plotted_column(rows, "bias")
            bars = error_bar_lengths(centre, plotted_column(rows, "low"), plotted_column(rows, "high"))
            label = "unjudged = not relevant" if method == "unjudged = 0" else "unjudged left out"
            bottom.errorbar(depth, centre, yerr=bars, fmt="o-", color=color, ms=3, lw=1.0, capsize=0, label=label)
        bottom.axhline(0, color="0.3", lw=0.7)
        bottom.set(xscale="log", xlabel="pool depth", ylabel=f"bias of nDCG@{parameters['k']}")
        bottom.set_title("(b) a better system that was not pooled")
        bottom.legend(loc="lower right", frameon=False, borderaxespad=0.1)
        return fig


def headline_caption(results: Path, parameters: Mapping[str, Any]) -> str:
    """The headline's caption, with the appending check's counts from ``06_appending.csv``."""
    appending = read_table(results / "06_appending.csv").iloc[0]
    bias = read_table(results / "06_pooling_bias.csv")
    return (
        f"The article's limitations measured: appending non-relevant documents lowered nDCG in "
        f"{int(appending['lowered']):,} of {int(appending['cases']):,} cases (not drawn); (a) a list's prefix can "
        f"score as high as the whole list, per ideal and cut-off convention; (b) with incomplete judgments, the bias "
        f"of a better system that was not pooled, mean over {int(bias['collections'].iloc[0])} simulated collections "
        f"with 95% intervals."
    )


HEADLINE = Headline("06_headline", headline_figure, headline_caption)
