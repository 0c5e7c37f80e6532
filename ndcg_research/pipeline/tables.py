"""What the notebooks' short tables share: wide views, rounding, shares as counts with intervals, chance-level flags,
fitted exponents ("not resolved" when the fit says nothing), and the pieces of their sentences (intervals,
replication between two independent runs, agreement of measured with predicted trends)."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from .._validation import check_instance
from ..findings import threshold
from ..stats import CONFIDENCE, wilson_interval
from ..stats._replication import family_confidence, proportion_z

#: An absolute z beyond this is a disagreement between two independent runs beyond chance (as notebooks 03-10 use it).
REPLICATION_Z = 3.0

#: Appended to a cell that :func:`chance_level` flags.
CHANCE_MARK = " (chance)"
#: A fitted exponent that says nothing: its gap is indistinguishable from 0, or its interval is wider than
#: :data:`UNRESOLVED_WIDTH` (from shrinking like 1/n to growing like n; its bounds reach 10^9 when the gap is 0).
NOT_RESOLVED = "not resolved"
UNRESOLVED_WIDTH = 2.0


def pivot(table: pd.DataFrame, index: str | Sequence[str], columns: str | Sequence[str], values: str) -> pd.DataFrame:
    """A wide view of a tidy table, rows and columns in their order of first appearance; two rows for one cell are a
    ValueError naming it (``aggfunc="first"`` kept one of them silently)."""
    keys = [*([index] if isinstance(index, str) else index), *([columns] if isinstance(columns, str) else columns)]
    _refuse_duplicates(table, keys, "table")
    return table.pivot_table(index=index, columns=columns, values=values, aggfunc="first", sort=False)


def stack(tables: Mapping[str, pd.DataFrame]) -> pd.DataFrame:
    """Per-model tables in one, with a ``label`` column and, for pair tables, a ``pair`` column (``better > worse``)."""
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
    """The float columns rounded to ``digits`` decimals as Python's ``round`` and f-strings do, so a table and a
    sentence agree (numpy's and pandas' ``round`` give 0.752 for the double nearest 0.7515, which reads 0.751); no
    sign on a zero (it can flip with the machine, and nbval compares the text)."""
    out = table.copy()
    for column in out.columns:
        if pd.api.types.is_float_dtype(out[column]):
            values = [round(v, digits) for v in out[column].to_numpy(dtype=float).tolist()]  # Python floats
            out[column] = np.asarray(values, dtype=float) + 0.0  # -0.0 + 0.0 is 0.0
    return out


def _counts(table: pd.DataFrame, column: str, trials: str) -> tuple[list[int], list[int]]:
    """The whole counts behind the shares ``table[column]`` of ``table[trials]`` (ValueError if one is not)."""
    shares, totals = table[column].to_numpy(dtype=float), table[trials].to_numpy().astype(int)
    counts = shares * totals
    bad = np.flatnonzero(~(np.abs(counts - np.round(counts)) <= 1e-6))  # NaN and infinities too
    if bad.size:
        row = bad[0]
        raise ValueError(
            f"{column} of row {row} must be a share of {totals[row]} trials (a whole count), got {shares[row].item()!r}"
        )
    return np.round(counts).astype(int).tolist(), totals.tolist()


def chance_level(
    table: pd.DataFrame, column: str, trials: str = "replicates", *, family: int | None = None
) -> np.ndarray:
    """Which rows' share cannot be told from a coin flip: its Wilson interval contains the threshold ``chance_p`` at
    the family-wise 95% level, Bonferroni over ``family`` cells (default: the rows, which a reader scans together)."""
    counts, totals = _counts(table, column, trials)
    size = len(table) if family is None else int(family)
    if size < 1:
        raise ValueError(f"family must be at least 1, got {size}")
    level = family_confidence(size, confidence=CONFIDENCE)
    coin = float(threshold("chance_p"))
    intervals = [wilson_interval(count, total, confidence=level) for count, total in zip(counts, totals, strict=False)]
    return np.asarray([low <= coin <= high for low, high in intervals], dtype=bool)


def count_cells(
    table: pd.DataFrame, column: str, trials: str = "replicates", *, digits: int = 2, flag: np.ndarray | None = None
) -> list[str]:
    """Each row's share as "count/trials [Wilson 95%]"; the rows ``flag`` marks get :data:`CHANCE_MARK`."""
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
    """The ``columns`` (name -> header in words) of ``table`` in their order, floats rounded to ``digits`` (by name;
    default 3); ``index``: the original names of the columns to make the row index."""
    missing = [c for c in columns if c not in table.columns]
    if missing:
        raise KeyError(f"columns {missing} are not in the table (it has {list(table.columns)})")
    out = table[list(columns)].copy()
    for column in out.columns:  # rounded leaves the other columns as they are
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
    """A fitted exponent as :func:`interval_text`, or :data:`NOT_RESOLVED` when not ``resolved``
    (:func:`gaps_resolved`) or its interval is not finite or wider than :data:`UNRESOLVED_WIDTH`."""
    resolved = resolved and math.isfinite(low) and math.isfinite(high) and high - low <= UNRESOLVED_WIDTH
    if math.isfinite(centre) and not resolved:
        return NOT_RESOLVED
    return interval_text(centre, low, high, digits)


