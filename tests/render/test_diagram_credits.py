"""Stand-alone diagrams credit the designer, and text alternatives say only what the
picture shows (issue 31, items 3 and 5).

Every diagram of the three games, drawn on its own as PDF and as SVG, names the game and
its designer ("by Mark Steere", "by Fabien Vandenbussche"), and every O diagram says that
the glyph chart its verdicts rest on is our reconstruction.  A text alternative names as
stones only cells that hold one, and names no cell in a panel that carries no names."""

from __future__ import annotations

import io
import re
from dataclasses import replace
from pathlib import Path

import pytest
from pypdf import PdfReader

from boardgen.games.o.engine import OGame
from boardgen.games.registry import build_diagram, game_named
from boardgen.geometry import hexhex
from boardgen.picture import Diagram, Scene
from boardgen.publish.drawing import render_diagram
from boardgen.publish.sheet import render_sheet_html
from boardgen.render.diagram import describe
from boardgen.render.paper import parse_paper
from boardgen.render.scene import THEMES

DESIGNERS = {"copolymer": "Mark Steere", "o": "Mark Steere",
             "polygone": "Fabien Vandenbussche"}
CHART = "glyph chart: our reconstruction"
DIAGRAMS = [(game, name) for game in DESIGNERS for name in game_named(game).diagram_names()]


def test_there_are_the_eighteen_diagrams_the_issue_counted() -> None:
    assert len(DIAGRAMS) == 18


def _one_line(text: str) -> str:
    return " ".join(text.replace("\u00a0", " ").split())


@pytest.mark.parametrize(("game", "name"), DIAGRAMS)
def test_every_standalone_diagram_names_its_designer(game: str, name: str) -> None:
    credit = f"{game_named(game).name} by {DESIGNERS[game]}"
    pdf = render_diagram(game, name, "pdf", paper=parse_paper("a4"), theme=THEMES["colour"])
    reader = PdfReader(io.BytesIO(pdf))
    pages = [_one_line(page.extract_text()) for page in reader.pages]
    for number, page in enumerate(pages, start=1):
        assert credit in page, f"{game} {name} PDF page {number} does not say {credit!r}"
        assert (CHART in page) == (game == "o"), f"{game} {name} PDF page {number}"
    assert reader.metadata is not None and credit in str(reader.metadata.get("/Author"))
    svg = render_diagram(game, name, "svg", paper=parse_paper("a4"),
                         theme=THEMES["colour"]).decode()
    drawn = _one_line(" ".join(re.findall(r'class="credit"[^>]*aria-label="([^"]*)"', svg)))
    assert credit in drawn, f"{game} {name} SVG draws no credit: {drawn!r}"
    assert (CHART in drawn) == (game == "o"), f"{game} {name} SVG: {drawn!r}"


def test_a_chart_the_user_gives_is_not_called_our_reconstruction() -> None:
    """With --glyphs the verdicts rest on the user's chart: the credit stays, the note
    goes."""
    chart = dict(OGame(hexhex(4)).table)
    chart["k2-gap"] = "illegal"
    for fmt in ("pdf", "svg"):
        data = render_diagram("o", "corners", fmt, paper=parse_paper("a4"),
                              theme=THEMES["colour"], options={"glyphs": chart})
        text = _one_line(" ".join(page.extract_text() for page in
                                  PdfReader(io.BytesIO(data)).pages)) if fmt == "pdf" \
            else data.decode()
        assert "O by Mark Steere" in text and CHART not in text, fmt


# --- text alternatives -------------------------------------------------------------------

CELL = re.compile(r"\b[A-HJ-Z][0-9]{1,2}\b")


def _panels(diagram: Diagram) -> list[Scene]:
    return [p for _, panels in diagram.rows for p in panels if isinstance(p, Scene)]


def _alone(diagram: Diagram, scene: Scene) -> str:
    """The text alternative of one panel, with no title, key or caption."""
    one = Diagram("", ((None, (replace(scene, caption=None),)),), roles=diagram.roles)
    return describe(one).split("Panel 1: ", 1)[1]


