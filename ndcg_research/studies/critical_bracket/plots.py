"""Notebook 11 (the critical bracket): its figures (conventions: :mod:`ndcg_research.pipeline.style`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.lines import Line2D

from ...pipeline import style
from ...pipeline.headlines import Headline
from ...simulation.tables import read_table

#: The fitted exponent columns (centre, low, high) of the gap and of the failure rate (``11_verdicts.csv``).
D_EXPONENT, FAILURE_EXPONENT = ("d_exponent", "d_low", "d_high"), ("failure_exponent", "failure_low", "failure_high")


def exponent_panels(verdicts: pd.DataFrame, discounts: Sequence[str]) -> Figure:
    """Fitted exponents across the bracket, a column per model: top, of ``d ~ n^e`` with the law's (bars) and the
    heuristic's (open markers); bottom, of ``failure ~ n^b``. Dotted: 1/r."""
    labels = list(dict.fromkeys(verdicts["label"]))
    pairs = list(dict.fromkeys(zip(verdicts["better"], verdicts["worse"], strict=False)))
    fig, axes, _ = style.cell_grid((D_EXPONENT, FAILURE_EXPONENT), labels, (4.3, 3.0), pad=0.0, sharex=True)
    for ax in axes[0, 1:]:  # the exponents of d share one scale; the failure exponents differ by orders between tops
        ax.sharey(axes[0, 0])
    x = np.arange(len(discounts), dtype=np.float64)
    offsets = 0.12 * (np.arange(len(pairs)) - (len(pairs) - 1) / 2)
    handles = []
    for j, label in enumerate(labels):
        for p, (better, worse) in enumerate(pairs):
            rows = style.select(verdicts, label=label, better=better, worse=worse)
            rows = rows.set_index("discount").reindex(discounts)
            xs, color, name = x + offsets[p], f"C{p}", style.short_pair_label(better, worse)
            for ax, columns in ((axes[0, j], D_EXPONENT), (axes[1, j], FAILURE_EXPONENT)):
                bar = style.pair_intervals(ax, xs, rows, columns, p, ms=5, capsize=2, lw=1)
                handles.append((bar, f"{name}: fitted (95%)"))
            # zipflog's law carries an extra (ln n)^-gamma that an exponent cannot show: no bar there
            log_power = rows["law_log_power"].fillna(0).to_numpy() if "law_log_power" in rows else 0.0
            law_values = np.where(log_power == 0, rows["law_exponent"].to_numpy(dtype=np.float64), np.nan)
            law = axes[0, j].plot(xs, style.round_significant(law_values), "_", color=color, ms=16, mew=2)[0]
            heuristic = style.plotted_column(rows, "heuristic_exponent")
            marker = style.PAIR_MARKERS[p % len(style.PAIR_MARKERS)]
            dots = axes[0, j].plot(xs, heuristic, marker, mfc="none", color=color, ms=8)
            handles += [(law, f"{name}: law"), (dots[0], f"{name}: finite-n heuristic")]
        for ax in axes[:, j]:
            ax.axhline(0, color="0.3", lw=0.8)
            if "zipf" in discounts:
                ax.axvline(discounts.index("zipf"), color="0.5", lw=0.8, ls=":")
        axes[0, j].set_title(f"{label} top", fontsize=11)
        axes[1, j].set_xticks(x, [_short_discount(d) for d in discounts], rotation=40, ha="right", fontsize=9)
    low, high = axes[0, 0].get_ylim()  # wide intervals run off the panel: clipped to EXPONENT_RANGE
    axes[0, 0].set_ylim(max(low, -style.EXPONENT_RANGE), min(high, style.EXPONENT_RANGE))
    axes[0, 0].set_ylabel("exponent of the\nstandardized gap d")
    axes[1, 0].set_ylabel("exponent of the\nfailure rate 1 - P")
    style.legend_below(fig, handles, ncols=3)
    title = "Growth in n across the bracket (dotted: 1/r)\nd ~ n^e grows above 0; the failure rate falls below 0"
    fig.suptitle(title, fontsize=11)
    return fig


