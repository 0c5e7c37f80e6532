"""Every public function declares its parameters and refuses bad values before any work (like scikit-learn's test_common).

The public functions are found, not listed: the callables of each module's ``__all__`` that the module
defines. For every one of them:

1. it has a declaration (:func:`ndcg_research.core.params.validate_params`), unless its module is
   listed below with the reason (a new module is covered without registering it, and a public
   function added without a declaration fails here);
2. called with valid values (each constraint's example, or the default), it reaches its body;
3. for every parameter, every value its constraint refuses (``invalid_values()``: wrong types, NaN,
   infinities, empty input, out of range, a string or a number for a bool) raises ValueError or
   TypeError whose message names the argument, and the body is not called (it is replaced by a spy).

The layer itself checks, when a module is imported, that a declaration names every parameter and
that every default meets its constraint.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import re
import types
import warnings
from typing import Any

import numpy as np
import pytest

import ndcg_research
from ndcg_research.core.constraints import Constraint, Integer
from ndcg_research.core.params import validate_params

#: Modules other engineers are changing now (issue 19): their public functions get declarations when
#: those changes merge. Extended at merge: the lead removes each entry once its module declares its
#: functions. (Prefixes: a module and everything below it.)
OWNED_ELSEWHERE = (
    "ndcg_research.studies",
    "ndcg_research.simulation",
    "ndcg_research.findings",
    "ndcg_research.pipeline",
)
#: Modules inside OWNED_ELSEWHERE that are checked all the same.
CHECKED_INSIDE_OWNED: tuple[str, ...] = ()  # the studies and the simulation engine validate nothing (issue 23)
#: Modules with nothing for the layer to check, and why.
NOTHING_TO_CHECK = {
    "ndcg_research.__main__": "runs the command line when imported; defines no function",
    "ndcg_research.cli": "the command-line dispatcher: build_parser() takes nothing, and main/console take argv, "
                         "which argparse checks and reports itself",
    "ndcg_research.cli_common": "the commands' argparse helpers: argument types that check argv strings and report "
                                "them as argparse errors, and the commands' own output and exit (fail, write_output)",
    "ndcg_research.evaluation.cli": "the evaluate command's argparse wiring: register(subparsers) adds it, run(args) "
                                    "takes the Namespace argparse made from argv (checked and reported by argparse); "
                                    "run calls the declared evaluate",
    "ndcg_research.stats.cli": "the compare command's argparse wiring: register(subparsers) adds it, run(args) takes "
                               "the Namespace argparse made from argv; run calls the declared run_matrices and "
                               "compare_systems",
}
#: Public functions that take no parameters (nothing to declare).
NO_PARAMETERS = {"ndcg_research.core.kernels.clear_discount_cache", "ndcg_research.datasets.movielens.cache_dir"}
#: The layer's decorator: its ``**constraints`` are checked when a function is declared (a TypeError at
#: import for a missing, unknown or non-Constraint entry; tests/test_core_params.py).
THE_LAYER = {"ndcg_research.core.params.validate_params"}
#: Modules outside the files of this change and not being changed by anyone now: to be declared by a
#: follow-up (reported to the lead); listed so that the gap is visible, not hidden.
NOT_YET_DECLARED: tuple[str, ...] = ()


def _skipped(module: str) -> bool:
    if module in CHECKED_INSIDE_OWNED:
        return False
    return any(module == p or module.startswith(p + ".") for p in (*OWNED_ELSEWHERE, *NOT_YET_DECLARED,
                                                                    *NOTHING_TO_CHECK))


def _module_names() -> list[str]:
    names = ["ndcg_research"]
    names += [m.name for m in pkgutil.walk_packages(ndcg_research.__path__, "ndcg_research.")]
    return sorted(n for n in names if not _skipped(n))


def public_functions(module: types.ModuleType) -> list[tuple[str, Any]]:
    """The functions of ``module.__all__`` that ``module`` defines, as (qualified name, function)."""
    found = []
    for name in getattr(module, "__all__", ()):
        obj = getattr(module, name)
        if inspect.isfunction(obj) and obj.__module__ == module.__name__:
            found.append((f"{module.__name__}.{name}", obj))
    return found


def undeclared(functions: list[tuple[str, Any]]) -> list[str]:
    """The functions without a declaration (and with parameters)."""
    return [name for name, f in functions
            if not hasattr(f, "declaration") and name not in THE_LAYER
            and not (name in NO_PARAMETERS and not inspect.signature(f).parameters)]


FUNCTIONS = [pair for module in _module_names() for pair in public_functions(importlib.import_module(module))]
DECLARED = [(name, f) for name, f in FUNCTIONS if hasattr(f, "declaration")]
CASES = [(name, f, parameter, bad) for name, f in DECLARED
         for parameter, constraint in f.declaration.constraints.items()
         for bad in constraint.invalid_values()]


def _case_id(name: str, parameter: str, bad: Any, index: int) -> str:
    """A test id that is the same in every process (pytest-xdist compares them): no object addresses."""
    shown = repr(bad) if isinstance(bad, (str, int, float, type(None))) else type(bad).__name__
    return f"{name.removeprefix('ndcg_research.')}-{parameter}-{index}-{shown[:24]}"


def test_the_discovery_finds_the_public_functions():
    names = {name for name, _ in FUNCTIONS}
    assert {"ndcg_research.core.metrics.ndcg", "ndcg_research.stats.paired.pairwise_tests",
            "ndcg_research.stats.compare.compare_systems", "ndcg_research.core.kernels.ideal_dcg"} <= names
    assert {"ndcg_research.evaluation.evaluator.evaluate", "ndcg_research.evaluation.readers.read_qrels",
            "ndcg_research.stats.runs.run_matrices", "ndcg_research.datasets.movielens.read_ratings"} <= names
    assert len(FUNCTIONS) >= 110  # the studies no longer validate (issue 23): the core, evaluation and stats do


def test_every_public_function_declares_its_parameters():
    missing = undeclared(FUNCTIONS)
    assert not missing, (f"public functions without a parameter declaration (ndcg_research.core.params."
                         f"validate_params): {missing}")


def test_the_coverage_check_fails_for_a_function_without_declarations():
    module = types.ModuleType("ndcg_research.fake")

    def plain(n: int) -> int:
        return n

    @validate_params(n=Integer(1))
    def declared(n: int) -> int:
        return n

    for f in (plain, declared):
        f.__module__ = module.__name__
        setattr(module, f.__name__, f)
    module.__all__ = ["plain", "declared"]
    assert undeclared(public_functions(module)) == ["ndcg_research.fake.plain"]


def test_the_allow_lists_name_what_exists():
    for name in NO_PARAMETERS:
        module, _, function = name.rpartition(".")
        assert not inspect.signature(getattr(importlib.import_module(module), function)).parameters, name
    for module in (*CHECKED_INSIDE_OWNED, *NOTHING_TO_CHECK, *NOT_YET_DECLARED):
        importlib.util.find_spec(module)  # raises if the module is gone


def _valid_arguments(f: Any) -> dict[str, Any]:
    """Valid values of the parameters without a default (the constraints' examples)."""
    parameters = inspect.signature(f).parameters
    return {name: constraint.example() for name, constraint in f.declaration.constraints.items()
            if parameters[name].default is inspect.Parameter.empty}


class _Spy:
    def __init__(self) -> None:
        self.calls = 0

    def __call__(self, *args: Any, **kwargs: Any) -> None:
        self.calls += 1


@pytest.mark.parametrize("name, f", DECLARED, ids=[name for name, _ in DECLARED])
def test_valid_values_reach_the_body(name, f, monkeypatch):
    spy = _Spy()
    monkeypatch.setattr(f.declaration, "function", spy)
    f(**_valid_arguments(f))
    assert spy.calls == 1


def _named(message: str, word: str) -> bool:
    return re.search(rf"(?<!\w){re.escape(word)}(?!\w)", message) is not None


@pytest.mark.parametrize("name, f, parameter, bad", CASES,
                         ids=[_case_id(name, parameter, bad, i) for i, (name, _, parameter, bad) in enumerate(CASES)])
def test_bad_values_are_refused_naming_the_argument_before_any_work(name, f, parameter, bad, monkeypatch):
    spy = _Spy()
    monkeypatch.setattr(f.declaration, "function", spy)
    arguments = _valid_arguments(f) | {parameter: bad}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # e.g. numpy's note on converting a masked array
        with pytest.raises((ValueError, TypeError)) as raised:
            f(**arguments)
    assert spy.calls == 0, f"{name} ran its body with {parameter}={bad!r}"
    constraint: Constraint = f.declaration.constraints[parameter]
    word = constraint.subject or parameter
    assert _named(str(raised.value), word), f"{name}({parameter}={bad!r}): the message does not name {word!r}: {raised.value}"


def test_strings_and_numbers_are_refused_where_a_bool_is_expected():
    from ndcg_research.core.constraints import Boolean

    flags = [(name, p) for name, f in DECLARED for p, c in f.declaration.constraints.items() if isinstance(c, Boolean)]
    assert len(flags) >= 5  # builtin_only, exact, interval, pool_novel, keep_integers, ...
    assert all(any(isinstance(v, str) for v in Boolean().invalid_values()) for _ in flags)


def test_every_parameter_is_tried_with_bad_values():
    """No declared parameter escapes the bad-value test, except those declared Anything (with a reason)."""
    from ndcg_research.core.constraints import Anything

    untested = [(name, p) for name, f in DECLARED for p, c in f.declaration.constraints.items()
                if not c.invalid_values() and not isinstance(c, Anything)]
    assert not untested
    anything = sorted((name, p) for name, f in DECLARED for p, c in f.declaration.constraints.items()
                      if isinstance(c, Anything))
    assert anything == [("ndcg_research.core.validation.check_integer", "value"),
                        ("ndcg_research.core.validation.check_number", "value")]


# --- nested calls do not check again ----------------------------------------------------------------


def _counting(monkeypatch, constraint_class: type, method: str = "_check") -> list[int]:
    calls = [0]
    original = getattr(constraint_class, method)

    def counted(self, value, name):
        calls[0] += 1
        return original(self, value, name)

    monkeypatch.setattr(constraint_class, method, counted)
    return calls


@pytest.mark.parametrize("kwargs", [dict(test="t"), dict(test="tukey"), dict(test="bootstrap", interval="bca")])
def test_compare_systems_checks_the_score_matrix_once(monkeypatch, kwargs):
    from ndcg_research.stats import compare_systems
    from ndcg_research.stats.inputs import ScoreMatrix

    calls = _counting(monkeypatch, ScoreMatrix)
    compare_systems([[0.1, 0.5, 0.3, 0.6], [0.2, 0.4, 0.35, 0.7], [0.0, 0.1, 0.2, 0.3]], n_resamples=200, **kwargs)
    assert calls[0] == 1  # not again in pairwise_tests, tukey_hsd or adjust_pvalues


def test_discriminative_power_and_paired_test_check_their_input_once(monkeypatch):
    from ndcg_research.core.constraints import Array
    from ndcg_research.stats import discriminative_power, paired_test
    from ndcg_research.stats.inputs import ScoreMatrix

    matrices = _counting(monkeypatch, ScoreMatrix)
    discriminative_power([[0.1, 0.5, 0.3], [0.2, 0.4, 0.35]], test="tukey", n_resamples=100)
    discriminative_power([[0.1, 0.5, 0.3], [0.2, 0.4, 0.35]], test="t", correction="holm")
    assert matrices[0] == 2
    arrays = _counting(monkeypatch, Array)
    paired_test([0.1, 0.5, 0.3], [0.2, 0.4, 0.35], test="bootstrap", n_resamples=100)
    assert arrays[0] == 2  # a and b; the matrix they make is not checked again, nor its intervals


def test_unchecked_runs_the_body_without_the_checks():
    from ndcg_research.stats.multiple import adjust_pvalues

    with pytest.raises(ValueError, match=r"pvalues must be in \[0, 1\]"):
        adjust_pvalues([0.5, 2.0])
    # The caller vouches for its values: no check, the body runs (and fills the default correction).
    assert adjust_pvalues.unchecked(np.array([0.01, 0.04])).tolist() == [0.02, 0.04]


# --- renamed keywords ----------------------------------------------------------------------------


@pytest.mark.parametrize("function, args", [
    ("compare_systems", ([[0.1, 0.5, 0.3], [0.2, 0.4, 0.35]],)),
    ("pairwise_tests", ([[0.1, 0.5, 0.3], [0.2, 0.4, 0.35]],)),
    ("paired_test", ([0.1, 0.5, 0.3], [0.2, 0.4, 0.35])),
    ("discriminative_power", ([[0.1, 0.5, 0.3], [0.2, 0.4, 0.35]],)),
])
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
