"""Issue 19, case by case: the last internal errors, work bounded by what it costs, no hang,
no orphan.  CLI cases run through the command line (in-process, or as a subprocess where a
signal, a pipe or a fork is the point), API cases through ``boardgen``."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import Run, one_line_error

import boardgen
from boardgen.errors import BoardgenError

RunCli = Callable[..., Run]
BOARDGEN = str(Path(sys.executable).parent / "boardgen")


def diagram_file(folder: Path, text: str, name: str = "d.txt") -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def written(folder: Path) -> list[str]:
    """The files a run left in ``folder``, inputs (.txt) aside."""
    return sorted(p.name for p in folder.rglob("*") if p.is_file() and p.suffix != ".txt")


# --- 1. a 'line:' with no 'panel:' after it ---------------------------------------------------


@pytest.mark.parametrize(("text", "line"), [
    ("game: copolymer\nboard: hexhex 3\nline: L\n", 3),
    ("game: o\nboard: hexhex 4\nline: L\n", 3),
    ("game: copolymer\nboard: hexhex 3\nline: L\nline: M\npanel: a\n", 3),
    ("game: o\nboard: hexhex 4\nline: L\npanel: a\nline: M\n", 5),
])
def test_a_line_without_a_panel_is_refused_with_its_line(run_cli: RunCli, in_tmp: Path,
                                                         text: str, line: int) -> None:
    path = diagram_file(in_tmp, text)
    one_line_error(run_cli("diagram", str(path), "-o", "d.svg"), f"d.txt:{line}:",
                   "no 'panel:'")
    assert written(in_tmp) == []
    with pytest.raises(BoardgenError, match=f"d.txt:{line}:"):
        boardgen.load_diagram(path)


def test_a_diagram_without_panels_is_refused_by_the_drawer() -> None:
    with pytest.raises(BoardgenError, match="no panels"):
        boardgen.draw(boardgen.Diagram("empty", ()), "svg")


# --- 2. numbers in diagram files: bounded by their length before they are converted -------

HUGE = "9" * 4301


@pytest.mark.parametrize(("text", "line"), [
    (f"game: copolymer\nboard: hexhex {HUGE}\npanel: a\n", 2),
    (f"game: o\nboard: hexhex 4\npanel: a\nplace: D4\nundo: {HUGE}\n", 5),
    (f"game: copolymer\nboard: hexhex 3\npanel: a\nplace: C3 connection {HUGE}\n", 4),
    (f"game: polygone\ncaptured: white {HUGE} black 0\npanel: a\n", 2),
    (f"game: o\nboard: hexhex 4\npanel: a\nexpect: stones {HUGE}\n", 4),
    (f"game: copolymer\nboard: hexhex 3\npanel: a\nexpect: counts x {HUGE} o 0\n", 4),
    (f"game: polygone\npanel: a\nmove: c0-c2>d1\nexpect: polygons {HUGE}\n", 4),
    ("game: copolymer\nboard: hexhex 9999999999\npanel: a\n", 2),  # ten digits
])
def test_a_number_of_too_many_digits_is_refused(run_cli: RunCli, in_tmp: Path, text: str,
                                                line: int) -> None:
    path = diagram_file(in_tmp, text)
    one_line_error(run_cli("diagram", str(path), "-o", "d.svg"), f"d.txt:{line}:", "digits",
                   "at most 9")
    assert written(in_tmp) == []
    with pytest.raises(BoardgenError, match="digits"):
        boardgen.load_diagram(path)


@pytest.mark.parametrize("digits", ["\u00b2", "\u0663", "\uff11\uff12"])  # ², ٣, １２
def test_a_number_in_other_digits_is_refused(run_cli: RunCli, in_tmp: Path,
                                            digits: str) -> None:
    path = diagram_file(in_tmp, f"game: copolymer\nboard: hexhex {digits}\npanel: a\n")
    one_line_error(run_cli("diagram", str(path), "-o", "d.svg"), "d.txt:2:", "digits 0-9")


@pytest.mark.parametrize(("claim", "message"), [
    ("captured", "captured needs 'white N black N'"),
    ("captured white 1", "captured needs 'white N black N'"),
    ("polygons", "polygons needs a number"),
    ("polygons many", "polygons needs a number"),
    ("captures", "captures needs 'COLOUR LINES'"),
    ("captures green c0-c2", "captures needs 'COLOUR LINES'"),
])
def test_polygone_claims_missing_their_words_are_refused(run_cli: RunCli, in_tmp: Path,
                                                        claim: str, message: str) -> None:
    path = diagram_file(in_tmp, f"game: polygone\npanel: a\nmove: c0-c2>d1\nexpect: {claim}\n")
    one_line_error(run_cli("diagram", str(path), "-o", "d.svg"), "d.txt:4:", message)


# --- 3. SOURCE_DATE_EPOCH -----------------------------------------------------------------


@pytest.mark.parametrize("value", ["garbage", "1e9", "9" * 20, "-1", "1.5", "253402300800",
                                   "0x10", "12 34", " 1", "1 ", " ", "\t1"])
def test_a_bad_source_date_epoch_is_refused_before_any_work(
        run_cli: RunCli, in_tmp: Path, monkeypatch: pytest.MonkeyPatch, value: str) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", value)

    def no_work(*_: object, **__: object) -> None:
        raise AssertionError("work started with a bad SOURCE_DATE_EPOCH")

    monkeypatch.setattr("boardgen.cli.board_request", no_work)
    monkeypatch.setattr("boardgen.cli.play_request", no_work)
    monkeypatch.setattr("boardgen.cli.default_jobs", no_work)
    for args in (["board", "copolymer", "-o", "b.pdf"], ["all", "-o", "out"],
                 ["play", "copolymer", "--moves", "C3"]):
        one_line_error(run_cli(*args), "SOURCE_DATE_EPOCH", "seconds since 1970")
    assert list(in_tmp.iterdir()) == []  # not even the output folder of `all`
    with pytest.raises(BoardgenError, match="SOURCE_DATE_EPOCH"):
        boardgen.board("copolymer", "pdf", side=3)


def _pdf_dates(data: bytes) -> set[bytes]:
    """The dates in a PDF's information dictionary, as YYYYMMDDHHMMSS (reportlab writes a
    space before the string, Typst none: PDF syntax allows either)."""
    return set(re.findall(rb"/(?:CreationDate|ModDate)\s*\(D:(\d{14})", data))


def test_a_valid_source_date_epoch_dates_every_pdf(run_cli: RunCli, tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """2001-09-09 01:46:40 UTC is 1,000,000,000 s: computed here by hand, not by boardgen."""
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1000000000")
    for args, name in ((["board", "copolymer", "--side", "3"], "b.pdf"),
                       (["diagram", "copolymer", "tempo"], "d.pdf"),
                       (["rules", "o", "--quick"], "r.pdf")):
        out = tmp_path / name
        assert run_cli(*args, "-o", str(out)).code == 0
        assert _pdf_dates(out.read_bytes()) == {b"20010909014640"}, name
    first = (tmp_path / "b.pdf").read_bytes()
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")  # 2023-11-14 22:13:20 UTC
    assert run_cli("board", "copolymer", "--side", "3", "-o", str(tmp_path / "c.pdf")).code == 0
    assert _pdf_dates((tmp_path / "c.pdf").read_bytes()) == {b"20231114221320"}
    monkeypatch.delenv("SOURCE_DATE_EPOCH")  # unset: the fixed date, 2000-01-01
    assert run_cli("board", "copolymer", "--side", "3", "-o", str(tmp_path / "e.pdf")).code == 0
    assert _pdf_dates((tmp_path / "e.pdf").read_bytes()) == {b"20000101000000"}
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1000000000")
    assert boardgen.board("copolymer", "pdf", side=3) == first  # the API: the same bytes


# --- 4 and 5: work bounded before it starts, out of memory in one line -----------------------


def _never(what: str) -> Callable[..., None]:
    def fail(*_: object, **__: object) -> None:
        raise AssertionError(f"{what} ran for a refused request")

    return fail


@pytest.mark.parametrize(("game", "side", "panels"), [("copolymer", 224, 10),
                                                     ("copolymer", 224, 200),
                                                     ("o", 50, 30)])
def test_panels_times_cells_is_bounded_before_replay_and_drawing(
        run_cli: RunCli, in_tmp: Path, monkeypatch: pytest.MonkeyPatch, game: str, side: int,
        panels: int) -> None:
    path = diagram_file(in_tmp, f"game: {game}\nboard: hexhex {side}\n"
                        + "".join(f"panel: p{k}\n" for k in range(panels)))
    monkeypatch.setattr("boardgen.games.copolymer.directives.Copolymer", _never("a replay"))
    monkeypatch.setattr("boardgen.games.o.directives.OGame.place", _never("a replay"))
    monkeypatch.setattr("boardgen.render.diagram.board_figure", _never("drawing"))
    line = one_line_error(run_cli("diagram", str(path), "-o", "d.svg"), "d.txt:3:",
                          f"{panels} panels", "limit of 150,000", "fewer panels")
    cells = 3 * side * (side - 1) + 1
    assert f"{panels * cells:,} cells" in line
    assert written(in_tmp) == []


def test_a_play_strip_is_bounded_before_the_moves_are_replayed(
        run_cli: RunCli, in_tmp: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from boardgen.geometry import Notation, hexhex

    grid = hexhex(50)  # 7,351 cells: 199 panels of it drew 1.46 million cells
    names = Notation(grid).name
    (in_tmp / "game.txt").write_text(" ".join(names(h) for h in grid.cells))
    monkeypatch.setattr("boardgen.games.registry.Position.play", _never("the replay"))
    one_line_error(run_cli("play", "copolymer", "--side", "50", "--moves-file", "game.txt",
                           "--every", "37", "-o", "e.png"),
                   "199 panels", "1,462,849 cells", "choose --every 368 or more")
    # A board of the largest size: one panel at a time.
    one_line_error(run_cli("play", "copolymer", "--side", "224", "--moves", "A1 A2",
                           "--every", "1", "-o", "e.svg"),
                   "leave out --every")
    assert written(in_tmp) == []


def test_the_drawer_bounds_the_cells_of_any_diagram() -> None:
    """What the API hands the drawer directly is bounded too."""
    from boardgen.geometry import hexhex
    from boardgen.render.scene import Scene

    big = Scene(hexhex(100))  # 29,701 cells
    fits = boardgen.Diagram("five", ((None, (big,) * 5),))
    too_many = boardgen.Diagram("six", ((None, (big,) * 6),))
    from boardgen.render.diagram import check_diagram_work

    check_diagram_work(fits)  # 148,505 cells: under the limit, not refused
    with pytest.raises(BoardgenError, match="178,206 cells"):
        boardgen.draw(too_many, "svg")


def test_a_panel_count_at_the_limit_is_drawn(run_cli: RunCli, in_tmp: Path) -> None:
    # 200 panels of 19 cells are well under the cell limit: the panel limit decides, and
    # exactly 200 are drawn, 201 refused.
    body = "game: copolymer\nboard: hexhex 3\n"
    path = diagram_file(in_tmp, body + "".join(f"panel: p{k}\n" for k in range(200)))
    assert run_cli("diagram", str(path), "-o", "d.svg").code == 0
    path.write_text(body + "".join(f"panel: p{k}\n" for k in range(201)))
    one_line_error(run_cli("diagram", str(path), "-o", "d.svg"), "more than 200 panels")


def test_out_of_memory_is_one_line(run_cli: RunCli, in_tmp: Path,
                                   monkeypatch: pytest.MonkeyPatch) -> None:
    def exhausted(*_: object, **__: object) -> bytes:
        raise MemoryError

    monkeypatch.setattr("boardgen.cli.board_request", exhausted)
    one_line_error(run_cli("board", "copolymer", "--side", "3", "-o", "b.svg"),
                   "out of memory", code=1)
    assert written(in_tmp) == []


def test_out_of_memory_in_one_job_of_all_is_named(run_cli: RunCli, in_tmp: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    from boardgen.publish import gallery

    def exhausted() -> bytes:
        raise MemoryError

    def jobs(paper: gallery.Paper, theme: gallery.Theme) -> list[gallery.Job]:
        return [gallery.Job("big.svg", "copolymer", "board", exhausted)]

    monkeypatch.setattr("boardgen.cli.default_jobs", jobs)
    result = run_cli("all", "-o", "out", "-j", "1")
    assert result.code == 1
    assert "failed: big.svg: out of memory" in result.err
    assert "unexpected" not in result.err and "Traceback" not in result.err


def test_the_limits_live_in_one_module() -> None:
    from boardgen import limits
    from boardgen.games import script
    from boardgen.geometry import hexgrid
    from boardgen.render import board, png

    for module, name in ((hexgrid, "MAX_CELLS"), (script, "MAX_PANELS"),
                         (board, "MAX_PAGES"), (png, "MAX_PIXELS")):
        assert getattr(module, name) is getattr(limits, name), name
    source = Path(boardgen.__file__).parent
    defined = [f"{path.relative_to(source)}: {m.group()}" for path in source.rglob("*.py")
               if path.name != "limits.py"
               for m in re.finditer(r"(?m)^MAX_[A-Z_]+ = [0-9]", path.read_text())]
    work_limits = [d for d in defined if any(k in d for k in ("CELLS", "PANELS", "PAGES",
                                                              "PIXELS", "BYTES", "SOLVE"))]
    assert work_limits == []


# --- 6. 'expect: solved winner' on any board, in a bounded number of positions -----------------


def _endgame_file(folder: Path, side: int, seed: int, claim: str) -> Path:
    import random

    from boardgen.geometry import Notation, hexhex

    grid = hexhex(side)
    cells = list(grid.cells)
    random.Random(seed).shuffle(cells)
    setup = " ".join(Notation(grid).name(h) for h in cells[:len(cells) - 12])
    return diagram_file(folder, f"game: copolymer\nboard: hexhex {side}\nsetup: {setup}\n"
                        f"expect: solved winner {claim}\npanel: a\n", f"s{side}-{seed}.txt")


@pytest.mark.slow
@pytest.mark.parametrize("side", [3, 10, 50])
def test_solved_claims_with_twelve_empty_cells_on_any_board(run_cli: RunCli, in_tmp: Path,
                                                            side: int) -> None:
    """One claim is right and one wrong: the right one draws, the wrong one is refused with
    its line (the side-50 search took more than 200 s before)."""
    outcomes = []
    for claim in ("x", "o"):
        path = _endgame_file(in_tmp, side, 1, claim)
        result = run_cli("diagram", str(path), "-o", f"s{side}{claim}.svg")
        outcomes.append(result.code)
        if result.code:
            one_line_error(result, ":4:", "perfect play gives")
            with pytest.raises(BoardgenError, match="perfect play gives"):
                boardgen.load_diagram(path)
        else:
            assert boardgen.load_diagram(path).rows
    assert sorted(outcomes) == [0, 2]


def test_a_search_past_its_position_limit_is_refused(run_cli: RunCli, in_tmp: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("boardgen.limits.MAX_SOLVER_POSITIONS", 5)
    path = _endgame_file(in_tmp, 3, 1, "x")
    one_line_error(run_cli("diagram", str(path), "-o", "s.svg"), "s3-1.txt:4:",
                   "passed 5 positions", "fewer cells are empty")


# --- 7. titles and captions in files: bounded like --title ---------------------------------


@pytest.mark.parametrize(("text", "line", "fragment"), [
    ("game: copolymer\ntitle: " + "T" * 1_900_000 + "\nboard: hexhex 3\npanel: a\n", 2,
     "1,900,000 characters"),
    ("game: copolymer\ntitle: " + "T" * 101 + "\nboard: hexhex 3\npanel: a\n", 2,
     "limit of 100"),
    ("game: copolymer\nboard: hexhex 3\npanel: a\ncaption: " + "c" * 301 + "\n", 4,
     "limit of 300"),
    ("game: copolymer\nboard: hexhex 3\npanel: a\n" + "note: " + "n" * 150 + "\n" * 1
     + "note: " + "n" * 151 + "\n", 5, "302 characters"),
    ("game: o\nboard: hexhex 4\nline: " + "L" * 301 + "\npanel: a\n", 3, "line's title"),
])
def test_titles_and_captions_in_files_are_bounded(run_cli: RunCli, in_tmp: Path, text: str,
                                                  line: int, fragment: str) -> None:
    path = diagram_file(in_tmp, text)
    error = one_line_error(run_cli("diagram", str(path), "-o", "d.svg"), f"d.txt:{line}:",
                           fragment)
    assert len(error) < 300
    assert written(in_tmp) == []
    with pytest.raises(BoardgenError, match=f"d.txt:{line}:"):
        boardgen.load_diagram(path)


def test_a_title_at_the_limit_is_accepted(run_cli: RunCli, in_tmp: Path) -> None:
    path = diagram_file(in_tmp, "game: copolymer\ntitle: " + "T" * 100
                        + "\nboard: hexhex 3\npanel: a\ncaption: " + "c" * 298 + "\n")
    assert run_cli("diagram", str(path), "-o", "d.svg").code == 0


# --- 8. a pipe with no writer never blocks --------------------------------------------------


@pytest.mark.parametrize("args", [
    ["board", "copolymer", "--mask", "{fifo}", "-o", "b.svg"],
    ["play", "copolymer", "--side", "3", "--moves-file", "{fifo}"],
    ["play", "o", "--side", "4", "--glyphs", "{fifo}"],
    ["play", "copolymer", "--side", "3", "--start", "{fifo}"],
    ["diagram", "o", "glyphs", "--glyphs", "{fifo}", "-o", "g.svg"],
    ["diagram", "{fifo}", "-o", "d.svg"],
])
def test_a_pipe_with_no_writer_is_refused_at_once(tmp_path: Path, args: list[str]) -> None:
    fifo = tmp_path / "nf"
    os.mkfifo(fifo)
    result = subprocess.run([BOARDGEN, *(a.format(fifo=fifo) for a in args)], cwd=tmp_path,
                            capture_output=True, text=True, timeout=120, check=False)
    assert result.returncode == 2, result.stderr
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert str(fifo) in result.stderr and "Traceback" not in result.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["nf"]


def test_a_pipe_with_a_writer_is_read(tmp_path: Path) -> None:
    fifo = tmp_path / "moves"
    os.mkfifo(fifo)
    # The writer opens the pipe first and waits there for a reader, as a shell's
    # `producer > fifo` does; the read then waits for the moves.
    writer = subprocess.Popen(["sh", "-c", f"sleep 0.2; echo 'C3 B2' > '{fifo}'"])
    try:
        time.sleep(1.0)
        result = subprocess.run([BOARDGEN, "play", "copolymer", "--side", "3", "--json",
                                 "--moves-file", str(fifo)], capture_output=True, text=True,
                                timeout=120, check=False)
    finally:
        writer.wait(timeout=60)
    assert result.returncode == 0, result.stderr
    assert '"C3": "x"' in result.stdout and '"B2": "o"' in result.stdout


# --- 9. `all`'s workers end with it -------------------------------------------------------


def _group_members(group: int, leader: int) -> set[int]:
    """The processes of a process group but its leader, from /proc."""
    members = set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        # After the name: state, ppid, pgrp.
        if int(fields[2]) == group and int(entry.name) != leader and fields[0] != "Z":
            members.add(int(entry.name))
    return members


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"  # a zombie has ended; its parent (init) reaps it


@pytest.fixture
def running_all(tmp_path: Path) -> Iterator[tuple[subprocess.Popen[bytes], set[int]]]:
    """`boardgen all -j 2` in a session of its own, once its workers are running."""
    process = subprocess.Popen([BOARDGEN, "all", "-o", str(tmp_path / "out"), "-j", "2"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               start_new_session=True)
    workers: set[int] = set()
    deadline = time.monotonic() + 120
    while len(workers) < 2 and time.monotonic() < deadline and process.poll() is None:
        workers = _group_members(process.pid, process.pid)
        time.sleep(0.05)
    try:
        assert len(workers) >= 2, "the workers never started"
        yield process, workers
    finally:
        # Whatever the test found, leave nothing running: the command, and any worker it
        # left behind (by pid: they may have outlived their group's leader).
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
        for pid in workers | _group_members(process.pid, process.pid):
            if _alive(pid):
                os.kill(pid, signal.SIGKILL)


def _ended(workers: set[int]) -> bool:
    deadline = time.monotonic() + 30
    while any(_alive(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.05)
    return not any(_alive(pid) for pid in workers)


def test_sigterm_ends_all_and_its_workers(
        running_all: tuple[subprocess.Popen[bytes], set[int]]) -> None:
    process, workers = running_all
    os.kill(process.pid, signal.SIGTERM)
    # The pipes close only when every process holding them has ended.
    out, err = process.communicate(timeout=60)
    assert process.returncode == 128 + signal.SIGTERM, err
    assert err.decode().strip().splitlines()[-1] == "boardgen: terminated"
    assert b"Traceback" not in err
    assert _ended(workers), [pid for pid in workers if _alive(pid)]


def test_ctrl_c_ends_all_without_a_worker_traceback(
        running_all: tuple[subprocess.Popen[bytes], set[int]]) -> None:
    process, workers = running_all
    os.killpg(process.pid, signal.SIGINT)  # what a terminal sends: the whole group
    out, err = process.communicate(timeout=60)
    assert process.returncode == 130, err
    lines = [line for line in err.decode().splitlines() if line.strip()]
    assert lines[-1] == "boardgen: interrupted"
    assert b"Traceback" not in err and b"KeyboardInterrupt" not in err
    assert _ended(workers), [pid for pid in workers if _alive(pid)]


def test_workers_die_with_a_killed_parent(
        running_all: tuple[subprocess.Popen[bytes], set[int]]) -> None:
    process, workers = running_all
    os.kill(process.pid, signal.SIGKILL)  # no clean-up possible: the kernel's signal
    process.communicate(timeout=60)
    assert _ended(workers), [pid for pid in workers if _alive(pid)]


# --- 10. each process its own font ------------------------------------------------------------


def test_each_process_reads_its_own_font() -> None:
    """A forked child moving through the font's file must not move the parent's reads."""
    from boardgen.render.fonts import BOLD, REGULAR, face

    def position(source: Any) -> int:
        raw = getattr(source, "raw", None)  # a buffered file: its descriptor's offset
        return int(raw.tell() if raw is not None else source.tell())

    for weight in (REGULAR, BOLD):
        source = face(weight)._font.reader.file
        before = position(source)
        child = os.fork()
        if child == 0:  # pragma: no cover - the child
            try:
                source.seek(12345)
                source.read(100)
            finally:
                os._exit(0)
        os.waitpid(child, 0)
        assert position(source) == before, weight


def test_all_with_two_workers_after_the_parent_drew_text(run_cli: RunCli, tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch
                                                         ) -> None:
    from boardgen.publish import gallery

    # The parent has measured text (a PDF: the font opened, its outlines not yet read), as
    # in-process tests before this one do; the workers then read the outlines at once.
    boardgen.board("copolymer", "pdf", side=3)
    real = gallery.default_jobs

    def text_jobs(paper: gallery.Paper, theme: gallery.Theme) -> list[gallery.Job]:
        return [job for job in real(paper, theme) if job.name.endswith(".svg")][:6]

    monkeypatch.setattr("boardgen.cli.default_jobs", text_jobs)
    for attempt in range(8):
        result = run_cli("all", "-o", str(tmp_path / f"out{attempt}"), "-j", "2")
        assert result.code == 0, result.err
        assert "failed" not in result.err


# --- 12. smaller ---------------------------------------------------------------------------


def test_a_long_diagram_name_is_an_unknown_name(run_cli: RunCli, in_tmp: Path) -> None:
    line = one_line_error(run_cli("diagram", "copolymer", "n" * 300),
                          "no copolymer diagram named", "300 characters")
    assert "n" * 81 not in line
    with pytest.raises(BoardgenError, match="no copolymer diagram named"):
        boardgen.diagram("copolymer", "n" * 300)


def test_a_file_named_output_is_refused(run_cli: RunCli, in_tmp: Path) -> None:
    (in_tmp / "output").write_text("in the way")
    one_line_error(run_cli("board", "copolymer", "--side", "3"), "'output'",
                   "not a folder")
    assert (in_tmp / "output").read_text() == "in the way"


def test_a_default_folder_that_cannot_be_made_is_one_line(
        run_cli: RunCli, in_tmp: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def read_only(*_: object, **__: object) -> None:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(Path, "mkdir", read_only)  # root may write anywhere: simulated
    one_line_error(run_cli("board", "copolymer", "--side", "3"), "cannot make",
                   "Permission denied")


def test_all_into_a_folder_it_cannot_write_is_one_line(
        run_cli: RunCli, in_tmp: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def read_only(*_: object, **__: object) -> None:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr("boardgen.output.tempfile.mkstemp", read_only)
    monkeypatch.setattr("boardgen.cli.default_jobs", _never("building"))
    one_line_error(run_cli("all", "-o", "out"), "cannot write into", "Permission denied")


@pytest.mark.parametrize("output", ["x.pdf/", "x.pdf/.", "sub/x.svg/", ".", ".."])
def test_an_output_naming_a_folder_writes_nothing(run_cli: RunCli, in_tmp: Path,
                                                 output: str) -> None:
    (in_tmp / "sub").mkdir()
    one_line_error(run_cli("board", "copolymer", "--side", "3", "-o", output), "folder")
    assert written(in_tmp) == []


def test_an_empty_output_is_refused_by_board_and_all_alike(run_cli: RunCli,
                                                           in_tmp: Path) -> None:
    for args in (["board", "copolymer", "-o", ""], ["all", "-o", ""],
                 ["diagram", "copolymer", "tempo", "-o", ""]):
        one_line_error(run_cli(*args), "is empty")
    assert list(in_tmp.iterdir()) == []


@pytest.mark.parametrize("text", [
    "x" * 100_000,  # no colon: not a directive
    "k" * 100_000 + ": v",  # an unknown key
    "game: polygone\npanel: a\nmove: " + "c0-c2>d1 " * 10_000,  # a move
    "game: copolymer\nboard: hexhex 3\npanel: a\nplace: " + "Q" * 50_000 + " ends 1",
    "game: o\nboard: " + "hexhex " * 20_000,
])
def test_an_error_line_quotes_at_most_80_characters(run_cli: RunCli, in_tmp: Path,
                                                    text: str) -> None:
    path = diagram_file(in_tmp, text)
    line = one_line_error(run_cli("diagram", str(path), "-o", "d.svg"), "d.txt:")
    assert len(line) <= 400, len(line)
    longest = max((len(run) for run in re.findall(r"'[^']*'|\"[^\"]*\"", line)), default=0)
    assert longest <= 82 + 3, line


def test_jobs_above_the_number_of_jobs_start_no_more_workers(
        run_cli: RunCli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from boardgen.publish import gallery

    real_jobs, real_pool, real_start = gallery.default_jobs, gallery.worker_pool, \
        gallery._start_worker
    sizes: list[int] = []
    pids = tmp_path / "pids"

    def two_jobs(paper: gallery.Paper, theme: gallery.Theme) -> list[gallery.Job]:
        return [job for job in real_jobs(paper, theme) if job.name.endswith(".svg")][:2]

    def counted_pool(workers: int):  # type: ignore[no-untyped-def]
        sizes.append(workers)
        return real_pool(workers)

    def counted_start() -> None:
        with open(pids, "a") as handle:
            handle.write(f"{os.getpid()}\n")
        real_start()

    monkeypatch.setattr("boardgen.cli.default_jobs", two_jobs)
    monkeypatch.setattr(gallery, "worker_pool", counted_pool)
    monkeypatch.setattr(gallery, "_start_worker", counted_start)
    result = run_cli("all", "-o", str(tmp_path / "out"), "-j", "64")
    assert result.code == 0, result.err
    assert sizes and all(size <= 2 for size in sizes), sizes
    started = pids.read_text().split()
    assert len(started) == len(set(started)) <= 2 * len(sizes)
