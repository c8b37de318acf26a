"""The theme a picture is drawn in: how each role of the neutral picture model looks.

A picture (boardgen.picture) names cells, points and roles ("empty", "player1", "legal" ...),
never colours or millimetres; the theme says how each role looks (a game's own roles, as
the game declares: boardgen.picture.RolePaint).  Renderers turn
(picture, options, theme) into files.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field

from boardgen.errors import BoardgenError

# The picture model used to live here; these names stay importable from here.
from boardgen.picture import LABEL_MODES as LABEL_MODES
from boardgen.picture import MARK_ROLE_PREFIX, declared_paint, declared_roles
from boardgen.picture import PATTERNS as PATTERNS
from boardgen.picture import Arrow as Arrow
from boardgen.picture import Marker as Marker
from boardgen.picture import Paint as Paint
from boardgen.picture import Scene as Scene
from boardgen.picture import board_scene as board_scene
from boardgen.picture import edge_roles as edge_roles

EDGE_SUFFIX = "-edge"  # ROLE-edge: the outlines of a highlight band of ROLE


class _Cells(Mapping[str, Paint]):
    """A theme's paints by role: its own, then those the games declared for roles of
    their own (:func:`boardgen.picture.declare_paints`), in this theme or their fallback."""

    def __init__(self, own: Mapping[str, Paint], theme: str) -> None:
        self._own = dict(own)
        self._theme = theme

    def __getitem__(self, role: str) -> Paint:
        if role in self._own:
            return self._own[role]
        declared = declared_paint(role)
        if declared is None:
            raise KeyError(role)
        return declared.in_theme(self._theme)

    def __iter__(self) -> Iterator[str]:
        yield from self._own
        yield from (role for role in declared_roles() if role not in self._own)

    def __len__(self) -> int:
        return len(set(self._own) | set(declared_roles()))

    def own(self, role: str) -> bool:
        return role in self._own


class _Rims(Mapping[str, float]):
    """A theme's heavy-rimmed stones by role: its own, then those a game declared for this
    theme (:attr:`boardgen.picture.RolePaint.rims`)."""

    def __init__(self, own: Mapping[str, float], theme: str) -> None:
        self._own = dict(own)
        self._theme = theme

    def _declared(self) -> dict[str, float]:
        found = {}
        for role in declared_roles():
            paint = declared_paint(role)
            if paint is not None and self._theme in paint.rims:
                found[role] = paint.rims[self._theme]
        return found

    def __getitem__(self, role: str) -> float:
        if role in self._own:
            return self._own[role]
        # The one role's declaration, not all of them gathered (asked of every stone drawn).
        paint = declared_paint(role)
        if paint is not None and self._theme in paint.rims:
            return paint.rims[self._theme]
        raise KeyError(role)

    def __iter__(self) -> Iterator[str]:
        return iter({**self._declared(), **self._own})

    def __len__(self) -> int:
        return len({**self._declared(), **self._own})


@dataclass(frozen=True)
class Theme:
    """Colours and patterns for every role.  Roles a player must tell apart differ by at
    least 40 of 255 grey levels once printed in grey (and through the common colour-vision
    deficiencies), or carry different patterns; tests/render/test_print_safety.py checks it on the
    rendered pixels."""

    name: str
    paper: str
    line: str  # grid lines and frames
    line_width_mm: float
    text: str
    muted: str  # coordinates, captions, page furniture
    accent: str  # highlights, arrows, move numbers
    cells: Mapping[str, Paint]
    marks: Mapping[str, str] = field(default_factory=dict)  # stone colours by role
    tab: str = "#d9d9d9"  # the glue tab of a tiled page
    # Stones drawn with a heavy rim, as a share of their radius (the ink theme's loop
    # stones: hollow would be white on a white cell; a heavy rim is not).
    rims: Mapping[str, float] = field(default_factory=dict)
    # A designer's marks (roles "mark-KIND"): an ink no engine role of the theme is
    # painted in, 40 grey levels from the accent and from every role's paint
    # (tests/render/test_designer_marks.py measures it), on a paper halo.
    designer: str = "#000000"

    def __post_init__(self) -> None:
        if not isinstance(self.cells, _Cells):
            object.__setattr__(self, "cells", _Cells(self.cells, self.name))
        if not isinstance(self.rims, _Rims):
            object.__setattr__(self, "rims", _Rims(self.rims, self.name))

    def paints(self, role: str) -> bool:
        """Whether this theme paints ``role`` itself (not through a game's declaration)."""
        assert isinstance(self.cells, _Cells)
        return self.cells.own(role)

    def colour(self, role: str) -> str:
        """The colour of a role: a cell paint's fill, a stone's, or one of the theme's own;
        ``ROLE-edge`` (a highlight band's outlines) the line colour or the paper, whichever
        stands further from the band's fill in grey (a dark band keeps its edge)."""
        if role.endswith(EDGE_SUFFIX) and role.removesuffix(EDGE_SUFFIX) in self.cells:
            fill = self.cells[role.removesuffix(EDGE_SUFFIX)].fill
            return max((self.line, self.paper), key=lambda ink: abs(luma(ink) - luma(fill)))
        if role.startswith(MARK_ROLE_PREFIX):  # a designer's mark: its ink, on a halo
            return self.paper if role == f"{MARK_ROLE_PREFIX}halo" else self.designer
        if role in self.marks:  # the theme's own stone colours come before a game's
            return self.marks[role]
        if role in self.cells:
            return self.cells[role].fill
        return {"accent": self.accent, "muted": self.muted, "line": self.line,
                "paper": self.paper, "coordinate": self.muted,
                "caption": self.muted, "credit": self.muted}.get(role, self.text)

    def ink_on(self, role: str) -> str:
        """The colour of text printed on a stone (or cell) of ``role``: the theme's text
        colour or its paper, whichever stands further from the stone in grey.  A hollow
        (rimmed) stone is paper inside."""
        under = self.paper if role in self.rims else self.colour(role)
        return max((self.text, self.paper), key=lambda ink: abs(luma(ink) - luma(under)))

    def paint(self, role: str) -> Paint:
        try:
            return self.cells[role]
        except KeyError:
            raise ValueError(f"theme {self.name!r} has no paint for cell role {role!r}") from None


def luma(colour: str) -> float:
    """ITU-R 601 luma of #rrggbb, of 255: what a greyscale printer makes of a colour."""
    r, g, b = (int(colour[k:k + 2], 16) for k in (1, 3, 5))
    return 0.299 * r + 0.587 * g + 0.114 * b


# Captions, coordinates and page furniture: 82 % black, as on the rule sheets, so that
# 8 pt text prints solid rather than half-toned.
CAPTION_INK = "#2e2e2e"


def _theme(name: str, line: str, text: str, accent: str, cells: dict[str, Paint],
           designer: str) -> Theme:
    return Theme(name, "#ffffff", line, 0.25, text, CAPTION_INK if text != "#000000"
                 else text, accent, cells, designer=designer)


# Grey levels below are ITU-R 601 luma (what a greyscale printer makes of a colour), of 255.
# O's zones (empty, perimeter, corner) are 40 levels apart or more, as the docs promise.
THEMES: dict[str, Theme] = {
    "colour": _theme(
        "colour", "#4a4a4a", "#1a1a1a", "#c2410c",
        {
            "empty": Paint("#fbf8f1"),  # 248
            "perimeter": Paint("#d9cdb0"),  # 205: 43 below empty
            "corner": Paint("#b3a074"),  # 161: 45 below the perimeter
            "player1": Paint("#ea6a50"),  # 140: X, a light red
            # 59: O, a dark blue, outlined light so that O's neighbouring cells stay apart
            # in grey (the line colour is only 15 levels lighter)
            "player2": Paint("#1d3f7a", outline="#ffffff"),
            "new": Paint("#f6d55c", "dots"),  # cut off: yellow, dotted (near corner's grey)
            "legal": Paint("#2e7d32"),  # 93: 68 below a corner, in every vision
            "illegal": Paint("#f0a0a0", "crosshatch"),  # struck through
            # A designer's tint: a highlight band (over cells) that no engine judges.
            # Light: a band of it stands apart from X (140), O (59) and empty cells (248).
            "tint": Paint("#d9c2ec"),  # 206, lavender: no engine role is this colour
        },
        # A designer's marks: a deep purple (52), a hue no role of any game takes, 45 grey
        # levels below the accent (98), so that a grey print tells them apart too.
        designer="#6b0a7d",
    ),
    # Okabe-Ito colours: told apart with every common colour-vision deficiency, and the two
    # players differ in lightness too, so a greyscale copy still works.
    "colourblind": _theme(
        "colourblind", "#404040", "#111111", "#d55e00",
        {
            "empty": Paint("#ffffff"),  # 255
            "perimeter": Paint("#d2d2d2"),  # 210
            "corner": Paint("#a8a8a8"),  # 168
            "player1": Paint("#e69f00"),  # 162
            "player2": Paint("#0072b2", outline="#ffffff"),  # 87, outlined as in colour
            "new": Paint("#f0e442", "dots"),
            "legal": Paint("#007a5a"),  # 82: Okabe-Ito green, darkened to stand off a corner
            "illegal": Paint("#cc79a7", "crosshatch"),
            "tint": Paint("#a6d8f3"),  # 204, a light sky blue: apart from both players
        },
        # A designer's marks: Paul Tol's wine (70), outside the Okabe-Ito set the roles use,
        # 49 grey levels below the accent (119).
        designer="#882255",
    ),
    # For black-only printers and photocopies: lines and patterns, no tint carries meaning.
    # No two roles one game can show on a page share a paint (tests/render/
    # test_ink_patterns.py checks every pair): dots, horizontal, vertical, both diagonals,
    # crossed diagonals, a grid, solid black.
    "ink": _theme(
        "ink", "#000000", "#000000", "#000000",
        {
            "empty": Paint("#ffffff"),
            "perimeter": Paint("#ffffff", "dots"),
            "corner": Paint("#ffffff", "hlines"),
            "player1": Paint("#ffffff", "hatch"),
            "player2": Paint("#000000", outline="#ffffff"),
            "new": Paint("#ffffff", "backhatch"),  # apart from illegal's crosshatch
            "legal": Paint("#ffffff", "vlines"),
            "illegal": Paint("#ffffff", "crosshatch"),
            "tint": Paint("#ffffff", "grid"),  # apart from O's perimeter dots
        },
        # Black as everything here (the theme promises black and white only): a designer's
        # mark is told from the engine's by its dashes, its halo and its shape (+, a
        # diamond), never by tone.
        designer="#000000",
    ),
}


def theme_named(name: str) -> Theme:
    try:
        return THEMES[name]
    except KeyError:
        raise BoardgenError(
            f"unknown theme {name!r} (choose from {', '.join(THEMES)}, or give a "
            "FILE.toml of your own)"
        ) from None
