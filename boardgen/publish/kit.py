"""A print-and-play kit: one PDF per game with everything needed to play, in printing order.

The rule sheet, its one-page quick reference, the board(s), and what the game needs
besides, as its :class:`boardgen.games.protocol.Kit` says: Copolymer is played with pens,
so its kit has the play-by-email server's three boards to write on and a note on pens; O
needs stones, so its kit has a sheet of stones sized to the board's cells; Polygone needs
pieces and a count of captures, so its kit has the board, the pieces and a capture tracker.

Each part is made by the function that makes it on its own (the sheet is bytes from the
sheet typesetter, whatever that is), then the parts are joined with pypdf: the kit keeps
``PrintScaling /None`` and its own metadata, has a bookmark per part, and identical input
gives identical bytes (nothing from the clock).
"""

from __future__ import annotations

import io
import math
from collections.abc import Sequence
from dataclasses import dataclass

from boardgen._version import __version__
from boardgen.errors import BoardgenError
from boardgen.games.protocol import Game, KitNote, Tracker
from boardgen.games.registry import game_named
from boardgen.render.board import BoardOptions, build_figure, render_board
from boardgen.render.figure import MIN_PRINT_TEXT_MM, Figure, Mark, Stroke, Text, wrap
from boardgen.render.fonts import BOLD, REGULAR
from boardgen.render.paper import PageInfo, Paper, content_size
from boardgen.render.scene import Theme

PART_KINDS = ("rules", "quick reference", "board", "pieces", "stones", "tracker", "note")
NBSP_MM = "\u00a0mm"  # a number never parts from its unit


@dataclass(frozen=True)
class Part:
    """A part of a kit: its bookmark, what kind of pages it holds, and its PDF."""

    title: str
    kind: str  # one of PART_KINDS; a board file's pieces page is told apart by kit_pages
    pdf: bytes


def kit_file_name(game: str) -> str:
    return f"{game}-kit.pdf"


def kit_parts(game: str, *, paper: Paper, theme: Theme) -> list[Part]:
    """Every part of a game's kit, in printing order."""
    from boardgen.publish.sheet import check_sheet_paper
    from boardgen.publish.typeset import render_sheet_pdf

    check_sheet_paper(paper)
    description = game_named(game)
    if not description.has_sheet():
        raise BoardgenError(f"{description.name} has no rule sheet, so no kit")
    kit = description.kit
    # The sheet without its own board pages: the board files follow it.
    parts = [Part(f"{description.name}: rules", "rules",
                  render_sheet_pdf(game, paper=paper, theme=theme, board=False)),
             Part(f"{description.name}: quick reference", "quick reference",
                  render_sheet_pdf(game, paper=paper, theme=theme, quick=True))]
    fixed = description.fixed_board
    boards = description.hex_boards
    if fixed is not None:
        from boardgen.render.lattice import render_fixed_board

        what = "board and pieces" if fixed.strips is not None else "board"
        parts.append(Part(f"{description.name}: {what}", "board",
                          render_fixed_board(fixed, "pdf", paper=paper, theme=theme,
                                             spacing=None, dpi=150,
                                             info=description.board_info())))
    elif boards is not None:
        for side, label in kit.boards or ((boards.default_side, None),):
            parts.append(_board_part(description, side, label, paper, theme))
        if kit.stones:
            grid = description.hex_board()
            cell = build_figure(description.board_scene(grid), BoardOptions(paper)).cell_width
            parts.append(Part(f"{description.name}: stones to cut out", "stones",
                              _stones_pdf(description, cell, len(grid), paper, theme)))
    if kit.tracker is not None:
        parts.append(Part(f"{description.name}: capture tracker", "tracker",
                          _tracker_pdf(description, kit.tracker, paper, theme)))
    if kit.note is not None:
        parts.append(Part(f"{description.name}: {kit.note.title[:1].lower()}"
                          f"{kit.note.title[1:]}", "note",
                          _note_pdf(description, kit.note, paper, theme)))
    return parts


def _board_part(description: Game, side: int, label: str | None, paper: Paper,
                theme: Theme) -> Part:
    grid = description.hex_board(side)
    title = f"{description.name} ({label})" if label else None
    info = description.board_info(grid, title)
    pdf = render_board(description.board_scene(grid), "pdf", BoardOptions(paper),
                       theme=theme, info=info)
    name = f"{description.name}: board, side {side}" + (f" ({label})" if label else "")
    return Part(name, "board", pdf)


