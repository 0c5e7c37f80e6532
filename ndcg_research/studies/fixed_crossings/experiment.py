r"""Fixed ranking functions whose order depends on the discount, and how different two rankers must be (notebook 12).

``gated(q)`` (exact above the population quantile ``1 - q``, random below) against ``noisy(sigma)``: their expected
gain profiles cross at depth q and again deeper. Every slowly varying discount orders them by ``c_f`` as n grows,
``r^-beta`` (beta < 1) by its limit (:func:`sigma_window`); at finite n the order changes at a crossing n
(:func:`expected_gaps`, :func:`crossings`), which moves out like ``ln n_c ~ k_D J2 / |J1|`` as ``c_A -> c_B``, with
``J_k = int (g_A - g_B) (-ln t)^k dt`` (this package's second-order expansion; the notebook derives it)."""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence

import numpy as np
import pandas as pd
from scipy import integrate, optimize

from ...core import parse_discount
from ...findings import threshold
from ...pipeline.tables import pivot
from ...simulation import finite_n, theory
from ...simulation.model import parse_model, parse_ranker

#: The spec of ``noisy(sigma)`` (the theory parses it).
_noisy = "noisy(sigma={!r})".format


def sigma_window(model: str, first: str, beta: float = 0.5) -> tuple[float, float]:
    """``(sigma_beta, sigma_zero)``: the noise levels at which ``noisy(sigma)`` ties ``first`` under ``power(beta)``
    (equal limits) and under every slowly varying discount (equal ``c_f``)."""
    c_first = theory.c_coefficient(model, first)
    limit_first = theory.power_limit(model, first, beta)
    zero = optimize.brentq(lambda s: theory.c_coefficient(model, _noisy(s)) - c_first, 1e-3, 100, xtol=1e-10)
    half = optimize.brentq(lambda s: theory.power_limit(model, _noisy(s), beta) - limit_first, 1e-3, 100, xtol=1e-10)
    return half, zero


