"""The studies' findings, found and joined: texts and thresholds (``findings.toml``), rules (``findings.py``).

Each folder ``ndcg_research/studies/<name>/`` that holds a ``findings.toml`` states the findings of its notebook
(``notebook = "NN_<name>.ipynb"``): one table per finding (its key), with its title, source, claim, the templates
of its measurement and summary, its verdict rule in words, its conditions, and the figures and tables it links; and
the thresholds of its rules, ``[thresholds.<name>]`` (value, rule, when it was fixed and the evidence). Its
``findings.py`` decides each finding with the function named after its key (``fixed-cutoff``: ``fixed_cutoff``),
which reads the tables (:class:`~ndcg_research.findings.model.Results`) and returns a
:class:`~ndcg_research.findings.model.Measured`.

Templates place the values a rule computes with ``{name}``; a value that is a list of records is written with the
finding's item template (``[key.items]``: ``name = {join = "; ", text = "..."}``, optionally ``empty = "none"``); a
file's ``[shared]`` texts are placed by name in its findings' texts; ``{article}``, ``{wang}``, ``{package}`` name
the sources (``page.toml``, which also holds the page's preamble and the order of the studies on it), and
``{T[name]}`` places a threshold. A finding's ``thresholds`` list names every threshold its verdict depends on:
those its rule reads (checked) and those the study that wrote its tables applied. The thresholds several studies
share are in ``thresholds.toml`` beside this module.
"""

from __future__ import annotations

import importlib
import numbers
import os
import tomllib
from collections.abc import Callable, Mapping, Sequence
from contextvars import ContextVar
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from .model import Finding, Measured, MissingTableError, Results, limit_verdict, size

#: Where the studies are, the page's texts, and the thresholds several studies share.
STUDIES = Path(__file__).resolve().parents[1] / "studies"
PAGE = Path(__file__).with_name("page.toml")
SHARED = Path(__file__).with_name("thresholds.toml")
#: What every finding's text must say.
REQUIRED = ("title", "source", "claim", "measurement", "rule", "summary", "conditions", "figures", "tables")
#: What it may say besides: item templates; the names of its thresholds; ``limit = true`` for a claim about
#: n -> infinity, and the derivation of the Theory page that carries it (``derivation = "(d)"``, one of
#: ``page.toml``'s ``[derivations]``); how its rule was revised after seeing data (``revised``); for a claim of
#: Wang et al. (2013) (a source naming ``{wang}``, which requires both), the items of their abstract it tests
#: (``abstract = ["A3", ...]``, quoted in ``page.toml``) and what this package added to test them (``added``).
#: Its verdict word follows :func:`~ndcg_research.findings.model.limit_verdict`, the one rule for every finding.
OPTIONAL = ("items", "thresholds", "limit", "derivation", "revised", "abstract", "added")
#: When a threshold or a rule was fixed: before any run that judges it; in the commit that holds the first outputs
#: of those runs (the history cannot show which came first); or after seeing data. In this order: a finding's rule
#: counts as fixed at the latest of its own and its thresholds'.
FIXED_WHEN: tuple[str, ...] = ("before the runs", "with the first run", "after seeing data")
#: A study file may say when its rules (not only their thresholds) were fixed: ``rules_fixed`` (one of
#: :data:`FIXED_WHEN`) with ``rules_fixed_note``; without them, ``page.toml``'s ``[rules_fixed]`` applies.
STUDY_KEYS = ("notebook", "shared", "thresholds", "rules_fixed", "rules_fixed_note", "answer")
_USED: ContextVar[set[str] | None] = ContextVar("thresholds used by the finding being evaluated", default=None)


@dataclass(frozen=True)
class Threshold:
    """One threshold of a verdict rule: its value (a number, or the names of the classes a rule singles out), what
    it decides, when it was fixed (one of :data:`FIXED_WHEN`) with the evidence, and the file that holds it."""

    name: str
    value: float | tuple[str, ...]
    rule: str
    fixed: str
    fixed_note: str
    file: str


