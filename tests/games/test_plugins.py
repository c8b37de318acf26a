"""A game plug-in is found through its ``boardgen.games`` entry point and drawn by the
unchanged command line: the example game (examples/fives) registered through a temporary
dist-info folder on the path of a fresh Python process, as pip would register it.  A
broken plug-in is left out with a warning and breaks nothing else."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT

from boardgen.errors import BoardgenError
from boardgen.games import registry
from boardgen.games.registry import BUILT_IN

EXAMPLE = ROOT / "examples" / "fives"
DIAGRAM = EXAMPLE / "boardgen_fives" / "diagrams" / "row-of-five.txt"


def register(folder: Path, name: str, entry_points: str) -> None:
    """A distribution's metadata, as an installer writes it into site-packages."""
    info = folder / f"{name}-0.1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 0.1.0\n")
    (info / "entry_points.txt").write_text(f"[boardgen.games]\n{entry_points}\n")


def installed_plugins() -> set[str]:
    """The game plug-ins installed in this environment (beside the ones a test registers):
    the tests expect them in the lists they check, so that they pass whatever else is
    installed."""
    from importlib.metadata import entry_points

    return {point.name for point in entry_points(group="boardgen.games")}


def boardgen(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(tmp_path / "site"), str(EXAMPLE)]))
    env.pop("BOARDGEN_DISABLE_PLUGINS", None)  # conftest.py's, for the other tests
    return subprocess.run([sys.executable, "-m", "boardgen", *args], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=300)


@pytest.fixture
def fives(tmp_path: Path) -> Path:
    register(tmp_path / "site", "boardgen_fives", "fives = boardgen_fives:GAME")
    return tmp_path


def test_the_example_game_appears_in_help_and_is_drawn_by_the_unchanged_cli(
        fives: Path) -> None:
    help_text = boardgen(fives, "board", "--help")
    assert help_text.returncode == 0, help_text.stderr
    games = [game.key for game in BUILT_IN] + sorted(installed_plugins() | {"fives"})
    assert f"GAME is one of: {', '.join(games)}." in " ".join(help_text.stdout.split())
    assert "Fives 5 (61 cells)" in " ".join(help_text.stdout.split())  # its default board
    board = boardgen(fives, "board", "fives", "-o", "board.svg")
    assert board.returncode == 0 and board.stderr == "", board.stderr
    assert (fives / "board.svg").read_text().count('class="cell empty"') == 61
    drawn = boardgen(fives, "diagram", str(DIAGRAM), "-o", "row.svg")
    assert drawn.returncode == 0, drawn.stderr
    svg = (fives / "row.svg").read_text()
    assert svg.count('class="cell ') == 3 * 37 + 3  # three panels of side 4, a legend
    assert "X has five in a row and wins." in svg
    listed = boardgen(fives, "diagram", "fives", "--list")
    assert listed.stdout.split() == ["row-of-five"]
    played = boardgen(fives, "play", "fives", "--side", "4", "--json", "--moves",
                      "D2 A1 D3 A2 D4 G7 D5 D1 D6")
    assert json.loads(played.stdout)["row"] == ["D2", "D3", "D4", "D5", "D6"]


def test_a_claim_in_the_plugin_game_is_checked_with_its_line(fives: Path) -> None:
    wrong = fives / "wrong.txt"
    text = DIAGRAM.read_text().replace("expect: winner x", "expect: winner o")
    wrong.write_text(text)
    line = text.splitlines().index("expect: winner o") + 1
    result = boardgen(fives, "diagram", str(wrong), "-o", "wrong.svg")
    assert result.returncode == 2 and not (fives / "wrong.svg").exists()
    assert result.stderr == (f"boardgen: error: {wrong}:{line}: the example expects "
                             "'winner o', but the winner is x\n")


