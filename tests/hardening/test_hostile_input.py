"""Issue 14, case by case: input a hostile user gives is refused with one line and exit
code 2 (or works), never an internal error, an endless read, endless work or a bad file."""

from __future__ import annotations

import os
import re
import shlex
import stat
import subprocess
import sys
import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from conftest import ROOT, Run, one_line_error

RunCli = Callable[..., Run]
REPLAYING = ROOT / "docs" / "howto" / "replaying-a-game.md"


# --- 1. reads are bounded, whatever the input file is ---------------------------------


@pytest.mark.parametrize("args", [
    ["board", "copolymer", "--mask", "/dev/zero", "-o", "m.pdf"],
    ["play", "copolymer", "--side", "3", "--start", "/dev/zero"],
    ["play", "o", "--side", "5", "--glyphs", "/dev/zero"],
    ["diagram", "o", "glyphs", "--glyphs", "/dev/zero", "-o", "g.svg"],
])
def test_a_device_is_read_up_to_the_cap(run_cli: RunCli, in_tmp: Path, args: list[str]) -> None:
    one_line_error(run_cli(*args), "/dev/zero", "larger than 2,000,000 bytes")
    assert list(in_tmp.iterdir()) == []


def test_an_endless_pipe_is_read_up_to_the_cap(tmp_path: Path) -> None:
    script = Path(sys.executable).parent / "boardgen"
    with subprocess.Popen(["yes", "."], stdout=subprocess.PIPE) as endless:
        result = subprocess.run([str(script), "board", "copolymer", "--mask", "/dev/stdin",
                                 "-o", str(tmp_path / "m.pdf")], stdin=endless.stdout,
                                capture_output=True, text=True, check=False, timeout=120)
        endless.kill()
    assert result.returncode == 2, result.stderr
    assert "larger than 2,000,000 bytes" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert list(tmp_path.iterdir()) == []


def test_input_files_cap_counts_bytes_read_not_size_on_disk(tmp_path: Path) -> None:
    from boardgen.errors import BoardgenError
    from boardgen.text import MAX_INPUT_BYTES, read_input_text

    exact = tmp_path / "exact.txt"
    exact.write_bytes(b"." * MAX_INPUT_BYTES)
    assert len(read_input_text(exact, "--mask")) == MAX_INPUT_BYTES
    exact.write_bytes(b"." * (MAX_INPUT_BYTES + 1))
    with pytest.raises(BoardgenError, match="larger than"):
        read_input_text(exact, "--mask")


# --- 2. a page limit, checked before the work ----------------------------------------------


