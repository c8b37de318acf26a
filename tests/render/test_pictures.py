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
from conftest import ROOT, TESTS, Run
from hypothesis import given, settings
from hypothesis import strategies as st
from pdfdata import read_pages
from PIL import Image
from pypdf import PdfReader

RunCli = Callable[..., Run]
SVG_NS = "{http://www.w3.org/2000/svg}"
FILES = TESTS / "diagram_files"
INK = 235  # a grey level below this is ink, not paper (anti-aliasing fades to 255)

BUILT_IN = [("copolymer", name) for name in ("forced", "help-page", "tempo")] + \
    [("o", name) for name in ("corners", "glyphs", "loop", "partisan-glyphs", "short-game")] + \
    [("polygone", name) for name in ("01-start", "02-targets", "03-blocking", "04-lateral",
                                     "05-outside", "06-triangle", "07-nine-sides",
                                     "08-piece-inside", "09-capture-back",
                                     "10-two-polygons")] + [("free", "bridge")]


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
    for game in ("copolymer", "o", "polygone", "free"):
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
mark: C4 text 888
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


# --- helpers for the diagram-file items ----------------------------------------------------


def draw_text(run_cli: RunCli, tmp_path: Path, text: str, suffix: str = "svg",
              *extra: str, name: str = "d") -> tuple[Run, Path, Path]:
    """A diagram file written and drawn: (the run, the file, the output)."""
    source = tmp_path / f"{name}.txt"
    source.write_text(text)
    out = tmp_path / f"{name}.{suffix}"
    return run_cli("diagram", str(source), "-o", str(out), *extra), source, out


def refused_at(run: Run, source: Path, line: int) -> str:
    """The one-line error of a refused file, which must name FILE:LINE; its message."""
    assert run.code == 2, run.out
    prefix = f"boardgen: error: {source}:{line}: "
    assert run.err.startswith(prefix) and run.err.count("\n") == 1, run.err
    return run.err[len(prefix):].strip()


def overlays(svg: Path) -> list[tuple[str, str]]:
    """(role, cell) of every highlight drawn on a panel (legend swatches left out)."""
    root = ET.parse(svg).getroot()
    return sorted((el.get("class", "").split()[1], el.get("data-cell", ""))
                  for el in root.iter() if el.get("class", "").startswith("highlight ")
                  and not el.get("data-cell", "").startswith("legend-"))


def cell_classes(svg: Path) -> dict[str, list[str]]:
    """Each board cell's classes, by name, panel after panel."""
    found: dict[str, list[str]] = {}
    for el in ET.parse(svg).getroot().iter():
        cell = el.get("data-cell", "")
        if el.get("class", "").startswith("cell ") and not cell.startswith("legend-"):
            found.setdefault(cell, []).append(el.get("class", ""))
    return found


# --- 1: claims read their words -------------------------------------------------------------

TRIANGLE = (ROOT / "templates" / "polygone"
            / "06-triangle.txt").read_text()


@pytest.mark.parametrize(("claim", "agrees"), [
    ("captured white 0 black 1", True), ("captured black 1 white 0", True),
    ("captured black 0 white 1", False), ("captured white 1 black 0", False),
])
def test_captured_reads_its_colour_words(run_cli: RunCli, tmp_path: Path, claim: str,
                                         agrees: bool) -> None:
    text = "game: polygone\n" + TRIANGLE.replace("expect: captured white 0 black 1",
                                                 f"expect: {claim}")
    run, source, _ = draw_text(run_cli, tmp_path, text)
    if agrees:
        assert run.code == 0, run.err
    else:
        line = text.splitlines().index(f"expect: {claim}") + 1
        assert "the engine has white 0, black 1" in refused_at(run, source, line)


@settings(max_examples=40, deadline=None)
@given(words=st.lists(st.sampled_from(["white", "black", "red", "blue", "0", "1", "2", "x"]),
                      min_size=0, max_size=5))
def test_no_captured_claim_passes_unless_its_words_are_true(words: list[str]) -> None:
    """Whatever the words, the claim after the triangle passes exactly when it gives each
    colour once, with its count (White lost none, Black one)."""
    import boardgen

    text = "game: polygone\n" + TRIANGLE.replace("expect: captured white 0 black 1",
                                                 f"expect: captured {' '.join(words)}")
    pairs = list(zip(words[0::2], words[1::2], strict=False))
    true = len(words) == 4 and sorted(c for c, _ in pairs) == ["black", "white"] and \
        dict(pairs) == {"white": "0", "black": "1"}
    try:
        boardgen.parse_diagram(text)
        passed = True
    except boardgen.BoardgenError as exc:
        passed = False
        assert str(exc).startswith("line "), exc
    assert passed == true


@pytest.mark.parametrize(("claim", "message"), [
    ("winner red", "winner needs 'white' or 'black'"),
    ("captures red c4-d3", "captures needs 'COLOUR LINES'"),
    ("polygons many", "polygons needs a number"),
])
def test_polygone_claims_refuse_words_they_do_not_know(run_cli: RunCli, tmp_path: Path,
                                                       claim: str, message: str) -> None:
    text = "game: polygone\n" + TRIANGLE + f"expect: {claim}\n"
    run, source, _ = draw_text(run_cli, tmp_path, text)
    assert message in refused_at(run, source, len(text.splitlines()))


