"""Figure -> SVG text, at exact size: width and height in mm, and a viewBox in mm to match.

The document is written as formatted text, element by element, in the markup svgwrite
(which wrote it before) and ElementTree's serialiser make: attributes in sorted order, an
element with no content closed with `` />``, attribute values and texts escaped as
ElementTree escapes them (:func:`escape_attribute`, :func:`escape`).  Importing svgwrite
and its validator cost a sixth of the SVG command's start-up, and serialising its tree a
tenth of ``boardgen all``; the bytes are the same (bench/same_output.py compares every file
of ``boardgen all``; tests/render check the markup).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Literal

from boardgen.i18n import typography
from boardgen.picture import MARK_ROLE_PREFIX
from boardgen.render.figure import (
    MARK_TEXT,
    PATTERN_SHARE,
    Area,
    Figure,
    Mark,
    Stroke,
    Text,
    arrow_head,
    dot_outline,
    pattern_step,
    text_box,
    text_ink,
)
from boardgen.render.fonts import BOLD, FONT_FAMILY, face
from boardgen.render.scene import Theme
from boardgen.text import printable

TITLE_SIZE_MM = 6.0


_ATTRIBUTE_ESCAPES = (("&", "&amp;"), (">", "&gt;"), ("<", "&lt;"), ("\n", "&#10;"),
                      ("\r", "&#13;"), ("\t", "&#9;"))


def escape(text: str) -> str:
    """``text`` as XML character data, exactly as ``xml.sax.saxutils.escape`` writes it."""
    return text.replace("&", "&amp;").replace(">", "&gt;").replace("<", "&lt;")


def quoteattr(text: str) -> str:
    """``text`` as a quoted XML attribute value, exactly as ``xml.sax.saxutils.quoteattr``
    writes it: double quotes unless the text holds one and no single quote."""
    for plain, escaped in _ATTRIBUTE_ESCAPES:
        text = text.replace(plain, escaped)
    if '"' not in text:
        return f'"{text}"'
    if "'" not in text:
        return f"'{text}'"
    return '"' + text.replace('"', "&quot;") + '"'


def escape_attribute(text: str) -> str:
    """``text`` as a double-quoted attribute's value, as ElementTree escapes it."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;") \
        .replace('"', "&quot;").replace("\r", "&#13;").replace("\n", "&#10;") \
        .replace("\t", "&#09;")


def _element(tag: str, attributes: dict[str, str], content: str = "") -> str:
    """One element, its attributes in sorted order, an empty one left out; with no
    content, closed as ``<tag ... />``."""
    written = "".join(f' {name}="{escape_attribute(value)}"'
                      for name, value in sorted(attributes.items()) if value)
    return f"<{tag}{written}>{content}</{tag}>" if content else f"<{tag}{written} />"


def _n(v: float) -> str:
    return f"{v:.3f}"


def _glyph_run(t: Text, used: dict[str, str], theme: Theme | None = None) -> str:
    """A text as ``<use>`` references to glyph outlines; records the glyphs it needs."""
    font = face(t.weight)
    scale = t.size / font.units_per_em
    x0 = text_box(t)[0]
    baseline = t.y + font.cap_height * scale / 2
    # Callers refuse control characters (XML must never see one); the language's spacing.
    text = typography(printable(t.text))
    # A number on a stone carries its own fill, inline: the style sheet's class rule (for
    # text on cells) would beat a presentation attribute in a browser and in Typst.
    fill = f' style="fill:{text_ink(t, theme)}"' if t.on and theme is not None else ""
    uses, glyphs = _glyph_uses(t.weight, text)
    used.update(glyphs)
    return (f'<g class="{_text_class(t.role)}"{fill} aria-label={quoteattr(text)} '
            f'transform="translate({x0:.3f} {baseline:.3f}) scale({scale:.6f})">{uses}</g>')


# A text's <use> elements and the glyphs they name, by weight and text (as drawn): labels
# and captions come again and again, in a document and from one document to the next.
_GLYPH_USES: dict[tuple[str, str], tuple[str, tuple[tuple[str, str], ...]]] = {}
_GLYPH_USES_KEPT = 4_096


def _glyph_uses(weight: str, text: str) -> tuple[str, tuple[tuple[str, str], ...]]:
    key = (weight, text)
    found = _GLYPH_USES.get(key)
    if found is not None:
        return found
    font = face(weight)
    parts = []
    glyphs = []
    advance = 0
    for ch in text:
        glyph = font.glyph(ch)
        if ch != " ":
            glyphs.append((glyph.id, glyph.path))
            parts.append(f'<use xlink:href="#{glyph.id}" x="{advance}"/>')
        advance += glyph.advance
    found = ("".join(parts), tuple(glyphs))
    if len(_GLYPH_USES) >= _GLYPH_USES_KEPT:
        _GLYPH_USES.clear()
    _GLYPH_USES[key] = found
    return found


