"""A game declares its default board (shape and side) and its presets, and every road
that makes one of its boards makes it through the game's own check: the requests of the
command line and the API, and the sheet, kit and gallery (Game.hex_board)."""

from __future__ import annotations

from pathlib import Path

import pytest

from boardgen.errors import BoardgenError
from boardgen.games.protocol import Game, HexBoards, PlayOptions, Position
from boardgen.geometry import HexGrid
from boardgen.picture import Diagram
from boardgen.requests import BoardSize, board_size, resolve_grid


def rhombus_only(grid: HexGrid) -> None:
    if grid.shape != "rhombus":
        raise BoardgenError(f"this game is played on a rhombus, not a {grid.shape}")


class RhombusGame(Game):
    """A game of rhombus boards only, with presets of its own."""

    key = "rhombic"
    name = "Rhombic"
    designer = "a test"
    year = 2026
    board = HexBoards(7, rhombus_only, {"tiny": 3, "big": 13}, default_shape="rhombus",
                      presets_help="three and thirteen across")

    def new_position(self, options: PlayOptions) -> Position:
        raise NotImplementedError

    def load_file(self, path: Path, glyphs: dict[str, str] | None) -> Diagram:
        raise NotImplementedError


GAME = RhombusGame()


def test_the_default_board_is_the_games_shape_and_side() -> None:
    grid = resolve_grid(GAME, BoardSize())
    assert (grid.shape, grid.side, len(grid)) == ("rhombus", 7, 49)
    assert GAME.hex_board().shape == "rhombus" and len(GAME.hex_board(4)) == 16


def test_a_side_or_a_preset_is_of_the_games_shape() -> None:
    assert len(resolve_grid(GAME, board_size(side=5))) == 25
    assert len(resolve_grid(GAME, board_size(preset="tiny"))) == 9
    assert len(resolve_grid(GAME, board_size(preset="big", shape="rhombus"))) == 169


def test_every_road_runs_the_games_check() -> None:
    with pytest.raises(BoardgenError, match="played on a rhombus, not a hexhex"):
        resolve_grid(GAME, board_size(side=5, shape="hexhex"))
    with pytest.raises(BoardgenError, match="played on a rhombus, not a triangle"):
        GAME.hex_board(5, "triangle")
    with pytest.raises(BoardgenError, match="describes a rhombus board, not a triangle"):
        resolve_grid(GAME, board_size(preset="tiny", shape="triangle"))


def test_the_help_words_come_from_the_declaration() -> None:
    boards = GAME.hex_boards
    assert boards is not None
    assert boards.words() == "rhombus 7 (49 cells)"
    with pytest.raises(ValueError, match="default_shape"):
        HexBoards(5, default_shape="square")


def test_the_command_lines_help_names_each_games_presets_and_default() -> None:
    from click.testing import CliRunner

    from boardgen.cli import cli

    text = " ".join(CliRunner().invoke(cli, ["board", "--help"]).output.split()).replace("- ", "-")
    assert "Copolymer: small, medium, large (sides 5, 7, 10: the play-by-email server's " \
        "9x9, 13x13 and 19x19)" in text
    assert "Copolymer 10 (271 cells)" in text
