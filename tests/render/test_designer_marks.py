"""A designer's mark never looks like an engine's role (issue 33, item 2).

Measured from the SVG files: every element a game's engine draws (its boards, its played
positions, its built-in diagrams, in a theme) is read as (class, shape, colour); a diagram
file with a mark of every kind, in every game and every theme, must draw its marks as
elements none of which shares all three with any engine element, and in a theme with
colours their ink is no engine colour at all.  The test's reader of the SVG shares nothing
with the renderer: it parses the XML and the style sheet as any viewer would.
"""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET
from collections import Counter
from dataclasses import replace

import pytest

import boardgen
from boardgen.games.registry import games
from boardgen.picture import MARK_KINDS, Marker, Panel, PointScene, designer_marks
from boardgen.render.scene import THEMES as BUILT_IN_THEMES

SVG_NS = "{http://www.w3.org/2000/svg}"
XLINK = "{http://www.w3.org/1999/xlink}href"
THEMES = tuple(BUILT_IN_THEMES)  # every theme there is
DESIGNER = "designer-mark"  # the class prefix the designer's marks carry

# A diagram file with a mark of every kind, for each game (a hex board, or the lattice).
MARKED = {
    "copolymer": "game: copolymer\nboard: hexhex 3\nfirst: x\nsetup: C3 B2 C2\npanel: p\n",
    "o": "game: o\nboard: hexhex 4\nsetup: D4\npanel: p\n",
    "free": "game: free\nboard: hexhex 3\nstone: black C3\npanel: p\n",
    "polygone": "game: polygone\nwhite: c4-c6\npanel: p\nshow: c4 about c6\n",
}
# Where the marks go: each kind on an empty place and on a stone, piece or pivot, where an
# engine's ring, disc or stone lies too (D3: Copolymer's open connection; c6: the pivot).
PLACES = {
    "copolymer": ("D3", "C3", "A1", "E5"),
    "o": ("D4", "C3", "A1", "G4"),
    "free": ("C3", "B2", "A1", "E5"),
    "polygone": ("c6", "c4", "b9", "c8"),
}
PLAYED = {"copolymer": "C3 B2 C2 D3 B3", "o": "D4 C3 G4", "free": "A1 B2",
          "polygone": "c0-c2>d1 c10-c8>b9"}


def marked_file(game: str) -> str:
    lines = [f"mark: {where} {'text A' if kind == 'text' else kind}"
             for kind in MARK_KINDS for where in PLACES[game][:2]]
    return MARKED[game] + "\n".join(lines) + "\n"


def _style(root: ET.Element) -> dict[str, str]:
    """The style sheet's fill by selector ('.cell.empty' -> '#fbf8f1')."""
    sheet = "".join(el.text or "" for el in root.iter(f"{SVG_NS}style"))
    rules: dict[str, str] = {}
    for selectors, body in re.findall(r"([^{}]+)\{([^{}]*)\}", sheet):
        fill = re.search(r"(?:^|;)fill:([^;]+)", body)
        if fill:
            for selector in selectors.split(","):
                rules[selector.strip()] = fill.group(1)
    return rules


def _shape(el: ET.Element) -> tuple[object, ...]:
    """What an element looks like, apart from its colour: its kind of drawing, open or
    closed, dashed or solid, and how many strokes a path has."""
    tag = el.tag.removeprefix(SVG_NS)
    dashed = "stroke-dasharray" in el.attrib
    if tag == "polyline":
        points = el.attrib["points"].split()
        closed = len(points) > 2 and points[0] == points[-1]
        return tag, closed, dashed, min(len(points), 3)
    if tag == "path":
        return tag, el.attrib.get("d", "").count("M"), dashed
    if tag == "use":
        return tag, el.attrib.get(XLINK, "")
    if tag == "g":
        return ("text",)
    return tag, dashed


Signature = tuple[str, tuple[object, ...], tuple[str, str]]


