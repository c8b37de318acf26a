"""Every caption says what the engine's positions say (issue 20).

For every shipped diagram (templates/GAME/*.txt) and the docs' example files
(tests/diagram_files/), tests/captions.py replays the file with its own reader through the
naive engines and works out what each panel's caption must state: the winner and the
counts, the player to move, the connections open, what each placement touched, the stones
placed and where a stone may go, where a Polygone end may swing and which targets are
backwards or blocked, which polygons a move closes, which a capture opens, what each
captures and who won how; each caption under its panel's label, said once.  A free diagram
has no rules: its captions must be the designer's words (label, notes, caption:) and nothing
else.  The captions are taken from the diagrams as the public API builds them, and the
drawn SVG must carry exactly those captions.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from captions import (
    HexNames,
    copolymer_problems,
    free_problems,
    hole_text,
    o_problems,
    piece_text,
    polygone_problems,
)
from conftest import ROOT
from hypothesis import given, settings
from hypothesis import strategies as st
from naive_engines import NaiveCopolymer, NaiveO, NaivePolygone

import boardgen
from boardgen.geometry import hexhex

TEMPLATES = ROOT / "templates"
README_FILES = ROOT / "tests" / "diagram_files"

# 'free' has no rules: its oracle checks that a caption is the designer's words only.
ORACLES: dict[str, Callable[[Path, list[list[str]]], list[str]]] = {
    "copolymer": copolymer_problems, "o": o_problems, "polygone": polygone_problems,
    "free": free_problems}


def _game_of(path: Path) -> str:
    said = re.search(r"^game:\s*(\w+)", path.read_text(encoding="utf-8"), re.MULTILINE)
    return said.group(1) if said else path.parent.name


# The English files; NAME.fr.txt beside each is its translation (test_french_templates.py).
SHIPPED = sorted(p for p in TEMPLATES.glob("*/*.txt") if "." not in p.stem)
README = sorted(README_FILES.glob("*.txt"))
# Captions no shipped diagram reaches: one connection or none, the board filled in mid-turn,
# panels after the end, a designer's caption, every target blocked, a polygon of one colour,
# three and four polygons in one turn, a polygon broken by an earlier capture or left
# unresolved by the seventh capture, captures that open a polygon, the apex, a player who
# cannot move.
CASES_DIR = ROOT / "tests" / "caption_cases"
CASES = sorted(CASES_DIR.glob("*.txt"))
ALL_FILES = [*SHIPPED, *README, *CASES]


def _diagram(path: Path) -> boardgen.Diagram:
    if path.parent.parent == TEMPLATES:
        return boardgen.diagram(path.parent.name, path.stem)  # as the CLI names it
    return boardgen.load_diagram(path)


def panel_captions(diagram: boardgen.Diagram) -> list[list[str]]:
    """Each row's panel captions, as drawn under the panels (the one place that knows how
    a diagram holds them)."""
    return [[scene.caption or "" for scene in scenes] for _, scenes in diagram.rows]


def _id(path: Path) -> str:
    return f"{path.parent.name}/{path.stem}"


def test_every_shipped_diagram_and_readme_file_is_checked() -> None:
    assert len(SHIPPED) >= 17 and len(README) == 3 and len(CASES) >= 11
    assert {_game_of(p) for p in ALL_FILES} == set(ORACLES)


@pytest.mark.parametrize("path", ALL_FILES, ids=_id)
def test_captions_state_what_the_positions_say(path: Path) -> None:
    captions = panel_captions(_diagram(path))
    assert all(c for row in captions for c in row)
    assert ORACLES[_game_of(path)](path, captions) == []


def _drawn_text(svg: str) -> str:
    return " ".join(" ".join(re.findall(r'class="caption" aria-label="([^"]*)"', svg)).split())


@pytest.mark.parametrize("path", ALL_FILES, ids=_id)
def test_the_drawing_carries_those_captions_in_order(path: Path) -> None:
    diagram = _diagram(path)
    drawn = _drawn_text(str(boardgen.draw(diagram, "svg")))
    drawn = drawn.replace("&amp;", "&").replace("&#x27;", "'").replace("&#39;", "'")
    # The drawing sets typographer's quotes, as the sheets do (tests/render/test_standalone.py
    # holds it to that); the captions' words are compared here.
    drawn = drawn.translate(str.maketrans("\u2018\u2019\u201c\u201d", "''\"\""))
    at = 0
    for caption in (c for row in panel_captions(diagram) for c in row):
        found = drawn.find(" ".join(caption.split()), at)
        assert found >= 0, (caption, drawn[at:])
        at = found + len(caption)


# --- the oracle can fail: captions that lie are caught ----------------------------------------


def _lie(path: Path, old: str, new: str) -> list[str]:
    captions = panel_captions(_diagram(path))
    lied = [[c.replace(old, new) for c in row] for row in captions]
    assert lied != captions, f"{old!r} is not in the captions of {path.name}"
    return ORACLES[_game_of(path)](path, lied)


@pytest.mark.parametrize(("file", "old", "new"), [
    ("copolymer/forced", "X wins 10 to 9", "X wins 9 to 10"),
    ("copolymer/forced", "X wins 10 to 9", "O wins 10 to 9"),
    ("copolymer/tempo", "O to play, with connections open at B4, D3 and D5",
     "X to play, with connections open at B4, D3 and D5"),
    ("copolymer/tempo", "open at B4, D3 and D5", "open at B4 and D3"),
    ("copolymer/help-page", "ends the turn at C5 (touching no X cell)",
     "ends the turn at C5 (touching 1 X cell)"),
    ("copolymer/help-page", "(touching 3 O cells) and goes on", "(touching 3 O cells)"),
    ("copolymer/tempo", "X must connect", "X connects"),
    ("o/loop", "loop of 13 stones", "loop of 12 stones"),
    ("o/short-game", "Second places stone 2 on B1", "First places stone 2 on B1"),
    ("o/short-game", "stone 2 on B1", "stone 3 on B1"),
    ("o/corners", "First places a stone on A2", "First places stone 1 on A2"),  # not drawn
    ("o/corners", "A1: corner rule", "A1: its ring is glyph k2-adjacent, where no stone may go."
     " corner rule"),
    ("diagram_files/o-where", "E5: its ring is glyph k2-adjacent", "E5: a stone may go here"),
    ("polygone/03-blocking", "Blocked: c4.", "Backwards: c4."),
    ("polygone/02-targets", "Backwards: c6.", "Blocked: c6."),
    ("polygone/02-targets", "may reach b3, b5, c2 and d3", "may reach b3, b5 and c2"),
    ("polygone/06-triangle", "White captures d3-c4", "Black captures d3-c4"),
    ("polygone/06-triangle", "White captures d3-c4", "White captures c2-c4"),
    ("polygone/09-capture-back", "closes a triangle", "closes a four-sided polygon"),
    # A polygon a capture opened is not one the move closed, nor the other way round.
    ("polygone/09-capture-back", "closes a triangle: White captures d3-c4. That "
     "capture opens a five-sided", "closes two polygons. First a "
     "triangle: White captures d3-c4; then a five-sided"),
    ("caption_cases/polygone-three-polygons", "then a triangle: Black captures "
     "c4-b5. That capture opens a five-sided", "then a triangle: Black captures "
     "c4-b5; then a five-sided"),
    ("polygone/08-piece-inside", "White's move captures nothing",
     "White's move closes a triangle that captures nothing"),
    ("polygone/10-two-polygons", "First a five-sided polygon: White captures d3-e4 "
     "and e4-e6; then a triangle: Black captures c4-d5", "First a triangle: Black "
     "captures c4-d5; then a five-sided polygon: White captures d3-e4 and "
     "e4-e6"),  # not the mover's order
    ("polygone/07-nine-sides", "a nine-sided", "an nine-sided"),
    ("caption_cases/polygone-broken", ", broken by an earlier capture: it no longer counts",
     " that captures nothing"),
    ("caption_cases/polygone-unresolved", ", left unresolved", " that captures nothing"),
    ("caption_cases/polygone-captures-open", "The captures open", "That capture opens"),
    ("caption_cases/polygone-unresolved", "captured 8 pieces", "captured 7 pieces"),
    ("caption_cases/polygone-unresolved", "Black wins", "White wins"),
    ("caption_cases/polygone-apex", " White wins: reached the opposite apex.", ""),
    ("caption_cases/polygone-apex", "reached the opposite apex", "Black cannot move"),
    ("caption_cases/polygone-no-move", "Black cannot move", "White cannot move"),
    ("caption_cases/polygone-no-move", "Black cannot move", "reached the opposite apex"),
    # The label heads the caption, once: not dropped, not said twice.
    ("polygone/06-triangle", "After the move.", ""),
    ("diagram_files/copolymer-annotated", "O connects at D3", "O connects. O connects at D3"),
    ("caption_cases/copolymer-one-connection", "O to play, with", "O to play. O to play, with"),
    # A free diagram's captions are the designer's words, all of them and nothing else.
    ("free/bridge", "The pair. B3", "B3"),
    ("free/bridge", "stones are joined", "stones are cut"),
    ("free/bridge", "Black joins.", "Black joins. X wins."),
    ("polygone/02-targets", "Black's end d5", "White's end d5"),
    # Words beyond the sentences a player should read.
    ("copolymer/help-page", "and goes on", "and goes on and on"),
    ("copolymer/tempo", "D5. The position", "D5.XX XXThe position"),
    ("o/short-game", "; Second places stone 2", ";XX Second places stone 2"),
    ("polygone/10-two-polygons", "; then", "; and then"),
    ("polygone/09-capture-back", "That capture opens", "That capture then opens"),
])
def test_a_caption_that_says_otherwise_is_caught(file: str, old: str, new: str) -> None:
    folder, stem = file.split("/")
    path = (README_FILES if folder == "diagram_files" else CASES_DIR if folder ==
            "caption_cases" else TEMPLATES / folder) / f"{stem}.txt"
    assert _lie(path, old, new) != []


# --- O: the cells shown are coloured as the caption words them -------------------------------

SHOW_THEN_PLACE = """game: o
board: hexhex 4
setup: D4
panel: E5 shown, then D5 placed
show: E5 D6
place: D5
"""


def _panel_roles(svg: str) -> list[dict[str, str]]:
    """Each panel's cell roles from the SVG: the cells of one panel come one after the other,
    each named once."""
    panels: list[dict[str, str]] = []
    for role, name in re.findall(r'<use class="cell ([\w-]+)" data-cell="([\w-]+)"', svg):
        if name.startswith("legend-"):
            continue
        if not panels or name in panels[-1]:
            panels.append({})
        panels[-1][name] = role
    return panels


@pytest.mark.parametrize("source", [*(p for p in SHIPPED if p.parent.name == "o"),
                                    README_FILES / "o-where.txt", "show-then-place"],
                         ids=str)
def test_o_cells_shown_are_coloured_as_their_captions_say(tmp_path: Path,
                                                          source: Path | str) -> None:
    path = Path(source) if isinstance(source, Path) else tmp_path / f"{source}.txt"
    if isinstance(source, str):
        path.write_text(SHOW_THEN_PLACE)
    diagram = _diagram(path)
    captions = [c for row in panel_captions(diagram) for c in row]
    assert o_problems(path, [captions]) == []
    roles = _panel_roles(str(boardgen.draw(diagram, "svg")))
    assert len(roles) == len(captions)
    shown = 0
    for caption, panel in zip(captions, roles, strict=True):
        for name, reason in re.findall(r"\b([A-Z]+\d+): (.*?)\.(?= |$)", caption):
            shown += 1
            assert panel[name] == ("legal" if reason == "a stone may go here" else "illegal"), \
                (name, reason, panel[name])
    assert shown or path.stem in ("loop", "short-game")


# --- the text `play` prints says what the position says ----------------------------------------


@settings(max_examples=40, deadline=None)
@given(side=st.sampled_from([2, 3]), picks=st.lists(st.integers(0, 1000), max_size=30),
       stop=st.integers(0, 40))
def test_copolymer_play_text_says_what_the_position_says(side: int, picks: list[int],
                                                         stop: int) -> None:
    grid = hexhex(side)
    names = HexNames(list(grid.cells))
    naive = NaiveCopolymer(grid)
    moves = []
    for pick in picks[:stop]:
        empty = naive.empty_cells()
        if len(empty) <= 1:
            break
        cell = empty[pick % len(empty)]
        moves.append(names.name(cell))
        naive.place(cell)
    said = boardgen.play("copolymer", moves, side=side).text().splitlines()[-1]
    found = re.fullmatch(r"([XO]) to move(, continuing the turn after a connection)?; (.*)\. "
                         r"Cells: X (\d+), O (\d+)\.", said)
    assert found, said
    mover = naive.to_move.upper()
    xs = sum(1 for p in naive.owner.values() if p == "x")
    assert found.group(1) == mover and bool(found.group(2)) == naive.turn_continues
    assert (int(found.group(4)), int(found.group(5))) == (xs, len(naive.owner) - xs)
    connections = sorted(names.name(c) for c in naive.connections())
    if len(connections) == len(naive.empty_cells()):
        assert found.group(3).startswith("every empty cell is a connection")
    elif connections:
        assert found.group(3) == f"connections for {mover}: {' '.join(connections)}"
    else:
        assert found.group(3) == f"no connection open for {mover}"


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 10**6), stop=st.integers(0, 12))
def test_o_play_text_says_what_the_position_says(seed: int, stop: int) -> None:
    grid = hexhex(4)
    names = HexNames(list(grid.cells))
    naive = NaiveO(grid)
    rng = random.Random(seed)
    moves = []
    for _ in range(stop):
        cell = rng.choice(naive.legal())
        naive.place(cell)
        if naive.over:
            break
        moves.append(names.name(cell))
    naive = NaiveO(grid)
    for name in moves:
        naive.place(names.cell(name))
    said = boardgen.play("o", moves, side=4).text().splitlines()[-1]
    assert said == f"{naive.to_move.capitalize()} to move; {len(naive.legal())} legal placements."


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 10**6), stop=st.integers(0, 8))
def test_polygone_play_text_says_what_the_position_says(seed: int, stop: int) -> None:
    naive = NaivePolygone()
    rng = random.Random(seed)
    moves = []
    for _ in range(stop):
        moving, pivot, target = rng.choice(naive.moves())
        naive.play(moving, pivot, target)
        moves.append(f"{hole_text(moving)}-{hole_text(pivot)}>{hole_text(target)}")
        if naive.over:
            break
    lines = boardgen.play("polygone", " ".join(moves)).text().splitlines()
    for line, colour in zip(lines, ("white", "black"), strict=False):
        pieces = sorted(piece_text(p) for p, c in naive.pieces.items() if c == colour)
        assert line == (f"{colour.capitalize()} ({len(pieces)} on the board, "
                        f"{naive.captured[colour]} captured): {' '.join(pieces)}")
    if naive.over:
        assert lines[-1].startswith(f"{(naive.winner or '').capitalize()} wins: ")
    else:
        assert lines[-1] == f"{naive.to_move.capitalize()} to move; {len(naive.moves())} " \
            "legal moves."


# --- a caption under the panel it describes; a move, or whose turn it is, said once -----------

TWO_MOVES = """game: polygone
title: Two moves
white: c2-c4 b1-c2
black: c4-d3 c8-c10
panel: First
move: b1-c2>d3
panel: Second
move: c10-c8>b9
panel: After
"""


def test_a_polygone_move_is_told_under_its_own_panel_not_the_next() -> None:
    """Two moves, each in its own panel, and a panel after: what each move did (what it
    closed and captured) is under the panel that draws its swing; the panel after says
    nothing of either."""
    first, second, after = panel_captions(boardgen.parse_diagram(TWO_MOVES))[0]
    assert first == "First. White's move closes a triangle: White captures d3-c4."
    assert second == "Second. Black's move captures nothing."
    assert after == "After."


# Whose turn it is, a player's move on hex cells, a Polygone swing: as captions say them.
_PLAYER = r"(X|O|White|Black|First|Second|Left|Right|Red|Blue)"
_SIDE = re.compile(rf"\b{_PLAYER}(?:'s turn| to (?:move|play))\b")
_HEX_MOVE = re.compile(rf"\b{_PLAYER} (?:must )?(?:connects? at|places (?:a stone|stone \d+) "
                       r"on|takes the last cell,|ends the turn at) ([A-Z]\d+)")
_SWING = re.compile(r"\b(White|Black) swings ([a-e]\d+)(?:-([a-e]\d+)| about ([a-e]\d+)) to "
                    r"([a-e]\d+)")


def said_twice(caption: str) -> list[str]:
    """What a panel's caption (its label in front) states twice: the same side to move, or
    the same move, however worded ('X to move. X to play ...', 'White swings c0-c2 to d1.
    White swings c0 about c2 to d1.'), or whose turn it is and then that player's move
    ("O's turn. O connects at D3")."""
    problems = []
    sides = [m.group(1) for m in _SIDE.finditer(caption)]
    problems += [f"{side} to move, twice" for side in sorted(set(sides))
                 if sides.count(side) > 1]
    swings = [(m.group(1), frozenset({m.group(2), m.group(3) or m.group(4)}), m.group(5))
              for m in _SWING.finditer(caption)]
    problems += [f"the swing {swing} twice" for swing in set(swings) if swings.count(swing) > 1]
    moves = [(m.group(1), m.group(2)) for m in _HEX_MOVE.finditer(caption)]
    problems += [f"the move {move} twice" for move in set(moves) if moves.count(move) > 1]
    sentences = [s.strip() for s in re.split(r"(?<=[.!?])\s+", caption) if s.strip()]
    for sentence, following in zip(sentences, sentences[1:], strict=False):
        turn = re.fullmatch(rf"{_PLAYER}(?:'s turn| to (?:move|play))[.!]", sentence)
        if turn and following.startswith(f"{turn.group(1)} "):
            problems.append(f"{turn.group(1)}'s turn, then {following!r}")
    return problems


@pytest.mark.parametrize("caption", [
    "X to move. X to play, with connections open at B4.",
    "White swings c0-c2 to d1. White swings c0 about c2 to d1.",
    "O's turn. O connects at D3 (touching 3 X cells), then ends the turn at C2.",
    "First places stone 1 on B5. First places stone 1 on B5.",
])
def test_said_twice_catches_a_label_said_again_in_other_words(caption: str) -> None:
    assert said_twice(caption) != []


@pytest.mark.parametrize("caption", [
    "Before. White swings c0 about c2 to d1. White's move captures nothing.",
    "Start. X to play, with connections open at B2, B3, C2 and E5.",
    "First places stone 1 on B5; Second places stone 2 on B1.",
])
def test_said_twice_passes_a_caption_that_says_each_thing_once(caption: str) -> None:
    assert said_twice(caption) == []


@pytest.mark.parametrize("path", ALL_FILES, ids=_id)
def test_no_panel_says_a_move_or_the_side_to_move_twice(path: Path) -> None:
    """Every built-in diagram (and the docs' and the caption cases' files): no panel's
    label and caption state the same move, or the same side to move, twice."""
    for row in panel_captions(_diagram(path)):
        for caption in row:
            assert said_twice(caption) == [], caption


@pytest.mark.parametrize(("text", "label", "caption"), [
    ("game: copolymer\nboard: hexhex 3\nfirst: x\nsetup: C3 B2 C2\npanel: O to move\n",
     "O to move", "O to play, with a connection open at D3"),
    ("game: copolymer\nboard: hexhex 3\nfirst: x\nsetup: C3 B2 C2\npanel: O's turn\n"
     "place: D3 connection 2\n", "O's turn", "O connects at D3"),
])
def test_a_label_the_caption_says_already_is_left_out(text: str, label: str,
                                                      caption: str) -> None:
    """The issue's cases: the label's move, or its side to move, said once."""
    drawn = panel_captions(boardgen.parse_diagram(text))[0][0]
    assert drawn.startswith(caption) and label not in drawn, drawn
    assert said_twice(drawn) == []
