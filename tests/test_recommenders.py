"""Tests of :mod:`ndcg_research.studies.movielens.recommenders` against loop-based, closed-form and library
references."""

from __future__ import annotations

import math
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics.pairwise import cosine_similarity as sk_cosine

from ndcg_research.studies.movielens import recommenders as rec
from ndcg_research.studies.movielens.recommenders import (
    canonical_ranker_spec,
    cosine_similarity,
    keep_top_neighbours,
    score_items,
    temporal_split,
)


def random_ratings(seed: int, n_users: int = 12, n_items: int = 30) -> pd.DataFrame:
    """Ratings with many equal timestamps (to exercise the tie rule) and users of varied activity."""
    rng = np.random.default_rng(seed)
    rows = []
    for u in range(n_users):
        count = int(rng.integers(2, n_items))
        items = rng.choice(n_items, size=count, replace=False) + 100  # ids need not start at 0
        for i in items:
            rows.append((u * 7 + 3, int(i), int(rng.integers(1, 6)), int(rng.integers(0, 5))))
    rng.shuffle(rows)
    return pd.DataFrame(rows, columns=["user", "item", "rating", "timestamp"])


def reference_split(ratings: pd.DataFrame, fraction: float) -> tuple[set, set]:
    """Loop over users: sort each history by (timestamp, item), the last max(1, floor(f n)) are test."""
    train, test = set(), set()
    for _, history in ratings.groupby("user"):
        rows = sorted(history.itertuples(index=False), key=lambda r: (r.timestamp, r.item))
        n_test = max(1, math.floor(fraction * len(rows) + 1e-9))
        for position, r in enumerate(rows):
            (test if position >= len(rows) - n_test else train).add((r.user, r.item, r.rating))
    return train, test


def as_set(split: rec.Split, matrix: np.ndarray) -> set:
    u, i = np.nonzero(matrix)
    return {(int(split.users[a]), int(split.items[b]), int(matrix[a, b])) for a, b in zip(u, i, strict=False)}


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("fraction", [0.2, 0.35, 0.5])
def test_temporal_split_matches_a_loop(seed, fraction):
    ratings = random_ratings(seed)
    split = rec.temporal_split(ratings, fraction)
    train, test = reference_split(ratings, fraction)
    assert as_set(split, split.train) == train
    assert as_set(split, split.test) == test
    assert not np.any((split.train > 0) & (split.test > 0))
    assert split.users.tolist() == sorted(ratings["user"].unique())
    assert split.items.tolist() == sorted(ratings["item"].unique())


def test_temporal_split_rounding_and_ties_by_hand():
    # User 1: 5 ratings, fraction 0.2 -> 1 test rating; two share the last timestamp: the larger item id is later.
    r = pd.DataFrame(
        {"user": [1] * 5, "item": [5, 9, 7, 3, 4], "rating": [1, 2, 3, 4, 5], "timestamp": [0, 4, 4, 1, 2]}
    )
    s = rec.temporal_split(r, 0.2)
    assert as_set(s, s.test) == {(1, 9, 2)}
    # 0.2 * 35 = 7 exactly, despite binary floating point (7.000000000000001 or 6.999...).
    r35 = pd.DataFrame({"user": [1] * 35, "item": range(35), "rating": [3] * 35, "timestamp": range(35)})
    assert np.count_nonzero(rec.temporal_split(r35, 0.2).test) == 7
    # At least one test rating, even when the fraction rounds down to zero.
    r2 = pd.DataFrame({"user": [1, 1], "item": [1, 2], "rating": [3, 4], "timestamp": [1, 2]})
    assert as_set(rec.temporal_split(r2, 0.2), rec.temporal_split(r2, 0.2).test) == {(1, 2, 4)}


@pytest.mark.parametrize(
    "change, match",
    [
        (dict(test_fraction=1.0), r"test_fraction must be in \(0, 1\)"),
        (dict(test_fraction=0), r"test_fraction must be in \(0, 1\)"),
        (dict(rating0=True), r"every rating must be > 0"),
        (dict(duplicate=True), r"more than once"),
        (dict(single=True), r"at least 2 ratings; user 9 has 1"),
        (dict(drop="timestamp"), r"missing \['timestamp'\]"),
    ],
)
def test_temporal_split_errors(change, match):
    r = pd.DataFrame({"user": [1, 1, 2, 2], "item": [1, 2, 1, 3], "rating": [3, 4, 5, 1], "timestamp": [1, 2, 3, 4]})
    if change.get("rating0"):
        r.loc[0, "rating"] = 0
    if change.get("duplicate"):
        r.loc[1, "item"] = 1
    if change.get("single"):
        r = pd.concat([r, pd.DataFrame({"user": [9], "item": [1], "rating": [2], "timestamp": [5]})])
    if "drop" in change:
        r = r.drop(columns=change["drop"])
    with pytest.raises(ValueError, match=match):
        rec.temporal_split(r, change.get("test_fraction", 0.2))


