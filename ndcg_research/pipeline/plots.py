"""The notebooks' figures; imported only by notebooks.

Every function takes the numbers a notebook computed (mostly the tidy
:class:`pandas.DataFrame` tables of :mod:`ndcg_research.studies`) and returns a
Matplotlib :class:`~matplotlib.figure.Figure`, so the notebooks
hold only parameters, calls and narrative. A notebook shows a figure with
``IPython.display.display(fig)`` (after ``%matplotlib inline``, which renders
Figure objects as PNG) and saves it with :func:`ndcg_research.pipeline.figures.save_figure`.

Conventions shared by all figures:

- legends sit outside the panels (below them), so they never hide data;
- every panel row has a y-axis label; intervals are 95% (t for means, Wilson for
  proportions) and drawn as error bars or bands;
- a quantity that is undefined (a standardized gap when every gap is 0) is drawn
  as a grey ``x`` on the zero line, never as a number, and a panel where it is
  undefined throughout says so in words;
- plotted values are rounded to 8 significant digits (:func:`steady`): the last bits
  of a floating-point sum differ between machines (BLAS, SIMD), and they must not
  change the image files (the data are far coarser than 8 digits).

The table helpers :func:`pivot`, :func:`rounded` and :func:`proportion_cells` live in
:mod:`ndcg_research.reports.tables` and are re-exported here.

This module imports Matplotlib.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.ticker import FuncFormatter, LogLocator

from ..core.discounts import parse_discount
from ..reports.tables import pivot, proportion_cells, rounded  # re-exported: notebooks and tests use them here
from ..studies import theory

__all__ = [
    "steady",
    "select",
    "worked_example_panels",
    "discount_panels",
    "eps_panel",
    "convergence_grid",
    "slow_convergence_grid",
    "pair_grid",
    "gap_over_eps_grid",
    "cutoff_values_grid",
    "cutoff_pair_grid",
    "ndcg_by_k_panels",
    "appending_panels",
    "truncation_violins",
    "pooling_bias_panels",
    "failure_rate_grid",
    "stream_stability_grid",
    "expected_gap_panels",
    "decision_grid",
    "pivot",
    "rounded",
    "proportion_cells",
]

_MARKERS = "osD^vP*X"
_LINESTYLES = ("-", "--", "-.", ":")
#: How an undefined value is drawn, in every figure.
_UNDEFINED = dict(marker="x", color="0.45", ls="none", ms=6, mew=1.5)
_UNDEFINED_LABEL = "undefined (every gap is 0)"


def steady(values: Any, digits: int = 8) -> np.ndarray:
    """Values rounded to ``digits`` significant digits (NaN and infinities kept): what goes into a plot.

    Examples
    --------
    >>> steady([0.1 + 0.2, 1e-17, float("nan")]).tolist()
    [0.3, 1e-17, nan]
    """
    array = np.asarray(values, dtype=np.float64)
    flat = [float(f"{v:.{digits}g}") if math.isfinite(v) else v for v in array.ravel().tolist()]
    return np.array(flat, dtype=np.float64).reshape(array.shape)


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


def _column(rows: pd.DataFrame, name: str) -> np.ndarray:
    return steady(rows[name].to_numpy(dtype=np.float64))


def _grid(count: int, cols: int, size: tuple[float, float] = (3.3, 2.7), **kw: Any) -> tuple[Figure, np.ndarray]:
    rows = math.ceil(count / cols)
    fig = Figure(figsize=(size[0] * cols, size[1] * rows + 1.0), layout="constrained")
    axes = np.atleast_1d(fig.subplots(rows, cols, squeeze=False, **kw)).ravel()
    for ax in axes[count:]:
        ax.set_visible(False)
    return fig, axes


def _model_panels(models: Sequence[str], discounts: Sequence[str], size: tuple[float, float]
                  ) -> tuple[Figure, np.ndarray, list[tuple[Axes, str, str]]]:
    """A grid with one row of panels per model and one column per discount: (figure, axes, [(ax, model, discount)])."""
    fig, axes = _grid(len(models) * len(discounts), len(discounts), size=size)
    panels = [(axes[m * len(discounts) + j], label, d) for m, label in enumerate(models) for j, d in enumerate(discounts)]
    return fig, axes, panels


def _label_rows(axes: np.ndarray, cols: int, label: str) -> None:
    """The y-axis label on the first panel of every row."""
    for ax in axes[::cols]:
        if ax.get_visible():
            ax.set_ylabel(label)


def _label_matrix(axes: np.ndarray, column_titles: Sequence[str], row_labels: Sequence[str]) -> None:
    """Titles over the top row, y labels on the first column, "n" under the bottom row of a 2-D grid of axes."""
    for ax, title in zip(axes[0], column_titles):
        ax.set_title(title, fontsize=10)
    for ax, label in zip(axes[:, 0], row_labels):
        ax.set_ylabel(label, fontsize=9)
    for ax in axes[-1]:
        ax.set_xlabel("n")


def _legend_below(fig: Figure, handles: Sequence[Any], labels: Sequence[str], ncols: int | None = None) -> None:
    """One legend for the whole figure, below the panels (constrained layout makes room for it)."""
    unique = dict(zip(labels, handles))  # first handle per label
    fig.legend(list(unique.values()), list(unique), loc="outside lower center",
               ncols=ncols or min(len(unique), 5), fontsize=9, frameon=False)


def _title(spec: str) -> str:
    return f"{spec}  ({parse_discount(spec).decay})"


def _log_ticks(ax: Axes) -> None:
    """Labelled log ticks at 1, 2 and 5 times powers of ten (at least two labels on short ranges)."""
    ax.yaxis.set_major_locator(LogLocator(base=10, subs=(1.0, 2.0, 5.0)))
    ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
    ax.yaxis.set_minor_formatter(FuncFormatter(lambda v, _: ""))


def _errors(centre: np.ndarray, low: np.ndarray, high: np.ndarray) -> np.ndarray:
    """Asymmetric error-bar lengths (2, n) for errorbar(); undefined intervals draw no bar."""
    return np.maximum(np.nan_to_num(np.stack([centre - low, high - centre])), 0.0)


# --------------------------------------------------------------------------- notebook 01


def worked_example_panels(grades: Sequence[float], known: Sequence[float], contributions: Sequence[float],
                          ideal_contributions: Sequence[float], *, k: int | None, dcg: float, idcg: float) -> Figure:
    """Left: per-position contributions g(rel_i) D(i) of the returned list and of the ideal. Right: the
    grades of the returned list against the ideal ranking of all known documents (ranks beyond the
    cut-off ``k`` shaded; None: no cut-off).

    Examples
    --------
    >>> fig = worked_example_panels([3, 2], [3, 2, 3], [3.0, 1.26], [3.0, 1.89], k=2, dcg=4.26, idcg=4.89)
    >>> [ax.get_ylabel() for ax in fig.axes]
    ['contribution g(rel$_i$) · D(i)', 'grade']
    """
    contributions, ideal_contributions = steady(contributions), steady(ideal_contributions)
    ranks = np.arange(1, len(contributions) + 1)
    ideal_ranking = sorted(known, reverse=True)
    fig = Figure(figsize=(10, 4.4), layout="constrained")
    ax_c, ax_r = fig.subplots(1, 2)
    width = 0.4
    ax_c.bar(ranks - width / 2, contributions, width, label=f"returned (DCG = {dcg:.3f})", color="C0")
    ax_c.bar(ranks + width / 2, ideal_contributions, width, label=f"ideal (IDCG = {idcg:.3f})", color="none",
             edgecolor="C1", hatch="//")
    for x, c in zip(ranks, contributions):
        ax_c.annotate(f"{c:.3f}", (x - width / 2, c), ha="center", va="bottom", fontsize=8, xytext=(0, 2),
                      textcoords="offset points")
    ax_c.set(xlabel="rank i", ylabel="contribution g(rel$_i$) · D(i)", xticks=ranks,
             ylim=(0, max(contributions.max(), ideal_contributions.max()) * 1.15),
             title=f"Per-position contributions, nDCG{'' if k is None else f'@{k}'} = {dcg / idcg:.3f}")
    all_ranks = np.arange(1, len(known) + 1)
    ax_r.bar(ranks - width / 2, steady(grades[: len(ranks)]), width, color="C0", label="returned list")
    ax_r.bar(all_ranks + width / 2, steady(ideal_ranking), width, color="none", edgecolor="C1", hatch="//",
             label=f"ideal: all {len(known)} known documents")
    if k is not None and k < len(known):
        ax_r.axvspan(k + 0.5, len(known) + 0.5, color="0.9", zorder=0)
        ax_r.annotate(f"beyond k = {k}", (k + 0.6, max(known) * 1.1), ha="left", va="center", fontsize=9)
    ax_r.set(xlabel="rank", ylabel="grade", xticks=all_ranks, yticks=np.arange(0, max(known) + 1),
             ylim=(0, max(known) * 1.2), title="Returned ranking vs ideal ranking")
    fig.legend(*ax_c.get_legend_handles_labels(), loc="outside lower left", ncols=2, frameon=False)
    fig.legend(*ax_r.get_legend_handles_labels(), loc="outside lower right", ncols=2, frameon=False)
    return fig


# --------------------------------------------------------------------------- notebook 02


def discount_panels(discounts: Sequence[str], n_max: int) -> Figure:
    """D(r); the share of the discount mass in the top r ranks of a list of ``n_max``; and, for the
    slowly varying and constant discounts, how much more than its size the top r weighs.

    The third panel is ``[C(r) / C(n)] / (r / n)`` with ``C(m) = sum D(1..m)``: 1 for no
    discount, above 1 by the factor the top of the list is over-weighted.

    Examples
    --------
    >>> fig = discount_panels(["log2", "zipf", "none"], 1000)
    >>> [ax.get_ylabel() for ax in fig.axes]
    ['D(r)', 'share C(r) / C(n)', 'share / (r / n)']
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
        style = dict(color=f"C{i}", ls=_LINESTYLES[i % len(_LINESTYLES)], marker=_MARKERS[i % len(_MARKERS)],
                     markevery=(0.02 + 0.11 * i / len(discounts), 0.11), ms=5, lw=1.6)
        line, = left.plot(r, steady(np.maximum(full[r - 1], 1e-300)), **style)
        middle.plot(r, steady(share), **style)
        if spec in flat:
            right.plot(r, steady(share * n_max / r), **style)
        handles.append((line, _title(spec)))
    left.set(xscale="log", yscale="log", ylim=(1e-12, 2), xlabel="rank r", ylabel="D(r)", title="discount D(r)")
    middle.set(xscale="log", yscale="log", ylim=(1e-7, 2), xlabel="rank r", ylabel="share C(r) / C(n)",
               title=f"share of the mass in the top r (n = {n_max:.0e})")
    right.set(xscale="log", yscale="log", xlabel="rank r", ylabel="share / (r / n)",
              title="over-weighting of the top r (slow discounts)")
    _log_ticks(right)
    _legend_below(fig, [h for h, _ in handles], [t for _, t in handles], ncols=4)
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
        line, = ax.plot(n, steady(theory.eps(spec, n)), label=spec)
        ax.plot(marks, steady(theory.eps_numeric(spec, marks)), _MARKERS[i % len(_MARKERS)], color=line.get_color(),
                ms=5, mfc="none")
    ax.plot(n, steady(1 / np.log(n)), "k:", label="1 / ln n")
    ax.set(xscale="log", yscale="log", xlabel="n", ylabel="eps_D(n)",
           title="eps_D(n) = -n D'(n) / D(n): lines analytic, markers numerical")
    ax.legend(fontsize=8)
    return fig


