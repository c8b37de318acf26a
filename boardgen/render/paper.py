"""Paper sizes, the printable frame of a page, and how a large board is tiled across pages.

Pure arithmetic in millimetres; the PDF writer draws what this decides.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from boardgen.errors import BoardgenError, option
from boardgen.picture import PageInfo as PageInfo  # re-exported: it used to live here

PAPERS: dict[str, tuple[float, float]] = {
    "a4": (210.0, 297.0),
    "letter": (215.9, 279.4),
    "a3": (297.0, 420.0),
    # A booklet's page: A4 folded once (rule sheets in one column, kits, the printer check).
    "a5": (148.0, 210.0),
    # The area A4 and Letter share: a file laid out on it prints unchanged on either.
    "universal": (210.0, 279.4),
}
ORIENTATIONS = ("auto", "portrait", "landscape")

# Most printers cannot print the outer ~6.4 mm (a quarter inch) of a sheet; 12 mm keeps
# every mark well inside the printable area of A4 and Letter alike.
MARGIN_MM = 12.0
HEADER_MM = 10.0  # title, page number
FOOTER_MM = 17.0  # scale bar, cell size, page map, credit
# A band inside the left margin for the 50 mm bar up the page (printers that scale only
# in the paper-feed direction show there).
BAR_BAND_MM = 3.0
# A tiled page is laid out tighter, so that a large board takes fewer sheets: a one-line
# header, a two-line footer (assembly instruction; scale bar and assembly map), a band for
# the crop and registration marks round the part the page keeps, and a glue tab.
TILE_MARGIN_MM = 8.0
TILE_HEADER_MM = 6.0
TILE_FOOTER_MM = 12.0
MARK_MM = 5.0
GLUE_MM = 8.0
# A band down the left of a tiled page for the vertical 50 mm bar.
TILE_BAR_MM = 4.0
# How far a seam keeps from any text on the board (a label cut in two reads as two): 1.5 mm
# where the board leaves room (a cut 1 mm off still leaves paper round every glyph), else
# 0.4 mm (a name in every cell leaves only narrow gaps between them).
TEXT_CLEARANCES_MM = (1.5, 0.4)

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
    """``a4``, ``letter``, ``a3``, ``a5``, ``universal`` (prints on A4 and Letter alike) or a custom
    ``WxHmm`` such as ``300x450mm``."""
    key = text.strip().lower()
    if key in PAPERS:
        return Paper(key, *PAPERS[key])
    m = _CUSTOM.match(text)
    if not m and key in ("fit", "fitted", "crop", "cropped"):
        raise BoardgenError(f"unknown paper {text!r}: for a page cropped to the drawing, "
                            f"use {option('fit')} with any paper")
    if not m:
        raise BoardgenError(
            f"unknown paper {text!r} (use a4, letter, a3, a5, universal, or a custom size such as "
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
    """The area left for the board once margins, the bar's band, header and footer are
    taken; it starts ``content_left()`` from the page's left edge."""
    return (page[0] - 2 * MARGIN_MM - BAR_BAND_MM,
            page[1] - 2 * MARGIN_MM - HEADER_MM - FOOTER_MM)


def content_left() -> float:
    return MARGIN_MM + BAR_BAND_MM


def tile_room(page: tuple[float, float]) -> tuple[float, float]:
    """The area a tiled page keeps of the board, before its glue tabs are taken off."""
    return (page[0] - 2 * TILE_MARGIN_MM - TILE_BAR_MM - 2 * MARK_MM,
            page[1] - 2 * TILE_MARGIN_MM - TILE_HEADER_MM - TILE_FOOTER_MM - 2 * MARK_MM)


Interval = tuple[float, float]


@dataclass(frozen=True)
class Tiling:
    """A board cut into ``rows`` x ``cols`` tiles that butt together: column ``c`` keeps the
    board from ``col_edges[c]`` to ``col_edges[c + 1]`` (board mm, from its left), row ``r``
    from ``row_edges[r]`` to ``row_edges[r + 1]`` (from its top).  A tile with a neighbour
    on its right or below carries a glue tab ``glue`` mm wide there.  The seams are as
    nearly equal as the board's texts allow: none cuts through a label."""

    orientation: str
    page: tuple[float, float]
    cols: int
    rows: int
    col_edges: tuple[float, ...]
    row_edges: tuple[float, ...]
    glue: float

    @property
    def pages(self) -> int:
        return self.cols * self.rows

    @property
    def tile_width(self) -> float:
        """The widest column."""
        return max(b - a for a, b in zip(self.col_edges, self.col_edges[1:], strict=False))

    @property
    def tile_height(self) -> float:
        """The tallest row."""
        return max(b - a for a, b in zip(self.row_edges, self.row_edges[1:], strict=False))

    def tile_size(self, row: int, col: int) -> tuple[float, float]:
        return (self.col_edges[col + 1] - self.col_edges[col],
                self.row_edges[row + 1] - self.row_edges[row])

    def tile_origin(self, row: int, col: int) -> tuple[float, float]:
        """Where tile (row, col) starts on the board, in board millimetres."""
        return self.col_edges[col], self.row_edges[row]

    def trim(self, row: int, col: int) -> tuple[float, float, float, float]:
        """The part of page (row, col) it keeps, in page millimetres with y up (left,
        bottom, right, top): its top-left corner at the same place on every page."""
        width, height = self.tile_size(row, col)
        if self.pages == 1:
            room_w, room_h = content_size(self.page)
            left = content_left() + (room_w - width) / 2
            top = self.page[1] - MARGIN_MM - HEADER_MM - (room_h - height) / 2
        else:
            room_w, _ = tile_room(self.page)
            tabs = self.glue if self.cols > 1 else 0.0
            left = TILE_MARGIN_MM + TILE_BAR_MM + MARK_MM + \
                (room_w - self.tile_width - tabs) / 2
            top = self.page[1] - TILE_MARGIN_MM - TILE_HEADER_MM - MARK_MM
        return left, top - height, left + width, top


