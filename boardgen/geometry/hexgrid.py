"""Hex grids in axial coordinates: cells, shapes, neighbours, perimeter and corners.

Storage is axial (q, r), algorithms use the cube constraint q + r + s = 0 where they need
it (Red Blob Games' hexagon guide is the reference).  Rows run along constant r and grow
downward, as in the printed figures of the seeds, so "row A" is the smallest r.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import NamedTuple, cast

from boardgen.errors import BoardgenError
from boardgen.inputs import split_lines
from boardgen.limits import MAX_CELLS as MAX_CELLS  # refused before any cell is made
from boardgen.limits import MAX_INPUT_BYTES


class Hex(NamedTuple):
    """One cell in axial coordinates (pointy-top rows: r is the row, q runs along it)."""

    q: int
    r: int

    @property
    def s(self) -> int:
        return -self.q - self.r

    def __add__(self, other: object) -> Hex:
        # NamedTuple's + would concatenate; a hex plus a direction is a neighbour.
        if not isinstance(other, Hex):
            return NotImplemented
        return Hex(self.q + other.q, self.r + other.r)

    def distance(self, other: Hex) -> int:
        dq, dr = self.q - other.q, self.r - other.r
        return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


# Clockwise on the page (y grows downward), starting east.  The O engine reads a cell's
# ring in exactly this order, so the order is part of the geometry's contract.
DIRECTIONS: tuple[Hex, ...] = (
    Hex(1, 0),  # east
    Hex(0, 1),  # south-east
    Hex(-1, 1),  # south-west
    Hex(-1, 0),  # west
    Hex(0, -1),  # north-west
    Hex(1, -1),  # north-east
)

_STEPS = tuple((d.q, d.r) for d in DIRECTIONS)


# A text mask is read whole, so its size is bounded too: as any input file.
MAX_MASK_BYTES = MAX_INPUT_BYTES
MIN_MASK_CELLS = 3  # as few as the smallest --side board (a side-2 triangle)

MASK_CELL_CHARS = frozenset(".oOxX#*@")


class HexGrid:
    """A finite set of cells with its adjacency, in reading order (top row first).

    Cells are also numbered 0..n-1 in reading order; engines use these indices and
    ``neighbour_indices`` so that a neighbour scan costs no hashing.  That table is built on
    first use: drawing a board never reads it, and for a large board it cost twice the SVG
    writer's own time.
    """

    __slots__ = ("cells", "description", "index", "notation", "shape", "side",
                 "_corners", "_neighbour_indices", "_perimeter", "_rows")

    def __init__(self, cells: Iterable[Hex], description: str, shape: str = "custom",
                 side: int | None = None, *, in_reading_order: bool = False,
                 notation: str = "server") -> None:
        # The shapes below make their cells row by row, left to right: sorting them again
        # was half the time of building a large board's grid.
        ordered = tuple(cells) if in_reading_order else \
            tuple(sorted(set(cells), key=lambda h: (h.r, h.q)))
        if not ordered:
            raise BoardgenError(f"{description}: the board has no cells")
        self.cells: tuple[Hex, ...] = ordered
        self.description = description
        self.shape = shape  # "hexhex", "rhombus", "triangle" or "custom"
        self.side = side  # the size it was made with; None for a custom shape
        # How its cells are named (boardgen.geometry.notation: "server" or "a1").
        self.notation = notation
        self.index: dict[Hex, int] = {h: i for i, h in enumerate(ordered)}
        self._neighbour_indices: tuple[tuple[int, ...], ...] | None = None
        self._perimeter: frozenset[Hex] | None = None
        self._corners: frozenset[Hex] | None = None
        self._rows: tuple[tuple[Hex, ...], ...] | None = None

    def __copy__(self) -> HexGrid:
        return self  # never changed once made (its tables are built once): copies share it

    def __deepcopy__(self, memo: dict[int, object]) -> HexGrid:
        return self

    @property
    def neighbour_indices(self) -> tuple[tuple[int, ...], ...]:
        """For each cell (by index), its on-board neighbours' indices, clockwise from east."""
        if self._neighbour_indices is None:
            index = self.index
            self._neighbour_indices = tuple(
                tuple(index[n] for dq, dr in _STEPS if (n := Hex(q + dq, r + dr)) in index)
                for q, r in self.cells
            )
        return self._neighbour_indices

    def __len__(self) -> int:
        return len(self.cells)

    def named(self, notation: str) -> HexGrid:
        """The same board with its cells named in ``notation`` (itself if they are)."""
        if notation == self.notation:
            return self
        grid = HexGrid(self.cells, self.description, self.shape, self.side,
                       in_reading_order=True, notation=notation)
        grid.index = self.index
        return grid

    def __contains__(self, h: object) -> bool:
        return h in self.index

    def __iter__(self) -> Iterator[Hex]:
        return iter(self.cells)

    def __repr__(self) -> str:
        return f"HexGrid({self.description!r}, {len(self.cells)} cells)"

    def neighbours(self, h: Hex) -> list[Hex]:
        """The on-board neighbours of ``h``, clockwise from east."""
        return [n for d in DIRECTIONS if (n := h + d) in self.index]

    def ring(self, h: Hex) -> tuple[Hex | None, ...]:
        """The six neighbour positions clockwise from east; None where off the board."""
        return tuple(n if (n := h + d) in self.index else None for d in DIRECTIONS)

    @property
    def perimeter(self) -> frozenset[Hex]:
        """Cells with at least one neighbour position off the board."""
        if self._perimeter is None:
            self._perimeter = frozenset(
                h for h, ns in zip(self.cells, self.neighbour_indices, strict=True) if len(ns) < 6
            )
        return self._perimeter

    @property
    def corners(self) -> frozenset[Hex]:
        """Perimeter cells with three or fewer neighbours (the six tips of a hex-hex board)."""
        if self._corners is None:
            self._corners = frozenset(
                h for h, ns in zip(self.cells, self.neighbour_indices, strict=True) if len(ns) <= 3
            )
        return self._corners

    def rows(self) -> tuple[tuple[Hex, ...], ...]:
        """Cells grouped by row, top to bottom, each row left to right."""
        if self._rows is None:
            grouped: dict[int, list[Hex]] = {}
            for h in self.cells:
                grouped.setdefault(h.r, []).append(h)
            self._rows = tuple(tuple(grouped[r]) for r in sorted(grouped))
        return self._rows


