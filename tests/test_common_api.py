"""The documented public API, function by function (like scikit-learn's test_common).

The public functions are those the API reference lists: the functions of ``nr.__all__`` (with the
lazily served ``nr.evaluate``, ``nr.ir_measure``, ``nr.advise``, ...), ``nr.evaluation.__all__``,
``nr.stats.__all__`` and ``nr.datasets.__all__``. Each has an entry in :data:`API`, written here and
not taken from the code: valid arguments, and for every parameter values it must refuse. A public
function without an entry fails :func:`test_every_public_function_has_an_entry`. For every one:

1. called with the valid arguments, it runs;
2. every bad value of every parameter raises ValueError or TypeError whose message names the
   argument (a spec in the package's spec languages may instead be named by what it configures:
   ``parse_gain(spec=3)`` says "gain must be ...", ``evaluate(measures="ndcg@0")`` "measure 'ndcg@0'
   ...", see :data:`SPEC_WORDS`);
3. it has a numpydoc docstring with a Parameters section (if it takes any) and an Examples section;
4. every parameter and the return value have type hints, resolved (not strings such as ``'GainLike'``).
"""

import inspect
import math
import re
import warnings
from typing import Any

import numpy as np
import pytest

import ndcg_research as nr
import ndcg_research.stats

NAN, INF = math.nan, math.inf

# --- bad values, by what a parameter accepts (built here, independent of the code) --------------
COUNT = ("1", 1.5, 2.0, True, NAN, None, 0, -1)  # an integer >= 1
COUNT_OR_NONE = ("1", 1.5, 2.0, True, NAN, 0)  # an integer >= 1 or None
NATURAL = ("1", 1.5, True, None, -1)  # an integer >= 0
JOBS = ("1", 1.5, 2.0, True, NAN, None, 0)  # threads: an integer other than 0 (negative as in joblib)
INTEGER = ("1", 1.5, True, None)  # any integer (an axis)
LEVEL = ("0.5", True, None, 0, 1, 0.0, 1.0, 1.5, -0.1, NAN, INF)
BOOL = ("yes", "False", 1, 0, None)
OPTION = ("no-such-option", 3, None)
OPTION_OR_NONE = ("no-such-option", 3)
GAIN = ("square", "exp2(2)", "mapping", "mapping({0: 1})", "1/r", 3, None, {})
DISCOUNT = ("cosine", "power", "power(0.5)", "power(beta=0)", "geometric(p=1.5)", "1/r", 3, None)
PATH = (3, b"u.data", "", object())
LISTS = (
    "abc",
    3,
    None,
    {1, 0},
    {1: 0},
    [],
    [NAN, 1, 0],
    [INF, 1, 0],
    [-1, 1, 0],
    ["a", "b", "c"],
    np.ma.masked_array([1, 0, 1]),
)  # grades of one ranked list (3 documents)
LISTS_OR_NONE = ("abc", 3, {1, 0}, [NAN, 1], [-1, 1], ["a"])
SCORES_3 = ("abc", 3, None, {1, 0}, [], [NAN, 1, 0], [INF, 0.5, 0.1], [0.3, 0.2], ["a", "b", "c"])
JUDGED_3 = ("abc", 3, [1, 0, 1], [True, False], [[True, False, True]])
REALS = ("abc", None, [], [NAN, 0.5], [INF, 0.5], {0.5, 0.1})  # any finite numbers, not empty
QUERY_VALUES = ("abc", None, [0.5], [NAN, 0.5], [[0.5, 0.1]], {0.5, 0.1})
SYSTEM_SCORES = ("abc", None, [0.5], [NAN, 0.5, 0.1], [[0.5, 0.1]])
MATRIX = (
    "abc",
    None,
    [],
    [0.1, 0.2],
    [[0.1, 0.2]],
    [[0.1], [0.2]],
    [[0.1, NAN], [0.2, 0.3]],
    [[0.1, INF], [0.2, 0.3]],
    [[True, False], [False, True]],
    {"a": [0.1, 0.2]},
    {"a": [0.1, 0.2], "b": [0.1]},
)
# Judgments and runs as pytrec_eval dicts (evaluate reads them without pandas), and what must be refused.
QRELS_OK = {"q1": {"a": 2, "b": 0, "c": 1}, "q2": {"a": 1, "b": 0}, "q3": {"b": 2, "c": 1}, "q4": {"a": 1, "c": 2}}
RUN_A = {
    "q1": {"a": 0.9, "b": 0.5, "c": 0.1},
    "q2": {"a": 0.3, "b": 0.1},
    "q3": {"b": 0.8, "c": 0.2},
    "q4": {"a": 0.6, "c": 0.4},
}
RUN_B = {
    "q1": {"a": 0.1, "b": 0.5, "c": 0.9},
    "q2": {"a": 0.1, "b": 0.3},
    "q3": {"b": 0.2, "c": 0.8},
    "q4": {"a": 0.6, "c": 0.7},
}
RUN_C = {
    "q1": {"a": 0.5, "b": 0.9, "c": 0.1},
    "q2": {"a": 0.4, "b": 0.6},
    "q3": {"b": 0.5, "c": 0.6},
    "q4": {"a": 0.2, "c": 0.9},
}
QRELS = (3, None, "", b"qrels", object(), [("q1", "a", 1)], {})
RUNS = (3, None, "", b"run", object(), [], {}, [3], [None], {"bm25": 3}, {"bm25": b"run"}, [RUN_A, RUN_B, RUN_A])
MEASURES = (
    3,
    None,
    b"ndcg",
    [],
    "",
    "map",
    "ndcg@0",
    "ndcg@-1",
    "ndcg@1.5",
    "ndcg(foo=1)",
    "ndcg(gain=square)",
    "ndcg(discount=cosine)",
    "ndcg(gains={1: -2, 1.5: 3})",
    "ndcg_cut.0",
    "ndcg_cut.",
    "ndcg.1=x",
    ["ndcg", 3],
    {"ndcg"},
)
SPECS = (3, None, "abc", [], {"log2"})  # a sequence of spec strings
TREC_QRELS, TREC_RUN = "q1 0 a 2\nq1 0 b 0\n", "q1 Q0 a 1 0.5 bm25\nq1 Q0 b 2 0.25 bm25\n"
SVMLIGHT, PREDICTIONS = "2 qid:7 1:0.5\n0 qid:7 1:0.1\n", "0.1\n0.7\n"


