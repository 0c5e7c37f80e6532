"""Shared helpers of the metric core used across the package: integer/number checks, top-k order."""

import numpy as np
import pytest

from ndcg_research.core.ranking import top_order
from ndcg_research.core.validation import check_integer, check_number


@pytest.mark.parametrize("ties_levels", [2, 4, 1000])
def test_top_order_is_the_head_of_a_stable_descending_sort(ties_levels):
    # Reference: numpy's stable argsort of the negated scores, which orders equal scores by index.
    rng = np.random.default_rng(ties_levels)
    for _ in range(300):
        n, k = int(rng.integers(1, 40)), int(rng.integers(1, 45))
        scores = rng.integers(0, ties_levels, size=(2, 3, n)).astype(np.float64)
        expected = np.argsort(-scores, axis=-1, kind="stable")[..., :k]
        np.testing.assert_array_equal(top_order(scores, k), expected)


def test_top_order_one_row_with_a_tie_across_the_cut():
    # Scores 5, 3, 3, 3, 1: the top 2 are index 0 and then the lowest-indexed of the tied 3s.
    assert top_order(np.array([5.0, 3.0, 3.0, 3.0, 1.0]), 2).tolist() == [0, 1]


@pytest.mark.parametrize("value, minimum, error, message", [
    (True, 1, TypeError, "n must be an integer >= 1, got bool True"),
    (2.0, 1, TypeError, "n must be an integer >= 1, got float 2.0"),
    ("3", 1, TypeError, "n must be an integer >= 1, got str '3'"),
    (0, 1, ValueError, "n must be an integer >= 1, got 0"),
    (-1, 0, ValueError, "n must be an integer >= 0, got -1"),
])
def test_check_integer_refuses_with_the_argument_name(value, minimum, error, message):
    with pytest.raises(error, match=f"^{message}$"):
        check_integer(value, "n", minimum=minimum)


def test_check_integer_accepts_numpy_integers_and_returns_int():
    value = check_integer(np.int64(7), "n")
    assert value == 7 and type(value) is int
    assert check_integer(-5, "offset", minimum=None) == -5


@pytest.mark.parametrize("value, error", [(True, TypeError), ("1", TypeError), (float("inf"), ValueError),
                                          (float("nan"), ValueError)])
def test_check_number_refuses(value, error):
    with pytest.raises(error, match="^sigma must be"):
        check_number(value, "sigma")


@pytest.mark.parametrize("parse, what", [("parse_discount", "discount"), ("parse_gain", "gain")])
def test_builtin_only_refuses_callables_and_keeps_specs(parse, what):
    import ndcg_research as nr

    function = getattr(nr, parse)
    with pytest.raises(TypeError, match=f"^{what} must be a built-in {what}"):
        function(lambda x: x, builtin_only=True)
    assert str(function("exp2" if what == "gain" else "zipf", builtin_only=True)) in {"exp2", "zipf"}
