"""Tiled boards reassemble, and every PDF prints at 100 %: checked from the PDF's own vectors.

The trim-and-butt check does what a person does with scissors: trim every page to its
TrimBox, butt the pieces together in the order each page names ("row R col C"), and compare
every cell's centre with where the one-page board has it.
"""

from __future__ import annotations

import io
import math
import re
import struct
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from pdfdata import (
    PageVectors,
    read_pages,
    ruled_bars,
    ruled_vertical_bars,
    scale_bars,
    vertical_scale_bars,
)
from PIL import Image
from pypdf import PdfReader

from boardgen.geometry import hexhex
from boardgen.render.board import BoardOptions, render_board
from boardgen.render.figure import Figure, board_figure
from boardgen.render.paper import parse_paper, tile
from boardgen.render.pdf import PageInfo, render_pdf
from boardgen.render.scene import THEMES, board_scene

# Slow: left out of the quick subset (pytest -m "not slow"; the README says which).
pytestmark = pytest.mark.slow

TOLERANCE_MM = 0.3


def _figure(side: int = 30, cell: float = 15.0) -> Figure:
    return board_figure(board_scene(hexhex(side)), cell)


def _pdf(figure: Figure, paper: str) -> bytes:
    return render_pdf(figure, theme=THEMES["colour"], paper=parse_paper(paper),
                      info=PageInfo("Copolymer", "a board", "by someone"))


def _place(page: PageVectors) -> tuple[int, int]:
    found = re.search(r"row (\d+) col (\d+)", page.text)
    assert found, "a tiled page names its row and column"
    return int(found.group(1)) - 1, int(found.group(2)) - 1


def _assembly(pages: list[PageVectors]) -> dict[tuple[int, int], tuple[PageVectors,
                                                                       tuple[float, float]]]:
    """Each page by (row, col), with where its trimmed piece's top-left lands on the
    assembled board (board mm, y down), from the TrimBox sizes alone."""
    by_place = {_place(p): p for p in pages}
    assert len(by_place) == len(pages), "each page names a different place"
    rows = 1 + max(r for r, _ in by_place)
    cols = 1 + max(c for _, c in by_place)
    assert set(by_place) == {(r, c) for r in range(rows) for c in range(cols)}
    result = {}
    for (r, c), page in by_place.items():
        x = sum(by_place[(r, k)].trim[2] - by_place[(r, k)].trim[0] for k in range(c))
        y = sum(by_place[(k, c)].trim[3] - by_place[(k, c)].trim[1] for k in range(r))
        result[(r, c)] = (page, (x, y))
    return result


def _on_board(page: PageVectors, offset: tuple[float, float],
              point: tuple[float, float]) -> tuple[float, float]:
    """A page point (mm, y up) on the assembled board (mm, y down)."""
    return (point[0] - page.trim[0] + offset[0], page.trim[3] - point[1] + offset[1])


def _inside(page: PageVectors, point: tuple[float, float]) -> bool:
    x0, y0, x1, y1 = page.trim
    return x0 <= point[0] < x1 and y0 < point[1] <= y1


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize(("side", "cell"), [(30, 15.0), (9, 22.0)])
def test_trimmed_and_butted_pages_give_back_the_board(paper: str, side: int,
                                                      cell: float) -> None:
    figure = _figure(side, cell)
    (single,) = read_pages(_pdf(figure, "2000x2000mm"))
    reference = np.array([_on_board(single, (0.0, 0.0), h) for h in single.hexagons])
    assert len(reference) == len(hexhex(side))
    pages = read_pages(_pdf(figure, paper))
    assert len(pages) > 1
    placed = []
    for page, offset in _assembly(pages).values():
        placed.extend(_on_board(page, offset, h) for h in page.hexagons if _inside(page, h))
    assembled = np.array(placed)
    # Every cell of the board is kept by exactly one page...
    assert len(assembled) == len(reference)
    # ...and lands within 0.3 mm of where the one-page board has it.
    for x, y in assembled:
        nearest = float(np.min(np.hypot(reference[:, 0] - x, reference[:, 1] - y)))
        assert nearest <= TOLERANCE_MM, (x, y, nearest)
    order = np.lexsort((assembled[:, 1], assembled[:, 0]))
    expected = np.lexsort((reference[:, 1], reference[:, 0]))
    assert np.max(np.abs(assembled[order] - reference[expected])) <= TOLERANCE_MM


