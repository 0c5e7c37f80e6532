"""The findings generator: the committed page and README section are up to date; staleness is detected."""

import shutil
from pathlib import Path

import pandas as pd
import pytest

from ndcg_research.cli import main
from ndcg_research.findings import Finding, MissingTableError, Results, catalogue, render
from ndcg_research.findings.catalogue import STUDIES, answer, claim, claims, collect, fill, make_finding
from ndcg_research.findings.model import cases, limit_verdict, number, proportion, size, span
from ndcg_research.findings.render import README_END, README_START, anchor, render_page, splice_readme, thresholds_line
from ndcg_research.simulation.tables import write_table

ROOT = Path(__file__).resolve().parents[1]


def _signed(table: Path) -> None:
    """Record a table's SHA-256 as write_table does: a table a run wrote so (another version's), not one edited."""
    import hashlib

    (table.parent / f"{table.name}.sha256").write_text(
        f"{hashlib.sha256(table.read_bytes()).hexdigest()}  {table.name}\n"
    )


def test_committed_findings_are_up_to_date(capsys):
    # The README's Findings section and FINDINGS.md must be what the committed tables give.
    assert main(["findings", "--check"]) == 0, capsys.readouterr().err


def _fake_root(tmp_path: Path, value: float) -> Path:
    write_table([{"n": 10, "mean": value}], tmp_path / "results" / "full" / "t.csv")
    shutil.copy(ROOT / "README.md", tmp_path / "README.md")
    return tmp_path


def _finding_from_table(results: Results) -> Finding:
    mean = float(results.table("t.csv")["mean"].iloc[0])
    return Finding(
        "fake",
        "Fake claim",
        "x is large.",
        "a test",
        f"mean = {mean:.2f}.",
        f"mean {mean:.2f}",
        "holds" if mean > 0.5 else "does not hold",
        "always.",
        tables=("t.csv",),
    )


