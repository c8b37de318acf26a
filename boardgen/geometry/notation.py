"""Cell names, for any hex grid, in one of two notations (a grid says which: ``grid.notation``).

``server`` (the default, the play-by-email server's): rows are letters from the top,
``A B C D E F G H J K L ...`` (no ``I``); after ``Z`` come ``AA AB ...`` (bijective base 25,
still without ``I``).  Numbers label the diagonals that run from upper right to lower left
(constant q + r), ``1`` for the leftmost.  On the hex-hex board of side 6 row A holds
diagonals 1-6, row F 1-11 and row L 6-11, as in the server's Figure 1.

``a1`` (the names Hex and Havannah players use): a column letter and a row number, columns
``a b c ...`` (all 26 letters, then ``aa ab ...``) along the lines that run from upper left to
lower right (constant q), rows ``1 2 3 ...`` from the top (constant r).  On an N x N rhombus
the cells run a1 (top left) to xN (bottom right): rhombus 6 runs a1-f6, as a Hex board.

An axial form ``q,r`` is accepted everywhere beside either.  ``Notation(grid)`` gives the
notation the grid is named in (as ``pathlib.Path`` gives the system's kind of path).
"""

from __future__ import annotations

import re
import string
from collections.abc import Iterable
from typing import ClassVar, Literal, get_args

from boardgen.errors import BoardgenError
from boardgen.geometry.hexgrid import Hex, HexGrid, parse_hex_text
from boardgen.inputs import split_lines

NotationName = Literal["server", "a1"]
NOTATIONS: tuple[str, ...] = get_args(NotationName)
DEFAULT_NOTATION = "server"

ROW_LETTERS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"
COLUMN_LETTERS = string.ascii_lowercase
_NAME = re.compile(r"^([A-Za-z]+)([0-9]+)$")
# Far more than any board within MAX_CELLS needs ("AAB999", "-999,-999"); a longer token is
# refused before it is turned into a number (Python refuses integers of 4,300+ digits).
MAX_CELL_NAME_CHARS = 16
_AXIAL = re.compile(r"^\(?\s*(-?[0-9]+)\s*,\s*(-?[0-9]+)\s*\)?$")


def _letters(index: int, alphabet: str) -> str:
    """Bijective base-len(alphabet) numbering: 0 -> the first letter, then two letters."""
    if index < 0:
        raise ValueError(f"index {index} is negative")
    letters = ""
    n = index + 1
    while n:
        n, rem = divmod(n - 1, len(alphabet))
        letters = alphabet[rem] + letters
    return letters


def _index(letters: str, alphabet: str, what: str) -> int:
    n = 0
    for ch in letters:
        pos = alphabet.find(ch)
        if pos < 0:
            raise ValueError(f"{ch!r} is not {what}")
        n = n * len(alphabet) + pos + 1
    return n - 1


def row_letters(index: int) -> str:
    """0 -> A, 7 -> H, 8 -> J (no I), 24 -> Z, 25 -> AA."""
    return _letters(index, ROW_LETTERS)


def row_index(letters: str) -> int:
    return _index(letters.upper(), ROW_LETTERS, "a row letter (rows skip I)")


def column_letters(index: int) -> str:
    """0 -> a, 25 -> z, 26 -> aa (the a1 notation's columns)."""
    return _letters(index, COLUMN_LETTERS)


def column_index(letters: str) -> int:
    return _index(letters.lower(), COLUMN_LETTERS, "a column letter")


def checked_notation(name: object, field: str = "notation") -> str:
    """A notation's name, or a BoardgenError listing them."""
    if name not in NOTATIONS:
        raise BoardgenError(f"notation {name!r}: unknown (choose from {', '.join(NOTATIONS)})",
                            field=field)
    assert isinstance(name, str)
    return name


