"""Random bytes and random option values at every command (hypothesis).

Whatever the input: exit code 0 or 2, never a traceback or an "internal error", and every
file written (or sent to standard output) is well-formed: SVG parses as XML, a PDF starts
with %PDF and opens with pypdf, a PNG opens with Pillow, HTML is a whole page.  The sizes
drawn stay small so that each example takes a fraction of a second.
"""

from __future__ import annotations

import contextlib
import io
import os
import sys
import tempfile
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path
from unittest import mock

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from PIL import Image
from pypdf import PdfReader

from boardgen.cli import main
from boardgen.games.registry import GAMES as GAME_DESCRIPTIONS

GAMES = ("copolymer", "o", "polygone")
SETTINGS = {"deadline": None, "suppress_health_check": [HealthCheck.too_slow]}


def _argv_text(data: bytes) -> str:
    """Bytes as Python hands them to a program: undecodable bytes become surrogates.  A
    command line cannot hold a NUL byte, so none is made."""
    return data.replace(b"\x00", b"").decode("utf-8", "surrogateescape")


junk = st.one_of(st.text(max_size=30).map(lambda t: t.replace("\x00", "")),
                 st.binary(max_size=30).map(_argv_text))


def maybe(values: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    """Mostly a sensible value, sometimes (one in ten) junk."""
    return st.integers(0, 9).flatmap(lambda k: junk if k == 0 else values)


titles = st.text(st.characters(codec="utf-8", exclude_categories=["Cc", "Cs"]), max_size=40)
numbers = st.one_of(st.integers(-3, 13).map(str), st.sampled_from(["0", "1", "1000000001",
                                                                  "-0", "99999999999999"]))
floats = st.one_of(st.floats(allow_nan=True, allow_infinity=True).map(str),
                   st.floats(1.0, 60.0).map(lambda v: f"{v:.1f}"),
                   st.sampled_from(["2", "200", "200.01", "1e309", "nan", "8"]))
papers = st.one_of(st.sampled_from(["a4", "letter", "a3", "universal", "80x80mm", "148x210mm",
                                    "2000x80mm", "105x148mm"]),
                   st.tuples(st.integers(0, 2100), st.integers(0, 2100)).map(
                       lambda wh: f"{wh[0]}x{wh[1]}mm"))
outputs = st.sampled_from(["b.pdf", "b.svg", "b.png", "b", "-", "sub/b.svg", ".", "b.html",
                           "in.txt", "B.PDF"])
formats = st.sampled_from(["pdf", "svg", "png", "html"])
mask_rows = st.lists(st.text(alphabet=" .#x*o\t?", max_size=16), min_size=0, max_size=10)
file_bytes = st.one_of(
    st.binary(max_size=200),
    mask_rows.map(lambda rows: "\n".join(rows).encode()),
    st.lists(st.tuples(st.sampled_from(["k0", "k1", "k2-gap", "k3-row", "k5", "k9"]),
                       st.sampled_from(["legal", "illegal", "left", "right", "maybe"])),
             max_size=14).map(lambda pairs: "\n".join(f"{g}: {r}" for g, r in pairs).encode()),
)
cells = st.sampled_from(["A1", "B2", "C3", "F6", "E5", "0,0", "1,-1", "Z99", "I1", "A0",
                         "c0-c2>d1", "c10-c8>b9", "b1 c2 -> d3", "/2,1", "a2-b3>c4/1"])
moves = st.one_of(st.lists(cells, max_size=8).map(" ".join), junk)


def option(name: str, values: st.SearchStrategy[str]) -> st.SearchStrategy[list[str]]:
    """``[name, value]`` or nothing."""
    return st.one_of(st.just([]), values.map(lambda v: [name, v]))


def flag(name: str) -> st.SearchStrategy[list[str]]:
    return st.sampled_from([[], [name]])


def command(*parts: st.SearchStrategy[list[str]]) -> st.SearchStrategy[list[str]]:
    return st.tuples(*parts).map(lambda lists: [arg for part in lists for arg in part])


side_option = option("--side", maybe(numbers))
shape_option = option("--shape", maybe(st.sampled_from(["hexhex", "rhombus", "triangle"])))
size_options = st.one_of(
    command(side_option, shape_option),
    option("--preset", maybe(st.sampled_from(["small", "medium", "large"]))),
    option("--diameter", maybe(st.sampled_from(["3", "5", "9", "8", "13", "1000000001"]))),
    command(st.just(["--mask", "in.txt"]), shape_option),
    # now and then several at once, which must be refused
    command(side_option, option("--preset", st.just("small")),
            option("--diameter", st.just("5")), option("--mask", st.just("in.txt"))),
)
game = maybe(st.sampled_from(GAMES)).map(lambda g: [g])

board_args = command(st.just(["board"]), game, size_options,
                     option("--paper", maybe(papers)),
                     option("--orientation", maybe(st.sampled_from(["auto", "portrait",
                                                                    "landscape"]))),
                     option("--cell-mm", maybe(floats)),
                     option("--labels", maybe(st.sampled_from(["outside", "inside", "none"]))),
                     option("--theme", maybe(st.sampled_from(["colour", "colourblind", "ink"]))),
                     option("--title", maybe(titles)), option("--format", maybe(formats)),
                     option("--dpi", maybe(st.sampled_from(["36", "72", "0", "5000"]))),
                     option("-o", maybe(outputs)))
play_args = command(st.just(["play"]), game, size_options, option("--moves", moves),
                    option("--first", maybe(st.sampled_from(["x", "o"]))), flag("--partisan"),
                    option("--glyphs", st.just("in.txt")), option("--start", st.just("in.txt")),
                    flag("--json"), option("--moves-file", st.just("in.txt")),
                    option("-o", maybe(outputs)),
                    option("--every", maybe(st.sampled_from(["1", "2", "0", "99999"]))))
names = st.sampled_from(sorted({n for g in GAMES for n in GAME_DESCRIPTIONS[g].diagram_names()}))
diagram_args = command(st.just(["diagram"]), game, st.one_of(st.just([]), maybe(names).map(
                           lambda n: [n])), flag("--list"), option("--paper", maybe(papers)),
                       option("--cell-mm", maybe(floats)),
                       option("--theme", maybe(st.sampled_from(["colour", "ink"]))),
                       option("--format", maybe(formats)),
                       option("--dpi", maybe(st.sampled_from(["36", "50"]))),
                       option("--glyphs", st.just("in.txt")), option("-o", maybe(outputs)))
rules_args = command(st.just(["rules"]), game, option("--paper", maybe(papers)), flag("--quick"),
                     option("--theme", maybe(st.sampled_from(["colour", "ink"]))),
                     option("--format", maybe(st.sampled_from(["pdf", "html"]))),
                     option("-o", maybe(st.sampled_from(["r.pdf", "r.html", "-", "r"]))))
all_args = command(st.just(["all"]), option("-o", maybe(st.sampled_from(["out", ".", "in.txt",
                                                                          "x/y"]))),
                   option("--paper", maybe(papers)),
                   option("--theme", maybe(st.sampled_from(["colour", "ink", "sepia"]))))


class _Kept(io.BytesIO):
    def close(self) -> None:  # the text wrapper closes it when collected; keep the bytes
        pass


@contextlib.contextmanager
def captured() -> Iterator[tuple[io.BytesIO, io.BytesIO]]:
    """stdout and stderr as a terminal-less program has them (stderr escapes what it cannot
    encode, as Python's own does)."""
    out_bytes, err_bytes = _Kept(), _Kept()
    out = io.TextIOWrapper(out_bytes, encoding="utf-8", write_through=True)
    err = io.TextIOWrapper(err_bytes, encoding="utf-8", errors="backslashreplace",
                           write_through=True)
    with mock.patch.object(sys, "stdout", out), mock.patch.object(sys, "stderr", err):
        yield out_bytes, err_bytes


def well_formed(data: bytes, what: str) -> None:
    if data.startswith(b"%PDF"):
        assert len(PdfReader(io.BytesIO(data)).pages) >= 1, what
    elif data.startswith(b"<?xml"):
        ET.fromstring(data)
    elif data.startswith(b"\x89PNG"):
        with Image.open(io.BytesIO(data)) as image:
            image.verify()
    elif data.startswith(b"<!doctype html>"):
        assert data.rstrip().endswith(b"</html>"), what
    else:
        raise AssertionError(f"{what}: not a file boardgen makes: {data[:40]!r}")


def run_in(home: Path, args: list[str]) -> tuple[int, bytes, str]:
    """``boardgen ARGS`` run in-process from the folder ``home``: its exit code, standard
    output and standard error."""
    before = os.getcwd()
    os.chdir(home)
    try:
        with captured() as (out, err):
            code = 0
            try:
                main(args)
            except SystemExit as exc:
                code = int(exc.code or 0)
    finally:
        os.chdir(before)
    return code, out.getvalue(), err.getvalue().decode("utf-8")


def run_and_check(args: list[str], input_file: bytes) -> None:
    with tempfile.TemporaryDirectory() as folder:
        home = Path(folder)
        (home / "in.txt").write_bytes(input_file)
        (home / "sub").mkdir()
        code, stdout, stderr = run_in(home, args)
        event(f"exit {code}")
        assert code in (0, 2), (args, code, stderr)
        assert "Traceback" not in stderr and "internal error" not in stderr, (args, stderr)
        if code == 2:
            assert len(stderr.strip().splitlines()) == 1, (args, stderr)
        if code == 0 and args[-2:] == ["-o", "-"] and "--list" not in args:
            well_formed(stdout, f"{args}: standard output")
        for path in sorted(home.rglob("*")):
            if path.is_dir() or path == home / "in.txt":
                continue
            assert not path.name.endswith(".part"), (args, path)
            event(f"wrote {path.suffix or 'a file without suffix'}")
            well_formed(path.read_bytes(), f"{args}: {path.relative_to(home)}")


@settings(max_examples=80, **SETTINGS)  # type: ignore[arg-type]
@given(board_args, file_bytes)
def test_board_never_fails_badly(args: list[str], input_file: bytes) -> None:
    run_and_check(args, input_file)


@settings(max_examples=100, **SETTINGS)  # type: ignore[arg-type]
@given(play_args, file_bytes)
def test_play_never_fails_badly(args: list[str], input_file: bytes) -> None:
    run_and_check(args, input_file)


@settings(max_examples=50, **SETTINGS)  # type: ignore[arg-type]
@given(diagram_args, file_bytes)
def test_diagram_never_fails_badly(args: list[str], input_file: bytes) -> None:
    run_and_check(args, input_file)


# Diagram files made of plausible directives with random values: every one must draw or be
# refused with FILE:LINE.
_KEYS = ["game", "title", "board", "first", "setup", "panel", "line", "place", "move",
         "show", "expect", "note", "caption", "arrow", "mark", "highlight", "undo", "white",
         "black", "to-move", "variant", "numbers", "number", "captured", "wobble"]
_WORDS = ["copolymer", "o", "polygone", "hexhex", "3", "4", "x", "A1", "C3", "D4", "B2",
          "c4-c6", "c4", "c6", "about", "ring", "dot", "new", "ghost", "legal", "illegal",
          "connection", "ends", "2", "0", "winner", "loop", "corner", "k0", "-1", "by",
          "b1-c2>d3", "\u00e9", "99999999999", ""]
diagram_files = st.lists(
    st.tuples(st.sampled_from(_KEYS), st.lists(st.sampled_from(_WORDS), max_size=4)),
    min_size=1, max_size=12).map(
        lambda lines: "\n".join(f"{k}: {' '.join(v)}" for k, v in lines).encode("utf-8"))
diagram_file_args = command(st.just(["diagram", "in.txt"]),
                            option("--format", maybe(formats)), option("-o", maybe(outputs)))


@settings(max_examples=60, **SETTINGS)  # type: ignore[arg-type]
@given(diagram_file_args, st.one_of(diagram_files, file_bytes))
def test_diagram_files_never_fail_badly(args: list[str], input_file: bytes) -> None:
    run_and_check(args, input_file)


# The numbers of diagram files (issue 19): sides, counts, stones to take back, captured
# pieces, written any way at all: huge, in other scripts' digits, signed, with exponents.
file_numbers = st.one_of(
    st.integers(0, 12).map(str),
    st.integers(0, 10**12).map(str),
    st.integers(10, 6000).map(lambda n: "9" * n),  # Python converts at most 4,300 digits
    st.sampled_from(["\u00b2", "\u0663", "\uff11\uff12", "1e9", "-1", "+3", "0x10", "1_000",
                     "007", "\u00bd", "\u2167"]),
    st.text(st.characters(categories=["Nd", "No"]), min_size=1, max_size=4),
)


def _numbers_file(game: str, lines: list[tuple[str, list[str]]]) -> bytes:
    header = {"copolymer": "game: copolymer\nboard: hexhex {0}\n",
              "o": "game: o\nboard: hexhex {0}\n",
              "polygone": "game: polygone\ncaptured: white {0} black {1}\n"}[game]
    numbers = [n for _, ns in lines for n in ns] + ["3", "4"]
    body = "".join(f"{template.format(*ns, *numbers)}\n" for template, ns in lines)
    return (header.format(*numbers[:2]) + "panel: a\n" + body).encode("utf-8")


_NUMBER_LINES = {
    "copolymer": ["place: C3 connection {0}", "place: B2 ends {0}", "expect: counts x {0} o {1}",
                  "panel: b", "line: L", "place: D4 ends 0"],
    "o": ["undo: {0}", "place: D4", "expect: stones {0}", "place: A1", "panel: b"],
    "polygone": ["expect: polygons {0}", "expect: captured white {0} black {1}",
                 "move: c0-c2>d1", "expect: moves c4-c6 {0} lateral {1}", "panel: b"],
}
number_files = st.sampled_from(sorted(_NUMBER_LINES)).flatmap(
    lambda game: st.lists(st.tuples(st.sampled_from(_NUMBER_LINES[game]),
                                    st.lists(file_numbers, min_size=2, max_size=2)),
                          max_size=6).map(lambda lines: _numbers_file(game, lines)))


@settings(max_examples=60, **SETTINGS)  # type: ignore[arg-type]
@given(number_files, st.sampled_from(["d.svg", "d.pdf"]))
def test_diagram_file_numbers_never_fail_badly(input_file: bytes, output: str) -> None:
    run_and_check(["diagram", "in.txt", "-o", output], input_file)


# SOURCE_DATE_EPOCH (issue 19): a valid one dates every PDF; anything else is refused in one
# line before any work.  The oracle for a date is Python's own calendar, not boardgen's.
epochs = st.one_of(
    st.integers(0, 253_402_300_799).map(str),
    st.integers(253_402_300_800, 10**30).map(str),
    st.integers(-10**12, -1).map(str),
    st.sampled_from(["", " ", "garbage", "1e9", "1.5", "0x10", " 12 ", "12 34", "\u0663",
                     "00000000001"]),
    st.text(max_size=12).map(lambda t: t.replace("\x00", "")),
)


def _expected_date(value: str) -> bytes | None:
    """The PDF date SOURCE_DATE_EPOCH=value gives, by the specification; None if the value
    must be refused; b"" if it counts as unset."""
    import datetime

    text = value  # digits only: spaces around them make it malformed
    if not text:
        return b""
    if not (text.isascii() and text.isdigit()) or int(text) > 253_402_300_799:
        return None
    moment = datetime.datetime(1970, 1, 1) + datetime.timedelta(seconds=int(text))
    return moment.strftime("%Y%m%d%H%M%S").encode()


@settings(max_examples=40, **SETTINGS)  # type: ignore[arg-type]
@given(st.one_of(board_args, diagram_args, play_args), epochs)
def test_source_date_epoch_never_fails_badly(args: list[str], value: str) -> None:
    import re

    expected = _expected_date(value)
    with tempfile.TemporaryDirectory() as folder, \
            mock.patch.dict(os.environ, {"SOURCE_DATE_EPOCH": value}):
        home = Path(folder)
        (home / "in.txt").write_bytes(b"")
        code, stdout, stderr = run_in(home, args)
        event(f"exit {code}, {'bad' if expected is None else 'good'} date")
        assert "Traceback" not in stderr and "internal error" not in stderr, (args, stderr)
        if expected is None:
            assert code == 2 and "SOURCE_DATE_EPOCH" in stderr, (args, value, stderr)
            assert len(stderr.strip().splitlines()) == 1
            assert [p for p in home.rglob("*") if p.name != "in.txt"] == []
            return
        assert code in (0, 2), (args, stderr)
        pdfs = [p.read_bytes() for p in home.rglob("*.pdf")]
        if code == 0 and args[-2:] == ["-o", "-"] and stdout.startswith(b"%PDF"):
            pdfs.append(stdout)
        for data in pdfs:
            dates = set(re.findall(rb"/CreationDate \(D:(\d{14})", data))
            assert dates == {expected or b"20000101000000"}, (args, value, dates)


@settings(max_examples=30, **SETTINGS)  # type: ignore[arg-type]
@given(rules_args)
def test_rules_never_fails_badly(args: list[str]) -> None:
    run_and_check(args, b"")


@settings(max_examples=15, **SETTINGS)  # type: ignore[arg-type]
@given(all_args)
def test_all_never_fails_badly(args: list[str]) -> None:
    from boardgen.publish import gallery

    real = gallery.default_jobs

    def cheap_jobs(paper: gallery.Paper, theme: gallery.Theme) -> list[gallery.Job]:
        # The whole of 'all' takes a minute; its option handling is what is drawn here.
        return [job for job in real(paper, theme) if job.name.endswith(".svg")][:2]

    with mock.patch("boardgen.cli.default_jobs", cheap_jobs):
        run_and_check(args, b"not a folder")