def _seams(page: PageVectors, offset: tuple[float, float]) -> list[tuple[str, float]]:
    """Each seam line on the page, on the board: ('x', position) for a vertical one."""
    found = []
    for s in page.segments:
        if s.tag != "Seam":
            continue
        (ax, ay), (bx, _) = _on_board(page, offset, s.a), _on_board(page, offset, s.b)
        found.append(("x", ax) if abs(ax - bx) < 1e-6 else ("y", ay))
    return found


def _half_crosses(page: PageVectors, offset: tuple[float, float]
                  ) -> list[tuple[tuple[float, float], tuple[float, float]]]:
    """Each half-cross on the page: its centre on the board, and the way its half bar
    points (board axes, y down).  A half bar is drawn from the centre outward."""
    found = []
    for s in page.segments:
        if s.tag != "Registration":
            continue
        a, b = _on_board(page, offset, s.a), _on_board(page, offset, s.b)
        length = math.dist(a, b)
        if length > 1.0:
            found.append((a, ((b[0] - a[0]) / length, (b[1] - a[1]) / length)))
    return found


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize(("side", "cell"), [(12, 15.0), (30, 15.0)])
def test_one_cut_line_per_seam_and_half_crosses_that_meet(paper: str, side: int,
                                                         cell: float) -> None:
    """Every seam has one line, on the trim edge; every half-cross meets the other half on
    the neighbour's page, on the other side of the seam, and lies where its page is kept
    (a page is cut straight along its left and top edges).  No corner holds two marks."""
    figure = _figure(side, cell)
    pages = _assembly(read_pages(_pdf(figure, paper)))
    rows = 1 + max(r for r, _ in pages)
    cols = 1 + max(c for _, c in pages)
    assert rows > 1 and cols > 1
    halves = {place: _half_crosses(*pages[place]) for place in pages}
    for (r, c), (page, offset) in pages.items():
        seams = _seams(page, offset)
        x0, y0 = offset
        x1 = x0 + page.trim[2] - page.trim[0]
        y1 = y0 + page.trim[3] - page.trim[1]
        expected = [("x", x0)] * (c > 0) + [("x", x1)] * (c + 1 < cols) + \
            [("y", y0)] * (r > 0) + [("y", y1)] * (r + 1 < rows)
        # Exactly one line per seam, on the trim edge: both pages draw it at one place.
        assert len(seams) == len(expected)
        for axis, where in expected:
            assert any(a == axis and abs(w - where) <= TOLERANCE_MM for a, w in seams), \
                (r, c, axis, where, seams)
        mine = halves[(r, c)]
        assert mine, (r, c)
        for centre, (dx, dy) in mine:
            tip = (centre[0] + 2 * dx, centre[1] + 2 * dy)
            # Kept: not left of a cut left edge, not above a cut top edge.
            if c > 0:
                assert min(centre[0], tip[0]) >= x0 - TOLERANCE_MM, (r, c, centre)
            if r > 0:
                assert min(centre[1], tip[1]) >= y0 - TOLERANCE_MM, (r, c, centre)
            # On a seam of this page, and met by the other half on the neighbour across it.
            neighbours = [(r, c + 1), (r, c - 1)] if abs(dx) > 0.5 else [(r + 1, c), (r - 1, c)]
            partners = [q for n in neighbours if n in halves for q in halves[n]
                        if math.dist(q[0], centre) <= TOLERANCE_MM]
            assert len(partners) == 1, (r, c, centre, partners)
            assert partners[0][1][0] == pytest.approx(-dx, abs=1e-6) and \
                partners[0][1][1] == pytest.approx(-dy, abs=1e-6)
        for k, (a, _) in enumerate(mine):
            for b, _ in mine[k + 1:]:
                assert math.dist(a, b) > 6.0, (r, c, a, b)
    # Every seam across a row is marked, and every row's seam along it at the row's ends.
    for r in range(rows):
        for c in range(cols - 1):
            page, offset = pages[(r, c)]
            x1 = offset[0] + page.trim[2] - page.trim[0]
            assert any(abs(p[0] - x1) <= TOLERANCE_MM for p, _ in halves[(r, c)]), (r, c)
    for r in range(rows - 1):
        for c in (0, cols - 1):
            page, offset = pages[(r, c)]
            y1 = offset[1] + page.trim[3] - page.trim[1]
            assert any(abs(p[1] - y1) <= TOLERANCE_MM for p, _ in halves[(r, c)]), (r, c)


