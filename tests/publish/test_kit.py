"""Print-and-play kits and the printer check (issue 23), measured from the PDFs themselves:
a kit's parts by their bookmarks and each page by what it draws; the printer check's bars,
square, cells and grey steps from its vectors and pixels."""

from __future__ import annotations

import functools
import io
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pypdfium2
import pytest
from pdfdata import (
    PageVectors,
    read_pages,
    ruled_bars,
    ruled_vertical_bars,
    scale_bars,
    structure_elements,
    vertical_scale_bars,
)
from pypdf import PdfReader

from boardgen.geometry import hexhex
from boardgen.render.paper import parse_paper
from boardgen.render.scene import THEMES

# Slow: left out of the quick subset (pytest -m "not slow"; the README says which).
pytestmark = pytest.mark.slow

GAMES = ("copolymer", "o", "polygone")
# What each kit holds, part by part (top-level bookmarks: the parts' headings).  Small parts
# are folded onto pages with room: the note on pens after the sheet's text, the tracker
# beside the pieces.
PARTS = {
    "copolymer": ["Copolymer", "Copolymer: playing with pens", "Copolymer: quick reference",
                  "Copolymer: board, side 5 (small)", "Copolymer: board, side 7 (medium)",
                  "Copolymer: board, side 10 (large)"],
    "o": ["O", "O: quick reference", "O: board, side 6", "O: stones to cut out"],
    "polygone": ["Polygone", "Polygone: quick reference", "Polygone: board and pieces",
                 "Polygone: capture tracker"],
}


@functools.cache
def kit(game: str, paper: str = "a4", theme: str = "colour") -> bytes:
    from boardgen.publish.kit import render_kit

    return render_kit(game, paper=parse_paper(paper), theme=THEMES[theme])


def _parts(pdf: bytes) -> list[tuple[str, list[int]]]:
    """The kit's top-level bookmarks and the pages (from 0) each part runs over."""
    reader = PdfReader(io.BytesIO(pdf))
    tops = [(item.title.replace("\u00a0", " "), reader.get_destination_page_number(item))
            for item in reader.outline if not isinstance(item, list)]
    ends = [start for _, start in tops[1:]] + [len(reader.pages)]
    # A part folded onto the page the part before it ends on shares that page.
    return [(title, list(range(start, max(end, start + 1))))
            for (title, start), end in zip(tops, ends, strict=True)]


def _is_board_page(page: PageVectors) -> bool:
    # Our writer tags its bars; Typst (the kit) cannot: found by their shape.
    return bool(scale_bars(page) or ruled_bars(page)) and "100 %" in page.text


def _kind(page: PageVectors) -> str:
    """What a page is, from what it prints (a no-break space read as a space: Typst ties a
    sheet's last words)."""
    text = page.text.replace("\u00a0", " ")
    if "quick reference" in text:
        return "quick reference"
    if "Stones for a board" in text:
        return "stones"
    if "Pieces for a board" in text:
        return "pieces"
    if _is_board_page(page) and (page.hexagons or "holes are" in text):
        return "board"
    if re.search(r"page \d+ of \d+", text):
        return "rules"
    return "unknown"


EXPECTED_KINDS = {
    "copolymer": ["rules", "note", "quick reference", "board", "board", "board"],
    "o": ["rules", "quick reference", "board", "stones"],
    "polygone": ["rules", "quick reference", "board", "tracker"],
}


@pytest.mark.parametrize("game", GAMES)
def test_a_kit_holds_its_parts_in_printing_order(game: str) -> None:
    pdf = kit(game)
    parts = _parts(pdf)
    assert [title for title, _ in parts] == PARTS[game]
    pages = read_pages(pdf)
    for (title, numbers), kind in zip(parts, EXPECTED_KINDS[game], strict=True):
        kinds = [_kind(pages[k]) for k in numbers]
        if kind == "rules":
            # The whole sheet, without a board page of its own: the boards follow.
            assert kinds and set(kinds) == {"rules"}, (title, kinds)
            assert not any(_is_board_page(pages[k]) for k in numbers), title
        elif kind == "note":
            # Folded in after the sheet's text, on a page of the sheet: it may start there
            # and run on (its bookmark is on the page it starts on).
            assert set(kinds) <= {"rules"}, (title, kinds)
            assert "pens" in " ".join(pages[k].text for k in numbers), title
        elif game == "polygone" and kind == "board":
            assert kinds == ["board"], (title, kinds)  # the pieces' page is the tracker's
        elif kind == "tracker":
            # Beside the pieces, on their page: the bookmark points there.
            assert kinds == ["pieces"], (title, kinds)
            assert "has captured" in pages[numbers[0]].text
        else:
            assert kinds == [kind], (title, kinds)


