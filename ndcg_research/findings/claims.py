"""The findings, one function each: read the committed tables, compute the quoted numbers, decide.

Each function takes :class:`~ndcg_research.findings.model.Results` and returns a
:class:`~ndcg_research.findings.model.Finding`. :data:`FINDINGS` lists them in the order
the page shows them. A verdict is decided by a rule written in the function (fixed
before looking at the numbers), never typed; the thresholds a rule uses are the
package's own (``stats.intervals``, ``stats.paired``, ``studies.sweeps``, ``studies.cutoff``) or
stated in the function.

Sources are named as the notebooks name them: *the source article* (the article on
nDCG the notes restate), *Wang et al. (2013)* (only what their abstract says; the full
text could not be obtained, notebook 09), *this package* (its own derivations and
questions), and the tools' documentation where a claim comes from there.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import numpy as np
import pandas as pd

from .model import Finding, Results, number, proportion, span

__all__ = ["FINDINGS", "collect"]

#: Model labels of the notebooks' tables.
THEORY_MODELS = ("certain", "uncertain", "graded")
SLOW = ("log2", "logpower(gamma=0.5)", "loglog")
WANG = "Wang et al. (2013), abstract"
ARTICLE = "the source article"
PACKAGE = "this package"


def _labelled(results: Results, pattern: str, labels: Sequence[str]) -> pd.DataFrame:
    """The tables ``pattern.format(label)`` stacked, with a ``label`` column."""
    return pd.concat([results.table(pattern.format(label)).assign(label=label) for label in labels], ignore_index=True)


def _cases(count: int, total: int) -> str:
    return f"{count} of {total}"


def _worst(rows: pd.DataFrame) -> str:
    """The smallest P(better strictly higher) of some pair-table rows, with its interval (never a bare 1)."""
    row = rows.sort_values(["p_better_low", "p_better"]).iloc[0]
    if row["p_better"] == 1:
        return f"won all {int(row['replicates'])} (Wilson lower bound {row['p_better_low']:.3f})"
    return "P = " + proportion(row["p_better"], row["p_better_low"], row["p_better_high"], int(row["replicates"]))


# --------------------------------------------------------------------------- 01, 02


def worked_example(results: Results) -> Finding:
    table = results.table("01_worked_example.csv").set_index("quantity")
    quoted = table[table["article"].notna()]
    matches = [round(float(m), 3) == round(float(a), 3) for m, a in zip(quoted["measured"], quoted["article"])]
    inflated = float(table.loc["nDCG, ideal from returned list only", "measured"])
    values = ", ".join(f"{q} {number(v, 4)}" for q, v in zip(quoted.index, quoted["measured"]))
    return Finding(
        key="worked-example",
        title="The worked example is reproduced",
        claim="For the grades 3, 2, 3, 0, 1, 2 with two more relevant documents known (grades 3 and 2): "
              "CG6 = 11, DCG6 = 6.861, IDCG6 = 8.740, nDCG6 = 0.785.",
        source=ARTICLE,
        measurement=f"{values}; {_cases(sum(matches), len(matches))} agree with the article to its three decimals. "
                    f"With the ideal built from the returned list only, nDCG6 = {number(inflated, 3)}.",
        summary=f"{_cases(sum(matches), len(matches))} values agree; ideal from the returned list only: "
                f"nDCG6 = {number(inflated, 3)}",
        verdict="holds" if all(matches) else "does not hold",
        conditions="Linear gain, 1/log2(i + 1), k = 6, the ideal from all eight known documents (`ideal=`).",
        figures=("01_worked_example_contributions",),
        tables=("01_worked_example.csv",),
        notebooks=("01_worked_example.ipynb",),
        numbers={q: float(v) for q, v in table["measured"].items()},
    )


def discount_weights(results: Results) -> Finding:
    shares = results.table("02_top_share.csv")
    columns = [c for c in shares.columns if c.startswith("n=")]
    first, last = columns[0], columns[-1]
    toward = (shares[last] - shares["limit"]).abs() <= (shares[first] - shares["limit"]).abs() + 1e-12
    slow = shares[shares["decay"] == "slowly varying"]
    excess = (slow[last] / slow["limit"]).max()
    # Rule: the shares move towards their limits; a qualification when a slowly varying discount still gives
    # its top more than 10% over its size at the largest n (the approach is slow).
    verdict = ("does not hold" if not toward.all() else
               "holds with qualification" if excess > 1.1 else "holds")
    parts = [f"{d} {number(v, 3)}" for d, v in zip(shares["discount"], shares[last])]
    return Finding(
        key="discount-weights",
        title="The top of a long list gets all, a power, or only its size of the discount weight",
        claim="The share of the total discount weight in the top fraction q of a list of n tends to 1 for summable "
              "discounts and 1/r, to q^(1 - beta) for r^-beta (beta < 1), and to q (the top weighs no more than its "
              "size) for slowly varying discounts such as log2.",
        source=PACKAGE,
        measurement=f"Top-1% share at {last[2:]}: " + "; ".join(parts) + f". Every share moves towards its limit "
                    f"between {first[2:]} and {last[2:]}: {bool(toward.all())}; the slowly varying discounts still give "
                    f"the top up to {number(excess, 2)} times its size.",
        summary=f"shares move to their limits; slowly varying: top 1% still weighs up to {number(excess, 2)}x its size",
        verdict=verdict,
        conditions="Exact partial sums of the discounts; q = 0.01. What this means for the values and the order of "
                   "rankers is in the findings below: the values of all rankers converge together, their order does not "
                   "blur (notebooks 03, 04).",
        figures=("02_discount_functions", "02_eps_slowly_varying"),
        tables=("02_top_share.csv", "02_eps.csv"),
        notebooks=("02_discount_functions.ipynb",),
        numbers={"max_slow_excess": float(excess)},
    )


# --------------------------------------------------------------------------- 03: values


def slow_discounts_converge(results: Results) -> Finding:
    means = _labelled(results, "03_ndcg_{}.csv", THEORY_MODELS)
    slow = means[means["decay"] == "slowly varying"]
    n0, n1 = int(slow["n"].min()), int(slow["n"].max())
    wide = slow.pivot_table(index=["label", "discount", "ranker"], columns="n", values="mean")
    rises = bool((wide[n1] > wide[n0]).all())
    lowest = wide[n1].idxmin()
    order = sorted(SLOW, key=lambda d: ["loglog", "logpower(gamma=0.5)", "log2"].index(d))
    at = slow[slow["n"] == n1].pivot_table(index=["label", "ranker"], columns="discount", values="mean")
    ordered = bool(all((at[a] > at[b]).all() for a, b in zip(order, order[1:])))
    verdict = "holds" if rises else "does not hold"
    return Finding(
        key="slow-discounts-converge",
        title="Under log2 and slower discounts every ranker's nDCG tends to 1",
        claim="With the logarithmic discount nDCG converges to 1 whatever the ranking function (Wang et al.); with "
              "discounts decreasing more slowly the nDCG of every ranking function converges to the same limit (the "
              "source article).",
        source=f"{WANG}; {ARTICLE}",
        measurement=f"Mean nDCG of every ranker (random included) rises from n = {n0} to n = {n1} under log2, "
                    f"logpower(gamma=0.5) and loglog in all three models: {rises}. Lowest mean at n = {n1}: "
                    f"{number(wide[n1].min(), 3)} ({lowest[2]}, {lowest[0]} model, {lowest[1]}). At n = {n1} the slower "
                    f"discount is the closer to 1 (loglog > logpower > log2) for every ranker and model: {ordered}.",
        summary=f"every ranker rises; lowest mean at n = {n1}: {number(wide[n1].min(), 3)} ({lowest[2]}, {lowest[1]})",
        verdict=verdict,
        conditions="Full-list nDCG (no cut-off) on the probit models of notebook 03 (binary certain and uncertain top, "
                   "graded); rankers bayes, noisy(0.5), noisy(1), coarse(4), random.",
        figures=("03_one_minus_ndcg_slowly_varying", "03_convergence_uncertain"),
        tables=tuple(f"03_ndcg_{label}.csv" for label in THEORY_MODELS),
        notebooks=("03_convergence.ipynb",),
        numbers={"lowest_mean": float(wide[n1].min()), "n": float(n1)},
    )


def first_order_rate(results: Results) -> Finding:
    theory = _labelled(results, "03_theory_{}.csv", THEORY_MODELS)
    slow = theory[theory["decay"] == "slowly varying"].copy()
    slow["error"] = ((slow["eps"] * slow["c"]) / (1 - slow["finite_n"]) - 1).abs()
    by_n = slow.groupby("n")["error"].median()
    n_small, n_large = int(by_n.index.min()), int(by_n.index.max())
    compared = _labelled(results, "03_theory_vs_simulation_{}.csv", THEORY_MODELS)
    sim = compared[(compared["decay"] == "slowly varying") & (compared["n"] == compared["n"].max())]
    sim_err = sim["rel_err_first_order"].abs()
    errors = slow[slow["n"] == n_large]["error"]
    shrinks = bool(by_n[n_large] < by_n[n_small])
    # Rule: "holds" if the first-order law is within 5% (median) at the largest n; "holds with qualification"
    # if it is further off but its error shrinks with n; "does not hold" otherwise.
    verdict = ("holds" if by_n[n_large] <= 0.05 else "holds with qualification" if shrinks else "does not hold")
    return Finding(
        key="first-order-rate",
        title="1 - nDCG ~ eps_D(n) c_f under slowly varying discounts",
        claim="For slowly varying discounts 1 - nDCG is approximately eps_D(n) c_f, with eps_D(n) = -n D'(n)/D(n) "
              "(about 1/ln n for log2) and c_f a constant of the ranker.",
        source=PACKAGE,
        measurement=f"Relative error of eps_D(n) c_f against the finite-n theory: median {number(by_n[n_small], 2)} at "
                    f"n = {n_small}, {number(by_n[n_large], 2)} at n = {n_large} (range {span(errors, 2)}); against the "
                    f"simulated means at n = {int(sim['n'].iloc[0])}: {span(sim_err, 2)}, median "
                    f"{number(sim_err.median(), 2)}; eps c falls short of the simulation in "
                    f"{_cases(int((sim['rel_err_first_order'] < 0).sum()), len(sim))} cells.",
        summary=f"median error {number(by_n[n_large], 2)} at n = {n_large}, shrinking like 1/ln n",
        verdict=verdict,
        conditions="The neglected terms are of relative order eps itself (1/ln n): the law gives the right scale, "
                   "not the value, at any realistic n. The derivation is this package's (studies/theory.py), not "
                   "Wang et al.'s.",
        figures=("03_one_minus_ndcg_slowly_varying",),
        tables=tuple(f"03_theory_{label}.csv" for label in THEORY_MODELS),
        notebooks=("03_convergence.ipynb",),
        numbers={"median_error_largest_n": float(by_n[n_large]), "median_error_smallest_n": float(by_n[n_small])},
    )


def finite_n_theory(results: Results) -> Finding:
    table = results.table("03_agreement.csv")
    agree = int(table["finite_n_agrees"].sum())
    bad = table[~table["finite_n_agrees"]]
    short = bad[bad["rare_miss_share"] >= 0.5]
    rest = bad[bad["rare_miss_share"] < 0.5]
    coarse = rest[rest["ranker"].str.startswith("coarse")]
    rest = rest[~rest["ranker"].str.startswith("coarse")]
    rare_direction = rest[(rest["decay"] == "summable") & (rest["finite_n_z"] < 0)]
    other = rest.drop(rare_direction.index)
    chance = 0.0027 * len(table)
    # Rule (the first two parts fixed before the full run; the coarse and direction classes added after it, and
    # said so in the conditions): "holds" when every cell outside 3 standard errors is short of data (rare misses)
    # but at most a handful expected by chance (three times the expected count, at least one); "holds with
    # qualification" when the remaining cells are the approximate coarse profile, summable cells whose sample lies
    # above the theory (the direction of rare misses), and no more than the chance allowance; else "does not hold".
    allowance = max(1.0, 3 * chance)
    if len(rest) + len(coarse) <= allowance:
        verdict = "holds"
    elif len(other) <= allowance:
        verdict = "holds with qualification"
    else:
        verdict = "does not hold"

    def listed(rows: pd.DataFrame) -> str:
        return "; ".join(f"{r.label} {r.discount} {r.ranker} n = {r.n} (z = {number(r.finite_n_z, 2)})"
                         for r in rows.itertuples()) or "none"

    return Finding(
        key="finite-n-theory",
        title="The finite-n theory (exact order statistics) matches the simulation",
        claim="Expected nDCG at list length n is close to E DCG / E IDCG, computed from the exact expected gain at "
              "every rank (E g_f(U_(r)), U_(r) ~ Beta(r, n - r + 1)).",
        source=PACKAGE,
        measurement=f"Within 3 standard errors of the simulated mean in {_cases(agree, len(table))} cells (every model, "
                    f"discount, ranker and n up to {int(table['n'].max())}; about {number(chance, 2)} would fall outside "
                    f"by chance). Of the {len(bad)} others: {len(short)} are short of data (at least half of the expected "
                    f"shortfall comes from misses at the top that their replicates see less than once; all under "
                    f"summable discounts, the sample mean above the theory); {len(rare_direction)} more summable cells "
                    f"with the sample above the theory ({listed(rare_direction)}); {len(coarse)} cells of coarse(bins=4), "
                    f"whose finite-n profile is an approximation ({listed(coarse)}); {len(other)} other ({listed(other)}).",
        summary=f"{_cases(agree, len(table))} cells within 3 se; the others: {len(short) + len(rare_direction)} "
                f"rare-miss cells under summable discounts, {len(coarse)} approximate (coarse), {len(other)} other",
        verdict=verdict,
        conditions="Under a summable discount with a certain top, the mean is set by rare misses at the first ranks; a "
                   "sample that sees them a few times or not at all overstates the mean and its t interval is too "
                   "narrow (the simulation, not the theory, is short of data). The midpoint rule g_f((r - 1/2)/n) used "
                   "before overstated the top ranks of noisy rankers (rejected by 20000 simulated data sets at n = 1000, "
                   "tests/test_theory.py); the earlier reported miss at n = 10^5 under power(beta=2) and "
                   "geometric(p=0.5) was that, plus 20 data sets that could not see the rare misses. coarse(bins) keeps "
                   "a cell-mean profile (its blocks have random sizes). The rare-miss share and the 3-se rule were fixed "
                   "before the full run; the classes 'summable, sample above the theory' and 'coarse' were named after "
                   "it. The theory is E DCG / E IDCG, not E nDCG: small differences at small n are expected.",
        figures=("03_convergence_certain",),
        tables=("03_agreement.csv",),
        notebooks=("03_convergence.ipynb",),
        numbers={"agree": float(agree), "cells": float(len(table)), "other": float(len(other))},
    )


def power_limits(results: Results) -> Finding:
    compared = _labelled(results, "03_theory_vs_simulation_{}.csv", THEORY_MODELS)
    n1 = int(compared["n"].max())
    rows = compared[(compared["discount"] == "power(beta=0.5)") & (compared["n"] == n1)]
    distinct = bool(all(g["limit"].round(4).nunique() == len(g) for _, g in rows.groupby("label")))
    distance = (rows["simulated"] - rows["limit"]).abs()
    verdict = "holds" if distinct and distance.max() < 0.01 else "does not hold"
    return Finding(
        key="power-limits",
        title="r^-1/2: a limit below 1 that differs between rankers",
        claim="With D(r) = r^-beta, 0 < beta < 1, nDCG converges to int g_f(t) t^-beta dt / int g*(t) t^-beta dt, a limit "
              "that differs between rankers.",
        source=PACKAGE,
        measurement=f"At n = {n1} the limits of the five rankers are distinct in every model: {distinct} (from "
                    f"{span(rows['limit'], 3)}); largest |simulated mean - limit| {number(distance.max(), 2)}.",
        summary=f"limits {span(rows['limit'], 3)}, all distinct; simulation within {number(distance.max(), 2)}",
        verdict=verdict,
        conditions="beta = 0.5; rule: distinct limits (to 4 decimals) and simulation within 0.01 of them.",
        figures=("03_convergence_certain", "03_convergence_uncertain"),
        tables=tuple(f"03_theory_vs_simulation_{label}.csv" for label in THEORY_MODELS),
        notebooks=("03_convergence.ipynb",),
        numbers={"max_distance": float(distance.max())},
    )


def fast_discount_values(results: Results) -> Finding:
    fast = results.table("03_fast_discounts.csv")
    decay = fast["discount"].map(lambda d: "critical" if d == "zipf" else "summable")
    single = fast[(decay == "summable") & (fast["label"] == "uncertain") & (fast["ranker"] != "coarse(bins=4)")]
    ratio = (single["sd_n1"] / single["sd_n0"])
    zipf_unc = fast[(fast["discount"] == "zipf") & (fast["label"] == "uncertain")].set_index("ranker")["limit"]
    shared = zipf_unc.drop(["coarse(bins=4)", "random"], errors="ignore")
    # Rule: "holds with qualification" if the spread under summable discounts does not shrink with an uncertain
    # top (sd ratio above 0.8 everywhere) while with a certain top it does (nDCG then converges after all).
    certain = fast[(decay == "summable") & (fast["label"] == "certain") & fast["ranker"].isin(["bayes", "noisy(sigma=0.5)"])]
    collapses = bool((certain["sd_n1"] < 0.5 * certain["sd_n0"]).all())
    stays = bool((ratio > 0.8).all())
    verdict = "holds with qualification" if stays and collapses else ("holds" if stays else "does not hold")
    return Finding(
        key="fast-discount-values",
        title="1/r keeps only the best items; summable discounts need not converge",
        claim="1/r is the critical point (Wang et al.); under 1/r nDCG tends to g_f(0+)/g*(0+), and under summable "
              "discounts (faster than 1/r) nDCG is decided by the first ranks and need not converge (this package).",
        source=f"{WANG}; {PACKAGE}",
        measurement=f"zipf, uncertain top: bayes and the noisy rankers share the limit {span(shared, 3)} (coarse "
                    f"{number(zipf_unc.get('coarse(bins=4)', math.nan), 3)}, random {number(zipf_unc.get('random', math.nan), 3)}). "
                    f"Summable discounts, uncertain top, single-item rankers: standard deviation across data sets "
                    f"{span(single['sd_n0'], 2)} at the smallest n and {span(single['sd_n1'], 2)} at the largest "
                    f"(ratio {span(ratio, 2)}); with a certain top, bayes and noisy(0.5) collapse: {collapses}.",
        summary=f"uncertain top: sd stays {span(single['sd_n1'], 2)}; certain top: nDCG -> 1",
        verdict=verdict,
        conditions="The non-convergence needs an uncertain top (the best items relevant with probability hi < 1); with a "
                   "certain top every good ranker's nDCG still tends to 1 under summable discounts.",
        figures=("03_convergence_uncertain",),
        tables=("03_fast_discounts.csv",),
        notebooks=("03_convergence.ipynb",),
        numbers={"sd_ratio_min": float(ratio.min())},
    )


# --------------------------------------------------------------------------- 04: the order


def log2_distinguishes(results: Results) -> Finding:
    pairs = _labelled(results, "04_pairs_{}.csv", THEORY_MODELS)
    parts, n_first, perfect_beyond = [], [], True
    for label, rows in pairs[pairs["discount"] == "log2"].groupby("label", sort=False):
        ns = sorted(rows["n"].unique())
        # A lower bound of 0.99 needs about 380 data sets even for a perfect record: judge it where there are 400.
        eligible = rows[rows["replicates"] >= 400]
        sure = [n for n in sorted(eligible["n"].unique()) if (eligible[eligible["n"] >= n]["p_better_low"] >= 0.99).all()]
        later = rows[rows["n"] > (eligible["n"].max() if len(eligible) else 0)]
        perfect_beyond &= bool((later["p_better"] == 1).all())
        parts.append(f"{label}: smallest P at n = {ns[0]} {number(rows[rows['n'] == ns[0]]['p_better'].min(), 2)}; "
                     f"lower bound >= 0.99 for every pair " + (f"from n = {sure[0]}" if sure else "at no n")
                     + f"; at n = {ns[-1]} the weakest pair {_worst(rows[rows['n'] == ns[-1]])}")
        n_first.append(sure[0] if sure else math.inf)
    power = pairs[(pairs["discount"] == "power(beta=0.5)") & (pairs["n"] == pairs["n"].max())]
    log2_top = pairs[(pairs["discount"] == "log2") & (pairs["n"] == pairs["n"].max())]
    # Rule: "holds" when in every model there is an n from which every pair has a Wilson lower bound >= 0.99
    # (where 400 data sets allow it) and no larger n shows a failure; otherwise "holds with qualification".
    verdict = "holds" if all(math.isfinite(n) for n in n_first) and perfect_beyond else "holds with qualification"
    return Finding(
        key="log2-distinguishes",
        title="log2 tells the better ranker apart ever more reliably",
        claim="Although nDCG with the logarithmic discount converges to 1 for every ranking function, it decides which "
              "of two substantially different ranking functions is better consistently (in the weakest reading: the "
              "probability of the correct order on a fresh data set tends to 1).",
        source=WANG,
        measurement="P(better ranker scores strictly higher) on paired data sets, four pairs per model, 95% Wilson "
                    "intervals. " + "; ".join(parts) + f". Under power(beta=0.5) at the largest n the weakest pair "
                    f"{_worst(power)}.",
        summary="Wilson lower bound >= 0.99 for every pair from n = "
                + ", ".join(str(int(n)) if math.isfinite(n) else "-" for n in n_first)
                + f" ({', '.join(THEORY_MODELS)}); at n = {int(log2_top['n'].iloc[0])} the weakest pair {_worst(log2_top)}",
        verdict=verdict,
        conditions="Pairs nested by construction (noise levels of one score, coarse bins, random). With an uncertain top "
                   "the close pairs need longer lists. The stronger readings of 'consistent' are in the findings on "
                   "reading (a) and (b).",
        figures=("04_p_correct_uncertain", "04_standardized_gap_uncertain"),
        tables=tuple(f"04_pairs_{label}.csv" for label in THEORY_MODELS),
        notebooks=("04_distinguishability.ipynb",),
        numbers={f"sure_from_{label}": float(n) for label, n in zip(THEORY_MODELS, n_first)},
    )


def slower_discounts_order(results: Results) -> Finding:
    ratios = results.table("04_ratios.csv")
    loglog = ratios[ratios["numerator"] == "loglog"]
    mean, std = loglog[loglog["statistic"] == "mean_gap"], loglog[loglog["statistic"] == "std_gap"]
    shrinks = int((mean["ratio_high"] < 1).sum())
    std_below = int((std["ratio_high"] < 1).sum())
    std_above = int((std["ratio_low"] > 1).sum())
    pairs = _labelled(results, "04_pairs_{}.csv", THEORY_MODELS)
    top = pairs[(pairs["n"] == pairs["n"].max()) & pairs["discount"].isin(SLOW)]
    # Rule (fixed): a ratio is smaller or larger than 1 only when its 95% bootstrap interval excludes 1. The claim
    # "slower discounts tell rankers apart less well" does not hold when no standardized gap is smaller under
    # loglog; it holds when every one is.
    verdict = ("does not hold" if std_below == 0 else "holds" if std_below == len(std) else "holds with qualification")
    return Finding(
        key="slower-discounts-keep-the-order",
        title="Slower discounts tell rankers apart less well",
        claim="Under discounts that decrease more slowly than the logarithm the gap between two rankers shrinks faster "
              "(like eps_D(n)), so they tell rankers apart less well.",
        source=f"{PACKAGE} (the notes' heuristic; the reading often given to the source article's remark)",
        measurement=f"At n = {int(loglog['n'].iloc[0])}, loglog against log2 on the same data sets ({len(mean)} model-pair "
                    f"cells, 95% bootstrap intervals): mean gap ratio {span(mean['ratio'], 2)}, below 1 in "
                    f"{_cases(shrinks, len(mean))}; standardized gap (mean/sd) ratio {span(std['ratio'], 2)}, above 1 in "
                    f"{std_above}, below 1 in {std_below}, interval containing 1 in {len(std) - std_above - std_below}. "
                    f"At that n the weakest pair under log2 {_worst(top[top['discount'] == 'log2'])}, under loglog "
                    f"{_worst(top[top['discount'] == 'loglog'])}.",
        summary=f"mean gap x{span(mean['ratio'], 2)}, standardized gap x{span(std['ratio'], 2)} (loglog / log2)",
        verdict=verdict,
        conditions="Paired comparison on the same data sets; differences of order eps_D(n) must be resolved (no ties "
                   "occurred). On one data set the paired gap and its fluctuation are both proportional to eps_D(n) to "
                   "first order, so their ratio does not depend on the discount.",
        figures=("04_gap_over_eps", "04_standardized_gap_uncertain"),
        tables=("04_ratios.csv",),
        notebooks=("04_distinguishability.ipynb",),
        numbers={"std_gap_ratio_min": float(std["ratio"].min()), "mean_gap_ratio_max": float(mean["ratio"].max())},
    )


def critical_point(results: Results) -> Finding:
    fast = results.table("04_fast_discounts.csv")
    close = fast[~fast["pair"].str.contains("coarse|random")]
    unc = close[(close["label"] == "uncertain")]
    cer = close[(close["label"] != "uncertain")]
    z_unc, z_cer = unc[unc["discount"] == "zipf"], cer[cer["discount"] == "zipf"]
    geo_ties = cer[cer["discount"] == "geometric(p=0.5)"]["tie_n1"]
    summ_unc = unc[unc["discount"].isin(["power(beta=2)", "geometric(p=0.5)"])]
    half = unc[unc["discount"] == "power(beta=0.5)"]
    # Rule: "holds" if beyond 1/r (zipf, summable) the close pairs are far from certain (P < 0.9) with an uncertain
    # top while r^-1/2 separates them (P > 0.99); "holds with qualification" if, in addition, zipf separates them
    # with a certain top.
    pairs = _labelled(results, "04_pairs_{}.csv", THEORY_MODELS)
    top = pairs[(pairs["n"] == pairs["n"].max()) & ~pairs["worse"].isin(["coarse(bins=4)", "random"])]
    half_rows = top[(top["discount"] == "power(beta=0.5)") & (top["label"] == "uncertain")]
    zipf_certain = top[(top["discount"] == "zipf") & (top["label"] != "uncertain")]
    beyond = bool((z_unc["p_n1"] < 0.9).all() and (summ_unc["p_n1"] < 0.9).all() and (half["p_n1"] > 0.99).all())
    certain_ok = bool((z_cer["p_n1"] > 0.99).all())
    verdict = ("holds with qualification" if beyond and certain_ok else "holds" if beyond else "does not hold")
    return Finding(
        key="critical-point",
        title="1/r is the critical point",
        claim="Whether nDCG distinguishes consistently depends on how fast the discount decays, and 1/r is the critical "
              "point.",
        source=WANG,
        measurement=f"Close pairs (bayes, noisy(0.5), noisy(1)) at the largest n: uncertain top: P(correct) under zipf "
                    f"{span(z_unc['p_n1'], 2)} (standardized gap {span(z_unc['std_gap_n1'], 2)}), under summable "
                    f"discounts {span(summ_unc['p_n1'], 2)} (the worse ranker wins on {span(summ_unc['worse_n1'], 2)}), "
                    f"under r^-1/2 the weakest pair {_worst(half_rows)}; certain top: zipf, the weakest pair {_worst(zipf_certain)} "
                    f"(standardized gap {span(z_cer['std_gap_n1'], 2)}); geometric(p=0.5) ties exactly on "
                    f"{span(geo_ties, 2)} of the data sets.",
        summary=f"uncertain top: zipf P {span(z_unc['p_n1'], 2)}, summable {span(summ_unc['p_n1'], 2)}; certain top: "
                f"zipf P >= {zipf_certain['p_better_low'].min():.3f} (Wilson lower bound)",
        verdict=verdict,
        conditions="With an uncertain top (the best items relevant with probability 0.6) the first ranks stay noisy and "
                   "1/r and faster discounts cannot average that noise away; with a certain top 1/r still separates the "
                   "close pairs. The paper's own conditions are not known (abstract only).",
        figures=("04_p_correct_uncertain", "04_p_correct_certain"),
        tables=("04_fast_discounts.csv",),
        notebooks=("04_distinguishability.ipynb",),
        numbers={"zipf_uncertain_p_max": float(z_unc["p_n1"].max())},
    )


# --------------------------------------------------------------------------- 09: the two stronger readings


def failure_probability(results: Results) -> Finding:
    growth = results.table("09_growth.csv")
    per = growth.groupby("discount", sort=False).agg(fast=("vanishes_superpolynomially", "sum"),
                                                     cases=("vanishes_superpolynomially", "size"),
                                                     low=("exponent", "min"), high=("exponent", "max"))
    text = "; ".join(f"{d}: {_cases(int(r.fast), int(r.cases))}"
                     + (f" (a {number(r.low, 2)} to {number(r.high, 2)})" if np.isfinite(r.low) else " (a undefined)")
                     for d, r in per.iterrows())
    log2 = per.loc["log2"] if "log2" in per.index else None
    # Rule: "holds" when under log2 every (model, pair) case has an exponent interval above 0, and under the
    # summable discount none has.
    summable = per.loc[[d for d in per.index if d.startswith(("power(beta=2", "geometric"))]]
    contrast = bool((summable["fast"] == 0).all()) if len(summable) else False
    all_log2 = log2 is not None and int(log2["fast"]) == int(log2["cases"])
    verdict = ("holds" if all_log2 and contrast else "holds with qualification" if all_log2 else "does not hold")
    failure = _labelled(results, "09_failure_{}.csv", ("uncertain", "certain"))
    n1 = int(failure["n"].max())
    end = failure[(failure["n"] == n1) & (failure["discount"] == "log2")]
    return Finding(
        key="failure-probability",
        title="Reading (a): under log2 the failure probability falls faster than any power of n",
        claim="Consistent distinguishability, read as: the probability that the measure picks the worse of two "
              "substantially different rankers is negligible, falling faster than any power of n.",
        source=f"{WANG} (one of two readings; the formal definition could not be read)",
        measurement=f"Standardized paired gap d ~ c n^a fitted over the upper half of n = {int(failure['n'].min())} .. "
                    f"{n1} (failure ~ Phi(-d) if the gap is normal); cases with a 95% interval of a above 0, per "
                    f"discount: {text}. Measured failure share under log2 at n = {n1}: {span(end['p_fail'], 4)} "
                    f"({int(end['replicates'].iloc[0])} data sets).",
        summary=f"log2: {_cases(int(log2['fast']), int(log2['cases'])) if log2 is not None else 'n/a'} cases "
                f"superpolynomial; summable: none",
        verdict=verdict,
        conditions="Two models (uncertain and certain top), pairs bayes > noisy(0.5) > noisy(1). 'Faster than any power' "
                   "is inferred from the growth of d and the normal approximation, which is poor where the gap has a "
                   "few large values (fast discounts); there the measured failure shares are the evidence.",
        figures=("09_failure_rate",),
        tables=("09_growth.csv", "09_failure_uncertain.csv", "09_failure_certain.csv"),
        notebooks=("09_consistent_distinguishability.ipynb",),
        numbers={"log2_superpolynomial": float(log2["fast"]) if log2 is not None else math.nan},
    )


def eventual_order(results: Results) -> Finding:
    changes = results.table("09_stream_changes.csv")
    per = changes.groupby("discount", sort=False)
    text = "; ".join(f"{d}: settled in {_cases(int((g['verdict'] == 'settled').sum()), len(g))}, share settled "
                     f"{span(g['p_settled'], 2)}" for d, g in per)
    log2 = changes[changes["discount"] == "log2"]
    # Rule: "holds" when under log2 every (model, pair) case is settled within the horizon (Wilson lower bound of
    # the share of streams won at every grid n from a tenth of the stream on >= 0.95); "holds with
    # qualification" when some are; "does not hold" when none is.
    settled = int((log2["verdict"] == "settled").sum())
    verdict = "holds" if settled == len(log2) else ("holds with qualification" if settled else "does not hold")
    return Finding(
        key="eventual-order",
        title="Reading (b): along growing samples the order settles under log2",
        claim="Consistent distinguishability, read as: along almost every growing sample, the measure eventually "
              "orders the two rankers correctly and keeps that order for all larger n.",
        source=f"{WANG} (one of two readings; the formal definition could not be read)",
        measurement=f"{int(changes['streams'].iloc[0])} streams per model of {int(changes['n_last'].iloc[0])} items, "
                    f"nested prefixes on a grid from n = {int(changes['n_first'].iloc[0])}; settled = the better ranker "
                    f"wins at every grid n from n = {int(changes['n0'].iloc[0])} on. {text}. Under log2, last change "
                    f"of winner: median {span(log2['change_median'], 3)}, 90th percentile {span(log2['change_q90'], 3)}.",
        summary=f"log2 settled in {_cases(settled, len(log2))} cases by n = {int(changes['n0'].iloc[0])}",
        verdict=verdict,
        conditions="A finite stream shows that the order settles within its horizon, not beyond it; the grid checks "
                   "finitely many n.",
        figures=("09_stream_stability",),
        tables=("09_stream_changes.csv",),
        notebooks=("09_consistent_distinguishability.ipynb",),
        numbers={"log2_settled": float(settled)},
    )


# --------------------------------------------------------------------------- 10: crossing rankers


def crossing_winner(results: Results) -> Finding:
    crossings = results.table("10_crossings.csv")
    first = crossings[crossings["label"] == crossings["label"].iloc[0]]
    parts = []
    for head, rows in first.groupby("first", sort=False):
        rows = rows.sort_values("crossing_n")
        found = rows[rows["crossing_n"].notna()]
        parts.append(f"{head} vs {rows['second'].iloc[0]}: " + ", ".join(
            f"{r.discount} {int(r.crossing_n)}" for r in found.itertuples())
            + ("; no crossing up to n = " + str(int(rows["n_max"].iloc[0])) + " for "
               + ", ".join(rows[rows["crossing_n"].isna()]["discount"]) if len(found) < len(rows) else ""))
    distinct = first.groupby("first")["crossing_n"].apply(lambda c: c.nunique(dropna=False) > 1).all()
    verdict = "holds" if distinct and first["first_ahead_below"].all() else "does not hold"
    return Finding(
        key="crossing-winner",
        title="Which ranker is better can depend on the discount and on n",
        claim="For rankers whose gain profiles cross (one exact at the top, the other better deeper), the better one "
              "depends on the discount and on the list length.",
        source=PACKAGE,
        measurement="head(m) (exact on its first m ranks, random below) against noisy(sigma=1): the list length at which "
                    "the expected nDCG changes order (finite-n theory), per discount: " + "; ".join(parts) + ".",
        summary="; ".join(
            f"{head}: crossings from n = {int(rows['crossing_n'].min())} to {int(rows['crossing_n'].max())}"
            + (f", none for {', '.join(rows[rows['crossing_n'].isna()]['discount'])}" if rows["crossing_n"].isna().any()
               else "")
            for head, rows in first.groupby("first", sort=False)),
        verdict=verdict,
        conditions="Probit models; the crossings do not depend on lo and hi (linear gain). Below its crossing a "
                   "discount prefers the exact head, above it the noisy ranker; summable discounts keep the head for "
                   "much longer.",
        figures=("10_expected_gap",),
        tables=("10_crossings.csv",),
        notebooks=("10_crossing_rankers.ipynb",),
        numbers={f"{r.first} {r.discount}": float(r.crossing_n) for r in first.itertuples()},
    )


def slower_discounts_reverse(results: Results) -> Finding:
    crossings = results.table("10_crossings.csv")
    first = crossings[crossings["label"] == crossings["label"].iloc[0]]
    bands = []
    for head, rows in first.groupby("first", sort=False):
        rows = rows.set_index("discount")
        ref = rows.loc["log2", "crossing_n"]
        slow = [d for d in ("logpower(gamma=0.5)", "loglog") if d in rows.index]
        widths = [abs(rows.loc[d, "crossing_n"] - ref) / ref for d in slow]
        bands.append(f"{head}: log2 {int(ref)}, " + ", ".join(f"{d} {int(rows.loc[d, 'crossing_n'])}" for d in slow))
    decisions = _labelled(results, "10_decisions_{}.csv", ("certain", "uncertain"))
    decay = decisions["discount"].map(first.drop_duplicates("discount").set_index("discount")["decay"])
    other = decisions[decisions["discount"] != "log2"].assign(decay=decay)
    worst_rows = other.loc[other.groupby("decay")["p_differs"].idxmax()].set_index("decay")
    worst = worst_rows["p_differs"]

    def share(decay: str) -> str:
        if decay not in worst_rows.index:
            return "n/a"
        r = worst_rows.loc[decay]
        if r["p_differs"] == 1:
            return f"all {int(r['replicates'])} (Wilson lower bound {r['p_differs_low']:.3f})"
        return proportion(r["p_differs"], r["p_differs_low"], r["p_differs_high"], int(r["replicates"]))
    # Rule: "holds with qualification" if the slowly varying discounts do reverse log2 on some data sets but their
    # largest disagreement is below that of the summable discounts; "holds" if it is not below; "does not hold" if
    # they never disagree.
    slow_max, fast_max = worst.get("slowly varying", 0.0), worst.get("summable", 0.0)
    verdict = ("does not hold" if slow_max == 0 else "holds with qualification" if slow_max < fast_max else "holds")
    return Finding(
        key="slower-discounts-reverse",
        title="Slower discounts reverse decisions log2 makes",
        claim="A discount slower than log2 can reverse a decision log2 makes between two rankers.",
        source=PACKAGE,
        measurement="In expectation a discount decides otherwise than log2 exactly between the two crossings: "
                    + "; ".join(bands) + ". On single data sets (the same ones for every discount), the largest share "
                    "decided otherwise than log2: " + ", ".join(f"{k} {share(k)}" for k in worst.index) + ".",
        summary=f"largest share of data sets decided otherwise than log2: slowly varying {share('slowly varying')}, "
                f"summable {share('summable')}",
        verdict=verdict,
        conditions="head(10), head(100) against noisy(sigma=1), probit models, n up to "
                   f"{int(decisions['n'].max())}. The slowly varying discounts put their crossings close together; the "
                   "real choice is how much weight the first ranks get (summable or not), not log2 against slower.",
        figures=("10_disagreement_with_log2", "10_head_wins"),
        tables=("10_crossings.csv", "10_decisions_certain.csv", "10_decisions_uncertain.csv"),
        notebooks=("10_crossing_rankers.ipynb",),
        numbers={"slow_max": float(slow_max), "summable_max": float(fast_max)},
    )


# --------------------------------------------------------------------------- 05: cut-offs


def fixed_cutoff(results: Results) -> Finding:
    verdicts = results.table("05_cutoff_verdicts.csv")
    rule_kind = verdicts["rule"].str.extract(r"^(\w+)")[0]
    count = lambda rows, word: int((rows["verdict"] == word).sum())  # noqa: E731
    fixed, fraction, root = verdicts[rule_kind == "fixed"], verdicts[rule_kind == "fraction"], verdicts[rule_kind == "power"]
    root_text = "; ".join(f"{m}: keeps {count(g, 'keeps')} of {len(g)}" for m, g in root.groupby("model", sort=False))
    slow_fraction = fraction[fraction["discount"].isin(SLOW)]
    totals = verdicts["verdict"].value_counts().to_dict()
    # Rule: the claim (a fixed k keeps distinguishing on long lists) "does not hold" when no fixed-k cell keeps it;
    # the finding also reports k = n/10 with slowly varying discounts.
    verdict = "does not hold" if count(fixed, "keeps") == 0 else "holds with qualification"
    return Finding(
        key="fixed-cutoff",
        title="A fixed cut-off k keeps telling rankers apart on long lists",
        claim="Computing nDCG@k at a fixed cut-off k answers the list-length limitations while keeping the measure's "
              "ability to tell a better ranker from a worse one.",
        source=f"{ARTICLE} (recommends nDCG@k); the distinguishability part is this package's question",
        measurement=f"bayes > noisy(sigma=1) at n = {int(verdicts['n_last'].max())} ({int(verdicts['replicates'].iloc[0])} "
                    f"data sets per cell; family-wise {number(verdicts['family_confidence'].iloc[0], 4)} Wilson intervals "
                    f"over {len(verdicts)} cells): fixed k: keeps {count(fixed, 'keeps')}, loses {count(fixed, 'loses')}, "
                    f"undecided {count(fixed, 'undecided')} of {len(fixed)} (certain top: exact ties "
                    f"{span(fixed[fixed['model'] == 'probit']['p_tie_last'], 2)}); k = n/10 with slowly varying discounts: "
                    f"keeps {count(slow_fraction, 'keeps')} of {len(slow_fraction)}; k = sqrt(n): {root_text}. All cells: "
                    + ", ".join(f"{k} {v}" for k, v in sorted(totals.items())) + ".",
        summary=f"fixed k keeps in {count(fixed, 'keeps')} of {len(fixed)} cells; k = n/10 with log2/loglog in "
                f"{count(slow_fraction, 'keeps')} of {len(slow_fraction)}",
        verdict=verdict,
        conditions="A fixed k fails in two ways: with a certain top both rankers tie (all k items relevant), with an "
                   "uncertain top they become a coin flip. Verdicts: keeps if the family-wise lower bound of "
                   "P(correct) >= 0.9, loses if the upper bound <= 0.6, undecided otherwise; finite-n statements.",
        figures=("05_distinguishability",),
        tables=("05_cutoff_verdicts.csv", "05_cutoff_pairs.csv"),
        notebooks=("05_cutoff.ipynb",),
        numbers={"fixed_keeps": float(count(fixed, "keeps")), "fixed_loses": float(count(fixed, "loses"))},
    )


def ndcg_at_k_not_monotone(results: Results) -> Finding:
    curves = results.table("05_ndcg_by_k.csv")
    parts, dips = [], 0
    groups = list(curves.groupby(["model", "ranker"], sort=False))
    for (model, ranker), rows in groups:
        rows = rows.sort_values("k")
        i = int(rows["mean"].to_numpy().argmin())
        low = rows.iloc[i]
        # A dip: the minimum's interval lies below the intervals of both k = 1 and k = n.
        dip = bool(low["ci_high"] < rows.iloc[0]["ci_low"] and low["ci_high"] < rows.iloc[-1]["ci_low"])
        dips += dip
        parts.append(f"{model} {ranker}: nDCG@1 {number(rows.iloc[0]['mean'], 3)}, minimum {number(low['mean'], 3)} at "
                     f"k = {int(low['k'])}, nDCG@n {number(rows.iloc[-1]['mean'], 3)}")
    verdict = "holds" if dips else "does not hold"
    return Finding(
        key="ndcg-at-k-not-monotone",
        title="Expected nDCG@k is not monotone in k",
        claim="The expected nDCG@k of a ranking need not be monotone in the cut-off k.",
        source="trec_eval's help for Rndcg",
        measurement=f"n = {int(curves['n'].iloc[0])}, log2, {int(curves['replicates'].iloc[0])} data sets: "
                    + "; ".join(parts) + f". A dip (minimum below both ends, 95% intervals) in {_cases(dips, len(groups))}.",
        summary=f"falls, then rises, in {_cases(dips, len(groups))} (model, ranker) curves",
        verdict=verdict,
        conditions="The minimum sits just before k reaches the number of relevant items: up to there the ideal adds full "
                   "gains, beyond it only zeros. Values of nDCG@k compare only at the same k.",
        figures=("05_ndcg_vs_k",),
        tables=("05_ndcg_by_k.csv",),
        notebooks=("05_cutoff.ipynb",),
        numbers={"dips": float(dips)},
    )


# --------------------------------------------------------------------------- 06: limitations


def appending(results: Results) -> Finding:
    row = results.table("06_appending.csv").iloc[0]
    verdict = "holds" if int(row["lowered"]) == 0 else "does not hold"
    return Finding(
        key="appending-nonrelevant",
        title="Appending non-relevant documents never lowers nDCG",
        claim="A non-relevant document adds nothing, so appending non-relevant results never lowers nDCG.",
        source=ARTICLE,
        measurement=f"Random lists with non-relevant documents appended, under several discounts, cut-offs and ideal "
                    f"sources: lowered in {_cases(int(row['lowered']), int(row['cases']))} cases, changed beyond "
                    f"last-bit rounding in {int(row['changed'])}.",
        summary=f"lowered in {_cases(int(row['lowered']), int(row['cases']))} cases",
        verdict=verdict,
        conditions="Exactly, for every gain with g(0) = 0 and every discount; what lowers nDCG is non-relevant documents "
                   "placed above relevant ones.",
        figures=("06_appending_nonrelevant",),
        tables=("06_appending.csv",),
        notebooks=("06_limitations.ipynb",),
        numbers={"lowered": float(row["lowered"])},
    )


def truncation(results: Results) -> Finding:
    table = results.table("06_truncation.csv").set_index("convention")
    own = table.loc["own ideal, whole list"]
    common = table.loc["all judgments, @k"]
    # Rule: "holds with qualification" when a shorter prefix can score at least as high under some convention but
    # never above the full list with all judgments and a common cut-off.
    verdict = ("holds with qualification" if own["p_short_geq_long"] > 0 and common["p_short_gt_long"] == 0
               else "holds" if own["p_short_geq_long"] > 0 else "does not hold")
    return Finding(
        key="truncation",
        title="A shorter list can score as high as the full list",
        claim="Two lists with the same documents in the same order but different lengths can get the same nDCG; "
              "computing nDCG at a fixed cut-off fixes this.",
        source=ARTICLE,
        measurement=f"Random lists whose dropped tail holds a relevant document: prefix scores at least as high as the "
                    f"whole list in {number(own['p_short_geq_long'], 3)} of them with the list's own ideal (strictly higher "
                    f"in {number(own['p_short_gt_long'], 3)}); with the ideal from all judgments and a common cut-off, "
                    f"strictly higher in {number(common['p_short_gt_long'], 3)}.",
        summary=f"own ideal: prefix >= whole list in {number(own['p_short_geq_long'], 3)}; all judgments + common k: "
                f"never above",
        verdict=verdict,
        conditions="With the ideal from the returned list (scikit-learn's ndcg_score) a fixed k changes nothing; the "
                   "remedy needs both an ideal from all judgments and one common cut-off.",
        figures=("06_truncation_conventions",),
        tables=("06_truncation.csv",),
        notebooks=("06_limitations.ipynb",),
        numbers={"own_geq": float(own["p_short_geq_long"])},
    )


def pooling(results: Results) -> Finding:
    bias = results.table("06_pooling_bias.csv")
    order = results.table("06_pooling_order.csv")
    main = bias[~bias["novel_pooled"]]
    systems = list(dict.fromkeys(main["system"]))
    novel, best = systems[-1], systems[0]
    shallow = int(main["depth"].min())
    deep = int(main["depth"].max())
    at = lambda d, s, m: main[(main["depth"] == d) & (main["system"] == s) & (main["method"] == m)].iloc[0]  # noqa: E731
    nov, nov_deep = at(shallow, novel, "unjudged = 0"), at(deep, novel, "unjudged = 0")
    pooled_up = at(shallow, best, "unjudged = 0")
    flip = order[(order["depth"] == shallow) & (order["method"] == "unjudged = 0")].iloc[0]
    true = order[(order["depth"] == shallow) & (order["method"] == "true")].iloc[0]
    # Rule: "holds with qualification" when the unpooled system is under-rated at the shallowest pool (interval below
    # 0) and the pooled system is over-rated there (the qualification: the error is a difference, not a drop).
    under = nov["high"] < 0
    verdict = ("holds with qualification" if under and pooled_up["low"] > 0 else "holds" if under else "does not hold")
    return Finding(
        key="pooling-bias",
        title="Unjudged documents taken as non-relevant under-rate unpooled systems",
        claim="nDCG depends on complete judgments: unjudged documents taken as non-relevant under-rate systems that "
              "return relevant but unjudged documents.",
        source=ARTICLE,
        measurement=f"Simulated collections ({int(nov['collections'])} per depth): the unpooled (better) system's bias "
                    f"under 'unjudged = 0' is {number(nov['bias'], 3)} [{number(nov['low'], 3)}, {number(nov['high'], 3)}] "
                    f"at pool depth {shallow} and {number(nov_deep['bias'], 2)} at {deep}; the best pooled system is "
                    f"over-rated by {number(pooled_up['bias'], 3)} at depth {shallow}. It is ranked above the best pooled "
                    f"system in {proportion(flip['p_novel_ahead'], flip['low'], flip['high'], int(flip['collections']))} "
                    f"collections at depth {shallow}, truly in {proportion(true['p_novel_ahead'], true['low'], true['high'], int(true['collections']))}.",
        summary=f"unpooled system {number(nov['bias'], 2)} at depth {shallow}; order flipped",
        verdict=verdict,
        conditions="The ideal is built from the judged documents too, so pooled systems are over-rated: the error that "
                   "decides comparisons is the difference. The condensed list (judged documents only) removes most of "
                   "the unpooled system's disadvantage but is biased upwards for every system. Magnitudes belong to "
                   "this simulated collection; directions generalise.",
        figures=("06_pooling_bias",),
        tables=("06_pooling_bias.csv", "06_pooling_order.csv"),
        notebooks=("06_limitations.ipynb",),
        numbers={"novel_bias_shallow": float(nov["bias"])},
    )


#: The findings in page order.
FINDINGS: tuple[Callable[[Results], Finding], ...] = (
    worked_example,
    discount_weights,
    slow_discounts_converge,
    first_order_rate,
    finite_n_theory,
    power_limits,
    fast_discount_values,
    log2_distinguishes,
    slower_discounts_order,
    critical_point,
    failure_probability,
    eventual_order,
    crossing_winner,
    slower_discounts_reverse,
    fixed_cutoff,
    ndcg_at_k_not_monotone,
    appending,
    truncation,
    pooling,
)


def collect(results: Results) -> list[Finding]:
    """Evaluate every finding on the committed tables."""
    return [finding(results) for finding in FINDINGS]
