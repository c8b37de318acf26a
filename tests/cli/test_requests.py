"""The request layer shared by the command line and the Python API: one check per rule, an
error naming the option (``cell_mm`` in Python, ``--cell-mm`` on the command line), and the
API's board() drawing what ``boardgen board`` draws."""

from __future__ import annotations

import pickle
from collections.abc import Callable
from pathlib import Path
from typing import get_args

import pytest
from conftest import Run

import boardgen
from boardgen.errors import BoardgenError, cli_flag

RunCli = Callable[..., Run]


def test_each_vocabulary_type_lists_what_the_renderer_accepts() -> None:
    from boardgen.requests import Format, LabelMode, Orientation, ShapeName, ThemeName

    # The renderer's own lists, spelled out here: a name added on one side only fails.
    assert set(get_args(Format)) == {"pdf", "svg", "png"}
    assert set(get_args(LabelMode)) == {"outside", "inside", "none"}
    assert set(get_args(ThemeName)) == {"colour", "colourblind", "ink"}
    assert set(get_args(Orientation)) == {"auto", "portrait", "landscape"}
    assert set(get_args(ShapeName)) == {"hexhex", "rhombus", "triangle"}
    from boardgen.requests import vocabulary_matches

    for name, (typed, accepted) in vocabulary_matches().items():
        assert set(typed) == set(accepted), name


# (API call, CLI arguments, the field, the message as the API words it, as the CLI does)
SAME_REFUSAL = [
    (lambda: boardgen.board("copolymer", "svg", cell_mm=1),
     ["board", "copolymer", "--cell-mm", "1", "-o", "b.svg"], "cell_mm",
     "cell_mm 1: a cell must be between 2 and 200 mm wide",
     "--cell-mm 1: a cell must be between 2 and 200 mm wide"),
    (lambda: boardgen.board("copolymer", "pdf", side=5, diameter=9),
     ["board", "copolymer", "--side", "5", "--diameter", "9"], "side",
     "side and diameter both give the board size: use one",
     "--side and --diameter both give the board size: use one"),
    (lambda: boardgen.board("copolymer", "pdf", diameter=8),
     ["board", "copolymer", "--diameter", "8"], "diameter",
     "diameter 8: a hexhex board is an odd number", "--diameter 8: a hexhex board is an odd"),
    (lambda: boardgen.board("o", "pdf", preset="small"),
     ["board", "o", "--preset", "small"], "preset",
     "preset names Copolymer's boards, not O's; use side",
     "--preset names Copolymer's boards, not O's; use --side"),
    (lambda: boardgen.board("polygone", "pdf", shape="rhombus"),
     ["board", "polygone", "--shape", "rhombus"], "shape",
     "shape does not apply to Polygone: its board is fixed",
     "--shape does not apply to Polygone: its board is fixed"),
    (lambda: boardgen.board("copolymer", "svg", preset="small", shape="triangle"),
     ["board", "copolymer", "--preset", "small", "--shape", "triangle", "-o", "b.svg"],
     "preset", "preset describes a hexhex board, not a triangle",
     "--preset describes a hexhex board, not a triangle"),
    (lambda: boardgen.play("o", "D4", side=4, first="x"),
     ["play", "o", "--side", "4", "--first", "x", "--moves", "D4"], "first",
     "first applies to Copolymer, not O", "--first applies to Copolymer, not O"),
    (lambda: boardgen.play("copolymer", "C3", side=3, partisan=True),
     ["play", "copolymer", "--side", "3", "--partisan", "--moves", "C3"], "partisan",
     "partisan applies to O, not Copolymer", "--partisan applies to O, not Copolymer"),
    (lambda: boardgen.board("copolymer", "svg", title="a\tb"),
     ["board", "copolymer", "--title", "a\tb", "-o", "b.svg"], "title",
     "title: control character U+0009", "--title: control character U+0009"),
    (lambda: boardgen.board("copolymer", "svg", mask=Path("no-such-mask.txt")),
     ["board", "copolymer", "--mask", "no-such-mask.txt", "-o", "b.svg"], "mask",
     "mask no-such-mask.txt: no such file", "--mask no-such-mask.txt: no such file"),
]