@dataclass(frozen=True)
class Text:
    """The fixed text of one finding, as its study's ``findings.toml`` gives it (templates not yet filled)."""

    key: str
    study: str
    notebook: str
    title: str
    source: str
    claim: str
    measurement: str
    rule: str
    summary: str
    conditions: str
    figures: tuple[str, ...]
    tables: tuple[str, ...]
    items: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    shared: Mapping[str, str] = field(default_factory=dict)
    thresholds: tuple[str, ...] = ()
    limit: bool = False
    derivation: str = ""
    revised: str = ""
    abstract: tuple[str, ...] = ()
    added: str = ""
    rules_fixed: str = "after seeing data"
    rules_fixed_note: str = ""


@dataclass(frozen=True)
class Catalogue:
    """Every finding's text in page order, every threshold by name, the page's own texts (``page.toml``: preamble,
    order of the studies, sources, the items of Wang et al.'s abstract, the derivations of the Theory page, the
    words of the limit rule) and the record of the confirmatory run (``thresholds.toml``'s ``[confirmatory]``)."""

    texts: tuple[Text, ...]
    thresholds: Mapping[str, Threshold]
    page: Mapping[str, Any]
    confirmatory: Mapping[str, Any] = field(default_factory=dict)
    answers: Mapping[str, str] = field(default_factory=dict)


def _file(path: Path) -> str:
    """The path as the page names it, from the repository (``ndcg_research/studies/cutoff/findings.toml``)."""
    parts = path.resolve().parts
    return "/".join(parts[parts.index("ndcg_research") :]) if "ndcg_research" in parts else str(path)


def _thresholds(entries: Mapping[str, Any], path: Path) -> dict[str, Threshold]:
    """Parse and check the threshold entries of one file."""
    out = {}
    for name, entry in entries.items():
        value = entry.get("value")
        if isinstance(value, list) and value and all(isinstance(v, str) for v in value):
            value = tuple(value)
        elif not isinstance(value, int | float) or isinstance(value, bool):
            value = None
        if set(entry) - {"value", "rule", "fixed", "fixed_note"} or value is None:
            raise ValueError(
                f"{path}: entry {name!r} needs a numeric 'value' (or a list of names) and no other keys "
                f"than value, rule, fixed, fixed_note; got {sorted(entry)}"
            )
        if entry.get("fixed") not in FIXED_WHEN:
            raise ValueError(f"{path}: entry {name!r}: 'fixed' must be one of {FIXED_WHEN}, got {entry.get('fixed')!r}")
        if entry["fixed"] != "before the runs" and not entry.get("fixed_note"):
            raise ValueError(f"{path}: entry {name!r} was fixed {entry['fixed']!r}: say which in 'fixed_note'")
        out[name] = Threshold(
            name, value, str(entry.get("rule", "")), entry["fixed"], str(entry.get("fixed_note", "")), _file(path)
        )
    return out