class Notation:
    """Names the cells of one grid and reads names back, in the grid's notation.

    A notation names a cell by two lines through it: a *row* (printed left of the board)
    and a *line* across the rows (printed beyond the top end of each line, where
    :meth:`line_labels` says).
    """

    style: ClassVar[str] = ""
    row_word: ClassVar[str] = "row"  # what a row label counts
    line_word: ClassVar[str] = ""  # what a line label counts: diagonals, columns
    line_first: ClassVar[bool] = False  # a name gives its line first (a1: column, row)
    _kinds: ClassVar[dict[str, type[Notation]]] = {}

    def __init_subclass__(cls) -> None:
        super().__init_subclass__()
        Notation._kinds[cls.style] = cls

    def __new__(cls, grid: HexGrid) -> Notation:
        if cls is Notation:
            cls = Notation._kinds[checked_notation(grid.notation)]
        return super().__new__(cls)

    def __getnewargs__(self) -> tuple[HexGrid]:
        return (self.grid,)  # pickle (a process pool's engines) makes it again from its grid

    def __copy__(self) -> Notation:
        return self  # made from its grid alone and never changed: copies of a game share it

    def __deepcopy__(self, memo: dict[int, object]) -> Notation:
        return self

    def __init__(self, grid: HexGrid) -> None:
        self.grid = grid
        # From the grid's rows (top to bottom, each left to right; kept by the grid, which
        # a drawing reads anyway) rather than a scan of every cell for each extreme.
        rows = grid.rows()
        self._top = rows[0][0].r
        bottom = rows[-1][0].r
        # Naming every cell of a large board is a hot path of rendering: a label once per row.
        self._rows = {r: self._row_label(r - self._top) for r in range(self._top, bottom + 1)}
        self._labelled_lines: list[tuple[str, Hex]] | None = None  # line_labels(), once

    # --- what each notation says ----------------------------------------------------------

    def _row_label(self, index: int) -> str:
        raise NotImplementedError

    def _line(self, h: Hex) -> int:
        """The line across the rows that ``h`` is on (a diagonal, a column), from 0."""
        raise NotImplementedError

    def _line_label(self, index: int) -> str:
        raise NotImplementedError

    def name(self, h: Hex) -> str:
        raise NotImplementedError

    def names(self, cells: Iterable[Hex]) -> list[str]:
        """Every cell's :meth:`name`, in order (a large board's figure names them all)."""
        name = self.name
        return [name(h) for h in cells]

    def _split(self, letters: str, digits: str) -> tuple[int, int]:
        """(row index, line index) from a name's letters and digits; ValueError if they
        name neither."""
        raise NotImplementedError

    # Where a line's label goes, in axial steps beyond its top cell (pictures: 0.8 of it).
    line_step: ClassVar[tuple[float, float]] = (0.0, -1.0)

    # --- shared -------------------------------------------------------------------------

    def row_name(self, r: int) -> str:
        return self._rows[r]

    def line_labels(self) -> list[tuple[str, Hex]]:
        """Each line across the rows, labelled, with its top cell (left to right)."""
        if self._labelled_lines is None:  # a scan of every cell: a figure measured twice
            tops: dict[int, Hex] = {}
            for h in self.grid.cells:  # reading order: the first met is the top
                tops.setdefault(self._line(h), h)
            self._labelled_lines = [(self._line_label(line), tops[line])
                                    for line in sorted(tops)]
        return list(self._labelled_lines)

    def extent(self, near: Hex | None = None) -> str:
        """The names a designer can use: the rows and lines, and (given a place off the
        board) the run of the row it is in, if that row is on the board."""
        lines = sorted({self._line(h) for h in self.grid.cells})
        rows = self.grid.rows()
        parts = [f"{self.row_word}s {self._rows[rows[0][0].r]}-{self._rows[rows[-1][0].r]}",
                 f"{self.line_word}s {self._line_label(lines[0])}-"
                 f"{self._line_label(lines[-1])}"]
        said = ", ".join(parts[::-1] if self.line_first else parts)  # in the names' order
        # A custom shape may leave a row between its first and last without a cell.
        row = next((row for row in rows if near is not None and row[0].r == near.r), None)
        if near is not None and row is not None:
            said += f"; {self.row_word} {self._rows[near.r]} runs {self.name(row[0])}-" \
                    f"{self.name(row[-1])}"
        return said

    def parse(self, text: str) -> Hex:
        """A cell from a name (any case) or axial ``q,r``; raises BoardgenError if it is
        not a cell of this grid, saying which names are."""
        token = text.strip()
        if len(token) > MAX_CELL_NAME_CHARS:
            raise BoardgenError(f"{token[:MAX_CELL_NAME_CHARS]!r}... is not a cell name (longer "
                                f"than {MAX_CELL_NAME_CHARS} characters)")
        m = _NAME.match(token)
        if m:
            letters, digits = m.groups()
            if len(digits) > 1 and digits.startswith("0"):
                # One name a cell: 'a01' would be a second spelling of 'a1'.
                plain = f": write {letters}{int(digits)}" if int(digits) else ""
                raise BoardgenError(f"{token!r} is not a cell name (no leading zero{plain})")
            try:
                row, line = self._split(m.group(1), m.group(2))
            except ValueError as exc:
                raise BoardgenError(f"{token!r}: {exc}") from None
            h = self._cell(row, line)
        else:
            m = _AXIAL.match(token)
            if not m:
                raise BoardgenError(f"{token!r} is not a cell name (write {self.example()}, "
                                    "or axial q,r)")
            h = Hex(int(m.group(1)), int(m.group(2)))
        if h not in self.grid:
            raise BoardgenError(f"{token!r} is not on the board ({self.grid.description}: "
                                f"{self.extent(h)})")
        return h

    def _cell(self, row: int, line: int) -> Hex:
        raise NotImplementedError

    def example(self) -> str:
        raise NotImplementedError


