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

from ..stats import kendall_tau
from ..studies import realdata as rd
from ..studies.collection import CollectionModel, fewest_queries
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


# --------------------------------------------------------------------------- 07: query sets

QUERY_SETS = "07_query_sets.ipynb"
#: A Kendall tau at least this strong (in the expected direction) counts as agreement in the findings of
#: notebook 07. This threshold is the findings' choice, fixed after the stored default run and before the
#: full-profile run; the notebook itself only says "a tau near -1 supports the claim".
STRONG_TAU = 0.5
#: Share of (system pair, topic) cases with an exact tie above which a measure counts as tie-prone (set after
#: seeing the runs; only the secondary tau of per_topic_win_predicts_queries uses it).
TIE_SHARE = 0.01
#: The criteria of 07_measures.csv that a measure's queries needed should agree with, and the sign of their
#: Kendall tau against the queries needed when they do.
QUERY_CRITERIA = (("power", "discriminative power", -1), ("topics_for_stability", "topics for E rho^2 = 0.95", 1),
                  ("swap_rate", "swap rate", 1))
#: Decay classes whose discounts base a list's score on its first few ranks.
FAST_DECAY = ("summable", "critical")


def _query_measures(results: Results) -> tuple[pd.DataFrame, int, dict]:
    """07_measures.csv with a measure label and the fewest-queries group; the best row; the run's parameters."""
    table = results.table("07_measures.csv")
    best, group, more = fewest_queries(table["queries_needed"], table["queries_needed_low"],
                                       table["queries_needed_high"])
    table = table.assign(measure=table["gain"] + " · " + table["discount"], group=group, more=more)
    return table, best, results.record("07_query_sets.json")["parameters"]


def _needed(row: pd.Series) -> str:
    return (f"{number(row['queries_needed'], 3)} [{number(row['queries_needed_low'], 3)}, "
            f"{number(row['queries_needed_high'], 3)}]")


def _collection_conditions(params: dict) -> str:
    model = CollectionModel(systems=params["systems"], **params["model"])
    return (f"Simulated collection (`studies.collection`) of {params['systems']} systems differing in one skill, "
            f"with variance shares made to resemble TREC runs' (topic, then system x topic interaction, then system), "
            f"trec_eval's nDCG over runs of depth {model.depth}; the known truth is the order of the skills. Queries needed: the query-set size at which "
            f"the share of system pairs ordered as the truth reaches {params['target_accuracy']}, over "
            f"{params['trials']} random query sets per size from {params['population_topics']} topics, with a 95% "
            f"bootstrap interval over the query sets; seed {params['seed']}. The intervals cover the drawing of "
            f"query sets from this one simulated population, not the drawing of the population itself: another "
            f"seed moves the estimates by more than they suggest (notebook 07, section 9).")


