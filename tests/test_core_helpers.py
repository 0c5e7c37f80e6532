"""Shared helpers used across the package: the argument checks of the public boundary, top-k order."""

import numpy as np
import pytest

import ndcg_research as nr
from ndcg_research import _validation as validation
from ndcg_research._validation import check_int, check_real
from ndcg_research.core import _kernels as kernels
from ndcg_research.core._ranking import top_order


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


@pytest.mark.parametrize(
    "value, minimum, error, message",
    [
        (True, 1, TypeError, "n must be an integer >= 1, got bool True"),
        (2.0, 1, TypeError, "n must be an integer >= 1, got float 2.0"),
        ("3", 1, TypeError, "n must be an integer >= 1, got str '3'"),
        (0, 1, ValueError, "n must be an integer >= 1, got 0"),
        (-1, 0, ValueError, "n must be an integer >= 0, got -1"),
    ],
)
def test_check_int_refuses_with_the_argument_name(value, minimum, error, message):
    with pytest.raises(error, match=f"^{message}$"):
        check_int(value, "n", low=minimum)


def test_check_int_accepts_numpy_integers_and_returns_int():
    value = check_int(np.int64(7), "n", low=1)
    assert value == 7 and type(value) is int
    assert check_int(-5, "offset") == -5


@pytest.mark.parametrize(
    "value, error", [(True, TypeError), ("1", TypeError), (float("inf"), ValueError), (float("nan"), ValueError)]
)
def test_check_real_refuses(value, error):
    with pytest.raises(error, match="^sigma must be"):
        check_real(value, "sigma")


@pytest.mark.parametrize("parse, what", [("parse_discount", "discount"), ("parse_gain", "gain")])
def test_builtin_only_refuses_callables_and_keeps_specs(parse, what):
    import ndcg_research as nr

    function = getattr(nr, parse)
    with pytest.raises(TypeError, match=f"^{what} must be a built-in {what}"):
        function(lambda x: x, builtin_only=True)
    assert str(function("exp2" if what == "gain" else "zipf", builtin_only=True)) in {"exp2", "zipf"}


# One long row of countable grades is put in ideal order by counting each grade level instead of sorting
# (kernels.COUNTED_ROW_FROM). Reference: numpy's sort; and the metric values must not move by one bit.
LONG = kernels.COUNTED_ROW_FROM + 1001