def test_plugins_can_be_turned_off(fives: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BOARDGEN_DISABLE_PLUGINS", "1")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(fives / "site"), str(EXAMPLE)]))
    result = subprocess.run([sys.executable, "-m", "boardgen", "board", "fives"], cwd=fives,
                            env=env, capture_output=True, text=True, timeout=300)
    assert result.returncode == 2 and "'fives'" in result.stderr


def test_a_broken_plugin_is_left_out_with_a_warning(tmp_path: Path) -> None:
    register(tmp_path / "site", "boardgen_broken", "broken = no_such_module:GAME")
    result = boardgen(tmp_path, "diagram", "copolymer", "--list")
    assert result.returncode == 0
    assert "tempo" in result.stdout.split()
    # Warnings about other installed plug-ins (none, where they load) are not this test's.
    ours = [line for line in result.stderr.splitlines() if "'broken'" in line]
    assert len(ours) == 1 and ours[0].startswith("boardgen: warning: game plug-in 'broken' "
                                                 "(no_such_module:GAME): cannot be loaded: ")


class _Point:
    """An entry point as importlib.metadata gives it (name, value, load)."""

    def __init__(self, name: str, loaded: object) -> None:
        self.name, self.value, self._loaded = name, f"somewhere:{name}", loaded

    def load(self) -> object:
        return self._loaded


def test_the_registry_refuses_what_is_not_a_game(monkeypatch: pytest.MonkeyPatch) -> None:
    copolymer = BUILT_IN[0]
    points = [_Point("junk", object()), _Point("other", copolymer),
              _Point("copolymer", copolymer)]
    monkeypatch.delenv("BOARDGEN_DISABLE_PLUGINS")
    monkeypatch.setattr(registry, "entry_points", lambda group: points)
    monkeypatch.setattr(registry, "problems", [])
    registry.games.cache_clear()
    try:
        assert list(registry.games()) == [game.key for game in BUILT_IN]
        assert [problem.split(":")[0] for problem in registry.problems] == [
            "game plug-in 'copolymer' (somewhere", "game plug-in 'junk' (somewhere",
            "game plug-in 'other' (somewhere"]
        assert "is taken" in registry.problems[0]
        assert "is not a boardgen.games.protocol.Game" in registry.problems[1]
        assert "must be its entry point's name" in registry.problems[2]
    finally:
        registry.games.cache_clear()


def test_the_plugins_diagram_language_is_printed_from_its_own_tables(
        fives: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``diagram --syntax fives`` prints the plug-in's directives and claims (its handlers
    carry no docstrings: their keys alone), each one its parser accepts, and no other."""
    from test_diagram_syntax import DECOYS, _printed

    result = boardgen(fives, "diagram", "--syntax", "fives")
    assert result.returncode == 0, result.stderr
    keys, claims = _printed(result.stdout)
    assert {"board", "setup", "place", "notation"} <= keys
    assert claims == {"to-move", "winner", "row"}
    every = boardgen(fives, "diagram", "--syntax")
    assert result.stdout in every.stdout and "copolymer diagram files:" in every.stdout

    monkeypatch.syspath_prepend(str(EXAMPLE))
    from boardgen_fives import GAME  # type: ignore[import-not-found]

    base = DIAGRAM.read_text(encoding="utf-8").splitlines()
    panel = next(i for i, line in enumerate(base) if line.startswith("panel:"))

    probe = fives / "probe.txt"

    def accepted(key: str) -> bool:
        for at in (panel, panel + 1):  # before the first panel, or inside it
            probe.write_text("\n".join([*base[:at], f"{key}: zz", *base[at:]]))
            try:
                GAME.load_file(probe, {})
            except BoardgenError as exc:
                said = str(exc)
                if not any(words in said for words in (f"unknown directive '{key}'",
                                                        "must come after",
                                                        "belongs before")):
                    return True
            else:
                return True
        return False

    assert {key for key in keys | DECOYS if accepted(key)} == keys


def test_the_registry_reads_the_entry_points_importlib_metadata_reads(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The registry reads entry_points.txt itself (importlib.metadata is slow to import):
    the same points, the first install of a distribution on the path winning, other groups,
    comments and extras as importlib.metadata reads them."""
    from importlib.metadata import entry_points

    first, second = tmp_path / "first", tmp_path / "second"
    register(first, "boardgen_fives", "# a comment\nfives = boardgen_fives:GAME\n"
             "sixes = boardgen_fives.games:Sixes.GAME [extra]\n\n[console_scripts]\n"
             "fives-tool = boardgen_fives:main")
    register(second, "Boardgen.Fives", "shadowed = boardgen_fives:OTHER")
    register(second, "other_games", "#another comment\nsevens=other_games:GAME")
    monkeypatch.setattr(sys, "path", [str(first), str(tmp_path / "missing"), str(second),
                                      *sys.path])
    for group in ("boardgen.games", "console_scripts", "pytest11"):
        ours = sorted((point.name, point.value) for point in registry.entry_points(group))
        theirs = sorted((point.name, point.value) for point in entry_points(group=group))
        assert ours == theirs
    assert {point.name for point in registry.entry_points("boardgen.games")} \
        == installed_plugins() | {"fives", "sixes", "sevens"}
    (sevens,) = [p for p in registry.entry_points("boardgen.games") if p.name == "sevens"]
    monkeypatch.syspath_prepend(str(tmp_path))
    (tmp_path / "other_games.py").write_text("GAME = 'the game object'\n")
    assert sevens.load() == "the game object"