# --------------------------------------------------------------------------- notebooks 03, 04


def convergence_grid(ranker_table: pd.DataFrame, theory_table: pd.DataFrame,
                     discounts: Sequence[str], rankers: Sequence[str], title: str) -> Figure:
    """Mean nDCG vs n with 95% intervals, one panel per discount; theory: finite-n (line), limit (dotted).

    Examples
    --------
    >>> from ndcg_research.studies.sweeps import Sweep, run_sweep
    >>> s = Sweep.build("probit", ns=[20, 40], replicates=4, seed=0, rankers=["bayes", "random"],
    ...                 discounts=["log2", "zipf"], pairs=[("bayes", "random")])
    >>> th = theory.theory_table("probit", s.rankers, s.discounts, s.ns)
    >>> fig = convergence_grid(run_sweep(s).ranker_table(), th, s.discounts, s.rankers, "probit")
    >>> sum(ax.get_visible() for ax in fig.axes), fig.axes[0].get_ylabel()
    (2, 'mean nDCG')
    """
    cols = min(4, len(discounts))
    fig, axes = _grid(len(discounts), cols)
    handles = []
    for ax, d in zip(axes, discounts):
        for i, r in enumerate(rankers):
            rows = select(ranker_table, discount=d, ranker=r)
            mean = _column(rows, "mean")
            bar = ax.errorbar(_column(rows, "n"), mean, yerr=_errors(mean, _column(rows, "ci_low"), _column(rows, "ci_high")),
                              fmt=_MARKERS[i % len(_MARKERS)], ms=4, capsize=2, lw=1, color=f"C{i}")
            handles.append((bar, r))
            th = select(theory_table, discount=d, ranker=r)
            if len(th):
                ax.plot(_column(th, "n"), _column(th, "finite_n"), "-", color=f"C{i}", lw=1, alpha=0.8)
                ax.axhline(steady(th["limit"].iloc[0]), color=f"C{i}", ls=":", lw=1)
        ax.set(xscale="log", title=_title(d), xlabel="n")
        if parse_discount(d).decay == "constant":  # exactly 1: keep the axis from zooming into rounding
            ax.set_ylim(0.9, 1.05)
    _label_rows(axes, cols, "mean nDCG")
    handles += [(Line2D([], [], color="0.3", lw=1), "finite-n theory"), (Line2D([], [], color="0.3", ls=":", lw=1), "limit")]
    _legend_below(fig, [h for h, _ in handles], [t for _, t in handles], ncols=len(rankers) + 2)
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
    fig, axes, panels = _model_panels(list(ranker_tables), discounts, size=(3.6, 2.9))
    handles = []
    for ax, label, d in panels:
        for i, r in enumerate(rankers):
            rows = select(ranker_tables[label], discount=d, ranker=r)
            gap = 1 - _column(rows, "mean")
            bar = ax.errorbar(_column(rows, "n"), gap, fmt=_MARKERS[i % len(_MARKERS)], ms=4, capsize=2, lw=1,
                              color=f"C{i}", yerr=_errors(gap, 1 - _column(rows, "ci_high"), 1 - _column(rows, "ci_low")))
            handles.append((bar, r))
            th = select(theory_tables[label], discount=d, ranker=r)
            tn = _column(th, "n")
            ax.plot(tn, steady(1 - th["finite_n"].to_numpy()), "-", color=f"C{i}", lw=1)
            ax.plot(tn, steady(th["eps"].to_numpy() * th["c"].to_numpy()), "--", color=f"C{i}", lw=1)
        ax.set(xscale="log", yscale="log", title=f"{label}: {d}", xlabel="n")
        _log_ticks(ax)
    _label_rows(axes, len(discounts), "1 - mean nDCG")
    handles += [(Line2D([], [], color="0.3", lw=1), "finite-n theory"),
                (Line2D([], [], color="0.3", ls="--", lw=1), "first order eps_D(n) c_f")]
    _legend_below(fig, [h for h, _ in handles], [t for _, t in handles], ncols=4)
    fig.suptitle("Slowly varying discounts: 1 - nDCG (markers, 95% CI), finite-n theory (line), eps_D(n) c_f (dashed)")
    return fig


