"""Diagrams drawn: panels laid out as strips, one row of panels per line of play.

A diagram (boardgen.picture.Diagram) is neutral data that a game emits, every position from
its engine; this module only draws it: the heading, the legend in the diagram's own style,
and the panels, hex boards or lattices.  PDFs break pages between rows, never through a
panel.
"""

from __future__ import annotations

import math
from dataclasses import replace

from boardgen.errors import BoardgenError, option
from boardgen.geometry import Hex, Layout, Notation
from boardgen.i18n import N_, ntr, tr
from boardgen.limits import MAX_DRAWN_CELLS
from boardgen.picture import (
    DEFAULT_PANEL_CELL_MM,
    MARK_ROLE_PREFIX,
    DesignerMark,
    Diagram,
    Panel,
    PointScene,
    Role,
    Scene,
    designer_marks,
    show_svg_with,
)
from boardgen.render.board import MIN_CELL_MM
from boardgen.render.figure import (
    DESIGNER_RING,
    Area,
    CellShape,
    Figure,
    Mark,
    Stroke,
    Text,
    band,
    board_figure,
    curled,
    designer_strokes,
    designer_text,
    ink_box,
    merge,
    text_box,
    wrap,
)
from boardgen.render.fonts import BOLD, REGULAR, face
from boardgen.render.lattice import (
    DESIGNER_LIFT,
    DESIGNER_RING_SHARE,
    DESIGNER_SHARE,
    SWATCH_PLACES,
    SWATCH_SEGMENT,
    hollow_strokes,
    lattice_figure,
    staple,
    target_strokes,
    tint_strokes,
)
from boardgen.render.paper import Paper, content_size
from boardgen.render.pdf import PageInfo, render_pdf_pages
from boardgen.render.png import render_figure_png
from boardgen.render.scene import THEMES, Theme
from boardgen.render.svg import render_svg

__all__ = ["DEFAULT_PANEL_CELL_MM", "Diagram", "describe", "diagram_pages", "draw_diagram",
           "legend_figure", "panel_rows"]

GAP_MM = 6.0
TITLE_MM = 5.0
LINE_TITLE_MM = 3.8
LEGEND_GAP_MM = 5.0
# The blank band round an SVG or PNG diagram, so that nothing touches its edge.
DIAGRAM_MARGIN_MM = 4.0
# On a PDF page (whose paper margins are the blank band), enough that no outline is cut.
PAGE_INSET_MM = 1.0


