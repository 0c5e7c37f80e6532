"""The notebook tooling: run the notebooks with papermill, save figures with provenance, and what the studies'
figures and tables share.

- :mod:`~ndcg_research.pipeline.runner`: ``reproduce`` (plan, execute, check, index) and ``store`` (committed
  notebooks re-executed and stored clean), the kernels, the runner's errors;
- :mod:`~ndcg_research.pipeline.profiles`: which notebooks run with which parameters (profiles, declarations);
- :mod:`~ndcg_research.pipeline.figures`: deterministic figure files with provenance and their index;
- :mod:`~ndcg_research.pipeline.style`: what every figure of the studies shares (imports matplotlib);
- :mod:`~ndcg_research.pipeline.tables`: what the studies' tables for reading share (rounding, counts with
  intervals, chance-level flags, replication sentences);
- :mod:`~ndcg_research.pipeline.cli`: the ``reproduce``, ``store`` and ``params`` commands.
"""
