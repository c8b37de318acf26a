"""The one typeface boardgen prints with: Source Sans Pro (SIL Open Font License 1.1).

It comes from the ``font-source-sans-pro`` package on PyPI, which carries the licence.  PDFs
embed it (a subset) through reportlab.  SVGs draw text as the font's own glyph outlines,
defined once each and placed with ``<use>``: SVG viewers do not agree on web fonts (CairoSVG
ignores ``@font-face``), outlines look the same in every one of them.
"""

from __future__ import annotations

import atexit
import contextlib
import functools
import io
import json
import os
import stat
import threading
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import font_source_sans_pro

from boardgen.limits import MAX_STORE_BYTES

REGULAR = "regular"
BOLD = "bold"
_FILES = {
    REGULAR: font_source_sans_pro.font_files_ttf["SourceSansPro"],
    BOLD: font_source_sans_pro.font_files_ttf["SourceSansProBold"],
}
FONT_FAMILY = "Source Sans Pro"  # the family name inside the font files
PDF_FONT_NAMES = {REGULAR: "SourceSansPro", BOLD: "SourceSansPro-Bold"}
MEASURED_TEXTS = 100_000  # widths kept per face (some 10 MB at most in a long session)
ITALIC_FILES = {"SourceSansPro-It": "SourceSansProIt",
                "SourceSansPro-BoldIt": "SourceSansProBoldIt"}


def font_path(weight: str) -> str:
    return str(_FILES[weight])


def font_folder() -> str:
    """The folder holding the family's files (every weight and italic), for a typesetter
    that is given folders to look for fonts in."""
    return str(Path(_FILES[REGULAR]).parent)


@dataclass(frozen=True)
class Glyph:
    id: str  # the SVG id of its outline, unique across weights
    advance: int  # in font units
    path: str  # SVG path data in font units, y pointing down


# A character as the store keeps it: its glyph's name, whether the font maps it (else the
# name is .notdef's), and its advance in font units.
StoredCharacter = tuple[str, bool, int]
# A glyph's outline as the calls it made on a pen (moveTo, lineTo, qCurveTo, curveTo,
# closePath, endPath and their points), or None for a glyph made of components, which is
# always drawn from the font (a component is drawn through its glyph set).
OutlineCalls = list[tuple[str, tuple[Any, ...]]]
_CONTOUR_CALLS = frozenset({"moveTo", "lineTo", "qCurveTo", "curveTo", "closePath", "endPath"})

GLYPH_CACHE_ENV = "BOARDGEN_CACHE_DIR"  # a folder; set to the empty string: no cache
_STORE_FORMAT = 1


def cache_folder(part: str) -> Path | None:
    """A folder of the user's cache (``BOARDGEN_CACHE_DIR``, else $XDG_CACHE_HOME/boardgen,
    else ~/.cache/boardgen, as for the rule sheets' fonts), or None when the cache is off."""
    configured = os.environ.get(GLYPH_CACHE_ENV)
    if configured is not None:
        return Path(configured) / part if configured else None
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "boardgen" / part


def glyph_cache_folder() -> Path | None:
    """Where fonts' glyphs are kept between processes, or None when the cache is off."""
    return cache_folder("glyphs")


def _digest(data: bytes) -> str:
    """A key for bytes: their length and CRC-32 (zlib, already loaded: hashlib would load
    OpenSSL, a millisecond or two of every command that draws text).  Enough to tell apart
    the files a cache entry may have been made from (another version of a font or of
    fontTools), and an entry cut short or edited; not a defence against a forger, who
    could write the user's cache folder, and so the user's programs, anyway."""
    return f"{len(data)}-{zlib.crc32(data):08x}"


@functools.cache
def _reader_key() -> str:
    """What, besides the font, decides the calls a glyph makes: fontTools' own version
    (read from its package's first file, without importing it)."""
    import importlib.util

    spec = importlib.util.find_spec("fontTools")
    origin = spec.origin if spec is not None else None
    try:
        return _digest(Path(origin).read_bytes()) if origin else "-"
    except OSError:
        return "-"


