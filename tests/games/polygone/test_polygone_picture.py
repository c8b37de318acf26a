"""Polygone's lattice as a declared extension of the neutral picture: its holes placed where
the lattice puts them (to the last bit, so every file drawn is as before), its swings as
turns of exact multiples of 60 degrees, and every role its pictures use painted by its own
declaration in every theme."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from hypothesis import given
from hypothesis import strategies as st

from boardgen.games.polygone.game import POLYGONE
from boardgen.games.polygone.picture import BOARD_SCENE, PAINTS, PLACES
from boardgen.geometry.lattice import DIRECTIONS, HOLE_SET, HOLES, Hole, position
from boardgen.picture import PointScene, Turn
from boardgen.render.lattice import lattice_figure, turn_sweep
from boardgen.render.scene import THEMES
from boardgen.render.svg import render_svg


@given(st.floats(min_value=1.0, max_value=120.0, allow_nan=False))
def test_every_hole_stands_exactly_where_the_lattice_puts_it(spacing: float) -> None:
    assert list(PLACES) == list(HOLES)  # drawn in the lattice's order, as before
    for hole in HOLES:
        x, y = PLACES[hole]
        assert (x * spacing, y * spacing) == position(hole, spacing), hole


def test_every_swing_turns_by_whole_sixths_of_a_turn() -> None:
    """Round any hole, from any neighbour to any other, each way: the start a multiple of
    60 degrees and the sweep too, exactly (the arc's points are as the lattice drew them)."""
    for centre in HOLES:
        around = [Hole(centre.c + dc, centre.h + dh) for dc, dh in DIRECTIONS]
        for k, start in enumerate(around):
            for m, end in enumerate(around):
                if start not in HOLE_SET or end not in HOLE_SET or k == m:
                    continue
                for sense in (1, -1):
                    first, sweep = turn_sweep(PLACES, Turn(centre, start, end, sense))
                    assert first == 60.0 * k
                    assert sweep == 60.0 * (((m - k) * sense) % 6) * sense


def _roles(scene: PointScene) -> set[str]:
    return {scene.point_role, scene.line_role, *scene.pieces.values(),
            *scene.dashed.values(), *scene.struck.values(), *scene.hollow.values(),
            *scene.rails.values(), *(role for _, role in scene.zones)}


def test_polygone_declares_every_role_its_pictures_use_in_every_theme() -> None:
    scenes = [BOARD_SCENE, *(panel for name in POLYGONE.diagram_names()
                             for _, row in POLYGONE.diagram(name).rows for panel in row)]
    used = set().union(*(_roles(s) for s in scenes if isinstance(s, PointScene)))
    assert {"hole", "groove", "ghost", "crossed", "captured", "white-piece"} <= used
    declared = POLYGONE.declared_paints()
    for role in used:
        assert role in declared and role in PAINTS, role
        assert set(THEMES) <= set(declared[role].themes), role


def test_the_board_is_painted_as_polygone_declares_in_each_theme() -> None:
    figure = lattice_figure(BOARD_SCENE, 30.0)
    for name, theme in THEMES.items():
        root = ET.fromstring(render_svg(figure, theme=theme, title="Polygone"))
        grooves = [e for e in root.iter() if e.get("class") == "stroke groove"]
        assert len(grooves) == 55
        assert {e.get("stroke") for e in grooves} == {PAINTS["groove"].in_theme(name).fill}
