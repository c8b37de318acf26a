"""Rendering cost per cell, against the floors of the same machine in the same run.

    python bench/bench_render.py [--repeat N]

For hexhex sides 10, 30 and 100 it times, from the grid to finished bytes:
  * boardgen's SVG (figure + svgwrite document) against a raw f-string SVG writer,
  * boardgen's PDF (figure + reportlab form) against a raw reportlab path writer,
the cost of a tiled PDF (A4 pages) against the same board on one large page, and a PNG
(figure drawn with cairo, written in bands) against drawing the cells with cairo directly.
Medians of N runs; the ratios are what to compare across machines, not the seconds.
Targets: SVG <= 2x its floor, PDF <= 1.5x its floor, tiled <= 1.5x one page at any page
count (up to several hundred pages), side 100 to PDF in under 1 s, PNG <= 1.5x its floor.
"""

from __future__ import annotations

import argparse
import io
import statistics
import time
from collections.abc import Callable

from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from boardgen.geometry import Layout, Notation, hexhex
from boardgen.geometry.hexgrid import HexGrid
from boardgen.render.board import BoardOptions, render_board
from boardgen.render.figure import board_figure
from boardgen.render.paper import Paper, parse_paper
from boardgen.render.pdf import PageInfo, render_pdf
from boardgen.render.scene import THEMES, Scene
from boardgen.render.svg import render_svg

CELL_MM = 8.0
THEME = THEMES["colour"]


def raw_svg(grid: HexGrid) -> bytes:
    """The floor: the same cell markup from one f-string per cell, nothing else."""
    layout = Layout.from_cell_width(CELL_MM)
    names = Notation(grid)
    points = " ".join(f"{x:.3f},{y:.3f}" for x, y in layout.corner_offsets())
    out = [('<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/'
            f'xlink"><defs><polygon id="hex" points="{points}"/></defs>')]
    for h in grid.cells:
        x, y = layout.centre(h)
        out.append(f'<use class="cell empty" data-cell="{names.name(h)}" xlink:href="#hex" '
                   f'x="{x:.3f}" y="{y:.3f}"/>')
    out.append("</svg>")
    return "".join(out).encode()


def raw_pdf(grid: HexGrid) -> bytes:
    """The floor: reportlab's own path API, one filled and stroked path per cell."""
    layout = Layout.from_cell_width(CELL_MM)
    offsets = layout.corner_offsets()
    buffer = io.BytesIO()
    c = Canvas(buffer, pagesize=(2000 * mm, 2000 * mm), invariant=1, pageCompression=1)
    c.setFillColorRGB(0.98, 0.97, 0.94)
    for h in grid.cells:
        x, y = layout.centre(h)
        path = c.beginPath()
        path.moveTo((x + offsets[0][0]) * mm, (y + offsets[0][1]) * mm)
        for dx, dy in offsets[1:]:
            path.lineTo((x + dx) * mm, (y + dy) * mm)
        path.close()
        c.drawPath(path, stroke=1, fill=1)
    c.showPage()
    c.save()
    return buffer.getvalue()


def raw_png(grid: HexGrid, dpi: int) -> bytes:
    """The floor: cairo's own path API, one filled and stroked path per cell, then cairo's
    PNG writer."""
    import cairocffi as cairo

    figure = board_figure(Scene(grid), CELL_MM)
    layout = Layout.from_cell_width(CELL_MM)
    offsets = layout.corner_offsets()
    scale = dpi / 25.4
    surface = cairo.ImageSurface(cairo.FORMAT_RGB24, round(figure.width * scale),
                                 round(figure.height * scale))
    c = cairo.Context(surface)
    c.scale(scale, scale)
    c.set_source_rgb(1, 1, 1)
    c.paint()
    c.set_line_width(0.25)
    for cell in figure.cells:
        x, y = cell.x, cell.y
        c.move_to(x + offsets[0][0], y + offsets[0][1])
        for dx, dy in offsets[1:]:
            c.line_to(x + dx, y + dy)
        c.close_path()
        c.set_source_rgb(0.98, 0.97, 0.94)
        c.fill_preserve()
        c.set_source_rgb(0.29, 0.29, 0.29)
        c.stroke()
    buffer = io.BytesIO()
    surface.write_to_png(buffer)
    return buffer.getvalue()