def _undefined(ax: Axes, n: np.ndarray, values: np.ndarray) -> list[Any]:
    """Mark the undefined (NaN) values the one way of every figure: a grey x on the zero line."""
    missing = ~np.isfinite(values)
    if not missing.any():
        return []
    marks = ax.plot(n[missing], np.zeros(missing.sum()), **_UNDEFINED)
    return marks


def pair_grid(pair_table: pd.DataFrame, discounts: Sequence[str], pairs: Sequence[Sequence[str]],
              value: str, title: str) -> Figure:
    """One panel per discount: ``value`` against n for every pair of rankers.

    ``value="p_better"``: P(better scores strictly higher) with Wilson intervals and the
    share of exact ties (dashed). ``value="std_gap"``: the standardized gap
    mean(gap)/sd(gap) on a symmetric log scale (linear within ±0.1, so negative gaps
    keep their sign); undefined values (every gap 0) are marked, not plotted.

    Examples
    --------
    >>> from ndcg_research.studies.sweeps import Sweep, run_sweep
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
    fig, axes = _grid(len(discounts), cols)
    handles = []
    for ax, d in zip(axes, discounts):
        low_data = 0.0
        for i, (better, worse) in enumerate(pairs):
            rows = select(pair_table, discount=d, better=better, worse=worse)
            n = _column(rows, "n")
            label = f"{better} > {worse}"
            if value == "p_better":
                p = _column(rows, "p_better")
                bar = ax.errorbar(n, p, yerr=_errors(p, _column(rows, "p_better_low"), _column(rows, "p_better_high")),
                                  fmt=_MARKERS[i % len(_MARKERS)] + "-", ms=4, capsize=2, lw=1, color=f"C{i}")
                ties = _column(rows, "p_tie")
                if np.any(ties > 0):
                    handles.append((ax.plot(n, ties, "--", color=f"C{i}", lw=1)[0], "share of exact ties (dashed)"))
            else:
                y = _column(rows, value)
                bar = ax.plot(n, y, _MARKERS[i % len(_MARKERS)] + "-", ms=4, lw=1, color=f"C{i}")[0]
                if np.isfinite(y).any():
                    low_data = min(low_data, float(np.nanmin(y)))
                handles += [(mark, _UNDEFINED_LABEL) for mark in _undefined(ax, n, y)]
            handles.append((bar, label))
        ax.set(xscale="log", title=_title(d), xlabel="n")
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
    _label_rows(axes, cols, "P(better strictly higher)" if value == "p_better" else "mean(gap) / sd(gap)")
    _legend_below(fig, [h for h, _ in handles], [t for _, t in handles], ncols=3)
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
    fig, axes, panels = _model_panels(list(pair_tables), discounts, size=(3.8, 2.9))
    handles = []
    for ax, label, d in panels:
        for i, (better, worse) in enumerate(pairs):
            rows = select(pair_tables[label], discount=d, better=better, worse=worse)
            eps = rows["eps"].to_numpy()
            scaled = steady(rows["mean_gap"].to_numpy() / eps)
            errors = _errors(scaled, steady(rows["gap_ci_low"].to_numpy() / eps),
                             steady(rows["gap_ci_high"].to_numpy() / eps))
            bar = ax.errorbar(_column(rows, "n"), scaled, yerr=errors, fmt=_MARKERS[i % len(_MARKERS)], ms=4,
                              capsize=2, lw=1, color=f"C{i}")
            handles.append((bar, f"{better} > {worse}"))
            th = theory_tables[label]
            tb, tw = select(th, discount=d, ranker=better), select(th, discount=d, ranker=worse)
            ax.plot(_column(tb, "n"), steady((tb["finite_n"].to_numpy() - tw["finite_n"].to_numpy()) / tb["eps"].to_numpy()),
                    "-", color=f"C{i}", lw=1)
            ax.axhline(steady(tw["c"].iloc[0] - tb["c"].iloc[0]), color=f"C{i}", ls="--", lw=1)
        ax.set_yscale("log", nonpositive="mask")
        ax.set(xscale="log", title=f"{label}: {d}", xlabel="n")
        _log_ticks(ax)
    _label_rows(axes, len(discounts), "mean gap / eps_D(n)")
    handles += [(Line2D([], [], color="0.3", lw=1), "finite-n theory"),
                (Line2D([], [], color="0.3", ls="--", lw=1), "first order c_worse - c_better")]
    _legend_below(fig, [h for h, _ in handles], [t for _, t in handles], ncols=3)
    fig.suptitle(title)
    return fig


# --------------------------------------------------------------------------- notebook 05


def cutoff_values_grid(mean_table: pd.DataFrame, model: str, rules: Sequence[str], discounts: Sequence[str],
                       rankers: Sequence[str]) -> Figure:
    """Mean nDCG@k against n with 95% bands: one row per cut-off rule, one column per discount.

    Examples
    --------
    >>> from ndcg_research.studies.cutoff import CutoffSweep
    >>> from ndcg_research.studies.sweeps import run_sweep
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
                n = _column(rows, "n")
                line, = ax.plot(n, _column(rows, "mean"), marker="o", ms=3, color=f"C{c}")
                ax.fill_between(n, _column(rows, "ci_low"), _column(rows, "ci_high"), color=f"C{c}", alpha=0.2, lw=0)
                handles.append((line, r))
            ax.set_xscale("log")
    _label_matrix(axes, discounts, [f"{rule}\nmean nDCG@k" for rule in rules])
    _legend_below(fig, [h for h, _ in handles], [t for _, t in handles])
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
    >>> from ndcg_research.studies.cutoff import CutoffSweep
    >>> from ndcg_research.studies.sweeps import run_sweep
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
                n, p = _column(rows, "n") * shift[c], _column(rows, "p_better")
                bar = ax.errorbar(n, p, yerr=_errors(p, _column(rows, "p_better_low"), _column(rows, "p_better_high")),
                                  fmt=_MARKERS[c % len(_MARKERS)] + "-", ms=4, capsize=2, lw=1, color=f"C{c}")
                handles.append((bar, d))
                ties = _column(rows, "p_tie")
                if ties.max() > 0:
                    ax.plot(n, ties, _MARKERS[c % len(_MARKERS)] + ":", ms=4, mfc="none", color=f"C{c}", lw=1)
                    tie_handle = [(Line2D([], [], color="0.3", marker="o", mfc="none", ls=":"), "share of exact ties")]
            ax.axhline(0.5, color="0.5", lw=0.8, ls="--")
            ax.set(xscale="log", ylim=(-0.03, 1.03))
    _label_matrix(axes, rules, [f"{m}\nP({better} > {worse})" for m in models])
    handles += tie_handle
    _legend_below(fig, [h for h, _ in handles], [t for _, t in handles])
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
            line, = ax.plot(ks, steady(curve["mean"]), marker="o", ms=3, color=f"C{c}")
            ax.fill_between(ks, steady(curve["ci_low"]), steady(curve["ci_high"]), color=f"C{c}", alpha=0.2, lw=0)
            handles.append((line, r))
        handles.append((ax.axvline(relevant[m], color="0.4", ls="--", lw=1), "expected number of relevant items"))
        ax.set(xscale="log", xlabel="cut-off k", title=f"{m}, n = {n}, {discount}")
    axes[0].set_ylabel("mean nDCG@k (95% interval)")
    _legend_below(fig, [h for h, _ in handles], [t for _, t in handles])
    return fig


