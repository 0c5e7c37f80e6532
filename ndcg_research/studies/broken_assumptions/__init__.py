"""Notebook 16: the findings of notebooks 03-04 asked of models that break the package's shared assumptions (dense
relevance, nested rankers; issue 25, items 3 and 4)."""
