"""What each caption of a diagram file must say, worked out by the tests themselves.

An oracle for tests/test_captions.py.  It reads a diagram file with its own small reader,
replays it through the naive engines of bench/naive_engines.py (written from the spec
alone), and compares every panel's caption with the facts of that replay: who is to play,
which connections are open, what each placement touched, who won and by how much; which
stones were placed and which cells may take one; where a Polygone end may swing and which
targets are backwards or blocked, and what each polygon a move closes captures.

It shares no code with boardgen's caption writers, diagram-file readers or engines: cell
and hole names, the start drawing, the polygon names and the classification of targets
are all worked out here again.  Only the board's cell list (boardgen.geometry) is used, as
the naive engines use it.

The captions are read back with regular expressions for the sentences a player reads;
notes (``note:``) are the designer's words and are taken off before the engine's sentences
are read, and a designer's ``caption:`` must appear as written.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from naive_engines import (
    TURNING_ORDER,
    Board,
    NaiveCopolymer,
    NaiveO,
    NaivePolygone,
    naive_o_legal,
    naive_polygone_moves,
    polygone_start,
    single_run_of_two_to_five,
)

from boardgen.geometry import make_shape

# --- reading a diagram file ------------------------------------------------------------------


@dataclass(frozen=True)
class Said:
    key: str
    value: str
    line: int
    block: tuple[str, ...] = ()


def read_file(path: Path) -> list[Said]:
    """``key: value`` lines (``#`` comments); ``position:`` takes the lines up to ``end``."""
    raw = path.read_text(encoding="utf-8").splitlines()
    found: list[Said] = []
    i = 0
    while i < len(raw):
        text = raw[i].strip()
        i += 1
        if not text or text.startswith("#"):
            continue
        key, _, value = text.partition(":")
        if key.strip() == "position":
            start = i
            block = []
            while raw[i].strip() != "end":
                block.append(raw[i])
                i += 1
            i += 1
            found.append(Said("position", "", start, tuple(block)))
        else:
            found.append(Said(key.strip(), value.strip(), i))
    return found


def _listed(text: str) -> list[str]:
    """'a, b and c' -> [a, b, c]."""
    return [w for w in re.split(r", | and ", text.strip()) if w]


@dataclass
class Panel:
    """One panel as the oracle replays it: its label, its notes, a designer's caption."""

    label: str
    notes: list[str] = field(default_factory=list)
    override: str | None = None
    problems: list[str] = field(default_factory=list)


def engine_part(caption: str, panel: Panel, where: str) -> str | None:
    """The caption less its label in front and the designer's notes behind; None (and a
    problem noted) if they are not where they should be."""
    text = caption
    if panel.label:
        if not text.startswith(f"{panel.label}."):
            panel.problems.append(f"{where}: caption {caption!r} does not start with its "
                                  f"label {panel.label!r}")
            return None
        text = text[len(panel.label) + 1:].strip()
    if panel.override is not None:
        if text != panel.override:
            panel.problems.append(f"{where}: the designer's caption {panel.override!r} is "
                                  f"drawn as {text!r}")
        return None
    for note in panel.notes:  # notes may sit between the engine's sentences (Polygone)
        if note not in text:
            panel.problems.append(f"{where}: note {note!r} missing from {caption!r}")
            return None
        text = text.replace(note, " ")
    return " ".join(text.split())


# --- hex boards: names and drawings ----------------------------------------------------------

ROW_LETTERS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"  # no I


class HexNames:
    """Rows lettered from the top, diagonals (q + r constant) numbered from the left."""

    def __init__(self, cells: list[Any]) -> None:
        self.top = min(c.r for c in cells)
        self.left = min(c.q + c.r for c in cells)
        self.by_name = {self.name(c): c for c in cells}

    def name(self, cell: Any) -> str:
        return f"{ROW_LETTERS[cell.r - self.top]}{cell.q + cell.r - self.left + 1}"

    def cell(self, name: str) -> Any:
        return self.by_name[name.upper()]


def read_drawing(cells: list[Any], block: tuple[str, ...]) -> dict[Any, str]:
    """A server-style drawing: row by row from the top, each row's cells left to right."""
    rows = [[ch for ch in line if ch in ".xoXO"] for line in block if line.strip()]
    board_rows = sorted({c.r for c in cells})
    position = {}
    for r, row in zip(board_rows, rows, strict=True):
        in_row = sorted((c for c in cells if c.r == r), key=lambda c: c.q)
        for cell, ch in zip(in_row, row, strict=True):
            if ch != ".":
                position[cell] = ch.lower()
    return position


# --- Copolymer -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Placed:
    player: str
    cell: str
    enemies: int  # the opponent's cells it touched
    forced: bool  # every empty cell was a connection when it was placed


class CopolymerReplay:
    def __init__(self, said: list[Said]) -> None:
        self.said = said
        board = next(s for s in said if s.key == "board").value.split()
        self.grid = make_shape(board[0], int(board[1]))
        self.names = HexNames(list(self.grid.cells))
        self.first = next((s.value for s in said if s.key == "first"), "x")

    def start(self) -> NaiveCopolymer:
        game = NaiveCopolymer(self.grid, self.first)
        for s in self.said:
            if s.key == "position":
                game.owner.update(read_drawing(list(self.grid.cells), s.block))
            if s.key == "setup":
                for name in s.value.split():
                    game.place(self.names.cell(name))
        return game

    def place(self, game: NaiveCopolymer, name: str) -> Placed:
        cell = self.names.cell(name)
        player = game.to_move
        empty = game.empty_cells()
        forced = bool(empty) and all(
            game.enemy_neighbours(c, player) >= 2 for c in empty)
        enemies = game.enemy_neighbours(cell, player)
        game.place(cell)
        return Placed(player, self.names.name(cell), enemies, forced)


def copolymer_problems(path: Path, captions: list[list[str]]) -> list[str]:
    said = read_file(path)
    replay = CopolymerReplay(said)
    problems: list[str] = []
    rows: list[list[tuple[Panel, NaiveCopolymer, list[Placed], list[str]]]] = []
    game = replay.start()
    current: list[tuple[Panel, NaiveCopolymer, list[Placed], list[str]]] | None = None
    body = False
    for s in said:
        if s.key == "line":
            body = True
            game = replay.start()
            current = None
        elif s.key == "panel":
            body = True
            if current is None:
                current = []
                rows.append(current)
            current.append((Panel(s.value), game, [], []))
        elif not body or current is None:
            continue
        elif s.key == "place":
            current[-1][2].append(replay.place(game, s.value.split()[0]))
        elif s.key == "note":
            current[-1][0].notes.append(s.value)
        elif s.key == "caption":
            current[-1][0].override = s.value
    # The facts a panel's caption must state are those after its last placement: replay
    # again, panel by panel, checking each caption as its panel closes.
    if [len(r) for r in rows] != [len(r) for r in captions]:
        return [f"{path.name}: panels {[len(r) for r in rows]}, captions "
                f"{[len(r) for r in captions]}"]
    game = replay.start()
    for r, (row, texts) in enumerate(zip(rows, captions, strict=True)):
        game = replay.start()
        for k, ((panel, _, placed, _), caption) in enumerate(zip(row, texts, strict=True)):
            for p in placed:
                again = replay.place(game, p.cell)
                assert again == p
            where = f"{path.name} row {r + 1} panel {k + 1}"
            text = engine_part(caption, panel, where)
            problems.extend(panel.problems)
            if text is not None:
                problems.extend(f"{where}: {p} in {caption!r}"
                                for p in _copolymer_caption(text, game, placed, replay.names))
    return problems


def _copolymer_caption(text: str, game: NaiveCopolymer, placed: list[Placed],
                       names: HexNames) -> list[str]:
    wrong: list[str] = []
    if not placed and game.over:
        if "to play" in text:
            wrong.append("nobody is to play once the board is full")
    elif not placed:
        mover = re.match(r"([XO]) to play", text)
        if not mover or mover.group(1) != game.to_move.upper():
            wrong.append(f"{game.to_move.upper()} is to play")
        open_ = sorted(names.name(c) for c in game.connections())
        said_open = re.search(r"connections? open at (.+?)\.", text)
        said = [] if "no connection is open" in text else \
            sorted(_listed(said_open.group(1))) if said_open else None
        if said != open_:
            wrong.append(f"connections open: {open_ or 'none'}, caption says {said}")
    else:
        players = {p.player for p in placed}
        if len(players) != 1 or not text.startswith(placed[0].player.upper()):
            wrong.append(f"the panel's placements are by {sorted(players)}")
        enemy = "O" if placed[0].player == "x" else "X"
        last = placed[-1]
        ends = last.enemies < 2 or game.over
        connecting = placed[:-1] if ends else placed
        said_connect = re.search(r"connects? at ((?:[A-Z]+\d+(?:, )?)+) \(touching "
                                 r"([\d, ]+) ([XO]) cells\)", text)
        want = [(p.cell, p.enemies) for p in connecting]
        got = list(zip(said_connect.group(1).split(", "),
                       (int(n) for n in said_connect.group(2).split(", ")),
                       strict=False)) if said_connect else []
        if want != got or (said_connect and said_connect.group(3) != enemy):
            wrong.append(f"connections taken: {want} touching {enemy}, caption says {got}")
        if ends and game.over:
            if not re.search(rf"takes the last cell, {last.cell}\b", text):
                wrong.append(f"{last.cell} takes the last cell")
        elif ends:
            touching = "no" if last.enemies == 0 else str(last.enemies)
            plural = "" if last.enemies in (0, 1) else "s"
            if not re.search(rf"ends the turn at {last.cell} \(touching {touching} {enemy} "
                             rf"cell{plural}\)", text):
                wrong.append(f"{last.cell} ends the turn touching {touching} {enemy}")
        if ("goes on" in text) != (not ends):
            wrong.append("the turn goes on" if not ends else "the turn has ended")
        forced_connecting = any(p.forced for p in connecting)
        if ("must connect" in text) != forced_connecting:
            wrong.append(f"a connection was {'' if forced_connecting else 'not '}forced")
        if ("every empty cell was a connection" in text) != any(p.forced for p in placed):
            wrong.append(f"forced: {[p.forced for p in placed]}")
    won = re.search(r"\b([XO]) wins (\d+) to (\d+)", text)
    if game.over:
        winner = game.winner or "?"
        counts = {p: sum(1 for o in game.owner.values() if o == p) for p in "xo"}
        loser = "o" if winner == "x" else "x"
        if not (text.count("Board full") == 1 and won and
                won.groups() == (winner.upper(), str(counts[winner]), str(counts[loser]))):
            wrong.append(f"board full: {winner.upper()} wins {counts[winner]} to "
                         f"{counts[loser]}")
    elif won or "Board full" in text:
        wrong.append("the game is not over")
    wrong.extend(leftover(text, COPOLYMER_SENTENCES))
    return wrong


def leftover(text: str, sentences: list[str]) -> list[str]:
    """Whatever the caption says beyond the sentences a player is meant to read (a caption
    is those sentences and the designer's notes, nothing else)."""
    rest = text
    for pattern in sentences:
        rest = re.sub(pattern, " ", rest)
    rest = " ".join(rest.split())
    return [f"unexplained words {rest!r}"] if rest else []


_CELL = r"[A-Z]+\d+"
_ENDING = (rf"(?:ends the turn at {_CELL} \(touching (?:no|\d+) [XO] cells?\)|takes the last "
           rf"cell, {_CELL})")
COPOLYMER_SENTENCES = [
    rf"[XO] to play, with connections open at (?:{_CELL}, )*{_CELL} and {_CELL}\.",
    rf"[XO] to play, with a connection open at {_CELL}\.",
    r"[XO] to play; no connection is open\.",
    rf"[XO](?: must connect| connects) at (?:{_CELL}, )*{_CELL} \(touching (?:\d+, )*\d+ [XO] "
    rf"cells\)(?:, then {_ENDING}| and goes on)(?:: every empty cell was a connection)?\.",
    rf"[XO] {_ENDING}(?:: every empty cell was a connection)?\.",
    r"Board full: [XO] wins \d+ to \d+\.",
]
_PLAYER = r"(?:First|Second|Left|Right)"
O_SENTENCES = [
    rf"\d+\. {_PLAYER} {_CELL}(?:; \d+\. {_PLAYER} {_CELL})*\.",
    rf"{_PLAYER} to play\.",
    rf"{_PLAYER} closes a loop of \d+ stones with {_CELL} and wins\.",
    r"Nobody can place a stone\.",
    rf"\b{_CELL}: (?:a stone may go here|its ring is glyph [\w-]+, where no stone may go|"
    rf"corner rule: [^.]*|there is a stone there already|only (?:Left|Right) may place in a "
    rf"[\w-]+ ring)\.",
]


# --- O ---------------------------------------------------------------------------------------


class OReplay:
    """Impartial O under the spec's chart, with stones taken back by replaying."""

    def __init__(self, said: list[Said]) -> None:
        board = next(s for s in said if s.key == "board").value.split()
        if any(s.key == "variant" and s.value == "partisan" for s in said):
            raise NotImplementedError("the oracle plays impartial O")
        self.grid = make_shape("hexhex", int(board[1]))
        self.board = Board(list(self.grid.cells))
        self.names = HexNames(list(self.grid.cells))
        self.setup = next((s.value.split() for s in said if s.key == "setup"), [])
        self.history: list[str] = []
        self.game = NaiveO(self.grid)

    def restart(self) -> None:
        self.history = []
        self.game = NaiveO(self.grid)
        for name in self.setup:
            self.place(name)

    def place(self, name: str) -> tuple[int, str, str]:
        player = self.game.to_move
        self.game.place(self.names.cell(name))
        self.history.append(name)
        return len(self.history), player, name

    def undo(self, count: int) -> list[str]:
        taken = self.history[-count:]
        kept = self.history[:-count]
        self.history = []
        self.game = NaiveO(self.grid)
        for name in kept:
            self.place(name)
        return taken

    def why(self, name: str) -> str | None:
        """None if a stone may go there; else 'taken', 'corner' or the glyph's name."""
        cell = self.names.cell(name)
        stones = self.game.stones
        if cell in stones:
            return "taken"
        ring = [n in stones for n in self.board.ring(cell)]
        if single_run_of_two_to_five(ring):
            run = sum(ring)
            return {2: "k2-adjacent", 3: "k3-row", 4: "k4-row", 5: "k5"}[run]
        if not naive_o_legal(self.board, set(stones), cell):
            return "corner"
        return None


def o_problems(path: Path, captions: list[list[str]]) -> list[str]:
    said = read_file(path)
    replay = OReplay(said)
    replay.restart()
    problems: list[str] = []
    texts = [c for row in captions for c in row]
    panels: list[tuple[Panel, list[tuple[int, str, str]], dict[str, str | None]]] = []

    def close() -> None:
        if not panels:
            return
        panel, placed, shown = panels[-1]
        where = f"{path.name} panel {len(panels)}"
        if len(panels) > len(texts):
            problems.append(f"{where}: no caption")
            return
        caption = texts[len(panels) - 1]
        for name in shown:
            shown[name] = replay.why(name)
        text = engine_part(caption, panel, where)
        problems.extend(panel.problems)
        if text is not None:
            problems.extend(f"{where}: {p} in {caption!r}"
                            for p in _o_caption(text, replay, placed, shown))

    open_panel = False
    for s in said:
        if s.key in ("line", "panel"):
            if open_panel:
                close()
            open_panel = s.key == "panel"
            if s.key == "line":
                replay.restart()
            else:
                panels.append((Panel(s.value), [], {}))
        elif not open_panel:
            continue
        elif s.key == "place":
            for name in s.value.split():
                panels[-1][1].append(replay.place(name))
        elif s.key == "undo":
            taken = replay.undo(int(s.value))
            panels[-1][1][:] = [p for p in panels[-1][1] if p[2] not in taken]
        elif s.key == "show":
            for name in s.value.split():  # ruled in the position the panel draws
                panels[-1][2][name] = None
        elif s.key == "note":
            panels[-1][0].notes.append(s.value)
        elif s.key == "caption":
            panels[-1][0].override = s.value
    if open_panel:
        close()
    if len(panels) != len(texts):
        problems.append(f"{path.name}: {len(panels)} panels, {len(texts)} captions")
    return problems


def _o_caption(text: str, replay: OReplay, placed: list[tuple[int, str, str]],
               shown: dict[str, str | None]) -> list[str]:
    wrong: list[str] = []
    game = replay.game
    stones = [(int(n), p.lower(), c) for n, p, c in
              re.findall(r"(\d+)\. (First|Second|Left|Right) ([A-Z]+\d+)", text)]
    if stones != placed:
        wrong.append(f"stones placed: {placed}, caption says {stones}")
    mover = re.match(r"(First|Second|Left|Right) to play\.", text)
    if not placed and not game.over and (not mover or mover.group(1).lower() != game.to_move):
        wrong.append(f"{game.to_move} is to play")
    if (placed or game.over) and mover:
        wrong.append("no 'to play' after stones or once over")
    said = dict(re.findall(r"\b([A-Z]+\d+): (.*?)\.(?= |$)", text))
    if list(said) != list(shown):
        wrong.append(f"cells shown: {list(shown)}, caption says {list(said)}")
    for name, why in shown.items():
        reason = said.get(name, "")
        if why is None:
            ok = reason == "a stone may go here"
        elif why == "taken":
            ok = "already" in reason and "glyph" not in reason and "corner" not in reason
        elif why == "corner":
            ok = reason.startswith("corner rule") and "glyph" not in reason
        else:
            ok = f"glyph {why}," in reason and "corner" not in reason
        if not ok:
            wrong.append(f"{name}: {why or 'legal'}, caption says {reason!r}")
    loop = re.search(r"(First|Second|Left|Right) closes a loop of (\d+) stones with "
                     r"([A-Z]+\d+) and wins", text)
    if game.over and game.winner:
        want = (game.winner, len(game.loop), replay.history[-1])
        got = (loop.group(1).lower(), int(loop.group(2)), loop.group(3)) if loop else None
        if got != want:
            wrong.append(f"{want[0]} closes a loop of {want[1]} with {want[2]}, caption "
                         f"says {got}")
    elif loop or "wins" in text:
        wrong.append("nobody has won")
    if (game.over and not game.winner) != ("Nobody can place" in text):
        wrong.append(f"over without a loop: {game.over and not game.winner}")
    wrong.extend(leftover(text, O_SENTENCES))
    return wrong


# --- Polygone --------------------------------------------------------------------------------

Hole = tuple[int, int]  # (row c, level h), as in naive_engines
Piece = frozenset[Hole]


def hole(name: str) -> Hole:
    return "abcde".index(name[0]) - 2, int(name[1:])


def hole_text(h: Hole) -> str:
    return "abcde"[h[0] + 2] + str(h[1])


def piece(name: str) -> Piece:
    a, b = name.split("-")
    return frozenset((hole(a), hole(b)))


def piece_text(p: Piece) -> str:
    low, high = sorted(p, key=lambda h: (h[1], h[0]))
    return f"{hole_text(low)}-{hole_text(high)}"


SIDES = {"triangle": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
         "ten": 10, "eleven": 11, "twelve": 12}


def targets(pieces: dict[Piece, str], moving: Hole, pivot: Hole
            ) -> tuple[set[str], set[str], set[str]]:
    """(allowed, backwards, blocked) targets of swinging ``moving`` about ``pivot``: every
    empty line at the pivot.  Blocked: a piece at the pivot stands in the way both ways
    round (directions off the board stop nothing); backwards: the end would lose level
    toward the mover's goal."""
    colour = pieces[frozenset((moving, pivot))]
    start = TURNING_ORDER.index((moving[0] - pivot[0], moving[1] - pivot[1]))
    holes = {h for p in _all_lines() for h in p}
    allowed, backwards, blocked = set(), set(), set()
    for k, (dc, dh) in enumerate(TURNING_ORDER):
        target = (pivot[0] + dc, pivot[1] + dh)
        if k == start or target not in holes or frozenset((pivot, target)) in pieces:
            continue
        clear = False
        for sense in (1, -1):
            steps = [(start + sense * m) % 6 for m in range(1, 6)]
            passed = steps[:steps.index(k)]
            if not any(frozenset((pivot, (pivot[0] + TURNING_ORDER[j][0],
                                          pivot[1] + TURNING_ORDER[j][1]))) in pieces
                       for j in passed):
                clear = True
        back = target[1] < moving[1] if colour == "white" else target[1] > moving[1]
        name = hole_text(target)
        if not clear:
            blocked.add(name)
        elif back:
            backwards.add(name)
        else:
            allowed.add(name)
    moves = {(m, p, t) for m, p, t in naive_polygone_moves(pieces, colour)
             if m == moving and p == pivot}
    assert {hole_text(t) for _, _, t in moves} == allowed, "the oracle disagrees with itself"
    return allowed, backwards, blocked


def _all_lines() -> set[Piece]:
    from naive_engines import POLYGONE_HOLES

    return {frozenset((a, (a[0] + dc, a[1] + dh))) for a in POLYGONE_HOLES
            for dc, dh in TURNING_ORDER if (a[0] + dc, a[1] + dh) in POLYGONE_HOLES}


def polygone_problems(path: Path, captions: list[list[str]]) -> list[str]:
    said = read_file(path)
    header = [s for s in said[:next((i for i, s in enumerate(said) if s.key == "panel"),
                                    len(said))]]
    pieces: dict[Piece, str] | None = None
    to_move, captured = "white", {"white": 0, "black": 0}
    for s in header:
        if s.key in ("white", "black"):
            pieces = pieces or {}
            pieces.update({piece(n): s.key for n in s.value.split()})
        elif s.key == "to-move":
            to_move = s.value
        elif s.key == "captured":
            w = s.value.split()
            captured = {w[0]: int(w[1]), w[2]: int(w[3])}
    game = NaivePolygone(pieces if pieces is not None else polygone_start(), to_move,
                         captured)
    texts = [c for row in captions for c in row]
    problems: list[str] = []
    panels: list[tuple[Panel, list[tuple[str, Any]]]] = []  # what each says, in order
    pending_turn: tuple[str, list[Any]] | None = None
    for s in said[len(header):]:
        if s.key == "panel":
            panels.append((Panel(s.value), []))
            if pending_turn is not None:
                panels[-1][1].append(("turn", pending_turn))
                pending_turn = None
        elif s.key == "show":
            moving_name, _, pivot_name = s.value.split()
            moving, pivot = hole(moving_name), hole(pivot_name)
            colour = game.pieces[frozenset((moving, pivot))]
            panels[-1][1].append(("show", (colour, moving_name, pivot_name,
                                           targets(game.pieces, moving, pivot))))
        elif s.key == "move":
            m = re.fullmatch(r"([a-e]\d+)-([a-e]\d+)>([a-e]\d+)(?:/([\d,]+))?", s.value)
            assert m, s.value
            mover = game.to_move
            panels[-1][1].append(("move", (mover, m.group(1), m.group(2), m.group(3))))
            order = tuple(int(k) for k in m.group(4).split(",")) if m.group(4) else ()
            game.play(hole(m.group(1)), hole(m.group(2)), hole(m.group(3)), order)
            pending_turn = (mover, [(len(poly), captor, sorted(piece_text(p) for p in taken))
                                    for poly, captor, taken in game.resolved])
        elif s.key == "note":
            panels[-1][0].notes.append(s.value)
        elif s.key == "caption":
            panels[-1][0].override = s.value
    if len(panels) != len(texts):
        return [f"{path.name}: {len(panels)} panels, {len(texts)} captions"]
    for k, ((panel, expected), caption) in enumerate(zip(panels, texts, strict=True)):
        where = f"{path.name} panel {k + 1}"
        text = engine_part(caption, panel, where)
        problems.extend(panel.problems)
        if text is not None:
            problems.extend(f"{where}: {p} in {caption!r}"
                            for p in _polygone_caption(text, expected))
    return problems


_CLAUSE = (r"an? (?:triangle|\w+-sided polygon)(?: that captures nothing|: (?:White|Black) "
           r"captures (?:White|Black)'s (?:[a-e]\d+-[a-e]\d+(?:, | and ))*[a-e]\d+-[a-e]\d+)")
_HOLE_LIST = r"(?:[a-e]\d+(?:, | and ))*[a-e]\d+"
POLYGONE_SENTENCES = [
    rf"(?:White|Black)'s end [a-e]\d+, swung about [a-e]\d+, (?:may reach {_HOLE_LIST}|has "
    rf"nowhere to go)\.(?: {_HOLE_LIST} (?:is|are) backwards\.)?(?: {_HOLE_LIST} (?:is|are) "
    r"blocked\.)?",
    r"(?:White|Black) swings [a-e]\d+ about [a-e]\d+ to [a-e]\d+\.",
    rf"(?:White|Black)'s move closes (?:no polygon|{_CLAUSE}|(?:two|three|\d+) polygons, "
    rf"resolved one after the other: first {_CLAUSE}(?:; then {_CLAUSE})+)\.",
]


_HOLES = r"((?:[a-e]\d+(?:, | and )?)+)"
_PIECES = r"((?:[a-e]\d+-[a-e]\d+(?:, | and )?)+)"


def _polygone_caption(text: str, expected: list[tuple[str, Any]]) -> list[str]:
    wrong: list[str] = []
    for holes, verb in re.findall(rf"{_HOLES} (is|are) (?:backwards|blocked)\.", text):
        if (verb == "is") != (len(_listed(holes)) == 1):
            wrong.append(f"{holes!r} {verb}: the verb does not agree")
    shows = [(colour.lower(), moving, pivot,
              (set(_listed(allowed or "")), set(_listed(back or "")),
               set(_listed(blocked or ""))))
             for colour, moving, pivot, allowed, back, blocked in re.findall(
                 rf"(White|Black)'s end ([a-e]\d+), swung about ([a-e]\d+), (?:may reach "
                 rf"{_HOLES}|has nowhere to go)\.(?: {_HOLES} (?:is|are) backwards\.)?"
                 rf"(?: {_HOLES} (?:is|are) blocked\.)?", text)]
    want_shows = [facts for kind, facts in expected if kind == "show"]
    if shows != want_shows:
        wrong.append(f"targets (allowed, backwards, blocked): {want_shows}, caption says "
                     f"{shows}")
    moves = [(c.lower(), a, b, t) for c, a, b, t in re.findall(
        r"(White|Black) swings ([a-e]\d+) about ([a-e]\d+) to ([a-e]\d+)\.", text)]
    want_moves = [facts for kind, facts in expected if kind == "move"]
    if moves != want_moves:
        wrong.append(f"moves: {want_moves}, caption says {moves}")
    turns = re.findall(r"(White|Black)'s move closes (.*?)\.(?= |$)", text)
    want_turns = [facts for kind, facts in expected if kind == "turn"]
    got_turns = []
    for mover, closes in turns:
        polygons = []
        if closes != "no polygon":
            for name, captor, loser, taken in re.findall(
                    rf"an? (triangle|\w+-sided polygon)(?: that captures nothing|: "
                    rf"(White|Black) captures (White|Black)'s {_PIECES})", closes):
                sides = SIDES.get(name.split("-")[0], None) if name != "triangle" else 3
                if sides is None and name.split("-")[0].isdigit():
                    sides = int(name.split("-")[0])
                if captor and captor == loser:
                    wrong.append(f"{captor} captures its own pieces")
                polygons.append((sides, captor.lower() or None, sorted(_listed(taken))))
            count = {2: "two", 3: "three"}.get(len(polygons))
            if len(polygons) > 1 and f"closes {count or len(polygons)} polygons" not in \
                    f"closes {closes}":
                wrong.append(f"{len(polygons)} polygons closed, caption says {closes!r}")
        got_turns.append((mover.lower(), polygons))
    if got_turns != want_turns:
        wrong.append(f"polygons closed (sides, captor, taken): {want_turns}, caption says "
                     f"{got_turns}")
    wrong.extend(leftover(text, POLYGONE_SENTENCES))
    return wrong
