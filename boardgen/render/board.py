"""A printable board: choose the cell size for the paper, then write SVG, PDF or PNG."""

from __future__ import annotations

import math
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from boardgen.errors import BoardgenError, option
from boardgen.geometry import Hex, Layout
from boardgen.i18n import number as decimal
from boardgen.i18n import tr
from boardgen.limits import MAX_PAGES as MAX_PAGES  # a tiled board's, checked before drawing
from boardgen.picture import Scene
from boardgen.render.figure import Figure, board_figure, board_size, cell_guidance
from boardgen.render.paper import PageInfo, Paper, fitting_scale, tile
from boardgen.render.scene import Theme

if TYPE_CHECKING:
    from boardgen.render.cutter import CutterOptions
    from boardgen.render.shop import Shop

FORMATS = ("pdf", "svg", "png")
# The default cell is as large as the paper allows, within these bounds.  Below 8 mm a cell
# is too small to colour in with a felt pen or to read a label in, so the board is tiled
# across pages instead; above 30 mm a small board just looks inflated.
MIN_DEFAULT_CELL_MM = 8.0
MAX_DEFAULT_CELL_MM = 30.0
# What --cell-mm accepts at all.
MIN_CELL_MM = 2.0
MAX_CELL_MM = 200.0


def __getattr__(name: str) -> object:
    """The PDF writer, imported on first use and kept as a module attribute (as tests
    replace it): an SVG or PNG board does not pay for reportlab."""
    if name == "render_pdf":
        from boardgen.render.pdf import render_pdf

        globals()["render_pdf"] = render_pdf
        return render_pdf
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


@dataclass(frozen=True)
class BoardOptions:
    paper: Paper
    orientation: str = "auto"
    cell_mm: float | None = None  # None: fit the paper
    dpi: int = 150


def default_cell_width(scene: Scene, paper: Paper, orientation: str) -> float:
    """The largest cell (to 0.1 mm) with which the whole figure fits one page, clamped to
    [MIN_DEFAULT_CELL_MM, MAX_DEFAULT_CELL_MM]."""
    return _default_figure(scene, paper, orientation).cell_width


def _default_figure(scene: Scene, paper: Paper, orientation: str) -> Figure:
    scale, chosen = fitting_scale(board_size(scene, 10.0), paper, orientation)
    return largest_fitting_figure(
        scene, scale, lambda f: fitting_scale((f.width, f.height), paper, chosen)[0],
        smallest=MIN_DEFAULT_CELL_MM, largest=MAX_DEFAULT_CELL_MM)


def largest_fitting_figure(scene: Scene, guess: float, growth: Callable[[Figure], float], *,
                           smallest: float, largest: float) -> Figure:
    """The figure with the largest cell width, to 0.1 mm and within [smallest, largest],
    that fits: ``growth(figure)`` is how much it could still grow (>= 1 fits), and
    ``guess`` that factor for a 10 mm cell.  Returns the figure it checked, so that the
    caller does not build it again."""
    width = min(largest, math.floor(10.0 * guess * 10.0) / 10.0)
    # Labels have minimum sizes, so the figure is not exactly linear in the cell size: check
    # the guess and step down until it really fits.
    while width > smallest:
        figure = board_figure(scene, width)
        if growth(figure) >= 1.0:
            return figure
        width = round(width - 0.1, 1)
    return board_figure(scene, smallest)


def check_cell_mm(cell_mm: float) -> None:
    if not MIN_CELL_MM <= cell_mm <= MAX_CELL_MM:
        raise BoardgenError(
            f"{option('cell_mm')} {cell_mm:g}: a cell must be between {MIN_CELL_MM:g} and "
            f"{MAX_CELL_MM:g} mm wide"
        )


def check_page_count(size: tuple[float, float], paper: Paper, orientation: str,
                     cell_mm: float, *, at_least: bool = False) -> None:
    """Refuse a board that would be tiled across more than MAX_PAGES pages (``at_least``:
    ``size`` is a lower bound of the board's)."""
    pages = tile(size, paper, orientation).pages
    if pages > MAX_PAGES:
        raise BoardgenError(
            f"the board ({'at least ' if at_least else ''}{size[0]:.0f} x {size[1]:.0f} mm "
            f"at {cell_mm:g} mm a cell) would need {'at least ' if at_least else ''}"
            f"{pages:,} pages of {paper.name} paper, more than the limit of {MAX_PAGES}: "
            f"use a smaller {option('cell_mm')} or larger {option('paper')}"
        )


