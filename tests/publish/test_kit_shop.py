"""A print-and-play kit for a print shop (``boardgen kit GAME --shop ...``), read back from
the file: each page of the kit on its own trim, the bleed round it, crop marks past the
bleed in the registration colour, CMYK only, PDF/X keys and an embedded profile."""

from __future__ import annotations

import io
import tempfile
from functools import cache
from pathlib import Path

import pytest
from conftest import Run, one_line_error
from pypdf import PdfReader
from pypdf.generic import ContentStream

MM = 25.4 / 72


# Slow (each kit is typeset, then converted by Ghostscript): left out of the quick subset.
pytestmark = pytest.mark.slow


@cache
def kit_pdf(game: str, *args: str) -> bytes:
    from click.testing import CliRunner

    from boardgen.cli import cli

    with tempfile.TemporaryDirectory() as folder:
        target = Path(folder) / "kit.pdf"
        result = CliRunner().invoke(cli, ["kit", game, *args, "-o", str(target)])
        assert result.exit_code == 0, result.output
        return target.read_bytes()


def box(page: object, name: str) -> tuple[float, ...]:
    return tuple(float(v) * MM for v in getattr(page, name))


@pytest.mark.parametrize(("shop", "bleed", "version"), [
    ("generic", 3.0, "PDF/X-4"), ("tgc", 3.175, "PDF/X-1a:2001")])
def test_every_page_of_the_kit_on_its_trim_with_the_bleed_round_it(
        shop: str, bleed: float, version: str) -> None:
    plain = PdfReader(io.BytesIO(kit_pdf("polygone")))
    reader = PdfReader(io.BytesIO(kit_pdf("polygone", "--shop", shop)))
    assert len(reader.pages) == len(plain.pages)
    for page, original in zip(reader.pages, plain.pages, strict=True):
        trim, bleedbox, media = (box(page, n) for n in ("trimbox", "bleedbox", "mediabox"))
        # The trim is the kit's own page (A4, either way round).
        assert trim[2] - trim[0] == pytest.approx(float(original.mediabox.width) * MM, abs=0.01)
        assert trim[3] - trim[1] == pytest.approx(float(original.mediabox.height) * MM,
                                                  abs=0.01)
        for k in (0, 1):
            assert bleedbox[k] == pytest.approx(trim[k] - bleed, abs=0.01)
            assert bleedbox[k + 2] == pytest.approx(trim[k + 2] + bleed, abs=0.01)
            assert media[k] < bleedbox[k] and media[k + 2] > bleedbox[k + 2]
        # CMYK (or grey, which prints on black) only: no RGB operator anywhere.
        streams = [page.get_contents()] + [
            x.get_object() for x in page["/Resources"].get("/XObject", {}).values()
            if x.get_object().get("/Subtype") == "/Form"]
        for stream in streams:
            ops = {op for _, op in ContentStream(stream, reader).operations}
            assert not ops & {b"rg", b"RG"}
        spaces = [s.get_object() for s in page["/Resources"].get("/ColorSpace", {}).values()]
        assert all(not (isinstance(s, list) and str(s[0]) in ("/ICCBased", "/CalRGB"))
                   and str(s) != "/DeviceRGB" for s in spaces)
    info = reader.trailer["/Info"].get_object()
    assert info["/GTS_PDFXVersion"] == version
    intent = reader.trailer["/Root"]["/OutputIntents"][0].get_object()
    icc = intent["/DestOutputProfile"].get_object().get_data()
    assert icc[36:40] == b"acsp" and icc[16:20] == b"CMYK"


def test_crop_marks_past_the_bleed_on_every_page_in_the_registration_colour() -> None:
    reader = PdfReader(io.BytesIO(kit_pdf("o", "--shop", "mounted")))
    for page in reader.pages:
        bleedbox = box(page, "bleedbox")
        spaces = page["/Resources"]["/ColorSpace"]
        space = None
        tags: list[str] = []
        scale = 1.0
        shift = (0.0, 0.0)
        points: list[tuple[float, float]] = []
        marks = 0
        for operands, op in ContentStream(page.get_contents(), reader).operations:
            if op == b"BMC":
                tags.append(str(operands[0]))
            elif op == b"EMC" and tags:
                tags.pop()
            elif op == b"cm" and tags == []:
                a, _, _, _, e, f = (float(v) for v in operands)
                shift = (shift[0] + e * scale, shift[1] + f * scale)
                scale *= a
            elif op == b"CS":
                space = spaces[operands[0]].get_object()
            elif op in (b"m", b"l") and tags and tags[-1] == "/CropMarks":
                points.append(((float(operands[0]) * scale + shift[0]) * MM,
                               (float(operands[1]) * scale + shift[1]) * MM))
            elif op == b"S" and tags and tags[-1] == "/CropMarks":
                marks += 1
                assert str(space[0]) == "/Separation" and str(space[1]) == "/All"
                xs, ys = [p[0] for p in points], [p[1] for p in points]
                assert (max(xs) < bleedbox[0] or min(xs) > bleedbox[2]
                        or max(ys) < bleedbox[1] or min(ys) > bleedbox[3]), points
                points = []
        assert marks == 8


def test_a_shop_kit_is_the_same_bytes_twice() -> None:
    first = kit_pdf("copolymer", "--shop", "generic")
    kit_pdf.cache_clear()
    assert kit_pdf("copolymer", "--shop", "generic") == first


@pytest.mark.parametrize(("args", "fragments"), [
    (["--bleed", "-2"], ["--bleed -2"]), (["--no-crop-marks"], ["--crop-marks"])])
def test_bad_kit_shop_options_one_line_exit_2_no_file(run_cli: object, in_tmp: Path,
                                                       args: list[str],
                                                       fragments: list[str]) -> None:
    result: Run = run_cli("kit", "o", *args, "-o", "kit.pdf")  # type: ignore[operator]
    one_line_error(result, *fragments)
    assert list(in_tmp.iterdir()) == []
