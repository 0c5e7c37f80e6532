"""Notebook 02: the discount functions side by side (weights, mass in the top of the list, eps_D(n))."""