def queries_depend_on_discount(results: Results) -> Finding:
    table, best, params = _query_measures(results)
    finite = table[np.isfinite(table["queries_needed"])]
    top = table.iloc[best]
    worst = finite.loc[finite["queries_needed"].idxmax()]
    taus = {key: kendall_tau(finite["queries_needed"], finite[key]) for key, _, _ in QUERY_CRITERIA}
    agree = [sign * taus[key] >= STRONG_TAU for key, _, sign in QUERY_CRITERIA]
    swap_c = max(c for c in params["sizes"] if 2 * c <= params["topics"])
    differ = bool(table["more"].any())
    # Rule: "does not hold" when no measure's interval of queries needed lies above the best one's (the measures
    # cannot be told apart); "holds" when some do and every criterion orders the measures as the queries needed
    # do (|tau| >= STRONG_TAU, expected sign); "holds with qualification" when some criterion agrees less.
    verdict = "does not hold" if not differ else "holds" if all(agree) else "holds with qualification"
    return Finding(
        key="queries-depend-on-discount",
        title="The discount changes how many queries an experiment needs",
        claim="Measures differ in how many system pairs they separate on the same topics (discriminative power) and "
              "in how stable their ordering is over topic sets, so the gain and discount matter for how many queries "
              "an experiment needs.",
        source="Sakai (2006); Kanoulas & Aslam (2009); Voorhees & Buckley (2002)",
        measurement=f"{len(table)} measures (gain x discount). Fewest queries: {top['measure']}, {_needed(top)}; "
                    f"most: {worst['measure']}, {_needed(worst)}, {number(worst['queries_needed'] / top['queries_needed'], 3)} "
                    f"times as many; {_cases(int(table['more'].sum()), len(table))} measures need more than the best "
                    f"(95% intervals apart); its fewest-queries group (intervals overlapping the best's): "
                    f"{', '.join(table[table['group']]['measure'])}. On one collection "
                    f"of {params['topics']} topics: discriminative power {span(table['power'], 3)}, swap rate between "
                    f"disjoint sets of {swap_c} queries {span(table['swap_rate'], 3)}. Kendall tau across the measures "
                    f"between the queries needed and " + ", ".join(f"{label} {taus[key]:+.2f}"
                                                                  for key, label, _ in QUERY_CRITERIA) + ".",
        summary=f"{top['measure']} {number(top['queries_needed'], 3)} to {worst['measure']} "
                f"{number(worst['queries_needed'], 3)} queries; criteria " + ("agree" if all(agree) else "agree only in part")
                + f" (Kendall tau {span([abs(t) for t in taus.values()], 2)} in absolute value)",
        verdict=verdict,
        conditions=_collection_conditions(params) + f" Agreement of a criterion: Kendall |tau| >= {STRONG_TAU} with "
                   "the expected sign (this finding's threshold). How much the discount matters is the factor "
                   "between the best and the worst measure, and which measures share the best one's interval.",
        figures=("07_queries_needed", "07_asl_curves", "07_swap_rates"),
        tables=("07_measures.csv", "07_power.csv", "07_swap_rates.csv", "07_query_sets.csv"),
        notebooks=(QUERY_SETS,),
        numbers={"ratio_worst_best": float(worst["queries_needed"] / top["queries_needed"]),
                 **{f"tau_{key}": float(v) for key, v in taus.items()}},
    )


def fast_discounts_need_more_queries(results: Results) -> Finding:
    table, best, params = _query_measures(results)
    top = table.iloc[best]
    slow = table[table["decay"] == "slowly varying"]
    fast = table[table["decay"].isin(FAST_DECAY)]
    separated = {}
    for gain, rows in table.groupby("gain", sort=False):
        s, f = rows[rows["decay"] == "slowly varying"], rows[rows["decay"].isin(FAST_DECAY)]
        separated[gain] = bool(s["queries_needed_high"].max() < f["queries_needed_low"].min())
    classes = []
    for decay, rows in table.groupby("decay", sort=False):
        ranges = "; ".join(f"{g} {span(r['queries_needed'], 3)}" for g, r in rows.groupby("gain", sort=False))
        classes.append((rows["queries_needed"].min(), f"{decay} ({', '.join(dict.fromkeys(rows['discount']))}): {ranges}"))
    classes = [text for _, text in sorted(classes)]
    # Rule: "does not hold" unless, for every gain, every summable and critical discount's interval of queries
    # needed lies entirely above every slowly varying one's; "holds" if moreover the best measure has a slowly
    # varying discount and every slowly varying measure is in the fewest-queries group; "holds with
    # qualification" otherwise (the measurement names what falls outside).
    if not all(separated.values()):
        verdict = "does not hold"
    elif top["decay"] == "slowly varying" and bool(slow["group"].all()):
        verdict = "holds"
    else:
        verdict = "holds with qualification"
    outside = slow[~slow["group"]]["measure"].tolist()
    by_class = {d: span(r["queries_needed"], 3) for d, r in table.groupby("decay", sort=False)}
    return Finding(
        key="fast-discounts-need-more-queries",
        title="Discounts that weigh only the first ranks need more queries",
        claim="Discounts that keep per-list distinguishability (the slowly varying ones, log2, loglog) also need the "
              "fewest queries, and fast-decaying ones (power(beta=2), zipf, geometric), which base a list's score on "
              "its first few ranks, need more.",
        source=f"{PACKAGE} (notebooks 03-05's per-list results carried to query sets)",
        measurement="Queries needed by decay class of the discount, per gain: " + "; ".join(classes) + ". For each "
                    "gain, every summable and critical discount's 95% interval lies above every slowly varying one's: "
                    + ", ".join(f"{g} {'yes' if v else 'no'}" for g, v in separated.items()) + ". The fewest queries "
                    "per gain: " + ", ".join(f"{g} {r.loc[r['queries_needed'].idxmin(), 'discount']} "
                                             f"({r.loc[r['queries_needed'].idxmin(), 'decay']})"
                                             for g, r in table.groupby("gain", sort=False))
                    + f"; overall {top['measure']}; slowly varying measures in its fewest-queries group (intervals overlapping): "
                    f"{_cases(int(slow['group'].sum()), len(slow))}" + (f" (outside: {', '.join(outside)})" if outside
                                                                      else "")
                    + f"; summable and critical measures needing more: {_cases(int(fast['more'].sum()), len(fast))}.",
        summary="; ".join(f"{d} {v}" for d, v in by_class.items()) + " queries",
        verdict=verdict,
        conditions=_collection_conditions(params) + " The runs are short lists, so the slow discounts win "
                   "here not by keeping long lists apart (notebooks 03-04) but by not letting one lucky or unlucky "
                   "rank decide a topic. The regularly varying discounts (r^-beta, beta < 1) were not part of the "
                   "claim and are shown for comparison, as is the constant discount ('none').",
        figures=("07_queries_needed",),
        tables=("07_measures.csv", "07_query_sets.csv"),
        notebooks=(QUERY_SETS,),
        numbers={f"separated_{g}": float(v) for g, v in separated.items()},
    )


