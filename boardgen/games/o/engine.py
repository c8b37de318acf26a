"""Mark Steere's O (2024), impartial and partisan, as ruled in shared/spec/o.md.

One colour of stones on a hex-hex board of edge 4 or more.  A stone may go on an empty cell
when the glyph of its ring allows it (the glyph table: a *reconstruction*, replaceable from
a file) and the corner rule is kept.  The player whose stone closes off a group of empty
cells from the board's edge has formed a loop and wins.

Every cell's ring is a 6-bit pattern kept up to date as stones arrive, so a legality query
is a table look-up, made when a cell is asked about (nothing is kept per legal cell).  The
loop search runs only when the new stone splits the open cells around it into arcs away
from the edge, and heads for the nearest edge first.  bench/bench_engines.py measures it
against a lean engine written for speed alone and a naive one.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import NamedTuple

from boardgen.errors import BoardgenError, IllegalMove, Refusal
from boardgen.games.slots import put_back
from boardgen.geometry import DIRECTIONS, Hex, HexGrid, Notation, format_hex_text, framed_text
from boardgen.geometry.notation import drawn_on_grid
from boardgen.geometry.rings import FULL, GLYPHS, RING, glyph
from boardgen.i18n import tr
from boardgen.inputs import split_lines

NAME = "O"
CREDIT = "O by Mark Steere (2024)"
MIN_SIDE = 4
DEFAULT_SIDE = 6
IMPARTIAL = ("first", "second")
PARTISAN = ("left", "right")
RULINGS = ("legal", "illegal", "left", "right")
POSITION_CHARS = frozenset(".oO*")  # as 'boardgen play o' prints a position
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


class OReason(StrEnum):
    """Why O refuses a stone (the message for people is kept apart: see Refusal)."""

    OFF_BOARD = "off-board"
    GAME_OVER = "game-over"
    TAKEN = "taken"  # a stone is there already
    GLYPH = "glyph"  # the ring's glyph forbids a stone
    PARTISAN_GLYPH = "partisan-glyph"  # the ring's glyph is the other player's
    CORNER = "corner"  # the corner rule


def check_board(grid: HexGrid) -> None:
    if grid.shape != "hexhex":
        raise BoardgenError(f"O is played on a hexhex board, not a {grid.description}")
    if grid.side is None or grid.side < MIN_SIDE:
        raise BoardgenError(
            f"O needs a hexhex board of edge {MIN_SIDE} or more, not {grid.description}"
        )


def parse_glyph_table(text: str, source: str, *, first_line: int = 1) -> dict[str, str]:
    """A glyph table from text: one ``glyph: ruling`` per line (``#`` comments), every
    glyph k0 .. k5 exactly once, rulings legal / illegal / left / right.  Errors name
    ``source:LINE``, lines counted from ``first_line`` (``line N`` if ``source`` is '')."""
    table: dict[str, str] = {}
    for number, raw in enumerate(split_lines(text), start=first_line):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        name, sep, ruling = (part.strip() for part in line.partition(":"))
        where = f"{source}:{number}" if source else f"line {number}"
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


# random_legal's draws among the empty cells before it lists the legal ones.
_DRAWS = range(8)


def allows(ruling: str, player: str) -> bool:
    """Whether a glyph ruling lets ``player`` (first/second/left/right) place there."""
    if ruling == "legal":
        return True
    if ruling == "illegal":
        return False
    return player in IMPARTIAL or player == ruling


class Stone(NamedTuple):
    """One stone as placed (a named tuple: a play-out makes one per move)."""

    cell: Hex
    player: str
    loop: bool  # this stone formed the loop


_new_tuple = tuple.__new__
_GLYPH_OF = [glyph(bits) for bits in range(FULL + 1)]


def _open_arcs(bits: int) -> tuple[tuple[int, ...], ...]:
    """The unbroken arcs of open positions (empty, or off the board) of a ring, each as
    its ring positions in clockwise order (neighbouring positions are neighbouring cells,
    so the cells of an arc reach each other)."""
    if bits == 0:
        return (tuple(range(RING)),)
    arcs = []
    for k in range(RING):
        if not bits >> k & 1 and bits >> ((k - 1) % RING) & 1:  # an arc starts at k
            arc = []
            while not bits >> (k % RING) & 1:
                arc.append(k % RING)
                k += 1
            arcs.append(tuple(arc))
    return tuple(arcs)


_ARCS = [_open_arcs(bits) for bits in range(FULL + 1)]

# Where to search for a region a new stone cuts off, by the ring positions that are on the
# edge (off the board, or a perimeter cell: one bit each) and then by the ring's stones
# (_search_starts), filled in as they come up.  Boards share the rows: few edge patterns.
_SEARCHES: list[list[tuple[int, ...] | None]] = [[None] * (FULL + 1)
                                                  for _ in range(FULL + 1)]


def _search_starts(edge: int, bits: int) -> tuple[int, ...]:
    """The ring positions to search from, for a ring with the positions ``edge`` on the
    edge and the stones ``bits`` (kept in _SEARCHES): one position of each open arc of the
    ring, unless the ring has fewer than two (the open cells round the stone still reach
    each other round it: nothing is cut off), and leaving out an arc with a position on
    the edge (its region reaches the edge)."""
    arcs = _ARCS[bits]
    starts = () if len(arcs) < 2 else \
        tuple(arc[0] for arc in arcs if not any(edge >> k & 1 for k in arc))
    _SEARCHES[edge][bits] = starts
    return starts


@functools.lru_cache(maxsize=64)
def _allowed_rings(rulings: tuple[tuple[str, str], ...] | None, players: tuple[str, str]
                   ) -> Mapping[str, tuple[bool, ...]]:
    """For each player, whether they may place by the glyph table (None: the default
    table), for each of the 64 ring patterns (the corner rule apart).  A glyph missing
    from the table is illegal.  Shared by every game with this table: never changed."""
    table = DEFAULT_GLYPH_TABLE if rulings is None else dict(rulings)
    return {p: tuple(allows(table.get(name, "illegal"), p) for name in _GLYPH_OF)
            for p in players}


@functools.lru_cache(maxsize=64)
def _passes(rulings: tuple[tuple[str, str], ...] | None, players: tuple[str, str]
            ) -> Mapping[str, tuple[str, tuple[bool, ...]]]:
    """For each player, who plays next and the rings that player may place in (shared by
    every game with this table: never changed)."""
    allowed = _allowed_rings(rulings, players)
    return {players[0]: (players[1], allowed[players[1]]),
            players[1]: (players[0], allowed[players[0]])}


@dataclass(frozen=True)
class _BoardTables:
    """What O needs to know of a board, worked out once per board (a play-out used to
    spend half its time here)."""

    notation: Notation
    neighbours: tuple[tuple[int, ...], ...]
    # For each cell, (neighbour, the bit this cell sets in that neighbour's ring).
    links: list[tuple[tuple[int, int], ...]]
    # For each cell, its ring as (neighbour index or -1 off the board), clockwise.
    ring_cells: list[tuple[int, ...]]
    perimeter: list[bool]
    corner: list[bool]
    # The corner rule's pairs: for a corner, its neighbours off the perimeter; for a cell
    # off the perimeter, the corners beside it; for every other cell, none.
    corner_partners: list[tuple[int, ...]]
    # For each cell, its neighbours nearest the edge last (a stack pops them first).
    downhill: list[tuple[int, ...]]
    nearer: list[tuple[int, ...]]  # for each cell, its neighbours one step nearer the edge
    cell_numbers: list[int]  # 0 .. n-1, copied for each game's list of empty cells
    # For each cell, its ring positions on the edge (off the board or on the perimeter),
    # one bit each, and their row of _SEARCHES: by the ring pattern of the cell's stones,
    # where to search for a region a stone there cuts off.
    edge_positions: list[int]
    searches: list[list[tuple[int, ...] | None]]


@functools.lru_cache(maxsize=16)
def _board_tables(grid: HexGrid) -> _BoardTables:
    index = grid.index
    neighbours = grid.neighbour_indices
    links: list[tuple[tuple[int, int], ...]] = []
    ring_cells: list[tuple[int, ...]] = []
    for h in grid.cells:
        ring = tuple(index.get(h + d, -1) for d in DIRECTIONS)
        ring_cells.append(ring)
        links.append(tuple((j, 1 << (k + 3) % RING) for k, j in enumerate(ring) if j >= 0))
    perimeter_cells, corner_cells = grid.perimeter, grid.corners
    perimeter = [h in perimeter_cells for h in grid.cells]
    corner = [h in corner_cells for h in grid.cells]
    partners: list[tuple[int, ...]] = []
    for i, near in enumerate(neighbours):
        if corner[i]:
            partners.append(tuple(j for j in near if not perimeter[j]))
        elif not perimeter[i]:
            partners.append(tuple(j for j in near if corner[j]))
        else:
            partners.append(())
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
    downhill = [tuple(sorted(near, key=lambda j: -distance[j])) for near in neighbours]
    edges = [sum(1 << k for k, j in enumerate(ring) if j < 0 or perimeter[j])
             for ring in ring_cells]
    nearer = [tuple(j for j in near if distance[j] < distance[i])
              for i, near in enumerate(neighbours)]
    return _BoardTables(Notation(grid), neighbours, links, ring_cells, perimeter, corner,
                        partners, downhill, nearer, list(range(len(grid))),
                        edges, [_SEARCHES[edge] for edge in edges])


class OGame:
    """A game of O in progress.

    Legality is judged when a cell is asked about: a cell's ring is a 6-bit pattern kept up
    to date as stones arrive, so the glyph rule is one look-up in a per-player table of the
    64 patterns, and the corner rule reads the one or two cells it pairs the cell with.
    Nothing is kept per legal cell: a random legal cell is drawn among the empty ones, and
    whether a player can place at all is answered by one cell known to be legal, checked
    again (and replaced by a scan only when it no longer is).
    """

    # Slots: a play-out reads these on every move, and an instance dict slows down past a
    # few dozen keys.
    __slots__ = ("grid", "partisan", "players", "table", "notation", "to_move", "history",
                 "skipped", "over", "winner", "stuck", "_tables", "_links", "_perimeter",
                 "_partners", "_nearer", "_searches", "_cells", "_stone", "_ring", "_empty",
                 "_slot", "_rings_allowed", "_following", "_witness", "_vouched",
                 "_vouched_index", "_closed", "_loop_cache")

    def __init__(self, grid: HexGrid, *, partisan: bool = False,
                 table: dict[str, str] | None = None) -> None:
        check_board(grid)
        self.grid = grid
        self.partisan = partisan
        self.players = PARTISAN if partisan else IMPARTIAL
        self.table = dict(DEFAULT_GLYPH_TABLE if table is None else table)
        self._tables = tables = _board_tables(grid)
        self.notation = tables.notation
        # The tables a play-out reads on every move, one look-up away.
        self._links = tables.links
        self._perimeter = tables.perimeter
        self._partners = tables.corner_partners
        self._nearer = tables.nearer
        n = len(grid)
        self._stone = [False] * n
        self._ring = [0] * n
        self._empty = tables.cell_numbers[:]  # empty cells, for random draws: swap-remove
        self._slot = tables.cell_numbers[:]  # where each empty cell stands in _empty
        rulings = None if table is None else tuple(self.table.items())
        self._rings_allowed = _allowed_rings(rulings, self.players)
        # A cell last seen legal for each player: whether a player can place at all is
        # asked after every stone, and the answer is nearly always this one cell.
        self._witness = dict.fromkeys(self.players, 0)
        # The cell random_legal last returned, and its index, until the position changes.
        self._vouched: Hex | None = None
        self._vouched_index = 0
        self._searches = tables.searches
        # Who plays after each player, and the rings that player may place in.
        self._following = _passes(rulings, self.players)
        self._cells = grid.cells
        self.to_move = self.players[0]
        self.history: list[Stone] = []
        self.skipped: list[tuple[int, str]] = []  # (stones on the board, who was skipped)
        self.over = False
        self.winner: str | None = None
        self._closed: list[int] = []  # the cells the loop encloses, once there is one
        self._loop_cache: tuple[frozenset[Hex], frozenset[Hex]] | None = None
        self.stuck = False  # the game ended because nobody could place (a finding)
        self._settle()

    # --- rules -----------------------------------------------------------------------

    @property
    def enclosed(self) -> frozenset[Hex]:
        """The empty cells the loop cuts off from the edge (none before a loop)."""
        return self._loop_cells()[0]

    @property
    def loop(self) -> frozenset[Hex]:
        """The loop's stones: the stones beside the cells it encloses."""
        return self._loop_cells()[1]

    def _loop_cells(self) -> tuple[frozenset[Hex], frozenset[Hex]]:
        """(enclosed, loop), as cells: worked out when first asked for (a play-out never
        asks), kept until the stone is taken back."""
        if self._loop_cache is None:
            cells, stone = self.grid.cells, self._stone
            self._loop_cache = (
                frozenset(cells[k] for k in self._closed),
                frozenset(cells[j] for k in self._closed for j in self._tables.neighbours[k]
                          if stone[j]))
        return self._loop_cache

    def ring_glyph(self, cell: Hex) -> str:
        return _GLYPH_OF[self._ring[self.grid.index[cell]]]

    def ring_bits(self, cell: Hex) -> int:
        return self._ring[self.grid.index[cell]]

    def corner_conflict(self, i: int) -> int | None:
        """The corner rule: a stone on ``i`` would put a corner stone next to a stone off
        the perimeter.  Returns the cell it would conflict with, or None."""
        for j in self._partners[i]:
            if self._stone[j]:
                return j
        return None

    def _allowed(self, i: int, player: str) -> bool:
        if self._stone[i] or not self._rings_allowed[player][self._ring[i]]:
            return False
        stone = self._stone
        for j in self._partners[i]:
            if stone[j]:
                return False
        return True

    def _can_place(self, player: str) -> bool:
        """Whether ``player`` has a legal placement (the witness, else a scan)."""
        if self._allowed(self._witness[player], player):
            return True
        for i in self._empty:
            if self._allowed(i, player):
                self._witness[player] = i
                return True
        return False

    def why_illegal(self, cell: Hex, player: str | None = None) -> str | None:
        """None if ``player`` (default: to move) may place on ``cell``, else the reason."""
        refusal = self.refusal(cell, player)
        return None if refusal is None else refusal.message

    def refusal(self, cell: Hex, player: str | None = None) -> Refusal | None:
        """None if ``player`` (default: to move) may place on ``cell``, else why not: a
        code (OReason) and its message."""
        mover = player or self.to_move
        i = self.grid.index[cell]
        if self.over:  # as place rules: no stone goes anywhere once the game is over
            return Refusal(OReason.GAME_OVER, "the game is over")
        if self._stone[i]:
            return Refusal(OReason.TAKEN, tr("there is a stone there already"))
        glyph_name = _GLYPH_OF[self._ring[i]]
        ruling = self.table.get(glyph_name, "illegal")
        if not allows(ruling, mover):
            if ruling in PARTISAN:
                return Refusal(OReason.PARTISAN_GLYPH, tr(
                    "only {player} may place in a {glyph} ring").format(
                        player=tr(ruling.capitalize()), glyph=glyph_name))
            return Refusal(OReason.GLYPH, tr("its ring is glyph {glyph}, where no stone may "
                                             "go").format(glyph=glyph_name))
        conflict = self.corner_conflict(i)
        if conflict is not None:
            other = self.notation.name(self.grid.cells[conflict])
            return Refusal(OReason.CORNER, (tr(
                "corner rule: a corner stone may not touch {cell}, a cell off the perimeter")
                if self._tables.corner[i] else
                tr("corner rule: it would touch the corner stone on {cell}")).format(cell=other))
        return None

    def legal(self, player: str | None = None) -> list[Hex]:
        if self.over:
            return []
        mover = player or self.to_move
        allowed, cells = self._allowed, self.grid.cells
        return [cells[i] for i in range(len(cells)) if allowed(i, mover)]

    def stones(self) -> list[Hex]:
        return [h for h, s in zip(self.grid.cells, self._stone, strict=True) if s]

    def random_legal(self, rng: random.Random) -> Hex:
        """A legal cell for the player to move, each with the same chance: drawn among the
        empty cells until one is legal, or among all the legal cells when a few draws
        miss.  Raises BoardgenError if there is none (the game is over)."""
        if not self.over:
            # _allowed written out (a drawn cell is empty): a play-out's inner loop.
            empty, stone, partners = self._empty, self._stone, self._partners
            allowed, ring = self._rings_allowed[self.to_move], self._ring
            for _ in _DRAWS:
                i = rng.choice(empty)
                if allowed[ring[i]]:
                    for j in partners[i]:
                        if stone[j]:
                            break
                    else:
                        self._vouched = cell = self._cells[i]
                        self._vouched_index = i
                        return cell
        legal = self.legal()
        if not legal:
            raise BoardgenError("the game is over: O has no legal placement")
        return legal[rng.randrange(len(legal))]

    def place(self, cell: Hex) -> Stone:
        player = self.to_move
        if cell is self._vouched:  # random_legal has just judged it, in this position
            i = self._vouched_index
        else:
            found = self.grid.index.get(cell)
            if found is None:
                raise IllegalStone(str(cell), Refusal(
                    OReason.OFF_BOARD, tr("not on the board ({board})").format(
                        board=self.grid.description)))
            if self.over:
                raise IllegalStone(self.notation.name(cell),
                                   Refusal(OReason.GAME_OVER, tr("the game is over")))
            i = found
            if not self._allowed(i, player):
                refusal = self.refusal(cell)
                assert refusal is not None  # the reason _allowed saw
                raise IllegalStone(self.notation.name(cell), refusal)
        # The stone (as _put_stone, written out: this is a play-out's inner loop).
        stone, ring = self._stone, self._ring
        stone[i] = True
        self._vouched = None
        empty, slot = self._empty, self._slot
        last = empty.pop()
        if last != i:
            empty[slot[i]] = last
            slot[last] = slot[i]
        for j, bit in self._links[i]:
            ring[j] |= bit
        # Where a region the stone cuts off could be: none if it has fewer than two open
        # arcs round it (the open cells round it still reach each other round its ring).
        searches = self._searches[i]
        starts = searches[ring[i]]
        if starts is None:
            starts = _search_starts(self._tables.edge_positions[i], ring[i])
        if starts and (closed := self._closed_regions(i, starts)):
            self.history.append(record := Stone(cell, player, True))
            self.over, self.winner, self._closed = True, player, closed
            self._loop_cache = None
            return record
        # A Stone made as its class would make it, one call fewer (a play-out makes one
        # per move).
        self.history.append(record := _new_tuple(Stone, (cell, player, False)))
        # Pass the move on, if the witness shows the next player can place (_can_place's
        # first test, written out); else _advance decides.
        following, allowed = self._following[player]
        witness = self._witness[following]
        if not stone[witness] and allowed[ring[witness]]:
            for j in self._partners[witness]:
                if stone[j]:
                    break
            else:
                self.to_move = following
                return record
        self._advance()
        return record

    def setup(self, cells: Iterable[Hex], to_move: str | None = None) -> None:
        """Put stones on the board without the placement rules (to build positions for
        diagrams and tests); no loop is checked.  Only before any move.  ``to_move``
        (default: the first player) moves next, or is skipped if it cannot place."""
        if self.history:
            raise BoardgenError("setup needs a game with no moves yet")
        for cell in cells:
            i = self.grid.index[cell]
            if not self._stone[i]:
                self._put_stone(i)
        self.over = self.stuck = False
        if to_move is not None and to_move not in self.players:
            raise BoardgenError(f"{to_move!r} is not a player of this game "
                                f"({', '.join(self.players)})")
        self.to_move, self.skipped = to_move or self.players[0], []
        self._settle()

    def _put_stone(self, i: int) -> None:
        """A stone on cell i: it leaves the empty cells, and its neighbours' rings change."""
        self._stone[i] = True
        self._vouched = None
        empty, slot = self._empty, self._slot
        last = empty.pop()
        if last != i:
            empty[slot[i]] = last
            slot[last] = slot[i]
        ring = self._ring
        for j, bit in self._links[i]:
            ring[j] |= bit

    def undo(self) -> Stone:
        """Take back the last stone (for search): rings, empty cells and turn restored."""
        if not self.history:
            raise BoardgenError("nothing to undo")
        stone = self.history.pop()
        i = self.grid.index[stone.cell]
        self._stone[i] = False
        self._vouched = None
        for j, bit in self._links[i]:
            self._ring[j] &= ~bit
        # The empty cells as they were (place swapped the last one into i's slot): a random
        # draw after an undo is the draw before the stone.
        put_back(self._empty, self._slot, i)
        self.to_move = stone.player
        while self.skipped and self.skipped[-1][0] > len(self.history):
            self.skipped.pop()  # a skip that followed the stone taken back
        self.over, self.stuck, self.winner = False, False, None
        self._closed, self._loop_cache = [], None
        return stone

    def copy(self) -> OGame:
        """An independent copy of the game: its state copied, the board's tables (never
        changed) shared."""
        twin = OGame.__new__(OGame)
        for name in ("grid", "partisan", "players", "notation", "to_move", "over", "winner",
                     "stuck", "_tables", "_links", "_perimeter", "_partners", "_nearer",
                     "_searches", "_cells", "_rings_allowed", "_following", "_loop_cache"):
            setattr(twin, name, getattr(self, name))
        twin.table = dict(self.table)
        twin.history = self.history[:]  # Stones are tuples: shared
        twin.skipped = self.skipped[:]
        twin._stone, twin._ring = self._stone[:], self._ring[:]
        twin._empty, twin._slot = self._empty[:], self._slot[:]
        twin._witness = dict(self._witness)
        twin._closed = self._closed[:]
        twin._vouched, twin._vouched_index = None, 0
        return twin

    def __deepcopy__(self, memo: dict[int, object]) -> OGame:
        return self.copy()

    def stone_mask(self) -> int:
        """The stones as a bit mask over cell indices (a search key)."""
        return sum(1 << i for i, s in enumerate(self._stone) if s)

    def _settle(self) -> None:
        """Before the first stone (a glyph table or a set-up position may leave the first
        player nothing): skip the first player or end the game, as after any stone."""
        if not self._can_place(self.to_move):
            # As after a stone of the other player's: the one to move is skipped.
            mover = self.to_move
            self.to_move = self.players[1] if mover == self.players[0] else self.players[0]
            self._advance()

    def _advance(self) -> None:
        """Pass the move on; a partisan player with no placement is skipped."""
        following = self.players[1] if self.to_move == self.players[0] else self.players[0]
        if self._can_place(following):
            self.to_move = following
        elif self.partisan and self._can_place(self.to_move):
            self.skipped.append((len(self.history), following))
        else:
            self.to_move = following
            self.over, self.stuck = True, True

    # --- loops -----------------------------------------------------------------------

    def _closed_regions(self, placed: int, starts: tuple[int, ...]) -> list[int]:
        """Empty cells cut off from the edge by the stone on ``placed``, searched from the
        cells at ring positions ``starts`` (cells off the perimeter).  Usually empty cells
        lead from a start to the edge one step nearer it at a time: that walk needs no
        search (and no cell is visited twice)."""
        stone, perimeter, nearer = self._stone, self._perimeter, self._nearer
        ring = self._tables.ring_cells[placed]
        closed: list[int] = []
        seen: set[int] = set()
        for k in starts:
            start = ring[k]
            i = start
            while not perimeter[i]:
                for j in nearer[i]:
                    if not stone[j]:
                        i = j
                        break
                else:
                    break  # no empty cell nearer the edge: search
            if perimeter[i] or start in seen:
                continue
            region, reaches_edge = self._explore(start)
            seen |= region
            if not reaches_edge:
                closed += region
        return closed

    def _explore(self, start: int) -> tuple[set[int], bool]:
        """Depth-first search from ``start`` (off the perimeter) through empty cells,
        stepping toward the edge first.  Returns (cells visited, whether an edge cell was
        reached); a closed region is visited whole."""
        stone, perimeter, downhill = self._stone, self._perimeter, self._tables.downhill
        visited = {start}
        stack = [start]
        while stack:
            for j in downhill[stack.pop()]:
                if j not in visited and not stone[j]:
                    if perimeter[j]:
                        return visited, True
                    visited.add(j)
                    stack.append(j)
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
    """The stable ``boardgen play o --json`` contract (docs: reference/play-json)."""
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


def drawn_stones(grid: HexGrid, text: str, source: str) -> list[Hex]:
    """The stones of a position drawn as ``boardgen play o`` prints it (``.`` empty, ``o``
    a stone; ``O`` and ``*`` read as stones too), every cell of the board shown, in reading
    order; errors name ``source``."""
    drawn = drawn_on_grid(grid, text, source, POSITION_CHARS)
    return sorted((h for h, ch in drawn.items() if ch != "."), key=grid.index.__getitem__)


def text_position(game: OGame, *, coordinates: bool = False) -> list[str]:
    """``.`` empty, ``o`` a stone, ``O`` the last stone placed, ``*`` a loop stone.
    With ``coordinates``, each row's label on its left and each line's beyond its top
    end, as ``boardgen play`` prints it."""
    last = game.history[-1].cell if game.history else None
    chars = {h: ("*" if h in game.loop else "O" if h == last else "o") for h in game.stones()}
    return (framed_text if coordinates else format_hex_text)(game.grid, chars)


def status_line(game: OGame) -> str:
    if game.over and game.winner:
        return f"{game.winner.capitalize()} formed a loop of {len(game.loop)} stones and wins."
    if game.over:
        return "Nobody can place a stone and there is no loop: the rules do not cover this."
    legal = game.legal()
    return f"{game.to_move.capitalize()} to move; {len(legal)} legal placements."
