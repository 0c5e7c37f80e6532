"""Notebook 13: nDCG@k with k = n^a against the scaling law of the standardized gap."""

from __future__ import annotations

import math

from ...findings import Measured, Results, number, threshold
from ...pipeline.tables import agreement_counts

#: The notebook's model labels by spec.
LABELS = {"probit": "certain", "probit(lo=0.1, hi=0.6)": "uncertain"}


def _a_star(value: float) -> str:
    return "none <= 1" if not math.isfinite(value) else number(value, 2)


def cutoff_growth(results: Results) -> Measured:
    """Numbers and verdict of 'cutoff-growth' (text: ``findings.toml``)."""
    trend = results.table("13_trends.csv")
    threshold("exponent_margin")  # the notebook's law makes a call only beyond it
    counts = agreement_counts(trend["agreement"])
    chance = (1 - threshold("trend_confidence")) * counts["called"]
    verdict = "does not hold" if counts["contradicts"] > chance else "holds" if counts["agrees"] else "undecided"
    root = trend[(trend["a"] == 0.5) & (trend["discount"] == "log2")]
    slow = trend[(trend["model"] == "probit(lo=0.1, hi=0.6)") & (trend["discount"] == "log2")]
    stars = trend.drop_duplicates(["model", "worse", "discount"])
    return Measured(
        verdict,
        {
            **counts,
            "chance": f"{chance:.1f}",
            "n_max": int(trend["n_to"].max()),
            "root": [
                {
                    "label": LABELS.get(r.model, r.model),
                    "pair": f"{r.better} > {r.worse}",
                    "fitted": f"{number(r.exponent, 2)} [{number(r.exponent_low, 2)}, {number(r.exponent_high, 2)}]",
                    "measured": r.measured,
                    "law": number(r.law_exponent, 2),
                    "a_star": _a_star(r.a_star),
                }
                for r in root.itertuples()
            ],
            "stars": [
                {
                    "label": LABELS.get(r.model, r.model),
                    "worse": r.worse,
                    "discount": r.discount,
                    "a_star": _a_star(r.a_star),
                }
                for r in stars.itertuples()
            ],
            "slow_stars": ", ".join(
                f"{w} {_a_star(a)}" for w, a in dict(zip(slow["worse"], slow["a_star"], strict=True)).items()
            ),
        },
        {name: float(value) for name, value in counts.items()},
    )
