"""Figure -> PNG pixels, drawn with cairo directly: the same picture as the SVG writer's
document (paper, title, layers in the same order, the same paints and patterns), without
writing SVG text and parsing it back (CairoSVG deep-copies every ``<use>``: 3-5x the
cost, and it refuses past 100,000 of them).

A large picture is drawn in horizontal bands and streamed into the PNG, so memory stays
bounded by the band, not the picture; each band draws only the cells, marks and texts that
reach into it.
The PNG records its resolution (pHYs) so that it prints 1:1.
"""

from __future__ import annotations

import bisect
import functools
import math
import struct
import zlib
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any

from boardgen.i18n import typography
from boardgen.render.figure import (
    PATTERN_SHARE,
    Area,
    Figure,
    Mark,
    Stroke,
    Text,
    arrow_head,
    dot_outline,
    pattern_step,
    text_box,
    text_ink,
)
from boardgen.render.fonts import face
from boardgen.render.scene import Theme
from boardgen.render.svg import title_line
from boardgen.text import printable

if TYPE_CHECKING:
    import cairocffi as cairo

MM_PER_INCH = 25.4
BAND_PIXELS = 4_000_000  # pixels drawn at once (16 MB of surface)
# zlib's default level, as cairo's and Pillow's PNG writers use.  Measured on a side-100
# board (bench/bench_speed.py's PNG rows): level 1 is 15 % faster at 36 dpi and 27 % at
# 150 dpi but its files are 27 % and 46 % larger; level 9 is 1.9x and 4.9x slower for 7 %
# and 3 % smaller files.  Level 6 keeps the bytes unchanged.
PNG_COMPRESSION = 6
# Text fills as the SVG's style sheet gives them; other roles inherit SVG's black.
_TEXT_PAINT = {"coordinate": "muted", "caption": "muted", "credit": "muted", "cell-text": "text",
               "title": "text"}


def _rgb(colour: str) -> tuple[float, float, float]:
    value = colour.lstrip("#")
    if len(value) == 3:
        value = "".join(c * 2 for c in value)
    return int(value[0:2], 16) / 255, int(value[2:4], 16) / 255, int(value[4:6], 16) / 255


def pixel_size(width_mm: float, height_mm: float, dpi: float) -> tuple[int, int]:
    """The image size in pixels, as CairoSVG sized it (rounded, at least 1)."""
    return (max(1, round(width_mm / MM_PER_INCH * dpi)),
            max(1, round(height_mm / MM_PER_INCH * dpi)))


class _GlyphPaths:
    """Glyph outlines as cairo path operations, in font units with y down, once each; and
    packed as cairo's path data (cairo_path_data_t), for a text to hand cairo as one path."""

    def __init__(self) -> None:
        self._paths: dict[tuple[str, str], list[tuple[str, tuple[float, ...]]]] = {}
        self._packed: dict[tuple[str, str], tuple[str, list[float], tuple[int, ...]]] = {}

    def ops(self, weight: str, ch: str) -> list[tuple[str, tuple[float, ...]]]:
        key = (weight, ch)
        cached = self._paths.get(key)
        if cached is None:
            cached = self._paths[key] = _outline(weight, ch)
        return cached

    def packed(self, weight: str, ch: str) -> tuple[str, list[float], tuple[int, ...]]:
        """The glyph's path data as a struct format, its values (x at advance 0), and
        which values are x coordinates (to be moved by the glyph's advance)."""
        key = (weight, ch)
        cached = self._packed.get(key)
        if cached is None:
            formats: list[str] = []
            values: list[float] = []
            xs: list[int] = []
            for op, args in self.ops(weight, ch):
                kind, points = _PATH_KINDS[op]
                # A header (type, length, padding), then each point (x, y) in one union
                # element of 16 bytes.
                formats.append("ii8x" + "dd" * points)
                values += [kind, 1 + points]
                for k in range(points):
                    xs.append(len(values))
                    values += [args[2 * k], args[2 * k + 1]]
            cached = self._packed[key] = ("".join(formats), values, tuple(xs))
        return cached


# A text's packed path (in font units, at its own origin: the context places and scales
# it), by weight and text: a picture's labels and a diagram's captions come again and again.
_TEXT_PATHS: dict[tuple[str, str], bytes] = {}
_TEXT_PATHS_KEPT = 4_096


