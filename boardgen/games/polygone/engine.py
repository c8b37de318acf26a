"""Fabien Vandenbussche's Polygone (2004–2005), as ruled in shared/spec/polygone.md.

Pieces (staples) lie on the lines of the lattice.  A move swings one end of a piece about
the other, 60 degrees at a time, either way round, to an empty line at that pivot; pieces
on lines at the pivot in between block the swing, directions off the board do not, and the
swinging end may not move back toward the mover's home.  A move that closes polygons -
simple cycles of pieces with no piece inside - resolves each new one: the colour with more
pieces on it captures the other colour's pieces on it.  The seventh capture wins at once,
even in the middle of a turn; otherwise a piece end on the opponent's home apex that
survives the turn's captures wins; a player who cannot move loses.
"""

from __future__ import annotations

import functools
import random
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import NamedTuple

from boardgen.errors import BoardgenError, IllegalMove, Refusal
from boardgen.geometry.lattice import (
    BLACK_HOME,
    HOLES,
    LINE_SET,
    LINES,
    RAYS,
    WHITE_HOME,
    Hole,
    Line,
    direction,
    hole_name,
    line,
    line_name,
    other_end,
    parse_hole,
    unit_position,
)
from boardgen.i18n import N_, tr

NAME = "Polygone"
CREDIT = "Polygone by Fabien Vandenbussche (2004–2005)"
COLOURS = ("white", "black")
PIECES_EACH = 12
CAPTURES_TO_WIN = 7
RECONSTRUCTION = N_("Board and start position are our reconstruction of the lost "
                    "pictures.")  # translated where printed

Polygon = frozenset[Line]


class PolygoneReason(StrEnum):
    """Why Polygone refuses a move (the message for people is kept apart)."""

    GAME_OVER = "game-over"
    NO_PIECE = "no-piece"
    NOT_YOURS = "not-yours"  # the other colour's piece
    NOT_A_LINE = "not-a-line"  # the target is no line of the board
    TAKEN = "taken"  # a piece lies on the target line
    BACKWARDS = "backwards"
    BLOCKED = "blocked"  # pieces at the pivot block both ways round
    BAD_ORDER = "bad-order"  # the order given does not fit the polygons closed


def opponent(colour: str) -> str:
    return "black" if colour == "white" else "white"


def goal(colour: str) -> Hole:
    """The apex a colour moves toward: the opponent's home."""
    return BLACK_HOME if colour == "white" else WHITE_HOME


def forward(colour: str, h_old: int, h_new: int) -> bool:
    """Not backwards: the swinging end keeps or gains level toward the goal."""
    return h_new >= h_old if colour == "white" else h_new <= h_old


def _mirror(hole: Hole) -> Hole:
    return Hole(-hole.c, 10 - hole.h)


def _start() -> dict[Line, str]:
    """The start position (reconstruction, spec): White fills levels 0-4."""
    white = []
    for a, b in (((0, 0), (0, 2)), ((0, 2), (0, 4)), ((1, 1), (1, 3)), ((2, 2), (2, 4)),
                 ((0, 0), (1, 1)), ((1, 3), (0, 4)), ((1, 3), (2, 4))):
        for sign in ((1, -1) if a[0] or b[0] else (1,)):
            white.append(line(Hole(sign * a[0], a[1]), Hole(sign * b[0], b[1])))
    pieces = {ln: "white" for ln in white}
    pieces.update({line(_mirror(a), _mirror(b)): "black" for a, b in white})
    return pieces


START: dict[Line, str] = _start()


@dataclass(frozen=True)
class Move:
    """Swing the end ``moving`` of the piece on line (pivot, moving) to ``target``."""

    pivot: Hole
    moving: Hole
    target: Hole
    order: tuple[int, ...] = ()  # the mover's order for several new polygons (1-based)

    @property
    def piece(self) -> Line:
        return line(self.pivot, self.moving)

    @property
    def new_line(self) -> Line:
        return line(self.pivot, self.target)

    def notation(self) -> str:
        text = f"{hole_name(self.moving)}-{hole_name(self.pivot)}>{hole_name(self.target)}"
        if self.order:
            text += "/" + ",".join(str(k) for k in self.order)
        return text


