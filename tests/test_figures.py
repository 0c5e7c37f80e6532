"""Figure files: byte-deterministic, with provenance, and indexed."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys

import matplotlib
import numpy as np
import pytest
from matplotlib.figure import Figure

from ndcg_research.pipeline import figures
from ndcg_research.pipeline.figures import (
    figure_files,
    read_provenance,
    rerun_environment,
    save_figure,
    use_style,
    write_index,
)


def _figure() -> Figure:
    figures.use_style()
    fig = Figure()
    ax = fig.subplots()
    ax.bar(np.arange(1, 7), [3, 1.262, 1.5, 0, 0.387, 0.712], label="returned")
    ax.set(title="Contributions g(rel$_i$) · D(i)", xlabel="rank")
    ax.legend()
    return fig


def _save(folder, name="01_test_figure", **overrides):
    kwargs = dict(
        figures_dir=folder,
        caption="A test figure.",
        notebook="01_worked_example.ipynb",
        parameters={"k": 6, "grades": [3, 2, 3]},
        seed=None,
    )
    kwargs.update(overrides)
    return save_figure(_figure(), name, **kwargs)


def test_two_saves_are_byte_identical(tmp_path):
    first = _save(tmp_path / "a")
    second = _save(tmp_path / "b")
    for a, b in zip(first, second, strict=False):
        assert a.read_bytes() == b.read_bytes(), a.name
    # Saving again into the same folder rewrites the same bytes.
    before = [p.read_bytes() for p in first]
    again = _save(tmp_path / "a")
    assert [p.read_bytes() for p in again] == before


def test_image_files_carry_no_dates_or_versions(tmp_path):
    png, pdf, _ = _save(tmp_path)
    pdf_bytes = pdf.read_bytes()
    assert b"CreationDate" not in pdf_bytes and b"ModDate" not in pdf_bytes
    assert b"Matplotlib" not in pdf_bytes
    assert b"Software" not in png.read_bytes()
    assert png.read_bytes().startswith(b"\x89PNG")


def test_provenance_record(tmp_path):
    png, pdf, record = _save(
        tmp_path,
        seed=[2013, 4],
        parameters={
            "k": np.int64(6),
            "beta": np.float64(0.5),
            "grades": np.array([3, 2]),
            "figures_dir": "/somewhere",
            "results_dir": "/elsewhere",
            "k_max": None,
        },
    )
    data = read_provenance(record)
    assert data["figure"] == "01_test_figure"
    assert data["caption"] == "A test figure."
    assert data["notebook"] == "01_worked_example.ipynb"
    # Paths are machine-specific and dropped; NumPy values become plain JSON.
    assert data["parameters"] == {"k": 6, "beta": 0.5, "grades": [3, 2], "k_max": None}
    assert data["seed"] == [2013, 4]
    assert data["files"] == {"png": png.name, "pdf": pdf.name}
    assert data["sha256"]["png"] == hashlib.sha256(png.read_bytes()).hexdigest()
    assert data["sha256"]["pdf"] == hashlib.sha256(pdf.read_bytes()).hexdigest()
    assert set(data["versions"]) == {"python", "numpy", "matplotlib"}
    assert data["versions"]["numpy"] == np.__version__
    assert data["environment"] == json.loads(json.dumps(figures.rerun_environment()))
    import ndcg_research

    assert data["package_version"] == ndcg_research.__version__
    commit = data["git"]["commit"]
    assert commit is None or (len(commit) == 40 and int(commit, 16) >= 0)
    assert data["git"]["dirty"] in (None, True, False)
    assert json.loads(record.read_text()) == data


def test_layout_records_the_saved_size_and_every_text_drawn(tmp_path):
    # 8 x 3 inches saved without cropping: 20.32 x 7.62 cm; texts of 12 pt (title), 9 pt (label) and 7.5 pt (ticks).
    fig = Figure(figsize=(8, 3))
    ax = fig.subplots()
    ax.plot([0, 1], [0, 1])
    ax.set_xticks([0, 0.5, 1, 2], ["zero", "half", "one", "two (out of view)"], fontsize=7.5)
    ax.set_xlim(0, 1)  # after the ticks, which widen the view to hold them
    ax.set_yticks([])
    ax.set_title("Title", fontsize=12)
    ax.set_xlabel("x label", fontsize=9)
    ax.text(0.5, 0.5, "", fontsize=3)  # an empty text draws nothing
    with matplotlib.rc_context({"savefig.bbox": None}):
        _, _, record = save_figure(fig, "01_layout", figures_dir=tmp_path, caption="c", notebook="n", parameters={})
    layout = read_provenance(record)["layout"]
    assert layout["width_cm"] == 20.32 and layout["height_cm"] == 7.62
    assert layout["texts"] == sorted(["Title", "x label", "zero", "half", "one"])
    assert layout["smallest_text_pt"] == 7.5


def test_a_column_figure_saved_by_save_headline_is_at_most_a_column_wide(tmp_path):
    from ndcg_research.pipeline.headlines import Headline, save_headline
    from ndcg_research.pipeline.style import COLUMN_WIDTH_CM, MIN_TEXT_PT, column_figure

    def draw(results):
        with column_figure(5.0) as (fig, (ax,)):
            ax.plot([1, 10, 100], [3, 1, 2], label="a line")
            ax.set(xscale="log", xlabel="list length n", ylabel="value", title="(a) a title")
            ax.legend()
            return fig

    figures.use_style()  # the notebook's global style does not decide a headline's size
    save_headline(
        Headline.from_tables("01_col", draw, lambda results: "Cap."),
        tmp_path,
        figures_dir=tmp_path,
        notebook="n",
        parameters={},
    )
    layout = read_provenance(tmp_path / "01_col.json")["layout"]
    assert layout["width_cm"] <= COLUMN_WIDTH_CM
    # A text of s points in a figure w cm wide prints at s * COLUMN_WIDTH_CM / w points one column wide.
    assert layout["smallest_text_pt"] * COLUMN_WIDTH_CM / layout["width_cm"] >= MIN_TEXT_PT
    assert {"a line", "list length n", "value", "(a) a title"} <= set(layout["texts"])


@pytest.mark.parametrize(
    ("overrides", "error", "match"),
    [
        ({"parameters": {"f": object()}}, TypeError, r"parameters\['f'\] cannot be stored as JSON"),
    ],
)
def test_bad_arguments_are_rejected(tmp_path, overrides, error, match):
    name = overrides.pop("name", "01_ok")
    with pytest.raises(error, match=match):
        _save(tmp_path, name, **overrides)


def test_index_lists_each_figure_once_sorted(tmp_path):
    _save(tmp_path, "02_second", caption="Second | with a pipe.", notebook="02_b.ipynb")
    _save(tmp_path, "01_first", caption="First.")
    (tmp_path / "unrelated.json").write_text('{"not": "a figure"}')
    (tmp_path / "broken.json").write_text("{")
    index = write_index(tmp_path)
    assert index == tmp_path / "README.md"
    rows = [line for line in index.read_text().splitlines() if line.startswith("| `")]
    assert rows == [
        "| `01_first` | `01_worked_example.ipynb` | First. | [PNG](01_first.png) · [PDF](01_first.pdf) |",
        "| `02_second` | `02_b.ipynb` | Second \\| with a pipe. | [PNG](02_second.png) · [PDF](02_second.pdf) |",
    ]
    # Regenerating gives the same file (no dates).
    text = index.read_text()
    assert write_index(tmp_path).read_text() == text


def test_empty_index(tmp_path):
    (tmp_path / "new").mkdir()  # (a folder that does not exist is refused: tests/test_pipeline_boundary.py)
    assert "(none yet)" in write_index(tmp_path / "new").read_text()


def test_package_import_does_not_load_matplotlib():
    code = "import sys, ndcg_research; print('matplotlib' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_git_state_dirty_ignores_the_figures_folder(tmp_path):
    from ndcg_research.pipeline.figures import _git_state

    def git(*args):
        subprocess.run(["git", *args], cwd=tmp_path, check=True, capture_output=True)

    git("init", "-q")
    git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "--allow-empty", "-m", "empty")
    (tmp_path / "pkg").mkdir()
    (tmp_path / "figures").mkdir()
    (tmp_path / "pkg" / "code.py").write_text("x = 1\n")
    (tmp_path / "figures" / "01_a.json").write_text("{}\n")
    git("add", ".")
    git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "files")

    commit, dirty, _ = _git_state(exclude=tmp_path / "figures", source=tmp_path / "pkg")
    assert len(commit) == 40 and dirty is False
    (tmp_path / "figures" / "01_a.json").write_text('{"new": 1}\n')
    assert _git_state(exclude=tmp_path / "figures", source=tmp_path / "pkg")[1] is False
    (tmp_path / "pkg" / "code.py").write_text("x = 2\n")
    assert _git_state(exclude=tmp_path / "figures", source=tmp_path / "pkg")[1] is True
    assert _git_state(source=tmp_path / "figures")[1] is True


def test_git_state_ignores_the_result_tables_a_publishing_run_writes(tmp_path):
    """A full run rewrites results/full/ before its later figures: those writes must not mark them dirty."""
    from ndcg_research.pipeline.figures import _git_state

    def git(*args):
        subprocess.run(["git", *args], cwd=tmp_path, check=True, capture_output=True)

    git("init", "-q")
    for folder in ("pkg", "figures", "results/full"):
        (tmp_path / folder).mkdir(parents=True)
    (tmp_path / "pkg" / "code.py").write_text("x = 1\n")
    (tmp_path / "results" / "full" / "03_table.csv").write_text("a\n1\n")
    git("add", ".")
    git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "files")
    (tmp_path / "results" / "full" / "03_table.csv").write_text("a\n2\n")
    assert _git_state(exclude=tmp_path / "figures", source=tmp_path / "pkg")[1] is False
    (tmp_path / "pkg" / "code.py").write_text("x = 2\n")  # code still counts
    assert _git_state(exclude=tmp_path / "figures", source=tmp_path / "pkg")[1] is True


def test_git_state_says_whether_the_notebook_is_the_committed_one(tmp_path):
    """A figure made by an edited copy of a notebook named a clean commit (only the package's tree was looked at)."""
    from ndcg_research.pipeline.figures import _git_state

    def git(*args):
        subprocess.run(["git", *args], cwd=tmp_path / "repo", check=True, capture_output=True)

    (tmp_path / "repo" / "pkg").mkdir(parents=True)
    (tmp_path / "repo" / "notebooks").mkdir()
    (tmp_path / "repo" / "pkg" / "code.py").write_text("x = 1\n")
    notebook = tmp_path / "repo" / "notebooks" / "01_a.ipynb"
    notebook.write_text("{}\n")
    (tmp_path / "repo" / ".gitignore").write_text("build/\n")
    git("init", "-q")
    git("add", ".")
    git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "files")

    def state(path):
        return _git_state(exclude=tmp_path / "repo" / "figures", source=tmp_path / "repo" / "pkg", notebook=path)

    assert state(notebook)[1:] == (False, "notebooks/01_a.ipynb")
    notebook.write_text('{"edited": 1}\n')
    assert state(notebook)[1:] == (True, "notebooks/01_a.ipynb")
    git("checkout", "--", "notebooks")
    for copy in (tmp_path / "repo" / "notebooks" / "02_new.ipynb", tmp_path / "repo" / "build" / "01_a.ipynb"):
        copy.parent.mkdir(exist_ok=True)
        copy.write_text("{}\n")  # untracked, or ignored: not a committed file either
        assert state(copy)[1:] == (True, copy.relative_to(tmp_path / "repo").as_posix())
    outside = tmp_path / "elsewhere" / "01_a.ipynb"
    outside.parent.mkdir()
    outside.write_text("{}\n")
    assert state(outside)[1:] == (None, str(outside))
    assert state(tmp_path / "missing.ipynb")[1:] == (None, None)
    # A checkout with other changes is dirty whatever ran (a script's figure, another working directory).
    (tmp_path / "repo" / "pkg" / "code.py").write_text("x = 2\n")
    assert state(outside)[1:] == (True, str(outside))
    assert state(tmp_path / "missing.ipynb")[1:] == (True, None)


