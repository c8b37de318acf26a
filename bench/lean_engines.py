"""Lean engines: what a competent programmer writes in half an hour for random play-outs.

Written from shared/spec/o.md and shared/spec/copolymer.md alone, sharing no code and no
constants with ``boardgen.games`` (as bench/naive_engines.py): a board is only a collection
of cells with axial coordinates ``q`` and ``r``.  Unlike the naive engines they are built
for speed and nothing else: flat lists indexed by cell number, a neighbour table worked out
once per board, legality judged locally (a cell's ring and the corner rule) when a random
cell is drawn, and, in O, a local test of the new stone's ring before one flood fill of the
empty cells from the edge.  They keep no history, give no reasons and cannot undo: they are
the floor that boardgen's engines, which do all of that, are measured against
(bench/bench_engines.py, bench/bench_copolymer.py).  tests/packaging/test_speedups.py checks them move by
move against the naive engines, so the floor plays the real game.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any

# Axial neighbour offsets, clockwise from east on a page whose rows go down.
STEPS = ((1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1))


class LeanBoard:
    """Cell numbers, neighbour tables and the edge, from coordinates, once per board."""

    def __init__(self, cells: Iterable[Any]) -> None:
        self.cells = list(cells)
        at = {(c.q, c.r): i for i, c in enumerate(self.cells)}
        # ring[i]: the six positions round cell i, clockwise from east, -1 off the board.
        self.ring = [[at.get((c.q + dq, c.r + dr), -1) for dq, dr in STEPS]
                     for c in self.cells]
        self.adjacent = [[j for j in ring if j >= 0] for ring in self.ring]
        self.edge = [len(adjacent) < 6 for adjacent in self.adjacent]
        corner = [len(adjacent) == 3 for adjacent in self.adjacent]
        # The corner rule's pairs: a corner and each of its neighbours off the edge.
        self.corner_partners: list[list[int]] = [[] for _ in self.cells]
        for i, is_corner in enumerate(corner):
            if is_corner:
                for j in self.adjacent[i]:
                    if not self.edge[j]:
                        self.corner_partners[i].append(j)
                        self.corner_partners[j].append(i)


_BOARDS: dict[int, tuple[Any, LeanBoard]] = {}


def lean_board(grid: Any) -> LeanBoard:
    """One LeanBoard per grid object (kept alive beside it, so its id is not reused)."""
    found = _BOARDS.get(id(grid))
    if found is None or found[0] is not grid:
        found = _BOARDS[id(grid)] = (grid, LeanBoard(grid.cells))
    return found[1]


def _single_run_of_two_to_five(bits: int) -> bool:
    stones = bin(bits).count("1")
    starts = sum(1 for k in range(6) if bits >> k & 1 and not bits >> ((k - 1) % 6) & 1)
    return 2 <= stones <= 5 and starts == 1


# The spec's glyph chart as a table over the 64 rings (bit k: ring position k holds a stone).
RING_FORBIDS = [_single_run_of_two_to_five(bits) for bits in range(64)]
# How many arcs of open positions (empty or off the board) a stone's ring has, by the ring's
# stones: with fewer than two, the empty cells round the new stone still reach each other.
OPEN_ARCS = [sum(1 for k in range(6) if not bits >> k & 1 and bits >> ((k - 1) % 6) & 1)
             for bits in range(64)]


class LeanO:
    """Impartial O with the spec's chart: stones in a flat list, each cell's ring as bits
    kept up to date, empty cells in a swap-remove list for random draws."""

    def __init__(self, grid: Any) -> None:
        self.board = board = lean_board(grid)
        n = len(board.cells)
        self.stone = [False] * n
        self.bits = [0] * n
        self.empty = list(range(n))
        self.slot = list(range(n))
        self.loop: list[int] = []

    def legal(self, i: int) -> bool:
        stone = self.stone
        if stone[i] or RING_FORBIDS[self.bits[i]]:
            return False
        for j in self.board.corner_partners[i]:
            if stone[j]:
                return False
        return True

    def legal_cells(self) -> list[int]:
        return [i for i in self.empty if self.legal(i)]

    def random_legal(self, rng: random.Random) -> int | None:
        """A uniformly random legal cell (draws among the empty ones, then a full scan when
        the draws keep missing); None when there is none."""
        empty = self.empty
        for _ in range(8):
            i = rng.choice(empty)
            if self.legal(i):
                return i
        legal = self.legal_cells()
        return legal[rng.randrange(len(legal))] if legal else None

    def place(self, i: int) -> bool:
        """Put a stone on cell i; True if it formed a loop (then ``loop`` holds its cells)."""
        board = self.board
        self.stone[i] = True
        last = self.empty.pop()
        if last != i:
            self.empty[self.slot[i]] = last
            self.slot[last] = self.slot[i]
        bits = self.bits
        for k, j in enumerate(board.ring[i]):
            if j >= 0:
                bits[j] |= 1 << ((k + 3) % 6)
        if OPEN_ARCS[bits[i]] < 2:
            return False
        # Flood the empty cells from each arc of the ring that has only cells on the board
        # (an arc that leaves the board is on the edge), stopping at the first edge cell.
        stone, adjacent, edge, ring = self.stone, board.adjacent, board.edge, board.ring[i]
        # flood[c]: which flood reached cell c (0: none).  A flood that runs into an earlier
        # one has reached the edge too: an earlier flood either did, or was closed whole.
        flood = [0] * len(stone)
        enclosed: list[int] = []
        for k in range(6):
            j = ring[k]
            if j < 0 or stone[j] or flood[j]:
                continue
            flood[j] = k + 1
            region, frontier, open_ = [j], [j], edge[j]
            while frontier and not open_:
                a = frontier.pop()
                for b in adjacent[a]:
                    if stone[b] or flood[b] == k + 1:
                        continue
                    if flood[b] or edge[b]:
                        open_ = True
                        break
                    flood[b] = k + 1
                    region.append(b)
                    frontier.append(b)
            if not open_:
                enclosed += region
        if enclosed:
            self.loop = sorted({b for a in enclosed for b in adjacent[a] if stone[b]})
        return bool(enclosed)


def lean_o_playout(grid: Any, rng: random.Random) -> list[int]:
    """A random game of impartial O; returns the cells played."""
    game = LeanO(grid)
    played = []
    while (i := game.random_legal(rng)) is not None:
        played.append(i)
        if game.place(i):
            break
    return played


class LeanCopolymer:
    """Copolymer: owners in a flat list (0 empty, 1 and 2 the players), a connection judged
    by counting the opponent's neighbours when it is asked about."""

    def __init__(self, grid: Any) -> None:
        self.board = board = lean_board(grid)
        n = len(board.cells)
        self.owner = [0] * n
        self.empty = list(range(n))
        self.slot = list(range(n))
        self.to_move = 1

    def connects(self, i: int) -> bool:
        enemy, owner, touching = 3 - self.to_move, self.owner, 0
        for j in self.board.adjacent[i]:
            if owner[j] == enemy:
                touching += 1
                if touching == 2:
                    return True
        return False

    def random_calm(self, rng: random.Random) -> int | None:
        """A uniformly random empty cell that is not a connection, or None."""
        empty = self.empty
        for _ in range(8):
            i = rng.choice(empty)
            if not self.connects(i):
                return i
        calm = [i for i in empty if not self.connects(i)]
        return calm[rng.randrange(len(calm))] if calm else None

    def random_empty(self, rng: random.Random) -> int:
        return self.empty[rng.randrange(len(self.empty))]

    def place(self, i: int) -> bool:
        """The mover takes cell i; True if it was a connection (the mover goes on)."""
        connection = self.connects(i)
        self.owner[i] = self.to_move
        last = self.empty.pop()
        if last != i:
            self.empty[self.slot[i]] = last
            self.slot[last] = self.slot[i]
        if not connection:
            self.to_move = 3 - self.to_move
        return connection

    @property
    def over(self) -> bool:
        return not self.empty

    def winner(self) -> int:
        return 1 if 2 * self.owner.count(1) > len(self.owner) else 2


def lean_copolymer_playout(grid: Any, rng: random.Random) -> int:
    """bench_copolymer's policy: half the time a random calm cell when there is one,
    otherwise a random empty cell.  Returns the winner (1 moved first)."""
    game = LeanCopolymer(grid)
    while not game.over:
        calm = game.random_calm(rng)
        game.place(calm if calm is not None and rng.random() < 0.5 else game.random_empty(rng))
    return game.winner()


def lean_copolymer_uniform_playout(grid: Any, rng: random.Random) -> int:
    """A uniformly random empty cell every placement.  Returns the winner (1 moved first)."""
    game = LeanCopolymer(grid)
    while not game.over:
        game.place(game.random_empty(rng))
    return game.winner()
