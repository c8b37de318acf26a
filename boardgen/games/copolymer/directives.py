"""Copolymer example files replayed through the engine, every claim checked.

An example is data (see ``templates/copolymer/*.txt``): a start position, then panels of
placements, each placement with the classification its author claims ("connection 2": a
connection touching two enemy cells; "ends 1": a non-connecting cell touching one).  The
replay fails, naming the file and line, if a placement is illegal or a claim disagrees
with the engine.  Captions are written from what the engine saw, so they cannot drift.

Directives:
  title: TEXT                  board: SHAPE SIDE        first: x|o (who moves at the start)
  source: TEXT                 where the example comes from, if not ours (said under the
                               diagram drawn on its own)
  position: (block) ... end    setup: MOVES (replayed from the empty board, not shown)
  line: TITLE                  starts a row of panels from the start position
  panel: LABEL                 starts a panel
  place: CELL                  a placement, classified by the engine; or with a claim:
  place: CELL connection N [forced] | place: CELL ends N
  expect: to-move P | connections CELLS|none | forced | turn-continues | turn-ends
          | counts x N o N | empty N | winner P | solved winner P   (perfect play, exhaustive
          search)
  note: TEXT                   appended to the panel's caption
  game: copolymer              optional under templates/copolymer/, needed elsewhere
  arrow: / mark: / highlight: / caption:   annotations (see boardgen.games.script);
  highlight: new|connection|legal|illegal CELLS is judged by the engine like a claim, in
  the position the panel shows; highlight: tint CELLS is the designer's own
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from boardgen import limits
from boardgen.errors import BoardgenError
from boardgen.errors import IllegalMove as IllegalPlacement
from boardgen.games.copolymer.engine import (
    Copolymer,
    Placement,
    check_board,
    parse_text_position,
)
from boardgen.games.copolymer.solver import Endgame, SearchTooLarge
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
from boardgen.i18n import ntr, tr
from boardgen.limits import MAX_SOLVED_CLAIMS, MAX_SOLVED_EMPTY
from boardgen.text import quoted

# Highlight roles the engine judges, and what each says of a cell: placed in the turn the
# panel shows, a connection for the player to move, a cell the player to move may take,
# one they may not.
JUDGED_ROLES = ("new", "connection", "legal", "illegal")


def _names(game: Copolymer, cells: list[Hex]) -> str:
    return " ".join(game.notation.name(h) for h in cells) or "none"


def judge_new(game: Copolymer, draft: object, cell: Hex) -> str | None:
    turn = [p.cell for p in game.this_turn()]
    return None if cell in turn else \
        f"the engine finds it was not placed in this turn (placed: {_names(game, turn)})"


def judge_connection(game: Copolymer, draft: object, cell: Hex) -> str | None:
    if game.over:
        return "the engine finds the game over: no connection is open"
    found = game.connections()
    return None if cell in found else \
        f"the engine finds it is not a connection for {game.to_move.upper()} " \
        f"(connections: {_names(game, found)})"


HIGHLIGHT_JUDGES = {"new": judge_new, "connection": judge_connection,
                    **legality_judges(str.upper)}


@dataclass(frozen=True)
class Panel:
    label: str
    cells: dict[Hex, str]  # colour of every occupied cell
    numbered: tuple[tuple[Hex, int], ...]  # this turn's cells, in the order placed
    caption: str
    annotations: Annotations[Hex, Hex] = field(default_factory=Annotations)
    # From the engine, for the picture: the connections open to the player to move when
    # the panel starts a turn, and the enemy cells this panel's placements touch.
    open_connections: tuple[Hex, ...] = ()
    touched: tuple[Hex, ...] = ()


Line = PlayLine[Panel]


@dataclass(frozen=True)
class Example:
    name: str
    title: str
    grid: HexGrid
    lines: tuple[Line, ...]
    source: str | None = None  # where the example comes from, if not ours


@dataclass
class PanelDraft:
    label: str
    placements: list[Placement] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    annotations: Annotations[Hex, Hex] = field(default_factory=Annotations)


def _cells(n: int, enemy: str) -> str:
    if n == 0:
        return tr("no {enemy} cell").format(enemy=enemy)
    return ntr("{n} {enemy} cell", "{n} {enemy} cells", n).format(n=n, enemy=enemy)


def _describe(game: Copolymer, placements: list[Placement], forced: list[bool]) -> str:
    """One sentence for a panel's placements (all by one player), from what the engine saw:
    the connections in a row, then the cell that ended the turn or filled the board."""
    name = game.notation.name
    player = placements[0].player.upper()
    enemy = "O" if player == "X" else "X"
    last = placements[-1]
    ending = last if (not last.connection or last.over) else None
    connecting = placements[:-1] if ending else placements
    clauses = []
    if connecting:
        where = ", ".join(name(p.cell) for p in connecting)
        counts = ", ".join(str(p.enemy_neighbours) for p in connecting)
        # Counted by the cells connected at: English says the same for one or several,
        # French "fait une connexion" or "fait des connexions".
        connects = ntr("{player} must connect at {cells} (touching {counts} {enemy} cells)",
                       "{player} must connect at {cells} (touching {counts} {enemy} cells)",
                       len(connecting)) if any(forced[:len(connecting)]) else \
            ntr("{player} connects at {cells} (touching {counts} {enemy} cells)",
                "{player} connects at {cells} (touching {counts} {enemy} cells)",
                len(connecting))
        clauses.append(connects.format(player=player, cells=where, counts=counts, enemy=enemy))
    if ending is not None:
        touching = _cells(ending.enemy_neighbours, enemy)
        if ending.over:
            clauses.append(tr("takes the last cell, {cell}").format(cell=name(ending.cell)))
        else:
            clauses.append(tr("ends the turn at {cell} (touching {touching})").format(
                cell=name(ending.cell), touching=touching))
    sentence = tr(", then ").join(clauses) if connecting else \
        tr("{player} {does}").format(player=player, does=clauses[0])
    if ending is None:
        sentence += tr(" and goes on")
    if any(forced):
        sentence += tr(": every empty cell was a connection")
    return sentence[0].upper() + sentence[1:] + "."


def _caption(game: Copolymer, draft: PanelDraft, forced_flags: list[bool]) -> str:
    parts = []
    if draft.placements:
        parts.append(_describe(game, draft.placements, forced_flags))
    elif not game.over:  # once the board is full, nobody is to play
        mover = game.to_move.upper()
        open_ = [game.notation.name(h) for h in game.connections()]
        listed = tr(" and ").join([", ".join(open_[:-1]), open_[-1]] if len(open_) > 1
                                  else open_)
        said = tr("{player} to play, with connections open at {cells}.") if len(open_) > 1 \
            else tr("{player} to play, with a connection open at {cells}.") if open_ \
            else tr("{player} to play; no connection is open.")
        parts.append(said.format(player=mover, cells=listed))
    if game.over:
        winner = game.winner or "?"
        loser = "o" if winner == "x" else "x"
        parts.append(tr("Board full: {player} wins {won} to {lost}.").format(
            player=winner.upper(), won=game.counts[winner], lost=game.counts[loser]))
    parts.extend(draft.notes)
    return " ".join(parts)


def describe_turn(game: Copolymer, placements: list[Placement], forced: list[bool]) -> str:
    """A turn's placements so far, and the result if they filled the board: what a panel of
    exactly these placements says (an animation's caption)."""
    return _caption(game, PanelDraft("", placements), forced)


class CopolymerScript(GameScript[Copolymer, PanelDraft, Panel]):
    """A Copolymer diagram file: its header, 'place:' directive and claims."""

    move_keys = frozenset({"place"})  # an animation's frame after each

    game = "copolymer"
    highlight_claims = HIGHLIGHT_JUDGES

    def __init__(self, path: Path, *, text: str | None = None) -> None:
        super().__init__(path, text=text)
        self.grid: HexGrid | None = None
        self.first = "x"
        self.position: Directive | None = None
        self.setup: Directive | None = None
        self.origin: str | None = None  # the source: directive (self.source is the file)
        self.forced_flags: list[bool] = []
        # 'expect: solved' claims checked so far, and the positions their searches may
        # still visit: the whole file's searching is bounded, not each claim's alone.
        self.solved_claims = 0
        self.solver_budget = limits.MAX_SOLVER_POSITIONS  # read now: tests lower it
        self.header = {"board": self.board, "first": self.first_player,
                       "position": self.start_position, "setup": self.setup_moves,
                       "source": self.source_of}
        self.directives = {"place": self.place}
        self.claims = {"to-move": self.claim_to_move, "connections": self.claim_connections,
                       "forced": self.claim_forced, "turn-continues": self.claim_turn,
                       "turn-ends": self.claim_turn, "counts": self.claim_counts,
                       "empty": self.claim_empty, "winner": self.claim_winner,
                       "solved": self.claim_solved}

    # --- the header ----------------------------------------------------------------------

    def board(self, d: Directive) -> None:
        """board: SHAPE SIDE

        The board: ``hexhex 3``, ``rhombus 5`` or ``triangle 5``; Copolymer needs an
        odd number of cells, so that the majority decides.
        """
        parts = d.value.split()
        if len(parts) != 2 or not parts[1].isdigit():
            raise self.fail(d, f"board must be 'SHAPE SIDE', e.g. 'hexhex 3', not {d.value!r}")
        try:
            self.grid = make_shape(parts[0], int(parts[1]))
            check_board(self.grid)  # an odd number of cells, so that the majority decides
        except BoardgenError as exc:
            raise self.fail(d, str(exc)) from None

    def first_player(self, d: Directive) -> None:
        """first: x|o

        Who moves at the start (default x).
        """
        if d.value not in ("x", "o"):
            raise self.fail(d, f"first must be x or o, not {d.value!r}")
        self.first = d.value

    def source_of(self, d: Directive) -> None:
        """source: TEXT

        Where the example comes from, if it is not ours (e.g. a designer's worked
        example): said under the diagram when it is drawn on its own.
        """
        if not d.value.strip():
            raise self.fail(d, "source needs a text, e.g. 'the rule sheet's figure 2'")
        self.origin = d.value.strip()

    def start_position(self, d: Directive) -> None:
        """position: (a block, up to end)

        A start drawn in the server's style: ``.`` empty, ``x``, ``o``.
        """
        self.position = d

    def setup_moves(self, d: Directive) -> None:
        """setup: MOVES

        Moves played by the rules from the start, not numbered in the panels.
        """
        self.setup = d

    def start(self) -> Copolymer:
        if self.grid is None:
            raise ExampleError(self.source, 1, "no 'board:' line before the first panel")
        game = Copolymer(self.grid, first=self.first)
        if self.position is not None:
            cells, _ = parse_text_position(self.grid, "\n".join(self.position.block),
                                           f"{self.source}:{self.position.line}"
                                           if self.source else f"line {self.position.line}")
            game.set_position(cells, self.first)
        if self.setup is not None:
            for number, token in enumerate(self.setup.value.split(), start=1):
                try:
                    game.place(game.notation.parse(token))
                except BoardgenError as exc:
                    raise self.fail(self.setup, f"setup move {number} ({token}): {exc}") \
                        from None
            # The start of the example is a fresh turn: numbering begins with its panels.
            game.turn_start = len(game.history)
        return game

    # --- panels ----------------------------------------------------------------------------

    def open_panel(self, game: Copolymer, label: str) -> PanelDraft:
        self.forced_flags = []
        return PanelDraft(label)

    def note(self, draft: PanelDraft, text: str) -> None:
        draft.notes.append(text)

    def point(self, game: Copolymer, word: str) -> Hex:
        return game.notation.parse(word)

    def place(self, game: Copolymer, draft: PanelDraft, d: Directive) -> None:
        """place: CELL | place: CELL connection N [forced] | place: CELL ends N

        A placement, classified by the engine; or with the classification claimed (a
        connection touching N enemy cells, or a cell that ends the turn touching N).
        """
        words = d.value.split()
        classified = len(words) > 1  # else the engine classifies it (no claim)
        if not words or (classified and (len(words) < 3 or words[1] not in
                                         ("connection", "ends") or not words[2].isdigit())):
            raise self.fail(d, "place needs 'CELL', 'CELL connection N' or 'CELL ends N', "
                               f"not {d.value!r}")
        cell_name = words[0]
        kind, count = (words[1], int(words[2])) if classified else ("", 0)
        claims_forced = words[3:] == ["forced"]
        if words[3:] and not claims_forced:
            raise self.fail(d, f"unexpected {' '.join(words[3:])!r} after the claim")
        try:
            cell = game.notation.parse(cell_name)
        except BoardgenError as exc:
            raise self.fail(d, str(exc)) from None
        forced = game.forced()
        mover = game.to_move.upper()
        try:
            result = game.place(cell)
        except IllegalPlacement as exc:
            raise self.fail(d, f"{mover} cannot place on {cell_name}: {exc.reason}") from None
        if classified and (result.enemy_neighbours != count
                           or result.connection != (kind == "connection")):
            seen = "a connection" if result.connection else "not a connection"
            raise self.fail(d, f"the example claims {cell_name} is {kind} {count}, but the "
                               f"engine counts {result.enemy_neighbours} enemy neighbours: "
                               f"{seen}")
        if classified and claims_forced != forced:
            raise self.fail(d, f"the example claims {cell_name} was "
                               f"{'' if claims_forced else 'not '}forced, the engine says "
                               f"{'it was' if forced else 'a non-connecting cell was empty'}")
        draft.placements.append(result)
        self.forced_flags.append(forced)

    def close_panel(self, game: Copolymer, draft: PanelDraft) -> Panel:
        numbered = tuple((p.cell, k) for k, p in enumerate(game.this_turn(), start=1)) \
            if draft.placements else ()
        caption = draft.annotations.caption
        cells = game.cells()
        mine = {p.cell for p in draft.placements}
        touched = tuple(sorted(
            {n for cell in mine for n in game.grid.neighbours(cell)
             if cells.get(n) not in (None, cells[cell])}, key=game.grid.index.__getitem__))
        open_ = () if draft.placements or game.over else tuple(game.connections())
        return Panel(draft.label, cells, numbered,
                     _caption(game, draft, self.forced_flags) if caption is None
                     else caption, draft.annotations, open_, touched)

    # --- claims ------------------------------------------------------------------------------

    @staticmethod
    def _claim(words: list[str], ok: bool, seen: str) -> str | None:
        return None if ok else expected(" ".join(words), seen)

    def claim_to_move(self, game: Copolymer, d: Directive, words: list[str]) -> str | None:
        """to-move P

        P (x or o) is to move.
        """
        if len(words) != 2:
            raise NotAClaim
        return self._claim(words, game.to_move == words[1], f"{game.to_move} is to move")

    def claim_connections(self, game: Copolymer, d: Directive, words: list[str]
                          ) -> str | None:
        """connections CELLS|none

        The connections open to the player to move are exactly CELLS.
        """
        want = sorted(words[1:]) if words[1:] != ["none"] else []
        have = sorted(game.notation.name(h) for h in game.connections())
        return self._claim(words, want == have, f"connections are {' '.join(have) or 'none'}")

    def claim_forced(self, game: Copolymer, d: Directive, words: list[str]) -> str | None:
        """forced

        The player to move must take a connection: no other empty cell is left.
        """
        if words != ["forced"]:
            raise NotAClaim
        return self._claim(words, game.forced(), "a non-connecting cell is empty")

    def claim_turn(self, game: Copolymer, d: Directive, words: list[str]) -> str | None:
        """turn-continues | turn-ends

        The turn goes on after a connection, or has ended.
        """
        if len(words) != 1:
            raise NotAClaim
        return self._claim(words, game.turn_continues == (words[0] == "turn-continues"),
                           f"the turn {'continues' if game.turn_continues else 'has ended'}")

    def claim_counts(self, game: Copolymer, d: Directive, words: list[str]) -> str | None:
        """counts x N o N

        How many cells each player holds.
        """
        if not (len(words) == 5 and words[1] == "x" and words[3] == "o" and
                words[2].isdigit() and words[4].isdigit()):
            raise NotAClaim
        return self._claim(words, (game.counts["x"], game.counts["o"]) ==
                           (int(words[2]), int(words[4])),
                           f"the counts are x {game.counts['x']} o {game.counts['o']}")

    def claim_empty(self, game: Copolymer, d: Directive, words: list[str]) -> str | None:
        """empty N

        How many cells are still empty.
        """
        if len(words) != 2 or not words[1].isdigit():
            raise NotAClaim
        empty = len(game.empty_cells())
        return self._claim(words, empty == int(words[1]),
                           f"{empty} cell{'s' * (empty != 1)} {'are' if empty != 1 else 'is'} "
                           "empty")

    def claim_winner(self, game: Copolymer, d: Directive, words: list[str]) -> str | None:
        """winner P

        The board is full and P holds the majority.
        """
        if len(words) != 2:
            raise NotAClaim
        if words[1] not in ("x", "o"):
            raise self.fail(d, f"winner must be x or o, not {quoted(words[1])}")
        state = f"won by {game.winner}" if game.over else "not over"
        return self._claim(words, game.over and game.winner == words[1], f"the game is {state}")

    def claim_solved(self, game: Copolymer, d: Directive, words: list[str]) -> str | None:
        """solved winner P

        With perfect play from here, P wins (searched to the end; at most 12 empty
        cells).
        """
        if words[:2] != ["solved", "winner"] or len(words) != 3:
            raise NotAClaim
        if words[2] not in ("x", "o"):
            raise self.fail(d, f"winner must be x or o, not {quoted(words[2])}")
        empty = len(game.empty_cells())
        if empty > MAX_SOLVED_EMPTY:
            raise self.fail(d, f"'solved' searches every continuation: at most "
                               f"{MAX_SOLVED_EMPTY} empty cells, this position has {empty}")
        self.solved_claims += 1
        if self.solved_claims > MAX_SOLVED_CLAIMS:
            raise self.fail(d, f"more than {MAX_SOLVED_CLAIMS} 'solved' claims checked in one "
                               "diagram (a claim before the first panel counts at every "
                               "line:); each searches every continuation")
        search = Endgame(game, node_limit=self.solver_budget)
        try:
            winner = search.winner()  # a yes-or-no search: the fast one
            ok = winner == words[2]
            if not ok:  # say by how much, which costs an exact search (a few times more)
                exact = Endgame(game, node_limit=max(1, self.solver_budget - search.nodes))
                margin = f" ({exact.exact_margin():+d})"
                search.nodes += exact.nodes
            else:
                margin = ""
        except SearchTooLarge as exc:
            raise self.fail(d, f"'solved': {exc} (this file's claims together); claim it "
                               "where fewer cells are empty, or make fewer claims") from None
        finally:
            self.solver_budget -= search.nodes
        return self._claim(words, ok, f"perfect play gives {winner} the win{margin}")


def load_example(path: Path, *, text: str | None = None) -> Example:
    """Replay an example file (or ``text``, a file's contents); raises ExampleError
    (file:line: reason) on any disagreement."""
    return example_of(CopolymerScript(path, text=text))


def example_of(script: CopolymerScript) -> Example:
    """The example a script replays (see :func:`load_example`)."""
    lines = script.run()
    assert script.grid is not None
    return Example(script.name, script.title, script.grid, tuple(lines), script.origin)
