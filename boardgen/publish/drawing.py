"""A game's pictures drawn: named diagrams, positions and strips of positions.

The games emit neutral pictures (boardgen.picture) and the renderer draws any picture;
this module joins the two for the command line, the API and the gallery, with the page
furniture each game gives its pictures.
"""

from __future__ import annotations

from collections.abc import Sequence

from boardgen.games.protocol import Game, GameOptions, Position
from boardgen.games.registry import build_diagram, game_named
from boardgen.picture import Diagram, Panel
from boardgen.render.paper import Paper, parse_paper
from boardgen.render.scene import THEMES, Theme

# The drawer (and reportlab, svgwrite behind it) is imported when a picture is drawn:
# replaying moves or printing --help must not pay for it (tests/test_speed.py).


def draw_game_diagram(game: Game, name: str, diagram: Diagram, fmt: str, *, paper: Paper,
                      theme: Theme, cell_mm: float | None = None, dpi: int = 150) -> bytes:
    """A diagram of ``game`` drawn with the game's page furniture: the one drawing of
    ``boardgen diagram`` (a NAME or a FILE), the gallery and ``boardgen serve``."""
    from boardgen.render.diagram import draw_diagram

    return draw_diagram(diagram, game.key, name, fmt, paper=paper, theme=theme,
                        cell_mm=cell_mm, dpi=dpi, info=game.diagram_info(name))


def render_diagram(game: str, name: str, fmt: str, *, paper: Paper, theme: Theme,
                   cell_mm: float | None = None, dpi: int = 150,
                   options: GameOptions | None = None) -> bytes:
    """Build the named diagram from the engine and draw it."""
    return draw_game_diagram(game_named(game), name, build_diagram(game, name, options=options),
                             fmt, paper=paper, theme=theme, cell_mm=cell_mm, dpi=dpi)


def render_position(position: Position, fmt: str, *, paper: Paper | None = None,
                    theme: Theme | None = None, cell_mm: float | None = None,
                    dpi: int = 150, title: str | None = None) -> bytes:
    """The position as one panel (SVG text as UTF-8 bytes, PDF or PNG bytes)."""
    from boardgen.render.diagram import draw_diagram

    game = position.game
    return draw_diagram(position.diagram(title), game.key, "position", fmt,
                        paper=paper or parse_paper("a4"), theme=theme or THEMES["colour"],
                        cell_mm=cell_mm, dpi=dpi, info=game.diagram_info("position"))


def draw_panels(game: Game, heading: str, scenes: Sequence[Panel], fmt: str,
                *, paper: Paper | None = None, theme: Theme | None = None,
                cell_mm: float | None = None, dpi: int = 150, note: str | None = None
                ) -> bytes:
    """Pictures of positions in one row of panels (``play -o``, and ``--every``'s strip,
    whose ``note`` says what the numbers are)."""
    from boardgen.render.diagram import draw_diagram

    return draw_diagram(game.panels(heading, scenes, note), game.key, "position", fmt,
                        paper=paper or parse_paper("a4"), theme=theme or THEMES["colour"],
                        cell_mm=cell_mm, dpi=dpi, info=game.diagram_info("position"))
