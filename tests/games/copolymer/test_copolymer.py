"""The Copolymer engine: the seed's worked example, properties, and random play-outs."""

from __future__ import annotations

import random
import textwrap

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from naive_engines import Board, NaiveCopolymer

from boardgen.errors import BoardgenError
from boardgen.games.copolymer.engine import (
    Copolymer,
    IllegalPlacement,
    parse_text_position,
    text_position,
)
from boardgen.geometry import Hex, HexGrid, hexhex, make_shape, rhombus, triangle

HELP_PAGE_2A = """
    x . x
   x . . .
  o o o . .
   x . o .
    . . x
"""
# (move, player, enemy neighbours, connection) per the help page's figures 2b-3b.
HELP_PAGE_STEPS = [
    ("B2", "o", 2, True), ("A2", "o", 2, True), ("C5", "o", 0, False),
    ("D3", "x", 3, True), ("E4", "x", 1, False),
]
HELP_PAGE_3B = """
    x o x
   x o . .
  o o o . o
   x X o .
    . X x
"""


def help_page_game() -> Copolymer:
    grid = hexhex(3)
    cells, capitals = parse_text_position(grid, HELP_PAGE_2A, "2a")
    assert not capitals
    game = Copolymer(grid, first="o")
    game.set_position(cells, "o")
    return game


def test_help_page_example_classification_by_classification() -> None:
    game = help_page_game()
    for move, player, enemies, connection in HELP_PAGE_STEPS:
        cell = game.notation.parse(move)
        assert game.to_move == player
        assert game.is_connection(cell) == connection
        assert game.enemy_neighbours(cell) == enemies
        result = game.place(cell)
        assert (result.player, result.enemy_neighbours, result.connection) == \
            (player, enemies, connection)
        assert result.turn_continues == connection
    assert text_position(game) == textwrap.dedent(HELP_PAGE_3B).strip("\n").splitlines()
    assert game.to_move == "o"


def test_text_position_round_trip_keeps_capitals() -> None:
    game = help_page_game()
    game.place(game.notation.parse("B2"))
    lines = text_position(game)
    cells, capitals = parse_text_position(game.grid, "\n".join(lines), "t")
    assert cells == game.cells()
    assert capitals == {game.notation.parse("B2")}


def test_position_text_must_match_the_board() -> None:
    with pytest.raises(BoardgenError, match="has 19 cells but the board"):
        parse_text_position(hexhex(4), HELP_PAGE_2A, "2a")


def test_illegal_placements_name_cell_and_reason() -> None:
    game = help_page_game()
    with pytest.raises(IllegalPlacement, match="A1: already taken by X"):
        game.place(game.notation.parse("A1"))
    full = Copolymer(hexhex(2))
    while not full.over:
        full.place(full.empty_cells()[0])
    with pytest.raises(IllegalPlacement, match="the game is over"):
        full.place(full.grid.cells[0])


def test_even_boards_refused() -> None:
    with pytest.raises(BoardgenError, match="even number"):
        Copolymer(rhombus(4))


SHAPES: list[HexGrid] = [hexhex(2), hexhex(3), hexhex(4), rhombus(3), rhombus(5),
                         triangle(5), triangle(6), make_shape("hexhex", 6)]


def enemies_around(board: Board, cells: dict[Hex, str], cell: Hex, player: str) -> int:
    """Counted from the position alone, not from the engine's own tallies."""
    return sum(1 for n in board.neighbours(cell) if cells.get(n) not in (None, player))


def play_out(game: Copolymer, rng: random.Random) -> None:
    """A random game checking the rules' invariants at every placement."""
    board = Board(game.grid.cells)
    filled = 0
    while not game.over:
        mover = game.to_move
        before = dict(game.cells())
        non_connecting = game.random_non_connection(rng)
        # Half the time end the turn when possible; otherwise take any cell.
        cell = non_connecting if (non_connecting and rng.random() < 0.5) \
            else game.random_empty(rng)
        forced = game.forced()
        # A calm draw ends the turn; there is none exactly when every empty cell connects.
        assert (non_connecting is None) == forced
        assert non_connecting is None or (non_connecting not in before and
                                          enemies_around(board, before, non_connecting,
                                                         mover) < 2)
        enemies = enemies_around(board, before, cell, mover)
        result = game.place(cell)
        filled += 1
        # Cells only fill: nothing changes but the new cell.
        after = game.cells()
        assert len(after) == len(before) + 1 and all(after[h] == p for h, p in before.items())
        assert after[cell] == mover
        # A connection is exactly two or more enemy neighbours at placement time.
        assert result.enemy_neighbours == enemies
        assert result.connection == (enemies >= 2)
        if forced:
            assert result.connection
        # Turns pass only after a non-connecting placement (or the game is over).
        if result.over:
            assert game.winner in ("x", "o")
        elif result.connection:
            assert game.to_move == mover and game.turn_continues
        else:
            assert game.to_move != mover and not game.turn_continues
        # Forced means the game goes on and every empty cell touches two enemy cells.
        now = game.cells()
        every_empty_connects = all(enemies_around(board, now, h, game.to_move) >= 2
                                   for h in board.cells if h not in now)
        assert game.forced() == (every_empty_connects and not game.over)
    assert len(game.cells()) == len(game.grid) and not game.empty_cells()  # board is full
    assert filled <= len(game.grid)
    assert sum(game.counts.values()) == len(game.grid)
    assert game.counts["x"] != game.counts["o"]  # odd board: no tie
    assert game.winner == max(game.counts, key=lambda p: game.counts[p])


