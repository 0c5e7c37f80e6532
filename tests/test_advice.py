"""``advise``: its numbers against independent computations, its rule on constructed cases, its errors and command.

References: the dependability Phi from a two-way ANOVA fitted as a least-squares regression on dummy variables
(numpy's lstsq), not from the closed-form mean squares the package uses, and from hand computation; Kendall's tau
from scipy on means computed by ``nr.evaluate``; discriminative power and swap rates on constructed systems whose
answer is known (clearly separated groups, exchangeable systems).
"""

from __future__ import annotations

import importlib.util
import io
import itertools
import json
import math
import re

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from ndcg_research.advice import PHI_MARGIN, POWER_MARGIN, _advise, _measurements, advise
from ndcg_research.advice import cli as advice_cli
from ndcg_research.evaluation import InputError, evaluate

SMALL = dict(discounts=["log2", "zipf"], cutoffs=[None, 5], gains=["linear", "exp2"], n_resamples=200, swap_trials=50)


def collection(seed: int = 0, *, systems: int = 6, queries: int = 30, docs: int = 40, skills=None):
    """Package-column frames: grades 0-3, each system's score = skill * grade * difficulty + noise."""
    rng = np.random.default_rng(seed)
    q = np.repeat([f"q{i:02d}" for i in range(queries)], docs)
    d = np.tile([f"d{j:02d}" for j in range(docs)], queries)
    grades = rng.choice([0, 0, 0, 0, 1, 2, 3], size=q.size)
    qrels = pd.DataFrame({"query": q, "doc": d, "relevance": grades})
    skills = np.linspace(0.2, 1.2, systems) if skills is None else np.asarray(skills)
    difficulty = np.repeat(rng.lognormal(0, 0.5, queries), docs)
    runs = {
        f"s{i}": pd.DataFrame({"query": q, "doc": d, "score": skill * grades * difficulty + rng.normal(0, 1, q.size)})
        for i, skill in enumerate(skills)
    }
    return qrels, runs


def anova_phi(matrix: np.ndarray) -> float:
    """Phi from a two-way ANOVA without replication fitted by least squares on dummy variables (no closed forms)."""
    s, q = matrix.shape
    y = matrix.ravel()
    system = np.repeat(np.arange(s), q)
    query = np.tile(np.arange(q), s)
    ones = np.ones((y.size, 1))
    sys_dummies = (system[:, None] == np.arange(1, s)).astype(float)
    query_dummies = (query[:, None] == np.arange(1, q)).astype(float)

    def rss(*blocks):
        x = np.hstack(blocks)
        residual = y - x @ np.linalg.lstsq(x, y, rcond=None)[0]
        return residual @ residual

    full = rss(ones, sys_dummies, query_dummies)
    ms_error = full / ((s - 1) * (q - 1))
    ms_system = (rss(ones, query_dummies) - full) / (s - 1)
    ms_query = (rss(ones, sys_dummies) - full) / (q - 1)
    var_system = max((ms_system - ms_error) / q, 0.0)  # E[MS_s] = sigma2_e + q sigma2_s
    var_query = max((ms_query - ms_error) / s, 0.0)  # E[MS_q] = sigma2_e + s sigma2_q
    return var_system / (var_system + (var_query + ms_error) / q)


# ---------------------------------------------------------------- the numbers


def test_phi_by_hand():
    # 2 systems x 3 queries: grand mean 0.4833; system means 0.5667, 0.4; query means 0.2, 0.45, 0.8.
    # MS_s = 3 * 2 * 0.08333^2 = 0.041667, MS_q = 2 * (0.0803 + 0.0011 + 0.1003) / 2 = 0.18167, MS_e = 0.001667:
    # sigma2_s = 0.013333, sigma2_q = 0.09, sigma2_e = 0.001667; Phi = 0.013333 / (0.013333 + 0.091667 / 3).
    phi, erho2, needed = _measurements.dependability(np.array([[0.3, 0.5, 0.9], [0.1, 0.4, 0.7]]))
    assert phi == pytest.approx(0.013333333 / (0.013333333 + 0.091666667 / 3), rel=1e-6)
    assert erho2 == pytest.approx(0.013333333 / (0.013333333 + 0.001666667 / 3), rel=1e-6)
    assert needed == pytest.approx(4 * 0.091666667 / 0.013333333, rel=1e-6)  # D-study: Phi = 0.8


@pytest.mark.parametrize("seed", range(5))
def test_phi_equals_an_anova_fitted_by_least_squares(seed):
    rng = np.random.default_rng(seed)
    s, q = rng.integers(2, 8), rng.integers(3, 25)
    matrix = (
        rng.normal(0, rng.uniform(0.01, 0.2), (s, 1))
        + rng.normal(0, 0.2, (1, q))
        + rng.normal(0, rng.uniform(0.01, 0.2), (s, q))
    )
    assert _measurements.dependability(matrix)[0] == pytest.approx(anova_phi(matrix), rel=1e-9, abs=1e-12)


def test_phi_recovers_known_variance_components():
    # Many systems and queries with sigma2_s = 0.01, sigma2_q = 0.04, sigma2_e = 0.02: Phi(n=200) is known.
    rng = np.random.default_rng(11)
    s, q = 300, 200
    matrix = rng.normal(0, 0.1, (s, 1)) + rng.normal(0, 0.2, (1, q)) + rng.normal(0, math.sqrt(0.02), (s, q))
    truth = 0.01 / (0.01 + (0.04 + 0.02) / q)
    assert _measurements.dependability(matrix)[0] == pytest.approx(truth, abs=0.01)


def test_advise_numbers_against_independent_computations():
    qrels, runs = collection(3)
    advice = advise(qrels, runs, **SMALL)
    table = advice.table.set_index("measure")
    for spec in ("ndcg(gain=linear,discount=zipf)", "ndcg@5(gain=exp2,discount=log2)"):
        ev = evaluate(qrels, runs, spec)
        matrix = np.vstack(ev.values)[:, :]  # systems x queries (every run answers every query)
        assert table.loc[spec, "phi"] == pytest.approx(anova_phi(matrix), rel=1e-9)
        reference = "ndcg(gain=linear,discount=log2)" if spec.startswith("ndcg(") else spec
        means = ev.mean_values[:, 0]
        log2_means = evaluate(qrels, runs, reference).mean_values[:, 0]
        assert table.loc[spec, "tau_log2"] == pytest.approx(stats.kendalltau(means, log2_means).statistic)
    assert advice.n_queries == 30 and advice.systems == tuple(runs)
    assert table["tau_log2"][table["discount"] == "log2"].to_numpy() == pytest.approx(1.0)


def test_power_counts_the_pairs_of_clearly_separated_groups():
    # Three groups of two systems far apart (12 cross-group pairs), equal within a group (3 pairs): power 12/15.
    rng = np.random.default_rng(5)
    topic = rng.normal(0.5, 0.1, 40)
    rows = [topic + level + rng.normal(0, 0.002, 40) for level in (0.0, 0.0, 0.2, 0.2, 0.4, 0.4)]
    share, count, pvalues = _measurements.power(np.array(rows), alpha=0.05, n_resamples=500, seed=0)
    assert (share, count, int(np.count_nonzero(pvalues < 0.05))) == (12 / 15, 12, 12)


def test_swap_rates_of_ordered_and_exchangeable_systems():
    rng = np.random.default_rng(2)
    topic = rng.normal(0.5, 0.2, (1, 60))
    ordered = topic + np.arange(5)[:, None] * 0.1  # the same order on every query: never swaps
    sizes = _measurements.swap_sizes(60)
    assert (_measurements.swap_curve(ordered, sizes, trials=100, seed=0) == 0).all()
    # No system better: on small subsets of many queries a pair's order is a coin flip. (On subsets of half
    # the queries it is not: the two halves share the whole sample's chance difference.)
    exchangeable = rng.normal(0.5, 0.2, (5, 4000))
    rates = _measurements.swap_curve(exchangeable, np.array([5, 10, 20]), trials=400, seed=0)
    assert np.all(np.abs(rates - 0.5) < 0.06), rates  # 4,000 pair-trials: sd ~ 0.008, pairs correlated


