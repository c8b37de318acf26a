"""Polygone's pictures, as neutral data (boardgen.picture): its lattice of holes and
grooves as a board of points and lines, its pieces as bars, its targets as dashed and
struck segments, its swings as turns, and every role of its own with the paint it has in
each theme.  The renderer draws them without knowing the game."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING

from boardgen.games.polygone.engine import RECONSTRUCTION, START
from boardgen.games.script import Annotations, labelled
from boardgen.geometry.lattice import (
    BLACK_HOME,
    HOLES,
    LINES,
    MAX_LEVEL,
    ROW_LETTERS,
    ROW_LEVELS,
    WHITE_HOME,
    Hole,
    Line,
    hole_name,
    position,
)
from boardgen.i18n import N_, tr
from boardgen.picture import (
    TINT,
    Diagram,
    FixedBoard,
    Paint,
    Point,
    PointNote,
    PointScene,
    Role,
    RolePaint,
    Segment,
    StripGroup,
    Strips,
    Turn,
    declare_paints,
    legend_of,
)

if TYPE_CHECKING:  # the reader is imported when a file is read, not with the game
    from boardgen.games.polygone.directives import PolygoneExample

# What each role means; a legend lists only the roles its panels use.
ROLES = (Role("white-piece", N_("White"), N_("White pieces on"), "bar"),
         Role("black-piece", N_("Black"), N_("Black pieces on"), "bar"),
         Role("ghost", N_("allowed"), N_("allowed targets"), "dashed"),
         Role("crossed", N_("forbidden"), N_("crossed out"), "struck"),
         Role("captured", N_("captured"), N_("just captured"), "hollow"),
         Role(TINT, N_("highlighted"), N_("highlighted"), "tinted"))
PANEL_SPACING_MM = 14.0  # a diagram's hole spacing

# Words the renderer translates where it draws them (tr), marked for the catalog.
_APEX_NOTES = (PointNote(WHITE_HOME, (N_("White home"), N_("Black\u2019s goal")), -1),
               PointNote(BLACK_HOME, (N_("Black home"), N_("White\u2019s goal")), 1))
# Where each hole stands, in hole spacings, and its name (c0, b3 ...).
PLACES: dict[Point, tuple[float, float]] = {hole: position(hole, 1.0) for hole in HOLES}
NAMES: dict[Point, str] = {hole: hole_name(hole) for hole in HOLES}
SCALE_NOTE = N_("neighbouring holes are {spacing} mm apart")  # tr where drawn


def _by_role(lines: tuple[Line, ...], role: str) -> dict[Segment, str]:
    return dict.fromkeys(lines, role)
# What the faint dashed double lines on the board mean, white's key left, black's right.
_START_KEY = (("white-start", N_("White\u2019s pieces start here")),
              ("black-start", N_("Black\u2019s pieces start here")))  # tr where drawn


def _home_halves() -> tuple[tuple[tuple[tuple[float, float], ...], str], ...]:
    """The two home halves: the lattice's outline cut across at the middle level (its
    corners in hole spacings)."""
    m = MAX_LEVEL // 2
    white = (Hole(0, 0), Hole(-1, 1), Hole(-2, 2), Hole(-2, m), Hole(2, m), Hole(2, 2),
             Hole(1, 1))
    black = (Hole(0, MAX_LEVEL), Hole(1, MAX_LEVEL - 1), Hole(2, MAX_LEVEL - 2), Hole(2, m),
             Hole(-2, m), Hole(-2, MAX_LEVEL - 2), Hole(-1, MAX_LEVEL - 1))
    return tuple((tuple(position(hole, 1.0) for hole in half), role)
                 for half, role in ((white, "white-home"), (black, "black-home")))


def lattice_scene(*, pieces: Mapping[Line, str] | None = None, ghosts: tuple[Line, ...] = (),
                  crossed: tuple[Line, ...] = (), captured: tuple[Line, ...] = (),
                  swings: tuple[Turn, ...] = (),
                  labels: Mapping[Line, str] | None = None, caption: str | None = None,
                  coordinates: bool = True, apexes: bool = True, homes: bool = False,
                  start_marks: Mapping[Line, str] | None = None,
                  hole_marks: tuple[tuple[Hole, str], ...] = (),
                  arrows: tuple[tuple[Hole, Hole], ...] = ()) -> PointScene:
    """A picture of the Polygone board: its 24 holes and 55 grooves, the apexes
    double-ringed (and named, with ``apexes``), ``pieces`` by colour, ``ghosts`` (allowed
    targets) and ``crossed`` ones, swing arrows, labels beside lines, row letters and
    levels (``coordinates``), the home halves tinted (``homes``) and faint marks where
    pieces start (``start_marks``, by colour)."""
    bars: dict[Segment, str] = {ln: f"{colour}-piece" for ln, colour in (pieces or {}).items()}
    rails: dict[Segment, str] = {ln: f"{colour}-start"
                                 for ln, colour in (start_marks or {}).items()}
    said: dict[Segment, str] = {ln: text for ln, text in (labels or {}).items()}
    return PointScene(
        places=PLACES, lines=LINES, point_role="hole", line_role="groove",
        pieces=bars, dashed=_by_role(ghosts, "ghost"), struck=_by_role(crossed, "crossed"),
        hollow=_by_role(captured, "captured"), rails=rails,
        rail_key=_START_KEY if start_marks else (),
        zones=_home_halves() if homes else (),
        turns=swings, labels=said,
        ringed=(WHITE_HOME, BLACK_HOME),
        notes=_APEX_NOTES if apexes else (),
        row_labels=tuple((Hole(c, levels[0]), ROW_LETTERS[c + 2])
                         for c, levels in ROW_LEVELS.items()) if coordinates else (),
        # Under each level: levels are half a spacing apart along the board.
        column_labels=tuple((h / 2, str(h)) for h in range(MAX_LEVEL + 1))
        if coordinates else (),
        point_marks=hole_marks, arrows=arrows, caption=caption, names=NAMES,
        scale_note=SCALE_NOTE)


START_SCENE = lattice_scene(pieces=START, caption=RECONSTRUCTION)
# The board to play on: empty, the start lines marked faintly, home halves tinted.
BOARD_SCENE = lattice_scene(start_marks=START, homes=True, caption=RECONSTRUCTION)
PIECES = Strips(
    (StripGroup("white-piece", N_("white ×12"), 12), StripGroup("black-piece", N_("black ×12"), 12,
                                                            fold="paper")),
    # A no-break space between a number and its unit: a line never parts them.
    N_("Pieces for a board whose holes are {length:.1f}\u00a0mm apart. Cut along the solid "
    "lines (they run past each block as guides), fold each strip along its dashed line, "
    "printed side out, and glue the halves: 12 white and 12 black pieces, "
    "{length:.1f}\u00a0mm long (hole centre to hole centre) and {width:.1f}\u00a0mm wide. Or "
    "use 24 coffee stirrers or matchsticks cut to {length:.1f}\u00a0mm, 12 of them coloured "
    "black."))
BOARD = FixedBoard(BOARD_SCENE, "polygone-board",
                   N_("Polygone board, holes {spacing:.1f} mm apart (the pieces fit it) · "
                      "board and start: our reconstruction"), PIECES)


def annotated_lattice(scene: PointScene, notes: Annotations[Hole, Line]) -> PointScene:
    """A designer's arrows, marks and highlights on a lattice picture: lines highlighted
    'ghost' drawn as allowed targets, 'crossed' as forbidden ones, 'tint' tinted."""
    by_role: dict[str, list[Line]] = {}
    for ln, role in notes.highlights.items():
        by_role.setdefault(role, []).append(ln)
    return replace(scene, dashed={**scene.dashed, **_by_role(tuple(by_role.get("ghost", [])),
                                                             "ghost")},
                   struck={**scene.struck, **_by_role(tuple(by_role.get("crossed", [])),
                                                      "crossed")},
                   tinted=(*scene.tinted, *by_role.get(TINT, [])),
                   designer_marks=(*scene.designer_marks, *notes.marks),
                   arrows=(*scene.arrows, *notes.arrows))


def polygone_diagram(example: PolygoneExample) -> Diagram:
    """A Polygone diagram file's panels: pieces, targets allowed (ghosts) and forbidden
    (crossed), swings, labels, and the designer's annotations."""
    scenes = []
    for panel in example.panels:
        notes = panel.annotations
        caption = notes.caption if notes.caption is not None else \
            labelled(panel.label, " ".join(panel.caption))
        scene = lattice_scene(
            pieces=panel.pieces, ghosts=tuple(panel.ghosts), crossed=tuple(panel.crossed),
            captured=tuple(panel.captured),
            swings=tuple(Turn(s.pivot, s.start, s.end, s.sense) for s in panel.swings),
            labels=dict(panel.labels), caption=caption.strip(), apexes=False,
            # The pivot of a swing shown or played: ringed, so that the picture says which
            # end stays (the apexes have a double ring).
            hole_marks=tuple((pivot, "ring") for pivot in panel.pivots))
        scenes.append(annotated_lattice(scene, notes))
    # Every panel double-circles the two apexes; a circled hole is the pivot of a swing.
    pivots = any(panel.pivots for panel in example.panels)
    note = (tr("Circled: the pivot.") + " " if pivots else "") + \
        tr("Double circles: the apexes.") + " " + tr(RECONSTRUCTION)
    return Diagram(example.title, ((None, tuple(scenes)),), legend_of(ROLES, list(scenes)),
                   note, cell_mm=PANEL_SPACING_MM, roles=ROLES)