def with_exponent_text(
    table: pd.DataFrame,
    columns: Sequence[str] = ("exponent", "exponent_low", "exponent_high"),
    name: str = "exponent [95%]",
    resolved: Sequence[bool] | None = None,
) -> pd.DataFrame:
    """``table`` with the exponent's three ``columns`` (centre, low, high) replaced by one :func:`exponent_text`
    column ``name`` in place of the first (``resolved``: per row)."""
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
    """Per fit (its ``keys`` and smallest n ``n_from``), whether a standardized gap of ``pair_table`` it fits is
    distinguishable from 0 (``|std_gap|`` beyond the :data:`~ndcg_research.stats.CONFIDENCE` quantile of its se)."""
    from scipy.stats import norm

    z = float(norm.ppf(0.5 + CONFIDENCE / 2))
    distinct = pair_table.loc[pair_table["std_gap"].abs() > z * pair_table["std_gap_se"], [*keys, "n"]]
    both = fits[[*keys, n_from]].assign(fit=np.arange(len(fits))).merge(distinct, on=list(keys))
    resolved = both.loc[both["n"] >= both[n_from], "fit"]
    return pd.Series(np.isin(np.arange(len(fits)), resolved), index=fits.index, dtype=bool)


def _refuse_duplicates(table: pd.DataFrame, keys: Sequence[str], name: str) -> None:
    """ValueError naming the first cell (equal ``keys``) that two rows of ``table`` give."""
    repeated = table.duplicated(subset=list(keys), keep=False)
    if repeated.any():
        cell = table.loc[repeated, list(keys)].iloc[0].tolist()
        raise ValueError(
            f"{name} has {int(repeated.sum())} rows for cells that another row gives too (keys {list(keys)}), e.g. "
            f"{cell}: one row per cell"
        )


def replication_line(
    here: pd.DataFrame, full: pd.DataFrame, keys: Sequence[str], share: str, trials: str = "replicates"
) -> str:
    """One sentence comparing two independent runs' shares in their common cells (equal ``keys``): the largest
    two-proportion |z| and how many exceed :data:`REPLICATION_Z` (0.27% of the cells expected by chance). Each table
    is one run (one seed), non-empty, with one row per cell; a cell whose |z| is undefined (a NaN share) counts in
    neither the largest |z| nor the exceedances, and the sentence says how many there are."""
    keys = list(keys)
    seeds = []
    for name, table in (("here", here), ("full", full)):
        check_instance(table, name, pd.DataFrame)
        missing = [c for c in (*keys, share, trials, "seed") if c not in table.columns]
        if missing:
            raise ValueError(f"{name} lacks the columns {missing} (it has {list(table.columns)})")
        if table.empty:  # (it was an IndexError)
            raise ValueError(f"{name} has no rows: no run to compare")
        run_seeds = table["seed"].unique().tolist()
        if len(run_seeds) != 1:  # the first row's seed was taken for the run's
            raise ValueError(f"{name} must be one run's table (one seed), got seeds {sorted(run_seeds)}")
        _refuse_duplicates(table, keys, name)  # (a merge on them counted every pair of rows as a cell)
        seeds.append(int(run_seeds[0]))
    seed_here, seed_full = seeds
    if seed_here == seed_full:
        return "this run is the full profile itself: no independent replication to compare with"
    both = here.merge(full, on=keys, suffixes=("", "_full"))
    if both.empty:
        return f"replication: no cell in common with the full profile (seed {seed_full})"
    z = proportion_z(both[share], both[trials], both[f"{share}_full"], both[f"{trials}_full"]).abs()
    chance = 0.0027 * len(both)
    undefined = int(z.isna().sum())
    if undefined == len(both):
        return (
            f"replication (seed {seed_here} here, {seed_full} in the full profile): {len(both)} cells in common, "
            "none with a defined |z| (NaN shares)"
        )
    return (
        f"replication (seed {seed_here} here, {seed_full} in the full profile): {len(both)} cells in common, "
        f"largest |z| = {z.max():.2f}, |z| > {REPLICATION_Z:g} in {int((z > REPLICATION_Z).sum())} "
        f"(about {chance:.1f} expected by chance)"
        + (f"; {undefined} cells without a defined |z| (NaN shares) left out" if undefined else "")
    )


def trend_agreement(predicted: str, measured: str, flat: str = "flat") -> str:
    """A measured trend against a predicted one: ``agrees``, ``contradicts``, ``unresolved`` (measured ``flat`` or
    ``undefined``) or ``no call`` (no prediction)."""
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


def select(table: pd.DataFrame, **where: Any) -> pd.DataFrame:
    """The rows whose columns equal the given values, sorted by n when there is an n column."""
    mask = np.ones(len(table), dtype=bool)
    for column, value in where.items():
        mask &= (table[column] == value).to_numpy()
    matching = table[mask]
    return matching.sort_values("n", kind="stable") if "n" in matching else matching
