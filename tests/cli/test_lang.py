"""--lang (issue 36): every command that prints words takes it, refuses an unknown language
or a missing translation with one line, and writes its words in the language asked for;
the API's lang= the same.  The French templates used here are the small fixture under
tests/i18n_fixture, found through BOARDGEN_LANGUAGES as any extra language's files are."""

from __future__ import annotations

import dataclasses
import io
import re
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from conftest import TESTS, Run, one_line_error
from pypdf import PdfReader

import boardgen
from boardgen.i18n import speaking, tr

FIXTURE = TESTS / "i18n_fixture"


@pytest.fixture
def french_fixture(monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("BOARDGEN_LANGUAGES", str(FIXTURE))
    return FIXTURE


def pdf_text(data: bytes) -> str:
    pdf = pdfium.PdfDocument(data)
    text = "\n".join(pdf[i].get_textpage().get_text_range() for i in range(len(pdf)))
    return " ".join(text.split())  # lines joined: a caption wraps anywhere


def pdf_lang(data: bytes) -> str:
    return str(PdfReader(io.BytesIO(data)).trailer["/Root"].get("/Lang"))


@pytest.mark.parametrize("command", [
    ["board", "copolymer"], ["play", "copolymer", "--moves", "C3", "-o", "p.svg"],
    ["diagram", "copolymer", "forced"], ["rules", "copolymer"], ["kit", "copolymer"],
    ["calibrate"], ["all"],
])
def test_an_unknown_language_is_one_line(command: list[str], run_cli, in_tmp: Path) -> None:
    result: Run = run_cli(*command, "--lang", "xx")
    one_line_error(result, "--lang", "unknown language 'xx'", "en, fr")
    assert not any(in_tmp.rglob("*.*"))


@pytest.fixture
def copolymer_in_english_only(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """Copolymer's template folder copied without its French files (NAME.fr.*), in place
    of its own: a game whose translation is missing."""
    import shutil

    from boardgen.games.registry import game_named

    game = game_named("copolymer")
    folder = tmp_path / "copolymer-en"
    shutil.copytree(game.template_folder, folder,
                    ignore=lambda _, names: [n for n in names if ".fr." in n])
    monkeypatch.setattr(type(game), "template_folder", property(lambda self: folder))
    return folder


def test_a_missing_translation_is_refused_not_replaced_by_english(
        run_cli, in_tmp: Path, copolymer_in_english_only: Path) -> None:
    # No French sheet, and none named by the environment: the French page is refused,
    # never printed in English.
    result = run_cli("rules", "copolymer", "--lang", "fr", "-o", "r.pdf", "--paper", "a4")
    one_line_error(result, "sheet.md has no translation into French", "sheet.fr.md")
    assert not (in_tmp / "r.pdf").exists()


def test_a_diagram_without_its_translation_is_refused(
        run_cli, in_tmp: Path, copolymer_in_english_only: Path) -> None:
    result = run_cli("diagram", "copolymer", "tempo", "--lang", "fr", "-o", "t.svg")
    one_line_error(result, "tempo.txt has no translation into French", "tempo.fr.txt")
    assert not (in_tmp / "t.svg").exists()


def test_diagram_in_french(run_cli, in_tmp: Path, french_fixture: Path) -> None:
    english = run_cli("diagram", "copolymer", "forced", "-o", "en.pdf")
    french = run_cli("diagram", "copolymer", "forced", "--lang", "fr", "-o", "fr.pdf")
    assert english.code == french.code == 0, (english.err, french.err)
    en, fr = (in_tmp / "en.pdf").read_bytes(), (in_tmp / "fr.pdf").read_bytes()
    text = pdf_text(fr)
    assert "Connexions forcées" in text and "Départ" in text
    assert "doit faire une connexion en B2" in text  # the engine's caption, from the catalog
    assert "Forced connections" in pdf_text(en) and "Forced" not in text
    assert pdf_lang(fr) == "fr-FR" and pdf_lang(en) == "en-GB"


def test_board_and_printer_check_in_french(run_cli, in_tmp: Path) -> None:
    assert run_cli("board", "copolymer", "--side", "5", "--cell-mm", "12.5", "--lang", "fr",
                   "-o", "b.pdf").code == 0
    board = (in_tmp / "b.pdf").read_bytes()
    text = pdf_text(board)
    assert pdf_lang(board) == "fr-FR"
    assert "12,5\u00a0mm" in text or "12,5 mm" in text  # the decimal comma
    assert "12.5" not in text
    assert "Imprimer à 100" in text and "Print at" not in text
    assert run_cli("calibrate", "--lang", "fr", "-o", "c.pdf").code == 0
    check = (in_tmp / "c.pdf").read_bytes()
    text = pdf_text(check)
    assert pdf_lang(check) == "fr-FR"
    assert "Vérification de l’imprimante" in text and "Printer check" not in text
    assert "page 1 sur 1" in text


def test_default_file_names_say_the_language(run_cli, in_tmp: Path) -> None:
    assert run_cli("board", "o", "--lang", "fr").code == 0
    assert run_cli("board", "o").code == 0
    names = {p.name for p in (in_tmp / "output").iterdir()}
    english = next(name for name in names if not name.endswith("-fr.pdf"))
    assert names == {english, english.removesuffix(".pdf") + "-fr.pdf"}


def test_play_picture_in_french(run_cli, in_tmp: Path) -> None:
    assert run_cli("play", "polygone", "--moves", "c0-c2>d1", "--lang", "fr",
                   "-o", "p.svg").code == 0
    svg = (in_tmp / "p.svg").read_text(encoding="utf-8")
    assert "Coup 1" in svg and "Move 1" not in svg


def test_refusals_keep_their_codes_and_speak_the_language() -> None:
    with pytest.raises(boardgen.BoardgenError, match="il y a déjà un pion ici"):
        boardgen.play("o", ["D4", "D4"], side=4, lang="fr")
    engine = boardgen.engine("o", side=4)
    engine.play("D4")
    with speaking("fr"):
        refusal = engine.position.engine.refusal(  # type: ignore[attr-defined]
            next(iter(engine.position.engine.stones())))  # type: ignore[attr-defined]
    assert refusal is not None and refusal.code == "taken"
    assert refusal.message == "il y a déjà un pion ici"


def test_the_api_speaks_french(french_fixture: Path) -> None:
    english = boardgen.diagram("copolymer", "forced")
    french = boardgen.diagram("copolymer", "forced", lang="fr")
    assert french.title.startswith("Connexions forcées")
    svg = boardgen.draw(french, "svg", lang="fr")
    assert "Numérotées" in svg
    # The same positions: only the words differ.
    assert [len(scenes) for _, scenes in english.rows] == \
        [len(scenes) for _, scenes in french.rows]
    with pytest.raises(boardgen.BoardgenError, match="^lang: unknown language"):
        boardgen.board("o", "svg", lang="klingon")


def test_the_language_is_undone_after_the_work(french_fixture: Path) -> None:
    boardgen.diagram("copolymer", "forced", lang="fr")
    assert tr("page") == "page" and tr("Pieces") == "Pieces"
    assert boardgen.diagram("copolymer", "forced").title.startswith("Forced")
    assert dataclasses.is_dataclass(boardgen.diagram("copolymer", "forced"))


def test_all_builds_each_language_and_the_gallery_lists_both(french_fixture: Path) -> None:
    from boardgen.games.registry import games
    from boardgen.publish.gallery import default_jobs, gallery_html
    from boardgen.render.paper import parse_paper

    jobs = default_jobs(parse_paper("a4"))
    names = {job.name: job for job in jobs}
    assert {"calibrate.pdf", "calibrate-fr.pdf", "copolymer-rules-fr.pdf",
            "copolymer-quick-reference-fr.pdf", "copolymer-rules-fr.html",
            "copolymer-kit-fr.pdf", "copolymer-diagram-forced-fr.svg"} <= set(names)
    assert names["copolymer-kit-fr.pdf"].lang == "fr" and names["copolymer-kit.pdf"].lang == "en"
    french = {job.game for job in jobs if job.lang == "fr" and job.game}
    assert french == {key for key, game in games().items() if game.speaks("fr")}
    english_only = default_jobs(parse_paper("a4"), langs=["en"])
    assert all(job.lang == "en" for job in english_only)
    assert len(english_only) == sum(job.lang == "en" for job in jobs)
    page = gallery_html(jobs, {job.name for job in jobs})
    assert '<section lang="fr-FR"><h2>Français</h2><h3>Imprimer et jouer</h3>' in page
    assert 'href="copolymer-kit-fr.pdf"' in page and "<h3>Copolymer</h3>" in page
    assert "imprimez d’abord calibrate-fr.pdf" in page
    # English first, as the page always had it: its headings, no section of its own.
    assert page.index("<h2>Print and play</h2>") < page.index("<h2>Copolymer</h2>") < \
        page.index('<section lang="fr-FR">')
    assert "<section lang" not in gallery_html(english_only, {j.name for j in english_only})


def test_all_refuses_an_unknown_language(run_cli, in_tmp: Path) -> None:
    one_line_error(run_cli("all", "--lang", "en", "--lang", "de"), "--lang", "'de'")


def test_a_gallery_of_french_files_only_speaks_french(french_fixture: Path) -> None:
    from boardgen.publish.gallery import default_jobs, gallery_html
    from boardgen.render.paper import parse_paper

    jobs = default_jobs(parse_paper("a4"), langs=["fr"])
    page = gallery_html(jobs, {job.name for job in jobs}, ["x.pdf: failed"])
    assert page.startswith('<!doctype html>\n<html lang="fr-FR">')
    assert "<h1>boardgen\u00a0: plateaux, diagrammes" in page and "Fichiers non produits" in page
    assert "<h2>Imprimer et jouer</h2>" in page and "<section lang" not in page


def test_a_role_keyed_twice_says_highlighted_in_the_pages_language() -> None:
    """A role filled on some cells and banded on others is keyed twice; the second entry's
    words ("…, highlighted") come from the catalog as the first's do (they were English
    text glued in the picture, which no catalog could find)."""

    text = "game: o\nboard: hexhex 4\npanel: p\nshow: D4 A1\nhighlight: legal D5\n"
    english = boardgen.draw(boardgen.parse_diagram(text), "svg")
    french = boardgen.draw(boardgen.parse_diagram(text, lang="fr"), "svg", lang="fr")
    assert "a stone may go here, highlighted" in english
    assert "mis en évidence" in french and "highlighted" not in french


def test_partisan_glyph_letters_are_the_players_initials_in_the_pages_language() -> None:
    # The two centres of partisan O's left and right glyphs carry the initial of the
    # player who may place there: L and R in English, G (Gauche) and D (Droite) in
    # French, in the picture and in its text alternative alike: no English letter on a
    # French page.
    from boardgen.render.diagram import describe

    def letters(lang: str) -> tuple[list[str], str]:
        with speaking(lang):
            glyphs = boardgen.diagram("o", "partisan-glyphs", lang=lang)
            said = describe(glyphs)
        return [text for _, scenes in glyphs.rows for scene in scenes
                for text in scene.cell_texts.values()], said

    english, english_said = letters("en")
    assert english == ["L", "R"]
    assert "marked L" in english_said and "marked R" in english_said
    french, french_said = letters("fr")
    assert french == ["G", "D"]
    assert "marquée G" in french_said and "marquée D" in french_said
    assert not re.search(r"\b[LR]\b", french_said)


def test_a_french_diagrams_footer_names_no_english_file() -> None:
    # The name `boardgen diagram` takes is an English slug: on a French page the footer
    # says only whose diagram it is (the page's title says which).
    from boardgen.games.registry import game_named

    polygone = game_named("polygone")
    assert "09-capture-back" in (polygone.diagram_info("09-capture-back").subject or "")
    with speaking("fr"):
        assert polygone.diagram_info("09-capture-back").subject == "Diagramme de Polygone"


def test_french_connections_are_counted_by_the_cells_connected_at() -> None:
    # One cell connected at: « fait une connexion »; several: « fait des connexions »
    # (English says the same for both).
    def captions(lang: str) -> list[str]:
        forced = boardgen.diagram("copolymer", "forced", lang=lang)
        return [scene.caption or "" for _, scenes in forced.rows for scene in scenes]

    english, french = captions("en"), captions("fr")
    assert "X must connect at B2 (touching 3 O cells)" in english[1]
    assert "X must connect at B3, C2 (touching 4, 4 O cells)" in english[2]
    assert "X doit faire une connexion en B2 (touchant 3 cases O)" in french[1]
    assert "X doit faire des connexions en B3, C2 (touchant 4, 4 cases O)" in french[2]
    assert not any("se connecte" in caption for caption in french)


def test_the_kits_board_labels_are_in_the_pages_language() -> None:
    # A kit's board heading names its preset: "(small)" in English, "(petit)" in French,
    # never the English --preset value on a French page.
    from boardgen.games.registry import game_named

    kit = game_named("copolymer").kit
    assert kit is not None
    labels = [label for _, label in kit.boards if label]
    assert [tr(label) for label in labels] == ["small", "medium", "large"]
    with speaking("fr"):
        assert [tr(label) for label in labels] == ["petit", "moyen", "grand"]