class GlyphStore:
    """A font's metrics and its characters' glyph names, advances and outlines, as earlier
    processes read them with fontTools, kept in one file of the user's cache named after
    the font's bytes (their length and CRC-32, and fontTools' version).  The file's first line
    is the same key of the rest: a file cut short, edited or not ours is passed by (read again from
    the font).  What a process learns is written when it exits (merged with what others
    wrote meanwhile, replaced in one rename); a cache that cannot be read or written is
    passed by.  boardgen ships no glyph data: the store is made on the user's machine."""

    def __init__(self, path: Path | None, font_digest: str = "") -> None:
        self.path = path
        self.font_digest = font_digest  # also inside the file: a store renamed is not used
        self.metrics: tuple[int, int] | None = None  # units per em, cap height
        self.characters: dict[str, StoredCharacter] = {}
        self.outlines: dict[str, OutlineCalls | None] = {}
        self._learnt = False
        self._lock = threading.Lock()
        if path is not None:
            self._take(_read_store(path))

    @classmethod
    def for_font(cls, font: bytes) -> GlyphStore:
        folder = glyph_cache_folder()
        if folder is None:
            return cls(None)
        digest = _digest(font)
        return cls(folder / f"{digest}-{_reader_key()}.json", digest)

    def _take(self, data: dict[str, Any] | None) -> None:
        """Adopt what a store file holds (its entries checked for their shapes)."""
        if data is None or data.get("font") != self.font_digest:
            return
        try:
            metrics = data.get("metrics")
            if self.metrics is None and isinstance(metrics, list) and len(metrics) == 2 \
                    and all(type(v) is int for v in metrics):
                self.metrics = (metrics[0], metrics[1])
            for ch, entry in dict(data.get("characters", {})).items():
                name, present, advance = entry
                if isinstance(ch, str) and type(name) is str and type(present) is bool \
                        and type(advance) is int:
                    self.characters.setdefault(ch, (name, present, advance))
            for ch, calls in dict(data.get("outlines", {})).items():
                if calls is None:
                    self.outlines.setdefault(ch, None)
                    continue
                made = [(str(call), tuple(_point(a) for a in arguments))
                        for call, arguments in calls]
                if all(call in _CONTOUR_CALLS for call, _ in made):
                    self.outlines.setdefault(ch, made)
        except (TypeError, ValueError, AttributeError):
            return  # not a store of ours: what was taken is checked, the rest ignored

    def learn_metrics(self, units_per_em: int, cap_height: int) -> None:
        self.metrics = (units_per_em, cap_height)
        self._changed()

    def learn(self, ch: str, character: StoredCharacter) -> None:
        self.characters[ch] = character
        self._changed()

    def learn_outline(self, ch: str, calls: OutlineCalls | None) -> None:
        self.outlines[ch] = calls
        self._changed()

    def _changed(self) -> None:
        with self._lock:
            if self._learnt or self.path is None:
                return
            self._learnt = True
        atexit.register(self.save)

    def save(self) -> None:
        """Write what this process knows, with what the file holds now, in one rename."""
        if self.path is None:
            return
        try:
            self._take(_read_store(self.path))
            payload = json.dumps({
                "format": _STORE_FORMAT,
                "font": self.font_digest,
                "metrics": list(self.metrics) if self.metrics else None,
                "characters": {ch: list(entry) for ch, entry in self.characters.copy().items()},
                "outlines": {ch: None if calls is None else [[call, list(arguments)]
                                                            for call, arguments in calls]
                             for ch, calls in self.outlines.copy().items()},
            }, ensure_ascii=True, separators=(",", ":")).encode("ascii")
        except (RuntimeError, TypeError, ValueError):  # a thread still drawing at exit
            return  # kept next time: a cache is never worth an error
        temporary = self.path.with_name(f".{self.path.name}.{os.getpid()}.tmp")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with open(temporary, "wb") as file:
                file.write(_digest(payload).encode("ascii") + b"\n")
                file.write(payload)
            os.replace(temporary, self.path)
        except OSError:
            with contextlib.suppress(OSError):
                temporary.unlink()


def _point(value: Any) -> Any:
    """A pen call's argument as the font gave it: a point (a tuple of numbers) or None."""
    if value is None:
        return None
    x, y = value
    if type(x) not in (int, float) or type(y) not in (int, float):
        raise ValueError("not a point")
    return (x, y)


