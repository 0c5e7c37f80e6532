"""Which nDCG setting suits a collection: :func:`advise` measures candidate discounts, cut-offs and gains on
the user's own qrels and runs, and recommends one in plain words, by a rule fixed in advance.

The numbers, each with its reference (the guide "Choosing a discount with advise" explains them):

- discriminative power (Sakai, SIGIR 2006), by the randomised Tukey HSD test (Carterette, TOIS 2012);
- swap rate against the size of the query set (Voorhees & Buckley, SIGIR 2002);
- dependability Phi of generalizability theory (Brennan 2001; Kanoulas & Aslam, CIKM 2009);
- agreement of the systems' order with log2's, Kendall's tau.

``ndcg-research advise QRELS RUN [RUN ...]`` is the command (:mod:`ndcg_research.advice.cli`).
"""

import lazy_loader

# Loaded on first use, so that the command line's --help (which imports advice.cli) loads no scipy or pandas.
__getattr__, __dir__, __all__ = lazy_loader.attach(
    __name__,
    submod_attrs={"_advise": ["advise", "Advice", "DISCOUNTS", "CUTOFFS", "GAINS", "POWER_MARGIN", "PHI_MARGIN"]},
)
