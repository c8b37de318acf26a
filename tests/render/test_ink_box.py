"""ink_box (what a page must hold uncut) keeps running extremes instead of listing every
edge: an oracle that lists every edge of every box and takes min() and max() of them
gives the same four numbers, to the sign of a zero, on any figure."""

from __future__ import annotations

import math

from hypothesis import example, given, settings
from hypothesis import strategies as st

from boardgen.render.figure import Area as FilledArea
from boardgen.render.figure import CellShape, Figure, Mark, Stroke, Text, ink_box, text_box

ALLOWANCE = 0.3  # the widest outline round a cell, as the figure module says


def _head(stroke: Stroke) -> list[tuple[float, float]]:
    (x0, y0), (x1, y1) = stroke.points[-2], stroke.points[-1]
    length = math.hypot(x1 - x0, y1 - y0) or 1.0
    ux, uy = (x1 - x0) / length, (y1 - y0) / length
    size = stroke.head or 3.5 * stroke.width
    bx, by = x1 - ux * size, y1 - uy * size
    return [(x1 + ux * stroke.width, y1 + uy * stroke.width),
            (bx - uy * size * 0.6, by + ux * size * 0.6),
            (bx + uy * size * 0.6, by - ux * size * 0.6)]


def _every_edge(figure: Figure) -> tuple[float, float, float, float] | None:
    xs: list[float] = []
    ys: list[float] = []
    if figure.cells and figure.hex_offsets:
        rx = max(abs(x) for x, _ in figure.hex_offsets) + ALLOWANCE
        ry = max(abs(y) for _, y in figure.hex_offsets) + ALLOWANCE
        for cell in figure.cells:
            xs += [cell.x - rx, cell.x + rx]
            ys += [cell.y - ry, cell.y + ry]
    for mark in figure.marks:
        reach = 1.15 * mark.radius + ALLOWANCE
        xs += [mark.x - reach, mark.x + reach]
        ys += [mark.y - reach, mark.y + reach]
    for stroke in figure.strokes:
        half = stroke.width / 2
        for x, y in [*stroke.points, *(_head(stroke) if stroke.arrow else [])]:
            xs += [x - half, x + half]
            ys += [y - half, y + half]
    for t in figure.texts:
        x0, y0, x1, y1 = text_box(t)
        xs += [x0, x1]
        ys += [y0, y1]
    for area in [*figure.areas, *figure.overlays]:
        for x, y in area.points:
            xs += [x, x]
            ys += [y, y]
    return (min(xs), min(ys), max(xs), max(ys)) if xs else None


coordinate = st.one_of(st.sampled_from([0.0, -0.0, 1.0, -2.0]),
                       st.floats(-300, 300, allow_nan=False))
size = st.one_of(st.sampled_from([0.0, 0.5]), st.floats(0, 20, allow_nan=False))
point = st.tuples(coordinate, coordinate)


@st.composite
def figures(draw: st.DrawFn) -> Figure:
    figure = Figure(10.0, 10.0, 5.0, tuple(draw(st.lists(point, max_size=6))))
    figure.cells += [CellShape("a1", x, y, "empty") for x, y in draw(st.lists(point, max_size=5))]
    figure.marks += [Mark("dot", x, y, r, "accent")
                     for (x, y), r in draw(st.lists(st.tuples(point, size), max_size=3))]
    figure.strokes += [Stroke(tuple(points), "accent", width, arrow=arrow)
                       for points, width, arrow in draw(st.lists(st.tuples(
                           st.lists(point, min_size=2, max_size=4), size, st.booleans()),
                           max_size=3))]
    figure.texts += [Text(x, y, words, s, "caption", anchor)
                     for (x, y), words, s, anchor in draw(st.lists(st.tuples(
                         point, st.sampled_from(["", "a b", "Black's move"]), size,
                         st.sampled_from(["start", "middle", "end"])), max_size=3))]
    figure.areas += [FilledArea(tuple(points), "accent")
                     for points in draw(st.lists(st.lists(point, min_size=1, max_size=4),
                                                 max_size=2))]
    figure.overlays += [FilledArea(tuple(points), "accent")
                        for points in draw(st.lists(st.lists(point, min_size=1, max_size=4),
                                                    max_size=2))]
    return figure


def _empty_text_at_minus_zero() -> Figure:
    """A text of no width whose left edge is -0.0 and right edge 0.0: the list's first
    maximum is the left edge."""
    figure = Figure(10.0, 10.0, 5.0, ())
    figure.texts.append(Text(-0.0, 0.0, "", 1.0, "caption", "start"))
    return figure


@settings(max_examples=400, deadline=None)
@given(figures())
@example(_empty_text_at_minus_zero())
def test_ink_box_is_every_edges_extremes(figure: Figure) -> None:
    assert repr(ink_box(figure)) == repr(_every_edge(figure))
