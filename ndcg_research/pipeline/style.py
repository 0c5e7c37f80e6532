"""What the studies' figures share: plotted values, row selection, panel grids, labels, legends, log ticks, error
bars, the mark of an undefined value, shared markers and colours, and the one-column headline figure
(:func:`column_figure`). A plot of one notebook lives in its study's ``plots.py``."""

from __future__ import annotations

import contextlib
import itertools
import math
import textwrap
from collections.abc import Iterator, Sequence
from typing import Any

import matplotlib
import numpy as np
import pandas as pd
from matplotlib import colormaps
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.font_manager import FontProperties
from matplotlib.lines import Line2D
from matplotlib.ticker import FuncFormatter, LogLocator

from ..core import parse_discount
from .figures import PROJECT_STYLE
from .tables import select  # (the plots call style.select: rows as a figure draws them)

#: Marker shapes and line styles, cycled over the lines (pairs: :data:`PAIR_MARKERS`) of a panel.
MARKERS = "osD^vP*X"
PAIR_MARKERS = "os^D"
LINESTYLES = ("-", "--", "-.", ":")
#: How an undefined value is drawn in every figure, and its legend entry.
UNDEFINED_STYLE = dict(marker="x", color="0.45", ls="none", ms=6, mew=1.5)
UNDEFINED_LABEL = "undefined (every gap is 0)"
#: The share of data sets where the better ranker scores higher, with its Wilson interval.
P_BETTER = ("p_better", "p_better_low", "p_better_high")
#: The exponent panels show at most this range: an interval wider than it says nothing and would squash the rest.
EXPONENT_RANGE = 1.0

#: One journal column (cm), the smallest text a headline may show at that width (pt), the saved margin (inches).
COLUMN_WIDTH_CM = 8.5
MIN_TEXT_PT = 7.0
SAVE_PAD_INCHES = 0.1
#: The style of a column-wide figure whatever the notebook's global style: the project's with column-sized text.
COLUMN_STYLE = {
    **PROJECT_STYLE,
    "savefig.pad_inches": SAVE_PAD_INCHES,
    "font.size": 7.5,
    "axes.titlesize": 7.5,
    "axes.labelsize": 7.5,
    "legend.fontsize": 7.0,
    "xtick.labelsize": 7.0,
    "ytick.labelsize": 7.0,
    "lines.linewidth": 1.1,
    "lines.markersize": 3.5,
    "legend.handlelength": 1.6,
    "legend.columnspacing": 1.0,
    "legend.handletextpad": 0.4,
    "legend.borderaxespad": 0.3,
    "axes.titlelocation": "left",
    "xtick.major.pad": 2.0,
    "ytick.major.pad": 2.0,
}


@contextlib.contextmanager
def column_figure(height_cm: float, rows: int = 1, cols: int = 1, **subplots: Any) -> Iterator[tuple[Figure, Any]]:
    """Yield a figure and its flat axes whose saved file (in :data:`COLUMN_STYLE`, as ``save_headline`` saves) is at
    most one column wide, the saving margins included; draw inside the block, where the style holds."""
    with matplotlib.rc_context(COLUMN_STYLE):
        fig = Figure(figsize=(COLUMN_WIDTH_CM / 2.54 - 2 * SAVE_PAD_INCHES, height_cm / 2.54), layout="constrained")
        fig.get_layout_engine().set(w_pad=0.02, h_pad=0.02, wspace=0.04, hspace=0.04)
        yield fig, fig.subplots(rows, cols, squeeze=False, **subplots).ravel()


def column_legend(fig: Figure, axes: Sequence[Axes], ncols: int, xlabel: str | None = "list length n") -> Figure:
    """``fig`` with its first panel's legend below it and ``xlabel`` under its last panel (a column-wide figure)."""
    if xlabel:
        axes[-1].set_xlabel(xlabel)
    fig.legend(*axes[0].get_legend_handles_labels(), loc="outside lower center", ncols=ncols, frameon=False)
    return fig


#: Colours by class of discount (a dash and a marker tell a class's members apart); log2 is black, thick, on top.
CLASS_COLOURS = {
    "slowly varying": ("#2171b5", "#6baed6", "#08306b"),
    "regularly varying": ("#238b45", "#74c476"),
    "critical": ("#e6550d",),
    "summable": ("#a50f15", "#ae017e", "#fb6a4a"),
    "constant": ("0.55",),
}