def _text(
    key: str, entry: Mapping[str, Any], study: str, study_data: Mapping[str, Any], where: Path, page: Mapping[str, Any]
) -> Text:
    if not isinstance(entry, Mapping):
        raise ValueError(f"{where}: {key!r} is neither a finding (a table) nor one of the file's keys {STUDY_KEYS}")
    missing = [name for name in REQUIRED if name not in entry]
    unknown = sorted(set(entry) - set(REQUIRED) - set(OPTIONAL))
    if missing or unknown:
        raise ValueError(f"{where}: finding {key!r} lacks {missing} or has unknown keys {unknown}")
    derivation = entry.get("derivation", "")
    if derivation and (not entry.get("limit") or derivation not in page.get("derivations", {})):
        raise ValueError(
            f"{where}: finding {key!r}: a derivation ({derivation!r}) carries only a claim about n -> infinity "
            f"(limit = true), and must be one of page.toml's [derivations] {sorted(page.get('derivations', {}))}"
        )
    rules_fixed = study_data.get("rules_fixed", page["rules_fixed"]["fixed"])
    if rules_fixed not in FIXED_WHEN:
        raise ValueError(f"{where}: 'rules_fixed' must be one of {FIXED_WHEN}, got {rules_fixed!r}")
    for name, spec in entry.get("items", {}).items():
        if "text" not in spec or set(spec) - {"text", "join", "empty"}:
            raise ValueError(f"{where}: item template {key}.items.{name} needs 'text' (and only join, empty)")
    if ("{wang}" in entry["source"]) != bool(entry.get("abstract") and entry.get("added")):
        raise ValueError(
            f"{where}: finding {key!r}: a claim of Wang et al. (source {{wang}}) says which items of their abstract it "
            "tests (abstract = [...]) and what this package added (added = ...), and only such a claim does"
        )
    unknown = sorted(set(entry.get("abstract", ())) - set(page["abstract"]))
    if unknown:
        raise ValueError(f"{where}: finding {key!r}: abstract items {unknown} are not in page.toml's [abstract]")
    fields = {name: entry[name] for name in (*REQUIRED, "items", "revised", "added") if name in entry}
    return Text(
        key=key,
        study=study,
        notebook=study_data["notebook"],
        shared=study_data.get("shared", {}),
        limit=bool(entry.get("limit", False)),
        derivation=derivation,
        rules_fixed=rules_fixed,
        rules_fixed_note=study_data.get("rules_fixed_note", page["rules_fixed"]["note"]),
        **fields | {name: tuple(entry.get(name, ())) for name in ("figures", "tables", "thresholds", "abstract")},
    )


@cache
def catalogue(studies: Path = STUDIES, page: Path = PAGE, shared: Path = SHARED) -> Catalogue:
    """Read every study's ``findings.toml``, the page and the shared thresholds.

    The studies appear in the order of ``page.toml``; a study it does not list comes after those it does, by
    notebook number.

    Raises ValueError if a file is malformed, two findings share a key, two files define a threshold, or a finding
    names a threshold no file defines.
    """
    page_data = tomllib.loads(page.read_text(encoding="utf-8"))
    shared_data = tomllib.loads(shared.read_text(encoding="utf-8"))
    confirmatory = shared_data.pop("confirmatory", {})
    thresholds = _thresholds(shared_data, shared)
    files = {path.parent.name: path for path in Path(studies).glob("*/findings.toml")}
    data = {name: tomllib.loads(path.read_text(encoding="utf-8")) for name, path in files.items()}
    order = list(page_data["order"])
    order += sorted(set(files) - set(order), key=lambda name: data[name]["notebook"])
    texts: list[Text] = []
    answers: dict[str, str] = {}
    for name in (name for name in order if name in files):
        study_data = {key: data[name][key] for key in STUDY_KEYS if key in data[name]}
        entries = {key: entry for key, entry in data[name].items() if key not in STUDY_KEYS}
        own = _thresholds(study_data.get("thresholds", {}), files[name])
        if set(own) & set(thresholds):
            raise ValueError(f"{files[name]}: thresholds {sorted(set(own) & set(thresholds))} are defined twice")
        thresholds.update(own)
        texts += [_text(key, entry, name, study_data, files[name], page_data) for key, entry in entries.items()]
        if "answer" in study_data:
            answers[study_data["notebook"]] = study_data["answer"]
    keys = [text.key for text in texts]
    if len(set(keys)) != len(keys):
        raise ValueError(f"finding keys are not unique: {sorted(k for k in set(keys) if keys.count(k) > 1)}")
    for text in texts:
        if set(text.thresholds) - set(thresholds):
            raise ValueError(
                f"finding {text.key!r} names thresholds no file defines: "
                f"{sorted(set(text.thresholds) - set(thresholds))}"
            )
    return Catalogue(tuple(texts), thresholds, page_data, confirmatory, answers)


