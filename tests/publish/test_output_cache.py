"""Diagrams, boards, the printer check and thumbnails kept between builds
(boardgen.publish.sheet_cache, beside the sheets): a hit gives the bytes a build without the
cache gives and draws nothing; every input of the drawing is in its key; a thumbnail is
keyed by the bytes it is drawn from; a spoilt entry is drawn again and mended; the cache
turned off (under either name) keeps nothing."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from conftest import ROOT

from boardgen.i18n import speaking
from boardgen.limits import MAX_SHEET_CACHE_BYTES
from boardgen.publish import drawing, gallery, sheet_cache
from boardgen.render.paper import parse_paper
from boardgen.render.scene import THEMES

pytestmark = pytest.mark.slow  # draws diagrams and boards through reportlab and cairo

A4 = parse_paper("a4")
COLOUR = THEMES["colour"]


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The cache on (the test run turns it off: conftest), in a folder of its own."""
    monkeypatch.delenv(sheet_cache.SHEET_CACHE_ENV, raising=False)
    monkeypatch.delenv(sheet_cache.OUTPUT_CACHE_ENV, raising=False)
    monkeypatch.setenv(sheet_cache.CACHE_ENV, str(tmp_path / "cache"))
    return tmp_path / "cache" / sheet_cache.SHEETS_FOLDER


def _entries(folder: Path, prefix: str = "") -> list[Path]:
    return sorted(folder.glob(f"{prefix}*{sheet_cache.ENTRY_SUFFIX}"))


def _refused(*_args: object, **_kwargs: object) -> bytes:
    raise AssertionError("drawn again: the cache was not read")


def _uncached(monkeypatch: pytest.MonkeyPatch, make: object) -> bytes:
    with monkeypatch.context() as off:
        off.setenv(sheet_cache.OUTPUT_CACHE_ENV, "off")
        assert callable(make)
        data = make()
        assert isinstance(data, bytes)
        return data


# --- diagrams ---------------------------------------------------------------------------------


@pytest.mark.parametrize("fmt", ["pdf", "svg", "png"])
def test_a_diagram_is_read_back_the_bytes_drawn_without_a_cache(
        cache: Path, monkeypatch: pytest.MonkeyPatch, fmt: str) -> None:
    def draw() -> bytes:
        return drawing.render_diagram("o", "corners", fmt, paper=A4, theme=COLOUR)

    first = draw()
    (entry,) = _entries(cache, "o-diagram-")
    monkeypatch.setattr(drawing, "draw_game_diagram", _refused)
    assert draw() == first
    monkeypatch.undo()
    assert _uncached(monkeypatch, draw) == first
    assert len(_entries(cache)) == 1


def _diagram_key(game: str = "o", fmt: str = "pdf", **request: object) -> str | None:
    return sheet_cache.sheet_key(f"diagram-{fmt}", game,
                                 {"name": "corners", "paper": A4, "theme": COLOUR,
                                  "cell_mm": None, "dpi": 150, **request})


def _draw_variant(variant: dict[str, object]) -> bytes:
    options: dict[str, object] = {"name": "corners", "fmt": "pdf", "paper": A4,
                                  "theme": COLOUR, **variant}
    name, fmt = str(options.pop("name")), str(options.pop("fmt"))
    return drawing.render_diagram("o", name, fmt, **options)  # type: ignore[arg-type]