def drawn(svg: str) -> Counter[Signature]:
    """Every element the picture draws, as (class, shape, colour), counted: the colour its
    fill and stroke attributes give, or its class's rule in the style sheet."""
    root = ET.fromstring(svg)
    rules = _style(root)
    found: Counter[Signature] = Counter()
    for el in root.iter():
        cls = el.attrib.get("class", "")
        tag = el.tag.removeprefix(SVG_NS)
        if not cls or cls.startswith(("layer-", "board", "paper")) or tag not in (
                "circle", "polyline", "polygon", "path", "use", "g"):
            continue
        if tag == "g" and "aria-label" not in el.attrib:
            continue
        inline = re.search(r"fill:([^;\"]+)", el.attrib.get("style", ""))
        fill = inline.group(1) if inline else el.attrib.get(
            "fill", rules.get("." + ".".join(cls.split()), ""))
        found[(cls, _shape(el), (fill, el.attrib.get("stroke", "")))] += 1
    return found


def _colours(signatures: set[Signature]) -> set[str]:
    return {c for _, _, pair in signatures for c in pair if c.startswith("#")}


def engine_elements(theme: str) -> set[Signature]:
    """What every game's engine draws in ``theme``: its board, a played position, every
    built-in diagram; a designer's marks in them (a template may carry some) left out."""
    found: Counter[Signature] = Counter()
    for key, game in games().items():
        found += drawn(boardgen.board(key, "svg", theme=theme))
        found += drawn(boardgen.draw(boardgen.play(key, PLAYED[key]), "svg", theme=theme))
        for name in game.diagram_names():
            diagram = game.diagram(name)
            found += drawn(boardgen.draw(diagram, "svg", theme=theme))
            if any(m for _, row in diagram.rows for p in row for m in designer_marks(p)):
                # The template's own marks are the designer's: its picture without them.
                bare = replace(diagram, legend=tuple(r for r in diagram.legend
                                                     if not r.name.startswith("mark-")),
                               rows=tuple((t, tuple(_bare(p) for p in row))
                                          for t, row in diagram.rows))
                found -= drawn(boardgen.draw(diagram, "svg", theme=theme))
                found += drawn(boardgen.draw(bare, "svg", theme=theme))
    return set(found)


def _bare(panel: Panel) -> Panel:
    if isinstance(panel, PointScene):
        return replace(panel, designer_marks=())
    return replace(panel, markers=tuple(m for m in panel.markers if m.role != "designer"))


_ENGINE: dict[str, set[Signature]] = {}


def _engine(theme: str) -> set[Signature]:
    if theme not in _ENGINE:
        _ENGINE[theme] = engine_elements(theme)
    return _ENGINE[theme]


def designer_elements(game: str, theme: str) -> set[Signature]:
    """What a mark of every kind adds to a picture (and to its key), found as the elements
    the picture with the marks draws beyond the same picture without them (the key's
    words, and its empty cells, the ground of its swatches, left out): the marks, however
    drawn."""
    with_marks = drawn(boardgen.draw(boardgen.parse_diagram(marked_file(game)), "svg",
                                     theme=theme))
    without = drawn(boardgen.draw(boardgen.parse_diagram(MARKED[game]), "svg", theme=theme))
    return {e for e in with_marks - without
            if not e[0].startswith("cell ") and e[0] != "caption"}


@pytest.mark.parametrize("theme", THEMES)
@pytest.mark.parametrize("game", sorted(MARKED))
def test_a_mark_of_every_kind_shares_nothing_with_an_engine_role(game: str,
                                                                 theme: str) -> None:
    engine = _engine(theme)
    marks = designer_elements(game, theme)
    # No mark is an element the engine draws: never class, shape and colour all alike.
    assert not marks & engine, marks & engine
    # Every kind drawn (a label's letter too), in its own class.
    assert {cls for cls, _, _ in marks} == \
        {f"{DESIGNER} mark-{kind}" for kind in MARK_KINDS} | {f"{DESIGNER} mark-halo"}
    # Stronger: no class of the designer's is one an engine element carries, nor any of
    # its words; a ring is a shape (a dashed closed line) no engine draws.
    engine_words = {word for cls, _, _ in engine for word in cls.split()}
    assert not {word for cls, _, _ in marks for word in cls.split()} & engine_words
    assert not {shape for cls, shape, _ in marks if cls.endswith("mark-ring")} & \
        {shape for _, shape, _ in engine}
    if BUILT_IN_THEMES[theme].designer != BUILT_IN_THEMES[theme].line:
        # (A black-only theme's marks are told apart by dashes, halo and shape alone.)
        ink = {c for cls, _, pair in marks for c in pair
               if c.startswith("#") and not cls.endswith("mark-halo")}
        assert ink and not ink & _colours(engine), ink & _colours(engine)


