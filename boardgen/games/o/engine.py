"""Mark Steere's O (2024), impartial and partisan, as ruled in shared/spec/o.md.

One colour of stones on a hex-hex board of edge 4 or more.  A stone may go on an empty cell
when the glyph of its ring allows it (the glyph table: a *reconstruction*, replaceable from
a file) and the corner rule is kept.  The player whose stone closes off a group of empty
cells from the board's edge has formed a loop and wins.

Every cell's ring is a 6-bit pattern kept up to date as stones arrive, so a legality query
is a table look-up; the legal cells are kept as sets that only a placement's neighbours can
change.  The loop search runs only when the new stone can split the empty cells around it,
and heads for the nearest edge first.
"""

from __future__ import annotations

import functools
import heapq
import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from boardgen.errors import BoardgenError, IllegalMove
from boardgen.geometry import DIRECTIONS, Hex, HexGrid, Notation, format_hex_text
from boardgen.geometry.rings import FULL, GLYPHS, RING, glyph

NAME = "O"
CREDIT = "O by Mark Steere (2024)"
MIN_SIDE = 4
DEFAULT_SIDE = 6
IMPARTIAL = ("first", "second")
PARTISAN = ("left", "right")
RULINGS = ("legal", "illegal", "left", "right")
RULED_GLYPHS = GLYPHS[:-1]  # k6, a full ring, is already a loop and never needs a ruling

# The glyph table of the spec (a reconstruction): a placement is illegal when the stones
# around the cell form one single unbroken run of two to five stones.  "left" / "right":
# legal in impartial O; in partisan O only for that player.
DEFAULT_GLYPH_TABLE: dict[str, str] = {
    "k0": "legal", "k1": "legal", "k2-adjacent": "illegal", "k2-gap": "legal",
    "k2-opposite": "legal", "k3-row": "illegal", "k3-left": "left", "k3-right": "right",
    "k3-alternate": "legal", "k4-row": "illegal", "k4-gap": "legal", "k4-opposite": "legal",
    "k5": "illegal",
}


IllegalStone = IllegalMove  # a placement the rules of O refuse


def check_board(grid: HexGrid) -> None:
    if grid.shape != "hexhex":
        raise BoardgenError(f"O is played on a hexhex board, not a {grid.description}")
    if grid.side is None or grid.side < MIN_SIDE:
        raise BoardgenError(
            f"O needs a hexhex board of edge {MIN_SIDE} or more, not {grid.description}"
        )


def parse_glyph_table(text: str, source: str) -> dict[str, str]:
    """A glyph table from text: one ``glyph: ruling`` per line (``#`` comments), every
    glyph k0 .. k5 exactly once, rulings legal / illegal / left / right."""
    table: dict[str, str] = {}
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        name, sep, ruling = (part.strip() for part in line.partition(":"))
        where = f"{source}:{number}"
        if not sep:
            raise BoardgenError(f"{where}: expected 'glyph: ruling', found {raw.strip()!r}")
        _add_ruling(table, name, ruling, where)
    return _complete(table, source)


def check_glyph_table(table: Mapping[object, object], source: str) -> dict[str, str]:
    """A glyph table given as a mapping of glyph to ruling, checked as a file is: the same
    glyphs and rulings, every glyph exactly once."""
    checked: dict[str, str] = {}
    for name, ruling in table.items():
        _add_ruling(checked, name, ruling, source)
    return _complete(checked, source)


def _add_ruling(table: dict[str, str], name: object, ruling: object, where: str) -> None:
    if not isinstance(name, str) or name not in RULED_GLYPHS:
        shown = repr(name) if len(repr(name)) <= 40 else repr(name)[:40] + "..."
        raise BoardgenError(f"{where}: unknown glyph {shown} (glyphs: "
                            f"{', '.join(RULED_GLYPHS)})")
    if not isinstance(ruling, str) or ruling not in RULINGS:
        shown = repr(ruling) if len(repr(ruling)) <= 40 else repr(ruling)[:40] + "..."
        raise BoardgenError(f"{where}: unknown ruling {shown} for {name} (use "
                            f"{', '.join(RULINGS)})")
    if name in table:
        raise BoardgenError(f"{where}: {name} is ruled twice")
    table[name] = ruling


def _complete(table: dict[str, str], source: str) -> dict[str, str]:
    missing = [g for g in RULED_GLYPHS if g not in table]
    if missing:
        raise BoardgenError(f"{source}: no ruling for {', '.join(missing)}")
    return table


