"""``advise``: measure candidate nDCG settings on the user's own collection and recommend one, by a fixed rule."""

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from .._validation import MAX_RESAMPLES, check_instance, check_int, check_real, check_resamples
from ..core import parse_discount, parse_gain
from ..evaluation import get_convention, parse_measures
from ..stats import TIE_TOLERANCE, run_matrices
from . import _measurements as measure

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.figure import Figure


#: The candidate discounts: trec_eval's log2, a slower one (loglog), a faster power law, Zipf's 1/r, and the geometric
#: discount of rank-biased precision with the persistence most often reported (p = 0.8).
DISCOUNTS: tuple[str, ...] = ("log2", "loglog", "power(beta=0.5)", "zipf", "geometric(p=0.8)")
#: The candidate cut-offs (None: the whole ranking).
CUTOFFS: tuple[int | None, ...] = (None, 10, 20, 100)
#: The candidate gains: the grade itself, and 2^grade - 1 (Burges et al. 2005).
GAINS: tuple[str, ...] = ("linear", "exp2")
#: The reference discount: the agreement of the systems' order is measured against it, and the rule prefers it.
REFERENCE = "log2"
#: Candidates whose discriminative power is within this share of pairs of the highest are "as discriminative".
POWER_MARGIN = 0.05
#: log2 is kept when its dependability is within this of the chosen candidate's (and it is as discriminative).
PHI_MARGIN = 0.01

_WORDS = {
    "log2": "1/log2(r+1), trec_eval's",
    "loglog": "1/log2(1+log2(1+r)), slower than log2",
    "power(beta=0.5)": "r^-0.5",
    "zipf": "1/r",
    "geometric(p=0.8)": "0.8^(r-1), rank-biased precision's",
    "linear": "the grade",
    "exp2": "2^grade - 1",
}


@dataclass(frozen=True, eq=False)
class Advice:
    """What ``advise`` measured and recommends.

    Attributes
    ----------
    recommended : str
        The measure spec of the recommended setting (``ndcg@10(gain=exp2,discount=zipf)``): pass it to
        ``nr.evaluate`` or ``nr.ir_measure``. Never a setting under which every run has
        the same value on every query.
    table : pandas.DataFrame
        One row per candidate, in the order of the candidates: ``measure``, ``discount``, ``cutoff`` (``"none"``: no
        cut-off, the whole ranking or the convention's truncation, as xgboost's 32, a note says), ``gain``, ``power``
        (share of system pairs told apart), ``pairs_significant``, ``phi``
        (dependability), ``erho2`` (generalizability coefficient), ``queries_for_phi`` (queries for Phi =
        0.8), ``swap_rate`` (at the largest query-set size measured), ``queries_for_swap_target`` (at least the
        smallest size measured: a fit crossing before it gives that size), ``tau_log2``
        (Kendall's tau of the systems' order against log2's with the same gain and cut-off), ``shortlisted`` (as
        discriminative as the most, see the rule) and ``recommended``. Undefined values are NaN (``erho2`` and
        ``tau_log2`` of 0 / 0; ``phi`` and ``queries_for_phi`` where no value varies; ``queries_for_swap_target`` of a
        candidate that orders no pair); a query count no number of queries reaches is infinite.
    swap_curves : pandas.DataFrame
        ``measure``, ``size``, ``swap_rate``: each candidate's swap rate at each query-set size.
    reasons : tuple of str
        The recommendation's reasons, in plain words (``str(advice)`` prints them).
    by_cutoff : dict of str to str
        The rule applied among the candidates of each cut-off (``"none"``, ``"10"``, ...); a cut-off under whose every
        candidate the runs tie on every query is left out (a note says so). Its margin counts from that cut-off's own
        highest power, so at the recommended setting's cut-off it may name another setting than ``recommended``.
    systems : tuple of str
        The runs compared.
    n_queries : int
        The queries every run was compared on.
    notes : tuple of str
        What the evaluation left out or decided (queries missing, ...).
    settings : dict
        alpha, target_swap_rate, n_resamples, swap_trials, seed, convention.
    """

    recommended: str
    table: "pd.DataFrame"
    swap_curves: "pd.DataFrame"
    reasons: tuple[str, ...]
    by_cutoff: dict[str, str]
    systems: tuple[str, ...]
    n_queries: int
    notes: tuple[str, ...] = ()
    settings: dict[str, Any] = field(default_factory=dict)

    def __str__(self) -> str:
        return self.text()

    def text(self) -> str:
        """The recommendation and its reasons in plain words."""
        row = self.table.loc[self.table["recommended"]].iloc[0]
        convention = self.settings.get("convention", "trec_eval")
        head = f"advise: {len(self.systems)} systems on {_plural(self.n_queries, 'query')}, "
        head += f"{_plural(len(self.table), 'candidate setting')} ({convention} convention)"
        cut = _cut(row["cutoff"], _truncation(self.settings))
        spec = {k: row[k] + (f" ({_WORDS[row[k]]})" if row[k] in _WORDS else "") for k in ("discount", "gain")}
        described = f"nDCG over {cut}, discount {spec['discount']}, gain {spec['gain']}"
        lines = [head, "", f"Recommended: {self.recommended}", f"  {described}", "", "Why:"]
        lines += [f"  - {reason}" for reason in self.reasons]
        at = [(_at(k, _truncation(self.settings)), spec) for k, spec in self.by_cutoff.items()]
        others = [f"  {k}: {spec}" for k, spec in at if spec != self.recommended]
        if others:
            rule = "the same rule among that cut-off's candidates (its margin counts from that cut-off's own highest"
            rule += " power, so at the recommended setting's cut-off it may name another setting)"
            lines += ["", f"If a cut-off is fixed by what your users see, {rule}:"]
        return "\n".join(lines + others)

    def figure(self) -> "Figure":
        """One figure (needs matplotlib): every candidate's discriminative power and dependability (left; colour:
        discount, shape: cut-off, fill: gain), and the swap curves of every discount at the recommended gain and
        cut-off, the recommended one with its exponential fit (right)."""
        try:
            from ._figure import advice_figure
        except ModuleNotFoundError as error:
            raise ModuleNotFoundError(f"Advice.figure needs matplotlib ({error}): pip install matplotlib") from None

        return advice_figure(self)


