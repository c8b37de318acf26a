"""Figures -> a print shop's PDF: bleed, crop marks, CMYK, PDF/X-4 or PDF/X-1a.

A shop prints each page on a larger sheet and cuts it down to the *trim* (here the paper the
user chose, e.g. A4 or 450x450mm).  So each page's box nest: the MediaBox holds the crop
marks; the BleedBox is the trim grown by the bleed on every side (the background is painted
to its edge, so that a cut a little off still shows no white sliver); the TrimBox is the
finished board.  The board and its furniture (title, 50 mm scale bar, credit) are laid out
in the trim exactly as on a home-printed page, and so stay well inside the safe zone.

Colours are written as DeviceCMYK: greys as black ink alone (the text 100 % K), other
colours separated from sRGB through the output intent's profile by LittleCMS (Pillow's
ImageCms), as a RIP would; the crop marks in the registration colour (the ``All``
separation: on every plate).  The document then gets what PDF/X asks of it: the version
keys in the Info dictionary and the XMP packet, ``/Trapped /False``, and an OutputIntent
carrying a CMYK ICC profile.

The profile is Ghostscript's ``default_cmyk.icc`` (Artifex's SWOP profile, ICC v2, so valid
in X-1a as in X-4), read from Debian's ``libgs-common`` (installed with ``ghostscript``):
no maintained PyPI package ships a CMYK profile, and Debian's free profile packages
(icc-profiles-free, colord-data) hold RGB and grey ones only.  ``BOARDGEN_CMYK_PROFILE``
names another profile (e.g. a shop's FOGRA39 file).
"""

from __future__ import annotations

import functools
import hashlib
import io
import math
import os
import re
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from reportlab.lib.colors import CMYKColor, CMYKColorSep, Color, toColor
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from boardgen._version import __version__
from boardgen.errors import BoardgenError, option
from boardgen.i18n import tr
from boardgen.render.figure import Figure
from boardgen.render.fonts import PDF_FONT_NAMES, REGULAR, register_pdf_fonts
from boardgen.render.paper import PageInfo, content_size
from boardgen.render.pdf import _furniture as furniture
from boardgen.render.pdf import _unit as unit_of
from boardgen.render.pdf import ask_for_actual_size, place_figure
from boardgen.render.scene import Theme
from boardgen.reproducible import check_source_date_epoch

Standard = Literal["PDF/X-4", "PDF/X-1a:2001"]
SHOP_NAMES = ("generic", "tgc", "mounted")
# Crop marks: a gap past the bleed (so that no mark prints inside what the shop may keep),
# then a mark this long, then a little paper.
CROP_GAP_MM = 2.0
CROP_LENGTH_MM = 5.0
CROP_WIDTH_MM = 0.25
SLUG_MM = CROP_GAP_MM + CROP_LENGTH_MM + 1.0
CROP_TAG = "CropMarks"
BLEED_TAG = "Bleed"
MAX_BLEED_MM = 50.0
PROFILE_ENV = "BOARDGEN_CMYK_PROFILE"
PROFILE_PLACES = ("/usr/share/color/icc/ghostscript/default_cmyk.icc",)
# What the output intent says it prints to (the profile's own description, with the
# registered characterisation it models).
OUTPUT_CONDITION = "CGATS TR 001"
OUTPUT_INFO = "SWOP (publication) coated, modelled by Artifex's CMYK SWOP profile"
REGISTRATION = CMYKColorSep(1, 1, 1, 1, spotName="All")
# A grey at least this dark prints as solid black ink: shops ask for text in 100 % K, and a
# screened 90 % grey would print small type ragged.
TEXT_BLACK = 0.85

@dataclass(frozen=True)
class Shop:
    """What a print shop asks for: the bleed on each side, the safe zone inside the trim
    where nothing important may stand, the PDF/X standard, and whether crop marks print."""

    name: str
    bleed_mm: float
    safe_mm: float
    standard: Standard = "PDF/X-4"
    crop_marks: bool = True

