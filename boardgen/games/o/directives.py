"""O diagram files (``templates/o/*.txt``, or any file with ``game: o``), replayed through
the engine with every claim checked.

Directives:
  game: o              title: TEXT           board: hexhex N        variant: partisan
  numbers: off         draw a panel's stones as plain stones, not numbered
  glyphs: FILE         the glyph chart in force (a glyph file, beside the diagram file),
  glyphs: (block) ... end   or its 'glyph: ruling' lines inside the diagram file
  position: (block) ... end   a start drawn as text ('.' empty, 'o' a stone), set without
                       the placement rules
  setup: CELLS         stones played in order from the start, by the rules (not numbered in
                       the pictures)
  line: TITLE          a row of panels, starting again from the start position
  panel: LABEL         a panel: the position after its placements, those numbered
  place: CELL          the player to move places a stone (refused if the rules refuse it)
  undo: N              take back the last N stones
  show: CELLS          colour empty cells legal or illegal, as the engine rules them for the
                       player to move
  expect: to-move P | legal CELLS | illegal CELL WHY (a glyph name, corner or taken) | loop
          | over | winner P | stones N
  note: TEXT           added to the panel's caption
  arrow: / mark: / highlight: / caption:   annotations (see boardgen.games.script);
  highlight: legal|illegal|new|perimeter|corner CELLS is judged by the engine like a
  claim, in the position the panel shows ('new': cut off from the edge); highlight: tint
  CELLS is the designer's own
A claim the engine does not share stops the build with the file and line.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from boardgen.errors import BoardgenError, IllegalMove, option
from boardgen.games.o.engine import (
    IMPARTIAL,
    PARTISAN,
    OGame,
    OReason,
    drawn_stones,
    parse_glyph_table,
)
from boardgen.games.script import (
    Annotations,
    Directive,
    ExampleError,
    GameScript,
    NotAClaim,
    PlayLine,
    expected,
    legality_judges,
)
from boardgen.geometry import Hex, HexGrid, make_shape
from boardgen.i18n import N_, tr
from boardgen.text import read_input_text


def _names(game: OGame, cells: Iterable[Hex]) -> str:
    return " ".join(sorted(game.notation.name(h) for h in cells)) or "none"


def judge_cut_off(game: OGame, draft: object, cell: Hex) -> str | None:
    return None if cell in game.enclosed else \
        f"the engine finds it is not cut off from the edge (cut off: " \
        f"{_names(game, game.enclosed)})"


def judge_perimeter(game: OGame, draft: object, cell: Hex) -> str | None:
    return None if cell in game.grid.perimeter else "it is not on the perimeter"


def judge_corner(game: OGame, draft: object, cell: Hex) -> str | None:
    return None if cell in game.grid.corners else "it is not a corner"


# Highlight roles the engine judges, by role (in the position the panel shows).
HIGHLIGHT_JUDGES = {**legality_judges(str.capitalize), "new": judge_cut_off,
                    "perimeter": judge_perimeter, "corner": judge_corner}


@dataclass(frozen=True)
class OPanel:
    label: str
    stones: frozenset[Hex]
    numbered: tuple[tuple[Hex, int], ...]  # this panel's stones and their move numbers
    shown: dict[Hex, str]  # cells coloured legal / illegal by the engine
    loop: frozenset[Hex]  # the loop's stones, once formed
    enclosed: frozenset[Hex]  # the empty cells the loop cuts off
    closing: Hex | None  # the stone that formed the loop
    caption: str
    annotations: Annotations[Hex, Hex]


OLine = PlayLine[OPanel]


@dataclass(frozen=True)
class OExample:
    name: str
    title: str
    grid: HexGrid
    partisan: bool
    lines: tuple[OLine, ...]
    numbers: bool = True  # number each panel's stones with their move numbers


@dataclass
class PanelDraft:
    label: str
    placed: list[tuple[Hex, str, int, str]] = field(default_factory=list)  # cell, player,
    # move number, the ring's glyph before the stone
    shown: dict[Hex, str] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    annotations: Annotations[Hex, Hex] = field(default_factory=Annotations)


class OScript(GameScript[OGame, PanelDraft, OPanel]):
    """An O diagram file: its header, 'place:', 'undo:' and 'show:' directives and claims."""

    move_keys = frozenset({"place", "undo"})  # an animation's frame after each

    game = "o"
    highlight_claims = HIGHLIGHT_JUDGES

    def __init__(self, path: Path, table: dict[str, str] | None, *,
                 text: str | None = None) -> None:
        super().__init__(path, text=text)
        self.table = table
        self.table_given = table is not None  # by --glyphs (or glyphs=)
        self.own_chart = False  # the file names its own chart
        self.grid: HexGrid | None = None
        self.partisan = False
        self.setup: Directive | None = None
        self.position: Directive | None = None
        self.numbers = True
        self.header = {"board": self.board, "variant": self.variant, "setup": self.setup_stones,
                       "numbers": self.numbering, "glyphs": self.glyphs,
                       "position": self.start_position}
        self.directives = {"place": self.place, "undo": self.undo, "show": self.show}
        self.claims = {"to-move": self.claim_to_move, "legal": self.claim_legal,
                       "illegal": self.claim_illegal, "loop": self.claim_loop,
                       "over": self.claim_over, "winner": self.claim_winner,
                       "stones": self.claim_stones}

    # --- the header ----------------------------------------------------------------------

    def board(self, d: Directive) -> None:
        """board: hexhex N

        The board, an edge of 4 or more.
        """
        words = d.value.split()
        if len(words) != 2 or words[0] != "hexhex" or not words[1].isdigit():
            raise self.fail(d, f"board must be 'hexhex N' for O, not {d.value!r}")
        try:
            self.grid = make_shape("hexhex", int(words[1]))
            OGame(self.grid)  # refuses boards O is not played on
        except BoardgenError as exc:
            raise self.fail(d, str(exc)) from None

    def variant(self, d: Directive) -> None:
        """variant: partisan|impartial

        Partisan O (left and right) or impartial O (first and second, the default).
        """
        if d.value not in ("partisan", "impartial"):
            raise self.fail(d, f"variant must be partisan or impartial, not {d.value!r}")
        self.partisan = d.value == "partisan"

    def setup_stones(self, d: Directive) -> None:
        """setup: MOVES

        Stones placed by the rules from the start, not numbered in the panels.
        """
        self.setup = d

    def glyphs(self, d: Directive) -> None:
        """glyphs: FILE | glyphs: (a block, up to end)

        The glyph chart in force: a glyph file beside the diagram file, or its
        ``glyph: ruling`` lines inside it; so that one file draws one picture, whatever
        chart the command line names (``--glyphs`` cannot replace it).
        """
        if self.table_given:
            raise self.fail(d, f"the file names its own glyph chart: {option('glyphs')} "
                               "cannot replace it (leave one out)")
        if self.own_chart:
            raise self.fail(d, "a second 'glyphs:' line: one chart a file")
        if d.block:
            try:  # read as lines of no file: errors say 'line N' (N the file's line)
                self.table = parse_glyph_table("\n".join(d.block), "", first_line=d.line + 1)
            except BoardgenError as exc:
                at_line = re.match(r"line (\d+): (.*)", str(exc), re.S)
                if at_line:
                    raise ExampleError(self.source, int(at_line.group(1)),
                                       at_line.group(2)) from None
                # A glyph with no ruling is the block's fault, not a line's.
                raise self.fail(d, str(exc).removeprefix(": ")) from None
        else:
            path = Path(d.value)
            if self.text is None and not path.is_absolute():
                path = self.path.parent / path  # beside the diagram file
            self.table = parse_glyph_table(read_input_text(path, "glyph chart"), str(path))
        self.own_chart = True

    def start_position(self, d: Directive) -> None:
        """position: (a block, up to end)

        A start drawn as ``play o`` prints it: ``.`` empty, ``o`` a stone.
        """
        self.position = d

    def numbering(self, d: Directive) -> None:
        """numbers: on|off

        Stones numbered in the order placed (on, the default) or plain.
        """
        if d.value not in ("on", "off"):
            raise self.fail(d, f"numbers must be on or off, not {d.value!r}")
        self.numbers = d.value == "on"

    def start(self) -> OGame:
        if self.grid is None:
            raise ExampleError(self.source, 1, "no 'board:' line before the first panel")
        game = OGame(self.grid, partisan=self.partisan, table=self.table)
        if self.position is not None:
            d = self.position
            try:
                stones = drawn_stones(self.grid, "\n".join(d.block), "the drawing")
            except BoardgenError as exc:
                raise self.fail(d, str(exc)) from None
            game.setup(stones)
        setup = self.setup
        if setup is not None:
            for number, word in enumerate(setup.value.split(), start=1):
                try:
                    self._place(game, setup, word)
                except ExampleError as exc:
                    raise self.fail(setup, f"setup stone {number}: {exc}".replace(
                        f"{self.source}:{setup.line}: ", "")) from None
        return game

    # --- panels ----------------------------------------------------------------------------

    def open_panel(self, game: OGame, label: str) -> PanelDraft:
        return PanelDraft(label)

    def close_panel(self, game: OGame, draft: PanelDraft) -> OPanel:
        return _panel(game, draft, self.numbers)

    def note(self, draft: PanelDraft, text: str) -> None:
        draft.notes.append(text)

    def point(self, game: OGame, word: str) -> Hex:
        return game.notation.parse(word)

    def _cell(self, game: OGame, d: Directive, word: str) -> Hex:
        try:
            return game.notation.parse(word)
        except BoardgenError as exc:
            raise self.fail(d, str(exc)) from None

    def _place(self, game: OGame, d: Directive, word: str) -> tuple[Hex, str, int, str]:
        cell = self._cell(game, d, word)
        player = game.to_move
        glyph = game.ring_glyph(cell)
        try:
            game.place(cell)
        except IllegalMove as exc:
            raise self.fail(d, f"{player.capitalize()} cannot place on {word}: "
                               f"{exc.reason}") from None
        return cell, player, len(game.history), glyph

    def place(self, game: OGame, draft: PanelDraft, d: Directive) -> None:
        """place: CELLS

        Stones placed in turn, each refused if the rules forbid it.
        """
        for word in d.value.split():
            draft.placed.append(self._place(game, d, word))

    def undo(self, game: OGame, draft: PanelDraft, d: Directive) -> None:
        """undo: N

        Take back the last N stones.
        """
        if not game.history:
            raise self.fail(d, "undo: there is no stone to take back")
        if not d.value.isdigit() or not 1 <= int(d.value) <= len(game.history):
            raise self.fail(d, f"undo needs a number of stones from 1 to {len(game.history)}")
        for _ in range(int(d.value)):
            stone = game.undo()
            draft.placed = [p for p in draft.placed if p[0] != stone.cell]

    def show(self, game: OGame, draft: PanelDraft, d: Directive) -> None:
        """show: CELLS

        Colour CELLS legal or illegal, as the engine rules for the player to move.
        """
        for word in d.value.split():
            cell = self._cell(game, d, word)
            draft.shown[cell] = "legal" if game.refusal(cell) is None else "illegal"

    # --- claims ------------------------------------------------------------------------------

    def _players(self, game: OGame) -> tuple[str, str]:
        return PARTISAN if game.partisan else IMPARTIAL

    def unknown_claim(self, game: OGame, d: Directive) -> str:
        claim = " ".join(d.value.split())
        return (f"unknown expectation {claim!r} (to-move P, legal CELLS, illegal CELL "
                "GLYPH|corner|taken, loop, over, winner P, stones N; P is "
                f"{' or '.join(self._players(game))})")

    @staticmethod
    def _claim(game: OGame, words: list[str], ok: bool, seen: str) -> str | None:
        """The engine's disagreement, with the stones on the board."""
        if ok:
            return None
        stones = " ".join(game.notation.name(h) for h in game.stones()) or "none"
        return f"{expected(' '.join(words), seen)} (stones: {stones})"

    def claim_to_move(self, game: OGame, d: Directive, words: list[str]) -> str | None:
        """to-move P

        P (first or second; left or right in partisan O) is to move.
        """
        if len(words) != 2 or words[1] not in self._players(game):
            raise NotAClaim
        return self._claim(game, words, not game.over and game.to_move == words[1],
                           "the game is over" if game.over else f"{game.to_move} is to move")

    def claim_legal(self, game: OGame, d: Directive, words: list[str]) -> str | None:
        """legal CELLS

        The player to move may place on each of CELLS.
        """
        if len(words) < 2:
            raise NotAClaim
        refused = [(w, game.refusal(self._cell(game, d, w))) for w in words[1:]]
        bad = [f"{w}: {refusal.message}" for w, refusal in refused if refusal is not None]
        return self._claim(game, words, not bad, "; ".join(bad))

    def claim_illegal(self, game: OGame, d: Directive, words: list[str]) -> str | None:
        """illegal CELL GLYPH|corner|taken

        The player to move may not place on CELL, for that reason: the glyph its
        ring forms, the corner rule, or a stone already there.
        """
        if len(words) != 3:
            raise NotAClaim
        cell = self._cell(game, d, words[1])
        refusal = game.refusal(cell)
        why = words[2]
        if refusal is None:
            return self._claim(game, words, False, f"{words[1]} is legal")
        if why == "taken":
            ok = refusal.code == OReason.TAKEN
        elif why == "corner":
            ok = refusal.code == OReason.CORNER
        else:  # a glyph's name
            ok = game.ring_glyph(cell) == why and \
                refusal.code in (OReason.GLYPH, OReason.PARTISAN_GLYPH)
        return self._claim(game, words, ok, refusal.message)

    def claim_loop(self, game: OGame, d: Directive, words: list[str]) -> str | None:
        """loop

        A loop has formed.
        """
        if words != ["loop"]:
            raise NotAClaim
        return self._claim(game, words, bool(game.loop), "no loop has formed")

    def claim_over(self, game: OGame, d: Directive, words: list[str]) -> str | None:
        """over

        The game is over.
        """
        if words != ["over"]:
            raise NotAClaim
        return self._claim(game, words, game.over, "the game goes on")

    def claim_winner(self, game: OGame, d: Directive, words: list[str]) -> str | None:
        """winner P

        The game is over and P won.
        """
        if len(words) != 2:
            raise NotAClaim
        return self._claim(game, words, game.over and game.winner == words[1],
                           f"the winner is {game.winner}" if game.over else "the game goes on")

    def claim_stones(self, game: OGame, d: Directive, words: list[str]) -> str | None:
        """stones N

        N stones are on the board.
        """
        if len(words) != 2 or not words[1].isdigit():
            raise NotAClaim
        return self._claim(game, words, len(game.stones()) == int(words[1]),
                           f"there are {len(game.stones())}")


