"""Notebook 07 (query sets): its figures (conventions: :mod:`ndcg_research.pipeline.style`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.lines import Line2D

from ...core import parse_discount
from ...pipeline import style
from ...pipeline.headlines import Headline
from ...simulation.tables import read_table


def _discount_label(spec: str) -> str:
    """A legend label for a discount: ``'zipf (critical)'``."""
    return f"{spec} ({parse_discount(spec).decay})"


def _discount_legend(fig: Figure, discounts: Sequence[str], dashed: str = "") -> None:
    """The legend of the discounts' styles (and of the dashed reference line, labelled ``dashed``), below the panels."""
    styles = style.discount_styles(discounts)
    entries = [
        (Line2D([], [], ms=4, **{k: v for k, v in styles[d].items() if k != "zorder"}), _discount_label(d))
        for d in discounts
    ]
    if dashed:
        entries.append((Line2D([], [], color="0.3", ls="--", lw=1), dashed))
    style.legend_below(fig, entries, ncols=4)


def asl_curves_panels(
    curves: Mapping[tuple[str, str], np.ndarray],
    gains: Sequence[str],
    discounts: Sequence[str],
    *,
    alpha: float,
    n_resamples: int,
    topics: int,
) -> Figure:
    """Sakai's ASL curves: per gain (panel), each discount's achieved significance levels, sorted (log scale); an ASL of
    0 (no resample as extreme) is drawn at 1/(2B)."""
    styles = style.discount_styles(discounts)
    fig, (axes,), _ = style.cell_grid([None], gains, (5.6, 4.4), pad=0.0, sharey=True)
    for ax, g in zip(axes, gains, strict=False):
        for d in discounts:
            curve = style.round_significant(np.maximum(curves[(g, d)], 0.5 / n_resamples))
            ax.plot(np.arange(1, curve.size + 1), curve, **{k: v for k, v in styles[d].items() if k != "marker"})
        ax.axhline(alpha, color="0.3", ls="--", lw=1)
        ax.set(yscale="log", ylim=(0.3 / n_resamples, 1.5), xlabel="system pairs, sorted by ASL")
        ax.set_title(f"gain {g}: ASL curves, {topics} topics")
        style.decade_ticks(ax)
    axes[0].set_ylabel("achieved significance level (bootstrap)")
    _discount_legend(fig, discounts, f"alpha = {alpha:g}")
    return fig


def swap_rate_panels(
    rates: Mapping[tuple[str, str], Sequence[float]],
    gains: Sequence[str],
    discounts: Sequence[str],
    sizes: Sequence[int],
) -> Figure:
    """Voorhees-Buckley swap rate against the size of the two disjoint query sets, per gain (panel) and discount."""
    styles = style.discount_styles(discounts)
    fig, (axes,), _ = style.cell_grid([None], gains, (5.6, 4.2), pad=0.0, sharey=True)
    for ax, g in zip(axes, gains, strict=False):
        for d in discounts:
            ax.plot(sizes, style.round_significant(rates[(g, d)]), ms=4, **styles[d])
        ax.set(xlabel="queries per subset c", title=f"gain {g}: swap rate between disjoint query sets", ylim=(0, None))
        ax.set_xticks(sizes, [str(c) for c in sizes])
    axes[0].set_ylabel("share of system pairs swapped")
    _discount_legend(fig, discounts)
    return fig


def queries_needed_panels(
    curves: pd.DataFrame,
    gains: Sequence[str],
    discounts: Sequence[str],
    sizes: Sequence[int],
    *,
    target_accuracy: float,
    alpha: float,
) -> Figure:
    """Against the number of queries: ordering accuracy (top, 95% band) and expected discriminative power (bottom), from
    ``curves`` (the rows of ``07_query_sets.csv``)."""
    styles = style.discount_styles(discounts)
    fig, axes, _ = style.cell_grid(range(2), gains, (5.6, 3.8), pad=0.0, sharex=True, sharey="row")
    for j, g in enumerate(gains):
        for d in discounts:
            rows = style.select(curves, gain=g, discount=d).sort_values("size")
            c = style.plotted_column(rows, "size")
            band = (style.plotted_column(rows, k) for k in ("accuracy", "accuracy_low", "accuracy_high"))
            style.band_line(axes[0, j], c, *band, ms=4, **styles[d])
            axes[1, j].plot(c, style.plotted_column(rows, "expected_power"), ms=4, **styles[d])
        axes[0, j].axhline(target_accuracy, color="0.3", ls="--", lw=1)
        axes[0, j].set(title=f"gain {g}: pairs ordered as the truth", xscale="log")
        axes[1, j].set(title=f"gain {g}: expected discriminative power", xlabel="queries c", xscale="log", ylim=(0, 1))
        for ax in axes[:, j]:
            ax.set_xticks(sizes, [str(c) for c in sizes])
            ax.minorticks_off()
    axes[0, 0].set_ylabel("ordering accuracy (95% band)")
    axes[1, 0].set_ylabel(f"share of pairs with ASL < {alpha:g}")
    _discount_legend(fig, discounts, f"target accuracy {target_accuracy:g}")
    return fig


