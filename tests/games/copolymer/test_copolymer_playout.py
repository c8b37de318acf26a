"""Copolymer's fast random play-out (``Copolymer.play_out``) is the general road,
``place(random_empty(rng))`` until the board is full, move for move: the same draws, the
same position, turns, counts and history, and undo takes its placements back exactly.

Two references: the general road in the same run (any position, any board, hypothesis),
and games recorded by main's engine before the fast road existed
(tests/games/copolymer/random-games.json, made at 3661a06 by the general road alone: a
digest of each game's placements, its winner, counts and the next draw of its ``rng``)."""

from __future__ import annotations

import hashlib
import json
import random

import pytest
from conftest import TESTS
from hypothesis import given, settings
from hypothesis import strategies as st

import boardgen
from boardgen.games.copolymer.engine import Copolymer
from boardgen.games.copolymer.game import CopolymerPosition
from boardgen.geometry import Hex, HexGrid, hexhex, make_shape, rhombus, triangle

# Cells of one neighbour and of none too (a line, and a lone cell beside a pair).
SCATTERED = HexGrid([Hex(q, 0) for q in range(5)] + [Hex(0, 3), Hex(1, 3), Hex(4, 4), Hex(7, 7)],
                    "scattered cells")
SHAPES: list[HexGrid] = [hexhex(2), hexhex(3), hexhex(5), rhombus(3), rhombus(5),
                         triangle(5), triangle(6), make_shape("hexhex", 6), SCATTERED]
RECORDED_BOARDS = {"hexhex 10": hexhex(10), "hexhex 5": hexhex(5), "rhombus 5": rhombus(5),
                   "triangle 6": triangle(6)}


def general_play_out(game: Copolymer, rng: random.Random) -> str | None:
    while not game.over:
        game.place(game.random_empty(rng))
    return game.winner


def state(game: Copolymer) -> tuple[object, ...]:
    """Everything a caller can read of a game (the counts and calm cells asked on a
    copy, so that asking changes nothing in the game compared)."""
    asked = game.copy()
    return (game.cells(), game.to_move, game.turn_continues, game.turn_start,
            dict(game.counts), game.over, game.winner, list(game.history),
            game.this_turn(), game.empty_cells(), asked.connections("x"),
            asked.connections("o"), asked.forced())


def digest(game: Copolymer) -> str:
    text = " ".join(f"{p.cell.q},{p.cell.r}{p.player}{p.enemy_neighbours}"
                    f"{int(p.turn_continues)}" for p in game.history)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def recorded(policy: str) -> list[list[object]]:
    rows = json.loads((TESTS / "games" / "copolymer" / "random-games.json").read_text())
    found = [row for row in rows if row[3] == policy]
    assert found
    return found


@pytest.mark.parametrize("row", recorded("uniform"), ids=lambda row: f"{row[:3]}")
def test_play_out_plays_the_games_main_recorded(row: list[object]) -> None:
    board, first, seed, _policy, history, winner, x_cells, o_cells, next_draw = row
    assert isinstance(board, str) and isinstance(first, str) and isinstance(seed, int)
    for play in (Copolymer.play_out, general_play_out):
        rng = random.Random(seed)
        game = Copolymer(RECORDED_BOARDS[board], first=first)
        assert play(game, rng) == winner == game.winner
        assert (digest(game), game.counts["x"], game.counts["o"], rng.random()) == \
            (history, x_cells, o_cells, next_draw)


@pytest.mark.parametrize("row", recorded("half-calm")[::4], ids=lambda row: f"{row[:3]}")
def test_the_general_road_plays_the_games_main_recorded(row: list[object]) -> None:
    board, first, seed, _policy, history, winner, x_cells, o_cells, next_draw = row
    assert isinstance(board, str) and isinstance(first, str) and isinstance(seed, int)
    rng = random.Random(seed)
    game = Copolymer(RECORDED_BOARDS[board], first=first)
    while not game.over:
        calm = game.random_non_connection(rng)
        game.place(calm if calm is not None and rng.random() < 0.5 else game.random_empty(rng))
    assert (digest(game), game.winner, game.counts["x"], game.counts["o"], rng.random()) == \
        (history, winner, x_cells, o_cells, next_draw)


@pytest.mark.parametrize("row", recorded("handle")[::2], ids=lambda row: f"{row[:3]}")
def test_the_handle_plays_the_games_main_recorded(row: list[object]) -> None:
    board, _first, seed, _policy, moves, winner, text, next_draw = row
    assert isinstance(board, str) and isinstance(seed, int)
    rng = random.Random(seed)
    handle = boardgen.engine("copolymer", side=int(board.split()[1]))
    while not handle.over:
        handle.push(handle.random_legal(rng))
    assert (hashlib.sha256(" ".join(handle.moves).encode()).hexdigest()[:16], handle.winner,
            hashlib.sha256(str(handle).encode()).hexdigest()[:16], rng.random()) == \
        (moves, winner, text, next_draw)


