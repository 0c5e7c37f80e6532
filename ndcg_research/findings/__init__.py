"""The findings: each claim, its measurement, the verdict and its conditions, read from committed tables.

The notebooks write their result tables; the full profile's tables are committed under
``results/full/``. A finding is its fixed text (data: ``texts/NN_notebook.toml``, one file per
notebook) and its rule (a function of those tables in :mod:`~ndcg_research.findings.rules`), so every
number it quotes is computed, never typed. ``python -m ndcg_research findings`` renders them into
``FINDINGS.md`` and the README's Findings section; ``--check`` fails when either is stale.

- :mod:`~ndcg_research.findings.model`: :class:`Finding` and :class:`Results` (the committed tables);
- :mod:`~ndcg_research.findings.catalogue`: the texts, read and filled;
- :mod:`~ndcg_research.findings.rules`: the rules, one function per finding, one module per notebook;
- :mod:`~ndcg_research.findings.claims`: each text joined with its rule (:data:`FINDINGS`, :func:`collect`);
- :mod:`~ndcg_research.findings.render`: Markdown, the README section, the staleness check;
- :mod:`~ndcg_research.findings.cli`: the ``findings`` command.
"""
