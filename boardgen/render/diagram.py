"""Example-play diagrams: replayed panels laid out as strips, one row of panels per line.

Every position comes from the engine (``boardgen.rules.copolymer_examples``); this module
only draws: the cells of the turn in progress ringed and numbered in the order placed, the
engine-written caption under each panel.  PDFs break pages between rows, never through a
panel.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from pathlib import Path

from boardgen.errors import BoardgenError
from boardgen.geometry import Layout
from boardgen.geometry.lattice import Hole
from boardgen.render.figure import (
    CellShape,
    Figure,
    Stroke,
    Text,
    board_figure,
    merge,
    text_box,
    wrap,
)
from boardgen.render.fonts import BOLD, REGULAR, face
from boardgen.render.paper import Paper, content_size
from boardgen.render.pdf import PageInfo, render_pdf_pages
from boardgen.render.png import render_png
from boardgen.render.polygone_figure import (
    LatticeScene,
    Swing,
    lattice_figure,
    staple,
    target_strokes,
)
from boardgen.render.scene import Marker, Scene, Theme
from boardgen.render.svg import document_size, render_svg
from boardgen.rules.copolymer_examples import Example, Panel, load_example
from boardgen.rules.polygone import RECONSTRUCTION
from boardgen.rules.polygone_examples import PolygoneExample, load_polygone_example

PLAYER_ROLES = {"x": "player1", "o": "player2"}
DEFAULT_PANEL_CELL_MM = 8.0
GAP_MM = 6.0
TITLE_MM = 5.0
LINE_TITLE_MM = 3.8
TEMPLATES = Path(__file__).resolve().parent.parent.parent / "templates"


@dataclass(frozen=True)
class Diagram:
    """A titled set of panels, one row (or more, wrapped) per line of play."""

    title: str
    rows: tuple[tuple[str | None, tuple[Scene | LatticeScene, ...]], ...]
    legend: tuple[tuple[str, str], ...] = ()  # (cell role, what it means)
    legend_note: str | None = None
    cell_mm: float = DEFAULT_PANEL_CELL_MM


def example_path(game: str, name: str) -> Path:
    """The example file ``templates/GAME/NAME.txt``; the error lists what exists."""
    folder = TEMPLATES / game
    path = folder / f"{name}.txt"
    if not path.is_file():
        known = sorted(p.stem for p in folder.glob("*.txt")) if folder.is_dir() else []
        raise BoardgenError(
            f"no {game} diagram named {name!r} (known: {', '.join(known) or 'none'})"
        )
    return path


def example_names(game: str) -> list[str]:
    return sorted(p.stem for p in (TEMPLATES / game).glob("*.txt"))


def diagram_names(game: str) -> list[str]:
    if game == "o":
        # Imported here: o_diagrams builds Diagram objects, so it imports this module.
        from boardgen.render.o_diagrams import O_DIAGRAMS

        return sorted(O_DIAGRAMS)
    return example_names(game)


def build_diagram(game: str, name: str, *, glyphs: dict[str, str] | None = None) -> Diagram:
    """The named diagram of a game, every position from its engine."""
    if game == "o":
        from boardgen.render.o_diagrams import O_DIAGRAMS  # see diagram_names

        if name not in O_DIAGRAMS:
            raise BoardgenError(f"no o diagram named {name!r} (known: "
                                f"{', '.join(sorted(O_DIAGRAMS))})")
        return O_DIAGRAMS[name](glyphs)
    if glyphs is not None:
        raise BoardgenError("--glyphs applies to O diagrams only")
    if game == "polygone":
        return polygone_diagram(load_polygone_example(example_path(game, name)))
    return copolymer_diagram(load_example(example_path(game, name)))


def polygone_diagram(example: PolygoneExample) -> Diagram:
    scenes = tuple(
        LatticeScene(
            pieces=panel.pieces, ghosts=tuple(panel.ghosts), crossed=tuple(panel.crossed),
            swings=tuple(Swing(s.pivot, s.start, s.end, s.sense) for s in panel.swings),
            labels=dict(panel.labels),
            caption=" ".join([f"{panel.label}." if panel.label else "", *panel.caption]),
            apexes=False,
        )
        for panel in example.panels
    )
    return Diagram(example.title, ((None, scenes),),
                   (("white-piece", "White"), ("black-piece", "Black"), ("ghost", "allowed"),
                    ("crossed", "forbidden or captured")), RECONSTRUCTION, cell_mm=14.0)


def copolymer_diagram(example: Example) -> Diagram:
    return Diagram(
        example.title,
        tuple((line.title, tuple(panel_scene(example, p) for p in line.panels))
              for line in example.lines),
        (("player1", "X"), ("player2", "O")),
        "Numbered discs: the cells of the turn, in the order placed.",
    )


def panel_scene(example: Example, panel: Panel) -> Scene:
    numbers = {cell: str(k) for cell, k in panel.numbered}
    return Scene(
        example.grid,
        cell_roles={cell: PLAYER_ROLES[p] for cell, p in panel.cells.items()},
        cell_texts=numbers,
        markers=tuple(Marker(cell, "disc") for cell in numbers),
        caption=f"{panel.label}. {panel.caption}" if panel.label else panel.caption,
    )


def _heading(text: str, size: float, width: float, y: float) -> tuple[list[Text], float]:
    """Bold lines of ``text`` from the left, wrapped to width; returns texts and new y."""
    texts = []
    for line in wrap(text, size, width, BOLD):
        y += 1.3 * size
        texts.append(Text(0.0, y, line, size, "title", "start", BOLD))
        y += 0.35 * size
    return texts, y + 0.6 * size


def _legend(diagram: Diagram, cell_width: float, y: float, max_width: float) -> Figure:
    """What the fills mean, drawn in the diagram's own style (so that every theme, patterns
    included, explains itself): cells for hex boards, short staples for the lattice."""
    size = 3.2
    lattice = any(isinstance(scene, LatticeScene) for _, scenes in diagram.rows
                  for scene in scenes)
    # A figure has one hexagon size, so hex swatches match the panels' cells.
    swatch = 8.0 if lattice else cell_width
    r = swatch / math.sqrt(3)
    cells: list[CellShape] = []
    strokes: list[Stroke] = []
    texts = []
    x = swatch / 2
    for role, label in diagram.legend:
        if lattice:
            # The swatch is a piece or target one swatch long, drawn as on the panels.
            shape = staple((Hole(0, 0), Hole(0, 2)), role.removesuffix("-piece"), swatch) \
                if role.endswith("-piece") else target_strokes((Hole(0, 0), Hole(0, 2)), role,
                                                               swatch)
            strokes.extend(replace(st, points=tuple((px + x - swatch / 2, py + y + r)
                                                    for px, py in st.points)) for st in shape)
        else:
            cells.append(CellShape(f"legend-{role}", x, y + r, role))
        texts.append(Text(x + 0.7 * swatch, y + r, label, size, "caption", "start"))
        x += swatch + face(REGULAR).width_mm(label, size) + 3.0
    height = 2 * r
    if diagram.legend_note:
        note_x = x - 0.2 * swatch
        if note_x + face(REGULAR).width_mm(diagram.legend_note, size) <= max_width:
            texts.append(Text(note_x, y + r, diagram.legend_note, size, "caption", "start"))
        else:  # no room beside the swatches: wrapped on lines of its own below them
            for line in wrap(diagram.legend_note, size, max_width):
                height += 1.35 * size
                texts.append(Text(0.0, y + height - 0.5 * size, line, size, "caption",
                                  "start"))
    offsets = Layout.from_cell_width(cell_width).corner_offsets()
    return Figure(0.0, height, cell_width, offsets, cells, texts, [], strokes)


def diagram_pages(diagram: Diagram, *, cell_width: float, max_width: float,
                  max_height: float | None) -> list[Figure]:
    """Panels laid out in rows no wider than ``max_width``; a new page when a row would
    pass ``max_height`` (None: one tall page)."""
    panels = [[board_figure(scene, cell_width) if isinstance(scene, Scene)
               else lattice_figure(scene, cell_width) for scene in scenes]
              for _, scenes in diagram.rows]
    panel_width = max(f.width for row in panels for f in row)
    columns = max(1, math.floor((max_width + GAP_MM) / (panel_width + GAP_MM)))
    width = min(max_width, columns * panel_width + (columns - 1) * GAP_MM)

    pages: list[tuple[list[Figure], list[Text], float]] = []
    texts, y = _heading(diagram.title, TITLE_MM, width, 0.0)
    parts: list[Figure] = []
    if diagram.legend or diagram.legend_note:
        parts.append(_legend(diagram, cell_width, y, width))
        y += parts[0].height + 0.5 * GAP_MM

    def new_page() -> None:
        nonlocal parts, texts, y
        pages.append((parts, texts, y))
        parts, texts, y = [], [], 0.0

    for (line_title, _), figures in zip(diagram.rows, panels, strict=True):
        heading: list[Text] = []
        heading_height = 0.0
        if line_title:
            heading, heading_height = _heading(line_title, LINE_TITLE_MM, width, 0.0)
        for start in range(0, len(figures), columns):
            row = figures[start:start + columns]
            row_height = max(f.height for f in row) + (heading_height if start == 0 else 0.0)
            if max_height is not None and y + row_height > max_height and (parts or texts):
                new_page()
            if start == 0 and heading:
                texts.extend(Text(t.x, t.y + y, t.text, t.size, t.role, t.anchor, t.weight)
                             for t in heading)
                y += heading_height
            for k, figure in enumerate(row):
                parts.append(figure.shifted(k * (panel_width + GAP_MM)
                                            + (panel_width - figure.width) / 2, y))
            y += max(f.height for f in row) + GAP_MM
    pages.append((parts, texts, y))
    result = []
    for page_parts, page_texts, height in pages:
        right = max([width] + [text_box(t)[2] for t in page_texts])
        result.append(merge(right, max(height - GAP_MM, 1.0), page_parts, page_texts,
                            cell_width))
    return result


def render_diagram(game: str, name: str, fmt: str, *, paper: Paper, theme: Theme,
                   cell_mm: float | None = None, dpi: int = 150,
                   info: PageInfo | None = None,
                   glyphs: dict[str, str] | None = None) -> bytes:
    """Build the named diagram from the engine and draw it."""
    return draw_diagram(build_diagram(game, name, glyphs=glyphs), game, name, fmt,
                        paper=paper, theme=theme, cell_mm=cell_mm, dpi=dpi, info=info)


def draw_diagram(diagram: Diagram, game: str, name: str, fmt: str, *, paper: Paper,
                 theme: Theme, cell_mm: float | None = None, dpi: int = 150,
                 info: PageInfo | None = None) -> bytes:
    """Draw an already built diagram as PDF (paginated between rows), SVG or PNG."""
    title = {"o": "O"}.get(game, game.capitalize())
    # The diagram carries its own heading; the page header names the game.
    info = info or PageInfo(title, f"{title} diagram: {name}")
    room_w, room_h = content_size(paper.size("portrait"))
    cell_width = cell_mm or diagram.cell_mm
    if fmt == "pdf":
        pages = diagram_pages(diagram, cell_width=cell_width, max_width=room_w,
                              max_height=room_h)
        return render_pdf_pages(pages, theme=theme, paper=paper, info=info)
    (figure,) = diagram_pages(diagram, cell_width=cell_width, max_width=room_w,
                              max_height=None)
    svg = render_svg(figure, theme=theme, description=diagram.title)
    if fmt == "svg":
        return svg.encode("utf-8")
    width_mm, height_mm = document_size(figure, None)
    return render_png(svg, width_mm=width_mm, height_mm=height_mm, dpi=dpi)