def _panel_figure(panel: Panel, cell_width: float) -> Figure:
    return board_figure(panel, cell_width) if isinstance(panel, Scene) \
        else lattice_figure(panel, cell_width)


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
    included, explains itself): cells for hex boards, short bars and segments for a board
    of points and lines."""
    size = 3.2
    boards = [scene for _, scenes in diagram.rows for scene in scenes
              if isinstance(scene, PointScene)]
    lattice = bool(boards)
    # A figure has one hexagon size, so hex swatches match the panels' cells.
    swatch = 8.0 if lattice else cell_width
    r = swatch / math.sqrt(3)
    cells: list[CellShape] = []
    strokes: list[Stroke] = []
    marks: list[Mark] = []
    overlays: list[Area] = []
    offsets = Layout.from_cell_width(cell_width).corner_offsets()
    texts = []
    x = swatch / 2
    line_y = y  # swatches that pass max_width start a line of their own
    for entry in diagram.legend:
        role, label = entry.name, entry.legend_words()
        item = swatch + 1.0 + face(REGULAR).width_mm(label, size)
        if x > swatch / 2 and x - swatch / 2 + item > max_width:
            x, line_y = swatch / 2, line_y + 2 * r + 1.5
        if entry.swatch == "mark":
            # A designer's mark as on the panels, on an empty cell (a lattice: on paper).
            kind = entry.name.removeprefix(MARK_ROLE_PREFIX)
            mark_size = DESIGNER_SHARE * cell_width if lattice else cell_width
            if not lattice:
                cells.append(CellShape(f"legend-{entry.name}", x, line_y + r, "empty"))
            ring, lift = (DESIGNER_RING_SHARE, DESIGNER_LIFT) if lattice \
                else (DESIGNER_RING, 0.0)
            strokes.extend(designer_strokes(kind, x, line_y + r, mark_size, ring=ring,
                                            lift=lift))
            if kind == "text":
                texts.append(designer_text("A", x, line_y + r, mark_size, ring=ring,
                                           lift=lift))
        elif lattice:
            # The swatch is a bar or segment one swatch long, drawn as on the panels.
            at, segment = SWATCH_PLACES, SWATCH_SEGMENT
            shape = staple(at, segment, role, swatch) if entry.swatch == "bar" \
                else tint_strokes(at, segment, boards[0].line_role, swatch) \
                if entry.swatch == "tinted" \
                else hollow_strokes(at, segment, role, swatch) if entry.swatch == "hollow" \
                else target_strokes(at, segment, entry.swatch, role, swatch)
            strokes.extend(replace(st, points=tuple((px + x - swatch / 2, py + line_y + r)
                                                    for px, py in st.points)) for st in shape)
        elif entry.swatch in ("band", "stone"):
            # A highlight's band, or a stone, on an empty cell, as on the panels.
            cells.append(CellShape(f"legend-{role}", x, line_y + r, "empty"))
            if entry.swatch == "band":
                overlay, edges = band(f"legend-{role}", x, line_y + r, role, offsets)
                overlays.append(overlay)
                strokes.extend(edges)
            else:
                marks.append(Mark("dot", x, line_y + r, 0.3 * cell_width, role))
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
    legend = Figure(0.0, height, cell_width, offsets, cells, texts, marks, strokes,
                    overlays=overlays)
    ink = ink_box(legend)
    legend.width = ink[2] if ink is not None else 0.0  # as wide as it draws
    return legend


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
    panels = [[_panel_figure(scene, cell_width) for scene in scenes]
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
                  max_height: float | None, keep_heading: bool = True) -> list[Figure]:
    """Panels laid out in rows no wider than ``max_width`` if they fit it; a new page when
    a row would pass ``max_height``.  Each page's size is what it draws, blank margin
    included, so that a panel too large for the paper shows as a page too large (never cut
    at the page's edge); the first row stays with the title and legend (no page of
    headings alone).

    ``max_height`` None: one tall picture (SVG, PNG), with a wider margin all round.
    ``keep_heading`` False lets the title and legend have a page of their own (when the
    first row cannot fit under them at any size)."""
    margin = DIAGRAM_MARGIN_MM if max_height is None else PAGE_INSET_MM
    return [_with_margin(page, margin) for page in _pages(
        diagram, cell_width, max_width - 2 * margin,
        None if max_height is None else max_height - 2 * margin, keep_heading)]


def _pages(diagram: Diagram, cell_width: float, max_width: float,
           max_height: float | None, keep_heading: bool) -> list[Figure]:
    panels = [[_panel_figure(scene, cell_width) for scene in scenes]
              for _, scenes in diagram.rows]
    panel_width = max(f.width for row in panels for f in row)
    # As many columns as fit, and no more than the longest line of play has panels: a
    # diagram of one panel is as wide as that panel (and its title), centred on its page.
    columns = max(1, min(math.floor((max_width + GAP_MM) / (panel_width + GAP_MM)),
                         max(len(row) for row in panels)))
    width = min(max_width, columns * panel_width + (columns - 1) * GAP_MM)

    pages: list[tuple[list[Figure], list[Text], float, float]] = []
    texts, y = _heading(diagram.title, TITLE_MM, width, 0.0)
    parts: list[Figure] = []
    right = width  # where the page's parts end on the right
    legend: Figure | None = None
    if diagram.legend or diagram.legend_note:
        legend = _legend(diagram, cell_width, y, width)
        parts.append(legend)
        y += legend.height + 0.5 * GAP_MM
        right = max(right, legend.width)
    panels_on_page = 0

    def new_page() -> None:
        nonlocal parts, texts, y, panels_on_page, right
        pages.append((parts, texts, y, right))
        parts, texts, y, panels_on_page, right = [], [], 0.0, 0, width

    for (line_title, _), figures in zip(diagram.rows, panels, strict=True):
        heading: list[Text] = []
        heading_height = 0.0
        if line_title:
            heading, heading_height = _heading(line_title, LINE_TITLE_MM, width, 0.0)
        for start in range(0, len(figures), columns):
            row = figures[start:start + columns]
            row_height = max(f.height for f in row) + (heading_height if start == 0 else 0.0)
            if max_height is not None and y + row_height > max_height and \
                    (panels_on_page or (not keep_heading and (parts or texts))):
                new_page()
            if start == 0 and heading:
                texts.extend(Text(t.x, t.y + y, t.text, t.size, t.role, t.anchor, t.weight)
                             for t in heading)
                y += heading_height
            for k, figure in enumerate(row):
                left = k * (panel_width + GAP_MM) + (panel_width - figure.width) / 2
                parts.append(figure.shifted(left, y))
                right = max(right, left + figure.width)
            panels_on_page += len(row)
            y += max(f.height for f in row) + GAP_MM
    pages.append((parts, texts, y, right))
    result = []
    for page_parts, page_texts, height, page_right in pages:
        page_right = max([page_right] + [text_box(t)[2] for t in page_texts])
        # The panels centred under a title or legend wider than they are (the title and
        # legend stay at the left, where a reader starts).
        shift = (page_right - width) / 2
        placed = [part if part is legend else part.shifted(shift, 0.0)
                  for part in page_parts] if shift > 1e-9 else page_parts
        result.append(merge(page_right, max(height - GAP_MM, 1.0), placed, page_texts,
                            cell_width))
    return result


def _with_margin(figure: Figure, margin: float) -> Figure:
    """The figure with a blank band of ``margin`` mm all round, and nothing outside its
    box: it is grown to hold its ink wherever the ink reaches."""
    ink = ink_box(figure)
    x0, y0, x1, y1 = (0.0, 0.0, figure.width, figure.height) if ink is None else (
        min(0.0, ink[0]), min(0.0, ink[1]), max(figure.width, ink[2]),
        max(figure.height, ink[3]))
    moved = figure.shifted(margin - x0, margin - y0)
    moved.width, moved.height = x1 - x0 + 2 * margin, y1 - y0 + 2 * margin
    return moved


def _pages_fit(pages: list[Figure], room: tuple[float, float]) -> bool:
    return all(f.width <= room[0] + 1e-6 and f.height <= room[1] + 1e-6 for f in pages)


def largest_fitting_cell(diagram: Diagram, room: tuple[float, float],
                         too_large: float, *, keep_heading: bool = True) -> float | None:
    """The largest cell width (to 0.1 mm, from MIN_CELL_MM, below ``too_large``) with which
    every page of the diagram fits ``room``; None if not even the smallest does."""
    def fits(width: float) -> bool:
        return _pages_fit(diagram_pages(diagram, cell_width=width, max_width=room[0],
                                        max_height=room[1], keep_heading=keep_heading), room)

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


def check_diagram_work(diagram: Diagram) -> None:
    """Refuse, before any drawing, a diagram with no panel, or whose panels draw more cells
    in all than MAX_DRAWN_CELLS (each cell costs memory and time in every format)."""
    scenes = [scene for _, row in diagram.rows for scene in row]
    if not scenes:
        raise BoardgenError(f"diagram {diagram.title!r}: no panels to draw")
    cells = sum(len(scene.grid) if isinstance(scene, Scene) else len(scene.places)
                for scene in scenes)
    if cells > MAX_DRAWN_CELLS:
        raise BoardgenError(f"{len(scenes)} panels drawing {cells:,} cells in all, more than "
                            f"the limit of {MAX_DRAWN_CELLS:,}: use fewer panels or a smaller "
                            "board")


def draw_diagram(diagram: Diagram, game: str, name: str, fmt: str, *, paper: Paper,
                 theme: Theme, cell_mm: float | None = None, dpi: int = 150,
                 info: PageInfo | None = None, fit: bool = False) -> bytes:
    """Draw an already built diagram as PDF (paginated between rows), SVG or PNG.
    ``game`` and ``name`` say which diagram an error is about; ``info`` is the page
    furniture (the diagram carries its own heading; the page header names the game).
    ``fit``: in any format, one page cropped to the drawing and its credit line
    (boardgen.render.fit), its rows of panels as wide as ``paper`` allows."""
    check_diagram_work(diagram)
    info = info or PageInfo(None, f"diagram: {name}")
    if diagram.source:  # not ours: where it comes from, with the designer's credit
        info = replace(info, note=" \u00b7 ".join(
            part for part in (info.note, diagram.source) if part))
    room_w, room_h = content_size(paper.size("portrait"))
    cell_width = cell_mm or diagram.cell_mm
    if fmt == "pdf" and not fit:
        room = (room_w, room_h)
        # The title and legend stay with the first row, unless no size lets them.
        for keep in (True, False):
            pages = diagram_pages(diagram, cell_width=cell_width, max_width=room_w,
                                  max_height=room_h, keep_heading=keep)
            if _pages_fit(pages, room):
                return _pdf(pages, theme=theme, paper=paper, info=info)
            # A panel taller or wider than the page: with the default size, shrink the
            # cells until every page fits (the footer states the cell size); a size the
            # user chose is refused, naming the largest that fits.
            largest = largest_fitting_cell(diagram, room, cell_width, keep_heading=keep)
            if largest is not None:
                break
        where = f"diagram {game} {name}" if game else f"diagram {name!r}"
        if largest is None:
            raise BoardgenError(f"{where}: paper {paper.name} is too small for its panels "
                                f"even at {MIN_CELL_MM:g} mm a cell")
        if cell_mm is not None:
            raise BoardgenError(f"{where}: at {option('cell_mm')} {cell_mm:g} a panel "
                                f"does not fit {paper.name} paper; the largest that fits is "
                                f"{option('cell_mm')} {largest:g}")
        pages = diagram_pages(diagram, cell_width=largest, max_width=room_w,
                              max_height=room_h, keep_heading=keep)
        return _pdf(pages, theme=theme, paper=paper, info=info)
    (figure,) = diagram_pages(diagram, cell_width=cell_width, max_width=room_w,
                              max_height=None)
    # A picture on its own says whose game it shows, as a PDF page's footer does: under
    # the panels, and in the text alternative.
    credit = credit_line(info)
    if credit:
        figure = _with_line_below(figure, credit)
    figure = curled(figure)  # typographer's quotes, as the rule sheets print captions
    # The text alternative a rule sheet gives the same figure, and the credit drawn under it.
    description = describe(diagram) + (f" {_sentence(credit)}" if credit else "")
    if fit:
        from boardgen.render.fit import fitted, render_fitted

        return render_fitted(fitted(figure, theme), fmt, theme=theme, dpi=dpi, info=info,
                             description=description)
    if fmt == "png":  # drawn from the figure, with no SVG text in between
        return render_figure_png(figure, theme=theme, title=None, dpi=dpi)
    return render_svg(figure, theme=theme, description=description).encode("utf-8")


CREDIT_MM = 2.8  # the credit line under an SVG or PNG diagram


def credit_line(info: PageInfo) -> str:
    """What a diagram on its own says under its picture, as a PDF diagram's footer does:
    the designer's credit and the game's note (a reconstruction it rests on)."""
    return " \u00b7 ".join(part for part in (info.credit, info.note) if part)


def _with_line_below(figure: Figure, line: str) -> Figure:
    """The figure (with its blank band) with ``line`` under its ink, small, from the left,
    wrapped to the figure's width; the band kept round it."""
    ink = ink_box(figure)
    left, bottom = (ink[0], ink[3]) if ink is not None else (DIAGRAM_MARGIN_MM, 0.0)
    room = max(figure.width - left - DIAGRAM_MARGIN_MM, 45.0)
    texts = []
    y = bottom + 0.6 * CREDIT_MM
    for text in _wrap_parts(line, CREDIT_MM, room):
        y += 1.35 * CREDIT_MM
        texts.append(Text(left, y - 0.5 * CREDIT_MM, text, CREDIT_MM, "credit", "start"))
    right = max(text_box(t)[2] for t in texts)
    return merge(max(figure.width, right + DIAGRAM_MARGIN_MM), y + DIAGRAM_MARGIN_MM,
                 [figure], texts, figure.cell_width)


