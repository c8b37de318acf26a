"""Polygone as boardgen knows it: its fixed board, replays, diagram files and pictures."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from boardgen.games.polygone import engine as polygone
from boardgen.games.polygone.picture import (
    BOARD,
    PAINTS,
    PANEL_SPACING_MM,
    ROLES,
    annotated_lattice,
    lattice_scene,
    polygone_diagram,
)
from boardgen.games.protocol import (
    Game,
    GameOption,
    GameOptions,
    Kit,
    PlayOptions,
    Position,
    Tracker,
    read_start_text,
)
from boardgen.games.script import Annotations, GameScript
from boardgen.games.scripted import ScriptedGame
from boardgen.geometry.lattice import Line, line_name
from boardgen.i18n import N_, ntr, tr
from boardgen.picture import Diagram, Panel, PointScene, Turn


class PolygonePosition(Position):
    engine: polygone.Polygone

    def __init__(self, game: Game, options: PlayOptions) -> None:
        self.game = game
        start = options.get("start")
        if start is None:
            self.engine = polygone.Polygone()
        else:  # as a diagram file's 'white:', 'black:', 'to-move:' and 'captured:' lines
            from boardgen.games.polygone.directives import start_position

            assert isinstance(start, tuple)
            self.engine = start_position(*start)
            self.set_up = True
        # Each move played with the pieces before it (for the way round the swing went).
        self._moves: list[tuple[polygone.Move, dict[Line, str]]] = []
        self._drawn: polygone.Move | None = None  # random_move's, until a move

    @property
    def _last(self) -> tuple[polygone.Move, dict[Line, str]]:
        return self._moves[-1]

    def play_one(self, token: str) -> object:
        move = polygone.parse_move(token)
        return self._play(move)

    def _play(self, move: polygone.Move) -> object:
        before = dict(self.engine.pieces)
        turn = self.engine.play(move)
        self._moves.append((move, before))
        return turn

    def play_named(self, token: str) -> str:
        drawn, self._drawn = self._drawn, None
        move = drawn if drawn is not None and drawn.notation() == token else \
            polygone.parse_move(token)
        self._play(move)
        return move.notation()

    def random_move(self, rng: random.Random) -> str:
        self._drawn = move = self.engine.random_move(rng)
        return move.notation()

    def take_back(self) -> bool:
        self.engine.undo()
        self._moves.pop()
        self._drawn = None
        return True

    def copy(self) -> Position:
        """As the protocol's, but the moves kept with the pieces before each (never
        changed once kept) shared, not copied one by one (most of a deep copy's time)."""
        twin = self._shallow()
        twin.__dict__.update(engine=self.engine.copy(), _moves=self._moves[:],
                             _written=self.written[:], _named=self.named[:], _drawn=None,
                             frozen=False)
        return twin

    def move_caption(self) -> str:
        from boardgen.games.polygone.directives import move_sentences

        if not self.engine.history:
            return super().move_caption()
        move, _ = self._last
        turn = self.engine.history[-1]
        return move_sentences(move, turn.mover, turn, self.engine)

    def move_turn(self) -> Turn | None:
        from boardgen.games.polygone.directives import swing_sense

        if not self.engine.history:
            return None
        move, before = self._last
        return Turn(move.pivot, move.moving, move.target, swing_sense(before, move))

    def legal_moves(self) -> tuple[str, ...]:
        return tuple(move.notation() for move in self.engine.legal_moves())

    def to_json(self) -> dict[str, object]:
        return polygone.position_json(self.engine)

    def text(self) -> str:
        return "\n".join(polygone.text_position(self.engine))

    def scene(self, caption: str | None = None) -> PointScene:
        return self.strip_scene(caption, len(self.engine.history) - 1)

    def strip_scene(self, caption: str | None, since: int) -> PointScene:
        """The pieces, each moved after move ``since`` labelled with its (last) move
        number; the caption says what was taken so far, and, for one position, the last
        move and who plays next (or who won)."""
        engine = self.engine
        labels: dict[Line, str] = {}
        for number, turn in enumerate(engine.history, start=1):
            moved = turn.move.new_line
            if number > since and moved in engine.pieces:
                labels[moved] = str(number)
        said = [caption] if caption else _last_move(engine)
        said.append(_taken(engine))
        if caption is None:
            said.append(tr("{player} wins: {result}.").format(
                player=tr(engine.winner.capitalize()), result=engine.result)
                        if engine.over and engine.winner else
                        tr("{player} to move.").format(player=tr(engine.to_move.capitalize())))
        return lattice_scene(pieces=dict(engine.pieces), labels=labels,
                             caption=" ".join(said), apexes=False)


def _last_move(engine: polygone.Polygone) -> list[str]:
    if not engine.history:
        return [tr("The start.")]
    turn = engine.history[-1]
    words = [tr("Move {number}: {player} {move}.").format(
        number=len(engine.history), player=tr(turn.mover.capitalize()),
        move=turn.move.notation())]
    for capture in turn.captures:
        loser = tr("Black") if capture.captor == "white" else tr("White")
        words.append(tr("{player} loses {lines}.").format(
            player=loser, lines=tr(" and ").join(line_name(ln) for ln in capture.removed)))
    return words


def _taken(engine: polygone.Polygone) -> str:
    """The captured tallies: how many pieces of each colour are off the board."""
    white, black = engine.captured["white"], engine.captured["black"]
    return tr("Taken: {white}, {black}.").format(
        white=ntr("{count} White piece", "{count} White pieces", white).format(count=white),
        black=ntr("{count} Black piece", "{count} Black pieces", black).format(count=black))


class PolygoneDescription(ScriptedGame):
    key = "polygone"
    name = polygone.NAME
    designer = "Fabien Vandenbussche"
    year = 2004
    board = BOARD
    roles = ROLES
    paints = PAINTS
    panel_cell_mm = PANEL_SPACING_MM
    moves_help = 'MOVING-PIVOT>TARGET, "b1-c2>d3" (or "b1 c2 -> d3"), with "/2,1" for the ' \
        "order of several polygons closed at once"
    json_keys = ("to_move", "pieces", "captured", "legal", "over", "winner")
    said_once = (polygone.RECONSTRUCTION,)
    # The pieces come with the board; the captures are counted on a tracker.
    kit = Kit(tracker=Tracker(
        (N_("White has captured (black pieces)"), N_("Black has captured (white pieces)")),
        polygone.CAPTURES_TO_WIN,
        # Translated where printed, {wins} the boxes (boardgen.publish.tracker.tracker_intro).
        N_("Lay each enemy piece you capture in a box of your column, or tick the box. "
           "Whoever fills box {wins} of their column wins at once (our ruling), even in the "
           "middle of a turn: when one move closes several polygons, they are taken in the "
           "order the mover chooses, and the first to {wins} wins there.")),
        contents=N_("the board, the pieces to cut and fold, and a capture tracker"))

    @property
    def credit(self) -> str:
        # Published by FACABO over 2004 and 2005 (shared/spec): the span, as the sheets say.
        return tr("{game} by {designer} ({year})").format(
            game=self.name, designer=self.designer, year=f"{self.year}\u2013{self.year + 1}")

    options = (GameOption(
        "start", "file", "Polygone: start from pieces and captures written as a diagram "
        "file's 'white:', 'black:', 'to-move:' and 'captured:' lines.", read=read_start_text),)

    def new_position(self, options: PlayOptions) -> Position:
        return PolygonePosition(self, options)

    def split_moves(self, text: str) -> list[str]:
        return polygone.split_moves(text)

    def script(self, path: Path, text: str | None, options: GameOptions
               ) -> GameScript[Any, Any, Any]:
        from boardgen.games.polygone.directives import PolygoneScript

        return PolygoneScript(path, text=text)

    def diagram_of(self, script: GameScript[Any, Any, Any]) -> Diagram:
        from boardgen.games.polygone.directives import PolygoneScript, example_of

        assert isinstance(script, PolygoneScript)
        return polygone_diagram(example_of(script))

    def annotation_draft(self, script: GameScript[Any, Any, Any], position: Position) -> Any:
        """The position as a panel shows it: its pieces, the targets, what was just taken."""
        from boardgen.games.polygone.directives import PolygonePanel

        assert isinstance(position, PolygonePosition)
        engine = position.engine
        last = engine.history[-1] if engine.history else None
        return PolygonePanel(
            "", dict(engine.pieces),
            targets=frozenset(m.new_line for m in engine.legal_moves()),
            captured_before=frozenset(ln for c in (last.captures if last else [])
                                      for ln in c.removed),
            mover=engine.to_move)

    def annotate(self, panel: Panel, notes: Annotations[Any, Any]) -> Panel:
        assert isinstance(panel, PointScene)
        return annotated_lattice(panel, notes)


POLYGONE = PolygoneDescription()
