"""Figure -> PDF bytes at exact scale, on one page or tiled across several.

The figure is drawn once into a reportlab form (a PDF XObject) in millimetre units and
placed on every page with a clip, so a tiled board costs one board plus a few operators per
page.  Cells are written as raw path operators (``addLiteral``), one path per role, because
reportlab's path objects cost several times more per hexagon (bench/bench_render.py).
Every page carries a 50 mm scale bar and the cell size, so a user can check the printer did
not rescale.  ``invariant=1`` makes identical input give identical bytes.
"""

from __future__ import annotations

import functools
import io
import math
from collections.abc import Callable, Sequence

from reportlab import rl_config
from reportlab.lib.colors import HexColor
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from boardgen._version import __version__
from boardgen.i18n import N_, language_tag, tr, typography
from boardgen.i18n import number as decimal
from boardgen.render.figure import (
    PATTERN_SHARE,
    Area,
    Figure,
    Mark,
    Stroke,
    Text,
    arrow_head,
    cell_guidance,
    dot_outline,
    pattern_step,
    text_box,
    text_ink,
)
from boardgen.render.fonts import BOLD, PDF_FONT_NAMES, REGULAR, face, register_pdf_fonts
from boardgen.render.paper import (
    FOOTER_MM,
    HEADER_MM,
    MARGIN_MM,
    MARK_MM,
    TILE_FOOTER_MM,
    TILE_MARGIN_MM,
    Paper,
    Tiling,
    content_left,
    content_size,
    tile,
)
from boardgen.render.paper import (
    PageInfo as PageInfo,  # re-exported: it lived here before paper.py
)
from boardgen.render.scene import Theme
from boardgen.reproducible import check_source_date_epoch

# Streams are Flate-compressed only: ASCII85 on top made them a quarter larger and slower
# to write, for 7-bit-clean files nobody needs.  A reportlab setting, so the rule sheets
# (which import this module) follow it too.
rl_config.useA85 = 0

FORM_NAME = "board"
NO_INFO = PageInfo()  # a page with no title, subject or credit
SCALE_BAR_MM = 50.0
PT = 25.4 / 72.0  # one point in millimetres


def _n(v: float) -> str:
    return f"{v:.3f}"


def _hex_path(figure: Figure, cells: Sequence[tuple[float, float]]) -> str:
    (x0, y0), (x1, y1), (x2, y2), (x3, y3), (x4, y4), (x5, y5) = figure.hex_offsets
    return "".join(
        f"{x + x0:.3f} {y + y0:.3f} m {x + x1:.3f} {y + y1:.3f} l {x + x2:.3f} {y + y2:.3f} l "
        f"{x + x3:.3f} {y + y3:.3f} l {x + x4:.3f} {y + y4:.3f} l {x + x5:.3f} {y + y5:.3f} l h\n"
        for x, y in cells
    )


def _pattern_ops(kind: str, boxes: Sequence[tuple[float, float, float, float]],
                 step: float) -> str:
    """Path operators of a pattern over each box, on one lattice for the whole figure (so
    that it runs on seamlessly from cell to cell).  Dots are zero-length round-capped
    lines: one operator each instead of four curves."""
    ops: list[str] = []
    diagonal = step * math.sqrt(2.0)
    for x0, y0, x1, y1 in boxes:
        if kind == "dots":
            for i in range(math.floor(x0 / step), math.ceil(x1 / step) + 1):
                for j in range(math.floor(y0 / step), math.ceil(y1 / step) + 1):
                    x, y = (i + 0.5) * step, (j + 0.5) * step
                    ops.append(f"{_n(x)} {_n(y)} m {_n(x)} {_n(y)} l")
        if kind in ("hlines", "grid"):
            for j in range(math.floor(y0 / step), math.ceil(y1 / step) + 1):
                y = (j + 0.5 * PATTERN_SHARE[kind]) * step
                ops.append(f"{_n(x0)} {_n(y)} m {_n(x1)} {_n(y)} l")
        if kind in ("vlines", "grid"):
            for i in range(math.floor(x0 / step), math.ceil(x1 / step) + 1):
                x = (i + 0.5 * PATTERN_SHARE[kind]) * step
                ops.append(f"{_n(x)} {_n(y0)} m {_n(x)} {_n(y1)} l")
        if kind in ("hatch", "crosshatch"):
            # Rising to the right on the page (y grows downward): x + y constant.
            for k in range(math.floor((x0 + y0) / diagonal), math.ceil((x1 + y1) / diagonal) + 1):
                c = k * diagonal
                ops.append(f"{_n(c - y0)} {_n(y0)} m {_n(c - y1)} {_n(y1)} l")
        if kind in ("crosshatch", "backhatch"):
            # Falling to the right: x - y constant.
            for k in range(math.floor((x0 - y1) / diagonal), math.ceil((x1 - y0) / diagonal) + 1):
                c = k * diagonal
                ops.append(f"{_n(c + y0)} {_n(y0)} m {_n(c + y1)} {_n(y1)} l")
    return "\n".join(ops)


