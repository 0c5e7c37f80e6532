"""The simulation's public functions refuse a bad argument by name at the boundary (nothing clipped, truncated,
coerced or left to fail deep inside with a numpy, LAPACK or KeyError message)."""

import math
import re
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import yaml

import ndcg_research as nr
from ndcg_research.simulation import crossing as cr
from ndcg_research.simulation import cutoff as cu
from ndcg_research.simulation import finite_n as fn
from ndcg_research.simulation import model as mo
from ndcg_research.simulation import replicates as rp
from ndcg_research.simulation import scaling as sc
from ndcg_research.simulation import simulate as sim
from ndcg_research.simulation import sweeps as sw
from ndcg_research.simulation import theory as th

GAPS = pd.DataFrame(dict(g=["a"] * 3, n=[10, 100, 1000], std_gap=[1.0, 2.0, 4.0], std_gap_se=[0.1, 0.1, 0.1]))


@pytest.fixture(scope="module")
def result():
    return sw.run_sweep(sw.Sweep.build("probit", ns=[10], replicates=3, seed=1))


# 1. confidence strictly between 0 and 1
@pytest.mark.parametrize("confidence", [5, 2.0, 0, 1, float("nan")])
@pytest.mark.parametrize(
    "fit",
    [
        lambda confidence: sc.gap_trend(GAPS, ["g"], confidence),
        lambda confidence: sc.power_law_fit([10, 100, 1000], [1.0, 2.0, 4.0], [0.1] * 3, confidence=confidence),
    ],
)
def test_confidence_must_be_strictly_between_0_and_1(fit, confidence):
    with pytest.raises(ValueError, match="^confidence must be strictly between 0 and 1, got"):
        fit(confidence)


# 2. cut-off rules
@pytest.mark.parametrize(
    "spec, error, match",
    [
        ("fixed(k=2.5)", TypeError, r"^cut-off rule 'fixed' parameter k must be an integer, got float 2.5"),
        ("fixed(k=2.0)", TypeError, r"^cut-off rule 'fixed' parameter k must be an integer, got float 2.0"),
        ("fixed(k=True)", TypeError, r"^cut-off rule 'fixed' parameter k must be an integer, got bool True"),
        ("fraction(c='x')", TypeError, r"^cut-off rule 'fraction' parameter c must be a number, got str 'x'"),
    ],
)
def test_parse_cutoff_refuses_a_bad_parameter_by_name(spec, error, match):
    with pytest.raises(error, match=match):
        cu.parse_cutoff(spec)


def test_cutoff_rule_checks_itself_and_n():
    assert cu.parse_cutoff("fixed(k=10)").k(5) == 5 and cu.parse_cutoff("power(a=0.5)").k(np.int64(10_000)) == 100
    with pytest.raises(ValueError, match="^cut-off rule kind must be one of 'fixed', 'power', 'fraction', 'all'"):
        cu.CutoffRule("foo")
    with pytest.raises(TypeError, match="^cut-off rule 'fixed' parameter k must be an integer, got float 2.5"):
        cu.CutoffRule("fixed", 2.5)
    with pytest.raises(ValueError, match="^cut-off rule 'power' needs 0 < a < 1, got 0.0$"):
        cu.CutoffRule("power", 0.0)
    for n in (0, -5):
        with pytest.raises(ValueError, match=f"^n must be an integer >= 1, got {n}$"):
            cu.parse_cutoff("fixed(k=3)").k(n)
    with pytest.raises(TypeError, match="^n must be an integer >= 1, got float 2.5"):
        cu.parse_cutoff("all").k(2.5)


