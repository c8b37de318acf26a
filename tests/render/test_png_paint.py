"""The PNG shows what the SVG shows: at known points (a cell's centre, inside a stone, on a
ring's stroke, on a cross, on a letter of the coordinates and of the title) the PNG's pixel
is the colour the SVG paints there, read from the SVG's own style sheet and attributes, in
every theme; the PNG records the resolution it was drawn at (its pHYs chunk), so it prints
1:1; a disc mark (a number or letter on the board) is paper-white in the SVG."""

from __future__ import annotations

import io
import math
import re
import struct
import xml.etree.ElementTree as ET
import zlib

import numpy as np
import pytest
from PIL import Image

import boardgen

SVG_NS = "{http://www.w3.org/2000/svg}"
XLINK = "{http://www.w3.org/1999/xlink}href"
DPI = 400  # a coordinate's strokes are 4 pixels wide: some pixels wholly inside them
THEMES = ("colour", "colourblind", "ink")
MARKS = {"D4": "text 1", "A1": "ring", "B2": "cross", "E5": "dot"}
# Positions whose cells take every role their game paints on an empty or played board.
SUBJECTS = [("o", "D4 C3", 4), ("copolymer", "C3 B2 C2 D3 B3", 3)]


def _rgb(colour: str) -> tuple[int, int, int]:
    assert re.fullmatch(r"#[0-9a-f]{6}", colour), colour
    return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)


def _style(svg: str) -> dict[str, str]:
    """Each rule of the SVG's style sheet: selector -> fill."""
    sheet = re.search(r"<!\[CDATA\[(.*?)\]\]>", svg, re.S)
    assert sheet
    rules: dict[str, str] = {}
    for selectors, body in re.findall(r"([^{}]+)\{([^{}]*)\}", sheet.group(1)):
        fill = re.search(r"(?:^|;)fill:([^;]+)", body)
        if fill:
            for selector in selectors.split(","):
                rules[selector.strip()] = fill.group(1)
    return rules


def _draw(game: str, moves: str, side: int, theme: str) -> tuple[str, Image.Image]:
    position = boardgen.play(game, moves, side=side)
    svg = boardgen.draw(position, "svg", theme=theme, marks=MARKS)
    png = boardgen.draw(position, "png", theme=theme, marks=MARKS, dpi=DPI)
    return svg, Image.open(io.BytesIO(png)).convert("RGB")


def _points(element: ET.Element) -> list[tuple[float, float]]:
    return [(float(x), float(y)) for x, y in
            (pair.split(",") for pair in element.attrib["points"].split())]


