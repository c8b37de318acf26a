"""A lattice of holes measured out in millimetres: grooves, holes, bars, targets, swings.

A ``HoleScene`` (boardgen.picture) says what a picture shows, in holes and segments and
roles; ``lattice_figure`` turns it into the same drawing primitives the hex boards use, so
the SVG and PDF writers draw it unchanged.  ``spacing`` is the distance between
neighbouring holes, which is also a bar's (a piece's) length.  No game is named here: the
game's picture module (e.g. boardgen.games.polygone.picture) says which holes, grooves and
pieces there are.
"""

from __future__ import annotations

import math

from boardgen.errors import BoardgenError, option
from boardgen.geometry.lattice import Hole, direction, position
from boardgen.picture import MARK_KINDS, FixedBoard, HoleScene, PageInfo, Segment, Strips, Swing
from boardgen.render.figure import (
    MIN_PRINT_TEXT_MM,
    Area,
    Figure,
    Mark,
    Stroke,
    Text,
    arrow_strokes,
    ink_box,
    text_box,
    wrap,
)
from boardgen.render.fonts import BOLD
from boardgen.render.paper import Paper, content_size
from boardgen.render.pdf import render_pdf_pages
from boardgen.render.png import render_png
from boardgen.render.scene import Theme
from boardgen.render.svg import document_size, render_svg

Point = tuple[float, float]
INK_CLEARANCE_MM = 0.5  # paper between the outermost ink and a figure's edge
Line = Segment


def _at(hole: Hole, spacing: float) -> Point:
    return position(hole, spacing)


def _segment(ln: Line, spacing: float, trim: float = 0.0) -> tuple[Point, Point]:
    (ax, ay), (bx, by) = _at(ln[0], spacing), _at(ln[1], spacing)
    dx, dy = (bx - ax) * trim, (by - ay) * trim
    return (ax + dx, ay + dy), (bx - dx, by - dy)


def staple(ln: Line, role: str, spacing: float) -> list[Stroke]:
    """A bar (a piece): a dark outline under a fill, with round ends on the two holes."""
    a, b = _segment(ln, spacing, 0.02)
    width = 0.16 * spacing
    return [Stroke((a, b), "line", width), Stroke((a, b), role, width - 0.8)]


def target_strokes(ln: Line, kind: str, spacing: float) -> list[Stroke]:
    """An allowed target (``dashed``, role ghost: a dashed line, narrower than a bar) or a
    forbidden one (``struck``, role crossed: a thin solid line with a cross): told apart by
    shape as well as colour, so that they survive a black-only printer."""
    s = spacing
    if kind == "dashed":
        return [Stroke(_segment(ln, s, 0.12), "ghost", 0.07 * s, dash=0.09 * s)]
    (ax, ay), (bx, by) = _segment(ln, s)
    mx, my, r = (ax + bx) / 2, (ay + by) / 2, 0.08 * s
    return [Stroke(_segment(ln, s, 0.12), "crossed", 0.045 * s),
            Stroke(((mx - r, my - r), (mx + r, my + r)), "line", 0.025 * s),
            Stroke(((mx - r, my + r), (mx + r, my - r)), "line", 0.025 * s)]


def hollow_strokes(ln: Line, spacing: float) -> list[Stroke]:
    """Where a bar was just taken off: the two long sides of its outline, dashed and empty,
    nothing like a forbidden target (a thin line with a cross) or a bar."""
    (ax, ay), (bx, by) = _segment(ln, spacing, 0.06)
    length = math.hypot(bx - ax, by - ay)
    nx, ny = -(by - ay) / length * 0.07 * spacing, (bx - ax) / length * 0.07 * spacing
    return [Stroke(((ax + k * nx, ay + k * ny), (bx + k * nx, by + k * ny)), "captured",
                   0.022 * spacing, dash=0.05 * spacing) for k in (-1, 1)]


def tint_strokes(ln: Segment, spacing: float) -> list[Stroke]:
    """A designer's decorative tint on a segment: a wide band of the tint's colour under
    the groove and everything on it."""
    return [Stroke(_segment(ln, spacing), "tint", 0.2 * spacing, under=True),
            Stroke(_segment(ln, spacing), "groove", 0.035 * spacing, under=True)]


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