def _wrap_parts(line: str, size: float, width: float) -> list[str]:
    """``line`` broken into lines no wider than ``width`` mm, at its " · " joins where it
    can (so that a credit stays whole), else between words."""
    lines: list[str] = []
    for part in line.split(" \u00b7 "):
        joined = f"{lines[-1]} \u00b7 {part}" if lines else part
        if lines and face(REGULAR).width_mm(joined, size) <= width:
            lines[-1] = joined
        else:
            lines.extend(wrap(part, size, width))
    return lines


def _pdf(pages: list[Figure], *, theme: Theme, paper: Paper, info: PageInfo) -> bytes:
    # Typographer's quotes, as the rule sheets print the same captions.
    return render_pdf_pages([curled(page) for page in pages], theme=theme, paper=paper,
                            info=info)


def describe(diagram: Diagram) -> str:
    """A text alternative for the whole diagram, from the positions drawn (which come from
    the engine): every panel's cells, stones or pieces in the game's notation."""
    parts = [_sentence(diagram.title)]
    words = {role.name: tr(role.said) for role in diagram.roles if role.said is not None}
    # The key's words and note, so that the text alternative says what the picture's key
    # says.
    if diagram.legend:
        parts.append(_sentence(tr("Key: {roles}").format(
            roles=", ".join(role.legend_words() for role in diagram.legend))))
    if diagram.legend_note:
        parts.append(_sentence(diagram.legend_note))
    number = 0
    for line_title, scenes in diagram.rows:
        if line_title:
            parts.append(_sentence(line_title))
        for scene in scenes:
            number += 1
            parts.append(tr("Panel {number}: {contents}").format(
                number=number, contents=_describe_scene(scene, words, diagram.roles)))
    return " ".join(parts)


