"""requirements.lock, the lock of the whole stack: it pins every input, this environment was installed
from it, and the committed figures were made with the versions it pins.

The lock is written by ``python3 tasks.py lock`` (uv pip compile); ``tasks.py`` installs every
command's requirements with it as constraints.
"""

from __future__ import annotations

import importlib.metadata
import json
import re
import tomllib
from pathlib import Path

import pytest
from packaging.markers import Marker
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[1]
LOCK = ROOT / "requirements.lock"
REQUIREMENT_FILES = sorted(ROOT.glob("requirements*.txt"))


def _locked() -> dict[str, str]:
    """Name -> version of the lock's lines that apply to this interpreter and platform."""
    pins = {}
    for line in LOCK.read_text(encoding="utf-8").splitlines():
        match = re.fullmatch(r"([A-Za-z0-9][A-Za-z0-9._-]*)==(\S+)(?: ; (.+))?", line.strip())
        if match and (match[3] is None or Marker(match[3]).evaluate()):
            name = canonicalize_name(match[1])
            assert name not in pins, f"{name} is pinned twice for this interpreter"
            pins[name] = match[2]
    return pins


def _inputs() -> dict[str, str]:
    """Every package the lock resolves: name -> where it is asked for."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    wanted = {canonicalize_name(Requirement(r).name): "pyproject.toml" for r in project["dependencies"]}
    for extra, requirements in project["optional-dependencies"].items():
        wanted.update({canonicalize_name(Requirement(r).name): f"pyproject.toml [{extra}]" for r in requirements})
    for path in REQUIREMENT_FILES:
        for line in path.read_text(encoding="utf-8").splitlines():
            text = line.split("#")[0].strip()
            if text:
                wanted[canonicalize_name(Requirement(text).name)] = path.name
    return wanted


def test_the_requirement_files_name_packages_and_leave_the_versions_to_the_lock():
    for path in REQUIREMENT_FILES:
        for line in path.read_text(encoding="utf-8").splitlines():
            text = line.split("#")[0].strip()
            assert not text or not Requirement(text).specifier, f"{path.name}: {text!r} pins a version; the lock does"


def test_every_input_is_pinned_by_the_lock():
    locked = _locked()
    missing = {name: where for name, where in _inputs().items() if name not in locked}
    assert not missing, f"not in requirements.lock (run `python3 tasks.py lock`): {missing}"


def test_the_lock_satisfies_the_lower_bounds_of_pyproject():
    locked = _locked()
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    requirements = [*project["dependencies"], *(r for rs in project["optional-dependencies"].values() for r in rs)]
    for requirement in map(Requirement, requirements):
        version = locked[canonicalize_name(requirement.name)]
        assert requirement.specifier.contains(version, prereleases=True), f"{requirement} vs locked {version}"


@pytest.mark.parametrize("path", sorted((ROOT / "figures").glob("*.json")), ids=lambda p: p.stem)
def test_the_committed_figures_were_made_with_the_locked_versions(path):
    locked = _locked()
    packages = json.loads(path.read_text(encoding="utf-8"))["environment"]["packages"]
    differ = {
        name: (version, locked.get(canonicalize_name(name)))
        for name, version in packages.items()
        if name != "ndcg_research" and version != locked.get(canonicalize_name(name))
    }
    assert not differ, (
        f"{path.name} names versions the lock does not pin (figure's, lock's): {differ}; "
        "regenerate the figures (python3 tasks.py reproduce) or lock those versions"
    )


def test_this_environment_has_the_locked_versions():
    """What tasks.py installed: every installed package the lock names is at the locked version."""
    locked = _locked()
    installed = {canonicalize_name(d.metadata["Name"]): d.version for d in importlib.metadata.distributions()}
    differ = {
        name: (version, locked[name])
        for name, version in installed.items()
        if name in locked and version != locked[name]
    }
    assert not differ, f"installed and locked versions differ (reinstall with python3 tasks.py): {differ}"