def test_the_check_of_half_crosses_catches_whole_ones(monkeypatch: pytest.MonkeyPatch) -> None:
    """Whole crosses at every seam end, as before issue 23, are refused by the check."""
    import boardgen.render.pdf as pdf_module

    def every_end(tiling: Any, row: int, col: int, rect: tuple[float, float, float, float]
                  ) -> list[tuple[float, float, tuple[float, float]]]:
        x0, y0, x1, y1 = rect
        return [(x, y, (side, 0.0)) for x in (x0, x1) for y in (y0 - 3, y1 + 3)
                for side in (-1.0, 1.0)]

    monkeypatch.setattr(pdf_module, "registration_points", every_end)
    with pytest.raises(AssertionError):
        test_one_cut_line_per_seam_and_half_crosses_that_meet("a4", 12, 15.0)


def _glyphs_across_trim(page: PageVectors) -> list[str]:
    """The strings whose glyphs straddle an edge of the page's TrimBox."""
    x0, y0, x1, y1 = page.trim
    found = []
    for run in page.runs:
        a0, b0, a1, b1 = run.box
        if a1 <= x0 or a0 >= x1 or b1 <= y0 or b0 >= y1:
            continue  # outside the kept part (furniture, a tab, or another tile's board)
        if not (x0 <= a0 and a1 <= x1 and y0 <= b0 and b1 <= y1):
            found.append(run.text)
    return found


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize(("side", "cell", "labels"),
                         [(30, 15.0, "outside"), (10, 23.0, "outside"), (16, 13.0, "outside"),
                          (12, 22.0, "inside")])
def test_no_glyph_crosses_a_seam(paper: str, side: int, cell: float, labels: str) -> None:
    """Issue 23: '15' was cut between pages 2 and 3 of a side-30 board at 15 mm; labels
    1, A, J, M and Y on A4.  Seams now fall between labels (and between the names inside
    cells), and the pieces still butt into the board."""
    figure = board_figure(board_scene(hexhex(side), labels), cell)
    pages = read_pages(_pdf(figure, paper))
    assert len(pages) > 1
    crossing = {k: _glyphs_across_trim(p) for k, p in enumerate(pages, start=1)}
    assert {k: v for k, v in crossing.items() if v} == {}


def _closest_glyph_to_trim(page: PageVectors) -> float:
    """How near, in mm, the kept part's glyphs come to an edge of the page's TrimBox."""
    x0, y0, x1, y1 = page.trim
    gaps = [min(a0 - x0, x1 - a1, b0 - y0, y1 - b1) for a0, b0, a1, b1 in
            (run.box for run in page.runs)
            if not (a1 <= x0 or a0 >= x1 or b1 <= y0 or b0 >= y1)]
    return min(gaps, default=math.inf)


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize(("side", "cell", "labels", "least"),
                         [(30, 15.0, "outside", 1.0), (16, 13.0, "outside", 1.0),
                          (12, 22.0, "inside", 0.4)])
def test_seams_keep_paper_round_every_label(paper: str, side: int, cell: float, labels: str,
                                            least: float) -> None:
    """A slip of the scissors must not trim a label: seams keep 1.5 mm from every glyph
    where the labels leave room (the board's own edge keeps 1 mm, its margin), and 0.4 mm
    between names inside every cell.  Before: 0.42 mm from "A" on a side-30 board."""
    figure = board_figure(board_scene(hexhex(side), labels), cell)
    pages = read_pages(_pdf(figure, paper))
    closest = min(_closest_glyph_to_trim(p) for p in pages)
    assert closest >= least - 0.01, f"a glyph {closest:.2f} mm from a trim edge"


