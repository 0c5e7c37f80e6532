"""Tables for reading: wide views, rounding, proportions as counts with intervals, chance-level flags, fitted
exponents ("not resolved" when the fit says nothing), and the pieces of the notebooks' sentences (intervals,
replication between two independent runs, agreement of measured trends with predicted ones).

The notebooks show short tables (a dozen rows, columns named in words) and keep the full result tables in
``results/`` and in an appendix; these helpers build the short ones.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from ..findings import threshold
from ..stats import CONFIDENCE, wilson_interval
from ..stats._replication import family_confidence, proportion_z, share_label

#: An absolute z beyond this is a disagreement between two independent runs beyond chance (as notebooks 03-10 use it).
REPLICATION_Z = 3.0

#: Appended to a cell that :func:`chance_level` flags.
CHANCE_MARK = " (chance)"
#: Text for a fitted exponent that says nothing: its gap is indistinguishable from 0 over the fitted range, or its
#: interval is unbounded.
NOT_RESOLVED = "not resolved"
#: A fitted exponent whose interval is wider than this is not resolved: it spans everything from shrinking like
#: 1/n to growing like n, and its numbers (which reach 10^9 when the fitted gap is 0) would be read as measurements.
UNRESOLVED_WIDTH = 2.0


def pivot(table: pd.DataFrame, index: str | Sequence[str], columns: str | Sequence[str], values: str) -> pd.DataFrame:
    """A wide view of a tidy table: one row per ``index`` value(s), one column per ``columns`` value(s).

    Rows and columns keep their order of first appearance (not sorted).
    """
    return table.pivot_table(index=index, columns=columns, values=values, aggfunc="first", sort=False)


def stack(tables: Mapping[str, pd.DataFrame]) -> pd.DataFrame:
    """Per-model tables in one, with the model's label in a ``label`` column and, for pair tables, a readable pair name
    ``better > worse`` in a ``pair`` column."""
    return pd.concat(
        [
            t.assign(label=label, **({"pair": t["better"] + " > " + t["worse"]} if "better" in t else {}))
            for label, t in tables.items()
        ],
        ignore_index=True,
    )


def value_range(values: pd.Series, digits: int = 3) -> str:
    """'low to high' with ``digits`` decimals, or one number when both read the same."""
    low, high = f"{values.min():.{digits}f}", f"{values.max():.{digits}f}"
    return low if low == high else f"{low} to {high}"


def rounded(table: pd.DataFrame, digits: int = 3) -> pd.DataFrame:
    """The table with its float columns rounded to ``digits`` decimals, for reading (and for nbval).

    Each value is rounded as Python's ``round`` and f-strings round it (correctly, from its exact binary value), so a
    table and a sentence that print the same number agree: numpy's and pandas' ``round`` scale by ``10**digits`` first
    and can round the other way on a decimal half (0.7515 -> 0.752, while the double nearest 0.7515 lies below it and
    reads 0.751). A value that rounds to zero is shown without a sign: its sign can flip with the last bit of a sum
    (BLAS results depend on the machine), and nbval compares the displayed text.
    """
    out = table.copy()
    for column in out.columns:
        if pd.api.types.is_float_dtype(out[column]):
            values = [round(v, digits) for v in out[column].to_numpy(dtype=float).tolist()]  # Python floats
            out[column] = np.asarray(values, dtype=float) + 0.0  # -0.0 + 0.0 is 0.0
    return out


def _counts(table: pd.DataFrame, column: str, trials: str) -> tuple[list[int], list[int]]:
    """The whole counts behind the shares ``table[column]`` of ``table[trials]`` (refusing a share that is not one)."""
    counts, totals = [], []
    for row, (share, total) in enumerate(zip(table[column].tolist(), table[trials].tolist(), strict=False)):
        count = float(share) * int(total)
        if not (np.isfinite(count) and abs(count - round(count)) <= 1e-6):
            raise ValueError(
                f"{column} of row {row} must be a share of {int(total)} trials (a whole count), got {float(share)!r}"
            )
        counts.append(int(round(count)))
        totals.append(int(total))
    return counts, totals


def proportion_cells(
    table: pd.DataFrame, column: str, trials: str = "replicates", *, digits: int = 2, interval: bool = True
) -> list[str]:
    """Each row's share ``table[column]`` of ``table[trials]`` as :func:`~ndcg_research.stats.share_label` text.

    So a proportion measured as 1 on a few replicates reads as the count ("20/20 [0.84,1.00]"), not as a
    probability of 1. The shares must be of whole numbers of trials.
    """
    labels = []
    for row, (share, count) in enumerate(zip(table[column].tolist(), table[trials].tolist(), strict=False)):
        try:
            labels.append(share_label(share, int(count), digits=digits, interval=interval))
        except ValueError as error:
            raise ValueError(f"{column} of row {row}: {error}") from None
    return labels


def chance_level(
    table: pd.DataFrame, column: str, trials: str = "replicates", *, family: int | None = None
) -> np.ndarray:
    """Which rows' share ``table[column]`` cannot be told from a coin flip, by one rule for every table.

    Rule (threshold ``chance_p`` in ``findings/thresholds.toml``): a P(correct) is at chance level when its Wilson
    interval contains ``chance_p`` (0.5) at the family-wise 95% level, Bonferroni over ``family`` cells (default: the
    rows of ``table``, the cells a reader scans together). So a table of many cells does not call a cell a win of either
    ranker because one interval in twenty misses by chance.

    ``table``: holds ``column`` (shares of ``trials``, whole counts) and ``trials``; ``column``, ``trials``: the share
    and the number of trials; ``family``: how many cells are judged together; default ``len(table)``.
    """
    counts, totals = _counts(table, column, trials)
    size = len(table) if family is None else int(family)
    if size < 1:
        raise ValueError(f"family must be at least 1, got {size}")
    level = family_confidence(size, confidence=CONFIDENCE)
    coin = float(threshold("chance_p"))
    flags = []
    for count, total in zip(counts, totals, strict=False):
        low, high = wilson_interval(count, total, confidence=level)
        flags.append(low <= coin <= high)
    return np.asarray(flags, dtype=bool)


def count_cells(
    table: pd.DataFrame, column: str, trials: str = "replicates", *, digits: int = 2, flag: np.ndarray | None = None
) -> list[str]:
    """Each row's share ``table[column]`` of ``table[trials]`` as "count/trials [Wilson 95%]", one format for all rows.

    A column of such cells never mixes decimals and counts, and a perfect record of a few trials reads as what it is
    ("20/20 [0.84,1.00]"). Rows where ``flag`` is true get :data:`CHANCE_MARK`.
    """
    counts, totals = _counts(table, column, trials)
    marks = np.zeros(len(counts), dtype=bool) if flag is None else np.asarray(flag, dtype=bool)
    if marks.shape != (len(counts),):
        raise ValueError(f"flag must have one entry per row ({len(counts)}), got shape {marks.shape}")
    cells = []
    for count, total, mark in zip(counts, totals, marks, strict=False):
        low, high = wilson_interval(count, total)
        cells.append(f"{count}/{total} [{low:.{digits}f},{high:.{digits}f}]" + (CHANCE_MARK if mark else ""))
    return cells


def headed(
    table: pd.DataFrame, columns: Mapping[str, str], digits: Mapping[str, int] | None = None, index: Sequence[str] = ()
) -> pd.DataFrame:
    """The columns ``columns`` of ``table``, renamed to their words, floats rounded per column.

    ``columns``: column name -> header in words (with the unit), in the order to show; ``digits``: decimals per column
    (by its original name); float columns not named get 3; ``index``: original names of the columns to make the (row)
    index, e.g. ``("label", "pair")``.
    """
    missing = [c for c in columns if c not in table.columns]
    if missing:
        raise KeyError(f"columns {missing} are not in the table (it has {list(table.columns)})")
    out = table[list(columns)].copy()
    for column in out.columns:
        if pd.api.types.is_float_dtype(out[column]):
            out[column] = rounded(out[[column]], (digits or {}).get(column, 3))[column]
    out = out.rename(columns=dict(columns))
    if index:
        out = out.set_index([columns[c] for c in index])
    return out


def interval_text(centre: float, low: float, high: float, digits: int = 2) -> str:
    """``'0.21 [0.15, 0.27]'``, or ``'-'`` when the value is undefined (NaN)."""
    if not math.isfinite(centre):
        return "-"
    return f"{centre:.{digits}f} [{low:.{digits}f}, {high:.{digits}f}]"


def exponent_text(centre: float, low: float, high: float, *, resolved: bool = True, digits: int = 2) -> str:
    """A fitted exponent as :func:`interval_text` (``'0.21 [0.15, 0.27]'``), ``'-'`` when undefined, or
    :data:`NOT_RESOLVED` when the fit says nothing: ``resolved`` is False (the caller found the fitted quantity
    indistinguishable from 0: :func:`gaps_resolved`), or the interval is not finite or wider than
    :data:`UNRESOLVED_WIDTH`.

    >>> exponent_text(0.21, 0.15, 0.27), exponent_text(-10.03, -8039697969.16, 8039697949.11)
    ('0.21 [0.15, 0.27]', 'not resolved')
    >>> exponent_text(0.1, -0.2, 0.4, resolved=False), exponent_text(float("nan"), float("nan"), float("nan"))
    ('not resolved', '-')
    """
    if not math.isfinite(centre):
        return "-"
    if not (resolved and math.isfinite(low) and math.isfinite(high) and high - low <= UNRESOLVED_WIDTH):
        return NOT_RESOLVED
    return interval_text(centre, low, high, digits)


def with_exponent_text(
    table: pd.DataFrame,
    columns: Sequence[str] = ("exponent", "exponent_low", "exponent_high"),
    name: str = "exponent [95%]",
    resolved: Sequence[bool] | None = None,
) -> pd.DataFrame:
    """``table`` with its fitted exponent's three ``columns`` (centre, low, high) replaced, in place of the first, by
    one text column ``name`` (:func:`exponent_text`; ``resolved``: per row, from :func:`gaps_resolved`): a table to
    read, where an unbounded interval is never printed as numbers.

    >>> t = pd.DataFrame({"a": [1, 2], "exponent": [0.2, -10.0], "exponent_low": [0.1, -8e9],
    ...                   "exponent_high": [0.3, 8e9]})
    >>> with_exponent_text(t)["exponent [95%]"].tolist()
    ['0.20 [0.10, 0.30]', 'not resolved']
    """
    centre, low, high = columns
    ok = [True] * len(table) if resolved is None else list(resolved)
    texts = [
        exponent_text(c, lo, hi, resolved=r)
        for c, lo, hi, r in zip(table[centre], table[low], table[high], ok, strict=True)
    ]
    shown = table.drop(columns=list(columns))
    shown.insert(table.columns.get_loc(centre), name, texts)
    return shown


def gaps_resolved(
    pair_table: pd.DataFrame, fits: pd.DataFrame, keys: Sequence[str], n_from: str = "n_from"
) -> pd.Series:
    """For each fit (a row of ``fits``: the ``keys`` and the smallest fitted n in column ``n_from``), whether the
    standardized gap it fits is distinguishable from 0 at some fitted n of ``pair_table``: ``|std_gap|`` above the
    normal quantile of :data:`~ndcg_research.stats.CONFIDENCE` times ``std_gap_se``. A growth exponent fitted to gaps
    that are all indistinguishable from 0 is not resolved (:func:`exponent_text`).

    Returns pandas.Series of bool, indexed as ``fits``.

    >>> pairs = pd.DataFrame({"discount": ["a", "a", "b", "b"], "n": [10, 100, 10, 100],
    ...                       "std_gap": [0.5, 0.9, 0.01, -0.02], "std_gap_se": [0.1, 0.1, 0.05, 0.05]})
    >>> fits = pd.DataFrame({"discount": ["a", "b"], "n_from": [10, 10]})
    >>> gaps_resolved(pairs, fits, ["discount"]).tolist()
    [True, False]
    """
    from scipy.stats import norm

    z = float(norm.ppf(0.5 + CONFIDENCE / 2))
    resolved = []
    for _, fit in fits.iterrows():
        rows = pair_table[pair_table["n"] >= fit[n_from]]
        for key in keys:
            rows = rows[rows[key] == fit[key]]
        resolved.append(bool((rows["std_gap"].abs() > z * rows["std_gap_se"]).any()))
    return pd.Series(resolved, index=fits.index, dtype=bool)


def replication_line(
    here: pd.DataFrame, full: pd.DataFrame, keys: Sequence[str], share: str, trials: str = "replicates"
) -> str:
    """One sentence comparing the shares of two independent runs where both measured the same cell.

    Each common cell (equal ``keys``) gets a two-proportion z (:func:`~ndcg_research.stats.proportion_z`); the sentence
    gives the number of cells, the largest absolute z and how many exceed :data:`REPLICATION_Z`, against about
    ``0.0027 x cells`` expected by chance (two-sided normal tail beyond 3).
    """
    seed_here, seed_full = int(here["seed"].iloc[0]), int(full["seed"].iloc[0])
    if seed_here == seed_full:
        return "this run is the full profile itself: no independent replication to compare with"
    both = here.merge(full, on=list(keys), suffixes=("", "_full"))
    if both.empty:
        return f"replication: no cell in common with the full profile (seed {seed_full})"
    z = proportion_z(both[share], both[trials], both[f"{share}_full"], both[f"{trials}_full"]).abs()
    chance = 0.0027 * len(both)
    return (
        f"replication (seed {seed_here} here, {seed_full} in the full profile): {len(both)} cells in common, "
        f"largest |z| = {z.max():.2f}, |z| > {REPLICATION_Z:g} in {int((z > REPLICATION_Z).sum())} "
        f"(about {chance:.1f} expected by chance)"
    )


def trend_agreement(predicted: str, measured: str, flat: str = "flat") -> str:
    """How a measured trend compares with a predicted one: ``agrees``, ``contradicts``, ``unresolved`` or ``no call``.

    ``unresolved``: the prediction has a direction but the measurement cannot tell (its interval contains 0: ``flat``,
    or it is ``undefined``); ``contradicts``: the measurement has another direction than the prediction, or a direction
    where a flat trend was predicted; ``no call``: the prediction has none.
    """
    if predicted == "no call":
        return "no call"
    if measured == predicted:
        return "agrees"
    if measured in (flat, "undefined"):
        return "unresolved"
    return "contradicts"


def agreement_counts(agreement: pd.Series) -> dict[str, int]:
    """How many cells with a prediction agree, contradict or are unresolved (:func:`trend_agreement`)."""
    called = agreement[agreement != "no call"]
    return {k: int((called == k).sum()) for k in ("agrees", "contradicts", "unresolved")} | {"called": len(called)}


def agreement_text(agreement: pd.Series) -> str:
    """:func:`agreement_counts` in words."""
    c = agreement_counts(agreement)
    return (
        f"agrees in {c['agrees']}, contradicts in {c['contradicts']}, unresolved in {c['unresolved']} of "
        f"{c['called']} cells with a prediction"
    )