def _sentence(text: str) -> str:
    """The text ended by one full stop (a title may end with its own)."""
    text = text.rstrip()
    return text if text.endswith((".", "!", "?", ":")) else f"{text}."


def _cells(count: int) -> str:
    return ntr("{count} cell", "{count} cells", count).format(count=count)


def _describe_scene(scene: Panel, words: dict[str, str], roles: tuple[Role, ...]) -> str:
    said: list[str] = []
    if isinstance(scene, PointScene):
        segment_name = scene.segment_name
        for role, role_words in words.items():
            lines = sorted(segment_name(ln) for ln, r in scene.pieces.items() if r == role)
            lines += sorted(scene.name(p) for p, r in scene.stones.items() if r == role)
            if lines:
                said.append(tr("{role} {places}").format(role=role_words,
                                                         places=", ".join(lines)))
        for marked in (scene.dashed, scene.struck, scene.hollow):
            for role, role_words in words.items():
                segments = sorted(segment_name(ln) for ln, r in marked.items() if r == role)
                if segments:
                    said.append(tr("{role} {places}").format(role=role_words,
                                                             places=", ".join(segments)))
        # The turns drawn, in words: a caption says what a move did, not the turn.
        said.extend(tr("turns {start} about {centre} to {end}").format(
            start=scene.name(t.start), centre=scene.name(t.centre), end=scene.name(t.end))
            for t in scene.turns)
        # The labels a caption speaks of ("piece 1", "A"): which piece or line each is.
        if scene.labels:
            said.append(tr("labelled: {labels}").format(labels=", ".join(
                tr("{place} is {label}").format(place=segment_name(ln), label=text)
                for ln, text in sorted(scene.labels.items(),
                                       key=lambda item: (item[1], segment_name(item[0]))))))
    elif scene.said is not None:
        said.append(scene.said.rstrip("."))
    else:
        # A panel without coordinates has no cell names a reader could find: its cells are
        # counted, not named.
        named = scene.labels != "none"
        name = Notation(scene.grid).name
        by_role: dict[str, list[str]] = {}
        for cell, role in scene.cell_roles.items():
            if role in words:
                by_role.setdefault(words[role], []).append(name(cell))
        for role_words, cells in by_role.items():
            said.append(f"{role_words}: {', '.join(sorted(cells, key=_cell_order))}"
                        if named else f"{role_words}: {_cells(len(cells))}")
        # A stone is a dot, or a disc in a stone's role (a numbered stone); a disc in any
        # other role is the paper under a designer's letter or number, on an empty cell.
        stone_roles = {role.name for role in roles if role.swatch == "stone"}
        stones = [m for m in scene.markers
                  if (m.kind == "dot" or (m.kind == "disc" and m.role in stone_roles))
                  and scene.cell_roles.get(m.cell) not in ("player1", "player2")]
        if stones and not named:
            said.append(ntr("{count} stone", "{count} stones", len(stones)).format(
                count=len(stones)))
        elif stones:
            # Plain stones first, then each kind of stone its role has words for (a
            # loop's stones), so that the reader learns which stones form what.
            plain_stones = tr("stones")
            kinds: dict[str, list[str]] = {plain_stones: []}
            for m in stones:
                kinds.setdefault(words.get(m.role, plain_stones), []).append(name(m.cell))
            said.extend(tr("{stones} on {cells}").format(
                stones=kind, cells=", ".join(sorted(cells, key=_cell_order)))
                for kind, cells in kinds.items() if cells)
        numbered = [tr("{place} is {label}").format(place=name(cell), label=text)
                    for cell, text in scene.cell_texts.items()]
        if numbered:
            said.append(tr("numbered: {labels}").format(
                labels=", ".join(sorted(numbered, key=_cell_order))) if named
                else tr("marked {labels}").format(
                    labels=", ".join(sorted(scene.cell_texts.values()))))
        if not said:
            said.append(tr("an empty board"))
    marks = designer_marks(scene)
    if marks:  # the designer's marks, said apart from what the engine shows
        said.append(tr("the diagram marks {marks}").format(
            marks=", ".join(_mark_words(scene, m) for m in marks)))
    text = "; ".join(said) + "."
    return f"{text} {_sentence(scene.caption)}" if scene.caption else text


