"""Cross-check ``ndcg_from_scores`` / ``dcg_from_scores`` against scikit-learn, query by query.

scikit-learn's conventions, which our defaults reproduce:

* the ideal comes from the row itself (our ``ideal=None``);
* linear gain, discount ``1 / log_b(r + 1)`` (``log_base=2`` by default; our ``"log2"``,
  or ``"log(base=b)"`` for another base);
* tied scores are averaged over the tied group (McSherry & Najork 2008; our
  default ``ties="average"``);
* a query whose ideal DCG is 0 gets nDCG 0 (our default ``zero_ideal="zero"``,
  which also emits :class:`ndcg_research.UndefinedNDCGWarning`);
* ``k=None`` uses the whole row, ``k > n`` likewise.

scikit-learn is called through its public API only, one query at a time with
2-D ``[row]`` input, so that every query is checked on its own (its
``ndcg_score`` on a batch only returns the mean). scikit-learn refuses rows with a
single document, so rows here have at least two.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from sklearn.metrics import dcg_score, ndcg_score

import ndcg_research as nr

TOL = 1e-9
KS = [None, 1, 3, 10, "n+5"]  # "n+5": a cut-off past the end of every row


def _k(k, n):
    return n + 5 if k == "n+5" else k


def _close(ours, ref):
    """Per-query agreement to 1e-9, relative for values above 1 (DCG can be large)."""
    ours, ref = np.asarray(ours, dtype=float), np.asarray(ref, dtype=float)
    assert ours.shape == ref.shape
    bad = np.abs(ours - ref) > TOL * np.maximum(1.0, np.abs(ref))
    assert not bad.any(), f"queries {np.flatnonzero(bad)}: ours {ours[bad]} vs scikit-learn {ref[bad]}"


def _labels(rng, n_queries, n_docs, kind):
    if kind == "int":
        labels = rng.integers(0, 5, size=(n_queries, n_docs))
    elif kind == "binary":
        labels = (rng.random((n_queries, n_docs)) < 0.2).astype(np.int64)
    else:  # graded float labels
        labels = np.round(rng.random((n_queries, n_docs)) * 3, 2) * (rng.random((n_queries, n_docs)) < 0.6)
    # Some queries without any relevant document (their ideal DCG is 0).
    labels[rng.random(n_queries) < 0.15] = 0
    return labels


def _scores(rng, n_queries, n_docs, kind):
    raw = rng.normal(size=(n_queries, n_docs))
    if kind == "continuous":
        return raw
    if kind == "rounded":  # ties on purpose
        return np.round(raw, 1)
    if kind == "coarse":  # heavy ties: a handful of distinct values per row
        return rng.integers(0, 3, size=(n_queries, n_docs)).astype(float)
    scores = np.round(raw, 1)  # "mixed": some constant rows among rounded ones
    scores[rng.random(n_queries) < 0.3] = 0.25
    return scores


SHAPES = [(1, 2), (6, 2), (8, 3), (12, 5), (20, 10), (10, 37), (4, 120)]
LABEL_KINDS = ["int", "binary", "float"]
SCORE_KINDS = ["continuous", "rounded", "coarse", "mixed"]


def _cases():
    seeds = np.random.SeedSequence(20260525).spawn(len(SHAPES) * len(LABEL_KINDS) * len(SCORE_KINDS))
    i = 0
    for shape in SHAPES:
        for label_kind in LABEL_KINDS:
            for score_kind in SCORE_KINDS:
                yield pytest.param(
                    shape, label_kind, score_kind, seeds[i], id=f"{shape[0]}x{shape[1]}-{label_kind}-{score_kind}"
                )
                i += 1


def _dcg(*args, **kwargs):
    # DCG is defined for every query: dcg_from_scores must not warn about nDCG.
    with warnings.catch_warnings():
        warnings.simplefilter("error", nr.UndefinedNDCGWarning)
        return nr.dcg_from_scores(*args, **kwargs)


def _ours(function, *args, **kwargs):
    """Call one of our functions, requiring the warning exactly when a query has ideal DCG 0."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        value = function(*args, **kwargs)
    return value, [w for w in caught if issubclass(w.category, nr.UndefinedNDCGWarning)]


