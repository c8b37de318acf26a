"""Requests: the options of a board, a replay or a picture, validated once.

The command line and the Python API both turn what they were given into these frozen
requests, so a rule about options (which size options conflict, which games take which
options, what a cell may measure) is written here only.  An error names the option by
:func:`boardgen.errors.option`: the API shows ``cell_mm``, the command line ``--cell-mm``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Literal, get_args

from boardgen.errors import BoardgenError, option
from boardgen.games.registry import (
    Game,
    GameOptions,
    PlayOptions,
    Position,
    check_options,
    game_named,
    games,
)
from boardgen.games.script import DesignerMarks
from boardgen.geometry import SHAPES, HexGrid, grid_from_mask, make_shape, shape_cell_count
from boardgen.geometry.hexgrid import MAX_CELLS, Hex, shape_corners
from boardgen.render.board import (
    FORMATS,
    MAX_CELL_MM,
    MIN_CELL_MM,
    BoardOptions,
    check_cells_page_count,
)
from boardgen.render.paper import ORIENTATIONS, Paper, parse_paper
from boardgen.render.scene import LABEL_MODES, THEMES, Theme, theme_named
from boardgen.text import check_line, read_input_text
from boardgen.text import quoted_value as quoted

# The closed vocabularies, as types (tests/test_requests.py checks that each lists exactly
# what the renderer accepts).
Format = Literal["pdf", "svg", "png"]
LabelMode = Literal["outside", "inside", "none"]
ThemeName = Literal["colour", "colourblind", "ink"]
Orientation = Literal["auto", "portrait", "landscape"]
ShapeName = Literal["hexhex", "rhombus", "triangle"]

MIN_DPI, MAX_DPI = 36, 1200


def need(value: object, kinds: type | tuple[type, ...], field: str) -> None:
    """Refuse an argument of the wrong type with a BoardgenError naming the option (bool
    is refused where a number is meant)."""
    allowed = kinds if isinstance(kinds, tuple) else (kinds,)
    if not isinstance(value, allowed) or (isinstance(value, bool) and bool not in allowed):
        names = [k.__name__ for k in allowed]
        wanted = " or ".join(dict.fromkeys(
            "text" if n == "str" else "a number" if n in ("int", "float") else n
            for n in names))
        raise BoardgenError(f"{option(field)}: expected {wanted}, not {quoted(value)}",
                            field=field)


def one_of(value: object, choices: tuple[str, ...], field: str, what: str) -> str:
    """``value`` if it is one of ``choices``."""
    if not isinstance(value, str) or value not in choices:
        raise BoardgenError(f"{option(field)}: unknown {what} {quoted(value)} (choose from "
                            f"{', '.join(choices)})", field=field)
    return value


# --- pictures --------------------------------------------------------------------------------

def checked_cell_mm(cell_mm: object) -> float | None:
    """The cell width asked for, in mm, or None for the default."""
    if cell_mm is None:
        return None
    need(cell_mm, (int, float), "cell_mm")
    assert isinstance(cell_mm, int | float)
    try:
        width = float(cell_mm)
    except OverflowError:
        width = math.inf
    if not MIN_CELL_MM <= width <= MAX_CELL_MM:
        shown = f"{width:g}" if math.isfinite(width) or math.isnan(width) else quoted(cell_mm)
        raise BoardgenError(f"{option('cell_mm')} {shown}: a cell must be between "
                            f"{MIN_CELL_MM:g} and {MAX_CELL_MM:g} mm wide")
    return width


def checked_dpi(dpi: object) -> int:
    need(dpi, int, "dpi")
    assert isinstance(dpi, int)
    if not MIN_DPI <= dpi <= MAX_DPI:
        raise BoardgenError(f"{option('dpi')} {quoted(dpi)}: between {MIN_DPI} and {MAX_DPI}")
    return dpi


def checked_title(title: object) -> str | None:
    """A title as given (None: the default; '' for none), refused if it could not print:
    undecodable, control characters, too long."""
    if title is None:
        return None
    need(title, str, "title")
    assert isinstance(title, str)
    return check_line(title, option("title"))


def checked_paper(paper: object) -> Paper:
    need(paper, str, "paper")
    assert isinstance(paper, str)
    return parse_paper(paper)


def checked_theme(theme: object) -> Theme:
    need(theme, str, "theme")
    assert isinstance(theme, str)
    return theme_named(theme)


@dataclass(frozen=True)
class DrawOptions:
    """How a picture is drawn: the paper, the theme, the cell width (None: the default),
    the resolution of PNG output, and the title (None: the default; '' for none)."""

    paper: Paper
    theme: Theme
    cell_mm: float | None = None
    dpi: int = 150
    title: str | None = None


def draw_options(*, paper: object = "a4", theme: object = "colour", cell_mm: object = None,
                 dpi: object = 150, title: object = None) -> DrawOptions:
    """DrawOptions from what was given, each checked (in this order)."""
    checked = checked_title(title)
    return DrawOptions(checked_paper(paper), checked_theme(theme), checked_cell_mm(cell_mm),
                       checked_dpi(dpi), checked)


def checked_format(fmt: object, formats: tuple[str, ...] = FORMATS) -> str:
    return one_of(fmt, formats, "fmt", "format")


# --- the board -------------------------------------------------------------------------------

Mask = str | Path  # a shape drawn as text (str), or the file it is drawn in (Path)


@dataclass(frozen=True)
class BoardSize:
    """The size and shape options of a hex board, as given: at most one of ``side``,
    ``preset``, ``diameter`` and ``mask``."""

    side: int | None = None
    preset: str | None = None
    diameter: int | None = None
    shape: str | None = None  # None: the game's own shape
    mask: Mask | None = None

    @property
    def given(self) -> list[str]:
        """The options given, by name."""
        return [name for name, used in (
            ("side", self.side is not None), ("preset", self.preset is not None),
            ("diameter", self.diameter is not None), ("shape", self.shape is not None),
            ("mask", self.mask is not None)) if used]


def board_size(*, side: object = None, preset: object = None, diameter: object = None,
               shape: object = None, mask: object = None) -> BoardSize:
    """A BoardSize from what was given, each option's type checked."""
    for field, value in (("side", side), ("diameter", diameter)):
        if value is not None:
            need(value, int, field)
    if preset is not None:
        need(preset, str, "preset")
    if shape is not None:
        one_of(shape, SHAPES, "shape", "shape")
    if mask is not None:
        need(mask, (str, Path), "mask")
    return BoardSize(side, preset, diameter, shape, mask)  # type: ignore[arg-type]


