"""The rule sheets and quick references set as a rulebook (issue 32), measured from the PDFs:
a comfortable measure, justified word spaces neither squeezed nor stretched, short ragged
captions that are never hyphenated, one key per sheet, four type sizes, nothing for the
command line on paper, quick references that use their page.

Every rule here fails on the sheets of main at f4fc8bd (one 190 mm column of 10 pt: a
median of 123-134 characters a line, word spaces from 0.135 to 0.45 em, centred and
hyphenated captions, the Copolymer key three times, seven sizes, "boardgen 0.1.0" in every
footer, quick references 64-97 mm short of their foot)."""

from __future__ import annotations

import functools
import io
import re
import statistics

import pytest
from pypdf import PdfReader
from sheetmeasure import Line, lines, measure, text_pages, word_spaces

from boardgen.publish.sheet import _sheet_diagram, load_sheet
from boardgen.publish.typeset import render_sheet_pdf
from boardgen.render.paper import parse_paper
from boardgen.render.scene import THEMES

# Slow: left out of the quick subset (pytest -m "not slow"; the README says which).
pytestmark = pytest.mark.slow

GAMES = ("copolymer", "o", "polygone")
PAPERS = ("a4", "letter", "a5")  # two columns on the first two, one on the booklet's A5
KINDS = (False, True)  # the full sheet, the quick reference
FOOTER_MM = 15.0  # text whose baseline is lower than this (from the page's foot) is furniture
CAPTION_SPLIT_MM = 2.0  # two captions side by side are at least this far apart
MEASURE = (45, 85)  # median characters a line of body text
WORD_SPACE_EM = (0.15, 0.35)
MAX_SIZES = 4
QUICK_FILL = 0.85
MAX_CAPTION_LINES = 3
HYPHENS = ("-", "\u2010", "\u00ad", "\ufffe")  # pdfium reads a break's hyphen as U+FFFE


@functools.cache
def sheet(game: str, paper: str, quick: bool) -> bytes:
    return render_sheet_pdf(game, paper=parse_paper(paper), theme=THEMES["colour"],
                            quick=quick)


@functools.cache
def text_page_count(game: str, paper: str, quick: bool) -> int:
    return len(text_pages(measure(sheet(game, paper, quick))))


def _reading(game: str, paper: str, quick: bool, split_mm: float | None = None) -> list[Line]:
    """The lines of the text pages (boards aside), the footer aside."""
    pages = text_page_count(game, paper, quick)
    return [line for line in lines(sheet(game, paper, quick), split_mm)
            if line.page <= pages and line.baseline_mm > FOOTER_MM]


def _body_size(found: list[Line]) -> float:
    counts: dict[float, int] = {}
    for line in found:
        size = round(line.size_pt, 1)
        counts[size] = counts.get(size, 0) + len(line.text)
    return max(counts, key=lambda size: counts[size])


def _normal(text: str) -> str:
    text = re.sub(r"[*`]", "", text)
    text = text.translate(str.maketrans("\u2018\u2019\u201c\u201d\u00a0", "''\"\" "))
    return " ".join(text.split())


def _diagrams(game: str, quick: bool) -> list[object]:
    return [_sheet_diagram(game, b.args[1], quick) for b in load_sheet(game, quick)
            if b.kind == "diagram"]


@pytest.mark.parametrize("quick", KINDS)
@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("game", GAMES)
def test_the_measure_is_comfortable(game: str, paper: str, quick: bool) -> None:
    """Body text (the commonest size, lines of four words or more) runs a median of 45-85
    characters a line."""
    found = _reading(game, paper, quick)
    size = _body_size(found)
    body = [len(line.text) for line in found
            if round(line.size_pt, 1) == size and len(line.text.split()) >= 4]
    median = statistics.median(body)
    assert MEASURE[0] <= median <= MEASURE[1], f"{game} {paper}: {median} characters a line"


@pytest.mark.parametrize("quick", KINDS)
@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("game", GAMES)
def test_justified_word_spaces_stay_within_limits(game: str, paper: str, quick: bool) -> None:
    """On every justified line of body text (one reaching a right edge that five or more
    body lines share; last lines of paragraphs aside), each word space measures 0.15-0.35 em
    from one character's origin to the next (a bullet's indent aside)."""
    pages = text_page_count(game, paper, quick)
    found = [s for s in word_spaces(sheet(game, paper, quick)) if s.page <= pages]
    counts: dict[float, int] = {}
    for line in found:
        counts[round(line.size_pt, 1)] = counts.get(round(line.size_pt, 1), 0) + len(line.text)
    size = max(counts, key=lambda s: counts[s])
    body = [s for s in found if round(s.size_pt, 1) == size and s.spaces_em]
    edges: dict[int, int] = {}
    for line in body:
        edges[round(line.x1_mm)] = edges.get(round(line.x1_mm), 0) + 1
    right = [edge for edge, count in edges.items() if count >= 5]
    justified = [s for s in body if any(abs(s.x1_mm - edge) < 1.2 for edge in right)]
    assert justified or quick, f"{game} {paper}: no justified line found"
    for line in justified:
        spaces = line.spaces_em[1:] if line.text.startswith("•") else line.spaces_em
        for space in spaces:
            assert WORD_SPACE_EM[0] <= space <= WORD_SPACE_EM[1], \
                f"{game} {paper} page {line.page}: a {space:.3f} em space in {line.text!r}"


