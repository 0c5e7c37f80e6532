"""Notebook 01: the article's worked example of CG, DCG, IDCG and nDCG, reproduced."""