def test_the_old_marks_would_have_been_caught() -> None:
    """The check can fail: a ring drawn as marks were before (the engine's element, in
    the accent) is found among the engine's elements."""
    position = boardgen.play("copolymer", PLAYED["copolymer"], side=3)
    panel = position.scene()
    old = replace(panel, markers=(*panel.markers, Marker(next(iter(panel.grid.cells)),
                                                          "ring", "accent")))
    diagram = position.game.panels("old", [old])
    found = drawn(boardgen.draw(diagram, "svg", theme="colour"))
    assert any(cls == "mark ring accent" for cls, _, _ in found)
    assert {e for e in found if e[0] == "mark ring accent"} & _engine("colour")


@pytest.mark.parametrize("theme", THEMES)
def test_a_diagram_keys_each_mark_kind_it_uses_once(theme: str) -> None:
    """One key per picture: an entry for each kind the panels use, and none for a kind
    they do not."""
    text = MARKED["copolymer"] + "mark: A1 ring\nmark: E5 ring\npanel: q\nmark: B2 dot\n"
    diagram = boardgen.parse_diagram(text)
    assert [role.name for role in diagram.legend if role.name.startswith("mark-")] == \
        ["mark-ring", "mark-dot"]
    root = ET.fromstring(boardgen.draw(diagram, "svg", theme=theme))
    legend_cells = [el.attrib.get("data-cell") for el in root.iter(f"{SVG_NS}use")
                    if el.attrib.get("data-cell", "").startswith("legend-mark-")]
    assert legend_cells == ["legend-mark-ring", "legend-mark-dot"]


# --- The glyphs, the halos and the inks, measured from the files (the print review) ---

def _segments(svg: str, designer: bool) -> list[tuple[tuple[float, float], tuple[float, float]]]:
    """Every straight two-point line the picture draws in ink, the designer's or the
    engine's (halos, the designer's paper, left out): a polyline of two points, or each
    ``M x y L x y`` of a path."""
    found = []
    for el in ET.fromstring(svg).iter():
        cls = el.attrib.get("class", "")
        if cls.startswith(DESIGNER) != designer or cls.endswith("mark-halo"):
            continue
        tag = el.tag.removeprefix(SVG_NS)
        if tag == "polyline":
            points = el.attrib["points"].split()
            pairs = [tuple(map(float, p.split(","))) for p in points]
            if len(pairs) == 2:
                found.append((pairs[0], pairs[1]))
        elif tag == "path":
            numbers = r"(-?[\d.]+)[ ,](-?[\d.]+)"
            for m in re.finditer(rf"M{numbers}\s*L{numbers}", el.attrib.get("d", "")):
                x0, y0, x1, y1 = map(float, m.groups())
                found.append(((x0, y0), (x1, y1)))
    return found


def cross_glyphs(svg: str, designer: bool) -> set[tuple[int, ...]]:
    """The crosses drawn: two lines of about one length that bisect each other, as the
    directions of their arms (degrees, modulo 180, to the nearest 15): an × is (45, 135)
    whatever its size, a + (0, 90)."""
    segments = _segments(svg, designer)
    glyphs = set()
    for k, (a0, a1) in enumerate(segments):
        for b0, b1 in segments[k + 1:]:
            length_a = math.dist(a0, a1)
            length_b = math.dist(b0, b1)
            middle_a = ((a0[0] + a1[0]) / 2, (a0[1] + a1[1]) / 2)
            middle_b = ((b0[0] + b1[0]) / 2, (b0[1] + b1[1]) / 2)
            if not length_a or math.dist(middle_a, middle_b) > 0.05 * length_a or \
                    abs(length_a - length_b) > 0.2 * length_a:
                continue
            directions = sorted(round(math.degrees(math.atan2(p1[1] - p0[1], p1[0] - p0[0]))
                                      % 180 / 15) * 15 % 180
                                for p0, p1 in ((a0, a1), (b0, b1)))
            if directions[0] != directions[1]:
                glyphs.add(tuple(directions))
    return glyphs


# The engine's refusals: Polygone's forbidden targets (crossed grooves), and Copolymer's
# illegal cells (crosses on cells).
REFUSALS = {
    "polygone": "game: polygone\nwhite: c2-c4 b1-c2\nblack: c4-d3 c8-c10\npanel: p\n"
                "show: b1 about c2\n",
}