def _file(folder, name: str, text: str) -> str:
    (folder / name).write_text(text)
    return str(folder / name)


MATRIX_OK = [[0.1, 0.4, 0.3, 0.5], [0.2, 0.3, 0.5, 0.6], [0.0, 0.1, 0.2, 0.3]]
RANKED = {"relevance": LISTS, "k": COUNT_OR_NONE, "gain": GAIN, "discount": DISCOUNT}
SCORED = {
    "y_true": LISTS,
    "y_score": SCORES_3,
    "k": COUNT_OR_NONE,
    "gain": GAIN,
    "discount": DISCOUNT,
    "ideal": LISTS_OR_NONE,
    "judged": JUDGED_3,
    "ties": OPTION,
}
TESTS = {"test": OPTION, "confidence": LEVEL, "n_resamples": COUNT, "seed": NATURAL}

#: name -> (valid keyword arguments, {parameter: values it refuses}). ``None`` as the valid
#: arguments: the function is not called with valid values here (it downloads), only refused; a
#: function: it makes the valid arguments (files, frames) in a temporary folder it is given.
API: dict[str, tuple[Any, dict[str, tuple[Any, ...]]]] = {
    "cg": ({"relevance": [3, 2, 0]}, {"relevance": LISTS, "k": COUNT_OR_NONE, "gain": GAIN}),
    "dcg": ({"relevance": [3, 2, 0]}, RANKED),
    "idcg": ({"relevance": [3, 2, 0]}, {**RANKED, "ideal": LISTS_OR_NONE}),
    "ndcg": ({"relevance": [3, 2, 0]}, {**RANKED, "ideal": LISTS_OR_NONE, "zero_ideal": OPTION, "judged": JUDGED_3}),
    "ndcg_parts": (
        {"relevance": [3, 2, 0]},
        {**RANKED, "ideal": LISTS_OR_NONE, "zero_ideal": OPTION, "judged": JUDGED_3},
    ),
    "dcg_from_scores": ({"y_true": [3, 2, 0], "y_score": [0.1, 0.5, 0.2]}, SCORED),
    "ndcg_from_scores": (
        {"y_true": [3, 2, 0], "y_score": [0.1, 0.5, 0.2]},
        {**SCORED, "zero_ideal": OPTION, "threads": (0, 3, "1", 1.0, True)},
    ),
    "ndcg_parts_from_scores": (
        {"y_true": [3, 2, 0], "y_score": [0.1, 0.5, 0.2]},
        {**SCORED, "zero_ideal": OPTION, "threads": (0, 3, "1", 1.0, True)},
    ),
    "mean_over_queries": ({"values": [0.5, 0.25]}, {"values": ("abc", None, [], [[0.5]], {0.5}), "nan_policy": OPTION}),
    "parse_discount": ({"spec": "log2"}, {"spec": DISCOUNT, "builtin_only": BOOL}),
    "parse_gain": ({"spec": "exp2"}, {"spec": GAIN, "builtin_only": BOOL}),
    "clear_discount_cache": ({}, {}),
    # stats
    "paired_test": (
        {"a": [0.5, 0.7, 0.6], "b": [0.4, 0.6, 0.65]},
        {"a": QUERY_VALUES, "b": QUERY_VALUES, "interval": OPTION_OR_NONE, "exact": BOOL[:-1], **TESTS},
    ),
    "pairwise_tests": (
        {"scores": MATRIX_OK},
        {
            "scores": MATRIX,
            "pairs": ("abc", [], [[0.5, 1.5]], [[0, 1, 2]]),
            "interval": OPTION_OR_NONE,
            "alpha": LEVEL,
            "exact": BOOL[:-1],
            "n_jobs": JOBS,
            **TESTS,
        },
    ),
    "adjust_pvalues": (
        {"pvalues": [0.01, 0.2]},
        {"pvalues": ("abc", None, [], [0.5, 1.2], [-0.1], [NAN]), "correction": OPTION},
    ),
    "tukey_hsd": (
        {"scores": MATRIX_OK, "n_resamples": 50},
        {"scores": MATRIX, "n_resamples": COUNT, "alpha": LEVEL, "seed": NATURAL, "n_jobs": JOBS},
    ),
    "compare_systems": (
        {"scores": MATRIX_OK},
        {
            "scores": MATRIX,
            "systems": (3, "abc", ["a"], [1, 2, 3], ["a", "a", "b"]),
            "correction": OPTION_OR_NONE,
            "interval": OPTION_OR_NONE,
            "n_jobs": JOBS,
            **TESTS,
        },
    ),
    "discriminative_power": (
        {"scores": MATRIX_OK, "n_resamples": 50},
        {
            "scores": MATRIX,
            "alpha": LEVEL,
            "test": OPTION,
            "n_resamples": COUNT,
            "correction": OPTION_OR_NONE,
            "seed": NATURAL,
            "n_jobs": JOBS,
            "systems": (3, ["a"], [1, 2, 3]),
        },
    ),
    "kendall_tau": ({"x": [0.3, 0.2, 0.1], "y": [0.3, 0.1, 0.2]}, {"x": SYSTEM_SCORES, "y": SYSTEM_SCORES}),
    "tau_ap": (
        {"reference": [0.3, 0.2, 0.1], "other": [0.3, 0.1, 0.2]},
        {"reference": SYSTEM_SCORES, "other": SYSTEM_SCORES},
    ),
    "swap_rates": (
        {"scores": MATRIX_OK, "sizes": [1, 2], "trials": 3},
        {
            "scores": MATRIX,
            "sizes": ("abc", None, [], [0], [1.5], 0),
            "trials": COUNT,
            "bins": ("abc", [], [-0.1], [NAN]),
            "seed": NATURAL,
        },
    ),
    "variance_components": ({"scores": MATRIX_OK}, {"scores": MATRIX}),
    "mean_interval": ({"values": [0.9, 0.8, 0.7]}, {"values": REALS, "axis": INTEGER, "confidence": LEVEL}),
    "wilson_interval": ({"successes": 3, "trials": 4}, {"successes": NATURAL, "trials": COUNT, "confidence": LEVEL}),
    # datasets
    "movielens_100k": (None, {"path": PATH, "cache": PATH, "verbose": BOOL}),
    "read_ratings": ("u.data", {"path": PATH + (None,)}),
    "fetch_recbole_wheel": (None, {"cache": PATH, "verbose": BOOL}),
    "cache_dir": ({}, {}),
    # stats: runs to matrices (the evaluator's arguments)
    "run_matrices": (
        {"qrels": QRELS_OK, "runs": {"a": RUN_A, "b": RUN_B}, "measures": "ndcg@2"},
        {
            "qrels": QRELS,
            "runs": RUNS + (RUN_A, [RUN_A]),
            "measures": MEASURES,
            "complete": BOOL[:-1],
            "convention": OPTION,
        },
    ),
    # evaluation
    "evaluate": (
        {"qrels": QRELS_OK, "runs": RUN_A},
        {
            "qrels": QRELS,
            # (and the bad runs the private run_names was given: the evaluator names its runs with it)
            "runs": RUNS + ({"runs/bm25.txt"}, [""], [b"run"]),
            "measures": MEASURES,
            "convention": OPTION,
            "complete": BOOL[:-1],
            "judged_only": BOOL,
            "max_docs": ("1", 1.5, 2.0, True, NAN, -1),  # an integer >= 0 (trec_eval -M 0) or None
        },
    ),
    "read_qrels": (lambda tmp: {"path": _file(tmp, "qrels.txt", TREC_QRELS)}, {"path": PATH}),
    "read_run": (lambda tmp: {"path": _file(tmp, "run.txt", TREC_RUN)}, {"path": PATH}),
    "read_svmlight": (
        lambda tmp: {"path": _file(tmp, "test.txt", SVMLIGHT), "predictions": _file(tmp, "pred.txt", PREDICTIONS)},
        {"path": PATH, "predictions": PATH},
    ),
    "parse_measures": ({"measures": ["ndcg", "ndcg_cut.5,10"]}, {"measures": MEASURES}),
    "get_convention": ({"convention": "sklearn"}, {"convention": OPTION}),
    # the ecosystem
    "ir_measure": (
        {"spec": "ndcg@10"},
        {
            "spec": ("map", "ndcg_cut", "ndcg_cut.5,10", "ndcg@0", "ndcg(foo=1)", "", 3, None, b"ndcg", ["ndcg"]),
            "gain": (*GAIN[:-2], {}, lambda grade: grade),
            "discount": (*DISCOUNT[:-1], lambda rank: 1 / rank),
            "ties": OPTION_OR_NONE,
            "convention": OPTION_OR_NONE,
        },
    ),
    "advise": (
        {
            "qrels": QRELS_OK,
            "runs": [RUN_A, RUN_B, RUN_C],
            "discounts": ["log2", "zipf"],
            "cutoffs": [None],
            "gains": ["linear"],
            "n_resamples": 20,
            "swap_trials": 5,
        },
        {
            "qrels": QRELS,
            "runs": RUNS + ([RUN_A],),
            "discounts": SPECS + (["zipf"], ["log2", "cosine"], ["log2", "log2"], ["log2", 3]),
            "cutoffs": (10, None, [], ["10"], [0], [1.5], [True], [10, 10], {10}),
            "gains": SPECS + (["square"], ["linear", "linear"], ["linear", lambda grade: grade]),
            "convention": OPTION,
            "complete": BOOL[:-1],
            "alpha": LEVEL,
            "target_swap_rate": LEVEL,
            "n_resamples": COUNT,
            "swap_trials": COUNT,
            "seed": NATURAL,
        },
    ),
}
#: The namespaces whose functions the API reference documents.
NAMESPACES = ("ndcg_research", "ndcg_research.evaluation", "ndcg_research.stats", "ndcg_research.datasets")
#: What a spec (or a sequence of specs) configures, by which its messages may name it, as in
#: "unknown discount 'cosine'" or "measure 'ndcg@0': the cut-off must be >= 1".
SPEC_WORDS = {
    ("parse_gain", "spec"): "gain",
    ("parse_discount", "spec"): "discount",
    ("ir_measure", "spec"): "measure",
    ("evaluate", "measures"): "measure",
    ("parse_measures", "measures"): "measure",
    ("run_matrices", "measures"): "measure",
    ("advise", "discounts"): "discount",
    ("advise", "gains"): "gain",
}


