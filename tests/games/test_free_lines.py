"""A free diagram's incomplete lines are refused at FILE:LINE (a ``stone:`` without cells
or colour, a ``remove:`` without cells), and a ``game:`` line names its game in any case
(``game: O``, ``game: Free``), in a file, in text given to the API, and in the templates'
folder where the game is known from the folder."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import Run, one_line_error

import boardgen
from boardgen.errors import BoardgenError
from boardgen.games.registry import diagram_file_game

RunCli = Callable[..., Run]

HEAD = "game: free\nboard: hexhex 3\n"


@pytest.mark.parametrize(("body", "line", "words"), [
    ("stone: black\npanel: a\n", 3, "stone needs 'COLOUR CELLS'"),  # the start, no cells
    ("stone: black   \npanel: a\n", 3, "stone needs 'COLOUR CELLS'"),
    ("stone:\npanel: a\n", 3, "stone needs 'COLOUR CELLS'"),
    ("stone: C3\npanel: a\n", 3, "stone needs 'COLOUR CELLS'"),  # no colour
    ("panel: a\nstone: white\n", 4, "stone needs 'COLOUR CELLS'"),  # in a panel
    ("panel: a\nstone: green C3\n", 4, "stone needs 'COLOUR CELLS'"),
    ("stone: black C3\npanel: a\nremove:\n", 5, "remove needs the CELLS"),
    ("stone: black C3\npanel: a\nremove:   \n", 5, "remove needs the CELLS"),
    # A stone onto a stone: refused, naming the spelling that says to replace it.
    ("stone: black C3\npanel: a\nstone: white C3\n", 5,
     "C3 holds a black stone already: to put a white stone in its place, write "
     "'replace: white C3'"),
    ("panel: a\nstone: red A1 A1\n", 4, "A1 holds a red stone already"),
    ("stone: black C3\nstone: white C3\npanel: a\n", 4,
     "C3 holds a black stone already: the start position takes one stone a cell"),
    # 'replace:' says a stone is there: an empty cell is refused too.
    ("panel: a\nreplace: white C3\n", 4,
     "C3 holds no stone to replace: write 'stone: white C3'"),
    ("replace: white C3\npanel: a\n", 3, "'replace:' must come after a 'panel:' line"),
])
def test_a_bad_stone_replace_or_remove_line_is_refused_at_its_line(
        body: str, line: int, words: str, run_cli: RunCli, in_tmp: Path) -> None:
    path = in_tmp / "incomplete.txt"
    path.write_text(HEAD + body, encoding="utf-8")
    with pytest.raises(BoardgenError) as refused:
        boardgen.load_diagram(path)
    assert str(refused.value).startswith(f"{path}:{line}: {words}"), str(refused.value)
    with pytest.raises(BoardgenError) as from_text:
        boardgen.parse_diagram(HEAD + body)
    assert str(from_text.value).startswith(f"line {line}: {words}"), str(from_text.value)
    one_line_error(run_cli("diagram", "incomplete.txt", "-o", "d.svg"),
                   f"incomplete.txt:{line}: {words}")
    assert not (in_tmp / "d.svg").exists()


def test_replace_puts_another_stone_in_a_stones_place() -> None:
    diagram = boardgen.parse_diagram(HEAD + "stone: black C3\npanel: a\nreplace: white C3\n"
                                            "panel: b\nremove: C3\nstone: red C3\n")
    first, second = (panel for _, row in diagram.rows for panel in row)
    roles = [{m.role for m in panel.markers if m.kind == "dot"} for panel in (first, second)]
    assert roles == [{"stone-white"}, {"stone-red"}]


def test_complete_lines_are_drawn() -> None:
    diagram = boardgen.parse_diagram(HEAD + "stone: black C3 B2\npanel: a\nstone: red A1\n"
                                            "panel: b\nremove: C3\n")
    assert sum(len(row) for row in diagram.rows) == 2


@pytest.mark.parametrize("written", ["O", "o", " O ", "Free", "FREE", "Polygone", "COPOLYMER"])
def test_a_game_line_names_its_game_in_any_case(written: str, tmp_path: Path) -> None:
    key = written.strip().lower()
    bodies = {"o": "board: hexhex 4\npanel: empty\n",
              "free": "board: hexhex 3\npanel: empty\n",
              "polygone": "panel: empty\n",
              "copolymer": "board: hexhex 3\npanel: empty\n"}
    text = f"game: {written}\ntitle: cased\n{bodies[key]}"
    path = tmp_path / "cased.txt"
    path.write_text(text, encoding="utf-8")
    from_file = boardgen.load_diagram(path)
    from_text = boardgen.parse_diagram(text)
    as_written = boardgen.parse_diagram(f"game: {key}\ntitle: cased\n{bodies[key]}")
    # The same game's diagram: its roles are the game's own.
    assert from_file.roles == from_text.roles == as_written.roles
    assert len(from_file.rows) == len(from_text.rows) == len(as_written.rows) == 1
    assert diagram_file_game(path).key == key


def test_a_panels_notes_are_joined_by_one_space_under_its_label() -> None:
    from boardgen.games.free.directives import load_free_example

    example = load_free_example(Path("d.txt"), text=HEAD + "panel: First\nnote: one\n"
                                                           "note: two\n")
    (panel,) = example.lines[0].panels
    assert panel.caption.endswith("one two") and "First" in panel.caption


def test_a_free_diagram_keys_its_four_colours() -> None:
    diagram = boardgen.parse_diagram(HEAD + "panel: a\n")
    assert [role.name for role in diagram.roles] == [
        "stone-black", "stone-white", "stone-red", "stone-blue", "tint"]


def test_free_play_as_text_json_and_numbers() -> None:
    from boardgen.games.free.engine import FreeBoard, FreeReason, text_position
    from boardgen.games.free.picture import board_picture
    from boardgen.geometry import hexhex

    board = FreeBoard(hexhex(3))
    name = board.notation.parse
    board.put(name("A1"), "red")
    board.put(name("B2"), "blue")
    board.put(name("E5"), "white")
    board.place(name("C3"))  # black: the replay's first stone
    assert text_position(board) == ["  r . .", " . b . .", ". . x . .", " . . . .", "  . . o",
                                    "White to place; 4 stones."]
    scene = board_picture(board, since=0)
    assert scene.cell_texts == {name("C3"): "1"}  # the replay's stone, numbered
    position = boardgen.play("free", "C3 B2 A1", side=3)
    assert position.to_json() == {"side": 3, "to_move": "white", "over": False,
                                  "winner": None, "stones": {"A1": "black", "B2": "white",
                                                             "C3": "black"}}
    refused = board.refusal(name("A1"), "green", replay=False)
    assert refused is not None and refused.code == FreeReason.COLOUR
    from boardgen.errors import IllegalMove
    from boardgen.geometry import Hex

    with pytest.raises(IllegalMove) as off:
        board.put(Hex(9, 9), "red")
    assert off.value.subject == str(Hex(9, 9))
    assert off.value.code == FreeReason.OFF_BOARD


def test_a_full_free_board_says_so() -> None:
    from boardgen.games.free.engine import FreeBoard, position_json, text_position
    from boardgen.geometry import hexhex

    board = FreeBoard(hexhex(2))
    for cell in board.grid.cells:
        board.place(cell)
    assert text_position(board)[-1] == "The board is full."
    shown = position_json(board)
    assert (shown["over"], shown["to_move"], len(shown["stones"])) == (True, None, 7)  # type: ignore[arg-type]