def _draw_pattern(c: Canvas, kind: str, boxes: Sequence[tuple[float, float, float, float]],
                  cell_width: float, theme: Theme) -> None:
    step = pattern_step(cell_width)
    share = PATTERN_SHARE[kind]
    c.setStrokeColor(HexColor(theme.line))
    c.setLineWidth(step * share * (2.0 if kind == "dots" else 1.0))
    c.setLineCap(1 if kind == "dots" else 0)
    c.addLiteral(_pattern_ops(kind, boxes, step) + " S")


def _draw_area(c: Canvas, area: Area, theme: Theme, cell_width: float) -> None:
    paint = theme.paint(area.role)
    path = " ".join(f"{_n(x)} {_n(y)} {'m' if k == 0 else 'l'}"
                    for k, (x, y) in enumerate(area.points)) + " h"
    c.setFillColor(HexColor(paint.fill))
    c.addLiteral(path + " f")
    if paint.pattern:
        xs = [x for x, _ in area.points]
        ys = [y for _, y in area.points]
        c.saveState()
        c.addLiteral(path + " W n")
        _draw_pattern(c, paint.pattern, [(min(xs), min(ys), max(xs), max(ys))], cell_width,
                      theme)
        c.restoreState()


def draw_figure(c: Canvas, figure: Figure, theme: Theme) -> None:
    """Draw in the current state, in millimetres with y growing downward."""
    # Each role's colour looked up once a figure (a theme asks the games' declarations
    # for roles of their own: every stroke and stone asked again).
    colour = functools.lru_cache(maxsize=None)(theme.colour)
    for area in figure.areas:
        _draw_area(c, area, theme, figure.cell_width)
    by_role: dict[str, list[tuple[float, float]]] = {}
    for cell in figure.cells:
        by_role.setdefault(cell.role, []).append((cell.x, cell.y))
    c.setLineJoin(1)
    for role in sorted(by_role):
        paint = theme.paint(role)
        outline = HexColor(paint.outline or theme.line)
        c.setStrokeColor(outline)
        c.setLineWidth(theme.line_width_mm)
        path = _hex_path(figure, by_role[role])
        c.setFillColor(HexColor(paint.fill))
        # Fill and stroke in one operator, so each hexagon is written once.  A later role's
        # fill covers half of a shared edge, and its own stroke draws that edge again.
        c.addLiteral(path + "B")
        if paint.pattern:
            r = figure.cell_width * 0.6
            c.saveState()
            c.addLiteral(path + "W n")
            _draw_pattern(c, paint.pattern, [(x - r, y - r, x + r, y + r)
                                             for x, y in by_role[role]],
                          figure.cell_width, theme)
            c.restoreState()
            c.setStrokeColor(outline)
            c.setLineWidth(theme.line_width_mm)
            c.addLiteral(path + "S")  # the pattern was drawn over the outline
    for overlay in figure.overlays:  # highlights: bands over the cells
        _draw_area(c, overlay, theme, figure.cell_width)
    for stroke in figure.strokes:
        if stroke.under:
            _draw_stroke(c, stroke, theme, colour)
    for mark in figure.marks:
        _draw_mark(c, mark, theme, colour)
    for stroke in figure.strokes:
        if not stroke.under and not stroke.arrow:
            _draw_stroke(c, stroke, theme, colour)
    # The SVG's layers: numbers, then arrows (above the rings and numbers they touch).
    for text in figure.texts:
        if text.role == "cell-text":
            _draw_text(c, text, text_ink(text, theme))
    for stroke in figure.strokes:
        if not stroke.under and stroke.arrow:
            _draw_stroke(c, stroke, theme, colour)
    for text in figure.texts:
        if text.role != "cell-text":
            _draw_text(c, text, text_ink(text, theme))