def test_check_fails_when_a_table_changes_and_write_fixes_it(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(catalogue, "claims", lambda: (_finding_from_table,))
    root = _fake_root(tmp_path, 0.75)
    assert main(["findings", "--root", str(root)]) == 0
    page = (root / "FINDINGS.md").read_text()
    assert "mean = 0.75." in page and "**Verdict**: holds." in page
    assert main(["findings", "--check", "--root", str(root)]) == 0
    # The table moves: the quoted number and the verdict are now stale.
    write_table([{"n": 10, "mean": 0.25}], root / "results" / "full" / "t.csv")
    capsys.readouterr()
    assert main(["findings", "--check", "--root", str(root)]) == 1
    assert "FINDINGS.md, README.md out of date" in capsys.readouterr().err
    assert main(["findings", "--root", str(root)]) == 0
    assert "**Verdict**: does not hold." in (root / "FINDINGS.md").read_text()
    assert "| does not hold | - | mean 0.25 |" in (root / "README.md").read_text()


def test_missing_table_is_a_one_line_error(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(catalogue, "claims", lambda: (_finding_from_table,))
    shutil.copy(ROOT / "README.md", tmp_path / "README.md")
    assert main(["findings", "--check", "--root", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert err.startswith("ndcg-research findings: error: table 't.csv' is not in") and err.count("\n") == 1
    with pytest.raises(MissingTableError):
        Results(tmp_path).table("t.csv")


def test_an_installed_package_without_a_checkout_asks_for_the_root(tmp_path, monkeypatch, capsys):
    # After `pip install .` the folder above the package is site-packages: it said to run tasks.py, which is not there
    from ndcg_research.findings import cli as findings_cli

    site = tmp_path / "site-packages" / "ndcg_research" / "findings"
    site.mkdir(parents=True)
    monkeypatch.setattr(findings_cli, "__file__", str(site / "cli.py"))
    monkeypatch.chdir(tmp_path)  # then the working directory is the checkout, as for reproduce: here it is none
    assert main(["findings", "--check"]) == 1
    err = capsys.readouterr().err
    assert err == (
        f"ndcg-research findings: error: {str(tmp_path)!r} holds no checkout of ndcg_research: "
        "give --root DIR, a clone of it\n"
    )
    monkeypatch.chdir(ROOT)  # run in a clone, the installed package finds it (it said: give --root)
    assert main(["findings", "--check"]) == 0, capsys.readouterr().err


def test_a_table_value_a_rule_cannot_take_and_an_unwritable_page_are_one_line_errors(tmp_path, capsys):
    # Each was a traceback: a ValueError of the rule (no finite estimate), an IsADirectoryError writing FINDINGS.md
    tables = tmp_path / "results" / "full"
    shutil.copytree(ROOT / "results" / "full", tables)
    measures = pd.read_csv(tables / "07_measures.csv")
    measures.assign(queries_needed=float("inf")).to_csv(tables / "07_measures.csv", index=False)
    _signed(tables / "07_measures.csv")
    assert main(["findings", "--json", "--results", str(tables)]) == 1
    err = capsys.readouterr().err
    assert err.startswith("ndcg-research findings: error: finding 'queries-depend-on-discount' (studies/query_sets/")
    assert "ValueError: needed has no finite estimate" in err and err.count("\n") == 1
    shutil.copytree(ROOT / "results" / "full", tables, dirs_exist_ok=True)
    for name in ("README.md", "pyproject.toml"):
        shutil.copy(ROOT / name, tmp_path / name)
    (tmp_path / "FINDINGS.md").mkdir()
    assert main(["findings", "--root", str(tmp_path)]) == 1
    assert capsys.readouterr().err.endswith(f"cannot write {str(tmp_path / 'FINDINGS.md')!r}: Is a directory\n")
    for option in ("--root", "--results"):
        assert main(["findings", option, str(tmp_path / "missing")]) == 1
        assert capsys.readouterr().err.endswith(f"{option} {str(tmp_path / 'missing')!r} is not a folder (missing)\n")


def test_a_table_of_other_columns_is_a_one_line_error_naming_it(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(catalogue, "claims", lambda: (_finding_from_table,))
    root = _fake_root(tmp_path, 0.75)
    table = root / "results" / "full" / "t.csv"
    table.write_text(table.read_text().replace("mean", "average"))  # its dtypes file still lists mean
    _signed(table)
    for argv in (["--check"], [], ["--json"]):  # it was a ValueError traceback
        assert main(["findings", *argv, "--root", str(root)]) == 1
        err = capsys.readouterr().err
        assert err.startswith(f"ndcg-research findings: error: table 't.csv' in {str(table.parent)!r} does not read: ")
        assert str(table) in err and "average" in err and err.count("\n") == 1


def test_json_is_strict_a_number_that_is_not_finite_is_null(tmp_path, monkeypatch, capsys):
    import json

    finding = Finding("fake", "T", "C", "S", "M", "m", "undecided", "C", numbers={"a": 1.5, "b": float("nan")})
    monkeypatch.setattr(catalogue, "claims", lambda: (lambda results: finding,))
    assert main(["findings", "--json", "--root", str(tmp_path)]) == 0  # it printed NaN, which JSON has not
    [found] = json.loads(capsys.readouterr().out, parse_constant=lambda word: pytest.fail(f"{word} is not JSON"))
    assert found["numbers"] == {"a": 1.5, "b": None} and found["key"] == "fake"


def test_check_and_json_together_are_a_usage_error(capsys):
    with pytest.raises(SystemExit) as exit_info:  # --json printed and left --check undone
        main(["findings", "--check", "--json"])
    assert exit_info.value.code == 2
    assert capsys.readouterr().err.endswith(
        "ndcg-research findings: error: argument --json: not allowed with argument --check\n"
    )


def test_unknown_verdict_is_refused():
    with pytest.raises(ValueError, match="verdict of finding 'k' must be one of"):
        Finding("k", "T", "C", "S", "M", "m", "probably", "C")


def test_readme_without_markers_is_an_error():
    with pytest.raises(ValueError, match="README has no findings markers"):
        render.splice_readme("# no markers here\n", "x")


def test_every_finding_links_to_files_that_exist():
    # Each finding names the notebook, figures and tables that carry it; every link of FINDINGS.md must resolve.
    findings = collect(Results(ROOT / "results" / "full"))
    assert len({f.key for f in findings}) == len(findings) and len({f.title for f in findings}) == len(findings)
    for f in findings:
        assert f.tables and f.notebooks, f.key
        for name in f.tables:
            assert (ROOT / "results" / "full" / name).is_file(), (f.key, name)
        for name in f.figures:
            assert (ROOT / "figures" / f"{name}.png").is_file(), (f.key, name)
        for name in f.notebooks:
            assert (ROOT / "notebooks" / name).is_file(), (f.key, name)


def test_no_finding_quotes_a_bare_probability_of_one():
    # A probability measured as 1 is quoted with its Wilson lower bound ("won all 50 (Wilson lower bound 0.93)").
    import re

    for f in collect(Results(ROOT / "results" / "full")):
        for text in (f.measurement, f.summary):
            assert not re.search(r"\bP(?:\(correct\))?\s*=?\s*1(?:\.0+)?(?![\d.])|\b1\.00\b", text), (f.key, text)


def test_every_notebook_with_published_tables_has_findings():
    # A notebook whose full-profile tables are committed states claims; each must reach FINDINGS.md.
    import re

    published = {re.match(r"(\d\d)_", p.name).group(1) for p in (ROOT / "results" / "full").glob("[0-9][0-9]_*.csv")}
    covered = {name[:2] for f in collect(Results(ROOT / "results" / "full")) for name in f.notebooks}
    assert published and published <= covered, f"notebooks with published tables but no finding: {published - covered}"


def test_movielens_findings_give_the_verdicts_the_full_run_recorded():
    # Notebook 08 records its verdicts (studies.realdata's rules) in 08_movielens.json; the findings must agree.
    import json

    recorded = json.loads((ROOT / "results" / "full" / "08_movielens.json").read_text())["verdicts"]
    results = Results(ROOT / "results" / "full")
    mine = {
        "1a drift together (slowly varying)": claim("movielens-drift-together"),
        "1a first-order law": claim("movielens-first-order"),
        "1b differences stay detectable": claim("movielens-differences-detectable"),
        "1c zipf/summable lose": claim("movielens-fast-discounts-lose"),
        "2 slow >= log2 > fast (power)": claim("movielens-query-sets"),
        "3 tools agree on the order": claim("movielens-conventions"),
        "4 small cut-offs keep fewer decisions": claim("movielens-cutoffs"),
    }
    assert set(mine) == set(recorded)
    for name, finding in mine.items():
        assert finding(results).verdict == recorded[name], name


def test_query_set_findings_use_the_group_the_full_run_recorded():
    # Notebook 07 records the fewest-queries group of its verdict in 07_query_sets.json.
    import json

    recorded = json.loads((ROOT / "results" / "full" / "07_query_sets.json").read_text())
    finding = claim("queries-depend-on-discount")(Results(ROOT / "results" / "full"))
    assert recorded["best"] in finding.measurement.split(";")[0]
    assert (
        f"its fewest-queries group (intervals overlapping the best's): {', '.join(recorded['group'])}."
        in finding.measurement
    )


def _measures_folder(tmp_path: Path, rows: list[dict]) -> Results:
    import json

    write_table(rows, tmp_path / "07_measures.csv")
    parameters = {
        "systems": 20,
        "target_accuracy": 0.9,
        "trials": 10,
        "population_topics": 100,
        "seed": 1,
        "sizes": [5, 10, 20],
        "topics": 40,
        "model": {},
    }
    (tmp_path / "07_query_sets.json").write_text(json.dumps({"parameters": parameters}))
    return Results(tmp_path)


def _measure(gain, discount, decay, q, half, win=0.6, power=0.5, swap=0.2, topics=50, tie=0.0):
    return dict(
        gain=gain,
        discount=discount,
        decay=decay,
        per_topic_win=win,
        per_topic_tie=tie,
        queries_needed=q,
        queries_needed_low=q - half,
        queries_needed_high=q + half,
        power=power,
        topics_for_stability=topics,
        swap_rate=swap,
        tau_truth=1.0,
        tau_population=1.0,
    )


@pytest.mark.parametrize(
    "zipf_q, best_slow, expected",
    [
        (30.0, True, "holds"),  # zipf far above log2 / loglog, log2 best
        (30.0, False, "holds with qualification"),  # ... but a power r^-0.5 needs fewer than any slow discount
        (21.0, True, "does not hold"),  # zipf's interval overlaps loglog's
    ],
)
def test_decay_class_rule_on_made_up_tables(tmp_path, zipf_q, best_slow, expected):
    power_q = 25.0 if best_slow else 15.0
    rows = [
        _measure(g, d, decay, q + (1 if g == "exp2" else 0), 1.0)
        for g in ("linear", "exp2")
        for d, decay, q in (
            ("log2", "slowly varying", 18.0),
            ("loglog", "slowly varying", 19.0),
            ("zipf", "critical", zipf_q),
            ("power(beta=0.5)", "regularly varying", power_q),
        )
    ]
    finding = claim("fast-discounts-need-more-queries")(_measures_folder(tmp_path, rows))
    # exp2's slow discounts lie one query above linear's log2 and overlap it, so they are in the best's group
    # only when the best is linear log2; with power(beta=0.5) best (15 +- 1) the slow ones are outside it.
    assert finding.verdict == expected


def test_per_topic_win_rule_follows_the_sign_of_tau(tmp_path):
    # Win probability falling as queries needed rise: tau = -1 (holds); rising with them: tau = +1 (does not hold).
    falling = [_measure("linear", f"d{i}", "slowly varying", 10.0 + i, 0.5, win=0.7 - 0.01 * i) for i in range(5)]
    falling += [_measure("exp2", f"d{i}", "slowly varying", 20.0 + i, 0.5, win=0.6 - 0.01 * i) for i in range(5)]
    finding = claim("per-topic-win-predicts-queries")(_measures_folder(tmp_path, falling))
    assert finding.verdict == "holds" and finding.numbers["tau"] == pytest.approx(-1.0)
    rising = [dict(r, per_topic_win=0.5 + 0.01 * r["queries_needed"]) for r in falling]
    finding = claim("per-topic-win-predicts-queries")(_measures_folder(tmp_path, rising))
    assert finding.verdict == "does not hold" and finding.numbers["tau"] == pytest.approx(1.0)


def test_summaries_fit_in_a_markdown_table_cell():
    # The README shows each summary in a table row: a '|' would split the cell (|tau| must be written otherwise).
    for f in collect(Results(ROOT / "results" / "full")):
        assert "|" not in f.summary and "|" not in f.title and "\n" not in f.summary, f.key


# --------------------------------------------------------------------------- the texts as data


def _placeholders(template: str) -> set[str]:
    import string

    return {field.split("[")[0].split(".")[0] for _, field, _, _ in string.Formatter().parse(template) if field}


def test_every_text_has_one_rule_and_every_rule_a_text():
    # claims() finds each text's rule by its key; a function of a study's findings.py that takes the tables
    # (its first parameter is `results`) and is not a key would be a rule without a text.
    import importlib
    import inspect

    keys = [text.key for text in catalogue.catalogue().texts]
    assert len(keys) == len(set(keys)) == len(claims())
    rules = set()
    for study in {text.study for text in catalogue.catalogue().texts}:
        module = importlib.import_module(f"ndcg_research.studies.{study}.findings")
        rules |= {
            name
            for name, f in vars(module).items()
            if inspect.isfunction(f)
            and f.__module__ == module.__name__
            and not name.startswith("_")
            and list(inspect.signature(f).parameters)[:1] == ["results"]
        }
    assert rules == {key.replace("-", "_") for key in keys}


def test_every_value_a_rule_computes_is_quoted():
    # A value no template places is a computation the page never shows (or a typo in a placeholder's name).
    from ndcg_research.findings.catalogue import REQUIRED

    results = Results(ROOT / "results" / "full")
    for c in claims():
        text = c.text
        templates = [getattr(text, name) for name in REQUIRED if isinstance(getattr(text, name), str)]
        templates += list(text.shared.values())
        placed = set().union(*map(_placeholders, templates))
        values = c.rule(results).values
        assert set(values) <= placed, (text.key, set(values) - placed)
        for name, spec in text.items.items():
            assert isinstance(values[name], list), (text.key, name)
            fields = set().union(*(set(item) for item in values[name])) if values[name] else set()
            assert fields <= _placeholders(spec["text"]), (text.key, name, fields - _placeholders(spec["text"]))


def _texts(tmp_path: Path, entry: str, order: str = '["x"]', shared: str = "", more: dict | None = None):
    """The texts of made-up studies: ``x`` (notebook 01) holds ``entry``; ``more`` adds studies by name."""
    (tmp_path / "page.toml").write_text(
        f'order = {order}\npreamble = "p"\n'
        '[limit_rule]\nnot_derived = "L"\nderived = "D {derivation}"\n[derivations]\n"(a)" = "derivation a"\n'
        '[rules_fixed]\nfixed = "after seeing data"\nnote = "n"\n'
        '[sources]\npackage = "this package"\n[abstract]\nA1 = "a"\n'
    )
    (tmp_path / "thresholds.toml").write_text(shared)
    for index, (name, text) in enumerate({"x": entry, **(more or {})}.items(), start=1):
        (tmp_path / "studies" / name).mkdir(parents=True)
        (tmp_path / "studies" / name / "findings.toml").write_text(f'notebook = "{index:02d}_{name}.ipynb"\n{text}')
    return catalogue.catalogue(tmp_path / "studies", tmp_path / "page.toml", tmp_path / "thresholds.toml").texts


FULL_ENTRY = (
    '[k]\ntitle = "T"\nsource = "{package}"\nclaim = "C"\nmeasurement = "{rows}"\nrule = "R"\n'
    'summary = "S"\nconditions = "D"\nfigures = []\ntables = ["t.csv"]\n'
)


def test_a_text_file_is_read_and_filled(tmp_path):
    from ndcg_research.findings.catalogue import make_finding

    (text,) = _texts(tmp_path, FULL_ENTRY + '[k.items]\nrows = { join = "; ", text = "{a}", empty = "none" }\n')
    assert (text.key, text.study, text.notebook, text.tables) == ("k", "x", "01_x.ipynb", ("t.csv",))
    finding = make_finding(text, "holds", {"rows": [{"a": 1}, {"a": 2}]}, {})
    # {package} is named by the package's own page.toml
    assert (finding.measurement, finding.source, finding.notebooks) == ("1; 2", "this package", ("01_x.ipynb",))
    assert make_finding(text, "holds", {"rows": []}, {}).measurement == "none"


@pytest.mark.parametrize(
    "entry, shared, message",
    [
        (FULL_ENTRY.replace('rule = "R"\n', ""), "", "lacks \\['rule'\\]"),
        (FULL_ENTRY + 'colour = "red"\n', "", "unknown keys \\['colour'\\]"),
        (FULL_ENTRY + '[k.items]\nrows = { join = "; " }\n', "", "needs 'text'"),
        (FULL_ENTRY + 'thresholds = ["nope"]\n', "", "finding 'k' names thresholds no file defines: \\['nope'\\]"),
        (
            '[thresholds.t]\nvalue = 1\nfixed = "before the runs"\n' + FULL_ENTRY,
            '[t]\nvalue = 2\nfixed = "before the runs"\n',
            "thresholds \\['t'\\] are defined twice",
        ),
    ],
)
def test_a_malformed_text_file_is_refused_by_name(tmp_path, entry, shared, message):
    with pytest.raises(ValueError, match=message):
        _texts(tmp_path, entry, shared=shared)


def test_the_studies_come_in_the_pages_order_then_by_notebook(tmp_path):
    # A study the page does not list (a new notebook) is still found: after the listed ones.
    more = {"y": FULL_ENTRY.replace("[k]", "[k2]"), "z": FULL_ENTRY.replace("[k]", "[k3]")}
    texts = _texts(tmp_path, FULL_ENTRY, order='["z", "x"]', more=more)
    assert [(t.study, t.notebook) for t in texts] == [("z", "03_z.ipynb"), ("x", "01_x.ipynb"), ("y", "02_y.ipynb")]


def test_a_list_value_needs_an_item_template_and_a_placeholder_a_value(tmp_path):
    from ndcg_research.findings.catalogue import make_finding

    (text,) = _texts(tmp_path, FULL_ENTRY)
    with pytest.raises(ValueError, match="value 'rows' is a list but k.items has no 'rows'"):
        make_finding(text, "holds", {"rows": [{"a": 1}]}, {})
    with pytest.raises(ValueError, match="finding 'k', measurement: no value for the placeholder {rows}"):
        make_finding(text, "holds", {}, {})


# --------------------------------------------------------------------------- MovieLens rules on made-up tables


def _list_length_tables(spread_narrows=True, loglog_sig=3):
    """Two lengths, two rankers, one gain, discounts zipf / log2 / loglog (the spread narrows unless told)."""
    import pandas as pd

    rows, pairs, first_order = [], [], []
    for n in ("100", "all"):
        for d in ("zipf", "log2", "loglog"):
            top, low = (0.5, 0.3) if n == "100" else ((0.6, 0.45) if spread_narrows else (0.6, 0.35))
            rows += [
                dict(list_length=n, gain="g", discount=d, system=s, mean=m, users_with_share_kept=1.0)
                for s, m in (("x", top), ("y", low))
            ]
            p = {"zipf": 0.5, "log2": 0.01, "loglog": 0.01 if loglog_sig else 0.5}[d]
            pairs.append(
                dict(
                    list_length=n, gain="g", discount=d, system_a="x", system_b="y", pvalue_adjusted=p, effect_size=0.5
                )
            )
            if d != "zipf":
                first_order += [
                    dict(list_length=n, gain="g", discount=d, system=s, c_estimate=c * (1.1 if d == "loglog" else 1.0))
                    for s, c in (("x", 4.0), ("y", 5.0))
                ]
    return pd.DataFrame(rows), pd.DataFrame(pairs), pd.DataFrame(first_order)


def test_movielens_list_length_rules():
    from ndcg_research.studies.movielens.findings import list_length_findings

    f = list_length_findings(*_list_length_tables())
    assert (f["n0"], f["n1"], f["slow"], f["fast"]) == ("100", "all", ["log2", "loglog"], ["zipf"])
    # c ratio 1.1 is within the factor 1.2; loglog as significant as log2, same effect sizes; zipf none
    assert f["verdicts"] == {
        "1a drift together (slowly varying)": "holds",
        "1a first-order law": "holds",
        "1b differences stay detectable": "holds",
        "1c zipf/summable lose": "holds",
    }
    f = list_length_findings(*_list_length_tables(spread_narrows=False, loglog_sig=0))
    assert f["verdicts"]["1a drift together (slowly varying)"] == "does not hold"  # spread 0.2 -> 0.25
    assert f["verdicts"]["1b differences stay detectable"] == "does not hold"  # loglog 0 pairs < log2 1


def test_movielens_query_set_rule():
    import pandas as pd

    from ndcg_research.studies.movielens.findings import query_set_findings

    power = pd.DataFrame(
        {
            "gain": "g",
            "discount": ["zipf", "log2", "loglog"] * 2,
            "users": [25] * 3 + [100] * 3,
            "power": [0.1, 0.3, 0.3, 0.2, 0.5, 0.46],
        }
    )
    f = query_set_findings(power)
    assert f["users"] == 100 and f["verdict"] == "holds" and f["best"] == "log2"  # loglog 0.46 >= 0.5 - 0.05
    power.loc[5, "power"] = 0.4
    assert query_set_findings(power)["verdict"] == "does not hold"


def test_movielens_convention_and_cutoff_rules():
    import pandas as pd

    from ndcg_research.studies.movielens.findings import convention_findings, cutoff_findings

    decisions = pd.DataFrame(
        {
            "convention": ["trec_eval", "sklearn", "lightgbm"],
            "max_mean_shift": [0, 0.1, 0.5],
            "significant_reversals": [0, 0, 2],
            "kendall_tau_vs_reference": [1.0, 0.9, -0.3],
        }
    )
    f = convention_findings(decisions)
    assert f["verdict"] == "does not hold" and f["reversing"]["convention"].tolist() == ["lightgbm"]
    assert f["max_shift"] == 0.5 and convention_findings(decisions.iloc[:2])["verdict"] == "holds"
    cut = pd.DataFrame(
        {
            "gain": "g",
            "cutoff": ["all", "5", "10"],
            "significant": [5, 3, 5],
            "decisions_changed": [0, 2, 1],
            "significant_reversals": [0, 1, 0],
        }
    )
    f = cutoff_findings(cut)
    assert (f["changed"], f["reversed_significant"], f["verdict"]) == (3, 1, "does not hold")  # @10 finds 5, not fewer
    assert cutoff_findings(cut.assign(significant=[5, 3, 4]))["verdict"] == "holds"


# --------------------------------------------------------------------------- thresholds in one file


def test_every_threshold_in_the_files_is_used_and_every_use_is_in_the_files():
    # A name read by the code (threshold("x")), placed by a text ({T[x]}) or listed by a finding must be an
    # entry of a findings.toml (or the shared thresholds.toml), and every entry must be read or listed somewhere.
    import re

    THRESHOLDS = catalogue.catalogue().thresholds
    code = "\n".join(p.read_text() for p in (ROOT / "ndcg_research").rglob("*.py"))
    texts = "\n".join(p.read_text() for p in (ROOT / "ndcg_research" / "studies").glob("*/findings.toml"))
    read = set(re.findall(r'threshold\("(\w+)"\)', code)) | set(re.findall(r"\{T\[(\w+)\]", texts))
    listed = {name for text in catalogue.catalogue().texts for name in text.thresholds}
    assert read <= set(THRESHOLDS) and listed <= set(THRESHOLDS)
    # stream_not_settled_upper names notebook 09's class 'not settled', which no finding quotes (the notebook
    # applies it itself; test_the_tables_verdicts_were_written_with_the_files_thresholds checks its table)
    assert set(THRESHOLDS) - {"stream_not_settled_upper"} <= read | listed, set(THRESHOLDS) - read - listed


def test_a_finding_must_list_the_thresholds_its_rule_reads():
    from ndcg_research.findings import Measured, threshold
    from ndcg_research.findings.catalogue import Claim, Text

    def peeks(results):
        return Measured("holds" if threshold("strong_tau") < 1 else "does not hold", {})

    text = Text(
        "k", "query_sets", "07_query_sets.ipynb", "T", "S", "C", "M", "R", "s", "D", (), ("t.csv",), thresholds=()
    )
    with pytest.raises(ValueError, match=r"finding 'k' uses thresholds its text does not list .*\['strong_tau'\]"):
        Claim(text, peeks)(None)
    listed = Text(
        "k",
        "query_sets",
        "07_query_sets.ipynb",
        "T",
        "S",
        "C",
        "M",
        "R {T[tie_share]:.0%}",
        "s",
        "D",
        (),
        ("t.csv",),
        thresholds=("strong_tau", "tie_share"),
    )
    finding = Claim(listed, peeks)(None)
    assert finding.verdict == "holds" and finding.rule == "R 1%" and finding.thresholds == ("strong_tau", "tie_share")


def test_the_page_says_when_each_threshold_was_fixed_from_the_file():
    from ndcg_research.findings.render import render_page

    THRESHOLDS = catalogue.catalogue().thresholds
    findings = collect(Results(ROOT / "results" / "full"))
    page = render_page(findings)
    for f in findings:
        section = page.split(f"## {f.title}\n")[1].split("\n## ")[0]
        line = next(x for x in section.splitlines() if x.startswith("- **Thresholds**"))
        for name in f.thresholds:
            entry = THRESHOLDS[name]
            assert f"`{name}` = " in line, (f.key, name)
            if entry.fixed != "before the runs":
                assert entry.fixed_note in line, (f.key, name)
        if any(THRESHOLDS[n].fixed == "after seeing data" for n in f.thresholds):
            assert "set after seeing data: " in line, f.key


def test_the_tables_verdicts_were_written_with_the_files_thresholds():
    # Cut-off cells (studies.cutoff.experiment.verdict_table) and stream cases (notebook 09) carry their verdicts in
    # the committed tables; with the thresholds of the files they must come out the same.
    import numpy as np

    from ndcg_research.findings import threshold
    from ndcg_research.studies.convergence import report as convergence
    from ndcg_research.studies.cutoff import experiment as cutoff

    assert (cutoff.KEEPS_AT_LEAST, cutoff.LOSES_AT_MOST, convergence.AGREEMENT_Z) == (
        threshold("cutoff_keeps_lower"),
        threshold("cutoff_loses_upper"),
        threshold("agreement_z"),
    )
    results = Results(ROOT / "results" / "full")
    cells = results.table("05_cutoff_verdicts.csv")
    expected = np.where(
        cells["family_low"] >= 0.9, "keeps", np.where(cells["family_high"] <= 0.6, "loses", "undecided")
    )
    assert (cells["verdict"] == expected).all() and set(expected) == {"keeps", "loses", "undecided"}
    streams = results.table("09_stream_changes.csv")
    expected = np.where(
        streams["p_settled_low"] >= threshold("stream_settled_lower"),
        "settled",
        np.where(streams["p_settled_high"] <= threshold("stream_not_settled_upper"), "not settled", "partly settled"),
    )
    assert (streams["verdict"] == expected).all()
    assert (streams["n0"] <= threshold("stream_settle_from") * streams["n_last"]).all()


def test_the_chance_count_of_the_theory_finding_is_the_normal_tail():
    # 1,200 cells judged at 3 standard errors: 1200 * 2 * (1 - Phi(3)) = 3.24 outside by chance alone.
    finding = claim("finite-n-theory")(Results(ROOT / "results" / "full"))
    assert finding.numbers["cells"] == 1200
    assert finding.numbers["chance"] == pytest.approx(1200 * 0.0026997960632601866, rel=1e-12)
    assert "about 3.2 cells outside" in finding.measurement


# --------------------------------------------------------------------------- verdicts no stronger than the evidence


def test_a_limit_claim_that_holds_at_finite_n_reads_consistent_with(tmp_path):
    from ndcg_research.findings import VERDICTS
    from ndcg_research.findings.catalogue import make_finding

    assert "consistent with" in VERDICTS
    (text,) = _texts(tmp_path, FULL_ENTRY + "limit = true\n")
    finding = make_finding(text, "holds", {"rows": "r"}, {})
    assert finding.verdict == "consistent with" and finding.rule.startswith("R The claim is about n -> infinity")
    assert make_finding(text, "does not hold", {"rows": "r"}, {}).verdict == "does not hold"
    with pytest.raises(ValueError, match="'holds with qualification' is for finite claims"):
        make_finding(text, "holds with qualification", {"rows": "r"}, {})


def test_a_limit_claim_carried_by_a_derivation_can_hold(tmp_path):
    from ndcg_research.findings.catalogue import make_finding

    (text,) = _texts(tmp_path, FULL_ENTRY + 'limit = true\nderivation = "(a)"\n')
    finding = make_finding(text, "holds", {"rows": "r"}, {})
    # the finding is written with the package's page: derivation (a) of the Theory page
    assert finding.verdict == "holds" and "derivation (a) of the Theory page" in finding.derivation
    assert make_finding(text, "consistent with", {"rows": "r"}, {}).verdict == "consistent with"
    for name in ("finite", "unknown"):
        (tmp_path / name).mkdir()
    with pytest.raises(ValueError, match="carries only a claim about n -> infinity"):
        _texts(tmp_path / "finite", FULL_ENTRY + 'derivation = "(a)"\n')
    with pytest.raises(ValueError, match="must be one of page.toml's"):
        _texts(tmp_path / "unknown", FULL_ENTRY + 'limit = true\nderivation = "(z)"\n')


def test_a_finite_claim_never_reads_consistent_with(tmp_path):
    from ndcg_research.findings.catalogue import make_finding

    (text,) = _texts(tmp_path, FULL_ENTRY)
    assert make_finding(text, "holds with qualification", {"rows": "r"}, {}).verdict == "holds with qualification"
    with pytest.raises(ValueError, match="'consistent with' is for claims about n -> infinity"):
        make_finding(text, "consistent with", {"rows": "r"}, {})


def test_the_one_rule_on_every_finding():
    # On the committed tables: no limit claim reads 'holds with qualification', no finite claim 'consistent with',
    # and a limit claim reads 'holds' only with a derivation that carries it.
    for f in collect(Results(ROOT / "results" / "full")):
        if f.limit:
            assert f.verdict != "holds with qualification", f.key
            assert f.verdict != "holds" or f.derivation, f.key
        else:
            assert f.verdict != "consistent with" and not f.derivation, f.key


def test_one_finding_answers_a5():
    # Notebooks 04 and 11 used to give opposite verdicts on A5: one finding owns it now, the others cite it.
    owners = [text.key for text in catalogue.catalogue().texts if "A5" in text.abstract]
    assert owners == ["critical-point"]
    cited = claim("critical-point-bracketed")(Results(ROOT / "results" / "full"))
    assert "A5" in cited.source and "notebook 04" in cited.source and cited.attribution == ""


@pytest.mark.parametrize("extra, source", [("", "{wang}"), ('abstract = ["A1"]\nadded = "x"\n', "{package}")])
def test_a_wang_claim_says_what_of_the_abstract_it_tests_and_only_it(tmp_path, extra, source):
    entry = FULL_ENTRY.replace('source = "{package}"', f'source = "{source}"') + extra
    with pytest.raises(ValueError, match="says which items of their abstract it tests"):
        _texts(tmp_path, entry)


def test_every_wang_finding_quotes_the_abstract_items_it_tests():
    for f in collect(Results(ROOT / "results" / "full")):
        if "Wang et al." in f.source:
            assert f.attribution.startswith("A") and "Added by this package: " in f.attribution, f.key
            assert '"' in f.attribution or "paraphrase" in f.attribution, f.key
        else:
            assert f.attribution == "", f.key


def _growth(exponents_log2):
    import pandas as pd

    rows = [
        dict(
            discount=d,
            better="a",
            worse="b",
            n_from=1600,
            n_to=12800,
            points=4,
            exponent=(lo + hi) / 2,
            exponent_low=lo,
            exponent_high=hi,
            positive=True,
            vanishes_superpolynomially=lo > 0,
            label="x",
        )
        for d, (lo, hi) in [("power(beta=2)", (-0.3, -0.1))] + [("log2", e) for e in exponents_log2]
    ]
    return pd.DataFrame(rows)


@pytest.mark.parametrize(
    "exponents, verdict",
    [
        ([(0.5, 0.6), (0.4, 0.7)], "holds"),  # d grows: the premise of derivation (b)'s rate, which carries it
        ([(0.5, 0.6), (-0.1, 0.2)], "undecided"),
        ([(0.5, 0.6), (-0.3, -0.1)], "does not hold"),
    ],
)
def test_reading_a_holds_only_by_derivation_b(tmp_path, exponents, verdict):
    write_table(_growth(exponents), tmp_path / "09_growth.csv")
    for label in ("uncertain", "certain"):
        write_table(
            [dict(discount="log2", n=n, p_fail=0.0, replicates=100) for n in (100, 12800)],
            tmp_path / f"09_failure_{label}.csv",
        )
    finding = claim("failure-probability")(Results(tmp_path))
    assert finding.verdict == verdict and finding.limit and "derivation (b)" in finding.derivation
    assert "faster than 1/r in 0 of 1" in finding.summary and "fitted to 4 list lengths" in finding.summary


def _streams(settled_low, ahead):
    """Notebook 09's stream table for log2: the Wilson lower bound of the share settled, the share ahead at the end."""
    return [
        dict(
            discount="log2",
            label=f"m{i}",
            better="a",
            worse="b",
            streams=500,
            n_first=100,
            n_last=51200,
            n0=4525,
            p_settled=low,
            p_settled_low=low,
            p_better_last=share,
            change_median=100.0,
            change_q90=200.0,
        )
        for i, (low, share) in enumerate(zip(settled_low, ahead, strict=True))
    ]


@pytest.mark.parametrize(
    "settled_low, ahead, verdict",
    [
        ([0.99, 0.8], [1.0, 1.0], "consistent with"),  # ahead at the end everywhere, one case settled
        ([0.8, 0.8], [1.0, 1.0], "undecided"),  # none settled within the horizon: not evidence against
        ([0.99, 0.99], [1.0, 0.4], "undecided"),  # worse ranker ahead at the end: still not a refutation
    ],
)
def test_reading_b_is_never_more_than_consistent_with_nor_refuted_by_a_horizon(tmp_path, settled_low, ahead, verdict):
    write_table(_streams(settled_low, ahead), tmp_path / "09_stream_changes.csv")
    assert claim("eventual-order")(Results(tmp_path)).verdict == verdict


def test_chance_cells_are_the_cells_against_the_theorys_sign():
    import pandas as pd

    from ndcg_research.studies.distinguishability.findings import chance_cells

    keys = dict(model="m", better="a", worse="b", n=10)
    pairs = pd.DataFrame(
        [
            dict(keys, discount=d, p_better=p, p_better_low=lo, p_better_high=hi, p_worse=w)
            for d, p, lo, hi, w in [
                ("d1", 0.32, 0.21, 0.46, 0.68),  # below 1/2, worse ahead: flagged
                ("d2", 0.32, 0.21, 0.46, 0.68),  # ... but the theory's gap is 0
                ("d3", 0.0, 0.0, 0.07, 0.0),  # all ties: not the worse ahead
                ("d4", 0.6, 0.45, 0.73, 0.4),
            ]
        ]
    )  # interval reaches 1/2
    gaps = pd.DataFrame(
        [dict(keys, discount=d, finite_n_gap=g) for d, g in [("d1", 0.005), ("d2", 0.0), ("d3", 1e-5), ("d4", 0.01)]]
    )
    flagged, could = chance_cells(pairs, gaps)
    assert flagged["discount"].tolist() == ["d1"] and could == 4


def test_chance_cells_by_hand():
    from ndcg_research.studies.distinguishability.findings import chance_cells

    keys = dict(model="m", discount="zipf", better="a", worse="b")
    pairs = pd.DataFrame(
        [
            dict(keys, n=10, p_better=0.32, p_worse=0.68, p_better_low=0.21, p_better_high=0.46),  # flagged
            dict(keys, n=20, p_better=0.32, p_worse=0.68, p_better_low=0.21, p_better_high=0.46),  # theory agrees
            dict(keys, n=30, p_better=0.45, p_worse=0.55, p_better_low=0.31, p_better_high=0.60),  # reaches 1/2
            dict(keys, n=40, p_better=0.90, p_worse=0.10, p_better_low=0.80, p_better_high=0.95),
        ]
    )
    gaps = pd.DataFrame([dict(keys, n=n, finite_n_gap=g) for n, g in ((10, 0.1), (20, -0.1), (30, 0.1), (40, 0.1))])
    against, could = chance_cells(pairs, gaps)
    assert against["n"].tolist() == [10] and could == 3


def test_the_critical_point_counts_its_cells_as_the_tables_show_them():
    # The summary said "0 cells flagged as a coin flip" where 15 close-pair cells' intervals reach below 1/2: it
    # counted only the cells against the theory. Both counts, from the tables read here with pandas.
    import pandas as pd

    full, keys = ROOT / "results" / "full", ["discount", "better", "worse", "n"]
    cells = pd.concat(
        pd.read_csv(full / f"04_pairs_{label}.csv").merge(
            pd.read_csv(full / f"04_gaps_vs_theory_{label}.csv")[[*keys, "finite_n_gap"]], on=keys
        )
        for label in ("certain", "uncertain", "graded")
    )
    close = cells[(cells["n"] == cells["n"].max()) & ~cells["worse"].isin(["coarse(bins=4)", "random"])]
    not_above = int((close["p_better_low"] < 0.5).sum())
    against = close[
        (close["p_better_high"] < 0.5) & (close["p_worse"] > close["p_better"]) & (close["finite_n_gap"] > 0)
    ]
    assert not_above == 15 and len(against) == 0  # (those of the committed tables)
    finding = claim("critical-point")(Results(full))
    assert f"; {not_above} close-pair cells with P(correct) not shown above 1/2, 0 with the worse" in finding.summary
    assert f"{not_above} close-pair cells have a 95% interval of P(correct) reaching below 1/2" in finding.measurement
    assert "although the finite-n theory's expected gap is positive: none;" in finding.measurement


def test_every_table_a_rule_reads_is_linked_as_evidence():
    for c in claims():
        results = Results(ROOT / "results" / "full")
        c(results)
        read = {name for name in results._cache if name.endswith(".csv")}
        assert read <= set(c.text.tables), (c.key, read - set(c.text.tables))


# --------------------------------------------------------------------------- the thresholds' files


def test_every_threshold_is_a_number_with_a_rule_and_a_known_fixing_time():
    thresholds = catalogue.catalogue().thresholds
    assert thresholds
    for name, entry in thresholds.items():
        names = isinstance(entry.value, tuple) and entry.value and all(isinstance(v, str) for v in entry.value)
        assert (isinstance(entry.value, (int, float)) or names) and entry.rule, name
        assert entry.fixed in catalogue.FIXED_WHEN, name
        assert entry.fixed_note or entry.fixed == "before the runs", name


def test_threshold_reads_the_files_values():
    # Independent of the loader: read the files with tomllib directly.
    import tomllib

    from ndcg_research.findings import threshold

    package = ROOT / "ndcg_research"
    raw = tomllib.loads((package / "findings" / "thresholds.toml").read_text())
    raw.pop("confirmatory")  # the record of the confirmatory run, not a threshold
    for path in (package / "studies").glob("*/findings.toml"):
        raw |= tomllib.loads(path.read_text()).get("thresholds", {})
    as_read = {name: tuple(e["value"]) if isinstance(e["value"], list) else e["value"] for name, e in raw.items()}
    assert (
        {name: threshold(name) for name in raw}
        == as_read
        == {name: t.value for name, t in catalogue.catalogue().thresholds.items()}
    )


def test_an_unknown_threshold_lists_the_known_ones():
    from ndcg_research.findings import threshold

    with pytest.raises(ValueError, match="no threshold named 'nope'; known: .*wilson_sure_lower"):
        threshold("nope")


@pytest.mark.parametrize(
    "text, message",
    [
        ('[a]\nvalue = "x"\nfixed = "before the runs"\n', "entry 'a' needs a numeric 'value'"),
        ('[a]\nvalue = 1\nfixed = "later"\n', "'fixed' must be one of"),
        ('[a]\nvalue = 1\nfixed = "after seeing data"\n', "say which in 'fixed_note'"),
        ('[a]\nvalue = 1\nfixed = "with the first run"\n', "say which in 'fixed_note'"),
        (
            '[a]\nvalue = ["x", 2]\nfixed = "before the runs"\n',
            "entry 'a' needs a numeric 'value' \\(or a list of names\\)",
        ),
        ('[a]\nvalue = 1\nfixed = "before the runs"\ncolour = 2\n', "no other keys"),
    ],
)
def test_a_malformed_threshold_is_refused_by_name(tmp_path, text, message):
    with pytest.raises(ValueError, match=message):
        _texts(tmp_path, FULL_ENTRY, shared=text)


# ------------------------------------------------------------ examples of findings.catalogue


def test_catalogue_example():
    text = catalogue.catalogue().texts[0]
    expected = ("worked-example", "worked_example", "01_worked_example.ipynb", ("worked_example_decimals",))
    assert (text.key, text.study, text.notebook, text.thresholds) == expected


def test_fill_example():
    assert fill("{n} of {total}", {"n": 3, "total": 4}, "example") == "3 of 4"
    with pytest.raises(ValueError, match="example:\\ no\\ value\\ for\\ the\\ placeholder\\ \\{m\\}"):
        fill("{m}", {}, "example")


def test_make_finding_example():
    text = catalogue.catalogue().texts[0]
    f = make_finding(text, "holds", {"values": "CG 11", "agree": "1 of 1", "inflated": "0.961"}, {})
    expected = (
        "CG, DCG, ideal DCG and nDCG@6 agree with the article in 1 of 1 cases; built from the returned "
        "list alone, the ideal would give nDCG@6 = 0.961",
        "holds",
    )
    assert (f.summary, f.verdict) == expected


def test_claims_example():
    expected = "(Claim('worked-example'), True)"
    assert repr((claims()[0], len({claim.key for claim in claims()}) == len(claims()))) == expected


def test_collect_example():
    import tempfile

    with pytest.raises(Exception, match="table\\ '01_worked_example\\.csv'\\ is\\ not\\ in"):
        collect(Results(tempfile.mkdtemp()))


def test_answer_example():
    full = STUDIES.parents[1] / "results" / "full"
    table = answer("01_worked_example.ipynb", full).table
    columns = ["Verdict", "Rule fixed", "What the tables show"]
    assert (table.columns.tolist(), table["Verdict"].tolist()) == (columns, ["holds"])


def test_every_notebook_answers_in_two_to_four_sentences_with_numbers_from_its_tables():
    import re

    full = STUDIES.parents[1] / "results" / "full"
    for notebook in sorted({text.notebook for text in catalogue.catalogue().texts}):
        found = answer(notebook, full)
        sentences = found.text.split("\n\n")[0].removeprefix("**Answer.** ")
        assert sentences != found.text and 2 <= len(re.findall(r"[.!?](?:\s|$)", sentences)) <= 5, notebook
        # every verdict word of the notebook's findings is in its sentences, in words
        words = catalogue.catalogue().page["verdict_words"]
        for verdict in found.table["Verdict"]:
            assert words[verdict] in sentences, (notebook, verdict)
    # the sentences' numbers are the tables': another folder gives other numbers, never the committed ones
    assert "Not available here" in answer("01_worked_example.ipynb", STUDIES).text


def test_the_answer_of_a_run_is_filled_from_that_run(tmp_path):
    from ndcg_research.simulation.tables import write_table

    committed = Results(ROOT / "results" / "full").table("01_worked_example.csv")
    changed = committed.assign(measured=committed["measured"].where(committed["quantity"] != "nDCG", 0.7))
    write_table(changed, tmp_path / "01_worked_example.csv")
    own, full = answer("01_worked_example.ipynb", tmp_path), answer("01_worked_example.ipynb", ROOT / "results/full")
    assert own.table["Verdict"].tolist() == ["does not hold"] and own.text != full.text


# ------------------------------------------------------------ examples of findings.model


def test_Results_example():
    import pathlib
    import tempfile

    from ndcg_research.simulation.tables import write_table

    folder = pathlib.Path(tempfile.mkdtemp())
    _ = write_table([{"label": "007", "mean": 0.5}], folder / "t.csv")
    table = Results(folder).table("t.csv")
    assert (table["label"].tolist(), table["mean"].tolist()) == (["007"], [0.5])
    with pytest.raises(Exception, match="'t\\.csv'\\ is\\ not\\ a\\ table\\ of\\ notebook\\ 04"):
        Results(folder, prefix="04_").table("t.csv")


def test_number_example():
    expected = ("0.123", "0", "n/a", "1.2e+06")
    assert (number(0.12345), number(-0.0), number(float("nan")), number(1234567.0, 2)) == expected


def test_proportion_example():
    expected = ("0.73 [0.71, 0.76]", "all 50 (>= 0.926)", "none of 1000 (<= 0.0038)")
    assert (
        proportion(0.734, 0.71, 0.76),
        proportion(1.0, 0.9261, 1.0, 50),
        proportion(0.0, 0.0, 0.0038, 1000),
    ) == expected
    assert proportion(0.997, 0.991, 0.999) == "0.997 [0.991, 0.999]"


def test_span_example():
    assert (span([0.12, 0.3, 0.25]), span([2.0, 2.0])) == ("0.12 to 0.3", "2")


def test_cases_example():
    assert cases(3, 4) == "3 of 4"


# ------------------------------------------------------------ examples of findings.render


def test_thresholds_line_example():
    assert str(thresholds_line(["first_order_factor"])) == "set before the runs: `first_order_factor` = 1.2."
    assert thresholds_line([]) == "none (the rule compares measured numbers with each other or with 0)"


def test_anchor_example():
    expected = "slower-discounts-same-limit-order-kept-log2-vs-loglog"
    assert anchor("Slower discounts: same limit, order kept (log2 vs loglog)") == expected


def test_render_page_example():
    f = Finding("k", "T", "C.", "S", "M.", "m", "holds", "Cond.", ("01_fig",), ("01_t.csv",))
    page = render_page([f]).splitlines()
    # the page opens with its title (the note that it is generated is a comment), the finding's heading follows
    assert page[0].startswith("<!-- Generated by") and page[2] == "# Findings" and "## T" in page


def test_the_site_links_a_figure_to_its_entry():
    from ndcg_research.findings.render import for_site

    line = "- **Evidence**: figure [04_p](figures/04_p.png), table [04_t.csv](results/full/04_t.csv)"
    assert for_site(line) == (
        "- **Evidence**: figure [04_p](docs/generated/figures.md#04_p), table [04_t.csv](results/full/04_t.csv)"
    )


def test_splice_readme_example():
    assert splice_readme(f"a\n{README_START}\nold\n{README_END}\nb", "NEW") == "a\nNEW\nb"


def test_an_unknown_finding_is_refused_naming_it():
    # A bare StopIteration came out of claim() for a key no study defines.
    with pytest.raises(KeyError, match=r"no finding 'no-such-finding'; known: .*movielens-drift-together"):
        claim("no-such-finding")


def test_size_writes_large_counts_as_a_reader_reads_them():
    assert [size(v) for v in (100, 51200, 10_000_000, 2873584)] == ["100", "51,200", "10^7", "2,873,584"]


def test_limit_verdict_examples():
    assert (limit_verdict("holds", limit=False), limit_verdict("holds", limit=True)) == ("holds", "consistent with")
    assert limit_verdict("holds", limit=True, derivation="(b)") == "holds"
    assert limit_verdict("does not hold", limit=True) == "does not hold"


@pytest.mark.parametrize("lose", ["column", "row"])
def test_a_table_without_a_column_or_row_a_finding_reads_is_a_one_line_error(tmp_path, capsys, lose):
    import json

    folder = tmp_path / "full"
    shutil.copytree(ROOT / "results" / "full", folder)
    table = folder / "01_worked_example.csv"
    lines = table.read_text().splitlines(keepends=True)
    if lose == "column":  # the table and its dtypes file agree: it reads, without the article's values
        table.write_text("".join(line.rsplit(",", 1)[0] + "\n" for line in lines))
        dtypes = folder / "01_worked_example.csv.dtypes.json"
        dtypes.write_text(json.dumps({k: v for k, v in json.loads(dtypes.read_text()).items() if k != "article"}))
    else:
        table.write_text("".join(line for line in lines if "returned list only" not in line))
    _signed(table)
    assert main(["findings", "--json", "--results", str(folder)]) == 1  # it was a KeyError traceback
    err = capsys.readouterr().err
    assert err.startswith(
        "ndcg-research findings: error: finding 'worked-example' (studies/worked_example/findings.py)"
    )
    missing = "'article'" if lose == "column" else "returned list only"
    assert str(folder) in err and missing in err and err.count("\n") == 1


@pytest.mark.parametrize("name", ["03_agreement.csv", "04_pairs_certain.csv", "02_top_share.csv"])
def test_a_table_without_rows_is_a_one_line_error(tmp_path, capsys, name):
    # emptied (its header kept), 03_agreement gave a ValueError traceback; 04_pairs_certain and 02_top_share changed
    # findings silently (numbers under the wrong labels, a verdict from nothing)
    folder = tmp_path / "full"
    shutil.copytree(ROOT / "results" / "full", folder)
    table = folder / name
    table.write_text(table.read_text().splitlines(keepends=True)[0])
    _signed(table)
    assert main(["findings", "--json", "--results", str(folder)]) == 1
    err = capsys.readouterr().err
    assert (
        err
        == f"ndcg-research findings: error: table {name!r} in {str(folder)!r} has no rows; re-run the full profile\n"
    )


def _replace_first_n(path: Path) -> None:
    """03_agreement.csv with its first row's n (an int64 column) beyond int64."""
    header, first, *rest = path.read_text().splitlines(keepends=True)
    cells = first.split(",")
    cells[header.split(",").index("n")] = "99999999999999999999999"
    path.write_text("".join([header, ",".join(cells), *rest]))


@pytest.mark.parametrize(
    ("name", "damage"),
    [
        ("03_agreement.csv.dtypes.json", '["a"]'),  # an AttributeError traceback
        ("03_agreement.csv.dtypes.json", '{"label": "foo"}'),  # TypeError: data type 'foo' not understood
        ("03_agreement.csv.dtypes.json", '{"label": 5}'),
        ("03_agreement.csv", _replace_first_n),  # OverflowError
        ("08_movielens.json", "[1, 2]"),  # TypeError: list indices must be integers
        ("08_movielens.json", '{"parameters": 5}'),  # TypeError: 'int' object is not subscriptable
        ("08_movielens.json", '{"verdicts": {}}'),
    ],
)
def test_a_malformed_table_or_record_does_not_read_naming_its_file(tmp_path, capsys, name, damage):
    folder = tmp_path / "full"
    shutil.copytree(ROOT / "results" / "full", folder)
    if callable(damage):
        damage(folder / name)
    else:
        (folder / name).write_text(damage)
    assert main(["findings", "--json", "--results", str(folder)]) == 1
    err = capsys.readouterr().err
    file = name.removesuffix(".dtypes.json")
    kind = "record" if name.endswith(".json") and file == name else "table"
    assert err.startswith(f"ndcg-research findings: error: {kind} {file!r} in {str(folder)!r} does not read: ")
    assert str(folder / name) in err or kind == "record"
    assert err.count("\n") == 1


@pytest.mark.parametrize("option", ["--root", "--results"])
def test_an_empty_folder_option_is_refused(capsys, option):
    # --results "" read the committed results/full; --root "" the checkout (and without --check wrote there)
    with pytest.raises(SystemExit) as exit_info:
        main(["findings", "--json", option, ""])
    assert exit_info.value.code == 2
    assert capsys.readouterr().err.endswith(
        f"ndcg-research findings: error: argument {option}: must name a file or folder, got ''\n"
    )


def test_check_without_the_notebooks_extra_names_it(monkeypatch, capsys):
    # The confirmatory check reads the profiles' seeds with yaml: without it, a ModuleNotFoundError traceback
    import sys

    monkeypatch.setitem(sys.modules, "yaml", None)  # import yaml now raises ModuleNotFoundError, as uninstalled
    assert main(["findings", "--check"]) == 1
    assert capsys.readouterr().err == (
        "ndcg-research findings: error: needs yaml, of the notebooks extra: pip install '.[notebooks]' in the "
        "package's folder\n"
    )


@pytest.mark.parametrize("change", ["cut", "doubled", "edited", "unsigned"])
def test_a_table_changed_since_the_run_wrote_it_is_refused(tmp_path, capsys, change):
    # 03_agreement.csv cut to one row flipped finite-n-theory to 'holds' ('1 of 1 cells'); doubled, every count doubled
    folder = tmp_path / "full"
    shutil.copytree(ROOT / "results" / "full", folder)
    table = folder / "03_agreement.csv"
    header, first, second, *rest = table.read_text().splitlines(keepends=True)
    edits = {
        "cut": header + first,
        "doubled": "".join([header, first, second, *rest, first, second, *rest]),
        "edited": "".join([header, first.replace("True", "False"), second, *rest]),
        "unsigned": table.read_text(),
    }
    table.write_text(edits[change])
    if change == "unsigned":
        (folder / "03_agreement.csv.sha256").unlink()
    assert main(["findings", "--json", "--results", str(folder)]) == 1
    err = capsys.readouterr().err
    why = "03_agreement.csv.sha256 is missing" if change == "unsigned" else "is not the table write_table wrote"
    assert err.startswith(f"ndcg-research findings: error: table '03_agreement.csv' in {str(folder)!r} does not read")
    assert why in err and err.count("\n") == 1
