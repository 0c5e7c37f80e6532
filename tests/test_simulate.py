"""Tests of ndcg_research.simulation.simulate: relevance rates, ranker quality order, the fast path vs the metric
core."""

from __future__ import annotations

import math
import re

import numpy as np
import pytest
from scipy import stats

import ndcg_research as nr
from ndcg_research.simulation import finite_n as fn
from ndcg_research.simulation import simulate as sim
from ndcg_research.simulation.crossing import crossing_table
from ndcg_research.simulation.model import parse_model, parse_ranker, stable_id
from ndcg_research.simulation.replicates import replicate_rng
from ndcg_research.simulation.simulate import replicate_ndcg, sample, stream_ndcg, stream_sample

MODELS = ["probit", "probit(lo=0.1, hi=0.6)", "probit(lo=0.2, hi=0.9, a=2, grades=3)"]
RANKERS = ["bayes", "noisy(sigma=0.5)", "noisy(sigma=1)", "coarse(bins=4)", "random"]
DISCOUNTS = [
    "power(beta=2)",
    "geometric(p=0.5)",
    "zipf",
    "power(beta=0.5)",
    "log2",
    "logpower(gamma=0.5)",
    "loglog",
    "none",
]


@pytest.mark.parametrize("spec", MODELS)
def test_mean_grade_matches_closed_form(spec):
    # E[y] = G * E[lo + (hi - lo) Phi(aX)] = G (lo + hi) / 2, since Phi(aX) is symmetric about 1/2.
    m = parse_model(spec)
    _, y = m.draw(np.random.default_rng(0), 400_000)
    expected = m.grades * (m.lo + m.hi) / 2
    sd = y.std() / math.sqrt(y.size)
    assert abs(y.mean() - expected) < 5 * sd


@pytest.mark.parametrize("spec", MODELS)
def test_relevance_rate_given_feature(spec):
    # Among items with x near x0, each relevance unit is present with probability lo + (hi - lo) Phi(a x0).
    m = parse_model(spec)
    x, y = m.draw(np.random.default_rng(1), 1_000_000)
    for x0 in (-1.0, 0.0, 1.5):
        near = np.abs(x - x0) < 0.02
        rate = y[near].mean() / m.grades
        expected = m.lo + (m.hi - m.lo) * stats.norm.cdf(m.a * x0)
        assert abs(rate - expected) < 5 * math.sqrt(expected * (1 - expected) / (near.sum() * m.grades)) + 0.01


def test_uncertain_top_stays_uncertain():
    # hi = 0.6: even the items with the largest features are relevant only 60% of the time.
    x, y = parse_model("probit(lo=0.1, hi=0.6)").draw(np.random.default_rng(2), 1_000_000)
    top = y[np.argsort(-x)[:2000]]
    assert 0.5 < top.mean() < 0.62


def test_binary_grades_are_zero_or_one_and_graded_in_range():
    _, y = parse_model("probit").draw(np.random.default_rng(3), 1000)
    assert set(np.unique(y)) <= {0.0, 1.0}
    _, y = parse_model("probit(grades=3)").draw(np.random.default_rng(3), 1000)
    assert set(np.unique(y)) <= {0.0, 1.0, 2.0, 3.0} and y.max() == 3


@pytest.mark.parametrize("spec", MODELS)
@pytest.mark.parametrize("gain", ["linear", "exp2"])
@pytest.mark.filterwarnings("ignore::ndcg_research.UndefinedNDCGWarning")  # n = 1 may have no relevant item
def test_fast_path_equals_metric_core(spec, gain):
    # The sort-free / one-argsort / counting path must give what nr.ndcg_from_scores gives on explicit scores.
    for n in (1, 7, 3000):
        fast = sim.replicate_ndcg(spec, RANKERS, DISCOUNTS, n, seed=11, replicate=2, gain=gain)
        s = sim.sample(spec, RANKERS, n, seed=11, replicate=2)
        for i, r in enumerate(RANKERS):
            for j, d in enumerate(DISCOUNTS):
                ref = nr.ndcg_from_scores(s.grades, s.scores[r], discount=d, gain=gain, ties="average")
                assert fast[i, j] == pytest.approx(ref, rel=1e-12, abs=1e-12), (r, d, n)


