"""Measures (the package's specs ``ndcg@10(gain=..., discount=..., gains={grade: gain})``, or trec_eval names read as
trec_eval reads them) and the presets of the tools whose nDCG the evaluator reproduces (guide "Evaluation presets")."""

import ast
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, fields, replace
from typing import Any, Literal, get_args, get_origin

from .._validation import check_bool, check_int, check_option, type_and_value
from ..core import format_number, parse_call, parse_discount, parse_gain

#: A trec_eval gain map: (grade, gain) pairs sorted by grade.
Gains = tuple[tuple[int, float], ...]
VALID_MEASURES = (
    "valid measures: ndcg, ndcg@K, ndcg@K(gain=..., discount=..., gains={grade: gain, ...}) "
    "and the trec_eval names ndcg, ndcg_cut, ndcg_cut.K1,K2,..., ndcg.GRADE=GAIN,..."
)
SPEC_OPTIONS = ("gain", "discount", "gains")


@dataclass(frozen=True)
class Measure:
    """One nDCG variant to compute.

    Attributes
    ----------
    name : str
        How results name it: the trec_eval name if it was given as one (``ndcg_cut_10``),
        else the canonical spec (``ndcg@10(gain=exp2)``), without spaces.
    k : int or None
        Cut-off of the ranking and the ideal; None cuts nothing.
    gain, discount : str or None
        Canonical specs; None takes the convention's.
    gains : tuple of (int, float) pairs or None
        trec_eval gain map (grade, gain), sorted by grade.
    """

    name: str
    k: int | None = None
    gain: str | None = None
    discount: str | None = None
    gains: Gains | None = None

    def __post_init__(self) -> None:
        # A Measure made by hand is checked as a parsed spec is (parse_measures and evaluate take it as it is).
        if not isinstance(self.name, str) or not self.name.strip():
            raise TypeError(f"Measure name must be a non-empty str, got {type_and_value(self.name)}")
        if self.k is not None and (isinstance(self.k, bool) or not isinstance(self.k, int) or self.k < 1):
            raise ValueError(f"Measure {self.name!r}: k must be an integer >= 1 or None, got {type_and_value(self.k)}")
        for option, parse in (("gain", parse_gain), ("discount", parse_discount)):
            value = getattr(self, option)
            if isinstance(value, str):  # its canonical text, the measure's key
                object.__setattr__(self, option, str(parse(value)))
            elif value is not None:  # a function: checked, kept as given
                parse(value)
        if self.gains is not None:
            pairs = list(self.gains.items() if isinstance(self.gains, dict) else self.gains)
            if any(not isinstance(pair, tuple) or len(pair) != 2 for pair in pairs) or len(dict(pairs)) < len(pairs):
                raise ValueError(f"Measure {self.name!r}: gains must be (grade, gain) pairs, each grade once")
            if self.gain is not None:
                raise ValueError(f"Measure {self.name!r}: give either gain or gains (a gain map replaces the gain)")
            object.__setattr__(self, "gains", _checked_gains(dict(pairs), self.name))

    def with_defaults(self, gain: str | None, discount: str | None) -> "Measure":
        """This measure with ``gain`` / ``discount`` filled in where it sets none (renamed as a spec)."""
        new_gain = self.gain if self.gain is not None or self.gains is not None else gain
        new_discount = self.discount if self.discount is not None else discount
        if (new_gain, new_discount) == (self.gain, self.discount):
            return self
        return _spec_measure(self.k, new_gain, new_discount, self.gains)

    @property
    def key(self) -> tuple[int | None, str | None, str | None, Gains | None]:
        """What the measure computes, whatever its name (``ndcg_cut_10`` and ``ndcg@10`` are one measure)."""
        return self.k, self.gain, self.discount, self.gains

    def spec(self) -> str:
        """The canonical spec string of this measure.

        Examples
        --------
        >>> parse_measures("ndcg_cut.10")[0].spec()
        'ndcg@10'
        """
        return _spec_measure(*self.key).name


def _spec_measure(k: int | None, gain: str | None, discount: str | None, gains: Gains | None) -> Measure:
    """The measure named by its canonical spec."""
    options = [f"{option}={value}" for option, value in (("gain", gain), ("discount", discount)) if value is not None]
    if gains is not None:
        options.append("gains={" + ",".join(f"{g}:{format_number(v)}" for g, v in gains) + "}")
    text = "ndcg" + ("" if k is None else f"@{k}") + (f"({','.join(options)})" if options else "")
    return Measure(text.replace(" ", ""), k, gain, discount, gains)


