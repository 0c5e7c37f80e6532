"""Notebook 10: rankers whose order depends on the discount (an exact head against a noisy ranker)."""
