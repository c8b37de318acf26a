"""O's figures, generated from the engine's own tables and answers, never drawn by hand.

The rule sheet's figures were lost: the glyph chart (figure 2), corner examples (3), the
left and right glyphs (4a, 4b), a loop (1).  Each builder here asks the engine: which ring
pattern a glyph is, whether a stone may go in the centre and why not, where a seeded game
closes its loop.  The glyph table is our reconstruction and every O sheet says so.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from boardgen.geometry import DIRECTIONS, Hex, hexhex
from boardgen.geometry.rings import RING, patterns_of
from boardgen.render.diagram import Diagram
from boardgen.render.scene import Marker, Scene, edge_roles
from boardgen.rules.o import RULED_GLYPHS, OGame

RECONSTRUCTION = "Our reconstruction of the lost chart; replace it with --glyphs FILE."
LEGEND = (("legal", "a stone may go here"), ("illegal", "it may not"))


def _representative(name: str) -> int:
    """The smallest ring pattern of a glyph (deterministic, and reads naturally)."""
    return min(patterns_of(name))


def _flower(bits: int, centre_role: str, caption: str) -> Scene:
    grid = hexhex(2)
    centre = Hex(0, 0)
    stones = [centre + DIRECTIONS[k] for k in range(RING) if bits >> k & 1]
    return Scene(grid, cell_roles={centre: centre_role},
                 markers=tuple(Marker(h, "dot", "stone") for h in stones),
                 labels="none", caption=caption)


def _ruling_words(ruling: str, partisan: bool) -> tuple[str, str]:
    """(centre role, caption words) for a glyph ruling."""
    if ruling == "illegal":
        return "illegal", "illegal"
    if ruling in ("left", "right") and partisan:
        return "legal", f"only {ruling.capitalize()}"
    return "legal", "legal"


def glyph_chart(table: dict[str, str] | None) -> Diagram:
    game = OGame(hexhex(4), table=table)
    scenes = []
    for name in RULED_GLYPHS:
        role, words = _ruling_words(game.table[name], partisan=False)
        scenes.append(_flower(_representative(name), role, f"{name}: {words}"))
    return Diagram(
        "O: the glyph chart",
        ((f"Every arrangement of 0 to 5 stones around an empty cell is one of these, turned "
          f"or mirrored. {RECONSTRUCTION}", tuple(scenes)),),
        LEGEND, cell_mm=9.0,
    )


def partisan_glyphs(table: dict[str, str] | None) -> Diagram:
    game = OGame(hexhex(4), partisan=True, table=table)
    scenes = []
    for name in ("k3-left", "k3-right"):
        role, words = _ruling_words(game.table[name], partisan=True)
        scenes.append(_flower(_representative(name), role, f"{name}: {words}"))
    return Diagram(
        "Partisan O: the left and right glyphs",
        (("The only glyph whose mirror image differs. Read clockwise from the lone stone, "
          "the left glyph goes stone, gap, stone, stone. " + RECONSTRUCTION, tuple(scenes)),),
        LEGEND, cell_mm=11.0,
    )


def _position(game: OGame, highlight: dict[Hex, str], caption: str,
              numbers: dict[Hex, int] | None = None,
              stone_roles: dict[Hex, str] | None = None) -> Scene:
    roles = edge_roles(game.grid)
    roles.update(highlight)
    numbers = numbers or {}
    stone_roles = stone_roles or {}
    markers = tuple(Marker(h, "disc" if h in numbers else "dot", stone_roles.get(h, "stone"))
                    for h in game.stones())
    return Scene(game.grid, cell_roles=roles, cell_texts={h: str(k) for h, k in
                                                          numbers.items()},
                 markers=markers, caption=caption)


def corner_examples(table: dict[str, str] | None) -> Diagram:
    """The corner rule, asked of the engine: stones already placed, one candidate cell."""
    cases = (("A2", "A1"), ("B2", "A1"), ("A1", "B2"), ("A1", "A2"))
    scenes = []
    for placed, candidate in cases:
        game = OGame(hexhex(4), table=table)
        n = game.notation.parse
        game.place(n(placed))
        cell = n(candidate)
        reason = game.why_illegal(cell, "second")
        role = "legal" if reason is None else "illegal"
        words = "legal" if reason is None else reason
        scenes.append(_position(game, {cell: role}, f"Stone on {placed}; {candidate}: {words}."))
    return Diagram(
        "O: the corner rule",
        (("A corner stone may not touch a stone off the perimeter: the corner and its one "
          "inner neighbour never both hold stones.", tuple(scenes)),),
        LEGEND + (("corner", "corner"), ("perimeter", "perimeter")), cell_mm=7.0,
    )


def _seeded_game(side: int, accept: Callable[[OGame], bool]) -> OGame:
    """The first seeded random game that ``accept`` likes (deterministic)."""
    for seed in range(10_000):
        rng = random.Random(seed)
        game = OGame(hexhex(side))
        while not game.over:
            game.place(game.random_legal(rng))
        if accept(game):
            return game
    raise AssertionError("no seeded game matched")


def finished_game(table: dict[str, str] | None) -> Diagram:
    del table  # the loop figure uses the standard rules
    game = _seeded_game(5, lambda g: g.winner is not None and len(g.loop) >= 8
                        and len(g.enclosed) >= 2)
    last = game.history[-1]
    name = game.notation.name
    highlight = {h: "new" for h in game.enclosed}
    caption = (f"{last.player.capitalize()} placed stone {len(game.history)} on "
               f"{name(last.cell)}, closing a loop of {len(game.loop)} stones around "
               f"{len(game.enclosed)} empty cells cut off from the edge, and wins.")
    scene = _position(game, highlight, caption,
                      stone_roles={h: "loop" for h in game.loop})
    return Diagram("O: a finished game", ((None, (scene,)),),
                   (("new", "cut off from the edge"),),
                   "Coloured (ink: hollow) stones: the loop.", cell_mm=9.0)


def short_game(table: dict[str, str] | None) -> Diagram:
    del table
    game = _seeded_game(4, lambda g: g.winner is not None and len(g.history) <= 16)
    moves = [(s.cell, s.player) for s in game.history]
    name = game.notation.name
    replay = OGame(hexhex(4))
    scenes = []
    per_panel = 4
    for start in range(0, len(moves), per_panel):
        chunk = moves[start:start + per_panel]
        words = []
        numbers = {}
        for k, (cell, player) in enumerate(chunk, start=start + 1):
            ring = replay.ring_glyph(cell)
            assert replay.why_illegal(cell) is None
            replay.place(cell)
            numbers[cell] = k
            words.append(f"{k}. {player} {name(cell)} ({ring})")
        caption = "; ".join(words) + "."
        if replay.over:
            caption += f" {replay.winner.capitalize() if replay.winner else '?'} closes a " \
                       "loop and wins."
        highlight = {h: "new" for h in replay.enclosed}
        scenes.append(_position(replay, highlight, caption, numbers))
    return Diagram(
        "O: a short game, four stones a panel",
        ((None, tuple(scenes)),),
        (("new", "cut off: the loop"),),
        "Numbered: the stones of the panel, with the glyph of the ring each went into.",
        cell_mm=7.0,
    )


O_DIAGRAMS: dict[str, Callable[[dict[str, str] | None], Diagram]] = {
    "glyphs": glyph_chart,
    "partisan-glyphs": partisan_glyphs,
    "corners": corner_examples,
    "loop": finished_game,
    "short-game": short_game,
}


