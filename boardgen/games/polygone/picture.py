"""Polygone's pictures, as neutral data (boardgen.picture): its lattice of holes and
grooves, its pieces as bars, its targets, swings and labels.  The renderer draws them
without knowing the game."""

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
)
from boardgen.i18n import N_, tr
from boardgen.picture import (
    TINT,
    Diagram,
    FixedBoard,
    HoleNote,
    HoleScene,
    Paint,
    Role,
    RolePaint,
    StripGroup,
    Strips,
    Swing,
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
_APEX_NOTES = (HoleNote(WHITE_HOME, (N_("White home"), N_("Black\u2019s goal")), -1),
               HoleNote(BLACK_HOME, (N_("Black home"), N_("White\u2019s goal")), 1))
# What the faint dashed double lines on the board mean, white's key left, black's right.
_START_KEY = (("white-start", N_("White\u2019s pieces start here")),
              ("black-start", N_("Black\u2019s pieces start here")))  # tr where drawn


def _home_halves() -> tuple[tuple[tuple[Hole, ...], str], ...]:
    """The two home halves: the lattice's outline cut across at the middle level."""
    m = MAX_LEVEL // 2
    white = (Hole(0, 0), Hole(-1, 1), Hole(-2, 2), Hole(-2, m), Hole(2, m), Hole(2, 2),
             Hole(1, 1))
    black = (Hole(0, MAX_LEVEL), Hole(1, MAX_LEVEL - 1), Hole(2, MAX_LEVEL - 2), Hole(2, m),
             Hole(-2, m), Hole(-2, MAX_LEVEL - 2), Hole(-1, MAX_LEVEL - 1))
    return ((white, "white-home"), (black, "black-home"))


def lattice_scene(*, pieces: Mapping[Line, str] | None = None, ghosts: tuple[Line, ...] = (),
                  crossed: tuple[Line, ...] = (), captured: tuple[Line, ...] = (),
                  swings: tuple[Swing, ...] = (),
                  labels: Mapping[Line, str] | None = None, caption: str | None = None,
                  coordinates: bool = True, apexes: bool = True, homes: bool = False,
                  start_marks: Mapping[Line, str] | None = None,
                  hole_marks: tuple[tuple[Hole, str], ...] = (),
                  arrows: tuple[tuple[Hole, Hole], ...] = ()) -> HoleScene:
    """A picture of the Polygone board: its 24 holes and 55 grooves, the apexes
    double-ringed (and named, with ``apexes``), ``pieces`` by colour, ``ghosts`` (allowed
    targets) and ``crossed`` ones, swing arrows, labels beside lines, row letters and
    levels (``coordinates``), the home halves tinted (``homes``) and faint marks where
    pieces start (``start_marks``, by colour)."""
    return HoleScene(
        holes=HOLES, grooves=LINES,
        bars={ln: f"{colour}-piece" for ln, colour in (pieces or {}).items()},
        dashed=ghosts, struck=crossed, hollow=captured,
        rails={ln: f"{colour}-start" for ln, colour in (start_marks or {}).items()},
        rail_key=_START_KEY if start_marks else (),
        areas=_home_halves() if homes else (),
        swings=swings, labels=dict(labels or {}),
        double_rings=(WHITE_HOME, BLACK_HOME),
        notes=_APEX_NOTES if apexes else (),
        row_labels=tuple((Hole(c, levels[0]), ROW_LETTERS[c + 2])
                         for c, levels in ROW_LEVELS.items()) if coordinates else (),
        column_labels=tuple((h, str(h)) for h in range(MAX_LEVEL + 1)) if coordinates else (),
        hole_marks=hole_marks, arrows=arrows, caption=caption)


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


def annotated_lattice(scene: HoleScene, notes: Annotations[Hole, Line]) -> HoleScene:
    """A designer's arrows, marks and highlights on a lattice picture: lines highlighted
    'ghost' drawn as allowed targets, 'crossed' as forbidden ones, 'tint' tinted."""
    by_role: dict[str, list[Line]] = {}
    for ln, role in notes.highlights.items():
        by_role.setdefault(role, []).append(ln)
    return replace(scene, dashed=(*scene.dashed, *by_role.get("ghost", [])),
                   struck=(*scene.struck, *by_role.get("crossed", [])),
                   tinted=(*scene.tinted, *by_role.get(TINT, [])),
                   hole_marks=(*scene.hole_marks, *notes.marks),
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
            swings=tuple(Swing(s.pivot, s.start, s.end, s.sense) for s in panel.swings),
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


# How Polygone's pieces and its board's homes and starting rails look in each theme (the
# themes paint only the neutral roles; the lattice's grooves, holes and targets are the
# lattice picture's own).  The registry makes them known to every theme.
PAINTS = {
    "white-piece": RolePaint(Paint("#ffffff"), {"colour": Paint("#ffffff"),
                                                "colourblind": Paint("#ffffff"),
                                                "ink": Paint("#ffffff")}),
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