def threshold(name: str) -> Any:
    """The value of the threshold ``name`` (noted as used by the finding being evaluated, if any).

    Examples
    --------
    >>> threshold("cutoff_keeps_lower"), threshold("movielens_small_cutoffs")
    (0.9, ('5', '10'))
    >>> unknown = "nope"
    >>> threshold(unknown)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    KeyError: "no threshold named 'nope'; known: ..."
    """
    known = catalogue().thresholds
    if name not in known:
        raise KeyError(f"no threshold named {name!r}; known: {', '.join(sorted(known))}")
    used = _USED.get()
    if used is not None:
        used.add(name)
    return known[name].value


class _Thresholds:
    """The thresholds as the texts place them, ``{T[name]}`` (each read is noted)."""

    def __getitem__(self, name: str) -> Any:
        return threshold(name)


def fill(template: str, values: Mapping[str, Any], where: str) -> str:
    """``template`` with each ``{name}`` replaced by ``values[name]`` (a missing value is an error)."""
    try:
        return template.format_map(values)
    except KeyError as error:
        raise ValueError(f"{where}: no value for the placeholder {{{error.args[0]}}}") from None


def _whole(value: Any) -> bool:
    """A whole number a rule computed (Python's or numpy's), not a flag."""
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)


def make_finding(
    text: Text,
    verdict: str,
    values: Mapping[str, Any],
    numbers: Mapping[str, float],
    page: Mapping[str, Any] | None = None,
) -> Finding:
    """The finding: ``text``'s templates filled with the sources' names, the file's shared texts and ``values``.

    A value that is a list of records is written out by its item template. The verdict word is
    :func:`~ndcg_research.findings.model.limit_verdict` of the rule's ``verdict``: a claim about n -> infinity
    (``text.limit``) reads "holds" only when a derivation carries it (``text.derivation``), else at most "consistent
    with"; the rule's words end with what that means for this claim (``page.toml``'s ``[limit_rule]``).
    """
    page = catalogue().page if page is None else page
    # A whole number from 10^4 on (a list length, a count) is written as a reader reads it: 10^7, 51,200.
    written = {name: size(value) if _whole(value) else value for name, value in values.items()}
    for name, value in values.items():
        if isinstance(value, list):
            spec = text.items.get(name)
            if spec is None:
                raise ValueError(f"finding {text.key!r}: value {name!r} is a list but {text.key}.items has no {name!r}")
            items = [{k: size(v) if _whole(v) else v for k, v in item.items()} for item in value]
            parts = [fill(spec["text"], {"T": _Thresholds(), **item}, f"{text.key}.items.{name}") for item in items]
            written[name] = spec.get("join", ", ").join(parts) or spec.get("empty", "")
    filled = {**page["sources"], "T": _Thresholds(), **written}
    filled.update(
        {name: fill(shared, filled, f"{text.notebook} [shared] {name}") for name, shared in text.shared.items()}
    )

    def write(name: str) -> str:
        return fill(getattr(text, name), filled, f"finding {text.key!r}, {name}")

    attribution = "; ".join(f"{item}: {page['abstract'][item]}" for item in text.abstract)
    attribution += f". Added by this package: {text.added}" if text.abstract else ""
    return Finding(
        key=text.key,
        title=write("title"),
        claim=write("claim"),
        source=write("source"),
        measurement=write("measurement"),
        summary=write("summary"),
        verdict=limit_verdict(verdict, text.limit, text.derivation),
        conditions=write("conditions"),
        figures=text.figures,
        tables=text.tables,
        notebooks=(text.notebook,),
        numbers=dict(numbers),
        rule=write("rule") + (f" {limit_rule(text, page)}" if text.limit else ""),
        thresholds=text.thresholds,
        attribution=attribution,
        limit=text.limit,
        derivation=page["derivations"][text.derivation] if text.derivation else "",
        revised=text.revised,
        fixed=fixed_when(text),
        values={name: str(value) for name, value in written.items()},
    )