def _draw_mark(c: Canvas, m: Mark, theme: Theme,
               colour_of: Callable[[str], str] | None = None) -> None:
    colour = HexColor((colour_of or theme.colour)(m.role))
    if m.kind == "dot":
        radius, width = dot_outline(m, theme)
        c.setFillColor(colour)
        c.setStrokeColor(HexColor(theme.line))
        c.setLineWidth(width)
        pattern = theme.cells[m.role].pattern if m.role in theme.cells else None
        if pattern:  # a stone told apart by its pattern (ink)
            c.circle(m.x, m.y, radius, stroke=0, fill=1)
            c.saveState()
            disc = c.beginPath()
            disc.circle(m.x, m.y, radius)
            c.clipPath(disc, stroke=0, fill=0)
            _draw_pattern(c, pattern, [(m.x - radius, m.y - radius, m.x + radius,
                                        m.y + radius)], m.radius * 3.0, theme)
            c.restoreState()
            c.setStrokeColor(HexColor(theme.line))
            c.setLineWidth(width)
            c.circle(m.x, m.y, radius, stroke=1, fill=0)
            return
        c.circle(m.x, m.y, radius, stroke=1, fill=1)
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


def _draw_stroke(c: Canvas, s: Stroke, theme: Theme,
                 colour_of: Callable[[str], str] | None = None) -> None:
    colour = HexColor((colour_of or theme.colour)(s.role))
    c.setStrokeColor(colour)
    c.setFillColor(colour)
    c.setLineWidth(s.width)
    c.setLineCap(0 if s.dash else 1)
    if s.dash:
        c.setDash(s.dash, s.dash)
    path = c.beginPath()
    path.moveTo(*s.points[0])
    for point in s.points[1:]:
        path.lineTo(*point)
    c.drawPath(path, stroke=1, fill=0)
    if s.dash:
        c.setDash()
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
    c.drawString(0, 0, typography(t.text))
    c.restoreState()


# --- page furniture, in millimetres with y growing upward ------------------------------

# Under these marked-content tags the PDF says what a drawing is, so that a checker (and
# tests/pdfdata.py) can measure the scale bar and the seams as drawn.
SCALE_BAR_TAG = "ScaleBar"
SEAM_TAG = "Seam"
REGISTRATION_TAG = "Registration"
# The assembly instruction, longest first: each page prints the first that fits its width.
ASSEMBLY = (N_("To assemble: cut each page along its dashed lines; lay it on the tab of the page "
            "before (left, then above), cut edge on the solid line, half-crosses meeting into "
            "whole crosses; glue. Trim the outside at the crop marks."),
            N_("Cut the dashed lines; lay each page on the tab left of or above it, edge on the "
               "line, half-crosses meeting; glue."),
            N_("Cut the dashed lines; glue each page on its neighbour's tab, edge on the "
               "line."))  # translated where printed (tr)


def _page_text(c: Canvas, x: float, y: float, text: str, size_pt: float, colour: str,
               weight: str = REGULAR, anchor: str = "start") -> None:
    c.setFillColor(HexColor(colour))
    c.setFont(PDF_FONT_NAMES[weight], size_pt * PT)
    draw = {"start": c.drawString, "end": c.drawRightString, "middle": c.drawCentredString}
    draw[anchor](x, y, typography(text))


def _text_width(text: str, size_pt: float, weight: str = REGULAR) -> float:
    return float(face(weight).width_mm(text, size_pt * PT))


def draw_scale_bar(c: Canvas, x: float, y: float, theme: Theme, *, label: bool = True) -> None:
    """The 50 mm bar across the page, a tick every 10 mm, and its label, in millimetres
    (y up), starting at (x, y)."""
    c.addLiteral(f"/{SCALE_BAR_TAG} BMC")
    c.setStrokeColor(HexColor(theme.text))
    c.setLineWidth(0.3)
    c.setLineCap(0)
    c.line(x, y, x + SCALE_BAR_MM, y)
    for k in range(0, int(SCALE_BAR_MM) + 1, 10):
        tick = 2.5 if k in (0, int(SCALE_BAR_MM)) else 1.5
        c.line(x + k, y, x + k, y + tick)
    c.addLiteral("EMC")
    if label:
        _page_text(c, x + SCALE_BAR_MM + 2, y, "50 mm", 8, theme.text, BOLD)


def draw_vertical_scale_bar(c: Canvas, x: float, y: float, theme: Theme) -> None:
    """The 50 mm bar up the page from (x, y), ticks to its right, its label turned along
    it above: printers that scale only in the paper-feed direction show here."""
    c.addLiteral(f"/{SCALE_BAR_TAG} BMC")
    c.setStrokeColor(HexColor(theme.text))
    c.setLineWidth(0.3)
    c.setLineCap(0)
    c.line(x, y, x, y + SCALE_BAR_MM)
    for k in range(0, int(SCALE_BAR_MM) + 1, 10):
        tick = 2.5 if k in (0, int(SCALE_BAR_MM)) else 1.5
        c.line(x, y + k, x + tick, y + k)
    c.addLiteral("EMC")
    c.saveState()
    c.translate(x + 2.5, y + SCALE_BAR_MM + 2)
    c.rotate(90)
    _page_text(c, 0, 0, "50 mm", 8, theme.text, BOLD)
    c.restoreState()


