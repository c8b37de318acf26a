"""Figures -> an SVG for a laser (or vinyl) cutter: 1:1 in millimetres, three layers.

A makerspace's cutter reads an SVG by colour: cut lines red (255, 0, 0), score lines blue
(0, 0, 255), both hairlines with no fill; engraving black and filled.  Each kind is an
Inkscape layer of its own, so that it can be switched off or sent with its own power and
speed.  Every cut path is closed, no line is drawn twice (a laser would cut it twice and
burn the edge), and text is engraved as glyph outlines, so that the file needs no font.

The kerf (the width the beam burns away) is given back when asked: a part's outline moves
out by half the kerf on every side (the part comes out its drawn size), a hole's moves in
(the hole comes out its drawn size); a 4 mm hole with a 0.2 mm kerf is drawn 3.8 mm across.

No game is named here: a hex board's cells, labels and stones, and a board of points' holes,
lines, labels and pieces come in as the same figures the printers draw.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Literal

from boardgen.errors import BoardgenError, option
from boardgen.render.figure import Figure, Mark, Stroke, Text, text_box
from boardgen.render.fonts import face
from boardgen.render.svg import INKSCAPE_NS, escape, quoteattr

Cutter = Literal["laser", "vinyl"]
CUTTERS: tuple[str, ...] = ("laser", "vinyl")
CUT, SCORE, ENGRAVE = "#ff0000", "#0000ff", "#000000"
# Hairlines: 0.01-0.025 mm is what laser drivers take as "vector cut".  A vinyl cutter's
# design software shows nothing that thin, and cuts any stroke it is given: 0.1 mm there.
STROKE_MM = {"laser": 0.02, "vinyl": 0.1}
MAX_KERF_MM = 1.0
BOARD_MARGIN_MM = 5.0  # wood round the outermost label, inside the board's cut outline
SHEET_GAP_MM = 10.0  # between the board and a sheet of parts
PART_GAP_MM = 2.0  # between two parts: no two cut lines touch
STONE_PLAY_MM = 1.0  # a stone is this much narrower than its cell


@dataclass(frozen=True)
class Part:
    """``count`` rectangular parts of ``length`` x ``width`` mm (finished size), with a
    label engraved beside their block."""

    length: float
    width: float
    count: int
    label: str


@dataclass(frozen=True)
class CutterOptions:
    cutter: Cutter = "laser"
    kerf_mm: float = 0.0
    hole_mm: float | None = None  # None: the hole as the printed board draws it


def padded(figure: Figure, margin: float = BOARD_MARGIN_MM) -> Figure:
    """The figure with ``margin`` mm more room on every side (the wood round the labels)."""
    return replace(figure.shifted(margin, margin), width=figure.width + 2 * margin,
                   height=figure.height + 2 * margin)


def _n(v: float) -> str:
    return f"{v:.3f}"


class _Layers:
    """The three layers' elements, kept apart; segments scored once each."""

    def __init__(self) -> None:
        self.cut: list[str] = []
        self.score: list[str] = []
        self.engrave: list[str] = []
        self._scored: set[tuple[tuple[float, float], tuple[float, float]]] = set()
        self._score_path: list[str] = []

    def score_segment(self, a: tuple[float, float], b: tuple[float, float]) -> None:
        key = tuple(sorted(((round(a[0], 2), round(a[1], 2)), (round(b[0], 2),
                                                               round(b[1], 2)))))
        if key in self._scored:
            return
        self._scored.add(key)  # type: ignore[arg-type]
        self._score_path.append(f"M{_n(a[0])} {_n(a[1])}L{_n(b[0])} {_n(b[1])}")

    def flush_score(self, name: str) -> None:
        if self._score_path:
            self.score.append(f'<path id="{name}" d="{"".join(self._score_path)}"/>')
            self._score_path = []


def _rect(x0: float, y0: float, x1: float, y1: float) -> str:
    return f"M{_n(x0)} {_n(y0)}H{_n(x1)}V{_n(y1)}H{_n(x0)}Z"


def _circle(x: float, y: float, r: float) -> str:
    return f'<circle cx="{_n(x)}" cy="{_n(y)}" r="{_n(r)}"/>'


