"""The games boardgen knows, listed once: the built-in ones, then any installed package's
games registered under the ``boardgen.games`` entry-point group.

A plug-in's entry point names a :class:`boardgen.games.protocol.Game` instance (or a
subclass of Game, which is then instantiated); its name must be the game's key.  Plug-ins
are loaded on first use of the list, not when boardgen is imported (and not at all with
the environment variable ``BOARDGEN_DISABLE_PLUGINS=1``).  One that cannot be
loaded, or whose key is taken, is left out and the reason kept in :data:`problems` (the
command line prints it as a warning): a broken plug-in never breaks the built-in games.

The command line, the gallery and the sheets read these descriptions instead of switching
on game names.  Nothing here imports a renderer.
"""

from __future__ import annotations

import functools
import os
import re
from collections.abc import Iterator
from contextlib import contextmanager
from importlib.metadata import entry_points
from pathlib import Path

from boardgen.errors import BoardgenError
from boardgen.games.copolymer.game import COPOLYMER
from boardgen.games.free.game import FREE
from boardgen.games.o.game import O_GAME
from boardgen.games.polygone.game import POLYGONE
from boardgen.games.protocol import (
    TEMPLATES,
    Game,
    GlyphTable,
    HexBoards,
    PlayOptions,
    Position,
)
from boardgen.games.script import directive_owners_with
from boardgen.picture import Diagram
from boardgen.text import quoted, read_once

__all__ = ["BUILT_IN", "ENTRY_POINT_GROUP", "Game", "GlyphTable", "HexBoards",
           "PlayOptions", "Position", "TEMPLATES", "build_diagram", "diagram_file_game",
           "diagrams_memoised", "game_named", "games", "load_diagram_file", "new_position",
           "problems", "remember_diagram"]

ENTRY_POINT_GROUP = "boardgen.games"
BUILT_IN: tuple[Game, ...] = (COPOLYMER, O_GAME, POLYGONE, FREE)
KEY = re.compile(r"^[a-z][a-z0-9-]{0,30}$")  # a game's command-line name
problems: list[str] = []  # plug-ins left out, and why


@functools.cache
def games() -> dict[str, Game]:
    """Every game by key: the built-in ones, then the plug-ins (each loaded once)."""
    found: dict[str, Game] = {game.key: game for game in BUILT_IN}
    if os.environ.get("BOARDGEN_DISABLE_PLUGINS", "") not in ("", "0"):
        return found
    for point in sorted(entry_points(group=ENTRY_POINT_GROUP), key=lambda p: p.name):
        where = f"game plug-in {point.name!r} ({point.value})"
        try:
            loaded = point.load()
            game = loaded() if isinstance(loaded, type) and issubclass(loaded, Game) \
                else loaded
        except Exception as exc:  # a third party's bug must not break the other games
            problems.append(f"{where}: cannot be loaded: {type(exc).__name__}: {exc}")
            continue
        if not isinstance(game, Game):
            problems.append(f"{where}: is not a boardgen.games.protocol.Game")
        elif game.key != point.name or not KEY.match(game.key):
            problems.append(f"{where}: its key {game.key!r} must be its entry point's name, "
                            "lower-case letters, digits and hyphens")
        elif game.key in found:
            problems.append(f"{where}: the name {game.key!r} is taken")
        else:
            found[game.key] = game
    return found


def __getattr__(name: str) -> dict[str, Game]:
    """``GAMES``: every game by key, loaded on first use (see :func:`games`)."""
    if name == "GAMES":
        return games()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _directive_owners(key: str) -> list[str]:
    """The games whose diagram files take a directive (for the runner's errors)."""
    return [game.key for game in games().values() if key in game.diagram_directives()]


directive_owners_with(_directive_owners)


def game_named(key: str) -> Game:
    known = games()
    try:
        return known[key]
    except KeyError:
        raise BoardgenError(f"unknown game {quoted(key)} (choose from {', '.join(known)})") \
            from None


def new_position(game: str, options: PlayOptions | None = None) -> Position:
    """The start of a game (the empty board, a drawn position, or a set-up)."""
    description = game_named(game)
    return description.new_position(options or PlayOptions())


# --- diagrams ------------------------------------------------------------------------------

_MEMO: list[dict[tuple[str, str], Diagram]] = []  # the diagrams built so far, when memoised


def build_diagram(game: str, name: str, *, glyphs: GlyphTable | None = None) -> Diagram:
    """The named diagram of a game (``templates/GAME/NAME.txt`` or a generated figure);
    inside :func:`diagrams_memoised`, built once however often it is asked for."""
    if glyphs is not None or not _MEMO:
        return game_named(game).diagram(name, glyphs=glyphs)
    memo = _MEMO[-1]
    key = (game, name)
    if key not in memo:
        memo[key] = game_named(game).diagram(name)
    return memo[key]


@contextmanager
def diagrams_memoised() -> Iterator[None]:
    """Build each built-in diagram once while inside (``boardgen all`` draws each several
    times: its PDF, its SVG, and in the rule sheets).  Not for longer: a template may be
    edited between two commands of one Python session."""
    _MEMO.append({})
    try:
        yield
    finally:
        _MEMO.pop()


def remember_diagram(game: str, name: str, diagram: Diagram) -> None:
    """Put a diagram built elsewhere (another process) into the memo, if one is open."""
    if _MEMO:
        _MEMO[-1][(game, name)] = diagram


def diagram_file_game(path: Path) -> Game:
    """The game a diagram file is written for: its ``game:`` line, or else the game whose
    template folder it lies in."""
    from boardgen.games.script import read_directives

    known = games()
    line = next((d for d in read_directives(path) if d.key == "game"), None)
    if line is not None:
        declared = line.value.strip().lower()
        if declared not in known:
            raise BoardgenError(f"{path}:{line.line}: unknown game {quoted(declared)} in its "
                                f"'game:' line (choose from {', '.join(known)})")
        return known[declared]
    folder = path.resolve().parent
    for game in known.values():
        if folder == game.template_folder.resolve():
            return game
    raise BoardgenError(f"{path}: the file does not say which game it is for; add a line "
                        f"'game: {'|'.join(known)}' at the top")


def load_diagram_file(path: Path, *, glyphs: GlyphTable | None = None) -> tuple[Game, Diagram]:
    """Replay a diagram file from anywhere on disk; every claim checked by the engine.
    The file is read once (its 'game:' line and its replay read the same text): it may be
    /dev/stdin or ``<(command)``."""
    with read_once():
        game = diagram_file_game(path)
        game.check_glyphs(glyphs)
        return game, game.load_file(path, glyphs)
