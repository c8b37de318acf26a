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
from boardgen.games.copolymer.engine import PLAYERS
from boardgen.games.o.engine import check_glyph_table, parse_glyph_table
from boardgen.games.registry import Game, GlyphTable, PlayOptions, Position, game_named, games
from boardgen.games.script import Directive
from boardgen.geometry import SHAPES, HexGrid, grid_from_mask, make_shape, shape_cell_count
from boardgen.geometry.hexgrid import MAX_CELLS, Hex, shape_corners
from boardgen.render.board import (
    FORMATS,
    MAX_CELL_MM,
    MIN_CELL_MM,
    BoardOptions,
    check_cells_page_count,
)
from boardgen.render.motion import (
    ANIMATION_FORMATS,
    DEFAULT_DPI,
    DEFAULT_HOLD_MS,
    DEFAULT_MOVE_MS,
    check_timing,
)
from boardgen.render.paper import ORIENTATIONS, Paper, parse_paper
from boardgen.render.scene import LABEL_MODES, THEMES, Theme, theme_named
from boardgen.text import check_line, read_input_text

# The closed vocabularies, as types (tests/cli/test_requests.py checks that each lists exactly
# what the renderer accepts).
Format = Literal["pdf", "svg", "png"]
LabelMode = Literal["outside", "inside", "none"]
ThemeName = Literal["colour", "colourblind", "ink"]
Orientation = Literal["auto", "portrait", "landscape"]
ShapeName = Literal["hexhex", "rhombus", "triangle"]
PlayOption = Literal["first", "start", "partisan", "glyphs"]

MIN_DPI, MAX_DPI = 36, 1200
MAX_QUOTED = 80  # characters of a refused value quoted in an error


def quoted(value: object) -> str:
    """``repr(value)``, cut to about one line: an error quotes, it does not echo."""
    if isinstance(value, int) and abs(value) >= 10 ** 60:
        return f"a number of {value.bit_length()} bits"  # repr() refuses the longest
    text = repr(value)
    return text if len(text) <= MAX_QUOTED else text[:MAX_QUOTED] + "..."


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


@dataclass(frozen=True)
class AnimateOptions:
    """How an animation is drawn: its format (gif, png for an animated PNG, svg), the time
    per move and the hold on the last frame (ms), the resolution of GIF and APNG frames,
    the cell width (None: the default), the theme, the title (None: the default), whether
    GIF and APNG loop, and which line of a diagram (None: all of it)."""

    fmt: str
    move_ms: int
    hold_ms: int
    dpi: int
    cell_mm: float | None
    theme: Theme
    title: str | None
    loop: bool
    line: int | None


def animate_options(*, fmt: object = "gif", move_ms: object = DEFAULT_MOVE_MS,
                    hold_ms: object = DEFAULT_HOLD_MS, dpi: object = DEFAULT_DPI,
                    cell_mm: object = None, theme: object = "colour", title: object = None,
                    loop: object = True, line: object = None) -> AnimateOptions:
    """AnimateOptions from what was given, each checked."""
    checked_fmt = one_of(fmt, ANIMATION_FORMATS, "fmt", "animation format")
    moving, holding = check_timing(move_ms, hold_ms)
    need(loop, bool, "loop")
    if line is not None:
        need(line, int, "line")
        assert isinstance(line, int)
        if line < 1:
            raise BoardgenError(f"{option('line')}: {quoted(line)} is not a line's number "
                                "(the first is 1)", field="line")
    return AnimateOptions(checked_fmt, moving, holding, checked_dpi(dpi),
                          checked_cell_mm(cell_mm), checked_theme(theme), checked_title(title),
                          bool(loop), line if isinstance(line, int) else None)


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
    shape: str = "hexhex"
    mask: Mask | None = None

    @property
    def given(self) -> list[str]:
        """The options given, by name."""
        return [name for name, used in (
            ("side", self.side is not None), ("preset", self.preset is not None),
            ("diameter", self.diameter is not None), ("shape", self.shape != "hexhex"),
            ("mask", self.mask is not None)) if used]


