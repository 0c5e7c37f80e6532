"""No measured number is typed into the prose of a notebook: measured numbers are printed by code.

The rule, applied to the text of every markdown cell of ``notebooks/NN_*.ipynb`` outside
formulas (``$...$``, ``$$...$$``), inline code (backticks) and link targets:

- a decimal number (``0.93``) or a percentage (``12%``) must be a number the notebook's code
  writes down: a parameter or a constant of a code cell (``hi=0.6`` in a model spec makes
  "0.6" and "60%" fine, ``alpha = 0.01`` makes "1%" fine), or the confidence level of every
  interval of the package (:data:`ndcg_research.stats.CONFIDENCE`: "95%");
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

from ndcg_research.stats import CONFIDENCE

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

        def report(match: re.Match, why: str, text: str = text, index: int = index) -> None:
            context = text[max(0, match.start() - 40) : match.end() + 20].replace("\n", " ")
            found.append(f"cell {index}: {why}: ...{context}...")

        for match in PERCENT.finditer(text):
            value = float(match.group(1))
            if round(value / 100, 12) not in allowed:
                report(match, "percentage not written in the code")
        for match in DECIMAL.finditer(text):
            if float(match.group()) not in allowed and not text[match.end() :].lstrip().startswith("%"):
                report(match, "decimal number not written in the code")
        for match in COUNT.finditer(text):
            report(match, "a count 'k of m' is a measurement")
    return found


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_markdown_cells_quote_no_typed_measurements(path):
    problems = typed_numbers(nbformat.read(path, as_version=4))
    assert not problems, (
        f"{path.name}: numbers typed into prose (print them from a code cell, or write a "
        f"parameter in math/code):\n  " + "\n  ".join(problems)
    )


def test_the_rule_catches_typed_numbers_and_allows_parameters():
    nb = nbformat.v4.new_notebook(
        cells=[
            nbformat.v4.new_code_cell('model = "probit(lo=0.1, hi=0.6)"\nconfidence = 0.95\nreplicates = 1000'),
            nbformat.v4.new_markdown_cell(
                "Relevant 60% of the time; 95% intervals over 1000 data sets; $\\gamma = 0.5772$; `power(beta=0.5)`.\n"
                "Measured: the random ranker scores 0.93, 12% off, in 30 of 30 collections; limit 0.6."
            ),
        ]
    )
    problems = typed_numbers(nb)
    assert len(problems) == 3, problems
    assert "0.93" in problems[1] and "12%" in problems[0] and "30 of 30" in problems[2]


# --------------------------------------------------------------------------- verdicts in prose

#: A verdict in prose that says a claim holds: "holds" after a word naming what is judged (claim, verdict, law, ...)
#: in the same sentence, or opening a sentence ("Verdict. Holds: ..."); not "does not hold", not a rule's "holds if
#: ...", and not the verb of "a list holds one item".
HOLDS = re.compile(
    r"(?:\b(?:claims?|verdicts?|findings?|law|hypothesis|property|reading)\b[^.]{0,40}?|(?:^|[.:]\s+))"
    r"(?<!not )\bholds\b(?! (?:if|when|only if)\b)",
    re.I | re.M,
)
#: What a printed output says when the claim does not hold in that run.
DENIED = re.compile(r"does not hold|\bat no n\b", re.I)


def _outputs_text(cell: nbformat.NotebookNode) -> str:
    texts = []
    for output in cell.get("outputs", []):
        texts.append(output.get("text", ""))
        texts.extend(output.get("data", {}).get(kind, "") for kind in ("text/plain", "text/html"))
    return "\n".join(t if isinstance(t, str) else "".join(t) for t in texts)


def contradicted_verdicts(nb: nbformat.NotebookNode) -> list[str]:
    """Markdown cells that say a claim holds beside an output (the nearest code cell before or after) that says
    it does not hold, or that the property is reached at no n: prose that the run contradicts."""
    cells = nb.cells
    found = []
    for index, cell in enumerate(cells):
        if cell.cell_type != "markdown":
            continue
        text = re.sub(r"[*_]", "", NOT_PROSE.sub(" ", cell.source))  # emphasis would hide a "not"
        said = HOLDS.search(text)
        if not said:
            continue
        before = next((c for c in reversed(cells[:index]) if c.cell_type == "code"), None)
        after = next((c for c in cells[index + 1 :] if c.cell_type == "code"), None)
        for neighbour in (before, after):
            denied = DENIED.search(_outputs_text(neighbour)) if neighbour is not None else None
            if denied:
                found.append(
                    f"cell {index} says {text[max(0, said.start() - 30) : said.end() + 20]!r} beside an "
                    f"output saying {denied.group()!r}"
                )
                break
    return found


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_no_prose_verdict_is_contradicted_by_the_output_beside_it(path):
    problems = contradicted_verdicts(nbformat.read(path, as_version=4))
    assert not problems, (
        f"{path.name}: markdown states a verdict that the printed output beside it contradicts "
        f"(let the code print the verdict):\n  " + "\n  ".join(problems)
    )


def test_the_verdict_check_catches_the_old_pattern_of_notebook_04():
    def notebook(prose: str, printed: str) -> nbformat.NotebookNode:
        shown = nbformat.v4.new_code_cell("print(line)")
        shown.outputs = [nbformat.v4.new_output("stream", name="stdout", text=printed)]
        return nbformat.v4.new_notebook(
            cells=[nbformat.v4.new_code_cell("x = 1"), nbformat.v4.new_markdown_cell(prose), shown]
        )

    old = notebook(
        "A perfect record needs some four hundred data sets. So the claim\nholds in these models.",
        "  every pair with Wilson lower bound >= 0.99 at no n of this run (too few data sets)\n",
    )
    assert len(contradicted_verdicts(old)) == 1
    table = notebook("**Verdict.** Holds: the order becomes more reliable.", "verdict: does not hold\n")
    assert len(contradicted_verdicts(table)) == 1
    # Prose that does not claim it holds, or states a rule, is not a contradiction; nor is agreeing prose.
    assert contradicted_verdicts(notebook("The claim does **not** hold here.", "verdict: does not hold")) == []
    assert contradicted_verdicts(notebook("The claim holds if every pair is certain.", "at no n of this run")) == []
    assert contradicted_verdicts(notebook("So the claim holds.", "from n = 1000 on; verdict: holds")) == []
    assert contradicted_verdicts(notebook("Below n = 1/share a list still holds one item.", "does not hold")) == []