# --- 2: a highlight the engine can judge is a claim -----------------------------------------


@pytest.mark.parametrize(("text", "line", "words"), [
    # The two cases: an O cell the engine rules illegal painted legal ...
    ("game: o\nboard: hexhex 4\nsetup: D4 D5\npanel: p\nhighlight: legal E5\n", 5,
     "highlight legal E5: the engine rules it illegal"),
    # ... and a Copolymer cell on an empty board painted illegal.
    ("game: copolymer\nboard: hexhex 3\npanel: p\nhighlight: illegal A3\n", 4,
     "highlight illegal A3: the engine rules it legal for X"),
    ("game: copolymer\nboard: hexhex 3\nsetup: C3 B2 C2\npanel: p\nhighlight: new C2\n", 5,
     "highlight new C2: the engine finds it was not placed in this turn"),
    ("game: copolymer\nboard: hexhex 3\nsetup: C3 B2 C2\npanel: p\nhighlight: connection A1\n",
     5, "highlight connection A1: the engine finds it is not a connection for O"),
    ("game: o\nboard: hexhex 4\npanel: p\nhighlight: corner D4\n", 4,
     "highlight corner D4: it is not a corner"),
    ("game: o\nboard: hexhex 4\npanel: p\nhighlight: new D4\n", 4,
     "highlight new D4: the engine finds it is not cut off from the edge"),
    ("game: polygone\nwhite: c4-c6\npanel: p\nhighlight: ghost b3-c4\n", 4,
     "highlight ghost b3-c4: the engine finds no legal move of White ends on it"),
    ("game: polygone\nwhite: c4-c6\npanel: p\nhighlight: crossed c6-c8\n", 4,
     "highlight crossed c6-c8: the engine finds it an allowed target for White"),
    ("game: polygone\nwhite: c4-c6\npanel: p\nhighlight: crossed c4-c6\n", 4,
     "holds a white piece, not captured"),
])
def test_a_highlight_the_engine_denies_stops_at_its_line(run_cli: RunCli, tmp_path: Path,
                                                         text: str, line: int,
                                                         words: str) -> None:
    run, source, out = draw_text(run_cli, tmp_path, text)
    assert words in refused_at(run, source, line)
    assert not out.exists()


def test_highlights_the_engine_agrees_with_and_tints_are_drawn(run_cli: RunCli,
                                                              tmp_path: Path) -> None:
    text = ("game: o\nboard: hexhex 4\nsetup: D4 D5\npanel: p\nhighlight: illegal E5\n"
            "highlight: legal D6\nhighlight: corner A1\nhighlight: perimeter A2\n"
            "highlight: tint D4 B3\n")
    run, _, out = draw_text(run_cli, tmp_path, text)
    assert run.code == 0, run.err
    assert overlays(out) == [("corner", "A1"), ("illegal", "E5"), ("legal", "D6"),
                             ("perimeter", "A2"), ("tint", "B3"), ("tint", "D4")]


def test_an_unknown_highlight_role_lists_every_role(run_cli: RunCli, tmp_path: Path) -> None:
    run, source, _ = draw_text(run_cli, tmp_path,
                               "game: copolymer\nboard: hexhex 3\npanel: p\nhighlight: gold A1\n")
    assert "(roles: connection, illegal, legal, new, tint)" in refused_at(run, source, 4)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), stones=st.integers(0, 14), data=st.data())
def test_o_highlights_agree_with_the_naive_engine(seed: int, stones: int,
                                                  data: st.DataObject) -> None:
    """After a random game, 'highlight: ROLE CELL' is accepted exactly when the engine
    written from the spec alone says the cell is in that role."""
    from naive_engines import NaiveO

    import boardgen
    from boardgen.geometry import Notation, hexhex

    grid = hexhex(4)
    naive, notation = NaiveO(grid), Notation(grid)
    rng = random.Random(seed)
    played = []
    for _ in range(stones):
        if naive.over:
            break
        cell = rng.choice(naive.legal())
        naive.place(cell)
        played.append(notation.name(cell))
    cell = data.draw(st.sampled_from(list(grid.cells)))
    role = data.draw(st.sampled_from(["legal", "illegal", "new", "corner", "perimeter"]))
    truth = {"legal": cell in naive.legal(), "illegal": cell not in naive.legal(),
             "new": cell in naive.enclosed(), "corner": cell in naive.board.corners,
             "perimeter": cell in naive.board.perimeter}[role]
    setup = f"setup: {' '.join(played)}\n" if played else ""
    text = (f"game: o\nboard: hexhex 4\n{setup}panel: p\n"
            f"highlight: {role} {notation.name(cell)}\n")
    try:
        boardgen.parse_diagram(text)
        accepted = True
    except boardgen.BoardgenError as exc:
        accepted = False
        assert str(exc).startswith(f"line {4 + bool(setup)}: highlight {role} "), exc
    assert accepted == truth


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), placements=st.integers(0, 12), data=st.data())
def test_copolymer_highlights_agree_with_the_naive_engine(seed: int, placements: int,
                                                          data: st.DataObject) -> None:
    from naive_engines import NaiveCopolymer

    import boardgen
    from boardgen.geometry import Notation, hexhex

    grid = hexhex(3)
    naive, notation = NaiveCopolymer(grid), Notation(grid)
    rng = random.Random(seed)
    played = []
    for _ in range(placements):
        if naive.over:
            break
        cell = rng.choice(naive.empty_cells())
        naive.place(cell)
        played.append(notation.name(cell))
    cell = data.draw(st.sampled_from(list(grid.cells)))
    role = data.draw(st.sampled_from(["legal", "illegal", "connection"]))
    empty = cell not in naive.owner and not naive.over
    truth = {"legal": empty, "illegal": not empty,
             "connection": not naive.over and cell in naive.connections()}[role]
    setup = f"setup: {' '.join(played)}\n" if played else ""
    text = (f"game: copolymer\nboard: hexhex 3\n{setup}panel: p\n"
            f"highlight: {role} {notation.name(cell)}\n")
    try:
        boardgen.parse_diagram(text)
        accepted = True
    except boardgen.BoardgenError:
        accepted = False
    assert accepted == truth


