"""Notebook 14's figure: what ``advise`` measured for each discount and cut-off, drawn for a single column.

The figure is meant to be read at 8.5 cm wide (:data:`WIDTH_INCHES`) with every text at :data:`FONT_POINTS`.
"""

from __future__ import annotations

import pandas as pd
from matplotlib.figure import Figure
from matplotlib.lines import Line2D

from ...advice import POWER_MARGIN

#: One column of a two-column paper: 8.5 cm.
WIDTH_INCHES = 8.5 / 2.54
#: The size of every text of the figure, in points (at least 7 at the printed width).
FONT_POINTS = 7.0
#: A marker per cut-off label, as ``advise`` names them.
_MARKERS = {"none": "o", "10": "s", "20": "D", "100": "^"}


def _cutoff_label(cutoff: str) -> str:
    return "whole run file" if cutoff == "none" else f"@{cutoff}"


def advise_panels(table: pd.DataFrame, *, pairs: int, users: int) -> Figure:
    """Left: each candidate's discriminative power; right: its swap rate between disjoint halves of the users.

    One row per discount, one marker per cut-off, at the gain of the recommended setting; filled where ``advise``
    shortlisted the candidate (power within its margin of the highest, dashed line), hollow otherwise; the
    recommended one ringed. ``pairs``: the pairs of systems; ``users``: the users in each of the two disjoint sets.
    """
    chosen = table[table["recommended"]].iloc[0]
    rows = table[table["gain"] == chosen["gain"]]
    discounts = list(dict.fromkeys(rows["discount"]))
    cutoffs = list(dict.fromkeys(rows["cutoff"]))
    y = {d: len(discounts) - 1 - i for i, d in enumerate(discounts)}
    shift = {c: 0.3 * (j - (len(cutoffs) - 1) / 2) / max(len(cutoffs) - 1, 1) for j, c in enumerate(cutoffs)}
    fig = Figure(figsize=(WIDTH_INCHES, 2.6), layout="constrained")
    left, right = fig.subplots(1, 2, sharey=True)
    for ax, column in ((left, "power"), (right, "swap_rate")):
        for row in rows.itertuples():
            ax.plot(
                getattr(row, column),
                y[row.discount] + shift[row.cutoff],
                _MARKERS.get(row.cutoff, "v"),
                ms=4,
                mew=0.8,
                color=f"C{cutoffs.index(row.cutoff)}",
                mfc=f"C{cutoffs.index(row.cutoff)}" if row.shortlisted else "none",
            )
        ax.plot(chosen[column], y[chosen["discount"]] + shift[chosen["cutoff"]], "o", ms=9, mfc="none", mec="black")
        ax.tick_params(labelsize=FONT_POINTS)
        ax.margins(x=0.12)
        ax.grid(True, alpha=0.3)
    left.axvline(table["power"].max() - POWER_MARGIN, color="0.4", ls="--", lw=0.8)
    left.set_yticks(range(len(discounts)), [d for d in sorted(discounts, key=y.get)], fontsize=FONT_POINTS)
    left.set_xlabel(f"share of {pairs} pairs\ntold apart", fontsize=FONT_POINTS)
    right.set_xlabel(f"share of pairs swapped\n(2 x {users} users)", fontsize=FONT_POINTS)
    left.set_title("power: higher is better", fontsize=FONT_POINTS)
    right.set_title("swaps: lower is better", fontsize=FONT_POINTS)
    handles = [
        Line2D([], [], color=f"C{j}", marker=_MARKERS.get(c, "v"), ls="none", ms=4, label=_cutoff_label(c))
        for j, c in enumerate(cutoffs)
    ]
    handles += [
        Line2D([], [], color="0.4", marker="o", mfc="none", ms=4, ls="none", label="not shortlisted"),
        Line2D([], [], color="0.4", ls="--", lw=0.8, label="margin"),
        Line2D([], [], color="black", marker="o", mfc="none", ms=7, ls="none", label="recommended"),
    ]
    fig.legend(handles=handles, loc="outside lower center", ncol=4, fontsize=FONT_POINTS, frameon=False)
    return fig
