"""The docs site's shape (issue 38): every section of the README as it was before the site
has a page, every command and every public API name has its page, every page is in a
table of contents, and nothing the wheel ships sends the reader to "the README"."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from conftest import ROOT, Run

import boardgen
from boardgen.cli import cli

DOCS = ROOT / "docs"
RunCli = Callable[..., Run]

# Each heading of the README before the docs site (at commit a8fb60a, 1,116 lines), and
# the page its text moved to.  The old heading is kept as a heading of that page.
MOVED = {
    "Set up": "tutorials/first-board-and-kit.md",
    "Rule sheets and the gallery": "howto/rule-sheets-and-gallery.md",
    "Print and play: kits and the printer check": "howto/kits-and-printer-check.md",
    "Printing a board": "howto/printing-a-board.md",
    "Limits": "reference/limits.md",
    "Replaying a game": "howto/replaying-a-game.md",
    "O": "howto/replaying-a-game.md",
    "Polygone": "howto/replaying-a-game.md",
    "Diagrams: built in, and your own": "howto/diagrams.md",
    "The diagram language": "reference/diagram-language.md",
    "Diagrams of any hex game: `free`": "howto/free-diagrams.md",
    "Live preview": "howto/live-preview.md",
    "Python API": "tutorials/scripting.md",
    "Drawing what the files draw": "tutorials/scripting.md",
    "Playing a game from a program": "tutorials/scripting.md",
    "Layout of the code": "contributing/code-layout.md",
    "Adding a game": "howto/adding-a-game.md",
    "Benchmarks": "contributing/performance.md",
    "Performance (issue 25)": "contributing/performance.md",
    "Work bounds and the endgame search (issue 19)": "contributing/performance.md",
    "What the tests check, and mutation testing": "contributing/tests.md",
    "Credits": "explanation/credits.md",
}
# Parts of old sections that moved on to a page of their own.
SPLIT_OFF = {
    "Tiled boards": "howto/tiles-and-printing.md",  # from "Printing a board"
    "Scale check": "howto/tiles-and-printing.md",  # from "Printing a board"
    "Copolymer": "reference/play-json.md",  # the --json tables from "Replaying a game"
}


def _pages() -> list[str]:
    return sorted(p.relative_to(DOCS).as_posix() for p in DOCS.rglob("*.md")
                  if "_build" not in p.parts)


def _headings(page: str) -> set[str]:
    text = re.sub(r"```.*?```", "", (DOCS / page).read_text(encoding="utf-8"), flags=re.S)
    return {m.group(1).strip() for m in re.finditer(r"^#{1,4} (.+)$", text, re.M)}


@pytest.mark.parametrize(("heading", "page"), [*MOVED.items(), *SPLIT_OFF.items()])
def test_every_old_readme_section_has_its_page(heading: str, page: str) -> None:
    assert heading in _headings(page), (heading, page, sorted(_headings(page)))


def test_every_page_is_in_a_table_of_contents() -> None:
    listed = {"index.md"}
    for page in _pages():
        text = (DOCS / page).read_text(encoding="utf-8")
        folder = page.rpartition("/")[0]
        for block in re.findall(r"```\{toctree\}\n(.*?)```", text, re.S):
            for line in block.splitlines():
                if line.strip() and not line.startswith(":"):
                    listed.add(f"{folder}/{line.strip()}.md".lstrip("/"))
    assert set(_pages()) == listed, set(_pages()) ^ listed


def test_every_command_has_its_page_generated_from_the_command() -> None:
    for name, command in cli.commands.items():
        page = (DOCS / "reference" / "commands" / f"{name}.md").read_text(encoding="utf-8")
        assert f".. click:: boardgen.cli:{command.callback.__name__}" in page, name
        assert f":prog: boardgen {name}" in page, name


def test_every_public_api_name_has_its_page_from_its_docstring() -> None:
    for name in boardgen.__all__:
        page = (DOCS / "reference" / "api" / f"{name}.md").read_text(encoding="utf-8")
        kind = "autoclass" if name[0].isupper() else "autofunction"
        assert f".. {kind}:: boardgen.{name}" in page, name
        assert getattr(boardgen, name).__doc__, name  # a docstring to generate it from


def test_every_game_has_its_diagram_language_on_the_reference_page() -> None:
    page = (DOCS / "reference" / "diagram-language.md").read_text(encoding="utf-8")
    for game in boardgen.game_names():
        assert f"```{{diagram-syntax}} {game}\n```" in page, game


def test_the_contributors_set_up_as_the_readme_does() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    page = (DOCS / "contributing" / "index.md").read_text(encoding="utf-8")
    for marker in ("main", "test", "docs"):
        command = readme.split(f"<!-- ci:{marker} -->\n```sh\n")[1].split("\n```")[0]
        assert command in page, marker


def test_the_first_tutorial_sets_up_a_user_not_a_developer() -> None:
    tutorial = (DOCS / "tutorials" / "first-board-and-kit.md").read_text(encoding="utf-8")
    setup = tutorial.split("## Set up")[1].split("\n## ")[0]
    assert "pip install ." in setup and ".whl" in setup
    assert not re.search(r"pytest|sphinx|-e |\[test\]|\[docs\]", setup), setup


def test_no_help_text_sends_the_reader_to_the_readme(run_cli: RunCli) -> None:
    for words in ([], *([name] for name in cli.commands)):
        help_text = run_cli(*words, "--help").out
        assert "README" not in help_text, words
    diagram_help = " ".join(run_cli("diagram", "--help").out.split())
    assert '"The diagram language"' in diagram_help


def test_the_language_reference_shows_the_example_files_the_tests_replay() -> None:
    # The page carries the files' text (a reader without a source tree saves it from there);
    # tests/games/test_captions.py and the others replay tests/diagram_files/, so the two
    # must stay the same text.
    page = (DOCS / "reference" / "diagram-language.md").read_text(encoding="utf-8")
    shown = dict(re.findall(r"```\{code-block\} text\n:caption: ([\w.-]+\.txt)\n\n(.*?)\n```",
                            page, re.S))
    assert len(shown) == 3, sorted(shown)
    for name, text in shown.items():
        data = (ROOT / "tests" / "diagram_files" / name).read_text(encoding="utf-8")
        assert text == data.rstrip("\n"), name
