"""The public functions of ``ndcg_research.pipeline`` and ``ndcg_research.findings`` refuse bad arguments by name,
before they write anything (a reviewer's list: each refusal here was a wrong result, a raw error or a written file)."""

from __future__ import annotations

import shutil
from pathlib import Path

import matplotlib
import pandas as pd
import pytest

matplotlib.use("Agg")

from matplotlib.figure import Figure  # noqa: E402

from ndcg_research.findings import (  # noqa: E402
    Results,
    answer,
    cases,
    collect,
    labelled,
    notebook_findings,
    number,
    proportion,
    span,
    spoken,
    threshold,
    worst,
)
from ndcg_research.pipeline import figures, headlines, profiles, runner, tables  # noqa: E402

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


# ------------------------------------------------------------ findings.catalogue


@pytest.mark.parametrize("function", [answer, notebook_findings])
def test_a_results_folder_that_is_a_file_is_named(tmp_path, function):
    # each of these gave "Not available here: ... run the notebook", with no finding; a folder not there still does:
    # a notebook opened outside a checkout (JupyterLab in CI's browser step) answers that its tables are not here
    notebook = "04_distinguishability.ipynb"
    found = function(notebook, tmp_path / "nope")
    if function is notebook_findings:
        assert found == []
    else:
        assert found.text.startswith("**Answer.** Not available here: no tables of 04_distinguishability.ipynb")
    (tmp_path / "file.csv").write_text("a\n1\n")
    with pytest.raises(ValueError, match="^results_dir '.*file.csv' is not a folder$"):
        function(notebook, str(tmp_path / "file.csv"))
    with pytest.raises(ValueError, match="^results_dir must be a path .*got an empty string$"):
        function(notebook, "")
    with pytest.raises(TypeError, match="^results_dir must be a path .*got NoneType None$"):
        function(notebook, None)


@pytest.mark.parametrize("function", [answer, notebook_findings])
@pytest.mark.parametrize("notebook", ["99_nothing.ipynb", "04_Distinguishability.ipynb"])
def test_an_unknown_notebook_is_named_with_the_known_ones(function, notebook):
    with pytest.raises(ValueError, match=f"^notebook '{notebook}' has no findings; .*: 01_worked_example.ipynb, "):
        function(notebook, FULL)


def test_a_notebook_that_is_not_a_name_is_a_type_error():
    with pytest.raises(TypeError, match="^notebook must be a path .*got int 4$"):
        answer(4, FULL)


def test_not_available_here_is_kept_for_a_known_notebook_without_its_tables(tmp_path):
    assert answer("04_distinguishability.ipynb", tmp_path).text.startswith("**Answer.** Not available here: no tables")
    assert notebook_findings("04_distinguishability.ipynb", tmp_path) == []


def test_an_unknown_threshold_is_a_value_error_said_where():
    # a KeyError: a rule's caller read it as a table without a column, fill() as a missing placeholder
    with pytest.raises(ValueError, match="^no threshold named 'nope'; known: "):
        threshold("nope")
    with pytest.raises(ValueError, match="^the answer: no threshold named 'nope'; known: "):
        spoken("{T[nope]}", [], "the answer")
    with pytest.raises(TypeError, match="^name must be a str, got int 3$"):
        threshold(3)


def test_spoken_and_collect_check_their_arguments():
    with pytest.raises(TypeError, match="^results must be a Results .*got str 'path'$"):
        collect("path")  # AttributeError
    with pytest.raises(TypeError, match=r"^findings\[0\] must be a Finding, got str 'x'$"):
        spoken("{T[chance_p]}", ["x"], "here")
    with pytest.raises(TypeError, match="^template must be a str, got NoneType None$"):
        spoken(None, [], "here")


# ------------------------------------------------------------ findings.model


def test_cases_takes_whole_counts_of_at_most_total():
    assert cases(3, 12_000) == "3 of 12,000"
    with pytest.raises(TypeError, match="^count must be an integer >= 0, got float 2.5$"):
        cases(2.5, 10)  # '2 of 10'
    with pytest.raises(ValueError, match=r"^count must be at most total \(10\), got 11$"):
        cases(11, 10)


