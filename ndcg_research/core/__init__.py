"""The metric core: gains, discounts, ordering with ties, kernels and the metric functions.

Imports only numpy. The public names below are re-exported on the top level (``nr.ndcg``); the
spec language (``parse_call``, ``format_call``, ...) is here for the other subpackages, which
import the core through this package. Private modules, from the bottom up:

- ``_specs``: parse and print spec strings such as ``"power(beta=0.5)"``;
- ``_gains``, ``_discounts``: the built-in gain and discount functions as spec values;
- ``_batch``: input to padded batches, and the checks of their values;
- ``_ranking``: documents ordered by score under a tie rule;
- ``_kernels``: vectorised DCG and ideal DCG of padded batches, and the ordering kernels, for
  callers that check their arrays themselves (the studies' fast paths); they check nothing;
- ``_metrics``: the public functions (``cg``, ``dcg``, ``idcg``, ``ndcg``, ...), which check their
  arguments with :mod:`ndcg_research._validation` and ``_batch``.
"""

from ._discounts import DISCOUNT_NAMES, Discount, DiscountLike, parse_discount
from ._gains import GAIN_NAMES, Gain, GainLike, parse_gain
from ._kernels import clear_discount_cache
from ._metrics import (
    OVERLAP_MIN_ENTRIES,
    ZERO_IDEAL_POLICIES,
    NDCGParts,
    UndefinedNDCGWarning,
    cg,
    dcg,
    dcg_from_scores,
    idcg,
    mean_over_queries,
    ndcg,
    ndcg_from_scores,
    ndcg_parts,
    ndcg_parts_from_scores,
)
from ._ranking import TIES
from ._specs import format_call, format_number, parse_call, parse_registered

__all__ = [
    "cg",
    "dcg",
    "idcg",
    "ndcg",
    "ndcg_parts",
    "dcg_from_scores",
    "ndcg_from_scores",
    "ndcg_parts_from_scores",
    "mean_over_queries",
    "NDCGParts",
    "UndefinedNDCGWarning",
    "ZERO_IDEAL_POLICIES",
    "OVERLAP_MIN_ENTRIES",
    "TIES",
    "Discount",
    "DiscountLike",
    "parse_discount",
    "DISCOUNT_NAMES",
    "Gain",
    "GainLike",
    "parse_gain",
    "GAIN_NAMES",
    "clear_discount_cache",
    "parse_call",
    "parse_registered",
    "format_call",
    "format_number",
]