# The vertical bar stands in its band inside the page's left margin (paper.BAR_BAND_MM),
# its ticks and turned label within the band.
VERTICAL_BAR_X_MM = MARGIN_MM + 0.2


def _scale_bar(c: Canvas, x: float, y: float, theme: Theme, unit: str, width: float) -> None:
    """The bar, what it checks, and (below) the unit of the figure, within ``width`` mm."""
    draw_scale_bar(c, x, y, theme)
    check = typography(tr("Print at 100 % (actual size): if a bar does not measure "
                          "{length} mm, the printer rescaled the page.").format(
                              length=f"{SCALE_BAR_MM:g}"))
    label = SCALE_BAR_MM + 14.0
    if _text_width(check, 8) > width - label:
        check = typography(tr("Print at 100 % (actual size)."))
    _page_text(c, x + label, y, check, 8, theme.muted)
    unit = unit[0].upper() + unit[1:] + "."
    if _text_width(unit, 8) > width:
        unit = unit.split(";")[0].split(", fits")[0] + "."
    _page_text(c, x, y - 4.2, unit, 8, theme.muted)


def draw_scale_check(c: Canvas, page: tuple[float, float], theme: Theme, unit: str) -> None:
    """A board page's scale check, in millimetres (y up): the 50 mm bar across the foot of
    the page with what it checks and the figure's unit, and a 50 mm bar up its left
    margin just above it."""
    bar_y = MARGIN_MM + 9.5
    _scale_bar(c, MARGIN_MM, bar_y, theme, unit, page[0] - 2 * MARGIN_MM)
    draw_vertical_scale_bar(c, VERTICAL_BAR_X_MM, MARGIN_MM + FOOTER_MM, theme)


def _place(c: Canvas, name: str, x: float, y: float) -> None:
    """Draw a form (drawn in millimetres from its own origin) with its origin at (x, y)."""
    c.saveState()
    c.translate(x, y)
    c.scale(1 / mm, 1 / mm)
    c.doForm(name)
    c.restoreState()


def _rgb(colour: str, stroke: bool) -> str:
    """The PDF operator that sets a colour, from #rrggbb."""
    r, g, b = (int(colour[k:k + 2], 16) / 255 for k in (1, 3, 5))
    return f"{r:.3f} {g:.3f} {b:.3f} {'RG' if stroke else 'rg'}"


def _half_cross(x: float, y: float, outward: tuple[float, float]) -> str:
    """Half a registration cross centred on a seam at (x, y): the half bar across the seam
    and the half ring on the side ``outward`` points to (the seam line is the other bar).
    The page on the other side prints the other half: laid together, the halves meet into
    a whole cross, and a page laid askew shows as a broken one."""
    ux, uy = outward
    vx, vy = -uy, ux  # along the seam

    def at(u: float, v: float) -> str:
        return f"{_n(x + u * ux + v * vx)} {_n(y + u * uy + v * vy)}"

    r, k = REGISTRATION_RADIUS_MM, 0.5523 * REGISTRATION_RADIUS_MM  # Bezier handle
    return (f"/{REGISTRATION_TAG} BMC {at(0, 0)} m {at(REGISTRATION_BAR_MM, 0)} l "
            f"{at(0, r)} m {at(k, r)} {at(r, k)} {at(r, 0)} c "
            f"{at(r, -k)} {at(k, -r)} {at(0, -r)} c S EMC")


REGISTRATION_RADIUS_MM = 1.2
TAB_TINT = 0.6  # how much of the tab's grey covers the board under it
REGISTRATION_BAR_MM = 2.0
MARK_OFFSET_MM = MARK_MM - 2.0  # a cross's centre, beyond the end of its seam


def registration_points(tiling: Tiling, row: int, col: int,
                        rect: tuple[float, float, float, float]
                        ) -> list[tuple[float, float, tuple[float, float]]]:
    """Where page (row, col) prints half-crosses, and which way each half faces: only where
    both halves survive the cutting and stay uncovered until their pages are joined.  A
    page is cut along its left and top edges, straight across, and laid on the pages
    before it, rows first: so a seam across the page keeps marks at its bottom end (and at
    its top end in the first row), a seam along it at the ends of the row only."""
    x0, y0, x1, y1 = rect
    d = MARK_OFFSET_MM
    last_col, last_row = col == tiling.cols - 1, row == tiling.rows - 1
    points = []
    for x, side, shared in ((x1, -1.0, not last_col), (x0, 1.0, col > 0)):
        if shared:  # a seam across: this page keeps the half on its own side
            points.append((x, y0 - d, (side, 0.0)))
            if row == 0:
                points.append((x, y1 + d, (side, 0.0)))
    for y, side, shared in ((y0, 1.0, not last_row), (y1, -1.0, row > 0)):
        if shared:
            if col == 0:
                points.append((x0 - d, y, (0.0, side)))
            if last_col:
                points.append((x1 + d, y, (0.0, side)))
    return points


