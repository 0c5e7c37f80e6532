"""Notebook 12: fixed rankers that cross, and how different two rankers must be."""
