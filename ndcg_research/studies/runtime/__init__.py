"""What runs the studies and records their results, shared by the simulated and the real-data studies.

Why these modules live together: none of them knows a model, a ranker or a data set; they take a
study's work and its results as they come. They import neither
:mod:`~ndcg_research.studies.simulation` nor :mod:`~ndcg_research.studies.realdata`.

- :mod:`~ndcg_research.studies.runtime.replicates`: seeds of replicates, chunks of them run in parallel
  (joblib, any backend) and cached on disk so an interrupted run resumes, the fingerprint of the code
  a cache key hashes;
- :mod:`~ndcg_research.studies.runtime.tables`: tidy result tables (pandas) of labelled grids, written
  as CSV whose column types survive;
- :mod:`~ndcg_research.studies.runtime.reporting`: small text pieces the notebooks print (intervals,
  replications, agreement).
"""
