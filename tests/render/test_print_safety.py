"""Every theme survives a greyscale printer and the common colour-vision deficiencies.

Each theme's diagrams and boards are rendered to pixels (SVG through CairoSVG, PDF pages
through PDFium), converted to grey (ITU-R 601 luma, what a greyscale printer prints) and
through Machado et al.'s protanopia and deuteranopia simulations (colour-science).  Every
pair of roles a player must tell apart is then compared from the pixels alone: the pair
passes if its mean grey differs by 40 of 255 (20 for the light board zones), or if one is
patterned and the other not, or their patterns run in different directions; strokes (the
Polygone pieces and targets) also pass on a clearly different width or a dashed line
against a solid one.
"""

from __future__ import annotations

import io
import math
import warnings
from collections.abc import Iterator
from dataclasses import dataclass, replace

import cairosvg
import numpy as np
import pypdfium2
import pytest
from conftest import ROOT
from pdfdata import read_pages
from PIL import Image

from boardgen.games.polygone.picture import BOARD_SCENE
from boardgen.games.protocol import Game
from boardgen.games.registry import GAMES as GAME_DESCRIPTIONS
from boardgen.games.registry import build_diagram
from boardgen.geometry import hexhex
from boardgen.picture import Paint, Role, RolePaint, declare_paints
from boardgen.render.diagram import diagram_pages
from boardgen.render.figure import Figure, board_figure, text_box
from boardgen.render.lattice import lattice_figure
from boardgen.render.paper import parse_paper
from boardgen.render.pdf import render_pdf_pages
from boardgen.render.scene import THEMES, Theme, board_scene
from boardgen.render.svg import render_svg

# Slow: left out of the quick subset (pytest -m "not slow"; the README says which).
pytestmark = pytest.mark.slow

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    import colour

PX_PER_MM = 8.0
GREY_STEP = 40.0
LIGHT_STEP = GREY_STEP  # O's zones too: the docs promise 40 levels, not a looser figure

CELL_PAIRS = [("player1", "player2"), ("player1", "empty"), ("player2", "empty"),
              ("legal", "illegal"), ("legal", "empty"), ("illegal", "empty"),
              ("legal", "perimeter"), ("legal", "corner"), ("illegal", "perimeter"),
              ("illegal", "corner"), ("new", "corner"), ("new", "perimeter"), ("new", "empty")]
LIGHT_PAIRS = [("empty", "perimeter"), ("empty", "corner"), ("perimeter", "corner")]
MARK_PAIRS = [("stone", "loop")]
STROKE_PAIRS = [("ghost", "crossed"), ("ghost", "white-piece"), ("ghost", "black-piece"),
                ("crossed", "white-piece"), ("crossed", "black-piece"),
                ("white-piece", "black-piece")]
VISIONS = ("grey", "protanopia", "deuteranopia")


def luma(rgb: np.ndarray) -> np.ndarray:
    return rgb[..., 0] * 0.299 + rgb[..., 1] * 0.587 + rgb[..., 2] * 0.114


def simulate(rgb: np.ndarray, vision: str) -> np.ndarray:
    """The pixels as seen with a colour-vision deficiency (severity 1), still as sRGB."""
    if vision == "grey":
        return rgb
    deficiency = {"protanopia": "Protanomaly", "deuteranopia": "Deuteranomaly"}[vision]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        matrix = colour.blindness.matrix_cvd_Machado2009(deficiency, 1.0)
        linear = colour.cctf_decoding(rgb / 255.0, function="sRGB")
        seen = np.clip(linear @ np.asarray(matrix).T, 0.0, 1.0)
        return np.asarray(colour.cctf_encoding(seen, function="sRGB")) * 255.0


@dataclass
class Look:
    """What a patch of pixels looks like: its mean grey, whether it carries a pattern, and
    the pattern's direction as the structure tensor's anisotropy (0, 0 for dots or plain)."""

    grey: float
    textured: bool
    direction: tuple[float, float]
    rgb: tuple[float, float, float] = (0.0, 0.0, 0.0)  # the mean colour, as seen


