"""Reference values and properties of CG, DCG, ideal DCG and nDCG.

Every expected value here is computed independently in the test: formula terms
written out with :func:`math.log2`, brute force over the orderings of tied
documents with :mod:`itertools`, or a closed form. Nothing is copied from the
package's own output.
"""

from __future__ import annotations

import itertools
import math
import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import ndcg_research as nr
from ndcg_research.core import _ranking as ranking

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])

WORKED = [3, 2, 3, 0, 1, 2]
UNRETRIEVED = [3, 2]


def quiet(function, *args, **kwargs):
    """Call, ignoring the zero-ideal warning (tested on its own in test_metrics_errors.py)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", nr.UndefinedNDCGWarning)
        return function(*args, **kwargs)


def hand_dcg(grades, k=None, gain=lambda g: g, discount=lambda r: 1 / math.log2(r + 1)):
    """DCG written as the article writes it, one term per rank."""
    grades = list(grades)[:k] if k is not None else list(grades)
    return sum(gain(g) * discount(r) for r, g in enumerate(grades, start=1))


# --- The worked example of the source article --------------------------------------------------


def test_worked_example_cg():
    assert nr.cg(WORKED) == 3 + 2 + 3 + 0 + 1 + 2 == 11
    for i, j in itertools.combinations(range(6), 2):
        swapped = list(WORKED)
        swapped[i], swapped[j] = swapped[j], swapped[i]
        assert nr.cg(swapped) == 11


def test_worked_example_dcg_idcg_ndcg():
    dcg6 = (
        3 / math.log2(2) + 2 / math.log2(3) + 3 / math.log2(4) + 0 / math.log2(5) + 1 / math.log2(6) + 2 / math.log2(7)
    )
    # Ideal of all eight known documents 3,3,3,2,2,2,1,0, cut to six.
    idcg6 = (
        3 / math.log2(2) + 3 / math.log2(3) + 3 / math.log2(4) + 2 / math.log2(5) + 2 / math.log2(6) + 2 / math.log2(7)
    )
    assert round(dcg6, 3) == 6.861 and round(idcg6, 3) == 8.740 and round(dcg6 / idcg6, 3) == 0.785

    known = WORKED + UNRETRIEVED
    assert math.isclose(nr.dcg(WORKED), dcg6, rel_tol=1e-12)
    assert math.isclose(nr.dcg(WORKED, 6), dcg6, rel_tol=1e-12)
    assert math.isclose(nr.idcg(WORKED, 6, ideal=known), idcg6, rel_tol=1e-12)
    assert math.isclose(nr.ndcg(WORKED, 6, ideal=known), dcg6 / idcg6, rel_tol=1e-12)
    assert round(nr.ndcg(WORKED, 6, ideal=known), 3) == 0.785
    parts = nr.ndcg_parts(WORKED, 6, ideal=known)
    assert np.allclose(parts, [dcg6, idcg6, dcg6 / idcg6], rtol=1e-12, atol=0)
    # The same ranking produced by scores.
    scores = [6, 5, 4, 3, 2, 1]
    assert math.isclose(nr.ndcg_from_scores(WORKED, scores, 6, ideal=known), dcg6 / idcg6, rel_tol=1e-12)

    # Without the full judgments the ideal is the returned list sorted (3,3,2,2,1,0): inflated.
    inflated = dcg6 / (3 / math.log2(2) + 3 / math.log2(3) + 2 / math.log2(4) + 2 / math.log2(5) + 1 / math.log2(6))
    assert math.isclose(nr.ndcg(WORKED), inflated, rel_tol=1e-12)
    assert inflated > dcg6 / idcg6

    # k=None: the ideal runs over all eight known grades (3,3,3,2,2,2,1,0).
    idcg_all = idcg6 + 1 / math.log2(8) + 0 / math.log2(9)
    assert math.isclose(nr.ndcg(WORKED, ideal=known), dcg6 / idcg_all, rel_tol=1e-12)


def test_worked_example_exponential_gain():
    # Burges et al.: gain 2^rel - 1, i.e. 7, 3, 7, 0, 1, 3.
    dcg6 = (
        7 / math.log2(2) + 3 / math.log2(3) + 7 / math.log2(4) + 0 / math.log2(5) + 1 / math.log2(6) + 3 / math.log2(7)
    )
    idcg6 = (
        7 / math.log2(2) + 7 / math.log2(3) + 7 / math.log2(4) + 3 / math.log2(5) + 3 / math.log2(6) + 3 / math.log2(7)
    )
    known = WORKED + UNRETRIEVED
    assert math.isclose(nr.dcg(WORKED, gain="exp2"), dcg6, rel_tol=1e-12)
    assert math.isclose(nr.idcg(WORKED, 6, ideal=known, gain="exp2"), idcg6, rel_tol=1e-12)
    assert math.isclose(nr.ndcg(WORKED, 6, ideal=known, gain="exp2"), dcg6 / idcg6, rel_tol=1e-12)
    # A table gain giving the same values agrees.
    table = {0: 0, 1: 1, 2: 3, 3: 7}
    assert math.isclose(nr.ndcg(WORKED, 6, ideal=known, gain=table), dcg6 / idcg6, rel_tol=1e-12)
    # Binary relevance: exponential and linear gain coincide.
    binary = [1, 0, 1, 1, 0]
    assert math.isclose(nr.dcg(binary, gain="exp2"), nr.dcg(binary), rel_tol=1e-15)


# --- Strategies -----------------------------------------------------------------------------------

finite_param = st.floats(allow_nan=False, allow_infinity=False)
DISCOUNT_SPECS = st.one_of(
    st.sampled_from(["log2", "zipf", "loglog", "none"]),
    st.floats(1.01, 50).map(lambda b: f"log(base={b!r})"),
    st.floats(1.01, 50).map(lambda b: f"jarvelin(base={b!r})"),
    st.floats(0.01, 3).map(lambda b: f"power(beta={b!r})"),
    st.floats(0.05, 0.99).map(lambda p: f"geometric(p={p!r})"),
    st.floats(0.01, 4).map(lambda g: f"logpower(gamma={g!r})"),
)


@st.composite
def table_gains(draw, top=6):
    """A random non-decreasing table covering grades 0..top (0 -> 0)."""
    steps = draw(st.lists(st.floats(0, 10), min_size=top, max_size=top))
    return {0: 0.0} | {g: float(v) for g, v in zip(range(1, top + 1), np.cumsum(steps), strict=True)}


INT_GAINS = st.one_of(st.sampled_from(["linear", "exp2"]), table_gains(), st.just(np.sqrt))
FLOAT_GAINS = st.one_of(st.sampled_from(["linear", "exp2"]), st.just(np.sqrt))
int_grades = st.lists(st.integers(0, 6), min_size=1, max_size=30)
# Positive float grades from 1e-3 up: below that 2^rel - 1 rounds to 0 in float64 and a
# "relevant" document would carry no gain, which is a property of float arithmetic, not of nDCG.
FLOAT_GRADE = st.one_of(st.just(0.0), st.floats(1e-3, 6))
float_grades = st.lists(FLOAT_GRADE, min_size=1, max_size=30)


@st.composite
def graded_case(draw):
    """Grades (integer or float) with a gain that accepts them."""
    if draw(st.booleans()):
        return draw(int_grades), draw(INT_GAINS), st.integers(0, 6)
    return draw(float_grades), draw(FLOAT_GAINS), FLOAT_GRADE


# --- Properties -----------------------------------------------------------------------------------


@SETTINGS
@given(case=graded_case(), discount=DISCOUNT_SPECS, k=st.one_of(st.none(), st.integers(1, 40)), data=st.data())
def test_ndcg_is_between_zero_and_one(case, discount, k, data):
    grades, gain, grade_strategy = case
    extra = data.draw(st.lists(grade_strategy, max_size=10))
    for ideal in (None, grades + extra):  # the list itself, or a random superset of it
        value = quiet(nr.ndcg, grades, k, ideal=ideal, gain=gain, discount=discount)
        assert 0.0 <= value <= 1.0  # exactly: no rounding above 1 (see test_core_adversarial.py)
    scores = data.draw(st.lists(st.integers(0, 5), min_size=len(grades), max_size=len(grades)))
    for ties in nr.TIES:
        value = quiet(
            nr.ndcg_from_scores, grades, scores, k, ideal=grades + extra, gain=gain, discount=discount, ties=ties
        )
        assert 0.0 <= value <= 1.0  # exactly: no rounding above 1 (see test_core_adversarial.py)


@SETTINGS
@given(case=graded_case(), discount=DISCOUNT_SPECS, k=st.one_of(st.none(), st.integers(1, 40)))
def test_ideal_order_gives_one(case, discount, k):
    grades, gain, _ = case
    assume(np.any(nr.parse_gain(gain)(np.array(grades, dtype=float)) > 0))  # else the ideal DCG is 0
    ideal_order = sorted(grades, reverse=True)
    assert nr.ndcg(ideal_order, k, gain=gain, discount=discount) == 1.0
    # A perfect scorer gets 1 under every tie rule (ties only join equal grades).
    for ties in nr.TIES:
        assert nr.ndcg_from_scores(grades, grades, k, gain=gain, discount=discount, ties=ties) == 1.0


@SETTINGS
@given(case=graded_case(), data=st.data())
def test_cg_is_invariant_under_permutation(case, data):
    grades, gain, _ = case
    permuted = data.draw(st.permutations(grades))
    assert math.isclose(nr.cg(permuted, gain=gain), nr.cg(grades, gain=gain), rel_tol=1e-12)
    assert math.isclose(nr.cg(grades), math.fsum(grades), rel_tol=1e-12)


@SETTINGS
@given(
    case=graded_case(),
    discount=DISCOUNT_SPECS,
    k=st.one_of(st.none(), st.integers(1, 40)),
    zeros=st.integers(1, 20),
    data=st.data(),
)
def test_appending_non_relevant_documents_never_changes_ndcg(case, discount, k, zeros, data):
    grades, gain, grade_strategy = case
    longer = grades + [0] * zeros
    # Ideal from the list itself: zeros add nothing to it.
    before = quiet(nr.ndcg, grades, k, gain=gain, discount=discount)
    assert math.isclose(quiet(nr.ndcg, longer, k, gain=gain, discount=discount), before, rel_tol=1e-12, abs_tol=1e-300)
    # Ideal fixed (all known grades).
    ideal = grades + data.draw(st.lists(grade_strategy, max_size=10))
    before = quiet(nr.ndcg, grades, k, ideal=ideal, gain=gain, discount=discount)
    after = quiet(nr.ndcg, longer, k, ideal=ideal, gain=gain, discount=discount)
    assert math.isclose(after, before, rel_tol=1e-12, abs_tol=1e-300)


TRANSFORMS = {
    # Each maps the integer scores used below to floats exactly or injectively and
    # monotonically (so equal stays equal, distinct stays distinct; checked in the test).
    "affine": lambda s: 3.0 * s + 7.0,
    "cube": lambda s: s.astype(np.float64) ** 3,
    "exp": np.exp,
    "scale_down": lambda s: s / 1024.0,
    "arctan": np.arctan,
    "shift_negative": lambda s: s - 1e6,
}


@SETTINGS
@given(
    grades=int_grades,
    data=st.data(),
    discount=DISCOUNT_SPECS,
    k=st.one_of(st.none(), st.integers(1, 40)),
    name=st.sampled_from(sorted(TRANSFORMS)),
)
def test_ndcg_invariant_under_increasing_score_transforms(grades, data, discount, k, name):
    scores = np.array(data.draw(st.lists(st.integers(-30, 30), min_size=len(grades), max_size=len(grades))))
    transformed = TRANSFORMS[name](scores)
    # Ties stay ties and order is kept, exactly, in float64.
    assert np.array_equal(np.argsort(scores, kind="stable"), np.argsort(transformed, kind="stable"))
    assert np.unique(scores).size == np.unique(transformed).size
    for ties in nr.TIES:
        before = quiet(nr.ndcg_from_scores, grades, scores, k, discount=discount, ties=ties)
        after = quiet(nr.ndcg_from_scores, grades, transformed, k, discount=discount, ties=ties)
        assert math.isclose(before, after, rel_tol=1e-12, abs_tol=1e-300)


@SETTINGS
@given(case=graded_case(), base=st.floats(1.001, 1000), k=st.one_of(st.none(), st.integers(1, 40)), data=st.data())
def test_log_base_does_not_change_ndcg(case, base, k, data):
    grades, gain, grade_strategy = case
    assume(any(g > 0 for g in grades))
    ideal = grades + data.draw(st.lists(grade_strategy, max_size=5))
    # A gain can map every positive grade to 0 (an undefined nDCG, 0 under either base: quiet).
    ref = quiet(nr.ndcg, grades, k, ideal=ideal, gain=gain)
    other = quiet(nr.ndcg, grades, k, ideal=ideal, gain=gain, discount=f"log(base={base!r})")
    assert math.isclose(other, ref, rel_tol=1e-12)
    # ...while DCG itself scales by log2(base): 1/log_b(x) = log2(b) / log2(x).
    assert math.isclose(
        nr.dcg(grades, k, gain=gain, discount=f"log(base={base!r})"),
        nr.dcg(grades, k, gain=gain) * math.log2(base),
        rel_tol=1e-12,
    )


@pytest.mark.parametrize("grade", [0.5, 1, 3, 7.25])
def test_one_document_list_is_valid(grade):
    assert nr.cg([grade]) == grade
    assert nr.dcg([grade]) == grade  # D(1) = 1 / log2(2) = 1
    assert nr.ndcg([grade]) == 1.0
    assert nr.ndcg_from_scores([grade], [0.3]) == 1.0
    assert math.isclose(nr.ndcg([grade], 1, ideal=[grade, 4 * grade]), grade / (4 * grade), rel_tol=1e-15)
    assert nr.ndcg([[grade], [grade, 0]]).tolist() == [1.0, 1.0]
    with pytest.warns(nr.UndefinedNDCGWarning):
        assert nr.ndcg([0]) == 0.0


@SETTINGS
@given(
    seed=st.integers(0, 2**32 - 1),
    k=st.one_of(st.none(), st.integers(1, 25)),
    discount=DISCOUNT_SPECS,
    gain=st.sampled_from(["linear", "exp2"]),
)
def test_two_d_ragged_and_per_list_loops_agree(seed, k, discount, gain):
    rng = np.random.default_rng(seed)
    n_queries, width = int(rng.integers(1, 8)), int(rng.integers(1, 20))
    grades = rng.integers(0, 4, size=(n_queries, width))
    scores = np.round(rng.normal(size=(n_queries, width)), 1)
    extra = [rng.integers(0, 4, size=int(rng.integers(0, 5))) for _ in range(n_queries)]
    ideal = [np.concatenate([g, e]) for g, e in zip(grades, extra, strict=True)]
    kw = dict(gain=gain, discount=discount)
    for ties in nr.TIES:
        batch2d = quiet(nr.ndcg_from_scores, grades, scores, k, ideal=ideal, ties=ties, **kw)
        as_lists = quiet(nr.ndcg_from_scores, grades.tolist(), scores.tolist(), k, ideal=ideal, ties=ties, **kw)
        loop = [
            quiet(nr.ndcg_from_scores, g, s, k, ideal=i, ties=ties, **kw)
            for g, s, i in zip(grades, scores, ideal, strict=True)
        ]
        np.testing.assert_allclose(batch2d, loop, rtol=1e-12, atol=0)
        np.testing.assert_allclose(as_lists, loop, rtol=1e-12, atol=0)
    np.testing.assert_allclose(
        quiet(nr.ndcg, grades, k, **kw), [quiet(nr.ndcg, g, k, **kw) for g in grades], rtol=1e-12
    )
    np.testing.assert_allclose(nr.dcg(grades, k, **kw), [nr.dcg(g, k, **kw) for g in grades], rtol=1e-12)
    # Ragged: cut each row to its own length.
    lengths = rng.integers(1, width + 1, size=n_queries)
    ragged_g = [g[:n] for g, n in zip(grades, lengths, strict=True)]
    ragged_s = [s[:n] for s, n in zip(scores, lengths, strict=True)]
    ragged_i = [np.concatenate([g, e]) for g, e in zip(ragged_g, extra, strict=True)]
    for ties in nr.TIES:
        batch = quiet(nr.ndcg_parts_from_scores, ragged_g, ragged_s, k, ideal=ragged_i, ties=ties, **kw)
        for part, one in zip(
            batch,
            zip(
                *[
                    quiet(nr.ndcg_parts_from_scores, g, s, k, ideal=i, ties=ties, **kw)
                    for g, s, i in zip(ragged_g, ragged_s, ragged_i, strict=True)
                ],
                strict=True,
            ),
            strict=True,
        ):
            np.testing.assert_allclose(part, one, rtol=1e-12, atol=0)
    batch = quiet(nr.ndcg_parts, ragged_g, k, ideal=ragged_i, **kw)
    loop = list(
        zip(*[quiet(nr.ndcg_parts, g, k, ideal=i, **kw) for g, i in zip(ragged_g, ragged_i, strict=True)], strict=True)
    )
    for part, one in zip(batch, loop, strict=True):
        np.testing.assert_allclose(part, one, rtol=1e-12, atol=0)
    np.testing.assert_allclose(nr.cg(ragged_g, k), [sum(g[:k].tolist()) for g in ragged_g], rtol=1e-12)


@pytest.mark.parametrize("dtype", [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint64, np.float32, np.float64])
@pytest.mark.parametrize("k", [None, 1, 4])
def test_integer_and_float_grades_give_identical_results(dtype, k):
    rng = np.random.default_rng(np.random.SeedSequence(31337))
    grades = rng.integers(0, 5, size=(9, 12))
    grades[2] = 0
    scores = np.round(rng.normal(size=(9, 12)), 1)
    ideal = np.concatenate([grades, rng.integers(0, 5, size=(9, 3))], axis=1)
    for gain in ("linear", "exp2", {0: 0, 1: 1, 2: 2, 3: 5, 4: 9}):
        ref = quiet(
            nr.ndcg_parts_from_scores, grades.astype(np.float64), scores, k, ideal=ideal.astype(np.float64), gain=gain
        )
        got = quiet(nr.ndcg_parts_from_scores, grades.astype(dtype), scores, k, ideal=ideal.astype(dtype), gain=gain)
        for a, b in zip(ref, got, strict=True):
            assert np.array_equal(a, b)
        ref = quiet(nr.ndcg_parts, grades.astype(np.float64), k, ideal=ideal.astype(np.float64), gain=gain)
        got = quiet(nr.ndcg_parts, grades.astype(dtype), k, ideal=ideal.astype(dtype), gain=gain)
        for a, b in zip(ref, got, strict=True):
            assert np.array_equal(a, b)
    # Booleans are binary grades.
    binary = grades > 2
    assert np.array_equal(quiet(nr.ndcg, binary, k), quiet(nr.ndcg, binary.astype(np.float64), k))


# --- Tie rules, by brute force over the orderings of tied documents ----------------------------


def orderings(scores):
    """Every ranking consistent with the scores: descending score, tied documents in any order."""
    n = len(scores)
    for perm in itertools.permutations(range(n)):
        if all(scores[perm[i]] >= scores[perm[i + 1]] for i in range(n - 1)):
            yield perm


def brute_force(grades, scores, k, gain=lambda g: g, discount=lambda r: 1 / math.log2(r + 1)):
    values = [hand_dcg([grades[i] for i in perm], k, gain, discount) for perm in orderings(scores)]
    first = sorted(range(len(scores)), key=lambda i: -scores[i])  # Python's sort is stable
    return {
        "average": sum(values) / len(values),
        "pessimistic": min(values),
        "optimistic": max(values),
        "first": hand_dcg([grades[i] for i in first], k, gain, discount),
    }


@settings(max_examples=80, deadline=None)
@given(
    grades=st.lists(st.integers(0, 3), min_size=1, max_size=6),
    data=st.data(),
    k=st.one_of(st.none(), st.integers(1, 7)),
    exp_gain=st.booleans(),
)
def test_tie_rules_equal_brute_force_over_orderings(grades, data, k, exp_gain):
    scores = data.draw(st.lists(st.integers(0, 2), min_size=len(grades), max_size=len(grades)))
    gain, gain_fn = ("exp2", lambda g: 2**g - 1) if exp_gain else ("linear", lambda g: g)
    expected = brute_force(grades, scores, k, gain_fn)
    for ties in nr.TIES:
        got = nr.dcg_from_scores(grades, scores, k, gain=gain, ties=ties) if any(grades) else None
        if got is not None:
            assert math.isclose(got, expected[ties], rel_tol=1e-12, abs_tol=1e-12), ties
    if any(grades):
        idcg = hand_dcg(sorted(grades, reverse=True), k, gain_fn)
        for ties in nr.TIES:
            got = nr.ndcg_from_scores(grades, scores, k, gain=gain, ties=ties)
            assert math.isclose(got, expected[ties] / idcg, rel_tol=1e-12), ties


@pytest.mark.parametrize(
    "discount, formula", [("zipf", lambda r: 1 / r), ("geometric(p=0.5)", lambda r: 0.5 ** (r - 1))]
)
def test_tie_rules_brute_force_with_other_discounts(discount, formula):
    rng = np.random.default_rng(np.random.SeedSequence(5))
    for _ in range(30):
        n = int(rng.integers(2, 7))
        grades = rng.integers(0, 4, size=n).tolist()
        scores = rng.integers(0, 2, size=n).tolist()
        for k in (None, 1, 2, 3):
            expected = brute_force(grades, scores, k, discount=formula)
            for ties in nr.TIES:
                got = quiet(nr.dcg_from_scores, grades, scores, k, discount=discount, ties=ties)
                assert math.isclose(got, expected[ties], rel_tol=1e-12, abs_tol=1e-12)


def test_tie_rules_hand_worked():
    # Documents A (grade 2) and B (grade 0) tie at the top, C (grade 1) below.
    grades, scores = [2, 0, 1], [0.7, 0.7, 0.1]
    d2, d3 = 1 / math.log2(3), 1 / math.log2(4)
    a_first = 2 * 1 + 0 * d2 + 1 * d3
    b_first = 0 * 1 + 2 * d2 + 1 * d3
    assert math.isclose(nr.dcg_from_scores(grades, scores, ties="average"), (a_first + b_first) / 2, rel_tol=1e-15)
    assert math.isclose(nr.dcg_from_scores(grades, scores, ties="first"), a_first, rel_tol=1e-15)
    assert math.isclose(nr.dcg_from_scores(grades, scores, ties="pessimistic"), b_first, rel_tol=1e-15)
    assert math.isclose(nr.dcg_from_scores(grades, scores, ties="optimistic"), a_first, rel_tol=1e-15)
    # "first" follows the input order, so listing B before A flips it.
    assert math.isclose(nr.dcg_from_scores([0, 2, 1], scores, ties="first"), b_first, rel_tol=1e-15)
    # A constant model never gets 1 by accident: it gets the mean over all orderings.
    grades = [3, 0, 0, 1]
    const = [0.5] * 4
    mean_gain = sum(grades) / 4
    expected = sum(mean_gain / math.log2(r + 1) for r in range(1, 5)) / hand_dcg([3, 1, 0, 0])
    assert math.isclose(nr.ndcg_from_scores(grades, const), expected, rel_tol=1e-12)
    assert nr.ndcg_from_scores(grades, const) < 1
    assert nr.ndcg_from_scores(grades, const, ties="optimistic") == 1.0
    # scikit-learn's docstring case: two tied documents, grades 1 and 0 -> mean of both orders.
    assert math.isclose(nr.ndcg_from_scores([1, 0], [0.5, 0.5]), (1 + 1 / math.log2(3)) / 2, rel_tol=1e-15)


def test_top_k_path_with_ties_straddling_rank_k():
    # Rows where a tied group crosses rank k, rows where it does not, and ragged padding.
    grades = [[0, 3, 1, 2, 0, 1], [2, 1, 0, 3, 0, 0], [1, 1, 2, 0, 3, 0], [0, 0, 0, 2, 1, 3]]
    scores = [[5, 4, 4, 4, 1, 0], [9, 8, 7, 6, 5, 4], [3, 3, 3, 3, 3, 3], [1, 2, 2, 0, 2, 5]]
    for k in (1, 2, 3, 4):
        for ties in nr.TIES:
            got = nr.dcg_from_scores(grades, scores, k, ties=ties)
            expected = [brute_force(g, s, k)[ties] for g, s in zip(grades, scores, strict=True)]
            np.testing.assert_allclose(got, expected, rtol=1e-12, atol=1e-15)
            ragged_g = [g[: 3 + i % 3] for i, g in enumerate(grades)]
            ragged_s = [s[: 3 + i % 3] for i, s in enumerate(scores)]
            got = quiet(nr.dcg_from_scores, ragged_g, ragged_s, k, ties=ties)
            expected = [brute_force(g, s, k)[ties] for g, s in zip(ragged_g, ragged_s, strict=True)]
            np.testing.assert_allclose(got, expected, rtol=1e-12, atol=1e-15)


@settings(max_examples=80, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), k=st.integers(1, 12), ties=st.sampled_from(nr.TIES))
def test_top_k_selection_equals_full_sort(seed, k, ties):
    # The argpartition path (k < width) against the whole-row sort cut at k.
    rng = np.random.default_rng(seed)
    n_queries, width = int(rng.integers(1, 10)), int(rng.integers(k + 1, 30))
    gains = rng.integers(0, 4, size=(n_queries, width)).astype(float)
    scores = rng.integers(0, 4, size=(n_queries, width)).astype(float)  # many ties, many straddle rank k
    lengths = rng.integers(1, width + 1, size=n_queries)
    pad = np.arange(width) >= lengths[:, None]
    gains[pad], scores[pad] = 0.0, -np.inf  # ragged padding as the package lays it out
    top = ranking.ranked_gains(gains, scores, k, ties)
    full = ranking.ranked_gains(gains, scores, None, ties)[:, :k]
    np.testing.assert_allclose(top, full, rtol=1e-12, atol=1e-15)


# --- Discounts against their formulas --------------------------------------------------------------

RANKS = [1, 2, 3, 4, 5, 10, 37, 100]
DISCOUNT_FORMULAS = {
    "log2": lambda r: 1 / math.log2(r + 1),
    "log(base=10)": lambda r: 1 / math.log10(r + 1),
    "log(base=2)": lambda r: 1 / math.log2(r + 1),
    "jarvelin": lambda r: 1.0 if r < 2 else 1 / math.log2(r),
    "jarvelin(base=3)": lambda r: 1.0 if r < 3 else 1 / (math.log(r) / math.log(3)),
    "jarvelin(base=10)": lambda r: 1.0 if r < 10 else 1 / math.log10(r),
    "power(beta=0.5)": lambda r: 1 / math.sqrt(r),
    "power(beta=2)": lambda r: 1 / (r * r),
    "zipf": lambda r: 1 / r,
    "geometric(p=0.8)": lambda r: 0.8 ** (r - 1),
    "logpower(gamma=2)": lambda r: 1 / math.log2(r + 1) ** 2,
    "logpower(gamma=0.5)": lambda r: 1 / math.sqrt(math.log2(r + 1)),
    "loglog": lambda r: 1 / math.log2(1 + math.log2(1 + r)),
    "none": lambda r: 1.0,
}


@pytest.mark.parametrize("spec", sorted(DISCOUNT_FORMULAS))
def test_discounts_match_hand_formulas(spec):
    formula = DISCOUNT_FORMULAS[spec]
    expected = [formula(r) for r in RANKS]
    np.testing.assert_allclose(nr.parse_discount(spec)(RANKS), expected, rtol=1e-13)
    # Through the metric: the DCG of a single grade-1 document at rank r is D(r).
    unit = np.eye(max(RANKS))[[r - 1 for r in RANKS]]
    np.testing.assert_allclose(nr.dcg(unit, discount=spec), expected, rtol=1e-13)
    # And DCG is the gain-weighted sum of D(r), k cutting the sum.
    grades = [3, 0, 2, 1, 1]
    for k in (None, 2, 5, 9):
        assert math.isclose(nr.dcg(grades, k, discount=spec), hand_dcg(grades, k, discount=formula), rel_tol=1e-13)


def test_jarvelin_has_no_discount_before_rank_base():
    d = nr.parse_discount("jarvelin(base=4)")
    assert d([1, 2, 3]).tolist() == [1.0, 1.0, 1.0]
    assert math.isclose(d([16])[0], 1 / 2, rel_tol=1e-13)  # log_4(16) = 2


def test_custom_callable_discount_and_gain():
    grades = [3, 2, 0, 1]
    got = nr.dcg(grades, discount=lambda r: 1 / r**0.25, gain=lambda g: g**2)
    assert math.isclose(got, 9 / 1 + 4 / 2**0.25 + 0 + 1 / 4**0.25, rel_tol=1e-13)


# --- Spec strings ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, canonical",
    [
        ("log2", "log2"),
        (" log2 ", "log2"),
        ("log2()", "log2"),
        ("log(base=2)", "log"),  # defaults are omitted
        ("log(base=10.0)", "log(base=10)"),
        ("jarvelin(base=2.0)", "jarvelin"),
        ("jarvelin( base = 3 )", "jarvelin(base=3)"),
        ("power(beta=0.50)", "power(beta=0.5)"),
        ("power(beta=1)", "power(beta=1)"),
        ("geometric(p=.8)", "geometric(p=0.8)"),
        ("logpower(gamma=2)", "logpower(gamma=2)"),
        ("zipf", "zipf"),
        ("loglog", "loglog"),
        ("none", "none"),
    ],
)
def test_discount_specs_print_canonically(text, canonical):
    d = nr.parse_discount(text)
    assert str(d) == canonical
    assert nr.parse_discount(canonical) == d
    assert eval(repr(d), {"parse_discount": nr.parse_discount}) == d


@SETTINGS
@given(
    spec=st.one_of(
        st.floats(1.0001, 1e6).map(lambda b: ("log", {"base": b})),
        st.floats(1.0001, 1e6).map(lambda b: ("jarvelin", {"base": b})),
        st.floats(1e-6, 1e3).map(lambda b: ("power", {"beta": b})),
        st.floats(1e-6, 1 - 1e-9).map(lambda p: ("geometric", {"p": p})),
        st.floats(1e-6, 1e3).map(lambda g: ("logpower", {"gamma": g})),
        st.integers(2, 10**6).map(lambda b: ("log", {"base": b})),
        st.sampled_from([("log2", {}), ("zipf", {}), ("loglog", {}), ("none", {})]),
    )
)
def test_discount_spec_round_trip(spec):
    name, params = spec
    d = nr.Discount(name, **params)
    text = str(d)
    back = nr.parse_discount(text)
    assert back == d and str(back) == text and hash(back) == hash(d)
    assert back.kwargs == {key: float(value) for key, value in params.items()}
    # Same values as the discount built directly.
    np.testing.assert_array_equal(back(RANKS), d(RANKS))


@SETTINGS
@given(table=table_gains(top=5), extra_keys=st.lists(st.floats(0.01, 20), max_size=3))
def test_gain_spec_round_trip(table, extra_keys):
    # Non-integer grades too: a table may name any grade >= 0.
    levels = sorted(set(table) | set(extra_keys))
    values = np.maximum.accumulate([table.get(g, 0.0) if g in table else 0.0 for g in levels])
    full = {g: float(v) for g, v in zip(levels, values, strict=True)}
    full[0] = 0.0
    g = nr.parse_gain(full)
    text = str(g)
    back = nr.parse_gain(text)
    assert back == g and str(back) == text
    np.testing.assert_array_equal(back(list(full)), [full[x] for x in full])


@pytest.mark.parametrize(
    "text, canonical",
    [
        ("linear", "linear"),
        (" exp2 ", "exp2"),
        ("mapping({2: 3, 1: 1})", "mapping({0: 0, 1: 1, 2: 3})"),
        ("mapping({0: 0.0, 1: 2.5})", "mapping({0: 0, 1: 2.5})"),
    ],
)
def test_gain_specs_print_canonically(text, canonical):
    g = nr.parse_gain(text)
    assert str(g) == canonical
    assert nr.parse_gain(canonical) == g


ALL_DISCOUNTS_LISTED = r"valid discounts: log2, log\(base=2\), jarvelin\(base=2\), power\(beta\), zipf, geometric\(p\), logpower\(gamma\), loglog, zipflog\(gamma\), none"


@pytest.mark.parametrize(
    "spec, error, match",
    [
        ("cosine", ValueError, "unknown discount 'cosine'; " + ALL_DISCOUNTS_LISTED),
        ("Log2", ValueError, "unknown discount 'Log2'; " + ALL_DISCOUNTS_LISTED),
        ("power(0.5)", ValueError, "give parameters by name.*" + ALL_DISCOUNTS_LISTED),
        ("power", ValueError, r"discount 'power' needs parameter 'beta': power\(beta\)"),
        (
            "power(gamma=1)",
            ValueError,
            r"discount 'power' has no parameter 'gamma'; valid: power\(beta\); all discounts: log2",
        ),
        ("power(beta=0)", ValueError, "discount 'power': beta must be > 0, got 0.0"),
        ("power(beta=-1)", ValueError, "beta must be > 0"),
        ("geometric(p=1)", ValueError, r"discount 'geometric': p must be in \(0, 1\), got 1.0"),
        ("geometric(p=0)", ValueError, r"p must be in \(0, 1\)"),
        ("log(base=1)", ValueError, "discount 'log': base must be > 1, got 1.0"),
        ("jarvelin(base=0.5)", ValueError, "discount 'jarvelin': base must be > 1"),
        ("logpower(gamma=0)", ValueError, "gamma must be > 0"),
        ("power(beta='a')", TypeError, "discount 'power' parameter 'beta' must be a number, got str 'a'"),
        ("power(beta=True)", TypeError, "must be a number, got bool True"),
        ("power(beta=1e999)", ValueError, "parameter 'beta' must be finite"),
        ("power(beta=x)", ValueError, "arguments must be literals"),
        ("power(beta=0.5, beta=2)", ValueError, "'beta' is given twice; give it once"),  # kept the last silently
        ("power(beta=0.5", ValueError, "is not of the form 'name' or 'name\\(key=value, ...\\)'"),
        ("1 + 2", ValueError, "is not of the form"),
        ("zipf(k=2)", ValueError, "discount 'zipf' has no parameter 'k'"),
    ],
)
def test_bad_discount_specs_raise_with_valid_list(spec, error, match):
    with pytest.raises(error, match=match):
        nr.parse_discount(spec)
    with pytest.raises(error, match=match):
        nr.ndcg([1, 0], discount=spec)


@pytest.mark.parametrize(
    "spec, error, match",
    [
        ("square", ValueError, r"unknown gain 'square'; valid gains: linear, exp2, mapping\(\{grade: gain, ...\}\)"),
        ("exp2(2)", ValueError, "gain spec 'exp2\\(2\\)' is not valid; valid gains: linear, exp2, mapping"),
        ("linear(base=2)", ValueError, "is not valid; valid gains"),
        ("mapping", ValueError, "'mapping' needs a table"),
        ("mapping({0: 1})", ValueError, "grade 0 must map to 0, got 1.0"),
        ("mapping({0: 0, 1: 2, 1: 5})", ValueError, r"the key 1 is given twice \(equal keys are one\)"),
        ("mapping({0: 0, 1: 2, True: 5})", ValueError, r"the key True is given twice"),
        ("mapping({0: 0, 1: 2, 1.0: 5})", ValueError, r"the key 1.0 is given twice"),
        (
            "mapping({1: 2, 2: 1})",
            ValueError,
            "must be non-decreasing in the grade: grade 2 -> 1 is below grade 1 -> 2",
        ),
        ("mapping({-1: 0})", ValueError, "grades must be >= 0, got -1"),
        ("mapping({1: 'a'})", TypeError, "gain 'mapping': every gain must be a number, got str 'a'"),
        ("mapping({})", TypeError, "needs a non-empty dict"),
    ],
)
def test_bad_gain_specs_raise_with_valid_list(spec, error, match):
    with pytest.raises(error, match=match):
        nr.parse_gain(spec)
    with pytest.raises(error, match=match):
        nr.ndcg([1, 0], gain=spec)


def test_discount_decay_classes():
    decay = {
        s: nr.parse_discount(s).decay
        for s in [
            "none",
            "zipf",
            "power(beta=1)",
            "power(beta=0.5)",
            "power(beta=2)",
            "geometric(p=0.5)",
            "log2",
            "loglog",
            "logpower(gamma=3)",
            "jarvelin",
        ]
    }
    assert decay == {
        "none": "constant",
        "zipf": "critical",
        "power(beta=1)": "critical",
        "power(beta=0.5)": "regularly varying",
        "power(beta=2)": "summable",
        "geometric(p=0.5)": "summable",
        "log2": "slowly varying",
        "loglog": "slowly varying",
        "logpower(gamma=3)": "slowly varying",
        "jarvelin": "slowly varying",
    }


# --- Regression: a sparse gain table ---------------------------------------------------------------


def test_mapping_gain_needs_only_the_grades_present():
    # The table names grades 0 and 2 only; the lists hold only those grades. The ideal
    # is [2, 0]: DCG = IDCG = 3, nDCG = 1. The ideal-DCG kernel counts grade levels
    # 1..max and looks up gain(1), which the table does not have.
    table = {0: 0, 2: 3}
    assert nr.dcg([2, 0], gain=table) == 3.0
    assert nr.idcg([0, 2], gain=table) == 3.0
    assert nr.ndcg([2, 0], gain=table) == 1.0
    assert math.isclose(nr.ndcg_from_scores([0, 2], [0.9, 0.1], gain=table), (3 / math.log2(3)) / 3, rel_tol=1e-15)


def test_custom_gains_see_floats_whatever_the_grade_dtype():
    # A user's formula such as 2**g - 1 would wrap around in int64 for g = 64 or 70.
    def gain(g):
        return 2.0**g - 1 if np.asarray(g).dtype.kind == "f" else np.asarray(g) * np.nan

    for grades in ([70, 1, 0], [1, 0, 64]):
        as_int, as_float = np.array(grades), np.array(grades, dtype=float)
        assert nr.ndcg(as_int, gain=gain) == nr.ndcg(as_float, gain=gain)
        assert nr.ndcg_from_scores(as_int, [3, 2, 1], gain=gain) == nr.ndcg_from_scores(as_float, [3, 2, 1], gain=gain)
    assert nr.ndcg([70, 1, 0], gain=lambda g: 2**g - 1) == 1.0  # sorted order: ideal


def test_integer_scores_beyond_float_precision_are_refused():
    # 2^53 and 2^53 + 1 are distinct integers but the same float64: they would silently tie.
    with pytest.raises(ValueError, match=r"y_score holds 9007199254740993 \(position 2\), which float64 makes"):
        nr.ndcg_from_scores([0, 1], np.array([2**53, 2**53 + 1]))
    assert nr.ndcg_from_scores([0, 1], np.array([2**52, 2**52 + 1])) == 1.0  # exact below 2^53


def test_long_double_scores_that_float64_would_tie_are_refused():
    # 1 + 2^-60 and 1 are distinct long doubles but one float64: the documents would tie. Ranked by the
    # distinct scores, the relevant document comes second: nDCG 1 / log2(3) (scikit-learn's 0.6309).
    scores = np.array([1 + np.longdouble(2) ** -60, 1], dtype=np.longdouble)
    if scores[0] == scores[1]:
        pytest.skip("long double is float64 on this platform")
    tied = r"y_score holds 1\.00000000000000000\d* \(position 1\) and 1\.0 \(position 2\), which float64 makes 1\.0"
    with pytest.raises(ValueError, match=tied):
        nr.ndcg_from_scores([0, 1], scores)
    # Long doubles that stay apart in float64 are taken as float64 values, as evaluate reads them (1/3 is not a
    # float64, but no other score becomes it).
    exact = np.array([0.5, 0.25], dtype=np.longdouble)
    assert nr.ndcg_from_scores([0, 1], exact) == 1 / math.log2(3)
    apart = np.array([1 / np.longdouble(3), 0.5], dtype=np.longdouble)
    assert nr.ndcg_from_scores([0, 1], apart) == 1.0
    # Scores are compared within their query: equal in float64 across queries is no tie.
    across = np.array([[1 + np.longdouble(2) ** -60, 0.5], [1, 0.5]], dtype=np.longdouble)
    assert nr.ndcg_from_scores([[1, 0], [1, 0]], across).tolist() == [1.0, 1.0]


@pytest.mark.parametrize(
    ("call", "value"),
    [
        (lambda: nr.ndcg([2**60 + 1], ideal=[2**60]), 2**60 + 1),  # rounded, it would pass the containment check
        (lambda: nr.ndcg([2**53, 2**53 + 1]), 2**53 + 1),  # rounded, the list would look ideal
        (lambda: nr.idcg([[1], [3, 2**62 + 3]]), 2**62 + 3),
        (lambda: nr.ndcg(np.array([1, 2**64 - 1], dtype=np.uint64)), 2**64 - 1),
    ],
)
def test_integer_grades_beyond_float_precision_are_refused(call, value):
    with pytest.raises(ValueError, match=rf"relevance(\[1\])? holds {value} \(position \d\), which float64 makes"):
        call()


def test_large_integer_grades_that_float64_holds_are_exact():
    assert nr.dcg([2**60, 0]) == 2.0**60  # a power of two: exact in float64
    assert nr.ndcg([2**60], ideal=[2**60, 1]) == 2.0**60 / (2.0**60 + 1 / math.log2(3))


def test_tiny_fractional_grades_are_not_counted_as_integers():
    # 3 + 1e-17 rounds to 3 in a float sum; the ideal must still see the grade 1e-17.
    with pytest.raises(ValueError, match="has no entry for grade 1e-17"):
        nr.idcg([3.0, 1e-17], gain={0: 0, 3: 1})
    assert nr.idcg([3.0, 1e-17]) == 3.0 + 1e-17 / math.log2(3)


# --- dcg_from_scores with ideal= and judged= (as ndcg_from_scores takes them) --------------------------


def test_dcg_from_scores_with_judged_is_the_dcg_of_the_condensed_ranking_by_hand():
    # Scores rank D1 (grade 0, unjudged), D2 (2), D3 (unjudged, grade 3 ignored), D4 (1). Condensed: D2, D4.
    grades, scores, judged = [0, 2, 3, 1], [0.9, 0.8, 0.7, 0.6], [False, True, False, True]
    expected = 2 / math.log2(2) + 1 / math.log2(3)
    assert math.isclose(nr.dcg_from_scores(grades, scores, judged=judged), expected, rel_tol=1e-15)
    assert math.isclose(nr.dcg_from_scores(grades, scores, 1, judged=judged), 2.0, rel_tol=1e-15)
    # Not condensed, the unjudged grade-3 document at rank 3 counts.
    assert math.isclose(nr.dcg_from_scores(grades, scores), 2 / math.log2(3) + 3 / 2 + 1 / math.log2(5), rel_tol=1e-15)


def test_dcg_from_scores_with_ideal_takes_empty_results_and_checks_containment():
    # The DCG does not depend on the ideal; an empty result (nothing returned) has DCG 0 once the ideal says
    # which query it is, and the ideal must contain the retrieved grades.
    assert nr.dcg_from_scores([], [], ideal=[2, 1]) == 0.0
    np.testing.assert_array_equal(
        nr.dcg_from_scores([[], [1, 0]], [[], [0.1, 0.5]], ideal=[[2], [1]]), [0.0, 1 / math.log2(3)]
    )
    assert nr.dcg_from_scores([2, 1], [0.5, 0.9], ideal=[2, 1, 3]) == nr.dcg_from_scores([2, 1], [0.5, 0.9])
    with pytest.raises(ValueError, match="ideal does not contain the retrieved grades"):
        nr.dcg_from_scores([2, 2], [0.5, 0.9], ideal=[2, 1])
    with pytest.raises(ValueError, match="is empty"):
        nr.dcg_from_scores([], [])


@SETTINGS
@given(
    data=st.data(),
    k=st.one_of(st.none(), st.integers(1, 6)),
    with_ideal=st.booleans(),
    with_judged=st.booleans(),
    ties=st.sampled_from(nr.TIES),
)
def test_dcg_from_scores_is_ndcg_from_scores_times_the_ideal_dcg(data, k, with_ideal, with_judged, ties):
    n = data.draw(st.integers(1, 7))
    grades = data.draw(st.lists(st.integers(0, 3), min_size=n, max_size=n))
    scores = data.draw(st.lists(st.integers(0, 3), min_size=n, max_size=n))
    kwargs = {"ties": ties}
    if with_ideal:
        kwargs["ideal"] = [g for g in grades if g > 0] + data.draw(st.lists(st.integers(0, 3), min_size=1, max_size=3))
    if with_judged:
        kwargs["judged"] = data.draw(st.lists(st.booleans(), min_size=n, max_size=n))
    parts = quiet(nr.ndcg_parts_from_scores, grades, scores, k, zero_ideal="nan", **kwargs)
    got = nr.dcg_from_scores(grades, scores, k, **kwargs)
    assert got == parts.dcg
    if parts.idcg > 0:
        assert math.isclose(got, parts.ndcg * parts.idcg, rel_tol=1e-12, abs_tol=1e-15)


def test_a_tied_groups_mean_gain_is_exact_when_the_gains_sum_past_float64():
    # The group's mean, 1.25e308, is finite though its sum is not (it was clipped to the largest gain, 1.5e308).
    assert nr.dcg_from_scores([1e308, 1.5e308], [1.0, 1.0], 1) == 1e308 / 2 + 1.5e308 / 2
    mean = 0.9e308 / 2 + 1e308 / 2  # of two gains summing to 1.9e308, over two ranks
    assert math.isclose(nr.dcg_from_scores([[0.9e308, 1e308, 0.0]], [[1.0, 1.0, 0.0]])[0], mean + mean / math.log2(3))
    # exp2 gains 2^1023.5 - 1 and 2^1023 - 1 (sum 2.2e308) tied at rank 1: nDCG = mean / largest = (1 + 2^-0.5) / 2.
    value = nr.ndcg_from_scores([1023.5, 1023, 0], [1.0, 1.0, 0.0], 1, gain="exp2")
    assert math.isclose(value, (1 + 2**-0.5) / 2, rel_tol=1e-14)
    # Cut inside a larger tied group (the straddling path): three gains near 1.8e308 share the first rank.
    gains = [1.7e308, 1.6e308, 1.5e308, 0.0]
    assert math.isclose(nr.dcg_from_scores(gains, [1.0, 1.0, 1.0, 0.0], 1), 1.6e308, rel_tol=1e-15)