def per_topic_win_predicts_queries(results: Results) -> Finding:
    table, _, params = _query_measures(results)
    finite = table[np.isfinite(table["queries_needed"])]
    tau = kendall_tau(finite["per_topic_win"], finite["queries_needed"])
    # The 1% cut-off was set after seeing the runs (it separates the measures without a discount); the
    # main rule uses tau over all measures.
    tied = finite[finite["per_topic_tie"] > TIE_SHARE]
    untied = finite[finite["per_topic_tie"] <= TIE_SHARE]
    tau_untied = kendall_tau(untied["per_topic_win"], untied["queries_needed"]) if len(untied) > 2 else math.nan
    # Rule: "holds" if tau <= -STRONG_TAU (a higher win probability goes with fewer queries); "holds with
    # qualification" if the association is negative but weaker; "does not hold" if tau >= 0.
    verdict = "holds" if tau <= -STRONG_TAU else "holds with qualification" if tau < 0 else "does not hold"
    return Finding(
        key="per-topic-win-predicts-queries",
        title="Per-list distinguishability predicts the queries needed",
        claim="A measure under which the more skilled of two systems scores strictly higher on one topic more often "
              "(notebook 04's per-list distinguishability, on one topic) needs fewer queries to order the systems.",
        source=f"{PACKAGE} (notebooks 03-05 carried to query sets)",
        measurement=f"Per-topic P(more skilled system strictly higher), averaged over all system pairs on "
                    f"{params['population_topics']} topics: {span(finite['per_topic_win'], 3)}. Kendall tau across "
                    f"{len(finite)} measures between it and the queries needed: {tau:+.3f}; without the measures whose "
                    f"systems tie exactly in more than {TIE_SHARE:.0%} of (system pair, topic) cases ("
                    + (", ".join(f"{r.measure} {number(r.per_topic_tie, 2)}" for r in tied.itertuples()) or "none")
                    + f"): {number(tau_untied, 3)} (that cut-off was chosen after seeing the runs).",
        summary=f"Kendall tau {tau:+.2f} across {len(finite)} measures ({number(tau_untied, 2)} without exact ties)",
        verdict=verdict,
        conditions=_collection_conditions(params) + f" Rule: tau <= -{STRONG_TAU} holds (this finding's threshold). "
                   "Exact ties lower a measure's win probability without costing as many queries, so the measures "
                   "without a discount fall off the line.",
        figures=("07_per_list_vs_queries",),
        tables=("07_measures.csv",),
        notebooks=(QUERY_SETS,),
        numbers={"tau": float(tau), "tau_untied": float(tau_untied)},
    )