_MOVE = re.compile(
    r"^\s*([a-eA-E][0-9]{1,2})\s*(?:-|\s)\s*([a-eA-E][0-9]{1,2})\s*(?:>|->)\s*"
    r"([a-eA-E][0-9]{1,2})\s*(?:/\s*([0-9]{1,3}(?:\s*,\s*[0-9]{1,3})*))?\s*$")


MAX_QUOTED_MOVE_CHARS = 16  # of a move an error quotes, as the other games quote a cell name


def quoted_move(text: str) -> str:
    """A move as an error quotes it: whole up to 16 characters, else cut (a move given
    through the API may be megabytes long; its error is one line)."""
    return repr(text) if len(text) <= MAX_QUOTED_MOVE_CHARS else \
        f"{text[:MAX_QUOTED_MOVE_CHARS]!r}..."


def _cut(text: str) -> str:
    return text if len(text) <= MAX_QUOTED_MOVE_CHARS else text[:MAX_QUOTED_MOVE_CHARS] + "..."


def parse_move(text: str) -> Move:
    """``b1-c2>c4`` (moving end, pivot, new end) or ``b1 c2 -> c4``; an optional ``/2,1``
    gives the mover's order for several polygons closed at once."""
    m = _MOVE.match(text)
    if not m:
        raise BoardgenError(f"{quoted_move(text)} is not a move (write MOVING-PIVOT>TARGET, "
                            "e.g. b1-c2>c4, optionally /2,1 for the order of polygons)")
    order = tuple(int(k) for k in m.group(4).split(",")) if m.group(4) else ()
    return Move(parse_hole(m.group(2)), parse_hole(m.group(1)), parse_hole(m.group(3)), order)


@dataclass(frozen=True)
class Capture:
    polygon: Polygon
    captor: str
    removed: tuple[Line, ...]


@dataclass
class Turn:
    move: Move
    mover: str
    captures: list[Capture] = field(default_factory=list)
    polygons: list[Polygon] = field(default_factory=list)  # every new polygon, in order
    # The polygons the move itself closed, in the order resolved (a capture can break one
    # before its turn, or open others: those are in ``polygons`` only).
    closed: list[Polygon] = field(default_factory=list)
    broken: list[Polygon] = field(default_factory=list)  # closed, then broken by a capture
    seventh: str | None = None  # the colour whose capture reached 7 and ended the turn


def _turn_tables() -> tuple[dict[Hole, int], list[tuple[float, float]],
                            list[list[tuple[int, Line] | None]]]:
    """Holes numbered, their page positions, and for each hole and direction the hole
    there (by number) and the line to it, None off the board."""
    number = {hole: k for k, hole in enumerate(HOLES)}
    points = [unit_position(hole) for hole in HOLES]
    steps: list[list[tuple[int, Line] | None]] = []
    for hole in HOLES:
        row: list[tuple[int, Line] | None] = []
        for end, ln in RAYS[hole]:
            row.append(None if ln is None else (number[end], ln))
        steps.append(row)
    return number, points, steps


_NUMBER, _POINTS, _STEPS = _turn_tables()
_MIDDLES = {ln: ((unit_position(ln[0])[0] + unit_position(ln[1])[0]) / 2,
                 (unit_position(ln[0])[1] + unit_position(ln[1])[1]) / 2) for ln in LINES}
_LINE_NUMBER = {ln: k for k, ln in enumerate(LINES)}
_DIRECTION_OF = {(a, b): k for a in HOLES for k, (b, ln) in enumerate(RAYS[a])
                 if ln is not None}


def _edge_tables() -> tuple[dict[Line, tuple[int, int]], list[int], list[Line],
                            list[float], list[list[int]]]:
    """Directed edges numbered hole * 6 + direction, and for each: the hole it leads to, its
    line, its term of the shoelace sum (twice the signed area), and for each set of pieces
    at the hole it leads to (6 bits, one per direction) the direction a face walk leaves
    by: the first clockwise before the way back."""
    ends: dict[Line, tuple[int, int]] = {}
    head = [-1] * (6 * len(HOLES))
    edge_line: list[Line] = [LINES[0]] * (6 * len(HOLES))
    cross = [0.0] * (6 * len(HOLES))
    leave: list[list[int]] = [[-1] * 64 for _ in range(6 * len(HOLES))]
    for a, b in LINES:
        for u, v in ((a, b), (b, a)):
            e = _NUMBER[u] * 6 + _DIRECTION_OF[u, v]
            head[e], edge_line[e] = _NUMBER[v], (a, b)
            (xu, yu), (xv, yv) = _POINTS[_NUMBER[u]], _POINTS[_NUMBER[v]]
            cross[e] = xu * yv - xv * yu
            back = _DIRECTION_OF[v, u]
            for bits in range(64):
                if bits >> back & 1:
                    k = (back - 1) % 6
                    while not bits >> k & 1:
                        k = (k - 1) % 6
                    leave[e][bits] = k
        ends[a, b] = (_NUMBER[a] * 6 + _DIRECTION_OF[a, b], _NUMBER[b] * 6 + _DIRECTION_OF[b, a])
    return ends, head, edge_line, cross, leave


