"""Nothing for the command line on paper (issue 32): no option name, no "--" and no program
version on any printed page (boards, tiles, diagrams, the printer check, kits); what a page
advises it says in words ("for Go stones, print the board with 23 mm cells").  Main at
f4fc8bd printed "for Go stones: --cell-mm 23" on boards and tiles, "--cell-mm 9" … and
"--theme ink" on the printer check, and "boardgen 0.1.0" in their footers."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from pypdf import PdfReader

# Slow: left out of the quick subset (pytest -m "not slow"; the README says which).
pytestmark = pytest.mark.slow

VERSION = re.compile(r"\b\d+\.\d+\.\d+\b")

PRINTED = {
    "board": ["board", "copolymer", "--side", "5"],
    "tiled board": ["board", "copolymer", "--side", "10", "--cell-mm", "23"],
    "polygone board": ["board", "polygone"],
    "diagram": ["diagram", "copolymer", "tempo"],
    "printer check": ["calibrate"],
    "kit": ["kit", "o"],
}


@pytest.mark.parametrize("what", sorted(PRINTED))
def test_no_option_or_version_on_any_printed_page(what: str, run_cli, tmp_path: Path  # type: ignore[no-untyped-def]
                                                  ) -> None:
    out = tmp_path / "printed.pdf"
    assert run_cli(*PRINTED[what], "-o", str(out)).code == 0
    pages = PdfReader(io.BytesIO(out.read_bytes())).pages
    for number, page in enumerate(pages, start=1):
        text = page.extract_text()
        assert "--" not in text, f"{what} page {number}: {text!r}"
        assert not VERSION.search(text), f"{what} page {number}: {text!r}"


@pytest.mark.parametrize("game", ["copolymer", "o", "polygone"])
def test_an_html_sheet_prints_no_version(game: str, run_cli, tmp_path: Path  # type: ignore[no-untyped-def]
                                         ) -> None:
    """The HTML sheet prints too (its own print style sheet): the program's name and
    version are in its head, for a machine, never in the text of the page."""
    out = tmp_path / "sheet.html"
    assert run_cli("rules", game, "-o", str(out)).code == 0
    page = out.read_text(encoding="utf-8")
    head, body = page.split("</head>", 1)
    assert 'name="generator" content="boardgen ' in head
    text = re.sub(r"<[^>]+>", " ", re.sub(r"<(style|svg)\b.*?</\1>", " ", body, flags=re.S))
    assert not VERSION.search(text) and "--" not in text, text[-300:]


def test_boards_say_in_words_which_cells_other_pieces_need(run_cli, tmp_path: Path  # type: ignore[no-untyped-def]
                                                           ) -> None:
    out = tmp_path / "board.pdf"
    assert run_cli("board", "copolymer", "--side", "5", "-o", str(out)).code == 0
    text = " ".join(page.extract_text() for page in PdfReader(str(out)).pages)
    assert re.search(r"print the board with \d+ mm cells", " ".join(text.split())), text


def test_the_printer_check_names_its_cells_by_what_they_fit(run_cli, tmp_path: Path  # type: ignore[no-untyped-def]
                                                            ) -> None:
    out = tmp_path / "check.pdf"
    assert run_cli("calibrate", "-o", str(out)).code == 0
    text = " ".join(PdfReader(str(out)).pages[0].extract_text().split())
    for fits in ("for 8 mm beads", "for Go stones"):
        assert fits in text, text