# --- 3: a highlight is an overlay ----------------------------------------------------------

HIGHLIGHTED = ("game: copolymer\ntitle: Overlay\nboard: hexhex 3\nsetup: C3 B2 C2\n"
               "panel: p\nplace: D3 connection 2\n")


def drawn_cells(run_cli: RunCli, tmp_path: Path, text: str, theme: str, name: str
                ) -> tuple[np.ndarray, dict[str, tuple[int, int]], Path]:
    """The picture's grey pixels at 200 dpi, 16 mm cells, and where each board cell's
    centre falls in them (from the SVG of the same picture), and the SVG."""
    svg = draw_text(run_cli, tmp_path, text, "svg", "--cell-mm", "16", name=name)
    png = draw_text(run_cli, tmp_path, text, "png", "--cell-mm", "16", "--dpi", "200",
                    "--theme", theme, name=name)
    assert svg[0].code == png[0].code == 0, svg[0].err + png[0].err
    scale = 200 / 25.4
    centres = {cell: (round(y * scale), round(x * scale))
               for cell, (x, y) in cell_centres(svg[2]).items()}
    return grey_pixels(png[2].read_bytes()), centres, svg[2]


@pytest.mark.parametrize("theme", ["colour", "colourblind", "ink"])
def test_a_highlight_keeps_the_cell_its_stone_and_its_number(run_cli: RunCli, tmp_path: Path,
                                                             theme: str) -> None:
    """X's C2 tinted and O's numbered D3 marked new: both keep their class and their
    number; the middle of each cell prints as it does without the highlight, and the band
    round it shows, in grey, in every theme."""
    marked_text = HIGHLIGHTED + "highlight: tint C2\nhighlight: new D3\n"
    plain, at_plain, _ = drawn_cells(run_cli, tmp_path, HIGHLIGHTED, theme, "plain")
    marked, at_marked, svg = drawn_cells(run_cli, tmp_path, marked_text, theme, "marked")
    classes = cell_classes(svg)
    assert classes["C2"] == ["cell player1"] and classes["D3"] == ["cell player2"]
    assert overlays(svg) == [("new", "D3"), ("tint", "C2")]
    assert any(el.get("class") == "cell-text" and el.get("aria-label") == "1"
               for el in ET.parse(svg).getroot().iter())  # D3 keeps its number
    px_mm = 200 / 25.4
    inner = round(0.2 * 16 * px_mm)  # a square well inside the band (its inner edge: 0.32)
    for cell in ("C2", "D3"):
        (y0, x0), (y1, x1) = at_plain[cell], at_marked[cell]
        middle_before = plain[y0 - inner:y0 + inner, x0 - inner:x0 + inner]
        middle_after = marked[y1 - inner:y1 + inner, x1 - inner:x1 + inner]
        # (The legend above moves the panel by a fraction of a pixel, which shades edges
        # and pattern lines differently: compare how dark the middle is, and how mixed.)
        assert abs(float(np.mean(middle_before)) - float(np.mean(middle_after))) <= 6 and \
            abs(float(np.std(middle_before)) - float(np.std(middle_after))) <= 8, \
            f"{cell} in {theme}: the middle changed"
        # Across the band (0.32 to 0.47 of the cell from the centre, to the right):
        # the highlight changes what prints there, in grey.
        band = slice(round(0.34 * 16 * px_mm), round(0.45 * 16 * px_mm))
        before = plain[y0, x0 + band.start:x0 + band.stop]
        after = marked[y1, x1 + band.start:x1 + band.stop]
        # At least 40 grey levels, the standard every theme keeps (docs: print truth).
        assert np.abs(before - after).max() >= 40, f"{cell} in {theme}: the band is faint"


