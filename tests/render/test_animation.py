"""Animations (boardgen.animate, play --animate, diagram --animate), checked from the files
they write: a frame per move (and a swing's in-between frames), each frame's board the
engine's position after its move, the engine's captions, identical bytes for identical
input, sizes, and an SVG whose final state is the still drawing of the final position."""

from __future__ import annotations

import io
import os
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT, chromium, one_line_error
from PIL import Image, ImageSequence

import boardgen
from boardgen.render.scene import THEMES

COLOUR = THEMES["colour"]
SVG_FRAME = re.compile(r'<g class="frame( last)?" style="animation-delay:([0-9.]+)s;'
                       r'animation-duration:([0-9.]+)s"'
                       r'( aria-label="([^"]*)"| aria-hidden="true")>')
CELL = re.compile(r'<use class="cell ([a-z0-9-]+)" data-cell="([A-Z]+[0-9]+)" xlink:href="#hex" '
                  r'x="([0-9.]+)" y="([0-9.]+)"/>')
BOARD_AT = re.compile(r'<g class="board" transform="translate\(([0-9.]+) ([0-9.]+)\)">')
# In-between frames this design promises (written out here, not imported: a test of the
# numbers, not a copy of them): a swing turns in 8 steps (7 between the two positions), and
# captured bars fade in 4.
SWING_BETWEEN, FADE = 7, 4


def random_game(game: str, moves: int, seed: int, **options: object) -> boardgen.Engine:
    engine = boardgen.engine(game, **options)  # type: ignore[arg-type]
    rng = random.Random(seed)
    while len(engine.moves) < moves and not engine.over:
        engine.play(engine.random_legal(rng))
    return engine


def frames_of(data: bytes) -> list[Image.Image]:
    """Every frame as the viewer shows it (composited), in RGB."""
    return [frame.convert("RGB") for frame in ImageSequence.Iterator(Image.open(io.BytesIO(data)))]


def svg_frames(svg: str) -> list[tuple[bool, float, float, str | None, str]]:
    """(last, start s, duration s, caption or None for an in-between frame, markup)."""
    found = list(SVG_FRAME.finditer(svg))
    frames = []
    for k, match in enumerate(found):
        end = found[k + 1].start() if k + 1 < len(found) else svg.rindex("</svg>")
        frames.append((bool(match.group(1)), float(match.group(2)), float(match.group(3)),
                       match.group(5), svg[match.end():end]))
    return frames


def cell_roles(markup: str) -> dict[str, str]:
    return {m.group(2): m.group(1) for m in CELL.finditer(markup)}


def unescape(text: str) -> str:
    return text.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")


def rgb(colour: str) -> tuple[int, int, int]:
    return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)


# --- frames: one per move -----------------------------------------------------------------


def test_one_frame_per_move_in_every_format() -> None:
    engine = random_game("copolymer", 12, seed=1, side=3)
    for fmt in ("gif", "png"):
        data = boardgen.animate(engine, fmt)
        image = Image.open(io.BytesIO(data))
        assert image.format == fmt.upper()
        assert image.n_frames == 12 and getattr(image, "is_animated", False)
    svg = boardgen.animate(engine, "svg")
    assert len(svg_frames(svg)) == 12
    assert [caption is not None for *_, caption, _ in svg_frames(svg)] == [True] * 12


def test_swings_turn_in_between_frames_and_captures_fade() -> None:
    """Polygone: each move is its swing's in-between frames and its own frame; a move that
    captures adds the fade.  Which moves capture is read from the engine's JSON."""
    rng = random.Random(0)
    engine = boardgen.engine("polygone")
    capturing = 0
    while capturing == 0 or len(engine.moves) < 12:
        taken = engine.to_json()["captured"]
        engine.play(engine.random_legal(rng))
        capturing += engine.to_json()["captured"] != taken
    moves = len(engine.moves)
    expected = moves * (1 + SWING_BETWEEN) + capturing * FADE
    gif = Image.open(io.BytesIO(boardgen.animate(engine, "gif")))
    assert gif.n_frames == expected
    frames = svg_frames(boardgen.animate(engine, "svg"))
    assert len(frames) == expected
    assert sum(caption is not None for *_, caption, _ in frames) == moves
    # In-between frames are quick; each move's own frame has the move's time.
    assert {round(duration, 3) for _, _, duration, caption, _ in frames if caption} == {0.9, 3.9}


