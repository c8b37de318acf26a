"""The Polygone board: 24 holes on a triangular lattice, 55 lines (grooves), 32 triangles.

A *reconstruction* (shared/spec/polygone.md): the published counts fit a hexagon stretched
along one axis.  A hole is (c, h): c in -2..2 is the row across the board, h in 0..10 the
level along it in half-edges.  Everything here derives from the one table ``ROW_LEVELS``,
so a correction is made in one place.

Hole names: a letter for the row across (``a`` for c = -2 ... ``e`` for c = +2) and the
level, so ``c0`` is White's home apex and ``c10`` Black's.  A line is named by its two holes,
lower level first: ``c0-c2``.
"""

from __future__ import annotations

import math
import re
from typing import NamedTuple

from boardgen.errors import BoardgenError

# Levels of the holes in each row across the board (the reconstruction, in one table).
ROW_LEVELS: dict[int, tuple[int, ...]] = {
    -2: (2, 4, 6, 8),
    -1: (1, 3, 5, 7, 9),
    0: (0, 2, 4, 6, 8, 10),
    1: (1, 3, 5, 7, 9),
    2: (2, 4, 6, 8),
}
ROW_LETTERS = "abcde"  # c = -2 .. 2
MAX_LEVEL = 10

# The six directions from a hole, 60 degrees apart, clockwise on the page (c grows
# downward, h to the right): index k is k * 60 degrees from "forward along h".
DIRECTIONS: tuple[tuple[int, int], ...] = ((0, 2), (1, 1), (1, -1), (0, -2), (-1, -1), (-1, 1))


class Hole(NamedTuple):
    c: int
    h: int

    def step(self, direction: int) -> Hole:
        dc, dh = DIRECTIONS[direction % 6]
        return Hole(self.c + dc, self.h + dh)


Line = tuple[Hole, Hole]  # always in canonical order: see line()

HOLES: tuple[Hole, ...] = tuple(sorted((Hole(c, h) for c, levels in ROW_LEVELS.items()
                                        for h in levels), key=lambda p: (p.h, p.c)))
HOLE_SET = frozenset(HOLES)
WHITE_HOME = Hole(0, 0)
BLACK_HOME = Hole(0, MAX_LEVEL)


def line(a: Hole, b: Hole) -> Line:
    """The canonical form of the line between two holes (lower level first)."""
    return (a, b) if (a.h, a.c) <= (b.h, b.c) else (b, a)


def _lines() -> tuple[Line, ...]:
    found = set()
    for a in HOLES:
        for k in range(6):
            b = a.step(k)
            if b in HOLE_SET:
                found.add(line(a, b))
    return tuple(sorted(found, key=lambda ln: (ln[0].h, ln[0].c, ln[1].h, ln[1].c)))


LINES: tuple[Line, ...] = _lines()
LINE_SET = frozenset(LINES)


def _triangles() -> tuple[tuple[Hole, Hole, Hole], ...]:
    found = set()
    for a in HOLES:
        for k in range(6):
            b, c = a.step(k), a.step(k + 1)
            if b in HOLE_SET and c in HOLE_SET:
                found.add(tuple(sorted((a, b, c))))
    return tuple(sorted(found))  # type: ignore[arg-type]


TRIANGLES = _triangles()


def _rays() -> dict[Hole, tuple[tuple[Hole, Line | None], ...]]:
    return {a: tuple((a.step(k), line(a, a.step(k)) if a.step(k) in HOLE_SET else None)
                     for k in range(6)) for a in HOLES}


# For every hole, in each of the six directions: the position there and the line to it
# (None off the board).  Move generation walks these instead of recomputing steps.
RAYS = _rays()
_UNIT_POSITIONS: dict[Hole, tuple[float, float]] = {}


def unit_position(hole: Hole) -> tuple[float, float]:
    """Page position of a hole at unit spacing (cached; hot in polygon tests)."""
    found = _UNIT_POSITIONS.get(hole)
    if found is None:
        found = _UNIT_POSITIONS[hole] = position(hole, 1.0)
    return found


def direction(a: Hole, b: Hole) -> int:
    """The direction index from hole a to its lattice neighbour b."""
    return DIRECTIONS.index((b.c - a.c, b.h - a.h))


def other_end(ln: Line, hole: Hole) -> Hole:
    return ln[1] if ln[0] == hole else ln[0]


def position(hole: Hole, spacing: float) -> tuple[float, float]:
    """Page position in mm (y down) of a hole, for a hole spacing (edge length) in mm."""
    return hole.h * spacing / 2.0, hole.c * spacing * math.sqrt(3.0) / 2.0


def hole_name(hole: Hole) -> str:
    return f"{ROW_LETTERS[hole.c + 2]}{hole.h}"


_HOLE = re.compile(r"^([a-eA-E])([0-9]{1,2})$")


def parse_hole(text: str) -> Hole:
    m = _HOLE.match(text.strip())
    hole = Hole(ROW_LETTERS.index(m.group(1).lower()) - 2, int(m.group(2))) if m else None
    if hole is None or hole not in HOLE_SET:
        raise BoardgenError(f"{text!r} is not a hole (rows a-e across, levels 0-10; "
                            "for example c0, b3, e8)")
    return hole


def line_name(ln: Line) -> str:
    return f"{hole_name(ln[0])}-{hole_name(ln[1])}"


def parse_line(text: str) -> Line:
    parts = text.strip().split("-")
    if len(parts) != 2:
        raise BoardgenError(f"{text!r} is not a line (two holes joined by '-', e.g. c0-c2)")
    a, b = parse_hole(parts[0]), parse_hole(parts[1])
    ln = line(a, b)
    if ln not in LINE_SET:
        raise BoardgenError(f"{text!r}: holes {hole_name(a)} and {hole_name(b)} are not "
                            "joined by a line")
    return ln