TREC_NUMBER = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
# What C's strtod (atof) reads at the start of a text: decimal, hexadecimal, infinity, NaN.
_STRTOD = re.compile(
    r"(?ai)[+-]?(?:(?P<inf>inf(?:inity)?)|(?P<nan>nan(?:\([0-9a-z_]*\))?)"
    r"|(?P<hex>0x(?:[0-9a-f]+\.?[0-9a-f]*|\.[0-9a-f]+)(?:p[+-]?[0-9]+)?)"
    r"|(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:e[+-]?[0-9]+)?)"
)
_TREC_CUTOFF = re.compile(r"[+-]?[0-9]+(?:\.0*)?")  # a whole number (a fraction would be truncated by atol)


def atof_refusal(text: str) -> str:
    """Why ``text`` (a score or a gain; not a finite decimal number) is refused, and what trec_eval's atof reads."""
    match = _STRTOD.match(text)
    if match is None:  # atof reads nothing: 0
        return "is not a number"
    read = match.group()
    try:
        value = float("nan") if match.group("nan") else float.fromhex(read) if match.group("hex") else float(read)
    except OverflowError:  # a hexadecimal number beyond float64: strtod reads an infinity (HUGE_VAL)
        value = -math.inf if read.startswith("-") else math.inf
    read = str(int(value)) if value.is_integer() else repr(value)  # 2, 0.5, nan, inf
    rest = " and ignores the rest" if match.end() < len(text) else ""
    if rest:
        what = "is not a number"
    elif match.group("hex"):
        what = "is a hexadecimal number, which most tools do not read: write it in decimal"
    elif TREC_NUMBER.fullmatch(text):  # a decimal number beyond float64
        what = "is beyond the float64 range"
    else:  # inf, nan
        what = "is not a finite number"
    return f"{what} (trec_eval's atof reads {read}{rest})"


def _trec_cutoffs(measure: str, params: str) -> list[Measure]:
    if not params:
        raise ValueError(
            f"measure {measure!r}: no cut-offs listed (trec_eval: 'improper measure'); give them after the dot "
            f"(ndcg_cut.10,20), or write ndcg_cut for its defaults"
        )
    cutoffs = []
    for p in params.split(","):
        # trec_eval reads each cut-off with atol: C's isspace blanks around it skipped, a fraction truncated (refused)
        p = p.strip(" \t\n\v\f\r")
        if _TREC_CUTOFF.fullmatch(p) is None:
            raise ValueError(
                f"measure {measure!r}: cut-off {p!r} is not a whole number (trec_eval's atol would "
                f"read {atol(p)}); {VALID_MEASURES}"
            )
        # atol saturates at LONG_MAX, and trec_eval names the measure by the value it read
        cutoffs.append(min(atol(p), 2**63 - 1))
    if max(cutoffs) - min(cutoffs) >= 2**31:
        raise ValueError(
            f"measure {measure!r}: cut-offs {min(cutoffs)} and {max(cutoffs)} differ by 2^31 or more: trec_eval's sort "
            f"(meas_init.c, comp_long: their difference as a C int) can misorder them and misname values; write "
            f"cut-offs from 1 to 2^31 - 1 (a larger one cuts no real ranking; ndcg has no cut-off)"
        )
    if min(cutoffs) < 1:
        raise ValueError(f"measure {measure!r}: cut-offs must be >= 1 (trec_eval: 'Negative cutoff detected')")
    if len(set(cutoffs)) != len(cutoffs):
        raise ValueError(f"measure {measure!r}: duplicate cut-offs (trec_eval: 'duplicate cutoffs detected')")
    return [Measure(f"ndcg_cut_{k}", k) for k in sorted(cutoffs)]


#: What C's ``atol`` reads: leading C blanks (isspace; not Python's wider set), then a sign and ASCII digits.
ATOL = re.compile(r"[ \t\n\v\f\r]*([+-]?[0-9]+)")


def atol(text: str) -> int:
    """What C's ``atol`` reads from ``text`` (:data:`ATOL`), else 0."""
    match = ATOL.match(text)
    return int(match.group(1)) if match else 0


