"""O as boardgen knows it: its boards, replays, diagram files, glyph charts and pictures."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from boardgen.errors import BoardgenError
from boardgen.games.o import engine as o
from boardgen.games.o.picture import (
    PAINTS,
    RECONSTRUCTION,
    ROLES,
    glyph_chart,
    o_file_diagram,
    o_legend,
    partisan_glyphs,
)
from boardgen.games.protocol import (
    Game,
    GameOption,
    GameOptions,
    GlyphTable,
    HexBoards,
    Kit,
    PlayOptions,
    Position,
    drawn_start,
    read_drawn_start,
    reading_start,
)
from boardgen.games.script import GameScript
from boardgen.games.scripted import ScriptedGame
from boardgen.geometry import Hex, hexhex
from boardgen.i18n import N_
from boardgen.picture import Diagram, Marker, Panel, Scene, edge_roles
from boardgen.text import quoted_value


class OPosition(Position):
    engine: o.OGame

    def __init__(self, game: Game, options: PlayOptions) -> None:
        self.game = game
        grid = options.grid or hexhex(o.DEFAULT_SIDE)
        self.engine = o.OGame(grid, partisan=bool(options.get("partisan", False)),
                              table=_table(options.given))
        start = options.get("start")
        if start is not None:  # as a diagram file's 'position:' block sets it
            assert isinstance(start, tuple)
            text, source = start
            with reading_start():
                drawing, mover, _status = drawn_start(text, source, self.engine.players)
                self.engine.setup(o.drawn_stones(grid, drawing, source), to_move=mover)
            self.set_up = True
        # The move random_move last drew, by name, until a move: played without reading
        # its name again (a play-out through the handle names only the moves it plays).
        self._drawn: tuple[str, Hex] | None = None

    def play_one(self, token: str) -> object:
        return self.engine.place(self.engine.notation.parse(token))

    def play_named(self, token: str) -> str:
        drawn, self._drawn = self._drawn, None
        if drawn is not None and drawn[0] == token:
            self.engine.place(drawn[1])
            return token
        notation = self.engine.notation
        cell = notation.parse(token)
        self.engine.place(cell)
        return notation.name(cell)

    def random_move(self, rng: random.Random) -> str:
        cell = self.engine.random_legal(rng)
        name = self.engine.notation.name(cell)
        self._drawn = (name, cell)
        return name

    def take_back(self) -> bool:
        self.engine.undo()
        self._drawn = None
        return True

    def move_caption(self) -> str:
        from boardgen.games.o.directives import last_stone_caption

        return last_stone_caption(self.engine) if self.engine.history else \
            super().move_caption()

    def legal_moves(self) -> tuple[str, ...]:
        return tuple(self.engine.notation.name(h) for h in self.engine.legal())

    def to_json(self) -> dict[str, object]:
        return o.position_json(self.engine)

    def text(self) -> str:
        return "\n".join([*o.text_position(self.engine, coordinates=True),
                          o.status_line(self.engine)])

    def scene(self, caption: str | None = None) -> Scene:
        return self.strip_scene(caption, len(self.engine.history) - 1)

    def strip_scene(self, caption: str | None, since: int) -> Scene:
        engine = self.engine
        last = engine.history[-1].cell if engine.history else None
        roles = edge_roles(engine.grid)
        roles.update({h: "new" for h in engine.enclosed})
        texts = {stone.cell: str(k) for k, stone in enumerate(engine.history, start=1)
                 if k > since}
        # The numbers print on the stones themselves (their ink contrasts with the stone).
        markers = [Marker(h, "dot", "loop" if h in engine.loop else "stone")
                   for h in engine.stones()]
        if engine.winner is not None and last is not None:
            markers.append(Marker(last, "ring", "accent"))
        return Scene(engine.grid, cell_roles=roles, cell_texts=texts,
                     markers=tuple(markers), caption=caption)


CHART_NOTE = N_("glyph chart: our reconstruction")  # translated where printed


def read_glyphs(given: object, source: str) -> GlyphTable:
    """A glyph table: the text of a glyph file (``glyph: ruling`` lines), or a mapping of
    glyph to ruling, checked as a file is."""
    if isinstance(given, str):
        return o.parse_glyph_table(given, source)
    if isinstance(given, dict):
        return o.check_glyph_table(given, source)
    raise BoardgenError(f"{source}: expected text or dict, not {quoted_value(given)}",
                        field="glyphs")


def _table(given: GameOptions) -> GlyphTable | None:
    table = given.get("glyphs")
    assert table is None or isinstance(table, dict)
    return table


OPTIONS = (
    GameOption("partisan", "flag", "O: the partisan variant (Left and Right)."),
    GameOption("start", "file", "O: start from stones drawn as text, as 'play o' prints a "
               "position (. empty, o a stone), as a diagram's 'position:' block; its "
               "status line, if given, says who is to move.",
               read=read_drawn_start),
    # A table given replaces the chart the diagram note calls our reconstruction.
    GameOption("glyphs", "file", "O: replace the glyph table from a file of "
               "'glyph: legal|illegal|left|right' lines.", read=read_glyphs,
               commands=frozenset({"play", "diagram"}), replaces_note=True),
)


class ODescription(ScriptedGame):
    key = "o"
    name = o.NAME
    designer = "Mark Steere"
    year = 2024
    board = HexBoards(
        o.DEFAULT_SIDE, o.check_board, marks_edges=True,
        note=CHART_NOTE,
        gallery=tuple((side, None, ("pdf",)) for side in range(o.MIN_SIDE, 11)))
    roles = ROLES
    paints = PAINTS
    options = OPTIONS
    text_help = "'o' a stone, 'O' the last one, '*' the stones of a loop"
    json_keys = ("side", "to_move", "stones", "legal", "over", "winner", "loop")
    said_once = (RECONSTRUCTION,)
    # Every verdict an O diagram shows (allowed, refused, a loop reached) rests on the chart.
    diagram_note = CHART_NOTE
    kit = Kit(stones=True,  # stones to cut out, sized to the board's cells
              contents=N_("the board and a sheet of stones to cut out, sized to its cells"))

    def new_position(self, options: PlayOptions) -> Position:
        return OPosition(self, options)

    def panels(self, heading: str, scenes: Sequence[Panel], note: str | None = None
               ) -> Diagram:
        diagram = super().panels(heading, scenes, note)
        # The two kinds of stone are keyed only where a loop shows.
        return replace(diagram, legend=o_legend([s for s in scenes if isinstance(s, Scene)])
                       ) if note is not None else diagram

    def script(self, path: Path, text: str | None, options: GameOptions
               ) -> GameScript[Any, Any, Any]:
        from boardgen.games.o.directives import OScript

        return OScript(path, _table(options), text=text)

    def diagram_of(self, script: GameScript[Any, Any, Any]) -> Diagram:
        from boardgen.games.o.directives import OScript, example_of

        assert isinstance(script, OScript)
        return o_file_diagram(example_of(script))

    def generated(self) -> Mapping[str, Callable[[GameOptions], Diagram]]:
        return {"glyphs": lambda given: glyph_chart(_table(given)),
                "partisan-glyphs": lambda given: partisan_glyphs(_table(given))}


O_GAME = ODescription()
