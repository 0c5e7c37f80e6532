"""Notebook 05 (nDCG@k with k tied to n): the verdict of each cut-off cell (of a ``CutoffSweep``), nDCG@k against k,
and the limits."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd
from scipy import integrate

from ...findings import threshold
from ...simulation import theory
from ...simulation.cutoff import replicate_ndcg_at_k
from ...stats import CONFIDENCE, mean_interval, wilson_interval
from ...stats._replication import family_confidence

#: A cell *keeps* distinguishability when the family-wise lower bound of P(better strictly higher) is at least this.
KEEPS_AT_LEAST = threshold("cutoff_keeps_lower")
#: A cell *loses* it when the upper bound is at most this: little better than a coin flip (or ties dominate).
LOSES_AT_MOST = threshold("cutoff_loses_upper")


def ndcg_by_k(
    model: str, ranker: str, discount: str, n: int, ks: Sequence[int], *, replicates: int, seed: int
) -> np.ndarray:
    """nDCG@k of one ranker for many cut-offs k (in 1..n) on ``replicates`` data sets: shape (replicates, len(ks))."""
    rows = [replicate_ndcg_at_k(model, [ranker], [discount], n, ks, seed=seed, replicate=r) for r in range(replicates)]
    return np.stack(rows)[:, 0, 0]


def fraction_limit(model: str, ranker: str, c: float) -> float:
    """Heuristic limit of nDCG@k with ``k = c n``, c in (0, 1], under a slowly varying discount (flat in the relative
    rank over the top fraction c): ``int_0^c g_f / int_0^c g*``, which depends on the ranker unless c = 1."""
    star = theory.ideal_profile(model)
    grid = np.unique(np.concatenate(([0.0, c], star.edges[(star.edges > 0) & (star.edges < c)])))

    def area(profile: Any) -> float:  # piecewise over the ideal's steps
        pieces = itertools.pairwise(grid)
        return sum(
            integrate.quad(lambda t: profile(np.array([t]))[0], a, b, epsabs=1e-13, epsrel=1e-11)[0] for a, b in pieces
        )

    return area(theory.gain_profile(model, ranker)) / area(star)


def verdict_table(pair_table: pd.DataFrame, better: str, worse: str, *, confidence: float = CONFIDENCE) -> pd.DataFrame:
    """Per (model, rule, discount) cell of a cut-off pair table: ``keeps``, ``loses`` or ``undecided`` at the largest n
    (the family-wise Wilson interval of P(better strictly higher) against :data:`KEEPS_AT_LEAST`, :data:`LOSES_AT_MOST`)
    and the trend (``rising``, ``falling``: the 95% intervals at both ends do not overlap; else ``flat``)."""
    rows = pair_table[(pair_table["better"] == better) & (pair_table["worse"] == worse)]
    cells = list(rows.groupby(["model", "rule", "discount"], sort=False))
    level = family_confidence(len(cells), confidence=confidence)
    out = []
    for (model, rule, discount), cell in cells:
        cell = cell.sort_values("n")
        first, last = cell.iloc[0], cell.iloc[-1]
        trials = int(last["replicates"])
        low, high = wilson_interval(int(round(last["p_better"] * trials)), trials, confidence=level)
        verdict = "keeps" if low >= KEEPS_AT_LEAST else ("loses" if high <= LOSES_AT_MOST else "undecided")
        rising, falling = last["p_better_low"] > first["p_better_high"], last["p_better_high"] < first["p_better_low"]
        trend = "rising" if rising else "falling" if falling else "flat"
        out.append(
            dict(
                model=model,
                rule=rule,
                discount=discount,
                better=better,
                worse=worse,
                n_first=int(first["n"]),
                n_last=int(last["n"]),
                replicates=trials,
                p_better_first=float(first["p_better"]),
                p_better_last=float(last["p_better"]),
                family_low=low,
                family_high=high,
                family_size=len(cells),
                family_confidence=level,
                p_tie_last=float(last["p_tie"]),
                verdict=verdict,
                trend=trend,
            )
        )
    return pd.DataFrame(out)


def k_curves(
    models: Sequence[str], rankers: Sequence[str], n: int, ks: np.ndarray, *, replicates: int, seed: int
) -> tuple[dict, pd.DataFrame]:
    """Mean nDCG@k (log2) of each ranker at list length ``n`` for every k of ``ks``: the curves ``{(model, ranker):
    mean_interval}`` (for the figure) and the result table ``05_ndcg_by_k.csv``."""
    curves, tables = {}, []
    for model in models:
        for ranker in rankers:
            values = ndcg_by_k(model, ranker, "log2", n, ks, replicates=replicates, seed=seed)
            curve = curves[(model, ranker)] = mean_interval(values)
            table = pd.DataFrame({c: curve[c] for c in ("mean", "ci_low", "ci_high")})
            tables.append(table.assign(model=model, ranker=ranker, k=np.asarray(ks, dtype=int)))
    columns = ["model", "ranker", "k", "mean", "ci_low", "ci_high"]
    return curves, pd.concat(tables, ignore_index=True)[columns].assign(replicates=replicates, n=n, seed=seed)
