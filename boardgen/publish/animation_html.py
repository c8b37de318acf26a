"""An animated SVG (boardgen.render.animation) placed in an HTML page, with controls.

The HTML rule sheets and the ``serve`` page can set a diagram line's animation beside its
still panels with :func:`animation_figure`.  The fragment has no script:

- the SVG goes inline, its ids and its style sheet scoped to the figure, so several
  animations (of different themes and cell sizes) share a page without mixing;
- a **Pause** checkbox holds the animation where it is, and **Play again** starts it again
  from its first frame (a new animation name restarts a CSS animation); both are native
  checkboxes with labels, so they take the keyboard's focus and Space;
- the alternative text is the SVG's own (its title and the caption of every move), given
  to the picture as ``role="img"`` with ``aria-label``;
- with reduced motion asked for, the last frame stands alone and the controls are hidden;
- what the frames repeat of each other (the board, the coordinates, a lattice's pieces) is
  drawn once and referred to (``<use>``): a page holds several animations, and a Polygone
  swing's in-between frames each hold the whole lattice.

The HTML rule sheets place it under their diagrams (boardgen.publish.sheet_animation);
the ``serve`` page opens it as a page of its own in a frame (``/animation/PATH``).
"""

from __future__ import annotations

import re
from collections import Counter

from boardgen.errors import BoardgenError
from boardgen.i18n import tr
from boardgen.render.svg import escape, quoteattr

_KEY = re.compile(r"[a-z][a-z0-9-]{0,63}")
_STYLE = re.compile(r"<style[^>]*><!\[CDATA\[(.*?)\]\]></style>", re.S)


_FRAME = re.compile(r'<g class="frame( last)?"[^>]*>')
# An element with no element inside it: a leaf, or a group of leaves (or of references).
# (A group's inside: runs of anything but "<", or a "<" that starts no group and ends
# none; possessive, so that a group left open fails at once instead of backtracking.)
_INNERMOST = re.compile(r"<(?:polyline|polygon|path|circle|ellipse|rect|line|use)\b[^>]*/>"
                        r"|<g\b[^>]*>(?:[^<]++|<(?!g\b|/g>))*+</g>")
SHARED_AT_LEAST = 48  # characters: a shorter element costs less than a reference to it
SHARING_ROUNDS = 6  # groups of groups: the board in its layer, the layer in the frame


def _shared(svg: str) -> str:
    """The animation with every element that two frames or more draw alike (byte for
    byte) drawn once in ``<defs>`` and referred to by ``<use>``, innermost first, so that
    a group whose parts are all shared is shared whole.  The last frame keeps its own
    elements (a still drawing of the final position, as the SVG's own).

    A ``<use>``'s copy is styled apart from the page's selectors: only its own element
    takes the style sheets' rules, and hands their (inherited) paint down.  So the
    ``<use>`` carries the element's class, and an element is shared only if nothing
    inside it has a class the style sheets style, nor has it paint of its own that such
    a rule overrides."""
    starts = [m.start() for m in _FRAME.finditer(svg)]
    if len(starts) < 2:
        return svg
    styled = set(re.findall(r"\.([a-zA-Z][\w-]*)", " ".join(
        re.sub(r"\{[^{}]*\}", " ", css) for css in _STYLE.findall(svg))))

    known: dict[str, bool] = {}  # an element met again is not looked into again

    def shareable(element: str) -> bool:
        found = known.get(element)
        if found is None:
            found = known[element] = _shareable(element)
        return found

    def _shareable(element: str) -> bool:
        head, _, inside = element.partition(">")
        inner = {name for found in re.findall(r'class="([^"]*)"', inside)
                 for name in found.split()}
        own = re.search(r'class="([^"]*)"', head)
        painted = own is not None and bool(styled & set(own.group(1).split())) and \
            re.search(r'\s(?:fill|stroke[\w-]*)="', head) is not None
        return len(element) >= SHARED_AT_LEAST and ' id="' not in element and \
            not (styled & inner) and not painted

    end = svg.rindex("</svg>")
    frames = [svg[a:b] for a, b in zip(starts, [*starts[1:], end], strict=True)]
    shared: dict[str, str] = {}
    for _ in range(SHARING_ROUNDS):
        # Each frame's innermost elements, where they are (one scan a frame and round).
        # (frame[1:]: the frame's own group is never shared; nor is the last frame's.)
        found = [[(m.start(), m.end(), m.group())
                  for m in _INNERMOST.finditer(frame, 1)] for frame in frames]
        counts = Counter(element for spans in found for _, _, element in spans)

        def referred(element: str, counts: Counter[str] = counts) -> str:
            if counts[element] < 2 or not shareable(element):
                return element
            name = shared.setdefault(element, f"shared-{len(shared)}")
            own = re.match(r'<[a-z]+\b[^>]*?(\sclass="[^"]*")', element)
            return f'<use{own.group(1) if own else ""} href="#{name}"/>'

        changed = []
        for frame, spans in zip(frames[:-1], found, strict=False):
            pieces, at = [], 0
            for first, after, element in spans:
                pieces += [frame[at:first], referred(element)]
                at = after
            pieces.append(frame[at:])
            changed.append("".join(pieces))
        if changed == frames[:-1]:
            break
        frames[:-1] = changed
    if not shared:
        return svg
    definitions = "".join(re.sub(r"^<([a-z]+)", rf'<\1 id="{name}"', element, count=1)
                          for element, name in shared.items())
    return f"{svg[:starts[0]]}<defs>{definitions}</defs>{''.join(frames)}{svg[end:]}"


