"""The README's Python examples are run as they stand (doctest)."""

from __future__ import annotations

import doctest

import pytest
from conftest import ROOT


def test_readme_python_examples_run(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)  # the examples name files by their path in the repository
    result = doctest.testfile(str(ROOT / "README.md"), module_relative=False,
                              optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.attempted >= 15
    assert result.failed == 0
