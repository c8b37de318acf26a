"""Free as boardgen knows it: any hex board, no rules; diagram files of stones of four
colours and annotations, for a designer of any hex game."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from boardgen.games.free import engine as free
from boardgen.games.free.picture import ROLES, board_picture, free_diagram
from boardgen.games.protocol import Game, GameOptions, HexBoards, PlayOptions, Position
from boardgen.games.script import annotated
from boardgen.geometry import hexhex
from boardgen.picture import Diagram, Panel, Scene

if TYPE_CHECKING:
    from boardgen.games.script import Directive


class FreePosition(Position):
    engine: free.FreeBoard

    def __init__(self, game: Game, options: PlayOptions) -> None:
        self.game = game
        self.engine = free.FreeBoard(options.grid or hexhex(free.DEFAULT_SIDE))

    def play_one(self, token: str) -> object:
        return self.engine.place(self.engine.notation.parse(token))

    def legal_moves(self) -> list[str]:
        return [] if self.engine.over else \
            [self.engine.notation.name(h) for h in self.engine.empty_cells()]

    def to_json(self) -> dict[str, object]:
        return free.position_json(self.engine)

    def text(self) -> str:
        return "\n".join(free.text_position(self.engine))

    def scene(self, caption: str | None = None) -> Scene:
        return board_picture(self.engine, caption)

    def strip_scene(self, caption: str | None, since: int) -> Scene:
        return board_picture(self.engine, caption, since)


class FreeDescription(Game):
    key = "free"
    name = free.NAME
    designer = "you"
    year = 0
    board = HexBoards(free.DEFAULT_SIDE)
    roles = ROLES

    @property
    def credit(self) -> str:
        return "a hex board with no rules, for diagrams of any hex game"

    def new_position(self, options: PlayOptions) -> Position:
        return FreePosition(self, options)

    def load_file(self, path: Path, options: GameOptions) -> Diagram:
        from boardgen.games.free.directives import load_free_example

        return free_diagram(load_free_example(path))

    def load_text(self, text: str, options: GameOptions) -> Diagram:
        from boardgen.games.free.directives import load_free_example

        return free_diagram(load_free_example(Path("diagram"), text=text))

    def diagram_directives(self) -> frozenset[str]:
        from boardgen.games.free.directives import FreeScript

        return FreeScript(Path("-")).keys()

    def annotated(self, position: Position, panel: Panel,
                  directives: Sequence[Directive]) -> Panel:
        from boardgen.games.free.directives import FreeScript, PanelDraft

        assert isinstance(position, FreePosition) and isinstance(panel, Scene)
        script = FreeScript(Path("-"), text="")
        return annotated(panel, script.annotations_of(position.engine, PanelDraft(""),
                                                      directives))


FREE = FreeDescription()
