"""Fitted pages (``--fit``, ``fit=True``): the page is the drawing plus a 3 mm margin, at
exact scale, in PDF, SVG and PNG alike.

The drawing's bounds are measured from the files themselves, never from boardgen's own
bounds computation: the PDF is rasterised by PDFium at 600 dpi and the inked pixels'
bounding box taken; the scale bar and the cells are read from the PDF's content stream
(tests/pdfdata.py).
"""

from __future__ import annotations

import io
import math
import re

import numpy as np
import pypdfium2
import pytest
from pdfdata import read_pages, ruled_bars
from PIL import Image
from pypdf import PdfReader

import boardgen

MM_PER_PT = 25.4 / 72
MARGIN_MM = 3.0
DPI = 600
PX_MM = 25.4 / DPI


def media_box_mm(pdf: bytes) -> list[tuple[float, float, float, float]]:
    return [tuple(float(v) * MM_PER_PT for v in page.mediabox)  # type: ignore[misc]
            for page in PdfReader(io.BytesIO(pdf)).pages]


def blank_margins(pdf: bytes) -> tuple[float, float, float, float]:
    """The blank paper between the page's edges and the nearest ink (left, top, right,
    bottom, mm), from the page rendered at 600 dpi: a pixel is ink when any channel is
    below 250 (the lightest fill, an empty cell's, is drawn inside its dark outline)."""
    document = pypdfium2.PdfDocument(pdf)
    try:
        image = document[0].render(scale=DPI / 72).to_numpy()
    finally:
        document.close()
    ink = (image[..., :3] < 250).any(axis=2)
    rows, cols = np.nonzero(ink)
    height, width = ink.shape
    return (cols.min() * PX_MM, rows.min() * PX_MM, (width - 1 - cols.max()) * PX_MM,
            (height - 1 - rows.max()) * PX_MM)


def cell_pitch(pdf: bytes) -> float:
    """The distance between neighbouring hexagons' centres (flat to flat), in mm."""
    centres = read_pages(pdf)[0].hexagons
    first = centres[0]
    return min(math.dist(first, other) for other in centres[1:])


def svg_size(svg: str) -> tuple[float, float, tuple[float, ...]]:
    width = float(re.search(r'<svg[^>]* width="([0-9.]+)mm"', svg).group(1))  # type: ignore[union-attr]
    height = float(re.search(r'<svg[^>]* height="([0-9.]+)mm"', svg).group(1))  # type: ignore[union-attr]
    box = tuple(float(v) for v in re.search(r'viewBox="([^"]+)"', svg).group(1)  # type: ignore[union-attr]
                .replace(",", " ").split())
    return width, height, box


FITTED = {
    "copolymer board": lambda fmt: boardgen.board("copolymer", fmt, side=5, cell_mm=13,
                                                  fit=True),
    "O board, default cells": lambda fmt: boardgen.board("o", fmt, side=4, fit=True),
    "Polygone board": lambda fmt: boardgen.board("polygone", fmt, fit=True),
    "Copolymer diagram": lambda fmt: boardgen.draw(boardgen.diagram("copolymer", "tempo"),
                                                   fmt, fit=True),
    "position": lambda fmt: boardgen.draw(boardgen.play("o", "D4 D5", side=4), fmt,
                                          marks={"C4": "ring"}, fit=True),
}


@pytest.mark.parametrize("name", FITTED)
def test_the_page_is_the_drawing_plus_the_margin(name: str) -> None:
    pdf = FITTED[name]("pdf")
    assert isinstance(pdf, bytes)
    (box,) = media_box_mm(pdf)
    assert box[:2] == (0.0, 0.0)
    margins = blank_margins(pdf)
    # Each side: 3 mm of paper, to within a pixel and a half of antialiasing.
    for side, margin in zip(("left", "top", "right", "bottom"), margins, strict=True):
        assert margin == pytest.approx(MARGIN_MM, abs=0.06), (side, margins, box)


