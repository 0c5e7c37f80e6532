"""Regression tests for the bugs found when the metric core was tried as an adversarial user would.

One section per bug of issue 6 ("Bugs found in the adversarial trial"); each test failed on the
code before the fix. Expected values are written out by hand (log2 discounts as math.log2 terms)
or are properties (exactly 1, at most 1, the same as the equivalent list input).
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ndcg_research as nr
from ndcg_research.core import _kernels as kernels

L3 = math.log2(3)
SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def quiet(function, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", nr.UndefinedNDCGWarning)
        return function(*args, **kwargs)


# --- 1. Generators and iterators keep every query ----------------------------------------------------

ROWS = [[1, 0], [0, 1], [1, 1]]
ROWS_NDCG = [1.0, (1 / L3) / 1.0, 1.0]  # [0, 1]: DCG 1/log2(3), ideal DCG 1


def test_generator_of_queries_keeps_every_row():
    np.testing.assert_allclose(nr.ndcg(r for r in ROWS), ROWS_NDCG, rtol=1e-15)
    np.testing.assert_allclose(nr.ndcg(iter(ROWS)), ROWS_NDCG, rtol=1e-15)
    np.testing.assert_allclose(nr.dcg(map(list, ROWS)), [1.0, 1 / L3, 1 + 1 / L3], rtol=1e-15)


def test_iterators_of_labels_and_scores_keep_every_row():
    labels = np.array([[2, 0, 1], [0, 1, 0], [1, 1, 0]])
    scores = np.array([[0.1, 0.9, 0.5], [0.3, 0.2, 0.1], [0.0, 0.5, 1.0]])
    expected = nr.ndcg_from_scores(labels, scores)
    assert expected.shape == (3,)
    np.testing.assert_array_equal(nr.ndcg_from_scores(iter(labels), iter(scores)), expected)
    np.testing.assert_array_equal(nr.ndcg_from_scores((r for r in labels), (s for s in scores)), expected)
    # A generator of numbers is one ranked list; rows may be iterators too.
    assert nr.ndcg(g for g in [0, 1]) == 1 / L3
    np.testing.assert_allclose(nr.ndcg([iter([0, 1]), iter([1])]), [1 / L3, 1.0], rtol=1e-15)
    # ideal= and judged= as iterators: every row kept.
    np.testing.assert_allclose(nr.ndcg(ROWS, ideal=iter(ROWS), judged=iter([[True, True]] * 3)), ROWS_NDCG, rtol=1e-15)


@pytest.mark.parametrize("data", [{1, 2}, frozenset([1]), {1: 2}, {1: 2}.values()])
def test_unordered_collections_are_refused(data):
    with pytest.raises(
        TypeError, match=r"relevance must be an ordered sequence .*got (set|frozenset|dict|dict_values)"
    ):
        nr.ndcg(data)


# --- 2. Masked arrays are refused; np.matrix gives a 1-D result ---------------------------------------


def test_masked_arrays_are_refused_wherever_they_appear():
    masked = np.ma.array([3.0, 2.0, 1.0], mask=[False, True, False])
    match = r"must not be a numpy masked array: .*\.filled\("
    with pytest.raises(TypeError, match="relevance " + match):
        nr.ndcg(masked)
    with pytest.raises(TypeError, match="y_score " + match):
        nr.ndcg_from_scores([1, 2, 3], masked)
    with pytest.raises(TypeError, match="y_true " + match):
        nr.ndcg_from_scores(masked, [1, 2, 3])
    with pytest.raises(TypeError, match="ideal " + match):
        nr.ndcg([3, 1], ideal=masked)
    with pytest.raises(TypeError, match=r"relevance\[1\] " + match):
        nr.ndcg([[1, 2], masked])
    with pytest.raises(TypeError, match=r"relevance\[0\] " + match):  # rows of equal length, stacked by numpy
        nr.ndcg([masked, masked])
    with pytest.raises(TypeError, match="judged " + match):
        nr.ndcg([1, 2, 3], judged=np.ma.array([True, True, True], mask=[False, False, True]))
    with pytest.raises(TypeError, match="relevance " + match):  # even with nothing masked
        nr.dcg(np.ma.array([3.0, 2.0]))


@pytest.mark.filterwarnings("ignore::PendingDeprecationWarning")  # numpy's own note on np.matrix
def test_matrix_input_gives_one_value_per_row_as_a_1d_array():
    got = nr.dcg(np.matrix([[1, 0]]))
    assert type(got) is np.ndarray and got.shape == (1,) and got[0] == 1.0
    got = nr.ndcg(np.matrix([[1, 0], [0, 1]]))
    assert type(got) is np.ndarray and got.shape == (2,)
    np.testing.assert_allclose(got, [1.0, 1 / L3], rtol=1e-15)
    got = nr.ndcg_from_scores(np.matrix([[1, 0]]), np.matrix([[0.2, 0.8]]))
    assert type(got) is np.ndarray and got.shape == (1,)
    assert math.isclose(got[0], 1 / L3, rel_tol=1e-15)


# --- 3. The ideal order gives exactly 1; nothing exceeds 1 -------------------------------------------

DISCOUNTS = st.one_of(
    st.sampled_from(["log2", "zipf", "loglog", "none", "jarvelin"]),
    st.floats(1.01, 50).map(lambda b: f"log(base={b!r})"),
    st.floats(0.01, 3).map(lambda b: f"power(beta={b!r})"),
    st.floats(0.05, 0.99).map(lambda p: f"geometric(p={p!r})"),
    st.floats(0.01, 4).map(lambda g: f"logpower(gamma={g!r})"),
    st.just(lambda r: 1.0 / np.sqrt(r + 0.3)),  # a user's callable
)


@st.composite
def table_gain(draw):
    steps = draw(st.lists(st.floats(0, 10), min_size=6, max_size=6))
    return {0: 0.0} | {g: float(v) for g, v in zip(range(1, 7), np.cumsum(steps), strict=True)}


@st.composite
def grades_and_gain(draw):
    if draw(st.booleans()):
        grades = draw(st.lists(st.integers(0, 6), min_size=1, max_size=40))
        gain = draw(st.one_of(st.sampled_from(["linear", "exp2"]), table_gain(), st.just(np.sqrt)))
    else:
        grades = draw(st.lists(st.one_of(st.just(0.0), st.floats(1e-3, 40)), min_size=1, max_size=40))
        gain = draw(st.sampled_from(["linear", "exp2", np.sqrt, np.log1p]))
    return grades, gain


def has_gain(grades, gain):
    return bool(np.any(kernels.apply_gain(nr.parse_gain(gain), np.array([grades], dtype=float), name="g") > 0))


def test_the_reported_perfect_list_gives_exactly_one():
    assert nr.ndcg([4, 4, 3, 1]) == 1.0  # was 1.0000000000000002


@pytest.mark.parametrize("grades", [[1.3, 1.3, 0.3], [1.3, 0.9, 0.1], [0.7, 0.7, 0.3, 0.1, 0.1]])
def test_ideal_order_of_non_dyadic_grades_gives_exactly_one(grades):
    # Gains that are no binary fractions: the same terms summed in another order give another
    # float, so a DCG and an ideal DCG computed by two different sums would divide to 0.99999...
    terms = [g / math.log2(i + 2) for i, g in enumerate(grades)]
    assert sum(terms) / sum(reversed(terms)) != 1.0  # a real witness: summing order shows in the ratio
    shuffled = grades[1:] + grades[:1]
    assert nr.ndcg(grades) == 1.0
    assert nr.ndcg(grades, ideal=shuffled + [0.0, 0.0]) == 1.0  # ideal given unsorted, with unreturned zeros
    assert nr.ndcg(grades, 2, ideal=shuffled) == 1.0
    assert nr.ndcg_from_scores(shuffled, shuffled) == 1.0  # ranked by scores equal to the grades
    assert nr.ndcg(grades, gain=f"mapping({ {g: g * g for g in grades} })") == 1.0
    # In a batch, padded next to a longer row.
    np.testing.assert_array_equal(nr.ndcg([grades, [0.1] * 9 + [0.3]])[:1], [1.0])


@SETTINGS
@given(case=grades_and_gain(), discount=DISCOUNTS, k=st.one_of(st.none(), st.integers(1, 45)), zeros=st.integers(0, 5))
def test_ideal_order_gives_exactly_one(case, discount, k, zeros):
    grades, gain = case
    if not has_gain(grades, gain):
        return  # ideal DCG 0: the zero_ideal policy decides
    ideal_order = sorted(grades, reverse=True)
    kw = dict(gain=gain, discount=discount)
    assert nr.ndcg(ideal_order, k, **kw) == 1.0
    assert nr.ndcg(ideal_order + [0] * zeros, k, **kw) == 1.0
    assert nr.ndcg(ideal_order, k, ideal=grades + [0] * zeros, **kw) == 1.0
    assert nr.ndcg_parts(ideal_order, k, **kw).ndcg == 1.0
    # A perfect scorer, under every tie rule (ties join equal grades only), in any input order.
    for ties in nr.TIES:
        assert nr.ndcg_from_scores(grades, grades, k, ties=ties, **kw) == 1.0
        assert nr.ndcg_from_scores(grades[::-1], grades[::-1], k, ties=ties, **kw) == 1.0
    # The same in a batch next to other queries (ragged and 2-D).
    batch = [ideal_order, [1.0, 0.0], ideal_order[:1] + [0.0]]
    got = quiet(nr.ndcg, batch, k, **kw)
    assert got[0] == 1.0 and (not has_gain(ideal_order[:1], gain) or got[2] == 1.0)


@SETTINGS
@given(case=grades_and_gain(), discount=DISCOUNTS, k=st.one_of(st.none(), st.integers(1, 45)), data=st.data())
def test_no_value_exceeds_one(case, discount, k, data):
    grades, gain = case
    order = data.draw(st.permutations(grades))
    scores = data.draw(st.lists(st.integers(0, 4), min_size=len(grades), max_size=len(grades)))
    kw = dict(gain=gain, discount=discount)
    assert 0.0 <= quiet(nr.ndcg, order, k, **kw) <= 1.0
    assert 0.0 <= quiet(nr.ndcg, order, k, ideal=grades + [0.0], **kw) <= 1.0
    for ties in nr.TIES:
        assert 0.0 <= quiet(nr.ndcg_from_scores, grades, scores, k, ties=ties, **kw) <= 1.0


@pytest.mark.parametrize(
    "grades", [[2.0000000000000004, 2.0], [2.0, 2.0000000000000004, 2.0], [1 + 2**-52, 1.0, 1 + 2**-51]]
)
@pytest.mark.parametrize("discount", ["log2", "zipf", "power(beta=1e-9)", "geometric(p=0.999999)"])
def test_near_ideal_orders_never_exceed_one(grades, discount):
    # Orders that differ from the ideal by one ulp of a grade: their DCG may round above the ideal's.
    import itertools

    for order in itertools.permutations(grades):
        value = nr.ndcg(list(order), discount=discount)
        assert 0.0 < value <= 1.0
        exact_order = sorted(order, reverse=True) == list(order)
        assert value == 1.0 or not exact_order


def test_rounding_excess_is_one_but_a_real_excess_is_an_error():
    # DCG above its ideal DCG by rounding (a few ulps) is exactly 1; by more, an internal error.
    ideal = np.array([3.0, 7.0])
    assert kernels.ndcg_ratio(np.nextafter(ideal, 10), ideal, 4).tolist() == [1.0, 1.0]
    with pytest.raises(
        RuntimeError, match=r"DCG of query 1 exceeds its ideal DCG by more than rounding allows \(7.7 > 7.0\)"
    ):
        kernels.ndcg_ratio(np.array([3.0, 7.7]), ideal, 4)


# --- 4. ideal= must contain the retrieved positive grades (multiset containment) --------------------


@pytest.mark.parametrize(
    "relevance, ideal, match",
    [
        ([2, 1], [3, 3], r"ideal does not contain the retrieved grades: relevance has 1 document of grade 1, ideal 0"),
        (
            [2, 2],
            [3, 3, 2],
            r"ideal does not contain the retrieved grades: relevance has 2 documents of grade 2, ideal 1",
        ),
        ([0.5, 1.5], [2.5, 1.5], r"ideal does not contain .*: relevance has 1 document of grade 0.5, ideal 0"),
        (
            [[3, 1], [1, 1]],
            [[1, 1, 0], [3, 1, 0]],
            r"ideal of query 0 does not contain .* of grade 3, ideal 0",
        ),  # misaligned
        ([[1, 1], [3, 40]], [[1, 1], [3, 41]], r"ideal of query 1 does not contain .* 1 document of grade 40, ideal 0"),
    ],
)
def test_ideal_must_contain_the_retrieved_grades_as_a_multiset(relevance, ideal, match):
    with pytest.raises(ValueError, match=match):
        nr.ndcg(relevance, ideal=ideal)
    with pytest.raises(ValueError, match=match.replace("relevance has", "y_true has")):
        nr.ndcg_from_scores(relevance, relevance, ideal=ideal)


def test_ideal_need_not_list_retrieved_zero_grades():
    # Zero-grade documents may be unjudged: only the positive grades must be known.
    assert nr.ndcg([1, 0, 0], ideal=[1]) == 1.0
    assert nr.ndcg([0.5, 0.0], ideal=[0.5]) == 1.0


@settings(max_examples=100, deadline=None)
@given(
    grades=st.lists(st.integers(0, 50), min_size=1, max_size=12),
    extra=st.lists(st.integers(0, 50), max_size=4),
    data=st.data(),
    as_float=st.booleans(),
)
def test_containment_matches_a_counter(grades, extra, data, as_float):
    from collections import Counter

    known = data.draw(st.permutations(grades + extra))
    # Replace one known grade by another value: contained iff the multiset still covers the list.
    if known and data.draw(st.booleans()):
        known[data.draw(st.integers(0, len(known) - 1))] = data.draw(st.integers(0, 50))
    if as_float:
        grades, known = [g / 4 for g in grades], [g / 4 for g in known]
    ours, theirs = Counter(g for g in grades if g > 0), Counter(known)
    contained = all(theirs[g] >= n for g, n in ours.items())
    if not known:
        return
    if contained:
        quiet(nr.ndcg, grades, ideal=known)
    else:
        with pytest.raises(ValueError, match="does not contain the retrieved grades"):
            quiet(nr.ndcg, grades, ideal=known)


# --- 5. Every parameter is checked before any work ---------------------------------------------------

BAD_PARAMETERS = [
    (dict(zero_ideal="bogus"), ValueError, "zero_ideal must be one of"),
    (dict(k=0), ValueError, "k must be an integer >= 1 or None, got 0"),
    (dict(gain="square"), ValueError, "unknown gain 'square'"),
    (dict(discount="cosine"), ValueError, "unknown discount 'cosine'"),
]


@pytest.mark.parametrize(
    "kwargs, error, match",
    BAD_PARAMETERS
    + [
        (dict(ties="random"), ValueError, "ties must be one of"),
        (dict(threads=3), ValueError, r"threads must be an integer in \[1, 2\] or None"),
    ],
)
def test_parameters_are_checked_before_the_data(kwargs, error, match):
    bad_data = [[1.0, np.nan]]  # would be refused as data, after the parameters
    scored = "ties" in kwargs or "threads" in kwargs
    with pytest.raises(error, match=match):
        if scored:
            nr.ndcg_from_scores(bad_data, [[1.0, 2.0]], **kwargs)
        else:
            nr.ndcg(bad_data, **kwargs)
    if not scored:
        with pytest.raises(error, match=match):
            nr.ndcg_from_scores(bad_data, [[1.0, 2.0]], **kwargs)


@pytest.mark.parametrize(
    "kwargs, error, match",
    BAD_PARAMETERS
    + [
        (dict(judged=[[True, False]] * 50), ValueError, "relevance and judged have different lengths"),
        (dict(judged="yes"), TypeError, "judged must be"),
        (dict(ideal=[[1.0]] * 50), ValueError, "ideal .*does not contain"),
    ],
)
def test_no_work_starts_before_every_parameter_and_input_is_checked(monkeypatch, kwargs, error, match):
    def no_work(*args, **kwargs):
        raise AssertionError("work started before every parameter was checked")

    from ndcg_research.core import _ranking as ranking

    for module, name in [
        (kernels, "ranked_dcg"),
        (kernels, "apply_gain"),
        (kernels, "top_grades"),
        (ranking, "ranked_gains"),
    ]:
        monkeypatch.setattr(module, name, no_work)
    grades = np.tile([2.0, 1.0, 0.0], (50, 1))
    with pytest.raises(error, match=match):
        nr.ndcg(grades, **kwargs)
    with pytest.raises(error, match=match.replace("relevance and", "y_true and")):
        nr.ndcg_from_scores(grades, grades, **kwargs)


def test_mean_over_queries_checks_nan_policy_first():
    with pytest.raises(ValueError, match="nan_policy must be"):
        nr.mean_over_queries([[1.0]], nan_policy="drop")


# --- 6. No returned documents, known grades given: nDCG 0 --------------------------------------------


def test_empty_result_with_known_grades_scores_zero():
    idcg = 2 + 1 / L3
    assert nr.ndcg([], ideal=[2, 1]) == 0.0
    assert tuple(nr.ndcg_parts([], ideal=[1, 2])) == (0.0, idcg, 0.0)
    assert nr.idcg([], ideal=[1, 2]) == idcg
    assert nr.ndcg_from_scores([], [], ideal=[2, 1]) == 0.0
    assert nr.ndcg_from_scores(np.array([]), np.array([]), 3, ideal=[2, 1]) == 0.0
    assert nr.ndcg([], 1, ideal=[2, 1], judged=[]) == 0.0


def test_empty_rows_in_a_batch_score_zero_with_known_grades():
    np.testing.assert_allclose(nr.ndcg([[1, 0], []], ideal=[[1], [1]]), [1.0, 0.0], rtol=0)
    np.testing.assert_array_equal(nr.ndcg(np.zeros((2, 0)), ideal=[[1], [3, 1]]), [0.0, 0.0])
    got = nr.ndcg_parts_from_scores([[], [0, 2]], [[], [0.1, 0.2]], ideal=[[4], [2]])
    np.testing.assert_allclose(got.dcg, [0.0, 2.0], rtol=0)
    np.testing.assert_allclose(got.idcg, [4.0, 2.0], rtol=0)
    np.testing.assert_allclose(got.ndcg, [0.0, 1.0], rtol=0)
    for ties in nr.TIES:
        np.testing.assert_array_equal(
            nr.ndcg_from_scores([[], [1]], [[], [0.5]], 2, ideal=[[1, 1], [1]], ties=ties), [0.0, 1.0]
        )


def test_empty_result_with_an_all_zero_ideal_follows_zero_ideal():
    with pytest.warns(nr.UndefinedNDCGWarning, match="1 query has ideal DCG 0"):
        assert math.isnan(nr.ndcg([], ideal=[0, 0], zero_ideal="nan"))


def test_empty_list_without_ideal_is_still_an_error():
    for call in (
        lambda: nr.ndcg([]),
        lambda: nr.dcg([]),
        lambda: nr.ndcg_from_scores([], []),
        lambda: nr.dcg_from_scores([[1], []], [[1], []]),
    ):
        with pytest.raises(ValueError, match="is empty"):
            call()
    with pytest.raises(ValueError, match="ideal is empty"):
        nr.ndcg([], ideal=[])


# --- 7. Errors in a user's callables keep their context --------------------------------------------


def broken_gain(grades):
    return grades / 0 if grades.size > 100 else {}["no such key"]


def broken_discount(ranks):
    raise ZeroDivisionError("bad rank")


def test_exception_inside_a_gain_names_the_callable_and_keeps_the_cause():
    with pytest.raises(
        ValueError,
        match=r"gain broken_gain raised KeyError: 'no such key', called on the 3 distinct grades of relevance",
    ) as info:
        nr.ndcg([[2, 1], [0, 2]], gain=broken_gain)
    assert isinstance(info.value.__cause__, KeyError)
    with pytest.raises(ValueError, match="gain broken_gain raised KeyError.* of y_true") as info:
        nr.ndcg_from_scores([2, 1], [0.1, 0.2], gain=broken_gain)
    assert isinstance(info.value.__cause__, KeyError)


def test_exception_inside_a_discount_names_the_callable_and_keeps_the_cause():
    with pytest.raises(
        ValueError, match=r"discount broken_discount raised ZeroDivisionError: bad rank, called on the ranks 1..2"
    ) as info:
        nr.ndcg([2, 1], discount=broken_discount)
    assert isinstance(info.value.__cause__, ZeroDivisionError)


@pytest.mark.parametrize("relevance", [[1, 2, 3], [[1, 2], [3, 2, 1, 0, 0]], np.ones((4, 7))])
def test_gain_of_the_wrong_shape_is_reported_in_the_users_terms(relevance):
    n_distinct = np.unique(np.concatenate([[0.0], np.concatenate([np.ravel(r) for r in relevance])])).size
    with pytest.raises(ValueError) as info:
        nr.ndcg(relevance, gain=lambda g: g[:1])
    message = str(info.value)
    assert f"called on the {n_distinct} distinct grades of relevance" in message, message
    assert "returned shape (1,)" in message
    assert "(1, 3)" not in message and "(2, 5)" not in message  # no internal padded batch shape


@pytest.mark.parametrize("where", ["relevance", "ideal", "y_score"])
def test_integers_too_large_for_float64_are_reported_as_such(where):
    # (with a float beside them too: [2**64, 0.5] was "must be numeric ... got objects")
    match = rf"{where}\S* holds integers beyond numpy's int64 and uint64 \(e.g. 1000000000000000000000000000000\)"
    with pytest.raises(ValueError, match=match):
        if where == "relevance":
            nr.ndcg([10**30, 0.5])
        elif where == "ideal":
            nr.ndcg([[1]], ideal=[[10**30, 1]])
        else:
            nr.ndcg_from_scores([1, 0], [10**30, 1])


# ---------------------------------------------------------------- pandas frames of nullable or mixed columns


def test_a_frame_of_nullable_or_mixed_columns_is_read_by_its_rows_not_its_labels():
    import pandas as pd

    # np.asarray of such a frame is an object array; iterating the frame gave its column labels, so a misleading
    # error ("relevance[0] must be a 1-D list ... got 0-D [0]") or, with tuple labels, the labels' nDCG
    grades = [[3, 0, 1, 2], [0, 1, 2, 1]]
    by_hand = [
        (3 + 1 / 2 + 2 / math.log2(5)) / (3 + 2 / L3 + 1 / 2),
        (1 / L3 + 2 / 2 + 1 / math.log2(5)) / (2 + 1 / L3 + 1 / 2),
    ]
    labels = pd.MultiIndex.from_tuples([(1, 2), (0, 1), (3, 3), (0, 0)])
    for frame in (pd.DataFrame(grades).convert_dtypes(), pd.DataFrame(grades, columns=labels).convert_dtypes()):
        assert nr.ndcg(frame) == pytest.approx(by_hand, rel=1e-15)
    mixed = pd.DataFrame({"a": [1, 0], "b": [True, True]})  # object dtype: an int and a bool column
    assert nr.ndcg(mixed) == pytest.approx([1.0, 1 / L3], rel=1e-15)
    scores = pd.DataFrame([[0.1, 0.2], [0.3, 0.4]]).astype("Float64")
    assert nr.ndcg_from_scores([[3, 0], [0, 1]], scores) == pytest.approx([1 / L3, 1.0], rel=1e-15)
    with pytest.raises(TypeError, match=r"relevance\[0\] must be numeric .* in \[3, <NA>\]"):
        nr.ndcg(pd.DataFrame([[3, None], [0, 1]]).convert_dtypes())


# ---------------------------------------------------------------- Python integers beside floats, beyond 2^53


@pytest.mark.parametrize(
    "y_true, y_score, where",
    [
        ([1, 0], [2**53 + 1, 2.0**53], "y_score"),
        ([[1, 0], [1, 0]], [[2**53 + 1, 2**53], [1.5, 2]], r"y_score \(query 0\)"),  # a float in another row
        ([[1, 0], [1, 0, 1]], [[2.0, 2**53 + 1], [1.5, 2, 3]], r"y_score\[0\]"),  # ragged
        ([1, 0], [np.int64(2**53 + 1), 2.0**53], "y_score"),  # numpy's integers compare with floats as floats
        ([[1, 0], [1, 0, 1]], [[2.0, np.int64(2**53 + 1)], [1.5, 2, 3]], r"y_score\[0\]"),
    ],
)
def test_python_integers_that_float64_changes_beside_floats_are_refused(y_true, y_score, where):
    # numpy reads ints beside floats as float64: 2^53 + 1 and 2^53 became a tie (0.8155 instead of 1)
    with pytest.raises(ValueError, match=rf"^{where} holds the integer 9007199254740993 \(position \d\) beside floats"):
        nr.ndcg_from_scores(y_true, y_score)


@pytest.mark.parametrize("dtypes", [("int64", "float64"), ("Int64", "Float64"), (object, "float64")])
def test_a_frame_of_integers_that_float64_changes_beside_floats_is_refused(dtypes):
    # pandas makes an int64 column beside a float64 one float64 (and the object path read numpy's float64): a tie
    import pandas as pd

    frame = pd.DataFrame({"a": pd.Series([2**53 + 1], dtype=dtypes[0]), "b": pd.Series([2.0**53], dtype=dtypes[1])})
    with pytest.raises(ValueError, match=r"^y_score \(query 0\) holds the integer 9007199254740993 \(position 1\)"):
        nr.ndcg_from_scores([[1, 0]], frame)


@pytest.mark.parametrize("columns", [{}, {"a": "int64", "b": "float64"}, {"a": "Int64"}])
def test_a_frame_without_rows_is_no_query_at_all(columns):
    # a mixed, nullable or column-less frame with no rows was read as one query with nothing returned: 0.0 with ideal=
    import pandas as pd

    frame = pd.DataFrame({name: pd.Series([], dtype=dtype) for name, dtype in columns.items()})
    with pytest.raises(ValueError, match=rf"^relevance is empty \(shape \(0, {len(columns)}\)\)"):
        nr.ndcg(frame, ideal=[1, 0])


def test_a_frame_whose_cells_are_lists_is_refused_naming_the_argument():
    import pandas as pd

    with pytest.raises(ValueError, match=r"^relevance\[0\] must be a 1-D list \(one query\), got 2-D"):
        nr.ndcg(pd.DataFrame({"rel": [[3, 0, 1], [0, 1]]}))  # it was numpy's "inhomogeneous shape", unnamed


def test_python_integers_that_float64_keeps_beside_floats_are_read():
    assert nr.ndcg_from_scores([1, 0], [2**60, 2.0**60]) == pytest.approx((1 + 1 / L3) / 2, rel=1e-15)
    assert nr.ndcg_from_scores([0, 1], [2**53 + 2, 1.5]) == 1 / L3


def test_zipflog_with_a_huge_gamma_warns_nothing():
    # log2(r + 1)^gamma overflows to inf beyond rank 1: the discount is 0 there, which numpy warned about
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert nr.ndcg([1, 0, 2], discount="zipflog(gamma=1e308)") == 1 / 2
