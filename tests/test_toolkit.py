"""The designer's toolkit II (issue 22): pictures that are not cut, margins all round, the
Polygone's holes, arrows above rings and numbers.  Everything is checked from the files the
command line writes: rasterised pixels, the PDF's own forms and text, the SVG's structure."""

from __future__ import annotations

import contextlib
import io
import json
import random
import re
import tempfile
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pypdfium2
import pytest
from conftest import Run
from hypothesis import given, settings
from hypothesis import strategies as st
from pdfdata import read_pages
from PIL import Image
from pypdf import PdfReader

RunCli = Callable[..., Run]
SVG_NS = "{http://www.w3.org/2000/svg}"
FILES = Path(__file__).resolve().parent / "diagram_files"
INK = 235  # a grey level below this is ink, not paper (anti-aliasing fades to 255)

BUILT_IN = [("copolymer", name) for name in ("forced", "help-page", "tempo")] + \
    [("o", name) for name in ("corners", "glyphs", "loop", "partisan-glyphs", "short-game")] + \
    [("polygone", name) for name in ("01-start", "02-targets", "03-blocking", "04-lateral",
                                     "05-outside", "06-triangle", "07-nine-sides",
                                     "08-piece-inside", "09-capture-back",
                                     "10-two-polygons")]


def grey_pixels(png: bytes) -> np.ndarray:
    return np.asarray(Image.open(io.BytesIO(png)).convert("L"), dtype=np.int16)


def rgb_pixels(png: bytes) -> np.ndarray:
    return np.asarray(Image.open(io.BytesIO(png)).convert("RGB"), dtype=np.int16)


def png_dpi(png: bytes) -> float:
    info = Image.open(io.BytesIO(png)).info
    return float(info["dpi"][0])


# --- 6: SVG and PNG diagrams keep a margin all round --------------------------------------


def test_the_list_of_built_in_diagrams_is_complete(run_cli: RunCli) -> None:
    listed = []
    for game in ("copolymer", "o", "polygone"):
        result = run_cli("diagram", game, "--list")
        listed += [(game, name) for name in result.out.split()]
    assert sorted(listed) == sorted(BUILT_IN)


@pytest.mark.parametrize(("game", "name"), BUILT_IN)
def test_png_diagrams_have_a_blank_margin_all_round(run_cli: RunCli, tmp_path: Path,
                                                     game: str, name: str) -> None:
    out = tmp_path / "d.png"
    assert run_cli("diagram", game, name, "-o", str(out), "--dpi", "60").code == 0
    png = out.read_bytes()
    pixels = grey_pixels(png)
    band = round(3.0 / 25.4 * png_dpi(png))  # 3 mm of paper on every side
    inside = pixels[band:-band, band:-band]
    assert (inside < INK).sum() > 1000, "the picture draws something"
    for side, strip in (("top", pixels[:band]), ("bottom", pixels[-band:]),
                        ("left", pixels[:, :band]), ("right", pixels[:, -band:])):
        assert (strip < INK).sum() == 0, f"ink within 3 mm of the {side} edge"


@pytest.mark.parametrize("name", ["copolymer-annotated", "polygone-lone-piece"])
def test_svg_diagrams_have_room_round_their_drawing(run_cli: RunCli, tmp_path: Path,
                                                     name: str) -> None:
    """The title starts inside the picture, not at its edge, and the SVG is the size its
    viewBox says."""
    out = tmp_path / "d.svg"
    assert run_cli("diagram", str(FILES / f"{name}.txt"), "-o", str(out)).code == 0
    root = ET.parse(out).getroot()
    _, _, width, height = (float(v) for v in re.split(r"[\s,]+", root.get("viewBox") or ""))
    assert float((root.get("width") or "")[:-2]) == pytest.approx(width, abs=1e-3)
    assert float((root.get("height") or "")[:-2]) == pytest.approx(height, abs=1e-3)
    heading = next(el for el in root.iter(f"{SVG_NS}g") if el.get("class") == "title")
    x = float(re.findall(r"translate\(([-\d.]+) ([-\d.]+)\)", heading.get("transform") or "")
              [0][0])
    board = next(el for el in root.iter(f"{SVG_NS}g") if el.get("class") == "board")
    dx = float(re.findall(r"translate\(([-\d.]+)", board.get("transform") or "")[0])
    assert x + dx >= 3.0


