"""Rule sheets: our own text from ``templates/sheets/GAME.md`` with the engine's diagrams.

The markup is small on purpose:
  # Title                      the sheet's title (first line)
  ## Heading                   a section
  a paragraph                  lines up to a blank line; **bold**, *italic*, `code`
  - item                       a bullet (continuation lines indented)
  > text                       a boxed note (designer's terms, reconstructions)
  ::: diagram GAME NAME        a diagram replayed through the engine, inline
  ::: board GAME               a page with a full-size printable board (last)
PDFs are laid out with reportlab's platypus, diagrams drawn as vector graphics with the
embedded font; the same sheet is also written as HTML with inline SVG.
"""

from __future__ import annotations

import base64
import html
import io
import math
import re
from dataclasses import dataclass, replace
from pathlib import Path

from reportlab.lib.colors import HexColor
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import (
    Flowable,
    KeepTogether,
    ListFlowable,
    ListItem,
    PageBreak,
    Paragraph,
    SimpleDocTemplate,
    Spacer,
    Table,
    TableStyle,
)
from reportlab.platypus.doctemplate import LayoutError

from boardgen._version import __version__
from boardgen.errors import BoardgenError
from boardgen.games.polygone.engine import RECONSTRUCTION
from boardgen.games.registry import TEMPLATES, build_diagram, game_named
from boardgen.geometry import hexhex
from boardgen.render.board import largest_fitting_figure
from boardgen.render.diagram import (
    Diagram,
    describe,
    diagram_pages,
    legend_figure,
    panel_rows,
)
from boardgen.render.figure import COMMON_PIECES, Figure, board_figure, cell_guidance
from boardgen.render.fonts import BOLD, PDF_FONT_NAMES, REGULAR, font_path, register_pdf_fonts
from boardgen.render.lattice import (
    BOARD_SCENE,
    LatticeScene,
    fitting_spacing,
    lattice_figure,
    pieces_sheet,
)
from boardgen.render.o_diagrams import RECONSTRUCTION as O_RECONSTRUCTION
from boardgen.render.paper import Paper
from boardgen.render.pdf import SCALE_BAR_MM, SCALE_BAR_TAG, ask_for_actual_size, draw_figure
from boardgen.render.scene import Theme
from boardgen.render.svg import render_svg
from boardgen.publish.markup import check_inline
from boardgen.text import check_lines

SHEET_MARGIN_MM = 15.0  # inside the printable area of A4 and Letter printers
# The smallest paper a rule sheet is laid out on (A5): below it a note box or a diagram
# panel no longer fits a page.
MIN_SHEET_PAPER_MM = (148.0, 210.0)
# Captions and coordinates on a printed sheet: 82 % black, dark enough to read at 8 pt.
SHEET_CAPTION_INK = "#2e2e2e"
MIN_SHEET_CELL_MM = 8.0
SHEET_LATTICE_MM = 10.2
PAIR_GAP_MM = 6.0
FRAME_PADDING_MM = 6 * 25.4 / 72
SCREEN_SCALE = 1.35  # HTML diagrams against their printed size


@dataclass(frozen=True)
class Block:
    kind: str  # title, heading, para, bullets, note, diagram, board
    text: str = ""
    items: tuple[str, ...] = ()
    args: tuple[str, ...] = ()
    line: int = 0


def sheet_path(game: str, quick: bool = False) -> Path:
    return TEMPLATES / game / ("quick.md" if quick else "sheet.md")


