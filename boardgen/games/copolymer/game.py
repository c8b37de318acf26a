"""Copolymer as boardgen knows it: its boards, replays, diagram files and pictures."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from boardgen.errors import BoardgenError
from boardgen.games.copolymer import engine as copolymer
from boardgen.games.copolymer.picture import PAINTS, PLAYER_ROLES, ROLES, copolymer_diagram
from boardgen.games.protocol import (
    Game,
    GameOption,
    GameOptions,
    HexBoards,
    Kit,
    KitNote,
    PlayOptions,
    Position,
    drawn_start,
    read_drawn_start,
    reading_start,
)
from boardgen.games.script import GameScript
from boardgen.games.scripted import ScriptedGame
from boardgen.geometry import Hex, HexGrid, hexhex
from boardgen.i18n import N_, tr
from boardgen.picture import Diagram, Marker, Scene

# The diagram files' reader is imported when a diagram is built: replaying moves or
# printing --help must not pay for it.


# The presets' names (the --preset values) as the kit's board headings say them, in the
# page's language: "(small)" on an English page, "(petit)" on a French one.
PRESET_WORDS = {"small": N_("small"), "medium": N_("medium"), "large": N_("large")}


# The names of the cells of the board last played at random, by cell: a random play-out
# names every move it draws, and a look-up is a fifth of what naming a cell costs.
_names: tuple[HexGrid | None, dict[Hex, str]] = (None, {})


def _cell_names(engine: copolymer.Copolymer) -> dict[Hex, str]:
    global _names
    grid, known = engine.grid, _names  # read once: another thread may replace it meanwhile
    if known[0] is grid:
        return known[1]
    names = dict(zip(grid.cells, engine.notation.names(grid.cells), strict=True))
    _names = (grid, names)
    return names


class CopolymerPosition(Position):
    engine: copolymer.Copolymer

    def __init__(self, game: Game, options: PlayOptions) -> None:
        self.game = game
        grid = options.grid or hexhex(copolymer.DEFAULT_SIDE)
        first = str(options.get("first") or "x")
        self.engine = copolymer.Copolymer(grid, first=first)
        start = options.get("start")
        if start is not None:
            assert isinstance(start, tuple)
            text, source = start
            with reading_start():
                drawing, mover, status = drawn_start(text, source, copolymer.PLAYERS)
                cells, _capitals = copolymer.parse_text_position(grid, drawing, source)
            # `first` given says who moves; else the status line `play` printed, if it
            # came along (and whether a connection gave them the turn's next placement).
            chosen = options.get("first")
            self.engine.set_position(cells, str(chosen or mover or first))
            self.engine.turn_continues = bool(status and "continuing the turn" in status)
            self.set_up = True

        # The move random_move last drew, by name, until a move (see OPosition).
        self._drawn: tuple[str, Hex] | None = None

    def play_one(self, token: str) -> object:
        return self.engine.place(self.engine.notation.parse(token))

    def play_named(self, token: str) -> str:
        drawn, self._drawn = self._drawn, None
        engine = self.engine
        if drawn is not None and drawn[0] == token:
            engine.place(drawn[1])
            return token
        self.play_one(token)
        return engine.notation.name(engine.history[-1].cell)

    def random_move(self, rng: random.Random) -> str:
        engine = self.engine
        try:
            cell = engine.random_empty(rng)  # every empty cell is legal
        except IndexError:  # no empty cell to choose from (asked first, a play-out's
            # every move would pay for it)
            if engine.over:
                raise BoardgenError("the game is over: Copolymer has no legal move") from None
            raise
        known = _names  # the board's names, looked up without a call when kept
        name = (known[1] if known[0] is engine.grid else _cell_names(engine))[cell]
        self._drawn = (name, cell)
        return name

    def play_out(self, rng: random.Random) -> None:
        """The engine's own random play-out (its draws are random_move's), the moves
        named once it is over."""
        self._check_thawed()
        engine = self.engine
        start = len(engine.history)
        self._drawn = None
        engine.play_out(rng)
        history = engine.history
        if len(history) == start:
            return
        names = _cell_names(engine)
        played = [names[placement.cell] for placement in history[start:]]
        self.written.extend(played)
        self.named.extend(played)

    def take_back(self) -> bool:
        self.engine.undo()
        self._drawn = None
        return True

    def move_caption(self) -> str:
        """The turn so far, as a diagram's panel of these placements words it ('O connects
        at B2 (touching 2 X cells) and goes on.'), and the result once the board is full."""
        from boardgen.games.copolymer.directives import describe_turn

        engine = self.engine
        turn = engine.this_turn()
        if not turn:
            return super().move_caption()
        return describe_turn(engine, list(turn), self.forced_this_turn())

    def forced_this_turn(self) -> list[bool]:
        """For each placement of the turn (``this_turn()``), whether it was forced: every
        empty cell a connection for its player.  Read from the position now, not kept a
        move (a random play-out would pay for the neighbour counts at every move): during
        a turn only its player places, so each empty cell touches as many of the other
        player's cells as it did at each placement of the turn.  A placement was forced
        exactly when it, every later one of the turn (each empty then) and every empty
        cell now is a connection for the turn's player."""
        engine = self.engine
        turn = engine.this_turn()
        if not turn:
            return []
        player = turn[0].player
        every_empty_connects = len(engine.connections(player)) == len(engine.empty_cells())
        flags: list[bool] = []
        for placement in reversed(turn):
            every_empty_connects = every_empty_connects and placement.connection
            flags.append(every_empty_connects)
        return flags[::-1]

    def legal_moves(self) -> tuple[str, ...]:
        return tuple(self.engine.notation.name(h) for h in self.engine.legal_placements())

    def to_json(self) -> dict[str, object]:
        grid = self.engine.grid
        return copolymer.position_json(self.engine, grid.side if grid.shape == "hexhex"
                                       else None)

    def text(self) -> str:
        return "\n".join([*copolymer.text_position(self.engine, coordinates=True),
                          copolymer.status_line(self.engine)])

    def scene(self, caption: str | None = None) -> Scene:
        engine = self.engine
        numbers = {p.cell: str(k) for k, p in enumerate(engine.this_turn(), start=1)}
        return self._picture(numbers, caption)

    def strip_scene(self, caption: str | None, since: int) -> Scene:
        numbers = {p.cell: str(k) for k, p in enumerate(self.engine.history, start=1)
                   if k > since}
        return self._picture(numbers, caption)

    def _picture(self, numbers: dict[Hex, str], caption: str | None) -> Scene:
        engine = self.engine
        if caption is None and engine.over and engine.winner:
            # A finished game's picture says who won (as Polygone's does); the legend
            # names the players X and O.
            caption = tr("{player} wins, {cells} cells to {other}.").format(
                player=engine.winner.upper(), cells=engine.counts[engine.winner],
                other=engine.counts[copolymer.opponent(engine.winner)])
        return Scene(engine.grid,
                     cell_roles={h: PLAYER_ROLES[p] for h, p in engine.cells().items()},
                     cell_texts=numbers, markers=tuple(Marker(h, "disc") for h in numbers),
                     caption=caption)

    @property
    def turn_over(self) -> bool:
        return not self.engine.turn_continues


