"""Plots and small text tables for the theory notebooks (02-04); imported only by notebooks.

Every function takes the tidy rows of :mod:`ndcg_research.studies.sweeps` /
:func:`ndcg_research.studies.theory.theory_rows` (lists of dicts) and returns a
Matplotlib figure (or text), so the notebooks hold only parameters, calls and
narrative. This module imports Matplotlib.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np
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
    "format_table",
]

_MARKERS = "osD^vP*X"


def select(rows: Iterable[Mapping[str, Any]], **where: Any) -> list[Mapping[str, Any]]:
    """The rows whose fields equal the given values, sorted by n when present.

    Examples
    --------
    >>> select([{"n": 2, "r": "a"}, {"n": 1, "r": "a"}, {"n": 1, "r": "b"}], r="a")
    [{'n': 1, 'r': 'a'}, {'n': 2, 'r': 'a'}]
    """
    out = [r for r in rows if all(r.get(k) == v for k, v in where.items())]
    return sorted(out, key=lambda r: r.get("n", 0))


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


def convergence_grid(ranker_rows: Sequence[Mapping[str, Any]], theory_rows: Sequence[Mapping[str, Any]],
                     discounts: Sequence[str], rankers: Sequence[str], title: str) -> Figure:
    """Mean nDCG vs n with 95% intervals, one panel per discount; theory: finite-n (line), limit (dotted).

    Examples
    --------
    >>> from ndcg_research.studies.sweeps import Sweep, run_sweep
    >>> s = Sweep.build("probit", ns=[20, 40], replicates=4, seed=0, rankers=["bayes", "random"],
    ...                 discounts=["log2", "zipf"], pairs=[("bayes", "random")])
    >>> result = run_sweep(s)
    >>> th = theory.theory_rows("probit", ["bayes", "random"], ["log2", "zipf"], [20, 40])
    >>> fig = convergence_grid(result.ranker_rows(), th, ["log2", "zipf"], ["bayes", "random"], "probit")
    >>> isinstance(fig, Figure), sum(ax.get_visible() for ax in fig.axes)   # one panel per discount
    (True, 2)
    """
    fig, axes = _grid(len(discounts), 4)
    for ax, d in zip(axes, discounts):
        for i, r in enumerate(rankers):
            rows = select(ranker_rows, discount=d, ranker=r)
            n = np.array([x["n"] for x in rows], dtype=float)
            mean = np.array([x["mean"] for x in rows])
            err = np.array([[x["mean"] - x["ci_low"], x["ci_high"] - x["mean"]] for x in rows]).T
            bar = ax.errorbar(n, mean, yerr=np.maximum(np.nan_to_num(err), 0.0), fmt=_MARKERS[i % len(_MARKERS)], ms=4,
                              capsize=2, label=r, lw=1)
            th = select(theory_rows, discount=d, ranker=r)
            if th:
                tn = np.array([x["n"] for x in th], dtype=float)
                ax.plot(tn, [x["finite_n"] for x in th], "-", color=bar[0].get_color(), lw=1, alpha=0.8)
                ax.axhline(th[0]["limit"], color=bar[0].get_color(), ls=":", lw=1)
        ax.set(xscale="log", title=_title(d), xlabel="n")
        if parse_discount(d).decay == "constant":  # exactly 1: keep the axis from zooming into rounding
            ax.set_ylim(0.9, 1.05)
    axes[0].set_ylabel("mean nDCG")
    axes[0].legend(fontsize=7)
    fig.suptitle(f"{title}: markers simulation (95% CI), lines finite-n theory, dotted the limit")
    return fig


def slow_convergence_grid(ranker_rows_by_model: Mapping[str, Sequence[Mapping[str, Any]]],
                          theory_rows_by_model: Mapping[str, Sequence[Mapping[str, Any]]],
                          discounts: Sequence[str], rankers: Sequence[str]) -> Figure:
    """1 - mean nDCG vs n (log-log) for slowly varying discounts: simulation, eps_D(n) c_f (dashed), finite-n (line).

    Examples
    --------
    >>> from ndcg_research.studies.sweeps import Sweep, run_sweep
    >>> s = Sweep.build("probit", ns=[20, 40], replicates=4, seed=0, rankers=["bayes", "random"],
    ...                 discounts=["log2", "zipf"], pairs=[("bayes", "random")])
    >>> result = run_sweep(s)
    >>> th = theory.theory_rows("probit", ["bayes", "random"], ["log2", "zipf"], [20, 40])
    >>> fig = slow_convergence_grid({"probit": result.ranker_rows()}, {"probit": th}, ["log2"], ["bayes", "random"])
    >>> isinstance(fig, Figure), fig.axes[0].get_title()
    (True, 'probit: log2')
    """
    models = list(ranker_rows_by_model)
    fig, axes = _grid(len(models) * len(discounts), len(discounts))
    for m_i, label in enumerate(models):
        for d_i, d in enumerate(discounts):
            ax = axes[m_i * len(discounts) + d_i]
            for i, r in enumerate(rankers):
                rows = select(ranker_rows_by_model[label], discount=d, ranker=r)
                n = np.array([x["n"] for x in rows], dtype=float)
                bar = ax.plot(n, [1 - x["mean"] for x in rows], _MARKERS[i % len(_MARKERS)], ms=4, label=r)
                th = select(theory_rows_by_model[label], discount=d, ranker=r)
                tn = np.array([x["n"] for x in th], dtype=float)
                color = bar[0].get_color()
                ax.plot(tn, [1 - x["finite_n"] for x in th], "-", color=color, lw=1)
                ax.plot(tn, [x["eps"] * x["c"] for x in th], "--", color=color, lw=1)
            ax.set(xscale="log", yscale="log", title=f"{label}: {d}", xlabel="n")
    axes[0].set_ylabel("1 - mean nDCG")
    axes[0].legend(fontsize=7)
    fig.suptitle("Slowly varying discounts: 1 - nDCG (markers), finite-n theory (line), eps_D(n) c_f (dashed)")
    return fig


def pair_grid(pair_rows: Sequence[Mapping[str, Any]], discounts: Sequence[str], pairs: Sequence[Sequence[str]],
              value: str, title: str, *, log_y: bool = False) -> Figure:
    """One panel per discount: ``value`` ("p_better" with Wilson intervals and p_tie dashed, or "std_gap") vs n.

    Examples
    --------
    >>> from ndcg_research.studies.sweeps import Sweep, run_sweep
    >>> s = Sweep.build("probit", ns=[20, 40], replicates=4, seed=0, rankers=["bayes", "random"],
    ...                 discounts=["log2", "zipf"], pairs=[("bayes", "random")])
    >>> result = run_sweep(s)
    >>> th = theory.theory_rows("probit", ["bayes", "random"], ["log2", "zipf"], [20, 40])
    >>> fig = pair_grid(result.pair_rows(), ["log2", "zipf"], [("bayes", "random")], "p_better", "P(bayes wins)")
    >>> isinstance(fig, Figure), sum(ax.get_visible() for ax in fig.axes)
    (True, 2)
    """
    fig, axes = _grid(len(discounts), 4)
    for ax, d in zip(axes, discounts):
        for i, (better, worse) in enumerate(pairs):
            rows = select(pair_rows, discount=d, better=better, worse=worse)
            n = np.array([x["n"] for x in rows], dtype=float)
            label = f"{better} > {worse}"
            if value == "p_better":
                p = np.array([x["p_better"] for x in rows])
                err = np.maximum(np.array([[x["p_better"] - x["p_better_low"], x["p_better_high"] - x["p_better"]]
                                           for x in rows]).T, 0.0)
                bar = ax.errorbar(n, p, yerr=err, fmt=_MARKERS[i % len(_MARKERS)] + "-", ms=4, capsize=2, lw=1,
                                  label=label)
                ties = np.array([x["p_tie"] for x in rows])
                if np.any(ties > 0):
                    ax.plot(n, ties, "--", color=bar[0].get_color(), lw=1)
            else:
                y = np.array([x[value] for x in rows], dtype=float)
                ax.plot(n, y, _MARKERS[i % len(_MARKERS)] + "-", ms=4, lw=1, label=label)
        ax.set(xscale="log", title=_title(d), xlabel="n")
        if log_y:  # symmetric log: keeps the sign (a negative gap = the worse ranker wins on average)
            ax.set_yscale("symlog", linthresh=0.1)
            ax.axhline(0, color="grey", lw=0.8, ls=":")
        if value != "p_better" and not any(np.isfinite(x[value]) for x in pair_rows if x["discount"] == d):
            ax.text(0.5, 0.5, "undefined: every gap is 0", transform=ax.transAxes, ha="center", va="center")
        if value == "p_better":
            ax.set_ylim(-0.03, 1.03)
            ax.axhline(0.5, color="grey", lw=0.8, ls=":")
    axes[0].legend(fontsize=7)
    fig.suptitle(title)
    return fig


def gap_over_eps_grid(pair_rows_by_model: Mapping[str, Sequence[Mapping[str, Any]]],
                      theory_rows_by_model: Mapping[str, Sequence[Mapping[str, Any]]],
                      discounts: Sequence[str], pairs: Sequence[Sequence[str]], title: str) -> Figure:
    """Mean gap / eps_D(n) vs n (one row of panels per model, one column per slowly varying discount),
    with ``c_worse - c_better`` (dashed) and the finite-n theory (line).

    Examples
    --------
    >>> from ndcg_research.studies.sweeps import Sweep, run_sweep
    >>> s = Sweep.build("probit", ns=[20, 40], replicates=4, seed=0, rankers=["bayes", "random"],
    ...                 discounts=["log2", "zipf"], pairs=[("bayes", "random")])
    >>> result = run_sweep(s)
    >>> th = theory.theory_rows("probit", ["bayes", "random"], ["log2", "zipf"], [20, 40])
    >>> fig = gap_over_eps_grid({"probit": result.pair_rows()}, {"probit": th}, ["log2"], [("bayes", "random")],
    ...                         "gap / eps")
    >>> isinstance(fig, Figure), fig.axes[0].get_ylabel()
    (True, 'mean gap / eps_D(n)')
    """
    models = list(pair_rows_by_model)
    fig, axes = _grid(len(models) * len(discounts), len(discounts), size=(3.8, 2.8))
    for m_i, label in enumerate(models):
        for d_i, d in enumerate(discounts):
            ax = axes[m_i * len(discounts) + d_i]
            for i, (better, worse) in enumerate(pairs):
                rows = select(pair_rows_by_model[label], discount=d, better=better, worse=worse)
                n = np.array([x["n"] for x in rows], dtype=float)
                scaled = np.array([x["mean_gap"] / x["eps"] for x in rows])
                err = np.array([[(x["mean_gap"] - x["gap_ci_low"]) / x["eps"],
                                 (x["gap_ci_high"] - x["mean_gap"]) / x["eps"]] for x in rows]).T
                bar = ax.errorbar(n, scaled, yerr=np.maximum(np.nan_to_num(err), 0.0), fmt=_MARKERS[i % len(_MARKERS)], ms=4,
                                  capsize=2, lw=1, label=f"{better} > {worse}")
                th = theory_rows_by_model[label]
                tb, tw = select(th, discount=d, ranker=better), select(th, discount=d, ranker=worse)
                tn = np.array([x["n"] for x in tb], dtype=float)
                color = bar[0].get_color()
                ax.plot(tn, [(b["finite_n"] - w["finite_n"]) / b["eps"] for b, w in zip(tb, tw)], "-",
                        color=color, lw=1)
                ax.axhline(tw[0]["c"] - tb[0]["c"], color=color, ls="--", lw=1)
            ax.set(xscale="log", title=f"{label}: {d}", xlabel="n")
    axes[0].set_ylabel("mean gap / eps_D(n)")
    axes[0].legend(fontsize=7)
    fig.suptitle(title)
    return fig


def pivot(rows: Sequence[Mapping[str, Any]], index: Sequence[str], column: str, value: str) -> list[dict[str, Any]]:
    """Rows keyed by the ``index`` fields with one column per distinct ``column`` value holding ``value``.

    Examples
    --------
    >>> pivot([{"a": 1, "d": "x", "v": 0.5}, {"a": 1, "d": "y", "v": 0.7}], ["a"], "d", "v")
    [{'a': 1, 'x': 0.5, 'y': 0.7}]
    """
    out: dict[tuple[Any, ...], dict[str, Any]] = {}
    for r in rows:
        key = tuple(r[k] for k in index)
        out.setdefault(key, {k: r[k] for k in index})[str(r[column])] = r[value]
    return list(out.values())


def format_table(rows: Sequence[Mapping[str, Any]], columns: Sequence[str], *, digits: int = 3) -> str:
    """Fixed-width text table; floats rounded to ``digits`` decimals (NaN shown as '-').

    A value that rounds to zero prints without a sign: its sign can flip with the
    last bit of a sum (BLAS results depend on memory alignment), and nbval
    compares these tables as text.

    Examples
    --------
    >>> print(format_table([{"a": "x", "b": 0.12345}, {"a": "y", "b": -1e-17}], ["a", "b"]))
    a      b
    x  0.123
    y  0.000
    """
    def cell(v: Any) -> str:
        if isinstance(v, float):
            if math.isnan(v):
                return "-"
            text = f"{v:.{digits}f}"
            return text.lstrip("-") if float(text) == 0 else text
        return str(v)

    text = [[cell(r[c]) for c in columns] for r in rows]
    widths = [max(len(c), *(len(t[i]) for t in text)) for i, c in enumerate(columns)]
    lines = ["  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(columns, widths)))]
    for t in text:
        lines.append("  ".join(v.ljust(w) if i == 0 else v.rjust(w) for i, (v, w) in enumerate(zip(t, widths))))
    return "\n".join(lines)