# --------------------------------------------------------------------------- notebook 06


def appending_panels(extras: Sequence[int], example: Mapping[str, Sequence[float]], random_extras: Sequence[int],
                     random: Mapping[str, Sequence[float]], *, title_example: str, title_random: str) -> Figure:
    """nDCG and precision as non-relevant documents are added: the worked example (left; appended at
    the end, or inserted at the top) and the mean over random lists (right).

    ``example`` holds ``appended``, ``inserted`` (nDCG) and ``precision``; ``random`` holds
    ``ndcg`` and ``precision``.

    Examples
    --------
    >>> fig = appending_panels([0, 1], {"appended": [0.7, 0.7], "inserted": [0.7, 0.5], "precision": [0.8, 0.6]},
    ...                        [0, 1], {"ndcg": [0.6, 0.6], "precision": [0.5, 0.4]}, title_example="a", title_random="b")
    >>> fig.axes[0].get_ylabel(), fig.axes[1].get_ylabel()
    ('value', 'mean value')
    """
    fig = Figure(figsize=(10, 4.2), layout="constrained")
    ax1, ax2 = fig.subplots(1, 2, sharey=True)
    ax1.plot(extras, steady(example["appended"]), color="C0", label="nDCG, appended at the end")
    ax1.plot(extras, steady(example["inserted"]), color="C0", ls="--", label="nDCG, inserted at the top")
    ax1.plot(extras, steady(example["precision"]), color="C1", label="precision of the whole list")
    ax1.set(xlabel="non-relevant documents added", ylabel="value", ylim=(0, 1.02), title=title_example)
    ax1.legend(loc="upper right", fontsize=9)
    ax2.plot(random_extras, steady(random["ndcg"]), "o-", color="C0", label="mean nDCG, appended")
    ax2.plot(random_extras, steady(random["precision"]), "s-", color="C1", label="mean precision")
    ax2.set(xlabel="non-relevant documents appended", ylabel="mean value", title=title_random)
    ax2.yaxis.set_tick_params(labelleft=True)
    ax2.legend(loc="upper right", fontsize=9)
    return fig


