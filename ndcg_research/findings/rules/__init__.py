"""The findings' rules: for each finding, the function that reads the committed tables, computes the values
its texts quote, and decides the verdict.

One module per notebook (or pair of notebooks); each function is registered under its finding's key with
:func:`~ndcg_research.findings.rules.base.rule`, and its fixed text is in ``texts/`` under the same key.

- :mod:`.basics`: 01 (worked example), 02 (discount functions);
- :mod:`.convergence`: 03; :mod:`.distinguishability`: 04; :mod:`.cutoffs`: 05; :mod:`.limitations`: 06;
- :mod:`.query_sets`: 07; :mod:`.movielens`: 08; :mod:`.readings`: 09; :mod:`.crossing`: 10;
- :mod:`.bracket`: 11; :mod:`.fixed_crossings`: 12; :mod:`.cutoff_growth`: 13.
"""

from . import (basics, bracket, convergence, crossing, cutoff_growth, cutoffs,  # noqa: F401 (registration)
               distinguishability, fixed_crossings, limitations, movielens, query_sets, readings)
from .base import RULES, Measured, rule

__all__ = ["RULES", "Measured", "rule"]