# --- shapes ---------------------------------------------------------------------------


def _check_size(what: str, size: int, minimum: int, cells: int) -> None:
    if size < minimum:
        raise BoardgenError(f"{what}: side {size} is too small (the smallest is {minimum})")
    if cells > MAX_CELLS:
        raise BoardgenError(
            f"{what}: side {size} would have {cells:,} cells, more than the limit of "
            f"{MAX_CELLS:,}"
        )


def hexhex_cell_count(side: int) -> int:
    return 3 * side * (side - 1) + 1


# What Hex(q, r) does, without its Python-level __new__ a cell: the shapes below make up
# to tens of thousands of cells, a board command's grid a third faster.
_new_hex = cast(Callable[[type[Hex], tuple[int, int]], Hex], tuple.__new__)


def hexhex(side: int) -> HexGrid:
    """The regular hexagon with ``side`` cells on each edge, centred on (0, 0)."""
    _check_size("hexhex board", side, 2, hexhex_cell_count(side))
    n = side - 1
    cells = [
        _new_hex(Hex, (q, r))
        for r in range(-n, n + 1)
        for q in range(max(-n, -n - r), min(n, n - r) + 1)
    ]
    return HexGrid(cells, f"hexhex side {side}", "hexhex", side,
                   in_reading_order=True)


def rhombus(side: int) -> HexGrid:
    """A side x side rhombus (rows shift half a cell right going down, as a Hex board)."""
    _check_size("rhombus board", side, 2, side * side)
    cells = [_new_hex(Hex, (q, r)) for r in range(side) for q in range(side)]
    return HexGrid(cells, f"rhombus {side}x{side}", "rhombus", side,
                   in_reading_order=True)