def test_queries_for_a_swap_rate_solve_the_exponential_fit():
    sizes = np.array([4, 8, 12, 16, 20])
    queries, a, b = _measurements.queries_for_swap_rate(sizes, 0.3 * np.exp(-0.08 * sizes), 0.05)
    assert (a, b) == (pytest.approx(0.3), pytest.approx(0.08))
    assert queries == pytest.approx(math.log(0.3 / 0.05) / 0.08)
    flat = _measurements.queries_for_swap_rate(sizes, np.full(5, 0.2), 0.05)[0]
    assert math.isinf(flat)  # a curve that does not fall reaches no target
    assert _measurements.queries_for_swap_rate(sizes, np.zeros(5), 0.05)[0] == 4  # swap-free from the first size
    # A curve that rises (no falling fit) but is measured at or below the target: its first such size, not "never".
    rising = np.array([0.06, 0.04, 0.07, 0.08, 0.09])
    assert np.polyfit(sizes, np.log(rising), 1)[0] > 0  # (the fit slopes up)
    assert _measurements.queries_for_swap_rate(sizes, rising, 0.05)[0] == 8


def test_agreement_ties_means_that_differ_only_in_rounding():
    # A and B have the same values on permuted queries: equal means in exact arithmetic, 1 ulp apart as summed.
    a, b, c = 0.1 + 0.2 + 0.3, 0.3 + 0.2 + 0.1, 0.9
    assert a != b and abs(a - b) < 1e-15
    # Both orders: A = B < C. By hand, tau-b = (concordant - discordant) / sqrt((n0 - t_x)(n0 - t_y)) = 2 / 2 = 1.
    assert _measurements.agreement(np.array([a, b, c]), np.array([b, a, c])) == pytest.approx(1.0)
    assert math.isnan(_measurements.agreement(np.array([a, b]), np.array([0.2, 0.7])))  # two tied systems: no order
    assert _measurements.agreement(np.array([0.1, 0.2, 0.3]), np.array([0.3, 0.2, 0.1])) == pytest.approx(-1.0)


def test_a_swap_curve_that_does_not_fall_is_read_by_its_measured_sizes(monkeypatch):
    # Every candidate's curve rises with the query-set size, but starts below the target: the reasons give the first
    # size measured at or below it (the table's count), and say that the curve does not fall.
    qrels, runs = collection(3, systems=4, queries=30, docs=20)
    monkeypatch.setattr(_measurements, "swap_curve", lambda matrix, sizes, **_: np.linspace(0.06, 0.09, sizes.size))
    advice = advise(qrels, runs, **SMALL)
    sizes = _measurements.swap_sizes(30)
    assert (advice.table["queries_for_swap_target"] == math.inf).all()  # above 0.05 at every size: never reached
    monkeypatch.setattr(_measurements, "swap_curve", lambda matrix, sizes, **_: np.linspace(0.04, 0.09, sizes.size))
    advice = advise(qrels, runs, **SMALL)
    assert (advice.table["queries_for_swap_target"] == sizes[0]).all()
    stability = next(r for r in advice.reasons if r.startswith("stability"))
    assert f"already with {sizes[0]} queries it is 4.0%, below the target of 5.0%" in stability
    curve = np.r_[0.06, np.linspace(0.04, 0.09, sizes.size - 1)]
    monkeypatch.setattr(_measurements, "swap_curve", lambda matrix, sizes, **_: curve)
    advice = advise(qrels, runs, **SMALL)
    assert (advice.table["queries_for_swap_target"] == sizes[1]).all()
    stability = next(r for r in advice.reasons if r.startswith("stability"))
    assert "(its fit does not fall with more queries)" in stability
    assert f"first at or below the target of 5.0% with {sizes[1]} queries" in stability
    # One size with a swap, then none: it falls, but there is nothing to fit (it said "does not fall").
    curve = np.r_[0.2, np.zeros(sizes.size - 1)]
    monkeypatch.setattr(_measurements, "swap_curve", lambda matrix, sizes, **_: curve)
    stability = next(r for r in advise(qrels, runs, **SMALL).reasons if r.startswith("stability"))
    assert "(fewer than two sizes have a swap to fit)" in stability and "does not fall" not in stability
    assert f"first at or below the target of 5.0% with {sizes[1]} queries" in stability


def test_results_depend_on_the_seed_only_through_the_draws():
    qrels, runs = collection(4)
    a, b = advise(qrels, runs, seed=1, **SMALL), advise(qrels, runs, seed=1, **SMALL)
    pd.testing.assert_frame_equal(a.table, b.table)
    c = advise(qrels, runs, seed=2, **SMALL)
    for column in ("phi", "erho2", "tau_log2"):  # no draw in these
        pd.testing.assert_series_equal(a.table[column], c.table[column])


# ---------------------------------------------------------------- the rule


def rule_table(rows):
    base = {"gain": "linear", "cutoff": "none", "swap_rate": 0.1}
    return pd.DataFrame([{**base, **row, "measure": f"m{i}"} for i, row in enumerate(rows)])


def test_the_rule_prefers_power_then_phi_then_log2():
    # 1. A much more discriminative candidate wins although less dependable.
    table = rule_table(
        [{"discount": "log2", "power": 0.5, "phi": 0.95}, {"discount": "zipf", "power": 0.7, "phi": 0.9}]
    )
    assert _advise._choose(table)[0] == 1
    # 2. Within the power margin the more dependable wins, by more than the Phi margin.
    table = rule_table(
        [
            {"discount": "log2", "power": 0.7, "phi": 0.90},
            {"discount": "zipf", "power": 0.7 - POWER_MARGIN / 2, "phi": 0.90 + 2 * PHI_MARGIN},
        ]
    )
    assert _advise._choose(table)[0] == 1
    # 3. log2 is kept when it is as discriminative and its Phi is within the margin.
    table = rule_table(
        [
            {"discount": "log2", "power": 0.7, "phi": 0.90},
            {"discount": "zipf", "power": 0.72, "phi": 0.90 + PHI_MARGIN / 2},
        ]
    )
    assert _advise._choose(table)[0] == 0
    # 4. ... but only log2 with the chosen gain and cut-off.
    table = rule_table(
        [
            {"discount": "log2", "power": 0.7, "phi": 0.90, "cutoff": "10"},
            {"discount": "zipf", "power": 0.72, "phi": 0.905},
        ]
    )
    assert _advise._choose(table)[0] == 1


def test_the_recommendation_is_the_rules_choice_and_is_explained():
    qrels, runs = collection(6)
    advice = advise(qrels, runs, **SMALL)
    chosen, shortlisted = _advise._choose(advice.table.drop(columns=["shortlisted", "recommended"]))
    assert advice.recommended == advice.table.loc[chosen, "measure"]
    assert (advice.table["shortlisted"].to_numpy() == shortlisted).all()
    text = str(advice)
    assert advice.recommended in text and "discriminative power" in text and "Phi" in text
    assert set(advice.by_cutoff) == {"none", "5"}
    fig = advice.figure()
    assert len(fig.axes) == 2


# ---------------------------------------------------------------- inputs and errors


def test_pyterrier_and_ir_measures_frames_are_read():
    qrels, runs = collection(1, systems=3)
    expected = advise(qrels, runs, **SMALL).table
    pt_qrels = qrels.rename(columns={"query": "qid", "doc": "docno", "relevance": "label"})
    pt_runs = {name: run.rename(columns={"query": "qid", "doc": "docno"}).assign(rank=0) for name, run in runs.items()}
    pd.testing.assert_frame_equal(advise(pt_qrels, pt_runs, **SMALL).table, expected)
    irm_qrels = qrels.rename(columns={"query": "query_id", "doc": "doc_id"})
    irm_runs = [
        run.rename(columns={"query": "query_id", "doc": "doc_id"}).assign(**{"query": "text"}) for run in runs.values()
    ]
    got = advise(irm_qrels, irm_runs, **SMALL)
    assert got.systems == ("run1", "run2", "run3")
    np.testing.assert_array_equal(got.table["phi"], expected["phi"])


