"""SVG, PDF and PNG output: structure, exact scale, tiling, determinism, and pixels."""

from __future__ import annotations

import io
import re
import xml.etree.ElementTree as ET

import pypdfium2
import pytest
from conftest import TESTS
from hypothesis import given
from hypothesis import strategies as st
from PIL import Image, ImageChops
from pypdf import PdfReader
from pypdf.generic import ContentStream

from boardgen.geometry import Notation, hexhex, rhombus
from boardgen.render.board import BoardOptions, default_cell_width, render_board
from boardgen.render.figure import board_figure
from boardgen.render.paper import content_size, parse_paper, tile, tile_room
from boardgen.render.pdf import PageInfo, render_pdf
from boardgen.render.scene import THEMES, Arrow, Marker, Scene
from boardgen.render.svg import render_svg

SVG_NS = "{http://www.w3.org/2000/svg}"
MM_PER_PT = 25.4 / 72
SNAPSHOTS = TESTS / "snapshots"


def svg_of(grid_side: int = 5, **scene_args: object) -> tuple[str, ET.Element]:
    grid = hexhex(grid_side)
    figure = board_figure(Scene(grid, **scene_args), 10.0)  # type: ignore[arg-type]
    text = render_svg(figure, theme=THEMES["colour"], title="Board")
    return text, ET.fromstring(text.encode())


# --- SVG -------------------------------------------------------------------------------


@pytest.mark.parametrize("side", [2, 5, 10])
def test_svg_has_one_cell_element_per_cell_named_in_notation(side: int) -> None:
    _, root = svg_of(side)
    cells = [e for e in root.iter() if "cell" in e.get("class", "").split()]
    grid = hexhex(side)
    assert len(cells) == len(grid)
    notation = Notation(grid)
    assert sorted(e.get("data-cell") for e in cells) == sorted(notation.name(h) for h in grid)
    assert {e.get("class") for e in cells} == {"cell empty"}


def test_svg_size_is_in_mm_with_a_matching_viewbox() -> None:
    _, root = svg_of(5)
    width, height = root.get("width"), root.get("height")
    assert width and height and width.endswith("mm") and height.endswith("mm")
    vx, vy, vw, vh = (float(v) for v in re.split(r"[\s,]+", root.get("viewBox") or ""))
    assert (vx, vy) == (0, 0)
    assert vw == pytest.approx(float(width[:-2]), abs=0.001)
    assert vh == pytest.approx(float(height[:-2]), abs=0.001)


def test_svg_cell_width_is_exact() -> None:
    _, root = svg_of(5)
    hexagon = next(e for e in root.iter(f"{SVG_NS}polygon") if e.get("id") == "hex")
    xs = [float(p.split(",")[0]) for p in (hexagon.get("points") or "").split()]
    assert max(xs) - min(xs) == pytest.approx(10.0, abs=0.01)
    cells = [e for e in root.iter(f"{SVG_NS}use") if e.get("data-cell")]
    row_a = sorted(float(e.get("x") or 0) for e in cells if (e.get("data-cell") or "")[0] == "A")
    assert row_a[1] - row_a[0] == pytest.approx(10.0, abs=0.002)


def test_svg_layers_have_their_own_classes() -> None:
    grid = hexhex(4)
    _, root = svg_of(4, cell_roles={grid.cells[0]: "player1"},
                     cell_texts={grid.cells[0]: "1"}, markers=(Marker(grid.cells[1]),),
                     arrows=(Arrow(grid.cells[2], grid.cells[3]),), caption="a caption")
    classes = {e.get("class") for e in root.iter()}
    for expected in ("layer-board", "layer-marks", "layer-annotations", "layer-labels",
                     "layer-coordinates", "layer-captions", "coordinate", "cell-text",
                     "caption", "mark dot accent", "stroke accent", "title", "paper", "board"):
        assert expected in classes, expected
    assert "cell player1" in classes


