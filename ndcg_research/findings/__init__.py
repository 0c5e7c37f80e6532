"""The findings engine: each claim about nDCG, its measurement and verdict, computed from the result tables.

Each study states its findings in ``findings.toml`` and decides them in ``findings.py``: :mod:`~.catalogue` finds
and joins them, :mod:`~.model` holds :class:`Finding`, :class:`Measured`, :class:`Results`, the verdict words and
number formats, :mod:`~.render` writes ``FINDINGS.md`` and the README's table (``python -m ndcg_research
findings``, :mod:`~.cli`), and a notebook shows its own findings with :func:`answer`.
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