def _text_run(t: Text, theme: Theme | None = None) -> str:
    """A text as an SVG ``<text>`` in the bundled font, placed where :func:`_glyph_run`
    puts the outlines: for a typesetter that has the font and keeps text as text."""
    font = face(t.weight)
    x0 = text_box(t)[0]
    baseline = t.y + font.cap_height * t.size / font.units_per_em / 2
    weight = ' font-weight="bold"' if t.weight == BOLD else ""
    # A number on a stone carries its own fill, inline: the style sheet's class rule (for
    # text on cells) would beat a presentation attribute in a browser and in Typst.
    fill = f' style="fill:{text_ink(t, theme)}"' if t.on and theme is not None else ""
    return (f'<text class="{_text_class(t.role)}"{fill} x="{x0:.3f}" y="{baseline:.3f}" '
            f'font-family="{FONT_FAMILY}" font-size="{t.size:.3f}"{weight}>'
            f"{escape(typography(printable(t.text)))}</text>")


INKSCAPE_NS = "http://www.inkscape.org/namespaces/inkscape"


def _mark(m: Mark, theme: Theme, colour: Callable[[str], str] | None = None) -> str:
    fill = (colour or theme.colour)(m.role)
    if m.kind == "dot":
        radius, width = dot_outline(m, theme)
        if m.role in theme.cells and theme.cells[m.role].pattern:
            fill = f"url(#paint-{m.role})"  # a stone told apart by its pattern (ink)
        return (f'<circle class="mark dot {m.role}" cx="{m.x:.3f}" cy="{m.y:.3f}" '
                f'r="{radius:.3f}" fill="{fill}" stroke="{theme.line}" '
                f'stroke-width="{width:.3f}"/>')
    if m.kind == "disc":
        return (f'<circle class="mark disc {m.role}" cx="{m.x:.3f}" cy="{m.y:.3f}" '
                f'r="{m.radius:.3f}" fill="{theme.paper}" stroke="{theme.text}" '
                f'stroke-width="{m.radius * 0.12:.3f}"/>')
    if m.kind == "ring":
        return (f'<circle class="mark ring {m.role}" cx="{m.x:.3f}" cy="{m.y:.3f}" '
                f'r="{m.radius:.3f}" fill="none" stroke="{fill}" '
                f'stroke-width="{m.radius * 0.22:.3f}"/>')
    r = m.radius
    return (f'<path class="mark cross {m.role}" d="M{m.x - r:.3f} {m.y - r:.3f}L{m.x + r:.3f} '
            f'{m.y + r:.3f}M{m.x - r:.3f} {m.y + r:.3f}L{m.x + r:.3f} {m.y - r:.3f}" '
            f'stroke="{fill}" stroke-width="{r * 0.25:.3f}" fill="none"/>')


# The class of a designer's marks (and their halos and texts): no engine role's element
# carries it, so a style sheet or a test can tell the designer's marks from the engine's.
DESIGNER_CLASS = "designer-mark"


def _text_class(role: str) -> str:
    return f"{DESIGNER_CLASS} {role}" if role.startswith(MARK_ROLE_PREFIX) else role


def _stroke(s: Stroke, theme: Theme, colour_of: Callable[[str], str] | None = None) -> str:
    colour = (colour_of or theme.colour)(s.role)
    points = " ".join(f"{x:.3f},{y:.3f}" for x, y in s.points)
    dash = f' stroke-dasharray="{s.dash:.3f}"' if s.dash else ""
    cap = "butt" if s.dash else "round"
    kind = DESIGNER_CLASS if s.role.startswith(MARK_ROLE_PREFIX) else "stroke"
    out = (f'<polyline class="{kind} {s.role}" points="{points}" fill="none" '
           f'stroke="{colour}" stroke-width="{s.width:.3f}" stroke-linecap="{cap}"{dash}/>')
    if s.arrow:
        head = " ".join(f"{x:.3f},{y:.3f}" for x, y in arrow_head(s))
        out += f'<polygon class="arrowhead {s.role}" points="{head}" fill="{colour}"/>'
    return out


def _area(a: Area, theme: Theme, kind: str = "area") -> str:
    paint = theme.paint(a.role)
    fill = f"url(#paint-{a.role})" if paint.pattern else paint.fill
    points = " ".join(f"{x:.3f},{y:.3f}" for x, y in a.points)
    named = f' data-cell="{a.name}"' if a.name else ""
    return f'<polygon class="{kind} {a.role}"{named} points="{points}" fill="{fill}" ' \
        'stroke="none"/>'


