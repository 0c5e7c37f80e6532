"""Notebook 02 (the discount functions): its figures (conventions: :mod:`ndcg_research.pipeline.style`)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from ...core import parse_discount
from ...pipeline import style
from ...pipeline.headlines import Headline
from ...simulation import theory
from ...simulation.tables import read_table


def discount_panels(discounts: Sequence[str], n_max: int) -> Figure:
    """D(r); the share ``C(r) / C(n)`` of the discount mass in the top r ranks of a list of ``n_max``; and, for slowly
    varying and constant discounts, ``[C(r) / C(n)] / (r / n)``: how much more than its size the top r weighs."""
    # two panels a row, the legend in the fourth cell: three in a row (14 inches) were shrunk to 0.63 on a page
    fig = Figure(figsize=(2 * style.reader_panel_width(2), 7.2), layout="constrained")
    grid = fig.add_gridspec(2, 2)
    left, middle, right = (fig.add_subplot(grid[cell]) for cell in ((0, 0), (0, 1), (1, 0)))
    r = np.unique(np.geomspace(1, n_max, 400).astype(np.int64))
    handles = []
    for i, spec in enumerate(discounts):
        full = parse_discount(spec)(np.arange(1, n_max + 1, dtype=np.float64))
        share = np.cumsum(full)[r - 1] / full.sum()
        markers = dict(marker=style.MARKERS[i % len(style.MARKERS)], markevery=(0.02 + 0.11 * i / len(discounts), 0.11))
        drawn = dict(color=f"C{i}", ls=style.LINESTYLES[i % len(style.LINESTYLES)], lw=1.6, ms=5, **markers)
        (line,) = left.plot(r, style.round_significant(np.maximum(full[r - 1], 1e-300)), **drawn)
        middle.plot(r, style.round_significant(share), **drawn)
        if parse_discount(spec).decay in ("slowly varying", "constant"):
            right.plot(r, style.round_significant(share * n_max / r), **drawn)
        handles.append((line, style.discount_title(spec)))
    log_log = dict(xscale="log", yscale="log")
    left.set(**log_log, ylim=(1e-12, 2), xlabel="rank r", ylabel="D(r)", title="discount D(r)")
    title = f"share of the mass in the top r (n = {style.n_label(n_max)})"
    middle.set(**log_log, ylim=(1e-7, 2), xlabel="rank r", ylabel="share C(r) / C(n)", title=title)
    title = "over-weighting of the top r (slow discounts)"
    right.set(**log_log, xlabel="rank r", ylabel="share / (r / n)", title=title)
    style.log_ticks_1_2_5(right)
    # (a figure legend at the empty cell's centre: the figure keeps its three axes)
    fig.legend(*zip(*handles, strict=True), loc="center", bbox_to_anchor=(0.75, 0.25), frameon=False)
    return fig


def eps_panel(discounts: Sequence[str], n_max: int) -> Figure:
    """eps_D(n) = -n D'(n)/D(n): analytic lines, numerical derivative as markers."""
    fig = Figure(figsize=(7, 4.2), layout="constrained")
    ax = fig.subplots()
    n = np.geomspace(10, n_max, 200)
    marks = np.geomspace(10, n_max, 12)
    for i, spec in enumerate(discounts):
        (line,) = ax.plot(n, style.round_significant(theory.eps(spec, n)), label=spec)
        numeric = style.round_significant(theory.eps_numeric(spec, marks))
        ax.plot(marks, numeric, style.MARKERS[i % len(style.MARKERS)], color=line.get_color(), ms=5, mfc="none")
    ax.plot(n, style.round_significant(1 / np.log(n)), "k:", label="1 / ln n")
    title = "eps_D(n) = -n D'(n) / D(n): lines analytic, markers numerical"
    ax.set(xscale="log", yscale="log", xlabel="n", ylabel="eps_D(n)", title=title)
    style.log_ticks_1_2_5(ax)
    ax.legend(fontsize=8)
    return fig


def _top_share(results: Path) -> tuple[pd.DataFrame, list[int], float]:
    """The run's ``02_top_share.csv``, its list lengths, and the top fraction q (the smallest limit)."""
    shares = read_table(results / "02_top_share.csv")
    ns = [int(float(c.removeprefix("n="))) for c in shares.columns if c.startswith("n=")]
    return shares, ns, float(shares["limit"].min())


def headline_figure(results: Path) -> Figure:
    """One column: the share of each discount's weight on the top fraction q against n, with its limit (right)."""
    shares, ns, q = _top_share(results)
    discounts = list(shares["discount"])
    styles = style.column_discount_styles(discounts)
    with style.column_figure(7.4) as (fig, (ax,)):
        x_limit = ns[-1] * 30
        columns = [c for c in shares.columns if c.startswith("n=")]  # by name, whatever the columns' order
        for spec, (_, row) in zip(discounts, shares.iterrows(), strict=True):
            values = style.round_significant(row[columns].to_numpy(dtype=float))
            drawn = styles[spec]
            ax.plot(ns, values, label=spec, **drawn)
            ax.plot([x_limit], [row["limit"]], marker=drawn["marker"], mfc="white", mec=drawn["color"], ms=3.5)
        ax.axhline(q, color="0.5", lw=0.7, ls=":")
        ax.set(xscale="log", yscale="log", xlabel="list length n", ylabel=f"share of the weight on the top {q:.0%}")
        ax.set_xticks([*ns, x_limit], [*(style.n_label(n) for n in ns), "limit"])
        style.log_ticks_1_2_5(ax)
        ax.set_title(f"dotted: the top's own size, {q:.0%} of the list")
        classes = "colour by class: red summable, orange critical,\ngreen regularly varying, blue slowly varying"
        small = dict(fontsize=7, title_fontsize=7, handlelength=1.8, columnspacing=0.6)
        fig.legend(loc="outside lower center", ncols=3, frameon=False, title=classes, **small)
        return fig


def headline_caption(results: Path) -> str:
    """The headline's caption."""
    _, ns, q = _top_share(results)
    return (
        f"Share of each discount's total weight on the top {q:.0%} of a list of n items, n = {style.n_text(ns[0])} "
        f"to {style.n_text(ns[-1])}, and its limit: all of it (summable, critical), a power of {q:g} (regularly "
        f"varying), or only {q:.0%}, the top's size (slowly varying)."
    )


HEADLINE = Headline.from_tables("02_headline", headline_figure, headline_caption)