def test_bad_inputs_give_the_evaluators_errors(tmp_path):
    qrels = tmp_path / "qrels.txt"
    qrels.write_text("q1 0 a 1\nq1 0 b 0\nq2 0 a 2\n")
    good = tmp_path / "good.txt"
    good.write_text("q1 Q0 a 1 2.0 r\nq1 Q0 b 2 1.0 r\nq2 Q0 a 1 1.0 r\n")
    bad = tmp_path / "bad.txt"
    bad.write_text("q1 Q0 a 1 2.0 r\nq1 Q0 b 2 x r\n")
    with pytest.raises(InputError, match=r"bad.txt:2"):
        advise(str(qrels), [str(good), str(bad)])
    with pytest.raises((TypeError, ValueError), match="runs"):
        advise(str(qrels), [str(good)])


@pytest.mark.parametrize(
    ("options", "error", "message"),
    [
        ({"discounts": ["zipf"]}, ValueError, "discounts must include 'log2'"),
        ({"discounts": ["log2", "harmonic"]}, ValueError, "unknown discount"),
        ({"cutoffs": [0]}, ValueError, "cutoffs must be an integer >= 1 or None, got 0"),
        ({"gains": "linear"}, TypeError, "gains must be a non-empty sequence"),
        ({"discounts": []}, ValueError, "discounts must be a non-empty sequence, got an empty list"),
        ({"gains": ["linear", "linear"]}, ValueError, "gains has a value twice"),
        ({"alpha": 1.5}, ValueError, "alpha must be strictly between 0 and 1, got 1.5"),
        ({"target_swap_rate": 0}, ValueError, "target_swap_rate must be strictly between 0 and 0.5"),
        # a random order swaps half the pairs: 0.6 was accepted as a target
        *(
            (
                {"target_swap_rate": rate},
                ValueError,
                "target_swap_rate must be strictly between 0 and 0.5 (random orders of the systems swap half the "
                f"pairs: a target of 0.5 or more is met by chance), got {rate}",
            )
            for rate in (0.5, 0.6)
        ),
        ({"n_resamples": 0}, ValueError, "n_resamples must be an integer in [1, 2147483647], got 0"),
        # beyond, numpy's sizes overflowed (OverflowError, "Maximum allowed dimension exceeded")
        ({"n_resamples": 10**23}, ValueError, "n_resamples must be an integer in [1, 2147483647], got 10000000"),
        ({"swap_trials": 2**31}, ValueError, "swap_trials must be an integer in [1, 2147483647], got 2147483648"),
        ({"seed": -1}, ValueError, "seed must be an integer >= 0, got -1"),
        ({"convention": "trec"}, ValueError, "unknown convention 'trec'"),
    ],
)
def test_bad_arguments_are_named(options, error, message):
    qrels, runs = collection(0, systems=2, queries=6, docs=5)
    with pytest.raises(error) as raised:
        advise(qrels, runs, **{**SMALL, **options})
    assert message in str(raised.value)


# ---------------------------------------------------------------- the command


def run_command(argv, capsys):
    import argparse

    parser = argparse.ArgumentParser(prog="ndcg-research")
    advice_cli.register(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["advise", *argv])
    status = args.run(args)
    return status, *capsys.readouterr()


def test_command(tmp_path, capsys):
    qrels_file, files = write_trec(tmp_path, *collection(2, systems=3, queries=12, docs=10))
    status, out, _ = run_command(
        [qrels_file, *files, "--resamples", "200", "--trials", "20", "--figure", str(tmp_path / "advice.png")],
        capsys,
    )
    assert status == 0 and out.startswith("advise: 3 systems on 12 queries, 40 candidate settings")
    assert "Recommended: ndcg" in out and (tmp_path / "advice.png").stat().st_size > 0
    status, out, _ = run_command(
        [qrels_file, *files, "--resamples", "200", "--trials", "20", "--format", "json"], capsys
    )
    parsed = json.loads(out)
    assert status == 0 and len(parsed["candidates"]) == 40 and parsed["systems"] == ["s0", "s1", "s2"]
    status, out, _ = run_command(
        [qrels_file, *files, "--resamples", "200", "--trials", "20", "--format", "csv"], capsys
    )
    assert status == 0 and out.splitlines()[0].startswith("measure,discount,cutoff,gain,power")
    # Every float exactly as the JSON (Python's repr) has it, an infinite count as "Infinity" and an undefined value
    # as null: the CSV rounded to 10 significant digits.
    table = pd.read_csv(io.StringIO(out))
    exact = pd.DataFrame(parsed["candidates"]).replace("Infinity", math.inf).infer_objects()
    floats = [c for c in exact.columns if exact[c].dtype.kind == "f"]
    assert {"phi", "queries_for_phi", "queries_for_swap_target", "tau_log2"} <= set(floats)
    for column in floats:
        written = np.array(table[column], dtype=float)
        assert np.array_equal(written, exact[column].to_numpy(float), equal_nan=True), column
    status, out, err = run_command([qrels_file, files[0], str(tmp_path / "missing.txt")], capsys)
    assert status == 1 and err.startswith("ndcg-research advise: error:") and "missing.txt" in err


def test_a_figure_the_command_cannot_write_is_refused_before_the_work(tmp_path, capsys, monkeypatch):
    # Checked first: a missing library or a name without suffix (matplotlib would add .png unsaid) used to
    # come after the whole analysis, whose output was then thrown away.
    for name in ("out", "out.txt"):
        status, out, err = run_command(["missing-qrels", "r1", "r2", "--figure", str(tmp_path / name)], capsys)
        assert status == 1 and out == "" and "give the file a suffix matplotlib writes (.png, .pdf, .svg)" in err
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "matplotlib" else real(name, *a))
    status, out, err = run_command(["missing-qrels", "r1", "r2", "--figure", str(tmp_path / "out.png")], capsys)
    assert status == 1 and out == "" and "--figure needs matplotlib" in err


# ---------------------------------------------------------------- runs that no candidate tells apart


def write_trec(tmp_path, qrels, runs):
    """The frames of ``collection`` as TREC files: the qrels' path and the runs' paths."""
    qrels_file = tmp_path / "qrels.txt"
    qrels_file.write_text("".join(f"{q} 0 {d} {g}\n" for q, d, g in qrels.itertuples(index=False)))
    files = []
    for name, run in runs.items():
        path = tmp_path / f"{name}.txt"
        path.write_text("".join(f"{q} Q0 {d} 0 {s!r} {name}\n" for q, d, s in run.itertuples(index=False)))
        files.append(str(path))
    return str(qrels_file), files


def test_identical_systems_have_no_dependability_by_hand():
    # Two copies of one system: every system mean equals the grand mean and every residual is 0, so the system
    # and interaction variances are 0 exactly and the topic variance is var(x): Phi = 0 / (0 + var(x) / n) = 0,
    # E rho^2 = 0 / 0 (undefined), and no number of queries reaches Phi = 0.8. (Rounding residues of 1e-32 gave
    # E rho^2 = 0.909 and 1.1e35 queries.)
    for seed in range(8):  # seeds 1, 6 and 7 left such residues
        x = np.random.default_rng(seed).random(12)
        phi, erho2, needed = _measurements.dependability(np.vstack([x, x]))
        assert phi == 0.0 and math.isnan(erho2) and needed == math.inf


@pytest.mark.parametrize("fmt", ["text", "csv", "json"])
def test_a_run_and_its_copy_are_refused_in_one_line(tmp_path, capsys, fmt):
    qrels, runs = collection(2, systems=1, queries=12, docs=10)
    qrels_file, (run0,) = write_trec(tmp_path, qrels, runs)
    copy = tmp_path / "run0b.txt"
    copy.write_bytes((tmp_path / "s0.txt").read_bytes())
    with pytest.raises(ValueError, match="the runs have the same value on every query under every candidate"):
        advise(qrels_file, [run0, str(copy)], **SMALL)
    status, out, err = run_command([qrels_file, run0, str(copy), "--trials", "20", "--format", fmt], capsys)
    assert status == 1 and out == "" and len(err.splitlines()) == 1
    assert err.startswith("ndcg-research advise: error: the runs have the same value") and "nothing to recommend" in err


