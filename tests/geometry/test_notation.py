"""Cell names a designer can guess (issue 33, item 6): the server's notation and the a1
notation of Hex and Havannah, every name read back to its cell, off-board names refused with
the board's range, and the board as text with its coordinates round it, read back too.

The oracle for the a1 names shares no code with boardgen.geometry.notation: it counts the
cells of an N x N rhombus in reading order and spells the columns itself."""

from __future__ import annotations

import itertools
import random
import re
import string

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boardgen.errors import BoardgenError
from boardgen.geometry import (
    NOTATIONS,
    Hex,
    Notation,
    format_hex_text,
    framed_text,
    grid_from_mask,
    make_shape,
    rhombus,
)
from boardgen.geometry.hexgrid import HexGrid
from boardgen.geometry.notation import drawn_on_grid, unframed

SHAPES = ("hexhex", "rhombus", "triangle")


def _oracle_columns() -> list[str]:
    """a .. z, aa .. zz: the columns as a Hex board prints them, spelled out."""
    letters = string.ascii_lowercase
    return [*letters, *("".join(pair) for pair in itertools.product(letters, repeat=2))]


def oracle_a1_names(side: int) -> list[str]:
    """An N x N rhombus's cells, in reading order (top row first, left to right), named as
    Hex players name them: the column letter, then the row number from the top."""
    columns = _oracle_columns()
    return [f"{columns[k % side]}{k // side + 1}" for k in range(side * side)]


@st.composite
def boards(draw: st.DrawFn) -> HexGrid:
    """A board of any shape and size, or a custom shape drawn as text, in any notation."""
    notation = draw(st.sampled_from(NOTATIONS))
    if draw(st.booleans()):
        shape = draw(st.sampled_from(SHAPES))
        side = draw(st.integers(min_value=2, max_value=30 if shape == "rhombus" else 16))
        return make_shape(shape, side).named(notation)
    rows = draw(st.lists(st.lists(st.booleans(), min_size=1, max_size=12), min_size=1,
                         max_size=10))
    rows[0][0] = True  # a blank first line would be dropped, moving every row up
    lines = [" " * r + " ".join("o" if on else " " for on in row) for r, row in enumerate(rows)]
    if sum(map(sum, rows)) < 3:
        lines.append(" " * len(lines) + "o o o")
    return grid_from_mask("\n".join(lines), "drawn").named(notation)


@settings(max_examples=150, deadline=None)
@given(boards())
def test_every_cell_name_parses_back_to_the_cell(grid: HexGrid) -> None:
    notation = Notation(grid)
    names = [notation.name(h) for h in grid]
    assert len(set(names)) == len(names)
    for h, name in zip(grid, names, strict=True):
        assert notation.parse(name) == h
        assert notation.parse(name.swapcase()) == h
        assert notation.parse(f"{h.q},{h.r}") == h


@pytest.mark.parametrize("side", [2, 6, 11, 19, 26, 27, 40])
def test_a1_names_on_a_rhombus_are_the_hex_players_names(side: int) -> None:
    grid = rhombus(side).named("a1")
    notation = Notation(grid)
    assert [notation.name(h) for h in grid.cells] == oracle_a1_names(side)


def test_rhombus_6_runs_a1_to_f6_and_the_server_names_stay_the_default() -> None:
    grid = rhombus(6)
    assert grid.notation == "server"
    server, a1 = Notation(grid), Notation(grid.named("a1"))
    top_left, bottom_right = Hex(0, 0), Hex(5, 5)
    assert (a1.name(top_left), a1.name(bottom_right)) == ("a1", "f6")
    assert (server.name(top_left), server.name(bottom_right)) == ("A1", "F11")
    # a1's columns run down and to the right: b1's south-east neighbour is b2.
    assert a1.name(a1.parse("b1") + Hex(0, 1)) == "b2"


@settings(max_examples=60, deadline=None)
@given(boards(), st.integers(min_value=1, max_value=60), st.integers(min_value=0, max_value=60))
def test_an_off_board_name_is_refused_with_the_boards_range(grid: HexGrid, number: int,
                                                           letter: int) -> None:
    notation = Notation(grid)
    name = _oracle_columns()[letter] + str(number) if grid.notation == "a1" else \
        "ABCDEFGHJKLMNOPQRSTUVWXYZ"[letter % 25] + str(number)
    try:
        cell = notation.parse(name)
    except BoardgenError as exc:
        said = str(exc)
        assert "is not on the board" in said, said
        rows = [notation.name(row[0]) for row in grid.rows()]
        first, last = notation.name(grid.cells[0]), notation.name(grid.cells[-1])
        words = ("columns", "rows") if grid.notation == "a1" else ("rows", "diagonals")
        assert re.search(rf"{words[0]} \w+-\w+, {words[1]} \w+-\w+", said), said
        # The range names the first row's and the last row's labels.
        a1 = grid.notation == "a1"
        top, bottom = (re.sub(r"^[a-z]+", "", name) if a1 else name.rstrip("0123456789")
                       for name in (first, last))
        assert f"rows {top}-{bottom}" in said, (said, rows)
    else:
        assert cell in grid