def linear_gain_fewer_queries(results: Results) -> Finding:
    table, _, params = _query_measures(results)
    gains = list(dict.fromkeys(table["gain"]))
    if len(gains) != 2:
        raise ValueError(f"07_measures.csv: the gain comparison needs exactly two gains, got {gains!r}")
    first, second = gains
    rows = table.set_index(["gain", "discount"])
    discounts = list(dict.fromkeys(table["discount"]))
    fewer = [d for d in discounts if rows.loc[(first, d), "queries_needed"] < rows.loc[(second, d), "queries_needed"]]
    apart = [d for d in discounts
             if rows.loc[(first, d), "queries_needed_high"] < rows.loc[(second, d), "queries_needed_low"]]
    ratio = [rows.loc[(second, d), "queries_needed"] / rows.loc[(first, d), "queries_needed"] for d in discounts]
    # Rule: "holds" if the first gain needs fewer queries under every discount with 95% intervals apart; "holds
    # with qualification" if its estimate is lower under every discount but the intervals overlap for some; "does
    # not hold" otherwise.
    verdict = ("holds" if len(apart) == len(discounts) else
               "holds with qualification" if len(fewer) == len(discounts) else "does not hold")
    return Finding(
        key="linear-gain-fewer-queries",
        title=f"The {first} gain needs slightly fewer queries than {second}",
        claim=f"The {first} gain needs slightly fewer queries than {second} under every discount: weighting the rare "
              "highest grades exponentially adds per-topic variance.",
        source=f"{PACKAGE} (notebook 07's observation)",
        measurement=f"{second} / {first} queries needed per discount: {span(ratio, 3)}; {first} fewer under "
                    f"{_cases(len(fewer), len(discounts))} discounts, with 95% intervals apart under "
                    f"{_cases(len(apart), len(discounts))}" + (f" ({', '.join(apart)})" if apart else "") + ".",
        summary=f"{first} fewer under {_cases(len(fewer), len(discounts))} discounts, intervals apart under "
                f"{_cases(len(apart), len(discounts))}",
        verdict=verdict,
        conditions=_collection_conditions(params) + " Grades 1, 2, 3 of the relevant documents with probabilities "
                   + ", ".join(str(p) for p in CollectionModel(**params["model"]).grade_probabilities) + ".",
        figures=("07_queries_needed",),
        tables=("07_measures.csv",),
        notebooks=(QUERY_SETS,),
        numbers={"fewer": float(len(fewer)), "apart": float(len(apart))},
    )


# --------------------------------------------------------------------------- 08: MovieLens-100k

MOVIELENS = "08_movielens.ipynb"
REAL_DATA = "MovieLens-100k (Harper & Konstan 2015)"


def _movielens(results: Results) -> tuple[dict, dict]:
    """The list-length numbers and verdicts (studies.realdata.list_length_findings) and the run's parameters."""
    f = rd.list_length_findings(results.table("08_list_length_means.csv"), results.table("08_list_length_pairs.csv"),
                                results.table("08_list_length_first_order.csv"))
    return f, results.record("08_movielens.json")["parameters"]


def _movielens_conditions(params: dict, extra: str) -> str:
    return (f"{REAL_DATA}: each user's latest {params['test_fraction']:.0%} of ratings are the test set; "
            f"{len(params['rankers'])} recommenders ({', '.join(params['rankers'])}) rank every item the user did not "
            f"rate in training; seed {params['seed']}. {extra} The rule is that of "
            "`studies.realdata`, fixed before the run, and the notebook prints the same verdict.")


