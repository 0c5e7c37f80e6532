"""Tests of :mod:`ndcg_research.studies.realdata`: problems, per-query nDCG and the list-length samples."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pandas as pd
import pytest

import ndcg_research as nr
from ndcg_research.studies import realdata as rd
from ndcg_research.studies import recommenders as rec


def toy_problem(seed: int, n_queries: int = 9, width: int = 40, systems: int = 3) -> rd.RankingProblem:
    """Ragged lists, graded relevance (some queries without any relevant item) and tied scores."""
    rng = np.random.default_rng(seed)
    lengths = rng.integers(5, width + 1, n_queries)
    lengths[0] = width
    grades = np.where(rng.random((n_queries, width)) < 0.2, rng.integers(1, 6, (n_queries, width)), 0).astype(float)
    grades[1] = 0.0  # no relevant item
    grades[2, :3] = [3, 3, 2]  # only ratings <= 3: no relevant item under max(0, rating-3)
    grades[2, 3:] = 0
    valid = np.arange(width) < lengths[:, None]
    grades[~valid] = 0
    scores = {}
    for s in range(systems):
        x = np.round(rng.normal(size=(n_queries, width)) + grades * s * 0.3, 1)  # rounding makes ties
        scores[f"s{s}"] = np.where(valid, x, -np.inf)
    docs = np.where(valid, np.char.add("d", np.arange(width).astype(str))[None, :], "").astype(object)
    return rd.RankingProblem("toy", np.arange(n_queries).astype(str), docs, grades, lengths.astype(np.int64), scores)


GAINS = list(rd.GAINS.values())


@pytest.mark.parametrize("seed", range(3))
def test_ndcg_values_match_ndcg_from_scores(seed):
    p = toy_problem(seed)
    ks = [1, 5, 17, None]
    values = rd.ndcg_values(p, gains=GAINS, discounts=rd.DISCOUNTS, ks=ks)
    assert values.shape == (3, len(GAINS), len(rd.DISCOUNTS), len(ks), 9)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", nr.UndefinedNDCGWarning)
        for i, s in enumerate(p.systems):
            grades = [row[:n] for row, n in zip(p.grades, p.lengths)]
            scores = [row[:n] for row, n in zip(p.scores[s], p.lengths)]
            for g, gain in enumerate(GAINS):
                for d, discount in enumerate(rd.DISCOUNTS):
                    for m, k in enumerate(ks):
                        expected = nr.ndcg_from_scores(grades, scores, k, gain=gain, discount=discount, zero_ideal="nan")
                        assert np.allclose(values[i, g, d, m], expected, atol=1e-12, equal_nan=True), (s, gain, discount, k)
    assert np.isnan(values[:, :, :, :, 1]).all()  # no relevant item
    assert np.isnan(values[:, 1, :, :, 2]).all() and not np.isnan(values[:, 0, :, :, 2]).any()


def test_ndcg_values_by_hand_with_ties():
    # grades (2, 0, 1, 0), scores (0.5, 0.5, 0.9, 0.1): c first, then a and b tied (mean gain 1 each), then d.
    p = rd.RankingProblem("hand", np.array(["q"]), np.array([list("abcd")], dtype=object),
                          np.array([[2.0, 0, 1, 0]]), np.array([4]), {"s": np.array([[0.5, 0.5, 0.9, 0.1]])})
    v = rd.ndcg_values(p, gains=["linear"], discounts=["log2", "zipf"], ks=[None, 2])
    dcg = 1 + 1 / math.log2(3) + 1 / 2
    idcg = 2 + 1 / math.log2(3)
    assert v[0, 0, 0, 0, 0] == pytest.approx(dcg / idcg)
    assert v[0, 0, 0, 1, 0] == pytest.approx((1 + 1 / math.log2(3)) / idcg)
    assert v[0, 0, 1, 0, 0] == pytest.approx((1 + 1 / 2 + 1 / 3) / (2 + 1 / 2))


def test_movielens_problem_candidates_and_grades():
    ratings = pd.DataFrame({"user": [1, 1, 1, 1, 1, 2, 2, 2, 2, 2], "item": [1, 2, 3, 4, 5, 2, 3, 6, 7, 8],
                            "rating": [5, 4, 3, 2, 1, 2, 4, 5, 3, 1], "timestamp": [1, 2, 3, 4, 5, 5, 4, 3, 2, 1]})
    p = rd.movielens_problem(ratings, rankers=["popularity", "itemknn(k=2)"], test_fraction=0.4)
    # user 1 trains on items 1-3 and is tested on 4 (2) and 5 (1); user 2 trains on 8, 7, 6 and is tested on 3 (4), 2 (2).
    assert p.queries.tolist() == [1, 2]
    assert p.lengths.tolist() == [5, 5]
    assert [set(zip(d[:n], g[:n])) for d, g, n in zip(p.docs, p.grades, p.lengths)] == [
        {("4", 2.0), ("5", 1.0), ("6", 0.0), ("7", 0.0), ("8", 0.0)},
        {("1", 0.0), ("2", 2.0), ("3", 4.0), ("4", 0.0), ("5", 0.0)},
    ]
    # Scores are the rankers' scores of those items.
    split = rec.temporal_split(ratings, 0.4)
    full = rec.score_items("itemknn(k=2)", split.interactions)
    for q in range(2):
        cols = [int(np.flatnonzero(split.items == int(d))[0]) for d in p.docs[q, : p.lengths[q]]]
        assert np.array_equal(p.scores["itemknn(k=2)"][q, : p.lengths[q]], full[q, cols])
    assert p.notes["test_ratings"] == 4 and p.notes["train_ratings"] == 6


def test_trec_problem_pools_runs_and_qrels():
    qrels = pd.DataFrame({"query": ["1", "1", "1", "2", "2"], "doc": ["a", "b", "c", "a", "x"],
                          "relevance": [2, -1, 1, 0, 3]})
    run_a = pd.DataFrame({"query": ["1", "1", "2"], "doc": ["b", "d", "a"], "score": [3.0, 2.0, 1.0]})
    run_b = pd.DataFrame({"query": ["1", "3"], "doc": ["c", "z"], "score": [0.5, 9.0]})
    p = rd.trec_problem(qrels, {"A": run_a, "B": run_b})
    assert p.queries.tolist() == ["1", "2"]  # query 3 is not judged
    assert p.lengths.tolist() == [4, 2]
    assert p.docs[0, :4].tolist() == ["a", "b", "c", "d"] and p.docs[1, :2].tolist() == ["a", "x"]
    assert p.grades[0, :4].tolist() == [2, 0, 1, 0]  # -1 (pooled, not judged) counts as 0
    # Unretrieved documents rank below all retrieved ones, tied.
    assert p.scores["A"][0, :4].tolist() == [1.0, 3.0, 1.0, 2.0]
    assert p.scores["B"][0, :4].tolist() == [-0.5, -0.5, 0.5, -0.5]
    assert p.scores["B"][1, :2].tolist() == [-1.0, -1.0]  # B retrieved nothing for query 2
    assert np.isneginf(p.scores["A"][1, 2:]).all()


@pytest.mark.parametrize(
    "qrels, runs, match",
    [
        (pd.DataFrame({"query": ["1"], "doc": ["a"]}), {"A": pd.DataFrame({"query": ["1"], "doc": ["a"], "score": [1.0]})},
         r"qrels must be a DataFrame.*missing \['relevance'\]"),
        (pd.DataFrame({"query": ["1"], "doc": ["a"], "relevance": [1]}),
         {"A": pd.DataFrame({"query": ["1", "1"], "doc": ["a", "a"], "score": [1.0, 2.0]})}, "retrieves document 'a' twice"),
        (pd.DataFrame({"query": ["1"], "doc": ["a"], "relevance": [1]}),
         {"A": pd.DataFrame({"query": ["2"], "doc": ["a"], "score": [1.0]})}, "no query is both judged"),
        (pd.DataFrame({"query": ["1"], "doc": ["a"], "relevance": [1]}), {}, "at least one run"),
    ],
)
def test_trec_problem_errors(qrels, runs, match):
    with pytest.raises(ValueError, match=match):
        rd.trec_problem(qrels, runs)


def test_sample_lists_keep_the_share_and_are_nested():
    p = toy_problem(4, n_queries=30, width=200)
    ns = [1, 3, 10, 40, 120, None]
    lists = rd.sample_lists(p, ns, seed=9, replicate=2)
    relevant = (p.grades > 0) & p.valid
    r = relevant.sum(axis=1)
    total = p.lengths
    previous = None
    for n in ns:
        cols = lists[n]
        size = total if n is None else np.minimum(total, n)
        assert cols.shape == (30, int(size.max()))
        for q in range(30):
            chosen = cols[q, : size[q]]
            assert len(set(chosen)) == size[q] and np.all(chosen < total[q])  # distinct real candidates
            assert np.all(cols[q, size[q]:] >= total[q])  # the rest points at padding
            share = r[q] / total[q]
            want = min(r[q], max(1 if r[q] else 0, round(size[q] * share)))
            want = size[q] - min(total[q] - r[q], size[q] - want)
            assert relevant[q, chosen].sum() == want
            if previous is not None:
                assert set(previous[q]) <= set(chosen)
        previous = [cols[q, : size[q]] for q in range(30)]
    again = rd.sample_lists(p, [40], seed=9, replicate=2)[40]
    assert np.array_equal(again, lists[40])  # the same draw whatever else is asked for
    assert not np.array_equal(rd.sample_lists(p, [40], seed=9, replicate=3)[40], lists[40])


def test_sampled_lists_are_uniform_within_each_class():
    # One query: 4 relevant among 20; lists of 5 hold one relevant and four others, each drawn uniformly.
    grades = np.zeros((1, 20))
    grades[0, [2, 7, 11, 19]] = 1
    p = rd.RankingProblem("u", np.array(["q"]), np.array([[str(i) for i in range(20)]], dtype=object), grades,
                          np.array([20]), {"s": np.zeros((1, 20))})
    counts = np.zeros(20)
    draws = 4000
    for rep in range(draws):
        counts[rd.sample_lists(p, [5], seed=1, replicate=rep)[5][0]] += 1
    rel = counts[[2, 7, 11, 19]] / draws  # each relevant item with probability 1/4
    other = np.delete(counts, [2, 7, 11, 19]) / draws  # each other item with probability 4/16
    # 4000 draws: sd of a frequency <= sqrt(0.25 * 0.75 / 4000) = 0.0068; 5 sd bound.
    assert np.all(np.abs(rel - 0.25) < 0.035) and np.all(np.abs(other - 0.25) < 0.035)


def test_list_length_values_average_the_draws():
    p = toy_problem(2)
    ns = [5, None]
    got = rd.list_length_values(p, ns, gains=GAINS[:1], discounts=["log2", "zipf"], replicates=3, seed=5)
    draws = [rd.ndcg_values(p, gains=GAINS[:1], discounts=["log2", "zipf"],
                            columns=rd.sample_lists(p, [5], seed=5, replicate=r)[5])[:, :, :, 0] for r in range(3)]
    assert np.allclose(got[0], np.mean(draws, axis=0), equal_nan=True)
    assert np.allclose(got[1], rd.ndcg_values(p, gains=GAINS[:1], discounts=["log2", "zipf"])[:, :, :, 0],
                       equal_nan=True)


def test_ndcg_values_errors():
    p = toy_problem(0)
    with pytest.raises(ValueError, match="unknown systems"):
        rd.ndcg_values(p, gains=GAINS, discounts=["log2"], systems=["nope"])
    with pytest.raises(ValueError, match="one row per query"):
        rd.ndcg_values(p, gains=GAINS, discounts=["log2"], columns=np.zeros((2, 3), dtype=int))
    with pytest.raises(TypeError, match="built-in"):
        rd.ndcg_values(p, gains=[abs], discounts=["log2"])