def render_kit(game: str, *, paper: Paper, theme: Theme) -> bytes:
    """The game's kit as one PDF."""
    description = game_named(game)
    info = PageInfo(f"{description.name}: print-and-play kit",
                    f"{description.name}, everything to play: rules, quick reference, "
                    "board and what the game needs besides", description.credit)
    return join_parts(kit_parts(game, paper=paper, theme=theme), info)


def join_parts(parts: Sequence[Part], info: PageInfo) -> bytes:
    """The parts' pages in order, as one PDF: a bookmark per part (the rule sheet's own
    bookmarks under its), asking the print dialogue for 100 %, with ``info`` as its
    metadata.  Deterministic: pypdf writes no date or random file identifier."""
    from pypdf import PdfReader, PdfWriter
    from pypdf.generic import NameObject

    writer = PdfWriter()
    for part in parts:
        writer.append(PdfReader(io.BytesIO(part.pdf)), outline_item=part.title)
    writer.add_metadata({"/Title": info.title or "boardgen", "/Author": info.credit or "boardgen",
                         "/Subject": info.subject or "boardgen",
                         "/Creator": f"boardgen {__version__}",
                         "/Producer": f"boardgen {__version__} (pypdf)"})
    preferences = writer.create_viewer_preferences()
    preferences[NameObject("/PrintScaling")] = NameObject("/None")
    writer.page_mode = "/UseOutlines"
    buffer = io.BytesIO()
    writer.write(buffer)
    return buffer.getvalue()


# --- O: a sheet of stones -----------------------------------------------------------------

STONE_GAP_MM = 3.0


def stones_figure(cell_mm: float, room: tuple[float, float], cells: int) -> Figure:
    """Stones enough for a board of ``cells`` cells, or as many as fill ``room``: discs
    1 mm narrower than the board's cells (a round piece fits a cell 1 mm wider than it), in
    rows with straight cutting guides between them, and a caption saying how to cut them
    and what they fit."""
    diameter = cell_mm - 1.0
    pitch = diameter + STONE_GAP_MM
    size = MIN_PRINT_TEXT_MM
    columns = max(1, math.floor((room[0] - 2.0) / pitch))
    width = columns * pitch
    caption = (f"Stones for a board whose cells are {cell_mm:.1f}{NBSP_MM} across, as many as "
               f"it has cells or as fit the page: cut the rows apart along the straight lines, "
               f"then each stone round its edge (printed on card they handle best). Go stones "
               f"or counters up to {math.floor(diameter)}{NBSP_MM} fit too.")  # never round up
    lines = wrap(caption, size, width)
    texts = [Text(0.0, (1.0 + 1.35 * k) * size, line, size, "caption", "start")
             for k, line in enumerate(lines)]
    top = (1.35 * len(lines) + 1.0) * size
    rows = max(1, min(math.floor((room[1] - top - 2.0) / pitch), math.ceil(cells / columns)))
    marks: list[Mark] = []
    strokes: list[Stroke] = []
    # A stone's outline is stroked on its radius, half of it outside (figure.dot_outline:
    # 0.14 of the radius wide): the radius is chosen so that the stone, outline included,
    # is ``diameter`` across.
    radius = diameter / 2 / 1.07
    for row in range(rows):
        for column in range(columns):
            marks.append(Mark("dot", (column + 0.5) * pitch, top + (row + 0.5) * pitch,
                              radius, "stone"))
    for row in range(rows + 1):  # guides between the rows, and past the ends
        y = top + row * pitch
        strokes.append(Stroke(((-1.0, y), (width + 1.0, y)), "line", 0.2))
    figure = Figure(width + 2.0, top + rows * pitch + 2.0, cell_mm, (), [], texts, marks,
                    strokes, scale_note=f"stones {diameter:.1f} mm across, for the board’s "
                                        f"{cell_mm:.1f} mm cells")
    return figure.shifted(1.0, 1.0)