_ENDS, _HEAD, _EDGE_LINE, _CROSS, _LEAVE = _edge_tables()


def polygons(pieces: Iterable[Line]) -> set[Polygon]:
    """Every polygon of a set of pieces: a bounded face of their drawing whose border is one
    simple cycle and that holds no other piece.

    Walks every face once, keeping each edge on its left: from u to v, the next edge leaves
    v in the first direction clockwise before the way back to u.  Holes and directed edges
    are numbers and the turns and areas come from tables (this runs after every move of
    every play-out)."""
    lines = set(pieces)
    present = [0] * len(HOLES)  # per hole, a bit per direction holding a piece
    ends = _ENDS
    for ln in lines:
        eu, ev = ends[ln]
        present[eu // 6] |= 1 << eu % 6
        present[ev // 6] |= 1 << ev % 6
    head, cross, leave, edge_line = _HEAD, _CROSS, _LEAVE, _EDGE_LINE
    found: set[Polygon] = set()
    used = bytearray(6 * len(HOLES))  # directed edges walked
    for ln in lines:
        for e0 in ends[ln]:
            if used[e0]:
                continue
            walk: list[int] = []
            area = 0.0  # twice the signed area: positive for a face kept on the left
            e = e0
            while not used[e]:
                used[e] = 1
                walk.append(e)
                area += cross[e]
                v = head[e]
                e = v * 6 + leave[e][present[v]]
            if area <= 0 or len(walk) < 3:
                continue
            holes = [e // 6 for e in walk]
            if len(set(holes)) != len(holes):
                continue
            polygon = frozenset([edge_line[e] for e in walk])
            xs = [_POINTS[h][0] for h in holes]
            ys = [_POINTS[h][1] for h in holes]
            x_max, y_min, y_max = max(xs), min(ys), max(ys)
            middles = _MIDDLES
            if not any(_inside_walk(xs, ys, middles[other]) for other in lines - polygon
                       if middles[other][0] < x_max and y_min <= middles[other][1] < y_max):
                found.add(polygon)
    return found


def _inside_walk(xs: list[float], ys: list[float], middle: tuple[float, float]) -> bool:
    """Whether a line's middle lies inside the polygon through the points (ray casting; the
    caller skips the middles no ray to the right could cross it from)."""
    px, py = middle
    inside = False
    count = len(xs)
    for k in range(count):
        x0, y0, x1, y1 = xs[k - 1], ys[k - 1], xs[k], ys[k]
        if (y0 > py) != (y1 > py) and x0 + (py - y0) * (x1 - x0) / (y1 - y0) > px:
            inside = not inside
    return inside


def canonical(polys: Iterable[Polygon]) -> list[Polygon]:
    """A fixed order for polygons: by their lines' names."""
    return sorted(polys, key=lambda p: sorted(line_name(ln) for ln in p))


class _State(NamedTuple):
    """What a move changes, kept before it (for undo)."""

    pieces: dict[Line, str]
    to_move: str
    captured: dict[str, int]
    polygons: set[Polygon]
    over: bool
    winner: str | None
    result: str


class Polygone:
    """A game of Polygone.  ``pieces`` defaults to the start position."""

    def __init__(self, pieces: dict[Line, str] | None = None, to_move: str = "white",
                 captured: dict[str, int] | None = None) -> None:
        self.pieces: dict[Line, str] = dict(START if pieces is None else pieces)
        for ln, colour in self.pieces.items():
            if ln not in LINE_SET or colour not in COLOURS:
                raise BoardgenError(f"bad piece {ln} {colour}")
        self.to_move = to_move
        self.captured = dict(captured or {"white": 0, "black": 0})
        for colour in COLOURS:
            on_board = sum(1 for c in self.pieces.values() if c == colour)
            if on_board + self.captured[colour] > PIECES_EACH:
                raise BoardgenError(f"more than {PIECES_EACH} {colour} pieces")
        self.polygons = polygons(self.pieces)
        self.history: list[Turn] = []
        self.over = False
        self.winner: str | None = None
        self.result = ""  # why the game ended
        self._legal: list[Move] | None = None  # legal moves of this position, once asked
        self._vouched: Move | None = None  # drawn by random_move from them, until a move
        self._before: list[_State] = []  # the state before each move of the history
        # A set-up position may leave the side to move without a move: it has lost (our
        # ruling, spec/polygone.md), as after a move.
        if not self.legal_moves():
            self.over, self.winner = True, opponent(to_move)
            self.result = tr("white cannot move") if to_move == "white" else \
                tr("black cannot move")

    def _state(self) -> _State:
        return _State(dict(self.pieces), self.to_move, dict(self.captured), self.polygons,
                      self.over, self.winner, self.result)

    def _restore(self, state: _State) -> None:
        self.pieces, self.captured = dict(state.pieces), dict(state.captured)
        self.to_move, self.polygons = state.to_move, state.polygons
        self.over, self.winner, self.result = state.over, state.winner, state.result
        self._legal = self._vouched = None

    def undo(self) -> Turn:
        """Take back the last move: pieces, captures, turn and result as before it."""
        if not self.history:
            raise BoardgenError("nothing to undo")
        self._restore(self._before.pop())
        return self.history.pop()

    def copy(self) -> Polygone:
        """An independent copy of the game (its turns, never changed once played, shared)."""
        twin = Polygone.__new__(Polygone)
        twin._restore(self._state())
        twin.history, twin._before = self.history[:], self._before[:]
        twin._legal = None if self._legal is None else self._legal[:]
        return twin

    def __deepcopy__(self, memo: dict[int, object]) -> Polygone:
        return self.copy()

    # --- moves -----------------------------------------------------------------------

    def swings(self, piece: Line, pivot: Hole) -> list[tuple[Hole, list[Hole]]]:
        """Targets of swinging ``piece`` about ``pivot``, each with the directions swept
        (the holes the moving end passes, off-board ones included as positions)."""
        start = direction(pivot, other_end(piece, pivot))
        rays = RAYS[pivot]
        targets: list[tuple[Hole, list[Hole]]] = []
        for sense in (1, -1):
            swept: list[Hole] = []
            for m in range(1, 6):
                end, ln = rays[(start + sense * m) % 6]
                if ln is None:
                    swept.append(end)  # off the board: no obstacle
                    continue
                if ln in self.pieces:
                    break  # blocked here and beyond, this way round
                targets.append((end, [*swept]))
                swept.append(end)
        return targets

    def why_illegal(self, move: Move) -> str | None:
        """None if the move is legal, else the reason."""
        refusal = self.refusal(move)
        return None if refusal is None else refusal.message

    def refusal(self, move: Move) -> Refusal | None:
        """None if the move is legal, else why not: a code (PolygoneReason) and its
        message."""
        colour = self.pieces.get(move.piece)
        if colour is None:
            return Refusal(PolygoneReason.NO_PIECE, tr("no piece on {line}").format(
                line=line_name(move.piece)))
        if colour != self.to_move:
            # Whole sentences per colour: a language may need another word for the
            # colour of a piece and the side to move.
            said = tr("the piece on {line} is black, and white is to move") \
                if colour == "black" else \
                tr("the piece on {line} is white, and black is to move")
            return Refusal(PolygoneReason.NOT_YOURS, said.format(line=line_name(move.piece)))
        if line(move.pivot, move.target) not in LINE_SET:
            return Refusal(PolygoneReason.NOT_A_LINE, tr(
                "{line} is not a line of the board").format(
                    line=f"{hole_name(move.pivot)}-{hole_name(move.target)}"))
        if move.new_line in self.pieces:
            return Refusal(PolygoneReason.TAKEN, tr("{line} is taken").format(
                line=line_name(move.new_line)))
        if not forward(colour, move.moving.h, move.target.h):
            return Refusal(PolygoneReason.BACKWARDS, tr(
                "backwards: the end would go from level {start} to {end}").format(
                    start=move.moving.h, end=move.target.h))
        reachable = {end for end, _ in self.swings(move.piece, move.pivot)}
        if move.target not in reachable:
            return Refusal(PolygoneReason.BLOCKED,
                           tr("blocked both ways round by pieces at the pivot"))
        return None

    def legal_moves(self) -> list[Move]:
        if self.over:
            return []
        if self._legal is None:
            self._legal = self._generate()
        return list(self._legal)

    def _generate(self) -> list[Move]:
        pieces = self.pieces
        mover = self.to_move
        occupied = bytearray(len(LINES))  # by line number: cheaper to ask than the dict
        number = _LINE_NUMBER
        for piece in pieces:
            occupied[number[piece]] = 1
        swings = _piece_swings()[mover]
        ranks: set[int] = set()  # moves by their rank in the sorted order: cheap to hash
        for piece, colour in pieces.items():
            if colour == mover:
                for way in swings[piece]:  # about each end, each way round, nearest first
                    for passed, rank in way:
                        if occupied[passed]:
                            break  # blocked here and beyond, this way round
                        if rank >= 0:  # -1: backwards for this colour
                            ranks.add(rank)
        order = _swings_order()
        return [order[rank] for rank in sorted(ranks)]

    def play(self, move: Move) -> Turn:
        """Make a move and resolve its polygons; raises IllegalMove with the reason."""
        if move is not self._vouched:  # else random_move has just drawn it from the legal
            if self.over:
                raise IllegalMove(_cut(move.notation()), Refusal(PolygoneReason.GAME_OVER,
                                                           "the game is over"))
            refusal = self.refusal(move)
            if refusal is not None:
                raise IllegalMove(_cut(move.notation()), refusal)
        mover = self.to_move
        state = self._state()
        self._legal = self._vouched = None
        before = set(self.polygons)
        del self.pieces[move.piece]
        self.pieces[move.new_line] = mover
        self.polygons = polygons(self.pieces)
        first = canonical(self.polygons - before)
        if move.order:
            if sorted(move.order) != list(range(1, len(first) + 1)):
                # Undo: a wrong order is a bad move, not half a move.
                del self.pieces[move.new_line]
                self.pieces[move.piece] = mover
                self.polygons = before
                raise IllegalMove(_cut(move.notation()), Refusal(
                    PolygoneReason.BAD_ORDER, tr(
                        "the order {order} does not fit the {count} polygon(s) this move "
                        "closes").format(order=_cut(",".join(map(str, move.order))),
                                         count=len(first))))
            first = [first[k - 1] for k in move.order]
        turn = Turn(move, mover, closed=list(first))
        self._resolve(turn, before, first)
        self.history.append(turn)
        self._before.append(state)
        self._decide(turn)
        return turn

    def _resolve(self, turn: Turn, before: set[Polygon], queue: list[Polygon]) -> None:
        resolved: set[Polygon] = set()
        while queue:
            poly = queue.pop(0)
            if poly in resolved:
                continue
            if poly not in self.polygons:  # broken by an earlier capture this turn
                turn.broken.append(poly)
                continue
            resolved.add(poly)
            turn.polygons.append(poly)
            counts = {c: sum(1 for ln in poly if self.pieces[ln] == c) for c in COLOURS}
            if counts["white"] == counts["black"] or 0 in counts.values():
                continue
            captor = max(COLOURS, key=lambda c: counts[c])
            removed = tuple(sorted((ln for ln in poly if self.pieces[ln] != captor),
                                   key=line_name))
            for ln in removed:
                del self.pieces[ln]
                self.captured[opponent(captor)] += 1
            turn.captures.append(Capture(poly, captor, removed))
            self.polygons = polygons(self.pieces)
            if self.captured[opponent(captor)] >= CAPTURES_TO_WIN:
                # The seventh capture wins at once: nothing more of this turn is resolved,
                # so the mover's order can decide who gets there first (spec, Winning).
                turn.seventh = captor
                return
            waiting = set(queue)
            queue.extend(canonical(p for p in self.polygons - before - resolved - waiting))

    def _decide(self, turn: Turn) -> None:
        mover = turn.mover
        if turn.seventh is not None:
            self.over, self.winner = True, turn.seventh
            # The count taken, not the threshold: one polygon can take the 7th and 8th.
            self.result = tr("captured {count} pieces").format(
                count=self.captured[opponent(turn.seventh)])
            return
        # The apex counts only for a piece still on the board after the turn's captures.
        if turn.move.target == goal(mover) and self.pieces.get(turn.move.new_line) == mover:
            self.over, self.winner = True, mover
            self.result = tr("reached the opposite apex")
            return
        self.to_move = opponent(mover)
        if not self.legal_moves():
            self.over, self.winner = True, mover
            self.result = tr("white cannot move") if self.to_move == "white" else \
                tr("black cannot move")

    def random_move(self, rng: random.Random) -> Move:
        if self.over:
            raise BoardgenError("the game is over: Polygone has no legal move")
        if self._legal is None:
            self._legal = self._generate()
        self._vouched = move = rng.choice(self._legal)
        return move


@functools.cache
def _swing_tables() -> dict[tuple[Hole, Hole], tuple[tuple[tuple[Line | None, Move | None],
                                                                ...], ...]]:
    """For a piece's pivot and moving end, each way round: the lines passed in turn (None
    off the board) and the move landing there."""
    tables = {}
    for a, b in LINES:
        for pivot, moving in ((a, b), (b, a)):
            start = direction(pivot, moving)
            ways = []
            for sense in (1, -1):
                way = []
                for m in range(1, 6):
                    end, ln = RAYS[pivot][(start + sense * m) % 6]
                    way.append((ln, None if ln is None else Move(pivot, moving, end)))
                ways.append(tuple(way))
            tables[pivot, moving] = tuple(ways)
    return tables


@functools.cache
def _swings_order() -> list[Move]:
    """Every move of the board, in the order legal moves are listed."""
    return sorted({move for ways in _swing_tables().values() for way in ways
                   for _, move in way if move is not None},
                  key=lambda m: (m.moving, m.pivot, m.target))


@functools.cache
def _piece_swings() -> dict[str, dict[Line, tuple[tuple[tuple[int, int], ...], ...]]]:
    """For each colour and each line a piece may lie on, its four swings (about either end,
    either way round): the lines passed in turn, by number (directions off the board
    left out: no obstacle), each with the rank of the move landing there, -1 where the
    move would be backwards for that colour (built on first use, not at import)."""
    rank = {move: k for k, move in enumerate(_swings_order())}
    tables = _swing_tables()
    return {colour: {(a, b): tuple(
        tuple((_LINE_NUMBER[ln], rank[move] if forward(colour, move.moving.h, move.target.h)
               else -1) for ln, move in way if ln is not None and move is not None)
        for pivot, moving in ((a, b), (b, a)) for way in tables[pivot, moving])
        for a, b in LINES} for colour in COLOURS}


_HOLE = r"[a-eA-E][0-9]{1,2}"
# Moves may have spaces inside ("b1 c2 -> d3", "c10-c8 > b9 / 2,1"): close up the spaces
# around the signs, then join the two holes of the long form ("b1 c2->d3": "b1-c2>d3"),
# only where two holes stand before an arrow, so "c0-c2>d1 c10-c8>b9" stays two moves.
_AROUND_SIGNS = re.compile(r"\s*(->|>|-|/|,)\s*")
_LONG_FORM = re.compile(rf"(?:(?<=\s)|^)({_HOLE})\s+({_HOLE})->")


def split_moves(moves: str) -> list[str]:
    """Polygone moves as written in a line of text, one token per move, in either form."""
    moves = _AROUND_SIGNS.sub(r"\1", moves.strip())
    return _LONG_FORM.sub(r"\1-\2>", moves).split()


def position_json(game: Polygone) -> dict[str, object]:
    """The stable ``boardgen play polygone --json`` contract (docs: reference/play-json)."""
    return {
        "to_move": None if game.over else game.to_move,
        "pieces": {line_name(ln): c for ln, c in sorted(game.pieces.items(),
                                                         key=lambda item: line_name(item[0]))},
        "captured": dict(game.captured),
        "legal": [m.notation() for m in game.legal_moves()],
        "over": game.over,
        "winner": game.winner,
    }


def text_position(game: Polygone) -> list[str]:
    lines = []
    for colour in COLOURS:
        names = sorted(line_name(ln) for ln, c in game.pieces.items() if c == colour)
        lines.append(f"{colour.capitalize()} ({len(names)} on the board, "
                     f"{game.captured[colour]} captured): {' '.join(names)}")
    if game.over:
        lines.append(f"{(game.winner or '?').capitalize()} wins: {game.result}.")
    else:
        lines.append(f"{game.to_move.capitalize()} to move; "
                     f"{len(game.legal_moves())} legal moves.")
    return lines
