"""Naive engines, written straight from the rules in shared/spec and nothing else.

They are the floor the benchmarks measure boardgen's engines against, and the oracles the
tests check them with.  So they share no code and no constants with ``boardgen.games``:
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


class NaiveO:
    """Impartial O with the spec's chart, recomputing everything on every query: the legal
    cells from each cell's ring, and loops by flooding the empty cells from the edge."""

    PLAYERS = ("first", "second")

    def __init__(self, grid: Any) -> None:
        self.board = Board(grid.cells)
        self.stones: set[Any] = set()
        self.to_move = self.PLAYERS[0]
        self.over = False
        self.winner: str | None = None
        self.loop: frozenset[Any] = frozenset()
        if not self.legal():
            self.over = True

    def legal(self) -> list[Any]:
        if self.over:
            return []
        return [c for c in self.board.cells if naive_o_legal(self.board, self.stones, c)]

    def enclosed(self) -> set[Any]:
        """Empty cells no path of empty cells joins to an empty cell of the perimeter."""
        reached = {c for c in self.board.perimeter if c not in self.stones}
        frontier = list(reached)
        while frontier:
            cell = frontier.pop()
            for n in self.board.neighbours(cell):
                if n not in self.stones and n not in reached:
                    reached.add(n)
                    frontier.append(n)
        return {c for c in self.board.cells if c not in self.stones and c not in reached}

    def place(self, cell: Any) -> None:
        if self.over or not naive_o_legal(self.board, self.stones, cell):
            raise ValueError(f"{cell}: not a legal placement")
        self.stones.add(cell)
        closed = self.enclosed()
        if closed:
            self.over, self.winner = True, self.to_move
            self.loop = frozenset(n for c in closed for n in self.board.neighbours(c)
                                  if n in self.stones)
            return
        self.to_move = self.PLAYERS[1] if self.to_move == self.PLAYERS[0] else self.PLAYERS[0]
        if not self.legal():
            self.over = True  # nobody can place (impartial: both have the same cells)


# --- Polygone play-outs (shared/spec/polygone.md) ------------------------------------------

# The start (reconstruction): White's pieces by their two holes; Black's mirror them
# (row c to -c, level h to 10 - h).
WHITE_START = (((0, 0), (0, 2)), ((0, 2), (0, 4)), ((1, 1), (1, 3)), ((-1, 1), (-1, 3)),
               ((2, 2), (2, 4)), ((-2, 2), (-2, 4)), ((0, 0), (1, 1)), ((0, 0), (-1, 1)),
               ((1, 3), (0, 4)), ((-1, 3), (0, 4)), ((1, 3), (2, 4)), ((-1, 3), (-2, 4)))


def polygone_start() -> dict[frozenset[tuple[int, int]], str]:
    pieces = {frozenset(ends): "white" for ends in WHITE_START}
    pieces.update({frozenset((-c, 10 - h) for c, h in ends): "black" for ends in WHITE_START})
    return pieces


def _page(hole: tuple[int, int]) -> tuple[float, float]:
    """Where a hole is drawn, at unit spacing: x along the levels, y across the rows."""
    return hole[1] / 2.0, hole[0] * 3 ** 0.5 / 2.0


def _encloses(cycle: list[tuple[int, int]], point: tuple[float, float]) -> bool:
    """Ray casting: whether ``point`` lies inside the polygon through ``cycle``."""
    px, py = point
    inside = False
    for k in range(len(cycle)):
        (x0, y0), (x1, y1) = _page(cycle[k]), _page(cycle[(k + 1) % len(cycle)])
        if (y0 > py) != (y1 > py) and x0 + (py - y0) * (x1 - x0) / (y1 - y0) > px:
            inside = not inside
    return inside


def naive_polygons(pieces: Iterable[frozenset[tuple[int, int]]]
                   ) -> set[frozenset[frozenset[tuple[int, int]]]]:
    """Every polygon: a simple cycle of pieces (three or more) with no piece inside it,
    found by listing every simple cycle of the pieces' graph."""
    lines = set(pieces)
    graph: dict[tuple[int, int], set[tuple[int, int]]] = {}
    for piece in lines:
        a, b = sorted(piece)
        graph.setdefault(a, set()).add(b)
        graph.setdefault(b, set()).add(a)
    cycles: set[frozenset[frozenset[tuple[int, int]]]] = set()
    found: list[list[tuple[int, int]]] = []

    def extend(path: list[tuple[int, int]]) -> None:
        for n in graph[path[-1]]:
            if n == path[0] and len(path) >= 3:
                edges = frozenset(frozenset((path[k], path[(k + 1) % len(path)]))
                                  for k in range(len(path)))
                if edges not in cycles:
                    cycles.add(edges)
                    found.append(list(path))
            elif n > path[0] and n not in path:  # each cycle from its smallest hole
                extend([*path, n])

    for start in sorted(graph):
        extend([start])
    result = set()
    for path in found:
        edges = frozenset(frozenset((path[k], path[(k + 1) % len(path)]))
                          for k in range(len(path)))
        middles = [tuple((u + v) / 2 for u, v in zip(*(_page(h) for h in sorted(piece)),
                                                      strict=True))
                   for piece in lines - edges]
        if not any(_encloses(path, (m[0], m[1])) for m in middles):
            result.add(edges)
    return result


