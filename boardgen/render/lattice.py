"""The Polygone lattice measured out in millimetres: grooves, holes, apexes, staples.

A ``LatticeScene`` says what a picture shows (pieces, ghost targets, crossed targets, swing
arrows, labels); ``lattice_figure`` turns it into the same drawing primitives the hex boards
use, so the SVG and PDF writers draw it unchanged.  ``spacing`` is the distance between
neighbouring holes, which is also a piece's length.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from boardgen.errors import BoardgenError, option
from boardgen.games.polygone.engine import CREDIT, NAME, RECONSTRUCTION, START
from boardgen.games.script import MARK_KINDS
from boardgen.geometry.lattice import (
    BLACK_HOME,
    HOLES,
    LINES,
    MAX_LEVEL,
    ROW_LETTERS,
    ROW_LEVELS,
    WHITE_HOME,
    Hole,
    Line,
    direction,
    position,
)
from boardgen.render.figure import (
    MIN_PRINT_TEXT_MM,
    Area,
    Figure,
    Mark,
    Stroke,
    Text,
    arrow_stroke,
    text_box,
    wrap,
)
from boardgen.render.fonts import BOLD
from boardgen.render.paper import Paper, content_size
from boardgen.render.pdf import PageInfo, render_pdf_pages
from boardgen.render.png import render_png
from boardgen.render.scene import Theme
from boardgen.render.svg import document_size, render_svg

Point = tuple[float, float]


@dataclass(frozen=True)
class Swing:
    """An arrow round ``pivot`` from ``start`` to ``end``; sense +1 clockwise on the page."""

    pivot: Hole
    start: Hole
    end: Hole
    sense: int


@dataclass(frozen=True)
class LatticeScene:
    pieces: dict[Line, str] = field(default_factory=dict)
    ghosts: tuple[Line, ...] = ()  # allowed targets, drawn as green outlines
    crossed: tuple[Line, ...] = ()  # forbidden targets, or pieces just captured
    swings: tuple[Swing, ...] = ()
    labels: dict[Line, str] = field(default_factory=dict)  # piece numbers, target letters
    caption: str | None = None
    coordinates: bool = True  # row letters and levels, for the notation
    apexes: bool = True  # name the home and goal apexes
    homes: bool = False  # tint each player's home half
    start_marks: dict[Line, str] = field(default_factory=dict)  # faint: where pieces start
    hole_marks: tuple[tuple[Hole, str], ...] = ()  # a designer's dot, ring, cross or text
    arrows: tuple[tuple[Hole, Hole], ...] = ()  # a designer's arrows between holes


def _at(hole: Hole, spacing: float) -> Point:
    return position(hole, spacing)


def _segment(ln: Line, spacing: float, trim: float = 0.0) -> tuple[Point, Point]:
    (ax, ay), (bx, by) = _at(ln[0], spacing), _at(ln[1], spacing)
    dx, dy = (bx - ax) * trim, (by - ay) * trim
    return (ax + dx, ay + dy), (bx - dx, by - dy)


def staple(ln: Line, colour: str, spacing: float) -> list[Stroke]:
    """A piece: a dark outline under a fill, with round ends on the two holes."""
    a, b = _segment(ln, spacing, 0.02)
    width = 0.16 * spacing
    return [Stroke((a, b), "line", width), Stroke((a, b), f"{colour}-piece", width - 0.8)]


def target_strokes(ln: Line, role: str, spacing: float) -> list[Stroke]:
    """An allowed target (``ghost``: a dashed line, narrower than a piece) or a forbidden
    one (``crossed``: a thin solid line with a cross): told apart by shape as well as
    colour, so that they survive a black-only printer."""
    s = spacing
    if role == "ghost":
        return [Stroke(_segment(ln, s, 0.12), "ghost", 0.07 * s, dash=0.09 * s)]
    (ax, ay), (bx, by) = _segment(ln, s)
    mx, my, r = (ax + bx) / 2, (ay + by) / 2, 0.08 * s
    return [Stroke(_segment(ln, s, 0.12), "crossed", 0.045 * s),
            Stroke(((mx - r, my - r), (mx + r, my + r)), "line", 0.025 * s),
            Stroke(((mx - r, my + r), (mx + r, my - r)), "line", 0.025 * s)]


def _arc(swing: Swing, spacing: float) -> Stroke:
    cx, cy = _at(swing.pivot, spacing)
    k0, k1 = direction(swing.pivot, swing.start), direction(swing.pivot, swing.end)
    steps = ((k1 - k0) * swing.sense) % 6
    radius = 0.62 * spacing
    start_angle = math.radians(60 * k0)
    sweep = math.radians(60 * steps) * swing.sense
    # Stop short of both piece positions so that the arrow reads as a swing between them.
    pad = math.radians(9) * swing.sense
    count = max(8, 6 * steps)
    points = tuple(
        (cx + radius * math.cos(start_angle + pad + (sweep - 2 * pad) * t / count),
         cy + radius * math.sin(start_angle + pad + (sweep - 2 * pad) * t / count))
        for t in range(count + 1)
    )
    return Stroke(points, "accent", 0.03 * spacing, arrow=True)


def _home_areas(spacing: float) -> list[Area]:
    """The two home halves: the lattice's outline cut across at the middle level."""
    m = MAX_LEVEL // 2
    white = (Hole(0, 0), Hole(-1, 1), Hole(-2, 2), Hole(-2, m), Hole(2, m), Hole(2, 2),
             Hole(1, 1))
    black = (Hole(0, MAX_LEVEL), Hole(1, MAX_LEVEL - 1), Hole(2, MAX_LEVEL - 2), Hole(2, m),
             Hole(-2, m), Hole(-2, MAX_LEVEL - 2), Hole(-1, MAX_LEVEL - 1))
    return [Area(tuple(position(h, spacing) for h in white), "white-home"),
            Area(tuple(position(h, spacing) for h in black), "black-home")]


