"""How each widely used tool computes nDCG of a ranking, as named presets (``convention="..."``).

Every preset fixes the choices on which tools disagree (see
``shared/reference/conventions-crosswalk.md`` for the sources, and the documentation page
"Evaluation presets" for what was checked against each tool); :func:`evaluate` applies them.

================  ======  ==============  ==========  =======  ========  ========  ==============  ========
preset            gain    ideal from      ties        scores   no rel.   negative  missing query   no @k
================  ======  ==============  ==========  =======  ========  ========  ==============  ========
``trec_eval``     linear  judged grades   docno desc  float64  0         unjudged  0 (-c)          whole
``pytrec_eval``   linear  judged grades   docno desc  float32  0         unjudged  left out        whole
``gdeval``        exp2    judged grades   docno desc  float64  skipped   unjudged  left out        whole
``sklearn``       linear  the list        averaged    float64  0         error     left out        whole
``torchmetrics``  linear  the list        averaged    float32  0         kept      left out        whole
``tf_ranking``    exp2    the list        averaged    float32  0         dropped   left out        whole
``lightgbm``      exp2    the list        file order  float64  1         error     left out        whole
``xgboost``       exp2    the list        file order  float32  1         error     left out        32
``xgboost-``      exp2    the list        file order  float32  0         error     left out        32
``ranx``          linear  judged grades   file order  float64  0         unjudged  0               whole
``ranx_burges``   exp2    judged grades   file order  float64  0         unjudged  0               whole
================  ======  ==============  ==========  =======  ========  ========  ==============  ========

The discount is 1 / log2(1 + r) everywhere (LightGBM's 1 / ln(1 + r) gives the same nDCG:
the constant factor cancels). "docno desc": tied scores are ordered by document id in
descending ``strcmp`` order, the rank column is ignored. "file order": tied scores keep
their order in the run (a stable sort). "averaged": each tied group gets its mean gain
(McSherry & Najork). "scores": the precision the tool keeps scores in (float32: scores equal
in float32 tie). "no rel.": what a query whose ideal DCG is 0 scores. "negative": what a
grade below 0 in the qrels means: "unjudged" is trec_eval's "in the pool but not judged"
(gain 0, left out of the ideal, dropped with ``judged_only``), "dropped" removes the document
from the ranked list (TF-Ranking treats negative labels as padding), "kept" a negative gain
(TorchMetrics), "error" refuses them (scikit-learn, LightGBM, XGBoost raise). "missing
query": a judged query the run does not rank (``complete=`` overrides it); ``gdeval``
evaluates only queries with a grade above 0. "no @k": where a measure without cut-off cuts.
Decisions where a tool leaves it open are recorded in :data:`CONVENTIONS` (``notes``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from ..core.constraints import Constraint
from ..core.constraints.base import type_and_value
from ..core.params import validate_params

__all__ = ["Convention", "CONVENTIONS", "ALIASES", "get_convention", "ConventionSpec", "CONVENTION"]


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
    negative : {"unjudged", "drop", "error", "keep"}
        Meaning of a qrels grade below 0 ("keep": a negative gain, in the list and the ideal).
    eligible : {"judged", "relevant"}
        Which queries of the run are evaluated: those with judgments, or with a grade above 0.
    missing : {"zero", "skip"}
        A judged (eligible) query the run does not rank: scored 0, or left out of the mean.
    integer_grades : bool
        Grades must be integers (the tool reads or requires integers).
    max_grade : int or None
        Largest grade the tool accepts.
    notes : str
        Where the behaviour comes from and how it was verified.
    score_dtype : {"float64", "float32"}
        The precision the tool keeps scores in: float32 makes scores tie that differ only
        beyond float32's precision.
    truncation : int or None
        Where the tool cuts a list when no cut-off is asked for (XGBoost: 32).
    single_document : {"score", "error"}
        A query with one ranked document: evaluated, or refused (scikit-learn).
    unstable_ties_from : int or None
        From this list length on the tool orders tied scores by an unstable sort (ranx: 16),
        which the preset does not reproduce: such queries are named in a note.
    random_ties : bool
        The tool breaks ties at random (TF-Ranking): the preset gives the expected value over
        those orders (the tie average), and a note says how many queries it concerns.
    """

    name: str
    tool: str
    gain: str
    discount: str
    ideal: Literal["judged", "ranking"]
    ties: Literal["docno", "input", "average"]
    zero_ideal: Literal["zero", "one"]
    negative: Literal["unjudged", "drop", "error", "keep"]
    eligible: Literal["judged", "relevant"]
    missing: Literal["zero", "skip"]
    integer_grades: bool
    max_grade: int | None
    notes: str
    score_dtype: Literal["float64", "float32"] = "float64"
    truncation: int | None = None
    single_document: Literal["score", "error"] = "score"
    unstable_ties_from: int | None = None
    random_ties: bool = False


