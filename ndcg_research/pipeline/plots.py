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
from ..stats.intervals import wilson_interval
from ..studies.simulation import finite_n, theory

__all__ = [
    "steady",
    "n_label",
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
    "discount_styles",
    "asl_curves_panels",
    "swap_rate_panels",
    "queries_needed_panels",
    "measure_agreement_heatmap",
    "per_list_scatter",
    "ranker_means_panels",
    "list_length_panels",
    "list_length_distinguishability_panels",
    "query_set_panels",
    "convention_panels",
    "cutoff_panels",
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


def _decade_ticks(ax: Axes) -> None:
    """Labelled log ticks at powers of ten only, written 10^k; no labels on the minor ticks.

    For a log axis that spans several decades: Matplotlib's default labels the minor ticks of a short
    range as "9x10^-1", "8x10^-1", ..., which piles up at paper size.
    """
    ax.yaxis.set_major_locator(LogLocator(base=10, numticks=12))
    ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _: "1" if v == 1 else f"$10^{{{round(math.log10(v))}}}$"))
    ax.yaxis.set_minor_formatter(FuncFormatter(lambda v, _: ""))


def n_label(n: float) -> str:
    """A list length or count for a title or tick: ``10^k`` (math text) for a power of ten from 10^3 on, else plain.

    Examples
    --------
    >>> n_label(10**7), n_label(1000.0), n_label(250), n_label(0.01), n_label(1)
    ('$10^{7}$', '$10^{3}$', '250', '$10^{-2}$', '1')
    """
    value = float(n)
    exponent = round(math.log10(value)) if value > 0 else 0
    if value > 0 and math.isclose(value, 10.0 ** exponent) and (exponent >= 3 or exponent <= -2):
        return f"$10^{{{exponent}}}$"
    return f"{value:g}"


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
               title=f"share of the mass in the top r (n = {n_label(n_max)})")
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
    _log_ticks(ax)
    ax.legend(fontsize=8)
    return fig