def test_a_board_of_too_many_pages_is_refused_before_the_grid_is_built(
        run_cli: RunCli, in_tmp: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def must_not_run(*_: object, **__: object) -> None:
        raise AssertionError("the refused board was built anyway")

    monkeypatch.setattr("boardgen.requests.make_shape", must_not_run)  # where the grid is built
    monkeypatch.setattr("boardgen.render.board.render_pdf", must_not_run)
    line = one_line_error(run_cli("board", "copolymer", "--side", "10", "--cell-mm", "200",
                                  "--paper", "80x80mm", "-o", "big.pdf"),
                          "pages of 80x80mm paper", "limit of 500")
    pages = int(re.search(r"need at least ([0-9,]+) pages", line).group(1).replace(",", ""))
    assert pages > 500
    one_line_error(run_cli("board", "copolymer", "--side", "223", "--cell-mm", "30",
                           "-o", "big.pdf"), "limit of 500")
    assert list(in_tmp.iterdir()) == []


def test_the_page_limit_counts_the_pages_tiling_makes() -> None:
    from boardgen.errors import BoardgenError
    from boardgen.render.board import MAX_PAGES, check_page_count
    from boardgen.render.paper import GLUE_MM, parse_paper, tile_room

    a4 = parse_paper("a4")
    room_w, room_h = tile_room(a4.size("portrait"))
    # Twenty columns by twenty-five rows of portrait tiles, each keeping its room less a
    # glue tab: exactly 500 pages.
    width, height = 20 * (room_w - GLUE_MM), 25 * (room_h - GLUE_MM)
    check_page_count((width, height), a4, "portrait", 30.0)
    assert MAX_PAGES == 500
    with pytest.raises(BoardgenError, match="520 pages"):  # a little more: 20 x 26
        check_page_count((width, height + 1.0), a4, "portrait", 30.0)


def test_a_tiled_board_under_the_limit_is_still_made(run_cli: RunCli, tmp_path: Path) -> None:
    out = tmp_path / "b.pdf"
    result = run_cli("board", "copolymer", "--side", "10", "--cell-mm", "30", "-o", str(out))
    assert result.code == 0, result.err
    assert out.read_bytes().startswith(b"%PDF")


# --- 3. no internal error for accepted input --------------------------------------------


@pytest.mark.parametrize(("args", "fragments"), [
    (["rules", "o", "--paper", "105x148mm", "-o", "r.pdf"], ["too small", "148 x 210"]),
    (["rules", "copolymer", "--paper", "80x80mm", "-o", "r.pdf"], ["too small"]),
    (["diagram", "copolymer", "tempo", "--cell-mm", "200", "-o", "d.pdf"],
     ["the largest that fits is --cell-mm"]),
    # (The panels at their true width: a PNG over the pixel count, refused before drawing.)
    (["diagram", "copolymer", "tempo", "--cell-mm", "200", "-o", "d.png"],
     ["million pixels (limit 80 million)"]),
    (["diagram", "polygone", "10-two-polygons", "--paper", "80x80mm", "-o", "d.pdf"],
     ["80x80mm is too small"]),
    (["play", "copolymer", "--moves", "A" + "1" * 5000], ["move 1", "not a cell name"]),
    (["play", "copolymer", "--moves", "1" * 5000 + ",1"], ["move 1", "not a cell name"]),
    (["play", "polygone", "--moves", "c0-c2>d1/" + "1" * 5000], ["move 1", "not a move"]),
    (["board", "copolymer", "--title", "bad \udcff byte", "-o", "t.svg"],
     ["--title", "not valid UTF-8"]),
    (["board", "copolymer", "--title", "x" * 2000, "-o", "t.png"],
     ["--title", "2,000 characters", "limit of 100"]),
    (["board", "copolymer", "--title", "x" * 100_000, "-o", "t.svg"], ["--title"]),
    # A side-183 PNG, once refused past CairoSVG's 100,000 elements, is now drawn from the
    # figure: tests/packaging/test_speedups.py.
])
def test_former_internal_errors_are_one_line(run_cli: RunCli, in_tmp: Path, args: list[str],
                                             fragments: list[str]) -> None:
    one_line_error(run_cli(*args), *fragments)
    assert list(in_tmp.iterdir()) == []


def test_the_largest_cell_named_for_a_diagram_does_fit(run_cli: RunCli, in_tmp: Path) -> None:
    line = one_line_error(run_cli("diagram", "copolymer", "tempo", "--cell-mm", "200",
                                  "-o", "d.pdf"))
    largest = float(line.rsplit("--cell-mm ", 1)[1])
    assert run_cli("diagram", "copolymer", "tempo", "--cell-mm", f"{largest:g}",
                   "-o", "d.pdf").code == 0
    one_line_error(run_cli("diagram", "copolymer", "tempo", "--cell-mm",
                           f"{largest + 0.1:.1f}", "-o", "e.pdf"), "the largest that fits")


def test_a_default_diagram_too_large_for_the_paper_is_drawn_smaller(
        run_cli: RunCli, tmp_path: Path) -> None:
    import io

    from pypdf import PdfReader

    out = tmp_path / "d.pdf"
    # (A paper whose height holds the move's caption, which says what the move took, and
    # the key, which says what circles and dashed outlines mean.)
    result = run_cli("diagram", "polygone", "10-two-polygons", "--paper", "100x132mm",
                     "-o", str(out))
    assert result.code == 0, result.err
    reader = PdfReader(io.BytesIO(out.read_bytes()))
    sizes = {float(m) for page in reader.pages
             for m in re.findall(r"holes are ([0-9.]+) mm apart", page.extract_text())}
    assert sizes and max(sizes) < 14.0  # the Polygone panels' default is 14 mm


@pytest.mark.parametrize(("paper", "accepted"), [
    ("148x210mm", True), ("210x148mm", True), ("147x210mm", False), ("148x209mm", False),
    ("a4", True), ("2000x148mm", True),
])
def test_rule_sheet_minimum_paper(paper: str, accepted: bool) -> None:
    from boardgen.errors import BoardgenError
    from boardgen.publish.sheet import check_sheet_paper
    from boardgen.render.paper import parse_paper

    if accepted:
        check_sheet_paper(parse_paper(paper))
    else:
        with pytest.raises(BoardgenError, match="A5"):
            check_sheet_paper(parse_paper(paper))


def test_rule_sheets_lay_out_on_the_minimum_paper(run_cli: RunCli, tmp_path: Path) -> None:
    for game in ("copolymer", "o", "polygone"):
        out = tmp_path / f"{game}.pdf"
        result = run_cli("rules", game, "--paper", "148x210mm", "-o", str(out))
        assert result.code == 0, result.err
        assert out.read_bytes().startswith(b"%PDF")


def test_png_limits_are_checked_before_drawing(monkeypatch: pytest.MonkeyPatch) -> None:
    from boardgen.errors import BoardgenError
    from boardgen.render import png

    def must_not_run(*_: object, **__: object) -> bytes:
        raise AssertionError("drew a PNG that is over the limit")

    monkeypatch.setattr(png.cairosvg, "svg2png", must_not_run)
    with pytest.raises(BoardgenError, match="32,767 pixels each way"):
        png.render_png("<svg/>", width_mm=10.0, height_mm=2000.0, dpi=600)
    many = "<svg>" + "<use />" * 100_001 + "</svg>"
    with pytest.raises(BoardgenError, match="100,000"):
        png.render_png(many, width_mm=10.0, height_mm=10.0, dpi=36)


# --- 4. control characters never reach a file -------------------------------------------


@pytest.mark.parametrize("title", ["bell\x07", "tab\there", "two\nlines", "del\x7f", "c1\x85"])
@pytest.mark.parametrize("fmt", ["svg", "png", "pdf"])
def test_control_characters_in_a_title_are_refused(run_cli: RunCli, in_tmp: Path, title: str,
                                                   fmt: str) -> None:
    one_line_error(run_cli("board", "copolymer", "--side", "3", "--title", title,
                           "-o", f"t.{fmt}"), "--title", "control character")
    assert list(in_tmp.iterdir()) == []


def test_a_template_line_with_a_control_character_is_refused() -> None:
    from boardgen.errors import BoardgenError
    from boardgen.games.script import parse_directives

    with pytest.raises(BoardgenError, match=r"x\.txt:2: control character U\+0007"):
        parse_directives("# example\ntitle: a bell\x07 here\n", "x.txt")


def test_a_sheet_line_with_a_control_character_is_refused(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from boardgen.errors import BoardgenError
    from boardgen.publish import sheet

    bad = tmp_path / "o.md"
    bad.write_text(sheet.sheet_path("o").read_text(encoding="utf-8") + "\nbell\x07\n",
                   encoding="utf-8")
    monkeypatch.setattr(sheet, "sheet_path", lambda game, quick=False: bad)
    with pytest.raises(BoardgenError, match=r"o\.md:\d+: control character U\+0007"):
        sheet.load_sheet("o")


def test_the_svg_writer_never_writes_a_control_character() -> None:
    from boardgen.geometry import hexhex
    from boardgen.render.figure import Text, board_figure
    from boardgen.render.scene import THEMES, Scene
    from boardgen.render.svg import render_svg

    figure = board_figure(Scene(hexhex(2)), 10.0)
    figure.texts.append(Text(5.0, 5.0, "caption\x07\x1b[31m", 3.0, "caption"))
    svg = render_svg(figure, theme=THEMES["colour"], title="ti\x00tle\x08",
                     description="de\x0csc")
    root = ET.fromstring(svg.encode("utf-8"))  # raises on ill-formed XML
    assert root.find("{http://www.w3.org/2000/svg}title").text == "title"  # type: ignore[union-attr]
    assert not re.search("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]", svg)


# --- 5. all never aborts wholesale -------------------------------------------------------


def test_all_survives_an_unexpected_error_and_lists_it(
        run_cli: RunCli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from boardgen.publish import gallery as gallery_module

    real = gallery_module.default_jobs

    def jobs_with_a_bug(paper, theme):  # type: ignore[no-untyped-def]
        jobs = [job for job in real(paper, theme) if job.name.endswith(".svg")][:2]

        def broken() -> bytes:
            return {}["no such key"]  # type: ignore[no-any-return]

        return [jobs[0], gallery_module.Job("broken.svg", "o", "diagram", broken), jobs[1]]

    monkeypatch.setattr("boardgen.cli.default_jobs", jobs_with_a_bug)
    result = run_cli("all", "-o", str(tmp_path))
    assert result.code == 1
    assert "broken.svg: unexpected KeyError" in result.err
    assert "internal error" not in result.err and "Traceback" not in result.err
    built = sorted(p.name for p in tmp_path.glob("*.svg"))
    assert len(built) == 2 and "broken.svg" not in built
    index = (tmp_path / "index.html").read_text(encoding="utf-8")
    assert "Not built" in index and "broken.svg: unexpected KeyError" in index
    for name in built:
        assert f'href="{name}"' in index


def test_all_checks_the_sheet_paper_before_building(run_cli: RunCli, tmp_path: Path) -> None:
    out = tmp_path / "out"
    one_line_error(run_cli("all", "-o", str(out), "--paper", "105x148mm"), "A5")
    assert not out.exists()


def test_all_refuses_a_thumbs_file(run_cli: RunCli, tmp_path: Path) -> None:
    (tmp_path / "thumbs").write_text("not a folder")
    one_line_error(run_cli("all", "-o", str(tmp_path)), "thumbs exists and is not a folder")


# --- 6. devices, links, permissions -------------------------------------------------------


@pytest.mark.parametrize("device", ["/dev/null", "/dev/full"])
def test_a_device_is_never_replaced(run_cli: RunCli, device: str) -> None:
    if not os.path.exists(device):
        pytest.skip(f"{device} is missing here")
    before = os.stat(device)
    one_line_error(run_cli("board", "copolymer", "--side", "3", "--format", "pdf", "-o",
                           device), "not a regular file")
    after = os.stat(device)
    assert stat.S_ISCHR(after.st_mode) and after.st_rdev == before.st_rdev


def test_a_pipe_is_refused(run_cli: RunCli, tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.svg"
    os.mkfifo(fifo)
    one_line_error(run_cli("board", "copolymer", "--side", "3", "-o", str(fifo)),
                   "not a regular file")
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)


def test_a_link_is_written_through(run_cli: RunCli, tmp_path: Path) -> None:
    (tmp_path / "real").mkdir()
    target = tmp_path / "real" / "board.svg"
    target.write_text("old")
    link = tmp_path / "link.svg"
    link.symlink_to(target)
    assert run_cli("board", "copolymer", "--side", "3", "-o", str(link)).code == 0
    assert link.is_symlink() and os.readlink(link) == str(target)
    ET.parse(target)  # the target now holds the board
    assert [p.name for p in (tmp_path / "real").iterdir()] == ["board.svg"]  # no temp left

    dangling = tmp_path / "dangling.svg"
    dangling.symlink_to(tmp_path / "real" / "new.svg")
    assert run_cli("board", "copolymer", "--side", "3", "-o", str(dangling)).code == 0
    assert dangling.is_symlink() and (tmp_path / "real" / "new.svg").is_file()


@pytest.fixture
def umask() -> Iterator[Callable[[int], None]]:
    original = os.umask(0o022)
    os.umask(original)
    yield lambda mask: os.umask(mask) and None
    os.umask(original)


def test_a_replaced_file_keeps_its_mode(run_cli: RunCli, tmp_path: Path,
                                        umask: Callable[[int], None]) -> None:
    umask(0o022)
    out = tmp_path / "private.svg"
    out.write_text("old")
    out.chmod(0o600)
    assert run_cli("board", "copolymer", "--side", "3", "-o", str(out)).code == 0
    assert stat.S_IMODE(out.stat().st_mode) == 0o600
    out.chmod(0o640)
    assert run_cli("board", "copolymer", "--side", "3", "-o", str(out)).code == 0
    assert stat.S_IMODE(out.stat().st_mode) == 0o640


@pytest.mark.parametrize(("mask", "mode"), [(0o022, 0o644), (0o077, 0o600), (0o002, 0o664)])
def test_a_new_file_follows_the_umask(run_cli: RunCli, tmp_path: Path,
                                      umask: Callable[[int], None], mask: int,
                                      mode: int) -> None:
    umask(mask)
    out = tmp_path / "new.svg"
    assert run_cli("board", "copolymer", "--side", "3", "-o", str(out)).code == 0
    assert stat.S_IMODE(out.stat().st_mode) == mode


# --- 7. smaller slips ---------------------------------------------------------------------


def test_a_long_output_name_is_bad_input(run_cli: RunCli, in_tmp: Path) -> None:
    one_line_error(run_cli("board", "copolymer", "-o", "x" * 300 + ".pdf"), "too long")
    one_line_error(run_cli("board", "copolymer", "-o", "x" * 250 + ".pdf"), "too long")
    assert list(in_tmp.iterdir()) == []


def test_an_output_folder_is_named_as_a_folder(run_cli: RunCli, in_tmp: Path) -> None:
    (in_tmp / "existingdir").mkdir()
    one_line_error(run_cli("board", "copolymer", "-o", "existingdir"), "is a folder")


def test_the_diameter_error_names_the_diameter(run_cli: RunCli, in_tmp: Path) -> None:
    line = one_line_error(run_cli("board", "copolymer", "--diameter", "1000000001"),
                          "--diameter 1000000001", "more than the limit")
    assert "--side" not in line


def test_mask_and_shape_conflict(run_cli: RunCli, in_tmp: Path) -> None:
    (in_tmp / "m.txt").write_text(". . .\n . . .\n. . .\n")
    one_line_error(run_cli("board", "copolymer", "--mask", "m.txt", "--shape", "rhombus",
                           "-o", "b.svg"), "--shape rhombus and --mask")


@pytest.mark.parametrize(("text", "fragments"), [
    (".\t. .\n", ["line 1, column 2", "a tab"]),
    (".\n", ["1 cell is too small", "at least 3"]),
    (". .\n", ["2 cells is too small"]),
])
def test_masks_refused(run_cli: RunCli, in_tmp: Path, text: str, fragments: list[str]) -> None:
    (in_tmp / "m.txt").write_text(text)
    one_line_error(run_cli("board", "copolymer", "--mask", "m.txt", "-o", "b.svg"), *fragments)


def test_a_byte_order_mark_is_accepted(run_cli: RunCli, tmp_path: Path) -> None:
    plain = ". . .\n . . . .\n. . . . .\n . . . .\n. . .\n".replace("\n. . .\n", "\n  . . .\n")
    for name, data in (("plain", plain.encode()), ("bom", b"\xef\xbb\xbf" + plain.encode())):
        (tmp_path / f"{name}.txt").write_bytes(data)
        result = run_cli("board", "copolymer", "--mask", str(tmp_path / f"{name}.txt"),
                         "--title", "", "-o", str(tmp_path / f"{name}.svg"))
        assert result.code == 0, result.err
    plain_svg = (tmp_path / "plain.svg").read_bytes()
    assert plain_svg.replace(b"plain.txt", b"bom.txt") == (tmp_path / "bom.svg").read_bytes()
    start = tmp_path / "start.txt"
    start.write_bytes(b"\xef\xbb\xbf  x . .\n . . o .\n. . x . .\n . o . .\n  . . .\n")
    result = run_cli("play", "copolymer", "--side", "3", "--start", str(start), "--json")
    assert result.code == 0, result.err


def test_characters_outside_the_font_are_warned_about(run_cli: RunCli, tmp_path: Path) -> None:
    result = run_cli("board", "copolymer", "--side", "3", "--title", "Go 囲碁",
                     "-o", str(tmp_path / "b.svg"))
    assert result.code == 0
    assert "warning" in result.err and "囲碁" in result.err
    quiet = run_cli("board", "copolymer", "--side", "3", "--title", "Café · 50 %",
                    "-o", str(tmp_path / "c.svg"))
    assert quiet.code == 0 and quiet.err == ""


def test_dash_writes_to_standard_output(run_cli: RunCli, in_tmp: Path) -> None:
    result = run_cli("board", "copolymer", "--side", "3", "--format", "svg", "-o", "-")
    assert result.code == 0, result.err
    assert ET.fromstring(result.out.encode("utf-8")).tag.endswith("svg")
    assert list(in_tmp.iterdir()) == []
    one_line_error(run_cli("board", "copolymer", "--side", "3", "-o", "-"), "--format")


def test_list_takes_no_name(run_cli: RunCli) -> None:
    result = run_cli("diagram", "copolymer", "--list", "extra")
    assert result.code == 2 and "--list takes no diagram NAME" in result.err
    assert run_cli("diagram", "copolymer", "--list").code == 0


# --- 8. help and docs ---------------------------------------------------------------------


def test_help_texts(run_cli: RunCli) -> None:
    main_help = run_cli("--help").out
    assert "``" not in main_help and "'boardgen COMMAND --help'" in main_help
    board_help = " ".join(run_cli("board", "--help").out.split())
    assert "Copolymer 10 (271 cells), O 6 (91 cells)" in board_help
    play_help = " ".join(run_cli("play", "--help").out.split())
    for words in ("Polygone: to_move, pieces, captured, legal, over, winner",
                  "O: side, to_move, stones, legal, over, winner, loop", "b1-c2>d3"):
        assert words in play_help
    # --cell-mm says what it is on a fixed board (neutrally: the games are listed apart).
    diagram_help = " ".join(run_cli("diagram", "--help").out.split())
    assert "fixed board of holes how far apart neighbouring holes are" in diagram_help
    assert "polygone" in diagram_help


def test_polygone_long_form_reads_like_the_short_form(run_cli: RunCli) -> None:
    short = run_cli("play", "polygone", "--moves", "c0-c2>d1 c10-c8>b9", "--json")
    assert short.code == 0, short.err
    for written in ("c0 c2 -> d1 c10 c8 -> b9", "c0 c2->d1  c10-c8 > b9", " c0-c2 >d1 c10 c8->b9"):
        long = run_cli("play", "polygone", "--moves", written, "--json")
        assert long.code == 0, (written, long.err)
        assert long.out == short.out


def _docs_file(name: str) -> str:
    """The file a docs page shows under a caption of its name."""
    text = REPLAYING.read_text(encoding="utf-8")
    after = text[text.index(f":caption: {name}\n\n") + len(f":caption: {name}\n\n"):]
    return after[:after.index("```")]


def test_docs_start_and_glyph_examples_run(run_cli: RunCli, in_tmp: Path) -> None:
    (in_tmp / "position.txt").write_text(_docs_file("position.txt"))
    (in_tmp / "my-chart.txt").write_text(_docs_file("my-chart.txt"))
    text = REPLAYING.read_text(encoding="utf-8")
    commands = [shlex.split(line, comments=True) for line in text.splitlines()
                if line.startswith("boardgen")
                and ("position.txt" in line or "my-chart.txt" in line)]
    assert len(commands) >= 3  # play with --start; play and diagram with --glyphs
    for words in commands:
        result = run_cli(*words[1:])
        assert result.code == 0, (words, result.err)


def test_board_and_all_name_a_board_the_same_way(run_cli: RunCli, in_tmp: Path) -> None:
    from boardgen.publish.gallery import default_jobs
    from boardgen.render.paper import parse_paper

    names = {job.name for job in default_jobs(parse_paper("a4"))}
    for args in (["copolymer", "--preset", "small"], ["copolymer", "--side", "10"],
                 ["o", "--side", "6"]):
        result = run_cli("board", *args, "--format", "svg" if args[0] == "copolymer" else "pdf")
        assert result.code == 0, result.err
        made = result.out.split()[-1]
        assert Path(made).name in names, (made, sorted(names))
    result = run_cli("diagram", "copolymer", "tempo")
    assert Path(result.out.split()[-1]).name in names