def allows(ruling: str, player: str) -> bool:
    """Whether a glyph ruling lets ``player`` (first/second/left/right) place there."""
    if ruling == "legal":
        return True
    if ruling == "illegal":
        return False
    return player in IMPARTIAL or player == ruling


class _IndexedSet:
    """A set of cell indices with O(1) add, remove and random choice."""

    __slots__ = ("items", "where")

    def __init__(self) -> None:
        self.items: list[int] = []
        self.where: dict[int, int] = {}

    def add(self, i: int) -> None:
        if i not in self.where:
            self.where[i] = len(self.items)
            self.items.append(i)

    def discard(self, i: int) -> None:
        slot = self.where.pop(i, None)
        if slot is None:
            return
        last = self.items.pop()
        if last != i:
            self.items[slot] = last
            self.where[last] = slot

    def __contains__(self, i: object) -> bool:
        return i in self.where

    def __len__(self) -> int:
        return len(self.items)


@dataclass(frozen=True)
class Stone:
    cell: Hex
    player: str
    loop: bool  # this stone formed the loop


_GLYPH_OF = [glyph(bits) for bits in range(FULL + 1)]


@dataclass(frozen=True)
class _BoardTables:
    """What O needs to know of a board, worked out once per board (a play-out used to
    spend half its time here)."""

    notation: Notation
    neighbours: tuple[tuple[int, ...], ...]
    # For each cell, (neighbour, the bit this cell occupies in that neighbour's ring).
    links: list[tuple[tuple[int, int], ...]]
    # For each cell, its ring as (neighbour index or -1 off the board), clockwise.
    ring_cells: list[tuple[int, ...]]
    perimeter: list[bool]
    corner: list[bool]
    edge_distance: list[int]


@functools.lru_cache(maxsize=16)
def _board_tables(grid: HexGrid) -> _BoardTables:
    index = grid.index
    neighbours = grid.neighbour_indices
    links: list[tuple[tuple[int, int], ...]] = []
    ring_cells: list[tuple[int, ...]] = []
    for h in grid.cells:
        ring = tuple(index.get(h + d, -1) for d in DIRECTIONS)
        ring_cells.append(ring)
        links.append(tuple((j, (k + 3) % RING) for k, j in enumerate(ring) if j >= 0))
    perimeter_cells, corner_cells = grid.perimeter, grid.corners
    perimeter = [h in perimeter_cells for h in grid.cells]
    distance = [-1] * len(grid)
    frontier = [i for i, p in enumerate(perimeter) if p]
    for i in frontier:
        distance[i] = 0
    while frontier:
        following = []
        for i in frontier:
            for j in neighbours[i]:
                if distance[j] < 0:
                    distance[j] = distance[i] + 1
                    following.append(j)
        frontier = following
    return _BoardTables(Notation(grid), neighbours, links, ring_cells, perimeter,
                        [h in corner_cells for h in grid.cells], distance)