def advise(
    qrels: Any,
    runs: Any,
    *,
    discounts: Sequence[str] = DISCOUNTS,
    cutoffs: Sequence[int | None] = CUTOFFS,
    gains: Sequence[str] = GAINS,
    convention: str = "trec_eval",
    complete: bool | None = None,
    alpha: float = 0.05,
    target_swap_rate: float = 0.05,
    n_resamples: int = 1000,
    swap_trials: int = 200,
    seed: int = 0,
) -> Advice:
    """Which nDCG setting suits this collection: candidate discounts, cut-offs and gains, measured and compared.

    For every combination of a discount, a cut-off and a gain (the runs evaluated once), on the queries every run
    answered:

    - **discriminative power** (Sakai 2006): the share of pairs of runs significantly different at ``alpha`` by the
      randomised Tukey HSD test (Carterette 2012);
    - **swap rate** (Voorhees & Buckley 2002) of disjoint query sets up to half the queries, and the queries needed for
      ``target_swap_rate`` by the curve's exponential fit;
    - **dependability** Phi of generalizability theory (Kanoulas & Aslam 2009);
    - **agreement** of the runs' order with the order under log2 (same gain and cut-off): Kendall's tau.

    The rule, fixed in advance: among the candidates whose power is within ``POWER_MARGIN`` (0.05) of the highest, the
    one with the highest Phi (ties: the lower swap rate, then the earlier one); but log2 with its gain and cut-off if it
    is among them with a Phi within ``PHI_MARGIN`` (0.01): a measure everyone knows is worth more than a tiny gain.

    A candidate under which every run has the same value on every query (within ``stats.TIE_TOLERANCE``) tells them
    apart on nothing: it is measured but never recommended, and a note names it.

    The reasons warn when a shortlisted candidate (one within the power margin of the highest) has a pair
    whose p-value lies within two standard errors of ``alpha``, ``2 sqrt(alpha (1 - alpha) / n_resamples)``: the choice
    may change with another seed or the runs in another order. They read the swap fit's query count as optimistic where
    it is extrapolated beyond the sizes measured while some pair of runs is not told apart.

    Parameters
    ----------
    qrels : str, path-like or pandas.DataFrame
        Judgments, as ``ndcg_research.evaluate`` reads them (ir_measures' and PyTerrier's frames too).
    runs : sequence of runs or mapping of name to run
        At least two runs, as ``ndcg_research.evaluate`` reads them.
    discounts : sequence of str, default ``DISCOUNTS``
        Discount specs (``ndcg_research.parse_discount``); must include ``"log2"``, the reference.
    cutoffs : sequence of int or None, default (None, 10, 20, 100)
        Cut-offs; None is the whole ranking.
    gains : sequence of str, default ("linear", "exp2")
        Gain specs (``ndcg_research.parse_gain``).
    convention : str, default "trec_eval"
        The evaluator's convention (ideal, ties, missing queries...); the candidates set gain and discount.
    complete : bool, optional
        A judged query missing from a run scores 0 (True) or is left out (False); default the convention's.
    alpha : float, default 0.05
        Significance level of the discriminative power.
    target_swap_rate : float, default 0.05
        The swap rate whose query count is estimated: below 0.5, the rate of two random orders of the systems.
    n_resamples : int, default 1000
        Resamples of the randomised Tukey HSD test; too few for ``alpha`` are refused: a pair is significant when its
        p-value is below ``alpha``, and the smallest is 1 / (n_resamples + 1) (at least 20 resamples for 0.05).
    swap_trials : int, default 200
        Pairs of disjoint query subsets per size of the swap curve.
    seed : int, default 0
        Entropy of every draw (``numpy.random.SeedSequence``), the same for every candidate.

    Returns
    -------
    Advice
        ``.recommended`` (a measure spec), ``.table``, ``.reasons``, ``str(advice)`` and ``.figure()``.

    Raises
    ------
    InputError, TypeError, ValueError
        The evaluator's errors on the qrels and runs, and bad arguments, named. ValueError also when no candidate can
        tell the runs apart (copies of one run, or no relevant document), and when ``n_resamples`` is too few.

    Examples
    --------
    The two runs of ``examples/`` (twelve queries), four candidates:

    >>> import ndcg_research as nr
    >>> advice = nr.advise("examples/qrels.txt", ["examples/run_a.txt", "examples/run_b.txt"],
    ...                    discounts=["log2", "zipf"], cutoffs=[None, 10], gains=["linear"])
    >>> advice.table[["discount", "cutoff", "pairs_significant", "phi"]].round(3)
      discount cutoff  pairs_significant    phi
    0     log2   none                  1  0.807
    1     log2     10                  1  0.787
    2     zipf   none                  1  0.869
    3     zipf     10                  1  0.855
    >>> advice.recommended        # as discriminative as log2 (the one pair), and more dependable
    'ndcg(gain=linear,discount=zipf)'
    """
    settings = {
        "alpha": check_real(alpha, "alpha", low=0, high=1, closed="neither"),
        "target_swap_rate": check_swap_target(target_swap_rate),
        "n_resamples": check_resamples(n_resamples),
        "swap_trials": check_resamples(swap_trials, "swap_trials"),
        "seed": check_int(seed, "seed", low=0),
        "convention": check_instance(convention, "convention", str, what="a convention name"),
    }
    alpha, n_resamples, seed = settings["alpha"], settings["n_resamples"], settings["seed"]
    truncation = get_convention(settings["convention"]).truncation  # (also refuses an unknown convention)
    candidates = _candidates(discounts, cutoffs, gains, truncation=truncation, convention=settings["convention"])
    message = too_few_resamples(alpha, n_resamples)
    if message:
        raise ValueError(message)
    measures = [c["measure"] for c in candidates]
    data = run_matrices(qrels, runs, measures, complete=complete, convention=settings["convention"])
    stacked = np.stack([data.matrices[c["measure"]] for c in candidates])  # candidates x systems x queries
    notes = list(data.notes)
    if truncation is not None and "none" in [c["cutoff"] for c in candidates]:
        notes.append(
            f"the {settings['convention']} convention cuts a list at {truncation} when no cut-off is given: the "
            f"candidates without a cut-off (cutoff 'none') measure the first {truncation} results, not the whole "
            "ranking"
        )
    defined = ~np.isnan(stacked).any(axis=(0, 1))
    if not defined.all():
        undefined = int(np.count_nonzero(~defined))
        notes.append(
            f"{_plural(undefined, 'query')} {'has' if undefined == 1 else 'have'} an undefined nDCG under some "
            f"candidate; left out for every candidate"
        )
        stacked = stacked[:, :, defined]
    n_queries = stacked.shape[2]
    if n_queries < 2:
        shared = "no query" if n_queries == 0 else f"only {_plural(n_queries, 'query')}"
        raise ValueError(f"the runs share {shared} with a defined nDCG; advise needs at least 2")
    # A candidate under which every run has the same value on every query (within TIE_TOLERANCE) cannot tell the runs
    # apart: its numbers are those of no difference at all, and it is never recommended.
    alike = np.all(np.abs(stacked - stacked[:, :1, :]) <= TIE_TOLERANCE, axis=(1, 2))
    if alike.all() and not np.any(stacked):
        raise ValueError(
            "every run scores 0 on every query under every candidate: no document the runs rank is judged "
            "relevant (are all the grades in the qrels 0?), so no candidate can tell the runs apart and advise "
            "has nothing to recommend"
        )
    if alike.all() and np.all(np.abs(stacked - 1) <= TIE_TOLERANCE):
        # Every ranking scores 1 when it is ideal, as every order of documents judged alike is (two opposite rankings of
        # documents all graded 1 are both ideal), not only when the runs are copies of one.
        cause = (
            "every ranking the runs give is ideal, as every order is when the documents judged for a query all have "
            "the same grade (are the grades of each query in the qrels all equal?)"
        )
        if get_convention(settings["convention"]).zero_ideal == "one":
            cause += (
                f", or convention {settings['convention']!r} scores 1 a query without a document judged relevant, as "
                "it does a perfect ranking (are all the grades in the qrels 0?)"
            )
        raise ValueError(
            f"every run scores 1 on every query under every candidate: {cause}; so no candidate can tell the runs "
            "apart and advise has nothing to recommend"
        )
    if alike.all():
        raise ValueError(
            "the runs have the same value on every query under every candidate (are they copies of one run?): no "
            "candidate can tell them apart, so advise has nothing to recommend"
        )
    if alike.any():
        names = [c["measure"] for c, same in zip(candidates, alike, strict=True) if same]
        shown = ", ".join(names[:4]) + (f" and {len(names) - 4} more" if len(names) > 4 else "")
        notes.append(
            f"{_plural(len(names), 'candidate')} ({shown}) give every run the same value on every query: "
            f"{'it tells' if len(names) == 1 else 'they tell'} the runs apart on nothing and "
            f"{'is' if len(names) == 1 else 'are'} not recommended"
        )

    sizes = measure.swap_sizes(n_queries)
    curves, pvalues = [], []
    for c, matrix, same in zip(candidates, stacked, alike, strict=True):  # each candidate's row gets its numbers
        c["power"], c["pairs_significant"], p = measure.power(matrix, alpha=alpha, n_resamples=n_resamples, seed=seed)
        pvalues.append(p)
        c["phi"], c["erho2"], c["queries_for_phi"] = measure.dependability(matrix)
        curves.append(measure.swap_curve(matrix, sizes, trials=settings["swap_trials"], seed=seed))
        c["swap_rate"] = float(curves[-1][-1])
        # A candidate that orders no pair has a swap rate of 0 because ties never swap, not because it is stable.
        c["queries_for_swap_target"] = (
            math.nan if same else measure.queries_for_swap_rate(sizes, curves[-1], settings["target_swap_rate"])[0]
        )
    import pandas as pd

    table = pd.DataFrame(candidates)
    means = [matrix.mean(axis=1) for matrix in stacked]  # each candidate's order of the systems
    log2 = [np.flatnonzero(_log2_of(table, row))[0] for _, row in table.iterrows()]  # its log2 candidate
    table["tau_log2"] = [measure.agreement(means[i], means[j]) for i, j in enumerate(log2)]
    orders = {table.index[i]: measure.order_differences(means[i], means[j]) for i, j in enumerate(log2)}
    chosen, shortlisted = _choose(table, ~alike)
    table["shortlisted"] = shortlisted
    table["recommended"] = table.index == chosen
    by_cutoff = {}
    for label in dict.fromkeys(table["cutoff"]):
        at = (table["cutoff"] == label).to_numpy()
        if not alike[at].all():
            by_cutoff[label] = table.loc[_choose(table[at], ~alike[at])[0], "measure"]
        else:
            where = f"cut-off {label}" if label != "none" else _cut(label, truncation)
            notes.append(
                f"at {where} every candidate gives every run the same value on every query: no recommendation for it"
            )
    curve = list(zip(sizes.tolist(), curves[chosen].tolist(), strict=True))
    reasons = _reasons(
        table, chosen, curve, n_queries=n_queries, n_systems=len(data.systems), settings=settings, orders=orders
    )
    error = 2 * math.sqrt(alpha * (1 - alpha) / n_resamples)  # two standard errors of a p-value near alpha
    near = [(measures[i], p) for i in np.flatnonzero(shortlisted) for p in pvalues[i] if abs(p - alpha) <= error]
    if near:  # the shortlist and the choice may change with other draws
        name, p = min(near, key=lambda pair: abs(pair[1] - alpha))
        reasons.append(
            f"caution: a pair's p-value under {name} is {p:.4g}, {'below' if p < alpha else 'not below'} alpha = "
            f"{alpha:g} but within the resampling error (two standard errors with {n_resamples} resamples: "
            f"{error:.3f}): the choice may change with another seed or the runs in another order; more resamples "
            f"narrow the error."
        )
    swap_curves = {"measure": np.repeat(measures, sizes.size), "size": np.tile(sizes, len(measures))}
    return Advice(
        recommended=str(table.loc[chosen, "measure"]),
        table=table,
        swap_curves=pd.DataFrame(swap_curves | {"swap_rate": np.concatenate(curves)}),
        reasons=tuple(reasons),
        by_cutoff=by_cutoff,
        systems=tuple(data.systems),
        n_queries=n_queries,
        notes=tuple(notes),
        settings=settings,
    )