def start_strokes(ln: Line, colour: str, spacing: float) -> list[Stroke]:
    """Where a piece starts, drawn faintly: two thin dashed rails either side of the middle
    of its groove (visible on a black groove too), nothing like a piece, which is a thick
    solid bar from hole to hole."""
    (ax, ay), (bx, by) = _segment(ln, spacing, 0.28)
    length = math.hypot(bx - ax, by - ay)
    nx, ny = -(by - ay) / length * 0.06 * spacing, (bx - ax) / length * 0.06 * spacing
    return [Stroke(((ax + k * nx, ay + k * ny), (bx + k * nx, by + k * ny)), f"{colour}-start",
                   0.02 * spacing, dash=0.04 * spacing) for k in (-1, 1)]


def _hole_mark(centre: Point, kind: str, spacing: float) -> list[Stroke]:
    """A designer's mark on a hole: a dot, a ring or a cross (a text gets a small ring)."""
    x, y = centre
    r = 0.12 * spacing
    if kind == "dot":
        return [Stroke(((x, y), (x + 0.001, y)), "accent", 1.4 * r)]
    if kind == "cross":
        return [Stroke(((x - r, y - r), (x + r, y + r)), "accent", 0.3 * r),
                Stroke(((x - r, y + r), (x + r, y - r)), "accent", 0.3 * r)]
    radius = r if kind == "ring" else 0.6 * r
    points = tuple((x + radius * math.cos(2 * math.pi * k / 24),
                    y + radius * math.sin(2 * math.pi * k / 24)) for k in range(25))
    return [Stroke(points, "accent", 0.25 * r)]