def _caption_lines(game: str, paper: str, quick: bool) -> list[tuple[str, list[Line]]]:
    """Each panel caption with the lines it is set on (found by their text: a line whose
    words are a stretch of the caption's, in order)."""
    found = [line for line in _reading(game, paper, quick, CAPTION_SPLIT_MM)
             if len(line.text) > 2]
    out = []
    for diagram in _diagrams(game, quick):
        for _, scenes in diagram.rows:  # type: ignore[attr-defined]
            for scene in scenes:
                # A caption of a word ('After.', a panel whose move is told under the
                # panel before) sets on one line: nothing to hyphenate or rag.
                if not scene.caption or len(_normal(scene.caption)) < 8:
                    continue
                caption = _normal(scene.caption)
                mine = [line for line in found
                        if len(_normal(line.text).rstrip("".join(HYPHENS))) >= 8 and
                        _normal(line.text).rstrip("".join(HYPHENS)) in caption]
                out.append((caption, mine))
    return out


@pytest.mark.parametrize("quick", KINDS)
@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("game", GAMES)
def test_captions_are_ragged_and_never_hyphenated(game: str, paper: str, quick: bool) -> None:
    """No caption line ends in a hyphen the setter added, and the lines of one caption start
    at one left edge (ragged right, not centred)."""
    captions = _caption_lines(game, paper, quick)
    assert captions
    for caption, found in captions:
        assert found, f"{game} {paper}: caption {caption[:30]!r} not found"
        for line in found:
            text = line.text.rstrip()
            # A line may end at a word's own hyphen ("five-" / "sided"), never at one the
            # setter added inside a word.
            own = _normal(text[:-1]) + "-" in caption
            assert not (text.endswith(HYPHENS) and not own), \
                f"{game} {paper}: caption line ends in a hyphen: {text!r}"
        # Lines of the same caption near each other (one panel), by page.
        by_page: dict[int, list[Line]] = {}
        for line in found:
            by_page.setdefault(line.page, []).append(line)
        for page_lines in by_page.values():
            page_lines.sort(key=lambda line: -line.baseline_mm)
            for upper, lower in zip(page_lines, page_lines[1:], strict=False):
                # The next line down under the same panel (their spans overlap).
                if 0 < upper.baseline_mm - lower.baseline_mm < 5.0 and \
                        lower.x0_mm < upper.x1_mm and lower.x1_mm > upper.x0_mm:
                    assert abs(upper.x0_mm - lower.x0_mm) < 0.3, \
                        f"{game} {paper}: caption lines {upper.text!r} and {lower.text!r} " \
                        f"start at {upper.x0_mm:.1f} and {lower.x0_mm:.1f} mm (centred?)"


def _blocks(found: list[Line]) -> list[list[Line]]:
    """Lines found for one caption, in blocks set one under the other (same page, spans that
    overlap, baselines under 5 mm apart): a stretch of words two captions share may be found
    under the other's panel too, but never in the block of the caption itself."""
    blocks: list[list[Line]] = []
    for line in sorted(found, key=lambda line: (line.page, -line.baseline_mm)):
        last = blocks[-1][-1] if blocks else None
        if last is not None and last.page == line.page and \
                0 < last.baseline_mm - line.baseline_mm < 5.0 and \
                line.x0_mm < last.x1_mm and line.x1_mm > last.x0_mm:
            blocks[-1].append(line)
        else:
            blocks.append([line])
    return blocks


def _own_block(found: list[Line]) -> list[Line]:
    """The block that sets the caption itself: the one holding the most of its text."""
    return max(_blocks(found), key=lambda block: sum(len(line.text) for line in block))


def _set_lines(caption: str, found: list[Line]) -> int:
    """How many lines a caption is set on: its longest block of lines found by their text,
    and one more when they do not cover the caption (a last line too short to be found)."""
    block = _own_block(found)
    said = sum(len(_normal(line.text)) + 1 for line in block)
    return len(block) + (1 if said < len(caption) - 1 else 0)


