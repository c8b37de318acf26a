"""boardgen's Python API: the command line's work as functions with keyword-only options.

Everything here is re-exported from ``boardgen`` (lazily, so ``import boardgen`` stays
light); the README shows each function in use, and the test suite runs those examples.
The options are checked by :mod:`boardgen.requests`, as the command line's are; every
refusal is a :class:`~boardgen.errors.BoardgenError` naming the argument at fault.
"""

from __future__ import annotations

import os
import random
from collections.abc import Iterable
from pathlib import Path
from typing import Literal, overload

from boardgen.errors import BoardgenError, option
from boardgen.games.registry import GAMES, Position, load_diagram_file, render_position
from boardgen.render.diagram import Diagram, draw_diagram
from boardgen.requests import (
    DrawOptions,
    Format,
    LabelMode,
    Mask,
    Orientation,
    PlayRequest,
    ShapeName,
    ThemeName,
    board_request,
    board_size,
    checked_format,
    draw_options,
    game_of,
    glyph_table,
    need,
    play_request,
    quoted,
)

__all__ = ["Diagram", "Engine", "Position", "board", "diagram", "draw", "engine",
           "game_names", "load_diagram", "play"]

Glyphs = str | dict[str, str]  # the text of a glyph file, or glyph -> ruling


def game_names() -> list[str]:
    """The games boardgen knows, by their command-line names."""
    return list(GAMES)


def _play_request(game: str, *, side: int | None, preset: str | None, diameter: int | None,
                  shape: ShapeName, mask: Mask | None, first: str | None, start: str | None,
                  partisan: bool, glyphs: Glyphs | None) -> PlayRequest:
    description = game_of(game)
    if start is not None:
        need(start, str, "start")
    return play_request(description, board_size(side=side, preset=preset, diameter=diameter,
                                                shape=shape, mask=mask),
                        first=first, start=(start, "start") if start is not None else None,
                        partisan=partisan, glyphs=glyph_table(glyphs))


def play(game: str, moves: str | Iterable[str] = "", *, side: int | None = None,
         preset: str | None = None, diameter: int | None = None, shape: ShapeName = "hexhex",
         mask: Mask | None = None, first: str | None = None, start: str | None = None,
         partisan: bool = False, glyphs: Glyphs | None = None) -> Position:
    """Replay ``moves`` (a string as on the command line, or a list of moves) through the
    game's engine and return the position.  An illegal move raises BoardgenError naming
    its number, the move and the reason.

    ``side``, ``preset``, ``diameter``, ``shape`` and ``mask`` (a shape drawn as text, or a
    ``Path`` to a file of one) choose a hex board (Copolymer and O), as on the command line;
    ``first`` and ``start`` (a position drawn as text) are Copolymer's; ``partisan`` and
    ``glyphs`` (a glyph table: the text of a glyph file, or a dict) are O's.
    """
    request = _play_request(game, side=side, preset=preset, diameter=diameter, shape=shape,
                            mask=mask, first=first, start=start, partisan=partisan,
                            glyphs=glyphs)
    need(moves, (str, list, tuple), "moves")
    position = request.new_position()
    position.play(moves)
    return position


class Engine:
    """A game in progress, for a program that plays it: an AI player, an analysis script.

    Moves are text in the game's own notation, the same that ``boardgen play --moves``
    takes: a cell name such as ``"D4"`` for Copolymer and O, ``"c0-c2>d1"`` for Polygone.
    Made by :func:`engine`; ``position`` is the position so far, ready for :func:`draw`.
    """

    def __init__(self, request: PlayRequest) -> None:
        self._request = request
        self.position = request.new_position()
        self.moves: list[str] = []  # the moves played, as given

    @property
    def game(self) -> str:
        """The game's command-line name."""
        return self.position.game.key

    def legal(self) -> list[str]:
        """Every move the player to move may make, in a fixed order; [] once over."""
        return self.position.legal_moves()

    def play(self, move: str) -> None:
        """Play one move; a refused move raises BoardgenError with the reason and changes
        nothing."""
        need(move, str, "move")
        self.position.play([move])
        self.moves.append(move)

    @property
    def over(self) -> bool:
        return self.position.over

    @property
    def winner(self) -> str | None:
        """The winner once the game is over (Copolymer: x or o; O: first or second, or
        left or right; Polygone: white or black), else None."""
        return self.position.winner

    @property
    def to_move(self) -> str | None:
        """Who plays next, named as ``winner`` is; None once the game is over."""
        return self.position.to_move

    def random_legal(self, rng: random.Random) -> str:
        """A legal move chosen with ``rng``: the same seed gives the same moves."""
        if not isinstance(rng, random.Random):
            raise BoardgenError(f"{option('rng')}: expected a random.Random, not "
                                f"{quoted(rng)}")
        legal = self.legal()
        if not legal:
            raise BoardgenError(f"the game is over: {self.game} has no legal move")
        return legal[rng.randrange(len(legal))]

    def to_json(self) -> dict[str, object]:
        """The position as ``boardgen play GAME --json`` prints it (a stable contract)."""
        return self.position.to_json()

    def copy(self) -> Engine:
        """An independent copy, to try moves on."""
        twin = Engine(self._request)
        for move in self.moves:
            twin.play(move)
        return twin

    def __repr__(self) -> str:
        state = f"{self.winner} won" if self.over else f"{self.to_move} to move"
        return f"<boardgen.Engine {self.game}: {len(self.moves)} moves, {state}>"


