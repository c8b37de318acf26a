"""The rule sheets as PDF files (issue 21): tagged PDF/UA-1 with a Figure and its text
alternative per diagram, the board at exact scale, identical bytes for identical input,
dates only from SOURCE_DATE_EPOCH, markup errors named FILE:LINE, players' wording only."""

from __future__ import annotations

import functools
import io
import math
import re
from pathlib import Path

import pytest
from pdfdata import read_pages, ruled_bars, structure_elements
from pypdf import PdfReader

from boardgen.errors import BoardgenError
from boardgen.publish.sheet import _sheet_diagram, load_sheet
from boardgen.publish.typeset import render_sheet_pdf
from boardgen.render.diagram import describe
from boardgen.render.paper import parse_paper
from boardgen.render.scene import THEMES

# Slow: left out of the quick subset (pytest -m "not slow"; the README says which).
pytestmark = pytest.mark.slow

GAMES = ("copolymer", "o", "polygone")
PAPERS = ("a4", "letter")


@functools.cache
def sheet(game: str, paper: str = "a4", quick: bool = False) -> bytes:
    return render_sheet_pdf(game, paper=parse_paper(paper), theme=THEMES["colour"],
                            quick=quick)


def _said(text: str) -> str:
    return " ".join(text.translate(str.maketrans("\u2018\u2019\u201c\u201d\u00a0",
                                                 "''\"\" ")).split())


@pytest.mark.parametrize("quick", [False, True])
@pytest.mark.parametrize("game", GAMES)
def test_the_sheet_is_tagged_pdf_ua_1(game: str, quick: bool) -> None:
    reader = PdfReader(io.BytesIO(sheet(game, "a4", quick)))
    root = reader.trailer["/Root"]
    assert "/StructTreeRoot" in root
    assert bool(root["/MarkInfo"]["/Marked"])
    assert str(root["/Lang"]).startswith("en")
    assert bool(root["/ViewerPreferences"]["/DisplayDocTitle"])
    xmp = root["/Metadata"].get_object().get_data().decode("utf-8")
    assert re.search(r"<pdfuaid:part>1</pdfuaid:part>|pdfuaid:part=\"1\"", xmp), xmp[:400]
    title = load_sheet(game, quick)[0].text
    assert reader.metadata is not None and reader.metadata.title == title
    elements = structure_elements(reader)
    kinds = [str(e["/S"]) for e in elements]
    assert "/H1" in kinds and "/P" in kinds
    if not quick:
        assert "/H2" in kinds


