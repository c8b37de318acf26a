"""The printer check: one page to print before anything else, and measure.

A 100 mm bar across and one down (printers often scale in the paper-feed direction only), a
50 mm square, a cell of each size ``--cell-mm`` suggests with the piece it fits drawn in it,
grey steps 40 levels apart (the least the themes put between roles a player must tell
apart), what to do when a bar is off, and (where the paper leaves room) a list to tick and
lines to note the settings that printed true.  The page speaks to the player: it never
names the program.  Drawn directly with reportlab in
millimetres; the bars are tagged as the boards' scale bars are, so that a checker can
measure them from the PDF.
"""

from __future__ import annotations

import io
import math
import re

from boardgen._version import __version__
from boardgen.i18n import N_, decimal_commas, language_tag, tr, typography
from boardgen.render.figure import wrap
from boardgen.render.fonts import BOLD, REGULAR, face
from boardgen.render.paper import MARGIN_MM, Paper

BAR_MM = 100.0
SQUARE_MM = 50.0
BAR_TAG = "ScaleBar"  # as on every board page
SQUARE_TAG = "Square"
CELL_TAG = "Cell"
# The cell sizes `boardgen board --help` suggests, and the round piece each fits (a round
# piece fits a cell 1 mm wider than it).
CELL_SIZES = ((9.0, N_("8 mm beads")), (13.0, N_("12 mm glass counters")),
              (16.0, N_("15 mm counters or coins")), (23.0, N_("Go stones (22 mm)")))
# From white down, 40 grey levels apart (of 255).
GREY_STEPS = tuple(255 - 40 * k for k in range(7))
MIN_PAPER_MM = (148.0, 210.0)  # A5: what the page is laid out on at the least
PT = 25.4 / 72

OFF_BAR = N_("If a bar is not 100 mm, the page was scaled: print it again at "
           "\u201cActual size\u201d (100 %), with \u201cFit to page\u201d and "
           "\u201cShrink oversized pages\u201d off. If "
           "only one bar is off, the printer stretches in one direction (most often the "
           "paper feed, the bar down): look for a scaling or paper-size setting in the "
           "printer\u2019s own dialogue, or print from another program: no file can "
           "correct it.")  # the page's words: translated where printed (tr)
GREYS_NOTE = N_("Neighbouring steps are 40 grey levels apart, the least our boards and rules "
              "put between things you must tell apart. If two neighbours print alike, print "
              "the boards and rules in black ink only (lines and patterns, no greys).")
CHECKS = (N_("The bar across measures 100 mm from 0 to 100."),
          N_("The bar down measures 100 mm from 0 to 100."),
          N_("The square measures 50 mm each way."),
          N_("Each grey step looks different from its neighbours."),
          N_("Your pieces fit the cells drawn for them."))
NOTES = (N_("Printer"), N_("Program and paper"), N_("Scale setting that printed true"))
FOOTER_PT = 8.5  # as the rule sheets' footers


def _paper_words(paper: Paper) -> str:
    """'A4', 'Letter', '148x210mm': a paper's name as it is printed."""
    name = paper.name
    return name.upper() if re.fullmatch(r"[abc]\d+", name) else name[:1].upper() + name[1:]


def check_calibration_paper(paper: Paper) -> None:
    from boardgen.errors import BoardgenError

    short, long = sorted((paper.width, paper.height))
    if short < MIN_PAPER_MM[0] or long < MIN_PAPER_MM[1]:
        raise BoardgenError(f"paper {paper.name} is too small for the printer check: at least "
                            f"{MIN_PAPER_MM[0]:g} x {MIN_PAPER_MM[1]:g} mm (A5)")


