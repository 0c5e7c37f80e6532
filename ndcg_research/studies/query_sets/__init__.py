"""Notebook 07: how many queries each discount needs on a simulated test collection."""
