"""A game's pictures drawn: named diagrams, positions and strips of positions.

The games emit neutral pictures (boardgen.picture) and the renderer draws any picture;
this module joins the two for the command line, the API and the gallery, with the page
furniture each game gives its pictures.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from boardgen.errors import BoardgenError
from boardgen.games.protocol import Game, GameOptions, Position
from boardgen.games.registry import build_diagram, game_named
from boardgen.picture import Animation, Diagram, Panel, diagram_animation
from boardgen.render.paper import Paper, parse_paper
from boardgen.render.scene import THEMES, Theme

# The drawer (and reportlab, svgwrite behind it) is imported when a picture is drawn:
# replaying moves or printing --help must not pay for it (tests/packaging/test_speedups.py).


def draw_game_diagram(game: Game, name: str, diagram: Diagram, fmt: str, *, paper: Paper,
                      theme: Theme, cell_mm: float | None = None, dpi: int = 150,
                      options: GameOptions | None = None, fit: bool = False) -> bytes:
    """A diagram of ``game`` drawn with the game's page furniture: the one drawing of
    ``boardgen diagram`` (a NAME or a FILE), the gallery and ``boardgen serve``.
    ``options``: the game's own options it was built with (the furniture may depend on
    them: a table given replaces the one a diagram note speaks of); ``fit``: a page
    cropped to the drawing."""
    from boardgen.render.diagram import draw_diagram

    return draw_diagram(diagram, game.key, name, fmt, paper=paper, theme=theme,
                        cell_mm=cell_mm, dpi=dpi, info=game.diagram_info(name, options),
                        fit=fit)


def render_diagram(game: str, name: str, fmt: str, *, paper: Paper, theme: Theme,
                   cell_mm: float | None = None, dpi: int = 150,
                   options: GameOptions | None = None) -> bytes:
    """Build the named diagram from the engine and draw it: a built-in game's diagram with
    its own options is read from the cache of finished files when an earlier build drew
    the same (boardgen.publish.sheet_cache)."""
    def drawn() -> bytes:
        return draw_game_diagram(game_named(game), name,
                                 build_diagram(game, name, options=options), fmt, paper=paper,
                                 theme=theme, cell_mm=cell_mm, dpi=dpi, options=options)

    if options is not None:  # a table of the caller's: not described by the key
        return drawn()
    from boardgen.publish.sheet_cache import cached_sheet

    return cached_sheet(f"diagram-{fmt}", game, {"name": name, "paper": paper, "theme": theme,
                                                  "cell_mm": cell_mm, "dpi": dpi}, drawn)


def render_position(position: Position, fmt: str, *, paper: Paper | None = None,
                    theme: Theme | None = None, cell_mm: float | None = None,
                    dpi: int = 150, title: str | None = None, fit: bool = False) -> bytes:
    """The position as one panel (SVG text as UTF-8 bytes, PDF or PNG bytes); ``fit``: on
    a page cropped to it, with no title band unless ``title`` gives one."""
    from boardgen.render.diagram import draw_diagram

    game = position.game
    if fit and title is None:
        title = ""  # a fitted drawing goes into a document of one's own, titled there
    return draw_diagram(position.diagram(title), game.key, "position", fmt,
                        paper=paper or parse_paper("a4"), theme=theme or THEMES["colour"],
                        cell_mm=cell_mm, dpi=dpi, info=game.position_info(), fit=fit)


def draw_panels(game: Game, heading: str, scenes: Sequence[Panel], fmt: str,
                *, paper: Paper | None = None, theme: Theme | None = None,
                cell_mm: float | None = None, dpi: int = 150, note: str | None = None,
                fit: bool = False) -> bytes:
    """Pictures of positions in one row of panels (``play -o``, and ``--every``'s strip,
    whose ``note`` says what the numbers are); ``fit``: on a page cropped to them."""
    from boardgen.render.diagram import draw_diagram

    return draw_diagram(game.panels(heading, scenes, note), game.key, "position", fmt,
                        paper=paper or parse_paper("a4"), theme=theme or THEMES["colour"],
                        cell_mm=cell_mm, dpi=dpi, info=game.position_info(), fit=fit)


def position_animation(position: Position, *, title: str | None = None,
                       moves: list[str] | None = None) -> Animation:
    """The moves that led to ``position`` replayed from its start, a frame after each (or
    ``moves`` from the position as it stands)."""
    if moves is not None:
        return position.animation(moves, title)
    if position.restart is None:
        raise BoardgenError("this position cannot be replayed from its start: make it with "
                            "boardgen.play or boardgen.engine to animate it")
    if not position.written:
        raise BoardgenError("nothing to animate: the position has no moves")
    return position.restart().animation(position.written, title)


def render_animation_of(subject: Position | Diagram | Animation, fmt: str, *, theme: Theme,
                        move_ms: int, hold_ms: int, dpi: int, cell_mm: float | None = None,
                        loop: bool = True, title: str | None = None, line: int | None = None
                        ) -> bytes:
    """A position's moves (replayed from its start), a diagram's lines of play (``line``:
    one of them, counting from 1), or an animation already built, drawn in ``fmt`` (gif,
    png for an animated PNG, svg; SVG as UTF-8 bytes)."""
    from boardgen.render.animation import render_animation

    if isinstance(subject, Position):
        animation = position_animation(subject, title=title)
    elif isinstance(subject, Diagram):
        animation = diagram_animation(subject, line)
        if title is not None:
            animation = replace(animation, title=title)
    else:
        animation = subject
    return render_animation(animation, fmt, theme=theme, move_ms=move_ms, hold_ms=hold_ms,
                            dpi=dpi, cell_mm=cell_mm, loop=loop)
