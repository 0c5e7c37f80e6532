"""The declarative parameter layer (ndcg_research.core.params): messages, normalisation, order, nesting, renames.

Every public function's declaration is exercised by tests/test_common_api.py; here the layer itself.
"""

from __future__ import annotations

import math
import threading
import warnings

import numpy as np
import pytest

import ndcg_research as nr
from ndcg_research.core.constraints import (
    AnyOf,
    Anything,
    Array,
    Boolean,
    Function,
    Instance,
    Integer,
    Options,
    Real,
    SequenceOf,
)
from ndcg_research.core.params import validate_params


@pytest.mark.parametrize("constraint, value, error, message", [
    (Integer(1), 0, ValueError, "n must be an integer >= 1, got 0"),
    (Integer(1), np.int64(0), ValueError, "n must be an integer >= 1, got 0"),  # plain, not np.int64(0)
    (Integer(1), 2.0, TypeError, "n must be an integer >= 1, got float 2.0"),
    (Integer(1), True, TypeError, "n must be an integer >= 1, got bool True"),
    (Integer(1), "3", TypeError, "n must be an integer >= 1, got str '3'"),
    (Integer(0, none=True), -1, ValueError, "n must be an integer >= 0 or None, got -1"),
    (Integer(1, 2, none=True), 3, ValueError, r"n must be an integer in \[1, 2\] or None, got 3"),
    (Integer(None), math.nan, TypeError, "n must be an integer, got float nan"),
    (Real(), math.nan, ValueError, "n must be finite, got nan"),
    (Real(), np.float64(math.inf), ValueError, "n must be finite, got inf"),
    (Real(), "0.5", TypeError, "n must be a number, got str '0.5'"),
    (Real(), np.True_, TypeError, "n must be a number, got bool True"),
    (Real(0), -1e-12, ValueError, "n must be a number >= 0, got -1e-12"),
    (Real(0), math.nan, ValueError, "n must be a number >= 0, got nan"),
    (Real(0), math.inf, ValueError, "n must be finite, got inf"),
    (Real(0, closed="neither"), 0, ValueError, "n must be a number > 0, got 0.0"),
    (Real(0, 1, closed="neither"), 1, ValueError, "n must be strictly between 0 and 1, got 1.0"),
    (Real(0, 1), 1.5, ValueError, r"n must be in \[0, 1\], got 1.5"),
    (Options(("a", "b")), "c", ValueError, "n must be one of 'a', 'b', got 'c'"),
    (Options(("a", "b")), np.str_("c"), ValueError, "n must be one of 'a', 'b', got 'c'"),
    (Options(("a", "b"), none=True), 3, ValueError, "n must be one of 'a', 'b' or None, got 3"),
    (Boolean(), "no", TypeError, "n must be True or False, got str 'no'"),
    (Boolean(), 1, TypeError, "n must be True or False, got int 1"),
    (Boolean(none=True), "False", TypeError, "n must be True, False or None, got str 'False'"),
    (Instance(str), 3, TypeError, "n must be a str, got int 3"),
    (Function(), 3, TypeError, "n must be callable, got int 3"),
    (Array(ndim=1), [[1.0]], ValueError, r"n must be 1-D, got shape \(1, 1\)"),
    (Array(ndim=1), [1.0, math.nan], ValueError, "n must be finite, got nan at index 1"),
    (Array(), [[1.0, 2.0], [3.0, -math.inf]], ValueError, r"n must be finite, got -inf at index \(1, 1\)"),
    (Array(low=0), 5 - 6.0, ValueError, "n must be finite and >= 0, got -1.0$"),
    (Array(ndim=1), ["a", "b"], TypeError, "n must hold real numbers, got dtype <U1"),
    (Array(ndim=1), [True, False], TypeError, "n must hold real numbers, got dtype bool"),
    (Array(ndim=1), "abc", TypeError, "n must be a 1-D array of real numbers, got str 'abc'"),
    (Array(ndim=1), [[1.0], [2.0, 3.0]], ValueError, "n must be a 1-D array of real numbers, got ragged input"),
    (Array(ndim=1), np.ma.masked_array([1.0]), TypeError, "n must not be a numpy masked array"),
    (Array(ndim=1, min_size=2, unit="queries"), [0.5], ValueError, "n must hold at least 2 queries, got 1"),
    (Array(ndim=1, min_size=1), [], ValueError, r"n must not be empty, got shape \(0,\)"),
    (Array(shape=(None, 2), kinds="iu"), [[0, 1, 2]], ValueError, r"n must have shape \(n, 2\), got shape \(1, 3\)"),
    (Array(ndim=2, as_is=True), [[1.0]], TypeError, "n must be a numpy 2-D array of real numbers, got list"),
    (SequenceOf(Integer(1)), [3, 0], ValueError, r"n\[1\] must be an integer >= 1, got 0"),
    (SequenceOf(Integer(1)), [], ValueError, r"n must hold at least 1 value, got \[\]"),
    (SequenceOf(Integer(1)), "ab", TypeError, "n must be a sequence of values, each an integer >= 1, got str 'ab'"),
    (AnyOf(Integer(0), Instance(np.random.SeedSequence)), -1, ValueError, "n must be an integer >= 0, got -1"),
    (AnyOf(Integer(0), Instance(np.random.SeedSequence)), "x", TypeError,
     "n must be an integer >= 0 or a SeedSequence, got str 'x'"),
])
def test_messages_name_the_argument_and_show_the_plain_value(constraint, value, error, message):
    with pytest.raises(error, match=f"^{message}"):
        constraint.check(value, "n")