def check_swap_target(value: Any, name: str = "target_swap_rate") -> float:
    """A target swap rate (of :func:`advise` and its command): a number strictly between 0 and 0.5."""
    rate = check_real(value, name)
    if not 0 < rate < 0.5:
        raise ValueError(
            f"{name} must be strictly between 0 and 0.5 (random orders of the systems swap half the pairs: a target "
            f"of 0.5 or more is met by chance), got {rate!r}"
        )
    return rate


def too_few_resamples(alpha: float, n_resamples: int, names: tuple[str, str] = ("alpha = ", "n_resamples = ")) -> str:
    """Why no p-value of ``n_resamples`` resamples, at least 1 / (n_resamples + 1), can be below ``alpha`` (the message
    of :func:`advise` and of its command, whose option ``names`` it takes); empty if one can."""
    if 1 / (n_resamples + 1) < alpha:
        return ""
    if alpha * (MAX_RESAMPLES + 1) <= 1:  # (also keeps 1 / alpha finite below)
        return (
            f"{names[0]}{alpha:g} is below every p-value the test can give: with at most {MAX_RESAMPLES} resamples, "
            f"the smallest is 1/({MAX_RESAMPLES} + 1); give a larger alpha"
        )
    needed = math.floor(1 / alpha)  # the fewest n with 1 / (n + 1) < alpha, but 1 / alpha is rounded: checked
    needed = needed - 1 if 1 / needed < alpha else needed + (1 / (needed + 1) >= alpha)
    return (
        f"{names[1]}{n_resamples} is too few for {names[0]}{alpha:g}: a pair is significant when its p-value is below "
        f"alpha, and the smallest p-value is 1/({n_resamples} + 1) = {1 / (n_resamples + 1):.4g}; give "
        f"{names[1]}{needed} or more"
    )


