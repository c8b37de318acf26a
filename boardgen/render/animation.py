"""Animations drawn: a game or a line of play as an animated GIF, APNG or SVG.

An animation (boardgen.picture.Animation) is neutral data a game emits: one frame per move,
each the picture of the position after it under the engine's caption of the move, and, for
a move that turns a piece about one of its ends, the turn.  This module knows no game.  It
draws:

- each frame as its still panel is drawn (the same figure, so the same cells and marks);
- a turn as in-between frames, the piece turning about its end from where it stood to
  where it lands; pieces the move took off fade out after it lands;
- every frame the same size (the largest), the board at the top, the caption under it;
- GIF and APNG through Pillow, with one palette per theme: the theme's own colours first,
  each mapped exactly, then the blends the anti-aliasing makes, by how often they occur;
- SVG as one document holding every frame, shown in turn by CSS animations (no script);
  it plays once and holds the last frame, and a reader who asks for reduced motion sees
  the last frame alone.

Identical input gives identical bytes (no clock, no random state).  The work is bounded
before it starts (:func:`check_animation_work`) and the bytes after (:data:`MAX_ANIMATION_BYTES`).
"""

from __future__ import annotations

import io
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from boardgen.errors import BoardgenError
from boardgen.i18n import ntr, typography
from boardgen.limits import (
    MAX_ANIMATION_BYTES,
    MAX_ANIMATION_CELLS,
    MAX_ANIMATION_FRAMES,
    MAX_ANIMATION_PIXELS,
)
from boardgen.picture import Animation, Panel, PointScene, Scene, Segment, Turn, piece_at
from boardgen.render.figure import Figure, Stroke, Text, board_figure, merge, wrap
from boardgen.render.fonts import BOLD
from boardgen.render.lattice import lattice_figure, staple, turn_sweep
from boardgen.render.motion import (
    ANIMATION_FORMATS,
    DEFAULT_DPI,
    DEFAULT_HOLD_MS,
    DEFAULT_MOVE_MS,
    check_timing,
)
from boardgen.render.raster import pixel_size
from boardgen.render.scene import CAPTION_INK, Theme

if TYPE_CHECKING:
    from PIL.Image import Image as PilImage

TURN_STEPS = 8  # in-between frames of a turn
TURN_STEP_MS = 45
FADE_STEPS = 4  # in-between frames of pieces taken off fading out
FADE_STEP_MS = 70
MARGIN_MM = 3.0
TITLE_MM = 4.2  # the title's capitals and line spacing
MIN_WIDTH_MM = 60.0  # room for a title of a few words over a small board


@dataclass(frozen=True)
class Still:
    """One picture of the animation: a figure, optionally another over it at an opacity
    (pieces fading out), shown for ``ms`` milliseconds; ``move`` is the frame's number
    (counting from 0) for a move's own frame, None for an in-between frame."""

    figure: Figure
    ms: int
    move: int | None = None
    overlay: Figure | None = None
    opacity: float = 1.0


def _panel_figure(panel: Panel, cell_mm: float) -> Figure:
    return board_figure(panel, cell_mm) if isinstance(panel, Scene) \
        else lattice_figure(panel, cell_mm)


def _bar(scene: PointScene, turn: Turn) -> tuple[Segment, str] | None:
    segment = piece_at(scene, turn.centre, turn.start)
    return None if segment is None else (segment, scene.pieces[segment])


def _bare(scene: PointScene, caption: str | None) -> PointScene:
    """A board with its pieces only: no marked segments, turns, labels or marks (what an
    in-between frame shows under the moving piece)."""
    return replace(scene, dashed={}, struck={}, hollow={}, turns=(), labels={},
                   point_marks=(), arrows=(), caption=caption)


def _added_strokes(without: Figure, with_: Figure) -> list[Stroke]:
    """The strokes ``with_`` draws that ``without`` does not (a bar's outline and fill)."""
    remaining = list(without.strokes)
    added = []
    for stroke in with_.strokes:
        if stroke in remaining:
            remaining.remove(stroke)
        else:
            added.append(stroke)
    return added


def _rotated(strokes: list[Stroke], centre: tuple[float, float], angle: float
             ) -> list[Stroke]:
    cx, cy = centre
    c, s = math.cos(angle), math.sin(angle)
    return [replace(st, points=tuple((cx + (x - cx) * c - (y - cy) * s,
                                      cy + (x - cx) * s + (y - cy) * c) for x, y in st.points))
            for st in strokes]