@pytest.mark.parametrize("quick", [False, True])
@pytest.mark.parametrize("game", GAMES)
def test_one_figure_with_its_text_alternative_per_diagram(game: str, quick: bool) -> None:
    """Each diagram is one Figure whose alternative text is the engine-made description
    (every panel's stones or pieces, and its caption); the board and its scale bar are
    Figures of their own, described in words."""
    reader = PdfReader(io.BytesIO(sheet(game, "a4", quick)))
    figures = [e for e in structure_elements(reader) if e["/S"] == "/Figure"]
    assert all("/Alt" in f and str(f["/Alt"]).strip() for f in figures)
    alts = [_said(str(f["/Alt"])) for f in figures]
    names = [b.args[1] for b in load_sheet(game, quick) if b.kind == "diagram"]
    for name in names:
        described = _said(describe(_sheet_diagram(game, name, quick)))
        assert alts.count(described) == 1, (name, described[:120])
    others = [a for a in alts if not any(a == _said(describe(_sheet_diagram(game, n, quick)))
                                         for n in names)]
    boards = 0 if quick else (2 if game == "polygone" else 1)
    # The board (and Polygone's pieces), each with a scale bar; Polygone's capture tracker
    # folded onto the pieces' page, a Figure of its own.
    trackers = 0 if quick or game != "polygone" else 1
    assert len(others) == 2 * boards + trackers, others
    assert sum("actual size" in a for a in others) == 2 * boards
    assert sum("capture tracker" in a for a in others) == trackers


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("game", ["copolymer", "o"])
def test_the_board_prints_at_exact_scale(game: str, paper: str) -> None:
    """On the board page the 50 mm bar measures 50 mm and neighbouring cells' centres are
    the cell width the page states apart, read from the PDF's own vectors."""
    pages = read_pages(sheet(game, paper))
    board = pages[-1]
    assert [round(b, 2) for b in ruled_bars(board)] == [50.0]
    said = re.search(r"Each cell is (\d+\.\d)[ \u00a0]mm flat to flat", board.text)
    assert said, board.text[:300]
    centres = board.hexagons
    assert len(centres) >= 91
    nearest = sorted(min(math.dist(c, d) for d in centres if d is not c) for c in centres)
    assert nearest[len(nearest) // 2] == pytest.approx(float(said.group(1)), abs=0.051)


def test_the_pieces_and_board_pages_of_polygone_carry_a_50_mm_bar() -> None:
    pages = read_pages(sheet("polygone", "a4"))
    assert [round(b, 2) for p in pages[-2:] for b in ruled_bars(p)] == [50.0, 50.0]
    assert "holes are" in pages[-2].text


def test_the_bar_check_catches_a_short_bar(monkeypatch: pytest.MonkeyPatch) -> None:
    import boardgen.publish.typeset as typeset

    monkeypatch.setattr(typeset, "SCALE_BAR_MM", 48.0)
    pdf = render_sheet_pdf("o", paper=parse_paper("a4"), theme=THEMES["colour"])
    assert [round(b, 2) for b in ruled_bars(read_pages(pdf)[-1])] == [48.0]


def test_identical_input_gives_identical_bytes(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)
    first = render_sheet_pdf("o", paper=parse_paper("letter"), theme=THEMES["ink"])
    second = render_sheet_pdf("o", paper=parse_paper("letter"), theme=THEMES["ink"])
    assert first == second
    reader = PdfReader(io.BytesIO(first))
    assert reader.metadata is not None and "/CreationDate" not in reader.metadata


def test_the_date_comes_from_source_date_epoch(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")  # 2023-11-14 22:13:20 UTC
    pdf = render_sheet_pdf("copolymer", paper=parse_paper("a4"), theme=THEMES["colour"],
                           quick=True)
    reader = PdfReader(io.BytesIO(pdf))
    assert reader.metadata is not None
    assert str(reader.metadata["/CreationDate"]).startswith("D:20231114")
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "yesterday")
    with pytest.raises(BoardgenError, match="SOURCE_DATE_EPOCH"):
        render_sheet_pdf("copolymer", paper=parse_paper("a4"), theme=THEMES["colour"],
                         quick=True)


def test_the_pdf_asks_to_print_at_actual_size_and_stays_readable() -> None:
    """Typst's PDF with /PrintScaling /None added: every object is still where the
    cross-reference table says (a strict reader agrees)."""
    data = sheet("polygone", "letter")
    reader = PdfReader(io.BytesIO(data), strict=True)
    assert reader.trailer["/Root"]["/ViewerPreferences"]["/PrintScaling"] == "/None"
    for number in range(1, int(reader.trailer["/Size"])):
        try:
            reader.get_object(number)
        except Exception as exc:  # noqa: BLE001 - any failure is the finding
            pytest.fail(f"object {number} unreadable: {exc}")
    offsets = re.search(rb"xref\n0 (\d+)\n", data)
    assert offsets is not None
    table = data[offsets.end():offsets.end() + 20 * int(offsets.group(1))]
    for k in range(1, int(offsets.group(1))):
        offset = int(table[20 * k:20 * k + 10])
        assert data[offset:].startswith(b"%d 0 obj" % k), k


@pytest.mark.parametrize("game", GAMES)
def test_players_sheets_name_no_program_option(game: str) -> None:
    """No command-line option on a printed sheet; the board page says in words what fits."""
    text = _said(" ".join(page.extract_text() for page in
                          PdfReader(io.BytesIO(sheet(game, "a4"))).pages))
    assert not re.search(r"(^|\s)--[a-z]", text), re.search(r".{30}--[a-z].{20}", text)
    if game != "polygone":
        assert re.search(r"Pieces up to \d+ mm across fit its cells", text)
        assert "need a board with larger cells" in text or "Go stones." in text


def _broken_sheet(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, text: str) -> Path:
    import boardgen.publish.sheet as sheet_module

    path = tmp_path / "o" / "sheet.md"
    path.parent.mkdir()
    path.write_text(text, encoding="utf-8")
    monkeypatch.setattr(sheet_module, "sheet_path", lambda game, quick=False: path)
    return path


@pytest.mark.parametrize(("text", "line", "what"), [
    ("# O\n\nA first paragraph.\n\nA second with **bold\nthat never\ncloses.\n", 5, "'**'"),
    ("# O\n\n- one item\n- a *second\n  item\n", 4, "'*'"),
    ("# O\n\nSome `code that\n\nruns on.\n", 3, "'`'"),
    ("# O\n\n::: diagram o no-such-picture\n", 3, "no-such-picture"),
    ("# O\n\n::: picture o loop\n", 3, "unknown directive"),
])
def test_a_markup_error_names_the_template_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                 text: str, line: int, what: str) -> None:
    path = _broken_sheet(tmp_path, monkeypatch, text)
    with pytest.raises(BoardgenError) as raised:
        render_sheet_pdf("o", paper=parse_paper("a4"), theme=THEMES["colour"])
    message = str(raised.value)
    assert message.startswith(f"{path}:{line}:") and what in message, message
    assert "\n" not in message


