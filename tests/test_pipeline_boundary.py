"""The public functions of ``ndcg_research.pipeline`` and ``ndcg_research.findings`` refuse bad arguments by name,
before they write anything (a reviewer's list: each refusal here was a wrong result, a raw error or a written file)."""

from __future__ import annotations

import shutil
from pathlib import Path

import matplotlib
import pytest

matplotlib.use("Agg")


from ndcg_research.pipeline import profiles, runner  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
FULL = ROOT / "results" / "full"
FIXTURES = Path(__file__).parent / "fixtures" / "notebooks"


def _fake_repository(tmp_path: Path, monkeypatch) -> Path:
    """A repository with the fixture notebooks, as the runner sees it (nothing is run here: plans only)."""
    repo = tmp_path / "repo"
    shutil.copytree(FIXTURES, repo / "notebooks")
    monkeypatch.setattr(profiles, "repo_root", lambda: repo)
    return repo


# ------------------------------------------------------------ pipeline.runner and pipeline.profiles


@pytest.mark.parametrize("publish", ["no", "False", 1, 0, "yes"])
def test_publish_must_be_a_bool(tmp_path, monkeypatch, publish):
    # publish="no" (and 1) was true: a partial run would overwrite the committed figures/ and results/full/
    _fake_repository(tmp_path, monkeypatch)
    with pytest.raises(TypeError, match=f"^publish must be True, False or None, got {type(publish).__name__} "):
        runner.plan_run("full", only=["01"], publish=publish)
    with pytest.raises(TypeError, match="^publish must be True, False or None"):
        runner.publishing(partial=True, publish=publish)
    assert not runner.plan_run("full", only=["01"], publish=False).publishing.publish  # a bool still works
    assert runner.plan_run("full", only=["01"], publish=True).publishing.publish


@pytest.mark.parametrize(
    "only, error, message",
    [
        ("14", TypeError, r"^--only must be a list of notebook names, not a single str '14': give \['14'\]$"),
        ("01", TypeError, r"^--only must be a list of notebook names, not a single str '01'"),
        ("", TypeError, r"^--only must be a list of notebook names, not a single str ''$"),
        ([], ValueError, r"^--only must name at least one notebook, got an empty list \(None runs all\)$"),
        ((), ValueError, r"^--only must name at least one notebook, got an empty tuple"),
        ([1], TypeError, r"^--only must hold notebook names as text .*, got int 1 at position 0$"),
        (["01", None], TypeError, r"^--only must hold notebook names as text .*, got NoneType None at position 1$"),
        (1, TypeError, r"^--only must be a list of notebook names or None, got int 1$"),
    ],
)
def test_only_must_be_a_list_of_names(tmp_path, monkeypatch, only, error, message):
    # "14" ran notebooks 01 and 04 (a str iterated by letter); [] and "" ran all 16 and published
    _fake_repository(tmp_path, monkeypatch)
    with pytest.raises(error, match=message):
        runner.plan_run("full", only=only)
    with pytest.raises(error, match=message):
        profiles.select_notebooks(runner.discover_notebooks(FIXTURES), only)


def test_only_still_takes_names_and_numbers_as_text():
    nbs = runner.discover_notebooks(FIXTURES)
    assert [p.stem for p in profiles.select_notebooks(nbs, ("2", "01_ok.ipynb"))] == ["01_ok", "02_missing_figure"]
    assert profiles.select_notebooks(nbs, None) == nbs


def test_profile_and_paths_are_checked_by_type(tmp_path):
    with pytest.raises(TypeError, match=r"^profile must be a str, got list \['full'\]$"):
        runner.plan_run(["full"], only=["01"])  # it was "unhashable type: 'list'"
    with pytest.raises(TypeError, match=r"^--output must be a path \(str or os.PathLike\), got int 3$"):
        runner.plan_run("quick", only=["01"], output=3, notebooks_dir=FIXTURES)  # a raw os.fspath TypeError
    with pytest.raises(TypeError, match=r"^notebooks directory must be a path .*, got NoneType None$"):
        runner.discover_notebooks(None)


def test_reproduce_and_store_check_their_flags_before_running(tmp_path):
    with pytest.raises(TypeError, match="^progress must be True, False or None, got str 'no'$"):
        runner.reproduce("quick", output=tmp_path / "out", only=["01"], notebooks_dir=FIXTURES, progress="no")
    with pytest.raises(TypeError, match="^execute must be True or False, got str 'no'$"):
        runner.store(notebooks_dir=tmp_path, execute="no")
    assert not (tmp_path / "out").exists()


def test_read_notebook_of_a_folder_or_no_path(tmp_path):
    with pytest.raises(profiles.RunnerError, match="is a directory, not a notebook file"):
        profiles.read_notebook(tmp_path)  # it was IsADirectoryError
    with pytest.raises(TypeError, match=r"^path must be a path \(str or os.PathLike\), got NoneType None$"):
        profiles.read_notebook(None)  # it read a file named 'None'
    with pytest.raises(TypeError, match="^path must be a path"):
        profiles.describe_parameters(None)


@pytest.mark.parametrize("declared", [profiles.declared_figures, profiles.declared_tables, profiles.declared_headline])
def test_declared_of_no_notebook_is_a_type_error(declared):
    # None was AttributeError: 'NoneType' object has no attribute 'metadata'
    with pytest.raises(TypeError, match="^notebook must be a path or a notebook read by nbformat, got NoneType None$"):
        declared(None)
    assert declared(FIXTURES / "01_ok.ipynb") == declared(profiles.read_notebook(FIXTURES / "01_ok.ipynb"))