def test_every_part_of_a_diagrams_request_is_in_its_key(cache: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """Each part the drawing reads, changed alone, misses: checked through render_diagram
    itself (a part it left out of its key would be read back here)."""
    drawn: list[tuple[object, ...]] = []
    real = drawing.draw_game_diagram

    def counted(*args: object, **kwargs: object) -> bytes:
        drawn.append(args)
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(drawing, "draw_game_diagram", counted)
    variants: list[dict[str, object]] = [
        {}, {"name": "loop"}, {"fmt": "svg"}, {"paper": parse_paper("letter")},
        {"theme": THEMES["ink"]}, {"cell_mm": 9.0}, {"dpi": 72, "fmt": "png"}, {"fmt": "png"},
    ]
    for variant in variants:
        _draw_variant(variant)
    with speaking("fr"):
        drawing.render_diagram("o", "corners", "pdf", paper=A4, theme=COLOUR)
    assert len(drawn) == len(variants) + 1  # every one a miss
    for variant in variants:  # and every one a hit the second time
        _draw_variant(variant)
    assert len(drawn) == len(variants) + 1


def test_a_diagram_file_or_boardgens_source_changed_is_another_key(
        templates: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    before = _diagram_key()
    path = templates / "o" / "corners.txt"
    path.write_text(path.read_text() + "\n")
    edited = _diagram_key()
    assert before is not None and edited is not None and edited != before
    package = tmp_path / "boardgen"
    shutil.copytree(ROOT / "boardgen", package, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(sheet_cache, "_package_folder", lambda: package)
    assert _diagram_key() == edited
    (package / "render" / "diagram.py").write_text(
        (package / "render" / "diagram.py").read_text() + "\n")
    assert _diagram_key() != edited


def test_a_diagram_with_the_callers_options_or_of_a_plug_in_is_not_kept(
        cache: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from boardgen.games import protocol

    drawing.render_diagram("o", "corners", "svg", paper=A4, theme=COLOUR, options={})
    assert not _entries(cache)
    monkeypatch.setattr(protocol, "TEMPLATES", tmp_path)  # templates outside boardgen's
    (tmp_path / "o").mkdir()
    assert _diagram_key() is None


# --- thumbnails -------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def calibration() -> bytes:
    from boardgen.publish.calibrate import render_calibration

    return render_calibration(paper=A4)


def test_a_thumbnail_is_read_back_the_bytes_drawn_without_a_cache(
        cache: Path, monkeypatch: pytest.MonkeyPatch, calibration: bytes) -> None:
    first = gallery.thumbnail_of(".pdf", calibration)
    assert first.startswith(b"\x89PNG") and len(_entries(cache, "thumb-")) == 1
    assert _uncached(monkeypatch, lambda: gallery.thumbnail_of(".pdf", calibration)) == first
    monkeypatch.setattr(gallery, "_thumbnail_drawn", _refused)
    assert gallery.thumbnail_of(".pdf", calibration) == first


def test_a_thumbnail_is_keyed_by_its_bytes_parameters_source_and_libraries(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, calibration: bytes) -> None:
    def key(data: bytes = calibration, **parameters: object) -> str | None:
        return sheet_cache.thumbnail_key({"suffix": ".pdf", "width_px": 240, **parameters},
                                         data)

    # A byte of the PDF changed (its ID, which no pixel shows): another thumbnail's key.
    at = calibration.rindex(b"/ID")
    altered = calibration[:at + 6] + bytes([calibration[at + 6] ^ 1]) + calibration[at + 7:]
    keys = [key(), key(altered), key(width_px=120), key(suffix=".svg")]
    versions = dict(sheet_cache._versions())
    for library in ("pypdfium2", "pillow"):
        monkeypatch.setattr(sheet_cache, "_VERSIONS", [{**versions, library: "0.0.0"}])
        keys.append(key())
    monkeypatch.setattr(sheet_cache, "_VERSIONS", [versions])
    package = tmp_path / "boardgen"
    shutil.copytree(ROOT / "boardgen", package, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(sheet_cache, "_package_folder", lambda: package)
    assert key() == keys[0]
    (package / "publish" / "gallery.py").write_text(
        (package / "publish" / "gallery.py").read_text() + "\n")
    keys.append(key())
    assert None not in keys and len(set(keys)) == len(keys)


def test_an_svg_drawn_by_cairosvg_is_not_kept(cache: Path) -> None:
    svg = (b'<svg xmlns="http://www.w3.org/2000/svg" width="20" height="10">'
           b'<rect width="20" height="10" fill="#123456"/></svg>')
    assert gallery.thumbnail_of(".svg", svg).startswith(b"\x89PNG")
    assert not _entries(cache)


@pytest.mark.parametrize("spoil", ["truncated", "empty", "another entry"])
def test_a_spoilt_thumbnail_or_diagram_is_drawn_again_and_mended(
        cache: Path, calibration: bytes, spoil: str) -> None:
    thumb = gallery.thumbnail_of(".pdf", calibration)
    svg = drawing.render_diagram("polygone", "01-start", "svg", paper=A4, theme=COLOUR)
    (thumb_entry,) = _entries(cache, "thumb-")
    (svg_entry,) = _entries(cache, "polygone-")
    kept = {thumb_entry: thumb_entry.read_bytes(), svg_entry: svg_entry.read_bytes()}
    for entry, other in ((thumb_entry, svg_entry), (svg_entry, thumb_entry)):
        entry.write_bytes({"truncated": kept[entry][:len(kept[entry]) // 2], "empty": b"",
                           "another entry": kept[other]}[spoil])
    assert gallery.thumbnail_of(".pdf", calibration) == thumb
    assert drawing.render_diagram("polygone", "01-start", "svg", paper=A4, theme=COLOUR) == svg
    assert {entry: entry.read_bytes() for entry in kept} == kept


# --- the gallery's boards, pictures and printer check -----------------------------------------


def _job(name: str, lang: str = "en") -> gallery.Job:
    (job,) = [job for job in gallery.default_jobs(A4, COLOUR, [lang]) if job.name == name]
    return job


def test_boards_pictures_and_the_printer_check_are_read_back(
        cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    jobs = [_job("copolymer-side7.svg"), _job("o-side5.pdf"), _job("calibrate.pdf"),
            _job("copolymer-diagram-forced.svg")]
    made: list[bytes] = []
    for job in jobs:
        made.append(job.make())
        if job.picture is not None:
            made.append(job.picture())
    without: list[bytes] = []
    with monkeypatch.context() as off:
        off.setenv(sheet_cache.OUTPUT_CACHE_ENV, "off")
        for job in jobs:
            without.append(job.make())
            if job.picture is not None:
                without.append(job.picture())
    assert made == without
    from boardgen.publish import calibrate
    from boardgen.render import board, raster

    for module, name in ((board, "render_board"), (raster, "figure_png"),
                         (calibrate, "render_calibration"), (drawing, "draw_game_diagram")):
        monkeypatch.setattr(module, name, _refused)
    monkeypatch.setattr(gallery, "render_board", _refused)
    again: list[bytes] = []
    for job in jobs:
        again.append(job.make())
        if job.picture is not None:
            again.append(job.picture())
    assert again == made


def _board_key(name: str, lang: str = "en", **changed: object) -> str | None:
    job = _job(name, lang)
    assert job.picture is not None
    game, scene, fmt, options, theme, info = job.make.args  # type: ignore[attr-defined]
    parts = {"scene": scene, "options": options, "theme": theme, "info": info, **changed}
    with speaking(lang):
        return sheet_cache.sheet_key(f"board-{fmt}", game, gallery._board_request(
            parts["scene"], parts["options"], parts["theme"], parts["info"]))


def test_every_part_of_a_boards_request_is_in_its_key() -> None:
    from dataclasses import replace

    job = _job("copolymer-side7.svg")
    _, scene, _, options, _, info = job.make.args  # type: ignore[attr-defined]
    from boardgen.games.registry import game_named

    copolymer = game_named("copolymer")
    keys = [_board_key("copolymer-side7.svg"), _board_key("copolymer-side10.svg"),
            _board_key("copolymer-side7-fr.svg", "fr"),
            _board_key("copolymer-side7.svg", theme=THEMES["ink"]),
            _board_key("copolymer-side7.svg", info=replace(info, title="Another")),
            _board_key("copolymer-side7.svg", options=replace(options, paper=parse_paper(
                "letter"))),
            _board_key("copolymer-side7.svg", scene=replace(scene, labels="none")),
            _board_key("copolymer-side7.svg", scene=replace(
                scene, grid=copolymer.hex_board(7).__class__(
                    scene.grid.cells[1:], scene.grid.description, "custom")))]
    assert None not in keys and len(set(keys)) == len(keys)


def test_the_printer_checks_key_has_its_paper_and_language() -> None:
    def key() -> str | None:
        return sheet_cache.sheet_key("calibrate", "", {"paper": A4})

    english = key()
    with speaking("fr"):
        french = key()
    letter = sheet_cache.sheet_key("calibrate", "", {"paper": parse_paper("letter")})
    assert None not in (english, french, letter)
    assert len({english, french, letter}) == 3


# --- turned off, pruned -----------------------------------------------------------------------


@pytest.mark.parametrize("variable", ["BOARDGEN_OUTPUT_CACHE", "BOARDGEN_SHEET_CACHE"])
def test_either_name_turns_it_off(cache: Path, monkeypatch: pytest.MonkeyPatch,
                                  calibration: bytes, variable: str) -> None:
    monkeypatch.setenv(variable, "off")
    assert sheet_cache.sheet_cache_folder() is None
    gallery.thumbnail_of(".pdf", calibration)
    drawing.render_diagram("o", "corners", "svg", paper=A4, theme=COLOUR)
    assert not cache.exists()


def test_the_folder_is_pruned_after_a_processs_first_entry_then_now_and_then(
        cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pruned: list[Path] = []
    monkeypatch.setattr(sheet_cache, "prune", lambda folder: pruned.append(folder))
    monkeypatch.setattr(sheet_cache, "_WRITTEN", {})
    for n in range(5):
        sheet_cache.cached_thumbnail({"n": n}, b"source", lambda: b"small")
    assert pruned == [cache]  # the first entry only: the next four are small
    sheet_cache.cached_thumbnail({"n": "big"}, b"source",
                                 lambda: bytes(MAX_SHEET_CACHE_BYTES // 20))
    assert pruned == [cache, cache]


def test_a_thumbnail_of_another_width_is_another_entry(
        cache: Path, monkeypatch: pytest.MonkeyPatch, calibration: bytes) -> None:
    wide = gallery.thumbnail_of(".pdf", calibration)
    monkeypatch.setattr(gallery, "THUMB_WIDTH_PX", 120)
    narrow = gallery.thumbnail_of(".pdf", calibration)
    assert narrow != wide and len(narrow) < len(wide)
    assert len(_entries(cache, "thumb-")) == 2


# --- boardgen all: what the cache holds is read back before any worker is forked --------------


def _some_jobs() -> list[gallery.Job]:
    names = {"calibrate.pdf", "o-side5.pdf", "copolymer-side7.svg", "o-diagram-corners.pdf",
             "o-diagram-corners.svg", "polygone-diagram-01-start.svg"}
    return [job for job in gallery.default_jobs(A4, COLOUR, ["en"]) if job.name in names]


def _run(jobs: list[gallery.Job], workers: int, prepared: list[int]) -> list[gallery.Built]:
    return sorted(gallery.run_jobs(jobs, workers, lambda: prepared.append(1)),
                  key=lambda built: built.index)


def test_a_build_with_everything_kept_forks_nothing_and_gives_the_same_bytes(
        cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    jobs = _some_jobs()
    assert len(jobs) == 6 and all(job.kept for job in jobs)
    prepared: list[int] = []
    first = _run(jobs, 2, prepared)  # a first build: nothing kept, built by two workers
    assert prepared == [1] and not any(built.failures for built in first)
    with monkeypatch.context() as off:
        off.setenv(sheet_cache.OUTPUT_CACHE_ENV, "off")
        assert _run(jobs, 1, []) == first
    monkeypatch.setattr(gallery, "worker_pool", _refused)
    monkeypatch.setattr(gallery, "build", _refused)
    again = _run(jobs, 2, prepared)
    assert again == first and prepared == [1]  # read back here, nothing prepared


def test_what_is_not_kept_is_built_and_only_that(cache: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    jobs = _some_jobs()
    first = _run(jobs, 1, [])
    drawn = sorted(_entries(cache, "o-diagram-svg"))
    (entry,) = drawn
    entry.unlink()  # the SVG of one diagram gone
    built: list[str] = []
    real = gallery.build

    def counted(job: gallery.Job, index: int) -> gallery.Built:
        built.append(job.name)
        return real(job, index)

    monkeypatch.setattr(gallery, "build", counted)
    prepared: list[int] = []
    assert _run(jobs, 2, prepared) == first
    assert built == ["o-diagram-corners.svg"] and prepared == [1]


def test_a_first_build_stops_looking_after_a_few_misses(cache: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    looked: list[str] = []
    real = gallery._read_back

    def counted(job: gallery.Job, index: int) -> gallery.Built | None:
        looked.append(job.name)
        return real(job, index)

    monkeypatch.setattr(gallery, "_read_back", counted)
    jobs = _some_jobs()
    assert [built for _, built in gallery.read_back(jobs)] == [None] * len(jobs)
    assert len(looked) == gallery._MISSES_BEFORE_GIVING_UP < len(jobs)
    # A job that does not say it is kept is never looked for (a test's closure, a plug-in's).
    looked.clear()
    plain = gallery.Job("x.pdf", "", "kit", _refused)
    assert list(gallery.read_back([plain])) == [(0, None)] and not looked


def test_inside_a_build_folders_are_read_once_between_two_files_made(
        cache: Path, templates: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Keys taken one after another share one reading of the folders; a file made reads
    them again, before and after: one whose diagram file changed while it was drawn is
    not kept."""
    path = templates / "o" / "corners.txt"
    with sheet_cache.trees_read_once():
        before = _diagram_key()
        path.write_text(path.read_text() + "\n")
        assert _diagram_key() == before  # nothing made between them: read once
        real = drawing.draw_game_diagram

        def saved_meanwhile(*args: object, **kwargs: object) -> bytes:
            data = real(*args, **kwargs)  # type: ignore[arg-type]
            path.write_text(path.read_text() + "\n")
            return data

        monkeypatch.setattr(drawing, "draw_game_diagram", saved_meanwhile)
        drawing.render_diagram("o", "corners", "pdf", paper=A4, theme=COLOUR)
        assert not cache.exists() or not _entries(cache)
        after = _diagram_key()
        assert after not in (before, None)  # read again after the file was made
        monkeypatch.setattr(drawing, "draw_game_diagram", real)
        drawing.render_diagram("o", "corners", "pdf", paper=A4, theme=COLOUR)
        (entry,) = _entries(cache)
        assert entry.name == f"{after}{sheet_cache.ENTRY_SUFFIX}"
    path.write_text(path.read_text() + "\n")
    assert _diagram_key() != after  # outside: every key reads the folders


def test_a_file_made_of_kept_files_is_not_kept_if_its_inputs_changed_after_them(
        cache: Path, templates: Path) -> None:
    """A kit is made of sheets, each kept: the kit's key taken again after it is made
    reads the folders afresh, not as the last sheet's key left them."""
    path = templates / "o" / "corners.txt"

    def kit() -> bytes:
        inner = drawing.render_diagram("o", "corners", "svg", paper=A4, theme=COLOUR)
        path.write_text(path.read_text() + "\n")  # saved after the inner file was kept
        return inner + b"kit"

    with sheet_cache.trees_read_once():
        sheet_cache.cached_sheet("kit-test", "o", {"paper": A4}, kit)
    assert [entry.name.split("-")[1] for entry in _entries(cache)] == ["diagram"]


@pytest.mark.parametrize("library", ["cairocffi", "cffi", "cairosvg", "numpy"])
def test_a_drawing_library_changed_is_another_key(monkeypatch: pytest.MonkeyPatch,
                                                  library: str) -> None:
    before = _diagram_key(fmt="png")
    versions = dict(sheet_cache._versions())
    assert library in versions
    monkeypatch.setattr(sheet_cache, "_VERSIONS", [{**versions, library: "0.0.0"}])
    assert _diagram_key(fmt="png") not in (before, None)


def test_the_systems_cairo_or_pixman_changed_is_another_key(monkeypatch: pytest.MonkeyPatch,
                                                            tmp_path: Path) -> None:
    monkeypatch.setenv("LD_LIBRARY_PATH", str(tmp_path))
    keys = []
    for name, data in (("", b""), ("libcairo.so.2", b"a cairo"),
                       ("libcairo.so.2", b"another cairo"), ("libpixman-1.so.0", b"a pixman")):
        if name:
            (tmp_path / name).write_bytes(data)
            os.utime(tmp_path / name, ns=(len(keys), len(keys)))  # an old file: memoised
        monkeypatch.setattr(sheet_cache, "_VERSIONS", [])
        keys.append(_diagram_key(fmt="png"))
    assert None not in keys and len(set(keys)) == len(keys)