class ServerNotation(Notation):
    """The play-by-email server's: a row letter and a diagonal number (``F6``)."""

    style = "server"
    line_word = "diagonal"
    line_step = (1.0, -1.0)  # along the diagonal, up and to the right

    def __init__(self, grid: HexGrid) -> None:
        super().__init__(grid)
        self._left = min(row[0].q + row[0].r for row in grid.rows())  # a row's leftmost

    def _row_label(self, index: int) -> str:
        return row_letters(index)

    def _line(self, h: Hex) -> int:
        return h.q + h.r - self._left

    def _line_label(self, index: int) -> str:
        return str(index + 1)

    def name(self, h: Hex) -> str:
        return f"{self._rows[h.r]}{h.q + h.r - self._left + 1}"

    def names(self, cells: Iterable[Hex]) -> list[str]:
        rows, left = self._rows, self._left
        return [f"{rows[r]}{q + r - left + 1}" for q, r in cells]

    def diagonal_number(self, h: Hex) -> int:
        return h.q + h.r - self._left + 1

    def _split(self, letters: str, digits: str) -> tuple[int, int]:
        return row_index(letters), int(digits) - 1

    def _cell(self, row: int, line: int) -> Hex:
        r = row + self._top
        return Hex(line + self._left - r, r)

    def example(self) -> str:
        return "a row letter and a diagonal number such as F6"


class A1Notation(Notation):
    """Hex's and Havannah's: a column letter and a row number (``f6``)."""

    style = "a1"
    line_word = "column"
    line_first = True
    line_step = (0.6, -1.2)  # straight above the column's top cell, clear of its corner

    def __init__(self, grid: HexGrid) -> None:
        super().__init__(grid)
        self._left = min(row[0].q for row in grid.rows())  # a row's leftmost

    def _row_label(self, index: int) -> str:
        return str(index + 1)

    def _line(self, h: Hex) -> int:
        return h.q - self._left

    def _line_label(self, index: int) -> str:
        return column_letters(index)

    def name(self, h: Hex) -> str:
        return f"{column_letters(h.q - self._left)}{self._rows[h.r]}"

    def _split(self, letters: str, digits: str) -> tuple[int, int]:
        return int(digits) - 1, column_index(letters)

    def _cell(self, row: int, line: int) -> Hex:
        return Hex(line + self._left, row + self._top)

    def example(self) -> str:
        return "a column letter and a row number such as f6"


# --- the board as text, with its coordinates round it -----------------------------------------

# Between the row labels and the board.
_GUTTER = 2


class _Frame:
    """Where a text board's cells and labels go: the board's lines as `format_hex_text`
    spaces them, the row labels right-aligned in a margin on the left, and the line labels
    beyond the top end of each line (above the board: one header line, or one a character
    when a label is longer than one)."""

    def __init__(self, grid: HexGrid) -> None:
        notation = Notation(grid)
        top = min(h.r for h in grid.cells)
        min_col = min(2 * h.q + h.r for h in grid.cells)
        self.rows = max(h.r for h in grid.cells) - top + 1
        self.cells = {h: (h.r - top, 2 * h.q + h.r - min_col) for h in grid.cells}
        first: dict[int, int] = {}
        for row, col in self.cells.values():
            first[row] = min(col, first.get(row, col))
        dq, dr = notation.line_step
        header: list[tuple[int, str]] = []
        # On a board line: (line, first column, text).
        inline: list[tuple[int, int, str]] = []
        for label, h in notation.line_labels():
            row = h.r + round(dr) - top
            col = round(2 * (h.q + dq) + h.r + dr) - min_col
            if row < 0:
                header.append((col, label))
            elif col < first.get(row, col + 1):  # left of the line's cells: a space before
                inline.append((row, col - len(label), label))
            else:
                inline.append((row, col, label))
        depth = max((len(label) for _, label in header), default=0)
        self.header_lines = 0 if not header else 1 if depth == 1 else depth
        shift = -min([0, *(col for _, col, _ in inline), *(col for col, _ in header)])
        self.row_labels = [notation.row_name(top + row) for row in range(self.rows)]
        width = max(len(label) for label in self.row_labels)
        self.margin = width + _GUTTER + shift
        self.width = width
        # Every label, by text line (the header's first), as (column, text).
        self.labels: dict[int, list[tuple[int, str]]] = {}
        for col, label in header:
            for k, ch in enumerate(label.rjust(self.header_lines)):
                if ch != " ":
                    self.labels.setdefault(k, []).append((col + self.margin, ch))
        for row, col, label in inline:
            self.labels.setdefault(self.header_lines + row, []).append((col + self.margin,
                                                                        label))

    def lines(self, char_at: dict[Hex, str], empty: str) -> list[str]:
        grid: list[dict[int, str]] = [{} for _ in range(self.header_lines + self.rows)]
        for row, label in enumerate(self.row_labels):
            for k, ch in enumerate(label.rjust(self.width)):
                grid[self.header_lines + row][k] = ch
        for line, placed in self.labels.items():
            for col, text in placed:
                for k, ch in enumerate(text):
                    grid[line][col + k] = ch
        for h, (row, col) in self.cells.items():
            grid[self.header_lines + row][col + self.margin] = char_at.get(h, empty)
        return ["".join(chars.get(c, " ") for c in range(max(chars) + 1)) if chars else ""
                for chars in grid]


