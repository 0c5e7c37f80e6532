"""The direction of imports inside the package, read from the source (AST), not from running it.

Rules (this docstring is where they are written down; no page of docs/ describes them):

- the subpackages form strict layers, lowest first: core < evaluation < stats, interop < advice, datasets,
  simulation < findings < pipeline < studies. A module imports its own subpackage and lower layers only, never its
  own layer's other subpackage (datasets and the simulation engine are independent) nor a higher one; imports inside
  functions count (they are real dependencies), as do ``importlib.import_module("ndcg_research.x")``
  with a literal name and attributes reached through an imported ``ndcg_research``. The top level
  (``__init__`` with its lazy API, ``cli`` the command dispatcher, ``__main__``) is above every
  layer and may name any subpackage; no subpackage imports it, except for package metadata
  (``__version__``). Two top-level modules are below every layer instead: ``cli_common``, the
  command-line helpers every subpackage's command module shares, and ``_validation``, the argument
  checks of the public boundary (private by name, shared by the whole package); they import only the
  standard library, numpy and each other;
- the metric core (``ndcg_research.core``) imports only numpy, the standard library and itself;
- the research subpackages below the notebook tooling (core, evaluation, stats, datasets, simulation, findings)
  never import it (``ndcg_research.pipeline``);
- a study (``ndcg_research/studies/<name>/``) imports no other study: what two studies share lives in an
  engine (simulation, findings, pipeline);
- private means private to a subpackage: a module may import the private modules (``_x.py``) and
  names of its own subpackage, but of another subpackage only its public names, except the shared
  private modules (:data:`SHARED_PRIVATE`: the argument checks, the core's kernels and ordering
  for arrays already checked, which the evaluator and the simulation engine use, and the statistics
  the simulation studies share); another project's private module only where :data:`FOREIGN_PRIVATE`
  names it, with the reason;
- ``import ndcg_research`` loads none of the heavy optional libraries.

Every rule is checked on every module of the package, so a new module is covered without
registering it.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "ndcg_research"
NAME = "ndcg_research"

#: Subpackages below the notebook tooling: they never import it.
RESEARCH = ("core", "evaluation", "stats", "interop", "advice", "datasets", "simulation", "findings")
#: The layers of subpackages, lowest first: a module may import its own subpackage and lower layers.
LAYERS: tuple[tuple[str, ...], ...] = (
    ("core",),
    ("evaluation",),
    ("stats", "interop"),
    ("advice", "datasets", "simulation"),
    ("findings",),
    ("pipeline",),
    ("studies",),
)
RANK = {sub: rank for rank, subs in enumerate(LAYERS) for sub in subs}
#: Rank of the top level (``__init__``, ``cli``, ``__main__``): above every layer.
TOP = len(LAYERS)
#: Top-level modules below every layer, which any module may import: the command-line helpers and the
#: argument checks of the public boundary (private by name, shared by the whole package). They import
#: the standard library, numpy and each other only.
BASE = ("ndcg_research.cli_common", "ndcg_research._validation")
#: Libraries that ``import ndcg_research`` must not load (numpy only).
HEAVY = ("scipy", "pandas", "matplotlib", "joblib", "papermill", "tqdm", "dask", "sklearn")


@dataclass(frozen=True)
class Import:
    """One imported module (absolute name) and, for ``from m import a, b``, the names taken from it."""

    module: str
    names: tuple[str, ...]
    line: int


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def is_package(path: Path) -> bool:
    return path.name == "__init__.py"


MODULES = {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def resolve(node: ast.ImportFrom, importer: str, package: bool) -> str:
    """Absolute name of the module of ``from ... import`` (relative levels resolved)."""
    if node.level == 0:
        return node.module or ""
    base = importer.split(".")
    if not package:
        base = base[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def imports_of(name: str, source: str | None = None) -> list[Import]:
    """The imports of module ``name`` (its file, or ``source`` instead)."""
    path = MODULES.get(name)
    tree = ast.parse(path.read_text(encoding="utf-8") if source is None else source)
    package = path is not None and is_package(path)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.extend(Import(alias.name, (), node.lineno) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            found.append(Import(resolve(node, name, package), tuple(a.name for a in node.names), node.lineno))
    return found


def top_level(module: str) -> str:
    return module.split(".")[0]


def is_private(part: str) -> bool:
    return part.startswith("_") and not (part.startswith("__") and part.endswith("__"))


def test_the_package_is_found():
    assert {"ndcg_research", "ndcg_research.core._metrics", "ndcg_research.simulation.simulate"} <= set(MODULES)


def test_resolve_relative_imports():
    node = ast.parse("from ..core import _kernels as kernels").body[0]
    assert resolve(node, "ndcg_research.simulation.simulate", package=False) == "ndcg_research.core"
    node = ast.parse("from .metrics import ndcg").body[0]
    assert resolve(node, "ndcg_research.core", package=True) == "ndcg_research.core.metrics"


@pytest.mark.parametrize("name", [m for m in MODULES if m.startswith(f"{NAME}.core")])
def test_core_imports_only_numpy_stdlib_and_itself(name):
    bad = [
        f"line {i.line}: {i.module}"
        for i in imports_of(name)
        if not (
            i.module == "numpy"
            or i.module.startswith("numpy.")
            or i.module.startswith(f"{NAME}.core")
            or i.module in BASE
            or top_level(i.module) in sys.stdlib_module_names
            or i.module == "__future__"
        )
    ]
    assert not bad, f"{name} imports outside numpy, the standard library and the core: {bad}"


@pytest.mark.parametrize("name", BASE)
def test_base_modules_import_only_the_standard_library(name):
    bad = [
        f"line {i.line}: {i.module}"
        for i in imports_of(name)
        if top_level(i.module) not in sys.stdlib_module_names
        and i.module != "__future__"
        and top_level(i.module) != "numpy"
        and i.module not in BASE
    ]
    assert name in MODULES and not bad, f"{name} imports outside the standard library and numpy: {bad}"


@pytest.mark.parametrize("name", [m for m in MODULES if m.split(".")[1:2] and m.split(".")[1] in RESEARCH])
def test_research_code_never_imports_the_notebook_tooling(name):
    bad = [
        f"line {i.line}: {i.module}"
        for i in imports_of(name)
        if i.module == f"{NAME}.pipeline"
        or i.module.startswith(f"{NAME}.pipeline.")
        or (i.module == NAME and "pipeline" in i.names)
    ]
    assert not bad, f"{name} imports the notebook tooling: {bad}"


#: Private modules every subpackage may import: the argument checks of the public boundary, the core's kernels and
#: ordering for arrays that the caller has checked (the evaluator, the simulation engine), and the statistics the
#: simulation studies share (replicates, labels of proportions), which are no public API.
SHARED_PRIVATE = (f"{NAME}._validation", f"{NAME}.core._kernels", f"{NAME}.core._ranking", f"{NAME}.stats._replication")
#: The one private module of another project imported, and by which module: pyarrow._compute runs Arrow's kernels
#: without pyarrow.compute's import, which builds wrappers for every function (57 ms of the evaluate command's
#: 210 ms on 250,000 lines); the module falls back to pyarrow.compute if a pyarrow release moves it.
FOREIGN_PRIVATE = {(f"{NAME}.evaluation._readers", "pyarrow._compute")}


def same_subpackage(name: str, module: str) -> bool:
    """Whether ``module`` lies in the subpackage of module ``name`` (a study's folder counts as its own)."""
    depth = 3 if name.startswith(f"{NAME}.studies.") else 2
    own, other = name.split(".")[:depth], module.split(".")[:depth]
    return len(own) == depth and own == other


def private_uses(name: str, source: str | None = None) -> list[str]:
    """Uses of other modules' private names in module ``name`` (its file, or ``source`` instead)."""
    path = MODULES.get(name)
    tree = ast.parse(path.read_text(encoding="utf-8") if source is None else source)
    bad = []
    for i in imports_of(name, source):
        if same_subpackage(name, i.module) or i.module in SHARED_PRIVATE:
            continue
        if (name, i.module) not in FOREIGN_PRIVATE and any(is_private(p) for p in i.module.split(".")):
            bad.append(f"line {i.line}: imports the private module {i.module}")
        bad.extend(
            f"line {i.line}: from {i.module} import {n}"
            for n in i.names
            if is_private(n) and f"{i.module}.{n}" not in SHARED_PRIVATE
        )
    # Local names bound to package modules: `import ndcg_research.x as m`, `from ndcg_research import x`.
    modules = {}
    for i in imports_of(name, source):
        if not i.names and i.module.startswith(NAME):
            modules[i.module.split(".")[0]] = NAME
        modules.update({n: f"{i.module}.{n}" for n in i.names if f"{i.module}.{n}" in MODULES})
    for node in ast.walk(tree):
        if isinstance(node, ast.alias) and node.asname and node.name.startswith(NAME) and node.name in MODULES:
            modules[node.asname] = node.name
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Attribute)
            and is_private(node.attr)
            and isinstance(node.value, ast.Name)
            and node.value.id in modules
            and not same_subpackage(name, modules[node.value.id])
            and f"{modules[node.value.id]}.{node.attr}" not in SHARED_PRIVATE
        ):
            bad.append(f"line {node.lineno}: {node.value.id}.{node.attr} (private name of {modules[node.value.id]})")
    return bad