def test_svg_title_with_markup_characters_is_escaped() -> None:
    figure = board_figure(Scene(hexhex(3)), 10.0)
    title = 'Tom & Jerry\'s <board> "best"'
    text = render_svg(figure, theme=THEMES["colour"], title=title)
    root = ET.fromstring(text.encode())
    assert root.find(f"{SVG_NS}title") is not None
    assert root.find(f"{SVG_NS}title").text == title  # type: ignore[union-attr]
    labels = [e.get("aria-label") for e in root.iter() if e.get("class") == "title"]
    assert labels == [title]


def test_svg_uses_glyph_outlines_not_font_text() -> None:
    text, root = svg_of(3)
    assert "<text" not in text  # every viewer draws the same letters
    glyphs = [e for e in root.iter(f"{SVG_NS}path") if (e.get("id") or "").startswith("glyph-")]
    assert glyphs and all(e.get("d") for e in glyphs)


@pytest.mark.parametrize("theme", sorted(THEMES))
def test_every_theme_renders_every_role(theme: str) -> None:
    grid = hexhex(4)
    roles = dict(zip(grid.cells, THEMES[theme].cells, strict=False))
    figure = board_figure(Scene(grid, cell_roles=roles), 8.0)
    root = ET.fromstring(render_svg(figure, theme=THEMES[theme]).encode())
    used = {e.get("class") for e in root.iter(f"{SVG_NS}use") if e.get("data-cell")}
    assert used == {f"cell {role}" for role in THEMES[theme].cells}


def test_ink_theme_is_black_and_white_only() -> None:
    grid = hexhex(4)
    roles = dict(zip(grid.cells, THEMES["ink"].cells, strict=False))
    text = render_svg(board_figure(Scene(grid, cell_roles=roles), 8.0), theme=THEMES["ink"])
    colours = set(re.findall(r"#[0-9a-fA-F]{6}", text))
    assert colours <= {"#000000", "#ffffff"}


# --- PDF -------------------------------------------------------------------------------


def _pdf(grid_side: int = 10, paper: str = "a4", cell_mm: float | None = None,
         orientation: str = "auto") -> bytes:
    return render_board(Scene(hexhex(grid_side)), "pdf",
                        BoardOptions(parse_paper(paper), orientation, cell_mm),
                        theme=THEMES["colour"], info=PageInfo("T", "S", "C"))


@pytest.mark.parametrize(("paper", "size_mm"), [("a4", (210, 297)), ("letter", (215.9, 279.4)),
                                                ("a3", (297, 420)), ("250x300mm", (250, 300))])
def test_pdf_page_size(paper: str, size_mm: tuple[float, float]) -> None:
    reader = PdfReader(io.BytesIO(_pdf(5, paper, orientation="portrait")))
    box = reader.pages[0].mediabox
    assert float(box.width) * MM_PER_PT == pytest.approx(size_mm[0], abs=0.05)
    assert float(box.height) * MM_PER_PT == pytest.approx(size_mm[1], abs=0.05)


def _first_hexagon_width_mm(pdf: bytes) -> float:
    """Follow the transforms from the page into the board form and measure the first
    hexagon drawn there, as a printer would see it."""
    reader = PdfReader(io.BytesIO(pdf))
    page = reader.pages[0]

    def matmul(a: list[float], b: list[float]) -> list[float]:
        return [a[0] * b[0] + a[1] * b[2], a[0] * b[1] + a[1] * b[3],
                a[2] * b[0] + a[3] * b[2], a[2] * b[1] + a[3] * b[3],
                a[4] * b[0] + a[5] * b[2] + b[4], a[4] * b[1] + a[5] * b[3] + b[5]]

    def walk(stream: object, resources: object, ctm: list[float]) -> float | None:
        stack: list[list[float]] = []
        points: list[tuple[float, float]] = []
        for operands, op in ContentStream(stream, reader).operations:
            if op == b"q":
                stack.append(ctm)
            elif op == b"Q":
                ctm = stack.pop()
            elif op == b"cm":
                ctm = matmul([float(v) for v in operands], ctm)
            elif op == b"Do":
                xobject = resources["/XObject"][operands[0]].get_object()  # type: ignore[index]
                matrix = [float(v) for v in xobject.get("/Matrix", [1, 0, 0, 1, 0, 0])]
                found = walk(xobject, xobject.get("/Resources", resources), matmul(matrix, ctm))
                if found is not None:
                    return found
            elif op in (b"m", b"l"):
                x, y = (float(v) for v in operands)
                points.append((ctm[0] * x + ctm[2] * y + ctm[4], ctm[1] * x + ctm[3] * y + ctm[5]))
            elif op == b"h" and len(points) == 6:
                xs = [p[0] for p in points]
                return (max(xs) - min(xs)) * MM_PER_PT
            elif op in (b"h", b"re"):
                points = []
        return None

    width = walk(page.get_contents(), page["/Resources"], [1, 0, 0, 1, 0, 0])
    assert width is not None, "no hexagon found in the PDF"
    return width


