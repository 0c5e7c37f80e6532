"""Notebook 09: consistent distinguishability (Wang et al. 2013), over data sets and along data streams."""