PENS_NOTE = (  # paragraphs translated where printed (tr)
    N_("Copolymer fills its board: every cell is coloured by the end, so two pens make the "
    "simplest pieces, and a printed board is a game record once you are done."),
    N_("Choose two pens that stay apart on paper and in a grey photocopy: a dark felt-tip and a "
    "pencil, or two colours of clearly different darkness. Or let one player fill cells solid "
    "and the other draw a cross in them; then any two pens will do."),
    N_("Colour each cell as you place it. After a connection your turn goes on: place again "
    "before you hand over. Felt-tips can bleed through thin paper, so lay a spare sheet under "
    "the board. To play many games on one print, slip it into a clear sleeve and use "
    "dry-wipe pens."),
    N_("The three boards here are the play-by-email server\u2019s: side 5 (61 cells) for a first "
    "game, side 7 (127 cells), and side 10 (271 cells), the server\u2019s default and the "
    "board the designer mentions. Each has an odd number of cells, so a game cannot end in "
    "a tie: count the cells of each colour."),
)


OPTIONS = (
    GameOption("first", "choice", "Copolymer: who places first, or who is to move after "
               "--start (default: as its status line says, else x).",
               choices=copolymer.PLAYERS, noun="player"),
    GameOption("start", "file", "Copolymer: start from a position drawn as text in the "
               "server's style (. x o), as 'play copolymer' prints it; its status line, if "
               "given, says who is to move.", read=read_drawn_start),
)


class CopolymerDescription(ScriptedGame):
    key = "copolymer"
    name = copolymer.NAME
    designer = "Mark Steere"
    year = 2006
    board = HexBoards(
        copolymer.DEFAULT_SIDE, copolymer.check_board, copolymer.PRESETS,
        gallery=tuple((side, preset, ("pdf", "svg")) for preset, side in
                      sorted(copolymer.PRESETS.items(), key=lambda item: item[1])),
        presets_help="the play-by-email server's 9x9, 13x13 and 19x19")
    options = OPTIONS
    text_help = "'.' empty, lower case for earlier cells, capitals for the cells of the " \
        "turn in progress (or the last turn)"
    json_keys = ("side", "to_move", "cells", "connections", "turn_continues", "over",
                 "winner", "counts")
    roles = ROLES
    paints = PAINTS
    # Played with two pens: the server's boards to write on, and a note on pens.
    kit = Kit(boards=tuple((side, PRESET_WORDS.get(preset, preset)) for preset, side in
                           sorted(copolymer.PRESETS.items(), key=lambda item: item[1])),
              note=KitNote(N_("Playing with pens"), PENS_NOTE),
              contents=N_("the server's three boards (sides 5, 7, 10) to colour in, a note "
                          "on pens"))

    def new_position(self, options: PlayOptions) -> Position:
        return CopolymerPosition(self, options)

    def script(self, path: Path, text: str | None, options: GameOptions
               ) -> GameScript[Any, Any, Any]:
        from boardgen.games.copolymer.directives import CopolymerScript

        return CopolymerScript(path, text=text)

    def diagram_of(self, script: GameScript[Any, Any, Any]) -> Diagram:
        from boardgen.games.copolymer.directives import CopolymerScript, example_of

        assert isinstance(script, CopolymerScript)
        return copolymer_diagram(example_of(script))


COPOLYMER = CopolymerDescription()