def _text_path(weight: str, text: str) -> bytes:
    """The glyph outlines of ``text`` (as drawn: its typography applied) in ``weight``,
    packed as cairo's path data, each glyph moved by the advances before it."""
    key = (weight, text)
    data = _TEXT_PATHS.get(key)
    if data is not None:
        return data
    font = face(weight)
    formats = ["="]  # native byte order, no padding but the headers' own
    values: list[float] = []
    advance = 0
    for ch in text:
        if ch != " ":
            glyph_format, glyph_values, xs = _GLYPHS.packed(weight, ch)
            placed = glyph_values.copy()
            for k in xs:
                placed[k] = placed[k] + advance
            formats.append(glyph_format)
            values += placed
        advance += font.advance(ch)
    data = struct.pack("".join(formats), *values)
    if len(_TEXT_PATHS) >= _TEXT_PATHS_KEPT:
        _TEXT_PATHS.clear()
    _TEXT_PATHS[key] = data
    return data


_PATH_DATA_BYTES = 16  # one cairo_path_data_t (a header, or a point of two doubles)
# cairo_path_data_type_t and the points each element carries.
_PATH_KINDS = {"m": (0, 1), "l": (1, 1), "c": (2, 3), "z": (3, 0)}


def _outline(weight: str, ch: str) -> list[tuple[str, tuple[float, ...]]]:
    from fontTools.pens.basePen import BasePen

    ops: list[tuple[str, tuple[float, ...]]] = []

    class Pen(BasePen):  # type: ignore[misc]  # quadratic segments arrive as cubics (BasePen converts them)
        def _moveTo(self, pt: tuple[float, float]) -> None:
            ops.append(("m", (pt[0], -pt[1])))

        def _lineTo(self, pt: tuple[float, float]) -> None:
            ops.append(("l", (pt[0], -pt[1])))

        def _curveToOne(self, p1: tuple[float, float], p2: tuple[float, float],
                        p3: tuple[float, float]) -> None:
            ops.append(("c", (p1[0], -p1[1], p2[0], -p2[1], p3[0], -p3[1])))

        def _closePath(self) -> None:
            ops.append(("z", ()))

        def _endPath(self) -> None:
            pass

    face(weight).draw_outline(ch, Pen)
    return ops


_GLYPHS = _GlyphPaths()


