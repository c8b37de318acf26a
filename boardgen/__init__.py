"""boardgen: printable boards, engine-checked diagrams and rule sheets for abstract games.

The public API (each function's page in the docs shows it in use, and the docs build and
the tests run those examples):

- :func:`boardgen.play` ``(game, moves, ...)``: replay moves through a game's engine; a
  :class:`~boardgen.Position`.
- :func:`boardgen.engine` ``(game, ...)``: a game to play move by move, an
  :class:`~boardgen.Engine` (``legal()``, ``play(move)``, ``over``, ``winner``,
  ``to_move``, ``random_legal(rng)``).
- :func:`boardgen.draw` ``(position_or_diagram, fmt, ...)``: SVG text, or PDF / PNG bytes;
  with ``arrows=``, ``marks=``, ``highlights=`` and ``lastmove=``, a position annotated as
  a diagram file would be, with the same checks.
- :func:`boardgen.diagram` ``(game, name)``, :func:`boardgen.load_diagram` ``(path)`` and
  :func:`boardgen.parse_diagram` ``(text)``: engine-checked diagrams
  (:class:`~boardgen.Diagram`), built in, from a diagram file, or from a diagram file's
  text.
- :func:`boardgen.board` ``(game, fmt, ...)``: an empty board at exact scale.
- :func:`boardgen.animate` ``(position_or_diagram, fmt, ...)``: an animated GIF, APNG or
  SVG of a game's moves or a diagram's lines of play.
- :func:`boardgen.game_names` ``()``: the games' names; :class:`boardgen.BoardgenError`:
  every refusal, its ``field`` naming the argument at fault.

Positions and diagrams display themselves in Jupyter.  Everything else is private.  The
names are loaded on first use, so that ``import boardgen`` stays cheap.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from boardgen._version import __version__ as __version__
from boardgen.errors import BoardgenError

__all__ = ["BoardgenError", "Diagram", "Engine", "Position", "animate", "board", "diagram", "draw",
           "engine", "game_names", "load_diagram", "parse_diagram", "play"]

if TYPE_CHECKING:
    from boardgen.api import (
        Diagram,
        Engine,
        Position,
        animate,
        board,
        diagram,
        draw,
        engine,
        game_names,
        load_diagram,
        parse_diagram,
        play,
    )


def __getattr__(name: str) -> Any:
    if name in __all__:
        from boardgen import api

        return getattr(api, name)
    raise AttributeError(f"module 'boardgen' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted([*__all__, "__version__"])
