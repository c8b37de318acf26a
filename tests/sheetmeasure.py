"""How a printed rule sheet is laid out, measured from the PDF alone (an oracle for tests).

Text runs are read from the content streams with their effective size in points (font size
times the text and graphics matrices), pages are rasterised to find where the ink ends.
Shares no code or constants with boardgen's writer: the page margins below are the ones
the issue measures against, written out here on their own.
"""

from __future__ import annotations

import io
import math
from dataclasses import dataclass

import pypdfium2
from pypdf import PdfReader

MM_PER_PT = 25.4 / 72
TOP_MM = 10.0  # where a page's text column starts, from the top
LEFT_MM = 10.0  # the text column's left edge
BOTTOM_MM = 18.0  # where it ends, from the bottom (the footer sits below)
FOOTER_MM = 15.0  # text whose baseline is below this (from the bottom) is page furniture
DPI = 72


@dataclass(frozen=True)
class Run:
    text: str
    size_pt: float
    baseline_mm: float  # from the bottom of the page
    x_mm: float
    grey: float  # fill colour as luminance, 0 black .. 1 white (None-safe: 0 if unknown)


@dataclass
class PageLayout:
    runs: list[Run]
    fill: float  # how far down the ink reaches, as a share of the column's height
    is_board: bool  # a board (or pieces) page to print at 100 %
    width_mm: float = 0.0


def _luminance(colour: list[float]) -> float:
    if len(colour) == 1:
        return colour[0]
    if len(colour) == 3:
        r, g, b = colour
        return 0.2126 * r + 0.7152 * g + 0.0722 * b
    if len(colour) == 4:
        c, m, y, k = colour
        return 1 - min(1.0, 0.3 * c + 0.59 * m + 0.11 * y + k)
    return 0.0


def _runs(page: object) -> list[Run]:
    runs: list[Run] = []
    state: dict[str, list[float]] = {"fill": [0.0]}

    def visit(operator: bytes, operands: list[object], cm: list[float], tm: list[float]
              ) -> None:
        # rg/g/k set a device colour; sc/scn one in the colour space set by cs (Typst's
        # sRGB or grey ICC spaces): their operands are the components all the same.
        if operator in (b"rg", b"g", b"k", b"sc", b"scn"):
            state["fill"] = [float(v) for v in operands  # type: ignore[arg-type]
                             if isinstance(v, (int, float))]

    def text(chunk: str, cm: list[float], tm: list[float], font: object,
             size: float) -> None:
        if not chunk.strip():
            return
        # The text space to device space matrix: tm x cm.
        a = tm[0] * cm[0] + tm[1] * cm[2]
        b = tm[0] * cm[1] + tm[1] * cm[3]
        c = tm[2] * cm[0] + tm[3] * cm[2]
        d = tm[2] * cm[1] + tm[3] * cm[3]
        e = tm[4] * cm[0] + tm[5] * cm[2] + cm[4]
        f = tm[4] * cm[1] + tm[5] * cm[3] + cm[5]
        vertical = math.hypot(c, d)  # the height of glyphs, whatever the rotation
        runs.append(Run(chunk.strip(), size * vertical, f * MM_PER_PT, e * MM_PER_PT,
                        _luminance(state["fill"])))
        del a, b

    page.extract_text(visitor_operand_before=visit, visitor_text=text)  # type: ignore[attr-defined]
    return runs


def _ink_bottom_mm(image: object, page_height_mm: float) -> float | None:
    """The lowest inked row above the footer band, in mm from the top."""
    grey = image.convert("L")  # type: ignore[attr-defined]
    px_per_mm = grey.height / page_height_mm
    cut = round((page_height_mm - FOOTER_MM) * px_per_mm)
    body = grey.crop((0, 0, grey.width, cut)).point(lambda v: 255 if v < 200 else 0)
    box = body.getbbox()
    return None if box is None else box[3] / px_per_mm


def measure(pdf: bytes) -> list[PageLayout]:
    reader = PdfReader(io.BytesIO(pdf))
    document = pypdfium2.PdfDocument(pdf)
    pages = []
    for index, page in enumerate(reader.pages):
        height_mm = float(page.mediabox.height) * MM_PER_PT
        text = page.extract_text() or ""
        bottom = _ink_bottom_mm(document[index].render(scale=DPI / 72).to_pil(), height_mm)
        column = height_mm - TOP_MM - BOTTOM_MM
        fill = 0.0 if bottom is None else max(0.0, bottom - TOP_MM) / column
        pages.append(PageLayout(_runs(page), fill, "100 %" in text and "50 mm" in text,
                                float(page.mediabox.width) * MM_PER_PT))
    document.close()
    return pages


def text_pages(layout: list[PageLayout]) -> list[PageLayout]:
    """The pages before the first board page."""
    out = []
    for page in layout:
        if page.is_board:
            break
        out.append(page)
    return out


def smallest_text(layout: list[PageLayout]) -> Run:
    """The smallest run of text on any page, the footer included (it is printed too)."""
    return min((r for page in layout for r in page.runs), key=lambda r: r.size_pt)


