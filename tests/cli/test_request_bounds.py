"""Every bound the request layer (boardgen/requests.py) checks, at the limit and one step
past it.  The limits are written here as the README and the error messages state them
(2-200 mm cells, 36-1200 dpi, 150,000 cells, 80 characters quoted, 100 of a title), never
read from the module, so a bound moved by one in the code fails here."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import Run, one_line_error

import boardgen
from boardgen.errors import BoardgenError
from boardgen.games.registry import game_named
from boardgen.requests import (
    BoardSize,
    board_size,
    checked_cell_mm,
    checked_dpi,
    designer_marks,
    draw_options,
    quoted,
    resolve_grid,
)

RunCli = Callable[..., Run]


class Reached(Exception):
    """Raised by the precheck: every count check passed and the grid was about to be built
    (a side-224 board is not built just to see it accepted)."""


def _stop(corners: object) -> None:
    raise Reached


def _accepted_before_building(game: str, size: BoardSize) -> None:
    with pytest.raises(Reached):
        resolve_grid(game_named(game), size, _stop)


@pytest.mark.parametrize(("width", "ok"), [
    (2, True), (2.0, True), (1.999, False), (1, False),
    (200, True), (200.0, True), (200.001, False), (201, False)])
def test_a_cell_is_2_to_200_mm_wide(width: float, ok: bool) -> None:
    if ok:
        assert checked_cell_mm(width) == width
        return
    with pytest.raises(BoardgenError) as refused:
        checked_cell_mm(width)
    assert str(refused.value) == (f"cell_mm {width:g}: a cell must be between 2 and 200 mm "
                                  "wide")
    assert refused.value.field == "cell_mm"


@pytest.mark.parametrize(("dpi", "ok"), [(36, True), (35, False), (1200, True),
                                         (1201, False), (150, True)])
def test_png_resolution_is_36_to_1200_dpi(dpi: int, ok: bool) -> None:
    if ok:
        assert checked_dpi(dpi) == dpi
        assert draw_options(dpi=dpi).dpi == dpi
        return
    with pytest.raises(BoardgenError) as refused:
        draw_options(dpi=dpi)
    assert str(refused.value) == f"dpi {dpi}: between 36 and 1200"
    assert refused.value.field == "dpi"


def test_dpi_bounds_on_the_command_line(run_cli: RunCli, in_tmp: Path) -> None:
    # click checks the range before the request layer sees it, in its own words.
    one_line_error(run_cli("board", "o", "--dpi", "1201", "-o", "b.png"),
                   "'--dpi': 1201 is not in the range 36<=x<=1200")
    one_line_error(run_cli("board", "o", "--dpi", "35", "-o", "b.png"),
                   "'--dpi': 35 is not in the range 36<=x<=1200")
    assert not list(in_tmp.iterdir())
    assert run_cli("board", "free", "--side", "2", "--dpi", "36", "-o", "b.png").code == 0


@pytest.mark.parametrize(("diameter", "side"), [(3, 2), (5, 3), (9, 5), (13, 7), (19, 10)])
def test_a_diameter_is_the_cells_across(diameter: int, side: int) -> None:
    grid = resolve_grid(game_named("free"), board_size(diameter=diameter))
    assert len(grid) == 3 * side * (side - 1) + 1
    # Cells across the middle row: the diameter itself.
    middle = [cell for cell in grid if cell.r == 0]
    assert len(middle) == diameter


@pytest.mark.parametrize("diameter", [1, 2, 4, 8, -3, 0])
def test_a_diameter_under_3_or_even_is_refused_naming_it(diameter: int) -> None:
    with pytest.raises(BoardgenError) as refused:
        resolve_grid(game_named("o"), board_size(diameter=diameter))
    assert str(refused.value).startswith(f"diameter {diameter}: a hexhex board is an odd "
                                         "number of cells across")
    assert refused.value.field == "diameter"


# The largest boards under the 150,000-cell limit and the smallest over it, per shape
# (hexhex side n: 3n(n-1)+1 cells; rhombus n*n; triangle n(n+1)/2), counted here.
@pytest.mark.parametrize(("shape", "side", "cells"), [
    ("hexhex", 224, 149_857), ("hexhex", 225, 151_201),
    ("rhombus", 387, 149_769), ("rhombus", 388, 150_544),
    ("triangle", 547, 149_878), ("triangle", 548, 150_426)])
def test_a_board_may_hold_150_000_cells_and_no_more(shape: str, side: int,
                                                    cells: int) -> None:
    size = board_size(side=side, shape=shape)
    if cells <= 150_000:
        _accepted_before_building("o", size)
        return
    with pytest.raises(BoardgenError) as refused:
        resolve_grid(game_named("o"), size)
    assert str(refused.value) == (f"side {side}: a {shape} board of that side has "
                                  f"{cells:,} cells, more than the limit of 150,000")


def test_the_cell_limit_names_the_diameter_that_asked_for_it(run_cli: RunCli,
                                                             in_tmp: Path) -> None:
    _accepted_before_building("o", board_size(diameter=447))  # side 224
    with pytest.raises(BoardgenError) as refused:
        resolve_grid(game_named("o"), board_size(diameter=449))
    assert str(refused.value).startswith("diameter 449 (side 225): a hexhex board of that "
                                         "side has 151,201 cells")
    one_line_error(run_cli("board", "o", "--diameter", "449"),
                   "--diameter 449 (side 225): a hexhex board")


def test_the_smallest_side_is_2() -> None:
    assert len(resolve_grid(game_named("free"), board_size(side=2))) == 7
    with pytest.raises(BoardgenError) as refused:
        resolve_grid(game_named("free"), board_size(side=1))
    assert refused.value.field == "side"


def test_a_quoted_value_is_cut_after_80_characters() -> None:
    assert quoted("x" * 78) == "'" + "x" * 78 + "'"  # 80 with its quotes: whole
    assert quoted("x" * 79) == "'" + "x" * 79 + "..."  # 81: cut to 80 and marked
    assert quoted(10 ** 60 - 1) == "9" * 60
    assert quoted(10 ** 60) == "a number of 200 bits"
    assert quoted(-(10 ** 60)) == "a number of 200 bits"


def test_a_title_may_be_100_characters() -> None:
    assert draw_options(title="t" * 100).title == "t" * 100
    with pytest.raises(BoardgenError, match="^title: 101 characters is longer than the "
                                            "limit of 100$"):
        draw_options(title="t" * 101)


@pytest.mark.parametrize(("arrows", "ok"), [
    ([("A1", "B2")], True), ([("A1",)], False), ([("A1", "B2", "C3")], False),
    ([("A1", "")], False), ([("A 1", "B2")], False)])
def test_an_arrow_is_a_pair_of_one_word_places(arrows: list[tuple[str, ...]],
                                               ok: bool) -> None:
    if ok:
        assert designer_marks(arrows, None, None).arrows == (("A1", "B2"),)
        return
    with pytest.raises(BoardgenError) as refused:
        designer_marks(arrows, None, None)
    assert refused.value.field == "arrows"


def test_a_highlight_needs_at_least_one_place() -> None:
    assert designer_marks(None, None, {"tint": ["B2"]}).highlights == (("tint", ("B2",)),)
    with pytest.raises(BoardgenError, match="needs a list of places") as refused:
        designer_marks(None, None, {"tint": []})
    assert refused.value.field == "highlights"


def test_the_api_draws_at_the_dpi_bounds() -> None:
    position = boardgen.play("copolymer", side=2)
    assert boardgen.draw(position, "png", dpi=36)[:4] == b"\x89PNG"
    with pytest.raises(BoardgenError, match="^dpi 1201: between 36 and 1200"):
        boardgen.draw(position, "png", dpi=1201)


def test_a_board_over_the_page_limit_is_refused_before_it_is_built(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import boardgen.requests as requests

    def never(*args: object) -> object:
        raise AssertionError("the grid was built")

    monkeypatch.setattr(requests, "make_shape", never)
    with pytest.raises(BoardgenError, match="500"):
        requests.board_request(game_named("o"), board_size(side=100), theme="colour",
                               cell_mm=200, dpi=150, title=None, pages_checked=True)
    with pytest.raises(AssertionError, match="the grid was built"):  # unchecked: built
        requests.board_request(game_named("o"), board_size(side=100), theme="colour",
                               cell_mm=200, dpi=150, title=None)


def test_the_requests_defaults_and_what_they_pass_on() -> None:
    from boardgen.render.paper import parse_paper
    from boardgen.requests import board_request, play_request

    assert draw_options().paper == parse_paper("a4")
    fixed = board_request(game_named("polygone"), board_size(), theme="ink", cell_mm=None,
                          dpi=150, title="Mine")
    assert (fixed.draw.title, fixed.draw.theme.name) == ("Mine", "ink")
    assert "Mine" in fixed.render("svg").decode("utf-8")
    # O's own option (issue 29: declared by the game), passed on only when given.
    assert play_request(game_named("o"), board_size(side=4)).options.get("partisan") is None
    assert play_request(game_named("o"), board_size(side=4),
                        {"partisan": True}).options.get("partisan") is True


@pytest.mark.parametrize(("call", "message", "field"), [
    (lambda: boardgen.play("copolymer", side=3, first="z"),
     "first: unknown player 'z' (choose from x, o)", "first"),
    (lambda: boardgen.board("copolymer", "svg", shape="rhombus", mask=". .\n . .\n"),
     "shape rhombus and mask both give the board's shape: use one", None),
    (lambda: boardgen.board("copolymer", "svg", preset="huge"),
     "preset 'huge': unknown (choose from large, medium, small)", None),
    (lambda: boardgen.board("copolymer", "svg", mask="x\n"),
     "mask:", "mask"),
])
def test_each_refusal_says_what_and_names_its_option(call: Callable[[], object], message: str,
                                                     field: str | None) -> None:
    with pytest.raises(BoardgenError) as refused:
        call()
    assert str(refused.value).startswith(message), str(refused.value)
    if field is not None:
        assert refused.value.field == field


@pytest.mark.parametrize(("kwargs", "message", "field"), [
    ({"cell_mm": "12"}, "cell_mm: expected a number, not '12'", "cell_mm"),
    ({"cell_mm": True}, "cell_mm: expected a number, not True", "cell_mm"),
    ({"dpi": 150.0}, "dpi: expected a number, not 150.0", "dpi"),
    ({"title": 5}, "title: expected text, not 5", "title"),
    ({"paper": None}, "paper: expected text, not None", "paper"),
    ({"theme": 1}, "theme: expected text (a theme's name or a FILE.toml), a Path or a dict, "
     "not 1", "theme"),
])
def test_a_value_of_the_wrong_type_is_refused_naming_its_option(
        kwargs: dict[str, object], message: str, field: str) -> None:
    with pytest.raises(BoardgenError) as refused:
        draw_options(**kwargs)
    assert str(refused.value) == message
    assert refused.value.field == field
