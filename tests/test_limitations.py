"""Tests of :mod:`ndcg_research.studies.limitations.experiment` against independent, loop-based references."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

import ndcg_research as nr
from ndcg_research.studies.limitations import experiment as lim
from ndcg_research.studies.limitations.experiment import (
    PoolingModel,
    append_nonrelevant,
    evaluate_runs,
    pool_judged,
    pooling_experiment,
    precision,
    random_graded_lists,
    simulate_pooling_collection,
    summarize_bias,
    truncation_table,
)

TOL = 1e-12


def _dcg(grades, k=None):
    grades = list(grades)[: (len(grades) if k is None else k)]
    return sum(g / math.log2(r + 1) for r, g in enumerate(grades, start=1))


def _ndcg_ref(ranked, known, k=None):
    ideal = _dcg(sorted(known, reverse=True), k)
    return 0.0 if ideal == 0 else _dcg(ranked, k) / ideal


# ---------------------------------------------------------------- limitation 1: appending


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.integers(0, 3), min_size=1, max_size=20),
    st.integers(0, 30),
    st.lists(st.integers(0, 3), max_size=5),
    st.integers(1, 40) | st.none(),
    st.sampled_from(["log2", "zipf", "loglog", "power(beta=2)"]),
)
def test_appending_nonrelevant_never_changes_ndcg(grades, n_extra, unretrieved, k, discount):
    longer = lim.append_nonrelevant(grades, n_extra)
    assert longer.tolist() == grades + [0] * n_extra
    known = grades + unretrieved
    for ideal in (None, known):
        ref_ideal = known if ideal is not None else grades
        if not any(ref_ideal):
            continue
        # Equal in exact arithmetic; the kernels may sum in a different order (last-bit drift).
        assert nr.ndcg(longer, k, ideal=ideal, discount=discount) == pytest.approx(
            nr.ndcg(grades, k, ideal=ideal, discount=discount), rel=1e-12, abs=1e-15
        )


def test_append_nonrelevant_pads_each_list():
    assert lim.append_nonrelevant([[1], [2]], 2).tolist() == [[1, 0, 0], [2, 0, 0]]


def test_precision_falls_when_appending():
    assert lim.precision([3, 0, 1, 0]) == 0.5
    assert lim.precision(lim.append_nonrelevant([3, 0, 1, 0], 4)) == 0.25


def test_random_graded_lists_frequencies():
    lists = lim.random_graded_lists(2000, 50, (0.5, 0.3, 0.2), seed=0)
    freq = np.bincount(lists.astype(int).ravel(), minlength=3) / lists.size
    np.testing.assert_allclose(freq, [0.5, 0.3, 0.2], atol=0.01)


# ---------------------------------------------------------------- limitation 2: truncation


def test_truncation_table_wikipedia_example():
    # 1,1,1 vs 1,1,1,1,1 (five relevant documents known): "equally good" at their own length.
    table = lim.truncation_table([[1, 1, 1, 1, 1]], 3, [[1, 1, 1, 1, 1]], 5)
    short, long = (float(v[0]) for v in table["all judgments, @own length"])
    assert short == long == 1.0
    short, long = (float(v[0]) for v in table["own ideal, whole list"])
    assert short == long == 1.0
    short, long = (float(v[0]) for v in table["own ideal, @k"])
    assert short == long == 1.0  # padded 1,1,1,0,0 against its own ideal 1,1,1,0,0
    short, long = (float(v[0]) for v in table["all judgments, @k"])
    assert short == pytest.approx(_dcg([1, 1, 1]) / _dcg([1] * 5), abs=TOL) and long == 1.0
    short, long = (float(v[0]) for v in table["all judgments, whole list"])
    assert short == pytest.approx(_dcg([1, 1, 1]) / _dcg([1] * 5), abs=TOL) and long == 1.0


def test_truncation_table_against_reference():
    rng = np.random.default_rng(3)
    long_lists = rng.integers(0, 4, size=(30, 8)).astype(float)
    long_lists[:, 0] = 1  # every list has a relevant document
    extra = rng.integers(0, 4, size=(30, 3)).astype(float)
    known = np.concatenate([long_lists, extra], axis=1)
    table = lim.truncation_table(long_lists, 4, known, 6)
    for i in range(30):
        lo, kn = list(long_lists[i]), list(known[i])
        sh = lo[:4]
        expected = {
            "own ideal, whole list": (_ndcg_ref(sh, sh), _ndcg_ref(lo, lo)),
            "own ideal, @k": (_ndcg_ref(sh, sh, 6), _ndcg_ref(lo, lo, 6)),
            "all judgments, @own length": (_ndcg_ref(sh, kn, 4), _ndcg_ref(lo, kn, 8)),
            "all judgments, whole list": (_ndcg_ref(sh, kn), _ndcg_ref(lo, kn)),
            "all judgments, @k": (_ndcg_ref(sh, kn, 6), _ndcg_ref(lo, kn, 6)),
        }
        for name, (s, whole) in expected.items():
            assert table[name][0][i] == pytest.approx(s, abs=1e-12), name
            assert table[name][1][i] == pytest.approx(whole, abs=1e-12), name


# ---------------------------------------------------------------- limitation 3: pooling


def _pool_ref(scores, depth):
    """Union of each system's top-depth documents, by an explicit sort per (system, query)."""
    n_sys, n_q, n_docs = scores.shape
    judged = np.zeros((n_q, n_docs), bool)
    for s in range(n_sys):
        for q in range(n_q):
            ranked = sorted(range(n_docs), key=lambda d: (-scores[s, q, d], d))
            for d in ranked[:depth]:
                judged[q, d] = True
    return judged


