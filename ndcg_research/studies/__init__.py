"""The studies of the notebooks, in three rooms: simulated problems, real data, and what runs them.

- :mod:`~ndcg_research.studies.simulation`: every study on synthetic data whose truth is known by
  construction: the probit model of Wang et al. (2013) and rankers of known quality, the asymptotic
  and finite-n theory of their nDCG, the sweeps over n, rankers and discounts, and the experiments
  built on them (notebooks 02-07 and 09-13: cut-offs, limitations, query sets of a simulated
  collection, consistency, crossing rankers, the critical bracket, scaling laws);
- :mod:`~ndcg_research.studies.realdata`: the same questions on real rankings (notebook 08):
  recommenders trained on MovieLens-100k or a user's TREC runs, held as ranking problems;
- :mod:`~ndcg_research.studies.runtime`: what the studies of both rooms share to run and record
  themselves: seeds of replicates, chunks of them run in parallel and cached on disk, result tables
  written as CSV whose column types survive, and the small text pieces the notebooks print.

The rooms import one way: :mod:`~ndcg_research.studies.runtime` imports neither of the others, and
:mod:`~ndcg_research.studies.simulation` does not import :mod:`~ndcg_research.studies.realdata`
(which borrows the discounts' local log-slope, :func:`~ndcg_research.studies.simulation.theory.eps`).

Studies import the metric core, the evaluation, the statistics of :mod:`ndcg_research.stats`
(intervals, paired comparisons, the tie tolerance), numpy, scipy and pandas (and joblib, tqdm to
run replicates in parallel), never the findings or the notebook tooling of
:mod:`ndcg_research.pipeline`. Modules are imported on demand:
``from ndcg_research.studies.simulation import simulate``.
"""