@pytest.mark.parametrize("theme", ["colour", "colourblind", "ink"])
def test_highlight_roles_print_apart_in_grey(run_cli: RunCli, tmp_path: Path,
                                             theme: str) -> None:
    """Two highlights on empty cells, a judged role and the designer's tint: their bands
    differ in grey (level or pattern), so a grey copy still tells them apart."""
    text = ("game: o\nboard: hexhex 4\nsetup: D4 D5\npanel: p\nhighlight: legal A4\n"
            "highlight: illegal E5\nhighlight: tint G4\n")
    grey, at, _ = drawn_cells(run_cli, tmp_path, text, theme, "roles")
    px_mm = 200 / 25.4
    band = slice(round(0.34 * 16 * px_mm), round(0.45 * 16 * px_mm))
    looks = {}
    for cell in ("A4", "E5", "G4"):
        y, x = at[cell]
        patch = grey[y - 8:y + 9, x + band.start:x + band.stop].astype(float)
        across = float(np.mean(np.abs(np.diff(patch, axis=1))))  # lines along: vary across
        along = float(np.mean(np.abs(np.diff(patch, axis=0))))
        # Lines on the diagonals (crosshatch) or along the axes (a grid): stepping
        # diagonally crosses both families of a grid but one family of a crosshatch.
        diagonal = float(np.mean(np.abs(patch[1:, 1:] - patch[:-1, :-1]))
                         + np.mean(np.abs(patch[1:, :-1] - patch[:-1, 1:])))
        looks[cell] = (float(np.median(patch)), float(np.std(patch)),
                       along / (across + along + 1e-9),
                       diagonal / (across + along + diagonal + 1e-9))
    cells = list(looks)
    for i, a in enumerate(cells):
        for b in cells[i + 1:]:
            (ma, sa, ra, da), (mb, sb, rb, db) = looks[a], looks[b]
            assert abs(ma - mb) >= 20 or abs(sa - sb) >= 15 or abs(ra - rb) >= 0.2 \
                or abs(da - db) >= 0.1, (theme, a, b, looks)


# --- 5: a diagram file names its own glyph chart --------------------------------------------

# The spec's chart with one ruling changed: a gap of one between two stones is illegal too.
CHART = ("k0: legal\nk1: legal\nk2-adjacent: illegal\nk2-gap: illegal\nk2-opposite: legal\n"
         "k3-row: illegal\nk3-left: left\nk3-right: right\nk3-alternate: legal\n"
         "k4-row: illegal\nk4-gap: legal\nk4-opposite: legal\nk5: illegal\n")
# C3 and D5 are two of C4's six neighbours, one apart round it (a gap of one: k2-gap).
GAP_CLAIM = "game: o\nboard: hexhex 4\n{chart}panel: p\nplace: C3 D5\nexpect: {claim}\n"


def test_a_diagram_file_carries_its_glyph_chart(run_cli: RunCli, tmp_path: Path) -> None:
    cell = "C4"
    block = "glyphs:\n" + CHART + "end\n"
    # Under the file's own chart the gap is illegal; the spec's chart allows it.
    own = GAP_CLAIM.format(chart=block, claim=f"illegal {cell} k2-gap")
    assert draw_text(run_cli, tmp_path, own, name="own")[0].code == 0
    default = GAP_CLAIM.format(chart="", claim=f"illegal {cell} k2-gap")
    run, source, _ = draw_text(run_cli, tmp_path, default, name="default")
    assert f"{cell} is legal" in refused_at(run, source, 5)
    # The same chart as a file beside the diagram file.
    (tmp_path / "chart.txt").write_text(CHART)
    beside = GAP_CLAIM.format(chart="glyphs: chart.txt\n", claim=f"illegal {cell} k2-gap")
    assert draw_text(run_cli, tmp_path, beside, name="beside")[0].code == 0
    # One file, one picture: --glyphs cannot replace the file's own chart.
    source = tmp_path / "own.txt"
    clash = run_cli("diagram", str(source), "--glyphs", str(tmp_path / "chart.txt"), "-o",
                    str(tmp_path / "x.svg"))
    assert "the file names its own glyph chart: --glyphs cannot replace it" in \
        refused_at(clash, source, 3)


@pytest.mark.parametrize(("block", "line", "message"), [
    ("glyphs:\nk0: legal\nk9: legal\nend\n", 5, "unknown glyph 'k9'"),
    ("glyphs:\nk0: maybe\nend\n", 4, "unknown ruling 'maybe' for k0"),
    ("glyphs:\nk0: legal\nend\n", 3, "no ruling for k1"),
    ("glyphs: missing.txt\n", 3, "missing.txt"),
])
def test_a_glyph_chart_in_a_file_is_checked_at_its_line(run_cli: RunCli, tmp_path: Path,
                                                        block: str, line: int,
                                                        message: str) -> None:
    text = "game: o\nboard: hexhex 4\n" + block + "panel: p\n"
    run, source, _ = draw_text(run_cli, tmp_path, text)
    assert message in refused_at(run, source, line)


def test_a_chart_drawn_from_a_users_table_is_not_called_ours(run_cli: RunCli,
                                                             tmp_path: Path) -> None:
    (tmp_path / "chart.txt").write_text(CHART)
    ours, theirs = tmp_path / "ours.svg", tmp_path / "theirs.svg"
    assert run_cli("diagram", "o", "glyphs", "-o", str(ours)).code == 0
    assert run_cli("diagram", "o", "glyphs", "--glyphs", str(tmp_path / "chart.txt"), "-o",
                   str(theirs)).code == 0
    assert run_cli("diagram", "o", "partisan-glyphs", "--glyphs",
                   str(tmp_path / "chart.txt"), "-o", str(tmp_path / "p.svg")).code == 0
    said = {path: " ".join(" ".join(el.get("aria-label", "")
                                    for el in ET.parse(path).getroot().iter()).split())
            for path in (ours, theirs, tmp_path / "p.svg")}
    assert "reconstruction" in said[ours]
    assert "reconstruction" not in said[theirs] and "The chart given" in said[theirs]
    assert "reconstruction" not in said[tmp_path / "p.svg"]