class OGame:
    """A game of O in progress."""

    def __init__(self, grid: HexGrid, *, partisan: bool = False,
                 table: dict[str, str] | None = None) -> None:
        check_board(grid)
        self.grid = grid
        self.partisan = partisan
        self.players = PARTISAN if partisan else IMPARTIAL
        self.table = dict(DEFAULT_GLYPH_TABLE if table is None else table)
        n = len(grid)
        tables = _board_tables(grid)
        self.notation = tables.notation
        self._neighbours = tables.neighbours
        self._links = tables.links
        self._ring_cells = tables.ring_cells
        self._perimeter = tables.perimeter
        self._corner = tables.corner
        self._edge_distance = tables.edge_distance
        self._stone = [False] * n
        self._ring = [0] * n
        self._glyph_of = _GLYPH_OF
        self._legal = {p: _IndexedSet() for p in self.players}
        for i in range(n):
            self._refresh(i)
        self.to_move = self.players[0]
        self.history: list[Stone] = []
        self.skipped: list[tuple[int, str]] = []  # (stones on the board, who was skipped)
        self.over = False
        self.winner: str | None = None
        self.loop: frozenset[Hex] = frozenset()
        self.enclosed: frozenset[Hex] = frozenset()
        self.stuck = False  # the game ended because nobody could place (a finding)
        self._undo_states: list[tuple[str, int]] = []  # (to move, skips) before each stone
        self._settle()

    # --- rules -----------------------------------------------------------------------

    def ring_glyph(self, cell: Hex) -> str:
        return self._glyph_of[self._ring[self.grid.index[cell]]]

    def ring_bits(self, cell: Hex) -> int:
        return self._ring[self.grid.index[cell]]

    def corner_conflict(self, i: int) -> int | None:
        """The corner rule: a stone on ``i`` would put a corner stone next to a stone off
        the perimeter.  Returns the cell it would conflict with, or None."""
        if self._corner[i]:
            for j in self._neighbours[i]:
                if self._stone[j] and not self._perimeter[j]:
                    return j
        elif not self._perimeter[i]:
            for j in self._neighbours[i]:
                if self._stone[j] and self._corner[j]:
                    return j
        return None

    def _allowed(self, i: int, player: str) -> bool:
        if self._stone[i]:
            return False
        ruling = self.table.get(self._glyph_of[self._ring[i]], "illegal")
        return allows(ruling, player) and self.corner_conflict(i) is None

    def _refresh(self, i: int) -> None:
        for p, legal in self._legal.items():
            if self._allowed(i, p):
                legal.add(i)
            else:
                legal.discard(i)

    def why_illegal(self, cell: Hex, player: str | None = None) -> str | None:
        """None if ``player`` (default: to move) may place on ``cell``, else the reason."""
        mover = player or self.to_move
        i = self.grid.index[cell]
        if self._stone[i]:
            return "there is a stone there already"
        glyph_name = self._glyph_of[self._ring[i]]
        ruling = self.table.get(glyph_name, "illegal")
        if not allows(ruling, mover):
            if ruling in PARTISAN:
                return f"only {ruling.capitalize()} may place in a {glyph_name} ring"
            return f"its ring is glyph {glyph_name}, where no stone may go"
        conflict = self.corner_conflict(i)
        if conflict is not None:
            other = self.notation.name(self.grid.cells[conflict])
            return f"corner rule: a corner stone may not touch {other}, a cell off the " \
                "perimeter" if self._corner[i] else \
                f"corner rule: it would touch the corner stone on {other}"
        return None

    def legal(self, player: str | None = None) -> list[Hex]:
        if self.over:
            return []
        return [self.grid.cells[i] for i in sorted(self._legal[player or self.to_move].items)]

    def stones(self) -> list[Hex]:
        return [h for h, s in zip(self.grid.cells, self._stone, strict=True) if s]

    def random_legal(self, rng: random.Random) -> Hex:
        items = self._legal[self.to_move].items
        return self.grid.cells[items[rng.randrange(len(items))]]

    def place(self, cell: Hex) -> Stone:
        if cell not in self.grid.index:
            raise IllegalStone(str(cell), f"not on the board ({self.grid.description})")
        if self.over:
            raise IllegalStone(self.notation.name(cell), "the game is over")
        reason = self.why_illegal(cell)
        if reason is not None:
            raise IllegalStone(self.notation.name(cell), reason)
        i = self.grid.index[cell]
        player = self.to_move
        self._undo_states.append((player, len(self.skipped)))
        self._put_stone(i)
        closed = self._closed_regions(i)
        stone = Stone(cell, player, bool(closed))
        self.history.append(stone)
        if closed:
            self.over, self.winner = True, player
            cells = self.grid.cells
            self.enclosed = frozenset(cells[k] for k in closed)
            self.loop = frozenset(cells[j] for k in closed for j in self._neighbours[k]
                                  if self._stone[j])
            return stone
        self._advance()
        return stone

    def setup(self, cells: Iterable[Hex]) -> None:
        """Put stones on the board without the placement rules (to build positions for
        diagrams and tests); no loop is checked.  Only before any move."""
        if self.history:
            raise BoardgenError("setup needs a game with no moves yet")
        for cell in cells:
            i = self.grid.index[cell]
            if not self._stone[i]:
                self._put_stone(i)
        self.over = self.stuck = False
        self.to_move, self.skipped = self.players[0], []
        self._settle()

    def _put_stone(self, i: int) -> None:
        """A stone on cell i: it leaves the legal sets, and its neighbours' rings change."""
        self._stone[i] = True
        for legal in self._legal.values():
            legal.discard(i)
        for j, bit in self._links[i]:
            self._ring[j] |= 1 << bit
            self._refresh(j)

    def undo(self) -> Stone:
        """Take back the last stone (for search): rings, legal sets and turn restored."""
        if not self.history:
            raise BoardgenError("nothing to undo")
        stone = self.history.pop()
        i = self.grid.index[stone.cell]
        self._stone[i] = False
        for j, bit in self._links[i]:
            self._ring[j] &= ~(1 << bit)
            self._refresh(j)
        self._refresh(i)
        self.to_move, skips = self._undo_states.pop()
        del self.skipped[skips:]
        self.over, self.stuck, self.winner = False, False, None
        self.loop, self.enclosed = frozenset(), frozenset()
        return stone

    def stone_mask(self) -> int:
        """The stones as a bit mask over cell indices (a search key)."""
        return sum(1 << i for i, s in enumerate(self._stone) if s)

    def _settle(self) -> None:
        """Before the first stone (a glyph table or a set-up position may leave the first
        player nothing): skip the first player or end the game, as after any stone."""
        if not self._legal[self.to_move]:
            self.to_move = self.players[1]
            self._advance()

    def _advance(self) -> None:
        """Pass the move on; a partisan player with no placement is skipped."""
        following = self.players[1] if self.to_move == self.players[0] else self.players[0]
        if self._legal[following]:
            self.to_move = following
        elif self.partisan and self._legal[self.to_move]:
            self.skipped.append((len(self.history), following))
        else:
            self.to_move = following
            self.over, self.stuck = True, True

    # --- loops -----------------------------------------------------------------------

    def _closed_regions(self, placed: int) -> list[int]:
        """Empty cells that the stone on ``placed`` has cut off from the edge."""
        ring = self._ring_cells[placed]
        open_ = [j < 0 or not self._stone[j] for j in ring]
        arcs = sum(1 for k in range(RING) if open_[k] and not open_[k - 1])
        if arcs < 2 and not all(open_):
            # The open neighbours form one arc, so they still reach each other around the
            # new stone: nothing can have been cut off.
            return []
        closed: list[int] = []
        seen: set[int] = set()
        for j in ring:
            if j >= 0 and not self._stone[j] and j not in seen:
                region, reaches_edge = self._explore(j)
                seen.update(region)
                if not reaches_edge:
                    closed.extend(region)
        return closed

    def _explore(self, start: int) -> tuple[set[int], bool]:
        """Best-first search from ``start`` through empty cells toward the edge.  Returns
        (cells visited, whether an edge cell was reached); a closed region is visited
        whole."""
        distance = self._edge_distance
        visited = {start}
        queue = [(distance[start], start)]
        while queue:
            d, i = heapq.heappop(queue)
            if d == 0:
                return visited, True
            for j in self._neighbours[i]:
                if j not in visited and not self._stone[j]:
                    visited.add(j)
                    heapq.heappush(queue, (distance[j], j))
        return visited, False