def _public(keep: Any) -> dict[str, Any]:
    """The public names of NAMESPACES whose object ``keep`` accepts."""
    import importlib

    found = {}
    for namespace in NAMESPACES:
        module = importlib.import_module(namespace)
        for name in module.__all__:
            obj = getattr(module, name)
            if keep(obj):
                found[name] = obj
    return found


FUNCTIONS = _public(inspect.isfunction)
CASES = [
    (name, parameter, bad) for name, (_, table) in API.items() for parameter, values in table.items() for bad in values
]


def _case_id(name: str, parameter: str, bad: Any, index: int) -> str:
    shown = repr(bad) if isinstance(bad, (str, int, float, type(None))) else type(bad).__name__
    return f"{name}-{parameter}-{index}-{shown[:24]}"


def _valid(name: str, tmp_path) -> dict[str, Any]:
    valid = API[name][0]
    if callable(valid):
        return valid(tmp_path)
    if valid == "u.data":  # a file of two ratings, in GroupLens's format
        path = tmp_path / "u.data"
        path.write_text("196\t242\t3\t881250949\n186\t302\t3\t891717742\n")
        return {"path": path}
    return dict(valid or {})


def test_every_public_function_has_an_entry():
    assert {
        "ndcg",
        "paired_test",
        "compare_systems",
        "discriminative_power",
        "read_ratings",
        "evaluate",
        "parse_measures",
        "run_matrices",
        "ir_measure",
        "advise",
    } <= set(FUNCTIONS)
    missing = sorted(set(FUNCTIONS) - set(API))
    assert not missing, f"public functions without an entry in API: {missing}"
    assert not set(API) - set(FUNCTIONS), "entries for functions that are not public"