def interactions(seed: int, shape=(15, 12), density=0.35) -> np.ndarray:
    X = (np.random.default_rng(seed).random(shape) < density).astype(float)
    X[0] = 0.0  # a user without training items
    X[:, 1] = 0.0  # an item nobody rated
    return X


@pytest.mark.parametrize("seed", range(3))
def test_popularity_orders_items_by_training_count(seed):
    X = interactions(seed)
    scores = rec.score_items("popularity", X)
    counts = X.sum(axis=0)
    assert np.array_equal(scores, np.tile(counts, (X.shape[0], 1)))
    # Ranking by score puts every more popular item above every less popular one.
    order = np.argsort(-scores[3], kind="stable")
    assert np.all(np.diff(counts[order]) <= 0)


def loop_knn(X: np.ndarray, k: int) -> np.ndarray:
    """Item-kNN by loops: for each target item, its k most similar other items (ties: lower index)."""
    sim = sk_cosine(X.T)
    n_users, n_items = X.shape
    scores = np.zeros(X.shape)
    for i in range(n_items):
        others = sorted((j for j in range(n_items) if j != i), key=lambda j: (-sim[i, j], j))[:k]
        for u in range(n_users):
            scores[u, i] = sum(sim[i, j] for j in others if X[u, j] > 0)
    return scores


@pytest.mark.parametrize("k", [1, 3, 11, 50])
@pytest.mark.parametrize("seed", range(3))
def test_itemknn_matches_loops_over_sklearn_cosine(seed, k):
    X = interactions(seed)
    assert np.allclose(rec.score_items(f"itemknn(k={k})", X), loop_knn(X, k), atol=1e-12)


@pytest.mark.parametrize("k", [1, 4, 50])
def test_userknn_is_itemknn_of_the_transpose(k):
    X = interactions(7)
    # user-kNN of X: scores[u, i] = sum over u's k most similar users v of sim(u, v) x_vi
    sim = sk_cosine(X)
    expected = np.zeros(X.shape)
    for u in range(X.shape[0]):
        others = sorted((v for v in range(X.shape[0]) if v != u), key=lambda v: (-sim[u, v], v))[:k]
        for v in others:
            expected[u] += sim[u, v] * X[v]
    assert np.allclose(rec.score_items(f"userknn(k={k})", X), expected, atol=1e-12)


def test_itemknn_by_hand():
    # Items as columns: i0 = (1,1,0), i1 = (1,0,1), i2 = (0,0,1); cos(i0,i1) = 1/2, cos(i1,i2) = 1/sqrt2,
    # cos(i0,i2) = 0.
    X = np.array([[1.0, 1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 1.0]])
    h = 1 / math.sqrt(2)
    # k = 1: neighbour of i0 is i1 (1/2), of i1 is i2 (h), of i2 is i1 (h).
    assert np.allclose(rec.score_items("itemknn(k=1)", X), [[0.5, 0, h], [0, 0, 0], [0.5, h, h]])
    # k = 2: all other items.
    assert np.allclose(rec.score_items("itemknn(k=2)", X), [[0.5, 0.5, h], [0, 0.5, 0], [0.5, h, h]])


@pytest.mark.parametrize("l2", [0.5, 10.0, 300.0])
def test_ease_is_a_ridge_regression_per_item_with_zero_diagonal(l2):
    # EASE solves min ||X - XB||^2 + l2 ||B||^2 subject to diag(B) = 0, which splits into one ridge
    # regression per item j on the other items: b_j = (X_-j' X_-j + l2 I)^-1 X_-j' x_j.
    X = interactions(3, shape=(20, 8), density=0.5)
    n = X.shape[1]
    B = np.zeros((n, n))
    for j in range(n):
        others = [i for i in range(n) if i != j]
        A = X[:, others]
        B[others, j] = np.linalg.solve(A.T @ A + l2 * np.eye(n - 1), A.T @ X[:, j])
    assert np.allclose(rec.score_items(f"ease(l2={l2})", X), X @ B, atol=1e-10)


