"""Cell names in the play-by-email server's notation, for any hex grid.

Rows are letters from the top, ``A B C D E F G H J K L ...`` (no ``I``); after ``Z`` come
``AA AB ...`` (bijective base 25, still without ``I``).  Numbers label the diagonals that
run from upper right to lower left (constant q + r), ``1`` for the leftmost.  On the
hex-hex board of side 6 row A holds diagonals 1-6, row F 1-11 and row L 6-11, as in the
server's Figure 1.  An axial form ``q,r`` is accepted everywhere beside it.
"""

from __future__ import annotations

import re

from boardgen.errors import BoardgenError
from boardgen.geometry.hexgrid import Hex, HexGrid

ROW_LETTERS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"
_BASE = len(ROW_LETTERS)
_NAME = re.compile(r"^([A-Za-z]+)([0-9]+)$")
# Far more than any board within MAX_CELLS needs ("AAB999", "-999,-999"); a longer token is
# refused before it is turned into a number (Python refuses integers of 4,300+ digits).
MAX_CELL_NAME_CHARS = 16
_AXIAL = re.compile(r"^\(?\s*(-?[0-9]+)\s*,\s*(-?[0-9]+)\s*\)?$")


def row_letters(index: int) -> str:
    """0 -> A, 7 -> H, 8 -> J (no I), 24 -> Z, 25 -> AA."""
    if index < 0:
        raise ValueError(f"row index {index} is negative")
    letters = ""
    n = index + 1
    while n:
        n, rem = divmod(n - 1, _BASE)
        letters = ROW_LETTERS[rem] + letters
    return letters


def row_index(letters: str) -> int:
    n = 0
    for ch in letters.upper():
        pos = ROW_LETTERS.find(ch)
        if pos < 0:
            raise ValueError(f"{ch!r} is not a row letter (rows skip I)")
        n = n * _BASE + pos + 1
    return n - 1


class Notation:
    """Names the cells of one grid and reads names back."""

    def __init__(self, grid: HexGrid) -> None:
        self.grid = grid
        self._top = min(h.r for h in grid.cells)
        self._left = min(h.q + h.r for h in grid.cells)
        bottom = max(h.r for h in grid.cells)
        # Naming every cell of a large board is a hot path of rendering: letters once per row.
        self._rows = {r: row_letters(r - self._top) for r in range(self._top, bottom + 1)}

    def name(self, h: Hex) -> str:
        return f"{self._rows[h.r]}{h.q + h.r - self._left + 1}"

    def row_name(self, r: int) -> str:
        return self._rows[r]

    def diagonal_number(self, h: Hex) -> int:
        return h.q + h.r - self._left + 1

    def parse(self, text: str) -> Hex:
        """A cell from ``F6`` (any case) or axial ``q,r``; raises BoardgenError if it is not
        a cell of this grid."""
        token = text.strip()
        if len(token) > MAX_CELL_NAME_CHARS:
            raise BoardgenError(f"{token[:MAX_CELL_NAME_CHARS]!r}... is not a cell name (longer "
                                f"than {MAX_CELL_NAME_CHARS} characters)")
        m = _NAME.match(token)
        if m:
            try:
                row = row_index(m.group(1))
            except ValueError as exc:
                raise BoardgenError(f"{token!r}: {exc}") from None
            r = row + self._top
            h = Hex(int(m.group(2)) - 1 + self._left - r, r)
        else:
            m = _AXIAL.match(token)
            if not m:
                raise BoardgenError(
                    f"{token!r} is not a cell name (write a row letter and a diagonal "
                    "number such as F6, or axial q,r)"
                )
            h = Hex(int(m.group(1)), int(m.group(2)))
        if h not in self.grid:
            raise BoardgenError(f"{token!r} is not on the board ({self.grid.description})")
        return h
