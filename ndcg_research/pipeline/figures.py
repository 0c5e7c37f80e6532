"""Deterministic figure files with provenance: :func:`save_figure` writes ``<name>.png`` (at :data:`PNG_DPI`),
``<name>.pdf`` and ``<name>.json`` (notebook, caption, parameters, seed, versions, git state, hashes, layout and
the rerun environment), with no dates or versions in the images, so an unchanged figure is byte-identical.
:func:`write_index` indexes a folder's records in ``README.md``. Imports Matplotlib (:mod:`ndcg_research` does not)."""

from __future__ import annotations

import contextlib
import hashlib
import json
import math
import os
import platform
import subprocess
import zlib
from collections.abc import Mapping, Sequence
from importlib import metadata
from pathlib import Path
from typing import Any

import matplotlib
import numpy as np
from matplotlib.figure import Figure

from .._validation import check_instance, check_path

#: Resolution of the PNG files, in dots per inch.
PNG_DPI = 200

#: Machine-specific output paths, never recorded in the provenance.
_PATH_PARAMETERS = frozenset({"figures_dir", "results_dir"})

#: Metadata that removes dates and version strings from the image files.
_PDF_METADATA: dict[str, Any] = {"CreationDate": None, "ModDate": None, "Creator": None, "Producer": None}
_PNG_METADATA: dict[str, Any] = {"Software": None}

#: Folder (relative to the repository's top) of result tables that runs write; never counts as a change.
RUN_OUTPUTS = "results"


def _check_name(name: Any) -> str:
    """``name`` if it is a figure's file stem: a non-empty str without a path separator, not ``.`` or ``..`` (a name
    such as ``../x`` wrote outside the figures folder, ``None`` wrote ``None.png``)."""
    check_instance(name, "name", str)
    separators = [sep for sep in ("/", "\\", os.sep, os.altsep) if sep]
    if name in ("", ".", "..") or any(sep in name for sep in separators) or name != name.strip():
        raise ValueError(f"name must be a figure's file stem (no folder, no path separator), got {name!r}")
    return name


def figure_files(name: str, figures_dir: str | os.PathLike[str]) -> list[Path]:
    """The PNG, PDF and JSON files of figure ``name`` in ``figures_dir``."""
    _check_name(name)
    return [Path(check_path(figures_dir, "figures_dir")) / f"{name}{suffix}" for suffix in (".png", ".pdf", ".json")]