@pytest.mark.parametrize(("call", "args", "field", "api_words", "cli_words"), SAME_REFUSAL)
def test_one_rule_refuses_in_both_and_each_names_the_option_its_own_way(
        call: Callable[[], object], args: list[str], field: str, api_words: str,
        cli_words: str, run_cli: RunCli, in_tmp: Path) -> None:
    with pytest.raises(BoardgenError) as refused:
        call()
    assert str(refused.value).startswith(api_words), str(refused.value)
    assert "--" not in str(refused.value)  # no command-line flag in the API's words
    assert refused.value.field == field
    result = run_cli(*args)
    assert result.code == 2 and result.err.startswith(f"boardgen: error: {cli_words}"), \
        result.err
    assert not list(in_tmp.iterdir())  # no file


def test_an_error_crosses_processes_with_its_field() -> None:
    from boardgen.errors import IllegalMove, Refusal, option
    from boardgen.games.o.engine import OReason

    error = BoardgenError(f"{option('cell_mm')} 1: too small")
    again = pickle.loads(pickle.dumps(error))
    assert (str(again), again.field, again.worded(cli_flag)) == \
        ("cell_mm 1: too small", "cell_mm", "--cell-mm 1: too small")
    move = pickle.loads(pickle.dumps(IllegalMove("D4", Refusal(OReason.TAKEN, "taken"))))
    assert (str(move), move.reason, move.subject, move.code) == \
        ("D4: taken", "taken", "D4", OReason.TAKEN)


def test_cli_flags_follow_the_api_names() -> None:
    assert cli_flag("cell_mm") == "--cell-mm"
    assert cli_flag("moves_file") == "--moves-file"
    assert cli_flag("fmt") == "--format"
    assert cli_flag("output") == "-o"


@pytest.mark.parametrize(("kwargs", "args"), [
    ({"preset": "small", "theme": "ink", "labels": "inside", "title": "Mine"},
     ["copolymer", "--preset", "small", "--theme", "ink", "--labels", "inside", "--title",
      "Mine"]),
    ({"diameter": 9, "orientation": "landscape", "paper": "letter", "cell_mm": 12},
     ["copolymer", "--diameter", "9", "--orientation", "landscape", "--paper", "letter",
      "--cell-mm", "12"]),
    ({"side": 5, "shape": "rhombus", "labels": "none"},
     ["copolymer", "--side", "5", "--shape", "rhombus", "--labels", "none"]),
    ({"side": 5, "theme": "colourblind"}, ["o", "--side", "5", "--theme", "colourblind"]),
    ({"cell_mm": 16, "title": ""}, ["polygone", "--cell-mm", "16", "--title", ""]),
])
def test_the_api_board_is_the_command_line_board(kwargs: dict[str, object], args: list[str],
                                                 run_cli: RunCli, in_tmp: Path) -> None:
    result = run_cli("board", *args, "-o", "b.svg")
    assert result.code == 0, result.err
    mine = boardgen.board(args[0], "svg", **kwargs)  # type: ignore[call-overload]
    assert mine == (in_tmp / "b.svg").read_text(encoding="utf-8")


def test_a_mask_is_text_or_a_file(run_cli: RunCli, in_tmp: Path) -> None:
    shape = ". . .\n . . .\n  . .\n"  # 8 cells: an even board, which Copolymer refuses
    with pytest.raises(BoardgenError, match="an even number") as refused:
        boardgen.board("copolymer", "svg", mask=shape)
    assert refused.value.field == "mask"
    shape = ". . .\n . . .\n  . . .\n"  # 9
    (in_tmp / "m.txt").write_text(shape, encoding="utf-8")
    assert run_cli("board", "copolymer", "--mask", "m.txt", "-o", "b.svg").code == 0
    from_file = boardgen.board("copolymer", "svg", mask=Path("m.txt"))
    assert from_file == (in_tmp / "b.svg").read_text(encoding="utf-8")
    from_text = boardgen.board("copolymer", "svg", mask=shape)
    assert from_text.count('class="cell') == from_file.count('class="cell') > 0
    position = boardgen.play("copolymer", "A1", mask=shape)
    assert position.to_json()["cells"] == {"A1": "x"}


def test_the_api_board_draws_polygone_in_every_format() -> None:
    pdf = boardgen.board("polygone")
    assert pdf[:5] == b"%PDF-" and pdf.count(b"/Type /Page\n") + pdf.count(b"/Type /Page ") \
        + pdf.count(b"/Type /Page>") >= 1
    assert boardgen.board("polygone", "png", dpi=40)[:4] == b"\x89PNG"
    assert "<svg" in boardgen.board("polygone", "svg")