def render_calibration(*, paper: Paper) -> bytes:
    """The printer check page as PDF bytes, portrait on ``paper``."""
    from reportlab.lib.colors import Color, HexColor
    from reportlab.lib.units import mm
    from reportlab.pdfgen.canvas import Canvas

    from boardgen.render.fonts import PDF_FONT_NAMES, register_pdf_fonts
    from boardgen.render.pdf import ask_for_actual_size

    check_calibration_paper(paper)
    register_pdf_fonts()
    width, height = paper.size("portrait")
    buffer = io.BytesIO()
    c = Canvas(buffer, pagesize=(width * mm, height * mm), invariant=1, pageCompression=1,
               initialFontName=PDF_FONT_NAMES[REGULAR], lang=language_tag())
    c.setTitle(tr("boardgen printer check"))
    c.setAuthor("boardgen")
    c.setSubject(tr("Printer check: 100 mm bars across and down, a 50 mm square, cells and "
                    "grey steps ({paper})").format(paper=paper.name))
    c.setCreator(f"boardgen {__version__}")
    ask_for_actual_size(c)
    c.scale(mm, mm)
    ink = HexColor("#000000")

    def text(x: float, y: float, words: str, size_pt: float, weight: str = REGULAR,
             anchor: str = "start", turned: bool = False) -> None:
        c.saveState()
        c.translate(x, y)
        if turned:
            c.rotate(90)
        c.setFillColor(ink)
        c.setFont(PDF_FONT_NAMES[weight], size_pt * PT)
        {"start": c.drawString, "middle": c.drawCentredString,
         "end": c.drawRightString}[anchor](0, 0, typography(words))
        c.restoreState()

    def paragraph(x: float, y: float, words: str, size_pt: float, room: float) -> float:
        """Wrapped from (x, y) down; returns the y under it."""
        for line in wrap(typography(words), size_pt * PT, room):
            text(x, y, line, size_pt)
            y -= 1.4 * size_pt * PT
        return y

    left, right = MARGIN_MM, width - MARGIN_MM
    room = right - left
    top = height - MARGIN_MM
    text(left, top - 5.0, tr("Printer check"), 16, BOLD)
    y = paragraph(left, top - 11.0, tr("Print this page at 100 % (\u201cActual size\u201d), "
                                       "then measure the bars and the square with a ruler."),
                  10, room)

    # The bar across, ticks every 5 mm and numbers every 10.
    bar_left = left + 14.0
    bar_y = y - 10.0
    c.setStrokeColor(ink)
    c.setLineCap(0)
    c.addLiteral(f"/{BAR_TAG} BMC")
    c.setLineWidth(0.3)
    c.line(bar_left, bar_y, bar_left + BAR_MM, bar_y)
    for k in range(0, int(BAR_MM) + 1, 5):
        c.line(bar_left + k, bar_y, bar_left + k, bar_y + (3.0 if k % 10 == 0 else 1.8))
    c.addLiteral("EMC")
    for k in range(0, int(BAR_MM) + 1, 10):
        text(bar_left + k, bar_y + 4.0, str(k), 8.0, anchor="middle")
    label = tr("100 mm across")
    if bar_left + BAR_MM + 3.0 + face(BOLD).width_mm(label, 9 * PT) <= right:
        text(bar_left + BAR_MM + 3.0, bar_y - 1.0, label, 9, BOLD)
    else:  # narrow paper: under the bar's end
        text(bar_left + BAR_MM, bar_y - 4.5, label, 9, BOLD, anchor="end")

    # The bar down, along the left margin, from under the bar across.
    down_top = bar_y - 9.0
    down_x = left + 2.0
    c.addLiteral(f"/{BAR_TAG} BMC")
    c.line(down_x, down_top, down_x, down_top - BAR_MM)
    for k in range(0, int(BAR_MM) + 1, 5):
        c.line(down_x, down_top - k, down_x + (3.0 if k % 10 == 0 else 1.8), down_top - k)
    c.addLiteral("EMC")
    for k in range(0, int(BAR_MM) + 1, 10):
        text(down_x + 4.0, down_top - k - 1.0, str(k), 8.0)
    text(down_x - 1.5, down_top - BAR_MM - 5.0, tr("100 mm down"), 9, BOLD)

    # Right of the bar down: the 50 mm square, the grey steps under it, the cells beside.
    square_left = bar_left
    c.addLiteral(f"/{SQUARE_TAG} BMC")
    c.setLineWidth(0.3)
    square = c.beginPath()  # four lines (not a rectangle operator): a checker reads them
    square.moveTo(square_left, down_top)
    for dx, dy in ((SQUARE_MM, 0.0), (SQUARE_MM, -SQUARE_MM), (0.0, -SQUARE_MM)):
        square.lineTo(square_left + dx, down_top + dy)
    square.close()
    c.drawPath(square, stroke=1, fill=0)
    c.addLiteral("EMC")
    text(square_left + SQUARE_MM / 2, down_top - SQUARE_MM / 2 - 1.2, tr("50 mm square"), 9,
         BOLD, anchor="middle")

    grey_top = down_top - SQUARE_MM - 8.0
    text(square_left, grey_top, tr("Grey steps"), 9, BOLD)
    step_w = SQUARE_MM / len(GREY_STEPS)
    for k, level in enumerate(GREY_STEPS):
        gx = square_left + k * step_w
        c.setFillColor(Color(level / 255, level / 255, level / 255))
        c.setStrokeColor(ink)
        c.setLineWidth(0.2)
        c.rect(gx, grey_top - 13.0, step_w, 10.0, stroke=1, fill=1)
        text(gx + step_w / 2, grey_top - 16.5, f"{level}", 8.0, anchor="middle")
    paragraph(square_left, grey_top - 21.0, tr(GREYS_NOTE), 8, SQUARE_MM)

    x = square_left + SQUARE_MM + 6.0
    text(x, down_top - 2.5, tr("Cells, and what fits them"), 9, BOLD)
    row_y = down_top - 5.0
    for cell, piece in CELL_SIZES:
        # Pointed at the top, as on the boards: ``cell`` across its flat sides.
        radius = cell / math.sqrt(3)
        cx, cy = x + cell / 2, row_y - radius
        corners = [(cx + radius * math.cos(math.radians(30 + 60 * k)),
                    cy + radius * math.sin(math.radians(30 + 60 * k))) for k in range(6)]
        c.addLiteral(f"/{CELL_TAG} BMC")
        path = c.beginPath()
        path.moveTo(*corners[0])
        for point in corners[1:]:
            path.lineTo(*point)
        path.close()
        c.setStrokeColor(ink)
        c.setLineWidth(0.25)
        c.drawPath(path, stroke=1, fill=0)
        c.addLiteral("EMC")
        c.setDash(0.8, 0.6)
        c.circle(cx, cy, (cell - 1.0) / 2, stroke=1, fill=0)
        c.setDash()
        # Named by what it fits, and its size in words: no command-line option on paper.
        text(x + cell + 2.5, cy + 0.6, tr("for {piece}").format(piece=tr(piece)), 9, BOLD)
        text(x + cell + 2.5, cy - 3.4, tr("cells of {size} mm").format(
            size=decimal_commas(f"{cell:g}")), 8)
        row_y -= 2 * radius + 2.5
    paragraph(x, row_y - 1.5, tr("Dashed: the piece, 1 mm narrower than its cell."), 8,
              right - x)

    # What to do when a bar is off.
    y = down_top - BAR_MM - 14.0
    text(left, y, tr("When a bar is off"), 9, BOLD)
    y = paragraph(left, y - 5.0, tr(OFF_BAR), 9, room)
    last_baseline = y + 1.4 * 9 * PT
    # The rest of the page, where there is room: a list to tick, then lines to write on.
    floor = MARGIN_MM + 12.0  # above the footer
    if y - 10.0 - 9.0 * len(CHECKS) >= floor:
        y -= 7.0
        text(left, y, tr("Before you print a board, tick"), 9, BOLD)
        y -= 1.5
        for check in CHECKS:
            y -= 9.0
            c.setStrokeColor(ink)
            c.setLineWidth(0.3)
            c.rect(left, y - 1.0, 4.5, 4.5, stroke=1, fill=0)
            text(left + 8.0, y, tr(check), 9)
        last_baseline = y
    if y - 10.0 - 12.0 >= floor:
        y -= 11.0
        text(left, y, tr("What printed true, for next time"), 9, BOLD)
        for label in NOTES:
            if y - 12.0 < floor:
                break
            y -= 12.0
            text(left, y, tr(label), 9)
            c.setLineWidth(0.25)
            c.line(left + 58.0, y - 0.8, right, y - 0.8)
            last_baseline = y
    # The footer as on the rule sheets: what the page is, left; its page number, right.
    c.setFillColor(HexColor("#2e2e2e"))
    c.setFont(PDF_FONT_NAMES[REGULAR], FOOTER_PT * PT)
    c.drawString(left, MARGIN_MM + 0.5, tr("Printer check for {paper} paper").format(
        paper=_paper_words(paper)))
    c.drawRightString(right, MARGIN_MM + 0.5, tr("page {page} of {pages}").format(page=1,
                                                                                  pages=1))
    if last_baseline < MARGIN_MM + 5.0:  # not from A5 up; a page that overflows is a bug
        raise AssertionError(f"the printer check overflows {paper.name} paper")
    c.showPage()
    c.save()
    return buffer.getvalue()
