"""Requests: the options of a board, a replay or a picture, validated once.

The command line and the Python API both turn what they were given into these frozen
requests, so a rule about options (which size options conflict, which games take which
options, what a cell may measure) is written here only.  An error names the option by
:func:`boardgen.errors.option`: the API shows ``cell_mm``, the command line ``--cell-mm``.
"""

from __future__ import annotations

import contextlib
import functools
import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, get_args

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
from boardgen.games.script import DesignerMarks, Directive, in_notation
from boardgen.geometry import (
    NOTATIONS,
    SHAPES,
    HexGrid,
    grid_from_mask,
    make_shape,
    shape_cell_count,
)
from boardgen.geometry.hexgrid import MAX_CELLS, Hex, shape_corners
from boardgen.i18n import SOURCE_LANGUAGE, checked_language, language, speaking
from boardgen.limits import MAX_ANNOTATIONS
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
from boardgen.text import check_line, read_input_text, shown_path
from boardgen.text import quoted_value as quoted

if TYPE_CHECKING:
    from boardgen.render.cutter import CutterOptions
    from boardgen.render.shop import Shop

# The closed vocabularies, as types (tests/cli/test_requests.py checks that each lists exactly
# what the renderer accepts).
Format = Literal["pdf", "svg", "png"]
LabelMode = Literal["outside", "inside", "none"]
ThemeName = Literal["colour", "colourblind", "ink"]
# A theme as the API takes it: a built-in name, a TOML file, or the same data as a dict.
ThemeChoice = ThemeName | Path | Mapping[str, object]
Orientation = Literal["auto", "portrait", "landscape"]
ShapeName = Literal["hexhex", "rhombus", "triangle"]
ShopName = Literal["generic", "tgc", "mounted"]
CutterName = Literal["laser", "vinyl"]
# Here, not from the writers: the command line lists them without importing reportlab.
SHOP_NAMES: tuple[str, ...] = get_args(ShopName)
CUTTERS: tuple[str, ...] = get_args(CutterName)

MIN_DPI, MAX_DPI = 36, 1200


# The containers an argument may be made of: rebuilt of plain values by plain().
_CONTAINERS: tuple[type, ...] = (list, tuple, set, frozenset)


def plain(value: object, field: str) -> object:
    """``value`` made of Python's own types: a str, int or float subclass becomes the plain
    value (its own methods, such as an __eq__ or split() that raise, are never called), a
    list, tuple, set or dict (or a subclass of one) is rebuilt of plain items.  Anything
    else is left as it is, for the checks to refuse.  An argument that cannot even be
    read so is refused with a BoardgenError naming ``field``."""
    kind = type(value)
    if kind in (str, int, float, bool, type(None)):
        return value
    try:
        if isinstance(value, str):
            return str.__str__(value)
        if isinstance(value, bool):
            return bool(int.__index__(value))
        if isinstance(value, int):
            return int.__index__(value)
        if isinstance(value, float):
            return float.__float__(value)
        if isinstance(value, dict):
            return {plain(k, field): plain(v, field) for k, v in dict.items(value)}
        for container in _CONTAINERS:
            if isinstance(value, container):
                own_iter: Any = vars(container)["__iter__"]  # the base type's, not an override
                items = [plain(item, field) for item in own_iter(value)]
                return container(items)
    except BoardgenError:
        raise
    except Exception as exc:
        raise BoardgenError(f"{option(field)}: could not be read ({type(exc).__name__})",
                            field=field) from None
    return value


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


# --- language --------------------------------------------------------------------------------

DEFAULT_LANGUAGE = SOURCE_LANGUAGE
LANGUAGE_HELP = ("The language of every word printed (en, fr; more with BOARDGEN_LANGUAGES, "
                 "see the docs' 'Translate boardgen').  Moves and coordinates are the same "
                 "in every language.")


def checked_languages(langs: Iterable[object]) -> list[str]:
    """Several languages (``all --lang en --lang fr``), each checked, each once."""
    return [checked_language(lang) for lang in dict.fromkeys(langs)]


