"""ndcg_research: nDCG with pluggable gains and discounts, and the notebooks that study it.

Import as ``import ndcg_research as nr``. The metric functions live in
:mod:`ndcg_research.metrics`; gains and discounts in :mod:`ndcg_research.gains`
and :mod:`ndcg_research.discounts`. Importing the package loads only numpy.

Examples
--------
>>> import ndcg_research as nr
>>> returned = [3, 2, 3, 0, 1, 2]
>>> round(nr.ndcg(returned, 6, ideal=returned + [3, 2]), 3)
0.785
"""

from ._kernels import clear_discount_cache
from ._ranking import TIES
from .discounts import DISCOUNT_NAMES, Discount, parse_discount
from .gains import GAIN_NAMES, Gain, parse_gain
from .metrics import (
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

__version__ = "0.1.0"

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
    "__version__",
]
