"""A scene measured out in millimetres: the drawing primitives both writers share.

Building the figure once and writing it twice (SVG, PDF) keeps the two outputs the same
picture: every position, size and role is decided here, the writers only translate.
Coordinates are millimetres with y growing downward; (0, 0) is the figure's top-left.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from typing import Any, NamedTuple, TypeVar, cast

from boardgen.geometry import Hex, HexGrid, Layout, Notation
from boardgen.i18n import N_, language, tr
from boardgen.picture import DESIGNER, MARK_ROLE_PREFIX, Scene
from boardgen.render.fonts import BOLD, REGULAR, face
from boardgen.render.scene import EDGE_SUFFIX, Theme
from boardgen.text import curly_quotes

Point = tuple[float, float]
# The smallest text a printed page carries (8.2 pt): smaller is hard to read on paper.
MIN_PRINT_TEXT_MM = 2.9


class CellShape(NamedTuple):
    """One cell of the board (a tuple: large boards build tens of thousands of them)."""

    name: str
    x: float
    y: float
    role: str


@dataclass(frozen=True, slots=True)
class Text:
    """A line of text; ``y`` is the middle of its capitals, so it centres in a cell."""

    x: float
    y: float
    text: str
    size: float
    role: str  # "coordinate", "cell-text", "caption"
    anchor: str = "middle"  # "start", "middle" or "end"
    weight: str = REGULAR
    on: str | None = None  # the role of the stone it is printed on (its ink contrasts)


@dataclass(frozen=True, slots=True)
class Mark:
    kind: str  # "dot", "ring", "cross" or "disc"
    x: float
    y: float
    radius: float
    role: str


@dataclass(frozen=True, slots=True)
class Stroke:
    points: tuple[Point, ...]
    role: str
    width: float
    arrow: bool = False  # an arrowhead at the last point
    under: bool = False  # drawn before the marks (a board's lines under its points), else after
    dash: float = 0.0  # length of dashes and gaps in mm; 0: a solid line
    head: float = 0.0  # an arrowhead's length in mm; 0: in proportion to the width


@dataclass(frozen=True, slots=True)
class Area:
    """A filled polygon under everything else (e.g. the home halves of a lattice board), or,
    in ``Figure.overlays``, over the cells (a highlight's band, named by its cell)."""

    points: tuple[Point, ...]
    role: str
    name: str = ""


# A highlight's band lies inside the cell's edge, between these shares of the distance
# from the centre to a corner: the cell's own fill shows outside and inside it, and a stone
# or a numbered disc (0.3 of the cell width across the middle) fits inside it.
BAND_OUTER, BAND_INNER = 0.95, 0.64
BAND_EDGE_MM = 0.25  # the band's two outlines (role ROLE-edge: see Theme.colour)


def band(name: str, x: float, y: float, role: str, offsets: tuple[Point, ...]
         ) -> tuple[Area, list[Stroke]]:
    """A highlight over the cell centred at (x, y): a hexagonal band, one polygon with a
    hole (the inner hexagon traced the other way round, joined by a slit of no width),
    and its two outlines."""
    outer = [(x + dx * BAND_OUTER, y + dy * BAND_OUTER) for dx, dy in offsets]
    inner = [(x + dx * BAND_INNER, y + dy * BAND_INNER) for dx, dy in offsets]
    points = (*outer, outer[0], inner[0], *reversed(inner[1:]), inner[0])
    edges = [Stroke((*ring, ring[0]), f"{role}{EDGE_SUFFIX}", BAND_EDGE_MM, under=True)
             for ring in (outer, inner)]
    return Area(points, role, name), edges


# Patterns are drawn on a square lattice of pitch pattern_step(cell width); the share of
# the pitch each pattern's line (or dot radius) takes sets how dark it prints.
PATTERN_SHARE = {"dots": 0.12, "hatch": 0.22, "backhatch": 0.22, "crosshatch": 0.14,
                 "hlines": 0.14, "vlines": 0.22, "grid": 0.12}


def pattern_step(cell_width: float) -> float:
    """The pitch of patterns: finer in small cells, never coarser than 1.7 mm (a coarse
    pattern reads as marks rather than a shade)."""
    return max(0.8, 0.14 * min(cell_width, 12.0))


# Round pieces people play hex games with, and their size across in mm.
COMMON_PIECES = ((N_("8 mm beads"), 8.0), (N_("12 mm glass counters"), 12.0),
                 (N_("Go stones"), 22.0))  # names translated where printed (tr)


def cell_guidance(cell_width: float) -> str:
    """What a cell of this width holds (a round piece fits with 1 mm to spare), and the
    cell size for the next larger common piece, in words (a printed page names no
    command-line option)."""
    larger = [(name, size) for name, size in COMMON_PIECES if size + 1.0 > cell_width + 1e-9]
    text = tr("fits pieces up to {size} mm").format(size=math.floor(cell_width - 1.0 + 1e-9))
    if larger:
        name, size = larger[0]
        return text + tr("; for {pieces}, print the board with {size} mm cells").format(
            pieces=tr(name), size=f"{size + 1.0:.0f}")
    return text + f" ({tr(COMMON_PIECES[-1][0])})"


def dot_outline(mark: Mark, theme: Theme) -> tuple[float, float]:
    """The outline of a stone, as (radius of the stroked circle, line width): bold enough
    that a light stone reads; a rimmed stone's heavy rim lies inside its radius."""
    rim = theme.rims.get(mark.role)
    if rim:
        width = rim * mark.radius
        return mark.radius - width / 2, width
    return mark.radius, max(theme.line_width_mm, 0.14 * mark.radius)


def text_ink(t: Text, theme: Theme) -> str:
    """The colour a text prints in: its role's, or (on a stone) the one that contrasts."""
    return theme.ink_on(t.on) if t.on else theme.colour(t.role)


# What CellShape(...) and CellShape._make do, without their Python-level call a cell.
_make_cell = cast(Callable[[type[CellShape], tuple[str, float, float, str]], CellShape],
                  tuple.__new__)


@dataclass
class Figure:
    width: float
    height: float
    cell_width: float
    hex_offsets: tuple[Point, ...]
    cells: list[CellShape] = field(default_factory=list)
    texts: list[Text] = field(default_factory=list)
    marks: list[Mark] = field(default_factory=list)
    strokes: list[Stroke] = field(default_factory=list)
    # What the PDF scale check says of the figure's unit; empty: hex cells of cell_width.
    scale_note: str = ""
    areas: list[Area] = field(default_factory=list)
    overlays: list[Area] = field(default_factory=list)  # highlights, over the cells

    def shifted(self, dx: float, dy: float) -> Figure:
        # Built field by field, not with dataclasses.replace: a sheet's diagrams shift some
        # 50,000 texts, marks and strokes, and replace's generic walk of the fields was 6 %
        # of `boardgen all`'s profile (tests/render/test_render.py checks every field is carried).
        # Cells with tuple.__new__ and areas by their constructor: what _replace and
        # replace do, without their Python-level walk a cell (the same values); points
        # through a list (a generator costs more than the list for a few points).
        make = _make_cell
        return Figure(
            self.width, self.height, self.cell_width, self.hex_offsets,
            [make(CellShape, (name, x + dx, y + dy, role)) for name, x, y, role in self.cells],
            [Text(t.x + dx, t.y + dy, t.text, t.size, t.role, t.anchor, t.weight, t.on)
             for t in self.texts],
            [Mark(m.kind, m.x + dx, m.y + dy, m.radius, m.role) for m in self.marks],
            [Stroke(tuple([(x + dx, y + dy) for x, y in s.points]), s.role, s.width, s.arrow,
                    s.under, s.dash, s.head)
             for s in self.strokes],
            self.scale_note,
            [Area(tuple([(x + dx, y + dy) for x, y in a.points]), a.role, a.name)
             for a in self.areas],
            [Area(tuple([(x + dx, y + dy) for x, y in a.points]), a.role, a.name)
             for a in self.overlays],
        )


def curled(figure: Figure) -> Figure:
    """The figure with typographer's quotes and apostrophes in its texts (captions come
    from the engine and files with straight ones), as the rule sheets print them."""
    texts = [replace(t, text=curly_quotes(t.text)) if "'" in t.text or '"' in t.text else t
             for t in figure.texts]
    return replace(figure, texts=texts)


def text_box(t: Text) -> tuple[float, float, float, float]:
    """(x0, y0, x1, y1) of a text, from the font's advance widths and cap height."""
    width = face(t.weight).width_mm(t.text, t.size)
    anchor = t.anchor  # (a board's labels are measured by the thousand: no dict a text)
    if anchor == "middle":
        x0 = t.x - width / 2
    elif anchor == "start":
        x0 = t.x
    elif anchor == "end":
        x0 = t.x - width
    else:
        raise KeyError(anchor)
    # Capitals are ~0.66 em; leave room for descenders (0.25 em) below and 0.1 em above.
    return x0, t.y - 0.43 * t.size, x0 + width, t.y + 0.58 * t.size


def coordinate_size(cell_width: float) -> float:
    return max(1.6, 0.36 * cell_width)


class _GridFacts(NamedTuple):
    """What measuring a figure reads off its grid whatever the cell size: a board's default
    cell size measures it twice (a probe, then the figure), each a scan of every cell."""

    grid: HexGrid
    notation: Notation
    extremes: tuple[float, float, float, float]  # Layout.centre_extremes, pointy-top


_last_facts: _GridFacts | None = None  # the last grid measured (one at a time, mostly)


def _facts(grid: HexGrid) -> _GridFacts:
    global _last_facts
    facts = _last_facts  # read once: another thread may replace it meanwhile
    if facts is None or facts.grid is not grid:
        # A row's centres run along a line, so its extremes are at its ends (exactly: a
        # float times a constant plus a constant never turns back).
        ends = [h for row in grid.rows() for h in (row[0], row[-1])]
        facts = _GridFacts(grid, Notation(grid),
                           Layout.from_cell_width(1.0).centre_extremes(ends))
        _last_facts = facts
    return facts


# --- panels built once (boardgen all) ---------------------------------------------------
#
# ``boardgen all`` draws each diagram's panels again and again at the same size: its PDF
# (the page search measures them at several sizes), its SVG and the SVG's thumbnail, each
# rule sheet and kit that shows it, the HTML sheet's animations (some 750 panel figures,
# a sixth as many distinct ones).  Inside :func:`figures_memoised` each is built once per
# process (the gallery opens it before its workers fork, so that they inherit what the
# parent built).  A panel is known by the scene object itself (a scene is frozen: the
# registry's memoised diagrams hand out the same scenes to every job), its size, its
# margin and the language (captions and scale notes are translated where drawn); every
# hit is a fresh copy of the figure's lists (a Figure is mutable; its items are frozen).

_SceneT = TypeVar("_SceneT")
_FigureKey = tuple[str, int, float, float, str]
_figure_memo: dict[_FigureKey, tuple[object, Figure]] | None = None
# A board larger than this is not kept (a sheet's full board: built once anyway, and a
# memo of it would hold its cells until the build ends).
MEMO_MAX_CELLS = 2_000
MEMO_MAX_FIGURES = 4_096


@contextmanager
def figures_memoised() -> Iterator[None]:
    """Inside, :func:`board_figure` and ``lattice_figure`` build each panel once (see
    above); nested uses share the outermost memo."""
    global _figure_memo
    if _figure_memo is not None:
        yield
        return
    _figure_memo = {}
    try:
        yield
    finally:
        _figure_memo = None
        _uncaptioned_memo.clear()


def copied(figure: Figure) -> Figure:
    """The figure with lists of its own (the items are frozen and shared)."""
    return Figure(figure.width, figure.height, figure.cell_width, figure.hex_offsets,
                  list(figure.cells), list(figure.texts), list(figure.marks),
                  list(figure.strokes), figure.scale_note, list(figure.areas),
                  list(figure.overlays))


def memoised_figure(kind: str, build: Callable[[_SceneT, float, float], Figure],
                    scene: _SceneT, size: float, margin: float) -> Figure:
    """``build(scene, size, margin)``, once per scene, size, margin and language while
    :func:`figures_memoised` is open."""
    memo = _figure_memo
    if memo is None:
        return build(scene, size, margin)
    key = (kind, id(scene), size, margin, language())
    found = memo.get(key)
    if found is not None and found[0] is scene:
        return copied(found[1])
    figure = build(scene, size, margin)
    if len(figure.cells) <= MEMO_MAX_CELLS and len(memo) < MEMO_MAX_FIGURES:
        # The scene is kept with its figure: its id is not reused while the memo lives.
        memo[key] = (scene, copied(figure))
    return figure


_uncaptioned_memo: dict[int, tuple[object, object]] = {}


def uncaptioned(scene: _SceneT) -> _SceneT:
    """The scene (a frozen dataclass with a ``caption``) without its caption (a rule sheet
    sets captions as text): inside :func:`figures_memoised` the same object each time, so
    that its figure is built once."""
    if getattr(scene, "caption", None) is None:
        return scene
    if _figure_memo is None:
        return cast(_SceneT, replace(cast(Any, scene), caption=None))
    found = _uncaptioned_memo.get(id(scene))
    if found is not None and found[0] is scene:
        return cast(_SceneT, found[1])
    bare = cast(_SceneT, replace(cast(Any, scene), caption=None))
    _uncaptioned_memo[id(scene)] = (scene, bare)  # the scene kept: its id stays its own
    return bare


def board_figure(scene: Scene, cell_width: float, *, margin: float = 1.0) -> Figure:
    """Measure a scene out at ``cell_width`` mm (flat to flat) per cell (once, inside
    :func:`figures_memoised`)."""
    return memoised_figure("board", _board_figure, scene, cell_width, margin)


def _board_figure(scene: Scene, cell_width: float, margin: float) -> Figure:
    """Measure a scene out at ``cell_width`` mm (flat to flat) per cell.

    Two passes: the labels and caption are laid out around the origin to find the figure's
    extent, then everything is built once at its final position (shifting thousands of
    frozen cells afterwards measured as a third of the whole cost).
    """
    grid = scene.grid
    facts = _facts(grid)
    notation = facts.notation
    (x0, y0, x1, y1), outside, captions = _extent(scene, cell_width, facts)
    layout = Layout.from_cell_width(cell_width, origin=(margin - x0, margin - y0))
    ox, oy = layout.origin
    o, size = layout.orientation, layout.size_mm
    f0, f1, f2, f3 = o.f0, o.f1, o.f2, o.f3
    roles = scene.cell_roles
    name = notation.name
    # What CellShape(...) and CellShape._make do, without their Python-level call a cell
    # (a side-100 board has 29,701).
    make = cast(Callable[[type[CellShape], tuple[str, float, float, str]], CellShape],
                tuple.__new__)
    if roles:
        cells = [
            make(CellShape, (cell_name, ox + (f0 * q + f1 * r) * size,
                             oy + (f2 * q + f3 * r) * size, roles.get(h, "empty")))
            for cell_name, h in zip(notation.names(grid.cells), grid.cells, strict=True)
            for q, r in (h,)
        ]
    else:  # an empty board
        cells = [
            make(CellShape, (cell_name, ox + (f0 * q + f1 * r) * size,
                             oy + (f2 * q + f3 * r) * size, "empty"))
            for cell_name, (q, r) in zip(notation.names(grid.cells), grid.cells, strict=True)
        ]
    texts = [replace(t, x=t.x + ox, y=t.y + oy) for t in outside]
    texts.extend(_inner_texts(scene, layout, notation, cell_width))
    texts.extend(replace(caption, x=caption.x + ox, y=caption.y + oy) for caption in captions)
    marks = []
    strokes = []
    for marker in scene.markers:
        x, y = layout.centre(marker.cell)
        if marker.role == DESIGNER:  # the designer's own look, never an engine's mark
            strokes.extend(designer_strokes(marker.kind, x, y, cell_width, text=marker.text))
            if marker.kind == "text":
                texts.append(designer_text(marker.text, x, y, cell_width))
            continue
        radius = {"dot": 0.3, "ring": 0.36, "cross": 0.28, "disc": 0.3,
                  "pip": 0.12}[marker.kind] * cell_width
        # A pip is a small dot: a mark on a cell that keeps the cell's own colour readable.
        marks.append(Mark("dot" if marker.kind == "pip" else marker.kind, x, y, radius,
                          marker.role))
    overlays = []
    offsets = layout.corner_offsets()
    for h, role in scene.highlights.items():
        x, y = layout.centre(h)
        overlay, edges = band(name(h), x, y, role, offsets)
        overlays.append(overlay)
        strokes.extend(edges)
    strokes.extend(stroke for a in scene.arrows
                   for stroke in arrow_strokes(layout.centre(a.start), layout.centre(a.end),
                                               a.role, cell_width))
    return Figure(x1 - x0 + 2 * margin, y1 - y0 + 2 * margin, cell_width, offsets, cells,
                  texts, marks, strokes, overlays=overlays)


def _extent(scene: Scene, cell_width: float, facts: _GridFacts
            ) -> tuple[tuple[float, float, float, float], list[Text], list[Text]]:
    """The box (x0, y0, x1, y1) the scene takes round the origin, with its outside labels
    and caption laid out there (the first pass of board_figure)."""
    probe = Layout.from_cell_width(cell_width)
    x0, y0, x1, y1 = probe.bounds_of(facts.extremes)
    # Texts inside cells are fitted to them, so only the outside labels can widen the box.
    outside = _outside_texts(scene, probe, facts.notation, cell_width)
    for t in outside:
        tx0, ty0, tx1, ty1 = text_box(t)
        x0, y0, x1, y1 = min(x0, tx0), min(y0, ty0), max(x1, tx1), max(y1, ty1)
    captions = _caption(scene, x0, y1, max(x1 - x0, 45.0), cell_width)
    for caption in captions:
        cx0, _, cx1, cy1 = text_box(caption)
        x0, x1, y1 = min(x0, cx0), max(x1, cx1), max(y1, cy1)
    return (x0, y0, x1, y1), outside, captions


def board_size(scene: Scene, cell_width: float, *, margin: float = 1.0) -> tuple[float, float]:
    """The width and height of ``board_figure(scene, cell_width)``, without building its
    cells (choosing a cell size measures a probe figure first)."""
    (x0, y0, x1, y1), _, _ = _extent(scene, cell_width, _facts(scene.grid))
    return x1 - x0 + 2 * margin, y1 - y0 + 2 * margin


def _outside_texts(scene: Scene, layout: Layout, notation: Notation,
                   cell_width: float) -> list[Text]:
    if scene.labels != "outside":
        return []
    return _outside_labels(scene.grid.rows(), notation, layout, cell_width)


def _inner_texts(scene: Scene, layout: Layout, notation: Notation,
                 cell_width: float) -> list[Text]:
    """Texts inside cells: cell names (labels inside) and the scene's cell texts."""
    texts: list[Text] = []
    if scene.labels == "inside":
        for h in scene.grid.cells:
            x, y = layout.centre(h)
            texts.append(_fitted(x, y, notation.name(h), cell_width, 0.26, "coordinate"))
    # A number on a stone (not on a paper disc) prints in the ink that contrasts with it.
    stones = {m.cell: m.role for m in scene.markers if m.kind == "dot"}
    discs = {m.cell for m in scene.markers if m.kind == "disc"}
    for h, label in scene.cell_texts.items():
        x, y = layout.centre(h)
        texts.append(replace(_fitted(x, y, label, cell_width, 0.36, "cell-text"), weight=BOLD,
                             on=stones.get(h) if h not in discs else None))
    return texts


def wrap(text: str, size: float, width: float, weight: str = REGULAR) -> list[str]:
    """Greedy line breaking at spaces so that each line is at most ``width`` mm wide.  A
    no-break space (U+00A0, as between a number and its unit) never breaks."""
    font = face(weight)
    lines: list[str] = []
    current = ""
    for word in re.split(r"[ \t\n]+", text.strip()):
        candidate = f"{current} {word}" if current else word
        if current and font.width_mm(candidate, size) > width:
            lines.append(current)
            current = word
        else:
            current = candidate
    if current:
        lines.append(current)
    # No runt: a last line of one word takes the word before it along when both fit.
    if len(lines) >= 2 and " " not in lines[-1] and " " in lines[-2]:
        head, moved = lines[-2].rsplit(" ", 1)
        if font.width_mm(f"{moved} {lines[-1]}", size) <= width:
            lines[-2:] = [head, f"{moved} {lines[-1]}"]
    return lines


def _caption(scene: Scene, x: float, top: float, width: float, cell_width: float) -> list[Text]:
    """The caption, wrapped to ``width``, flush left at x and ragged right (as the rule
    sheets set theirs), starting a line below ``top``."""
    if not scene.caption:
        return []
    size = max(MIN_PRINT_TEXT_MM, min(3.6, 0.3 * cell_width))
    return [Text(x, top + (1.3 + 1.35 * k) * size, line, size, "caption", "start")
            for k, line in enumerate(wrap(bind_numbers(scene.caption), size, width))]


def bind_numbers(text: str) -> str:
    """``text`` with no-break spaces where a line break would split what a reader takes
    in one glance: a score ("10 to 9", "10 à 9": a short word between two numbers, held
    to the word before it, "wins 10 to 9") and a list of counts ("2, 3, 3")."""
    text = re.sub(r" (\S+) (\d+) (\S{1,3}) (?=\d)", " \\1\u00a0\\2\u00a0\\3\u00a0", text)
    return re.sub(r"(?<=\d), (?=\d)", ",\u00a0", text)


def _fitted(x: float, y: float, text: str, cell_width: float, share: float,
            role: str) -> Text:
    """Text centred in a cell, shrunk if needed so that it stays inside the hexagon."""
    size = share * cell_width
    width = face(REGULAR).width_mm(text, size)
    if width > 0.78 * cell_width:
        size *= 0.78 * cell_width / width
    return Text(x, y, text, size, role)


def _outside_labels(rows: tuple[tuple[Hex, ...], ...], notation: Notation, layout: Layout,
                    cell_width: float) -> list[Text]:
    """Row labels left of each row, line labels (the server's diagonal numbers, the a1
    notation's column letters) beyond the top end of each line, where the server's Figure 1
    prints them."""
    size = coordinate_size(cell_width)
    texts = []
    for row in rows:
        first = row[0]
        # Half a cell left of the leftmost cell's west corner, right-aligned.
        x, y = layout.centre(first)
        texts.append(Text(x - 0.5 * cell_width - 0.35 * size, y, notation.row_name(first.r),
                          size, "coordinate", "end"))
    dq, dr = notation.line_step
    for label, h in notation.line_labels():
        # Along the line, beyond its top cell: where the next cell up would be.
        x, y = layout.point(h.q + 0.8 * dq, h.r + 0.8 * dr)
        texts.append(Text(x, y, label, size, "coordinate"))
    return texts


def arrow_stroke(start: Point, end: Point, role: str, cell_width: float) -> Stroke:
    # Stop short of both centres so the arrow does not hide what is on the cells: clear of a
    # number's figures (the tip overshoots its end by the stroke's width), so that between
    # neighbouring cells a shaft still shows beside the head.
    dx, dy = end[0] - start[0], end[1] - start[1]
    length = math.hypot(dx, dy) or 1.0
    width = 0.06 * cell_width
    trim, tip = 0.24 * cell_width / length, (0.24 * cell_width + width) / length
    return Stroke(
        ((start[0] + dx * trim, start[1] + dy * trim), (end[0] - dx * tip, end[1] - dy * tip)),
        role, width, arrow=True,
    )


def arrow_strokes(start: Point, end: Point, role: str, cell_width: float) -> list[Stroke]:
    """An arrow on a paper-coloured halo: it stays visible where it crosses a ring, a stone
    or a cell of its own colour (both are arrows, so both lie above rings and numbers)."""
    arrow = arrow_stroke(start, end, role, cell_width)
    halo = 0.4 * arrow.width  # on each side
    return [replace(arrow, role="paper", width=arrow.width + 2 * halo,
                    head=3.5 * arrow.width + 3 * halo), arrow]


# A designer's mark has a look of its own, which no engine role uses: the theme's designer
# ink, rings dashed, a cross upright (+: an engine's crosses, a refused move's, are
# diagonal ×), a dot a diamond, a text on a small paper tag, and SVG classes
# "designer-mark mark-KIND" (halo: "designer-mark mark-halo").  Each mark lies on a paper
# halo drawn *under* the engine's marks and pieces (``under``), so that it parts the mark
# from a board's lines and cells but never covers the engine's ink.  Sizes are shares of
# ``size`` (a cell's width, or a lattice's hole spacing scaled to match).
MARK_HALO = f"{MARK_ROLE_PREFIX}halo"
MARK_TEXT = f"{MARK_ROLE_PREFIX}text"
_RING_POINTS = 36  # a ring is a closed polyline: dashes laid along it evenly
# A designer's ring on a hex cell: ink out to 0.25 of the cell, its halo to 0.30, inside
# the inner edge of an engine's ring (radius 0.36, 0.08 wide: from 0.32), which stays whole.
DESIGNER_RING = 0.22
DESIGNER_TEXT_RING = 0.28  # a text mark's (ink to 0.31): room for its tag inside
MARK_WIDTH = 0.06  # the designer's strokes, of ``size``
TAG_EM = 0.84  # a text mark's tag, of its letters' size: 0.09 em of air round the capitals
HALO_CLEAR = 0.05  # paper on each side of a designer's stroke, of ``size``


def _circle(x: float, y: float, r: float) -> tuple[Point, ...]:
    return tuple((x + r * math.cos(2 * math.pi * k / _RING_POINTS),
                  y + r * math.sin(2 * math.pi * k / _RING_POINTS))
                 for k in range(_RING_POINTS + 1))


def _text_ring(ring: float, lift: float) -> float:
    """A text mark's ring: wider than a ring mark's when its letters stand inside it."""
    return ring if lift else ring + DESIGNER_TEXT_RING - DESIGNER_RING


def designer_strokes(kind: str, x: float, y: float, size: float, *,
                     ring: float = DESIGNER_RING, text: str = "A",
                     lift: float = 0.0) -> list[Stroke]:
    """A designer's mark of ``kind`` (a MarkKind) centred on (x, y): paper halos under the
    engine's marks, then the mark in the designer's ink.  A ring (``ring`` of ``size``
    across the middle) is dashed (an engine's rings are solid); a cross is an upright +; a
    dot is a diamond.  A text mark (``text``, see :func:`designer_text`) is the dashed ring,
    with no halo, and its letters on a paper tag of their own size only (over the engine's
    ink, so that they read on any stone, but leaving the cell or stone round them to say
    who owns it), ``lift`` of ``size`` above the place (0: inside the ring)."""
    role = f"{MARK_ROLE_PREFIX}{kind}"
    width = MARK_WIDTH * size
    halo = width + 2 * HALO_CLEAR * size
    if kind in ("ring", "text"):
        r = (_text_ring(ring, lift) if kind == "text" else ring) * size
        circle = _circle(x, y, r)
        dash = math.pi * r / 12  # dashes that divide the ring evenly (twelve), any size
        dashed = Stroke(circle, role, width, dash=dash)
        if kind == "ring":
            return [Stroke(circle, MARK_HALO, halo, under=True), dashed]
        label = designer_text(text, x, y, size, ring=ring, lift=lift)
        half = face(BOLD).width_mm(label.text, label.size) / 2
        # A text's y is the middle of its capitals (0.66 em tall): 0.12 em of air round
        # them, and round ends.
        tag = ((x - half, label.y), (x + half + 1e-3, label.y))
        return [dashed, Stroke(tag, MARK_HALO, TAG_EM * label.size)]
    if kind == "cross":
        r = 0.18 * size
        arms = (((x - r, y), (x + r, y)), ((x, y - r), (x, y + r)))
        return [*(Stroke(arm, MARK_HALO, halo, under=True) for arm in arms),
                *(Stroke(arm, role, width) for arm in arms)]
    # A dot is a small solid diamond (no engine draws one: stones, pips and holes are
    # round), its outline stroked wide enough to fill it, on a wider halo.
    d = 0.1 * size
    # Round the corner once more, so that the top corner is a join too (not two caps).
    diamond = ((x, y - d), (x + d, y), (x, y + d), (x - d, y), (x, y - d), (x + d, y))
    return [Stroke(diamond, MARK_HALO, 0.16 * size + 2 * HALO_CLEAR * size, under=True),
            Stroke(diamond, role, 0.16 * size)]


def designer_text(text: str, x: float, y: float, size: float, *,
                  ring: float = DESIGNER_RING, lift: float = 0.0) -> Text:
    """A designer's text mark: bold, in the designer's ink, inside its dashed ring (or
    ``lift`` of ``size`` above its place)."""
    # The ring's inside, less a little air, holds the tag: the letters' width and half
    # the tag's height at each end (its round caps).
    inside = (_text_ring(ring, lift) - MARK_WIDTH / 2 - 0.02) * size
    em_width = face(BOLD).width_mm(text, 1.0)
    size_mm = min(0.3 * size, inside / (em_width / 2 + TAG_EM / 2))
    return Text(x, y - lift * size, text, size_mm, MARK_TEXT, weight=BOLD)


def arrow_head(stroke: Stroke) -> tuple[Point, Point, Point]:
    """The triangle at the end of an arrow, pointing along its last segment."""
    (x0, y0), (x1, y1) = stroke.points[-2], stroke.points[-1]
    dx, dy = x1 - x0, y1 - y0
    length = math.hypot(dx, dy) or 1.0
    ux, uy = dx / length, dy / length
    size = stroke.head or 3.5 * stroke.width
    bx, by = x1 - ux * size, y1 - uy * size
    return (x1 + ux * stroke.width, y1 + uy * stroke.width), \
        (bx - uy * size * 0.6, by + ux * size * 0.6), (bx + uy * size * 0.6, by - ux * size * 0.6)


# The widest outline a theme draws round a cell, half of which falls outside it.
CELL_OUTLINE_ALLOWANCE_MM = 0.3


def ink_box(figure: Figure) -> tuple[float, float, float, float] | None:
    """(x0, y0, x1, y1) of everything the figure draws, strokes' widths, marks' outlines
    and arrowheads included (None if it draws nothing): what a page must hold uncut."""
    # Running extremes over every box's two edges in turn (cells, marks, strokes, texts,
    # areas), a value replacing the one held only when strictly beyond it: what min() and
    # max() over the list of all edges give, to the sign of a zero.  A cell's box is its
    # centre moved by a constant (positive) reach, so the cells' extremes are their
    # centres' extremes so moved.
    inf = math.inf
    lo_x = lo_y = inf
    hi_x = hi_y = -inf
    if figure.cells and figure.hex_offsets:
        reach_x = max(abs(x) for x, _ in figure.hex_offsets) + CELL_OUTLINE_ALLOWANCE_MM
        reach_y = max(abs(y) for _, y in figure.hex_offsets) + CELL_OUTLINE_ALLOWANCE_MM
        cxs = [cell[1] for cell in figure.cells]
        cys = [cell[2] for cell in figure.cells]
        lo_x, hi_x = min(cxs) - reach_x, max(cxs) + reach_x
        lo_y, hi_y = min(cys) - reach_y, max(cys) + reach_y
    boxes: list[tuple[float, float, float, float]] = []
    for mark in figure.marks:
        # The writers' widest outline is a fifth of the radius (rings 0.22, crosses 0.25
        # about their ends), or the line width for small dots.
        reach = 1.15 * mark.radius + CELL_OUTLINE_ALLOWANCE_MM
        boxes.append((mark.x - reach, mark.y - reach, mark.x + reach, mark.y + reach))
    for stroke in figure.strokes:
        half = stroke.width / 2
        points = (*stroke.points, *arrow_head(stroke)) if stroke.arrow else stroke.points
        boxes += [(x - half, y - half, x + half, y + half) for x, y in points]
    boxes += [text_box(t) for t in figure.texts]
    boxes += [(x, y, x, y) for area in (*figure.areas, *figure.overlays)
              for x, y in area.points]
    for x0, y0, x1, y1 in boxes:
        if x0 < lo_x:
            lo_x = x0
        if x0 > hi_x:
            hi_x = x0
        if x1 < lo_x:
            lo_x = x1
        if x1 > hi_x:
            hi_x = x1
        if y0 < lo_y:
            lo_y = y0
        if y0 > hi_y:
            hi_y = y0
        if y1 < lo_y:
            lo_y = y1
        if y1 > hi_y:
            hi_y = y1
    if lo_x == inf:
        return None
    return lo_x, lo_y, hi_x, hi_y


def merge(width: float, height: float, parts: list[Figure], texts: list[Text] | None = None,
          cell_width: float | None = None) -> Figure:
    """Figures already shifted into place, as one figure of the given size (all parts must
    share one cell size, since a figure has one hexagon)."""
    widths = {round(p.cell_width, 6) for p in parts}
    if len(widths) > 1:
        raise ValueError(f"cannot merge figures with different cell sizes {sorted(widths)}")
    first = parts[0] if parts else None
    # What the scale check says: the first part that speaks of its unit (a legend does not;
    # a board of points speaks of its spacing), else the figure's hex cells.
    scale_note = next((p.scale_note for p in parts if p.scale_note), "")
    merged = Figure(width, height, first.cell_width if first else (cell_width or 1.0),
                    first.hex_offsets if first else (), scale_note=scale_note)
    for part in parts:
        merged.cells.extend(part.cells)
        merged.texts.extend(part.texts)
        merged.marks.extend(part.marks)
        merged.strokes.extend(part.strokes)
        merged.areas.extend(part.areas)
        merged.overlays.extend(part.overlays)
    merged.texts.extend(texts or [])
    return merged
