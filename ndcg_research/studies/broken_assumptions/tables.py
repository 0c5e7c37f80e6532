"""The short tables notebook 16 shows (at most 15 rows each), built from the tables of :mod:`.experiment`."""

from __future__ import annotations

import pandas as pd

from ...stats._replication import share_label


def rounded(table: pd.DataFrame, digits: int = 3) -> pd.DataFrame:
    """Floats rounded to ``digits`` decimals (pandas' rounding; the notebook's printed tables)."""
    return table.round({c: digits for c in table.columns if pd.api.types.is_float_dtype(table[c])})


def where_ndcg_goes(ndcg: pd.DataFrame) -> pd.DataFrame:
    """Per sparse model: the random ranker's exact and simulated nDCG under log2 at the ends of n and its limits, and
    bayes's mean at both ends."""
    n0, n1 = ndcg["n"].min(), ndcg["n"].max()
    rows = []
    for model, part in ndcg.groupby("model", sort=False):
        log2 = part[part["discount"] == "log2"]
        random = log2[log2["ranker"] == "random"].set_index("n")
        best = log2[log2["ranker"] == "bayes"].set_index("n")
        loglog = part[(part["discount"] == "loglog") & (part["ranker"] == "random")]
        rows.append(
            {
                "model": model,
                f"random, exact, n = {n0}": random.loc[n0, "exact"],
                f"random, exact, n = {n1}": random.loc[n1, "exact"],
                f"random, simulated, n = {n1}": random.loc[n1, "mean"],
                "random, limit (log2)": random["limit"].iloc[0],
                "random, limit (loglog)": loglog["limit"].iloc[0],
                f"bayes, n = {n0}": best.loc[n0, "mean"] if n0 in best.index else float("nan"),
                f"bayes, n = {n1}": best.loc[n1, "mean"] if n1 in best.index else float("nan"),
            }
        )
    return rounded(pd.DataFrame(rows).set_index("model"))


def ratios_at(ratios: pd.DataFrame, n: int) -> pd.DataFrame:
    """The ratio cells at list length n: the standardized gaps under log2 and loglog, their ratio with its
    interval, and the rule's call."""
    rows = ratios[ratios["n"] == n]
    interval = [f"[{a:.3f}, {b:.3f}]" for a, b in zip(rows["ratio_low"], rows["ratio_high"], strict=True)]
    out = rows.assign(pair=rows["first"] + " vs " + rows["second"], interval=interval)
    out = out[["model", "pair", "d_denominator", "d_numerator", "ratio", "interval", "call"]]
    names = {"d_denominator": "d (log2)", "d_numerator": "d (loglog)", "interval": "95% interval"}
    return rounded(out.rename(columns=names).set_index(["model", "pair"]))


def p_correct(pairs: pd.DataFrame, discount: str) -> pd.DataFrame:
    """P(the first ranker of each pair scores strictly higher) under ``discount``, one column per n (a share the
    interval does not support as 1 or 0 is written as a count)."""
    rows = pairs[pairs["discount"] == discount].copy()
    rows["pair"] = rows["first"] + " vs " + rows["second"]
    rows["P"] = [
        share_label(p, int(m), digits=3, interval=False)
        for p, m in zip(rows["p_better"], rows["replicates"], strict=True)
    ]
    return rows.pivot_table(index=["model", "pair"], columns="n", values="P", aggfunc="first", sort=False)


def two_feature_summary(ndcg: pd.DataFrame, constants: pd.DataFrame) -> pd.DataFrame:
    """Per ranker: first-order constant c_f, limit under r^-1/2, mean nDCG under log2 and loglog at the largest n."""
    n1 = ndcg["n"].max()
    at = ndcg[ndcg["n"] == n1].pivot_table(index="ranker", columns="discount", values="mean", sort=False)
    out = constants.set_index("ranker")[["c_f", "power_half_limit"]].rename(
        columns={"c_f": "c_f (first order)", "power_half_limit": "limit, power(beta=0.5)"}
    )
    return rounded(out.join(at[["log2", "loglog"]].rename(columns=lambda d: f"mean, {d}, n = {n1}")), 4)