def _stone_cells(scene: Scene, diagram: Diagram) -> set[str]:
    """Cells the picture draws a stone on: a dot, or a disc in a stone's role."""
    from boardgen.geometry import Notation

    stone_roles = {r.name for r in diagram.roles if r.swatch == "stone"}
    name = Notation(scene.grid).name
    return {name(m.cell) for m in scene.markers
            if m.kind == "dot" or (m.kind == "disc" and m.role in stone_roles)}


@pytest.mark.parametrize(("game", "name"), [d for d in DIAGRAMS if d[0] != "polygone"])
def test_alternative_text_names_only_stones_as_stones(game: str, name: str) -> None:
    diagram = build_diagram(game, name)
    for number, scene in enumerate(_panels(diagram), start=1):
        said = _alone(diagram, scene)
        if scene.labels == "none":
            assert not CELL.search(said), f"{name} panel {number} names a cell the " \
                f"picture does not name: {said!r}"
            continue
        for listed in re.findall(r"stones on ([^;.]*)", said):
            named = {c.strip() for c in listed.split(",")}
            assert named <= _stone_cells(scene, diagram), \
                f"{name} panel {number}: {sorted(named - _stone_cells(scene, diagram))} " \
                "named as stones, but no stone is drawn there"


def test_the_partisan_glyphs_name_no_empty_cell_as_a_stone() -> None:
    """The empty centre carries the letter L or R on a disc: it is not a stone, in the
    diagram's text alternative and in the HTML sheet's <desc>."""
    diagram = build_diagram("o", "partisan-glyphs")
    said = describe(diagram)
    assert "stones on" not in said and not CELL.search(said), said
    for scene, mark in zip(_panels(diagram), ("L", "R"), strict=True):
        ring = _alone(diagram, scene)
        assert f"the empty centre cell, marked {mark}" in ring
        # Three stones round the centre, as drawn.
        assert ring.count("stone,") + ring.endswith("stone") - ring.count("no stone") == 3, \
            ring
        assert len(_stone_cells(scene, diagram)) == 3
    page = render_sheet_html("o", theme=THEMES["colour"]).decode()
    descs = [d for d in re.findall(r"<desc[^>]*>(.*?)</desc>", page, flags=re.S)
             if "left and right glyphs" in d]
    assert descs and all("marked L" in d and not CELL.search(d) for d in descs), descs


def test_the_glyph_chart_names_no_cell() -> None:
    """Its flowers carry no coordinates: the text alternative reads each ring instead."""
    said = describe(build_diagram("o", "glyphs"))
    assert not CELL.search(said), said
    assert said.count("the empty centre cell") == 13
    assert "round it, clockwise from the right: stone, stone, empty, empty, empty, " \
        "empty" in said


# --- the review of issue 31: a worked example's source, and full text alternatives ---------

SERVER_EXAMPLE = "the play-by-email server's worked example"


@pytest.mark.parametrize("name", game_named("copolymer").diagram_names())
def test_the_servers_worked_example_says_whose_it_is_when_drawn_alone(name: str) -> None:
    """The Connections figure is the server's help-page example (its figures 2a to 3b,
    (c) 2006 Mark Steere), as the sheet says: drawn on its own it says so too, in the PDF
    footer and under the SVG; the diagrams of our own say no such thing."""
    ours = name != "help-page"
    pdf = render_diagram("copolymer", name, "pdf", paper=parse_paper("a4"),
                         theme=THEMES["colour"])
    pages = [_one_line(p.extract_text()) for p in PdfReader(io.BytesIO(pdf)).pages]
    svg = render_diagram("copolymer", name, "svg", paper=parse_paper("a4"),
                         theme=THEMES["colour"]).decode()
    drawn = _one_line(" ".join(re.findall(r'class="credit"[^>]*aria-label="([^"]*)"', svg)))
    for where, text in [*((f"PDF page {n}", p) for n, p in enumerate(pages, 1)),
                        ("SVG", drawn.replace("\u2019", "'"))]:
        for words in (SERVER_EXAMPLE, "\u00a9 2006 Mark Steere"):
            assert (words in text) != ours, f"{name} {where}: {text!r}"
        assert "Copolymer by Mark Steere" in text, f"{name} {where}"


