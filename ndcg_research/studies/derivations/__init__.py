"""Notebook 15: the derivations of the Theory page (``docs/theory.md``), each checked numerically (issue 25, items
1-3 and 5). Modules are imported on demand."""
