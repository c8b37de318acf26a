"""O's pictures, as neutral data (boardgen.picture): stones, the panel's stones numbered,
the loop's stones and the stone that closed it marked, the cells it cut off highlighted; and
the glyph charts, generated from the engine's own table, never drawn by hand.

The rule sheet's figures were lost: the glyph chart (figure 2) and the left and right
glyphs (4a, 4b) are built here by asking the engine which ring pattern each glyph is and
whether a stone may go in its centre.  The glyph table is our reconstruction and every O
sheet says so.  The corner examples (3), a loop (1) and a short game are diagram files,
``templates/o/*.txt``, replayed through the engine.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from boardgen.games.o.engine import RULED_GLYPHS, OGame
from boardgen.games.script import annotated, labelled
from boardgen.geometry import DIRECTIONS, Hex, hexhex
from boardgen.geometry.rings import RING, patterns_of
from boardgen.i18n import N_, tr
from boardgen.picture import (
    TINT,
    Diagram,
    Marker,
    Paint,
    Role,
    RolePaint,
    Scene,
    declare_paints,
    edge_roles,
    legend_of,
)

if TYPE_CHECKING:  # the reader is imported when a file is read, not with the game
    from boardgen.games.o.directives import OExample, OPanel

# What each role means; a legend lists only the roles its panels use.
ROLES = (Role("legal", N_("a stone may go here"), N_("a stone may go")),
         Role("illegal", N_("it may not"), N_("no stone may go")),
         Role("new", N_("cut off from the edge"), N_("cut off from the edge")),
         Role("corner", N_("corner")), Role("perimeter", N_("perimeter")),
         Role(TINT, N_("highlighted"), N_("highlighted")),
         Role("stone", N_("a stone"), swatch="stone"),
         Role("loop", N_("the loop's stones"), N_("the loop's stones"), swatch="stone"))
# Roles of stones rather than cells: keyed only when a loop shows, as the stones a loop's
# stones must be told from (every picture of O has plain stones).
STONE_ROLES = ("stone", "loop")


def o_legend(scenes: list[Scene]) -> tuple[Role, ...]:
    """The roles the panels use; the two kinds of stone only where a loop shows."""
    legend = legend_of(ROLES, list(scenes))
    if any(role.name == "loop" for role in legend):
        return legend
    return tuple(role for role in legend if role.name not in STONE_ROLES)


def o_file_diagram(example: OExample) -> Diagram:
    """An O diagram file's panels: stones, this panel's stones numbered, the loop's stones
    and the stone that closed it marked, the cells it cut off highlighted."""
    rows = tuple((line.title, tuple(_o_scene(example, p) for p in line.panels))
                 for line in example.lines)
    steps = tuple((line.title, tuple(_o_scene(example, p) for p in line.frames))
                  for line in example.lines)
    scenes_used: list[Scene] = [s for _, scenes in rows for s in scenes]
    return Diagram(example.title, rows, o_legend(scenes_used), _o_note(example), cell_mm=7.0,
                   roles=ROLES, steps=steps)


def _o_scene(example: OExample, panel: OPanel) -> Scene:
    roles = edge_roles(example.grid)
    roles.update({h: "new" for h in panel.enclosed})
    roles.update(panel.shown)
    numbers = dict(panel.numbered) if example.numbers else {}
    # A number prints on the stone itself, in the ink that contrasts with it, so that a
    # numbered stone still looks like a stone (or a loop stone).
    markers = [Marker(h, "dot", "loop" if h in panel.loop else "stone")
               for h in sorted(panel.stones)]
    if panel.closing is not None:
        markers.append(Marker(panel.closing, "ring", "accent"))
    scene = Scene(example.grid, cell_roles=roles,
                  cell_texts={h: str(k) for h, k in numbers.items()},
                  markers=tuple(markers), caption=labelled(panel.label, panel.caption))
    return annotated(scene, panel.annotations)


def _o_note(example: OExample) -> str | None:
    numbered = example.numbers and any(p.numbered for line in example.lines
                                        for p in line.panels)
    notes = [tr("Numbered: the stones of the panel.")] if numbered else []
    if any(p.closing for line in example.lines for p in line.panels):
        notes.append(tr("Ringed: the stone that closed the loop."))
    return " ".join(notes) or None


# Players' sheets print this; how to print another chart (--glyphs): the docs' how-to
# "Replaying a game".
RECONSTRUCTION = N_("Our reconstruction of the lost chart.")  # translated where printed
# The glyphs as a player would name them (the engine's names are for files and errors).
GLYPH_WORDS = {  # each heads a caption: capitalised
    "k0": N_("No stone"), "k1": N_("One stone"), "k2-adjacent": N_("Two together"),
    "k2-gap": N_("Two, one gap"), "k2-opposite": N_("Two opposite"),
    "k3-row": N_("Three in a row"), "k3-left": N_("Left-handed three"),
    "k3-right": N_("Right-handed three"), "k3-alternate": N_("Three apart"),
    "k4-row": N_("Four in a row"), "k4-gap": N_("Four, three and one"),
    "k4-opposite": N_("Four, two pairs"), "k5": N_("Five"),
}
LEGEND = (Role("legal", N_("a stone may go here"), N_("a stone may go")),
          Role("illegal", N_("it may not"), N_("no stone may go")))


GIVEN_CHART = N_("The chart given, not the one boardgen reconstructs.")


def _whose(table: dict[str, str] | None) -> str:
    """What a chart says of its rulings: ours (a reconstruction of the lost chart), or
    the table a user gave, which is theirs."""
    return tr(RECONSTRUCTION if table is None else GIVEN_CHART)


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
                 cell_texts={centre: mark} if mark else {},
                 said=_flower_words(bits, centre_role, mark))


def _flower_words(bits: int, centre_role: str, mark: str) -> str:
    """A glyph in words, naming no cell (the picture names none): the empty centre and
    what may go there, and the ring round it read clockwise as the engine reads it."""
    allowed = tr(next(role.said or "" for role in ROLES if role.name == centre_role))
    ring = ", ".join(tr("stone") if bits >> k & 1 else tr("empty") for k in range(RING))
    around = tr("round it, clockwise from the right: {ring}").format(ring=ring) if bits \
        else tr("no stone round it")
    centre = tr("the empty centre cell, marked {mark} ({allowed} there)") if mark else \
        tr("the empty centre cell ({allowed} there)")
    return centre.format(mark=mark, allowed=allowed) + f"; {around}"


def _ruling_words(ruling: str, partisan: bool) -> tuple[str, str]:
    """(centre role, caption words) for a glyph ruling."""
    if ruling == "illegal":
        return "illegal", tr("no")
    if ruling in ("left", "right") and partisan:
        return "legal", tr("only {player}").format(player=tr(ruling.capitalize()))
    return "legal", tr("yes")


def _ruling_letter(ruling: str) -> str:
    """The letter marking a partisan glyph's centre: the first of its player's name in the
    page's language (L or R in English, G or D in French), never an English letter on a
    page in another language."""
    return tr(ruling.capitalize())[0].upper() if ruling in ("left", "right") else ""


def glyph_chart(table: dict[str, str] | None) -> Diagram:
    game = OGame(hexhex(4), table=table)
    scenes = []
    for name in RULED_GLYPHS:
        role, words = _ruling_words(game.table[name], partisan=False)
        scenes.append(_flower(_representative(name), role,
                              f"{tr(GLYPH_WORDS.get(name, name))}: {words}"))
    return Diagram(
        tr("O: the glyph chart"),
        ((tr("Every arrangement of 0 to 5 stones around an empty cell is one of these, "
             "turned or mirrored.") + f" {_whose(table)}", tuple(scenes)),),
        LEGEND, cell_mm=9.0, roles=ROLES,
    )


def partisan_glyphs(table: dict[str, str] | None) -> Diagram:
    game = OGame(hexhex(4), partisan=True, table=table)
    scenes = []
    for name in ("k3-left", "k3-right"):
        role, words = _ruling_words(game.table[name], partisan=True)
        ruling = game.table[name]
        scenes.append(_flower(_representative(name), role,
                              f"{tr(GLYPH_WORDS.get(name, name))}: {words}",
                              _ruling_letter(ruling)))
    return Diagram(
        tr("Partisan O: the left and right glyphs"),
        ((tr("The only glyph whose mirror image differs. Which is Left's is our reading: read "
             "clockwise from the lone stone, we take stone, gap, stone, stone as the left "
             "one.") + " " + _whose(table), tuple(scenes)),),
        # Only the swatches the two centres use (both are usually allowed, to one player
        # each).
        legend_of(LEGEND, [*scenes]), cell_mm=11.0, roles=ROLES,
    )


# O's stones (marks of role "stone") and the stones of a loop ("loop"), in each theme.
# Grey 26 and 101 in colour: a loop stone stands 60 levels from a corner, 75 from a stone;
# 17 and 119 colourblind.  In ink, loop stones are paper-white inside a heavy black rim: a
# number on a black stone prints white, on a loop stone black, so the two never look alike.
PAINTS = {
    # A stone is told from the cell it lies on, whichever zone that is.
    "stone": RolePaint(Paint("#1a1a1a"), {"colour": Paint("#1a1a1a"),
                                          "colourblind": Paint("#111111"),
                                          "ink": Paint("#000000")},
                       apart_from=("empty", "perimeter", "corner")),
    "loop": RolePaint(Paint("#c4450e"), {"colour": Paint("#c4450e"),
                                         "colourblind": Paint("#d55e00"),
                                         "ink": Paint("#ffffff")},
                      apart_from=("stone",), rims={"ink": 0.3}),
}

# Known to every theme as soon as its pictures can be made (the registry declares them too).
declare_paints(PAINTS)
