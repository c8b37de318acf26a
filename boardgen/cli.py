"""The ``boardgen`` command line: one shape for every game.

Bad input ends with one line on stderr naming what was wrong, exit code 2, and no file.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import click

from boardgen import __version__
from boardgen.errors import BoardgenError
from boardgen.geometry import SHAPES, HexGrid, grid_from_mask, make_shape, shape_cell_count
from boardgen.geometry.hexgrid import MAX_CELLS, MAX_MASK_BYTES
from boardgen.output import check_writable, write_atomic
from boardgen.render.board import (
    FORMATS,
    BoardOptions,
    board_info,
    check_cell_mm,
    render_board,
)
from boardgen.render.diagram import build_diagram, diagram_names, draw_diagram
from boardgen.render.gallery import default_jobs, gallery_html, thumbnail, thumbnail_source
from boardgen.render.paper import ORIENTATIONS, parse_paper
from boardgen.render.polygone_figure import render_polygone_board
from boardgen.render.scene import LABEL_MODES, THEMES, board_scene, theme_named
from boardgen.render.sheet import render_sheet_html, render_sheet_pdf
from boardgen.rules import copolymer
from boardgen.rules import o as o_rules
from boardgen.rules import polygone as polygone_rules

GAMES = ("copolymer", "o", "polygone")
DEFAULT_OUTPUT = Path("output")


@click.group(context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.version_option(__version__, prog_name="boardgen")
def cli() -> None:
    """Printable boards, engine-checked diagrams and rule sheets for Copolymer, O and
    Polygone.

    Every file is drawn at exact scale: a 12 mm cell prints 12 mm wide.  Run
    ``boardgen COMMAND --help`` for each command's options.
    """


# --- choosing the board ---------------------------------------------------------------


def resolve_grid(game: str, side: int | None, preset: str | None, diameter: int | None,
                 shape: str, mask: Path | None) -> HexGrid:
    """The board the options describe; refuses conflicting or impossible sizes before any
    cell is allocated."""
    given = [name for name, value in (("--side", side), ("--preset", preset),
                                      ("--diameter", diameter), ("--mask", mask))
             if value is not None]
    if len(given) > 1:
        raise BoardgenError(f"{' and '.join(given)} both give the board size: use one")
    if mask is not None:
        grid = grid_from_mask(_read_text(mask, "--mask"), str(mask))
    else:
        if (preset or diameter is not None) and shape != "hexhex":
            raise BoardgenError(
                f"--{'preset' if preset else 'diameter'} describes a hexhex board, not a {shape}"
            )
        if preset:
            if game != "copolymer":
                raise BoardgenError("--preset names the Copolymer server's boards; use --side")
            side = copolymer.PRESETS[preset]
        elif diameter is not None:
            if diameter < 3 or diameter % 2 == 0:
                raise BoardgenError(
                    f"--diameter {diameter}: a hexhex board is an odd number of cells across "
                    "(side n is 2n-1 across), at least 3"
                )
            side = (diameter + 1) // 2
        elif side is None:
            side = GAME_INFO[game].default_side
        # Checked here too so that the count is refused before anything is built.
        if side >= 2 and shape_cell_count(shape, side) > MAX_CELLS:
            raise BoardgenError(
                f"--side {side}: a {shape} board of that side has "
                f"{shape_cell_count(shape, side):,} cells, more than the limit of {MAX_CELLS:,}"
            )
        grid = make_shape(shape, side)
    GAME_INFO[game].check_board(grid)
    return grid


def _read_text(path: Path, option: str) -> str:
    """A small UTF-8 text file named by ``option``; every failure is one clear line."""
    try:
        if path.stat().st_size > MAX_MASK_BYTES:
            raise BoardgenError(f"{option} {path}: larger than {MAX_MASK_BYTES:,} bytes")
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise BoardgenError(f"{option} {path}: no such file") from None
    except IsADirectoryError:
        raise BoardgenError(f"{option} {path}: is a folder, not a file") from None
    except UnicodeDecodeError:
        raise BoardgenError(f"{option} {path}: not a UTF-8 text file") from None
    except OSError as exc:
        raise BoardgenError(f"{option} {path}: {exc.strerror}") from None


def board_stem(game: str, grid: HexGrid, mask: Path | None) -> str:
    if mask is not None:
        return f"{game}-mask-{mask.stem}"
    if grid.shape == "hexhex":
        return f"{game}-side{grid.side}"
    return f"{game}-{grid.shape}{grid.side}"


def prepare_output(output: Path | None, fmt: str | None, default_stem: str,
                   formats: tuple[str, ...] = FORMATS) -> tuple[Path, str]:
    """The output path and format, ready to write: the format follows the file's suffix, or
    --format; without -o the file goes into our default folder, which is made if needed; a
    path that cannot be written is refused before any work."""
    if output is None:
        fmt = fmt or formats[0]
        path = DEFAULT_OUTPUT / f"{default_stem}.{fmt}"
        path.parent.mkdir(parents=True, exist_ok=True)
    else:
        suffix = output.suffix.lower().lstrip(".")
        if fmt is None and suffix not in formats:
            choices = ", ".join(f".{f}" for f in formats[:-1]) + f" or .{formats[-1]}"
            raise BoardgenError(f"-o {output}: cannot tell the format from the suffix (use "
                                f"{choices}, or --format)")
        if fmt is not None and suffix in formats and suffix != fmt:
            raise BoardgenError(f"-o {output} ends in .{suffix} but --format is {fmt}")
        path, fmt = output, fmt or suffix
    check_writable(path)
    return path, fmt


@dataclass(frozen=True)
class GameInfo:
    default_side: int
    check_board: Callable[[HexGrid], None]


GAME_INFO = {
    "copolymer": GameInfo(copolymer.DEFAULT_SIDE, copolymer.check_board),
    "o": GameInfo(o_rules.DEFAULT_SIDE, o_rules.check_board),
}


def _refuse_hex_options(side: int | None, preset: str | None, diameter: int | None,
                        shape: str, mask: Path | None) -> None:
    for flag, given in (("--side", side is not None), ("--preset", preset is not None),
                        ("--diameter", diameter is not None), ("--shape", shape != "hexhex"),
                        ("--mask", mask is not None)):
        if given:
            raise BoardgenError(f"{flag} does not apply to Polygone: its board is fixed")


def _read_glyphs(path: Path | None) -> dict[str, str] | None:
    if path is None:
        return None
    return o_rules.parse_glyph_table(_read_text(path, "--glyphs"), str(path))


def board_size_options(command: Callable[..., None]) -> Callable[..., None]:
    """--side, --preset, --diameter, --shape and --mask: the same for every hex command."""
    options = [
        click.option("--side", type=int, help="Cells on each edge (hexhex), or N for an N x N "
                     "rhombus, or the rows of a triangle.  Default 10 (271 cells)."),
        click.option("--preset", type=click.Choice(sorted(copolymer.PRESETS)),
                     help="small, medium or large: sides 5, 7, 10 (the server's 9x9, 13x13, "
                     "19x19)."),
        click.option("--diameter", type=int, help="Cells across the middle row (odd), like "
                     "the server's -size=N."),
        click.option("--shape", type=click.Choice(SHAPES), default="hexhex", show_default=True),
        click.option("--mask", type=click.Path(path_type=Path), help="A custom shape drawn as "
                     "text: one character per cell (. # * o x @), cells two columns apart, "
                     "rows offset by one column."),
    ]
    for option in reversed(options):
        command = option(command)
    return command


@cli.command()
@click.argument("game", type=click.Choice(GAMES), metavar="GAME")
@board_size_options
@click.option("--paper", default="a4", show_default=True,
              help="a4, letter, a3, universal (prints unchanged on A4 and Letter), or WxHmm "
              "such as 300x450mm.")
@click.option("--orientation", type=click.Choice(ORIENTATIONS), default="auto",
              show_default=True, help="auto picks the one with fewer pages or larger cells.")
@click.option("--cell-mm", type=float, help="Cell width flat to flat in mm.  Default: as large "
              "as the paper allows (8-30 mm); a board that does not fit is tiled.  A round "
              "piece fits a cell 1 mm wider than it: 9 for 8 mm beads, 13 for 12 mm glass "
              "counters, 23 for Go stones (22 mm).  Polygone: the hole spacing, which is also "
              "a piece's length.")
@click.option("--labels", type=click.Choice(LABEL_MODES), default="outside",
              show_default=True, help="Cell names in the server notation (F6).")
@click.option("--theme", type=click.Choice(sorted(THEMES)), default="colour",
              show_default=True, help="ink: black lines and patterns only.")
@click.option("--title", help="Title printed above the board (default: the game's name; "
              "'' for none).")
@click.option("--format", "fmt", type=click.Choice(FORMATS),
              help="Output format; default: from the -o suffix, else pdf.")
@click.option("--dpi", type=click.IntRange(36, 1200), default=150, show_default=True,
              help="Resolution of PNG output.")
@click.option("-o", "--output", type=click.Path(path_type=Path),
              help="Output file (default: output/GAME-sideN.pdf).")
def board(game: str, side: int | None, preset: str | None, diameter: int | None, shape: str,
          mask: Path | None, paper: str, orientation: str, cell_mm: float | None, labels: str,
          theme: str, title: str | None, fmt: str | None, dpi: int,
          output: Path | None) -> None:
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
    """
    if game == "polygone":
        _refuse_hex_options(side, preset, diameter, shape, mask)
        paper_size = parse_paper(paper)
        if cell_mm is not None:
            check_cell_mm(cell_mm)
        path, fmt = prepare_output(output, fmt, "polygone-board")
        write_atomic(path, render_polygone_board(fmt, paper=paper_size, theme=theme_named(theme),
                                                 spacing=cell_mm, dpi=dpi, title=title))
        click.echo(f"wrote {path}")
        return
    grid = resolve_grid(game, side, preset, diameter, shape, mask)
    options = BoardOptions(parse_paper(paper), orientation, cell_mm, dpi)
    if cell_mm is not None:
        check_cell_mm(cell_mm)
    path, fmt = prepare_output(output, fmt, board_stem(game, grid, mask))
    data = render_board(board_scene(game, grid, labels), fmt, options,
                        theme=theme_named(theme), info=board_info(game, grid, title))
    write_atomic(path, data)
    click.echo(f"wrote {path}")


