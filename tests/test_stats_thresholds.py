"""The verdict rules' thresholds file: parsed and checked, and a wrong entry refused with its name."""

from pathlib import Path

import pytest

from ndcg_research.stats import thresholds


def test_every_threshold_is_a_number_with_a_rule_and_a_known_fixing_time():
    assert thresholds.THRESHOLDS, "thresholds.toml is empty"
    for name, entry in thresholds.THRESHOLDS.items():
        names = isinstance(entry.value, tuple) and entry.value and all(isinstance(v, str) for v in entry.value)
        assert (isinstance(entry.value, (int, float)) or names) and entry.rule, name
        assert entry.fixed in thresholds.FIXED_WHEN, name
        assert entry.fixed_note or entry.fixed == "before the runs", name


def test_threshold_reads_the_file_value(tmp_path):
    # Independent of the loader: read the file with tomllib directly.
    import tomllib
    raw = tomllib.loads(Path(thresholds.__file__).with_name("thresholds.toml").read_text())
    as_read = {name: tuple(e["value"]) if isinstance(e["value"], list) else e["value"] for name, e in raw.items()}
    assert {name: thresholds.threshold(name) for name in raw} == as_read


def test_unknown_name_lists_the_known_ones():
    with pytest.raises(KeyError, match="no threshold named 'nope'; known: .*wilson_sure_lower"):
        thresholds.threshold("nope")


@pytest.mark.parametrize("text, message", [
    ('[a]\nvalue = "x"\nfixed = "before the runs"\n', "entry 'a' needs a numeric 'value'"),
    ('[a]\nvalue = 1\nfixed = "later"\n', "'fixed' must be one of"),
    ('[a]\nvalue = 1\nfixed = "after seeing data"\n', "say which in 'fixed_note'"),
    ('[a]\nvalue = 1\nfixed = "with the first run"\n', "say which in 'fixed_note'"),
    ('[a]\nvalue = ["x", 2]\nfixed = "before the runs"\n', "entry 'a' needs a numeric 'value' \\(or a list of names\\)"),
    ('[a]\nvalue = 1\nfixed = "before the runs"\ncolour = 2\n', "no other keys"),
])
def test_a_malformed_entry_is_refused_by_name(tmp_path, text, message):
    path = tmp_path / "thresholds.toml"
    path.write_text(text)
    with pytest.raises(ValueError, match=message):
        thresholds._load(path)