def discount_styles(discounts: Sequence[str]) -> dict[str, dict[str, Any]]:
    """Line style (``color``, ``ls``, ``marker``, ``lw``, ``zorder``) per discount: by class, log2 black on top."""
    seen: dict[str, int] = {}
    styles = {}
    for spec in discounts:
        decay = parse_discount(spec).decay
        if spec == "log2":
            styles[spec] = dict(color="black", ls="-", marker="o", lw=2.4, zorder=5)
            continue
        k = seen[decay] = seen.get(decay, -1) + 1
        palette = CLASS_COLOURS.get(decay, ("0.3",))
        colour = palette[k % len(palette)]
        styles[spec] = dict(
            color=colour, ls=LINESTYLES[k % len(LINESTYLES)], marker=MARKERS[(k + 1) % len(MARKERS)], lw=1.5, zorder=3
        )
    return styles


def column_discount_styles(discounts: Sequence[str]) -> dict[str, dict[str, Any]]:
    """:func:`discount_styles` sized for a column-wide figure, with a marker per discount (print loses colours)."""
    return {
        d: {
            **style,
            "lw": 1.6 if d == "log2" else 1.0,
            "ms": 3.5,
            "marker": "o" if d == "log2" else MARKERS[(i + 1) % len(MARKERS)],
        }
        for i, (d, style) in enumerate(discount_styles(discounts).items())
    }


def round_significant(values: Any, digits: int = 8) -> np.ndarray:
    """Values rounded to ``digits`` significant digits (NaN and infinities kept): what goes into a plot."""
    array = np.asarray(values, dtype=np.float64)
    flat = [float(f"{v:.{digits}g}") if math.isfinite(v) else v for v in array.ravel().tolist()]
    return np.array(flat, dtype=np.float64).reshape(array.shape)


def crossing_n(crossings: pd.DataFrame, first: str, second: str, discount: str) -> float:
    """The n at which ``discount``'s expected gap of ``first`` over ``second`` changes sign; NaN if none is listed."""
    rows = select(crossings, first=first, second=second, discount=discount)
    return float(rows["crossing_n"].iloc[0]) if len(rows) else float("nan")


def plotted_column(rows: pd.DataFrame, name: str) -> np.ndarray:
    """A column as float64 values rounded for plotting (:func:`round_significant`)."""
    return round_significant(rows[name].to_numpy(dtype=np.float64))


#: The width (inches at the notebooks' ``figure.dpi`` of 100) at which the documentation site and JupyterLab show a
#: figure, about 896 px: a wider figure is shrunk to it, and its text with it.
READER_WIDTH_IN = 8.96


def reader_columns(count: int, panel_width: float) -> int:
    """How many of ``count`` panels ``panel_width`` inches wide fit side by side in :data:`READER_WIDTH_IN` (at least
    one): a grid of rows of that many panels is shown at its own size, its text as large as it was drawn.

    >>> reader_columns(8, 3.3), reader_columns(1, 3.3), reader_columns(3, 9.5)
    (2, 1, 1)
    """
    return max(1, min(count, math.floor(READER_WIDTH_IN / panel_width)))


#: The margin (inches) a notebook's figure is saved with on each side (``savefig.pad_inches``, Matplotlib's default).
NOTEBOOK_SAVE_PAD_INCHES = 0.1


def reader_panel_width(cols: int) -> float:
    """The widest panel (inches) of which ``cols`` side by side, with the saved margins, fit in
    :data:`READER_WIDTH_IN`: a row of them is shown at its own size, its text as large as it was drawn.

    >>> round(reader_panel_width(2), 2), round(reader_panel_width(3), 2)
    (4.38, 2.92)
    """
    if cols < 1:
        raise ValueError(f"cols must be at least 1, got {cols!r}")
    return (READER_WIDTH_IN - 2 * NOTEBOOK_SAVE_PAD_INCHES) / cols


def panel_grid(count: int, cols: int, size: tuple[float, float] = (3.3, 2.7), **kw: Any) -> tuple[Figure, np.ndarray]:
    """A figure and its flat axes: ``count`` panels of ``size`` inches in rows of ``cols``, room below for a legend."""
    fig, axes, _ = cell_grid(range(math.ceil(count / cols)), range(cols), size, **kw)
    for ax in axes.flat[count:]:
        ax.set_visible(False)
    return fig, axes.ravel()


