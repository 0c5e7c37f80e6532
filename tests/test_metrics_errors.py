"""Bad input is rejected loudly, with a message naming the argument and the value.

One test (or parametrized case) per bad input listed in issue 2, item 5, each
matching its error message; then the zero-ideal policy and the averaging rule.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

import ndcg_research as nr

# Every function that takes ranked grades, as (name, call taking the grades and **kwargs).
RANKED = {
    "cg": lambda rel, **kw: nr.cg(rel, **{k: v for k, v in kw.items() if k in ("k", "gain")}),
    "dcg": lambda rel, **kw: nr.dcg(rel, **kw),
    "idcg": lambda rel, **kw: nr.idcg(rel, **kw),
    "ndcg": lambda rel, **kw: nr.ndcg(rel, **kw),
    "ndcg_parts": lambda rel, **kw: nr.ndcg_parts(rel, **kw),
}
SCORED = {
    "ndcg_from_scores": nr.ndcg_from_scores,
    "dcg_from_scores": nr.dcg_from_scores,
    "ndcg_parts_from_scores": nr.ndcg_parts_from_scores,
}


def _scores_like(grades):
    """Finite scores with the same nesting as grades (1-D list, or one list per query)."""
    if isinstance(grades[0], list):
        return [np.arange(len(row), dtype=float) for row in grades]
    return np.arange(len(grades), dtype=float)


# --- NaN, infinite and negative grades or scores -------------------------------------------------

BAD_GRADES = [
    ([1, np.nan, 2], r"must be finite, got nan at position 2"),
    ([1, 2, np.inf], r"must be finite, got inf at position 3"),
    ([-np.inf, 2], r"must be finite, got -inf at position 1"),
    ([[1, 2], [3, np.nan]], r"must be finite, got nan at query 1, position 2"),
    ([[1, 2], [np.inf]], r"must be finite, got inf at query 1, position 1"),
    ([3, -1, 2], r"must be >= 0 \(graded relevance\), got -1.0 at position 2; map negative labels to grades >= 0"),
    ([[1, 2], [3, -2]], r"must be >= 0 \(graded relevance\), got -2.0 at query 1, position 2"),
    ([[1], [0.5, -0.25, 1]], r"must be >= 0 .*, got -0.25 at query 1, position 2"),
]


@pytest.mark.parametrize("grades, match", BAD_GRADES)
@pytest.mark.parametrize("function", sorted(RANKED))
def test_nonfinite_and_negative_grades_raise(function, grades, match):
    with pytest.raises(ValueError, match="relevance " + match):
        RANKED[function](grades)


@pytest.mark.parametrize("grades, match", BAD_GRADES)
@pytest.mark.parametrize("function", sorted(SCORED))
def test_nonfinite_and_negative_labels_raise(function, grades, match):
    with pytest.raises(ValueError, match="y_true " + match):
        SCORED[function](grades, _scores_like(grades))


@pytest.mark.parametrize("grades, match", BAD_GRADES)
def test_nonfinite_and_negative_ideal_grades_raise(grades, match):
    relevance = [[0] for _ in grades] if isinstance(grades[0], list) else [0]
    with pytest.raises(ValueError, match="ideal " + match):
        nr.ndcg(relevance, ideal=grades)
    with pytest.raises(ValueError, match="ideal " + match):
        nr.ndcg_from_scores(relevance, relevance, ideal=grades)


@pytest.mark.parametrize(
    "scores, match",
    [
        ([0.1, np.nan, 0.3], "y_score must be finite, got nan at position 2"),
        ([0.1, 0.2, np.inf], "y_score must be finite, got inf at position 3"),
        ([-np.inf, 0.2, 0.3], "y_score must be finite, got -inf at position 1"),
    ],
)
@pytest.mark.parametrize("function", sorted(SCORED))
def test_nonfinite_scores_raise(function, scores, match):
    with pytest.raises(ValueError, match=match):
        SCORED[function]([1, 0, 2], scores)
    with pytest.raises(ValueError, match=match.replace("position", "query 1, position")):
        SCORED[function]([[1, 0, 2], [1, 0, 2]], [[0.1, 0.2, 0.3], scores])


# --- Non-numeric input ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "data, match",
    [
        (["1", "2"], r"relevance must be numeric \(bool, int or float\), got dtype <U1"),
        ([[1, 2], ["a", "b"]], r"relevance must be numeric \(bool, int or float\), got dtype <U21"),
        (
            [[1, 2], [3, "b"]],
            r"relevance must be numeric \(bool, int or float\), got dtype <U21 in \['1', '2', '3', 'b'\]",
        ),
        (
            np.array(["a", "b"], dtype=object),
            r"relevance must be numeric \(bool, int or float\), got objects in \['a', 'b'\]",
        ),
        ([1 + 2j, 3], r"relevance must be numeric \(bool, int or float\), got dtype complex128"),
        (None, "relevance must be a 1-D list of numbers or a 2-D/ragged collection of them, got None"),
        (3, "relevance must be a 1-D list of numbers or a 2-D/ragged collection of them, got 3"),
        ("123", "relevance must be a 1-D list of numbers or a 2-D/ragged collection of them, got '123'"),
        ([[1, 2], "ab"], r"relevance\[1\] must be numeric, got 'ab'"),
    ],
)
def test_non_numeric_input_raises_type_error(data, match):
    with pytest.raises(TypeError, match=match):
        nr.ndcg(data)
    with pytest.raises(TypeError, match=match.replace("relevance", "y_true")):
        nr.ndcg_from_scores(data, data)


def test_non_numeric_scores_raise_type_error():
    with pytest.raises(TypeError, match=r"y_score must be numeric \(bool, int or float\), got dtype <U"):
        nr.ndcg_from_scores([1, 0], ["a", "b"])


def test_numbers_held_as_objects_are_read_as_the_same_list_is():
    # An object array or Series of numbers (a pandas object column) was refused as "objects in [1, 2]", while the
    # same numbers in a list or a DataFrame of object columns were scored. Non-numbers held so are still refused.
    import pandas as pd

    expected = (1 + 2 / np.log2(3)) / (2 + 1 / np.log2(3))  # by hand: [1, 2] against the ideal [2, 1]
    for data in (np.array([1, 2], dtype=object), np.array([1.0, 2.0], dtype=object), pd.Series([1, 2], dtype=object)):
        assert nr.ndcg(data) == pytest.approx(expected, rel=1e-15)
    rows = nr.ndcg(np.array([[1, 2], [2, 1]], dtype=object))
    assert rows.tolist() == pytest.approx([expected, 1.0], rel=1e-15)
    with pytest.raises(
        TypeError, match=r"relevance must be numeric \(bool, int or float\), got objects in \[1, None\]"
    ):
        nr.ndcg(np.array([1, None], dtype=object))


def test_an_empty_list_gets_advice_about_ideal_only_where_the_function_takes_it():
    # cg and dcg suggested ideal=, which they do not take (TypeError when followed).
    for function in (nr.cg, nr.dcg):
        for relevance in ([], [[1], []]):
            with pytest.raises(ValueError, match=r"is empty; .*needs at least one document$"):
                function(relevance)
    with pytest.raises(ValueError, match=r"give the query's known grades with ideal=\)$"):
        nr.ndcg([])
    assert nr.ndcg([], ideal=[1]) == 0.0  # the advice, followed


def test_an_empty_ideal_is_named_without_advice_about_ideal():
    # The hint for an empty result ("give the query's known grades with ideal=") was given about ideal itself.
    for relevance, ideal, label in (([], [], "ideal"), ([[1], []], [[1], []], r"ideal\[1\]")):
        with pytest.raises(ValueError, match=rf"^{label} is empty; every query needs at least one known grade") as e:
            nr.ndcg(relevance, ideal=ideal)
        assert "ideal=" not in str(e.value)


@pytest.mark.parametrize(
    "data, match",
    [
        (np.zeros((2, 2, 2)), r"relevance must be 1-D \(one query\) or 2-D/ragged \(one row per query\), got 3-D"),
        (
            [[1, 2], 3],
            r"relevance\[1\] must be a 1-D list \(one query\), got 0-D .*mixing numbers and lists is not allowed",
        ),
        ([[1, 2], [[3]]], r"relevance\[1\] must be a 1-D list \(one query\), got 2-D"),
        # numpy's own "inhomogeneous shape" message named neither the argument nor the row
        ([[1, 2], [3, [4]]], r"relevance\[1\] must be a 1-D list \(one query\), got a nested list of uneven depth"),
        ([[1, 2], [[3, 4], [5]]], r"relevance\[1\] must be a 1-D list .* mixing numbers and lists is not allowed"),
    ],
)
def test_wrong_nesting_raises(data, match):
    with pytest.raises(ValueError, match=match):
        nr.ndcg(data)


# --- Mismatched lengths ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "y_true, y_score, match",
    [
        ([1, 2], [1, 2, 3], "y_true and y_score have different lengths: 2 and 3"),
        ([[1, 2], [1]], [[1, 2], [1, 3]], "y_true and y_score have different lengths for query 1: 1 and 2"),
        ([[1, 2], [1, 3]], [[1, 2]], "y_true and y_score must describe the same queries: got 2 queries and 1 queries"),
        ([1, 2], [[1, 2]], "y_true and y_score must describe the same queries: got one list and 1 queries"),
    ],
)
@pytest.mark.parametrize("function", sorted(SCORED))
def test_mismatched_labels_and_scores_raise(function, y_true, y_score, match):
    with pytest.raises(ValueError, match=match):
        SCORED[function](y_true, y_score)


@pytest.mark.parametrize(
    "relevance, ideal, match",
    [
        (
            [[1, 2], [1, 3]],
            [[1, 2]],
            "ideal must give the known grades of each query of relevance: expected 2 lists, got 1 lists",
        ),
        ([[1, 2], [1, 3]], [[1, 2], [1, 3], [0]], "expected 2 lists, got 3 lists"),
        ([[1, 2], [1, 3]], [1, 2, 3], "expected 2 lists, got one 1-D list"),
        ([1, 2], [[1, 2]], "expected one 1-D list, got 1 lists"),
    ],
)
def test_ideal_count_must_match_queries(relevance, ideal, match):
    with pytest.raises(ValueError, match=match):
        nr.ndcg(relevance, ideal=ideal)
    with pytest.raises(ValueError, match=match.replace("of relevance", "of y_true")):
        nr.ndcg_from_scores(relevance, relevance, ideal=ideal)
    with pytest.raises(ValueError, match=match):
        nr.idcg(relevance, ideal=ideal)


# --- k --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "k, error, match",
    [
        (0, ValueError, "k must be an integer >= 1 or None, got 0"),
        (-1, ValueError, "k must be an integer >= 1 or None, got -1"),
        (np.int64(0), ValueError, r"k must be an integer >= 1 or None, got (np\.int64\()?0"),
        (2.5, TypeError, "k must be an integer >= 1 or None, got float 2.5"),
        (2.0, TypeError, "k must be an integer >= 1 or None, got float 2.0"),
        (True, TypeError, "k must be an integer >= 1 or None, got bool True"),
        ("3", TypeError, "k must be an integer >= 1 or None, got str '3'"),
        ([3], TypeError, r"k must be an integer >= 1 or None, got list \[3\]"),
    ],
)
def test_k_must_be_an_integer_at_least_one(k, error, match):
    for function in RANKED.values():
        with pytest.raises(error, match=match):
            function([1, 2, 0], k=k)
    for function in SCORED.values():
        with pytest.raises(error, match=match):
            function([1, 2, 0], [0.3, 0.2, 0.1], k=k)


def test_numpy_integer_k_is_accepted():
    assert nr.ndcg([0, 1], k=np.int64(1)) == 0.0
    assert math.isclose(nr.ndcg([0, 1], k=np.uint8(2)), (1 / math.log2(3)) / 1, rel_tol=1e-15)


# --- Empty lists ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "data, match",
    [
        ([], "relevance is empty; a ranked list needs at least one document"),
        (np.array([]), "relevance is empty; a ranked list needs at least one document"),
        ([[]], r"relevance is empty \(shape \(1, 0\)\); every query needs at least one document"),
        (np.zeros((0, 3)), r"relevance is empty \(shape \(0, 3\)\)"),
        ([[1, 2], []], r"relevance\[1\] is empty; every query needs at least one document"),
        ([np.array([1.0]), np.array([])], r"relevance\[1\] is empty"),
    ],
)
def test_empty_lists_raise(data, match):
    for function in RANKED.values():
        with pytest.raises(ValueError, match=match):
            function(data)
    with pytest.raises(ValueError, match=match.replace("relevance", "y_true")):
        nr.ndcg_from_scores(data, data)


def test_empty_scores_and_empty_ideal_raise():
    with pytest.raises(ValueError, match="y_score is empty; a ranked list needs at least one document"):
        nr.ndcg_from_scores([1, 2], [])
    with pytest.raises(ValueError, match="ideal is empty"):
        nr.ndcg([1, 2], ideal=[])
    with pytest.raises(ValueError, match=r"ideal\[1\] is empty"):
        nr.ndcg([[1], [0]], ideal=[[1], []])


# --- Gains that overflow, bad custom gains and discounts ------------------------------------------


@pytest.mark.parametrize("where", ["relevance", "y_true", "ideal"])
def test_exp2_gain_overflow_raises(where):
    match = rf"gain 'exp2' overflows float64 for grade 2000.0 in {where}; use a smaller grade scale or gain='linear'"
    with pytest.raises(ValueError, match=match):
        if where == "relevance":
            nr.ndcg([2000, 1], gain="exp2")
        elif where == "y_true":
            nr.ndcg_from_scores([1, 2000], [0.2, 0.1], gain="exp2")
        else:
            nr.ndcg([1], ideal=[2000, 1], gain="exp2")
    if where == "relevance":
        for function in (nr.dcg, nr.idcg, nr.cg):
            with pytest.raises(ValueError, match=match):
                function([2000, 1], gain="exp2")
    # Just below the overflow the gain is finite and accepted.
    assert math.isfinite(nr.dcg([1023], gain="exp2"))


def test_dcg_sum_overflow_is_not_a_silent_nan():
    # Each gain 2^1023 - 1 is finite, but their discounted sum exceeds float64, and
    # nDCG would come out as inf / inf = NaN (regression: once only single gains
    # were checked).
    with pytest.raises(ValueError, match="overflow"):
        nr.ndcg([1023, 1023, 1023], gain="exp2")


@pytest.mark.parametrize(
    "gain, error, match",
    [
        (lambda g: g + 1, ValueError, r"gain <lambda> must map grade 0 to 0, got gain\(0\) = 1.0"),
        (
            lambda g: -g,
            ValueError,
            r"gain <lambda> must be non-decreasing, got gain\(0.0\) = -0.0 > gain\(1.0\) = -1.0",
        ),
        (
            lambda g: np.where(g > 2, 0.5, g),
            ValueError,
            r"must be non-decreasing, got gain\(2.0\) = 2.0 > gain\(3.0\) = 0.5",
        ),
        (lambda g: np.expm1(1000.0 * g), ValueError, r"gain <lambda> is not finite \(overflow\?\) for grade 1.0"),
        (
            lambda g: np.where(g > 0, np.nan, 0.0),
            ValueError,
            r"gain <lambda> is not finite \(overflow\?\) for grade 1.0",
        ),
        (lambda g: "x", TypeError, "gain <lambda> must map an array of grades to an array of numbers"),
        (
            lambda g: np.ones(3),
            ValueError,
            r"gain <lambda> must return one value per grade: called on the 4 distinct grades of (relevance|y_true), it returned shape \(3,\)",
        ),
    ],
)
def test_bad_custom_gains_raise(gain, error, match):
    with np.errstate(over="ignore"):
        with pytest.raises(error, match=match):
            nr.ndcg([1, 2, 3, 0, 2], gain=gain)
        with pytest.raises(error, match=match):
            nr.ndcg_from_scores([1, 2, 3, 0, 2], [5, 4, 3, 2, 1], gain=gain)


def test_gain_is_checked_on_the_grades_seen():
    # A gain that decreases only above the grades used is acceptable.
    assert nr.ndcg([2, 1], gain=lambda g: np.where(g > 5, 0.0, g)) == 1.0


def _increasing_after_4(r):
    return np.where(r < 5, 1 / r, 1.0)


@pytest.mark.parametrize(
    "discount, match",
    [
        (
            lambda r: 1 - r,
            r"discount <lambda> must be finite and >= 0 over the ranks used \(1..3\), positive at rank 1, got D\(1\) = 0.0",
        ),
        (
            lambda r: 1 / r - 0.4,
            r"must be finite and >= 0 over the ranks used \(1..3\), positive at rank 1, got D\(3\) = -0.0666",
        ),
        (
            lambda r: 1 / (r - 1),
            r"must be finite and >= 0 over the ranks used \(1..3\), positive at rank 1, got D\(1\) = inf",
        ),
        (
            lambda r: np.full(r.shape, np.nan),
            r"must be finite and >= 0 over the ranks used \(1..3\), positive at rank 1, got D\(1\) = nan",
        ),
        (lambda r: r, r"discount <lambda> must be non-increasing over the ranks used, got D\(1\) = 1.0 < D\(2\) = 2.0"),
        (
            lambda r: 1.0,
            r"discount <lambda> must return one value per rank: called on the ranks 1..3, it returned shape \(\)",
        ),
    ],
)
def test_bad_custom_discounts_raise(discount, match):
    with np.errstate(divide="ignore"):
        for call in (
            lambda: nr.dcg([1, 1, 1], discount=discount),
            lambda: nr.ndcg([1, 1, 1], discount=discount),
            lambda: nr.idcg([1, 1, 1], discount=discount),
            lambda: nr.ndcg_from_scores([1, 1, 1], [3, 2, 1], discount=discount),
        ):
            with pytest.raises(ValueError, match=match):
                call()


def test_discount_returning_non_numbers_is_a_type_error():
    with pytest.raises(
        TypeError,
        match="discount <lambda> must map an array of ranks to an array of numbers, got 'x' when called on the ranks 1..3",
    ):
        nr.ndcg([1, 1, 1], discount=lambda r: "x")


def test_discount_is_checked_over_the_ranks_used_only():
    grades = [1, 1, 1, 1, 1]
    # Increasing from rank 4 to 5: fine at k=3, an error over all five ranks.
    assert nr.ndcg(grades, 3, discount=_increasing_after_4) == 1.0
    with pytest.raises(
        ValueError,
        match=r"discount _increasing_after_4 must be non-increasing over the ranks used, got D\(4\) = 0.25 < D\(5\) = 1.0",
    ):
        nr.ndcg(grades, discount=_increasing_after_4)


@pytest.mark.parametrize(
    "kwargs, error, match",
    [
        (dict(discount=3), TypeError, "discount must be a spec string, a Discount or a callable, got int: 3"),
        (dict(gain=3), TypeError, "gain must be a spec string, a mapping, a Gain or a callable, got int: 3"),
        (
            dict(gain={0: 0, 1: 1}),
            ValueError,
            r"gain 'mapping\(\{0: 0, 1: 1\}\)' has no entry for grade (np\.float64\()?2\.0",
        ),
    ],
)
def test_wrong_gain_or_discount_types_raise(kwargs, error, match):
    with pytest.raises(error, match=match):
        nr.ndcg([1, 2], **kwargs)


def test_builtin_discount_rejects_ranks_below_one():
    with pytest.raises(ValueError, match=r"ranks must be finite and >= 1, got 0\.0 at position 1"):
        nr.parse_discount("log2")([0, 1])


def test_gain_called_on_a_matrix_names_the_bad_entry_by_its_index():
    # by hand: the first entry below 0 in row-major order is row 1, column 0 (a flat position would say 3)
    with pytest.raises(ValueError, match=r"grades must be finite and >= 0, got -1\.0 at index \(1, 0\)"):
        nr.parse_gain("exp2")([[1, 2], [-1, 3]])


# --- ideal must contain the retrieved grades ------------------------------------------------------


@pytest.mark.parametrize(
    "relevance, ideal, match",
    [
        (
            [3, 1],
            [2, 1, 1],
            r"ideal does not contain the retrieved grades: relevance has 1 document of grade 3, ideal 0",
        ),
        (
            [2, 2, 1],
            [2, 1, 1],
            r"relevance has 2 documents of grade 2, ideal 1; ideal must list all known grades of the query, retrieved or not",
        ),
        ([[3, 1], [3, 1]], [[3, 1], [2, 1, 1]], r"ideal of query 1 does not contain the retrieved grades"),
    ],
)
def test_ideal_must_contain_the_retrieved_grades(relevance, ideal, match):
    with pytest.raises(ValueError, match=match):
        nr.ndcg(relevance, ideal=ideal)
    with pytest.raises(ValueError, match=match.replace("relevance has", "y_true has")):
        nr.ndcg_from_scores(relevance, relevance, ideal=ideal)


def test_ideal_with_the_retrieved_grades_in_any_order_is_accepted():
    assert math.isclose(
        nr.ndcg([1, 3], ideal=[0, 3, 1]), (1 + 3 / math.log2(3)) / (3 + 1 / math.log2(3)), rel_tol=1e-15
    )


# --- Tie rule and policies named wrongly ----------------------------------------------------------


def test_unknown_tie_rule_raises():
    with pytest.raises(
        ValueError, match="ties must be one of 'average', 'first', 'pessimistic', 'optimistic', got 'random'"
    ):
        nr.ndcg_from_scores([1, 2], [1, 2], ties="random")


@pytest.mark.parametrize("function", [nr.ndcg, nr.ndcg_parts])
def test_unknown_zero_ideal_policy_raises(function):
    with pytest.raises(ValueError, match="zero_ideal must be one of 'zero', 'one', 'nan', 'raise', got 'skip'"):
        function([1, 0], zero_ideal="skip")
    with pytest.raises(ValueError, match="zero_ideal must be one of"):
        nr.ndcg_from_scores([1, 0], [1, 2], zero_ideal=None)


# --- The zero-ideal policy ------------------------------------------------------------------------

BATCH = [[0, 0], [1, 0], [0]]  # queries 0 and 2 have no relevant document


@pytest.mark.parametrize("policy, fill", [("zero", 0.0), ("one", 1.0), ("nan", math.nan)])
def test_zero_ideal_policy_fills_and_warns(policy, fill):
    expected_defined = 1.0  # [1, 0] is in ideal order
    with pytest.warns(
        nr.UndefinedNDCGWarning,
        match=rf"2 queries have ideal DCG 0 \(no relevant document known\): the queries at rows 0, 2; nDCG set to {fill} by zero_ideal='{policy}'",
    ) as record:
        got = nr.ndcg(BATCH, zero_ideal=policy)
    assert len([w for w in record if issubclass(w.category, nr.UndefinedNDCGWarning)]) == 1
    assert record[0].filename == __file__  # the warning points at the caller
    np.testing.assert_array_equal(got, [fill, expected_defined, fill])
    with pytest.warns(
        nr.UndefinedNDCGWarning,
        match=rf"1 query has ideal DCG 0 \(no relevant document known\): the query at row 0; nDCG set to {fill}",
    ):
        single = nr.ndcg_from_scores([0, 0, 0], [0.3, 0.2, 0.1], zero_ideal=policy)
    assert single == fill or (math.isnan(fill) and math.isnan(single))
    # The same with an explicit all-zero ideal and a cut-off.
    with pytest.warns(nr.UndefinedNDCGWarning):
        parts = nr.ndcg_parts([0, 0], 1, ideal=[0, 0, 0], zero_ideal=policy)
    assert parts.dcg == 0.0 and parts.idcg == 0.0
    assert parts.ndcg == fill or (math.isnan(fill) and math.isnan(parts.ndcg))


def test_zero_ideal_default_is_zero():
    with pytest.warns(nr.UndefinedNDCGWarning, match="zero_ideal='zero'"):
        assert nr.ndcg([0, 0]) == 0.0


def test_zero_ideal_raise():
    with pytest.raises(
        ValueError,
        match=r"nDCG is undefined for 2 queries with ideal DCG 0 \(no relevant document known\): the queries at rows 0, 2; choose zero_ideal='zero', 'one' or 'nan'",
    ):
        nr.ndcg(BATCH, zero_ideal="raise")
    with pytest.raises(ValueError, match="nDCG is undefined for 1 query with ideal DCG 0"):
        nr.ndcg_from_scores([0, 0], [1, 2], zero_ideal="raise")


def test_zero_ideal_message_lists_at_most_ten_queries():
    with pytest.warns(
        nr.UndefinedNDCGWarning,
        match=r"12 queries have ideal DCG 0 .*: the queries at rows 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, \.\.\.;",
    ):
        nr.ndcg(np.zeros((12, 3)))


@pytest.mark.parametrize("policy", nr.ZERO_IDEAL_POLICIES)
def test_no_warning_when_every_query_is_defined(policy):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert nr.ndcg([[1, 0], [0, 2]], zero_ideal=policy).tolist() == [1.0, 1 / math.log2(3) * 2 / 2]
        nr.ndcg_from_scores([1, 0], [0.1, 0.2], zero_ideal=policy)


def test_dcg_and_idcg_do_not_warn():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert nr.dcg([0, 0]) == 0.0
        assert nr.idcg([0, 0]) == 0.0
        assert nr.cg([0, 0]) == 0.0


def test_dcg_from_scores_does_not_warn_about_ndcg():
    # DCG is defined (0) for a query without relevant documents; only nDCG is not.
    # Regression: dcg_from_scores once went through ndcg_parts_from_scores, warning
    # about nDCG and computing an ideal DCG it threw away.
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert nr.dcg_from_scores([0, 0], [0.1, 0.2]) == 0.0


# --- Averaging over queries -----------------------------------------------------------------------


def test_mean_over_queries_policies():
    values = [1.0, 0.5, math.nan]
    with pytest.raises(
        ValueError,
        match=r"1 of 3 per-query values are NaN \(undefined nDCG\); pass nan_policy='omit' to average over the 2 defined queries",
    ):
        nr.mean_over_queries(values)
    assert nr.mean_over_queries(values, nan_policy="omit") == (1.0 + 0.5) / 2
    assert math.isnan(nr.mean_over_queries(values, nan_policy="propagate"))
    assert nr.mean_over_queries([1.0, 0.5, 0.0]) == 0.5  # zero_ideal="zero" queries count as 0
    with pytest.raises(ValueError, match="every per-query value is NaN; there is nothing to average"):
        nr.mean_over_queries([math.nan, math.nan], nan_policy="omit")
    with pytest.raises(ValueError, match="nan_policy must be one of 'raise', 'omit', 'propagate', got 'drop'"):
        nr.mean_over_queries(values, nan_policy="drop")


@pytest.mark.parametrize(
    "values, match",
    [
        ([], r"values must not be empty, got shape \(0,\)"),
        ([[1.0, 0.5]], r"values must be 1-D, got shape \(1, 2\)"),
        (0.5, r"values must be 1-D, got shape \(\)"),
    ],
)
def test_mean_over_queries_needs_a_non_empty_1d_array(values, match):
    with pytest.raises(ValueError, match=match):
        nr.mean_over_queries(values)


def test_mean_over_queries_rejects_unknown_policy_without_nan():
    # Regression: a misspelled nan_policy was only noticed when a NaN was present.
    with pytest.raises(ValueError, match="nan_policy must be one of 'raise', 'omit', 'propagate', got 'drop'"):
        nr.mean_over_queries([0.5, 1.0], nan_policy="drop")


def test_mean_over_queries_with_nan_policy_end_to_end():
    with pytest.warns(nr.UndefinedNDCGWarning):
        values = nr.ndcg(BATCH, zero_ideal="nan")
    assert nr.mean_over_queries(values, nan_policy="omit") == 1.0
    with pytest.warns(nr.UndefinedNDCGWarning):
        values = nr.ndcg(BATCH)
    assert math.isclose(nr.mean_over_queries(values), 1 / 3, rel_tol=1e-15)


def test_a_callable_discount_may_underflow_to_zero_as_the_builtin_geometric_does():
    # p^(r - 1) with p = 1/2 is 0.0 in float64 from rank 1076 on; built in or as a callable, it is one policy.
    grades = np.ones(1100)
    expected = math.fsum(0.5**r for r in range(1100))  # the terms past rank 1075 are 0 in float64 too
    for discount in ("geometric(p=0.5)", lambda r: 0.5 ** (r - 1)):
        assert nr.dcg(grades, discount=discount) == pytest.approx(expected, rel=1e-15)
        assert nr.ndcg(grades, discount=discount) == 1.0


@pytest.mark.parametrize(
    ("function", "match"),
    [
        (lambda r: 1 / r + 1j * r, "must return real numbers in a plain array, got complex numbers"),
        (lambda r: np.ma.masked_array(1 / r, mask=r > 1), "must return real numbers in a plain array, got a masked"),
    ],
)
def test_callables_returning_complex_or_masked_arrays_are_refused(function, match):
    with pytest.raises(TypeError, match=f"discount <lambda> {match}"):
        nr.ndcg([3, 2, 1], discount=function)
    with pytest.raises(TypeError, match=f"gain <lambda> {match}"):
        nr.ndcg([3, 2, 1], gain=lambda g: function(g + 1) * g)


@pytest.mark.parametrize(
    ("call", "error", "match"),
    [
        # the ideal's DCG overflows (3 x 2^1023 over the ideal's ranks), not the list's
        (lambda: nr.ndcg([1023, 0], ideal=[1023] * 3, gain="exp2"), ValueError, r"^ideal DCG of query 0 overflows"),
        # no gain='linear' hint where the gain is linear
        (
            lambda: nr.cg([1e308, 1e308]),
            ValueError,
            r"^CG of query 0 overflows float64 \(its gains sum past 1.8e308\); use a smaller grade scale$",
        ),
        # a custom discount can overflow it too: the message blamed the grades alone
        (
            lambda: nr.dcg([3, 2, 1], discount=lambda r: np.full(r.shape, 1e308)),
            ValueError,
            r"its gains times their discounts sum past 1.8e308\); use a smaller grade scale or discount$",
        ),
        # an unknown discount written with positional parameters is named as unknown (not "give them by name")
        (lambda: nr.parse_discount("foo(1)"), ValueError, r"^unknown discount 'foo'; valid discounts: "),
        # an infinity is no per-query value (inf and -inf averaged to NaN under nan_policy='raise')
        (
            lambda: nr.mean_over_queries([np.inf, -np.inf]),
            ValueError,
            r"^values must be finite or NaN, got inf at position 0$",
        ),
        # a uint64 grade gets no hint about scores
        (
            lambda: nr.ndcg(np.array([1, 2**60 + 1], dtype=np.uint64)),
            ValueError,
            r"^relevance holds 1152921504606846977 \(position 2\), which float64 makes 1.152921504606847e\+18: distinct values would become one; round or rescale relevance to float64 first$",
        ),
        (
            lambda: nr.Discount("log2")([5, np.inf]),
            ValueError,
            r"^ranks must be finite and >= 1, got inf at position 2$",
        ),
        (
            lambda: nr.Gain("linear")(["a"]),
            TypeError,
            r"^grades must be numeric \(bool, int or float\), got dtype <U1 in \['a'\]$",
        ),
        (lambda: nr.Gain("exp2")([-3]), ValueError, r"^grades must be finite and >= 0, got -3.0 at position 1$"),
        (lambda: nr.ndcg([1, 0], judged=True), TypeError, r"^judged must be a 1-D list of booleans or a 2-D/ragged"),
    ],
)
def test_messages_name_what_is_wrong(call, error, match):
    with pytest.raises(error, match=match):
        call()


def test_the_mean_of_large_finite_values_does_not_overflow():
    # (1e308 + 1e308) / 2 overflowed to inf: the mean is 1e308, and exactly so for these.
    assert nr.mean_over_queries([1e308, 1e308]) == 1e308
    assert nr.mean_over_queries([0.25, 0.75]) == 0.5  # (the usual values keep numpy's mean)


def test_pandas_inputs_with_different_labels_are_refused_not_paired_by_position():
    # y_score indexed a, b, c against y_true indexed c, b, a was paired by position (nDCG 0.950 where the labels
    # give 0.760); a DataFrame's columns likewise. Aligned or plain arrays are paired as given.
    import pandas as pd

    y_true = pd.Series([2, 0, 1], index=list("cba"))
    y_score = pd.Series([0.3, 0.2, 0.1], index=list("abc"))
    with pytest.raises(ValueError, match=r"y_true and y_score are pandas objects with different indexes"):
        nr.ndcg_from_scores(y_true, y_score)
    aligned = y_score.reindex(y_true.index)  # scores c 0.1, b 0.2, a 0.3: ranking a (1), b (0), c (2)
    expected = (1 + 2 / np.log2(4)) / (2 + 1 / np.log2(3))
    assert nr.ndcg_from_scores(y_true, aligned) == pytest.approx(expected, rel=1e-12)
    grades, scores = pd.DataFrame({"a": [1], "b": [0]}), pd.DataFrame({"b": [1.0], "a": [0.0]})
    with pytest.raises(ValueError, match=r"different columns.*reindex\(columns=y_true.columns\)"):
        nr.ndcg_from_scores(grades, scores)
    with pytest.raises(ValueError, match=r"y_true and judged are pandas objects with different indexes"):
        nr.ndcg_from_scores(y_true, aligned, judged=pd.Series([True] * 3, index=list("abc")))


def test_pandas_labels_are_compared_only_between_pandas_objects():
    # ndcg and ndcg_parts paired a judged Series with the grades by position, whatever its labels (0.631 where the
    # labels give 1.0); *_from_scores refused a Series beside a plain list (a list's .index is a method).
    import pandas as pd

    grades = pd.Series([0, 2, 1], index=list("abc"))
    judged = pd.Series([True, False, True], index=list("bac"))  # b and c judged, a not
    for function in (nr.ndcg, nr.ndcg_parts):
        with pytest.raises(ValueError, match=r"relevance and judged are pandas objects with different indexes"):
            function(grades, judged=judged)
    assert nr.ndcg(grades, judged=judged.reindex(grades.index)) == 1.0  # condensed to b, c: [2, 1], ideal order
    from sklearn.metrics import ndcg_score

    expected = ndcg_score([[2, 0, 1]], [[0.1, 0.9, 0.5]])
    for scores in ([0.1, 0.9, 0.5], (0.1, 0.9, 0.5)):
        assert nr.ndcg_from_scores(pd.Series([2, 0, 1]), scores) == pytest.approx(expected, rel=1e-12)
    value = nr.ndcg_from_scores(pd.Series([2, 0, 1]), pd.Series([0.1, 0.9, 0.5]), judged=[True, True, True])
    assert value == pytest.approx(expected, rel=1e-12)
    assert nr.ndcg_from_scores(pd.DataFrame([[2, 0, 1]]), [[0.1, 0.9, 0.5]]).tolist() == pytest.approx([expected])


def test_huge_integer_parameters_and_a_list_as_a_discount_name_get_clear_errors():
    # 10**400 raised OverflowError (float() of the int), from Python and the command line; a list was "unhashable"
    with pytest.raises(ValueError, match=r"parameter 'beta' must be finite, got int beyond float64's range"):
        nr.ndcg([1, 2], discount="power(beta=1" + "0" * 400 + ")")
    with pytest.raises(ValueError, match=r"every grade must be finite, got int beyond float64's range"):
        nr.ndcg([1, 2], gain={10**400: 1})
    with pytest.raises(TypeError, match=r"a discount's name must be a str such as 'log2', got list"):
        nr.Discount(["log2"])
    with pytest.raises(ValueError, match=r"arguments must be literals"):
        nr.parse_gain("mapping({[1]: 2})")


def test_an_overflowing_cg_is_named_cg_without_a_discount():
    # cg has no discount: its overflow was "DCG of query 0 ... use a smaller grade scale or discount"
    with pytest.raises(ValueError, match=r"^CG of query 0 overflows float64 \(its gains sum past 1.8e308\); use a sm"):
        nr.cg([1e308, 1e308])
    with pytest.raises(ValueError, match=r"^DCG of query 1 overflows .*times their discounts.* or discount$"):
        nr.dcg([[1.0], [1e308, 1e308, 1e308]])