def test_every_parameter_has_bad_values():
    for name, (_, table) in API.items():
        parameters = set(inspect.signature(FUNCTIONS[name]).parameters)
        assert set(table) == parameters, f"{name}: bad values for {sorted(table)}, parameters {sorted(parameters)}"


@pytest.mark.parametrize("name", [n for n, (valid, _) in API.items() if valid is not None])
def test_valid_arguments_run(name, tmp_path):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        FUNCTIONS[name](**_valid(name, tmp_path))


def _named(message: str, word: str) -> bool:
    return re.search(rf"(?<!\w){re.escape(word)}(?!\w)", message) is not None


@pytest.mark.parametrize("name, parameter, bad", CASES, ids=[_case_id(n, p, b, i) for i, (n, p, b) in enumerate(CASES)])
def test_bad_values_are_refused_naming_the_argument(name, parameter, bad, tmp_path):
    arguments = _valid(name, tmp_path) | {parameter: bad}
    if API[name][0] is None:  # not called with valid values: only the one argument given
        arguments = {parameter: bad}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # e.g. numpy's note on converting a masked array
        with pytest.raises((ValueError, TypeError)) as raised:
            FUNCTIONS[name](**arguments)
    # A spec may be named by what it configures: parse_gain(spec=3) says "gain must be ...".
    words = {parameter, SPEC_WORDS.get((name, parameter), parameter)}
    assert any(_named(str(raised.value), word) for word in words), (
        f"{name}({parameter}={bad!r}): the message does not name {' or '.join(map(repr, sorted(words)))}: "
        f"{raised.value}"
    )


