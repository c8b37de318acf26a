"""Fives as boardgen knows it: one Game object (boardgen.games.protocol) that names the
game, its boards, its replays, its diagram files and its pictures.  boardgen finds it
through this package's entry point (pyproject.toml) and draws what it emits."""

from __future__ import annotations

from pathlib import Path

from boardgen.games.protocol import Game, GameOptions, HexBoards, PlayOptions, Position
from boardgen.games.script import (
    Directive,
    Draft,
    GameScript,
    GameSyntax,
    annotated,
    directive_syntax,
    expected,
    turn_claims,
)
from boardgen.geometry import Hex, HexGrid, framed_text, hexhex, make_shape
from boardgen.picture import Diagram, Marker, Role, Scene, legend_of

from boardgen_fives.engine import PLAYERS, Fives, check_board

DEFAULT_SIDE = 5
STONE_ROLES = {"x": "player1", "o": "player2"}  # roles every boardgen theme paints
ROLES = (Role("player1", "X", "X"), Role("player2", "O", "O"),
         Role("new", "highlighted", "highlighted"))


def scene(game: Fives, caption: str | None = None, numbered: int = 1) -> Scene:
    """The position: stones by player, the last ``numbered`` stones numbered in the order
    played, the winning row ringed."""
    recent = game.history[len(game.history) - numbered:] if numbered else []
    first = len(game.history) - len(recent) + 1
    texts = {cell: str(first + k) for k, cell in enumerate(recent)}
    return Scene(game.grid,
                 cell_roles={cell: STONE_ROLES[p] for cell, p in game.stones.items()},
                 cell_texts=texts,
                 markers=(*(Marker(cell, "disc") for cell in texts),
                          *(Marker(cell, "ring", "accent") for cell in game.row)),
                 caption=caption)


class FivesPosition(Position):
    engine: Fives

    def __init__(self, game: Game, options: PlayOptions) -> None:
        self.game = game
        self.engine = Fives(options.grid or hexhex(DEFAULT_SIDE))

    def play_one(self, token: str) -> object:
        self.engine.place(self.engine.notation.parse(token))
        return None

    def legal_moves(self) -> tuple[str, ...]:
        return tuple(self.engine.notation.name(h) for h in self.engine.legal())

    def to_json(self) -> dict[str, object]:
        name = self.engine.notation.name
        return {"game": "fives", "to_move": None if self.engine.over else self.engine.to_move,
                "winner": self.engine.winner, "moves": [name(h) for h in self.engine.history],
                "row": [name(h) for h in self.engine.row]}

    def text(self) -> str:
        chars = {h: p for h, p in self.engine.stones.items()}
        status = f"{self.engine.winner.upper()} wins" if self.engine.winner else \
            "draw" if self.engine.over else f"{self.engine.to_move.upper()} to move"
        return "\n".join([*framed_text(self.engine.grid, chars), status])

    def scene(self, caption: str | None = None) -> Scene:
        return scene(self.engine, caption)


# --- diagram files -----------------------------------------------------------------------

class FivesScript(GameScript[Fives, Draft, Scene]):
    """Directives: 'board: hexhex N' (or any shape), 'setup: CELLS' before the first
    panel; 'place: CELLS' in a panel; claims 'expect: to-move P', 'expect: winner P|none',
    'expect: row CELLS' (the winning row).  The runner does the rest: lines, panels,
    notes, annotations and FILE:LINE errors."""

    game = "fives"
    highlight_roles = ("new",)

    def __init__(self, path: Path) -> None:
        super().__init__(path)
        self.grid: HexGrid = hexhex(DEFAULT_SIDE)
        self.setup: Directive | None = None
        self.header = {"board": self.board, "setup": self.set_up}
        self.directives = {"place": self.place}
        self.claims = {**turn_claims(PLAYERS),
                       "row": self.claim_row}

    def board(self, d: Directive) -> None:
        shape, _, side = d.value.partition(" ")
        if not side.strip().isdigit():
            raise self.fail(d, f"board needs 'SHAPE SIDE', not {d.value!r}")
        self.grid = make_shape(shape, int(side))
        check_board(self.grid)

    def set_up(self, d: Directive) -> None:
        self.setup = d

    def start(self) -> Fives:
        game = Fives(self.grid)
        if self.setup is not None:
            self._place_all(game, self.setup)
        return game

    def _place_all(self, game: Fives, d: Directive) -> int:
        words = d.value.split()
        for word in words:
            player = game.to_move.upper()
            refusal = game.refusal(game.notation.parse(word))
            if refusal is not None:
                raise self.fail(d, f"{player} cannot place on {word}: {refusal.message}")
            game.place(game.notation.parse(word))
        return len(words)

    def open_panel(self, game: Fives, label: str) -> Draft:
        return Draft(label)

    def note(self, draft: Draft, text: str) -> None:
        draft.notes.append(text)

    def point(self, game: Fives, word: str) -> Hex:
        return game.notation.parse(word)

    def place(self, game: Fives, draft: Draft, d: Directive) -> None:
        draft.moved += self._place_all(game, d)

    def close_panel(self, game: Fives, draft: Draft) -> Scene:
        if game.winner:
            said = f"{game.winner.upper()} has five in a row and wins."
        elif game.over:
            said = "The board is full: a draw."
        else:
            said = f"{game.to_move.upper()} to play."
        label = f"{draft.label}. " if draft.label else ""
        caption = draft.annotations.caption or " ".join([label + said, *draft.notes])
        return annotated(scene(game, caption, draft.moved), draft.annotations)

    def claim_row(self, game: Fives, d: Directive, words: list[str]) -> str | None:
        want = sorted(game.notation.name(game.notation.parse(w)) for w in words[1:])
        have = sorted(game.notation.name(h) for h in game.row)
        if want == have:
            return None
        return expected(" ".join(words), f"the row is {' '.join(have) or 'not made'}")

    def unknown_claim(self, game: Fives, d: Directive) -> str:
        return f"unknown expectation {d.value!r} (to-move P, winner P|none, row CELLS)"


# --- the game --------------------------------------------------------------------------------

class FivesGame(Game):
    """Five in a row on hexagons: a traditional placement game (gomoku's rule)."""

    key = "fives"
    name = "Fives"
    designer = "traditional"
    year = 0
    board = HexBoards(DEFAULT_SIDE, check_board, gallery=((DEFAULT_SIDE, None, ("pdf",)),))
    roles = ROLES
    panel_cell_mm = 8.0

    @property
    def credit(self) -> str:
        return "Fives: five in a row on hexagons, a traditional rule (boardgen's example)"

    @property
    def template_folder(self) -> Path:
        return Path(__file__).resolve().parent / "diagrams"

    def new_position(self, options: PlayOptions) -> Position:
        return FivesPosition(self, options)

    def diagram_syntax(self) -> GameSyntax:
        # Read from the script's own tables: 'boardgen diagram --syntax fives' prints it.
        return directive_syntax(FivesScript(Path("")))

    def load_file(self, path: Path, options: GameOptions) -> Diagram:
        script = FivesScript(path)
        lines = script.run()
        scenes = [s for line in lines for s in line.panels]
        return Diagram(script.title, tuple((line.title, line.panels) for line in lines),
                       legend_of(ROLES, list(scenes)), "Numbered: the panel's stones; "
                       "ringed: the winning row.", roles=ROLES)


GAME = FivesGame()
