"""The ``boardgen`` command line: one shape for every game.

Bad input ends with one line on stderr naming what was wrong, exit code 2, and no file.
"""

from __future__ import annotations

import contextlib
import functools
import gc
import inspect
import json
import os
import signal
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import NoReturn

import click

from boardgen._version import __version__
from boardgen.errors import BoardgenError, Terminated, cli_flag, raise_terminated
from boardgen.games.registry import (
    Game,
    GameOption,
    Position,
    build_diagram,
    check_options,
    diagrams_memoised,
    game_named,
    games,
    problems,
    read_diagram_file,
    replay_read,
)
from boardgen.games.replay import RecordMove, play_record, read_record
from boardgen.games.script import MAX_PANELS, syntax_text
from boardgen.geometry import (
    NOTATIONS,
    SHAPES,
    HexGrid,
)
from boardgen.inputs import inputs_noted
from boardgen.limits import MAX_ANIMATION_FRAMES, MAX_DRAWN_CELLS
from boardgen.output import (
    check_folder_writable,
    check_not_own,
    check_writable,
    is_folder,
    write_atomic,
)
from boardgen.picture import LABEL_MODES, Panel
from boardgen.publish.drawing import (
    draw_game_diagram,
    draw_panels,
    render_animation_of,
    render_position,
)
from boardgen.publish.gallery import (
    board_stem,
    build_all_diagrams,
    default_jobs,
    default_workers,
    diagram_stem,
    gallery_html,
    run_jobs,
    terminated_on_sigterm,
    why_failed,
)
from boardgen.render.board import (
    FORMATS,
    MAX_PAGES,
)
from boardgen.render.cairolib import keep_declarations
from boardgen.render.motion import (
    ANIMATION_FORMATS,
    DEFAULT_DPI,
    DEFAULT_HOLD_MS,
    DEFAULT_MOVE_MS,
)
from boardgen.render.paper import ORIENTATIONS, parse_paper
from boardgen.render.scene import THEMES, theme_named
from boardgen.reproducible import check_source_date_epoch
from boardgen.requests import (
    CUTTERS,
    DEFAULT_LANGUAGE,
    LANGUAGE_HELP,
    SHOP_NAMES,
    AnimateOptions,
    BoardSize,
    animate_options,
    board_request,
    checked_cell_mm,
    checked_languages,
    checked_theme,
    checked_title,
    diagram_in_notation,
    game_options,
    in_language,
    language_stem,
    made_options,
    play_request,
)
from boardgen.text import (
    MAX_TITLE_CHARS,
    clip_quotes,
    quoted,
    read_input_text,
    read_once,
    shown_path,
)

# A command imports the writers it uses when it runs (the diagram drawer, the rule sheets'
# platypus, the gallery's rasterisers): --help or replaying moves must not pay for them.
# tests/cli/test_cli.py checks which libraries each command loads.

GAMES_BY_KEY = games()  # the built-in games, then the installed plug-ins
GAMES = tuple(GAMES_BY_KEY)
DEFAULT_OUTPUT = Path("output")
STDOUT = "-"
HELP_FLAGS = frozenset({"-h", "--help", "--version"})


class OutputPath(click.Path):
    """-o: a path, refused if empty, and, for a file, if it ends in '/' or '.' (pathlib
    would quietly make 'x.pdf/' the file x.pdf)."""

    def __init__(self, *, folder: bool) -> None:
        super().__init__(path_type=Path)
        self.folder = folder

    def convert(self, value: str | os.PathLike[str], param: click.Parameter | None,
                ctx: click.Context | None) -> str | bytes | os.PathLike[str]:
        if isinstance(value, str):
            if not value:
                self.fail(f"is empty: give a {'folder' if self.folder else 'file'} name",
                          param, ctx)
            if not self.folder and value != STDOUT and \
                    (value.endswith(("/", os.sep)) or Path(value).name != os.path.basename(value)):
                self.fail(f"{value!r} ends in {value[-1]!r}, so it names a folder: give a file "
                          "name", param, ctx)
        return super().convert(value, param, ctx)


OUTPUT_FILE = OutputPath(folder=False)
OUTPUT_FOLDER = OutputPath(folder=True)


def _game_names() -> str:
    """The games' names as their declarations give them: 'Copolymer, O and Polygone'."""
    names = [game.name for game in GAMES_BY_KEY.values()]
    return f"{', '.join(names[:-1])}{' and ' * (len(names) > 1)}{names[-1]}"


@click.group(context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100},
             help=f"Printable boards, engine-checked diagrams and rule sheets for "
             f"{_game_names()}.\n\nEvery file is drawn at exact scale: a 12 mm cell prints "
             "12 mm wide.  Run 'boardgen COMMAND --help' for each command's options.")
@click.version_option(__version__, prog_name="boardgen")
def cli() -> None:
    """boardgen's commands (the help comes from the games installed)."""


# --- choosing the board ---------------------------------------------------------------


def language_option(command: Callable[..., None]) -> Callable[..., None]:
    """``--lang LANG``: the command's work done in that language (checked once, in
    boardgen.requests.in_language)."""
    @click.option("--lang", default=DEFAULT_LANGUAGE, show_default=True, metavar="LANG",
                  help=LANGUAGE_HELP)
    @functools.wraps(command)
    def in_its_language(*args: object, lang: str, **kwargs: object) -> None:
        with in_language(lang):
            command(*args, **kwargs)

    return in_its_language


def board_file_stem(game: str, grid: HexGrid, mask: Path | None) -> str:
    if mask is not None:
        return f"{game}-mask-{mask.stem}"
    return board_stem(game, grid)


def prepare_output(output: Path | None, fmt: str | None, default_stem: str,
                   formats: tuple[str, ...] = FORMATS) -> tuple[Path, str]:
    """The output path and format, ready to write: the format follows the file's suffix, or
    --format; without -o the file goes into our default folder, which is made if needed; a
    path that cannot be written is refused before any work.  ``-o -`` is standard output
    (with --format)."""
    if output is not None and str(output) == STDOUT:
        if fmt is None:
            raise BoardgenError("-o - writes to standard output: say which format with "
                                "--format")
        if fmt != "svg" and fmt != "html" and sys.stdout.isatty():
            raise BoardgenError(f"-o -: will not write {fmt.upper()} data to a terminal "
                                "(redirect it to a file)")
        return output, fmt
    if output is not None and is_folder(output):
        raise BoardgenError(f"-o {shown_path(output)}: is a folder; give a file name in it")
    if output is None:
        fmt = fmt or formats[0]
        path = DEFAULT_OUTPUT / f"{language_stem(default_stem)}.{fmt}"
        make_folder(path.parent, "the default output folder")
    else:
        suffix = output.suffix.lower().lstrip(".")
        if fmt is None and suffix not in formats:
            choices = ", ".join(f".{f}" for f in formats[:-1]) + f" or .{formats[-1]}"
            raise BoardgenError(f"-o {shown_path(output)}: cannot tell the format from the "
                                "suffix (use "
                                f"{choices}, or --format)")
        if fmt is not None and suffix in formats and suffix != fmt:
            raise BoardgenError(f"-o {shown_path(output)} ends in {shown_path('.' + suffix)} "
                                f"but --format is {fmt}")
        path, fmt = output, fmt or suffix
    check_writable(path)
    return path, fmt


