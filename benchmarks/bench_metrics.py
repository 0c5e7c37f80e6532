"""Speed of the metric core, measured side by side with other tools in one run.

    python benchmarks/bench_metrics.py           # the sizes of issue 2
    python benchmarks/bench_metrics.py --quick   # smaller sizes, fewer repeats (a smoke run)

(a) nDCG@10 over 2,000 queries x 1,000 documents, continuous scores, graded labels 0..4:
    ours (``ndcg_from_scores``, default tie averaging) against scikit-learn's ``ndcg_score``
    (default tie handling), trec_eval through pytrec_eval (``ndcg_cut.10``: the evaluate
    call; building its dict input and the evaluator reported apart) and a bare numpy
    baseline written here (argpartition top 10, sort them, gather labels, dot with the
    discount; ideal by partition and sort of the labels).
    Targets: >= 10x faster than scikit-learn and than pytrec_eval, within 2x of numpy.
    Note: for batches of 2^18 entries or more ours computes the ideal DCG on a second thread,
    overlapping the ranking (numpy releases the GIL in partitions); the baselines use one.
    "ours on one thread" is the same call with ``threads=1``.
(t) heavily tied scores: nDCG@10 over 2,000 x 1,000 with 5 score levels (every query has a
    group of tied scores straddling rank 10), tie averaging: ours against scikit-learn's
    ``ndcg_score`` (its default, tie averaging too). Target: >= 10x faster than scikit-learn.
    The other tie rules of ours are timed for information.
(b) one ranked list of 10^7 grades: ``dcg`` against a plain dot product with a
    precomputed discount vector (target within 2x, warm; the first, cold call also
    builds and caches the discount vector), and ``ndcg`` / ``idcg`` for information.
    ``dcg`` checks its input before the dot product (one pass of ``min`` over the grades:
    NaN, negatives), timed alone, and the dot followed by that pass ("dot + min": what a
    checked DCG reads at least, the floor of ``dcg``), for information; these take
    milliseconds, so they get five times the rounds of the rest.

Every time is the best of N rounds, the tools timed round-robin (so that all see the same
machine load). Every competitor's values are checked against
ours before timing, so that the table compares like with like. The BLAS threading
environment (OPENBLAS_*) is left as it is: all sides run in this one process.
The ratios are written to ``benchmarks/results/bench_metrics.json`` (``record.py``) with the
machine and its load, for the documentation's Speed page.
"""

from __future__ import annotations

import argparse
import gc
import math
import os
import platform
import sys
import time
import warnings

import numpy as np
from record import Recorder

import ndcg_research as nr


def best_of(function, repeats):
    """Smallest wall time of ``repeats`` calls, and the last result."""
    best, result = math.inf, None
    for _ in range(repeats):
        start = time.perf_counter()
        result = function()
        best = min(best, time.perf_counter() - start)
    return best, result


def side_by_side(functions, rounds):
    """Best time of each function, measured round-robin so that all see the same machine load.

    ``functions`` maps a name to ``(callable, every)``: the callable runs in every
    ``every``-th round only (slow tools need fewer repeats).
    """
    best = {name: math.inf for name in functions}
    for round_ in range(rounds):
        gc.collect()
        for name, (function, every) in functions.items():
            if round_ % every == 0:
                start = time.perf_counter()
                function()
                best[name] = min(best[name], time.perf_counter() - start)
    return best


def numpy_baseline_ndcg_at_k(labels, scores, k, *, negate=False):
    """Bare numpy nDCG@k for tie-free scores, ideal from the row (the benchmark's yardstick).

    Top k by argpartition, sorted, labels gathered and dotted with the discount; the
    ideal by partition and sort of the labels. ``negate=True`` selects the top k as
    ``argpartition(-scores, k - 1)`` (a negated copy first), the other form is
    ``argpartition(scores, n - k)``, which this machine runs faster.
    """
    n = scores.shape[1]
    discount = 1.0 / np.log2(np.arange(2, k + 2))
    if negate:
        top = np.argpartition(-scores, k - 1, axis=1)[:, :k]
    else:
        top = np.argpartition(scores, n - k, axis=1)[:, n - k :]
    order = np.argsort(-np.take_along_axis(scores, top, axis=1), axis=1)
    top = np.take_along_axis(top, order, axis=1)
    dcg = np.take_along_axis(labels, top, axis=1) @ discount
    idcg = np.sort(np.partition(labels, n - k, axis=1)[:, n - k :], axis=1)[:, ::-1] @ discount
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(idcg > 0, dcg / idcg, 0.0)


