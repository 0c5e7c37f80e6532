"""nDCG@k on the simulated ranking problems (ranking and ideal cut at k, as trec_eval's ``ndcg_cut.k``), k tied to n
by a cut-off rule (:func:`parse_cutoff`, notebook 05); a :class:`CutoffSweep` is a :class:`~.sweeps.Sweep` with the
rules as one more axis, on the same data sets.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from .._validation import check_array, check_int, check_option, check_real
from ..core import _kernels as kernels
from ..core import format_call, parse_registered
from ..core._ranking import top_order
from .model import Ranker, check_items, parse_ranker, spec_list
from .replicates import Chunk
from .simulate import ndcg_ratio, parse_specs, sample
from .sweeps import Sweep, distinct_specs

_RULES = {"fixed": ("k",), "power": ("a",), "fraction": ("c",), "all": ()}
_DOMAIN = {"fixed": "k >= 1", "power": "0 < a < 1", "fraction": "0 < c <= 1", "all": "no value"}


@dataclass(frozen=True)
class CutoffRule:
    """How the cut-off k follows the list length n; build it with :func:`parse_cutoff`."""

    kind: str
    value: float = 0.0

    def __post_init__(self) -> None:
        # Built directly too (not only by parse_cutoff): the rules' domain, a cut-off outside it would not be one;
        # fixed's k counts ranks: an integer (not 2.5, 2.0 or True).
        param = next(iter(_RULES[check_option(self.kind, "cut-off rule kind", _RULES)]), "value")
        (check_int if self.kind == "fixed" else check_real)(self.value, f"cut-off rule {self.kind!r} parameter {param}")
        if not {"fixed": self.value >= 1, "power": 0 < self.value < 1, "fraction": 0 < self.value <= 1}.get(
            self.kind, self.value == 0
        ):
            raise ValueError(f"cut-off rule {self.kind!r} needs {_DOMAIN[self.kind]}, got {self.value!r}")

    def k(self, n: int) -> int:
        """The cut-off for a list of n items (between 1 and n), n an integer >= 1."""
        n = check_int(n, "n", low=1)
        if self.kind == "fixed":
            k = int(self.value)
        elif self.kind == "power":
            # The small slack keeps exact powers exact (1e4 ** 0.5 = 100, not 101).
            k = math.ceil(n**self.value - 1e-9)
        elif self.kind == "fraction":
            k = math.ceil(self.value * n - 1e-9)
        else:
            k = n
        return int(min(max(k, 1), n))

    @property
    def exponent(self) -> float:
        """The a of ``k ~ n^a``: 0 for a fixed k, a for ``power(a)``, 1 for a fraction of n or the whole list."""
        return {"fixed": 0.0, "power": float(self.value)}.get(self.kind, 1.0)

    def __str__(self) -> str:
        value = int(self.value) if self.kind == "fixed" else self.value
        return format_call(self.kind, {name: value for name in _RULES[self.kind]})

    def __repr__(self) -> str:
        return f"parse_cutoff({str(self)!r})"


def parse_cutoff(spec: str | CutoffRule) -> CutoffRule:
    """Parse a cut-off rule: ``fixed(k=K)``, ``power(a=A)`` (0 < A < 1), ``fraction(c=C)`` (0 < C <= 1), ``all``."""
    if isinstance(spec, CutoffRule):
        return spec
    name, kwargs = parse_registered(
        spec, _RULES, what="cut-off rule", valid="valid rules: fixed(k), power(a), fraction(c), all"
    )
    return CutoffRule(name, next(iter(kwargs.values()), 0.0))  # "all" has none; checked by CutoffRule itself


def _tie_free(rankers: Iterable[Ranker]) -> list[Ranker]:
    rankers = list(rankers)
    if coarse := [str(r) for r in rankers if r.kind == "coarse"]:
        raise ValueError(
            f"rankers: {coarse[0]!r} ties items within bins; nDCG@k here needs tie-free rankers (bayes, noisy, random)"
        )
    return rankers


def replicate_ndcg_at_k(
    model: str,
    rankers: Sequence[str],
    discounts: Sequence[str],
    n: int,
    ks: Sequence[int],
    *,
    seed: int,
    replicate: int,
    gain: str = "linear",
) -> np.ndarray:
    """nDCG@k of every tie-free ranker, discount and cut-off on the data set of :func:`~.simulate.sample`: shape
    (rankers, discounts, ks), 0 where the ideal is 0 (n at most :data:`~.model.MAX_ITEMS`). One partial sort of the
    top ``max(ks)`` items per ranker."""
    model_obj, ranker_objs, discount_fns, gain_fn = parse_specs(model, rankers, discounts, gain)
    _tie_free(ranker_objs)
    n = check_items(n)  # the data set holds n-long arrays
    ks = check_array(ks, "ks", ndim=1, kinds="iu", low=1, high=n, min_size=1).tolist()  # every k in 1..n
    s = sample(model_obj, ranker_objs, n, seed=seed, replicate=replicate)
    # The core's kernels, not its checked metric functions: the grades and gains are this function's own,
    # and the checks would cost more than the cut sums themselves (one per discount and k).
    grades = s.grades.astype(np.int8)[None, :]  # integer grades 0..G: 1-byte int8 sorts fastest
    idcg = np.array([[kernels.ideal_dcg(grades, gain_fn, d, k, name="grades")[0] for k in ks] for d in discount_fns])
    gains = gain_fn(s.grades)
    out = np.empty((len(ranker_objs), len(discount_fns), len(ks)))
    for i, ranker in enumerate(ranker_objs):  # loop over rankers
        ranked = gains[top_order(s.scores[str(ranker)], max(ks))][None, :]
        dcg = np.array([[kernels.ranked_dcg(ranked, d, k)[0] for k in ks] for d in discount_fns])
        out[i] = ndcg_ratio(dcg, idcg)
    return out


@dataclass(frozen=True)
class CutoffSweep(Sweep):
    """A :class:`~.sweeps.Sweep` with cut-off rules: values of shape (replicates, rankers, discounts, rules)."""

    rules: tuple[str, ...] = ("all",)

    @classmethod
    def build(
        cls,
        model: str,
        *,
        rules: Iterable[str] = ("fixed(k=10)", "power(a=0.5)", "fraction(c=0.1)", "all"),
        rankers: Iterable[str] = ("bayes", "noisy(sigma=0.5)", "noisy(sigma=1)", "random"),
        discounts: Iterable[str] = ("power(beta=2)", "zipf", "log2", "loglog"),
        pairs: Iterable[Sequence[str]] = (("bayes", "noisy(sigma=0.5)"), ("bayes", "noisy(sigma=1)")),
        **common: Any,
    ) -> CutoffSweep:
        """Check and canonicalise a sweep: cut-off ``rules``, tie-free rankers and :meth:`Sweep.build`'s arguments."""
        rankers = [str(r) for r in _tie_free(parse_ranker(r) for r in spec_list(rankers, "rankers"))]
        rule_specs = distinct_specs("rules", (str(parse_cutoff(r)) for r in spec_list(rules, "rules")))
        return super().build(model, rankers=rankers, discounts=discounts, pairs=pairs, rules=rule_specs, **common)

    def axes(self) -> dict[str, tuple[str, ...]]:
        """Rankers, discounts and rules: the axes of one replicate's values."""
        return {**super().axes(), "rule": self.rules}

    def canonical(self, axis: str, label: str) -> str:
        """The canonical spelling of a ranker, discount or rule."""
        return str(parse_cutoff(label)) if axis == "rule" else super().canonical(axis, label)

    def ks(self, n: int) -> list[int]:
        """The cut-off of every rule at list length n."""
        return [parse_cutoff(r).k(n) for r in self.rules]

    def compute_chunk(self, chunk: Chunk) -> np.ndarray:
        """nDCG@k of the replicates of ``chunk``: shape (replicates, rankers, discounts, rules)."""
        args = (self.model, self.rankers, self.discounts, chunk.n, self.ks(chunk.n))
        replicates = range(chunk.start, chunk.stop)
        return np.stack([replicate_ndcg_at_k(*args, seed=self.seed, replicate=r, gain=self.gain) for r in replicates])

    def annotate(self, table: pd.DataFrame) -> pd.DataFrame:
        """The columns of :meth:`Sweep.annotate`, plus the cut-off ``k`` of the rule at n."""
        table = super().annotate(table)
        k = [parse_cutoff(r).k(n) for r, n in zip(table["rule"], table["n"], strict=True)]
        table.insert(table.columns.get_loc("n") + 1, "k", k)
        return table
