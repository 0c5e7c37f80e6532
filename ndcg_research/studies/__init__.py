"""The studies: simulated ranking problems and the experiments of notebooks 02-06.

- :mod:`~ndcg_research.studies.simulate`: the probit model of Wang et al. (2013) and rankers of known quality;
- :mod:`~ndcg_research.studies.theory`: asymptotic and finite-n predictions;
- :mod:`~ndcg_research.studies.sweeps`: cached, parallel sweeps over n, rankers, discounts and replicates;
- :mod:`~ndcg_research.studies.cutoff`: nDCG@k with k tied to n;
- :mod:`~ndcg_research.studies.limitations`: appending, truncation, pooling with incomplete judgments.

Studies import the metric core, numpy, scipy (and joblib, tqdm for sweeps), never the notebook
tooling of :mod:`ndcg_research.pipeline`. Submodules are imported on demand:
``from ndcg_research.studies import simulate``.
"""