def _stones_pdf(description: Game, cell_mm: float, cells: int, paper: Paper,
                theme: Theme) -> bytes:
    from boardgen.render.pdf import render_pdf_pages

    room = content_size(paper.size("portrait"))
    figure = stones_figure(cell_mm, room, cells)
    info = PageInfo(f"{description.name}: stones", f"{description.name} stones, "
                    f"{cell_mm - 1.0:.1f} mm across", description.credit)
    return render_pdf_pages([figure], theme=theme, paper=paper, info=info)


# --- a capture tracker ----------------------------------------------------------------------

TRACKER_BOX_MM = 22.0


def tracker_figure(tracker: Tracker, width: float) -> Figure:
    """A row of boxes a player, under its heading: a captured enemy piece goes in a box of
    the captor's row (or tick the box), under the tracker's words on how to use it."""
    count = tracker.boxes
    box = min(TRACKER_BOX_MM, (width - 2.0) / count)
    size = 3.6
    texts: list[Text] = []
    strokes: list[Stroke] = []
    y = 0.0
    for line in wrap(tracker.intro, size, count * box):
        y += 1.35 * size
        texts.append(Text(0.0, y, line, size, "caption", "start"))
    y += 2.0 * size
    for heading in tracker.rows:
        texts.append(Text(0.0, y, heading, 4.2, "title", "start", BOLD))
        top = y + 3.0
        for k in range(count + 1):
            strokes.append(Stroke(((k * box, top), (k * box, top + box)), "line", 0.35))
        for edge in (top, top + box):
            strokes.append(Stroke(((0.0, edge), (count * box, edge)), "line", 0.35))
        for k in range(count):
            texts.append(Text((k + 0.5) * box, top + box / 2, str(k + 1), 4.2, "coordinate",
                              "middle", REGULAR))
        y = top + box + 12.0
    figure = Figure(count * box + 2.0, y - 10.0, box, (), [], texts, [], strokes,
                    scale_note=f"boxes {box:.0f} mm square")
    return figure.shifted(1.0, 1.0)


def _tracker_pdf(description: Game, tracker: Tracker, paper: Paper, theme: Theme) -> bytes:
    from boardgen.render.pdf import render_pdf_pages

    figure = tracker_figure(tracker, content_size(paper.size("portrait"))[0])
    info = PageInfo(f"{description.name}: captures", f"{description.name} capture tracker, "
                    f"{tracker.boxes} captures win", description.credit)
    return render_pdf_pages([figure], theme=theme, paper=paper, info=info)


# --- a page of words ------------------------------------------------------------------------


def _note_pdf(description: Game, note: KitNote, paper: Paper, theme: Theme) -> bytes:
    from reportlab.lib.colors import HexColor
    from reportlab.lib.units import mm
    from reportlab.pdfgen.canvas import Canvas

    from boardgen.render.fonts import PDF_FONT_NAMES, register_pdf_fonts
    from boardgen.render.paper import MARGIN_MM
    from boardgen.render.pdf import ask_for_actual_size

    register_pdf_fonts()
    page = paper.size("portrait")
    buffer = io.BytesIO()
    c = Canvas(buffer, pagesize=(page[0] * mm, page[1] * mm), invariant=1, pageCompression=1,
               initialFontName=PDF_FONT_NAMES[REGULAR])
    c.setTitle(f"{description.name}: {note.title}")
    c.setAuthor(description.credit)
    c.setSubject(f"{description.name}: {note.title}")
    c.setCreator(f"boardgen {__version__}")
    ask_for_actual_size(c)
    c.scale(mm, mm)
    pt = 25.4 / 72
    y = page[1] - MARGIN_MM - 8.0
    c.setFillColor(HexColor(theme.text))
    c.setFont(PDF_FONT_NAMES[BOLD], 16 * pt)
    c.drawString(MARGIN_MM, y, note.title)
    y -= 10.0
    size = 11 * pt
    c.setFont(PDF_FONT_NAMES[REGULAR], size)
    for paragraph in note.paragraphs:
        for line in wrap(paragraph, size, min(150.0, page[0] - 2 * MARGIN_MM)):
            c.drawString(MARGIN_MM, y, line)
            y -= 1.45 * size
        y -= 0.8 * size
    c.setFillColor(HexColor(theme.muted))
    c.setFont(PDF_FONT_NAMES[REGULAR], 8 * pt)
    c.drawString(MARGIN_MM, MARGIN_MM + 0.5, f"{description.credit} · boardgen {__version__}")
    c.showPage()
    c.save()
    return buffer.getvalue()
