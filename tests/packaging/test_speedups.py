"""What the speed-ups (issue 11) must not change, and the start-up imports.

Start-up: each command imports only the libraries of the output it writes.

Checked structurally, in a fresh interpreter per command (which modules are loaded after it
ran), never by timing: bench/bench_startup.py measures the seconds.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import Run

# Slow: left out of the quick subset (pytest -m "not slow"; the README says which).
pytestmark = pytest.mark.slow

RunCli = Callable[..., Run]

# The costly imports, each needed by one kind of output only.
PNG_OR_THUMBNAIL = ("cairosvg", "cairocffi", "pypdfium2")
RULE_SHEETS = ("reportlab.platypus", "typst")
SVG_WRITER = ("svgwrite",)
PDF_WRITER = ("reportlab",)

PROBE = """
import json, sys
from boardgen.cli import main
try:
    main(sys.argv[1:])
except SystemExit as exc:
    assert not exc.code, exc.code
print(json.dumps(sorted(sys.modules)))
"""


def loaded_after(*args: str, cwd: Path) -> set[str]:
    result = subprocess.run([sys.executable, "-c", PROBE, *args], cwd=cwd, text=True,
                            capture_output=True, check=True)
    return set(json.loads(result.stdout.strip().splitlines()[-1]))


def heavy(loaded: set[str], families: tuple[str, ...]) -> list[str]:
    return sorted(m for m in loaded for f in families if m == f or m.startswith(f + "."))


@pytest.mark.parametrize(("args", "not_loaded"), [
    (["--help"], PNG_OR_THUMBNAIL + RULE_SHEETS + SVG_WRITER + PDF_WRITER),
    (["board", "--help"], PNG_OR_THUMBNAIL + RULE_SHEETS + SVG_WRITER + PDF_WRITER),
    (["play", "copolymer", "--side", "3", "--moves", "C3 B2", "--json"],
     PNG_OR_THUMBNAIL + RULE_SHEETS + SVG_WRITER + PDF_WRITER),
    (["play", "o", "--side", "4", "--moves", "D4 A1"],
     PNG_OR_THUMBNAIL + RULE_SHEETS + SVG_WRITER + PDF_WRITER),
    (["play", "polygone", "--moves", "c0-c2>d1", "--json"],
     PNG_OR_THUMBNAIL + RULE_SHEETS + SVG_WRITER + PDF_WRITER),
    (["board", "copolymer", "-o", "b.pdf"], PNG_OR_THUMBNAIL + RULE_SHEETS + SVG_WRITER),
    (["board", "polygone", "-o", "p.pdf"], PNG_OR_THUMBNAIL + RULE_SHEETS + SVG_WRITER),
    # The SVG is written as text: svgwrite (and its validator) is not imported at all.
    (["board", "o", "-o", "b.svg"], PNG_OR_THUMBNAIL + RULE_SHEETS + PDF_WRITER + SVG_WRITER),
    (["board", "o", "--cutter", "laser", "-o", "b.svg"],
     PNG_OR_THUMBNAIL + RULE_SHEETS + PDF_WRITER + SVG_WRITER),
    (["diagram", "copolymer", "tempo", "-o", "d.pdf"],
     PNG_OR_THUMBNAIL + RULE_SHEETS + SVG_WRITER),
    (["play", "copolymer", "--side", "3", "--moves", "C3", "-o", "p.pdf"],
     PNG_OR_THUMBNAIL + RULE_SHEETS + SVG_WRITER),
])
def test_command_imports_only_what_it_writes(tmp_path: Path, args: list[str],
                                             not_loaded: tuple[str, ...]) -> None:
    assert heavy(loaded_after(*args, cwd=tmp_path), not_loaded) == []


def test_the_probe_sees_a_heavy_import(tmp_path: Path) -> None:
    """The check above can fail: a PNG does load the PNG writer's libraries."""
    loaded = loaded_after("board", "copolymer", "--side", "3", "-o", "b.png", cwd=tmp_path)
    assert heavy(loaded, PNG_OR_THUMBNAIL)


# --- boardgen all: the same bytes whatever the number of workers or their order -----------