def save_figure(
    fig: Figure,
    name: str,
    *,
    figures_dir: str | os.PathLike[str],
    caption: str,
    notebook: str,
    parameters: Mapping[str, Any],
    seed: int | Sequence[int] | None = None,
) -> list[Path]:
    """Write ``fig`` as ``<name>.png`` and ``<name>.pdf`` plus its provenance ``<name>.json``; return the three files.
    ``parameters`` must convert to JSON (TypeError otherwise); the machine-specific output folders are dropped.
    Every argument is checked before a file is written (a bad caption left a PNG and a PDF without a record)."""
    check_instance(fig, "fig", Figure, what="a matplotlib Figure")
    _check_name(name)
    folder = Path(check_path(figures_dir, "figures_dir"))
    check_instance(caption, "caption", str)
    check_instance(notebook, "notebook", str)
    if not notebook:  # Path("") is the working directory
        raise ValueError("notebook must name the notebook that makes the figure, got an empty string")
    check_instance(parameters, "parameters", Mapping)
    png, pdf, record = figure_files(name, folder)
    stored = {str(k): _to_json(v, f"parameters[{k!r}]") for k, v in parameters.items() if k not in _PATH_PARAMETERS}
    clean_seed = _to_json(seed, "seed")
    folder.mkdir(parents=True, exist_ok=True)  # (only once every argument is known to be good)

    fig.savefig(png, format="png", dpi=PNG_DPI, metadata=_PNG_METADATA)
    fig.savefig(pdf, format="pdf", metadata=_PDF_METADATA)

    # A notebook runs in its own folder (papermill's cwd, JupyterLab's): ``notebook`` is found from there.
    commit, dirty, notebook_path = _git_state(exclude=folder, notebook=Path(notebook).resolve())
    provenance = {
        "figure": name,
        "caption": caption.strip(),
        "notebook": notebook,
        "notebook_path": notebook_path,
        "files": {"png": png.name, "pdf": pdf.name},
        "sha256": {kind: hashlib.sha256(path.read_bytes()).hexdigest() for kind, path in (("png", png), ("pdf", pdf))},
        "parameters": stored,
        "seed": clean_seed,
        "package_version": _package_version("ndcg_research"),
        "git": {"commit": commit, "dirty": dirty},
        "versions": {
            "python": platform.python_version(),
            "numpy": np.__version__,
            "matplotlib": matplotlib.__version__,
        },
        "environment": rerun_environment(),
        "png_dpi": PNG_DPI,
        "layout": figure_layout(fig, png),
    }
    record.write_text(json.dumps(provenance, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    return [png, pdf, record]


def figure_layout(fig: Figure, png: str | os.PathLike[str]) -> dict[str, Any]:
    """The saved size (from the PNG) and every text drawn with the smallest font size: legibility at a print width."""
    from matplotlib import text as mtext
    from PIL import Image

    with Image.open(png) as image:
        width, height = image.size
    drawn: list[tuple[str, float]] = []
    draw = mtext.Text.draw

    def recording_draw(self: mtext.Text, renderer: Any) -> None:
        if self.get_visible() and self.get_text().strip():
            drawn.append((self.get_text(), float(self.get_fontsize())))
        draw(self, renderer)

    mtext.Text.draw = recording_draw  # type: ignore[method-assign]  # only the texts really drawn: ticks in view
    try:
        fig.draw_without_rendering()
    finally:
        mtext.Text.draw = draw  # type: ignore[method-assign]
    return {
        "width_cm": round(width / PNG_DPI * 2.54, 2),
        "height_cm": round(height / PNG_DPI * 2.54, 2),
        "smallest_text_pt": min((size for _, size in drawn), default=None),
        "texts": sorted({text for text, _ in drawn}),
    }


def seed_text(seed: Any) -> str:
    """A provenance record's seed in a sentence: ``'seed 2014'``, or ``'no random draws'`` for ``None``."""
    return "no random draws" if seed is None else f"seed {seed}"


def read_provenance(path: str | os.PathLike[str]) -> dict[str, Any]:
    """The provenance record ``path`` written by :func:`save_figure`; ValueError if it is not one."""
    path = Path(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise ValueError(f"{path} is not valid JSON: {exc}") from exc
    if not isinstance(data, dict) or "figure" not in data or "caption" not in data:
        raise ValueError(f"{path} is not a figure provenance record (no 'figure'/'caption' keys)")
    return data


def write_index(figures_dir: str | os.PathLike[str], *, title: str = "Figures") -> Path:
    """Write and return ``<figures_dir>/README.md``: one row per provenance record, by name (no dates: no churn).
    ``figures_dir`` must be a folder that exists (a typo made a new folder holding an empty index)."""
    folder = Path(check_path(figures_dir, "figures_dir"))
    check_instance(title, "title", str)  # None wrote "# None"
    if not folder.is_dir():
        wrong = "is not a folder" if folder.exists() else "does not exist"
        raise ValueError(f"figures_dir {str(figures_dir)!r} {wrong}")
    records = []
    for path in sorted(folder.glob("*.json")):
        with contextlib.suppress(ValueError):
            records.append(read_provenance(path))
    records.sort(key=lambda r: str(r["figure"]))

    lines = [
        f"# {title}",
        "",
        "Generated by `python -m ndcg_research reproduce` from the provenance records",
        "(`<name>.json`) beside each figure; do not edit by hand. Each record names the notebook,",
        "its parameters, the seed, the package version and the git commit that made the figure.",
        "",
        "| Figure | Notebook | Caption | Files |",
        "|---|---|---|---|",
    ]
    for record in records:
        name = str(record["figure"])
        files = record.get("files", {})
        links = " · ".join(f"[{kind.upper()}]({files[kind]})" for kind in ("png", "pdf") if kind in files)
        caption = str(record["caption"]).replace("|", "\\|")
        lines.append(f"| `{name}` | `{record.get('notebook', '?')}` | {caption} | {links} |")
    if not records:
        lines.append("| (none yet) | | | |")
    index = folder / "README.md"
    index.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return index


#: The project's Matplotlib style (:func:`use_style`): readable fonts, light grid, no clipping.
PROJECT_STYLE: dict[str, Any] = {
    "figure.figsize": (7.0, 4.0),
    "figure.dpi": 100,
    "figure.constrained_layout.use": True,
    "font.size": 11,
    "axes.titlesize": 12,
    "axes.labelsize": 11,
    "legend.fontsize": 10,
    "xtick.labelsize": 10,
    "ytick.labelsize": 10,
    "axes.grid": True,
    "grid.alpha": 0.3,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "savefig.bbox": "tight",
    "pdf.fonttype": 42,
    "svg.hashsalt": "ndcg_research",
}


def use_style() -> None:
    """Apply :data:`PROJECT_STYLE` (only ``rcParams``: never selects a backend)."""
    matplotlib.rcParams.update(PROJECT_STYLE)


#: Packages whose versions can change the numbers or the drawing of a figure.
RERUN_PACKAGES = tuple(
    "ndcg_research numpy scipy pandas matplotlib pillow fonttools kiwisolver contourpy joblib threadpoolctl".split()
)


def rerun_environment() -> dict[str, Any]:
    """What else must match for a byte-identical rerun: platform and C library, NumPy's SIMD, BLAS libraries and
    threads, FreeType, the default font file, zlib versions and :data:`RERUN_PACKAGES`' versions (no machine names)."""
    from matplotlib import font_manager, ft2font
    from PIL import features

    font = font_manager.findfont(font_manager.FontProperties(family=matplotlib.rcParams["font.family"]))
    libc, libc_version = platform.libc_ver()
    simd = (np.show_config(mode="dicts") or {}).get("SIMD Extensions", {})  # built for, and dispatched to here
    return {
        "platform": {
            "system": platform.system(),
            "machine": platform.machine(),
            "libc": f"{libc} {libc_version}".strip() or None,
            "python_implementation": platform.python_implementation(),
            "python": platform.python_version(),
        },
        "numpy_simd": {key: list(simd.get(key, [])) for key in ("baseline", "found")},
        "blas": _blas_libraries(),
        "freetype": {"version": ft2font.__freetype_version__, "build": ft2font.__freetype_build_type__},
        "default_font": Path(font).name,
        "zlib": {"python": zlib.ZLIB_RUNTIME_VERSION, "pillow": features.version("zlib")},
        "packages": {name: _package_version(name) for name in RERUN_PACKAGES},
    }


def _package_version(name: str) -> str | None:
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return None


def _blas_libraries() -> list[dict[str, Any]]:
    try:
        from threadpoolctl import threadpool_info
    except ImportError:  # pragma: no cover - threadpoolctl is a pinned dependency
        return []
    keys = ("user_api", "internal_api", "version", "architecture", "threading_layer", "num_threads")
    blas = [
        {key: lib.get(key) for key in keys} | {"library": Path(str(lib.get("filepath", ""))).name}
        for lib in threadpool_info()
    ]
    return sorted(blas, key=lambda lib: json.dumps(lib, sort_keys=True))


def _to_json(value: Any, where: str) -> Any:
    if isinstance(value, np.floating):  # .item() of a longdouble stays a longdouble
        value = float(value)
    elif isinstance(value, (np.integer, np.bool_, np.ndarray)):
        value = value.tolist()
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, int):
        return int(value)
    if isinstance(value, float):
        return value if math.isfinite(value) else str(value)
    if isinstance(value, os.PathLike):
        return os.fspath(value)
    if isinstance(value, Mapping):
        return {str(k): _to_json(v, f"{where}[{k!r}]") for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_to_json(v, f"{where}[{i}]") for i, v in enumerate(value)]
    raise TypeError(f"{where} cannot be stored as JSON: {value!r} of type {type(value).__name__}")


def _git_state(
    exclude: Path | None = None, source: Path | None = None, notebook: Path | None = None
) -> tuple[str | None, bool | None, str | None]:
    """``(commit, dirty, notebook's path)`` of the repository holding ``source`` (default: the folder of ``notebook``,
    the checkout that ran, wherever the package is installed; without one, the package's; None without git); ``dirty``
    ignores the figures folder (``exclude``) and ``results/``, which a publishing run rewrites as it goes. With the
    ``notebook`` that made the figure, ``dirty`` is also True if it is a file of the checkout other than a committed
    one (changed, untracked or ignored); a clean checkout is None where that notebook is missing or outside it (the
    commit does not say what ran). Its path is relative to the checkout's top, absolute outside it, None if missing."""
    found = notebook if notebook is not None and notebook.is_file() else None
    if source is None:  # (a package installed in site-packages is in no checkout, or in another project's)
        source = found.parent if found is not None else Path(__file__).resolve().parent

    def git(*args: str) -> str:
        return subprocess.run(
            ["git", *args], cwd=source, capture_output=True, text=True, timeout=30, check=True
        ).stdout.strip()

    try:
        commit = git("rev-parse", "HEAD")
        top = Path(git("rev-parse", "--show-toplevel")).resolve()
    except (OSError, subprocess.SubprocessError):
        return None, None, None if found is None else str(found)
    inside = found is not None and found.is_relative_to(top)
    path = found.relative_to(top).as_posix() if inside else None if found is None else str(found)
    pathspec = [":/", f":(top,exclude){RUN_OUTPUTS}"]
    folder = exclude.resolve() if exclude is not None else top
    if folder != top and folder.is_relative_to(top):
        pathspec.append(f":(top,exclude){folder.relative_to(top).as_posix()}")
    try:
        status = git("status", "--porcelain", "--untracked-files=no", "--", *pathspec)
        if inside:
            status += git("status", "--porcelain", "--untracked-files=all", "--ignored", "--", f":(top){path}")
    except (OSError, subprocess.SubprocessError):
        return commit, None, path
    unknown = notebook is not None and not inside  # (a dirty checkout is dirty whatever ran)
    return commit, True if status else None if unknown else False, path
