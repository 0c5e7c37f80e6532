"""Notebook 03: where nDCG goes as the list grows, and the first-order and finite-n theory against simulation."""