def _tile_marks(c: Canvas, tiling: Tiling, row: int, col: int,
                rect: tuple[float, float, float, float], theme: Theme) -> None:
    """The glue tabs right and below (where a neighbour is: the board runs on under them,
    hatched), one line on each seam at the trim (dashed where the page is cut, solid where
    the neighbour's edge is laid), half-crosses beyond the seams' ends, and crop marks on
    the finished board's outer corners.  Written as one string of operators: this runs
    once per page."""
    x0, y0, x1, y1 = rect
    glue = tiling.glue
    number = row * tiling.cols + col + 1
    right, below = col + 1 < tiling.cols, row + 1 < tiling.rows
    goes_here = tr("glue: page {page} goes here")
    tabs = [(x1, y0, glue, y1 - y0, goes_here.format(page=number + 1), True)] * right + \
        [(x0, y0 - glue, x1 - x0, glue, goes_here.format(page=number + tiling.cols),
          False)] * below
    # The tabs tinted grey over the neighbour's board, which shows through: glue goes
    # here, and a page laid a little short shows board, not white.
    c.saveState()
    c.setFillColor(HexColor(theme.tab))
    c.setFillAlpha(TAB_TINT)
    for bx, by, bw, bh, _, _ in tabs:
        c.rect(bx, by, bw, bh, stroke=0, fill=1)
    c.restoreState()
    ops = ["q", "0.2 w", _rgb(theme.muted, True)]
    ops += [f"{_n(bx)} {_n(by)} {_n(bw)} {_n(bh)} re S" for bx, by, bw, bh, _, _ in tabs]
    seams = []  # (ax, ay, bx, by, dashed): the page is cut there unless it has the tab
    if col > 0:
        seams.append((x0, y0, x0, y1, True))
    if right:
        seams.append((x1, y0, x1, y1, False))
    if row > 0:
        seams.append((x0, y1, x1, y1, True))
    if below:
        seams.append((x0, y0, x1, y0, False))
    ops.append(_rgb(theme.text, True))
    reach = MARK_MM - 0.5
    for ax, ay, bx, by, dashed in seams:
        vertical = ax == bx
        ex, ey = (0.0, reach) if vertical else (reach, 0.0)
        ops.append(f"/{SEAM_TAG} BMC 0.25 w {'[2 1.5] 0 d' if dashed else ''} "
                   f"{_n(ax - ex)} {_n(ay - ey)} m {_n(bx + ex)} {_n(by + ey)} l S [] 0 d EMC")
    ops.append("0.15 w")
    ops += [_half_cross(x, y, outward) for x, y, outward in
            registration_points(tiling, row, col, rect)]
    # Crop marks on the corners of the finished board, to trim its outside last: nothing
    # else of a corner's page is cut or covered there.
    ops += ["0.2 w", _rgb(theme.muted, True)]
    first_row, first_col = row == 0, col == 0
    last_row, last_col = row == tiling.rows - 1, col == tiling.cols - 1
    for x, y, sx, sy, outer in ((x0, y0, -1, -1, last_row and first_col),
                                (x1, y0, 1, -1, last_row and last_col),
                                (x0, y1, -1, 1, first_row and first_col),
                                (x1, y1, 1, 1, first_row and last_col)):
        if outer:
            ops.append(f"{_n(x + sx)} {_n(y)} m {_n(x + sx * 4)} {_n(y)} l "
                       f"{_n(x)} {_n(y + sy)} m {_n(x)} {_n(y + sy * 4)} l S")
    ops.append("Q")
    c.addLiteral("\n".join(ops))
    for bx, by, bw, bh, label, turn in tabs:
        c.saveState()
        c.translate(bx + bw / 2, by + bh / 2)
        if turn:
            c.rotate(90)
        # On a paper-coloured box: the board runs on under the tab.
        width = _text_width(label, 8) + 2.0
        c.setFillColor(HexColor(theme.paper))
        c.rect(-width / 2, -2.3, width, 4.2, stroke=0, fill=1)
        _page_text(c, 0, -1.0, label, 8, theme.text, anchor="middle")
        c.restoreState()


