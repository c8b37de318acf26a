"""A game plug-in that fails in any way, not only with ImportError, is left out with a
one-line warning and the rest of boardgen works: one naming an attribute its module lacks
(AttributeError), one whose module raises while it is imported, one whose game has no key
or whose class cannot be made.  In this process through the entry-point listing, and from
the command line through a temporary dist-info folder, as pip would register them."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT

from boardgen.games import registry
from boardgen.games.free.game import FreeDescription
from boardgen.games.registry import BUILT_IN

BUILT_IN_KEYS = [game.key for game in BUILT_IN]


class _Point:
    """An entry point as importlib.metadata gives it: name, value and load()."""

    def __init__(self, name: str, load: object) -> None:
        self.name, self.value, self._load = name, f"somewhere:{name}", load

    def load(self) -> object:
        assert callable(self._load)
        return self._load()


def _missing_attribute() -> object:
    raise AttributeError("module 'somewhere' has no attribute 'GAME'")


def _raising_import() -> object:
    raise RuntimeError("the plug-in's module failed while it was imported")


class _Keyless(FreeDescription):
    """A game whose key cannot be read (a property of the plug-in's own, broken)."""

    @property
    def key(self) -> str:  # type: ignore[override]
        raise AttributeError("'_Keyless' object has no attribute '_key'")


class _Unmakeable(FreeDescription):
    def __init__(self) -> None:
        raise AttributeError("'_Unmakeable' object has no attribute 'board'")


@pytest.fixture
def plugins(monkeypatch: pytest.MonkeyPatch) -> list[_Point]:
    points: list[_Point] = []
    monkeypatch.delenv("BOARDGEN_DISABLE_PLUGINS", raising=False)
    monkeypatch.setattr(registry, "entry_points", lambda group: points)
    monkeypatch.setattr(registry, "problems", [])
    registry.games.cache_clear()
    yield points
    registry.games.cache_clear()


@pytest.mark.parametrize(("load", "why"), [
    (lambda: _missing_attribute(), "AttributeError: module 'somewhere' has no attribute"),
    (lambda: _raising_import(), "RuntimeError: the plug-in's module failed"),
    (lambda: _Unmakeable, "AttributeError: '_Unmakeable' object has no attribute"),
    (lambda: _Keyless(), "AttributeError: '_Keyless' object has no attribute '_key'"),
])
def test_a_plugin_failing_any_way_is_left_out_and_the_games_still_work(
        plugins: list[_Point], load: object, why: str) -> None:
    import boardgen

    plugins.append(_Point("broken", load))
    assert list(registry.games()) == BUILT_IN_KEYS
    (problem,) = registry.problems
    assert problem.startswith("game plug-in 'broken' (somewhere:broken): cannot be loaded: "
                              + why), problem
    assert "\n" not in problem
    assert boardgen.play("copolymer", "C3", side=3).moves_played == 1
    assert "<svg" in boardgen.board("free", "svg", side=2)


def _register(site: Path, name: str, entry: str) -> None:
    info = site / f"{name}-0.1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 0.1.0\n",
                                   encoding="utf-8")
    (info / "entry_points.txt").write_text(f"[boardgen.games]\n{entry}\n", encoding="utf-8")


@pytest.mark.parametrize(("entry", "module", "why"), [
    ("noattr = broken_noattr:GAME", "broken_noattr", "AttributeError: module 'broken_noattr' "
                                                     "has no attribute 'GAME'"),
    ("raising = broken_raising:GAME", "broken_raising", "ZeroDivisionError: division by zero"),
])
def test_from_the_command_line_a_broken_plugin_is_one_warning(
        tmp_path: Path, entry: str, module: str, why: str) -> None:
    site = tmp_path / "site"
    site.mkdir()
    # A module that imports but lacks the game it names, and one that raises on import.
    body = "VALUE = 1\n" if module == "broken_noattr" else "VALUE = 1 / 0\n"
    (site / f"{module}.py").write_text(body, encoding="utf-8")
    _register(site, module, entry)
    env = dict(os.environ, PYTHONPATH=str(site))
    env.pop("BOARDGEN_DISABLE_PLUGINS", None)
    name = entry.split(" = ")[0]
    for args in (["diagram", "copolymer", "--list"], ["board", "free", "-o", "b.svg"]):
        result = subprocess.run([sys.executable, "-m", "boardgen", *args], cwd=tmp_path,
                                env=env, capture_output=True, text=True, timeout=300)
        assert result.returncode == 0, result.stderr
        warning = result.stderr.splitlines()
        assert len(warning) == 1, result.stderr
        assert warning[0] == (f"boardgen: warning: game plug-in {name!r} ({entry.split(' = ')[1]})"
                              f": cannot be loaded: {why}"), warning[0]
    assert "tempo" in subprocess.run(
        [sys.executable, "-m", "boardgen", "diagram", "copolymer", "--list"], cwd=tmp_path,
        env=env, capture_output=True, text=True, timeout=300).stdout.split()
    assert (tmp_path / "b.svg").read_text(encoding="utf-8").count('class="cell ') == 61
    assert ROOT.is_dir()


def test_new_position_is_each_games_start() -> None:
    from boardgen.errors import BoardgenError
    from boardgen.games.registry import PlayOptions, new_position

    assert new_position("polygone").to_move == BUILT_IN[2].new_position(PlayOptions()).to_move
    assert new_position("free").to_json()["stones"] == {}
    with pytest.raises(BoardgenError, match="^unknown game 'chess' .choose from copolymer, o, "
                                            "polygone, free"):
        new_position("chess")


def test_memoised_diagrams_are_kept_apart_by_game_and_name() -> None:
    from boardgen.games.registry import build_diagram, diagrams_memoised

    with diagrams_memoised():
        tempo = build_diagram("copolymer", "tempo")
        loop = build_diagram("o", "loop")
        assert build_diagram("copolymer", "tempo") is tempo  # built once
        assert loop is not tempo and loop.title != tempo.title
        assert build_diagram("o", "loop") is loop
    assert build_diagram("o", "loop") is not loop  # outside: built again
