"""The simulation engine the notebooks share: simulated ranking problems whose truth is known by construction.

``model`` (the probit model, rankers of known quality), ``simulate`` (data sets, fast nDCG), ``theory`` and
``finite_n`` (predictions), ``scaling``, ``sweeps``, ``cutoff``, ``crossing``, ``replicates`` (seeds, parallel cached
chunks) and ``tables`` (typed CSV). Imports numpy, scipy and pandas (joblib and tqdm when a sweep runs).
"""
