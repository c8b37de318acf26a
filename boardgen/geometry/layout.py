"""From hex coordinates to millimetres on the page (Red Blob Games' ``Layout``).

The page's y axis grows downward, as in SVG; the PDF writer flips it once for the whole
board.  Sizes are in millimetres throughout so that "mm in = mm out" holds by construction.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

from boardgen.geometry.hexgrid import Hex

SQRT3 = math.sqrt(3.0)


@dataclass(frozen=True)
class Orientation:
    """The forward matrix (axial -> unit-size pixel) and the angle of the first corner."""

    f0: float
    f1: float
    f2: float
    f3: float
    start_angle: float  # in sixths of a turn


POINTY = Orientation(SQRT3, SQRT3 / 2.0, 0.0, 3.0 / 2.0, 0.5)
FLAT = Orientation(3.0 / 2.0, 0.0, SQRT3 / 2.0, SQRT3, 0.0)


@dataclass(frozen=True)
class Layout:
    """Where cells fall on the page.

    ``size_mm`` is the circumradius (centre to corner).  For pointy-top cells the printed
    "cell width" users ask for is the flat-to-flat distance, sqrt(3) times the size.
    """

    size_mm: float
    origin: tuple[float, float] = (0.0, 0.0)
    orientation: Orientation = POINTY

    @classmethod
    def from_cell_width(
        cls, width_mm: float, origin: tuple[float, float] = (0.0, 0.0),
        orientation: Orientation = POINTY,
    ) -> Layout:
        return cls(width_mm / SQRT3, origin, orientation)

    @property
    def cell_width_mm(self) -> float:
        """Flat-to-flat width of one cell."""
        return self.size_mm * SQRT3

    def centre(self, h: Hex) -> tuple[float, float]:
        o = self.orientation
        x = (o.f0 * h.q + o.f1 * h.r) * self.size_mm + self.origin[0]
        y = (o.f2 * h.q + o.f3 * h.r) * self.size_mm + self.origin[1]
        return x, y

    def point(self, q: float, r: float) -> tuple[float, float]:
        """The page position of fractional axial coordinates (for labels between cells)."""
        o = self.orientation
        return (
            (o.f0 * q + o.f1 * r) * self.size_mm + self.origin[0],
            (o.f2 * q + o.f3 * r) * self.size_mm + self.origin[1],
        )

    def corner_offsets(self) -> tuple[tuple[float, float], ...]:
        """The six corners relative to a cell's centre, clockwise on the page."""
        start = self.orientation.start_angle
        return tuple(
            (
                self.size_mm * math.cos(2.0 * math.pi * (start + i) / 6.0),
                self.size_mm * math.sin(2.0 * math.pi * (start + i) / 6.0),
            )
            for i in range(6)
        )

    def corners(self, h: Hex) -> list[tuple[float, float]]:
        cx, cy = self.centre(h)
        return [(cx + dx, cy + dy) for dx, dy in self.corner_offsets()]

    def bounds(self, cells: Iterable[Hex]) -> tuple[float, float, float, float]:
        """(min x, min y, max x, max y) of the cells' outlines.  Works on the extreme
        cells' coordinates only: rendering asks this of boards with tens of thousands of
        cells."""
        return self.bounds_of(self.centre_extremes(cells))

    def centre_extremes(self, cells: Iterable[Hex]) -> tuple[float, float, float, float]:
        """(min x, min y, max x, max y) of the cells' centres in units of a cell's size, at
        the origin: the same for every cell size and origin of an orientation, so that a
        figure measured at two sizes scans its cells once (:meth:`bounds_of`)."""
        o = self.orientation
        cells = list(cells)
        xs = [o.f0 * h.q + o.f1 * h.r for h in cells]
        ys = [o.f2 * h.q + o.f3 * h.r for h in cells]
        return min(xs), min(ys), max(xs), max(ys)

    def bounds_of(self, extremes: tuple[float, float, float, float]
                  ) -> tuple[float, float, float, float]:
        """:meth:`bounds` from the cells' :meth:`centre_extremes` in this orientation."""
        size = self.size_mm
        x_min, y_min, x_max, y_max = extremes
        offsets = self.corner_offsets()
        ox = [dx for dx, _ in offsets]
        oy = [dy for _, dy in offsets]
        return (x_min * size + self.origin[0] + min(ox),
                y_min * size + self.origin[1] + min(oy),
                x_max * size + self.origin[0] + max(ox),
                y_max * size + self.origin[1] + max(oy))
