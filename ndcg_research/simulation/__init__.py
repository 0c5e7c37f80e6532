"""The simulation engine several notebooks share: simulated ranking problems whose truth is known by construction.

- :mod:`~ndcg_research.simulation.model`: the probit model of Wang et al. (2013) and rankers of known quality;
- :mod:`~ndcg_research.simulation.simulate`: data sets drawn from it, and fast nDCG of every ranker on them;
- :mod:`~ndcg_research.simulation.theory`: first-order theory (gain profiles, limits, ``eps_D(n)``);
- :mod:`~ndcg_research.simulation.finite_n`: exact expected nDCG at a given n, and the prediction table;
- :mod:`~ndcg_research.simulation.scaling`: how the standardized gap grows with n (notebooks 11, 13);
- :mod:`~ndcg_research.simulation.sweeps`: sweeps over n, rankers, discounts and replicates;
- :mod:`~ndcg_research.simulation.cutoff`: sweeps of nDCG@k with k tied to n (notebooks 05, 13);
- :mod:`~ndcg_research.simulation.crossing`: the order of two rankers under each discount (notebooks 10, 12);
- :mod:`~ndcg_research.simulation.replicates`: seeds of replicates, chunks run in parallel and cached;
- :mod:`~ndcg_research.simulation.tables`: result tables as CSV whose column types survive.

Imports the metric core, the statistics, numpy, scipy and pandas (joblib and tqdm when a sweep runs).
"""
