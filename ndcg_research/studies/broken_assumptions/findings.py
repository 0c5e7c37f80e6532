"""The findings of notebook 16: the rules of ``findings.toml`` applied to the tables the notebook writes.

``findings.toml`` (committed before the runs) holds the thresholds and, per finding, its claim, source, rule,
conditions and the templates of its measurement and summary; this module computes the numbers each template
places (``{name}``; ``{T[name]}`` places a threshold) and the verdict its rule gives. :func:`answer` is the
table a reader sees first: one row per finding with its verdict and its one-line measurement.
"""

from __future__ import annotations

import functools
import math
import os
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd
from scipy import stats

__all__ = ["FILE", "TABLES", "Finding", "threshold", "texts", "read_tables", "evaluate", "answer"]

#: The committed claims, rules and thresholds.
FILE = Path(__file__).with_name("findings.toml")
#: The tables the notebook writes (file names in its results folder) by the name the rules use.
TABLES = {
    name: f"16_{name}.csv"
    for name in (
        "sparse_ndcg",
        "sparse_pairs",
        "sparse_ratios",
        "two_feature_ndcg",
        "two_feature_pairs",
        "two_feature_ratios",
        "two_feature_crossings",
        "two_feature_constants",
        "two_feature_rank_bins",
    )
}
#: The slowly varying discounts of the study.
SLOW = ("log2", "logpower(gamma=0.5)", "loglog")


@functools.cache
def _file() -> dict[str, Any]:
    with FILE.open("rb") as handle:
        return tomllib.load(handle)


def threshold(name: str) -> Any:
    """The value of threshold ``name`` of ``findings.toml``.

    Examples
    --------
    >>> threshold("ratio_floor")
    0.9
    """
    return _file()["thresholds"][name]["value"]


def texts() -> dict[str, dict[str, Any]]:
    """The findings' texts by key, in the file's order."""
    return {k: v for k, v in _file().items() if k not in ("design", "thresholds")}


@dataclass(frozen=True)
class Finding:
    """One evaluated finding: its texts filled with the numbers of one run, and its verdict."""

    key: str
    title: str
    claim: str
    source: str
    verdict: str
    measurement: str
    summary: str
    rule: str
    conditions: str
    numbers: Mapping[str, float]


def read_tables(folder: str | os.PathLike[str]) -> dict[str, pd.DataFrame]:
    """The tables of :data:`TABLES` found in ``folder`` (those missing are left out)."""
    from ...simulation.tables import read_table

    folder = Path(folder)
    return {name: read_table(folder / file) for name, file in TABLES.items() if (folder / file).is_file()}


def _chance_allowance(cells: int) -> float:
    """max(1, 3 x the cells expected beyond agreement_z standard errors by chance)."""
    return max(1.0, 3 * 2 * stats.norm.sf(threshold("agreement_z")) * cells)


def _f(value: float, digits: int = 3) -> str:
    if not math.isfinite(value):
        return "n/a"
    return f"{value:.{digits}g}" if abs(value) >= 1e-3 or value == 0 else f"{value:.1e}"


# --------------------------------------------------------------------------- the rules


