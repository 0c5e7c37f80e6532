"""Save figures for citing: deterministic PNG and PDF files with a provenance record.

Every figure of the project is saved through :func:`save_figure`, which writes three files with one stable name
(``NN_short_description``, where ``NN`` is the number of the notebook that makes it):

- ``<name>.png``: raster at a fixed resolution (:data:`PNG_DPI`),
- ``<name>.pdf``: vector version for papers,
- ``<name>.json``: provenance (notebook, caption, parameters, seed, package version, git commit and whether the work
  tree had uncommitted changes, Python/NumPy/Matplotlib versions, SHA-256 of the two image files), under ``layout`` the
  saved size and every text the figure draws with its smallest size (:func:`figure_layout`: what a reader can read at a
  given print width), and under ``environment`` what else must match for a byte-identical rerun
  (:func:`rerun_environment`: platform, C library, CPU features NumPy uses, BLAS, FreeType, default font, and the
  versions of the packages that compute or draw).

The image files carry no creation date and no software version, so saving the same figure twice gives byte-identical
files and regenerated figures only show up in ``git diff`` when they really changed.

:func:`write_index` turns the provenance records of a folder into a Markdown index (``README.md``) with one row per
figure.

This module imports Matplotlib; :mod:`ndcg_research` itself does not import it.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import math
import os
import platform
import re
import subprocess
import zlib
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import matplotlib
import numpy as np
from matplotlib.figure import Figure

#: Resolution of the PNG files, in dots per inch.
PNG_DPI = 200

#: A figure name: two digits (the notebook number), an underscore, then lower-case
#: words joined by underscores, e.g. ``01_contributions``.
FIGURE_NAME_PATTERN = re.compile(r"^\d{2}_[a-z0-9]+(?:_[a-z0-9]+)*$")

#: Parameters never recorded in the provenance: machine-specific output paths.
_PATH_PARAMETERS = frozenset({"figures_dir", "results_dir"})

#: Metadata that removes dates and version strings from the image files.
_PDF_METADATA: dict[str, Any] = {"CreationDate": None, "ModDate": None, "Creator": None, "Producer": None}
_PNG_METADATA: dict[str, Any] = {"Software": None}

#: The files written for each figure, by suffix.
_SUFFIXES = (".png", ".pdf", ".json")
#: Folder (relative to the repository's top) of result tables that runs write; never counts as a change.
RUN_OUTPUTS = "results"

INDEX_NAME = "README.md"


def figure_files(name: str, figures_dir: str | os.PathLike[str]) -> list[Path]:
    """The three files of figure ``name`` (``"01_contributions"``) in ``figures_dir``: PNG, PDF and JSON."""
    return [Path(figures_dir) / f"{name}{suffix}" for suffix in _SUFFIXES]


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
    """Write ``fig`` as ``<name>.png`` and ``<name>.pdf`` plus a provenance record ``<name>.json``.

    The PNG is rendered at :data:`PNG_DPI` dots per inch; both image files are written without creation dates or
    software versions, so two saves of the same figure are byte-identical.

    Parameters
    ----------
    fig : matplotlib.figure.Figure
        The figure to save.
    name : str
        Stable figure name ``NN_short_description`` (two-digit notebook number, then lower-case words joined by
        underscores), e.g. ``"01_contributions"``.
    figures_dir : str or path-like
        Output folder; created if missing.
    caption : str
        One-line caption, shown in the figure index. Must not be empty.
    notebook : str
        The notebook that makes the figure, e.g. ``"01_worked_example.ipynb"``.
    parameters : mapping
        The parameters the figure depends on. Values must be JSON-serialisable (NumPy scalars and arrays, tuples and
        paths are converted). The output paths ``figures_dir`` and ``results_dir`` are dropped, since they differ
        between machines and do not change the figure.
    seed : int or sequence of int, optional
        The random seed (or ``SeedSequence`` entropy) the figure's data came from; ``None`` for figures without
        randomness.

    Returns
    -------
    list of pathlib.Path
        The three files written: PNG, PDF, JSON.

    Raises
    ------
    TypeError
        If a parameter cannot be stored as JSON.
    """
    folder = Path(figures_dir)
    folder.mkdir(parents=True, exist_ok=True)
    png, pdf, record = figure_files(name, folder)
    stored = {str(k): _to_json(v, f"parameters[{k!r}]") for k, v in parameters.items() if k not in _PATH_PARAMETERS}
    clean_seed = _to_json(seed, "seed")

    fig.savefig(png, format="png", dpi=PNG_DPI, metadata=_PNG_METADATA)
    fig.savefig(pdf, format="pdf", metadata=_PDF_METADATA)

    commit, dirty = _git_state(exclude=folder)
    provenance = {
        "figure": name,
        "caption": caption.strip(),
        "notebook": notebook,
        "files": {"png": png.name, "pdf": pdf.name},
        "sha256": {"png": _sha256(png), "pdf": _sha256(pdf)},
        "parameters": stored,
        "seed": clean_seed,
        "package_version": _package_versions(["ndcg_research"])["ndcg_research"],
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
    """The size of a saved figure and the texts it draws: what decides whether it can be read at a print width.

    ``fig``: the figure; ``png``: its PNG file as :func:`save_figure` wrote it (at :data:`PNG_DPI`, cropped to
    its content), whose pixels give the saved size.

    Returns dict: ``width_cm``, ``height_cm`` (the PNG's size, 2 decimals), ``smallest_text_pt`` (the smallest
    font size of the texts drawn, None if none) and ``texts`` (every text drawn, titles, labels, tick labels and
    legend entries, each once, sorted).
    """
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


def printed_text_pt(layout: Mapping[str, Any], width_cm: float) -> float:
    """The smallest text of a figure, in points, when it is printed ``width_cm`` wide (its ``layout`` from
    :func:`figure_layout`): the smallest font size scaled by the print width over the saved width.

    >>> printed_text_pt({"width_cm": 17.0, "smallest_text_pt": 10.0}, 8.5)
    5.0
    """
    return float(layout["smallest_text_pt"]) * width_cm / float(layout["width_cm"])


def seed_text(seed: Any) -> str:
    """How a provenance record's seed reads in a sentence: ``'seed 2014'``, or ``'no random draws'`` for ``None``.

    >>> seed_text(2014), seed_text([1, 2]), seed_text(None)
    ('seed 2014', 'seed [1, 2]', 'no random draws')
    """
    return "no random draws" if seed is None else f"seed {seed}"


def read_provenance(path: str | os.PathLike[str]) -> dict[str, Any]:
    """The provenance record ``path`` (a ``<name>.json`` file) written by :func:`save_figure`, as a dict; ValueError
    if the file is not a figure provenance record.

    Examples
    --------
    >>> import json, tempfile
    >>> p = Path(tempfile.mkdtemp()) / "01_example.json"
    >>> _ = p.write_text(json.dumps({"figure": "01_example", "caption": "A line.", "seed": 3}))
    >>> read_provenance(p)["seed"]
    3
    >>> _ = p.write_text("{}")
    >>> read_provenance(p)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: ... is not a figure provenance record (no 'figure'/'caption' keys)
    """
    path = Path(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise ValueError(f"{path} is not valid JSON: {exc}") from exc
    if not isinstance(data, dict) or "figure" not in data or "caption" not in data:
        raise ValueError(f"{path} is not a figure provenance record (no 'figure'/'caption' keys)")
    return data


def write_index(figures_dir: str | os.PathLike[str], *, title: str = "Figures") -> Path:
    """Write ``<figures_dir>/README.md``, a table of every figure in the folder.

    One row per provenance record (``*.json`` with ``figure`` and ``caption`` keys), sorted by figure name: name,
    notebook, caption and links to the PNG and PDF files. The index contains nothing that changes between runs of the
    same code (no dates), so regenerating it does not churn. ``figures_dir``: the folder to index, created if missing;
    ``title``: heading of the index. Returns the index file.
    """
    folder = Path(figures_dir)
    folder.mkdir(parents=True, exist_ok=True)
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
    index = folder / INDEX_NAME
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
    """Apply the project's Matplotlib style (:data:`PROJECT_STYLE`): readable fonts, light grid, no clipping.

    Works under any backend (including the non-interactive ``Agg``); it only changes ``rcParams`` and never selects a
    backend.
    """
    matplotlib.rcParams.update(PROJECT_STYLE)


#: Packages whose versions can change the numbers or the drawing of a figure.
RERUN_PACKAGES = tuple(
    "ndcg_research numpy scipy pandas matplotlib pillow fonttools kiwisolver contourpy joblib threadpoolctl".split()
)


def rerun_environment() -> dict[str, Any]:
    """Describe what, besides the code, the parameters and the seed, must match for a byte-identical rerun.

    Equal code, parameters and seed give equal figures only on an equal floating-point stack and renderer. This records
    that stack:

    - ``platform``: operating system, machine architecture, C library, Python implementation and version (maths
      functions of the C library can differ in the last bit);
    - ``numpy_simd``: the CPU instruction sets NumPy dispatches to on this machine (vectorised sums and transcendental
      functions round differently with different instruction sets);
    - ``blas``: each BLAS/OpenMP library loaded (as seen by ``threadpoolctl``): implementation, version, the kernel
      architecture it chose and the number of threads (a different thread count can change the order of a sum);
    - ``freetype``: the FreeType version Matplotlib renders text with, and whether it is Matplotlib's own build
      (``local``) or the system's;
    - ``default_font``: the file name of the font Matplotlib resolves for the default family (a system font of the same
      name would draw differently);
    - ``zlib``: the zlib that compresses the PDF streams (Python's) and the PNG data (Pillow's): another zlib version
      can compress to other bytes;
    - ``packages``: versions of :data:`RERUN_PACKAGES` (``None`` if not installed).

    Nothing here names the machine or a path beyond a file name, so records from equal environments are equal.
    Returns a JSON-serialisable dict.
    """
    from matplotlib import font_manager, ft2font

    font = font_manager.findfont(font_manager.FontProperties(family=matplotlib.rcParams["font.family"]))
    libc, libc_version = platform.libc_ver()
    return {
        "platform": {
            "system": platform.system(),
            "machine": platform.machine(),
            "libc": f"{libc} {libc_version}".strip() or None,
            "python_implementation": platform.python_implementation(),
            "python": platform.python_version(),
        },
        "numpy_simd": _numpy_simd(),
        "blas": _blas_libraries(),
        "freetype": {"version": ft2font.__freetype_version__, "build": ft2font.__freetype_build_type__},
        "default_font": Path(font).name,
        "zlib": {"python": zlib.ZLIB_RUNTIME_VERSION, "pillow": _pillow_zlib()},
        "packages": _package_versions(RERUN_PACKAGES),
    }


def _package_versions(names: Sequence[str]) -> dict[str, str | None]:
    """The installed version of each package (``None``: not installed)."""
    from importlib import metadata

    packages: dict[str, str | None] = {}
    for name in names:
        try:
            packages[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            packages[name] = None
    return packages


def _numpy_simd() -> dict[str, Any]:
    """The CPU instruction sets NumPy was built for (baseline) and dispatches to on this machine (found)."""
    try:
        config = np.show_config(mode="dicts") or {}
        extensions = config.get("SIMD Extensions", {})
        return {"baseline": list(extensions.get("baseline", [])), "found": list(extensions.get("found", []))}
    except Exception:  # pragma: no cover - NumPy < 1.25 has no mode="dicts"
        return {}


def _blas_libraries() -> list[dict[str, Any]]:
    """The BLAS/OpenMP libraries loaded (threadpoolctl's view), in a stable order."""
    blas: list[dict[str, Any]] = []
    try:
        from threadpoolctl import threadpool_info

        keys = ("user_api", "internal_api", "version", "architecture", "threading_layer", "num_threads")
        for lib in threadpool_info():
            blas.append({key: lib.get(key) for key in keys} | {"library": Path(str(lib.get("filepath", ""))).name})
    except ImportError:  # pragma: no cover - threadpoolctl is a pinned dependency
        pass
    blas.sort(key=lambda lib: json.dumps(lib, sort_keys=True))
    return blas


def _pillow_zlib() -> str | None:
    try:
        from PIL import features

        return features.version("zlib")
    except Exception:  # pragma: no cover - Pillow is a dependency of Matplotlib
        return None


# --------------------------------------------------------------------------- helpers


def _to_json(value: Any, where: str) -> Any:
    """Convert ``value`` to plain JSON types, or raise ``TypeError`` naming ``where``."""
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, (int, np.integer)):  # bools returned above
        return int(value)
    if isinstance(value, (float, np.floating)):
        number = float(value)
        return number if math.isfinite(number) else str(number)
    if isinstance(value, np.bool_):
        return bool(value)
    if isinstance(value, np.ndarray):
        return [_to_json(v, f"{where}[{i}]") for i, v in enumerate(value.tolist())]
    if isinstance(value, os.PathLike):
        return os.fspath(value)
    if isinstance(value, Mapping):
        return {str(k): _to_json(v, f"{where}[{k!r}]") for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_to_json(v, f"{where}[{i}]") for i, v in enumerate(value)]
    raise TypeError(f"{where} cannot be stored as JSON: {value!r} of type {type(value).__name__}")


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _git_state(exclude: Path | None = None, source: Path | None = None) -> tuple[str | None, bool | None]:
    """Return ``(commit, dirty)`` of the repository holding this package (or ``source``).

    ``dirty`` is whether tracked files differ from the commit, ignoring the figures folder itself (``exclude``) and the
    repository's ``results/`` folder: a publishing run rewrites both (figures and result tables) as it goes, and its
    own outputs must not make the record of its later figures dirty. Both are ``None`` outside a git work tree or
    without git.
    """
    source = Path(__file__).resolve().parent if source is None else source

    def git(*args: str) -> str:
        return subprocess.run(
            ["git", *args], cwd=source, capture_output=True, text=True, timeout=30, check=True
        ).stdout.strip()

    try:
        commit = git("rev-parse", "HEAD")
        top = Path(git("rev-parse", "--show-toplevel")).resolve()
    except (OSError, subprocess.SubprocessError):
        return None, None
    if not commit:
        return None, None
    pathspec = [":/", f":(top,exclude){RUN_OUTPUTS}"]
    if exclude is not None:
        try:
            relative = exclude.resolve().relative_to(top)
            if relative.parts:
                pathspec.append(f":(top,exclude){relative.as_posix()}")
        except ValueError:
            pass
    try:
        status = git("status", "--porcelain", "--untracked-files=no", "--", *pathspec)
    except (OSError, subprocess.SubprocessError):
        return commit, None
    return commit, bool(status)