def _trec_gains(measure: str, params: str) -> Measure:
    pairs: dict[int, float] = {}
    for item in params.split(","):
        level, _, gain = item.partition("=")
        # meas_init.c's get_param_pairs: one '=' per entry, or "malformed pair parameters"; an empty gain is atof's 0
        if (malformed := item.count("=") != 1) or not gain:
            what = "trec_eval refuses it too" if malformed else "trec_eval reads an empty gain as 0"
            raise ValueError(
                f"measure {measure!r}: gain map entries are GRADE=GAIN, got {item!r} ({what}); {VALID_MEASURES}"
            )
        if not re.fullmatch(r"[+-]?[0-9]+", level):  # (gain_init.c's valid_int; -0 is grade 0)
            raise ValueError(
                f"measure {measure!r}: grade {level!r} must be an integer >= 0 (trec_eval skips the entry, silently)"
            )
        if int(level) < 0:
            raise ValueError(
                f"measure {measure!r}: grade {level} is below 0: trec_eval marks a ranked document absent from the "
                "qrels -1 and one judged below 0 -2 (form_res_rels.c), so it gives grade -1's gain to every unjudged "
                "document, grade -2's to every document judged below 0 (never to the ideal), and another negative "
                "grade's to none: give gains for grades >= 0"
            )
        # A finite decimal number, which trec_eval's atof reads in full (C's isspace blanks around it skipped): 1_0
        # and 3x, where atof stops early, and 0x10 or inf, which it reads but other tools do not, are refused.
        gain = gain.strip(" \t\n\v\f\r")
        if TREC_NUMBER.fullmatch(gain) is None or not math.isfinite(float(gain)):
            raise ValueError(f"measure {measure!r}: gain {gain!r} {atof_refusal(gain)}; {VALID_MEASURES}")
        if pairs.setdefault(int(level), float(gain)) != float(gain):  # (the same gain twice is one)
            raise ValueError(
                f"measure {measure!r}: grade {int(level)} is given two gains; trec_eval accepts this, but its "
                "ranking may take one gain and its ideal the other (gain_init.c): give each grade once"
            )
    return Measure(f"ndcg_{params}", gains=tuple(pairs.items()))  # (sorted by Measure)


def _normalised_call(text: str) -> str:
    """Quote bare names and calls used as option values: ``gain=exp2`` -> ``gain='exp2'``."""
    try:
        node = ast.parse(text, mode="eval").body
    except SyntaxError:
        return text  # parse_call reports it
    if isinstance(node, ast.Call):
        for keyword in node.keywords:
            if isinstance(keyword.value, (ast.Name, ast.Call)):
                keyword.value = ast.Constant(ast.unparse(keyword.value))
        return ast.unparse(node)
    return text


def _checked_gains(value: object, measure: str) -> Gains:
    if not isinstance(value, dict) or not value:
        raise ValueError(f"measure {measure!r}: gains must be a non-empty dict {{grade: gain}}, got {value!r}")
    for level, gain in value.items():
        if isinstance(level, bool) or not isinstance(level, int) or level < 0:
            raise ValueError(f"measure {measure!r}: gains keys must be integer grades >= 0, got {level!r}")
        if isinstance(gain, bool) or not isinstance(gain, (int, float)) or not math.isfinite(gain):
            raise ValueError(f"measure {measure!r}: gains values must be finite numbers, got {gain!r}")
    return tuple(sorted((level, float(gain)) for level, gain in value.items()))


