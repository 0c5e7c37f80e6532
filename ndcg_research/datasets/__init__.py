"""Real data sets, fetched on demand into a per-user cache (never shipped with the package).

- ``movielens_100k``: MovieLens-100k ratings (Harper & Konstan, ACM TiiS 2015), from RecBole's wheel on PyPI or
  GroupLens's ``u.data``.

Examples
--------
>>> from ndcg_research.datasets import movielens_100k, RECBOLE_REQUIREMENT
>>> RECBOLE_REQUIREMENT
'recbole==1.2.1'
"""

from ._movielens import (
    CACHE_ENV,
    COLUMNS,
    INTER_HEADER,
    MOVIELENS_100K_CITATION,
    RECBOLE_MEMBER,
    RECBOLE_REQUIREMENT,
    RECBOLE_WHEEL,
    RECBOLE_WHEEL_SHA256,
    U_DATA_SHA256,
    DatasetUnavailableError,
    cache_dir,
    fetch_recbole_wheel,
    movielens_100k,
    read_ratings,
)

__all__ = [
    "movielens_100k",
    "read_ratings",
    "cache_dir",
    "fetch_recbole_wheel",
    "DatasetUnavailableError",
    "MOVIELENS_100K_CITATION",
    "RECBOLE_REQUIREMENT",
    "RECBOLE_WHEEL",
    "RECBOLE_WHEEL_SHA256",
    "RECBOLE_MEMBER",
    "U_DATA_SHA256",
    "CACHE_ENV",
    "COLUMNS",
    "INTER_HEADER",
]