#: The presets by name: each tool's way of computing nDCG (the table in the module docstring).
CONVENTIONS: dict[str, Convention] = {
    c.name: c
    for c in [
        Convention(
            "trec_eval", "trec_eval 10.0 ndcg, ndcg_cut",
            "linear", "log2", "judged", "docno", "zero", "unjudged", "judged", "zero", True, None,
            "From trec_eval 10.0's m_ndcg.c, m_ndcg_cut.c, form_res_rels.c and gain_init.c; byte-identical to "
            "trec_eval 10.0 on generated collections (benchmarks/bench_evaluate.py) and on its documented -c, -M, -J "
            "and gain-map behaviour. Scores are doubles. trec_eval 10.0 stops (exit 4) when a judged query has no "
            "ranking unless -c is given, so a judged query missing from the run scores 0 here (-c); "
            "complete=False (--answered-only) leaves it out instead, as trec_eval 9 did.",
        ),
        Convention(
            "pytrec_eval", "pytrec_eval (trec_eval 9.x inside; also ir_measures' pytrec_eval provider)",
            "linear", "log2", "judged", "docno", "zero", "unjudged", "judged", "skip", True, None,
            "Tested against pytrec_eval: trec_eval 9.x keeps scores as 32-bit floats, so scores equal in float32 "
            "tie and are ordered by document id; a judged query missing from the run is left out of the mean.",
            score_dtype="float32",
        ),
        Convention(
            "gdeval", "gdeval.pl 1.3 (TREC Web track) ndcg@k",
            "exp2", "log2", "judged", "docno", "zero", "unjudged", "relevant", "skip", True, 4,
            "From gdeval.pl 1.3: judgments above 0 are kept (max 4), the run is sorted by score then docno "
            "descending, topics without a relevant judgment are not evaluated, -c divides by the topics with "
            "one. gdeval always cuts at k (default 20: ask for ndcg@20) and prints 5 decimals. Verified on "
            "hand-computed cases (gdeval is a Perl script, not run here).",
        ),
        Convention(
            "sklearn", "scikit-learn ndcg_score(y_true, y_score, k=k)",
            "linear", "log2", "ranking", "average", "zero", "error", "judged", "skip", False, None,
            "Tested against sklearn.metrics.ndcg_score on the candidate lists of the run (labels from the "
            "qrels, 0 when unjudged); scikit-learn raises for negative labels and for a list of one document, "
            "and so does the preset.",
            single_document="error",
        ),
        Convention(
            "torchmetrics", "TorchMetrics retrieval_normalized_dcg / RetrievalNormalizedDCG(top_k=k)",
            "linear", "log2", "ranking", "average", "zero", "keep", "judged", "skip", False, None,
            "From TorchMetrics' source (a port of scikit-learn's tie-averaged DCG): predictions are cast to "
            "float32, tied predictions averaged, the ideal comes from the same list, negative targets are kept "
            "(they lower the DCG and the ideal), empty_target_action='neg' gives 0 to a query without a positive "
            "target. Checked against TorchMetrics itself by benchmarks/check_presets_torchmetrics.py (needs "
            "torch), and in the test suite against a model of it.",
            score_dtype="float32",
        ),
        Convention(
            "tf_ranking", "TF-Ranking NDCGMetric(topn=k) with its default gain and discount",
            "exp2", "log2", "ranking", "average", "zero", "drop", "judged", "skip", False, None,
            "Not installed here (needs TensorFlow); from metrics_impl.py: scores cast to float32, gain 2^l - 1, "
            "discount log(2)/log(1 + r), ideal from the list, 0 when the ideal is 0 (divide_no_nan), labels below "
            "0 are padding (the document is removed). TF-Ranking breaks ties at random; the preset gives the "
            "expected value over those random orders (the tie average), and a note counts the queries with ties. "
            "Checked against a model of it (hand computations).",
            score_dtype="float32", random_ties=True,
        ),
        Convention(
            "lightgbm", "LightGBM metric ndcg@k (default label_gain 2^i - 1)",
            "exp2", "log2", "ranking", "input", "one", "error", "judged", "skip", True, 30,
            "Tested against LightGBM's own metric (a booster evaluated with the scores as init_score): "
            "ties keep the data order (stable sort), a query without a relevant document scores 1, labels "
            "must be integers below 31 with the default label_gain.",
        ),
        Convention(
            "xgboost", "XGBoost eval_metric ndcg@k (ndcg_exp_gain=true)",
            "exp2", "log2", "ranking", "input", "one", "error", "judged", "skip", True, 31,
            "Tested against XGBoost's own metric (a booster with learning_rate 0 and the scores as "
            "base_margin): scores are float32, ties keep the data order, a query without a relevant document "
            "scores 1, labels must be integers 0..31 with the exponential gain, and 'ndcg' without @k cuts the "
            "list at 32 (XGBoost's default truncation).",
            score_dtype="float32", truncation=32,
        ),
        Convention(
            "xgboost-", "XGBoost eval_metric ndcg@k- (the '-' suffix)",
            "exp2", "log2", "ranking", "input", "zero", "error", "judged", "skip", True, 31,
            "As 'xgboost', but a query without a relevant document scores 0 (tested against XGBoost).",
            score_dtype="float32", truncation=32,
        ),
        Convention(
            "ranx", "ranx evaluate(qrels, run, 'ndcg@k', make_comparable=True)",
            "linear", "log2", "judged", "input", "zero", "unjudged", "judged", "zero", True, None,
            "Tested against ranx: grades below 1 count 0 (rel_lvl=1), the ideal comes from the judged "
            "grades, every query of the qrels is averaged (a missing one scores 0). ranx sorts a ranking "
            "with numba's quicksort, which keeps tied documents in file order only for lists of fewer than 16 "
            "documents; longer lists with ties are ordered otherwise there (an unstable sort), which the preset "
            "does not reproduce: a note names how many queries that concerns (tie-free runs agree exactly).",
            unstable_ties_from=16,
        ),
        Convention(
            "ranx_burges", "ranx evaluate(qrels, run, 'ndcg_burges@k', make_comparable=True)",
            "exp2", "log2", "judged", "input", "zero", "unjudged", "judged", "zero", True, None,
            "As 'ranx' with the gain 2^rel - 1 (tested against ranx).",
            unstable_ties_from=16,
        ),
    ]
}

