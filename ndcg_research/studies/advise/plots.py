"""Notebook 14 (``advise``): its headline figure, from ``advise``'s table (``14_advise_movielens.csv``)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from ...pipeline.headlines import Headline
from ...pipeline.style import column_discount_styles, column_figure, column_legend, round_significant, select

#: The headline's gain: the ratings as grades.
HEADLINE_GAIN = "linear"


def _table(results: Path) -> pd.DataFrame:
    """``advise``'s table of every candidate on MovieLens, as the notebook wrote it."""
    return pd.read_csv(results / "14_advise_movielens.csv", dtype={"cutoff": str}, keep_default_na=False)


def _cutoff_words(cutoff: str) -> str:
    return "whole list" if cutoff == "none" else f"@{cutoff}"


def headline_figure(results: Path) -> Figure:
    """One column, per candidate discount (lines) against the cut-off (gain :data:`HEADLINE_GAIN`): (a) the share of
    pairs of systems told apart, (b) the swap rate between disjoint halves of the users; the recommendation ringed."""
    table = select(_table(results), gain=HEADLINE_GAIN)
    cutoffs = sorted(dict.fromkeys(table["cutoff"]), key=lambda c: (c == "none", float(c) if c != "none" else 0.0))
    discounts = list(dict.fromkeys(table["discount"]))
    styles = column_discount_styles(discounts)
    x = np.arange(len(cutoffs))
    with column_figure(10.0, 2, 1, sharex=True) as (fig, (top, bottom)):
        for d in discounts:
            rows = table[table["discount"] == d].set_index("cutoff").loc[cutoffs]
            for ax, column in ((top, "power"), (bottom, "swap_rate")):
                ax.plot(x, round_significant(rows[column]), label=d, **styles[d])
                chosen = rows["recommended"].astype(str).str.lower().eq("true").to_numpy()
                ax.plot(x[chosen], round_significant(rows[column])[chosen], "o", ms=9, mfc="none", mec="k", mew=0.9)
        top.set(ylabel="pairs told apart (share)", title="(a) discriminative power (randomised Tukey HSD)")
        bottom.set(ylabel="swap rate", title="(b) swaps between disjoint halves of the users")
        bottom.set_xticks(x, [_cutoff_words(c) for c in cutoffs])
        return column_legend(fig, (top, bottom), 3, "cut-off (ringed: advise's recommendation)")


def headline_caption(results: Path) -> str:
    """The headline's caption."""
    table = _table(results)
    chosen = table[table["recommended"].astype(str).str.lower().eq("true")].iloc[0]
    return (
        f"advise on MovieLens-100k recommenders (gain {HEADLINE_GAIN}): per candidate discount and cut-off, (a) the "
        f"share of pairs of systems told apart and (b) the swap rate between disjoint halves of the users; ringed: "
        f"the recommended setting (discount {chosen['discount']}, cut-off {_cutoff_words(str(chosen['cutoff']))}, "
        f"gain {chosen['gain']})."
    )


HEADLINE = Headline.from_tables("14_headline", headline_figure, headline_caption)