def cell_grid(
    rows: Sequence[Any], cols: Sequence[Any], size: tuple[float, float], *, pad: float = 1.0, **kw: Any
) -> tuple[Figure, np.ndarray, list[tuple[Axes, tuple[Any, Any]]]]:
    """A panel of ``size`` inches per row and column entry, ``pad`` inches below for a legend: (figure, 2-D axes,
    [(ax, (row, column))] row by row)."""
    fig = Figure(figsize=(size[0] * len(cols), size[1] * len(rows) + pad), layout="constrained")
    axes = fig.subplots(len(rows), len(cols), squeeze=False, **kw)
    return fig, axes, list(zip(axes.flat, itertools.product(rows, cols), strict=True))


def model_panel_grid(
    models: Sequence[str], discounts: Sequence[str], size: tuple[float, float]
) -> tuple[Figure, np.ndarray, list[tuple[Axes, str, str]]]:
    """A grid with one row of panels per model and one column per discount: (figure, axes, [(ax, model, discount)])."""
    fig, axes, cells = cell_grid(models, discounts, size)
    return fig, axes.ravel(), [(ax, model, d) for ax, (model, d) in cells]


def label_rows(axes: np.ndarray, cols: int, label: str) -> None:
    """The y-axis label on the first panel of every row (of ``cols`` panels) that is shown."""
    for ax in axes[::cols]:
        if ax.get_visible():
            ax.set_ylabel(label)


def label_grid_edges(axes: np.ndarray, column_titles: Sequence[str], row_labels: Sequence[str]) -> None:
    """Titles over the top row, y labels on the first column, "n" under the bottom row of a 2-D grid of axes."""
    for ax, title in zip(axes[0], column_titles, strict=False):
        ax.set_title(title, fontsize=10)
    for ax, label in zip(axes[:, 0], row_labels, strict=False):
        ax.set_ylabel(label, fontsize=9)
    for ax in axes[-1]:
        ax.set_xlabel("n")


def wrapped_suptitle(fig: Figure, title: str) -> None:
    """``title`` over ``fig`` in lines that fit its width (a wider line widened the saved file, shrinking it on a page).

    >>> fig = Figure(figsize=(3.3, 2.0))
    >>> wrapped_suptitle(fig, "a title of several words, longer than a figure of 3.3 inches can hold on one line")
    >>> fig.get_suptitle().count("\\n") >= 1
    True
    """
    size = FontProperties(size=matplotlib.rcParams["figure.titlesize"]).get_size_in_points()
    chars = max(20, math.floor(fig.get_figwidth() * 72 / (0.6 * size)))  # (a character: about 0.6 em on average)
    fig.suptitle(textwrap.fill(title, chars))


def theory_handles(ls: str, label: str) -> list[tuple[Line2D, str]]:
    """Legend entries for a finite-n theory (solid line) and a second theory curve drawn ``ls`` named ``label``."""
    return [(Line2D([], [], color="0.3", lw=1), "finite-n theory"), (Line2D([], [], color="0.3", ls=ls, lw=1), label)]


def legend_below(fig: Figure, entries: Sequence[tuple[Any, str]], ncols: int = 5) -> None:
    """One legend below the panels from (handle, label) pairs; a repeated label keeps its place, its last handle."""
    unique = {label: handle for handle, label in entries}
    ncols = min(ncols, len(unique))
    fig.legend(list(unique.values()), list(unique), loc="outside lower center", ncols=ncols, fontsize=9, frameon=False)


def discount_title(spec: str) -> str:
    """A panel title for a discount: its spec and its class of decay."""
    return f"{spec}  ({parse_discount(spec).decay})"


def pair_label(better: str, worse: str) -> str:
    """A pair of rankers as a legend label or title."""
    return f"{better} > {worse}"


def log_ticks_1_2_5(ax: Axes) -> None:
    """Labelled log ticks on the y axis at 1, 2 and 5 times powers of ten (at least two labels on short ranges)."""
    ax.yaxis.set_major_locator(LogLocator(base=10, subs=(1.0, 2.0, 5.0)))
    ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
    ax.yaxis.set_minor_formatter(FuncFormatter(lambda v, _: ""))


def decade_ticks(ax: Axes) -> None:
    """Labelled log ticks at powers of ten only, written 10^k (Matplotlib's minor labels pile up at paper size)."""
    ax.yaxis.set_major_locator(LogLocator(base=10, numticks=12))
    ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _: "1" if v == 1 else f"$10^{{{round(math.log10(v))}}}$"))
    ax.yaxis.set_minor_formatter(FuncFormatter(lambda v, _: ""))