def in_language(lang: object) -> contextlib.AbstractContextManager[None]:
    """The one check of a language (``--lang``, ``lang=``): the work inside is done in it
    (boardgen.i18n.speaking), or one line names the option and the languages known."""
    return speaking(checked_language(lang))


def language_stem(stem: str) -> str:
    """A default output file's stem in the current language: ``GAME-rules`` in
    English, ``GAME-rules-fr`` in French (both languages share a folder)."""
    lang = language()
    return stem if lang == DEFAULT_LANGUAGE else f"{stem}-{lang}"


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
    """A built-in theme by name, a theme file (a ``Path``, or a name ending ``.toml``) or a
    dict of the same shape (boardgen.render.theme_file), checked."""
    if isinstance(theme, Mapping | Path) or (isinstance(theme, str)
                                             and theme.lower().endswith(".toml")):
        games()  # every game's roles declared (plug-ins' too): a file may set them
    if isinstance(theme, Mapping):
        from boardgen.render.theme_file import theme_from_data

        return theme_from_data(theme, option("theme"))
    if not isinstance(theme, str | Path):
        raise BoardgenError(f"{option('theme')}: expected text (a theme's name or a FILE.toml), "
                            f"a Path or a dict, not {quoted(theme)}", field="theme")
    if isinstance(theme, str) and not theme.lower().endswith(".toml"):
        try:
            return theme_named(theme)
        except BoardgenError as exc:
            raise BoardgenError(f"{option('theme')}: {exc.template}", field="theme") from None
    from boardgen.render.theme_file import theme_from_toml

    path = Path(theme)
    return theme_from_toml(read_input_text(path, option("theme")), shown_path(path))


@dataclass(frozen=True)
class DrawOptions:
    """How a picture is drawn: the paper, the theme, the cell width (None: the default),
    the resolution of PNG output, the title (None: the default; '' for none), and whether
    the page is cropped to the drawing (``fit``: boardgen.render.fit)."""

    paper: Paper
    theme: Theme
    cell_mm: float | None = None
    dpi: int = 150
    title: str | None = None
    fit: bool = False


def checked_fit(fit: object) -> bool:
    need(fit, bool, "fit")
    return bool(fit)


def draw_options(*, paper: object = "a4", theme: object = "colour", cell_mm: object = None,
                 dpi: object = 150, title: object = None, fit: object = False) -> DrawOptions:
    """DrawOptions from what was given, each checked (in this order)."""
    checked = checked_title(title)
    return DrawOptions(checked_paper(paper), checked_theme(theme), checked_cell_mm(cell_mm),
                       checked_dpi(dpi), checked, checked_fit(fit))


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
    shape: str | None = None  # None: the game's own shape
    mask: Mask | None = None
    notation: str | None = None  # how its cells are named; None: the server's

    @property
    def given(self) -> list[str]:
        """The options given, by name."""
        return [name for name, used in (
            ("side", self.side is not None), ("preset", self.preset is not None),
            ("diameter", self.diameter is not None), ("shape", self.shape is not None),
            ("mask", self.mask is not None), ("notation", self.notation is not None))
            if used]


def board_size(*, side: object = None, preset: object = None, diameter: object = None,
               shape: object = None, mask: object = None,
               notation: object = None) -> BoardSize:
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
    if notation is not None:
        one_of(notation, NOTATIONS, "notation", "notation")
    return BoardSize(side, preset, diameter, shape, mask,  # type: ignore[arg-type]
                     notation)  # type: ignore[arg-type]


def _mask_grid(mask: Mask) -> HexGrid:
    if isinstance(mask, Path):
        return grid_from_mask(read_input_text(mask, option("mask")), str(mask))
    try:
        return grid_from_mask(mask, "mask")
    except BoardgenError as exc:
        raise BoardgenError(exc.template, field="mask") from None


_KEPT_CELLS = 20_000  # boards up to this size are made once and shared (never changed)


@functools.lru_cache(maxsize=8)
def _shape_grid(shape: str, side: int) -> HexGrid:
    """A board of a shape and side, made once: a program that starts game after game
    (``boardgen.engine`` in a loop) shares the board and the tables its engine builds for
    it, as one engine playing many games does."""
    return make_shape(shape, side)


