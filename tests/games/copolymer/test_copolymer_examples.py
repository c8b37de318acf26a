"""Example files: every one replays, a wrong claim fails with file and line, and the tempo
example's claims hold under exhaustive search."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import ROOT, Run

from boardgen.games import protocol
from boardgen.games.copolymer.directives import load_example
from boardgen.games.copolymer.engine import Copolymer
from boardgen.games.copolymer.solver import solve
from boardgen.games.registry import GAMES
from boardgen.games.script import ExampleError
from boardgen.geometry import hexhex
from boardgen.publish.drawing import render_diagram
from boardgen.render.paper import parse_paper
from boardgen.render.scene import THEMES

TEMPLATES = ROOT / "templates" / "copolymer"
RunCli = Callable[..., Run]


def test_the_required_examples_exist() -> None:
    assert {"help-page", "tempo", "forced"} <= set(GAMES["copolymer"].file_names())


@pytest.mark.parametrize("name", GAMES["copolymer"].file_names())
def test_every_example_replays_and_draws_one_cell_element_per_cell(name: str) -> None:
    example = load_example(TEMPLATES / f"{name}.txt")
    panels = [p for line in example.lines for p in line.panels]
    assert panels
    svg = render_diagram("copolymer", name, "svg", paper=parse_paper("a4"),
                         theme=THEMES["colour"])
    root = ET.fromstring(svg)
    cells = [e for e in root.iter() if e.get("data-cell")]
    legend = [e for e in cells if (e.get("data-cell") or "").startswith("legend-")]
    assert len(cells) - len(legend) == len(panels) * len(example.grid)
    for panel in panels:
        assert panel.caption
        # Numbered cells are the panel's own turn, in order, all occupied.
        assert [k for _, k in panel.numbered] == list(range(1, len(panel.numbered) + 1))
        assert all(cell in panel.cells for cell, _ in panel.numbered)


def test_help_page_panels_match_the_seed_figures() -> None:
    example = load_example(TEMPLATES / "help-page.txt")
    (line,) = example.lines
    assert [p.label for p in line.panels] == ["2a", "2b", "2c", "2d", "3a", "3b"]
    captions = [p.caption for p in line.panels]
    assert "B2 (touching 2 X cells) and goes on" in captions[1]
    assert "A2 (touching 2 X cells) and goes on" in captions[2]
    assert "ends the turn at C5 (touching no X cell)" in captions[3]
    assert "D3 (touching 3 O cells) and goes on" in captions[4]
    assert "ends the turn at E4 (touching 1 O cell)" in captions[5]


def _tempo_start() -> Copolymer:
    game = Copolymer(hexhex(3), first="x")
    for move in "C4 C3 D4 C1 C5 A3 A1 B1 D2 E4 E3".split():
        game.place(game.notation.parse(move))
    return game


def test_tempo_claims_hold_against_every_defence() -> None:
    game = _tempo_start()
    n = game.notation.parse
    memo: dict[tuple[int, int, str], int] = {}
    assert game.to_move == "o" and [game.notation.name(h) for h in game.connections()] == \
        ["B4", "D3", "D5"]
    assert solve(game, memo) < 0  # O, to move, wins with perfect play
    # Taking all three connections loses, whichever cell then ends the turn.
    for cell in ("B4", "D3", "D5"):
        game.place(n(cell))
    endings = [c for c in game.empty_cells() if not game.is_connection(c)]
    assert endings
    for cell in endings:
        game.place(cell)
        assert solve(game, memo) > 0, game.notation.name(cell)
        game.undo()
    for _ in range(3):
        game.undo()
    # Ending the turn at once loses too; taking one connection, D3, then C2, wins.
    for cell in [c for c in game.empty_cells() if not game.is_connection(c)]:
        game.place(cell)
        assert solve(game, memo) > 0
        game.undo()
    game.place(n("D3"))
    game.place(n("C2"))
    assert game.to_move == "x" and solve(game, memo) < 0


def test_tempo_sheet_text_is_exactly_what_the_solver_shows() -> None:
    # The sheet: O wins only by taking D3, alone or with B4, and ending on C2; every other
    # choice of connections (none, B4, D5, D3+D5, B4+D5, all three) loses.
    game = _tempo_start()
    n = game.notation.parse
    memo: dict[tuple[int, int, str], int] = {}
    winning: dict[tuple[str, ...], list[str]] = {}
    for taken in ((), ("B4",), ("D3",), ("D5",), ("B4", "D3"), ("B4", "D5"), ("D3", "D5"),
                  ("B4", "D3", "D5")):
        for cell in taken:
            assert game.is_connection(n(cell))
            game.place(n(cell))
        endings = [c for c in game.empty_cells() if not game.is_connection(c)]
        assert endings and game.to_move == "o"
        wins = []
        for cell in endings:
            game.place(cell)
            if solve(game, memo) < 0:
                wins.append(game.notation.name(cell))
            game.undo()
        if wins:
            winning[taken] = wins
        for _ in taken:
            game.undo()
    assert winning == {("D3",): ["C2"], ("B4", "D3"): ["C2"]}


BROKEN = {
    "wrong count": ("place: B2 connection 3", "the example claims B2 is connection 3, but the "
                    "engine counts 2 enemy neighbours"),
    "not a connection": ("place: C5 connection 0", "the example claims C5 is connection 0, "
                         "but the engine counts 0 enemy neighbours: not a connection"),
    "occupied": ("place: A1 ends 0", "O cannot place on A1: already taken by X"),
    "off board": ("place: Z9 ends 0", "'Z9' is not on the board"),
    "bad claim": ("expect: winner x", "the example expects 'winner x', but the game is not "
                  "over"),
    "bad syntax": ("place: B2 connects", "place needs"),
    "unknown": ("colour: red", "unknown directive 'colour'"),
}


@pytest.mark.parametrize("case", sorted(BROKEN))
def test_broken_examples_fail_naming_file_and_line(tmp_path: Path, case: str) -> None:
    line, message = BROKEN[case]
    text = (TEMPLATES / "help-page.txt").read_text().splitlines()
    index = text.index("panel: 2b") + 1  # the first directive of panel 2b
    text[index] = line
    broken = tmp_path / "help.txt"
    broken.write_text("\n".join(text) + "\n")
    with pytest.raises(ExampleError) as info:
        load_example(broken)
    assert str(info.value).startswith(f"{broken}:{index + 1}: ")
    assert message in str(info.value)


def test_cli_diagram_of_a_broken_example_is_one_line(run_cli: RunCli, tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "templates" / "copolymer"
    folder.mkdir(parents=True)
    (folder / "bad.txt").write_text("board: hexhex 3\npanel: one\nplace: F9 ends 0\n")
    monkeypatch.setattr(protocol, "TEMPLATES", tmp_path / "templates")
    out = tmp_path / "bad.pdf"
    result = run_cli("diagram", "copolymer", "bad", "-o", str(out))
    assert result.code == 2
    assert result.err.strip().count("\n") == 0
    assert "bad.txt:3:" in result.err and "'F9' is not on the board" in result.err
    assert not out.exists()


@pytest.mark.parametrize("fmt", ["pdf", "svg", "png"])
def test_cli_diagram_formats(run_cli: RunCli, tmp_path: Path, fmt: str) -> None:
    out = tmp_path / f"tempo.{fmt}"
    result = run_cli("diagram", "copolymer", "tempo", "-o", str(out))
    assert result.code == 0, result.err
    magic = {"pdf": b"%PDF", "svg": b"<?xml", "png": b"\x89PNG"}[fmt]
    assert out.read_bytes().startswith(magic)


def test_diagrams_are_deterministic() -> None:
    a = render_diagram("copolymer", "tempo", "pdf", paper=parse_paper("a4"),
                       theme=THEMES["ink"])
    b = render_diagram("copolymer", "tempo", "pdf", paper=parse_paper("a4"),
                       theme=THEMES["ink"])
    assert a == b


# --- boardgen play copolymer --------------------------------------------------------------


def test_play_json_contract(run_cli: RunCli) -> None:
    result = run_cli("play", "copolymer", "--side", "3", "--moves", "C3 B2 C2 D3 B3", "--json")
    assert result.code == 0, result.err
    data = json.loads(result.out)
    assert list(data) == ["side", "to_move", "cells", "connections", "turn_continues", "over",
                          "winner", "counts"]
    assert data["side"] == 3 and data["to_move"] == "x"
    assert data["cells"] == {"B2": "o", "B3": "o", "C2": "x", "C3": "x", "D3": "o"}
    assert data["connections"] == ["A2"]
    assert data["turn_continues"] is False and data["over"] is False
    assert data["winner"] is None and data["counts"] == {"x": 2, "o": 3}


def test_play_to_the_end_and_text_output(run_cli: RunCli, tmp_path: Path) -> None:
    start = tmp_path / "2a.txt"
    start.write_text("    x . x\n   x . . .\n  o o o . .\n   x . o .\n    . . x\n")
    result = run_cli("play", "copolymer", "--side", "3", "--start", str(start), "--first", "o",
                     "--moves", "B2 A2 C5 D3 E4")
    assert result.code == 0, result.err
    lines = result.out.splitlines()  # coordinates round the board: diagonals above, rows left
    assert lines[0] == "      1 2 3" and lines[1] == "A    x o x 4"
    assert lines[4] == "D   x X o ." and lines[5] == "E    . X x"
    assert lines[6].startswith("O to move")
    full = run_cli("play", "copolymer", "--side", "2", "--moves", "A1 A2 B1 B2 B3 C2 C3",
                   "--json")
    data = json.loads(full.out)
    # Worked by hand on the 7-cell board: X A1, O A2, X B1 end their turns; O B2 touches
    # A1 and B1 (a connection), then B3 touches no X; X C2 touches only B2; O C3 fills it.
    assert data["over"] is True and data["to_move"] is None
    assert data["winner"] == "o" and data["counts"] == {"x": 3, "o": 4}


@pytest.mark.parametrize(("moves", "message"), [
    ("C3 C3", "move 2 (C3): already taken by X"),
    ("C3 Z1", "move 2 (Z1): 'Z1' is not on the board"),
    ("C3 I1", "move 2 (I1): 'I1': 'I' is not a row letter"),
    ("C3 3x", "move 2 (3x): '3x' is not a cell name"),
    ("A1 A2 B1 B2 B3 C2 C3 A1", "move 8 (A1): the game is over"),
])
def test_play_illegal_moves(run_cli: RunCli, moves: str, message: str) -> None:
    side = "2" if "C3 A1" in moves else "3"
    result = run_cli("play", "copolymer", "--side", side, "--moves", moves)
    assert result.code == 2 and len(result.err.strip().splitlines()) == 1
    assert message in result.err, result.err


@pytest.mark.parametrize(("args", "message"), [
    (["--shape", "rhombus", "--side", "4"], "even number"),
    (["--first", "z"], "'z' is not one of"),
    (["--start", "/no/file.txt"], "--start /no/file.txt: no such file"),
])
def test_play_bad_options(run_cli: RunCli, args: list[str], message: str) -> None:
    result = run_cli("play", "copolymer", *args)
    assert result.code == 2 and message in result.err


def test_tempo_lines_continue_by_perfect_play() -> None:
    """The template says each line is played to the end by perfect play: after the first
    turn, every placement keeps the best outcome the engine can find for its player."""
    from boardgen.games.copolymer.solver import best_placement
    from boardgen.games.script import read_directives

    lines: list[list[str]] = []
    for d in read_directives(TEMPLATES / "tempo.txt"):
        if d.key == "line":
            lines.append([])
        elif d.key == "panel" and lines:
            lines[-1].append("|")  # a turn boundary
        elif d.key == "place":
            lines[-1].append(d.value.split()[0])
    assert len(lines) == 2
    memo: dict[tuple[int, int, str], int] = {}
    for moves in lines:
        game = _tempo_start()
        turns = [t.split() for t in " ".join(moves).split("|") if t.split()]
        first, rest = turns[0], [move for turn in turns[1:] for move in turn]
        assert first and rest
        for move in first:
            game.place(game.notation.parse(move))
        for move in rest:
            best = best_placement(game, memo)
            game.place(best)
            best_value = solve(game, memo)
            game.undo()
            game.place(game.notation.parse(move))
            assert solve(game, memo) == best_value, move
        assert game.over


NUMBER_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
                "ten", "eleven", "twelve")


@pytest.mark.parametrize("path", sorted(TEMPLATES.glob("*.txt")), ids=lambda p: p.stem)
def test_a_note_that_counts_cells_is_a_claim_the_engine_checks(path: Path) -> None:
    """A caption's figures are the engine's: a note saying "N cells left" stands in a panel
    that claims ``expect: empty N``, and one saying a player leads in a panel whose
    ``expect: counts`` gives that player more cells (the replay checks both claims)."""
    import re

    panels = re.split(r"^panel:.*$", path.read_text(encoding="utf-8"), flags=re.M)[1:]
    for panel in panels:
        notes = " ".join(re.findall(r"^note: (.*)$", panel, flags=re.M))
        for count in re.findall(r"\b(\w+) cells? left\b", notes):
            number = int(count) if count.isdigit() else NUMBER_WORDS.index(count)
            assert re.search(rf"^expect: empty {number}$", panel, flags=re.M), \
                f"{path.name}: {count!r} cells left, claimed by no 'expect: empty {number}'"
        for leader in re.findall(r"\b(X|O) leads\b", notes):
            counts = re.search(r"^expect: counts x (\d+) o (\d+)$", panel, flags=re.M)
            assert counts is not None, f"{path.name}: {leader} leads, claimed by no counts"
            x, o = int(counts[1]), int(counts[2])
            assert (o > x) if leader == "O" else (x > o), f"{path.name}: {leader} leads"


def test_the_tempo_note_would_fail_with_another_count() -> None:
    """The claim that backs "four cells left" is checked: with five, the replay stops."""
    text = (TEMPLATES / "tempo.txt").read_text(encoding="utf-8")
    assert "expect: empty 4\n" in text
    with pytest.raises(ExampleError, match=r"expects 'empty 5', but 4 cells are empty"):
        load_example(TEMPLATES / "tempo.txt", text=text.replace("expect: empty 4\n",
                                                                "expect: empty 5\n"))