def movielens_drift_together(results: Results) -> Finding:
    f, params = _movielens(results)
    means = results.table("08_list_length_means.csv")
    g0 = f["gains"][0]
    failing = [f"{d} ({g})" for g in f["gains"] for d in f["slow"] if (g, d) not in f["rising"]]
    length = means[means["list_length"].astype(str) == f["n1"]]["mean_length"].iloc[0]
    spreads = ", ".join(f"{d} {number(f['spread'][(g0, d)][0], 3)} -> {number(f['spread'][(g0, d)][1], 3)}"
                        for d in f["slow"])
    verdict = f["verdicts"]["1a drift together (slowly varying)"]
    return Finding(
        key="movielens-drift-together",
        title="On MovieLens, slowly varying discounts draw the recommenders together as lists grow",
        claim="Under slowly varying discounts every ranker's nDCG rises towards 1 as the list grows, so the rankers "
              "drift towards one value, the slower the discount the closer (notebook 03's result, asked of real "
              "recommenders).",
        source=f"{WANG}; {ARTICLE}; tested on real data by {PACKAGE}",
        measurement=f"From n = {f['n0']} (the first sampled length that keeps every user's share of test items) to "
                    f"the whole candidate list (mean {number(length, 4)} items): every ranker's mean rises in "
                    f"{_cases(len(f['rising']), f['cells'])} slowly varying discount x gain cells"
                    + (f" (not in: {', '.join(failing)})" if failing else "") + f"; the spread (best minus worst "
                    f"ranker) narrows in {_cases(len(f['narrowing']), f['cells'])}; gain {g0}: {spreads}.",
        summary=f"spread narrows in {_cases(len(f['narrowing']), f['cells'])} cells, every ranker rises in "
                f"{_cases(len(f['rising']), f['cells'])}",
        verdict=verdict,
        conditions=_movielens_conditions(params, "Lists sampled at each n keeping the user's share of test items "
                                         f"({params['list_replicates']} draws). Rule: holds if every ranker rises and "
                                         "the spread narrows in every cell; with qualification if only the spread "
                                         "always narrows. Candidate lists of at most the 1,682 films are far "
                                         "from the asymptotic regime."),
        figures=("08_list_length",),
        tables=("08_list_length_means.csv",),
        notebooks=(MOVIELENS,),
        numbers={"rising": float(len(f["rising"])), "narrowing": float(len(f["narrowing"])), "cells": float(f["cells"])},
    )


def movielens_first_order(results: Results) -> Finding:
    f, params = _movielens(results)
    means = results.table("08_list_length_means.csv")
    first_order = results.table("08_list_length_first_order.csv")
    whole = first_order[first_order["list_length"].astype(str) == f["n1"]]
    eps = whole[whole["discount"] == "log2"]["eps"].iloc[0]
    share = means[means["list_length"].astype(str) == f["n1"]]["mean_share_relevant"].iloc[0]
    slowest = f["slow"][-1]
    verdict = f["verdicts"]["1a first-order law"]
    return Finding(
        key="movielens-first-order",
        title="On MovieLens, 1 - nDCG ~ eps_D(n) c_f with c_f independent of the discount",
        claim="To first order 1 - nDCG ~ eps_D(n) c_f under slowly varying discounts, with c_f depending on the "
              "ranker, not on the discount.",
        source=PACKAGE,
        measurement=f"At the whole list, c = mean over users of (1 - nDCG) / eps_D(n) (gain {f['gains'][0]}): under "
                    f"log2 {span(f['c']['log2'], 3)}, under {slowest} {span(f['c'][slowest], 3)} over the rankers; "
                    f"ratio {slowest} / log2 {span(f['c_ratio'], 3)}. The expansion needs eps_D(n) ln(1/share) to "
                    f"be small; for log2 it is {number(eps * np.log(1 / share), 2)}.",
        summary=f"c under {slowest} / c under log2: {span(f['c_ratio'], 3)} (1 if the law held)",
        verdict=verdict,
        conditions=_movielens_conditions(params, "Rule: holds if each ranker's c under the slowest discount is "
                                         "within a factor 1.2 of its c under log2 (ratio between 1/1.2 and 1.2). The law is asymptotic (see the finding on "
                                         "1 - nDCG ~ eps_D(n) c_f on simulated lists); real candidate lists of at "
                                         "most the 1,682 films with few relevant items are short for it."),
        figures=("08_list_length",),
        tables=("08_list_length_first_order.csv", "08_list_length_means.csv"),
        notebooks=(MOVIELENS,),
        numbers={"c_ratio_min": float(f["c_ratio"].min()), "c_ratio_max": float(f["c_ratio"].max())},
    )