def resolve_grid(game: Game, size: BoardSize,
                 precheck: Callable[[list[Hex]], None] | None = None) -> HexGrid:
    """The board the options describe; refuses conflicting or impossible sizes before any
    cell is allocated, and so does ``precheck``, given the corner cells of a shape."""
    side, preset, diameter, shape, mask = (size.side, size.preset, size.diameter, size.shape,
                                           size.mask)
    given = [option(name) for name in size.given if name not in ("shape", "notation")]
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
            grid = _shape_grid(shape, side) if cells <= _KEPT_CELLS else make_shape(shape, side)
        except BoardgenError as exc:
            raise BoardgenError(exc.template, field="side") from None
    try:
        game.check_board(grid)
    except BoardgenError as exc:
        sized = [name for name in size.given if name != "notation"]
        raise BoardgenError(exc.template, field=sized[0] if sized else None) from None
    return grid if size.notation is None else grid.named(size.notation)


def refuse_hex_options(game: Game, size: BoardSize) -> None:
    """A game on a fixed board (one size, declared by the game) takes no size or shape."""
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
    shop: Shop | None = None  # a print shop's PDF (bleed, crop marks, PDF/X)
    cutter: CutterOptions | None = None  # a cutter's SVG (cut, score, engrave)

    def render(self, fmt: str) -> bytes:
        """The board as file contents (SVG as UTF-8 bytes)."""
        if self.shop is not None or self.cutter is not None:
            return self._render_made(fmt)
        draw = self.draw
        fixed = self.game.fixed_board
        if draw.fit:
            return self._render_fitted(fmt)
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

    def _render_fitted(self, fmt: str) -> bytes:
        """The board on a page cropped to it (boardgen.render.fit)."""
        draw, info = self.draw, self.game.board_info(self.grid, self.draw.title)
        fixed = self.game.fixed_board
        if self.grid is None and fixed is not None:
            from boardgen.render.lattice import render_fixed_board_fitted

            return render_fixed_board_fitted(fixed, fmt, paper=draw.paper, theme=draw.theme,
                                             spacing=draw.cell_mm, dpi=draw.dpi, info=info)
        assert self.grid is not None
        from boardgen.render.board import render_board_fitted

        options = BoardOptions(draw.paper, self.orientation, draw.cell_mm, draw.dpi)
        return render_board_fitted(self.game.board_scene(self.grid, self.labels), fmt,
                                   options, theme=draw.theme, info=info)

    def _render_made(self, fmt: str) -> bytes:
        """The board for a print shop (PDF only) or a cutter (SVG only)."""
        draw, info = self.draw, self.game.board_info(self.grid, self.draw.title)
        fixed = self.game.fixed_board
        wanted = "pdf" if self.shop is not None else "svg"
        if fmt != wanted:
            given = option("shop") if self.shop is not None else option("cutter")
            raise BoardgenError(f"{given} writes {wanted.upper()}, not {fmt.upper()}: "
                                f"name the file .{wanted}", field="fmt")
        if self.grid is None and fixed is not None:
            from boardgen.render.lattice import (
                render_fixed_board_for_cutter,
                render_fixed_board_for_shop,
            )

            if self.shop is not None:
                return render_fixed_board_for_shop(fixed, paper=draw.paper, theme=draw.theme,
                                                   spacing=draw.cell_mm, info=info,
                                                   shop=self.shop)
            assert self.cutter is not None
            return render_fixed_board_for_cutter(fixed, paper=draw.paper,
                                                 spacing=draw.cell_mm, info=info,
                                                 cutter=self.cutter)
        assert self.grid is not None
        from boardgen.render.board import render_board_for_cutter, render_board_for_shop

        options = BoardOptions(draw.paper, self.orientation, draw.cell_mm, draw.dpi)
        scene = self.game.board_scene(self.grid, self.labels)
        if self.shop is not None:
            return render_board_for_shop(scene, options, shop=self.shop, theme=draw.theme,
                                         info=info)
        assert self.cutter is not None
        # Stones to cut for a game whose kit has a sheet of them (O; Copolymer is coloured in).
        return render_board_for_cutter(scene, options, cutter=self.cutter, info=info,
                                       stones=self.game.kit.stones)


