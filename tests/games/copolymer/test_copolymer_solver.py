"""The endgame solver (boardgen.games.copolymer.solver) against an oracle: plain minimax over
the naive engine (bench/naive_engines.py, written from the spec alone), on random positions
reached by random play; and the size of its searches on twelve-cell endgames of any board,
counted in positions (not timed: performance is bench/bench_solver.py's)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from naive_engines import NaiveCopolymer

from boardgen.games.copolymer.engine import Copolymer
from boardgen.games.copolymer.solver import Endgame, best_placement, solve
from boardgen.geometry import hexhex, make_shape


def oracle_margin(game: NaiveCopolymer) -> int:
    """X cells minus O cells at the end under perfect play: every continuation tried, on a
    copy of the naive engine, no table, no pruning."""
    if game.over:
        xs = sum(1 for p in game.owner.values() if p == "x")
        return 2 * xs - len(game.board.cells)
    values = []
    for cell in game.empty_cells():
        child: Any = NaiveCopolymer.__new__(NaiveCopolymer)
        child.board, child.owner = game.board, dict(game.owner)
        child.to_move, child.turn_continues = game.to_move, game.turn_continues
        child.place(cell)
        values.append(oracle_margin(child))
    return max(values) if game.to_move == "x" else min(values)


BOARDS = [("hexhex", 2), ("hexhex", 3), ("rhombus", 3), ("triangle", 2)]  # odd cell counts


@settings(max_examples=80, deadline=None)
@given(st.sampled_from(BOARDS), st.integers(1, 7), st.sampled_from(["x", "o"]),
       st.randoms(use_true_random=False))
def test_the_solver_agrees_with_plain_minimax(board: tuple[str, int], empty: int, first: str,
                                              rng: random.Random) -> None:
    grid = make_shape(*board)
    cells = list(grid.cells)
    rng.shuffle(cells)
    empty = min(empty, len(cells))
    game, naive = Copolymer(grid, first=first), NaiveCopolymer(grid, first=first)
    for cell in cells[:len(cells) - empty]:
        game.place(cell)
        naive.place(cell)
    assert game.to_move == naive.to_move
    want = oracle_margin(naive)
    assert Endgame(game).exact_margin() == want
    assert Endgame(game).winner() == ("x" if want > 0 else "o")
    memo: dict[tuple[int, int, str], int] = {}
    assert solve(game, memo) == want
    before = dict(game.cells())
    best = best_placement(game, memo)
    assert game.cells() == before  # the search leaves the game as it found it
    game.place(best)
    naive.place(best)
    assert oracle_margin(naive) == want  # the move it picks keeps the best outcome


def _twelve_empty(side: int, seed: int, clustered: bool) -> Copolymer:
    """Twelve empty cells on a side-``side`` board: scattered by random play, or a compact
    region among cells of both colours (the hardest: every empty cell touches others)."""
    rng = random.Random(seed)
    grid = hexhex(side)
    game = Copolymer(grid)
    if not clustered:
        cells = list(grid.cells)
        rng.shuffle(cells)
        for cell in cells[:-12]:
            game.place(cell)
        return game
    region = [rng.choice(grid.cells)]
    while len(region) < 12:
        free = [n for n in grid.neighbours(rng.choice(region)) if n not in region]
        if free:
            region.append(rng.choice(free))
    filled = [h for h in grid.cells if h not in region]
    rng.shuffle(filled)
    half = len(filled) // 2 + rng.randint(-2, 2)
    game.set_position({h: "x" if k < half else "o" for k, h in enumerate(filled)},
                      rng.choice("xo"))
    return game


@pytest.mark.parametrize("side", [3, 10, 50])
def test_twelve_empty_cells_are_solved_in_few_positions(side: int) -> None:
    """The claim searches at most 30,000 positions on these endgames (the limit,
    MAX_SOLVER_POSITIONS, is 2,000,000); the old search needed minutes on side 50."""
    for seed in range(6):
        for clustered in (False, True):
            search = Endgame(_twelve_empty(side, seed, clustered))
            search.winner()
            assert search.nodes <= 30_000, (side, seed, clustered, search.nodes)
