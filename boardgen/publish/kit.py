"""A print-and-play kit: one PDF per game with everything needed to play, in printing order.

The rule sheet, its one-page quick reference, the board(s), and what the game needs
besides, as its :class:`boardgen.games.protocol.Kit` says: Copolymer is played with pens,
so its kit has the play-by-email server's three boards to write on and a note on pens; O
needs stones, so its kit has a sheet of stones sized to the board's cells; Polygone needs
pieces and a count of captures, so its kit has the board, the pieces and a capture tracker.

The whole kit is one Typst document (:func:`boardgen.publish.typeset.render_kit_pdf`),
tagged PDF/UA-1 like the stand-alone sheet: one page style and footer, "page N of M"
across the kit, a bookmark per part, each board and sheet of stones placed as a vector
image at exact size, a figure with its text alternative.  Small parts are folded onto
pages that have room: the note on pens after the sheet's text, the tracker beside the
pieces.  Identical input gives identical bytes (nothing from the clock).
"""

from __future__ import annotations

import math
from functools import partial

from boardgen.errors import BoardgenError
from boardgen.games.registry import game_named
from boardgen.i18n import number as decimal
from boardgen.i18n import tr
from boardgen.publish.sheet_cache import cached_sheet
from boardgen.publish.tracker import piece_size, tracker_figure, tracker_intro
from boardgen.render.figure import MIN_PRINT_TEXT_MM, Figure, Mark, Stroke, Text, wrap
from boardgen.render.paper import Paper
from boardgen.render.scene import Theme
from boardgen.reproducible import source_date_epoch

NBSP_MM = "\u00a0mm"  # a number never parts from its unit


def kit_file_name(game: str) -> str:
    return f"{game}-kit.pdf"


def render_kit(game: str, *, paper: Paper, theme: Theme) -> bytes:
    """The game's kit as one tagged PDF."""
    from boardgen.publish.sheet import check_sheet_paper

    check_sheet_paper(paper)
    description = game_named(game)
    if not description.has_sheet():
        raise BoardgenError(f"{description.name} has no rule sheet, so no kit")
    source_date_epoch()  # a malformed SOURCE_DATE_EPOCH is refused before any work
    # Read from the cache of finished sheets when an earlier build made the same kit from
    # the same inputs (boardgen.publish.sheet_cache).
    return cached_sheet("kit", game, {"paper": paper, "theme": theme},
                        partial(_kit, game, paper, theme))


def _kit(game: str, paper: Paper, theme: Theme) -> bytes:
    from boardgen.publish.sheet import fitted_board, pieces_in_words
    from boardgen.publish.typeset import (
        KitBoard,
        KitTracker,
        KitWords,
        corner_is_free,
        kit_board_room,
        render_kit_pdf,
    )

    description = game_named(game)
    kit = description.kit
    name = description.name
    room = kit_board_room(paper)
    boards: list[KitBoard] = []
    hex_boards = description.hex_boards
    if description.fixed_board is None and hex_boards is not None:
        cell = 0.0
        for side, label in kit.boards or ((hex_boards.default_side, None),):
            grid = description.hex_board(side)  # the game's own shape, through its check
            scene = description.board_scene(grid)
            size = tr("side {side}").format(side=side) if grid.shape == "hexhex" \
                else grid.description
            # As large as the page allows: across the whole column when the bar up the
            # page fits in the board's empty top-left corner.
            wide = fitted_board(scene, kit_board_room(paper, corner=True))
            corner = corner_is_free(wide, (kit_board_room(paper, corner=True)[0] -
                                           wide.width) / 2)
            figure = wide if corner else fitted_board(scene, room)
            said = tr("Each cell is {width} mm flat to flat.").format(
                width=decimal(figure.cell_width)) + f" {pieces_in_words(figure.cell_width)}"
            title = tr("{game}: board, {size}").format(game=name, size=size) + \
                (f" ({tr(label)})" if label else "")
            boards.append(KitBoard(title, figure, said,
                                   tr("The {game} board, {size}, at actual size.").format(
                                       game=name, size=size) + f" {said}",
                                   corner))
            if side == hex_boards.default_side:
                cell = figure.cell_width
        if kit.stones:
            cells = len(description.hex_board())
            stones = stones_figure(cell, room, cells)
            said = tr("Stones {size} mm across, for the board's {cell} mm cells.").format(
                size=decimal(cell - 1.0), cell=decimal(cell))
            boards.append(KitBoard(tr("{game}: stones to cut out").format(game=name), stones,
                                   said, tr("Stones to cut out, at actual size.") + f" {said}"))
    tracker = None
    if kit.tracker is not None:
        piece = piece_size(description)
        figure = tracker_figure(kit.tracker, piece)
        tracker = KitTracker(tr("{game}: capture tracker").format(game=name), figure,
                             tr("A capture tracker: a column of {boxes} boxes for each "
                                "player, each box {length} mm long, longer than a piece."
                                ).format(boxes=kit.tracker.boxes,
                                         length=f"{figure.cell_width:.0f}") +
                             " " + tracker_intro(kit.tracker))
    note_title = tr(kit.note.title) if kit.note is not None else ""
    words = [KitWords(f"{name}: {note_title[:1].lower()}{note_title[1:]}",
                      tuple(tr(p) for p in kit.note.paragraphs))] if kit.note is not None \
        else []
    return render_kit_pdf(game, paper=paper, theme=theme,
                          title=tr("{game}: print-and-play kit").format(game=name),
                          boards=boards, words=words, tracker=tracker)