def test_qrels_whose_grades_are_all_0_are_refused(tmp_path, capsys):
    # No relevant document: under trec_eval's convention every query has ideal DCG 0 and scores 0 in every run.
    qrels, runs = collection(2, systems=3, queries=12, docs=10)
    qrels_file, files = write_trec(tmp_path, qrels.assign(relevance=0), runs)
    with pytest.raises(ValueError, match="every run scores 0 on every query under every candidate"):
        advise(qrels_file, files, **SMALL)
    status, out, err = run_command([qrels_file, *files, "--trials", "20"], capsys)
    assert status == 1 and out == "" and "are all the grades in the qrels 0?" in err
    # Conventions that score such a query 1 (LightGBM, XGBoost): every value is 1, and the message says why.
    for convention in ("lightgbm", "xgboost"):
        with pytest.raises(ValueError, match=r"every run scores 1 on every query.*are all the grades in the qrels 0\?"):
            advise(qrels_file, files, convention=convention, **SMALL)


def test_a_cut_off_under_which_the_runs_tie_is_not_recommended():
    # s1 ranks the first 5 documents of every query as s0 does and reverses the rest: every candidate @5 gives
    # the two runs the same value on every query (as the first 5 results are the same), the others do not.
    qrels, runs = collection(8, systems=2, queries=20, docs=12)
    first = runs["s0"].assign(score=np.tile(np.arange(12, 0, -1.0), 20))  # documents d00..d11 ranked in order
    second = first.assign(score=np.tile(np.r_[np.arange(12, 7, -1.0), np.arange(1, 8.0)], 20))
    runs = {"s0": first, "s1": second}
    cut5 = evaluate(qrels, runs, "ndcg@5").values
    assert np.array_equal(cut5[0], cut5[1]) and not np.array_equal(*evaluate(qrels, runs, "ndcg").values)
    advice = advise(qrels, runs, **SMALL)
    at5 = advice.table["cutoff"] == "5"
    assert not advice.table.loc[at5, "shortlisted"].any() and not advice.table.loc[at5, "recommended"].any()
    assert set(advice.by_cutoff) == {"none"} and "@5" not in advice.recommended
    assert any("at cut-off 5 every candidate gives every run the same value" in n for n in advice.notes)
    assert any(n.startswith("4 candidates (ndcg@5(") and "not recommended" in n for n in advice.notes)
    assert (advice.table.loc[at5, "phi"] == 0).all() and advice.table.loc[at5, "erho2"].isna().all()
    # no pair is ever ordered: a swap rate of 0 that reaches no target (it read "1 query" as if stable)
    assert (advice.table.loc[at5, "swap_rate"] == 0).all() and advice.table.loc[
        at5, "queries_for_swap_target"
    ].isna().all()


# ---------------------------------------------------------------- wording


def test_reasons_count_in_words_and_state_undefined_cases_plainly():
    # One query per subset, swap-free from the first size; no system variance (no query count reaches Phi = 0.8);
    # Kendall tau undefined for the other discount.
    table = pd.DataFrame(
        [
            {"measure": "a", "discount": "log2", "cutoff": "none", "gain": "linear", "power": 0.0,
             "pairs_significant": 0, "phi": 0.4, "erho2": 0.5, "queries_for_phi": math.inf, "swap_rate": 0.0,
             "queries_for_swap_target": 1.0, "tau_log2": 1.0, "shortlisted": True},
            {"measure": "b", "discount": "zipf", "cutoff": "none", "gain": "linear", "power": 0.0,
             "pairs_significant": 0, "phi": 0.4, "erho2": 0.5, "queries_for_phi": math.inf, "swap_rate": 0.0,
             "queries_for_swap_target": 1.0, "tau_log2": math.nan, "shortlisted": False},
        ]
    )  # fmt: skip
    settings = {"alpha": 0.05, "target_swap_rate": 0.05, "n_resamples": 100, "swap_trials": 200}
    reasons = _advise._reasons(table, 0, [(1, 0.0), (2, 0.0)], n_queries=4, n_systems=2, settings=settings)
    text = "\n".join(reasons)
    assert "already with 1 query it is 0.0%" in text and "the only candidate as discriminative" in text
    assert "no number of queries would reach it" in text and "Kendall tau against log2 is undefined" in text
    for wrong in ("1 queries", "infinitely", "nan", "inf ", "1 candidates"):
        assert wrong not in text, wrong
    reasons = _advise._reasons(table, 1, [(1, 0.0), (2, 0.0)], n_queries=4, n_systems=2, settings=settings)
    assert "nan" not in "\n".join(reasons) and "Kendall tau between their orders is undefined" in reasons[3]


def test_one_candidate_is_counted_in_the_singular():
    qrels, runs = collection(0, systems=3, queries=8, docs=10)
    options = {**SMALL, "discounts": ["log2"], "cutoffs": [None], "gains": ["linear"]}
    assert str(advise(qrels, runs, **options)).startswith("advise: 3 systems on 8 queries, 1 candidate setting (")


def test_the_guide_states_the_exit_status_of_a_refused_option(capsys):
    # The guide said that a bad argument gave one line and status 1; an option argparse refuses (--alpha 1.5) is
    # bad usage, status 2 with the usage lines, in advise as in evaluate and compare (one parser for the three).
    from pathlib import Path

    from ndcg_research.cli import main

    for command in ("advise", "compare"):
        with pytest.raises(SystemExit) as raised:
            option = ["--alpha", "1.5"] if command == "advise" else ["--confidence", "1.5"]
            main([command, "examples/qrels.txt", "examples/run_a.txt", "examples/run_b.txt", *option])
        err = capsys.readouterr().err
        assert raised.value.code == 2 and err.startswith(f"usage: ndcg-research {command}")
        assert err.splitlines()[-1].endswith("must be strictly between 0 and 1, got '1.5'")
    guide = " ".join((Path(__file__).resolve().parents[1] / "docs/guides/advise.md").read_text().split())
    assert "(`--alpha 1.5`, `--convention nope`) is bad usage" in guide and "the status is 2" in guide
    assert "prints such a message on one line and exits with status 1." not in guide


def test_swap_sizes_are_evenly_spaced_up_to_half_the_queries():
    # half = 25: 25/8 * (1..8) = 3.125, 6.25, ..., 25, rounded half to even; 12 and 3 queries give fewer distinct sizes.
    assert _measurements.swap_sizes(50).tolist() == [3, 6, 9, 12, 16, 19, 22, 25]
    assert _measurements.swap_sizes(12).tolist() == [1, 2, 3, 4, 5, 6]
    assert _measurements.swap_sizes(3).tolist() == [1]


def test_two_systems_are_one_pair_in_the_figure():
    qrels, runs = collection(2, systems=2)
    label = advise(qrels, runs, **SMALL).figure().axes[0].get_xlabel()
    assert label.startswith("discriminative power (share of the one pair, "), label  # (it said "share of 1 pairs")


@pytest.mark.parametrize(
    ("curve", "queries", "said"),
    [
        # ln rate through (2, ln 0.1) and (6, ln 0.01): b = ln(10) / 4, A = 0.1 * 10^0.5; ln(A / 0.05) / b = 3.204
        ([(2, 0.1), (6, 0.01)], 3.204, "already below the target of 5.0%; {fit} 4 queries (interpolated)."),
        ([(2, 0.4), (6, 0.2)], 8.2, "{fit} 9 queries (extrapolated)."),
    ],
)
def test_the_fits_query_count_for_the_swap_target_is_said_as_its_crossing(curve, queries, said):
    # At 6 queries the swap rate measured 1.0%, and the fit crosses 5% at 3.2: "about 4 queries would bring that to
    # 5.0%" read as if the measured 1.0% had to rise to it.
    table = pd.DataFrame(
        [{"measure": "a", "discount": "log2", "cutoff": "none", "gain": "linear", "power": 1.0, "pairs_significant": 1,
          "phi": 0.9, "erho2": 0.9, "queries_for_phi": 2.0, "swap_rate": curve[-1][1], "queries_for_swap_target": queries,
          "tau_log2": 1.0, "shortlisted": True}]
    )  # fmt: skip
    settings = {"alpha": 0.05, "target_swap_rate": 0.05, "n_resamples": 100, "swap_trials": 200}
    reasons = _advise._reasons(table, 0, curve, n_queries=12, n_systems=2, settings=settings)
    stability = next(reason for reason in reasons if reason.startswith("stability"))
    assert stability.endswith(said.format(fit="the exponential fit of the swap curve reaches 5.0% at about")), stability
    assert "would bring" not in stability