def limit_rule(text: Text, page: Mapping[str, Any]) -> str:
    """The end of a limit claim's rule in words: what the one rule of the verdict words makes of it."""
    if text.derivation:
        return page["limit_rule"]["derived"].format(derivation=text.derivation)
    return page["limit_rule"]["not_derived"]


def fixed_when(text: Text) -> str:
    """When a finding's rule was fixed, in the words of :data:`FIXED_WHEN`: the latest of its study's rules, its
    thresholds and a revision after seeing data; "before the confirmatory run" once ``thresholds.toml`` records a
    confirmatory run (its ``[confirmatory]`` table with the commit of its results) judged by these rules."""
    if catalogue().confirmatory.get("results_commit"):
        return "before the confirmatory run"
    known = catalogue().thresholds
    times = [text.rules_fixed, *(known[name].fixed for name in text.thresholds if name in known)]
    if text.revised:
        times.append("after seeing data")
    return max(times, key=FIXED_WHEN.index)


class Claim:
    """One finding: its text and its rule; calling it on a folder of tables gives the :class:`Finding`."""

    def __init__(self, text: Text, rule: Callable[[Results], Measured]) -> None:
        self.text, self.rule, self.key = text, rule, text.key

    def __call__(self, results: Results) -> Finding:
        used: set[str] = set()  # the thresholds the rule and the texts read (threshold() notes them here)
        token = _USED.set(used)
        try:
            measured = self.rule(results)
            finding = make_finding(self.text, measured.verdict, measured.values, measured.numbers)
        finally:
            _USED.reset(token)
        undeclared = sorted(used - set(self.text.thresholds))
        if undeclared:
            raise ValueError(
                f"finding {self.key!r} uses thresholds its text does not list (studies/{self.text.study}"
                f"/findings.toml, thresholds = [...]): {undeclared}"
            )
        return finding

    def __repr__(self) -> str:
        return f"Claim({self.key!r})"


@cache
def claims() -> tuple[Claim, ...]:
    """Every finding in page order, each text joined with the function of its study's ``findings.py`` named after
    its key.
    """
    out = []
    for text in catalogue().texts:
        module = importlib.import_module(f"ndcg_research.studies.{text.study}.findings")
        rule = getattr(module, text.key.replace("-", "_"), None)
        if rule is None:
            raise ValueError(f"finding {text.key!r} has no rule {text.key.replace('-', '_')} in {module.__name__}")
        out.append(Claim(text, rule))
    return tuple(out)


def claim(key: str) -> Claim:
    """The finding with key ``key`` (KeyError naming the known keys if there is none)."""
    found = next((c for c in claims() if c.key == key), None)
    if found is None:
        raise KeyError(f"no finding {key!r}; known: {', '.join(c.key for c in claims())}")
    return found


def collect(results: Results) -> list[Finding]:
    """Evaluate every finding on the tables of ``results``."""
    return [claim(results) for claim in claims()]


def _notebook_name(notebook: str) -> str:
    name = Path(notebook).name
    if not (name.endswith(".ipynb") and name[:2].isdigit() and name[2:3] == "_"):
        raise ValueError(
            f"notebook must be a notebook file name such as '04_distinguishability.ipynb', got {notebook!r}"
        )
    return name


def notebook_findings(notebook: str, results_dir: str | os.PathLike[str]) -> list[Finding]:
    """The findings of ``notebook`` evaluated on the tables in ``results_dir`` (only its own tables, ``NN_...``),
    in page order; a finding whose tables are missing there is left out.

    Raises ValueError if ``notebook`` is not a notebook file name ``NN_name.ipynb``.
    """
    name = _notebook_name(notebook)
    results = Results(results_dir, prefix=name[:3])
    found = []
    for claim in claims():
        if claim.text.notebook == name:
            try:
                found.append(claim(results))
            except MissingTableError:
                continue
    return found