def make_folder(folder: Path, what: str) -> None:
    """Make ``folder`` (and its parents) if missing; one line, exit 2, if it cannot be: a
    file of that name in the way, a read-only parent."""
    if os.path.lexists(folder) and not is_folder(folder):
        raise BoardgenError(f"{what} {quoted(str(folder))} exists and is not a folder; "
                            "remove it or give -o")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise BoardgenError(f"cannot make {what} {quoted(str(folder))}: {exc.strerror or exc}; "
                            "give -o") from None


def emit(path: Path, data: bytes) -> None:
    """Write the file atomically and say so, or send the bytes to standard output."""
    if str(path) == STDOUT:
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
        return
    write_atomic(path, data)
    # format_filename: a name that is not valid UTF-8 must not break a strict stdout.
    click.echo(f"wrote {click.format_filename(path)}")


def warn_missing_glyphs(title: str | None) -> None:
    """Characters the bundled font lacks print as boxes: say so (after the file is written,
    so that an error stays the only line on stderr)."""
    if not title:
        return
    from boardgen.render.fonts import missing_glyphs

    missing = missing_glyphs(title)
    if missing:
        click.echo(f"boardgen: warning: --title: {missing[:10]!r} not in the bundled font; "
                   "printed as boxes", err=True)


def _declared_options(command: str) -> dict[str, list[tuple[Game, GameOption]]]:
    """Every game's own options of ``command``, by name, with the games declaring each."""
    found: dict[str, list[tuple[Game, GameOption]]] = {}
    for game in GAMES_BY_KEY.values():
        for declared in game.options:
            if command in declared.commands:
                found.setdefault(declared.name, []).append((game, declared))
    return found


def game_option_flags(command: str) -> Callable[[Callable[..., None]], Callable[..., None]]:
    """The games' own options of ``command``, each as its game declares it (a plug-in's
    too): a flag, a choice, or a file to read."""

    def decorate(function: Callable[..., None]) -> Callable[..., None]:
        for name, declarations in reversed(_declared_options(command).items()):
            first = declarations[0][1]
            said = " ".join(dict.fromkeys(d.help for _, d in declarations))
            if first.kind == "flag":
                made = click.option(first.flag, name, is_flag=True, help=said)
            elif first.kind == "choice":
                choices = dict.fromkeys(c for _, d in declarations for c in d.choices)
                made = click.option(first.flag, name, type=click.Choice(tuple(choices)),
                                    help=said)
            else:
                made = click.option(first.flag, name, type=click.Path(path_type=Path),
                                    metavar=first.metavar or "FILE", help=said)
            function = made(function)
        return function

    return decorate


def _read_files(given: dict[str, object]) -> tuple[dict[str, object], dict[str, str]]:
    """The games' own options as the command line got them, each file option's file read
    (an error names its flag), with the names of the files read (for the game's errors)."""
    texts: dict[str, object] = {}
    sources: dict[str, str] = {}
    for name, value in given.items():
        if isinstance(value, Path):
            texts[name] = read_input_text(value, "--" + name.replace("_", "-"))
            sources[name] = str(value)
        else:
            texts[name] = value
    return texts, sources


def _presets_help() -> list[str]:
    """Each game's presets in words: ``Copolymer: small, medium, large (sides 5, 7, 10:
    the server's ...)``."""
    said = []
    for game in GAMES_BY_KEY.values():
        boards = game.hex_boards
        if boards is None or not boards.presets:
            continue
        named = sorted(boards.presets.items(), key=lambda item: item[1])
        sides = ", ".join(str(side) for _, side in named)
        note = f": {boards.presets_help}" if boards.presets_help else ""
        said.append(f"{game.name}: {', '.join(name for name, _ in named)} "
                    f"({'side' if len(named) == 1 else 'sides'} {sides}{note})")
    return said or ["none"]


def _per_game(said: Callable[[Game], str]) -> str:
    """What each game says (games saying the same grouped: 'Copolymer and O: ...'), for
    a help text; a game that says nothing is left out."""
    grouped: dict[str, list[str]] = {}
    for game in GAMES_BY_KEY.values():
        if words := said(game):
            grouped.setdefault(words, []).append(game.name)
    return ".  ".join(f"{', '.join(names[:-1])}{' and ' * (len(names) > 1)}{names[-1]}: "
                      f"{words}" for words, names in grouped.items())


THEME_METAVAR = "[" + "|".join(sorted(THEMES)) + "|FILE.toml]"
THEME_HELP = "ink: black lines and patterns only.  FILE.toml: a palette of your own, a " \
    "[roles] table such as player1 = \"#2e86c1\" over a built-in base (base = \"colour\" " \
    "unless the file says another); roles left out keep the base's.  The roles are listed " \
    "on the documentation's page \"Themes of your own\"."
FIT_HELP = "A page cropped to the drawing plus a 3 mm margin, at exact scale, to place in " \
    "a document of your own (PDF, SVG or PNG): no title band (a position is drawn without " \
    "its default title, a --title given is kept; a diagram keeps its own heading and " \
    "legend, part of its figure), no page furniture but the designer's credit line, no " \
    "tiling (a fitted page is never tiled; --paper then only sets the default cell size " \
    "and how wide a row of panels runs)."


# How cells are named: the same choice for board, play and diagram.
NOTATION_OPTION = click.option(
    "--notation", type=click.Choice(NOTATIONS),
    help="Cell names: server (the default: the play-by-email server's row letter and "
    "diagonal number, F6) or a1 (Hex's and Havannah's column letter and row number: "
    "rhombus 6 runs a1-f6).  A diagram file says its own in a 'notation:' line.")


def board_size_options(command: Callable[..., None]) -> Callable[..., None]:
    """--side, --preset, --diameter, --shape, --mask and --notation: the same for every hex
    command."""
    options = [
        click.option("--side", type=int, help="Cells on each edge (hexhex), or N for an N x N "
                     "rhombus, or the rows of a triangle.  Default: " + ", ".join(
                         f"{g.name} {b.words()}" for g in GAMES_BY_KEY.values()
                         if (b := g.hex_boards) is not None) + "."),
        click.option("--preset", type=click.Choice(sorted({p for g in GAMES_BY_KEY.values()
                                                           if g.hex_boards is not None
                                                           for p in g.hex_boards.presets})),
                     help="A board the game names: " + "; ".join(_presets_help()) + "."),
        click.option("--diameter", type=int, help="Cells across the middle row (odd): a "
                     "hexhex board of side (N+1)/2."),
        click.option("--shape", type=click.Choice(SHAPES), help="Default: the game's own ("
                     + ", ".join(f"{g.name} {b.default_shape}" for g in GAMES_BY_KEY.values()
                                 if (b := g.hex_boards) is not None) + ")."),
        click.option("--mask", type=click.Path(path_type=Path), help="A custom shape drawn as "
                     "text: one character per cell (. # * o x @), cells two columns apart, "
                     "rows offset by one column, spaces (not tabs); at least 3 cells."),
        NOTATION_OPTION,
    ]
    for decorate in reversed(options):
        command = decorate(command)
    return command


