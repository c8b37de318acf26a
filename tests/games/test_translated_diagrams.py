"""A diagram file's translation (``NAME.LANG.txt``, issue 36) is the same diagram in other
words: replayed through the engine, it shows the same positions, panel for panel, as
``NAME.txt``.  Every translation in the package's templates is checked, and the tests'
own French fixture (tests/i18n_fixture), so that the check runs on any branch."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import TESTS

from boardgen.games.registry import game_named, games
from boardgen.i18n import speaking
from boardgen.picture import Diagram, PointScene, Scene

FIXTURE = TESTS / "i18n_fixture"


def translations() -> list[tuple[str, str, str, Path | None]]:
    """(game, diagram name, language, extra folder or None) of every translated file."""
    found = []
    for key, game in games().items():
        for path in sorted(game.template_folder.glob("*.*.txt")):
            name, lang = path.name.removesuffix(".txt").rsplit(".", 1)
            found.append((key, name, lang, None))
    for path in sorted((FIXTURE / "templates").glob("*/*.*.txt")):
        name, lang = path.name.removesuffix(".txt").rsplit(".", 1)
        found.append((path.parent.name, name, lang, FIXTURE))
    return found


def positions(diagram: Diagram) -> list[object]:
    """What the engine put on each panel, every word left out."""
    shown: list[object] = []
    for rows in (diagram.rows, diagram.steps or ()):
        for _title, scenes in rows:
            for scene in scenes:
                if isinstance(scene, Scene):
                    shown.append((scene.grid.description, tuple(scene.grid.cells),
                                  dict(scene.cell_roles), scene.markers,
                                  scene.arrows, dict(scene.highlights),
                                  dict(scene.cell_texts)))
                else:
                    assert isinstance(scene, PointScene)
                    shown.append((dict(scene.pieces), dict(scene.stones), dict(scene.dashed),
                                  dict(scene.struck), dict(scene.hollow), scene.turns,
                                  scene.zones, scene.arrows, scene.tinted, scene.ringed,
                                  scene.point_marks, scene.designer_marks))
        shown.append("|")  # rows and their lengths count too
    return shown


@pytest.mark.parametrize(("game", "name", "lang", "extra"), translations(),
                         ids=lambda value: str(value) if not isinstance(value, Path) else "x")
def test_a_translation_replays_to_the_same_positions(game: str, name: str, lang: str,
                                                     extra: Path | None,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    if extra is not None:
        monkeypatch.setenv("BOARDGEN_LANGUAGES", str(extra))
    description = game_named(game)
    assert name in description.file_names(), f"{name}.{lang}.txt translates no diagram"
    english = description.diagram(name)
    with speaking(lang):
        translated = description.diagram(name)
    assert positions(translated) == positions(english)
    assert translated.title != english.title  # a translation, not a copy


def test_the_fixture_is_found() -> None:
    assert ("copolymer", "forced", "fr", FIXTURE) in translations()


def test_a_translation_that_moves_differently_is_caught(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """The check fails when a translated file plays other moves (a changed setup)."""
    folder = tmp_path / "templates" / "copolymer"
    folder.mkdir(parents=True)
    text = (FIXTURE / "templates" / "copolymer" / "forced.fr.txt").read_text(encoding="utf-8")
    changed = text.replace("setup: C4 C3 D4 C1 C5 A3 A1 B1 D2 E4 E3 B4 D3 D5 A2",
                           "setup: C4 C3 D4 C1 C5 A3 A1 B1 D2 E4 E3 B4 D3 D5 A2 E5 B2")
    changed = "\n".join(line for line in changed.splitlines()
                        if not line.startswith(("place:", "expect:")))
    (folder / "forced.fr.txt").write_text(changed, encoding="utf-8")
    monkeypatch.setenv("BOARDGEN_LANGUAGES", str(tmp_path))
    description = game_named("copolymer")
    if (description.template_folder / "forced.fr.txt").is_file():
        pytest.skip("the package's own forced.fr.txt is found first")
    with speaking("fr"):
        translated = description.diagram("forced")
    assert positions(translated) != positions(description.diagram("forced"))
