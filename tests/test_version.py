"""The version is written once, in pyproject.toml: ``ndcg_research.__version__`` reads the installed
distribution's metadata, and CITATION.cff (a file for citing, read by GitHub and Zenodo, which cannot
read pyproject.toml) states the same release."""

import datetime
import importlib.metadata
import re
import tomllib
from pathlib import Path

import yaml

import ndcg_research

ROOT = Path(__file__).resolve().parents[1]


def _pyproject_version() -> str:
    with open(ROOT / "pyproject.toml", "rb") as f:
        return tomllib.load(f)["project"]["version"]


def _citation() -> dict:
    return yaml.safe_load((ROOT / "CITATION.cff").read_text(encoding="utf-8"))


def test_version_is_a_release_number():
    # Plain MAJOR.MINOR.PATCH: a string, not a float that YAML or TOML would have mangled.
    assert re.fullmatch(r"\d+\.\d+\.\d+", _pyproject_version())


def test_package_version_is_the_installed_metadata_of_pyproject():
    # The editable install records the version at install time: a stale .venv (installed
    # before the version was raised) fails here until it is reinstalled (tasks.py does so
    # when pyproject.toml changes).
    assert ndcg_research.__version__ == importlib.metadata.version("ndcg_research") == _pyproject_version()


def test_citation_version_matches_pyproject():
    citation = _citation()
    # Quoted in the file: an unquoted 0.2 would be read as a float.
    assert isinstance(citation["version"], str)
    assert citation["version"] == _pyproject_version()


def test_citation_release_date_is_a_date():
    released = _citation()["date-released"]
    # CFF requires YYYY-MM-DD; YAML may hand back a string or a date depending on quoting.
    datetime.date.fromisoformat(str(released))