def _with_strokes(figure: Figure, strokes: list[Stroke]) -> Figure:
    return replace(figure, strokes=[*figure.strokes, *strokes])


def _only_strokes(figure: Figure, strokes: list[Stroke]) -> Figure:
    return Figure(figure.width, figure.height, figure.cell_width, figure.hex_offsets,
                  strokes=list(strokes))


def _turn_figures(before: PointScene, after: PointScene, turn: Turn, cell_mm: float
                  ) -> list[Figure]:
    """The in-between figures of a turn: the position before the move with the moving
    piece turned by 1/n ... (n-1)/n of the way, under the move's caption."""
    moving = _bar(before, turn)
    if moving is None:
        return []
    segment, role = moving
    rest = {ln: r for ln, r in before.pieces.items() if ln != segment}
    base_scene = replace(_bare(before, after.caption), pieces=rest)
    base = lattice_figure(base_scene, cell_mm)
    with_bar = lattice_figure(replace(base_scene, pieces={**rest, segment: role}), cell_mm)
    bar = _added_strokes(base, with_bar)
    # Where the centre is in the figure: the bar's first stroke, drawn from the segment's
    # first point, shifted as the figure shifted the board.
    places = before.places
    unshifted = staple(places, segment, role, cell_mm)[0].points
    dx, dy = bar[0].points[0][0] - unshifted[0][0], bar[0].points[0][1] - unshifted[0][1]
    cx, cy = places[turn.centre]
    px, py = cx * cell_mm + dx, cy * cell_mm + dy
    _, sweep_degrees = turn_sweep(places, turn)
    sweep = math.radians(abs(sweep_degrees)) * turn.sense
    return [_with_strokes(base, _rotated(bar, (px, py), sweep * k / TURN_STEPS))
            for k in range(1, TURN_STEPS)]


def _captured(before: Panel, after: Panel, turn: Turn | None) -> dict[Segment, str]:
    """The pieces ``before`` has and ``after`` has not, the turned one apart."""
    if not isinstance(before, PointScene) or not isinstance(after, PointScene):
        return {}
    moved = {(turn.centre, turn.start), (turn.start, turn.centre)} if turn else set()
    gone = {ln: role for ln, role in before.pieces.items()
            if ln not in after.pieces and ln not in moved}
    moving = _bar(before, turn) if turn is not None else None
    if turn is not None and moving is not None and not {
            (turn.centre, turn.end), (turn.end, turn.centre)} & set(after.pieces):
        gone[(turn.centre, turn.end)] = moving[1]  # taken off as soon as it landed
    return gone


def stills(animation: Animation, *, move_ms: int = DEFAULT_MOVE_MS,
           hold_ms: int = DEFAULT_HOLD_MS, cell_mm: float | None = None) -> list[Still]:
    """Every picture of the animation in order, all of one size: for each frame, its
    turn's in-between pictures, the pieces it took off fading, then the frame itself."""
    check_timing(move_ms, hold_ms)
    if not animation.frames:
        raise BoardgenError("nothing to animate: give at least one move")
    cell = cell_mm or animation.cell_mm
    drawn: list[Still] = []
    before: Panel | None = animation.start
    for number, frame in enumerate(animation.frames):
        after = frame.panel
        figure = _panel_figure(after, cell)
        if frame.turn is not None and isinstance(before, PointScene) \
                and isinstance(after, PointScene):
            drawn.extend(Still(f, TURN_STEP_MS)
                         for f in _turn_figures(before, after, frame.turn, cell))
        captured = _captured(before, after, frame.turn) if before is not None else {}
        if captured and isinstance(after, PointScene):
            bare = replace(after, hollow={})
            gone = _added_strokes(lattice_figure(bare, cell), lattice_figure(
                replace(bare, pieces={**after.pieces, **captured}), cell))
            drawn.extend(Still(figure, FADE_STEP_MS, None, _only_strokes(figure, gone),
                               1.0 - k / FADE_STEPS) for k in range(FADE_STEPS))
        last = number == len(animation.frames) - 1
        drawn.append(Still(figure, move_ms + (hold_ms if last else 0), number))
        before = after
    return _same_size(drawn, animation.title)