# ---------------------------------------------------------------- resamples too few for alpha


@pytest.mark.parametrize(("alpha", "refused", "enough"), [(0.05, 19, 20), (0.0001, 9999, 10000), (0.3, 2, 3)])
def test_resamples_too_few_for_any_p_value_below_alpha_are_refused(alpha, refused, enough):
    # A pair's p-value is (count + 1) / (B + 1), significant when below alpha: with B = 19 the smallest is exactly
    # 1/20 = 0.05, never below 0.05. Every candidate's power was 0 and the advice blamed the queries or the systems.
    assert 1 / (refused + 1) >= alpha > 1 / (enough + 1)  # the boundary, by hand
    qrels, runs = collection(0, systems=3, queries=8, docs=10)
    with pytest.raises(ValueError) as raised:
        advise(qrels, runs, **{**SMALL, "alpha": alpha, "n_resamples": refused})
    message = str(raised.value)
    assert message.startswith(f"n_resamples = {refused} is too few for alpha = {alpha:g}: ")
    assert f"the smallest p-value is 1/({refused} + 1) = {1 / (refused + 1):.4g}" in message
    assert message.endswith(f"give n_resamples = {enough} or more")


@pytest.mark.parametrize("alpha", [1e-17, 5e-324, 1 / 2**31])
def test_an_alpha_below_every_p_value_the_test_can_give_is_refused_as_such(alpha):
    # The count it named (10^17) was beyond the resamples allowed, and 5e-324 raised OverflowError (1 / alpha).
    from ndcg_research._validation import MAX_RESAMPLES

    assert 1 / (MAX_RESAMPLES + 1) >= alpha  # no allowed count gives a p-value below it, by hand
    message = _advise.too_few_resamples(alpha, 1000)
    assert message.startswith(f"alpha = {alpha:g} is below every p-value the test can give: with at most 2147483647")
    qrels, runs = collection(0, systems=3, queries=8, docs=10)
    with pytest.raises(ValueError, match="below every p-value the test can give"):
        advise(qrels, runs, **{**SMALL, "alpha": alpha})


def test_the_resamples_asked_for_are_the_fewest_in_float_arithmetic():
    # 1 / alpha is rounded: for alpha = 1/k and its float neighbours the count named is still the fewest n with
    # 1 / (n + 1) < alpha, as the test computes it, found here by counting up.
    alphas = [math.nextafter(1 / k, to) for k in (3, 7, 20, 49, 1000, 10_000) for to in (0, 1)]
    for alpha in [0.05, 0.0001, 0.1, 0.001, 1 / 3, 1 / 49, *alphas]:
        fewest = next(n for n in itertools.count(1) if 1 / (n + 1) < alpha)
        assert _advise.too_few_resamples(alpha, fewest - 1).endswith(f"give n_resamples = {fewest} or more"), alpha
        assert _advise.too_few_resamples(alpha, fewest) == "", alpha


def test_the_fewest_resamples_accepted_can_tell_runs_apart():
    # 20 resamples at alpha 0.05: runs far apart on every query are significant at p = 1/21 (the refusal is tight).
    qrels, runs = collection(5, systems=3, queries=30, skills=[0.0, 3.0, 6.0])
    advice = advise(qrels, runs, **{**SMALL, "n_resamples": 20})
    assert (advice.table["pairs_significant"] > 0).all()


def test_the_command_refuses_too_few_resamples_before_the_work(capsys):
    # "missing-qrels" is never read: the options are refused first, in the command's terms.
    status, out, err = run_command(["missing-qrels", "r1", "r2", "--resamples", "15"], capsys)
    assert status == 1 and out == "" and len(err.splitlines()) == 1
    assert "--resamples 15 is too few for --alpha 0.05: " in err and err.rstrip().endswith(
        "give --resamples 20 or more"
    )
    status, out, err = run_command(["missing-qrels", "r1", "r2", "--alpha", "0.0001"], capsys)
    assert status == 1 and "--resamples 1000 is too few for --alpha 0.0001" in err
    assert err.rstrip().endswith("give --resamples 10000 or more")


@pytest.mark.parametrize("option", ["--resamples", "--trials"])
def test_more_resamples_or_trials_than_the_api_takes_are_refused_by_the_option(option, capsys):
    # It said "swap_trials must be ...", the API's name, with status 1.
    with pytest.raises(SystemExit) as raised:
        run_command(["missing-qrels", "r1", "r2", option, "999999999999"], capsys)
    assert raised.value.code == 2 and capsys.readouterr().err.endswith(
        f"ndcg-research advise: error: argument {option}: must be an integer in [1, 2147483647], got '999999999999'\n"
    )


# ---------------------------------------------------------------- orders against log2


def reversing_collection(queries: int = 8):
    """Two runs and graded-1 judgments in which log2@3 and zipf@3 order the runs oppositely on every query: A ranks a
    relevant document first, B two of them at ranks 2 and 3. DCG@3 of A is 1 under both; of B 1/log2(3) + 1/2 =
    1.131 under log2 but 1/2 + 1/3 = 0.833 under zipf. (Unretrieved relevant documents vary the ideal by query.)"""
    qrels, a, b = {}, {}, {}
    for i in range(queries):
        q = f"q{i}"
        qrels[q] = {"r1": 1, "r2": 1, "r3": 1, "n1": 0, "n2": 0, "n3": 0, **{f"x{j}": 1 for j in range(i % 3)}}
        a[q] = {"r1": 10, "n1": 9, "n2": 8, "n3": 7, "r2": 6, "r3": 5}
        b[q] = {"n1": 10, "r1": 9, "r2": 8, "n2": 7, "n3": 6, "r3": 5}
    return qrels, {"A": a, "B": b}


def test_a_discount_that_reverses_log2s_order_is_said_to_reverse_it():
    # It read "the other discounts order the systems like log2 at Kendall tau -1.00 to -1.00".
    qrels, runs = reversing_collection()
    log2, zipf = (evaluate(qrels, runs, f"ndcg@3(discount={d})").mean_values[:, 0] for d in ("log2", "zipf"))
    assert log2[1] > log2[0] and zipf[0] > zipf[1]  # B wins under log2, A under zipf (the reference)
    options = dict(discounts=["log2", "zipf"], cutoffs=[3], gains=["linear"], n_resamples=500, swap_trials=20)
    advice = advise(qrels, runs, **options)
    text = str(advice)
    assert advice.recommended == "ndcg@3(gain=linear,discount=log2)"  # both tell the pair apart, log2's Phi is 1
    assert "zipf reverses log2's order of the systems (Kendall tau = -1.00)" in text and "like log2" not in text


def test_a_recommended_discount_that_reverses_log2_says_so():
    # On q5 A ranks two relevant documents first and wins under log2 too: log2 no longer tells the pair apart, zipf
    # does and is recommended. It said "the two order the systems alike at Kendall tau = -1.00".
    qrels, runs = reversing_collection(6)
    qrels = {q: {d: g for d, g in judged.items() if not d.startswith("x")} for q, judged in qrels.items()}
    runs["A"]["q5"] = {"r1": 10, "r2": 9, "n1": 8, "n2": 7, "n3": 6, "r3": 5}
    options = dict(discounts=["log2", "zipf"], cutoffs=[3], gains=["linear"], n_resamples=500, swap_trials=20)
    advice = advise(qrels, runs, **options)
    assert advice.recommended == "ndcg@3(gain=linear,discount=zipf)"
    against = next(r for r in advice.reasons if r.startswith("against log2"))
    assert (
        against.endswith("; zipf reverses log2's order of the systems (Kendall tau = -1.00).")
        and "alike" not in against
    )