# --- 9: captions a player can read ----------------------------------------------------------


def captions_of(svg: Path, starts: tuple[str, ...] = ("After", "Move", "The start")
                ) -> list[str]:
    """The captions of a strip's panels (``play -o``), read from the SVG's text runs: those
    that begin as ``starts`` (the legend's words are captions too)."""
    root = ET.parse(svg).getroot()
    layer = next(el for el in root.iter() if el.get("class") == "layer-captions")
    runs = [el.get("aria-label", "") for el in layer if el.get("class") == "caption"]
    captions: list[str] = []
    for run in runs:
        if run.startswith(starts):
            captions.append(run)
        elif captions and not run.startswith("Numbered"):
            captions[-1] += " " + run  # a caption's next line
    return captions


def file_captions(path: Path) -> list[str]:
    """Each panel's caption, as the engine wrote it, from the diagram file."""
    import boardgen

    return [panel.caption or "" for _, panels in boardgen.load_diagram(path).rows
            for panel in panels]


def test_a_label_the_caption_says_already_is_not_repeated(run_cli: RunCli,
                                                          tmp_path: Path) -> None:
    text = ("game: copolymer\nboard: hexhex 3\nsetup: C3 B2 C2\npanel: O to play\n"
            "panel: O connects\nplace: D3 connection 2\npanel: Then X\nplace: B3\n")
    run, source, _ = draw_text(run_cli, tmp_path, text)
    assert run.code == 0, run.err
    said = " ".join(file_captions(source))
    assert "O to play. O to play" not in said and "O connects. O connects" not in said
    assert said.startswith("O to play, with a connection open at D3.")
    assert "Then X." in said  # a label the caption does not say stays


def test_no_built_in_diagram_says_a_label_twice() -> None:
    import boardgen
    from boardgen.games.registry import game_named

    for game in ("copolymer", "o", "polygone", "free"):
        for name in game_named(game).diagram_names():
            for _, panels in boardgen.diagram(game, name).rows:
                for panel in panels:
                    words = re.sub(r"[^a-z0-9 ]", " ", (panel.caption or "").lower()).split()
                    for n in range(2, 6):
                        for k in range(len(words) - 2 * n + 1):
                            assert words[k:k + n] != words[k + n:k + 2 * n], \
                                (game, name, panel.caption)


def test_o_captions_speak_of_players_and_stones(run_cli: RunCli, tmp_path: Path) -> None:
    text = ("game: o\nboard: hexhex 4\nsetup: D4 A1 G4 A4\npanel: First narrows it\n"
            "place: D6\n")
    run, source, _ = draw_text(run_cli, tmp_path, text)
    assert run.code == 0, run.err
    (caption,) = file_captions(source)
    assert caption == "First narrows it. First places stone 5 on D6."


def test_a_polygone_move_that_captures_or_wins_says_so(run_cli: RunCli,
                                                       tmp_path: Path) -> None:
    # The triangle of picture 6, its move the last panel (nothing after it to say it).
    text = ("game: polygone\nwhite: c2-c4 b1-c2\nblack: c4-d3 c8-c10\npanel: Before\n"
            "move: b1-c2>d3\n")
    run, source, _ = draw_text(run_cli, tmp_path, text)
    assert run.code == 0, run.err
    (caption,) = file_captions(source)
    assert "closes a triangle: White captures d3-c4" in caption
    # Without Black's other piece the capture also wins, and the panel says so.
    run, source, _ = draw_text(run_cli, tmp_path, text.replace(" c8-c10", ""), name="won")
    (caption,) = file_captions(source)
    assert caption.endswith("White wins: Black cannot move.")


def test_play_polygone_draws_the_taken_tallies_and_a_caption(run_cli: RunCli,
                                                             tmp_path: Path) -> None:
    out = tmp_path / "p.svg"
    result = run_cli("play", "polygone", "--moves", "c0-c2>d1 c10-c8>b9", "-o", str(out))
    assert result.code == 0, result.err
    (caption,) = captions_of(out)
    assert caption == "Move 2: Black c10-c8>b9. Taken: 0 White pieces, 0 Black pieces. " \
        "White to move."


# --- 10: strips number every move, carry a legend, count turns when asked --------------------


def panel_numbers(svg: Path) -> list[list[str]]:
    """The numbers on the cells of each panel, panel after panel (by the panels' x)."""
    root = ET.parse(svg).getroot()
    layer = next(el for el in root.iter() if el.get("class") == "layer-labels")
    found = []
    for el in layer:
        x = float(re.findall(r"translate\(([-\d.]+)", el.get("transform") or "")[0])
        found.append((x, el.get("aria-label", "")))
    captions = captions_of(svg)
    del captions
    return [[label for _, label in sorted(found)]]


