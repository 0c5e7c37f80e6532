"""The studies' findings: texts and thresholds (``findings.toml``), rules (``findings.py``, one function per key,
:class:`~.model.Results` -> :class:`~.model.Measured`). Templates place ``{name}`` values (a list by its ``[key.items]``
template), a file's ``[shared]`` texts, ``page.toml``'s ``{article}``, ``{wang}``, ``{package}`` and ``{T[name]}``."""

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

from .._validation import check_instance, check_path
from .model import Finding, Measured, MissingTableError, Results, UnreadableTableError, limit_verdict, size

STUDIES = Path(__file__).resolve().parents[1] / "studies"
PAGE = Path(__file__).with_name("page.toml")
SHARED = Path(__file__).with_name("thresholds.toml")
#: What every finding's text must say, and may say besides: ``limit = true`` for a claim about n -> infinity and
#: the derivation of the Theory page that carries it; ``revised`` after seeing data; for a claim of Wang et al.
#: (source ``{wang}``), the ``abstract`` items it tests (quoted in ``page.toml``) and what this package ``added``.
REQUIRED = ("title", "source", "claim", "measurement", "rule", "summary", "conditions", "figures", "tables")
OPTIONAL = ("items", "thresholds", "limit", "derivation", "revised", "abstract", "added")
#: When a threshold or rule was fixed, in order: a finding's rule counts as fixed at the latest of its own and its
#: thresholds' ("with the first run": in the commit of the first outputs it judges; which came first is not known).
FIXED_WHEN: tuple[str, ...] = ("before the runs", "with the first run", "after seeing data")
#: A study file's own keys (its rules' ``rules_fixed``, else ``page.toml``'s ``[rules_fixed]``).
STUDY_KEYS = ("notebook", "shared", "thresholds", "rules_fixed", "rules_fixed_note", "answer")
_USED: ContextVar[set[str] | None] = ContextVar("thresholds used by the finding being evaluated", default=None)


@dataclass(frozen=True)
class Threshold:
    """One threshold of a verdict rule: a number or class names, what it decides, when it was fixed, its file."""

    name: str
    value: float | tuple[str, ...]
    rule: str
    fixed: str
    fixed_note: str
    file: str


@dataclass(frozen=True)
class Text:
    """One finding's text as its study's ``findings.toml`` gives it (templates not filled)."""

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


@dataclass(frozen=True)
class Catalogue:
    """Every finding's text in page order, every threshold by name, ``page.toml``, the confirmatory run's record and
    the notebooks' answer templates."""

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
        **fields | {name: tuple(entry.get(name, ())) for name in ("figures", "tables", "thresholds", "abstract")},
    )


@cache
def catalogue(studies: Path = STUDIES, page: Path = PAGE, shared: Path = SHARED) -> Catalogue:
    """Read and check every study's ``findings.toml`` (in ``page.toml``'s order, then by notebook), the page and the
    shared thresholds; ValueError if anything is malformed, defined twice or missing."""
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
        undefined = sorted(set(text.thresholds) - set(thresholds))
        if undefined:
            raise ValueError(f"finding {text.key!r} names thresholds no file defines: {undefined}")
    return Catalogue(tuple(texts), thresholds, page_data, confirmatory, answers)


def threshold(name: str) -> Any:
    """The value of the threshold ``name``, noted as used by the finding being evaluated (ValueError if none: not a
    KeyError, which a rule's caller reads as a table without a column, and a template's as a missing placeholder)."""
    check_instance(name, "name", str)
    known = catalogue().thresholds
    if name not in known:
        raise ValueError(f"no threshold named {name!r}; known: {', '.join(sorted(known))}")
    used = _USED.get()
    if used is not None:
        used.add(name)
    return known[name].value


class _Thresholds:
    """The thresholds as the texts place them, ``{T[name]}``."""

    __getitem__ = staticmethod(threshold)


