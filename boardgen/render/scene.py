"""What a picture shows, before anything is measured: the scene, and the theme it is drawn in.

A scene names cells and roles ("empty", "player1", "new" ...), never colours or millimetres;
the theme says how each role looks.  Renderers turn (scene, options, theme) into files.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from boardgen.errors import BoardgenError
from boardgen.geometry import Hex, HexGrid

LABEL_MODES = ("outside", "inside", "none")


@dataclass(frozen=True)
class Marker:
    """A mark drawn on a cell: ``dot`` (a stone or piece), ``ring``, ``cross``, or ``disc``
    (a paper-coloured disc, so that a number on it reads on any fill)."""

    cell: Hex
    kind: str = "dot"
    role: str = "accent"


@dataclass(frozen=True)
class Arrow:
    start: Hex
    end: Hex
    role: str = "accent"


@dataclass(frozen=True)
class Scene:
    """One board picture: the grid, what each cell holds, and the annotations on top."""

    grid: HexGrid
    cell_roles: Mapping[Hex, str] = field(default_factory=dict)
    cell_texts: Mapping[Hex, str] = field(default_factory=dict)
    markers: tuple[Marker, ...] = ()
    arrows: tuple[Arrow, ...] = ()
    labels: str = "outside"
    caption: str | None = None

    def __post_init__(self) -> None:
        if self.labels not in LABEL_MODES:
            raise BoardgenError(
                f"unknown label mode {self.labels!r} (choose from {', '.join(LABEL_MODES)})"
            )


def edge_roles(grid: HexGrid) -> dict[Hex, str]:
    """Roles that mark a board's perimeter and its corners (O's rules refer to both)."""
    roles = {h: "perimeter" for h in grid.perimeter}
    roles.update({h: "corner" for h in grid.corners})
    return roles


def board_scene(grid: HexGrid, labels: str = "outside", *, edges: bool = False) -> Scene:
    """An empty board; ``edges`` marks its perimeter and corners (O's rules refer to them)."""
    return Scene(grid, cell_roles=edge_roles(grid) if edges else {}, labels=labels)


@dataclass(frozen=True)
class Paint:
    """How a cell role is filled: a colour, optionally overprinted with a pattern."""

    fill: str
    pattern: str | None = None  # "hatch" or "dots", drawn in the theme's line colour


@dataclass(frozen=True)
class Theme:
    name: str
    paper: str
    line: str  # grid lines and frames
    line_width_mm: float
    text: str
    muted: str  # coordinates, captions, page furniture
    accent: str  # highlights, arrows, move numbers
    cells: Mapping[str, Paint]

    def colour(self, role: str) -> str:
        """The colour of a role: a cell paint's fill, or one of the theme's own colours."""
        if role in self.cells:
            return self.cells[role].fill
        return {"accent": self.accent, "muted": self.muted, "line": self.line,
                "coordinate": self.muted, "caption": self.muted}.get(role, self.text)

    def paint(self, role: str) -> Paint:
        try:
            return self.cells[role]
        except KeyError:
            raise ValueError(f"theme {self.name!r} has no paint for cell role {role!r}") from None


def _theme(name: str, line: str, text: str, muted: str, accent: str,
           cells: dict[str, Paint]) -> Theme:
    return Theme(name, "#ffffff", line, 0.25, text, muted, accent, cells)


THEMES: dict[str, Theme] = {
    "colour": _theme(
        "colour", "#4a4a4a", "#1a1a1a", "#666666", "#c2410c",
        {
            "empty": Paint("#fbf8f1"),
            "perimeter": Paint("#f3ecdc"),
            "corner": Paint("#e9dcc0"),
            "player1": Paint("#c0392b"),
            "player2": Paint("#2e6db4"),
            "new": Paint("#f6d55c"),
            "legal": Paint("#8fd18f"),
            "illegal": Paint("#e88b8b"),
            "groove": Paint("#cfc6b4"),
            "hole": Paint("#4a4238"),
            "white-piece": Paint("#ffffff"),
            "black-piece": Paint("#2b2b2b"),
            "ghost": Paint("#5cb85c"),
            "crossed": Paint("#a0a0a0"),
        },
    ),
    # Okabe-Ito colours: told apart with every common colour-vision deficiency, and the two
    # players differ in lightness too, so a greyscale copy still works.
    "colourblind": _theme(
        "colourblind", "#404040", "#111111", "#5f5f5f", "#d55e00",
        {
            "empty": Paint("#ffffff"),
            "perimeter": Paint("#f2f2f2"),
            "corner": Paint("#e0e0e0"),
            "player1": Paint("#e69f00"),
            "player2": Paint("#0072b2"),
            "new": Paint("#f0e442"),
            "legal": Paint("#009e73"),
            "illegal": Paint("#cc79a7", "hatch"),
            "groove": Paint("#c8c8c8"),
            "hole": Paint("#333333"),
            "white-piece": Paint("#ffffff"),
            "black-piece": Paint("#222222"),
            "ghost": Paint("#009e73"),
            "crossed": Paint("#999999"),
        },
    ),
    # For black-only printers and photocopies: lines and patterns, no tint carries meaning.
    "ink": _theme(
        "ink", "#000000", "#000000", "#000000", "#000000",
        {
            "empty": Paint("#ffffff"),
            "perimeter": Paint("#ffffff"),
            "corner": Paint("#ffffff", "dots"),
            "player1": Paint("#ffffff", "hatch"),
            "player2": Paint("#000000"),
            "new": Paint("#ffffff", "dots"),
            "legal": Paint("#ffffff", "dots"),
            "illegal": Paint("#ffffff", "hatch"),
            "groove": Paint("#000000"),
            "hole": Paint("#000000"),
            "white-piece": Paint("#ffffff"),
            "black-piece": Paint("#000000"),
            "ghost": Paint("#000000"),
            "crossed": Paint("#000000"),
        },
    ),
}


def theme_named(name: str) -> Theme:
    try:
        return THEMES[name]
    except KeyError:
        raise BoardgenError(
            f"unknown theme {name!r} (choose from {', '.join(THEMES)})"
        ) from None
