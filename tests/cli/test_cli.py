"""The command line as a user meets it: files made, and one clear line for bad input."""

from __future__ import annotations

import io
import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import Run, one_line_error
from pypdf import PdfReader

RunCli = Callable[..., Run]


def test_board_side_10_prints_271_cells(run_cli: RunCli, tmp_path: Path) -> None:
    out = tmp_path / "copolymer-side10.svg"
    result = run_cli("board", "copolymer", "--side", "10", "-o", str(out))
    assert result.code == 0, result.err
    root = ET.parse(out).getroot()
    assert sum(1 for e in root.iter() if e.get("data-cell")) == 271


@pytest.mark.parametrize(("args", "cells"), [
    (["--preset", "small"], 61), (["--preset", "medium"], 127), (["--preset", "large"], 271),
    (["--diameter", "9"], 61), (["--diameter", "19"], 271),
    (["--shape", "rhombus", "--side", "5"], 25), (["--shape", "triangle", "--side", "5"], 15),
])
def test_board_sizes(run_cli: RunCli, tmp_path: Path, args: list[str], cells: int) -> None:
    out = tmp_path / "b.svg"
    result = run_cli("board", "copolymer", *args, "-o", str(out))
    assert result.code == 0, result.err
    assert sum(1 for e in ET.parse(out).getroot().iter() if e.get("data-cell")) == cells


@pytest.mark.parametrize("fmt", ["pdf", "svg", "png"])
def test_format_from_suffix_or_option(run_cli: RunCli, tmp_path: Path, fmt: str) -> None:
    by_suffix = tmp_path / f"a.{fmt}"
    assert run_cli("board", "copolymer", "--preset", "small", "-o", str(by_suffix)).code == 0
    by_option = tmp_path / "b.board"
    assert run_cli("board", "copolymer", "--preset", "small", "--format", fmt, "-o",
                   str(by_option)).code == 0
    magic = {"pdf": b"%PDF", "svg": b"<?xml", "png": b"\x89PNG"}[fmt]
    assert by_suffix.read_bytes().startswith(magic)
    assert by_option.read_bytes() == by_suffix.read_bytes()