def reversed_pairs_by_hand(means, reference):
    """Pairs of systems ordered opposite (strictly) by two lists of means: every pair compared."""
    pairs = itertools.combinations(range(len(means)), 2)
    return sum((means[i] - means[j]) * (reference[i] - reference[j]) < 0 for i, j in pairs)


def test_discounts_that_disagree_with_log2s_order_are_named():
    # Any pair reversed is named: it read "order the systems like log2" whenever tau > 0 (tau 0.33: one pair in three
    # reversed), and "compare with log2's order" for tau <= 0. Three systems; the means by hand.
    means = {"log2": [0.1, 0.2, 0.3], "zipf": [0.3, 0.1, 0.2], "loglog": [0.1, 0.3, 0.2], "power": [0.5, 0.6, 0.7]}
    means["geometric"] = [0.2, 0.1, 0.1]  # ties the pair 2-3 that log2 orders
    counts = {d: reversed_pairs_by_hand(m, means["log2"]) for d, m in means.items()}
    assert counts == {"log2": 0, "zipf": 2, "loglog": 1, "power": 0, "geometric": 2}
    taus = {d: stats.kendalltau(m, means["log2"]).statistic for d, m in means.items()}
    rows = [{"discount": d, "tau_log2": tau} for d, tau in taus.items()]
    table = rule_table([{**row, "power": 0.5, "phi": 0.9} for row in rows]).assign(
        pairs_significant=3,
        erho2=0.9,
        queries_for_phi=2.0,
        queries_for_swap_target=3.0,
        shortlisted=[True] + [False] * 4,
    )
    orders = {
        i: _measurements.order_differences(np.array(m), np.array(means["log2"])) for i, m in enumerate(means.values())
    }
    settings = {"alpha": 0.05, "target_swap_rate": 0.05, "n_resamples": 100, "swap_trials": 200}
    reasons = _advise._reasons(
        table, 0, [(2, 0.1), (4, 0.01)], n_queries=8, n_systems=3, settings=settings, orders=orders
    )
    kept = reasons[3]
    assert "like log2" not in kept and "compare with" not in kept
    assert "; power orders the systems as log2 does (Kendall tau = 1.00)" in kept  # (the only one alike)
    assert f"zipf reverses log2's order of {counts['zipf']} of the 3 pairs of systems (Kendall tau = -0.33)" in kept
    assert f"loglog reverses log2's order of {counts['loglog']} of the 3 pairs of systems (Kendall tau = 0.33)" in kept
    # geometric ties 0.1 = 0.1 where log2 orders 0.2 < 0.3, and reverses the other two pairs
    assert (
        f"geometric reverses log2's order of {counts['geometric']} of the 3 pairs of systems and ties 1 pair log2"
        in kept
    )


def test_other_discounts_are_said_alike_only_when_they_reverse_no_pair_end_to_end():
    # Review: E ideal; B puts the grade-3 document 4th or 5th; A puts it first but its grade-1 documents deep. log2 orders
    # E > B > A, geometric(p=0.3) E > A > B: one pair in three reversed (tau 0.33), said "order the systems like log2".
    ones, zeros = list(range(1, 16)), list(range(16, 46))
    qrels = {f"q{i}": {f"d{d}": 3 if d == 0 else int(d < 16) for d in range(46)} for i in range(10)}

    def run(order):
        return {f"q{i}": {f"d{d}": 100.0 - r for r, d in enumerate(order(i))} for i in range(10)}

    runs = {
        "E": run(lambda i: [0, *ones, *zeros]),
        "B": run(lambda i: ones[: 3 + i % 2] + [0] + ones[3 + i % 2 :] + zeros),
        "A": run(lambda i: [0] + zeros[: 25 + i % 3] + ones + zeros[25 + i % 3 :]),
    }
    discounts = ["log2", "geometric(p=0.3)"]
    means = [evaluate(qrels, runs, f"ndcg(discount={d!r})").mean_values[:, 0] for d in discounts]
    reversed_ = reversed_pairs_by_hand(means[1], means[0])
    assert reversed_ == 1
    advice = advise(qrels, runs, discounts=discounts, cutoffs=[None], gains=["linear"], n_resamples=200, swap_trials=20)
    text = str(advice)
    assert "like log2" not in text and "as log2 does" not in text and "alike" not in text
    assert f"geometric(p=0.3) reverses log2's order of {reversed_} of the 3 pairs of systems" in text


# ---------------------------------------------------------------- p-values near alpha


@pytest.mark.parametrize("collection_seed", [5, 11])
def test_a_recommendation_that_another_seed_changes_says_that_it_may(collection_seed):
    # On five systems and 16 queries the seeds 0-4 do not all recommend the same setting: each that differs from the
    # most frequent choice warns that a p-value is within the resampling error of alpha. (It said "no candidate tells
    # apart more" and "the only candidate as discriminative as the best" flatly.)
    qrels, runs = collection(collection_seed, systems=5, queries=16, docs=20)
    options = {**SMALL, "n_resamples": 300, "swap_trials": 10}
    advices = [advise(qrels, runs, seed=seed, **options) for seed in range(5)]
    chosen = [a.recommended for a in advices]
    usual = max(set(chosen), key=chosen.count)
    assert len(set(chosen)) > 1 and all("the counts come from 300 random resamples" in a.reasons[0] for a in advices)
    error = 2 * math.sqrt(0.05 * 0.95 / 300)
    for advice in advices:
        said = [r for r in advice.reasons if r.startswith("caution: a pair's p-value under ")]
        assert said or advice.recommended == usual
        if said:
            found = re.search(r" is (0\.\d+), (below|not below) alpha = 0.05 but within the resampling error ", said[0])
            p = float(found.group(1))  # (4 significant digits: which side of alpha is said, not left to rounding)
            assert (found.group(2) == "below") == (p < 0.05) and abs(p - 0.05) <= error + 5e-6
            assert f"two standard errors with 300 resamples: {error:.3f}" in said[0]
            assert said[0].endswith(
                "may change with another seed or the runs in another order; more resamples narrow the error."
            )


def test_p_values_far_from_alpha_give_no_caution():
    qrels, runs = collection(5, systems=3, queries=30, skills=[0.0, 3.0, 6.0])
    assert not any("resampling error" in reason for reason in advise(qrels, runs, **SMALL).reasons)


# ---------------------------------------------------------------- the choice at each cut-off


def test_the_per_cut_off_list_says_its_margin_counts_from_the_cut_offs_own_highest_power():
    # All candidates: the best power is log2@10's 0.5, so the margin keeps 0.45 and up: log2 (whole ranking, Phi 0.90)
    # is chosen over log2@10 (Phi 0.80). The whole ranking alone: its best power is 0.45, the margin keeps 0.40 and
    # up, and zipf's Phi 0.95 wins. The list named zipf for the whole ranking without a word on the recommended log2.
    rows = [
        {"discount": "log2", "cutoff": "none", "power": 0.45, "phi": 0.90},
        {"discount": "log2", "cutoff": "10", "power": 0.50, "phi": 0.80},
        {"discount": "zipf", "cutoff": "none", "power": 0.40, "phi": 0.95},
        {"discount": "zipf", "cutoff": "10", "power": 0.30, "phi": 0.70},
    ]
    table = rule_table(rows).assign(measure=["log2 whole", "log2 @10", "zipf whole", "zipf @10"])
    chosen, shortlisted = _advise._choose(table)
    at_none = table["cutoff"] == "none"
    assert chosen == 0 and _advise._choose(table[at_none])[0] == 2  # by hand, above
    table = table.assign(shortlisted=shortlisted, recommended=table.index == chosen)
    by_cutoff = {"none": "zipf whole", "10": "log2 @10"}
    lines = _advise.Advice("log2 whole", table, pd.DataFrame(), (), by_cutoff, ("a", "b", "c"), 10).text().splitlines()
    assert lines[-3:] == [
        "If a cut-off is fixed by what your users see, the same rule among that cut-off's candidates (its margin counts "
        "from that cut-off's own highest power, so at the recommended setting's cut-off it may name another setting):",
        "  whole ranking: zipf whole",
        "  @10: log2 @10",
    ]