def _candidates(
    discounts: Any, cutoffs: Any, gains: Any, *, truncation: int | None = None, convention: str = "trec_eval"
) -> list[dict[str, Any]]:
    """The candidate settings, discount by discount, then cut-off, then gain; their measure specs canonical. Under a
    convention that cuts a list at ``truncation`` when no cut-off is given, None and that cut-off are one setting."""
    given = {"discounts": discounts, "cutoffs": cutoffs, "gains": gains}
    for name, value in given.items():
        if isinstance(value, str) or not isinstance(value, Sequence):
            raise TypeError(f"{name} must be a non-empty sequence, got {value!r}")
        if not value:
            raise ValueError(f"{name} must be a non-empty sequence, got an empty {type(value).__name__}")
    discount_specs = [str(parse_discount(d, builtin_only=True)) for d in discounts]
    gain_specs = [str(parse_gain(g, builtin_only=True)) for g in gains]
    ks = [check_int(k, "cutoffs", low=1, none=True) for k in cutoffs]
    for name, values in (("discounts", discount_specs), ("cutoffs", ks), ("gains", gain_specs)):
        if len(set(values)) != len(values):
            raise ValueError(f"{name} has a value twice: {list(given[name])!r}")
    if truncation is not None and None in ks and truncation in ks:
        raise ValueError(
            f"cutoffs has a value twice: {list(cutoffs)!r}: the {convention} convention cuts a list at {truncation} "
            f"when no cut-off is given, so None and {truncation} are one cut-off"
        )
    if REFERENCE not in discount_specs:
        raise ValueError(
            f"discounts must include {REFERENCE!r}, the reference of the agreement and of the rule; "
            f"got {list(discounts)!r}"
        )
    out = []
    for d, k, g in itertools.product(discount_specs, ks, gain_specs):
        (parsed,) = parse_measures("ndcg" + ("" if k is None else f"@{k}") + f"(gain={g!r}, discount={d!r})")
        out.append({"measure": parsed.name, "discount": d, "cutoff": "none" if k is None else str(k), "gain": g})
    return out


