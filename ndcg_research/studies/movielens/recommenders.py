r"""Real top-N recommenders on a per-user temporal split of a ratings table (e.g. MovieLens-100k), each learnt from the
binary training matrix X: ``popularity``, ``random``, ``itemknn(k)`` and ``userknn(k)`` (cosine neighbourhoods; Sarwar
et al. 2001), ``puresvd(factors)`` (Cremonesi et al. 2010) and ``ease(l2)`` (Steck 2019); the caller sets the
hyper-parameters, not tuned on the test set.

**The same scores on every CPU.** OpenBLAS's kernels sum in CPU-dependent orders, so mathematically equal scores can
differ in their last bits and the tie rule would see different ties. So cosine similarities come from exact co-rating
counts, and the learnt rankers' scores are rounded to :data:`SCORE_QUANTUM` times the largest absolute score (kernel
noise on MovieLens-100k is below 2e-14 of it, the quantum about 1.5e-8): very likely, not certainly, equal again."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ..._validation import check_int
from ...core import format_call, parse_registered
from ...core._ranking import top_order

#: Relative grid of the learnt rankers' scores (see the module docstring): 2**-26 of the largest absolute score.
SCORE_QUANTUM = 2.0**-26

#: Ranker names and their (required) parameters.
RANKER_KINDS: dict[str, tuple[str, ...]] = {
    "popularity": (),
    "random": (),
    "itemknn": ("k",),
    "userknn": ("k",),
    "puresvd": ("factors",),
    "ease": ("l2",),
}
_VALID = "valid rankers: popularity, random, itemknn(k), userknn(k), puresvd(factors), ease(l2)"

#: The six rankers of the MovieLens study, with fixed (untuned) hyper-parameters.
DEFAULT_RANKERS: tuple[str, ...] = (
    "popularity",
    "itemknn(k=100)",
    "userknn(k=50)",
    "puresvd(factors=50)",
    "ease(l2=500)",
    "random",
)


@dataclass(frozen=True, eq=False)
class Split:
    """A per-user train/test split as dense user x item rating matrices (0 where none; they never overlap)."""

    users: np.ndarray
    items: np.ndarray
    train: np.ndarray
    test: np.ndarray
    test_fraction: float


def temporal_split(ratings: Any, test_fraction: float = 0.2) -> Split:
    """Split each user's ratings by time: the latest ``max(1, floor(test_fraction * n))`` of a user's n ratings are
    the test set (equal timestamps: the larger item id counts as later)."""
    if not 0 < test_fraction < 1:
        raise ValueError(f"test_fraction must be in (0, 1), got {test_fraction!r}")
    if missing := [c for c in ("user", "item", "rating", "timestamp") if c not in getattr(ratings, "columns", ())]:
        raise ValueError(f"ratings must be a DataFrame with columns user, item, rating, timestamp; missing {missing}")
    rating = ratings["rating"].to_numpy(dtype=np.float64)
    if rating.size == 0 or not np.all(rating > 0):
        raise ValueError("ratings must be non-empty and every rating must be > 0 (0 means 'not rated')")
    users, user_index = np.unique(ratings["user"].to_numpy(), return_inverse=True)
    items, item_index = np.unique(ratings["item"].to_numpy(), return_inverse=True)
    pair = user_index.astype(np.int64) * items.size + item_index
    if np.unique(pair).size != pair.size:
        raise ValueError("ratings hold a (user, item) pair more than once; one rating per pair is expected")
    counts = np.bincount(user_index, minlength=users.size)
    if counts.min() < 2:
        raise ValueError(f"every user needs at least 2 ratings; user {users[counts.argmin()]} has {counts.min()}")
    n_test = np.maximum(1, np.floor(test_fraction * counts + 1e-9).astype(np.int64))  # 1e-9: 0.2 * 35 is 7, not 6.99..
    order = np.lexsort((item_index, ratings["timestamp"].to_numpy(), user_index))  # by user, then time, then item id
    user = user_index[order]
    position = np.arange(order.size) - np.concatenate(([0], np.cumsum(counts)[:-1]))[user]  # in the user's history
    matrices = np.zeros((2, users.size, items.size))  # train, test
    in_test = (position >= (counts - n_test)[user]).astype(np.int64)  # the index of the matrix: 0 train, 1 test
    matrices[in_test, user, item_index[order]] = rating[order]
    return Split(users.astype(np.int64), items.astype(np.int64), *matrices, test_fraction)


def canonical_ranker_spec(spec: str) -> str:
    """Check a recommender spec and return its canonical spelling (its name: :func:`score_items` takes the spec)."""
    name, params = _ranker_params(spec)
    return format_call(name, {p: params[p] for p in RANKER_KINDS[name]})


def _ranker_params(spec: str) -> tuple[str, dict[str, Any]]:
    name, kwargs = parse_registered(spec, RANKER_KINDS, what="ranker", valid=_VALID)
    for count in ("k", "factors"):  # a notebook parameter: refused here rather than ranked with silently
        if count in kwargs:
            kwargs[count] = check_int(kwargs[count], f"ranker {spec!r}: {count}", low=1)
    if name == "ease" and kwargs["l2"] <= 0:
        raise ValueError(f"ranker {spec!r}: l2 must be > 0, got {kwargs['l2']!r}")
    return name, kwargs


def score_items(spec: str, interactions: np.ndarray, *, seed: int = 0) -> np.ndarray:
    """Scores (users x items, finite, higher is better) of every item under one ranker spec, learnt from the binary
    training matrix; ``seed``: of ``random``'s scores and the SVD's start vector."""
    name, params = _ranker_params(spec)
    X = np.asarray(interactions, dtype=np.float64)
    if X.ndim != 2 or not np.isin(X, (0.0, 1.0)).all():
        raise ValueError(f"interactions must be a 2-D matrix of 0s and 1s, got shape {X.shape}")
    if name == "popularity":
        return np.broadcast_to(X.sum(axis=0), X.shape).copy()
    if name == "random":
        return np.random.default_rng(np.random.SeedSequence(seed)).random(X.shape)
    learnt = {  # itemknn: S is (items, items), row i the neighbours of i; userknn: S is (users, users)
        "itemknn": lambda: X @ keep_top_neighbours(cosine_similarity(X.T), params["k"]).T,
        "userknn": lambda: keep_top_neighbours(cosine_similarity(X), params["k"]) @ X,
        "puresvd": lambda: _puresvd(X, params["factors"], seed),
        "ease": lambda: _ease(X, params["l2"]),
    }
    return _quantize(learnt[name]())


def _quantize(scores: np.ndarray) -> np.ndarray:
    """Round to multiples of SCORE_QUANTUM * max|scores| (a power of two: the rounding is exact)."""
    if not np.isfinite(scores).all():  # one NaN or inf would make every rounded score NaN
        raise ValueError("the ranker produced non-finite scores (NaN or inf); cannot rank with them")
    largest = np.abs(scores).max(initial=0.0)
    if largest == 0.0:
        return scores
    step = 2.0 ** np.floor(np.log2(largest * SCORE_QUANTUM))
    return np.round(scores / step) * step


def cosine_similarity(rows: np.ndarray) -> np.ndarray:
    """Cosine similarity between the rows of a matrix (rows of zeros: 0), divided element by element: exact integer
    dot products for 0/1 rows on every CPU."""
    rows = np.asarray(rows, dtype=np.float64)
    dots = rows @ rows.T
    norms = np.sqrt(np.diag(dots).copy())
    norms[norms == 0] = 1.0
    return dots / (norms[:, None] * norms[None, :])


def keep_top_neighbours(similarity: np.ndarray, k: int) -> np.ndarray:
    """Keep, in each row, the ``k`` largest similarities to *other* rows (equal values by index); zero the rest."""
    sim = np.array(similarity, dtype=np.float64)
    np.fill_diagonal(sim, -np.inf)  # never one's own neighbour
    keep = top_order(sim, min(k, sim.shape[1] - 1))
    kept = np.zeros_like(sim)
    np.put_along_axis(kept, keep, np.take_along_axis(sim, keep, 1), 1)
    return kept


def _puresvd(X: np.ndarray, factors: int, seed: int) -> np.ndarray:
    from scipy.sparse import csr_matrix
    from scipy.sparse.linalg import svds

    if factors >= min(X.shape):
        raise ValueError(f"puresvd: factors must be below min(n_users, n_items) = {min(X.shape)}, got {factors}")
    # ARPACK's start vector from the seed: the same factors on every run (up to signs, which cancel in V V^T).
    v0 = np.random.default_rng(np.random.SeedSequence(seed)).uniform(-1, 1, min(X.shape))
    _, _, vt = svds(csr_matrix(X), k=factors, v0=v0, solver="arpack")
    return (X @ vt.T) @ vt


def _ease(X: np.ndarray, l2: float) -> np.ndarray:
    gram = X.T @ X
    gram[np.diag_indices_from(gram)] += l2
    P = np.linalg.inv(gram)
    B = -P / np.diag(P)[None, :]  # B_ij = -P_ij / P_jj
    B[np.diag_indices_from(B)] = 0.0
    return X @ B
