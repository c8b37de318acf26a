"""Hardening IV (issue 30): an output never written onto an input or through a planted link,
read-only files kept, full disks named; the bounds on claims, arrows and start texts; one
way of splitting lines; the caches and the signals.  Each test failed on f4fc8bd."""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import Run, one_line_error

SMALL = """game: copolymer
board: hexhex 3
panel: Start
"""


def small_file(folder: Path, name: str = "my.txt") -> Path:
    path = folder / name
    path.write_text(SMALL, encoding="utf-8")
    return path


# --- 1: an output path that is an input file ----------------------------------------------

def test_output_onto_the_diagram_file_is_refused(in_tmp: Path,
                                                  run_cli: Callable[..., Run]) -> None:
    source = small_file(in_tmp)
    result = run_cli("diagram", "my.txt", "--format", "svg", "-o", "my.txt")
    one_line_error(result, "my.txt", "input file")
    assert source.read_text(encoding="utf-8") == SMALL


def test_output_through_a_link_or_hard_link_to_the_input_is_refused(
        in_tmp: Path, run_cli: Callable[..., Run]) -> None:
    source = small_file(in_tmp)
    (in_tmp / "out.svg").symlink_to("my.txt")
    os.link(source, in_tmp / "hard.svg")
    for out in ("out.svg", "hard.svg", "./sub/../my.txt"):
        (in_tmp / "sub").mkdir(exist_ok=True)
        one_line_error(run_cli("diagram", "my.txt", "--format", "svg", "-o", out),
                       "input file")
    assert source.read_text(encoding="utf-8") == SMALL


def test_output_onto_a_mask_or_moves_file_is_refused(in_tmp: Path,
                                                      run_cli: Callable[..., Run]) -> None:
    mask = in_tmp / "m.txt"
    mask.write_text(" . .\n. . .\n . .\n", encoding="utf-8")
    one_line_error(run_cli("board", "copolymer", "--mask", "m.txt", "--format", "pdf", "-o",
                           "m.txt"), "input file", "mask")
    assert mask.read_text(encoding="utf-8") == " . .\n. . .\n . .\n"
    game = in_tmp / "g.txt"
    game.write_text("C3\n", encoding="utf-8")
    one_line_error(run_cli("play", "copolymer", "--side", "3", "--moves-file", "g.txt",
                           "--format", "svg", "-o", "g.txt"), "input file", "moves-file")
    assert game.read_text(encoding="utf-8") == "C3\n"


def test_another_file_is_still_written(in_tmp: Path, run_cli: Callable[..., Run]) -> None:
    small_file(in_tmp)
    result = run_cli("diagram", "my.txt", "-o", "my.svg")
    assert result.code == 0, result.err
    assert (in_tmp / "my.svg").read_bytes().startswith(b"<?xml")


# --- 2: a link planted by another user in a sticky shared folder ---------------------------

@pytest.mark.skipif(os.geteuid() != 0, reason="planting another user's link needs root")
def test_a_link_planted_in_a_sticky_folder_is_not_followed(
        tmp_path: Path, run_cli: Callable[..., Run]) -> None:
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o1777)
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n", encoding="utf-8")
    link = shared / "board.svg"
    link.symlink_to(victim)
    os.lchown(link, 65534, 65534)  # another user's link, in a folder that is not theirs
    result = run_cli("board", "copolymer", "--side", "3", "-o", str(link))
    one_line_error(result, "link", "another user")
    assert victim.read_text(encoding="utf-8") == "precious\n"
    # Our own link there is written through, as documented.
    os.lchown(link, os.geteuid(), os.getegid())
    assert run_cli("board", "copolymer", "--side", "3", "-o", str(link)).code == 0
    assert victim.read_bytes().startswith(b"<?xml")


# --- 19: a file name that ends in '/' or '/.' ---------------------------------------------

@pytest.mark.parametrize("command", [["kit", "o"], ["calibrate"]])
@pytest.mark.parametrize("name", ["x.pdf/", "x.pdf/."])
def test_a_pdf_name_ending_as_a_folder_is_refused(in_tmp: Path, run_cli: Callable[..., Run],
                                                  command: list[str], name: str) -> None:
    one_line_error(run_cli(*command, "-o", name), "folder")
    assert not (in_tmp / "x.pdf").exists()


# --- 25: read-only files, full disks -----------------------------------------------------

