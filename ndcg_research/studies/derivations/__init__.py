"""Notebook 15: the theory derived, and each derivation checked numerically (issue 25, items 1-3 and 5).

The derivations themselves are on the documentation's Theory page (``docs/theory.md``); this study holds
their numbers and checks:

- :mod:`~ndcg_research.studies.derivations.formulas`: the derived quantities (the discount-free first-order
  limit, McDiarmid's bound, the limit under 1/r, the threshold a* of nDCG@n^a);
- :mod:`~ndcg_research.studies.derivations.sampler`: exact samples of the heads of several rankers' lists on
  lists of up to 10^8 items (and the expectation of the rest under 1/r);
- :mod:`~ndcg_research.studies.derivations.experiments`: the simulations that check each derivation, as tables;
- :mod:`~ndcg_research.studies.derivations.findings` with ``findings.toml``: the rules, fixed before the
  full-profile run, that judge the tables, and the notebook's answer;
- :mod:`~ndcg_research.studies.derivations.figures`: the notebook's figures.

Modules are imported on demand: ``from ndcg_research.studies.derivations import formulas``.
"""
