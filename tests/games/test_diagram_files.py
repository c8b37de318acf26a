"""The designer's toolkit: diagram files from anywhere, annotations, play -o and --every,
and one description per game."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import ROOT, TESTS, Run

from boardgen.games.registry import GAMES

RunCli = Callable[..., Run]
FILES = TESTS / "diagram_files"


def svg_classes(path: Path) -> list[str]:
    root = ET.parse(path).getroot()
    return [el.get("class", "") for el in root.iter()]


def board_cells(path: Path) -> list[str]:
    """The classes of the board cells (legend swatches left out)."""
    root = ET.parse(path).getroot()
    return [el.get("class", "") for el in root.iter()
            if el.get("class", "").startswith("cell ")
            and not el.get("data-cell", "").startswith("legend-")]


@pytest.mark.parametrize("name", ["copolymer-annotated", "o-where", "polygone-lone-piece"])
def test_a_diagram_file_outside_templates_renders(run_cli: RunCli, tmp_path: Path,
                                                  name: str) -> None:
    out = tmp_path / f"{name}.svg"
    result = run_cli("diagram", str(FILES / f"{name}.txt"), "-o", str(out))
    assert result.code == 0, result.err
    classes = svg_classes(out)
    # Every file carries one arrow, drawn in the accent, and at least one designer's mark,
    # in the designer's own class.
    assert classes.count("arrowhead accent") == 1
    assert any(c.startswith("designer-mark mark-") for c in classes)


def test_annotations_reach_the_picture(run_cli: RunCli, tmp_path: Path) -> None:
    out = tmp_path / "c.svg"
    assert run_cli("diagram", str(FILES / "copolymer-annotated.txt"), "-o", str(out)).code == 0
    # highlight: tint C2 C3 in the first panel, new D3 B3 in the second: overlays, so
    # every cell keeps its player's class (X's C2 and C3 in both panels).
    assert board_cells(out).count("cell new") == 0
    assert board_cells(out).count("cell player1") == 4
    root = ET.parse(out).getroot()
    overlays = [(el.get("class"), el.get("data-cell")) for el in root.iter()
                if (el.get("class") or "").startswith("highlight ")]
    assert sorted(o for o in overlays if not (o[1] or "").startswith("legend-")) == [
        ("highlight new", "B3"), ("highlight new", "D3"), ("highlight tint", "C2"),
        ("highlight tint", "C3")]
    classes = svg_classes(out)
    # mark: D3 ring is the designer's dashed ring, not the engine's ring of an open
    # connection (which D3 carries too: O can connect there).
    assert classes.count("designer-mark mark-ring") == 1 + 1  # the panel's, the key's
    assert "mark ring accent" in classes
    # mark: B3 text A is the designer's label; the second panel's two numbered cells are
    # the engine's discs.
    assert classes.count("designer-mark mark-text") == 2 * 2  # ring and letter, panel and key
    assert classes.count("mark disc accent") == 2


def test_an_illegal_move_names_file_and_line(run_cli: RunCli, tmp_path: Path) -> None:
    source = tmp_path / "bad.txt"
    source.write_text("game: o\nboard: hexhex 4\nsetup: D4\npanel: one\nplace: D4\n")
    out = tmp_path / "bad.pdf"
    result = run_cli("diagram", str(source), "-o", str(out))
    assert result.code == 2 and result.err.count("\n") == 1
    assert f"{source}:5: Second cannot place on D4: there is a stone there already" \
        in result.err
    assert not out.exists()


@pytest.mark.parametrize(("text", "line", "message"), [
    ("game: copolymer\nboard: hexhex 3\nsetup: C3 B2 C2\npanel: p\nplace: D3 ends 0\n", 5,
     "the example claims D3 is ends 0, but the engine counts 2 enemy neighbours"),
    ("game: polygone\nwhite: c4-c6\npanel: p\nshow: c4 about c6\nexpect: allowed b5\n", 5,
     "the example expects allowed b5, the engine finds b5 b7 c8 d5 d7"),
    ("game: o\nboard: hexhex 4\nsetup: D4 D5\npanel: p\nexpect: legal E5\n", 5,
     "the example expects 'legal E5', but E5: its ring is glyph k2-adjacent"),
    ("game: o\nboard: hexhex 4\npanel: p\nwobble: A1\n", 4, "unknown directive 'wobble'"),
    ("game: o\nboard: hexhex 4\npanel: p\nmark: Z9 ring\n", 4, "'Z9' is not on the board"),
    ("game: copolymer\nboard: hexhex 3\npanel: p\nhighlight: gold A1\n", 4,
     "unknown highlight role 'gold'"),
    ("game: chess\nboard: hexhex 3\npanel: p\n", 0, "unknown game 'chess'"),
    ("board: hexhex 3\npanel: p\n", 0, "does not say which game it is for"),
])
def test_a_false_claim_or_bad_line_names_file_and_line(run_cli: RunCli, tmp_path: Path,
                                                        text: str, line: int,
                                                        message: str) -> None:
    source = tmp_path / "claim.txt"
    source.write_text(text)
    out = tmp_path / "claim.svg"
    result = run_cli("diagram", str(source), "-o", str(out))
    assert result.code == 2 and result.err.count("\n") == 1, result.err
    assert message in result.err
    if line:
        assert f"{source}:{line}:" in result.err
    assert not out.exists()


def test_a_name_is_never_a_path_and_a_path_never_a_name(run_cli: RunCli, tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    # A file named like a built-in diagram is not found by name, nor a name by path.
    (tmp_path / "tempo").write_text("game: copolymer\nboard: hexhex 3\npanel: p\n")
    by_name = run_cli("diagram", "copolymer", "tempo", "-o", "t.svg")
    assert by_name.code == 0
    assert len(board_cells(tmp_path / "t.svg")) == 19 * 6  # the built-in: six panels
    as_path = run_cli("diagram", "copolymer", str(FILES / "copolymer-annotated.txt"))
    assert as_path.code == 2 and "no copolymer diagram named" in as_path.err
    missing = run_cli("diagram", "help-page", "-o", "h.svg")
    assert missing.code == 2 and "help-page: no such file" in missing.err
    extra = run_cli("diagram", str(FILES / "o-where.txt"), "corners")
    assert extra.code == 2 and "takes no NAME" in extra.err


def test_templates_may_omit_the_game_line(run_cli: RunCli, tmp_path: Path) -> None:
    root = ROOT / "templates"
    result = run_cli("diagram", str(root / "polygone" / "06-triangle.txt"), "-o",
                     str(tmp_path / "t.svg"))
    assert result.code == 0, result.err


# --- play -o, --every, --moves-file -----------------------------------------------------


def test_play_draws_the_position(run_cli: RunCli, tmp_path: Path) -> None:
    out = tmp_path / "p.svg"
    result = run_cli("play", "copolymer", "--side", "3", "--moves", "C3 B2 C2 D3 B3",
                     "-o", str(out))
    assert result.code == 0 and result.out.strip() == f"wrote {out}"
    cells = board_cells(out)
    assert len(cells) == 19
    assert cells.count("cell player1") == 2 and cells.count("cell player2") == 3
    # The last turn (O's D3 and B3) is numbered 1 and 2.
    assert svg_classes(out).count("mark disc accent") == 2


def test_play_json_with_a_drawing_keeps_stdout_json(run_cli: RunCli, tmp_path: Path) -> None:
    import json

    out = tmp_path / "p.png"
    result = run_cli("play", "o", "--side", "4", "--moves", "D4 A1", "--json", "-o", str(out))
    assert result.code == 0 and json.loads(result.out)["stones"] == ["A1", "D4"]
    assert out.read_bytes().startswith(b"\x89PNG")


@pytest.mark.parametrize(("moves", "every", "panels"), [
    ("C3 B2 C2 D3 B3", 2, 3), ("C3 B2 C2 D3 B3", 5, 1), ("C3 B2 C2 D3 B3", 1, 5),
    ("C3 B2 C2 D3", 2, 2),
])
def test_every_n_moves_makes_a_strip(run_cli: RunCli, tmp_path: Path, moves: str,
                                     every: int, panels: int) -> None:
    out = tmp_path / "strip.svg"
    result = run_cli("play", "copolymer", "--side", "3", "--moves", moves, "--every",
                     str(every), "-o", str(out))
    assert result.code == 0, result.err
    assert len(board_cells(out)) == 19 * panels


def test_every_in_polygone_and_o(run_cli: RunCli, tmp_path: Path) -> None:
    out = tmp_path / "strip.svg"
    result = run_cli("play", "polygone", "--moves", "c0-c2>d1 c10-c8>b9 d1-c2>b1",
                     "--every", "1", "-o", str(out))
    assert result.code == 0, result.err
    # 24 holes a panel, three panels.
    assert svg_classes(out).count("mark dot hole") == 3 * 24
    o_out = tmp_path / "o.svg"
    assert run_cli("play", "o", "--side", "4", "--moves", "D4 A1 G4", "--every", "2",
                   "-o", str(o_out)).code == 0
    assert len(board_cells(o_out)) == 37 * 2


def test_moves_file_reads_a_game_record(run_cli: RunCli, tmp_path: Path) -> None:
    record = tmp_path / "game.txt"
    record.write_text("# Copolymer, side 3\n1. X: C3   ; the centre\n2. O: B2 {a reply}\n"
                      "3) C2\n4. D3 B3\n")
    by_file = run_cli("play", "copolymer", "--side", "3", "--moves-file", str(record), "--json")
    by_line = run_cli("play", "copolymer", "--side", "3", "--moves", "C3 B2 C2 D3 B3",
                      "--json")
    assert by_file.code == 0 and by_file.out == by_line.out
    both = run_cli("play", "copolymer", "--moves", "C3", "--moves-file", str(record))
    assert both.code == 2 and "use one" in both.err


def test_play_errors_count_moves_across_panels(run_cli: RunCli, tmp_path: Path) -> None:
    result = run_cli("play", "copolymer", "--side", "3", "--moves", "C3 B2 C2 C3",
                     "--every", "2", "-o", str(tmp_path / "x.svg"))
    assert result.code == 2 and "move 4 (C3): already taken by X" in result.err
    assert not (tmp_path / "x.svg").exists()


# --- one description per game --------------------------------------------------------------


def test_every_game_is_described_once() -> None:
    assert list(GAMES) == ["copolymer", "o", "polygone", "free"]
    for key, game in GAMES.items():
        assert game.key == key and game.name and game.designer
        assert game.year > 2000 or key == "free"  # a board with no rules has no designer
        assert game.diagram_names(), key
        assert game.new_position is not None
    assert GAMES["o"].diagram_names() == ["corners", "glyphs", "loop", "partisan-glyphs",
                                          "short-game"]


def test_cli_gallery_and_sheets_do_not_switch_on_game_names() -> None:
    """Adding a game is its rules module, its templates and one description: the command
    line, the gallery and the sheets name no game."""
    package = ROOT / "boardgen"
    for relative in ("cli.py", "publish/gallery.py", "publish/sheet.py", "render/diagram.py"):
        text = (package / relative).read_text()
        found = re.findall(r"""==\s*["'](copolymer|o|polygone)["']""", text)
        assert not found, f"{relative} switches on {found}"


INKSCAPE = "{http://www.inkscape.org/namespaces/inkscape}"


def test_svg_groups_are_inkscape_layers(run_cli: RunCli, tmp_path: Path) -> None:
    out = tmp_path / "c.svg"
    assert run_cli("diagram", str(FILES / "copolymer-annotated.txt"), "-o", str(out)).code == 0
    root = ET.parse(out).getroot()
    layers = {el.get(f"{INKSCAPE}label"): el for el in root.iter()
              if el.get(f"{INKSCAPE}groupmode") == "layer"}
    # (A diagram's heading is part of its captions; a board's title has a layer of its own.)
    # Arrows above the numbers and rings they touch (issue 22, item 11).
    assert list(layers) == ["Board", "Marks", "Labels", "Annotations", "Coordinates",
                            "Captions"]
    # Each layer holds what its name says.
    # Cells, and highlights over them (with edges); a designer's halos, under the
    # engine's marks (the print review: never over an engine's ring or piece).
    assert all(el.get("class", "").startswith(("cell ", "highlight ", "stroke line",
                                               "designer-mark mark-halo"))
               or el.get("class", "").startswith("stroke ") and
               el.get("class", "").endswith("-edge")
               for el in layers["Board"])
    # Each arrow on a paper-coloured halo.
    assert {el.get("class") for el in layers["Annotations"]} == {
        "stroke accent", "arrowhead accent", "stroke paper", "arrowhead paper"}
    assert any(el.get("class", "").startswith("mark ") for el in layers["Marks"])
    assert len(layers["Coordinates"]) and len(layers["Captions"]) and len(layers["Labels"])


def test_work_is_bounded_by_a_panel_limit(run_cli: RunCli, tmp_path: Path) -> None:
    from boardgen.games.script import MAX_PANELS

    source = tmp_path / "many.txt"
    source.write_text("game: o\nboard: hexhex 4\n" + "panel: p\n" * (MAX_PANELS + 1))
    result = run_cli("diagram", str(source), "-o", str(tmp_path / "m.svg"))
    assert result.code == 2
    assert f"many.txt:{MAX_PANELS + 3}: more than {MAX_PANELS} panels" in result.err
    too_many = run_cli("play", "copolymer", "--moves", " ".join(["F6"] * (MAX_PANELS + 1)),
                       "--every", "1", "-o", str(tmp_path / "t.svg"))
    assert too_many.code == 2 and f"more than the limit of {MAX_PANELS}" in too_many.err
    assert not (tmp_path / "t.svg").exists()


def test_undo_with_nothing_to_take_back(run_cli: RunCli, tmp_path: Path) -> None:
    source = tmp_path / "u.txt"
    source.write_text("game: o\nboard: hexhex 4\npanel: p\nundo: 1\n")
    result = run_cli("diagram", str(source), "-o", str(tmp_path / "u.svg"))
    assert result.code == 2 and "u.txt:4: undo: there is no stone to take back" in result.err


@pytest.mark.parametrize(("text", "line", "message"), [
    # The exhaustive search is refused past a bound rather than run for minutes.
    ("game: copolymer\nboard: hexhex 4\npanel: a\nexpect: solved winner x\n", 4,
     "at most 12 empty cells, this position has 37"),
    ("game: copolymer\nboard: hexhex 3\npanel: a\nexpect: winner z\n", 4,
     "winner must be x or o"),
    # One piece a line, whatever its colour.
    ("game: polygone\nwhite: c4-c6\nblack: c6-c4\npanel: p\n", 3,
     "c4-c6 is already a white piece"),
    ("game: polygone\nwhite: c4-c6 c4-c6\npanel: p\n", 2, "c4-c6 is already a white piece"),
    ("game: polygone\ncaptured: white 7 black 0\npanel: p\n", 2, "more than 12 white pieces"),
    # A bad hole or line inside a claim is a problem of that line.
    ("game: polygone\nwhite: c4-c6\npanel: p\nshow: c4 about c6\nexpect: outside q99\n",
     5, "'q99' is not a hole"),
    ("game: polygone\nwhite: c4-c6\npanel: p\nexpect: moves c6-c9 2\n", 4, "'c9' is not a hole"),
    ("game: polygone\nwhite: c4-c6\npanel: p\nnumber: c4-c6 ABCD\n", 4, "up to 3 characters"),
    ("game: chess\nboard: hexhex 3\npanel: p\n", 1, "unknown game 'chess'"),
])
def test_more_bad_files_name_their_line(run_cli: RunCli, tmp_path: Path, text: str, line: int,
                                        message: str) -> None:
    source = tmp_path / "bad.txt"
    source.write_text(text)
    result = run_cli("diagram", str(source), "-o", str(tmp_path / "bad.svg"))
    assert result.code == 2 and result.err.count("\n") == 1, result.err
    assert f"{source}:{line}:" in result.err and message in result.err, result.err


def test_a_pipe_is_not_a_diagram_file(run_cli: RunCli, tmp_path: Path) -> None:
    import os

    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    result = run_cli("diagram", str(fifo), "-o", str(tmp_path / "p.svg"))
    # Refused at once, not waited on (a pipe someone writes to is read: /dev/stdin, <(...)).
    assert result.code == 2 and "a pipe with nothing to read" in result.err


def test_moves_file_errors_name_the_file(run_cli: RunCli, tmp_path: Path) -> None:
    record = tmp_path / "game.txt"
    record.write_text("1. X: C3\n2. O: C3\n")
    taken = run_cli("play", "copolymer", "--side", "3", "--moves-file", str(record))
    assert taken.code == 2
    assert f"{record}:2: move 2 (C3): already taken by X" in taken.err
    record.write_text("1. X: C3 {unclosed\n")
    brace = run_cli("play", "copolymer", "--side", "3", "--moves-file", str(record))
    assert brace.code == 2 and "'{' that is not part of a {comment}" in brace.err


@pytest.mark.parametrize(("call", "message"), [
    (lambda b, p: b.play("copolymer", 5, side=3), "moves: expected"),
    (lambda b, p: b.play("copolymer", "C3", side="3"), "side: expected a number"),
    (lambda b, p: b.play("copolymer", "C3", side=True), "side: expected a number"),
    (lambda b, p: b.play("o", "D4", side=3), "edge 4 or more"),
    (lambda b, p: b.play("o", "D4", side=4, partisan="yes"), "partisan: expected bool"),
    (lambda b, p: b.draw(None, "svg"), "expected Position or Diagram"),
    (lambda b, p: b.draw(p, "pdf", paper=4), "paper: expected text"),
    (lambda b, p: b.draw(p, "png", dpi=0), "dpi 0"),
    (lambda b, p: b.draw(p, "svg", cell_mm=float("nan")), "a cell must be between"),
    (lambda b, p: b.draw(p, "svg", cell_mm=-1), "a cell must be between"),
    (lambda b, p: b.diagram("o", 3), "name: expected text"),
    (lambda b, p: b.load_diagram(None), "path: expected"),
    (lambda b, p: b.board("o", "svg", side=3), "edge 4 or more"),
    (lambda b, p: b.board("o", "svg", side="5"), "side: expected a number"),
])
def test_the_api_refuses_bad_arguments_with_boardgen_error(call: Callable[..., object],
                                                           message: str) -> None:
    import boardgen

    position = boardgen.play("copolymer", "C3", side=3)
    with pytest.raises(boardgen.BoardgenError, match=re.escape(message)):
        call(boardgen, position)


def test_glyphs_are_refused_for_the_games_without_a_glyph_chart() -> None:
    from boardgen.errors import BoardgenError, cli_flag
    from boardgen.games.registry import build_diagram, load_diagram_file

    table = {"k0": "legal"}
    # The layer below the command line names the option, not the flag.
    with pytest.raises(BoardgenError, match="^glyphs applies to O diagrams only, not Polygone"
                       ) as refused:
        build_diagram("polygone", "06-triangle", options={"glyphs": table})
    assert refused.value.field == "glyphs"
    assert refused.value.worded(cli_flag).startswith("--glyphs applies to O diagrams only")
    with pytest.raises(BoardgenError, match="only, not Copolymer"):
        load_diagram_file(FILES / "copolymer-annotated.txt", options={"glyphs": table})
