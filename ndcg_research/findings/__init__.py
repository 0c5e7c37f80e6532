"""The findings engine: each claim about nDCG, its measurement and verdict, from the result tables.

Each study (``ndcg_research/studies/<name>/``) states its findings and their thresholds in ``findings.toml`` and
decides them in ``findings.py``; :mod:`~ndcg_research.findings.catalogue` finds them. The notebooks write their
result tables (the full profile's are committed under ``results/full/``), so every number a finding quotes is
computed, never typed. ``python -m ndcg_research findings`` renders them into ``FINDINGS.md`` and the README's
Findings table (:mod:`~ndcg_research.findings.render`); ``--check`` fails when either is stale. A notebook shows its
own findings with :func:`answer`.

- :mod:`~ndcg_research.findings.model`: :class:`Finding`, :class:`Measured` (what a rule returns), :class:`Results`
  (the tables a rule reads), the verdict words and the formats of quoted numbers;
- :mod:`~ndcg_research.findings.catalogue`: the studies' texts, thresholds and rules, found and joined;
- :mod:`~ndcg_research.findings.render`: Markdown, the README section, the staleness check;
- :mod:`~ndcg_research.findings.cli`: the ``findings`` command.
"""

import lazy_loader

# Imported on first use: the command line registers the ``findings`` command without loading the studies' rules.
__getattr__, __dir__, __all__ = lazy_loader.attach(
    __name__,
    submod_attrs={
        "catalogue": ["Answer", "answer", "collect", "notebook_findings", "spoken", "threshold"],
        "model": [
            "VERDICTS",
            "Finding",
            "Measured",
            "MissingTableError",
            "Results",
            "cases",
            "labelled",
            "number",
            "proportion",
            "span",
            "worst",
        ],
    },
)