def start_strokes(ln: Line, role: str, spacing: float) -> list[Stroke]:
    """Where a bar starts, drawn faintly: two thin dashed rails either side of the middle
    of its groove (visible on a black groove too), nothing like a bar, which is thick and
    solid from hole to hole."""
    (ax, ay), (bx, by) = _segment(ln, spacing, 0.28)
    length = math.hypot(bx - ax, by - ay)
    nx, ny = -(by - ay) / length * 0.06 * spacing, (bx - ax) / length * 0.06 * spacing
    return [Stroke(((ax + k * nx, ay + k * ny), (bx + k * nx, by + k * ny)), role,
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


def lattice_figure(scene: HoleScene, spacing: float, *, margin: float = 1.0) -> Figure:
    s = spacing
    strokes: list[Stroke] = []
    marks: list[Mark] = []
    texts: list[Text] = []
    areas = [Area(tuple(position(h, s) for h in holes), role) for holes, role in scene.areas]
    for ln in scene.tinted:
        strokes.append(tint_strokes(ln, s)[0])
    for ln in scene.grooves:
        strokes.append(Stroke(_segment(ln, s), "groove", 0.035 * s, under=True))
    for ln in scene.dashed:
        strokes.extend(target_strokes(ln, "dashed", s))
    for hole in scene.holes:
        x, y = _at(hole, s)
        marks.append(Mark("dot", x, y, 0.05 * s, "hole"))
    for hole in scene.double_rings:
        x, y = _at(hole, s)
        # A double ring: never mistaken for a ringed pivot or a designer's mark.
        marks.append(Mark("ring", x, y, 0.14 * s, "accent"))
        marks.append(Mark("ring", x, y, 0.2 * s, "accent"))
    for note in scene.notes:
        x, y = _at(note.hole, s)
        # Beside the hole, away from the lattice: nothing else is out there.
        size = max(2.9, 0.075 * s)
        for k, part in enumerate(note.lines):
            # Past the row letter that stands left of the hole, too.
            texts.append(Text(x + note.side * (0.3 * s + 1.0), y + (k - 0.5) * 1.35 * size,
                              part, size, "coordinate", "start" if note.side > 0 else "end"))
    for ln, role in sorted(scene.rails.items()):
        strokes.extend(start_strokes(ln, role, s))
    for ln, role in sorted(scene.bars.items()):
        strokes.extend(staple(ln, role, s))
    for ln in scene.struck:
        strokes.extend(target_strokes(ln, "struck", s))
    for ln in scene.hollow:
        strokes.extend(hollow_strokes(ln, s))
    for swing in scene.swings:
        strokes.append(_arc(swing, s))
    for hole, kind in scene.hole_marks:
        # Drawn as strokes, so that they lie on top of the bars (marks lie under them).
        strokes.extend(_hole_mark(_at(hole, s), kind, s))
        if kind not in MARK_KINDS:
            x, y = _at(hole, s)
            texts.append(Text(x, y - 0.2 * s, kind, max(2.8, 0.13 * s), "cell-text",
                              weight=BOLD))
    for start, end in scene.arrows:  # above the rings (every writer draws arrows last)
        strokes.extend(arrow_strokes(_at(start, s), _at(end, s), "accent", 0.5 * s))
    for ln, label in scene.labels.items():
        (ax, ay), (bx, by) = _segment(ln, s)
        length = math.hypot(bx - ax, by - ay) or 1.0
        nx, ny = -(by - ay) / length, (bx - ax) / length  # perpendicular
        texts.append(Text((ax + bx) / 2 + nx * 0.17 * s, (ay + by) / 2 + ny * 0.17 * s, label,
                          max(MIN_PRINT_TEXT_MM, 0.11 * s), "cell-text"))
    size = max(MIN_PRINT_TEXT_MM, 0.08 * s)
    noted = {note.hole for note in scene.notes}
    for hole, letter in scene.row_labels:
        x, y = _at(hole, s)
        # Past a double ring with no words beside it (words stand further out and leave
        # the letter where it is).
        ringed = hole in scene.double_rings and hole not in noted
        gap = 0.2 * s + (0.16 * s if ringed else 0.0)
        texts.append(Text(x - gap, y, letter, size, "coordinate", "end"))
    if scene.column_labels:
        # Below where a label of a bar on the bottom row goes (0.17 spacing, one line).
        bottom = max(_at(h, s)[1] for h in scene.holes) + 0.17 * s + 1.3 * size
        for level, text in scene.column_labels:
            texts.append(Text(level * s / 2, bottom, text, size, "coordinate"))

    xs = [p[0] for st in strokes for p in st.points] + [m.x for m in marks]
    ys = [p[1] for st in strokes for p in st.points] + [m.y for m in marks]
    xs += [p[0] for a in areas for p in a.points]
    ys += [p[1] for a in areas for p in a.points]
    pad = 0.12 * s
    x0, y0, x1, y1 = min(xs) - pad, min(ys) - pad, max(xs) + pad, max(ys) + pad
    # Everything drawn, at its full width, stays inside the figure with a little paper to
    # spare (the apexes' outer rings reach past the pad, into the margin).
    ink = ink_box(Figure(0.0, 0.0, s, (), [], texts, marks, strokes, areas=areas))
    if ink is not None:
        inside = max(0.0, margin - INK_CLEARANCE_MM)
        x0, y0 = min(x0, ink[0] + inside), min(y0, ink[1] + inside)
        x1, y1 = max(x1, ink[2] - inside), max(y1, ink[3] - inside)
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
    caption = strips.caption.format(length=s, width=width)
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
        texts.append(Text(x1 + guide + 2.0, (y0 + y1) / 2, group.label, size, "caption",
                          "start"))
        top = y1 + 3 * guide
    height = top - 2 * guide
    right = 2 * guide + block_w + 2.0 + 22.0
    figure_width = max(right, max(text_box(t)[2] for t in texts))
    return Figure(figure_width + 2.0, height + 2.0, s, (), [], texts, [], strokes,
                  scale_note=f"each piece is {s:.1f} mm long, hole centre to hole centre",
                  areas=areas).shifted(1.0, 1.0)


def fitting_spacing(scene: HoleScene, room: tuple[float, float], largest: float) -> float:
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


def render_fixed_board(board: FixedBoard, fmt: str, *, paper: Paper, theme: Theme,
                       spacing: float | None, dpi: int, info: PageInfo) -> bytes:
    """A board of one size at exact scale, landscape and as large as the paper allows (or
    at ``spacing``); the PDF adds a sheet of its pieces to cut out and fold.  The subject
    of ``info`` is formatted with the spacing chosen."""
    room = content_size(paper.size("landscape"))
    if spacing is None:
        spacing = fitting_spacing(board.picture, room, board.largest_spacing)
    figure = lattice_figure(board.picture, spacing)
    info = PageInfo(info.title, (info.subject or "").format(spacing=spacing), info.credit)
    if fmt == "pdf":
        if figure.width > room[0] or figure.height > room[1]:
            largest = fitting_spacing(board.picture, room, spacing)
            while True:  # to the tenth of a millimetre, as --cell-mm is given
                wider = lattice_figure(board.picture, round(largest + 0.1, 1))
                if wider.width > room[0] or wider.height > room[1]:
                    break
                largest = round(largest + 0.1, 1)
            raise BoardgenError(f"{option('cell_mm')} {spacing:g}: the board does not fit "
                                f"{paper.name} landscape; the largest that fits is "
                                f"{option('cell_mm')} {largest:g}, or choose larger paper")
        pages = [figure]
        if board.strips is not None:
            pieces = pieces_sheet(board.strips, spacing, room[0])
            if pieces.width > room[0] + 1e-6 or pieces.height > room[1] + 1e-6:
                raise BoardgenError(f"{option('paper')} {paper.name}: too small for the sheet "
                                    f"of pieces to cut out ({pieces.width:.0f} x "
                                    f"{pieces.height:.0f} mm on {room[0]:.0f} x "
                                    f"{room[1]:.0f} mm); choose larger paper")
            pages.append(pieces)
        return render_pdf_pages(pages, theme=theme, paper=paper, orientation="landscape",
                                info=info)
    svg = render_svg(figure, theme=theme, title=info.title, description=info.subject)
    if fmt == "svg":
        return svg.encode("utf-8")
    width_mm, height_mm = document_size(figure, info.title)
    return render_png(svg, width_mm=width_mm, height_mm=height_mm, dpi=dpi)