def test_the_off_board_messages_read_as_a_designer_needs() -> None:
    def refusal(grid: HexGrid, name: str) -> str:
        with pytest.raises(BoardgenError) as caught:
            Notation(grid).parse(name)
        return str(caught.value)

    assert refusal(rhombus(6), "F12") == ("'F12' is not on the board (rhombus 6x6: rows A-F, "
                                          "diagonals 1-11; row F runs F6-F11)")
    assert refusal(rhombus(6).named("a1"), "g3") == (
        "'g3' is not on the board (rhombus 6x6: columns a-f, rows 1-6; row 3 runs a3-f3)")
    assert refusal(make_shape("hexhex", 6), "A7").endswith("row A runs A1-A6)")
    assert "such as f6" in refusal(rhombus(6).named("a1"), "6f")


@settings(max_examples=80, deadline=None)
@given(boards(), st.randoms(use_true_random=False))
def test_the_board_with_coordinates_reads_back(grid: HexGrid, rng: random.Random) -> None:
    chars = {h: rng.choice(".xo") for h in grid}
    framed = framed_text(grid, chars)
    plain = format_hex_text(grid, chars)
    # With the coordinates blanked out, the cells stand as they stand without them.
    body = [line.rstrip() for line in unframed(framed, grid)][len(framed) - len(plain):]
    shift = {len(got) - len(want) for got, want in zip(body, plain, strict=True) if want}
    assert len(shift) == 1
    margin = " " * shift.pop()
    assert body == [margin + line if line else "" for line in plain]
    indented = ["    " + line for line in framed]
    assert drawn_on_grid(grid, "\n".join(indented), "t", frozenset(".xo")) == chars


def test_play_text_shows_labels_as_a_chess_program_does() -> None:
    grid = make_shape("hexhex", 3)
    assert framed_text(grid, {}) == ["      1 2 3",
                                     "A    . . . 4",
                                     "B   . . . . 5",
                                     "C  . . . . .",
                                     "D   . . . .",
                                     "E    . . ."]
    assert framed_text(rhombus(3).named("a1"), {}) == ["   a b c",
                                                       "1  . . .",
                                                       "2   . . .",
                                                       "3    . . ."]
    wide = framed_text(rhombus(12).named("server"), {})
    assert wide[0].split() == ["1", "1", "1"] and wide[1].split()[-3:] == ["0", "1", "2"]


def test_an_unknown_notation_is_refused() -> None:
    with pytest.raises(BoardgenError, match="choose from server, a1"):
        Notation(rhombus(3).named("hex"))


@pytest.mark.parametrize("style", ["server", "a1"])
@pytest.mark.parametrize("side", [2, 5, 30])
def test_names_in_bulk_are_each_cells_name(style: str, side: int) -> None:
    """Notation.names (a figure names every cell at once) agrees with name, cell by cell,
    and its line labels, kept after the first call, are the same each time."""
    grid = make_shape("hexhex", side).named(style)
    notation = Notation(grid)
    assert notation.names(grid.cells) == [notation.name(h) for h in grid.cells]
    first = notation.line_labels()
    first.clear()  # a caller's list: the notation's own stays whole
    assert notation.line_labels() == Notation(grid).line_labels() != []


@pytest.mark.parametrize("drawn_side", [2, 3, 7])
def test_a_drawing_of_another_hexhex_side_names_the_side_it_fits(drawn_side: int) -> None:
    drawing = "\n".join(format_hex_text(make_shape("hexhex", drawn_side), {}, "."))
    with pytest.raises(BoardgenError) as refused:
        drawn_on_grid(make_shape("hexhex", 10), drawing, "start.txt", frozenset(".xo"))
    cells = 3 * drawn_side * drawn_side - 3 * drawn_side + 1
    assert str(refused.value).endswith(
        f"has 271 ({cells} cells make a hexhex board of side {drawn_side})")


def test_a_drawing_no_hexhex_fits_gets_no_side_hint() -> None:
    drawing = "\n".join(format_hex_text(make_shape("rhombus", 3), {}, "."))  # 9: no hexhex
    with pytest.raises(BoardgenError) as refused:
        drawn_on_grid(make_shape("hexhex", 10), drawing, "start.txt", frozenset(".xo"))
    assert str(refused.value).endswith("has 271")