def _glyphs(t: Text) -> str:
    """A text as one path of glyph outlines, in absolute millimetres."""
    from fontTools.pens.svgPathPen import SVGPathPen
    from fontTools.pens.transformPen import TransformPen

    font = face(t.weight)
    scale = t.size / font.units_per_em
    x = text_box(t)[0]
    baseline = t.y + font.cap_height * scale / 2
    pens: list[SVGPathPen] = []  # one pen for the whole text, made from the font's glyph set

    def pen_at(glyph_set: object, *, left: float) -> TransformPen:
        if not pens:
            pens.append(SVGPathPen(glyph_set, ntos=lambda v: f"{v:.3f}"))
        return TransformPen(pens[0], (scale, 0, 0, -scale, left, baseline))

    for ch in t.text:
        if ch != " ":
            # drawn under the font's lock: the API may draw from several threads
            font.draw_outline(ch, functools.partial(pen_at, left=x))
        x += font.advance(ch) * scale
    commands: str = pens[0].getCommands() if pens else ""
    return commands


def _thick(stroke: Stroke) -> Iterable[str]:
    """A stroke as filled quadrilaterals, one a segment (an engraved line or rule)."""
    half = stroke.width / 2
    for (ax, ay), (bx, by) in zip(stroke.points, stroke.points[1:], strict=False):
        length = math.hypot(bx - ax, by - ay)
        if length == 0:
            continue
        nx, ny = -(by - ay) / length * half, (bx - ax) / length * half
        yield (f"M{_n(ax + nx)} {_n(ay + ny)}L{_n(bx + nx)} {_n(by + ny)}"
               f"L{_n(bx - nx)} {_n(by - ny)}L{_n(ax - nx)} {_n(ay - ny)}Z")


def _ring(m: Mark) -> str:
    """A ring mark as a filled annulus (two circles, even-odd)."""
    width = m.radius * 0.22
    outer, inner = m.radius + width / 2, m.radius - width / 2

    def circle(r: float) -> str:
        return (f"M{_n(m.x - r)} {_n(m.y)}A{_n(r)} {_n(r)} 0 1 0 {_n(m.x + r)} {_n(m.y)}"
                f"A{_n(r)} {_n(r)} 0 1 0 {_n(m.x - r)} {_n(m.y)}Z")

    return circle(outer) + circle(inner)


def _engrave_figure(layers: _Layers, figure: Figure, options: CutterOptions,
                    hole_role: str) -> None:
    """What a figure shows, but its cells: holes cut, rings, strokes and texts engraved."""
    kerf = options.kerf_mm
    for m in figure.marks:
        if m.kind == "dot" and m.role == hole_role:
            diameter = options.hole_mm if options.hole_mm is not None else 2 * m.radius
            if kerf >= diameter:
                raise BoardgenError(f"{option('kerf')} {kerf:g}: as wide as a hole or wider "
                                    f"(the holes are {diameter:g} mm across); give a smaller "
                                    f"{option('kerf')} or a larger {option('hole_mm')}")
            layers.cut.append(_circle(m.x, m.y, (diameter - kerf) / 2))
        elif m.kind == "ring":
            layers.engrave.append(f'<path fill-rule="evenodd" d="{_ring(m)}"/>')
    strokes = [d for s in figure.strokes for d in _thick(s)]
    if strokes:
        layers.engrave.append(f'<path d="{"".join(strokes)}"/>')
    for t in figure.texts:
        if t.text.strip():
            layers.engrave.append(f'<path aria-label={quoteattr(t.text)} '
                                  f'd="{_glyphs(t)}"/>')


def _board(layers: _Layers, figure: Figure, options: CutterOptions, hole_role: str) -> None:
    """The board: its cells' edges scored once each, the rest engraved or cut, and its
    outline cut (out by half the kerf) last: a cutter takes the file's order, and a board
    cut free before its holes would shift on the bed."""
    offsets = figure.hex_offsets
    for cell in figure.cells:
        corners = [(cell.x + dx, cell.y + dy) for dx, dy in offsets]
        for a, b in zip(corners, corners[1:] + corners[:1], strict=False):
            layers.score_segment(a, b)
    layers.flush_score("cell-grid")
    _engrave_figure(layers, figure, options, hole_role)
    grow = options.kerf_mm / 2
    layers.cut.append(f'<path id="board-outline" d="'
                      f'{_rect(-grow, -grow, figure.width + grow, figure.height + grow)}"/>')


