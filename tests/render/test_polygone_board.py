"""The printed Polygone board is a board to play on: empty, as large as the paper allows,
labels clear of the lattice; its pieces are strips to cut and fold, with a scale bar."""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import Run
from pdfdata import read_pages, scale_bars, vertical_scale_bars

from boardgen.games.polygone.game import POLYGONE
from boardgen.games.polygone.picture import BOARD_SCENE, PIECES
from boardgen.geometry.lattice import HOLES, LINES, MAX_LEVEL
from boardgen.render.figure import Figure, text_box
from boardgen.render.lattice import (
    lattice_figure,
    piece_width,
    pieces_sheet,
    render_fixed_board,
)
from boardgen.render.paper import content_size, parse_paper
from boardgen.render.scene import THEMES

# Slow: left out of the quick subset (pytest -m "not slow"; the README says which).
pytestmark = pytest.mark.slow

SVG = "{http://www.w3.org/2000/svg}"


def board_lattice_figure(spacing: float) -> Figure:
    return lattice_figure(BOARD_SCENE, spacing)


def render_polygone_board(fmt: str, **options: Any) -> bytes:
    assert POLYGONE.fixed_board is not None
    return render_fixed_board(POLYGONE.fixed_board, fmt, info=POLYGONE.board_info(), **options)


def _svg(theme: str = "colour", spacing: float | None = None) -> ET.Element:
    data = render_polygone_board("svg", paper=parse_paper("a4"), theme=THEMES[theme],
                                 spacing=spacing, dpi=150)
    return ET.fromstring(data)


@pytest.mark.parametrize("theme", sorted(THEMES))
def test_the_board_is_empty_with_holes_grooves_homes_and_faint_start_lines(theme: str) -> None:
    root = _svg(theme)
    classes = [e.get("class") or "" for e in root.iter()]
    assert not [c for c in classes if c.split() and c.split()[-1].endswith("-piece")]
    assert sum(c == "mark dot hole" for c in classes) == len(HOLES) == 24
    assert sum(c == "stroke groove" for c in classes) == len(LINES) == 55
    assert {"area white-home", "area black-home"} <= set(classes)
    # Each of the 24 start lines is marked (two thin rails), thinner than any piece, and
    # a key (a pair of rails for each colour) says what they are.
    starts = [e for e in root.iter(f"{SVG}polyline") if "-start" in (e.get("class") or "")]
    assert len(starts) == 2 * 24 + 2 * 2
    labels = " ".join(e.get("aria-label") or "" for e in root.iter())
    assert "White\u2019s pieces start here" in labels
    assert "Black\u2019s pieces start here" in labels
    grooves = [e for e in root.iter(f"{SVG}polyline") if e.get("class") == "stroke groove"]
    groove_width = float(grooves[0].get("stroke-width") or 0)
    for rail in starts:
        assert rail.get("stroke-dasharray")
        assert float(rail.get("stroke-width") or 0) < 0.8 * groove_width


def test_apex_labels_stand_clear_of_the_lattice() -> None:
    spacing = 38.0
    figure = board_lattice_figure(spacing)
    holes = [m for m in figure.marks if m.role == "hole"]
    left = min(m.x for m in holes)
    right = max(m.x for m in holes)
    top = min(m.y for m in holes)
    bottom = max(m.y for m in holes)
    assert right - left == pytest.approx(MAX_LEVEL / 2 * spacing)
    apex = [t for t in figure.texts if "home" in t.text or "goal" in t.text]
    assert len(apex) == 4
    for t in apex:
        x0, y0, x1, y1 = text_box(t)
        # Wholly beside the lattice, beyond the apex ring, not over a groove or hole.
        assert x1 < left - 0.14 * spacing or x0 > right + 0.14 * spacing, t
        assert top < y0 and y1 < bottom
    for t in figure.texts:
        for u in figure.texts:
            if t is not u:
                a, b = text_box(t), text_box(u)
                assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1], (t, u)


def _spacing_said(text: str) -> float:
    return float(text.split("holes are ")[1].split("\u00a0mm")[0].split(" mm")[0])


@pytest.mark.parametrize("paper", ["a4", "letter", "universal", "a3"])
def test_one_hole_spacing_on_every_paper(paper: str) -> None:
    """Issue 23: holes were 38.0 mm apart on A4, 39.5 on Letter, 34.0 on the rule sheet,
    so that pieces from one file did not fit another's board.  Now one spacing, the
    largest with which the board fits a landscape page of A4 and of Letter alike."""
    pdf = render_polygone_board("pdf", paper=parse_paper(paper), theme=THEMES["colour"],
                                spacing=None, dpi=150)
    pages = read_pages(pdf)
    assert pages[0].width > pages[0].height  # landscape
    board, pieces = pages
    assert _spacing_said(board.text) == _spacing_said(pieces.text) == COMMON_SPACING
    # The pieces sheet says what its pieces fit, the number never parted from its unit.
    assert "Pieces for a board whose holes are" in pieces.text
    # Every page, the pieces too, carries a 50 mm bar each way.
    for page in pages:
        assert [round(b, 2) for b in scale_bars(page)] == [50.0]
        assert [round(b, 2) for b in vertical_scale_bars(page)] == [50.0]


COMMON_SPACING = 38.0


def test_the_common_spacing_is_the_largest_for_a4_and_letter() -> None:
    fits = board_lattice_figure(COMMON_SPACING)
    bigger = board_lattice_figure(COMMON_SPACING + 0.5)
    rooms = [content_size(parse_paper(p).size("landscape")) for p in ("a4", "letter")]
    assert all(fits.width <= w and fits.height <= h for w, h in rooms)
    assert any(bigger.width > w or bigger.height > h for w, h in rooms)


