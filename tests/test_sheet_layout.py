"""The printed rule sheets' layout, measured from the PDFs themselves (issue 9): page budgets,
how full each text page is, the smallest text, caption ink, page numbers and bookmarks."""

from __future__ import annotations

import functools
import io

import pytest
from pypdf import PdfReader
from sheetmeasure import FOOTER_MM, LEFT_MM, PageLayout, measure, smallest_text, text_pages

from boardgen.publish.sheet import render_sheet_pdf
from boardgen.render.paper import parse_paper
from boardgen.render.scene import THEMES

GAMES = ("copolymer", "o", "polygone")
PAPERS = ("a4", "letter")
# The most pages each sheet may take, its board (and Polygone's pieces) included.
PAGE_BUDGET = {"copolymer": 4, "o": 5, "polygone": 7}
MIN_FILL = 0.75  # every text page but the last is at least this full
MIN_TEXT_PT = 8.0
MIN_CAPTION_INK = 0.80  # share of black: 1 - luminance
PAIR_GAP_MM = 6.0


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
    body = [(k, r) for k, p in enumerate(pages) for r in p.runs if r.baseline_mm > FOOTER_MM]
    pale = [r for k, r in body if 1 - r.grey < MIN_CAPTION_INK
            and not _on_dark_ground(sheet(game, paper), k, r)]
    assert not pale, f"{game} on {paper}: {pale[0].text!r} prints at {1 - pale[0].grey:.0%} black"


def _on_dark_ground(pdf: bytes, page: int, run: object) -> bool:
    """Whether a light text is printed on a dark ground (a number on a black stone), from
    the rendered page: the ground round the text is dark."""
    import pypdfium2

    document = pypdfium2.PdfDocument(pdf)
    image = document[page].render(scale=4.0).to_pil().convert("L")
    height_mm = document[page].get_height() * 25.4 / 72
    document.close()
    px = 4.0 * 72 / 25.4
    size_mm = run.size_pt * 25.4 / 72  # type: ignore[attr-defined]
    x0 = run.x_mm  # type: ignore[attr-defined]
    x1 = x0 + 0.55 * size_mm * len(run.text)  # type: ignore[attr-defined]
    y_top = height_mm - run.baseline_mm - 0.7 * size_mm  # type: ignore[attr-defined]
    box = image.crop((int((x0 - 0.5) * px), int(y_top * px), int((x1 + 0.5) * px),
                      int((height_mm - run.baseline_mm) * px)))  # type: ignore[attr-defined]
    import numpy as np

    pixels = np.asarray(box, dtype=float)
    # Mostly darker than mid-grey: light text stands out on it.
    return pixels.size > 0 and float(np.median(pixels)) < 128


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
    from boardgen.publish import sheet as sheet_module

    monkeypatch.setattr(sheet_module.SheetTemplate, "filterFlowables",
                        lambda self, flowables: None)
    pages = measure(render_sheet_pdf("polygone", paper=parse_paper("a4"), theme=THEMES["colour"]))
    fills = [p.fill for p in text_pages(pages)]
    assert len(pages) > PAGE_BUDGET["polygone"] or any(f < MIN_FILL for f in fills[:-1])


@pytest.mark.parametrize("game", GAMES)
def test_printed_text_has_typographers_quotes(game: str) -> None:
    reader = PdfReader(io.BytesIO(sheet(game, "a4")))
    text = " ".join(page.extract_text() for page in reader.pages)
    assert "'" not in text and '"' not in text
    assert "\u2019" in text  # the apostrophes are there, curled


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("game", GAMES)
def test_headings_stand_on_the_columns_left_edge_in_one_hierarchy(game: str,
                                                                  paper: str) -> None:
    """Title, section and figure headings (bold, 10.5 pt and up, words not labels) all
    start at the text column's left edge, and figure titles are smaller than sections."""
    from boardgen.games.registry import build_diagram
    from boardgen.publish.sheet import load_sheet

    blocks = load_sheet(game)
    figure_titles = {build_diagram(game, b.args[1]).title for b in blocks if b.kind == "diagram"}
    section_titles = {b.text for b in blocks if b.kind == "heading"}
    pages = text_pages(layout(game, paper))
    headings = [r for p in pages for r in p.runs if r.size_pt >= 10.4 and len(r.text) > 3
                and r.baseline_mm > FOOTER_MM]
    assert headings
    left = max(headings, key=lambda r: r.size_pt).x_mm  # the sheet's title
    assert left == pytest.approx(LEFT_MM, abs=3.0)
    # Two figures may share a row: the second stands on the right column's edge (two
    # equal columns 6 mm apart).
    second = left + (pages[0].width_mm - 2 * left + PAIR_GAP_MM) / 2
    for run in headings:
        assert run.x_mm == pytest.approx(left, abs=0.3) or \
            (run.text in figure_titles and run.x_mm == pytest.approx(second, abs=0.3)), \
            f"{run.text!r} at {run.x_mm:.1f}"
    figures = {round(r.size_pt, 1) for r in headings if r.text in figure_titles}
    sections = {round(r.size_pt, 1) for r in headings if r.text in section_titles}
    assert len(figures) == 1 and len(sections) == 1 and max(figures) < min(sections)