def ours_png(grid: HexGrid, dpi: int) -> bytes:
    return render_board(Scene(grid), "png", BoardOptions(parse_paper("a4"), cell_mm=CELL_MM,
                                                         dpi=dpi),
                        theme=THEME, info=PageInfo(None))


def ours_svg(grid: HexGrid) -> bytes:
    return render_svg(board_figure(Scene(grid), CELL_MM), theme=THEME).encode()


def ours_pdf(grid: HexGrid, paper: str | Paper = "2000x2000mm", cell_mm: float = CELL_MM) -> bytes:
    figure = board_figure(Scene(grid), cell_mm)
    sheet = parse_paper(paper) if isinstance(paper, str) else paper
    return render_pdf(figure, theme=THEME, paper=sheet, info=PageInfo("bench"))


def median_seconds(fn: Callable[[], object], repeat: int) -> float:
    fn()  # warm caches (fonts, glyphs) so that the first run does not count them
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    print(f"cell {CELL_MM} mm, median of {args.repeat} runs; us/cell and ratio to the floor")
    print(f"{'side':>5} {'cells':>7} | {'svg':>7} {'floor':>7} {'ratio':>5} | "
          f"{'pdf':>7} {'floor':>7} {'ratio':>5} | {'pdf s':>6}")
    for side in (10, 30, 100):
        grid = hexhex(side)
        n = len(grid)
        svg = median_seconds(lambda grid=grid: ours_svg(grid), args.repeat)
        svg_floor = median_seconds(lambda grid=grid: raw_svg(grid), args.repeat)
        pdf = median_seconds(lambda grid=grid: ours_pdf(grid), args.repeat)
        pdf_floor = median_seconds(lambda grid=grid: raw_pdf(grid), args.repeat)
        print(f"{side:>5} {n:>7} | {svg / n * 1e6:7.2f} {svg_floor / n * 1e6:7.2f} "
              f"{svg / svg_floor:5.2f} | {pdf / n * 1e6:7.2f} {pdf_floor / n * 1e6:7.2f} "
              f"{pdf / pdf_floor:5.2f} | {pdf:6.3f}")
    # Tiling: the same board on one large page and tiled across A4 pages, from a few pages
    # to several hundred (the page map and marks must cost the same on every page).
    from boardgen.render.paper import tile
    # 24 mm: close to the 500 pages a tiled board may have (MAX_PAGES).
    for side, cell in ((30, CELL_MM), (100, CELL_MM), (100, 15.0), (100, 24.0)):
        grid = hexhex(side)
        figure = board_figure(Scene(grid), cell)
        # One page just large enough (past --paper's 2 m limit, so built directly).
        big = Paper("one page", figure.width + 60, figure.height + 80)
        one = median_seconds(lambda grid=grid, big=big, cell=cell: ours_pdf(grid, big, cell),
                             args.repeat)
        tiled = median_seconds(lambda grid=grid, cell=cell: ours_pdf(grid, "a4", cell),
                               args.repeat)
        pages = tile((figure.width, figure.height), parse_paper("a4"), "auto").pages
        print(f"tiled side {side} at {cell:g} mm: {pages} A4 pages {tiled:.3f} s vs one page "
              f"{one:.3f} s, ratio {tiled / one:.2f}")
    # PNG: the figure drawn with cairo, against drawing its cells with cairo directly.
    for side, dpi in ((10, 150), (30, 150), (100, 36), (100, 150)):
        grid = hexhex(side)
        png = median_seconds(lambda grid=grid, dpi=dpi: ours_png(grid, dpi), args.repeat)
        floor = median_seconds(lambda grid=grid, dpi=dpi: raw_png(grid, dpi), args.repeat)
        print(f"PNG side {side} at {dpi} dpi: {png:.3f} s vs cairo directly {floor:.3f} s, "
              f"ratio {png / floor:.2f}")
    grid = hexhex(10)
    end_to_end = median_seconds(
        lambda: render_board(Scene(grid), "pdf", BoardOptions(parse_paper("a4")),
                             theme=THEME, info=PageInfo("bench")), args.repeat)
    print(f"side 10 A4 PDF with default cell size, end to end: {end_to_end * 1000:.1f} ms")


if __name__ == "__main__":
    main()
