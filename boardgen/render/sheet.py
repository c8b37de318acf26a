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

import html
import io
import re
from dataclasses import dataclass
from pathlib import Path

from reportlab.lib.colors import HexColor
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import (
    CondPageBreak,
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

from boardgen import __version__
from boardgen.errors import BoardgenError
from boardgen.games import TEMPLATES, build_diagram, game_named
from boardgen.geometry import hexhex
from boardgen.render.board import largest_fitting_figure
from boardgen.render.diagram import diagram_pages
from boardgen.render.figure import Figure, board_figure, cell_guidance
from boardgen.render.fonts import PDF_FONT_NAMES, register_pdf_fonts
from boardgen.render.paper import Paper
from boardgen.render.pdf import SCALE_BAR_MM, SCALE_BAR_TAG, ask_for_actual_size, draw_figure
from boardgen.render.polygone_figure import (
    BOARD_SCENE,
    fitting_spacing,
    lattice_figure,
    pieces_sheet,
)
from boardgen.render.scene import Theme
from boardgen.render.svg import render_svg
from boardgen.text import check_lines

SHEET_MARGIN_MM = 15.0  # inside the printable area of A4 and Letter printers
# The smallest paper a rule sheet is laid out on (A5): below it a note box or a diagram
# panel no longer fits a page.
MIN_SHEET_PAPER_MM = (148.0, 210.0)


@dataclass(frozen=True)
class Block:
    kind: str  # title, heading, para, bullets, note, diagram, board
    text: str = ""
    items: tuple[str, ...] = ()
    args: tuple[str, ...] = ()
    line: int = 0


def sheet_path(game: str, quick: bool = False) -> Path:
    return TEMPLATES / "sheets" / f"{game}{'-quick' if quick else ''}.md"


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


def _inline(text: str, code_open: str, code_close: str) -> str:
    """**bold**, *italic* and `code` to markup, everything else escaped."""
    out = html.escape(text, quote=False)
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
    for block in blocks:
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


# --- PDF -----------------------------------------------------------------------------------


class FigureFlowable(Flowable):  # type: ignore[misc]
    """A figure drawn as vectors at 1:1 (mm), centred in the frame."""

    def __init__(self, figure: Figure, theme: Theme, turned: bool = False) -> None:
        super().__init__()
        self.figure = figure
        self.theme = theme
        self.turned = turned  # a quarter turn anticlockwise: a landscape board on the page
        self.width = (figure.height if turned else figure.width) * mm
        self.height = (figure.width if turned else figure.height) * mm

    def wrap(self, avail_width: float, avail_height: float) -> tuple[float, float]:
        self._avail = avail_width
        return self.width, self.height

    def draw(self) -> None:
        c: Canvas = self.canv
        c.saveState()
        if self.turned:
            # Figure (x, y down) to page (y, x): the figure's top runs up the left side.
            c.transform(0, mm, mm, 0, max(0.0, (self._avail - self.width) / 2), 0)
        else:
            c.translate(max(0.0, (self._avail - self.width) / 2), self.height)
            c.scale(mm, -mm)
        draw_figure(c, self.figure, self.theme)
        c.restoreState()


class ScaleBar(Flowable):  # type: ignore[misc]
    def __init__(self, theme: Theme, note: str) -> None:
        super().__init__()
        self.theme = theme
        self.note = note
        self.width = 180 * mm
        self.height = 10 * mm

    def draw(self) -> None:
        c: Canvas = self.canv
        c.setStrokeColor(HexColor(self.theme.text))
        c.setLineWidth(0.3 * mm)
        y = 7 * mm
        c.addLiteral(f"/{SCALE_BAR_TAG} BMC")  # so that a checker can measure the bar
        c.line(0, y, SCALE_BAR_MM * mm, y)
        for k in range(0, int(SCALE_BAR_MM) + 1, 10):
            c.line(k * mm, y, k * mm, y + (2.5 if k in (0, 50) else 1.5) * mm)
        c.addLiteral("EMC")
        c.setFont(PDF_FONT_NAMES["bold"], 8)
        c.setFillColor(HexColor(self.theme.text))
        c.drawString((SCALE_BAR_MM + 2) * mm, y, "50 mm")
        c.setFont(PDF_FONT_NAMES["regular"], 7)
        c.setFillColor(HexColor(self.theme.muted))
        c.drawString(0, y - 4.2 * mm, self.note)


def _styles(theme: Theme) -> dict[str, ParagraphStyle]:
    regular, bold = PDF_FONT_NAMES["regular"], PDF_FONT_NAMES["bold"]
    text = HexColor(theme.text)
    return {
        "title": ParagraphStyle("title", fontName=bold, fontSize=22, leading=26,
                                textColor=text, spaceAfter=4),
        "subtitle": ParagraphStyle("subtitle", fontName=regular, fontSize=11, leading=14,
                                   textColor=HexColor(theme.muted), spaceAfter=8),
        "heading": ParagraphStyle("heading", fontName=bold, fontSize=13, leading=16,
                                  textColor=text, spaceBefore=8, spaceAfter=4),
        "body": ParagraphStyle("body", fontName=regular, fontSize=10, leading=13.5,
                               textColor=text, spaceAfter=5),
        "note": ParagraphStyle("note", fontName=regular, fontSize=9, leading=12,
                               textColor=text),
    }


def check_sheet_paper(paper: Paper) -> None:
    """Refuse paper smaller than MIN_SHEET_PAPER_MM (either way round) for a rule sheet."""
    short, long = sorted((paper.width, paper.height))
    if short < MIN_SHEET_PAPER_MM[0] or long < MIN_SHEET_PAPER_MM[1]:
        raise BoardgenError(
            f"paper {paper.name} is too small for a rule sheet: at least "
            f"{MIN_SHEET_PAPER_MM[0]:g} x {MIN_SHEET_PAPER_MM[1]:g} mm (A5)"
        )


def render_sheet_pdf(game: str, *, paper: Paper, theme: Theme, quick: bool = False) -> bytes:
    """The rule sheet (or the one-page quick reference) as PDF bytes."""
    check_sheet_paper(paper)
    register_pdf_fonts()
    blocks = load_sheet(game, quick)
    styles = _styles(theme)
    page = paper.size("portrait")
    frame = (page[0] - 2 * SHEET_MARGIN_MM, page[1] - 2 * SHEET_MARGIN_MM - 8.0)
    title = blocks[0].text
    buffer = io.BytesIO()
    doc = SimpleDocTemplate(
        buffer, pagesize=(page[0] * mm, page[1] * mm), leftMargin=SHEET_MARGIN_MM * mm,
        rightMargin=SHEET_MARGIN_MM * mm, topMargin=SHEET_MARGIN_MM * mm,
        bottomMargin=(SHEET_MARGIN_MM + 8.0) * mm, title=title,
        author=f"{game_named(game).designer} (game); boardgen (sheet)",
        subject=f"Rules of {game_named(game).name}, {game_named(game).credit}",
        creator=f"boardgen {__version__}", invariant=1, pageCompression=1,
        # Start each page in our font: reportlab's default, Helvetica, is never embedded.
        initialFontName=PDF_FONT_NAMES["regular"],
    )
    story: list[Flowable] = []
    shrink = 0.75 if quick else 1.0  # a quick reference keeps its diagram to one page
    for block in blocks:
        if block.kind == "title":
            story.append(Paragraph(_inline(block.text, "<b>", "</b>"), styles["title"]))
        elif block.kind == "heading":
            story.append(CondPageBreak(40 * mm))
            story.append(Paragraph(_inline(block.text, "<b>", "</b>"), styles["heading"]))
        elif block.kind == "para":
            story.append(Paragraph(_inline(block.text, "<b>", "</b>"), styles["body"]))
        elif block.kind == "bullets":
            story.append(ListFlowable(
                [ListItem(Paragraph(_inline(item, "<b>", "</b>"), styles["body"]),
                          leftIndent=12) for item in block.items],
                bulletType="bullet", start="•", leftIndent=12, bulletFontName=PDF_FONT_NAMES[
                    "regular"]))
        elif block.kind == "note":
            box = Table([[Paragraph(_inline(block.text, "<b>", "</b>"), styles["note"])]],
                        colWidths=[frame[0] * mm])
            box.setStyle(TableStyle([
                ("FONTNAME", (0, 0), (-1, -1), PDF_FONT_NAMES["regular"]),  # not Helvetica
                ("BOX", (0, 0), (-1, -1), 0.6, HexColor(theme.accent)),
                ("BACKGROUND", (0, 0), (-1, -1), HexColor(theme.cells["empty"].fill)),
                ("LEFTPADDING", (0, 0), (-1, -1), 8), ("RIGHTPADDING", (0, 0), (-1, -1), 8),
                ("TOPPADDING", (0, 0), (-1, -1), 6), ("BOTTOMPADDING", (0, 0), (-1, -1), 6),
            ]))
            story.extend([box, Spacer(1, 6)])
        elif block.kind == "diagram":
            diagram = build_diagram(block.args[0], block.args[1])
            pages = diagram_pages(diagram, cell_width=shrink * diagram.cell_mm,
                                  max_width=frame[0], max_height=frame[1] - 10)
            story.extend(KeepTogether([FigureFlowable(f, theme), Spacer(1, 8)])
                         for f in pages)
        elif block.kind == "board":
            room = (frame[0], frame[1] - 30.0)
            figures = sheet_board(game, room)
            # The lattice board is wide: turned a quarter, it prints larger on the page.
            turned = False
            if game_named(game).board_kind == "lattice":
                across = sheet_board(game, (room[1], room[0]))
                if across[0].cell_width > figures[0].cell_width:
                    turned = True
                    figures = [across[0], pieces_sheet(across[0].cell_width, room[0])]
            story.append(PageBreak())
            unit = figures[0].scale_note or \
                f"each cell is {figures[0].cell_width:.1f} mm flat to flat, " \
                f"{cell_guidance(figures[0].cell_width)}"
            story.append(Paragraph(f"A board to print at 100 % (actual size): {unit}.",
                                   styles["heading"]))
            story.append(ScaleBar(theme, "If the bar does not measure 50 mm, the printer "
                                  "rescaled the page."))
            for k, figure in enumerate(figures):
                if k:
                    story.append(PageBreak())
                    story.append(ScaleBar(theme, "If the bar does not measure 50 mm, the "
                                          "printer rescaled the page."))
                story.append(FigureFlowable(figure, theme, turned and k == 0))
    credit = f"{game_named(game).credit} · rules explained by boardgen {__version__}"

    def footer(canvas: Canvas, document: SimpleDocTemplate) -> None:
        ask_for_actual_size(canvas)
        canvas.saveState()
        canvas.setFont(PDF_FONT_NAMES["regular"], 7.5)
        canvas.setFillColor(HexColor(theme.muted))
        canvas.drawString(SHEET_MARGIN_MM * mm, (SHEET_MARGIN_MM - 2) * mm, credit)
        canvas.drawRightString((page[0] - SHEET_MARGIN_MM) * mm, (SHEET_MARGIN_MM - 2) * mm,
                               f"page {document.page}")
        canvas.restoreState()

    try:
        doc.build(story, onFirstPage=footer, onLaterPages=footer)
    except LayoutError as exc:  # not seen on paper from A5 up; one line all the same
        raise BoardgenError(f"the {game} rule sheet does not fit {paper.name} paper: "
                            f"{str(exc).splitlines()[0][:120]}") from None
    return buffer.getvalue()


# --- HTML ----------------------------------------------------------------------------------

_CSS = """
body { font-family: 'Source Sans Pro', 'Source Sans 3', sans-serif; max-width: 52rem;
       margin: 2rem auto; padding: 0 1rem; color: #1a1a1a; line-height: 1.45; }
h1 { font-size: 2rem; margin-bottom: .2rem; } h2 { margin-top: 2rem; }
.note { border: 1px solid #c2410c; background: #fbf8f1; padding: .6rem .9rem; }
figure { margin: 1.2rem 0; overflow-x: auto; } figure svg { max-width: 100%; height: auto; }
footer { margin-top: 3rem; color: #666; font-size: .85rem; }
"""


def render_sheet_html(game: str, *, theme: Theme, quick: bool = False) -> bytes:
    """The same sheet for reading on screen: HTML with the diagrams as inline SVG."""
    blocks = load_sheet(game, quick)
    parts = ["<!doctype html>", '<html lang="en"><head><meta charset="utf-8">',
             f"<title>{html.escape(blocks[0].text)}</title>",
             '<meta name="viewport" content="width=device-width, initial-scale=1">',
             f"<style>{_CSS}</style></head><body>"]
    for block in blocks:
        if block.kind == "title":
            parts.append(f"<h1>{_inline(block.text, '<code>', '</code>')}</h1>")
        elif block.kind == "heading":
            parts.append(f"<h2>{_inline(block.text, '<code>', '</code>')}</h2>")
        elif block.kind == "para":
            parts.append(f"<p>{_inline(block.text, '<code>', '</code>')}</p>")
        elif block.kind == "note":
            parts.append(f'<p class="note">{_inline(block.text, "<code>", "</code>")}</p>')
        elif block.kind == "bullets":
            items = "".join(f"<li>{_inline(item, '<code>', '</code>')}</li>"
                            for item in block.items)
            parts.append(f"<ul>{items}</ul>")
        elif block.kind == "diagram":
            diagram = build_diagram(block.args[0], block.args[1])
            (figure,) = diagram_pages(diagram, cell_width=diagram.cell_mm, max_width=180.0,
                                      max_height=None)
            svg = render_svg(figure, theme=theme, description=diagram.title)
            parts.append(f"<figure>{svg.split('?>', 1)[1].strip()}</figure>")
        elif block.kind == "board":
            figure = sheet_board(game, (180.0, 250.0))[0]
            svg = render_svg(figure, theme=theme, description=f"{game_named(game).name} board")
            parts.append("<h2>Board</h2><p>Print the PDF sheet for a board at exact scale.</p>"
                         f"<figure>{svg.split('?>', 1)[1].strip()}</figure>")
    parts.append(f"<footer>{html.escape(game_named(game).credit)} · rules explained by boardgen "
                 f"{__version__}</footer></body></html>")
    return ("\n".join(parts) + "\n").encode("utf-8")
