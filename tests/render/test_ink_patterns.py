"""The ink theme (black lines and patterns only, issue 32): no two roles one game can show
on a page share a paint, checked for every pair of every game's roles, not only the pairs
today's pictures happen to show; and Polygone's two sides' start marks differ in black ink
alone.  On main at f4fc8bd O's "it may not" and "cut off from the edge" were the same
crosshatch, O's perimeter and the designer's tint the same dots, and White's and Black's
start marks the same black dashes."""

from __future__ import annotations

import itertools

import pytest

from boardgen.games.registry import games
from boardgen.render.scene import THEMES

INK = THEMES["ink"]
AREA_SWATCHES = ("cell", "tinted", "band")


def _cell_roles(game: str) -> list[str]:
    """The roles a game names that paint an area (a cell, a band, a tint); stones, bars,
    dashed and struck lines are told apart by their shapes."""
    return [role.name for role in games()[game].roles
            if role.name in INK.cells and role.swatch in AREA_SWATCHES]


@pytest.mark.parametrize("game", sorted(games()))
def test_no_two_roles_of_a_game_share_an_ink_paint(game: str) -> None:
    roles = _cell_roles(game) + (["empty"] if "empty" in INK.cells else [])
    assert roles
    for a, b in itertools.combinations(sorted(set(roles)), 2):
        pa, pb = INK.cells[a], INK.cells[b]
        assert (pa.fill, pa.pattern) != (pb.fill, pb.pattern), \
            f"{game}: {a} and {b} both print as {pa.fill} {pa.pattern}"


def test_polygone_start_marks_differ_in_ink() -> None:
    from boardgen.games.polygone.picture import _START_KEY
    from boardgen.render.lattice import lattice_figure

    description = games()["polygone"]
    assert description.fixed_board is not None
    figure = lattice_figure(description.fixed_board.picture, 38.0)
    dashes = {role: {s.dash for s in figure.strokes if s.role == role}
              for role, _ in _START_KEY}
    white, black = (dashes[role] for role, _ in _START_KEY)
    assert white and black and white.isdisjoint(black), dashes