def _millimetres(value: object, field: str, low: float, high: float, what: str) -> float:
    """A length in mm within [low, high]."""
    need(value, (int, float), field)
    assert isinstance(value, int | float)
    length = float(value)
    if not low <= length <= high:  # NaN fails too
        raise BoardgenError(f"{option(field)} {length:g}: {what} is between {low:g} and "
                            f"{high:g} mm", field=field)
    return length


def made_options(game: Game, *, shop: object = None, bleed: object = None,
                 crop_marks: object = True, cutter: object = None, kerf: object = None,
                 hole_mm: object = None) -> tuple[Shop | None, CutterOptions | None]:
    """The print-shop or cutter options, checked: one or the other, each option with its
    own (a kerf with a cutter, a bleed with a shop), a hole only on a board with holes."""
    need(crop_marks, bool, "crop_marks")
    printing = shop is not None or bleed is not None
    cutting = cutter is not None or kerf is not None or hole_mm is not None
    if printing and cutting:
        first = "shop" if shop is not None else "bleed"
        second = "cutter" if cutter is not None else "kerf" if kerf is not None else "hole_mm"
        raise BoardgenError(f"{option(first)} and {option(second)} do not go together: a "
                            "print shop's PDF or a cutter's SVG, one at a time")
    if not crop_marks and not printing:
        raise BoardgenError(f"{option('crop_marks')} applies to a print shop's PDF: give "
                            f"{option('shop')} or {option('bleed')}")
    if printing:
        # The writers' modules, imported only when asked for: the shop's loads reportlab.
        from boardgen.render.shop import MAX_BLEED_MM, shop_named

        if shop is not None:
            one_of(shop, SHOP_NAMES, "shop", "shop")
        width = None if bleed is None else _millimetres(bleed, "bleed", 0.0, MAX_BLEED_MM,
                                                        "a bleed")
        return shop_named(shop, width, crop_marks), None  # type: ignore[arg-type]
    if not cutting:
        return None, None
    if cutter is None:
        raise BoardgenError(f"{option('kerf' if kerf is not None else 'hole_mm')} applies to "
                            f"a cutter's SVG: give {option('cutter')} laser or vinyl")
    from boardgen.render.cutter import MAX_KERF_MM, CutterOptions

    chosen = one_of(cutter, CUTTERS, "cutter", "cutter")
    cut = 0.0 if kerf is None else _millimetres(kerf, "kerf", 0.0, MAX_KERF_MM, "a kerf")
    hole = None
    if hole_mm is not None:
        if game.fixed_board is None:
            raise BoardgenError(f"{option('hole_mm')} applies to a fixed board of holes, "
                                f"not {game.name}'s")
        hole = _millimetres(hole_mm, "hole_mm", 0.5, 30.0, "a hole")
        if cut >= hole:
            raise BoardgenError(f"{option('kerf')} {cut:g}: as wide as a hole or wider "
                                f"({option('hole_mm')} {hole:g}); give a smaller "
                                f"{option('kerf')} or a larger {option('hole_mm')}")
    return None, CutterOptions(chosen, cut, hole)  # type: ignore[arg-type]