# A designer's mark in a text alternative ("the diagram marks a ring on D3").
MARK_WORDS = {"dot": N_("a dot"), "ring": N_("a ring"), "cross": N_("a cross")}


def _mark_words(scene: Panel, mark: DesignerMark) -> str:
    """'a ring on D3', 'the label A on b9' (no place on a board whose cells have no
    names)."""
    what = tr("the label {text}").format(text=mark.text) if mark.kind == "text" else \
        tr(MARK_WORDS[mark.kind])
    if isinstance(scene, PointScene) and not isinstance(mark.where, Hex):
        return tr("{mark} on {place}").format(mark=what, place=scene.name(mark.where))
    if isinstance(scene, Scene) and scene.labels != "none" and isinstance(mark.where, Hex):
        return tr("{mark} on {place}").format(mark=what,
                                              place=Notation(scene.grid).name(mark.where))
    return what


def _cell_order(name: str) -> tuple[str, int]:
    letters = name.rstrip("0123456789 is")
    digits = "".join(ch for ch in name[len(letters):] if ch.isdigit())
    return letters, int(digits or 0)


def _jupyter_svg(diagram: Diagram) -> str:
    from boardgen.render.paper import parse_paper

    return draw_diagram(diagram, "diagram", diagram.title, "svg", paper=parse_paper("a4"),
                        theme=THEMES["colour"]).decode("utf-8")


show_svg_with(_jupyter_svg)  # a picture is data: the renderer says how Jupyter draws it
