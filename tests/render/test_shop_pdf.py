"""A print shop's PDF, read back from the file: page boxes, bleed, crop marks, PDF/X.

The expected sizes are written out here from the shops' published figures (3 mm, 1/8 in,
an 18 mm wrap; A4 is 210 x 297 mm), not taken from boardgen's tables.
"""

from __future__ import annotations

import io
import shutil
import subprocess
from functools import cache
from pathlib import Path

import pytest
from conftest import Run, one_line_error
from hypothesis import given, settings
from hypothesis import strategies as st
from pdfdata import read_pages, scale_bars
from pypdf import PdfReader
from pypdf.generic import ContentStream, NameObject

from boardgen.api import board

# Slow: left out of the quick subset (pytest -m "not slow"; the README says which).
pytestmark = pytest.mark.slow

MM = 25.4 / 72
A4 = (210.0, 297.0)
# preset: (bleed mm, safe zone mm, PDF/X version)
PRESETS = {"generic": (3.0, 3.0, "PDF/X-4"), "tgc": (3.175, 3.175, "PDF/X-1a:2001"),
           "mounted": (18.0, 6.0, "PDF/X-4")}
# game: the trim a board's page has on A4 (Polygone's pages are landscape)
GAMES = {"copolymer": A4, "o": A4, "polygone": (A4[1], A4[0])}
CASES = [(game, shop) for game in GAMES for shop in PRESETS]


@cache
def shop_pdf(game: str, shop: str) -> bytes:
    data = board(game, shop=shop)  # type: ignore[arg-type]
    assert isinstance(data, bytes)
    return data


def boxes(page: object) -> dict[str, tuple[float, ...]]:
    return {name: tuple(float(v) * MM for v in getattr(page, name))  # type: ignore[union-attr]
            for name in ("mediabox", "bleedbox", "trimbox")}


@pytest.mark.parametrize(("game", "shop"), CASES)
def test_boxes_nest_and_measure_the_trim_plus_the_bleed(game: str, shop: str) -> None:
    bleed = PRESETS[shop][0]
    trim_w, trim_h = GAMES[game]
    for page in PdfReader(io.BytesIO(shop_pdf(game, shop))).pages:
        b = boxes(page)
        media, bleedbox, trim = b["mediabox"], b["bleedbox"], b["trimbox"]
        assert trim[2] - trim[0] == pytest.approx(trim_w, abs=0.01)
        assert trim[3] - trim[1] == pytest.approx(trim_h, abs=0.01)
        for k in (0, 1):
            assert bleedbox[k] == pytest.approx(trim[k] - bleed, abs=0.01)
            assert bleedbox[k + 2] == pytest.approx(trim[k + 2] + bleed, abs=0.01)
            # The crop marks need room past the bleed: the media is larger still.
            assert media[k] < bleedbox[k] - 5.0 and media[k + 2] > bleedbox[k + 2] + 5.0


def _inside(box: tuple[float, float, float, float], outer: tuple[float, ...],
            inset: float = 0.0) -> bool:
    return (box[0] >= outer[0] + inset - 1e-3 and box[1] >= outer[1] + inset - 1e-3
            and box[2] <= outer[2] - inset + 1e-3 and box[3] <= outer[3] - inset + 1e-3)


def _bbox(points: list[tuple[float, float]]) -> tuple[float, float, float, float]:
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    return min(xs), min(ys), max(xs), max(ys)


@pytest.mark.parametrize(("game", "shop"), CASES)
def test_the_art_reaches_the_bleed_edge_and_all_else_keeps_to_the_safe_zone(
        game: str, shop: str) -> None:
    safe = PRESETS[shop][1]
    pdf = shop_pdf(game, shop)
    reader = PdfReader(io.BytesIO(pdf))
    for page, vectors in zip(reader.pages, read_pages(pdf), strict=True):
        b = boxes(page)
        bleed = b["bleedbox"]
        filled = [_bbox([p for sp in path.subpaths for p in sp])
                  for path in vectors.paths if path.filled and path.subpaths]
        # A fill covering the whole bleed box: the background runs to its edge.
        assert any(all(abs(f[k] - bleed[k]) < 0.01 for k in range(4)) for f in filled)
        for path in vectors.paths:
            if not path.subpaths or path.tag in ("CropMarks",):
                continue
            box = _bbox([p for sp in path.subpaths for p in sp])
            if all(abs(box[k] - bleed[k]) < 0.01 for k in range(4)):
                continue  # the background
            assert _inside(box, b["trimbox"], safe), (box, b["trimbox"])
        for run in vectors.runs:
            assert _inside(run.box, b["trimbox"], safe), (run.text, run.box)


