"""A cutter's SVG, read back from the file: layers, colours, hairlines, closed cuts, no line
twice, and the kerf given back on holes and parts.

The path reader here is the tests' own (absolute M, L, H, V, A, C, Q, Z, which is what a
cutter's file may hold); the expected sizes come from the options alone.
"""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET
from functools import cache
from pathlib import Path

import pytest
from conftest import Run, one_line_error

from boardgen.api import board

SVG = "{http://www.w3.org/2000/svg}"
INKSCAPE = "{http://www.inkscape.org/namespaces/inkscape}"
RED, BLUE, BLACK = "#ff0000", "#0000ff", "#000000"
Point = tuple[float, float]


@cache
def cutter_svg(game: str, cutter: str = "laser", kerf: float | None = None,
               hole_mm: float | None = None) -> ET.Element:
    text = board(game, "svg", cutter=cutter, kerf=kerf, hole_mm=hole_mm)  # type: ignore[arg-type]
    assert isinstance(text, str)
    return ET.fromstring(text)


def layers(root: ET.Element) -> dict[str, ET.Element]:
    return {g.get(f"{INKSCAPE}label", ""): g for g in root.iter(f"{SVG}g")
            if g.get(f"{INKSCAPE}groupmode") == "layer"}


def style(element: ET.Element) -> dict[str, str]:
    return dict(part.split(":", 1) for part in (element.get("style") or "").split(";") if part)


_TOKEN = re.compile(r"[MLHVACQZmlhvacqz]|-?\d*\.?\d+(?:e-?\d+)?")


def subpaths(d: str) -> list[tuple[list[Point], bool]]:
    """Each subpath's points (arcs and curves by their end points) and whether it closes."""
    tokens = _TOKEN.findall(d)
    out: list[tuple[list[Point], bool]] = []
    k, cmd = 0, ""
    x = y = 0.0
    sizes = {"M": 2, "L": 2, "H": 1, "V": 1, "A": 7, "C": 6, "Q": 4}
    while k < len(tokens):
        if tokens[k].isalpha():
            cmd = tokens[k]
            k += 1
            if cmd in "Zz":
                out[-1] = (out[-1][0], True)
                continue
        assert cmd in sizes, f"relative or unknown command {cmd!r}"
        values = [float(v) for v in tokens[k:k + sizes[cmd]]]
        k += sizes[cmd]
        if cmd == "H":
            x = values[0]
        elif cmd == "V":
            y = values[0]
        else:
            x, y = values[-2], values[-1]
        if cmd == "M":
            out.append(([(x, y)], False))
            cmd = "L"
        else:
            out[-1][0].append((x, y))
    return out


def cut_shapes(root: ET.Element) -> list[ET.Element]:
    return [e for e in layers(root)["cut"] if e.tag in (f"{SVG}path", f"{SVG}circle")]


@pytest.mark.parametrize("game", ["copolymer", "o", "polygone"])
def test_three_layers_three_colours_hairlines_no_fill_on_cut_or_score(game: str) -> None:
    root = cutter_svg(game)
    assert root.get("width", "").endswith("mm") and root.get("height", "").endswith("mm")
    found = layers(root)
    assert set(found) == {"cut", "score", "engrave"}
    assert style(found["cut"])["stroke"] == RED
    assert style(found["score"])["stroke"] == BLUE
    assert style(found["engrave"])["fill"] == BLACK
    for name in ("cut", "score"):
        assert style(found[name])["fill"] == "none"
        assert 0.01 <= float(style(found[name])["stroke-width"]) <= 0.025
    assert style(found["engrave"])["stroke"] == "none"
    # Nothing sets a colour of its own: only the layers' three.
    colours = set()
    for element in root.iter():
        for key in ("fill", "stroke"):
            value = element.get(key) or style(element).get(key)
            if value and value != "none":
                colours.add(value.lower())
    assert colours == {RED, BLUE, BLACK}
    # Text as outlines: no text element, no font, no reference to a glyph elsewhere.
    assert not list(root.iter(f"{SVG}text")) and not list(root.iter(f"{SVG}use"))
    assert "font" not in ET.tostring(root, encoding="unicode")


