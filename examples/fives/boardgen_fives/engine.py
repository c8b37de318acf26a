"""The rules of Fives, and nothing else: no drawing, no files.

Two players, X and O, take turns to put one stone of their own on any empty cell.  The
first to have five of their stones in an unbroken straight row, along any of the board's
three directions, wins.  If the board fills up first, the game is a draw.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from enum import StrEnum

from boardgen.errors import BoardgenError, IllegalMove, Refusal
from boardgen.geometry import Hex, HexGrid, Notation

ROW = 5  # stones in a row to win
PLAYERS = ("x", "o")
AXES = (Hex(1, 0), Hex(0, 1), Hex(1, -1))  # the three directions a row can run


class FivesReason(StrEnum):
    """Why Fives refuses a stone (the words for people are kept apart, in Refusal)."""

    OFF_BOARD = "off-board"
    GAME_OVER = "game-over"
    TAKEN = "taken"


def check_board(grid: HexGrid) -> None:
    """A board needs room for a row: ROW cells in a straight line somewhere."""
    cells = set(grid.cells)
    for cell in grid.cells:
        for axis in AXES:
            if all(Hex(cell.q + k * axis.q, cell.r + k * axis.r) in cells for k in range(ROW)):
                return
    raise BoardgenError(f"Fives needs a board with {ROW} cells in a row; "
                        f"{grid.description} has none")


@dataclass
class Fives:
    """A game in progress on ``grid``; X moves first."""

    grid: HexGrid
    stones: dict[Hex, str] = field(default_factory=dict)
    history: list[Hex] = field(default_factory=list)
    to_move: str = "x"
    winner: str | None = None
    row: tuple[Hex, ...] = ()  # the winning row, once made

    def __post_init__(self) -> None:
        self.notation = Notation(self.grid)

    @property
    def over(self) -> bool:
        return self.winner is not None or len(self.stones) == len(self.grid)

    def refusal(self, cell: Hex) -> Refusal | None:
        """None if the player to move may put a stone on ``cell``, else why not."""
        if cell not in self.grid:
            return Refusal(FivesReason.OFF_BOARD, f"not on the board ({self.grid.description})")
        if self.over:
            return Refusal(FivesReason.GAME_OVER, "the game is over")
        if cell in self.stones:
            return Refusal(FivesReason.TAKEN, f"{self.stones[cell].upper()} is there already")
        return None

    def legal(self) -> list[Hex]:
        return [] if self.over else [h for h in self.grid.cells if h not in self.stones]

    def place(self, cell: Hex) -> None:
        refusal = self.refusal(cell)
        if refusal is not None:
            raise IllegalMove(self.notation.name(cell) if cell in self.grid else str(cell),
                              refusal)
        player = self.to_move
        self.stones[cell] = player
        self.history.append(cell)
        for axis in AXES:
            row = self._row_through(cell, axis, player)
            if len(row) >= ROW:
                self.winner, self.row = player, tuple(row)
                break
        self.to_move = "o" if player == "x" else "x"

    def _row_through(self, cell: Hex, axis: Hex, player: str) -> list[Hex]:
        back = Hex(-axis.q, -axis.r)
        start = cell
        while self.stones.get(start + back) == player:
            start = start + back
        row = []
        h = start
        while self.stones.get(h) == player:
            row.append(h)
            h = h + axis
        return row

    def random_legal(self, rng: random.Random) -> Hex:
        return rng.choice(self.legal())