@pytest.mark.parametrize("spec", MODELS)
@pytest.mark.parametrize("n", [1, 5, 6, 3000])
@pytest.mark.filterwarnings("ignore::ndcg_research.UndefinedNDCGWarning")  # n = 1 may have no relevant item
def test_head_ranker_fast_path_equals_metric_core_and_its_definition(spec, n):
    # head(m=5): the 5 items of largest x first, in descending x, then the others in a random order.
    fast = sim.replicate_ndcg(spec, ["head(m=5)"], DISCOUNTS, n, seed=3, replicate=1)
    s = sim.sample(spec, ["head(m=5)"], n, seed=3, replicate=1)
    score = s.scores["head(m=5)"]
    order = np.argsort(-score)
    top = min(5, n)
    np.testing.assert_array_equal(order[:top], np.argsort(-s.x)[:top])  # the head is exact
    assert sorted(score) == list(range(1, n + 1))  # no ties
    for j, d in enumerate(DISCOUNTS):
        ref = nr.ndcg_from_scores(s.grades, score, discount=d)
        assert fast[0, j] == pytest.approx(ref, rel=1e-12, abs=1e-12), (d, n)


def test_head_ranker_tail_is_a_uniformly_random_order():
    # Below the head, the rank of a given item is uniform: the mean position of the item of 6th largest x
    # among the n - 5 tail positions is (n - 5 + 1) / 2 over many replicates.
    n, reps = 50, 4000
    positions = []
    for r in range(reps):
        s = sim.sample("probit", ["head(m=5)"], n, seed=8, replicate=r)
        rank = n - s.scores["head(m=5)"] + 1  # 1 = top
        positions.append(rank[np.argsort(-s.x)[5]] - 5)
    positions = np.array(positions)
    expected, sd = (n - 5 + 1) / 2, math.sqrt(((n - 5) ** 2 - 1) / 12)
    assert abs(positions.mean() - expected) < 4 * sd / math.sqrt(reps)
    assert positions.min() == 1 and positions.max() == n - 5


def test_coarse_ranker_has_ties_and_noisy_scores_have_the_right_noise():
    s = sim.sample("probit", ["coarse(bins=4)", "noisy(sigma=0.5)"], 100_000, seed=1)
    assert sorted(np.unique(s.scores["coarse(bins=4)"])) == [0.0, 1.0, 2.0, 3.0]
    counts = np.bincount(s.scores["coarse(bins=4)"].astype(int))
    assert np.all(np.abs(counts - 25_000) < 5 * math.sqrt(100_000 * 0.25 * 0.75))  # equal-probability bins
    noise = s.scores["noisy(sigma=0.5)"] - s.x
    assert abs(noise.std() - 0.5) < 0.01 and abs(np.corrcoef(noise, s.x)[0, 1]) < 0.02


def test_replicates_are_reproducible_and_independent_of_other_rankers():
    a = sim.replicate_ndcg("probit", ["bayes", "noisy(sigma=1)"], ["log2"], 500, seed=5, replicate=3)
    b = sim.replicate_ndcg("probit", ["noisy(sigma=1)"], ["log2"], 500, seed=5, replicate=3)
    c = sim.replicate_ndcg("probit", ["bayes", "noisy(sigma=1)"], ["log2"], 500, seed=5, replicate=4)
    assert a[1, 0] == b[0, 0]
    assert not np.array_equal(a, c)
    # the data set of replicate 3 comes from SeedSequence(5, spawn_key=(experiment, n, replicate, 0))
    model = parse_model("probit")
    x, y = model.draw(replicate_rng(5, model.experiment_id, 500, 3, 0), 500, descending=True)
    s = sim.sample(model, ["bayes"], 500, seed=5, replicate=3)
    assert np.array_equal(s.x, x) and np.array_equal(s.grades, y)


def test_random_ranker_matches_an_explicit_random_order():
    # The random ranker reuses the drawing order; an explicit shuffle of the same data sets must agree in law.
    n, reps = 200, 600
    shortcut, shuffled = [], []
    for r in range(reps):
        shortcut.append(
            sim.replicate_ndcg("probit(lo=0.1, hi=0.6)", ["random"], ["power(beta=0.5)"], n, seed=9, replicate=r)[0, 0]
        )
        y = sim.sample("probit(lo=0.1, hi=0.6)", [], n, seed=9, replicate=r).grades
        order = np.random.default_rng([99, r]).permutation(n)
        shuffled.append(nr.ndcg(y[order], discount="power(beta=0.5)"))
    shortcut, shuffled = np.array(shortcut), np.array(shuffled)
    se = math.sqrt(shortcut.var() / reps + shuffled.var() / reps)
    assert abs(shortcut.mean() - shuffled.mean()) < 4 * se


