"""Sweeps over list length, rankers, discounts and replicates, with tidy result tables.

A :class:`Sweep` names one experiment: a model, the rankers, the discounts, the
list lengths ``n`` with the number of replicates at each, the ranker pairs to
compare (better first), the seed and the gain. :func:`run_sweep` computes the
nDCG of every (replicate, ranker, discount) through
:func:`ndcg_research.studies.simulate.replicate_ndcg`:

- work is split into chunks of consecutive replicates of one ``n`` (about
  ``chunk_items`` items per chunk); every replicate draws its numbers from its
  own ``SeedSequence`` (see :mod:`ndcg_research.studies.simulate`), so the values do not
  depend on the chunking, the number of workers or the backend;
- chunks run in parallel through joblib (``n_jobs``; any joblib backend, e.g.
  ``backend="dask"`` with a ``dask.distributed`` client running);
- each finished chunk is saved in ``cache_dir/<sweep key>/`` (one ``.npy``
  file per chunk, written atomically), and a later run with the same
  configuration loads it instead of recomputing, so an interrupted run resumes
  where it stopped (and adding replicates or list lengths only computes the new
  chunks);
- a tqdm progress bar counts replicates (shown in a terminal only, unless
  ``progress`` says otherwise).

:meth:`SweepResult.ranker_rows` and :meth:`SweepResult.pair_rows` turn the values
into tidy tables (lists of dicts, one per (discount, ranker, n) or (discount,
pair, n)); :func:`write_csv` writes them.

This module imports joblib and tqdm; :mod:`ndcg_research` does not import it.
"""

from __future__ import annotations

import contextlib
import csv
import functools
import hashlib
import json
import math
import os
import sys
import tempfile
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from scipy import stats

from . import simulate, theory
from ..core import discounts, gains, kernels, ranking
from ..core.discounts import parse_discount
from .simulate import SIMULATION_VERSION, parse_model, parse_ranker, replicate_ndcg

__all__ = [
    "DEFAULT_DISCOUNTS",
    "DEFAULT_RANKERS",
    "DEFAULT_PAIRS",
    "TIE_TOLERANCE",
    "Sweep",
    "SweepResult",
    "run_sweep",
    "wilson_interval",
    "write_csv",
    "read_csv",
]

#: The discounts of the theory experiments, fastest decay first.
DEFAULT_DISCOUNTS: tuple[str, ...] = (
    "power(beta=2)",
    "geometric(p=0.5)",
    "zipf",
    "power(beta=0.5)",
    "log2",
    "logpower(gamma=0.5)",
    "loglog",
    "none",
)
#: Rankers in their order of quality (coarse is only known to be below bayes).
DEFAULT_RANKERS: tuple[str, ...] = ("bayes", "noisy(sigma=0.5)", "noisy(sigma=1)", "coarse(bins=4)", "random")
#: Pairs compared in the distinguishability tables: (better, worse) by construction.
DEFAULT_PAIRS: tuple[tuple[str, str], ...] = (
    ("bayes", "noisy(sigma=0.5)"),
    ("noisy(sigma=0.5)", "noisy(sigma=1)"),
    ("bayes", "coarse(bins=4)"),
    ("noisy(sigma=1)", "random"),
)
#: Two nDCG values closer than this (absolute; nDCG is in [0, 1]) count as a tie.
TIE_TOLERANCE = 1e-12
#: Default number of items per chunk of work (replicates x n).
CHUNK_ITEMS = 2_000_000


