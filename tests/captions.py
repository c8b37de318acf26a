"""What each caption of a diagram file must say, worked out by the tests themselves.

An oracle for tests/games/test_captions.py.  It reads a diagram file with its own small reader,
replays it through the naive engines of bench/naive_engines.py (written from the spec
alone), and compares every panel's caption with the facts of that replay: who is to play,
which connections are open, what each placement touched, who won and by how much; which
stones were placed and which cells may take one; where a Polygone end may swing and which
targets are backwards or blocked; which polygons the move itself closed (in the mover's
order) and which a capture opened, what each captures (or whether an earlier capture broke
it, or the seventh capture left it unresolved), and who won and why.  A free diagram has
no engine: its captions are checked to be the designer's words alone.

It shares no code with boardgen's caption writers, diagram-file readers or engines: cell
and hole names, the start drawing, the polygon names and the classification of targets
are all worked out here again.  Only the board's cell list (boardgen.geometry) is used, as
the naive engines use it.

The captions are read back with regular expressions for the sentences a player reads;
notes (``note:``) are the designer's words and are taken off before the engine's sentences
are read, and a designer's ``caption:`` must appear as written.  A panel's label heads its
caption once: left out only where the caption begins by saying it.
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


def _words(text: str) -> list[str]:
    """A text's words, lower case, punctuation left out."""
    return re.findall(r"[0-9a-z]+", text.lower())


_NO_FACT = {"a", "an", "the", "to", "at", "on", "of", "in", "with", "and", "about", "s",
            "it", "its", "is", "by", "from"}


def restates(label: str, text: str) -> bool:
    """Whether ``text`` says what ``label`` says, in whatever words: every word of the
    label that states something (a place, a player, a verb) is in the text, 'to play',
    'to move' and 'turn' taken as one; or the label is whose turn it is and the text
    starts with that player."""
    def facts(words: str) -> set[str]:
        found = set()
        for word in re.findall(r"[0-9a-z]+", words.lower()):
            if word in ("play", "plays", "move", "moves", "turn", "turns"):
                found.add("<turn>")
            elif word not in _NO_FACT:
                found.add(word)
        return found

    turn = re.fullmatch(r"\s*(\w+)(?:'s turn| to (?:move|play))[.!]?\s*", label, re.I)
    if turn:
        return bool(re.match(rf"\s*{re.escape(turn.group(1))}\b", text, re.I))
    said, text_facts = facts(label), facts(text)
    # A player of one letter counts as said only as a sentence's subject: 'X' in
    # 'touching 2 X cells' is not X's move.
    letters = {word for word in said if len(word) == 1 and word.isalpha()}
    subjects = {m.group(1).lower() for m in re.finditer(r"(?:^|[.!?]\s+)(\w+)", text)}
    return bool(said) and said - letters <= text_facts and letters <= subjects