# --- 7: the largest that fits is right, and nothing is ever cut --------------------------


def form_rects(pdf: bytes) -> list[tuple[float, float, float, float]]:
    """Where each page draws its picture: the form's box placed on the page (mm, y up).
    The form clips what it draws to that box."""
    reader = PdfReader(io.BytesIO(pdf))
    rects = []
    for page, vectors in zip(reader.pages, read_pages(pdf, into_forms=False), strict=True):
        (placement,) = vectors.placements
        xobjects = page["/Resources"]["/XObject"]  # type: ignore[index]
        form = xobjects["/" + placement.name].get_object()
        x0, y0, x1, y1 = (float(v) for v in form["/BBox"])
        (ax, ay), (bx, by) = placement.apply(x0, y0), placement.apply(x1, y1)
        rects.append((min(ax, bx), min(ay, by), max(ax, bx), max(ay, by)))
    return rects


def uncut(pdf: bytes, dpi: int = 100, *, panels: bool = True) -> list[str]:
    """What is cut on each page: ink along the edge of the box the picture is clipped to
    (drawn there only if the drawing ran past it), or a box off the page's printable
    part; with ``panels``, a page of headings alone."""
    problems = []
    document = pypdfium2.PdfDocument(pdf)
    for number, (rect, vectors) in enumerate(zip(form_rects(pdf), read_pages(pdf),
                                                 strict=True), start=1):
        image = document[number - 1].render(scale=dpi / 72).to_pil().convert("L")
        pixels = np.asarray(image, dtype=np.int16)

        def px(mm: float) -> int:
            return round(mm / 25.4 * dpi)

        left, right = px(rect[0]), px(rect[2])
        top, bottom = px(vectors.height - rect[3]), px(vectors.height - rect[1])
        band = max(1, px(0.25))  # the outer quarter millimetre of the box
        edges = {"left": pixels[top:bottom, left:left + band],
                 "right": pixels[top:bottom, right - band:right],
                 "top": pixels[top:top + band, left:right],
                 "bottom": pixels[bottom - band:bottom, left:right]}
        for side, strip in edges.items():
            if (strip < INK).sum():
                problems.append(f"page {number}: ink along the {side} edge")
        if rect[0] < 6.0 or rect[1] < 6.0 or rect[2] > vectors.width - 6.0 \
                or rect[3] > vectors.height - 6.0:
            problems.append(f"page {number}: drawn outside the printable part {rect}")
        if panels and not vectors.hexagons and len(vectors.segments) < 55:
            problems.append(f"page {number}: no panel on it")
    return problems


def cells_inside(pdf: bytes) -> list[str]:
    """Every hexagon whole inside the box its page draws in, at the cell size the page
    states."""
    problems = []
    for number, (rect, vectors) in enumerate(zip(form_rects(pdf), read_pages(pdf),
                                                 strict=True), start=1):
        stated = re.search(r"[Ee]ach cell ([\d.]+) mm", vectors.text)
        if not vectors.hexagons:
            continue
        assert stated, vectors.text
        across = float(stated.group(1))
        half_x, half_y = across / 2, across / 3 ** 0.5
        for x, y in vectors.hexagons:
            if not (rect[0] <= x - half_x and x + half_x <= rect[2]
                    and rect[1] <= y - half_y and y + half_y <= rect[3]):
                problems.append(f"page {number}: the cell at ({x:.1f}, {y:.1f}) is cut")
    return problems


LARGEST = re.compile(r"the largest that fits is --cell-mm ([\d.]+)")


@pytest.mark.parametrize(("game", "name", "too_large"), [
    ("copolymer", "tempo", "40"), ("polygone", "02-targets", "60"), ("o", "loop", "30")])
