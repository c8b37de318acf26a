"""What a PDF page draws, read back from its own content streams (an oracle for the tests).

Follows q/Q/cm and form XObjects (Do) the way a printer does, and reports in millimetres on
the page (y up, from the page's bottom-left): the straight segments stroked (with the dash
state and the marked-content tag they were drawn under), and where each form was placed.
Shares no code with boardgen's writer.
"""

from __future__ import annotations

import io
from dataclasses import dataclass, field

from pypdf import PdfReader
from pypdf.generic import ArrayObject, ContentStream, DictionaryObject

MM_PER_PT = 25.4 / 72
Matrix = list[float]
Point = tuple[float, float]
Rect = tuple[float, float, float, float]


@dataclass(frozen=True)
class Segment:
    a: Point
    b: Point
    dashed: bool
    tag: str | None  # the innermost marked-content tag, e.g. "ScaleBar"


@dataclass(frozen=True)
class Placement:
    name: str
    matrix: Matrix  # form space -> page millimetres

    def apply(self, x: float, y: float) -> Point:
        m = self.matrix
        return m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]


@dataclass(frozen=True)
class TextRun:
    """A string shown, as the box its glyphs take on the page (mm, y up): from the font's
    descent to its ascent, as wide as the font's advance widths make it."""

    text: str
    box: tuple[float, float, float, float]  # x0, y0, x1, y1


@dataclass(frozen=True)
class PaintedPath:
    """A path filled or stroked, in page millimetres: its subpaths' points (curves by their
    end and control points), and the form it was drawn in (None: the page itself)."""

    subpaths: tuple[tuple[Point, ...], ...]
    filled: bool
    stroked: bool
    form: str | None
    tag: str | None


@dataclass
class PageVectors:
    width: float  # mm
    height: float
    trim: tuple[float, float, float, float]  # x0, y0, x1, y1 in mm
    segments: list[Segment]
    placements: list[Placement]
    text: str
    hexagons: list[Point]  # the centre of every closed six-sided path painted and not
    # clipped away (rectangular clips only, which is what boardgen's tiles use)
    paths: list[PaintedPath] = field(default_factory=list)  # everything painted
    runs: list[TextRun] = field(default_factory=list)  # every string shown, forms included


def _mul(a: Matrix, b: Matrix) -> Matrix:
    return [a[0] * b[0] + a[1] * b[2], a[0] * b[1] + a[1] * b[3],
            a[2] * b[0] + a[3] * b[2], a[2] * b[1] + a[3] * b[3],
            a[4] * b[0] + a[5] * b[2] + b[4], a[4] * b[1] + a[5] * b[3] + b[5]]


def _apply(m: Matrix, x: float, y: float) -> Point:
    return m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]