def _crop_strokes(pdf: bytes) -> list[tuple[object, list[tuple[float, float]]]]:
    """Each stroke drawn under the CropMarks tag on the first page, as (its stroking
    colour space, resolved; its points in page mm): read here from the operators, apart
    from pdfdata, which keeps no colours."""
    reader = PdfReader(io.BytesIO(pdf))
    page = reader.pages[0]
    spaces = page["/Resources"].get("/ColorSpace", {})
    ctm = [1.0, 0, 0, 1.0, 0, 0]
    stack: list[tuple[list[float], object]] = []
    tags: list[str] = []
    space: object = None
    points: list[tuple[float, float]] = []
    strokes = []
    for operands, op in ContentStream(page.get_contents(), reader).operations:
        if op == b"q":
            stack.append((ctm, space))
        elif op == b"Q":
            ctm, space = stack.pop()
        elif op == b"cm":
            a, b_, c, d, e, f = (float(v) for v in operands)
            m = ctm
            ctm = [a * m[0] + b_ * m[2], a * m[1] + b_ * m[3], c * m[0] + d * m[2],
                   c * m[1] + d * m[3], e * m[0] + f * m[2] + m[4], e * m[1] + f * m[3] + m[5]]
        elif op in (b"BMC", b"BDC"):
            tags.append(str(operands[0]))
        elif op == b"EMC":
            tags.pop()
        elif op == b"CS":
            space = spaces[operands[0]].get_object() if operands[0] in spaces \
                else str(operands[0])
        elif op in (b"RG", b"K", b"G"):
            space = {b"RG": "/DeviceRGB", b"K": "/DeviceCMYK", b"G": "/DeviceGray"}[op]
        elif op in (b"m", b"l"):
            x, y = float(operands[0]), float(operands[1])
            points.append(((ctm[0] * x + ctm[2] * y + ctm[4]) * MM,
                           (ctm[1] * x + ctm[3] * y + ctm[5]) * MM))
        elif op == b"S":
            if tags and tags[-1] == "/CropMarks":
                strokes.append((space, points))
            points = []
        elif op in (b"n", b"f", b"B", b"f*", b"b"):
            points = []
    return strokes


@pytest.mark.parametrize("shop", PRESETS)
def test_crop_marks_lie_outside_the_bleed_in_the_registration_colour(shop: str) -> None:
    pdf = shop_pdf("copolymer", shop)
    bleed = boxes(PdfReader(io.BytesIO(pdf)).pages[0])["bleedbox"]
    trim = boxes(PdfReader(io.BytesIO(pdf)).pages[0])["trimbox"]
    strokes = _crop_strokes(pdf)
    assert len(strokes) == 8  # two at each corner
    for space, points in strokes:
        # [/Separation /All ...]: the registration colour, printed on every plate.
        assert isinstance(space, list) and str(space[0]) == "/Separation" \
            and str(space[1]) == "/All", space
        xs, ys = [p[0] for p in points], [p[1] for p in points]
        outside = max(xs) < bleed[0] - 1e-3 or min(xs) > bleed[2] + 1e-3 or \
            max(ys) < bleed[1] - 1e-3 or min(ys) > bleed[3] + 1e-3
        assert outside, (points, bleed)
        # On the line of a trim edge: the shop cuts along it.
        on_edge = any(abs(x - t) < 0.01 for x in xs for t in (trim[0], trim[2])) if \
            abs(xs[0] - xs[1]) < 1e-6 else \
            any(abs(y - t) < 0.01 for y in ys for t in (trim[1], trim[3]))
        assert on_edge