def test_every_n_numbers_every_move_of_each_panel(run_cli: RunCli, tmp_path: Path) -> None:
    out = tmp_path / "s.svg"
    moves = "E5 D4 D5 C4 F6 E6 F5"
    result = run_cli("play", "copolymer", "--side", "5", "--moves", moves, "--every", "3",
                     "-o", str(out))
    assert result.code == 0, result.err
    root = ET.parse(out).getroot()
    numbers = sorted(int(el.get("aria-label", "0")) for el in root.iter()
                     if el.get("class") == "cell-text")
    assert numbers == [1, 2, 3, 4, 5, 6, 7]  # every move, in the panel that first shows it
    # A legend of the roles shown, and the note on the numbers.
    legend = [el.get("data-cell") for el in root.iter()
              if (el.get("data-cell") or "").startswith("legend-")]
    assert legend == ["legend-player1", "legend-player2"]
    text = " ".join(el.get("aria-label", "") for el in root.iter())
    assert "Numbered: every move since the panel before, by its number." in text


def test_every_turn_counts_copolymer_turns(run_cli: RunCli, tmp_path: Path) -> None:
    """C3, B2, C2, then O's D3 connects and O goes on with B3: four turns, five moves."""
    out = tmp_path / "t.svg"
    result = run_cli("play", "copolymer", "--side", "3", "--moves", "C3 B2 C2 D3 B3",
                     "--every-turn", "2", "-o", str(out))
    assert result.code == 0, result.err
    said = captions_of(out)
    assert said == ["After 2 turns (2 moves).", "After 4 turns (5 moves)."]
    by_moves = tmp_path / "m.svg"
    assert run_cli("play", "copolymer", "--side", "3", "--moves", "C3 B2 C2 D3 B3",
                   "--every", "2", "-o", str(by_moves)).code == 0
    assert len(captions_of(by_moves)) == 3
    both = run_cli("play", "copolymer", "--moves", "C3", "--every", "1", "--every-turn", "1",
                   "-o", str(out))
    assert both.code == 2 and "use one" in both.err


@pytest.mark.parametrize("game", ["o", "polygone"])
def test_every_turn_is_every_move_where_a_turn_is_one_move(run_cli: RunCli, tmp_path: Path,
                                                           game: str) -> None:
    moves = {"o": "D4 A1 G4", "polygone": "c0-c2>d1 c10-c8>b9 a2-a4>a6"}[game]
    size = ["--side", "4"] if game == "o" else []
    a, b = tmp_path / "a.svg", tmp_path / "b.svg"
    assert run_cli("play", game, *size, "--moves", moves, "--every", "1", "-o", str(a)).code == 0
    assert run_cli("play", game, *size, "--moves", moves, "--every-turn", "1", "-o",
                   str(b)).code == 0
    assert len(captions_of(a)) == len(captions_of(b)) == 3


# --- 12: ergonomics -------------------------------------------------------------------------


def test_copolymer_place_without_a_classification(run_cli: RunCli, tmp_path: Path) -> None:
    text = ("game: copolymer\nboard: hexhex 3\nsetup: C3 B2 C2\npanel: p\nplace: D3\n"
            "place: B3\nexpect: to-move x\n")
    run, source, _ = draw_text(run_cli, tmp_path, text)
    assert run.code == 0, run.err
    assert file_captions(source) == ["p. O connects at D3 (touching 2 X cells), then ends the "
                                "turn at B3 (touching 1 X cell)."]
    # A stated classification is still a claim.
    wrong = text.replace("place: D3\n", "place: D3 ends 2\n")
    run, source, _ = draw_text(run_cli, tmp_path, wrong, name="wrong")
    assert "claims D3 is ends 2" in refused_at(run, source, 5)


def test_o_takes_a_drawn_position(run_cli: RunCli, tmp_path: Path) -> None:
    # As 'boardgen play o --side 4 --moves "D4 D5"' prints it (O: the last stone).
    text = ("game: o\nboard: hexhex 4\nposition:\n"
            "   . . . .\n  . . . . .\n . . . . . .\n. . . o O . .\n . . . . . .\n"
            "  . . . . .\n   . . . .\nend\npanel: p\nexpect: stones 2\n"
            "expect: illegal E5 k2-adjacent\n")
    run, _, out = draw_text(run_cli, tmp_path, text)
    assert run.code == 0, run.err
    root = ET.parse(out).getroot()
    assert sum(1 for el in root.iter() if el.get("class") == "mark dot stone") == 2
    bad = text.replace(". . . o O . .", ". . . o O . . .")
    run, source, _ = draw_text(run_cli, tmp_path, bad, name="bad")
    assert "the drawing has" in refused_at(run, source, 3)


