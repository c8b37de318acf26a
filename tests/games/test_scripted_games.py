"""The built-in games read their diagram files through one base class (ScriptedGame):
load_file, load_text, diagram_directives and annotated are written once; a diagram file
is read once, its game line and its replay from one reading."""

from __future__ import annotations

import inspect

import pytest
from conftest import TESTS

from boardgen.games import script
from boardgen.games.registry import BUILT_IN, load_diagram_file
from boardgen.games.scripted import ScriptedGame


def test_no_built_in_game_writes_the_four_methods_again() -> None:
    for game in BUILT_IN:
        assert isinstance(game, ScriptedGame), game.key
        for method in ("load_file", "load_text", "diagram_directives", "annotated"):
            owner = next(k for k in type(game).__mro__ if method in vars(k))
            assert owner is ScriptedGame, f"{game.key} writes {method} again"


def test_every_built_in_game_lists_its_directives_and_reads_text() -> None:
    for game in BUILT_IN:
        assert {"game", "panel", "expect"} <= game.diagram_directives()
    diagram = BUILT_IN[1].load_text("game: o\nboard: hexhex 4\npanel: one\nplace: D4\n", {})
    assert len(diagram.rows[0][1]) == 1


@pytest.mark.parametrize("name", ["o-where.txt", "copolymer-annotated.txt"])
def test_a_diagram_file_is_read_once(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    reads: list[str] = []
    original = script.read_input_text

    def counted(path: object, what: str) -> str:
        reads.append(str(path))
        return original(path, what)  # type: ignore[arg-type]

    monkeypatch.setattr(script, "read_input_text", counted)
    path = TESTS / "diagram_files" / name
    load_diagram_file(path)
    assert reads.count(str(path)) == 1


def test_the_judges_of_legal_and_illegal_are_written_once() -> None:
    from boardgen.games.copolymer import directives as copolymer
    from boardgen.games.o import directives as o

    for module in (copolymer, o):
        assert not any(name in vars(module) for name in ("judge_legal", "judge_illegal"))
        judges = module.HIGHLIGHT_JUDGES
        assert inspect.getmodule(judges["legal"]) is script
