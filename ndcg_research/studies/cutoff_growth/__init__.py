"""Notebook 13: nDCG@k with k = n^a against the scaling law of the standardized gap."""