INCH = 25.4
SHOPS = {
    # European printers: 3 mm bleed, 3 mm safe zone, PDF/X-4.
    "generic": Shop("generic", 3.0, 3.0),
    # The Game Crafter: 1/8 in bleed and a further 1/8 in safe zone; US print-on-demand
    # shops ask for PDF/X-1a (CMYK, no transparency).
    "tgc": Shop("tgc", INCH / 8, INCH / 8, "PDF/X-1a:2001"),
    # A mounted board: the print wraps 18 mm round the board's edges and under them.
    "mounted": Shop("mounted", 18.0, 6.0),
}

def shop_named(name: str | None, bleed: float | None, crop_marks: bool = True) -> Shop:
    """The preset ``name`` (``generic`` when only a bleed is given) with ``bleed`` in mm
    instead of its own when given."""
    if name is not None and name not in SHOPS:
        raise BoardgenError(f"{option('shop')} {name!r}: unknown (choose from "
                            f"{', '.join(SHOP_NAMES)})")
    shop = SHOPS[name or "generic"]
    if bleed is not None:
        if not 0.0 <= bleed <= MAX_BLEED_MM:
            raise BoardgenError(f"{option('bleed')} {bleed:g}: a bleed is between 0 and "
                                f"{MAX_BLEED_MM:g} mm")
        shop = Shop(shop.name, bleed, shop.safe_mm, shop.standard)
    return Shop(shop.name, shop.bleed_mm, shop.safe_mm, shop.standard, crop_marks)

def cmyk_profile() -> bytes:
    """The CMYK ICC profile the output intent carries."""
    given = os.environ.get(PROFILE_ENV)
    places = [given] if given else list(PROFILE_PLACES)
    for place in places:
        try:
            data = Path(place).read_bytes()
        except OSError:
            continue
        if len(data) > 128 and data[16:20] == b"CMYK":
            return data
        raise BoardgenError(f"{PROFILE_ENV}={place}: not a CMYK ICC profile")
    raise BoardgenError(f"a print-shop PDF needs a CMYK ICC profile: install Debian's "
                        f"ghostscript (it ships {PROFILE_PLACES[0]}), or set {PROFILE_ENV} "
                        "to one")

# --- colour ---------------------------------------------------------------------------------

@functools.cache
def _separation(profile: bytes) -> Any:
    """LittleCMS's transform (through Pillow) from sRGB, the themes' colour space, to the
    output intent's CMYK, relative colorimetric: what a RIP would do with the colours."""
    from PIL import ImageCms

    return ImageCms.buildTransform(ImageCms.createProfile("sRGB"),
                                   ImageCms.ImageCmsProfile(io.BytesIO(profile)), "RGB",
                                   "CMYK",
                                   renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC)


@functools.cache
def _separated(rgb: tuple[int, int, int], profile: bytes) -> tuple[float, ...]:
    from PIL import Image, ImageCms

    pixel = ImageCms.applyTransform(Image.new("RGB", (1, 1), rgb), _separation(profile))
    assert pixel is not None
    values = pixel.getpixel((0, 0))
    assert isinstance(values, tuple)
    return tuple(round(v / 255, 4) for v in values)


def to_cmyk(colour: Any, profile: bytes | None = None) -> Any:
    """Any colour reportlab is given, as CMYK: a grey as black ink alone (a separation
    would build it of all four inks, and thin lines and type would print blurred if the
    plates moved), a near-black one (the themes' text) as 100 % K; another RGB colour
    through ``profile`` (the output intent's), or without one by the naive formula.  CMYK
    and separations unchanged."""
    converted = toColor(colour)
    if isinstance(converted, CMYKColor):
        return converted
    assert isinstance(converted, Color)
    r, g, b = converted.red, converted.green, converted.blue
    k = 1.0 - max(r, g, b)
    if max(r, g, b) - min(r, g, b) < 1e-6:
        return CMYKColor(0, 0, 0, 1 if k >= TEXT_BLACK else round(k, 4))
    if profile is not None:
        return CMYKColor(*_separated((round(r * 255), round(g * 255), round(b * 255)),
                                     profile))
    return CMYKColor(*(round((1.0 - v - k) / (1.0 - k), 4) for v in (r, g, b)), round(k, 4))


