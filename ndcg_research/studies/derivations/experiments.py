r"""The numerical checks of notebook 15, one simulation per derivation, as tidy tables: replicate r at list length n of
experiment e draws from ``SeedSequence(seed, spawn_key=(e, n, r))``, whatever the worker or chunk."""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping, Sequence
from itertools import product
from typing import Any

import numpy as np
import pandas as pd
from scipy import special

from ...core import parse_discount
from ...simulation.model import parse_model, parse_ranker, stable_id
from ...simulation.replicates import chunk_bounds, parallel_map, replicate_rng
from ...simulation.scaling import power_law_fit, upper_half
from ...simulation.simulate import ndcg_ratio
from ...stats import wilson_interval
from ...stats._replication import family_confidence, paired_comparison
from . import formulas
from .sampler import Head, JointTop, tail_variance_bound

#: Replicates per chunk of work (a chunk is one task of a worker).
_CHUNK = 250
Pairs = Sequence[Sequence[str]]


def _rankers(pairs: Sequence[Sequence[str]]) -> list[str]:
    return list(dict.fromkeys(str(parse_ranker(r)) for pair in pairs for r in pair))


def _simulate(
    setup: Any, name: str, models: Mapping[str, str], pairs: Pairs, cells: list[tuple], seed: int, n_jobs: int
) -> dict[tuple, np.ndarray]:
    """The replicates of every (model label, n, count, chunk size) cell in chunks (:func:`_replicates`), joined per
    (label, n) in replicate order."""
    items = [(label, n, *bounds) for label, n, count, size in cells for bounds in chunk_bounds(count, size)]
    task = functools.partial(_replicates, setup, name, dict(models), pairs, seed)
    done = dict(parallel_map(task, items, n_jobs=n_jobs))  # in the order the chunks finish
    return {(label, n): np.concatenate([done[i] for i in items if i[:2] == (label, n)]) for label, n, *_ in cells}


def _replicates(setup: Any, name: str, models: Mapping[str, str], pairs: Pairs, seed: int, item: tuple) -> np.ndarray:
    """Replicates ``start:stop`` of one (model, n) cell: ``setup(model, rankers, n)`` gives the sampler and the
    function of one replicate's heads and the pairs' ranker indices that gives its values."""
    label, n, start, stop = item
    rankers = _rankers(pairs)
    sampler, values = setup(models[label], rankers, n)
    experiment = stable_id(f"15:{name}:{parse_model(models[label])}:{','.join(rankers)}")
    index = [(rankers.index(better), rankers.index(worse)) for better, worse in pairs]
    return np.array([values(sampler.draw(replicate_rng(seed, experiment, n, r)), index) for r in range(start, stop)])


