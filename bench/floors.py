"""The floors the board writers are measured against, each run as a whole process.

    python bench/floors.py svg SIDE OUT
    python bench/floors.py png SIDE CELL_MM DPI WIDTH_PX HEIGHT_PX OUT

``svg``: a hex-hex board of SIDE cells a side written as one f-string per cell, the same
per-cell markup as boardgen's (``<use class="cell empty" data-cell="NAME"
xlink:href="#hex" x= y=>``), nothing else: no title, labels, style sheet or layers.
``png``: cairo drawing the same board's hexagons (one filled and stroked path per cell,
boardgen's default colours and line width) into an image of WIDTH_PX x HEIGHT_PX pixels at
DPI, written by cairo's own PNG writer: no labels, no title.

Both import from boardgen only its geometry (the grid, its layout and cell names), the
least any writer of these boards needs; bench/bench_speed.py times them against the
``boardgen board`` commands that make the same board, in fresh interpreters, interleaved.
"""

from __future__ import annotations

import sys

from boardgen.geometry import Layout, Notation, hexhex


def svg(side: int, out: str) -> None:
    grid = hexhex(side)
    layout = Layout.from_cell_width(8.0)
    names = Notation(grid)
    points = " ".join(f"{x:.3f},{y:.3f}" for x, y in layout.corner_offsets())
    parts = [('<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/'
              f'xlink"><defs><polygon id="hex" points="{points}"/></defs>')]
    for h in grid.cells:
        x, y = layout.centre(h)
        parts.append(f'<use class="cell empty" data-cell="{names.name(h)}" xlink:href="#hex" '
                     f'x="{x:.3f}" y="{y:.3f}"/>')
    parts.append("</svg>")
    with open(out, "wb") as file:
        file.write("".join(parts).encode())


def png(side: int, cell_mm: float, dpi: float, width: int, height: int, out: str) -> None:
    import cairocffi as cairo

    grid = hexhex(side)
    layout = Layout.from_cell_width(cell_mm)
    x0, y0, x1, y1 = layout.bounds(grid.cells)
    offsets = layout.corner_offsets()
    scale = dpi / 25.4
    surface = cairo.ImageSurface(cairo.FORMAT_RGB24, width, height)
    c = cairo.Context(surface)
    c.scale(scale, scale)
    c.set_source_rgb(1, 1, 1)
    c.paint()
    # The board centred in the picture, as boardgen's sits between its labels.
    c.translate((width / scale - (x1 - x0)) / 2 - x0, (height / scale - (y1 - y0)) / 2 - y0)
    c.set_line_width(0.25)
    c.set_line_join(cairo.LINE_JOIN_ROUND)
    for h in grid.cells:
        x, y = layout.centre(h)
        c.move_to(x + offsets[0][0], y + offsets[0][1])
        for dx, dy in offsets[1:]:
            c.line_to(x + dx, y + dy)
        c.close_path()
        c.set_source_rgb(0xfb / 255, 0xf8 / 255, 0xf1 / 255)
        c.fill_preserve()
        c.set_source_rgb(0x4a / 255, 0x4a / 255, 0x4a / 255)
        c.stroke()
    surface.write_to_png(out)


def main(argv: list[str]) -> None:
    kind, *args = argv
    if kind == "svg":
        svg(int(args[0]), args[1])
    elif kind == "png":
        png(int(args[0]), float(args[1]), float(args[2]), int(args[3]), int(args[4]), args[5])
    else:
        raise SystemExit(f"unknown floor {kind!r} (svg or png)")


if __name__ == "__main__":
    main(sys.argv[1:])