def _same_setting(table: "pd.DataFrame", row: Any) -> "pd.Series":
    return (table["gain"] == row["gain"]) & (table["cutoff"] == row["cutoff"])


def _log2_of(table: "pd.DataFrame", row: Any) -> "pd.Series":
    return _same_setting(table, row) & (table["discount"] == REFERENCE)


def _choose(table: "pd.DataFrame", eligible: np.ndarray | None = None) -> tuple[Any, np.ndarray]:
    """The rule of :func:`advise` among the ``eligible`` rows (default all): the chosen row, the shortlisted rows."""
    eligible = np.ones(len(table), dtype=bool) if eligible is None else np.asarray(eligible, dtype=bool)
    top = table["power"][eligible].max()
    shortlisted = eligible & (table["power"] >= top - POWER_MARGIN - 1e-12).to_numpy()
    short = table[shortlisted].assign(order=np.arange(int(shortlisted.sum())))
    best = short.sort_values(["phi", "swap_rate", "order"], ascending=[False, True, True], na_position="last").index[0]
    same = short[_log2_of(short, table.loc[best])]
    if len(same) and same["phi"].iloc[0] >= table.loc[best, "phi"] - PHI_MARGIN:
        best = same.index[0]
    return best, shortlisted


def _percent(share: float) -> str:
    return f"{100 * share:.1f}%"


