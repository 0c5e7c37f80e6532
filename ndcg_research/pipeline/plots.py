"""Plots and table display for the theory notebooks (02-04); imported only by notebooks.

Every function takes the tidy tables (:class:`pandas.DataFrame`) of
:mod:`ndcg_research.studies.sweeps` / :func:`ndcg_research.studies.theory.theory_table`
and returns a Matplotlib figure, or a table rounded for reading, so the notebooks
hold only parameters, calls and narrative. This module imports Matplotlib.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from ..studies import theory
from ..core.discounts import parse_discount

__all__ = [
    "select",
    "discount_panels",
    "eps_panel",
    "convergence_grid",
    "slow_convergence_grid",
    "pair_grid",
    "gap_over_eps_grid",
    "pivot",
    "rounded",
]

_MARKERS = "osD^vP*X"


def select(table: pd.DataFrame, **where: Any) -> pd.DataFrame:
    """The rows whose columns equal the given values, sorted by n when there is an n column.

    Examples
    --------
    >>> select(pd.DataFrame({"n": [2, 1, 1], "r": ["a", "a", "b"]}), r="a")["n"].tolist()
    [1, 2]
    """
    mask = np.ones(len(table), dtype=bool)
    for column, value in where.items():
        mask &= (table[column] == value).to_numpy()
    out = table[mask]
    return out.sort_values("n", kind="stable") if "n" in out else out


def _grid(count: int, cols: int, size: tuple[float, float] = (3.3, 2.7)) -> tuple[Figure, np.ndarray]:
    rows = math.ceil(count / cols)
    fig = Figure(figsize=(size[0] * cols, size[1] * rows + 0.6), layout="constrained")
    axes = np.atleast_1d(fig.subplots(rows, cols, squeeze=False)).ravel()
    for ax in axes[count:]:
        ax.set_visible(False)
    return fig, axes


def _title(spec: str) -> str:
    return f"{spec}  ({parse_discount(spec).decay})"


def discount_panels(discounts: Sequence[str], n_max: int) -> Figure:
    """Left: D(r) for r = 1..n_max (log-log). Right: share of the total discount mass in the top r ranks.

    Examples
    --------
    >>> fig = discount_panels(["log2", "zipf"], 1000)
    >>> isinstance(fig, Figure), len(fig.axes)
    (True, 2)
    """
    fig = Figure(figsize=(11, 4.2), layout="constrained")
    left, right = fig.subplots(1, 2)
    r = np.unique(np.geomspace(1, n_max, 400).astype(np.int64))
    for i, spec in enumerate(discounts):
        d = parse_discount(spec)
        full = d(np.arange(1, n_max + 1, dtype=np.float64))
        cum = np.cumsum(full)
        style = dict(label=_title(spec), marker=_MARKERS[i % len(_MARKERS)], markevery=0.12, ms=4)
        left.plot(r, np.maximum(full[r - 1], 1e-300), **style)
        right.plot(r, cum[r - 1] / cum[-1], **style)
    left.set(xscale="log", yscale="log", ylim=(1e-12, 2), xlabel="rank r", ylabel="D(r)",
             title="discount D(r)")
    right.set(xscale="log", xlabel="rank r", ylabel=f"sum D(1..r) / sum D(1..{n_max:.0e})",
              title=f"share of the discount mass in the top r (n = {n_max:.0e})")
    right.legend(fontsize=8, loc="upper left")
    return fig


def eps_panel(discounts: Sequence[str], n_max: int) -> Figure:
    """eps_D(n) = -n D'(n)/D(n): analytic lines, numerical derivative as markers.

    Examples
    --------
    >>> fig = eps_panel(["log2", "loglog"], 10**4)
    >>> isinstance(fig, Figure), len(fig.axes[0].lines)   # per discount a line and its markers, plus 1 / ln n
    (True, 5)
    """
    fig = Figure(figsize=(7, 4.2), layout="constrained")
    ax = fig.subplots()
    n = np.geomspace(10, n_max, 200)
    marks = np.geomspace(10, n_max, 12)
    for i, spec in enumerate(discounts):
        line, = ax.plot(n, theory.eps(spec, n), label=spec)
        ax.plot(marks, theory.eps_numeric(spec, marks), _MARKERS[i % len(_MARKERS)], color=line.get_color(),
                ms=5, mfc="none")
    ax.plot(n, 1 / np.log(n), "k:", label="1 / ln n")
    ax.set(xscale="log", yscale="log", xlabel="n", ylabel="eps_D(n)",
           title="eps_D(n) = -n D'(n) / D(n): lines analytic, markers numerical")
    ax.legend(fontsize=8)
    return fig


def convergence_grid(ranker_table: pd.DataFrame, theory_table: pd.DataFrame,
                     discounts: Sequence[str], rankers: Sequence[str], title: str) -> Figure:
    """Mean nDCG vs n with 95% intervals, one panel per discount; theory: finite-n (line), limit (dotted).

    Examples
    --------
    >>> from ndcg_research.studies.sweeps import Sweep, run_sweep
    >>> s = Sweep.build("probit", ns=[20, 40], replicates=4, seed=0, rankers=["bayes", "random"],
    ...                 discounts=["log2", "zipf"], pairs=[("bayes", "random")])
    >>> result = run_sweep(s)
    >>> th = theory.theory_table("probit", ["bayes", "random"], ["log2", "zipf"], [20, 40])
    >>> fig = convergence_grid(result.ranker_table(), th, ["log2", "zipf"], ["bayes", "random"], "probit")
    >>> isinstance(fig, Figure), sum(ax.get_visible() for ax in fig.axes)   # one panel per discount
    (True, 2)
    """
    fig, axes = _grid(len(discounts), 4)
    for ax, d in zip(axes, discounts):
        for i, r in enumerate(rankers):
            rows = select(ranker_table, discount=d, ranker=r)
            n, mean = rows["n"].to_numpy(float), rows["mean"].to_numpy()
            err = np.stack([mean - rows["ci_low"].to_numpy(), rows["ci_high"].to_numpy() - mean])
            bar = ax.errorbar(n, mean, yerr=np.maximum(np.nan_to_num(err), 0.0), fmt=_MARKERS[i % len(_MARKERS)], ms=4,
                              capsize=2, label=r, lw=1)
            th = select(theory_table, discount=d, ranker=r)
            if len(th):
                ax.plot(th["n"].to_numpy(float), th["finite_n"], "-", color=bar[0].get_color(), lw=1, alpha=0.8)
                ax.axhline(th["limit"].iloc[0], color=bar[0].get_color(), ls=":", lw=1)
        ax.set(xscale="log", title=_title(d), xlabel="n")
        if parse_discount(d).decay == "constant":  # exactly 1: keep the axis from zooming into rounding
            ax.set_ylim(0.9, 1.05)
    axes[0].set_ylabel("mean nDCG")
    axes[0].legend(fontsize=7)
    fig.suptitle(f"{title}: markers simulation (95% CI), lines finite-n theory, dotted the limit")
    return fig


def slow_convergence_grid(ranker_tables: Mapping[str, pd.DataFrame], theory_tables: Mapping[str, pd.DataFrame],
                          discounts: Sequence[str], rankers: Sequence[str]) -> Figure:
    """1 - mean nDCG vs n (log-log) for slowly varying discounts: simulation, eps_D(n) c_f (dashed), finite-n (line).

    Examples
    --------
    >>> from ndcg_research.studies.sweeps import Sweep, run_sweep
    >>> s = Sweep.build("probit", ns=[20, 40], replicates=4, seed=0, rankers=["bayes", "random"],
    ...                 discounts=["log2", "zipf"], pairs=[("bayes", "random")])
    >>> result = run_sweep(s)
    >>> th = theory.theory_table("probit", ["bayes", "random"], ["log2", "zipf"], [20, 40])
    >>> fig = slow_convergence_grid({"probit": result.ranker_table()}, {"probit": th}, ["log2"], ["bayes", "random"])
    >>> isinstance(fig, Figure), fig.axes[0].get_title()
    (True, 'probit: log2')
    """
    models = list(ranker_tables)
    fig, axes = _grid(len(models) * len(discounts), len(discounts))
    for m_i, label in enumerate(models):
        for d_i, d in enumerate(discounts):
            ax = axes[m_i * len(discounts) + d_i]
            for i, r in enumerate(rankers):
                rows = select(ranker_tables[label], discount=d, ranker=r)
                bar = ax.plot(rows["n"].to_numpy(float), 1 - rows["mean"], _MARKERS[i % len(_MARKERS)], ms=4, label=r)
                th = select(theory_tables[label], discount=d, ranker=r)
                tn = th["n"].to_numpy(float)
                color = bar[0].get_color()
                ax.plot(tn, 1 - th["finite_n"], "-", color=color, lw=1)
                ax.plot(tn, th["eps"] * th["c"], "--", color=color, lw=1)
            ax.set(xscale="log", yscale="log", title=f"{label}: {d}", xlabel="n")
    axes[0].set_ylabel("1 - mean nDCG")
    axes[0].legend(fontsize=7)
    fig.suptitle("Slowly varying discounts: 1 - nDCG (markers), finite-n theory (line), eps_D(n) c_f (dashed)")
    return fig


def pair_grid(pair_table: pd.DataFrame, discounts: Sequence[str], pairs: Sequence[Sequence[str]],
              value: str, title: str, *, log_y: bool = False) -> Figure:
    """One panel per discount: ``value`` ("p_better" with Wilson intervals and p_tie dashed, or "std_gap") vs n.

    Examples
    --------
    >>> from ndcg_research.studies.sweeps import Sweep, run_sweep
    >>> s = Sweep.build("probit", ns=[20, 40], replicates=4, seed=0, rankers=["bayes", "random"],
    ...                 discounts=["log2", "zipf"], pairs=[("bayes", "random")])
    >>> result = run_sweep(s)
    >>> th = theory.theory_table("probit", ["bayes", "random"], ["log2", "zipf"], [20, 40])
    >>> fig = pair_grid(result.pair_table(), ["log2", "zipf"], [("bayes", "random")], "p_better", "P(bayes wins)")
    >>> isinstance(fig, Figure), sum(ax.get_visible() for ax in fig.axes)
    (True, 2)
    """
    fig, axes = _grid(len(discounts), 4)
    for ax, d in zip(axes, discounts):
        for i, (better, worse) in enumerate(pairs):
            rows = select(pair_table, discount=d, better=better, worse=worse)
            n = rows["n"].to_numpy(float)
            label = f"{better} > {worse}"
            if value == "p_better":
                p = rows["p_better"].to_numpy()
                err = np.maximum(np.stack([p - rows["p_better_low"].to_numpy(), rows["p_better_high"].to_numpy() - p]), 0.0)
                bar = ax.errorbar(n, p, yerr=err, fmt=_MARKERS[i % len(_MARKERS)] + "-", ms=4, capsize=2, lw=1,
                                  label=label)
                ties = rows["p_tie"].to_numpy()
                if np.any(ties > 0):
                    ax.plot(n, ties, "--", color=bar[0].get_color(), lw=1)
            else:
                ax.plot(n, rows[value].to_numpy(float), _MARKERS[i % len(_MARKERS)] + "-", ms=4, lw=1, label=label)
        ax.set(xscale="log", title=_title(d), xlabel="n")
        if log_y:  # symmetric log: keeps the sign (a negative gap = the worse ranker wins on average)
            ax.set_yscale("symlog", linthresh=0.1)
            ax.axhline(0, color="grey", lw=0.8, ls=":")
        if value != "p_better" and not np.isfinite(select(pair_table, discount=d)[value].to_numpy(float)).any():
            ax.text(0.5, 0.5, "undefined: every gap is 0", transform=ax.transAxes, ha="center", va="center")
        if value == "p_better":
            ax.set_ylim(-0.03, 1.03)
            ax.axhline(0.5, color="grey", lw=0.8, ls=":")
    axes[0].legend(fontsize=7)
    fig.suptitle(title)
    return fig


def gap_over_eps_grid(pair_tables: Mapping[str, pd.DataFrame], theory_tables: Mapping[str, pd.DataFrame],
                      discounts: Sequence[str], pairs: Sequence[Sequence[str]], title: str) -> Figure:
    """Mean gap / eps_D(n) vs n (one row of panels per model, one column per slowly varying discount),
    with ``c_worse - c_better`` (dashed) and the finite-n theory (line).

    Examples
    --------
    >>> from ndcg_research.studies.sweeps import Sweep, run_sweep
    >>> s = Sweep.build("probit", ns=[20, 40], replicates=4, seed=0, rankers=["bayes", "random"],
    ...                 discounts=["log2", "zipf"], pairs=[("bayes", "random")])
    >>> result = run_sweep(s)
    >>> th = theory.theory_table("probit", ["bayes", "random"], ["log2", "zipf"], [20, 40])
    >>> fig = gap_over_eps_grid({"probit": result.pair_table()}, {"probit": th}, ["log2"], [("bayes", "random")],
    ...                         "gap / eps")
    >>> isinstance(fig, Figure), fig.axes[0].get_ylabel()
    (True, 'mean gap / eps_D(n)')
    """
    models = list(pair_tables)
    fig, axes = _grid(len(models) * len(discounts), len(discounts), size=(3.8, 2.8))
    for m_i, label in enumerate(models):
        for d_i, d in enumerate(discounts):
            ax = axes[m_i * len(discounts) + d_i]
            for i, (better, worse) in enumerate(pairs):
                rows = select(pair_tables[label], discount=d, better=better, worse=worse)
                eps = rows["eps"].to_numpy()
                scaled = rows["mean_gap"].to_numpy() / eps
                err = np.stack([scaled - rows["gap_ci_low"].to_numpy() / eps, rows["gap_ci_high"].to_numpy() / eps - scaled])
                bar = ax.errorbar(rows["n"].to_numpy(float), scaled, yerr=np.maximum(np.nan_to_num(err), 0.0),
                                  fmt=_MARKERS[i % len(_MARKERS)], ms=4, capsize=2, lw=1, label=f"{better} > {worse}")
                th = theory_tables[label]
                tb, tw = select(th, discount=d, ranker=better), select(th, discount=d, ranker=worse)
                color = bar[0].get_color()
                ax.plot(tb["n"].to_numpy(float), (tb["finite_n"].to_numpy() - tw["finite_n"].to_numpy()) / tb["eps"].to_numpy(),
                        "-", color=color, lw=1)
                ax.axhline(tw["c"].iloc[0] - tb["c"].iloc[0], color=color, ls="--", lw=1)
            ax.set(xscale="log", title=f"{label}: {d}", xlabel="n")
    axes[0].set_ylabel("mean gap / eps_D(n)")
    axes[0].legend(fontsize=7)
    fig.suptitle(title)
    return fig


def pivot(table: pd.DataFrame, index: str | Sequence[str], columns: str | Sequence[str], values: str) -> pd.DataFrame:
    """A wide view of a tidy table: one row per ``index`` value(s), one column per ``columns`` value(s).

    Rows and columns keep their order of first appearance (not sorted).

    Examples
    --------
    >>> t = pd.DataFrame({"m": ["b", "b", "a"], "d": ["x", "y", "x"], "v": [0.5, 0.7, 0.1]})
    >>> wide = pivot(t, "m", "d", "v")
    >>> wide.index.tolist(), wide.columns.tolist(), wide.loc["b"].tolist()
    (['b', 'a'], ['x', 'y'], [0.5, 0.7])
    """
    return table.pivot_table(index=index, columns=columns, values=values, aggfunc="first", sort=False)


def rounded(table: pd.DataFrame, digits: int = 3) -> pd.DataFrame:
    """The table with its float columns rounded to ``digits`` decimals, for reading (and for nbval).

    A value that rounds to zero is shown without a sign: its sign can flip with the last
    bit of a sum (BLAS results depend on the machine), and nbval compares the displayed text.

    Examples
    --------
    >>> rounded(pd.DataFrame({"a": ["x", "y"], "b": [0.12345, -1e-17]}))
       a      b
    0  x  0.123
    1  y  0.000
    """
    out = table.copy()
    for column in out.columns:
        if pd.api.types.is_float_dtype(out[column]):
            out[column] = out[column].round(digits) + 0.0  # -0.0 + 0.0 is 0.0
    return out
