"""The printed rule sheets' layout, measured from the PDFs themselves (issues 9 and 21): page
budgets, how full each page is, figures inside their own section and never split, no runts,
justified and hyphenated text, the smallest text, caption ink, page numbers and bookmarks.

Every rule here failed on the sheets set by hand on reportlab (main at 5566c6a), measured the
same way: see the README's table of pages and fill, before and after."""

from __future__ import annotations

import functools
import io
import re

import pytest
from pypdf import PdfReader
from sheetmeasure import (
    FOOTER_MM,
    LEFT_MM,
    Line,
    PageLayout,
    lines,
    measure,
    smallest_text,
    text_pages,
)

from boardgen.publish.typeset import render_sheet_pdf
from boardgen.render.paper import parse_paper
from boardgen.render.scene import THEMES

# Slow: left out of the quick subset (pytest -m "not slow"; the README says which).
pytestmark = pytest.mark.slow

GAMES = ("copolymer", "o", "polygone")
PAPERS = ("a4", "letter")
# The most pages each sheet may take, its board (and Polygone's pieces) included.
PAGE_BUDGET = {"copolymer": 3, "o": 4, "polygone": 6}
MIN_FILL = 0.80  # every page before the last text page is at least this full
MIN_TEXT_PT = 8.0
MIN_CAPTION_INK = 0.80  # share of black: 1 - luminance
PAIR_GAP_MM = 6.0
GUTTER_MM = 7.0  # between the two columns of a sheet on A4 or Letter
PAGE_MIDDLE_MM = 105.0  # a line starting right of this is in the second column
HYPHENS = ("-", "\u2010", "\u00ad", "\ufffe")  # pdfium reads a break's hyphen as U+FFFE


@functools.cache
def sheet(game: str, paper: str, quick: bool = False) -> bytes:
    return render_sheet_pdf(game, paper=parse_paper(paper), theme=THEMES["colour"],
                            quick=quick)


@functools.cache
def layout(game: str, paper: str) -> list[PageLayout]:
    return measure(sheet(game, paper))


@functools.cache
def page_lines(game: str, paper: str, quick: bool = False) -> list[Line]:
    return lines(sheet(game, paper, quick))


def _plain(text: str) -> str:
    """Text as typed in the sources: straight quotes, plain spaces, no markup."""
    text = re.sub(r"[*`]", "", text)
    return " ".join(text.translate(str.maketrans("\u2018\u2019\u201c\u201d\u00a0",
                                                 "''\"\" ")).split())


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("game", GAMES)
def test_sheet_keeps_its_page_budget(game: str, paper: str) -> None:
    pages = layout(game, paper)
    assert len(pages) <= PAGE_BUDGET[game], f"{game} on {paper}: {len(pages)} pages"
    assert any(p.is_board for p in pages), "the board page is part of the budget"


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("game", GAMES)
def test_pages_before_the_last_text_page_are_full(game: str, paper: str) -> None:
    """Every page before the sheet's last text page is at least 80 % full; the last text page
    may be short because the board comes next on a page of its own."""
    pages = layout(game, paper)
    texts = text_pages(pages)
    assert texts and len(texts) < len(pages) and pages[len(texts)].is_board
    fills = [round(p.fill, 2) for p in texts]
    assert all(f >= MIN_FILL for f in fills[:-1]), f"{game} on {paper}: pages filled {fills}"


def _reading_key(line: Line) -> tuple[int, int, float]:
    """Where a line is read: its page, its column (a line starting right of the page's
    middle is in the second; A4 and Letter sheets are set in two), then down the column."""
    return line.page, int(line.x0_mm > PAGE_MIDDLE_MM), -line.baseline_mm


def _find(found: list[Line], start: str, where: str) -> Line:
    for line in found:
        if _plain(line.text).startswith(start):
            return line
    raise AssertionError(f"{where}: {start!r} is not on the sheet")


