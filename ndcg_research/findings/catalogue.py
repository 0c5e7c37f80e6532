"""The findings' fixed texts, read from one TOML file per notebook in ``texts/``, and their filling.

Each file ``texts/NN_notebook.toml`` holds the findings of notebook ``NN_notebook.ipynb``, one table per
finding (its key), with its title, source, claim, the templates of its measurement and summary, its
verdict rule in words, its conditions, and the figures and tables it links. Templates place the values
a rule computes (:mod:`ndcg_research.findings.rules`) with ``{name}``; a value that is a list of records
is written with the finding's item template (``[key.items]``: ``name = {join = "; ", text = "..."}``,
optionally ``empty = "none"``); a file's ``[shared]`` texts are placed by name in its findings' texts,
``{article}``, ``{wang}``, ``{package}`` name the sources (``texts/page.toml``, which also holds the
page's preamble and the order of the notebooks on it), and ``{T[name]}`` places the threshold ``name`` of
``ndcg_research/stats/thresholds.toml``. A finding's ``thresholds`` list names every threshold its verdict
depends on: those its rule reads and those the study that wrote its tables applied.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from ..stats.thresholds import THRESHOLDS
from .model import Finding
from .rules.base import THRESHOLD_VALUES

__all__ = ["TEXTS", "Text", "Page", "load_page", "load_texts", "fill", "make_finding"]

#: The folder of the findings' text files (package data).
TEXTS = Path(__file__).with_name("texts")
#: What every finding's text must say.
REQUIRED = ("title", "source", "claim", "measurement", "rule", "summary", "conditions", "figures", "tables")
#: What it may say besides: item templates; the names of the thresholds its rule uses (those the rule
#: reads and those the study that wrote its tables applied); ``limit = true`` for a claim about n -> infinity
#: (its "holds" reads "consistent with"); for a claim of Wang et al. (2013) (a source naming ``{wang}``, which
#: requires both), the items of their abstract it tests (``abstract = ["A3", ...]``, quoted in ``page.toml``)
#: and what this package added to test them (``added``).
OPTIONAL = ("items", "thresholds", "limit", "abstract", "added")


@dataclass(frozen=True)
class Text:
    """The fixed text of one finding, as its notebook's file gives it (templates not yet filled)."""

    key: str
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
    abstract: tuple[str, ...] = ()
    added: str = ""


@dataclass(frozen=True)
class Page:
    """The page's preamble, the order of the notebooks' files on it, the sources' names, the items of Wang et
    al.'s abstract (A1-A7) and the sentence a limit claim's rule ends with."""

    preamble: str
    order: tuple[str, ...]
    sources: Mapping[str, str]
    abstract: Mapping[str, str]
    limit_note: str


@cache
def load_page(folder: Path = TEXTS) -> Page:
    """Read ``page.toml`` of ``folder``.

    Examples
    --------
    >>> page = load_page()
    >>> page.sources["package"], page.order[:2]
    ('this package', ('01_worked_example', '02_discount_functions'))
    """
    data = tomllib.loads((folder / "page.toml").read_text(encoding="utf-8"))
    return Page(preamble=data["preamble"], order=tuple(data["order"]), sources=dict(data["sources"]),
                abstract=dict(data["abstract"]), limit_note=data["limit_note"])


def _text(key: str, entry: Mapping[str, Any], notebook: str, shared: Mapping[str, str], where: Path) -> Text:
    missing = [name for name in REQUIRED if name not in entry]
    unknown = sorted(set(entry) - set(REQUIRED) - set(OPTIONAL))
    if missing or unknown:
        raise ValueError(f"{where}: finding {key!r} lacks {missing} or has unknown keys {unknown}")
    for name, spec in entry.get("items", {}).items():
        if "text" not in spec or set(spec) - {"text", "join", "empty"}:
            raise ValueError(f"{where}: item template {key}.items.{name} needs 'text' (and only join, empty)")
    fields = {name: entry[name] for name in REQUIRED}
    fields["figures"], fields["tables"] = tuple(entry["figures"]), tuple(entry["tables"])
    unknown = sorted(set(entry.get("thresholds", ())) - set(THRESHOLDS))
    if unknown:
        raise ValueError(f"{where}: finding {key!r} names thresholds not in stats/thresholds.toml: {unknown}")
    if ("{wang}" in entry["source"]) != bool(entry.get("abstract") and entry.get("added")):
        raise ValueError(f"{where}: finding {key!r}: a claim of Wang et al. (source {{wang}}) says which items of "
                         f"their abstract it tests (abstract = [...]) and what this package added (added = ...), "
                         f"and only such a claim does")
    return Text(key=key, notebook=notebook, items=entry.get("items", {}), shared=shared,
                thresholds=tuple(entry.get("thresholds", ())), limit=bool(entry.get("limit", False)),
                abstract=tuple(entry.get("abstract", ())), added=entry.get("added", ""), **fields)