def _rate(share: float) -> str:
    """A swap rate in percent: one decimal from 1% (5.0%), two significant digits below (0.042%, not 0.0%)."""
    return _percent(share) if share == 0 or 100 * share >= 1 else f"{100 * share:.2g}%"


def _reasons(
    table: "pd.DataFrame",
    chosen: Any,
    curve: list[tuple[int, float]],
    *,
    n_queries: int,
    n_systems: int,
    settings: dict[str, Any],
    orders: dict[Any, tuple[int, int, int]] | None = None,
) -> list[str]:
    """The reasons of the choice; ``orders``: each row's :func:`measure.order_differences` against its log2 row."""
    orders = orders or {}
    row = table.loc[chosen]
    n_pairs = n_systems * (n_systems - 1) // 2
    alpha, target = settings["alpha"], settings["target_swap_rate"]
    # The target as given: 5.0% as the measured rates, but 0.01% (not 0.0%), 1.25% (not 1.2%) or 1e-11% (not 0.0%:
    # the test read 0.0 == 0.0 for such a target) in three significant digits.
    exact = 100 * target >= 0.1 and math.isclose(round(100 * target, 1), 100 * target, rel_tol=1e-9)
    aim = _percent(target) if exact else f"{100 * target:.3g}%"
    # A swap rate is a count of swaps in the trials' pair comparisons: a measured 0 says the rate is below one swap in
    # them, which shows no rate below a target smaller than that.
    comparisons = settings["swap_trials"] * n_pairs
    shown = target >= 1 / comparisons
    unshown = f"{comparisons} pair comparisons per size cannot show a rate below 1/{comparisons} = "
    unshown += f"{_rate(1 / comparisons)}, so none shows the target of {aim}"
    largest = curve[-1][0]
    top = table.loc[table["shortlisted"], "power"].max()  # the candidates that can tell the runs apart
    if n_pairs == 1:
        told = f"it {'tells' if row['pairs_significant'] else 'does not tell'} the one pair of systems apart"
    else:
        told = f"it tells apart {row['pairs_significant']} of the {n_pairs} pairs of systems ({_percent(row['power'])})"
    best = (
        "no candidate tells apart more."
        if row["power"] == top
        else f"the most discriminative candidate tells apart {_percent(top)}, within the margin of {POWER_MARGIN:g}."
    )
    reasons = [
        f"discriminative power: {told} at alpha = {alpha:g}, family-wise (randomised Tukey HSD; the counts come from "
        f"{settings['n_resamples']} random resamples); {best}"
    ]
    short = table[table["shortlisted"]]
    most = short.loc[short["phi"].idxmax()] if short["phi"].notna().any() else row
    among = "the only candidate" if len(short) == 1 else f"the highest of the {len(short)} candidates"
    # Both Phis of the sentence with the digits that tell them apart (1.000 and 0.9998 read as a contradiction)
    digits = 3
    while most.name != row.name and digits < 6 and round(most["phi"], digits) == round(row["phi"], digits):
        digits += 1
    reasons.append(
        f"dependability: Phi = {_value(row['phi'], digits)} with these {n_queries} queries "
        f"(E rho^2 = {_value(row['erho2'], 3)}); "
        + (
            f"{among} as discriminative as the best."
            if most.name == row.name
            else f"{among} as discriminative as the best is {most['measure']}'s, "
            f"{most['phi']:.{digits}f}, within the margin of {PHI_MARGIN:g} that keeps log2."
        )
    )
    queries = row["queries_for_swap_target"]
    sizes, rates = (np.array(column) for column in zip(*curve, strict=True))
    slope = measure.queries_for_swap_rate(sizes, rates, target)[2]  # the fit's b: NaN without a fit
    no_fit = (
        "fewer than two sizes have a swap to fit" if math.isnan(slope) else "its fit does not fall with more queries"
    )
    if math.isinf(queries):
        how_many = f"the swap curve stays above the target of {aim} at every size measured and {no_fit}, so no "
        how_many += "query count is estimated"
    elif queries <= curve[0][0] and curve[0][1] <= target:
        how_many = f"already with {_plural(curve[0][0], 'query')} it is {_rate(curve[0][1])}, below the target of "
        how_many += aim
        if not shown:  # (a rate at or below a target below one swap is 0)
            how_many = f"already with {_plural(curve[0][0], 'query')} no pair swapped, but {unshown}"
    elif not slope > 0:  # no falling fit: the count is the first size measured at or below the target
        how_many = f"no exponential fit gives a count ({no_fit}); measured, the swap rate is first at or below the "
        how_many += f"target of {aim} with {_plural(int(queries), 'query')}"
        if not shown:
            how_many = f"no exponential fit gives a count ({no_fit}); measured, no pair swapped first with "
            how_many += f"{_plural(int(queries), 'query')}, but {unshown}"
    elif queries <= curve[0][0]:  # the fit crosses before the first size; a later size is at or below the target then
        reached = _plural(next(size for size, rate in curve if rate <= target), "query")
        how_many = f"the exponential fit reaches {aim} before the smallest size measured, where the rate "
        how_many += f"is still {_rate(curve[0][1])}; measured, it is first at or below the target with {reached}"
        if not shown:
            how_many = f"the exponential fit reaches {aim} before the smallest size measured, where the rate is still "
            how_many += f"{_rate(curve[0][1])}; measured, no pair swapped first with {reached}, but {unshown}"
    else:  # (the fit's crossing, below the target already or not: "would bring that to" misread the former)
        how = "interpolated" if queries <= largest else "extrapolated"
        below = f"already below the target of {aim}; " if row["swap_rate"] <= target else ""
        if row["swap_rate"] <= target and not shown:
            below = f"{unshown}; "
        how_many = (
            f"{below}the exponential fit of the swap curve reaches {aim} at about "
            f"{_plural(math.ceil(queries), 'query')} ({how})"
        )
        if queries > largest and row["pairs_significant"] < n_pairs:
            apart = f"{n_pairs - row['pairs_significant']} of {n_pairs}"
            how_many += f"; read that count as optimistic: with pairs not told apart ({apart}), nearly equal systems "
            how_many += "keep swapping at every size"
    differently = f"order {_rate(row['swap_rate'])} of the pairs differently"
    if row["swap_rate"] == 0:
        differently = f"order no pair differently (0 of {comparisons} pair comparisons swapped: below 1/{comparisons})"
    reasons.append(
        f"stability: two disjoint sets of {_plural(largest, 'query')} {differently} (Voorhees & Buckley 2002); "
        f"{how_many}."
    )
    if row["discount"] != REFERENCE:
        ref = table[_log2_of(table, row)].iloc[0]
        tau = row["tau_log2"]
        if math.isnan(tau):
            alike = "Kendall tau between their orders is undefined: the systems' means tie under one of the two."
        elif not any(orders[row.name]):  # (tau 0.33 is one pair in three reversed: alike only if none is)
            alike = f"the two order the systems alike (Kendall tau = {tau:.2f})."
        else:
            alike = _against(row, tau, orders[row.name], n_pairs) + "."
        reasons.append(
            f"against log2 with the same gain and cut-off: log2 tells apart {_percent(ref['power'])} with "
            f"Phi = {_value(ref['phi'], 3)}; {alike}"
        )
    else:
        others = table[_same_setting(table, row) & (table["discount"] != REFERENCE)]
        if len(taus := others["tau_log2"]):
            defined = others[taus.notna()]
            # Alike only where no pair is ordered otherwise; each other discount's reversed and tied pairs named.
            same = [o["discount"] for _, o in defined.iterrows() if not any(orders[o.name])]
            parts = [
                _against(o, o["tau_log2"], orders[o.name], n_pairs)
                for _, o in defined.iterrows()
                if any(orders[o.name])
            ]
            if same:
                every = f"{_words(same)} order{'s' * (len(same) == 1)}"
                if len(same) == len(taus):
                    every = "the other discount orders" if len(same) == 1 else "the other discounts order"
                parts.insert(0, f"{every} the systems as log2 does (Kendall tau = 1.00)")
            order = (
                "; ".join(parts)
                or "Kendall tau against log2 is undefined for every other discount: the systems' means tie"
            )
            if 0 < len(defined) < len(taus):
                order += (
                    f"; under {_plural(len(taus) - len(defined), 'other discount')} (or under log2) the systems' means "
                    f"tie, where tau is undefined"
                )
            reasons.append(
                f"log2 is kept: the rule keeps it when it is within {POWER_MARGIN:g} of the highest power and within "
                f"{PHI_MARGIN:g} of the highest Phi among those; {order} (same gain and cut-off)."
            )
    if n_systems < 3:
        reasons.append(
            "caution: two systems make one pair, so the power is 0 or 1 for every candidate and the "
            "evidence for any choice is thin."
        )
    if math.isnan(row["phi"]):
        reasons.append("caution: Phi is undefined: the values vary neither between the systems nor over the queries.")
    elif row["phi"] < measure.PHI_TARGET:
        needed = row["queries_for_phi"]
        reach = (
            f"about {_plural(math.ceil(needed), 'query')} would reach it"
            if math.isfinite(needed)
            else "no number of queries would reach it: the variance of the systems' own effects is estimated as 0"
        )
        reasons.append(
            f"caution: Phi = {row['phi']:.3f} is below {measure.PHI_TARGET:g}, the usual standard of a "
            f"dependable ranking; {reach}."
        )
    if row["pairs_significant"] == 0:
        reasons.append(
            "caution: no pair of systems is told apart under this setting; "
            + (
                "none is under any candidate: the queries are too few, or the systems too alike."
                if top == 0
                else "other candidates tell some apart but are less dependable."
            )
        )
    return reasons


