"""The notebooks' tables and paragraphs, formatted for reading: one module per notebook.

A notebook cell reads as one step of the analysis (``display(distinguishability.log2_table(pairs))``);
the pandas and f-string work that turns result tables into a short table with named columns, or into
a sentence, lives here, one tested function per table or paragraph.

- :func:`answer`: a notebook's findings (title, verdict, what the tables show), evaluated on a folder
  of result tables: the committed full profile (``results/full``) or a notebook's own run;
- :mod:`~ndcg_research.reports.tables`: shared helpers (wide views, rounding, counts with intervals,
  chance-level flags, columns named in words);
- one module per notebook: :mod:`~ndcg_research.reports.worked_example` (01),
  :mod:`~ndcg_research.reports.discounts` (02), :mod:`~ndcg_research.reports.convergence` (03),
  :mod:`~ndcg_research.reports.distinguishability` (04), :mod:`~ndcg_research.reports.cutoff` (05),
  :mod:`~ndcg_research.reports.limitations` (06), :mod:`~ndcg_research.reports.query_sets` (07),
  :mod:`~ndcg_research.reports.movielens` (08), :mod:`~ndcg_research.reports.consistency` (09),
  :mod:`~ndcg_research.reports.crossing` (10).

Layer: imports the core, evaluation, stats, studies and findings; imported only by the notebook
tooling (:mod:`ndcg_research.pipeline`) and the notebooks.
"""

from .answer import answer

__all__ = ["answer"]