def _canvas(page: tuple[float, float], info: PageInfo) -> tuple[Canvas, io.BytesIO]:
    check_source_date_epoch()  # reportlab reads it for the dates, and fails on a bad one
    register_pdf_fonts()
    buffer = io.BytesIO()
    # Start in our font: reportlab's default, Helvetica, would be referenced unembedded.
    c = Canvas(buffer, pagesize=(page[0] * mm, page[1] * mm), invariant=1, pageCompression=1,
               initialFontName=PDF_FONT_NAMES[REGULAR], lang=language_tag())
    c.setTitle(info.title or "boardgen")
    c.setAuthor(info.credit or "boardgen")
    c.setSubject(info.subject or "boardgen")
    c.setCreator(f"boardgen {__version__}")
    ask_for_actual_size(c)
    return c, buffer


def ask_for_actual_size(c: Canvas) -> None:
    """Ask the viewer's print dialogue for 100 % ("actual size") rather than fit-to-page."""
    c.setViewerPreference("PrintScaling", "None")


def _define_form(c: Canvas, name: str, figure: Figure, theme: Theme) -> None:
    """Draw the figure once into a named form, in millimetres with y growing downward."""
    c.beginForm(name, 0, 0, figure.width * mm, figure.height * mm)
    c.saveState()
    c.translate(0, figure.height * mm)
    c.scale(mm, -mm)
    draw_figure(c, figure, theme)
    c.restoreState()
    c.endForm()


def _tabs(tiling: Tiling, row: int, col: int, rect: tuple[float, float, float, float]
          ) -> list[tuple[float, float, float, float]]:
    """The glue tabs of a tiled page as (left, bottom, right, top), in page mm (y up)."""
    x0, y0, x1, y1 = rect
    glue = tiling.glue
    return [(x1, y0, x1 + glue, y1)] * (col + 1 < tiling.cols) + \
        [(x0, y0 - glue, x1, y0)] * (row + 1 < tiling.rows)


def _place_form(c: Canvas, name: str, figure: Figure, rect: tuple[float, float, float, float],
                origin: tuple[float, float],
                beyond: Sequence[tuple[float, float, float, float]] = ()) -> None:
    """Show the part of the form starting at board point ``origin`` (mm, from the figure's
    top-left) in page rectangle ``rect`` (mm, y up), clipped to it and to the rectangles
    ``beyond`` it (glue tabs, where the neighbouring tiles' board runs on)."""
    left, bottom, right, top = rect
    c.saveState()
    clip = c.beginPath()
    for x0, y0, x1, y1 in (rect, *beyond):
        clip.rect(x0, y0, x1 - x0, y1 - y0)
    c.clipPath(clip, stroke=0, fill=0)
    c.translate(left - origin[0], top - (figure.height - origin[1]))
    c.scale(1 / mm, 1 / mm)
    c.doForm(name)
    c.restoreState()


def render_pdf(figure: Figure, *, theme: Theme, paper: Paper, orientation: str = "auto",
               info: PageInfo = NO_INFO) -> bytes:
    """The figure at 1:1 on ``paper``; tiled across pages when it does not fit on one.

    Each page's TrimBox is exactly the part of the board it keeps: trimmed to it and butted
    together in the order the pages name, the pages give back the board."""
    boxes = [text_box(t) for t in figure.texts]
    tiling = tile((figure.width, figure.height), paper, orientation,
                  keep_clear=([(b[0], b[2]) for b in boxes], [(b[1], b[3]) for b in boxes]))
    c, buffer = _canvas(tiling.page, info)
    _define_form(c, FORM_NAME, figure, theme)
    if tiling.pages > 1:
        _define_tile_furniture(c, tiling, info, theme, _unit(figure, True))
    for row in range(tiling.rows):
        for col in range(tiling.cols):
            rect = tiling.trim(row, col)
            c.setTrimBox([v * mm for v in rect])
            c.saveState()
            c.scale(mm, mm)
            _place_form(c, FORM_NAME, figure, rect, tiling.tile_origin(row, col),
                        _tabs(tiling, row, col, rect))
            if tiling.pages > 1:
                _tile_marks(c, tiling, row, col, rect, theme)
                _tile_furniture(c, tiling, row, col, theme)
            else:
                _furniture(c, tiling.page, None, info, theme, _unit(figure, True))
            c.restoreState()
            c.showPage()
    c.save()
    return buffer.getvalue()


