"""The real-data study: the questions of the simulated studies on real rankings (notebook 08).

Why these modules live together: their systems are real (recommenders trained on MovieLens-100k, or
a user's TREC runs) and no true order of the systems is known, so the study compares measures with
each other and with statistics over queries, not with a truth fixed in advance.

- :mod:`~ndcg_research.studies.realdata.recommenders`: top-N recommenders on a per-user temporal split;
- :mod:`~ndcg_research.studies.realdata.problems`: the rankings as one problem (queries x candidates with
  grades and each system's scores), from MovieLens or from qrels and runs, and back as qrels and run tables;
- :mod:`~ndcg_research.studies.realdata.experiments`: per-query nDCG, list-length samples, comparisons,
  query sets, the first-order theory and the evaluation's conventions on a problem.

Imports :func:`~ndcg_research.studies.simulation.theory.eps` (the discounts' local log-slope, a
property of the discount alone) from the simulation room, and nothing else of it.
"""
