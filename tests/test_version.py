"""One version number: pyproject.toml, ``ndcg_research.__version__`` and the installed
distribution's metadata all state the same release (CITATION.cff names none: it asks for the
version ``ndcg-research --version`` prints)."""

from __future__ import annotations

import importlib.metadata
import re
import tomllib
from pathlib import Path

import ndcg_research

ROOT = Path(__file__).resolve().parents[1]


def _pyproject_version() -> str:
    with open(ROOT / "pyproject.toml", "rb") as f:
        return tomllib.load(f)["project"]["version"]


def test_version_is_a_release_number():
    # Plain MAJOR.MINOR.PATCH: a string, not a float that YAML or TOML would have mangled.
    assert re.fullmatch(r"\d+\.\d+\.\d+", _pyproject_version())


def test_package_version_matches_pyproject():
    assert ndcg_research.__version__ == _pyproject_version()


def test_installed_metadata_matches_pyproject():
    # The editable install records the version at install time: a stale .venv (installed
    # before the version was raised) fails here until it is reinstalled (tasks.py does so
    # when pyproject.toml changes).
    assert importlib.metadata.version("ndcg_research") == _pyproject_version()