def test_proportion_takes_proportions():
    assert proportion(0.5, 0.4, 0.6, 10) == "0.50 [0.40, 0.60]"
    with pytest.raises(ValueError, match=r"^p must be in \[0, 1\], got 1.5$"):
        proportion(1.5, 0.1, 0.2)
    with pytest.raises(ValueError, match=r"^high must be in \[0, 1\], got 2.0$"):
        proportion(0.5, 0.1, 2.0)
    with pytest.raises(TypeError, match="^trials must be an integer >= 1 or None, got float 10.0$"):
        proportion(0.5, 0.4, 0.6, 10.0)


def test_span_number_worst_and_labelled_refuse_what_they_cannot_quote(tmp_path):
    assert (span([1.0, float("nan"), 2.0]), number(float("nan")), number(0.123456, 2)) == ("1 to 2", "n/a", "0.12")
    with pytest.raises(ValueError, match=r"^values must not be empty, got shape \(0,\)$"):
        span([])  # numpy's zero-size message
    with pytest.raises(TypeError, match="^digits must be an integer >= 1, got NoneType None$"):
        number(0.5, digits=None)  # "Format specifier missing precision"
    with pytest.raises(TypeError, match="^value must be a number, got str '0.5'$"):
        number("0.5")
    with pytest.raises(ValueError, match="^rows must hold at least one row"):
        worst(pd.DataFrame(columns=["p_better_low", "p_better", "p_better_high", "replicates"]))  # IndexError
    with pytest.raises(ValueError, match="^labels must name at least one table, got none$"):
        labelled(Results(tmp_path), "{}", [])  # pandas' "No objects to concatenate"
    with pytest.raises(TypeError, match="^labels must be a list of labels, got str 'ab'$"):
        labelled(Results(tmp_path), "t_{}.csv", "ab")
    with pytest.raises(TypeError, match="^results must be a Results, got str"):
        labelled(str(tmp_path), "t_{}.csv", ["a"])


# ------------------------------------------------------------ pipeline.figures


def _figure() -> Figure:
    fig = Figure()
    fig.add_subplot().plot([0, 1], [0, 1])
    return fig


@pytest.mark.parametrize(
    "change, error, message",
    [
        (dict(caption=None), TypeError, "^caption must be a str, got NoneType None$"),
        (dict(notebook=None), TypeError, "^notebook must be a str, got NoneType None$"),
        (dict(notebook=""), ValueError, "^notebook must name the notebook"),
        (dict(parameters=None), TypeError, "^parameters must be a Mapping, got NoneType None$"),
        (dict(name="../escaped"), ValueError, "^name must be a figure's file stem .*, got '../escaped'$"),
        (dict(name="sub/x"), ValueError, "^name must be a figure's file stem"),
        (dict(name=""), ValueError, "^name must be a figure's file stem .*, got ''$"),
        (dict(name=None), TypeError, "^name must be a str, got NoneType None$"),
        (dict(fig=None), TypeError, "^fig must be a matplotlib Figure, got NoneType None$"),
        (dict(figures_dir=None), TypeError, "^figures_dir must be a path"),
    ],
)
def test_save_figure_checks_every_argument_before_writing(tmp_path, change, error, message):
    # a bad caption or notebook failed after the PNG and PDF were written; "../escaped" wrote beside the folder
    arguments = dict(
        fig=_figure(), name="x", figures_dir=tmp_path / "figs", caption="c", notebook="n.ipynb", parameters={}
    )
    arguments.update(change)
    with pytest.raises(error, match=message):
        figures.save_figure(arguments.pop("fig"), arguments.pop("name"), **arguments)
    assert list(tmp_path.iterdir()) == []


def test_write_index_refuses_a_folder_that_does_not_exist_and_a_title_not_text(tmp_path):
    with pytest.raises(ValueError, match=f"^figures_dir '{tmp_path / 'typo'}' does not exist$"):
        figures.write_index(tmp_path / "typo")  # it made the folder and an empty index
    assert not (tmp_path / "typo").exists()
    with pytest.raises(TypeError, match="^title must be a str, got NoneType None$"):
        figures.write_index(tmp_path, title=None)  # it wrote "# None"
    assert not (tmp_path / "README.md").exists()


