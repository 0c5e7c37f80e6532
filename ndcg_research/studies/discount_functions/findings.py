"""Notebook 02 (the discount functions): its finding."""

from __future__ import annotations

from ...findings import Measured, Results, number, threshold


def discount_weights(results: Results) -> Measured:
    """Numbers and verdict of 'discount-weights' (text: ``findings.toml``)."""
    shares = results.table("02_top_share.csv")
    columns = [c for c in shares.columns if c.startswith("n=")]
    first, last = columns[0], columns[-1]
    toward = (shares[last] - shares["limit"]).abs() <= (shares[first] - shares["limit"]).abs() + 1e-12
    slow = shares[shares["decay"] == "slowly varying"]
    excess = (slow[last] / slow["limit"]).max()
    slow_approach = bool(excess > threshold("top_share_excess"))
    return Measured(
        "holds" if toward.all() else "does not hold",
        {
            "first": int(float(first[2:])),
            "last": int(float(last[2:])),
            "toward": bool(toward.all()),
            "excess": number(excess, 2),
            "slow": "more than the threshold: the approach is slow" if slow_approach else "within the threshold",
            "shares": "; ".join(f"{d} {number(v, 3)}" for d, v in zip(shares["discount"], shares[last], strict=False)),
        },
        {"max_slow_excess": float(excess)},
    )
