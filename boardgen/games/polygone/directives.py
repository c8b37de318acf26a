"""Polygone pictures as data (``templates/polygone/*.txt``), replayed through the engine.

Directives (see boardgen.games.script for the format):
  title: TEXT
  white: LINES / black: LINES   the position (default: the start position)
  to-move: white|black          captured: white N black N
  panel: LABEL                  a picture panel, showing the position as it is
  number: LINE TEXT             a label beside a piece or an empty line
  show: HOLE about PIVOT        the targets of swinging that end of its piece: allowed ones
                                as ghosts, backwards and blocked ones crossed
  move: MOVE                    drawn as a swing arrow; played when the panel closes
  expect: allowed HOLES | backwards HOLES | blocked HOLES   (of the last show)
          | blocked HOLE by LINES     the pieces at the pivot that stop the swing to HOLE
          | outside HOLES             allowed targets reached only round the outside
          | moves PIECE N [lateral K] the piece's legal moves about both ends, in all
          captures COLOUR LINES | no-capture | polygons N | captured white N black N
          | winner COLOUR | legal MOVE | illegal MOVE
  note: TEXT
  game: polygone                optional under templates/polygone/, needed elsewhere
  arrow: / mark: (on holes) / highlight: ghost|crossed LINES / caption:   annotations
A claim the engine does not share stops the build with the file and line.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from boardgen.errors import BoardgenError, IllegalMove
from boardgen.games.polygone.engine import (
    COLOURS,
    Move,
    Polygone,
    Turn,
    forward,
    parse_move,
)
from boardgen.games.script import (
    ANNOTATION_KEYS,
    MAX_MARK_TEXT,
    Annotations,
    Directive,
    ExampleError,
    annotate,
    check_game,
    read_directives,
)
from boardgen.geometry.lattice import (
    LINE_SET,
    Hole,
    Line,
    direction,
    hole_name,
    line,
    line_name,
    other_end,
    parse_hole,
    parse_line,
)

# Roles a designer may highlight lines with on the Polygone board.
HIGHLIGHT_ROLES = ("ghost", "crossed")


@dataclass(frozen=True)
class SwingArrow:
    pivot: Hole
    start: Hole
    end: Hole
    sense: int  # +1 clockwise on the page


@dataclass
class PolygonePanel:
    label: str
    pieces: dict[Line, str]
    ghosts: list[Line] = field(default_factory=list)
    crossed: list[Line] = field(default_factory=list)
    swings: list[SwingArrow] = field(default_factory=list)
    labels: dict[Line, str] = field(default_factory=dict)
    caption: list[str] = field(default_factory=list)
    annotations: Annotations[Hole, Line] = field(default_factory=Annotations)
    pivots: list[Hole] = field(default_factory=list)  # the holes a show swings about


@dataclass(frozen=True)
class PolygoneExample:
    name: str
    title: str
    panels: tuple[PolygonePanel, ...]


@dataclass
class _Show:
    piece: Line
    pivot: Hole
    allowed: set[Hole]
    backwards: set[Hole]
    blocked: set[Hole]


def classify_targets(game: Polygone, piece: Line, pivot: Hole) -> _Show:
    """Every empty line at the pivot, sorted into allowed, backwards and blocked."""
    colour = game.pieces[piece]
    moving = other_end(piece, pivot)
    reachable = {end for end, _ in game.swings(piece, pivot)}
    show = _Show(piece, pivot, set(), set(), set())
    for k in range(6):
        end = pivot.step(k)
        ln = line(pivot, end)
        if ln == piece or ln not in LINE_SET or ln in game.pieces:
            continue
        if end not in reachable:
            show.blocked.add(end)
        elif forward(colour, moving.h, end.h):
            show.allowed.add(end)
        else:
            show.backwards.add(end)
    return show


def _ways_round(game: Polygone, piece: Line, pivot: Hole, target: Hole
                ) -> list[tuple[set[Line], bool]]:
    """For each sense of rotation, the pieces at the pivot that the swing from ``piece`` to
    ``target`` would pass, and whether it passes a direction off the board."""
    k0 = direction(pivot, other_end(piece, pivot))
    k1 = direction(pivot, target)
    ways = []
    for sense in (1, -1):
        passed: set[Line] = set()
        off_board = False
        for m in range(1, ((k1 - k0) * sense) % 6):
            ln = line(pivot, pivot.step(k0 + sense * m))
            if ln not in LINE_SET:
                off_board = True
            elif ln in game.pieces:
                passed.add(ln)
        ways.append((passed, off_board))
    return ways


def _sense(game: Polygone, move: Move) -> int:
    """The way round an arrow should go: the shorter clear one."""
    best: tuple[int, int] | None = None
    piece = move.piece
    start = move.moving
    k0, k1 = direction(move.pivot, start), direction(move.pivot, move.target)
    for sense in (1, -1):
        steps = ((k1 - k0) * sense) % 6
        clear = True
        for m in range(1, steps):
            ln = line(move.pivot, move.pivot.step(k0 + sense * m))
            if ln in LINE_SET and ln in game.pieces and ln != piece:
                clear = False
        if clear and (best is None or steps < best[0]):
            best = (steps, sense)
    assert best is not None
    return best[1]


def _names(holes: set[Hole]) -> str:
    return " ".join(sorted(hole_name(h) for h in holes)) or "none"


def _line_names(lines: set[Line]) -> str:
    return " ".join(sorted(line_name(ln) for ln in lines)) or "none"


def _listed(names: list[str]) -> str:
    """a, b and c"""
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


POLYGON_NAMES = {3: "triangle", 4: "four-sided polygon", 5: "five-sided polygon",
                 6: "six-sided polygon"}


def _polygon(sides: int) -> str:
    return POLYGON_NAMES.get(sides, f"{sides}-sided polygon")


def _turn_caption(turn: Turn) -> str:
    """What the move did, as a player would say it."""
    mover = turn.mover.capitalize()
    if not turn.polygons:
        return f"{mover}'s move closes no polygon."
    parts = []
    for poly in turn.polygons:
        capture = next((c for c in turn.captures if c.polygon == poly), None)
        if capture is None:
            parts.append(f"a {_polygon(len(poly))} that captures nothing")
        else:
            loser = "Black" if capture.captor == "white" else "White"
            pieces = _listed([line_name(ln) for ln in capture.removed])
            parts.append(f"a {_polygon(len(poly))}: {capture.captor.capitalize()} captures "
                         f"{loser}'s {pieces}")
    if len(parts) == 1:
        return f"{mover}'s move closes {parts[0]}."
    count = {2: "two", 3: "three"}.get(len(parts), str(len(parts)))
    return f"{mover}'s move closes {count} polygons, resolved one after the other: " \
        f"first {parts[0]}; then " + "; then ".join(parts[1:]) + "."


def _show_caption(colour: str, moving: Hole, pivot: Hole, show: _Show) -> str:
    """Where a swing can take the end, as a player would say it."""
    end = f"{colour.capitalize()}'s end {hole_name(moving)}, swung about {hole_name(pivot)}"
    allowed = sorted(hole_name(h) for h in show.allowed)
    text = f"{end}, may reach {_listed(allowed)}." if allowed else \
        f"{end}, has nowhere to go."
    if show.backwards:
        back = sorted(hole_name(h) for h in show.backwards)
        text += f" {_listed(back)} {'is' if len(back) == 1 else 'are'} backwards."
    if show.blocked:
        blocked = sorted(hole_name(h) for h in show.blocked)
        text += f" {_listed(blocked)} {'is' if len(blocked) == 1 else 'are'} blocked."
    return text


def load_polygone_example(path: Path) -> PolygoneExample:
    source = str(path)
    directives = read_directives(path)
    title = path.stem
    white: list[Line] | None = None
    black: list[Line] | None = None
    to_move = "white"
    captured = {"white": 0, "black": 0}

    def fail(d: Directive, message: str) -> ExampleError:
        return ExampleError(source, d.line, message)

    def lines_of(d: Directive) -> list[Line]:
        try:
            return [parse_line(t) for t in d.value.split()]
        except BoardgenError as exc:
            raise fail(d, str(exc)) from None

    body = next((i for i, d in enumerate(directives) if d.key == "panel"), len(directives))
    for d in directives[:body]:
        if d.key == "game":
            check_game(d, "polygone", source)
        elif d.key == "title":
            title = d.value
        elif d.key == "white":
            white = lines_of(d)
        elif d.key == "black":
            black = lines_of(d)
        elif d.key == "to-move":
            if d.value not in COLOURS:
                raise fail(d, f"to-move must be white or black, not {d.value!r}")
            to_move = d.value
        elif d.key == "captured":
            words = d.value.split()
            if len(words) != 4 or words[0] != "white" or words[2] != "black" or \
                    not (words[1].isdigit() and words[3].isdigit()):
                raise fail(d, "captured needs 'white N black N'")
            captured = {"white": int(words[1]), "black": int(words[3])}
        else:
            raise fail(d, f"unknown directive {d.key!r} before the first panel")
    if body == len(directives):
        raise ExampleError(source, 1, "no panels")
    pieces: dict[Line, str] | None = None
    if white is not None or black is not None:
        pieces = {}
        for key in ("white", "black"):
            for d in (d for d in directives[:body] if d.key == key):
                for ln in lines_of(d):
                    if ln in pieces:
                        raise fail(d, f"{line_name(ln)} is already a {pieces[ln]} piece: "
                                      "one piece a line")
                    pieces[ln] = key
    start_line = next((d.line for d in directives[:body]
                       if d.key in ("captured", "white", "black")), 1)
    try:
        game = Polygone(pieces, to_move, captured)
    except BoardgenError as exc:
        raise ExampleError(source, start_line, f"{exc} (pieces on the board and captured "
                                               "ones count together)") from None

    panels: list[PolygonePanel] = []
    panel: PolygonePanel | None = None
    last_show: _Show | None = None
    last_turn: Turn | None = None
    last_turn_shown = False
    just_captured: list[Line] = []

    def close() -> None:
        nonlocal panel
        if panel is not None:
            panels.append(panel)
        panel = None

    for d in directives[body:]:
        if d.key == "panel":
            close()
            panel = PolygonePanel(d.value, dict(game.pieces), crossed=list(just_captured))
            if last_turn is not None and not last_turn_shown:
                panel.caption.append(_turn_caption(last_turn))
                last_turn_shown = True
            just_captured = []
            continue
        if panel is None:
            raise fail(d, f"'{d.key}:' must come after a 'panel:' line")
        if d.key == "number":
            words = d.value.split(maxsplit=1)
            if len(words) != 2:
                raise fail(d, "number needs 'LINE TEXT'")
            if len(words[1]) > MAX_MARK_TEXT:
                raise fail(d, f"number {words[1]!r}: a label of up to {MAX_MARK_TEXT} "
                              "characters (a number or a letter) sits beside one piece")
            panel.labels[lines_of(Directive(d.key, words[0], d.line))[0]] = words[1]
        elif d.key == "show":
            words = d.value.split()
            if len(words) != 3 or words[1] != "about":
                raise fail(d, "show needs 'HOLE about PIVOT'")
            try:
                moving, pivot = parse_hole(words[0]), parse_hole(words[2])
            except BoardgenError as exc:
                raise fail(d, str(exc)) from None
            piece = line(moving, pivot)
            if piece not in game.pieces:
                raise fail(d, f"no piece on {line_name(piece)}")
            last_show = classify_targets(game, piece, pivot)
            panel.ghosts.extend(line(pivot, h) for h in sorted(last_show.allowed))
            panel.crossed.extend(line(pivot, h) for h in
                                 sorted(last_show.backwards | last_show.blocked))
            colour = game.pieces[piece]
            panel.caption.append(_show_caption(colour, moving, pivot, last_show))
            if pivot not in panel.pivots:
                panel.pivots.append(pivot)
        elif d.key == "move":
            try:
                move = parse_move(d.value)
            except BoardgenError as exc:
                raise fail(d, str(exc)) from None
            reason = game.why_illegal(move)
            if reason is not None:
                raise fail(d, f"{move.notation()}: {reason}")
            panel.swings.append(SwingArrow(move.pivot, move.moving, move.target,
                                           _sense(game, move)))
            panel.ghosts.append(move.new_line)
            panel.caption.append(f"{game.to_move.capitalize()} swings {hole_name(move.moving)} "
                                 f"about {hole_name(move.pivot)} to {hole_name(move.target)}.")
            # Played now, so that the claims that follow are about its result; the panel
            # keeps the position from before, and the next panel shows the one after.
            try:
                last_turn = game.play(move)
            except IllegalMove as exc:
                raise fail(d, f"{exc.subject}: {exc.reason}") from None
            just_captured = [ln for c in last_turn.captures for ln in c.removed]
            last_turn_shown = False
        elif d.key == "expect":
            try:
                _check(d, fail, game, last_show, last_turn)
            except ExampleError:
                raise
            except BoardgenError as exc:  # a bad hole or line inside the claim
                raise fail(d, str(exc)) from None
        elif d.key == "note":
            panel.caption.append(d.value)
        elif d.key in ANNOTATION_KEYS:
            annotate(d, panel.annotations, source, parse_hole, parse_line, HIGHLIGHT_ROLES)
        else:
            raise fail(d, f"unknown directive {d.key!r} in a panel")
    close()
    return PolygoneExample(path.stem, title, tuple(panels))


def _check(d: Directive, fail: Callable[[Directive, str], ExampleError], game: Polygone,
           show: _Show | None, turn: Turn | None) -> None:
    words = d.value.split()
    kind, rest = (words[0], words[1:]) if words else ("", [])

    def error(message: str) -> ExampleError:
        return fail(d, message)

    if kind == "moves":
        if len(rest) not in (2, 4) or not rest[1].isdigit() or \
                (len(rest) == 4 and (rest[2] != "lateral" or not rest[3].isdigit())):
            raise error("moves needs 'PIECE N' or 'PIECE N lateral K'")
        piece = parse_line(rest[0])
        moves = [m for m in game.legal_moves() if m.piece == piece]
        lateral = sum(1 for m in moves if m.target.h == m.moving.h)
        claim = f"{rest[1]} moves" + (f", {rest[3]} lateral" if len(rest) == 4 else "")
        found = f"{len(moves)} moves" + (f", {lateral} lateral" if len(rest) == 4 else "")
        if claim != found:
            raise error(f"the example expects {line_name(piece)} to have {claim}, the engine "
                        f"finds {found} ({' '.join(m.notation() for m in moves) or 'none'})")
        return
    if kind in ("allowed", "backwards", "blocked", "outside") and show is None:
        raise error(f"'expect: {kind}' needs a 'show:' before it")
    if kind == "blocked" and "by" in rest:
        assert show is not None
        if len(rest) < 3 or rest.index("by") != 1:
            raise error("blocked needs 'HOLE by LINES'")
        hole = parse_hole(rest[0])
        if hole not in show.blocked:
            raise error(f"the example expects {hole_name(hole)} blocked, the engine finds it "
                        f"{'allowed' if hole in show.allowed else 'not a blocked target'}")
        blockers = set().union(*(passed for passed, _ in
                                 _ways_round(game, show.piece, show.pivot, hole)))
        claimed_blockers = {parse_line(n) for n in rest[2:]}
        if blockers != claimed_blockers:
            raise error(f"the example expects {hole_name(hole)} blocked by "
                        f"{_line_names(claimed_blockers)}, the engine finds "
                        f"{_line_names(blockers)}")
        return
    if kind == "outside":
        assert show is not None
        outside = {end for end in show.allowed
                   if all(off for passed, off in
                          _ways_round(game, show.piece, show.pivot, end) if not passed)}
        claimed_outside = {parse_hole(w) for w in rest} if rest != ["none"] else set()
        if outside != claimed_outside:
            raise error(f"the example expects {_names(claimed_outside)} reached only round the "
                        f"outside, the engine finds {_names(outside)}")
        return
    if kind in ("allowed", "backwards", "blocked"):
        assert show is not None
        have = getattr(show, kind)
        want = {parse_hole(w) for w in rest} if rest != ["none"] else set()
        if have != want:
            raise error(f"the example expects {kind} {_names(want)}, the engine finds "
                        f"{_names(have)}")
        return
    if kind in ("legal", "illegal"):
        move = parse_move(" ".join(rest))
        reason = game.why_illegal(move)
        if (reason is None) != (kind == "legal"):
            raise error(f"the example expects {move.notation()} to be {kind}, the engine "
                        f"says {'it is legal' if reason is None else reason}")
        return
    if kind == "captured":
        want_counts = {"white": int(rest[1]), "black": int(rest[3])}
        if game.captured != want_counts:
            raise error(f"the example expects captured {want_counts}, the engine has "
                        f"{game.captured}")
        return
    if kind == "winner":
        if game.winner != (rest[0] if rest else None):
            raise error(f"the example expects winner {rest[0]}, the engine says "
                        f"{game.winner or 'no winner yet'}")
        return
    if turn is None:
        raise error(f"'expect: {kind}' needs a move before it")
    if kind == "no-capture":
        if turn.captures:
            raise error("the example expects no capture, the engine captures "
                        + " ".join(line_name(ln) for c in turn.captures for ln in c.removed))
    elif kind == "polygons":
        if len(turn.polygons) != int(rest[0]):
            raise error(f"the example expects {rest[0]} polygons, the engine resolves "
                        f"{len(turn.polygons)}")
    elif kind == "captures":
        colour, names = rest[0], rest[1:]
        lost = sorted(line_name(ln) for c in turn.captures for ln in c.removed
                      if c.captor != colour)
        claimed = sorted(line_name(parse_line(n)) for n in names)
        if lost != claimed:
            raise error(f"the example expects {colour} to lose {' '.join(claimed)}, the "
                        f"engine removes {' '.join(lost) or 'nothing'} of {colour}")
    else:
        raise error(f"unknown expectation {d.value!r} (allowed, backwards, blocked HOLES; "
                    "blocked HOLE by LINES; outside HOLES; moves PIECE N [lateral K]; "
                    "captures COLOUR LINES; no-capture; polygons N; captured white N black N; "
                    "winner COLOUR; legal MOVE; illegal MOVE)")
