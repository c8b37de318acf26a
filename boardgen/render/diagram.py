"""Example-play diagrams: replayed panels laid out as strips, one row of panels per line.

Every position comes from the engine (``boardgen.games.copolymer.directives``); this module
only draws: the cells of the turn in progress ringed and numbered in the order placed, the
engine-written caption under each panel.  PDFs break pages between rows, never through a
panel.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

from boardgen.errors import BoardgenError, option
from boardgen.games.copolymer.directives import Example, Panel
from boardgen.games.o.directives import OExample
from boardgen.games.polygone.directives import PolygoneExample
from boardgen.games.polygone.engine import RECONSTRUCTION
from boardgen.games.script import MARK_KINDS, Annotations
from boardgen.geometry import Hex, Layout, Notation
from boardgen.geometry.lattice import Hole, line_name
from boardgen.render.board import MIN_CELL_MM
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
from boardgen.render.lattice import (
    LatticeScene,
    Swing,
    lattice_figure,
    staple,
    target_strokes,
)
from boardgen.render.paper import Paper, content_size
from boardgen.render.pdf import PageInfo, render_pdf_pages
from boardgen.render.png import render_png
from boardgen.render.scene import Arrow, Marker, Scene, Theme, edge_roles
from boardgen.render.svg import document_size, render_svg

PLAYER_ROLES = {"x": "player1", "o": "player2"}
DEFAULT_PANEL_CELL_MM = 8.0
GAP_MM = 6.0
TITLE_MM = 5.0
LINE_TITLE_MM = 3.8
LEGEND_GAP_MM = 5.0


@dataclass(frozen=True)
class Diagram:
    """A titled set of panels, one row (or more, wrapped) per line of play."""

    title: str
    rows: tuple[tuple[str | None, tuple[Scene | LatticeScene, ...]], ...]
    legend: tuple[tuple[str, str], ...] = ()  # (cell role, what it means)
    legend_note: str | None = None
    cell_mm: float = DEFAULT_PANEL_CELL_MM

    def _repr_svg_(self) -> str:
        """Jupyter shows a diagram as its SVG picture."""
        from boardgen.render.paper import parse_paper
        from boardgen.render.scene import THEMES

        return draw_diagram(self, "diagram", self.title, "svg", paper=parse_paper("a4"),
                            theme=THEMES["colour"]).decode("utf-8")


def polygone_diagram(example: PolygoneExample) -> Diagram:
    scenes = []
    for panel in example.panels:
        notes = panel.annotations
        caption = notes.caption if notes.caption is not None else \
            " ".join([f"{panel.label}." if panel.label else "", *panel.caption])
        ghosts = [*panel.ghosts, *(ln for ln, role in notes.highlights.items()
                                   if role == "ghost")]
        crossed = [*panel.crossed, *(ln for ln, role in notes.highlights.items()
                                     if role == "crossed")]
        scenes.append(LatticeScene(
            pieces=panel.pieces, ghosts=tuple(ghosts), crossed=tuple(crossed),
            swings=tuple(Swing(s.pivot, s.start, s.end, s.sense) for s in panel.swings),
            labels=dict(panel.labels), caption=caption.strip(), apexes=False,
            # The pivot of a swing shown: ringed, so that the picture says which end stays
            # (the apexes have a double ring).
            hole_marks=(*((pivot, "ring") for pivot in panel.pivots), *notes.marks),
            arrows=tuple(notes.arrows)))
    pivots = any(panel.pivots for panel in example.panels)
    note = f"Ringed: the pivot (double rings: the apexes). {RECONSTRUCTION}" if pivots \
        else RECONSTRUCTION
    return Diagram(example.title, ((None, tuple(scenes)),),
                   _used(POLYGONE_LEGEND, scenes), note, cell_mm=14.0)


def copolymer_diagram(example: Example) -> Diagram:
    rows = tuple((line.title, tuple(panel_scene(example, p) for p in line.panels))
                 for line in example.lines)
    panels = [p for line in example.lines for p in line.panels]
    notes = ["Numbered: the cells of the turn, in the order placed."]
    if any(p.open_connections for p in panels):
        notes.append("Ringed: the connections open.")
    if any(p.touched for p in panels):
        notes.append("White pips: the enemy cells the turn touches.")
    return Diagram(example.title, rows,
                   _used(COPOLYMER_LEGEND, [s for _, scenes in rows for s in scenes]),
                   " ".join(notes))


def panel_scene(example: Example, panel: Panel) -> Scene:
    numbers = {cell: str(k) for cell, k in panel.numbered}
    # Open connections ringed, the enemy cells the turn touches dotted: the picture says
    # what the caption says.
    scene = Scene(
        example.grid,
        cell_roles={cell: PLAYER_ROLES[p] for cell, p in panel.cells.items()},
        cell_texts=numbers,
        markers=(*(Marker(cell, "disc") for cell in numbers),
                 *(Marker(cell, "ring", "accent") for cell in panel.open_connections),
                 *(Marker(cell, "pip", "paper") for cell in panel.touched)),
        caption=f"{panel.label}. {panel.caption}" if panel.label else panel.caption,
    )
    return annotated(scene, panel.annotations)


def o_file_diagram(example: OExample) -> Diagram:
    """An O diagram file's panels: stones, this panel's stones numbered, the loop's stones
    and the stone that closed it marked, the cells it cut off highlighted."""
    rows = []
    for line in example.lines:
        scenes = []
        for panel in line.panels:
            roles = edge_roles(example.grid)
            roles.update({h: "new" for h in panel.enclosed})
            roles.update(panel.shown)
            numbers = dict(panel.numbered) if example.numbers else {}
            markers = [Marker(h, "disc" if h in numbers else "dot",
                              "loop" if h in panel.loop else "stone")
                       for h in sorted(panel.stones)]
            if panel.closing is not None:
                markers.append(Marker(panel.closing, "ring", "accent"))
            label = f"{panel.label}. " if panel.label else ""
            scene = Scene(example.grid, cell_roles=roles,
                          cell_texts={h: str(k) for h, k in numbers.items()},
                          markers=tuple(markers), caption=label + panel.caption)
            scenes.append(annotated(scene, panel.annotations))
        rows.append((line.title, tuple(scenes)))
    scenes_used = [s for _, scenes in rows for s in scenes]
    return Diagram(example.title, tuple(rows), _used(O_LEGEND, scenes_used),
                   _o_note(example), cell_mm=7.0)


def _o_note(example: OExample) -> str | None:
    numbered = example.numbers and any(p.numbered for line in example.lines
                                        for p in line.panels)
    notes = ["Numbered: the stones of the panel."] if numbered else []
    if any(p.closing for line in example.lines for p in line.panels):
        notes.append("Coloured or hollow: the loop's stones; ringed: the one that closed it.")
    return " ".join(notes) or None


def annotated(scene: Scene, notes: Annotations[Hex, Hex]) -> Scene:
    """A designer's arrows, marks and highlights on top of the engine's picture."""
    if not (notes.arrows or notes.marks or notes.highlights):
        return scene
    roles = dict(scene.cell_roles)
    roles.update(notes.highlights)
    texts = dict(scene.cell_texts)
    markers = list(scene.markers)
    for cell, kind in notes.marks:
        if kind in MARK_KINDS:
            markers.append(Marker(cell, kind, "accent"))
        else:
            markers.append(Marker(cell, "disc"))
            texts[cell] = kind
    return replace(scene, cell_roles=roles, cell_texts=texts, markers=tuple(markers),
                   arrows=scene.arrows + tuple(Arrow(a, b) for a, b in notes.arrows))


# What each role means, per game; a legend lists only the roles its panels use.
COPOLYMER_LEGEND = (("player1", "X"), ("player2", "O"), ("new", "highlighted"),
                    ("legal", "allowed"), ("illegal", "not allowed"))
O_LEGEND = (("legal", "a stone may go here"), ("illegal", "it may not"),
            ("new", "cut off from the edge"), ("corner", "corner"),
            ("perimeter", "perimeter"))
POLYGONE_LEGEND = (("white-piece", "White"), ("black-piece", "Black"), ("ghost", "allowed"),
                   ("crossed", "forbidden or captured"))


def scene_roles(scene: Scene | LatticeScene) -> set[str]:
    """The roles a picture shows, as a legend names them."""
    if isinstance(scene, Scene):
        return set(scene.cell_roles.values())
    roles = {f"{colour}-piece" for colour in scene.pieces.values()}
    if scene.ghosts:
        roles.add("ghost")
    if scene.crossed:
        roles.add("crossed")
    return roles


def _used(legend: tuple[tuple[str, str], ...], scenes: Sequence[Scene | LatticeScene]
          ) -> tuple[tuple[str, str], ...]:
    used = set().union(*(scene_roles(s) for s in scenes)) if scenes else set()
    return tuple((role, label) for role, label in legend if role in used)


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
    line_y = y  # swatches that pass max_width start a line of their own
    for role, label in diagram.legend:
        item = swatch + 1.0 + face(REGULAR).width_mm(label, size)
        if x > swatch / 2 and x - swatch / 2 + item > max_width:
            x, line_y = swatch / 2, line_y + 2 * r + 1.5
        if lattice:
            # The swatch is a piece or target one swatch long, drawn as on the panels.
            shape = staple((Hole(0, 0), Hole(0, 2)), role.removesuffix("-piece"), swatch) \
                if role.endswith("-piece") else target_strokes((Hole(0, 0), Hole(0, 2)), role,
                                                               swatch)
            strokes.extend(replace(st, points=tuple((px + x - swatch / 2, py + line_y + r)
                                                    for px, py in st.points)) for st in shape)
        else:
            cells.append(CellShape(f"legend-{role}", x, line_y + r, role))
        # A label hugs its own swatch (1 mm) and keeps well clear of the next (5 mm), so
        # that no label reads as the neighbour's.
        # A staple's round end reaches past its swatch: its label starts after it.
        hug = 2.2 if lattice else 1.0
        texts.append(Text(x + swatch / 2 + hug, line_y + r, label, size, "caption", "start"))
        x += item + hug - 1.0 + LEGEND_GAP_MM
    height = line_y - y + 2 * r
    if diagram.legend_note:
        note_x = x - swatch / 2
        if note_x + face(REGULAR).width_mm(diagram.legend_note, size) <= max_width:
            texts.append(Text(note_x, line_y + r, diagram.legend_note, size, "caption",
                              "start"))
        else:  # no room beside the swatches: wrapped on lines of its own below them
            for line in wrap(diagram.legend_note, size, max_width):
                height += 1.35 * size
                texts.append(Text(0.0, y + height - 0.5 * size, line, size, "caption",
                                  "start"))
    offsets = Layout.from_cell_width(cell_width).corner_offsets()
    return Figure(0.0, height, cell_width, offsets, cells, texts, [], strokes)


def legend_figure(diagram: Diagram, *, cell_width: float, max_width: float) -> Figure | None:
    """The diagram's legend (and note) on its own, for a layout that sets the title as
    text; None if it has neither."""
    if not (diagram.legend or diagram.legend_note):
        return None
    return _legend(diagram, cell_width, 0.0, max_width)


def panel_rows(diagram: Diagram, *, cell_width: float, max_width: float
               ) -> list[tuple[str | None, Figure]]:
    """Each row of panels as a figure of its own (as many panels side by side as fit
    ``max_width``), with the title of the line of play it starts: pieces a page can break
    between."""
    panels = [[board_figure(scene, cell_width) if isinstance(scene, Scene)
               else lattice_figure(scene, cell_width) for scene in scenes]
              for _, scenes in diagram.rows]
    panel_width = max(f.width for row in panels for f in row)
    columns = max(1, math.floor((max_width + GAP_MM) / (panel_width + GAP_MM)))
    rows: list[tuple[str | None, Figure]] = []
    for (line_title, _), figures in zip(diagram.rows, panels, strict=True):
        for start in range(0, len(figures), columns):
            row = figures[start:start + columns]
            parts = [figure.shifted(k * (panel_width + GAP_MM)
                                    + (panel_width - figure.width) / 2, 0.0)
                     for k, figure in enumerate(row)]
            width = len(row) * panel_width + (len(row) - 1) * GAP_MM
            rows.append((line_title if start == 0 else None,
                         merge(width, max(f.height for f in row), parts, [], cell_width)))
    return rows


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


def _pages_fit(pages: list[Figure], room: tuple[float, float]) -> bool:
    return all(f.width <= room[0] + 1e-6 and f.height <= room[1] + 1e-6 for f in pages)


def largest_fitting_cell(diagram: Diagram, room: tuple[float, float],
                         too_large: float) -> float | None:
    """The largest cell width (to 0.1 mm, from MIN_CELL_MM, below ``too_large``) with which
    every page of the diagram fits ``room``; None if not even the smallest does."""
    def fits(width: float) -> bool:
        return _pages_fit(diagram_pages(diagram, cell_width=width, max_width=room[0],
                                        max_height=room[1]), room)

    low, high = round(MIN_CELL_MM * 10), math.ceil(too_large * 10) - 1  # in tenths of a mm
    if high < low or not fits(low / 10):
        return None
    while low < high:  # fits(low / 10) holds throughout
        middle = (low + high + 1) // 2
        if fits(middle / 10):
            low = middle
        else:
            high = middle - 1
    return low / 10


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
        if not _pages_fit(pages, (room_w, room_h)):
            # A panel taller or wider than the page: with the default size, shrink the
            # cells until every page fits (the footer states the cell size); a size the
            # user chose is refused, naming the largest that fits.
            largest = largest_fitting_cell(diagram, (room_w, room_h), cell_width)
            where = f"diagram {game} {name}" if game else f"diagram {name!r}"
            if largest is None:
                raise BoardgenError(f"{where}: paper {paper.name} is too small for its panels "
                                    f"even at {MIN_CELL_MM:g} mm a cell")
            if cell_mm is not None:
                raise BoardgenError(f"{where}: at {option('cell_mm')} {cell_mm:g} a panel "
                                    "does not fit "
                                    f"{paper.name} paper; the largest that fits is "
                                    f"{option('cell_mm')} {largest:g}")
            pages = diagram_pages(diagram, cell_width=largest, max_width=room_w,
                                  max_height=room_h)
        return render_pdf_pages(pages, theme=theme, paper=paper, info=info)
    (figure,) = diagram_pages(diagram, cell_width=cell_width, max_width=room_w,
                              max_height=None)
    svg = render_svg(figure, theme=theme, description=diagram.title)
    if fmt == "svg":
        return svg.encode("utf-8")
    width_mm, height_mm = document_size(figure, None)
    return render_png(svg, width_mm=width_mm, height_mm=height_mm, dpi=dpi)


# What a cell role holds, in words, for a text alternative (roles not named: not said).
ROLE_WORDS = {"player1": "X", "player2": "O", "legal": "a stone may go",
              "illegal": "no stone may go", "new": "cut off from the edge"}


def describe(diagram: Diagram) -> str:
    """A text alternative for the whole diagram, from the positions drawn (which come from
    the engine): every panel's cells, stones or pieces in the game's notation."""
    parts = [f"{diagram.title}."]
    number = 0
    for line_title, scenes in diagram.rows:
        if line_title:
            parts.append(f"{line_title}.")
        for scene in scenes:
            number += 1
            parts.append(f"Panel {number}: {_describe_scene(scene)}")
    return " ".join(parts)


def _describe_scene(scene: Scene | LatticeScene) -> str:
    said: list[str] = []
    if isinstance(scene, LatticeScene):
        for colour in ("white", "black"):
            lines = sorted(line_name(ln) for ln, c in scene.pieces.items() if c == colour)
            if lines:
                said.append(f"{colour.capitalize()} pieces on {', '.join(lines)}")
        if scene.ghosts:
            said.append("allowed targets " + ", ".join(sorted(line_name(ln)
                                                              for ln in scene.ghosts)))
        if scene.crossed:
            said.append("crossed out " + ", ".join(sorted(line_name(ln)
                                                          for ln in scene.crossed)))
    else:
        name = Notation(scene.grid).name
        by_role: dict[str, list[str]] = {}
        for cell, role in scene.cell_roles.items():
            if role in ROLE_WORDS:
                by_role.setdefault(ROLE_WORDS[role], []).append(name(cell))
        for words, cells in by_role.items():
            said.append(f"{words}: {', '.join(sorted(cells, key=_cell_order))}")
        stones = sorted((name(m.cell) for m in scene.markers if m.kind in ("dot", "disc")
                         and scene.cell_roles.get(m.cell) not in ("player1", "player2")),
                        key=_cell_order)
        if stones:
            said.append(f"stones on {', '.join(stones)}")
        numbered = [f"{name(cell)} is {text}" for cell, text in scene.cell_texts.items()]
        if numbered:
            said.append("numbered: " + ", ".join(sorted(numbered, key=_cell_order)))
        if not said:
            said.append("an empty board")
    text = "; ".join(said) + "."
    return f"{text} {scene.caption}" if scene.caption else text


def _cell_order(name: str) -> tuple[str, int]:
    letters = name.rstrip("0123456789 is")
    digits = "".join(ch for ch in name[len(letters):] if ch.isdigit())
    return letters, int(digits or 0)