# 3. exact_discount_sum
@pytest.mark.parametrize(
    "n, error, match",
    [(2.5, TypeError, "an integer >= 1, got float 2.5$"), (0, ValueError, "an integer >= 1, got 0$")]
    + [(-3, ValueError, "an integer >= 1, got -3$"), ("3", TypeError, "an integer >= 1, got str '3'$")]
    + [(10**12, ValueError, "at most 100000000, got 1000000000000: .* 8 TB of memory each")],  # 8 bytes x 10^12
)
def test_exact_discount_sum_needs_an_integer_n_from_1_to_1e8(n, error, match):
    with pytest.raises(error, match=f"^n must be {match}"):
        th.exact_discount_sum("log2", n)
    assert th.exact_discount_sum("log2", np.int64(2)) == 1 + 1 / math.log2(3)
    assert th.exact_discount_sum("log2", 10**8 - 10**8 + 3) == 1 + 1 / math.log2(3) + 1 / 2


# 4. zipf_approximation
@pytest.mark.parametrize("n", [0.5, 0, -1, float("nan")])
def test_zipf_approximation_needs_n_at_least_1(n):
    with pytest.raises(ValueError, match="^n must be a number >= 1, got"):
        th.zipf_approximation("probit", "bayes", n)


# 5. SweepResult.ndcg
def test_sweep_ndcg_refuses_an_n_not_in_the_sweep(result):
    with pytest.raises(ValueError, match=r"^n 11 is not in this sweep, whose ns are \[10\]$"):
        result.ndcg("bayes", "log2", 11)
    with pytest.raises(TypeError, match="^n must be an integer, got str '10'"):
        result.ndcg("bayes", "log2", "10")
    assert result.ndcg("bayes", "log2", np.int64(10)).shape == (3,)


# 6. replicate_ndcg_at_k
@pytest.mark.parametrize(
    "ks, error, match",
    [
        ([0], ValueError, r"^ks must be in \[1, 10\], got 0 at index 0$"),
        ([3, -3], ValueError, r"^ks must be in \[1, 10\], got -3 at index 1$"),
        ([11], ValueError, r"^ks must be in \[1, 10\], got 11"),
        ([2.5], TypeError, "^ks must hold integers, got dtype float64"),
        (5, ValueError, r"^ks must be 1-D, got shape \(\)"),
        ([], ValueError, "^ks must not be empty"),
    ],
)
def test_replicate_ndcg_at_k_checks_every_k(ks, error, match):
    with pytest.raises(error, match=match):
        cu.replicate_ndcg_at_k("probit", ["bayes"], ["log2"], 10, ks, seed=1, replicate=0)


# 7. Ranker checks itself
@pytest.mark.parametrize(
    "args, kwargs, match",
    [
        (("foo",), {}, "^ranker kind must be one of 'bayes', 'noisy', .*, got 'foo'$"),
        (("noisy",), dict(sigma=float("nan")), "^ranker 'noisy' parameter sigma must be finite, got nan$"),
        (("noisy",), dict(sigma=-1.0), r"^ranker 'noisy' needs sigma > 0, got 'noisy\(sigma=-1\)'$"),
        (("bayes",), dict(sigma=2.0), "^ranker 'bayes' has no parameter sigma, got sigma=2.0$"),
    ],
)
def test_ranker_refuses_a_bad_kind_or_parameter(args, kwargs, match):
    with pytest.raises(ValueError, match=match):
        mo.Ranker(*args, **kwargs)


def test_ranker_refuses_a_parameter_of_the_wrong_type():
    with pytest.raises(TypeError, match="^ranker 'coarse' parameter bins must be an integer, got float 2.5$"):
        mo.Ranker("coarse", bins=2.5)
    assert mo.Ranker("noisy", sigma=0.5) == mo.parse_ranker("noisy(sigma=0.5)")


# 8. heuristic_table
@pytest.mark.parametrize(
    "k, error, match", [(0, ValueError, "got 0"), (-3, ValueError, "got -3"), (2.5, TypeError, "got float 2.5")]
)
def test_heuristic_table_checks_the_cutoffs_values(k, error, match):
    with pytest.raises(error, match=rf"^cutoff\(10\) must be an integer in \[1, 10\], {match}$"):
        sc.heuristic_table("probit", [("bayes", "random")], ["log2"], [10], lambda n: k)