def _joined_pages(found: list[Line]) -> list[tuple[Line, str]]:
    """Each line with the text from it on, joined across line ends (a hyphenated word
    joined again), to find a caption that starts on that line."""
    out = []
    texts = [_plain(line.text) for line in found]
    for k, line in enumerate(found):
        tail = ""
        for text in texts[k:k + 4]:
            tail = tail[:-1] + text if tail.endswith(HYPHENS) else f"{tail} {text}".strip()
        out.append((line, tail))
    return out


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("game", GAMES)
def test_figures_stay_in_their_section_and_are_not_split(game: str, paper: str) -> None:
    """Each diagram's title stands after the diagram's own section heading, and no later
    than the page after the next section's heading (a figure across both columns stands at
    the top or foot of a page, as in a book); every panel's caption on the title's page
    (or under a "(continued)" title)."""
    from boardgen.publish.sheet import _sheet_diagram, load_sheet

    found = [line for line in page_lines(game, paper) if line.baseline_mm > FOOTER_MM]
    joined = _joined_pages(found)
    blocks = load_sheet(game)
    headings = [_find(found, _plain(b.text), f"{game} {paper}") for b in blocks
                if b.kind == "heading"]
    section = -1
    for block in blocks:
        if block.kind == "heading":
            section += 1
            continue
        if block.kind != "diagram":
            continue
        diagram = _sheet_diagram(game, block.args[1])
        where = f"{game} on {paper}, {diagram.title!r}"
        title = _find(found, _plain(diagram.title)[:30], where)
        last_page = headings[section + 1].page + 1 if section + 1 < len(headings) else 10**6
        # After its heading: on a later page, or below it in its column, or (a figure
        # across both columns, at the top or foot of the page) in the other column's span.
        if section >= 0:
            heading = headings[section]
            assert title.page > heading.page or (title.page == heading.page and (
                _reading_key(title)[1] != _reading_key(heading)[1] or
                title.baseline_mm < heading.baseline_mm)), f"{where}: title before its section"
        assert title.page <= last_page, f"{where}: title far after its section"
        continued = {line.page for line in found if "(continued)" in line.text}
        for _, scenes in diagram.rows:
            for scene in scenes:
                start = _plain(scene.caption or "")[:24]
                if not start:
                    continue
                # The first such caption after the title: two pictures may share one.
                line = next((ln for ln, tail in joined if start in tail
                             and ln.page >= title.page), None)
                assert line is not None, f"{where}: caption {start!r} not found"
                assert line.page == title.page or line.page in continued, \
                    f"{where}: the panel {start!r} is on page {line.page}, its title on " \
                    f"page {title.page}"


def _words_last_lines(found: list[Line]) -> list[Line]:
    """Lines of running text, captions, notes and figure texts (outside the footer)."""
    return [line for line in found if line.baseline_mm > FOOTER_MM]


@pytest.mark.parametrize("quick", [False, True])
@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("game", GAMES)
def test_no_runts_in_text_or_captions(game: str, paper: str, quick: bool) -> None:
    """No line of the text pages is one short word closing a sentence ("cells.", "9.",
    "B4."); the board pages print the board's own labels, turned with it."""
    text = 1 if quick else len(text_pages(layout(game, paper)))
    for line in _words_last_lines(page_lines(game, paper, quick)):
        if line.page > text:
            continue
        words = line.text.split()
        assert not (len(words) == 1 and len(words[0]) <= 12 and words[0][-1] in ".:;)!?"), \
            f"{game} {paper} page {line.page}: runt {line.text!r}"


