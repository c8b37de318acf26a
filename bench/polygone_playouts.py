"""Polygone random play-outs: how games end, how long they last, and the engine's speed.

    python bench/polygone_playouts.py [--games N]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections import Counter

from boardgen.games.polygone.engine import Polygone


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    args = parser.parse_args()
    endings: Counter[str] = Counter()
    winners: Counter[str] = Counter()
    lengths = []
    start = time.perf_counter()
    for seed in range(args.games):
        rng = random.Random(seed)
        game = Polygone()
        while not game.over:
            game.play(game.random_move(rng))
        endings[game.result.split()[0] if "cannot" not in game.result else "stuck"] += 1
        winners[game.winner or "none"] += 1
        lengths.append(len(game.history))
    seconds = time.perf_counter() - start
    print(f"{args.games} random games: endings {dict(endings)}, winners {dict(winners)}, "
          f"moves median {statistics.median(lengths):g} max {max(lengths)}, "
          f"{1000 * seconds / args.games:.1f} ms/game")


if __name__ == "__main__":
    main()
