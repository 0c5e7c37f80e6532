"""Small text pieces that notebooks 11-13 print: intervals, and the comparison of a run with the full profile.

Kept here, tested, so that the notebooks' code cells only call and display.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import pandas as pd

from ...stats.replication import proportion_z

__all__ = ["interval_text", "replication_line", "trend_agreement", "agreement_counts"]

#: An absolute z beyond this is a disagreement between two independent runs beyond chance (as notebooks 03-10 use it).
REPLICATION_Z = 3.0


def interval_text(centre: float, low: float, high: float, digits: int = 2) -> str:
    """``'0.21 [0.15, 0.27]'``, or ``'-'`` when the value is undefined (NaN).

    Examples
    --------
    >>> interval_text(0.2123, 0.15, 0.27), interval_text(float("nan"), 0.0, 0.0)
    ('0.21 [0.15, 0.27]', '-')
    """
    if not math.isfinite(centre):
        return "-"
    return f"{centre:.{digits}f} [{low:.{digits}f}, {high:.{digits}f}]"


def replication_line(here: pd.DataFrame, full: pd.DataFrame, keys: Sequence[str], share: str,
                     trials: str = "replicates") -> str:
    """One sentence comparing the shares of two independent runs where both measured the same cell.

    Each common cell (equal ``keys``) gets a two-proportion z (:func:`~ndcg_research.stats.replication.proportion_z`);
    the sentence gives the number of cells, the largest absolute z and how many exceed :data:`REPLICATION_Z`,
    against about ``0.0027 x cells`` expected by chance (two-sided normal tail beyond 3).

    Examples
    --------
    >>> a = pd.DataFrame(dict(n=[10, 20], p=[0.5, 0.6], replicates=100, seed=1))
    >>> b = pd.DataFrame(dict(n=[10, 30], p=[0.55, 0.7], replicates=400, seed=2))
    >>> replication_line(a, b, ["n"], "p")
    'replication (seed 1 here, 2 in the full profile): 1 cells in common, largest |z| = 0.90, |z| > 3 in 0 (about 0.0 expected by chance)'
    >>> replication_line(a, a, ["n"], "p")
    'this run is the full profile itself: no independent replication to compare with'
    """
    seed_here, seed_full = int(here["seed"].iloc[0]), int(full["seed"].iloc[0])
    if seed_here == seed_full:
        return "this run is the full profile itself: no independent replication to compare with"
    both = here.merge(full, on=list(keys), suffixes=("", "_full"))
    if both.empty:
        return f"replication: no cell in common with the full profile (seed {seed_full})"
    z = proportion_z(both[share], both[trials], both[f"{share}_full"], both[f"{trials}_full"]).abs()
    chance = 0.0027 * len(both)
    return (f"replication (seed {seed_here} here, {seed_full} in the full profile): {len(both)} cells in common, "
            f"largest |z| = {z.max():.2f}, |z| > {REPLICATION_Z:g} in {int((z > REPLICATION_Z).sum())} "
            f"(about {chance:.1f} expected by chance)")


def trend_agreement(predicted: str, measured: str, flat: str = "flat") -> str:
    """How a measured trend compares with a predicted one: ``agrees``, ``contradicts``, ``unresolved`` or ``no call``.

    ``unresolved``: the prediction has a direction but the measurement cannot tell (its interval contains
    0: ``flat``, or it is ``undefined``); ``contradicts``: the measurement has another direction than the
    prediction, or a direction where a flat trend was predicted; ``no call``: the prediction has none.

    Examples
    --------
    >>> [trend_agreement(p, m) for p, m in [("grows", "grows"), ("grows", "flat"), ("grows", "shrinks"),
    ...                                     ("flat", "grows"), ("no call", "grows"), ("shrinks", "undefined")]]
    ['agrees', 'unresolved', 'contradicts', 'contradicts', 'no call', 'unresolved']
    """
    if predicted == "no call":
        return "no call"
    if measured == predicted:
        return "agrees"
    if measured in (flat, "undefined"):
        return "unresolved"
    return "contradicts"


def agreement_counts(agreement: pd.Series) -> str:
    """``'agrees in 10, contradicts in 1, unresolved in 3 of 14 cells with a prediction'``.

    Examples
    --------
    >>> agreement_counts(pd.Series(["agrees", "agrees", "unresolved", "no call"]))
    'agrees in 2, contradicts in 0, unresolved in 1 of 3 cells with a prediction'
    """
    called = agreement[agreement != "no call"]
    count = called.value_counts()
    return (f"agrees in {int(count.get('agrees', 0))}, contradicts in {int(count.get('contradicts', 0))}, "
            f"unresolved in {int(count.get('unresolved', 0))} of {len(called)} cells with a prediction")
