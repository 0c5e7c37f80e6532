"""Real data sets, fetched on demand into a per-user cache (never shipped with the package).

- ``movielens_100k``: MovieLens-100k ratings (Harper & Konstan, ACM TiiS 2015), from RecBole's wheel on PyPI or
  GroupLens's ``u.data``.

Examples
--------
>>> from ndcg_research.datasets import movielens_100k, RECBOLE_REQUIREMENT
>>> RECBOLE_REQUIREMENT
'recbole==1.2.1'
"""

from . import _movielens
from ._movielens import *  # noqa: F403 (the names of _movielens.__all__)

__all__ = _movielens.__all__