@pytest.mark.parametrize("name", sorted(FUNCTIONS))
def test_numpydoc_docstring_with_parameters_and_examples(name):
    doc = inspect.getdoc(FUNCTIONS[name]) or ""
    assert "\nExamples\n--------\n" in doc and ">>> " in doc.split("\nExamples\n--------\n")[1], (
        f"{name}: no Examples section"
    )
    parameters = inspect.signature(FUNCTIONS[name]).parameters
    if parameters:
        assert "\nParameters\n----------\n" in doc, f"{name}: no Parameters section"
        section = doc.split("\nParameters\n----------\n")[1].split("\n\n")[0]
        documented = {
            p.strip()
            for line in section.splitlines()
            if line and not line.startswith(" ")
            for p in line.split(" : ")[0].split(",")
        }
        assert set(parameters) <= documented, f"{name}: parameters not documented: {set(parameters) - documented}"
    assert "as in :func:" not in doc and "arguments as in" not in doc
    # help() shows the docstring as it is written: a Sphinx role would show raw.
    roles = re.findall(r":(?:func|class|mod|math|meth|attr|data|obj|exc):`[^`]*`", doc)
    assert not roles, f"{name}: help() would show raw Sphinx roles {roles}"


@pytest.mark.parametrize("name", sorted(FUNCTIONS))
def test_type_hints_on_every_parameter_and_the_return_value(name):
    signature = inspect.signature(FUNCTIONS[name])
    for parameter in signature.parameters.values():
        assert parameter.annotation is not inspect.Parameter.empty, f"{name}({parameter.name}) has no type hint"
        assert not isinstance(parameter.annotation, str), f"{name}({parameter.name}): {parameter.annotation!r}"
    assert signature.return_annotation is not inspect.Signature.empty, f"{name} has no return type hint"
    assert not isinstance(signature.return_annotation, str)


