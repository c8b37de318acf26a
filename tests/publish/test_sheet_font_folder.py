"""Where the HTML sheets' cut fonts are kept, as the README says: under
``$BOARDGEN_CACHE_DIR/sheet-fonts``, else ``$XDG_CACHE_HOME/boardgen/sheet-fonts``, else
``~/.cache/boardgen/sheet-fonts``; folders that do not exist yet are made; an empty
``BOARDGEN_CACHE_DIR`` turns the cache off."""

from __future__ import annotations

from pathlib import Path

import pytest

from boardgen.publish import sheet

CHARACTERS = frozenset(range(0x41, 0x5B))


def test_the_configured_folder_is_made_with_its_parents(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BOARDGEN_CACHE_DIR", str(tmp_path / "not" / "yet"))
    font = sheet.cached_cut_font("regular", CHARACTERS)
    (kept,) = (tmp_path / "not" / "yet" / "sheet-fonts").glob("regular-*.ttf")
    # The cache keeps the cut face with a check of its own (the face's bytes inside it).
    assert font == sheet.cut_font("regular", CHARACTERS) and font in kept.read_bytes()


def test_the_xdg_cache_and_the_home_cache(tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("BOARDGEN_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert sheet.font_cache_folder() == tmp_path / "xdg" / "boardgen" / "sheet-fonts"
    sheet.cached_cut_font("bold", CHARACTERS)
    assert list((tmp_path / "xdg" / "boardgen" / "sheet-fonts").glob("bold-*.ttf"))
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert sheet.font_cache_folder() == tmp_path / "home" / ".cache" / "boardgen" / \
        "sheet-fonts"


def test_an_empty_setting_turns_the_cache_off(tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BOARDGEN_CACHE_DIR", "")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert sheet.font_cache_folder() is None
    assert sheet.cached_cut_font("regular", CHARACTERS) == sheet.cut_font("regular", CHARACTERS)
    assert not list(tmp_path.iterdir())