def _merged(intervals: list[Interval]) -> list[Interval]:
    out: list[Interval] = []
    for a, b in sorted(intervals):
        if out and a <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], b))
        else:
            out.append((a, b))
    return out


def _nearest_clear(target: float, low: float, high: float, blocked: list[Interval]) -> float | None:
    """The point of [low, high] nearest ``target`` outside every blocked interval (merged,
    sorted), or None."""
    if low > high:
        return None
    candidates = [min(max(target, low), high), low, high]
    for a, b in blocked:
        candidates += [a, b]
    clear = [x for x in candidates if low <= x <= high
             and not any(a < x < b for a, b in blocked)]
    return min(clear, key=lambda x: (abs(x - target), x)) if clear else None


def _cuts(length: float, count: int, cap: float, blocked: list[Interval]) -> list[float] | None:
    """``count`` parts of at most ``cap`` each, their cuts as near equal as possible and
    outside ``blocked``; None if that cannot be done."""
    edges = [0.0]
    for k in range(1, count):
        low = max(edges[-1] + 1.0, length - (count - k) * cap)
        cut = _nearest_clear(k * length / count, low, edges[-1] + cap, blocked)
        if cut is None:
            return None
        edges.append(cut)
    if length - edges[-1] > cap + 1e-9:
        return None
    return edges + [length]


def _split(length: float, room: float, glue: float, keep_clear: list[Interval]) -> list[float]:
    """The edges of the parts a length is cut into: one part if it fits ``room``, else the
    fewest parts no longer than ``room`` less a glue tab whose cuts miss ``keep_clear``
    (tried with up to two more parts than the fewest; then equal parts all the same)."""
    if length <= room:
        return [0.0, length]
    cap = room - glue
    fewest = math.ceil(length / cap)
    for clearance in TEXT_CLEARANCES_MM:
        blocked = _merged([(a - clearance, b + clearance) for a, b in keep_clear])
        for count in range(fewest, fewest + 3):
            edges = _cuts(length, count, cap, blocked)
            if edges is not None:
                return edges
    return [k * length / fewest for k in range(fewest + 1)]


def tile(board: tuple[float, float], paper: Paper, orientation: str, *,
         keep_clear: tuple[list[Interval], list[Interval]] = ([], [])) -> Tiling:
    """Cut a board of ``board`` mm into the fewest pages.  ``auto`` tries both orientations
    and keeps the one with fewer pages (portrait on a tie).  ``keep_clear`` holds the
    board's texts as x and y intervals that no seam may cross."""
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
            plans.append(Tiling(name, page, 1, 1, (0.0, board[0]), (0.0, board[1]), 0.0))
            continue
        tile_w, tile_h = tile_room(page)
        glue = min(GLUE_MM, tile_w / 4, tile_h / 4)
        cols = _split(board[0], tile_w, glue, keep_clear[0])
        rows = _split(board[1], tile_h, glue, keep_clear[1])
        if len(cols) == 2 and len(rows) == 2:
            # Fits the compact layout of a tile but not a single page's: two pages, split
            # where the single page is too small.
            if board[1] > room_h:
                rows = _halves(board[1], keep_clear[1])
            else:
                cols = _halves(board[0], keep_clear[0])
        plans.append(Tiling(name, page, len(cols) - 1, len(rows) - 1, tuple(cols), tuple(rows),
                            glue))
    return min(plans, key=lambda p: p.pages)


def _halves(length: float, keep_clear: list[Interval]) -> list[float]:
    """Two parts, cut as near the middle as the texts allow."""
    for clearance in TEXT_CLEARANCES_MM:
        blocked = _merged([(a - clearance, b + clearance) for a, b in keep_clear])
        cut = _nearest_clear(length / 2, 0.25 * length, 0.75 * length, blocked)
        if cut is not None:
            return [0.0, cut, length]
    return [0.0, length / 2, length]


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
