"""The README is a first screen that leads into the docs site, and the site's Python
examples are run as they stand (doctest), here as by the docs build (issue 38)."""

from __future__ import annotations

import doctest
import re
import shlex
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import ROOT, Run

DOCS = ROOT / "docs"
PAGES_WITH_EXAMPLES = sorted(p for p in DOCS.rglob("*.md")
                             if "_build" not in p.parts and ">>> " in p.read_text("utf-8"))


def test_the_readme_is_a_first_screen() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 250
    for marker in ("main", "test", "docs"):  # .ci/run runs each marked command
        assert f"<!-- ci:{marker} -->\n```sh\n" in text, marker
    assert "![" in text  # a picture


def test_every_link_of_the_readme_into_the_docs_leads_to_a_page() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    links = re.findall(r"\]\((docs/[^)#]+)", text)
    assert len(links) >= 8, links
    for link in links:
        assert (ROOT / link).is_file(), link


def test_the_docs_python_examples_are_found() -> None:
    names = {p.relative_to(DOCS).as_posix() for p in PAGES_WITH_EXAMPLES}
    assert "tutorials/scripting.md" in names, names


@pytest.mark.parametrize("page", PAGES_WITH_EXAMPLES, ids=lambda p: p.relative_to(DOCS).as_posix())
def test_docs_python_examples_run(page: Path, monkeypatch: pytest.MonkeyPatch,
                                  tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)  # a reader's own folder, no source tree: the examples need none
    result = doctest.testfile(str(page), module_relative=False,
                              optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.attempted >= 1
    assert result.failed == 0


def test_the_readme_python_examples_run(monkeypatch: pytest.MonkeyPatch,
                                        tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)
    result = doctest.testfile(str(ROOT / "README.md"), module_relative=False,
                              optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.attempted >= 8
    assert result.failed == 0


def test_the_readme_tour_runs(run_cli: Callable[..., Run], in_tmp: Path) -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    tour = text[text.index("## A five-command tour"):]
    tour = tour[:tour.index("\n```\n", tour.index("```sh"))]
    commands = [shlex.split(line, comments=True) for line in tour.splitlines()
                if line.startswith("boardgen ")]
    assert len(commands) == 5
    for words in commands:
        result = run_cli(*words[1:])
        assert result.code == 0, (words, result.err)