def fill(template: str, values: Mapping[str, Any], where: str) -> str:
    """``template`` with each ``{name}`` replaced by ``values[name]`` (ValueError if missing)."""
    try:
        return template.format_map(values)
    except KeyError as error:
        raise ValueError(f"{where}: no value for the placeholder {{{error.args[0]}}}") from None
    except ValueError as error:  # an unknown {T[name]} (threshold), a malformed format spec: said where
        raise ValueError(f"{where}: {error}") from None


def _written(value: Any) -> Any:
    """A whole number a rule computed (a list length, a count; not a flag) as a reader reads it: 10^7, 51,200."""
    return size(value) if isinstance(value, numbers.Integral) and not isinstance(value, bool) else value


def make_finding(
    text: Text,
    verdict: str,
    values: Mapping[str, Any],
    numbers: Mapping[str, float],
    page: Mapping[str, Any] | None = None,
) -> Finding:
    """The finding: ``text``'s templates filled (a list of records by its item template), its verdict word by
    :func:`~.model.limit_verdict`, a limit claim's rule ending with ``page.toml``'s ``[limit_rule]``."""
    page = catalogue().page if page is None else page
    written = {name: _written(value) for name, value in values.items()}
    for name, value in values.items():
        if isinstance(value, list):
            spec = text.items.get(name)
            if spec is None:
                raise ValueError(f"finding {text.key!r}: value {name!r} is a list but {text.key}.items has no {name!r}")
            items = [{k: _written(v) for k, v in item.items()} for item in value]
            parts = [fill(spec["text"], {"T": _Thresholds(), **item}, f"{text.key}.items.{name}") for item in items]
            written[name] = spec.get("join", ", ").join(parts) or spec.get("empty", "")
    filled = {**page["sources"], "T": _Thresholds(), **written}
    filled.update(
        {name: fill(shared, filled, f"{text.notebook} [shared] {name}") for name, shared in text.shared.items()}
    )

    def write(name: str) -> str:
        return fill(getattr(text, name), filled, f"finding {text.key!r}, {name}")

    limit_rule = page["limit_rule"]["derived" if text.derivation else "not_derived"].format(derivation=text.derivation)
    attribution = "; ".join(f"{item}: {page['abstract'][item]}" for item in text.abstract)
    attribution += f". Added by this package: {text.added}" if text.abstract else ""
    # When its rule was fixed: the latest of its study's rules, its thresholds and a revision, or "before the
    # confirmatory run" once thresholds.toml records that run's results.
    known = catalogue().thresholds
    times = [text.rules_fixed, *(known[name].fixed for name in text.thresholds if name in known)]
    if text.revised:
        times.append("after seeing data")
    fixed = max(times, key=FIXED_WHEN.index)
    record = catalogue().confirmatory
    if record.get("results_commit"):  # a rule revised after that run says so (its text's ``revised`` says why)
        fixed = "after the confirmatory run" if text.key in record.get("revised", []) else "before the confirmatory run"
    return Finding(
        key=text.key,
        **{name: write(name) for name in ("title", "claim", "source", "measurement", "summary", "conditions")},
        verdict=limit_verdict(verdict, text.limit, text.derivation),
        figures=text.figures,
        tables=text.tables,
        notebooks=(text.notebook,),
        numbers=dict(numbers),
        rule=write("rule") + (f" {limit_rule}" if text.limit else ""),
        thresholds=text.thresholds,
        attribution=attribution,
        limit=text.limit,
        derivation=page["derivations"][text.derivation] if text.derivation else "",
        revised=text.revised,
        fixed=fixed,
        values={name: str(value) for name, value in written.items()},
    )