def board_size(*, side: object = None, preset: object = None, diameter: object = None,
               shape: object = "hexhex", mask: object = None) -> BoardSize:
    """A BoardSize from what was given, each option's type checked."""
    for field, value in (("side", side), ("diameter", diameter)):
        if value is not None:
            need(value, int, field)
    if preset is not None:
        need(preset, str, "preset")
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
    if mask is not None:
        if shape != "hexhex":
            raise BoardgenError(f"{option('shape')} {shape} and {option('mask')} both give the "
                                "board's shape: use one")
        grid = _mask_grid(mask)
    else:
        size_flag = f"{option('side')} {quoted(side)}"
        if (preset or diameter is not None) and shape != "hexhex":
            raise BoardgenError(f"{option('preset' if preset else 'diameter')} describes a "
                                f"hexhex board, not a {shape}")
        boards = game.hex_boards
        if preset:
            presets = boards.presets if boards else {}
            if preset not in presets:
                if presets:
                    raise BoardgenError(f"{option('preset')} {quoted(preset)}: unknown "
                                        f"(choose from {', '.join(sorted(presets))})")
                raise BoardgenError(f"{option('preset')} names the Copolymer server's boards, "
                                    f"not {game.name}'s; use {option('side')}")
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

def check_play_options(game: Game, given: Mapping[str, bool]) -> None:
    """Refuse an option the game does not take, naming the games that do."""
    for name, used in given.items():
        if used and name not in game.play_options:
            takers = [g.name for g in games().values() if name in g.play_options]
            raise BoardgenError(f"{option(name)} applies to {' and '.join(takers)}, "
                                f"not {game.name}")


def glyph_table(glyphs: object, source: str | None = None) -> GlyphTable | None:
    """A glyph table as O's engine takes it: None (the spec's chart), the text of a glyph
    file (``source`` names the file; else the option), or a mapping, checked as a file is."""
    if glyphs is None:
        return None
    need(glyphs, (str, dict), "glyphs")
    if isinstance(glyphs, str):
        return parse_glyph_table(glyphs, source or option("glyphs"))
    assert isinstance(glyphs, dict)
    return check_glyph_table(glyphs, option("glyphs"))


@dataclass(frozen=True)
class PlayRequest:
    """A replay's start: the game and how it begins."""

    game: Game
    options: PlayOptions

    def new_position(self) -> Position:
        position = self.game.new_position(self.options)
        position.restart = self.new_position  # an animation replays from the start
        return position


def play_request(game: Game, size: BoardSize, *, first: object = None,
                 start: tuple[str, str] | None = None, partisan: object = False,
                 glyphs: GlyphTable | None = None) -> PlayRequest:
    """How a replay of ``game`` starts.  ``start`` is a position drawn as text with the
    name to report its errors under; ``glyphs`` a table already read (:func:`glyph_table`)."""
    need(partisan, bool, "partisan")
    check_play_options(game, {"first": first is not None, "start": start is not None,
                              "partisan": bool(partisan), "glyphs": glyphs is not None})
    if first is not None:
        one_of(first, PLAYERS, "first", "player")
    grid = None
    if game.hex_boards is not None:
        grid = resolve_grid(game, size)
    else:
        refuse_hex_options(game, size)
    return PlayRequest(game, PlayOptions(grid=grid, first=first,  # type: ignore[arg-type]
                                         start=start, partisan=bool(partisan), glyphs=glyphs))


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


def annotation_directives(arrows: object, marks: object, highlights: object
                          ) -> list[Directive]:
    """``draw()``'s arrows, marks and highlights as the directives a diagram file would
    have (``arrow: FROM TO``, ``mark: WHERE KIND``, ``highlight: ROLE WHERE...``), so that
    they are read and checked as a file's are."""
    directives: list[Directive] = []
    if arrows is not None:
        need(arrows, (list, tuple), "arrows")
        assert isinstance(arrows, list | tuple)
        for arrow in arrows:
            if not isinstance(arrow, list | tuple) or len(arrow) != 2:
                raise BoardgenError(f"{option('arrows')}: each arrow is a pair (FROM, TO), "
                                    f"not {quoted(arrow)}", field="arrows")
            start, end = (_word(w, "arrows", "a place") for w in arrow)
            directives.append(Directive("arrow", f"{start} {end}", 0))
    if marks is not None:
        need(marks, dict, "marks")
        assert isinstance(marks, dict)
        for where, kind in marks.items():
            directives.append(Directive("mark", f"{_word(where, 'marks', 'a place')} "
                                                f"{_word(kind, 'marks', 'a mark')}", 0))
    if highlights is not None:
        need(highlights, dict, "highlights")
        assert isinstance(highlights, dict)
        for role, wheres in highlights.items():
            places = [wheres] if isinstance(wheres, str) else wheres
            if not isinstance(places, list | tuple | set | frozenset) or not places:
                raise BoardgenError(f"{option('highlights')}: {quoted(role)} needs a list of "
                                    f"places, not {quoted(wheres)}", field="highlights")
            words = [_word(w, "highlights", "a place") for w in sorted(places)]
            directives.append(Directive("highlight", f"{_word(role, 'highlights', 'a role')} "
                                                     f"{' '.join(words)}", 0))
    return directives