def test_no_crop_marks_when_asked() -> None:
    data = board("o", shop="generic", crop_marks=False)
    assert isinstance(data, bytes)
    assert _crop_strokes(data) == []


@pytest.mark.parametrize(("game", "shop"), CASES)
def test_pdf_x_output_intent_xmp_and_version_keys(game: str, shop: str) -> None:
    pdf = shop_pdf(game, shop)
    version = PRESETS[shop][2]
    reader = PdfReader(io.BytesIO(pdf))
    info = reader.trailer["/Info"].get_object()
    assert info["/GTS_PDFXVersion"] == version
    assert info["/Trapped"] == NameObject("/False")
    assert pdf.startswith(b"%PDF-1.3" if version.startswith("PDF/X-1a") else b"%PDF-1.6")
    intents = reader.trailer["/Root"]["/OutputIntents"]
    assert len(intents) == 1
    intent = intents[0].get_object()
    assert intent["/S"] == "/GTS_PDFX"
    assert intent["/OutputConditionIdentifier"]
    profile = intent["/DestOutputProfile"].get_object()
    icc = profile.get_data()
    # An ICC profile: its signature at 36, a CMYK data colour space at 16, as /N says.
    assert icc[36:40] == b"acsp" and icc[16:20] == b"CMYK" and profile["/N"] == 4
    assert int.from_bytes(icc[0:4], "big") == len(icc)
    xmp = reader.trailer["/Root"]["/Metadata"].get_object().get_data().decode("utf-8")
    if version == "PDF/X-4":
        assert f"<pdfxid:GTS_PDFXVersion>{version}</pdfxid:GTS_PDFXVersion>" in xmp
    else:
        assert f"<pdfx:GTS_PDFXVersion>{version}</pdfx:GTS_PDFXVersion>" in xmp
    assert "<pdf:Trapped>False</pdf:Trapped>" in xmp


def _streams(reader: PdfReader) -> list[object]:
    """Every content stream: the pages' and their forms'."""
    out: list[object] = []
    for page in reader.pages:
        out.append(page.get_contents())
        for xobject in page["/Resources"].get("/XObject", {}).values():
            out.append(xobject.get_object())
    return out


def _colour_spaces(reader: PdfReader) -> list[str]:
    names = []
    for page in reader.pages:
        resources = [page["/Resources"]] + [
            x.get_object().get("/Resources", {}) for x in
            page["/Resources"].get("/XObject", {}).values()]
        for res in resources:
            for space in res.get("/ColorSpace", {}).values():
                space = space.get_object()
                names.append(str(space[0]) if isinstance(space, list) else str(space))
    return names


@pytest.mark.parametrize(("game", "shop"), CASES)
def test_no_rgb_every_font_embedded_and_text_in_solid_black(game: str, shop: str) -> None:
    reader = PdfReader(io.BytesIO(shop_pdf(game, shop)))
    for stream in _streams(reader):
        operators = {op for _, op in ContentStream(stream, reader).operations}
        # No RGB and no grey operators: every colour is CMYK (k, K) or the separation.
        assert not operators & {b"rg", b"RG", b"g", b"G", b"sc", b"scn"}, operators
    assert set(_colour_spaces(reader)) <= {"/Separation"}
    for page in reader.pages:
        for font in page["/Resources"]["/Font"].values():
            font = font.get_object()
            descendants = font.get("/DescendantFonts")
            target = descendants[0].get_object() if descendants else font
            descriptor = target["/FontDescriptor"].get_object()
            assert any(k in descriptor for k in ("/FontFile", "/FontFile2", "/FontFile3"))
    # The title, in the theme's text colour (a near-black grey), prints as 100 % K.
    fill = None
    for operands, op in ContentStream(reader.pages[0].get_contents(), reader).operations:
        if op == b"k":
            fill = [float(v) for v in operands]
        if op in (b"Tj", b"TJ"):
            assert fill == [0.0, 0.0, 0.0, 1.0]
            break