@pytest.mark.parametrize("game", ["o", "polygone"])
def test_the_reconstruction_is_said_once_on_the_text_pages(game: str) -> None:
    reader = PdfReader(io.BytesIO(sheet(game, "a4")))
    pages = text_pages(layout(game, "a4"))
    said = sum(reader.pages[k].extract_text().lower().count("reconstruction")
               for k in range(len(pages)))
    assert said == 1


def test_legend_labels_sit_by_their_own_swatch() -> None:
    """Each label is nearer its own swatch than the next swatch."""
    from boardgen.games.registry import build_diagram
    from boardgen.render.diagram import legend_figure
    from boardgen.render.figure import text_box

    for game, name in (("copolymer", "tempo"), ("o", "loop"), ("polygone", "06-triangle")):
        diagram = build_diagram(game, name)
        figure = legend_figure(diagram, cell_width=8.0, max_width=180.0)
        assert figure is not None
        words = {role.legend for role in diagram.legend}
        labels = sorted((t for t in figure.texts if t.text in words), key=lambda t: t.x)
        if figure.cells:  # hex swatches: their centres and half width
            swatches = sorted((c.x - 4.0, c.x + 4.0) for c in figure.cells)
        else:  # lattice staples: one stroke group per swatch, by x extent
            xs = sorted({round(min(p[0] for p in s.points), 1) for s in figure.strokes})
            swatches = [(x, x + 8.0) for x in xs if not any(0 < x - y < 8.0 for y in xs)]
        assert len(swatches) == len(labels) >= 2, (game, swatches, labels)
        for k, label in enumerate(labels):
            x0, _, x1, _ = text_box(label)
            own = x0 - swatches[k][1]
            assert own >= 0
            if k + 1 < len(swatches):
                assert swatches[k + 1][0] - x1 > 2 * own, (game, label.text)


@pytest.mark.parametrize("game", GAMES)
def test_html_sheet_uses_the_bundled_font_and_describes_every_panel(game: str) -> None:
    import re

    from boardgen.games.registry import build_diagram
    from boardgen.publish.sheet import load_sheet, render_sheet_html

    page = render_sheet_html(game, theme=THEMES["colour"]).decode()
    assert re.search(r"@font-face \{ font-family: 'Source Sans Pro'; font-weight: 400;"
                     r"[^}]*src: url\(data:font/ttf;base64,", page)
    descriptions = re.findall(r"<desc>(.*?)</desc>", page, re.S)
    names = [b.args[1] for b in load_sheet(game) if b.kind == "diagram"]
    for name, desc in zip(names, descriptions, strict=False):
        panels = sum(len(scenes) for _, scenes in build_diagram(game, name).rows)
        assert desc.count("Panel ") == panels, (name, desc[:200])
        assert f"Panel {panels}:" in desc


def test_copolymer_text_alternative_names_every_cell_of_every_panel() -> None:
    """Checked against the example replayed on its own, through the engine's data."""
    import html
    import re

    from boardgen.games.copolymer.directives import load_example
    from boardgen.games.registry import GAMES as DESCRIPTIONS
    from boardgen.geometry import Notation
    from boardgen.publish.sheet import render_sheet_html

    page = render_sheet_html("copolymer", theme=THEMES["colour"]).decode()
    desc = html.unescape(re.findall(r"<desc>(.*?)</desc>", page, re.S)[0])
    example = load_example(DESCRIPTIONS["copolymer"].template_folder / "help-page.txt")
    name = Notation(example.grid).name
    panels = [p for line in example.lines for p in line.panels]
    said = re.split(r"Panel \d+: ", desc)[1:]
    assert len(said) == len(panels)
    for text, panel in zip(said, panels, strict=True):
        for player in ("x", "o"):
            cells = sorted((name(h) for h, p in panel.cells.items() if p == player))
            listed = re.search(rf"\b{player.upper()}: ([A-Z0-9, ]+)[;.]", text)
            assert listed and sorted(listed.group(1).split(", ")) == cells, text
    assert "to play" in desc  # whose turn it is


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("game", GAMES)
def test_no_runts_and_no_heading_at_the_foot_of_a_page(game: str, paper: str) -> None:
    from sheetmeasure import BOTTOM_MM

    for number, page in enumerate(text_pages(layout(game, paper)), start=1):
        body = [r for r in page.runs if abs(r.size_pt - 10.0) < 0.05]
        lines: dict[float, list[str]] = {}
        for run in body:
            lines.setdefault(round(run.baseline_mm, 1), []).append(run.text)
        for baseline, texts in lines.items():
            words = " ".join(texts).split()
            # A paragraph's last line of one word (bullets are their own run).
            assert not (len(words) == 1 and words[0][-1] in ".:;)"), \
                f"{game} {paper} page {number}: runt {words[0]!r} at {baseline} mm"
        for run in page.runs:
            if run.size_pt >= 10.4 and len(run.text) > 3 and run.baseline_mm > FOOTER_MM:
                assert run.baseline_mm > BOTTOM_MM + 12.0, \
                    f"{game} {paper} page {number}: {run.text!r} ends the page"
