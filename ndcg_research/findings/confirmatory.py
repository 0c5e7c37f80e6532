"""The confirmatory run: the full profile again, fresh seeds, judged by rules committed before it (``[confirmatory]``
of ``thresholds.toml``: ``rules_commit``, ``seeds``, ``results_commit``, and ``revised``: the findings whose rule was
changed after it, each saying why in its text's ``revised``). :func:`problems` checks that the other rules equal
``rules_commit``'s as values and syntax trees (comments and layout may change), then the seeds once results are in."""

from __future__ import annotations

import ast
import subprocess
import tomllib
from collections.abc import Callable, Collection, Mapping
from pathlib import Path
from typing import Any

#: The fields of a finding's text that decide its verdict (the other texts may change after the rules are fixed).
RULE_FIELDS = ("rule", "limit", "derivation", "thresholds")
STUDIES = "ndcg_research/studies"
SHARED = "ndcg_research/findings/thresholds.toml"
MODEL = "ndcg_research/findings/model.py"


def _code(source: str, only: str | None = None, without: Collection[str] = ()) -> str:
    """The syntax tree of Python ``source`` (of its function ``only``; ``without`` the functions named), without
    docstrings, as text."""
    tree: Any = ast.parse(source)
    if only is not None:
        tree = next(node for node in ast.walk(tree) if isinstance(node, ast.FunctionDef) and node.name == only)
    tree.body = [node for node in tree.body if not (isinstance(node, ast.FunctionDef) and node.name in without)]
    for node in ast.walk(tree):
        body: Any = getattr(node, "body", None)
        first = body[0] if isinstance(body, list) and body else None
        if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str):
            node.body = body[1:] or [ast.Pass()]
    return ast.dump(tree)


def rules(read: Callable[[str], str | None], studies: list[str], revised: Collection[str] = ()) -> dict[str, Any]:
    """What decides the verdicts, from ``read(path)`` (None: missing): the thresholds' values, each finding's
    :data:`RULE_FIELDS`, and each study's ``findings.py`` and :func:`~.model.limit_verdict` as syntax trees; the
    findings ``revised`` after the run (keys) are left out, with their rules' functions."""
    shared = tomllib.loads(read(SHARED) or "")
    shared.pop("confirmatory", None)
    thresholds = {name: entry.get("value") for name, entry in shared.items()}
    findings, code = {}, {}
    for study in studies:
        text = read(f"{STUDIES}/{study}/findings.toml")
        if text is None:
            continue
        data = tomllib.loads(text)
        thresholds |= {name: entry.get("value") for name, entry in data.get("thresholds", {}).items()}
        findings |= {
            key: {name: entry.get(name) for name in RULE_FIELDS}
            for key, entry in data.items()
            if isinstance(entry, Mapping) and "rule" in entry and key not in revised
        }
        functions = [key.replace("-", "_") for key in revised]  # (a finding's rule is named after its key)
        code[study] = _code(read(f"{STUDIES}/{study}/findings.py") or "", without=functions)
    code["limit_verdict"] = _code(read(MODEL) or "", "limit_verdict")
    return {"thresholds": thresholds, "findings": findings, "code": code}


def recorded_seeds(root: Path) -> dict[str, set[Any]]:
    """The seeds recorded with the committed figures (``figures/*.json``), by notebook stem."""
    import json

    seeds: dict[str, set[Any]] = {}
    for path in sorted((root / "figures").glob("*.json")):
        record = json.loads(path.read_text(encoding="utf-8"))
        if "notebook" in record and "seed" in record:
            seeds.setdefault(record["notebook"].removesuffix(".ipynb"), set()).add(record["seed"])
    return seeds


def problems(root: str | Path, record: Mapping[str, Any]) -> list[str]:
    """What contradicts the confirmatory ``record`` in the repository at ``root`` (nothing checked without a
    ``rules_commit``, outside a checkout or in a shallow clone that lacks it)."""
    root = Path(root)
    commit = record.get("rules_commit", "")
    if not commit:
        return []
    studies = sorted(path.parent.name for path in (root / STUDIES).glob("*/findings.toml"))
    if not (root / ".git").exists():
        return []  # not a checkout (an unpacked release): there is no history to compare with

    def git(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(["git", "-C", str(root), *args], capture_output=True, text=True, check=False)

    if git("cat-file", "-e", f"{commit}^{{commit}}").returncode != 0:
        if git("rev-parse", "--is-shallow-repository").stdout.strip() == "true":
            return []  # a shallow clone (CI) lacks the commit: the full history checks it
        return [f"the rules' commit {commit} of thresholds.toml's [confirmatory] is not in the repository"]

    def committed(path: str) -> str | None:
        shown = git("show", f"{commit}:{path}")
        return shown.stdout if shown.returncode == 0 else None

    def in_tree(path: str) -> str | None:
        return (root / path).read_text(encoding="utf-8") if (root / path).is_file() else None

    found = []
    revised = record.get("revised", [])
    then, now = rules(committed, studies, revised), rules(in_tree, studies, revised)
    for part, what in (("thresholds", "threshold"), ("findings", "rule of finding"), ("code", "code of")):
        for name in sorted(set(then[part]) | set(now[part])):
            if then[part].get(name) != now[part].get(name):
                found.append(f"{what} {name!r} differs from the confirmatory rules' commit {commit[:12]}")
    if record.get("results_commit"):
        import yaml  # the notebooks' extra, as the profiles it reads

        profiles = yaml.safe_load((root / "notebooks" / "profiles.yaml").read_text(encoding="utf-8"))
        full = profiles.get("full") or {}
        figures = recorded_seeds(root)
        for notebook, seed in record.get("seeds", {}).items():
            if full.get(notebook, {}).get("seed") != seed:
                found.append(f"notebooks/profiles.yaml: the full profile's seed of {notebook} is not {seed}")
            if figures.get(notebook, {seed}) != {seed}:
                found.append(f"figures of {notebook} record seeds {sorted(figures[notebook])}, not {seed}")
    return found
