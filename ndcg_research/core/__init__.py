"""The metric core: gains, discounts, ordering with ties, kernels and the metric functions.

Imports only numpy and itself. Modules, from the bottom up:

- :mod:`~ndcg_research.core.params`, :mod:`~ndcg_research.core.constraints`: the declared constraints
  of the parameters of every public function of the package, checked before any work;
- :mod:`~ndcg_research.core.specs`: parse and print spec strings such as ``"power(beta=0.5)"``;
- :mod:`~ndcg_research.core.gains`, :mod:`~ndcg_research.core.discounts`: the built-in gain
  and discount functions as spec values;
- :mod:`~ndcg_research.core.validation`: input to padded batches, and the checks of bad input;
- :mod:`~ndcg_research.core.ranking`: documents ordered by score under a tie rule;
- :mod:`~ndcg_research.core.kernels`: vectorised DCG and ideal DCG of padded batches, public for callers
  that check their arrays themselves (the fast paths of the studies);
- :mod:`~ndcg_research.core.metrics`: the public functions (``cg``, ``dcg``, ``idcg``, ``ndcg``, ...).
"""

from . import metrics
from .discounts import DISCOUNT_NAMES, Discount, parse_discount
from .gains import GAIN_NAMES, Gain, parse_gain
from .kernels import clear_discount_cache
from .metrics import (
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
from .ranking import TIES

# The metric functions (metrics.__all__), then the names of specs, ties and the discount cache.
__all__ = [
    *metrics.__all__,
    "TIES",
    "Discount",
    "parse_discount",
    "DISCOUNT_NAMES",
    "Gain",
    "parse_gain",
    "GAIN_NAMES",
    "clear_discount_cache",
]
