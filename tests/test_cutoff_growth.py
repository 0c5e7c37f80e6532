"""nDCG@k with k = n^a against the scaling law (simulation/cutoff.py: CutoffRule.exponent; studies/cutoff_growth:
trend_table)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from ndcg_research.simulation import cutoff, scaling
from ndcg_research.studies.cutoff_growth import experiment
from ndcg_research.studies.cutoff_growth.experiment import growth_answer_lines, threshold_table

UNCERTAIN = "probit(lo=0.1, hi=0.6)"


def _table(exponent: float, rule: str, worse: str = "noisy(sigma=1)", discount: str = "log2") -> pd.DataFrame:
    n = np.array([100, 1000, 10_000, 100_000, 1_000_000])
    d = 0.5 * (n / 100.0) ** exponent
    return pd.DataFrame(
        dict(
            model=UNCERTAIN,
            rule=rule,
            discount=discount,
            better="bayes",
            worse=worse,
            n=n,
            std_gap=d,
            std_gap_se=0.01 * d,
        )
    )


@pytest.mark.parametrize("exponent, measured", [(0.2, "grows"), (-0.2, "shrinks"), (0.0, "flat")])
def test_trend_table_classes_the_fitted_exponent(exponent, measured):
    t = experiment.trend_table(_table(exponent, "power(a=0.5)")).iloc[0]
    assert t["exponent"] == pytest.approx(exponent, abs=1e-9)
    assert t["measured"] == measured
    assert t["a"] == 0.5
    # the law for bayes > noisy(1), uncertain top, log2, k = sqrt(n): a (1/2 + rho) - rho with rho = 1/3
    assert t["law_exponent"] == pytest.approx(0.5 * (0.5 + 1 / 3) - 1 / 3)
    assert t["a_star"] == pytest.approx(2 / 5)
    assert t["predicted"] == "grows"  # 1/12 is beyond the margin 0.05
    assert t["agreement"] == {"grows": "agrees", "shrinks": "contradicts", "flat": "unresolved"}[measured]


def test_trend_table_makes_no_call_near_zero_and_uses_the_heuristic_slope():
    table = _table(0.1, "power(a=0.4)")  # a = a*: the law exponent is 0
    heuristic = scaling.heuristic_table(
        UNCERTAIN,
        [("bayes", "noisy(sigma=1)")],
        ["log2"],
        [10_000, 100_000, 1_000_000],
        cutoff.parse_cutoff("power(a=0.4)").k,
    ).assign(rule="power(a=0.4)")
    t = experiment.trend_table(table, heuristic).iloc[0]
    assert abs(t["law_exponent"]) < 1e-12 and t["predicted"] == "no call" and t["agreement"] == "no call"
    assert t["heuristic_exponent"] == pytest.approx(
        scaling.local_exponent(heuristic["n"], heuristic["heuristic_d"]), abs=1e-12
    )


def test_fixed_k_is_a_zero_exponent():
    t = experiment.trend_table(_table(-0.3, "fixed(k=10)")).iloc[0]
    assert t["a"] == 0.0 and t["law_exponent"] == pytest.approx(-1 / 3) and t["agreement"] == "agrees"


def test_a_gap_shrunk_into_its_noise_is_fitted_and_an_undefined_one_is_not():
    table = _table(-0.3, "power(a=0.75)")
    table["std_gap_se"] = 0.02
    table.loc[table.index[-1], "std_gap"] = -0.01  # below 0 by chance: still a point of the fit
    t = experiment.trend_table(table).iloc[0]
    assert t["measured"] == "shrinks" and t["exponent"] < 0
    table["std_gap_se"] = float("nan")  # no standard error: nothing to weigh by
    assert experiment.trend_table(table)["measured"].iloc[0] == "undefined"


# ------------------------------------------------------------ examples of studies.cutoff_growth.experiment


def test_threshold_table_example():
    t = pd.DataFrame(
        dict(
            model="m",
            discount="log2",
            better="a",
            worse="b",
            rule=["fixed(k=10)", "power(a=0.5)"],
            a=[0.0, 0.5],
            a_star=0.4,
            measured=["shrinks", "grows"],
            predicted=["shrinks", "grows"],
        )
    )
    assert threshold_table(t, "m").loc["log2"].tolist() == ["0.4", "shrinks, grows", "shrinks, grows"]


def test_growth_answer_lines_example():
    t = pd.DataFrame(
        dict(
            model=["m"],
            rule="power(a=0.5)",
            a=0.5,
            discount="log2",
            better="a",
            worse="b",
            exponent=0.1,
            exponent_low=0.05,
            exponent_high=0.15,
            measured="grows",
            law_exponent=0.08,
            a_star=0.4,
            predicted="grows",
            agreement="agrees",
        )
    )
    expected = "certain top, k = n^0.5, log2: a > b: d ~ n^0.1 [0.05, 0.15] (grows; law 0.08, threshold a* = 0.4)"
    assert growth_answer_lines(t, {"m": "certain"})[0] == expected
