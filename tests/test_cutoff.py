"""Tests of :mod:`ndcg_research.simulation.cutoff` and :mod:`ndcg_research.studies.cutoff.experiment` against the
metric core, the theory sweep and hand values."""

from __future__ import annotations

import math

import numpy as np
import pytest

import ndcg_research as nr
from ndcg_research.simulation import cutoff
from ndcg_research.simulation.cutoff import CutoffSweep, parse_cutoff, replicate_ndcg_at_k
from ndcg_research.simulation.simulate import replicate_ndcg, sample
from ndcg_research.simulation.sweeps import SweepResult, run_sweep
from ndcg_research.stats import wilson_interval
from ndcg_research.studies.cutoff import experiment
from ndcg_research.studies.cutoff.experiment import fraction_limit, ndcg_by_k

TOL = 1e-10


@pytest.mark.parametrize(
    "spec, n, k",
    [
        ("fixed(k=10)", 5, 5),
        ("fixed(k=10)", 1000, 10),
        ("power(a=0.5)", 10_000, 100),
        ("power(a=0.5)", 1000, 32),
        ("fraction(c=0.1)", 1000, 100),
        ("fraction(c=0.1)", 5, 1),
        ("all", 77, 77),
    ],
)
def test_cutoff_rules(spec, n, k):
    assert cutoff.parse_cutoff(spec).k(n) == k


@pytest.mark.parametrize("spec", ["fixed(k=1e3)", "fixed(k=1000.0)"])
def test_a_fixed_k_written_as_a_float_is_refused(spec):
    # k counts ranks: an integer, as a ranker's bins or m (a float k was read as int(k), 2.5 as 2)
    with pytest.raises(TypeError, match=r"^cut-off rule 'fixed' parameter k must be an integer, got float 1000.0$"):
        cutoff.parse_cutoff(spec)


def test_cutoff_specs_print_back():
    for spec in ("fixed(k=10)", "power(a=0.5)", "fraction(c=0.1)", "all"):
        assert str(cutoff.parse_cutoff(spec)) == spec
        assert cutoff.parse_cutoff(str(cutoff.parse_cutoff(spec))) == cutoff.parse_cutoff(spec)


@pytest.mark.parametrize(
    "spec, error, match",
    [
        ("fixed(k=0)", ValueError, "cut-off rule 'fixed' needs k >= 1, got 0"),
        ("power(a=1)", ValueError, "0 < a < 1"),
        ("fraction(c=0)", ValueError, "0 < c <= 1"),
        ("top(k=3)", ValueError, "unknown cut-off rule"),
        ("fixed", ValueError, "needs parameter"),
    ],
)
def test_cutoff_spec_errors(spec, error, match):
    with pytest.raises(error, match=match):
        cutoff.parse_cutoff(spec)


RANKERS = ["bayes", "noisy(sigma=0.5)", "random"]
DISCOUNTS = ["log2", "zipf", "loglog", "power(beta=2)"]


@pytest.mark.parametrize("model", ["probit", "probit(lo=0.1, hi=0.6)", "probit(grades=3)"])
def test_replicate_ndcg_at_k_matches_the_metric_core(model):
    n, ks = 300, [1, 7, 30, 150, 300]
    got = cutoff.replicate_ndcg_at_k(model, RANKERS, DISCOUNTS, n, ks, seed=4, replicate=2)
    s = sample(model, RANKERS, n, seed=4, replicate=2)
    for i, r in enumerate(RANKERS):
        for j, d in enumerate(DISCOUNTS):
            for m, k in enumerate(ks):
                expected = nr.ndcg_from_scores(s.grades, s.scores[r], k, discount=d)
                assert got[i, j, m] == pytest.approx(expected, abs=TOL), (r, d, k)


