"""The designer's two claims for O, tested by seeded play-outs: the figures the O sheet
prints in "About the claims".

The sheet never types a count into its prose: it names figures (``{{games}}``) that come
from :func:`sheet_figures`, written to ``templates/o/figures.json`` by
``python bench/o_claims.py --sheet`` and recomputed by a test, so that a change to the
engine (its random draws, its rules) that changes a figure fails that test rather than
leaving the sheet stale.  The play-outs are cheap on purpose (a few hundred games a board);
``bench/o_claims.py`` runs the long version.

The partisan skip is shown by a worked example rather than a statistic: skips are rare in
random play, and one game, replayed through the engine here, shows that they happen.
"""

from __future__ import annotations

import random

from boardgen.games.o.engine import OGame
from boardgen.geometry import hexhex

# What the sheet's figures are computed from (the seeds are in the functions below).
EDGES = range(4, 9)
RANDOM_GAMES = 200  # random impartial games, and as many partisan, on each edge
SQUEEZE_GAMES = 10  # impartial games on each edge steered toward running out of moves
# A partisan game on edge 4 in which Right has no placement after the 21st stone and is
# skipped (found by a search for skips; the engine checks it every time the figures are
# computed).
SKIP_EDGE = 4
SKIP_GAME = "B3 E5 D4 C6 E7 D2 B1 F7 E2 A2 F3 F5 B5 G6 F6 C2 G4 A4 B2 C3 D6 A3"


def random_game(side: int, rng: random.Random, partisan: bool) -> OGame:
    """A game in which each player places on a uniformly random allowed cell."""
    game = OGame(hexhex(side), partisan=partisan)
    while not game.over:
        game.place(game.random_legal(rng))
    return game


def squeeze_game(side: int, rng: random.Random) -> OGame:
    """An impartial game in which each player picks a placement that leaves the opponent
    the fewest placements (a hunt for a position with none)."""
    game = OGame(hexhex(side))
    while not game.over:
        best = []
        fewest: int | None = None
        for cell in game.legal():
            game.place(cell)
            left = -1 if game.over else len(game.legal())
            game.undo()
            if fewest is None or left < fewest:
                fewest, best = left, [cell]
            elif left == fewest:
                best.append(cell)
        game.place(rng.choice(best))
    return game


def skip_example() -> tuple[str, int]:
    """Who is skipped in :data:`SKIP_GAME`, and after how many stones; raises ValueError
    if the engine no longer skips anyone in it (the sheet's example would then be false)."""
    game = OGame(hexhex(SKIP_EDGE), partisan=True)
    for move in SKIP_GAME.split():
        game.place(game.notation.parse(move))
    if len(game.skipped) != 1:
        raise ValueError(f"the partisan game {SKIP_GAME} skips {len(game.skipped)} players, "
                         "not one")
    stones, player = game.skipped[0]
    return player, stones


def _count(number: int) -> str:
    return f"{number:,}"


def sheet_figures() -> dict[str, str]:
    """Every figure the O sheet prints about the claims, as printed (counts with thousands
    separators), by the name the sheet uses."""
    impartial = [random_game(side, random.Random(1000 + side), partisan=False)
                 for side in EDGES for _ in range(RANDOM_GAMES)]
    partisan = [random_game(side, random.Random(2000 + side), partisan=True)
                for side in EDGES for _ in range(RANDOM_GAMES)]
    squeezed = [squeeze_game(side, random.Random(3000 + side))
                for side in EDGES for _ in range(SQUEEZE_GAMES)]
    games = [*impartial, *partisan, *squeezed]
    player, stones = skip_example()
    return {
        "random-games": _count(RANDOM_GAMES),
        "squeeze-games": _count(SQUEEZE_GAMES),
        "edge-from": str(EDGES.start),
        "edge-to": str(EDGES.stop - 1),
        "games": _count(len(games)),
        "loops": _count(sum(1 for g in games if g.winner is not None)),
        "impartial-stuck": _count(sum(1 for g in [*impartial, *squeezed] if g.stuck)),
        "partisan-stuck": _count(sum(1 for g in partisan if g.stuck)),
        "partisan-skips": _count(sum(len(g.skipped) for g in partisan)),
        "skip-edge": str(SKIP_EDGE),
        "skip-game": SKIP_GAME,
        "skip-player": player.capitalize(),
        "skip-after": str(stones),
    }