@pytest.mark.parametrize("game", ["copolymer", "o", "polygone"])
def test_every_cut_path_is_closed(game: str) -> None:
    shapes = cut_shapes(cutter_svg(game, kerf=0.15))
    assert shapes
    for shape in shapes:
        if shape.tag == f"{SVG}path":
            for points, closed in subpaths(shape.get("d", "")):
                assert closed, points[:3]


def _segments(root: ET.Element, layer: str) -> list[tuple[Point, Point]]:
    segments = []
    for shape in layers(root)[layer].iter(f"{SVG}path"):
        for points, closed in subpaths(shape.get("d", "")):
            ring = points + [points[0]] if closed else points
            segments.extend(zip(ring, ring[1:], strict=False))
    return segments


def _overlap(a: tuple[Point, Point], b: tuple[Point, Point]) -> bool:
    """Two straight segments on one line sharing more than a point."""
    (ax, ay), (bx, by) = a
    length = math.hypot(bx - ax, by - ay)
    if length < 1e-9:
        return False
    ux, uy = (bx - ax) / length, (by - ay) / length
    for px, py in b:
        if abs((px - ax) * uy - (py - ay) * ux) > 1e-3:
            return False
    ts = sorted(((px - ax) * ux + (py - ay) * uy) for px, py in b)
    return min(length, ts[1]) - max(0.0, ts[0]) > 1e-3


