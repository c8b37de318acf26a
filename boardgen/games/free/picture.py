"""The free board's pictures, as neutral data (boardgen.picture): stones of four colours,
and the designer's annotations."""

from __future__ import annotations

from typing import TYPE_CHECKING

from boardgen.games.free.engine import COLOURS, FreeBoard
from boardgen.games.script import annotated
from boardgen.geometry import Hex, HexGrid
from boardgen.i18n import N_
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
    from boardgen.games.free.directives import FreeExample, FreePanel

# The roles' words below, for the catalog (translated where drawn).
ROLE_WORDS = (N_("black stones on"), N_("white stones on"), N_("red stones on"),
              N_("blue stones on"))
# A stone's role names its colour; every theme paints the four apart, in grey too.
STONE_ROLES = {colour: f"stone-{colour}" for colour in COLOURS}
ROLES = (*(Role(role, colour, f"{colour} stones on", "stone")
           for colour, role in STONE_ROLES.items()),
         Role(TINT, N_("highlighted"), N_("highlighted")))


def stones_scene(grid: HexGrid, stones: dict[Hex, str], caption: str | None = None,
                 numbered: dict[Hex, str] | None = None) -> Scene:
    """Stones by colour; ``numbered`` cells carry a number on a disc instead."""
    texts = dict(numbered or {})
    return Scene(grid, cell_texts=texts,
                 markers=tuple(Marker(h, "disc" if h in texts else "dot",
                                      STONE_ROLES[colour])
                               for h, colour in sorted(stones.items(),
                                                       key=lambda item: grid.index[item[0]])),
                 caption=caption or None)


def board_picture(board: FreeBoard, caption: str | None = None, since: int | None = None
                  ) -> Scene:
    """A replay's position: the stones placed since move ``since`` numbered by move
    (default: the last one)."""
    start = len(board.history) - 1 if since is None else since
    numbered = {p.cell: str(k) for k, p in enumerate(board.history, start=1)
                if k > start and board.stones.get(p.cell) == p.colour}
    return stones_scene(board.grid, board.stones, caption, numbered)


def free_diagram(example: FreeExample) -> Diagram:
    def scene(panel: FreePanel) -> Scene:
        return annotated(stones_scene(example.grid, panel.stones, panel.caption),
                         panel.annotations)

    rows = tuple((line.title, tuple(scene(p) for p in line.panels)) for line in example.lines)
    steps = tuple((line.title, tuple(scene(p) for p in line.frames))
                  for line in example.lines)
    scenes: list[Scene] = [s for _, scenes in rows for s in scenes]
    return Diagram(example.title, rows, legend_of(ROLES, list(scenes)), roles=ROLES,
                   steps=steps)


# The stones of the rules-free diagrams in each theme: grey 26, 255, 167 and 77 in colour;
# 17, 255, 157 and 87 colourblind (orange and blue told apart in every vision); in ink the
# red and blue stones told apart by the direction of their lines.  Each is apart from the
# others (a theme file of one's own is held to it: boardgen.render.theme_file).
PAINTS = {
    "stone-black": RolePaint(Paint("#1a1a1a"), {"colour": Paint("#1a1a1a"),
                                                "colourblind": Paint("#111111"),
                                                "ink": Paint("#000000")}),
    "stone-white": RolePaint(Paint("#ffffff"), {"colour": Paint("#ffffff"),
                                                "colourblind": Paint("#ffffff"),
                                                "ink": Paint("#ffffff")},
                                apart_from=("stone-black",)),
    "stone-red": RolePaint(Paint("#f08a7a"), {"colour": Paint("#f08a7a"),
                                              "colourblind": Paint("#e69f00"),
                                              "ink": Paint("#ffffff", "hatch")},
                              apart_from=("stone-black", "stone-white")),
    "stone-blue": RolePaint(Paint("#2b4f9e"), {"colour": Paint("#2b4f9e"),
                                               "colourblind": Paint("#0072b2"),
                                               "ink": Paint("#ffffff", "hlines")},
                               apart_from=("stone-black", "stone-white", "stone-red")),
}

# Known to every theme as soon as its pictures can be made (the registry declares them too).
declare_paints(PAINTS)