def game_on_the_way(grid: HexGrid, first: str, seed: int, moves: int, asked_at: int | None,
                    undo_every: int) -> Copolymer:
    """A game some placements in (``moves``, with an undo now and then), its counts
    asked for from move ``asked_at`` on (or never): any position play_out may start from,
    mid-turn included."""
    rng = random.Random(-seed)
    game = Copolymer(grid, first=first)
    for n in range(moves):
        if game.over:
            break
        if n == asked_at:
            game.forced()
        game.place(game.random_empty(rng))
        if undo_every and n % undo_every == undo_every - 1:
            game.undo()
    return game


playing = dict(grid=st.sampled_from(SHAPES), first=st.sampled_from("xo"),
               seed=st.integers(0, 10**6), moves=st.integers(0, 60),
               asked_at=st.none() | st.integers(0, 60), undo_every=st.integers(0, 5))


@settings(max_examples=200, deadline=None)
@given(**playing, back=st.integers(0, 100))
def test_play_out_is_the_general_road_from_any_position(
        grid: HexGrid, first: str, seed: int, moves: int, asked_at: int | None,
        undo_every: int, back: int) -> None:
    fast = game_on_the_way(grid, first, seed, moves, asked_at, undo_every)
    general = fast.copy()
    fast_rng, general_rng = random.Random(seed), random.Random(seed)
    assert fast.play_out(fast_rng) == general_play_out(general, general_rng)
    assert fast_rng.getstate() == general_rng.getstate()
    assert state(fast) == state(general)
    # Taken back one placement at a time: the same positions, and a draw after each undo
    # is the draw before that placement.
    for k in range(min(back, len(general.history))):
        assert fast.undo() == general.undo()
        assert state(fast) == state(general)
        draw = random.Random(k)
        assert fast.random_empty(draw) == general.random_empty(random.Random(k))
    # And played on again, by the general road on one and the fast one on the other.
    assert fast.play_out(fast_rng) == general_play_out(general, general_rng)
    assert state(fast) == state(general)


@settings(max_examples=100, deadline=None)
@given(**playing)
def test_a_play_out_read_late_reads_the_same(
        grid: HexGrid, first: str, seed: int, moves: int, asked_at: int | None,
        undo_every: int) -> None:
    """What play_out has not yet written into the history is written on first use, by
    whatever asks first: a copy, the counts, an undo, the turn; each agrees with the
    general road."""
    start = game_on_the_way(grid, first, seed, moves, asked_at, undo_every)
    general = start.copy()
    general_play_out(general, random.Random(seed))
    asks = [lambda g: g.copy().history, lambda g: g.connections(), lambda g: g.undo(),
            lambda g: g.this_turn(), lambda g: len(g.history), lambda g: g.copy().undo()]
    for ask in asks:
        fast = start.copy()
        fast.play_out(random.Random(seed))
        twin = general.copy()
        assert ask(fast) == ask(twin)
        assert state(fast) == state(twin)


def test_play_out_on_a_full_board_draws_nothing() -> None:
    game = Copolymer(hexhex(3))
    rng = random.Random(5)
    winner = game.play_out(rng)
    after = rng.getstate()
    assert game.play_out(rng) == winner and rng.getstate() == after
    assert len(game.history) == len(game.grid)


def test_play_out_undone_whole_is_a_fresh_game() -> None:
    game = Copolymer(hexhex(4), first="o")
    game.play_out(random.Random(12))
    while game.history:
        game.undo()
    assert state(game) == state(Copolymer(hexhex(4), first="o"))
    # The empty cells are back in their order too: the same seed plays the same game.
    again, fresh = game.copy(), Copolymer(hexhex(4), first="o")
    again.play_out(random.Random(3))
    fresh.play_out(random.Random(3))
    assert again.history == fresh.history


@settings(max_examples=60, deadline=None)
@given(side=st.integers(2, 4), seed=st.integers(0, 10**6), calm_bias=st.floats(0, 1),
       back=st.integers(0, 6))
def test_the_handle_reads_which_placements_were_forced_from_the_position(
        side: int, seed: int, calm_bias: float, back: int) -> None:
    """The handle no longer asks the engine at every move whether the placement is
    forced (that kept the neighbour counts through a whole random play-out): its captions
    read it from the position afterwards.  Against the engine asked before every move,
    at every move of games that end turns on calm cells more or less often (so that
    forced placements come up), and after moves taken back."""
    rng = random.Random(seed)
    handle = boardgen.engine("copolymer", side=side)
    position = handle._position
    assert isinstance(position, CopolymerPosition)
    asked: list[bool] = []
    while not handle.over:
        engine = position.engine
        asked.append(engine.copy().forced())
        calm = engine.copy().random_non_connection(rng)
        cell = calm if calm is not None and rng.random() < calm_bias else \
            engine.copy().random_empty(rng)
        handle.push(engine.notation.name(cell))
        assert position.forced_this_turn() == asked[engine.turn_start:]
    for _ in range(back):
        handle.pop()
        asked.pop()
        assert position.forced_this_turn() == asked[position.engine.turn_start:]
