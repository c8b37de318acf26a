"""Every way a game ends, in each engine, with its winner and its text (issue 20).

Copolymer: the board full (after a turn's last cell, and in mid-turn on a connection).
O: a loop; nobody able to place, impartial and partisan (with a player skipped first).
Polygone: seven captures (even by the opponent, in the mover's turn), a piece on the
opposite apex that survives the turn, and a player who cannot move, who LOSES.

Games are chosen by the naive engines of bench/naive_engines.py (written from the spec
alone) or worked by hand, then replayed through boardgen's public API, its command line or
a diagram file; the winner, the JSON and the words a player reads are compared.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path

import pytest
from captions import HexNames, hole, piece, piece_text
from conftest import Run
from hypothesis import given, settings
from hypothesis import strategies as st
from naive_engines import Board, NaiveCopolymer, NaiveO, NaivePolygone, naive_polygone_moves

import boardgen
from boardgen.games.polygone.engine import Polygone, parse_move, text_position
from boardgen.geometry import hexhex
from boardgen.geometry.lattice import line_name, parse_line

RunCli = Callable[..., Run]
GLYPHS = ("k0", "k1", "k2-adjacent", "k2-gap", "k2-opposite", "k3-row", "k3-left",
          "k3-right", "k3-alternate", "k4-row", "k4-gap", "k4-opposite", "k5")


# --- Copolymer: the board full ---------------------------------------------------------------


def _copolymer_game(side: int, picks: list[int]) -> tuple[list[str], NaiveCopolymer]:
    grid = hexhex(side)
    names = HexNames(list(grid.cells))
    naive = NaiveCopolymer(grid)
    moves = []
    k = 0
    while not naive.over:
        empty = naive.empty_cells()
        cell = empty[picks[k % len(picks)] % len(empty)]
        k += 1
        moves.append(names.name(cell))
        naive.place(cell)
    return moves, naive


@settings(max_examples=40, deadline=None)
@given(side=st.sampled_from([2, 3]),
       picks=st.lists(st.integers(0, 1000), min_size=1, max_size=40))
def test_copolymer_board_full_names_the_majority(side: int, picks: list[int]) -> None:
    moves, naive = _copolymer_game(side, picks)
    position = boardgen.play("copolymer", moves, side=side)
    data = position.to_json()
    xs = sum(1 for p in naive.owner.values() if p == "x")
    os_ = len(naive.owner) - xs
    winner = "x" if xs > os_ else "o"
    assert naive.winner == winner
    assert (data["over"], data["winner"], data["to_move"], data["connections"]) == \
        (True, winner, None, [])
    assert data["counts"] == {"x": xs, "o": os_}
    assert position.text().splitlines()[-1] == \
        f"Board full: {winner.upper()} wins (X {xs}, O {os_})."


def test_copolymer_board_full_in_mid_turn_ends_the_game(run_cli: RunCli) -> None:
    # Side 2 by hand: X A1, O A2, X B1, O B3 end their turns (no two enemy neighbours);
    # X C3 touches B3 only; O C2 touches B1 and C3: a connection, the turn goes on; O B2
    # (touching A1, B1 and C3) is a connection again and fills the board: over in mid-turn.
    result = run_cli("play", "copolymer", "--side", "2", "--moves",
                     "A1 A2 B1 B3 C3 C2 B2", "--json")
    assert result.code == 0, result.err
    data = json.loads(result.out)
    assert (data["over"], data["winner"], data["turn_continues"], data["to_move"]) == \
        (True, "o", False, None)
    assert data["counts"] == {"x": 3, "o": 4}
    text = run_cli("play", "copolymer", "--side", "2", "--moves", "A1 A2 B1 B3 C3 C2 B2")
    assert text.out.splitlines()[-1] == "Board full: O wins (X 3, O 4)."
    more = run_cli("play", "copolymer", "--side", "2", "--moves", "A1 A2 B1 B3 C3 C2 B2 A1")
    assert more.code == 2 and "move 8 (A1): the game is over" in more.err


# --- O: a loop, and nobody able to place ------------------------------------------------------


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_o_loop_wins_for_the_player_who_closes_it(seed: int) -> None:
    grid = hexhex(4)
    names = HexNames(list(grid.cells))
    naive = NaiveO(grid)
    rng = random.Random(seed)
    moves = []
    while not naive.over:
        cell = rng.choice(naive.legal())
        moves.append(names.name(cell))
        naive.place(cell)
    position = boardgen.play("o", moves, side=4)
    data = position.to_json()
    assert naive.winner is not None  # the designer's claim: a game of O ends in a loop
    assert (data["over"], data["winner"], data["to_move"], data["legal"]) == \
        (True, naive.winner, None, [])
    assert sorted(data["loop"]) == sorted(names.name(c) for c in naive.loop)
    assert position.text().splitlines()[-1] == \
        f"{naive.winner.capitalize()} formed a loop of {len(naive.loop)} stones and wins."


def _isolated_game(seed: int, side: int = 4) -> list[str]:
    """Stones that never touch: each on an empty cell with no stone next to it, until no
    such cell is left (random order)."""
    grid = hexhex(side)
    board = Board(list(grid.cells))
    names = HexNames(list(grid.cells))
    stones: set[object] = set()
    rng = random.Random(seed)
    moves = []
    while True:
        free = [c for c in board.cells if c not in stones
                and not any(n in stones for n in board.neighbours(c))]
        if not free:
            return moves
        cell = rng.choice(free)
        stones.add(cell)
        moves.append(names.name(cell))


NOBODY = "Nobody can place a stone and there is no loop: the rules do not cover this."


@pytest.mark.parametrize("partisan", [False, True])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_o_nobody_able_to_place_ends_the_game(partisan: bool, seed: int) -> None:
    # A chart with one legal glyph, k0: a stone may go only where it touches no stone.
    # Loops are then impossible, and once every free cell touches a stone nobody can place:
    # the game must end there, without a winner (partisan as impartial).
    table = dict.fromkeys(GLYPHS, "illegal") | {"k0": "legal"}
    moves = _isolated_game(seed)
    position = boardgen.play("o", moves[:-1], side=4, partisan=partisan, glyphs=table)
    before = position.to_json()
    assert before["over"] is False and moves[-1] in before["legal"]
    position = boardgen.play("o", moves, side=4, partisan=partisan, glyphs=table)
    data = position.to_json()
    assert (data["over"], data["winner"], data["to_move"], data["legal"], data["loop"]) == \
        (True, None, None, [], [])
    assert position.text().splitlines()[-1] == NOBODY
    with pytest.raises(boardgen.BoardgenError, match="the game is over"):
        boardgen.play("o", [*moves, moves[0]], side=4, partisan=partisan, glyphs=table)


def test_partisan_o_skips_a_player_then_ends_when_nobody_can_place(run_cli: RunCli,
                                                                   tmp_path: Path) -> None:
    # Only Left may place, and only where a stone touches no stone: Right is skipped every
    # turn, Left places alone, and when no free cell is left the game ends, no winner.
    chart = tmp_path / "left-alone.txt"
    chart.write_text("".join(f"{g}: {'left' if g == 'k0' else 'illegal'}\n" for g in GLYPHS))
    moves = _isolated_game(7)
    for count, over in ((1, False), (len(moves) - 1, False), (len(moves), True)):
        result = run_cli("play", "o", "--side", "4", "--partisan", "--glyphs", str(chart),
                         "--moves", " ".join(moves[:count]), "--json")
        assert result.code == 0, result.err
        data = json.loads(result.out)
        assert data["over"] is over and data["winner"] is None
        assert data["to_move"] == (None if over else "left")
    text = run_cli("play", "o", "--side", "4", "--partisan", "--glyphs", str(chart),
                   "--moves", " ".join(moves))
    assert text.out.splitlines()[-1] == NOBODY


def test_an_o_diagram_says_when_nobody_can_place(tmp_path: Path) -> None:
    moves = _isolated_game(4)
    table = dict.fromkeys(GLYPHS, "illegal") | {"k0": "legal"}
    path = tmp_path / "stuck.txt"
    path.write_text(f"game: o\nboard: hexhex 4\npanel: Before\nplace: {' '.join(moves[:-1])}\n"
                    f"panel: After\nplace: {moves[-1]}\nexpect: over\n")
    diagram = boardgen.load_diagram(path, glyphs=table)
    (_, (before, after)), = diagram.rows
    assert "Nobody can place" not in (before.caption or "")
    assert (after.caption or "").endswith("Nobody can place a stone.")
    assert "wins" not in (after.caption or "")
    path.write_text(path.read_text() + "expect: winner first\n")
    with pytest.raises(boardgen.BoardgenError, match=r"stuck.txt:8: .*expects 'winner first'"):
        boardgen.load_diagram(path, glyphs=table)


# --- Polygone: seven captures, the apex, a player who cannot move ------------------------------


def _pieces(white: str, black: str) -> dict[frozenset[tuple[int, int]], str]:
    found = {piece(n): "white" for n in white.split()}
    found.update({piece(n): "black" for n in black.split()})
    return found


# (white, black, to move, captured, move, winner, why) - each worked by hand from the spec.
POLYGONE_ENDINGS = {
    # White swings b5 about c6 to b7: the triangle c6-b7-c8 (two black against the new
    # white c6-b7) is Black's seventh capture, in White's own turn.
    "seven captures by the opponent": ("b5-b7 b5-c6 c4-b5 c4-c6", "b7-c8 c6-c8", "white",
                                       (6, 5), "b5-c6>b7", "black", "captured 7 pieces"),
    # Black's triangle c4-d3 against two whites: White's seventh capture.
    "seven captures by the mover": ("c2-c4 b1-c2", "c4-d3 e6-e8", "white", (0, 6),
                                    "b1-c2>d3", "white", "captured 7 pieces"),
    # White reaches c10 and nothing there can take the piece back.
    "the opposite apex": ("d7-d9", "c8-c10", "white", (0, 0), "d7-d9>c10", "white",
                          "reached the opposite apex"),
    "the opposite apex, black": ("b1-b3", "d3-d1 b5-b7", "black", (0, 0), "d3-d1>c0",
                                 "black", "reached the opposite apex"),
    # Black's only piece, c0-d1, can swing nowhere: about d1 every target climbs (Black
    # moves toward c0), about c0 the lateral b1 is taken by White and c2 climbs.  White
    # moves elsewhere; Black cannot move and LOSES.
    "a player who cannot move": ("c0-b1 e6-e8", "c0-d1", "white", (0, 0), "e6-e8>d9",
                                 "white", "black cannot move"),
    "a player who cannot move, white": ("c10-d9", "c10-b9 a2-a4", "black", (0, 0),
                                        "a4-a2>b1", "black", "white cannot move"),
}


@pytest.mark.parametrize("case", sorted(POLYGONE_ENDINGS))
def test_polygone_endings_name_the_winner(case: str) -> None:
    white, black, to_move, (lost_white, lost_black), move, winner, why = \
        POLYGONE_ENDINGS[case]
    captured = {"white": lost_white, "black": lost_black}
    naive = NaivePolygone(_pieces(white, black), to_move, captured)
    moving, pivot, target = (hole(h) for h in move.replace("-", " ").replace(">", " ").split())
    naive.play(moving, pivot, target)
    assert naive.over and naive.winner == winner, "the oracle agrees with the hand"
    pieces = {parse_line(n): "white" for n in white.split()}
    pieces.update({parse_line(n): "black" for n in black.split()})
    game = Polygone(pieces, to_move, captured)
    game.play(parse_move(move))
    assert (game.over, game.winner, game.result) == (True, winner, why)
    assert game.legal_moves() == []
    assert game.captured == naive.captured
    assert {piece_text(p): c for p, c in naive.pieces.items()} == \
        {line_name(ln): c for ln, c in game.pieces.items()}
    assert text_position(game)[-1] == f"{winner.capitalize()} wins: {why}."
    if why.endswith("cannot move"):
        loser = "black" if winner == "white" else "white"
        assert not naive_polygone_moves(naive.pieces, loser)


@pytest.mark.parametrize("case", sorted(POLYGONE_ENDINGS))
def test_polygone_endings_in_a_diagram_file(tmp_path: Path, case: str) -> None:
    white, black, to_move, (lost_white, lost_black), move, winner, _ = POLYGONE_ENDINGS[case]
    loser = "black" if winner == "white" else "white"
    text = (f"game: polygone\nwhite: {white}\nblack: {black}\nto-move: {to_move}\n"
            f"captured: white {lost_white} black {lost_black}\npanel: Before\nmove: {move}\n"
            f"expect: winner {winner}\npanel: After\n")
    path = tmp_path / "ending.txt"
    path.write_text(text)
    boardgen.load_diagram(path)
    path.write_text(text.replace(f"expect: winner {winner}", f"expect: winner {loser}"))
    with pytest.raises(boardgen.BoardgenError, match=rf"ending.txt:8: .*winner {loser}"):
        boardgen.load_diagram(path)
    # Nothing may be played once the game is over.
    path.write_text(text + "move: c10-c8>b9\n")
    with pytest.raises(boardgen.BoardgenError, match=r"ending.txt:10: "):
        boardgen.load_diagram(path)


def test_a_polygone_apex_arrival_that_is_captured_does_not_end_the_game() -> None:
    naive = NaivePolygone(_pieces("d7-d9", "c8-d9 c8-c10"), "white")
    naive.play(hole("d7"), hole("d9"), hole("c10"))
    assert not naive.over
    game = Polygone({parse_line("d7-d9"): "white", parse_line("c8-d9"): "black",
                     parse_line("c8-c10"): "black"})
    game.play(parse_move("d7-d9>c10"))
    assert not game.over and game.winner is None
    assert text_position(game)[-1].startswith("Black to move;")