def test_a_swing_turns_about_its_pivot() -> None:
    """The in-between frames of a swing differ from one another and from the position
    after it, and only round the pivot: the rest of the board stands still."""
    from PIL import ImageChops

    frames = frames_of(boardgen.animate(boardgen.play("polygone", "c0-c2>d1"), "png"))
    assert len(frames) == 1 + SWING_BETWEEN
    assert len({f.tobytes() for f in frames}) == len(frames)
    width, height = frames[0].size
    for before, after in zip(frames, frames[1:-1], strict=False):
        box = ImageChops.difference(before, after).getbbox()
        assert box is not None
        assert box[2] - box[0] < width / 3 and box[3] - box[1] < height / 3, box


# --- each frame's board is the engine's position ---------------------------------------------


def test_each_frame_shows_the_engines_position_after_its_move() -> None:
    """Every frame, sampled inside every cell (clear of the numbered disc), has exactly the
    theme's colour of what the engine's JSON says the cell holds after that move; and each
    SVG frame's cells are the still drawing's of that position."""
    engine = random_game("copolymer", 14, seed=5, side=3)
    svg = boardgen.animate(engine, "svg")
    gif = frames_of(boardgen.animate(engine, "gif"))
    apng = frames_of(boardgen.animate(engine, "png"))
    frames = svg_frames(svg)
    assert len(gif) == len(apng) == len(frames) == 14
    fills = {"x": rgb(COLOUR.cells["player1"].fill), "o": rgb(COLOUR.cells["player2"].fill),
             None: rgb(COLOUR.cells["empty"].fill)}
    px = 96 / 25.4
    for k, (_, _, _, _, markup) in enumerate(frames):
        position = boardgen.play("copolymer", engine.moves[:k + 1], side=3)
        held = position.to_json()["cells"]
        assert isinstance(held, dict)
        still = boardgen.draw(position, "svg")
        assert cell_roles(markup) == cell_roles(still)
        board = BOARD_AT.search(markup)
        assert board is not None
        dx, dy = float(board.group(1)), float(board.group(2))
        for match in CELL.finditer(markup):
            # 0.4 of a cell left of the centre: inside the hexagon, outside the disc.
            x, y = (float(match.group(3)) + dx - 3.2) * px, (float(match.group(4)) + dy) * px
            want = fills[held.get(match.group(2))]
            for image in (gif[k], apng[k]):
                assert image.getpixel((round(x), round(y))) == want, (k, match.group(2))


def test_captions_are_the_engines_as_a_diagram_words_them() -> None:
    """Each frame's caption is what a diagram panel of that turn's placements so far says,
    the earlier turns replayed by 'setup:'."""
    engine = random_game("copolymer", 19, seed=11, side=3)  # to the end: 19 cells
    frames = svg_frames(boardgen.animate(engine, "svg"))
    turn_start = 0
    for k, (_, _, _, caption, _) in enumerate(frames):
        moves = engine.moves
        setup = f"setup: {' '.join(moves[:turn_start])}\n" if turn_start else ""
        text = (f"game: copolymer\nboard: hexhex 3\n{setup}panel:\n" +
                "".join(f"place: {m}\n" for m in moves[turn_start:k + 1]))
        diagram = boardgen.parse_diagram(text)
        panel = diagram.rows[-1][1][-1]
        assert caption is not None and unescape(caption) == panel.caption, (k, text)
        after = boardgen.play("copolymer", moves[:k + 1], side=3).to_json()
        if not after["turn_continues"]:
            turn_start = k + 1
    assert "Board full" in unescape(frames[-1][3] or "")


def test_polygone_captions_say_the_swing_and_what_it_did() -> None:
    """A Polygone frame says the swing ('White swings ...') and what a diagram says under
    the panel that draws it: what the move closed and captured."""
    engine = random_game("polygone", 6, seed=3)
    frames = [f for f in svg_frames(boardgen.animate(engine, "svg")) if f[3] is not None]
    text = "".join(f"panel: \nmove: {m}\n" for m in engine.moves) + "panel: \n"
    panels = [p.caption for p in boardgen.parse_diagram(
        "game: polygone\n" + text).rows[0][1]]
    assert len(frames) == len(engine.moves) == len(panels) - 1
    for k, (_, _, _, caption, _) in enumerate(frames):
        said = unescape(caption or "")
        swing = re.fullmatch(r"(White|Black) swings [a-e]\d+ about [a-e]\d+ to [a-e]\d+\. (.*)",
                             said)
        assert swing and swing.group(2) == panels[k], \
            (said, panels[k])


# --- the SVG animation ---------------------------------------------------------------------


