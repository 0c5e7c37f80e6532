"""The findings: each claim, its measurement, the verdict and its conditions, read from committed tables.

The notebooks write their result tables; the full profile's tables are committed under
``results/full/``. Each finding is a function of those tables (:mod:`~ndcg_research.findings.claims`),
so every number it quotes is computed, never typed. ``python -m ndcg_research findings`` renders
them into ``FINDINGS.md`` and the README's Findings section; ``--check`` fails when either is stale.

- :mod:`~ndcg_research.findings.model`: :class:`Finding` and :class:`Results` (the committed tables);
- :mod:`~ndcg_research.findings.claims`: the findings, one function each;
- :mod:`~ndcg_research.findings.render`: Markdown, the README section, the staleness check;
- :mod:`~ndcg_research.findings.cli`: the ``findings`` command.
"""
