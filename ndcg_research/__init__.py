"""ndcg_research: nDCG with pluggable gains and discounts, and the notebooks that study it.

Import as ``import ndcg_research as nr``. The metric functions (``nr.ndcg``,
``nr.ndcg_from_scores``, ...) come from the metric core, :mod:`ndcg_research.core`,
and importing the package loads only numpy. The other subpackages are imported
on demand, in layers (a subpackage imports only those above it in this list):

- :mod:`ndcg_research.core`: gains, discounts, tie rules, kernels, the metric functions (numpy only);
- :mod:`ndcg_research.evaluation`: run and qrels files, measures, the tools' conventions, ``evaluate``;
- :mod:`ndcg_research.stats`: paired tests, intervals, multiple comparisons, power, agreement;
- :mod:`ndcg_research.studies`: the simulations, theory and sweeps of the notebooks, the real-data study;
- :mod:`ndcg_research.datasets`: MovieLens-100k, fetched and checked on demand;
- :mod:`ndcg_research.findings`: each claim, its measurement and verdict, from the committed tables;
- :mod:`ndcg_research.reports`: the notebooks' short tables and paragraphs, and each notebook's answer;
- :mod:`ndcg_research.pipeline`: the notebook runner, figures with provenance, plots, the commands.

``nr.evaluate``, ``nr.read_qrels``, ``nr.read_run``, ``nr.paired_test``, ``nr.compare_systems`` and
``nr.discriminative_power`` are loaded on first use. The command line is ``ndcg-research``
(:mod:`ndcg_research.cli`).

Examples
--------
>>> import ndcg_research as nr
>>> returned = [3, 2, 3, 0, 1, 2]
>>> round(nr.ndcg(returned, 6, ideal=returned + [3, 2]), 3)
0.785
"""

from .core import (
    DISCOUNT_NAMES,
    GAIN_NAMES,
    TIES,
    ZERO_IDEAL_POLICIES,
    Discount,
    Gain,
    NDCGParts,
    UndefinedNDCGWarning,
    cg,
    clear_discount_cache,
    dcg,
    dcg_from_scores,
    idcg,
    mean_over_queries,
    ndcg,
    ndcg_from_scores,
    ndcg_parts,
    ndcg_parts_from_scores,
    parse_discount,
    parse_gain,
)

__version__ = "0.2.0"

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

# Names served from subpackages that need more than numpy (pandas, scipy): imported on first
# use, so that ``import ndcg_research`` stays numpy-only. name -> module that defines it.
_LAZY: dict[str, str] = {
    **{name: "ndcg_research.evaluation" for name in ("evaluate", "read_qrels", "read_run", "read_svmlight", "CONVENTIONS")},
}
_LAZY.update(dict.fromkeys(("paired_test", "compare_systems", "discriminative_power"), "ndcg_research.stats"))


def __getattr__(name: str) -> object:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'ndcg_research' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(module), name)


def __dir__() -> list[str]:
    return sorted([*globals(), *_LAZY])