def _same_size(drawn: list[Still], title: str) -> list[Still]:
    """Every figure on one canvas, the largest, each centred across under the title (in
    bold, wrapped to the canvas: a diagram line's title can be long)."""
    width = max(max(s.figure.width for s in drawn), MIN_WIDTH_MM) + 2 * MARGIN_MM
    lines = wrap(title, TITLE_MM, width - 2 * MARGIN_MM, BOLD) if title else []
    heading = [Text(width / 2, MARGIN_MM + (0.8 + 1.3 * k) * TITLE_MM, line, TITLE_MM,
                    "title", "middle", BOLD) for k, line in enumerate(lines)]
    top = MARGIN_MM + (1.3 * len(lines) + 0.4) * TITLE_MM if lines else MARGIN_MM
    height = max(s.figure.height for s in drawn) + top + MARGIN_MM

    def placed(figure: Figure, texts: list[Text] | None = None) -> Figure:
        return merge(width, height, [figure.shifted((width - figure.width) / 2, top)], texts)

    return [replace(s, figure=placed(s.figure, heading),
                    overlay=placed(s.overlay) if s.overlay is not None else None)
            for s in drawn]


def frame_count(animation: Animation) -> int:
    """How many pictures the animation draws: one per frame, and the in-between ones."""
    count = 0
    before = animation.start
    for frame in animation.frames:
        if frame.turn is not None and isinstance(before, PointScene):
            count += TURN_STEPS - 1 if _bar(before, frame.turn) else 0
        if before is not None and _captured(before, frame.panel, frame.turn):
            count += FADE_STEPS
        count += 1
        before = frame.panel
    return count


def check_animation_work(animation: Animation) -> None:
    """Refuse, before anything is drawn, an animation of more pictures, or more cells drawn
    in all, than the limits allow."""
    count = frame_count(animation)
    if count > MAX_ANIMATION_FRAMES:
        raise BoardgenError(f"an animation of {count:,} frames (moves and in-between frames) "
                            f"is more than the limit of {MAX_ANIMATION_FRAMES:,}: animate "
                            "fewer moves")
    cells = sum(len(f.panel.grid) if isinstance(f.panel, Scene) else len(f.panel.places)
                for f in animation.frames)
    if cells > MAX_ANIMATION_CELLS:
        raise BoardgenError(f"an animation drawing {cells:,} cells in all is more than the "
                            f"limit of {MAX_ANIMATION_CELLS:,}: animate fewer moves or a "
                            "smaller board")


def _check_bytes(data: bytes, fmt: str) -> bytes:
    if len(data) > MAX_ANIMATION_BYTES:
        raise BoardgenError(f"the animated {fmt.upper()} would be {len(data):,} bytes, more "
                            f"than the limit of {MAX_ANIMATION_BYTES:,}: animate fewer moves, "
                            "or lower the dpi")
    return data


def render_animation(animation: Animation, fmt: str, *, theme: Theme,
                     move_ms: int = DEFAULT_MOVE_MS, hold_ms: int = DEFAULT_HOLD_MS,
                     dpi: int = DEFAULT_DPI, cell_mm: float | None = None,
                     loop: bool = True) -> bytes:
    """The animation as GIF or APNG bytes (``fmt`` "gif" or "png"), or SVG text as UTF-8
    bytes ("svg").  ``loop``: GIF and APNG play again from the start (SVG plays once and
    holds the last frame)."""
    if fmt not in ANIMATION_FORMATS:
        raise BoardgenError(f"cannot animate as {fmt!r}: use {', '.join(ANIMATION_FORMATS)}")
    check_animation_work(animation)
    drawn = stills(animation, move_ms=move_ms, hold_ms=hold_ms, cell_mm=cell_mm)
    if fmt == "svg":
        return _check_bytes(animated_svg(animation, drawn, theme=theme).encode(), fmt)
    width, height = pixel_size(drawn[0].figure.width, drawn[0].figure.height, dpi)
    if width * height * len(drawn) > MAX_ANIMATION_PIXELS:
        raise BoardgenError(f"{len(drawn)} frames of {width} x {height} pixels are more than "
                            f"the limit of {MAX_ANIMATION_PIXELS:,} pixels in all: animate "
                            "fewer moves, or lower the dpi")
    return _check_bytes(_raster(drawn, fmt, theme=theme, dpi=dpi, loop=loop), fmt)


# --- GIF and APNG ------------------------------------------------------------------------


