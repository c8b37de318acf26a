"""'expect: solved winner P': the endgame solver on twelve empty cells, any board.

    python bench/bench_solver.py [--positions N] [--with-old]

For sides 3, 10 and 50, N endgames of twelve empty cells (half scattered by random play,
half a compact region among cells of both colours, the hardest), each asked who wins (what
a diagram claim needs) and the exact margin.  Prints the median and worst time and the
positions searched.  --with-old also runs the search boardgen used before issue 19 (plain
minimax, a table keyed on the whole board) on side 3 with eight empty cells, and its ratio
to the new one on the same positions; on twelve cells it took 13-35 s on side 3, 56-74 s
on side 10 and more than 400 s on side 50 (measured through `boardgen diagram`).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from boardgen.games.copolymer.engine import Copolymer
from boardgen.games.copolymer.solver import Endgame
from boardgen.geometry import hexhex


def endgame(side: int, seed: int, empty: int, clustered: bool) -> Copolymer:
    rng = random.Random(seed)
    grid = hexhex(side)
    game = Copolymer(grid)
    if not clustered:
        cells = list(grid.cells)
        rng.shuffle(cells)
        for cell in cells[:-empty]:
            game.place(cell)
        return game
    region = [rng.choice(grid.cells)]
    while len(region) < empty:
        free = [n for n in grid.neighbours(rng.choice(region)) if n not in region]
        if free:
            region.append(rng.choice(free))
    filled = [h for h in grid.cells if h not in region]
    rng.shuffle(filled)
    half = len(filled) // 2 + rng.randint(-2, 2)
    game.set_position({h: "x" if k < half else "o" for k, h in enumerate(filled)},
                      rng.choice("xo"))
    return game


def old_solve(game: Copolymer, memo: dict[tuple[int, int, str], int]) -> int:
    """The search before issue 19: minimax, its table keyed on every cell of the board."""
    if game.over:
        return game.counts["x"] - game.counts["o"]
    xs = os_ = 0
    for i, p in enumerate(game._owner):
        if p == "x":
            xs |= 1 << i
        elif p == "o":
            os_ |= 1 << i
    key = (xs, os_, game.to_move)
    if key in memo:
        return memo[key]
    maximise = game.to_move == "x"
    best = -len(game.grid) - 1 if maximise else len(game.grid) + 1
    for cell in game.empty_cells():
        game.place(cell)
        value = old_solve(game, memo)
        game.undo()
        best = max(best, value) if maximise else min(best, value)
    memo[key] = best
    return best


def timed(task: object) -> float:
    start = time.perf_counter()
    task()  # type: ignore[operator]
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=20)
    parser.add_argument("--with-old", action="store_true")
    args = parser.parse_args()
    for side in (3, 10, 50):
        winner_times, exact_times, nodes = [], [], []
        for seed in range(args.positions):
            game = endgame(side, seed, 12, clustered=seed % 2 == 1)
            search = Endgame(game)
            winner_times.append(timed(search.winner))
            nodes.append(search.nodes)
            exact_times.append(timed(Endgame(game).exact_margin))
        print(f"side {side:2}, 12 empty, {args.positions} positions: who wins median "
              f"{statistics.median(winner_times) * 1000:.1f} ms, worst "
              f"{max(winner_times) * 1000:.1f} ms, at most {max(nodes):,} positions; exact "
              f"margin median {statistics.median(exact_times) * 1000:.1f} ms, worst "
              f"{max(exact_times) * 1000:.1f} ms")
    if args.with_old:
        ratios = []
        for seed in range(min(args.positions, 6)):
            game = endgame(3, seed, 8, clustered=seed % 2 == 1)
            old = timed(lambda game=game: old_solve(game, {}))
            new = timed(Endgame(game).exact_margin)
            ratios.append(old / new)
        print(f"side 3, 8 empty: the old search takes {statistics.median(ratios):.0f}x the "
              "new one's time (median)")


if __name__ == "__main__":
    main()