@cli.command()
@click.argument("game", type=click.Choice(GAMES), metavar="GAME")
@board_size_options
@click.option("--paper", default="a4", show_default=True,
              help="a4, letter, a3, a5 (a booklet), universal (prints unchanged on A4 and "
              "Letter), or WxHmm such as 300x450mm.")
@click.option("--orientation", type=click.Choice(ORIENTATIONS), default="auto",
              show_default=True, help="auto picks the one with fewer pages or larger cells.")
@click.option("--cell-mm", type=float, help="Cell width flat to flat in mm.  Default: as large "
              "as the paper allows (8-30 mm); a board that does not fit is tiled (up to "
              f"{MAX_PAGES} pages).  A round "
              "piece fits a cell 1 mm wider than it: 9 for 8 mm beads, 13 for 12 mm glass "
              "counters, 23 for Go stones (22 mm).  A game on a fixed board of holes: the hole "
              "spacing, which is also a piece's length.")
@click.option("--labels", type=click.Choice(LABEL_MODES), default="outside",
              show_default=True, help="Cell names (in --notation's names).")
@click.option("--theme", default="colour", show_default=True, metavar=THEME_METAVAR,
              help=THEME_HELP)
@click.option("--title", help="Title printed above the board (default: the game's name; "
              f"'' for none); one line, up to {MAX_TITLE_CHARS} characters.")
@click.option("--format", "fmt", type=click.Choice(FORMATS),
              help="Output format; default: from the -o suffix, else pdf.")
@click.option("--dpi", type=click.IntRange(36, 1200), default=150, show_default=True,
              help="Resolution of PNG output.")
@click.option("-o", "--output", type=OUTPUT_FILE,
              help="Output file (default: output/GAME-sideN.pdf); '-' for standard output "
              "(with --format).  A link is written through; devices are refused.")
@click.option("--shop", type=click.Choice(SHOP_NAMES),
              help="A print shop's PDF/X with bleed and crop marks, trimmed to --paper: "
              "generic (3 mm bleed, PDF/X-4), tgc (The Game Crafter: 1/8 in bleed and safe "
              "zone, PDF/X-1a), mounted (18 mm wrap, PDF/X-4).")
@click.option("--bleed", type=float, metavar="MM",
              help="A print shop's PDF with this bleed in mm on each side (default: the "
              "--shop's; generic without --shop).")
@click.option("--crop-marks/--no-crop-marks", default=True, show_default=True,
              help="Crop marks outside the bleed, on every plate (with --shop or --bleed).")
@click.option("--cutter", type=click.Choice(CUTTERS),
              help="An SVG for a laser or vinyl cutter, 1:1 in mm: cut red, score blue, "
              "engrave black, on layers.")
@click.option("--kerf", type=float, metavar="MM",
              help="With --cutter: the width the cut burns away; parts are drawn larger and "
              "holes smaller by it, so both come out their size.  Default 0.")
@click.option("--hole-mm", type=float, metavar="MM",
              help="With --cutter, a game on a fixed board of holes: the holes' diameter "
              "(default: as printed, a tenth of the spacing).")
@click.option("--fit", is_flag=True, help="The board alone on a page cropped to it plus a 3 mm "
              "margin, at exact scale and the cell size it has without --fit, a 50 mm bar "
              "under it: to place in a document of your own.  A fitted page is never tiled "
              "(--paper then only sets the default cell size); a game's sheet of pieces is "
              "left out.")
@language_option
def board(game: str, side: int | None, preset: str | None, diameter: int | None,
          shape: str | None,
          mask: Path | None, notation: str | None, paper: str, orientation: str,
          cell_mm: float | None, labels: str,
          theme: str, title: str | None, fmt: str | None, dpi: int,
          output: Path | None, shop: str | None, bleed: float | None, crop_marks: bool,
          cutter: str | None, kerf: float | None, hole_mm: float | None, fit: bool) -> None:
    """Print an empty GAME board at exact scale (PDF, SVG or PNG).

    \b
    Examples:
      boardgen board copolymer --side 10 -o output/copolymer-side10.pdf
      boardgen board copolymer --preset small --theme ink --paper letter
      boardgen board copolymer --shape rhombus --side 9 -o rhombus.svg
      boardgen board copolymer --side 10 --cell-mm 23   # for Go stones, tiled

    \b
    Choosing --cell-mm for your pieces (a round piece fits a cell 1 mm wider):
      8 mm beads             --cell-mm 9
      12 mm glass counters   --cell-mm 13
      15 mm counters, coins  --cell-mm 16
      Go stones (22 mm)      --cell-mm 23
    Each board states the cell size it was printed at and what it fits.  A board
    too large for the paper is tiled: trim, butt and glue the pages as each says.

    \b
    For a print shop or a cutter:
      boardgen board o --shop generic --paper 400x400mm -o o-shop.pdf
      boardgen board polygone --cutter laser --kerf 0.15 --hole-mm 4 -o polygone.svg
    """
    if cutter is not None and fmt is None and (output is None or output.suffix == ""):
        fmt = "svg"  # a cutter's file is an SVG
    wants_pdf = fmt == "pdf" or (fmt is None and (output is None
                                                  or output.suffix.lower() == ".pdf"))
    request = board_request(game_named(game),
                            BoardSize(side, preset, diameter, shape, mask, notation),
                            paper=paper, theme=theme, cell_mm=cell_mm, dpi=dpi, title=title,
                            orientation=orientation, labels=labels, pages_checked=wants_pdf,
                            shop=shop, bleed=bleed, crop_marks=crop_marks, cutter=cutter,
                            kerf=kerf, hole_mm=hole_mm, fit=fit)
    fixed = request.game.fixed_board
    stem = fixed.stem if request.grid is None and fixed is not None else \
        board_file_stem(game, request.grid, mask) if request.grid is not None else game
    if request.shop is not None:
        stem += f"-{request.shop.name}"
    if request.cutter is not None:
        stem += f"-{request.cutter.cutter}"
    path, fmt = prepare_output(output, fmt, stem)
    emit(path, request.render(fmt))
    warn_missing_glyphs(request.draw.title)