def _engine_crosses(theme: str) -> set[tuple[int, ...]]:
    found: set[tuple[int, ...]] = set()
    for key, game in games().items():
        found |= cross_glyphs(boardgen.draw(boardgen.play(key, PLAYED[key]), "svg",
                                            theme=theme), designer=False)
        for name in game.diagram_names():
            found |= cross_glyphs(boardgen.draw(game.diagram(name), "svg", theme=theme),
                                  designer=False)
    for text in REFUSALS.values():
        found |= cross_glyphs(boardgen.draw(boardgen.parse_diagram(text), "svg",
                                            theme=theme), designer=False)
    return found


def test_a_diagonal_cross_of_any_size_is_the_engine_s_glyph() -> None:
    """The reader of glyphs can fail: an × of the designer's, at another size and stroke
    than the engine's, is the engine's glyph; a + is not."""
    engine = _engine_crosses("colour")
    assert (45, 135) in engine  # the engine's ×, found in its refusals
    def two_arms(r: float, diagonal: bool) -> str:
        arms = (((-r, -r), (r, r)), ((-r, r), (r, -r))) if diagonal else \
            (((-r, 0), (r, 0)), ((0, -r), (0, r)))
        lines = "".join(f'<polyline class="{DESIGNER} mark-cross" points="{a[0]},{a[1]} '
                        f'{b[0]},{b[1]}" stroke-width="{r / 3}"/>' for a, b in arms)
        return f'<svg xmlns="http://www.w3.org/2000/svg">{lines}</svg>'
    for r in (0.7, 1.6, 3.1):
        assert cross_glyphs(two_arms(r, diagonal=True), designer=True) <= engine
        assert not cross_glyphs(two_arms(r, diagonal=False), designer=True) & engine


@pytest.mark.parametrize("theme", THEMES)
def test_the_designer_s_cross_is_no_cross_an_engine_draws(theme: str) -> None:
    """A designer's cross is a glyph no engine draws in any game (upright, where the
    engine's refusals are diagonal ×s), in every game, whatever its size."""
    engine = _engine_crosses(theme)
    for game in sorted(MARKED):
        svg = boardgen.draw(boardgen.parse_diagram(marked_file(game) + "".join(
            f"mark: {where} cross\n" for where in PLACES[game][2:])), "svg", theme=theme)
        marks = cross_glyphs(svg, designer=True)
        assert marks, game  # the designer's crosses are found
        assert not marks & engine, (game, marks & engine)
    # And beside the engine's refusals, where the review found them alike.
    svg = boardgen.draw(boardgen.parse_diagram(REFUSALS["polygone"] + "mark: b3 cross\n"
                                               "mark: a2 cross\n"), "svg", theme=theme)
    assert cross_glyphs(svg, designer=False) == {(45, 135)}
    assert not cross_glyphs(svg, designer=True) & {(45, 135)}


def _layers(svg: str) -> dict[str, list[ET.Element]]:
    root = ET.fromstring(svg)
    return {g.attrib["class"].removeprefix("layer-"): list(g.iter())
            for g in root.iter(f"{SVG_NS}g") if g.attrib.get("class", "").startswith("layer-")}


def _is_halo(el: ET.Element) -> bool:
    return el.attrib.get("class", "") == f"{DESIGNER} mark-halo"


