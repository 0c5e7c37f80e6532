"""Notebook 15: the theory derived (on the Theory page, ``docs/theory.md``), each derivation checked numerically
(issue 25, items 1-3 and 5): :mod:`.formulas` (the derived quantities), :mod:`.sampler` (exact heads of lists of up
to 10^8 items), :mod:`.experiments` (the simulations, as tables), :mod:`.findings` with ``findings.toml`` (the rules,
fixed before the full-profile run) and :mod:`.figures`. Modules are imported on demand.
"""
