"""The printed rule sheets' layout, measured from the PDFs themselves (issue 9): page budgets,
how full each text page is, the smallest text, caption ink, page numbers and bookmarks."""

from __future__ import annotations

import functools
import io

import pytest
from pypdf import PdfReader
from sheetmeasure import FOOTER_MM, PageLayout, measure, smallest_text, text_pages

from boardgen.render.paper import parse_paper
from boardgen.render.scene import THEMES
from boardgen.render.sheet import render_sheet_pdf

GAMES = ("copolymer", "o", "polygone")
PAPERS = ("a4", "letter")
# The most pages each sheet may take, its board (and Polygone's pieces) included.
PAGE_BUDGET = {"copolymer": 4, "o": 5, "polygone": 7}
MIN_FILL = 0.75  # every text page but the last is at least this full
MIN_TEXT_PT = 8.0
MIN_CAPTION_INK = 0.80  # share of black: 1 - luminance


@functools.cache
def sheet(game: str, paper: str) -> bytes:
    return render_sheet_pdf(game, paper=parse_paper(paper), theme=THEMES["colour"])


@functools.cache
def layout(game: str, paper: str) -> list[PageLayout]:
    return measure(sheet(game, paper))


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("game", GAMES)
def test_sheet_keeps_its_page_budget(game: str, paper: str) -> None:
    pages = layout(game, paper)
    assert len(pages) <= PAGE_BUDGET[game], f"{game} on {paper}: {len(pages)} pages"
    assert any(p.is_board for p in pages), "the board page is part of the budget"


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("game", GAMES)
def test_text_pages_are_full(game: str, paper: str) -> None:
    texts = text_pages(layout(game, paper))
    assert texts
    fills = [round(p.fill, 2) for p in texts]
    assert all(f >= MIN_FILL for f in fills[:-1]), f"{game} on {paper}: pages filled {fills}"


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("game", GAMES)
def test_no_text_under_8_pt_and_captions_are_dark(game: str, paper: str) -> None:
    pages = layout(game, paper)
    small = smallest_text(pages)
    assert small.size_pt >= MIN_TEXT_PT - 0.05, \
        f"{game} on {paper}: {small.text!r} at {small.size_pt:.1f} pt"
    body = [r for p in pages for r in p.runs if r.baseline_mm > FOOTER_MM]
    pale = [r for r in body if 1 - r.grey < MIN_CAPTION_INK]
    assert not pale, f"{game} on {paper}: {pale[0].text!r} prints at {1 - pale[0].grey:.0%} black"


@pytest.mark.parametrize("game", GAMES)
def test_pages_are_numbered_n_of_m_with_bookmarks(game: str) -> None:
    reader = PdfReader(io.BytesIO(sheet(game, "a4")))
    total = len(reader.pages)
    for number, page in enumerate(reader.pages, start=1):
        assert f"page {number} of {total}" in page.extract_text()
    titles = []

    def walk(items: list[object]) -> None:
        for item in items:
            if isinstance(item, list):
                walk(item)
            else:
                titles.append(item.title)  # type: ignore[attr-defined]

    walk(reader.outline)
    headings = [b for b in (reader.metadata.title or "",) if b]
    assert headings and titles[0] == headings[0]
    assert "Board" in titles and len(titles) >= 5


def test_figures_do_not_leave_gaps_on_a_sheet_built_without_floats(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The float is what fills the pages: without it the Polygone sheet breaks its budget."""
    from boardgen.render import sheet as sheet_module

    monkeypatch.setattr(sheet_module.SheetTemplate, "filterFlowables",
                        lambda self, flowables: None)
    pages = measure(render_sheet_pdf("polygone", paper=parse_paper("a4"), theme=THEMES["colour"]))
    fills = [p.fill for p in text_pages(pages)]
    assert len(pages) > PAGE_BUDGET["polygone"] or any(f < MIN_FILL for f in fills[:-1])