def _positive_int(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
        raise ValueError(f"{what} must be a positive integer, got {value!r}")
    return int(value)


def _seed(value: Any) -> int:
    """The entropy of a sweep's seeds: a non-negative integer."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 0:
        raise ValueError(f"seed must be a non-negative integer, got {value!r}")
    return int(value)


def _distinct_specs(what: str, specs: Iterable[str]) -> tuple[str, ...]:
    """Canonical specs as a tuple, which must be non-empty and without repeats (``what``: "rankers", ...)."""
    specs = tuple(specs)
    if not specs or len(set(specs)) != len(specs):
        raise ValueError(f"{what} must be a non-empty list of distinct {what}, got {list(specs)!r}")
    return specs


def _check_pairs(pairs: Iterable[Sequence[str]], rankers: Sequence[str]) -> tuple[tuple[str, str], ...]:
    """Canonical (better, worse) ranker pairs, both among the canonical ``rankers``."""
    out = []
    for pair in pairs:
        if isinstance(pair, str) or len(pair) != 2:
            raise ValueError(f"pairs: each pair must be (better, worse), got {pair!r}")
        better, worse = (str(parse_ranker(r)) for r in pair)
        for r in (better, worse):
            if r not in rankers:
                raise ValueError(f"pairs: ranker {r!r} of pair {pair!r} is not among rankers {list(rankers)}")
        out.append((better, worse))
    return tuple(out)


@dataclass(frozen=True)
class Sweep:
    """One experiment: model, rankers, discounts, list lengths with replicates, pairs, seed, gain.

    Build it with :meth:`Sweep.build`, which checks and canonicalises every spec.

    Examples
    --------
    >>> s = Sweep.build("probit", ns=[100, 1000], replicates=50, seed=1)
    >>> s.replicates, s.discounts[:2]
    ((50, 50), ('power(beta=2)', 'geometric(p=0.5)'))
    """

    model: str
    ns: tuple[int, ...]
    replicates: tuple[int, ...]
    rankers: tuple[str, ...]
    discounts: tuple[str, ...]
    pairs: tuple[tuple[str, str], ...]
    seed: int
    gain: str = "linear"

    @classmethod
    def build(
        cls,
        model: str,
        *,
        ns: Iterable[int],
        replicates: int | Sequence[int] | Mapping[int, int],
        seed: int,
        rankers: Iterable[str] = DEFAULT_RANKERS,
        discounts: Iterable[str] = DEFAULT_DISCOUNTS,
        pairs: Iterable[Sequence[str]] = DEFAULT_PAIRS,
        gain: str = "linear",
    ) -> Sweep:
        """Check and canonicalise a sweep.

        Parameters
        ----------
        model : str
            Model spec, e.g. ``"probit(lo=0.1, hi=0.6)"``.
        ns : iterable of int
            List lengths (distinct, >= 1); sorted.
        replicates : int, sequence or mapping
            Replicates per n: one number for all, one per n (same order as ``ns``),
            or a mapping ``{n: replicates}`` covering every n.
        seed : int
            Entropy of every replicate's ``SeedSequence``.
        rankers, discounts : iterable of str
            Specs (see :mod:`ndcg_research.studies.simulate` and :mod:`ndcg_research.core.discounts`).
        pairs : iterable of (str, str)
            Ranker pairs (better, worse), both among ``rankers``.
        gain : str
            Built-in gain spec.
        """
        model_spec = str(parse_model(model))
        ns_list = [_positive_int(n, "every n") for n in ns]
        if not ns_list or len(set(ns_list)) != len(ns_list):
            raise ValueError(f"ns must be a non-empty list of distinct list lengths, got {list(ns)!r}")
        if isinstance(replicates, Mapping):
            missing = [n for n in ns_list if n not in replicates]
            if missing:
                raise ValueError(f"replicates gives no count for n = {missing}")
            reps = [replicates[n] for n in ns_list]
        elif isinstance(replicates, (int, np.integer)) and not isinstance(replicates, bool):
            reps = [replicates] * len(ns_list)
        else:
            reps = list(replicates)
            if len(reps) != len(ns_list):
                raise ValueError(f"replicates must give one count per n ({len(ns_list)}), got {reps!r}")
        reps = [_positive_int(r, "replicates") for r in reps]
        pairs_sorted = sorted(zip(ns_list, reps))
        ranker_specs = _distinct_specs("rankers", (str(parse_ranker(r)) for r in rankers))
        discount_specs = _distinct_specs("discounts", (str(parse_discount(d)) for d in discounts))
        pair_specs = _check_pairs(pairs, ranker_specs)
        return cls(
            model=model_spec,
            ns=tuple(n for n, _ in pairs_sorted),
            replicates=tuple(r for _, r in pairs_sorted),
            rankers=ranker_specs,
            discounts=discount_specs,
            pairs=pair_specs,
            seed=_seed(seed),
            gain=str(theory._builtin_gain(gain)),
        )

    def key(self) -> str:
        """Hash of everything that fixes a replicate's values (not ``ns``, ``replicates`` or ``pairs``)."""
        spec = {
            "model": self.model,
            "rankers": list(self.rankers),
            "discounts": list(self.discounts),
            "gain": self.gain,
            "seed": self.seed,
            "simulation_version": SIMULATION_VERSION,
            "code": _code_fingerprint(),
        }
        return hashlib.sha256(json.dumps(spec, sort_keys=True).encode()).hexdigest()[:16]

    def chunks(self, chunk_items: int = CHUNK_ITEMS) -> list[tuple[int, int, int]]:
        """Work units ``(n, start, stop)``: replicates ``start..stop-1`` of list length n.

        Chunk boundaries are multiples of ``max(1, chunk_items // n)``, so they do not
        move when replicates are added (finished chunks stay reusable).
        """
        out = []
        for n, reps in zip(self.ns, self.replicates):
            size = max(1, chunk_items // n)
            out.extend((n, start, min(start + size, reps)) for start in range(0, reps, size))
        return out


def _compute_chunk(model: str, rankers: tuple[str, ...], discounts: tuple[str, ...], gain: str, seed: int,
                   n: int, start: int, stop: int) -> np.ndarray:
    """nDCG values of replicates start..stop-1: shape (stop - start, rankers, discounts)."""
    try:  # one BLAS thread: the dot products are memory-bound, and idle BLAS threads stall on busy cores
        from threadpoolctl import threadpool_limits
        limit = threadpool_limits(1, user_api="blas")
    except ImportError:  # pragma: no cover - threadpoolctl is optional (speed only)
        limit = contextlib.nullcontext()
    with limit:
        return np.stack([
            replicate_ndcg(model, rankers, discounts, n, entropy=seed, replicate=r, gain=gain)
            for r in range(start, stop)  # loop over replicates (data sets)
        ])


def _chunk_path(folder: Path, n: int, start: int, stop: int) -> Path:
    return folder / f"n{n}_r{start}-{stop}.npy"


def _save_atomically(path: Path, values: np.ndarray) -> None:
    fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            np.save(handle, values)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


@dataclass
class SweepResult:
    """nDCG values of a sweep: ``values[n]`` has shape (replicates, rankers, discounts).

    Attributes
    ----------
    sweep : Sweep
    values : dict of int to numpy.ndarray
    computed_chunks, reused_chunks : int
        Chunks computed in this run and loaded from the cache.
    """

    sweep: Sweep
    values: dict[int, np.ndarray]
    computed_chunks: int = 0
    reused_chunks: int = 0
    tie_tol: float = field(default=TIE_TOLERANCE)

    def ndcg(self, ranker: str, discount: str, n: int) -> np.ndarray:
        """The nDCG of one ranker under one discount in every replicate at list length n."""
        s = self.sweep
        return self.values[n][:, s.rankers.index(str(parse_ranker(ranker))),
                              s.discounts.index(str(parse_discount(discount)))]

    def ranker_rows(self) -> list[dict[str, Any]]:
        """One row per (discount, ranker, n): mean nDCG with a 95% t-interval, and its sd.

        Columns: model, discount, decay, ranker, n, replicates, mean, sd, ci_low, ci_high.
        """
        s = self.sweep
        rows = []
        for j, d in enumerate(s.discounts):
            decay = parse_discount(d).decay
            for i, r in enumerate(s.rankers):
                for n in s.ns:
                    v = self.values[n][:, i, j]
                    mean, sd, half = _mean_interval(v)
                    rows.append(dict(model=s.model, discount=d, decay=decay, ranker=r, n=n, replicates=v.size,
                                     mean=mean, sd=sd, ci_low=mean - half, ci_high=mean + half))
        return rows

    def pair_rows(self) -> list[dict[str, Any]]:
        """One row per (discount, pair, n): the paired gap better - worse on the same data sets.

        Columns: model, discount, decay, better, worse, n, replicates, mean_gap, sd_gap,
        gap_ci_low, gap_ci_high (95% t-interval), p_better (share of data sets where the
        better ranker scores strictly higher, by more than ``tie_tol``) with its Wilson 95%
        interval p_better_low, p_better_high; p_tie (equal within ``tie_tol``), p_worse;
        std_gap = mean_gap / sd_gap (NaN when sd_gap = 0); eps = eps_D(n).
        """
        s = self.sweep
        rows = []
        for j, d in enumerate(s.discounts):
            discount = parse_discount(d)
            for better, worse in s.pairs:
                i, k = s.rankers.index(better), s.rankers.index(worse)
                for n in s.ns:
                    gap = self.values[n][:, i, j] - self.values[n][:, k, j]
                    R = gap.size
                    mean, sd, half = _mean_interval(gap)
                    wins = int(np.count_nonzero(gap > self.tie_tol))
                    losses = int(np.count_nonzero(gap < -self.tie_tol))
                    low, high = wilson_interval(wins, R)
                    rows.append(dict(
                        model=s.model, discount=d, decay=discount.decay, better=better, worse=worse, n=n,
                        replicates=R, mean_gap=mean, sd_gap=sd, gap_ci_low=mean - half, gap_ci_high=mean + half,
                        p_better=wins / R, p_better_low=low, p_better_high=high, p_tie=(R - wins - losses) / R,
                        p_worse=losses / R, std_gap=mean / sd if sd > 0 else math.nan,
                        eps=float(theory.eps(discount, float(n))),
                    ))
        return rows


def _mean_interval(v: np.ndarray) -> tuple[float, float, float]:
    """Mean, sd (ddof 1) and the half-width of the 95% t-interval of the mean (NaN for one value)."""
    mean = float(v.mean())
    if v.size < 2:
        return mean, math.nan, math.nan
    sd = float(v.std(ddof=1))
    return mean, sd, float(stats.t.ppf(0.975, v.size - 1) * sd / math.sqrt(v.size))


@functools.cache
def _code_fingerprint() -> str:
    """Hash of the source of the modules that compute a replicate.

    Part of the cache key, so that chunks cached by other code (an edited kernel,
    a changed simulation) are recomputed rather than reused without notice.
    """
    digest = hashlib.sha256()
    for module in (simulate, kernels, ranking, discounts, gains):
        digest.update(Path(module.__file__).read_bytes())
    return digest.hexdigest()[:16]


def wilson_interval(successes: int, trials: int, z: float = 1.959963984540054) -> tuple[float, float]:
    r"""Wilson score interval for a binomial proportion (95% by default).

    .. math:: \frac{\hat p + z^2/2m \pm z \sqrt{\hat p(1-\hat p)/m + z^2/4m^2}}{1 + z^2/m}

    Examples
    --------
    >>> [round(x, 4) for x in wilson_interval(10, 10)]
    [0.7225, 1.0]
    """
    for name, value in (("successes", successes), ("trials", trials)):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
            raise TypeError(f"{name} must be an integer count, got {value!r}")
    if trials < 1 or not 0 <= successes <= trials:
        raise ValueError(f"need 0 <= successes <= trials and trials >= 1, got {successes!r} of {trials!r}")
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == trials else min(1.0, centre + half)
    return min(low, p), max(high, p)  # guard against rounding at the ends


def run_sweep(
    sweep: Sweep,
    *,
    n_jobs: int = 1,
    backend: str | None = None,
    cache_dir: str | os.PathLike[str] | None = None,
    progress: bool | None = None,
    chunk_items: int = CHUNK_ITEMS,
) -> SweepResult:
    """Compute (or load from the cache) every chunk of a sweep.

    Parameters
    ----------
    sweep : Sweep
    n_jobs : int
        joblib workers (1: run in this process; -1: all cores).
    backend : str, optional
        joblib backend, e.g. ``"loky"`` (default for n_jobs != 1) or ``"dask"``
        (needs a running ``dask.distributed.Client``).
    cache_dir : path, optional
        Folder of finished chunks; ``None`` disables caching.
    progress : bool, optional
        Show a tqdm bar; default: only when stderr is a terminal.
    chunk_items : int
        Target number of items (replicates x n) per chunk.

    Returns
    -------
    SweepResult

    Examples
    --------
    >>> s = Sweep.build("probit", ns=[50], replicates=4, seed=0, rankers=["bayes", "random"],
    ...                 discounts=["log2"], pairs=[("bayes", "random")])
    >>> r = run_sweep(s)
    >>> r.values[50].shape, r.computed_chunks
    ((4, 2, 1), 1)
    """
    if not isinstance(sweep, Sweep):
        raise TypeError(f"sweep must be a Sweep (see Sweep.build), got {type(sweep).__name__}")
    if isinstance(n_jobs, bool) or not isinstance(n_jobs, int) or n_jobs == 0:
        raise ValueError(f"n_jobs must be a non-zero integer, got {n_jobs!r}")
    chunk_items = _positive_int(chunk_items, "chunk_items")
    chunks = sweep.chunks(chunk_items)
    folder = None
    if cache_dir is not None:
        folder = Path(cache_dir) / sweep.key()
        folder.mkdir(parents=True, exist_ok=True)
        description = folder / "sweep.json"
        if not description.exists():
            spec = {k: getattr(sweep, k) for k in ("model", "rankers", "discounts", "gain", "seed")}
            description.write_text(json.dumps({**spec, "simulation_version": SIMULATION_VERSION}, indent=1))
    done: dict[tuple[int, int, int], np.ndarray] = {}
    todo = []
    for chunk in chunks:
        path = None if folder is None else _chunk_path(folder, *chunk)
        if path is not None and path.exists():
            done[chunk] = np.load(path)
        else:
            todo.append(chunk)
    reused = len(done)

    from tqdm import tqdm

    show = sys.stderr.isatty() if progress is None else bool(progress)
    total = sum(sweep.replicates)
    with tqdm(total=total, initial=sum(stop - start for _, start, stop in done), disable=not show,
              desc=f"{sweep.model}", unit="rep", leave=False) as bar:
        for chunk, values in _execute(sweep, todo, n_jobs, backend):
            if folder is not None:
                _save_atomically(_chunk_path(folder, *chunk), values)
            done[chunk] = values
            bar.update(chunk[2] - chunk[1])
    values = {n: np.concatenate([done[c] for c in chunks if c[0] == n]) for n in sweep.ns}
    return SweepResult(sweep, values, computed_chunks=len(todo), reused_chunks=reused)


def _execute(sweep: Sweep, todo: list[tuple[int, int, int]], n_jobs: int,
             backend: str | None) -> Iterator[tuple[tuple[int, int, int], np.ndarray]]:
    """Yield (chunk, values) as chunks finish, in this process or through joblib."""
    args = (sweep.model, sweep.rankers, sweep.discounts, sweep.gain, sweep.seed)
    if n_jobs == 1 and backend is None:
        for chunk in todo:
            yield chunk, _compute_chunk(*args, *chunk)
        return
    import joblib

    config = joblib.parallel_config(backend=backend) if backend is not None else contextlib.nullcontext()
    with config:
        parallel = joblib.Parallel(n_jobs=n_jobs, return_as="generator_unordered")
        yield from parallel(joblib.delayed(_chunk_task)(args, chunk) for chunk in todo)


def _chunk_task(args: tuple[Any, ...], chunk: tuple[int, int, int]) -> tuple[tuple[int, int, int], np.ndarray]:
    return chunk, _compute_chunk(*args, *chunk)


# --------------------------------------------------------------------------- CSV


def write_csv(rows: Sequence[Mapping[str, Any]], path: str | os.PathLike[str]) -> Path:
    """Write rows (dicts with the same keys) as CSV; floats with 10 significant digits.

    Examples
    --------
    >>> import tempfile, os
    >>> p = write_csv([{"n": 10, "mean": 1 / 3}], os.path.join(tempfile.mkdtemp(), "t.csv"))
    >>> p.read_text().splitlines()
    ['n,mean', '10,0.3333333333']
    """
    if not rows:
        raise ValueError("rows must not be empty")
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    keys = list(rows[0])
    with open(path, "w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=keys)
        writer.writeheader()
        for row in rows:
            writer.writerow({k: f"{v:.10g}" if isinstance(v, float) else v for k, v in row.items()})
    return path


def read_csv(path: str | os.PathLike[str]) -> list[dict[str, Any]]:
    """Read a table written by :func:`write_csv`, turning numeric fields back into int or float.

    Examples
    --------
    >>> import tempfile, os
    >>> p = write_csv([{"ranker": "bayes", "n": 10, "mean": 1 / 3}], os.path.join(tempfile.mkdtemp(), "t.csv"))
    >>> read_csv(p)
    [{'ranker': 'bayes', 'n': 10, 'mean': 0.3333333333}]
    """
    def convert(text: str) -> Any:
        for kind in (int, float):
            try:
                return kind(text)
            except ValueError:
                pass
        return text

    with open(path, newline="") as handle:
        return [{k: convert(v) for k, v in row.items()} for row in csv.DictReader(handle)]


# --------------------------------------------------------------------------- theory vs simulation


def compare_with_theory(ranker_rows: Sequence[Mapping[str, Any]],
                        theory_rows: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Join simulated means with :func:`ndcg_research.studies.theory.theory_rows` on (discount, ranker, n).

    For slowly varying discounts the compared quantity is ``1 - nDCG`` (what
    ``eps_D(n) c_f`` predicts); otherwise nDCG itself. Relative errors are
    ``(theory - simulation) / simulation`` of that quantity.

    Returns
    -------
    list of dict
        Columns: model, discount, decay, ranker, n, replicates, quantity ("1 - nDCG" or
        "nDCG"), simulated, ci_half, first_order, finite_n, limit, rel_err_first_order,
        rel_err_finite_n, finite_n_in_ci (the finite-n theory inside the 95% interval).
    """
    theory_index = {(t["discount"], t["ranker"], t["n"]): t for t in theory_rows}
    out = []
    for row in ranker_rows:
        t = theory_index.get((row["discount"], row["ranker"], row["n"]))
        if t is None:
            continue
        slow = row["decay"] == "slowly varying"
        flip = (lambda v: 1 - v) if slow else (lambda v: v)
        simulated = flip(row["mean"])
        half = (row["ci_high"] - row["ci_low"]) / 2

        def rel(value: float) -> float:
            if math.isnan(value) or simulated == 0:
                return math.nan
            return (value - simulated) / simulated

        first = t["first_order"] if not slow else t["eps"] * t["c"]
        finite = flip(t["finite_n"])
        out.append(dict(
            model=row["model"], discount=row["discount"], decay=row["decay"], ranker=row["ranker"], n=row["n"],
            replicates=row["replicates"], quantity="1 - nDCG" if slow else "nDCG", simulated=simulated,
            ci_half=half, first_order=first, finite_n=finite, limit=flip(t["limit"]),
            rel_err_first_order=rel(first), rel_err_finite_n=rel(finite),
            finite_n_in_ci=bool(abs(t["finite_n"] - row["mean"]) <= half) if not math.isnan(half) else False,
        ))
    return out


def compare_pairs_with_theory(pair_rows: Sequence[Mapping[str, Any]],
                              theory_rows: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Mean gaps next to their theory: finite-n ``E nDCG(better) - E nDCG(worse)`` and, for slowly
    varying discounts, ``eps_D(n) (c_worse - c_better)``; plus the gap rescaled by ``eps_D(n)``."""
    theory_index = {(t["discount"], t["ranker"], t["n"]): t for t in theory_rows}
    out = []
    for row in pair_rows:
        b = theory_index.get((row["discount"], row["better"], row["n"]))
        w = theory_index.get((row["discount"], row["worse"], row["n"]))
        if b is None or w is None:
            continue
        slow = row["decay"] == "slowly varying"
        eps_n = row["eps"]
        out.append(dict(
            model=row["model"], discount=row["discount"], decay=row["decay"], better=row["better"],
            worse=row["worse"], n=row["n"], mean_gap=row["mean_gap"], gap_ci_half=(row["gap_ci_high"] - row["gap_ci_low"]) / 2,
            finite_n_gap=b["finite_n"] - w["finite_n"],
            first_order_gap=eps_n * (w["c"] - b["c"]) if slow else math.nan,
            gap_over_eps=row["mean_gap"] / eps_n if slow else math.nan,
            c_difference=w["c"] - b["c"] if slow else math.nan,
        ))
    return out
