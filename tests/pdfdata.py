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
from pypdf.generic import ContentStream

MM_PER_PT = 25.4 / 72
Matrix = list[float]
Point = tuple[float, float]


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
    hexagons: list[Point]  # the centre of every closed six-sided path painted
    paths: list[PaintedPath] = field(default_factory=list)  # everything painted


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

        def walk(stream: object, resources: object, ctm: Matrix, tags: list[str],
                 segments: list[Segment] = segments,
                 placements: list[Placement] = placements,
                 hexagons: list[Point] = hexagons, form: str | None = None,
                 painted: list[PaintedPath] = painted) -> None:
            stack: list[tuple[Matrix, bool]] = []
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
                    stack.append((ctm, dashed))
                elif op == b"Q":
                    ctm, dashed = stack.pop()
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
                        hexagons.extend((sum(p[0] for p in h) / 6, sum(p[1] for p in h) / 6)
                                        for h in closed)
                    path, closed = [], []
                elif op in (b"n", b"re"):
                    path, closed = [], []
                elif op == b"Do":
                    name = str(operands[0])
                    xobject = resources["/XObject"][operands[0]].get_object()  # type: ignore[index]
                    matrix = [float(v) for v in xobject.get("/Matrix", [1, 0, 0, 1, 0, 0])]
                    placed = _mul(matrix, ctm)
                    placements.append(Placement(name.lstrip("/"), placed))
                    if into_forms and xobject.get("/Subtype") == "/Form":
                        walk(xobject, xobject.get("/Resources", resources), placed, tags,
                             form=name.lstrip("/"))

        walk(page.get_contents(), page["/Resources"], list(to_mm), [])
        trim = page.trimbox
        pages.append(PageVectors(
            float(page.mediabox.width) * MM_PER_PT, float(page.mediabox.height) * MM_PER_PT,
            (float(trim.left) * MM_PER_PT, float(trim.bottom) * MM_PER_PT,
             float(trim.right) * MM_PER_PT, float(trim.top) * MM_PER_PT),
            segments, placements, page.extract_text() or "", hexagons, painted))
    return pages


def scale_bars(page: PageVectors) -> list[float]:
    """The length in mm of each scale bar drawn on the page: the horizontal extent of the
    horizontal segments stroked under the ``ScaleBar`` tag (one bar per distinct height)."""
    rows: dict[int, list[float]] = {}
    for s in page.segments:
        if s.tag == "ScaleBar" and abs(s.a[1] - s.b[1]) < 1e-6:
            rows.setdefault(round(s.a[1] * 10), []).extend([s.a[0], s.b[0]])
    return [max(xs) - min(xs) for xs in rows.values()]


def ruled_bars(page: PageVectors) -> list[float]:
    """The length in mm of each ruled bar on the page, found by its shape alone (a PDF whose
    writer cannot tag the bar): a horizontal stroke with an upright tick stroked at each of
    its two ends, touching it, and at least one more tick between them."""
    horizontal = [s for s in page.segments if abs(s.a[1] - s.b[1]) < 1e-3 and
                  abs(s.a[0] - s.b[0]) > 1.0]
    upright = [s for s in page.segments if abs(s.a[0] - s.b[0]) < 1e-3 and
               abs(s.a[1] - s.b[1]) > 0.5]
    bars = []
    for bar in horizontal:
        x0, x1 = sorted((bar.a[0], bar.b[0]))
        y = bar.a[1]
        ticks = [s.a[0] for s in upright
                 if min(abs(s.a[1] - y), abs(s.b[1] - y)) < 0.05 and x0 - 0.05 <= s.a[0]
                 <= x1 + 0.05]
        ends = [x for x in ticks if abs(x - x0) < 0.05 or abs(x - x1) < 0.05]
        if len({round(x) for x in ends}) == 2 and len(ticks) >= 3:
            bars.append(x1 - x0)
    return bars