@pytest.mark.parametrize("theme", THEMES)
@pytest.mark.parametrize("game", sorted(MARKED))
def test_no_designer_halo_covers_the_engine_s_ink(game: str, theme: str) -> None:
    """The designer's paper lies under the engine's marks and pieces: every halo is in the
    board layer, drawn before the marks layer where the engine's rings, stones, pieces
    and crosses are, but a text mark's tag (its letters must read on a stone), which is
    one per text mark, no wider than its letters and no larger than a sixth of a cell."""
    svg = boardgen.draw(boardgen.parse_diagram(marked_file(game)), "svg", theme=theme)
    layers = _layers(svg)
    engine_marks = [el for el in layers["marks"]
                    if el.attrib.get("class", "").startswith(("mark ", "stroke "))]
    assert engine_marks  # the engine draws its marks and pieces there
    halos_over = [el for el in layers["marks"] if _is_halo(el)]
    texts = [el for el in layers["labels"]
             if el.attrib.get("class") == f"{DESIGNER} mark-text"]
    # One tag per text mark (two on the board, one in the key), nothing else.
    assert len(halos_over) == len(texts) == 3
    assert any(_is_halo(el) for el in layers["board"])  # the rest lie under
    hexagon = re.search(r'id="hex" points="([^"]+)"', svg)
    for tag in halos_over:
        (x0, y0), (x1, y1) = (tuple(map(float, p.split(",")))
                              for p in tag.attrib["points"].split())
        assert y0 == y1  # a horizontal bar under the letters
        width = float(tag.attrib["stroke-width"])
        area = (abs(x1 - x0) + width) * width
        if hexagon:  # a hex board: the cell's owner shows round the tag
            corners = [tuple(map(float, p.split(","))) for p in hexagon.group(1).split()]
            cell = 0.5 * abs(sum(ax * by - bx * ay for (ax, ay), (bx, by)
                                 in zip(corners, corners[1:] + corners[:1], strict=True)))
            assert area <= cell / 6, (area, cell)


def test_a_designer_ring_clears_the_engine_s_ring() -> None:
    """On Copolymer's open connection, the designer's ring and its halo stay inside the
    engine's ring's inner edge: the engine's ring prints whole."""
    svg = boardgen.draw(boardgen.parse_diagram(
        "game: copolymer\nboard: hexhex 3\nfirst: x\n"
        "setup: C4 C3 D4 C1 C5 A3 A1 B1 D2 E4 E3\npanel: p\nmark: B4 ring\n"), "svg",
        theme="colour")
    root = ET.fromstring(svg)
    rings = [(float(c.attrib["cx"]), float(c.attrib["cy"]), float(c.attrib["r"]),
              float(c.attrib["stroke-width"])) for c in root.iter(f"{SVG_NS}circle")
             if c.attrib.get("class", "").startswith("mark ring")]
    designer = [el for el in root.iter(f"{SVG_NS}polyline")
                if el.attrib.get("class", "").startswith(f"{DESIGNER} mark-")]
    on_rings = 0
    for el in designer:
        points = [tuple(map(float, p.split(","))) for p in el.attrib["points"].split()]
        x = sum(p[0] for p in points[:-1]) / (len(points) - 1)
        y = sum(p[1] for p in points[:-1]) / (len(points) - 1)
        cx, cy, r, width = min(rings, key=lambda c: math.dist((c[0], c[1]), (x, y)))
        if math.dist((cx, cy), (x, y)) > 0.01:
            continue  # the key's swatch
        on_rings += 1
        reach = max(math.dist(p, (x, y)) for p in points) + \
            float(el.attrib["stroke-width"]) / 2
        assert reach < r - width / 2, (el.attrib["class"], reach, r - width / 2)
    assert on_rings == 2  # the ring and its halo, on B4's open connection


def _grey(colour: str) -> float:
    """What a greyscale printer makes of #rrggbb (ITU-R 601), written out here again."""
    red, green, blue = (int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5))
    return 255 * (0.299 * red + 0.587 * green + 0.114 * blue)


@pytest.mark.parametrize("theme", THEMES)
def test_the_designer_s_ink_is_40_grey_levels_from_the_accent(theme: str) -> None:
    """In grey, a designer's mark and the engine's accent (its rings, its refusals in
    colour) differ in tone as well as in dashes and shape, measured from the SVG."""
    svg = boardgen.draw(boardgen.parse_diagram(marked_file("copolymer") +
                                               "panel: q\nplace: D3\n"), "svg", theme=theme)
    root = ET.fromstring(svg)
    designer = {el.attrib["stroke"] for el in root.iter()
                if el.attrib.get("class", "").startswith(f"{DESIGNER} mark-ring")}
    accent = {el.attrib["stroke"] for el in root.iter()
              if el.attrib.get("class", "") == "mark ring accent"}
    assert len(designer) == len(accent) == 1
    if theme == "ink":  # black and white only, as it promises: dashes and shapes tell apart
        assert designer == accent == {"#000000"}
    else:
        assert abs(_grey(designer.pop()) - _grey(accent.pop())) >= 40
    # And it keeps its dashes.
    assert all("stroke-dasharray" in el.attrib for el in root.iter()
               if el.attrib.get("class", "") == f"{DESIGNER} mark-ring")