def theme_colours(theme: Theme) -> list[tuple[int, int, int]]:
    """Every colour a theme paints with, each once, in a fixed order."""
    named = [theme.paper, theme.line, theme.text, theme.muted, theme.accent, CAPTION_INK,
             theme.tab]
    for paint in theme.cells.values():
        named.append(paint.fill)
        if paint.outline:
            named.append(paint.outline)
    named.extend(theme.marks.values())
    colours: list[tuple[int, int, int]] = []
    for colour in named:
        rgb = (int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16))
        if rgb not in colours:
            colours.append(rgb)
    return colours


def _images(drawn: Sequence[Still], theme: Theme, dpi: int) -> list[PilImage]:
    from PIL import Image

    from boardgen.render.raster import figure_png

    def picture(figure: Figure) -> Image.Image:
        return Image.open(io.BytesIO(figure_png(figure, theme=theme,
                                                      dpi=dpi))).convert("RGB")

    images = []
    for still in drawn:
        image = picture(still.figure)
        if still.overlay is not None:
            over = picture(replace(still.figure, strokes=[*still.figure.strokes,
                                                          *still.overlay.strokes]))
            image = Image.blend(image, over, still.opacity)
        images.append(image)
    return images


def _palette(images: Sequence[PilImage], theme: Theme, size: int = 256
             ) -> list[tuple[int, int, int]]:
    """The theme's colours, then the other colours the pictures use most (anti-aliased
    edges), to ``size`` in all; ties broken by the colour, so the palette is always the
    same."""
    counts: dict[tuple[int, int, int], int] = {}
    for image in images:
        width, height = image.size
        for count, colour in image.getcolors(width * height) or []:
            assert isinstance(colour, tuple)
            rgb = (colour[0], colour[1], colour[2])
            counts[rgb] = counts.get(rgb, 0) + count
    palette = theme_colours(theme)[:size]
    known = set(palette)
    for colour, _ in sorted(counts.items(), key=lambda item: (-item[1], item[0])):
        if len(palette) == size:
            break
        if colour not in known:
            palette.append(colour)
            known.add(colour)
    return palette


def _indexed(image: PilImage, palette: list[tuple[int, int, int]]) -> PilImage:
    """The picture in the palette's colours: every colour of the palette kept exactly (as
    its own index), every other one the nearest.  (Pillow's own quantiser maps through a
    coarse cache, which can put a theme colour on its neighbour.)"""
    import numpy as np
    from PIL import Image

    rgb = np.asarray(image, dtype=np.uint32)
    packed = (rgb[..., 0] << 16) | (rgb[..., 1] << 8) | rgb[..., 2]
    colours, inverse = np.unique(packed, return_inverse=True)
    values = np.array([(r << 16) | (g << 8) | b for r, g, b in palette], dtype=np.uint32)
    # Nearest by squared distance in RGB; a palette colour is at distance 0 from itself,
    # and the first of equal candidates wins (argmin), so the mapping is fixed.
    table = np.array(palette, dtype=np.int64)
    wanted = np.stack([(colours >> 16) & 255, (colours >> 8) & 255, colours & 255],
                      axis=1).astype(np.int64)
    distances = ((wanted[:, None, :] - table[None, :, :]) ** 2).sum(axis=2)
    mapped = distances.argmin(axis=1).astype(np.uint8)
    exact = np.isin(colours, values)
    assert (values[mapped[exact]] == colours[exact]).all()
    out = Image.fromarray(mapped[inverse].reshape(packed.shape), mode="P")
    out.putpalette([c for colour in palette for c in colour])
    return out


def _raster(drawn: Sequence[Still], fmt: str, *, theme: Theme, dpi: int, loop: bool
            ) -> bytes:
    images = _images(drawn, theme, dpi)
    out = io.BytesIO()
    options: dict[str, object] = {"save_all": True, "duration": [s.ms for s in drawn]}
    if loop:
        options["loop"] = 0
    if fmt == "gif":
        # 255 colours and a transparent index: each frame after the first keeps only the
        # pixels that changed, the rest transparent over the frame before (long runs of
        # one index, which LZW packs; a 60-move game about halves).
        palette = _palette(images, theme, GIF_COLOURS)
        frames = [_indexed(image, palette) for image in images]
        first, *rest = _changes_only(frames)
        first.save(out, format="GIF", optimize=False, disposal=1, transparency=GIF_COLOURS,
                   append_images=rest, **options)
    else:
        palette = _palette(images, theme)
        first, *rest = [_indexed(image, palette) for image in images]
        first.save(out, format="PNG", optimize=False, default_image=False, disposal=0,
                   blend=0, append_images=rest, **options)
    return out.getvalue()


