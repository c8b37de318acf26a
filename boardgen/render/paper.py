"""Paper sizes, the printable frame of a page, and how a large board is tiled across pages.

Pure arithmetic in millimetres; the PDF writer draws what this decides.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from boardgen.errors import BoardgenError
from boardgen.picture import PageInfo as PageInfo  # re-exported: it used to live here

PAPERS: dict[str, tuple[float, float]] = {
    "a4": (210.0, 297.0),
    "letter": (215.9, 279.4),
    "a3": (297.0, 420.0),
    # The area A4 and Letter share: a file laid out on it prints unchanged on either.
    "universal": (210.0, 279.4),
}
ORIENTATIONS = ("auto", "portrait", "landscape")

# Most printers cannot print the outer ~6.4 mm (a quarter inch) of a sheet; 12 mm keeps
# every mark well inside the printable area of A4 and Letter alike.
MARGIN_MM = 12.0
HEADER_MM = 10.0  # title, page number
FOOTER_MM = 17.0  # scale bar, cell size, page map, credit
# A tiled page is laid out tighter, so that a large board takes fewer sheets: a one-line
# header, a two-line footer (assembly instruction; scale bar and assembly map), a band for
# the crop and registration marks round the part the page keeps, and a glue tab.
TILE_MARGIN_MM = 8.0
TILE_HEADER_MM = 6.0
TILE_FOOTER_MM = 12.0
MARK_MM = 5.0
GLUE_MM = 8.0

_CUSTOM = re.compile(r"^\s*([0-9]+(?:\.[0-9]+)?)\s*[x×]\s*([0-9]+(?:\.[0-9]+)?)\s*mm\s*$", re.I)
MIN_PAPER_MM = 80.0
MAX_PAPER_MM = 2000.0


@dataclass(frozen=True)
class Paper:
    name: str
    width: float  # portrait: width <= height
    height: float

    def size(self, orientation: str) -> tuple[float, float]:
        short, long = sorted((self.width, self.height))
        return (long, short) if orientation == "landscape" else (short, long)


def parse_paper(text: str) -> Paper:
    """``a4``, ``letter``, ``a3``, ``universal`` (prints on A4 and Letter alike) or a custom
    ``WxHmm`` such as ``300x450mm``."""
    key = text.strip().lower()
    if key in PAPERS:
        return Paper(key, *PAPERS[key])
    m = _CUSTOM.match(text)
    if not m:
        raise BoardgenError(
            f"unknown paper {text!r} (use a4, letter, a3, universal, or a custom size such as "
            "300x450mm)"
        )
    w, h = float(m.group(1)), float(m.group(2))
    for side in (w, h):
        if not MIN_PAPER_MM <= side <= MAX_PAPER_MM:
            raise BoardgenError(
                f"paper {text!r}: each side must be between {MIN_PAPER_MM:g} and "
                f"{MAX_PAPER_MM:g} mm"
            )
    return Paper(f"{w:g}x{h:g}mm", w, h)


def content_size(page: tuple[float, float]) -> tuple[float, float]:
    """The area left for the board once margins, header and footer are taken."""
    return page[0] - 2 * MARGIN_MM, page[1] - 2 * MARGIN_MM - HEADER_MM - FOOTER_MM


def tile_room(page: tuple[float, float]) -> tuple[float, float]:
    """The area a tiled page keeps of the board, before its glue tabs are taken off."""
    return (page[0] - 2 * TILE_MARGIN_MM - 2 * MARK_MM,
            page[1] - 2 * TILE_MARGIN_MM - TILE_HEADER_MM - TILE_FOOTER_MM - 2 * MARK_MM)


@dataclass(frozen=True)
class Tiling:
    """A board cut into ``rows`` x ``cols`` equal tiles that butt together: tile (r, c) keeps
    the board from ``tile_origin(r, c)``, ``tile_width`` x ``tile_height`` mm, and (when it
    has a neighbour there) carries a glue tab ``glue`` mm wide on its right and bottom."""

    orientation: str
    page: tuple[float, float]
    cols: int
    rows: int
    tile_width: float
    tile_height: float
    glue: float

    @property
    def pages(self) -> int:
        return self.cols * self.rows

    def tile_origin(self, row: int, col: int) -> tuple[float, float]:
        """Where tile (row, col) starts on the board, in board millimetres."""
        return col * self.tile_width, row * self.tile_height

    def trim(self, row: int, col: int) -> tuple[float, float, float, float]:
        """The part of page (row, col) it keeps, in page millimetres with y up (left,
        bottom, right, top): the same place on every page, centred with its tabs."""
        del row, col  # equal tiles: the same place on every page
        if self.pages == 1:
            room_w, room_h = content_size(self.page)
            left = MARGIN_MM + (room_w - self.tile_width) / 2
            top = self.page[1] - MARGIN_MM - HEADER_MM - (room_h - self.tile_height) / 2
        else:
            room_w, _ = tile_room(self.page)
            tabs = self.glue if self.cols > 1 else 0.0
            left = TILE_MARGIN_MM + MARK_MM + (room_w - self.tile_width - tabs) / 2
            top = self.page[1] - TILE_MARGIN_MM - TILE_HEADER_MM - MARK_MM
        return left, top - self.tile_height, left + self.tile_width, top


def _split(length: float, room: float, glue: float) -> tuple[int, float]:
    """Equal parts no longer than ``room`` less a glue tab (one part: no tab)."""
    if length <= room:
        return 1, length
    count = math.ceil(length / (room - glue))
    return count, length / count


def tile(board: tuple[float, float], paper: Paper, orientation: str) -> Tiling:
    """Cut a board of ``board`` mm into the fewest pages.  ``auto`` tries both orientations
    and keeps the one with fewer pages (portrait on a tie)."""
    if orientation not in ORIENTATIONS:
        raise BoardgenError(
            f"unknown orientation {orientation!r} (choose from {', '.join(ORIENTATIONS)})"
        )
    candidates = ["portrait", "landscape"] if orientation == "auto" else [orientation]
    plans = []
    for name in candidates:
        page = paper.size(name)
        room_w, room_h = content_size(page)
        if board[0] <= room_w + 1e-9 and board[1] <= room_h + 1e-9:
            plans.append(Tiling(name, page, 1, 1, board[0], board[1], 0.0))
            continue
        tile_w, tile_h = tile_room(page)
        glue = min(GLUE_MM, tile_w / 4, tile_h / 4)
        cols, width = _split(board[0], tile_w, glue)
        rows, height = _split(board[1], tile_h, glue)
        if cols * rows == 1:
            # Fits the compact layout of a tile but not a single page's: two pages, split
            # where the single page is too small.
            if board[1] > room_h:
                rows, height = 2, board[1] / 2
            else:
                cols, width = 2, board[0] / 2
        plans.append(Tiling(name, page, cols, rows, width, height, glue))
    return min(plans, key=lambda p: p.pages)


def fitting_scale(board: tuple[float, float], paper: Paper, orientation: str) -> tuple[float, str]:
    """The largest factor by which a board of ``board`` mm can grow and still fit one page,
    and the orientation that allows it (``auto`` picks the better one)."""
    candidates = ["portrait", "landscape"] if orientation == "auto" else [orientation]
    best = (0.0, candidates[0])
    for name in candidates:
        room_w, room_h = content_size(paper.size(name))
        scale = min(room_w / board[0], room_h / board[1])
        if scale > best[0] + 1e-9:
            best = (scale, name)
    return best