def test_the_glyph_check_sees_a_label_across_a_seam(monkeypatch: pytest.MonkeyPatch) -> None:
    """With the seams at equal spacing, as before, labels are cut: the check sees them."""
    import boardgen.render.pdf as pdf_module

    original = pdf_module.tile

    def equal(board: Any, paper: Any, orientation: str, **_: Any) -> Any:
        return original(board, paper, orientation)

    monkeypatch.setattr(pdf_module, "tile", equal)
    figure = _figure(30, 15.0)
    pages = read_pages(_pdf(figure, "a4"))
    assert any(_glyphs_across_trim(p) for p in pages)


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_board_runs_on_under_the_glue_tabs(paper: str) -> None:
    """A page shows its neighbours' cells under its glue tabs, where the neighbour has
    them: a page laid a little short shows board, not white."""
    figure = _figure(12, 15.0)
    pages = _assembly(read_pages(_pdf(figure, paper)))
    cols = 1 + max(c for _, c in pages)
    for (r, c), (page, offset) in pages.items():
        if c + 1 >= cols:
            continue
        x0, y0, x1, y1 = page.trim
        under_tab = [h for h in page.hexagons if x1 < h[0] < x1 + 6.0 and y0 < h[1] < y1]
        neighbour, their_offset = pages[(r, c + 1)]
        nx0, ny0, _, ny1 = neighbour.trim
        theirs = [_on_board(neighbour, their_offset, h) for h in neighbour.hexagons
                  if nx0 <= h[0] < nx0 + 6.0 - 1.0 and ny0 < h[1] < ny1]
        if not theirs:
            continue
        # Drawn (clipped) on the tab: every one of the neighbour's first cells is there.
        placed = [_on_board(page, offset, h) for h in under_tab]
        for point in theirs:
            assert any(math.dist(point, q) <= TOLERANCE_MM for q in placed), (r, c, point)


def test_tiles_use_the_fewest_sheets_on_a4_and_letter() -> None:
    """A side-30 board at 15 mm: 896 x 777 mm.  The compact layout fits it on 20 sheets of
    either paper (it took 24 A4 sheets with the old header, footer and overlap)."""
    figure = _figure(30, 15.0)
    for paper in ("a4", "letter", "universal"):
        plan = tile((figure.width, figure.height), parse_paper(paper), "auto")
        assert plan.pages == 20, (paper, plan)


def test_tiled_page_cost_does_not_grow_with_the_page_count() -> None:
    """Each page draws a constant amount: the board and the assembly map are forms drawn
    once, so a page's own content is the same size on a 9-page and a 200-page board."""
    sizes = []
    for side in (20, 60):
        reader = PdfReader(io.BytesIO(_pdf(_figure(side, 15.0), "a4")))
        assert len(reader.pages) > 1
        sizes.append(max(len(p.get_contents().get_data()) for p in reader.pages))
    assert sizes[1] <= 1.1 * sizes[0]


# --- printing at 100 % -----------------------------------------------------------------------


def _all_pdfs() -> list[tuple[str, bytes]]:
    from boardgen.games.polygone.game import POLYGONE
    from boardgen.publish.drawing import render_diagram
    from boardgen.publish.typeset import render_sheet_pdf
    from boardgen.render.lattice import render_fixed_board

    paper = parse_paper("a4")
    theme = THEMES["colour"]
    options = BoardOptions(paper)
    info = PageInfo("Copolymer", "subject", "credit")
    return [
        ("one-page board", render_board(board_scene(hexhex(6), edges=True), "pdf", options,
                                        theme=theme, info=info)),
        ("tiled board", _pdf(_figure(12, 15.0), "a4")),
        ("polygone board", render_fixed_board(POLYGONE.board, "pdf", paper=paper, theme=theme,
                                              spacing=None, dpi=150,
                                              info=POLYGONE.board_info())),
        ("diagram", render_diagram("o", "corners", "pdf", paper=paper, theme=theme)),
        ("rule sheet", render_sheet_pdf("copolymer", paper=paper, theme=theme)),
        ("polygone rule sheet", render_sheet_pdf("polygone", paper=paper, theme=theme)),
    ]