def test_heuristic_table_checks_the_pairs_and_lists():
    with pytest.raises(ValueError, match=r"^pairs: each pair must be \(better, worse\), got \('bayes',\)$"):
        sc.heuristic_table("probit", [("bayes",)], ["log2"], [10])
    with pytest.raises(ValueError, match="^pairs must be a non-empty list"):
        sc.heuristic_table("probit", [], ["log2"], [10])
    with pytest.raises(ValueError, match="^ns must not be empty"):
        sc.heuristic_table("probit", [("bayes", "random")], ["log2"], [])


# 9. tie_tolerance
@pytest.mark.parametrize("tolerance", [-1, float("nan"), float("inf")])
@pytest.mark.parametrize(
    "table",
    [
        lambda result, tolerance: result.pair_table(tie_tolerance=tolerance),
        lambda result, tolerance: cr.decision_table(result, "bayes", "random", tie_tolerance=tolerance),
        lambda result, tolerance: result.ratio_table("log2", "zipf", seed=1, n_resamples=10, tie_tolerance=tolerance),
    ],
)
def test_tie_tolerance_must_be_finite_and_at_least_0(result, table, tolerance):
    with pytest.raises(ValueError, match="^tie_tolerance must be"):
        table(result, tolerance)


# 10. order_statistic_means
@pytest.mark.parametrize(
    "n, count, error, match",
    [
        (3, 5, ValueError, r"^count must be an integer in \[1, 3\], got 5$"),
        (3, 0, ValueError, r"^count must be an integer in \[1, 3\], got 0$"),
        (0, 1, ValueError, "^n must be an integer >= 1, got 0$"),
        (2.5, 1, TypeError, "^n must be an integer >= 1, got float 2.5$"),
    ],
)
def test_order_statistic_means_needs_integers_with_count_at_most_n(n, count, error, match):
    with pytest.raises(error, match=match):
        fn.order_statistic_means(lambda t: t, n, count)


# 11. logarithms of n
def test_fits_need_positive_list_lengths_without_lapack_noise(capfd):
    with pytest.raises(ValueError, match="^n must be finite and >= 1, got 0.0 at index 0$"):
        sc.local_exponent([0, 1, 2], [1, 2, 3])
    with pytest.raises(ValueError, match="^n must be finite and >= 1, got -1.0 at index 0$"):
        sc.power_law_fit([-1, 2, 3], [1, 2, 3], [0.1, 0.1, 0.1])
    with pytest.raises(ValueError, match="^n and d must have the same length, got 3 and 2$"):
        sc.local_exponent([1, 2, 3], [1, 2])
    assert capfd.readouterr().err == ""


# 12. empty lists
@pytest.mark.parametrize(
    "call, name",
    [
        (lambda: fn.finite_n_values("probit", [], ["log2"], 10), "rankers"),
        (lambda: fn.finite_n_values("probit", ["bayes"], [], 10), "discounts"),
        (lambda: fn.theory_table("probit", [], ["log2"], [10]), "rankers"),
        (lambda: fn.theory_table("probit", ["bayes"], [], [10]), "discounts"),
        (lambda: cr.crossing_table("probit", "bayes", "random", [], 10, 100), "discounts"),
        (lambda: sim.replicate_ndcg("probit", [], ["log2"], 10, seed=1, replicate=0), "rankers"),
        (lambda: sim.stream_ndcg("probit", [], ["log2"], [10], seed=1, replicate=0), "rankers"),
    ],
)
def test_empty_spec_lists_are_refused_by_name(call, name):
    with pytest.raises(ValueError, match=rf"^{name} must be a non-empty list of specs, got \[\]$"):
        call()


def test_theory_table_refuses_empty_ns_and_a_sample_may_have_no_ranker():
    with pytest.raises(ValueError, match=r"^ns must not be empty, got shape \(0,\)$"):
        fn.theory_table("probit", ["bayes"], ["log2"], [])
    assert sim.sample("probit", [], 5, seed=1).scores == {}


