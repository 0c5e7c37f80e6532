"""The Python examples in README.md run and print what they claim."""

from __future__ import annotations

import doctest
import warnings
from pathlib import Path

README = Path(__file__).resolve().parent.parent / "README.md"


def test_readme_examples():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        result = doctest.testfile(str(README), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.attempted >= 10
    assert result.failed == 0