# ------------------------------------------------------------ pipeline.headlines


@pytest.mark.parametrize("notebook", ["distinguishability", "04", "04_"])
def test_headline_of_a_name_that_is_not_a_notebook(notebook):
    with pytest.raises(ValueError, match=f"^notebook must be a notebook's path .*, got '{notebook}'$"):
        headlines.headline_of(notebook)  # IndexError


def test_headline_of_a_notebook_without_a_study():
    with pytest.raises(ValueError, match="^notebook '99_x.ipynb' has no study: ndcg_research/studies/x/ does not"):
        headlines.headline_of("99_x.ipynb")  # ModuleNotFoundError
    with pytest.raises(ValueError, match="^notebook must be a path .*got an empty string$"):
        headlines.headline_of("")


def test_save_headline_names_a_missing_parameter(tmp_path):
    headline = headlines.headline_of(ROOT / "notebooks" / "01_worked_example.ipynb")
    options = dict(figures_dir=tmp_path / "figs", notebook="01_worked_example.ipynb")
    with pytest.raises(ValueError, match="^parameters has no 'gain', which headline 01_headline reads"):
        headlines.save_headline(headline, FULL, parameters={}, **options)  # KeyError 'gain'
    with pytest.raises(TypeError, match="^headline must be a Headline, got str"):
        headlines.save_headline("01_headline", FULL, parameters={}, **options)
    assert not (tmp_path / "figs").exists()


# ------------------------------------------------------------ pipeline.tables


def _run(seed: int, **columns) -> pd.DataFrame:
    return pd.DataFrame({"cell": ["a", "b"], "p": [0.5, 0.6], "replicates": 100, "seed": seed} | columns)


def test_replication_line_refuses_duplicate_keys():
    # two rows per cell: the merge counted 4 "cells in common" of 2
    doubled = pd.concat([_run(1), _run(1)], ignore_index=True)
    with pytest.raises(ValueError, match=r"^here has 4 rows for cells .*\(keys \['cell'\]\), e.g. \['a'\]"):
        tables.replication_line(doubled, _run(2), ["cell"], "p")
    with pytest.raises(ValueError, match="^full has 4 rows for cells"):
        tables.replication_line(_run(1), doubled.assign(seed=2), ["cell"], "p")


def test_replication_line_refuses_mixed_seeds_an_empty_table_and_missing_columns():
    with pytest.raises(ValueError, match=r"^here must be one run's table \(one seed\), got seeds \[1, 3\]$"):
        tables.replication_line(_run(1).assign(seed=[1, 3]), _run(2), ["cell"], "p")  # the first seed was used
    with pytest.raises(ValueError, match="^full has no rows: no run to compare$"):
        tables.replication_line(_run(1), _run(2).iloc[:0], ["cell"], "p")  # IndexError
    with pytest.raises(ValueError, match=r"^here lacks the columns \['seed'\]"):
        tables.replication_line(_run(1).drop(columns="seed"), _run(2), ["cell"], "p")


def test_replication_line_says_how_many_cells_have_no_defined_z():
    line = tables.replication_line(_run(1, p=[0.5, float("nan")]), _run(2), ["cell"], "p")
    assert line.startswith("replication (seed 1 here, 2 in the full profile): 2 cells in common, largest |z| = ")
    assert line.endswith("; 1 cells without a defined |z| (NaN shares) left out")
    every = tables.replication_line(_run(1, p=[float("nan")] * 2), _run(2), ["cell"], "p")
    assert every.endswith("2 cells in common, none with a defined |z| (NaN shares)")
    assert "left out" not in tables.replication_line(_run(1), _run(2), ["cell"], "p")  # (as before)


def test_pivot_refuses_two_rows_for_one_cell():
    t = pd.DataFrame({"m": ["b", "b", "a"], "d": ["x", "x", "x"], "v": [0.5, 0.7, 0.1]})
    with pytest.raises(ValueError, match=r"^table has 2 rows for cells .*\(keys \['m', 'd'\]\), e.g. \['b', 'x'\]"):
        tables.pivot(t, "m", "d", "v")  # 0.7 was dropped silently