def _sparse_ndcg_to_one(t: Mapping[str, pd.DataFrame]) -> tuple[str, dict[str, Any], dict[str, float]]:
    table = t["sparse_ndcg"]
    log2 = table[table["discount"] == "log2"]
    n0, n1 = int(log2["n"].min()), int(log2["n"].max())
    random = log2[log2["ranker"] == "random"]
    sparse, control = random[random["kind"] == "sparse"], random[random["kind"] == "control"]
    limits = sparse.groupby("model", sort=False)["limit"].first()
    fails = limits <= 1 - threshold("limit_margin")
    outside = int((sparse["z"].abs() > threshold("agreement_z")).sum())
    checked = outside <= _chance_allowance(len(sparse))
    verdict = "undecided" if not checked else "does not hold" if fails.any() else "consistent with"
    random_loglog = table[(table["discount"] == "loglog") & (table["ranker"] == "random")]
    loglog = random_loglog.groupby("model", sort=False)["limit"].first()
    best = log2[log2["ranker"] == "bayes"].pivot_table(index="model", columns="n", values="mean", sort=False)
    per_model = []
    for label, rows in sparse.groupby("model", sort=False):
        at = rows.set_index("n")
        per_model.append(
            f"{label}: random ranker's exact expected nDCG {_f(at.loc[n0, 'exact'])} at n = {n0}, "
            f"{_f(at.loc[n1, 'exact'])} at n = {n1} (simulated {_f(at.loc[n1, 'mean'])}), limit "
            f"{_f(limits[label], 2)} (under loglog {_f(loglog[label], 2)}); bayes "
            f"{_f(best.loc[label, n0])} -> {_f(best.loc[label, n1])}"
        )
    values = dict(
        per_model="; ".join(per_model),
        control=", ".join(control["model"].unique()),
        control_limit=", ".join(_f(v, 2) for v in control.groupby("model")["limit"].first()),
        better=(
            f"Simulated means of the random ranker within {threshold('agreement_z'):g} standard errors "
            f"of the exact value in {len(sparse) - outside} of {len(sparse)} (model, n) cells"
        ),
        limits=", ".join(f"{k}: {_f(v, 2)}" for k, v in limits.items()),
        agree=f"{len(sparse) - outside} of {len(sparse)} cells",
        n1=n1,
        best_last=", ".join(f"{k} {_f(best.loc[k, n1])}" for k in limits.index),
    )
    return verdict, values, {"largest_limit": float(limits.max()), "outside": float(outside)}


def _ratio_cells(rows: pd.DataFrame) -> str:
    return (
        "; ".join(
            f"{r.model}, {r.first} vs {r.second}: d_log2 {_f(r.d_denominator)}, ratio {r.ratio:.2f} "
            f"[{r.ratio_low:.2f}, {r.ratio_high:.2f}] ({r.call})"
            for r in rows.itertuples()
        )
        or "none"
    )


def _ratio_rule(table: pd.DataFrame, kind: str) -> tuple[str, dict[str, Any], dict[str, float]]:
    top = table[table["n"] == table["n"].max()]
    cells = top[top["kind"] == kind]
    judged = cells[cells["call"] != "not judged"]
    refuted, supported = int((judged["call"] == "refutes").sum()), int((judged["call"] == "supports").sum())
    verdict = "does not hold" if refuted else "holds" if len(judged) and supported == len(judged) else "undecided"
    ratios = judged["ratio"]
    control = top[(top["kind"] == "control") & (top["call"] != "not judged")]["ratio"]
    values = dict(
        control_range=(f"{control.min():.2f} to {control.max():.2f}" if len(control) else "n/a"),
        n=int(top["n"].max()),
        cells=_ratio_cells(cells),
        control=_ratio_cells(top[top["kind"] == "control"]),
        ratio_range=(f"{ratios.min():.2f} to {ratios.max():.2f}" if len(judged) else "n/a"),
        judged=len(judged),
        refuted=refuted,
        supported=supported,
    )
    return (
        verdict,
        values,
        {
            "refuted": float(refuted),
            "supported": float(supported),
            "judged": float(len(judged)),
            "ratio_min": float(ratios.min()) if len(judged) else math.nan,
        },
    )


def _profiles_cross(t: Mapping[str, pd.DataFrame]) -> tuple[str, dict[str, Any], dict[str, float]]:
    crossings, bins = t["two_feature_crossings"], t["two_feature_rank_bins"]
    studied = crossings[crossings["studied"]]
    outside = int(bins["outside"].sum())
    chance = 2 * stats.norm.sf(threshold("agreement_z")) * len(bins)
    verdict = "holds" if len(studied) and outside <= _chance_allowance(len(bins)) else "does not hold"
    values = dict(
        pairs="; ".join(f"{r.first} vs {r.second} at t = {r.depths}" for r in studied.itertuples()) or "none",
        n=int(bins["n"].iloc[0]),
        replicates=int(bins["replicates"].iloc[0]),
        outside=outside,
        bins=len(bins),
        chance=_f(chance, 2),
        count=len(studied),
    )
    return verdict, values, {"studied_pairs": float(len(studied)), "bins_outside": float(outside)}