@pytest.mark.parametrize("shape, label_kind, score_kind, seed", list(_cases()))
@pytest.mark.parametrize("k", KS, ids=str)
def test_ndcg_and_dcg_match_sklearn_tie_averaged(shape, label_kind, score_kind, seed, k):
    rng = np.random.default_rng(seed)
    labels = _labels(rng, *shape, label_kind)
    scores = _scores(rng, *shape, score_kind)
    k = _k(k, shape[1])

    ours_ndcg, warned = _ours(nr.ndcg_from_scores, labels, scores, k)
    ref_ndcg = [ndcg_score([y], [s], k=k) for y, s in zip(labels, scores, strict=True)]
    _close(ours_ndcg, ref_ndcg)
    zero_ideal = ~labels.any(axis=1)
    assert bool(warned) == bool(zero_ideal.any())
    assert np.all(ours_ndcg[zero_ideal] == 0.0)  # scikit-learn's convention, our default

    ours_dcg = _dcg(labels, scores, k)
    _close(ours_dcg, [dcg_score([y], [s], k=k) for y, s in zip(labels, scores, strict=True)])

    # scikit-learn's batch value is the plain mean over queries.
    assert math.isclose(nr.mean_over_queries(ours_ndcg), ndcg_score(labels, scores, k=k), rel_tol=TOL, abs_tol=TOL)


@pytest.mark.parametrize("shape, label_kind, score_kind, seed", [c for c in _cases() if c.values[2] == "continuous"])
@pytest.mark.parametrize("k", KS, ids=str)
def test_ignore_ties_matches_every_tie_rule_on_tie_free_scores(shape, label_kind, score_kind, seed, k):
    # scikit-learn's ignore_ties=True ranks by np.argsort(y_score)[:, ::-1], which is not a
    # stable order: on tied scores it is arbitrary, so it is compared only on tie-free rows
    # (checked below). Without ties every tie rule of ours must give the same value.
    rng = np.random.default_rng(seed)
    labels = _labels(rng, *shape, label_kind)
    scores = _scores(rng, *shape, score_kind)
    assert all(np.unique(row).size == row.size for row in scores), "scores must be tie-free here"
    k = _k(k, shape[1])
    ref_ndcg = [ndcg_score([y], [s], k=k, ignore_ties=True) for y, s in zip(labels, scores, strict=True)]
    ref_dcg = [dcg_score([y], [s], k=k, ignore_ties=True) for y, s in zip(labels, scores, strict=True)]
    for ties in nr.TIES:
        ours_ndcg, _ = _ours(nr.ndcg_from_scores, labels, scores, k, ties=ties)
        _close(ours_ndcg, ref_ndcg)
        _close(_dcg(labels, scores, k, ties=ties), ref_dcg)


@pytest.mark.parametrize("base", [2, 10, math.e, 1.5, 3.7])
@pytest.mark.parametrize("k", KS, ids=str)
def test_log_base_matches_sklearn_dcg(base, k):
    rng = np.random.default_rng(np.random.SeedSequence([20260525, int(base * 1000)]))
    n = 15
    labels = _labels(rng, 25, n, "int")
    scores = _scores(rng, 25, n, "rounded")
    k = _k(k, n)
    ours = _dcg(labels, scores, k, discount=f"log(base={base!r})")
    _close(ours, [dcg_score([y], [s], k=k, log_base=base) for y, s in zip(labels, scores, strict=True)])
    # The base rescales DCG by a constant, so nDCG does not depend on it.
    ours_ndcg, _ = _ours(nr.ndcg_from_scores, labels, scores, k, discount=f"log(base={base!r})")
    _close(ours_ndcg, [ndcg_score([y], [s], k=k) for y, s in zip(labels, scores, strict=True)])


@pytest.mark.parametrize("k", KS, ids=str)
def test_ragged_batches_match_sklearn_row_by_row(k):
    # Our ragged input (one list per query, different lengths) against scikit-learn on each row.
    rng = np.random.default_rng(np.random.SeedSequence(7001))
    lengths = rng.integers(2, 40, size=30)
    labels = [rng.integers(0, 4, size=n) for n in lengths]
    scores = [np.round(rng.normal(size=n), 1) for n in lengths]
    labels[3][:] = 0  # one query without relevant documents
    kk = _k(k, int(lengths.max()))
    ours, warned = _ours(nr.ndcg_from_scores, labels, scores, kk)
    assert warned
    _close(ours, [ndcg_score([y], [s], k=kk) for y, s in zip(labels, scores, strict=True)])
    _close(_dcg(labels, scores, kk), [dcg_score([y], [s], k=kk) for y, s in zip(labels, scores, strict=True)])
    # A single 1-D query gives a float equal to scikit-learn's value for that row.
    single, _ = _ours(nr.ndcg_from_scores, labels[0], scores[0], kk)
    assert isinstance(single, float)
    _close([single], [ndcg_score([labels[0]], [scores[0]], k=kk)])
