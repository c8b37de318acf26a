"""Hex's own tests: its rules against a plain union-find of each player's stones, the swap
rule, its diagram file replayed through the engine, and the game as boardgen's unchanged
command line sees it: the board, the rule sheet, the kit and the diagram all show the
N x N rhombus, measured from the files."""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest
from boardgen.errors import BoardgenError, IllegalMove
from boardgen.games.script import ExampleError
from boardgen.geometry import Hex, hexhex, rhombus
from hypothesis import given, settings
from hypothesis import strategies as st

from boardgen_hex import GAME
from boardgen_hex.engine import HexEngine, HexReason, check_board

TEMPLATES = Path(__file__).resolve().parent.parent / "boardgen_hex" / "templates"


def joined(stones: set[Hex], side: int, player: str) -> bool:
    """The oracle: union-find over the player's stones and two virtual edge nodes, with
    the six neighbours written out (sharing nothing with the engine's search)."""
    parent: dict[object, object] = {}

    def find(x: object) -> object:
        parent.setdefault(x, x)
        while parent[x] != x:
            x = parent[x]
        return x

    for h in stones:
        for dq, dr in ((1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1)):
            if Hex(h.q + dq, h.r + dr) in stones:
                parent[find(h)] = find(Hex(h.q + dq, h.r + dr))
        along = h.r if player == "red" else h.q
        if along == 0:
            parent[find(h)] = find("start")
        if along == side - 1:
            parent[find(h)] = find("end")
    return find("start") == find("end")


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(2, 7))
def test_random_games_end_exactly_when_a_player_joins_their_edges(seed: int,
                                                                   side: int) -> None:
    rng = random.Random(seed)
    game = HexEngine(rhombus(side))
    while not game.over:
        player = game.to_move
        game.place(game.random_legal(rng))
        mine = {h for h, p in game.stones.items() if p == player}
        assert (game.winner == player) == joined(mine, side, player)
        if game.winner:
            assert set(game.chain) <= mine and joined(set(game.chain), side, player)
    # No draws: a game always ends with a winner before the board is full or as it fills.
    assert game.winner in ("red", "blue")


def test_a_taken_cell_and_a_late_swap_are_refused_with_codes() -> None:
    game = HexEngine(rhombus(5), swap_rule=True)
    game.place(game.notation.parse("A1"))
    refusal = game.refusal(game.notation.parse("A1"))
    assert refusal is not None and refusal.code == HexReason.TAKEN
    game.swap()
    assert game.stones == {Hex(0, 0): "blue"} and game.to_move == "red"
    with pytest.raises(IllegalMove) as refused:
        game.swap()
    assert refused.value.code == HexReason.NO_SWAP


def test_the_swap_mirrors_the_stone_across_the_long_diagonal() -> None:
    game = HexEngine(rhombus(5), swap_rule=True)
    game.place(Hex(3, 1))
    game.swap()
    assert game.stones == {Hex(1, 3): "blue"}
    off = HexEngine(rhombus(5))
    off.place(Hex(3, 1))
    with pytest.raises(IllegalMove, match="the swap rule is off"):
        off.swap()


def test_only_a_rhombus_is_a_hex_board() -> None:
    check_board(rhombus(11))
    with pytest.raises(BoardgenError, match="N x N rhombus"):
        check_board(hexhex(6))
    with pytest.raises(BoardgenError, match="N x N rhombus"):
        GAME.hex_board(6, "hexhex")  # boardgen's one road to a game's boards runs it
    assert len(GAME.hex_board()) == 121


def test_the_diagram_file_replays_and_its_claims_hold() -> None:
    diagram = GAME.diagram("winning-chain")
    ((_, panels),) = diagram.rows
    assert len(panels) == 3
    assert all(len(panel.grid) == 25 for panel in panels)
    assert sum(m.kind == "ring" for m in panels[-1].markers) == 5


def test_a_claim_the_engine_does_not_share_names_its_line(tmp_path: Path) -> None:
    text = (TEMPLATES / "winning-chain.txt").read_text().replace("expect: winner red",
                                                                 "expect: winner blue")
    wrong = tmp_path / "wrong.txt"
    wrong.write_text(text)
    line = text.splitlines().index("expect: winner blue") + 1
    with pytest.raises(ExampleError, match=f"^{wrong}:{line}: the example expects "
                       "'winner blue', but the winner is red$"):
        GAME.load_file(wrong, {})