@pytest.mark.parametrize("game", GAMES)
def test_every_kit_page_prints_at_100_percent_and_board_pages_have_both_bars(game: str) -> None:
    pdf = kit(game)
    reader = PdfReader(io.BytesIO(pdf))
    assert reader.trailer["/Root"]["/ViewerPreferences"]["/PrintScaling"] == "/None"
    meta = reader.metadata
    assert meta is not None and meta.title and meta.author
    assert "kit" in meta.title
    for number, page in enumerate(read_pages(pdf), start=1):
        if _kind(page) in ("board", "pieces", "stones"):
            # Measured from the vectors: the bar across and the bar up, 50.00 mm each.
            assert [round(v, 2) for v in ruled_bars(page)] == [50.0], (game, number)
            assert [round(v, 2) for v in ruled_vertical_bars(page)] == [50.0], (game, number)


@pytest.mark.parametrize("game", GAMES)
def test_the_kit_is_one_tagged_document_numbered_throughout(game: str) -> None:
    """PDF/UA-1 like the stand-alone sheet: a structure tree, marked, a language, the XMP
    pdfuaid part 1, every Figure with its alternative text (each board's says it is at
    actual size), and "page N of M" running across the whole kit."""
    reader = PdfReader(io.BytesIO(kit(game)))
    root = reader.trailer["/Root"]
    assert "/StructTreeRoot" in root
    assert bool(root["/MarkInfo"]["/Marked"])
    assert str(root["/Lang"]).startswith("en")
    xmp = root["/Metadata"].get_object().get_data().decode("utf-8")
    assert re.search(r"<pdfuaid:part>1</pdfuaid:part>|pdfuaid:part=\"1\"", xmp), xmp[:400]
    figures = [e for e in structure_elements(reader) if e["/S"] == "/Figure"]
    assert figures and all("/Alt" in f and str(f["/Alt"]).strip() for f in figures)
    boards = len([t for t in PARTS[game] if "board" in t or "stones" in t])
    assert sum("at actual size" in str(f["/Alt"]) for f in figures) >= boards
    total = len(reader.pages)
    for number, page in enumerate(reader.pages, start=1):
        assert f"page {number} of {total}" in page.extract_text(), (game, number)


def test_copolymer_kit_has_the_three_server_boards() -> None:
    pages = read_pages(kit("copolymer"))
    boards = [p for p in pages if _kind(p) == "board"]
    # Every cell drawn once: 61, 127 and 271 hexagons (sides 5, 7, 10).
    assert [len(p.hexagons) for p in boards] == [len(hexhex(s)) for s in (5, 7, 10)]


def _mm(text: str, pattern: str) -> float:
    found = re.search(pattern, text)
    assert found, (pattern, text[:300])
    return float(found.group(1))


def test_o_stones_fit_the_kits_board() -> None:
    pages = read_pages(kit("o"))
    (board,) = [p for p in pages if _kind(p) == "board"]
    (stones,) = [p for p in pages if _kind(p) == "stones"]
    cell = _mm(board.text, r"cell is (\d+\.\d)\s?mm flat to flat")
    assert _mm(stones.text, r"whose cells are (\d+\.\d)\s?mm") == cell
    across = _mm(stones.text, r"Stones (\d+\.\d)\s?mm across")
    assert across == pytest.approx(cell - 1.0)  # a round piece fits a cell 1 mm wider
    assert len(board.hexagons) == len(hexhex(6))


