"""Notebook 16: the findings of notebooks 03-04 asked of models that break the package's shared assumptions.

Every other model is one dense probit family with nested rankers. This study (issue 25, items 3 and 4):

- :mod:`~.models`: sparse relevance (R fixed, or a share n^-gamma; binormal features) and a two-feature model
  (a graded feature and a binary flag) whose rankers use different evidence; their exact quantities (the random
  ranker's expected nDCG and its limit, closed-form gain profiles, their crossings, first-order constants);
- :mod:`~.simulate`: data sets of both models and the nDCG of every ranker (only the relevant items' ranks);
- :mod:`~.experiment`: replicates in seeded chunks, and the tables the findings read;
- :mod:`~.findings` with ``findings.toml``: the claims, the rules and thresholds fixed before the runs;
- :mod:`~.tables`, :mod:`~.figures`: what the notebook shows.
"""
