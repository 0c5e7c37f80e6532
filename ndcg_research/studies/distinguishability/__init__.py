"""Notebook 04: whether nDCG tells a better ranker from a worse one as the list grows."""
