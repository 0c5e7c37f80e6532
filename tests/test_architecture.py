"""The direction of imports inside the package, read from the source (AST), not from running it.

Rules (README, "Architecture"):

- the metric core (``ndcg_research.core``) imports only numpy, the standard library and itself;
- the research subpackages (studies, evaluation, stats, datasets) never import the notebook
  tooling (``ndcg_research.pipeline``);
- no module uses another module's underscore-private names: neither ``from x import _y`` nor the
  attribute ``mod._y`` of an imported package module, nor a private module such as ``x._y``;
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

#: Subpackages holding research code: they may use the core, never the notebook tooling.
RESEARCH = ("studies", "evaluation", "stats", "datasets", "findings")
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
    assert {"ndcg_research", "ndcg_research.core.metrics", "ndcg_research.studies.simulate"} <= set(MODULES)


def test_resolve_relative_imports():
    node = ast.parse("from ..core import kernels").body[0]
    assert resolve(node, "ndcg_research.studies.simulate", package=False) == "ndcg_research.core"
    node = ast.parse("from .metrics import ndcg").body[0]
    assert resolve(node, "ndcg_research.core", package=True) == "ndcg_research.core.metrics"


@pytest.mark.parametrize("name", [m for m in MODULES if m.startswith(f"{NAME}.core")])
def test_core_imports_only_numpy_stdlib_and_itself(name):
    bad = [
        f"line {i.line}: {i.module}"
        for i in imports_of(name)
        if not (
            i.module == "numpy" or i.module.startswith("numpy.")
            or i.module.startswith(f"{NAME}.core")
            or top_level(i.module) in sys.stdlib_module_names
            or i.module == "__future__"
        )
    ]
    assert not bad, f"{name} imports outside numpy, the standard library and the core: {bad}"


@pytest.mark.parametrize("name", [m for m in MODULES if m.split(".")[1:2] and m.split(".")[1] in RESEARCH])
def test_research_code_never_imports_the_notebook_tooling(name):
    bad = [f"line {i.line}: {i.module}" for i in imports_of(name)
           if i.module == f"{NAME}.pipeline" or i.module.startswith(f"{NAME}.pipeline.")
           or (i.module == NAME and "pipeline" in i.names)]
    assert not bad, f"{name} imports the notebook tooling: {bad}"


def private_uses(name: str, source: str | None = None) -> list[str]:
    """Uses of other modules' private names in module ``name`` (its file, or ``source`` instead)."""
    path = MODULES.get(name)
    tree = ast.parse(path.read_text(encoding="utf-8") if source is None else source)
    bad = []
    for i in imports_of(name, source):
        if any(is_private(p) for p in i.module.split(".")):
            bad.append(f"line {i.line}: imports the private module {i.module}")
        bad.extend(f"line {i.line}: from {i.module} import {n}" for n in i.names if is_private(n))
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
        if (isinstance(node, ast.Attribute) and is_private(node.attr) and isinstance(node.value, ast.Name)
                and node.value.id in modules):
            bad.append(f"line {node.lineno}: {node.value.id}.{node.attr} (private name of {modules[node.value.id]})")
    return bad


@pytest.mark.parametrize("name", list(MODULES))
def test_no_module_uses_another_modules_private_names(name):
    bad = private_uses(name)
    assert not bad, f"{name} uses private names of other modules: {bad}"


def test_the_private_name_check_sees_every_form():
    # The check itself, on a made-up module of the studies (parsed, never imported).
    source = (
        "import numpy as np\n"
        "from .sweeps import TIE, _seed\n"
        "from . import theory\n"
        "from ..core import _kernels\n"
        "import ndcg_research.studies.simulate as sim\n"
        "x = theory._builtin_gain, sim._rng, np._private, theory.eps\n"
    )
    found = private_uses("ndcg_research.studies.made_up", source)
    assert found == [
        "line 2: from ndcg_research.studies.sweeps import _seed",
        "line 4: from ndcg_research.core import _kernels",
        "line 6: theory._builtin_gain (private name of ndcg_research.studies.theory)",
        "line 6: sim._rng (private name of ndcg_research.studies.simulate)",
    ]
    assert not is_private("__future__") and not is_private("__version__")


def test_importing_the_package_loads_numpy_only():
    code = (
        "import sys, ndcg_research as nr\n"
        "nr.ndcg([3, 2, 1])\n"
        f"print(' '.join(sorted(m for m in {HEAVY!r} if m in sys.modules)))\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert proc.stdout.strip() == "", f"`import ndcg_research` loads {proc.stdout.strip()}"