@pytest.mark.parametrize(("text", "line", "words"), [
    ("game: copolymer\nboard: rhombus 4\npanel: p\n", 2, "an even number"),
    ("game: o\nboard: hexhex 3\npanel: p\n", 2, "edge 4 or more"),
    ("game: free\nboard: square 3\npanel: p\n", 2, "unknown shape 'square'"),
    ("game: o\nboard: hexhex 4\npanel: p\nmove: c0-c2>d1\n", 4,
     "unknown directive 'move' in a panel; 'move:' is for polygone diagrams (o takes"),
    ("game: polygone\npanel: p\nplace: D4\n", 3,
     "'place:' is for copolymer and o diagrams"),
    ("game: copolymer\nboard: hexhex 3\nstone: red A1\npanel: p\n", 3,
     "'stone:' is for free diagrams"),
    ("game: copolymer\nboard: hexhex 3\npanel: p\nexpect: sideways\n", 4,
     "(claims: connections, counts, empty, forced, solved, to-move, turn-continues, "
     "turn-ends, winner)"),
    ("game: polygone\npanel: p\nexpect: sideways\n", 3, "(allowed, backwards, blocked HOLES"),
    ("game: free\nboard: hexhex 3\npanel: p\nexpect: anything\n", 4,
     "a free diagram has no rules"),
])
def test_errors_name_the_line_and_what_would_do(run_cli: RunCli, tmp_path: Path, text: str,
                                                line: int, words: str) -> None:
    run, source, _ = draw_text(run_cli, tmp_path, text)
    assert words in refused_at(run, source, line)


# --- 13: the Python API draws what the files draw --------------------------------------------


def test_the_api_is_listed_and_its_doctests_run() -> None:
    import doctest

    import boardgen
    import boardgen.api

    assert {"parse_diagram", "draw", "play", "engine", "diagram", "load_diagram", "board",
            "game_names", "BoardgenError"} <= set(dir(boardgen))
    results = doctest.testmod(boardgen.api, optionflags=doctest.ELLIPSIS)
    assert results.attempted >= 8 and results.failed == 0


def test_parse_diagram_reads_text_as_a_file_is_read() -> None:
    import boardgen

    text = (FILES / "o-where.txt").read_text()
    from_text = boardgen.parse_diagram(text)
    from_file = boardgen.load_diagram(FILES / "o-where.txt")
    assert boardgen.draw(from_text, "svg") == boardgen.draw(from_file, "svg")
    with pytest.raises(boardgen.BoardgenError, match=r"^line 6: unknown directive"):
        boardgen.parse_diagram("game: o\nboard: hexhex 4\npanel: p\n\n\nwobble: 1\n")
    with pytest.raises(boardgen.BoardgenError, match="does not say which game"):
        boardgen.parse_diagram("board: hexhex 4\n")


def test_draw_annotates_a_position_as_a_file_would(tmp_path: Path) -> None:
    import boardgen

    position = boardgen.play("copolymer", "C3 B2 C2", side=3)
    svg = boardgen.draw(position, "svg", arrows=[("D3", "C3")],
                        marks={"D3": "ring", "B3": "text A"},
                        highlights={"tint": ["C2", "C3"], "connection": ["D3"]})
    # The same picture from a diagram file with the same annotations.
    path = tmp_path / "same.svg"
    root = ET.fromstring(svg.encode())
    assert sorted((el.get("class", "").split()[1], el.get("data-cell", ""))
                  for el in root.iter() if el.get("class", "").startswith("highlight ")
                  and not el.get("data-cell", "").startswith("legend")) == [
        ("connection", "D3"), ("tint", "C2"), ("tint", "C3")]
    assert svg.count('class="arrowhead accent"') == 1
    # The designer's ring and label (and the key's entry for each), never the engine's
    # ring (of an open connection).
    assert svg.count('class="designer-mark mark-ring"') == 2
    assert svg.count('class="designer-mark mark-text"') == 2 * 2  # ring and letter
    assert svg.count('class="mark ring accent"') == 0
    del path
    with pytest.raises(boardgen.BoardgenError) as refused:
        boardgen.draw(position, "svg", highlights={"illegal": ["A3"]})
    assert refused.value.field == "highlights"
    assert "the engine rules it legal for O" in str(refused.value)
    with pytest.raises(boardgen.BoardgenError) as refused:
        boardgen.draw(position, "svg", marks={"Z9": "ring"})
    assert refused.value.field == "marks" and "'Z9' is not on the board" in str(refused.value)
    with pytest.raises(boardgen.BoardgenError) as refused:
        boardgen.draw(position, "svg", arrows=[("A1",)])  # type: ignore[list-item]
    assert refused.value.field == "arrows"
    numbered = boardgen.draw(position, "svg")
    plain = boardgen.draw(position, "svg", lastmove=False)
    assert numbered.count('class="cell-text"') == 1 and plain.count('class="cell-text"') == 0
    diagram = boardgen.load_diagram(FILES / "o-where.txt")
    with pytest.raises(boardgen.BoardgenError, match="annotations are in its file"):
        boardgen.draw(diagram, "svg", arrows=[("A1", "D4")])


def test_draw_annotates_polygone_and_free_positions() -> None:
    import boardgen

    polygone = boardgen.play("polygone", "c0-c2>d1")
    svg = boardgen.draw(polygone, "svg", highlights={"tint": ["c4-c6"]}, arrows=[("c6", "c8")],
                        marks={"c8": "text 7"})
    assert 'class="stroke tint"' in svg and svg.count('class="arrowhead accent"') == 1
    with pytest.raises(boardgen.BoardgenError, match="b3-c4 holds a white piece"):
        boardgen.draw(polygone, "svg", highlights={"ghost": ["b3-c4"]})
    free = boardgen.play("free", "A1 B2", side=3)
    assert 'class="highlight tint"' in boardgen.draw(free, "svg", highlights={"tint": ["C3"]})
    with pytest.raises(boardgen.BoardgenError, match="unknown highlight role 'legal'"):
        boardgen.draw(free, "svg", highlights={"legal": ["C3"]})


