"""Notebook 08: the questions of the simulated studies on real rankings (MovieLens-100k, or TREC runs)."""
