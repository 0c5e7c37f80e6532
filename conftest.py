"""Repository-wide pytest configuration.

The runner's fixture notebooks (one of them fails on purpose) must not be
collected by nbval, which the pytest options in pyproject.toml enable for every
``*.ipynb`` under the test paths.
"""

collect_ignore_glob = ["tests/fixtures/*"]
