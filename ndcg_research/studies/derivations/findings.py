"""The findings of notebook 15: the rules of ``findings.toml`` applied to the notebook's result tables.

Each finding is a dict with the fields of :class:`ndcg_research.findings.model.Finding` that a study
provides (key, title, claim, source, measurement, summary, verdict, rule, thresholds, conditions,
tables, figures): the claim, rule and conditions are ``findings.toml``'s text, the measurement and the
verdict are computed here from the tables. :func:`answer` puts them in the table the notebook opens with.

The tables (written by the notebook, names in :data:`TABLES`): the checks of derivations (a) and (b)
(:func:`~ndcg_research.studies.derivations.experiments.first_order_check`), the levels at 1/r
(:func:`~ndcg_research.studies.derivations.experiments.zipf_levels`) and the exponents of nDCG@n^a
(:func:`~ndcg_research.studies.derivations.experiments.cutoff_grid`), from which :func:`crossing_table`
locates where the exponent changes sign.
"""

from __future__ import annotations

import math
import os
import tomllib
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from scipy import stats

__all__ = [
    "RULES",
    "TABLES",
    "threshold",
    "crossing_table",
    "first_order_finding",
    "mcdiarmid_finding",
    "a_star_finding",
    "zipf_levels_finding",
    "zipf_certain_finding",
    "findings",
    "answer",
]

#: The rules and thresholds of ``findings.toml``, by finding key.
RULES: dict[str, dict[str, Any]] = tomllib.loads((Path(__file__).with_name("findings.toml")).read_text("utf-8"))

#: The result tables of notebook 15, by role.
TABLES = {
    "first_order": "15_first_order.csv",
    "mcdiarmid": "15_mcdiarmid.csv",
    "zipf": "15_zipf_levels.csv",
    "cutoff": "15_cutoff_gaps.csv",
    "exponents": "15_cutoff_exponents.csv",
    "crossings": "15_crossings.csv",
}
NOTEBOOK = "15_derivations.ipynb"
FIGURES = ("15_levels_and_thresholds", "15_first_order")


def threshold(key: str, name: str) -> float:
    """A threshold of a finding's rule, e.g. ``threshold("a_star", "tolerance")``.

    Examples
    --------
    >>> threshold("a_star", "tolerance"), threshold("zipf_levels", "z")
    (0.05, 3.0)
    """
    return float(RULES[key][name])


def _finding(
    key: str, verdict: str, measurement: str, summary: str, tables: list[str], figures: tuple[str, ...] = ()
) -> dict[str, Any]:
    rule = RULES[key]
    names = [k for k, v in rule.items() if isinstance(v, (int, float)) and not isinstance(v, bool)]
    commit = f" at {rule['fixed_commit']}" if rule.get("fixed_commit") else ""
    return dict(
        key=key,
        title=rule["title"],
        claim=rule["claim"],
        source=rule["source"],
        measurement=measurement,
        summary=summary,
        verdict=verdict,
        rule=rule["rule"],
        thresholds="; ".join(f"{n} = {rule[n]:g}" for n in names) + f" (fixed {rule['fixed']}{commit}; "
        f"seen: {rule['seen']})",
        conditions=rule["conditions"],
        tables=tables,
        figures=figures,
        notebooks=(NOTEBOOK,),
    )


def _span(values: pd.Series, digits: int = 2) -> str:
    lo, hi = float(values.min()), float(values.max())
    return f"{lo:.{digits}g}" if f"{lo:.{digits}g}" == f"{hi:.{digits}g}" else f"{lo:.{digits}g} to {hi:.{digits}g}"


# --------------------------------------------------------------------------- (a)