def render_pdf_fitted(figure: Figure, *, theme: Theme, info: PageInfo = NO_INFO) -> bytes:
    """The figure alone on one page exactly its size (boardgen.render.fit has cropped it to
    its ink and a margin), at 1:1: no header, footer or scale check of the page's own, and
    never tiled.  Its MediaBox, TrimBox and ArtBox are the page."""
    page = (figure.width, figure.height)
    c, buffer = _canvas(page, info)
    c.setTrimBox([0.0, 0.0, page[0] * mm, page[1] * mm])
    c.setArtBox([0.0, 0.0, page[0] * mm, page[1] * mm])
    c.saveState()
    c.scale(mm, mm)
    place_figure(c, page, figure, theme, name=FORM_NAME, at=(0.0, page[1]))
    c.restoreState()
    c.showPage()
    c.save()
    return buffer.getvalue()


def render_pdf_pages(pages: list[Figure], *, theme: Theme, paper: Paper,
                     orientation: str = "portrait", info: PageInfo = NO_INFO) -> bytes:
    """Each figure on a page of its own, at 1:1, centred in the room the page furniture
    leaves (diagrams, already paginated so that each fits)."""
    page = paper.size("landscape" if orientation == "landscape" else "portrait")
    room_w, room_h = content_size(page)
    c, buffer = _canvas(page, info)
    for number, figure in enumerate(pages, start=1):
        if figure.width > room_w + 1e-6 or figure.height > room_h + 1e-6:
            raise ValueError(f"page {number} figure {figure.width:.1f} x {figure.height:.1f} mm "
                             f"does not fit {room_w:.1f} x {room_h:.1f} mm")
        c.saveState()
        c.scale(mm, mm)
        place_figure(c, page, figure, theme, name=f"page{number}")
        where = tr("page {page} of {pages}").format(page=number, pages=len(pages)) \
            if len(pages) > 1 else None
        _furniture(c, page, where, info, theme, _unit(figure))
        c.restoreState()
        c.showPage()
    c.save()
    return buffer.getvalue()


def place_figure(c: Canvas, page: tuple[float, float], figure: Figure, theme: Theme, *,
                 name: str | None = None, at: tuple[float, float] | None = None) -> None:
    """Draw the figure at 1:1, centred in the room between the page's header and footer
    (in millimetres, y up), or with its top-left corner ``at``; as a named form when
    ``name`` is given."""
    if at is None:
        room_w, room_h = content_size(page)
        left = content_left() + (room_w - figure.width) / 2
        top = page[1] - MARGIN_MM - HEADER_MM - (room_h - figure.height) / 2
    else:
        left, top = at
    if name is not None:
        _define_form(c, name, figure, theme)
        _place_form(c, name, figure, (left, top - figure.height, left + figure.width, top),
                    (0.0, 0.0))
        return
    c.saveState()
    c.translate(left, top)
    c.scale(1, -1)
    draw_figure(c, figure, theme)
    c.restoreState()


def draw_page_title(c: Canvas, page: tuple[float, float], title: str, theme: Theme) -> None:
    """The title in a page's header, in millimetres (y up)."""
    _page_text(c, MARGIN_MM, page[1] - MARGIN_MM - 4.5, title, 12, theme.text, BOLD)


def _unit(figure: Figure, guidance: bool = False) -> str:
    """What the scale check says of the figure's unit; on a board, what its cells fit."""
    unit = figure.scale_note or tr("each cell {width} mm flat to flat").format(
        width=decimal(figure.cell_width))
    if guidance and not figure.scale_note:
        unit += f", {cell_guidance(figure.cell_width)}"
    return unit


def _furniture(c: Canvas, page: tuple[float, float], where: str | None, info: PageInfo,
               theme: Theme, unit: str) -> None:
    page_w, page_h = page
    header_y = page_h - MARGIN_MM - 4.5
    if info.title:
        draw_page_title(c, page, info.title, theme)
    if where:
        _page_text(c, page_w - MARGIN_MM, header_y, where, 9, theme.text, anchor="end")
    draw_scale_check(c, page, theme, unit)
    # The program's name and version are in the file's metadata, not on the page.
    parts = [part for part in (info.subject, info.note, info.credit) if part]
    footer = " · ".join(parts)
    if _text_width(footer, 8) > page_w - 2 * MARGIN_MM:  # the credit and note stay
        footer = " · ".join(part for part in (info.note, info.credit) if part)
    _page_text(c, MARGIN_MM, MARGIN_MM + 0.5, footer, 8, theme.muted)


def _map_size(tiling: Tiling) -> float:
    """The side of one page's square in the assembly map, which stays in the footer."""
    return min(3.5, 40.0 / tiling.cols, (TILE_FOOTER_MM - 1.0) / tiling.rows)


