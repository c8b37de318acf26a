"""Copolymer random play-outs: the incremental engine against the naive one, same run.

    python bench/bench_copolymer.py [--games N]

Both engines play the same policy on the 271-cell board (side 10): half the time end the
turn on a random non-connecting cell when one exists, otherwise take a random empty cell.
The naive engine recounts neighbours for every query, as the rules' definition reads; the
incremental one keeps per-cell counts and the sets of connection cells.  Prints play-outs
per second for each and their ratio (target: >= 10x).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

# The same two play-outs as bench_engines.py's Copolymer rows.
from bench_engines import copolymer_playout as fast_playout
from bench_engines import naive_copolymer_playout as naive_playout

from boardgen.geometry import HexGrid, hexhex


def per_game(play: object, grid: HexGrid, games: int, seed: int) -> float:
    rng = random.Random(seed)
    times = []
    for _ in range(games):
        start = time.perf_counter()
        play(grid, rng)  # type: ignore[operator]
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    args = parser.parse_args()
    grid = hexhex(10)
    fast = per_game(fast_playout, grid, args.games, 1)
    naive = per_game(naive_playout, grid, max(3, args.games // 40), 1)
    print(f"271-cell board, median per play-out: incremental {fast * 1000:.2f} ms "
          f"({1 / fast:.0f} play-outs/s), naive {naive * 1000:.1f} ms "
          f"({1 / naive:.1f} play-outs/s), ratio {naive / fast:.0f}x")


if __name__ == "__main__":
    main()
