"""The one typeface boardgen prints with: Source Sans Pro (SIL Open Font License 1.1).

It comes from the ``font-source-sans-pro`` package on PyPI, which carries the licence.  PDFs
embed it (a subset) through reportlab.  SVGs draw text as the font's own glyph outlines,
defined once each and placed with ``<use>``: SVG viewers do not agree on web fonts (CairoSVG
ignores ``@font-face``), outlines look the same in every one of them.
"""

from __future__ import annotations

import functools
import io
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import font_source_sans_pro

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


class FontFace:
    """Metrics and glyph outlines of one weight, read once per process.

    One object serves every thread of the process (the Python API may be called from
    several at once): fontTools reads a lazy font's tables and decompiles its glyphs on
    first use, and two threads doing so together see half-built glyphs (AttributeError
    'flags', or other bytes).  Every use of the font goes through ``_lock``; what is
    cached is read without it (a dict lookup), then made under it."""

    def __init__(self, weight: str) -> None:
        self.weight = weight
        # The whole file, read now (a quarter of a megabyte): a lazy TTFont on the path keeps
        # the file open and reads tables on demand, and processes forked after it (the
        # workers of `boardgen all`) would share that file's offset, their reads
        # interleaving ("not enough 'glyf' table data").  Bytes in memory are each
        # process's own.
        # fontTools is imported here, not with the module: a board without labels or title
        # (and every command that draws no text) never pays for it.
        from fontTools.ttLib import TTFont

        self._font = TTFont(io.BytesIO(Path(font_path(weight)).read_bytes()), lazy=True)
        self.units_per_em: int = self._font["head"].unitsPerEm
        self.cap_height: int = self._font["OS/2"].sCapHeight
        self._cmap: dict[int, str] = self._font.getBestCmap()
        self._metrics = self._font["hmtx"]
        self._widths: dict[str, int] = {}  # text -> advance in font units
        self._glyph_set: Any = None  # the outlines: read on the first glyph() only
        self._glyphs: dict[str, Glyph] = {}
        self._advances: dict[str, int] = {}
        self._lock = threading.RLock()

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
            name = self._cmap.get(ord(ch), ".notdef")
            glyph_set = self._glyph_set_locked()
            pen = SVGPathPen(glyph_set, ntos=lambda v: f"{v:g}")
            glyph_set[name].draw(TransformPen(pen, (1, 0, 0, -1, 0, 0)))
            glyph = Glyph(
                id=f"glyph-{self.weight[0]}{ord(ch):x}",
                advance=self._metrics[name][0],
                path=pen.getCommands(),
            )
            self._glyphs[ch] = glyph
            return glyph

    def _glyph_set_locked(self) -> Any:
        if self._glyph_set is None:
            self._glyph_set = self._font.getGlyphSet()
        return self._glyph_set

    def glyph_name(self, ch: str) -> str:
        name: str = self._cmap.get(ord(ch), ".notdef")
        return name

    def draw_outline(self, ch: str, pen_for: Callable[[Any], Any]) -> None:
        """Draw ``ch``'s outline with the pen ``pen_for(glyph set)`` makes (fontTools' pen
        protocol), under the font's lock."""
        with self._lock:
            glyph_set = self._glyph_set_locked()
            glyph_set[self.glyph_name(ch)].draw(pen_for(glyph_set))

    def lacks(self, ch: str) -> bool:
        """True if the font has no glyph for ``ch`` (it would print as a box)."""
        return ord(ch) not in self._cmap

    def advance(self, ch: str) -> int:
        """The advance width of ``ch`` in font units, without drawing its outline (a PDF
        measures its texts but never needs the outlines)."""
        advance = self._advances.get(ch)
        if advance is None:
            with self._lock:
                advance = self._metrics[self._cmap.get(ord(ch), ".notdef")][0]
                self._advances[ch] = advance
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