def _mask_grid(mask: Mask) -> HexGrid:
    if isinstance(mask, Path):
        return grid_from_mask(read_input_text(mask, option("mask")), str(mask))
    try:
        return grid_from_mask(mask, "mask")
    except BoardgenError as exc:
        raise BoardgenError(exc.template, field="mask") from None


def resolve_grid(game: Game, size: BoardSize,
                 precheck: Callable[[list[Hex]], None] | None = None) -> HexGrid:
    """The board the options describe; refuses conflicting or impossible sizes before any
    cell is allocated, and so does ``precheck``, given the corner cells of a shape."""
    side, preset, diameter, shape, mask = (size.side, size.preset, size.diameter, size.shape,
                                           size.mask)
    given = [option(name) for name in size.given if name != "shape"]
    if len(given) > 1:
        raise BoardgenError(f"{' and '.join(given)} both give the board size: use one")
    boards = game.hex_boards
    if mask is not None:
        if shape is not None:
            raise BoardgenError(f"{option('shape')} {shape} and {option('mask')} both give the "
                                "board's shape: use one")
        grid = _mask_grid(mask)
    else:
        own_shape = boards.default_shape if boards else "hexhex"
        size_flag = f"{option('side')} {quoted(side)}"
        if diameter is not None and shape not in (None, "hexhex"):
            raise BoardgenError(f"{option('diameter')} describes a hexhex board, not a {shape}")
        if preset and shape not in (None, own_shape):
            raise BoardgenError(f"{option('preset')} describes a {own_shape} board, not a "
                                f"{shape}")
        shape = "hexhex" if diameter is not None else shape or own_shape
        if preset:
            presets = boards.presets if boards else {}
            if preset not in presets:
                if presets:
                    raise BoardgenError(f"{option('preset')} {quoted(preset)}: unknown "
                                        f"(choose from {', '.join(sorted(presets))})")
                takers = [g.name for g in games().values()
                          if (b := g.hex_boards) is not None and preset in b.presets]
                raise BoardgenError(f"{option('preset')} names "
                                    f"{' and '.join(takers) or 'no game'}'s boards, not "
                                    f"{game.name}'s; use {option('side')}")
            side = presets[preset]
            size_flag = f"{option('preset')} {preset}"
        elif diameter is not None:
            if diameter < 3 or diameter % 2 == 0:
                raise BoardgenError(
                    f"{option('diameter')} {quoted(diameter)}: a hexhex board is an odd "
                    "number of cells across (side n is 2n-1 across), at least 3")
            side = (diameter + 1) // 2
            size_flag = f"{option('diameter')} {quoted(diameter)} (side {quoted(side)})"
        elif side is None:
            side = boards.default_side if boards else 0
            size_flag = f"side {side}"
        # Checked here too so that the count is refused before anything is built.
        cells = shape_cell_count(shape, side) if side >= 2 else 0
        if cells > MAX_CELLS:
            shown = f"{cells:,}" if cells < 10 ** 60 else "more than 10^60"
            raise BoardgenError(f"{size_flag}: a {shape} board of that side has {shown} cells, "
                                f"more than the limit of {MAX_CELLS:,}")
        if precheck is not None and side >= 2:
            precheck(shape_corners(shape, side))
        try:
            grid = make_shape(shape, side)
        except BoardgenError as exc:
            raise BoardgenError(exc.template, field="side") from None
    try:
        game.check_board(grid)
    except BoardgenError as exc:
        raise BoardgenError(exc.template, field=size.given[0] if size.given else None) \
            from None
    return grid