@pytest.mark.parametrize("grid", SHAPES, ids=lambda g: g.description)
def test_random_play_outs_keep_the_invariants(grid: HexGrid) -> None:
    rng = random.Random(2006)
    for _ in range(150):
        play_out(Copolymer(grid, first=rng.choice("xo")), rng)


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(SHAPES), st.lists(st.integers(0, 10**6), max_size=80),
       st.sampled_from("xo"))
def test_incremental_engine_agrees_with_the_definition(grid: HexGrid, picks: list[int],
                                                       first: str) -> None:
    fast, naive = Copolymer(grid, first), NaiveCopolymer(grid, first)
    for pick in picks:
        if fast.over:
            break
        empties = fast.empty_cells()
        assert empties == naive.empty_cells()
        cell = empties[pick % len(empties)]
        assert fast.connections() == naive.connections()
        assert fast.is_connection(cell) == (cell in naive.connections())
        assert fast.place(cell).connection == naive.place(cell)
        assert (fast.to_move, fast.turn_continues) == (naive.to_move, naive.turn_continues)
    assert fast.winner == naive.winner


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(SHAPES), st.lists(st.integers(0, 10**6), min_size=1, max_size=40),
       st.integers(1, 40))
def test_undo_restores_everything(grid: HexGrid, picks: list[int], back: int) -> None:
    game = Copolymer(grid)
    snapshots = []
    for pick in picks:
        if game.over:
            break
        snapshots.append((game.cells(), game.to_move, game.turn_continues, game.turn_start,
                          game.connections("x"), game.connections("o"), dict(game.counts)))
        empties = game.empty_cells()
        game.place(empties[pick % len(empties)])
    for _ in range(min(back, len(snapshots))):
        game.undo()
        assert snapshots.pop() == (game.cells(), game.to_move, game.turn_continues,
                                   game.turn_start, game.connections("x"),
                                   game.connections("o"), dict(game.counts))
        # The cells a random calm draw picks from are restored too: every empty cell that
        # is not a connection, and nothing else (a fixed seed: the same draws every run).
        calm = set(game.empty_cells()) - set(game.connections())
        rng = random.Random(0)
        draws = {game.random_non_connection(rng) for _ in range(20 * len(calm) + 1)}
        assert draws == (calm or {None})


def test_first_three_turns_are_single_placements() -> None:
    # The rule sheet's remark: no connection is possible before two enemy cells exist.
    rng = random.Random(7)
    for _ in range(200):
        game = Copolymer(hexhex(5))
        for _turn in range(3):
            result = game.place(game.random_empty(rng))
            assert not result.connection


@settings(max_examples=60, deadline=None)
@given(side=st.integers(min_value=2, max_value=5), seed=st.integers(0, 10_000),
       asked_from=st.integers(min_value=0, max_value=80))
def test_an_engine_asked_late_agrees_with_one_asked_from_the_start(
        side: int, seed: int, asked_from: int) -> None:
    """The engine keeps its neighbour counts and calm cells only once a question needs
    them: one asked nothing until move ``asked_from`` (placing, undoing) then everything
    agrees at every later move with one asked from the start, judged against the owners
    themselves (an oracle of its own: two enemy neighbours make a connection)."""
    grid = hexhex(side)
    rng = random.Random(seed)
    early, late = Copolymer(grid), Copolymer(grid)
    early.forced()
    move = 0
    while not early.over:
        cell = rng.choice(early.empty_cells())
        if move >= asked_from:
            mover = late.to_move
            enemy = "o" if mover == "x" else "x"
            expected = sorted((h for h in late.empty_cells()
                               if sum(late.owner(n) == enemy for n in grid.neighbours(h)) >= 2),
                              key=lambda h: (h.r, h.q))
            assert late.connections() == early.connections() == expected
            assert late.forced() == early.forced() == (len(expected) == len(late.empty_cells()))
            assert late.enemy_neighbours(cell) == early.enemy_neighbours(cell)
        assert late.place(cell) == early.place(cell)
        move += 1
        if rng.random() < 0.15:
            assert late.undo() == early.undo()
            move -= 1
    assert late.winner == early.winner and late.counts == early.counts


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(SHAPES), st.lists(st.integers(0, 10**6), min_size=1, max_size=40),
       st.integers(0, 40))
def test_undo_across_the_move_the_counts_were_first_asked_for(
        grid: HexGrid, picks: list[int], asked_at: int) -> None:
    """The engine counts neighbours only once something asks (a play-out by random empty
    cells never does): undoing moves placed before and after that moment restores the
    position a fresh game reaches by the same moves, and each draw after an undo of a
    move placed while counting is the draw before it."""
    game = Copolymer(grid)
    played: list[Hex] = []
    draws_before: list[Hex | None] = []
    for n, pick in enumerate(picks):
        if game.over:
            break
        if n == asked_at:
            game.connections()
        draws_before.append(game.random_non_connection(random.Random(n))
                            if n >= asked_at else None)
        empties = game.empty_cells()
        played.append(empties[pick % len(empties)])
        game.place(played[-1])
    while played:
        played.pop()
        game.undo()
        fresh = Copolymer(grid)
        for cell in played:
            fresh.place(cell)
        assert (game.cells(), game.to_move, game.turn_continues, game.connections("x"),
                game.connections("o"), game.forced()) == \
            (fresh.cells(), fresh.to_move, fresh.turn_continues, fresh.connections("x"),
             fresh.connections("o"), fresh.forced())
        before = draws_before.pop()
        if before is not None:
            assert game.random_non_connection(random.Random(len(played))) == before