@pytest.mark.parametrize("name", list(MODULES))
def test_no_module_uses_another_modules_private_names(name):
    bad = private_uses(name)
    assert not bad, f"{name} uses private names of other modules: {bad}"


def test_the_private_name_check_sees_every_form():
    # The check itself, on a made-up module of the evaluator (parsed, never imported): its own
    # subpackage's private modules and names and the shared private modules are allowed.
    source = (
        "import numpy as np\n"
        "from ._readers import TIE, _seed\n"
        "from ..core import _kernels, _metrics\n"
        "from ..stats._paired import paired_test\n"
        "from ..stats import _private_helper\n"
        "import ndcg_research.simulation.simulate as sim\n"
        "from . import _scoring\n"
        "x = _scoring._rank, sim._rng, np._private, _kernels._top, _metrics._parts\n"
    )
    found = private_uses("ndcg_research.evaluation.made_up", source)
    assert found == [
        "line 3: from ndcg_research.core import _metrics",
        "line 4: imports the private module ndcg_research.stats._paired",
        "line 5: from ndcg_research.stats import _private_helper",
        "line 8: sim._rng (private name of ndcg_research.simulation.simulate)",
        "line 8: _kernels._top (private name of ndcg_research.core._kernels)",
        "line 8: _metrics._parts (private name of ndcg_research.core._metrics)",
    ]
    assert not is_private("__future__") and not is_private("__version__")


