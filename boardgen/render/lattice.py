"""A board of points joined by lines measured out in millimetres: its lines and points,
pieces lying on segments (bars) or standing on points, marked segments, turns.

A ``PointScene`` (boardgen.picture) says what a picture shows, in points, segments and
roles, and where each point stands in spacings; ``lattice_figure`` turns it into the same
drawing primitives the hex boards use, so the SVG and PDF writers draw it unchanged.
``spacing`` is the unit of the places (a lattice's distance between neighbouring holes,
which is also a bar's length).  No game and none of its words are here: the game's
picture module says which points, lines and pieces there are and names every role.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING

from boardgen.errors import BoardgenError, option
from boardgen.i18n import decimal_commas, language, tr
from boardgen.i18n import number as decimal
from boardgen.picture import (
    TINT,
    FixedBoard,
    PageInfo,
    Point,
    PointScene,
    Segment,
    Strips,
    Turn,
)
from boardgen.render.figure import (
    MIN_PRINT_TEXT_MM,
    Area,
    Figure,
    Mark,
    Stroke,
    Text,
    arrow_strokes,
    bind_numbers,
    curled,
    designer_strokes,
    designer_text,
    ink_box,
    memoised_figure,
    text_box,
    wrap,
)
from boardgen.render.fonts import REGULAR, face
from boardgen.render.paper import Paper, content_size, parse_paper
from boardgen.render.pdf import render_pdf_pages
from boardgen.render.png import render_figure_png
from boardgen.render.scene import Theme
from boardgen.render.svg import render_svg

if TYPE_CHECKING:
    from boardgen.render.cutter import CutterOptions
    from boardgen.render.shop import Shop

XY = tuple[float, float]  # on the page, in mm
INK_CLEARANCE_MM = 0.5  # paper between the outermost ink and a figure's edge
# Where a legend's swatch of a segment stands: one spacing long, across the page.
SWATCH_SEGMENT: Segment = ((0,), (1,))
SWATCH_PLACES: dict[Point, XY] = {(0,): (0.0, 0.0), (1,): (1.0, 0.0)}
Places = Mapping[Point, XY]  # where each point stands, in spacings
# A designer's mark on a point is drawn as on a hex cell this share of the spacing wide.
DESIGNER_SHARE = 0.6
# Its ring (of that size): radius 0.27 spacing, clear of everything the engine rings a point
# with (the ring of a turn's centre, 0.12; a double ring, out to 0.22).
DESIGNER_RING_SHARE = 0.45
# A text mark's letters stand above the point (0.39 spacing up: just over the ring, in the
# empty triangle between the two lines that climb from it), not on the bars' ends.
DESIGNER_LIFT = 0.65


def _at(places: Places, point: Point, spacing: float) -> XY:
    x, y = places[point]
    return x * spacing, y * spacing


def _segment(places: Places, ln: Segment, spacing: float, trim: float = 0.0
             ) -> tuple[XY, XY]:
    (ax, ay), (bx, by) = _at(places, ln[0], spacing), _at(places, ln[1], spacing)
    dx, dy = (bx - ax) * trim, (by - ay) * trim
    return (ax + dx, ay + dy), (bx - dx, by - dy)


def staple(places: Places, ln: Segment, role: str, spacing: float) -> list[Stroke]:
    """A bar (a piece on a segment): a dark outline under a fill, with round ends on the
    two points."""
    a, b = _segment(places, ln, spacing, 0.02)
    width = 0.16 * spacing
    return [Stroke((a, b), "line", width), Stroke((a, b), role, width - 0.8)]


def target_strokes(places: Places, ln: Segment, kind: str, role: str, spacing: float
                   ) -> list[Stroke]:
    """A ``dashed`` segment (a dashed line, narrower than a bar) or a ``struck`` one (a
    thin solid line with a cross), in ``role``'s colour: told apart by shape as well as
    colour, so that they survive a black-only printer."""
    s = spacing
    if kind == "dashed":
        return [Stroke(_segment(places, ln, s, 0.12), role, 0.07 * s, dash=0.09 * s)]
    (ax, ay), (bx, by) = _segment(places, ln, s)
    mx, my, r = (ax + bx) / 2, (ay + by) / 2, 0.08 * s
    return [Stroke(_segment(places, ln, s, 0.12), role, 0.045 * s),
            Stroke(((mx - r, my - r), (mx + r, my + r)), "line", 0.025 * s),
            Stroke(((mx - r, my + r), (mx + r, my - r)), "line", 0.025 * s)]


def hollow_strokes(places: Places, ln: Segment, role: str, spacing: float) -> list[Stroke]:
    """A bar's outline (e.g. where one was just taken off): its two long sides, dashed and
    empty, nothing like a struck segment (a thin line with a cross) or a bar."""
    (ax, ay), (bx, by) = _segment(places, ln, spacing, 0.06)
    length = math.hypot(bx - ax, by - ay)
    nx, ny = -(by - ay) / length * 0.07 * spacing, (bx - ax) / length * 0.07 * spacing
    return [Stroke(((ax + k * nx, ay + k * ny), (bx + k * nx, by + k * ny)), role,
                   0.022 * spacing, dash=0.05 * spacing) for k in (-1, 1)]


def tint_strokes(places: Places, ln: Segment, line_role: str, spacing: float
                 ) -> list[Stroke]:
    """A designer's decorative tint on a segment: a wide band of the tint's colour under
    the board's line and everything on it."""
    return [Stroke(_segment(places, ln, spacing), TINT, 0.2 * spacing, under=True),
            Stroke(_segment(places, ln, spacing), line_role, 0.035 * spacing, under=True)]