def _check_strip(every: int, moves: int, cells: int) -> None:
    """Refuse, before the moves are replayed, a --every strip of more panels than a
    diagram may have, or drawing more cells in all than MAX_DRAWN_CELLS."""
    panels = max(1, -(-moves // every))
    if panels > MAX_PANELS:
        raise BoardgenError(f"--every {every}: {moves} moves make {panels} panels, more than "
                            f"the limit of {MAX_PANELS}; choose a larger N")
    if panels * cells > MAX_DRAWN_CELLS:
        most = MAX_DRAWN_CELLS // cells
        advice = f"choose --every {-(-moves // most)} or more, or a smaller board" \
            if most > 1 else "draw the last position alone (leave out --every), or a " \
            "smaller board"
        raise BoardgenError(f"--every {every}: {panels} panels of a {cells:,}-cell board draw "
                            f"{panels * cells:,} cells, more than the limit of "
                            f"{MAX_DRAWN_CELLS:,}; {advice}")


def picture_options(command: Callable[..., None]) -> Callable[..., None]:
    """Paper, look and format of a drawn picture: the same for play and diagram."""
    options = [
        click.option("--paper", default="a4", show_default=True,
                     help="a4, letter, a3, a5 (a booklet), universal or WxHmm."),
        click.option("--theme", default="colour", show_default=True, metavar=THEME_METAVAR,
                     help=THEME_HELP),
        click.option("--format", "fmt", type=click.Choice((*FORMATS, "gif")),
                     help="Output format; default: from the -o suffix, else pdf (gif with "
                     "--animate)."),
        click.option("--dpi", type=click.IntRange(36, 1200),
                     help="Resolution of PNG output (default 150; 96 for --animate)."),
        click.option("--fit", is_flag=True, help=FIT_HELP),
        click.option("--animate", is_flag=True,
                     help="Write an animation, a frame per move (a diagram that gives no "
                     "moves one by one: per panel): animated GIF, PNG (APNG) or SVG, from the "
                     "-o suffix."),
        click.option("--move-ms", type=int, default=DEFAULT_MOVE_MS, show_default=True,
                     help="With --animate: each move's time in milliseconds."),
        click.option("--hold-ms", type=int, default=DEFAULT_HOLD_MS, show_default=True,
                     help="With --animate: the extra time on the last frame."),
    ]
    for decorate in reversed(options):
        command = decorate(command)
    return command


# play's help: how each game prints its board as text comes from the game's declaration.
_PLAY_HELP = f"""Replay moves through the GAME engine and print the position, or draw it.

The text shows the board as the play-by-email server draws it.  {_per_game(
    lambda g: g.text_help)}.

\b
Examples:
  boardgen play copolymer --side 3 --moves "C3 B2 C2 D3" --json
  boardgen play o --side 4 --partisan --moves "D4 A1 G4"
  boardgen play polygone --moves "c0-c2>d1 c10-c8>b9" --json
  boardgen play copolymer --side 5 --moves-file game.txt -o game.pdf --every 4
  boardgen play copolymer --side 5 --moves-file game.txt -o game.pdf --every-turn 2
  boardgen play polygone --moves "c0-c2>d1 c10-c8>b9" --animate -o game.gif
"""


@cli.command(help=_PLAY_HELP)
@click.argument("game", type=click.Choice(GAMES), metavar="GAME")
@board_size_options
@click.option("--moves", default="", show_default=True,
              help="Moves in order, separated by spaces.  " + _per_game(
                  lambda g: g.moves_help) + ".")
@click.option("--moves-file", type=click.Path(path_type=Path),
              help="Read the moves from a file instead, such as a game record: move numbers "
              "(12. or 12)) and comments (# or ; to the end of the line, or {in braces}) are "
              "skipped; a player label (X:, White:) must name the player to move.  Errors "
              "name FILE:LINE.")
@game_option_flags("play")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object, a stable "
              "contract.  " + _per_game(lambda g: ", ".join(g.json_keys)) + ".")
@click.option("-o", "--output", type=OUTPUT_FILE,
              help="Draw the position after the moves (PDF, SVG or PNG), the last turn's "
              "cells numbered; prints 'wrote FILE' (or, with --json, the JSON only).")
@click.option("--every", type=click.IntRange(1, 10_000),
              help="With -o: a strip of panels, the position after every N moves (and after "
              "the last), each move since the panel before numbered, with a legend.")
@click.option("--every-turn", type=click.IntRange(1, 10_000),
              help="As --every, counting turns: the position after every N turns (in a "
              "game where a turn may hold several moves, a turn ends when its player's "
              "does).")
@click.option("--cell-mm", type=float, help="Cell width in the drawing (for a game on a "
              "fixed board, its hole spacing); default: the game's own (8 mm a hex cell).")
@click.option("--title", help="Title above the drawing (default: the game and the number of "
              "moves; none with --fit).")
@picture_options
@language_option
def play(game: str, side: int | None, preset: str | None, diameter: int | None,
         shape: str | None, mask: Path | None, notation: str | None, moves: str,
         moves_file: Path | None,
         as_json: bool, output: Path | None, every: int | None, every_turn: int | None,
         cell_mm: float | None, title: str | None, paper: str, theme: str, fmt: str | None,
         dpi: int | None, fit: bool, animate: bool, move_ms: int, hold_ms: int,
         **own_options: object) -> None:
    """Replay moves through the GAME engine and print the position, or draw it (the
    help: _PLAY_HELP)."""
    description = game_named(game)
    title = checked_title(title)
    animation = _animation_options(animate, fmt, dpi, move_ms, hold_ms, cell_mm, theme, title)
    _check_fit(fit, animate, output)
    if animate and (every is not None or every_turn is not None):
        raise BoardgenError("--animate draws every move: leave out --every and --every-turn")
    if animate and as_json and output is not None and str(output) == STDOUT:
        raise BoardgenError("--json prints to standard output, so -o - cannot: name a file")
    check_options(description, {name: value for name, value in own_options.items()
                                if value is not None and value is not False}, "play")
    if moves and moves_file is not None:
        raise BoardgenError("--moves and --moves-file both give the moves: use one")
    if every is not None and every_turn is not None:
        raise BoardgenError("--every and --every-turn both cut the strip: use one")
    strip = "--every" if every is not None else "--every-turn" if every_turn is not None \
        else None
    if strip is not None and output is None:
        raise BoardgenError(f"{strip} draws a strip of panels: give the file with -o")
    if as_json and output is not None and str(output) == STDOUT:
        raise BoardgenError("--json prints to standard output, so -o - cannot: name a file")
    record: list[RecordMove] | None = None
    if moves_file is not None:
        text = read_input_text(moves_file, "--moves-file")  # says which file it could not read
        try:
            record = read_record(text, description.split_moves)
        except BoardgenError as exc:  # LINE: what is wrong
            raise BoardgenError(f"{shown_path(moves_file)}:{exc.template}") from None
    request = play_request(description,
                           BoardSize(side, preset, diameter, shape, mask, notation),
                           *_read_files(own_options))
    position = request.new_position()
    grid = request.options.grid
    tokens = description.split_moves(moves) if record is None else \
        [entry.move for entry in record]
    if every is not None:
        fixed = description.fixed_board
        _check_strip(every, len(tokens), len(grid) if grid is not None else
                     len(fixed.picture.places) if fixed is not None else 1)
    if animation is not None:
        _play_animation(position, tokens, record, moves_file, (output, fmt), animation, game,
                        as_json)
        return
    dpi = dpi or 150
    target: tuple[Path, str] | None = None
    if output is not None:
        width = checked_cell_mm(cell_mm)
        paper_size = parse_paper(paper)
        chosen = checked_theme(theme)  # before the moves: a bad theme file is refused first
        target = prepare_output(output, fmt, f"{game}-position")
    panels: list[Panel] = []
    if strip is None:
        if record is None:
            position.play(tokens)
        else:  # each move's line, and its player label checked against the engine
            play_record(position, record, str(moves_file))
    else:
        panels = _strip(position, tokens, record, str(moves_file), every, every_turn)
    if as_json or target is None:
        click.echo(json.dumps(position.to_json()) if as_json else position.text())
    if target is None:
        return
    path, fmt = target
    if strip is None:
        data = render_position(position, fmt, paper=paper_size, theme=chosen,
                               cell_mm=width, dpi=dpi, title=title, fit=fit)
    else:
        n, unit = (every, "move") if every is not None else (every_turn, "turn")
        # A fitted strip has no title band unless --title gives one, as a fitted position.
        heading = title if title is not None else "" if fit else \
            f"{description.name}: the position every {n} {unit}{'s' * (n != 1)}"
        data = draw_panels(description, heading, panels, fmt, paper=paper_size,
                           theme=chosen, cell_mm=width, dpi=dpi,
                           note=STRIP_NOTE, fit=fit)
    if as_json:
        write_atomic(path, data)  # stdout holds the JSON alone
    else:
        emit(path, data)


STRIP_NOTE = "Numbered: every move since the panel before, by its number."


def _check_fit(fit: bool, animate: bool, output: Path | None, needs_file: bool = True) -> None:
    """--fit crops a still picture's page: refused with --animate, and (play) without -o."""
    if fit and animate:
        raise BoardgenError("--fit crops a still picture's page; an animation has no page: "
                            "leave out one of --fit and --animate")
    if fit and needs_file and output is None:
        raise BoardgenError("--fit crops the page of a drawing: give the file with -o")


def _animation_options(animate: bool, fmt: str | None, dpi: int | None, move_ms: int,
                       hold_ms: int, cell_mm: float | None, theme: str, title: str | None,
                       line: int | None = None) -> AnimateOptions | None:
    """The --animate options, checked (None without --animate, which refuses
    --format gif)."""
    if not animate:
        if fmt == "gif":
            raise BoardgenError("--format gif is an animation: add --animate")
        if line is not None:
            raise BoardgenError("--line picks a diagram line to animate: add --animate")
        return None
    if fmt == "pdf":
        raise BoardgenError("--animate writes GIF, PNG (animated) or SVG, not PDF")
    return animate_options(fmt=fmt or "gif", move_ms=move_ms, hold_ms=hold_ms,
                           dpi=dpi or DEFAULT_DPI, cell_mm=cell_mm, theme=theme, title=title,
                           line=line)


def _animation_target(output: Path | None, fmt: str | None, stem: str) -> tuple[Path, str]:
    """Where an animation goes, in which format (from the -o suffix, else --format)."""
    suffix = output.suffix.lower().lstrip(".") if output is not None else ""
    if output is not None and str(output) != STDOUT and fmt is None \
            and suffix not in ANIMATION_FORMATS:
        raise BoardgenError(f"-o {shown_path(output)}: --animate writes .gif, .png "
                            "(animated) or .svg")
    return prepare_output(output, fmt, stem, ANIMATION_FORMATS)


def _play_animation(position: Position, tokens: list[str], record: list[RecordMove] | None,
                    moves_file: Path | None, target: tuple[Path | None, str | None],
                    options: AnimateOptions, game: str, as_json: bool) -> None:
    """play --animate: a frame after each move, written in one go (nothing on failure)."""
    if len(tokens) > MAX_ANIMATION_FRAMES:
        raise BoardgenError(f"--animate: {len(tokens):,} moves are more frames than the limit "
                            f"of {MAX_ANIMATION_FRAMES:,}: animate fewer moves")
    if not tokens:
        raise BoardgenError("--animate: nothing to animate; give the moves with --moves or "
                            "--moves-file")
    path, fmt = _animation_target(*target, f"{game}-animation")
    entries = iter(record or [])

    def play_entry(moves: list[str]) -> None:  # each move's line and player label checked
        play_record(position, [next(entries)], str(moves_file))

    animation = position.animation(tokens, options.title,
                                   play_entry if record is not None else None)
    data = render_animation_of(animation, fmt, theme=options.theme, move_ms=options.move_ms,
                               hold_ms=options.hold_ms, dpi=options.dpi,
                               cell_mm=options.cell_mm, loop=options.loop)
    if as_json:
        write_atomic(path, data)  # stdout holds the JSON alone
        click.echo(json.dumps(position.to_json()))
    else:
        emit(path, data)


def _strip(position: Position, tokens: list[str], record: list[RecordMove] | None,
           source: str, every: int | None, every_turn: int | None) -> list[Panel]:
    """The panels of a strip: the position after every N moves (or N turns, a turn ending
    when its player's does), and after the last; each panel numbers the moves since the
    one before.  Errors count moves from the first."""
    panels: list[Panel] = []
    since = 0  # moves played at the panel before
    turns = counted = 0

    def add_panel() -> None:
        nonlocal since, counted
        played = position.moves_played
        caption = f"After {played} move{'s' * (played != 1)}." if every_turn is None else \
            f"After {turns} turn{'s' * (turns != 1)} ({played} move{'s' * (played != 1)})."
        panels.append(position.strip_scene(caption, since))
        if len(panels) > MAX_PANELS:
            flag, n = ("--every", every) if every is not None else ("--every-turn", every_turn)
            raise BoardgenError(f"{flag} {n}: more than {MAX_PANELS} panels; choose a larger N")
        since, counted = played, 0

    for k, token in enumerate(tokens):
        if record is None:
            position.play([token])
        else:  # each move's line, and its player label checked against the engine
            play_record(position, record[k:k + 1], source)
        if every is not None:
            counted += 1
        elif position.turn_over:
            turns += 1
            counted += 1
        if counted == (every or every_turn):
            add_panel()
    if not tokens:
        panels.append(position.strip_scene("The start.", 0))
    elif position.moves_played > since:
        add_panel()  # the last position (with a turn in progress, if one is)
    return panels


@cli.command()
@click.argument("target", metavar="GAME|FILE", required=False)
@click.argument("name", required=False)
@click.option("--list", "list_names", is_flag=True, help="List the GAME's diagrams and exit.")
@click.option("--syntax", is_flag=True, help="Print the diagram language (every directive and "
              "claim a file may use, read from the tables the parser uses) of GAME, or of "
              "every game, and exit.")
@NOTATION_OPTION
@click.option("--cell-mm", type=float, help="Cell width in the panels, flat to flat, or on a "
              "fixed board of holes how far apart neighbouring holes are; default: the "
              "diagram's own (8 mm a hex cell).")
@game_option_flags("diagram")
@click.option("-o", "--output", type=OUTPUT_FILE,
              help="Output file (default: output/GAME-diagram-NAME.pdf).")
@click.option("--line", type=int, help="With --animate: animate this line of play only "
              "(counting from 1); default: the whole diagram, line after line.")
@picture_options
@language_option
def diagram(target: str | None, name: str | None, list_names: bool, syntax: bool,
            notation: str | None, cell_mm: float | None,
            output: Path | None, line: int | None, paper: str, theme: str, fmt: str | None,
            dpi: int | None, fit: bool, animate: bool, move_ms: int, hold_ms: int,
            **own_options: object) -> None:
    """Draw a diagram, every position replayed through the engine: the built-in diagram
    NAME of GAME, or a diagram FILE of your own (it names its game in a 'game:' line).

    A diagram file is a small text file of directives: the board, a start position, panels
    of moves with the claims the engine must agree with, and annotations (arrows, marks,
    highlights, captions); 'boardgen diagram --syntax GAME' prints every directive, as the
    documentation's page "The diagram language" (reference/diagram-language) does.  A move
    the rules refuse, or a claim the engine disagrees with, stops with the file and line.
    A game's built-in diagrams are files in its own folder (templates/GAME/ for the
    built-in games), or drawn from its engine's tables.  Anything that is not a game is
    read as a FILE, and a NAME is never read as a path.

    \b
    Examples:
      boardgen diagram --syntax copolymer
      boardgen diagram copolymer --list
      boardgen diagram copolymer tempo -o output/tempo.pdf
      boardgen diagram o glyphs --glyphs my-chart.txt -o chart.svg
      boardgen diagram polygone 03-blocking -o blocking.png
      boardgen diagram my-opening.txt -o my-opening.svg
      boardgen diagram my-opening.txt --animate --line 2 -o line2.gif
    """
    if syntax:
        _refuse_beside_syntax()
        _print_syntax(target, name)
        return
    if target is None:
        raise click.UsageError("missing GAME|FILE (or --syntax)")
    animation = _animation_options(animate, fmt, dpi, move_ms, hold_ms, cell_mm, theme, None,
                                   line)
    _check_fit(fit, animate, output, needs_file=False)
    texts, sources = _read_files(own_options)
    if target in GAMES:
        description = game_named(target)
        if list_names:
            if name:
                raise click.UsageError(f"--list takes no diagram NAME (got {name!r})")
            for known in description.diagram_names():
                click.echo(known)
            return
        if not name:
            known = ", ".join(description.diagram_names())
            raise click.UsageError(f"missing diagram NAME (one of: {known})")
        if notation not in (None, NOTATIONS[0]):
            raise BoardgenError(f"--notation {notation}: the built-in diagrams are written in "
                                f"the {NOTATIONS[0]} notation; --notation is for a diagram FILE")
        # Bad names and examples: no file.
        given = game_options(description, texts, "diagram", sources)
        built = build_diagram(target, name, options=given)
    else:
        if list_names or name:
            raise click.UsageError(f"{target!r} is not a game ({', '.join(GAMES)}), so it is "
                                   "read as a diagram FILE, which takes no NAME or --list")
        source = Path(target)
        with read_once():  # the file is read once: it may be /dev/stdin or <(command)
            description, directives = read_diagram_file(source)
            directives = diagram_in_notation(description, directives, notation, str(source))
            given = game_options(description, texts, "diagram", sources)
            built = replay_read(description, source, directives, given)
        name = source.stem
    stem = diagram_stem(description.key, name)
    if animation is not None:
        path, fmt = _animation_target(output, fmt, f"{stem}-animation")
        emit(path, render_animation_of(built, fmt, theme=animation.theme,
                                       move_ms=animation.move_ms, hold_ms=animation.hold_ms,
                                       dpi=animation.dpi, cell_mm=animation.cell_mm,
                                       line=animation.line))
        return
    paper_size = parse_paper(paper)
    width = checked_cell_mm(cell_mm)
    path, fmt = prepare_output(output, fmt, stem)
    emit(path, draw_game_diagram(description, name, built, fmt, paper=paper_size,
                                 theme=checked_theme(theme), cell_mm=width, dpi=dpi or 150,
                                 options=given, fit=fit))


def _refuse_beside_syntax() -> None:
    """--syntax prints and draws nothing: an option that would say how to draw (-o, --list,
    --fit, --animate ...) is refused rather than silently ignored."""
    context = click.get_current_context()
    for param in context.command.params:
        if not isinstance(param, click.Option) or param.name in (None, "syntax"):
            continue
        # Given on the command line only: a default from the environment is no request.
        if context.get_parameter_source(param.name) is click.core.ParameterSource.COMMANDLINE:
            flag = max(param.opts, key=len)
            raise click.UsageError(f"--syntax prints the diagram language and draws nothing: "
                                   f"leave out {flag}")


def _print_syntax(game: str | None, extra: str | None) -> None:
    """diagram --syntax [GAME]: the diagram language of one game, or of each."""
    if extra is not None:
        raise click.UsageError(f"--syntax takes at most one GAME (got {extra!r} too)")
    if game is not None and game not in GAMES:
        raise click.UsageError(f"--syntax: {game!r} is not a game ({', '.join(GAMES)})")
    texts = []
    for key in [game] if game is not None else GAMES:
        syntax = GAMES_BY_KEY[key].diagram_syntax()
        texts.append(syntax_text(syntax) if syntax is not None else
                     f"{key}: no diagram files (its diagrams are made by the game itself)\n")
    click.echo("\n".join(texts), nl=False)


@cli.command()
@click.argument("folder", metavar="[DIR]", required=False, default=".",
                type=click.Path(path_type=Path))
@click.option("--port", type=click.IntRange(0, 65535),
              help="Port on 127.0.0.1; 0 for any free one.  Default: 8000, or the next free "
              "port after it.")
@click.option("--no-open", is_flag=True, help="Do not open the page in the browser.")
def serve(folder: Path, port: int | None, no_open: bool) -> None:
    """Show the diagram files in DIR (default: this folder) in the browser, each drawn
    afresh as it is saved.

    The page lists every file in DIR and its subfolders with a 'game:' line, draws the chosen
    one as 'boardgen diagram FILE' does, with a theme and a paper switch and links to the
    PDF, SVG and PNG.  A file the engine refuses shows its FILE:LINE error and the line,
    beside the last good drawing, greyed.  Only this computer can open the page (it listens
    on 127.0.0.1).  Ctrl-C stops it.

    \b
    Examples:
      boardgen serve                      # this folder, on http://127.0.0.1:8000/
      boardgen serve my-diagrams --port 8080 --no-open
    """
    from boardgen.publish.serve import serve_folder

    serve_folder(folder, port=port, open_browser=not no_open, say=click.echo)


# --- everything at once -----------------------------------------------------------------


@cli.command()
@click.argument("game", type=click.Choice(GAMES), metavar="GAME")
@click.option("--paper", default="a4", show_default=True,
              help="a4, letter, a3, a5 (a booklet), universal or WxHmm.")
@click.option("--quick", is_flag=True, help="The one-page quick reference instead.")
@click.option("--theme", type=click.Choice(sorted(THEMES)), default="colour",
              show_default=True)
@click.option("--format", "fmt", type=click.Choice(("pdf", "html")),
              help="pdf (to print) or html (to read on screen); default from the -o suffix.")
@click.option("-o", "--output", type=OUTPUT_FILE,
              help="Output file (default: output/GAME-rules.pdf).")
@language_option
def rules(game: str, paper: str, quick: bool, theme: str, fmt: str | None,
          output: Path | None) -> None:
    """Write the complete rule sheet of GAME: rules in our words, the designer's credit,
    every diagram replayed through the engine, and a full-size board to print.

    \b
    Examples:
      boardgen rules copolymer -o output/copolymer-rules.pdf
      boardgen rules o --paper letter --quick
      boardgen rules polygone -o polygone.html
    """
    from boardgen.publish.sheet import check_sheet_paper, render_sheet_html
    from boardgen.publish.typeset import render_sheet_pdf

    paper_size = parse_paper(paper)
    stem = f"{game}-{'quick-reference' if quick else 'rules'}"
    path, fmt = prepare_output(output, fmt, stem, ("pdf", "html"))
    if fmt == "pdf":
        check_sheet_paper(paper_size)
    chosen = theme_named(theme)
    data = render_sheet_pdf(game, paper=paper_size, theme=chosen, quick=quick) \
        if fmt == "pdf" else render_sheet_html(game, theme=chosen, quick=quick)
    emit(path, data)


@cli.command()
@click.argument("game", type=click.Choice(GAMES), metavar="GAME")
@click.option("--paper", default="a4", show_default=True,
              help="a4, letter, a3, a5 (a booklet), universal (prints unchanged on A4 and "
              "Letter) or WxHmm.")
@click.option("--theme", type=click.Choice(sorted(THEMES)), default="colour",
              show_default=True, help="ink: black lines and patterns only.")
@click.option("-o", "--output", type=OUTPUT_FILE,
              help="Output file (default: output/GAME-kit.pdf).")
@click.option("--shop", type=click.Choice(SHOP_NAMES),
              help="For a print shop: each page trimmed to --paper, with bleed and crop "
              "marks, in CMYK as PDF/X (generic, tgc, mounted; see 'boardgen board --help').")
@click.option("--bleed", type=float, metavar="MM",
              help="For a print shop, with this bleed in mm (default: the --shop's).")
@click.option("--crop-marks/--no-crop-marks", default=True, show_default=True,
              help="Crop marks outside the bleed (with --shop or --bleed).")
@language_option
def kit(game: str, paper: str, theme: str, output: Path | None, shop: str | None,
        bleed: float | None, crop_marks: bool) -> None:
    """Write a print-and-play kit of GAME: one PDF with everything needed to play, in
    printing order.

    \b
    Every kit starts with the rule sheet and the quick reference, then:
    KITS
    Print at 100 % (actual size); run 'boardgen calibrate' first to check the printer.

    \b
    Examples:
      boardgen kit polygone
      boardgen kit o --paper letter --theme ink -o o-kit.pdf
    """
    from boardgen.publish.kit import kit_file_name, render_kit
    from boardgen.publish.sheet import check_sheet_paper

    paper_size = parse_paper(paper)
    check_sheet_paper(paper_size)
    made_shop, _ = made_options(game_named(game), shop=shop, bleed=bleed,
                                crop_marks=crop_marks)
    stem = kit_file_name(game).removesuffix(".pdf")
    path = _pdf_output(output, stem + (f"-{made_shop.name}" if made_shop else ""), "a kit")
    chosen = theme_named(theme)
    data = render_kit(game, paper=paper_size, theme=chosen)
    if made_shop is not None:
        from boardgen.render.paper import PageInfo
        from boardgen.render.shop import impose_for_shop

        description = game_named(game)
        data = impose_for_shop(data, theme=chosen, shop=made_shop,
                               info=PageInfo(f"{description.name}: print-and-play kit",
                                             f"{description.name} kit for a print shop"))
    emit(path, data)


@cli.command()
@click.option("--paper", default="a4", show_default=True,
              help="a4, letter, a3, a5 (a booklet), universal or WxHmm (at least A5).")
@click.option("-o", "--output", type=OUTPUT_FILE,
              help="Output file (default: output/calibrate.pdf).")
@language_option
def calibrate(paper: str, output: Path | None) -> None:
    """Write a one-page printer check: 100 mm bars across and down, a 50 mm square, a
    cell of each size --cell-mm suggests with what fits it, grey steps 40 levels apart,
    and what to do when a bar is off.

    Print it at 100 % (actual size) and measure before printing boards.
    """
    from boardgen.publish.calibrate import check_calibration_paper, render_calibration

    paper_size = parse_paper(paper)
    check_calibration_paper(paper_size)
    path = _pdf_output(output, "calibrate", "the printer check")
    emit(path, render_calibration(paper=paper_size))


def _pdf_output(output: Path | None, stem: str, what: str) -> Path:
    """Where a PDF-only command writes: -o FILE.pdf, '-' (standard output) or
    output/STEM.pdf; another suffix is refused before any work."""
    if output is not None and str(output) != STDOUT and not is_folder(output) \
            and output.suffix.lower() != ".pdf":
        raise BoardgenError(f"-o {shown_path(output)}: {what} is a PDF; give a file name "
                            "ending in .pdf")
    path, _ = prepare_output(output, "pdf", stem, ("pdf",))
    return path


@cli.command(name="all")
@click.option("-o", "--output", "out", type=OUTPUT_FOLDER, default=DEFAULT_OUTPUT,
              show_default=True, help="Folder to write into (created if missing).")
@click.option("--paper", default="a4", show_default=True,
              help="a4, letter, a3, a5 (a booklet), universal or WxHmm.")
@click.option("--theme", type=click.Choice(sorted(THEMES)), default="colour",
              show_default=True, help="Draw everything in this theme (ink: black only).")
@click.option("-j", "--jobs", "jobs_count", type=click.IntRange(1, 256),
              help="Build this many files at once, each on its own core.  Default: all the "
              "cores (the files are the same bytes whatever the number).")
@click.option("--lang", "langs", multiple=True, metavar="LANG",
              help="Build in this language (repeat for several).  Default: every language "
              "boardgen knows (en, fr), the others' files named NAME-LANG.pdf.")
def all_command(out: Path, paper: str, theme: str, jobs_count: int | None,
                langs: tuple[str, ...]) -> None:
    """Build the print-and-play kits, the printer check and every rule sheet, board and
    diagram into the output folder, with a progress bar, then a gallery page, index.html,
    linking them all (the kits first).

    A failure on one file is reported by name; the others are still built, and the exit
    code is non-zero at the end.

    Finished files (sheets, kits, boards, diagrams, the printer check) and thumbnails are
    kept for the next build in ~/.cache/boardgen/sheets (or under $XDG_CACHE_HOME, or
    $BOARDGEN_CACHE_DIR), and read back, the same bytes, while nothing they are made from
    changes.  BOARDGEN_OUTPUT_CACHE=off builds them afresh; delete the folder to clear it.
    """
    from boardgen.publish.sheet import check_sheet_paper

    if str(out) == "-":  # every other command's -o - is standard output: never a folder
        raise BoardgenError("-o -: all writes a folder of files, not to standard output; "
                            "name a folder")
    paper_size = parse_paper(paper)
    check_sheet_paper(paper_size)  # the rule sheets' limit, before anything is built
    thumbs = out / "thumbs"
    check_not_own(out, out)  # before a folder is made there
    for folder in (out, thumbs):
        if os.path.lexists(folder) and not is_folder(folder):
            raise BoardgenError(f"-o {shown_path(out)}: {shown_path(folder)} exists and is "
                                "not a folder")
    try:
        thumbs.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise BoardgenError(f"-o {shown_path(out)}: cannot make {shown_path(thumbs)}: "
                            f"{exc.strerror or exc}") from None
    for folder in (out, thumbs):
        check_folder_writable(folder, f"-o {shown_path(out)}")
    chosen = checked_languages(langs)
    jobs = default_jobs(paper_size, theme_named(theme), *((chosen,) if chosen else ()))
    failures: dict[int, list[str]] = {}
    made: set[str] = set()
    # SIGTERM at any point: the workers ended, one line, exit 143 (not only while a pool runs).
    from boardgen.publish.typeset import sheets_memoised

    with terminated_on_sigterm(), diagrams_memoised(), sheets_memoised(), click.progressbar(
            length=len(jobs), label="building", file=sys.stderr,
            item_show_func=lambda name: name) as bar:
        workers = jobs_count or default_workers()
        # closing(): an error or a signal here ends the workers at once, not at exit.
        # Each diagram once, before the jobs that are not read back from the cache: the
        # workers inherit them.
        with contextlib.closing(run_jobs(jobs, workers, functools.partial(
                build_all_diagrams, workers, at_most=len(jobs)))) as results:
            for built in results:
                job = jobs[built.index]
                problems = failures.setdefault(built.index, list(built.failures))
                try:
                    if built.data is not None:
                        write_atomic(out / job.name, built.data)
                        made.add(job.name)
                    if built.thumb is not None:
                        write_atomic(thumbs / f"{job.name}.png", built.thumb)
                except Exception as exc:
                    problems.append(f"{job.name}: {why_failed(exc)}")
                bar.update(1, job.name)
    # In the jobs' order, whatever order they finished in.
    failures_listed = [line for index in sorted(failures) for line in failures[index]]
    write_atomic(out / "index.html",
                 gallery_html(jobs, made, failures_listed).encode("utf-8"))
    for failure in failures_listed:
        click.echo(f"boardgen all: failed: {failure}", err=True)
    click.echo(f"wrote {len(made)} of {len(jobs)} files and index.html into "
               f"{click.format_filename(out)}")
    if failures_listed:
        sys.exit(1)


def _name_the_games(*commands: click.Command) -> None:
    """Each command's help names the games it takes, the installed plug-ins' too."""
    line = f"GAME is one of: {', '.join(GAMES)}."
    for command in commands:
        first, _, rest = inspect.cleandoc(command.help or "").partition("\n\n")
        command.help = f"{first}\n\n{line}\n\n{rest}" if rest else f"{first}\n\n{line}"


_name_the_games(board, play, diagram, rules)
# What each game's kit holds, as the game declares it (a plug-in's too).
kit.help = (kit.help or "").replace("KITS", "\n    ".join(
    f"  {key:<10} {game.kit.contents}" for key, game in GAMES_BY_KEY.items()
    if game.kit.contents and game.has_sheet()))


# --- entry point ------------------------------------------------------------------------


def _one_line(text: str) -> str:
    """A message on one line, quoting at most MAX_QUOTED_CHARS of any input it quotes."""
    return clip_quotes(" ".join(part.strip() for part in text.strip().splitlines()
                                if part.strip()))


def _leave(code: int, argv: Sequence[str] | None) -> NoReturn:
    """Exit with ``code`` after Ctrl-C or SIGTERM.  When the process is the command (no
    ``argv`` given), without the interpreter's exit: that joins the worker pool's thread,
    which may wait forever on a result a worker was killed halfway through writing (a kit
    is larger than a pipe holds).  Every file is already whole or removed by then (atomic
    writes, finally blocks)."""
    if argv is None:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)
    sys.exit(code)