@pytest.mark.parametrize("quick", KINDS)
@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("game", ("o", "polygone"))  # Copolymer's engine captions: not yet
def test_captions_are_short(game: str, paper: str, quick: bool) -> None:
    """A caption is set on at most three lines: reasoning belongs in the body text."""
    for caption, found in _caption_lines(game, paper, quick):
        count = _set_lines(caption, found)
        assert count <= MAX_CAPTION_LINES, \
            f"{game} {paper}: caption set on {count} lines: {caption!r}"


@pytest.mark.parametrize("quick", KINDS)
@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("game", GAMES)
def test_no_caption_sentence_starts_lower_case(game: str, paper: str, quick: bool) -> None:
    """Every sentence of a caption, as the page sets it, starts with a capital or a digit
    ("Cell c4 is blocked.", "Backwards: b7 and d9."), never with a lower-case hole name."""
    for _caption, found in _caption_lines(game, paper, quick):
        text = " ".join(_normal(line.text) for line in _own_block(found))
        for sentence in re.split(r"(?<=[.!?])\s+", text):
            assert not sentence[:1].islower(), \
                f"{game} {paper}: a caption sentence starts lower-case: {sentence!r}"


@pytest.mark.parametrize("quick", KINDS)
@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("game", GAMES)
def test_each_key_is_given_once_per_sheet(game: str, paper: str, quick: bool) -> None:
    """Every sentence of a key note ("Circled: the pivot.") and every key label of three
    words or more is printed at most once on the sheet's text pages."""
    pages = text_page_count(game, paper, quick)
    reader = PdfReader(io.BytesIO(sheet(game, paper, quick)))
    text = _normal(" ".join(reader.pages[k].extract_text().replace("\xad\n", "")
                            .replace("\ufffe\n", "") for k in range(pages)))
    keys: set[str] = set()
    for diagram in _diagrams(game, quick):
        if diagram.legend_note:  # type: ignore[attr-defined]
            note = _normal(diagram.legend_note)  # type: ignore[attr-defined]
            keys.update(re.split(r"(?<=\.) (?=[A-Z])", note))
        keys.update(_normal(role.legend) for role in diagram.legend  # type: ignore[attr-defined]
                    if len(role.legend.split()) >= 3)
    assert keys
    for key in keys:
        # A caption may use the words after a cell's name ("A1: a stone may go here."):
        # that is not the key.
        times = len(re.findall(r"(?<!: )" + re.escape(key), text))
        assert times <= 1, f"{game} {paper}: the key {key!r} {times} times"


@pytest.mark.parametrize("quick", KINDS)
@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("game", GAMES)
def test_at_most_four_type_sizes(game: str, paper: str, quick: bool) -> None:
    """Running text, headings, captions and keys (lines with a word of three letters or
    more: the diagrams' coordinates and numbers aside) come in at most four sizes."""
    sizes = {round(line.size_pt * 2) / 2 for line in _reading(game, paper, quick)
             if re.search(r"[A-Za-z]{3}", line.text)}
    assert len(sizes) <= MAX_SIZES, f"{game} {paper}: sizes {sorted(sizes)}"


@pytest.mark.parametrize("paper", PAPERS)
def test_figure_titles_are_one_size_on_sheets_and_quick_references(paper: str) -> None:
    """Every figure title, on every sheet and quick reference, is set at one size: the body
    text's (bold), never a section heading's."""
    sizes: dict[float, list[str]] = {}
    for game in GAMES:
        for quick in KINDS:
            found = _reading(game, paper, quick)
            titles = {_normal(d.title) for d in _diagrams(game, quick)}  # type: ignore[attr-defined]
            body = _body_size(found)
            for line in found:
                if _normal(line.text) in titles:
                    sizes.setdefault(round(line.size_pt, 1), []).append(line.text)
                    assert round(line.size_pt, 1) == body, \
                        f"{game} {paper}: {line.text!r} at {line.size_pt:.1f} pt, body {body}"
    assert len(sizes) == 1, sizes


@pytest.mark.parametrize("quick", KINDS)
@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("game", GAMES)
def test_no_command_line_text_or_version_on_paper(game: str, paper: str, quick: bool) -> None:
    for number, page in enumerate(PdfReader(io.BytesIO(sheet(game, paper, quick))).pages, 1):
        text = page.extract_text()
        assert "--" not in text, f"{game} {paper} page {number}: {text!r}"
        assert not re.search(r"\b\d+\.\d+\.\d+\b", text), f"{game} {paper} page {number}"
        assert "boardgen " not in text.replace("boardgen’s", ""), f"{game} {paper} page {number}"