def lattice_figure(scene: LatticeScene, spacing: float, *, margin: float = 1.0) -> Figure:
    s = spacing
    strokes: list[Stroke] = []
    marks: list[Mark] = []
    texts: list[Text] = []
    areas = _home_areas(s) if scene.homes else []
    for ln in LINES:
        strokes.append(Stroke(_segment(ln, s), "groove", 0.035 * s, under=True))
    for ln in scene.ghosts:
        strokes.extend(target_strokes(ln, "ghost", s))
    for hole in HOLES:
        x, y = _at(hole, s)
        marks.append(Mark("dot", x, y, 0.05 * s, "hole"))
    for hole, text, side in ((WHITE_HOME, "White home, Black's goal", -1),
                             (BLACK_HOME, "Black home, White's goal", 1)):
        x, y = _at(hole, s)
        # A double ring: the home apexes, never mistaken for a ringed pivot or mark.
        marks.append(Mark("ring", x, y, 0.14 * s, "accent"))
        marks.append(Mark("ring", x, y, 0.2 * s, "accent"))
        if scene.apexes:
            # Beside the apex, away from the lattice: nothing else is out there.
            size = max(2.9, 0.075 * s)
            for k, part in enumerate(text.split(", ")):
                # Past the row letter that stands left of the apex, too.
                texts.append(Text(x + side * (0.3 * s + 1.0), y + (k - 0.5) * 1.35 * size,
                                  part, size, "coordinate", "start" if side > 0 else "end"))
    for ln, colour in sorted(scene.start_marks.items()):
        strokes.extend(start_strokes(ln, colour, s))
    for ln, colour in sorted(scene.pieces.items()):
        strokes.extend(staple(ln, colour, s))
    for ln in scene.crossed:
        strokes.extend(target_strokes(ln, "crossed", s))
    for swing in scene.swings:
        strokes.append(_arc(swing, s))
    for start, end in scene.arrows:
        strokes.append(arrow_stroke(_at(start, s), _at(end, s), "accent", 0.5 * s))
    for hole, kind in scene.hole_marks:
        # Drawn as strokes, so that they lie on top of the pieces (marks lie under them).
        strokes.extend(_hole_mark(_at(hole, s), kind, s))
        if kind not in MARK_KINDS:
            x, y = _at(hole, s)
            texts.append(Text(x, y - 0.2 * s, kind, max(2.8, 0.13 * s), "cell-text",
                              weight=BOLD))
    for ln, label in scene.labels.items():
        (ax, ay), (bx, by) = _segment(ln, s)
        length = math.hypot(bx - ax, by - ay) or 1.0
        nx, ny = -(by - ay) / length, (bx - ax) / length  # perpendicular
        texts.append(Text((ax + bx) / 2 + nx * 0.17 * s, (ay + by) / 2 + ny * 0.17 * s, label,
                          max(MIN_PRINT_TEXT_MM, 0.11 * s), "cell-text"))
    if scene.coordinates:
        size = max(MIN_PRINT_TEXT_MM, 0.08 * s)
        for c, levels in ROW_LEVELS.items():
            x, y = _at(Hole(c, levels[0]), s)
            # Past the apex's ring on the middle row (a board's apex labels stand further
            # out and leave the letter where it is).
            apex = Hole(c, levels[0]) == WHITE_HOME and not scene.apexes
            gap = 0.2 * s + (0.16 * s if apex else 0.0)
            texts.append(Text(x - gap, y, ROW_LETTERS[c + 2], size, "coordinate", "end"))
        # Below where a label of a piece on the bottom row goes (0.17 spacing, one line).
        bottom = _at(Hole(2, 2), s)[1] + 0.17 * s + 1.3 * size
        for h in range(MAX_LEVEL + 1):
            texts.append(Text(h * s / 2, bottom, str(h), size, "coordinate"))

    xs = [p[0] for st in strokes for p in st.points] + [m.x for m in marks]
    ys = [p[1] for st in strokes for p in st.points] + [m.y for m in marks]
    xs += [p[0] for a in areas for p in a.points]
    ys += [p[1] for a in areas for p in a.points]
    pad = 0.12 * s
    x0, y0, x1, y1 = min(xs) - pad, min(ys) - pad, max(xs) + pad, max(ys) + pad
    for t in texts:
        tx0, ty0, tx1, ty1 = text_box(t)
        x0, y0, x1, y1 = min(x0, tx0), min(y0, ty0), max(x1, tx1), max(y1, ty1)
    if scene.caption:
        size = max(MIN_PRINT_TEXT_MM, min(3.6, 0.08 * s))
        centre, top = (x0 + x1) / 2, y1
        for k, line_text in enumerate(wrap(scene.caption, size, max(x1 - x0, 45.0))):
            caption = Text(centre, top + (1.3 + 1.35 * k) * size, line_text, size, "caption")
            texts.append(caption)
            cx0, _, cx1, y1 = text_box(caption)
            x0, x1 = min(x0, cx0), max(x1, cx1)
    figure = Figure(x1 - x0 + 2 * margin, y1 - y0 + 2 * margin, s, (), [], texts, marks,
                    strokes, scale_note=f"neighbouring holes are {s:.1f} mm apart",
                    areas=areas)
    return figure.shifted(margin - x0, margin - y0)


def piece_width(spacing: float) -> float:
    """How wide a folded piece is: stiff enough to pivot, narrow enough for the grooves."""
    return max(6.0, 0.16 * spacing)


