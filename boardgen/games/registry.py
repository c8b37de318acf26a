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
import importlib
import os
import re
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from boardgen.errors import BoardgenError, option
from boardgen.games.copolymer.game import COPOLYMER
from boardgen.games.free.game import FREE
from boardgen.games.o.game import O_GAME
from boardgen.games.polygone.game import POLYGONE
from boardgen.games.protocol import (
    TEMPLATES,
    Game,
    GameOption,
    GameOptions,
    GlyphTable,
    HexBoards,
    PlayOptions,
    Position,
)
from boardgen.games.script import Directive, directive_owners_with, read_directives
from boardgen.games.scripted import ScriptedGame
from boardgen.i18n import language
from boardgen.picture import Diagram, declare_paints
from boardgen.text import quoted, read_once

__all__ = ["BUILT_IN", "ENTRY_POINT_GROUP", "Game", "GameOption", "GameOptions", "GlyphTable",
           "HexBoards", "PlayOptions", "Position", "TEMPLATES", "build_diagram", "check_options",
           "diagram_file_game", "read_diagram_file", "replay_read",
           "diagrams_memoised", "game_named", "games", "load_diagram_file", "new_position",
           "problems", "remember_diagram"]

ENTRY_POINT_GROUP = "boardgen.games"
BUILT_IN: tuple[Game, ...] = (COPOLYMER, O_GAME, POLYGONE, FREE)
KEY = re.compile(r"^[a-z][a-z0-9-]{0,30}$")  # a game's command-line name
problems: list[str] = []  # plug-ins left out, and why


_VALUE = re.compile(r"^(?P<module>[\w.]+)\s*(:\s*(?P<attr>[\w.]+)\s*)?(\[.*\]\s*)?$")


@dataclass(frozen=True)
class EntryPoint:
    """One ``name = module:attribute`` line of a distribution's entry_points.txt."""

    name: str
    value: str

    def load(self) -> Any:  # whatever the plug-in names: checked by games()
        """The object the entry point names, its module imported (as importlib.metadata's
        EntryPoint.load does)."""
        match = _VALUE.match(self.value)
        if match is None:
            raise ValueError(f"{self.value!r} is not 'module:attribute'")
        found: Any = importlib.import_module(match.group("module"))
        for attribute in filter(None, (match.group("attr") or "").split(".")):
            found = getattr(found, attribute)
        return found


def _distribution_key(folder: str) -> str:
    """A distribution's name from its metadata folder (``Name-1.0.dist-info``), normalised
    as importlib.metadata normalises it to keep the first of two installs on the path."""
    return re.sub(r"[-_.]+", "_", folder.rpartition(".")[0].split("-")[0]).lower()


def entry_points(group: str) -> list[EntryPoint]:
    """The entry points of ``group`` of every distribution on sys.path (the first install
    of a distribution wins, as with importlib.metadata).

    Read from the distributions' entry_points.txt directly: importlib.metadata (with the
    email package it parses metadata with) costs a tenth of a small command's start-up, on
    every command, and this needs none of it.
    """
    found: list[EntryPoint] = []
    seen: set[str] = set()
    header = f"[{group}]"
    for place in sys.path:
        try:
            names = sorted(os.listdir(place or "."))
        except OSError:  # not a folder (a zip file) or gone
            continue
        for folder in names:
            if not folder.endswith((".dist-info", ".egg-info")):
                continue
            key = _distribution_key(folder)
            if key in seen:
                continue
            seen.add(key)
            try:
                with open(os.path.join(place or ".", folder, "entry_points.txt"),
                          encoding="utf-8") as file:
                    text = file.read()
            except OSError:
                continue
            if header in text:
                found.extend(_group_lines(text, header))
    return found


def _group_lines(text: str, header: str) -> Iterator[EntryPoint]:
    section = ""
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("[") and line.endswith("]"):
            section = line
        elif section == header and "=" in line:
            name, _, value = line.partition("=")
            yield EntryPoint(name.strip(), value.strip())