def refuse_hex_options(game: Game, size: BoardSize) -> None:
    """A game on a fixed board (Polygone) takes no size or shape."""
    for name in size.given:
        raise BoardgenError(f"{option(name)} does not apply to {game.name}: its board is fixed")


@dataclass(frozen=True)
class BoardRequest:
    """An empty board to print: the game, its grid (None: the game's fixed board),
    labels, orientation and the drawing options."""

    game: Game
    grid: HexGrid | None
    draw: DrawOptions
    orientation: str = "auto"
    labels: str = "outside"

    def render(self, fmt: str) -> bytes:
        """The board as file contents (SVG as UTF-8 bytes)."""
        draw = self.draw
        fixed = self.game.fixed_board
        if self.grid is None and fixed is not None:
            from boardgen.render.lattice import render_fixed_board

            return render_fixed_board(fixed, fmt, paper=draw.paper, theme=draw.theme,
                                      spacing=draw.cell_mm, dpi=draw.dpi,
                                      info=self.game.board_info(None, draw.title))
        assert self.grid is not None
        from boardgen.render.board import render_board

        options = BoardOptions(draw.paper, self.orientation, draw.cell_mm, draw.dpi)
        return render_board(self.game.board_scene(self.grid, self.labels), fmt, options,
                            theme=draw.theme, info=self.game.board_info(self.grid, draw.title))


def board_request(game: Game, size: BoardSize, *, paper: object = "a4", theme: object,
                  cell_mm: object, dpi: object, title: object, orientation: object = "auto",
                  labels: object = "outside", pages_checked: bool = False) -> BoardRequest:
    """An empty board of ``game``; ``pages_checked``: refuse, before the grid is built, a
    board that would tile across more pages than the limit (PDF)."""
    checked = checked_title(title)
    if game.hex_boards is None:
        refuse_hex_options(game, size)
        draw = DrawOptions(checked_paper(paper), checked_theme(theme),
                           checked_cell_mm(cell_mm), checked_dpi(dpi), checked)
        return BoardRequest(game, None, draw)
    paper_size = checked_paper(paper)
    width = checked_cell_mm(cell_mm)
    turned = one_of(orientation, ORIENTATIONS, "orientation", "orientation")
    draw = DrawOptions(paper_size, checked_theme(theme), width, checked_dpi(dpi), checked)
    options = BoardOptions(paper_size, turned, width, draw.dpi)
    grid = resolve_grid(game, size, (lambda corners: check_cells_page_count(corners, options))
                        if pages_checked else None)
    return BoardRequest(game, grid, draw, turned,
                        one_of(labels, LABEL_MODES, "labels", "label mode"))


# --- a replay ----------------------------------------------------------------------------

def _present(given: Mapping[str, object]) -> dict[str, object]:
    """The options given: None, and a flag left off, are not."""
    return {name: value for name, value in given.items()
            if value is not None and value is not False}