def movielens_differences_detectable(results: Results) -> Finding:
    f, params = _movielens(results)
    pairs = results.table("08_ranker_pairs.csv")
    g0, n1, slowest = f["gains"][0], f["n1"], f["slow"][-1]
    whole = pairs[(pairs["gain"] == g0) & (pairs["cutoff"].astype(str) == "all")]
    tied = whole[whole["pvalue_adjusted"] >= 0.05]
    verdict = f["verdicts"]["1b differences stay detectable"]
    return Finding(
        key="movielens-differences-detectable",
        title="On MovieLens, slower discounts still tell the recommenders apart",
        claim="Although slowly varying discounts draw the rankers' values together, their differences stay "
              "detectable: in paired comparisons the standardized gap is not smaller under slower discounts "
              "(notebook 04's result, asked of real recommenders).",
        source=f"{WANG} (log2 distinguishes consistently); {PACKAGE} (slower discounts; real data)",
        measurement=f"At the whole list (gain {g0}, paired t tests over users, Holm, 5%): pairs of the "
                    f"{len(params['rankers'])} rankers significantly different under log2 "
                    f"{f['significant'][(n1, 'log2')]}, under {slowest} {f['significant'][(n1, slowest)]}; |d_z| "
                    f"under {slowest} / under log2 (pairs with |d_z| > 0.1 under log2): median "
                    f"{number(f['dz_ratio'].median(), 3)}, range {span(f['dz_ratio'], 3)}. Under log2 the pairs not "
                    f"told apart: " + (", ".join(f"{r.system_a} vs {r.system_b} (difference {r.difference:+.4f}, "
                                                 f"adjusted p {number(r.pvalue_adjusted, 2)})"
                                                 for r in tied.itertuples()) or "none") + f", of {len(whole)}.",
        summary=f"significant pairs log2 {f['significant'][(n1, 'log2')]}, {slowest} "
                f"{f['significant'][(n1, slowest)]} of {len(whole)}; effect size ratio median "
                f"{number(f['dz_ratio'].median(), 3)}",
        verdict=verdict,
        conditions=_movielens_conditions(params, f"Rule: holds if at the whole list {slowest} finds at least as many "
                                         "significant pairs as log2 and the median ratio of |d_z| is at least 0.9."),
        figures=("08_list_length_distinguishability", "08_rankers"),
        tables=("08_list_length_pairs.csv", "08_ranker_pairs.csv"),
        notebooks=(MOVIELENS,),
        numbers={"dz_ratio_median": float(f["dz_ratio"].median())},
    )


def movielens_fast_discounts_lose(results: Results) -> Finding:
    f, params = _movielens(results)
    n1 = f["n1"]
    counts = ", ".join(f"{d} {f['significant'][(n1, d)]}" for d in f["discounts"])
    verdict = f["verdicts"]["1c zipf/summable lose"]
    return Finding(
        key="movielens-fast-discounts-lose",
        title="On MovieLens, zipf and summable discounts separate fewer recommenders",
        claim="Under zipf and summable discounts only the first few ranks count; where relevance at the top is "
              "uncertain, rankers with equally good tops are not told apart (notebook 04's uncertain-top result).",
        source=f"{WANG} (1/r the critical point); {PACKAGE} (uncertain top; real data)",
        measurement=f"Pairs of the {len(params['rankers'])} rankers significantly different at the whole list (gain "
                    f"{f['gains'][0]}, paired t, Holm, 5%), per discount: {counts}.",
        summary=", ".join(f"{d} {f['significant'][(n1, d)]}" for d in f["discounts"]
                          if d in f["fast"] or d == "log2") + " significant pairs",
        verdict=verdict,
        conditions=_movielens_conditions(params, "Rule: holds if zipf and both summable discounts find fewer "
                                         "significant pairs than log2 at the whole list."),
        figures=("08_list_length_distinguishability",),
        tables=("08_list_length_pairs.csv",),
        notebooks=(MOVIELENS,),
        numbers={d: float(f["significant"][(n1, d)]) for d in f["discounts"]},
    )


