"""Hex grids, shapes, masks, layout and notation."""

from __future__ import annotations

import math
from collections.abc import Callable

import pytest
from hypothesis import given
from hypothesis import strategies as st

from boardgen.errors import BoardgenError
from boardgen.geometry import (
    DIRECTIONS,
    SQRT3,
    Hex,
    Layout,
    Notation,
    format_hex_text,
    grid_from_mask,
    hexhex,
    make_shape,
    parse_hex_text,
    rhombus,
    row_index,
    row_letters,
    shape_cell_count,
    triangle,
)
from boardgen.geometry.hexgrid import MASK_CELL_CHARS, HexGrid

SIDES = range(2, 13)


@pytest.mark.parametrize("side", SIDES)
def test_cell_counts_for_every_shape(side: int) -> None:
    assert len(hexhex(side)) == 3 * side * (side - 1) + 1
    assert len(rhombus(side)) == side * side
    assert len(triangle(side)) == side * (side + 1) // 2
    for shape in ("hexhex", "rhombus", "triangle"):
        assert len(make_shape(shape, side)) == shape_cell_count(shape, side)


@pytest.mark.parametrize("side", SIDES)
def test_hexhex_rows_diameter_perimeter_corners(side: int) -> None:
    grid = hexhex(side)
    lengths = [len(row) for row in grid.rows()]
    assert lengths == list(range(side, 2 * side)) + list(range(2 * side - 2, side - 1, -1))
    assert max(lengths) == 2 * side - 1
    assert len(grid.perimeter) == 6 * (side - 1)
    assert len(grid.corners) == 6
    assert all(len(grid.neighbours(h)) == 3 for h in grid.corners)


# Every name read back to its cell, in each notation and shape: tests/geometry/test_notation.py.


def test_server_figure_1_spot_values_on_side_6() -> None:
    grid = hexhex(6)
    n = Notation(grid)
    rows = grid.rows()
    top, middle, bottom = rows[0], rows[5], rows[-1]
    assert n.name(top[0]) == "A1" and n.name(top[-1]) == "A6"
    assert n.name(middle[0]) == "F1" and n.name(middle[-1]) == "F11"
    assert n.name(bottom[0]) == "L6" and n.name(bottom[-1]) == "L11"
    assert n.parse("F6") == Hex(0, 0)  # the centre
    assert [n.row_name(row[0].r) for row in rows] == list("ABCDEFGHJKL")
    # A diagonal runs from upper right to lower left: A1's south-west neighbour is B1.
    assert n.name(n.parse("A1") + Hex(-1, 1)) == "B1"
    assert n.name(n.parse("A6") + Hex(-1, 1)) == "B6"


def test_row_letters_skip_i_and_continue_past_z() -> None:
    assert [row_letters(i) for i in range(10)] == list("ABCDEFGHJK")
    assert row_letters(24) == "Z" and row_letters(25) == "AA" and row_letters(26) == "AB"
    for i in range(2000):
        assert row_index(row_letters(i)) == i
        assert "I" not in row_letters(i)


def test_notation_refuses_cells_off_the_board_and_nonsense() -> None:
    n = Notation(hexhex(6))
    for bad in ("A7", "L5", "M1", "F0", "I3", "6F", "", "F6x", "99,99"):
        with pytest.raises(BoardgenError):
            n.parse(bad)


@given(st.integers(min_value=2, max_value=30), st.integers(min_value=0, max_value=10**6))
def test_neighbours_are_symmetric_and_adjacent(side: int, pick: int) -> None:
    grid = hexhex(side)
    h = grid.cells[pick % len(grid)]
    for n in grid.neighbours(h):
        assert h in grid.neighbours(n)
        assert h.distance(n) == 1
    assert len(grid.ring(h)) == 6
    assert len(grid.neighbours(h)) == sum(1 for p in grid.ring(h) if p is not None)


def test_ring_order_is_clockwise_from_east() -> None:
    layout = Layout.from_cell_width(10.0)
    angles = [math.degrees(math.atan2(*reversed(layout.centre(d)))) % 360 for d in DIRECTIONS]
    # y grows downward, so clockwise on the page is increasing screen angle.
    assert angles == sorted(angles)
    assert round(angles[0]) == 0


def test_layout_cell_width_is_flat_to_flat() -> None:
    layout = Layout.from_cell_width(12.5)
    xs = [x for x, _ in layout.corner_offsets()]
    assert max(xs) - min(xs) == pytest.approx(12.5)
    # Neighbours in a row are exactly one cell width apart.
    assert layout.centre(Hex(1, 0))[0] - layout.centre(Hex(0, 0))[0] == pytest.approx(12.5)
    assert layout.size_mm == pytest.approx(12.5 / SQRT3)
    shifted = Layout.from_cell_width(12.5, origin=(100.0, 50.0))
    assert shifted.bounds([Hex(0, 0)]) == pytest.approx(
        (100.0 - 6.25, 50.0 - shifted.size_mm, 100.0 + 6.25, 50.0 + shifted.size_mm))


def test_mask_reads_the_server_text_layout() -> None:
    text = """
        . . .
       . . . .
      . . . . .
       . . . .
        . . .
    """
    grid = grid_from_mask(text, "mask.txt")
    assert len(grid) == 19
    assert sorted(len(r) for r in grid.rows()) == [3, 3, 4, 4, 5]
    assert len(grid.corners) == 6


@given(st.sets(st.tuples(st.integers(0, 8), st.integers(0, 8)), min_size=1, max_size=40))
def test_hex_text_round_trip(cells: set[tuple[int, int]]) -> None:
    from boardgen.geometry import HexGrid

    grid = HexGrid([Hex(q, r) for q, r in cells], "random")
    lines = format_hex_text(grid, {})
    back = parse_hex_text("\n".join(lines), "t", MASK_CELL_CHARS)
    # Same shape up to a translation.
    def normal(hs: list[Hex]) -> set[tuple[int, int]]:
        mq, mr = min(h.q for h in hs), min(h.r for h in hs)
        return {(h.q - mq, h.r - mr) for h in hs}
    assert normal(list(back)) == normal(list(grid))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("   \n\n  ", "no cells"),
        (". . ?", "line 1, column 5: stray character '?'"),
        (". .\n. .", "line 2, column 1"),
        ("..", "off the hex lattice"),
    ],
)
def test_bad_masks_name_the_place(text: str, message: str) -> None:
    with pytest.raises(BoardgenError, match=message.replace("?", r"\?")):
        grid_from_mask(text, "m.txt")


def test_sizes_refused_before_allocating() -> None:
    with pytest.raises(BoardgenError, match="too small"):
        hexhex(1)
    with pytest.raises(BoardgenError, match="limit"):
        hexhex(10_000_000)  # would be ~3e14 cells: must fail instantly, not build a list
    with pytest.raises(BoardgenError, match="limit"):
        rhombus(1000)


@pytest.mark.parametrize("shape", [hexhex, rhombus, triangle])
@pytest.mark.parametrize("side", [2, 3, 6, 31])
def test_shapes_make_their_cells_in_reading_order(shape: Callable[[int], HexGrid],
                                                  side: int) -> None:
    """hexhex, rhombus and triangle hand their cells over unsorted (in_reading_order): the
    order must be what sorting gives, top row first, each row left to right, no repeats."""
    cells = shape(side).cells
    assert len(set(cells)) == len(cells)
    assert list(cells) == sorted(cells, key=lambda h: (h.r, h.q))
