"""Fives' own tests: its rules against a plain count of rows, its diagram file replayed
through the engine, and the game as boardgen's unchanged command line sees it."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
from boardgen.errors import IllegalMove
from boardgen.games.script import ExampleError
from boardgen.geometry import Hex, hexhex, rhombus
from hypothesis import given, settings
from hypothesis import strategies as st

from boardgen_fives import GAME
from boardgen_fives.engine import Fives, FivesReason, check_board

DIAGRAMS = Path(__file__).resolve().parent.parent / "boardgen_fives" / "diagrams"


def five_in_a_row(stones: set[Hex]) -> bool:
    """The oracle: any five stones in a straight line, by brute force over the six
    directions (sharing nothing with the engine's walk along three axes)."""
    steps = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1)]
    return any(all(Hex(h.q + k * dq, h.r + k * dr) in stones for k in range(5))
               for h in stones for dq, dr in steps)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from([4, 5]))
def test_random_games_end_exactly_when_a_row_of_five_is_made(seed: int, side: int) -> None:
    rng = random.Random(seed)
    game = Fives(hexhex(side))
    while not game.over:
        player = game.to_move
        game.place(game.random_legal(rng))
        mine = {h for h, p in game.stones.items() if p == player}
        assert (game.winner == player) == five_in_a_row(mine)
        if game.winner:
            assert len(game.row) >= 5 and set(game.row) <= mine
    assert game.winner is not None or len(game.stones) == len(game.grid)


def test_a_taken_cell_is_refused_with_a_code() -> None:
    game = Fives(hexhex(4))
    centre = game.notation.parse("D4")
    game.place(centre)
    refusal = game.refusal(centre)
    assert refusal is not None and refusal.code == FivesReason.TAKEN
    with pytest.raises(IllegalMove, match="D4: X is there already"):
        game.place(centre)


def test_a_board_without_a_row_of_five_is_refused() -> None:
    check_board(hexhex(3))  # its middle row has 5 cells
    with pytest.raises(Exception, match="5 cells in a row"):
        check_board(rhombus(4))


def test_the_diagram_file_replays_and_its_claims_hold() -> None:
    diagram = GAME.diagram("row-of-five")
    ((_, panels),) = diagram.rows
    assert len(panels) == 3
    assert panels[-1].caption == "3. X has five in a row and wins."
    assert sum(m.kind == "ring" for m in panels[-1].markers) == 5


def test_a_claim_the_engine_does_not_share_names_its_line(tmp_path: Path) -> None:
    text = (DIAGRAMS / "row-of-five.txt").read_text().replace("expect: winner x",
                                                               "expect: winner o")
    wrong = tmp_path / "wrong.txt"
    wrong.write_text(text)
    line = text.splitlines().index("expect: winner o") + 1
    with pytest.raises(ExampleError, match=f"^{wrong}:{line}: the example expects 'winner o', "
                       "but the winner is x$"):
        GAME.load_file(wrong, None)


def boardgen(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "boardgen", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=300)


def test_the_unchanged_command_line_draws_the_installed_game(tmp_path: Path) -> None:
    help_text = boardgen("board", "--help", cwd=tmp_path).stdout
    assert "Fives 5 (61 cells)" in " ".join(help_text.split())  # however click wraps it
    made = boardgen("board", "fives", "-o", "board.svg", cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    assert (tmp_path / "board.svg").read_text().count('class="cell empty"') == 61
    drawn = boardgen("diagram", str(DIAGRAMS / "row-of-five.txt"), "-o", "d.svg", cwd=tmp_path)
    assert drawn.returncode == 0, drawn.stderr
    played = boardgen("play", "fives", "--moves", "D2 A1 D3 A2 D4 G7 D5 D1 D6", "--side", "4",
                      "--json", cwd=tmp_path)
    assert json.loads(played.stdout)["winner"] == "x", played.stderr