@pytest.mark.parametrize(("name", "pdf"), _all_pdfs())
def test_every_pdf_asks_for_actual_size_and_says_what_it_is(name: str, pdf: bytes) -> None:
    reader = PdfReader(io.BytesIO(pdf))
    preferences = reader.trailer["/Root"]["/ViewerPreferences"]
    assert preferences["/PrintScaling"] == "/None"
    meta = reader.metadata
    assert meta is not None and meta.title and meta.author and meta.subject
    pages = read_pages(pdf)
    # Our own writer tags its bars; Typst (the rule sheets) cannot: found by their shape.
    bars = [length for page in pages for length in scale_bars(page) or ruled_bars(page)]
    assert bars, f"{name}: no scale bar"
    for length in bars:
        assert length == pytest.approx(50.0, abs=0.05), f"{name}: bar drawn {length} mm"


def _board_pages(name: str, pdf: bytes) -> list[PageVectors]:
    """The pages of a file that print a board or pieces at 1:1 (a rule sheet's text pages
    are not among them: a board page says what to print it at)."""
    pages = read_pages(pdf)
    if "rule sheet" in name:
        return [p for p in pages if "100 %" in p.text and "50 mm" in p.text]
    return pages


@pytest.mark.parametrize(("name", "pdf"), _all_pdfs())
def test_every_board_page_has_a_bar_across_and_a_bar_up(name: str, pdf: bytes) -> None:
    """Printers often scale only in the paper-feed direction: a bar each way."""
    pages = _board_pages(name, pdf)
    assert pages
    for number, page in enumerate(pages, start=1):
        # Our own writer tags its bars; Typst (the rule sheets) cannot: found by shape.
        across = scale_bars(page) or ruled_bars(page)
        up = vertical_scale_bars(page) or ruled_vertical_bars(page)
        assert [round(v, 2) for v in across] == [50.0], (name, number, across)
        assert [round(v, 2) for v in up] == [50.0], (name, number, up)


def test_the_bar_check_catches_a_missing_bar_up(monkeypatch: pytest.MonkeyPatch) -> None:
    import boardgen.render.pdf as pdf_module

    monkeypatch.setattr(pdf_module, "draw_vertical_scale_bar", lambda *args, **kw: None)
    (page,) = read_pages(render_board(board_scene(hexhex(5)), "pdf",
                                      BoardOptions(parse_paper("a4")), theme=THEMES["colour"],
                                      info=PageInfo("T", "S", "C")))
    assert scale_bars(page) == [pytest.approx(50.0, abs=0.05)]
    assert vertical_scale_bars(page) == []


def test_scale_bar_check_catches_a_short_bar(monkeypatch: pytest.MonkeyPatch) -> None:
    import boardgen.render.pdf as pdf_module

    monkeypatch.setattr(pdf_module, "SCALE_BAR_MM", 48.0)
    pdf = render_board(board_scene(hexhex(5), edges=True), "pdf", BoardOptions(parse_paper("a4")),
                       theme=THEMES["colour"], info=PageInfo("T", "S", "C"))
    assert scale_bars(read_pages(pdf)[0]) == [pytest.approx(48.0, abs=0.05)]


def _phys(png: bytes) -> tuple[int, int, int]:
    at = 8
    while at < len(png):
        (length,) = struct.unpack(">I", png[at:at + 4])
        kind = png[at + 4:at + 8]
        data = png[at + 8:at + 8 + length]
        assert struct.unpack(">I", png[at + 8 + length:at + 12 + length])[0] == \
            zlib.crc32(kind + data)
        if kind == b"pHYs":
            x, y, unit = struct.unpack(">IIB", data)
            return x, y, unit
        at += 12 + length
    raise AssertionError("no pHYs chunk")


