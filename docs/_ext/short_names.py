"""Sphinx extension: resolve the package's short and re-exported names in cross-references.

The docstrings name objects the way users import them: ``ndcg_research.ndcg`` (re-exported from
the private ``ndcg_research.core._metrics``), ``ndcg_research.stats.compare_systems`` (loaded lazily
by the subpackage), or just ``evaluate`` from a sibling module. The API reference documents each
public object once, under its public name (``ndcg_research.ndcg``). When Sphinx cannot resolve a
reference to a name of the package, this handler looks for the one documented object it means:

1. the object the dotted name imports to, under its defining module (``obj.__module__``); an
   undotted name is first tried as a name of the top level (``ndcg`` as ``ndcg_research.ndcg``);
2. else the only documented object of the package with the same last name component (a reference
   through a private module, ``ndcg_research.core._metrics.ndcg``, finds ``ndcg_research.ndcg``);
3. a module that has no page of its own (an implementation module) is its nearest documented
   package: ``ndcg_research.evaluation.measures`` is ``ndcg_research.evaluation``.

A reference that matches none, or more than one, stays unresolved, and ``nitpicky`` turns it into
a warning, so a wrong name still fails the build.
"""

from __future__ import annotations

import importlib

PACKAGE = "ndcg_research"


def _imported_name(target: str) -> str | None:
    """The defining module's dotted name of what ``target`` imports to, if it imports."""
    module_name, _, attribute = target.rpartition(".")
    if not module_name.startswith(PACKAGE):
        return None
    try:
        obj = getattr(importlib.import_module(module_name), attribute)
    except (ImportError, AttributeError):
        return None
    defining = getattr(obj, "__module__", None)
    qualname = getattr(obj, "__qualname__", None)
    if defining and qualname and defining.startswith(PACKAGE):
        return f"{defining}.{qualname}"
    return None


def resolve(app, env, node, contnode):
    if node.get("refdomain") != "py":
        return None
    target = node.get("reftarget", "")
    domain = env.get_domain("py")
    candidates = []
    canonical = _imported_name(target if "." in target else f"{PACKAGE}.{target}")
    if canonical and canonical in domain.objects:
        candidates = [canonical]
    else:
        last = target.rpartition(".")[2]
        candidates = [name for name in domain.objects if name.startswith(PACKAGE) and name.rpartition(".")[2] == last]
    if not candidates and node.get("reftype") == "mod":
        parent = target
        while "." in parent and parent not in domain.modules:
            parent = parent.rpartition(".")[0]
        candidates = [parent] if parent in domain.modules else []
        if candidates:
            return domain.resolve_xref(env, node["refdoc"], app.builder, "mod", parent, node, contnode)
    if len(candidates) != 1:
        return None
    return domain.resolve_xref(env, node["refdoc"], app.builder, "obj", candidates[0], node, contnode)


def setup(app):
    app.connect("missing-reference", resolve)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