@cache
def load_texts(folder: Path = TEXTS) -> tuple[Text, ...]:
    """Every finding's text, in page order.

    Raises
    ------
    ValueError
        If a text file is missing from the page order (or the order names a missing file), two findings
        share a key, or a finding lacks a field.

    Examples
    --------
    >>> text = load_texts()[0]
    >>> text.key, text.notebook, text.thresholds
    ('worked-example', '01_worked_example.ipynb', ('worked_example_decimals',))
    """
    files = {path.stem: path for path in folder.glob("[0-9][0-9]_*.toml")}
    order = load_page(folder).order
    if set(files) != set(order):
        raise ValueError(f"{folder}: page.toml's order {sorted(order)} and the text files {sorted(files)} differ")
    texts: list[Text] = []
    for stem in order:
        data = tomllib.loads(files[stem].read_text(encoding="utf-8"))
        shared = data.pop("shared", {})
        texts += [_text(key, entry, f"{stem}.ipynb", shared, files[stem]) for key, entry in data.items()]
    keys = [text.key for text in texts]
    if len(set(keys)) != len(keys):
        raise ValueError(f"{folder}: finding keys are not unique: {sorted(k for k in set(keys) if keys.count(k) > 1)}")
    return tuple(texts)


def fill(template: str, values: Mapping[str, Any], where: str) -> str:
    """``template`` with each ``{name}`` replaced by ``values[name]`` (a missing value is an error).

    Examples
    --------
    >>> fill("{n} of {total}", {"n": 3, "total": 4}, "example")
    '3 of 4'
    >>> fill("{m}", {}, "example")
    Traceback (most recent call last):
    ...
    ValueError: example: no value for the placeholder {m}
    """
    try:
        return template.format_map(values)
    except KeyError as error:
        raise ValueError(f"{where}: no value for the placeholder {{{error.args[0]}}}") from None


def _written(text: Text, values: Mapping[str, Any]) -> dict[str, Any]:
    """The rule's values with each list of records written out by its item template."""
    out = dict(values)
    for name, value in values.items():
        if isinstance(value, list):
            spec = text.items.get(name)
            if spec is None:
                raise ValueError(f"finding {text.key!r}: value {name!r} is a list but {text.key}.items has no {name!r}")
            parts = [fill(spec["text"], {"T": THRESHOLD_VALUES, **item}, f"{text.key}.items.{name}") for item in value]
            out[name] = spec.get("join", ", ").join(parts) or spec.get("empty", "")
    return out


def _attribution(text: Text, page: Page) -> str:
    """Which items of Wang et al.'s abstract the finding tests, quoted, and what this package added."""
    if not text.abstract:
        return ""
    unknown = sorted(set(text.abstract) - set(page.abstract))
    if unknown:
        raise ValueError(f"finding {text.key!r}: abstract items {unknown} are not in page.toml's [abstract]")
    tested = "; ".join(f"{item}: {page.abstract[item]}" for item in text.abstract)
    return f"{tested}. Added by this package: {text.added}"


def make_finding(text: Text, verdict: str, values: Mapping[str, Any], numbers: Mapping[str, float]) -> Finding:
    """The finding: ``text``'s templates filled with the sources' names, the file's shared texts and ``values``.

    A claim about n -> infinity (``text.limit``) that its rule finds to hold reads "consistent with": finite-n
    measurements agree with a limit, they do not establish it.

    Examples
    --------
    >>> text = load_texts()[0]
    >>> f = make_finding(text, "holds", {"values": "CG 11", "agree": "1 of 1", "inflated": "0.961"}, {})
    >>> f.summary, f.verdict
    ('1 of 1 values agree; ideal from the returned list only: nDCG6 = 0.961', 'holds')
    """
    page = load_page()
    filled = {**page.sources, "T": THRESHOLD_VALUES, **_written(text, values)}
    filled.update({name: fill(shared, filled, f"{text.notebook} [shared] {name}") for name, shared in text.shared.items()})

    def write(name: str) -> str:
        return fill(getattr(text, name), filled, f"finding {text.key!r}, {name}")

    rule = write("rule") + (f" {page.limit_note}" if text.limit else "")
    if text.limit and verdict == "holds":
        verdict = "consistent with"
    return Finding(
        key=text.key, title=write("title"), claim=write("claim"), source=write("source"),
        measurement=write("measurement"), summary=write("summary"), verdict=verdict, conditions=write("conditions"),
        figures=text.figures, tables=text.tables, notebooks=(text.notebook,), numbers=dict(numbers),
        rule=rule, thresholds=text.thresholds, attribution=_attribution(text, page),
    )
