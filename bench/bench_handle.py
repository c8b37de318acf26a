"""Random play-outs through the public handle (``boardgen.engine``) against the engine
under it, paired and interleaved (issue 37, goal: the handle at least 0.5x the engine).

    python bench/bench_handle.py [--rounds N] [--games N]

Each round plays the same seeds through both, one right after the other (the order
alternating round by round), so a busy machine slows both alike:

- the handle: ``game = boardgen.engine(GAME, side=S)``, then ``game.push(game.random_legal
  (rng))`` until the game is over: moves named as text, as a program sees them;
- the engine: ``OGame(grid)`` / ``Copolymer(grid)`` on a board made once, then its own
  random draw and ``place`` (cells as ``Hex``), as bench_engines.py times it.

Both draw uniformly among the legal moves (Copolymer: every empty cell is legal).  A
last row times whole play-outs instead: ``game.play_out(rng)`` on the handle against
``Copolymer(grid).play_out(rng)``, the same moves in one call each.  It prints each
side's median moves per second over the rounds and their ratio (handle / engine: 1.0 is
as fast).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

import boardgen
from boardgen.games.copolymer.engine import Copolymer
from boardgen.games.o.engine import OGame
from boardgen.geometry import hexhex

Playout = Callable[[int], int]  # a seed -> the moves played


def handle_playout(game: str, side: int) -> Playout:
    def play(seed: int) -> int:
        handle, rng = boardgen.engine(game, side=side), random.Random(seed)
        while not handle.over:
            handle.push(handle.random_legal(rng))
        return len(handle.moves)
    return play


def o_playout(side: int) -> Playout:
    grid = hexhex(side)

    def play(seed: int) -> int:
        game, rng = OGame(grid), random.Random(seed)
        while not game.over:
            game.place(game.random_legal(rng))
        return len(game.history)
    return play


def copolymer_playout(side: int) -> Playout:
    grid = hexhex(side)

    def play(seed: int) -> int:
        game, rng = Copolymer(grid), random.Random(seed)
        while not game.over:
            game.place(game.random_empty(rng))
        return len(game.history)
    return play


def handle_play_out(game: str, side: int) -> Playout:
    def play(seed: int) -> int:
        handle = boardgen.engine(game, side=side)
        handle.play_out(random.Random(seed))
        return len(handle.moves)
    return play


def copolymer_play_out(side: int) -> Playout:
    grid = hexhex(side)

    def play(seed: int) -> int:
        game = Copolymer(grid)
        game.play_out(random.Random(seed))
        return len(game.history)
    return play


def moves_per_second(play: Playout, seeds: range) -> float:
    start = time.perf_counter()
    moves = sum(play(seed) for seed in seeds)
    return moves / (time.perf_counter() - start)


def compare(what: str, handle: Playout, engine: Playout, rounds: int, games: int) -> float:
    handle(0), engine(0)  # warm up: imports, the boards' tables
    rates: dict[str, list[float]] = {"handle": [], "engine": []}
    for k in range(rounds):
        seeds = range(k * games, (k + 1) * games)
        pair = [("handle", handle), ("engine", engine)]
        for name, play in pair if k % 2 == 0 else pair[::-1]:
            rates[name].append(moves_per_second(play, seeds))
    ratios = [h / e for h, e in zip(rates["handle"], rates["engine"], strict=True)]
    median = statistics.median(ratios)
    print(f"{what:<18} handle {statistics.median(rates['handle']):>10,.0f} moves/s   "
          f"engine {statistics.median(rates['engine']):>10,.0f} moves/s   "
          f"ratio {median:.2f}x (pairs {min(ratios):.2f}-{max(ratios):.2f})")
    return median


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=7, help="paired rounds (default 7)")
    parser.add_argument("--games", type=int, default=200,
                        help="O side-10 play-outs a round (default 200; a tenth of them on "
                        "side 40, a quarter for Copolymer): rounds of a tenth of a second or "
                        "more, longer than a busy machine's hiccups")
    args = parser.parse_args()
    compare("O side 10", handle_playout("o", 10), o_playout(10), args.rounds, args.games)
    compare("O side 40", handle_playout("o", 40), o_playout(40), args.rounds,
            max(1, args.games // 10))
    compare("Copolymer side 10", handle_playout("copolymer", 10), copolymer_playout(10),
            args.rounds, max(1, args.games // 4))
    compare("Copolymer play_out", handle_play_out("copolymer", 10), copolymer_play_out(10),
            args.rounds, max(1, args.games // 2))


if __name__ == "__main__":
    main()
