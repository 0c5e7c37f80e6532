"""Notebook 05: nDCG@k with the cut-off k tied to the list length n."""