def read_pages(pdf: bytes, *, into_forms: bool = True) -> list[PageVectors]:
    reader = PdfReader(io.BytesIO(pdf))
    pages = []
    to_mm = [MM_PER_PT, 0.0, 0.0, MM_PER_PT, 0.0, 0.0]
    for page in reader.pages:
        segments: list[Segment] = []
        placements: list[Placement] = []
        hexagons: list[Point] = []
        painted: list[PaintedPath] = []

        runs: list[TextRun] = []

        def walk(stream: object, resources: object, ctm: Matrix, tags: list[str],
                 segments: list[Segment] = segments,
                 placements: list[Placement] = placements,
                 hexagons: list[Point] = hexagons, runs: list[TextRun] = runs,
                 clips: list[list[Rect]] | None = None, form: str | None = None,
                 painted: list[PaintedPath] = painted) -> None:
            stack: list[tuple[Matrix, bool, list[list[Rect]]]] = []
            clips = clips or []  # each clip a union of rectangles; all apply
            rects: list[Rect] = []
            clipping = False
            tm: Matrix = [1.0, 0.0, 0.0, 1.0, 0.0, 0.0]
            line: Matrix = list(tm)
            font: object = None
            size = 0.0
            dashed = False
            path: list[tuple[Point, Point]] = []
            current: Point | None = None
            start: Point | None = None
            corners: list[Point] = []
            closed: list[list[Point]] = []
            subpaths: list[list[Point]] = []
            for operands, op in ContentStream(stream, reader).operations:
                if op in (b"m", b"re"):
                    subpaths.append([])
                if op in (b"m", b"l", b"c", b"v", b"y") and subpaths:
                    values = [float(v) for v in operands]
                    subpaths[-1].extend(_apply(ctm, values[k], values[k + 1])
                                        for k in range(0, len(values), 2))
                elif op == b"re":
                    x, y, w, h = (float(v) for v in operands)
                    subpaths[-1].extend(_apply(ctm, px, py) for px, py in
                                        ((x, y), (x + w, y), (x + w, y + h), (x, y + h)))
                if op in (b"S", b"s", b"B", b"b", b"B*", b"b*", b"f", b"F", b"f*"):
                    painted.append(PaintedPath(
                        tuple(tuple(sp) for sp in subpaths if sp),
                        op not in (b"S", b"s"), op not in (b"f", b"F", b"f*"), form,
                        tags[-1] if tags else None))
                if op in (b"S", b"s", b"B", b"b", b"B*", b"b*", b"f", b"F", b"f*", b"n"):
                    subpaths = []
                if op == b"q":
                    stack.append((ctm, dashed, clips))
                elif op == b"Q":
                    ctm, dashed, clips = stack.pop()
                elif op == b"re":
                    x, y, w, h = (float(v) for v in operands)
                    corners = [_apply(ctm, x + dx, y + dy) for dx in (0, w) for dy in (0, h)]
                    rects.append((min(p[0] for p in corners), min(p[1] for p in corners),
                                  max(p[0] for p in corners), max(p[1] for p in corners)))
                elif op in (b"W", b"W*"):
                    clipping = True
                elif op == b"cm":
                    ctm = _mul([float(v) for v in operands], ctm)
                elif op == b"d":
                    dashed = len(operands[0]) > 0
                elif op in (b"BMC", b"BDC"):
                    tags.append(str(operands[0]).lstrip("/"))
                elif op == b"EMC":
                    tags.pop()
                elif op == b"m":
                    current = start = _apply(ctm, float(operands[0]), float(operands[1]))
                    corners = [current]
                elif op == b"l":
                    point = _apply(ctm, float(operands[0]), float(operands[1]))
                    if current is not None:
                        path.append((current, point))
                    current = point
                    corners.append(point)
                elif op == b"h":
                    if current is not None and start is not None:
                        path.append((current, start))
                    if len(corners) == 6:
                        closed.append(corners)
                    corners = []
                    current = start
                elif op in (b"S", b"s", b"B", b"b", b"B*", b"b*", b"f", b"F", b"f*"):
                    if op not in (b"f", b"F", b"f*"):
                        tag = tags[-1] if tags else None
                        segments.extend(Segment(a, b, dashed, tag) for a, b in path)
                    if op in (b"B", b"b", b"f", b"F", b"B*", b"b*"):
                        centres = ((sum(p[0] for p in h) / 6, sum(p[1] for p in h) / 6)
                                   for h in closed)
                        hexagons.extend(c for c in centres if _visible(c, clips))
                    path, closed, rects = [], [], []
                elif op == b"n":
                    if clipping and rects:
                        clips = [*clips, rects]
                    path, closed, rects, clipping = [], [], [], False
                elif op == b"BT":
                    tm, line = [1.0, 0.0, 0.0, 1.0, 0.0, 0.0], [1.0, 0.0, 0.0, 1.0, 0.0, 0.0]
                elif op == b"Tm":
                    tm = [float(v) for v in operands]
                    line = list(tm)
                elif op == b"Td":
                    line = _mul([1, 0, 0, 1, float(operands[0]), float(operands[1])], line)
                    tm = list(line)
                elif op == b"Tf":
                    font = resources["/Font"][operands[0]].get_object()  # type: ignore[index]
                    size = float(operands[1])
                elif op in (b"Tj", b"TJ"):
                    parts = operands[0] if op == b"TJ" else [operands[0]]
                    for part in parts:
                        if isinstance(part, (int, float)) or hasattr(part, "as_numeric"):
                            tm = _mul([1, 0, 0, 1, -float(part) / 1000 * size, 0], tm)
                            continue
                        codes = getattr(part, "original_bytes", None) or bytes(part)
                        width = _advance(font, codes) * size
                        runs.append(_run(str(part), font, size, width, _mul(tm, ctm)))
                        tm = _mul([1, 0, 0, 1, width, 0], tm)
                elif op == b"Do":
                    name = str(operands[0])
                    xobject = resources["/XObject"][operands[0]].get_object()  # type: ignore[index]
                    matrix = [float(v) for v in xobject.get("/Matrix", [1, 0, 0, 1, 0, 0])]
                    placed = _mul(matrix, ctm)
                    placements.append(Placement(name.lstrip("/"), placed))
                    if into_forms and xobject.get("/Subtype") == "/Form":
                        walk(xobject, xobject.get("/Resources", resources), placed, tags,
                             clips=clips, form=name.lstrip("/"))

        walk(page.get_contents(), page["/Resources"], list(to_mm), [])
        trim = page.trimbox
        pages.append(PageVectors(
            float(page.mediabox.width) * MM_PER_PT, float(page.mediabox.height) * MM_PER_PT,
            (float(trim.left) * MM_PER_PT, float(trim.bottom) * MM_PER_PT,
             float(trim.right) * MM_PER_PT, float(trim.top) * MM_PER_PT),
            segments, placements, page.extract_text() or "", hexagons, painted, runs))
    return pages