def movielens_query_sets(results: Results) -> Finding:
    power = results.table("08_query_sets_power.csv")
    swaps = results.table("08_query_sets_swaps.csv")
    params = results.record("08_movielens.json")["parameters"]
    f = rd.query_set_findings(power)
    smallest = swaps[swaps["size"] == swaps["size"].min()].groupby("discount", sort=False)["swap_rate"].mean()
    systems = len(params["rankers"]) + len(params["extra_rankers"])
    return Finding(
        key="movielens-query-sets",
        title="On MovieLens, discounts that look deeper separate recommenders with fewer users",
        claim="Slowly varying discounts separate systems at least as well as log2 over sets of users; zipf and the "
              "summable discounts, which look only at the first ranks, separate fewer (notebook 04's per-list "
              "result carried to query sets).",
        source=f"{PACKAGE} (notebooks 04 and 07's question on real data)",
        measurement=f"Discriminative power (share of the {systems * (systems - 1) // 2} pairs of {systems} systems "
                    f"significant by the paired bootstrap test at 5%, {params['power_draws']} user sets per size, "
                    f"mean over the gains) at {f['users']} users: "
                    + ", ".join(f"{d} {number(x, 2)}" for d, x in f["power"].items())
                    + f"; the most discriminating: {f['best']}. Swap rate between disjoint sets of "
                    f"{int(swaps['size'].min())} users (mean over the gains): "
                    + ", ".join(f"{d} {number(x, 2)}" for d, x in smallest.items()) + ".",
        summary=f"power at {f['users']} users: log2 {number(f['power']['log2'], 2)}, best {f['best']} "
                f"{number(f['power'].max(), 2)}, lowest {f['power'].idxmin()} {number(f['power'].min(), 2)}",
        verdict=f["verdict"],
        conditions=_movielens_conditions(params, f"Whole candidate lists; {systems} systems (the recommenders and "
                                         f"{len(params['extra_rankers'])} hyper-parameter variants). Rule: holds if, "
                                         "at the user-set size nearest 100 and averaged over the gains, every slowly "
                                         "varying discount's power is at least log2's minus 0.05 and zipf's and the "
                                         "summable discounts' is below log2's."),
        figures=("08_query_sets",),
        tables=("08_query_sets_power.csv", "08_query_sets_swaps.csv"),
        notebooks=(MOVIELENS,),
        numbers={d: float(x) for d, x in f["power"].items()},
    )