def game_options(game: Game, given: Mapping[str, object], command: str,
                 sources: Mapping[str, str] | None = None) -> GameOptions:
    """The game's own options (:class:`boardgen.games.protocol.GameOption`) as given to
    ``command`` (None, and a flag left off, are not given), each refused if the game does
    not take it there, else checked and read; ``sources`` names the file a value was read
    from (the command line's file options)."""
    present = _present(given)
    check_options(game, present, command)
    read: dict[str, object] = {}
    for name, value in present.items():
        declared = game.option_named(name)
        assert declared is not None
        read[name] = declared.value(value, (sources or {}).get(name))
    return read


@dataclass(frozen=True)
class PlayRequest:
    """A replay's start: the game and how it begins."""

    game: Game
    options: PlayOptions

    def new_position(self) -> Position:
        return self.game.new_position(self.options)


def play_request(game: Game, size: BoardSize, options: Mapping[str, object] | None = None,
                 sources: Mapping[str, str] | None = None) -> PlayRequest:
    """How a replay of ``game`` starts: its board, and its own options of ``play``
    (:func:`game_options`)."""
    check_options(game, _present(options or {}), "play")  # before the board: its name
    grid = None
    if game.hex_boards is not None:
        grid = resolve_grid(game, size)
    else:
        refuse_hex_options(game, size)
    given = game_options(game, options or {}, "play", sources)
    return PlayRequest(game, PlayOptions(grid=grid, given=given))


def game_of(game: object) -> Game:
    """The game a name names."""
    need(game, str, "game")
    assert isinstance(game, str)
    return game_named(game)


def vocabulary_matches() -> dict[str, tuple[tuple[str, ...], tuple[str, ...]]]:
    """Each Literal beside the renderer's own list (the test compares them)."""
    return {"Format": (get_args(Format), FORMATS),
            "LabelMode": (get_args(LabelMode), LABEL_MODES),
            "ThemeName": (get_args(ThemeName), tuple(THEMES)),
            "Orientation": (get_args(Orientation), ORIENTATIONS),
            "ShapeName": (get_args(ShapeName), SHAPES)}


# --- a designer's annotations, given to draw() ---------------------------------------------

Arrows = Iterable[tuple[str, str]]
Marks = Mapping[str, str]
Highlights = Mapping[str, Iterable[str] | str]
# The argument each annotation directive comes from (errors name it).
ANNOTATION_FIELDS = {"arrow": "arrows", "mark": "marks", "highlight": "highlights"}


def _word(value: object, field: str, what: str) -> str:
    """One name, as a directive's word: text with no spaces."""
    need(value, str, field)
    assert isinstance(value, str)
    if not value or any(ch.isspace() for ch in value):
        raise BoardgenError(f"{option(field)}: {what} {quoted(value)} must be one word, "
                            "with no spaces", field=field)
    return value


def designer_marks(arrows: object, marks: object, highlights: object) -> DesignerMarks:
    """``draw()``'s arrows, marks and highlights, their types checked, as the values a game
    reads and checks as it reads a diagram file's ``arrow:``, ``mark:`` and
    ``highlight:``."""
    arrows_given: list[tuple[str, str]] = []
    if arrows is not None:
        need(arrows, (list, tuple), "arrows")
        assert isinstance(arrows, list | tuple)
        for arrow in arrows:
            if not isinstance(arrow, list | tuple) or len(arrow) != 2:
                raise BoardgenError(f"{option('arrows')}: each arrow is a pair (FROM, TO), "
                                    f"not {quoted(arrow)}", field="arrows")
            start, end = (_word(w, "arrows", "a place") for w in arrow)
            arrows_given.append((start, end))
    marks_given: list[tuple[str, str]] = []
    if marks is not None:
        need(marks, dict, "marks")
        assert isinstance(marks, dict)
        marks_given = [(_word(where, "marks", "a place"), _word(kind, "marks", "a mark"))
                       for where, kind in marks.items()]
    highlights_given: list[tuple[str, tuple[str, ...]]] = []
    if highlights is not None:
        need(highlights, dict, "highlights")
        assert isinstance(highlights, dict)
        for role, wheres in highlights.items():
            places = [wheres] if isinstance(wheres, str) else wheres
            if not isinstance(places, list | tuple | set | frozenset) or not places:
                raise BoardgenError(f"{option('highlights')}: {quoted(role)} needs a list of "
                                    f"places, not {quoted(wheres)}", field="highlights")
            words = tuple(_word(w, "highlights", "a place") for w in sorted(places))
            highlights_given.append((_word(role, "highlights", "a role"), words))
    return DesignerMarks(tuple(arrows_given), tuple(marks_given), tuple(highlights_given))