#: Other names accepted for the presets.
ALIASES: dict[str, str] = {
    "trec_eval10": "trec_eval",
    "trec_eval9": "pytrec_eval",
    "scikit-learn": "sklearn",
    "tensorflow_ranking": "tf_ranking",
    "tfr": "tf_ranking",
    "xgboost_minus": "xgboost-",
}


class ConventionSpec(Constraint):
    """The constraint of every ``convention`` argument: a preset's name (or alias), or a :class:`Convention`.

    Normalised to the :class:`Convention`; errors are worded in terms of the convention
    (``"unknown convention 'trec'; valid conventions: ..."``).

    Examples
    --------
    >>> CONVENTION.check("scikit-learn", "convention").name
    'sklearn'
    """

    subject = "convention"

    def _describe(self) -> str:
        return "a preset name or a Convention"

    def _check(self, value: Any, name: str) -> Convention:
        if isinstance(value, Convention):
            return value
        if not isinstance(value, str):
            raise TypeError(f"convention must be a preset name, got {type_and_value(value)}")
        key = ALIASES.get(value, value)
        if key not in CONVENTIONS:
            raise ValueError(f"unknown convention {value!r}; valid conventions: {', '.join(CONVENTIONS)}")
        return CONVENTIONS[key]

    def example(self) -> str:
        return "trec_eval"

    def invalid_values(self) -> list[Any]:
        return ["trec", "", 3, object(), *super().invalid_values()]


#: The constraint of the ``convention`` of :func:`get_convention`, ``evaluate`` and ``run_matrices``.
CONVENTION = ConventionSpec()


@validate_params(name=CONVENTION)
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
    ValueError: unknown convention 'trec'; valid conventions: trec_eval, pytrec_eval, gdeval, sklearn, torchmetrics, tf_ranking, lightgbm, xgboost, xgboost-, ranx, ranx_burges
    """
    return name  # looked up by CONVENTION
