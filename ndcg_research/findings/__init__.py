"""The findings engine: each claim about nDCG with its measurement and verdict, from the result tables; the
studies' texts and rules (:mod:`~.catalogue`), what a rule reads and returns (:mod:`~.model`), ``FINDINGS.md`` and
the README's table (:mod:`~.render`, the ``findings`` command), a notebook's own findings (:func:`answer`)."""

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
