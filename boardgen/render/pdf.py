"""Figure -> PDF bytes at exact scale, on one page or tiled across several.

The figure is drawn once into a reportlab form (a PDF XObject) in millimetre units and
placed on every page with a clip, so a tiled board costs one board plus a few operators per
page.  Cells are written as raw path operators (``addLiteral``), one path per role, because
reportlab's path objects cost several times more per hexagon (bench/bench_render.py).
Every page carries a 50 mm scale bar and the cell size, so a user can check the printer did
not rescale.  ``invariant=1`` makes identical input give identical bytes.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass

from reportlab.lib.colors import HexColor
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from boardgen import __version__
from boardgen.render.figure import Figure, Mark, Stroke, Text, arrow_head, text_box
from boardgen.render.fonts import BOLD, PDF_FONT_NAMES, REGULAR, face, register_pdf_fonts
from boardgen.render.paper import (
    FOOTER_MM,
    HEADER_MM,
    MARGIN_MM,
    Paper,
    Tiling,
    content_size,
    tile,
)
from boardgen.render.scene import Theme

FORM_NAME = "board"
SCALE_BAR_MM = 50.0
PT = 25.4 / 72.0  # one point in millimetres


@dataclass(frozen=True)
class PageInfo:
    """What the page furniture says besides the board itself."""

    title: str | None = None
    subject: str | None = None  # e.g. "Copolymer board, hexhex side 10, 271 cells"
    credit: str | None = None  # e.g. "Copolymer by Mark Steere"


def _n(v: float) -> str:
    return f"{v:.3f}"


def _hex_path(figure: Figure, cells: Sequence[tuple[float, float]]) -> str:
    (x0, y0), (x1, y1), (x2, y2), (x3, y3), (x4, y4), (x5, y5) = figure.hex_offsets
    return "".join(
        f"{x + x0:.3f} {y + y0:.3f} m {x + x1:.3f} {y + y1:.3f} l {x + x2:.3f} {y + y2:.3f} l "
        f"{x + x3:.3f} {y + y3:.3f} l {x + x4:.3f} {y + y4:.3f} l {x + x5:.3f} {y + y5:.3f} l h\n"
        for x, y in cells
    )


def _draw_pattern(c: Canvas, kind: str, box: tuple[float, float, float, float],
                  step: float, theme: Theme) -> None:
    x0, y0, x1, y1 = box
    c.setStrokeColor(HexColor(theme.line))
    c.setFillColor(HexColor(theme.line))
    if kind == "hatch":
        c.setLineWidth(step * 0.16)
        ops = []
        span = (x1 - x0) + (y1 - y0)
        k = 0.0
        while k <= span:
            # Lines rising to the right on the page (y grows downward here).
            ops.append(f"{_n(x0 + k)} {_n(y0)} m {_n(x0 + k - (y1 - y0))} {_n(y1)} l")
            k += step
        c.addLiteral(" ".join(ops) + " S")
    else:
        y = y0 + step / 2
        while y < y1:
            x = x0 + step / 2
            while x < x1:
                c.circle(x, y, step * 0.14, stroke=0, fill=1)
                x += step
            y += step


def draw_figure(c: Canvas, figure: Figure, theme: Theme) -> None:
    """Draw in the current state, in millimetres with y growing downward."""
    by_role: dict[str, list[tuple[float, float]]] = {}
    for cell in figure.cells:
        by_role.setdefault(cell.role, []).append((cell.x, cell.y))
    c.setStrokeColor(HexColor(theme.line))
    c.setLineWidth(theme.line_width_mm)
    c.setLineJoin(1)
    for role in sorted(by_role):
        paint = theme.paint(role)
        path = _hex_path(figure, by_role[role])
        c.setFillColor(HexColor(paint.fill))
        # Fill and stroke in one operator, so each hexagon is written once.  A later role's
        # fill covers half of a shared edge, and its own stroke draws that edge again.
        c.addLiteral(path + "B")
        if paint.pattern:
            xs = [x for x, _ in by_role[role]]
            ys = [y for _, y in by_role[role]]
            r = figure.cell_width
            c.saveState()
            c.addLiteral(path + "W n")
            _draw_pattern(c, paint.pattern, (min(xs) - r, min(ys) - r, max(xs) + r,
                                             max(ys) + r), max(0.8, 0.14 * r), theme)
            c.restoreState()
            c.addLiteral(path + "S")  # the pattern was drawn over the outline
    for stroke in figure.strokes:
        if stroke.under:
            _draw_stroke(c, stroke, theme)
    for mark in figure.marks:
        _draw_mark(c, mark, theme)
    for stroke in figure.strokes:
        if not stroke.under:
            _draw_stroke(c, stroke, theme)
    for text in figure.texts:
        _draw_text(c, text, theme.colour(text.role))


def _draw_mark(c: Canvas, m: Mark, theme: Theme) -> None:
    colour = HexColor(theme.colour(m.role))
    if m.kind == "dot":
        c.setFillColor(colour)
        c.setStrokeColor(HexColor(theme.line))
        c.setLineWidth(theme.line_width_mm)
        c.circle(m.x, m.y, m.radius, stroke=1, fill=1)
    elif m.kind == "disc":
        c.setFillColor(HexColor(theme.paper))
        c.setStrokeColor(HexColor(theme.text))
        c.setLineWidth(m.radius * 0.12)
        c.circle(m.x, m.y, m.radius, stroke=1, fill=1)
    elif m.kind == "ring":
        c.setStrokeColor(colour)
        c.setLineWidth(m.radius * 0.22)
        c.circle(m.x, m.y, m.radius, stroke=1, fill=0)
    else:
        c.setStrokeColor(colour)
        c.setLineWidth(m.radius * 0.25)
        r = m.radius
        c.line(m.x - r, m.y - r, m.x + r, m.y + r)
        c.line(m.x - r, m.y + r, m.x + r, m.y - r)


def _draw_stroke(c: Canvas, s: Stroke, theme: Theme) -> None:
    colour = HexColor(theme.colour(s.role))
    c.setStrokeColor(colour)
    c.setFillColor(colour)
    c.setLineWidth(s.width)
    c.setLineCap(1)
    path = c.beginPath()
    path.moveTo(*s.points[0])
    for point in s.points[1:]:
        path.lineTo(*point)
    c.drawPath(path, stroke=1, fill=0)
    if s.arrow:
        head = c.beginPath()
        tip, left, right = arrow_head(s)
        head.moveTo(*tip)
        head.lineTo(*left)
        head.lineTo(*right)
        head.close()
        c.drawPath(head, stroke=0, fill=1)


def _draw_text(c: Canvas, t: Text, colour: str) -> None:
    """Text in the y-down millimetre frame: flip locally so the letters stand upright."""
    font = face(t.weight)
    x0 = text_box(t)[0]
    baseline = t.y + font.cap_height * t.size / font.units_per_em / 2
    c.saveState()
    c.translate(x0, baseline)
    c.scale(1, -1)
    c.setFillColor(HexColor(colour))
    c.setFont(PDF_FONT_NAMES[t.weight], t.size)
    c.drawString(0, 0, t.text)
    c.restoreState()


# --- page furniture, in millimetres with y growing upward ------------------------------


def _page_text(c: Canvas, x: float, y: float, text: str, size_pt: float, colour: str,
               weight: str = REGULAR, anchor: str = "start") -> None:
    c.setFillColor(HexColor(colour))
    c.setFont(PDF_FONT_NAMES[weight], size_pt * PT)
    draw = {"start": c.drawString, "end": c.drawRightString, "middle": c.drawCentredString}
    draw[anchor](x, y, text)


def _scale_bar(c: Canvas, x: float, y: float, theme: Theme, unit: str) -> None:
    c.setStrokeColor(HexColor(theme.text))
    c.setLineWidth(0.3)
    c.line(x, y, x + SCALE_BAR_MM, y)
    for k in range(0, int(SCALE_BAR_MM) + 1, 10):
        tick = 2.5 if k in (0, int(SCALE_BAR_MM)) else 1.5
        c.line(x + k, y, x + k, y + tick)
    _page_text(c, x + SCALE_BAR_MM + 2, y, "50 mm", 8, theme.text, BOLD)
    _page_text(c, x, y - 4.2,
               f"Scale check: the bar measures 50 mm and {unit}. If not, print at 100 % "
               "(actual size).", 7, theme.muted)


def _page_map(c: Canvas, tiling: Tiling, row: int, col: int, right: float, top: float,
              theme: Theme) -> None:
    size = min(3.5, 28.0 / tiling.cols, 9.0 / tiling.rows)
    x0 = right - size * tiling.cols
    c.setLineWidth(0.2)
    c.setStrokeColor(HexColor(theme.muted))
    for r in range(tiling.rows):
        for k in range(tiling.cols):
            current = (r, k) == (row, col)
            c.setFillColor(HexColor(theme.accent if current else theme.paper))
            c.rect(x0 + k * size, top - (r + 1) * size, size, size, stroke=1, fill=1)


def _registration(c: Canvas, x: float, y: float) -> None:
    c.line(x - 1.5, y, x + 1.5, y)
    c.line(x, y - 1.5, x, y + 1.5)
    c.circle(x, y, 0.8, stroke=1, fill=0)


def _tile_marks(c: Canvas, tiling: Tiling, row: int, col: int, rect: tuple[float, float,
                float, float], theme: Theme) -> None:
    """Crop marks at the tile's corners; dashed lines and registration marks where the
    overlap strips shared with neighbouring pages begin."""
    x0, y0, x1, y1 = rect
    c.setStrokeColor(HexColor(theme.muted))
    c.setLineWidth(0.2)
    for x, y, sx, sy in ((x0, y0, -1, -1), (x1, y0, 1, -1), (x0, y1, -1, 1), (x1, y1, 1, 1)):
        c.line(x + sx * 1, y, x + sx * 4, y)
        c.line(x, y + sy * 1, x, y + sy * 4)
    overlap = tiling.overlap
    page_no = row * tiling.cols + col + 1
    lines: list[tuple[float, float, float, float, str]] = []
    if col + 1 < tiling.cols:
        lines.append((x1 - overlap, y0, x1 - overlap, y1, f"overlap with page {page_no + 1}"))
    if col > 0:
        lines.append((x0 + overlap, y0, x0 + overlap, y1, f"overlap with page {page_no - 1}"))
    if row + 1 < tiling.rows:
        lines.append((x0, y0 + overlap, x1, y0 + overlap,
                      f"overlap with page {page_no + tiling.cols}"))
    if row > 0:
        lines.append((x0, y1 - overlap, x1, y1 - overlap,
                      f"overlap with page {page_no - tiling.cols}"))
    for ax, ay, bx, by, label in lines:
        c.setDash(1.5, 1.5)
        c.line(ax, ay, bx, by)
        c.setDash()
        vertical = ax == bx
        for px, py in ((ax, ay), (bx, by)):
            offset = 3.0 if (py == y1 or px == x1) else -3.0
            _registration(c, px, py + offset) if vertical else _registration(c, px + offset, py)
        c.saveState()
        if vertical:
            c.translate(ax + 1.2, (ay + by) / 2)
            c.rotate(90)
        else:
            c.translate((ax + bx) / 2, ay + 1.2)
        _page_text(c, 0, 0, label, 6, theme.muted, anchor="middle")
        c.restoreState()


def _canvas(page: tuple[float, float], info: PageInfo) -> tuple[Canvas, io.BytesIO]:
    register_pdf_fonts()
    buffer = io.BytesIO()
    # Start in our font: reportlab's default, Helvetica, would be referenced unembedded.
    c = Canvas(buffer, pagesize=(page[0] * mm, page[1] * mm), invariant=1, pageCompression=1,
               initialFontName=PDF_FONT_NAMES[REGULAR])
    c.setTitle(info.title or "boardgen")
    c.setAuthor(info.credit or "boardgen")
    c.setSubject(info.subject or "")
    c.setCreator(f"boardgen {__version__}")
    return c, buffer


def _define_form(c: Canvas, name: str, figure: Figure, theme: Theme) -> None:
    """Draw the figure once into a named form, in millimetres with y growing downward."""
    c.beginForm(name, 0, 0, figure.width * mm, figure.height * mm)
    c.saveState()
    c.translate(0, figure.height * mm)
    c.scale(mm, -mm)
    draw_figure(c, figure, theme)
    c.restoreState()
    c.endForm()


def _place_form(c: Canvas, name: str, figure: Figure, rect: tuple[float, float, float, float],
                origin: tuple[float, float]) -> None:
    """Show the part of the form starting at board point ``origin`` (mm, from the figure's
    top-left) in page rectangle ``rect`` (mm, y up), clipped to it."""
    left, bottom, right, top = rect
    c.saveState()
    clip = c.beginPath()
    clip.rect(left, bottom, right - left, top - bottom)
    c.clipPath(clip, stroke=0, fill=0)
    c.translate(left - origin[0], top - (figure.height - origin[1]))
    c.scale(1 / mm, 1 / mm)
    c.doForm(name)
    c.restoreState()


def render_pdf(figure: Figure, *, theme: Theme, paper: Paper, orientation: str = "auto",
               info: PageInfo = PageInfo()) -> bytes:
    """The figure at 1:1 on ``paper``; tiled across pages when it does not fit on one."""
    tiling = tile((figure.width, figure.height), paper, orientation)
    page_w, page_h = tiling.page
    c, buffer = _canvas(tiling.page, info)
    _define_form(c, FORM_NAME, figure, theme)
    room_w, room_h = content_size(tiling.page)
    for row in range(tiling.rows):
        for col in range(tiling.cols):
            c.saveState()
            c.scale(mm, mm)
            left = MARGIN_MM + (room_w - tiling.tile_width) / 2
            top = page_h - MARGIN_MM - HEADER_MM - (room_h - tiling.tile_height) / 2
            rect = (left, top - tiling.tile_height, left + tiling.tile_width, top)
            _place_form(c, FORM_NAME, figure, rect, tiling.tile_origin(row, col))
            if tiling.pages > 1:
                _tile_marks(c, tiling, row, col, rect, theme)
                number = row * tiling.cols + col + 1
                where = f"page {number} of {tiling.pages}, row {row + 1} col {col + 1}"
                _page_map(c, tiling, row, col, page_w - MARGIN_MM, MARGIN_MM + FOOTER_MM - 2,
                          theme)
            else:
                where = None
            _furniture(c, tiling.page, where, info, theme, _unit(figure))
            c.restoreState()
            c.showPage()
    c.save()
    return buffer.getvalue()


def render_pdf_pages(pages: list[Figure], *, theme: Theme, paper: Paper,
                     orientation: str = "portrait", info: PageInfo = PageInfo()) -> bytes:
    """Each figure on a page of its own, at 1:1, top-centred (diagrams, already paginated
    so that each fits)."""
    page = paper.size("landscape" if orientation == "landscape" else "portrait")
    room_w, room_h = content_size(page)
    c, buffer = _canvas(page, info)
    for number, figure in enumerate(pages, start=1):
        if figure.width > room_w + 1e-6 or figure.height > room_h + 1e-6:
            raise ValueError(f"page {number} figure {figure.width:.1f} x {figure.height:.1f} mm "
                             f"does not fit {room_w:.1f} x {room_h:.1f} mm")
        name = f"page{number}"
        _define_form(c, name, figure, theme)
        c.saveState()
        c.scale(mm, mm)
        left = MARGIN_MM + (room_w - figure.width) / 2
        top = page[1] - MARGIN_MM - HEADER_MM
        _place_form(c, name, figure, (left, top - figure.height, left + figure.width, top),
                    (0.0, 0.0))
        where = f"page {number} of {len(pages)}" if len(pages) > 1 else None
        _furniture(c, page, where, info, theme, _unit(figure))
        c.restoreState()
        c.showPage()
    c.save()
    return buffer.getvalue()


def _unit(figure: Figure) -> str:
    return figure.scale_note or f"each cell {figure.cell_width:.1f} mm flat to flat"


def _furniture(c: Canvas, page: tuple[float, float], where: str | None, info: PageInfo,
               theme: Theme, unit: str) -> None:
    page_w, page_h = page
    header_y = page_h - MARGIN_MM - 4.5
    if info.title:
        _page_text(c, MARGIN_MM, header_y, info.title, 12, theme.text, BOLD)
    if where:
        _page_text(c, page_w - MARGIN_MM, header_y, where, 9, theme.text, anchor="end")
    _scale_bar(c, MARGIN_MM, MARGIN_MM + 9.5, theme, unit)
    footer = " · ".join(part for part in (info.subject, info.credit) if part)
    footer += (" · " if footer else "") + f"boardgen {__version__}"
    _page_text(c, MARGIN_MM, MARGIN_MM + 0.5, footer, 7, theme.muted)