def test_o_stones_are_discs_of_the_stated_size_from_the_pixels() -> None:
    """Render the stones page and measure one stone's width in pixels."""
    pdf = kit("o")
    pages = read_pages(pdf)
    index = next(k for k, p in enumerate(pages) if _kind(p) == "stones")
    across = _mm(pages[index].text, r"Stones (\d+\.\d)\s?mm across")
    scale = 10.0  # pixels per point: 28.3 pixels a mm
    document = pypdfium2.PdfDocument(pdf)
    image = np.asarray(document[index].render(scale=scale).to_pil().convert("L"), dtype=float)
    document.close()
    dark = image < 100
    px_per_mm = scale * 72 / 25.4

    def runs(line: np.ndarray) -> list[int]:
        edges = np.diff(np.concatenate(([0], line.astype(int), [0])))
        return list(np.nonzero(edges == -1)[0] - np.nonzero(edges == 1)[0])

    # Rows crossing a row of stones: several dark runs at least half a stone wide; the
    # widest run of all crosses a stone through its centre.
    widest = 0
    for line in dark:
        found = [r for r in runs(line) if r >= across / 2 * px_per_mm]
        if len(found) >= 5:
            widest = max(widest, max(found))
    widest_mm = widest / px_per_mm
    assert widest_mm == pytest.approx(across, abs=0.2)


def test_polygone_kit_pieces_fit_its_board() -> None:
    pages = read_pages(kit("polygone"))
    board = next(p for p in pages if _kind(p) == "board")
    pieces = next(p for p in pages if _kind(p) == "pieces")
    spacing = _mm(board.text, r"holes are (\d+\.\d)\s?mm apart")
    assert _mm(pieces.text, r"whose holes are (\d+\.\d)\s?mm apart") == spacing == 38.0
    # The tracker beside the pieces: two columns of seven numbered boxes.
    tracker = pieces
    assert tracker.text.count("has captured") == 2
    # Seven boxes a player, each at least a piece's length (38 mm) plus 2 mm long, measured
    # from the page's vectors: their top and bottom edges, solid, 40-50 mm long.
    edges = [s for s in tracker.segments if not s.dashed and abs(s.a[1] - s.b[1]) < 0.01
             and 40.0 - 0.01 <= abs(s.a[0] - s.b[0]) <= 50.0]
    assert len(edges) >= 2 * 7 * 2, len(edges)
    # Set as two columns (two left edges, boxes one under another), and said so: in the
    # words on the page and in the figure's alternative text, never "row".
    lefts: dict[int, set[int]] = {}
    for s in edges:
        lefts.setdefault(round(min(s.a[0], s.b[0])), set()).add(round(s.a[1]))
    columns = [x for x, tops in lefts.items() if len(tops) >= 7 * 2]
    assert len(columns) == 2, lefts
    words = " ".join(tracker.text.split())
    assert "your column" in words and not re.search(r"\brows?\b", words), words
    reader = PdfReader(io.BytesIO(kit("polygone")))
    (alt,) = [str(e["/Alt"]) for e in structure_elements(reader)
              if e["/S"] == "/Figure" and "capture tracker" in str(e.get("/Alt", ""))]
    assert "column of 7 boxes" in alt and not re.search(r"\brows?\b", alt), alt


@pytest.mark.parametrize("game", GAMES)
def test_kits_are_the_same_bytes_every_time(game: str) -> None:
    from boardgen.publish.kit import render_kit

    again = render_kit(game, paper=parse_paper("a4"), theme=THEMES["colour"])
    assert again == kit(game)
    assert b"/CreationDate" not in again and b"/ModDate" not in again


def test_a_kit_on_letter_in_ink() -> None:
    pdf = kit("polygone", "letter", "ink")
    sizes = {tuple(sorted((round(float(p.mediabox.width) * 25.4 / 72, 1),
                           round(float(p.mediabox.height) * 25.4 / 72, 1))))
             for p in PdfReader(io.BytesIO(pdf)).pages}
    assert sizes == {(215.9, 279.4)}
    assert [title for title, _ in _parts(pdf)] == PARTS["polygone"]


