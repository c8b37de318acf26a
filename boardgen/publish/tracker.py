"""Polygone's kind of capture tracker, and the size of a fixed board's pieces: shared by the
kit and by the rule sheet's pieces page, which both fold the tracker beside the pieces."""

from __future__ import annotations

import math

from boardgen.games.protocol import Game, Tracker
from boardgen.i18n import tr
from boardgen.render.figure import Figure, Stroke, Text, wrap
from boardgen.render.fonts import BOLD, REGULAR


def piece_size(description: Game) -> tuple[float, float]:
    """A piece's length and width (mm) for a fixed board with pieces, else a Go stone's."""
    from boardgen.render.lattice import default_spacing, piece_width

    fixed = description.fixed_board
    if fixed is None or fixed.strips is None:
        return 22.0, 22.0
    spacing = default_spacing(fixed)
    return spacing, piece_width(spacing)


# --- a capture tracker ----------------------------------------------------------------------

TRACKER_SPARE_MM = 2.0  # a box is this much longer than a piece, at least
TRACKER_GAP_MM = 3.0  # between boxes side by side


def tracker_intro(tracker: Tracker) -> str:
    """The tracker's words in the current language, its number of boxes filled in."""
    return tr(tracker.intro).format(wins=tracker.boxes)


def tracker_figure(tracker: Tracker, piece: tuple[float, float]) -> Figure:
    """A column of boxes a player, side by side under the tracker's words: each box as long
    as a piece plus ``TRACKER_SPARE_MM`` (at least) and wide enough to lay it in, numbered
    in its corner, under the player's heading."""
    count = tracker.boxes
    box_w = math.ceil(piece[0] + TRACKER_SPARE_MM)
    box_h = math.ceil(piece[1] + 2 * TRACKER_SPARE_MM)
    players = len(tracker.rows)
    width = players * box_w + (players - 1) * TRACKER_GAP_MM * 2
    size = 3.2
    texts: list[Text] = []
    strokes: list[Stroke] = []
    y = 0.0
    for line in wrap(tracker_intro(tracker), size, width):
        y += 1.35 * size
        texts.append(Text(0.0, y, line, size, "caption", "start"))
    y += 3.0
    headings = [wrap(tr(heading), 3.6, box_w, BOLD) for heading in tracker.rows]
    top = y + 1.3 * 3.6 * max(len(lines) for lines in headings) + 2.5
    for index, lines in enumerate(headings):
        x0 = index * (box_w + 2 * TRACKER_GAP_MM)
        for k, line in enumerate(lines):
            texts.append(Text(x0, y + 1.3 * 3.6 * (k + 1), line, 3.6, "title", "start", BOLD))
        for k in range(count):
            y0 = top + k * (box_h + TRACKER_GAP_MM)
            corners = ((x0, y0), (x0 + box_w, y0), (x0 + box_w, y0 + box_h), (x0, y0 + box_h))
            for a, b in zip(corners, corners[1:] + corners[:1], strict=True):
                strokes.append(Stroke((a, b), "line", 0.35))
            texts.append(Text(x0 + 1.2, y0 + 3.4, str(k + 1), 3.2, "coordinate", "start",
                              REGULAR))
    bottom = top + count * box_h + (count - 1) * TRACKER_GAP_MM
    figure = Figure(width + 2.0, bottom + 2.0, box_w, (), [], texts, [], strokes,
                    scale_note=f"boxes {box_w} by {box_h} mm")
    return figure.shifted(1.0, 1.0)