def _bearing(places: Places, centre: Point, towards: Point) -> float:
    """The direction from one point to another in degrees, clockwise on the page from
    "to the right", in [0, 360): to a millionth of a degree, so that a lattice's
    directions come out exact (60 degrees, not 59.99999999999999)."""
    (cx, cy), (x, y) = places[centre], places[towards]
    return round(math.degrees(math.atan2(y - cy, x - cx)), 6) % 360


def turn_sweep(places: Places, turn: Turn) -> tuple[float, float]:
    """Where a turn starts (degrees, as :func:`_bearing`) and how far it turns (degrees,
    signed: positive clockwise), the way ``turn.sense`` says."""
    start = _bearing(places, turn.centre, turn.start)
    end = _bearing(places, turn.centre, turn.end)
    return start, ((end - start) * turn.sense) % 360 * turn.sense


def _arc(places: Places, turn: Turn, spacing: float) -> Stroke:
    cx, cy = _at(places, turn.centre, spacing)
    start, sweep_degrees = turn_sweep(places, turn)
    radius = 0.62 * spacing
    start_angle = math.radians(start)
    sweep = math.radians(abs(sweep_degrees)) * turn.sense
    # Stop short of both piece positions so that the arrow reads as a turn between them.
    pad = math.radians(9) * turn.sense
    count = max(8, round(abs(sweep_degrees) / 10))
    points = tuple(
        (cx + radius * math.cos(start_angle + pad + (sweep - 2 * pad) * t / count),
         cy + radius * math.sin(start_angle + pad + (sweep - 2 * pad) * t / count))
        for t in range(count + 1)
    )
    return Stroke(points, "accent", 0.03 * spacing, arrow=True)


def rail_dash(scene: PointScene, role: str, spacing: float) -> float:
    """The dash of a role's rails: long for the first role the key names, short for the
    next, so that the two sides' start marks differ in black ink alone, not only in colour."""
    order = [name for name, _ in scene.rail_key]
    index = order.index(role) if role in order else 0
    return 0.04 * spacing if index == 0 else max(0.35, 0.012 * spacing)


def start_strokes(places: Places, ln: Segment, role: str, spacing: float,
                  dash: float | None = None) -> list[Stroke]:
    """Where a bar starts, drawn faintly: two thin dashed rails either side of the middle
    of its line (visible on a black line too), nothing like a bar, which is thick and
    solid from point to point; ``dash`` as :func:`rail_dash` says."""
    (ax, ay), (bx, by) = _segment(places, ln, spacing, 0.28)
    length = math.hypot(bx - ax, by - ay)
    nx, ny = -(by - ay) / length * 0.06 * spacing, (bx - ax) / length * 0.06 * spacing
    return [Stroke(((ax + k * nx, ay + k * ny), (bx + k * nx, by + k * ny)), role,
                   0.02 * spacing, dash=0.04 * spacing if dash is None else dash)
            for k in (-1, 1)]