def test_a_cell_too_large_is_refused_naming_the_largest_that_fits(
        run_cli: RunCli, tmp_path: Path, game: str, name: str, too_large: str) -> None:
    out = tmp_path / "d.pdf"
    refused = run_cli("diagram", game, name, "--cell-mm", too_large, "-o", str(out))
    assert refused.code == 2 and not out.exists()
    found = LARGEST.search(refused.err)
    assert found, refused.err
    largest = float(found.group(1))
    assert largest < float(too_large)
    # The largest quoted draws, every page uncut and every cell inside its page ...
    done = run_cli("diagram", game, name, "--cell-mm", f"{largest:g}", "-o", str(out))
    assert done.code == 0, done.err
    pdf = out.read_bytes()
    assert uncut(pdf) == [] and cells_inside(pdf) == []
    # ... and a tenth of a millimetre more is refused, quoting the same.
    again = run_cli("diagram", game, name, "--cell-mm", f"{largest + 0.1:.1f}", "-o",
                    str(tmp_path / "e.pdf"))
    assert again.code == 2 and LARGEST.search(again.err)
    assert float(LARGEST.search(again.err).group(1)) == largest  # type: ignore[union-attr]


@pytest.mark.parametrize(("game", "name"), BUILT_IN)
def test_built_in_diagrams_are_never_cut_in_pdf(run_cli: RunCli, tmp_path: Path, game: str,
                                                 name: str) -> None:
    out = tmp_path / "d.pdf"
    assert run_cli("diagram", game, name, "-o", str(out)).code == 0
    pdf = out.read_bytes()
    assert uncut(pdf, dpi=60) == []
    assert cells_inside(pdf) == []


@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_a_strip_at_the_largest_cell_is_not_cut(run_cli: RunCli, tmp_path: Path,
                                                paper: str) -> None:
    out = tmp_path / "p.pdf"
    moves = "E5 D4 D5 C4 F6 E6 F5 C5 G6 G7"
    refused = run_cli("play", "copolymer", "--side", "5", "--moves", moves, "--every", "3",
                      "--paper", paper, "--cell-mm", "80", "-o", str(out))
    found = LARGEST.search(refused.err)
    assert refused.code == 2 and found, refused.err
    done = run_cli("play", "copolymer", "--side", "5", "--moves", moves, "--every", "3",
                   "--paper", paper, "--cell-mm", found.group(1), "-o", str(out))
    assert done.code == 0, done.err
    assert uncut(out.read_bytes()) == [] and cells_inside(out.read_bytes()) == []


def test_the_polygone_board_names_the_largest_spacing_that_fits(run_cli: RunCli,
                                                                tmp_path: Path) -> None:
    out = tmp_path / "b.pdf"
    refused = run_cli("board", "polygone", "--cell-mm", "60", "-o", str(out))
    found = LARGEST.search(refused.err)
    assert refused.code == 2 and found, refused.err
    largest = float(found.group(1))
    assert run_cli("board", "polygone", "--cell-mm", f"{largest:g}", "-o", str(out)).code == 0
    assert uncut(out.read_bytes(), panels=False) == []  # page 2: the pieces to cut out
    assert run_cli("board", "polygone", "--cell-mm", f"{largest + 0.1:.1f}", "-o",
                   str(out)).code == 2


# --- 8: Polygone diagrams speak of holes ---------------------------------------------------


def test_polygone_diagrams_state_the_distance_between_holes(run_cli: RunCli,
                                                            tmp_path: Path) -> None:
    pdf_out, svg_out = tmp_path / "d.pdf", tmp_path / "d.svg"
    assert run_cli("diagram", "polygone", "02-targets", "-o", str(pdf_out)).code == 0
    text = " ".join(page.text for page in read_pages(pdf_out.read_bytes()))
    assert re.search(r"[Nn]eighbouring holes are [\d.]+ mm apart", text), text
    assert "flat to flat" not in text and "each cell" not in text.lower()
    # Every page of it, and the default size: 14 mm between holes.
    assert re.search(r"[Nn]eighbouring holes are 14.0 mm apart", text), text
    del svg_out
    # A hex diagram still speaks of cells.
    assert run_cli("diagram", "copolymer", "forced", "-o", str(pdf_out)).code == 0
    text = " ".join(page.text for page in read_pages(pdf_out.read_bytes()))
    assert "flat to flat" in text and "holes" not in text