@pytest.mark.parametrize("dpi", [96, 150, 300])
def test_png_carries_its_resolution(dpi: int) -> None:
    png = render_board(board_scene(hexhex(4)), "png",
                       BoardOptions(parse_paper("a4"), cell_mm=10.0, dpi=dpi),
                       theme=THEMES["colour"], info=PageInfo("T"))
    x, y, unit = _phys(png)
    assert unit == 1 and x == y == round(dpi / 0.0254)
    image = Image.open(io.BytesIO(png))
    assert image.info["dpi"][0] == pytest.approx(dpi, abs=0.05)
    # At that resolution the picture is as wide as the board in millimetres.
    width_mm = image.width / dpi * 25.4
    assert width_mm == pytest.approx(board_figure(board_scene(hexhex(4)),
                                                  10.0).width, abs=25.4 / dpi * 1.5)


# --- one file for A4 and Letter; everything in one theme -----------------------------------


def _page_sizes(path: Path) -> set[tuple[float, float]]:
    return {tuple(sorted((round(float(p.mediabox.width) * 25.4 / 72, 1),
                          round(float(p.mediabox.height) * 25.4 / 72, 1))))  # type: ignore[misc]
            for p in PdfReader(str(path)).pages}


@pytest.mark.parametrize("command", [["board", "copolymer"], ["board", "copolymer", "--side",
                                                               "20"],
                                     ["board", "polygone"], ["diagram", "o", "corners"],
                                     ["rules", "o"]])
def test_universal_paper_prints_on_a4_and_letter(run_cli: Callable[..., Any], tmp_path: Path,
                                                 command: list[str]) -> None:
    out = tmp_path / "out.pdf"
    result = run_cli(*command, "--paper", "universal", "-o", str(out))
    assert result.code == 0, result.err
    # Within the area A4 (210 x 297) and Letter (215.9 x 279.4) share.
    assert _page_sizes(out) == {(210.0, 279.4)}


def test_all_builds_everything_in_one_theme(run_cli: Callable[..., Any], tmp_path: Path) -> None:
    result = run_cli("all", "-o", str(tmp_path), "--theme", "ink", "--paper", "universal")
    assert result.code == 0, result.err
    svgs = sorted(tmp_path.glob("*.svg"))
    pdfs = sorted(tmp_path.glob("*.pdf"))
    assert len(svgs) > 10 and len(pdfs) > 10
    for svg in svgs:  # the ink theme: black and white only
        assert set(re.findall(r"#[0-9a-fA-F]{6}", svg.read_text())) <= {"#000000", "#ffffff"}
    for pdf in pdfs:
        assert _page_sizes(pdf) == {(210.0, 279.4)}, pdf.name
        reader = PdfReader(str(pdf))
        assert reader.trailer["/Root"]["/ViewerPreferences"]["/PrintScaling"] == "/None"
        meta = reader.metadata
        assert meta is not None and meta.title and meta.author and meta.subject, pdf.name


def test_an_unknown_theme_lists_the_themes(run_cli: Callable[..., Any], tmp_path: Path) -> None:
    result = run_cli("all", "-o", str(tmp_path / "x"), "--theme", "neon")
    assert result.code == 2 and len(result.err.strip().splitlines()) == 1
    assert all(name in result.err for name in THEMES)
    assert not (tmp_path / "x").exists()


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_tiled_pages_print_inside_the_printable_area(paper: str) -> None:
    """Nothing within 6.35 mm (a quarter inch) of a tiled page's edge, every page inked."""
    import pypdfium2

    pdf = _pdf(_figure(14, 15.0), paper)
    document = pypdfium2.PdfDocument(pdf)
    try:
        for index in range(len(document)):
            image = document[index].render(scale=0.5).to_pil().convert("L")
            pixels = np.asarray(image)
            edge = math.ceil(6.35 / 25.4 * 72 * 0.5)
            inner = pixels[edge:-edge, edge:-edge]
            assert (pixels < 215).sum() == (inner < 215).sum(), f"page {index + 1}"
            assert (inner < 200).sum() > 0.002 * inner.size
    finally:
        document.close()