@functools.cache
def games() -> dict[str, Game]:
    """Every game by key: the built-in ones, then the plug-ins (each loaded once)."""
    found: dict[str, Game] = {game.key: game for game in BUILT_IN}
    for game in BUILT_IN:
        declare_paints(game.declared_paints())
    if os.environ.get("BOARDGEN_DISABLE_PLUGINS", "") not in ("", "0"):
        return found
    for point in sorted(entry_points(group=ENTRY_POINT_GROUP), key=lambda p: p.name):
        where = f"game plug-in {point.name!r} ({point.value})"
        try:
            loaded = point.load()
            game = loaded() if isinstance(loaded, type) and issubclass(loaded, Game) \
                else loaded
            # Read here: a plug-in's own property may raise too.
            key = game.key if isinstance(game, Game) else ""
        except Exception as exc:  # a third party's bug must not break the other games
            problems.append(f"{where}: cannot be loaded: {type(exc).__name__}: {exc}")
            continue
        if not isinstance(game, Game):
            problems.append(f"{where}: is not a boardgen.games.protocol.Game")
        elif key != point.name or not isinstance(key, str) or not KEY.match(key):
            problems.append(f"{where}: its key {key!r} must be its entry point's name, "
                            "lower-case letters, digits and hyphens")
        elif key in found:
            problems.append(f"{where}: the name {key!r} is taken")
        else:
            try:
                declare_paints(game.declared_paints())  # known to every theme from now
            except ValueError as exc:
                problems.append(f"{where}: {exc}")
                continue
            found[key] = game
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


def check_options(game: Game, given: GameOptions | None, command: str) -> None:
    """Refuse an option given that ``game`` does not take in ``command``, naming the
    games that do."""
    for name in given or {}:
        declared = game.option_named(name)
        if declared is not None and command in declared.commands:
            continue
        takers = [g.name for g in games().values()
                  if (o := g.option_named(name)) is not None and command in o.commands]
        if not takers:
            raise BoardgenError(f"{option(name)}: no game takes this option", field=name)
        only = " diagrams only" if command == "diagram" else ""
        listed = takers[0] if len(takers) == 1 else \
            f"{', '.join(takers[:-1])} and {takers[-1]}"
        raise BoardgenError(f"{option(name)} applies to {listed}{only}, "
                            f"not {game.name}", field=name)


def new_position(game: str, options: PlayOptions | None = None) -> Position:
    """The start of a game (the empty board, a drawn position, or a set-up)."""
    description = game_named(game)
    return description.new_position(options or PlayOptions())


# --- diagrams ------------------------------------------------------------------------------

_MEMO: list[dict[tuple[str, str, str], Diagram]] = []  # the diagrams built so far, when memoised


def build_diagram(game: str, name: str, *, options: GameOptions | None = None) -> Diagram:
    """The named diagram of a game (``templates/GAME/NAME.txt`` or a generated figure),
    the game's own ``options`` of the diagram command checked; inside
    :func:`diagrams_memoised`, built once however often it is asked for."""
    if options or not _MEMO:
        description = game_named(game)
        check_options(description, options, "diagram")
        return description.diagram(name, options=options)
    memo = _MEMO[-1]
    key = (game, name, language())  # a diagram's words are in the language it was built in
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
        _MEMO[-1][(game, name, language())] = diagram


def read_diagram_file(path: Path) -> tuple[Game, list[Directive]]:
    """A diagram file read once: the game it is written for (its ``game:`` line, or else
    the game whose template folder it lies in) and its directives.  A pipe or a device is
    read (``/dev/stdin``, ``<(command)``), once, and with a size cap."""
    directives = read_directives(path)
    known = games()
    line = next((d for d in directives if d.key == "game"), None)
    if line is not None:
        declared = line.value.strip().lower()
        if declared not in known:
            raise BoardgenError(f"{path}:{line.line}: unknown game {quoted(declared)} in its "
                                f"'game:' line (choose from {', '.join(known)})", line=line.line)
        return known[declared], directives
    folder = path.resolve().parent
    for game in known.values():
        if folder == game.template_folder.resolve():
            return game, directives
    raise BoardgenError(f"{path}: the file does not say which game it is for; add a line "
                        f"'game: {'|'.join(known)}' at the top")


def diagram_file_game(path: Path) -> Game:
    """The game a diagram file is written for (see :func:`read_diagram_file`)."""
    with read_once():
        return read_diagram_file(path)[0]


def replay_read(game: Game, path: Path, directives: list[Directive],
                options: GameOptions) -> Diagram:
    """A diagram file replayed from the directives :func:`read_diagram_file` read (a game
    that reads its files itself, not through a ScriptedGame, reads it again: called inside
    :func:`boardgen.text.read_once`, a pipe gives it the same text)."""
    if isinstance(game, ScriptedGame):
        return game.load_read(path, directives, options)
    return game.load_file(path, options)


def load_diagram_file(path: Path, *, options: GameOptions | None = None
                      ) -> tuple[Game, Diagram]:
    """Replay a diagram file from anywhere on disk; every claim checked by the engine.
    The file is read once (its 'game:' line and its replay come from one reading): it may
    be /dev/stdin or ``<(command)``."""
    with read_once():
        game, directives = read_diagram_file(path)
        check_options(game, options, "diagram")
        return game, replay_read(game, path, directives, options or {})