class _Painter:
    """Draws one figure onto cairo contexts: the board's origin at (dx, band) mm."""

    def __init__(self, figure: Figure, theme: Theme, title: str | None) -> None:
        self.figure = figure
        self.theme = theme
        # Each role's colour and paint looked up once a picture (a theme asks the games'
        # declarations for roles of their own: every cell, stroke and stone asks again).
        self.colour = functools.lru_cache(maxsize=None)(theme.colour)
        self.paint = functools.lru_cache(maxsize=None)(theme.paint)
        self.title_text, self.band, self.width = title_line(figure, title)
        self.height = figure.height + self.band
        self.dx = (self.width - figure.width) / 2
        # Cells sorted by y, so that a band finds its own with two bisections.
        self.order = sorted(range(len(figure.cells)), key=lambda i: figure.cells[i].y)
        self.ys = [figure.cells[i].y for i in self.order]
        offsets = figure.hex_offsets
        self.reach = max((abs(y) for _, y in offsets), default=0.0) + theme.line_width_mm

    # --- paints ---------------------------------------------------------------------------

    def _fill(self, ctx: cairo.Context, role: str, origin: tuple[float, float]) -> None:
        """Fill the current path with the role's paint: its colour, then its pattern drawn
        as vectors on a lattice anchored at ``origin`` (a ``<use>`` moves the user space
        an SVG pattern is laid in, so each cell's starts at its centre).  Vectors, not a
        repeated tile: a tile of a fractional number of pixels leaves seams."""
        paint = self.paint(role)
        ctx.set_source_rgb(*_rgb(paint.fill))
        if not paint.pattern:
            ctx.fill()
            return
        kind = paint.pattern
        step = pattern_step(self.figure.cell_width)
        bar = step * PATTERN_SHARE[kind]
        ctx.save()
        ctx.clip()
        ctx.paint()
        ctx.translate(*origin)
        if kind in ("hatch", "crosshatch"):
            ctx.rotate(0.7853981633974483)
        if kind == "backhatch":
            ctx.rotate(-0.7853981633974483)
        x0, y0, x1, y1 = ctx.clip_extents()  # in the pattern's own axes
        columns = range(math.floor(x0 / step) - 1, math.ceil(x1 / step) + 1)
        rows = range(math.floor(y0 / step) - 1, math.ceil(y1 / step) + 1)
        ctx.set_source_rgb(*_rgb(self.theme.line))
        if kind == "dots":
            for i in columns:
                for j in rows:
                    ctx.new_sub_path()
                    ctx.arc((i + 0.5) * step, (j + 0.5) * step, bar, 0, 6.283185307179586)
        if kind in ("hatch", "backhatch", "vlines", "crosshatch", "grid"):
            for i in columns:
                ctx.rectangle(i * step, y0 - step, bar, y1 - y0 + 2 * step)
        if kind in ("hlines", "crosshatch", "grid"):
            for j in rows:
                ctx.rectangle(x0 - step, j * step, x1 - x0 + 2 * step, bar)
        ctx.fill()
        ctx.restore()
        ctx.new_path()

    # --- layers ---------------------------------------------------------------------------

    def draw(self, ctx: cairo.Context, top: float, bottom: float) -> None:
        """Everything that reaches into [top, bottom] mm of the picture."""
        theme = self.theme
        ctx.set_source_rgb(*_rgb(theme.paper))
        ctx.paint()
        if self.title_text is not None:
            self._text(ctx, self.title_text)
        ctx.save()
        ctx.translate(self.dx, self.band)
        top, bottom = top - self.band, bottom - self.band  # in the figure's own frame
        for area in self.figure.areas:
            self._area(ctx, area)
        self._cells(ctx, top, bottom)
        for overlay in self.figure.overlays:  # highlights: bands over the cells
            self._area(ctx, overlay)
        strokes = self.figure.strokes
        for s in strokes:
            if s.under:
                self._stroke(ctx, s)
        margin = self.theme.line_width_mm  # a dot's outline is at least this wide
        for m in self.figure.marks:
            reach = m.radius * 2 + margin  # outline (or a cross's line ends) included
            if top - reach <= m.y <= bottom + reach:
                self._mark(ctx, m)
        for s in strokes:
            if not s.under and not s.arrow:
                self._stroke(ctx, s)
        # Only the texts that reach into the band (a board's labels would be drawn again
        # in every band): a glyph stays within one size of the text's middle.
        texts = [t for t in self.figure.texts if top - t.size <= t.y <= bottom + t.size]
        for t in texts:
            if t.role == "cell-text":
                self._text(ctx, t)
        # Arrows above the numbers and rings they start or end at, as the SVG layers them.
        for s in strokes:
            if not s.under and s.arrow:
                self._stroke(ctx, s)
        for t in texts:
            if t.role == "coordinate":
                self._text(ctx, t)
        for t in texts:
            if t.role not in ("cell-text", "coordinate"):
                self._text(ctx, t)
        ctx.restore()

    def _cells(self, ctx: cairo.Context, top: float, bottom: float) -> None:
        cells = self.figure.cells
        lo = bisect.bisect_left(self.ys, top - self.reach)
        hi = bisect.bisect_right(self.ys, bottom + self.reach)
        chosen = sorted(self.order[lo:hi])  # back in drawing order
        if not chosen:
            return
        (x0, y0), (x1, y1), (x2, y2), (x3, y3), (x4, y4), (x5, y5) = (
            (round(x, 3), round(y, 3)) for x, y in self.figure.hex_offsets)
        # The paths of thousands of cells are built with cairo's own functions (cairocffi's
        # documented C-level API: its wrappers check cairo's status after every point,
        # which was most of a large board's time).  Cairo keeps an error in the context's
        # status, which the wrapped fill and stroke below check.
        from cairocffi import cairo as cairo_c

        pointer = ctx._pointer
        move_to, line_to, close_path = (cairo_c.cairo_move_to, cairo_c.cairo_line_to,
                                        cairo_c.cairo_close_path)

        def hexagon(x: float, y: float) -> None:
            move_to(pointer, x + x0, y + y0)
            line_to(pointer, x + x1, y + y1)
            line_to(pointer, x + x2, y + y2)
            line_to(pointer, x + x3, y + y3)
            line_to(pointer, x + x4, y + y4)
            line_to(pointer, x + x5, y + y5)
            close_path(pointer)

        # Fills first (cells do not overlap), then the outlines in drawing order: a later
        # cell's outline covers the edge it shares with an earlier one, as in the SVG.
        by_role: dict[str, list[int]] = {}
        for i in chosen:
            by_role.setdefault(cells[i].role, []).append(i)
        ctx.set_line_width(self.theme.line_width_mm)
        ctx.set_line_join(2)  # round
        if len(by_role) == 1:
            (role,) = by_role
            paint = self.paint(role)
            if not paint.pattern:
                # One role, one colour (a plain board): the one path of every cell is
                # filled, then stroked, as the two passes below would fill and stroke it.
                for i in chosen:
                    c = cells[i]
                    hexagon(c.x, c.y)
                ctx.set_source_rgb(*_rgb(paint.fill))
                ctx.fill_preserve()
                ctx.set_source_rgb(*_rgb(paint.outline or self.theme.line))
                ctx.stroke()
                return
        for role, members in by_role.items():
            if self.paint(role).pattern:
                for i in members:
                    c = cells[i]
                    hexagon(c.x, c.y)
                    self._fill(ctx, role, (c.x, c.y))
            else:
                for i in members:
                    c = cells[i]
                    hexagon(c.x, c.y)
                self._fill(ctx, role, (0.0, 0.0))
        run_colour: str | None = None
        for i in chosen:
            c = cells[i]
            colour = self.paint(c.role).outline or self.theme.line
            if colour != run_colour:
                if run_colour is not None:
                    ctx.stroke()
                ctx.set_source_rgb(*_rgb(colour))
                run_colour = colour
            hexagon(c.x, c.y)
        ctx.stroke()

    def _area(self, ctx: cairo.Context, a: Area) -> None:
        self._polygon(ctx, a.points)
        self._fill(ctx, a.role, (0.0, 0.0))

    @staticmethod
    def _polygon(ctx: cairo.Context, points: Sequence[tuple[float, float]]) -> None:
        (x, y), *rest = points
        ctx.move_to(x, y)
        for x, y in rest:
            ctx.line_to(x, y)
        ctx.close_path()

    def _stroke(self, ctx: cairo.Context, s: Stroke) -> None:
        colour = _rgb(self.colour(s.role))
        (x, y), *rest = s.points
        ctx.move_to(x, y)
        for x, y in rest:
            ctx.line_to(x, y)
        ctx.set_source_rgb(*colour)
        ctx.set_line_width(s.width)
        ctx.set_line_cap(0 if s.dash else 1)  # butt when dashed, else round
        ctx.set_line_join(0)  # miter, SVG's default
        ctx.set_miter_limit(4.0)
        ctx.set_dash([s.dash] if s.dash else [])
        ctx.stroke()
        ctx.set_dash([])
        if s.arrow:
            self._polygon(ctx, arrow_head(s))
            ctx.fill()

    def _mark(self, ctx: cairo.Context, m: Mark) -> None:
        theme = self.theme
        ctx.set_line_cap(0)
        ctx.set_line_join(0)
        if m.kind == "cross":
            r = m.radius
            ctx.move_to(m.x - r, m.y - r)
            ctx.line_to(m.x + r, m.y + r)
            ctx.move_to(m.x - r, m.y + r)
            ctx.line_to(m.x + r, m.y - r)
            ctx.set_source_rgb(*_rgb(self.colour(m.role)))
            ctx.set_line_width(r * 0.25)
            ctx.stroke()
            return
        radius = m.radius
        if m.kind == "dot":
            radius, outline = dot_outline(m, theme)
        fill, stroke, width = {
            "dot": (self.colour(m.role), theme.line, outline if m.kind == "dot" else 0.0),
            "disc": (theme.paper, theme.text, m.radius * 0.12),
            "ring": (None, self.colour(m.role), m.radius * 0.22),
        }[m.kind]
        ctx.new_sub_path()
        ctx.arc(m.x, m.y, radius, 0, 6.283185307179586)
        if m.kind == "dot" and m.role in theme.cells and theme.cells[m.role].pattern:
            ctx.save()  # a stone told apart by its pattern (ink)
            self._fill(ctx, m.role, (m.x, m.y))
            ctx.restore()
            ctx.new_sub_path()
            ctx.arc(m.x, m.y, radius, 0, 6.283185307179586)
            fill = None
        if fill is not None:
            ctx.set_source_rgb(*_rgb(fill))
            ctx.fill_preserve()
        ctx.set_source_rgb(*_rgb(stroke))
        ctx.set_line_width(width)
        ctx.stroke()

    def _text(self, ctx: cairo.Context, t: Text) -> None:
        font = face(t.weight)
        scale = t.size / font.units_per_em
        x0 = text_box(t)[0]
        baseline = t.y + font.cap_height * scale / 2
        paint = _TEXT_PAINT.get(t.role)
        colour = text_ink(t, self.theme) if t.on else \
            getattr(self.theme, paint) if paint else "#000000"
        ctx.save()
        ctx.translate(x0, baseline)
        ctx.scale(scale, scale)
        # The outlines handed to cairo as one path (cairo_append_path): a point at a time
        # through cffi cost a text of sixty characters 1.8 ms.  Each x is the outline's plus
        # the advance, as it was, and cairo appends a path point by point as
        # cairo_move_to, cairo_line_to and cairo_curve_to take them: the same pixels.
        # fill() below checks the status.
        from cairocffi import cairo as cairo_c
        from cairocffi import ffi

        data = _text_path(t.weight, typography(printable(t.text)))
        if data:
            path = ffi.new("cairo_path_t *")
            path.status = 0
            buffer = ffi.from_buffer(data)
            path.data = ffi.cast("cairo_path_data_t *", buffer)
            path.num_data = len(data) // _PATH_DATA_BYTES
            cairo_c.cairo_append_path(ctx._pointer, path)
        ctx.set_source_rgb(*_rgb(colour))
        ctx.fill()
        ctx.restore()