@pytest.mark.parametrize("constraint, value, expected, kind", [
    (Integer(1), np.int64(3), 3, int),
    (Real(), np.float32(0.5), 0.5, float),
    (Real(), 2, 2.0, float),
    (Options(("a", "b")), np.str_("b"), "b", str),
    (Boolean(), np.True_, True, bool),
    (SequenceOf(Integer(1), scalar=True), np.int64(4), [4], list),
    (SequenceOf(Integer(1)), np.array([2, 3]), [2, 3], list),
    (Array(), (1, 2), [1.0, 2.0], np.ndarray),
])
def test_values_are_normalised(constraint, value, expected, kind):
    got = constraint.check(value, "n")
    assert type(got) is kind
    assert (got.tolist() if isinstance(got, np.ndarray) else got) == expected


def test_none_only_where_allowed_and_anything_takes_everything():
    assert Integer(1, none=True).check(None, "k") is None
    with pytest.raises(TypeError, match="k must be an integer >= 1, got NoneType None"):
        Integer(1).check(None, "k")
    sentinel = object()
    assert Anything("checked by the function").check(sentinel, "value") is sentinel


def test_an_as_is_array_is_not_read_so_it_cannot_promise_values():
    with pytest.raises(ValueError, match="an as_is array is not read"):
        Array(as_is=True, finite=True)


def test_keep_labels_passes_a_series_on_after_checking_it():
    pd = pytest.importorskip("pandas")
    series = pd.Series([0.5, 1.0], index=["a", "b"])
    assert Array(keep_labels=True).check(series, "p") is series
    with pytest.raises(ValueError, match="p must be in \\[0, 1\\], got 2.0 at index 1"):
        Array(low=0, high=1, keep_labels=True).check(pd.Series([0.5, 2.0]), "p")


# --- the decorator ------------------------------------------------------------------------------


def test_arguments_are_checked_in_the_declared_order_and_the_body_gets_normalised_values():
    seen = []

    @validate_params(level=Real(0, 1, closed="neither"), n=Integer(1), values=Array(ndim=1))
    def f(values, n=2, *, level=0.5):
        seen.append((values, n, level))
        return n

    with pytest.raises(ValueError, match="level"):  # declared first: checked before the bad data
        f("not numbers", 0, level=2.0)
    with pytest.raises(ValueError, match="^n must"):
        f("not numbers", 0)
    assert f((1, 2), np.int64(3)) == 3
    values, n, level = seen[-1]
    assert isinstance(values, np.ndarray) and type(n) is int and level == 0.5


