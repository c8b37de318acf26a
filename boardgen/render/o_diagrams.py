"""O's glyph charts, generated from the engine's own table, never drawn by hand.

The rule sheet's figures were lost: the glyph chart (figure 2) and the left and right
glyphs (4a, 4b) are built here by asking the engine which ring pattern each glyph is and
whether a stone may go in its centre.  The glyph table is our reconstruction and every O
sheet says so.  The corner examples (3), a loop (1) and a short game are diagram files,
``templates/o/*.txt``, replayed through the engine.
"""

from __future__ import annotations

from boardgen.games.o.engine import RULED_GLYPHS, OGame
from boardgen.geometry import DIRECTIONS, Hex, hexhex
from boardgen.geometry.rings import RING, patterns_of
from boardgen.render.diagram import Diagram
from boardgen.render.scene import Marker, Scene

# Players' sheets print this; how to print another chart (--glyphs) is in the README.
RECONSTRUCTION = "Our reconstruction of the lost chart."
# The glyphs as a player would name them (the engine's names are for files and errors).
GLYPH_WORDS = {
    "k0": "no stone", "k1": "one stone", "k2-adjacent": "two together",
    "k2-gap": "two, one gap", "k2-opposite": "two opposite", "k3-row": "three in a row",
    "k3-left": "left-handed three", "k3-right": "right-handed three",
    "k3-alternate": "three apart", "k4-row": "four in a row", "k4-gap": "three and one",
    "k4-opposite": "four, two pairs", "k5": "five",
}
LEGEND = (("legal", "a stone may go here"), ("illegal", "it may not"))


def _representative(name: str) -> int:
    """The smallest ring pattern of a glyph (deterministic, and reads naturally)."""
    return min(patterns_of(name))


def _flower(bits: int, centre_role: str, caption: str, mark: str = "") -> Scene:
    grid = hexhex(2)
    centre = Hex(0, 0)
    stones = [centre + DIRECTIONS[k] for k in range(RING) if bits >> k & 1]
    # A partisan glyph's centre says whose it is (L or R), in print as in colour.
    return Scene(grid, cell_roles={centre: centre_role},
                 markers=(*(Marker(h, "dot", "stone") for h in stones),
                          *((Marker(centre, "disc"),) if mark else ())),
                 labels="none", caption=caption,
                 cell_texts={centre: mark} if mark else {})


def _ruling_words(ruling: str, partisan: bool) -> tuple[str, str]:
    """(centre role, caption words) for a glyph ruling."""
    if ruling == "illegal":
        return "illegal", "no"
    if ruling in ("left", "right") and partisan:
        return "legal", f"only {ruling.capitalize()}"
    return "legal", "yes"


def glyph_chart(table: dict[str, str] | None) -> Diagram:
    game = OGame(hexhex(4), table=table)
    scenes = []
    for name in RULED_GLYPHS:
        role, words = _ruling_words(game.table[name], partisan=False)
        scenes.append(_flower(_representative(name), role,
                              f"{GLYPH_WORDS.get(name, name)}: {words}"))
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
        ruling = game.table[name]
        scenes.append(_flower(_representative(name), role,
                              f"{GLYPH_WORDS.get(name, name)}: {words}",
                              ruling[0].upper() if ruling in ("left", "right") else ""))
    return Diagram(
        "Partisan O: the left and right glyphs",
        (("The only glyph whose mirror image differs. Read clockwise from the lone stone, "
          "the left glyph goes stone, gap, stone, stone. " + RECONSTRUCTION, tuple(scenes)),),
        LEGEND, cell_mm=11.0,
    )