# --- 11: arrows stay visible above rings and numbers --------------------------------------

ACCENT = np.array([0xc2, 0x41, 0x0c])  # the colour theme's accent
PAPER = np.array([0xff, 0xff, 0xff])


def near(colour: np.ndarray, target: np.ndarray, tolerance: int = 40) -> bool:
    return bool(np.abs(colour - target).max() <= tolerance)


def cell_centres(svg: Path) -> dict[str, tuple[float, float]]:
    """Board cell centres in the SVG's own millimetres (board layer translate included)."""
    root = ET.parse(svg).getroot()
    board = next(el for el in root.iter(f"{SVG_NS}g") if el.get("class") == "board")
    dx, dy = (float(v) for v in re.findall(r"translate\(([-\d.]+) ([-\d.]+)\)",
                                           board.get("transform") or "")[0])
    return {el.get("data-cell") or "": (float(el.get("x") or 0) + dx,
                                       float(el.get("y") or 0) + dy)
            for el in root.iter(f"{SVG_NS}use")
            if el.get("data-cell") and not (el.get("data-cell") or "").startswith("legend")}


NEIGHBOURS = """game: copolymer
title: Arrows between neighbours
board: hexhex 3
setup: C3 B2 C2
panel: rings and numbers
mark: D3 ring
mark: C3 ring
arrow: D3 C3
mark: C4 888
arrow: C5 C4
"""


def ring_crossing_problems(colour_at: Callable[[float, float], np.ndarray],
                           start: tuple[float, float], end: tuple[float, float],
                           cell: float) -> list[str]:
    """Where an arrow from ``start`` leaves the ring round it (radius 0.36 cells), paper
    shows either side of the arrow along the ring: the arrow lies above the ring, not
    merged into it.  Points in mm, y down."""
    (ax, ay), (bx, by) = start, end
    length = ((bx - ax) ** 2 + (by - ay) ** 2) ** 0.5
    ux, uy = (bx - ax) / length, (by - ay) / length
    cx, cy = ax + ux * 0.36 * cell, ay + uy * 0.36 * cell

    def at(offset: float) -> np.ndarray:
        return colour_at(cx - uy * offset * cell, cy + ux * offset * cell)  # across it

    problems = []
    if not near(at(0.0), ACCENT):
        problems.append(f"no arrow on the ring: {at(0.0)}")
    if not (near(at(0.045), PAPER, 60) and near(at(-0.045), PAPER, 60)):
        problems.append(f"no paper between arrow and ring: {at(0.045)} {at(-0.045)}")
    if not (near(at(0.1), ACCENT) and near(at(-0.1), ACCENT)):
        problems.append(f"no ring beyond: {at(0.1)} {at(-0.1)}")
    return problems


def test_an_arrow_between_ringed_neighbours_stands_out_from_the_rings(
        run_cli: RunCli, tmp_path: Path) -> None:
    source = tmp_path / "arrows.txt"
    source.write_text(NEIGHBOURS)
    svg, png, pdf = tmp_path / "a.svg", tmp_path / "a.png", tmp_path / "a.pdf"
    for out, extra in ((svg, ()), (png, ("--dpi", "300")), (pdf, ())):
        assert run_cli("diagram", str(source), "-o", str(out), "--cell-mm", "20",
                       *extra).code == 0
    centres = cell_centres(svg)
    pixels = rgb_pixels(png.read_bytes())
    scale = 300 / 25.4

    def png_at(x: float, y: float) -> np.ndarray:
        return pixels[round(y * scale), round(x * scale)]

    assert ring_crossing_problems(png_at, centres["D3"], centres["C3"], 20.0) == []
    # The PDF: the same panel, found on the page by its 19 hexagons (the legend's two
    # swatches stand above it), drawn at 300 dpi.
    (page,) = read_pages(pdf.read_bytes())
    panel = sorted(page.hexagons, key=lambda p: p[1])[:19]
    svg_panel = [centres[name] for name in centres]
    shift_x = np.mean([x for x, _ in panel]) - np.mean([x for x, _ in svg_panel])
    shift_y = np.mean([page.height - y for _, y in panel]) - np.mean([y for _, y in svg_panel])
    image = pypdfium2.PdfDocument(pdf.read_bytes())[0].render(scale=300 / 72).to_pil()
    page_pixels = np.asarray(image.convert("RGB"), dtype=np.int16)

    def pdf_at(x: float, y: float) -> np.ndarray:
        return page_pixels[round((y + shift_y) * scale), round((x + shift_x) * scale)]

    assert ring_crossing_problems(pdf_at, centres["D3"], centres["C3"], 20.0) == []


