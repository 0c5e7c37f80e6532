"""The metric core (its modules import only numpy and ``.._validation``; the parent package, loaded first, also
loads the pure-Python ``lazy_loader``): gains, discounts, ordering with ties, kernels and the metric functions.
Private modules, bottom up: ``_specs``, ``_gains``, ``_discounts``, ``_batch`` (input to padded batches),
``_ranking`` (order by score with ties), ``_kernels`` (vectorised DCG and ideal DCG, unchecked, also for the
studies' fast paths) and ``_metrics`` (the public functions, which check everything)."""

# ``__all__`` names the public names, which the top level re-exports (``nr.ndcg``); the names imported "as"
# themselves are for the other subpackages only (the spec language, the types of arguments).
from ._discounts import DISCOUNT_NAMES, Discount, parse_discount
from ._discounts import DiscountLike as DiscountLike
from ._gains import GAIN_NAMES, Gain, parse_gain
from ._gains import GainLike as GainLike
from ._kernels import clear_discount_cache
from ._metrics import OVERLAP_MIN_ENTRIES as OVERLAP_MIN_ENTRIES
from ._metrics import (
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
from ._specs import format_call as format_call
from ._specs import format_number as format_number
from ._specs import parse_call as parse_call
from ._specs import parse_registered as parse_registered

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
    "TIES",
    "Discount",
    "parse_discount",
    "DISCOUNT_NAMES",
    "Gain",
    "parse_gain",
    "GAIN_NAMES",
    "clear_discount_cache",
]