@pytest.mark.parametrize("factors", [1, 3, 6])
def test_puresvd_projects_on_the_top_right_singular_vectors(factors):
    X = interactions(5, shape=(25, 10), density=0.5)
    _, _, vt = np.linalg.svd(X)
    V = vt[:factors].T
    assert np.allclose(rec.score_items(f"puresvd(factors={factors})", X, seed=3), X @ V @ V.T, atol=1e-8)
    # The seed only moves ARPACK's start vector: the scores do not depend on it.
    assert np.allclose(
        rec.score_items(f"puresvd(factors={factors})", X, seed=4),
        rec.score_items(f"puresvd(factors={factors})", X, seed=3),
        atol=1e-8,
    )


def test_random_is_seeded_uniform():
    X = interactions(1, shape=(200, 300))
    a = rec.score_items("random", X, seed=11)
    assert np.array_equal(a, rec.score_items("random", X, seed=11))
    assert not np.array_equal(a, rec.score_items("random", X, seed=12))
    assert a.min() >= 0 and a.max() < 1 and abs(a.mean() - 0.5) < 0.01  # 60,000 draws: sd of the mean 0.0012
    assert np.array_equal(a, np.random.default_rng(np.random.SeedSequence(11)).random(X.shape))


def test_keep_top_neighbours_never_keeps_self_and_breaks_ties_by_index():
    sim = np.ones((4, 4))
    kept = rec.keep_top_neighbours(sim, 2)
    assert kept.tolist() == [[0, 1, 1, 0], [1, 0, 1, 0], [1, 1, 0, 0], [1, 1, 0, 0]]
    assert np.array_equal(rec.keep_top_neighbours(sim, 10), 1 - np.eye(4))


@pytest.mark.parametrize(
    "spec, error, match",
    [
        ("knn(k=3)", ValueError, "unknown ranker 'knn'"),
        ("itemknn", ValueError, "needs parameter"),
        ("itemknn(k=0)", ValueError, "k must be an integer >= 1"),
        ("itemknn(k=2.5)", TypeError, "k must be an integer"),
        ("ease(l2=0)", ValueError, "l2 must be > 0"),
        ("puresvd(factors=12)", ValueError, "factors must be below"),
        ("popularity(k=1)", ValueError, "needs parameter"),
    ],
)
def test_bad_ranker_specs(spec, error, match):
    with pytest.raises(error, match=match):
        rec.score_items(spec, interactions(0))


def test_interactions_must_be_binary():
    with pytest.raises(ValueError, match="0s and 1s"):
        rec.score_items("popularity", np.array([[0.0, 3.0]]))


def test_canonical_names():
    assert [rec.canonical_ranker_spec(s) for s in rec.DEFAULT_RANKERS] == list(rec.DEFAULT_RANKERS)
    assert rec.canonical_ranker_spec("puresvd( factors=50 )") == "puresvd(factors=50)"


# --- The same scores whatever BLAS kernels the CPU gets ----------------------------------------------

#: OpenBLAS kernel families that every x86-64 CPU with AVX2 can run: without FMA/AVX (Prescott) and
#: with them (Haswell). The numpy wheels' OpenBLAS picks one at run time by CPU; OPENBLAS_CORETYPE forces it.
CORETYPES = ("Prescott", "Haswell")

SCORES_UNDER_A_CORETYPE = """
import sys
import numpy as np
from ndcg_research.studies.movielens import recommenders as rec
rng = np.random.default_rng(np.random.SeedSequence(11))
# Binary training matrix with many mathematically equal scores: duplicated users and items, empty items.
# (Large enough that the kernels' blocked sums differ: small products take the same path.)
base = (rng.random((400, 150)) < 0.1).astype(float)
X = np.vstack([base, base[:100]])
X = np.hstack([X, X[:, :50], np.zeros((500, 5))])
specs = ["itemknn(k=20)", "userknn(k=20)", "puresvd(factors=10)", "ease(l2=5)"]
raw = X @ (X / np.sqrt(X.sum(axis=0) + 1)).T @ X  # a plain BLAS product, not rounded
np.savez(sys.argv[1], raw=raw, **{s.split("(")[0]: rec.score_items(s, X) for s in specs})
"""


def _scores_under(coretype: str, path) -> dict[str, np.ndarray]:
    import os
    import subprocess
    import sys

    env = dict(os.environ, OPENBLAS_CORETYPE=coretype)
    subprocess.run([sys.executable, "-c", SCORES_UNDER_A_CORETYPE, str(path)], env=env, check=True)
    with np.load(path) as data:
        return dict(data)


