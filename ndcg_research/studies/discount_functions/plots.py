"""Notebook 02 (the discount functions): its figures (conventions: :mod:`ndcg_research.pipeline.style`)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from matplotlib.figure import Figure

from ...core import parse_discount
from ...pipeline.style import (
    LINESTYLES,
    MARKERS,
    discount_title,
    legend_below,
    log_ticks_1_2_5,
    n_label,
    round_significant,
)
from ...simulation import theory


def discount_panels(discounts: Sequence[str], n_max: int) -> Figure:
    """D(r); the share of the discount mass in the top r ranks of a list of ``n_max``; and, for the
    slowly varying and constant discounts, how much more than its size the top r weighs.

    The third panel is ``[C(r) / C(n)] / (r / n)`` with ``C(m) = sum D(1..m)``: 1 for no
    discount, above 1 by the factor the top of the list is over-weighted.
    """
    fig = Figure(figsize=(14, 4.8), layout="constrained")
    left, middle, right = fig.subplots(1, 3)
    r = np.unique(np.geomspace(1, n_max, 400).astype(np.int64))
    flat = [d for d in discounts if parse_discount(d).decay in ("slowly varying", "constant")]
    handles = []
    for i, spec in enumerate(discounts):
        d = parse_discount(spec)
        full = d(np.arange(1, n_max + 1, dtype=np.float64))
        share = np.cumsum(full)[r - 1] / full.sum()
        style = dict(
            color=f"C{i}",
            ls=LINESTYLES[i % len(LINESTYLES)],
            marker=MARKERS[i % len(MARKERS)],
            markevery=(0.02 + 0.11 * i / len(discounts), 0.11),
            ms=5,
            lw=1.6,
        )
        (line,) = left.plot(r, round_significant(np.maximum(full[r - 1], 1e-300)), **style)
        middle.plot(r, round_significant(share), **style)
        if spec in flat:
            right.plot(r, round_significant(share * n_max / r), **style)
        handles.append((line, discount_title(spec)))
    left.set(xscale="log", yscale="log", ylim=(1e-12, 2), xlabel="rank r", ylabel="D(r)", title="discount D(r)")
    middle.set(
        xscale="log",
        yscale="log",
        ylim=(1e-7, 2),
        xlabel="rank r",
        ylabel="share C(r) / C(n)",
        title=f"share of the mass in the top r (n = {n_label(n_max)})",
    )
    right.set(
        xscale="log",
        yscale="log",
        xlabel="rank r",
        ylabel="share / (r / n)",
        title="over-weighting of the top r (slow discounts)",
    )
    log_ticks_1_2_5(right)
    legend_below(fig, handles, ncols=4)
    return fig


def eps_panel(discounts: Sequence[str], n_max: int) -> Figure:
    """eps_D(n) = -n D'(n)/D(n): analytic lines, numerical derivative as markers."""
    fig = Figure(figsize=(7, 4.2), layout="constrained")
    ax = fig.subplots()
    n = np.geomspace(10, n_max, 200)
    marks = np.geomspace(10, n_max, 12)
    for i, spec in enumerate(discounts):
        (line,) = ax.plot(n, round_significant(theory.eps(spec, n)), label=spec)
        ax.plot(
            marks,
            round_significant(theory.eps_numeric(spec, marks)),
            MARKERS[i % len(MARKERS)],
            color=line.get_color(),
            ms=5,
            mfc="none",
        )
    ax.plot(n, round_significant(1 / np.log(n)), "k:", label="1 / ln n")
    ax.set(
        xscale="log",
        yscale="log",
        xlabel="n",
        ylabel="eps_D(n)",
        title="eps_D(n) = -n D'(n) / D(n): lines analytic, markers numerical",
    )
    log_ticks_1_2_5(ax)
    ax.legend(fontsize=8)
    return fig