def test_default_output_goes_to_output_folder(run_cli: RunCli, tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # no output/ here yet: the default folder is made
    result = run_cli("board", "copolymer", "--preset", "small")
    assert result.code == 0, result.err
    assert (tmp_path / "output" / "copolymer-side5.pdf").exists()


def test_print_options(run_cli: RunCli, tmp_path: Path) -> None:
    out = tmp_path / "b.pdf"
    result = run_cli("board", "copolymer", "--side", "6", "--paper", "letter", "--orientation",
                     "landscape", "--cell-mm", "15", "--labels", "inside", "--theme", "ink",
                     "--title", "My board", "-o", str(out))
    assert result.code == 0, result.err
    reader = PdfReader(io.BytesIO(out.read_bytes()))
    box = reader.pages[0].mediabox
    assert float(box.width) > float(box.height)  # landscape letter
    assert float(box.width) == pytest.approx(792, abs=0.5)
    text = reader.pages[0].extract_text()
    assert "My board" in text and "15.0 mm" in text and "F6" in text


def test_mask_board(run_cli: RunCli, tmp_path: Path) -> None:
    mask = tmp_path / "shape.txt"
    mask.write_text("  . . .\n . . . .\n. . . . .\n . . . .\n  . . .\n")
    out = tmp_path / "m.svg"
    result = run_cli("board", "copolymer", "--mask", str(mask), "-o", str(out))
    assert result.code == 0, result.err
    assert sum(1 for e in ET.parse(out).getroot().iter() if e.get("data-cell")) == 19


@pytest.mark.parametrize(("args", "message"), [
    (["--side", "1"], "side 1 is too small"),
    (["--side", "100000"], "more than the limit"),
    (["--side", "x"], "'x' is not a valid integer"),
    (["--shape", "rhombus", "--side", "4"], "16 cells, an even number"),
    (["--shape", "triangle", "--side", "3"], "6 cells, an even number"),
    (["--diameter", "8"], "--diameter 8"),
    (["--side", "5", "--preset", "small"], "--side and --preset both give the board size"),
    (["--paper", "b5"], "unknown paper 'b5'"),
    (["--paper", "10x10mm"], "between 80 and 2000 mm"),
    (["--theme", "neon"], "--theme: unknown theme 'neon' (choose from colour, colourblind, ink"),
    (["--cell-mm", "0.5"], "--cell-mm 0.5"),
    (["--mask", "/no/such/mask.txt"], "no such file"),
    (["-o", "/no/such/folder/b.pdf"], "output folder '/no/such/folder' does not exist"),
    (["-o", "/proc/b.pdf"], "cannot write into folder '/proc'"),
    (["-o", "board.txt"], "cannot tell the format"),
    (["-o", "b.pdf", "--format", "svg"], "ends in .pdf but --format is svg"),
])
def test_bad_input_one_line_exit_2(run_cli: RunCli, tmp_path: Path, args: list[str],
                                  message: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    result = run_cli("board", "copolymer", *args)
    assert result.code == 2
    lines = result.err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.err
    assert message in lines[0]
    assert list(tmp_path.iterdir()) == []  # no partial file anywhere


@pytest.mark.parametrize(("mask_text", "message"), [
    ("\n   \n", "no cells"),
    (". . .\n . ? .\n", "line 2, column 4: stray character '?'"),
    (". . .\n . . .\n", "6 cells, an even number"),
])
def test_bad_masks(run_cli: RunCli, tmp_path: Path, mask_text: str, message: str) -> None:
    mask = tmp_path / "m.txt"
    mask.write_text(mask_text)
    result = run_cli("board", "copolymer", "--mask", str(mask), "-o", str(tmp_path / "b.pdf"))
    assert result.code == 2 and message in result.err
    assert not (tmp_path / "b.pdf").exists()


def test_title_markup_is_escaped(run_cli: RunCli, tmp_path: Path) -> None:
    out = tmp_path / "t.svg"
    title = 'A < B & "C" \'D\''
    assert run_cli("board", "copolymer", "--preset", "small", "--title", title, "-o",
                   str(out)).code == 0
    root = ET.parse(out).getroot()
    assert root.find("{http://www.w3.org/2000/svg}title").text == title  # type: ignore[union-attr]


def test_failed_write_leaves_no_partial_file(tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    from boardgen import output

    target = tmp_path / "b.pdf"

    class Boom(Exception):
        pass

    def explode(*_: object) -> None:
        raise Boom

    monkeypatch.setattr(output.os, "replace", explode)
    with pytest.raises(Boom):
        output.write_atomic(target, b"data")
    assert list(tmp_path.iterdir()) == []


def test_unknown_command_and_game(run_cli: RunCli) -> None:
    for args in (["paint"], ["board", "chess"]):
        result = run_cli(*args)
        assert result.code == 2 and len(result.err.strip().splitlines()) == 1


def test_help_describes_every_option(run_cli: RunCli) -> None:
    result = run_cli("board", "--help")
    assert result.code == 0
    for option in ("--side", "--preset", "--diameter", "--shape", "--mask", "--paper",
                   "--orientation", "--cell-mm", "--labels", "--theme", "--title", "--format",
                   "-o, --output"):
        assert option in result.out


def test_help_names_the_games_only_as_they_declare_themselves(run_cli: RunCli) -> None:
    """The core's help words name no built-in game: the game list, how each prints its
    board as text, and the rest come from the games' declarations or say it neutrally."""
    import ast
    import re

    from conftest import ROOT

    from boardgen.games.registry import games

    declared = games()
    said = " ".join(run_cli("--help").out.split())
    assert all(game.name in said for game in declared.values()), said
    play_help = " ".join(run_cli("play", "--help").out.split())
    for game in declared.values():
        if game.text_help:
            assert game.text_help in play_help, game.key
    # The literal strings of the command line and the request layer (examples apart:
    # a line that starts with 'boardgen '), in every built-in game's words.
    names = re.compile(r"\b(?:copolymer|polygone|glyphs?|partisan)\b", re.IGNORECASE)
    for module in ("cli.py", "requests.py"):
        tree = ast.parse((ROOT / "boardgen" / module).read_text(encoding="utf-8"))
        functions = [node for node in ast.walk(tree)
                     if isinstance(node, ast.FunctionDef) and node.name.startswith("_")]
        private_docs = {ast.get_docstring(f, clean=False) for f in functions}
        for node in ast.walk(tree):
            if not isinstance(node, ast.Constant) or not isinstance(node.value, str) \
                    or node.value in private_docs:
                continue
            for line in node.value.splitlines():
                if not line.strip().startswith("boardgen "):
                    assert not names.search(line), (module, node.lineno, line)


def test_all_builds_the_default_boards(run_cli: RunCli, tmp_path: Path) -> None:
    result = run_cli("all", "-o", str(tmp_path / "out"))
    assert result.code == 0, result.err
    made = sorted(p.name for p in (tmp_path / "out").iterdir())
    assert "copolymer-side10.pdf" in made and "copolymer-side5.svg" in made
    assert not [name for name in made if name.endswith(".part")]


def test_installed_entry_point_runs() -> None:
    script = Path(sys.executable).parent / "boardgen"
    result = subprocess.run([str(script), "--version"], capture_output=True, text=True,
                            env={**os.environ}, check=False)
    assert result.returncode == 0 and "boardgen" in result.stdout


@pytest.mark.parametrize("extra", [["-o", "x.txt"], ["--list"], ["--fit"], ["--animate"],
                                   ["--theme", "ink"], ["--cell-mm", "9"]])
def test_diagram_syntax_refuses_what_it_would_ignore(run_cli: RunCli, tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch,
                                                     extra: list[str]) -> None:
    """--syntax prints the language and draws nothing: -o, --list, --fit, --animate ... are
    refused in one line, not silently dropped (it printed to stdout and wrote no file)."""
    monkeypatch.chdir(tmp_path)
    result = run_cli("diagram", "--syntax", "copolymer", *extra)
    one_line_error(result, "--syntax", extra[0] if extra[0] != "-o" else "--output")
    assert result.out == "" and not any(tmp_path.iterdir())
    assert "copolymer" in run_cli("diagram", "--syntax", "copolymer").out.lower()


def test_all_refuses_standard_output_as_its_folder(run_cli: RunCli, in_tmp: Path) -> None:
    """Every other command's '-o -' is standard output; 'all' writes a folder, so '-' is
    refused in one line (it made a folder named '-' and said so on standard output)."""
    result = run_cli("all", "-o", "-")
    assert result.code == 2 and "all writes a folder" in result.err
    assert len(result.err.strip().splitlines()) == 1 and not (in_tmp / "-").exists()