def test_a_figure_of_a_notebook_outside_the_checkout_names_it_and_no_clean_commit(tmp_path, monkeypatch):
    # The runner runs a notebook in its folder: a copy in /tmp made a record of a clean commit, and its file name.
    (tmp_path / "01_worked_example.ipynb").write_text("{}\n")
    monkeypatch.chdir(tmp_path)
    data = read_provenance(_save(tmp_path / "figures")[2])
    assert data["notebook"] == "01_worked_example.ipynb"
    assert data["notebook_path"] == str(tmp_path / "01_worked_example.ipynb")
    assert data["git"]["dirty"] is not False  # never clean: None, or True where the checkout has other changes


def test_git_state_names_the_checkout_of_the_notebook_wherever_the_package_is(tmp_path):
    # A plain `pip install .` puts the package in site-packages: its folder is in no checkout (the commit was None), or
    # in another project's repository (whose commit was recorded). The notebook that ran says which checkout it is.
    from ndcg_research.pipeline.figures import _git_state

    notebook = tmp_path / "repo" / "notebooks" / "01_a.ipynb"
    notebook.parent.mkdir(parents=True)
    notebook.write_text("{}\n")
    subprocess.run(["git", "init", "-q"], cwd=notebook.parent.parent, check=True)
    subprocess.run(["git", "add", "."], cwd=notebook.parent.parent, check=True)
    author = ["-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run(["git", *author, "commit", "-q", "-m", "files"], cwd=notebook.parent.parent, check=True)
    head = subprocess.run(
        ["git", "rev-parse", "HEAD"], cwd=notebook.parent, capture_output=True, text=True, check=True
    ).stdout.strip()
    assert _git_state(exclude=tmp_path / "repo" / "figures", notebook=notebook) == (head, False, "notebooks/01_a.ipynb")


def test_git_state_outside_a_repository(tmp_path):
    from ndcg_research.pipeline.figures import _git_state

    assert _git_state(source=tmp_path) == (None, None, None)


def test_rerun_environment_names_what_else_decides_the_bytes():
    """Each entry agrees with the library that knows it (asked here directly)."""
    import platform
    import zlib
    from importlib.metadata import version

    from matplotlib import ft2font
    from PIL import features
    from threadpoolctl import threadpool_info

    env = figures.rerun_environment()
    assert env["platform"]["machine"] == platform.machine()
    assert env["platform"]["python"] == platform.python_version()
    assert env["platform"]["libc"] == " ".join(platform.libc_ver()).strip()
    simd = np.show_config(mode="dicts")["SIMD Extensions"]
    assert env["numpy_simd"] == {"baseline": simd["baseline"], "found": simd["found"]}
    loaded = {(lib["internal_api"], lib["version"], lib["num_threads"]) for lib in threadpool_info()}
    assert {(lib["internal_api"], lib["version"], lib["num_threads"]) for lib in env["blas"]} == loaded
    assert any(lib["user_api"] == "blas" for lib in env["blas"])  # numpy's BLAS is always loaded
    assert env["freetype"] == {"version": ft2font.__freetype_version__, "build": ft2font.__freetype_build_type__}
    assert env["default_font"] == "DejaVuSans.ttf" or matplotlib.rcParams["font.family"] != ["sans-serif"]
    assert env["zlib"] == {"python": zlib.ZLIB_RUNTIME_VERSION, "pillow": features.version("zlib")}
    for name in ("numpy", "matplotlib", "pillow", "fonttools", "kiwisolver", "scipy"):
        assert env["packages"][name] == version(name)
    # Nothing machine-specific beyond a file name: no absolute paths, no host name.
    text = json.dumps(env)
    assert f'"{platform.node()}"' not in text and "/" not in text


# ------------------------------------------------------------ examples of pipeline.figures


def test_figure_files_example():
    expected = ["01_contributions.png", "01_contributions.pdf", "01_contributions.json"]
    assert [p.name for p in figure_files("01_contributions", "figures")] == expected


def test_save_figure_example():
    import tempfile

    from matplotlib.figure import Figure

    fig = Figure()
    _ = fig.subplots().plot([1, 2, 3])
    folder = tempfile.mkdtemp()
    paths = save_figure(
        fig,
        "01_example",
        figures_dir=folder,
        caption="A line.",
        notebook="01_worked_example.ipynb",
        parameters={"k": 6},
    )
    assert [p.name for p in paths] == ["01_example.png", "01_example.pdf", "01_example.json"]
    assert read_provenance(paths[2])["parameters"] == {"k": 6}


def test_write_index_example():
    import tempfile

    from matplotlib.figure import Figure

    folder = tempfile.mkdtemp()
    _ = save_figure(
        Figure(), "01_empty", figures_dir=folder, caption="Nothing.", notebook="01_worked_example.ipynb", parameters={}
    )
    expected = "| `01_empty` | `01_worked_example.ipynb` | Nothing. | [PNG](01_empty.png) · [PDF](01_empty.pdf) |"
    assert str(write_index(folder).read_text().splitlines()[-1]) == expected


def test_use_style_example():
    use_style()
    assert matplotlib.rcParams["axes.grid"]


def test_rerun_environment_example():
    env = rerun_environment()
    assert sorted(env) == ["blas", "default_font", "freetype", "numpy_simd", "packages", "platform", "zlib"]
    assert env["packages"]["numpy"] == np.__version__


def test_seed_text_example():
    assert (figures.seed_text(2014), figures.seed_text([1, 2]), figures.seed_text(None)) == (
        "seed 2014",
        "seed [1, 2]",
        "no random draws",
    )


def test_read_provenance_refuses_a_record_without_figure_and_caption(tmp_path):
    path = tmp_path / "01_example.json"
    path.write_text(json.dumps({"figure": "01_example", "caption": "A line.", "seed": 3}))
    assert read_provenance(path)["seed"] == 3
    path.write_text("{}")
    with pytest.raises(ValueError, match=r"is not a figure provenance record \(no 'figure'/'caption' keys\)"):
        read_provenance(path)


def test_a_longdouble_is_written_as_a_float():
    from ndcg_research.pipeline.figures import _to_json

    assert _to_json(np.longdouble(0.5), "x") == 0.5 and type(_to_json(np.longdouble(0.5), "x")) is float