def test_replicate_ndcg_at_k_by_hand_loop():
    # An independent loop over ranks on one small data set.
    n, ks = 40, [3, 10, 40]
    got = cutoff.replicate_ndcg_at_k("probit(grades=2)", ["noisy(sigma=1)"], ["log2"], n, ks, seed=9, replicate=0)
    s = sample("probit(grades=2)", ["noisy(sigma=1)"], n, seed=9, replicate=0)
    order = sorted(range(n), key=lambda i: -s.scores["noisy(sigma=1)"][i])
    ideal = sorted(s.grades, reverse=True)
    for m, k in enumerate(ks):
        dcg = sum(s.grades[order[r]] / math.log2(r + 2) for r in range(k))
        idcg = sum(ideal[r] / math.log2(r + 2) for r in range(k))
        assert got[0, 0, m] == pytest.approx(dcg / idcg, abs=TOL)


def test_full_cutoff_agrees_with_the_theory_sweep():
    # k = n must reproduce simulate.replicate_ndcg (the full-list nDCG on the same data set).
    for n in (50, 1000):
        ours = cutoff.replicate_ndcg_at_k("probit(lo=0.1, hi=0.6)", RANKERS, DISCOUNTS, n, [n], seed=7, replicate=3)
        theirs = replicate_ndcg("probit(lo=0.1, hi=0.6)", RANKERS, DISCOUNTS, n, seed=7, replicate=3)
        np.testing.assert_allclose(ours[:, :, 0], theirs, atol=1e-9)


def test_replicate_ndcg_at_k_rejects_bad_input():
    with pytest.raises(ValueError, match="rankers"):
        cutoff.replicate_ndcg_at_k("probit", ["coarse(bins=4)"], ["log2"], 100, [10], seed=0, replicate=0)
    with pytest.raises(ValueError, match="ks"):
        cutoff.replicate_ndcg_at_k("probit", ["bayes"], ["log2"], 100, [101], seed=0, replicate=0)


def _sweep(**kw):
    args = dict(
        ns=[60, 300],
        replicates=7,
        seed=3,
        rankers=["bayes", "noisy(sigma=1)", "random"],
        discounts=["log2", "zipf"],
        rules=["fixed(k=10)", "power(a=0.5)", "fraction(c=0.1)", "all"],
        pairs=[("bayes", "noisy(sigma=1)"), ("noisy(sigma=1)", "random")],
    )
    args.update(kw)
    return cutoff.CutoffSweep.build("probit(lo=0.1, hi=0.6)", **args)


def test_sweep_values_do_not_depend_on_workers_chunks_or_cache(tmp_path):
    s = _sweep()
    one = run_sweep(s)
    two = run_sweep(s, n_jobs=2, chunk_items=100, cache_dir=tmp_path)
    again = run_sweep(s, chunk_items=100, cache_dir=tmp_path)
    assert again.computed_chunks == 0 and again.reused_chunks == len(s.chunks(100))
    for n in s.ns:
        np.testing.assert_array_equal(one.values[n], two.values[n])
        np.testing.assert_array_equal(one.values[n], again.values[n])
        assert one.values[n].shape == (7, 3, 2, 4)
    # Replicate r is the same data set with fewer replicates in the sweep.
    fewer = run_sweep(_sweep(replicates=3))
    np.testing.assert_array_equal(fewer.values[300], one.values[300][:3])
    # Rules are part of the cache key: other rules are computed, not loaded.
    assert run_sweep(_sweep(rules=["all"]), cache_dir=tmp_path).reused_chunks == 0


def test_sweep_values_are_replicate_ndcg_at_k():
    s = _sweep()
    result = run_sweep(s)
    direct = cutoff.replicate_ndcg_at_k(s.model, s.rankers, s.discounts, 300, s.ks(300), seed=s.seed, replicate=5)
    np.testing.assert_array_equal(result.values[300][5], direct)
    np.testing.assert_array_equal(
        result.ndcg("noisy( sigma=1 )", "log2", 300, rule="power(a=0.50)"),
        direct_rule(s, 300, "noisy(sigma=1)", "log2", "power(a=0.5)"),
    )
    with pytest.raises(TypeError, match=r"needs the keyword argument\(s\) \['rule'\]"):
        result.ndcg("bayes", "log2", 300)