def _two_feature_ndcg_to_one(t: Mapping[str, pd.DataFrame]) -> tuple[str, dict[str, Any], dict[str, float]]:
    table, constants = t["two_feature_ndcg"], t["two_feature_constants"]
    slow = table[table["discount"].isin(SLOW)]
    n0, n1 = int(slow["n"].min()), int(slow["n"].max())
    first = slow[slow["n"] == n0].set_index(["discount", "ranker"])
    last = slow[slow["n"] == n1].set_index(["discount", "ranker"])
    rises = bool((last["mean"] > first["mean"]).all())
    falls = bool((last["ci_high"] < first["ci_low"]).any())
    finite = bool(constants["c_f"].map(math.isfinite).all())
    verdict = "consistent with" if rises and finite else "does not hold" if falls else "undecided"
    low = last["mean"].idxmin()
    values = dict(
        n0=n0,
        n1=n1,
        rises=rises,
        lowest=f"{_f(last['mean'].min())} ({low[1]}, {low[0]})",
        constants=", ".join(f"{r.ranker} {_f(r.c_f)}" for r in constants.itertuples()),
        p=_f(float(constants["p"].iloc[0])),
    )
    return verdict, values, {"lowest_mean": float(last["mean"].min())}


#: Each finding's rule and the tables it reads.
_Rule = Callable[[Mapping[str, pd.DataFrame]], tuple[str, dict[str, Any], dict[str, float]]]
_RULES: dict[str, tuple[tuple[str, ...], _Rule]] = {
    "sparse-ndcg-to-one": (("sparse_ndcg",), _sparse_ndcg_to_one),
    "sparse-loglog-as-well-as-log2": (("sparse_ratios",), lambda t: _ratio_rule(t["sparse_ratios"], "sparse")),
    "two-feature-profiles-cross": (("two_feature_crossings", "two_feature_rank_bins"), _profiles_cross),
    "two-feature-ndcg-to-one": (("two_feature_ndcg", "two_feature_constants"), _two_feature_ndcg_to_one),
    "two-feature-loglog-as-well-as-log2": (
        ("two_feature_ratios",),
        lambda t: _ratio_rule(t["two_feature_ratios"], "two features"),
    ),
}


class _Thresholds(Mapping[str, Any]):
    def __getitem__(self, name: str) -> Any:
        value = threshold(name)
        return f"{value:g}" if isinstance(value, float) else value

    def __iter__(self):
        return iter(_file()["thresholds"])

    def __len__(self) -> int:
        return len(_file()["thresholds"])


def evaluate(tables: Mapping[str, pd.DataFrame]) -> list[Finding]:
    """Every finding whose tables are all in ``tables``, with its verdict and filled texts."""
    out = []
    for key, text in texts().items():
        needed, rule = _RULES[key]
        if not all(name in tables for name in needed):
            continue
        verdict, values, numbers = rule(tables)
        fill = {**values, "T": _Thresholds()}
        out.append(
            Finding(
                key=key,
                title=text["title"],
                claim=text["claim"],
                source=text["source"],
                verdict=verdict,
                measurement=text["measurement"].format_map(fill),
                summary=text["summary"].format_map(fill),
                rule=text["rule"].format_map(fill),
                conditions=text["conditions"].format_map(fill),
                numbers=numbers,
            )
        )
    return out


def answer(folder: str | os.PathLike[str]) -> pd.DataFrame:
    """The findings evaluated on the tables in ``folder``: one row per finding (its title), its verdict and its
    one-line measurement; one row "(not available)" when no finding's tables are there."""
    found = evaluate(read_tables(folder))
    if not found:
        frame = pd.DataFrame(
            {"Verdict": ["-"], "What the tables show": [f"no tables of notebook 16 in {folder}"]},
            index=pd.Index(["(not available)"], name="Finding"),
        )
        return frame
    return pd.DataFrame(
        {"Verdict": [f.verdict for f in found], "What the tables show": [f.summary for f in found]},
        index=pd.Index([f.title for f in found], name="Finding"),
    )