def framed_text(grid: HexGrid, char_at: dict[Hex, str], empty: str = ".") -> list[str]:
    """The board as text, one line a row as :func:`~boardgen.geometry.format_hex_text`
    draws it, with its coordinates round it as a chess program prints them: each row's
    label on its left, each line's (diagonal's, column's) label beyond the line's top end.
    :func:`unframed` reads such a drawing back."""
    return _Frame(grid).lines(char_at, empty)


def unframed(lines: list[str], grid: HexGrid) -> list[str]:
    """``lines`` with the coordinates :func:`framed_text` prints round ``grid`` blanked
    out (any indentation the lines share kept), or unchanged if they do not show them."""
    shown = [i for i, line in enumerate(lines) if line.strip()]
    if not shown:
        return lines
    frame = _Frame(grid)
    body = lines[shown[0]:shown[-1] + 1]
    if len(body) != frame.header_lines + frame.rows:
        return lines
    indent = min(len(line) - len(line.lstrip(" ")) for line in body if line.strip())
    expected = frame.lines({}, " ")
    blanked: list[str] = []
    for k, (line, want) in enumerate(zip(body, expected, strict=True)):
        chars = list(line[indent:])
        if k < frame.header_lines:
            if line[indent:].rstrip() != want.rstrip():
                return lines
            blanked.append("")
            continue
        spans = [(0, frame.width), *((col, col + len(text))
                                      for col, text in frame.labels.get(k, []))]
        for start, end in spans:
            if "".join(chars[start:end]) != want[start:end]:
                return lines
            chars[start:end] = " " * (end - start)
        blanked.append(" " * indent + "".join(chars))
    return [*lines[:shown[0]], *blanked, *lines[shown[-1] + 1:]]


def _side_hint(cells: int) -> str:
    """Which hexhex side a drawing of ``cells`` cells would fit, said as a hint (the board
    is chosen before its start is read, so the side is asked for, not guessed)."""
    side = 1
    while 3 * side * (side - 1) + 1 < cells:
        side += 1
    return f" ({cells} cells make a hexhex board of side {side})" \
        if 3 * side * (side - 1) + 1 == cells and side > 1 else ""


def drawn_on_grid(grid: HexGrid, text: str, source: str, cell_chars: frozenset[str]
                  ) -> dict[Hex, str]:
    """A drawing of a whole board (see :func:`~boardgen.geometry.hexgrid.parse_hex_text`),
    with or without the coordinates :func:`framed_text` prints round it, read onto
    ``grid``: the character at each of its cells.  The drawing's coordinates are its own;
    its top-left is aligned with the grid's, and it must show every cell of the board and
    no other."""
    # A drawing may show the coordinates `boardgen play` prints round a board.
    found = parse_hex_text("\n".join(unframed(split_lines(text), grid)), source, cell_chars)
    if len(found) != len(grid):
        raise BoardgenError(
            f"{source}: the drawing has {len(found)} cells but the board ({grid.description}) "
            f"has {len(grid)}{_side_hint(len(found))}"
        )

    def anchor(cells: list[Hex]) -> tuple[int, int]:
        top = min(h.r for h in cells)
        return top, min(2 * h.q + h.r for h in cells)

    (gr, gc), (tr, tc) = anchor(list(grid.cells)), anchor(list(found))
    dr = gr - tr
    dq2 = (gc - tc) - dr
    shifted = {Hex(h.q + dq2 // 2, h.r + dr): ch for h, ch in found.items()}
    if dq2 % 2 or set(shifted) != set(grid.cells):
        raise BoardgenError(f"{source}: the drawing's shape is not the board's "
                            f"({grid.description})")
    return shifted