def test_a_read_only_file_is_not_replaced(in_tmp: Path, run_cli: Callable[..., Run]) -> None:
    kept = in_tmp / "board.svg"
    kept.write_text("mine\n", encoding="utf-8")
    kept.chmod(0o444)
    one_line_error(run_cli("board", "copolymer", "--side", "3", "-o", "board.svg"),
                   "read-only")
    assert kept.read_text(encoding="utf-8") == "mine\n"
    assert stat.S_IMODE(kept.stat().st_mode) == 0o444


def test_a_full_disk_names_the_file(in_tmp: Path, run_cli: Callable[..., Run],
                                    monkeypatch: pytest.MonkeyPatch) -> None:
    import errno

    import boardgen.output

    real_fdopen = os.fdopen

    class Full:
        def __init__(self, fd: int) -> None:
            self.handle = real_fdopen(fd, "wb")

        def __enter__(self) -> Full:
            return self

        def __exit__(self, *exc: object) -> None:
            self.handle.close()

        def write(self, data: bytes) -> int:
            raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(boardgen.output.os, "fdopen", lambda fd, mode: Full(fd))
    result = run_cli("board", "copolymer", "--side", "3", "-o", "full.svg")
    line = one_line_error(result, "No space left on device", "full.svg", code=1)
    assert line
    assert list(in_tmp.iterdir()) == []  # nor a temporary file left


# --- 12: lines end at \n, \r\n and \r only --------------------------------------------------

@pytest.mark.parametrize("odd", ["\f", "\v", "\x1c", "\x1d", "\x1e", "\x85", "\u2028",
                                 "\u2029"])
def test_only_newlines_break_lines(in_tmp: Path, run_cli: Callable[..., Run], odd: str) -> None:
    """A character str.splitlines() breaks at is refused as a control character on the
    line the editor shows, not read as the start of a hidden line."""
    text = f"game: copolymer\nboard: hexhex 3\ntitle: Mine{odd}board: hexhex 9\npanel: Start\n"
    (in_tmp / "odd.txt").write_text(text, encoding="utf-8")
    line = one_line_error(run_cli("diagram", "odd.txt", "-o", "odd.svg"), "odd.txt:3:",
                          f"U+{ord(odd):04X}")
    assert line
    assert not (in_tmp / "odd.svg").exists()


def test_an_error_names_the_line_an_editor_counts() -> None:
    from boardgen import parse_diagram
    from boardgen.errors import BoardgenError

    for newline in ("\n", "\r\n", "\r"):
        text = newline.join(["game: o", "board: hexhex 4", "panel: one", "place: D4 D4", ""])
        with pytest.raises(BoardgenError, match="^line 4: "):
            parse_diagram(text)


def test_a_moves_file_with_old_mac_line_ends_counts_lines(in_tmp: Path,
                                                           run_cli: Callable[..., Run]) -> None:
    (in_tmp / "g.txt").write_text("C3\rB2\rZZ9\r", encoding="utf-8")
    one_line_error(run_cli("play", "copolymer", "--side", "3", "--moves-file", "g.txt"),
                   "g.txt:3")


# --- 13: a header line given twice ----------------------------------------------------------

@pytest.mark.parametrize("key, first, second", [("board", "hexhex 3", "hexhex 4"),
                                                ("title", "One", "Two"),
                                                ("first", "x", "o"),
                                                ("game", "copolymer", "copolymer")])