# 13. TypeErrors and silent coercions
@pytest.mark.parametrize(
    "call, error, match",
    [
        (lambda: th.power_limit("probit", "bayes", "0.5"), TypeError, "^beta must be a number, got str '0.5'$"),
        (lambda: sc.gap_exponent("probit", "bayes", "random", "log2", a="x"), TypeError, "^a must be a number"),
        (lambda: rp.replicate_counts(None, 3), TypeError, "^ns must be a list, got NoneType None$"),
        (lambda: sim.stream_ndcg("probit", ["bayes"], ["log2"], 5, seed=1, replicate=0), TypeError, "^ns must be"),
        (lambda: rp.chunk_bounds(5, 0), ValueError, "^size must be an integer >= 1, got 0$"),
        (lambda: rp.chunk_bounds(-1, 2), ValueError, "^count must be an integer >= 0, got -1$"),
        (lambda: th.eps_numeric("log2", n="a"), TypeError, "^n must be .*, got str 'a'$"),
        (lambda: th.eps("log2", "5"), TypeError, "^n must be .*, got str '5'$"),
        (lambda: th.eps("log2", True), TypeError, "^n must hold real numbers, got dtype bool$"),
        (lambda: th.eps_numeric("log2", 10, h=0), ValueError, "^h must be a number > 0, got 0.0$"),
        (lambda: fn.prediction("probit", "bayes", "log2", 10, finite_n="no"), TypeError, "^finite_n must be True"),
        (lambda: fn.prediction("probit", "bayes", "log2", 2.5, finite_n=False), TypeError, "^n must be an integer"),
        (
            lambda: sc.gap_trend(GAPS.drop(columns="std_gap"), ["g"], 0.95),
            ValueError,
            r"^pair_table needs .*\['std_gap'\]",
        ),
        (lambda: th.ideal_profile("probit").integral("power", "0.5"), TypeError, "^beta must be a number"),
        (lambda: th.ideal_profile("probit").cell_means(0), ValueError, "^n must be an integer >= 1, got 0$"),
        (lambda: th.ideal_profile("probit").integral("cube"), ValueError, "^weight must be one of 'one', "),
        (lambda: th.profile_crossings(np.sin, np.cos, np.arange(3.0), from_zero="no"), TypeError, "^from_zero must be"),
        (lambda: sc.heuristic_exponent(None, 2.5), TypeError, "^n_from must be an integer >= 1, got float 2.5$"),
        (lambda: rp.run_chunks(len, [], progress="no"), TypeError, "^progress must be True or False, got str 'no'$"),
    ],
)
def test_bad_arguments_are_named(call, error, match):
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no RuntimeWarning on the way to the error
        with pytest.raises(error, match=match):
            call()


# 14. the model's module docstring
def test_model_docstring_makes_the_model_the_packages_own():
    first = mo.__doc__.splitlines()[0]
    assert first.startswith("The package's simulated ranking problems") and "(Wang et al., 2013):" not in mo.__doc__