def engine(game: str, *, side: int | None = None, preset: str | None = None,
           diameter: int | None = None, shape: ShapeName = "hexhex", mask: Mask | None = None,
           first: str | None = None, start: str | None = None, partisan: bool = False,
           glyphs: Glyphs | None = None) -> Engine:
    """A game at its start, as an :class:`Engine` to play move by move.  The options are
    :func:`play`'s."""
    return Engine(_play_request(game, side=side, preset=preset, diameter=diameter, shape=shape,
                                mask=mask, first=first, start=start, partisan=partisan,
                                glyphs=glyphs))


def diagram(game: str, name: str, *, glyphs: Glyphs | None = None) -> Diagram:
    """One of a game's built-in diagrams (``boardgen diagram GAME --list`` names them);
    O's glyph charts take a glyph table, as :func:`play` does."""
    description = game_of(game)
    need(name, str, "name")
    return description.diagram(name, glyphs=glyph_table(glyphs))


def _path(path: object) -> Path:
    need(path, (str, os.PathLike), "path")
    text = os.fspath(path)  # type: ignore[call-overload]
    if not isinstance(text, str):
        raise BoardgenError(f"{option('path')}: expected a file name as text, not bytes")
    if "\x00" in text:
        raise BoardgenError(f"{option('path')} {quoted(text)}: a file name holds no NUL "
                            "character")
    return Path(text)


def load_diagram(path: str | os.PathLike[str], *, glyphs: Glyphs | None = None) -> Diagram:
    """A diagram file from anywhere on disk, replayed and checked by the engine; a problem
    raises BoardgenError as ``FILE:LINE: what is wrong``."""
    source = _path(path)
    table = glyph_table(glyphs)
    try:
        return load_diagram_file(source, glyphs=table)[1]
    except OSError as exc:  # a name too long for the system, a folder we may not read
        raise BoardgenError(f"{option('path')} {quoted(str(source))}: "
                            f"{exc.strerror or exc}") from None


@overload
def draw(subject: Position | Diagram | Engine, fmt: Literal["svg"] = ..., *,
         paper: str = ..., theme: ThemeName = ..., cell_mm: float | None = ...,
         dpi: int = ..., title: str | None = ...) -> str: ...


@overload
def draw(subject: Position | Diagram | Engine, fmt: Literal["pdf", "png"], *,
         paper: str = ..., theme: ThemeName = ..., cell_mm: float | None = ...,
         dpi: int = ..., title: str | None = ...) -> bytes: ...


def draw(subject: Position | Diagram | Engine, fmt: Format = "svg", *, paper: str = "a4",
         theme: ThemeName = "colour", cell_mm: float | None = None, dpi: int = 150,
         title: str | None = None) -> str | bytes:
    """A position or a diagram drawn to SVG (text), PDF or PNG (bytes), at exact scale.
    ``title`` replaces a position's heading ("Copolymer after 5 moves")."""
    checked_format(fmt)
    if isinstance(subject, Engine):
        subject = subject.position
    if not isinstance(subject, Position | Diagram):
        raise BoardgenError(f"{option('subject')}: expected Position or Diagram (or an "
                            f"Engine), not {quoted(subject)}")
    options = draw_options(paper=paper, theme=theme, cell_mm=cell_mm, dpi=dpi, title=title)
    data = _draw(subject, fmt, options)
    return data.decode("utf-8") if fmt == "svg" else data


def _draw(subject: Position | Diagram, fmt: str, options: DrawOptions) -> bytes:
    if isinstance(subject, Position):
        return render_position(subject, fmt, paper=options.paper, theme=options.theme,
                               cell_mm=options.cell_mm, dpi=options.dpi, title=options.title)
    return draw_diagram(subject, "", subject.title, fmt, paper=options.paper,
                        theme=options.theme, cell_mm=options.cell_mm, dpi=options.dpi)


@overload
def board(game: str, fmt: Literal["svg"], *, side: int | None = ..., preset: str | None = ...,
          diameter: int | None = ..., shape: ShapeName = ..., mask: Mask | None = ...,
          labels: LabelMode = ..., theme: ThemeName = ..., paper: str = ...,
          orientation: Orientation = ..., title: str | None = ..., cell_mm: float | None = ...,
          dpi: int = ...) -> str: ...


@overload
def board(game: str, fmt: Literal["pdf", "png"] = ..., *, side: int | None = ...,
          preset: str | None = ..., diameter: int | None = ..., shape: ShapeName = ...,
          mask: Mask | None = ..., labels: LabelMode = ..., theme: ThemeName = ...,
          paper: str = ..., orientation: Orientation = ..., title: str | None = ...,
          cell_mm: float | None = ..., dpi: int = ...) -> bytes: ...


def board(game: str, fmt: Format = "pdf", *, side: int | None = None, preset: str | None = None,
          diameter: int | None = None, shape: ShapeName = "hexhex", mask: Mask | None = None,
          labels: LabelMode = "outside", theme: ThemeName = "colour", paper: str = "a4",
          orientation: Orientation = "auto", title: str | None = None,
          cell_mm: float | None = None, dpi: int = 150) -> str | bytes:
    """An empty board at exact scale, as ``boardgen board`` prints it: every game (for
    Polygone the board and, in a PDF, a sheet of pieces; ``cell_mm`` is its hole spacing),
    tiled across pages if needed.  ``mask`` is a shape drawn as text, or a ``Path`` to a
    file of one; ``title`` None prints the game's name, '' none."""
    description = game_of(game)
    checked_format(fmt)
    request = board_request(description, board_size(side=side, preset=preset,
                                                    diameter=diameter, shape=shape, mask=mask),
                            paper=paper, theme=theme, cell_mm=cell_mm, dpi=dpi, title=title,
                            orientation=orientation, labels=labels,
                            pages_checked=fmt == "pdf")
    data = request.render(fmt)
    return data.decode("utf-8") if fmt == "svg" else data