# ---------------------------------------------------------------- the swap fit's query count


def swap_reason(curve, pairs_significant, n_systems=3, target=0.05, trials=200):
    sizes, rates = (np.array(column) for column in zip(*curve, strict=True))
    queries = _measurements.queries_for_swap_rate(sizes, rates, target)[0]
    table = pd.DataFrame(
        [{"measure": "a", "discount": "log2", "cutoff": "none", "gain": "linear", "power": 1.0, "phi": 0.9,
          "pairs_significant": pairs_significant, "erho2": 0.9, "queries_for_phi": 2.0, "swap_rate": rates[-1],
          "queries_for_swap_target": queries, "tau_log2": 1.0, "shortlisted": True}]
    )  # fmt: skip
    settings = {"alpha": 0.05, "target_swap_rate": target, "n_resamples": 100, "swap_trials": trials}
    reasons = _advise._reasons(table, 0, curve, n_queries=12, n_systems=n_systems, settings=settings)
    return next(reason for reason in reasons if reason.startswith("stability"))


def test_an_extrapolated_swap_count_with_pairs_not_told_apart_is_read_as_optimistic():
    # A curve at 0.5, 0.54, 0.48, 0.48, 0.34 on 1-5 queries (two runs that nearly tie: the rate of a coin flip) was
    # fitted as reaching 5% at 29 queries and said so without a word, while Phi asked for 21,152 queries.
    flat = [(1, 0.5), (2, 0.54), (3, 0.48), (4, 0.48), (5, 0.34)]
    said = swap_reason(flat, 0, n_systems=2)
    assert said.endswith(
        "(extrapolated); read that count as optimistic: with pairs not told apart (1 of 1), nearly equal systems keep "
        "swapping at every size."
    )
    falling = [(2, 0.4), (4, 0.25), (6, 0.16)]  # extrapolated too, but every pair told apart: no caveat
    assert "(extrapolated)" in swap_reason(falling, 3) and "optimistic" not in swap_reason(falling, 3)
    assert "with pairs not told apart (2 of 3)" in swap_reason(falling, 1)
    inside = [(2, 0.4), (4, 0.04), (6, 0.01)]  # interpolated: the data cover the count
    assert "(interpolated)" in swap_reason(inside, 1) and "optimistic" not in swap_reason(inside, 1)


def test_runs_that_nearly_tie_get_the_caveat_end_to_end():
    # The same ten first documents in both runs, the rest shuffled: the runs tie at @10 and nearly over the whole
    # ranking; the fit of the whole ranking's swap curve is extrapolated far beyond the five queries measured.
    rng = np.random.default_rng(1)
    qrels = {f"q{i}": {f"d{j}": int(rng.integers(0, 3)) for j in range(30)} for i in range(10)}
    base = {q: {f"d{j}": 100 - j for j in range(30)} for q in qrels}
    other = {}
    for q in qrels:
        docs = [f"d{j}" for j in range(30)]
        tail = docs[10:]
        rng.shuffle(tail)
        other[q] = {d: 100 - r for r, d in enumerate(docs[:10] + tail)}
    options = dict(cutoffs=[10, None], discounts=["log2", "zipf"], gains=["linear"], n_resamples=500, swap_trials=50)
    advice = advise(qrels, {"base": base, "other": other}, **options)
    row = advice.table.loc[advice.table["recommended"]].iloc[0]
    assert row["queries_for_swap_target"] > advice.swap_curves["size"].max() and row["pairs_significant"] == 0
    assert "read that count as optimistic: with pairs not told apart (1 of 1)" in str(advice)


def test_a_fit_crossing_before_the_first_size_is_not_said_to_be_about_the_target():
    # 30% at one query, 1% from two on: the fit crosses 5% below one query. It said "already with 1 query it is 30.0%,
    # about the target of 5.0%".
    said = swap_reason([(1, 0.3)] + [(size, 0.01) for size in range(2, 9)], 3)
    assert said.endswith(
        "the exponential fit reaches 5.0% before the smallest size measured, where the rate is still 30.0%; measured, "
        "it is first at or below the target with 2 queries."
    )
    assert "about the target" not in said and "already with" not in said
    assert "already with 1 query it is 2.0%, below the target of 5.0%." in swap_reason([(1, 0.02), (2, 0.01)], 3)


@pytest.mark.parametrize(("target", "said"), [(0.0001, "0.01%"), (0.0125, "1.25%"), (0.05, "5.0%")])
def test_the_target_swap_rate_is_said_with_its_digits(target, said):
    # A target of 0.0001 was said as "below the target of 0.0%". (3 systems x 4000 trials: 12,000 pair comparisons,
    # enough for a measured 0 to be below 0.01%.)
    stability = swap_reason([(1, 0.0), (2, 0.0)], 3, target=target, trials=4000)
    assert stability.endswith(f"already with 1 query it is 0.0%, below the target of {said}."), stability


@pytest.mark.parametrize("target", [1e-13, 0.0001])
def test_a_measured_0_is_not_said_below_a_target_the_trials_cannot_resolve(target):
    # 0 swaps in 3 pairs x 200 trials = 600 comparisons: a rate below 1/600, which shows nothing about a rate of
    # 1e-13. It said "order 0.0% ... already below the target of 0.0%; the exponential fit reaches 0.0% at ...".
    comparisons = 3 * 200
    assert target < 1 / comparisons
    for curve in ([(1, 0.0), (2, 0.0)], [(1, 0.3), (2, 0.01), (3, 0.0)], [(2, 0.3), (4, 0.1), (6, 0.0)]):
        said = swap_reason(curve, 3, target=target)
        assert "below the target" not in said and "0.0%" not in said, said
        assert f"{100 * target:.3g}%" in said and f"below 1/{comparisons}" in said, said
    stability = swap_reason([(2, 0.3), (4, 0.1), (6, 0.0)], 3, target=target)
    assert stability.startswith(
        f"stability: two disjoint sets of 6 queries order no pair differently (0 of {comparisons}"
    )


def test_small_measured_rates_are_told_apart_from_0():
    # 1 swap in 3 pairs x 2000 trials is 0.0167%: it printed as 0.0%, like no swap.
    said = swap_reason([(2, 0.3), (4, 0.01), (6, 1 / 6000)], 3, trials=2000)
    assert "order 0.017% of the pairs differently" in said, said


def test_a_fit_crossing_below_the_smallest_size_is_no_count_of_0_queries():
    # ln rate through (4, ln 0.01) and (8, ln 0.001): by hand b = ln(10) / 4, A = 0.01 * 10 = 0.1, so the fit
    # reaches 0.05 at ln(2) / b = 1.2 and 0.5 at -2.8 queries: it said 0.0 ("0 queries"), not "at most 4".
    sizes = np.array([4, 8])
    queries, a, b = _measurements.queries_for_swap_rate(sizes, np.array([0.01, 0.001]), 0.45)
    assert (a, b) == (pytest.approx(0.1), pytest.approx(math.log(10) / 4))
    assert math.log(a / 0.45) / b < 0 and queries == 4  # at most the smallest size measured
    assert _measurements.queries_for_swap_rate(sizes, np.array([0.01, 0.001]), 0.05)[0] == 4  # crossing at 1.2


def test_the_command_refuses_a_target_swap_rate_that_chance_meets_saying_why(capsys):
    with pytest.raises(SystemExit) as raised:
        run_command(["missing-qrels", "r1", "r2", "--target-swap-rate", "0.6"], capsys)
    assert raised.value.code == 2 and capsys.readouterr().err.endswith(
        "ndcg-research advise: error: argument --target-swap-rate: must be strictly between 0 and 0.5 "
        "(random orders of the systems swap half the pairs: a target of 0.5 or more is met by chance), got '0.6'\n"
    )


# ---------------------------------------------------------------- arguments in the user's terms, outputs distinct


