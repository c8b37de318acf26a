"""O diagram files (``templates/o/*.txt``, or any file with ``game: o``), replayed through
the engine with every claim checked.

Directives:
  game: o              title: TEXT           board: hexhex N        variant: partisan
  numbers: off         draw a panel's stones as plain stones, not numbered
  setup: CELLS         stones played in order from the empty board, by the rules (not
                       numbered in the pictures)
  line: TITLE          a row of panels, starting again from the start position
  panel: LABEL         a panel: the position after its placements, those numbered
  place: CELL          the player to move places a stone (refused if the rules refuse it)
  undo: N              take back the last N stones
  show: CELLS          colour empty cells legal or illegal, as the engine rules them for the
                       player to move
  expect: to-move P | legal CELLS | illegal CELL WHY (a glyph name, corner or taken) | loop
          | over | winner P | stones N
  note: TEXT           added to the panel's caption
  arrow: / mark: / highlight: / caption:   annotations (see boardgen.games.script)
A claim the engine does not share stops the build with the file and line.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from boardgen.errors import BoardgenError, IllegalMove
from boardgen.games.o.engine import IMPARTIAL, PARTISAN, OGame
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

# Roles a designer may highlight cells with on an O board.
HIGHLIGHT_ROLES = ("new", "legal", "illegal", "perimeter", "corner")


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


@dataclass(frozen=True)
class OLine:
    title: str | None
    panels: tuple[OPanel, ...]


@dataclass(frozen=True)
class OExample:
    name: str
    title: str
    grid: HexGrid
    partisan: bool
    lines: tuple[OLine, ...]
    numbers: bool = True  # number each panel's stones with their move numbers


@dataclass
class _Draft:
    label: str
    placed: list[tuple[Hex, str, int, str]] = field(default_factory=list)  # cell, player,
    # move number, the ring's glyph before the stone
    shown: dict[Hex, str] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    annotations: Annotations[Hex, Hex] = field(default_factory=Annotations)


def load_o_example(path: Path, *, table: dict[str, str] | None = None) -> OExample:
    """Replay an O diagram file (under ``table``, default the engine's chart); raises
    ExampleError (file:line: reason) on any disagreement."""
    source = str(path)
    directives = read_directives(path)

    def fail(d: Directive, message: str) -> ExampleError:
        return ExampleError(source, d.line, message)

    title = path.stem
    grid: HexGrid | None = None
    partisan = False
    setup: Directive | None = None
    numbers = True
    start_claims: list[Directive] = []
    body = next((i for i, d in enumerate(directives) if d.key in ("line", "panel")),
                len(directives))
    for d in directives[:body]:
        if d.key == "game":
            check_game(d, "o", source)
        elif d.key == "title":
            title = d.value
        elif d.key == "board":
            words = d.value.split()
            if len(words) != 2 or words[0] != "hexhex" or not words[1].isdigit():
                raise fail(d, f"board must be 'hexhex N' for O, not {d.value!r}")
            try:
                grid = make_shape("hexhex", int(words[1]))
                OGame(grid)  # refuses boards O is not played on
            except BoardgenError as exc:
                raise fail(d, str(exc)) from None
        elif d.key == "variant":
            if d.value not in ("partisan", "impartial"):
                raise fail(d, f"variant must be partisan or impartial, not {d.value!r}")
            partisan = d.value == "partisan"
        elif d.key == "setup":
            setup = d
        elif d.key == "numbers":
            if d.value not in ("on", "off"):
                raise fail(d, f"numbers must be on or off, not {d.value!r}")
            numbers = d.value == "on"
        elif d.key == "expect":
            start_claims.append(d)
        else:
            raise fail(d, f"unknown directive {d.key!r} before the first panel")
    if body == len(directives):
        raise ExampleError(source, 1, "no panels")
    if grid is None:
        raise ExampleError(source, 1, "no 'board:' line before the first panel")
    board = grid

    def parse_cell(game: OGame, d: Directive, word: str) -> Hex:
        try:
            return game.notation.parse(word)
        except BoardgenError as exc:
            raise fail(d, str(exc)) from None

    def place(game: OGame, d: Directive, word: str) -> tuple[Hex, str, int, str]:
        cell = parse_cell(game, d, word)
        player = game.to_move
        glyph = game.ring_glyph(cell)
        try:
            game.place(cell)
        except IllegalMove as exc:
            raise fail(d, f"{player.capitalize()} cannot place on {word}: {exc.reason}") \
                from None
        return cell, player, len(game.history), glyph

    def new_game() -> OGame:
        game = OGame(board, partisan=partisan, table=table)
        if setup is not None:
            for number, word in enumerate(setup.value.split(), start=1):
                try:
                    place(game, setup, word)
                except ExampleError as exc:
                    raise fail(setup, f"setup stone {number}: {exc}".replace(
                        f"{source}:{setup.line}: ", "")) from None
        for d in start_claims:
            _check(d, fail, game, parse_cell)
        return game

    lines: list[OLine] = []
    line_title: str | None = None
    panels: list[OPanel] = []
    game = new_game()
    draft: _Draft | None = None

    def close_panel() -> None:
        nonlocal draft
        if draft is not None:
            panels.append(_panel(game, draft))
        draft = None

    def close_line() -> None:
        nonlocal panels
        close_panel()
        if panels:
            lines.append(OLine(line_title, tuple(panels)))
        panels = []

    for d in directives[body:]:
        if d.key == "line":
            close_line()
            line_title = d.value or None
            game = new_game()
        elif d.key == "panel":
            close_panel()
            draft = _Draft(d.value)
        elif draft is None:
            raise fail(d, f"'{d.key}:' must come after a 'panel:' line")
        elif d.key == "place":
            for word in d.value.split():
                draft.placed.append(place(game, d, word))
        elif d.key == "undo":
            if not game.history:
                raise fail(d, "undo: there is no stone to take back")
            if not d.value.isdigit() or not 1 <= int(d.value) <= len(game.history):
                raise fail(d, f"undo needs a number of stones from 1 to {len(game.history)}")
            for _ in range(int(d.value)):
                stone = game.undo()
                draft.placed = [p for p in draft.placed if p[0] != stone.cell]
        elif d.key == "show":
            for word in d.value.split():
                cell = parse_cell(game, d, word)
                draft.shown[cell] = "legal" if game.why_illegal(cell) is None else "illegal"
        elif d.key == "expect":
            _check(d, fail, game, parse_cell)
        elif d.key == "note":
            draft.notes.append(d.value)
        elif d.key in ANNOTATION_KEYS:
            annotate(d, draft.annotations, source, game.notation.parse, game.notation.parse,
                     HIGHLIGHT_ROLES)
        else:
            raise fail(d, f"unknown directive {d.key!r} in a panel")
    close_line()
    return OExample(path.stem, title, board, partisan, tuple(lines), numbers)


def _panel(game: OGame, draft: _Draft) -> OPanel:
    name = game.notation.name
    # Players' words: the move, not the engine's name for the ring it went into.
    words = [f"{number}. {player.capitalize()} {name(cell)}"
             for cell, player, number, _glyph in draft.placed]
    parts = ["; ".join(words) + "." if words else
             (f"{game.to_move.capitalize()} to play." if not game.over else "")]
    for cell in draft.shown:
        reason = game.why_illegal(cell)
        parts.append(f"{name(cell)}: {'a stone may go here' if reason is None else reason}.")
    closing = game.history[-1].cell if game.over and game.winner else None
    if closing is not None:
        parts.append(f"{(game.winner or '').capitalize()} closes a loop of {len(game.loop)} "
                     f"stones with {name(closing)} and wins.")
    elif game.over:
        parts.append("Nobody can place a stone.")
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


def _check(d: Directive, error: Callable[[Directive, str], ExampleError], game: OGame,
           parse: Callable[[OGame, Directive, str], Hex]) -> None:
    words = d.value.split()
    claim = " ".join(words)
    name = game.notation.name
    players = PARTISAN if game.partisan else IMPARTIAL
    if words[:1] == ["to-move"] and len(words) == 2 and words[1] in players:
        ok, seen = not game.over and game.to_move == words[1], \
            "the game is over" if game.over else f"{game.to_move} is to move"
    elif words[:1] == ["legal"] and len(words) >= 2:
        bad = [w for w in words[1:] if game.why_illegal(parse(game, d, w)) is not None]
        ok = not bad
        seen = "; ".join(f"{w}: {game.why_illegal(parse(game, d, w))}" for w in bad)
    elif words[:1] == ["illegal"] and len(words) == 3:
        cell = parse(game, d, words[1])
        reason = game.why_illegal(cell)
        why = words[2]
        if reason is None:
            ok, seen = False, f"{words[1]} is legal"
        elif why == "taken":
            ok, seen = reason.startswith("there is a stone"), reason
        elif why == "corner":
            ok, seen = reason.startswith("corner rule"), reason
        else:
            ok = game.ring_glyph(cell) == why and not reason.startswith(("corner", "there"))
            seen = reason
    elif words == ["loop"]:
        ok, seen = bool(game.loop), "no loop has formed"
    elif words == ["over"]:
        ok, seen = game.over, "the game goes on"
    elif words[:1] == ["winner"] and len(words) == 2:
        ok, seen = game.over and game.winner == words[1], \
            f"the winner is {game.winner}" if game.over else "the game goes on"
    elif words[:1] == ["stones"] and len(words) == 2 and words[1].isdigit():
        ok, seen = len(game.stones()) == int(words[1]), f"there are {len(game.stones())}"
    else:
        raise error(d, f"unknown expectation {claim!r} (to-move P, legal CELLS, illegal CELL "
                       "GLYPH|corner|taken, loop, over, winner P, stones N; P is "
                       f"{' or '.join(players)})")
    if not ok:
        raise error(d, f"the example expects '{claim}', but {seen} "
                       f"(stones: {' '.join(name(h) for h in game.stones()) or 'none'})")