_RGB_OPERATOR = re.compile(r"(-?\d*\.?\d+) (-?\d*\.?\d+) (-?\d*\.?\d+) (rg|RG)\b")

def _cmyk_operator(match: re.Match[str], profile: bytes | None = None) -> str:
    r, g, b = (float(match.group(k)) for k in (1, 2, 3))
    colour = to_cmyk(Color(r, g, b), profile)
    values = " ".join(f"{v:.4g}" for v in (colour.cyan, colour.magenta, colour.yellow,
                                           colour.black))
    return f"{values} {'k' if match.group(4) == 'rg' else 'K'}"

class CmykCanvas(Canvas):  # type: ignore[misc]  # reportlab is untyped
    """A canvas that writes every colour as CMYK: colours set through reportlab are
    converted (enforceColorSpace), and so are the ``rg``/``RG`` operators in the path
    literals boardgen writes itself (they hold no text)."""

    def __init__(self, buffer: io.BytesIO, *, profile: bytes, **kwargs: Any) -> None:
        super().__init__(buffer, enforceColorSpace=lambda c: to_cmyk(c, profile), **kwargs)
        self._profile = profile

    def addLiteral(self, s: str, escaped: int = 1) -> None:  # noqa: N802 (reportlab's name)
        super().addLiteral(_RGB_OPERATOR.sub(lambda m: _cmyk_operator(m, self._profile), s),
                           escaped)

# --- the page -------------------------------------------------------------------------------

def _crop_marks(c: Canvas, trim: tuple[float, float], bleed: float) -> None:
    """Two marks at each corner of the trim, on the lines of its edges, from CROP_GAP_MM
    past the bleed outwards: none inside the bleed, in the registration colour."""
    width, height = trim
    start, end = bleed + CROP_GAP_MM, bleed + CROP_GAP_MM + CROP_LENGTH_MM
    c.addLiteral(f"/{CROP_TAG} BMC")
    c.saveState()
    c.setStrokeColor(REGISTRATION)
    c.setLineWidth(CROP_WIDTH_MM)
    c.setLineCap(0)
    for x, sx in ((0.0, -1.0), (width, 1.0)):
        for y, sy in ((0.0, -1.0), (height, 1.0)):
            c.line(x + sx * start, y, x + sx * end, y)
            c.line(x, y + sy * start, x, y + sy * end)
    c.restoreState()
    c.addLiteral("EMC")

def shop_page_size(trim: tuple[float, float], shop: Shop) -> tuple[float, float]:
    """The MediaBox of a shop page, in mm: the trim, the bleed and the marks' slug."""
    edge = shop.bleed_mm + (SLUG_MM if shop.crop_marks else 0.0)
    return trim[0] + 2 * edge, trim[1] + 2 * edge

def check_fits(figure: Figure, trim: tuple[float, float], paper_name: str) -> None:
    """A shop prints one sheet per page: refuse a figure the trim's layout cannot hold."""
    room_w, room_h = content_size(trim)
    if figure.width > room_w + 1e-6 or figure.height > room_h + 1e-6:
        raise BoardgenError(
            f"{option('shop')}: the board ({figure.width:.0f} x {figure.height:.0f} mm) does "
            f"not fit one {paper_name} page ({room_w:.0f} x {room_h:.0f} mm to draw on), and "
            f"a shop's file is not tiled; choose a larger {option('paper')} such as "
            f"{math.ceil(figure.width + trim[0] - room_w)}x"
            f"{math.ceil(figure.height + trim[1] - room_h)}mm, "
            f"or a smaller {option('cell_mm')}")

def _shop_canvas(buffer: io.BytesIO, shop: Shop, info: PageInfo, profile: bytes
                 ) -> CmykCanvas:
    register_pdf_fonts()
    c = CmykCanvas(buffer, profile=profile, invariant=1, pageCompression=1,
                   initialFontName=PDF_FONT_NAMES[REGULAR],
                   pdfVersion=(1, 3) if shop.standard == "PDF/X-1a:2001" else (1, 6))
    c.setTitle(info.title or "boardgen")
    c.setAuthor(info.credit or "boardgen")
    c.setSubject(info.subject or "boardgen")
    c.setCreator(f"boardgen {__version__}")
    ask_for_actual_size(c)
    return c