@pytest.mark.parametrize("game", ["copolymer", "polygone"])
def test_no_line_is_cut_or_scored_twice(game: str) -> None:
    root = cutter_svg(game, kerf=0.15)
    for layer in ("cut", "score"):
        segments = _segments(root, layer)
        keyed = [tuple(sorted(((round(a[0], 3), round(a[1], 3)),
                               (round(b[0], 3), round(b[1], 3))))) for a, b in segments]
        assert len(keyed) == len(set(keyed)), layer
        # Nor overlapping in part: checked pairwise within a grid of buckets.
        buckets: dict[tuple[int, int], list[tuple[Point, Point]]] = {}
        for seg in segments:
            mx, my = (seg[0][0] + seg[1][0]) / 2, (seg[0][1] + seg[1][1]) / 2
            buckets.setdefault((int(mx // 20), int(my // 20)), []).append(seg)
        for (bx, by), members in buckets.items():
            near = [s for dx in (-1, 0, 1) for dy in (-1, 0, 1)
                    for s in buckets.get((bx + dx, by + dy), [])]
            for seg in members:
                assert sum(_overlap(seg, other) for other in near) == 1, seg  # itself
    # Every cell edge scored: a hex board of n cells has 3n + (boundary edges)/2 ... at
    # least 3 per cell once shared edges are counted once.
    if game == "copolymer":
        assert len(_segments(root, "score")) >= 3 * 271


def test_holes_are_cut_before_the_board_is_cut_free() -> None:
    shapes = cut_shapes(cutter_svg("polygone", hole_mm=4.0))
    outline = next(k for k, e in enumerate(shapes) if e.get("id") == "board-outline")
    holes = [k for k, e in enumerate(shapes) if e.tag == f"{SVG}circle"]
    assert len(holes) == 24 and max(holes) < outline


def _circles(root: ET.Element) -> list[float]:
    return [2 * float(c.get("r", "0")) for c in layers(root)["cut"].iter(f"{SVG}circle")]


@pytest.mark.parametrize(("hole", "kerf"), [(4.0, 0.2), (3.0, 0.0), (5.5, 0.15)])
def test_polygone_holes_are_the_hole_less_the_kerf(hole: float, kerf: float) -> None:
    diameters = _circles(cutter_svg("polygone", kerf=kerf, hole_mm=hole))
    assert len(diameters) == 24
    assert all(d == pytest.approx(hole - kerf, abs=0.002) for d in diameters)


def _rect_sizes(root: ET.Element) -> list[tuple[float, float]]:
    sizes = []
    for shape in layers(root)["cut"].iter(f"{SVG}path"):
        for points, _ in subpaths(shape.get("d", "")):
            xs, ys = [p[0] for p in points], [p[1] for p in points]
            sizes.append((round(max(xs) - min(xs), 3), round(max(ys) - min(ys), 3)))
    return sizes


@pytest.mark.parametrize("kerf", [0.0, 0.2])
def test_polygone_pieces_and_board_outline_grow_by_the_kerf(kerf: float) -> None:
    plain = _rect_sizes(cutter_svg("polygone", kerf=0.0, hole_mm=4.0))
    cut = _rect_sizes(cutter_svg("polygone", kerf=kerf, hole_mm=4.0))
    assert len(plain) == len(cut) == 1 + 24  # the board and its 24 pieces
    for (w0, h0), (w1, h1) in zip(plain, cut, strict=True):
        assert w1 == pytest.approx(w0 + kerf, abs=0.002)
        assert h1 == pytest.approx(h0 + kerf, abs=0.002)
    # A piece is one hole spacing long: the distance between neighbouring holes.
    root = cutter_svg("polygone", kerf=kerf, hole_mm=4.0)
    centres = [(float(c.get("cx", "0")), float(c.get("cy", "0")))
               for c in layers(root)["cut"].iter(f"{SVG}circle")]
    spacing = min(math.dist(a, b) for a in centres for b in centres if a != b)
    pieces = sorted(cut)[:24]
    assert all(w == pytest.approx(spacing + kerf, abs=0.01) for w, _ in pieces)


@pytest.mark.parametrize("kerf", [0.0, 0.18])
def test_o_stones_are_a_sheet_of_discs_a_cell_less_one_mm_plus_the_kerf(kerf: float) -> None:
    root = cutter_svg("o", kerf=kerf)
    diameters = _circles(root)
    # One stone for every cell of the default board; the cell width from the scored grid
    # (the distance between opposite edges: the longest horizontal extent of a cell is
    # its corner-to-corner width, flat-to-flat = corner-to-corner * sqrt(3) / 2).
    segments = _segments(root, "score")
    lengths = {round(math.dist(a, b), 3) for a, b in segments}
    side = max(lengths)
    flat = side * math.sqrt(3)
    assert diameters and all(d == pytest.approx(flat - 1.0 + kerf, abs=0.01)
                             for d in diameters)
    centres = [(float(c.get("cx", "0")), float(c.get("cy", "0")))
               for c in layers(root)["cut"].iter(f"{SVG}circle")]
    closest = min(math.dist(a, b) for a in centres for b in centres if a != b)
    assert closest > diameters[0]  # no two discs touch: no cut line shared


def test_stones_only_for_a_game_played_with_stones() -> None:
    # O's kit has stones; Copolymer's cells are coloured in with pens.
    assert _circles(cutter_svg("o"))
    assert _circles(cutter_svg("copolymer")) == []


def test_vinyl_differs_only_in_the_stroke() -> None:
    laser = ET.tostring(cutter_svg("o"), encoding="unicode")
    vinyl = ET.tostring(cutter_svg("o", cutter="vinyl"), encoding="unicode")
    assert laser != vinyl
    assert re.sub(r"stroke-width:[0-9.]+|laser|vinyl", "", laser) == \
        re.sub(r"stroke-width:[0-9.]+|laser|vinyl", "", vinyl)


@pytest.mark.parametrize(("args", "fragments"), [
    (["polygone", "--cutter", "laser", "--kerf", "0.9", "--hole-mm", "0.8"],
     ["--kerf 0.9", "--hole-mm"]),
    (["polygone", "--cutter", "laser", "--kerf", "-0.1"], ["--kerf -0.1"]),
    (["o", "--kerf", "0.2"], ["--kerf", "--cutter"]),
    (["o", "--cutter", "laser", "--hole-mm", "3"], ["--hole-mm", "O"]),
    (["o", "--cutter", "laser", "--bleed", "3"], ["--bleed", "--cutter"]),
    (["polygone", "--cutter", "laser", "--cell-mm", "20", "--hole-mm", "9"],
     ["--hole-mm 9", "spacing"]),
])
def test_bad_cutter_options_one_line_exit_2_no_file(run_cli: object, in_tmp: Path,
                                                     args: list[str],
                                                     fragments: list[str]) -> None:
    result: Run = run_cli("board", *args, "-o", "board.svg")  # type: ignore[operator]
    one_line_error(result, *fragments)
    assert list(in_tmp.iterdir()) == []


def test_a_cutter_file_must_be_an_svg(run_cli: object, in_tmp: Path) -> None:
    result: Run = run_cli("board", "o", "--cutter", "laser", "-o", "o.pdf")  # type: ignore[operator]
    one_line_error(result, "--cutter", "SVG")
    assert list(in_tmp.iterdir()) == []