def _middle(points: list[tuple[float, float]]) -> tuple[float, float]:
    """The middle of a mark's points' box (a ring's, a cross's or a diamond's centre)."""
    xs, ys = [x for x, _ in points], [y for _, y in points]
    return (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2


def _at(image: Image.Image, x: float, y: float) -> tuple[int, int, int]:
    scale = DPI / 25.4
    pixel = image.getpixel((int(x * scale), int(y * scale)))
    assert isinstance(pixel, tuple)
    return pixel[0], pixel[1], pixel[2]


def _close(seen: tuple[int, int, int], paint: str, what: str) -> None:
    wanted = _rgb(paint)
    assert max(abs(a - b) for a, b in zip(seen, wanted, strict=True)) <= 3, \
        (what, seen, wanted)


def _on_pattern(seen: tuple[int, int, int], paints: list[str], what: str) -> None:
    """A pixel of a pattern (ink's hatching or dots): its ground, its ink, or a blend of the
    two at an edge; never another colour."""
    ground, ink = _rgb(paints[0]), _rgb(paints[1])
    assert all(_rgb(p) == ink for p in paints[1:]), paints
    span = [b - a for a, b in zip(ground, ink, strict=True)]
    share = sum((v - a) * d for v, a, d in zip(seen, ground, span, strict=True)) / \
        max(1, sum(d * d for d in span))
    share = min(1.0, max(0.0, share))
    assert max(abs(v - (a + share * d)) for v, a, d in zip(seen, ground, span, strict=True)) \
        <= 4, (what, seen, paints)


def _darkest(image: Image.Image, box: tuple[float, float, float, float]
             ) -> tuple[int, int, int]:
    scale = DPI / 25.4
    x0, y0, x1, y1 = (int(v * scale) for v in box)
    pixels = np.asarray(image.crop((x0, y0, x1, y1)), dtype=int).reshape(-1, 3)
    darkest = pixels[int(np.argmin(pixels.sum(axis=1)))]
    return int(darkest[0]), int(darkest[1]), int(darkest[2])


def _letters_painted(root: ET.Element, style: dict[str, str], image: Image.Image,
                     kinds: tuple[str, ...] = ("coordinate", "title")) -> int:
    """Check each coordinate letter and title of the SVG against the PNG's darkest pixel
    under it; how many were checked."""
    letters = 0
    for g in root.iter(f"{SVG_NS}g"):
        kind = g.attrib.get("class")
        if kind not in kinds:
            continue
        x, y, s = (float(v) for v in re.search(  # type: ignore[union-attr]
            r"translate\(([-\d.]+) ([-\d.]+)\) scale\(([-\d.]+)\)", g.attrib["transform"]
        ).groups())
        size = s * 1000  # the font's 1000 units
        box = (x, y - 0.75 * size, x + 0.6 * size, y)
        _close(_darkest(image, box), style[f".{kind}"], f"{kind} {g.attrib.get('aria-label')}")
        letters += 1
    return letters


@pytest.mark.parametrize("theme", THEMES)
def test_polygones_board_png_prints_its_title_and_labels_as_the_svg(theme: str) -> None:
    svg = boardgen.board("polygone", "svg", theme=theme)
    image = Image.open(io.BytesIO(boardgen.board("polygone", "png", theme=theme, dpi=DPI)))
    root = ET.fromstring(svg)
    titles = [g for g in root.iter(f"{SVG_NS}g") if g.attrib.get("class") == "title"]
    assert titles
    # (Its side labels are set turned: the title is enough to see it drawn.)
    assert _letters_painted(root, _style(svg), image.convert("RGB"), ("title",)) == \
        len(titles)


@pytest.mark.parametrize("theme", THEMES)
@pytest.mark.parametrize(("game", "moves", "side"), SUBJECTS)
def test_png_pixels_are_the_svgs_paint(game: str, moves: str, side: int, theme: str) -> None:
    svg, image = _draw(game, moves, side, theme)
    style = _style(svg)
    root = ET.fromstring(svg)
    assert root.attrib["viewBox"].startswith("0,0,")  # user units: mm from the corner
    assert image.size[0] == round(float(root.attrib["width"].removesuffix("mm")) / 25.4 * DPI)
    circles = [c for c in root.iter(f"{SVG_NS}circle") if "mark" in c.attrib.get("class", "")]
    crosses = [p for p in root.iter(f"{SVG_NS}path")
               if p.attrib.get("class", "").startswith("mark cross")]
    marked = [(float(c.attrib["cx"]), float(c.attrib["cy"])) for c in circles]
    # The designer's marks: polylines of their own class, centred on their cells.
    designer = [(e.attrib["class"].split()[1], _points(e))
                for e in root.iter(f"{SVG_NS}polyline")
                if e.attrib.get("class", "").startswith("designer-mark ")]
    marked.extend(_middle(points) for _, points in designer)
    for p in crosses:
        numbers = [float(v) for v in re.findall(r"[-\d.]+", p.attrib["d"])]
        marked.append(((numbers[0] + numbers[2]) / 2, (numbers[1] + numbers[3]) / 2))
    texts = [(float(x), float(y)) for x, y in (
        re.search(r"translate\(([-\d.]+) ([-\d.]+)\)", g.attrib["transform"]).groups()  # type: ignore[union-attr]
        for g in root.iter(f"{SVG_NS}g")
        if g.attrib.get("class") in ("cell-text", "designer-mark mark-text"))]

    patterns = {p.attrib["id"]: [e.attrib["fill"] for e in p if "fill" in e.attrib]
                for p in root.iter(f"{SVG_NS}pattern")}
    # Cells: each role's fill at a cell's centre, where nothing lies on the cell.
    roles_seen = set()
    for cell in root.iter(f"{SVG_NS}use"):
        kind = cell.attrib.get("class", "")
        if not kind.startswith("cell "):
            continue
        role = kind.split()[1]
        x, y = float(cell.attrib["x"]), float(cell.attrib["y"])
        if any(abs(x - mx) < 3 and abs(y - my) < 3 for mx, my in marked) or \
                any(abs(x - tx) < 3 and abs(y - ty) < 3 for tx, ty in texts):
            continue
        fill = style[f".cell.{role}"]
        if fill.startswith("url("):
            _on_pattern(_at(image, x, y), patterns[fill[5:-1]], f"cell {role} at {x},{y}")
        else:
            _close(_at(image, x, y), fill, f"cell {role} at {x},{y}")
        roles_seen.add(role)
    assert len(roles_seen) >= 2, roles_seen

    # Marks of every kind.
    kinds_seen = set()
    for c in circles:
        kind = c.attrib["class"].split()[1]
        x, y, r = (float(c.attrib[k]) for k in ("cx", "cy", "r"))
        if kind == "ring":
            _close(_at(image, x + r, y), c.attrib["stroke"], "ring stroke")
        elif c.attrib["fill"].startswith("url("):
            continue
        else:
            # Above the middle, clear of a number written there, inside the outline.
            covered = [d for d in circles if d is not c and d.attrib["class"].split()[1] != "ring"
                       and abs(float(d.attrib["cx"]) - x) < 0.01
                       and abs(float(d.attrib["cy"]) - y) < 0.01]
            labelled = [m for m in marked[len(circles):]
                        if abs(m[0] - x) < 0.01 and abs(m[1] - y) < 0.01]
            if kind == "dot" and (covered or labelled):
                continue  # a disc, or a designer's mark, lies on this stone
            _close(_at(image, x, y - 0.75 * r), c.attrib["fill"], f"{kind} mark")
        kinds_seen.add(kind)
    for p in crosses:
        numbers = [float(v) for v in re.findall(r"[-\d.]+", p.attrib["d"])]
        centre = ((numbers[0] + numbers[2]) / 2, (numbers[1] + numbers[3]) / 2)
        _close(_at(image, *centre), p.attrib["stroke"], "cross")
        kinds_seen.add("cross")
    # The designer's: the middle of a ring's (or a label's ring's) first dash, a cross's
    # or a dot's middle.
    for role, points in designer:
        if role == "mark-halo":
            continue
        element = next(e for e in root.iter(f"{SVG_NS}polyline")
                       if e.attrib.get("class", "") == f"designer-mark {role}")
        stroke = element.attrib["stroke"]
        where = _middle(points)
        if role in ("mark-ring", "mark-text"):
            (x0, y0), (x1, y1) = points[:2]
            along = float(element.attrib["stroke-dasharray"]) / 2 / math.dist(points[0],
                                                                                points[1])
            where = (x0 + (x1 - x0) * along, y0 + (y1 - y0) * along)
        _close(_at(image, *where), stroke, role)
        kinds_seen.add(role)
    # An engine's stone (O) or numbered disc (Copolymer), and every designer's mark.
    assert kinds_seen & {"dot", "disc"}, kinds_seen
    assert {"mark-ring", "mark-cross", "mark-dot", "mark-text"} <= kinds_seen, kinds_seen

    # Text: the darkest pixel of a coordinate letter, and of the title, is its paint.
    assert _letters_painted(root, style, image) > 2 * side


def test_the_coordinates_are_muted_and_the_title_is_not() -> None:
    """What the paint test relies on to tell them apart: two different paints."""
    svg, _ = _draw("o", "D4", 4, "colour")
    style = _style(svg)
    assert _rgb(style[".coordinate"]) != _rgb(style[".title"])


def _chunks(png: bytes) -> dict[bytes, bytes]:
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    found, at = {}, 8
    while at < len(png):
        (length,) = struct.unpack(">I", png[at:at + 4])
        kind, data = png[at + 4:at + 8], png[at + 8:at + 8 + length]
        (crc,) = struct.unpack(">I", png[at + 8 + length:at + 12 + length])
        assert crc == zlib.crc32(kind + data)
        found.setdefault(kind, data)
        at += 12 + length
    return found


@pytest.mark.parametrize("dpi", [36, 100, 150, 300, 1200])
def test_a_png_records_its_resolution(dpi: int) -> None:
    png = boardgen.board("copolymer", "png", side=2, dpi=dpi)
    chunks = _chunks(png)
    per_x, per_y, unit = struct.unpack(">IIB", chunks[b"pHYs"])
    assert unit == 1  # per metre
    assert per_x == per_y == round(dpi * 1000 / 25.4)
    # The pixels are as many as the millimetres at that resolution.
    width_mm = float(re.search(r'width="([\d.]+)mm"',  # type: ignore[union-attr]
                               boardgen.board("copolymer", "svg", side=2)).group(1))
    (width_px,) = struct.unpack(">I", chunks[b"IHDR"][:4])
    assert width_px == round(width_mm / 25.4 * dpi)
    printed_mm = width_px / per_x * 1000
    assert printed_mm == pytest.approx(width_mm, abs=25.4 / dpi)  # within a pixel


@pytest.mark.parametrize("dpi", [72, 150])
def test_a_foreign_svg_drawn_as_png_records_its_resolution(dpi: int) -> None:
    from boardgen.render.png import render_png

    svg = ('<svg xmlns="http://www.w3.org/2000/svg" width="50mm" height="20mm" '
           'viewBox="0 0 50 20"><rect width="50" height="20" fill="#808080"/></svg>')
    png = render_png(svg, width_mm=50, height_mm=20, dpi=dpi)
    chunks = _chunks(png)
    per_x, per_y, unit = struct.unpack(">IIB", chunks[b"pHYs"])
    assert (per_x, per_y, unit) == (round(dpi * 1000 / 25.4),) * 2 + (1,)
    # Drawn at that resolution too: 50 mm across is 50 / 25.4 * dpi pixels.
    assert struct.unpack(">II", chunks[b"IHDR"][:8]) == (round(50 / 25.4 * dpi),
                                                          round(20 / 25.4 * dpi))


@pytest.mark.parametrize("theme", THEMES)
def test_a_disc_mark_is_paper_white_in_the_svg(theme: str) -> None:
    svg = boardgen.draw(boardgen.play("o", "D4", side=4), "svg", theme=theme,
                        marks={"D4": "text 1", "B2": "text A"})
    paper = _style(svg)[".paper"]
    assert _rgb(paper) == (255, 255, 255)
    # The designer's labels lie on paper discs of their own (haloes, inside dashed rings),
    # not on the engine's discs.
    halos = re.findall(r'<polyline class="designer-mark mark-halo"[^>]*>', svg)
    assert len(halos) == 2 + 1  # the key's label too
    for halo in halos:
        assert f'stroke="{paper}"' in halo, halo
    assert not re.findall(r'<circle class="mark disc[^>]*>', svg)
    discs = re.findall(r'<circle class="mark disc[^>]*>',
                       boardgen.draw(boardgen.play("copolymer", "C3 B2 C2 D3", side=3),
                                     "svg", theme=theme))
    assert len(discs) == 1
    for disc in discs:
        assert f'fill="{paper}"' in disc, disc
        stroke = re.search(r'stroke="(#[0-9a-f]{6})"', disc)
        assert stroke and _rgb(stroke.group(1)) != _rgb(paper)  # its edge is drawn


def test_cairosvg_is_reached_through_the_png_module() -> None:
    import cairosvg

    from boardgen.render import png

    assert png.cairosvg is cairosvg
    with pytest.raises(AttributeError, match="no attribute 'cairo_svg'"):
        png.cairo_svg  # noqa: B018


@pytest.mark.parametrize(("width_mm", "height_mm", "dpi", "ok"), [
    (800.0, 999.9, 254, True),    # 8,000 x 9,999 pixels: under 80 million
    (800.0, 1000.1, 254, False),  # 8,000 x 10,001: over
    (3276.7, 10.0, 254, True),    # 32,767 pixels across: the most one way
    (3276.8, 10.0, 254, False),   # 32,768
    (10.0, 3276.8, 254, False),
])
def test_a_png_may_have_80_million_pixels_and_32767_each_way(
        width_mm: float, height_mm: float, dpi: int, ok: bool) -> None:
    from boardgen.errors import BoardgenError
    from boardgen.render.png import check_png_size

    if ok:
        check_png_size(width_mm, height_mm, dpi)
        return
    with pytest.raises(BoardgenError, match=r"lower dpi or cell_mm, or ask for \.pdf or \.svg"):
        check_png_size(width_mm, height_mm, dpi)


def test_a_short_hex_colour_paints_as_its_long_form() -> None:
    from boardgen.render.raster import _rgb

    assert _rgb("#fa0") == _rgb("#ffaa00") == (1.0, 170 / 255, 0.0)
    assert _rgb("#1a2b3c") == (0x1A / 255, 0x2B / 255, 0x3C / 255)


@pytest.mark.parametrize("text", ["A", "12", "Ölgemälde: X wins 10 to 9 (a caption's worth)",
                                  "  spaced  out  "])
def test_a_text_drawn_as_one_path_is_the_pixels_of_its_outline_drawn_point_by_point(
        text: str) -> None:
    """The PNG writer hands a text's outlines to cairo as one packed path; the same
    outlines (the writer's glyph operations, each x moved by the advance) drawn point by
    point through cairo's calls give the same pixels."""
    import cairocffi as cairo

    from boardgen.render import raster
    from boardgen.render.figure import Text, text_box
    from boardgen.render.fonts import face
    from boardgen.render.scene import THEMES as ALL_THEMES

    t = Text(12.0, 9.0, text, 3.2, "caption")
    font = face(t.weight)
    scale = t.size / font.units_per_em

    def surface() -> tuple[cairo.ImageSurface, cairo.Context]:
        image = cairo.ImageSurface(cairo.FORMAT_RGB24, 1400, 160)
        context = cairo.Context(image)
        context.scale(400 / 25.4, 400 / 25.4)
        return image, context

    ours, ours_context = surface()
    painter = raster._Painter.__new__(raster._Painter)
    painter.theme = ALL_THEMES["colour"]
    painter._text(ours_context, t)

    theirs, context = surface()
    context.translate(text_box(t)[0], t.y + font.cap_height * scale / 2)
    context.scale(scale, scale)
    advance = 0
    for ch in text:
        if ch != " ":
            for op, args in raster._GLYPHS.ops(t.weight, ch):
                if op == "m":
                    context.move_to(args[0] + advance, args[1])
                elif op == "l":
                    context.line_to(args[0] + advance, args[1])
                elif op == "c":
                    context.curve_to(args[0] + advance, args[1], args[2] + advance, args[3],
                                     args[4] + advance, args[5])
                else:
                    context.close_path()
        advance += font.advance(ch)
    context.set_source_rgb(*(c / 255 for c in _rgb(ALL_THEMES["colour"].muted)))
    context.fill()
    drawn = bytes(ours.get_data())
    assert drawn == bytes(theirs.get_data())
    assert (len(set(drawn)) > 1) == bool(text.strip())  # ink where there are letters
