"""Notebooks 01 (the worked example) and 02 (the discount functions)."""

from __future__ import annotations

from ..model import Results, number
from .base import Measured, rule, threshold
from .shared import cases

__all__ = ["worked_example", "discount_weights"]


@rule("worked-example")
def worked_example(results: Results) -> Measured:
    """Numbers and verdict of 'worked-example' (text: ``texts/01_worked_example.toml``)."""
    table = results.table("01_worked_example.csv").set_index("quantity")
    quoted = table[table["article"].notna()]
    decimals = threshold("worked_example_decimals")
    matches = [round(float(m), decimals) == round(float(a), decimals) for m, a in zip(quoted["measured"], quoted["article"])]
    inflated = float(table.loc["nDCG, ideal from returned list only", "measured"])
    return Measured(
        "holds" if all(matches) else "does not hold",
        {"values": ", ".join(f"{q} {number(v, 4)}" for q, v in zip(quoted.index, quoted["measured"])),
         "agree": cases(sum(matches), len(matches)), "inflated": number(inflated, 3)},
        {q: float(v) for q, v in table["measured"].items()},
    )


@rule("discount-weights")
def discount_weights(results: Results) -> Measured:
    """Numbers and verdict of 'discount-weights' (text: ``texts/02_discount_functions.toml``)."""
    shares = results.table("02_top_share.csv")
    columns = [c for c in shares.columns if c.startswith("n=")]
    first, last = columns[0], columns[-1]
    toward = (shares[last] - shares["limit"]).abs() <= (shares[first] - shares["limit"]).abs() + 1e-12
    slow = shares[shares["decay"] == "slowly varying"]
    excess = (slow[last] / slow["limit"]).max()
    verdict = ("does not hold" if not toward.all() else
               "holds with qualification" if excess > threshold("top_share_excess") else "holds")
    return Measured(
        verdict,
        {"first": first[2:], "last": last[2:], "toward": bool(toward.all()), "excess": number(excess, 2),
         "shares": "; ".join(f"{d} {number(v, 3)}" for d, v in zip(shares["discount"], shares[last]))},
        {"max_slow_excess": float(excess)},
    )
