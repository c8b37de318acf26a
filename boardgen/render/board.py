"""A printable board: choose the cell size for the paper, then write SVG, PDF or PNG."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from boardgen.errors import BoardgenError
from boardgen.geometry import HexGrid
from boardgen.render.figure import Figure, board_figure, cell_guidance
from boardgen.render.paper import Paper, fitting_scale
from boardgen.render.pdf import PageInfo, render_pdf
from boardgen.render.png import render_png
from boardgen.render.scene import Scene, Theme
from boardgen.render.svg import document_size, render_svg
from boardgen.rules import copolymer, o

FORMATS = ("pdf", "svg", "png")
# The default cell is as large as the paper allows, within these bounds.  Below 8 mm a cell
# is too small to colour in with a felt pen or to read a label in, so the board is tiled
# across pages instead; above 30 mm a small board just looks inflated.
MIN_DEFAULT_CELL_MM = 8.0
MAX_DEFAULT_CELL_MM = 30.0
# What --cell-mm accepts at all.
MIN_CELL_MM = 2.0
MAX_CELL_MM = 200.0


@dataclass(frozen=True)
class BoardOptions:
    paper: Paper
    orientation: str = "auto"
    cell_mm: float | None = None  # None: fit the paper
    dpi: int = 150


# Who made each hex game, and what every printed board of it must say (shared/spec: the
# glyph chart of O is our reconstruction).
_GAMES = {
    "copolymer": (copolymer.NAME, copolymer.CREDIT, None),
    "o": (o.NAME, o.CREDIT, "glyph chart: our reconstruction"),
}


def board_info(game: str, grid: HexGrid, title: str | None = None) -> PageInfo:
    """The page furniture of an empty board: title (the game's name unless given; '' for
    none), a subject naming the board, and the designer's credit."""
    name, credit, note = _GAMES[game]
    subject = f"{name} board, {grid.description}, {len(grid)} cells"
    if note:
        subject += f" · {note}"
    return PageInfo(name if title is None else (title or None), subject, credit)


def default_cell_width(scene: Scene, paper: Paper, orientation: str) -> float:
    """The largest cell (to 0.1 mm) with which the whole figure fits one page, clamped to
    [MIN_DEFAULT_CELL_MM, MAX_DEFAULT_CELL_MM]."""
    return _default_figure(scene, paper, orientation).cell_width


def _default_figure(scene: Scene, paper: Paper, orientation: str) -> Figure:
    probe = board_figure(scene, 10.0)
    scale, chosen = fitting_scale((probe.width, probe.height), paper, orientation)
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
            f"--cell-mm {cell_mm:g}: a cell must be between {MIN_CELL_MM:g} and "
            f"{MAX_CELL_MM:g} mm wide"
        )


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
    figure = build_figure(scene, options)
    if fmt == "pdf":
        return render_pdf(figure, theme=theme, paper=options.paper,
                          orientation=options.orientation, info=info)
    # The SVG and PNG say what their cells fit, as the PDF's page furniture does.
    guidance = f"each cell {figure.cell_width:.1f} mm flat to flat, " \
        f"{cell_guidance(figure.cell_width)}"
    description = f"{info.subject} · {guidance}" if info.subject else guidance
    svg = render_svg(figure, theme=theme, title=info.title, description=description)
    if fmt == "svg":
        return svg.encode("utf-8")
    width_mm, height_mm = document_size(figure, info.title)
    return render_png(svg, width_mm=width_mm, height_mm=height_mm, dpi=options.dpi)