def _visible(point: Point, clips: list[list[Rect]]) -> bool:
    return all(any(x0 <= point[0] <= x1 and y0 <= point[1] <= y1 for x0, y0, x1, y1 in clip)
               for clip in clips)


def _cid_widths(font: object) -> tuple[dict[int, float], float]:
    """A composite (Type0) font's widths by glyph id, from its descendant's /W array (both
    of its forms: ``c [w1 w2 ...]`` and ``c_first c_last w``), and its default /DW."""
    descendant = font["/DescendantFonts"][0].get_object()  # type: ignore[index]
    default = float(descendant.get("/DW", 1000))
    table: dict[int, float] = {}
    entries = list(descendant.get("/W", []))
    k = 0
    while k < len(entries):
        first = int(entries[k])
        following = entries[k + 1].get_object() if hasattr(entries[k + 1], "get_object") \
            else entries[k + 1]
        if isinstance(following, list):
            for offset, width in enumerate(following):
                table[first + offset] = float(width)
            k += 2
        else:
            for code in range(first, int(following) + 1):
                table[code] = float(entries[k + 2])
            k += 3
    return table, default


def _descriptor(font: object) -> object:
    if font.get("/Subtype") == "/Type0":  # type: ignore[attr-defined]
        font = font["/DescendantFonts"][0].get_object()  # type: ignore[index]
    return font["/FontDescriptor"].get_object()  # type: ignore[index]


def _advance(font: object, codes: bytes) -> float:
    """The advance of a string in text space units per point of size, from the font's
    /Widths (simple fonts: one byte a glyph) or its descendant's /W (a composite font, as
    Typst writes: two bytes a glyph, Identity-H)."""
    if font.get("/Subtype") == "/Type0":  # type: ignore[attr-defined]
        table, default = _cid_widths(font)
        return sum(table.get(int.from_bytes(codes[k:k + 2], "big"), default)
                   for k in range(0, len(codes) - 1, 2)) / 1000
    widths = font["/Widths"]  # type: ignore[index]
    first = int(font["/FirstChar"])  # type: ignore[index]
    missing = 0.0
    descriptor = font.get("/FontDescriptor")  # type: ignore[attr-defined]
    if descriptor is not None:
        missing = float(descriptor.get_object().get("/MissingWidth", 0))
    total = 0.0
    for code in codes:
        k = code - first
        total += float(widths[k]) if 0 <= k < len(widths) else missing
    return total / 1000