def _hole_text(hole: tuple[int, int]) -> str:
    return "abcde"[hole[0] + 2] + str(hole[1])


def _line_text(piece: frozenset[tuple[int, int]]) -> str:
    low, high = sorted(piece, key=lambda hole: (hole[1], hole[0]))
    return f"{_hole_text(low)}-{_hole_text(high)}"


def _in_order(polys: Iterable[frozenset[frozenset[tuple[int, int]]]]
              ) -> list[frozenset[frozenset[tuple[int, int]]]]:
    """The spec's fixed order of several polygons: by their lines' names."""
    return sorted(polys, key=lambda p: sorted(_line_text(piece) for piece in p))


class NaivePolygone:
    """Polygone recomputing everything from the pieces on every move: the moves (from
    naive_polygone_moves), every polygon (every simple cycle, checked for pieces inside),
    and after each capture every polygon again."""

    CAPTURES_TO_WIN = 7

    def __init__(self, pieces: dict[frozenset[tuple[int, int]], str] | None = None,
                 to_move: str = "white", captured: dict[str, int] | None = None) -> None:
        self.pieces = polygone_start() if pieces is None else dict(pieces)
        self.to_move = to_move
        self.captured = dict(captured or {"white": 0, "black": 0})
        self.over = False
        self.winner: str | None = None
        self.why = ""  # how the game ended: "captures", "apex" or "stuck"
        # The last move's polygons: those the swing itself closed, and all of them in the
        # order resolved, as (pieces, captor or None, taken).
        self.closed_by_move: list[frozenset[frozenset[tuple[int, int]]]] = []
        self.resolved: list[tuple[frozenset[frozenset[tuple[int, int]]], str | None,
                                  list[frozenset[tuple[int, int]]]]] = []
        # Polygons of the last move that a capture before their turn broke (no longer
        # polygons when their turn came): they count for nothing.
        self.broken: list[frozenset[frozenset[tuple[int, int]]]] = []

    @staticmethod
    def opponent(colour: str) -> str:
        return "black" if colour == "white" else "white"

    def moves(self) -> list[tuple[tuple[int, int], tuple[int, int], tuple[int, int]]]:
        """(moving end, pivot, target), sorted."""
        if self.over:
            return []
        return sorted(naive_polygone_moves(self.pieces, self.to_move))

    def play(self, moving: tuple[int, int], pivot: tuple[int, int],
             target: tuple[int, int], order: tuple[int, ...] = ()) -> None:
        """One move; ``order`` (1-based) is the mover's order for the polygons it closes,
        default the fixed order by line names."""
        mover = self.to_move
        if (moving, pivot, target) not in naive_polygone_moves(self.pieces, mover):
            raise ValueError(f"{moving}-{pivot}>{target}: not a move")
        before = naive_polygons(self.pieces)
        del self.pieces[frozenset((moving, pivot))]
        self.pieces[frozenset((pivot, target))] = mover
        now = naive_polygons(self.pieces)
        queue = _in_order(now - before)
        self.closed_by_move = list(queue)
        if order:
            queue = [queue[k - 1] for k in order]
        resolved: set[frozenset[frozenset[tuple[int, int]]]] = set()
        self.resolved = []
        self.broken = []
        while queue:
            poly = queue.pop(0)
            if poly in resolved:
                continue
            if poly not in now:
                self.broken.append(poly)
                continue
            resolved.add(poly)
            owners = [self.pieces[piece] for piece in poly]
            whites, blacks = owners.count("white"), owners.count("black")
            if whites == blacks or not whites or not blacks:
                self.resolved.append((poly, None, []))
                continue
            captor = "white" if whites > blacks else "black"
            taken = [piece for piece in poly if self.pieces[piece] != captor]
            self.resolved.append((poly, captor, taken))
            for piece in taken:
                del self.pieces[piece]
                self.captured[self.opponent(captor)] += 1
            now = naive_polygons(self.pieces)
            if self.captured[self.opponent(captor)] >= self.CAPTURES_TO_WIN:
                self.over, self.winner, self.why = True, captor, "captures"
                return
            queue.extend(_in_order(p for p in now - before - resolved if p not in queue))
        apex = (0, 10) if mover == "white" else (0, 0)
        if target == apex and self.pieces.get(frozenset((pivot, target))) == mover:
            self.over, self.winner, self.why = True, mover, "apex"
            return
        self.to_move = self.opponent(mover)
        if not naive_polygone_moves(self.pieces, self.to_move):
            self.over, self.winner, self.why = True, mover, "stuck"