def _point_ring(centre: XY, spacing: float) -> list[Stroke]:
    """The engine's ring round a point (the centre of a turn): solid, in the accent."""
    x, y = centre
    r = 0.12 * spacing
    points = tuple((x + r * math.cos(math.radians(a)), y + r * math.sin(math.radians(a)))
                   for a in range(0, 361, 15))
    return [Stroke(points, "accent", 0.25 * r)]


def _rail_key(scene: PointScene, spacing: float, size: float, texts: list[Text],
              strokes: list[Stroke], marks: list[Mark]) -> tuple[list[Stroke], list[Text]]:
    """The key to the rails (the faint dashed double lines where bars start): a short pair
    of rails drawn as on the board, with what it means.  Two entries go in the empty top
    corners, the first left and the second right of the top row of points, when there is
    room there (the figure keeps its size); else all in a row under everything."""
    s = spacing
    at = scene.places
    swatch = 0.44 * s  # as long as a rail on the board
    rail = 0.06 * s
    widths = [swatch + 2.0 + face(REGULAR).width_mm(tr(words), size)
              for _, words in scene.rail_key]
    top = min(_at(at, h, s)[1] for h in at)
    row = sorted(_at(at, h, s)[0] for h in at if abs(_at(at, h, s)[1] - top) < 1e-9)
    first, last = row[0], row[-1]
    left_edge = min(text_box(t)[0] for t in texts) if texts else first - s
    right_edge = max(text_box(t)[2] for t in texts) if texts else last + s
    # Short of the top row's label (0.2 spacing left of its first point) by 3 mm.
    label = max((face(REGULAR).width_mm(text, size) for point, text in scene.row_labels
                 if abs(_at(at, point, s)[1] - top) < 1e-9), default=0.0)
    room_left = first - 0.2 * s - label - 3.0 - left_edge
    room_right = right_edge - (last + 0.3 * s)
    places: list[XY]
    if len(widths) <= 2 and widths[0] <= room_left and widths[-1] <= room_right:
        places = [(left_edge, top), (right_edge - widths[-1], top)][:len(widths)]
    else:
        bottom = max([p[1] for st in strokes for p in st.points]
                     + [m.y + m.radius for m in marks] + [text_box(t)[3] for t in texts])
        y = bottom + 0.06 * s + 1.0 + 0.5 * size
        gap = 8.0
        xs = [_at(at, h, s)[0] for h in at]
        x = (min(xs) + max(xs)) / 2 - (sum(widths) + gap * (len(widths) - 1)) / 2
        places = []
        for width in widths:
            places.append((x, y))
            x += width + gap
    key_strokes: list[Stroke] = []
    key_texts: list[Text] = []
    for (role, words), (x, y) in zip(scene.rail_key, places, strict=True):
        key_strokes.extend(Stroke(((x, y + k * rail), (x + swatch, y + k * rail)),
                                  role, 0.02 * s, dash=rail_dash(scene, role, s))
                           for k in (-1, 1))
        key_texts.append(Text(x + swatch + 2.0, y, tr(words), size, "coordinate", "start"))
    return key_strokes, key_texts


def lattice_figure(scene: PointScene, spacing: float, *, margin: float = 1.0) -> Figure:
    """The board of points measured out at ``spacing`` mm between neighbouring points
    (once, inside boardgen.render.figure.figures_memoised)."""
    return memoised_figure("lattice", _lattice_figure, scene, spacing, margin)


