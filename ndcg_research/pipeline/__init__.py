"""The notebook tooling: run the notebooks with papermill, save figures with provenance, plot helpers.

- :mod:`~ndcg_research.pipeline.runner`: execute notebooks under a parameter profile, check their outputs;
- :mod:`~ndcg_research.pipeline.figures`: deterministic figure files with provenance and their index;
- :mod:`~ndcg_research.pipeline.plots`: the figures of the notebooks (imports matplotlib);
- :mod:`~ndcg_research.pipeline.cli`: the ``reproduce``, ``store`` and ``params`` commands.
"""
