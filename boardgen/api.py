"""boardgen's Python API: the command line's work as functions with keyword-only options.

Everything here is re-exported from ``boardgen`` (lazily, so ``import boardgen`` stays
light); the README shows each function in use, and the test suite runs those examples.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from boardgen.errors import BoardgenError
from boardgen.games.o.engine import parse_glyph_table
from boardgen.games.registry import (
    PlayOptions,
    Position,
    game_named,
    games,
    load_diagram_file,
    new_position,
)
from boardgen.geometry import make_shape
from boardgen.picture import Diagram, PageInfo
from boardgen.publish.drawing import render_position
from boardgen.render.board import BoardOptions, check_cell_mm, render_board
from boardgen.render.diagram import draw_diagram
from boardgen.render.paper import parse_paper
from boardgen.render.scene import theme_named
from boardgen.text import check_line

MIN_DPI, MAX_DPI = 36, 1200  # as the command line's --dpi

__all__ = ["Diagram", "Position", "board", "diagram", "game_names", "load_diagram", "play",
           "draw"]


def _need(value: object, kinds: type | tuple[type, ...], what: str) -> None:
    """A clear BoardgenError, not a TypeError deep inside, for an argument of the wrong
    type (bool is refused where a number is meant)."""
    if not isinstance(value, kinds) or (isinstance(value, bool) and bool not in
                                        (kinds if isinstance(kinds, tuple) else (kinds,))):
        raise BoardgenError(f"{what}: expected {_kind_names(kinds)}, not {value!r}")


def _kind_names(kinds: type | tuple[type, ...]) -> str:
    names = [k.__name__ for k in (kinds if isinstance(kinds, tuple) else (kinds,))]
    return " or ".join("text" if n == "str" else "a number" if n in ("int", "float") else n
                       for n in dict.fromkeys(names))


def _picture_options(paper: str, theme: str, cell_mm: float | None, dpi: int) -> None:
    _need(paper, str, "paper")
    _need(theme, str, "theme")
    if cell_mm is not None:
        _need(cell_mm, (int, float), "cell_mm")
        check_cell_mm(float(cell_mm))
    _need(dpi, int, "dpi")
    if not MIN_DPI <= dpi <= MAX_DPI:
        raise BoardgenError(f"dpi {dpi}: between {MIN_DPI} and {MAX_DPI}")


def game_names() -> list[str]:
    """The games boardgen knows, by their command-line names."""
    return list(games())


def play(game: str, moves: str | Iterable[str] = "", *, side: int | None = None,
         shape: str = "hexhex", first: str | None = None, start: str | None = None,
         partisan: bool = False, glyphs: str | dict[str, str] | None = None) -> Position:
    """Replay ``moves`` (a string as on the command line, or a list of moves) through the
    game's engine and return the position.  An illegal move raises BoardgenError naming
    its number, the move and the reason.

    ``side``/``shape`` choose a hex board (Copolymer and O); ``first`` and ``start`` (a
    position drawn as text) are Copolymer's; ``partisan`` and ``glyphs`` (a glyph table, as
    the text of a glyph file or a dict) are O's.
    """
    _need(game, str, "game")
    description = game_named(game)
    _need(moves, (str, list, tuple), "moves")
    if not isinstance(moves, str):
        for move in moves:
            _need(move, str, "a move")
    if side is not None:
        _need(side, int, "side")
    _need(shape, str, "shape")
    _need(partisan, bool, "partisan")
    for name, value in (("first", first), ("start", start)):
        if value is not None:
            _need(value, str, name)
    if glyphs is not None:
        _need(glyphs, (str, dict), "glyphs")
    given = {"first": first is not None, "start": start is not None, "partisan": partisan,
             "glyphs": glyphs is not None}
    for option, used in given.items():
        if used and option not in description.play_options:
            raise BoardgenError(f"{option} does not apply to {description.name}")
    grid = None
    boards = description.hex_boards
    if boards is not None:
        if side is not None or shape != "hexhex":
            grid = make_shape(shape, side if side is not None else boards.default_side)
            description.check_board(grid)
    elif side is not None or shape != "hexhex":
        raise BoardgenError(f"{description.name} is played on a fixed board: no side or shape")
    table = parse_glyph_table(glyphs, "glyphs") if isinstance(glyphs, str) else glyphs
    position = new_position(game, PlayOptions(
        grid=grid, first=first, start=(start, "start") if start is not None else None,
        partisan=partisan, glyphs=table))
    position.play(description.split_moves(moves) if isinstance(moves, str) else list(moves))
    return position


def diagram(game: str, name: str, *, glyphs: dict[str, str] | None = None) -> Diagram:
    """One of a game's built-in diagrams (``boardgen diagram GAME --list`` names them)."""
    _need(game, str, "game")
    _need(name, str, "name")
    return game_named(game).diagram(name, glyphs=glyphs)


def load_diagram(path: str | Path, *, glyphs: dict[str, str] | None = None) -> Diagram:
    """A diagram file from anywhere on disk, replayed and checked by the engine; a problem
    raises BoardgenError as ``FILE:LINE: what is wrong``."""
    _need(path, (str, Path), "path")
    return load_diagram_file(Path(path), glyphs=glyphs)[1]


def draw(subject: Position | Diagram, fmt: str = "svg", *, paper: str = "a4",
           theme: str = "colour", cell_mm: float | None = None, dpi: int = 150,
           title: str | None = None) -> str | bytes:
    """A position or a diagram drawn to SVG (text), PDF or PNG (bytes), at exact scale."""
    if fmt not in ("svg", "pdf", "png"):
        raise BoardgenError(f"unknown format {fmt!r} (svg, pdf or png)")
    _need(subject, (Position, Diagram), "draw() draws")
    _picture_options(paper, theme, cell_mm, dpi)
    if title is not None:
        _need(title, str, "title")
        check_line(title, "title")
    paper_size, look = parse_paper(paper), theme_named(theme)
    if isinstance(subject, Position):
        data = render_position(subject, fmt, paper=paper_size, theme=look, cell_mm=cell_mm,
                               dpi=dpi, title=title)
    else:
        data = draw_diagram(subject, "", subject.title, fmt, paper=paper_size,
                            theme=look, cell_mm=cell_mm, dpi=dpi,
                            info=PageInfo(None, f"diagram: {subject.title}"))
    return data.decode("utf-8") if fmt == "svg" else data


def board(game: str, fmt: str = "pdf", *, side: int | None = None, shape: str = "hexhex",
          paper: str = "a4", cell_mm: float | None = None, theme: str = "colour",
          labels: str = "outside", dpi: int = 150) -> str | bytes:
    """An empty hex board (Copolymer or O) at exact scale, tiled across pages if needed."""
    _need(game, str, "game")
    description = game_named(game)
    boards = description.hex_boards
    if boards is None:
        raise BoardgenError(f"board() draws the hex games' boards; for {description.name} "
                            f"use the command line: boardgen board {game}")
    if side is not None:
        _need(side, int, "side")
    _need(shape, str, "shape")
    _need(labels, str, "labels")
    _picture_options(paper, theme, cell_mm, dpi)
    grid = make_shape(shape, side if side is not None else boards.default_side)
    description.check_board(grid)
    data = render_board(description.board_scene(grid, labels), fmt,
                        BoardOptions(parse_paper(paper), "auto", cell_mm, dpi),
                        theme=theme_named(theme), info=description.board_info(grid))
    return data.decode("utf-8") if fmt == "svg" else data