@pytest.mark.parametrize("quick", KINDS)
@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("game", GAMES)
def test_no_word_is_hyphenated_across_a_page_turn(game: str, paper: str, quick: bool) -> None:
    """The running text of a page (its footer aside) never ends in a hyphen: a reader does
    not turn the page in the middle of a word."""
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(sheet(game, paper, quick))
    for number in range(len(doc) - 1):
        body = doc[number].get_textpage().get_text_bounded(bottom=FOOTER_MM * 72 / 25.4)
        last = body.replace("\r", "").strip().splitlines()[-1]
        assert not last.endswith(("\u0002", *HYPHENS)), \
            f"{game} {paper} page {number + 1} ends in a hyphen: {last!r}"


@pytest.mark.parametrize("quick", KINDS)
@pytest.mark.parametrize("paper", PAPERS)
def test_a_copyright_is_never_broken_across_lines(paper: str, quick: bool) -> None:
    """"© 2006 Mark" is set on one line, wherever it falls."""
    found = [line.text for line in lines(sheet("copolymer", paper, quick)) if "©" in line.text]
    assert found, f"copolymer {paper}: no copyright line"
    for text in found:
        assert "© 2006 Mark" in _normal(text), \
            f"copolymer {paper}: {text!r}"


@pytest.mark.parametrize("paper", ("a4", "letter"))
@pytest.mark.parametrize("game", ("copolymer", "o"))
def test_the_room_under_a_board_holds_the_cells_for_other_pieces(game: str, paper: str) -> None:
    """Under the board, the cells each common piece needs and how large the whole board
    prints with them: Go stones need 23 mm cells, the board scaled from this page's."""
    reader = PdfReader(io.BytesIO(sheet(game, paper, False)))
    text = " ".join(reader.pages[-1].extract_text().split())
    assert "Cells for other pieces" in text, text[-400:]
    cell = float(re.search(r"Each cell is (\d+\.\d) mm flat to flat", text).group(1))  # type: ignore[union-attr]
    found = re.search(r"Go stones 23 mm (\d+) × (\d+) mm", text)
    assert found, text[-400:]
    # A board of this page's cells scaled to 23 mm: larger by exactly that ratio.
    assert int(found.group(1)) > 23.0 / cell * 150.0, found.group(0)


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("game", ("copolymer", "o"))
def test_a_printed_board_is_playable_or_sent_to_larger_paper(game: str, paper: str) -> None:
    """A board page's cells take at least an 8 mm bead (9 mm cells); where the paper cannot
    give that (Copolymer on A5), the sheet prints no board and says to print it larger."""
    reader = PdfReader(io.BytesIO(sheet(game, paper, False)))
    text = " ".join(" ".join(page.extract_text() for page in reader.pages).split())
    cells = [float(m) for m in re.findall(r"Each cell is (\d+\.\d) mm flat to flat", text)]
    if cells:
        assert min(cells) >= 9.0, f"{game} {paper}: {cells} mm cells"
    else:
        assert "Print the board on its own on A4 or Letter paper" in text, text[-300:]


@pytest.mark.parametrize("paper", ("a4", "letter"))
def test_the_polygone_pieces_page_holds_the_tracker_under_its_heading(paper: str) -> None:
    """The pieces' page also holds the capture tracker (two players' boxes), and the
    pieces' instructions start close under the page's heading, not half-way down."""
    found = lines(sheet("polygone", paper, False))
    last = max(line.page for line in found)
    page = [line for line in found if line.page == last]
    text = " ".join(line.text for line in page)
    assert "Capture tracker" in text and text.count("has captured") == 2, text
    (heading,) = [line for line in page if line.text.startswith("Pieces to print")]
    (words,) = [line for line in page if line.text.startswith("Pieces for a board")]
    gap = heading.baseline_mm - words.baseline_mm
    assert gap <= 30.0, f"{paper}: the pieces' words start {gap:.0f} mm under the heading"


@pytest.mark.parametrize("paper", ("a4", "letter"))
@pytest.mark.parametrize("game", GAMES)
def test_quick_references_use_their_page(game: str, paper: str) -> None:
    (page,) = measure(sheet(game, paper, True))
    assert page.fill >= QUICK_FILL, f"{game} {paper}: {page.fill:.0%} full"


def test_the_version_stays_in_the_metadata() -> None:
    from boardgen._version import __version__

    reader = PdfReader(io.BytesIO(sheet("o", "a4", False)))
    xmp = reader.xmp_metadata
    assert xmp is not None and f"boardgen {__version__}" in str(xmp.pdf_keywords)
