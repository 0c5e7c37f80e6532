"""How each widely used tool computes nDCG of a ranking, as named presets (``convention="..."``).

Every preset fixes the choices on which tools disagree (see
``shared/reference/conventions-crosswalk.md`` for the sources); :func:`evaluate` applies
them through the metric core's parameters (``gain=``, ``discount=``, ``ideal=``,
``ties=``, ``zero_ideal=``, ``judged=``).

================  ======  =======================  =========  ==========  ===========  ==============
preset            gain    ideal built from         ties       no relevant negative     queries averaged
================  ======  =======================  =========  ==========  ===========  ==============
``trec_eval``     linear  every judged grade        docno desc 0           unjudged     in both files
``gdeval``        exp2    every judged grade        docno desc (skipped)   unjudged     with a relevant doc
``sklearn``       linear  the ranked list           averaged   0           error        in both files
``torchmetrics``  linear  the ranked list           averaged   0           error        in both files
``tf_ranking``    exp2    the ranked list           averaged   0           dropped      in both files
``lightgbm``      exp2    the ranked list           file order 1           error        in both files
``xgboost``       exp2    the ranked list           file order 1           error        in both files
``xgboost-``      exp2    the ranked list           file order 0           error        in both files
``ranx``          linear  every judged grade        file order 0           unjudged     every judged query
``ranx_burges``   exp2    every judged grade        file order 0           unjudged     every judged query
================  ======  =======================  =========  ==========  ===========  ==============

The discount is 1 / log2(1 + r) everywhere (LightGBM's 1 / ln(1 + r) gives the same nDCG:
the constant factor cancels). "docno desc": tied scores are ordered by document id in
descending ``strcmp`` order, the rank column is ignored. "file order": tied scores keep
their order in the run (a stable sort). "averaged": each tied group gets its mean gain
(McSherry & Najork). "no relevant": what a query whose ideal DCG is 0 scores. "negative":
what a grade below 0 in the qrels means: "unjudged" is trec_eval's "in the pool but not
judged" (gain 0, left out of the ideal, dropped with ``judged_only``), "dropped" removes
the document from the ranked list (TF-Ranking treats negative labels as padding),
"error" refuses them (scikit-learn, LightGBM, XGBoost raise). "queries averaged": the
queries of the run that have judgments; for ``gdeval`` only those with a grade above 0;
for ``ranx`` every judged query, one missing from the run scoring 0 (ranx refuses query
sets that differ unless ``make_comparable=True``, which does this).
Decisions where a tool leaves it open are recorded in :data:`CONVENTIONS` (``notes``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

__all__ = ["Convention", "CONVENTIONS", "ALIASES", "get_convention"]


@dataclass(frozen=True)
class Convention:
    """One tool's way of computing nDCG from qrels and a run.

    Attributes
    ----------
    name : str
        The preset's name.
    tool : str
        The tool and the function or measure it reproduces.
    gain, discount : str
        Default gain and discount specs (a measure may override them).
    ideal : {"judged", "ranking"}
        "judged": every judged grade of the query, retrieved or not; "ranking": the
        grades of the ranked list itself (the candidate set).
    ties : {"docno", "input", "average"}
        Order of documents with equal scores (see the module table).
    zero_ideal : {"zero", "one"}
        Value of a query whose ideal DCG is 0.
    negative : {"unjudged", "drop", "error"}
        Meaning of a qrels grade below 0.
    queries : {"both", "relevant", "qrels"}
        Which queries are averaged by default: those in both files; those in both with
        a grade above 0; every judged query (a missing one scoring 0).
    integer_grades : bool
        Grades must be integers (the tool reads or requires integers).
    max_grade : int or None
        Largest grade the tool accepts.
    notes : str
        Where the behaviour comes from and how it was verified.
    """

    name: str
    tool: str
    gain: str
    discount: str
    ideal: Literal["judged", "ranking"]
    ties: Literal["docno", "input", "average"]
    zero_ideal: Literal["zero", "one"]
    negative: Literal["unjudged", "drop", "error"]
    queries: Literal["both", "relevant", "qrels"]
    integer_grades: bool
    max_grade: int | None
    notes: str


CONVENTIONS: dict[str, Convention] = {
    c.name: c
    for c in [
        Convention(
            "trec_eval", "trec_eval 9/10 ndcg, ndcg_cut (and pytrec_eval, ir_measures' pytrec_eval provider)",
            "linear", "log2", "judged", "docno", "zero", "unjudged", "both", True, None,
            "From m_ndcg.c, m_ndcg_cut.c, form_res_rels.c and gain_init.c; tested against pytrec_eval and, "
            "by hand, the documented -c, -M, -J and gain-map behaviour. trec_eval 10.0 stops (exit 4) when a "
            "judged query has no ranking and -c is not given; 9.x and pytrec_eval average over the queries in "
            "both files, as here.",
        ),
        Convention(
            "gdeval", "gdeval.pl 1.3 (TREC Web track) ndcg@k",
            "exp2", "log2", "judged", "docno", "zero", "unjudged", "relevant", True, 4,
            "From gdeval.pl 1.3: judgments above 0 are kept (max 4), the run is sorted by score then docno "
            "descending, topics without a relevant judgment are not evaluated, -c divides by the topics with "
            "one. gdeval always cuts at k (default 20: ask for ndcg@20) and prints 5 decimals. Verified on "
            "hand-computed cases.",
        ),
        Convention(
            "sklearn", "scikit-learn ndcg_score(y_true, y_score, k=k)",
            "linear", "log2", "ranking", "average", "zero", "error", "both", False, None,
            "Tested against sklearn.metrics.ndcg_score on the candidate lists of the run (labels from the "
            "qrels, 0 when unjudged); scikit-learn raises for negative labels.",
        ),
        Convention(
            "torchmetrics", "TorchMetrics retrieval_normalized_dcg / RetrievalNormalizedDCG(top_k=k)",
            "linear", "log2", "ranking", "average", "zero", "error", "both", False, None,
            "Not installed here (needs torch); from its documentation and source: a port of scikit-learn's "
            "tie-averaged DCG, ideal from the same list, empty_target_action='neg' gives 0 to a query "
            "without a positive target. Verified on hand-computed cases.",
        ),
        Convention(
            "tf_ranking", "TF-Ranking NDCGMetric(topn=k) with its default gain and discount",
            "exp2", "log2", "ranking", "average", "zero", "drop", "both", False, None,
            "Not installed here (needs TensorFlow); from metrics_impl.py: gain 2^l - 1, discount "
            "log(2)/log(1 + r), ideal from the list, 0 when the ideal is 0 (divide_no_nan), labels below 0 "
            "are padding (the document is removed). TF-Ranking breaks ties at random; the preset gives the "
            "expected value over those random orders, which is the tie average. Verified on hand-computed cases.",
        ),
        Convention(
            "lightgbm", "LightGBM metric ndcg@k (default label_gain 2^i - 1)",
            "exp2", "log2", "ranking", "input", "one", "error", "both", True, 30,
            "Tested against LightGBM's own metric (a booster evaluated with the scores as init_score): "
            "ties keep the data order (stable sort), a query without a relevant document scores 1, labels "
            "must be integers below 31 with the default label_gain.",
        ),
        Convention(
            "xgboost", "XGBoost eval_metric ndcg@k (ndcg_exp_gain=true)",
            "exp2", "log2", "ranking", "input", "one", "error", "both", True, 31,
            "Tested against XGBoost's own metric (a booster with learning_rate 0 and the scores as "
            "base_margin): ties keep the data order, a query without a relevant document scores 1, labels "
            "must be integers 0..31 with the exponential gain.",
        ),
        Convention(
            "xgboost-", "XGBoost eval_metric ndcg@k- (the '-' suffix)",
            "exp2", "log2", "ranking", "input", "zero", "error", "both", True, 31,
            "As 'xgboost', but a query without a relevant document scores 0 (tested against XGBoost).",
        ),
        Convention(
            "ranx", "ranx evaluate(qrels, run, 'ndcg@k', make_comparable=True)",
            "linear", "log2", "judged", "input", "zero", "unjudged", "qrels", True, None,
            "Tested against ranx: grades below 1 count 0 (rel_lvl=1), the ideal comes from the judged "
            "grades, every query of the qrels is averaged (a missing one scores 0). ranx sorts a ranking "
            "with numba's quicksort, which keeps tied documents in file order only for lists of up to 16 "
            "documents; longer lists with ties are ordered unpredictably there, so the preset keeps file "
            "order (tie-free runs agree exactly).",
        ),
        Convention(
            "ranx_burges", "ranx evaluate(qrels, run, 'ndcg_burges@k', make_comparable=True)",
            "exp2", "log2", "judged", "input", "zero", "unjudged", "qrels", True, None,
            "As 'ranx' with the gain 2^rel - 1 (tested against ranx).",
        ),
    ]
}

#: Other names accepted for the presets.
ALIASES: dict[str, str] = {
    "pytrec_eval": "trec_eval",
    "scikit-learn": "sklearn",
    "tensorflow_ranking": "tf_ranking",
    "tfr": "tf_ranking",
    "xgboost_minus": "xgboost-",
}


def get_convention(name: str | Convention) -> Convention:
    """The preset called ``name`` (or an alias), or a :class:`Convention` unchanged.

    Raises
    ------
    ValueError
        Unknown name; the message lists the presets.

    Examples
    --------
    >>> get_convention("sklearn").ties
    'average'
    >>> get_convention("lightgbm").zero_ideal
    'one'
    >>> get_convention("trec")
    Traceback (most recent call last):
    ...
    ValueError: unknown convention 'trec'; valid conventions: trec_eval, gdeval, sklearn, torchmetrics, tf_ranking, lightgbm, xgboost, xgboost-, ranx, ranx_burges
    """
    if isinstance(name, Convention):
        return name
    if not isinstance(name, str):
        raise TypeError(f"convention must be a preset name, got {type(name).__name__} {name!r}")
    key = ALIASES.get(name, name)
    if key not in CONVENTIONS:
        raise ValueError(f"unknown convention {name!r}; valid conventions: {', '.join(CONVENTIONS)}")
    return CONVENTIONS[key]