def first_order_finding(gaps: pd.DataFrame) -> dict[str, Any]:
    """Derivation (a): T's standardized gap per sqrt(n) against the computed limit at the largest n."""
    z = threshold("first_order", "z")
    t = gaps[gaps["statistic"] == "T"]
    last = t[t["n"] == t["n"].max()].copy()
    last["z"] = (last["std_gap_per_root_n"] - last["limit"]) / np.hypot(last["se_per_root_n"], last["limit_se"])
    agree = bool((last["z"].abs() <= z).all())
    cells = "; ".join(
        f"{r.model}, {r.better} > {r.worse}: {r.std_gap_per_root_n:.4f} vs {r.limit:.4f} (z = {r.z:.1f})"
        for r in last.itertuples()
    )
    discounts = gaps[(gaps["statistic"] != "T")]
    first, end = discounts[discounts["n"] == discounts["n"].min()], discounts[discounts["n"] == discounts["n"].max()]
    ratio = "; ".join(
        f"{m} top: {_span(first[first['model'] == m]['ratio_to_T'])} at n = {first['n'].iloc[0]}, "
        f"{_span(end[end['model'] == m]['ratio_to_T'])} at n = {end['n'].iloc[0]}"
        for m in dict.fromkeys(discounts["model"])
    )
    measurement = (
        f"Standardized gap of T_n per sqrt(n) at n = {int(last['n'].iloc[0])} against the computed limit "
        f"p (c_B - c_A) / sd(h): {cells}. The discounts' own standardized gaps relative to T's "
        f"(log2, logpower(gamma=0.5), loglog): {ratio}."
    )
    summary = (
        f"T's gap per sqrt(n) {'within' if agree else 'not within'} {z:g} SE of the limit in every cell; "
        f"the discounts reach {_span(end['ratio_to_T'])} of it at n = {int(end['n'].iloc[0])}"
    )
    return _finding(
        "first_order",
        "holds" if agree else "does not hold",
        measurement,
        summary,
        [TABLES["first_order"]],
        ("15_first_order",),
    )


# --------------------------------------------------------------------------- (b)


def mcdiarmid_finding(failures: pd.DataFrame) -> dict[str, Any]:
    """Derivation (b): no cell's failure share lies above McDiarmid's bound beyond chance (family-wise)."""
    above = failures[failures["failure_low"] > failures["bound"]]
    smallest = failures.loc[failures["bound"].idxmin()]
    measurement = (
        f"{len(failures)} cells (top, pair, slowly varying discount, n up to {int(failures['n'].max())}): "
        f"failure shares {_span(failures['failure_share'], 2)}, bounds {_span(failures['bound'], 4)}; "
        f"cells whose family-wise ({failures['family_confidence'].iloc[0]:.4f}) Wilson lower bound exceeds "
        f"the bound: {len(above)}. Smallest bound: {smallest['bound']:.4f} ({smallest['model']}, "
        f"{smallest['better']} > {smallest['worse']}, {smallest['discount']}, n = {int(smallest['n'])}), "
        f"where the failure share is {smallest['failure_share']:.4f}."
    )
    summary = f"never violated in {len(failures)} cells; the bound is at least {failures['bound'].min():.3f} there"
    return _finding(
        "mcdiarmid", "holds" if above.empty else "does not hold", measurement, summary, [TABLES["mcdiarmid"]]
    )


# --------------------------------------------------------------------------- (c)


def _line_crossing(a: np.ndarray, e: np.ndarray, se: np.ndarray, confidence: float) -> tuple[float, float, float]:
    """Zero of the weighted least-squares line ``e = alpha + beta a`` and its interval (delta method).

    NaN unless the slope beta is positive at ``confidence`` (a flat line has no located zero).
    """
    design = np.column_stack([np.ones_like(a), a])
    weights = 1 / se**2
    cov = np.linalg.inv(design.T @ (design * weights[:, None]))
    alpha, beta = cov @ design.T @ (weights * e)
    z = stats.norm.ppf(0.5 + confidence / 2)
    if not beta - z * math.sqrt(cov[1, 1]) > 0:
        return math.nan, math.nan, math.nan
    a0 = -alpha / beta
    gradient = np.array([-1 / beta, alpha / beta**2])
    half = z * math.sqrt(gradient @ cov @ gradient)
    return float(a0), float(a0 - half), float(a0 + half)