def test_the_edge_roles_are_declared_with_a_paint_for_every_theme() -> None:
    painted = {role.name: role.paint for role in GAME.roles if role.paint is not None}
    assert set(painted) == {"hex-red-edge", "hex-blue-edge"}
    for paint in painted.values():
        assert {"colour", "colourblind", "ink"} <= set(paint.themes)


# --- the unchanged command line ----------------------------------------------------------

def boardgen(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "boardgen", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=600)


def cells_per_svg(text: str) -> list[int]:
    """How many hex cells each <svg> of a file draws."""
    return [len(re.findall(r'class="cell [a-z0-9-]+"', part)) for part in text.split("<svg")[1:]]


def test_the_board_is_the_rhombus(tmp_path: Path) -> None:
    made = boardgen("board", "hex", "-o", "board.svg", cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    assert cells_per_svg((tmp_path / "board.svg").read_text()) == [11 * 11]
    small = boardgen("board", "hex", "--preset", "small", "-o", "small.svg", cwd=tmp_path)
    assert small.returncode == 0, small.stderr
    assert cells_per_svg((tmp_path / "small.svg").read_text()) == [7 * 7]
    refused = boardgen("board", "hex", "--shape", "hexhex", "-o", "no.svg", cwd=tmp_path)
    assert refused.returncode == 2 and not (tmp_path / "no.svg").exists()
    assert "N x N rhombus" in refused.stderr


def test_the_rule_sheet_prints_the_rhombus(tmp_path: Path) -> None:
    made = boardgen("rules", "hex", "-o", "rules.html", cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    counts = cells_per_svg((tmp_path / "rules.html").read_text())
    assert 11 * 11 in counts  # the full-size board
    assert not {61, 91, 127, 271} & set(counts)  # no six-sided board anywhere
    pdf = boardgen("rules", "hex", "-o", "rules.pdf", cwd=tmp_path)
    assert pdf.returncode == 0, pdf.stderr


def test_the_kit_prints_the_rhombus(tmp_path: Path) -> None:
    from pypdf import PdfReader

    made = boardgen("kit", "hex", "-o", "kit.pdf", cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    text = " ".join(page.extract_text() for page in PdfReader(tmp_path / "kit.pdf").pages)
    # Each board page is titled with the board's shape and size, as the game declares it.
    boards = re.findall(r"Hex: board, rhombus (\d+)x(\d+)", text)
    assert sorted({(int(a), int(b)) for a, b in boards}) == [(7, 7), (11, 11)]
    assert "hexhex" not in text


def test_the_diagram_and_the_swap_option_reach_the_command_line(tmp_path: Path) -> None:
    drawn = boardgen("diagram", "hex", "winning-chain", "-o", "d.svg", cwd=tmp_path)
    assert drawn.returncode == 0, drawn.stderr
    panels = [n for n in cells_per_svg((tmp_path / "d.svg").read_text())]
    assert panels and panels[0] >= 3 * 25
    assert "--swap" in boardgen("play", "--help", cwd=tmp_path).stdout
    played = boardgen("play", "hex", "--side", "5", "--swap", "--moves", "B4 swap", "--json",
                      cwd=tmp_path)
    assert played.returncode == 0, played.stderr
    assert json.loads(played.stdout)["stones"] == {"C4": "blue"}
    refused = boardgen("play", "hex", "--side", "5", "--moves", "B4 swap", cwd=tmp_path)
    assert refused.returncode == 2 and "swap rule is off" in refused.stderr


def test_the_api_takes_the_swap_option() -> None:
    import boardgen as api

    position = api.play("hex", "B4 swap", side=5, swap=True)
    assert position.to_json()["stones"] == {"C4": "blue"}
    with pytest.raises(BoardgenError, match="swap applies to Hex, not O"):
        api.play("o", side=4, swap=True)


def test_a_diagram_as_text_and_annotations_come_from_the_script() -> None:
    import boardgen as api

    text = (TEMPLATES / "winning-chain.txt").read_text()
    assert api.parse_diagram(text).title == "A chain from edge to edge wins"
    position = api.play("hex", "C3 B3", side=5)
    svg = api.draw(position, "svg", arrows=[("C3", "C5")], highlights={"new": ["D5"]})
    assert 'data-cell="D5"' in svg
