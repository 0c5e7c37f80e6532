"""Notebook 01 (the worked example): its figures (conventions: :mod:`ndcg_research.pipeline.style`); the headline
figure (:data:`HEADLINE`) is one journal column wide."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
from matplotlib.figure import Figure

from ...core import parse_discount, parse_gain
from ...pipeline.headlines import Headline
from ...pipeline.style import column_figure, round_significant

#: A bar's value, centred just above its top (with ``xytext``: the offset in points).
BAR_LABEL = dict(ha="center", va="bottom", textcoords="offset points")


def worked_example_panels(
    grades: Sequence[float],
    known: Sequence[float],
    contributions: Sequence[float],
    ideal_contributions: Sequence[float],
    *,
    k: int | None,
    dcg: float,
    idcg: float,
) -> Figure:
    """Left: per-position contributions g(rel_i) D(i) of the returned list and of the ideal. Right: the grades of the
    returned list against the ideal ranking of all known documents (ranks beyond the cut-off ``k`` shaded)."""
    contributions, ideal_contributions = round_significant(contributions), round_significant(ideal_contributions)
    ranks = np.arange(1, len(contributions) + 1)
    fig = Figure(figsize=(10, 4.4), layout="constrained")
    ax_c, ax_r = fig.subplots(1, 2)
    width = 0.4
    ax_c.bar(ranks - width / 2, contributions, width, label=f"returned (DCG = {dcg:.3f})", color="C0")
    hatched = dict(color="none", edgecolor="C1", hatch="//")
    ax_c.bar(ranks + width / 2, ideal_contributions, width, label=f"ideal (IDCG = {idcg:.3f})", **hatched)
    for x, c in zip(ranks, contributions, strict=False):
        ax_c.annotate(f"{c:.3f}", (x - width / 2, c), **BAR_LABEL, fontsize=8, xytext=(0, 2))
    top = max(contributions.max(), ideal_contributions.max()) * 1.15
    title = f"Per-position contributions, nDCG{'' if k is None else f'@{k}'} = {dcg / idcg:.3f}"
    ax_c.set(xlabel="rank i", ylabel="contribution g(rel$_i$) · D(i)", xticks=ranks, ylim=(0, top), title=title)
    all_ranks = np.arange(1, len(known) + 1)
    ax_r.bar(ranks - width / 2, round_significant(grades[: len(ranks)]), width, color="C0", label="returned list")
    label = f"ideal: all {len(known)} known documents"
    ax_r.bar(all_ranks + width / 2, round_significant(sorted(known, reverse=True)), width, **hatched, label=label)
    if k is not None and k < len(known):
        ax_r.axvspan(k + 0.5, len(known) + 0.5, color="0.9", zorder=0)
        ax_r.annotate(f"beyond k = {k}", (k + 0.6, max(known) * 1.1), ha="left", va="center", fontsize=9)
    grades_axis = dict(yticks=np.arange(0, max(known) + 1), ylim=(0, max(known) * 1.2))
    ax_r.set(xlabel="rank", ylabel="grade", xticks=all_ranks, **grades_axis, title="Returned ranking vs ideal ranking")
    fig.legend(*ax_c.get_legend_handles_labels(), loc="outside lower left", ncols=2, frameon=False)
    fig.legend(*ax_r.get_legend_handles_labels(), loc="outside lower right", ncols=2, frameon=False)
    return fig


def headline_figure(results: Path, example: Mapping[str, Any]) -> Figure:
    """One column: each rank's contribution g(rel_i) D(i) to the DCG of the returned list and to the ideal's, nDCG in
    the title; computed from ``example``, the run's parameters (``results``: unused)."""
    gain, discount, k = parse_gain(example["gain"]), parse_discount(example["discount"]), example["k"]
    grades = np.asarray(example["grades"], dtype=np.float64)
    known = [*example["grades"], *example["unretrieved_grades"]]
    n = len(grades) if k is None else min(k, len(grades))
    ranks = np.arange(1, n + 1)
    ideal = np.sort(np.asarray(known, dtype=np.float64))[::-1][:n]
    returned = round_significant(gain(grades[:n]) * discount(ranks))
    best = round_significant(gain(ideal) * discount(ranks))
    dcg, idcg = float(returned.sum()), float(best.sum())
    cut = "" if k is None else f"@{k}"
    with column_figure(5.2) as (fig, (ax,)):
        width = 0.4
        ax.bar(ranks - width / 2, returned, width, color="C0", label=f"returned list: DCG{cut} = {dcg:.3f}")
        label = f"ideal ranking: IDCG{cut} = {idcg:.3f}"
        ax.bar(ranks + width / 2, best, width, color="none", edgecolor="C1", hatch="////", lw=0.8, label=label)
        for x, c in zip(ranks, returned, strict=True):
            ax.annotate(f"{c:.2f}", (x - width / 2, c), **BAR_LABEL, xytext=(0, 1.5), fontsize=7)
        top = max(returned.max(), best.max()) * 1.45
        ax.set(xlabel="rank i", ylabel="contribution g(rel$_i$) D(i)", xticks=ranks, ylim=(0, top))
        ax.set_title(f"nDCG{cut} = {dcg:.3f} / {idcg:.3f} = {dcg / idcg:.3f}")
        ax.legend(loc="upper right", frameon=False)
        ax.grid(axis="x", visible=False)
        return fig


def headline_caption(results: Path, example: Mapping[str, Any]) -> str:
    """The headline's caption, naming the example of the run."""
    grades = ", ".join(str(g) for g in example["grades"])
    missing = ", ".join(str(g) for g in example["unretrieved_grades"])
    return (
        f"The worked example: returned grades {grades} (relevant but not returned: {missing}); each rank's "
        f"contribution to the DCG of the returned list and to the DCG of the ideal ranking of every known document "
        f"({example['gain']} gain, {example['discount']} discount)."
    )


HEADLINE = Headline("01_headline", headline_figure, headline_caption)