# How Polygone's roles look in each theme: its board's grooves and holes, its pieces, its
# targets (allowed: dashed; forbidden: struck through; just captured: a dashed outline),
# its homes and starting rails (the themes paint only the neutral roles).  The registry
# makes them known to every theme; tests/render/test_print_safety.py holds the pieces and
# targets apart in grey on the rendered pixels.
PAINTS = {
    "groove": RolePaint(Paint("#cfc6b4"), {"colour": Paint("#cfc6b4"),
                                           "colourblind": Paint("#c8c8c8"),
                                           "ink": Paint("#000000")}),
    "hole": RolePaint(Paint("#4a4238"), {"colour": Paint("#4a4238"),
                                         "colourblind": Paint("#333333"),
                                         "ink": Paint("#000000")}),
    # 90 (106 colourblind), and dashed: an allowed target.
    "ghost": RolePaint(Paint("#1e7b34"), {"colour": Paint("#1e7b34"),
                                          "colourblind": Paint("#009e73"),
                                          "ink": Paint("#000000")}),
    # 180 (187 colourblind), with a cross: a forbidden one.
    "crossed": RolePaint(Paint("#b4b4b4"), {"colour": Paint("#b4b4b4"),
                                            "colourblind": Paint("#bbbbbb"),
                                            "ink": Paint("#000000")}),
    "captured": RolePaint(Paint("#4a4a4a"), {"colour": Paint("#4a4a4a"),
                                             "colourblind": Paint("#4a4a4a"),
                                             "ink": Paint("#000000")}),
    # A player tells the two sides' pieces apart by grey alone (the same bars), and a white
    # piece from the grooves and holes it lies on.  A black piece is held apart from them by
    # its shape only: the ink theme's bars, grooves and holes are all black.
    "white-piece": RolePaint(Paint("#ffffff"), {"colour": Paint("#ffffff"),
                                                "colourblind": Paint("#ffffff"),
                                                "ink": Paint("#ffffff")},
                             apart_from=("black-piece", "groove", "hole")),
    "black-piece": RolePaint(Paint("#2b2b2b"), {"colour": Paint("#2b2b2b"),  # 43
                                                "colourblind": Paint("#222222"),
                                                "ink": Paint("#000000")}),
    "white-home": RolePaint(Paint("#f7f1e3"), {"colour": Paint("#f7f1e3"),
                                               "colourblind": Paint("#f4f4f4"),
                                               "ink": Paint("#ffffff")}),
    "black-home": RolePaint(Paint("#e3e3e3"), {"colour": Paint("#e3e3e3"),
                                               "colourblind": Paint("#e2e2e2"),
                                               "ink": Paint("#ffffff", "dots")}),
    # Grey 187 over 140 in colour, 180 over 136 colourblind: 44 levels or more, as keyed.
    "white-start": RolePaint(Paint("#c2baa9"), {"colour": Paint("#c2baa9"),
                                                "colourblind": Paint("#b4b4b4"),
                                                "ink": Paint("#000000")}),
    "black-start": RolePaint(Paint("#8c8c8c"), {"colour": Paint("#8c8c8c"),
                                                "colourblind": Paint("#888888"),
                                                "ink": Paint("#000000")}),
}

# Known to every theme as soon as its pictures can be made (the registry declares them too).
declare_paints(PAINTS)