def crossing_table(exponents: pd.DataFrame) -> pd.DataFrame:
    """Where the fitted growth exponent of nDCG@n^a changes sign, per (top, discount, pair), and the verdict.

    See the rule ``a_star`` in ``findings.toml``.

    Returns
    -------
    pandas.DataFrame
        model, discount, better, worse, resolved (count of resolved exponents), a_0, a_0_low, a_0_high (the
        pooled line's zero and interval), neighbours (the sign changes between neighbouring grid points,
        linear interpolation; 'all > 0' or 'all < 0' when there is none), a_star, a_star_n, distance
        (a_0 - a_star_n), verdict ('agrees', 'refuted', 'unresolved').

    Examples
    --------
    >>> t = pd.DataFrame(dict(model="m", discount="log2", better="b", worse="w", a=[0.3, 0.4, 0.5, 0.6],
    ...                       exponent=[-0.1, -0.02, 0.06, 0.13], exponent_low=[-0.15, -0.06, 0.02, 0.09],
    ...                       exponent_high=[-0.05, 0.02, 0.1, 0.17], a_star=0.4, a_star_n=0.42))
    >>> r = crossing_table(t).iloc[0]
    >>> round(float(r["a_0"]), 3), r["neighbours"], r["verdict"]
    (0.427, '0.425', 'agrees')
    """
    tolerance, halfwidth = threshold("a_star", "tolerance"), threshold("a_star", "resolved_halfwidth")
    confidence = threshold("a_star", "confidence")
    z = stats.norm.ppf(0.5 + confidence / 2)
    rows = []
    for (label, discount, better, worse), g in exponents.groupby(["model", "discount", "better", "worse"], sort=False):
        g = g.sort_values("a")
        half = (g["exponent_high"] - g["exponent_low"]) / 2
        ok = g[np.isfinite(g["exponent"]) & (half <= halfwidth)]
        a, e = ok["a"].to_numpy(), ok["exponent"].to_numpy()
        points = [
            float(a[i] + (a[i + 1] - a[i]) * e[i] / (e[i] - e[i + 1]))
            for i in range(a.size - 1)
            if e[i] * e[i + 1] < 0 or (e[i] == 0)
        ]
        neighbours = (
            ", ".join(f"{c:.3f}" for c in points)
            if points
            else "all > 0"
            if a.size and np.all(e > 0)
            else "all < 0"
            if a.size and np.all(e < 0)
            else ""
        )
        a_star_n = float(g["a_star_n"].iloc[0])
        a0 = low = high = math.nan
        if a.size >= 3:
            a0, low, high = _line_crossing(a, e, (half[ok.index] / z).to_numpy(), confidence)
        if not math.isfinite(a0):
            verdict = "unresolved"
        elif abs(a0 - a_star_n) <= tolerance:
            verdict = "agrees"
        elif low > a_star_n + tolerance or high < a_star_n - tolerance:
            verdict = "refuted"
        else:
            verdict = "unresolved"
        rows.append(
            dict(
                model=label,
                discount=discount,
                better=better,
                worse=worse,
                resolved=int(a.size),
                a_0=a0,
                a_0_low=low,
                a_0_high=high,
                neighbours=neighbours,
                a_star=float(g["a_star"].iloc[0]),
                a_star_n=a_star_n,
                distance=a0 - a_star_n,
                verdict=verdict,
            )
        )
    return pd.DataFrame(rows)


def a_star_finding(crossings: pd.DataFrame, exponents: pd.DataFrame) -> dict[str, Any]:
    """Derivation (c): the sign change of the fitted exponent against a*_n, per cell."""
    counts = crossings["verdict"].value_counts()
    agree, refuted, unresolved = (int(counts.get(v, 0)) for v in ("agrees", "refuted", "unresolved"))
    if refuted:
        verdict = "does not hold"
    elif agree == len(crossings):
        verdict = "holds"
    elif agree:
        verdict = "holds with qualification"
    else:
        verdict = "undecided"

    def located(r: Any) -> str:
        if not math.isfinite(r.a_0):
            return f"no zero located (exponents {r.neighbours or 'unresolved'})"
        return f"a_0 = {r.a_0:.3f} [{r.a_0_low:.3f}, {r.a_0_high:.3f}]"

    cells = "; ".join(
        f"{r.model}, {r.discount}, {r.better} > {r.worse}: {located(r)} vs a*_n = {r.a_star_n:.3f} "
        f"(a* = {r.a_star:.3f}), {r.verdict}"
        for r in crossings.itertuples()
    )
    n_from, n_to = int(exponents["n_from"].min()), int(exponents["n_to"].max())
    measurement = (
        f"Exponents fitted over n = {n_from} to {n_to} at a = 0.30 to 0.70: agrees in {agree}, refuted in "
        f"{refuted}, unresolved in {unresolved} of {len(crossings)} cells. {cells}."
    )
    summary = f"a* located within the tolerance in {agree} of {len(crossings)} cells, refuted in {refuted}"
    return _finding(
        "a_star",
        verdict,
        measurement,
        summary,
        [TABLES["crossings"], TABLES["exponents"], TABLES["cutoff"]],
        ("15_levels_and_thresholds",),
    )


# --------------------------------------------------------------------------- (d) and the levels at 1/r