def _discs(layers: _Layers, count: int, diameter: float, top: float, width: float,
           kerf: float) -> float:
    """``count`` discs of ``diameter`` (finished) in rows under ``top``, as wide as
    ``width`` allows; returns the bottom of the sheet."""
    pitch = diameter + kerf + PART_GAP_MM
    per_row = max(1, int((width + PART_GAP_MM) // pitch))
    for k in range(count):
        row, col = divmod(k, per_row)
        layers.cut.append(_circle(col * pitch + pitch / 2 - PART_GAP_MM / 2,
                                  top + row * pitch + pitch / 2 - PART_GAP_MM / 2,
                                  (diameter + kerf) / 2))
    rows = math.ceil(count / per_row)
    return top + rows * pitch - PART_GAP_MM


def _parts(layers: _Layers, parts: Iterable[Part], top: float, width: float, kerf: float,
           label_size: float) -> float:
    """Each group of parts as a block of rectangles (each grown by the kerf), its label
    engraved above it; returns the bottom of the last block."""
    for part in parts:
        length, across = part.length + kerf, part.width + kerf
        label = Text(0.0, top + label_size / 2, part.label, label_size, "caption", "start")
        layers.engrave.append(f'<path aria-label={quoteattr(part.label)} '
                              f'd="{_glyphs(label)}"/>')
        top += 1.8 * label_size
        per_row = max(1, int((width + PART_GAP_MM) // (length + PART_GAP_MM)))
        for k in range(part.count):
            row, col = divmod(k, per_row)
            x, y = col * (length + PART_GAP_MM), top + row * (across + PART_GAP_MM)
            layers.cut.append(f'<path d="{_rect(x, y, x + length, y + across)}"/>')
        top += math.ceil(part.count / per_row) * (across + PART_GAP_MM) + SHEET_GAP_MM
    return top - SHEET_GAP_MM


def render_cutter_svg(board: Figure, *, options: CutterOptions, title: str = "",
                      stones: int = 0, parts: Iterable[Part] = (),
                      hole_role: str = "point") -> str:
    """The board (cut, scored, engraved) and under it its parts: ``stones`` discs as
    wide as a cell less STONE_PLAY_MM, and ``parts`` as rectangles."""
    layers = _Layers()
    _board(layers, board, options, hole_role)
    width, bottom = board.width, board.height
    kerf = options.kerf_mm
    if stones:
        bottom = _discs(layers, stones, board.cell_width - STONE_PLAY_MM,
                        bottom + SHEET_GAP_MM, width, kerf)
    parts = list(parts)
    if parts:
        bottom = _parts(layers, parts, bottom + SHEET_GAP_MM, width, kerf, 4.0)
    # Room for half a kerf round everything, so that nothing touches the document's edge.
    edge = kerf / 2 + 1.0
    x0, y0 = -edge, -edge
    w, h = width + 2 * edge, bottom + 2 * edge
    stroke = STROKE_MM[options.cutter]

    def layer(name: str, style: str, elements: list[str]) -> str:
        body = "\n".join(elements)
        return (f'<g inkscape:groupmode="layer" inkscape:label="{name}" id="{name}" '
                f'style="{style}">\n{body}\n</g>')

    about = (f"For a {options.cutter} cutter, 1:1 in millimetres: cut red, score blue, "
             f"engrave black; kerf {kerf:g} mm")
    head = (f'<?xml version="1.0" encoding="UTF-8"?>\n'
            f'<svg xmlns="http://www.w3.org/2000/svg" xmlns:inkscape="{INKSCAPE_NS}" '
            f'width="{_n(w)}mm" height="{_n(h)}mm" viewBox="{_n(x0)} {_n(y0)} {_n(w)} {_n(h)}">'
            f"\n<title>{escape(title)}</title>\n<desc>{escape(about)}</desc>")
    line = f"fill:none;stroke-width:{stroke:g}"
    return "\n".join([head,
                      layer("engrave", f"fill:{ENGRAVE};stroke:none", layers.engrave),
                      layer("score", f"{line};stroke:{SCORE}", layers.score),
                      layer("cut", f"{line};stroke:{CUT}", layers.cut),
                      "</svg>\n"])
