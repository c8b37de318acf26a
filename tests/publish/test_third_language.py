"""A third language is added by adding files only (issue 36): a catalog and a sheet in a
folder of its own, named by BOARDGEN_LANGUAGES; boardgen then prints a sheet in it, its
footer, captions and key from the catalog, its PDF saying its language."""

from __future__ import annotations

import io
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po, write_po
from conftest import ROOT, Run
from pypdf import PdfReader

pytestmark = pytest.mark.slow

# A few of boardgen's messages in Esperanto, enough to see them on the page: the rest of
# a catalog left untranslated prints its English (a test of the French catalog, not of
# this one, checks that no message is left out).
WORDS = {
    "page": "paĝo",
    "of": "el",
    "{game} by {designer} ({year})": "{game} de {designer} ({year})",
    "Numbered: the cells of the turn, in the order placed.":
        "Numeritaj: la ĉeloj de la vico, laŭ la ordo de metado.",
    "{player} to play, with connections open at {cells}.":
        "{player} ludas, kun konektoj malfermitaj ĉe {cells}.",
}

SHEET = """# Kopolimero

Ĉiun vicon ludanto kolorigas malplenan ĉelon. Ĉelo kiu tuŝas almenaŭ du ĉelojn de la
kontraŭulo estas **konekto**: tiam la vico daŭras.

::: diagram copolymer forced
"""

DIAGRAM = (ROOT / "templates" / "copolymer" / "forced.txt").read_text(encoding="utf-8") \
    .replace("title: Forced connections: nothing else is empty",
             "title: Devigitaj konektoj")


@pytest.fixture
def esperanto(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "esperanto"
    messages = folder / "locale" / "eo" / "LC_MESSAGES"
    messages.mkdir(parents=True)
    catalog = Catalog(locale="eo", domain="boardgen")
    with (ROOT / "boardgen" / "locale" / "boardgen.pot").open("rb") as handle:
        template = read_po(handle)
    for message in template:
        if message.id in WORDS:
            catalog.add(message.id, WORDS[message.id])
    with (messages / "boardgen.po").open("wb") as handle:
        write_po(handle, catalog)
    games = folder / "templates" / "copolymer"
    games.mkdir(parents=True)
    (games / "sheet.eo.md").write_text(SHEET, encoding="utf-8")
    (games / "forced.eo.txt").write_text(DIAGRAM, encoding="utf-8")
    monkeypatch.setenv("BOARDGEN_LANGUAGES", str(folder))
    return folder


def test_a_third_language_from_files_only(esperanto: Path, run_cli, in_tmp: Path) -> None:
    result: Run = run_cli("rules", "copolymer", "--lang", "eo", "-o", "eo.pdf")
    assert result.code == 0, result.err
    data = (in_tmp / "eo.pdf").read_bytes()
    assert str(PdfReader(io.BytesIO(data)).trailer["/Root"]["/Lang"]) == "eo"
    document = pdfium.PdfDocument(data)
    text = " ".join(" ".join(document[i].get_textpage().get_text_range()
                             for i in range(len(document))).split())
    assert "Kopolimero" in text and "Devigitaj konektoj" in text
    assert "Numeritaj: la ĉeloj" in text  # the key's note, from the catalog
    assert "Copolymer de Mark Steere (2006)" in text and "paĝo 1 el" in text


def test_the_language_is_listed_and_checked(esperanto: Path, run_cli, in_tmp: Path) -> None:
    from boardgen.i18n import languages

    assert languages() == ("en", "eo", "fr")
    # A language with a catalog but no sheet for a game: refused, not printed in English.
    result = run_cli("rules", "o", "--lang", "eo", "-o", "o.pdf")
    assert result.code == 2 and "sheet.eo.md is missing" in result.err
    assert not (in_tmp / "o.pdf").exists()