@pytest.mark.parametrize("cell_mm", [8.0, 12.5, 21.3])
def test_pdf_cell_width_measures_what_was_asked(cell_mm: float) -> None:
    assert _first_hexagon_width_mm(_pdf(5, cell_mm=cell_mm)) == pytest.approx(cell_mm, abs=0.1)


def test_pdf_default_cell_fits_paper_and_is_printed_on_the_page() -> None:
    pdf = _pdf(10)
    reader = PdfReader(io.BytesIO(pdf))
    assert len(reader.pages) == 1
    text = reader.pages[0].extract_text()
    width = _first_hexagon_width_mm(pdf)
    assert "50 mm" in text and f"{width:.1f} mm" in text
    assert 8.0 <= width <= 30.0
    assert reader.metadata is not None and reader.metadata.title == "T"


def test_default_cell_width_is_the_largest_that_fits() -> None:
    scene = Scene(hexhex(10))
    paper = parse_paper("a4")
    width = default_cell_width(scene, paper, "auto")
    fits = board_figure(scene, width)
    bigger = board_figure(scene, width + 0.1)
    assert tile((fits.width, fits.height), paper, "auto").pages == 1
    assert tile((bigger.width, bigger.height), paper, "auto").pages > 1


def test_tiling_page_counts() -> None:
    a4 = parse_paper("a4")
    room = content_size(a4.size("portrait"))
    assert tile((room[0], room[1]), a4, "portrait").pages == 1
    assert tile((room[0] + 1, room[1]), a4, "portrait").pages == 2
    plan = tile((room[0] * 2.5, room[1] * 1.5), a4, "portrait")
    assert (plan.cols, plan.rows) == (3, 2)
    # Equal tiles that butt together into exactly the board, each with room for a glue tab.
    kept = tile_room(a4.size("portrait"))
    assert plan.tile_width + plan.glue <= kept[0] and plan.tile_height + plan.glue <= kept[1]
    last_x, last_y = plan.tile_origin(plan.rows - 1, plan.cols - 1)
    assert last_x + plan.tile_width == pytest.approx(room[0] * 2.5)
    assert last_y + plan.tile_height == pytest.approx(room[1] * 1.5)
    # A wide board goes landscape when that takes fewer pages.
    wide = tile((400, 150), a4, "auto")
    assert wide.orientation == "landscape"
    assert wide.pages < tile((400, 150), a4, "portrait").pages


def test_large_board_is_tiled_with_page_map_and_marks() -> None:
    pdf = _pdf(30)
    reader = PdfReader(io.BytesIO(pdf))
    figure = board_figure(Scene(hexhex(30)), 8.0)
    expected = tile((figure.width, figure.height), parse_paper("a4"), "auto")
    assert len(reader.pages) == expected.pages > 1
    second = reader.pages[1].extract_text()
    assert f"page 2 of {expected.pages}, row 1 col 2" in second
    assert "goes here" in second and re.search(r"cut (along )?the dashed lines", second, re.I)
    # The board and the furniture every page shares are drawn once, as forms, and placed on
    # every page.
    forms = {tuple(sorted(ref.idnum for ref in p["/Resources"]["/XObject"].get_object().values()))
             for p in reader.pages}
    assert len(forms) == 1 and len(next(iter(forms))) == 2