def test_a_repeated_header_line_names_both_lines(in_tmp: Path, run_cli: Callable[..., Run],
                                                  key: str, first: str, second: str) -> None:
    lines = ["game: copolymer", "board: hexhex 3", f"{key}: {first}", "# between",
             f"{key}: {second}", "panel: Start"]
    if key in ("board", "game"):
        lines = [line for line in lines[:2] if not line.startswith(key)] + lines[2:]
    (in_tmp / "twice.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    first_line = next(n for n, line in enumerate(lines, 1) if line.startswith(f"{key}:"))
    second_line = max(n for n, line in enumerate(lines, 1) if line.startswith(f"{key}:"))
    one_line_error(run_cli("diagram", "twice.txt", "-o", "twice.svg"),
                   f"twice.txt:{second_line}:", f"twice.txt:{first_line}", f"'{key}:'")
    assert not (in_tmp / "twice.svg").exists()


# --- 6, 7, 8: bounds on claims, arrows and the API's start= --------------------------------------

ENDGAME = """game: copolymer
board: hexhex 2
setup: A1 B3
panel: Two placed
"""


def _solved_winner(folder: Path, run_cli: Callable[..., Run]) -> str:
    """Who perfect play makes win here, as the engine says (the test is of the count)."""
    (folder / "one.txt").write_text(ENDGAME + "expect: solved winner x\n", encoding="utf-8")
    result = run_cli("diagram", "one.txt", "-o", "one.svg")
    return "x" if result.code == 0 else "o"


def test_solved_claims_are_bounded_in_number(in_tmp: Path, run_cli: Callable[..., Run]) -> None:
    from boardgen.limits import MAX_SOLVED_CLAIMS

    winner = _solved_winner(in_tmp, run_cli)
    claims = f"expect: solved winner {winner}\n" * MAX_SOLVED_CLAIMS
    (in_tmp / "many.txt").write_text(ENDGAME + claims, encoding="utf-8")
    assert run_cli("diagram", "many.txt", "-o", "many.svg").code == 0
    (in_tmp / "more.txt").write_text(ENDGAME + claims + f"expect: solved winner {winner}\n",
                                     encoding="utf-8")
    line = 4 + MAX_SOLVED_CLAIMS + 1
    one_line_error(run_cli("diagram", "more.txt", "-o", "more.svg"), f"more.txt:{line}:",
                   f"more than {MAX_SOLVED_CLAIMS}")
    assert not (in_tmp / "more.svg").exists()


def test_start_claims_count_at_every_line(in_tmp: Path, run_cli: Callable[..., Run]) -> None:
    from boardgen.limits import MAX_SOLVED_CLAIMS

    winner = _solved_winner(in_tmp, run_cli)
    head = ENDGAME.replace("panel: Two placed\n", f"expect: solved winner {winner}\n")
    rows = "".join(f"line: Row {n}\npanel: Again\n" for n in range(MAX_SOLVED_CLAIMS + 1))
    (in_tmp / "rows.txt").write_text(head + rows, encoding="utf-8")
    one_line_error(run_cli("diagram", "rows.txt", "-o", "rows.svg"), "rows.txt:4:",
                   f"more than {MAX_SOLVED_CLAIMS}")


def test_arrows_and_marks_are_bounded(in_tmp: Path, run_cli: Callable[..., Run]) -> None:
    from boardgen.limits import MAX_ANNOTATIONS

    arrows = "arrow: A1 B2\n" * (MAX_ANNOTATIONS // 2) + "mark: C3 ring\n" * \
        (MAX_ANNOTATIONS // 2)
    (in_tmp / "fine.txt").write_text(SMALL + arrows, encoding="utf-8")
    assert run_cli("diagram", "fine.txt", "-o", "fine.svg").code == 0
    (in_tmp / "busy.txt").write_text(SMALL + arrows + "arrow: A1 B2\n", encoding="utf-8")
    one_line_error(run_cli("diagram", "busy.txt", "-o", "busy.svg"),
                   f"busy.txt:{3 + MAX_ANNOTATIONS + 1}:", f"{MAX_ANNOTATIONS:,}")


def test_the_apis_arrows_are_bounded() -> None:
    import boardgen
    from boardgen.errors import BoardgenError
    from boardgen.limits import MAX_ANNOTATIONS

    position = boardgen.play("o", "D4", side=4)
    with pytest.raises(BoardgenError, match=f"^arrows: .*{MAX_ANNOTATIONS:,}"):
        boardgen.draw(position, "png", arrows=[("A1", "D4")] * 100_000)
    with pytest.raises(BoardgenError, match=f"^marks: .*{MAX_ANNOTATIONS:,}"):
        boardgen.draw(position, "svg", marks={f"Z{n}": "ring" for n in range(2000)})


def test_the_apis_start_text_is_bounded() -> None:
    import boardgen
    from boardgen.errors import BoardgenError
    from boardgen.limits import MAX_INPUT_BYTES

    with pytest.raises(BoardgenError, match=f"^start: .*{MAX_INPUT_BYTES:,}"):
        boardgen.play("copolymer", start=". " * (MAX_INPUT_BYTES // 2 + 1))
    with pytest.raises(BoardgenError, match=f"^glyphs: .*{MAX_INPUT_BYTES:,}"):
        boardgen.play("o", side=4, glyphs="# a comment\n" * (MAX_INPUT_BYTES // 10))


# --- 9, 10: the font cache -------------------------------------------------------------------

CHARACTERS = frozenset(range(0x20, 0x7f)) | {0x2019}


def _kept_face(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, bytes]:
    from boardgen.publish import sheet

    monkeypatch.setenv(sheet.FONT_CACHE_ENV, str(tmp_path))
    cut = sheet.cached_cut_font("regular", CHARACTERS)
    (kept,) = (tmp_path / "sheet-fonts").glob("regular-*.ttf")
    return kept, cut


@pytest.mark.parametrize("spoil", ["truncated", "empty", "another font"])
def test_a_spoilt_cached_font_is_cut_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                           spoil: str) -> None:
    from boardgen.publish import sheet

    kept, cut = _kept_face(tmp_path, monkeypatch)
    stored = kept.read_bytes()
    other = sheet.cut_font("bold", CHARACTERS)
    kept.write_bytes({"truncated": stored[:len(stored) // 2], "empty": b"",
                      "another font": other}[spoil])
    assert sheet.cached_cut_font("regular", CHARACTERS) == cut
    assert sheet.cached_cut_font("regular", CHARACTERS) == cut  # and the cache mended
    assert kept.read_bytes() == stored


@pytest.mark.parametrize("planted", ["pipe", "link to /dev/zero"])
def test_a_pipe_or_dev_zero_in_the_cache_neither_hangs_nor_fills_memory(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, planted: str) -> None:
    import threading

    from boardgen.publish import sheet

    kept, cut = _kept_face(tmp_path, monkeypatch)
    kept.unlink()
    if planted == "pipe":
        os.mkfifo(kept)
    else:
        kept.symlink_to("/dev/zero")
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(
        sheet.cached_cut_font("regular", CHARACTERS)), daemon=True)
    reader.start()
    reader.join(timeout=30)
    if reader.is_alive() and planted == "pipe":  # the old code waits for a writer: free it
        with open(os.open(kept, os.O_WRONLY | os.O_NONBLOCK), "wb"):
            pass
    assert not reader.is_alive() and got == [cut]


# --- 14: the API from several threads ---------------------------------------------------------

SIX_THREADS = r"""
import hashlib, threading, boardgen

def work(kind):
    position = boardgen.play("o", "D4 D5", side=4)
    fmt = ("svg", "pdf", "png")[kind % 3]
    out = boardgen.draw(position, fmt, title="Quick brown fox jumps over the lazy dog 0123 ÀÉÎÕÜ")
    return out.encode() if isinstance(out, str) else out

barrier = threading.Barrier(6)
found, errors = {}, []

def run(i):
    try:
        barrier.wait()
        found[i] = hashlib.sha256(work(i)).hexdigest()
    except Exception as exc:
        errors.append(repr(exc))

threads = [threading.Thread(target=run, args=(i,)) for i in range(6)]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
alone = [hashlib.sha256(work(i)).hexdigest() for i in range(6)]  # one at a time, after
print(errors or ("same" if [found[i] for i in range(6)] == alone else "different"))
"""


def test_six_threads_drawing_at_once_give_the_bytes_of_one() -> None:
    """Each run is a fresh process: the race is on the font's first use."""
    import subprocess
    import sys

    for _ in range(4):
        result = subprocess.run([sys.executable, "-c", SIX_THREADS], capture_output=True,
                                text=True, timeout=300)
        assert result.stdout.strip() == "same", result.stdout + result.stderr


# --- 16, 5: signals while importing, and while the workers are forked --------------------------

# The command as installed (its console-script entry point), with a signal sent to itself at
# the moment boardgen.cli starts being imported: what Ctrl-C or SIGTERM in the first second
# of a command does, without depending on how fast this machine imports.
SIGNAL_DURING_IMPORT = r"""
import builtins, os, signal, sys, time
from importlib.metadata import entry_points

(script,) = entry_points(group="console_scripts", name="boardgen")
real_import = builtins.__import__
sent = []
signum = getattr(signal, sys.argv[1])

def importing(name, *args, **kwargs):
    if name == "boardgen.cli" and not sent:
        sent.append(name)
        os.kill(os.getpid(), signum)
        time.sleep(0.05)  # the handler runs here, inside the import
    return real_import(name, *args, **kwargs)

builtins.__import__ = importing
sys.argv[1:] = sys.argv[2:]
script.load()()
"""


@pytest.mark.parametrize("name, code, word", [("SIGINT", 130, "interrupted"),
                                              ("SIGTERM", 143, "terminated")])
def test_a_signal_while_importing_is_one_line(in_tmp: Path, name: str, code: int,
                                              word: str) -> None:
    import subprocess
    import sys

    result = subprocess.run([sys.executable, "-c", SIGNAL_DURING_IMPORT, name, "board",
                             "copolymer", "--side", "3", "-o", "b.svg"],
                            capture_output=True, text=True, timeout=120)
    assert (result.returncode, result.stderr) == (code, f"boardgen: {word}\n")
    assert list(in_tmp.iterdir()) == []


# Ctrl-C sent from fork()'s own hook in the parent: the moment the issue's Ctrl-C was lost.
CTRL_C_DURING_FORK = r"""
import os, signal
os.register_at_fork(after_in_parent=lambda: os.kill(os.getpid(), signal.SIGINT))
from boardgen.cli import main
main()
"""


def test_ctrl_c_while_the_workers_are_forked_is_not_lost(in_tmp: Path) -> None:
    import subprocess
    import sys

    result = subprocess.run([sys.executable, "-c", CTRL_C_DURING_FORK, "all", "-o", "out",
                             "-j", "2"], capture_output=True, text=True, timeout=300)
    assert result.returncode == 130, result.stderr[-500:]
    assert result.stderr.strip().splitlines()[-1] == "boardgen: interrupted"
    assert "Exception ignored" not in result.stderr and "Traceback" not in result.stderr


# --- 21: /dev/stdin and <(command) --------------------------------------------------------------

def test_a_diagram_from_standard_input_or_process_substitution(in_tmp: Path) -> None:
    import shutil
    import subprocess
    import sys

    boardgen = str(Path(sys.executable).parent / "boardgen")
    piped = subprocess.run([boardgen, "diagram", "/dev/stdin", "-o", "piped.svg"],
                           input=SMALL, capture_output=True, text=True, timeout=120)
    assert piped.returncode == 0, piped.stderr
    (in_tmp / "my.txt").write_text(SMALL, encoding="utf-8")
    bash = shutil.which("bash")
    assert bash is not None
    substituted = subprocess.run([bash, "-c", f"'{boardgen}' diagram <(cat my.txt) -o sub.svg"],
                                 capture_output=True, text=True, timeout=120)
    assert substituted.returncode == 0, substituted.stderr
    # The same drawings as from a file of the same stem (the title defaults to it).
    (in_tmp / "stdin.txt").write_text(SMALL, encoding="utf-8")
    alone = subprocess.run([boardgen, "diagram", "stdin.txt", "-o", "file.svg"],
                           capture_output=True, text=True, timeout=120)
    assert alone.returncode == 0, alone.stderr
    assert (in_tmp / "piped.svg").read_bytes() == (in_tmp / "file.svg").read_bytes()
    assert (in_tmp / "sub.svg").exists()
    bad = subprocess.run([boardgen, "diagram", "/dev/stdin", "-o", "bad.svg"],
                         input=SMALL + "place: Z9\n", capture_output=True, text=True,
                         timeout=120)
    assert bad.returncode == 2 and bad.stderr.startswith("boardgen: error: /dev/stdin:4: ")
    assert not (in_tmp / "bad.svg").exists()


# --- 18: a file name too long -------------------------------------------------------------------

LONG_NAMES = ["x" * 300 + ".txt", "/".join(["y" * 200] * 21) + ".txt"]


@pytest.mark.parametrize("name", LONG_NAMES, ids=["a long name", "a long path"])
@pytest.mark.parametrize("how", ["diagram", "--mask", "--moves-file"])
def test_a_name_too_long_is_exit_2_and_quoted_short(in_tmp: Path, run_cli: Callable[..., Run],
                                                    name: str, how: str) -> None:
    from boardgen.limits import MAX_QUOTED_CHARS

    command = {"diagram": ["diagram", name, "-o", "d.svg"],
               "--mask": ["board", "copolymer", "--mask", name, "-o", "b.svg"],
               "--moves-file": ["play", "copolymer", "--side", "3", "--moves-file", name]}[how]
    line = one_line_error(run_cli(*command), "too long")
    quoted_part = max(re.findall(r"'[^']*'", line), key=len)
    assert len(quoted_part) <= MAX_QUOTED_CHARS + 2 and len(line) < 200, line


def test_errors_in_a_file_with_a_long_path_quote_it_short(
        in_tmp: Path, run_cli: Callable[..., Run]) -> None:
    folder = in_tmp.joinpath(*["z" * 200] * 10)
    folder.mkdir(parents=True)
    (folder / "d.txt").write_text(SMALL + "place: Z9\n", encoding="utf-8")
    line = one_line_error(run_cli("diagram", str(folder / "d.txt"), "-o", "d.svg"), ":4: ",
                          "Z9")
    assert len(line) < 200, line


# --- 17: arguments of odd types -----------------------------------------------------------------

class _ReprRaises:
    def __repr__(self) -> str:
        raise RuntimeError("repr")


class _MeanStr(str):
    __hash__ = None  # type: ignore[assignment]

    def __eq__(self, other: object) -> bool:
        raise RuntimeError("eq")

    def split(self, *args: object, **kwargs: object) -> list[str]:  # type: ignore[override]
        raise RuntimeError("split")

    def strip(self, *args: object) -> str:  # type: ignore[override]
        raise RuntimeError("strip")

    def __len__(self) -> int:
        raise RuntimeError("len")


class _MeanList(list):  # type: ignore[type-arg]
    def __iter__(self):  # type: ignore[no-untyped-def]
        raise RuntimeError("iter")


class _MeanPath(os.PathLike):  # type: ignore[type-arg]
    def __fspath__(self) -> str:
        raise RuntimeError("fspath")


def _odd_calls() -> list[tuple[str, Callable[[], object]]]:
    import random

    import boardgen

    position = boardgen.play("o", "D4", side=4)

    class Raising(random.Random):
        def randrange(self, *args: object, **kwargs: object) -> int:  # type: ignore[override]
            raise RuntimeError("randrange")

    class OutOfRange(random.Random):
        def randrange(self, *args: object, **kwargs: object) -> int:  # type: ignore[override]
            return 10 ** 9

    calls: list[tuple[str, Callable[[], object]]] = []
    for odd in (_ReprRaises(), _MeanStr("o"), _MeanStr("svg"), _MeanStr("D4")):
        calls += [
            ("play(game)", lambda v=odd: boardgen.play(v)),
            ("play(moves)", lambda v=odd: boardgen.play("o", v, side=4)),
            ("play(side)", lambda v=odd: boardgen.play("o", side=v)),
            ("play(start)", lambda v=odd: boardgen.play("copolymer", start=v)),
            ("play(mask)", lambda v=odd: boardgen.play("o", mask=v)),
            ("play(first)", lambda v=odd: boardgen.play("copolymer", side=3, first=v)),
            ("play(glyphs)", lambda v=odd: boardgen.play("o", side=4, glyphs=v)),
            ("Engine.play", lambda v=odd: boardgen.engine("o", side=4).play(v)),
            ("draw(fmt)", lambda v=odd: boardgen.draw(position, v)),
            ("draw(theme)", lambda v=odd: boardgen.draw(position, "svg", theme=v)),
            ("draw(paper)", lambda v=odd: boardgen.draw(position, "svg", paper=v)),
            ("draw(title)", lambda v=odd: boardgen.draw(position, "svg", title=v)),
            ("draw(arrows)", lambda v=odd: boardgen.draw(position, "svg", arrows=[(v, "D4")])),
            ("draw(highlights)", lambda v=odd: boardgen.draw(position, "svg",
                                                            highlights={"tint": [v]})),
            ("draw(subject)", lambda v=odd: boardgen.draw(v)),
            ("board(shape)", lambda v=odd: boardgen.board("o", "svg", shape=v)),
            ("board(labels)", lambda v=odd: boardgen.board("o", "svg", labels=v)),
            ("diagram(name)", lambda v=odd: boardgen.diagram("copolymer", v)),
            ("load_diagram", lambda v=odd: boardgen.load_diagram(v)),
            ("parse_diagram", lambda v=odd: boardgen.parse_diagram(v)),
        ]
    calls += [
        ("draw(arrows=list subclass)", lambda: boardgen.draw(position, "svg",
                                                             arrows=_MeanList([("A1", "D4")]))),
        ("load_diagram(PathLike)", lambda: boardgen.load_diagram(_MeanPath())),
        ("random_legal(raising)", lambda: boardgen.engine("o", side=4).random_legal(Raising())),
        ("random_legal(out of range)",
         lambda: boardgen.engine("o", side=4).random_legal(OutOfRange())),
    ]
    return calls


def test_odd_argument_types_are_boardgen_errors() -> None:
    from boardgen.errors import BoardgenError

    escaped = []
    for name, call in _odd_calls():
        try:
            call()
        except BoardgenError:
            pass
        except Exception as exc:
            escaped.append(f"{name}: {type(exc).__name__}: {exc}")
    assert escaped == []


def test_a_plain_subclass_of_str_works_as_its_text() -> None:
    import boardgen

    class Tagged(str):
        pass

    assert boardgen.play(Tagged("o"), Tagged("D4"), side=4).to_json() == \
        boardgen.play("o", "D4", side=4).to_json()