def _bands(height_px: int, width_px: int) -> Iterator[tuple[int, int]]:
    rows = max(1, BAND_PIXELS // max(1, width_px))
    for top in range(0, height_px, rows):
        yield top, min(height_px, top + rows)


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + \
        struct.pack(">I", zlib.crc32(kind + data))


def figure_png(figure: Figure, *, theme: Theme, title: str | None = None,
               dpi: float = 150, width_px: int | None = None) -> bytes:
    """The figure as an opaque RGB PNG at ``dpi`` (or scaled to ``width_px`` across),
    recording the resolution it prints at.  Callers check the size limits first."""
    from PIL import Image

    from boardgen.render.cairolib import cairocffi

    cairo = cairocffi()
    painter = _Painter(figure, theme, title)
    if width_px is not None:
        dpi = width_px * MM_PER_INCH / painter.width
    width, height = pixel_size(painter.width, painter.height, dpi)
    px_per_mm = dpi / MM_PER_INCH
    compressor = zlib.compressobj(PNG_COMPRESSION)
    idat: list[bytes] = []
    for top, bottom in _bands(height, width):
        surface = cairo.ImageSurface(cairo.FORMAT_RGB24, width, bottom - top)
        ctx = cairo.Context(surface)
        ctx.translate(0, -top)
        ctx.scale(px_per_mm, px_per_mm)
        painter.draw(ctx, top / px_per_mm, bottom / px_per_mm)
        surface.flush()
        stride = surface.get_stride()
        pixels: Any = surface.get_data()
        rgb = Image.frombuffer("RGB", (width, bottom - top), pixels, "raw", "BGRX",
                               stride, 1).tobytes()
        row = 3 * width
        idat.append(compressor.compress(b"".join(
            b"\x00" + rgb[k:k + row] for k in range(0, len(rgb), row))))
        del surface, ctx, pixels, rgb
    idat.append(compressor.flush())
    per_metre = round(dpi / 0.0254)
    return b"".join((
        b"\x89PNG\r\n\x1a\n",
        _chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)),
        _chunk(b"pHYs", struct.pack(">IIB", per_metre, per_metre, 1)),
        _chunk(b"IDAT", b"".join(idat)),
        _chunk(b"IEND", b""),
    ))