def parse_sheet(text: str, source: str) -> list[Block]:
    blocks: list[Block] = []
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        raw = lines[i]
        stripped = raw.strip()
        start = i + 1
        i += 1
        if not stripped:
            continue
        if stripped.startswith("::: "):
            words = stripped[4:].split()
            if not words or words[0] not in ("diagram", "board"):
                raise BoardgenError(f"{source}:{start}: unknown directive {stripped!r}")
            blocks.append(Block(words[0], args=tuple(words[1:]), line=start))
        elif stripped.startswith("## "):
            blocks.append(Block("heading", stripped[3:], line=start))
        elif stripped.startswith("# "):
            blocks.append(Block("title", stripped[2:], line=start))
        else:
            kind = "bullets" if stripped.startswith("- ") else \
                "note" if stripped.startswith(">") else "para"
            chunk = [raw]
            while i < len(lines) and lines[i].strip() and not lines[i].strip().startswith(
                    ("::: ", "#")):
                if kind == "para" and lines[i].strip().startswith(("- ", ">")):
                    break
                chunk.append(lines[i])
                i += 1
            if kind == "bullets":
                items: list[str] = []
                for line in chunk:
                    if line.strip().startswith("- "):
                        items.append(line.strip()[2:])
                    else:
                        items[-1] += " " + line.strip()
                blocks.append(Block("bullets", items=tuple(items), line=start))
            elif kind == "note":
                blocks.append(Block("note", " ".join(line.strip().lstrip(">").strip()
                                                     for line in chunk), line=start))
            else:
                blocks.append(Block("para", " ".join(line.strip() for line in chunk),
                                    line=start))
    if not blocks or blocks[0].kind != "title":
        raise BoardgenError(f"{source}:1: a sheet starts with '# Title'")
    return blocks


def _smart(text: str) -> str:
    """Typographer's quotes and apostrophes, outside `code`."""
    parts = text.split("`")
    for k in range(0, len(parts), 2):
        part = re.sub(r'(^|[\s(\[\u2014-])"', "\\1\u201c", parts[k])
        part = re.sub(r"(^|[\s(\[\u2014-])'", "\\1\u2018", part)
        parts[k] = part.replace('"', "\u201d").replace("'", "\u2019")
    return "`".join(parts)


def _tied(text: str) -> str:
    """No runts: the last two words of a paragraph, and the words of a `code` span, are
    joined by no-break spaces so that a line never holds one of them alone."""
    text = re.sub(r"`([^`]+)`", lambda m: "`" + m.group(1).replace(" ", "\u00a0") + "`", text)
    return re.sub(r" (\S+)$", "\u00a0\\1", text.rstrip())


def _inline(text: str, code_open: str, code_close: str) -> str:
    """**bold**, *italic* and `code` to markup, everything else escaped; curly quotes, and
    the paragraph's last two words tied together."""
    out = html.escape(_tied(_smart(text)), quote=False)
    out = re.sub(r"`([^`]+)`", lambda m: f"{code_open}{m.group(1)}{code_close}", out)
    out = re.sub(r"\*\*([^*]+)\*\*", r"<b>\1</b>", out)
    return re.sub(r"\*([^*]+)\*", r"<i>\1</i>", out)


def load_sheet(game: str, quick: bool = False) -> list[Block]:
    path = sheet_path(game, quick)
    if not path.is_file():
        raise BoardgenError(f"no rule sheet for {game!r} ({path} is missing)")
    text = path.read_text(encoding="utf-8")
    check_lines(text, str(path))
    blocks = parse_sheet(text, str(path))
    lines = text.splitlines()
    for block in blocks:
        if block.kind in ("title", "heading", "para", "note"):
            check_inline([block.text], lines, block.line, str(path))
        elif block.kind == "bullets":
            check_inline(list(block.items), lines, block.line, str(path))
        if block.kind in ("diagram", "board") and (not block.args or block.args[0] != game):
            raise BoardgenError(f"{path}:{block.line}: '{block.kind}' must name the game "
                                f"{game!r} first")
    return blocks


# --- the full-size board of each game ----------------------------------------------------


def sheet_board(game: str, room: tuple[float, float]) -> list[Figure]:
    """The game's board at 1:1, as large as fits ``room`` (mm), and for Polygone the sheet
    of pieces too."""
    description = game_named(game)
    if description.board_kind == "lattice":
        spacing = fitting_spacing(BOARD_SCENE, room, 60.0)
        return [lattice_figure(BOARD_SCENE, spacing), pieces_sheet(spacing, room[0])]
    scene = description.board_scene(hexhex(description.default_side))
    def growth(figure: Figure) -> float:
        return min(room[0] / figure.width, room[1] / figure.height)

    return [largest_fitting_figure(scene, growth(board_figure(scene, 10.0)), growth,
                                   smallest=2.0, largest=25.0)]