def test_the_rule_sheet_prints_the_board_at_the_common_spacing() -> None:
    from boardgen.publish.typeset import render_sheet_pdf

    for paper in ("a4", "letter"):
        pages = read_pages(render_sheet_pdf("polygone", paper=parse_paper(paper),
                                            theme=THEMES["colour"]))
        said = [_spacing_said(p.text) for p in pages if "holes are" in p.text]
        assert said == [COMMON_SPACING, COMMON_SPACING], (paper, said)
        for page in pages[-2:]:
            assert page.width > page.height  # the board and pieces pages are landscape


@pytest.mark.parametrize("apexes", [True, False])
def test_row_letter_c_stands_clear_of_the_apex_rings(apexes: bool) -> None:
    """Issue 23: the letter c was hidden under the c0 apex ring on the board."""
    from boardgen.games.polygone.picture import lattice_scene

    scene = BOARD_SCENE if apexes else lattice_scene(apexes=False)
    for spacing in (10.2, 14.0, COMMON_SPACING):
        figure = lattice_figure(scene, spacing)
        (letter,) = [t for t in figure.texts if t.text == "c" and t.role == "coordinate"]
        x0, y0, x1, y1 = text_box(letter)
        for ring in (m for m in figure.marks if m.kind == "ring"):
            reach = ring.radius * 1.11  # half the ring's stroke beyond its radius
            nearest_x = min(max(ring.x, x0), x1)
            nearest_y = min(max(ring.y, y0), y1)
            assert math.hypot(nearest_x - ring.x, nearest_y - ring.y) > reach, spacing


def test_pieces_are_straight_strips_with_a_fold_line() -> None:
    spacing = 40.0
    sheet = pieces_sheet(PIECES, spacing, 273.0)
    strips = [a for a in sheet.areas if a.role.endswith("-piece")]
    assert sorted(a.role for a in strips) == ["black-piece"] * 12 + ["white-piece"] * 12
    width = piece_width(spacing)
    for strip in strips:
        xs = sorted({round(x, 6) for x, _ in strip.points})
        ys = sorted({round(y, 6) for _, y in strip.points})
        assert len(strip.points) == 4 and len(xs) == len(ys) == 2  # a rectangle
        assert xs[1] - xs[0] == pytest.approx(spacing)  # hole centre to hole centre
        assert ys[1] - ys[0] == pytest.approx(2 * width)  # two faces, folded
        folds = [s for s in sheet.strokes if s.dash and xs[0] < s.points[0][0] < xs[1]
                 and s.points[0][1] == pytest.approx((ys[0] + ys[1]) / 2)]
        assert len(folds) == 1
    # Cutting guides: straight lines that run past the blocks.
    cuts = [s for s in sheet.strokes if s.role == "line"]
    left = min(min(x for x, _ in a.points) for a in strips)
    assert min(min(x for x, _ in s.points) for s in cuts) < left - 2.0
    assert all(math.isclose(s.points[0][0], s.points[1][0]) or
               math.isclose(s.points[0][1], s.points[1][1]) for s in cuts)
    assert "coffee stirrers" in " ".join(t.text for t in sheet.texts)


def test_paper_too_small_for_the_pieces_sheet_is_one_line(run_cli: Callable[..., Run],
                                                          tmp_path: Path) -> None:
    """Found by test_fuzz_cli: the board fitted 80 x 80 mm paper but its sheet of pieces
    did not, which ended in an internal error."""
    out = tmp_path / "p.pdf"
    result = run_cli("board", "polygone", "--paper", "80x80mm", "-o", str(out))
    assert result.code == 2 and len(result.err.strip().splitlines()) == 1, result.err
    assert "too small for the" in result.err and not out.exists()


def _grey(hex_colour: str) -> float:
    """ITU-R 601 luma of #rrggbb, worked here (not the theme's own helper)."""
    r, g, b = (int(hex_colour[k:k + 2], 16) for k in (1, 3, 5))
    return 0.299 * r + 0.587 * g + 0.114 * b


@pytest.mark.parametrize("theme", sorted(THEMES))
def test_white_and_black_start_lines_stay_apart_in_grey(theme: str) -> None:
    """The key tells White's start lines from Black's: printed grey, they must differ by
    40 levels, or (all black, in the ink theme) stand on halves told apart by a pattern."""
    paints = THEMES[theme].cells
    white, black = paints["white-start"].fill, paints["black-start"].fill
    if white == black:
        assert paints["white-home"].pattern != paints["black-home"].pattern, theme
    else:
        assert abs(_grey(white) - _grey(black)) >= 40.0, (theme, white, black)


def test_the_default_spacing_is_each_languages_own_whatever_came_first() -> None:
    """The spacing fits the board's translated labels (French's are wider): a process that
    drew the board in English first gives French the spacing French alone gets, and the
    other way round (a memo by board alone gave the first language's to both, and a kept
    file's bytes hung on which language a process drew first)."""
    from boardgen.games.registry import game_named
    from boardgen.i18n import speaking
    from boardgen.render import lattice

    fixed = game_named("polygone").fixed_board
    assert fixed is not None

    def spacing(lang: str) -> float:
        with speaking(lang):
            return lattice.default_spacing(fixed)

    alone: dict[str, float] = {}
    for lang in ("en", "fr"):
        lattice._DEFAULT_SPACINGS.clear()
        alone[lang] = spacing(lang)
    assert alone["en"] != alone["fr"]  # else this test shows nothing
    for first, second in (("en", "fr"), ("fr", "en")):
        lattice._DEFAULT_SPACINGS.clear()
        assert (spacing(first), spacing(second)) == (alone[first], alone[second])
