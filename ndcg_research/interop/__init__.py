"""The package's nDCG in the tools researchers already run: :func:`ir_measure` makes an `ir_measures
<https://ir-measur.es>`_ measure computed by this package's evaluator, which ir_measures' ``calc_aggregate``
and PyTerrier's ``pt.Experiment`` take like their own. It needs the ``ecosystem`` extra; ir_measures is imported
when :func:`ir_measure` is first called (``_ir_measures`` says how the measure plugs in)."""

import re
from typing import Any

from .._validation import check_instance
from ..core import Discount, Gain

__all__ = ["ir_measure"]

_EXTRA_OPTIONS = ("ties", "convention")
#: The options of a measure spec that parse_measures reads (a test keeps them equal to the evaluator's own list).
SPEC_OPTIONS = ("gain", "discount", "gains")


def ir_measure(
    spec: str = "ndcg",
    *,
    gain: str | Gain | None = None,
    discount: str | Discount | None = None,
    ties: str | None = None,
    convention: str | None = None,
) -> Any:
    """The package's nDCG as an ir_measures measure, for ``ir_measures.calc_aggregate`` and ``pt.Experiment``.

    Parameters
    ----------
    spec : str, default "ndcg"
        One measure in the package's spec language (``"ndcg@10(gain=exp2, discount='zipf')"``) or
        a trec_eval name (``"ndcg_cut.10"``, ``"ndcg.1=3,2=9"``), or what a measure prints.
    gain, discount : str, Gain or Discount, optional
        Built-in gain and discount (``"exp2"``, ``"power(beta=0.5)"``), not both here and in
        ``spec``; default the convention's. Custom functions are refused: ir_measures tells
        measures apart by their names.
    ties : {"docno", "input", "average"}, optional
        Order of equal scores: by document id descending (trec_eval), in the run's order, or
        the average over the tied group (McSherry & Najork 2008). Default: the convention's.
    convention : str, optional
        Whose rules to follow (a preset of ``nr.CONVENTIONS``); default ``"trec_eval"``.

    Returns
    -------
    ir_measures.Measure
        Its values per query are ``ndcg_research.evaluate``'s under the same convention, except
        that a judged query the run does not answer, or the convention does not evaluate, scores
        0 (as ir_measures scores it). ``measure @ 5`` changes the cut-off.

    Raises
    ------
    ImportError, TypeError, ValueError
        ir_measures is not installed; a bad argument, named.

    Examples
    --------
    >>> import ir_measures
    >>> import ndcg_research as nr
    >>> m = nr.ir_measure("ndcg@10", gain="exp2")
    >>> m
    ndcg@10(gain=exp2)
    >>> qrels = [ir_measures.Qrel("q1", "a", 2), ir_measures.Qrel("q1", "b", 0), ir_measures.Qrel("q1", "c", 1)]
    >>> run = [ir_measures.ScoredDoc("q1", "b", 0.9), ir_measures.ScoredDoc("q1", "a", 0.5)]
    >>> round(ir_measures.calc_aggregate([m], qrels, run)[m], 4)
    0.5213

    With trec_eval's rules (the default) it agrees with ir_measures' own nDCG (pytrec_eval), except where two
    scores are equal in float32, which pytrec_eval keeps them as (a tie there); ``convention="pytrec_eval"``
    agrees there too:

    >>> ours, theirs = nr.ir_measure("ndcg@10"), ir_measures.nDCG @ 10
    >>> values = ir_measures.calc_aggregate([ours, theirs], qrels, run)
    >>> round(values[ours], 4), round(values[theirs], 4)
    (0.4796, 0.4796)
    >>> nr.ir_measure("ndcg_cut.10", discount="zipf", convention="sklearn") @ 5
    ndcg@5(discount=zipf,convention=sklearn)
    """
    spec = check_instance(spec, "spec", str, what="a measure spec (e.g. 'ndcg@10')")
    try:
        from ._ir_measures import NDCG, measure_params
    except ImportError as error:
        raise ImportError(
            "ir_measure needs ir_measures (the ecosystem extra): pip install '.[ecosystem]' in the package's "
            "folder, or pip install ir_measures"
        ) from error
    from ..evaluation import parse_measures

    text, extra = _extra_options(spec)
    measures = parse_measures(text)
    if len(measures) != 1:
        raise ValueError(
            f"spec must name one measure, got {spec!r} ({len(measures)} measures: "
            f"{', '.join(m.name for m in measures)}); make one measure per cut-off"
        )
    (measure,) = measures
    params: dict[str, Any] = {**measure_params(measure), **extra}
    for name, value in (("gain", gain), ("discount", discount), ("ties", ties), ("convention", convention)):
        if value is None:
            continue
        if params.get(name) is not None or (name == "gain" and params["gains"] is not None):
            raise ValueError(f"{name} is given twice: in spec {spec!r} and as {name}={value!r}; give it once")
        params[name] = value
    return NDCG(**params)


def _extra_options(spec: str) -> tuple[str, dict[str, str]]:
    """Take ``ties=...`` and ``convention=...`` out of the parentheses of ``spec`` (a printed measure).

    >>> _extra_options("ndcg@10(discount=power(beta=0.5),ties=average,convention=xgboost-)")
    ('ndcg@10(discount=power(beta=0.5))', {'ties': 'average', 'convention': 'xgboost-'})
    """
    text = spec.strip()
    start = text.find("(")
    if start < 0 or not text.endswith(")"):
        return spec, {}
    inner, items, begin, depth = text[start + 1 : -1], [], 0, 0
    # Quoted text (to the end if unclosed) and brackets hide their commas: split at the commas outside them.
    for token in re.finditer(r"'[^']*(?:'|$)|\"[^\"]*(?:\"|$)|[()\[\]{},]", inner):
        depth += (token[0] in "([{") - (token[0] in ")]}")
        if token[0] == "," and depth == 0:
            items.append(inner[begin : token.start()])
            begin = token.end()
    items.append(inner[begin:])
    if len(items) > 1 and not all(item.strip() for item in items):
        raise ValueError(f"spec {spec!r} has an empty option between its commas")
    kept, extra = [], {}
    for item in items:
        key, sep, value = (part.strip() for part in item.partition("="))
        if sep and key not in (*SPEC_OPTIONS, *_EXTRA_OPTIONS):
            raise ValueError(
                f"unknown option {key!r} in spec {spec!r}; options: {', '.join((*SPEC_OPTIONS, *_EXTRA_OPTIONS))}"
            )
        if not sep or key not in _EXTRA_OPTIONS:
            kept.append(item)
            continue
        if key in extra:
            raise ValueError(f"{key} is given twice in spec {spec!r}; give it once")
        quoted = len(value) > 1 and value[0] == value[-1] and value[0] in "'\""
        extra[key] = value[1:-1] if quoted else value
        if "'" in extra[key] or '"' in extra[key]:
            raise ValueError(f"{key}={value} in spec {spec!r} opens a quote it does not close")
    rest = text[:start] + (f"({','.join(kept)})" if any(k.strip() for k in kept) else "")
    return rest, extra