def decade_x_ticks(ax: Axes, n: Any, every: int = 1) -> None:
    """Log x ticks at every ``every``-th power of ten within ``n``, written 10^k, no minor labels."""
    values = np.asarray(n, dtype=np.float64)
    low, high = math.ceil(math.log10(values.min()) - 1e-9), math.floor(math.log10(values.max()) + 1e-9)
    ticks = [10.0**k for k in range(low, high + 1)][::every]
    ax.set_xticks(ticks, [n_label(t) for t in ticks])
    ax.xaxis.set_minor_formatter(FuncFormatter(lambda v, _: ""))


def n_label(n: float) -> str:
    """A count for a title or tick: ``10^k`` (math text) for a power of ten >= 10^3 or <= 10^-2, else plain."""
    value = float(n)
    exponent = round(math.log10(value)) if value > 0 else 0
    if value > 0 and math.isclose(value, 10.0**exponent) and (exponent >= 3 or exponent <= -2):
        return f"$10^{{{exponent}}}$"
    return f"{value:g}"


def n_text(n: float) -> str:
    """:func:`n_label` for plain text (a caption): ``10^3``, ``300``."""
    return n_label(n).replace("$", "").replace("{", "").replace("}", "")


def error_bar_lengths(centre: np.ndarray, low: np.ndarray, high: np.ndarray) -> np.ndarray:
    """Asymmetric error-bar lengths (2, n) for errorbar(); undefined intervals draw no bar."""
    return np.maximum(np.nan_to_num(np.stack([centre - low, high - centre])), 0.0)


def centre_and_bars(
    rows: pd.DataFrame, centre: str = "mean", low: str = "ci_low", high: str = "ci_high"
) -> tuple[np.ndarray, np.ndarray]:
    """The column ``centre`` to plot and its error-bar lengths to the columns ``low`` and ``high``."""
    values = plotted_column(rows, centre)
    return values, error_bar_lengths(values, plotted_column(rows, low), plotted_column(rows, high))


def pair_intervals(ax: Axes, x: np.ndarray, rows: pd.DataFrame, columns: Sequence[str], p: int, **style: Any) -> Any:
    """The ``p``-th pair's ``columns`` (centre, low, high) at ``x`` as error bars in its marker and colour ``C{p}``."""
    centre, bars = centre_and_bars(rows, *columns)
    return ax.errorbar(x, centre, yerr=bars, fmt=PAIR_MARKERS[p % len(PAIR_MARKERS)], color=f"C{p}", **style)


def interval_markers(
    ax: Axes, x: np.ndarray, centre: np.ndarray, low: np.ndarray, high: np.ndarray, index: int, line: str = ""
) -> Any:
    """The ``index``-th series as markers (joined by ``line``) with error bars, colour ``C{index}``; for the legend."""
    bars = error_bar_lengths(centre, low, high)
    return ax.errorbar(
        x, centre, yerr=bars, fmt=MARKERS[index % len(MARKERS)] + line, ms=4, capsize=2, lw=1, color=f"C{index}"
    )


def mark_undefined(ax: Axes, n: np.ndarray, values: np.ndarray) -> list[Any]:
    """Mark the undefined (NaN) values as a grey x on the zero line; return the marks, for the legend."""
    missing = ~np.isfinite(values)
    if not missing.any():
        return []
    return ax.plot(n[missing], np.zeros(missing.sum()), **UNDEFINED_STYLE)


def decay_colors(discounts: Sequence[str]) -> dict[str, Any]:
    """One colour per discount along the 'viridis' map, in the given order (slowest decay first)."""
    cmap = colormaps["viridis"]
    count = max(len(discounts) - 1, 1)
    return {d: cmap(0.92 * i / count) for i, d in enumerate(discounts)}


def short_pair_label(better: str, worse: str) -> str:
    """``'bayes > noisy(0.5)'``: a pair as a short legend label."""
    return pair_label(better, worse).replace("sigma=", "")


def draw_standardized_gap(ax: Axes, rows: pd.DataFrame, color: Any) -> Line2D:
    """The standardized gap against n with its 95% band (1.96 standard errors)."""
    n, d, se = (plotted_column(rows, k) for k in ("n", "std_gap", "std_gap_se"))
    return band_line(ax, n, d, d - 1.96 * se, d + 1.96 * se, color=color, marker="o", ls="-", ms=3, lw=1.2)


def band_line(ax: Axes, x: Any, y: Any, low: Any, high: Any, alpha: float = 0.12, *, color: Any, **line: Any) -> Line2D:
    """``y`` against ``x`` as a line (``line``: its style) over its band, ``low`` to ``high``, both in ``color``."""
    drawn = ax.plot(x, y, color=color, **line)[0]
    ax.fill_between(x, low, high, color=color, alpha=alpha, lw=0)
    return drawn