def board_request(game: Game, size: BoardSize, *, paper: object = "a4", theme: object,
                  cell_mm: object, dpi: object, title: object, orientation: object = "auto",
                  labels: object = "outside", pages_checked: bool = False,
                  shop: object = None, bleed: object = None, crop_marks: object = True,
                  cutter: object = None, kerf: object = None,
                  hole_mm: object = None, fit: object = False) -> BoardRequest:
    """An empty board of ``game``; ``pages_checked``: refuse, before the grid is built, a
    board that would tile across more pages than the limit (PDF).  ``shop`` or ``bleed``
    ask for a print shop's PDF, ``cutter`` for a cutter's SVG (see :func:`made_options`);
    ``fit`` for a page cropped to the board, never tiled."""
    checked = checked_title(title)
    fitted = checked_fit(fit)
    made_shop, made_cutter = made_options(game, shop=shop, bleed=bleed,
                                          crop_marks=crop_marks, cutter=cutter, kerf=kerf,
                                          hole_mm=hole_mm)
    if fitted and (made_shop is not None or made_cutter is not None):
        other = "shop" if shop is not None else "bleed" if bleed is not None else "cutter"
        raise BoardgenError(f"{option('fit')} and {option(other)} do not go together: a page "
                            "cropped to the board for your own document, or a print shop's "
                            "or cutter's file", field="fit")
    if game.hex_boards is None:
        refuse_hex_options(game, size)
        draw = DrawOptions(checked_paper(paper), checked_theme(theme),
                           checked_cell_mm(cell_mm), checked_dpi(dpi), checked, fitted)
        return BoardRequest(game, None, draw, shop=made_shop, cutter=made_cutter)
    paper_size = checked_paper(paper)
    width = checked_cell_mm(cell_mm)
    turned = one_of(orientation, ORIENTATIONS, "orientation", "orientation")
    draw = DrawOptions(paper_size, checked_theme(theme), width, checked_dpi(dpi), checked,
                       fitted)
    options = BoardOptions(paper_size, turned, width, draw.dpi)
    # A fitted page is never tiled: the page limit does not apply (the cell limit does).
    grid = resolve_grid(game, size, (lambda corners: check_cells_page_count(corners, options))
                        if pages_checked and not fitted else None)
    return BoardRequest(game, grid, draw, turned,
                        one_of(labels, LABEL_MODES, "labels", "label mode"), made_shop,
                        made_cutter)


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
        position = self.game.new_position(self.options)
        position.restart = self.new_position  # an animation replays from the start
        return position


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


def diagram_in_notation(game: Game, directives: list[Directive], notation: object,
                        source: str) -> list[Directive]:
    """A diagram file's directives read in the ``notation`` given beside it (``--notation``,
    ``notation=``), which a game whose places are not hex cells refuses; None:
    as the file says."""
    if notation is None:
        return directives
    name = one_of(notation, NOTATIONS, "notation", "notation")
    if game.hex_boards is None:
        raise BoardgenError(f"{option('notation')} does not apply to {game.name}: its "
                            "places have names of their own", field="notation")
    return in_notation(directives, name, source, f"{option('notation')} {name}")


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
            "ShapeName": (get_args(ShapeName), SHAPES),
            "ShopName": (SHOP_NAMES, _writers_vocabulary("shop")),
            "CutterName": (CUTTERS, _writers_vocabulary("cutter"))}


def _writers_vocabulary(kind: str) -> tuple[str, ...]:
    """The print-shop presets or the cutters, as their writers list them."""
    if kind == "shop":
        from boardgen.render.shop import SHOP_NAMES as shops

        return shops
    from boardgen.render.cutter import CUTTERS as cutters

    return cutters


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


def _mark_words(value: object) -> str:
    """A mark given to ``draw()``: its kind, or 'text LABEL', words apart by spaces."""
    need(value, str, "marks")
    assert isinstance(value, str)
    if not value.split():
        raise BoardgenError(f"{option('marks')}: a mark {quoted(value)} names no kind",
                            field="marks")
    return " ".join(value.split())


def designer_marks(arrows: object, marks: object, highlights: object) -> DesignerMarks:
    """``draw()``'s arrows, marks and highlights, their types checked, as the values a game
    reads and checks as it reads a diagram file's ``arrow:``, ``mark:`` and
    ``highlight:``."""
    arrows_given: list[tuple[str, str]] = []
    if arrows is not None:
        need(arrows, (list, tuple), "arrows")
        assert isinstance(arrows, list | tuple)
        if len(arrows) > MAX_ANNOTATIONS:
            raise BoardgenError(f"{option('arrows')}: {len(arrows):,} arrows, more than the "
                                f"limit of {MAX_ANNOTATIONS:,} on one picture", field="arrows")
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
        # A mark as a file's 'mark:' writes it after the place: 'ring', 'text A'.
        marks_given = [(_word(where, "marks", "a place"), _mark_words(kind))
                       for where, kind in marks.items()]
        if len(marks_given) > MAX_ANNOTATIONS:
            raise BoardgenError(f"{option('marks')}: {len(marks_given):,} marks, more than the "
                                f"limit of {MAX_ANNOTATIONS:,} on one picture", field="marks")
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