def test_a_markup_error_is_one_line_from_the_cli(run_cli, tmp_path: Path,  # type: ignore[no-untyped-def]
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    path = _broken_sheet(tmp_path, monkeypatch, "# O\n\nText with **no end.\n")
    result = run_cli("rules", "o", "-o", str(tmp_path / "o.pdf"))
    assert result.code == 2
    assert result.err.strip() == result.err.strip().splitlines()[0]
    assert f"{path}:3:" in result.err
    assert not (tmp_path / "o.pdf").exists()


def test_a_figure_longer_than_a_page_continues_under_its_title() -> None:
    """On A5 the Tempo strip is longer than a page: its panels carry on at the top of the
    next page under the title and "(continued)", before any other text."""
    pdf = render_sheet_pdf("copolymer", paper=parse_paper("148x210mm"),
                           theme=THEMES["colour"])
    texts = [page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages]
    title = "Tempo: three connections open, only one taken"
    first = next(k for k, text in enumerate(texts) if title in _said(text))
    following = _said(texts[first + 1])
    assert following.startswith(f"{title} (continued)"), following[:80]
    assert "(continued)" not in _said(texts[first])


def test_a_figure_split_over_two_pages_says_so_in_its_alternative_text() -> None:
    """A reader who hears the figures, not sees them, is told that the Tempo strip on A5
    goes on over the page, and the part over the page is told apart as its continuation."""
    pdf = render_sheet_pdf("copolymer", paper=parse_paper("148x210mm"),
                           theme=THEMES["colour"])
    reader = PdfReader(io.BytesIO(pdf))
    alts = [_said(str(e["/Alt"])) for e in structure_elements(reader)
            if e["/S"] == "/Figure" and "/Alt" in e]
    title = "Tempo: three connections open, only one taken"
    described = _said(describe(_sheet_diagram("copolymer", "tempo", False)))
    first = [a for a in alts if a.startswith(described)]
    assert first == [f"{described} The figure continues on the next page."], first
    later = [a for a in alts if a.startswith(f"{title} (continued)")]
    assert later == [f"{title} (continued): more panels of the figure that starts on the "
                     "previous page, described there."], later
    assert alts.index(first[0]) + 1 == alts.index(later[0])  # the one after the other
    # On A4 the strip fits one page: its description alone, and no continuation.
    whole = [_said(str(e["/Alt"])) for e in structure_elements(PdfReader(io.BytesIO(
        sheet("copolymer", "a4", False)))) if e["/S"] == "/Figure" and "/Alt" in e]
    assert described in whole and not any("continue" in a for a in whole)


def test_building_in_workers_after_typesetting_does_not_hang() -> None:
    """Typst keeps a pool of threads: a process forked after a compile hangs on its own.
    The gallery sets the sheets in the main process and forks workers for the rest, so a
    process that has already typeset (a test run, an API user) can still build everything."""
    import subprocess
    import sys

    script = """
from functools import partial
from boardgen.publish.gallery import Job, run_jobs
from boardgen.publish.sheet import render_sheet_html
from boardgen.publish.typeset import render_sheet_pdf
from boardgen.render.paper import parse_paper
from boardgen.render.scene import THEMES
paper, theme = parse_paper("a4"), THEMES["colour"]
render_sheet_pdf("o", paper=paper, theme=theme, quick=True)
jobs = [Job("a.pdf", "o", "rules", partial(render_sheet_pdf, "o", paper=paper, theme=theme,
                                         quick=True), in_main=True),
        Job("a.html", "o", "rules", partial(render_sheet_html, "o", theme=theme, quick=True)),
        Job("b.html", "o", "rules", partial(render_sheet_html, "copolymer", theme=theme,
                                          quick=True))]
built = list(run_jobs(jobs, 2))
assert len(built) == 3 and all(b.data for b in built), built
print("built", len(built))
"""
    import os
    import signal

    # A session of its own, so that a hang is ended with its forked workers.
    process = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        out, err = process.communicate(timeout=240)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.communicate()
        pytest.fail("building in workers after a compile hung")
    assert process.returncode == 0 and "built 3" in out, err[-800:]


def test_sheets_go_to_the_workers_until_the_main_process_has_typeset() -> None:
    """A job marked in_main (a sheet, a kit) is built by a worker while the main process
    has never used Typst (boardgen all: the main process setting them alone finished
    last), and by the main process once it has."""
    import subprocess
    import sys

    script = """
import os
from boardgen.publish.gallery import Job, run_jobs
from boardgen.publish.typeset import render_sheet_pdf, typesetter_used
from boardgen.render.paper import parse_paper
from boardgen.render.scene import THEMES

def where():
    return str(os.getpid()).encode()

def builders():
    jobs = [Job(f"{k}.html", "o", "rules", where, in_main=True) for k in range(3)]
    jobs.append(Job("x.html", "o", "rules", where))
    built = sorted(run_jobs(jobs, 2), key=lambda b: b.index)
    return [int(b.data) == os.getpid() for b in built]

assert not typesetter_used()
print("before", builders())
render_sheet_pdf("o", paper=parse_paper("a4"), theme=THEMES["colour"], quick=True)
assert typesetter_used()
print("after", builders())
"""
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                            timeout=240, check=False)
    assert result.returncode == 0, result.stderr[-800:]
    assert "before [False, False, False, False]" in result.stdout, result.stdout
    assert "after [True, True, True, False]" in result.stdout, result.stdout


@pytest.mark.parametrize("game", GAMES)
def test_page_furniture_is_an_artifact_and_the_rest_is_tagged(game: str) -> None:
    """The footer (credit, page N of M) is marked as an artifact; every other text is
    inside tagged content, so a screen reader reads the rules and not the footers."""
    from pypdf.generic import ContentStream

    reader = PdfReader(io.BytesIO(sheet(game, "a4")))
    for number, page in enumerate(reader.pages, start=1):
        stack: list[str] = []
        y = 0.0
        furniture, untagged, tagged = 0, 0, 0
        for operands, op in ContentStream(page.get_contents(), reader).operations:
            if op in (b"BMC", b"BDC"):
                stack.append(str(operands[0]))
            elif op == b"EMC":
                stack.pop()
            elif op == b"Tm":
                y = float(operands[5]) * 25.4 / 72
            elif op in (b"TJ", b"Tj"):
                if "/Artifact" in stack:
                    assert y < 15.0, f"page {number}: an artifact text at {y:.1f} mm"
                    furniture += 1
                elif stack:
                    tagged += 1
                else:
                    untagged += 1
        assert furniture >= 1 and tagged >= 1 and untagged == 0, (number, furniture,
                                                                   tagged, untagged)
