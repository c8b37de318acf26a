"""O and Polygone random play-outs: boardgen's engines against the naive ones, same run.

    python bench/bench_engines.py [--games N]

Each engine plays whole random games from the start (O: impartial, on hexhex boards of
edge 4, 6 and 10; Polygone: the start position), creating the game included.  The naive
engines (bench/naive_engines.py) recompute everything from the position on every query,
as the rules read.  Prints the median play-out time of each, play-outs per second and the
ratio (target: >= 10x for both games).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from functools import partial

from naive_engines import NaiveO, NaivePolygone

from boardgen.games.o.engine import OGame
from boardgen.games.polygone.engine import Polygone
from boardgen.geometry import HexGrid, hexhex


def o_playout(grid: HexGrid, rng: random.Random) -> None:
    game = OGame(grid)
    while not game.over:
        game.place(game.random_legal(rng))


def naive_o_playout(grid: HexGrid, rng: random.Random) -> None:
    game = NaiveO(grid)
    while not game.over:
        game.place(rng.choice(game.legal()))


def polygone_playout(rng: random.Random) -> None:
    game = Polygone()
    while not game.over:
        game.play(game.random_move(rng))


def naive_polygone_playout(rng: random.Random) -> None:
    game = NaivePolygone()
    while not game.over:
        game.play(*rng.choice(game.moves()))


def median_seconds(play: Callable[[random.Random], None], games: int) -> float:
    times = []
    for seed in range(games):
        rng = random.Random(seed)
        start = time.perf_counter()
        play(rng)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def report(what: str, fast: float, naive: float) -> None:
    print(f"{what:22} engine {fast * 1000:8.2f} ms ({1 / fast:7.0f}/s)   naive "
          f"{naive * 1000:8.1f} ms ({1 / naive:6.1f}/s)   ratio {naive / fast:5.1f}x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    args = parser.parse_args()
    for side in (4, 6, 10):
        grid = hexhex(side)
        naive_games = max(5, args.games // (10 * side))
        report(f"O, edge {side}", median_seconds(partial(o_playout, grid), args.games),
               median_seconds(partial(naive_o_playout, grid), naive_games))
    report("Polygone", median_seconds(polygone_playout, args.games),
           median_seconds(naive_polygone_playout, max(5, args.games // 10)))


if __name__ == "__main__":
    main()
