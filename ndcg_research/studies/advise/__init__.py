"""Notebook 14: what :func:`ndcg_research.advise` recommends for notebook 08's MovieLens-100k recommenders (and for
the two runs of ``examples/``), and whether its measurements agree with notebook 08's findings."""
