"""Free as boardgen knows it: any hex board, no rules; diagram files of stones of four
colours and annotations, for a designer of any hex game."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from boardgen.games.free import engine as free
from boardgen.games.free.picture import PAINTS, ROLES, board_picture, free_diagram
from boardgen.games.protocol import (
    Game,
    GameOption,
    GameOptions,
    HexBoards,
    PlayOptions,
    Position,
    drawn_start,
    read_drawn_start,
    reading_start,
)
from boardgen.games.script import GameScript
from boardgen.games.scripted import ScriptedGame
from boardgen.geometry import hexhex
from boardgen.picture import Diagram, Scene


class FreePosition(Position):
    engine: free.FreeBoard

    def __init__(self, game: Game, options: PlayOptions) -> None:
        self.game = game
        self.engine = free.FreeBoard(options.grid or hexhex(free.DEFAULT_SIDE))
        start = options.get("start")
        if start is not None:  # a board drawn as `play free` prints it
            assert isinstance(start, tuple)
            text, source = start
            with reading_start():
                drawing, mover, _status = drawn_start(text, source, free.PLAYERS)
                self.engine.stones.update(free.drawn_stones(self.engine.grid, drawing, source))
            self.engine.first = mover or free.PLAYERS[0]
            self.set_up = True

    def play_one(self, token: str) -> object:
        return self.engine.place(self.engine.notation.parse(token))

    def play_named(self, token: str) -> str:
        placed = self.engine.place(self.engine.notation.parse(token))
        return self.engine.notation.name(placed.cell)

    def take_back(self) -> bool:
        self.engine.remove(self.engine.history.pop().cell)
        return True

    def move_caption(self) -> str:
        played = self.moves_played
        if not played:
            return super().move_caption()
        name = self.engine.notation.name
        last = self.engine.history[-1]
        return f"{last.colour.capitalize()} stone {played} on {name(last.cell)}."

    def legal_moves(self) -> tuple[str, ...]:
        return () if self.engine.over else \
            tuple(self.engine.notation.name(h) for h in self.engine.empty_cells())

    def to_json(self) -> dict[str, object]:
        return free.position_json(self.engine)

    def text(self) -> str:
        return "\n".join(free.text_position(self.engine, coordinates=True))

    def scene(self, caption: str | None = None) -> Scene:
        return board_picture(self.engine, caption)

    def strip_scene(self, caption: str | None, since: int) -> Scene:
        return board_picture(self.engine, caption, since)


class FreeDescription(ScriptedGame):
    key = "free"
    name = free.NAME
    designer = "you"
    year = 0
    board = HexBoards(free.DEFAULT_SIDE)
    roles = ROLES
    paints = PAINTS
    options = (GameOption("start", "file", "Free: start from stones drawn as text, as 'play "
                          "free' prints them (. x o r b; its status line, if given, says who "
                          "places next).", read=read_drawn_start),)

    @property
    def credit(self) -> str:
        return "a hex board with no rules, for diagrams of any hex game"

    def new_position(self, options: PlayOptions) -> Position:
        return FreePosition(self, options)

    def script(self, path: Path, text: str | None, options: GameOptions
               ) -> GameScript[Any, Any, Any]:
        from boardgen.games.free.directives import FreeScript

        return FreeScript(path, text=text)

    def diagram_of(self, script: GameScript[Any, Any, Any]) -> Diagram:
        from boardgen.games.free.directives import FreeScript, example_of

        assert isinstance(script, FreeScript)
        return free_diagram(example_of(script))


FREE = FreeDescription()