def _begin_sheet(c: CmykCanvas, trim: tuple[float, float], shop: Shop, theme: Theme
                 ) -> float:
    """Start a page for ``trim`` (mm): the sheet's size, the TrimBox and BleedBox, and the
    background painted to the bleed's edge (the board's paper, printed, not the sheet's);
    leaves the canvas in millimetres from the trim's bottom-left corner.  Returns how far
    the trim stands from the sheet's edge."""
    bleed = shop.bleed_mm
    media = shop_page_size(trim, shop)
    offset = (media[0] - trim[0]) / 2
    c.setPageSize((media[0] * mm, media[1] * mm))
    c.setTrimBox([offset * mm, offset * mm, (offset + trim[0]) * mm, (offset + trim[1]) * mm])
    c.setBleedBox([(offset - bleed) * mm, (offset - bleed) * mm,
                   (offset + trim[0] + bleed) * mm, (offset + trim[1] + bleed) * mm])
    c.saveState()
    c.scale(mm, mm)
    c.translate(offset, offset)
    c.addLiteral(f"/{BLEED_TAG} BMC")
    c.setFillColor(theme.paper)
    c.rect(-bleed, -bleed, trim[0] + 2 * bleed, trim[1] + 2 * bleed, stroke=0, fill=1)
    c.addLiteral("EMC")
    return offset


def _end_sheet(c: CmykCanvas, trim: tuple[float, float], shop: Shop) -> None:
    """The crop marks (if asked for), and the page is done."""
    if shop.crop_marks:
        _crop_marks(c, trim, shop.bleed_mm)
    c.restoreState()
    c.showPage()


def render_shop_pdf(pages: Sequence[Figure], *, theme: Theme, trim: tuple[float, float],
                    shop: Shop, info: PageInfo) -> bytes:
    """Each figure on a page whose TrimBox is ``trim`` (mm), laid out as a home-printed
    page is, with the shop's bleed and crop marks, as PDF/X."""
    check_source_date_epoch()
    profile = cmyk_profile()
    buffer = io.BytesIO()
    c = _shop_canvas(buffer, shop, info, profile)
    for number, figure in enumerate(pages, start=1):
        _begin_sheet(c, trim, shop, theme)
        place_figure(c, trim, figure, theme, name=f"page{number}")
        where = tr("page {page} of {pages}").format(page=number, pages=len(pages)) \
            if len(pages) > 1 else None
        furniture(c, trim, where, info, theme, unit_of(figure, True))
        _end_sheet(c, trim, shop)
    c.save()
    return pdf_x(buffer.getvalue(), shop.standard, profile, info)


# --- PDF/X ----------------------------------------------------------------------------------

def _xmp_date(pdf_date: str) -> str:
    """D:YYYYMMDDHHmmSS+HH'mm' -> YYYY-MM-DDTHH:mm:SS+HH:mm (the same instant)."""
    d = pdf_date.removeprefix("D:")
    stamp = f"{d[0:4]}-{d[4:6]}-{d[6:8]}T{d[8:10]}:{d[10:12]}:{d[12:14]}"
    zone = d[14:].replace("'", "")
    if zone in ("", "Z", "Z00", "Z0000"):
        return stamp + "Z"
    return f"{stamp}{zone[0:3]}:{zone[3:5] or '00'}"