def movielens_conventions(results: Results) -> Finding:
    decisions = results.table("08_conventions_decisions.csv")
    params = results.record("08_movielens.json")["parameters"]
    f = rd.convention_findings(decisions)
    others = decisions[decisions["convention"] != "trec_eval"]
    reversing = sorted(set(others[others["significant_reversals"] > 0]["convention"]))
    low_tau = sorted(set(others[others["kendall_tau_vs_reference"] < 0.8]["convention"]))
    by_depth = []
    for depth, rows in others.groupby(others["depth"].astype(str), sort=False):
        by_depth.append(f"run files of depth {depth}: significant decisions reversed "
                        f"{int(rows['significant_reversals'].sum())}, lowest tau {number(rows['kendall_tau_vs_reference'].min(), 2)}, "
                        f"largest shift of a mean {number(rows['max_mean_shift'].max(), 2)}")
    return Finding(
        key="movielens-conventions",
        title="Tools' nDCG conventions agree on which recommender is better",
        claim="The tools' conventions change the values of nDCG, not the verdicts: every tool agrees on which "
              "recommender is better (what a user comparing systems with 'nDCG' from any tool assumes).",
        source="common practice (what comparing systems by any tool's 'nDCG' assumes)",
        measurement=f"The same run files under each tool's preset against trec_eval (nDCG and nDCG@10, paired t, "
                    f"Holm, 5%): " + "; ".join(by_depth) + ". Presets that reverse a significant trec_eval decision: "
                    + (", ".join(reversing) or "none") + "; presets whose order of the rankers has tau < 0.8: "
                    + (", ".join(low_tau) or "none") + ".",
        summary=f"largest shift {number(f['max_shift'], 2)}; significant decisions reversed by "
                + (", ".join(reversing) or "none"),
        verdict=f["verdict"],
        conditions=_movielens_conditions(params, "Run files of each user's top items (and, where the profile says "
                                         "so, the whole candidate list). The ideal from the run file itself "
                                         "(scikit-learn, TorchMetrics, TF-Ranking, XGBoost's ndcg-) and the value 1 "
                                         "for a list without relevant items (LightGBM, XGBoost) are what moves the "
                                         "verdicts; on whole lists the ideals coincide. Rule: holds if no preset "
                                         "reverses a significant trec_eval decision and every tau is at least 0.8."),
        figures=("08_conventions",),
        tables=("08_conventions_decisions.csv", "08_conventions_means.csv"),
        notebooks=(MOVIELENS,),
        numbers={"max_shift": float(f["max_shift"]), "reversing_presets": float(len(reversing))},
    )


def movielens_cutoffs(results: Results) -> Finding:
    decisions = results.table("08_cutoffs_decisions.csv")
    params = results.record("08_movielens.json")["parameters"]
    f = rd.cutoff_findings(decisions)
    d = decisions.assign(cutoff=decisions["cutoff"].astype(str))
    g0 = d["gain"].iloc[0]
    first = d[d["gain"] == g0]
    counts = ", ".join(("whole list" if r.cutoff == "all" else f"@{r.cutoff}") + f" {r.significant}"
                       for r in first.itertuples())
    return Finding(
        key="movielens-cutoffs",
        title="On MovieLens, small cut-offs separate fewer recommenders and change decisions",
        claim="A fixed small cut-off keeps less of the information that separates rankers on long lists; "
              "decisions taken at @k can differ from those on the whole list (notebook 05's result on real data).",
        source=f"{PACKAGE} (notebook 05)",
        measurement=f"Pairs of {int(first['pairs'].iloc[0])} significantly different (log2, paired t, Holm, 5%), gain "
                    f"{g0}: {counts}. Decisions that differ from the whole list's at @5 and @10, summed over the "
                    f"gains: {f['changed']}; significant decisions reversed at any cut-off: {f['reversed_significant']}; "
                    f"Kendall tau of the systems' order against the whole list at @5 and @10: "
                    f"{span(d[d['cutoff'].isin(['5', '10'])]['kendall_tau_vs_reference'], 2)}.",
        summary=f"gain {g0}: {counts} significant pairs; no significant decision reversed"
                if f["reversed_significant"] == 0 else f"gain {g0}: {counts} significant pairs",
        verdict=f["verdict"],
        conditions=_movielens_conditions(params, f"All {len(params['rankers']) + len(params['extra_rankers'])} "
                                         "systems, whole candidate lists cut at k. Rule: holds if, "
                                         "for every gain, @5 and @10 find fewer significant pairs than the whole "
                                         "list and at least one decision changes."),
        figures=("08_cutoffs",),
        tables=("08_cutoffs_decisions.csv", "08_cutoffs_pairs.csv"),
        notebooks=(MOVIELENS,),
        numbers={"changed": float(f["changed"]), "reversed_significant": float(f["reversed_significant"])},
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
    queries_depend_on_discount,
    fast_discounts_need_more_queries,
    per_topic_win_predicts_queries,
    linear_gain_fewer_queries,
    movielens_drift_together,
    movielens_first_order,
    movielens_differences_detectable,
    movielens_fast_discounts_lose,
    movielens_query_sets,
    movielens_conventions,
    movielens_cutoffs,
)


def collect(results: Results) -> list[Finding]:
    """Evaluate every finding on the committed tables."""
    return [finding(results) for finding in FINDINGS]
