r"""Rankers whose order depends on the discount: where each discount puts the crossing (notebook 10).

Every other pair of rankers in the studies is nested (noise levels of one score), so every non-increasing discount
agrees on which is better. Here the two rankers trade places: ``head(m)`` (:mod:`ndcg_research.simulation.simulate`) is
exact on its first m ranks and random below, while ``noisy(sigma)`` is imperfect everywhere but still sorted below rank
m. Write ``H_f(t)`` for the expected gain a ranker collects in the top fraction t of the list; the head ranker is ahead
for small t, the noisy one for t near 1, and by summation by parts

.. math:: \mathbb E\,\mathrm{DCG}_A - \mathbb E\,\mathrm{DCG}_B
          = \sum_r \big(H_A(r) - H_B(r)\big)\,\big(D(r) - D(r+1)\big),

so a discount decides by how much weight ``D(r) - D(r+1)`` it gives the ranks where the head ranker leads. With m fixed
and n growing, the head becomes a vanishing share of the list, so every discount that keeps weight on a growing share of
the ranks ends up preferring the noisy ranker, at an n that depends on the discount.

- :func:`crossing_n`: the smallest n at which the expected nDCG of the two rankers changes order
  (:func:`~ndcg_research.simulation.finite_n.finite_n_ndcg`, exact order statistics), by bisection on a grid of n;
- :func:`decision_table`: on simulated data sets, how often each discount picks the head ranker, and how often its
  decision differs from that of a reference discount (``log2``) on the same data set.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import pandas as pd

from ..core import parse_discount
from ..stats import TIE_TOLERANCE, wilson_interval
from . import finite_n
from .model import parse_model, parse_ranker
from .sweeps import SweepResult


def expected_gap(model: str, first: str, second: str, discount: str, n: int) -> float:
    """``E nDCG(first) - E nDCG(second)`` at list length n, from the finite-n theory."""
    return float(_gaps(model, first, second, [discount], n)[0])


def _gaps(model: str, first: str, second: str, discounts: Sequence[str], n: int) -> np.ndarray:
    values = finite_n.finite_n_values(model, [first, second], discounts, n)
    return values[0] - values[1]


def crossing_n(
    model: str, first: str, second: str, discount: str, n_min: int, n_max: int, points: int = 41
) -> tuple[int | None, float, float]:
    """The smallest list length at which the expected order of two rankers differs from the one at ``n_min``.

    The expected gap is evaluated on ``points`` geometrically spaced n from ``n_min`` to
    ``n_max``; the first grid interval where its sign changes is narrowed by bisection on
    the integers. Crossings between two grid points that cancel each other are not seen.

    ``n_min``, ``n_max``: the range of list lengths, ``1 <= n_min < n_max``.

    Returns tuple: (n at which the sign first differs from the sign at ``n_min``, or None if it never does on the
    grid; the expected gap at ``n_min``; the expected gap at ``n_max``).
    """
    row = crossing_table(model, first, second, [discount], n_min, n_max, points).iloc[0]
    n = row["crossing_n"]
    return (None if math.isnan(n) else int(n)), float(row["gap_at_n_min"]), float(row["gap_at_n_max"])


def crossing_table(
    model: str, first: str, second: str, discounts: Sequence[str], n_min: int, n_max: int, points: int = 41
) -> pd.DataFrame:
    """:func:`crossing_n` for every discount: one row each.

    Returns pandas.DataFrame: columns: model, first, second, discount, decay, n_min, n_max, gap_at_n_min,
    gap_at_n_max, crossing_n (NaN if the order does not change in the range), first_ahead_below (the first ranker is
    ahead, in expectation, below the crossing).
    """
    model = str(parse_model(model))
    first, second = str(parse_ranker(first)), str(parse_ranker(second))
    specs = [str(parse_discount(d, builtin_only=True)) for d in discounts]
    if n_max <= n_min:
        raise ValueError(f"n_max must be larger than n_min, got {n_min} and {n_max}")
    grid = sorted({int(round(v)) for v in np.geomspace(n_min, n_max, points)} | {n_min, n_max})
    gaps = np.stack([_gaps(model, first, second, specs, n) for n in grid])  # (grid, discounts), shared work
    rows = []
    for j, spec in enumerate(specs):
        sign, crossing = np.sign(gaps[0, j]), math.nan
        changed = np.flatnonzero(np.sign(gaps[:, j]) != sign)
        if changed.size:
            lo, hi = grid[changed[0] - 1], grid[changed[0]]
            while hi - lo > 1:  # invariant: the sign at lo is the starting sign, at hi it is not
                mid = (lo + hi) // 2
                if np.sign(_gaps(model, first, second, [spec], mid)[0]) == sign:
                    lo = mid
                else:
                    hi = mid
            crossing = float(hi)
        decay, start, end = parse_discount(spec).decay, float(gaps[0, j]), float(gaps[-1, j])
        rows.append((model, first, second, spec, decay, n_min, n_max, start, end, crossing, bool(start > 0)))
    columns = "model first second discount decay n_min n_max gap_at_n_min gap_at_n_max crossing_n first_ahead_below"
    return pd.DataFrame(rows, columns=columns.split())


def decision_table(
    result: SweepResult, first: str, second: str, reference: str = "log2", tie_tolerance: float = TIE_TOLERANCE
) -> pd.DataFrame:
    """Per (discount, n): how often a discount picks ``first`` over ``second``, and how often it decides
    otherwise than ``reference`` on the same data set.

    A decision is the sign of nDCG(first) - nDCG(second) on one data set (a tie within
    ``tie_tolerance`` is a decision of its own).

    Returns pandas.DataFrame: columns: model, first, second, discount, n, replicates, p_first (share of data sets
    where ``first`` scores strictly higher) with its Wilson interval p_first_low, p_first_high; reference; p_differs
    (share where the decision differs from the reference discount's) with p_differs_low, p_differs_high; p_reversed
    (share where one of the two discounts picks ``first`` and the other ``second``); seed (the sweep's).
    """
    sweep = result.sweep
    first, second = sweep.canonical("ranker", first), sweep.canonical("ranker", second)
    reference = sweep.canonical("discount", reference)
    rows = []
    for d in sweep.discounts:
        for n in sweep.ns:

            def decide(discount: str, n: int = n) -> np.ndarray:
                gap = result.ndcg(first, discount, n) - result.ndcg(second, discount, n)
                return np.where(np.abs(gap) <= tie_tolerance, 0, np.sign(gap))

            here, there = decide(d), decide(reference)
            count = here.size
            wins, differs = int(np.count_nonzero(here > 0)), int(np.count_nonzero(here != there))
            (wl, wh), (dl, dh) = wilson_interval(wins, count), wilson_interval(differs, count)
            row = dict(model=sweep.model, first=first, second=second, discount=d, n=n, replicates=count)
            row.update(p_first=wins / count, p_first_low=wl, p_first_high=wh, reference=reference)
            row.update(p_differs=differs / count, p_differs_low=dl, p_differs_high=dh)
            rows.append({**row, "p_reversed": float(np.mean(here * there < 0)), "seed": sweep.seed})
    return pd.DataFrame(rows)