def _scoped_rules(css: str, scope: str) -> str:
    """Our style sheets' grammar (rules, ``@keyframes``, ``@media``) with every selector
    under ``#scope`` and every animation name prefixed by the scope."""
    out = []
    at = 0
    while at < len(css):
        brace = css.index("{", at)
        head = css[at:brace].strip()
        depth, end = 1, brace + 1
        while depth:
            depth += {"{": 1, "}": -1}.get(css[end], 0)
            end += 1
        body = css[brace + 1:end - 1]
        if head.startswith("@keyframes"):
            out.append(f"@keyframes {scope}-{head.split()[1]}{{{body}}}")
        elif head.startswith("@media"):
            out.append(f"{head}{{{_scoped_rules(body, scope)}}}")
        else:
            selectors = ",".join(f"#{scope} {s.strip()}" for s in head.split(","))
            named = re.sub(r"animation-name:([a-z-]+)", rf"animation-name:{scope}-\1", body)
            out.append(f"{selectors}{{{named}}}")
        at = end
    return "".join(out)


def _scoped_svg(svg: str, scope: str) -> str:
    """The document inline: no XML declaration, ids and references prefixed, style sheets
    scoped."""
    svg = _shared(svg.split("?>", 1)[1] if svg.startswith("<?xml") else svg)
    svg = re.sub(r'\bid="([^"]+)"', rf'id="{scope}-\1"', svg)
    svg = re.sub(r'href="#([^"]+)"', rf'href="#{scope}-\1"', svg)
    svg = re.sub(r"url\(#([^)]+)\)", rf"url(#{scope}-\1)", svg)
    return _STYLE.sub(lambda m: f"<style><![CDATA[{_scoped_rules(m.group(1), scope)}]]>"
                                "</style>", svg).strip()


def animation_figure(svg: str, key: str, caption: str | None = None, *,
                     alt: str | None = None) -> str:
    """An HTML ``<figure>`` showing the animated SVG with its Pause and Play again
    controls; ``key`` (lower-case letters, digits and hyphens, starting with a letter) is
    unique on the page.  ``alt``: the alternative text (plain text) when it is not the
    SVG's own (a rule sheet gives its still figure's, so both say the same)."""
    if not _KEY.fullmatch(key):
        raise BoardgenError(f"animation key {key!r}: lower-case letters, digits and hyphens, "
                            "starting with a letter")
    title = re.search(r"<title>(.*?)</title>", svg, re.S)
    description = re.search(r"<desc>(.*?)</desc>", svg, re.S)
    own = ". ".join(m.group(1) for m in (title, description) if m is not None)
    # The picture's text alternative is the figure's: the SVG's own title and description
    # go (a reader meets them once; a sheet's search finds the still figure's).
    inner = re.sub(r"<title>.*?</title>|<desc>.*?</desc>", "", svg, count=2, flags=re.S)
    picture = _scoped_svg(inner, key).replace("<svg ", '<svg aria-hidden="true" ', 1)
    pause, again = escape(tr("Pause")), escape(tr("Play again"))
    controls = (f'<input type="checkbox" id="{key}-pause" class="pause">'
                f'<label for="{key}-pause">{pause}</label> '
                f'<input type="checkbox" id="{key}-again" class="again">'
                f'<label for="{key}-again">{again}</label>')
    style = (f"#{key} .pause:checked~.picture .frame{{animation-play-state:paused}}"
             f"#{key} .again:checked~.picture .frame{{animation-name:{key}-again}}"
             f"@keyframes {key}-again{{from{{visibility:visible}}to{{visibility:visible}}}}"
             f"@media (prefers-reduced-motion:reduce){{#{key} input,#{key} label"
             "{display:none}}")
    figcaption = f"<figcaption>{escape(caption)}</figcaption>" if caption else ""
    if alt is None:
        # The SVG's text is entity-escaped as the SVG holds it; quoteattr escapes again.
        alt = own.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")
    return (f'<figure class="boardgen-animation" id="{key}"><style>{style}</style>'
            f'{controls}<div class="picture" role="img" aria-label={quoteattr(alt)}>'
            f"{picture}</div>{figcaption}</figure>")