def trend_grid(
    pair_tables: Mapping[str, pd.DataFrame], discounts: Sequence[str], value: str, heuristic: pd.DataFrame | None = None
) -> Figure:
    """Per model (row) and pair (column), against n: the failure rate (``value="p_fail"``, Wilson 95%) or the
    standardized gap (``"std_gap"``, heuristic dashed)."""
    if value not in ("p_fail", "std_gap"):
        raise ValueError(f"value must be 'p_fail' or 'std_gap', got {value!r}")
    labels = list(pair_tables)
    first = pair_tables[labels[0]]
    pairs = list(dict.fromkeys(zip(first["better"], first["worse"], strict=False)))
    fig, axes, cells = style.cell_grid(labels, pairs, (4.2, 3.0), pad=1.1, sharex=True)
    colors = style.decay_colors(discounts)
    draw = _draw_failure_rate if value == "p_fail" else style.draw_standardized_gap
    handles = []
    for ax, (label, (better, worse)) in cells:
        for d in discounts:
            rows = style.select(pair_tables[label], discount=d, better=better, worse=worse)
            handles.append((draw(ax, rows, colors[d]), d))
            if value == "std_gap" and heuristic is not None:
                h = style.select(heuristic, label=label, discount=d, better=better, worse=worse)
                heuristic_line = (style.plotted_column(h, c) for c in ("n", "heuristic_d"))
                ax.plot(*heuristic_line, "--", color=colors[d], lw=1)
        ax.set_xscale("log")
        if value == "p_fail":
            ax.set_yscale("log")
            ax.set_ylim(bottom=max(ax.get_ylim()[0], 1e-4), top=1.0)
        else:
            ax.axhline(0, color="0.3", lw=0.8)
            ax.set_yscale("symlog", linthresh=0.03)
            ax.set_ylim(bottom=-0.05)
    quantity = "failure rate 1 - P" if value == "p_fail" else "standardized gap d"
    for ax, label in zip(axes[:, 0], labels, strict=True):
        ax.set_ylabel(f"{label} top\n{quantity}")
    style.label_grid_edges(axes, [style.pair_label(better, worse) for better, worse in pairs], [])
    if value == "p_fail":
        bound = Line2D([], [], color="0.3", marker="v", mfc="none", ls="none")
        handles.append((bound, "no failure: Wilson upper bound"))
        title = "Failure rate against n (log-log), Wilson 95% bands"
    else:
        handles.append((Line2D([], [], color="0.3", ls="--"), "finite-n heuristic"))
        title = "Standardized gap d = mean/sd against n (symmetric log scale, linear within ±0.03), 95% bands"
    style.legend_below(fig, handles, ncols=5)
    fig.suptitle(title, fontsize=11)
    return fig


def _draw_failure_rate(ax: Axes, rows: pd.DataFrame, color: Any) -> Line2D:
    """1 - P(better strictly higher) with its Wilson band; a share of 0 as an open triangle at its upper bound."""
    n = style.plotted_column(rows, "n")
    p, high, low = style.round_significant(1 - rows[list(style.P_BETTER)].to_numpy(dtype=np.float64).T)  # bounds swap
    seen = p > 0
    band = (np.maximum(low[seen], 1e-6), high[seen])
    line = style.band_line(ax, n[seen], p[seen], *band, color=color, marker="o", ls="-", ms=3, lw=1.2)
    if (~seen).any():
        ax.plot(n[~seen], high[~seen], "v", color=color, mfc="none", ms=5)
    return line


def _short_discount(spec: str) -> str:
    """Tick labels: ``'power(beta=0.8)'`` -> ``'r^-0.8'``, ``'zipflog(gamma=1)'`` -> ``'zipflog(1)'``."""
    if spec.startswith("power(beta="):
        return "r^-" + spec.removeprefix("power(beta=").rstrip(")")
    return spec.replace("gamma=", "")


def headline_figure(results: Path) -> Figure:
    """One column, a panel per top: the fitted exponent b of ``1 - P ~ n^b`` across the bracket, per pair (95%)."""
    verdicts = read_table(results / "11_verdicts.csv")
    labels = list(dict.fromkeys(verdicts["label"]))
    discounts = list(dict.fromkeys(verdicts["discount"]))
    pairs = list(dict.fromkeys(zip(verdicts["better"], verdicts["worse"], strict=True)))
    x = np.arange(len(discounts), dtype=np.float64)
    offsets = 0.15 * (np.arange(len(pairs)) - (len(pairs) - 1) / 2)
    with style.column_figure(10.5, len(labels), 1, sharex=True) as (fig, axes):
        for ax, panel, label in zip(axes, "abcd", labels, strict=False):
            for p, (better, worse) in enumerate(pairs):
                rows = style.select(verdicts, label=label, better=better, worse=worse)
                rows = rows.set_index("discount").reindex(discounts)
                name = style.short_pair_label(better, worse)
                style.pair_intervals(
                    ax, x + offsets[p], rows, FAILURE_EXPONENT, p, ms=3.5, lw=0.9, capsize=0, label=name
                )
            ax.axhline(0, color="0.3", lw=0.7)
            if "zipf" in discounts:
                ax.axvline(discounts.index("zipf"), color="0.5", lw=0.7, ls=":")
            ax.set_ylabel("exponent b of 1 - P")
            ax.set_title(f"({panel}) {label} top, model {rows['model'].dropna().iloc[0]}")
        axes[-1].set_xticks(x, [_short_discount(d) for d in discounts], rotation=35, ha="right")
        return style.column_legend(fig, axes, 2, "discount (dotted: 1/r)")


def headline_caption(results: Path) -> str:
    """The headline's caption."""
    verdicts = read_table(results / "11_verdicts.csv")
    return (
        f"Across the bracket of discounts around 1/r (r^-beta, zipf, zipflog), the fitted exponent b of the failure "
        f"rate 1 - P(better strictly higher) ~ n^b over n = {style.n_text(verdicts['n_first'].min())} to "
        f"{style.n_text(verdicts['n_last'].max())}, with its 95% interval, per pair, with a certain (a) and an "
        f"uncertain (b) top; below 0 the failure rate falls over the measured range."
    )


HEADLINE = Headline.from_tables("11_headline", headline_figure, headline_caption)