def pieces_in_words(cell_width: float) -> str:
    """Which common pieces fit a board's cells (a round piece needs 1 mm to spare), said
    for players: no program, no option."""
    fitting = [name for name, size in COMMON_PIECES if size + 1.0 <= cell_width + 1e-9]
    larger = [name for name, size in COMMON_PIECES if size + 1.0 > cell_width + 1e-9]
    said = f"Pieces up to {math.floor(cell_width - 1.0 + 1e-9)} mm across fit its cells"
    said += f": {_listed(fitting)}." if fitting else "."
    if larger:
        said += f" {_listed(larger)[:1].upper()}{_listed(larger)[1:]} need a board with " \
                "larger cells."
    return said


def _listed(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


# --- PDF -----------------------------------------------------------------------------------


def curled(figure: Figure) -> Figure:
    """The figure with typographer's quotes in its texts (the engine writes straight ones);
    the font's curly apostrophe has the straight one's width to within a hair."""
    texts = [replace(t, text=_smart(t.text)) if "'" in t.text or '"' in t.text else t
             for t in figure.texts]
    return replace(figure, texts=texts)


class FigureFlowable(Flowable):  # type: ignore[misc]
    """A figure drawn as vectors at 1:1 (mm), centred in the frame (or on its left edge)."""

    def __init__(self, figure: Figure, theme: Theme, turned: bool = False,
                 left: bool = False) -> None:
        super().__init__()
        self.figure = curled(figure)
        self.theme = theme
        self.turned = turned  # a quarter turn anticlockwise: a landscape board on the page
        self.left = left
        self.width = (figure.height if turned else figure.width) * mm
        self.height = (figure.width if turned else figure.height) * mm

    def wrap(self, avail_width: float, avail_height: float) -> tuple[float, float]:
        self._avail = avail_width
        return self.width, self.height

    def draw(self) -> None:
        c: Canvas = self.canv
        c.saveState()
        x = 0.0 if self.left else max(0.0, (self._avail - self.width) / 2)
        if self.turned:
            # Figure (x, y down) to page (y, x): the figure's top runs up the left side.
            c.transform(0, mm, mm, 0, x, 0)
        else:
            c.translate(x, self.height)
            c.scale(mm, -mm)
        draw_figure(c, self.figure, self.theme)
        c.restoreState()


class ScaleBar(Flowable):  # type: ignore[misc]
    def __init__(self, theme: Theme, note: str) -> None:
        super().__init__()
        self.theme = theme
        self.note = note
        self.width = 180 * mm
        self.height = 11 * mm

    def draw(self) -> None:
        c: Canvas = self.canv
        c.setStrokeColor(HexColor(self.theme.text))
        c.setLineWidth(0.3 * mm)
        y = 8 * mm
        c.addLiteral(f"/{SCALE_BAR_TAG} BMC")  # so that a checker can measure the bar
        c.line(0, y, SCALE_BAR_MM * mm, y)
        for k in range(0, int(SCALE_BAR_MM) + 1, 10):
            c.line(k * mm, y, k * mm, y + (2.5 if k in (0, 50) else 1.5) * mm)
        c.addLiteral("EMC")
        c.setFont(PDF_FONT_NAMES["bold"], 9)
        c.setFillColor(HexColor(self.theme.text))
        c.drawString((SCALE_BAR_MM + 2) * mm, y, "50 mm")
        c.setFont(PDF_FONT_NAMES["regular"], 8.5)
        c.drawString(0, y - 4.6 * mm, self.note)


class Heading(Paragraph):  # type: ignore[misc]
    """A heading that is also an entry of the PDF's outline (bookmarks)."""

    def __init__(self, text: str, style: ParagraphStyle, *, outline: str, level: int,
                 key: str) -> None:
        super().__init__(text, style)
        self.outline = (outline, level, key)

    def draw(self) -> None:
        super().draw()
        title, level, key = self.outline
        self.canv.bookmarkHorizontal(key, 0, self.height + 4)
        self.canv.addOutlineEntry(title, key, level=level, closed=False)


def _is_text(flowable: Flowable) -> bool:
    return isinstance(flowable, (Paragraph, ListFlowable, Table)) and \
        not getattr(flowable, "floats", False) and \
        not isinstance(flowable, Heading)


def _height(flowable: Flowable, canvas: Canvas, width: float, room: float) -> float:
    """The height a flowable takes (KeepTogether's wrap answers 'huge' to force a split;
    what it holds is kept in _H)."""
    height = flowable.wrapOn(canvas, width, room)[1]
    return float(getattr(flowable, "_H", height)) if isinstance(flowable, KeepTogether) \
        else float(height)


class SheetTemplate(SimpleDocTemplate):  # type: ignore[misc]
    """Figures float: when one does not fit the rest of the page, the running text that
    follows it in the same section (whole paragraphs, bullets and notes) is set first, so
    that a figure never leaves a half-empty page behind it."""

    def filterFlowables(self, flowables: list[Flowable]) -> None:
        first = flowables[0] if flowables else None
        if not getattr(first, "floats", False):
            return
        frame = self.frame
        room = frame._y - frame._y1p
        width = frame._getAvailableWidth()
        if first is None or frame._atTop or _height(first, self.canv, width, room) <= room:
            return
        pulled: list[Flowable] = []
        k = 1
        # Like a book's figures, a float may let the next section's heading and text pass
        # it, as long as a heading never goes without the text under it.
        while k < len(flowables) and (_is_text(flowables[k]) or
                                      isinstance(flowables[k], (Spacer, Heading))):
            flowable = flowables[k]
            height = flowable.wrapOn(self.canv, width, room)[1] + \
                flowable.getSpaceBefore() + flowable.getSpaceAfter()
            if isinstance(flowable, Heading):
                after = flowables[k + 1] if k + 1 < len(flowables) else None
                if after is None or not _is_text(after):
                    break
                height += after.wrapOn(self.canv, width, room)[1] + after.getSpaceBefore()
                if height > room:
                    break
                height -= after.wrapOn(self.canv, width, room)[1] + after.getSpaceBefore()
            if height > room:
                break
            pulled.append(flowable)
            room -= height
            k += 1
        while pulled and isinstance(pulled[-1], (Spacer, Heading)):
            pulled.pop()
        while pulled and isinstance(pulled[-1], Spacer):
            pulled.pop()
        if pulled:
            del flowables[1:1 + len(pulled)]
            flowables[0:0] = pulled


def _styles(theme: Theme) -> dict[str, ParagraphStyle]:
    """One hierarchy, all on the column's left edge: title 22 pt, section 13 pt, figure
    10.5 pt (bold), a line of play inside a figure 9.5 pt; running text 10 pt."""
    regular, bold = PDF_FONT_NAMES["regular"], PDF_FONT_NAMES["bold"]
    text = HexColor(theme.text)
    return {
        "title": ParagraphStyle("title", fontName=bold, fontSize=22, leading=26,
                                textColor=text, spaceAfter=4),
        "heading": ParagraphStyle("heading", fontName=bold, fontSize=13, leading=16,
                                  textColor=text, spaceBefore=9, spaceAfter=3,
                                  keepWithNext=1),
        "figure": ParagraphStyle("figure", fontName=bold, fontSize=10.5, leading=13,
                                 textColor=text, spaceBefore=6, spaceAfter=2,
                                 keepWithNext=1),
        "line": ParagraphStyle("line", fontName=regular, fontSize=9.5, leading=12,
                               textColor=text, spaceBefore=2, spaceAfter=2,
                               keepWithNext=1),
        "body": ParagraphStyle("body", fontName=regular, fontSize=10, leading=13.5,
                               textColor=text, spaceAfter=5),
        "note": ParagraphStyle("note", fontName=regular, fontSize=9, leading=12,
                               textColor=text),
    }


def print_theme(theme: Theme) -> Theme:
    """The theme for a rule sheet: captions and coordinates at least 80 % black."""
    return replace(theme, muted=SHEET_CAPTION_INK)


def check_sheet_paper(paper: Paper) -> None:
    """Refuse paper smaller than MIN_SHEET_PAPER_MM (either way round) for a rule sheet."""
    short, long = sorted((paper.width, paper.height))
    if short < MIN_SHEET_PAPER_MM[0] or long < MIN_SHEET_PAPER_MM[1]:
        raise BoardgenError(
            f"paper {paper.name} is too small for a rule sheet: at least "
            f"{MIN_SHEET_PAPER_MM[0]:g} x {MIN_SHEET_PAPER_MM[1]:g} mm (A5)"
        )


def sheet_cell_mm(diagram: Diagram) -> float:
    """Hex panels' cells no smaller than 8 mm, so that their coordinates print at 8 pt;
    Polygone's lattice a little tighter than on its own, so that a picture's two panels
    sit side by side with room to spare."""
    lattice = any(isinstance(scene, LatticeScene) for _, scenes in diagram.rows
                  for scene in scenes)
    return SHEET_LATTICE_MM if lattice else max(diagram.cell_mm, MIN_SHEET_CELL_MM)


def _plain(text: str) -> str:
    return re.sub(r"[*`]", "", _smart(text))


def _story(game: str, blocks: list[Block], styles: dict[str, ParagraphStyle],
           theme: Theme, frame: tuple[float, float], quick: bool) -> list[Flowable]:
    story: list[Flowable] = []
    section = 0  # outline level of the figures: under the last section heading
    keys = iter(f"s{k}" for k in range(1000))

    def heading(text: str, style: str, level: int) -> Heading:
        return Heading(_inline(text, "<b>", "</b>"), styles[style], outline=_plain(text),
                       level=level, key=next(keys))

    for block in blocks:
        if block.kind == "title":
            story.append(heading(block.text, "title", 0))
        elif block.kind == "heading":
            section = 1
            story.append(heading(block.text, "heading", 1))
        elif block.kind == "para":
            story.append(Paragraph(_inline(block.text, "<b>", "</b>"), styles["body"]))
        elif block.kind == "bullets":
            story.append(ListFlowable(
                [ListItem(Paragraph(_inline(item, "<b>", "</b>"), styles["body"]),
                          leftIndent=11, value="•") for item in block.items],
                bulletType="bullet", start="•", leftIndent=11, bulletFontSize=10,
                bulletOffsetY=0, bulletFontName=PDF_FONT_NAMES["regular"]))
        elif block.kind == "note":
            box = Table([[Paragraph(_inline(block.text, "<b>", "</b>"), styles["note"])]],
                        colWidths=[frame[0] * mm])
            box.setStyle(TableStyle([
                ("FONTNAME", (0, 0), (-1, -1), PDF_FONT_NAMES["regular"]),  # not Helvetica
                ("BOX", (0, 0), (-1, -1), 0.6, HexColor(theme.accent)),
                ("BACKGROUND", (0, 0), (-1, -1), HexColor(theme.cells["empty"].fill)),
                ("LEFTPADDING", (0, 0), (-1, -1), 8), ("RIGHTPADDING", (0, 0), (-1, -1), 8),
                ("TOPPADDING", (0, 0), (-1, -1), 5), ("BOTTOMPADDING", (0, 0), (-1, -1), 6),
            ]))
            box.spaceAfter = 6
            story.append(box)
        elif block.kind == "diagram":
            diagram = _sheet_diagram(game, block.args[1], quick)
            title = heading(diagram.title, "figure", section + 1)
            previous = story[-1] if story else None
            alone = _one_narrow_row(diagram, frame)
            if alone is not None and isinstance(previous, _Pairable):
                # Two one-panel figures in a row share it, side by side.
                story[-1] = _pair(previous, _Pairable(diagram, title, alone), styles,
                                  theme, frame)
            elif alone is not None:
                story.append(_Pairable(diagram, title, alone))
            else:
                story.extend(_diagram_flowables(diagram, styles, theme, frame, title))
        elif block.kind == "board":
            story.extend(_board_flowables(game, styles, theme, frame,
                                          next(keys)))
    return [_diagram_flowables(f.diagram, styles, theme, frame, f.title)[0]
            if isinstance(f, _Pairable) else f for f in story]


@dataclass
class _Pairable(Flowable):  # type: ignore[misc]
    """A figure of one narrow row, waiting to learn whether the next figure can share its
    row (never drawn itself)."""

    diagram: Diagram
    title: Heading
    row: Figure


def _column_width(frame: tuple[float, float]) -> float:
    return (frame[0] - PAIR_GAP_MM) / 2


def _one_narrow_row(diagram: Diagram, frame: tuple[float, float]) -> Figure | None:
    rows = panel_rows(diagram, cell_width=sheet_cell_mm(diagram),
                      max_width=_column_width(frame))
    if len(rows) != 1 or rows[0][0] or rows[0][1].width > _column_width(frame):
        return None
    return rows[0][1]


def _pair(first: _Pairable, second: _Pairable, styles: dict[str, ParagraphStyle],
          theme: Theme, frame: tuple[float, float]) -> Flowable:
    width = _column_width(frame)
    cells = []
    for figure in (first, second):
        cell: list[Flowable] = [figure.title]
        legend = legend_figure(figure.diagram, cell_width=sheet_cell_mm(figure.diagram),
                               max_width=width)
        if legend is not None:
            cell.extend([FigureFlowable(legend, theme, left=True), Spacer(1, 3)])
        cell.append(FigureFlowable(figure.row, theme))
        cells.append(cell)
    # The columns fill the frame exactly, so that both titles stand on the column grid.
    table = Table([cells], colWidths=[(width + PAIR_GAP_MM) * mm, width * mm])
    table.setStyle(TableStyle([
        ("FONTNAME", (0, 0), (-1, -1), PDF_FONT_NAMES["regular"]),  # not Helvetica
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ("LEFTPADDING", (0, 0), (-1, -1), 0), ("RIGHTPADDING", (0, 0), (0, 0), PAIR_GAP_MM * mm),
        ("RIGHTPADDING", (1, 0), (1, 0), 0),
        ("TOPPADDING", (0, 0), (-1, -1), 0), ("BOTTOMPADDING", (0, 0), (-1, -1), 0),
    ]))
    table.spaceAfter = 6
    table.floats = True
    return table


def _sheet_diagram(game: str, name: str, quick: bool = False) -> Diagram:
    """A diagram as a sheet prints it: the reconstruction note is the sheet's, said once
    in its opening box rather than under every picture; a quick reference does not number
    the full sheet's pictures."""
    diagram = build_diagram(game, name)
    if quick:
        title = re.sub(r"^Picture \d+: ", "", diagram.title)
        diagram = replace(diagram, title=title[:1].upper() + title[1:])
    if diagram.legend_note and diagram.legend_note.endswith(RECONSTRUCTION):
        note = diagram.legend_note.removesuffix(RECONSTRUCTION).strip()
        diagram = replace(diagram, legend_note=note or None)
    rows = tuple((title.replace(O_RECONSTRUCTION, "").strip() if title else title, scenes)
                 for title, scenes in diagram.rows)
    diagram = replace(diagram, rows=rows)
    return diagram


def _diagram_flowables(diagram: Diagram, styles: dict[str, ParagraphStyle], theme: Theme,
                       frame: tuple[float, float], title: Heading) -> list[Flowable]:
    """The figure's title as a heading, its legend, then each row of panels as a piece the
    page may break before; the title, legend and first row stay together, and float."""
    cell = sheet_cell_mm(diagram)
    legend = legend_figure(diagram, cell_width=cell, max_width=frame[0])
    head: list[Flowable] = [title]
    if legend is not None:
        head.append(FigureFlowable(legend, theme, left=True))
        head.append(Spacer(1, 3))
    out: list[Flowable] = []
    for k, (line_title, row) in enumerate(panel_rows(diagram, cell_width=cell,
                                                     max_width=frame[0])):
        piece: list[Flowable] = head if k == 0 else []
        if line_title:
            piece.append(Paragraph(_inline(line_title, "<b>", "</b>"), styles["line"]))
        piece.extend([FigureFlowable(row, theme), Spacer(1, 6)])
        group = KeepTogether(piece)
        group.floats = True
        out.append(group)
    return out


def _board_flowables(game: str, styles: dict[str, ParagraphStyle], theme: Theme,
                     frame: tuple[float, float], key: str) -> list[Flowable]:
    room = (frame[0], frame[1] - 30.0)
    figures = sheet_board(game, room)
    # The lattice board is wide: turned a quarter, it prints larger on the page.
    turned = False
    if game_named(game).board_kind == "lattice":
        across = sheet_board(game, (room[1], room[0]))
        if across[0].cell_width > figures[0].cell_width:
            turned = True
            figures = [across[0], pieces_sheet(across[0].cell_width, room[0])]
    unit = figures[0].scale_note or \
        f"each cell is {figures[0].cell_width:.1f} mm flat to flat, " \
        f"{cell_guidance(figures[0].cell_width)}"
    note = "If the bar does not measure 50 mm, the printer rescaled the page."
    out: list[Flowable] = [PageBreak(), Heading(
        f"A board to print at 100 % (actual size): {unit}.", styles["heading"],
        outline="Board", level=1, key=key), ScaleBar(theme, note)]
    for k, figure in enumerate(figures):
        if k:
            out.extend([PageBreak(), ScaleBar(theme, note)])
        out.append(FigureFlowable(figure, theme, turned and k == 0))
    return out


def render_sheet_pdf(game: str, *, paper: Paper, theme: Theme, quick: bool = False) -> bytes:
    """The rule sheet (or the one-page quick reference) as PDF bytes."""
    check_sheet_paper(paper)
    register_pdf_fonts()
    blocks = load_sheet(game, quick)
    theme = print_theme(theme)
    styles = _styles(theme)
    page = paper.size("portrait")
    # The frame's own padding (reportlab's 6 pt a side) comes off the column.
    frame = (page[0] - 2 * SHEET_MARGIN_MM - 2 * FRAME_PADDING_MM,
             page[1] - 2 * SHEET_MARGIN_MM - 8.0 - 2 * FRAME_PADDING_MM)
    title = blocks[0].text
    credit = f"{game_named(game).credit} · rules explained by boardgen {__version__}"
    total = 0  # pages in all, known after a first pass

    def footer(canvas: Canvas, document: SimpleDocTemplate) -> None:
        ask_for_actual_size(canvas)
        canvas.saveState()
        canvas.setFont(PDF_FONT_NAMES["regular"], 7.5)
        canvas.setFillColor(HexColor(theme.muted))
        canvas.drawString(SHEET_MARGIN_MM * mm, (SHEET_MARGIN_MM - 2) * mm, credit)
        canvas.drawRightString((page[0] - SHEET_MARGIN_MM) * mm, (SHEET_MARGIN_MM - 2) * mm,
                               f"page {document.page} of {total}" if total else
                               f"page {document.page}")
        canvas.restoreState()
        canvas.showOutline()

    def build() -> bytes:
        buffer = io.BytesIO()
        doc = SheetTemplate(
            buffer, pagesize=(page[0] * mm, page[1] * mm), leftMargin=SHEET_MARGIN_MM * mm,
            rightMargin=SHEET_MARGIN_MM * mm, topMargin=SHEET_MARGIN_MM * mm,
            bottomMargin=(SHEET_MARGIN_MM + 8.0) * mm, title=_plain(title),
            author=f"{game_named(game).designer} (game); boardgen (sheet)",
            subject=f"Rules of {game_named(game).name}, {game_named(game).credit}",
            creator=f"boardgen {__version__}", invariant=1, pageCompression=1,
            # Start each page in our font: reportlab's default, Helvetica, is never embedded.
            initialFontName=PDF_FONT_NAMES["regular"],
        )
        try:
            doc.build(_story(game, blocks, styles, theme, frame, quick), onFirstPage=footer,
                      onLaterPages=footer)
        except LayoutError as exc:  # not seen on paper from A5 up; one line all the same
            raise BoardgenError(f"the {game} rule sheet does not fit {paper.name} paper: "
                                f"{str(exc).splitlines()[0][:120]}") from None
        nonlocal total
        total = doc.page
        return buffer.getvalue()

    build()  # counts the pages for "page N of M"
    return build()


# --- HTML ----------------------------------------------------------------------------------

_CSS = """
body { font-family: 'Source Sans Pro', sans-serif; max-width: 52rem; font-size: 1.1rem;
       margin: 2rem auto; padding: 0 1rem; color: #1a1a1a; line-height: 1.5; }
h1 { font-size: 2.2rem; margin-bottom: .2rem; } h2 { margin-top: 2rem; font-size: 1.5rem; }
h3 { font-size: 1.15rem; margin: 1.6rem 0 .4rem; }
.note { border: 1px solid #c2410c; background: #fbf8f1; padding: .6rem .9rem; }
figure { margin: .6rem 0 1.4rem; overflow-x: auto; }
figure svg { max-width: 100%; height: auto; display: block; }
footer { margin-top: 3rem; color: #444; font-size: .9rem; }
"""


def _font_faces(text: str) -> str:
    """@font-face rules carrying the bundled Source Sans Pro, cut down to the characters the
    page uses (a few kilobytes instead of a megabyte), as data: URLs."""
    from fontTools import subset
    from fontTools.ttLib import TTFont

    rules = []
    characters = {ord(ch) for ch in text} | set(range(0x20, 0x7f))
    for weight, css_weight, style, path in (
            ("regular", 400, "normal", font_path(REGULAR)),
            ("bold", 700, "normal", font_path(BOLD))):
        font = TTFont(path, recalcTimestamp=False)  # the same bytes every time
        options = subset.Options()
        options.flavor = None
        options.name_IDs = ["*"]
        subsetter = subset.Subsetter(options)
        subsetter.populate(unicodes=characters)
        subsetter.subset(font)
        out = io.BytesIO()
        font.save(out)
        data = base64.b64encode(out.getvalue()).decode("ascii")
        rules.append(f"@font-face {{ font-family: 'Source Sans Pro'; font-weight: {css_weight};"
                     f" font-style: {style}; src: url(data:font/ttf;base64,{data})"
                     f" format('truetype'); }} /* {weight}: SIL Open Font License 1.1 */")
    return "\n".join(rules)


def render_sheet_html(game: str, *, theme: Theme, quick: bool = False) -> bytes:
    """The same sheet for reading on screen: HTML with the diagrams as inline SVG, each
    with a text alternative generated from the engine's positions."""
    blocks = load_sheet(game, quick)
    theme = print_theme(theme)
    body: list[str] = []
    for block in blocks:
        if block.kind == "title":
            body.append(f"<h1>{_inline(block.text, '<code>', '</code>')}</h1>")
        elif block.kind == "heading":
            body.append(f"<h2>{_inline(block.text, '<code>', '</code>')}</h2>")
        elif block.kind == "para":
            body.append(f"<p>{_inline(block.text, '<code>', '</code>')}</p>")
        elif block.kind == "note":
            body.append(f'<p class="note">{_inline(block.text, "<code>", "</code>")}</p>')
        elif block.kind == "bullets":
            items = "".join(f"<li>{_inline(item, '<code>', '</code>')}</li>"
                            for item in block.items)
            body.append(f"<ul>{items}</ul>")
        elif block.kind == "diagram":
            diagram = _sheet_diagram(game, block.args[1], quick)
            # The title is the page's h3; the picture a third larger than print (labels
            # of 2.9 mm read at about 14 px), never wider than the column.
            (figure,) = diagram_pages(replace(diagram, title=""),
                                      cell_width=sheet_cell_mm(diagram), max_width=180.0,
                                      max_height=None)
            text = describe(diagram)
            svg = render_svg(curled(figure), theme=theme, description=text)
            svg = svg.split("?>", 1)[1].strip().replace(
                "<svg ", f'<svg role="img" aria-label="{html.escape(diagram.title)}" '
                f'style="width: {figure.width * SCREEN_SCALE:.0f}mm" ', 1)
            body.append(f"<h3>{html.escape(_smart(diagram.title))}</h3><figure>{svg}</figure>")
        elif block.kind == "board":
            figure = sheet_board(game, (180.0, 250.0))[0]
            name = f"{game_named(game).name} board"
            svg = render_svg(figure, theme=theme, description=name)
            svg = svg.split("?>", 1)[1].strip().replace(
                "<svg ", f'<svg role="img" aria-label="{html.escape(name)}" ', 1)
            body.append("<h2>Board</h2><p>Print the PDF sheet for a board at exact scale.</p>"
                        f"<figure>{svg}</figure>")
    body.append(f"<footer>{html.escape(game_named(game).credit)} · rules explained by "
                f"boardgen {__version__}</footer></body></html>")
    text = html.unescape(re.sub(r"<[^>]+>", " ", "\n".join(body)))
    head = ["<!doctype html>", '<html lang="en"><head><meta charset="utf-8">',
            f"<title>{html.escape(_plain(blocks[0].text))}</title>",
            '<meta name="viewport" content="width=device-width, initial-scale=1">',
            f"<style>{_font_faces(text + blocks[0].text)}\n{_CSS}</style></head><body>"]
    return ("\n".join(head + body) + "\n").encode("utf-8")