def _parse_spec(text: str) -> Measure:
    # [0-9], not \d: Python's \d matches every script's digits ('ndcg@١٠' was read as ndcg@10)
    match = re.fullmatch(r"\s*ndcg\s*(?:@\s*([0-9]+))?\s*(\(.*\))?\s*", text, flags=re.DOTALL)
    if match is None:
        name, hint = text.strip(), ""
        cut = re.fullmatch(r"ndcg_cut_([0-9]+)", name)
        if (base := name.partition(".")[0]) in ("ndcg_rel", "Rndcg"):  # measures.c
            hint = f" (trec_eval's {base}, a variant of nDCG, is not computed here; ndcg and ndcg_cut are)"
        elif not name.lower().startswith("ndcg"):
            hint = " (nDCG only)"
        elif name.count("(") != name.count(")"):  # ndcg@10(gain=exp2
            hint = " (its parentheses do not pair)"
        elif cut:  # the name trec_eval prints, copied back
            hint = f" (the name trec_eval prints; it reads ndcg_cut.{cut[1]}, or write ndcg@{cut[1]})"
        elif "," in name or " " in name:
            hint = " (one measure per spec, each -m on the command line; ndcg_cut.10,20 lists cut-offs)"
        elif name != name.lower() and _parses(name.lower()):  # ir_measures writes nDCG@10
            hint = f" (measure names are lower case: {name.lower()!r})"
        raise ValueError(f"unknown measure {text!r}{hint}; {VALID_MEASURES}")
    k = None if match.group(1) is None else int(match.group(1))
    if k is not None and k < 1:
        raise ValueError(f"measure {text!r}: the cut-off must be >= 1")
    options: dict[str, Any] = {}
    if match.group(2) is not None:
        _, args, options = parse_call(_normalised_call("ndcg" + match.group(2)), what="measure")
        if args:
            raise ValueError(f"measure {text!r}: options are named (gain=..., discount=..., gains=...)")
        unknown = ", ".join(sorted(set(options) - set(SPEC_OPTIONS)))
        if unknown:
            raise ValueError(f"measure {text!r}: unknown option(s) {unknown}; options: {', '.join(SPEC_OPTIONS)}")
    try:
        gain = str(parse_gain(options["gain"], builtin_only=True)) if "gain" in options else None
        discount = str(parse_discount(options["discount"], builtin_only=True)) if "discount" in options else None
    except (TypeError, ValueError) as error:  # the spec's own message, said of this measure
        raise type(error)(f"measure {text!r}: {error}") from None
    gains = _checked_gains(options["gains"], text) if "gains" in options else None  # (Measure refuses it beside gain)
    return _spec_measure(k, gain, discount, gains)


def _parses(text: str) -> bool:
    try:
        return bool(_parse_one(text))
    except ValueError:
        return False


def _parse_one(text: str) -> list[Measure]:
    """The measures of one spec string (``ndcg_cut`` gives several)."""
    stripped = text.strip()
    name, dot, params = stripped.partition(".")
    if name == "ndcg_cut":
        return _trec_cutoffs(stripped, params if dot else "5,10,15,20,30,100,200,500,1000")  # trec_eval's defaults
    if name == "ndcg" and dot and "(" not in stripped:
        # trec_eval names a gain map by its text as given, blanks at its end included
        return [_trec_gains(stripped, text.lstrip().partition(".")[2])]
    return [_parse_spec(text)]