def truncation_violins(differences: Mapping[str, np.ndarray], p_short_wins: Mapping[str, float], *,
                       short_length: int, list_length: int) -> Figure:
    """Distribution of nDCG(prefix) - nDCG(whole list) under each convention (violins with extremes
    and median).

    Examples
    --------
    >>> fig = truncation_violins({"a": np.array([-0.1, 0.0, 0.1])}, {"a": 0.5}, short_length=2, list_length=4)
    >>> fig.axes[0].get_xlabel().startswith("nDCG(first 2)")
    True
    """
    names = list(differences)
    fig = Figure(figsize=(9.5, 4.0), layout="constrained")
    ax = fig.subplots()
    ax.violinplot([steady(differences[n]) for n in names], orientation="horizontal", showmedians=True, widths=0.8)
    ax.axvline(0, color="0.3", lw=1)
    ax.set_yticks(np.arange(1, len(names) + 1), [f"{n}\nP(short ≥ long) = {p_short_wins[n]:.3f}" for n in names])
    count = len(next(iter(differences.values())))
    ax.set(xlabel=f"nDCG(first {short_length}) − nDCG(all {list_length})   (> 0: the short list wins)",
           title=f"Same documents, same order, different length ({count} random lists missing a relevant document)")
    return fig


def pooling_bias_panels(depths: Sequence[int], bias: Mapping[str, np.ndarray], control: Mapping[str, np.ndarray],
                        order: Mapping[str, Sequence[float]], *, best: int, novel: int, k: int,
                        replicates: int) -> Figure:
    """Left: bias of nDCG@k (estimate - true) by pool depth with 95% intervals, for the best pooled and
    the novel system, unjudged = 0 and condensed, and the control (novel pooled too). Right: the share
    of collections in which the novel system is ranked above the best pooled one.

    ``bias`` and ``control`` are :func:`ndcg_research.studies.limitations.summarize_bias` outputs;
    ``order`` maps a method label to the share at each depth.

    Examples
    --------
    >>> b = {"bias": np.zeros((2, 2, 2)), "low": -np.ones((2, 2, 2)), "high": np.ones((2, 2, 2))}
    >>> fig = pooling_bias_panels([1, 10], b, b, {"true": [1.0, 1.0]}, best=0, novel=1, k=10, replicates=3)
    >>> fig.axes[1].get_ylabel()
    'P(novel ranked above best pooled)'
    """
    fig = Figure(figsize=(11, 4.6), layout="constrained")
    ax1, ax2 = fig.subplots(1, 2)
    x = np.asarray(depths)
    styles = {(0, best): ("C0", "-", "best pooled, unjudged = 0"), (1, best): ("C0", ":", "best pooled, condensed"),
              (0, novel): ("C3", "-", "novel, unjudged = 0"), (1, novel): ("C3", ":", "novel, condensed")}
    for (e, s), (color, ls, label) in styles.items():
        ax1.plot(x, steady(bias["bias"][:, e, s]), color=color, ls=ls, marker="o", ms=3, label=label)
        ax1.fill_between(x, steady(bias["low"][:, e, s]), steady(bias["high"][:, e, s]), color=color, alpha=0.15, lw=0)
    ax1.plot(x, steady(control["bias"][:, 0, novel]), color="C2", ls="--", marker="s", ms=3,
             label="novel, unjudged = 0, novel pooled too")
    ax1.fill_between(x, steady(control["low"][:, 0, novel]), steady(control["high"][:, 0, novel]), color="C2",
                     alpha=0.15, lw=0)
    ax1.axhline(0, color="0.3", lw=1)
    ax1.set(xscale="log", xlabel="pool depth", ylabel=f"bias of nDCG@{k} (estimate − true)",
            title=f"Bias, mean and 95% interval over {replicates} collections")
    fig.legend(*ax1.get_legend_handles_labels(), fontsize=8, loc="outside lower left", ncols=2, frameon=False)
    colors = {"true": ("0.3", "-"), "unjudged = 0": ("C3", "-"), "condensed": ("C3", ":")}
    for label, shares in order.items():
        color, ls = colors.get(label, ("C2", "--"))
        ax2.plot(x, steady(shares), color=color, ls=ls, marker="o", ms=3, label=label)
    ax2.set(xscale="log", xlabel="pool depth", ylabel="P(novel ranked above best pooled)", ylim=(-0.03, 1.03),
            title="Is the better, unpooled system recognised?")
    fig.legend(*ax2.get_legend_handles_labels(), fontsize=8, loc="outside lower right", ncols=2, frameon=False)
    return fig


