"""Fitted output: a page the size of the drawing plus a small margin, at exact scale, for a
designer to place in a document of their own (a rulebook in LaTeX, Typst, InDesign, a wiki).

No page furniture, no title band and never tiled: the drawing's own ink, measured here
(glyph outlines, stroke widths, cell outlines), decides the page, and every format gets the
same page size.  A board carries a 50 mm bar and its cell size under it, so that a print of
the rulebook can still be checked for scale.
"""

from __future__ import annotations

import functools
from dataclasses import replace

from boardgen.errors import BoardgenError, option
from boardgen.i18n import number as decimal
from boardgen.i18n import tr
from boardgen.render.figure import (
    Figure,
    Stroke,
    Text,
    dot_outline,
    ink_box,
    text_box,
)
from boardgen.render.fonts import BOLD, REGULAR, face
from boardgen.render.paper import PageInfo
from boardgen.render.scene import Theme

# Blank paper all round the drawing: enough that a layout program's frame never touches
# the ink, small enough that the picture sits where it is put.
FIT_MARGIN_MM = 3.0
# Acrobat's (and PDF 1.7's) largest page side: 200 inches.
MAX_FIT_SIDE_MM = 5080.0
FIT_BAR_MM = 50.0
_BAR_TEXT_MM = 2.8  # 8 pt
_BAR_GAP_MM = 4.0  # between the drawing's ink and the bar


@functools.cache
def _glyph_bounds(weight: str, ch: str) -> tuple[float, float, float, float] | None:
    """A character's ink in font units (x0, y0, x1, y1, y up), None for a blank."""
    from fontTools.pens.boundsPen import BoundsPen

    found: list[BoundsPen] = []

    def pen(glyph_set: object) -> BoundsPen:
        made = BoundsPen(glyph_set)
        found.append(made)
        return made

    face(weight).draw_outline(ch, pen)
    bounds: tuple[float, float, float, float] | None = found[0].bounds if found else None
    return bounds


def text_ink_box(t: Text) -> tuple[float, float, float, float] | None:
    """Where a text's glyphs put ink (x0, y0, x1, y1, y down), as the writers place them:
    from the left of :func:`text_box`, the baseline half a cap height below ``t.y``."""
    font = face(t.weight)
    scale = t.size / font.units_per_em
    x = text_box(t)[0]
    baseline = t.y + font.cap_height * scale / 2
    xs: list[float] = []
    ys: list[float] = []
    advance = 0
    for ch in t.text:
        bounds = _glyph_bounds(t.weight, ch)
        if bounds is not None:
            gx0, gy0, gx1, gy1 = bounds
            xs += [x + (advance + gx0) * scale, x + (advance + gx1) * scale]
            ys += [baseline - gy1 * scale, baseline - gy0 * scale]
        advance += font.advance(ch)
    if not xs:
        return None
    return min(xs), min(ys), max(xs), max(ys)


def drawn_box(figure: Figure, theme: Theme) -> tuple[float, float, float, float] | None:
    """(x0, y0, x1, y1) of the ink the figure puts on paper in ``theme``: cell outlines by
    the theme's line width, marks by their outlines, texts by their glyphs, strokes and
    areas as :func:`boardgen.render.figure.ink_box` measures them.  Tighter than ink_box,
    which keeps a page's layout safe for any theme and any text."""
    boxes: list[tuple[float, float, float, float]] = []
    rest = ink_box(replace(figure, cells=[], marks=[], texts=[]))
    if rest is not None:
        boxes.append(rest)
    if figure.cells and figure.hex_offsets:
        half = theme.line_width_mm / 2  # round joins: half the line beyond each corner
        xs = [x for x, _ in figure.hex_offsets]
        ys = [y for _, y in figure.hex_offsets]
        boxes.append((min(c.x for c in figure.cells) + min(xs) - half,
                      min(c.y for c in figure.cells) + min(ys) - half,
                      max(c.x for c in figure.cells) + max(xs) + half,
                      max(c.y for c in figure.cells) + max(ys) + half))
    for mark in figure.marks:
        if mark.kind == "dot":
            radius, width = dot_outline(mark, theme)
            reach = radius + width / 2
        else:  # rings (0.22 of the radius wide), discs, crosses (0.25, about their ends)
            reach = 1.15 * mark.radius
        boxes.append((mark.x - reach, mark.y - reach, mark.x + reach, mark.y + reach))
    boxes += [ink for ink in map(text_ink_box, figure.texts) if ink is not None]
    if not boxes:
        return None
    return (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes),
            max(b[3] for b in boxes))