def test_the_svg_plays_once_holds_the_final_position_and_respects_reduced_motion() -> None:
    engine = random_game("o", 9, seed=2, side=4)
    svg = boardgen.animate(engine, "svg", move_ms=500, hold_ms=1500)
    frames = svg_frames(svg)
    assert "<script" not in svg
    assert [last for last, *_ in frames] == [False] * 8 + [True]
    # Shown in turn: each frame starts when the one before ends.
    starts = [start for _, start, *_ in frames]
    assert starts == [0.5 * k for k in range(9)]
    assert frames[-1][2] == 2.0
    assert ".frame.last{animation-fill-mode:forwards}" in svg
    assert re.search(r"@media \(prefers-reduced-motion:reduce\)\{\.frame\{animation:none\}"
                     r"\.frame\.last\{visibility:visible\}\}", svg)
    # The final state is the still drawing of the final position: its cells, stones and
    # numbers.
    final = frames[-1][4]
    still = boardgen.draw(boardgen.play("o", engine.moves, side=4), "svg")
    assert cell_roles(final) == cell_roles(still)
    for pattern in (r'<circle[^>]*class="([^"]*)"',
                    r'<g class="(?:cell-text|coordinate)"[^>]*? aria-label="([^"]*)"'):
        drawn = sorted(re.findall(pattern, final))
        assert drawn and drawn == sorted(re.findall(pattern, still)), pattern
    # The text alternative: the title, and every move's caption in order.
    description = re.search(r"<desc>(.*?)</desc>", svg)
    assert description is not None
    for k, frame in enumerate(frames, start=1):
        assert f"{k}. {frame[3]}" in description.group(1)


def test_identical_input_gives_identical_bytes_across_processes(tmp_path: Path) -> None:
    moves = " ".join(random_game("copolymer", 10, seed=4, side=3).moves)
    outputs = []
    for seed, name in (("1", "a"), ("2", "b")):
        for suffix in ("gif", "png", "svg"):
            subprocess.run([sys.executable, "-m", "boardgen", "play", "copolymer", "--side",
                            "3", "--moves", moves, "--animate", "-o",
                            str(tmp_path / f"{name}.{suffix}")], check=True, cwd=ROOT,
                           env={**os.environ, "PYTHONHASHSEED": seed}, capture_output=True)
        outputs.append([(tmp_path / f"{name}.{s}").read_bytes() for s in ("gif", "png", "svg")])
    assert outputs[0] == outputs[1]
    engine = random_game("polygone", 4, seed=9)
    assert boardgen.animate(engine, "gif") == boardgen.animate(engine, "gif")


@pytest.mark.slow
def test_a_60_move_side_5_copolymer_game_is_small() -> None:
    """At the default 96 dpi: GIF under 300 KB (measured 231 KB), APNG under 450 KB
    (388 KB), SVG under 1 MB (705 KB)."""
    engine = random_game("copolymer", 60, seed=7, side=5)
    assert len(engine.moves) == 60
    sizes = {fmt: len(boardgen.animate(engine, fmt).encode() if fmt == "svg"
                      else boardgen.animate(engine, fmt)) for fmt in ("gif", "png", "svg")}
    assert sizes["gif"] < 300_000 and sizes["png"] < 450_000 and sizes["svg"] < 1_000_000, \
        sizes
    assert Image.open(io.BytesIO(boardgen.animate(engine, "gif"))).n_frames == 60


def test_the_palette_holds_every_theme_colour_exactly() -> None:
    """Theme by theme, every fill the frames show is one of the theme's own colours: the
    palette maps them exactly (no neighbour stands in)."""
    engine = random_game("copolymer", 6, seed=8, side=3)
    for name, theme in THEMES.items():
        image = Image.open(io.BytesIO(boardgen.animate(engine, "gif", theme=name)))
        palette = image.getpalette() or []
        colours = {tuple(palette[k:k + 3]) for k in range(0, len(palette), 3)}
        for paint in theme.cells.values():
            assert rgb(paint.fill) in colours, (name, paint.fill)


# --- diagrams ----------------------------------------------------------------------------------


