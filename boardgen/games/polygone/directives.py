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
  arrow: / mark: (on holes) / highlight: ROLE LINES / caption:   annotations; highlight:
  ghost (an allowed target: some legal move of the player to move ends on it) and crossed
  (no legal move ends on that empty line, or its piece was just captured) are judged by the
  engine in the position the panel shows; highlight: tint LINES is the designer's own
A claim the engine does not share stops the build with the file and line.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from boardgen.errors import BoardgenError, IllegalMove
from boardgen.games.polygone.engine import (
    COLOURS,
    Move,
    Polygon,
    Polygone,
    Turn,
    forward,
    parse_move,
)
from boardgen.games.script import (
    MAX_MARK_TEXT,
    Annotations,
    Directive,
    ExampleError,
    GameScript,
    parse_directives,
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
from boardgen.i18n import N_, tr
from boardgen.inputs import split_lines


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
    captured: list[Line] = field(default_factory=list)  # taken off by the last move
    pivots: list[Hole] = field(default_factory=list)  # the holes a show or move swings about
    # From the engine, as the panel opens (the position it shows): the lines some legal
    # move of the player to move ends on, and the pieces the move before it captured.
    targets: frozenset[Line] = frozenset()
    captured_before: frozenset[Line] = frozenset()
    mover: str = "white"


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
    return swing_sense(game.pieces, move)


def swing_sense(pieces: Mapping[Line, str], move: Move) -> int:
    """The way round a move swings among ``pieces`` (the position before it): the shorter
    clear one."""
    best: tuple[int, int] | None = None
    piece = move.piece
    start = move.moving
    k0, k1 = direction(move.pivot, start), direction(move.pivot, move.target)
    for sense in (1, -1):
        steps = ((k1 - k0) * sense) % 6
        clear = True
        for m in range(1, steps):
            ln = line(move.pivot, move.pivot.step(k0 + sense * m))
            if ln in LINE_SET and ln in pieces and ln != piece:
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
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + tr(" and ") + names[-1]


# Spelled out, in titles, notes and captions alike (one style); a count no figure reaches
# falls back to digits.
SIDES_WORDS = {4: N_("four"), 5: N_("five"), 6: N_("six"), 7: N_("seven"), 8: N_("eight"),
               9: N_("nine"), 10: N_("ten"), 11: N_("eleven"), 12: N_("twelve")}


def _polygon(sides: int) -> str:
    """'a triangle', 'a five-sided polygon', 'an eleven-sided polygon'."""
    if sides == 3:
        return tr("a triangle")
    words = SIDES_WORDS.get(sides, str(sides))
    said = tr("an {sides}-sided polygon") if words.startswith(
        ("8", "11", "18", "eight", "eleven")) else tr("a {sides}-sided polygon")
    return said.format(sides=tr(words))


def _turn_caption(turn: Turn) -> str:
    """What the move did, as a player would say it: the polygons the move itself closed
    apart from those that a capture opened afterwards (the seed's picture 9)."""
    mover = tr(turn.mover.capitalize())
    if not turn.closed:
        return tr("{player}'s move captures nothing.").format(player=mover)

    def resolved(poly: Polygon) -> str:
        capture = next((c for c in turn.captures if c.polygon == poly), None)
        if capture is None:
            return tr("{polygon} that captures nothing").format(polygon=_polygon(len(poly)))
        # The pieces taken are always the other colour's: not said, to keep captions short.
        pieces = _listed([line_name(ln) for ln in capture.removed])
        return tr("{polygon}: {player} captures {pieces}").format(
            polygon=_polygon(len(poly)), player=tr(capture.captor.capitalize()), pieces=pieces)

    closed = []
    for poly in turn.closed:
        if poly in turn.polygons:
            closed.append(resolved(poly))
        elif poly in turn.broken:
            closed.append(tr("{polygon}, broken by an earlier capture: it no longer counts")
                          .format(polygon=_polygon(len(poly))))
        else:
            closed.append(tr("{polygon}, left unresolved").format(polygon=_polygon(len(poly))))
    then = tr("; then ")
    if len(closed) == 1:
        text = tr("{player}'s move closes {polygon}.").format(player=mover, polygon=closed[0])
    else:
        count = {2: tr("two"), 3: tr("three")}.get(len(closed), str(len(closed)))
        # In the order the mover chose (the sheet's text says the mover chooses).
        text = tr("{player}'s move closes {count} polygons. First {polygon}").format(
            player=mover, count=count, polygon=closed[0]) + then + \
            then.join(closed[1:]) + "."
    opened = [resolved(poly) for poly in turn.polygons if poly not in turn.closed]
    if opened:
        by_closed = sum(1 for c in turn.captures if c.polygon in turn.closed)
        text += " " + (tr("That capture opens {polygons}.") if by_closed == 1 else
                       tr("The captures open {polygons}.")).format(polygons=then.join(opened))
    return text  # who wins, if anyone, is said by _won, for every way of winning


def move_sentences(move: Move, mover: str, turn: Turn, game: Polygone) -> str:
    """A move played, as a diagram says it across the panel that shows the swing and the
    one after it: the swing, what it closed and captured, and who won by it."""
    return " ".join([tr("{player} swings {hole} about {pivot} to {target}.").format(
                        player=tr(mover.capitalize()), hole=hole_name(move.moving),
                        pivot=hole_name(move.pivot), target=hole_name(move.target)),
                     _turn_caption(turn), *_won(game)])


def judge_ghost(game: Polygone, panel: PolygonePanel, ln: Line) -> str | None:
    if ln in panel.targets:
        return None
    if ln in panel.pieces:
        return f"{line_name(ln)} holds a {panel.pieces[ln]} piece"
    return f"the engine finds no legal move of {panel.mover.capitalize()} ends on it"


def judge_crossed(game: Polygone, panel: PolygonePanel, ln: Line) -> str | None:
    if ln in panel.captured_before:
        return None
    if ln in panel.pieces:
        return f"{line_name(ln)} holds a {panel.pieces[ln]} piece, not captured"
    if ln in panel.targets:
        return f"the engine finds it an allowed target for {panel.mover.capitalize()}"
    return None


HIGHLIGHT_JUDGES = {"ghost": judge_ghost, "crossed": judge_crossed}


def _won(game: Polygone) -> list[str]:
    """Who won by the last move, and why, in players' words."""
    if not (game.over and game.winner):
        return []
    why = re.sub(r"\b(white|black)\b", lambda m: m.group(1).capitalize(), game.result)
    return [tr("{player} wins: {result}.").format(player=tr(game.winner.capitalize()),
                                                  result=why)]


def _show_caption(colour: str, moving: Hole, pivot: Hole, show: _Show) -> str:
    """Where a swing can take the end, as a player would say it."""
    end = tr("{player}'s end {hole}, swung about {pivot}").format(
        player=tr(colour.capitalize()), hole=hole_name(moving), pivot=hole_name(pivot))
    allowed = sorted(hole_name(h) for h in show.allowed)
    text = tr("{end}, may reach {holes}.").format(end=end, holes=_listed(allowed)) \
        if allowed else tr("{end}, has nowhere to go.").format(end=end)
    # The word first: a sentence never starts with a lower-case hole name.
    if show.backwards:
        text += " " + tr("Backwards: {holes}.").format(
            holes=_listed(sorted(hole_name(h) for h in show.backwards)))
    if show.blocked:
        text += " " + tr("Blocked: {holes}.").format(
            holes=_listed(sorted(hole_name(h) for h in show.blocked)))
    return text


class PolygoneScript(GameScript[Polygone, PolygonePanel, PolygonePanel]):
    """A Polygone diagram file: its start position, 'number:', 'show:' and 'move:'
    directives and claims.  One row of panels, each move played as its panel closes."""

    game = "polygone"
    lines = False
    start_claims = False
    highlight_claims = HIGHLIGHT_JUDGES

    def __init__(self, path: Path, *, text: str | None = None) -> None:
        super().__init__(path, text=text)
        self.placed: list[Directive] = []  # the 'white:' and 'black:' lines, in order
        self.to_move = "white"
        self.captured = {"white": 0, "black": 0}
        self.start_line = 0  # the first line that sets up the start position
        self.last_show: _Show | None = None
        self.last_turn: Turn | None = None
        self.just_captured: list[Line] = []
        self.header = {"white": self.pieces_of, "black": self.pieces_of,
                       "to-move": self.mover, "captured": self.captures_before}
        self.directives = {"number": self.number, "show": self.show, "move": self.move}
        self.claims = {
            "moves": self.claim_moves, "allowed": self.claim_targets,
            "backwards": self.claim_targets, "blocked": self.claim_targets,
            "outside": self.claim_outside, "legal": self.claim_legality,
            "illegal": self.claim_legality, "captured": self.claim_captured,
            "winner": self.claim_winner, "no-capture": self.claim_no_capture,
            "polygons": self.claim_polygons, "captures": self.claim_captures}

    def lines_of(self, d: Directive) -> list[Line]:
        try:
            return [parse_line(t) for t in d.value.split()]
        except BoardgenError as exc:
            raise self.fail(d, str(exc)) from None

    # --- the header ----------------------------------------------------------------------

    def pieces_of(self, d: Directive) -> None:
        """white: LINES | black: LINES

        Pieces of that colour on LINES (default: the set-up).
        """
        self.lines_of(d)  # refused here, at its own line, if it names a line wrongly
        self.placed.append(d)
        self.start_line = self.start_line or d.line

    def mover(self, d: Directive) -> None:
        """to-move: white|black

        Who moves at the start (default white).
        """
        if d.value not in COLOURS:
            raise self.fail(d, f"to-move must be white or black, not {d.value!r}")
        self.to_move = d.value

    def captures_before(self, d: Directive) -> None:
        """captured: white N black N

        Pieces of each colour already taken off the board at the start.
        """
        words = d.value.split()
        if len(words) != 4 or words[0] != "white" or words[2] != "black" or \
                not (words[1].isdigit() and words[3].isdigit()):
            raise self.fail(d, "captured needs 'white N black N'")
        self.captured = {"white": int(words[1]), "black": int(words[3])}
        self.start_line = self.start_line or d.line

    def start(self) -> Polygone:
        pieces: dict[Line, str] | None = None
        if self.placed:
            pieces = {}
            for key in COLOURS:
                for d in (d for d in self.placed if d.key == key):
                    for ln in self.lines_of(d):
                        if ln in pieces:
                            raise self.fail(d, f"{line_name(ln)} is already a {pieces[ln]} "
                                               "piece: one piece a line")
                        pieces[ln] = key
        try:
            return Polygone(pieces, self.to_move, self.captured)
        except BoardgenError as exc:
            raise ExampleError(self.source, self.start_line or 1,
                               f"{exc} (pieces on the board and captured ones count "
                               "together)") from None

    # --- panels ----------------------------------------------------------------------------

    def open_panel(self, game: Polygone, label: str) -> PolygonePanel:
        panel = PolygonePanel(label, dict(game.pieces), captured=list(self.just_captured),
                              targets=frozenset(m.new_line for m in game.legal_moves()),
                              captured_before=frozenset(self.just_captured),
                              mover=game.to_move)
        self.just_captured = []
        return panel

    def close_panel(self, game: Polygone, draft: PolygonePanel) -> PolygonePanel:
        return draft

    def note(self, draft: PolygonePanel, text: str) -> None:
        draft.caption.append(text)

    def point(self, game: Polygone, word: str) -> Hole:
        return parse_hole(word)

    def region(self, game: Polygone, word: str) -> Line:
        return parse_line(word)

    def number(self, game: Polygone, panel: PolygonePanel, d: Directive) -> None:
        """number: LINE TEXT

        A label (up to 3 characters) beside the piece or empty line LINE.
        """
        words = d.value.split(maxsplit=1)
        if len(words) != 2:
            raise self.fail(d, "number needs 'LINE TEXT'")
        if len(words[1]) > MAX_MARK_TEXT:
            raise self.fail(d, f"number {words[1]!r}: a label of up to {MAX_MARK_TEXT} "
                               "characters (a number or a letter) sits beside one piece")
        panel.labels[self.lines_of(Directive(d.key, words[0], d.line))[0]] = words[1]

    def show(self, game: Polygone, panel: PolygonePanel, d: Directive) -> None:
        """show: HOLE about PIVOT

        The targets of swinging that end of its piece about PIVOT: allowed ones as
        ghosts, backwards and blocked ones crossed.
        """
        words = d.value.split()
        if len(words) != 3 or words[1] != "about":
            raise self.fail(d, "show needs 'HOLE about PIVOT'")
        try:
            moving, pivot = parse_hole(words[0]), parse_hole(words[2])
        except BoardgenError as exc:
            raise self.fail(d, str(exc)) from None
        piece = line(moving, pivot)
        if piece not in game.pieces:
            raise self.fail(d, f"no piece on {line_name(piece)}")
        show = self.last_show = classify_targets(game, piece, pivot)
        panel.ghosts.extend(line(pivot, h) for h in sorted(show.allowed))
        panel.crossed.extend(line(pivot, h) for h in sorted(show.backwards | show.blocked))
        colour = game.pieces[piece]
        panel.caption.append(_show_caption(colour, moving, pivot, show))
        if pivot not in panel.pivots:
            panel.pivots.append(pivot)

    def move(self, game: Polygone, panel: PolygonePanel, d: Directive) -> None:
        """move: MOVING-PIVOT>TARGET

        A move, drawn as a swing and played when the panel closes (``/2,1`` after it:
        the order in which the polygons it closes are resolved).
        """
        try:
            move = parse_move(d.value)
        except BoardgenError as exc:
            raise self.fail(d, str(exc)) from None
        refusal = game.refusal(move)
        if refusal is not None:
            raise self.fail(d, f"{move.notation()}: {refusal.message}")
        panel.swings.append(SwingArrow(move.pivot, move.moving, move.target,
                                       _sense(game, move)))
        panel.ghosts.append(move.new_line)
        if move.pivot not in panel.pivots:  # ringed, as for a show: the end that stays
            panel.pivots.append(move.pivot)
        # Played now, so that the claims that follow are about its result; the panel keeps
        # the position from before, and the next panel shows the one after.
        try:
            self.last_turn = game.play(move)
        except IllegalMove as exc:
            raise self.fail(d, f"{exc.subject}: {exc.reason}") from None
        self.just_captured = [ln for c in self.last_turn.captures for ln in c.removed]
        # What the move did, under the panel that draws its swing (the next panel shows
        # the position after it, its captures hollow), and who won by it.  The swing
        # itself is drawn (its arrow, its ringed pivot, its target) and said by the
        # picture's text alternative: not written again, so that a caption stays short.
        panel.caption.extend([_turn_caption(self.last_turn), *_won(game)])

    # --- claims ------------------------------------------------------------------------------

    def unknown_claim(self, game: Polygone, d: Directive) -> str:
        return (f"unknown expectation {d.value!r} (allowed, backwards, blocked HOLES; "
                "blocked HOLE by LINES; outside HOLES; moves PIECE N [lateral K]; "
                "captures COLOUR LINES; no-capture; polygons N; captured white N black N; "
                "winner COLOUR; legal MOVE; illegal MOVE)")

    def claim_moves(self, game: Polygone, d: Directive, words: list[str]) -> str | None:
        """moves PIECE N [lateral K]

        PIECE has N legal moves about both its ends (K of them lateral).
        """
        rest = words[1:]
        if len(rest) not in (2, 4) or not rest[1].isdigit() or \
                (len(rest) == 4 and (rest[2] != "lateral" or not rest[3].isdigit())):
            return "moves needs 'PIECE N' or 'PIECE N lateral K'"
        piece = parse_line(rest[0])
        moves = [m for m in game.legal_moves() if m.piece == piece]
        lateral = sum(1 for m in moves if m.target.h == m.moving.h)
        claim = f"{rest[1]} moves" + (f", {rest[3]} lateral" if len(rest) == 4 else "")
        found = f"{len(moves)} moves" + (f", {lateral} lateral" if len(rest) == 4 else "")
        if claim != found:
            return (f"the example expects {line_name(piece)} to have {claim}, the engine "
                    f"finds {found} ({' '.join(m.notation() for m in moves) or 'none'})")
        return None

    def claim_targets(self, game: Polygone, d: Directive, words: list[str]) -> str | None:
        """allowed HOLES | backwards HOLES | blocked HOLES | blocked HOLE by LINES

        Of the last ``show:``: the targets allowed, refused as backwards, or blocked
        (and by which pieces at the pivot).
        """
        kind, rest = words[0], words[1:]
        show = self.last_show
        if show is None:
            return f"'expect: {kind}' needs a 'show:' before it"
        if kind == "blocked" and "by" in rest:
            if len(rest) < 3 or rest.index("by") != 1:
                return "blocked needs 'HOLE by LINES'"
            hole = parse_hole(rest[0])
            if hole not in show.blocked:
                return (f"the example expects {hole_name(hole)} blocked, the engine finds it "
                        f"{'allowed' if hole in show.allowed else 'not a blocked target'}")
            blockers = set().union(*(passed for passed, _ in
                                     _ways_round(game, show.piece, show.pivot, hole)))
            claimed_blockers = {parse_line(n) for n in rest[2:]}
            if blockers != claimed_blockers:
                return (f"the example expects {hole_name(hole)} blocked by "
                        f"{_line_names(claimed_blockers)}, the engine finds "
                        f"{_line_names(blockers)}")
            return None
        have = getattr(show, kind)
        want = {parse_hole(w) for w in rest} if rest != ["none"] else set()
        if have != want:
            return f"the example expects {kind} {_names(want)}, the engine finds {_names(have)}"
        return None

    def claim_outside(self, game: Polygone, d: Directive, words: list[str]) -> str | None:
        """outside HOLES

        Of the last ``show:``: the allowed targets reached only round the outside.
        """
        show = self.last_show
        if show is None:
            return "'expect: outside' needs a 'show:' before it"
        rest = words[1:]
        outside = {end for end in show.allowed
                   if all(off for passed, off in
                          _ways_round(game, show.piece, show.pivot, end) if not passed)}
        claimed_outside = {parse_hole(w) for w in rest} if rest != ["none"] else set()
        if outside != claimed_outside:
            return (f"the example expects {_names(claimed_outside)} reached only round the "
                    f"outside, the engine finds {_names(outside)}")
        return None

    def claim_legality(self, game: Polygone, d: Directive, words: list[str]) -> str | None:
        """legal MOVE | illegal MOVE

        The player to move may, or may not, make MOVE.
        """
        kind = words[0]
        move = parse_move(" ".join(words[1:]))
        refusal = game.refusal(move)
        if (refusal is None) != (kind == "legal"):
            return (f"the example expects {move.notation()} to be {kind}, the engine says "
                    f"{'it is legal' if refusal is None else refusal.message}")
        return None

    def claim_captured(self, game: Polygone, d: Directive, words: list[str]) -> str | None:
        """captured white N black N

        Pieces of each colour taken so far (each colour once, in either order).
        """
        # The colour words are read, in either order: each count belongs to its colour.
        rest = words[1:]
        pairs = dict(zip(rest[0::2], rest[1::2], strict=False))
        if len(rest) != 4 or sorted(pairs) != sorted(COLOURS) or \
                not all(n.isdigit() for n in pairs.values()):
            return (f"captured needs 'white N black N' (each colour once, with the number "
                    f"of its pieces taken), not {' '.join(rest)!r}")
        want = {colour: int(n) for colour, n in pairs.items()}
        if any(game.captured[colour] != want[colour] for colour in COLOURS):
            seen = ", ".join(f"{c} {game.captured[c]}" for c in COLOURS)
            return f"the example expects captured {' '.join(rest)}, the engine has {seen}"
        return None

    def claim_winner(self, game: Polygone, d: Directive, words: list[str]) -> str | None:
        """winner COLOUR

        The game is decided and COLOUR won.
        """
        rest = words[1:]
        if len(rest) != 1 or rest[0] not in COLOURS:
            return f"winner needs 'white' or 'black', not {' '.join(rest)!r}"
        if game.winner != rest[0]:
            return (f"the example expects winner {rest[0]}, the engine says "
                    f"{game.winner or 'no winner yet'}")
        return None

    def claim_no_capture(self, game: Polygone, d: Directive, words: list[str]) -> str | None:
        """no-capture

        The last move captured nothing.
        """
        turn = self.last_turn
        if turn is None:
            return f"'expect: {words[0]}' needs a move before it"
        if turn.captures:
            return "the example expects no capture, the engine captures " + \
                " ".join(line_name(ln) for c in turn.captures for ln in c.removed)
        return None

    def claim_polygons(self, game: Polygone, d: Directive, words: list[str]) -> str | None:
        """polygons N

        The last move closed N polygons.
        """
        turn = self.last_turn
        if turn is None:
            return f"'expect: {words[0]}' needs a move before it"
        rest = words[1:]
        if len(rest) != 1 or not rest[0].isdigit():
            return f"polygons needs a number, not {' '.join(rest)!r}"
        if len(turn.polygons) != int(rest[0]):
            return (f"the example expects {rest[0]} polygons, the engine resolves "
                    f"{len(turn.polygons)}")
        return None

    def claim_captures(self, game: Polygone, d: Directive, words: list[str]) -> str | None:
        """captures COLOUR LINES

        The last move captured the COLOUR pieces on LINES.
        """
        turn = self.last_turn
        if turn is None:
            return f"'expect: {words[0]}' needs a move before it"
        if len(words) < 3 or words[1] not in COLOURS:
            return (f"captures needs 'COLOUR LINES' (COLOUR white or black: the side that "
                    f"loses them), not {' '.join(words[1:])!r}")
        colour, names = words[1], words[2:]
        lost = sorted(line_name(ln) for c in turn.captures for ln in c.removed
                      if c.captor != colour)
        claimed = sorted(line_name(parse_line(n)) for n in names)
        if lost != claimed:
            return (f"the example expects {colour} to lose {' '.join(claimed)}, the "
                    f"engine removes {' '.join(lost) or 'nothing'} of {colour}")
        return None


SET_UP = ("white", "black", "to-move", "captured")  # the header lines that set up a start


def start_position(text: str, source: str) -> Polygone:
    """A start position written as a diagram file's set-up lines (``white: LINES``,
    ``black: LINES``, ``to-move: COLOUR``, ``captured: white N black N``), read by the same
    directives, or as ``boardgen play polygone`` prints a position (``str()`` of one: its
    status line says who moves); a problem raises BoardgenError as ``SOURCE: line N:
    message``, its ``line`` and its ``field``, ``start``, set."""
    script = PolygoneScript(Path(source or "start"))
    script.source = source
    try:
        directives = parse_directives(_set_up_lines(text), source)
        if not directives:  # as an empty Copolymer or O start is refused, not read as the set-up
            raise ExampleError(source, 0, "sets up nothing (a start takes "
                               f"{', '.join(k + ':' for k in SET_UP)})")
        said: dict[str, int] = {}
        for d in directives:
            if d.key not in SET_UP:
                raise ExampleError(source, d.line, f"'{d.key}:' does not set up a position "
                                   f"(a start takes {', '.join(k + ':' for k in SET_UP)})")
            if d.key in ("to-move", "captured") and d.key in said:
                # the last would win unseen: refused, as a repeated 'notation:' is
                raise ExampleError(source, d.line, f"'{d.key}:' again (first on line "
                                   f"{said[d.key]}): say it once")
            said.setdefault(d.key, d.line)
            script.header[d.key](d)
        return script.start()
    except ExampleError as exc:
        raise BoardgenError(f"{source}: line {exc.line}: {exc.reason}" if exc.line else
                            f"{source}: {exc.reason}", field="start",
                            line=exc.line or None) from None


_PRINTED_PIECES = re.compile(r"(White|Black) \(\d+ on the board, (\d+) captured\):(.*)")
_PRINTED_MOVER = re.compile(r"(White|Black) to move\b.*")
_PRINTED_WINNER = re.compile(r"(White|Black|\?) wins: .*")


def _set_up_lines(text: str) -> str:
    """The text ``boardgen play polygone`` prints as set-up lines, line for line (so an
    error names the line as given): ``White (N on the board, C captured): LINES`` is
    ``white: LINES`` (and its captures), ``Black to move; ...`` is ``to-move: black``; a
    finished game's last line says nothing to set up.  Set-up lines pass unchanged."""
    lines = split_lines(text)
    captured: dict[str, str] = {}
    for k, written in enumerate(lines):
        if pieces := _PRINTED_PIECES.fullmatch(written.strip()):
            colour = pieces.group(1).lower()
            captured[colour] = pieces.group(2)
            lines[k] = f"{colour}: {pieces.group(3).strip()}"
        elif mover := _PRINTED_MOVER.fullmatch(written.strip()):
            lines[k] = f"to-move: {mover.group(1).lower()}"
        elif _PRINTED_WINNER.fullmatch(written.strip()):
            lines[k] = ""
    if len(captured) == 2:
        lines.append(f"captured: white {captured['white']} black {captured['black']}")
    return "\n".join(lines)


def load_polygone_example(path: Path, *, text: str | None = None) -> PolygoneExample:
    """Replay a Polygone diagram file (or ``text``, a file's contents); raises ExampleError
    (file:line: reason) on any disagreement."""
    return example_of(PolygoneScript(path, text=text))


def example_of(script: PolygoneScript) -> PolygoneExample:
    """The example a script replays (see :func:`load_polygone_example`)."""
    lines = script.run()
    return PolygoneExample(script.name, script.title,
                           tuple(panel for play in lines for panel in play.panels))