def zipf_levels_finding(levels: pd.DataFrame) -> dict[str, Any]:
    """Derivation (d), uncertain top (hi < 1): the measured standardized gap at the largest n against its limit."""
    z, share = threshold("zipf_levels", "z"), threshold("zipf_levels", "bias_share")
    rows = levels[levels["hi"] < 1]
    last = rows[rows["n"] == rows["n"].max()]
    refuted = last[last["excess_in_se"] > z]
    biased = last[last["bias_bound"] * last["std_gap"].abs() > share * last["std_gap_se"]]
    verdict = "does not hold" if not refuted.empty else "undecided" if not biased.empty else "holds"
    cells = "; ".join(
        f"{r.better} > {r.worse}: d = {r.std_gap:.3f} +- {r.std_gap_se:.3f} vs limit "
        f"{r.std_gap_limit:.3f} ({r.excess_in_se:+.1f} SE), P(correct) {r.p_correct:.3f} "
        f"[{r.p_correct_low:.3f}, {r.p_correct_high:.3f}] vs {r.p_correct_limit:.3f}"
        for r in last.itertuples()
    )
    above = rows[rows["excess_in_se"] > z]
    earlier = (
        "; above the limit by more than the threshold at smaller n: "
        + ", ".join(f"{r.better} > {r.worse} at n = {r.n} ({r.excess_in_se:+.1f} SE)" for r in above.itertuples())
        if not above.empty
        else "; at no smaller n above the limit by more than the threshold"
    )
    mean_z = (rows["dcg_gap_mean"] - rows["mean_gap_exact"]) / rows["dcg_gap_mean_se"]
    measurement = (
        f"At n = {int(last['n'].iloc[0])} ({int(last['replicates'].iloc[0])} data sets): {cells}"
        f"{earlier}. Mean DCG gap against the exact finite-n mean: |z| at most {mean_z.abs().max():.1f} "
        f"over every n. Bound on the relative error from the tails replaced by their expectation: "
        f"at most {last['bias_bound'].max():.4f}."
    )
    summary = (
        f"at n = {int(last['n'].iloc[0])}, d {_span(last['std_gap'], 2)} against limits "
        f"{_span(last['std_gap_limit'], 2)}; largest excess {last['excess_in_se'].max():+.1f} SE"
    )
    return _finding("zipf_levels", verdict, measurement, summary, [TABLES["zipf"]], ("15_levels_and_thresholds",))


def zipf_certain_finding(levels: pd.DataFrame) -> dict[str, Any]:
    """Derivation (d), certain top (hi = 1): P(correct) near 1 at the largest n and a growing standardized gap."""
    p_lower = threshold("zipf_certain", "p_lower")
    rows = levels[levels["hi"] == 1]
    ok, cells = True, []
    for (better, worse), g in rows.groupby(["better", "worse"], sort=False):
        g = g.sort_values("n")
        last = g.iloc[-1]
        at_1e4 = g[g["n"] == 10_000]
        grows = bool(at_1e4.empty or last["std_gap"] > at_1e4["std_gap"].iloc[0])
        ok &= bool(last["p_correct_low"] >= p_lower) and grows
        start = f"{at_1e4['std_gap'].iloc[0]:.3g}" if not at_1e4.empty else "-"
        cells.append(
            f"{better} > {worse}: P(correct) {last['p_correct']:.4f} (Wilson lower bound "
            f"{last['p_correct_low']:.4f}), d from {start} at n = 10^4 to {last['std_gap']:.3g} at "
            f"n = {int(last['n'])}"
        )
    measurement = "; ".join(cells) + "."
    lower = rows[rows["n"] == rows["n"].max()]["p_correct_low"]
    summary = f"P(correct) lower bounds {_span(lower, 3)} at the largest n"
    return _finding("zipf_certain", "holds" if ok else "does not hold", measurement, summary, [TABLES["zipf"]])


# --------------------------------------------------------------------------- all of them


def findings(results_dir: str | os.PathLike[str]) -> list[dict[str, Any]]:
    """Every finding of notebook 15, judged on the tables in ``results_dir``."""
    from ...simulation.tables import read_table

    folder = Path(results_dir)
    table = {role: read_table(folder / name) for role, name in TABLES.items()}
    levels = table["zipf"]
    return [
        first_order_finding(table["first_order"]),
        mcdiarmid_finding(table["mcdiarmid"]),
        a_star_finding(table["crossings"], table["exponents"]),
        zipf_levels_finding(levels),
        zipf_certain_finding(levels),
    ]


def answer(results_dir: str | os.PathLike[str]) -> pd.DataFrame:
    """The findings' verdicts and one-line measurements, as the table the notebook opens with.

    One row "(not available)" when the tables are missing (the full profile has not been run).
    """
    columns = ["Verdict", "What the tables show"]
    try:
        rows = findings(results_dir)
    except FileNotFoundError as error:
        frame = pd.DataFrame(
            [["(not available)", f"{error}; run the full profile of notebook 15"]],
            columns=columns,
            index=pd.Index(["(not available)"], name="Finding"),
        )
        return frame
    frame = pd.DataFrame(
        [[r["verdict"], r["summary"]] for r in rows],
        columns=columns,
        index=pd.Index([r["title"] for r in rows], name="Finding"),
    )
    return frame