def _run(text: str, font: object, size: float, width: float, matrix: Matrix) -> TextRun:
    descriptor = _descriptor(font)
    ascent = float(descriptor.get("/Ascent", 750)) / 1000 * size  # type: ignore[attr-defined]
    descent = float(descriptor.get("/Descent", -250)) / 1000 * size  # type: ignore[attr-defined]
    corners = [_apply(matrix, x, y) for x in (0.0, width) for y in (descent, ascent)]
    xs, ys = [p[0] for p in corners], [p[1] for p in corners]
    return TextRun(text, (min(xs), min(ys), max(xs), max(ys)))


def scale_bars(page: PageVectors) -> list[float]:
    """The length in mm of each bar drawn across the page: the horizontal extent of the
    horizontal segments stroked under the ``ScaleBar`` tag (one bar per distinct height;
    the ticks of a bar up the page, a few mm long, do not count)."""
    rows: dict[int, list[float]] = {}
    for s in page.segments:
        if s.tag == "ScaleBar" and abs(s.a[1] - s.b[1]) < 1e-6 and abs(s.a[0] - s.b[0]) > 5.0:
            rows.setdefault(round(s.a[1] * 10), []).extend([s.a[0], s.b[0]])
    return [max(xs) - min(xs) for xs in rows.values()]


def vertical_scale_bars(page: PageVectors) -> list[float]:
    """The length in mm of each bar drawn up the page under the ``ScaleBar`` tag: the
    vertical extent of the vertical segments stroked there, one bar per distinct x (ticks,
    being horizontal, do not count)."""
    columns: dict[int, list[float]] = {}
    for s in page.segments:
        if s.tag == "ScaleBar" and abs(s.a[0] - s.b[0]) < 1e-6 and abs(s.a[1] - s.b[1]) > 5.0:
            columns.setdefault(round(s.a[0] * 10), []).extend([s.a[1], s.b[1]])
    return [max(ys) - min(ys) for ys in columns.values()]


def ruled_bars(page: PageVectors) -> list[float]:
    """The length in mm of each ruled bar on the page, found by its shape alone (a PDF whose
    writer cannot tag the bar): a horizontal stroke with an upright tick stroked at each of
    its two ends, touching it, and at least one more tick between them."""
    return _ruled([(s.a, s.b) for s in page.segments])


def ruled_vertical_bars(page: PageVectors) -> list[float]:
    """The length in mm of each ruled bar up the page, found by its shape alone (as
    :func:`ruled_bars`, turned a quarter): an upright stroke with a level tick stroked at
    each of its two ends, touching it, and at least one more tick between them."""
    return _ruled([((a[1], a[0]), (b[1], b[0])) for a, b in
                   ((s.a, s.b) for s in page.segments)])


def _ruled(segments: list[tuple[Point, Point]]) -> list[float]:
    """The bars along x among ``segments`` (each a pair of end points): see ruled_bars."""
    along = [(a, b) for a, b in segments if abs(a[1] - b[1]) < 1e-3 and abs(a[0] - b[0]) > 1.0]
    across = [(a, b) for a, b in segments if abs(a[0] - b[0]) < 1e-3 and abs(a[1] - b[1]) > 0.5]
    bars = []
    for a, b in along:
        x0, x1 = sorted((a[0], b[0]))
        y = a[1]
        ticks = [p[0] for p, q in across
                 if min(abs(p[1] - y), abs(q[1] - y)) < 0.05 and x0 - 0.05 <= p[0] <= x1 + 0.05]
        ends = [x for x in ticks if abs(x - x0) < 0.05 or abs(x - x1) < 0.05]
        if len({round(x) for x in ends}) == 2 and len(ticks) >= 3:
            bars.append(x1 - x0)
    return bars


def structure_elements(reader: PdfReader) -> list[DictionaryObject]:
    """Every element of a tagged PDF's structure tree under its root, depth first."""
    found: list[DictionaryObject] = []

    def walk(node: object) -> None:
        node = node.get_object()  # type: ignore[attr-defined]
        if isinstance(node, ArrayObject):
            for child in node:
                walk(child)
            return
        if not isinstance(node, DictionaryObject) or node.get("/Type") == "/MCR":
            return
        if "/S" in node:
            found.append(node)
        if "/K" in node:
            walk(node["/K"])

    walk(reader.trailer["/Root"]["/StructTreeRoot"])
    return found
