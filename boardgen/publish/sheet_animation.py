"""The HTML rule sheets' diagrams in motion: under a diagram whose lines of play move, a
closed "Watch it move" disclosure holding the lines as an animated SVG
(:func:`boardgen.publish.animation_html.animation_figure`, with its Pause and Play again
controls), drawn in the still panels' theme and cell size and given the still figure's
own alternative text.

Kept apart from :mod:`boardgen.publish.sheet` (which only calls :func:`sheet_animation`
and appends :data:`SHEET_ANIMATION_CSS`) so that the sheet's layout can change without it.
"""

from __future__ import annotations

import html

from boardgen.i18n import tr, typography
from boardgen.picture import Animation, Diagram, diagram_animation, diagram_animations
from boardgen.publish.animation_html import animation_figure
from boardgen.render.animation import render_animation
from boardgen.render.motion import DEFAULT_DPI, DEFAULT_HOLD_MS, DEFAULT_MOVE_MS
from boardgen.render.scene import Theme

# Closed by default, so the page reads as the printed sheet; never printed.  A disclosure's
# animations start when it is opened (its content is not rendered while closed).
SHEET_ANIMATION_CSS = """
details.moving { margin: -.8rem 0 1.4rem; }
details.moving > summary { cursor: pointer; color: #0b5cad; font-weight: 700; }
details.moving > summary:focus-visible { outline: 3px solid #0b5cad; outline-offset: 2px; }
details.moving figure { margin: .6rem 0 0; }
details.moving .picture svg { width: 100%; max-width: 28rem; height: auto; display: block; }
details.moving label { margin-right: 1rem; }
.for-readers { position: absolute; width: 1px; height: 1px; overflow: hidden;
               clip-path: inset(50%); white-space: nowrap; }
@media print { details.moving { display: none; } }
"""


def moving_lines(diagram: Diagram) -> Animation | None:
    """The diagram's lines of play as one animation (line after line), if they move: the
    game gives a line move by move and it has more than one step, or a panel's swing turns
    into the next.  A chart of separate cases (O's glyphs, one piece's targets) or a
    single position is not a line of play: None."""
    lines = diagram_animations(diagram)
    moving = any(len(line.frames) > 1 for line in lines) if diagram.steps else \
        any(frame.turn is not None for line in lines for frame in line.frames)
    return diagram_animation(diagram) if moving else None


def sheet_animation(diagram: Diagram, *, theme: Theme, cell_mm: float, key: str, name: str,
                    alt: str) -> str:
    """The disclosure under a diagram's still figure, or "" when its lines do not move.
    ``name`` is the figure's caption and ``alt`` its alternative text (plain text, as
    the still figure has them); ``key`` is unique on the page."""
    animation = moving_lines(diagram)
    if animation is None:
        return ""
    svg = render_animation(animation, "svg", theme=theme, move_ms=DEFAULT_MOVE_MS,
                           hold_ms=DEFAULT_HOLD_MS, dpi=DEFAULT_DPI, cell_mm=cell_mm)
    figure = animation_figure(svg.decode("utf-8"), key, alt=typography(alt))
    watch = html.escape(tr("Watch it move"))
    colon = typography("x: ").removeprefix("x")  # ": ", in French with a no-break space
    return (f'<details class="moving"><summary>{watch}<span class="for-readers">'
            f"{html.escape(colon + typography(name))}</span></summary>{figure}</details>")