@pytest.mark.parametrize("depth", [1, 3, 10, 40])
def test_pool_judged_is_union_of_top_depth(depth):
    rng = np.random.default_rng(depth)
    scores = rng.normal(size=(3, 5, 30))
    got = lim.pool_judged(scores, depth)
    np.testing.assert_array_equal(got, _pool_ref(scores, depth))
    # Each system's own top-depth is inside the pool; the pool is no larger than systems * depth.
    assert np.all(got.sum(axis=1) <= min(30, 3 * depth))
    assert np.all(got.sum(axis=1) >= min(30, depth))


def test_pool_judged_with_ties_uses_lower_index_first():
    scores = np.array([[[1.0, 2.0, 2.0, 2.0, 0.0]]])
    assert lim.pool_judged(scores, 2).astype(int).tolist() == [[0, 1, 1, 0, 0]]
    np.testing.assert_array_equal(lim.pool_judged(scores, 2), _pool_ref(scores, 2))


def test_evaluate_runs_against_reference():
    rng = np.random.default_rng(7)
    n_q, n_docs, run_length = 6, 40, 15
    grades = rng.choice(4, size=(n_q, n_docs), p=[0.7, 0.15, 0.1, 0.05]).astype(float)
    grades[:, 0] = 3
    scores = rng.normal(size=(3, n_q, n_docs))
    judged = lim.pool_judged(scores[:2], 5)
    for k in (None, 5, 10):
        out = lim.evaluate_runs(grades, scores, judged, k=k, run_length=run_length)
        for s in range(3):
            for q in range(n_q):
                run = sorted(range(n_docs), key=lambda d: -scores[s, q, d])[:run_length]
                known_true = list(grades[q])
                known_judged = [grades[q, d] for d in range(n_docs) if judged[q, d]]
                ranked_true = [grades[q, d] for d in run]
                ranked_zero = [grades[q, d] if judged[q, d] else 0.0 for d in run]
                ranked_condensed = [grades[q, d] for d in run if judged[q, d]]
                assert out["true"][s, q] == pytest.approx(_ndcg_ref(ranked_true, known_true, k), abs=TOL)
                assert out["unjudged = 0"][s, q] == pytest.approx(_ndcg_ref(ranked_zero, known_judged, k), abs=TOL)
                assert out["condensed"][s, q] == pytest.approx(_ndcg_ref(ranked_condensed, known_judged, k), abs=TOL)


def test_evaluate_runs_with_everything_judged_is_exact():
    rng = np.random.default_rng(2)
    grades = rng.integers(0, 4, size=(5, 30)).astype(float)
    grades[:, 0] = 1
    scores = rng.normal(size=(2, 5, 30))
    out = lim.evaluate_runs(grades, scores, np.ones((5, 30), bool), k=10, run_length=20)
    np.testing.assert_allclose(out["unjudged = 0"], out["true"], atol=TOL)
    np.testing.assert_allclose(out["condensed"], out["true"], atol=TOL)


def test_evaluate_runs_refuses_arrays_of_other_collections():
    with pytest.raises(ValueError, match=r"judged must have the shape of grades, \(2, 3\), got \(2, 2\)"):
        lim.evaluate_runs(np.zeros((2, 3)), np.zeros((1, 2, 3)), np.ones((2, 2), bool))
    with pytest.raises(ValueError, match="scores"):
        lim.evaluate_runs(np.zeros((2, 3)), np.zeros((1, 2, 4)), np.ones((2, 3), bool))


def test_simulated_collection_rates_and_quality_order():
    model = lim.PoolingModel()
    c = lim.simulate_pooling_collection(model, 200, seed=0)
    freq = np.bincount(c.grades.astype(int).ravel(), minlength=4) / c.grades.size
    np.testing.assert_allclose(freq, model.grade_probs, atol=0.003)
    out = lim.evaluate_runs(c.grades, c.scores, np.ones(c.grades.shape, bool), k=10)
    means = out["true"].mean(axis=1)
    # Pooled systems get worse with their noise; the novel system (both signals) is best.
    assert np.all(np.diff(means[: len(model.pooled_noise)]) < 0)
    assert means[-1] > means[0]
    assert c.names == model.system_names