# 15. list lengths beyond memory: every public function that holds n-long arrays refuses n > 10^8 by name, with the
# memory (8 bytes per float64: 8 x 10^13 bytes = 80 TB at n = 10^13), instead of a MemoryError traceback.
HUGE = 10**13
FITS = [  # (call with a huge list length, the argument it names)
    (lambda: fn.finite_n_ndcg("probit", "bayes", "log2", HUGE), "n"),
    (lambda: fn.finite_n_values("probit", ["bayes"], ["log2"], HUGE), "n"),
    (lambda: fn.rank_gains("probit", "bayes", HUGE), "n"),
    (lambda: fn.rank_gains("probit", "coarse(bins=4)", HUGE), "n"),
    (lambda: fn.ideal_rank_gains("probit", HUGE), "n"),
    (lambda: fn.rare_miss_share("probit", "bayes", "log2", HUGE, 10), "n"),
    (lambda: fn.prediction("probit", "bayes", "log2", HUGE), "n"),
    (lambda: fn.theory_table("probit", ["bayes"], ["log2"], [10, HUGE]), "list length in ns"),
    (lambda: fn.order_statistic_means(lambda t: t, HUGE, HUGE // 64), "count"),
    (lambda: sim.replicate_ndcg("probit", ["bayes"], ["log2"], HUGE, seed=1, replicate=0), "n"),
    (lambda: sim.sample("probit", ["bayes"], HUGE, seed=1), "n"),
    (lambda: sim.stream_sample("probit", ["bayes"], HUGE, seed=1, replicate=0), "length"),
    (lambda: sim.stream_ndcg("probit", ["bayes"], ["log2"], [10, HUGE], seed=1, replicate=0), "prefix length in ns"),
    (lambda: cu.replicate_ndcg_at_k("probit", ["bayes"], ["log2"], HUGE, [1], seed=1, replicate=0), "n"),
    (lambda: cr.crossing_table("probit", "bayes", "random", ["log2"], HUGE // 10, HUGE), "n_max"),
    (lambda: cr.expected_gap("probit", "bayes", "random", "log2", HUGE), "n"),
    (lambda: sc.heuristic_table("probit", [("bayes", "random")], ["log2"], [10, HUGE]), "list length in ns"),
    (lambda: sw.Sweep.build("probit", ns=[10, HUGE], replicates=2, seed=1), "list length in ns"),
    (lambda: cu.CutoffSweep.build("probit", ns=[10, HUGE], replicates=2, seed=1), "list length in ns"),
    (lambda: th.ideal_profile("probit").cell_means(HUGE), "n"),
    (lambda: th.exact_discount_sum("log2", HUGE), "n"),
    (lambda: mo.parse_model("probit").draw(np.random.default_rng(0), HUGE), "n"),
    (lambda: mo.parse_ranker(f"coarse(bins={HUGE})"), "ranker 'coarse' parameter bins"),
]


@pytest.mark.parametrize("call, name", FITS)
def test_a_list_length_beyond_memory_is_refused_by_name_with_the_memory_it_would_need(call, name):
    limit = 10**8 // 64 if name == "count" else 10**8  # count: 64 quadrature values per rank
    got = HUGE // 64 if name == "count" else HUGE
    # 8 bytes per float64: 8 x 10^13 bytes; count: (10^13 / 64) ranks x 64 values x 8 bytes, 8 x 10^13 as well
    with pytest.raises(ValueError, match=rf"^{re.escape(name)} must be at most {limit}, got {got}: .* 80 TB of memory"):
        call()


def test_the_limit_refuses_no_list_length_of_the_committed_studies():
    # Every list length a notebook profile passes (ns, n_max, stream lengths) is within the limit: the largest, 10^8
    # in notebook 15, draws only the heads of its lists; the simulated lists reach 10^7 (notebooks 03, 04).
    profiles = yaml.safe_load((Path(__file__).parents[1] / "notebooks" / "profiles.yaml").read_text())
    lengths = []
    for notebooks in profiles.values():
        for parameters in notebooks.values():
            for key, value in (parameters or {}).items():
                if key.endswith("ns") or key.endswith("n_max") or key == "stream_length":
                    lengths += value if isinstance(value, list) else [value]
    assert max(lengths) == 10**8 and all(mo.check_items(n) == n for n in lengths)
    assert mo.check_items(10**8) == 10**8 and mo.check_items(10**6, "count", per_item=64) == 10**6  # notebook 16


# 16. a finite parameter whose square overflows the theory is refused when parsed, by name and value
@pytest.mark.parametrize(
    "parse, spec, match",
    [
        (mo.parse_model, "probit(a=1e300)", "^model parameter a must be at most 1e[+]50, .*got 1e[+]300$"),
        (mo.parse_model, "probit(a=1.1e50)", "^model parameter a must be at most 1e[+]50, .*got 1.1e[+]50$"),
        (
            mo.parse_ranker,
            "noisy(sigma=1e300)",
            "^ranker 'noisy' parameter sigma must be at most 1e[+]50, .*got 1e[+]300$",
        ),
    ],
)
def test_a_parameter_that_overflows_the_theory_is_refused(parse, spec, match):
    with pytest.raises(ValueError, match=match):
        parse(spec)


def test_the_largest_slope_and_noise_compute_without_overflow():
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no overflow on the way
        # kappa = a / sqrt(1 + sigma^2 (1 + a^2)) -> 1 / sigma as a grows: with a = 1e50, noisy(sigma=1) ranks as bayes
        # does on probit(a=1) (kappa = 1 both, the same ideal), so their theory agrees; sigma = 1e50 gives kappa 1e-50.
        steep = "probit(a=1e50)"
        assert mo.parse_ranker("noisy(sigma=1)").kappa(mo.parse_model(steep)) == pytest.approx(1, rel=1e-15)
        assert mo.parse_ranker("noisy(sigma=1e50)").kappa(mo.parse_model(steep)) == pytest.approx(1e-50, rel=1e-12)
        assert th.c_coefficient(steep, "noisy(sigma=1)") == pytest.approx(th.c_coefficient("probit", "bayes"), 1e-9)
        assert sc.shortfall_exponent(steep, "noisy(sigma=1)") == pytest.approx(1, rel=1e-12)
        assert fn.finite_n_ndcg(steep, "noisy(sigma=1)", "log2", 50) == pytest.approx(
            fn.finite_n_ndcg("probit", "bayes", "log2", 50), rel=1e-9
        )


# 17. a user's discount callable is checked where the theory takes one, by the metric functions' own check
def _negative(r):
    return -r


@pytest.mark.parametrize(
    "call, match",
    [
        (lambda: th.exact_discount_sum(_negative, 3), r"got D\(1\) = -1.0$"),
        (lambda: th.exact_discount_sum(lambda r: np.full_like(r, np.nan), 3), r"got D\(1\) = nan$"),
        (lambda: th.exact_discount_sum(lambda r: np.where(r < 3, 1.0, 2.0), 3), r"got D\(2\) = 1.0 < D\(3\) = 2.0$"),
        (lambda: th.eps_numeric(lambda r: np.full_like(r, np.nan), 10.0), r"got D\(1\) = nan$"),
        (lambda: th.eps_numeric(lambda r: None, 10.0), "must return one value per rank"),
        (lambda: th.eps_numeric(_negative, 10.0), r"got D\(1\) = -1.0$"),
        # beyond the ranks checked whole (2^20): where the log-slope is differenced
        (lambda: th.eps_numeric(lambda r: np.where(r > 5e6, np.nan, 1 / r), 1e7), "non-increasing, got D.* = nan"),
        (lambda: th.eps_numeric(lambda r: np.where(r > 5e6, r, 1 / r), 1e7), "non-increasing, got D"),
    ],
)
def test_a_bad_discount_callable_is_refused_by_the_theory(call, match):
    with pytest.raises(ValueError, match=f"^discount .*{match}"):
        call()


def test_the_theory_and_the_metrics_refuse_a_bad_discount_alike_and_take_a_good_one():
    with pytest.raises(ValueError) as metric:
        nr.ndcg([1, 0, 2], discount=_negative)
    with pytest.raises(ValueError) as theory:
        th.exact_discount_sum(_negative, 3)
    assert str(theory.value) == str(metric.value)  # one check: the same words
    # a good callable: the sum by hand, and D = 1/r has log-slope 1 at every n
    assert th.exact_discount_sum(lambda r: 1 / r, 3) == pytest.approx(1 + 1 / 2 + 1 / 3, abs=0)
    assert th.eps_numeric(lambda r: 1 / r, np.array([10.0, 1e7])) == pytest.approx([1, 1], rel=1e-10)
