"""Figures of the growth laws (notebooks 11-13): the critical bracket, fixed rankers that cross, nDCG@n^a.

Discounts are coloured along one colour map in the order of their decay (slowest first), so the eye
reads the bracket from one end to the other."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd
from matplotlib import colormaps
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.lines import Line2D

from ...studies.simulation import scaling
from .style import (LINESTYLES, crossing_n, error_bar_lengths, legend_below, pair_label, plotted_column,
                    round_significant, select)

__all__ = ["decay_colors", "exponent_panels", "trend_grid", "gain_profile_panel", "preference_panels",
           "crossing_growth_panel", "cutoff_exponent_grid", "cutoff_gap_grid"]

_PAIR_MARKERS = "os^D"
#: The exponent panels show at most this range: an interval wider than it says nothing and would squash the rest.
_EXPONENT_RANGE = 1.0


def decay_colors(discounts: Sequence[str]) -> dict[str, Any]:
    """One colour per discount along the 'viridis' map, in the given order (slowest decay first).

    Examples
    --------
    >>> colors = decay_colors(["log2", "zipf"])
    >>> len(colors), colors["log2"] != colors["zipf"]
    (2, True)
    """
    cmap = colormaps["viridis"]
    count = max(len(discounts) - 1, 1)
    return {d: cmap(0.92 * i / count) for i, d in enumerate(discounts)}


def _label_grid_panel(ax: Axes, row: int, rows: int, title: str, xlabel: str) -> None:
    """The zero line, the column title over the first row and the x label under the last row of a grid panel."""
    ax.axhline(0, color="0.3", lw=0.8)
    if row == 0:
        ax.set_title(title, fontsize=10)
    if row == rows - 1:
        ax.set_xlabel(xlabel)


def _short_pair_label(better: str, worse: str) -> str:
    """``'bayes > noisy(0.5)'``: a pair as a short legend label."""
    return pair_label(better, worse).replace("sigma=", "")


def exponent_panels(verdicts: pd.DataFrame, discounts: Sequence[str]) -> Figure:
    """Fitted exponents across the bracket: of the standardized gap (top row) and of the failure rate
    (bottom row), one column per model, discounts on the x axis in decay order.

    Top row: the fitted exponent of ``d ~ n^e`` with its interval (markers), the scaling law's
    exponent (bars) and the finite-n heuristic's local exponent (open markers). Bottom row: the
    fitted exponent of ``failure ~ n^b`` with its interval. A dotted vertical line marks 1/r. The law's bar is
    left out for ``zipflog``, whose law has a log factor besides the exponent; intervals wider than the
    panel's range of ±1 run off it.

    Examples
    --------
    >>> v = pd.DataFrame(dict(label="m", discount=["log2", "zipf"], better="a", worse="b", d_exponent=[0.5, 0.0],
    ...                       d_low=[0.4, -0.1], d_high=[0.6, 0.1], law_exponent=[0.5, 0.0],
    ...                       heuristic_exponent=[float("nan"), 0.01], failure_exponent=[-1.0, 0.0],
    ...                       failure_low=[-1.2, -0.05], failure_high=[-0.8, 0.05]))
    >>> fig = exponent_panels(v, ["log2", "zipf"])
    >>> [ax.get_ylabel() for ax in fig.axes[::1]][:1]
    ['exponent of the\\nstandardized gap d']
    """
    labels = list(dict.fromkeys(verdicts["label"]))
    pairs = list(dict.fromkeys(zip(verdicts["better"], verdicts["worse"])))
    fig = Figure(figsize=(4.3 * len(labels), 6.0), layout="constrained")
    axes = fig.subplots(2, len(labels), sharex=True, squeeze=False)
    for ax in axes[0, 1:]:  # the exponents of d share one scale; the failure exponents differ by orders between tops
        ax.sharey(axes[0, 0])
    x = np.arange(len(discounts), dtype=np.float64)
    offsets = 0.12 * (np.arange(len(pairs)) - (len(pairs) - 1) / 2)
    handles = []
    for j, label in enumerate(labels):
        for p, (better, worse) in enumerate(pairs):
            rows = select(verdicts, label=label, better=better, worse=worse).set_index("discount").reindex(discounts)
            xs = x + offsets[p]
            color = f"C{p}"
            for ax, centre, low, high in ((axes[0, j], "d_exponent", "d_low", "d_high"),
                                          (axes[1, j], "failure_exponent", "failure_low", "failure_high")):
                c, lo, hi = (plotted_column(rows, k) for k in (centre, low, high))
                bar = ax.errorbar(xs, c, yerr=error_bar_lengths(c, lo, hi),
                                  fmt=_PAIR_MARKERS[p % len(_PAIR_MARKERS)], color=color, ms=5, capsize=2, lw=1)
                handles.append((bar, f"{_short_pair_label(better, worse)}: fitted (95%)"))
            # zipflog's law carries an extra (ln n)^-gamma that an exponent cannot show: no bar there
            plain = rows["law_log_power"].fillna(0).to_numpy() == 0 if "law_log_power" in rows else np.ones(len(xs), bool)
            law_values = np.where(plain, rows["law_exponent"].to_numpy(dtype=np.float64), np.nan)
            law = axes[0, j].plot(xs, round_significant(law_values), "_", color=color, ms=16, mew=2)[0]
            handles.append((law, f"{_short_pair_label(better, worse)}: law"))
            heuristic = axes[0, j].plot(xs, plotted_column(rows, "heuristic_exponent"),
                                   _PAIR_MARKERS[p % len(_PAIR_MARKERS)], mfc="none", color=color, ms=8)[0]
            handles.append((heuristic, f"{_short_pair_label(better, worse)}: finite-n heuristic"))
        for ax in axes[:, j]:
            ax.axhline(0, color="0.3", lw=0.8)
            if "zipf" in discounts:
                ax.axvline(discounts.index("zipf"), color="0.5", lw=0.8, ls=":")
        axes[0, j].set_title(f"{label} top", fontsize=11)
        axes[1, j].set_xticks(x, [d.replace("power(beta=", "r^-").replace("zipflog(gamma=", "zipflog(").rstrip(")")
                                  if d.startswith("power") else d.replace("gamma=", "") for d in discounts],
                              rotation=40, ha="right", fontsize=9)
    low, high = axes[0, 0].get_ylim()
    axes[0, 0].set_ylim(max(low, -_EXPONENT_RANGE), min(high, _EXPONENT_RANGE))  # wide intervals run off the panel
    axes[0, 0].set_ylabel("exponent of the\nstandardized gap d")
    axes[1, 0].set_ylabel("exponent of the\nfailure rate 1 - P")
    legend_below(fig, handles, ncols=3)
    fig.suptitle("Growth in n across the bracket (dotted: 1/r)\nd ~ n^e grows above 0; the failure rate falls below 0",
                 fontsize=11)
    return fig


def trend_grid(pair_tables: Mapping[str, pd.DataFrame], discounts: Sequence[str], value: str,
               heuristic: pd.DataFrame | None = None) -> Figure:
    """Per model (row) and pair (column), against n (log): the failure rate ``1 - P(better strictly higher)``
    (``value="p_fail"``, log scale, Wilson 95% bands; a share of 0 drawn at its Wilson upper bound as an open
    triangle) or the standardized gap (``value="std_gap"``, with the finite-n heuristic dashed).

    Examples
    --------
    >>> t = pd.DataFrame(dict(discount="zipf", better="a", worse="b", n=[100, 1000], p_better=[0.8, 1.0],
    ...                       p_better_low=[0.7, 0.99], p_better_high=[0.9, 1.0], std_gap=[1.0, 2.0],
    ...                       std_gap_se=[0.1, 0.1]))
    >>> trend_grid({"m": t}, ["zipf"], "p_fail").axes[0].get_yscale()
    'log'
    """
    if value not in ("p_fail", "std_gap"):
        raise ValueError(f"value must be 'p_fail' or 'std_gap', got {value!r}")
    labels = list(pair_tables)
    first = pair_tables[labels[0]]
    pairs = list(dict.fromkeys(zip(first["better"], first["worse"])))
    fig = Figure(figsize=(4.2 * len(pairs), 3.0 * len(labels) + 1.1), layout="constrained")
    axes = fig.subplots(len(labels), len(pairs), sharex=True, squeeze=False)
    colors = decay_colors(discounts)
    handles = []
    for i, label in enumerate(labels):
        for j, (better, worse) in enumerate(pairs):
            ax = axes[i, j]
            for d in discounts:
                rows = select(pair_tables[label], discount=d, better=better, worse=worse)
                if value == "p_fail":
                    line = _draw_failure_rate(ax, rows, colors[d])
                else:
                    line = _draw_standardized_gap(ax, rows, colors[d])
                    if heuristic is not None:
                        h = select(heuristic, label=label, discount=d, better=better, worse=worse)
                        ax.plot(plotted_column(h, "n"), plotted_column(h, "heuristic_d"), "--", color=colors[d], lw=1)
                handles.append((line, d))
            ax.set_xscale("log")
            if value == "p_fail":
                ax.set_yscale("log")
                ax.set_ylim(bottom=max(ax.get_ylim()[0], 1e-4), top=1.0)
            else:
                ax.axhline(0, color="0.3", lw=0.8)
                ax.set_yscale("symlog", linthresh=0.03)
                ax.set_ylim(bottom=-0.05)
            if i == 0:
                ax.set_title(pair_label(better, worse), fontsize=10)
            if i == len(labels) - 1:
                ax.set_xlabel("n")
        quantity = "failure rate 1 - P" if value == "p_fail" else "standardized gap d"
        axes[i, 0].set_ylabel(f"{label} top\n{quantity}")
    if value == "p_fail":
        handles.append((Line2D([], [], color="0.3", marker="v", mfc="none", ls="none"),
                        "no failure: Wilson upper bound"))
        title = "Failure rate against n (log-log), Wilson 95% bands"
    else:
        handles.append((Line2D([], [], color="0.3", ls="--"), "finite-n heuristic"))
        title = "Standardized gap d = mean/sd against n (symmetric log scale, linear within ±0.03), 95% bands"
    legend_below(fig, handles, ncols=5)
    fig.suptitle(title, fontsize=11)
    return fig


def _draw_failure_rate(ax: Axes, rows: pd.DataFrame, color: Any) -> Line2D:
    """1 - P(better strictly higher) with its Wilson band; a share of 0 as an open triangle at its upper bound."""
    n = plotted_column(rows, "n")
    p = round_significant(1 - rows["p_better"].to_numpy(dtype=np.float64))
    low = round_significant(1 - rows["p_better_high"].to_numpy(dtype=np.float64))
    high = round_significant(1 - rows["p_better_low"].to_numpy(dtype=np.float64))
    seen = p > 0
    line = ax.plot(n[seen], p[seen], "o-", color=color, ms=3, lw=1.2)[0]
    ax.fill_between(n[seen], np.maximum(low[seen], 1e-6), high[seen], color=color, alpha=0.12, lw=0)
    if (~seen).any():
        ax.plot(n[~seen], high[~seen], "v", color=color, mfc="none", ms=5)
    return line


def _draw_standardized_gap(ax: Axes, rows: pd.DataFrame, color: Any) -> Line2D:
    """The standardized gap against n with its 95% band (1.96 standard errors)."""
    n = plotted_column(rows, "n")
    d_values, se = (plotted_column(rows, k) for k in ("std_gap", "std_gap_se"))
    line = ax.plot(n, d_values, "o-", color=color, ms=3, lw=1.2)[0]
    ax.fill_between(n, d_values - 1.96 * se, d_values + 1.96 * se, color=color, alpha=0.12, lw=0)
    return line


def gain_profile_panel(profiles: Mapping[str, Any], crossings: Sequence[float]) -> Figure:
    """Expected gain against the relative rank t (log scale) of each ranker, with the depths where they cross.

    ``profiles``: ranker spec -> callable g(t) (:func:`~ndcg_research.studies.simulation.theory.gain_profile`).

    Examples
    --------
    >>> fig = gain_profile_panel({"a": lambda t: 1 - t}, [0.1])
    >>> fig.axes[0].get_xlabel()
    'relative rank t (share of the list above the item)'
    """
    fig = Figure(figsize=(6.4, 3.8), layout="constrained")
    ax = fig.subplots()
    t = np.geomspace(1e-5, 1 - 1e-5, 800)
    for c, (name, g) in enumerate(profiles.items()):
        ax.plot(t, round_significant(g(t)), LINESTYLES[c % len(LINESTYLES)], color=f"C{c}", lw=1.6, label=name)
    for depth in crossings:
        ax.axvline(round_significant(depth), color="0.4", lw=0.8, ls=":")
        ax.annotate(f"t = {depth:.3g}", (depth, 0.02), xycoords=("data", "axes fraction"), rotation=90,
                    fontsize=8, ha="right", va="bottom")
    ax.set(xscale="log", xlabel="relative rank t (share of the list above the item)", ylabel="expected gain g(t)")
    fig.legend(loc="outside lower center", ncols=len(profiles), fontsize=9, frameon=False)
    fig.suptitle("Expected gain profiles (dotted: where they cross)", fontsize=11)
    return fig


def preference_panels(decisions: Mapping[str, pd.DataFrame], crossing_table: pd.DataFrame,
                      discounts: Sequence[str]) -> Figure:
    """Per model: the share of data sets on which the first ranker scores higher (Wilson 95%) against n, one line
    per discount; the finite-n theory's crossings as markers on the one-half line.

    Examples
    --------
    >>> t = pd.DataFrame(dict(first="a", second="b", discount="log2", n=[10, 100], p_first=[0.8, 0.3],
    ...                       p_first_low=[0.7, 0.2], p_first_high=[0.9, 0.4]))
    >>> c = pd.DataFrame(dict(first=["a"], second=["b"], discount=["log2"], crossing_n=[40.0]))
    >>> preference_panels({"m": t}, c, ["log2"]).axes[0].get_ylabel()
    'P(a scores higher)'
    """
    labels = list(decisions)
    first, second = decisions[labels[0]]["first"].iloc[0], decisions[labels[0]]["second"].iloc[0]
    fig = Figure(figsize=(5.2 * len(labels), 4.2), layout="constrained")
    axes = fig.subplots(1, len(labels), sharey=True, squeeze=False)[0]
    colors = decay_colors(discounts)
    handles = []
    for ax, label in zip(axes, labels):
        for d in discounts:
            rows = select(decisions[label], discount=d, first=first, second=second)
            n, p = plotted_column(rows, "n"), plotted_column(rows, "p_first")
            line = ax.plot(n, p, "o-", color=colors[d], ms=3, lw=1.2)[0]
            ax.fill_between(n, plotted_column(rows, "p_first_low"),
                            plotted_column(rows, "p_first_high"), color=colors[d], alpha=0.12, lw=0)
            handles.append((line, d))
            where = crossing_n(crossing_table, first, second, d)
            if math.isfinite(where):
                ax.plot([round_significant(where)], [0.5], "D", color=colors[d], ms=7, mec="k", mew=0.6)
        ax.axhline(0.5, color="0.5", lw=0.8, ls="--")
        ax.set(xscale="log", xlabel="n", ylim=(-0.03, 1.03), title=f"{label} top")
    axes[0].set_ylabel(f"P({first} scores higher)")
    handles.append((Line2D([], [], color="0.3", marker="D", mec="k", ls="none"), "expected crossing (finite-n theory)"))
    legend_below(fig, handles, ncols=4)
    fig.suptitle(f"{first} against {second}: share of data sets won by {first} (Wilson 95%)", fontsize=11)
    return fig


def crossing_growth_panel(family: pd.DataFrame, reliable: pd.DataFrame, n_max: int) -> Figure:
    """How far out the decision moves as the pair approaches equal first-order constants.

    ``family``: one row per (second ranker, discount) with ``abs_delta_c`` and ``crossing_n`` (finite-n
    theory; NaN beyond the computed range). ``reliable``: one row per (label, second ranker) with
    ``abs_delta_c`` and ``n_reliable`` (simulated, open markers; NaN: not reached by the largest simulated
    n, ``n_max``, drawn filled above the dotted line at ``n_max``).

    Examples
    --------
    >>> f = pd.DataFrame(dict(discount="log2", abs_delta_c=[0.05, 0.02], crossing_n=[200.0, 5000.0]))
    >>> r = pd.DataFrame(dict(label="m", abs_delta_c=[0.05, 0.02], n_reliable=[1000.0, float("nan")]))
    >>> crossing_growth_panel(f, r, 10**5).axes[0].get_xscale()
    'log'
    """
    fig = Figure(figsize=(6.4, 4.4), layout="constrained")
    ax = fig.subplots()
    discounts = list(dict.fromkeys(family["discount"]))
    colors = decay_colors(discounts)
    for d in discounts:
        rows = family[family["discount"] == d].sort_values("abs_delta_c")
        ax.plot(plotted_column(rows, "abs_delta_c"),
                plotted_column(rows, "crossing_n"), "o-", color=colors[d], ms=4, lw=1.3,
                label=f"{d}: expected crossing (theory)")
    above = 1.8 * n_max  # where "not reached within the simulated n" is drawn, above the line at n_max
    for m, (label, rows) in enumerate(reliable.groupby("label", sort=False)):
        x = plotted_column(rows, "abs_delta_c")
        y = plotted_column(rows, "n_reliable")
        seen, color, marker = np.isfinite(y), ("C3", "C1")[m % 2], _PAIR_MARKERS[m % len(_PAIR_MARKERS)]
        ax.plot(x[seen], y[seen], marker, color=color, ms=8, ls="none", mfc="none", mew=1.5,
                label=f"log2 decides reliably from n ({label} top, simulated)")
        if (~seen).any():
            ax.plot(x[~seen], np.full(int((~seen).sum()), above), marker, color=color, ms=7, ls="none",
                    label=f"not reliable within the simulated n ({label} top)")
    ax.axhline(n_max, color="0.5", lw=0.8, ls=":")
    ax.annotate(f"largest simulated n = {n_max}", (1.0, n_max), xycoords=("axes fraction", "data"), ha="right",
                va="bottom", fontsize=8, color="0.35")
    ax.set(xscale="log", yscale="log", xlabel="|c(gated) - c(noisy)|: difference of the first-order constants",
           ylabel="list length n")
    ax.invert_xaxis()
    fig.legend(loc="outside lower center", ncols=2, fontsize=8.5, frameon=False)
    fig.suptitle("As the first-order constants approach each other (right), the decision moves out", fontsize=11)
    return fig


def cutoff_exponent_grid(trend: pd.DataFrame, discounts: Sequence[str]) -> Figure:
    """Per model (row) and discount (column): the fitted exponent of the standardized gap of nDCG@n^a against a
    (markers with 95% intervals; a fixed k is a = 0), and the scaling law's exponent (lines), one colour per pair.
    The panels show exponents from -1 to 1: a wider interval (a gap shrunk into its noise) runs off them.

    Examples
    --------
    >>> t = pd.DataFrame(dict(model="probit", discount="log2", better="bayes", worse="noisy(sigma=1)",
    ...                       a=[0.0, 0.5], exponent=[-0.1, 0.2], exponent_low=[-0.2, 0.1], exponent_high=[0.0, 0.3]))
    >>> cutoff_exponent_grid(t, ["log2"]).axes[0].get_xlabel()
    'a (k = n^a; 0: fixed k)'
    """
    models = list(dict.fromkeys(trend["model"]))
    pairs = list(dict.fromkeys(zip(trend["better"], trend["worse"])))
    fig = Figure(figsize=(2.5 * len(discounts), 2.6 * len(models) + 1.2), layout="constrained")
    axes = fig.subplots(len(models), len(discounts), sharex=True, sharey=True, squeeze=False)
    grid = np.array([0.0, 1.0])  # the law is linear in a (its regime depends on beta and rho only)
    handles = []
    for i, model in enumerate(models):
        for j, d in enumerate(discounts):
            ax = axes[i, j]
            for p, (better, worse) in enumerate(pairs):
                rows = select(trend, model=model, discount=d, better=better, worse=worse).sort_values("a")
                a = rows["a"].to_numpy(dtype=np.float64) + 0.012 * (p - (len(pairs) - 1) / 2)
                c, lo, hi = (plotted_column(rows, k) for k in ("exponent", "exponent_low", "exponent_high"))
                bar = ax.errorbar(a, c, yerr=error_bar_lengths(c, lo, hi),
                                  fmt=_PAIR_MARKERS[p % len(_PAIR_MARKERS)], color=f"C{p}", ms=4, capsize=2, lw=1)
                law = [scaling.gap_exponent(model, better, worse, d, float(v)).exponent for v in grid]
                line = ax.plot(grid, round_significant(law), LINESTYLES[p % len(LINESTYLES)], color=f"C{p}", lw=1)[0]
                name = _short_pair_label(better, worse)
                handles += [(bar, f"{name}: fitted (95%)"), (line, f"{name}: law")]
            _label_grid_panel(ax, i, len(models), d, "a (k = n^a; 0: fixed k)")
        axes[i, 0].set_ylabel(f"{model}\nexponent of d", fontsize=9)
    axes[0, 0].set_ylim(-_EXPONENT_RANGE, _EXPONENT_RANGE)  # shared: wide intervals run off the panels
    legend_below(fig, handles, ncols=2)
    fig.suptitle("nDCG@n^a: growth exponent of the standardized gap against a\n(above 0 the gap grows with n)",
                 fontsize=11)
    return fig


def cutoff_gap_grid(pair_table: pd.DataFrame, discounts: Sequence[str], better: str, worse: str) -> Figure:
    """Per model (row) and discount (column): the standardized gap of one pair against n, one line per cut-off rule.

    Examples
    --------
    >>> t = pd.DataFrame(dict(model="probit", rule="fixed(k=10)", discount="log2", better="a", worse="b",
    ...                       n=[100, 1000], std_gap=[0.5, 0.4], std_gap_se=[0.05, 0.05]))
    >>> cutoff_gap_grid(t, ["log2"], "a", "b").axes[0].get_xscale()
    'log'
    """
    models = list(dict.fromkeys(pair_table["model"]))
    rules = list(dict.fromkeys(pair_table["rule"]))
    fig = Figure(figsize=(2.5 * len(discounts), 2.6 * len(models) + 1.1), layout="constrained")
    axes = fig.subplots(len(models), len(discounts), sharex=True, squeeze=False)
    colors = decay_colors(rules)
    handles = []
    for i, model in enumerate(models):
        for j, d in enumerate(discounts):
            ax: Axes = axes[i, j]
            for rule in rules:
                rows = select(pair_table, model=model, rule=rule, discount=d, better=better, worse=worse)
                handles.append((_draw_standardized_gap(ax, rows, colors[rule]), rule))
            ax.set_xscale("log")
            ax.set_yscale("symlog", linthresh=0.1)
            _label_grid_panel(ax, i, len(models), d, "n")
        axes[i, 0].set_ylabel(f"{model}\nstandardized gap d", fontsize=9)
    legend_below(fig, handles, ncols=4)
    fig.suptitle(f"{pair_label(better, worse)}: standardized gap of nDCG@k\nagainst n per cut-off rule (95% bands)",
                 fontsize=11)
    return fig
