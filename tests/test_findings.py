"""The findings generator: the committed page and README section are up to date; staleness is detected."""

import shutil
from pathlib import Path

import pytest

from ndcg_research.cli import main
from ndcg_research.findings import claims, render
from ndcg_research.findings.model import Finding, MissingTableError, Results
from ndcg_research.studies.tables import write_table

ROOT = Path(__file__).resolve().parents[1]


def test_committed_findings_are_up_to_date(capsys):
    # The README's Findings section and FINDINGS.md must be what the committed tables give.
    assert main(["findings", "--check"]) == 0, capsys.readouterr().err


def _fake_root(tmp_path: Path, value: float) -> Path:
    write_table([{"n": 10, "mean": value}], tmp_path / "results" / "full" / "t.csv")
    shutil.copy(ROOT / "README.md", tmp_path / "README.md")
    return tmp_path


def _finding_from_table(results: Results) -> Finding:
    mean = float(results.table("t.csv")["mean"].iloc[0])
    return Finding("fake", "Fake claim", "x is large.", "a test", f"mean = {mean:.2f}.", f"mean {mean:.2f}",
                   "holds" if mean > 0.5 else "does not hold", "always.", tables=("t.csv",))


def test_check_fails_when_a_table_changes_and_write_fixes_it(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(claims, "FINDINGS", (_finding_from_table,))
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
    assert "| does not hold | mean 0.25 |" in (root / "README.md").read_text()


def test_missing_table_is_a_one_line_error(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(claims, "FINDINGS", (_finding_from_table,))
    shutil.copy(ROOT / "README.md", tmp_path / "README.md")
    assert main(["findings", "--check", "--root", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert err.startswith("error: table 't.csv' is not in") and err.count("\n") == 1
    with pytest.raises(MissingTableError):
        Results(tmp_path).table("t.csv")


def test_unknown_verdict_is_refused():
    with pytest.raises(ValueError, match="verdict of finding 'k' must be one of"):
        Finding("k", "T", "C", "S", "M", "m", "probably", "C")


def test_readme_without_markers_is_an_error():
    with pytest.raises(ValueError, match="README has no findings markers"):
        render.splice_readme("# no markers here\n", "x")


def test_every_finding_links_to_files_that_exist():
    # Each finding names the notebook, figures and tables that carry it; every link of FINDINGS.md must resolve.
    findings = claims.collect(Results(ROOT / "results" / "full"))
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

    for f in claims.collect(Results(ROOT / "results" / "full")):
        for text in (f.measurement, f.summary):
            assert not re.search(r"\bP(?:\(correct\))?\s*=?\s*1(?:\.0+)?(?![\d.])|\b1\.00\b", text), (f.key, text)
