"""Sphinx configuration of the documentation site (``python3 tasks.py docs`` builds it into build/site/).

The source directory is the repository root (``sphinx-build -c docs . build/site``), so that the
notebooks, FINDINGS.md, figures/ and results/ are read where they are committed and the relative
links between them resolve as they do on GitHub; ``include_patterns`` names what is read.

The site is built from what is committed, offline: the notebooks are rendered from their stored
outputs (myst-nb, never executed here), FINDINGS.md and the figures' provenance records are read as
they are, and the API reference is generated from the numpydoc docstrings (autosummary). Every
warning is an error (``-W``), and ``nitpicky`` makes a cross-reference to a name that does not exist
a warning, so a broken link, a missing image or an unknown role cannot reach a reader.
"""

from __future__ import annotations

import importlib.metadata
import sys
from pathlib import Path

DOCS = Path(__file__).resolve().parent
ROOT = DOCS.parent
sys.path.insert(0, str(DOCS / "_ext"))

import ndcg_research  # noqa: E402  (the installed package whose API is documented)

project = "ndcg_research"
author = "ndcg_research contributors"
copyright = "ndcg_research contributors, MIT license"  # noqa: A001 (Sphinx's name)
release = version = ndcg_research.__version__

extensions = [
    "myst_nb",  # Markdown pages and the notebooks (stored outputs)
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "numpydoc",  # the docstrings' Parameters / Returns / Examples sections
    "sphinx.ext.mathjax",
    "generated_pages",  # docs/_ext: the figures page and the findings table, from committed files
    "short_names",  # docs/_ext: references to re-exported and short names of the package
]

root_doc = "docs/index"
templates_path = [str(DOCS / "_templates")]  # absolute: autosummary resolves it against the source directory
include_patterns = ["docs/**", "notebooks/[0-9][0-9]_*.ipynb", "FINDINGS.md"]
exclude_patterns = [
    "docs/_templates/**",
    "docs/_ext/**",
    "docs/_static/**",
    "docs/generated/findings_table.md",  # included by docs/index.md, not a page of its own
    "docs/generated/speed_results.md",  # included by docs/guides/speed.md
    "**/.ipynb_checkpoints",
]
# .rst first: autosummary writes its generated pages with the first suffix (its templates are reST).
source_suffix = {".rst": "restructuredtext", ".md": "myst-nb", ".ipynb": "myst-nb"}

# --- notebooks: rendered from their stored outputs --------------------------------------------
nb_execution_mode = "off"
nb_merge_streams = True  # a cell's printed lines as one block, as JupyterLab shows them
myst_enable_extensions = ["dollarmath", "amsmath", "colon_fence"]
myst_heading_anchors = 3  # GitHub's heading anchors, so FINDINGS.md#... links resolve
myst_dmath_double_inline = True

# --- API reference -----------------------------------------------------------------------------
autosummary_generate = True
# A public package's page lists the names of its __all__ (re-exported from its private modules),
# and nothing else: the API reference is the public API (docs/api/index.md).
autosummary_ignore_module_all = False
autodoc_default_options = {"members": True, "show-inheritance": False}
autodoc_typehints = "none"  # the numpydoc sections say the types; signatures stay short
numpydoc_show_class_members = False
numpydoc_validation_checks: set[str] = set()
add_module_names = False

# Broken references fail the build; names of other libraries (no network, so no intersphinx) are
# written as plain text and ignored here by pattern.
nitpicky = True
nitpick_ignore_regex = [
    (r"py:.*", r"(?!ndcg_research\b)\w+\..*"),  # dotted names of other libraries and the standard library
    (
        r"py:mod",
        r"ast|tomllib|argparse|doctest|json|gzip|bz2|lzma|os|sys|pathlib|numpy|scipy|pandas|matplotlib|"
        r"papermill|nbval|nbformat|joblib|dask|pyarrow|tqdm|threadpoolctl",
    ),
    (
        r"py:class",
        r"(array-like|array_like|ndarray|DataFrame|Series|Figure|Axes|Generator|SeedSequence|"
        r"path-like|PathLike|callable|Callable|Sequence|Mapping|Iterable|Iterator|Any|optional|default.*|"
        r"int|float|str|bool|dict|list|tuple|None|object|bytes|type|Path)",
    ),
]

# --- mathematics without a network: MathJax 3 from the sphinx-mathjax-offline wheel's files ----
_MATHJAX = [p for p in importlib.metadata.files("sphinx-mathjax-offline") or () if p.name == "tex-chtml.js"]
if not _MATHJAX:
    raise RuntimeError("sphinx-mathjax-offline is not installed (requirements-docs.txt)")
mathjax_path = "mathjax/tex-chtml.js"

# --- HTML ----------------------------------------------------------------------------------------
html_theme = "pydata_sphinx_theme"
html_title = f"ndcg_research {release}"
html_static_path = [str(DOCS / "_static"), str(Path(_MATHJAX[0].locate()).parent.parent)]
html_css_files = ["site.css"]
html_show_sourcelink = False
html_theme_options = {
    "navigation_with_keys": False,
    "show_toc_level": 2,
    # The header in one line at 1280 px: its height comes off every page's first screen.
    "header_links_before_dropdown": 4,
    "secondary_sidebar_items": ["page-toc"],
    "article_header_start": [],  # no breadcrumbs: the header's links and the page's title say where a reader is
    "footer_start": ["copyright"],
    "footer_end": ["sphinx-version"],
}
# No navigation column on the landing page, the findings and the notebooks (the notebooks page and the header lead to
# them): their text takes the width, so that a notebook's answer is on its first screen.
html_sidebars = {"docs/index": [], "FINDINGS": [], "notebooks/*": []}