def trec_dicts(labels, scores):
    qrels, run = {}, {}
    for q, (row_labels, row_scores) in enumerate(zip(labels.tolist(), scores.tolist(), strict=True)):
        ids = [f"d{i}" for i in range(len(row_labels))]
        qrels[f"q{q}"] = dict(zip(ids, map(int, row_labels), strict=True))
        run[f"q{q}"] = dict(zip(ids, row_scores, strict=True))
    return qrels, run


class Table:
    def __init__(self, title):
        self.title, self.rows = title, []

    def add(self, name, seconds, reference=None, target=None, note=""):
        self.rows.append((name, seconds, reference, target, note))

    def print(self):
        print(f"\n{self.title}")
        print(f"  {'what':<58} {'best time':>11} {'ratio':>9}  {'target':<15} note")
        for name, seconds, reference, target, note in self.rows:
            ratio = "" if reference is None else f"{seconds / reference:8.2f}x"
            verdict = ""
            if target is not None:
                kind, bound = target
                ok = (seconds / reference >= bound) if kind == ">=" else (seconds / reference <= bound)
                verdict = f"{kind} {bound:g}x {'PASS' if ok else 'MISS'}"
            print(f"  {name:<58} {seconds * 1e3:9.1f}ms {ratio:>9}  {verdict:<15} {note}")