@cli.command()
@click.argument("game", type=click.Choice(GAMES), metavar="GAME")
@board_size_options
@click.option("--moves", default="", show_default=True,
              help='Placements in order, separated by spaces: "F6 E5 ..." or axial "0,0".')
@click.option("--first", type=click.Choice(copolymer.PLAYERS),
              help="Copolymer: who places first, or who is to move after --start (default x).")
@click.option("--partisan", is_flag=True, help="O: the partisan variant (Left and Right).")
@click.option("--glyphs", "glyphs_file", type=click.Path(path_type=Path),
              help="O: replace the glyph table from a file of 'glyph: legal|illegal|left|right' "
              "lines.")
@click.option("--start", "start_file", type=click.Path(path_type=Path),
              help="Start from a position drawn as text in the server's style (. x o).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object (a stable "
              "contract: side, to_move, cells, connections, turn_continues, over, winner, "
              "counts).")
def play(game: str, side: int | None, preset: str | None, diameter: int | None, shape: str,
         mask: Path | None, moves: str, first: str | None, partisan: bool,
         glyphs_file: Path | None, start_file: Path | None, as_json: bool) -> None:
    """Replay moves through the GAME engine and print the position.

    \b
    The text shows the board as the play-by-email server draws it.  Copolymer: '.' empty,
    lower case for earlier cells, capitals for the cells of the turn in progress (or the
    last turn).  O: 'o' a stone, 'O' the last one, '*' the stones of a loop.

    \b
    Examples:
      boardgen play copolymer --side 3 --moves "C3 B2 C2 D3" --json
      boardgen play o --side 4 --partisan --moves "D4 A1 G4"
    """
    if game == "polygone":
        _refuse_hex_options(side, preset, diameter, shape, mask)
        for flag, not_here in (("--first", first is not None), ("--start", start_file is not None),
                               ("--partisan", partisan), ("--glyphs", glyphs_file is not None)):
            if not_here:
                raise BoardgenError(f"{flag} does not apply to Polygone")
        pg = polygone_rules.Polygone()
        polygone_rules.replay(pg, moves.split())
        if as_json:
            click.echo(json.dumps(polygone_rules.position_json(pg)))
        else:
            click.echo("\n".join(polygone_rules.text_position(pg)))
        return
    grid = resolve_grid(game, side, preset, diameter, shape, mask)
    if game == "copolymer":
        for flag, o_only in (("--partisan", partisan), ("--glyphs", glyphs_file is not None)):
            if o_only:
                raise BoardgenError(f"{flag} applies to O, not Copolymer")
        engine = copolymer.Copolymer(grid, first=first or "x")
        if start_file is not None:
            cells, _capitals = copolymer.parse_text_position(
                grid, _read_text(start_file, "--start"), str(start_file))
            engine.set_position(cells, first or "x")
        copolymer.replay(engine, moves)
        if as_json:
            side_number = grid.side if grid.shape == "hexhex" else None
            click.echo(json.dumps(copolymer.position_json(engine, side_number)))
        else:
            click.echo("\n".join(copolymer.text_position(engine)))
            click.echo(copolymer.status_line(engine))
        return
    for flag, copolymer_only in (("--first", first is not None),
                                 ("--start", start_file is not None)):
        if copolymer_only:
            raise BoardgenError(f"{flag} applies to Copolymer, not O")
    o_game = o_rules.OGame(grid, partisan=partisan, table=_read_glyphs(glyphs_file))
    o_rules.replay(o_game, moves.split())
    if as_json:
        click.echo(json.dumps(o_rules.position_json(o_game)))
    else:
        click.echo("\n".join(o_rules.text_position(o_game)))
        click.echo(o_rules.status_line(o_game))