def test_ranker_quality_order():
    # By construction: bayes > noisy(0.5) > noisy(1) > random, and bayes > coarse, for every decaying discount.
    n, reps = 5000, 30
    values = np.array(
        [
            sim.replicate_ndcg("probit", RANKERS, ["log2", "power(beta=0.5)"], n, seed=1, replicate=r)
            for r in range(reps)
        ]
    )
    idx = {r: i for i, r in enumerate(RANKERS)}
    for better, worse in [
        ("bayes", "noisy(sigma=0.5)"),
        ("noisy(sigma=0.5)", "noisy(sigma=1)"),
        ("noisy(sigma=1)", "random"),
        ("bayes", "coarse(bins=4)"),
    ]:
        gap = values[:, idx[better]] - values[:, idx[worse]]
        t = gap.mean(0) / (gap.std(0, ddof=1) / math.sqrt(reps))
        assert np.all(t > 4), (better, worse, t)


def test_kappa_orders_rankers():
    m = parse_model("probit(a=2)")
    kappas = [parse_ranker(r).kappa(m) for r in ["bayes", "noisy(sigma=0.5)", "noisy(sigma=1)", "random"]]
    assert kappas[0] == 2 and kappas[-1] == 0 and kappas == sorted(kappas, reverse=True)
    assert kappas[2] == pytest.approx(2 / math.sqrt(1 + 1 * (1 + 4)))


@pytest.mark.parametrize(
    ("call", "error", "match"),
    [
        (lambda: parse_model("probit(lo=0.7, hi=0.6)"), ValueError, "0 <= lo < hi <= 1"),
        (lambda: parse_model("probit(grades=0)"), ValueError, "grades in 1..32"),
        (lambda: parse_model("probit(a=-1)"), ValueError, "a > 0"),
        (lambda: parse_model("probit(b=1)"), ValueError, "lo, hi, a, grades"),
        (lambda: parse_ranker("noisy(sigma=0)"), ValueError, "sigma > 0"),
        (
            lambda: parse_ranker("coarse(bins=1)"),
            ValueError,
            "ranker 'coarse' needs bins >= 2, got 'coarse\\(bins=1\\)'",
        ),
        (lambda: parse_ranker("oracle"), ValueError, "unknown ranker 'oracle'"),
        (lambda: parse_ranker("head(m=0)"), ValueError, "ranker 'head' needs m >= 1"),
        (
            lambda: sim.replicate_ndcg("probit", ["bayes"], [lambda r: 1 / r], 5, seed=1, replicate=0),
            TypeError,
            "built-in discount",
        ),
        (
            lambda: sim.replicate_ndcg("probit", ["bayes"], ["log2"], 5, seed=1, replicate=0, gain=abs),
            TypeError,
            "built-in gain",
        ),
    ],
)
def test_bad_input_is_rejected(call, error, match):
    with pytest.raises(error, match=match):
        call()


@pytest.mark.parametrize(
    ("spec", "match"),
    [
        ("coarse(bins=2.5)", "ranker 'coarse' parameter bins must be an integer, got float 2.5"),
        ("coarse(bins=4.0)", "ranker 'coarse' parameter bins must be an integer, got float 4.0"),
        ("head(m=2.0)", "ranker 'head' parameter m must be an integer, got float 2.0"),
        ("head(m=True)", "ranker 'head' parameter m must be an integer, got bool True"),
        ("noisy(sigma=True)", "ranker 'noisy' parameter sigma must be a number, got bool True"),
        ("noisy(sigma='1')", "ranker 'noisy' parameter sigma must be a number, got str '1'"),
    ],
)
def test_ranker_counts_are_integers_and_parameters_numbers(spec, match):
    # bins=2.5 made bin edges at Phi^-1(j / 2.5), m=True ranked as m=1, m=2.0 failed later slicing the data set.
    with pytest.raises(TypeError, match=re.escape(match)):
        parse_ranker(spec)
    assert parse_ranker("coarse(bins=4)").bins == 4 and parse_ranker("head(m=2)").m == 2