@dataclass(frozen=True)
class Convention:
    """One tool's nDCG rules; the defaults are trec_eval's, so a preset states how its tool departs from them.

    Attributes
    ----------
    name : str
        The preset's name.
    tool : str
        The tool and the function or measure it reproduces.
    gain, discount : str
        Default gain and discount specs (a measure may override them).
    ideal : {"judged", "ranking"}
        "judged": all judged grades of the query, retrieved or not; "ranking": the ranked list's grades (candidate set).
    ties : {"docno", "input", "average"}
        Order of documents with equal scores: document id descending (trec_eval), file order, averaged.
    zero_ideal : {"zero", "one"}
        Value of a query whose ideal DCG is 0.
    negative : {"unjudged", "drop", "error", "keep"}
        Meaning of a qrels grade below 0 ("keep": a negative gain, in the list and the ideal).
    eligible : {"judged", "relevant"}
        Which queries of the run are evaluated: those with judgments, or with a grade above 0.
    missing : {"zero", "skip"}
        A judged (eligible) query the run does not rank: scored 0, or left out of the mean.
    empty : {"missing", "zero"}
        A query that a run dict maps to no document (``{}``): missing, or answered with nothing and scored 0.
    integer_grades : bool
        Grades must be integers (the tool reads or requires integers).
    max_grade : int or None
        Largest grade the tool accepts with its gain (a measure with a gain of its own is not limited).
    notes : str
        Where the behaviour comes from and how it was verified.
    score_dtype : {"float64", "float32"}
        The precision of the tool's scores: float32 ties scores that differ only beyond float32's precision.
    truncation : int or None
        Where the tool cuts a list when no cut-off is asked for (XGBoost: 32).
    single_document : {"score", "undefined"}
        A one-document query: scored, or undefined (scikit-learn refuses it: NaN, named in a note, out of the mean).
    unstable_ties_from : int or None
        Length from which the tool sorts ties unstably (ranx: 16; not reproduced: a note counts such queries).
    random_ties : bool
        Ties broken at random (TF-Ranking): the preset gives the expectation (tie average); a note counts the queries.
    """

    name: str
    tool: str
    gain: str = "linear"
    discount: str = "log2"
    ideal: Literal["judged", "ranking"] = "judged"
    ties: Literal["docno", "input", "average"] = "docno"
    zero_ideal: Literal["zero", "one"] = "zero"
    negative: Literal["unjudged", "drop", "error", "keep"] = "unjudged"
    eligible: Literal["judged", "relevant"] = "judged"
    missing: Literal["zero", "skip"] = "zero"
    empty: Literal["missing", "zero"] = "missing"
    integer_grades: bool = True
    max_grade: int | None = None
    notes: str = ""
    score_dtype: Literal["float64", "float32"] = "float64"
    truncation: int | None = None
    single_document: Literal["score", "undefined"] = "score"
    unstable_ties_from: int | None = None
    random_ties: bool = False

    def __post_init__(self) -> None:
        """Refuse a value that no rule reads (a user's Convention: ``ties="Docno"`` fell through to file order)."""
        for field in fields(self):
            value, name = getattr(self, field.name), f"Convention {field.name}"
            if get_origin(field.type) is Literal:
                check_option(value, name, get_args(field.type))
            elif field.type is bool:
                check_bool(value, name)
            elif field.type is str and not isinstance(value, str):
                raise TypeError(f"{name} must be a str, got {type_and_value(value)}")
            elif field.type == int | None:  # a count or a grade: 0 is a grade, not a list length
                check_int(value, name, low=0 if field.name == "max_grade" else 1, none=True)
        parse_gain(self.gain)  # (refused with their own messages)
        parse_discount(self.discount)


# fmt: off
_XGBOOST = Convention(
    "xgboost", "XGBoost eval_metric ndcg@k (ndcg_exp_gain=true)",
    gain="exp2", ideal="ranking", ties="input", zero_ideal="one", negative="error", missing="skip", max_grade=31,
    score_dtype="float32", truncation=32,
    notes="Tested against XGBoost's own metric (a booster with learning_rate 0 and the scores as base_margin): scores "
        "are float32, ties keep the data order, a query without a relevant document scores 1, labels must be integers "
        "0..31 with the exponential gain, and 'ndcg' without @k cuts the list at 32 (XGBoost's default truncation).",
)

