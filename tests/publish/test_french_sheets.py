"""French rule sheets (issue 36), read from the files themselves: the language set (PDF /Lang
fr-FR, HTML lang), PDF/UA-1 kept, no English left on a French page (its text checked
against English function words), French spacing before ; : ! ? and inside « », the decimal
comma, the page budgets, and the same bytes for the same input.

Every game with a French sheet in the package is checked; on a branch without them, the
tests' own French fixture (tests/i18n_fixture) stands in for Copolymer's."""

from __future__ import annotations

import functools
import io
import re

import pypdfium2 as pdfium
import pytest
from conftest import TESTS
from pypdf import PdfReader

from boardgen.games.registry import game_named, games
from boardgen.i18n import speaking, tr
from boardgen.publish.sheet import render_sheet_html
from boardgen.publish.typeset import render_sheet_pdf
from boardgen.render.paper import parse_paper
from boardgen.render.scene import THEMES

pytestmark = pytest.mark.slow

FIXTURE = TESTS / "i18n_fixture"
PAGE_BUDGET = {"copolymer": 3, "o": 4, "polygone": 6}  # as the English sheets' (issue 21)
# Words English uses all the time and French never (French "a", "on", "son", "plus" and
# the like left out): one on a French page is English that slipped through.
ENGLISH_WORDS = {"the", "and", "of", "to", "is", "with", "at", "by", "for", "from", "this",
                 "that", "it", "its", "an", "or", "not", "may", "must", "if", "then", "when",
                 "be", "are", "was", "which", "each", "into", "only", "all", "who", "what",
                 "where", "there", "their", "they", "you", "your", "can", "cannot", "has",
                 "have", "will", "would", "here", "turn", "move", "board", "cell", "cells",
                 "piece", "pieces", "stone", "stones", "print", "page", "wins"}
ENGLISH_WORDS -= {"page"}  # the same word in French ("page 1 sur 3")


def french_games() -> list[str]:
    own = [key for key, game in games().items()
           if (game.template_folder / "sheet.fr.md").is_file()]
    return own or ["copolymer"]


@pytest.fixture(autouse=True)
def fixture_if_needed(monkeypatch: pytest.MonkeyPatch) -> None:
    if not (game_named("copolymer").template_folder / "sheet.fr.md").is_file():
        monkeypatch.setenv("BOARDGEN_LANGUAGES", str(FIXTURE))
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")


@functools.cache
def _french_pdf(game: str, quick: bool, fixture: bool) -> bytes:
    with speaking("fr"):
        return render_sheet_pdf(game, paper=parse_paper("a4"), theme=THEMES["colour"],
                                quick=quick)


def french_pdf(game: str, quick: bool) -> bytes:
    import os

    return _french_pdf(game, quick, "BOARDGEN_LANGUAGES" in os.environ)


def text_of(pdf: bytes) -> str:
    document = pdfium.PdfDocument(pdf)
    return "\n".join(document[i].get_textpage().get_text_range()
                     for i in range(len(document)))


CASES = [(game, quick) for game in french_games() for quick in (False, True)]


@pytest.mark.parametrize(("game", "quick"), CASES)
def test_a_french_sheet_says_it_is_french_and_stays_pdf_ua(game: str, quick: bool) -> None:
    reader = PdfReader(io.BytesIO(french_pdf(game, quick)))
    root = reader.trailer["/Root"]
    assert str(root["/Lang"]) == "fr-FR"
    assert "/StructTreeRoot" in root and bool(root["/MarkInfo"]["/Marked"])
    xmp = root["/Metadata"].get_object().get_data().decode("utf-8")
    assert re.search(r"<pdfuaid:part>1</pdfuaid:part>|pdfuaid:part=\"1\"", xmp)
    assert len(reader.pages) <= (1 if quick else PAGE_BUDGET[game])


@pytest.mark.parametrize(("game", "quick"), CASES)
def test_no_english_on_a_french_page(game: str, quick: bool) -> None:
    text = text_of(french_pdf(game, quick))
    words = re.findall(r"[^\W\d_]+", text)
    english = sorted({w for w in words if w.lower() in ENGLISH_WORDS})
    assert english == [], [line for line in text.splitlines()
                           if set(re.findall(r"[^\W\d_]+", line.lower())) & ENGLISH_WORDS]
    assert len(words) > 150  # a page of words was read