@pytest.mark.parametrize("shop", PRESETS)
def test_the_scale_bar_is_still_50_mm_inside_the_trim(shop: str) -> None:
    pdf = shop_pdf("copolymer", shop)
    trim = boxes(PdfReader(io.BytesIO(pdf)).pages[0])["trimbox"]
    page = read_pages(pdf)[0]
    assert [round(v, 2) for v in scale_bars(page)] == [50.00]
    for s in page.segments:
        if s.tag == "ScaleBar":
            assert _inside((*s.a, *s.b), trim) or _inside((s.a[0], s.a[1], s.a[0], s.a[1]),
                                                          trim)


@pytest.mark.parametrize("shop", ["generic", "tgc"])
def test_identical_input_gives_identical_bytes(shop: str) -> None:
    assert board("o", shop=shop) == board("o", shop=shop)  # type: ignore[arg-type]


def test_a_bleed_alone_is_the_generic_shop_with_that_bleed() -> None:
    data = board("o", bleed=5.0)
    assert isinstance(data, bytes)
    b = boxes(PdfReader(io.BytesIO(data)).pages[0])
    assert b["bleedbox"][0] == pytest.approx(b["trimbox"][0] - 5.0, abs=0.01)


@pytest.mark.parametrize(("args", "fragments"), [
    (["--bleed", "-1"], ["--bleed -1"]),
    (["--bleed", "80"], ["--bleed 80"]),
    (["--shop", "tgc", "--cutter", "laser"], ["--shop", "--cutter"]),
    (["--bleed", "3", "--kerf", "0.2"], ["--bleed", "--kerf"]),
    (["--no-crop-marks"], ["--crop-marks"]),
    (["--shop", "generic", "--cell-mm", "40"], ["--paper", "not tiled"]),
])
def test_bad_shop_options_one_line_exit_2_no_file(run_cli: object, in_tmp: Path,
                                                   args: list[str],
                                                   fragments: list[str]) -> None:
    result: Run = run_cli("board", "copolymer", *args, "-o", "board.pdf")  # type: ignore[operator]
    one_line_error(result, *fragments)
    assert list(in_tmp.iterdir()) == []


def test_a_shop_file_must_be_a_pdf(run_cli: object, in_tmp: Path) -> None:
    result: Run = run_cli("board", "o", "--shop", "generic", "-o", "o.svg")  # type: ignore[operator]
    one_line_error(result, "--shop", "PDF")
    assert list(in_tmp.iterdir()) == []


def test_a_rip_separates_the_crop_marks_onto_every_plate_and_ink_onto_black_alone(
        tmp_path: Path) -> None:
    """Ghostscript's tiffsep (a RIP's separations, apart from boardgen and pypdf): the
    crop marks print on all four plates; the ink theme's board, text and bar on the black
    plate alone."""
    from PIL import Image

    pdf = tmp_path / "board.pdf"
    data = board("o", shop="generic", theme="ink")
    assert isinstance(data, bytes)
    pdf.write_bytes(data)
    dpi = 72
    subprocess.run([shutil.which("gs") or "gs", "-q", "-dNOPAUSE", "-dBATCH", "-dSAFER",
                    "-sDEVICE=tiffsep", f"-r{dpi}", f"-sOutputFile={tmp_path}/sep.tif",
                    str(pdf)], check=True)
    plates = {name: Image.open(tmp_path / f"sep({name}).tif").convert("L")
              for name in ("Cyan", "Magenta", "Yellow", "Black")}
    page = PdfReader(io.BytesIO(data)).pages[0]
    b = boxes(page)
    px = dpi / 25.4

    def inked(plate: Image.Image, box: tuple[float, float, float, float]) -> int:
        height = plate.size[1]
        x0, y0, x1, y1 = (round(v * px) for v in box)
        crop = plate.crop((x0, height - y1, x1, height - y0))
        return sum(1 for v in crop.tobytes() if v < 128)  # tiffsep: ink is dark

    # The crop marks at the bottom-left corner, between the media's and the bleed's edge.
    corner = (b["mediabox"][0], b["mediabox"][1], b["bleedbox"][0], b["bleedbox"][1] + 9)
    for name, plate in plates.items():
        assert inked(plate, corner) > 0, name
    inside = b["bleedbox"]
    assert inked(plates["Black"], inside) > 1000
    for name in ("Cyan", "Magenta", "Yellow"):
        assert inked(plates[name], inside) == 0, name


