"""Naive engines, written straight from the rules in shared/spec and nothing else.

They are the floor the benchmarks measure boardgen's engines against, and the oracles the
tests check them with.  So they share no code and no constants with ``boardgen.rules``:
a board is only a collection of cells with axial coordinates ``q`` and ``r`` (any
hashable objects with those attributes); neighbours, thresholds, the glyph rule, the
perimeter and the corners are all worked out here again, the slow and obvious way.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from functools import cached_property
from typing import Any

# The six axial neighbour offsets (Red Blob Games' layout), clockwise from east on a
# pointy-top page with rows going down.
AXIAL_STEPS = ((1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1))


class Board:
    """A set of cells and who is next to whom, from coordinates alone."""

    def __init__(self, cells: Iterable[Any]) -> None:
        self.cells: list[Any] = list(cells)
        self._at = {(c.q, c.r): c for c in self.cells}

    def ring(self, cell: Any) -> list[Any | None]:
        """The six positions around a cell, clockwise from east; ``None`` off the board."""
        return [self._at.get((cell.q + dq, cell.r + dr)) for dq, dr in AXIAL_STEPS]

    def neighbours(self, cell: Any) -> list[Any]:
        return [n for n in self.ring(cell) if n is not None]

    @cached_property
    def perimeter(self) -> frozenset[Any]:
        return frozenset(c for c in self.cells if len(self.neighbours(c)) < 6)

    @cached_property
    def corners(self) -> frozenset[Any]:
        return frozenset(c for c in self.cells if len(self.neighbours(c)) == 3)


# --- Copolymer (shared/spec/copolymer.md) -------------------------------------------------


class NaiveCopolymer:
    """Recounts enemy neighbours on every query.  A placement touching two or more of the
    opponent's cells is a connection and the same player goes on; the board full ends it."""

    ENEMIES_FOR_A_CONNECTION = 2

    def __init__(self, grid: Any, first: str = "x") -> None:
        self.board = Board(grid.cells)
        self.owner: dict[Hashable, str] = {}
        self.to_move = first
        self.turn_continues = False

    @staticmethod
    def other(player: str) -> str:
        return {"x": "o", "o": "x"}[player]

    def enemy_neighbours(self, cell: Any, player: str) -> int:
        enemy = self.other(player)
        return sum(1 for n in self.board.neighbours(cell) if self.owner.get(n) == enemy)

    def connections(self) -> list[Any]:
        return [h for h in self.board.cells if h not in self.owner
                and self.enemy_neighbours(h, self.to_move) >= self.ENEMIES_FOR_A_CONNECTION]

    def empty_cells(self) -> list[Any]:
        return [h for h in self.board.cells if h not in self.owner]

    @property
    def over(self) -> bool:
        return len(self.owner) == len(self.board.cells)

    def place(self, cell: Any) -> bool:
        if cell in self.owner or self.over:
            raise ValueError(f"{cell}: not empty")
        connection = self.enemy_neighbours(cell, self.to_move) >= self.ENEMIES_FOR_A_CONNECTION
        self.owner[cell] = self.to_move
        self.turn_continues = connection and not self.over
        if not connection and not self.over:
            self.to_move = self.other(self.to_move)
        return connection

    @property
    def winner(self) -> str | None:
        if not self.over:
            return None
        xs = sum(1 for p in self.owner.values() if p == "x")
        return "x" if 2 * xs > len(self.board.cells) else "o"


# --- O (shared/spec/o.md) ---------------------------------------------------------------


def single_run_of_two_to_five(ring: list[bool]) -> bool:
    """The reconstructed chart's one illegal case: the stones around the cell form one
    unbroken run of two to five (the ring wraps round)."""
    stones = sum(ring)
    if not 2 <= stones <= 5:
        return False
    starts = sum(1 for k in range(6) if ring[k] and not ring[k - 1])
    return starts == 1


def naive_o_legal(board: Board, stones: set[Any], cell: Any) -> bool:
    """Impartial O with the spec's chart: the cell is empty, its ring is not a single run
    of two to five stones (off the board counts as empty), and afterwards no corner stone
    touches a stone off the perimeter."""
    if cell in stones:
        return False
    if single_run_of_two_to_five([n in stones for n in board.ring(cell)]):
        return False
    after = stones | {cell}
    for corner in board.corners & after:
        if any(n in after and n not in board.perimeter for n in board.neighbours(corner)):
            return False
    return True


def naive_o_reachable_counts(grid: Any, stones: int) -> list[int]:
    """How many distinct sets of stones impartial O reaches with 1..``stones`` stones.
    Valid while no loop can form: a loop needs at least six stones round an empty cell."""
    board = Board(grid.cells)
    frontier: set[frozenset[Any]] = {frozenset()}
    counts = []
    for _ in range(stones):
        frontier = {position | {cell} for position in frontier for cell in board.cells
                    if naive_o_legal(board, set(position), cell)}
        counts.append(len(frontier))
    return counts


# --- Polygone moves (shared/spec/polygone.md) ---------------------------------------------

# Holes (row c, level h): rows of 4-5-6-5-4 holes along a board 10 half-edges long.
POLYGONE_HOLES = frozenset(
    [(0, h) for h in range(0, 11, 2)] + [(c, h) for c in (-1, 1) for h in range(1, 10, 2)]
    + [(c, h) for c in (-2, 2) for h in range(2, 9, 2)])
# The six neighbour steps (dc, dh) in turning order round a hole (60 degrees apart when
# drawn with x = h/2, y = c * sqrt(3)/2).
TURNING_ORDER = ((0, 2), (1, 1), (1, -1), (0, -2), (-1, -1), (-1, 1))


def naive_polygone_moves(pieces: dict[frozenset[tuple[int, int]], str], colour: str
                         ) -> set[tuple[tuple[int, int], tuple[int, int], tuple[int, int]]]:
    """Every (moving end, pivot, target) of ``colour``: the target line exists and is
    empty, one way round the pivot passes no piece, and the end does not go backwards
    (White's levels may not fall, Black's may not rise)."""
    def exists(a: tuple[int, int], b: tuple[int, int]) -> bool:
        return a in POLYGONE_HOLES and b in POLYGONE_HOLES

    moves = set()
    for piece, owner in pieces.items():
        if owner != colour:
            continue
        for pivot in piece:
            (moving,) = piece - {pivot}
            start = TURNING_ORDER.index((moving[0] - pivot[0], moving[1] - pivot[1]))
            for k, (dc, dh) in enumerate(TURNING_ORDER):
                target = (pivot[0] + dc, pivot[1] + dh)
                if k == start or not exists(pivot, target) or \
                        frozenset((pivot, target)) in pieces:
                    continue
                if (target[1] < moving[1]) if colour == "white" else (target[1] > moving[1]):
                    continue
                for sense in (1, -1):
                    between = [(start + sense * m) % 6 for m in range(1, 6)]
                    between = between[:between.index(k)]
                    steps = [TURNING_ORDER[j] for j in between]
                    if not any(frozenset((pivot, (pivot[0] + sc, pivot[1] + sh))) in pieces
                               for sc, sh in steps):
                        moves.add((moving, pivot, target))
                        break
    return moves