def test_a_diagram_line_animates_placement_by_placement() -> None:
    """tempo.txt, read here as text: a frame per 'place:' (a panel without one is a frame
    as it stands); each frame's cells are the still drawing's of the position the setup
    and the line's placements so far reach; each panel's last frame says what the panel
    says."""
    text = (ROOT / "templates" / "copolymer" / "tempo.txt").read_text()
    setup = re.search(r"^setup: (.*)$", text, re.M)
    assert setup is not None
    diagram = boardgen.diagram("copolymer", "tempo")
    for number, block in enumerate(re.split(r"^line: .*$", text, flags=re.M)[1:], start=1):
        panels = re.split(r"^panel:.*$", block, flags=re.M)[1:]
        placed = [re.findall(r"^place: (\S+)", panel, re.M) for panel in panels]
        frames = svg_frames(boardgen.animate(diagram, "svg", line=number))
        assert len(frames) == sum(max(1, len(cells)) for cells in placed)
        moves = setup.group(1).split()
        k = 0
        for panel, cells in zip(diagram.rows[number - 1][1], placed, strict=True):
            for cell in cells or [None]:
                if cell is not None:
                    moves.append(cell)
                position = boardgen.play("copolymer", moves, side=3, first="x")
                assert cell_roles(frames[k][4]) == cell_roles(boardgen.draw(position, "svg"))
                k += 1
            assert unescape(frames[k - 1][3] or "") == panel.caption
    whole = svg_frames(boardgen.animate(diagram, "svg"))
    assert len(whole) == sum(len(p) for _, p in diagram.steps)
    # The whole file: each caption led by its line's title.
    first_of_second = len(diagram.steps[0][1])
    assert unescape(whole[first_of_second][3] or "").startswith(f"{diagram.rows[1][0]}: ")


def test_a_frame_between_a_panels_moves_has_no_designers_annotations() -> None:
    """A highlight is judged in the position its panel shows when finished: the frames
    before that show none."""
    text = ("game: copolymer\nboard: hexhex 3\npanel: Two\nplace: C3\nplace: B2\n"
            "highlight: new B2\narrow: A1 B2\n")
    frames = svg_frames(boardgen.animate(boardgen.parse_diagram(text), "svg"))
    assert len(frames) == 2
    assert "highlight" not in frames[0][4] and "highlight new" in frames[1][4]


def test_a_polygone_diagram_turns_the_swing_it_shows() -> None:
    """09-capture-back: its first panel shows a swing, 'After' the result; the animation turns
    the bar and fades the three bars the move captured."""
    diagram = boardgen.diagram("polygone", "09-capture-back")
    frames = svg_frames(boardgen.animate(diagram, "svg"))
    assert len(frames) == 2 + SWING_BETWEEN + FADE


# --- the command line --------------------------------------------------------------------------


def test_play_and_diagram_animate_from_the_command_line(run_cli, in_tmp: Path) -> None:  # noqa: ANN001
    result = run_cli("play", "copolymer", "--side", "3", "--moves", "C3 B2 C2 D3",
                     "--animate", "-o", "game.gif", "--move-ms", "400", "--hold-ms", "0")
    assert result.code == 0, result.err
    image = Image.open(in_tmp / "game.gif")
    assert image.n_frames == 4 and image.info["duration"] == 400
    assert run_cli("play", "polygone", "--moves", "c0-c2>d1", "--animate", "-o",
                   "swing.png").code == 0
    assert Image.open(in_tmp / "swing.png").n_frames == 1 + SWING_BETWEEN
    assert run_cli("diagram", "copolymer", "tempo", "--animate", "--line", "2", "-o",
                   "tempo.svg").code == 0
    assert len(svg_frames((in_tmp / "tempo.svg").read_text())) == 8  # its 8 placements


@pytest.mark.parametrize(("args", "fragments"), [
    (("play", "copolymer", "--side", "3", "--moves", "C3 B2 Z9", "--animate", "-o", "x.gif"),
     ("move 3 (Z9)",)),
    (("play", "copolymer", "--side", "3", "--moves", "C3", "--animate", "-o", "x.pdf"),
     ("--animate writes",)),
    (("play", "copolymer", "--side", "3", "--moves", "C3", "--format", "gif", "-o", "x.gif"),
     ("--format gif", "--animate")),
    (("play", "copolymer", "--side", "3", "--moves", "C3", "--animate", "--move-ms", "0",
      "-o", "x.gif"), ("--move-ms",)),
    (("play", "copolymer", "--side", "3", "--moves", " ".join(["C3"] * 601), "--animate",
      "-o", "x.gif"), ("601 moves", "limit of 600")),
    (("play", "copolymer", "--side", "3", "--moves", "C3", "--animate", "--every", "2",
      "-o", "x.gif"), ("--every",)),
    (("diagram", "copolymer", "tempo", "--animate", "--line", "5", "-o", "x.gif"),
     ("--line 5", "2 lines")),
])
def test_bad_requests_are_one_line_exit_2_and_no_file(run_cli, in_tmp: Path, args: tuple[str, ...],  # noqa: ANN001
                                                     fragments: tuple[str, ...]) -> None:
    (in_tmp / "x.gif").write_bytes(b"keep me")
    one_line_error(run_cli(*args), *fragments)
    assert (in_tmp / "x.gif").read_bytes() == b"keep me"
    assert sorted(p.name for p in in_tmp.iterdir()) == ["x.gif"]