def engine_part(caption: str, panel: Panel, where: str) -> str | None:
    """The caption less its label in front and the designer's notes behind; None (and a
    problem noted) if they are not where they should be."""
    text = caption
    label = panel.label.strip()
    if label:
        # The label heads the caption ('Before. White swings ...'), unless the caption
        # begins by saying it already ('O to play' over 'O to play, with ...'): then it
        # is not said twice.
        # A label the caption says already, in any words, is left out: the panel states
        # a move, or whose turn it is, once.
        front = label if label[-1] in ".!?:" else f"{label}."
        if text.startswith(front):
            text = text[len(front):].strip()
            if text and restates(label, text):
                panel.problems.append(f"{where}: caption {caption!r} says its label "
                                      f"{label!r} twice")
                return None
        elif not restates(label, text):
            panel.problems.append(f"{where}: caption {caption!r} does not start with its "
                                  f"label {label!r}, nor say what it says")
            return None
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
_PLACES = rf"{_PLAYER} places (?:stone \d+|a stone) on {_CELL}"
O_SENTENCES = [
    rf"{_PLACES}(?:; {_PLACES})*\.",
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
        # 'numbers: off': the stones are drawn plain, so the caption cannot name a number.
        self.numbered = not any(s.key == "numbers" and s.value == "off" for s in said)
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
    # In players' words: 'First places stone 5 on D6' (the number drawn on the stone), or
    # 'First places a stone on D6' when the stones are drawn without numbers.
    stones = [(int(n) if n else None, p.lower(), c) for p, n, c in
              re.findall(r"(First|Second|Left|Right) places (?:stone (\d+)|a stone) on "
                         r"([A-Z]+\d+)", text)]
    want = placed if replay.numbered else [(None, p, c) for _, p, c in placed]
    if stones != want:
        wrong.append(f"stones placed: {want}, caption says {stones}")
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


@dataclass(frozen=True)
class TurnFacts:
    """What a Polygone move did, from the naive engine: the polygons the swing itself
    closed (in the mover's order) and those a capture opened, each as (sides, outcome), and
    how the game ended, if it did."""

    mover: str
    closed: tuple[tuple[int, tuple[Any, ...]], ...]
    opened: tuple[tuple[int, tuple[Any, ...]], ...]
    ended: tuple[str, str] | None  # (winner, why in words)
    said: bool = True  # False: a last move that closes nothing, in its own panel


def _outcome(game: NaivePolygone, poly: Any) -> tuple[Any, ...]:
    for resolved, captor, taken in game.resolved:
        if resolved == poly:
            if captor is None:
                return ("nothing",)
            return ("captures", captor, game.opponent(captor),
                    sorted(piece_text(p) for p in taken))
    return ("broken",) if poly in game.broken else ("unresolved",)


def turn_facts(game: NaivePolygone, mover: str, order: tuple[int, ...]) -> TurnFacts:
    closed = list(game.closed_by_move)
    if order:
        closed = [closed[k - 1] for k in order]
    opened = [poly for poly, _, _ in game.resolved if poly not in game.closed_by_move]
    ended = None
    if game.over and game.winner:
        loser = game.opponent(game.winner)
        ended = (game.winner, {"captures": f"captured {game.captured[loser]} pieces",
                               "apex": "reached the opposite apex",
                               "stuck": f"{loser.capitalize()} cannot move"}[game.why])
    return TurnFacts(
        mover, tuple((len(p), _outcome(game, p)) for p in closed),
        tuple((len(p), _outcome(game, p)) for p in opened), ended)


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
    for s in said[len(header):]:
        if s.key == "panel":
            panels.append((Panel(s.value), []))
        elif s.key == "show":
            moving_name, _, pivot_name = s.value.split()
            moving, pivot = hole(moving_name), hole(pivot_name)
            colour = game.pieces[frozenset((moving, pivot))]
            panels[-1][1].append(("show", (colour, moving_name, pivot_name,
                                           targets(game.pieces, moving, pivot))))
        elif s.key == "move":
            m = re.fullmatch(r"([a-e]\d+)-([a-e]\d+)>([a-e]\d+)(?:/([\d,]+))?", s.value)
            assert m, s.value
            mover = game.to_move  # the swing is drawn, not written: no "move" sentence
            order = tuple(int(k) for k in m.group(4).split(",")) if m.group(4) else ()
            game.play(hole(m.group(1)), hole(m.group(2)), hole(m.group(3)), order)
            # What the move did, under its own panel (never the next one): what it closed,
            # or that it captures nothing, and who won.
            panels[-1][1].append(("turn", turn_facts(game, mover, order)))
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


_PIECE_LIST = r"(?:[a-e]\d+-[a-e]\d+(?:, | and ))*[a-e]\d+-[a-e]\d+"
_CLAUSE = (r"an? (?:triangle|\w+-sided polygon)(?: that captures nothing|: (?:White|Black) "
           rf"captures {_PIECE_LIST}|, broken by an earlier capture: it no "
           r"longer counts|, left unresolved)")
_HOLE_LIST = r"(?:[a-e]\d+(?:, | and ))*[a-e]\d+"
POLYGONE_SENTENCES = [
    rf"(?:White|Black)'s end [a-e]\d+, swung about [a-e]\d+, (?:may reach {_HOLE_LIST}|has "
    rf"nowhere to go)\.(?: Backwards: {_HOLE_LIST}\.)?(?: Blocked: {_HOLE_LIST}\.)?",
    r"(?:White|Black) swings [a-e]\d+ about [a-e]\d+ to [a-e]\d+\.",
    rf"(?:White|Black)'s move (?:captures nothing|closes (?:{_CLAUSE}|(?:two|three|\d+) "
    rf"polygons\. First {_CLAUSE}(?:; then {_CLAUSE})+))"
    rf"\.(?: (?:That capture opens|The captures open) {_CLAUSE}(?:; then {_CLAUSE})*\.)?",
    r"(?:White|Black) wins: (?:captured \d+ pieces|reached the opposite apex|(?:White|Black) "
    r"cannot move)\.",
]


_HOLES = r"((?:[a-e]\d+(?:, | and )?)+)"
_PIECES = r"((?:[a-e]\d+-[a-e]\d+(?:, | and )?)+)"


def _article(sides_said: str) -> str:
    """'an' before a number said with a vowel: eight, eleven, eighteen, eighty-."""
    n = SIDES.get(sides_said) or int(sides_said)
    return "an" if n in (8, 11, 18) or 80 <= n <= 89 else "a"


def _clauses(text: str, wrong: list[str]) -> list[tuple[int, tuple[Any, ...]]]:
    """'a triangle: White captures d3-c4; then a four-sided polygon that captures
    nothing' -> [(3, ('captures', 'white', 'black', ['d3-c4'])), (4, ('nothing',))]."""
    found: list[tuple[int, tuple[Any, ...]]] = []
    for clause in text.split("; then "):
        m = re.fullmatch(rf"(an?) (triangle|(\w+)-sided polygon)(?: (that captures nothing)|: "
                         rf"(White|Black) captures {_PIECES}|, (broken) by an "
                         rf"earlier capture: it no longer counts|, (left unresolved))", clause)
        if not m:
            wrong.append(f"a polygon said as {clause!r}")
            continue
        said = m.group(3) or "triangle"
        if said not in SIDES and not said.isdigit():
            wrong.append(f"{said!r} sides")
            continue
        if m.group(1) != _article(said):
            wrong.append(f"{m.group(1)!r} before {said!r}")
        sides = SIDES.get(said) or int(said)
        if m.group(4):
            outcome: tuple[Any, ...] = ("nothing",)
        elif m.group(5):
            # The pieces taken are the other colour's, always: the caption names the captor.
            captor = m.group(5).lower()
            outcome = ("captures", captor, "black" if captor == "white" else "white",
                       sorted(_listed(m.group(6))))
        elif m.group(7):
            outcome = ("broken",)
        else:
            outcome = ("unresolved",)
        found.append((sides, outcome))
    return found


def _polygone_caption(text: str, expected: list[tuple[str, Any]]) -> list[str]:
    wrong: list[str] = []
    shows = [(colour.lower(), moving, pivot,
              (set(_listed(allowed or "")), set(_listed(back or "")),
               set(_listed(blocked or ""))))
             for colour, moving, pivot, allowed, back, blocked in re.findall(
                 rf"(White|Black)'s end ([a-e]\d+), swung about ([a-e]\d+), (?:may reach "
                 rf"{_HOLES}|has nowhere to go)\.(?: Backwards: {_HOLES}\.)?"
                 rf"(?: Blocked: {_HOLES}\.)?", text)]
    want_shows = [facts for kind, facts in expected if kind == "show"]
    if shows != want_shows:
        wrong.append(f"targets (allowed, backwards, blocked): {want_shows}, caption says "
                     f"{shows}")
    moves = [(c.lower(), a, b, t) for c, a, b, t in re.findall(
        r"(White|Black) swings ([a-e]\d+) about ([a-e]\d+) to ([a-e]\d+)\.", text)]
    want_moves = [facts for kind, facts in expected if kind == "move"]
    if moves != want_moves:
        wrong.append(f"moves: {want_moves}, caption says {moves}")
    want_turns = [facts for kind, facts in expected if kind == "turn"]
    got_turns = []
    for mover, did, closes, opens, opened in re.findall(
            r"(White|Black)'s move (captures nothing|closes ((?:(?:two|three|\d+) polygons\. "
            r"First )?.*?))\.(?= |$)"
            r"(?: (That capture opens|The captures open) (.*?)\.(?= |$))?", text):
        closed: list[tuple[int, tuple[Any, ...]]] = []
        if did != "captures nothing":
            several = re.fullmatch(r"(two|three|\d+) polygons\. First (.*)", closes)
            if several:
                closed = _clauses(several.group(2), wrong)
                count = {"two": 2, "three": 3}.get(several.group(1)) or int(several.group(1))
                if count != len(closed) or count < 2:
                    wrong.append(f"{len(closed)} polygons closed in {mover}'s order, caption "
                                 f"says {closes!r}")
            else:
                closed = _clauses(closes, wrong)
        captured_by_closed = sum(1 for _, outcome in closed if outcome[0] == "captures")
        if opens and opens != ("That capture opens" if captured_by_closed == 1
                               else "The captures open"):
            wrong.append(f"{captured_by_closed} captures open polygons, caption says "
                         f"{opens!r}")
        got_turns.append((mover.lower(), closed, _clauses(opened, wrong) if opens else []))
    said_turns = [(t.mover, list(t.closed), list(t.opened)) for t in want_turns if t.said]
    if got_turns != said_turns:
        wrong.append(f"the move's polygons (mover, closed, opened), each (sides, outcome): "
                     f"{said_turns}, caption says {got_turns}")
    wins = [(w.lower(), why) for w, why in re.findall(
        r"(White|Black) wins: (captured \d+ pieces|reached the opposite apex|"
        r"(?:White|Black) cannot move)\.", text)]
    want_wins = [t.ended for t in want_turns if t.ended is not None]
    if wins != want_wins or len(re.findall(r"\bwins\b", text)) != len(want_wins):
        wrong.append(f"the game's end: {want_wins}, caption says {wins}")
    wrong.extend(leftover(text, POLYGONE_SENTENCES))
    return wrong


# --- free: no rules, so the designer's words only ----------------------------------------------


def free_problems(path: Path, captions: list[list[str]]) -> list[str]:
    """A free diagram has no engine, so no sentence of one: each caption is its panel's
    label and the designer's own words (the notes, or a 'caption:'), nothing else."""
    panels: list[Panel] = []
    for s in read_file(path):
        if s.key == "panel":
            panels.append(Panel(s.value))
        elif s.key == "note" and panels:
            panels[-1].notes.append(s.value)
        elif s.key == "caption" and panels:
            panels[-1].override = s.value
    texts = [c for row in captions for c in row]
    if len(panels) != len(texts):
        return [f"{path.name}: {len(panels)} panels, {len(texts)} captions"]
    problems: list[str] = []
    for k, (panel, caption) in enumerate(zip(panels, texts, strict=True)):
        where = f"{path.name} panel {k + 1}"
        text = engine_part(caption, panel, where)
        problems.extend(panel.problems)
        if text:
            problems.append(f"{where}: words of no one {text!r} in {caption!r}")
    return problems