@cli.command()
@click.argument("game", type=click.Choice(GAMES), metavar="GAME")
@click.argument("name", required=False)
@click.option("--list", "list_names", is_flag=True, help="List the GAME's diagrams and exit.")
@click.option("--paper", default="a4", show_default=True,
              help="a4, letter, a3, universal or WxHmm.")
@click.option("--cell-mm", type=float, help="Cell width in the panels (default 8 mm).")
@click.option("--theme", type=click.Choice(sorted(THEMES)), default="colour",
              show_default=True)
@click.option("--format", "fmt", type=click.Choice(FORMATS),
              help="Output format; default: from the -o suffix, else pdf.")
@click.option("--dpi", type=click.IntRange(36, 1200), default=150, show_default=True,
              help="Resolution of PNG output.")
@click.option("--glyphs", "glyphs_file", type=click.Path(path_type=Path),
              help="O: replace the glyph table from a file of 'glyph: ruling' lines.")
@click.option("-o", "--output", type=click.Path(path_type=Path),
              help="Output file (default: output/GAME-NAME.pdf).")
def diagram(game: str, name: str | None, list_names: bool, paper: str, cell_mm: float | None,
            theme: str, fmt: str | None, dpi: int, glyphs_file: Path | None,
            output: Path | None) -> None:
    """Draw the diagram NAME of GAME, every position from the engine.

    Copolymer examples are text files under templates/copolymer/, replayed move by move; a
    step the engine refuses, or a claim it disagrees with, stops with the file and line.
    O's figures (glyph chart, corners, partisan glyphs, a loop, a short game) are built
    from the engine's own tables.

    \b
    Examples:
      boardgen diagram copolymer --list
      boardgen diagram copolymer tempo -o output/tempo.pdf
      boardgen diagram o glyphs --glyphs my-chart.txt -o chart.svg
    """
    if list_names:
        for known in diagram_names(game):
            click.echo(known)
        return
    if not name:
        raise click.UsageError(f"missing diagram NAME (one of: {', '.join(diagram_names(game))})")
    glyphs = _read_glyphs(glyphs_file)
    built = build_diagram(game, name, glyphs=glyphs)  # bad names and examples: no file
    paper_size = parse_paper(paper)
    if cell_mm is not None:
        check_cell_mm(cell_mm)
    path, fmt = prepare_output(output, fmt, f"{game}-{name}")
    data = draw_diagram(built, game, name, fmt, paper=paper_size, theme=theme_named(theme),
                        cell_mm=cell_mm, dpi=dpi)
    write_atomic(path, data)
    click.echo(f"wrote {path}")