#: The presets by name: each tool's way of computing nDCG (tabulated in the guide "Evaluation presets").
CONVENTIONS: dict[str, Convention] = {c.name: c for c in [
    Convention(
        "trec_eval", "trec_eval 10.0 ndcg, ndcg_cut",
        notes="From trec_eval 10.0's m_ndcg.c, m_ndcg_cut.c, form_res_rels.c and gain_init.c; byte-identical to it on "
            "generated collections (benchmarks/bench_evaluate.py) and its documented -c, -M, -J and gain-map "
            "behaviour. Scores are doubles. trec_eval 10.0 stops (exit 4) at a judged query without ranking unless -c "
            "is given, so it scores 0 here (-c); complete=False (--answered-only) leaves it out, as trec_eval 9 did. "
            "trec_eval reserves a counter per grade up to a query's largest (form_res_rels.c), its ndcg a gain table "
            "entry per grade (gain_init.c): from grade 178,956,970 its ndcg crashes, a grade of 10^10 makes it stop "
            "(\"Can't calculate measure\"); here every grade below 2^53 is exact, noted beyond trec_eval's limit. Sums "
            "as trec_eval's (each gain divided by C's log2 of rank + 1, added in rank order; means in query order): "
            "values are trec_eval's to the last bit, also at a rounding boundary of the 4 printed decimals.",
    ),
    Convention(
        "pytrec_eval", "pytrec_eval (trec_eval 9.x inside; ir_measures' pytrec_eval provider with complete=True)",
        missing="skip", empty="zero", score_dtype="float32",
        notes="Tested against pytrec_eval: trec_eval 9.x keeps scores as 32-bit floats, so scores equal in float32 tie "
            "and are ordered by document id (scores beyond float32's range become infinities, which tie too); a judged "
            "query missing from the run is left out of the mean (ir_measures scores it 0: complete=True), one the run "
            "maps to no document ({}) scores 0.",
    ),
    Convention(
        "gdeval", "gdeval.pl 1.3 (TREC Web track) ndcg@k",
        gain="exp2", eligible="relevant", missing="skip", max_grade=4,
        notes="From gdeval.pl 1.3: judgments above 0 kept (max 4), the run sorted by score then docno descending, "
            "topics with no relevant judgment not evaluated, -c divides by the topics with one. It always cuts at k "
            "(default 20: ask for ndcg@20) and prints 5 decimals. Tested against the copy ir_measures 0.4.3 ships "
            "(version 1.2a, modified: no mean line and no -c; its nDCG code is 1.3's).",
    ),
    Convention(
        "sklearn", "scikit-learn ndcg_score(y_true, y_score, k=k)",
        ideal="ranking", ties="average", negative="error", missing="skip", integer_grades=False,
        single_document="undefined",
        notes="Tested against sklearn.metrics.ndcg_score on the run's candidate lists (labels from the qrels, 0 when "
            "unjudged); scikit-learn raises for negative labels, and so does the preset; it raises for a one-document "
            "list too, so such a query is undefined here (NaN, named in a note, left out of the mean), others scored.",
    ),
    Convention(
        "torchmetrics", "TorchMetrics retrieval_normalized_dcg(top_k=k)",
        ideal="ranking", ties="average", negative="keep", missing="skip", integer_grades=False, score_dtype="float32",
        notes="From the source (a port of scikit-learn's tie-averaged DCG): predictions cast to float32, ties "
            "averaged, the ideal from the list, negative targets kept (lowering DCG and ideal), an ideal DCG of 0 "
            "scores 0. The class RetrievalNormalizedDCG agrees for grades >= 0 only: it gives empty_target_action "
            "(default 'neg': 0) to queries whose targets sum to 0, so targets [1, -1] score 0 there, 1 here. Checked "
            "against the function by benchmarks/check_presets_torchmetrics.py (needs torch), in tests against a model.",
    ),
    Convention(
        "tf_ranking", "TF-Ranking NDCGMetric(topn=k) with its default gain and discount",
        gain="exp2", ideal="ranking", ties="average", negative="drop", missing="skip", integer_grades=False,
        score_dtype="float32", random_ties=True,
        notes="From metrics_impl.py (TensorFlow is not installed here): scores cast to float32, gain 2^l - 1, discount "
            "log(2)/log(1 + r), ideal from the list, 0 when the ideal is 0 (divide_no_nan), labels below 0 are padding "
            "(the document is removed). TF-Ranking breaks ties at random: the preset gives the expected value (the tie "
            "average), and a note counts the queries with ties. Checked against a hand-computed model.",
    ),
    Convention(
        "lightgbm", "LightGBM metric ndcg@k (default label_gain 2^i - 1)",
        gain="exp2", ideal="ranking", ties="input", zero_ideal="one", negative="error", missing="skip", max_grade=30,
        notes="Tested against LightGBM's metric (scores as a booster's init_score): ties keep the data order (stable "
            "sort), a query with no relevant document scores 1, labels are integers 0..30 (default label_gain).",
    ),
    _XGBOOST,
    replace(
        _XGBOOST, name="xgboost-", tool="XGBoost eval_metric ndcg@k- (the '-' suffix)", zero_ideal="zero",
        notes="As 'xgboost', but a query without a relevant document scores 0 (tested against XGBoost).",
    ),
    Convention(
        "ranx", "ranx evaluate(qrels, run, 'ndcg@k', make_comparable=True)",
        ties="input", unstable_ties_from=16,
        notes="Tested against ranx: grades below 1 count 0 (rel_lvl=1), the ideal from the judged grades, every qrels "
            "query is averaged (a missing one scores 0). ranx sorts with numba's quicksort, which keeps tied documents "
            "in file order only in lists under 16; longer lists with ties come out in another order (unstable), which "
            "the preset does not reproduce: a note counts such queries (tie-free runs agree exactly).",
    ),
    Convention(
        "ranx_burges", "ranx evaluate(qrels, run, 'ndcg_burges@k', make_comparable=True)",
        gain="exp2", ties="input", unstable_ties_from=16,
        notes="As 'ranx' with the gain 2^rel - 1 (tested against ranx).",
    ),
]}
# fmt: on