def _style_sheet(theme: Theme, roles: list[str], credit: bool = False,
                 designer: bool = False) -> str:
    rules = [
        f".paper{{fill:{theme.paper}}}",
        f".cell{{stroke:{theme.line};stroke-width:{theme.line_width_mm}px;"
        "stroke-linejoin:round}",
    ]
    for role in roles:
        paint = theme.paint(role)
        fill = f"url(#paint-{role})" if paint.pattern else paint.fill
        outline = f";stroke:{paint.outline}" if paint.outline else ""
        rules.append(f".cell.{role}{{fill:{fill}{outline}}}")
    rules += [
        # A diagram's credit line, when it has one, in the captions' ink.
        f".coordinate,.caption{',.credit' if credit else ''}{{fill:{theme.muted}}}",
        f".cell-text,.title{{fill:{theme.text}}}",
    ]
    if designer:  # a designer's text marks, in the designer's ink
        rules.append(f".{MARK_TEXT}{{fill:{theme.designer}}}")
    return "".join(rules)


# CairoSVG (our PNG writer) rasterises a pattern tile at one pixel per user unit before
# scaling it, which blurs a 1 mm tile into a grey smudge: the tile is drawn ten times larger
# and scaled down by its transform, which every viewer treats alike.
_PATTERN_ZOOM = 10.0


def _pattern(role: str, theme: Theme, cell_width: float) -> str:
    """A seamless tile of the role's pattern: a bar (turned 45 degrees for the diagonal
    ones), two bars for crosshatch, or a dot."""
    paint = theme.paint(role)
    kind = paint.pattern or "dots"
    step = pattern_step(cell_width) * _PATTERN_ZOOM
    share = PATTERN_SHARE[kind]
    side = _n(step)
    turn = "rotate(45) " if kind in ("hatch", "crosshatch") else \
        "rotate(-45) " if kind == "backhatch" else ""
    tile = [_element("rect", {"fill": paint.fill, "height": side, "stroke": "none",
                              "width": side, "x": "0", "y": "0"})]
    bar = _n(step * share)
    if kind == "dots":
        tile.append(_element("circle", {"cx": _n(step / 2), "cy": _n(step / 2),
                                        "fill": theme.line, "r": bar, "stroke": "none"}))
    if kind in ("hatch", "backhatch", "vlines", "crosshatch", "grid"):
        tile.append(_element("rect", {"fill": theme.line, "height": side, "stroke": "none",
                                      "width": bar, "x": "0", "y": "0"}))
    if kind in ("hlines", "crosshatch", "grid"):
        tile.append(_element("rect", {"fill": theme.line, "height": bar, "stroke": "none",
                                      "width": side, "x": "0", "y": "0"}))
    return _element("pattern", {"height": side, "id": f"paint-{role}",
                                "patternTransform": f"{turn}scale({1 / _PATTERN_ZOOM:g})",
                                "patternUnits": "userSpaceOnUse", "width": side},
                    "".join(tile))


def title_line(figure: Figure, title: str | None) -> tuple[Text | None, float, float]:
    """The title line, the height of its band, and the document width it needs."""
    if not title:
        return None, 0.0, figure.width
    probe = Text(0.0, 0.0, title, TITLE_SIZE_MM, "title", weight=BOLD)
    x0, _, x1, _ = text_box(probe)
    width = max(figure.width, x1 - x0 + 4.0)
    band = 2.2 * TITLE_SIZE_MM
    return Text(width / 2, band / 2, title, TITLE_SIZE_MM, "title", weight=BOLD), band, width


def document_size(figure: Figure, title: str | None) -> tuple[float, float]:
    """Width and height in mm of the SVG that :func:`render_svg` makes."""
    _, band, width = title_line(figure, title)
    return width, figure.height + band


class SvgDocument(str):
    """SVG text that remembers the figure it shows, so that a PNG of it is drawn from the
    figure (boardgen.render.raster) instead of parsing the text back."""

    figure: Figure
    theme: Theme
    figure_title: str | None  # (str.title is a method)