def test_the_game_over_is_not_the_answer_to_an_empty_glyph_table() -> None:
    for table in ({}, {"k0": "legal"}):
        with pytest.raises(BoardgenError, match="^glyphs: no ruling for ") as refused:
            boardgen.play("o", "D4", side=4, glyphs=table)  # type: ignore[arg-type]
        assert refused.value.field == "glyphs"


@pytest.mark.parametrize(("glyphs", "message"), [
    ({"k0": "bogus"}, "glyphs: unknown ruling 'bogus' for k0"),
    ({"k0": None}, "glyphs: unknown ruling None for k0"),
    ({"k9": "legal"}, "glyphs: unknown glyph 'k9'"),
    ({"k6": "legal"}, "glyphs: unknown glyph 'k6'"),
    ({3: "legal"}, "glyphs: unknown glyph 3"),
    ("k0: legal", "glyphs: no ruling for k1"),
    ("k0 legal", "glyphs:1: expected 'glyph: ruling'"),
    (5, "glyphs: expected text or dict, not 5"),
])
def test_a_glyph_table_as_a_dict_or_text_is_checked_as_a_file_is(glyphs: object,
                                                                 message: str) -> None:
    for call in (lambda: boardgen.diagram("o", "glyphs", glyphs=glyphs),  # type: ignore[arg-type]
                 lambda: boardgen.play("o", side=4, glyphs=glyphs),  # type: ignore[arg-type]
                 lambda: boardgen.engine("o", side=4, glyphs=glyphs)):  # type: ignore[arg-type]
        with pytest.raises(BoardgenError, match="^" + message.replace("(", r"\(")):
            call()


def test_a_glyph_table_given_as_a_dict_rules_the_game() -> None:
    from boardgen.games.o.engine import DEFAULT_GLYPH_TABLE

    lonely = {glyph: "illegal" for glyph in DEFAULT_GLYPH_TABLE} | {"k0": "legal"}
    assert boardgen.diagram("o", "glyphs", glyphs=lonely).title == "O: the glyph chart"
    assert boardgen.play("o", "D4 D5", side=4).moves_played == 2  # the spec's chart: k1 legal
    with pytest.raises(BoardgenError, match="move 2 .D5.: its ring is glyph k1"):
        boardgen.play("o", "D4 D5", side=4, glyphs=lonely)


@pytest.mark.parametrize(("call", "message"), [
    (lambda: boardgen.load_diagram("a\x00b"), "path 'a\\x00b': a file name holds no NUL"),
    (lambda: boardgen.load_diagram("x" * 5000), "path 'xxxx"),
    (lambda: boardgen.draw(boardgen.play("copolymer", "C3", side=3), "svg",
                           cell_mm=10**400), "cell_mm a number of 1329 bits"),
    (lambda: boardgen.play("copolymer", "C3", side=3).play(None),  # type: ignore[arg-type]
     "moves: expected text or a list of moves, not NoneType"),
    (lambda: boardgen.play("copolymer", "C3", side=3).play([None]),  # type: ignore[list-item]
     "move 2: expected text such as a cell name, not NoneType"),
    (lambda: boardgen.board("copolymer", "svg", side=10**5000), "side a number of"),
    (lambda: boardgen.board("copolymer", "gif"), "fmt: unknown format 'gif'"),
    (lambda: boardgen.board("copolymer", "svg", labels="all"), "labels: unknown label mode"),
])
def test_the_issue_19_cases_raise_boardgen_error(call: Callable[[], object],
                                                  message: str) -> None:
    with pytest.raises(BoardgenError) as refused:
        call()
    assert str(refused.value).startswith(message), str(refused.value)


def test_a_position_plays_a_line_of_moves_as_text() -> None:
    position = boardgen.play("copolymer", side=3)
    position.play("C3 B2")
    assert position.moves_played == 2


def test_dir_lists_the_api() -> None:
    listed = dir(boardgen)
    for name in boardgen.__all__:
        assert name in listed and getattr(boardgen, name) is not None
    assert {"engine", "Engine", "board", "draw", "play", "BoardgenError"} <= set(listed)
    assert not [name for name in listed if name.startswith("_") and name != "__version__"]