class Claim:
    """One finding: its text and its rule; calling it on a folder of tables gives the :class:`Finding`."""

    def __init__(self, text: Text, rule: Callable[[Results], Measured]) -> None:
        self.text, self.rule, self.key = text, rule, text.key

    def __call__(self, results: Results) -> Finding:
        used: set[str] = set()  # the thresholds the rule and the texts read (threshold() notes them here)
        token = _USED.set(used)
        try:
            try:
                measured = self.rule(results)
            except UnreadableTableError:  # (said by Results.table, of the table itself)
                raise
            # A table that reads but lacks a column or row the rule needs, or holds a value it cannot take (NaN, inf)
            except (KeyError, IndexError, ValueError, TypeError) as exc:
                raise UnreadableTableError(
                    f"finding {self.key!r} (studies/{self.text.study}/findings.py) does not find what it reads in the "
                    f"tables of {str(results.folder)!r} ({type(exc).__name__}: {exc}); tables of another version, or "
                    "edited? Re-run the full profile (python3 tasks.py reproduce)"
                ) from exc
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
    """Every finding in page order, with the function of its study's ``findings.py`` named after its key."""
    out = []
    for text in catalogue().texts:
        module = importlib.import_module(f"ndcg_research.studies.{text.study}.findings")
        rule = getattr(module, text.key.replace("-", "_"), None)
        if rule is None:
            raise ValueError(f"finding {text.key!r} has no rule {text.key.replace('-', '_')} in {module.__name__}")
        out.append(Claim(text, rule))
    return tuple(out)


def claim(key: str) -> Claim:
    """The finding with key ``key``."""
    found = next((c for c in claims() if c.key == key), None)
    if found is None:
        raise KeyError(f"no finding {key!r}; known: {', '.join(c.key for c in claims())}")
    return found


def collect(results: Results) -> list[Finding]:
    """Evaluate every finding on the tables of ``results``."""
    check_instance(results, "results", Results, what="a Results (findings.Results(folder))")
    return [claim(results) for claim in claims()]


def _notebook_name(notebook: str) -> str:
    name = Path(check_path(notebook, "notebook")).name
    if not (name.endswith(".ipynb") and name[:2].isdigit() and name[2:3] == "_"):
        raise ValueError(
            f"notebook must be a notebook file name such as '04_distinguishability.ipynb', got {notebook!r}"
        )
    known = sorted({text.notebook for text in catalogue().texts})
    if name not in known:  # a typo or a wrong case read as "not available here: run the notebook"
        raise ValueError(f"notebook {name!r} has no findings; the notebooks with findings: {', '.join(known)}")
    return name


def _results_folder(results_dir: str | os.PathLike[str]) -> Path:
    """``results_dir`` as a folder's path: a file is a ValueError; a folder not there holds no tables (a notebook
    opened outside a checkout, or before its run: its answer says "not available here", as it should)."""
    folder = Path(check_path(results_dir, "results_dir"))
    if folder.exists() and not folder.is_dir():
        raise ValueError(f"results_dir {str(results_dir)!r} is not a folder")
    return folder


def notebook_findings(notebook: str, results_dir: str | os.PathLike[str]) -> list[Finding]:
    """The findings of ``notebook`` (``NN_name.ipynb``) on its own tables in ``results_dir``, those with tables."""
    name = _notebook_name(notebook)
    results = Results(_results_folder(results_dir), prefix=name[:3])
    found = []
    for claim in (c for c in claims() if c.text.notebook == name):
        try:
            found.append(claim(results))
        except MissingTableError:
            continue
    return found


def spoken(template: str, findings: Sequence[Finding], where: str) -> str:
    """``template`` filled from ``findings``: ``{key.verdict}``, ``{key.says}`` (``page.toml``'s
    ``[verdict_words]``), ``{key.title}``, ``{key.summary}``, ``{key.<value>}``, the sources and ``{T[name]}``."""
    check_instance(template, "template", str)
    check_instance(where, "where", str)
    findings = list(check_instance(findings, "findings", Sequence, what="a sequence of Finding"))
    for position, finding in enumerate(findings):
        check_instance(finding, f"findings[{position}]", Finding)
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
    """A notebook's answer: a few sentences (Markdown) and the findings' table, displayed in that order."""

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
    """The answer of ``notebook`` from its own tables in ``results_dir``: its study's ``answer`` template filled by
    :func:`spoken`, then one row per finding (verdict, when its rule was fixed, summary), or "(not available)"."""
    import pandas as pd

    name = _notebook_name(notebook)
    found = notebook_findings(name, results_dir)  # (which checks results_dir)
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
