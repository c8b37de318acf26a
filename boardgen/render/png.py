"""Figure (or SVG text) -> PNG bytes at a given resolution, which the PNG records (its
pHYs chunk) so that it prints 1:1.  Our own figures are drawn with cairo directly
(boardgen.render.raster); other SVG text goes through CairoSVG."""

from __future__ import annotations

import struct
import zlib

from boardgen.errors import BoardgenError, option
from boardgen.limits import MAX_ELEMENTS as MAX_ELEMENTS
from boardgen.limits import MAX_PIXELS as MAX_PIXELS
from boardgen.limits import MAX_SIDE_PIXELS as MAX_SIDE_PIXELS
from boardgen.render.figure import Figure
from boardgen.render.scene import Theme
from boardgen.render.svg import SvgDocument, document_size

MM_PER_INCH = 25.4


def __getattr__(name: str) -> object:
    """``cairosvg``, imported on first use (a fifth of a second), as a module attribute."""
    if name == "cairosvg":
        from boardgen.render.cairolib import cairocffi

        cairocffi()  # before CairoSVG imports it, without its library search
        import cairosvg

        return cairosvg
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def check_png_size(width_mm: float, height_mm: float, dpi: float) -> None:
    """Refuse, before any drawing, a PNG over the pixel limits."""
    pixels = (width_mm / MM_PER_INCH * dpi) * (height_mm / MM_PER_INCH * dpi)
    if pixels > MAX_PIXELS:
        raise BoardgenError(
            f"a PNG of {width_mm:.0f} x {height_mm:.0f} mm at {dpi} dpi would have "
            f"{pixels / 1e6:.0f} million pixels (limit {MAX_PIXELS // 1_000_000} million): "
            f"lower {option('dpi')} or {option('cell_mm')}, or ask for .pdf or .svg"
        )
    width_px, height_px = (round(side / MM_PER_INCH * dpi) for side in (width_mm, height_mm))
    if max(width_px, height_px) > MAX_SIDE_PIXELS:
        raise BoardgenError(
            f"a PNG of {width_mm:.0f} x {height_mm:.0f} mm at {dpi} dpi would be "
            f"{width_px:,} x {height_px:,} pixels (limit {MAX_SIDE_PIXELS:,} pixels each way): "
            f"lower {option('dpi')} or {option('cell_mm')}, or ask for .pdf or .svg"
        )


def render_figure_png(figure: Figure, *, theme: Theme, title: str | None, dpi: int) -> bytes:
    """The figure as the SVG writer would show it, drawn with cairo directly."""
    from boardgen.render.raster import figure_png

    check_png_size(*document_size(figure, title), dpi)
    return figure_png(figure, theme=theme, title=title, dpi=dpi)


def render_png(svg: str, *, width_mm: float, height_mm: float, dpi: int = 150) -> bytes:
    """An SVG document as a PNG: drawn from its figure when it is one of ours, else
    through CairoSVG."""
    if isinstance(svg, SvgDocument):
        return render_figure_png(svg.figure, theme=svg.theme, title=svg.figure_title,
                                 dpi=dpi)
    check_png_size(width_mm, height_mm, dpi)
    elements = svg.count("<use ")
    if elements > MAX_ELEMENTS:
        raise BoardgenError(
            f"a PNG of this figure would draw {elements:,} cells and letters, more than the "
            f"{MAX_ELEMENTS:,} the PNG renderer accepts: ask for .pdf or .svg, or a smaller "
            "board"
        )
    from boardgen.render.cairolib import cairocffi

    cairocffi()  # before CairoSVG imports it, without its library search
    import cairosvg  # only here: importing it costs a fifth of a second

    png: bytes = cairosvg.svg2png(bytestring=svg.encode("utf-8"), dpi=dpi)
    return with_resolution(png, dpi)


def with_resolution(png: bytes, dpi: int) -> bytes:
    """The PNG with a pHYs chunk saying ``dpi`` (in pixels per metre), right after IHDR."""
    ihdr_end = 8 + 12 + struct.unpack(">I", png[8:12])[0]
    per_metre = round(dpi / 0.0254)
    data = struct.pack(">IIB", per_metre, per_metre, 1)
    chunk = struct.pack(">I", len(data)) + b"pHYs" + data + \
        struct.pack(">I", zlib.crc32(b"pHYs" + data))
    return png[:ihdr_end] + chunk + png[ihdr_end:]