def test_discounts_refused_are_shown_as_given():
    # log(base=2) is log2's function, but its spec is "log" (parse_discount's canonical form), not "log2": refused,
    # and the message showed ['log', 'zipf'], a list the user never typed. So did a discount given twice.
    qrels, runs = collection(0, systems=3, queries=8, docs=10)
    options = {**SMALL, "cutoffs": [None], "gains": ["linear"]}
    with pytest.raises(
        ValueError, match=re.escape("discounts must include 'log2', the reference of the agreement")
    ) as raised:
        advise(qrels, runs, **{**options, "discounts": ["log(base=2)", "zipf"]})
    assert str(raised.value).endswith("got ['log(base=2)', 'zipf']")
    given = ["log2", "power(beta=1)", "power(beta=1.0)"]
    with pytest.raises(ValueError, match=re.escape(f"discounts has a value twice: {given!r}")):
        advise(qrels, runs, **{**options, "discounts": given})


def test_one_shared_query_is_refused_in_advises_terms():
    # It said "paired tests need at least 2", a test advise's caller never asked for (run_matrices says it for both).
    qrels = {"q1": {"a": 1, "b": 0}, "q2": {"a": 1}}
    runs = {"x": {"q1": {"a": 2, "b": 1}}, "y": {"q1": {"a": 1, "b": 2}}}
    with pytest.raises(ValueError) as raised:
        advise(qrels, runs, complete=False, **SMALL)
    assert str(raised.value) == "the runs share only 1 evaluated query; comparing runs needs at least 2"


def test_json_tells_an_infinite_count_from_an_undefined_value():
    # Under @5 the two runs tie on every query: no number of queries reaches Phi = 0.8 (infinite) and the swap target
    # of a candidate that orders no pair is undefined. Both were null.
    qrels, runs = collection(8, systems=2, queries=20, docs=12)
    first = runs["s0"].assign(score=np.tile(np.arange(12, 0, -1.0), 20))
    second = first.assign(score=np.tile(np.r_[np.arange(12, 7, -1.0), np.arange(1, 8.0)], 20))
    advice = advise(qrels, {"s0": first, "s1": second}, **SMALL)
    row = json.loads(advice_cli._json(advice))["candidates"][advice.table.index[advice.table["cutoff"] == "5"][0]]
    assert row["queries_for_phi"] == "Infinity" and float(row["queries_for_phi"]) == math.inf
    assert row["queries_for_swap_target"] is None and row["erho2"] is None


def test_the_figure_without_matplotlib_says_what_to_install(monkeypatch):
    # It raised the import's own traceback (the command said what to install; the method did not).
    import sys

    advice = advise(*collection(0, systems=3, queries=8, docs=10), **SMALL)
    monkeypatch.setitem(sys.modules, "ndcg_research.advice._figure", None)
    with pytest.raises(ModuleNotFoundError, match=r"^Advice.figure needs matplotlib \(.*\): pip install matplotlib$"):
        advice.figure()


def test_a_figure_in_a_missing_folder_is_refused_before_the_work(tmp_path, capsys):
    target = tmp_path / "missing" / "advice.png"
    status, out, err = run_command(["missing-qrels", "r1", "r2", "--figure", str(target)], capsys)
    assert status == 1 and out == "" and err.rstrip().endswith(f"--figure {str(target)!r}: its folder does not exist")


def test_every_candidate_has_its_own_colour_shape_and_fill_in_the_figure():
    # Cut-offs other than none, 10, 20 and 100 shared one marker, and the gains after the first were all hollow.
    qrels, runs = collection(2, systems=3, queries=12, docs=30)
    gains = ["linear", "exp2", "mapping({0: 0, 1: 1, 2: 3, 3: 9})"]
    options = {**SMALL, "cutoffs": [None, 5, 10, 20, 100, 50], "gains": gains, "n_resamples": 50, "swap_trials": 5}
    advice = advise(qrels, runs, **options)
    points = [line for line in advice.figure().axes[0].get_lines() if len(line.get_xdata()) == 1]
    styles = {(line.get_color(), line.get_marker(), line.get_fillstyle()) for line in points}
    assert len(points) == len(advice.table) == len(styles) == 2 * 6 * 3


def test_an_empty_figure_path_is_bad_usage(capsys):
    # --figure '' was accepted, and no figure written, status 0.
    from ndcg_research.cli import main

    with pytest.raises(SystemExit) as raised:
        main(["advise", "examples/qrels.txt", "examples/run_a.txt", "examples/run_b.txt", "--figure", ""])
    assert raised.value.code == 2
    assert "argument --figure: must name a file or folder, got ''" in capsys.readouterr().err


# ---------------------------------------------------------------- review: truncation, equal grades, Phi digits


@pytest.mark.parametrize("convention", ["xgboost", "xgboost-"])
def test_no_cut_off_under_a_truncating_convention_is_said_as_its_truncation(convention):
    # Under XGBoost's conventions "ndcg" cuts each list at 32; the advice called it "the whole ranking".
    rng = np.random.default_rng(0)
    qrels = {f"q{i}": {f"d{d}": int(rng.integers(0, 3)) for d in range(100)} for i in range(8)}
    runs = {f"s{s}": {q: {d: rng.random() + 0.2 * s * g for d, g in judged.items()} for q, judged in qrels.items()}
            for s in range(3)}  # fmt: skip
    plain, at32, whole = evaluate(qrels, runs["s0"], ["ndcg", "ndcg@32", "ndcg@100"], convention=convention).values[0]
    assert np.array_equal(plain, at32) and not np.allclose(plain, whole)  # the convention's definition
    options = dict(discounts=["log2"], cutoffs=[None, 10], gains=["linear"], n_resamples=200, swap_trials=20)
    advice = advise(qrels, runs, convention=convention, **options)
    text = str(advice)
    assert "whole ranking" not in text and "the first 32 results (no cut-off: the convention's truncation)" in text
    assert any("measure the first 32 results, not the whole ranking" in note for note in advice.notes)
    assert "whole ranking" not in _advise._at("none", 32) and "whole ranking" in _advise._at("none", None)
    with pytest.raises(ValueError, match="None and 32 are one cut-off"):
        advise(qrels, runs, convention=convention, **{**options, "cutoffs": [None, 32]})


def test_runs_that_are_all_ideal_because_every_grade_is_equal_are_refused_for_that_cause():
    # Two opposite rankings of documents all graded 1: both ideal (DCG = ideal DCG), nDCG 1 on every query. It asked
    # "are they copies of one run?".
    qrels = {f"q{i}": {f"d{d}": 1 for d in range(5)} for i in range(4)}
    runs = {
        "up": {q: {f"d{d}": d for d in range(5)} for q in qrels},
        "down": {q: {f"d{d}": -d for d in range(5)} for q in qrels},
    }
    assert all((np.asarray(values) == 1).all() for values in evaluate(qrels, runs, "ndcg").values)
    with pytest.raises(ValueError, match="every ranking the runs give is ideal") as error:
        advise(qrels, runs, **SMALL)
    assert "copies" not in str(error.value)


def test_the_two_phis_of_the_dependability_reason_are_printed_alike():
    # log2 kept at Phi 0.99980 beside zipf's 0.99996: it said "Phi = 1.000 ... within the margin of 0.01 that keeps
    # log2 (0.9998)", one value printed two ways.
    table = rule_table(
        [{"discount": "log2", "power": 1.0, "phi": 0.9998}, {"discount": "zipf", "power": 1.0, "phi": 0.99996}]
    )
    table = table.assign(
        pairs_significant=1, erho2=0.9, queries_for_phi=2.0, queries_for_swap_target=3.0, shortlisted=True, tau_log2=1.0
    )
    settings = {"alpha": 0.05, "target_swap_rate": 0.05, "n_resamples": 100, "swap_trials": 200}
    orders = {0: (0, 0, 0), 1: (0, 0, 0)}
    reason = _advise._reasons(
        table, 0, [(2, 0.1), (4, 0.01)], n_queries=8, n_systems=2, settings=settings, orders=orders
    )[1]
    printed = re.findall(r"Phi = (\d\.\d+)|'s, (\d\.\d+)", reason)
    ours, theirs = printed[0][0], printed[1][1]
    assert len(ours) == len(theirs) and ours != theirs, reason  # one number of digits, and the two told apart
    assert float(ours) == round(0.9998, len(ours) - 2) and float(theirs) == round(0.99996, len(theirs) - 2)
