"""Copolymer example files replayed through the engine, every claim checked.

An example is data (see ``templates/copolymer/*.txt``): a start position, then panels of
placements, each placement with the classification its author claims ("connection 2": a
connection touching two enemy cells; "ends 1": a non-connecting cell touching one).  The
replay fails, naming the file and line, if a placement is illegal or a claim disagrees
with the engine.  Captions are written from what the engine saw, so they cannot drift.

Directives:
  title: TEXT                  board: SHAPE SIDE        first: x|o (who moves at the start)
  position: (block) ... end    setup: MOVES (replayed from the empty board, not shown)
  line: TITLE                  starts a row of panels from the start position
  panel: LABEL                 starts a panel
  place: CELL connection N [forced] | place: CELL ends N
  expect: to-move P | connections CELLS|none | forced | turn-continues | turn-ends
          | counts x N o N | winner P | solved winner P   (perfect play, exhaustive search)
  note: TEXT                   appended to the panel's caption
  game: copolymer              optional under templates/copolymer/, needed elsewhere
  arrow: / mark: / highlight: / caption:   annotations (see boardgen.games.script)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from boardgen.errors import BoardgenError
from boardgen.errors import IllegalMove as IllegalPlacement
from boardgen.games.copolymer.engine import (
    Copolymer,
    Placement,
    check_board,
    parse_text_position,
    solve,
)
from boardgen.games.script import (
    ANNOTATION_KEYS,
    Annotations,
    Directive,
    ExampleError,
    annotate,
    check_game,
    read_directives,
)
from boardgen.geometry import Hex, HexGrid, make_shape

# The exhaustive search behind 'expect: solved winner P' grows steeply with the empty cells;
# past this many it would run for minutes (the tempo example has 8).
MAX_SOLVED_EMPTY = 12
# Roles a designer may highlight cells with on a Copolymer board.
HIGHLIGHT_ROLES = ("new", "legal", "illegal")


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


@dataclass(frozen=True)
class Line:
    title: str | None
    panels: tuple[Panel, ...]


@dataclass(frozen=True)
class Example:
    name: str
    title: str
    grid: HexGrid
    lines: tuple[Line, ...]


@dataclass
class _PanelDraft:
    label: str
    placements: list[Placement] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    annotations: Annotations[Hex, Hex] = field(default_factory=Annotations)


def _cells(n: int, enemy: str) -> str:
    return f"no {enemy} cell" if n == 0 else f"{n} {enemy} cell{'s' if n > 1 else ''}"


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
        must = " must" if any(forced[:len(connecting)]) else ""
        clauses.append(f"{player}{must} connect{'s' if not must else ''} at {where} "
                       f"(touching {counts} {enemy} cells)")
    if ending is not None:
        touching = _cells(ending.enemy_neighbours, enemy)
        if ending.over:
            clauses.append(f"takes the last cell, {name(ending.cell)}")
        else:
            clauses.append(f"ends the turn at {name(ending.cell)} (touching {touching})")
    sentence = ", then ".join(clauses) if connecting else f"{player} {clauses[0]}"
    if ending is None:
        sentence += " and goes on"
    if any(forced):
        sentence += ": every empty cell was a connection"
    return sentence[0].upper() + sentence[1:] + "."


def _caption(game: Copolymer, draft: _PanelDraft, forced_flags: list[bool]) -> str:
    parts = []
    if draft.placements:
        parts.append(_describe(game, draft.placements, forced_flags))
    elif not game.over:  # once the board is full, nobody is to play
        mover = game.to_move.upper()
        open_ = [game.notation.name(h) for h in game.connections()]
        listed = " and ".join([", ".join(open_[:-1]), open_[-1]] if len(open_) > 1
                               else open_)
        parts.append(f"{mover} to play, with connections open at {listed}." if len(open_) > 1
                     else f"{mover} to play, with a connection open at {listed}." if open_
                     else f"{mover} to play; no connection is open.")
    if game.over:
        winner = game.winner or "?"
        loser = "o" if winner == "x" else "x"
        parts.append(f"Board full: {winner.upper()} wins {game.counts[winner]} to "
                     f"{game.counts[loser]}.")
    parts.extend(draft.notes)
    return " ".join(parts)


class _Replay:
    def __init__(self, path: Path) -> None:
        self.source = str(path)
        self.name = path.stem
        self.title = self.name
        self.grid: HexGrid | None = None
        self.first = "x"
        self.position: Directive | None = None
        self.setup: Directive | None = None
        self.start_expectations: list[Directive] = []

    def fail(self, d: Directive, message: str) -> ExampleError:
        return ExampleError(self.source, d.line, message)

    def new_game(self) -> Copolymer:
        if self.grid is None:
            raise ExampleError(self.source, 1, "no 'board:' line before the first panel")
        game = Copolymer(self.grid, first=self.first)
        if self.position is not None:
            cells, _ = parse_text_position(self.grid, "\n".join(self.position.block),
                                           f"{self.source}:{self.position.line}")
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
        for d in self.start_expectations:
            self.check(game, d)
        return game

    def header(self, d: Directive) -> None:
        if d.key == "game":
            check_game(d, "copolymer", self.source)
        elif d.key == "title":
            self.title = d.value
        elif d.key == "board":
            parts = d.value.split()
            if len(parts) != 2 or not parts[1].isdigit():
                raise self.fail(d, f"board must be 'SHAPE SIDE', e.g. 'hexhex 3', not {d.value!r}")
            try:
                self.grid = make_shape(parts[0], int(parts[1]))
                check_board(self.grid)  # an even board is this line's problem
            except BoardgenError as exc:
                raise self.fail(d, str(exc)) from None
        elif d.key == "first":
            if d.value not in ("x", "o"):
                raise self.fail(d, f"first must be x or o, not {d.value!r}")
            self.first = d.value
        elif d.key == "position":
            self.position = d
        elif d.key == "setup":
            self.setup = d
        elif d.key == "expect":
            self.start_expectations.append(d)
        else:
            raise self.fail(d, f"unknown directive {d.key!r} before the first panel")

    def place(self, game: Copolymer, d: Directive) -> tuple[Placement, bool]:
        words = d.value.split()
        if len(words) < 3 or words[1] not in ("connection", "ends") or not words[2].isdigit():
            raise self.fail(d, "place needs 'CELL connection N' or 'CELL ends N', "
                               f"not {d.value!r}")
        cell_name, kind, count = words[0], words[1], int(words[2])
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
        if result.enemy_neighbours != count or result.connection != (kind == "connection"):
            seen = "a connection" if result.connection else "not a connection"
            raise self.fail(d, f"the example claims {cell_name} is {kind} {count}, but the "
                               f"engine counts {result.enemy_neighbours} enemy neighbours: "
                               f"{seen}")
        if claims_forced != forced:
            raise self.fail(d, f"the example claims {cell_name} was "
                               f"{'' if claims_forced else 'not '}forced, the engine says "
                               f"{'it was' if forced else 'a non-connecting cell was empty'}")
        return result, forced

    def check(self, game: Copolymer, d: Directive) -> None:
        words = d.value.split()
        claim = " ".join(words)
        name = game.notation.name
        if words[:1] == ["to-move"] and len(words) == 2:
            ok, seen = game.to_move == words[1], f"{game.to_move} is to move"
        elif words[:1] == ["connections"]:
            want = sorted(words[1:]) if words[1:] != ["none"] else []
            have = sorted(name(h) for h in game.connections())
            ok, seen = want == have, f"connections are {' '.join(have) or 'none'}"
        elif words == ["forced"]:
            ok, seen = game.forced(), "a non-connecting cell is empty"
        elif words in (["turn-continues"], ["turn-ends"]):
            ok = game.turn_continues == (words[0] == "turn-continues")
            seen = f"the turn {'continues' if game.turn_continues else 'has ended'}"
        elif words[:1] == ["counts"] and len(words) == 5 and words[1] == "x" and \
                words[3] == "o" and words[2].isdigit() and words[4].isdigit():
            ok = (game.counts["x"], game.counts["o"]) == (int(words[2]), int(words[4]))
            seen = f"the counts are x {game.counts['x']} o {game.counts['o']}"
        elif words[:1] == ["winner"] and len(words) == 2:
            if words[1] not in ("x", "o"):
                raise self.fail(d, f"winner must be x or o, not {words[1]!r}")
            ok, seen = game.over and game.winner == words[1], \
                f"the game is {'won by ' + str(game.winner) if game.over else 'not over'}"
        elif words[:2] == ["solved", "winner"] and len(words) == 3:
            empty = len(game.empty_cells())
            if empty > MAX_SOLVED_EMPTY:
                raise self.fail(d, f"'solved' searches every continuation: at most "
                                   f"{MAX_SOLVED_EMPTY} empty cells, this position has {empty}")
            margin = solve(game)
            winner = "x" if margin > 0 else "o"
            ok, seen = winner == words[2], f"perfect play gives {winner} the win ({margin:+d})"
        else:
            raise self.fail(d, f"unknown expectation {claim!r}")
        if not ok:
            raise self.fail(d, f"the example expects '{claim}', but {seen}")


def load_example(path: Path) -> Example:
    """Replay an example file; raises ExampleError (file:line: reason) on any disagreement."""
    replay = _Replay(path)
    directives = read_directives(path)
    body_start = next((i for i, d in enumerate(directives) if d.key in ("line", "panel")),
                      len(directives))
    for d in directives[:body_start]:
        replay.header(d)
    if body_start == len(directives):
        raise ExampleError(replay.source, 1, "no panels")

    lines: list[Line] = []
    line_title: str | None = None
    panels: list[Panel] = []
    game = replay.new_game()
    draft: _PanelDraft | None = None
    forced_flags: list[bool] = []

    def close_panel() -> None:
        nonlocal draft, forced_flags
        if draft is not None:
            numbered = tuple((p.cell, k) for k, p in enumerate(game.this_turn(), start=1)) \
                if draft.placements else ()
            caption = draft.annotations.caption
            cells = game.cells()
            mine = {p.cell for p in draft.placements}
            touched = tuple(sorted(
                {n for cell in mine for n in game.grid.neighbours(cell)
                 if cells.get(n) not in (None, cells[cell])}, key=game.grid.index.__getitem__))
            open_ = () if draft.placements or game.over else tuple(game.connections())
            panels.append(Panel(draft.label, cells, numbered,
                                _caption(game, draft, forced_flags) if caption is None
                                else caption, draft.annotations, open_, touched))
        draft, forced_flags = None, []

    def close_line() -> None:
        nonlocal panels
        close_panel()
        if panels:
            lines.append(Line(line_title, tuple(panels)))
        panels = []

    for d in directives[body_start:]:
        if d.key == "line":
            close_line()
            line_title = d.value or None
            game = replay.new_game()
        elif d.key == "panel":
            close_panel()
            draft = _PanelDraft(d.value)
        elif draft is None:
            raise replay.fail(d, f"'{d.key}:' must come after a 'panel:' line")
        elif d.key == "place":
            placement, forced = replay.place(game, d)
            draft.placements.append(placement)
            forced_flags.append(forced)
        elif d.key == "expect":
            replay.check(game, d)
        elif d.key == "note":
            draft.notes.append(d.value)
        elif d.key in ANNOTATION_KEYS:
            annotate(d, draft.annotations, replay.source, game.notation.parse,
                     game.notation.parse, HIGHLIGHT_ROLES)
        else:
            raise replay.fail(d, f"unknown directive {d.key!r} in a panel")
    close_line()
    assert replay.grid is not None
    return Example(replay.name, replay.title, replay.grid, tuple(lines))