@pytest.mark.parametrize(("game", "quick"), CASES)
def test_french_spacing_and_decimal_comma(game: str, quick: bool) -> None:
    text = text_of(french_pdf(game, quick))
    # The long texts drawn inside a figure (a tracker's and a sheet of pieces' words) are
    # SVG text, and Typst's SVG reader turns every no-break space into a plain one: they
    # are checked in the SVG we write (test_figure_texts_carry_french_spacing), and left
    # out here, word for word.
    for figure_text in svg_figure_texts(game):
        words = [r"\S+" if "{" in w else re.escape(w) for w in figure_text
                 .replace("\u00a0", " ").replace("\u202f", " ").split()]
        text, found = re.subn(r"\s+".join(words), " ", text)
        assert found or quick, figure_text  # the words are there (the board pages), left out
    # Before ; ! ? a narrow no-break space, before : a no-break one, and inside « » a
    # no-break one: never an ordinary space, never none.  (The text as pdfium reads it:
    # a no-break space stretched by justification may come out followed by a space.)
    said = lambda pattern: re.findall(".{0,12}" + pattern + ".{0,4}", text)  # noqa: E731
    assert not said(r"(?<=[^\s\u00a0\u202f]) [;:!?](?=\s|$)"), said(r" [;:!?]")
    assert not said(r"(?<=\w)[;!?](?=\s|$)"), "a ; ! or ? glued to its word"
    assert not said(r"(?<=[^\W\d]):(?=\s|$)"), "a colon glued to its word"
    assert not said(r"«(?!\u00a0)") and not said(r"(?<!\u00a0)»"), said("[«»]")
    assert "\u202f" in text or quick  # a sheet has a ; or a ? somewhere
    assert "\u00a0:" in text
    assert not re.search(r"\d\.\d+\s?mm", text)  # 12,5 mm, never 12.5 mm


def svg_figure_texts(game: str) -> list[str]:
    """The long words a game's sheet draws inside figures, in French."""
    from boardgen.publish.tracker import tracker_intro

    description = game_named(game)
    said = []
    with speaking("fr"):
        if description.kit.tracker is not None:
            said.append(tracker_intro(description.kit.tracker))
        fixed = description.fixed_board
        if fixed is not None and fixed.strips is not None:
            said.append(tr(fixed.strips.caption))
    return said


def test_figure_texts_carry_french_spacing() -> None:
    from boardgen.render.figure import Figure, Text
    from boardgen.render.svg import render_svg

    with speaking("fr"):
        figure = Figure(60.0, 20.0, 5.0, (), [], [Text(1.0, 5.0, "Prises : « deux » ; oui !",
                                                       3.0, "caption", "start")])
        svg = render_svg(figure, theme=THEMES["colour"], text_as="text")
    assert "Prises\u00a0: «\u00a0deux\u00a0» \u202f; oui\u202f!" in svg or \
        "Prises\u00a0: «\u00a0deux\u00a0»\u202f; oui\u202f!" in svg, svg[-300:]


@pytest.mark.parametrize("game", french_games())
def test_the_same_bytes_for_the_same_input(game: str) -> None:
    with speaking("fr"):
        again = render_sheet_pdf(game, paper=parse_paper("a4"), theme=THEMES["colour"])
    assert again == french_pdf(game, False)
    with speaking("fr"):
        html = [render_sheet_html(game, theme=THEMES["colour"]) for _ in range(2)]
    assert html[0] == html[1]


@pytest.mark.parametrize("game", french_games())
def test_the_html_sheet_is_french(game: str) -> None:
    with speaking("fr"):
        page = render_sheet_html(game, theme=THEMES["colour"]).decode("utf-8")
    assert '<html lang="fr-FR">' in page
    assert f'href="{game}-rules-fr.pdf"' in page
    assert "La fiche à imprimer (PDF)" in page
    assert "\u00a0:" in page and not re.search(r"\w :\s", page), \
        re.findall(r".{30}\w :\s.{10}", page)