def profile_crossings(model: str, first: str, second: str, points: int = 2000) -> list[float]:
    """Depths t in (0, 1) where ``g_first(t) - g_second(t)`` changes sign, from a log grid of ``points`` depths
    (:func:`~ndcg_research.simulation.theory.profile_crossings`)."""
    grid = np.concatenate((np.geomspace(1e-9, 0.5, points // 2), 1 - np.geomspace(0.5, 1e-9, points // 2)[1:]))
    return theory.profile_crossings(theory.gain_profile(model, first), theory.gain_profile(model, second), grid)


def _weighted(model: str, first: str, second: str, power: int) -> float:
    """``J_power = int_0^1 (g_first - g_second)(t) (-ln t)^power dt`` (substituting t = e^-u)."""
    f, g = theory.gain_profile(model, first), theory.gain_profile(model, second)
    breaks = sorted({1.0, 4.0, 16.0, 64.0} | {-math.log(b) for p in (f, g) for b in p.breaks})
    edges = [0.0, *breaks, 745.0]

    def integrand(u: float) -> float:
        t = np.array([math.exp(-u)])
        return float((f(t) - g(t))[0]) * u**power * math.exp(-u)

    return float(sum(integrate.quad(integrand, a, b, limit=200, epsabs=1e-13)[0] for a, b in itertools.pairwise(edges)))


def first_order_table(model: str, first: str, seconds: Sequence[str]) -> pd.DataFrame:
    """The first-order order of ``first`` against each of ``seconds``: ``c_f`` (slowly varying discounts), the limits
    under ``power(beta=0.5)`` (``half_*``), the winners, ``J1``, ``J2`` and ``second_order_log_n = J2 / |J1|`` (``ln
    n_c`` of log2 by the second-order expansion when they have opposite signs, else NaN)."""
    model, first = str(parse_model(model)), str(parse_ranker(first))
    c1, h1 = theory.c_coefficient(model, first), theory.power_limit(model, first, 0.5)
    out = pd.DataFrame({"model": model, "first": first, "second": [str(parse_ranker(s)) for s in seconds]})
    out["c_first"], out["c_second"] = c1, [theory.c_coefficient(model, s) for s in out["second"]]
    out["delta_c"] = out["c_second"] - c1
    out["half_first"], out["half_second"] = h1, [theory.power_limit(model, s, 0.5) for s in out["second"]]
    for k in (1, 2):
        out[f"j{k}"] = [_weighted(model, first, s, k) for s in out["second"]]
    out["slow_winner"] = np.where(c1 < out["c_second"], first, out["second"])
    out["half_winner"] = np.where(h1 > out["half_second"], first, out["second"])
    out["second_order_log_n"] = (out["j2"] / out["j1"].abs()).where(out["j1"] * out["j2"] < 0, math.nan)
    return out


def expected_gaps(
    model: str, first: str, seconds: Sequence[str], discounts: Sequence[str], ns: Sequence[int]
) -> pd.DataFrame:
    """``E nDCG(first) - E nDCG(second)`` (finite-n theory) per second ranker, discount and n, and the ``preferred``."""
    model, first = parse_model(model), str(parse_ranker(first))
    seconds = [str(parse_ranker(s)) for s in seconds]
    specs = [parse_discount(d, builtin_only=True) for d in discounts]
    values = np.stack([finite_n.finite_n_values(model, [first, *seconds], specs, int(n)) for n in ns])
    keys = itertools.product([int(n) for n in ns], seconds, specs)  # in the order of values' (n, ranker, discount)
    out = pd.DataFrame([(str(model), first, s, str(d), d.decay, n) for n, s, d in keys], columns=_GAP_KEYS)
    out["gap"] = (values[:, :1] - values[:, 1:]).ravel()
    out["preferred"] = np.select([out["gap"] > 0, out["gap"] < 0], [first, out["second"]], "tie")
    return out


#: The key columns of an :func:`expected_gaps` table (its values: ``gap``, ``preferred``).
_GAP_KEYS = ["model", "first", "second", "discount", "decay", "n"]


def crossings(gaps: pd.DataFrame) -> pd.DataFrame:
    """Where the expected order changes, per (second, discount) of an :func:`expected_gaps` table: ``crossing_n``, the
    first sign change of the gap, interpolated in ln n (NaN: none on the grid), and the number of ``changes``."""
    rows = []
    for _, group in gaps.groupby(["second", "discount"], sort=False):
        group = group.sort_values("n")
        n, gap = group["n"].to_numpy(dtype=np.float64), group["gap"].to_numpy(dtype=np.float64)
        changed = np.flatnonzero(np.diff(np.sign(gap)) != 0)
        crossing = math.nan
        if changed.size:
            i = changed[0] + 1
            x0, x1 = math.log(n[i - 1]), math.log(n[i])
            crossing = float(round(math.exp(x0 + (x1 - x0) * gap[i - 1] / (gap[i - 1] - gap[i]))))
        row = group.iloc[0][_GAP_KEYS[:-1]].to_dict() | dict(n_min=int(n[0]), n_max=int(n[-1]))
        preferred = dict(preferred_at_n_min=group["preferred"].iloc[0], preferred_at_n_max=group["preferred"].iloc[-1])
        rows.append(row | preferred | dict(crossing_n=crossing, changes=int(changed.size)))
    return pd.DataFrame(rows)


def _majority(decisions: pd.DataFrame) -> tuple[pd.Series, np.ndarray]:
    """Whether ``p_first``'s Wilson interval excludes ``majority_share``, and the ranker most data sets pick."""
    share = threshold("majority_share")
    first_wins, second_wins = decisions["p_first_low"] > share, decisions["p_first_high"] < 1 - share
    picked = np.where(first_wins, decisions["first"], np.where(second_wins, decisions["second"], "undecided"))
    return first_wins | second_wins, picked


def agreement_table(decisions: pd.DataFrame, gaps: pd.DataFrame, crossing_table: pd.DataFrame) -> pd.DataFrame:
    """The decisions (``decision_table``) with the ``expected`` ranker (:func:`expected_gaps`), ``far`` (at least
    ``crossing_far_factor`` from the crossing), ``decided``, ``majority`` and ``agrees`` (decided, far, as expected)."""
    far_factor = threshold("crossing_far_factor")
    out = decisions.merge(gaps[["second", "discount", "n", "preferred"]], on=["second", "discount", "n"], how="left")
    out = out.rename(columns={"preferred": "expected"}).merge(
        crossing_table[["second", "discount", "crossing_n"]], on=["second", "discount"], how="left"
    )
    c = out["crossing_n"]
    out["far"] = c.isna() | (out["n"] <= c / far_factor) | (out["n"] >= c * far_factor)
    out["decided"], out["majority"] = _majority(out)
    out["agrees"] = out["decided"] & out["far"] & (out["majority"] == out["expected"])
    return out


def asymptotic_table(decisions: pd.DataFrame, first_order: pd.DataFrame) -> pd.DataFrame:
    """At the largest simulated n: the ranker each discount picks on most data sets (``majority``) against the
    ``first_order_winner`` (``slow_winner`` for slowly varying discounts, ``half_winner`` for ``power(beta=0.5)``, else
    ``""``); ``agrees``: 1.0, 0.0, or NaN without a first-order statement."""
    columns = ["first", "second", "discount", "n", "replicates", "p_first", "p_first_low", "p_first_high"]
    out = decisions.loc[decisions["n"] == decisions["n"].max(), columns].reset_index(drop=True)
    out.insert(3, "decay", [parse_discount(d).decay for d in out["discount"]])
    out["majority"] = _majority(out)[1]
    winners = first_order.set_index("second")
    slow, half = out["decay"] == "slowly varying", out["discount"] == "power(beta=0.5)"
    column = np.select([slow, half], ["slow_winner", "half_winner"], "")
    out["first_order_winner"] = [winners.loc[s, c] if c else "" for s, c in zip(out["second"], column, strict=True)]
    out["agrees"] = (out["majority"] == out["first_order_winner"]).astype(float).where(column != "")
    return out


def reliable_n(decisions: pd.DataFrame, first_order: pd.DataFrame, discount: str = "log2") -> pd.DataFrame:
    """Per pair (``decisions`` put the first-order winner first): ``n_reliable``, the simulated n from which the
    Wilson bound of P(winner strictly higher) under ``discount`` stays at least ``reliable_lower`` (NaN: never)."""
    lower = threshold("reliable_lower")
    rows = []
    for (winner, other), group in decisions[decisions["discount"] == discount].groupby(["first", "second"], sort=False):
        group = group.sort_values("n")
        pairs = zip(first_order["first"], first_order["second"], strict=True)
        fo = first_order[[{a, b} == {winner, other} for a, b in pairs]].iloc[0]
        if fo["slow_winner"] != winner:
            raise ValueError(f"decisions must put the first-order winner first: {fo['slow_winner']!r}, not {winner!r}")
        failed = np.flatnonzero((group["p_first_low"] < lower).to_numpy())
        start = 0 if failed.size == 0 else failed[-1] + 1
        rows.append(
            dict(
                winner=winner,
                other=other,
                delta_c=float(fo["delta_c"]),
                n_reliable=float(group["n"].iloc[start]) if start < len(group) else math.nan,
                p_last=float(group["p_first"].iloc[-1]),
                p_last_low=float(group["p_first_low"].iloc[-1]),
                replicates_last=int(group["replicates"].iloc[-1]),
            )
        )
    return pd.DataFrame(rows)


def law_slope(first_order: pd.DataFrame, crossing_table: pd.DataFrame, discount: str = "log2") -> dict[str, float]:
    """Slope of ``ln n_c`` (the expected crossing) against ``J2/|J1|`` over the three pairs nearest equality; the
    second-order expansion predicts ``k_D`` (1 for log2). ``agrees``: within the factor ``law_slope_factor`` of 1."""
    merged = first_order[["second", "second_order_log_n"]].merge(
        crossing_table[crossing_table["discount"] == discount][["second", "crossing_n"]], on="second"
    )
    merged = merged[np.isfinite(merged["second_order_log_n"]) & np.isfinite(merged["crossing_n"])]
    merged = merged.sort_values("second_order_log_n").tail(3)
    out = dict(slope=math.nan, points=len(merged), x_min=math.nan, x_max=math.nan, agrees=math.nan)
    if len(merged) >= 2:
        x, y = merged["second_order_log_n"].to_numpy(), np.log(merged["crossing_n"].to_numpy())
        slope, factor = float(np.polyfit(x, y, 1)[0]), threshold("law_slope_factor")
        out |= dict(slope=round(slope, 12), x_min=float(x.min()), x_max=float(x.max()))
        out["agrees"] = float(1 / factor <= slope <= factor)
    return out


def preference_table(agreement: pd.DataFrame) -> pd.DataFrame:
    """Which ranker each discount (rows) prefers at each simulated n (columns): ``'theory / simulation'`` cells of the
    rankers' kinds (``gated``, ``noisy``; ``-``: undecided; ``*``: near a predicted crossing, not judged)."""
    kind = {c: agreement[c].str.split("(").str[0].replace("undecided", "-") for c in ("expected", "majority")}
    cells = kind["expected"] + " / " + kind["majority"] + np.where(agreement["far"], "", " *")
    wide = pivot(agreement.assign(cell=cells), "discount", "n", "cell")
    wide.columns = [f"n = {n}" for n in wide.columns]
    return wide


def family_table(
    first_order: pd.DataFrame, crossing_table: pd.DataFrame, reliable: dict[str, pd.DataFrame], discounts: Sequence[str]
) -> pd.DataFrame:
    """Section 3 in one table: per second ranker, the first-order difference, expected crossings, log2's reliable n."""
    out = pd.DataFrame(
        {
            "noisy ranker": first_order["second"],
            "|c_gated - c_noisy|": [round(abs(float(v)), 4) for v in first_order["delta_c"]],
            "J2/|J1|": [round(float(v), 2) for v in first_order["second_order_log_n"]],
        }
    )

    def n_text(value: float) -> str:
        return "-" if not math.isfinite(value) else f"{value:.0f}"

    for d in discounts:
        rows = crossing_table[crossing_table["discount"] == d].set_index("second")
        out[f"expected crossing, {d}"] = [n_text(rows["crossing_n"].get(s, math.nan)) for s in out["noisy ranker"]]
    for label, table in reliable.items():
        rows = table.set_index("winner")
        out[f"log2 reliable from n ({label})"] = [
            n_text(rows["n_reliable"][s]) if s in rows.index else "not simulated" for s in out["noisy ranker"]
        ]
    return out


def answer_lines(
    agreement: pd.DataFrame,
    asymptotic: pd.DataFrame,
    reliable: dict[str, pd.DataFrame],
    slope: dict[str, float],
    n_max: int,
) -> list[str]:
    """The notebook's answers: the finite-n and the first-order predictions against the simulation, log2's reach."""
    lines = []
    for label, rows in agreement.groupby("label", sort=False):
        judged = rows[rows["far"]]
        decided = judged[judged["decided"]]
        lines.append(
            f"{label} top: far from a predicted crossing, the simulated majority picks the ranker the "
            f"finite-n theory picks in {int(decided['agrees'].sum())} of {len(decided)} decided cells "
            f"({len(judged) - len(decided)} more undecided)."
        )
    for label, rows in asymptotic.groupby("label", sort=False):
        judged = rows[rows["first_order_winner"] != ""]
        picks = "; ".join(f"{r.discount}: {r.majority} ({r.first_order_winner})" for r in judged.itertuples())
        lines.append(
            f"{label} top, n = {int(rows['n'].max())}, the ranker most data sets pick (first-order winner): {picks}; "
            f"as the first-order theory says in {int(judged['agrees'].sum())} of {len(judged)}."
        )
    for label, table in reliable.items():
        parts = [
            f"{abs(r.delta_c):.3f}: "
            + (f"n = {r.n_reliable:.0f}" if math.isfinite(r.n_reliable) else f"not by n = {n_max}")
            for r in table.sort_values("delta_c").itertuples()
        ]
        lines.append(
            f"{label} top, log2 picks the first-order winner reliably, by |c_gated - c_noisy|: {'; '.join(parts)}."
        )
    if math.isfinite(slope["slope"]):
        lines.append(
            f"Expected crossing under log2: ln n_c against J2/|J1| has slope {slope['slope']:.2f} over the "
            f"{int(slope['points'])} pairs nearest equality (second-order expansion: 1; within the factor "
            f"{threshold('law_slope_factor'):g}: {bool(slope['agrees'])}), so the n needed grows like "
            f"exp(J2 / |J1|) as the first-order constants meet."
        )
    return lines
