"""The studies: one folder per notebook ``notebooks/NN_<name>.ipynb``, named as the notebook without its number.

Each folder holds its notebook's own code: experiment, tables and answer text (``report``), figures (``plots``) and
findings (``findings.py``, the verdict rules; ``findings.toml``, their texts and thresholds). What studies share lives
in the engines (:mod:`ndcg_research.simulation`, :mod:`ndcg_research.pipeline`, :mod:`ndcg_research.findings`): a
study imports no other study, and the notebooks are the studies' only callers.
"""