def _lattice_figure(scene: PointScene, spacing: float, margin: float) -> Figure:
    s = spacing
    at = scene.places
    letter_size = max(MIN_PRINT_TEXT_MM, 0.08 * s)
    # A row label on a double-ringed point stands past the outer ring (radius 0.2 spacing,
    # and half its stroke), never under it; words beside such a point stand past the label,
    # on both sides alike, 2 mm past it, so that the label is not read as their last word.
    ring_gap = 0.24 * s + 1.0
    ringed_labels = [text for point, text in scene.row_labels if point in scene.ringed]
    note_reach = ring_gap + max(face(REGULAR).width_mm(t, letter_size)
                                for t in ringed_labels) + 2.0 if ringed_labels \
        else 0.3 * s + 1.0
    strokes: list[Stroke] = []
    marks: list[Mark] = []
    texts: list[Text] = []
    areas = [Area(tuple((x * s, y * s) for x, y in corners), role)
             for corners, role in scene.zones]
    for ln in scene.tinted:
        strokes.append(tint_strokes(at, ln, scene.line_role, s)[0])
    for ln in scene.lines:
        strokes.append(Stroke(_segment(at, ln, s), scene.line_role, 0.035 * s, under=True))
    for ln, role in scene.dashed.items():
        strokes.extend(target_strokes(at, ln, "dashed", role, s))
    for point in at:
        x, y = _at(at, point, s)
        marks.append(Mark("dot", x, y, 0.05 * s, scene.point_role))
    for point, role in scene.stones.items():
        x, y = _at(at, point, s)
        marks.append(Mark("dot", x, y, 0.3 * s, role))
    for point in scene.ringed:
        x, y = _at(at, point, s)
        # A double ring: never mistaken for a ringed point or a designer's mark.
        marks.append(Mark("ring", x, y, 0.14 * s, "accent"))
        marks.append(Mark("ring", x, y, 0.2 * s, "accent"))
    for note in scene.notes:
        x, y = _at(at, note.point, s)
        # Beside the point, away from the board: nothing else is out there.
        size = max(2.9, 0.075 * s)
        for k, part in enumerate(note.lines):
            # Past the row letter that stands left of the point, too.
            texts.append(Text(x + note.side * note_reach, y + (k - 0.5) * 1.35 * size,
                              tr(part), size, "coordinate",
                              "start" if note.side > 0 else "end"))
    for ln, role in sorted(scene.rails.items()):
        strokes.extend(start_strokes(at, ln, role, s, rail_dash(scene, role, s)))
    for ln, role in sorted(scene.pieces.items()):
        strokes.extend(staple(at, ln, role, s))
    for ln, role in scene.struck.items():
        strokes.extend(target_strokes(at, ln, "struck", role, s))
    for ln, role in scene.hollow.items():
        strokes.extend(hollow_strokes(at, ln, role, s))
    for turn in scene.turns:
        strokes.append(_arc(at, turn, s))
    for point, _ in scene.point_marks:
        # Drawn as strokes, so that they lie on top of the bars (marks lie under them).
        strokes.extend(_point_ring(_at(at, point, s), s))
    for mark in scene.designer_marks:
        # The designer's own look (see designer_strokes), at a hex cell's size of 0.6
        # of the spacing; its ring outside the engine's rings round a point (DESIGNER_RING_SHARE).
        x, y = _at(at, mark.where, s)
        strokes.extend(designer_strokes(mark.kind, x, y, DESIGNER_SHARE * s,
                                        ring=DESIGNER_RING_SHARE, text=mark.text,
                                        lift=DESIGNER_LIFT))
        if mark.kind == "text":
            texts.append(designer_text(mark.text, x, y, DESIGNER_SHARE * s,
                                       ring=DESIGNER_RING_SHARE, lift=DESIGNER_LIFT))
    for start, end in scene.arrows:  # above the rings (every writer draws arrows last)
        strokes.extend(arrow_strokes(_at(at, start, s), _at(at, end, s), "accent", 0.5 * s))
    for ln, label in scene.labels.items():
        (ax, ay), (bx, by) = _segment(at, ln, s)
        length = math.hypot(bx - ax, by - ay) or 1.0
        nx, ny = -(by - ay) / length, (bx - ax) / length  # perpendicular
        texts.append(Text((ax + bx) / 2 + nx * 0.17 * s, (ay + by) / 2 + ny * 0.17 * s, label,
                          max(MIN_PRINT_TEXT_MM, 0.11 * s), "cell-text"))
    size = letter_size
    for point, letter in scene.row_labels:
        x, y = _at(at, point, s)
        gap = ring_gap if point in scene.ringed else 0.2 * s
        texts.append(Text(x - gap, y, letter, size, "coordinate", "end"))
    if scene.column_labels:
        # Below where a label of a bar on the bottom row goes (0.17 spacing, one line).
        bottom = max(_at(at, h, s)[1] for h in at) + 0.17 * s + 1.3 * size
        for x, text in scene.column_labels:
            texts.append(Text(x * s, bottom, text, size, "coordinate"))
    if scene.rail_key and at:
        key_strokes, key_texts = _rail_key(scene, s, letter_size, texts, strokes, marks)
        strokes.extend(key_strokes)
        texts.extend(key_texts)

    xs = [p[0] for st in strokes for p in st.points] + [m.x for m in marks]
    ys = [p[1] for st in strokes for p in st.points] + [m.y for m in marks]
    xs += [p[0] for a in areas for p in a.points]
    ys += [p[1] for a in areas for p in a.points]
    pad = 0.12 * s
    x0, y0, x1, y1 = min(xs) - pad, min(ys) - pad, max(xs) + pad, max(ys) + pad
    # Everything drawn, at its full width, stays inside the figure with a little paper to
    # spare (the double rings reach past the pad, into the margin).
    ink = ink_box(Figure(0.0, 0.0, s, (), [], texts, marks, strokes, areas=areas))
    if ink is not None:
        inside = max(0.0, margin - INK_CLEARANCE_MM)
        x0, y0 = min(x0, ink[0] + inside), min(y0, ink[1] + inside)
        x1, y1 = max(x1, ink[2] - inside), max(y1, ink[3] - inside)
    if scene.caption:
        size = max(MIN_PRINT_TEXT_MM, min(3.6, 0.08 * s))
        # Flush left and ragged right, as the rule sheets set captions.
        left, top = x0, y1
        for k, line_text in enumerate(wrap(bind_numbers(tr(scene.caption)), size,
                                           max(x1 - x0, 45.0))):
            caption = Text(left, top + (1.3 + 1.35 * k) * size, line_text, size, "caption",
                           "start")
            texts.append(caption)
            cx0, _, cx1, y1 = text_box(caption)
            x0, x1 = min(x0, cx0), max(x1, cx1)
    figure = Figure(x1 - x0 + 2 * margin, y1 - y0 + 2 * margin, s, (), [], texts, marks,
                    strokes, scale_note=tr(scene.scale_note).format(spacing=decimal(s)),
                    areas=areas)
    return figure.shifted(margin - x0, margin - y0)


