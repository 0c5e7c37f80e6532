"""Notebook 01 (the worked example): its tables and lines."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from ...core import cg, dcg
from ...pipeline.tables import rounded

#: The numbers the article prints for its example.
ARTICLE = {"CG": 11.0, "DCG": 6.861, "IDCG (all known documents)": 8.740, "nDCG": 0.785}
#: The article's example: its returned and unretrieved grades, k, gain and discount.
ARTICLE_EXAMPLE = ([3, 2, 3, 0, 1, 2], [3, 2], 6, "linear", "log2")


def is_articles_example(
    grades: Sequence[float], unretrieved: Sequence[float], k: int | None, gain: str, discount: str
) -> bool:
    """Whether the parameters are the article's example (only then are its numbers the reference)."""
    return (list(grades), list(unretrieved), k, str(gain), str(discount)) == ARTICLE_EXAMPLE


def contributions_table(returned: np.ndarray, gains: np.ndarray, discounts: np.ndarray) -> pd.DataFrame:
    """Per rank i: the grade, its gain, 1/D(i), the contribution g D and the DCG so far."""
    index = pd.Index(np.arange(1, returned.size + 1), name="rank i")
    table = pd.DataFrame({"grade rel_i": returned, "gain g(rel_i)": gains, "1/D(i)": 1 / discounts}, index=index)
    table["contribution g*D"] = gains * discounts
    table["DCG so far"] = np.cumsum(gains * discounts)
    return rounded(table, 3)


def swaps(grades: Sequence[float], k: int | None, gain: str, discount: str) -> list[str]:
    """Three lines: CG and DCG of the list, of the list with ranks 1 and 4 exchanged, and over every swap of two
    positions, how often CG stays and DCG changes (and how many swaps exchange different grades)."""
    n = len(grades) if k is None else min(k, len(grades))
    cg0, dcg0 = cg(grades, k, gain=gain), dcg(grades, k, gain=gain, discount=discount)
    lines = [f"returned {list(grades)}: CG = {cg0:.3f}, DCG = {dcg0:.3f}"]
    i, j = 0, min(3, n - 1)
    swapped = list(grades)
    swapped[i], swapped[j] = swapped[j], swapped[i]
    lines.append(
        f"swapped  {swapped}: CG = {cg(swapped, k, gain=gain):.3f}, "
        f"DCG = {dcg(swapped, k, gain=gain, discount=discount):.3f}  (ranks {i + 1} and {j + 1} exchanged)"
    )
    pairs = [(a, b) for a in range(n) for b in range(a + 1, n)]
    same = changed = differ = 0
    for a, b in pairs:
        s = list(grades)
        s[a], s[b] = s[b], s[a]
        same += bool(np.isclose(cg(s, k, gain=gain), cg0))
        changed += not bool(np.isclose(dcg(s, k, gain=gain, discount=discount), dcg0))
        differ += grades[a] != grades[b]
    lines.append(
        f"all {len(pairs)} swaps: CG unchanged in {same}; DCG changed in {changed}; "
        f"the swapped grades differ in {differ}"
    )
    return lines


def comparison(measured: Mapping[str, float], article: bool) -> pd.DataFrame:
    """The measured quantities beside the article's numbers (for the article's example only), three decimals each."""
    columns = {"measured": [f"{float(value):.3f}" for value in measured.values()]}
    columns["the article"] = [f"{ARTICLE[name]:.3f}" if article and name in ARTICLE else "-" for name in measured]
    return pd.DataFrame(columns, index=pd.Index(list(measured), name="quantity"))
