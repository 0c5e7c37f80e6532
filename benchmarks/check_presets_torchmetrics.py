"""The ``torchmetrics`` preset against TorchMetrics itself, outside the test suite (torch is too heavy for CI).

    pip install torch==2.13.0 torchmetrics==1.9.0      # into the project's .venv or another environment
    python benchmarks/check_presets_torchmetrics.py      # (with ndcg_research importable)

Random queries of every class the preset must follow: ordinary graded lists, lists without a relevant
document, tied predictions, predictions equal only in float32, negative targets (which TorchMetrics keeps),
with and without ``top_k``. Each query's value from ``nr.evaluate(..., convention="torchmetrics")`` is
compared with ``torchmetrics.functional.retrieval.retrieval_normalized_dcg(preds, target, top_k)`` on
that query's list (float32 predictions as TorchMetrics keeps them). Prints the largest difference per
class, relative to how much float32 rounding the ratio can magnify (with negative targets the ideal DCG
can be a small difference of large terms); exit status 1 if any exceeds 1e-6 (TorchMetrics computes in
float32).
"""

from __future__ import annotations

import sys

import numpy as np
import pandas as pd


def lists(kind: str, rng: np.random.Generator, n_queries: int = 40) -> list[tuple[str, np.ndarray, np.ndarray]]:
    out = []
    for q in range(n_queries):
        n = int(rng.integers(2, 30))
        labels = rng.integers(0, 4, n)
        scores = rng.normal(size=n)
        if kind == "no relevant document":
            labels[:] = 0
        elif kind == "tied predictions":
            scores = rng.integers(0, 4, n) * 0.25
        elif kind == "equal only in float32":
            scores = rng.integers(0, 4, n) + rng.integers(1, 9, n) * 1e-12
        elif kind == "negative targets":
            labels = rng.integers(-2, 3, n)
        out.append((f"q{q:02d}", labels, scores))
    return out


def _condition(labels: np.ndarray, k: int | None) -> float:
    """How much float32 rounding the ratio can magnify: the sum of |gain x discount| over |ideal DCG| (at least 1).

    With negative targets the ideal DCG can be a small difference of large terms; TorchMetrics computes in
    float32, so its value there carries a relative error of about 1e-7 times this factor.
    """
    ideal = np.sort(labels.astype(np.float64))[::-1][:k]
    discount = 1 / np.log2(np.arange(2, ideal.size + 2))
    total, magnitude = float(ideal @ discount), float(np.abs(ideal) @ discount)
    return max(1.0, magnitude / abs(total)) if total else 1.0


def main() -> int:
    import torch
    from torchmetrics.functional.retrieval import retrieval_normalized_dcg

    import ndcg_research as nr

    rng = np.random.default_rng(np.random.SeedSequence(20))
    worst_overall = 0.0
    print(f"torch {torch.__version__}; class, top_k: largest |ours - TorchMetrics| / condition over the queries")
    for kind in ("ordinary", "no relevant document", "tied predictions", "equal only in float32", "negative targets"):
        data = lists(kind, rng)
        qrels = pd.DataFrame(
            [(q, f"d{i:03d}", int(g)) for q, labels, _ in data for i, g in enumerate(labels)],
            columns=["query", "doc", "relevance"],
        )
        run = pd.DataFrame(
            [(q, f"d{i:03d}", float(s)) for q, _, scores in data for i, s in enumerate(scores)],
            columns=["query", "doc", "score"],
        )
        for k in (None, 3, 10):
            measure = "ndcg" if k is None else f"ndcg@{k}"
            result = nr.evaluate(qrels, run, measure, convention="torchmetrics")
            ours = dict(zip(result.queries[0], result.values[0][0], strict=True))
            worst = 0.0
            for q, labels, scores in data:
                theirs = float(
                    retrieval_normalized_dcg(
                        torch.tensor(scores, dtype=torch.float32), torch.tensor(labels, dtype=torch.float32), top_k=k
                    )
                )
                worst = max(worst, abs(ours[q] - theirs) / _condition(labels, k))
            worst_overall = max(worst_overall, worst)
            print(f"  {kind:24s} top_k={k!s:5s} {worst:.2e}")
    print("agrees" if worst_overall <= 1e-6 else "DISAGREES", f"(largest difference {worst_overall:.2e})")
    return 0 if worst_overall <= 1e-6 else 1


if __name__ == "__main__":
    sys.exit(main())