def read_cache_file(path: Path, limit: int) -> bytes | None:
    """A file of the user's cache, or None if it cannot be read.  Opened without waiting (a
    pipe there must not hang a command) and read only if it is a regular file of at most
    ``limit`` bytes (a link to /dev/zero must not fill the memory)."""
    try:
        descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError:
        return None
    try:
        info = os.fstat(descriptor)
        if not stat.S_ISREG(info.st_mode) or info.st_size > limit:
            return None
        with open(descriptor, "rb", closefd=False) as handle:
            stored = handle.read(limit + 1)
    except OSError:
        return None
    finally:
        os.close(descriptor)
    return stored if len(stored) <= limit else None


def _read_store(path: Path) -> dict[str, Any] | None:
    """A store file's content if it is whole and ours, else None."""
    stored = read_cache_file(path, MAX_STORE_BYTES)
    if stored is None:
        return None
    digest, _, payload = stored.partition(b"\n")
    if _digest(payload).encode("ascii") != digest:
        return None
    try:
        data = json.loads(payload)
    except ValueError:
        return None
    if not isinstance(data, dict) or data.get("format") != _STORE_FORMAT:
        return None
    return data


class FontFace:
    """Metrics and glyph outlines of one weight, read once per process.

    One object serves every thread of the process (the Python API may be called from
    several at once): fontTools reads a lazy font's tables and decompiles its glyphs on
    first use, and two threads doing so together see half-built glyphs (AttributeError
    'flags', or other bytes).  Every use of the font goes through ``_lock``; what is
    cached is read without it (a dict lookup), then made under it.

    What a command asks of the font (its units, cap height, and each character's glyph
    name, advance and outline) comes from its :class:`GlyphStore` when an earlier process
    read it: a command whose characters are all there never imports fontTools nor parses
    the font (a tenth of a side-100 PNG board's start-up beyond cairo's).  A stored
    outline is the calls the font's glyph made on a pen, replayed: every pen draws the
    same thing either way."""

    def __init__(self, weight: str) -> None:
        self.weight = weight
        self._lock = threading.RLock()
        # The whole file, read now (a quarter of a megabyte): a lazy TTFont on the path keeps
        # the file open and reads tables on demand, and processes forked after it (the
        # workers of `boardgen all`) would share that file's offset, their reads
        # interleaving ("not enough 'glyf' table data").  Bytes in memory are each
        # process's own.
        self._bytes = Path(font_path(weight)).read_bytes()
        self._store = GlyphStore.for_font(self._bytes)
        self._parsed: Any = None  # the TTFont, parsed when the store lacks something
        self._cmap: dict[int, str] = {}
        self._metrics: Any = None
        if self._store.metrics is None:
            font = self._font
            self._store.learn_metrics(font["head"].unitsPerEm, font["OS/2"].sCapHeight)
        assert self._store.metrics is not None
        self.units_per_em: int = self._store.metrics[0]
        self.cap_height: int = self._store.metrics[1]
        self._widths: dict[str, int] = {}  # text -> advance in font units
        self._glyph_set: Any = None  # the outlines: read on the first outline only
        self._glyphs: dict[str, Glyph] = {}
        self._advances: dict[str, int] = {}

    @property
    def _font(self) -> Any:
        """The font as fontTools reads it, parsed on first use.  fontTools is imported here,
        not with the module: a command that draws no text, or only characters the store
        has, never pays for it."""
        with self._lock:
            if self._parsed is None:
                from fontTools.ttLib import TTFont

                font = TTFont(io.BytesIO(self._bytes), lazy=True)
                self._cmap = font.getBestCmap()
                self._metrics = font["hmtx"]
                self._parsed = font
            return self._parsed

    def _character(self, ch: str) -> StoredCharacter:
        known = self._store.characters.get(ch)
        if known is None:
            with self._lock:
                self._font  # noqa: B018  # parsed: its cmap and metrics read
                name = self._cmap.get(ord(ch), ".notdef")
                known = (name, ord(ch) in self._cmap, self._metrics[name][0])
                self._store.learn(ch, known)
        return known

    def glyph(self, ch: str) -> Glyph:
        cached = self._glyphs.get(ch)
        if cached is not None:
            return cached
        from fontTools.pens.svgPathPen import SVGPathPen
        from fontTools.pens.transformPen import TransformPen

        with self._lock:
            cached = self._glyphs.get(ch)
            if cached is not None:
                return cached
            pens: list[SVGPathPen] = []

            def pen_for(glyph_set: Any) -> TransformPen:
                pens.append(SVGPathPen(glyph_set, ntos=lambda v: f"{v:g}"))
                return TransformPen(pens[0], (1, 0, 0, -1, 0, 0))

            self.draw_outline(ch, pen_for)
            glyph = Glyph(
                id=f"glyph-{self.weight[0]}{ord(ch):x}",
                advance=self.advance(ch),
                path=pens[0].getCommands(),
            )
            self._glyphs[ch] = glyph
            return glyph

    def _glyph_set_locked(self) -> Any:
        if self._glyph_set is None:
            self._glyph_set = self._font.getGlyphSet()
        return self._glyph_set

    def glyph_name(self, ch: str) -> str:
        return self._character(ch)[0]

    def draw_outline(self, ch: str, pen_for: Callable[[Any], Any]) -> None:
        """Draw ``ch``'s outline with the pen ``pen_for(glyph set)`` makes (fontTools' pen
        protocol), under the font's lock.  A stored outline has no component: its pen is
        given the glyph set only if the font was parsed (else None, which it never needs)."""
        name = self.glyph_name(ch)
        with self._lock:
            if ch not in self._store.outlines:
                from fontTools.pens.recordingPen import RecordingPen

                recording = RecordingPen()
                self._glyph_set_locked()[name].draw(recording)
                calls: OutlineCalls | None = [(call, tuple(arguments))
                                              for call, arguments in recording.value]
                if calls is not None and any(call not in _CONTOUR_CALLS for call, _ in calls):
                    calls = None  # components: drawn from the font, through its glyph set
                self._store.learn_outline(ch, calls)
            calls = self._store.outlines[ch]
            if calls is None:
                glyph_set = self._glyph_set_locked()
                glyph_set[name].draw(pen_for(glyph_set))
                return
            pen = pen_for(self._glyph_set)
            for call, arguments in calls:
                getattr(pen, call)(*arguments)

    def lacks(self, ch: str) -> bool:
        """True if the font has no glyph for ``ch`` (it would print as a box)."""
        return not self._character(ch)[1]

    def advance(self, ch: str) -> int:
        """The advance width of ``ch`` in font units, without drawing its outline (a PDF
        measures its texts but never needs the outlines)."""
        advance = self._advances.get(ch)
        if advance is None:
            advance = self._advances[ch] = self._character(ch)[2]
        return advance

    def width_mm(self, text: str, size_mm: float) -> float:
        units = self._widths.get(text)
        if units is None:
            # Measured once per text: wrapping a caption measures each of its growing
            # lines, and the same labels come back in every panel (half a million
            # characters summed in one `boardgen all`).
            units = sum(self.advance(ch) for ch in text)
            if len(self._widths) < MEASURED_TEXTS:
                self._widths[text] = units
        return units * size_mm / self.units_per_em


