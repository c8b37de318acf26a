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
from pdfdata import read_pages, scale_bars

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
    # Each of the 24 start lines is marked (two thin rails), thinner than any piece.
    starts = [e for e in root.iter(f"{SVG}polyline") if "-start" in (e.get("class") or "")]
    assert len(starts) == 2 * 24
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


@pytest.mark.parametrize("paper", ["a4", "letter", "universal", "a3"])
def test_the_board_is_as_large_as_the_paper_allows(paper: str) -> None:
    pdf = render_polygone_board("pdf", paper=parse_paper(paper), theme=THEMES["colour"],
                                spacing=None, dpi=150)
    pages = read_pages(pdf)
    assert pages[0].width > pages[0].height  # landscape
    room = content_size((pages[0].width, pages[0].height))
    spacing = float(pages[0].text.split("holes are ")[1].split(" mm")[0])
    fits = board_lattice_figure(spacing)
    bigger = board_lattice_figure(spacing + 0.5)
    assert fits.width <= room[0] and fits.height <= room[1]
    assert bigger.width > room[0] or bigger.height > room[1]
    assert fits.width >= 0.85 * room[0] or fits.height >= 0.85 * room[1]
    # Every page, the pieces too, carries a 50 mm bar.
    for page in pages:
        assert [round(b, 2) for b in scale_bars(page)] == [50.0]


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
    assert "too small for the sheet of pieces" in result.err and not out.exists()
