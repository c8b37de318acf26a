"""Panels built once inside boardgen.render.figure.figures_memoised (what ``boardgen all``
opens round its jobs): a memo hit is the figure a fresh build makes, each request is known
by everything that decides its figure (the scene, its size, its margin, the language), a
caller that changes the figure it was handed changes no later one, and nothing is kept
outside the memo."""

from __future__ import annotations

from dataclasses import replace

from boardgen.games.registry import build_diagram
from boardgen.geometry import Hex
from boardgen.geometry.hexgrid import hexhex
from boardgen.i18n import speaking
from boardgen.picture import Marker, PointScene, Scene, board_scene
from boardgen.render.figure import Figure, Text, board_figure, figures_memoised, uncaptioned
from boardgen.render.lattice import lattice_figure


def _scene() -> Scene:
    grid = hexhex(4)
    return Scene(grid, cell_roles={Hex(0, 0): "player1"}, caption="Black's move",
                 markers=(Marker(Hex(1, 0), "dot", "player2"),))


def _lattice() -> PointScene:
    diagram = build_diagram("polygone", "02-targets")
    scenes = [scene for _, row in diagram.rows for scene in row
              if isinstance(scene, PointScene)]
    return scenes[0]


def _fresh_board(scene: Scene, width: float, margin: float = 1.0) -> Figure:
    return board_figure(scene, width, margin=margin)  # called outside any memo


def test_a_hit_is_the_fresh_figure_and_a_copy() -> None:
    scene = _scene()
    fresh = _fresh_board(scene, 9.0)
    with figures_memoised():
        first = board_figure(scene, 9.0)
        second = board_figure(scene, 9.0)
    assert first == fresh and second == fresh
    assert first is not second and first.cells is not second.cells


def test_a_changed_figure_changes_no_later_hit() -> None:
    scene = _scene()
    with figures_memoised():
        board_figure(scene, 9.0)  # built and kept
        handed = board_figure(scene, 9.0)  # a hit
        handed.texts.append(Text(0.0, 0.0, "scribble", 3.0, "caption"))
        handed.cells.clear()
        handed.width = 1.0
        again = board_figure(scene, 9.0)
    assert again == _fresh_board(scene, 9.0)


def test_every_request_gets_its_own_figure() -> None:
    scene = _scene()
    other = replace(scene, cell_roles={Hex(0, 0): "player2"})
    with figures_memoised():
        figures = [board_figure(scene, 9.0), board_figure(other, 9.0),
                   board_figure(scene, 7.0), board_figure(scene, 9.0, margin=3.0),
                   board_figure(board_scene(hexhex(4)), 9.0)]
    assert figures == [_fresh_board(scene, 9.0), _fresh_board(other, 9.0),
                       _fresh_board(scene, 7.0), _fresh_board(scene, 9.0, 3.0),
                       _fresh_board(board_scene(hexhex(4)), 9.0)]
    assert len({repr(f) for f in figures}) == len(figures)


def test_a_lattice_is_known_by_its_language() -> None:
    scene = _lattice()
    fresh_en = lattice_figure(scene, 20.0)
    with speaking("fr"):
        fresh_fr = lattice_figure(scene, 20.0)
    assert fresh_en.scale_note != fresh_fr.scale_note  # the scale note is translated
    with figures_memoised():
        english = lattice_figure(scene, 20.0)
        with speaking("fr"):
            french = lattice_figure(scene, 20.0)
        english_again = lattice_figure(scene, 20.0)
        other_size = lattice_figure(scene, 15.0)
    assert (english, french, english_again) == (fresh_en, fresh_fr, fresh_en)
    assert other_size == lattice_figure(scene, 15.0) != fresh_en


def test_nothing_is_kept_outside_the_memo() -> None:
    scene = _scene()
    with figures_memoised():
        inside = uncaptioned(scene)
        assert uncaptioned(scene) is inside  # one object: its figure is built once
        assert inside == replace(scene, caption=None)
    outside = uncaptioned(scene)
    assert outside == inside and outside is not inside
    assert board_figure(scene, 9.0) is not board_figure(scene, 9.0)