# --------------------------------------------------------------------------- tables


# --------------------------------------------------------------------------- notebook 09


def failure_rate_grid(failure_tables: Mapping[str, pd.DataFrame], discounts: Sequence[str],
                      pairs: Sequence[Sequence[str]]) -> Figure:
    """1 - P(better strictly higher) against n, log-log: measured (markers, Wilson 95%) and Phi(-d) (lines).

    One row of panels per model, one column per discount. A measured failure share of 0 is drawn
    as its Wilson upper bound (a downward triangle), since 0 has no place on a log axis.

    Examples
    --------
    >>> t = pd.DataFrame(dict(discount="log2", better="a", worse="b", n=[100, 1000], p_fail=[0.2, 0.0],
    ...                       p_fail_low=[0.15, 0.0], p_fail_high=[0.25, 0.004], p_fail_normal=[0.21, 0.001]))
    >>> fig = failure_rate_grid({"m": t}, ["log2"], [("a", "b")])
    >>> fig.axes[0].get_yscale(), fig.axes[0].get_ylabel()
    ('log', '1 - P(better strictly higher)')
    """
    fig, axes, panels = _model_panels(list(failure_tables), discounts, size=(3.3, 2.8))
    handles = []
    for ax, label, d in panels:
        for i, (better, worse) in enumerate(pairs):
            rows = select(failure_tables[label], discount=d, better=better, worse=worse)
            n, p = _column(rows, "n"), _column(rows, "p_fail")
            low, high = _column(rows, "p_fail_low"), _column(rows, "p_fail_high")
            seen = p > 0
            bar = ax.errorbar(n[seen], p[seen], yerr=_errors(p[seen], low[seen], high[seen]),
                              fmt=_MARKERS[i % len(_MARKERS)], ms=4, capsize=2, lw=1, color=f"C{i}")
            handles.append((bar, f"{better} > {worse}"))
            if (~seen).any():
                bound = ax.plot(n[~seen], high[~seen], "v", ms=5, mfc="none", color=f"C{i}")[0]
                handles.append((bound, "none failed: Wilson upper bound"))
            normal = _column(rows, "p_fail_normal")
            ax.plot(n, np.where(normal > 0, normal, np.nan), "-", color=f"C{i}", lw=1)
        ax.set(xscale="log", yscale="log", title=f"{label}: {d}", xlabel="n")
        ax.set_ylim(bottom=max(ax.get_ylim()[0], 1e-6), top=1.0)
    _label_rows(axes, len(discounts), "1 - P(better strictly higher)")
    handles.append((Line2D([], [], color="0.3", lw=1), "normal approximation Phi(-mean/sd)"))
    _legend_below(fig, [h for h, _ in handles], [t for _, t in handles], ncols=4)
    fig.suptitle("Failure probability against n (log-log): measured (markers, Wilson 95%) and Phi(-standardized gap)")
    return fig