def spoken(template: str, findings: Sequence[Finding], where: str) -> str:
    """``template`` filled from ``findings``: ``{key.verdict}``, ``{key.says}`` (the verdict in a sentence,
    ``page.toml``'s ``[verdict_words]``), ``{key.title}``, ``{key.summary}`` and ``{key.<value>}`` (the values its
    texts place), besides the sources' names and ``{T[name]}``. Every number comes from the tables through them.

    Raises ValueError naming ``where`` if a placeholder names no finding or no value of it.
    """
    page = catalogue().page
    said = {
        f.key: SimpleNamespace(
            **f.values, verdict=f.verdict, says=page["verdict_words"][f.verdict], title=f.title, summary=f.summary
        )
        for f in findings
    }
    try:
        return fill(template, {**page["sources"], "T": _Thresholds(), **said}, where)
    except AttributeError as error:
        raise ValueError(f"{where}: {error}") from None


@dataclass(frozen=True)
class Answer:
    """A notebook's answer: two to four sentences (Markdown, every number from the tables) and the findings' table.

    In a notebook it displays as the sentences, then the table; ``text`` and ``table`` are its parts.
    """

    text: str
    table: Any

    def _ipython_display_(self) -> None:
        import pandas as pd
        from IPython.display import display

        display({"text/markdown": self.text, "text/plain": self.text}, raw=True)
        with pd.option_context("display.max_colwidth", None):  # the findings' sentences in full
            display(self.table)

    def __repr__(self) -> str:
        return f"{self.text}\n\n{self.table.to_string()}"


def answer(notebook: str, results_dir: str | os.PathLike[str]) -> Answer:
    """The answer of ``notebook`` from the tables in ``results_dir``: sentences, then each finding's verdict.

    The rules are applied to the tables in ``results_dir``: the committed full profile (``results/full``) gives the
    verdicts of ``FINDINGS.md``; a notebook's own results folder gives the verdicts of that run by the same rules.
    Only the notebook's own tables (names ``NN_...``) are read. The sentences are the study's ``answer`` template
    (its ``findings.toml``) filled by :func:`spoken`: verdict words from the rules, numbers from the tables.

    The table has one row per finding in page order, indexed by its title, with the columns "Verdict", "Rule fixed"
    and "What the tables show"; when no finding can be evaluated (its tables are missing), one row "(not available)"
    says so, and the text too. ValueError if ``notebook`` is not a file name ``NN_name.ipynb``.
    """
    import pandas as pd

    name = _notebook_name(notebook)
    found = notebook_findings(name, results_dir)
    rows = [
        {"Finding": f.title, "Verdict": f.verdict, "Rule fixed": f.fixed, "What the tables show": f.summary}
        for f in found
    ]
    expected = [text.key for text in catalogue().texts if text.notebook == name]
    missing = (
        f"no tables of {name} in {str(results_dir)!r}: run the notebook, or the full profile "
        f"(python3 tasks.py reproduce), to write them"
    )
    if not rows:
        rows.append({"Finding": "(not available)", "Verdict": "-", "Rule fixed": "-", "What the tables show": missing})
    table = pd.DataFrame(rows).set_index("Finding")
    # The index's name shown in the header row beside the columns' names, not on a row of its own.
    table.index.name, table.columns.name = None, "Finding"
    template = catalogue().answers.get(name, "")
    if not found:
        text = f"**Answer.** Not available here: {missing}."
    elif template and [f.key for f in found] == expected:
        text = "**Answer.** " + spoken(template, found, f"the answer of {name}")
        text += "\n\n" + catalogue().page["answer"]["legend"]
    else:
        text = "**Answer.** The verdicts of the findings whose tables are here:"
    return Answer(text, table)