def pieces_sheet(spacing: float, max_width: float = 250.0) -> Figure:
    """Twelve white and twelve black pieces at the board's scale, to cut out and fold.

    Each piece is a straight strip one hole spacing long and twice its finished width,
    with a fold line down the middle: folded and glued it is printed on both sides and
    twice as stiff.  The strips of a colour touch in one block, so that every cut is one
    long straight line; the lines run past the block as guides for a ruler and knife."""
    s = spacing
    width = piece_width(s)
    strip = 2 * width
    guide = 4.0
    fit = math.floor((max_width - 2 * guide - 26.0) / s)
    per_row = max([n for n in (1, 2, 3, 4, 6) if n <= fit] or [1])  # full rows: straight cuts
    rows = math.ceil(12 / per_row)
    areas: list[Area] = []
    strokes: list[Stroke] = []
    texts: list[Text] = []
    caption = (f"Pieces: cut along the solid lines (they run past each block as guides), fold "
               f"each strip along its dashed line, printed side out, and glue the halves: "
               f"12 white and 12 black pieces, {s:.1f} mm long (hole centre to hole centre) "
               f"and {width:.1f} mm wide.  Or use 24 coffee stirrers or matchsticks cut to "
               f"{s:.1f} mm, 12 of them coloured black.")
    size = 3.2
    block_w = per_row * s
    lines = wrap(caption, size, max(block_w + 2 * guide, 120.0))
    for k, text in enumerate(lines):
        texts.append(Text(0.0, (0.6 + 1.35 * k) * size, text, size, "caption", "start"))
    top = (1.35 * len(lines) + 0.6) * size + guide
    for colour in ("white", "black"):
        x0, y0 = guide, top
        for k in range(12):
            row, col = divmod(k, per_row)
            x, y = x0 + col * s, y0 + row * strip
            areas.append(Area(((x, y), (x + s, y), (x + s, y + strip), (x, y + strip)),
                              f"{colour}-piece"))
            fold = "paper" if colour == "black" else "muted"
            strokes.append(Stroke(((x + 1.0, y + width), (x + s - 1.0, y + width)), fold, 0.25,
                                  dash=1.5))
        used_rows = rows
        x1, y1 = x0 + block_w, y0 + used_rows * strip
        for r in range(used_rows + 1):
            y = y0 + r * strip
            strokes.append(Stroke(((x0 - guide, y), (x1 + guide, y)), "line", 0.3))
        for c in range(per_row + 1):
            x = x0 + c * s
            strokes.append(Stroke(((x, y0 - guide), (x, y1 + guide)), "line", 0.3))
        texts.append(Text(x1 + guide + 2.0, (y0 + y1) / 2, f"{colour} ×12", size, "caption",
                          "start"))
        top = y1 + 3 * guide
    height = top - 2 * guide
    right = 2 * guide + block_w + 2.0 + 22.0
    figure_width = max(right, max(text_box(t)[2] for t in texts))
    return Figure(figure_width + 2.0, height + 2.0, s, (), [], texts, [], strokes,
                  scale_note=f"each piece is {s:.1f} mm long, hole centre to hole centre",
                  areas=areas).shifted(1.0, 1.0)


START_SCENE = LatticeScene(pieces=START, caption=RECONSTRUCTION)
# The board to play on: empty, the start lines marked faintly, home halves tinted.
BOARD_SCENE = LatticeScene(start_marks=START, homes=True, caption=RECONSTRUCTION)


def board_lattice_figure(spacing: float) -> Figure:
    return lattice_figure(BOARD_SCENE, spacing)


def fitting_spacing(scene: LatticeScene, room: tuple[float, float], largest: float) -> float:
    """The largest hole spacing, in half millimetres and at most ``largest``, at which the
    figure fits ``room`` (mm).  Searched, not scaled: labels have minimum sizes, so the
    figure does not grow in proportion to the spacing."""
    def fits(half_mm: int) -> bool:
        figure = lattice_figure(scene, half_mm / 2)
        return figure.width <= room[0] and figure.height <= room[1]

    low, high = 4, int(2 * largest)  # 2 mm always fits; search up to ``largest``
    if fits(high):
        return high / 2
    while high - low > 1:
        middle = (low + high) // 2
        low, high = (middle, high) if fits(middle) else (low, middle)
    return low / 2


def render_polygone_board(fmt: str, *, paper: Paper, theme: Theme, spacing: float | None,
                          dpi: int, title: str | None) -> bytes:
    """The empty board at exact scale, landscape and as large as the paper allows, with the
    start lines marked faintly; the PDF adds a sheet of pieces to cut out and fold."""
    room = content_size(paper.size("landscape"))
    if spacing is None:
        spacing = fitting_spacing(BOARD_SCENE, room, 60.0)
    figure = board_lattice_figure(spacing)
    info = PageInfo(NAME if title is None else (title or None),
                    f"Polygone board, holes {spacing:.1f} mm apart · "
                    "board and start: our reconstruction", CREDIT)
    if fmt == "pdf":
        if figure.width > room[0] or figure.height > room[1]:
            raise BoardgenError(f"{option('cell_mm')} {spacing:g}: the board does not fit "
                                f"{paper.name} "
                                "landscape; choose a smaller spacing or larger paper")
        pieces = pieces_sheet(spacing, room[0])
        if pieces.width > room[0] + 1e-6 or pieces.height > room[1] + 1e-6:
            raise BoardgenError(f"{option('paper')} {paper.name}: too small for the sheet of "
                                "pieces "
                                f"to cut out ({pieces.width:.0f} x {pieces.height:.0f} mm "
                                f"on {room[0]:.0f} x {room[1]:.0f} mm); choose larger paper")
        return render_pdf_pages([figure, pieces], theme=theme,
                                paper=paper, orientation="landscape", info=info)
    svg = render_svg(figure, theme=theme, title=info.title, description=info.subject)
    if fmt == "svg":
        return svg.encode("utf-8")
    width_mm, height_mm = document_size(figure, info.title)
    return render_png(svg, width_mm=width_mm, height_mm=height_mm, dpi=dpi)