# --- everything at once -----------------------------------------------------------------


@cli.command()
@click.argument("game", type=click.Choice(GAMES), metavar="GAME")
@click.option("--paper", default="a4", show_default=True,
              help="a4, letter, a3, universal or WxHmm.")
@click.option("--quick", is_flag=True, help="The one-page quick reference instead.")
@click.option("--theme", type=click.Choice(sorted(THEMES)), default="colour",
              show_default=True)
@click.option("--format", "fmt", type=click.Choice(("pdf", "html")),
              help="pdf (to print) or html (to read on screen); default from the -o suffix.")
@click.option("-o", "--output", type=click.Path(path_type=Path),
              help="Output file (default: output/GAME-rules.pdf).")
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
    paper_size = parse_paper(paper)
    stem = f"{game}-{'quick-reference' if quick else 'rules'}"
    path, fmt = prepare_output(output, fmt, stem, ("pdf", "html"))
    chosen = theme_named(theme)
    data = render_sheet_pdf(game, paper=paper_size, theme=chosen, quick=quick) \
        if fmt == "pdf" else render_sheet_html(game, theme=chosen, quick=quick)
    write_atomic(path, data)
    click.echo(f"wrote {path}")


@cli.command(name="all")
@click.option("-o", "--output", "out", type=click.Path(path_type=Path), default=DEFAULT_OUTPUT,
              show_default=True, help="Folder to write into (created if missing).")
