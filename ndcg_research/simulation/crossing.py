r"""Rankers whose order depends on the discount (notebook 10): ``E DCG_A - E DCG_B = sum_r (H_A(r) - H_B(r)) (D(r) -
D(r+1))`` (``H_f``: expected gain in the top r), so with m fixed every discount that weighs a growing share of ranks
prefers ``noisy`` to ``head(m)`` from its own n on (:func:`crossing_n`); :func:`decision_table` counts simulated ones.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import pandas as pd

from .._validation import check_int, check_real
from ..core import parse_discount
from ..stats import TIE_TOLERANCE, wilson_interval
from . import finite_n
from .model import check_items, parse_model, parse_ranker, spec_list
from .sweeps import SweepResult


def expected_gap(model: str, first: str, second: str, discount: str, n: int) -> float:
    """``E nDCG(first) - E nDCG(second)`` at list length n, from the finite-n theory."""
    return float(np.subtract(*finite_n.finite_n_values(model, [first, second], [discount], n))[0])


def crossing_n(
    model: str, first: str, second: str, discount: str, n_min: int, n_max: int, points: int = 41
) -> tuple[int | None, float, float]:
    """The first n whose expected order of two rankers differs from n_min's (or None), and the gaps at both ends."""
    row = crossing_table(model, first, second, [discount], n_min, n_max, points).iloc[0]
    n = row["crossing_n"]
    return (None if math.isnan(n) else int(n)), float(row["gap_at_n_min"]), float(row["gap_at_n_max"])


def crossing_table(
    model: str, first: str, second: str, discounts: Sequence[str], n_min: int, n_max: int, points: int = 41
) -> pd.DataFrame:
    """:func:`crossing_n` for every discount, one row each: the expected gap on ``points`` geometric n from ``n_min`` to
    ``n_max``, the first sign change narrowed by bisection (crossings that cancel between grid points are not seen)."""
    model = str(parse_model(model))
    first, second = str(parse_ranker(first)), str(parse_ranker(second))
    specs = [str(parse_discount(d, builtin_only=True)) for d in spec_list(discounts, "discounts")]
    n_min, n_max = check_int(n_min, "n_min", low=1), check_items(n_max, "n_max")  # the finite-n theory holds n_max
    points = check_int(points, "points", low=1)
    if n_max <= n_min:
        raise ValueError(f"n_max must be larger than n_min, got {n_min} and {n_max}")
    grid = sorted({int(round(v)) for v in np.geomspace(n_min, n_max, points)} | {n_min, n_max})
    gaps = np.stack([np.subtract(*finite_n.finite_n_values(model, [first, second], specs, n)) for n in grid])
    rows = []
    for j, spec in enumerate(specs):
        sign, crossing = np.sign(gaps[0, j]), math.nan
        changed = np.flatnonzero(np.sign(gaps[:, j]) != sign)
        if changed.size:
            lo, hi = grid[changed[0] - 1], grid[changed[0]]
            while hi - lo > 1:  # invariant: the sign at lo is the starting sign, at hi it is not
                mid = (lo + hi) // 2
                same = np.sign(expected_gap(model, first, second, spec, mid)) == sign
                lo, hi = (mid, hi) if same else (lo, mid)
            crossing = float(hi)
        decay, start, end = parse_discount(spec).decay, float(gaps[0, j]), float(gaps[-1, j])
        rows.append((model, first, second, spec, decay, n_min, n_max, start, end, crossing, bool(start > 0)))
    columns = "model first second discount decay n_min n_max gap_at_n_min gap_at_n_max crossing_n first_ahead_below"
    return pd.DataFrame(rows, columns=columns.split())


def decision_table(
    result: SweepResult, first: str, second: str, reference: str = "log2", tie_tolerance: float = TIE_TOLERANCE
) -> pd.DataFrame:
    """Per (discount, n): how often a discount picks ``first`` over ``second`` (strictly), how often its decision (the
    sign of the gap, a tie its own) differs from ``reference``'s on the same data set, and how often it is reversed
    (``tie_tolerance`` finite and >= 0)."""
    sweep, tie_tolerance = result.sweep, check_real(tie_tolerance, "tie_tolerance", low=0)
    first, second = sweep.canonical("ranker", first), sweep.canonical("ranker", second)
    reference = sweep.canonical("discount", reference)

    def decide(discount: str, n: int) -> np.ndarray:
        gap = result.ndcg(first, discount, n) - result.ndcg(second, discount, n)
        return np.where(np.abs(gap) <= tie_tolerance, 0, np.sign(gap))

    rows = []
    for d in sweep.discounts:
        for n in sweep.ns:
            here, there = decide(d, n), decide(reference, n)
            count = here.size
            wins, differs = int(np.count_nonzero(here > 0)), int(np.count_nonzero(here != there))
            (wl, wh), (dl, dh) = wilson_interval(wins, count), wilson_interval(differs, count)
            row = dict(model=sweep.model, first=first, second=second, discount=d, n=n, replicates=count)
            row.update(p_first=wins / count, p_first_low=wl, p_first_high=wh, reference=reference)
            row.update(p_differs=differs / count, p_differs_low=dl, p_differs_high=dh)
            rows.append({**row, "p_reversed": float(np.mean(here * there < 0)), "seed": sweep.seed})
    return pd.DataFrame(rows)