def main(argv: Sequence[str] | None = None) -> None:
    """Run the command line; turn every bad-input error into one line and exit code 2."""
    args = list(sys.argv[1:] if argv is None else argv)
    if argv is None:
        # A command builds tens of thousands of objects that live until it ends (cells,
        # their shapes, markup) and hold no cycles: at the default threshold (700
        # allocations) the collector walks them again and again, 15-20 % of a large
        # board's time.  Only when the process is the command (run from the shell): a
        # caller of main(ARGS) keeps its own collector's settings.
        gc.set_threshold(100_000, 10, 10)
        # SIGTERM at any point ends the command in one line, exit 143 (boardgen.__main__
        # does this before the import; `python -c "...main()"` comes here first).
        signal.signal(signal.SIGTERM, raise_terminated)
        # cairo's declarations parsed once per installation: the command's process uses
        # cairocffi only through boardgen (a library's caller keeps cairocffi whole).
        keep_declarations()
    for problem in problems:  # a game plug-in left out: the other games still work
        click.echo(f"boardgen: warning: {problem}", err=True)
    try:
        if not HELP_FLAGS & set(args):
            check_source_date_epoch()  # before any work: every PDF would fail on it
        with inputs_noted():  # the writer refuses to write onto any of them
            cli.main(args=args, prog_name="boardgen", standalone_mode=False)
    except click.exceptions.NoArgsIsHelpError as exc:
        click.echo(exc.ctx.get_help() if exc.ctx else "", err=False)
    except click.UsageError as exc:
        where = exc.ctx.command_path if exc.ctx else "boardgen"
        click.echo(f"{where}: error: {_one_line(exc.format_message())}", err=True)
        sys.exit(2)
    except click.ClickException as exc:
        click.echo(f"boardgen: error: {_one_line(exc.format_message())}", err=True)
        sys.exit(2)
    except BoardgenError as exc:
        click.echo(f"boardgen: error: {_one_line(exc.worded(cli_flag))}", err=True)
        sys.exit(2)
    except (click.exceptions.Abort, KeyboardInterrupt):  # Ctrl-C, in a command or around it
        click.echo("boardgen: interrupted", err=True)
        _leave(130, argv)
    except Terminated as exc:  # SIGTERM (or SIGHUP): workers ended, temporary files gone
        click.echo(f"boardgen: {'hung up' if exc.signum == 1 else 'terminated'}", err=True)
        _leave(128 + exc.signum, argv)
    except OSError as exc:
        # The machine, not the input: a full disk, a vanished folder.
        target = f" ({shown_path(str(exc.filename))})" if exc.filename else ""
        click.echo(f"boardgen: error: {exc.strerror or exc}{target}", err=True)
        sys.exit(1)
    except MemoryError:
        # The machine too: the limits (boardgen.limits) keep every request they allow to
        # a few hundred MB, so this is a machine with less (a ulimit, a container), like a
        # full disk: exit 1, not 2, which says the request itself was refused.
        click.echo("boardgen: error: out of memory: this machine could not hold the work "
                   "(try a smaller board, fewer panels, or .svg instead of .png)", err=True)
        sys.exit(1)
    except Exception as exc:  # a bug: say so in one line; the traceback is one variable away
        if os.environ.get("BOARDGEN_DEBUG"):
            raise
        click.echo(f"boardgen: internal error: {type(exc).__name__}: {exc} "
                   "(set BOARDGEN_DEBUG=1 for the traceback and please report it)", err=True)
        sys.exit(1)


if __name__ == "__main__":
    main()