def triangle(side: int) -> HexGrid:
    """A triangle pointing up: row k (from 0) has k + 1 cells."""
    _check_size("triangle board", side, 2, side * (side + 1) // 2)
    cells = [_new_hex(Hex, (q, r)) for r in range(side) for q in range(-r, 1)]
    return HexGrid(cells, f"triangle side {side}", "triangle", side,
                   in_reading_order=True)


SHAPES = ("hexhex", "rhombus", "triangle")


def shape_cell_count(shape: str, side: int) -> int:
    if shape == "hexhex":
        return hexhex_cell_count(side)
    if shape == "rhombus":
        return side * side
    if shape == "triangle":
        return side * (side + 1) // 2
    raise BoardgenError(f"unknown shape {shape!r} (choose from {', '.join(SHAPES)})")


def shape_corners(shape: str, side: int) -> list[Hex]:
    """The corner cells of :func:`make_shape`'s board: its extent, without building it."""
    n = side - 1
    if shape == "hexhex":
        return [Hex(n, 0), Hex(-n, 0), Hex(0, n), Hex(0, -n), Hex(n, -n), Hex(-n, n)]
    if shape == "rhombus":
        return [Hex(0, 0), Hex(n, 0), Hex(0, n), Hex(n, n)]
    if shape == "triangle":
        return [Hex(0, 0), Hex(-n, n), Hex(0, n)]
    raise BoardgenError(f"unknown shape {shape!r} (choose from {', '.join(SHAPES)})")


def make_shape(shape: str, side: int) -> HexGrid:
    builders = {"hexhex": hexhex, "rhombus": rhombus, "triangle": triangle}
    if shape not in builders:
        raise BoardgenError(f"unknown shape {shape!r} (choose from {', '.join(SHAPES)})")
    return builders[shape](side)


# --- text drawings of hex grids -------------------------------------------------------


def parse_hex_text(text: str, source: str, cell_chars: frozenset[str]) -> dict[Hex, str]:
    """Read a hex grid drawn as text, one character per cell, the way the seeds draw it.

    Cells in a row stand two columns apart and each row is offset by one column from the
    next (the server's figures), so column c of line r is axial q = (c - r) / 2 after the
    parity of the first cell is fixed.  Blank lines at either end are ignored.  Returns the
    character found at each cell.  ``source`` names the input in error messages.  A tab is
    refused: how many columns it stands for depends on the editor, and a cell one column
    off is on another cell.
    """
    lines = split_lines(text)
    skipped = 0  # blank lines above the drawing: an error's line counts them
    while lines and not lines[0].strip():
        lines.pop(0)
        skipped += 1
    while lines and not lines[-1].strip():
        lines.pop()
    found: dict[Hex, str] = {}
    parity: int | None = None
    for line_no, line in enumerate(lines):
        for col, ch in enumerate(line.rstrip()):
            if ch == " ":
                continue
            number = skipped + line_no + 1
            where = f"{source}: line {number}, column {col + 1}"
            if ch == "\t":
                raise BoardgenError(f"{where}: a tab (draw the board with spaces: a tab's "
                                    "width depends on the editor)", line=number)
            if ch not in cell_chars:
                allowed = " ".join(sorted(cell_chars))
                raise BoardgenError(f"{where}: stray character {ch!r} (cells are {allowed})",
                                    line=number)
            if parity is None:
                parity = (col - line_no) % 2
            if (col - line_no) % 2 != parity:
                raise BoardgenError(
                    f"{where}: {ch!r} is off the hex lattice (cells in a row stand two "
                    "columns apart, and each row is offset by one column)", line=number
                )
            found[Hex((col - line_no - parity) // 2, line_no)] = ch
    if not found:
        raise BoardgenError(f"{source}: no cells found")
    return found


def grid_from_mask(text: str, source: str) -> HexGrid:
    """A custom shape drawn as text (see :func:`parse_hex_text`); any cell character counts."""
    if len(text) > MAX_MASK_BYTES:
        raise BoardgenError(f"{source}: mask is larger than {MAX_MASK_BYTES:,} characters")
    cells = parse_hex_text(text, source, MASK_CELL_CHARS)
    if len(cells) < MIN_MASK_CELLS:
        raise BoardgenError(
            f"{source}: {len(cells)} cell{'s' if len(cells) > 1 else ''} is too small a "
            f"board (at least {MIN_MASK_CELLS}, as the smallest shape, a side-2 triangle)"
        )
    if len(cells) > MAX_CELLS:
        raise BoardgenError(
            f"{source}: {len(cells):,} cells is more than the limit of {MAX_CELLS:,}"
        )
    return HexGrid(cells, f"custom shape from {source}")


def format_hex_text(grid: HexGrid, char_at: dict[Hex, str], empty: str = ".") -> list[str]:
    """The inverse of :func:`parse_hex_text`: one text line per row, indented as printed.

    A row with no cells (a gap in a custom shape) is an empty line, so that every later
    row keeps its place on the lattice.
    """
    by_row = {row[0].r: row for row in grid.rows()}
    min_col = min(2 * h.q + h.r for h in grid.cells)
    lines = []
    for r in range(min(by_row), max(by_row) + 1):
        chars = {2 * h.q + r - min_col: char_at.get(h, empty) for h in by_row.get(r, ())}
        width = max(chars) + 1 if chars else 0
        lines.append("".join(chars.get(c, " ") for c in range(width)))
    return lines