def _by_work(n: int) -> int:
    """Replicates per chunk when a replicate costs about n operations: about 2.5 million per chunk."""
    return max(8, min(_CHUNK, 2_500_000 // n))


def _first_order_setup(discounts: Sequence[str], model: str, rankers: list[str], n: int) -> tuple[JointTop, Any]:
    ranks = np.arange(1, n + 1, dtype=np.float64)
    # -ln r, then the discounts, times y_A(r) - y_B(r): T_n = sum_r (y_B(r) - y_A(r)) ln r and the DCG gaps
    weights = np.stack([-np.log(ranks)] + [parse_discount(d)(ranks) for d in discounts])

    def values(head: Head, index: list[tuple[int, int]]) -> np.ndarray:
        return np.array([weights @ (head.grades[a] - head.grades[b]) for a, b in index])

    return JointTop(model, rankers, n, n), values  # top = n: the whole list is drawn


def first_order_check(
    models: Mapping[str, str],
    pairs: Sequence[Sequence[str]],
    discounts: Sequence[str],
    ns: Sequence[int],
    replicates: Sequence[int],
    *,
    seed: int,
    draws: int = 2_000_000,
    n_jobs: int = 1,
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Derivations (a) and (b) on full lists: per (model, pair, statistic, n) the standardized gap of the
    discount-free statistic ``T`` or a discount's DCG gap beside the first-order limit (``gaps``); per (model, pair,
    discount, n) the failures (DCG gap <= 0) beside McDiarmid's bound (``failures``)."""
    cells = [(label, n, count, _by_work(n)) for label in models for n, count in zip(ns, replicates, strict=True)]
    setup = functools.partial(_first_order_setup, discounts)
    values = _simulate(setup, "first_order", models, pairs, cells, seed, n_jobs)
    gap_rows, fail_rows = [], []
    level = family_confidence(len(models) * len(pairs) * len(discounts) * len(ns))
    for label, model in models.items():
        for p, (better, worse) in enumerate(pairs):
            limit = formulas.first_order_limit(model, better, worse, draws=draws, seed=seed)
            for n in ns:
                v = values[(label, n)][:, p, :]
                summary = paired_comparison(v, np.zeros_like(v))
                std_gap, se = summary["std_gap"], summary["std_gap_se"]
                cell = dict(model=label, better=better, worse=worse)
                for s, statistic in enumerate(["T", *discounts]):
                    gap_rows.append(
                        dict(cell, statistic=statistic, n=n, replicates=v.shape[0], std_gap=float(std_gap[s]))
                        | dict(std_gap_se=float(se[s]), std_gap_per_root_n=float(std_gap[s]) / math.sqrt(n))
                        | dict(se_per_root_n=float(se[s]) / math.sqrt(n), limit=limit["limit"])
                        | dict(limit_se=limit["limit_se"], ratio_to_T=float(std_gap[s] / std_gap[0]))
                        | dict(corr_with_T=float(np.corrcoef(v[:, 0], v[:, s])[0, 1]) if s else 1.0)
                        | dict(disagree_with_T=float(np.mean(np.sign(v[:, s]) != np.sign(v[:, 0]))))
                        | dict(p_correct=float(summary["p_better"][s]))
                    )
                for s, discount in enumerate(discounts, start=1):
                    failures = int(np.count_nonzero(v[:, s] <= 0))
                    low, high = wilson_interval(failures, v.shape[0], confidence=level)
                    expected = formulas.expected_dcg_gap(model, better, worse, discount, n)
                    d1, dn = parse_discount(discount)(np.array([1.0, float(n)])).tolist()
                    fail_rows.append(
                        dict(cell, discount=discount, n=n, replicates=v.shape[0], failures=failures)
                        | dict(failure_share=failures / v.shape[0], failure_low=low, failure_high=high)
                        | dict(family_confidence=level, expected_gap=expected)
                        | dict(bound=formulas.mcdiarmid_bound(expected, n, d1, dn))
                        | dict(bound_first_order=formulas.mcdiarmid_first_order(model, better, worse, discount, n))
                    )
    return pd.DataFrame(gap_rows), pd.DataFrame(fail_rows)


def _zipf_setup(top: int, model: str, rankers: list[str], n: int) -> tuple[JointTop, Any]:
    sampler = JointTop(model, rankers, n, min(top, n))
    # 1/r for every rank a head can hold (a head of K ~ Binomial(n, top/n) items stays below 2 top + 64)
    harmonic = 1 / np.arange(1, (n if sampler.full else 2 * sampler.top + 64) + 1, dtype=np.float64)

    def values(head: Head, index: list[tuple[int, int]]) -> list[tuple]:
        """Per pair: the DCG gap and the nDCG gap."""
        heads = zip(head.grades, head.counts, strict=True)
        dcg = [g @ harmonic[: g.size] + sampler.tail_dcg(f, k) for f, (g, k) in enumerate(heads)]
        ideal = float(special.digamma(head.relevant + 1) + np.euler_gamma)  # H_N: N relevant items first
        return [(dcg[a] - dcg[b], (dcg[a] - dcg[b]) / ideal if head.relevant else 0.0) for a, b in index]

    return sampler, values


def zipf_levels(
    models: Mapping[str, str],
    pairs: Sequence[Sequence[str]],
    ns: Sequence[int],
    replicates: int | Mapping[str, int],
    *,
    top: int,
    seed: int,
    n_jobs: int = 1,
) -> pd.DataFrame:
    """Derivation (d): per (model, pair, n) the nDCG gap's standardized gap and P(correct) under 1/r beside their
    finite-n values and limits, and ``bias_bound`` (the tails' replacement, relative). ``replicates``: one count or
    one per model; ``top``: the expected head size."""
    counts = replicates if isinstance(replicates, Mapping) else {label: replicates for label in models}
    # one chunk per 250 replicates: a chunk's sampler keeps the tails it computed (one per head size)
    cells = [(label, n, int(counts[label]), _CHUNK) for label in models for n in ns]
    values = _simulate(functools.partial(_zipf_setup, top), "zipf", models, pairs, cells, seed, n_jobs)
    rows = []
    for (label, model), (p, (better, worse)), n in product(models.items(), enumerate(pairs), ns):
        limit = formulas.zipf_limit(model, better, worse)  # cached
        v = values[(label, n)][:, p, :]
        summary = paired_comparison(v[:, 1], np.zeros(v.shape[0]))
        finite = formulas.zipf_finite(model, better, worse, n)
        full = JointTop(model, _rankers(pairs), n, min(top, n)).full
        var = float(np.var(v[:, 0], ddof=1))
        std_gap, se = float(summary["std_gap"]), float(summary["std_gap_se"])
        excess = (std_gap - limit["std_gap"]) / se if math.isfinite(limit["std_gap"]) else math.nan
        rows.append(
            dict(model=label, hi=parse_model(model).hi, better=better, worse=worse, n=n)
            | dict(replicates=v.shape[0], full=full, std_gap=std_gap, std_gap_se=se)
            | dict(p_correct=float(summary["p_better"]), p_correct_low=float(summary["p_better_low"]))
            | dict(p_correct_high=float(summary["p_better_high"]), p_tie=float(summary["p_tie"]))
            | dict(dcg_gap_mean=float(v[:, 0].mean()))
            | dict(dcg_gap_mean_se=float(v[:, 0].std(ddof=1) / math.sqrt(v.shape[0])), dcg_gap_var=var)
            | dict(mean_gap_exact=finite["mean_gap"], var_ind=finite["var_ind"])
            | dict(std_gap_ind=finite["std_gap_ind"], mu=limit["mu"], var_limit=limit["var"])
            | dict(std_gap_limit=limit["std_gap"], p_correct_limit=limit["p_correct"])
            | dict(bias_bound=0.0 if full else tail_variance_bound(top, top) / (2 * var), excess_in_se=excess)
        )
    return pd.DataFrame(rows)


def cutoff_k(n: int, a: float) -> int:
    """``k = ceil(n^a)`` (exact powers stay exact), at least 1 and at most n."""
    return int(min(max(math.ceil(n**a - 1e-9), 1), n))


def _cutoff_setup(discounts: Sequence[str], a_grid: list[float], model: str, rankers: list[str], n: int) -> Any:
    ks = np.array([cutoff_k(n, a) for a in a_grid])
    k_max = int(ks.max())
    # Heads large enough to hold k_max ranks: K ~ Binomial(n, top/n) falls short of k_max with probability
    # below Phi(-10) ~ 1e-23 (checked below: a shortfall raises instead of biasing the sample).
    top = min(n, k_max + math.ceil(10 * math.sqrt(k_max)) + 20)
    ranks = np.arange(1, k_max + 1, dtype=np.float64)
    weights = [parse_discount(d)(ranks) for d in discounts]
    cumulative_ideal = [np.cumsum(w) for w in weights]

    def values(head: Head, index: list[tuple[int, int]]) -> np.ndarray:
        if min(head.counts) < k_max:
            raise RuntimeError(f"a head of {min(head.counts)} items is shorter than k = {k_max} (n = {n})")
        out = np.empty((len(index), len(weights), ks.size))
        for d, w in enumerate(weights):
            prefix = [np.cumsum(g[:k_max] * w)[ks - 1] for g in head.grades]  # DCG@k of every ranker
            ideal = cumulative_ideal[d][np.minimum(ks, max(head.relevant, 1)) - 1] * (head.relevant > 0)
            for p, (a, b) in enumerate(index):
                out[p, d] = ndcg_ratio(prefix[a] - prefix[b], ideal)
        return out

    return JointTop(model, rankers, n, top), values


def cutoff_grid(
    models: Mapping[str, str],
    pairs: Sequence[Sequence[str]],
    discounts: Sequence[str],
    a_grid: Sequence[float],
    ns: Sequence[int],
    replicates: Sequence[int],
    *,
    seed: int,
    n_jobs: int = 1,
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Derivation (c): the standardized gap of nDCG@n^a on a grid of a (``gaps``), and per a its growth exponent
    fitted over the upper half of the n grid beside the law's at the middle of that range (``exponents``)."""
    work = {n: 3 * cutoff_k(n, max(a_grid)) for n in ns}  # three heads of about k_max items each
    cells = [(label, n, count, _by_work(work[n])) for label in models for n, count in zip(ns, replicates, strict=True)]
    setup = functools.partial(_cutoff_setup, discounts, list(a_grid))
    values = _simulate(setup, "cutoff", models, pairs, cells, seed, n_jobs)
    rows = []
    for label, n in product(models, ns):
        v = values[(label, n)]
        summary = paired_comparison(v, np.zeros_like(v))
        std_gap, se, p_better = (summary[key] for key in ("std_gap", "std_gap_se", "p_better"))
        for (p, (better, worse)), (d, discount), (i, a) in product(
            enumerate(pairs), enumerate(discounts), enumerate(a_grid)
        ):
            row = dict(model=label, discount=discount, better=better, worse=worse, a=a, n=n)
            row |= dict(k=cutoff_k(n, a), replicates=v.shape[0], std_gap=float(std_gap[p, d, i]))
            rows.append(row | dict(std_gap_se=float(se[p, d, i]), p_correct=float(p_better[p, d, i])))
    gaps = pd.DataFrame(rows)
    fits, cell = [], ["model", "discount", "better", "worse", "a"]
    for (label, discount, better, worse, a), g in gaps.groupby(cell, sort=False):
        upper = upper_half(g)
        fitted = (upper[column].to_numpy() for column in ("n", "std_gap", "std_gap_se"))
        e, low, high = power_law_fit(*fitted)
        middle = math.exp(np.log(upper["n"]).mean())
        law = formulas.threshold_law(models[label], better, worse, discount, middle)
        exponent = law["slope"] * (a - law["a_star"])
        fits.append(
            dict(model=label, discount=discount, better=better, worse=worse, a=a, n_from=int(upper["n"].min()))
            | dict(n_to=int(upper["n"].max()), exponent=e, exponent_low=low, exponent_high=high)
            | dict(law_exponent=exponent, law_local_exponent=exponent + law["log_power"] / math.log(middle))
            | dict(a_star=law["a_star"], a_star_n=law["a_star_n"])
        )
    return gaps, pd.DataFrame(fits)