def colour_difference(a: Look, b: Look) -> float:
    """CIEDE2000 between two mean colours (sRGB, 0-255)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        lab = [colour.XYZ_to_Lab(colour.sRGB_to_XYZ(np.array(v) / 255.0)) for v in (a.rgb, b.rgb)]
        return float(colour.delta_E(lab[0], lab[1], method="CIE 2000"))


def look(rgb: np.ndarray, mask: np.ndarray) -> Look:
    grey = luma(rgb)
    gx = np.diff(grey, axis=1)[:-1, :]
    gy = np.diff(grey, axis=0)[:, :-1]
    inner = mask[:-1, :-1] & mask[1:, :-1] & mask[:-1, 1:]
    jxx, jyy, jxy = (float(np.mean(v[inner])) for v in (gx * gx, gy * gy, gx * gy))
    energy = jxx + jyy
    textured = math.sqrt(energy) > 6.0
    direction = ((jxx - jyy) / energy, 2 * jxy / energy) if textured else (0.0, 0.0)
    mean = rgb[mask].mean(axis=0)
    return Look(float(np.mean(grey[mask])), textured, direction,
                (float(mean[0]), float(mean[1]), float(mean[2])))


def told_apart(a: Look, b: Look, step: float, vision: str = "grey") -> bool:
    """Grey (and pattern) for a greyscale print; someone with a colour-vision deficiency
    also tells colours apart along the axis they still see (CIEDE2000 of 20 or more)."""
    if abs(a.grey - b.grey) >= step:
        return True
    if vision != "grey" and colour_difference(a, b) >= 20.0:
        return True
    if a.textured != b.textured:
        return True
    return a.textured and math.dist(a.direction, b.direction) > 0.6


@dataclass
class StrokeLook:
    grey: float  # along the middle of the stroke
    width: float  # mm, across the ink
    varies: bool  # dashed: the width changes along the stroke


def told_apart_strokes(a: StrokeLook, b: StrokeLook) -> bool:
    wide, narrow = max(a.width, b.width), min(a.width, b.width)
    return (abs(a.grey - b.grey) >= GREY_STEP or wide >= 1.6 * narrow
            or a.varies != b.varies)


# --- sampling a rendered figure -----------------------------------------------------------


@dataclass
class Picture:
    """A figure's pixels, and how figure millimetres map onto them."""

    rgb: np.ndarray
    origin: tuple[float, float]  # pixel position of the figure's (0, 0)
    scale: float  # pixels per mm


def svg_picture(figure: Figure, theme: Theme) -> Picture:
    png = cairosvg.svg2png(bytestring=render_svg(figure, theme=theme).encode(),
                           dpi=PX_PER_MM * 25.4)
    image = Image.open(io.BytesIO(png)).convert("RGB")
    return Picture(np.asarray(image, dtype=float), (0.0, 0.0), image.width / figure.width)


def pdf_picture(figure: Figure, theme: Theme) -> Picture:
    """The figure on a PDF page, rendered by PDFium; where it sits is read from the PDF."""
    pdf = render_pdf_pages([figure], theme=theme, paper=parse_paper("a3"))
    (page,) = read_pages(pdf, into_forms=False)
    placed = next(p for p in page.placements if p.name.endswith("page1"))
    # The form draws figure (x, y) (mm, y down) at form point (x, height - y) in mm.
    left, top = placed.apply(0.0, figure.height * 72 / 25.4)
    document = pypdfium2.PdfDocument(pdf)
    image = document[0].render(scale=PX_PER_MM * 25.4 / 72).to_pil().convert("RGB")
    document.close()
    return Picture(np.asarray(image, dtype=float),
                   (left * PX_PER_MM, (page.height - top) * PX_PER_MM), PX_PER_MM)