@pytest.mark.parametrize("name", FITTED)
def test_svg_and_png_have_the_pdf_page_size(name: str) -> None:
    (box,) = media_box_mm(FITTED[name]("pdf"))
    svg = FITTED[name]("svg")
    assert isinstance(svg, str)
    width, height, view = svg_size(svg)
    assert (width, height) == pytest.approx((box[2], box[3]), abs=0.002)
    assert view == pytest.approx((0.0, 0.0, width, height), abs=1e-9)
    png = boardgen.board("copolymer", "png", side=5, cell_mm=13, fit=True, dpi=200) \
        if name == "copolymer board" else FITTED[name]("png")
    dpi = 200 if name == "copolymer board" else 150
    image = Image.open(io.BytesIO(png))  # type: ignore[arg-type]
    assert image.size == (round(box[2] / 25.4 * dpi), round(box[3] / 25.4 * dpi))
    assert image.info["dpi"] == pytest.approx((dpi, dpi), abs=0.05)  # pixels a metre


def test_scale_bar_and_cells_keep_their_size() -> None:
    fitted = boardgen.board("copolymer", "pdf", side=5, cell_mm=13, fit=True)
    (page,) = read_pages(fitted)
    bars = ruled_bars(page)
    assert len(bars) == 1 and f"{bars[0]:.2f}" == "50.00"
    assert cell_pitch(fitted) == pytest.approx(13.0, abs=0.001)
    # The default cell (as large as the paper allows) is the same with and without --fit.
    whole = boardgen.board("o", "pdf", side=4)
    cropped = boardgen.board("o", "pdf", side=4, fit=True)
    assert cell_pitch(cropped) == pytest.approx(cell_pitch(whole), abs=0.001)
    assert "50 mm" in page.text and "13.0 mm flat to flat" in page.text


def test_polygone_fitted_keeps_its_spacing_and_bar() -> None:
    (page,) = read_pages(boardgen.board("polygone", "pdf", fit=True, cell_mm=30))
    assert [f"{bar:.2f}" for bar in ruled_bars(page)] == ["50.00"]
    assert "Neighbouring holes are 30.0 mm apart" in page.text


def test_a_board_too_large_for_the_paper_is_one_page_not_tiled() -> None:
    tiled = boardgen.board("copolymer", "pdf", side=10, cell_mm=23)
    fitted = boardgen.board("copolymer", "pdf", side=10, cell_mm=23, fit=True)
    assert len(media_box_mm(tiled)) > 1
    (box,) = media_box_mm(fitted)
    assert box[2] > 297.0  # wider than any side of A4
    assert cell_pitch(fitted) == pytest.approx(23.0, abs=0.001)


@pytest.mark.parametrize("fmt", ["pdf", "svg", "png"])
def test_identical_input_gives_identical_bytes(fmt: str) -> None:
    for make in FITTED.values():
        assert make(fmt) == make(fmt)


def test_fit_is_checked() -> None:
    with pytest.raises(boardgen.BoardgenError, match="fit: expected bool"):
        boardgen.board("o", "pdf", fit="yes")  # type: ignore[call-overload]
    with pytest.raises(boardgen.BoardgenError, match="fit and shop do not go together"):
        boardgen.board("o", "pdf", fit=True, shop="generic")
    with pytest.raises(boardgen.BoardgenError, match="use fit with any paper"):
        boardgen.board("o", "pdf", paper="fit")


def test_a_page_larger_than_a_pdf_may_have_is_refused() -> None:
    # The board and the bar, its note and the credit line under the bar, plus the margins.
    with pytest.raises(boardgen.BoardgenError, match=r"^fit: the drawing is 11987 x 10392 mm, "
                       r"more than the 5,080 mm \(200 in\)"):
        boardgen.board("copolymer", "svg", side=100, cell_mm=60, fit=True)
