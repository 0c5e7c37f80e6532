"""The notebooks' figures; imported only by notebooks.

Every function takes the numbers a notebook computed (mostly the tidy
:class:`pandas.DataFrame` tables of :mod:`ndcg_research.studies`) and returns a
Matplotlib :class:`~matplotlib.figure.Figure`, so the notebooks
hold only parameters, calls and narrative. A notebook shows a figure with
``IPython.display.display(fig)`` (after ``%matplotlib inline``, which renders
Figure objects as PNG) and saves it with :func:`ndcg_research.pipeline.figures.save_figure`.
Notebooks call them from this package (``plots.convergence_grid(...)``); each lives in the module
of its family of figures:

- :mod:`~ndcg_research.pipeline.plots.style`: what every figure shares (rounding, grids, labels,
  legends, ticks, error bars);
- :mod:`~ndcg_research.pipeline.plots.definitions`: the measure and its discounts (notebooks 01, 02);
- :mod:`~ndcg_research.pipeline.plots.sweeps`: simulation sweeps against n (notebooks 03, 04, 05);
- :mod:`~ndcg_research.pipeline.plots.limitations`: padding, truncation and pooling (notebook 06);
- :mod:`~ndcg_research.pipeline.plots.query_sets`: measures of a test collection (notebook 07);
- :mod:`~ndcg_research.pipeline.plots.real_data`: the MovieLens study (notebook 08);
- :mod:`~ndcg_research.pipeline.plots.decisions`: decisions between two rankers as n grows (notebooks 09, 10);
- :mod:`~ndcg_research.pipeline.plots.growth`: the growth laws (notebooks 11, 12, 13).

Conventions shared by all figures:

- legends sit outside the panels (below them), so they never hide data;
- every panel row has a y-axis label; intervals are 95% (t for means, Wilson for
  proportions) and drawn as error bars or bands;
- a quantity that is undefined (a standardized gap when every gap is 0) is drawn
  as a grey ``x`` on the zero line, never as a number, and a panel where it is
  undefined throughout says so in words;
- plotted values are rounded to 8 significant digits
  (:func:`~ndcg_research.pipeline.plots.style.round_significant`): the last bits of a
  floating-point sum differ between machines (BLAS, SIMD), and they must not change the image
  files (the data are far coarser than 8 digits).

The table helpers :func:`~ndcg_research.reports.tables.pivot`, :func:`~ndcg_research.reports.tables.rounded`
and :func:`~ndcg_research.reports.tables.proportion_cells` live in :mod:`ndcg_research.reports.tables`;
they are part of this package's interface too, since the notebooks show their tables with them.

This package imports Matplotlib.
"""

from __future__ import annotations

from ...reports.tables import pivot, proportion_cells, rounded
from .decisions import decision_grid, expected_gap_panels, failure_rate_grid, stream_stability_grid
from .definitions import discount_panels, eps_panel, worked_example_panels
from .growth import (crossing_growth_panel, cutoff_exponent_grid, cutoff_gap_grid, decay_colors, exponent_panels,
                     gain_profile_panel, preference_panels, trend_grid)
from .limitations import appending_panels, pooling_bias_panels, truncation_violins
from .query_sets import (asl_curves_panels, discount_styles, measure_agreement_heatmap, per_list_scatter,
                         queries_needed_panels, swap_rate_panels)
from .real_data import (convention_panels, cutoff_panels, list_length_distinguishability_panels, list_length_panels,
                        query_set_panels, ranker_means_panels)
from .style import n_label, round_significant, select
from .sweeps import (convergence_grid, cutoff_pair_grid, cutoff_values_grid, gap_over_eps_grid, ndcg_by_k_panels,
                     pair_grid, slow_convergence_grid)

__all__ = [
    "round_significant", "n_label", "select",
    "worked_example_panels", "discount_panels", "eps_panel",
    "convergence_grid", "slow_convergence_grid", "pair_grid", "gap_over_eps_grid",
    "cutoff_values_grid", "cutoff_pair_grid", "ndcg_by_k_panels",
    "appending_panels", "truncation_violins", "pooling_bias_panels",
    "discount_styles", "asl_curves_panels", "swap_rate_panels", "queries_needed_panels",
    "measure_agreement_heatmap", "per_list_scatter",
    "ranker_means_panels", "list_length_panels", "list_length_distinguishability_panels", "query_set_panels",
    "convention_panels", "cutoff_panels",
    "failure_rate_grid", "stream_stability_grid", "expected_gap_panels", "decision_grid",
    "decay_colors", "exponent_panels", "trend_grid", "gain_profile_panel", "preference_panels",
    "crossing_growth_panel", "cutoff_exponent_grid", "cutoff_gap_grid",
    "pivot", "rounded", "proportion_cells",
]
