"""Random play-outs: boardgen's engines against lean and naive ones, paired, same run.

    python bench/bench_engines.py [--games N]

Each engine plays whole random games from the start, creating the game included, through
its public calls (boardgen's: ``random_legal``/``random_move`` and ``place``/``play``, cells
as ``Hex``).  For each seed the engines play one after the other, so a busy machine slows
them alike; medians per engine over the same seeds, and their ratio (floor time / boardgen
time: above 1 is boardgen faster).

- O, impartial, hexhex edges 4, 6 and 10: against the lean engine (bench/lean_engines.py:
  flat lists, neighbour tables, a local test before a flood fill; target >= 1.0x) and the
  naive one (bench/naive_engines.py: everything recomputed from the position on every
  query).
- Copolymer on the 271-cell board (bench_copolymer's policy: half the time a random calm
  cell): against the lean engine (target >= 1.2x) and the naive one; and under a uniform
  random policy (a random empty cell every placement) against the lean engine (target
  >= 1.0x), boardgen's through the engine's own play-out, ``Copolymer.play_out(rng)``
  (the same placements as ``place(random_empty(rng))`` until the board is full), and move
  by move: ``while not game.over: game.place(game.random_empty(rng))``, the loop a user
  writes (each move's record and undo kept as it goes).
- Polygone from the start: against the naive engine (target >= 10x).

The naive engines are 100 to 1000 times slower, so they play fewer of the seeds (boardgen's
engine is timed again on those same seeds for their ratio).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from functools import partial
from typing import Any

from lean_engines import lean_copolymer_playout, lean_copolymer_uniform_playout, lean_o_playout
from naive_engines import NaiveCopolymer, NaiveO, NaivePolygone

from boardgen.games.copolymer.engine import Copolymer
from boardgen.games.o.engine import OGame
from boardgen.games.polygone.engine import Polygone
from boardgen.geometry import HexGrid, hexhex

Play = Callable[[random.Random], Any]


def o_playout(grid: HexGrid, rng: random.Random) -> None:
    game = OGame(grid)
    while not game.over:
        game.place(game.random_legal(rng))


def naive_o_playout(grid: HexGrid, rng: random.Random) -> None:
    game = NaiveO(grid)
    while not game.over:
        game.place(rng.choice(game.legal()))


def copolymer_playout(grid: HexGrid, rng: random.Random) -> str | None:
    """Half the time end the turn on a random calm (non-connecting) cell when there is
    one, otherwise a random empty cell."""
    game = Copolymer(grid)
    while not game.over:
        calm = game.random_non_connection(rng)
        game.place(calm if calm is not None and rng.random() < 0.5 else game.random_empty(rng))
    return game.winner


def copolymer_uniform_playout(grid: HexGrid, rng: random.Random) -> str | None:
    """A uniformly random empty cell every placement: the engine's own play-out
    (``play_out``: ``place(random_empty(rng))`` until the board is full, in one loop)."""
    return Copolymer(grid).play_out(rng)


def copolymer_per_move_playout(grid: HexGrid, rng: random.Random) -> str | None:
    """A uniformly random empty cell every placement, move by move."""
    game = Copolymer(grid)
    while not game.over:
        game.place(game.random_empty(rng))
    return game.winner


def naive_copolymer_playout(grid: HexGrid, rng: random.Random) -> str | None:
    game = NaiveCopolymer(grid)
    while not game.over:
        empties = game.empty_cells()
        connections = set(game.connections())
        calm = [c for c in empties if c not in connections]
        game.place(rng.choice(calm) if calm and rng.random() < 0.5 else rng.choice(empties))
    return game.winner


def polygone_playout(rng: random.Random) -> None:
    game = Polygone()
    while not game.over:
        game.play(game.random_move(rng))


def naive_polygone_playout(rng: random.Random) -> None:
    game = NaivePolygone()
    while not game.over:
        game.play(*rng.choice(game.moves()))


# Play-outs of each engine not counted before a comparison with the lean engine: they
# build the per-board tables, and O's table of where to search for a loop, filled as ring
# patterns come up (the first hundred games of edge 4 run some 5 % slower).  Against the
# naive engines, which take up to 0.2 s a game, two.
WARM_UP = 100


def paired(plays: dict[str, Play], seeds: range, warm_up: int = WARM_UP) -> dict[str, float]:
    """Median seconds per play-out of each, the engines taking turns seed by seed (after
    ``warm_up`` rounds not counted)."""
    times: dict[str, list[float]] = {name: [] for name in plays}
    for seed in range(-warm_up, 0):
        for play in plays.values():
            play(random.Random(seed))
    for seed in seeds:
        for name, play in plays.items():
            rng = random.Random(seed)
            start = time.perf_counter()
            play(rng)
            times[name].append(time.perf_counter() - start)
    return {name: statistics.median(t) for name, t in times.items()}


def line(what: str, medians: dict[str, float], floor: str) -> tuple[str, float]:
    """A printed line and the ratio floor / boardgen."""
    ratio = medians[floor] / medians["boardgen"]
    shown = "  ".join(f"{name} {seconds * 1e6:9.0f} us" for name, seconds in medians.items())
    return f"{what:34} {shown}   {ratio:6.2f}x", ratio


def engine_ratios(games: int, only: str | None = None) -> list[tuple[str, str, float]]:
    """(what, printed line, ratio) for every engine comparison (or those whose name starts
    with ``only``), measured now."""
    rows = []

    def add(what: str, plays: dict[str, Play], seeds: range, floor: str) -> None:
        if only and not what.startswith(only):
            return
        text, ratio = line(what, paired(plays, seeds, 2 if floor == "naive" else WARM_UP),
                           floor)
        print(text, flush=True)
        rows.append((what, text, ratio))

    for side in (4, 6, 10):
        grid = hexhex(side)
        add(f"O edge {side}, x lean", {"boardgen": partial(o_playout, grid),
                                       "lean": partial(lean_o_playout, grid)},
            range(1, games + 1), "lean")
        add(f"O edge {side}, x naive", {"boardgen": partial(o_playout, grid),
                                        "naive": partial(naive_o_playout, grid)},
            range(1, max(5, games // (5 * side)) + 1), "naive")
    grid = hexhex(10)
    add("Copolymer 271 cells, x lean", {"boardgen": partial(copolymer_playout, grid),
                                        "lean": partial(lean_copolymer_playout, grid)},
        range(1, max(5, games // 2) + 1), "lean")
    add("Copolymer 271 cells uniform, x lean",
        {"boardgen": partial(copolymer_uniform_playout, grid),
         "lean": partial(lean_copolymer_uniform_playout, grid)},
        range(1, max(5, games // 2) + 1), "lean")
    add("Copolymer 271 cells move by move, x lean",
        {"boardgen": partial(copolymer_per_move_playout, grid),
         "lean": partial(lean_copolymer_uniform_playout, grid)},
        range(1, max(5, games // 2) + 1), "lean")
    add("Copolymer 271 cells, x naive", {"boardgen": partial(copolymer_playout, grid),
                                         "naive": partial(naive_copolymer_playout, grid)},
        range(1, max(3, games // 40) + 1), "naive")
    add("Polygone, x naive", {"boardgen": polygone_playout, "naive": naive_polygone_playout},
        range(1, max(5, games // 4) + 1), "naive")
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--only", help="only the rows whose name starts with this")
    args = parser.parse_args()
    engine_ratios(args.games, args.only)


if __name__ == "__main__":
    main()
