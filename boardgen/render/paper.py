"""Paper sizes, the printable frame of a page, and how a large board is tiled across pages.

Pure arithmetic in millimetres; the PDF writer draws what this decides.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from boardgen.errors import BoardgenError

PAPERS: dict[str, tuple[float, float]] = {
    "a4": (210.0, 297.0),
    "letter": (215.9, 279.4),
    "a3": (297.0, 420.0),
}
ORIENTATIONS = ("auto", "portrait", "landscape")

# Most printers cannot print the outer ~6.4 mm (a quarter inch) of a sheet; 12 mm keeps
# every mark well inside the printable area of A4 and Letter alike.
MARGIN_MM = 12.0
HEADER_MM = 10.0  # title, page number
FOOTER_MM = 17.0  # scale bar, cell size, page map, credit
OVERLAP_MM = 10.0  # the strip two neighbouring tiles share, for aligning and gluing

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
    """``a4``, ``letter``, ``a3`` or a custom ``WxHmm`` such as ``300x450mm``."""
    key = text.strip().lower()
    if key in PAPERS:
        return Paper(key, *PAPERS[key])
    m = _CUSTOM.match(text)
    if not m:
        raise BoardgenError(
            f"unknown paper {text!r} (use a4, letter, a3, or a custom size such as 300x450mm)"
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


@dataclass(frozen=True)
class Tiling:
    """A board cut into ``rows`` x ``cols`` equal tiles that overlap by ``overlap`` mm."""

    orientation: str
    page: tuple[float, float]
    cols: int
    rows: int
    tile_width: float
    tile_height: float
    overlap: float

    @property
    def pages(self) -> int:
        return self.cols * self.rows

    def tile_origin(self, row: int, col: int) -> tuple[float, float]:
        """Where tile (row, col) starts on the board, in board millimetres."""
        return (col * (self.tile_width - self.overlap), row * (self.tile_height - self.overlap))


def _split(length: float, room: float, overlap: float) -> tuple[int, float]:
    if length <= room:
        return 1, length
    count = math.ceil((length - overlap) / (room - overlap))
    return count, (length + (count - 1) * overlap) / count


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
        overlap = min(OVERLAP_MM, room_w / 4, room_h / 4)
        cols, tile_w = _split(board[0], room_w, overlap)
        rows, tile_h = _split(board[1], room_h, overlap)
        plans.append(Tiling(name, page, cols, rows, tile_w, tile_h, overlap))
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