def load_o_example(path: Path, *, table: dict[str, str] | None = None,
                   text: str | None = None) -> OExample:
    """Replay an O diagram file (or ``text``, a file's contents), under ``table`` (default:
    the file's own chart, else the engine's); raises ExampleError (file:line: reason) on
    any disagreement."""
    return example_of(OScript(path, table, text=text))


def example_of(script: OScript) -> OExample:
    """The example a script replays (see :func:`load_o_example`)."""
    lines = script.run()
    assert script.grid is not None
    return OExample(script.name, script.title, script.grid, script.partisan, tuple(lines),
                    script.numbers)


# The players' names as captions say them (capitalised), for the catalog: translated
# where a caption names a player (tr(player.capitalize())).
PLAYER_WORDS = (N_("First"), N_("Second"), N_("Left"), N_("Right"))


def last_stone_caption(game: OGame) -> str:
    """The stone just placed, as a panel of that one placement says it (an animation's
    caption): who placed it where, and the loop or the end it made."""
    stone = game.history[-1]
    draft = PanelDraft("", [(stone.cell, stone.player, len(game.history), "")])
    return _panel(game, draft).caption


def _panel(game: OGame, draft: PanelDraft, numbered: bool = True) -> OPanel:
    name = game.notation.name
    # Players' words: who placed which stone where (its number is on the stone), not the
    # engine's name for the ring it went into.
    words = [(tr("{player} places stone {number} on {cell}") if numbered else
              tr("{player} places a stone on {cell}")).format(
                  player=tr(player.capitalize()), number=number, cell=name(cell))
             for cell, player, number, _glyph in draft.placed]
    parts = ["; ".join(words) + "." if words else
             (tr("{player} to play.").format(player=tr(game.to_move.capitalize()))
              if not game.over else "")]
    for cell in draft.shown:
        reason = game.why_illegal(cell)
        parts.append(tr("{cell}: {ruling}.").format(
            cell=name(cell), ruling=tr("a stone may go here") if reason is None else reason))
    closing = game.history[-1].cell if game.over and game.winner else None
    if closing is not None:
        parts.append(tr("{player} closes a loop of {count} stones with {cell} and wins.")
                     .format(player=tr((game.winner or "").capitalize()),
                             count=len(game.loop), cell=name(closing)))
    elif game.over:
        parts.append(tr("Nobody can place a stone."))
    parts.extend(draft.notes)
    caption = draft.annotations.caption if draft.annotations.caption is not None \
        else " ".join(p for p in parts if p)
    # The cells shown are coloured as the engine rules them in the position drawn, as the
    # caption words them (a stone placed after the show: may have changed the ruling).
    shown = {cell: "legal" if game.why_illegal(cell) is None else "illegal"
             for cell in draft.shown}
    return OPanel(draft.label, frozenset(game.stones()),
                  tuple((cell, number) for cell, _, number, _ in draft.placed),
                  shown, game.loop, game.enclosed, closing, caption, draft.annotations)
