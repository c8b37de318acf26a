"""A designer's mark never looks like an engine's role (issue 33, item 2).

Measured from the SVG files: every element a game's engine draws (its boards, its played
positions, its built-in diagrams, in a theme) is read as (class, shape, colour); a diagram
file with a mark of every kind, in every game and every theme, must draw its marks as
elements none of which shares all three with any engine element, and in a theme with
colours their ink is no engine colour at all.  The test's reader of the SVG shares nothing
with the renderer: it parses the XML and the style sheet as any viewer would.
"""

from __future__ import annotations

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