@pytest.mark.parametrize(("game", "name"), DIAGRAMS)
def test_a_standalone_svg_carries_the_sheets_text_alternative(game: str, name: str) -> None:
    """The SVG's <desc> is the alternative text the rule sheet gives the same figure (every
    panel, not only the title), then the credit drawn under it."""
    import html

    svg = render_diagram(game, name, "svg", paper=parse_paper("a4"),
                         theme=THEMES["colour"]).decode()
    (desc,) = re.findall(r"<desc>(.*?)</desc>", svg, flags=re.S)
    desc = html.unescape(desc)
    assert desc.startswith(describe(build_diagram(game, name))), desc[:200]
    assert f"{game_named(game).name} by {DESIGNERS[game]}" in desc


@pytest.mark.parametrize("name", ["03-blocking", "08-piece-inside"])
def test_polygone_labels_are_named_in_the_alternative_text(name: str) -> None:
    """The captions speak of piece 1, A, B: the text alternative says which line each label
    marks, as the file's number: lines put them."""
    from boardgen.geometry.lattice import line_name, parse_line

    text = (game_named("polygone").template_folder / f"{name}.txt").read_text("utf-8")
    labels = {(line_name(parse_line(where)), label)
              for where, label in re.findall(r"^number: (\S+) (\S+)$", text, flags=re.M)}
    assert len(labels) == {"03-blocking": 6, "08-piece-inside": 1}[name]
    said = describe(build_diagram("polygone", name))
    for line, label in labels:
        assert f"{line} is {label}" in said, (line, label, said)


def test_the_loops_text_alternative_says_which_stones_form_it() -> None:
    """The finished game's loop, as the engine finds it (play --json's "loop"), is the set
    of stones the text alternative calls the loop's; the other stones are plain stones."""
    import boardgen

    text = (game_named("o").template_folder / "loop.txt").read_text("utf-8")
    moves = [*re.search(r"^setup: (.*)$", text, flags=re.M)[1].split(),  # type: ignore[index]
             *re.findall(r"^place: (\S+)$", text, flags=re.M)]
    state = boardgen.play("o", moves, side=5).to_json()
    loop = set(state["loop"])  # type: ignore[arg-type]
    assert len(loop) == 13
    said = describe(build_diagram("o", "loop"))
    listed = re.search(r"the loop's stones on ([^;.]*)", said)
    assert listed is not None, said
    assert {c.strip() for c in listed[1].split(",")} == loop
    plain = re.search(r"(?<!loop's )stones on ([^;.]*)", said)
    assert plain is not None and not loop & {c.strip() for c in plain[1].split(",")}


def test_a_copolymer_file_names_its_source_under_the_diagram(tmp_path: Path) -> None:
    """``source:`` in a Copolymer diagram file is said under the diagram drawn alone (the
    built-in help-page file uses it); an empty one is refused at its line."""
    from boardgen.errors import BoardgenError
    from boardgen.games.registry import load_diagram_file
    from boardgen.render.diagram import draw_diagram

    text = ("game: copolymer\ntitle: A club game\nsource: {source}\nboard: hexhex 3\n"
            "panel: p\nplace: C3\n")
    path = tmp_path / "club.txt"
    path.write_text(text.format(source="the club's game of 3 May"), encoding="utf-8")
    game, diagram = load_diagram_file(path)
    svg = draw_diagram(diagram, game.key, "club", "svg", paper=parse_paper("a4"),
                       theme=THEMES["colour"], info=game.diagram_info("club")).decode()
    assert "the club\u2019s game of 3 May" in svg and "Copolymer by Mark Steere" in svg
    path.write_text(text.format(source=" "), encoding="utf-8")
    with pytest.raises(BoardgenError, match=r"club.txt:3: "):
        load_diagram_file(path)