def test_past_the_byte_bound_the_animation_is_refused(run_cli, in_tmp: Path,  # noqa: ANN001
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    import boardgen.render.animation as animation

    monkeypatch.setattr(animation, "MAX_ANIMATION_BYTES", 5_000)
    one_line_error(run_cli("play", "copolymer", "--side", "3", "--moves", "C3 B2 C2",
                           "--animate", "-o", "big.gif"), "bytes", "limit of 5,000")
    assert not (in_tmp / "big.gif").exists()
    with pytest.raises(boardgen.BoardgenError, match="limit of 5,000"):
        boardgen.animate(boardgen.play("o", "D4", side=4), "svg")


def test_the_api_refuses_what_it_cannot_animate() -> None:
    with pytest.raises(boardgen.BoardgenError, match="fmt"):
        boardgen.animate(boardgen.play("o", "D4", side=4), "pdf")  # type: ignore[call-overload]
    with pytest.raises(boardgen.BoardgenError, match="no moves"):
        boardgen.animate(boardgen.play("o", "", side=4), "gif")
    with pytest.raises(boardgen.BoardgenError, match="line"):
        boardgen.animate(boardgen.play("o", "D4", side=4), "gif", line=1)
    with pytest.raises(boardgen.BoardgenError, match="subject"):
        boardgen.animate("D4", "gif")  # type: ignore[call-overload]


# --- played in a browser -----------------------------------------------------------------------



@pytest.mark.slow
def test_the_svg_animation_plays_in_chromium(tmp_path: Path) -> None:
    """Debian's Chromium plays the SVG: at each frame's time that frame alone is visible, at
    the end the last one stays, and with reduced motion asked for the page shows the same
    picture as the end, from the start."""
    browser_path = chromium()
    from playwright.sync_api import sync_playwright

    svg = boardgen.animate(boardgen.play("polygone", "c0-c2>d1 c10-c8>b9"), "svg",
                           move_ms=400, hold_ms=200)
    frames = svg_frames(svg)
    path = tmp_path / "swing.svg"
    path.write_text(svg)
    # A copy whose animations start paused, to step through them at will (the browser
    # drops an animation once it is over, and the in-between frames are over in 45 ms).
    paused = tmp_path / "paused.svg"
    paused.write_text(svg.replace(".frame{visibility:hidden;",
                                  ".frame{visibility:hidden;animation-play-state:paused;", 1))
    visible = ("Array.from(document.querySelectorAll('.frame'), (g, k) => "
               "getComputedStyle(g).visibility === 'visible' ? k : -1).filter(k => k >= 0)")
    total = frames[-1][1] + frames[-1][2]
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=browser_path,
            args=["--no-sandbox", "--disable-gpu", "--headless", "--disable-dev-shm-usage"])
        try:
            page = browser.new_page(viewport={"width": 600, "height": 480})
            page.goto(paused.as_uri())
            page.evaluate("window.frames_ = document.getAnimations()")
            assert page.evaluate("window.frames_.length") == len(frames)
            for k, (_, start, duration, *_) in enumerate(frames):
                at = round((start + duration / 2) * 1000)
                page.evaluate(f"window.frames_.forEach(a => {{ a.currentTime = {at}; }})")
                assert page.evaluate(visible) == [k], k
            # Played as it is, in real time: after its end the last frame alone stays.
            page.goto(path.as_uri())
            assert len(page.evaluate(visible)) == 1
            page.wait_for_timeout(round(total * 1000) + 700)
            assert page.evaluate(visible) == [len(frames) - 1]
            played = Image.open(io.BytesIO(page.screenshot()))
            calm = browser.new_page(viewport={"width": 600, "height": 480},
                                    reduced_motion="reduce")
            calm.goto(path.as_uri())
            assert calm.evaluate(visible) == [len(frames) - 1]
            still = Image.open(io.BytesIO(calm.screenshot()))
        finally:
            browser.close()
    from PIL import ImageChops

    assert ImageChops.difference(played.convert("RGB"), still.convert("RGB")).getbbox() is None