def test_the_kind_check_sees_a_sheet_that_brings_its_own_board(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A kit whose sheet keeps its board pages fails the order check."""
    from boardgen.publish import kit as kit_module
    from boardgen.publish import typeset as sheet

    original = sheet._sheet_setting

    def with_board(game: str, paper: Any, theme: Any, quick: bool, board: bool, date: str,
                   base: str = "") -> Any:
        return original(game, paper, theme, quick, True, date, base)

    monkeypatch.setattr(sheet, "_sheet_setting", with_board)
    pdf = kit_module.render_kit("o", paper=parse_paper("a4"), theme=THEMES["colour"])
    monkeypatch.setattr(f"{__name__}.kit", lambda game: pdf)
    with pytest.raises(AssertionError):
        test_a_kit_holds_its_parts_in_printing_order("o")


# --- the printer check ----------------------------------------------------------------


@functools.cache
def calibration(paper: str = "a4") -> bytes:
    from boardgen.publish.calibrate import render_calibration

    return render_calibration(paper=parse_paper(paper))


def _tagged(page: PageVectors, tag: str) -> list[tuple[tuple[float, float], tuple[float, float]]]:
    return [(s.a, s.b) for s in page.segments if s.tag == tag]


def _hexagon_widths(page: PageVectors) -> list[float]:
    """The width across the flats of each cell drawn (pointed at the top: its horizontal
    extent), from its six sides."""
    sides = _tagged(page, "Cell")
    assert len(sides) % 6 == 0
    widths = []
    for k in range(0, len(sides), 6):
        xs = [x for a, b in sides[k:k + 6] for x in (a[0], b[0])]
        widths.append(max(xs) - min(xs))
    return widths


@pytest.mark.parametrize("paper", ["a4", "letter", "universal", "148x210mm"])
def test_the_printer_check_measures_100_mm_both_ways(paper: str) -> None:
    (page,) = read_pages(calibration(paper))
    assert [round(v, 2) for v in scale_bars(page)] == [100.0]
    assert [round(v, 2) for v in vertical_scale_bars(page)] == [100.0]
    square = _tagged(page, "Square")
    xs = [x for a, b in square for x in (a[0], b[0])]
    ys = [y for a, b in square for y in (a[1], b[1])]
    assert len(square) == 4
    assert max(xs) - min(xs) == pytest.approx(50.0, abs=0.01)
    assert max(ys) - min(ys) == pytest.approx(50.0, abs=0.01)
    assert [round(w, 2) for w in _hexagon_widths(page)] == [9.0, 13.0, 16.0, 23.0]
    for piece in ("8 mm beads", "12 mm glass counters", "Go stones"):
        assert piece in page.text
    assert "If only" in page.text and "Actual size" in page.text
    # Everything on the page: within the margins (a quarter inch most printers keep).
    for run in page.runs:
        x0, y0, x1, y1 = run.box
        assert 6.35 < x0 and x1 < page.width - 6.35 and 6.35 < y0 and y1 < page.height - 6.35


@pytest.mark.parametrize(("paper", "name"), [("a4", "A4"), ("letter", "Letter"), ("a5", "A5")])
def test_the_printer_check_fills_its_page_and_speaks_to_the_player(paper: str, name: str
                                                                   ) -> None:
    """Its footer as the sheets' (what it is, left; "page 1 of 1", right; the paper named as
    people write it), no word of the program's name, and no more than a fifth of the page
    blank between the last thing drawn and the footer."""
    (page,) = read_pages(calibration(paper))
    text = " ".join(page.text.split())
    assert f"Printer check for {name} paper" in text and "page 1 of 1" in text, text
    assert "boardgen" not in text.lower(), text
    footer = [r for r in page.runs if r.box[1] < 15.0]
    content = [r.box[1] for r in page.runs if r.box[1] >= 15.0] + \
        [min(s.a[1], s.b[1]) for s in page.segments]
    gap = min(content) - max(r.box[3] for r in footer)
    assert gap <= page.height / 5, f"{paper}: {gap:.0f} mm blank above the footer"


def test_the_bar_check_catches_a_short_bar(monkeypatch: pytest.MonkeyPatch) -> None:
    from boardgen.publish import calibrate

    monkeypatch.setattr(calibrate, "BAR_MM", 98.0)
    (page,) = read_pages(calibrate.render_calibration(paper=parse_paper("a4")))
    assert [round(v, 2) for v in scale_bars(page)] == [98.0]


def test_grey_steps_are_40_levels_apart_from_the_pixels() -> None:
    pdf = calibration()
    (page,) = read_pages(pdf)
    labels = [r for r in page.runs if r.text in {str(255 - 40 * k) for k in range(7)}]
    assert len(labels) == 7
    scale = 4.0
    document = pypdfium2.PdfDocument(pdf)
    image = np.asarray(document[0].render(scale=scale).to_pil().convert("L"), dtype=float)
    document.close()
    px = scale * 72 / 25.4
    measured = []
    for run in sorted(labels, key=lambda r: r.box[0]):
        x = (run.box[0] + run.box[2]) / 2
        y = run.box[3] + 5.0  # inside the patch above its label
        row, column = int((page.height - y) * px), int(x * px)
        measured.append(float(np.median(image[row - 3:row + 4, column - 3:column + 4])))
    steps = np.diff(measured)
    assert all(abs(s + 40.0) <= 2.0 for s in steps), measured


# --- the command line -----------------------------------------------------------------


def test_kit_and_calibrate_commands(run_cli: Callable[..., Any], tmp_path: Path,
                                    monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "o.pdf"
    result = run_cli("kit", "o", "-o", str(out))
    assert result.code == 0, result.err
    assert out.read_bytes() == kit("o")
    monkeypatch.chdir(tmp_path)
    assert run_cli("calibrate").code == 0
    assert (tmp_path / "output" / "calibrate.pdf").read_bytes() == calibration()


@pytest.mark.parametrize(("args", "words"), [
    (["kit", "chess"], "chess"),
    (["kit", "o", "-o", "kit.svg"], "a kit is a PDF"),
    (["kit", "o", "--paper", "100x100mm"], "too small for a rule sheet"),
    (["kit", "o", "--theme", "neon"], "neon"),
    (["calibrate", "-o", "check.png"], "is a PDF"),
    (["calibrate", "--paper", "120x300mm"], "too small for the printer check"),
])
def test_bad_input_is_one_line_and_no_file(run_cli: Callable[..., Any], tmp_path: Path,
                                           args: list[str], words: str,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    result = run_cli(*args)
    assert result.code == 2 and len(result.err.strip().splitlines()) == 1, result.err
    assert words in result.err
    assert not [p for p in tmp_path.rglob("*") if p.is_file()]


def test_a_kit_that_fails_leaves_no_file(run_cli: Callable[..., Any], tmp_path: Path,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    from boardgen.errors import BoardgenError
    from boardgen.publish import kit as kit_module

    out = tmp_path / "kit.pdf"
    out.write_bytes(b"old")

    def broken(game: str, **_: Any) -> bytes:
        raise BoardgenError("templates/o/sheet.md:3: something the sheet refuses")

    monkeypatch.setattr(kit_module, "render_kit", broken)
    result = run_cli("kit", "o", "-o", str(out))
    assert result.code == 2 and "sheet.md:3" in result.err
    assert out.read_bytes() == b"old"
    assert [p.name for p in tmp_path.iterdir()] == ["kit.pdf"]


# --- no text under 8 pt, footers included ----------------------------------------------


@pytest.mark.parametrize("what", [*GAMES, "calibration"])
def test_no_text_under_8_pt_on_any_page(what: str) -> None:
    """A home laser half-tones what is smaller; page furniture is printed too."""
    from sheetmeasure import measure, smallest_text

    pdf = calibration() if what == "calibration" else kit(what)
    small = smallest_text(measure(pdf))
    assert small.size_pt >= 8.0 - 0.01, f"{what}: {small.text!r} at {small.size_pt:.2f} pt"