def summary(pdf: bytes) -> str:
    layout = measure(pdf)
    texts = text_pages(layout)
    small = smallest_text(layout)
    return (f"{len(layout)} pages; text pages filled "
            f"{', '.join(f'{p.fill:.2f}' for p in texts)}; smallest {small.size_pt:.1f} pt "
            f"({small.text[:30]!r})")


@dataclass(frozen=True)
class Line:
    """A line of text as the page shows it: characters on one baseline, side by side (a
    gap wider than a few spaces starts another line: two captions in a row are two)."""

    page: int  # from 1
    text: str
    x0_mm: float
    x1_mm: float  # where the last glyph's ink ends
    baseline_mm: float  # from the bottom of the page
    size_pt: float  # the font size pdfium reports (page text; figures' own scale aside)


def lines(pdf: bytes, split_mm: float | None = None) -> list[Line]:
    """Every line of text of every page, in the order the page draws them; ``split_mm``: a
    gap at least this wide between two characters starts another line (two captions side
    by side are two lines), else a gap of three times the type size."""
    import ctypes

    import pypdfium2.raw as raw

    document = pypdfium2.PdfDocument(pdf)
    out: list[Line] = []

    def close(page: int, current: list[tuple[str, float, float, float, float]]) -> None:
        text = "".join(c[0] for c in current).strip()
        inked = [c for c in current if c[0].strip()]
        if text and inked:
            out.append(Line(page, text, inked[0][1] * MM_PER_PT, inked[-1][2] * MM_PER_PT,
                            inked[0][3] * MM_PER_PT, max(c[4] for c in inked)))
        current.clear()

    for index in range(len(document)):
        textpage = document[index].get_textpage()
        current: list[tuple[str, float, float, float, float]] = []
        for k in range(textpage.count_chars()):
            ch = textpage.get_text_range(k, 1)
            if ch in ("\r", "\n", ""):
                close(index + 1, current)
                continue
            x, y = ctypes.c_double(), ctypes.c_double()
            raw.FPDFText_GetCharOrigin(textpage.raw, k, ctypes.byref(x), ctypes.byref(y))
            left, _, right, _ = textpage.get_charbox(k)
            size = float(raw.FPDFText_GetFontSize(textpage.raw, k))
            if current:
                last = current[-1]
                gap = 3.0 * max(size, 1.0) if split_mm is None else split_mm / MM_PER_PT
                if abs(y.value - last[3]) > 0.3 or left - last[2] > gap and (
                        split_mm is None or ch.strip()):
                    close(index + 1, current)
            current.append((ch, left, right, y.value, size))
        close(index + 1, current)
        textpage.close()
    document.close()
    return out


@dataclass(frozen=True)
class Spacing:
    """A line's word spaces as set: each space's advance (from its own origin to the next
    character's), in em of the line's size."""

    page: int
    text: str
    spaces_em: tuple[float, ...]
    x0_mm: float
    x1_mm: float
    size_pt: float


_Char = tuple[str, float, float, float, float, float]  # text, origin x, y, size, left, right


def _spacing(page: int, line: list[_Char]) -> Spacing | None:
    text = "".join(c[0] for c in line).strip()
    inked = [c for c in line if c[0].strip()]
    if not text or not inked:
        return None
    spaces = []
    first = None  # the first space of a run (a reader may add one after a no-break)
    for c in line:
        if c[0] in (" ", "\u00a0"):
            first = first or c
        elif first is not None:
            if c[0].strip() and first[3] > 0:
                spaces.append((c[1] - first[1]) / first[3])
            first = None
    return Spacing(page, text, tuple(spaces), inked[0][4] * MM_PER_PT,
                   inked[-1][5] * MM_PER_PT, max(c[3] for c in inked))


def word_spaces(pdf: bytes) -> list[Spacing]:
    """Every line of every page with its word spaces measured from the characters' origins
    (so the glyphs' own side bearings do not count)."""
    import ctypes

    import pypdfium2.raw as raw

    document = pypdfium2.PdfDocument(pdf)
    out: list[Spacing] = []
    for index in range(len(document)):
        textpage = document[index].get_textpage()
        chars: list[_Char] = []
        for k in range(textpage.count_chars()):
            ch = textpage.get_text_range(k, 1)
            x, y = ctypes.c_double(), ctypes.c_double()
            raw.FPDFText_GetCharOrigin(textpage.raw, k, ctypes.byref(x), ctypes.byref(y))
            size = float(raw.FPDFText_GetFontSize(textpage.raw, k))
            left, _, right, _ = textpage.get_charbox(k)
            chars.append((ch, x.value, y.value, size, left, right))
        textpage.close()
        lines_: list[list[_Char]] = [[]]
        for c in chars:
            if c[0] in ("\r", "\n", ""):
                lines_.append([])
                continue
            last = lines_[-1]
            if last and (abs(c[2] - last[-1][2]) > 0.3 or
                         (c[0].strip() and c[4] - last[-1][5] > 3.0 * max(c[3], 1.0))):
                lines_.append([])
            lines_[-1].append(c)
        out.extend(s for s in (_spacing(index + 1, line) for line in lines_) if s)
    document.close()
    return out