def _fitting(texts: Sequence[str], size_pt: float, width: float) -> str:
    """The first text that fits ``width`` mm, else the last."""
    return next((t for t in texts if _text_width(t, size_pt) <= width), texts[-1])


def _define_tile_furniture(c: Canvas, tiling: Tiling, info: PageInfo, theme: Theme,
                           unit: str) -> None:
    """What every page of a tiled board shows alike, drawn once as a form over the whole
    page: the title and credit, the assembly instruction, the scale bar with the cell size,
    and the assembly map with a square per page.  A page adds only what is its own, so its
    cost does not grow with the number of pages."""
    page_w, page_h = tiling.page
    c.beginForm("tile-furniture", 0, 0, page_w * mm, page_h * mm)
    c.saveState()
    c.scale(mm, mm)
    left, right = TILE_MARGIN_MM, page_w - TILE_MARGIN_MM
    header_y = page_h - TILE_MARGIN_MM - 3.5
    room = right - left - _text_width(_where(tiling, tiling.rows - 1, tiling.cols - 1), 9,
                                      BOLD) - 4.0
    title = info.title or ""
    if title and _text_width(title, 10, BOLD) <= room:
        _page_text(c, left, header_y, title, 10, theme.text, BOLD)
        room -= _text_width(title, 10, BOLD) + 3.0
        credit = info.credit or ""
        if credit and _text_width(credit, 8) <= room:
            _page_text(c, left + _text_width(title, 10, BOLD) + 3.0, header_y, credit, 8,
                       theme.muted)
    footer_top = TILE_MARGIN_MM + TILE_FOOTER_MM
    size = _map_size(tiling)
    map_left = right - size * tiling.cols
    assembly = tuple(typography(tr(said)) for said in ASSEMBLY)
    _page_text(c, left, footer_top - 3.0, _fitting(assembly, 8, map_left - 3.0 - left), 8,
               theme.text)
    bar_y = TILE_MARGIN_MM + 2.5
    draw_scale_bar(c, left, bar_y, theme)
    # Up the band left of the marks, from the footer.
    draw_vertical_scale_bar(c, TILE_MARGIN_MM + 0.5, TILE_MARGIN_MM + TILE_FOOTER_MM, theme)
    note_x = left + SCALE_BAR_MM + 14.0
    short = unit.split(tr(", fits"))[0]
    at_100 = tr("Print at 100 %: {unit}.")
    note = _fitting(tuple(typography(said) for said in (
        at_100.format(unit=unit), f"{unit}.", at_100.format(unit=short), f"{short}.")),
        8, map_left - 3.0 - note_x)
    _page_text(c, note_x, bar_y, note, 8, theme.muted)
    c.setLineWidth(0.2)
    c.setStrokeColor(HexColor(theme.muted))
    c.setFillColor(HexColor(theme.paper))
    bottom = TILE_MARGIN_MM
    c.rect(map_left, bottom, tiling.cols * size, tiling.rows * size, stroke=1, fill=1)
    ops = [f"{_n(map_left + k * size)} {_n(bottom)} m {_n(map_left + k * size)} "
           f"{_n(bottom + tiling.rows * size)} l" for k in range(1, tiling.cols)]
    ops += [f"{_n(map_left)} {_n(bottom + r * size)} m {_n(right)} {_n(bottom + r * size)} l"
            for r in range(1, tiling.rows)]
    if ops:
        c.addLiteral(" ".join(ops) + " S")
    c.restoreState()
    c.endForm()


def _where(tiling: Tiling, row: int, col: int) -> str:
    number = row * tiling.cols + col + 1
    return tr("page {page} of {pages}, row {row} col {col}").format(
        page=number, pages=tiling.pages, row=row + 1, col=col + 1)


def _tile_furniture(c: Canvas, tiling: Tiling, row: int, col: int, theme: Theme) -> None:
    """A tiled page's own furniture: the shared form, which page it is, and its square
    filled in on the assembly map."""
    page_w, page_h = tiling.page
    _place(c, "tile-furniture", 0.0, 0.0)
    _page_text(c, page_w - TILE_MARGIN_MM, page_h - TILE_MARGIN_MM - 3.5,
               _where(tiling, row, col), 9, theme.text, BOLD, anchor="end")
    size = _map_size(tiling)
    map_left = page_w - TILE_MARGIN_MM - size * tiling.cols
    c.setLineWidth(0.2)
    c.setStrokeColor(HexColor(theme.muted))
    c.setFillColor(HexColor(theme.accent))
    c.rect(map_left + col * size, TILE_MARGIN_MM + (tiling.rows - 1 - row) * size, size, size,
           stroke=1, fill=1)
