"""The one figure of :class:`~ndcg_research.advice.Advice` (imports matplotlib)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from matplotlib.figure import Figure
from matplotlib.lines import Line2D

from ._advise import POWER_MARGIN, _at, _same_setting, _truncation
from ._measurements import queries_for_swap_rate

if TYPE_CHECKING:
    from ._advise import Advice

#: The cut-offs' marker shapes and the gains' fill styles in the table's order (none, 10, 20, 100: o, s, D, ^; linear
#: filled, exp2 hollow), the discounts' colours matplotlib's ten: beyond 15 cut-offs, 6 gains or 10 discounts, repeated.
_MARKERS = "osD^v<>phP*Xd8H"
_FILLS = ("full", "none", "left", "right", "bottom", "top")


def advice_figure(advice: Advice) -> Figure:
    """Left: every candidate's power and Phi (colour: discount; shape: cut-off; fill: gain), the rule's margin
    dashed; right: the swap curves of every discount at the recommended gain and cut-off, and the fit."""
    table, settings = advice.table, advice.settings
    fig = Figure(figsize=(11, 4.4), layout="constrained")
    left, right = fig.subplots(1, 2)
    discounts = list(dict.fromkeys(table["discount"]))
    colours = {d: f"C{i % 10}" for i, d in enumerate(discounts)}
    markers = {c: _MARKERS[i % len(_MARKERS)] for i, c in enumerate(dict.fromkeys(table["cutoff"]))}
    fills = {g: _FILLS[i % len(_FILLS)] for i, g in enumerate(dict.fromkeys(table["gain"]))}
    for _, row in table.iterrows():
        style = dict(marker=markers[row["cutoff"]], fillstyle=fills[row["gain"]], color=colours[row["discount"]])
        left.plot(row["power"], row["phi"], linestyle="", markersize=6.5, markeredgewidth=1.3, **style)
    chosen = table.loc[table["recommended"]].iloc[0]
    left.scatter(chosen["power"], chosen["phi"], s=260, facecolors="none", edgecolors="black", linewidths=1.5)
    left.annotate(
        "recommended", (chosen["power"], chosen["phi"]), textcoords="offset points", xytext=(8, -16), fontsize=9
    )
    left.axvline(table["power"].max() - POWER_MARGIN, color="grey", linestyle="--", linewidth=1)
    pairs = len(advice.systems) * (len(advice.systems) - 1) // 2
    left.set_xlabel(
        f"discriminative power (share of {'the one pair' if pairs == 1 else f'{pairs} pairs'}, "
        f"alpha = {settings['alpha']:g}, Tukey HSD)"
    )
    left.set_ylabel(f"dependability Phi ({advice.n_queries} queries)")
    handles = [Line2D([], [], color=colours[d], marker="o", linestyle="", label=d) for d in discounts]
    handles += [Line2D([], [], color="grey", marker=m, linestyle="", label=f"cut-off {c}") for c, m in markers.items()]
    handles += [
        Line2D([], [], color="grey", marker="o", fillstyle=fill, linestyle="", label=f"gain {g}")
        for g, fill in fills.items()
    ]
    left.legend(handles=handles, fontsize=7, loc="best", ncol=2)
    left.set_title("every candidate: the rule's margin dashed", fontsize=10)

    target = settings["target_swap_rate"]
    # Every discount at the recommended gain and cut-off: what the choice of discount does to the order's stability.
    same = table[_same_setting(table, chosen)]
    for _, row in same.iterrows():
        curve = advice.swap_curves[advice.swap_curves["measure"] == row["measure"]]
        sizes, rates = curve["size"].to_numpy(), curve["swap_rate"].to_numpy()
        mine = row["measure"] == chosen["measure"]
        right.plot(
            sizes,
            np.where(rates > 0, rates, np.nan),
            "o-" if mine else ".-",
            color=colours[row["discount"]],
            linewidth=2 if mine else 0.8,
            label=row["discount"] + (" (recommended)" if mine else ""),
        )
        if mine:
            queries, a, b = queries_for_swap_rate(sizes, rates, target)
            if np.isfinite(a) and b > 0:
                start, end = min(sizes.min(), queries), max(sizes.max(), min(queries, 20 * sizes.max()))
                grid = np.linspace(start, end, 100)
                right.plot(
                    grid, a * np.exp(-b * grid), ":", color="black", linewidth=1, label="exponential fit (recommended)"
                )
    right.axhline(target, color="grey", linestyle="--", linewidth=1)
    right.set_yscale("log")
    right.set_xlabel("queries in each of two disjoint sets")
    right.set_ylabel("swap rate (share of pairs ordered differently)")
    setting = f"{_at(chosen['cutoff'], _truncation(advice.settings))}, gain {chosen['gain']}"
    right.set_title(f"swap rate per discount ({setting}); target {target:g} grey", fontsize=10)
    right.legend(fontsize=7)
    return fig