def test_rerun_gives_identical_bytes() -> None:
    assert _pdf(6) == _pdf(6)
    assert _pdf(30) == _pdf(30)
    a, _ = svg_of(6)
    b, _ = svg_of(6)
    assert a == b
    png = render_board(Scene(hexhex(3)), "png", BoardOptions(parse_paper("a4"), dpi=50),
                       theme=THEMES["colour"], info=PageInfo("T"))
    assert png == render_board(Scene(hexhex(3)), "png", BoardOptions(parse_paper("a4"), dpi=50),
                               theme=THEMES["colour"], info=PageInfo("T"))


# --- pixels ----------------------------------------------------------------------------


def _pdf_page_image(pdf: bytes, page: int = 0, scale: float = 1.0) -> Image.Image:
    document = pypdfium2.PdfDocument(pdf)
    image: Image.Image = document[page].render(scale=scale).to_pil().convert("L")
    document.close()
    return image


def test_pdf_page_renders_with_ink_inside_the_margins() -> None:
    image = _pdf_page_image(_pdf(10), scale=1.0)
    histogram = image.histogram()
    dark = sum(histogram[:128])
    assert dark > 0.005 * image.width * image.height  # not blank
    # Nothing within 11 mm of any edge (the margin is 12 mm): nothing clipped by printers.
    edge = round(11 / MM_PER_PT)
    inner = Image.new("L", image.size, 0)
    inner.paste(255, (edge, edge, image.width - edge, image.height - edge))
    outside = ImageChops.darker(ImageChops.invert(image), ImageChops.invert(inner))
    assert outside.getbbox() is None


def test_png_output_is_a_picture_of_the_board() -> None:
    png = render_board(Scene(hexhex(5)), "png", BoardOptions(parse_paper("a4"), cell_mm=10,
                       dpi=96), theme=THEMES["colour"], info=PageInfo("T"))
    image = Image.open(io.BytesIO(png))
    figure = board_figure(Scene(hexhex(5)), 10.0)
    assert image.width == pytest.approx(figure.width / 25.4 * 96, abs=2)
    assert len(image.convert("L").getcolors(maxcolors=100000) or []) > 10


def _compare_snapshot(name: str, image: Image.Image) -> None:
    path = SNAPSHOTS / name
    if not path.exists():
        SNAPSHOTS.mkdir(exist_ok=True)
        image.save(path)
        pytest.fail(f"snapshot {name} was missing and has been written: look at it, commit it")
    reference = Image.open(path).convert("L")
    assert reference.size == image.size
    diff = ImageChops.difference(reference, image.convert("L"))
    changed = sum(diff.point(lambda v: 255 if v > 64 else 0).histogram()[255:])
    assert changed <= 0.002 * image.width * image.height, f"{name}: {changed} pixels changed"


def test_snapshot_copolymer_side5_pdf() -> None:
    _compare_snapshot("copolymer-side5-a4.png", _pdf_page_image(_pdf(5), scale=0.5))


def test_snapshot_rhombus_svg_inside_labels() -> None:
    import cairosvg

    figure = board_figure(Scene(rhombus(5), labels="inside"), 10.0)
    svg = render_svg(figure, theme=THEMES["colourblind"], title="Rhombus 5x5")
    png = cairosvg.svg2png(bytestring=svg.encode(), dpi=120)
    _compare_snapshot("rhombus5-inside.png", Image.open(io.BytesIO(png)))


def test_pdf_renders_many_pages_without_blank_ones() -> None:
    pdf = _pdf(30)
    count = len(PdfReader(io.BytesIO(pdf)).pages)
    for page in range(count):
        image = _pdf_page_image(pdf, page, scale=0.3)
        assert sum(image.histogram()[:200]) > 0.01 * image.width * image.height