def test_all_makes_the_same_bytes_on_one_or_two_workers_in_any_order(
        run_cli: RunCli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from boardgen.publish import gallery

    real = gallery.default_jobs

    def some_jobs(paper: gallery.Paper, theme: gallery.Theme) -> list[gallery.Job]:
        # A rule sheet and its HTML twin, a board in PDF and SVG, diagrams of every game.
        return [job for job in real(paper, theme)
                if job.name.startswith(("o-rules", "copolymer-side5", "o-side4"))
                or job.name.endswith(("tempo.svg", "tempo.pdf", "glyphs.svg", "blocking.pdf"))]

    monkeypatch.setattr("boardgen.cli.default_jobs", some_jobs)
    assert run_cli("all", "-o", str(tmp_path / "one"), "--jobs", "1").code == 0
    assert run_cli("all", "-o", str(tmp_path / "two"), "--jobs", "2").code == 0
    monkeypatch.setattr("boardgen.cli.default_jobs",
                        lambda paper, theme: some_jobs(paper, theme)[::-1])
    assert run_cli("all", "-o", str(tmp_path / "reversed"), "--jobs", "2").code == 0

    def files(folder: Path) -> dict[str, bytes]:
        return {str(p.relative_to(folder)): p.read_bytes()
                for p in sorted(folder.rglob("*")) if p.is_file()}

    one, two, reversed_ = (files(tmp_path / n) for n in ("one", "two", "reversed"))
    assert len(one) >= 14 and any(name.startswith("thumbs/") for name in one)
    assert one == two
    # The gallery page lists the cards in the jobs' order; every other file is the same.
    del one["index.html"], reversed_["index.html"]
    assert one == reversed_


# --- the engines agree with the naive ones move by move -------------------------------------


@pytest.mark.parametrize("side", [4, 5, 6, 8])
def test_o_engine_agrees_with_the_naive_one_move_by_move(side: int) -> None:
    import random

    from naive_engines import NaiveO

    from boardgen.games.o.engine import OGame
    from boardgen.geometry import hexhex

    grid = hexhex(side)
    loops = 0
    for seed in range(60 if side < 8 else 15):
        rng = random.Random(seed)
        game, naive = OGame(grid), NaiveO(grid)
        while True:
            assert set(game.legal()) == set(naive.legal()), (seed, len(game.history))
            assert game.over == naive.over
            if game.over:
                assert game.winner == naive.winner and game.loop == naive.loop
                loops += game.winner is not None
                break
            cell = game.random_legal(rng)
            game.place(cell)
            naive.place(cell)
    assert loops  # some games end in a loop, so loop detection was compared too


@pytest.mark.parametrize("side", [4, 5])
def test_the_lean_o_engine_the_benchmark_measures_against_plays_o(side: int) -> None:
    """bench/lean_engines.py is the floor of the O benchmark: it must play the real game
    (the naive engine's legal cells and loops), or beating it would mean nothing."""
    import random

    from lean_engines import LeanO
    from naive_engines import NaiveO

    from boardgen.geometry import hexhex

    grid = hexhex(side)
    loops = stuck = 0
    for seed in range(30):
        rng = random.Random(seed)
        lean, naive = LeanO(grid), NaiveO(grid)
        while True:
            legal = {grid.cells[i] for i in lean.legal_cells()}
            assert legal == set(naive.legal()), (seed, len(lean.empty))
            choice = lean.random_legal(rng)
            if choice is None:
                assert naive.legal() == [] and not naive.winner
                stuck += 1
                break
            assert grid.cells[choice] in legal
            looped = lean.place(choice)
            naive.place(grid.cells[choice])
            assert looped == (naive.winner is not None), seed
            if looped:
                assert {grid.cells[i] for i in lean.loop} == naive.loop
                loops += 1
                break
    assert loops  # loops were compared


def test_the_lean_copolymer_engine_the_benchmark_measures_against_plays_copolymer() -> None:
    import random

    from lean_engines import LeanCopolymer
    from naive_engines import NaiveCopolymer

    from boardgen.geometry import hexhex

    grid = hexhex(5)
    for seed in range(10):
        rng = random.Random(seed)
        lean, naive = LeanCopolymer(grid), NaiveCopolymer(grid)
        while not lean.over:
            connections = set(naive.connections())
            assert {grid.cells[i] for i in lean.empty if lean.connects(i)} == connections
            calm = lean.random_calm(rng)
            assert (calm is None) == (len(connections) == len(naive.empty_cells()))
            cell = calm if calm is not None and rng.random() < 0.5 else lean.random_empty(rng)
            assert lean.place(cell) == naive.place(grid.cells[cell])
            assert "xo"[lean.to_move - 1] == naive.to_move
        assert naive.over and "xo"[lean.winner() - 1] == naive.winner


def test_polygone_engine_agrees_with_the_naive_one_move_by_move() -> None:
    import random

    from naive_engines import NaivePolygone

    from boardgen.games.polygone.engine import Move, Polygone

    def ends(move: Move) -> tuple[tuple[int, int], ...]:
        return tuple((hole.c, hole.h) for hole in (move.moving, move.pivot, move.target))

    captures = 0
    for seed in range(12):
        rng = random.Random(seed)
        game, naive = Polygone(), NaivePolygone()
        while True:
            assert game.over == naive.over, seed
            if game.over:
                assert game.winner == naive.winner, seed
                break
            assert [ends(m) for m in game.legal_moves()] == naive.moves(), seed
            move = game.random_move(rng)
            turn = game.play(move)
            naive.play(*ends(move))
            captures += len(turn.captures)
            assert {frozenset(((a.c, a.h), (b.c, b.h))): colour
                    for (a, b), colour in game.pieces.items()} == naive.pieces, seed
            assert game.captured == naive.captured, seed
    assert captures  # captures were compared too


# --- large boards ---------------------------------------------------------------------------


def test_drawing_a_board_builds_no_neighbour_table_and_pdf_streams_are_flate_only() -> None:
    from boardgen.geometry import hexhex
    from boardgen.render.board import BoardOptions, render_board
    from boardgen.render.paper import PageInfo, parse_paper
    from boardgen.render.scene import THEMES, board_scene

    grid = hexhex(12)
    scene = board_scene(grid, "outside")
    options = BoardOptions(parse_paper("a4"))
    pdf = render_board(scene, "pdf", options, theme=THEMES["colour"], info=PageInfo("t"))
    render_board(scene, "svg", options, theme=THEMES["colour"], info=PageInfo("t"))
    assert grid._neighbour_indices is None  # built only when an engine asks for it
    assert len(grid.neighbour_indices[0]) == 3 and grid._neighbour_indices is not None
    assert b"/FlateDecode" in pdf and b"ASCII85" not in pdf


def test_a_png_past_cairosvgs_element_limit_is_drawn(run_cli: RunCli, tmp_path: Path) -> None:
    """Side 183 (100,467 cells) at 36 dpi: refused before (CairoSVG stops at 100,000
    elements), now drawn from the figure in bands, with its resolution recorded."""
    import struct

    out = tmp_path / "b.png"
    result = run_cli("board", "copolymer", "--side", "183", "--cell-mm", "2", "--dpi", "36",
                     "-o", str(out))
    assert result.code == 0, result.err
    data = out.read_bytes()
    width, height = struct.unpack(">II", data[16:24])
    assert width > 900 and height > 900
    assert data[37:41] == b"pHYs" and struct.unpack(">I", data[41:45])[0] == round(36 / 0.0254)


# --- boardgen all: work done once per build -------------------------------------------------


def test_a_build_sets_each_sheet_once_with_the_same_bytes(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The kit and the quick-reference file set the same quick reference: inside
    sheets_memoised (as `boardgen all` runs) Typst sets it once; another sheet, theme or
    SOURCE_DATE_EPOCH is set again, and outside a build every call sets it."""
    from boardgen.publish import typeset
    from boardgen.render.paper import parse_paper
    from boardgen.render.scene import THEMES

    compiled: list[int] = []
    real = typeset._compiler_for  # the compiler each compile of a setting is made by

    def counting(*args: Any, **kwargs: Any) -> Any:
        compiled.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(typeset, "_compiler_for", counting)
    a4 = parse_paper("a4")
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    alone = typeset.render_sheet_pdf("o", paper=a4, theme=THEMES["colour"], quick=True)
    assert len(compiled) == 1
    with typeset.sheets_memoised():
        first = typeset.render_sheet_pdf("o", paper=a4, theme=THEMES["colour"], quick=True)
        again = typeset.render_sheet_pdf("o", paper=a4, theme=THEMES["colour"], quick=True)
        assert len(compiled) == 2 and first == again == alone
        ink = typeset.render_sheet_pdf("o", paper=a4, theme=THEMES["ink"], quick=True)
        assert len(compiled) == 3 and ink != first
        monkeypatch.setenv("SOURCE_DATE_EPOCH", "1800000000")
        later = typeset.render_sheet_pdf("o", paper=a4, theme=THEMES["colour"], quick=True)
        assert len(compiled) == 4 and later != first
    typeset.render_sheet_pdf("o", paper=a4, theme=THEMES["colour"], quick=True)
    assert len(compiled) == 5


def test_a_setting_measured_then_compiled_is_what_typst_compile_makes() -> None:
    """The compiler that measured a setting compiles it (half the time): the same bytes as
    a compile of its own, and it is handed over once (a Typst compiler evaluates once)."""
    import typst

    from boardgen.publish import typeset
    from boardgen.render.paper import parse_paper
    from boardgen.render.scene import THEMES

    sheet, source = typeset._sheet_setting("o", parse_paper("a4"), THEMES["colour"], True,
                                           True, "none")
    key = typeset._key(source, sheet.images)
    assert typeset._MEASURED[key][0] is not None  # measured: its compiler kept
    shared = typeset._compiler_for(source, sheet.images)
    assert typeset._MEASURED[key][0] is None  # handed over
    alone = typst.compile(source.encode("utf-8"), font_paths=typeset._fonts(),
                          ignore_system_fonts=True, sys_inputs=sheet.images, format="pdf",
                          pdf_standards=["ua-1"])
    assert shared.compile(input=source.encode("utf-8"), format="pdf",
                          pdf_standards=["ua-1"]) == alone
    assert typeset._measure(source, sheet)  # measured again from what was kept


def test_html_sheets_cut_the_fonts_once_per_set_of_characters(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """With no cache on disk, the fonts are cut once per set of characters in a process
    (three fonts): two texts of the same characters get the same rules; new characters
    cut again."""
    from fontTools import subset

    from boardgen.publish import sheet

    cut: list[int] = []
    real = subset.Subsetter.subset

    def counting(self: subset.Subsetter, font: object) -> None:
        cut.append(1)
        real(self, font)

    monkeypatch.setattr(subset.Subsetter, "subset", counting)
    monkeypatch.setenv(sheet.FONT_CACHE_ENV, "")
    sheet._font_faces_of.cache_clear()
    first = sheet._font_faces("Place a stone.")
    assert len(cut) == 3
    assert sheet._font_faces("a stone. Place") == first and len(cut) == 3
    other = sheet._font_faces("Place a stone \u2014 \u00e9")
    assert len(cut) == 6 and other != first and other.count("@font-face") == 3


@pytest.mark.parametrize("weight", ["regular", "bold", "italic"])
def test_a_cached_sheet_font_is_what_fonttools_cuts(weight: str, tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """The first build cuts a face and keeps it (after a SHA-256 of its key and bytes); the
    next reads the same bytes back without cutting (a marker planted in the kept file, with
    its digest, is what it gets)."""
    import hashlib

    from boardgen.publish import sheet

    monkeypatch.setenv(sheet.FONT_CACHE_ENV, str(tmp_path))
    characters = frozenset(range(0x20, 0x7f)) | {0x2019}
    first = sheet.cached_cut_font(weight, characters)
    assert first == sheet.cut_font(weight, characters)
    (kept,) = (tmp_path / "sheet-fonts").glob(f"{weight}-*.ttf")
    # Its digest covers the face's key (the file's name) and its bytes (issue 30).
    key = kept.stem.encode("ascii")
    assert kept.read_bytes() == hashlib.sha256(key + b"\0" + first).digest() + first
    assert not list((tmp_path / "sheet-fonts").glob(".*.tmp"))  # nothing half-written
    kept.write_bytes(hashlib.sha256(key + b"\0" + b"marker").digest() + b"marker")
    assert sheet.cached_cut_font(weight, characters) == b"marker"
    # Other characters are another face: cut, not the kept one.
    assert sheet.cached_cut_font(weight, characters | {0xE9}) != b"marker"


def test_a_cache_that_cannot_be_written_is_passed_by(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    from boardgen.publish import sheet

    blocked = tmp_path / "a-file"
    blocked.write_text("not a folder")
    monkeypatch.setenv(sheet.FONT_CACHE_ENV, str(blocked))
    characters = frozenset(range(0x20, 0x7f))
    assert sheet.cached_cut_font("regular", characters) == sheet.cut_font("regular", characters)
    monkeypatch.setenv(sheet.FONT_CACHE_ENV, "")
    assert sheet.font_cache_folder() is None
    monkeypatch.delenv(sheet.FONT_CACHE_ENV)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert sheet.font_cache_folder() == tmp_path / "xdg" / "boardgen" / "sheet-fonts"
