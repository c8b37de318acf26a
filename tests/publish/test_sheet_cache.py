"""The cache of finished sheets (boardgen.publish.sheet_cache): a second build reads the
same bytes back without setting the sheet again; any input that goes into the bytes (a
template's text, a diagram file, boardgen's own source, the theme, the paper, the language,
the date) gives another key; an entry that is not whole is set again and mended; a cache
that cannot be written, or is turned off, only costs the time; entries are written whole
and the folder is pruned."""

from __future__ import annotations

import hashlib
import os
import shutil
import threading
from pathlib import Path
from typing import Any

import pytest
from conftest import ROOT

from boardgen.i18n import speaking
from boardgen.publish import sheet, sheet_cache, typeset
from boardgen.publish.kit import render_kit
from boardgen.render.paper import parse_paper
from boardgen.render.scene import THEMES

pytestmark = pytest.mark.slow

A4 = parse_paper("a4")
COLOUR = THEMES["colour"]


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The sheet cache on (the test run turns it off: conftest), in a folder of its own."""
    monkeypatch.delenv(sheet_cache.SHEET_CACHE_ENV, raising=False)
    monkeypatch.setenv(sheet_cache.CACHE_ENV, str(tmp_path / "cache"))
    return tmp_path / "cache" / sheet_cache.SHEETS_FOLDER


def _entries(folder: Path) -> list[Path]:
    return sorted(folder.glob(f"*{sheet_cache.ENTRY_SUFFIX}"))


def _refused(*_args: object, **_kwargs: object) -> bytes:
    raise AssertionError("set again: the cache was not read")


# --- the writers read their files back --------------------------------------------------------


def test_a_second_quick_reference_is_read_back_not_set(
        cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    first = typeset.render_sheet_pdf("o", paper=A4, theme=COLOUR, quick=True)
    (entry,) = _entries(cache)
    name = entry.name.removesuffix(sheet_cache.ENTRY_SUFFIX)
    # Kept after the SHA-256 of its name and bytes, nothing half-written beside it.
    assert entry.read_bytes() == hashlib.sha256(name.encode() + b"\0" + first).digest() + first
    assert not list(cache.glob(".*.tmp"))
    monkeypatch.setattr(typeset, "_set_sheet", _refused)
    assert typeset.render_sheet_pdf("o", paper=A4, theme=COLOUR, quick=True) == first
    # The full sheet is another file: set, not read (and so refused here).
    with pytest.raises(AssertionError, match="set again"):
        typeset.render_sheet_pdf("o", paper=A4, theme=COLOUR)


def test_the_bytes_read_back_are_the_bytes_set_without_a_cache(
        cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    kept = sheet.render_sheet_html("polygone", theme=COLOUR, quick=True)
    again = sheet.render_sheet_html("polygone", theme=COLOUR, quick=True)
    monkeypatch.setenv(sheet_cache.SHEET_CACHE_ENV, "off")
    assert kept == again == sheet.render_sheet_html("polygone", theme=COLOUR, quick=True)
    assert len(_entries(cache)) == 1


def test_a_kit_is_read_back(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from boardgen.publish import kit

    first = render_kit("copolymer", paper=A4, theme=COLOUR)
    monkeypatch.setattr(kit, "_kit", _refused)
    assert render_kit("copolymer", paper=A4, theme=COLOUR) == first
    with pytest.raises(AssertionError, match="set again"):  # another paper: another kit
        render_kit("copolymer", paper=parse_paper("letter"), theme=COLOUR)


def test_a_bad_request_is_refused_as_without_a_cache(cache: Path) -> None:
    from boardgen.errors import BoardgenError

    with pytest.raises(BoardgenError, match="nosuchgame"):
        typeset.render_sheet_pdf("nosuchgame", paper=A4, theme=COLOUR)
    assert not cache.exists() or not _entries(cache)


# --- spoilt entries, a cache that cannot be used ------------------------------------------------


@pytest.mark.parametrize("spoil", ["truncated", "empty", "another entry", "a folder"])
def test_a_spoilt_entry_is_set_again_and_mended(cache: Path, spoil: str) -> None:
    html = sheet.render_sheet_html("o", theme=COLOUR, quick=True)
    other = sheet.render_sheet_html("o", theme=THEMES["ink"], quick=True)
    entry, second = sorted(_entries(cache), key=lambda p: p.stat().st_mtime_ns)
    kept = entry.read_bytes()
    if spoil == "a folder":
        entry.unlink()
        entry.mkdir()
    else:
        entry.write_bytes({"truncated": kept[:len(kept) // 2], "empty": b"",
                           "another entry": second.read_bytes()}[spoil])
    assert sheet.render_sheet_html("o", theme=COLOUR, quick=True) == html
    if spoil != "a folder":  # a folder in its place stays (not ours to delete)
        assert entry.read_bytes() == kept
    assert other != html


def test_a_cache_that_cannot_be_written_is_passed_by(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(sheet_cache.SHEET_CACHE_ENV, raising=False)
    blocked = tmp_path / "a-file"
    blocked.write_text("not a folder")
    monkeypatch.setenv(sheet_cache.CACHE_ENV, str(blocked))
    with_blocked = sheet.render_sheet_html("o", theme=COLOUR, quick=True)
    monkeypatch.setenv(sheet_cache.SHEET_CACHE_ENV, "off")
    assert with_blocked == sheet.render_sheet_html("o", theme=COLOUR, quick=True)
    assert blocked.read_text() == "not a folder"


def test_turned_off_it_keeps_nothing(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for off in ("off", "0", "no", "false", "OFF"):
        monkeypatch.setenv(sheet_cache.SHEET_CACHE_ENV, off)
        assert sheet_cache.sheet_cache_folder() is None
    sheet.render_sheet_html("o", theme=COLOUR, quick=True)
    assert not cache.exists()
    monkeypatch.setenv(sheet_cache.SHEET_CACHE_ENV, "on")
    assert sheet_cache.sheet_cache_folder() == cache
    monkeypatch.setenv(sheet_cache.CACHE_ENV, "")  # no cache at all
    assert sheet_cache.sheet_cache_folder() is None
    monkeypatch.delenv(sheet_cache.CACHE_ENV)
    monkeypatch.setenv("XDG_CACHE_HOME", str(cache.parent / "xdg"))
    assert sheet_cache.sheet_cache_folder() == cache.parent / "xdg" / "boardgen" / "sheets"


# --- the key ------------------------------------------------------------------------------------


def _key(game: str = "o", kind: str = "pdf", **request: object) -> str | None:
    return sheet_cache.sheet_key(kind, game, {"paper": A4, "theme": COLOUR, "quick": False,
                                              **request})


def _keys_in_each_language() -> dict[str, str | None]:
    keys = {}
    for lang in ("en", "fr"):
        with speaking(lang):
            keys[lang] = _key()
    return keys


def _edit(path: Path) -> None:
    """One character changed, the size the same."""
    text = path.read_bytes()
    at = text.index(b"e")
    path.write_bytes(text[:at] + b"E" + text[at + 1:])


@pytest.mark.parametrize("edited", ["o/sheet.md", "o/sheet.fr.md", "o/corners.txt",
                                    "o/figures.fr.json", "o/a-new-file.txt"])
def test_a_template_or_diagram_file_changed_is_another_key(templates: Path,
                                                           edited: str) -> None:
    before = _keys_in_each_language()
    path = templates / edited
    if path.exists():
        _edit(path)
    else:
        path.write_text("new\n")
    after = _keys_in_each_language()
    assert None not in before.values()
    assert before["en"] != after["en"] and before["fr"] != after["fr"]


def test_another_games_templates_are_not_in_the_key(templates: Path) -> None:
    before = _key("o")
    _edit(templates / "copolymer" / "sheet.md")
    assert _key("o") == before and _key("copolymer") is not None


@pytest.mark.parametrize("edited", ["publish/typeset.py", "render/svg.py", "games/o/engine.py",
                                    "locale/fr/LC_MESSAGES/boardgen.po", "_version.py"])
def test_boardgens_own_source_changed_is_another_key(tmp_path: Path, edited: str,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    package = tmp_path / "boardgen"
    shutil.copytree(ROOT / "boardgen", package,
                    ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(sheet_cache, "_package_folder", lambda: package)
    before = _key()
    _edit(package / edited)
    assert before is not None and _key() != before


def test_every_part_of_the_request_is_in_the_key(monkeypatch: pytest.MonkeyPatch) -> None:
    keys = [_key(), _key(kind="html"), _key("polygone"), _key(quick=True),
            _key(paper=parse_paper("letter")), _key(paper=parse_paper("210x297mm")),
            _key(theme=THEMES["ink"]), _key(theme=THEMES["colourblind"]),
            _key(board=False), _key(date="auto")]
    with speaking("fr"):
        keys.append(_key())
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    keys.append(_key())
    assert None not in keys and len(set(keys)) == len(keys)
    monkeypatch.delenv("SOURCE_DATE_EPOCH")
    assert _key() == keys[0]  # and the same inputs, the same key


def test_a_theme_is_keyed_by_its_paints_not_its_name() -> None:
    from dataclasses import replace

    assert _key(theme=replace(COLOUR, accent="#000001")) != _key()
    assert _key(theme=replace(COLOUR)) == _key()


def test_a_library_or_font_changed_is_another_key(monkeypatch: pytest.MonkeyPatch,
                                                  tmp_path: Path) -> None:
    before = _key()
    versions = dict(sheet_cache._versions())
    monkeypatch.setattr(sheet_cache, "_VERSIONS", [{**versions, "typst": "0.0.0"}])
    assert _key() != before
    monkeypatch.setattr(sheet_cache, "_VERSIONS", [versions])
    fonts = tmp_path / "fonts"
    from boardgen.render.fonts import font_folder

    shutil.copytree(font_folder(), fonts)
    monkeypatch.setattr("boardgen.render.fonts.font_folder", lambda: str(fonts))
    assert _key() == before
    (fonts / "LICENSE.txt").write_text("changed")
    assert _key() != before



def test_the_install_imported_is_the_one_keyed(monkeypatch: pytest.MonkeyPatch,
                                               tmp_path: Path) -> None:
    """A library's key is the install Python imports: a system package's ``.egg-info``
    counts (its version and the module's first file), and the same library found first on
    another path is another key (the review's finding 4)."""
    system = tmp_path / "system"
    (system / "sheetlib").mkdir(parents=True)
    (system / "sheetlib" / "__init__.py").write_text("VERSION = 1\n")
    (system / "sheetlib-1.0.egg-info").mkdir()
    (system / "sheetlib-1.0.egg-info" / "PKG-INFO").write_text("Name: sheetlib\nVersion: 1.0\n")
    monkeypatch.syspath_prepend(str(system))
    installed = sheet_cache._installed("sheetlib", "sheetlib")
    assert " 1.0 " in installed and str(system) in installed
    (system / "sheetlib" / "__init__.py").write_text("VERSION = 2\n")
    assert sheet_cache._installed("sheetlib", "sheetlib") != installed
    earlier = tmp_path / "earlier"
    shutil.copytree(system, earlier)
    monkeypatch.syspath_prepend(str(earlier))
    assert str(earlier) in sheet_cache._installed("sheetlib", "sheetlib")


def test_a_file_edited_in_place_with_its_time_set_back_is_read_again(tmp_path: Path) -> None:
    """The same size and modification time (touch -r) but new bytes: the change time moved,
    so the digest is taken again, not the one kept (the review's finding 3)."""
    path = tmp_path / "sheet.md"
    path.write_text("Aaaa")
    old = path.stat().st_mtime_ns - 60_000_000_000  # a minute ago: past the racy moments
    os.utime(path, ns=(old, old))
    first = sheet_cache._file_digest(str(path))
    with open(path, "r+") as handle:
        handle.write("Bbbb")
    os.utime(path, ns=(old, old))
    assert sheet_cache._file_digest(str(path)) != first

def test_a_plug_in_game_or_an_odd_request_is_not_kept(monkeypatch: pytest.MonkeyPatch,
                                                      tmp_path: Path) -> None:
    from boardgen.games import protocol

    assert _key(theme=object()) is None  # no stable description
    monkeypatch.setattr(protocol, "TEMPLATES", tmp_path)  # templates outside boardgen's
    (tmp_path / "o").mkdir()
    assert _key() is None


# --- entries written whole, the folder pruned -------------------------------------------------


def test_readers_beside_a_writer_read_a_whole_entry_or_none(tmp_path: Path) -> None:
    path = tmp_path / f"x{sheet_cache.ENTRY_SUFFIX}"
    versions = [bytes([n]) * 300_000 for n in range(1, 4)]
    seen: set[bytes | None] = set()
    done = threading.Event()

    def write() -> None:
        for k in range(60):
            sheet_cache.write_entry(path, "x", versions[k % 3])
        done.set()

    def read() -> None:
        while not done.is_set():
            seen.add(sheet_cache.read_entry(path, "x", 1_000_000))

    threads = [threading.Thread(target=write), *(threading.Thread(target=read) for _ in "ab")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert seen - {None} <= set(versions) and seen - {None}
    assert [p.name for p in tmp_path.iterdir()] == [path.name]  # no temporary file left


def test_the_folder_is_pruned_least_recently_used_first(tmp_path: Path) -> None:
    entries = []
    for n in range(10):
        path = tmp_path / f"e{n}{sheet_cache.ENTRY_SUFFIX}"
        sheet_cache.write_entry(path, f"e{n}", bytes(1000))
        os.utime(path, ns=(n * 10**9, n * 10**9))
        entries.append(path)
    other = tmp_path / "not-ours.txt"
    other.write_bytes(bytes(50_000))
    abandoned = tmp_path / ".e1-x.tmp"
    abandoned.write_bytes(b"half")
    os.utime(abandoned, (0, 0))
    os.utime(entries[0])  # used just now: the last to go
    sheet_cache.prune(tmp_path, limit=20_000)
    assert all(path.exists() for path in entries)  # 10 kB: under the limit
    assert not abandoned.exists() and other.exists()
    sheet_cache.prune(tmp_path, limit=6_000)
    kept = {path.name for path in _entries(tmp_path)}
    assert kept == {f"e{n}{sheet_cache.ENTRY_SUFFIX}" for n in (0, 7, 8, 9)}
    assert other.exists()


def test_the_key_costs_little_once_read(monkeypatch: pytest.MonkeyPatch) -> None:
    """Its files' digests are read once a process: the next keys only look at their
    sizes and times (the same key, from the memo)."""
    first = _key()
    read: list[str] = []
    real = hashlib.file_digest

    def counting(handle: Any, name: str) -> Any:
        read.append(name)
        return real(handle, name)

    monkeypatch.setattr(sheet_cache.hashlib, "file_digest", counting)
    assert _key() == first
    assert len(read) < 5  # files changed in the last moments only


def test_an_extra_language_folder_is_in_the_key_and_a_pipe_there_is_not_waited_on(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    extra = tmp_path / "languages"
    (extra / "templates" / "o").mkdir(parents=True)
    monkeypatch.setenv("BOARDGEN_LANGUAGES", str(extra))
    before = _key()
    (extra / "templates" / "o" / "sheet.de.md").write_text("# O\n")
    changed = _key()
    os.mkfifo(extra / "templates" / "o" / "a-pipe")
    found: list[str | None] = []
    worker = threading.Thread(target=lambda: found.append(_key()), daemon=True)
    worker.start()
    worker.join(timeout=20)
    assert not worker.is_alive(), "the key waited on a pipe"
    assert len({before, changed, *found}) == 3 and None not in found


def test_a_sheet_whose_template_changed_while_it_was_set_is_not_kept(
        cache: Path, templates: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The key is taken before the sheet is set: a template saved meanwhile would put the
    new text's bytes under the old text's key."""
    real = sheet._sheet_html

    def saved_meanwhile(game: str, theme: object, quick: bool) -> bytes:
        data = real(game, theme, quick)  # type: ignore[arg-type]
        _edit(templates / "o" / "quick.md")
        return data

    monkeypatch.setattr(sheet, "_sheet_html", saved_meanwhile)
    sheet.render_sheet_html("o", theme=COLOUR, quick=True)
    assert not cache.exists() or not _entries(cache)
    monkeypatch.setattr(sheet, "_sheet_html", real)
    sheet.render_sheet_html("o", theme=COLOUR, quick=True)
    assert len(_entries(cache)) == 1