def _against(row: Any, tau: float, differences: tuple[int, int, int], n_pairs: int) -> str:
    """A discount whose order of the systems is not log2's: the pairs it reverses, ties or orders apart, in words."""
    reversed_, tied, untied = differences
    if reversed_ == n_pairs:
        how = ["reverses log2's order of the systems"]
    else:
        how = [f"reverses log2's order of {reversed_} of the {n_pairs} pairs of systems"] if reversed_ else []
        how += [f"ties {_plural(tied, 'pair')} log2 orders"] if tied else []
        how += [f"orders {_plural(untied, 'pair')} log2 ties"] if untied else []
    return f"{row['discount']} {_words(how)} (Kendall tau = {tau:.2f})"


def _words(items: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"


def _truncation(settings: dict[str, Any]) -> int | None:
    """Where the convention of ``settings`` cuts a list when no cut-off is given (None: it does not)."""
    return get_convention(settings.get("convention", "trec_eval")).truncation


def _cut(cutoff: str, truncation: int | None) -> str:
    """What a candidate's cut-off measures, in words: without one, the whole ranking unless the convention cuts it."""
    if cutoff != "none":
        return f"the first {cutoff} results"
    if truncation is None:
        return "the whole ranking"
    return f"the first {truncation} results (no cut-off: the convention's truncation)"


def _at(cutoff: str, truncation: int | None = None) -> str:
    """A cut-off's label: ``@10``, ``whole ranking``, or the convention's truncation where it has one."""
    if cutoff != "none":
        return f"@{cutoff}"
    return "whole ranking" if truncation is None else f"no cut-off (@{truncation}, the convention's truncation)"


def _plural(count: int, noun: str) -> str:
    if count == 1:
        return f"1 {noun}"
    return f"{count} {noun[:-1] + 'ies' if noun.endswith('y') else noun + 's'}"


def _value(value: float, digits: int) -> str:
    return "undefined" if math.isnan(value) else f"{value:.{digits}f}"
