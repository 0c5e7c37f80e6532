"""Studies on simulated data, whose truth is known by construction (notebooks 02-07, 09-13).

Why these modules live together: each one draws synthetic data (or predicts what such draws give)
from a model whose true order of rankers or systems is fixed in advance, so that a measure can be
judged against that truth. :mod:`~ndcg_research.studies.simulation.sweeps` belongs here, not with
the runtime: a sweep is a design of the simulated experiment (model, rankers, discounts, pairs) whose
replicates are :func:`~ndcg_research.studies.simulation.simulate.replicate_ndcg` and whose tables
are set beside the theory; the machinery it runs on (chunks, cache, workers) is
:mod:`ndcg_research.studies.runtime`'s.

The model and its theory:

- :mod:`~ndcg_research.studies.simulation.model`: the probit model of Wang et al. (2013) and rankers of known quality;
- :mod:`~ndcg_research.studies.simulation.simulate`: data sets drawn from it, and fast nDCG of every ranker on them;
- :mod:`~ndcg_research.studies.simulation.theory`: asymptotic predictions (gain profiles, limits, ``eps_D(n)``);
- :mod:`~ndcg_research.studies.simulation.finite_n`: exact expected nDCG at a given n, and the prediction table;
- :mod:`~ndcg_research.studies.simulation.scaling`: how the standardized gap grows with n (notebooks 11, 13).

The experiments:

- :mod:`~ndcg_research.studies.simulation.sweeps`: sweeps over n, rankers, discounts and replicates (notebooks 03, 04);
- :mod:`~ndcg_research.studies.simulation.cutoff`: nDCG@k with k tied to n (notebooks 05, 13);
- :mod:`~ndcg_research.studies.simulation.limitations`: appending, truncation, pooling with incomplete judgments (notebook 06);
- :mod:`~ndcg_research.studies.simulation.collection`: a simulated test collection with a known order of systems (notebook 07);
- :mod:`~ndcg_research.studies.simulation.consistency`: consistent distinguishability, over data sets and along streams (notebook 09);
- :mod:`~ndcg_research.studies.simulation.crossing`: rankers whose order depends on the discount (notebook 10);
- :mod:`~ndcg_research.studies.simulation.bracket`: the discounts around 1/r (notebook 11);
- :mod:`~ndcg_research.studies.simulation.fixed_crossing`: fixed rankers that cross, how different two rankers must be
  (notebook 12).

Imports :mod:`ndcg_research.studies.runtime`, never :mod:`ndcg_research.studies.realdata`.
"""
