"""Hex as boardgen knows it: one Game object (boardgen.games.protocol) that names the game,
declares its board (an N x N rhombus by default, its own presets and check), its own option
(the swap rule), its own roles with their paint (the players' edges), its replays, its
diagram files and its pictures.  boardgen finds it through the entry point and draws what
it emits; no file of boardgen names it."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from boardgen.games.protocol import (
    Game,
    GameOption,
    GameOptions,
    HexBoards,
    Kit,
    KitNote,
    PlayOptions,
    Position,
)
from boardgen.games.script import (
    Directive,
    Draft,
    GameScript,
    annotated,
    expected,
    labelled,
    turn_claims,
)
from boardgen.games.scripted import ScriptedGame
from boardgen.geometry import Hex, HexGrid, framed_text, make_shape, rhombus
from boardgen.picture import (
    Diagram,
    Marker,
    Paint,
    Role,
    RolePaint,
    Scene,
    board_scene,
    legend_of,
)

from boardgen_hex.engine import PLAYERS, SWAP, HexEngine, check_board, edges, side_of

DEFAULT_SIDE = 11
STONE_ROLES = {"red": "player1", "blue": "player2"}  # roles every boardgen theme paints
# The players' edges: roles of Hex's own, painted as it declares (boardgen's themes know
# nothing of them).  Each stands 40 grey levels or a pattern apart from an empty cell, from
# both stones and from the other edge, in every theme: the test of the built-in roles.
RED_EDGE, BLUE_EDGE = "hex-red-edge", "hex-blue-edge"
EDGE_PAINTS = {
    RED_EDGE: RolePaint(
        Paint("#ffffff", "dots"),
        {"colour": Paint("#f2b8ab"),  # grey 200: 48 below empty, 60 above a red stone
         # Dotted: in a deuteranope's eyes its light orange nears the orange stone.
         "colourblind": Paint("#f0c888", "dots"),
         "ink": Paint("#ffffff", "dots")},
        apart_from=("empty", "player1", "player2", BLUE_EDGE)),
    BLUE_EDGE: RolePaint(
        Paint("#ffffff", "vlines"),
        {"colour": Paint("#a9c4ec", "vlines"),  # 193, and lined: apart from Red's edge
         "colourblind": Paint("#9fcbe8", "vlines"),
         "ink": Paint("#ffffff", "vlines")},
        apart_from=("empty", "player1", "player2", RED_EDGE)),
}
ROLES = (Role("player1", "Red", "Red"), Role("player2", "Blue", "Blue"),
         Role(RED_EDGE, "Red's edge", None, paint=EDGE_PAINTS[RED_EDGE]),
         Role(BLUE_EDGE, "Blue's edge", None, paint=EDGE_PAINTS[BLUE_EDGE]),
         Role("new", "highlighted", "highlighted"))


def edge_cells(grid: HexGrid) -> dict[Hex, str]:
    """The cells of each player's edges, by role; the four corners, on an edge of each
    player, are left plain."""
    roles: dict[Hex, str] = {}
    for player, role in (("red", RED_EDGE), ("blue", BLUE_EDGE)):
        for side in edges(side_of(grid))[player]:
            for cell in side:
                roles[cell] = "empty" if cell in roles else role
    return {cell: role for cell, role in roles.items() if role != "empty"}


def scene(game: HexEngine, caption: str | None = None, numbered: int = 1) -> Scene:
    """The position on its edges: stones by player, the last ``numbered`` moves numbered,
    the winning chain ringed."""
    played = [m for m in game.history if isinstance(m, Hex) and m in game.stones]
    recent = played[len(played) - numbered:] if numbered else []
    first = len(game.history) - len(recent) + 1
    texts = {cell: str(first + k) for k, cell in enumerate(recent)}
    roles = edge_cells(game.grid)
    roles.update({cell: STONE_ROLES[p] for cell, p in game.stones.items()})
    return Scene(game.grid, cell_roles=roles, cell_texts=texts,
                 markers=(*(Marker(cell, "disc") for cell in texts),
                          *(Marker(cell, "ring", "accent") for cell in game.chain)),
                 caption=caption)


def _swap_rule(options: PlayOptions) -> bool:
    return bool(options.get("swap", False))


class HexPosition(Position):
    engine: HexEngine

    def __init__(self, game: Game, options: PlayOptions) -> None:
        self.game = game
        self.engine = HexEngine(options.grid or rhombus(DEFAULT_SIDE),
                                swap_rule=_swap_rule(options))

    def play_one(self, token: str) -> object:
        if token.strip().lower() == SWAP:
            self.engine.swap()
        else:
            self.engine.place(self.engine.notation.parse(token))
        return None

    def legal_moves(self) -> tuple[str, ...]:
        cells = tuple(self.engine.notation.name(h) for h in self.engine.legal())
        return (SWAP, *cells) if self.engine.may_swap() else cells

    def to_json(self) -> dict[str, object]:
        name = self.engine.notation.name
        return {"game": "hex", "side": self.engine.grid.side,
                "to_move": None if self.engine.over else self.engine.to_move,
                "winner": self.engine.winner,
                "stones": {name(h): p for h, p in sorted(self.engine.stones.items())},
                "moves": [m if isinstance(m, str) else name(m) for m in self.engine.history],
                "chain": [name(h) for h in self.engine.chain]}

    def text(self) -> str:
        chars = {h: p[0] for h, p in self.engine.stones.items()}
        status = f"{self.engine.winner.capitalize()} wins" if self.engine.winner else \
            f"{self.engine.to_move.capitalize()} to move"
        return "\n".join([*framed_text(self.engine.grid, chars), status])

    def scene(self, caption: str | None = None) -> Scene:
        return scene(self.engine, caption)


# --- diagram files -----------------------------------------------------------------------

class HexScript(GameScript[HexEngine, Draft, Scene]):
    """Directives: 'board: rhombus N', 'swap: on|off', 'setup: MOVES' before the first
    panel; 'play: MOVES' (cells, or 'swap') in a panel; claims 'expect: to-move P',
    'expect: winner P|none', 'expect: chain CELLS'.  The runner does the rest."""

    game = "hex"
    highlight_roles = ("new",)

    def __init__(self, path: Path, *, text: str | None = None) -> None:
        super().__init__(path, text=text)
        self.grid: HexGrid = rhombus(DEFAULT_SIDE)
        self.swap_rule = False
        self.setup: Directive | None = None
        self.header = {"board": self.board, "swap": self.swap, "setup": self.set_up}
        self.directives = {"play": self.play}
        self.claims = {**turn_claims(PLAYERS),
                       "chain": self.claim_chain}

    def board(self, d: Directive) -> None:
        shape, _, side = d.value.partition(" ")
        if not side.strip().isdigit():
            raise self.fail(d, f"board needs 'rhombus N', not {d.value!r}")
        self.grid = make_shape(shape, int(side))
        check_board(self.grid)

    def swap(self, d: Directive) -> None:
        if d.value.strip() not in ("on", "off"):
            raise self.fail(d, f"swap needs 'on' or 'off', not {d.value!r}")
        self.swap_rule = d.value.strip() == "on"

    def set_up(self, d: Directive) -> None:
        self.setup = d

    def start(self) -> HexEngine:
        game = HexEngine(self.grid, swap_rule=self.swap_rule)
        if self.setup is not None:
            self._play_all(game, self.setup)
        return game

    def _play_all(self, game: HexEngine, d: Directive) -> int:
        words = d.value.split()
        for word in words:
            player = game.to_move.capitalize()
            if word.lower() == SWAP:
                if not game.may_swap():
                    raise self.fail(d, f"{player} cannot swap: only Blue's first move may, "
                                       "with 'swap: on'")
                game.swap()
                continue
            refusal = game.refusal(game.notation.parse(word))
            if refusal is not None:
                raise self.fail(d, f"{player} cannot place on {word}: {refusal.message}")
            game.place(game.notation.parse(word))
        return len(words)

    def open_panel(self, game: HexEngine, label: str) -> Draft:
        return Draft(label)

    def note(self, draft: Draft, text: str) -> None:
        draft.notes.append(text)

    def point(self, game: HexEngine, word: str) -> Hex:
        return game.notation.parse(word)

    def play(self, game: HexEngine, draft: Draft, d: Directive) -> None:
        draft.moved += self._play_all(game, d)

    def close_panel(self, game: HexEngine, draft: Draft) -> Scene:
        said = f"{game.winner.capitalize()} joins both edges and wins." if game.winner \
            else f"{game.to_move.capitalize()} to play."
        caption = draft.annotations.caption or " ".join([labelled(draft.label, said),
                                                           *draft.notes])
        return annotated(scene(game, caption, draft.moved), draft.annotations)

    def claim_chain(self, game: HexEngine, d: Directive, words: list[str]) -> str | None:
        want = sorted(game.notation.name(game.notation.parse(w)) for w in words[1:])
        have = sorted(game.notation.name(h) for h in game.chain)
        if want == have:
            return None
        return expected(" ".join(words), f"the chain is {' '.join(have) or 'not made'}")

    def unknown_claim(self, game: HexEngine, d: Directive) -> str:
        return f"unknown expectation {d.value!r} (to-move P, winner P|none, chain CELLS)"


# --- the game --------------------------------------------------------------------------------

PRESETS = {"small": 7, "medium": 9, "standard": 11, "large": 13}
PLAYING_NOTE = (
    "Hex needs stones of two colours, about half as many of each as the board has cells; "
    "or play with two pens, and a printed board becomes the game's record.",
    "Red's edges are the shaded top and bottom rows, Blue's the lined left and right "
    "columns. The four corner cells lie on an edge of each player.",
    "A first game is quicker on the 7 x 7 board; the 11 x 11 board is the usual one.",
)


class HexGame(ScriptedGame):
    """Hex: connect your two edges.  Invented by Piet Hein (1942) and, independently, by
    John Nash (1948)."""

    key = "hex"
    name = "Hex"
    designer = "Piet Hein and John Nash"
    year = 1942
    board = HexBoards(DEFAULT_SIDE, check_board, PRESETS, default_shape="rhombus",
                      presets_help="Hex boards of 7, 9, 11 and 13 a side",
                      gallery=((DEFAULT_SIDE, None, ("pdf", "svg")),))
    roles = ROLES
    options = (GameOption("swap", "flag", "Hex: the swap rule: Blue's first move may be "
                          "'swap', taking Red's first stone over (mirrored).",
                          commands=frozenset({"play"})),)
    kit = Kit(boards=((7, "first game"), (DEFAULT_SIDE, None)),
              note=KitNote("Playing Hex on paper", PLAYING_NOTE),
              contents="a 7 x 7 and an 11 x 11 board, a note on playing on paper")
    panel_cell_mm = 8.0

    @property
    def credit(self) -> str:
        return "Hex by Piet Hein (1942) and John Nash (1948), rules in boardgen's words"

    @property
    def template_folder(self) -> Path:
        return Path(__file__).resolve().parent / "templates"

    def board_scene(self, grid: HexGrid, labels: str = "outside") -> Scene:
        """An empty board with each player's edges shaded (every road draws its boards
        through here: the board, the sheet, the kit and the gallery)."""
        return replace(board_scene(grid, labels), cell_roles=edge_cells(grid))

    def new_position(self, options: PlayOptions) -> Position:
        return HexPosition(self, options)

    # Its diagram files, diagrams given as text (boardgen.parse_diagram) and annotations
    # given to boardgen.draw: ScriptedGame does all three from these two hooks.
    def script(self, path: Path, text: str | None, options: GameOptions) -> HexScript:
        return HexScript(path, text=text)

    def diagram_of(self, script: GameScript[Any, Any, Any]) -> Diagram:
        lines = script.run()
        scenes = [s for line in lines for s in line.panels]
        return Diagram(script.title, tuple((line.title, line.panels) for line in lines),
                       legend_of(ROLES, list(scenes)), "Numbered: the panel's moves; "
                       "ringed: the winning chain.", roles=ROLES)


GAME = HexGame()
