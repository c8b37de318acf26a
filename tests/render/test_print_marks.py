"""Print marks stay off the board, and neighbouring cells of one role stay apart (issue 20).

A tiled board's pages carry glue tabs, cut lines, registration crosses, crop marks, a map
and a scale bar.  Read back from each page's own vectors (tests/pdfdata.py), nothing drawn
outside the board's form may lie on a cell inside the part of the board the page keeps
(its TrimBox); the cut lines lie on the TrimBox's edge, where the board is cut anyway.

Two neighbouring cells of the same role must still read as two cells once printed in
grey: the line between them differs from what the role paints by at least 40 of 255 grey
levels (ITU-R 601 luma), in every theme, in SVG (drawn by CairoSVG) and in PNG (boardgen's
own cairo writer).  A player's colour fills the cell; a highlight is a band inside the
cell's edge, so for a highlight the line is measured against the two bands beside it.
"""

from __future__ import annotations

import io
import math
import re
from collections.abc import Callable
from pathlib import Path

import cairosvg
import numpy as np
import pytest
from conftest import Run
from pdfdata import PageVectors, PaintedPath, Point, read_pages
from PIL import Image

import boardgen

# Slow: left out of the quick subset (pytest -m "not slow"; the README says which).
pytestmark = pytest.mark.slow

RunCli = Callable[..., Run]
MARGIN_MM = 0.2  # a mark on the TrimBox's edge (a cut line) is not on the board
STEP_MM = 0.25
GREY_STEP = 40.0


# --- marks beside the board --------------------------------------------------------------------


def _hexagons(path: PaintedPath) -> list[tuple[Point, ...]]:
    return [sp for sp in path.subpaths if len(sp) == 6] if path.filled else []


def _board_form(page: PageVectors) -> str | None:
    """The form the cells are painted in."""
    counts: dict[str | None, int] = {}
    for path in page.paths:
        counts[path.form] = counts.get(path.form, 0) + len(_hexagons(path))
    return max(counts, key=lambda form: counts[form])


def _samples(path: PaintedPath) -> np.ndarray:
    """Points along every edge of the path and, if it is filled, across its inside."""
    points: list[Point] = []
    for sp in path.subpaths:
        ring = [*sp, sp[0]] if path.filled else list(sp)
        for (ax, ay), (bx, by) in zip(ring, ring[1:], strict=False):
            n = max(1, math.ceil(math.hypot(bx - ax, by - ay) / STEP_MM))
            points.extend((ax + (bx - ax) * k / n, ay + (by - ay) * k / n) for k in range(n + 1))
        if path.filled and len(sp) >= 3:
            xs, ys = [p[0] for p in sp], [p[1] for p in sp]
            for x in np.arange(min(xs), max(xs), 2 * STEP_MM):
                for y in np.arange(min(ys), max(ys), 2 * STEP_MM):
                    if _inside_polygon(sp, (float(x), float(y))):
                        points.append((float(x), float(y)))
    return np.array(points) if points else np.zeros((0, 2))


def _inside_polygon(polygon: tuple[Point, ...], point: Point) -> bool:
    px, py = point
    inside = False
    for k in range(len(polygon)):
        (x0, y0), (x1, y1) = polygon[k - 1], polygon[k]
        if (y0 > py) != (y1 > py) and x0 + (py - y0) * (x1 - x0) / (y1 - y0) > px:
            inside = not inside
    return inside


def marks_on_cells(page: PageVectors) -> list[str]:
    """Every painted path outside the board's form that lies on a cell the page keeps."""
    board = _board_form(page)
    cells = [h for path in page.paths if path.form == board for h in _hexagons(path)]
    centres = np.array([(sum(p[0] for p in h) / 6, sum(p[1] for p in h) / 6) for h in cells])
    radius = max(math.dist(cells[0][0], centres[0]), 1e-6)
    x0, y0, x1, y1 = page.trim
    found = []
    for path in page.paths:
        if path.form == board:
            continue
        points = _samples(path)
        if not len(points):
            continue
        kept = points[(points[:, 0] > x0 + MARGIN_MM) & (points[:, 0] < x1 - MARGIN_MM)
                      & (points[:, 1] > y0 + MARGIN_MM) & (points[:, 1] < y1 - MARGIN_MM)]
        for x, y in kept:
            near = np.nonzero(np.hypot(centres[:, 0] - x, centres[:, 1] - y) < radius)[0]
            if any(_inside_polygon(cells[i], (float(x), float(y))) for i in near):
                kind = "filled" if path.filled else "stroked"
                found.append(f"a {kind} mark ({path.form or 'page'}, {path.tag}) on a cell "
                             f"at ({x:.1f}, {y:.1f}) mm")
                break
    return found


def _place(page: PageVectors) -> tuple[int, int]:
    found = re.search(r"row (\d+) col (\d+)", page.text)
    assert found
    return int(found.group(1)), int(found.group(2))