def _xml(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")

def _xmp(standard: Standard, title: str, created: str, modified: str, digest: str) -> bytes:
    """The XMP packet PDF/X asks for: its version (pdfxid for X-4, pdfx for X-1a), the
    dates as in the Info dictionary, trapping, and ids derived from the content (so that
    identical input gives identical bytes)."""
    document = uuid.uuid5(uuid.NAMESPACE_URL, "boardgen:" + digest)
    version = (f"<pdfxid:GTS_PDFXVersion>{standard}</pdfxid:GTS_PDFXVersion>"
               if standard == "PDF/X-4" else
               f"<pdfx:GTS_PDFXVersion>{standard}</pdfx:GTS_PDFXVersion>"
               f"<pdfx:GTS_PDFXConformance>{standard}</pdfx:GTS_PDFXConformance>")
    packet = f"""<?xpacket begin="\ufeff" id="W5M0MpCehiHzreSzNTczkc9d"?>
<x:xmpmeta xmlns:x="adobe:ns:meta/">
<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
<rdf:Description rdf:about=""
 xmlns:dc="http://purl.org/dc/elements/1.1/"
 xmlns:xmp="http://ns.adobe.com/xap/1.0/"
 xmlns:xmpMM="http://ns.adobe.com/xap/1.0/mm/"
 xmlns:pdf="http://ns.adobe.com/pdf/1.3/"
 xmlns:pdfx="http://ns.adobe.com/pdfx/1.3/"
 xmlns:pdfxid="http://www.npes.org/pdfx/ns/id/">
<dc:format>application/pdf</dc:format>
<dc:title><rdf:Alt><rdf:li xml:lang="x-default">{_xml(title)}</rdf:li></rdf:Alt></dc:title>
<xmp:CreateDate>{created}</xmp:CreateDate>
<xmp:ModifyDate>{modified}</xmp:ModifyDate>
<xmp:MetadataDate>{modified}</xmp:MetadataDate>
<xmp:CreatorTool>boardgen {__version__}</xmp:CreatorTool>
<xmpMM:DocumentID>uuid:{document}</xmpMM:DocumentID>
<xmpMM:InstanceID>uuid:{document}</xmpMM:InstanceID>
<xmpMM:VersionID>1</xmpMM:VersionID>
<xmpMM:RenditionClass>default</xmpMM:RenditionClass>
<pdf:Producer>boardgen {__version__}</pdf:Producer>
<pdf:Trapped>False</pdf:Trapped>
{version}
</rdf:Description>
</rdf:RDF>
</x:xmpmeta>
<?xpacket end="w"?>"""
    return packet.encode("utf-8")

def pdf_x(data: bytes, standard: Standard, profile: bytes, info: PageInfo) -> bytes:
    """Reportlab's PDF with what PDF/X adds: the output intent (the ICC profile, embedded),
    the version keys, /Trapped /False and the XMP packet.  pypdf (already a dependency)
    rewrites the file; its /ID is set from the content, so the bytes are reproducible."""
    from pypdf import PdfReader, PdfWriter
    from pypdf.generic import (
        ArrayObject,
        ByteStringObject,
        DecodedStreamObject,
        DictionaryObject,
        NameObject,
        NumberObject,
        TextStringObject,
    )

    reader = PdfReader(io.BytesIO(data))
    writer = PdfWriter(clone_from=reader)
    meta: Any = reader.metadata or {}
    created = str(meta.get("/CreationDate", "D:20000101000000+00'00'"))
    modified = str(meta.get("/ModDate", created))
    digest = hashlib.sha256(data).hexdigest()

    raw = DecodedStreamObject()
    raw.set_data(profile)
    raw[NameObject("/N")] = NumberObject(4)
    icc = raw.flate_encode(level=9)
    intent = DictionaryObject({
        NameObject("/Type"): NameObject("/OutputIntent"),
        NameObject("/S"): NameObject("/GTS_PDFX"),
        NameObject("/OutputConditionIdentifier"): TextStringObject(OUTPUT_CONDITION),
        NameObject("/OutputCondition"): TextStringObject(OUTPUT_INFO),
        NameObject("/RegistryName"): TextStringObject("http://www.color.org"),
        NameObject("/Info"): TextStringObject(OUTPUT_INFO),
        NameObject("/DestOutputProfile"): writer._add_object(icc),
    })
    root = writer._root_object
    root[NameObject("/OutputIntents")] = ArrayObject([intent])
    xmp = DecodedStreamObject()
    xmp.set_data(_xmp(standard, info.title or "boardgen", _xmp_date(created),
                      _xmp_date(modified), digest))
    xmp[NameObject("/Type")] = NameObject("/Metadata")
    xmp[NameObject("/Subtype")] = NameObject("/XML")
    root[NameObject("/Metadata")] = writer._add_object(xmp)  # uncompressed, as X-1a asks
    extra: dict[str, Any] = {"/GTS_PDFXVersion": standard, "/Trapped": NameObject("/False"),
                             "/Producer": f"boardgen {__version__}"}
    if standard == "PDF/X-1a:2001":
        extra["/GTS_PDFXConformance"] = standard
    writer.add_metadata(extra)
    if standard == "PDF/X-1a:2001":
        writer.pdf_header = "%PDF-1.3"
    else:
        writer.pdf_header = "%PDF-1.6"
    ident = ByteStringObject(bytes.fromhex(digest[:32]))
    writer._ID = ArrayObject([ident, ident])
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


# --- a finished PDF (a kit) for a shop --------------------------------------------------------

GHOSTSCRIPT_TIMEOUT_S = 300


def _ghostscript_cmyk(pdf: bytes, standard: Standard) -> bytes:
    """The PDF with every colour converted to CMYK by Ghostscript's pdfwrite (Debian's
    ghostscript, which also ships the profile): a typeset rule sheet's colours come in
    whatever space its typesetter chose, and a maintained converter does this better than
    rewriting content streams ourselves."""
    import shutil
    import subprocess
    import tempfile

    gs = shutil.which("gs")
    if gs is None:
        raise BoardgenError(f"{option('shop')}: a kit for a print shop needs Ghostscript "
                            "(Debian's ghostscript package) to convert its colours to CMYK")
    level = "1.3" if standard == "PDF/X-1a:2001" else "1.6"
    with tempfile.TemporaryDirectory(prefix="boardgen-shop-") as folder:
        source, target = Path(folder) / "in.pdf", Path(folder) / "out.pdf"
        source.write_bytes(pdf)
        result = subprocess.run(
            [gs, "-q", "-dNOPAUSE", "-dBATCH", "-dSAFER", "-sDEVICE=pdfwrite",
             f"-dCompatibilityLevel={level}", "-sColorConversionStrategy=CMYK",
             "-sProcessColorModel=DeviceCMYK", "-dAutoRotatePages=/None",
             "-dEmbedAllFonts=true", "-dSubsetFonts=true", f"-sOutputFile={target}",
             str(source)],
            capture_output=True, timeout=GHOSTSCRIPT_TIMEOUT_S, check=False)
        if result.returncode != 0 or not target.exists():
            raise RuntimeError("Ghostscript could not convert the kit: "
                               + result.stderr.decode("utf-8", "replace")[-300:])
        return target.read_bytes()


def impose_for_shop(pdf: bytes, *, theme: Theme, shop: Shop, info: PageInfo) -> bytes:
    """A finished PDF (each page the trim, e.g. a kit) for a print shop: its colours as
    CMYK, each page laid on a sheet with the bleed painted in the paper colour and crop
    marks past it, the boxes set, and the PDF/X keys and output intent added."""
    from pypdf import PdfReader, PdfWriter, Transformation

    check_source_date_epoch()
    profile = cmyk_profile()
    converted = PdfReader(io.BytesIO(_ghostscript_cmyk(pdf, shop.standard)))
    sizes = [(float(p.mediabox.width) / mm, float(p.mediabox.height) / mm)
             for p in converted.pages]
    buffer = io.BytesIO()
    c = _shop_canvas(buffer, shop, info, profile)
    offsets = []
    for trim in sizes:
        offsets.append(_begin_sheet(c, trim, shop, theme))
        _end_sheet(c, trim, shop)
    c.save()
    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(buffer.getvalue())))
    for page, source, offset in zip(writer.pages, converted.pages, offsets, strict=True):
        page.merge_transformed_page(source, Transformation().translate(offset * mm,
                                                                       offset * mm))
    out = io.BytesIO()
    writer.write(out)
    return pdf_x(out.getvalue(), shop.standard, profile, info)
