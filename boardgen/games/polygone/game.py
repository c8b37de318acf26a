"""Polygone as boardgen knows it: its fixed board, replays, diagram files and pictures."""

from __future__ import annotations

from pathlib import Path

from boardgen.games.polygone import engine as polygone
from boardgen.games.polygone.picture import (
    BOARD,
    PANEL_SPACING_MM,
    ROLES,
    lattice_scene,
    polygone_diagram,
)
from boardgen.games.protocol import Game, GlyphTable, PlayOptions, Position
from boardgen.geometry.lattice import Line
from boardgen.picture import Diagram, HoleScene


class PolygonePosition(Position):
    engine: polygone.Polygone

    def __init__(self, game: Game, options: PlayOptions) -> None:
        self.game = game
        self.engine = polygone.Polygone()

    def _play_one(self, token: str) -> object:
        return self.engine.play(polygone.parse_move(token))

    def legal_moves(self) -> list[str]:
        return [move.notation() for move in self.engine.legal_moves()]

    def to_json(self) -> dict[str, object]:
        return polygone.position_json(self.engine)

    def text(self) -> str:
        return "\n".join(polygone.text_position(self.engine))

    def scene(self, caption: str | None = None) -> HoleScene:
        engine = self.engine
        labels: dict[Line, str] = {}
        if engine.history:
            moved = engine.history[-1].move.new_line
            if moved in engine.pieces:
                labels[moved] = str(len(engine.history))
        return lattice_scene(pieces=dict(engine.pieces), labels=labels, caption=caption,
                             apexes=False)


class PolygoneDescription(Game):
    key = "polygone"
    name = polygone.NAME
    designer = "Fabien Vandenbussche"
    year = 2004
    board = BOARD
    roles = ROLES
    panel_cell_mm = PANEL_SPACING_MM
    said_once = (polygone.RECONSTRUCTION,)

    def new_position(self, options: PlayOptions) -> Position:
        return PolygonePosition(self, options)

    def split_moves(self, text: str) -> list[str]:
        return polygone.split_moves(text)

    def load_file(self, path: Path, glyphs: GlyphTable | None) -> Diagram:
        del glyphs  # refused before: Game.check_glyphs
        from boardgen.games.polygone.directives import load_polygone_example

        return polygone_diagram(load_polygone_example(path))


POLYGONE = PolygoneDescription()