def render_svg(figure: Figure, *, theme: Theme, title: str | None = None,
               description: str | None = None,
               text_as: Literal["outlines", "text"] = "outlines") -> str:
    """The figure as a standalone SVG document (UTF-8 text), sized in millimetres.

    Texts are the font's glyph outlines (every viewer draws them alike), or with
    ``text_as="text"`` ``<text>`` elements naming the bundled font, for a typesetter that
    embeds the font itself (the rule sheets: their PDF keeps captions as real text).

    Every cell is one ``<use class="cell ROLE" data-cell="NAME">`` element, so a board can
    be restyled with CSS (``.cell.empty``, ``.cell[data-cell=F6]``) or scripted.
    """
    title_text, band, width = title_line(figure, title)
    height = figure.height + band
    dx = (width - figure.width) / 2

    head = []  # the title and description, first in the document
    description = printable(description) if description else description
    if title:
        head.append(f"<title>{escape(printable(title))}</title>")
    if title and description is not None or description:
        head.append(f"<desc>{escape(description)}</desc>" if description else "<desc />")

    roles = sorted({c.role for c in figure.cells})
    style = _style_sheet(theme, roles, any(t.role == "credit" for t in figure.texts),
                         any(t.role == MARK_TEXT for t in figure.texts))
    definitions = [f'<style type="text/css"><![CDATA[{style}]]></style>',
                   _element("polygon", {"id": "hex", "points": " ".join(
                       f"{float(_n(x))},{float(_n(y))}" for x, y in figure.hex_offsets)})]
    roles_patterned = sorted(set(roles) | {a.role for a in figure.areas}
                             | {a.role for a in figure.overlays}
                             | {m.role for m in figure.marks if m.role in theme.cells})
    definitions += [_pattern(role, theme, figure.cell_width) for role in roles_patterned
                    if theme.paint(role).pattern]
    used_glyphs: dict[str, str] = {}
    # Each role's colour looked up once a document (a theme asks the games' declarations
    # for roles of their own: thousands of strokes and stones).
    colour = functools.lru_cache(maxsize=None)(theme.colour)

    def layer(name: str, markup: str) -> str:
        return (f'<g class="layer-{name}" inkscape:groupmode="layer" '
                f'inkscape:label="{name.capitalize()}">{markup}</g>')

    def texts(roles: tuple[str, ...]) -> str:
        if text_as == "text":
            return "".join(_text_run(t, theme) for t in figure.texts if t.role in roles)
        return "".join(_glyph_run(t, used_glyphs, theme) for t in figure.texts
                       if t.role in roles)

    body = [_element("rect", {"class": "paper", "height": _n(height), "width": _n(width),
                              "x": "0", "y": "0"})]
    if title_text is not None:
        body.append(layer("title", _text_run(title_text) if text_as == "text"
                          else _glyph_run(title_text, used_glyphs)))
    # One Inkscape layer each, bottom to top, so a designer can edit a diagram layer by
    # layer: the board, the stones and pieces, the designer's arrows, the texts.
    # A highlight is a band over its cell (class "highlight ROLE"), so that the cell keeps
    # its own class and fill.
    layers = [
        layer("board", "".join(_area(a, theme) for a in figure.areas) + "".join([
            f'<use class="cell {role}" data-cell="{name}" xlink:href="#hex" '
            f'x="{x:.3f}" y="{y:.3f}"/>' for name, x, y, role in figure.cells
        ]) + "".join(_area(a, theme, "highlight") for a in figure.overlays)
            + "".join(_stroke(s, theme, colour) for s in figure.strokes if s.under)),
        layer("marks", "".join(_mark(m, theme, colour) for m in figure.marks) + "".join(
            _stroke(s, theme, colour) for s in figure.strokes
            if not s.under and not s.arrow)),
        layer("labels", texts(("cell-text", MARK_TEXT))),
        # Arrows above the rings and numbers they start or end at.
        layer("annotations", "".join(_stroke(s, theme, colour) for s in figure.strokes
                                     if not s.under and s.arrow)),
        layer("coordinates", texts(("coordinate",))),
        layer("captions", texts(tuple({t.role for t in figure.texts}
                                      - {"cell-text", "coordinate", MARK_TEXT}))),
    ]
    body.append(_element("g", {"class": "board", "transform": f"translate({dx:.3f} "
                                                               f"{band:.3f})"},
                         "".join(layers)))
    definitions += [_element("path", {"d": used_glyphs[glyph_id], "id": glyph_id})
                    for glyph_id in sorted(used_glyphs)]
    svg = _element("svg", {
        "baseProfile": "full", "height": f"{height:.3f}mm", "version": "1.1",
        "viewBox": f"0,0,{float(_n(width))},{float(_n(height))}", "width": f"{width:.3f}mm",
        "xmlns": "http://www.w3.org/2000/svg", "xmlns:ev": "http://www.w3.org/2001/xml-events",
        "xmlns:xlink": "http://www.w3.org/1999/xlink",
    }, "".join(head) + _element("defs", {}, "".join(definitions)) + "".join(body))
    svg = svg.replace("<svg ", f'<svg xmlns:inkscape="{INKSCAPE_NS}" ', 1)
    document = SvgDocument('<?xml version="1.0" encoding="utf-8"?>\n' + svg + "\n")
    document.figure, document.theme, document.figure_title = figure, theme, title
    return document