def _paragraph_lines(found: list[Line]) -> list[list[Line]]:
    """Body lines (the commonest size) cut into paragraphs: consecutive lines in the page's
    own order, each about one leading below the last, sharing the paragraph's left edge."""
    size = _body_size(found)
    body = [line for line in found if abs(line.size_pt - size) < 0.05
            and line.baseline_mm > FOOTER_MM]
    # The line pitch: the commonest step from one body line down to the next.
    steps = sorted(a.baseline_mm - b.baseline_mm for a, b in zip(body, body[1:], strict=False)
                   if a.page == b.page and 3.0 < a.baseline_mm - b.baseline_mm < 8.0)
    pitch = steps[len(steps) // 2] if steps else 4.5
    paragraphs: list[list[Line]] = []
    for line in body:
        last = paragraphs[-1][-1] if paragraphs else None
        if last is not None and last.page == line.page and \
                3.0 < last.baseline_mm - line.baseline_mm < pitch + 0.4 and \
                abs(last.x0_mm - line.x0_mm) < 5.0 and not line.text.startswith("•"):
            paragraphs[-1].append(line)
        else:
            paragraphs.append([line])
    return paragraphs


def _body_size(found: list[Line]) -> float:
    """The size most of the characters are set in."""
    counts: dict[float, int] = {}
    for line in found:
        counts[round(line.size_pt, 1)] = counts.get(round(line.size_pt, 1), 0) + len(line.text)
    return max(counts, key=lambda size: counts[size])


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("game", GAMES)
def test_text_is_justified_and_hyphenated(game: str, paper: str) -> None:
    """Every line of a paragraph but its last ends at the same right edge (within 0.8 mm:
    a hyphen or a comma may hang a little into the margin, as in print)."""
    found = page_lines(game, paper)
    paragraphs = [p for p in _paragraph_lines(found) if len(p) >= 2]
    assert len(paragraphs) >= 3
    for paragraph in paragraphs:
        ends = sorted(line.x1_mm for line in paragraph[:-1])
        edge = ends[len(ends) // 2]
        for line in paragraph[:-1]:
            assert line.x1_mm == pytest.approx(edge, abs=0.8), \
                f"{game} {paper} page {line.page}: ragged line {line.text!r} ends at " \
                f"{line.x1_mm:.1f} mm, the paragraph at {edge:.1f} mm"


def test_words_are_hyphenated_where_it_helps() -> None:
    """The setter hyphenates (English patterns): across the sheets, some line ends in a
    hyphenated word (how many depends on the prose; a sheet may need none)."""
    hyphenated = [line for game in GAMES for paper in PAPERS
                  for line in _words_last_lines(page_lines(game, paper))
                  if line.text.endswith(HYPHENS)]
    assert hyphenated, "no word is hyphenated on any sheet"


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
    assert any("board" in t.lower() for t in titles) and len(titles) >= 5


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
    """Title, section and figure headings all start at a text column's left edge (the
    first column's, or the second's, 7 mm right of the page's middle), and figure titles
    are smaller than sections."""
    from boardgen.publish.sheet import _sheet_diagram, load_sheet

    blocks = load_sheet(game)
    figure_titles = {_plain(_sheet_diagram(game, b.args[1]).title) for b in blocks
                     if b.kind == "diagram"}
    section_titles = {_plain(b.text) for b in blocks if b.kind == "heading"}
    pages = text_pages(layout(game, paper))
    named = figure_titles | section_titles | {_plain(load_sheet(game)[0].text)}
    headings = [line for line in page_lines(game, paper) if _plain(line.text) in named and
                line.baseline_mm > FOOTER_MM and line.page <= len(pages)]
    assert len(headings) >= len(section_titles)
    left = max(headings, key=lambda r: r.size_pt).x0_mm  # the sheet's title
    assert left == pytest.approx(LEFT_MM, abs=1.0)
    second = pages[0].width_mm / 2 + GUTTER_MM / 2
    for run in headings:
        assert run.x0_mm == pytest.approx(left, abs=0.6) or \
            run.x0_mm == pytest.approx(second, abs=0.6), f"{run.text!r} at {run.x0_mm:.1f}"
    figures = {round(r.size_pt, 1) for r in headings if _plain(r.text) in figure_titles}
    sections = {round(r.size_pt, 1) for r in headings if _plain(r.text) in section_titles}
    assert len(figures) == 1 and len(sections) == 1 and max(figures) < min(sections)


@pytest.mark.parametrize("game", ["o", "polygone"])
def test_the_reconstruction_is_said_once_on_the_text_pages(game: str) -> None:
    reader = PdfReader(io.BytesIO(sheet(game, "a4")))
    pages = text_pages(layout(game, "a4"))
    said = sum(reader.pages[k].extract_text().lower().replace("\xad\n", "")
               .count("reconstruction")
               for k in range(len(pages)))
    assert said == 1


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("game", GAMES)
def test_quick_reference_is_one_page(game: str, paper: str) -> None:
    assert len(PdfReader(io.BytesIO(sheet(game, paper, True))).pages) == 1


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
        assert ".." not in desc, (name, desc[:200])


def test_copolymer_text_alternative_names_every_cell_of_every_panel() -> None:
    """Checked against the example replayed on its own, through the engine's data."""
    import html

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
def test_no_heading_at_the_foot_of_a_page(game: str, paper: str) -> None:
    from sheetmeasure import BOTTOM_MM

    for number, page in enumerate(text_pages(layout(game, paper)), start=1):
        for run in page.runs:
            if run.size_pt >= 10.4 and len(run.text) > 3 and run.baseline_mm > FOOTER_MM:
                assert run.baseline_mm > BOTTOM_MM + 12.0, \
                    f"{game} {paper} page {number}: {run.text!r} ends the page"