_FACES_LOCK = threading.Lock()


@functools.cache
def face(weight: str = REGULAR) -> FontFace:
    with _FACES_LOCK:  # one object per weight, even when threads ask for it together
        return _face(weight)


@functools.cache
def _face(weight: str) -> FontFace:
    return FontFace(weight)


@functools.cache
def register_pdf_fonts() -> None:
    """Make both weights known to reportlab (embedded as subsets when used)."""
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont as ReportlabTTFont

    for weight, name in PDF_FONT_NAMES.items():
        pdfmetrics.registerFont(ReportlabTTFont(name, font_path(weight)))
    # The italics, for running text only (figures print upright): <i> and <b><i> in a
    # paragraph then keep the emphasis the sheet's markup asks for.
    for name, key in ITALIC_FILES.items():
        path = str(font_source_sans_pro.font_files_ttf[key])
        pdfmetrics.registerFont(ReportlabTTFont(name, path))
    pdfmetrics.registerFontFamily(PDF_FONT_NAMES[REGULAR], normal=PDF_FONT_NAMES[REGULAR],
                                  bold=PDF_FONT_NAMES[BOLD], italic="SourceSansPro-It",
                                  boldItalic="SourceSansPro-BoldIt")


def missing_glyphs(text: str) -> str:
    """The characters of ``text`` that the bundled font lacks in either weight, once each."""
    seen = dict.fromkeys(ch for ch in text if face(REGULAR).lacks(ch) or face(BOLD).lacks(ch))
    return "".join(seen)
