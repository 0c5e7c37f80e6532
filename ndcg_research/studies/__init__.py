"""The studies: simulated ranking problems and the experiments of notebooks 02-06.

- :mod:`~ndcg_research.studies.simulate`: the probit model of Wang et al. (2013) and rankers of known quality;
- :mod:`~ndcg_research.studies.theory`: asymptotic and finite-n predictions;
- :mod:`~ndcg_research.studies.sweeps`: cached, parallel sweeps over n, rankers, discounts and replicates;
- :mod:`~ndcg_research.studies.cutoff`: nDCG@k with k tied to n;
- :mod:`~ndcg_research.studies.scaling`: how the standardized gap grows with n (scaling laws, notebooks 11, 13);
- :mod:`~ndcg_research.studies.bracket`: the discounts around 1/r (notebook 11);
- :mod:`~ndcg_research.studies.fixed_crossing`: fixed rankers that cross, how different two rankers must be (notebook 12);
- :mod:`~ndcg_research.studies.limitations`: appending, truncation, pooling with incomplete judgments;

and what they share:

- :mod:`~ndcg_research.studies.replicates`: seeds of replicates, chunks of them run in parallel and cached;
- :mod:`~ndcg_research.studies.tables`: tidy result tables (pandas) of labelled grids, written as CSV whose
  column types survive;
- :mod:`~ndcg_research.studies.reporting`: small text pieces the notebooks print (intervals, replications, agreement).

Studies import the metric core, the evaluation, the statistics of :mod:`ndcg_research.stats`
(intervals, paired comparisons, the tie tolerance), numpy, scipy and pandas (and joblib, tqdm to
run replicates in parallel), never the findings or the notebook tooling of
:mod:`ndcg_research.pipeline`. Submodules are imported on demand:
``from ndcg_research.studies import simulate``.
"""
