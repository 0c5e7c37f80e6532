"""Which nDCG setting suits a collection: :func:`advise` measures candidate discounts, cut-offs and gains on
the user's own qrels and runs (discriminative power, swap rate, dependability, agreement with log2; the guide
"Choosing a discount with advise" explains them) and recommends one by a rule fixed in advance. The command is
``ndcg-research advise QRELS RUN [RUN ...]``."""

import lazy_loader

# Loaded on first use, so that the command line's --help (which imports advice.cli) loads no scipy or pandas.
__getattr__, __dir__, __all__ = lazy_loader.attach(
    __name__,
    submod_attrs={"_advise": ["advise", "Advice", "DISCOUNTS", "CUTOFFS", "GAINS", "POWER_MARGIN", "PHI_MARGIN"]},
)
