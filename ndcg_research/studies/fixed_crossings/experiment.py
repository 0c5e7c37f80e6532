r"""Fixed ranking functions whose order depends on the discount, and how different two rankers must be (notebook 12).

Notebook 10's ``head(m)`` is exact on the top m items of *each data set*, so "the order depends on n" is built in. Here
both rankers are fixed functions of the feature x: ``gated(q)`` (exact above the population quantile
``Phi^{-1}(1 - q)``, random below; :mod:`~ndcg_research.simulation.simulate`) against ``noisy(sigma)`` (the same noise
everywhere). Their expected gain profiles cross at depth q (by construction: ``gated`` is exact above it, then falls to
the mean gain below the gate) and again deeper, where ``noisy`` sinks below that mean.

First order (:mod:`~ndcg_research.simulation.theory`): every slowly varying discount orders the two by ``c_f`` (the same
``c_f`` for all of them: they agree as n grows), ``r^-beta`` (beta < 1) by its limit
``int g_f t^-beta / int g* t^-beta``. Between ``sigma_half`` (equal ``r^-1/2`` limits) and ``sigma_zero`` (equal
``c_f``) the slowly varying discounts prefer ``noisy`` while ``r^-1/2`` prefers ``gated`` (:func:`sigma_window`). At
finite n the slowly varying discounts weigh the first ranks more than their limit does, so they prefer the exact top
first and change their minds at a crossing n; with ``L = ln n`` and ``J_k = int (g_A - g_B) (-ln t)^k dt``, the
expansion ``D(nt)/D(n) = 1 - eps ln t + k_D eps^2 ln^2 t + ...`` gives an expected gap proportional to
``J1/L + k_D J2/L^2``, so when ``J1 -> 0`` (c_A -> c_B) the crossing moves out like ``ln n_c ~ k_D J2 / |J1|`` (``k_D``
= 1 for log2, ``(1 + gamma)/2`` for ``logpower(gamma)``): the list length needed grows exponentially in
``1 / |c_A - c_B|`` (this package's derivation; the expansion is asymptotic, with large corrections at realistic n). The
crossings themselves come from the exact finite-n theory (:func:`expected_gaps`, :func:`crossings`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import pandas as pd
from scipy import integrate, optimize

from ...core import parse_discount
from ...findings import threshold
from ...simulation import finite_n, theory
from ...simulation.model import parse_model, parse_ranker


def _noisy(sigma: float) -> str:
    return str(parse_ranker(f"noisy(sigma={sigma!r})"))


def sigma_window(model: str, first: str, beta: float = 0.5) -> tuple[float, float]:
    """``(sigma_beta, sigma_zero)``: the noise levels at which ``noisy(sigma)`` ties ``first`` under ``power(beta)``
    (equal limits) and under every slowly varying discount (equal ``c_f``). Between them the slowly varying discounts
    prefer ``noisy(sigma)`` asymptotically, ``power(beta)`` prefers ``first`` (when it is the better at the top).
    """
    c_first = theory.c_coefficient(model, first)
    limit_first = theory.power_limit(model, first, beta)
    zero = optimize.brentq(lambda s: theory.c_coefficient(model, _noisy(s)) - c_first, 1e-3, 100, xtol=1e-10)
    half = optimize.brentq(lambda s: theory.power_limit(model, _noisy(s), beta) - limit_first, 1e-3, 100, xtol=1e-10)
    return half, zero


def profile_crossings(model: str, first: str, second: str, points: int = 2000) -> list[float]:
    """Depths t in (0, 1) where the expected gains ``g_first(t) - g_second(t)`` change sign: on a log grid of ``points``
    depths from 1e-9 to 1 - 1e-9, then by bisection (a jump, such as ``gated``'s at q, is found as such).
    """
    f, g = theory.gain_profile(model, first), theory.gain_profile(model, second)
    grid = np.concatenate((np.geomspace(1e-9, 0.5, points // 2), 1 - np.geomspace(0.5, 1e-9, points // 2)[1:]))
    diff = f(grid) - g(grid)
    found = []
    for i in np.flatnonzero(np.sign(diff[1:]) != np.sign(diff[:-1])):
        lo, hi = grid[i], grid[i + 1]
        for _ in range(80):  # bisection: the sign at lo is diff[i]'s
            mid = (lo + hi) / 2
            if np.sign(f(np.array([mid]))[0] - g(np.array([mid]))[0]) == np.sign(diff[i]):
                lo = mid
            else:
                hi = mid
        found.append(float(hi))
    return found


def _weighted(model: str, first: str, second: str, power: int) -> float:
    """``J_power = int_0^1 (g_first - g_second)(t) (-ln t)^power dt`` (substituting t = e^-u)."""
    f, g = theory.gain_profile(model, first), theory.gain_profile(model, second)
    breaks = sorted({1.0, 4.0, 16.0, 64.0} | {-math.log(b) for p in (f, g) for b in p.breaks})
    edges = [0.0, *breaks, 745.0]

    def integrand(u: float) -> float:
        t = np.array([math.exp(-u)])
        return float((f(t) - g(t))[0]) * u**power * math.exp(-u)

    return float(
        sum(
            integrate.quad(integrand, a, b, limit=200, epsabs=1e-13)[0]
            for a, b in zip(edges[:-1], edges[1:], strict=True)
        )
    )


def first_order_table(model: str, first: str, seconds: Sequence[str]) -> pd.DataFrame:
    """The asymptotic order of ``first`` against each ranker of ``seconds``, by the first-order theory.

    Returns pandas.DataFrame: one row per second ranker: model, first, second, c_first, c_second, delta_c
    (``c_second - c_first``: positive when every slowly varying discount prefers ``first`` as n grows), half_first,
    half_second (limits under ``power(beta=0.5)``), j1, j2 (the integrals of the module; ``j1 = p delta_c``),
    slow_winner and half_winner (``first`` or ``second``), second_order_log_n (``j2 / |j1|``: ``ln n_c`` of log2 by the
    second-order expansion, when ``j1`` and ``j2`` have opposite signs, else NaN).
    """
    model, first = str(parse_model(model)), str(parse_ranker(first))
    rows = []
    for second in (str(parse_ranker(s)) for s in seconds):
        c1, c2 = theory.c_coefficient(model, first), theory.c_coefficient(model, second)
        h1, h2 = theory.power_limit(model, first, 0.5), theory.power_limit(model, second, 0.5)
        j1, j2 = _weighted(model, first, second, 1), _weighted(model, first, second, 2)
        rows.append(
            dict(
                model=model,
                first=first,
                second=second,
                c_first=c1,
                c_second=c2,
                delta_c=c2 - c1,
                half_first=h1,
                half_second=h2,
                j1=j1,
                j2=j2,
                slow_winner=first if c1 < c2 else second,
                half_winner=first if h1 > h2 else second,
                second_order_log_n=j2 / abs(j1) if j1 * j2 < 0 else math.nan,
            )
        )
    return pd.DataFrame(rows)


def expected_gaps(
    model: str, first: str, seconds: Sequence[str], discounts: Sequence[str], ns: Sequence[int]
) -> pd.DataFrame:
    """``E nDCG(first) - E nDCG(second)`` from the finite-n theory, for every second ranker, discount and n.

    Returns pandas.DataFrame: columns: model, first, second, discount, decay, n, gap, preferred (the ranker with the
    larger expected nDCG; ``tie`` when equal).
    """
    model, first = parse_model(model), str(parse_ranker(first))
    seconds = [str(parse_ranker(s)) for s in seconds]
    specs = [parse_discount(d, builtin_only=True) for d in discounts]
    rows = []
    for n in ns:
        values = finite_n.finite_n_values(model, [first, *seconds], specs, int(n))  # (rankers, discounts)
        for i, second in enumerate(seconds, start=1):
            for j, d in enumerate(specs):
                gap = float(values[0, j] - values[i, j])
                rows.append(
                    dict(
                        model=str(model),
                        first=first,
                        second=second,
                        discount=str(d),
                        decay=d.decay,
                        n=int(n),
                        gap=gap,
                        preferred=first if gap > 0 else second if gap < 0 else "tie",
                    )
                )
    return pd.DataFrame(rows)


def crossings(gaps: pd.DataFrame) -> pd.DataFrame:
    """Where the expected order changes, per (second, discount) of an :func:`expected_gaps` table: the first sign change
    of the gap after the smallest n, interpolated linearly in ln n (rounded to an integer).

    Returns pandas.DataFrame: columns: model, first, second, discount, decay, n_min, n_max, preferred_at_n_min,
    preferred_at_n_max, crossing_n (NaN: no change on the grid), changes (the number of sign changes on the grid).
    """
    rows = []
    for (second, discount), group in gaps.groupby(["second", "discount"], sort=False):
        group = group.sort_values("n")
        n, gap = group["n"].to_numpy(dtype=np.float64), group["gap"].to_numpy(dtype=np.float64)
        signs = np.sign(gap)
        changed = np.flatnonzero(signs[1:] != signs[:-1])
        first_change = np.flatnonzero(signs != signs[0])
        crossing = math.nan
        if first_change.size:
            i = first_change[0]
            x0, x1 = math.log(n[i - 1]), math.log(n[i])
            crossing = float(round(math.exp(x0 + (x1 - x0) * gap[i - 1] / (gap[i - 1] - gap[i]))))
        head = group.iloc[0]
        rows.append(
            dict(
                model=head["model"],
                first=head["first"],
                second=second,
                discount=discount,
                decay=head["decay"],
                n_min=int(n[0]),
                n_max=int(n[-1]),
                preferred_at_n_min=head["preferred"],
                preferred_at_n_max=group["preferred"].iloc[-1],
                crossing_n=crossing,
                changes=int(changed.size),
            )
        )
    return pd.DataFrame(rows)


def agreement_table(decisions: pd.DataFrame, gaps: pd.DataFrame, crossing_table: pd.DataFrame) -> pd.DataFrame:
    """Does the majority of simulated data sets (``decision_table`` rows) pick the ranker the expected gap
    (:func:`expected_gaps`) picks, away from the :func:`crossings`?

    Returns the decisions with: expected (the preferred ranker at that n), far (at least ``crossing_far_factor`` away
    from the crossing, or none), decided (the Wilson interval of p_first excludes ``majority_share``), majority (the
    ranker most data sets pick, or ``undecided``), agrees (decided, far, and the majority is the expected ranker).
    """
    far_factor, share = threshold("crossing_far_factor"), threshold("majority_share")
    out = decisions.merge(gaps[["second", "discount", "n", "preferred"]], on=["second", "discount", "n"], how="left")
    out = out.rename(columns={"preferred": "expected"}).merge(
        crossing_table[["second", "discount", "crossing_n"]], on=["second", "discount"], how="left"
    )
    c = out["crossing_n"]
    out["far"] = c.isna() | (out["n"] <= c / far_factor) | (out["n"] >= c * far_factor)
    first_wins, second_wins = out["p_first_low"] > share, out["p_first_high"] < 1 - share
    out["decided"] = first_wins | second_wins
    out["majority"] = np.where(first_wins, out["first"], np.where(second_wins, out["second"], "undecided"))
    out["agrees"] = out["decided"] & out["far"] & (out["majority"] == out["expected"])
    return out


def asymptotic_table(decisions: pd.DataFrame, first_order: pd.DataFrame) -> pd.DataFrame:
    """At the largest simulated n: which ranker each discount picks on most data sets, against the first-order winner
    (``slow_winner`` for slowly varying discounts, ``half_winner`` for ``power(beta=0.5)``, else ``""``).

    Returns pandas.DataFrame: columns: first, second, discount, decay, n, replicates, p_first, p_first_low,
    p_first_high, majority (as in :func:`agreement_table`), first_order_winner, agrees (1.0, 0.0, or NaN without a
    first-order statement).
    """
    share = threshold("majority_share")
    rows = []
    top = decisions[decisions["n"] == decisions["n"].max()]
    winners = first_order.set_index("second")
    for r in top.itertuples(index=False):
        decay = parse_discount(r.discount).decay
        column = (
            "slow_winner" if decay == "slowly varying" else "half_winner" if r.discount == "power(beta=0.5)" else ""
        )
        winner = winners.loc[r.second, column] if column else ""
        majority = r.first if r.p_first_low > share else r.second if r.p_first_high < 1 - share else "undecided"
        rows.append(
            dict(
                first=r.first,
                second=r.second,
                discount=r.discount,
                decay=decay,
                n=int(r.n),
                replicates=int(r.replicates),
                p_first=r.p_first,
                p_first_low=r.p_first_low,
                p_first_high=r.p_first_high,
                majority=majority,
                first_order_winner=winner,
                agrees=float(majority == winner) if winner else math.nan,
            )
        )
    return pd.DataFrame(rows)


def reliable_n(decisions: pd.DataFrame, first_order: pd.DataFrame, discount: str = "log2") -> pd.DataFrame:
    """Per pair: from which simulated n ``discount`` picks the first-order winner reliably: the Wilson lower bound of
    P(first strictly higher) is at least the threshold ``reliable_lower`` at that grid n and every larger one.

    ``decisions`` (``decision_table``) must put the first-order winner of ``first_order`` first.

    Returns pandas.DataFrame: columns: winner, other, delta_c, n_reliable (NaN: not within the simulated n), p_last,
    p_last_low (at the largest n), replicates_last.
    """
    lower = threshold("reliable_lower")
    rows = []
    for (winner, other), group in decisions[decisions["discount"] == discount].groupby(["first", "second"], sort=False):
        group = group.sort_values("n")
        fo = first_order[
            ((first_order["first"] == winner) & (first_order["second"] == other))
            | ((first_order["first"] == other) & (first_order["second"] == winner))
        ].iloc[0]
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


def law_slope(
    first_order: pd.DataFrame, crossing_table: pd.DataFrame, discount: str = "log2", points: int = 3
) -> dict[str, float]:
    """Slope of ``ln n_c`` (the expected crossing) against ``J2/|J1|`` over the ``points`` pairs nearest equality (with
    a finite crossing and ``J1 J2 < 0``); the second-order expansion predicts ``k_D`` (1 for log2) as J1 -> 0.

    Returns dict: slope, points (used), x_min, x_max (their ``J2/|J1|``), agrees (the ratio of the slope to 1 within the
    threshold ``law_slope_factor``; NaN with fewer than 2 points).
    """
    merged = first_order[["second", "second_order_log_n"]].merge(
        crossing_table[crossing_table["discount"] == discount][["second", "crossing_n"]], on="second"
    )
    merged = merged[np.isfinite(merged["second_order_log_n"]) & np.isfinite(merged["crossing_n"])]
    merged = merged.sort_values("second_order_log_n").tail(points)
    out = dict(slope=math.nan, points=len(merged), x_min=math.nan, x_max=math.nan, agrees=math.nan)
    if len(merged) >= 2:
        x, y = merged["second_order_log_n"].to_numpy(), np.log(merged["crossing_n"].to_numpy())
        slope = float(np.polyfit(x, y, 1)[0])
        factor = threshold("law_slope_factor")
        out.update(
            slope=round(slope, 12),
            x_min=float(x.min()),
            x_max=float(x.max()),
            agrees=float(1 / factor <= slope <= factor),
        )
    return out


def preference_table(agreement: pd.DataFrame) -> pd.DataFrame:
    """Which ranker each discount (rows) prefers at each simulated n (columns): ``'theory / simulation'`` cells of the
    rankers' kinds (``gated``, ``noisy``; ``-``: undecided; ``*``: near a predicted crossing, not judged)."""

    def short(name: str) -> str:
        return "-" if name == "undecided" else name.split("(")[0]

    cells = agreement.assign(
        cell=[
            f"{short(e)} / {short(m)}" + ("" if far else " *")
            for e, m, far in zip(agreement["expected"], agreement["majority"], agreement["far"], strict=True)
        ]
    )
    wide = cells.pivot_table(index="discount", columns="n", values="cell", aggfunc="first", sort=False)
    wide.columns = [f"n = {n}" for n in wide.columns]
    return wide


def family_table(
    first_order: pd.DataFrame, crossing_table: pd.DataFrame, reliable: dict[str, pd.DataFrame], discounts: Sequence[str]
) -> pd.DataFrame:
    """Section 3 as one table: per second ranker, the first-order difference, the expected crossings of the slowly
    varying ``discounts`` (finite-n theory) and, per model label, the simulated n from which log2 decides reliably
    (``-``: not within the simulated n; ``not simulated``: a noise level of the theory only)."""
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
    """The notebook's answers: the finite-n predictions against the simulated majorities, the asymptotic agreement of
    the slowly varying discounts (and r^-1/2's disagreement), and how far out log2's reliable decision moves."""
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
