"""The glyph store (boardgen.render.fonts.GlyphStore): what a process read from the font with
fontTools, kept in the user's cache for the next one, gives the same names, advances and
outlines as the font itself; a store that is damaged, not ours or cannot be written is
passed by."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from boardgen.render import fonts
from boardgen.render.fonts import BOLD, REGULAR, FontFace

# Letters, digits, punctuation, composite glyphs (accents: components) and a character the
# font lacks (drawn as .notdef).
CHARACTERS = "AZaz09IWQ·,.-–'éÉçà×☃"


def _seen(face: FontFace) -> dict[str, Any]:
    """Everything a writer asks of a face, for every character: what must not change."""
    from fontTools.pens.recordingPen import RecordingPen

    seen: dict[str, Any] = {"units": (face.units_per_em, face.cap_height)}
    for ch in CHARACTERS:
        pen = RecordingPen()
        face.draw_outline(ch, lambda glyph_set, pen=pen: pen)
        seen[ch] = (face.glyph_name(ch), face.lacks(ch), face.advance(ch),
                    face.glyph(ch).path, pen.value)
    return seen


@pytest.mark.parametrize("weight", [REGULAR, BOLD])
def test_a_stored_face_is_the_font_itself(weight: str, tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(fonts.GLYPH_CACHE_ENV, "")
    straight = _seen(FontFace(weight))  # no store: every answer from fontTools

    monkeypatch.setenv(fonts.GLYPH_CACHE_ENV, str(tmp_path))
    learning = FontFace(weight)
    assert _seen(learning) == straight
    learning._store.save()
    (stored,) = (tmp_path / "glyphs").iterdir()

    reading = FontFace(weight)
    assert set(reading._store.characters) >= set(CHARACTERS)
    assert reading._parsed is None  # metrics from the store, the font not parsed
    assert _seen(reading) == straight
    # Composite glyphs are kept as None (drawn from the font); the others as the calls.
    assert reading._store.outlines["é"] is None
    assert reading._store.outlines["A"]
    assert stored.name.startswith(fonts._digest(Path(fonts.font_path(weight)).read_bytes()))


def test_a_stored_outline_needs_no_font(tmp_path: Path,
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(fonts.GLYPH_CACHE_ENV, str(tmp_path))
    first = FontFace(REGULAR)
    _seen(first)
    first._store.save()
    second = FontFace(REGULAR)
    from fontTools.pens.recordingPen import RecordingPen

    for ch in "AZ09":
        second.advance(ch)
        second.draw_outline(ch, lambda glyph_set: RecordingPen())
    assert second._parsed is None


@pytest.mark.parametrize("damage", ["edited", "cut short", "another font's", "not json",
                                    "a folder"])
def test_a_damaged_store_is_passed_by(damage: str, tmp_path: Path,
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(fonts.GLYPH_CACHE_ENV, "")
    straight = _seen(FontFace(REGULAR))
    monkeypatch.setenv(fonts.GLYPH_CACHE_ENV, str(tmp_path))
    learning = FontFace(REGULAR)
    _seen(learning)
    learning._store.save()
    (stored,) = (tmp_path / "glyphs").iterdir()
    text = stored.read_bytes()
    if damage == "edited":  # an advance changed, the digest line kept
        head, _, payload = text.partition(b"\n")
        stored.write_bytes(head + b"\n" + payload.replace(b'"A":["A",true,', b'"A":["A",true,1'))
    elif damage == "cut short":
        stored.write_bytes(text[: len(text) // 2])
    elif damage == "another font's":  # whole, but the other weight's, under this name
        bold = FontFace(BOLD)
        _seen(bold)
        bold._store.save()
        assert bold._store.path is not None
        stored.write_bytes(bold._store.path.read_bytes())
        bold._store.path.unlink()
    elif damage == "not json":
        payload = b"{not json"
        stored.write_bytes(fonts._digest(payload).encode()
                           + b"\n" + payload)
    else:
        stored.unlink()
        stored.mkdir()
    again = FontFace(REGULAR)
    assert again._store.characters == {}  # nothing taken from it
    assert _seen(again) == straight
    again._store.save()  # written anew over it (a folder there: passed by)
    assert FontFace(REGULAR)._store.characters or damage == "a folder"


def test_a_store_that_cannot_be_written_is_passed_by(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    blocked = tmp_path / "a-file"
    blocked.write_text("not a folder")
    monkeypatch.setenv(fonts.GLYPH_CACHE_ENV, str(blocked))
    face = FontFace(BOLD)
    _seen(face)
    face._store.save()  # nothing raised, nothing written
    assert blocked.read_text() == "not a folder"
    monkeypatch.delenv(fonts.GLYPH_CACHE_ENV)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert fonts.glyph_cache_folder() == tmp_path / "xdg" / "boardgen" / "glyphs"


def test_a_command_with_a_warm_store_never_parses_the_font(tmp_path: Path) -> None:
    """The second PNG board with labels and title reads its glyphs from the store: fontTools'
    font reader is never imported (the first, cold, learnt them and wrote the store)."""
    env = {**os.environ, fonts.GLYPH_CACHE_ENV: str(tmp_path / "cache")}
    probe = ("import sys, runpy; sys.argv = ['boardgen', 'board', 'copolymer', '--side', '5',"
             f" '-o', {str(tmp_path / 'b.png')!r}]\n"
             "from boardgen.cli import main\n"
             "try:\n    main(sys.argv[1:])\nexcept SystemExit:\n    pass\n"
             "print('fontTools.ttLib' in sys.modules)\n")
    cold = subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True,
                          text=True, check=True)
    first = (tmp_path / "b.png").read_bytes()
    warm = subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True,
                          text=True, check=True)
    assert cold.stdout.split()[-1] == "True"
    assert warm.stdout.split()[-1] == "False"
    assert (tmp_path / "b.png").read_bytes() == first


def test_a_pipe_in_the_store_s_place_does_not_hang(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(fonts.GLYPH_CACHE_ENV, str(tmp_path))
    path = fonts.GlyphStore.for_font(Path(fonts.font_path(REGULAR)).read_bytes()).path
    assert path is not None
    path.parent.mkdir(parents=True)
    os.mkfifo(path)
    assert fonts.read_cache_file(path, 1000) is None  # opened without waiting, not read
    face = FontFace(REGULAR)
    assert face._store.characters == {} and face.advance("A") > 0