def direct_rule(s, n, ranker, discount, rule):
    k = cutoff.parse_cutoff(rule).k(n)
    return np.array(
        [
            cutoff.replicate_ndcg_at_k(s.model, [ranker], [discount], n, [k], seed=s.seed, replicate=r)[0, 0, 0]
            for r in range(s.replicates[s.ns.index(n)])
        ]
    )


def test_tables_count_wins_ties_and_use_wilson():
    s = _sweep(replicates=25)
    result = run_sweep(s)
    assert isinstance(result, SweepResult)
    rows = result.pair_table().to_dict("records")
    assert len(rows) == len(s.rules) * len(s.discounts) * len(s.pairs) * len(s.ns)
    assert [r["rule"] for r in rows[:: len(rows) // len(s.rules)]] == list(s.rules)  # by rule first
    for row in rows:
        gap = result.ndcg(row["better"], row["discount"], row["n"], rule=row["rule"]) - result.ndcg(
            row["worse"], row["discount"], row["n"], rule=row["rule"]
        )
        wins = int(np.sum(gap > 1e-12))
        ties = int(np.sum(np.abs(gap) <= 1e-12))
        assert row["p_better"] == wins / 25 and row["p_tie"] == ties / 25
        assert row["p_better"] + row["p_tie"] + row["p_worse"] == pytest.approx(1.0)
        assert (row["p_better_low"], row["p_better_high"]) == wilson_interval(wins, 25)
        assert row["k"] == cutoff.parse_cutoff(row["rule"]).k(row["n"])
    means = result.ranker_table()
    assert len(means) == len(s.rules) * len(s.discounts) * len(s.rankers) * len(s.ns)
    assert list(means.columns[:7]) == ["model", "rule", "discount", "decay", "ranker", "n", "k"]
    first = means.iloc[0]
    v = result.ndcg(first["ranker"], first["discount"], first["n"], rule=first["rule"])
    assert first["mean"] == pytest.approx(v.mean()) and first["ci_low"] < first["mean"] < first["ci_high"]


def test_sweep_build_validates():
    with pytest.raises(ValueError, match=r"pairs: ranker 'noisy\(sigma=2\)' .* not among rankers"):
        _sweep(pairs=[("bayes", "noisy(sigma=2)")])
    with pytest.raises(ValueError, match="rules must be a non-empty list of distinct rules"):
        _sweep(rules=["all", "all"])
    with pytest.raises(ValueError, match="ties items within bins"):
        _sweep(rankers=["bayes", "coarse(bins=4)"], pairs=[])


def test_ndcg_by_k_is_the_sweep_kernel():
    v = experiment.ndcg_by_k("probit", "noisy(sigma=0.5)", "log2", 200, [1, 20, 200], replicates=3, seed=8)
    for r in range(3):
        row = cutoff.replicate_ndcg_at_k(
            "probit", ["noisy(sigma=0.5)"], ["log2"], 200, [1, 20, 200], seed=8, replicate=r
        )
        np.testing.assert_array_equal(v[r], row[0, 0])


@pytest.mark.parametrize("c", [0.1, 0.3, 0.5, 0.8, 1.0])
def test_fraction_limit_closed_form_for_bayes(c):
    # probit, bayes: g(t) = 1 - t; ideal g* = 1 on [0, 1/2), 0 after.
    expected = (c - c * c / 2) / min(c, 0.5)
    assert experiment.fraction_limit("probit", "bayes", c) == pytest.approx(expected, abs=1e-8)


def test_fraction_limit_random_ranker_and_order():
    # random: g = p = 1/2 everywhere, so the limit is p c / min(c, p).
    assert experiment.fraction_limit("probit", "random", 0.1) == pytest.approx(0.5, abs=1e-8)
    limits = [
        experiment.fraction_limit("probit(lo=0.1, hi=0.6)", r, 0.1)
        for r in ("bayes", "noisy(sigma=0.5)", "noisy(sigma=1)")
    ]
    assert limits[0] > limits[1] > limits[2]


def test_fraction_limit_matches_a_large_simulation():
    # loglog is nearly flat over ranks 1..n/10, so the heuristic limit is close at moderate n.
    v = experiment.ndcg_by_k("probit", "noisy(sigma=1)", "loglog", 20_000, [2000], replicates=5, seed=1)
    assert v.mean() == pytest.approx(experiment.fraction_limit("probit", "noisy(sigma=1)", 0.1), abs=0.01)


def test_verdict_table_uses_family_wise_wilson_intervals():
    import pandas as pd
    from scipy import stats as st

    rows = []
    for discount, (p0, p1) in {"log2": (0.6, 1.0), "zipf": (0.55, 0.4), "loglog": (0.6, 0.8)}.items():
        for n, p in ((100, p0), (10_000, p1)):
            ci = st.binomtest(int(p * 100), 100).proportion_ci(0.95, method="wilson")
            rows.append(
                dict(
                    model="m",
                    rule="all",
                    discount=discount,
                    better="a",
                    worse="b",
                    n=n,
                    replicates=100,
                    p_better=p,
                    p_better_low=ci.low,
                    p_better_high=ci.high,
                    p_tie=0.0,
                )
            )
    table = experiment.verdict_table(pd.DataFrame(rows), "a", "b").set_index("discount")
    level = 1 - 0.05 / 3
    for discount, wins in (("log2", 100), ("zipf", 40), ("loglog", 80)):
        ci = st.binomtest(wins, 100).proportion_ci(level, method="wilson")
        assert (table.loc[discount, "family_low"], table.loc[discount, "family_high"]) == pytest.approx(
            (ci.low, ci.high)
        )
    assert table["verdict"].to_dict() == {"log2": "keeps", "zipf": "loses", "loglog": "undecided"}
    assert table["trend"].to_dict() == {"log2": "rising", "zipf": "flat", "loglog": "rising"}
    assert (table["family_size"] == 3).all() and table["family_confidence"].iloc[0] == pytest.approx(level)


# ------------------------------------------------------------ examples of studies.cutoff.experiment


def test_ndcg_by_k_example():
    v = ndcg_by_k("probit", "bayes", "log2", 100, [1, 10, 100], replicates=5, seed=0)
    assert v.shape == (5, 3)


def test_fraction_limit_example():
    # g(t) = 1 - t, g* = 1 on [0, 1/2)
    assert round(fraction_limit("probit", "bayes", 0.1), 6) == 0.95
    assert round(fraction_limit("probit", "bayes", 1.0), 6) == 1.0


# ------------------------------------------------------------ examples of simulation.cutoff


def test_CutoffRule_example():
    expected = [10, 100, 1000, 10000]
    assert [parse_cutoff(s).k(10_000) for s in ["fixed(k=10)", "power(a=0.5)", "fraction(c=0.1)", "all"]] == expected


def test_parse_cutoff_example():
    assert (str(parse_cutoff("power( a=0.50 )")), str(parse_cutoff("fixed(k=10)"))) == ("power(a=0.5)", "fixed(k=10)")
    with pytest.raises(ValueError, match="cut\\-off\\ rule\\ 'fraction'\\ needs\\ 0\\ <\\ c\\ <=\\ 1,\\ got\\ 2"):
        parse_cutoff("fraction(c=2)")


def test_replicate_ndcg_at_k_example():
    import ndcg_research as nr

    v = replicate_ndcg_at_k("probit", ["bayes"], ["log2"], 200, [5, 200], seed=1, replicate=0)
    s = sample("probit", ["bayes"], 200, seed=1, replicate=0)
    assert bool(np.isclose(v[0, 0, 0], nr.ndcg_from_scores(s.grades, s.scores["bayes"], 5)))


def test_CutoffSweep_example():
    s = CutoffSweep.build("probit", ns=[100, 1000], replicates=20, seed=1, rules=["fixed(k=10)", "all"])
    assert (s.rules, s.ks(1000)) == (("fixed(k=10)", "all"), [10, 1000])


def test_exponent_example():
    expected = [0.0, 0.25, 1.0, 1.0]
    assert [parse_cutoff(s).exponent for s in ["fixed(k=10)", "power(a=0.25)", "fraction(c=0.1)", "all"]] == expected