@pytest.mark.parametrize(("game", "side", "cell", "paper"), [
    ("copolymer", 14, "15", "a4"), ("copolymer", 14, "15", "letter"), ("o", 9, "22", "a4")])
def test_print_marks_never_cover_a_cell_of_a_tiled_board(run_cli: RunCli, tmp_path: Path,
                                                         game: str, side: int, cell: str,
                                                         paper: str) -> None:
    out = tmp_path / "tiled.pdf"
    result = run_cli("board", game, "--side", str(side), "--cell-mm", cell, "--paper", paper,
                     "-o", str(out))
    assert result.code == 0, result.err
    pages = read_pages(out.read_bytes())
    assert len(pages) >= 4
    places = {_place(p) for p in pages}
    rows, cols = max(r for r, _ in places), max(c for _, c in places)
    assert rows > 1 and cols > 1
    for page in pages:
        assert marks_on_cells(page) == [], _place(page)
        row, col = _place(page)
        x0, y0, x1, y1 = page.trim
        board = _board_form(page)
        marks = [p for p in page.paths if p.form != board]
        # Not vacuous: the glue tabs are there, beside the board, along the whole seam.
        filled = [np.array([pt for sp in p.subpaths for pt in sp]) for p in marks if p.filled]
        if col < cols:
            assert any(abs(pts[:, 0].min() - x1) < 0.05 and
                       pts[:, 1].max() - pts[:, 1].min() >= 0.8 * (y1 - y0) for pts in filled)
        if row < rows:
            assert any(abs(pts[:, 1].max() - y0) < 0.05 and
                       pts[:, 0].max() - pts[:, 0].min() >= 0.8 * (x1 - x0) for pts in filled)
        # And the cut lines, dashed, on the edges the page is cut along.
        if col > 1:
            assert any(s.dashed and abs(s.a[0] - x0) < 0.05 and abs(s.b[0] - x0) < 0.05
                       for s in page.segments)


def test_the_check_finds_a_tab_drawn_over_the_board(monkeypatch: pytest.MonkeyPatch) -> None:
    """The measure itself can fail: a page whose tab lies on its last 8 mm of board."""
    pages = read_pages(bytes(boardgen.board("copolymer", "pdf", side=14, cell_mm=15.0)))
    page = next(p for p in pages if _place(p) == (1, 1))
    x0, y0, x1, y1 = page.trim
    tab = PaintedPath((((x1 - 8, y0), (x1, y0), (x1, y1), (x1 - 8, y1)),), True, True, None,
                      None)
    page.paths.append(tab)
    assert marks_on_cells(page)


# --- same-role neighbours in every theme --------------------------------------------------------

BASE = "game: copolymer\nboard: hexhex 3\n"
# role -> (diagram file, two neighbouring cells holding that role).  Players' colours and
# the O board's perimeter are the cells' own fills; the others are highlights, bands inside
# the cell's edge over whatever the cell holds, each one true of the position (a picture
# never shows what the engine denies) or the designer's tint.
NEIGHBOURS = {
    "player1": (BASE + "setup: C2 A1 C3 A2\npanel: p\n", ("C2", "C3")),
    "player2": (BASE + "setup: A1 C2 A2 C3\npanel: p\n", ("C2", "C3")),
    "empty": (BASE + "panel: p\n", ("C2", "C3")),
    "perimeter": ("game: o\nboard: hexhex 4\npanel: p\n", ("A2", "A3")),
    # O connects at C3 (touching B2 and B3) and goes on at C4: both placed in the turn.
    "new": (BASE + "setup: B2 C2 B3\npanel: p\nplace: C3 connection 2\nplace: C4\n"
            "highlight: new C3 C4\n", ("C3", "C4")),
    "legal": (BASE + "panel: p\nhighlight: legal C2 C3\n", ("C2", "C3")),
    "illegal": (BASE + "setup: C2 A1 C3 A2\npanel: p\nhighlight: illegal C2 C3\n",
                ("C2", "C3")),
    "connection": (BASE + "setup: D4 C2 C1 B1 E5 B4 A1 A2\npanel: p\n"
                   "highlight: connection B2 B3\n", ("B2", "B3")),
    "tint": (BASE + "panel: p\nhighlight: tint C2 C3\n", ("C2", "C3")),
}
THEMES = ("colour", "colourblind", "ink")
PX_PER_MM = 12


def luma(rgb: np.ndarray) -> np.ndarray:
    return rgb[..., 0] * 0.299 + rgb[..., 1] * 0.587 + rgb[..., 2] * 0.114


def _apothem(points: list[tuple[float, float]], cx: float, cy: float) -> float:
    """A regular hexagon's apothem: the distance from its centre to its sides' middles."""
    return min(math.hypot((ax + bx) / 2 - cx, (ay + by) / 2 - cy)
               for (ax, ay), (bx, by) in zip(points, points[1:] + points[:1], strict=True))


