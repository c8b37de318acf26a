"""What a kit's extra pages hold, counted and measured from the PDF's own vectors: O's
stones sheet holds a stone for every cell of every board the kit prints (and no row more
than it needs), and Polygone's capture tracker draws closed boxes of the stated 22 mm, as
many as captures win, every edge drawn."""

from __future__ import annotations

import functools
import io
import math
import re
from collections import Counter

import pytest
from pdfdata import PageVectors, read_pages
from pypdf import PdfReader

from boardgen.render.paper import parse_paper
from boardgen.render.scene import THEMES

# Slow: left out of the quick subset (pytest -m "not slow"; the README says which).
pytestmark = pytest.mark.slow

KITS = [("a4", "colour"), ("letter", "ink")]


@functools.cache
def kit_pages(game: str, paper: str, theme: str) -> tuple[list[PageVectors], list[str]]:
    """The kit's pages, and the bookmark of the part each page belongs to."""
    from boardgen.publish.kit import render_kit

    pdf = render_kit(game, paper=parse_paper(paper), theme=THEMES[theme])
    reader = PdfReader(io.BytesIO(pdf))
    starts = [(reader.get_destination_page_number(item), item.title) for item in reader.outline
              if not isinstance(item, list)]
    owner = [max((s for s in starts if s[0] <= k), key=lambda s: s[0])[1]
             for k in range(len(reader.pages))]
    return read_pages(pdf), owner


def _discs(page: PageVectors) -> list[tuple[float, float, float, float]]:
    """Every closed curved outline painted (arcs: 13 points for four, more where the
    typesetter splits one), its box square, as its box x0 y0 x1 y1."""
    found = []
    for path in page.paths:
        for points in path.subpaths:
            if len(points) >= 13 and points[0] == points[-1] and path.filled:
                xs, ys = [p[0] for p in points], [p[1] for p in points]
                width, height = max(xs) - min(xs), max(ys) - min(ys)
                if width > 1 and abs(width - height) < 0.02 * width:
                    found.append((min(xs), min(ys), max(xs), max(ys)))
    return found


@pytest.mark.parametrize(("paper", "theme"), KITS)
def test_o_has_a_stone_for_every_cell_of_every_board_it_prints(paper: str, theme: str) -> None:
    pages, owner = kit_pages("o", paper, theme)
    boards = [p for p, part in zip(pages, owner, strict=True) if ": board" in part]
    (stones,) = [p for p, part in zip(pages, owner, strict=True) if "stones" in part]
    discs = _discs(stones)
    assert boards and all(len(board.hexagons) >= 91 for board in boards)  # side 6 at least
    # Stones come in full rows: as many rows as the most cells need, not one more.
    rows = Counter(round((d[1] + d[3]) / 2, 1) for d in discs)
    per_row = set(rows.values())
    assert len(per_row) == 1, rows
    (columns,) = per_row
    for board in boards:
        cells = len(board.hexagons)
        assert cells <= len(discs) < cells + columns, (cells, len(discs), columns)
    # Each stone as wide as stated, 1 mm narrower than the board's cell, and on the page.
    across = float(re.search(r"Stones (\d+\.\d)\s*mm across", stones.text).group(1))
    cell = float(re.search(r"cell (?:is )?(\d+\.\d)\s*mm flat to flat", boards[0].text).group(1))
    assert across == pytest.approx(cell - 1.0)
    for x0, y0, x1, y1 in discs:
        # The painted outline's path runs through the middle of its stroke: inside the
        # stated width by half a stroke (0.07 of the radius).
        assert x1 - x0 == pytest.approx(across / 1.07, abs=0.05)
        assert 0 < x0 and x1 < stones.width and 0 < y0 and y1 < stones.height


@pytest.mark.parametrize("cells", [1, 7, 9, 10, 11, 91, 127])
def test_a_stones_figure_holds_the_cells_in_full_rows(cells: int) -> None:
    from boardgen.publish.kit import stones_figure

    figure = stones_figure(12.0, (180.0, 260.0), cells)
    stones = [m for m in figure.marks if m.kind == "dot"]
    columns = len({round(m.x, 3) for m in stones})
    rows = len({round(m.y, 3) for m in stones})
    assert columns == 12  # (180 - 2) mm // (11 mm stones + 3 mm gaps)
    assert rows * columns == len(stones)
    assert cells <= len(stones) < cells + columns
    # 11 mm across, the outline included; 14 mm apart, within the figure.
    for m in stones:
        assert 2 * m.radius * 1.07 == pytest.approx(11.0)
        assert m.radius < m.x < figure.width - m.radius
        assert m.y + m.radius < figure.height
    assert sorted({round(m.x, 3) for m in stones})[1] - min(m.x for m in stones) == \
        pytest.approx(14.0)


def test_a_page_that_cannot_hold_every_stone_holds_as_many_rows_as_fit() -> None:
    from boardgen.publish.kit import stones_figure

    figure = stones_figure(20.0, (180.0, 100.0), 1000)
    stones = [m for m in figure.marks if m.kind == "dot"]
    assert len(stones) % 8 == 0 and 8 <= len(stones) <= 8 * 4
    assert figure.height <= 100.0 + 2.0