def piece_width(spacing: float) -> float:
    """How wide a folded piece is: stiff enough to turn, narrow enough for the board's lines."""
    return max(6.0, 0.16 * spacing)


def pieces_sheet(strips: Strips, spacing: float, max_width: float = 250.0) -> Figure:
    """The pieces of a board at its scale, to cut out and fold.

    Each piece is a straight strip one hole spacing long and twice its finished width,
    with a fold line down the middle: folded and glued it is printed on both sides and
    twice as stiff.  The strips of a group touch in one block, so that every cut is one
    long straight line; the lines run past the block as guides for a ruler and knife."""
    s = spacing
    width = piece_width(s)
    strip = 2 * width
    guide = 4.0
    fit = math.floor((max_width - 2 * guide - 26.0) / s)
    count = max(group.count for group in strips.groups)
    # Full rows, so that every cut is straight: a divisor of the count, short of all of it.
    per_row = max([n for n in range(1, count) if count % n == 0 and n <= fit] or [1])
    rows = math.ceil(count / per_row)
    areas: list[Area] = []
    strokes: list[Stroke] = []
    texts: list[Text] = []
    caption = decimal_commas(tr(strips.caption).format(length=s, width=width))
    size = 3.2
    block_w = per_row * s
    lines = wrap(caption, size, max(block_w + 2 * guide, 120.0))
    for k, text in enumerate(lines):
        texts.append(Text(0.0, (0.6 + 1.35 * k) * size, text, size, "caption", "start"))
    top = (1.35 * len(lines) + 0.6) * size + guide
    for group in strips.groups:
        x0, y0 = guide, top
        for k in range(group.count):
            row, col = divmod(k, per_row)
            x, y = x0 + col * s, y0 + row * strip
            areas.append(Area(((x, y), (x + s, y), (x + s, y + strip), (x, y + strip)),
                              group.role))
            strokes.append(Stroke(((x + 1.0, y + width), (x + s - 1.0, y + width)), group.fold,
                                  0.25,
                                  dash=1.5))
        used_rows = rows
        x1, y1 = x0 + block_w, y0 + used_rows * strip
        for r in range(used_rows + 1):
            y = y0 + r * strip
            strokes.append(Stroke(((x0 - guide, y), (x1 + guide, y)), "line", 0.3))
        for c in range(per_row + 1):
            x = x0 + c * s
            strokes.append(Stroke(((x, y0 - guide), (x, y1 + guide)), "line", 0.3))
        texts.append(Text(x1 + guide + 2.0, (y0 + y1) / 2, tr(group.label), size, "caption",
                          "start"))
        top = y1 + 3 * guide
    height = top - 2 * guide
    right = 2 * guide + block_w + 2.0 + 22.0
    figure_width = max(right, max(text_box(t)[2] for t in texts))
    return Figure(figure_width + 2.0, height + 2.0, s, (), [], texts, [], strokes,
                  scale_note=tr("pieces for holes {spacing} mm apart: each {spacing} mm long, "
                                "hole centre to hole centre").format(spacing=decimal(s)),
                  areas=areas).shifted(1.0, 1.0)


