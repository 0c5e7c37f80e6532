"""The studies: one folder per notebook ``notebooks/NN_<name>.ipynb``, named as the notebook without its number.

Each folder holds that notebook's own code: its experiment, its tables and answer text (``report``), its figures
(``plots``), and its findings (``findings.py``, the verdict rules; ``findings.toml``, their texts and thresholds),
which the findings engine (:mod:`ndcg_research.findings`) discovers. What several studies share lives in the
engines: :mod:`ndcg_research.simulation` (model, rankers, sweeps, theory), :mod:`ndcg_research.pipeline` (plot
style, table helpers, figures, the runner) and :mod:`ndcg_research.findings`. A study imports no other study, so a
change to one study touches its folder and its notebook only. The notebooks are the studies' only callers.
"""