def check_cells_page_count(cells: Iterable[Hex], options: BoardOptions) -> None:
    """The page limit checked from the cells alone (or a shape's corner cells), before the
    costly part, building the grid and thousands of cell shapes: without labels a board is
    smaller, so this refuses nothing that fits."""
    cell_mm = options.cell_mm or MIN_DEFAULT_CELL_MM
    x0, y0, x1, y1 = Layout.from_cell_width(cell_mm).bounds(cells)
    check_page_count((x1 - x0, y1 - y0), options.paper, options.orientation, cell_mm,
                     at_least=True)


def build_figure(scene: Scene, options: BoardOptions) -> Figure:
    if options.cell_mm is None:
        return _default_figure(scene, options.paper, options.orientation)
    check_cell_mm(options.cell_mm)
    return board_figure(scene, options.cell_mm)


def render_board(scene: Scene, fmt: str, options: BoardOptions, *, theme: Theme,
                 info: PageInfo) -> bytes:
    """The board as file contents in ``fmt`` (pdf, svg or png)."""
    if fmt not in FORMATS:
        raise BoardgenError(f"unknown format {fmt!r} (choose from {', '.join(FORMATS)})")
    if fmt == "pdf":
        check_cells_page_count(scene.grid.cells, options)
    figure = build_figure(scene, options)
    # Each writer is imported when it is used: a command pays only for its own format.
    if fmt == "pdf":
        render_pdf: Callable[..., bytes] = sys.modules[__name__].render_pdf  # __getattr__

        check_page_count((figure.width, figure.height), options.paper, options.orientation,
                         figure.cell_width)
        return render_pdf(figure, theme=theme, paper=options.paper,
                          orientation=options.orientation, info=info)
    if fmt == "png":
        from boardgen.render.png import render_figure_png

        return render_figure_png(figure, theme=theme, title=info.title, dpi=options.dpi)
    # The SVG says what its cells fit, as the PDF's page furniture does.
    from boardgen.render.svg import render_svg

    guidance = tr("each cell {width} mm flat to flat").format(
        width=decimal(figure.cell_width)) + f", {cell_guidance(figure.cell_width)}"
    description = f"{info.subject} · {guidance}" if info.subject else guidance
    return render_svg(figure, theme=theme, title=info.title,
                      description=description).encode("utf-8")


def render_board_fitted(scene: Scene, fmt: str, options: BoardOptions, *, theme: Theme,
                        info: PageInfo) -> bytes:
    """The board on a page cropped to it (boardgen.render.fit): the cells as large as
    without ``fit`` (the paper still sets the default), never tiled."""
    from boardgen.render.fit import render_fitted_board

    if fmt not in FORMATS:
        raise BoardgenError(f"unknown format {fmt!r} (choose from {', '.join(FORMATS)})")
    return render_fitted_board(build_figure(scene, options), fmt, theme=theme,
                               dpi=options.dpi, info=info)


def shop_figure(scene: Scene, options: BoardOptions) -> tuple[Figure, tuple[float, float]]:
    """The board for a print shop, and the trim it is laid out on (the paper, turned as
    ``options.orientation`` says or as the board fits best): one page, never tiled."""
    from boardgen.render.shop import check_fits

    figure = build_figure(scene, options)
    tiling = tile((figure.width, figure.height), options.paper, options.orientation)
    trim = tiling.page
    check_fits(figure, trim, options.paper.name)
    return figure, trim


def render_board_for_shop(scene: Scene, options: BoardOptions, *, shop: Shop, theme: Theme,
                          info: PageInfo) -> bytes:
    """The board as a print shop's PDF (bleed, crop marks, PDF/X)."""
    from boardgen.render.shop import render_shop_pdf

    figure, trim = shop_figure(scene, options)
    return render_shop_pdf([figure], theme=theme, trim=trim, shop=shop, info=info)


def render_board_for_cutter(scene: Scene, options: BoardOptions, *,
                            cutter: CutterOptions, info: PageInfo, stones: bool) -> bytes:
    """The board as a cutter's SVG: outline cut, cells scored, labels engraved, and (for a
    game played with stones) a sheet of stones, one for every cell, to cut."""
    from boardgen.render.cutter import padded, render_cutter_svg

    figure = padded(build_figure(scene, options))
    return render_cutter_svg(figure, options=cutter, title=info.title or "",
                             stones=len(figure.cells) if stones else 0).encode("utf-8")
