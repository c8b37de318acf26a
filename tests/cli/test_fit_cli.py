"""``--fit`` on the command line: board, diagram and play -o write a page cropped to the
drawing; the options it cannot go with are refused in one line, with no file written."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from conftest import one_line_error
from pypdf import PdfReader

import boardgen

MM_PER_PT = 25.4 / 72


def page_sizes(path: Path) -> list[tuple[float, float]]:
    reader = PdfReader(io.BytesIO(path.read_bytes()))
    return [(float(p.mediabox.width) * MM_PER_PT, float(p.mediabox.height) * MM_PER_PT)
            for p in reader.pages]


@pytest.mark.parametrize("args", [
    ("board", "copolymer", "--side", "4"),
    ("diagram", "copolymer", "tempo"),
    ("play", "copolymer", "--side", "3", "--moves", "C3 B2 C2 D3"),
    ("play", "copolymer", "--side", "3", "--moves", "C3 B2 C2 D3", "--every", "2"),
])
def test_fit_crops_the_page(run_cli, in_tmp: Path, args: tuple[str, ...]) -> None:  # type: ignore[no-untyped-def]
    whole = run_cli(*args, "-o", "whole.pdf")
    fitted = run_cli(*args, "--fit", "-o", "fitted.pdf")
    assert whole.code == 0 and fitted.code == 0, (whole.err, fitted.err)
    ((width, height),) = page_sizes(in_tmp / "fitted.pdf")
    ((a4_w, a4_h),) = page_sizes(in_tmp / "whole.pdf")
    assert (round(a4_w), round(a4_h)) == (210, 297)
    assert width < a4_w and height < a4_h  # these drawings are smaller than the paper


@pytest.mark.parametrize("args, fragments", [
    (("board", "o", "--fit", "--shop", "generic", "-o", "x.pdf"), ("--fit", "--shop")),
    (("board", "o", "--fit", "--cutter", "laser", "-o", "x.svg"), ("--fit", "--cutter")),
    (("diagram", "copolymer", "tempo", "--fit", "--animate", "-o", "x.gif"),
     ("--fit", "--animate")),
    (("play", "copolymer", "--side", "3", "--fit"), ("--fit", "-o")),
    (("board", "o", "--paper", "fit", "-o", "x.pdf"), ("paper 'fit'", "--fit")),
])
def test_fit_refusals(run_cli, in_tmp: Path, args: tuple[str, ...],  # type: ignore[no-untyped-def]
                      fragments: tuple[str, ...]) -> None:
    one_line_error(run_cli(*args), *fragments)
    assert not any(in_tmp.iterdir())


@pytest.mark.parametrize("command", ["board", "diagram", "play"])
def test_help_says_a_fitted_page_is_never_tiled(run_cli, command: str) -> None:  # type: ignore[no-untyped-def]
    text = " ".join(run_cli(command, "--help").out.split())
    assert "--fit" in text and "never tiled" in text


def _svg_text(path: Path) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", path.read_text(encoding="utf-8")).split())


@pytest.mark.parametrize("extra", [(), ("--every", "2")])
def test_a_fitted_position_has_no_title_band(run_cli, in_tmp: Path,  # type: ignore[no-untyped-def]
                                             extra: tuple[str, ...]) -> None:
    """As --fit's help says: a position (or a strip) fitted has no default title, only the
    designer's credit; a --title given is kept; unfitted, the title is drawn."""
    args = ("play", "copolymer", "--side", "3", "--moves", "C3 B2", *extra)
    assert run_cli(*args, "-o", "whole.svg").code == 0
    assert run_cli(*args, "--fit", "-o", "fitted.svg").code == 0
    assert run_cli(*args, "--fit", "--title", "Opening", "-o", "titled.svg").code == 0
    heading = "Copolymer after 2 moves" if not extra else "Copolymer: the position every"
    assert heading in _svg_text(in_tmp / "whole.svg")
    fitted = _svg_text(in_tmp / "fitted.svg")
    assert "Copolymer after" not in fitted and "the position every" not in fitted
    assert "Mark Steere" in fitted
    assert "Opening" in _svg_text(in_tmp / "titled.svg")
    help_text = " ".join(run_cli("play", "--help").out.split())
    assert "no title band" in help_text and "none with --fit" in help_text


def test_the_api_s_fitted_position_has_no_title_band() -> None:
    position = boardgen.play("copolymer", "C3 B2", side=3)
    for marks in (None, {"C2": "dot"}):  # drawn plain, and as a designer's annotated one
        fitted = boardgen.draw(position, "svg", fit=True, marks=marks)
        whole = boardgen.draw(position, "svg", marks=marks)
        assert "Copolymer after 2 moves" in whole
        assert "Copolymer after 2 moves" not in fitted


@pytest.mark.parametrize("game", ["o", "copolymer", "polygone"])
def test_a_fitted_board_still_credits_its_designer(  # type: ignore[no-untyped-def]
        game: str, run_cli, tmp_path: Path) -> None:
    """A fitted board has no page furniture, yet the designer's credit stays on it (Steere
    asks that his games be credited), under the 50 mm bar."""
    out = tmp_path / "board.pdf"
    result = run_cli("board", game, "--fit", "-o", str(out))
    assert result.code == 0, result.err
    text = " ".join(" ".join(page.extract_text() for page in PdfReader(out).pages).split())
    designer = "Fabien Vandenbussche" if game == "polygone" else "Mark Steere"
    assert f"by {designer}" in text