def _ours_ndcg_from_scores(labels, scores, k, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", nr.UndefinedNDCGWarning)
        return nr.ndcg_from_scores(labels, scores, k, **kwargs)


def bench_batch(recorder, n_queries, n_docs, k, rounds, seed, *, with_trec=True):
    import pytrec_eval
    from sklearn.metrics import ndcg_score

    rng = np.random.default_rng(np.random.SeedSequence(seed))
    labels = rng.integers(0, 5, size=(n_queries, n_docs)).astype(np.float64)
    scores = rng.normal(size=(n_queries, n_docs))
    assert all(np.unique(row).size == n_docs for row in scores[:50]), "continuous scores should be tie-free"

    # Check every competitor against ours first.
    our_values = _ours_ndcg_from_scores(labels, scores, k)
    for negate in (False, True):
        np.testing.assert_allclose(
            our_values, numpy_baseline_ndcg_at_k(labels, scores, k, negate=negate), rtol=1e-12, atol=1e-12
        )
    sk_mean = ndcg_score(labels, scores, k=k)
    assert math.isclose(sk_mean, our_values.mean(), rel_tol=1e-9), (sk_mean, our_values.mean())

    def ours_one_thread():
        # The same call without the second thread for the ideal DCG: like for like with numpy.
        return _ours_ndcg_from_scores(labels, scores, k, threads=1)

    functions = {
        "ours": (lambda: _ours_ndcg_from_scores(labels, scores, k), 1),
        "ours one thread": (ours_one_thread, 1),
        "numpy": (lambda: numpy_baseline_ndcg_at_k(labels, scores, k), 1),
        "numpy negated": (lambda: numpy_baseline_ndcg_at_k(labels, scores, k, negate=True), 1),
        "sklearn": (lambda: ndcg_score(labels, scores, k=k), 2),
    }
    measure = f"ndcg_cut.{k}"
    if with_trec:
        t_dicts, (qrels, run) = best_of(lambda: trec_dicts(labels, scores), 2)
        t_evaluator, evaluator = best_of(lambda: pytrec_eval.RelevanceEvaluator(qrels, {measure}), 2)
        trec = evaluator.evaluate(run)
        trec_values = np.array([trec[f"q{q}"][f"ndcg_cut_{k}"] for q in range(n_queries)])
        np.testing.assert_allclose(our_values, trec_values, rtol=0, atol=1e-9)
        functions["trec"] = (lambda: evaluator.evaluate(run), 3)
    t = side_by_side(functions, rounds)

    table = Table(
        f"(a) nDCG@{k}, {n_queries:,} queries x {n_docs:,} documents, labels 0..4, continuous scores "
        f"(ratio = their time / ours; last rows: ours / numpy)"
    )
    table.add("ours: nr.ndcg_from_scores(labels, scores, k)", t["ours"], note="ties='average' (default)")
    table.add("scikit-learn ndcg_score(k=k), default ties", t["sklearn"], t["ours"], (">=", 10))
    ratios = {f"{n_queries}x{n_docs} sklearn/ours": t["sklearn"] / t["ours"]}
    if with_trec:
        table.add(f"pytrec_eval evaluate() with {measure}", t["trec"], t["ours"], (">=", 10))
        table.add("pytrec_eval: build qrels + run dicts (info)", t_dicts, t["ours"], note="not in the evaluate time")
        table.add(
            "pytrec_eval: RelevanceEvaluator(qrels, ...) (info)",
            t_evaluator,
            t["ours"],
            note="not in the evaluate time",
        )
        table.add("pytrec_eval: dicts + evaluator + evaluate (info)", t_dicts + t_evaluator + t["trec"], t["ours"])
        ratios[f"{n_queries}x{n_docs} pytrec_eval/ours"] = t["trec"] / t["ours"]
    table.add("numpy baseline: argpartition(scores, n - k)", t["numpy"])
    table.add("numpy baseline: argpartition(-scores, k - 1) (info)", t["numpy negated"])
    table.rows.append(("ours / numpy baseline", t["ours"], t["numpy"], ("<=", 2), ""))
    table.rows.append(("ours / numpy baseline with the negated copy", t["ours"], t["numpy negated"], ("<=", 2), ""))
    table.rows.append(("ours on one thread / numpy baseline", t["ours one thread"], t["numpy"], ("<=", 2), ""))
    table.add("scikit-learn / ours on one thread (info)", t["sklearn"], t["ours one thread"])
    table.print()
    ratios[f"{n_queries}x{n_docs} ours(1 thread)/numpy"] = t["ours one thread"] / t["numpy"]
    ratios[f"{n_queries}x{n_docs} sklearn/ours(1 thread)"] = t["sklearn"] / t["ours one thread"]
    ratios[f"{n_queries}x{n_docs} ours/numpy"] = t["ours"] / t["numpy"]
    ratios[f"{n_queries}x{n_docs} ours/numpy(negated)"] = t["ours"] / t["numpy negated"]

    task = f"nDCG@{k} of {n_queries:,} queries x {n_docs:,} documents, continuous scores"
    tools = "scikit-learn's ndcg_score" + (" and pytrec_eval's evaluate()" if with_trec else "")
    faster = f"{t['sklearn'] / t['ours']:.1f}x faster than scikit-learn's ndcg_score"
    if with_trec:
        faster += f", {t['trec'] / t['ours']:.1f}x faster than pytrec_eval's evaluate() with {measure}"
    recorder.row(
        f"{task}: ndcg_from_scores against {tools}",
        f"{t['ours'] * 1e3:.0f} ms; {faster} (on one thread: {t['sklearn'] / t['ours one thread']:.0f}x "
        f"faster than scikit-learn); best of {rounds} rounds",
        ">= 10x faster" if with_trec else "information",
        met=min(t["sklearn"], t["trec"]) / t["ours"] >= 10 if with_trec else None,
    )
    recorder.row(
        f"{task}: ndcg_from_scores against a bare numpy nDCG@{k} (argpartition, sort the top {k}, dot)",
        f"{t['ours'] / t['numpy']:.2f}x the numpy time ({t['numpy'] * 1e3:.0f} ms); on one thread "
        f"{t['ours one thread'] / t['numpy']:.2f}x",
        "<= 2x",
        met=t["ours"] / t["numpy"] <= 2,
    )
    return ratios


def bench_tied(recorder, n_queries, n_docs, k, rounds, seed, *, levels=5):
    from sklearn.metrics import ndcg_score

    rng = np.random.default_rng(np.random.SeedSequence(seed))
    labels = rng.integers(0, 5, size=(n_queries, n_docs)).astype(np.float64)
    scores = rng.integers(0, levels, size=(n_queries, n_docs)).astype(np.float64)
    kth = np.sort(scores, axis=1)[:, -k]
    straddling = np.count_nonzero(scores >= kth[:, None], axis=1) > k
    assert straddling.mean() > 0.99, "the workload should have a tie group straddling rank k in (almost) every query"

    our_values = _ours_ndcg_from_scores(labels, scores, k)
    sk_mean = ndcg_score(labels, scores, k=k)
    assert math.isclose(sk_mean, our_values.mean(), rel_tol=1e-9), (sk_mean, our_values.mean())
    functions = {
        "ours": (lambda: _ours_ndcg_from_scores(labels, scores, k), 1),
        "ours one thread": (lambda: _ours_ndcg_from_scores(labels, scores, k, threads=1), 1),
        "sklearn": (lambda: ndcg_score(labels, scores, k=k), 2),
    }
    for ties in ("first", "pessimistic", "optimistic"):
        functions[ties] = (lambda ties=ties: _ours_ndcg_from_scores(labels, scores, k, ties=ties), 2)
    t = side_by_side(functions, rounds)

    table = Table(
        f"(t) nDCG@{k}, {n_queries:,} queries x {n_docs:,} documents, labels 0..4, {levels} score levels "
        f"(a tie group straddles rank {k} in {straddling.mean():.0%} of queries; ratio = their time / ours)"
    )
    table.add("ours: nr.ndcg_from_scores(labels, scores, k)", t["ours"], note="ties='average' (default)")
    table.add("scikit-learn ndcg_score(k=k), default ties (averaged)", t["sklearn"], t["ours"], (">=", 10))
    table.add("scikit-learn / ours on one thread (info)", t["sklearn"], t["ours one thread"])
    for ties in ("first", "pessimistic", "optimistic"):
        table.add(f"ours, ties={ties!r} (info; ratio = its time / ours average)", t[ties], t["ours"])
    table.print()
    recorder.row(
        f"nDCG@{k} of {n_queries:,} queries x {n_docs:,} documents, {levels} score levels (tie groups "
        f"straddle rank {k}), ties averaged: ndcg_from_scores against scikit-learn's ndcg_score",
        f"{t['ours'] * 1e3:.0f} ms; {t['sklearn'] / t['ours']:.1f}x faster than scikit-learn "
        f"({t['sklearn'] / t['ours one thread']:.0f}x on one thread); best of {rounds} rounds",
        ">= 10x faster",
        met=t["sklearn"] / t["ours"] >= 10,
    )
    return {
        f"tied {n_queries}x{n_docs} sklearn/ours": t["sklearn"] / t["ours"],
        f"tied {n_queries}x{n_docs} sklearn/ours(1 thread)": t["sklearn"] / t["ours one thread"],
    }


def bench_long_list(recorder, n, rounds, seed):
    from threadpoolctl import threadpool_limits

    rng = np.random.default_rng(np.random.SeedSequence(seed))
    grades = rng.integers(0, 5, size=n).astype(np.float64)
    discount = 1.0 / np.log2(np.arange(2, n + 2, dtype=np.float64))

    def dot():
        return float(grades @ discount)

    nr.clear_discount_cache()
    start = time.perf_counter()
    cold_value = nr.dcg(grades)
    t_cold = time.perf_counter() - start
    assert math.isclose(cold_value, dot(), rel_tol=1e-12)
    ideal_ref = float(-np.sort(-grades) @ discount)
    assert math.isclose(nr.idcg(grades), ideal_ref, rel_tol=1e-12)
    assert math.isclose(nr.ndcg(grades), cold_value / ideal_ref, rel_tol=1e-12)

    # The dot, dcg and the grade check take milliseconds: five times the rounds, since on a shared
    # machine one of them often loses a time slice (best of more rounds, same round-robin).
    fast = {
        "dot": (dot, 1),
        "dcg": (lambda: nr.dcg(grades), 1),
        "min": (lambda: grades.min(), 1),
        "dot + min": (lambda: (dot(), grades.min()), 1),
    }
    t = side_by_side(fast, 5 * rounds)
    t |= side_by_side(
        {
            "ndcg": (lambda: nr.ndcg(grades), 1),
            "idcg": (lambda: nr.idcg(grades), 1),
            "sort": (lambda: float(-np.sort(-grades) @ discount), 2),
        },
        rounds,
    )
    with threadpool_limits(1):  # the dot product with one BLAS thread (the grade check has one anyway)
        t1 = side_by_side(fast, 5 * rounds)

    table = Table(f"(b) one ranked list of {n:,} grades 0..4 (ratio = ours / plain dot product)")
    table.add("plain dot: grades @ precomputed discount", t["dot"])
    table.add("nr.dcg(grades), warm discount cache", t["dcg"], t["dot"], ("<=", 2))
    table.add("nr.dcg(grades), cold: first call builds the discounts", t_cold, t["dot"], note="info")
    table.add("grades.min(): dcg's input check, one pass (info)", t["min"], t["dot"])
    table.add("dot + grades.min(): the floor of a checked dcg (info)", t["dot + min"], t["dot"])
    table.add("nr.ndcg(grades) (info)", t["ndcg"], t["dot"])
    table.add("nr.idcg(grades) (info; counts the grade levels, kernels.COUNTED_ROW_FROM)", t["idcg"], t["dot"])
    table.add("numpy: sort descending + dot (info)", t["sort"], t["dot"])
    table.add("plain dot, BLAS limited to 1 thread (info)", t1["dot"])
    table.add("nr.dcg, BLAS limited to 1 thread (info)", t1["dcg"], t1["dot"])
    table.add("grades.min(), BLAS limited to 1 thread (info)", t1["min"], t1["dot"])
    table.add("dot + grades.min(), BLAS limited to 1 thread (info)", t1["dot + min"], t1["dot"])
    table.print()
    recorder.row(
        f"DCG of one ranked list of {n:,} grades: dcg (warm discount cache) against a plain dot product "
        f"with a precomputed discount vector",
        f"{t['dcg'] / t['dot']:.2f}x the dot product ({t['dot'] * 1e3:.1f} ms, machine's BLAS threads); "
        f"{t1['dcg'] / t1['dot']:.2f}x with one BLAS thread; the input check alone (one min pass over the "
        f"grades) {t1['min'] / t1['dot']:.2f}x, the dot followed by it (the floor of a checked DCG) "
        f"{t1['dot + min'] / t1['dot']:.2f}x; best of {5 * rounds} rounds",
        "<= 2x",
        met=t["dcg"] / t["dot"] <= 2,
    )
    recorder.row(
        f"one ranked list of {n:,} grades: ndcg and idcg against the same dot product (information)",
        f"ndcg {t['ndcg'] / t['dot']:.0f}x, idcg {t['idcg'] / t['dot']:.0f}x (numpy's descending sort + "
        f"dot: {t['sort'] / t['dot']:.0f}x); the first dcg call, which builds the discounts, "
        f"{t_cold / t['dot']:.0f}x",
        "information",
    )
    return {
        "dcg warm/dot": t["dcg"] / t["dot"],
        "dcg cold/dot": t_cold / t["dot"],
        "dcg/dot 1 BLAS thread": t1["dcg"] / t1["dot"],
        "min/dot 1 BLAS thread": t1["min"] / t1["dot"],
        "(dot+min)/dot 1 BLAS thread": t1["dot + min"] / t1["dot"],
        "ndcg/dot": t["ndcg"] / t["dot"],
        "idcg/dot": t["idcg"] / t["dot"],
    }


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="smaller sizes and fewer repeats")
    parser.add_argument("--seed", type=int, default=20260525)
    args = parser.parse_args(argv)
    recorder = Recorder(
        "bench_metrics", " ".join(["python benchmarks/bench_metrics.py", *(sys.argv[1:] if argv is None else argv)])
    )
    if args.quick:
        sizes, small, n_long, rounds = (400, 1000), (2000, 100), 10**6, 3
    else:
        sizes, small, n_long, rounds = (2000, 1000), (10000, 100), 10**7, 9
    import sklearn

    print(
        f"python {platform.python_version()}, numpy {np.__version__}, scikit-learn {sklearn.__version__}, "
        f"{os.cpu_count()} CPUs; OPENBLAS_CORETYPE={os.environ.get('OPENBLAS_CORETYPE')}, "
        f"OPENBLAS_L2_SIZE={os.environ.get('OPENBLAS_L2_SIZE')}; best of {rounds} rounds, run round-robin "
        f"(slow tools every 2nd/3rd round)"
    )
    ratios = bench_batch(recorder, *sizes, k=10, rounds=rounds, seed=args.seed)
    # Information: many short lists, where per-query Python loops cost most (lessons-from-users #11).
    ratios |= bench_batch(recorder, *small, k=10, rounds=rounds, seed=args.seed + 2, with_trec=False)
    ratios |= bench_tied(recorder, *sizes, k=10, rounds=rounds, seed=args.seed + 3)
    ratios |= bench_long_list(recorder, n_long, rounds, args.seed + 1)
    print("\nratios: " + ", ".join(f"{key} {value:.2f}x" for key, value in ratios.items()))
    print(f"written: {recorder.write()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
