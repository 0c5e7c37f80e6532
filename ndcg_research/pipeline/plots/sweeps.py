"""Figures of the simulation sweeps against n (notebooks 03, 04 and 05): convergence of the mean, how
often the better ranker wins, the standardized gap, and the same with a cut-off k."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.lines import Line2D

from ...core.discounts import parse_discount
from ...studies.simulation import finite_n
from .style import (MARKERS, UNDEFINED_LABEL, discount_title, interval_markers, label_grid_edges, label_rows,
                    legend_below, log_ticks_1_2_5, mark_undefined, model_panel_grid, pair_label, panel_grid,
                    plotted_column, round_significant, select)

__all__ = ["convergence_grid", "slow_convergence_grid", "pair_grid", "gap_over_eps_grid", "cutoff_values_grid",
           "cutoff_pair_grid", "ndcg_by_k_panels"]


def convergence_grid(ranker_table: pd.DataFrame, theory_table: pd.DataFrame,
                     discounts: Sequence[str], rankers: Sequence[str], title: str) -> Figure:
    """Mean nDCG vs n with 95% intervals, one panel per discount; theory: finite-n (line), limit (dotted).

    Examples
    --------
    >>> from ndcg_research.studies.simulation.sweeps import Sweep, run_sweep
    >>> s = Sweep.build("probit", ns=[20, 40], replicates=4, seed=0, rankers=["bayes", "random"],
    ...                 discounts=["log2", "zipf"], pairs=[("bayes", "random")])
    >>> th = finite_n.theory_table("probit", s.rankers, s.discounts, s.ns)
    >>> fig = convergence_grid(run_sweep(s).ranker_table(), th, s.discounts, s.rankers, "probit")
    >>> sum(ax.get_visible() for ax in fig.axes), fig.axes[0].get_ylabel()
    (2, 'mean nDCG')
    """
    cols = min(4, len(discounts))
    fig, axes = panel_grid(len(discounts), cols)
    handles = []
    for ax, d in zip(axes, discounts):
        for i, r in enumerate(rankers):
            rows = select(ranker_table, discount=d, ranker=r)
            mean = plotted_column(rows, "mean")
            bar = interval_markers(ax, plotted_column(rows, "n"), mean, plotted_column(rows, "ci_low"),
                                   plotted_column(rows, "ci_high"), i)
            handles.append((bar, r))
            th = select(theory_table, discount=d, ranker=r)
            if len(th):
                ax.plot(plotted_column(th, "n"), plotted_column(th, "finite_n"), "-", color=f"C{i}", lw=1, alpha=0.8)
                ax.axhline(round_significant(th["limit"].iloc[0]), color=f"C{i}", ls=":", lw=1)
        ax.set(xscale="log", title=discount_title(d), xlabel="n")
        if parse_discount(d).decay == "constant":  # exactly 1: keep the axis from zooming into rounding
            ax.set_ylim(0.9, 1.05)
    label_rows(axes, cols, "mean nDCG")
    handles += [(Line2D([], [], color="0.3", lw=1), "finite-n theory"),
                (Line2D([], [], color="0.3", ls=":", lw=1), "limit")]
    legend_below(fig, handles, ncols=len(rankers) + 2)
    fig.suptitle(f"{title}: markers simulation (95% CI), lines finite-n theory, dotted the limit")
    return fig


def slow_convergence_grid(ranker_tables: Mapping[str, pd.DataFrame], theory_tables: Mapping[str, pd.DataFrame],
                          discounts: Sequence[str], rankers: Sequence[str]) -> Figure:
    """1 - mean nDCG vs n (log-log, 95% intervals) for slowly varying discounts, with the finite-n theory
    (line) and the first-order eps_D(n) c_f (dashed).

    Examples
    --------
    >>> means = pd.DataFrame({"discount": "log2", "ranker": "a", "n": [10, 100], "mean": [0.90, 0.95],
    ...                       "ci_low": [0.89, 0.94], "ci_high": [0.91, 0.96]})
    >>> th = pd.DataFrame({"discount": "log2", "ranker": "a", "n": [10, 100], "finite_n": [0.90, 0.95],
    ...                    "eps": [0.4, 0.2], "c": 0.2})
    >>> fig = slow_convergence_grid({"m": means}, {"m": th}, ["log2"], ["a"])
    >>> fig.axes[0].get_title(), fig.axes[0].get_ylabel()
    ('m: log2', '1 - mean nDCG')
    """
    fig, axes, panels = model_panel_grid(list(ranker_tables), discounts, size=(3.6, 2.9))
    handles = []
    for ax, label, d in panels:
        for i, r in enumerate(rankers):
            rows = select(ranker_tables[label], discount=d, ranker=r)
            gap = 1 - plotted_column(rows, "mean")
            bar = interval_markers(ax, plotted_column(rows, "n"), gap, 1 - plotted_column(rows, "ci_high"),
                                   1 - plotted_column(rows, "ci_low"), i)
            handles.append((bar, r))
            th = select(theory_tables[label], discount=d, ranker=r)
            tn = plotted_column(th, "n")
            ax.plot(tn, round_significant(1 - th["finite_n"].to_numpy()), "-", color=f"C{i}", lw=1)
            ax.plot(tn, round_significant(th["eps"].to_numpy() * th["c"].to_numpy()), "--", color=f"C{i}", lw=1)
        ax.set(xscale="log", yscale="log", title=f"{label}: {d}", xlabel="n")
        log_ticks_1_2_5(ax)
    label_rows(axes, len(discounts), "1 - mean nDCG")
    handles += [(Line2D([], [], color="0.3", lw=1), "finite-n theory"),
                (Line2D([], [], color="0.3", ls="--", lw=1), "first order eps_D(n) c_f")]
    legend_below(fig, handles, ncols=4)
    fig.suptitle("Slowly varying discounts: 1 - nDCG (markers, 95% CI), finite-n theory (line), eps_D(n) c_f (dashed)")
    return fig


def pair_grid(pair_table: pd.DataFrame, discounts: Sequence[str], pairs: Sequence[Sequence[str]],
              value: str, title: str) -> Figure:
    """One panel per discount: ``value`` against n for every pair of rankers.

    ``value="p_better"``: P(better scores strictly higher) with Wilson intervals and the
    share of exact ties (dashed). ``value="std_gap"``: the standardized gap
    mean(gap)/sd(gap) on a symmetric log scale (linear within ±0.1, so negative gaps
    keep their sign); undefined values (every gap 0) are marked, not plotted.

    Examples
    --------
    >>> from ndcg_research.studies.simulation.sweeps import Sweep, run_sweep
    >>> s = Sweep.build("probit", ns=[20, 40], replicates=4, seed=0, rankers=["bayes", "random"],
    ...                 discounts=["log2", "none"], pairs=[("bayes", "random")])
    >>> table = run_sweep(s).pair_table()
    >>> fig = pair_grid(table, ["log2", "none"], [("bayes", "random")], "std_gap", "standardized gap")
    >>> fig.axes[0].get_ylabel(), [t.get_text() for t in fig.axes[1].texts]
    ('mean(gap) / sd(gap)', ['undefined: every gap is 0'])
    """
    if value not in ("p_better", "std_gap"):
        raise ValueError(f"value must be 'p_better' or 'std_gap', got {value!r}")
    cols = min(4, len(discounts))
    fig, axes = panel_grid(len(discounts), cols)
    handles = []
    for ax, d in zip(axes, discounts):
        low_data = 0.0
        for i, (better, worse) in enumerate(pairs):
            rows = select(pair_table, discount=d, better=better, worse=worse)
            n = plotted_column(rows, "n")
            label = pair_label(better, worse)
            if value == "p_better":
                p = plotted_column(rows, "p_better")
                bar = interval_markers(ax, n, p, plotted_column(rows, "p_better_low"),
                                       plotted_column(rows, "p_better_high"), i, "-")
                ties = plotted_column(rows, "p_tie")
                if np.any(ties > 0):
                    handles.append((ax.plot(n, ties, "--", color=f"C{i}", lw=1)[0], "share of exact ties (dashed)"))
            else:
                y = plotted_column(rows, value)
                bar = ax.plot(n, y, MARKERS[i % len(MARKERS)] + "-", ms=4, lw=1, color=f"C{i}")[0]
                if np.isfinite(y).any():
                    low_data = min(low_data, float(np.nanmin(y)))
                handles += [(mark, UNDEFINED_LABEL) for mark in mark_undefined(ax, n, y)]
            handles.append((bar, label))
        ax.set(xscale="log", title=discount_title(d), xlabel="n")
        if value == "p_better":
            ax.set_ylim(-0.03, 1.03)
            ax.axhline(0.5, color="grey", lw=0.8, ls=":")
        else:
            # symlog keeps the sign (a negative gap: the worse ranker wins on average); below 0 only as much
            # room as the data need, so panels whose gaps are all positive do not waste half their height.
            ax.set_yscale("symlog", linthresh=0.1)
            ax.axhline(0, color="grey", lw=0.8, ls=":")
            if np.isfinite(select(pair_table, discount=d)[value].to_numpy(float)).any():
                ax.set_ylim(bottom=-0.05 if low_data >= 0 else 1.5 * low_data)
            else:
                ax.set_ylim(-1, 1)
                ax.text(0.5, 0.75, "undefined: every gap is 0", transform=ax.transAxes, ha="center", va="center")
    label_rows(axes, cols, "P(better strictly higher)" if value == "p_better" else "mean(gap) / sd(gap)")
    legend_below(fig, handles, ncols=3)
    fig.suptitle(title)
    return fig


def gap_over_eps_grid(pair_tables: Mapping[str, pd.DataFrame], theory_tables: Mapping[str, pd.DataFrame],
                      discounts: Sequence[str], pairs: Sequence[Sequence[str]], title: str) -> Figure:
    """Mean gap / eps_D(n) vs n on a log scale (one row of panels per model, one column per slowly
    varying discount), with ``c_worse - c_better`` (dashed) and the finite-n theory (line).

    Examples
    --------
    >>> gaps = pd.DataFrame({"discount": "log2", "better": "a", "worse": "b", "n": [10, 100], "eps": [0.4, 0.2],
    ...                      "mean_gap": [0.04, 0.02], "gap_ci_low": [0.03, 0.015], "gap_ci_high": [0.05, 0.025]})
    >>> th = pd.DataFrame({"discount": "log2", "ranker": ["a", "a", "b", "b"], "n": [10, 100, 10, 100],
    ...                    "finite_n": [0.95, 0.97, 0.91, 0.95], "eps": [0.4, 0.2, 0.4, 0.2], "c": [0.1, 0.1, 0.2, 0.2]})
    >>> fig = gap_over_eps_grid({"m": gaps}, {"m": th}, ["log2"], [("a", "b")], "gap / eps")
    >>> fig.axes[0].get_ylabel(), fig.axes[0].get_yscale()
    ('mean gap / eps_D(n)', 'log')
    """
    fig, axes, panels = model_panel_grid(list(pair_tables), discounts, size=(3.8, 2.9))
    handles = []
    for ax, label, d in panels:
        for i, (better, worse) in enumerate(pairs):
            rows = select(pair_tables[label], discount=d, better=better, worse=worse)
            eps = rows["eps"].to_numpy()
            scaled = round_significant(rows["mean_gap"].to_numpy() / eps)
            bar = interval_markers(ax, plotted_column(rows, "n"), scaled,
                                   round_significant(rows["gap_ci_low"].to_numpy() / eps),
                                   round_significant(rows["gap_ci_high"].to_numpy() / eps), i)
            handles.append((bar, pair_label(better, worse)))
            th = theory_tables[label]
            tb, tw = select(th, discount=d, ranker=better), select(th, discount=d, ranker=worse)
            scaled_theory = (tb["finite_n"].to_numpy() - tw["finite_n"].to_numpy()) / tb["eps"].to_numpy()
            ax.plot(plotted_column(tb, "n"), round_significant(scaled_theory),
                    "-", color=f"C{i}", lw=1)
            ax.axhline(round_significant(tw["c"].iloc[0] - tb["c"].iloc[0]), color=f"C{i}", ls="--", lw=1)
        ax.set_yscale("log", nonpositive="mask")
        ax.set(xscale="log", title=f"{label}: {d}", xlabel="n")
        log_ticks_1_2_5(ax)
    label_rows(axes, len(discounts), "mean gap / eps_D(n)")
    handles += [(Line2D([], [], color="0.3", lw=1), "finite-n theory"),
                (Line2D([], [], color="0.3", ls="--", lw=1), "first order c_worse - c_better")]
    legend_below(fig, handles, ncols=3)
    fig.suptitle(title)
    return fig


def cutoff_values_grid(mean_table: pd.DataFrame, model: str, rules: Sequence[str], discounts: Sequence[str],
                       rankers: Sequence[str]) -> Figure:
    """Mean nDCG@k against n with 95% bands: one row per cut-off rule, one column per discount.

    Examples
    --------
    >>> from ndcg_research.studies.simulation.cutoff import CutoffSweep
    >>> from ndcg_research.studies.simulation.sweeps import run_sweep
    >>> s = CutoffSweep.build("probit", ns=[20, 40], replicates=3, seed=0, rankers=["bayes", "random"],
    ...                       discounts=["log2"], rules=["fixed(k=5)", "all"], pairs=[])
    >>> fig = cutoff_values_grid(run_sweep(s).ranker_table(), "probit", s.rules, s.discounts, s.rankers)
    >>> fig.axes[0].get_ylabel()
    'fixed(k=5)\\nmean nDCG@k'
    """
    fig = Figure(figsize=(3.1 * len(discounts), 2.5 * len(rules) + 0.9), layout="constrained")
    axes = fig.subplots(len(rules), len(discounts), sharex=True, sharey=True, squeeze=False)
    handles = []
    for i, rule in enumerate(rules):
        for j, d in enumerate(discounts):
            ax = axes[i, j]
            for c, r in enumerate(rankers):
                rows = select(mean_table, model=model, rule=rule, discount=d, ranker=r)
                n = plotted_column(rows, "n")
                line, = ax.plot(n, plotted_column(rows, "mean"), marker="o", ms=3, color=f"C{c}")
                ax.fill_between(n, plotted_column(rows, "ci_low"), plotted_column(rows, "ci_high"), color=f"C{c}",
                                alpha=0.2, lw=0)
                handles.append((line, r))
            ax.set_xscale("log")
    label_grid_edges(axes, discounts, [f"{rule}\nmean nDCG@k" for rule in rules])
    legend_below(fig, handles)
    fig.suptitle(f"Mean nDCG@k vs n, model {model} (95% intervals)", fontsize=11)
    return fig


def cutoff_pair_grid(pair_table: pd.DataFrame, models: Sequence[str], rules: Sequence[str],
                     discounts: Sequence[str], better: str, worse: str) -> Figure:
    """P(better scores strictly higher) against n with Wilson intervals (filled markers) and the share
    of exact ties (hollow markers, dotted): one row per model, one column per cut-off rule.

    The discounts are drawn side by side (each shifted a little along n) so that equal values do
    not hide one another.

    Examples
    --------
    >>> from ndcg_research.studies.simulation.cutoff import CutoffSweep
    >>> from ndcg_research.studies.simulation.sweeps import run_sweep
    >>> s = CutoffSweep.build("probit", ns=[20, 40], replicates=3, seed=0, rankers=["bayes", "random"],
    ...                       discounts=["log2", "zipf"], rules=["all"], pairs=[("bayes", "random")])
    >>> fig = cutoff_pair_grid(run_sweep(s).pair_table(), ["probit"], s.rules, s.discounts, "bayes", "random")
    >>> fig.axes[0].get_ylabel()
    'probit\\nP(bayes > random)'
    """
    fig = Figure(figsize=(3.3 * len(rules), 2.9 * len(models) + 0.9), layout="constrained")
    axes = fig.subplots(len(models), len(rules), sharex=True, sharey=True, squeeze=False)
    shift = 10 ** (0.045 * (np.arange(len(discounts)) - (len(discounts) - 1) / 2))  # side by side on a log axis
    handles, tie_handle = [], []
    for i, m in enumerate(models):
        for j, rule in enumerate(rules):
            ax = axes[i, j]
            for c, d in enumerate(discounts):
                rows = select(pair_table, model=m, better=better, worse=worse, rule=rule, discount=d)
                n, p = plotted_column(rows, "n") * shift[c], plotted_column(rows, "p_better")
                bar = interval_markers(ax, n, p, plotted_column(rows, "p_better_low"),
                                       plotted_column(rows, "p_better_high"), c, "-")
                handles.append((bar, d))
                ties = plotted_column(rows, "p_tie")
                if ties.max() > 0:
                    ax.plot(n, ties, MARKERS[c % len(MARKERS)] + ":", ms=4, mfc="none", color=f"C{c}", lw=1)
                    tie_handle = [(Line2D([], [], color="0.3", marker="o", mfc="none", ls=":"), "share of exact ties")]
            ax.axhline(0.5, color="0.5", lw=0.8, ls="--")
            ax.set(xscale="log", ylim=(-0.03, 1.03))
    label_grid_edges(axes, rules, [f"{m}\nP({better} > {worse})" for m in models])
    handles += tie_handle
    legend_below(fig, handles)
    fig.suptitle(f"P({better} scores strictly higher than {worse}), Wilson 95%; hollow dotted: exact ties",
                 fontsize=11)
    return fig


def ndcg_by_k_panels(curves: Mapping[tuple[str, str], Mapping[str, np.ndarray]], ks: Sequence[int],
                     models: Sequence[str], rankers: Sequence[str], *, n: int, relevant: Mapping[str, float],
                     discount: str = "log2") -> Figure:
    """Mean nDCG@k against k (95% band) for each model (panel) and ranker, with the expected number of
    relevant items (dashed).

    ``curves[(model, ranker)]`` holds ``mean``, ``ci_low`` and ``ci_high`` over k.

    Examples
    --------
    >>> c = {("m", "r"): {"mean": np.array([1.0, 0.8]), "ci_low": np.array([0.9, 0.7]), "ci_high": np.array([1.0, 0.9])}}
    >>> fig = ndcg_by_k_panels(c, [1, 10], ["m"], ["r"], n=10, relevant={"m": 5})
    >>> fig.axes[0].get_ylabel()
    'mean nDCG@k (95% interval)'
    """
    fig = Figure(figsize=(5.5 * len(models), 4.3), layout="constrained")
    axes = fig.subplots(1, len(models), squeeze=False, sharey=True)[0]
    handles = []
    ks = np.asarray(ks)
    for ax, m in zip(axes, models):
        for c, r in enumerate(rankers):
            curve = curves[(m, r)]
            line, = ax.plot(ks, round_significant(curve["mean"]), marker="o", ms=3, color=f"C{c}")
            ax.fill_between(ks, round_significant(curve["ci_low"]), round_significant(curve["ci_high"]), color=f"C{c}",
                            alpha=0.2, lw=0)
            handles.append((line, r))
        handles.append((ax.axvline(relevant[m], color="0.4", ls="--", lw=1), "expected number of relevant items"))
        ax.set(xscale="log", xlabel="cut-off k", title=f"{m}, n = {n}, {discount}")
    axes[0].set_ylabel("mean nDCG@k (95% interval)")
    legend_below(fig, handles)
    return fig
