"""The rules-free board: stones of four colours on any hex board, placed and removed
anywhere.  Nothing is refused but a cell off the board or a colour it does not know.

Replayed as a game (``boardgen play free``), moves are cells, stones alternate black and
white, and the game is over when the board is full: a way to draw any sequence of
placements at exact scale.  Imports geometry only.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from boardgen.errors import IllegalMove, Refusal
from boardgen.geometry import Hex, HexGrid, Notation, format_hex_text, framed_text
from boardgen.geometry.notation import drawn_on_grid
from boardgen.i18n import N_, tr

NAME = "Free"
COLOURS = ("black", "white", "red", "blue")
PLAYERS = ("black", "white")  # who places in a replay, in turn
DEFAULT_SIDE = 5


class FreeReason(StrEnum):
    """Why the free board refuses a stone (the message for people is kept apart)."""

    OFF_BOARD = "off-board"
    TAKEN = "taken"  # in a replay only: a diagram file may put a stone over another
    COLOUR = "colour"


@dataclass(frozen=True)
class Placed:
    cell: Hex
    colour: str


class FreeBoard:
    """Stones by cell on a hex grid; ``history`` the replay's placements, in order."""

    def __init__(self, grid: HexGrid) -> None:
        self.grid = grid
        self.notation = Notation(grid)
        self.stones: dict[Hex, str] = {}
        self.history: list[Placed] = []
        self.first = PLAYERS[0]  # who places first in the replay (a set-up may say)

    # The replay's turn: black, then white, one stone each (from ``first``).
    @property
    def to_move(self) -> str:
        return PLAYERS[(len(self.history) + PLAYERS.index(self.first)) % 2]

    @property
    def over(self) -> bool:
        return len(self.stones) == len(self.grid)

    @property
    def winner(self) -> str | None:
        return None  # no rules, no winner

    def put(self, cell: Hex, colour: str) -> None:
        """A stone of ``colour`` on ``cell``, over whatever was there (a diagram's
        directive: no rule forbids it)."""
        refusal = self.refusal(cell, colour, replay=False)
        if refusal is not None:
            raise IllegalMove(str(cell), refusal)
        self.stones[cell] = colour

    def remove(self, cell: Hex) -> None:
        self.stones.pop(cell, None)

    def refusal(self, cell: Hex, colour: str, *, replay: bool = True) -> Refusal | None:
        if cell not in self.grid.index:
            return Refusal(FreeReason.OFF_BOARD, tr("not on the board ({board})").format(
                board=self.grid.description))
        if colour not in COLOURS:
            return Refusal(FreeReason.COLOUR, f"unknown colour {colour!r} (colours: "
                                              f"{', '.join(COLOURS)})")
        if replay and cell in self.stones:
            return Refusal(FreeReason.TAKEN, tr("there is a {colour} stone there").format(
                colour=tr(self.stones[cell])))
        return None

    def place(self, cell: Hex) -> Placed:
        """The replay's next stone (black, then white ...) on an empty cell."""
        refusal = self.refusal(cell, self.to_move)
        if refusal is not None:
            shown = self.notation.name(cell) if cell in self.grid.index else str(cell)
            raise IllegalMove(shown, refusal)
        placed = Placed(cell, self.to_move)
        self.stones[cell] = placed.colour
        self.history.append(placed)
        return placed

    def empty_cells(self) -> list[Hex]:
        return [h for h in self.grid.cells if h not in self.stones]


def position_json(board: FreeBoard) -> dict[str, object]:
    """The ``boardgen play free --json`` object."""
    name = board.notation.name
    grid = board.grid
    return {"side": grid.side if grid.shape == "hexhex" else None,
            "to_move": None if board.over else board.to_move,
            "stones": {name(h): c for h, c in sorted(board.stones.items(),
                                                     key=lambda item: grid.index[item[0]])},
            "over": board.over, "winner": None}


# The colours' words, for the catalog (tr(colour) where a message names one).
COLOUR_WORDS = (N_("black"), N_("white"), N_("red"), N_("blue"))


STONE_CHARS = {"black": "x", "white": "o", "red": "r", "blue": "b"}  # as text draws them


def drawn_stones(grid: HexGrid, text: str, source: str) -> dict[Hex, str]:
    """The stones of a board drawn as ``boardgen play free`` prints it (``.`` empty, x
    black, o white, r red, b blue), every cell shown; errors name ``source``."""
    colours = {char: colour for colour, char in STONE_CHARS.items()}
    drawn = drawn_on_grid(grid, text, source, frozenset(".") | frozenset(colours))
    return {h: colours[ch] for h, ch in drawn.items() if ch != "."}


def text_position(board: FreeBoard, *, coordinates: bool = False) -> list[str]:
    """The board as text: '.' empty, x black, o white, r red, b blue.
    With ``coordinates``, each row's label on its left and each line's beyond its top
    end, as ``boardgen play`` prints it."""
    chars = {h: STONE_CHARS[c] for h, c in board.stones.items()}
    count = len(board.stones)
    status = "The board is full." if board.over else \
        f"{board.to_move.capitalize()} to place; {count} stone{'s' * (count != 1)}."
    return [*(framed_text if coordinates else format_hex_text)(board.grid, chars), status]