def edge_and_fill(svg: str, png: bytes, cells: tuple[str, str]) -> tuple[str, float, float]:
    """The role both cells show, the grey of what parts them and the grey of what the role
    paints.  For a cell's own fill: the mean grey along the middle of their shared edge,
    and of their insides.  For a highlight: the two bands, each inside its cell's edge, are
    parted by the strip between their outer rings (the bands' outlines, the cells' edge
    and whatever of the cells shows there); of the lines along that strip, the one that
    stands out most from the bands, and the mean grey of the bands beside the edge."""
    found = {m.group(2): (m.group(1), float(m.group(3)), float(m.group(4))) for m in
             re.finditer(r'<use class="cell ([\w-]+)" data-cell="(\w+)"[^>]* x="([\d.]+)" '
                         r'y="([\d.]+)"', svg)}
    bands = {m.group(2): (m.group(1), [tuple(float(v) for v in pt.split(","))
                                       for pt in m.group(3).split()])
             for m in re.finditer(r'<polygon class="highlight ([\w-]+)" data-cell="(\w+)" '
                                  r'points="([^"]+)"', svg)}
    (cell_a, xa, ya), (cell_b, xb, yb) = found[cells[0]], found[cells[1]]
    grey = luma(np.asarray(Image.open(io.BytesIO(png)).convert("RGB"), dtype=float))
    view = re.search(r'viewBox="0,0,([\d.]+),([\d.]+)"', svg)
    assert view
    sx, sy = grey.shape[1] / float(view.group(1)), grey.shape[0] / float(view.group(2))
    length = math.hypot(xb - xa, yb - ya)
    ux, uy = (xb - xa) / length, (yb - ya) / length  # from A's centre toward B's
    nx, ny = -uy, ux  # along the shared edge
    # The shared edge is as long as a side, length / sqrt(3); its middle half is sampled.
    side = length / math.sqrt(3)
    along = np.linspace(-side / 4, side / 4, 25)

    def line_at(depth: float) -> float:
        """The mean grey along the edge's middle half, ``depth`` mm from A's centre
        toward B's."""
        cx, cy = xa + ux * depth, ya + uy * depth
        return float(np.mean([grey[round((cy + ny * t) * sy), round((cx + nx * t) * sx)]
                              for t in along]))

    if cells[0] not in bands and cells[1] not in bands:
        assert cell_a == cell_b
        fill = [grey[round((cy + v) * sy), round((cx + u) * sx)] for cx, cy in
                ((xa, ya), (xb, yb)) for u in np.linspace(-side / 3, side / 3, 9)
                for v in np.linspace(-side / 3, side / 3, 9)]
        return cell_a, line_at(length / 2), float(np.mean(fill))
    (role_a, ring_a), (role_b, ring_b) = bands[cells[0]], bands[cells[1]]
    assert role_a == role_b
    # The band's polygon is its outer hexagon, then its inner one (an even-odd ring).
    outer, inner = _apothem(ring_a[:6], xa, ya), _apothem(ring_a[7:13], xa, ya)
    assert 0 < inner < outer <= length / 2 + 1e-6, (inner, outer)
    assert _apothem(ring_b[:6], xb, yb) == pytest.approx(outer)  # the same band in B
    width = outer - inner
    # The band's middle, clear of its outlines: in A, and as far into B.
    fill = [line_at(d) for d in np.linspace(inner + width / 5, outer - width / 5, 7)]
    fill += [line_at(length - d) for d in np.linspace(inner + width / 5, outer - width / 5, 7)]
    band = float(np.mean(fill))
    step = 1 / max(sx, sy)  # one pixel
    parting = [line_at(d) for d in np.arange(outer, length - outer + step / 2, step)]
    edge = max(parting, key=lambda g: abs(g - band))
    return role_a, edge, band


@pytest.mark.parametrize("theme", THEMES)
@pytest.mark.parametrize("role", sorted(NEIGHBOURS))
def test_neighbouring_cells_of_one_role_stay_apart_in_grey(tmp_path: Path, theme: str,
                                                           role: str) -> None:
    text, cells = NEIGHBOURS[role]
    path = tmp_path / "two.txt"
    path.write_text(text)
    diagram = boardgen.load_diagram(path)
    svg = str(boardgen.draw(diagram, "svg", theme=theme))
    pictures = {
        "svg": cairosvg.svg2png(bytestring=svg.encode(), dpi=PX_PER_MM * 25.4),
        "png": bytes(boardgen.draw(diagram, "png", theme=theme, dpi=round(PX_PER_MM * 25.4))),
    }
    for writer, png in pictures.items():
        drawn, edge, fill = edge_and_fill(svg, png, cells)
        assert drawn == role
        assert abs(edge - fill) >= GREY_STEP, (writer, f"edge {edge:.1f} fill {fill:.1f}")