def stream_stability_grid(stability_tables: Mapping[str, pd.DataFrame], discounts: Sequence[str],
                          pairs: Sequence[Sequence[str]]) -> Figure:
    """Share of streams on which the better ranker wins at every grid n from n0 on, against n0 (Wilson 95% band).

    Examples
    --------
    >>> t = pd.DataFrame(dict(discount="log2", better="a", worse="b", n0=[100, 1000], p_settled=[0.5, 0.9],
    ...                       p_settled_low=[0.4, 0.8], p_settled_high=[0.6, 0.95]))
    >>> stream_stability_grid({"m": t}, ["log2"], [("a", "b")]).axes[0].get_ylabel()
    'share settled from n0'
    """
    fig, axes, panels = _model_panels(list(stability_tables), discounts, size=(3.3, 2.8))
    handles = []
    for ax, label, d in panels:
        for i, (better, worse) in enumerate(pairs):
            rows = select(stability_tables[label], discount=d, better=better, worse=worse).sort_values("n0")
            n0 = _column(rows, "n0")
            line = ax.plot(n0, _column(rows, "p_settled"), _LINESTYLES[i % len(_LINESTYLES)], color=f"C{i}", lw=1.2)[0]
            ax.fill_between(n0, _column(rows, "p_settled_low"), _column(rows, "p_settled_high"), color=f"C{i}",
                            alpha=0.2, lw=0)
            handles.append((line, f"{better} > {worse}"))
        ax.set(xscale="log", ylim=(-0.03, 1.03), title=f"{label}: {d}", xlabel="n0")
    _label_rows(axes, len(discounts), "share settled from n0")
    _legend_below(fig, [h for h, _ in handles], [t for _, t in handles])
    fig.suptitle("Growing samples: share of streams on which the better ranker wins at every n >= n0 "
                 "(up to the stream's end; Wilson 95%)")
    return fig


# --------------------------------------------------------------------------- notebook 10