@pytest.mark.parametrize(
    ("spec", "match"),
    [
        ("probit(grades=2.5)", "model parameter grades must be an integer, got float 2.5"),
        ("probit(grades=2.0)", "model parameter grades must be an integer, got float 2.0"),
        ("probit(lo=True)", "model parameter lo must be a number, got bool True"),
    ],
)
def test_model_grades_are_an_integer(spec, match):
    with pytest.raises(TypeError, match=re.escape(match)):
        parse_model(spec)


@pytest.mark.parametrize(
    ("call", "error", "match"),
    [
        # n = 0 gave [[0.]] and NaN, prefix lengths -2 and 0 the first 3 items' nDCG and 0.
        (
            lambda: replicate_ndcg("probit", ["bayes"], ["log2"], 0, seed=1, replicate=0),
            ValueError,
            "n must be an integer >= 1, got 0",
        ),
        (lambda: sample("probit", ["bayes"], 2.5, seed=1), TypeError, "n must be an integer >= 1, got float 2.5"),
        (
            lambda: replicate_ndcg("probit", ["bayes"], ["log2"], 5, seed=1, replicate=-1),
            ValueError,
            "replicate must be an integer >= 0, got -1",
        ),
        (lambda: fn.finite_n_ndcg("probit", "bayes", "log2", 0), ValueError, "n must be an integer >= 1, got 0"),
        (
            lambda: fn.rare_miss_share("probit", "noisy(sigma=1)", "log2", 100, -1),
            ValueError,
            "replicates must be an integer >= 1, got -1",
        ),
        (
            lambda: stream_ndcg("probit", ["bayes"], ["log2"], [-2, 5], seed=1, replicate=0),
            ValueError,
            "prefix length in ns must be an integer >= 1, got -2",
        ),
        (
            lambda: stream_ndcg("probit", ["bayes"], ["log2"], [0, 5], seed=1, replicate=0),
            ValueError,
            "prefix length in ns must be an integer >= 1, got 0",
        ),
        (
            lambda: replicate_ndcg("probit", "bayes", ["log2"], 5, seed=1, replicate=0),
            TypeError,
            "rankers must be a list of specs, got str 'bayes'",
        ),
        (
            lambda: crossing_table("probit", "bayes", "head(m=3)", ["log2"], -5, 100),
            ValueError,
            "n_min must be an integer >= 1, got -5",
        ),
    ],
)
def test_lengths_and_counts_are_checked_by_name(call, error, match):
    with pytest.raises(error, match=re.escape(match)):
        call()


@pytest.mark.parametrize("spec", ["probit", "probit(lo=0.2, hi=0.9, a=2, grades=3)"])
@pytest.mark.filterwarnings("ignore::ndcg_research.UndefinedNDCGWarning")  # a short prefix may have no relevant item
def test_stream_prefixes_equal_the_metric_core_on_explicit_scores(spec):
    rankers = ["bayes", "noisy(sigma=1)", "coarse(bins=3)", "random", "head(m=4)"]
    ns = [1, 3, 10, 57, 400]
    v = sim.stream_ndcg(spec, rankers, DISCOUNTS, ns, seed=2, replicate=5, gain="exp2")
    s = sim.stream_sample(spec, rankers, 400, seed=2, replicate=5)
    for i, n in enumerate(ns):
        y, x = s.grades[:n], s.x[:n]
        for j, r in enumerate(rankers):
            score = s.scores[r][:n].copy()
            if r == "head(m=4)":  # the 4 items of largest x among the first n go first, in descending x
                top = np.argsort(-x)[:4]
                score[top] = 10.0 + x[top]
            for k, d in enumerate(DISCOUNTS):
                ref = nr.ndcg_from_scores(y, score, discount=d, gain="exp2", ties="average")
                assert v[i, j, k] == pytest.approx(ref, rel=1e-12, abs=1e-12), (n, r, d)


def test_streams_are_nested_reproducible_and_apart_from_the_data_sets():
    a = sim.stream_ndcg("probit", ["noisy(sigma=1)"], ["log2"], [50, 500], seed=4, replicate=1)
    b = sim.stream_ndcg("probit", ["bayes", "noisy(sigma=1)"], ["log2"], [50, 500], seed=4, replicate=1)
    assert a[:, 0].tolist() == b[:, 1].tolist()  # other rankers do not change a ranker's numbers
    s = sim.stream_sample("probit", [], 500, seed=4, replicate=1)
    d = sim.sample("probit", [], 500, seed=4, replicate=1)
    assert not np.isin(s.x, d.x).any()  # a stream shares no draw with the data set of the same key
    with pytest.raises(ValueError, match="increasing list of prefix lengths"):
        sim.stream_ndcg("probit", ["bayes"], ["log2"], [100, 50], seed=1, replicate=0)


