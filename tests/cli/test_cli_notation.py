"""--notation and notation= (issue 33, item 6): one choice of cell names for board, play and
diagram, on the command line and in the API; the text `play` prints shows coordinates, for
every game on a hex board; an off-board name is refused with the board's range."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import Run, one_line_error

import boardgen

RunCli = Callable[..., Run]
HEX_GAMES = {"copolymer": ("3", "C3"), "o": ("4", "D4"), "free": ("3", "C3")}

CORNER = """\
game: free
title: The a1 corner
notation: a1
board: rhombus 6
stone: black a1 f6
panel: White answers
stone: white c3
mark: b2 ring
"""


@pytest.mark.parametrize("game", sorted(HEX_GAMES))
def test_play_text_shows_row_and_line_labels_for_every_hex_game(game: str,
                                                                run_cli: RunCli) -> None:
    side, move = HEX_GAMES[game]
    result = run_cli("play", game, "--side", side, "--moves", move)
    assert result.code == 0, result.err
    lines = result.out.splitlines()
    assert re.fullmatch(rf" +{' '.join(map(str, range(1, int(side) + 1)))}", lines[0]), lines[0]
    # ... and the diagonals that start on the upper right edge, each at its row's end.
    assert [line.split()[-1] for line in lines[1:int(side)]] == \
        [str(n) for n in range(int(side) + 1, 2 * int(side))]
    board = [line for line in lines[1:] if re.match(r"[A-Z] ", line)]
    letters = [line[0] for line in board]
    assert letters[:5] == list("ABCDE") and "I" not in letters


def test_play_free_in_a1_on_a_rhombus(run_cli: RunCli) -> None:
    result = run_cli("play", "free", "--shape", "rhombus", "--side", "6",
                          "--notation", "a1", "--moves", "a1 f6 c3")
    assert result.code == 0, result.err
    lines = result.out.splitlines()
    assert lines[0] == "   a b c d e f"
    assert lines[1] == "1  x . . . . ." and lines[3] == "3    . . x . . ."
    assert lines[6] == "6       . . . . . o"


@pytest.mark.parametrize(("args", "said"), [
    (["play", "free", "--shape", "rhombus", "--side", "6", "--moves", "F12"],
     "'F12' is not on the board (rhombus 6x6: rows A-F, diagonals 1-11; row F runs F6-F11)"),
    (["play", "free", "--shape", "rhombus", "--side", "6", "--notation", "a1", "--moves", "g1"],
     "'g1' is not on the board (rhombus 6x6: columns a-f, rows 1-6; row 1 runs a1-f1)"),
    (["play", "o", "--side", "4", "--moves", "H1"],
     "'H1' is not on the board (hexhex side 4: rows A-G, diagonals 1-7)"),
    (["play", "polygone", "--notation", "a1"], "--notation does not apply to Polygone"),
    (["diagram", "copolymer", "tempo", "--notation", "a1"],
     "the built-in diagrams are written in the server notation"),
])
def test_bad_names_and_misplaced_notations_are_one_line_errors(args: list[str], said: str,
                                                                run_cli: RunCli) -> None:
    one_line_error(run_cli(*args), said)


def test_an_off_board_mark_in_a_diagram_file_names_the_range(tmp_path: Path,
                                                             run_cli: RunCli) -> None:
    path = tmp_path / "corner.txt"
    path.write_text(CORNER + "mark: g2 dot\n")
    one_line_error(run_cli("diagram", str(path), "-o", str(tmp_path / "c.svg")),
                   f"{path}:9: 'g2' is not on the board (rhombus 6x6: columns a-f, rows 1-6; "
                   "row 2 runs a2-f2)")
    assert not (tmp_path / "c.svg").exists()


def test_a_diagram_file_says_its_notation_and_the_picture_labels_in_it(
        tmp_path: Path, run_cli: RunCli) -> None:
    path = tmp_path / "corner.txt"
    path.write_text(CORNER)
    out = tmp_path / "corner.svg"
    result = run_cli("diagram", str(path), "-o", str(out))
    assert result.code == 0, result.err
    svg = out.read_text()
    assert 'data-cell="f6"' in svg and 'data-cell="F11"' not in svg
    labels = re.findall(r'class="coordinate" aria-label="(\w+)"', svg)
    assert set(labels) == set("abcdef123456")
    # Without its 'notation:' line, the file is read in the notation given beside it...
    path.write_text(CORNER.replace("notation: a1\n", "").replace("c3", "f2"))
    assert run_cli("diagram", str(path), "--notation", "a1", "-o",
                   str(out)).code == 0
    # ... and in the server's by default, where f2 is no cell of row F (F6-F11).
    one_line_error(run_cli("diagram", str(path), "-o", str(out)),
                   "'f2' is not on the board (rhombus 6x6: rows A-F, diagonals 1-11; row F "
                   "runs F6-F11)")
    path.write_text(CORNER)
    one_line_error(run_cli("diagram", str(path), "--notation", "server", "-o",
                           str(out)),
                   ":3: the file says 'notation: a1', but --notation server was given")


def test_a_board_is_labelled_in_the_notation_chosen(tmp_path: Path, run_cli: RunCli) -> None:
    out = tmp_path / "board.svg"
    result = run_cli("board", "copolymer", "--shape", "rhombus", "--side", "5",
                          "--notation", "a1", "-o", str(out))
    assert result.code == 0, result.err
    svg = out.read_text()
    assert re.findall(r'class="coordinate" aria-label="(\w+)"', svg) == [
        *"12345", *"abcde"]
    assert 'data-cell="e5"' in svg


def test_play_prints_a_position_that_start_reads_back(tmp_path: Path,
                                                      run_cli: RunCli) -> None:
    first = run_cli("play", "copolymer", "--side", "3", "--moves",
                         "C3 B2 C2 D3 B3")
    start = tmp_path / "start.txt"
    start.write_text("\n".join(first.out.splitlines()[:-1]) + "\n")
    again = run_cli("play", "copolymer", "--side", "3", "--start", str(start))
    assert again.code == 0, again.err
    # The same board, the last turn's capitals (which --start does not keep) in lower case.
    board = first.out.splitlines()[:-1]
    assert again.out.splitlines()[:-1] == [board[0], *(line[:3] + line[3:].lower()
                                                      for line in board[1:])]


def test_the_api_takes_the_same_notation() -> None:
    position = boardgen.play("free", "a1 f6", shape="rhombus", side=6, notation="a1")
    assert position.to_json()["stones"] == {"a1": "black", "f6": "white"}
    game = boardgen.engine("copolymer", shape="rhombus", side=5, notation="a1")
    game.play("c3")
    assert "c3" in game.position.to_json()["cells"]
    svg = boardgen.board("free", "svg", shape="rhombus", side=3, notation="a1")
    assert 'data-cell="c3"' in svg
    with pytest.raises(boardgen.BoardgenError, match="notation: unknown notation 'hex'"):
        boardgen.play("free", "", notation="hex")  # type: ignore[arg-type]


def test_load_diagram_takes_a_notation_for_a_file_that_names_none(tmp_path: Path) -> None:
    path = tmp_path / "corner.txt"
    path.write_text(CORNER.replace("notation: a1\n", "").replace("c3", "f2"))
    assert boardgen.load_diagram(path, notation="a1").title == "The a1 corner"
    with pytest.raises(boardgen.BoardgenError, match="'f2' is not on the board"):
        boardgen.load_diagram(path)


@pytest.mark.parametrize(("args", "said"), [
    (["play", "free", "--shape", "rhombus", "--side", "6", "--notation", "a1", "--moves",
      "a01"], "'a01' is not a cell name (no leading zero: write a1)"),
    (["play", "o", "--side", "4", "--moves", "D04"],
     "'D04' is not a cell name (no leading zero: write D4)"),
    (["play", "copolymer", "--side", "3", "--moves", "C003"],
     "'C003' is not a cell name (no leading zero: write C3)"),
    (["play", "free", "--side", "3", "--notation", "a1", "--moves", "c00"],
     "'c00' is not a cell name (no leading zero)"),
])
def test_a_cell_name_has_one_spelling(args: list[str], said: str, run_cli: RunCli) -> None:
    """A name with a leading zero would be a second spelling of a cell: refused, in both
    notations, with the name meant."""
    one_line_error(run_cli(*args), said)


@pytest.mark.parametrize("key", ["notation", "title", "game"])
@pytest.mark.parametrize("game", ["free", "copolymer", "o"])
def test_a_heading_line_inside_a_panel_says_where_it_belongs(tmp_path: Path, run_cli: RunCli,
                                                             key: str, game: str) -> None:
    """'notation:' (and the other lines before the first panel) inside a panel: the error
    says it belongs before the first panel, not that other games take it."""
    path = tmp_path / "late.txt"
    board = "hexhex 4" if game != "free" else "rhombus 6"
    path.write_text(f"game: {game}\nboard: {board}\npanel: one\n{key}: a1\n")
    line = one_line_error(run_cli("diagram", str(path), "-o", str(tmp_path / "l.svg")),
                          f"{path}:4: '{key}:' belongs before the first panel")
    assert "is for" not in line
    assert not (tmp_path / "l.svg").exists()
