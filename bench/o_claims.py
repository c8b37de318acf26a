"""Test the designer's two claims for O by play-outs, and report the figures.

    python bench/o_claims.py [--games N] [--squeeze N]
    python bench/o_claims.py --sheet      # rewrite templates/o/figures.json

--sheet writes the figures the O rule sheet prints (boardgen.games.o.claims: a few hundred
seeded games a board, recomputed by tests/games/test_o_claims_figures.py) and stops.

Claims (rule sheet): in impartial O a player always has a placement, and a loop is always
formed.  For edges 4 to 8 this plays N uniformly random impartial games, N random partisan
games, and a few "squeeze" games in which each player picks the placement that leaves the
opponent the fewest options (a hunt for stuck positions).  Any game that ends without a
loop is a counter-example, printed with its moves.  Also the number of positions reachable
with up to --depth stones on edge 4, all of which are checked to have a placement.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from boardgen.games.o.claims import random_game, sheet_figures, squeeze_game
from boardgen.games.o.engine import OGame, reachable_positions
from boardgen.geometry import hexhex
from boardgen.publish.sheet import write_sheet_figures as write_figures_file
from boardgen.resources import templates_root

FIGURES = templates_root() / "o" / "figures.json"
ABOUT = ("The figures the O rule sheet prints about the designer's claims, by name "
         "({{name}} in templates/o/sheet.md). Written by bench/o_claims.py --sheet from "
         "boardgen.games.o.claims.sheet_figures; a test recomputes them.")


def write_sheet_figures() -> None:
    print(f"wrote {write_figures_file(FIGURES.parent, ABOUT, sheet_figures())}")


def report(label: str, games: list[OGame], seconds: float) -> None:
    lengths = [len(g.history) for g in games]
    loops = sum(1 for g in games if g.winner)
    stuck = [g for g in games if g.stuck]
    skips = sum(len(g.skipped) for g in games)
    print(f"{label}: {len(games)} games, loops {loops} ({100 * loops / len(games):.2f} %), "
          f"stuck {len(stuck)}, skips {skips}, stones median {statistics.median(lengths):g} "
          f"max {max(lengths)}, {1000 * seconds / len(games):.2f} ms/game")
    for game in stuck[:3]:
        moves = " ".join(game.notation.name(s.cell) for s in game.history)
        print(f"  COUNTER-EXAMPLE (no loop, nobody can place): {moves}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--squeeze", type=int, default=200)
    parser.add_argument("--depth", type=int, default=4)
    parser.add_argument("--sheet", action="store_true",
                        help="rewrite the O sheet's figures (templates/o/figures.json)")
    args = parser.parse_args()
    if args.sheet:
        write_sheet_figures()
        return
    for side in range(4, 9):
        for partisan in (False, True):
            rng = random.Random(side * 2 + partisan)
            start = time.perf_counter()
            games = [random_game(side, rng, partisan) for _ in range(args.games)]
            report(f"edge {side} {'partisan' if partisan else 'impartial'} random",
                   games, time.perf_counter() - start)
        rng = random.Random(side)
        start = time.perf_counter()
        games = [squeeze_game(side, rng) for _ in range(args.squeeze)]
        report(f"edge {side} impartial squeeze", games, time.perf_counter() - start)
    start = time.perf_counter()
    counts, stuck = reachable_positions(hexhex(4), args.depth)
    for path in stuck:
        print("  COUNTER-EXAMPLE (no placement): " + " ".join(map(str, path)))
    print(f"edge 4, positions reachable with 1..{args.depth} stones: {counts}; "
          f"with no placement: {len(stuck)}; {time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
