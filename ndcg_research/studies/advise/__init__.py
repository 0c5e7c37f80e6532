"""Notebook 14 (``advise`` on MovieLens-100k and on ``examples/``): its headline figure (:mod:`.plots`).

The measurements and the rule are the package's :mod:`ndcg_research.advice`; the notebook calls it as a user would.
"""