@click.option("--paper", default="a4", show_default=True,
              help="a4, letter, a3, universal or WxHmm.")
@click.option("--theme", type=click.Choice(sorted(THEMES)), default="colour",
              show_default=True, help="Draw everything in this theme (ink: black only).")
def all_command(out: Path, paper: str, theme: str) -> None:
    """Build every rule sheet, board and diagram into the output folder, with a progress
    bar, then a gallery page, index.html, linking them all.

    A failure on one file is reported by name; the others are still built, and the exit
    code is non-zero at the end.
    """
    paper_size = parse_paper(paper)
    if out.exists() and not out.is_dir():
        raise BoardgenError(f"-o {out}: exists and is not a folder")
    (out / "thumbs").mkdir(parents=True, exist_ok=True)
    jobs = default_jobs(paper_size, theme_named(theme))
    failures: list[str] = []
    made: set[str] = set()
    with click.progressbar(jobs, label="building", file=sys.stderr,
                           item_show_func=lambda j: j.name if j else None) as bar:
        for job in bar:
            try:
                write_atomic(out / job.name, job.make())
                made.add(job.name)
            except (BoardgenError, OSError) as exc:
                failures.append(f"{job.name}: {exc}")
    with click.progressbar(sorted(made), label="thumbnails", file=sys.stderr) as bar:
        for name in bar:
            source = thumbnail_source(name, made)
            if source is None or source != name:
                continue
            try:
                write_atomic(out / "thumbs" / f"{name}.png", thumbnail(out / name))
            except (BoardgenError, OSError) as exc:
                failures.append(f"thumbnail of {name}: {exc}")
    write_atomic(out / "index.html", gallery_html(jobs, made).encode("utf-8"))
    for failure in failures:
        click.echo(f"boardgen all: failed: {failure}", err=True)
    click.echo(f"wrote {len(made)} of {len(jobs)} files and index.html into {out}")
    if failures:
        sys.exit(1)


# --- entry point ------------------------------------------------------------------------


def _one_line(text: str) -> str:
    return " ".join(part.strip() for part in text.strip().splitlines() if part.strip())


def main(argv: Sequence[str] | None = None) -> None:
    """Run the command line; turn every bad-input error into one line and exit code 2."""
    args = list(sys.argv[1:] if argv is None else argv)
    try:
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
        click.echo(f"boardgen: error: {_one_line(str(exc))}", err=True)
        sys.exit(2)
    except click.exceptions.Abort:
        click.echo("boardgen: interrupted", err=True)
        sys.exit(130)
    except OSError as exc:
        # The machine, not the input: a full disk, a vanished folder.
        target = f" ({exc.filename})" if exc.filename else ""
        click.echo(f"boardgen: error: {exc.strerror or exc}{target}", err=True)
        sys.exit(1)
    except Exception as exc:  # a bug: say so in one line; the traceback is one variable away
        if os.environ.get("BOARDGEN_DEBUG"):
            raise
        click.echo(f"boardgen: internal error: {type(exc).__name__}: {exc} "
                   "(set BOARDGEN_DEBUG=1 for the traceback and please report it)", err=True)
        sys.exit(1)


if __name__ == "__main__":
    main()