def test_only_the_named_module_may_import_a_foreign_private_module():
    source = "from pyarrow._compute import call_function, _hidden\n"
    assert private_uses("ndcg_research.evaluation._readers", source) == ["line 1: from pyarrow._compute import _hidden"]
    assert private_uses("ndcg_research.evaluation._matching", source) == [
        "line 1: imports the private module pyarrow._compute",
        "line 1: from pyarrow._compute import _hidden",
    ]


SUBPACKAGES = sorted(m.split(".")[1] for m, p in MODULES.items() if m.count(".") == 1 and is_package(p))


def subpackage(module: str) -> str:
    """The subpackage of a package module (``"stats"`` for ``ndcg_research.stats.paired``); "" at the top level."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[1] in RANK else ""


def rank(module: str) -> int:
    if module in BASE:  # the shared private modules keep their subpackage's rank
        return -1
    return RANK.get(subpackage(module), TOP)


def is_dunder(name: str) -> bool:
    return name.startswith("__") and name.endswith("__")


def dependencies(name: str, source: str | None = None) -> list[tuple[int, str, str]]:
    """``(line, what the code says, package module it depends on)`` for every use of the package in module ``name``.

    Imports anywhere (inside functions too), ``importlib.import_module`` / ``__import__`` with a
    literal name, and attributes of a name bound to the package itself (``import ndcg_research as nr;
    nr.paired_test`` depends on the top level's lazy API; ``nr.stats`` on the stats subpackage).
    Package metadata (``__version__``) and the bare ``import ndcg_research``, which Python runs
    before any submodule anyway, are no dependency.
    """
    path = MODULES.get(name)
    tree = ast.parse(path.read_text(encoding="utf-8") if source is None else source)
    found = []
    for i in imports_of(name, source):
        if i.module != NAME and not i.module.startswith(f"{NAME}."):
            continue
        text = f"from {i.module} import {', '.join(i.names)}" if i.names else f"import {i.module}"
        if i.module != NAME:
            found.append((i.line, text, i.module))
            continue
        for n in i.names:  # from ndcg_research import x: a subpackage, metadata, or the lazy API
            if f"{NAME}.{n}" in MODULES:
                found.append((i.line, text, f"{NAME}.{n}"))
            elif not is_dunder(n):
                found.append((i.line, text, NAME))
    roots = {
        alias.asname or NAME
        for node in ast.walk(tree)
        if isinstance(node, ast.Import)
        for alias in node.names
        if alias.name.split(".")[0] == NAME and (alias.asname is None or alias.name == NAME)
    }
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in roots:
            if not is_dunder(node.attr):
                target = f"{NAME}.{node.attr}"
                found.append((node.lineno, f"{node.value.id}.{node.attr}", target if target in MODULES else NAME))
        elif (
            isinstance(node, ast.Call)
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
            and node.args[0].value.split(".")[0] == NAME
            and (
                (isinstance(node.func, ast.Attribute) and node.func.attr == "import_module")
                or (isinstance(node.func, ast.Name) and node.func.id in ("import_module", "__import__"))
            )
        ):
            found.append((node.lineno, ast.unparse(node), node.args[0].value))
    return sorted(found)


def upward_imports(name: str, source: str | None = None) -> list[str]:
    """The dependencies of module ``name`` (its file, or ``source`` instead) that break the layer order."""
    own = subpackage(name)
    if not own:  # the top level may name any subpackage
        return []
    bad = []
    for line, text, target in dependencies(name, source):
        there = subpackage(target)
        if there == own or rank(target) < rank(name):
            continue
        where = f"{there}, not below {own}" if there else "the top level of the package, above every layer"
        bad.append(f"line {line}: {text} ({where})")
    return bad


def test_every_subpackage_is_in_one_layer():
    named = [sub for subs in LAYERS for sub in subs]
    assert sorted(named) == SUBPACKAGES, (
        f"LAYERS names {sorted(named)}, the package has {SUBPACKAGES}: "
        "place a new subpackage in LAYERS (and in the layer order of this module's docstring)"
    )


@pytest.mark.parametrize("name", list(MODULES))
def test_imports_follow_the_layers(name):
    bad = upward_imports(name)
    order = " < ".join(", ".join(subs) for subs in LAYERS)
    assert not bad, f"{name} imports against the layer order {order}: {bad}"


def study(module: str) -> str:
    """The study of a module of ``ndcg_research/studies/<name>/`` (``""`` for any other module)."""
    parts = module.split(".")
    return parts[2] if len(parts) > 2 and parts[:2] == [NAME, "studies"] else ""


def other_studies(name: str, source: str | None = None) -> list[str]:
    """The imports of module ``name`` (its file, or ``source`` instead) from another study."""
    own = study(name)
    return [
        f"line {i.line}: {i.module}"
        for i in imports_of(name, source)
        if study(i.module) and study(i.module) != own or (i.module == f"{NAME}.studies" and set(i.names) - {own})
    ]


@pytest.mark.parametrize("name", [m for m in MODULES if study(m)])
def test_a_study_imports_no_other_study(name):
    assert other_studies(name) == []


def test_the_study_check_sees_every_form():
    source = "from ..cutoff.experiment import verdict_table\nfrom .. import convergence\nfrom . import plots\n"
    assert other_studies("ndcg_research.studies.cutoff_growth.made_up", source) == [
        "line 1: ndcg_research.studies.cutoff.experiment",
        "line 2: ndcg_research.studies",
    ]


def test_the_layer_check_sees_every_form():
    # The check itself, on a made-up module of stats (parsed, never imported).
    source = (
        "import importlib\n"
        "import ndcg_research\n"
        "from ..core.validation import check_integer\n"
        "from .paired import TIE_TOLERANCE\n"
        "from ..simulation.sweeps import Sweep\n"
        "from .. import pipeline, evaluation, __version__\n"
        "def lazy():\n"
        "    from ndcg_research.findings import claims\n"
        "    importlib.import_module('ndcg_research.datasets.movielens')\n"
        "    return ndcg_research.paired_test, ndcg_research.__version__, ndcg_research.evaluation\n"
    )
    assert upward_imports("ndcg_research.stats.made_up", source) == [
        "line 5: from ndcg_research.simulation.sweeps import Sweep (simulation, not below stats)",
        "line 6: from ndcg_research import pipeline, evaluation, __version__ (pipeline, not below stats)",
        "line 8: from ndcg_research.findings import claims (findings, not below stats)",
        "line 9: importlib.import_module('ndcg_research.datasets.movielens') (datasets, not below stats)",
        "line 10: ndcg_research.paired_test (the top level of the package, above every layer)",
    ]
    # The simulation engine and datasets share a layer: neither imports the other; the top level may import anything.
    assert upward_imports("ndcg_research.simulation.made_up", "from ..datasets import movielens_100k\n") == [
        "line 1: from ndcg_research.datasets import movielens_100k (datasets, not below simulation)",
    ]
    assert upward_imports("ndcg_research.cli", "import ndcg_research.pipeline.cli\n") == []
    # The shared command-line helpers sit below every layer.
    assert upward_imports("ndcg_research.evaluation.cli", "from ..cli_common import fail\n") == []
    assert upward_imports("ndcg_research.evaluation.cli", "from .. import cli\n") == [
        "line 1: from ndcg_research import cli (the top level of the package, above every layer)"
    ]


def test_dir_lists_the_public_subpackages_before_their_first_use():
    # dir(nr) had no 'datasets' (nor 'stats', ...) until one was used: a notebook's completion did not offer them
    code = "import sys, ndcg_research as nr; print(sorted(set(dir(nr)) & {'evaluation', 'stats', 'datasets', 'interop', 'advice'}), 'pandas' in sys.modules)"
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert proc.stdout.split() == ["['advice',", "'datasets',", "'evaluation',", "'interop',", "'stats']", "False"]


def test_the_public_subpackages_are_attributes_of_the_package_loaded_on_first_use():
    # The guides write nr.stats.compare_systems after `import ndcg_research as nr`: an AttributeError before.
    code = (
        "import sys, ndcg_research as nr\n"
        f"heavy = sorted(m for m in {HEAVY!r} if m in sys.modules)\n"
        "found = [nr.stats.compare_systems, nr.evaluation.evaluate, nr.datasets.movielens_100k,\n"
        "         nr.interop.ir_measure, nr.advice.advise]\n"
        "print(heavy, [f.__module__.split('.')[1] for f in found], 'stats' in dir(nr), 'stats' in nr.__all__)\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert proc.stdout.split() == [
        "[]",
        "['stats',",
        "'evaluation',",
        "'datasets',",
        "'interop',",
        "'advice']",
        "True",
        "False",
    ]


def test_importing_the_package_loads_numpy_only():
    code = (
        "import sys, ndcg_research as nr\n"
        "nr.ndcg([3, 2, 1])\n"
        f"print(' '.join(sorted(m for m in {HEAVY!r} if m in sys.modules)))\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert proc.stdout.strip() == "", f"`import ndcg_research` loads {proc.stdout.strip()}"


def test_experiments_run_without_matplotlib():
    # The experiments extra (Dask workers, sweeps) has no matplotlib: only a study's plots.py / figures.py may need it.
    studies = [n for n in MODULES if n.startswith(f"{NAME}.studies.") and n.split(".")[-1] not in ("plots", "figures")]
    code = (
        "import importlib, sys\n"
        "sys.modules['matplotlib'] = None  # importing it raises ImportError\n"
        f"for name in {studies!r}:\n"
        "    try:\n"
        "        importlib.import_module(name)\n"
        "    except ImportError as error:\n"
        "        print(name, error)\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert len(studies) > 30
    assert proc.stdout == "", f"study modules that need matplotlib outside plots/figures:\n{proc.stdout}"