def test_a_declaration_must_name_every_parameter_and_defaults_must_meet_it():
    with pytest.raises(TypeError, match=r"every parameter needs exactly one constraint \(missing \['b'\]"):
        @validate_params(a=Integer(1))
        def f(a, b):
            return a

    with pytest.raises(TypeError, match=r"unknown \['c'\]"):
        @validate_params(a=Integer(1), c=Integer(1))
        def g(a):
            return a

    with pytest.raises(TypeError, match=r"\*args, \*\*kwargs"):
        @validate_params(a=Integer(1), kwargs=Anything("x"))
        def h(a, **kwargs):
            return a

    with pytest.raises(ValueError, match="n must be an integer >= 1, got 0"):  # the default, at declaration
        @validate_params(n=Integer(1))
        def bad_default(n=0):
            return n


def test_calls_python_refuses_never_reach_the_body():
    ran = []

    @validate_params(n=Integer(1))
    def f(n):
        ran.append(n)

    for call in (lambda: f(), lambda: f(1, 2), lambda: f(1, m=2), lambda: f(1, n=1)):
        with pytest.raises(TypeError):
            call()
    assert ran == []


def test_unchecked_fills_the_normalised_defaults_and_skips_the_checks():
    @validate_params(gain=nr.core.gains.GAIN, n=Integer(1))
    def f(n, *, gain="exp2"):
        return n, gain

    assert f.unchecked(0) == (0, nr.Gain("exp2"))  # 0 is not checked; the default is the parsed gain
    assert f.unchecked(0, gain=nr.Gain("linear"))[1] == nr.Gain("linear")
    assert f(1, gain="linear")[1] == nr.Gain("linear")
    # the metric functions' defaults are parsed once, when the module is imported
    assert nr.ndcg.unchecked([3, 2, 1]) == 1.0


def test_a_renamed_keyword_warns_at_the_callers_line_and_refuses_both_names():
    @validate_params(test=Options(("t", "z")), renamed={"method": "test"})
    def f(*, test="t"):
        return test

    with pytest.warns(DeprecationWarning, match=r"f\(method=\.\.\.\) is deprecated and will be removed: use test=") as record:
        assert f(method="z") == "z"
    assert record[0].filename == __file__
    with pytest.warns(DeprecationWarning):
        assert f.unchecked(method="z") == "z"
    with pytest.raises(ValueError, match="test must be one of 't', 'z', got 'y'"):  # the old name is checked as the new
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            f(method="y")
    with pytest.raises(TypeError, match=r"got both method= \(deprecated\) and test="):
        f(method="z", test="z")


def test_threads_check_their_own_calls():
    # The layer keeps no state between calls: threads calling at once each get their own answer.
    @validate_params(n=Integer(1))
    def f(n):
        return n

    errors, results = [], []

    def work(i: int) -> None:
        for _ in range(200):
            try:
                results.append(f(i))
            except ValueError as error:
                errors.append(str(error))

    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]  # 0 is refused, 1..3 accepted
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == ["n must be an integer >= 1, got 0"] * 200
    assert sorted(set(results)) == [1, 2, 3] and len(results) == 600


@pytest.mark.parametrize("call", [
    lambda: nr.stats.paired_test([0.5, 0.6], [0.4, 0.5], exact="no"),
    lambda: nr.stats.pairwise_tests([[0.5, 0.6], [0.4, 0.5]], exact=1),
    lambda: nr.stats.intervals.proportion_label(3, 4, interval="no"),
    lambda: nr.parse_gain("exp2", builtin_only="no"),
    lambda: nr.core.validation.as_batch([1], name="x", fill=0.0, allow_empty="no"),
])
def test_a_string_or_a_number_is_never_taken_as_a_bool(call):
    import ndcg_research.stats  # noqa: F401  (nr.stats)
    import ndcg_research.stats.intervals  # noqa: F401

    with pytest.raises(TypeError, match="must be True"):
        call()