def expected_gap_panels(theory_table: pd.DataFrame, crossings: pd.DataFrame, pairs: Sequence[Sequence[str]],
                        discounts: Sequence[str]) -> Figure:
    """E nDCG(first) - E nDCG(second) against n (finite-n theory), one panel per pair, one line per discount,
    with each discount's crossing marked.

    Examples
    --------
    >>> th = pd.DataFrame(dict(discount="log2", ranker=["a", "a", "b", "b"], n=[10, 100, 10, 100],
    ...                        finite_n=[0.9, 0.8, 0.85, 0.85]))
    >>> cr = pd.DataFrame(dict(first="a", second="b", discount=["log2"], crossing_n=[50.0]))
    >>> expected_gap_panels(th, cr, [("a", "b")], ["log2"]).axes[0].get_ylabel()
    'E nDCG(first) - E nDCG(second)'
    """
    fig, axes = _grid(len(pairs), min(2, len(pairs)), size=(5.2, 3.6))
    handles = []
    for ax, (first, second) in zip(axes, pairs):
        for c, d in enumerate(discounts):
            a = select(theory_table, discount=d, ranker=first).set_index("n")["finite_n"]
            b = select(theory_table, discount=d, ranker=second).set_index("n")["finite_n"]
            gap = (a - b).dropna()
            line = ax.plot(steady(gap.index.to_numpy(float)), steady(gap.to_numpy()), _LINESTYLES[c % 4],
                           color=f"C{c}", lw=1.3)[0]
            handles.append((line, d))
            cross = select(crossings, first=first, second=second, discount=d)
            if len(cross) and np.isfinite(cross["crossing_n"].iloc[0]):
                ax.plot([steady(cross["crossing_n"].iloc[0])], [0.0], _MARKERS[c % len(_MARKERS)], color=f"C{c}", ms=6)
        ax.axhline(0, color="grey", lw=0.8, ls=":")
        ax.set(xscale="log", xlabel="n", title=f"{first} - {second}")
        ax.set_yscale("symlog", linthresh=0.01)
    _label_rows(axes, min(2, len(pairs)), "E nDCG(first) - E nDCG(second)")
    handles.append((Line2D([], [], color="0.3", marker="o", ls="none"), "crossing (the order changes)"))
    _legend_below(fig, [h for h, _ in handles], [t for _, t in handles], ncols=4)
    fig.suptitle("Expected nDCG gap (finite-n theory, symmetric log scale, linear within ±0.01): above 0 the "
                 "exact head wins")
    return fig


def decision_grid(decision_tables: Mapping[str, pd.DataFrame], discounts: Sequence[str], value: str,
                  crossings: pd.DataFrame | None = None) -> Figure:
    """Per model (row) and pair (column): ``p_first`` (the head ranker wins; Wilson 95%) or ``p_differs``
    (the decision differs from log2's on the same data set) against n, one line per discount.

    Each column title names its pair ("first vs second"); the row labels hold only what is
    common to the whole row (the model and the quantity), since the pairs differ by column.

    Examples
    --------
    >>> t = pd.DataFrame(dict(first=["a", "a", "c", "c"], second="b", discount="log2", n=[10, 100, 10, 100],
    ...                       p_first=[0.8, 0.3, 0.6, 0.5], p_first_low=[0.7, 0.2, 0.5, 0.4],
    ...                       p_first_high=[0.9, 0.4, 0.7, 0.6], reference="log2"))
    >>> fig = decision_grid({"m": t}, ["log2"], "p_first")
    >>> [ax.get_title() for ax in fig.axes], fig.axes[0].get_ylabel()
    (['a vs b', 'c vs b'], 'm\\nP(first ranker scores higher)')
    """
    if value not in ("p_first", "p_differs"):
        raise ValueError(f"value must be 'p_first' or 'p_differs', got {value!r}")
    models = list(decision_tables)
    pairs = list(dict.fromkeys(zip(decision_tables[models[0]]["first"], decision_tables[models[0]]["second"])))
    fig = Figure(figsize=(5.0 * len(pairs), 3.2 * len(models) + 0.9), layout="constrained")
    axes = fig.subplots(len(models), len(pairs), sharex=True, sharey=True, squeeze=False)
    shift = 10 ** (0.03 * (np.arange(len(discounts)) - (len(discounts) - 1) / 2))
    handles = []
    for i, m in enumerate(models):
        for j, (first, second) in enumerate(pairs):
            ax = axes[i, j]
            for c, d in enumerate(discounts):
                rows = select(decision_tables[m], first=first, second=second, discount=d)
                if value == "p_differs" and d == rows["reference"].iloc[0]:
                    continue
                n, p = _column(rows, "n") * shift[c], _column(rows, value)
                bar = ax.errorbar(n, p, yerr=_errors(p, _column(rows, f"{value}_low"), _column(rows, f"{value}_high")),
                                  fmt=_MARKERS[c % len(_MARKERS)] + _LINESTYLES[c % 4], ms=3.5, capsize=1.5, lw=1,
                                  color=f"C{c}")
                handles.append((bar, d))
                if crossings is not None and value == "p_first":
                    cross = select(crossings, first=first, second=second, discount=d)
                    if len(cross) and np.isfinite(cross["crossing_n"].iloc[0]):
                        ax.axvline(steady(cross["crossing_n"].iloc[0]), color=f"C{c}", lw=0.8, ls=":")
            if value == "p_first":
                ax.axhline(0.5, color="0.5", lw=0.8, ls="--")
            ax.set(xscale="log", ylim=(-0.03, 1.03))
    # The pair changes from column to column, so the row label says "first ranker" and the
    # column title says which ranker is first.
    ylabel = "P(first ranker scores higher)" if value == "p_first" else "decision differs from log2"
    _label_matrix(axes, [f"{a} vs {b}" for a, b in pairs], [f"{m}\n{ylabel}" for m in models])
    _legend_below(fig, [h for h, _ in handles], [t for _, t in handles], ncols=4)
    if value == "p_first":
        title = "Share of data sets on which the exact head scores strictly higher (Wilson 95%); dotted: expected crossing"
    else:
        title = "Share of data sets on which a discount picks another winner than log2 (Wilson 95%)"
    fig.suptitle(title, fontsize=11)
    return fig