def reachable_positions(grid: HexGrid, stones: int) -> tuple[list[int], list[list[Hex]]]:
    """Walk every position of impartial O reachable with 1..``stones`` stones (each set of
    stones once, games already won left out).  Returns how many there are for each number
    of stones, and every position with fewer than ``stones`` stones in which nobody can
    place: a counter-example to the designer's claim, expected to be empty."""
    game = OGame(grid)
    frontier: dict[int, list[Hex]] = {0: []}
    counts: list[int] = []
    stuck: list[list[Hex]] = []
    for _ in range(stones):
        following: dict[int, list[Hex]] = {}
        for path in frontier.values():
            for cell in path:
                game.place(cell)
            legal = game.legal()
            if not legal:
                stuck.append(path)
            for cell in legal:
                game.place(cell)
                if not game.over:
                    following.setdefault(game.stone_mask(), [*path, cell])
                game.undo()
            for _ in path:
                game.undo()
        frontier = following
        counts.append(len(frontier))
    return counts, stuck


def position_json(game: OGame) -> dict[str, object]:
    """The stable ``boardgen play o --json`` contract (see the README)."""
    name = game.notation.name
    return {
        "side": game.grid.side,
        "to_move": None if game.over else game.to_move,
        "stones": [name(h) for h in game.stones()],
        "legal": [name(h) for h in game.legal()],
        "over": game.over,
        "winner": game.winner,
        "loop": sorted((name(h) for h in game.loop), key=lambda s: game.notation.parse(s)
                       [::-1]),
    }


def text_position(game: OGame) -> list[str]:
    """``.`` empty, ``o`` a stone, ``O`` the last stone placed, ``*`` a loop stone."""
    last = game.history[-1].cell if game.history else None
    chars = {h: ("*" if h in game.loop else "O" if h == last else "o") for h in game.stones()}
    return format_hex_text(game.grid, chars)


def status_line(game: OGame) -> str:
    if game.over and game.winner:
        return f"{game.winner.capitalize()} formed a loop of {len(game.loop)} stones and wins."
    if game.over:
        return "Nobody can place a stone and there is no loop: the rules do not cover this."
    legal = game.legal()
    return f"{game.to_move.capitalize()} to move; {len(legal)} legal placements."
