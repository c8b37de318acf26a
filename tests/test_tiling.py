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
from pdfdata import PageVectors, read_pages, ruled_bars, scale_bars
from PIL import Image
from pypdf import PdfReader

from boardgen.geometry import hexhex
from boardgen.render.board import BoardOptions, render_board
from boardgen.render.figure import Figure, board_figure
from boardgen.render.paper import parse_paper, tile
from boardgen.render.pdf import PageInfo, render_pdf
from boardgen.render.scene import THEMES, board_scene

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


def _registration_centres(page: PageVectors,
                          offset: tuple[float, float]) -> list[tuple[float, float]]:
    """Where each registration cross is on the board: its horizontal and vertical bars
    cross at their midpoints."""
    bars = [s for s in page.segments if s.tag == "Registration"
            and (abs(s.a[0] - s.b[0]) < 1e-6 or abs(s.a[1] - s.b[1]) < 1e-6)]
    horizontal = [s for s in bars if abs(s.a[1] - s.b[1]) < 1e-6 and abs(s.a[0] - s.b[0]) > 1]
    return [_on_board(page, offset, ((s.a[0] + s.b[0]) / 2, s.a[1])) for s in horizontal]


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_one_cut_line_per_seam_and_marks_that_coincide(paper: str) -> None:
    figure = _figure(12, 15.0)
    pages = _assembly(read_pages(_pdf(figure, paper)))
    rows = 1 + max(r for r, _ in pages)
    cols = 1 + max(c for _, c in pages)
    assert rows > 1 and cols > 1
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
    for (r, c), (page, offset) in pages.items():
        mine = _registration_centres(page, offset)
        for neighbour in ((r, c + 1), (r + 1, c)):
            if neighbour not in pages:
                continue
            theirs = _registration_centres(*pages[neighbour])
            shared = [p for p in mine if any(math.dist(p, q) <= TOLERANCE_MM for q in theirs)]
            assert len(shared) >= 2, f"pages {(r, c)} and {neighbour} share no marks"


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