GIF_COLOURS = 255  # and index 255: transparent, "as the frame before"


def _changes_only(frames: list[PilImage]) -> list[PilImage]:
    """Every frame after the first with the pixels it shares with the one before made
    transparent (index GIF_COLOURS)."""
    import numpy as np
    from PIL import Image

    kept = [frames[0]]
    previous = np.asarray(frames[0])
    for frame in frames[1:]:
        current = np.asarray(frame)
        changed = Image.fromarray(np.where(current == previous, GIF_COLOURS, current)
                                  .astype(np.uint8), mode="P")
        changed.putpalette(frame.getpalette() or [])
        kept.append(changed)
        previous = current
    return kept


# --- SVG ---------------------------------------------------------------------------------

_DEFS = re.compile(r"<defs>(.*?)</defs>", re.S)
_DEF_ITEM = re.compile(r"<style\b.*?</style>|<pattern\b.*?</pattern>|<[a-zA-Z]+\b[^>]*?/>",
                       re.S)
_ROOT = re.compile(r"<svg\b[^>]*>")
_PAPER = re.compile(r'<rect class="paper"[^>]*/>')


def _svg_parts(svg: str) -> tuple[str, list[str], str]:
    """A document of ours cut into its root tag, its definitions and its drawing."""
    root = _ROOT.search(svg)
    defs = _DEFS.search(svg)
    assert root is not None and defs is not None
    body = svg[defs.end():svg.rindex("</svg>")]
    return root.group(), _DEF_ITEM.findall(defs.group(1)), body


def _seconds(ms: int) -> str:
    return f"{ms / 1000:.3f}s"


def animated_svg(animation: Animation, drawn: Sequence[Still], *, theme: Theme) -> str:
    """One SVG document showing each picture in turn (CSS animations, no script): every
    picture hidden but during its own time; the last one stays.  With reduced motion asked
    for, the last picture alone."""
    from boardgen.render.svg import escape, render_svg

    definitions: list[str] = []
    defined: set[str] = set()  # (the definitions' glyphs: hundreds, met again each frame)
    groups: list[str] = []
    root = ""
    at = 0
    for k, still in enumerate(drawn):
        svg = render_svg(still.figure, theme=theme)
        root, defs, body = _svg_parts(svg)
        layers = body
        if still.overlay is not None:
            _, more, over = _svg_parts(render_svg(still.overlay, theme=theme))
            defs = [*defs, *more]
            layers += f'<g opacity="{still.opacity:.3f}">{_PAPER.sub("", over, 1)}</g>'
        for item in defs:
            if item not in defined:
                defined.add(item)
                definitions.append(item)
        last = k == len(drawn) - 1
        label = f' aria-label="{escape(typography(animation.frames[still.move].caption))}"' \
            if still.move is not None else ' aria-hidden="true"'
        groups.append(f'<g class="frame{" last" if last else ""}" '
                      f'style="animation-delay:{_seconds(at)};animation-duration:'
                      f'{_seconds(still.ms)}"{label}>{layers}</g>')
        at += still.ms
    style = (".frame{visibility:hidden;animation-name:show;animation-timing-function:linear;"
             "animation-iteration-count:1;animation-fill-mode:none}"
             ".frame.last{animation-fill-mode:forwards}"
             "@keyframes show{from{visibility:visible}to{visibility:visible}}"
             "@media (prefers-reduced-motion:reduce){.frame{animation:none}"
             ".frame.last{visibility:visible}}")
    moves = len(animation.frames)
    description = typography(ntr("An animation of {count} step, one after another:",
                                 "An animation of {count} steps, one after another:",
                                 moves).format(count=moves) + " " + " ".join(
                       f"{k}. {frame.caption}" for k, frame in
                       enumerate(animation.frames, start=1)))
    return '<?xml version="1.0" encoding="utf-8"?>\n' + root[:-1] + ' role="img">' + \
        f"<title>{escape(typography(animation.title))}</title><desc>{escape(description)}</desc>" \
        f'<defs><style type="text/css"><![CDATA[{style}]]></style>{"".join(definitions)}' \
        f"</defs>{''.join(groups)}</svg>\n"