@pytest.mark.parametrize(("paper", "theme"), KITS)
def test_the_capture_tracker_draws_closed_boxes_of_the_stated_size(paper: str,
                                                                   theme: str) -> None:
    """Seven closed boxes a player, each as long as the page says (a piece plus 2 mm or
    more), read from the page's vectors: every box's four edges, the last box's too."""
    pages, owner = kit_pages("polygone", paper, theme)
    (tracker,) = [p for p in pages if p.text.count("has captured") == 2]
    stated = float(re.search(r"each box (\d+)\s*mm long", " ".join(tracker.text.split()))
                   .group(1)) if "each box" in tracker.text else 40.0
    assert stated >= 38.0 + 2.0
    solid = [s for s in tracker.segments if not s.dashed]
    across = [s for s in solid if abs(s.a[1] - s.b[1]) < 0.01
              and abs(abs(s.a[0] - s.b[0]) - stated) < 0.05]
    lefts = Counter(round(min(s.a[0], s.b[0]), 1) for s in across)
    columns = sorted(x for x, n in lefts.items() if n >= 2 * 7)
    assert len(columns) == 2, lefts  # one column a player, a top and a bottom a box
    for x in columns:
        assert lefts[x] == 2 * 7, lefts  # seven captures win
        tops = sorted(round(s.a[1], 1) for s in across if round(min(s.a[0], s.b[0]), 1) == x)
        heights = {round(b - a, 1) for a, b in zip(tops[0::2], tops[1::2], strict=True)}
        assert len(heights) == 1, tops  # boxes alike
        (height,) = heights
        # Both sides of every box, the last box's right side too.
        for side in (x, round(x + stated, 1)):
            uprights = [s for s in solid if abs(s.a[0] - s.b[0]) < 0.01
                        and abs(s.a[0] - side) < 0.05 and abs(abs(s.a[1] - s.b[1]) - height) < 0.05]
            assert len(uprights) == 7, (side, len(uprights))


@pytest.mark.parametrize("boxes", [7, 9, 12])
def test_tracker_boxes_are_closed_and_a_piece_plus_2_mm_long(boxes: int) -> None:
    from boardgen.games.protocol import Tracker
    from boardgen.publish.tracker import tracker_figure

    piece = (38.0, 4.6)
    figure = tracker_figure(Tracker(boxes=boxes, rows=("A", "B"), intro="Count."), piece)
    edges = [s for s in figure.strokes if len(s.points) == 2]
    across = [s for s in edges if s.points[0][1] == s.points[1][1]]
    uprights = [s for s in edges if s.points[0][0] == s.points[1][0]]
    # Every box closed: two edges across and two up a box, for each player's boxes.
    assert len(across) == len(uprights) == 2 * 2 * boxes
    lengths = {round(abs(s.points[1][0] - s.points[0][0]), 6) for s in across}
    assert lengths == {math.ceil(piece[0] + 2.0)}  # one size, a piece plus 2 mm, no more
    numbers = [t.text for t in figure.texts if t.role == "coordinate"]
    assert numbers == [str(k) for k in range(1, boxes + 1)] * 2


@pytest.mark.parametrize("game", ["copolymer", "o", "polygone"])
def test_every_word_of_a_kit_lies_on_its_page_at_a_readable_size(game: str) -> None:
    pages, owner = kit_pages(game, "a4", "colour")
    for number, (page, part) in enumerate(zip(pages, owner, strict=True), start=1):
        for run in page.runs:
            x0, y0, x1, y1 = run.box
            where = (part, number, run.text[:40])
            assert 0 <= x0 and x1 <= page.width and 0 <= y0 and y1 <= page.height, where
            # From the font's descent to its ascent: about 1.2 times its size, which is
            # between 8 pt (the smallest print) and 30 pt (a title).
            assert 8 * 25.4 / 72 <= y1 - y0 <= 1.5 * 30 * 25.4 / 72, (where, y1 - y0)
            if "playing with pens" in part:  # a page of prose: a comfortable measure
                assert x1 - x0 <= 150.0, (where, x1 - x0)
        if "playing with pens" in part:  # and its lines one under the other, apart
            tops = sorted((run.box for run in page.runs), key=lambda box: -box[3])
            for upper, lower in zip(tops, tops[1:], strict=False):
                assert lower[3] <= upper[1] + 0.5, (part, upper, lower)


@pytest.mark.parametrize("game", ["copolymer", "o", "polygone"])
def test_a_kit_names_its_maker_and_asks_for_actual_size(game: str) -> None:
    from boardgen import __version__
    from boardgen.publish.kit import render_kit

    reader = PdfReader(io.BytesIO(render_kit(game, paper=parse_paper("a4"),
                                             theme=THEMES["colour"])))
    meta = reader.metadata
    assert meta is not None
    # One Typst document (issue 32): Typst made the file; the program that wrote it, with
    # its version, is named in the keywords, never on a printed page.
    assert meta["/Creator"].startswith("Typst ")
    assert f"boardgen {__version__}" in meta["/Keywords"].split(", ")
    assert reader.trailer["/Root"]["/ViewerPreferences"]["/PrintScaling"] == "/None"