# ------------------------------------------------------------ examples of simulation.model


def test_stable_id_example():
    assert (stable_id("bayes") == stable_id("bayes"), 0 <= stable_id("random") < 2**32) == (True, True)


def test_Model_example():
    m = parse_model("probit(lo=0.1, hi=0.6)")
    assert (str(m), m.mean_grade) == ("probit(lo=0.1, hi=0.6)", 0.35)
    assert m.eta(np.array([0.0])).tolist() == [0.35]


def test_parse_model_example():
    assert repr(parse_model("probit(grades=3)")) == "parse_model('probit(grades=3)')"
    with pytest.raises(
        ValueError, match="unknown\\ model\\ 'logit';\\ valid\\ models:\\ probit\\(lo=0,\\ hi=1,\\ a=1,\\ grades=1\\)"
    ):
        parse_model("logit")


def test_Ranker_example():
    r = parse_ranker("noisy(sigma=1)")
    assert (str(r), round(r.kappa(parse_model("probit")), 4)) == ("noisy(sigma=1)", 0.5774)


def test_parse_ranker_example():
    expected = ["bayes", "noisy(sigma=0.5)", "coarse(bins=4)", "head(m=10)", "gated(q=0.1)"]
    assert [
        str(parse_ranker(s)) for s in ["bayes", "noisy( sigma=0.50 )", "coarse(bins=4)", "head(m=10)", "gated(q=0.10)"]
    ] == expected
    with pytest.raises(
        ValueError,
        match="ranker\\ 'noisy'\\ needs\\ parameter\\(s\\)\\ sigma;\\ valid\\ rankers:\\ "
        "bayes,\\ noisy\\(sigma\\),\\ coarse\\(bins\\),\\ random,\\ head\\(m\\),\\ gated\\(q\\)",
    ):
        parse_ranker("noisy")
    with pytest.raises(ValueError, match="ranker\\ 'gated'\\ needs\\ 0\\ <\\ q\\ <\\ 1,\\ got\\ 'gated\\(q=1\\)'"):
        parse_ranker("gated(q=1)")


def test_gate_example():
    expected = (0.0, 1.2816)
    assert (round(parse_ranker("gated(q=0.5)").gate(), 12), round(parse_ranker("gated(q=0.1)").gate(), 4)) == expected


# ------------------------------------------------------------ examples of simulation.simulate


def test_a_replicate_draws_from_its_spawn_key():
    # replicate 7 at n = 1000 draws its data set from the spawn key (experiment, 1000, 7, 0)
    model = parse_model("probit")
    x, _ = model.draw(replicate_rng(2013, model.experiment_id, 1000, 7, 0), 1000, descending=True)
    assert np.array_equal(sample(model, ["bayes"], 1000, seed=2013, replicate=7).x, x)


def test_sample_example():
    import ndcg_research as nr

    s = sample("probit", ["bayes", "random"], 1000, seed=1)
    assert (s.grades.shape, sorted(s.scores)) == ((1000,), ["bayes", "random"])
    assert bool(nr.ndcg_from_scores(s.grades, s.scores["bayes"]) > nr.ndcg_from_scores(s.grades, s.scores["random"]))


def test_replicate_ndcg_example():
    import ndcg_research as nr

    v = replicate_ndcg("probit", ["bayes", "random"], ["log2", "none"], 500, seed=3, replicate=0)
    s = sample("probit", ["bayes", "random"], 500, seed=3, replicate=0)
    expected = (True, [1.0, 1.0])
    assert (bool(np.isclose(v[0, 0], nr.ndcg_from_scores(s.grades, s.scores["bayes"]))), v[:, 1].tolist()) == expected


def test_stream_sample_example():
    s = stream_sample("probit", ["bayes", "head(m=3)"], 20, seed=1, replicate=0)
    expected = ((20,), True, True)
    assert (s.grades.shape, bool((s.scores["bayes"] == s.x).all()), bool(0 <= s.scores["head(m=3)"].min())) == expected


def test_stream_ndcg_example():
    expected = (2, 2, 2)
    assert (
        stream_ndcg("probit", ["bayes", "random"], ["log2", "none"], [10, 100], seed=1, replicate=0).shape == expected
    )
