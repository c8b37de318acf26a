"""Hardening V (issue 30's remains after an independent sweep): links planted in the middle
of an output path, outputs over boardgen's own data, the font cache keyed by content, the
preview server's deadlines and deep folders, the signals at the very start and end, and
short quoting everywhere.  Each test failed on main 8c52e5c."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import Run, one_line_error

NOBODY = 65534


# --- 1: a link planted as a folder in the middle of the output path ----------------------

@pytest.mark.skipif(os.geteuid() != 0, reason="planting another user's link needs root")
@pytest.mark.parametrize("depth", ["middle", "first of two"])
def test_a_planted_folder_link_in_the_path_is_not_followed(
        tmp_path: Path, run_cli: Callable[..., Run], depth: str) -> None:
    shared = tmp_path / "sticky"
    shared.mkdir()
    shared.chmod(0o1777)
    elsewhere = tmp_path / "elsewhere"
    (elsewhere / "deeper").mkdir(parents=True)
    victim = elsewhere / "deeper" / "victim.txt"
    victim.write_text("precious\n", encoding="utf-8")
    link = shared / "dirlink"
    link.symlink_to(elsewhere / "deeper" if depth == "middle" else elsewhere)
    os.lchown(link, NOBODY, NOBODY)
    out = link / ("victim.txt" if depth == "middle" else "deeper/victim.txt")
    result = run_cli("board", "copolymer", "--side", "3", "--format", "svg", "-o", str(out))
    one_line_error(result, "link", "another user")
    assert victim.read_text(encoding="utf-8") == "precious\n"
    assert [p.name for p in victim.parent.iterdir()] == ["victim.txt"]
    # Our own folder link there is followed, as documented.
    os.lchown(link, os.geteuid(), os.getegid())
    assert run_cli("board", "copolymer", "--side", "3", "--format", "svg",
                   "-o", str(out)).code == 0
    assert victim.read_bytes().startswith(b"<?xml")


# --- 2: boardgen's own files (templates, figures, fonts) are never an output -------------

def _own_files() -> list[Path]:
    import font_source_sans_pro

    from boardgen.resources import templates_root

    root = templates_root()
    return [root / "o" / "sheet.md", root / "o" / "quick.md", root / "o" / "figures.json",
            Path(font_source_sans_pro.font_files_ttf["SourceSansPro"])]


@pytest.mark.parametrize("index", range(4), ids=["sheet.md", "quick.md", "figures.json",
                                                 "font"])
@pytest.mark.parametrize("command", [["rules", "o", "--format", "html"],
                                     ["board", "o", "--format", "svg"]], ids=["rules", "board"])
def test_boardgen_never_writes_over_its_own_files(in_tmp: Path, run_cli: Callable[..., Run],
                                                  index: int, command: list[str]) -> None:
    own = _own_files()[index]
    assert own.is_file()
    before = own.read_bytes()
    stamp = own.stat().st_mtime_ns
    try:
        result = run_cli(*command, "-o", str(own))
        one_line_error(result, "boardgen's own")
        assert own.read_bytes() == before and own.stat().st_mtime_ns == stamp
        # Nor through a link to one of them.
        (in_tmp / "link.md").symlink_to(own)
        one_line_error(run_cli(*command, "-o", "link.md"), "boardgen's own")
        assert own.read_bytes() == before
        assert not list(own.parent.glob(".*.part"))
    finally:  # where the test fails, the install is mended for the tests that follow
        if own.read_bytes() != before:
            own.write_bytes(before)


def test_all_into_boardgen_s_own_folder_is_refused_before_work(
        in_tmp: Path, run_cli: Callable[..., Run]) -> None:
    import shutil

    from boardgen.resources import templates_root

    folder = templates_root() / "o"
    before = sorted(folder.iterdir())
    kept = {path: path.read_bytes() for path in before if path.is_file()}
    try:
        one_line_error(run_cli("all", "-o", str(folder)), "boardgen's own")
        assert sorted(folder.iterdir()) == before
    finally:  # where the test fails, the templates are mended for the tests that follow
        for path in set(folder.iterdir()) - set(before):
            shutil.rmtree(path) if path.is_dir() else path.unlink()
        for path, data in kept.items():
            if path.read_bytes() != data:
                path.write_bytes(data)


# --- 3: the font cache is keyed by content -------------------------------------------------

def test_another_whole_cached_face_in_a_faces_place_is_cut_again(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from boardgen.publish import sheet

    characters = frozenset(range(0x20, 0x7f))
    monkeypatch.setenv(sheet.FONT_CACHE_ENV, str(tmp_path))
    italic = sheet.cached_cut_font("italic", characters)
    sheet.cached_cut_font("bold", characters)
    folder = tmp_path / "sheet-fonts"
    (italic_file,) = folder.glob("italic-*.ttf")
    (bold_file,) = folder.glob("bold-*.ttf")
    kept = italic_file.read_bytes()
    italic_file.write_bytes(bold_file.read_bytes())  # whole, its own digest: bold over italic
    assert sheet.cached_cut_font("italic", characters) == italic
    assert italic_file.read_bytes() == kept  # and the cache mended


# --- 7: signals from the entry point's first instant to its last ---------------------------

# The command as installed (its console-script entry point).  "load": the signal comes just
# after the entry point's module is loaded, before run() starts; "serve": while serve's
# module is being imported; "exit": once the command has returned, as the process exits
# (from an exit handler: the entry point ends the process itself, after running them).
SIGNAL_AT = r"""
import atexit, builtins, os, signal, sys, time
from importlib.metadata import entry_points