def test_render_pdf_is_a_pure_function_of_its_inputs() -> None:
    figure = board_figure(Scene(hexhex(4)), 12.0)
    a = render_pdf(figure, theme=THEMES["ink"], paper=parse_paper("letter"))
    b = render_pdf(figure, theme=THEMES["ink"], paper=parse_paper("letter"))
    assert a == b and a.startswith(b"%PDF")


@pytest.mark.parametrize(("game", "name"), [("o", "glyphs"), ("copolymer", "tempo"),
                                            ("polygone", "09-capture-back"), (None, "board")])
def test_a_png_drawn_in_bands_has_the_pixels_of_one_drawn_at_once(
        monkeypatch: pytest.MonkeyPatch, game: str | None, name: str) -> None:
    """Each band draws only the cells, marks and texts that reach into it: cut into strips
    of 7 pixel rows, a picture (numbers, rings, arrows, labels inside cells, several
    paints) must come out as drawn in one piece.  Not to the bit: a pattern's long bars
    are cut by each band's clip, which moves their anti-aliased edges by a few levels (10
    of 255 at most, measured, and the same before bands culled anything); a glyph, ring
    or cell left out of a band is a jump of far more."""
    import boardgen
    from boardgen.render import raster

    def picture() -> Image.Image:
        if game is None:
            png = boardgen.board("copolymer", "png", side=6, labels="inside", dpi=200)
        else:
            png = boardgen.draw(boardgen.diagram(game, name), "png", dpi=200)
        return Image.open(io.BytesIO(png)).convert("RGB")

    whole = picture()
    monkeypatch.setattr(raster, "BAND_PIXELS", 7 * whole.width)
    banded = picture()
    assert banded.size == whole.size
    assert max(ImageChops.difference(banded, whole).tobytes()) <= 24


@given(st.text(alphabet=st.sampled_from("ab \"'&<>\n\r\t;#é"), max_size=12) | st.text())
def test_svg_escapes_texts_as_the_standard_library_does(text: str) -> None:
    """render/svg.py's copies of xml.sax.saxutils' escape and quoteattr (not imported: it
    imports urllib.request) write the same bytes."""
    from xml.sax.saxutils import escape as standard_escape
    from xml.sax.saxutils import quoteattr as standard_quoteattr

    from boardgen.render.svg import escape, quoteattr

    assert quoteattr(text) == standard_quoteattr(text)
    assert escape(text) == standard_escape(text)


def test_shifting_a_figure_carries_every_field() -> None:
    """Figure.shifted builds its texts, marks and strokes field by field (for speed): each
    must come out as dataclasses.replace would move it, every other field kept, whatever
    fields these classes gain."""
    from dataclasses import fields, replace

    from boardgen.render.figure import Figure, Mark, Stroke, Text

    def unusual(cls: type) -> object:
        values: dict[str, object] = {}
        for k, f in enumerate(fields(cls)):
            if f.name == "points":
                values[f.name] = ((1.0 + k, 2.0), (3.0, 4.0 + k))
            elif f.type in ("float", float):
                values[f.name] = 1.5 + k
            elif f.type in ("bool", bool):
                values[f.name] = True
            else:
                values[f.name] = f"value {k}"
        return cls(**values)

    text, mark, stroke = unusual(Text), unusual(Mark), unusual(Stroke)
    figure = Figure(10.0, 10.0, 5.0, (), [], [text], [mark], [stroke])  # type: ignore[list-item]
    moved = figure.shifted(2.0, -3.0)
    assert moved.texts == [replace(text, x=text.x + 2.0, y=text.y - 3.0)]  # type: ignore[attr-defined]
    assert moved.marks == [replace(mark, x=mark.x + 2.0, y=mark.y - 3.0)]  # type: ignore[attr-defined]
    assert moved.strokes == [replace(stroke, points=tuple(  # type: ignore[type-var]
        (x + 2.0, y - 3.0) for x, y in stroke.points))]  # type: ignore[attr-defined]
