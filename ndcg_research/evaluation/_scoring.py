"""nDCG of ranked queries under one measure, through the metric core's kernels (gains, discounts, tie averaging).

Queries go in padded batches of equal width (a power of two at or above the list's and ideal's lengths cut at ``k``),
each row summed on its own: a query's value never depends on its block, partition or batch, and a list in ideal
order gets exactly 1.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..core import _kernels as kernels
from ..core import parse_discount, parse_gain
from ..core._ranking import ranked_gains
from ._matching import Judgments, Ranked, distinct
from ._measures import Convention, Measure


def padded(
    values: np.ndarray, starts: np.ndarray, lengths: np.ndarray, width: int, fill: float | int = 0
) -> np.ndarray:
    """Rows ``values[starts[i] : starts[i] + lengths[i]]`` (at most ``width``) padded with ``fill`` to ``width``."""
    n = starts.size
    out = np.full((n, width), fill, dtype=values.dtype)
    if n == 0 or values.size == 0:
        return out
    lengths = np.minimum(lengths, width)
    length, first = int(lengths[0]), int(starts[0])
    if np.all(lengths == length) and np.all(starts == first + np.arange(n) * length):  # equal, consecutive rows
        out[:, :length] = values[first : first + n * length].reshape(n, length)
        return out
    column = np.arange(int(lengths.max()))
    index = np.minimum(starts[:, None] + column, values.size - 1)
    out[:, : column.size] = np.where(column < lengths[:, None], values[index], fill)
    return out


def _gains(measure: Measure, gain: Any, grades: np.ndarray, judged: np.ndarray | None, source: str) -> np.ndarray:
    """The gains of ``grades`` (read from ``source``); a trec_eval gain map gives a listed grade its gain, any other
    grade itself, unjudged documents 0."""
    if measure.gains is None:
        if grades.size == 0:
            return np.zeros(grades.shape)
        name = f"the grades of {source} (measure {measure.name})"
        return np.asarray(kernels.apply_gain(gain, grades, name=name), dtype=np.float64)
    levels = np.array([g for g, _ in measure.gains], dtype=np.float64)
    values = np.array([v for _, v in measure.gains], dtype=np.float64)
    out = grades.astype(np.float64)
    where = np.minimum(np.searchsorted(levels, out), levels.size - 1)
    listed = levels[where] == out
    out[listed] = values[where[listed]]
    if judged is not None:
        out[~judged] = 0.0
    return out


def measure_values(
    measure: Measure, conv: Convention, ranked: Ranked, judgments: Judgments
) -> tuple[np.ndarray, np.ndarray]:
    """nDCG of each query of ``ranked`` (unset options: the convention's; the convention's value where the ideal DCG
    is 0), and whether its ideal DCG is 0."""
    gain = parse_gain(measure.gain if measure.gain is not None else conv.gain)
    discount = parse_discount(measure.discount if measure.discount is not None else conv.discount)
    k = measure.k if measure.k is not None else conv.truncation
    if k is not None:  # a cut-off beyond every list is no cut; held below int64's limit for numpy's minimum
        k = min(k, 2**62)
    source = judgments.qrels.source
    gains = _gains(measure, gain, ranked.grade, ranked.judged, source)
    lengths = ranked.lengths
    # the power of two at or above each list's and ideal's length cut at k (at least 1)
    longest = np.maximum(lengths, judgments.ideal_count[ranked.codes] if conv.ideal == "judged" else lengths)
    longest = np.maximum(longest if k is None else np.minimum(longest, k), 1)
    widths = 1 << np.ceil(np.log2(longest)).astype(np.int64)
    values = np.zeros(lengths.size)
    undefined = np.zeros(lengths.size, dtype=bool)
    for width in distinct(widths)[0].tolist():  # the DCG and ideal DCG of the queries of one width, each row alone
        group = np.flatnonzero(widths == width)
        starts, counts = ranked.starts[group], lengths[group]
        full = int(max(counts.max(), 1))
        if conv.ties == "average":
            scores = padded(ranked.score, starts, counts, full, -np.inf)
            rows = ranked_gains(padded(gains, starts, counts, full, 0.0), scores, k, "average")[:, :width]
        else:
            rows = padded(gains, starts, counts if k is None else np.minimum(counts, k), width, 0.0)
        dcg = kernels.rowwise_discounted_sum(rows, discount, what="DCG")
        # The ideal ranking's gains, summed over as many ranks as the group's longest needs: zero gains beyond a
        # query's own add exactly 0, so its sum does not depend on the group.
        if conv.ideal != "judged":
            top = -np.sort(-padded(gains, starts, counts, full, -np.inf), axis=1)
            top[np.isneginf(top)] = 0.0
        else:
            codes = ranked.codes[group]
            ideal_start, ideal_count = judgments.ideal_start[codes], judgments.ideal_count[codes]
            if measure.gains is None:  # grades are stored descending: their gains are the ideal's, 0 from grade 0 on
                relevant = judgments.relevant_count[codes]
                ideal_count = relevant if k is None else np.minimum(relevant, k)
                top = padded(judgments.ideal_grade, ideal_start, ideal_count, int(max(ideal_count.max(), 1)), 0)
                top = _gains(measure, gain, top, None, source)
            else:
                # A gain map may reorder the grades; only gains above 0 fill the ideal (trec_eval). The padding maps
                # like grade 0: zeroed before sorting.
                ideal_width = int(max(ideal_count.max(), 1))
                top = padded(judgments.ideal_grade, ideal_start, ideal_count, ideal_width, 0)
                top = np.maximum(_gains(measure, gain, top, None, source), 0.0)
                top[np.arange(ideal_width) >= ideal_count[:, None]] = 0.0
                top = -np.sort(-top, axis=1)
        idcg = kernels.rowwise_discounted_sum(top[:, :k], discount, what="ideal DCG")
        zero, positive = idcg == 0, idcg > 0
        values[group[positive]] = kernels.ndcg_ratio(dcg[positive], idcg[positive], max(width, full))
        # Negative grades kept as gains (TorchMetrics) can make the ideal DCG negative: the tool divides all the same.
        negative = ~zero & ~positive
        values[group[negative]] = dcg[negative] / idcg[negative]
        values[group[zero]] = 1.0 if conv.zero_ideal == "one" else 0.0
        undefined[group] = zero
    return values, undefined