# --- O: a sheet of stones -----------------------------------------------------------------

STONE_GAP_MM = 3.0
MIN_STONE_GAP_MM = 1.5  # still room for scissors between two stones


def stones_figure(cell_mm: float, room: tuple[float, float], cells: int) -> Figure:
    """Stones enough for a board of ``cells`` cells, or as many as fill ``room``: discs
    1 mm narrower than the board's cells (a round piece fits a cell 1 mm wider than it), in
    rows with straight cutting guides between them, and a caption saying how to cut them
    and what they fit."""
    diameter = cell_mm - 1.0
    size = MIN_PRINT_TEXT_MM
    # The widest gap (3 mm, down to 1.5 mm in quarter steps) at which a stone for every
    # cell fits the room: larger cells on a shorter page (Letter) would leave a row out.
    gaps = [STONE_GAP_MM - 0.25 * k
            for k in range(int((STONE_GAP_MM - MIN_STONE_GAP_MM) / 0.25) + 1)]
    for gap in gaps:
        pitch = diameter + gap
        columns = max(1, math.floor((room[0] - 2.0) / pitch))
        width = columns * pitch
        lines_at = len(wrap(_stones_caption(cell_mm, diameter), size, width))
        top_at = (1.35 * lines_at + 1.0) * size
        if math.floor((room[1] - top_at - 2.0) / pitch) * columns >= cells:
            break
    lines = wrap(_stones_caption(cell_mm, diameter), size, width)
    texts = [Text(0.0, (1.0 + 1.35 * k) * size, line, size, "caption", "start")
             for k, line in enumerate(lines)]
    top = (1.35 * len(lines) + 1.0) * size
    rows = max(1, min(math.floor((room[1] - top - 2.0) / pitch), math.ceil(cells / columns)))
    marks: list[Mark] = []
    strokes: list[Stroke] = []
    # A stone's outline is stroked on its radius, half of it outside (figure.dot_outline:
    # 0.14 of the radius wide): the radius is chosen so that the stone, outline included,
    # is ``diameter`` across.
    radius = diameter / 2 / 1.07
    for row in range(rows):
        for column in range(columns):
            marks.append(Mark("dot", (column + 0.5) * pitch, top + (row + 0.5) * pitch,
                              radius, "stone"))
    for row in range(rows + 1):  # guides between the rows, and past the ends
        y = top + row * pitch
        strokes.append(Stroke(((-1.0, y), (width + 1.0, y)), "line", 0.2))
    figure = Figure(width + 2.0, top + rows * pitch + 2.0, cell_mm, (), [], texts, marks,
                    strokes, scale_note=tr("stones {size} mm across, for the board\u2019s "
                                           "{cell} mm cells").format(
                                               size=decimal(diameter), cell=decimal(cell_mm)))
    return figure.shifted(1.0, 1.0)


def _stones_caption(cell_mm: float, diameter: float) -> str:
    return tr("Stones for a board whose cells are {cell}{mm} across, as many as it has cells "
              "or as fit the page: cut the rows apart along the straight lines, then each "
              "stone round its edge (printed on card they handle best). Go stones or "
              "counters up to {size}{mm} fit too.").format(
                  cell=decimal(cell_mm), size=math.floor(diameter),  # never round up
                  mm=NBSP_MM)