def measure_agreement_heatmap(tau: np.ndarray, labels: Sequence[str], title: str) -> Figure:
    """Kendall's tau between the system orderings of every two measures, as a heat map."""
    off_diagonal = tau[~np.eye(len(labels), dtype=bool)]
    fig, [[ax]], _ = style.cell_grid([None], [None], (9, 7.5), pad=0.0)
    lowest = np.floor(off_diagonal.min() * 20) / 20 if off_diagonal.size else 0
    image = ax.imshow(style.round_significant(tau), cmap="viridis", vmin=lowest, vmax=1)
    ax.set_xticks(range(len(labels)), labels, rotation=90, fontsize=8)
    ax.set_yticks(range(len(labels)), labels, fontsize=8)
    fig.colorbar(image, ax=ax, label="Kendall's tau between system orderings")
    ax.set_title(title)
    return fig


def per_list_scatter(
    measures: pd.DataFrame, gains: Sequence[str], discounts: Sequence[str], *, target_accuracy: float, cap: float
) -> Figure:
    """Each measure's per-topic win probability against the queries it needs (95% interval, capped at ``cap``)."""
    styles = style.discount_styles(discounts)
    fig, [[ax]], _ = style.cell_grid([None], [None], (7.0, 5.6), pad=0.0)
    shapes = dict(zip(gains, "osD^v", strict=False))
    capped = measures.assign(queries_needed_high=measures["queries_needed_high"].clip(upper=cap))
    centre, bars = style.centre_and_bars(capped, "queries_needed", "queries_needed_low", "queries_needed_high")
    for r, c, low, high in zip(measures.itertuples(), centre, *bars, strict=True):
        look = styles[r.discount]
        mark = dict(fmt=shapes[r.gain], color=look["color"], ms=6 if r.discount == "log2" else 5, capsize=2)
        ax.errorbar([r.per_topic_win], [c], yerr=[[low], [high]], **mark, zorder=look["zorder"])
    ax.set(xlabel="per-topic P(more skilled system scores strictly higher)", yscale="log")
    ax.set_ylabel(f"queries for ordering accuracy {target_accuracy:g}")
    ax.set_title("Per-list distinguishability vs queries needed")
    style.log_ticks_1_2_5(ax)
    handles = [Line2D([], [], color=styles[d]["color"], marker="o", ls="none", ms=6) for d in discounts]
    handles += [Line2D([], [], color="0.3", marker=shapes[g], ls="none", ms=6) for g in gains]
    labels = [_discount_label(d) for d in discounts] + [f"gain {g}" for g in gains]
    style.legend_below(fig, list(zip(handles, labels, strict=False)), ncols=3)
    return fig


def headline_figure(results: Path, parameters: Mapping[str, Any]) -> Figure:
    """One column: per discount (rows, grouped by class), the number of queries each measure needs to order the system
    pairs as the truth with the run's target accuracy, per gain (markers), with 95% intervals (``07_measures.csv``);
    ``parameters``: the run's (``target_accuracy``)."""
    measures = read_table(results / "07_measures.csv")
    gains = list(dict.fromkeys(measures["gain"]))
    discounts = list(dict.fromkeys(measures["discount"]))
    classes = ("slowly varying", "regularly varying", "critical", "summable", "constant")  # slowest decay first
    order = sorted(discounts, key=lambda d: classes.index(parse_discount(d).decay))  # stable: a class keeps its order
    styles = style.discount_styles(order)
    with style.column_figure(7.6) as (fig, (ax,)):
        y = np.arange(len(order))[::-1]
        for gain, offset, fill, shape in zip(gains, (0.15, -0.15), (True, False), "os", strict=False):
            rows = measures[measures["gain"] == gain].set_index("discount").loc[order]
            centre, bars = style.centre_and_bars(rows, "queries_needed", "queries_needed_low", "queries_needed_high")
            for yi, d, c, low, high in zip(y, order, centre, *bars, strict=True):
                color = styles[d]["color"]
                mark = dict(fmt=shape, color=color, ms=3.5, mfc=color if fill else "white", lw=0.9)
                ax.errorbar([c], [yi + offset], xerr=[[low], [high]], **mark, capsize=0)
            ax.plot([], [], shape, color="0.3", mfc="0.3" if fill else "white", ms=3.5, label=f"gain {gain}")
        ax.set_yticks(y, order)
        ax.set_ylim(-0.7, len(order) - 0.3)
        ax.grid(axis="y", visible=False)
        ax.set(xlabel=f"queries for {parameters['target_accuracy']:.0%} of pairs in true order")
        ax.legend(loc="lower right", frameon=False)
        return fig


def headline_caption(results: Path, parameters: Mapping[str, Any]) -> str:
    """The headline's caption: the run's ``systems``, ``population_topics``, ``target_accuracy`` and ``trials``."""
    return (
        f"Queries a simulated test collection ({parameters['systems']} systems of known quality, "
        f"{parameters['population_topics']:,} population topics) needs for each measure to order "
        f"{parameters['target_accuracy']:.0%} of the system pairs as the truth, per discount (grouped by class, "
        f"slowest decay first) and gain, with 95% bootstrap intervals over {parameters['trials']:,} query sets."
    )


HEADLINE = Headline("07_headline", headline_figure, headline_caption)