# --------------------------------------------------------------------------- notebooks 03, 04


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

    ``bias`` and ``control`` are :func:`ndcg_research.studies.simulation.limitations.summarize_bias` outputs;
    ``order`` maps a method label to the share at each depth.

    Examples
    --------
    >>> b = {"bias": np.zeros((2, 2, 2)), "low": -np.ones((2, 2, 2)), "high": np.ones((2, 2, 2))}
    >>> fig = pooling_bias_panels([1, 10], b, b, {"true": [1.0, 1.0]}, best=0, novel=1, k=10, replicates=3)
    >>> fig.axes[1].get_ylabel()
    'P(novel ranked above best pooled)'
    """
    fig = Figure(figsize=(11, 4.9), layout="constrained")
    ax1, ax2 = fig.subplots(1, 2)
    x = np.asarray(depths)
    # Colour = how the run is scored, in both panels; line style and marker = which system (left panel).
    method = {"true": "0.15", "unjudged = 0": "C3", "condensed": "C0", "unjudged = 0, novel pooled too": "C2"}
    system = {best: ("--", "s", "best pooled system"), novel: ("-", "o", "novel (unpooled) system")}
    curves = [(bias, e, s, label) for e, label in ((0, "unjudged = 0"), (1, "condensed")) for s in (best, novel)]
    curves.append((control, 0, novel, "unjudged = 0, novel pooled too"))
    widest = 0.0
    for table, e, s, label in curves:
        centre, low, high = (steady(table[key][:, e, s]) for key in ("bias", "low", "high"))
        widest = max(widest, float(np.max(high - low)) / 2)
        ls, marker, _ = system[s]
        ax1.errorbar(x, centre, yerr=_errors(centre, low, high), color=method[label], ls=ls, marker=marker, ms=4,
                     capsize=3, lw=1.4)
    ax1.axhline(0, color="0.3", lw=1)
    ax1.set(xscale="log", xlabel="pool depth", ylabel=f"bias of nDCG@{k} (estimate − true)",
            title=f"Bias: mean over {replicates} collections, bars 95% intervals\n"
                  f"(the largest half-width is {widest:.3f})")
    dodge = 10 ** (0.025 * (np.arange(len(order)) - (len(order) - 1) / 2))  # bars at 0 and 1 side by side
    for (label, shares), shift in zip(order.items(), dodge):
        p = steady(shares)
        bounds = np.array([wilson_interval(int(round(v * replicates)), replicates) for v in p])
        ax2.errorbar(x * shift, p, yerr=_errors(p, bounds[:, 0], bounds[:, 1]), color=method.get(label, "C2"), ls="-",
                     marker="o", ms=4, capsize=3, lw=1.4)
    ax2.set(xscale="log", xlabel="pool depth", ylabel="P(novel ranked above best pooled)", ylim=(-0.03, 1.03),
            title=f"Is the better, unpooled system recognised?\n(share of {replicates} collections, Wilson 95%)")
    handles = [Line2D([], [], color=color, lw=2.5) for color in method.values()]
    handles += [Line2D([], [], color="0.3", ls=ls, marker=marker, ms=5) for ls, marker, _ in system.values()]
    labels = [f"scored: {label}" for label in method] + [name for _, _, name in system.values()]
    _legend_below(fig, handles, labels, ncols=3)
    return fig




# --------------------------------------------------------------------------- notebook 07

#: Colours by class of discount: discounts of one class look alike, classes apart (a dash and a marker tell the
#: members of a class apart). log2, the reference of every comparison, is drawn black, thicker and on top.
_CLASS_COLOURS = {"slowly varying": ("#2171b5", "#6baed6", "#08306b"), "regularly varying": ("#238b45", "#74c476"),
                  "critical": ("#e6550d",), "summable": ("#a50f15", "#ae017e", "#fb6a4a"), "constant": ("0.55",)}


def discount_styles(discounts: Sequence[str]) -> dict[str, dict[str, Any]]:
    """Line style (``color``, ``ls``, ``marker``, ``lw``, ``zorder``) per discount: by class, log2 black on top.

    Examples
    --------
    >>> styles = discount_styles(["log2", "loglog", "zipf", "power(beta=2)"])
    >>> styles["log2"]["color"], styles["loglog"]["color"], styles["zipf"]["color"]
    ('black', '#2171b5', '#e6550d')
    """
    seen: dict[str, int] = {}
    styles = {}
    for spec in discounts:
        decay = parse_discount(spec).decay
        if spec == "log2":
            styles[spec] = dict(color="black", ls="-", marker="o", lw=2.4, zorder=5)
            continue
        k = seen[decay] = seen.get(decay, -1) + 1
        palette = _CLASS_COLOURS.get(decay, ("0.3",))
        styles[spec] = dict(color=palette[k % len(palette)], ls=_LINESTYLES[k % len(_LINESTYLES)],
                            marker=_MARKERS[(k + 1) % len(_MARKERS)], lw=1.5, zorder=3)
    return styles


def _discount_legend(fig: Figure, discounts: Sequence[str], styles: Mapping[str, Mapping[str, Any]], **extra: Any) -> None:
    handles = [Line2D([], [], ms=4, **{k: v for k, v in styles[d].items() if k != "zorder"}) for d in discounts]
    labels = [f"{d} ({parse_discount(d).decay})" for d in discounts]
    for label, handle in extra.items():
        handles.append(handle)
        labels.append(label)
    _legend_below(fig, handles, labels, ncols=min(4, len(labels)))


def asl_curves_panels(curves: Mapping[tuple[str, str], np.ndarray], gains: Sequence[str], discounts: Sequence[str], *,
                      alpha: float, n_resamples: int, topics: int) -> Figure:
    """Sakai's ASL curves: per gain (panel), each discount's achieved significance levels, sorted (log scale).

    An ASL of 0 (no resample as extreme) is drawn at 1/(2B).

    Examples
    --------
    >>> fig = asl_curves_panels({("linear", "log2"): np.array([0.0, 0.2])}, ["linear"], ["log2"], alpha=0.05,
    ...                         n_resamples=100, topics=5)
    >>> fig.axes[0].get_yscale(), fig.axes[0].get_title()
    ('log', 'gain linear: ASL curves, 5 topics')
    """
    styles = discount_styles(discounts)
    fig = Figure(figsize=(5.6 * len(gains), 4.4), layout="constrained")
    axes = np.atleast_1d(fig.subplots(1, len(gains), sharey=True, squeeze=False)[0])
    for ax, g in zip(axes, gains):
        for d in discounts:
            curve = steady(np.maximum(curves[(g, d)], 0.5 / n_resamples))
            style = {k: v for k, v in styles[d].items() if k != "marker"}
            ax.plot(np.arange(1, curve.size + 1), curve, **style)
        ax.axhline(alpha, color="0.3", ls="--", lw=1)
        ax.set(yscale="log", ylim=(0.3 / n_resamples, 1.5), xlabel="system pairs, sorted by ASL",
               title=f"gain {g}: ASL curves, {topics} topics")
        _decade_ticks(ax)
    axes[0].set_ylabel("achieved significance level (bootstrap)")
    _discount_legend(fig, discounts, styles, **{f"alpha = {alpha:g}": Line2D([], [], color="0.3", ls="--", lw=1)})
    return fig


def swap_rate_panels(rates: Mapping[tuple[str, str], Sequence[float]], gains: Sequence[str], discounts: Sequence[str],
                     sizes: Sequence[int]) -> Figure:
    """Voorhees-Buckley swap rate against the size of the two disjoint query sets, per gain (panel) and discount.

    Examples
    --------
    >>> fig = swap_rate_panels({("linear", "log2"): [0.2, 0.1]}, ["linear"], ["log2"], [5, 10])
    >>> fig.axes[0].get_ylabel()
    'share of system pairs swapped'
    """
    styles = discount_styles(discounts)
    fig = Figure(figsize=(5.6 * len(gains), 4.2), layout="constrained")
    axes = np.atleast_1d(fig.subplots(1, len(gains), sharey=True, squeeze=False)[0])
    for ax, g in zip(axes, gains):
        for d in discounts:
            ax.plot(sizes, steady(rates[(g, d)]), ms=4, **styles[d])
        ax.set(xlabel="queries per subset c", title=f"gain {g}: swap rate between disjoint query sets", ylim=(0, None))
        ax.set_xticks(sizes, [str(c) for c in sizes])
    axes[0].set_ylabel("share of system pairs swapped")
    _discount_legend(fig, discounts, styles)
    return fig


def queries_needed_panels(curves: pd.DataFrame, gains: Sequence[str], discounts: Sequence[str], sizes: Sequence[int],
                          *, target_accuracy: float, alpha: float) -> Figure:
    """Against the number of queries: ordering accuracy (top, 95% band) and expected discriminative power (bottom).

    ``curves`` has the columns gain, discount, size, accuracy, accuracy_low, accuracy_high, expected_power.

    Examples
    --------
    >>> t = pd.DataFrame(dict(gain="linear", discount="log2", size=[5, 10], accuracy=[0.8, 0.9], accuracy_low=[0.79, 0.89],
    ...                       accuracy_high=[0.81, 0.91], expected_power=[0.1, 0.3]))
    >>> fig = queries_needed_panels(t, ["linear"], ["log2"], [5, 10], target_accuracy=0.9, alpha=0.05)
    >>> [ax.get_ylabel() for ax in fig.axes]
    ['ordering accuracy (95% band)', 'share of pairs with ASL < 0.05']
    """
    styles = discount_styles(discounts)
    fig = Figure(figsize=(5.6 * len(gains), 7.6), layout="constrained")
    axes = fig.subplots(2, len(gains), sharex=True, sharey="row", squeeze=False)
    for j, g in enumerate(gains):
        for d in discounts:
            rows = select(curves, gain=g, discount=d).sort_values("size")
            c = _column(rows, "size")
            axes[0, j].plot(c, _column(rows, "accuracy"), ms=4, **styles[d])
            axes[0, j].fill_between(c, _column(rows, "accuracy_low"), _column(rows, "accuracy_high"),
                                    color=styles[d]["color"], alpha=0.12, lw=0)
            axes[1, j].plot(c, _column(rows, "expected_power"), ms=4, **styles[d])
        axes[0, j].axhline(target_accuracy, color="0.3", ls="--", lw=1)
        axes[0, j].set(title=f"gain {g}: pairs ordered as the truth", xscale="log")
        axes[1, j].set(title=f"gain {g}: expected discriminative power", xlabel="queries c", xscale="log", ylim=(0, 1))
        for ax in axes[:, j]:
            ax.set_xticks(sizes, [str(c) for c in sizes])
            ax.minorticks_off()
    axes[0, 0].set_ylabel("ordering accuracy (95% band)")
    axes[1, 0].set_ylabel(f"share of pairs with ASL < {alpha:g}")
    _discount_legend(fig, discounts, styles,
                     **{f"target accuracy {target_accuracy:g}": Line2D([], [], color="0.3", ls="--", lw=1)})
    return fig


def measure_agreement_heatmap(tau: np.ndarray, labels: Sequence[str], title: str) -> Figure:
    """Kendall's tau between the system orderings of every two measures, as a heat map.

    Examples
    --------
    >>> fig = measure_agreement_heatmap(np.array([[1.0, 0.9], [0.9, 1.0]]), ["a", "b"], "t")
    >>> fig.axes[0].get_title()
    't'
    """
    off = tau[~np.eye(len(labels), dtype=bool)]
    fig = Figure(figsize=(9, 7.5), layout="constrained")
    ax = fig.subplots()
    image = ax.imshow(steady(tau), cmap="viridis", vmin=np.floor(off.min() * 20) / 20 if off.size else 0, vmax=1)
    ax.set_xticks(range(len(labels)), labels, rotation=90, fontsize=8)
    ax.set_yticks(range(len(labels)), labels, fontsize=8)
    fig.colorbar(image, ax=ax, label="Kendall's tau between system orderings")
    ax.set_title(title)
    return fig


def per_list_scatter(measures: pd.DataFrame, gains: Sequence[str], discounts: Sequence[str], *,
                     target_accuracy: float, cap: float) -> Figure:
    """Each measure's per-topic win probability against the queries it needs (95% bootstrap interval, capped at ``cap``).

    Examples
    --------
    >>> t = pd.DataFrame(dict(gain="linear", discount="log2", per_topic_win=[0.6], queries_needed=[20.0],
    ...                       queries_needed_low=[18.0], queries_needed_high=[23.0]))
    >>> per_list_scatter(t, ["linear"], ["log2"], target_accuracy=0.9, cap=1000).axes[0].get_yscale()
    'log'
    """
    styles = discount_styles(discounts)
    fig = Figure(figsize=(7.0, 5.6), layout="constrained")
    ax = fig.subplots()
    shapes = dict(zip(gains, "osD^v"))
    for r in measures.itertuples():
        centre = steady([r.queries_needed])
        low, high = steady([r.queries_needed_low]), steady([min(r.queries_needed_high, cap)])
        ax.errorbar([r.per_topic_win], centre, yerr=_errors(centre, low, high), fmt=shapes[r.gain],
                    color=styles[r.discount]["color"], ms=6 if r.discount == "log2" else 5, capsize=2,
                    zorder=styles[r.discount]["zorder"])
    ax.set(xlabel="per-topic P(more skilled system scores strictly higher)",
           ylabel=f"queries for ordering accuracy {target_accuracy:g}", yscale="log",
           title="Per-list distinguishability vs queries needed")
    _log_ticks(ax)
    handles = [Line2D([], [], color=styles[d]["color"], marker="o", ls="none", ms=6) for d in discounts]
    handles += [Line2D([], [], color="0.3", marker=shapes[g], ls="none", ms=6) for g in gains]
    labels = [f"{d} ({parse_discount(d).decay})" for d in discounts] + [f"gain {g}" for g in gains]
    _legend_below(fig, handles, labels, ncols=3)
    return fig


# --------------------------------------------------------------------------- notebook 08


def ranker_means_panels(table: pd.DataFrame, systems: Sequence[str], gains: Sequence[str], cutoffs: Sequence[str]
                        ) -> Figure:
    """Mean nDCG of each system with its 95% interval, per gain (colour), one panel per cut-off ("all": whole list).

    Examples
    --------
    >>> t = pd.DataFrame(dict(gain="g", cutoff="all", system=["a", "b"], mean=[0.2, 0.3], ci_low=[0.1, 0.2],
    ...                       ci_high=[0.3, 0.4]))
    >>> ranker_means_panels(t, ["a", "b"], ["g"], ["all"]).axes[0].get_title()
    'whole list'
    """
    fig = Figure(figsize=(6.2 * len(cutoffs), 3.6), layout="constrained")
    axes = np.atleast_1d(fig.subplots(1, len(cutoffs), squeeze=False)[0])
    for ax, cutoff in zip(axes, cutoffs):
        for c, gain in enumerate(gains):
            t = table[(table.gain == gain) & (table.cutoff.astype(str) == cutoff)].set_index("system").loc[list(systems)]
            mean = _column(t, "mean")
            ax.errorbar(mean, np.arange(len(systems)) + (c - 1) * 0.22,
                        xerr=_errors(mean, _column(t, "ci_low"), _column(t, "ci_high")), fmt="o", ms=4, color=f"C{c}",
                        label=gain, capsize=2)
        ax.set_yticks(np.arange(len(systems)), systems)
        ax.invert_yaxis()
        ax.set_xlabel("mean nDCG" + ("" if cutoff == "all" else f"@{cutoff}") + " (95% t interval)")
        ax.set_title("whole list" if cutoff == "all" else f"cut-off {cutoff}")
    axes[0].legend(fontsize=8, loc="center left", title="gain")
    return fig


def list_length_panels(means: pd.DataFrame, info: pd.DataFrame, systems: Sequence[str], discounts: Sequence[str],
                       gain: str) -> Figure:
    """Mean nDCG of each system (95% band) against the mean length of the sampled candidate lists, one panel per
    discount; shaded: the lengths at which every user's share of test items is kept.

    Examples
    --------
    >>> info = pd.DataFrame(dict(list_length=["10", "all"], mean_length=[10.0, 100.0], users_with_share_kept=[0.5, 1.0]))
    >>> m = pd.DataFrame(dict(gain="g", discount="log2", system="a", list_length=["10", "all"], mean=[0.3, 0.5],
    ...                       ci_low=[0.2, 0.4], ci_high=[0.4, 0.6]))
    >>> list_length_panels(m, info, ["a"], ["log2"], "g").axes[0].get_title()
    'log2'
    """
    cols = (len(discounts) + 1) // 2
    fig = Figure(figsize=(3.2 * cols, 6.2), layout="constrained")
    axes = fig.subplots(2, cols, sharex=True, squeeze=False)
    x = info["mean_length"].to_numpy(dtype=float)
    kept = info.loc[info.users_with_share_kept >= 0.999, "mean_length"]
    for ax, d in zip(axes.flat, discounts):
        for c, s in enumerate(systems):
            t = means[(means.gain == gain) & (means.discount == d) & (means.system == s)]
            ax.plot(x, _column(t, "mean"), marker="o", ms=3, color=f"C{c}", label=s)
            ax.fill_between(x, _column(t, "ci_low"), _column(t, "ci_high"), color=f"C{c}", alpha=0.2, lw=0)
        if len(kept):
            ax.axvspan(kept.min(), x.max(), color="0.9", zorder=0)
        ax.set(xscale="log", title=d)
    for ax in axes.flat[len(discounts):]:
        ax.axis("off")
    for ax in axes[:, 0]:
        ax.set_ylabel("mean nDCG (95% interval)")
    for ax in axes[-1]:
        ax.set_xlabel("list length n")
    axes.flat[0].legend(fontsize=7, loc="upper right")
    return fig


def list_length_distinguishability_panels(pairs: pd.DataFrame, info: pd.DataFrame, significant: Mapping, labels:
                                          Sequence[str], discounts: Sequence[str], gain: str, n_pairs: int) -> Figure:
    """Pairs of systems told apart (left) and their median standardized paired gap |d_z| (right) against the list
    length, one line per discount. ``significant[(list_length, discount)]`` counts the significant pairs.

    Examples
    --------
    >>> info = pd.DataFrame(dict(mean_length=[10.0, 100.0]))
    >>> p = pd.DataFrame(dict(gain="g", discount="log2", list_length=["10", "all"], effect_size=[0.2, 0.5]))
    >>> fig = list_length_distinguishability_panels(p, info, {("10", "log2"): 0, ("all", "log2"): 1}, ["10", "all"],
    ...                                             ["log2"], "g", 15)
    >>> fig.axes[0].get_ylabel()
    'significant pairs (of 15)'
    """
    fig = Figure(figsize=(11, 3.8), layout="constrained")
    axes = fig.subplots(1, 2)
    x = info["mean_length"].to_numpy(dtype=float)
    for c, d in enumerate(discounts):
        t = pairs[(pairs.gain == gain) & (pairs.discount == d)]
        axes[0].plot(x, [significant[(n, d)] for n in labels], marker="o", ms=3, color=f"C{c}", label=d)
        axes[1].plot(x, steady([t[t.list_length == n].effect_size.abs().median() for n in labels]), marker="o", ms=3,
                     color=f"C{c}", label=d)
    axes[0].set(xscale="log", xlabel="list length n", ylabel=f"significant pairs (of {n_pairs})",
                title="paired t test, Holm, 5%")
    axes[1].set(xscale="log", xlabel="list length n", ylabel="median |d_z| over pairs", title="standardized paired gap")
    axes[1].legend(fontsize=7, loc="upper left")
    return fig


def query_set_panels(power: pd.DataFrame, swaps: pd.DataFrame, discounts: Sequence[str], gain: str, n_pairs: int
                     ) -> Figure:
    """Discriminative power (left) and swap rate (right) of each discount against the number of users.

    Examples
    --------
    >>> pw = pd.DataFrame(dict(gain="g", discount="log2", users=[25, 50], power=[0.2, 0.4]))
    >>> sw = pd.DataFrame(dict(gain="g", discount="log2", size=[25], swap_rate=[0.3]))
    >>> query_set_panels(pw, sw, ["log2"], "g", 91).axes[1].get_ylabel()
    'swap rate'
    """
    fig = Figure(figsize=(11, 3.8), layout="constrained")
    axes = fig.subplots(1, 2)
    for c, d in enumerate(discounts):
        t = power[(power.gain == gain) & (power.discount == d)]
        axes[0].plot(_column(t, "users"), _column(t, "power"), marker="o", ms=3, color=f"C{c}", label=d)
        s = swaps[(swaps.gain == gain) & (swaps.discount == d)]
        axes[1].plot(_column(s, "size"), _column(s, "swap_rate"), marker="o", ms=3, color=f"C{c}", label=d)
    axes[0].set(xscale="log", xlabel="users", ylabel="discriminative power",
                title=f"share of {n_pairs} pairs significant (bootstrap, 5%)")
    axes[1].set(xscale="log", xlabel="users per set", ylabel="swap rate", title="order reversed on a disjoint user set")
    for ax, ticks in ((axes[0], sorted(set(power.users))), (axes[1], sorted(set(swaps["size"])))):
        ax.set_xticks(ticks, [str(t) for t in ticks])
        ax.minorticks_off()
    axes[0].legend(fontsize=7, loc="upper left")
    return fig


def convention_panels(means: pd.DataFrame, systems: Sequence[str], conventions: Sequence[str], depths: Sequence[str],
                      measures: Sequence[str]) -> Figure:
    """Mean of each system (95% interval) under each tool's convention, one panel per (run depth, measure).

    Examples
    --------
    >>> m = pd.DataFrame(dict(depth="100", measure="ndcg", system="a", convention=["x", "y"], mean=[0.3, 0.4],
    ...                       ci_low=[0.2, 0.3], ci_high=[0.4, 0.5]))
    >>> convention_panels(m, ["a"], ["x", "y"], ["100"], ["ndcg"]).axes[0].get_title()
    'ndcg, run files of depth 100'
    """
    fig = Figure(figsize=(5.6 * len(measures), 3.4 * len(depths)), layout="constrained")
    axes = fig.subplots(len(depths), len(measures), squeeze=False, sharey=True)
    for i, depth in enumerate(depths):
        for j, measure in enumerate(measures):
            ax = axes[i, j]
            for c, s in enumerate(systems):
                t = means[(means.depth == depth) & (means.measure == measure) & (means.system == s)]
                t = t.set_index("convention").reindex(list(conventions))
                mean = _column(t, "mean")
                ax.errorbar(mean, np.arange(len(conventions)) + (c - 2.5) * 0.1,
                            xerr=_errors(mean, _column(t, "ci_low"), _column(t, "ci_high")), fmt="o", ms=3,
                            color=f"C{c}", label=s, capsize=1.5)
            ax.set_yticks(np.arange(len(conventions)), conventions)
            ax.set_title(f"{measure}, run files of depth {depth}", fontsize=10)
            ax.set_xlabel("mean (95% interval)")
    axes[0, 0].invert_yaxis()
    axes[0, -1].legend(fontsize=7, loc="lower right")
    return fig


def cutoff_panels(means: pd.DataFrame, summary: pd.DataFrame, systems: Sequence[str], gains: Sequence[str],
                  cutoffs: Sequence[str], n_pairs: int) -> Figure:
    """nDCG@k against the whole list: the systems' means (left, first gain) and, per gain, the pairs significantly
    different and the decisions that change from the whole list (right).

    Examples
    --------
    >>> m = pd.DataFrame(dict(gain="g", system="a", cutoff=["5", "all"], mean=[0.2, 0.3], ci_low=[0.1, 0.2],
    ...                       ci_high=[0.3, 0.4]))
    >>> sm = pd.DataFrame(dict(gain="g", cutoff=["5", "all"], significant=[3, 4], decisions_changed=[1, 0]))
    >>> [t.get_text() for t in cutoff_panels(m, sm, ["a"], ["g"], ["5", "all"], 15).axes[0].get_xticklabels()]
    ['@5', 'whole']
    """
    fig = Figure(figsize=(11, 3.8), layout="constrained")
    axes = fig.subplots(1, 2)
    xk = np.arange(len(cutoffs))
    names = ["whole" if k == "all" else f"@{k}" for k in cutoffs]
    for c, s in enumerate(systems):
        t = means[(means.gain == gains[0]) & (means.system == s)]
        mean = _column(t, "mean")
        axes[0].errorbar(xk + (c - 2.5) * 0.05, mean, yerr=_errors(mean, _column(t, "ci_low"), _column(t, "ci_high")),
                         marker="o", ms=3, color=f"C{c}", label=s, capsize=2)
    axes[0].set_xticks(xk, names)
    axes[0].set(ylabel="mean nDCG (log2, 95% interval)", title=f"{len(systems)} systems, gain = {gains[0]}")
    axes[0].legend(fontsize=7)
    for c, gain in enumerate(gains):
        t = summary[summary.gain == gain]
        axes[1].plot(xk, _column(t, "significant"), marker="o", color=f"C{c}", label=f"{gain}: significant")
        axes[1].plot(xk, _column(t, "decisions_changed"), marker="s", ls="--", color=f"C{c}",
                     label=f"{gain}: changed vs whole")
    axes[1].set_xticks(xk, names)
    axes[1].set(ylabel=f"pairs (of {n_pairs})", title="decisions (paired t, Holm, 5%)")
    axes[1].legend(fontsize=7)
    return fig


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
        # One range for every panel (10^-6 to 1), labelled at the decades: panels compare at a glance, and a
        # short range no longer gets a label on every minor tick.
        ax.set(xscale="log", yscale="log", title=f"{label}: {d}", xlabel="n", ylim=(1e-6, 1.5))
        _decade_ticks(ax)
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


def _crossing_strip(ax: Axes, crossings: pd.DataFrame, first: str, second: str, discounts: Sequence[str]) -> None:
    """One row per discount: a marker at the n where its expected gap changes sign ("none" if it never does)."""
    for c, d in enumerate(discounts):
        cross = select(crossings, first=first, second=second, discount=d)
        where = cross["crossing_n"].iloc[0] if len(cross) else np.nan
        if np.isfinite(where):
            ax.plot([steady(where)], [c], _MARKERS[c % len(_MARKERS)], color=f"C{c}", ms=5)
        else:
            ax.text(0.99, c, "none", transform=ax.get_yaxis_transform(), ha="right", va="center", fontsize=7,
                    color=f"C{c}")
    ax.set(ylim=(len(discounts) - 0.4, -0.6), yticks=[])
    ax.set_ylabel("expected\ncrossing", fontsize=8)
    ax.grid(axis="y", visible=False)


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
    # The expected crossings get a strip of their own above the panels, one row per discount: drawn as vertical
    # lines inside the panels they piled up where several discounts cross at nearly the same n.
    strip = crossings is not None and value == "p_first"
    fig = Figure(figsize=(5.0 * len(pairs), 3.2 * len(models) + 0.9 + (1.1 if strip else 0.0)), layout="constrained")
    grid = fig.subplots(len(models) + strip, len(pairs), sharex=True, squeeze=False,
                        gridspec_kw=dict(height_ratios=[1.1] * strip + [3.2] * len(models)))
    axes, strips = grid[int(strip):], grid[0] if strip else []
    for ax in axes.flat[1:]:
        ax.sharey(axes.flat[0])
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
            if value == "p_first":
                ax.axhline(0.5, color="0.5", lw=0.8, ls="--")
            ax.set(xscale="log", ylim=(-0.03, 1.03))
            ax.label_outer()
    # The pair changes from column to column, so the row label says "first ranker" and the
    # column title says which ranker is first.
    ylabel = "P(first ranker scores higher)" if value == "p_first" else "decision differs from log2"
    _label_matrix(axes, [f"{a} vs {b}" for a, b in pairs], [f"{m}\n{ylabel}" for m in models])
    for ax, (first, second) in zip(strips, pairs):
        _crossing_strip(ax, crossings, first, second, discounts)
        ax.set_title(f"{first} vs {second}", fontsize=10)
    for ax in axes[0] if strip else []:
        ax.set_title("")
    _legend_below(fig, [h for h, _ in handles], [t for _, t in handles], ncols=4)
    if value == "p_first":
        title = "Share of data sets on which the exact head scores strictly higher (Wilson 95%)"
    else:
        title = "Share of data sets on which a discount picks another winner than log2 (Wilson 95%)"
    fig.suptitle(title, fontsize=11)
    return fig