def fitting_spacing(scene: PointScene, room: tuple[float, float], largest: float) -> float:
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


# The papers a board's default spacing fits: one spacing for all of them, so that pieces cut
# from one file fit the board of any other (A4 and Letter, landscape).
COMMON_PAPERS = ("a4", "letter")
# Kept by board and language: the labels it must fit are translated (French's are wider:
# 35 mm against English's 38), and a spacing found in one language must not be given to
# another, or a file's bytes would hang on which language a process drew first.
_DEFAULT_SPACINGS: dict[tuple[int, str], tuple[FixedBoard, float]] = {}


def default_spacing(board: FixedBoard) -> float:
    """The hole spacing every printed copy of the board has (rule sheet, board file, kit):
    the largest, in half millimetres and at most ``board.largest_spacing``, at which it fits
    a landscape page of A4 and of Letter alike, in the language spoken."""
    key = (id(board), language())
    cached = _DEFAULT_SPACINGS.get(key)
    if cached is not None and cached[0] is board:
        return cached[1]
    rooms = [content_size(parse_paper(name).size("landscape")) for name in COMMON_PAPERS]
    room = (min(w for w, _ in rooms), min(h for _, h in rooms))
    spacing = fitting_spacing(board.picture, room, board.largest_spacing)
    _DEFAULT_SPACINGS[key] = (board, spacing)
    return spacing


def _fits(figure: Figure, room: tuple[float, float]) -> bool:
    return figure.width <= room[0] + 1e-6 and figure.height <= room[1] + 1e-6


def board_spacing(board: FixedBoard, room: tuple[float, float]) -> float:
    """The default spacing, or on paper too small for it, the largest that fits ``room``
    (whose pieces then say which spacing they fit)."""
    spacing = default_spacing(board)
    if _fits(lattice_figure(board.picture, spacing), room):
        return spacing
    return fitting_spacing(board.picture, room, spacing)


def board_pages(board: FixedBoard, paper: Paper, spacing: float | None) -> list[Figure]:
    """The board and its sheet of pieces (if it has one), each for a landscape page of
    ``paper``, at ``spacing`` or the board's default; refused (one line) when either does
    not fit."""
    room = content_size(paper.size("landscape"))
    chosen = spacing is not None
    if spacing is None:
        spacing = board_spacing(board, room)
    figure = lattice_figure(board.picture, spacing)
    if not _fits(figure, room) and not chosen:
        raise BoardgenError(f"{option('paper')} {paper.name}: too small for the board "
                            f"({room[0]:.0f} x {room[1]:.0f} mm to draw on); choose larger "
                            "paper")
    if not _fits(figure, room):
        largest = fitting_spacing(board.picture, room, spacing)
        while True:  # to the tenth of a millimetre, as --cell-mm is given
            wider = lattice_figure(board.picture, round(largest + 0.1, 1))
            if not _fits(wider, room):
                break
            largest = round(largest + 0.1, 1)
        raise BoardgenError(f"{option('cell_mm')} {spacing:g}: the board does not fit "
                            f"{paper.name} landscape; the largest that fits is "
                            f"{option('cell_mm')} {largest:g}, or choose larger paper")
    pages = [figure]
    if board.strips is not None:
        pieces = pieces_sheet(board.strips, spacing, room[0])
        if not _fits(pieces, room):
            raise BoardgenError(f"{option('paper')} {paper.name}: too small for the sheet "
                                f"of pieces to cut out ({pieces.width:.0f} x "
                                f"{pieces.height:.0f} mm on {room[0]:.0f} x "
                                f"{room[1]:.0f} mm); choose larger paper")
        pages.append(pieces)
    # Typographer's quotes and apostrophes, as the rule sheets print the same words.
    return [curled(page) for page in pages]


