"""No measured number is typed into the prose of a notebook: measured numbers are printed by code.

The rule, applied to the text of every markdown cell of ``notebooks/NN_*.ipynb`` outside
formulas (``$...$``, ``$$...$$``), inline code (backticks) and link targets:

- a decimal number (``0.93``) or a percentage (``12%``) must be a number the notebook's code
  writes down: a parameter or a constant of a code cell (``hi=0.6`` in a model spec makes
  "0.6" and "60%" fine, ``alpha = 0.01`` makes "1%" fine), or the confidence level of every
  interval of the package (:data:`ndcg_research.stats.intervals.CONFIDENCE`: "95%");
- a count written as "k of m" (``30 of 30 collections``) is a measurement: never in prose;
- whole numbers otherwise (list lengths, sample sizes, years, section numbers) are fine.

Everything a notebook measures therefore reaches the reader through a code cell's output,
which is re-run (nbval, the runner) and so cannot drift from the data the way typed text
does. Formulas may hold constants such as :math:`\\gamma = 0.5772`; they are not checked.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from pathlib import Path

import nbformat
import pytest

from ndcg_research.stats.intervals import CONFIDENCE

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))

#: What is not prose: display and inline math, inline code, link targets.
NOT_PROSE = re.compile(r"\$\$.*?\$\$|\$[^$\n]*\$|`[^`\n]*`|\]\([^)]*\)", re.S)
DECIMAL = re.compile(r"(?<![\w.])\d+\.\d+(?![\w.])")
PERCENT = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)\s?%")
COUNT = re.compile(r"\b\d+ of \d+\b")


def code_numbers(nb: nbformat.NotebookNode) -> set[float]:
    """Every number literal in the notebook's code cells, also inside strings (spec strings such as
    ``"probit(lo=0.1, hi=0.6)"``)."""
    numbers: set[float] = set()
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        source = "\n".join(line for line in cell.source.splitlines() if not line.lstrip().startswith(("%", "!")))
        try:
            tokens = list(tokenize.generate_tokens(io.StringIO(source).readline))
        except (tokenize.TokenError, IndentationError):
            tokens = []
        for token in tokens:
            if token.type == tokenize.NUMBER:
                numbers.add(float(ast.literal_eval(token.string.replace("_", ""))))
            elif token.type in (tokenize.STRING, tokenize.COMMENT):
                numbers.update(float(v) for v in re.findall(r"(?<![\w.])\d+(?:\.\d+)?(?:e[+-]?\d+)?", token.string))
    return numbers


def typed_numbers(nb: nbformat.NotebookNode) -> list[str]:
    """The measured-looking numbers of the markdown cells that the rule refuses, with their context."""
    allowed = code_numbers(nb) | {CONFIDENCE}
    found = []
    for index, cell in enumerate(nb.cells):
        if cell.cell_type != "markdown":
            continue
        text = NOT_PROSE.sub(" ", cell.source)

        def report(match: re.Match, why: str) -> None:
            context = text[max(0, match.start() - 40): match.end() + 20].replace("\n", " ")
            found.append(f"cell {index}: {why}: ...{context}...")

        for match in PERCENT.finditer(text):
            value = float(match.group(1))
            if round(value / 100, 12) not in allowed:
                report(match, "percentage not written in the code")
        for match in DECIMAL.finditer(text):
            if float(match.group()) not in allowed and not text[match.end():].lstrip().startswith("%"):
                report(match, "decimal number not written in the code")
        for match in COUNT.finditer(text):
            report(match, "a count 'k of m' is a measurement")
    return found


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_markdown_cells_quote_no_typed_measurements(path):
    problems = typed_numbers(nbformat.read(path, as_version=4))
    assert not problems, (f"{path.name}: numbers typed into prose (print them from a code cell, or write a "
                          f"parameter in math/code):\n  " + "\n  ".join(problems))


def test_the_rule_catches_typed_numbers_and_allows_parameters():
    nb = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_code_cell('model = "probit(lo=0.1, hi=0.6)"\nconfidence = 0.95\nreplicates = 1000'),
        nbformat.v4.new_markdown_cell(
            "Relevant 60% of the time; 95% intervals over 1000 data sets; $\\gamma = 0.5772$; `power(beta=0.5)`.\n"
            "Measured: the random ranker scores 0.93, 12% off, in 30 of 30 collections; limit 0.6."),
    ])
    problems = typed_numbers(nb)
    assert len(problems) == 3, problems
    assert "0.93" in problems[1] and "12%" in problems[0] and "30 of 30" in problems[2]