@pytest.mark.parametrize(
    "dtype, top", [(np.int8, 4), (np.int64, kernels.MAX_COUNTED_LEVEL), (np.float64, 3), (np.bool_, 1)]
)
@pytest.mark.parametrize("width", [LONG, LONG // 2, LONG // 8 + 1])
def test_top_grades_of_one_long_row_equal_the_sorted_grades(dtype, top, width):
    grades = np.random.default_rng(width + top).integers(0, top + 1, size=(1, LONG)).astype(dtype)
    got = kernels.top_grades(grades, width)
    expected = np.sort(grades, axis=1)[:, ::-1][:, :width]
    assert got.dtype == expected.dtype and got.shape == expected.shape
    np.testing.assert_array_equal(got, expected)


@pytest.mark.parametrize(
    "grades",
    [
        np.full((1, LONG), 0.5),  # fractions: not countable, sorted
        np.arange(LONG, dtype=np.float64)[None, :] % 40,  # above MAX_COUNTED_LEVEL: sorted
        np.zeros((2, LONG), dtype=np.int64),  # a batch of two rows: sorted
    ],
)
def test_top_grades_sorts_what_it_cannot_count(grades):
    np.testing.assert_array_equal(kernels.top_grades(grades, LONG), np.sort(grades, axis=1)[:, ::-1])


@pytest.mark.parametrize("gain", ["linear", "exp2"])
@pytest.mark.parametrize("k", [None, LONG // 3])
def test_counting_the_ideal_leaves_idcg_and_ndcg_bit_identical(monkeypatch, gain, k):
    rng = np.random.default_rng(7)
    relevance = rng.integers(0, 5, LONG).astype(np.float64)
    counted = (nr.idcg(relevance, k=k, gain=gain), nr.ndcg(relevance, k=k, gain=gain))
    monkeypatch.setattr(kernels, "COUNTED_ROW_FROM", 10 * LONG)  # the sort path
    sorted_ = (nr.idcg(relevance, k=k, gain=gain), nr.ndcg(relevance, k=k, gain=gain))
    assert counted == sorted_
    # and against a hand-written ideal DCG: the sorted grades' gains times 1/log2(r + 1)
    ideal = np.sort(relevance)[::-1][: k or LONG]
    ideal_gains = ideal if gain == "linear" else 2.0**ideal - 1
    np.testing.assert_allclose(counted[0], np.sum(ideal_gains / np.log2(np.arange(2, ideal.size + 2))), rtol=1e-12)


def test_mean_in_order_adds_one_by_one_as_trec_eval():
    # (0.1 + 0.2) + 0.3 = 0.6000000000000001, then / 3; numpy's pairwise mean may differ in the last bit.
    values = np.array([[1.0, 0.5, 0.0], [0.1, 0.2, 0.3]])
    assert kernels.mean_in_order(values).tolist() == [0.5, ((0.1 + 0.2) + 0.3) / 3]


@pytest.mark.parametrize(
    "check, args, kwargs, error, message",
    [
        (
            "check_int",
            (2.0, "k"),
            {"low": 1, "none": True},
            TypeError,
            "k must be an integer >= 1 or None, got float 2.0",
        ),
        (
            "check_real",
            (float("nan"), "level"),
            {"low": 0, "high": 1, "closed": "neither"},
            ValueError,
            "level must be strictly between 0 and 1, got nan",
        ),
        ("check_real", (-1e-12, "tolerance"), {"low": 0}, ValueError, "tolerance must be a number >= 0, got -1e-12"),
        ("check_option", ("x", "test", ("t", "z")), {}, ValueError, "test must be one of 't', 'z', got 'x'"),
        ("check_bool", ("false", "strict"), {}, TypeError, "strict must be True or False, got str 'false'"),
        ("check_instance", (3, "label", str), {}, TypeError, "label must be a str, got int 3"),
        ("check_path", (3, "qrels"), {}, TypeError, r"qrels must be a path \(str or os.PathLike\), got int 3"),
        ("check_array", ([0.5, float("nan")], "a"), {"ndim": 1}, ValueError, "a must be finite, got nan at index 1"),
        (
            "check_array",
            ([0.2, 1.5], "pvalues"),
            {"low": 0, "high": 1},
            ValueError,
            r"pvalues must be in \[0, 1\], got 1.5 at index 1",
        ),
    ],
)
def test_argument_checks_say_what_they_want_and_what_they_got(check, args, kwargs, error, message):
    with pytest.raises(error, match=f"^{message}$"):
        getattr(validation, check)(*args, **kwargs)


def test_argument_checks_return_plain_python_values():
    assert [validation.plain_repr(v) for v in (np.float64(0.5), np.int64(3), "t")] == ["0.5", "3", "'t'"]
    assert check_real(1, "alpha", low=0, high=1) == 1.0
    option = validation.check_option(np.str_("zero"), "zero_ideal", ("zero", "one"))
    assert option == "zero" and type(option) is str
    assert validation.check_bool(np.True_, "strict") is True
    array = validation.check_array([0.5, 1], "a", ndim=1, min_size=2, unit="queries")
    assert array.dtype == np.float64 and array.tolist() == [0.5, 1.0]


def test_the_import_loads_what_the_docs_say():
    # The docs say `import ndcg_research` loads numpy and lazy_loader only (of the third-party packages).
    import subprocess
    import sys

    import ndcg_research

    code = (
        "import sys; before = set(sys.modules); import ndcg_research; "
        "print(sorted({m.split('.')[0] for m in set(sys.modules) - before}))"
    )
    loaded = eval(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout)
    third_party = {m for m in loaded if m not in sys.stdlib_module_names and not m.startswith("_")} - {"ndcg_research"}
    assert third_party == {"numpy", "lazy_loader"}
    assert "loads numpy and ``lazy_loader``" in (ndcg_research.__doc__ or "")
    assert "lazy_loader" in (ndcg_research.core.__doc__ or "")