def render_fixed_board(board: FixedBoard, fmt: str, *, paper: Paper, theme: Theme,
                       spacing: float | None, dpi: int, info: PageInfo) -> bytes:
    """A board of one size at exact scale, landscape, its holes ``default_spacing(board)``
    apart on every paper it fits (or ``spacing``), so that pieces from one file fit the
    board of another; the PDF adds a sheet of its pieces to cut out and fold.  The subject
    of ``info`` is formatted with the spacing chosen."""
    if fmt == "pdf":
        pages = board_pages(board, paper, spacing)
        info = PageInfo(info.title, decimal_commas(
            (info.subject or "").format(spacing=pages[0].cell_width)),
                        info.credit)
        return render_pdf_pages(pages, theme=theme, paper=paper, orientation="landscape",
                                info=info)
    if spacing is None:
        spacing = board_spacing(board, content_size(paper.size("landscape")))
    figure = curled(lattice_figure(board.picture, spacing))
    info = PageInfo(info.title, decimal_commas(
        (info.subject or "").format(spacing=spacing)), info.credit)
    if fmt == "png":  # drawn from the figure, with no SVG text in between
        return render_figure_png(figure, theme=theme, title=info.title, dpi=dpi)
    return render_svg(figure, theme=theme, title=info.title,
                      description=info.subject).encode("utf-8")


def render_fixed_board_fitted(board: FixedBoard, fmt: str, *, paper: Paper, theme: Theme,
                              spacing: float | None, dpi: int, info: PageInfo) -> bytes:
    """The board alone (no sheet of pieces) on a page cropped to it
    (boardgen.render.fit), its holes as far apart as without ``fit``."""
    from boardgen.render.fit import render_fitted_board

    if spacing is None:
        spacing = board_spacing(board, content_size(paper.size("landscape")))
    figure = curled(lattice_figure(board.picture, spacing))
    info = PageInfo(info.title, (info.subject or "").format(spacing=spacing), info.credit)
    return render_fitted_board(figure, fmt, theme=theme, dpi=dpi, info=info)


def render_fixed_board_for_shop(board: FixedBoard, *, paper: Paper, theme: Theme,
                                spacing: float | None, info: PageInfo, shop: Shop) -> bytes:
    """The board and its sheet of pieces as a print shop's PDF, each page's trim the paper
    turned landscape (as the home-printed pages are)."""
    from boardgen.render.shop import render_shop_pdf

    pages = board_pages(board, paper, spacing)
    info = PageInfo(info.title, decimal_commas(
            (info.subject or "").format(spacing=pages[0].cell_width)),
                    info.credit)
    return render_shop_pdf(pages, theme=theme, trim=paper.size("landscape"), shop=shop,
                           info=info)


HOLE_SHARE = 0.4  # the widest hole a cutter's board takes, as a share of the spacing


def default_hole_mm(spacing: float) -> float:
    """A hole as wide as the printed board draws it (a tenth of the spacing), to 0.5 mm."""
    return max(1.0, round(0.1 * spacing * 2) / 2)


def render_fixed_board_for_cutter(board: FixedBoard, *, paper: Paper, spacing: float | None,
                                  info: PageInfo, cutter: CutterOptions) -> bytes:
    """The board as a cutter's SVG: outline and holes cut (``cutter.hole_mm`` across, or
    as printed), lines, rings and labels engraved; its pieces as parts to cut."""
    from boardgen.render.cutter import Part, padded, render_cutter_svg

    if spacing is None:
        spacing = board_spacing(board, content_size(paper.size("landscape")))
    figure = padded(curled(lattice_figure(board.picture, spacing)))
    parts = [Part(spacing, piece_width(spacing), group.count, tr(group.label))
             for group in (board.strips.groups if board.strips else ())]
    if cutter.hole_mm is None:
        cutter = replace(cutter, hole_mm=default_hole_mm(spacing))
    elif cutter.hole_mm > HOLE_SHARE * spacing:
        # Wood must stay between neighbouring holes, and round each for the lines.
        raise BoardgenError(f"{option('hole_mm')} {cutter.hole_mm:g}: wider than "
                            f"{HOLE_SHARE:.0%} of the hole spacing ({spacing:g} mm); give a "
                            f"smaller {option('hole_mm')} or a larger {option('cell_mm')}")
    return render_cutter_svg(figure, options=cutter, title=info.title or "",
                             parts=parts, hole_role=board.picture.point_role).encode("utf-8")