# --- 14: a rules-free game for any hex diagram ----------------------------------------------

FREE = """game: free
title: Four colours
board: {board}
stone: black A1
panel: p
stone: white {two}
stone: red {three}
stone: blue {four}
arrow: A1 {two}
mark: {three} ring
highlight: tint {four}
caption: anything at all
"""


@pytest.mark.parametrize(("board", "cells", "two", "three", "four"), [
    ("hexhex 4", 37, "A2", "B2", "C3"), ("rhombus 5", 25, "A2", "B2", "C3"),
    ("triangle 5", 15, "B1", "B2", "C2"),
])
def test_free_draws_any_board_with_four_colours(run_cli: RunCli, tmp_path: Path, board: str,
                                                cells: int, two: str, three: str,
                                                four: str) -> None:
    text = FREE.format(board=board, two=two, three=three, four=four)
    run, _, out = draw_text(run_cli, tmp_path, text)
    assert run.code == 0, run.err
    assert sum(len(v) for v in cell_classes(out).values()) == cells
    classes = [el.get("class") for el in ET.parse(out).getroot().iter()]
    for colour in ("black", "white", "red", "blue"):
        assert f"mark dot stone-{colour}" in classes
    assert overlays(out) == [("tint", four)]
    # The designer's caption under the panel's label, as in every game (docs: what prints
    # under a panel is its label, caption: and notes together).
    assert file_captions(tmp_path / "d.txt") == ["p. anything at all"]
    for fmt in ("pdf", "png"):
        for theme in ("colour", "colourblind", "ink"):
            done = draw_text(run_cli, tmp_path, text, fmt, "--theme", theme,
                             name=f"{fmt}-{theme}")[0]
            assert done.code == 0, done.err


def test_free_takes_a_drawn_board_and_refuses_claims(run_cli: RunCli, tmp_path: Path) -> None:
    text = ("game: free\nboard:\n  . . .\n . . . .\n  . . .\nend\nstone: red A1\npanel: p\n"
            "remove: A1\nstone: blue B4\n")
    run, _, out = draw_text(run_cli, tmp_path, text)
    assert run.code == 0, run.err
    assert sum(len(v) for v in cell_classes(out).values()) == 10
    classes = [el.get("class") for el in ET.parse(out).getroot().iter()]
    assert "mark dot stone-blue" in classes and "mark dot stone-red" not in classes
    claim = text + "expect: to-move x\n"
    run, source, _ = draw_text(run_cli, tmp_path, claim, name="claim")
    assert "no rules" in refused_at(run, source, 11)
    colour = text.replace("stone: blue B4", "stone: green B4")
    run, source, _ = draw_text(run_cli, tmp_path, colour, name="colour")
    assert "colours: black, white, red, blue" in refused_at(run, source, 10)


@pytest.mark.parametrize("theme", ["colour", "colourblind", "ink"])
def test_free_stones_print_apart_in_grey(run_cli: RunCli, tmp_path: Path, theme: str) -> None:
    text = FREE.format(board="hexhex 4", two="A2", three="B2", four="C3").replace(
        "highlight: tint C3\n", "").replace("mark: B2 ring\n", "").replace(
        "arrow: A1 A2\n", "")
    grey, at, _ = drawn_cells(run_cli, tmp_path, text, theme, "stones")
    looks = []
    for cell in ("A1", "A2", "B2", "C3"):
        y, x = at[cell]
        patch = grey[y - 6:y + 7, x - 6:x + 7].astype(float)  # inside the stone
        across = float(np.mean(np.abs(np.diff(patch, axis=1))))
        along = float(np.mean(np.abs(np.diff(patch, axis=0))))
        looks.append((float(np.mean(patch)), float(np.std(patch)),
                      along / (across + along + 1e-9)))
    # Told apart by grey level, by how mixed (a pattern), or by the pattern's direction.
    for i, (ma, sa, ra) in enumerate(looks):
        for mb, sb, rb in looks[i + 1:]:
            assert abs(ma - mb) >= 40 or abs(sa - sb) >= 25 or abs(ra - rb) >= 0.2, \
                (theme, looks)


def test_free_replays_and_draws_as_a_game(run_cli: RunCli, tmp_path: Path) -> None:
    result = run_cli("play", "free", "--side", "3", "--moves", "A1 B2 C3", "--json")
    assert result.code == 0, result.err
    assert json.loads(result.out) == {
        "side": 3, "to_move": "white", "stones": {"A1": "black", "B2": "white", "C3": "black"},
        "over": False, "winner": None}
    taken = run_cli("play", "free", "--side", "3", "--moves", "A1 A1")
    assert taken.code == 2 and "move 2 (A1): there is a black stone there" in taken.err
    assert run_cli("board", "free", "--side", "3", "-o", str(tmp_path / "b.svg")).code == 0
    listed = run_cli("diagram", "free", "--list")
    assert listed.out.split() == ["bridge"]