#: Other names accepted for the presets.
ALIASES: dict[str, str] = {
    "trec_eval10": "trec_eval",
    "trec_eval9": "pytrec_eval",
    "scikit-learn": "sklearn",
    "tensorflow_ranking": "tf_ranking",
    "tfr": "tf_ranking",
    "xgboost_minus": "xgboost-",
}


def get_convention(convention: str | Convention) -> Convention:
    """The preset called ``convention`` (or an alias), or a ``Convention`` unchanged.

    Parameters
    ----------
    convention : str or Convention
        A preset's name (a key of ``nr.evaluation.CONVENTIONS``) or one of its other names (``ALIASES``).

    Returns
    -------
    Convention

    Raises
    ------
    ValueError
        Unknown name; the message lists the presets.

    Examples
    --------
    >>> get_convention("sklearn").ties
    'average'
    >>> get_convention("scikit-learn").name
    'sklearn'
    >>> get_convention("trec")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: unknown convention 'trec'; valid conventions: trec_eval, pytrec_eval, gdeval, sklearn, ...
    """
    if isinstance(convention, Convention):
        return convention
    if not isinstance(convention, str):
        raise TypeError(f"convention must be a preset name or a Convention, got {type_and_value(convention)}")
    key = ALIASES.get(convention, convention)
    if key not in CONVENTIONS:
        raise ValueError(f"unknown convention {convention!r}; valid conventions: {', '.join(CONVENTIONS)}")
    return CONVENTIONS[key]


def parse_measures(measures: str | Measure | Sequence[str | Measure]) -> list[Measure]:
    """Parse measure specs (one or a sequence) into ``Measure`` objects, duplicates removed.

    Parameters
    ----------
    measures : str, Measure or sequence of them
        Spec strings (``"ndcg@10(gain=exp2)"``) or trec_eval names (``"ndcg_cut.5,10"``).

    Returns
    -------
    list of Measure
        In the order given; ``ndcg_cut`` expands to one measure per cut-off.

    Raises
    ------
    ValueError
        An unknown measure (the message lists the valid ones) or bad options.

    Examples
    --------
    >>> [m.name for m in parse_measures(["ndcg", "ndcg_cut.20,10", "ndcg.1=3,2=9"])]
    ['ndcg', 'ndcg_cut_10', 'ndcg_cut_20', 'ndcg_1=3,2=9']
    >>> m = parse_measures('ndcg@10(gain=exp2, discount="power(beta=0.5)")')[0]
    >>> m.name, m.k, m.gain, m.discount
    ('ndcg@10(gain=exp2,discount=power(beta=0.5))', 10, 'exp2', 'power(beta=0.5)')
    >>> parse_measures("ndcg(gains={0: 1, 2: 5})")[0].gains
    ((0, 1.0), (2, 5.0))
    >>> parse_measures("map")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: unknown measure 'map' (nDCG only); valid measures: ndcg, ndcg@K, ndcg@K(gain=..., discount=..., ...
    """
    if isinstance(measures, (str, Measure)):
        items = [measures]
    elif isinstance(measures, Sequence):
        items = list(measures)
    else:
        shown = "None" if measures is None else type_and_value(measures)
        raise TypeError(f"measures must be a measure spec or a sequence of them (e.g. 'ndcg@10'), got {shown}")
    if not items:
        raise ValueError(f"no measure given; {VALID_MEASURES}")
    parsed: list[Measure] = []
    for i, item in enumerate(items):
        if not isinstance(item, (str, Measure)):
            raise TypeError(f"measures[{i}] must be a measure spec or a Measure, got {type_and_value(item)}")
        parsed += [item] if isinstance(item, Measure) else _parse_one(item)
    unique = list(dict.fromkeys(parsed))
    names = [m.name for m in unique]
    twice = next((m for i, m in enumerate(unique) if m.name in names[:i]), None)
    if twice is not None:  # (results are named by measure: one name would hold two measures)
        raise ValueError(f"two different measures are named {twice.name!r}; name them apart")
    return unique
