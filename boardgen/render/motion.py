"""What an animation's options may be (boardgen.render.animation draws it): its formats,
its timing and its resolution.  Kept apart, with no drawing library behind it, so that the
command line and the request layer can check the options without loading the renderer."""

from __future__ import annotations

from typing import Literal, get_args

from boardgen.errors import BoardgenError, option

AnimationFormat = Literal["gif", "png", "svg"]  # png: an animated PNG (APNG)
ANIMATION_FORMATS: tuple[AnimationFormat, ...] = get_args(AnimationFormat)

DEFAULT_MOVE_MS = 900  # each move's frame
DEFAULT_HOLD_MS = 3000  # the last frame, on top of its move's time
DEFAULT_DPI = 96  # a screen's pixels: a side-5 board about 300 pixels across
MIN_MS, MAX_MS = 20, 60_000


def check_timing(move_ms: object, hold_ms: object) -> tuple[int, int]:
    """The time per move and the hold on the last frame, in milliseconds, checked."""
    for name, value, low in (("move_ms", move_ms, MIN_MS), ("hold_ms", hold_ms, 0)):
        if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= MAX_MS:
            raise BoardgenError(f"{option(name)}: {value!r} is not a whole number of milliseconds "
                                f"from {low} to {MAX_MS}", field=name)
    assert isinstance(move_ms, int) and isinstance(hold_ms, int)
    return move_ms, hold_ms
