"""Copolymer's pictures, as neutral data (boardgen.picture): X and O cells, the cells of
the turn numbered in the order placed, open connections ringed, touched enemy cells
pipped, and the designer's annotations."""

from __future__ import annotations

from typing import TYPE_CHECKING

from boardgen.games.script import annotated, labelled
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
    legend_of,
)

if TYPE_CHECKING:  # the reader is imported when a file is read, not with the game
    from boardgen.games.copolymer.directives import Example, Panel

PLAYER_ROLES = {"x": "player1", "o": "player2"}
# What each role means; a legend lists only the roles its panels use.
ROLES = (Role("player1", "X", "X"), Role("player2", "O", "O"),
         Role("new", N_("placed this turn"), N_("placed this turn")),
         Role("connection", N_("a connection"), N_("connections")),
         Role("legal", N_("allowed"), N_("allowed")),
         Role("illegal", N_("not allowed"), N_("not allowed")),
         Role(TINT, N_("highlighted"), N_("highlighted")))


def copolymer_diagram(example: Example) -> Diagram:
    rows = tuple((line.title, tuple(panel_scene(example, p) for p in line.panels))
                 for line in example.lines)
    panels = [p for line in example.lines for p in line.panels]
    notes = [tr("Numbered: the cells of the turn, in the order placed.")]
    if any(p.open_connections for p in panels):
        notes.append(tr("Ringed: the connections open."))
    if any(p.touched for p in panels):
        notes.append(tr("White pips: the enemy cells the turn touches."))
    scenes: list[Scene] = [s for _, scenes in rows for s in scenes]
    steps = tuple((line.title, tuple(panel_scene(example, p) for p in line.frames))
                  for line in example.lines)
    return Diagram(example.title, rows, legend_of(ROLES, list(scenes)), " ".join(notes),
                   roles=ROLES, steps=steps, source=example.source)


def panel_scene(example: Example, panel: Panel) -> Scene:
    numbers = {cell: str(k) for cell, k in panel.numbered}
    # Open connections ringed, the enemy cells the turn touches dotted: the picture says
    # what the caption says.
    scene = Scene(
        example.grid,
        cell_roles={cell: PLAYER_ROLES[p] for cell, p in panel.cells.items()},
        cell_texts=numbers,
        markers=(*(Marker(cell, "disc") for cell in numbers),
                 *(Marker(cell, "ring", "accent") for cell in panel.open_connections),
                 *(Marker(cell, "pip", "paper") for cell in panel.touched)),
        caption=labelled(panel.label, panel.caption),
    )
    return annotated(scene, panel.annotations)


# How a connection highlight (a band over the cell) looks in each theme: lines across, grey
# 169 in colour.  The registry makes it known to every theme.
PAINTS = {
    "connection": RolePaint(Paint("#f29e4c", "hlines"),
                            {"colour": Paint("#f29e4c", "hlines"),
                             "colourblind": Paint("#e69f00", "hlines"),
                             "ink": Paint("#ffffff", "hlines")}),
}

# Known to every theme as soon as its pictures can be made (the registry declares them too).
declare_paints(PAINTS)