def _disc(picture: Picture, x: float, y: float, radius: float) -> tuple[np.ndarray, np.ndarray]:
    cx, cy = picture.origin[0] + x * picture.scale, picture.origin[1] + y * picture.scale
    r = radius * picture.scale
    x0, y0 = int(cx - r), int(cy - r)
    patch = picture.rgb[y0:int(cy + r) + 2, x0:int(cx + r) + 2]
    yy, xx = np.mgrid[y0:y0 + patch.shape[0], x0:x0 + patch.shape[1]]
    return patch, (xx - cx) ** 2 + (yy - cy) ** 2 <= r * r


def cell_looks(figure: Figure, picture: Picture, vision: str) -> Iterator[tuple[str, Look]]:
    """A look per free cell (no stone, number or label on it), from its middle."""
    taken = {(round(m.x, 2), round(m.y, 2)) for m in figure.marks}
    taken |= {(round(t.x, 2), round(t.y, 2)) for t in figure.texts}
    for cell in figure.cells:
        if (round(cell.x, 2), round(cell.y, 2)) in taken or cell.name.startswith("legend"):
            continue
        patch, mask = _disc(picture, cell.x, cell.y, 0.3 * figure.cell_width)
        yield cell.role, look(simulate(patch, vision), mask)


def mark_looks(figure: Figure, picture: Picture, vision: str) -> Iterator[tuple[str, Look]]:
    for mark in figure.marks:
        if mark.kind == "dot" and mark.role in ("stone", "loop"):
            patch, mask = _disc(picture, mark.x, mark.y, 0.6 * mark.radius)
            yield mark.role, look(simulate(patch, vision), mask)


