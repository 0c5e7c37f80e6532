"""Statistics for comparing systems over a query set or over replicates (scipy.stats underneath).

- paired tests of two systems (``paired_test``: t, Wilcoxon, sign-flip permutation, bootstrap), with the mean
  difference, its interval, the effect size and wins/ties/losses; many pairs at once (``pairwise_tests``);
  ``TIE_TOLERANCE``, the one definition of equal nDCG;
- many systems: ``compare_systems`` (the tables of the ``compare`` command), p-value corrections (``adjust_pvalues``:
  Holm, Bonferroni, Benjamini-Hochberg) and the randomised Tukey HSD test (``tukey_hsd``); ``discriminative_power``
  (Sakai 2006);
- stability of a ranking of systems: ``kendall_tau``, ``tau_ap``, swap rates against query-set size (``swap_rates``,
  Voorhees & Buckley 2002), variance components (``variance_components``, Kanoulas & Aslam 2009);
- intervals: ``ALPHA`` (5%) and ``CONFIDENCE`` = 1 - ALPHA, the defaults of every test and interval; the interval
  kinds of a mean difference (``INTERVALS``); t intervals of means (``mean_interval``), Wilson intervals of proportions
  (``wilson_interval``);
- run files to matrices: ``run_matrices``.

Every name is loaded on first use (``lazy_loader``), so that ``python -m ndcg_research --help`` does not import scipy.
The bootstrap and sign-flip resamples are seeded blocks shared by all pairs (private module ``_resampling``), so
results do not depend on ``n_jobs``, and a pair's p-value not on the other pairs compared (its bootstrap interval may
differ in its last bits: the resampled means are summed in blocks of as many pairs as are compared).

Examples
--------
>>> from ndcg_research.stats import paired_test
>>> r = paired_test([0.5, 0.7, 0.6, 0.8], [0.4, 0.6, 0.6, 0.5], test="permutation")
>>> r.exact, r.pvalue, (r.wins, r.ties, r.losses)
(True, 0.25, (3, 1, 0))
"""

import lazy_loader

__getattr__, _lazy_dir, __all__ = lazy_loader.attach(
    __name__,
    submod_attrs={
        "_paired": ["paired_test", "pairwise_tests", "PairedResult", "PairTests", "TIE_TOLERANCE", "METHODS"],
        "_multiple": ["adjust_pvalues", "tukey_hsd", "TukeyHSD", "CORRECTIONS"],
        "_compare": ["compare_systems", "Comparison", "COMPARE_METHODS"],
        "_power": ["discriminative_power", "DiscriminativePower", "POWER_METHODS"],
        "_agreement": ["kendall_tau", "tau_ap", "swap_rates", "variance_components", "VarianceComponents"],
        "_intervals": ["ALPHA", "CONFIDENCE", "INTERVALS", "mean_interval", "wilson_interval"],
        "_runs": ["run_matrices", "RunMatrices"],
    },
)


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