(script,) = entry_points(group="console_scripts", name="boardgen")
moment, signum = sys.argv[1], getattr(signal, sys.argv[2])
sys.argv[1:] = sys.argv[3:]

def hit():
    os.kill(os.getpid(), signum)
    time.sleep(0.5)  # the handler runs here

run = script.load()
if moment == "load":
    hit()
elif moment == "serve":
    real_import = builtins.__import__
    def importing(name, *args, **kwargs):
        if name == "boardgen.publish.serve":
            builtins.__import__ = real_import
            hit()
        return real_import(name, *args, **kwargs)
    builtins.__import__ = importing
elif moment == "exit":
    atexit.register(hit)
run()
"""


def _signalled(moment: str, name: str, *command: str) -> tuple[int, str, str]:
    import subprocess
    import sys

    result = subprocess.run([sys.executable, "-c", SIGNAL_AT, moment, name, *command],
                            capture_output=True, text=True, timeout=120)
    return result.returncode, result.stdout, result.stderr


@pytest.mark.parametrize("name, code, word", [("SIGINT", 130, "interrupted"),
                                              ("SIGTERM", 143, "terminated"),
                                              ("SIGHUP", 129, "hung up")])
def test_a_signal_as_the_entry_point_starts_is_one_line(in_tmp: Path, name: str, code: int,
                                                        word: str) -> None:
    got = _signalled("load", name, "board", "copolymer", "--side", "3", "-o", "b.svg")
    assert got == (code, "", f"boardgen: {word}\n")
    assert list(in_tmp.iterdir()) == []


def test_sighup_while_serve_starts_is_one_line(in_tmp: Path) -> None:
    got = _signalled("serve", "SIGHUP", "serve", str(in_tmp), "--port", "0")
    assert got == (129, "", "boardgen: hung up\n")


@pytest.mark.parametrize("name, code, word", [("SIGINT", 130, "interrupted"),
                                              ("SIGTERM", 143, "terminated")])
def test_a_signal_after_the_command_is_done_is_one_line(in_tmp: Path, name: str, code: int,
                                                        word: str) -> None:
    (in_tmp / "my.txt").write_text("game: copolymer\nboard: hexhex 3\npanel: Start\n",
                                   encoding="utf-8")
    got = _signalled("exit", name, "diagram", "my.txt", "-o", "d.svg")
    assert got[0] == code and got[2] == f"boardgen: {word}\n", got
    assert got[1].startswith("wrote ")  # what it said before is kept
    assert (in_tmp / "d.svg").read_bytes().rstrip().endswith(b"</svg>")


# --- 8: every error line quotes at most 80 characters of what the user gave ----------------

LONG_ARGUMENTS = {
    "serve a long name": ["serve", "d" * 4200 + ".txt"],
    "serve a long missing path": ["serve", "/nonexist/" + "e" * 3000],
    "all into a long path": ["all", "-o", "f" * 4200 + "/x"],
    "a long suffix": ["board", "o", "-o", "x." + "x" * 200],
    "a long name for a PDF": ["kit", "o", "-o", "k" * 200 + ".svg"],
}


@pytest.mark.parametrize("command", LONG_ARGUMENTS.values(), ids=LONG_ARGUMENTS.keys())
def test_a_long_argument_is_quoted_short(in_tmp: Path, run_cli: Callable[..., Run],
                                         command: list[str]) -> None:
    import re

    from boardgen.limits import MAX_QUOTED_CHARS

    line = one_line_error(run_cli(*command))
    longest = max(len(run) for run in re.findall(r"[defkx.]+", line))
    assert longest <= MAX_QUOTED_CHARS and len(line) < 300, line
    assert list(in_tmp.iterdir()) == []


# --- 11: the API quotes a bad text short too --------------------------------------------

@pytest.mark.parametrize("call", ["mark", "highlight role", "game", "directive", "expectation"])
def test_the_api_quotes_a_long_bad_text_short(call: str) -> None:
    import boardgen
    from boardgen.limits import MAX_QUOTED_CHARS

    long = "x" * 100_000
    position = boardgen.play("copolymer", "", side=3)
    with pytest.raises(boardgen.BoardgenError) as caught:
        if call == "mark":
            boardgen.draw(position, "svg", marks={"A1": long})
        elif call == "highlight role":
            boardgen.parse_diagram(f"game: copolymer\nboard: hexhex 3\nhighlight: {long} A1\n")
        elif call == "game":
            boardgen.parse_diagram(f"game: {long}\nboard: hexhex 3\n")
        elif call == "directive":
            boardgen.parse_diagram(f"game: copolymer\nboard: hexhex 3\n{long}: 1\n")
        else:
            boardgen.parse_diagram(f"game: copolymer\nboard: hexhex 3\npanel: P\n"
                                   f"expect: {long}\n")
    message = str(caught.value)
    assert "x" * (MAX_QUOTED_CHARS + 1) not in message and len(message) < 400, message[:300]


# --- 9: another user's writable file in a sticky folder is refused before any work --------

@pytest.mark.skipif(os.geteuid() != 0, reason="running as another user needs root")
def test_another_users_file_in_a_sticky_folder_is_refused_first() -> None:
    import shutil
    import subprocess
    import sys
    import tempfile

    shared = Path(tempfile.mkdtemp(prefix="boardgen-sticky-", dir="/tmp"))
    try:
        shared.chmod(0o1777)
        theirs = shared / "dfile.svg"
        theirs.write_text("theirs\n", encoding="utf-8")
        theirs.chmod(0o666)
        boardgen = str(Path(sys.executable).parent / "boardgen")
        setpriv = shutil.which("setpriv")  # util-linux: as nobody, the interpreter kept
        if setpriv is None:
            pytest.skip("setpriv (util-linux) is not installed")
        result = subprocess.run(
            [setpriv, f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups", boardgen,
             "board", "copolymer", "--side", "3", "-o", str(theirs)],
            capture_output=True, text=True, timeout=120, cwd=shared,
            env={**os.environ, "HOME": str(shared)})
        assert result.returncode == 2, result.stderr
        assert result.stderr.startswith("boardgen: error: ") and "another user" in \
            result.stderr and len(result.stderr.splitlines()) == 1, result.stderr
        assert theirs.read_text(encoding="utf-8") == "theirs\n"
        assert sorted(p.name for p in shared.iterdir()) == ["dfile.svg"]
    finally:
        shutil.rmtree(shared)


# --- 12: a diagram given as text is named by its line, never by an empty file name --------

@pytest.mark.parametrize("text", [
    "game: copolymer\nboard: hexhex 3\ntitle: a\x07b\n",
    "game: copolymer\nboard: hexhex 3\nposition:\n  Q . .\n . . . .\n. . . . .\n . . . .\n"
    "  . . .\nend\npanel: a\n",
    "game: o\nboard: hexhex 3\ntitle: a\x07b\n",
    "game: polygone\nboard: hexhex 3\ntitle: a\x07b\n"])
def test_parse_diagram_errors_name_the_line(text: str) -> None:
    import boardgen

    with pytest.raises(boardgen.BoardgenError) as caught:
        boardgen.parse_diagram(text)
    assert str(caught.value).startswith("line 3: "), str(caught.value)
