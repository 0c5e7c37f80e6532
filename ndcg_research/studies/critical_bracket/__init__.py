"""Notebook 11: the discounts around 1/r, the critical point of distinguishability."""
