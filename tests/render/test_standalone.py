"""Standalone diagrams and boards print as the rule sheets do (issue 23): curly apostrophes,
captions and labels at 82 % black, a number never parted from its unit, and a diagram
centred on its page.  Measured from the PDFs."""

from __future__ import annotations

import io
import re

import numpy as np
import pypdfium2
import pytest
from pypdf import PdfReader
from sheetmeasure import FOOTER_MM, measure

from boardgen.games.polygone.game import POLYGONE
from boardgen.publish.drawing import render_diagram
from boardgen.render.lattice import render_fixed_board
from boardgen.render.paper import parse_paper
from boardgen.render.scene import THEMES

A4 = parse_paper("a4")
DIAGRAMS = [("polygone", "03-blocking"), ("polygone", "10-two-polygons"),
            ("copolymer", "tempo"), ("o", "loop"), ("o", "short-game")]


def _diagram(game: str, name: str, theme: str = "colour") -> bytes:
    return render_diagram(game, name, "pdf", paper=A4, theme=THEMES[theme])


def _board() -> bytes:
    board = POLYGONE.fixed_board
    assert board is not None
    return render_fixed_board(board, "pdf", paper=A4, theme=THEMES["colour"], spacing=None,
                              dpi=150, info=POLYGONE.board_info())


def _text(pdf: bytes) -> str:
    return " ".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages)


@pytest.mark.parametrize(("game", "name"), DIAGRAMS)
def test_diagrams_print_curly_apostrophes(game: str, name: str) -> None:
    text = _text(_diagram(game, name))
    assert "'" not in text and '"' not in text


def test_the_polygone_board_prints_curly_apostrophes_and_keeps_units() -> None:
    text = _text(_board())
    assert "'" not in text and "\u2019s goal" in text
    # Every number with its unit on one line ("38.0 / mm" was broken across two).
    for page in PdfReader(io.BytesIO(_board())).pages:
        lines = page.extract_text().splitlines()
        assert not [line for line in lines if line.strip().startswith("mm")], lines


@pytest.mark.parametrize("theme", ["colour", "colourblind"])
@pytest.mark.parametrize(("game", "name"), DIAGRAMS[:3])
def test_captions_and_labels_print_at_82_percent_black(game: str, name: str,
                                                       theme: str) -> None:
    pages = measure(_diagram(game, name, theme))
    body = [r for p in pages for r in p.runs if r.baseline_mm > FOOTER_MM]
    # Light text only on a dark stone: the numbers on stones, measured in test_print_safety.
    pale = [r for r in body if 1 - r.grey < 0.80 and not r.text.isdigit()]
    assert not pale, [(r.text, round(1 - r.grey, 2)) for r in pale[:5]]


@pytest.mark.parametrize(("game", "name"), DIAGRAMS)
def test_a_diagram_is_centred_on_its_page(game: str, name: str) -> None:
    """The ink between the header and the footer is centred both ways (to 3 mm)."""
    pdf = _diagram(game, name)
    document = pypdfium2.PdfDocument(pdf)
    page = document[0]
    width_mm, height_mm = page.get_width() * 25.4 / 72, page.get_height() * 25.4 / 72
    image = np.asarray(page.render(scale=2.0).to_pil().convert("L"))
    document.close()
    px = image.shape[1] / width_mm
    top, bottom = 12.0 + 10.0, 12.0 + 17.0  # the header and the footer bands (mm)
    band = image[int(top * px):int((height_mm - bottom) * px), int(15.0 * px):]
    rows = np.nonzero((band < 200).any(axis=1))[0]
    columns = np.nonzero((band < 200).any(axis=0))[0]
    ink_x = 15.0 + (columns[0] + columns[-1]) / 2 / px
    ink_y = top + (rows[0] + rows[-1]) / 2 / px
    # The room the board furniture leaves: from the bar's band (15 mm) to the right margin.
    assert ink_x == pytest.approx((15.0 + width_mm - 12.0) / 2, abs=3.0), (game, name)
    if len(re.findall(r"page \d+ of", _text(pdf))) <= 1:  # one page: centred down it too
        assert ink_y == pytest.approx((top + height_mm - bottom) / 2, abs=3.0), (game, name)


# --- numbers on stones keep their own ink, whoever reads the SVG ---------------------------


def _effective_fills(svg: str) -> list[str]:
    """The fill each ``cell-text`` element gets by CSS precedence (an inline style beats the
    style sheet's class rule, which beats a ``fill`` attribute), as a browser or Typst reads
    it; cairosvg is more lenient, so the PNG alone would not show a number lost."""
    sheet = re.search(r"\.cell-text[^{]*\{fill:\s*([^;}]+)", svg)
    fills = []
    for element in re.finditer(r'<(?:g|text) class="cell-text"([^>]*)>', svg):
        inline = re.search(r'style="[^"]*fill:\s*([^;"]+)', element.group(1))
        attribute = re.search(r' fill="([^"]+)"', element.group(1))
        fills.append(inline.group(1) if inline else sheet.group(1) if sheet
                     else attribute.group(1) if attribute else "#000000")
    return fills


@pytest.mark.parametrize("text_as", ["outlines", "text"])
def test_numbers_on_dark_stones_print_light_in_every_reader(text_as: str) -> None:
    import boardgen
    from boardgen.render.diagram import diagram_pages
    from boardgen.render.svg import render_svg

    (page,) = diagram_pages(boardgen.diagram("o", "short-game"), cell_width=8.0,
                            max_width=180.0, max_height=None)
    svg = render_svg(page, theme=THEMES["colour"], text_as=text_as)
    fills = _effective_fills(svg)
    # Stones 1 to 13 are numbered; each number is light on its dark stone.
    assert len(fills) == 13
    assert all(fill.lower() in {"#ffffff", "#fff", "white"} for fill in fills), fills
