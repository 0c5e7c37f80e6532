"""The ranking by score under each tie rule, against a brute force over the orderings of tied documents.

Aimed at the strategies of ``ranking.ranked_gains`` for k below the row width: no tie across
rank k, a tie group straddling rank k (found by a partition), and heavy ties where the top
group of every row fills the first k ranks (found from the row maxima), alone and mixed with
rows where it does not.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

import ndcg_research as nr
from ndcg_research.core import _ranking as ranking


def brute_force(gains, scores, k):
    """Gains at ranks 1..k under each tie rule, by enumerating orderings of tied documents.

    "average": the mean over all orderings consistent with the scores, rank by rank.
    Rows must be short (the orderings are enumerated).
    """
    n = len(scores)
    orders = [
        p for p in itertools.permutations(range(n)) if all(scores[p[i]] >= scores[p[i + 1]] for i in range(n - 1))
    ]
    ranked = np.array([[gains[i] for i in p[:k]] for p in orders], dtype=float)
    dcg = ranked @ (1 / np.log2(np.arange(2, k + 2)))
    stable = sorted(range(n), key=lambda i: -scores[i])
    return {
        "average": ranked.mean(axis=0),
        "first": np.array([gains[i] for i in stable[:k]], dtype=float),
        "pessimistic": ranked[np.argmin(dcg)],
        "optimistic": ranked[np.argmax(dcg)],
    }


@pytest.mark.parametrize("case", ["heavy", "mixed", "straddling", "no tie at the cut"])
@pytest.mark.parametrize("ties", ranking.TIES)
def test_ranked_gains_equal_brute_force(case, ties):
    rng = np.random.default_rng(np.random.SeedSequence([len(case), len(ties)]))
    n_rows, width, k = 40, 7, 3
    gains = rng.integers(0, 4, size=(n_rows, width)).astype(float)
    if case == "heavy":  # every row's highest score is shared by at least k documents
        scores = rng.integers(0, 2, size=(n_rows, width)).astype(float)
        scores[:, :k] = 1.0
    elif case == "mixed":  # the first row looks heavy, some later rows are not
        scores = rng.integers(0, 3, size=(n_rows, width)).astype(float)
        scores[0, :k] = 9.0
    elif case == "straddling":
        scores = rng.integers(0, 3, size=(n_rows, width)).astype(float)
        scores[0] = np.arange(width)  # the first row has no ties: the partition strategy
    else:
        scores = np.array([rng.permutation(width) for _ in range(n_rows)], dtype=float)
    got = ranking.ranked_gains(gains, scores, k, ties)
    for row in range(n_rows):
        expected = brute_force(gains[row].tolist(), scores[row].tolist(), k)[ties]
        if ties in ("pessimistic", "optimistic"):  # the extreme DCG, compared as DCG (orders may tie)
            discount = 1 / np.log2(np.arange(2, k + 2))
            assert math.isclose(got[row] @ discount, expected @ discount, rel_tol=1e-12)
        else:
            np.testing.assert_allclose(got[row], expected, rtol=1e-12, atol=1e-15)


def test_heavy_and_partition_strategies_agree_with_the_full_sort():
    # The same rows ranked whole (k = width) and cut at k: identical heads, every strategy.
    rng = np.random.default_rng(np.random.SeedSequence(11))
    for levels in (2, 5, 50, 10_000):
        scores = rng.integers(0, levels, size=(300, 60)).astype(float)
        gains = rng.integers(0, 5, size=(300, 60)).astype(float)
        for k in (1, 5, 10, 59):
            for ties in ranking.TIES:
                head = ranking.ranked_gains(gains, scores, k, ties)
                full = ranking.ranked_gains(gains, scores, None, ties)[:, :k]
                np.testing.assert_allclose(head, full, rtol=1e-12, atol=1e-14)


def test_tied_group_of_equal_gains_keeps_its_gain_exactly():
    # Ten documents of gain 0.1 tie: their mean is 0.1 exactly (a plain sum / count is not).
    gains = np.full((2, 12), 0.1)
    gains[:, 10:] = 0.0
    scores = np.zeros((2, 12))
    scores[:, :10] = 1.0
    for k in (3, None):
        assert np.all(ranking.ranked_gains(gains, scores, k, "average")[:, :3] == 0.1)


def test_equal_rows_of_a_batch_have_the_bits_of_one_row_alone():
    # BLAS's matrix-vector product summed a row by its place in the batch: 7 equal rows of 9 gave two DCGs, and a
    # row in a batch differed from the same row alone (461 of 724 random single-query DCGs).
    rng = np.random.default_rng(0)
    for length in (1, 2, 7, 9, 33, 100, 1000):
        row = rng.random(length) * 3
        batch = nr.dcg(np.tile(row, (7, 1)))
        assert len(set(batch.tolist())) == 1 and batch[0] == nr.dcg(row), length
        assert nr.ndcg(np.tile(row[::-1], (4, 1)))[0] == nr.ndcg(row[::-1])


def test_a_list_in_ideal_order_scores_exactly_1_beside_a_query_that_knows_more():
    # Another row's ideal reaching past the ranked lists widened every row's ideal sum: rounded otherwise, a list
    # in ideal order got 0.9999999999999999 (163 of 2,490 such rows in random batches).
    ideal = [[2.37, 1.88, 0.64], [0.8, 0.11, 0.02, 3.0]]
    assert nr.ndcg([[2.37, 1.88, 0.64], [0.8, 0.11, 0.02]], ideal=ideal)[0] == 1.0
    rng = np.random.default_rng(1)
    for _ in range(200):
        n = int(rng.integers(2, 40))
        grades = -np.sort(-rng.random((5, n)) * 3, axis=1)  # each row in ideal order
        known = np.hstack([grades, np.zeros((5, 10))])
        known[-1, n:] = rng.random(10) * 3  # the last query knows 10 more relevant documents
        values = nr.ndcg(grades, ideal=known)
        assert np.all(values[:-1] == 1.0), values