def with_scale_bar(figure: Figure, unit: str, below: str | None = None) -> Figure:
    """The figure with a 50 mm bar under its ink (a tick every 10 mm, taller at the ends)
    and, after it, what it checks and the unit (``each cell 13.0 mm flat to flat``);
    ``below``, a line under the bar (the game's credit and notes)."""
    bounds = ink_box(figure) or (0.0, 0.0, figure.width, figure.height)
    left, y = bounds[0], bounds[3] + _BAR_GAP_MM + 2.5
    width = 0.3
    bar = [Stroke(((left, y), (left + FIT_BAR_MM, y)), "text", width)]
    for k in range(0, int(FIT_BAR_MM) + 1, 10):
        tick = 2.5 if k in (0, int(FIT_BAR_MM)) else 1.5
        bar.append(Stroke(((left + k, y), (left + k, y - tick)), "text", width))
    # Level with the ticks' middle, as the PDF pages' bars are labelled.
    label = Text(left + FIT_BAR_MM + 2.0, y - 0.3 * _BAR_TEXT_MM, "50 mm", _BAR_TEXT_MM,
                 "caption", "start", BOLD)
    note = Text(text_box(label)[2] + 2.0, label.y, unit[0].upper() + unit[1:] + ".",
                _BAR_TEXT_MM, "caption", "start", REGULAR)
    texts = [label, note]
    if below:
        texts.append(Text(left, y + 2.2 * _BAR_TEXT_MM, below, _BAR_TEXT_MM, "caption",
                          "start", REGULAR))
    out = figure.shifted(0.0, 0.0)
    out.strokes = [*out.strokes, *bar]
    out.texts = [*out.texts, *texts]
    out.width = max(figure.width, *(text_box(t)[2] for t in texts))
    out.height = y + (3.2 if below else 1.0) * _BAR_TEXT_MM
    return out


def fitted(figure: Figure, theme: Theme, margin: float = FIT_MARGIN_MM) -> Figure:
    """The figure moved so that its ink starts ``margin`` mm from the top left, its size the
    ink's plus ``margin`` on every side; refused past the largest page a PDF may have."""
    ink = drawn_box(figure, theme) or (0.0, 0.0, 0.0, 0.0)
    moved = figure.shifted(margin - ink[0], margin - ink[1])
    moved.width = ink[2] - ink[0] + 2 * margin
    moved.height = ink[3] - ink[1] + 2 * margin
    if max(moved.width, moved.height) > MAX_FIT_SIDE_MM:
        raise BoardgenError(f"{option('fit')}: the drawing is {moved.width:.0f} x "
                            f"{moved.height:.0f} mm, more than the {MAX_FIT_SIDE_MM:,.0f} mm "
                            f"(200 in) a PDF page may measure: use a smaller "
                            f"{option('cell_mm')}, or leave out {option('fit')} to tile it")
    return moved


def render_fitted(figure: Figure, fmt: str, *, theme: Theme, dpi: int, info: PageInfo,
                  description: str | None = None) -> bytes:
    """The figure, already :func:`fitted`, on a page of its own size: PDF, SVG (UTF-8) or
    PNG.  ``info`` goes into the PDF's metadata (no page furniture prints)."""
    if fmt == "pdf":
        from boardgen.render.pdf import render_pdf_fitted

        return render_pdf_fitted(figure, theme=theme, info=info)
    if fmt == "png":
        from boardgen.render.png import render_figure_png

        return render_figure_png(figure, theme=theme, title=None, dpi=dpi)
    from boardgen.render.svg import render_svg

    return render_svg(figure, theme=theme, description=description).encode("utf-8")


def render_fitted_board(figure: Figure, fmt: str, *, theme: Theme, dpi: int,
                        info: PageInfo) -> bytes:
    """An empty board's figure on a fitted page, with the 50 mm bar and its unit under it
    (the figure's own scale note, else its cell width)."""
    unit = figure.scale_note or tr("each cell {width} mm flat to flat").format(
        width=decimal(figure.cell_width))
    # The designer's credit (Steere asks that his games be credited) and what every
    # picture of the game must say (a reconstruction of ours), as a page's footer does.
    credit = " \u00b7 ".join(words for words in (info.credit, info.note) if words)
    page = fitted(with_scale_bar(figure, unit, credit or None), theme)
    description = f"{info.subject} \u00b7 {unit}" if info.subject else unit
    return render_fitted(page, fmt, theme=theme, dpi=dpi, info=info, description=description)