def test_top_level_all_names_every_public_name_and_the_lazy_ones():
    assert {
        "evaluate",
        "read_qrels",
        "read_run",
        "read_svmlight",
        "CONVENTIONS",
        "paired_test",
        "compare_systems",
        "discriminative_power",
        "ir_measure",
        "advise",
        "ndcg",
        "__version__",
    } <= set(nr.__all__)
    assert len(set(nr.__all__)) == len(nr.__all__)
    assert set(nr.__all__) <= set(dir(nr))


@pytest.mark.parametrize("namespace", NAMESPACES)
def test_all_is_complete_and_holds_only_the_package_s_public_names(namespace):
    import importlib

    module = importlib.import_module(namespace)
    names = list(module.__all__)
    assert len(set(names)) == len(names)
    assert [n for n in names if n.startswith("_")] == (["__version__"] if namespace == "ndcg_research" else [])
    for name in names:
        home = getattr(getattr(module, name), "__module__", None)  # constants (tuples, dicts) have none
        assert home is None or home.startswith("ndcg_research."), f"{namespace}.{name} comes from {home}"
    # Any other name without an underscore is a module, or what the namespace's own code imports.
    others = {n for n in dir(module) if not n.startswith("_")} - set(names)
    assert all(inspect.ismodule(getattr(module, n)) or n in ("Any", "TYPE_CHECKING") for n in others), others


def test_help_of_ndcg_reads_as_text_and_lists_the_names():
    text = nr.ndcg.__doc__ or ""
    assert not re.search(r":(func|math|mod|class|data):`", text)
    for name in ("log2", "zipf", "geometric", "loglog", "zipflog", "none", "linear", "exp2", "mapping"):
        assert name in text
    assert "GainLike" not in str(inspect.signature(nr.ndcg))


@pytest.mark.parametrize(
    "spec, what", [("1/r", "discount"), ("cosine", "discount"), ("square", "gain"), ("exp 2", "gain")]
)
def test_a_refused_spec_lists_the_valid_names(spec, what):
    with pytest.raises(ValueError) as raised:
        nr.ndcg([1, 0], **{what: spec})
    message = str(raised.value)
    assert f"valid {what}s:" in message
    names = ("log2", "zipf", "geometric(p)", "none") if what == "discount" else ("linear", "exp2", "mapping(")
    assert all(name in message for name in names)


# --- the deprecated keyword method= of the statistics ------------------------------------------


@pytest.mark.parametrize(
    "function, args",
    [
        ("compare_systems", ([[0.1, 0.5, 0.3], [0.2, 0.4, 0.35]],)),
        ("pairwise_tests", ([[0.1, 0.5, 0.3], [0.2, 0.4, 0.35]],)),
        ("paired_test", ([0.1, 0.5, 0.3], [0.2, 0.4, 0.35])),
        ("discriminative_power", ([[0.1, 0.5, 0.3], [0.2, 0.4, 0.35]],)),
    ],
)
def test_the_old_method_keyword_still_works_with_a_deprecation_warning(function, args):
    from ndcg_research import stats

    f = getattr(stats, function)
    with pytest.warns(DeprecationWarning, match=rf"{function}\(method=\.\.\.\) is deprecated .*: use test="):
        old = f(*args, method="t")
    new = f(*args, test="t")
    assert old.test == new.test == "t"
    with pytest.warns(DeprecationWarning, match=r"\.method is deprecated and will be removed: use \.test"):
        assert old.method == "t"
    with pytest.raises(TypeError, match=r"got both method= \(deprecated\) and test="):
        f(*args, method="t", test="t")


def _public_classes() -> dict[str, Any]:
    from ndcg_research.advice import Advice  # advise's result, documented with it

    ours = _public(lambda obj: inspect.isclass(obj) and obj.__module__.startswith("ndcg_research"))
    return ours | {"Advice": Advice}


@pytest.mark.parametrize("name", sorted(_public_classes()))
def test_help_on_a_public_class_shows_no_raw_sphinx_roles(name):
    # help() on a result class (and its methods and properties) shows the docstrings as written, as for functions.
    cls = _public_classes()[name]
    members = {name: cls} | {
        f"{name}.{member}": value
        for member, value in vars(cls).items()
        if not member.startswith("_") and (inspect.isfunction(value) or isinstance(value, property))
    }
    for label, member in members.items():
        roles = re.findall(r":(?:func|class|mod|math|meth|attr|data|obj|exc):`[^`]*`", inspect.getdoc(member) or "")
        assert not roles, f"{label}: help() would show raw Sphinx roles {roles}"