@settings(max_examples=8, deadline=None)
@given(bleed=st.floats(min_value=0.0, max_value=50.0, allow_nan=False).map(
    lambda v: round(v, 2)), marks=st.booleans())
def test_any_bleed_gives_nested_boxes_that_far_apart(bleed: float, marks: bool) -> None:
    data = board("copolymer", side=4, bleed=bleed, crop_marks=marks)
    assert isinstance(data, bytes)
    b = boxes(PdfReader(io.BytesIO(data)).pages[0])
    for k in (0, 1):
        assert b["trimbox"][k] - b["bleedbox"][k] == pytest.approx(bleed, abs=0.01)
        assert b["bleedbox"][k + 2] - b["trimbox"][k + 2] == pytest.approx(bleed, abs=0.01)
        assert b["mediabox"][k] <= b["bleedbox"][k] + 1e-6
        assert b["mediabox"][k + 2] >= b["bleedbox"][k + 2] - 1e-6
    assert (len(_crop_strokes(data)) == 8) is marks


def test_colours_are_separated_through_the_output_intents_profile() -> None:
    """O's board cells (#d9cdb0 on the perimeter, #b3a074 in the corners, #fbf8f1 inside)
    carry the CMYK that LittleCMS gives for them through the embedded profile, and no
    other; a grey carries black ink alone."""
    from PIL import Image, ImageCms

    pdf = shop_pdf("o", "generic")
    reader = PdfReader(io.BytesIO(pdf))
    intent = reader.trailer["/Root"]["/OutputIntents"][0].get_object()
    icc = intent["/DestOutputProfile"].get_object().get_data()
    transform = ImageCms.buildTransform(
        ImageCms.createProfile("sRGB"), ImageCms.ImageCmsProfile(io.BytesIO(icc)), "RGB",
        "CMYK", renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC)
    fills = set()
    for stream in _streams(reader):
        for operands, op in ContentStream(stream, reader).operations:
            if op == b"k":
                fills.add(tuple(round(float(v), 3) for v in operands))
    for hex_colour in ("#d9cdb0", "#b3a074", "#fbf8f1"):
        rgb = tuple(int(hex_colour[k:k + 2], 16) for k in (1, 3, 5))
        pixel = ImageCms.applyTransform(Image.new("RGB", (1, 1), rgb), transform)
        assert pixel is not None
        expected = tuple(round(v / 255, 3) for v in pixel.getpixel((0, 0)))  # type: ignore[union-attr]
        assert expected in fills, (hex_colour, expected, sorted(fills))
    assert (0.0, 0.0, 0.0, 1.0) in fills  # the text


def test_the_paper_a_refusal_suggests_holds_the_board(run_cli: object, in_tmp: Path) -> None:
    result: Run = run_cli("board", "copolymer", "--shop", "generic", "--cell-mm", "30",  # type: ignore[operator]
                          "-o", "board.pdf")
    line = one_line_error(result, "--paper")
    suggested = line.split("such as ")[1].split(",")[0]
    result = run_cli("board", "copolymer", "--shop", "generic", "--cell-mm", "30",  # type: ignore[operator]
                     "--paper", suggested, "-o", "board.pdf")
    assert result.code == 0, result.err
    trim = boxes(PdfReader(in_tmp / "board.pdf").pages[0])["trimbox"]
    width, height = (float(v) for v in suggested.removesuffix("mm").split("x"))
    assert sorted((trim[2] - trim[0], trim[3] - trim[1])) == \
        pytest.approx(sorted((width, height)), abs=0.01)
