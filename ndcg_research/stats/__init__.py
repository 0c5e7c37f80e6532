"""Statistics for comparing systems over a query set or over replicates (scipy.stats underneath).

- :mod:`~ndcg_research.stats.paired`: :func:`paired_test` (t, Wilcoxon, sign-flip permutation,
  bootstrap) of two systems, with the mean difference, its interval, the effect size and
  wins/ties/losses; :func:`pairwise_tests` for many pairs at once; ``paired_comparison``, the
  paired summary of replicates of the studies; ``TIE_TOLERANCE``, the one definition of equal nDCG;
- :mod:`~ndcg_research.stats.inputs`: the declared constraints of the statistics' parameters (score
  matrices, per-query values, levels, seeds), see :mod:`ndcg_research.core.params`;
- :mod:`~ndcg_research.stats.intervals`: the significance level ``ALPHA`` and the confidence level
  ``CONFIDENCE`` = 1 - ALPHA, the defaults of every test and interval; t intervals of
  means, Wilson intervals of proportions, Bonferroni family confidence, percentile and BCa
  bootstrap intervals;
- :mod:`~ndcg_research.stats.multiple`: :func:`adjust_pvalues` (Holm, Bonferroni,
  Benjamini-Hochberg) and the randomised Tukey HSD test :func:`tukey_hsd`;
- :mod:`~ndcg_research.stats.replication`: :func:`proportion_z` and :func:`mean_z`, whether two
  independent runs of an experiment agree cell by cell;
- :mod:`~ndcg_research.stats.compare`: :func:`compare_systems`, the tables of the
  ``compare`` command;
- :mod:`~ndcg_research.stats.power`: :func:`discriminative_power` (Sakai 2006);
- :mod:`~ndcg_research.stats.agreement`: :func:`kendall_tau`, :func:`tau_ap`, and swap
  rates against query-set size (:func:`swap_rates`, Voorhees & Buckley 2002), variance
  components and stability (:func:`variance_components`, Kanoulas & Aslam 2009);
- :mod:`~ndcg_research.stats.runs`: :func:`run_matrices`, per-query values of run files on common queries;
- :mod:`~ndcg_research.stats.resampling`: the seeded resamples shared by all pairs;
- :mod:`~ndcg_research.stats.cli`: ``python -m ndcg_research compare``.

The names below are loaded on first use (``from ndcg_research.stats import paired_test``),
so that ``python -m ndcg_research --help`` does not import scipy.

Examples
--------
>>> from ndcg_research.stats import paired_test
>>> r = paired_test([0.5, 0.7, 0.6, 0.8], [0.4, 0.6, 0.6, 0.5], test="permutation")
>>> r.exact, r.pvalue, (r.wins, r.ties, r.losses)
(True, 0.25, (3, 1, 0))
"""

from __future__ import annotations

import importlib

__all__ = [
    "paired_test",
    "pairwise_tests",
    "PairedResult",
    "PairTests",
    "adjust_pvalues",
    "tukey_hsd",
    "TukeyHSD",
    "compare_systems",
    "Comparison",
    "discriminative_power",
    "DiscriminativePower",
    "kendall_tau",
    "tau_ap",
    "disjoint_subset_means",
    "query_subsets",
    "swap_rates",
    "variance_components",
    "VarianceComponents",
    "run_matrices",
    "RunMatrices",
    "proportion_z",
    "mean_z",
]

_MODULES = {
    "paired_test": "paired", "pairwise_tests": "paired", "PairedResult": "paired", "PairTests": "paired",
    "adjust_pvalues": "multiple", "tukey_hsd": "multiple", "TukeyHSD": "multiple",
    "compare_systems": "compare", "Comparison": "compare",
    "discriminative_power": "power", "DiscriminativePower": "power",
    "kendall_tau": "agreement", "tau_ap": "agreement", "disjoint_subset_means": "agreement", "query_subsets": "agreement",
    "swap_rates": "agreement", "variance_components": "agreement", "VarianceComponents": "agreement",
    "run_matrices": "runs", "RunMatrices": "runs",
    "proportion_z": "replication", "mean_z": "replication",
}


def __getattr__(name: str) -> object:
    module = _MODULES.get(name)
    if module is None:
        raise AttributeError(f"module 'ndcg_research.stats' has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{module}"), name)


def __dir__() -> list[str]:
    return sorted([*globals(), *__all__])