def test_an_arrow_into_a_numbered_cell_is_drawn_over_the_number(run_cli: RunCli,
                                                                 tmp_path: Path) -> None:
    """The arrow's head, ending at a cell labelled 888, shows in the accent colour: the
    label does not cover it."""
    source = tmp_path / "arrows.txt"
    source.write_text(NEIGHBOURS)
    svg, png = tmp_path / "a.svg", tmp_path / "a.png"
    assert run_cli("diagram", str(source), "-o", str(svg), "--cell-mm", "20").code == 0
    assert run_cli("diagram", str(source), "-o", str(png), "--cell-mm", "20",
                   "--dpi", "300").code == 0
    pixels = rgb_pixels(png.read_bytes())
    scale = 300 / 25.4
    centres = cell_centres(svg)
    (ax, ay), (bx, by) = centres["C5"], centres["C4"]
    cell = 20.0
    accent = 0
    samples = 0
    for k in range(11):  # along the last half of the arrow, up to its tip
        t = 0.45 + 0.025 * k
        x, y = ax + (bx - ax) * t, ay + (by - ay) * t
        if ((bx - x) ** 2 + (by - y) ** 2) ** 0.5 < 0.25 * cell:
            break
        samples += 1
        accent += near(pixels[round(y * scale), round(x * scale)], ACCENT)
    assert samples >= 6 and accent == samples
    root = ET.parse(svg).getroot()
    layers = [el.get("class") for el in root.iter(f"{SVG_NS}g")
              if (el.get("class") or "").startswith("layer-")]
    assert layers.index("layer-annotations") > layers.index("layer-labels") > \
        layers.index("layer-marks")


# --- 4: a game record's player labels are checked; every error names FILE:LINE -----------


def test_a_label_that_is_not_the_player_to_move_is_an_error_at_its_line(
        run_cli: RunCli, tmp_path: Path) -> None:
    record = tmp_path / "game.txt"
    record.write_text("# Copolymer, side 3\n1. X: C3   ; the centre\n\n"
                      "2. X: B2 {X again? no: O}\n3) C2\n")
    out = tmp_path / "game.svg"
    result = run_cli("play", "copolymer", "--side", "3", "--moves-file", str(record),
                     "-o", str(out))
    assert result.code == 2 and not out.exists()
    assert result.err == f"boardgen: error: {record}:4: move 2 (B2) is labelled X, but O is " \
        "to move\n"


@pytest.mark.parametrize(("game", "args", "text"), [
    # Copolymer: X connects at D3 and places again; labels in upper and lower case.
    ("copolymer", ("--side", "3"), "1. X: C3\n2. O: B2\n3. x: C2\n4. O: D3\n5. O: B3\n"),
    ("o", ("--side", "4"), "1. First: D4 2. Second: A1\n3) F: G4\n"),
    ("o", ("--side", "4", "--partisan"), "Left: D4\nRight: A1\nL: G4\n"),
    ("polygone", (), "1. White: c0-c2>d1\n2. B: c10-c8>b9\n"),
])
def test_right_labels_replay_as_the_bare_moves(run_cli: RunCli, tmp_path: Path, game: str,
                                               args: tuple[str, ...], text: str) -> None:
    record = tmp_path / "game.txt"
    record.write_text(text)
    moves = re.sub(r"\d+[.)]|[A-Za-z]+:", " ", text).split()
    by_file = run_cli("play", game, *args, "--moves-file", str(record), "--json")
    by_line = run_cli("play", game, *args, "--moves", " ".join(moves), "--json")
    assert by_file.code == 0, by_file.err
    assert by_file.out == by_line.out