def stroke_looks(figure: Figure, picture: Picture,
                 vision: str) -> Iterator[tuple[str, StrokeLook]]:
    """Along each piece or target: the grey of its middle line, and its width across,
    sampled away from its ends and its middle (where a cross may be)."""
    spacing = figure.cell_width
    for stroke in figure.strokes:
        if stroke.role not in ("ghost", "crossed", "white-piece", "black-piece"):
            continue
        (ax, ay), (bx, by) = stroke.points[0], stroke.points[-1]
        length = math.hypot(bx - ax, by - ay)
        if length < 0.6 * spacing:
            continue  # a legend swatch, shorter than the panels' lines
        nx, ny = -(by - ay) / length, (bx - ax) / length
        greys, widths, amounts = [], [], []
        for t in np.linspace(0.1, 0.9, 81):
            if 0.3 < t < 0.7:
                continue
            x, y = ax + (bx - ax) * t, ay + (by - ay) * t
            offsets = np.arange(-0.11 * spacing, 0.11 * spacing, 0.5 / picture.scale)
            px = picture.origin[0] + (x + nx * offsets) * picture.scale
            py = picture.origin[1] + (y + ny * offsets) * picture.scale
            profile = luma(simulate(picture.rgb[py.astype(int), px.astype(int)], vision))
            greys.append(float(profile[len(profile) // 2]))
            ink = np.nonzero(profile < 255 - 60)[0]
            widths.append(float(offsets[ink[-1]] - offsets[ink[0]]) if len(ink) else 0.0)
            # How much ink crosses the profile: anti-aliased, so finer than a pixel.
            amounts.append(float(np.sum(255 - profile)) / 255 * 0.5 / picture.scale)
        mean = float(np.mean(amounts))
        yield stroke.role, StrokeLook(float(np.mean(greys)), float(np.mean(widths)),
                                      mean > 0 and float(np.std(amounts)) > 0.2 * mean)


# --- what is rendered -----------------------------------------------------------------------


def theme_figures() -> list[tuple[str, Figure]]:
    figures = [("o board", board_figure(board_scene(hexhex(5), edges=True), 9.0)),
               ("polygone board", lattice_figure(BOARD_SCENE, 30.0))]
    for game in ("copolymer", "o", "polygone"):
        for name in GAME_DESCRIPTIONS[game].diagram_names():
            diagram = build_diagram(game, name)
            (figure,) = diagram_pages(diagram, cell_width=diagram.cell_mm, max_width=180.0,
                                      max_height=None)
            figures.append((f"{game} {name}", figure))
    return figures


FIGURES = theme_figures()


def _median_look(looks: list[Look]) -> Look:
    textured = sum(v.textured for v in looks) * 2 > len(looks)
    chosen = [v for v in looks if v.textured == textured]
    rgb = np.median([v.rgb for v in chosen], axis=0)
    return Look(float(np.median([v.grey for v in chosen])), textured,
                (float(np.median([v.direction[0] for v in chosen])),
                 float(np.median([v.direction[1] for v in chosen]))),
                (float(rgb[0]), float(rgb[1]), float(rgb[2])))


Looks = tuple[dict[str, Look], dict[str, Look], dict[str, StrokeLook]]


def gather(theme: Theme, pdf: bool = False,
           names: tuple[str, ...] | None = None) -> dict[str, Looks]:
    """Per vision, the typical look of every role over the theme's figures."""
    pictures = [(figure, pdf_picture(figure, theme) if pdf else svg_picture(figure, theme))
                for name, figure in FIGURES if names is None or name in names]
    result = {}
    for vision in VISIONS:
        cells: dict[str, list[Look]] = {}
        marks: dict[str, list[Look]] = {}
        strokes: dict[str, list[StrokeLook]] = {}
        for figure, picture in pictures:
            for role, seen in cell_looks(figure, picture, vision):
                cells.setdefault(role, []).append(seen)
            for role, seen in mark_looks(figure, picture, vision):
                marks.setdefault(role, []).append(seen)
            for role, line in stroke_looks(figure, picture, vision):
                strokes.setdefault(role, []).append(line)
        stroke_summary = {
            role: StrokeLook(float(np.median([v.grey for v in found])),
                             float(np.median([v.width for v in found])),
                             sum(v.varies for v in found) * 2 > len(found))
            for role, found in strokes.items()}
        result[vision] = ({role: _median_look(found) for role, found in cells.items()},
                          {role: _median_look(found) for role, found in marks.items()},
                          stroke_summary)
    return result


def failures(looks: Looks, vision: str = "grey") -> list[str]:
    cells, marks, strokes = looks
    found = []
    for pairs, seen, step in ((CELL_PAIRS, cells, GREY_STEP), (LIGHT_PAIRS, cells, LIGHT_STEP),
                              (MARK_PAIRS, marks, GREY_STEP)):
        for a, b in pairs:
            if a in seen and b in seen and not told_apart(seen[a], seen[b], step, vision):
                found.append(f"{a}/{b}: {seen[a]} vs {seen[b]}")
    for a, b in STROKE_PAIRS:
        if a in strokes and b in strokes and not told_apart_strokes(strokes[a], strokes[b]):
            found.append(f"{a}/{b}: {strokes[a]} vs {strokes[b]}")
    return found


@pytest.mark.parametrize("theme", sorted(THEMES))
def test_roles_stay_apart_in_every_theme(theme: str) -> None:
    by_vision = gather(THEMES[theme])
    for cells, marks, strokes in by_vision.values():
        # Every role of every pair was seen somewhere, so that no pair passes unchecked.
        for pairs, seen in ((CELL_PAIRS + LIGHT_PAIRS, cells), (MARK_PAIRS, marks),
                            (STROKE_PAIRS, strokes)):
            for pair in pairs:
                assert set(pair) <= set(seen), f"{pair} not rendered in {theme}"
    assert {vision: failures(looks, vision) for vision, looks in by_vision.items()} == \
        {vision: [] for vision in VISIONS}


@pytest.mark.parametrize("theme", sorted(THEMES))
def test_roles_stay_apart_in_pdf(theme: str) -> None:
    """The PDF writer draws patterns its own way: check it too, on the O board and the
    diagrams that hold every O role and every Polygone target."""
    names = ("o board", "o corners", "o glyphs", "o loop", "polygone 02-targets")
    by_vision = gather(THEMES[theme], pdf=True, names=names)
    assert {vision: failures(looks, vision) for vision, looks in by_vision.items()} == \
        {vision: [] for vision in VISIONS}


def test_the_check_catches_x_and_o_in_one_grey() -> None:
    from dataclasses import replace

    from boardgen.render.scene import Paint

    base = THEMES["colour"]
    # Red and blue of the same luma: told apart in colour, not on a greyscale printer.
    same = replace(base, cells={**base.cells, "player1": Paint("#c0392b"),
                                "player2": Paint("#2e6db4")})
    found = failures(gather(same, names=("copolymer tempo",))["grey"])
    assert any(f.startswith("player1/player2") for f in found)


# --- every O picture on its own ---------------------------------------------------------

O_PICTURES = [(name, figure) for name, figure in FIGURES
              if name == "o board" or name.startswith("o ")]


def stone_looks(figure: Figure, picture: Picture) -> Iterator[tuple[str, str, Look]]:
    """(stone role, role of the cell under it, look) for every stone or disc, sampled over
    its whole face, its outline included, but not its number: what tells it from the cell."""
    under = {(round(c.x, 2), round(c.y, 2)): c.role for c in figure.cells}
    boxes = [text_box(t) for t in figure.texts]
    for mark in figure.marks:
        if mark.kind not in ("dot", "disc"):
            continue
        cell = under.get((round(mark.x, 2), round(mark.y, 2)))
        if cell is None:
            continue
        patch, mask = _disc(picture, mark.x, mark.y, 0.95 * mark.radius)
        y0 = int(picture.origin[1] + (mark.y - 0.95 * mark.radius) * picture.scale)
        x0 = int(picture.origin[0] + (mark.x - 0.95 * mark.radius) * picture.scale)
        yy, xx = np.mgrid[y0:y0 + patch.shape[0], x0:x0 + patch.shape[1]]
        for bx0, by0, bx1, by1 in boxes:
            inside = ((xx >= picture.origin[0] + bx0 * picture.scale)
                      & (xx <= picture.origin[0] + bx1 * picture.scale)
                      & (yy >= picture.origin[1] + by0 * picture.scale)
                      & (yy <= picture.origin[1] + by1 * picture.scale))
            mask = mask & ~inside
        role = mark.role if mark.kind == "dot" else "numbered disc"
        face = look(patch, mask)
        # Whether its face is patterned, from inside its rim (a rim is an edge, not a
        # pattern).
        inner = mask & ((xx - (picture.origin[0] + mark.x * picture.scale)) ** 2
                        + (yy - (picture.origin[1] + mark.y * picture.scale)) ** 2
                        <= (0.6 * mark.radius * picture.scale) ** 2)
        # (Too few pixels left round a number to see a pattern in: plain.)
        whole = inner[:-1, :-1] & inner[1:, :-1] & inner[:-1, 1:]
        textured = look(patch, inner).textured if whole.sum() > 8 else False
        yield role, cell, Look(face.grey, textured, (0.0, 0.0), face.rgb)


def picture_failures(figure: Figure, picture: Picture, fallback: dict[str, Look]) -> list[str]:
    cells: dict[str, list[Look]] = {}
    for role, seen in cell_looks(figure, picture, "grey"):
        cells.setdefault(role, []).append(seen)
    typical = {role: _median_look(found) for role, found in cells.items()}
    found = []
    for a, b in CELL_PAIRS + LIGHT_PAIRS:
        if a in typical and b in typical and not told_apart(typical[a], typical[b], GREY_STEP):
            found.append(f"cells {a}/{b}")
    stones = list(stone_looks(figure, picture))
    by_role: dict[str, list[Look]] = {}
    for role, _, seen in stones:
        by_role.setdefault(role, []).append(seen)
    kinds = {role: _median_look(found) for role, found in by_role.items()}
    # A stone differs from what it stands on (or from the other kind of stone) by its
    # grey, its rim included, or by a plain face on a patterned cell.
    def apart(a: Look, b: Look) -> bool:
        return abs(a.grey - b.grey) >= GREY_STEP or a.textured != b.textured

    for a, b in (("stone", "loop"),):
        if a in kinds and b in kinds and not apart(kinds[a], kinds[b]):
            found.append(f"stones {a}/{b}: {kinds[a].grey:.0f} vs {kinds[b].grey:.0f}")
    for role, cell, seen in stones:
        ground = typical.get(cell) or fallback.get(cell)
        if ground is not None and not apart(seen, ground):
            found.append(f"{role} on {cell}: {seen.grey:.0f} vs {ground.grey:.0f}")
    return sorted(set(found))


@pytest.mark.parametrize("theme", sorted(THEMES))
def test_every_o_picture_passes_the_grey_test_on_its_own(theme: str) -> None:
    """Issue 23: the loop's orange stone on a corner printed grey on grey, and in ink the
    numbered stones looked like the loop's.  Each O picture, on its own: every pair of
    roles it shows, the stones against the loop's, every stone against its cell."""
    pictures = [(name, figure, svg_picture(figure, THEMES[theme])) for name, figure in O_PICTURES]
    fallback: dict[str, list[Look]] = {}
    for _, figure, picture in pictures:
        for role, seen in cell_looks(figure, picture, "grey"):
            fallback.setdefault(role, []).append(seen)
    grounds = {role: _median_look(found) for role, found in fallback.items()}
    assert {name: picture_failures(figure, picture, grounds)
            for name, figure, picture in pictures} == {name: [] for name, _, _ in pictures}


def test_the_picture_check_catches_zones_and_a_loop_stone_grey_on_a_corner() -> None:
    """Before issue 23 the zones were 28 and 34 levels apart (interior 248, perimeter 220,
    corner 186); and an orange loop stone 10 levels from the corner's grey (152 on 161)
    is grey on grey."""
    from dataclasses import replace

    from boardgen.render.scene import Paint

    base = THEMES["colour"]
    (figure,) = [f for name, f in O_PICTURES if name == "o loop"]
    old_zones = replace(base, cells={**base.cells, "perimeter": Paint("#e6dcc5"),
                                     "corner": Paint("#cbb98f")})
    assert "cells perimeter/corner" in picture_failures(figure, svg_picture(figure, old_zones),
                                                        {})
    orange = replace(base, marks={**base.marks, "loop": "#d0902c"})
    found = picture_failures(figure, svg_picture(figure, orange), {})
    assert any(f.startswith("loop on corner") for f in found), found


def test_the_picture_check_catches_hollow_loop_stones(monkeypatch: pytest.MonkeyPatch) -> None:
    """Ink before issue 23: loop stones hollow with a thin outline, white on a white or
    dotted cell, as the numbered stones were (O declares its loop stones' rim)."""
    from dataclasses import replace

    from boardgen import picture

    loop = picture.declared_paint("loop")
    assert loop is not None and loop.rims
    monkeypatch.setitem(picture._DECLARED, "loop", replace(loop, rims={}))
    hollow = THEMES["ink"]
    (figure,) = [f for name, f in O_PICTURES if name == "o short-game"]
    found = picture_failures(figure, svg_picture(figure, hollow), {})
    assert any(f.startswith("loop on") for f in found), found


# --- roles a game declares with their own paint ----------------------------------------------


def example_games() -> list[Game]:
    """The example plug-ins' games (examples/*), loaded from the repository as their entry
    points name them, installed or not: their declared roles are held to the same test."""
    import importlib
    import sys
    import tomllib

    found = []
    for project in sorted((ROOT / "examples").glob("*/pyproject.toml")):
        points = tomllib.loads(project.read_text())["project"]["entry-points"]["boardgen.games"]
        # On the path only while imported: left there, its build metadata (an .egg-info a
        # pip install leaves in the folder) would list it as an installed plug-in to every
        # later test of this process.
        sys.path.insert(0, str(project.parent))
        try:
            for value in points.values():
                module, _, attribute = value.partition(":")
                found.append(getattr(importlib.import_module(module), attribute))
        finally:
            sys.path.remove(str(project.parent))
    return found


def declared_pairs(game: Game) -> list[tuple[str, str]]:
    return [(role.name, other) for role in game.roles if role.paint is not None
            for other in role.paint.apart_from]


def game_figures(game: Game) -> list[Figure]:
    """The game's default board and its diagrams, as the sheets draw them."""
    figures = [board_figure(game.board_scene(game.hex_board()), 9.0)] \
        if game.hex_boards is not None else []
    for name in game.diagram_names():
        diagram = game.diagram(name)
        figures.extend(diagram_pages(diagram, cell_width=diagram.cell_mm, max_width=180.0,
                                     max_height=None))
    return figures


def declared_failures(figures: list[Figure], theme: Theme,
                      pairs: list[tuple[str, str]]) -> dict[str, list[str]]:
    """Per vision, each pair of ``pairs`` not told apart on the pixels (or not drawn)."""
    pictures = [(figure, svg_picture(figure, theme)) for figure in figures]
    found: dict[str, list[str]] = {}
    for vision in VISIONS:
        seen: dict[str, list[Look]] = {}
        for figure, picture in pictures:
            for role, cell in cell_looks(figure, picture, vision):
                seen.setdefault(role, []).append(cell)
        looks = {role: _median_look(cells) for role, cells in seen.items()}
        found[vision] = [f"{a}/{b}: " + (f"{looks[a]} vs {looks[b]}" if {a, b} <= set(looks)
                                          else "not drawn")
                         for a, b in pairs
                         if not {a, b} <= set(looks)
                         or not told_apart(looks[a], looks[b], GREY_STEP, vision)]
    return found


DECLARING = [game for game in [*GAME_DESCRIPTIONS.values(), *example_games()]
             if declared_pairs(game)]


def test_an_example_declares_roles_of_its_own() -> None:
    assert "hex" in {game.key for game in DECLARING}  # else the test below checks nothing


@pytest.mark.parametrize("theme", sorted(THEMES))
@pytest.mark.parametrize("game", DECLARING, ids=lambda game: game.key)
def test_a_games_own_roles_stay_apart_in_every_theme(game: Game, theme: str,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    from boardgen import picture

    monkeypatch.setattr(picture, "_DECLARED", dict(picture._DECLARED))  # undone after
    declare_paints(game.declared_paints())  # as the registry does when it loads a plug-in
    assert declared_failures(game_figures(game), THEMES[theme], declared_pairs(game)) == \
        {vision: [] for vision in VISIONS}


def test_the_check_catches_a_declared_role_too_close_to_an_empty_cell(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Break it on purpose: a role painted 8 grey levels off an empty cell fails."""
    from boardgen import picture

    monkeypatch.setattr(picture, "_DECLARED", dict(picture._DECLARED))  # undone after
    faint = Role("test-faint", "faint", paint=RolePaint(Paint("#f0f0f0"),
                                                        apart_from=("empty",)))
    assert faint.paint is not None
    declare_paints({faint.name: faint.paint})
    grid = hexhex(3)
    scene = board_scene(grid)
    scene = replace(scene, cell_roles={cell: "test-faint" for cell in grid.cells[:9]})
    failed = declared_failures([board_figure(scene, 9.0)], THEMES["colour"],
                               [("test-faint", "empty")])
    assert failed["grey"] and failed["grey"][0].startswith("test-faint/empty")
