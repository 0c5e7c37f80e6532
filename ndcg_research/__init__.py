"""ndcg_research: nDCG with pluggable gains and discounts, and the notebooks that study it.

``import ndcg_research as nr`` loads numpy and ``lazy_loader`` (pure Python) only: the metric functions
(``nr.ndcg``, ...) come from the metric core, and what a user starts from that needs pandas or scipy is imported
on first use (by ``lazy_loader``):
``nr.evaluate``, ``nr.read_qrels``, ``nr.read_run``, ``nr.read_svmlight``, ``nr.CONVENTIONS`` (from
``ndcg_research.evaluation``), ``nr.paired_test``, ``nr.compare_systems``, ``nr.discriminative_power`` (from
``ndcg_research.stats``), ``nr.ir_measure`` (for ir_measures and PyTerrier) and ``nr.advise`` (which setting
suits a collection). ``ndcg_research.datasets`` is public too; the command line is ``ndcg-research``.

Examples
--------
>>> import ndcg_research as nr
>>> returned = [3, 2, 3, 0, 1, 2]
>>> round(nr.ndcg(returned, 6, ideal=returned + [3, 2]), 3)
0.785
"""

from typing import Any

import lazy_loader

from . import core
from .core import *  # noqa: F403 (the metric functions: core.__all__)

# Names served from subpackages that need more than numpy, imported on first use (one line each); the public
# subpackages themselves too, so that ``nr.stats.paired_test`` works after ``import ndcg_research as nr``.
_PUBLIC_SUBPACKAGES = ["evaluation", "stats", "datasets", "interop", "advice"]
_lazy_getattr, _lazy_dir, _lazy_all = lazy_loader.attach(
    __name__,
    submodules=_PUBLIC_SUBPACKAGES,
    submod_attrs={
        "evaluation": ["evaluate", "read_qrels", "read_run", "read_svmlight", "CONVENTIONS"],
        "stats": ["paired_test", "compare_systems", "discriminative_power"],
        "interop": ["ir_measure"],
        "advice": ["advise"],
    },
)

# __version__ is served by __getattr__ below.
__all__ = [*core.__all__, "__version__", *(name for name in _lazy_all if name not in _PUBLIC_SUBPACKAGES)]  # noqa: F405


def __getattr__(name: str) -> Any:
    if name == "__version__":  # read on first use: importlib.metadata takes 20 ms, a fifth of the package's import
        import importlib.metadata

        try:
            return importlib.metadata.version("ndcg_research")
        except importlib.metadata.PackageNotFoundError:  # a source tree used without installing it
            return "0+unknown"
    return _lazy_getattr(name)


def __dir__() -> list[str]:  # the public subpackages too, before their first use (a notebook's completion lists them)
    return sorted({*globals(), *__all__, *_PUBLIC_SUBPACKAGES})