@pytest.mark.parametrize(("text", "line", "message"), [
    ("1. X: C3\n2. O: B2\n{a comment\nover two lines}\n3. X: C2\n4. O: C2\n", 6,
     "move 4 (C2): already taken by X"),
    ("1. X: C3 2. O: B2\n3. X: Z9\n", 2, "move 3 (Z9): 'Z9' is not on the board"),
    ("1. X: C3\n2. O: B2 {unclosed\n", 2, "a '{' that is not part of a {comment}"),
    ("1. X: C3\n\n\n2. O: B2 }\n", 4, "a '}' that is not part of a {comment}"),
    ("1. X: C3\n2. Red: B2\n", 2, "move 2 (B2) is labelled Red, but O is to move"),
])
def test_every_moves_file_error_names_its_line(run_cli: RunCli, tmp_path: Path, text: str,
                                               line: int, message: str) -> None:
    record = tmp_path / "game.txt"
    record.write_text(text)
    result = run_cli("play", "copolymer", "--side", "3", "--moves-file", str(record),
                     "--every", "2", "-o", str(tmp_path / "g.svg"))
    assert result.code == 2
    assert result.err.startswith(f"boardgen: error: {record}:{line}: {message}"), result.err


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), game=st.sampled_from(["copolymer", "o", "polygone"]),
       data=st.data())
def test_records_of_random_games(seed: int, game: str, data: st.DataObject) -> None:
    """A random game written as a record (labels, numbers, comments, line breaks where
    hypothesis likes) replays to the same position; one label made wrong is refused at
    exactly its line."""
    import boardgen
    from boardgen.cli import main

    names = {"x": "X", "o": "O", "first": "First", "second": "S", "white": "White",
             "black": "B"}
    rng = random.Random(seed)
    engine = boardgen.engine(game, side=4) if game != "polygone" else boardgen.engine(game)
    lines: list[list[str]] = [["# a game"], []]
    where: list[int] = []  # the line of each move
    for number in range(1, data.draw(st.integers(1, 12)) + 1):
        if engine.over:
            break
        move = engine.random_legal(rng)
        label = names[engine.to_move or ""]
        if data.draw(st.booleans()):
            lines.append([])
        lines[-1].append(f"{number}. {label}: {move}" + (" {why}" if number % 3 else ""))
        where.append(len(lines))
        engine.play(move)
    played = len(where)
    text = "\n".join(" ".join(words) for words in lines) + "\n"
    args = ["play", game, *(["--side", "4"] if game != "polygone" else [])]
    with tempfile.TemporaryDirectory() as folder:
        record = Path(folder) / "r.txt"
        record.write_text(text)
        assert run_quiet(main, [*args, "--moves-file", str(record), "--json"]) == \
            (0, json.dumps(engine.to_json()) + "\n", "")
        wrong = data.draw(st.integers(0, played - 1))
        flipped = text.split("\n")
        target = flipped[where[wrong] - 1]
        label_at = [m for m in re.finditer(r"(\d+)\. ([A-Za-z]+):", target)
                    if int(m.group(1)) == wrong + 1][0]
        bad = "Nobody"
        flipped[where[wrong] - 1] = target[:label_at.start(2)] + bad + \
            target[label_at.end(2):]
        record.write_text("\n".join(flipped))
        code, _, err = run_quiet(main, [*args, "--moves-file", str(record)])
        assert code == 2
        assert err.startswith(f"boardgen: error: {record}:{where[wrong]}: move {wrong + 1} "), err
        assert f"is labelled {bad}, but" in err


def run_quiet(main: Callable[[list[str]], object], args: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = 0
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            main(args)
        except SystemExit as exc:
            code = int(exc.code or 0)
    return code, out.getvalue(), err.getvalue()