def test_pooling_experiment_seeding_is_per_replicate_and_worker_independent():
    model = lim.PoolingModel(n_docs=200)
    one = lim.pooling_experiment(model, [2, 10], n_queries=5, replicates=4, seed=9)
    two = lim.pooling_experiment(model, [2, 10], n_queries=5, replicates=4, seed=9, n_jobs=2)
    np.testing.assert_array_equal(one["means"], two["means"])
    # Replicate r depends only on (seed, experiment, r): the first 2 of 4 equal a 2-replicate run.
    short = lim.pooling_experiment(model, [2, 10], n_queries=5, replicates=2, seed=9)
    np.testing.assert_array_equal(one["means"][:2], short["means"])
    other = lim.pooling_experiment(model, [2, 10], n_queries=5, replicates=2, seed=10)
    assert not np.array_equal(other["means"], short["means"])
    # Deeper pools judge more.
    assert np.all(one["judged_fraction"][:, 1] > one["judged_fraction"][:, 0])


def test_summarize_bias_matches_t_interval():
    rng = np.random.default_rng(4)
    means = rng.random((12, 2, 3, 4))
    out = lim.summarize_bias(means)
    diff = means[:, 1, 1, 2] - means[:, 1, 0, 2]
    low, high = stats.t.interval(0.95, 11, loc=diff.mean(), scale=stats.sem(diff))
    assert out["bias"][1, 0, 2] == pytest.approx(diff.mean(), abs=TOL)
    assert out["low"][1, 0, 2] == pytest.approx(low, abs=1e-12)
    assert out["high"][1, 0, 2] == pytest.approx(high, abs=1e-12)
    np.testing.assert_allclose(out["true"], means[:, :, 0, :].mean(axis=0))
    # The methods' axis is the second to last: in another place the biases came out of the wrong shape, silently.
    with pytest.raises(
        ValueError, match=r"means must have shape \(replicates, ..., 3, n_systems\), got \(12, 3, 2, 4\)"
    ):
        lim.summarize_bias(means.transpose(0, 2, 1, 3))


# ------------------------------------------------------------ examples of studies.limitations.experiment


def test_random_graded_lists_example():
    lists = random_graded_lists(2, 4, (0.5, 0.5), seed=0)
    assert (lists.shape, set(np.unique(lists)) <= {0.0, 1.0}) == ((2, 4), True)


def test_append_nonrelevant_example():
    assert append_nonrelevant([3, 2], 2).tolist() == [3.0, 2.0, 0.0, 0.0]


def test_precision_example():
    assert precision([3, 0, 1, 0]) == 0.5
    assert precision([[1, 1], [1, 0]]).tolist() == [1.0, 0.5]


def test_truncation_table_example():
    table = truncation_table([[1, 1, 1, 1, 1]], 3, [[1, 1, 1, 1, 1]], 5)
    expected = (1.0, 1.0)
    short, whole = table["all judgments, @own length"]
    assert (round(float(short[0]), 3), round(float(whole[0]), 3)) == expected


def test_simulate_pooling_collection_example():
    c = simulate_pooling_collection(PoolingModel(n_docs=50), 3, seed=0)
    assert (c.grades.shape, c.scores.shape) == ((3, 50), (5, 3, 50))


def test_pool_judged_example():
    scores = [[[0.9, 0.1, 0.5, 0.0]], [[0.0, 0.2, 0.1, 0.8]]]
    assert pool_judged(scores, 1).astype(int).tolist() == [[1, 0, 0, 1]]


def test_evaluate_runs_example():
    grades = [[3, 0, 2, 1]]
    scores = [[[0.9, 0.8, 0.7, 0.6]]]
    judged = [[True, True, False, True]]
    out = evaluate_runs(grades, scores, judged, k=None, run_length=4)
    assert [round(float(out[m][0, 0]), 3) for m in ("true", "unjudged = 0", "condensed")] == [0.93, 0.945, 0.964]


def test_pooling_experiment_example():
    out = pooling_experiment(PoolingModel(n_docs=200), [5, 20], n_queries=5, replicates=2)
    assert out["means"].shape == (2, 2, 3, 5)


def test_summarize_bias_example():
    m = np.zeros((4, 3, 2))
    m[:, 0] = 0.5
    m[:, 1] = [0.4, 0.3]
    m[:, 2] = 0.5
    out = summarize_bias(m)
    assert out["bias"].round(3).tolist() == [[-0.1, -0.2], [0.0, 0.0]]
