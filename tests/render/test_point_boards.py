"""A board of points joined by lines (boardgen.picture.PointScene) is the renderer's own
neutral notion: a mill board (Nine Men's Morris) drawn from it in roles a test declares,
with no word of Polygone's anywhere in the renderer, and the themes painting none of
Polygone's roles (the game declares them)."""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET

import pytest
from conftest import ROOT

from boardgen import picture
from boardgen.picture import (
    Diagram,
    Paint,
    Point,
    PointScene,
    Role,
    RolePaint,
    Segment,
    Turn,
    declare_paints,
)
from boardgen.render.diagram import describe, diagram_pages
from boardgen.render.lattice import lattice_figure, turn_sweep
from boardgen.render.scene import THEMES
from boardgen.render.svg import render_svg

# A mill board: three nested squares of eight points, joined at the middles of the sides.
SQUARES = (0, 1, 2)  # outer to inner
CORNERS_AND_MIDDLES = ((0, 0), (1, 0), (2, 0), (2, 1), (2, 2), (1, 2), (0, 2), (0, 1))


def _place(point: Point) -> tuple[float, float]:
    ring, k = point
    x, y = CORNERS_AND_MIDDLES[k]
    size = 3 - ring  # in spacings, from the square's corner to its middle
    return ring + x * size, ring + y * size


POINTS: tuple[Point, ...] = tuple((ring, k) for ring in SQUARES for k in range(8))
PLACES = {point: _place(point) for point in POINTS}
LINES: tuple[Segment, ...] = (
    *(((ring, k), (ring, (k + 1) % 8)) for ring in SQUARES for k in range(8)),
    *(((0, k), (1, k)) for k in (1, 3, 5, 7)), *(((1, k), (2, k)) for k in (1, 3, 5, 7)))
MILL_PAINTS = {
    "mill-point": RolePaint(Paint("#222222")),
    "mill-line": RolePaint(Paint("#555555"), {"ink": Paint("#000000")}),
    "mill-white": RolePaint(Paint("#ffffff"), {"ink": Paint("#ffffff")}),
    "mill-black": RolePaint(Paint("#1a1a1a"), {"ink": Paint("#000000")}),
    "mill-slide": RolePaint(Paint("#2e7d32"), {"ink": Paint("#000000")}),
}
MILL_ROLES = (Role("mill-white", "White", "White stones on", "stone"),
              Role("mill-black", "Black", "Black stones on", "stone"),
              Role("mill-slide", "a slide", "may slide along", "dashed"))
# Polygone's words and roles, which the renderer and the picture model must not hold.
POLYGONE_WORDS = re.compile(r"polygone|pivot|swing|apex|apexes|groove|\bghost\b|white-piece|"
                            r"black-piece|\"hole\"|\"crossed\"|\"captured\"|HoleScene",
                            re.IGNORECASE)


@pytest.fixture
def mill_paints(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(picture, "_DECLARED", dict(picture._DECLARED))  # undone after
    declare_paints(MILL_PAINTS)


def mill_scene() -> PointScene:
    names = {point: f"{'abc'[point[0]]}{point[1] + 1}" for point in POINTS}
    return PointScene(places=PLACES, lines=LINES, point_role="mill-point",
                      line_role="mill-line",
                      stones={(0, 0): "mill-white", (1, 3): "mill-black", (2, 5): "mill-white"},
                      dashed={((0, 0), (0, 1)): "mill-slide"}, names=names,
                      caption="A mill board, three stones on it.")


@pytest.mark.parametrize("theme", sorted(THEMES))
def test_a_mill_board_is_drawn_from_the_neutral_picture_in_its_own_roles(
        theme: str, mill_paints: None) -> None:
    figure = lattice_figure(mill_scene(), 20.0)
    assert sum(m.role == "mill-point" for m in figure.marks) == 24
    assert sum(s.role == "mill-line" for s in figure.strokes) == len(LINES) == 32
    stones = sorted(m.role for m in figure.marks if m.role.startswith("mill-") and
                    m.role != "mill-point")
    assert stones == ["mill-black", "mill-white", "mill-white"]
    # The outer square's corner and far corner stand 6 spacings apart, as placed.
    dots = [(m.x, m.y) for m in figure.marks if m.role == "mill-point"]
    assert math.isclose(max(x for x, _ in dots) - min(x for x, _ in dots), 6 * 20.0)
    # Nothing of Polygone's in what is drawn, and the declared paints reach the file.
    roles = {m.role for m in figure.marks} | {s.role for s in figure.strokes}
    assert not {"hole", "groove", "ghost", "crossed", "captured"} & roles
    svg = render_svg(figure, theme=THEMES[theme], title="Mill")
    ET.fromstring(svg)
    paint = MILL_PAINTS["mill-line"].in_theme(theme).fill
    assert f'stroke="{paint}"' in svg


def test_a_mill_diagram_keys_and_says_its_stones_by_the_names_it_gives(
        mill_paints: None) -> None:
    diagram = Diagram("Mill", ((None, (mill_scene(),)),), MILL_ROLES, roles=MILL_ROLES)
    (figure,) = diagram_pages(diagram, cell_width=12.0, max_width=180.0, max_height=None)
    assert any(m.role == "mill-white" for m in figure.marks)
    assert describe(diagram) == (
        "Mill. Key: White, Black, a slide. Panel 1: White stones on a1, c6; Black stones "
        "on b4; may slide along a1-a2. A mill board, three stones on it.")


def test_a_turn_on_a_square_board_sweeps_its_own_angle() -> None:
    """A turn is no lattice's 60 degrees: a quarter turn on a square board is 90."""
    places = {(0,): (0.0, 0.0), (1,): (1.0, 0.0), (2,): (0.0, 1.0), (3,): (0.0, -1.0)}
    assert turn_sweep(places, Turn((0,), (1,), (2,), 1)) == (0.0, 90.0)
    assert turn_sweep(places, Turn((0,), (1,), (2,), -1)) == (0.0, -270.0)
    assert turn_sweep(places, Turn((0,), (1,), (3,), -1)) == (0.0, -90.0)
    scene = PointScene(places=places, turns=(Turn((0,), (1,), (2,), 1),))
    figure = lattice_figure(scene, 10.0)
    (arc,) = [s for s in figure.strokes if s.arrow]
    assert len(arc.points) == 10  # a point every 10 degrees, and the last
    # From just past "to the right" of the centre to just short of "below" it (y grows
    # down), 9 degrees short of each piece's place.
    centre = figure.marks[0]  # the points in order: (0,) first
    angles = [math.degrees(math.atan2(y - centre.y, x - centre.x)) for x, y in arc.points]
    assert angles[0] == pytest.approx(9.0) and angles[-1] == pytest.approx(81.0)


def test_the_renderer_and_the_picture_model_hold_no_word_of_polygone() -> None:
    sources = [*sorted((ROOT / "boardgen" / "render").glob("*.py")),
               ROOT / "boardgen" / "picture.py"]
    found = [f"{path.name}:{number}: {line.strip()}" for path in sources
             for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             if POLYGONE_WORDS.search(line)]
    assert found == []


@pytest.mark.parametrize("theme", sorted(THEMES))
def test_the_themes_paint_none_of_polygones_roles(theme: str) -> None:
    """Polygone's lattice roles are its own declaration, not the themes' (which paint only
    the neutral roles); the registry makes them known to every theme all the same."""
    from boardgen.games.polygone.picture import PAINTS

    for role in ("groove", "hole", "ghost", "crossed", "captured", "white-piece"):
        assert not THEMES[theme].paints(role), role
        assert role in PAINTS
