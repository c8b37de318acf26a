"""The rules of Hex, and nothing else: no drawing, no files.

Two players, Red and Blue, own two opposite edges each of an N x N rhombus of hexagons:
Red the top and bottom rows, Blue the left and right columns (a corner cell touches one
edge of each).  Red moves first; the players take turns to put one stone of their colour
on an empty cell.  Whoever joins their two edges with an unbroken chain of their stones
wins; the board cannot fill up without one chain being made, so there is no draw.

The swap rule (an option): Blue's first move may be ``swap`` instead of a stone.  Red's
one stone is then taken off and a Blue stone put on its mirror image across the long
diagonal, and Red moves again: so Red's first stone is best neither too strong nor too weak.
"""

from __future__ import annotations

import random
from collections import deque
from dataclasses import dataclass, field
from enum import StrEnum

from boardgen.errors import BoardgenError, IllegalMove, Refusal
from boardgen.geometry import Hex, HexGrid, Notation

PLAYERS = ("red", "blue")
SWAP = "swap"
MIN_SIDE, MAX_SIDE = 2, 26
STEPS = (Hex(1, 0), Hex(-1, 0), Hex(0, 1), Hex(0, -1), Hex(1, -1), Hex(-1, 1))


class HexReason(StrEnum):
    """Why Hex refuses a move (the words for people are kept apart, in Refusal)."""

    OFF_BOARD = "off-board"
    GAME_OVER = "game-over"
    TAKEN = "taken"
    NO_SWAP = "no-swap"


def check_board(grid: HexGrid) -> None:
    """Hex is played on an N x N rhombus: two pairs of opposite edges of equal length."""
    if grid.shape != "rhombus":
        raise BoardgenError(f"Hex is played on an N x N rhombus (--shape rhombus), not on "
                            f"{grid.description}")
    if grid.side is None or not MIN_SIDE <= grid.side <= MAX_SIDE:
        raise BoardgenError(f"Hex boards are {MIN_SIDE} to {MAX_SIDE} cells a side, not "
                            f"{grid.side}")


def side_of(grid: HexGrid) -> int:
    """The side of a checked board."""
    check_board(grid)
    assert grid.side is not None
    return grid.side


def edges(side: int) -> dict[str, tuple[set[Hex], set[Hex]]]:
    """Each player's two edges: Red's the top and bottom rows, Blue's the left and right
    columns (cells are (q, r), q across from 0, r down from 0)."""
    last = side - 1
    return {"red": ({Hex(q, 0) for q in range(side)}, {Hex(q, last) for q in range(side)}),
            "blue": ({Hex(0, r) for r in range(side)}, {Hex(last, r) for r in range(side)})}


@dataclass
class HexEngine:
    """A game in progress on ``grid`` (a rhombus); Red moves first.  ``swap``: the swap
    rule is on."""

    grid: HexGrid
    swap_rule: bool = False
    stones: dict[Hex, str] = field(default_factory=dict)
    history: list[Hex | str] = field(default_factory=list)  # cells, and SWAP
    to_move: str = "red"
    winner: str | None = None
    chain: tuple[Hex, ...] = ()  # the winning chain, once made

    def __post_init__(self) -> None:
        check_board(self.grid)
        self.notation = Notation(self.grid)
        self._edges = edges(side_of(self.grid))

    @property
    def over(self) -> bool:
        return self.winner is not None

    def may_swap(self) -> bool:
        return self.swap_rule and len(self.history) == 1 and not self.over

    def refusal(self, cell: Hex) -> Refusal | None:
        """None if the player to move may put a stone on ``cell``, else why not."""
        if cell not in self.grid:
            return Refusal(HexReason.OFF_BOARD, f"not on the board ({self.grid.description})")
        if self.over:
            return Refusal(HexReason.GAME_OVER, "the game is over")
        if cell in self.stones:
            return Refusal(HexReason.TAKEN, f"{self.stones[cell].capitalize()} is there "
                           "already")
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
        self.chain = self._chain(player)
        if self.chain:
            self.winner = player
        self.to_move = "blue" if player == "red" else "red"

    def swap(self) -> None:
        """Blue's first move under the swap rule: Red's stone becomes Blue's, mirrored."""
        if not self.may_swap():
            why = "the swap rule is off" if not self.swap_rule else \
                "only Blue's first move may be a swap"
            raise IllegalMove(SWAP, Refusal(HexReason.NO_SWAP, why))
        (cell,) = self.stones
        del self.stones[cell]
        self.stones[Hex(cell.r, cell.q)] = "blue"
        self.history.append(SWAP)
        self.to_move = "red"

    def _chain(self, player: str) -> tuple[Hex, ...]:
        """A shortest chain of ``player``'s stones joining their two edges, or ()."""
        start, goal = self._edges[player]
        came: dict[Hex, Hex | None] = {h: None for h in start if self.stones.get(h) == player}
        queue = deque(came)
        while queue:
            cell = queue.popleft()
            if cell in goal:
                path = []
                at: Hex | None = cell
                while at is not None:
                    path.append(at)
                    at = came[at]
                return tuple(path)
            for step in STEPS:
                nxt = cell + step
                if nxt not in came and self.stones.get(nxt) == player:
                    came[nxt] = cell
                    queue.append(nxt)
        return ()

    def random_legal(self, rng: random.Random) -> Hex:
        return rng.choice(self.legal())