def _openblas_kernels_switchable() -> bool:
    """numpy on OpenBLAS (whose wheels pick kernels at run time) on an x86-64 CPU that runs both families."""
    import platform

    from threadpoolctl import threadpool_info

    openblas = any(lib.get("internal_api") == "openblas" for lib in threadpool_info())
    try:
        flags = Path("/proc/cpuinfo").read_text().split()
    except OSError:
        flags = []
    return openblas and platform.machine() in ("x86_64", "AMD64") and "avx2" in flags and "fma" in flags


@pytest.mark.skipif(
    not _openblas_kernels_switchable(), reason="needs numpy on OpenBLAS and an x86-64 CPU with AVX2 and FMA (Linux)"
)
def test_scores_are_bitwise_identical_under_different_blas_kernels(tmp_path):
    """Rankings must not depend on the machine: two BLAS kernel families, the same scores to the bit.

    The plain BLAS product computed alongside shows that the kernels really sum differently here
    (otherwise this test could not fail)."""
    a, b = (_scores_under(c, tmp_path / f"{c}.npz") for c in CORETYPES)
    assert not np.array_equal(a.pop("raw"), b.pop("raw")), "the two kernel families gave identical raw products"
    for name in a:
        assert np.array_equal(a[name], b[name]), f"{name}: scores differ between {CORETYPES}"


def test_quantized_scores_keep_the_order_of_distinct_scores():
    """The rounding merges only scores closer than the quantum: it never reverses an order."""
    rng = np.random.default_rng(3)
    X = (rng.random((50, 30)) < 0.2).astype(float)
    scores = rec.score_items("ease(l2=2)", X)
    # Against an unrounded recomputation (the closed form of EASE, B = I - P diag(1/diag P)):
    gram = X.T @ X + 2 * np.eye(30)
    P = np.linalg.inv(gram)
    B = np.eye(30) - P / np.diag(P)
    exact = X @ B
    step = rec.SCORE_QUANTUM * np.abs(exact).max()
    assert np.abs(scores - exact).max() <= step  # within one quantum
    far = exact[:, :, None] - exact[:, None, :] > 2 * step
    assert np.all((scores[:, :, None] - scores[:, None, :])[far] > 0)  # clearly ordered pairs keep their order


# ------------------------------------------------------------ examples of studies.movielens.recommenders


def test_temporal_split_example():
    import pandas as pd

    r = pd.DataFrame(
        {
            "user": [7, 7, 7, 7, 7, 9, 9],
            "item": [1, 2, 3, 4, 5, 1, 3],
            "rating": [5, 4, 3, 2, 1, 4, 2],
            "timestamp": [10, 50, 20, 40, 30, 2, 1],
        }
    )
    s = temporal_split(r, 0.4)
    assert (s.users.tolist(), s.items.tolist()) == ([7, 9], [1, 2, 3, 4, 5])
    # user 7's two latest (items 2, 4), user 9's latest (item 1)
    assert s.test.tolist() == [[0.0, 4.0, 0.0, 2.0, 0.0], [4.0, 0.0, 0.0, 0.0, 0.0]]


def test_canonical_ranker_spec_example():
    assert canonical_ranker_spec("ease( l2 = 500.0 )") == "ease(l2=500)"
    with pytest.raises(
        ValueError,
        match=re.escape(
            "ranker 'itemknn' needs parameter(s) k; valid rankers: popularity, "
            "random, itemknn(k), userknn(k), puresvd(factors), ease(l2)"
        ),
    ):
        canonical_ranker_spec("itemknn")


def test_score_items_example():
    X = np.array([[1.0, 1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 1.0]])
    assert score_items("popularity", X).tolist() == [[2.0, 2.0, 1.0], [2.0, 2.0, 1.0], [2.0, 2.0, 1.0]]
    # each item keeps its most similar item
    expected = [[0.5, 0.0, 0.707], [0.0, 0.0, 0.0], [0.5, 0.707, 0.707]]
    assert score_items("itemknn(k=1)", X).round(3).tolist() == expected


def test_cosine_similarity_example():
    expected = [[1.0, 0.707, 0.0], [0.707, 1.0, 0.0], [0.0, 0.0, 0.0]]
    assert cosine_similarity(np.array([[1.0, 1.0], [1.0, 0.0], [0.0, 0.0]])).round(3).tolist() == expected


def test_keep_top_neighbours_example():
    expected = [[0.0, 0.0, 0.5], [0.2, 0.0, 0.0], [0.5, 0.0, 0.0]]
    assert keep_top_neighbours(np.array([[1.0, 0.2, 0.5], [0.2, 1.0, 0.2], [0.5, 0.2, 1.0]]), 1).tolist() == expected
