"""The critical bracket (studies/simulation/bracket.py): the failure-rate fit against an independent optimiser, trend
classes, predictions and verdicts."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from scipy import optimize

from ndcg_research.simulation.sweeps import Sweep, run_sweep
from ndcg_research.studies.critical_bracket import experiment as bracket
from ndcg_research.studies.critical_bracket.experiment import (
    answer_lines,
    failure_trend,
    gap_table,
    log_binomial_slope,
    predicted_trend,
    summary_table,
)


def _loglik(params, x, k, r):
    p = np.exp(params[0] + params[1] * x)
    if np.any(p >= 1):
        return -np.inf
    return float(np.sum(k * np.log(p) + (r - k) * np.log1p(-p)))


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_log_binomial_slope_is_the_maximum_likelihood_estimate(seed):
    rng = np.random.default_rng(seed)
    x = np.log([100, 300, 1000, 3000, 10000])
    r = np.array([4000, 4000, 2000, 1000, 500])
    k = rng.binomial(r, 0.4 * np.exp(-0.3 * (x - x[0])))
    b, se = bracket.log_binomial_slope(x, k, r)
    # an independent optimiser (Nelder-Mead on the likelihood) finds the same maximum
    best = optimize.minimize(
        lambda c: -_loglik(c, x, k, r),
        x0=[-1.0, 0.0],
        method="Nelder-Mead",
        options=dict(xatol=1e-10, fatol=1e-12, maxiter=20000),
    )
    assert b == pytest.approx(best.x[1], abs=1e-5)
    # the standard error from the observed information (a finite-difference Hessian) is close to the expected one
    h = 1e-4
    c = np.array([best.x[0], best.x[1]])

    def f(a, s):
        return _loglik(c + np.array([a, s]), x, k, r)

    hess = (
        np.array(
            [
                [f(h, 0) - 2 * f(0, 0) + f(-h, 0), (f(h, h) - f(h, -h) - f(-h, h) + f(-h, -h)) / 4],
                [0.0, f(0, h) - 2 * f(0, 0) + f(0, -h)],
            ]
        )
        / h**2
    )
    hess[1, 0] = hess[0, 1]
    assert se == pytest.approx(math.sqrt(np.linalg.inv(-hess)[1, 1]), rel=0.05)


def test_log_binomial_slope_recovers_an_exact_power_law():
    n = np.array([100.0, 1000.0, 10000.0, 100000.0])
    r = np.full(4, 10**9)
    k = np.rint(r * 0.3 * (n / 100) ** -0.5).astype(np.int64)
    assert bracket.log_binomial_slope(np.log(n), k, r)[0] == pytest.approx(-0.5, abs=1e-6)
    with pytest.raises(ValueError, match="some failures"):
        bracket.log_binomial_slope(np.log(n), [0, 0, 0, 0], r)
    with pytest.raises(ValueError, match="failures only at the smallest x"):
        bracket.log_binomial_slope(np.log(n), [5, 0, 0, 0], r)
    with pytest.raises(ValueError, match="two distinct x"):
        bracket.log_binomial_slope([1.0, 1.0], [1, 2], [10, 10])


def _pairs(p_better, replicates=2000, n=(100, 1000, 10000)):
    return pd.DataFrame(
        dict(discount="zipf", better="a", worse="b", n=list(n), replicates=replicates, p_better=list(p_better))
    )


@pytest.mark.parametrize(
    "p_better, trend",
    [
        ([0.6, 0.8, 0.95], "falls"),
        ([0.7, 0.6, 0.52], "rises"),
        ([0.6, 0.6, 0.6], "flat"),
        ([1.0, 1.0, 1.0], "no failures"),
        ([0.9, 1.0, 1.0], "falls"),
        ([1.0, 1.0, 0.99], "rises"),
        ([0.0, 0.0, 0.0], "all failed"),
    ],
)
def test_failure_trend_classes(p_better, trend):
    t = bracket.failure_trend(_pairs(p_better))
    assert t["trend"].iloc[0] == trend
    assert t["failures"].iloc[0] == round(sum((1 - p) * 2000 for p in p_better))


def test_predicted_trends():
    uncertain, certain = "probit(lo=0.1, hi=0.6)", "probit"
    assert bracket.predicted_trend(uncertain, "bayes", "noisy(sigma=0.5)", "power(beta=0.8)") == "falls"
    assert bracket.predicted_trend(uncertain, "bayes", "noisy(sigma=0.5)", "zipf") == "flat"
    assert bracket.predicted_trend(uncertain, "bayes", "noisy(sigma=0.5)", "zipflog(gamma=1)") == "rises"
    assert bracket.predicted_trend(uncertain, "bayes", "noisy(sigma=0.5)", "power(beta=1.2)") == "rises"
    for d in ("zipf", "zipflog(gamma=2)", "power(beta=1.2)"):
        assert bracket.predicted_trend(certain, "noisy(sigma=0.5)", "noisy(sigma=1)", d) == "falls"


def test_verdict_table_on_a_small_sweep():
    discounts = ["power(beta=0.8)", "zipf", "power(beta=1.2)"]
    pairs = [("bayes", "noisy(sigma=1)")]
    tables = {}
    for label, model in (("certain", "probit"), ("uncertain", "probit(lo=0.1, hi=0.6)")):
        s = Sweep.build(
            model,
            ns=[100, 300, 1000],
            replicates=300,
            seed=3,
            rankers=["bayes", "noisy(sigma=1)"],
            discounts=discounts,
            pairs=pairs,
        )
        tables[label] = run_sweep(s).pair_table()
    v = bracket.verdict_table(tables)
    assert len(v) == 6 and set(v["label"]) == {"certain", "uncertain"}
    # the verdict is the failure trend's, and agreement compares it with the prediction
    assert ((v["verdict"] == "keeps") == v["failure_trend"].isin(["falls", "no failures"])).all()
    assert ((v["verdict"] == "loses") == (v["failure_trend"] == "rises")).all()
    measured = v["failure_trend"].replace("no failures", "falls")
    assert ((v["agreement"] == "agrees") == (measured == v["predicted"])).all()
    assert (v["p_last_low"] <= v["p_last"]).all() and (v["p_last"] <= v["p_last_high"]).all()
    lost = bracket.lost_discounts(v)
    assert len(lost) == 2
    for row in lost.itertuples():
        listed = [d for d in (row.keeps + ", " + row.not_kept).split(", ") if d]
        assert sorted(listed) == sorted(discounts)


def test_lost_discounts_orders_by_decay():
    v = pd.DataFrame(
        dict(
            label="u",
            better="a",
            worse="b",
            discount=[
                "power(beta=1.2)",
                "zipflog(gamma=2)",
                "zipf",
                "power(beta=0.9)",
                "zipflog(gamma=1)",
                "power(beta=1.1)",
            ],
            verdict=["loses", "loses", "flat", "keeps", "loses", "loses"],
        )
    )
    row = bracket.lost_discounts(v).iloc[0]
    assert row["keeps"] == "power(beta=0.9)"
    assert row["not_kept"] == "zipf, zipflog(gamma=1), zipflog(gamma=2), power(beta=1.1), power(beta=1.2)"
    assert row["rising"] == "zipflog(gamma=1), zipflog(gamma=2), power(beta=1.1), power(beta=1.2)"
    assert row["first_lost"] == "zipf"


# ------------------------------------------------------------ examples of studies.critical_bracket.experiment


def test_log_binomial_slope_example():
    n = np.array([100, 1000, 10000])
    b, se = log_binomial_slope(np.log(n), [400, 200, 100], [1000, 1000, 1000])
    assert (round(b, 4), round(b, 4) == round(math.log(0.25) / math.log(100), 4)) == (-0.301, True)


def test_failure_trend_example():
    t = pd.DataFrame(
        dict(discount="zipf", better="a", worse="b", n=[100, 1000, 10000], replicates=1000, p_better=[0.6, 0.8, 0.9])
    )
    assert failure_trend(t)[["exponent", "trend"]].round(3).values.tolist() == [[-0.301, "falls"]]


def test_predicted_trend_example():
    expected = ["falls", "flat", "rises", "rises"]
    assert [
        predicted_trend("probit(lo=0.1, hi=0.6)", "bayes", "noisy(sigma=1)", d)
        for d in ["power(beta=0.9)", "zipf", "zipflog(gamma=1)", "power(beta=1.1)"]
    ] == expected
    assert predicted_trend("probit", "bayes", "noisy(sigma=1)", "power(beta=1.2)") == "falls"


def test_answer_lines_example():
    v = pd.DataFrame(
        dict(
            label="uncertain",
            better="a",
            worse="b",
            n_first=100,
            n_last=1000,
            discount=["power(beta=0.9)", "zipf"],
            verdict=["keeps", "loses"],
            agreement="agrees",
        )
    )
    expected = (
        "uncertain top, a > b: over n = 100 to 1000 the failure rate falls under power(beta=0.9); it does not "
        "fall "
        "under zipf (it rises under zipf)."
    )
    assert answer_lines(v)[0] == expected


def test_summary_table_example():
    v = pd.DataFrame(
        dict(
            label="u",
            discount=["zipf"],
            better="a",
            worse="b",
            n_last=1000,
            p_last=0.6,
            replicates_last=1000,
            failure_exponent=0.01,
            failure_low=-0.02,
            failure_high=0.04,
            failure_trend="flat",
            n_first=100,
            verdict="loses",
        )
    )
    t = summary_table(v, "u")
    expected = (
        [("a > b", "P(correct), n = 1000"), ("a > b", "failure ~ n^b: b [95%]"), ("a > b", "verdict")],
        ["0.60", "0.01 [-0.02, 0.04]", "loses"],
    )
    assert (t.columns.tolist(), t.loc["zipf"].tolist()) == expected
    # An infinite or missing exponent is said in words: failures only at the first n, or none at all.
    early = v.assign(failure_exponent=-math.inf, failure_low=-math.inf, failure_high=-math.inf, failure_trend="falls")
    assert summary_table(early, "u").loc["zipf"].tolist()[1] == "< 0: failures only at n = 100"
    assert summary_table(v.assign(failure_trend="no failures"), "u").loc["zipf"].tolist()[1] == "no failures"


def test_gap_table_example():
    v = pd.DataFrame(
        dict(
            label="u",
            discount=["zipf"],
            better="a",
            worse="b",
            n_last=1000,
            d_last=0.2,
            d_exponent=0.01,
            d_low=-0.05,
            d_high=0.07,
            law_exponent=0.0,
            law_log_power=0.0,
            heuristic_exponent=0.004,
            d_n_from=100,
        )
    )
    # The model's pair table: at n = 1000 the gap is 20 standard errors from 0 (resolved), or 0.2 of one (not).
    pairs = pd.DataFrame(dict(discount=["zipf"], better="a", worse="b", n=1000, std_gap=0.2, std_gap_se=0.01))
    assert [str(x) for x in gap_table(v, "u", pairs).loc["zipf"]] == ["0.2", "0.01 [-0.05, 0.07]", "0", "0.0"]
    unresolved = gap_table(v, "u", pairs.assign(std_gap_se=1.0)).loc["zipf"]
    assert [str(x) for x in unresolved] == ["0.2", "not resolved", "0", "0.0"]


def test_gap_table_law_text():
    # The law's exponent in two decimals, with zipflog's log factor (was the private _law_text's example).
    discounts = ["power(beta=1.2)", "log2", "zipflog(gamma=1)"]
    laws = dict(law_exponent=[-0.2, 1 / 3, 0.0], law_log_power=[0.0, 0.0, -1.0])
    fits = dict(d_last=0.2, d_exponent=0.01, d_low=-0.05, d_high=0.07, heuristic_exponent=0.004, d_n_from=100)
    v = pd.DataFrame(dict(label="u", discount=discounts, better="a", worse="b", n_last=1000, **fits, **laws))
    pairs = pd.DataFrame(dict(discount=discounts, better="a", worse="b", n=1000, std_gap=0.2, std_gap_se=0.01))
    assert gap_table(v, "u", pairs)[("a > b", "law e")].tolist() == ["-0.2", "0.33", "0 (x ln^-1)"]
