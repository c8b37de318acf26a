"""Rule sheets typeset by Typst (the ``typst`` wheel): the sheet markup becomes Typst source,
the diagrams go in as SVG with their texts kept as text, and Typst sets the pages, tagged as
PDF/UA-1.

Typst does what a typesetter does natively: justified, hyphenated text (English patterns),
headings kept with what follows, widows and orphans avoided, an outline (bookmarks) from the
headings, "page N of M", a structure tree with a Figure and its alternative text for every
diagram.  What is particular to a rule sheet is decided here, by measuring a first setting
and correcting it:

* a figure never leaves its section: figures are set in place, never floated, and a figure
  too tall for the rest of a page lets the running text that follows it *in its own
  section* go first (as a book's figure would), so that no page before the last is left
  less than ``FILL_TARGET`` full;
* a figure's panels are not split across pages; a figure taller than a whole column is
  cut between rows of panels and each later part repeats the title with "(continued)";
* a figure of one row of narrow panels has its key and words beside the panels, not above
  and below them.

``render_sheet_pdf`` is the entry point; ``boardgen.publish.sheet`` (markup, HTML) is the
module this one builds on, never the other way round.

The document is measured through Typst itself: zero-height marks at the start and end of
every unit report their page and height (``typst.eval`` of a query), so the correction loop
needs no PDF parsing.  Identical input gives identical bytes: the only date is
SOURCE_DATE_EPOCH (when set), and Typst is given only the bundled font.
"""

from __future__ import annotations

import functools
import json
import math
import re
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Literal

from boardgen._version import __version__
from boardgen.errors import BoardgenError
from boardgen.games.registry import game_named
from boardgen.i18n import decimal_commas, language, language_tag, tr, typography
from boardgen.i18n import number as decimal
from boardgen.picture import Diagram, PointScene
from boardgen.publish.markup import for_medium, spans
from boardgen.publish.sheet import (
    Block,
    _sheet_diagram,
    _smart,
    check_sheet_paper,
    curled,
    load_sheet,
    pieces_in_words,
    print_theme,
    sheet_board,
    sheet_cell_mm,
    sheet_path,
)
from boardgen.publish.sheet_cache import cached_sheet
from boardgen.render.diagram import describe, legend_figure
from boardgen.render.figure import COMMON_PIECES, Figure, board_figure, text_box, uncaptioned
from boardgen.render.fonts import FONT_FAMILY, font_folder
from boardgen.render.lattice import board_pages, lattice_figure, pieces_sheet
from boardgen.render.paper import (
    HEADER_MM,
    Paper,
    content_left,
    content_size,
)
from boardgen.render.paper import MARGIN_MM as BOARD_MARGIN_MM
from boardgen.render.pdf import SCALE_BAR_MM, VERTICAL_BAR_X_MM
from boardgen.render.svg import render_svg
from boardgen.reproducible import source_date_epoch

if TYPE_CHECKING:
    import typst

    from boardgen.render.scene import Theme

MARGIN_MM = 10.0  # left, right and top: well inside the printable area of A4 and Letter printers
FOOTER_BAND_MM = 8.0  # below the text column, above the bottom margin: the page footer
PAIR_GAP_MM = 6.0  # between two figures that share a row
FILL_TARGET = 0.82  # every page before the last text page is at least this full
MAX_PASSES = 14  # settings measured and corrected, at most
QUICK_MAX_ENLARGE = 2.0  # a quick reference's diagram cells, at most this many times a sheet's
QUICK_SEARCH_STEPS = 5
# The type scale: four sizes for everything a reader reads (board and diagram labels aside).
TITLE_PT = 20.0  # the sheet's title
HEADING_PT = 13.0  # a section's heading
BODY_PT = 9.5  # running text, and figure titles (set off by weight, a rule and space)
SMALL_PT = 8.5  # captions, keys, notes, the bars' words and the footer
SINGLE_COLUMN_BODY_PT = 10.5  # running text on paper set in one column (A5)
# Two columns on paper at least this wide (A4, Letter): a measure of about 60 characters.
TWO_COLUMNS_MIN_MM = 180.0
GUTTER_MM = 7.0
# Justified word spaces kept within about 0.16-0.33 em (Source Sans Pro's space is 0.2 em):
# Typst lets a line go looser rather than squeeze further, and runs of loose lines are
# broken elsewhere by its paragraph optimiser.
WORD_SPACE_MIN = 0.82
WORD_SPACE_MAX = 1.45
MARK_LABEL = "boardgen-mark"
# A band left of a board for the 50 mm bar up the page (printers that scale only in the
# paper-feed direction show there): the bar, its ticks and its turned label, and a gap.
BAR_BAND_MM = 6.0
VBAR_MM = SCALE_BAR_MM + 11.0  # the bar up the page and its label under it

UnitKind = Literal["title", "heading", "text", "note", "figure", "board"]


@dataclass
class Unit:
    """One piece of the flow: a heading, a paragraph, list or note, a figure (or a pair of
    figures sharing a row), or the board pages."""

    kind: UnitKind
    code: str  # Typst source, with its marks
    section: int  # which section (heading) it belongs to
    line: int  # the template line it comes from
    breakable: bool = False  # running text, which may continue on the next page
    beside: str | None = None  # a narrow figure's code at half width, to stand by text
    continues: bool = False  # the "(continued)" part of a long figure: follows it directly


@dataclass
class Sheet:
    """What a setting is made of: the Typst units, the SVG files they draw, the metadata."""

    units: list[Unit]
    images: dict[str, str] = field(default_factory=dict)  # name -> SVG text
    title: str = ""
    preamble: str = ""


# --- Typst source ----------------------------------------------------------------------------


def _string(text: str) -> str:
    """A Typst string literal: in markup ``#"..."`` is text, with no markup inside it; set
    in the current language's typography (French spaces before ; : ! ?)."""
    text = typography(text)
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def inline(text: str) -> str:
    """Sheet markup (``**bold**``, ``*italic*``, `` `code` ``) to Typst markup: typographer's
    quotes, and the last two words tied by a no-break space and never hyphenated, so that
    no line holds one short word, or the end of one, alone.  A code span prints bold: a
    players' sheet shows no commands."""
    text = typography(_smart(for_medium(text, "print")).rstrip())
    # A copyright stays with its year, and the year with the name (the rule below).
    text = re.sub(r"© (?=\d{4})", "©\u00a0", text)
    # A number stays with what it counts ("3 X cells", "10 to 9"): no-break spaces.
    text = re.sub(r"(?<=\d) (?!and |or |et |ou )(?=\w)", "\u00a0", text)
    text = re.sub(r"(?<=\d\u00a0[A-Z]) (?=\w)", "\u00a0", text)
    text = re.sub(r" (\S+)$", "\u00a0\\1", text)
    pieces = spans(text)
    # Split the spans where the tied last words start: they are set unhyphenated.
    tail_at = sum(len(span.text) for span in pieces)
    offset = 0
    for span in pieces:
        if " " in span.text:
            tail_at = offset + span.text.rindex(" ") + 1
        offset += len(span.text)
    head: list[str] = []
    tail: list[str] = []
    offset = 0
    for span in pieces:
        cut = min(max(tail_at - offset, 0), len(span.text))
        for part, into in ((span.text[:cut], head), (span.text[cut:], tail)):
            if part:
                into.append(_span_code(span.style, part))
        offset += len(span.text)
    if tail:
        head.append(f"#text(hyphenate: false)[{''.join(tail)}]")
    return "".join(head)


def _span_code(style: str, text: str) -> str:
    if style == "plain":
        # A piece named by its two holes ("c4-d5") is one name: boxed, so that no line
        # breaks at its hyphen (its text stays as written).
        parts = re.split(r"(\b[a-e]\d+-[a-e]\d+\b)", text)
        return "".join(f"#box({_string(part)})" if k % 2 else f"#{_string(part)}"
                       for k, part in enumerate(parts) if part)
    if style == "italic":
        return f"#emph({_string(text)})"
    return f"#strong({_string(text.replace(' ', chr(0xa0)))})"


def _plain(text: str) -> str:
    return "".join(span.text for span in spans(_smart(for_medium(text, "print"))))


def _colour(hex_colour: str) -> str:
    return f'rgb("{hex_colour}")'


def _preamble(game: str, title: str, paper: Paper, theme: Theme, date: str,
              quick: bool = False) -> str:
    description = game_named(game)
    width, height = paper.size("portrait")
    # The program and its version are in the PDF's metadata (creator), not on the page.
    credit = description.credit
    columns = 2 if two_columns(paper) and not quick else 1
    # One column on a booklet's page: a size up keeps its measure under about 85 characters.
    body_pt = BODY_PT if two_columns(paper) else SINGLE_COLUMN_BODY_PT
    note_fill = theme.cells["empty"].fill if "empty" in theme.cells else theme.paper
    bar_alt = tr("A bar {length} mm long: if it measures {length} mm, the page printed at "
                 "actual size.").format(length=f"{SCALE_BAR_MM:g}")
    length = f"{SCALE_BAR_MM:g}"
    page_word, of_word = _string(tr("page")), _string(tr("of"))
    about = tr("Rules of {game}, {credit}").format(game=description.name,
                                                   credit=description.credit)
    rules_word, game_words = tr("rules"), tr("board game")
    bar_check = _string(tr("If a bar does not measure {length} mm, the printer rescaled the "
                           "page.").format(length=length))
    bar_line = _string(tr("Print at 100 % (actual size): if a bar does not measure "
                          "{length} mm, the printer rescaled the page.").format(length=length))
    lang, region = (language_tag().split("-") + [""])[:2]
    text_language = f'lang: "{lang.lower()}"' + (f', region: "{region.lower()}"' if region
                                                 else "")
    return f"""
#set document(
  title: {_string(title)},
  author: ({_string(description.designer + " (game)")}, "boardgen (sheet)"),
  description: {_string(about)},
  keywords: ({_string(description.name)}, {_string(rules_word)}, {_string(game_words)},
             {_string(f"boardgen {__version__}")}),
  date: {date},
)
#let sheet-footer = context {{
  set text({SMALL_PT}pt, fill: {_colour(theme.muted)})
  set par(justify: false)
  [#{_string(credit)} #h(1fr) #{page_word} #counter(page).display() #{of_word}
   #counter(page).final().first()]
}}
#let bar-alt = {_string(bar_alt)}
#let ink = {_colour(theme.text)}
#let accent = {_colour(theme.accent)}
#let furniture = {_colour(theme.muted)}
#set page(
  width: {width}mm, height: {height}mm,
  margin: (left: {MARGIN_MM}mm, right: {MARGIN_MM}mm, top: {MARGIN_MM}mm,
           bottom: {MARGIN_MM + FOOTER_BAND_MM}mm),
  footer-descent: {FOOTER_BAND_MM - 2.0}mm,
  footer: sheet-footer,
  columns: {columns},
)
#set columns(gutter: {GUTTER_MM}mm)
// Running text in two columns of (nearly) equal height: a quick reference's text above its
// diagram.  Typst fills a column before the next, so the height is measured and halved.
#let balanced(body) = layout(size => {{
  let w = (size.width - {GUTTER_MM}mm) / 2
  let h = measure(block(width: w, body)).height
  block(width: 100%, height: h / 2 + 2.2em, columns(2, gutter: {GUTTER_MM}mm, body))
}})
#set text(font: {_string(FONT_FAMILY)}, size: {body_pt}pt, {text_language},
          fill: ink, hyphenate: true,
          costs: (hyphenation: 15%, runt: 100%, widow: 400%, orphan: 400%))
#set par(justify: true, leading: 0.62em, spacing: 0.62em + 4pt,
         justification-limits: (spacing: (min: {WORD_SPACE_MIN * 100:g}%,
                                           max: {WORD_SPACE_MAX * 100:g}%),
                                 tracking: (min: -0.015em, max: 0.03em)))
#set list(marker: [•], indent: 2pt, body-indent: 7pt, spacing: 0.62em + 3pt)
#set heading(numbering: none)
#show heading: set text(fill: ink, weight: "bold", hyphenate: false)
#show heading: set par(justify: false)
#show heading.where(level: 1): set text({TITLE_PT}pt)
#show heading.where(level: 1): set block(above: 0pt, below: 6pt)
#show heading.where(level: 2): set text({HEADING_PT}pt)
#show heading.where(level: 2): set block(above: 11pt, below: 5pt)
#show heading.where(level: 3): set text({body_pt}pt)
#show heading.where(level: 3): set block(above: 0pt, below: 5pt)
// A figure's title: at the body's size, set off by a rule above it, weight and space.
#let figure-rule = block(above: 0pt, below: 3pt, line(length: 100%, stroke: 0.5pt + furniture))
#show figure: set block(above: 0pt, below: 0pt)
#set figure(gap: 0pt, numbering: none, outlined: false)
#let mark(id) = block(height: 0pt, width: 0pt, above: 0pt, below: 0pt,
  [#metadata(id)<{MARK_LABEL}>])
#let tick(id) = box[#metadata(id)<{MARK_LABEL}>]
#let svg(name, width) = image(bytes(sys.inputs.at(name)), format: "svg", width: width * 1mm)
#let note(body) = block(width: 100%, breakable: false, inset: (x: 8pt, top: 5pt, bottom: 6pt),
  stroke: 0.6pt + accent, fill: {_colour(note_fill)}, above: 7pt, below: 9pt,
  text({SMALL_PT}pt, body))
#let line-title(body) = block(above: 4pt, below: 3pt, sticky: true,
  text({SMALL_PT}pt, style: "italic", body))
// A caption: short, ragged right, never hyphenated, set from its panel's left edge.
#let caption(width, body) = align(center, block(
  width: if width == none {{ 100% }} else {{ width * 1mm }},
  align(left, text({CAPTION_PT}pt, fill: furniture, hyphenate: false,
    par(justify: false, leading: 0.45em, body)))))
#let panels(n, ..cells) = block(breakable: false, above: 3pt, below: 6pt, grid(
  columns: (1fr,) * n, column-gutter: {PANEL_GAP_MM}mm, row-gutter: 1.5mm,
  align: center + top, ..cells))
#let diagram(level: 3, title: none, alt: "", body) = block(width: 100%, breakable: false, {{
  figure-rule
  // One size for every figure title, whatever its level in the outline (a quick
  // reference's figures are level 2, a sheet's level 3): the body size, bold, over a rule.
  if level != none {{ block(above: 0pt, below: 5pt, heading(level: level,
    text({body_pt}pt, title))) }} else {{
    block(above: 0pt, below: 5pt, text({body_pt}pt, weight: "bold", title)) }}
  figure(alt: alt, kind: "diagram", supplement: none, align(left, body))
}})
// The 50 mm bar itself, its ends' ticks longer: one drawing for every bar across.
#let ruler = {{
  place(top + left, dy: 3.5mm, line(length: {SCALE_BAR_MM:g}mm, stroke: 0.3mm + ink))
  for k in {_ticks()} {{
    let long = k == 0 or k == {SCALE_BAR_MM:g}
    place(top + left, dx: k * 1mm, dy: if long {{ 1mm }} else {{ 2mm }},
          line(angle: 90deg, length: if long {{ 2.5mm }} else {{ 1.5mm }},
               stroke: 0.3mm + ink))
  }}
}}
#let scalebar = block(breakable: false, above: 6pt, below: 6pt, {{
  figure(alt: bar-alt,
    kind: "scalebar", supplement: none,
    box(width: {SCALE_BAR_MM + 20:g}mm, height: 4.5mm, {{
      ruler
      place(top + left, dx: {SCALE_BAR_MM + 2:g}mm, dy: 1.2mm,
            text({SMALL_PT}pt, weight: "bold")[{SCALE_BAR_MM:g} mm])
    }}))
  block(above: 3pt, below: 0pt, text({SMALL_PT}pt, {bar_check}))
}})
// The bar across a board page's foot as the board files print it: the bar, its label and
// what it checks, on one line.
// (What it checks wraps beside the bar on narrow paper rather than running off the page.)
#let scalebar-line = block(width: 100%, align(left, grid(
    columns: ({SCALE_BAR_MM + 14:g}mm, 1fr), box(height: 4.5mm, {{
  ruler
  place(top + left, dx: {SCALE_BAR_MM + 2:g}mm, dy: 1.2mm,
        text({SMALL_PT}pt, weight: "bold")[{SCALE_BAR_MM:g} mm])
}}), block(inset: (top: 1.2mm), text({SMALL_PT}pt, par(justify: false, {bar_line}))))))
// The bar up the page, from its top end down, ticks to its right, its label turned along
// it under its lower end: printers that scale only in the paper-feed direction show here.
#let vbar = box(width: {BAR_BAND_MM - 1:g}mm, height: {VBAR_MM:g}mm, {{
  place(top + left, line(angle: 90deg, length: {SCALE_BAR_MM:g}mm, stroke: 0.3mm + ink))
  for k in {_ticks()} {{
    let long = k == 0 or k == {SCALE_BAR_MM:g}
    place(top + left, dy: k * 1mm, line(length: if long {{ 2.5mm }} else {{ 1.5mm }},
                                        stroke: 0.3mm + ink))
  }}
  place(top + left, dx: -0.2mm, dy: {SCALE_BAR_MM + 2:g}mm,
        rotate(-90deg, origin: top + left, reflow: true,
               text({SMALL_PT}pt, weight: "bold")[{SCALE_BAR_MM:g} mm]))
}})
"""


def _ticks() -> str:
    """Where the scale bar's ticks stand (mm): every 10 mm, and at both ends."""
    ticks = sorted({*range(0, int(SCALE_BAR_MM) + 1, 10), SCALE_BAR_MM})
    return "(" + ", ".join(f"{t:g}" for t in ticks) + ",)"


def typesetter_used() -> bool:
    """Whether this process has used Typst (every use passes through _fonts first): a
    process forked after that hangs on its first compile (Typst keeps a pool of threads)."""
    return _fonts.cache_info().currsize > 0


@functools.cache
def _fonts() -> typst.Fonts:
    """Only the bundled Source Sans Pro: no system font, and not Typst's own fonts."""
    import typst

    return typst.Fonts(include_system_fonts=False, include_embedded_fonts=False,
                       font_paths=[font_folder()])


def _date() -> tuple[str, int | None]:
    """The document date: SOURCE_DATE_EPOCH when set (reproducible builds), otherwise none
    at all; never the clock."""
    seconds = source_date_epoch()  # BoardgenError, one line, if malformed
    return ("none", None) if seconds is None else ("auto", seconds)


# --- the sheet's units ------------------------------------------------------------------------


class _Ids:
    """Names for marks and images, unique in a document (``base`` tells apart the parts of
    a kit set as one document)."""

    def __init__(self, base: str = "") -> None:
        self.count = 0
        self.base = base

    def next(self, prefix: str = "u") -> str:
        self.count += 1
        return f"{prefix}{self.base}{self.count}"


def _legend_width(legend: Figure) -> Figure:
    """A key's swatch with its width measured: it is laid out from the left with no width
    of its own."""
    right = max([text_box(t)[2] for t in legend.texts] +
                [c.x + legend.cell_width / 2 for c in legend.cells] +
                [x + s.width for s in legend.strokes for x, _ in s.points] + [1.0])
    return replace(legend, width=right + 0.5)


def _svg(sheet: Sheet, ids: _Ids, figure: Figure, theme: Theme) -> str:
    """Register the figure's SVG (texts kept as text) under a new name; the name."""
    name = ids.next("svg")
    sheet.images[name] = render_svg(curled(figure), theme=theme, text_as="text")
    return name


CAPTION_PT = 8.5  # under each panel; 8.5 pt is 3.0 mm, above the 2.9 mm printed minimum
LEGEND_PT = 8.5
CAPTION_MAX_LINES = 3  # a caption says what the picture shows; reasoning goes in the text
CAPTION_MIN_MM = 85.0  # the widest a caption may be under a narrow panel (about 55 characters)
PANEL_GAP_MM = 3.5  # between panels in a row, at least
MM_PER_PT = 25.4 / 72
# A one-row diagram whose panels take no more than this share of the column has its key,
# line title and lone caption beside the panels (the room is otherwise left blank).
ASIDE_SHARE = 0.55
ASIDE_GAP_MM = 6.0  # between the panels and the words beside them
ASIDE_TOP_MM = 12.0  # a folded page's figure and the part beside it: this far under the header
ASIDE_SLOT_MM = 45.0  # the least room for each panel's caption in such a row


@dataclass(frozen=True)
class Panel:
    figure: Figure  # the board or lattice, without its caption
    caption: str


def _panels(diagram: Diagram, cell: float) -> list[tuple[str | None, list[Panel]]]:
    """Each line of play's panels, drawn without their captions: the captions are set as
    text by Typst under each panel, as wide as the panel's slot in the row."""
    out = []
    for line_title, scenes in diagram.rows:
        panels = []
        for scene in scenes:
            bare = uncaptioned(scene)  # the same object each time: built once
            figure = lattice_figure(bare, cell) if isinstance(bare, PointScene) \
                else board_figure(bare, cell)
            panels.append(Panel(figure, scene.caption or ""))
        out.append((line_title, panels))
    return out


def _columns(panels: list[tuple[str | None, list[Panel]]], width: float) -> int:
    """As many panels to a row as fit, then rows balanced: 13 glyphs in rows of at most 6
    go 5, 5, 3 rather than 6, 6, 1."""
    widest = max(p.figure.width for _, row in panels for p in row)
    fit = max(1, math.floor((width + PANEL_GAP_MM) / (widest + PANEL_GAP_MM)))
    longest = max(len(row) for _, row in panels)
    rows = math.ceil(longest / fit)
    return math.ceil(longest / rows)


def _caption_lines(caption: str, slot: float) -> int:
    from boardgen.render.figure import wrap

    return len(wrap(caption, CAPTION_PT * MM_PER_PT, slot)) if caption else 0


def _legend_code(sheet: Sheet, ids: _Ids, diagram: Diagram, cell: float, theme: Theme,
                 width: float) -> tuple[str, float] | None:
    """The key as Typst: each swatch (drawn as on the panels) with its label, and the note
    beside them when they leave room for it, else under them; and its height in mm."""
    if not (diagram.legend or diagram.legend_note):
        return None
    items = []
    swatches_mm = 0.0
    tallest = 0.0
    for role in diagram.legend:
        label = role.legend_words()
        swatch = legend_figure(replace(diagram, legend=(role,), legend_note=None),
                               cell_width=cell, max_width=width)
        if swatch is None:
            continue
        bare = _legend_width(replace(swatch, texts=[]))
        tallest = max(tallest, bare.height)
        name = _svg(sheet, ids, bare, theme)
        # A swatch and its label in one box: never parted at a line's end.
        items.append(f'box(box(baseline: 50% - 0.35em, svg("{name}", {bare.width:.3f})) + '
                     f'h(1mm) + {_content(label)})')
        swatches_mm += bare.width + 1.0 + len(label) * 0.45 * LEGEND_PT * MM_PER_PT + 4.0
    keys = " + h(4mm) + ".join(items) if items else "[]"
    note = _content(diagram.legend_note) if diagram.legend_note else None
    if note is None:
        return f"text({LEGEND_PT}pt, {keys})", tallest
    if items and swatches_mm <= 0.55 * width:
        return (f"grid(columns: (auto, 1fr), column-gutter: 5mm, align: horizon, "
                f"text({LEGEND_PT}pt, {keys}), "
                f"text({LEGEND_PT}pt, par(justify: false, {note})))"), tallest + 1
    return (f"stack(spacing: 2pt, text({LEGEND_PT}pt, {keys}), "
            f"text({LEGEND_PT}pt, par(justify: false, {note})))"), tallest + 8.0


def _content(text: str) -> str:
    """Markup as a Typst content block, for use as an argument."""
    return f"[{inline(text)}]"


def _diagram_height(legend_mm: float, rows: list[tuple[str | None, list[Panel]]],
                    slot: float) -> list[float]:
    """An estimate of each row's height in mm (panel, caption lines, line title)."""
    heights = []
    for line_title, row in rows:
        lines = max(_caption_lines(p.caption, slot) for p in row)
        heights.append(max(p.figure.height for p in row) + lines * 3.6 + 3.0 +
                       (5.0 if line_title else 0.0))
    return heights


def _diagram_code(sheet: Sheet, ids: _Ids, diagram: Diagram, theme: Theme, width: float,
                  column_height: float, level: int, key: Diagram | None = None,
                  enlarge: float = 1.0) -> list[str]:
    """One diagram as Typst calls: its title as a heading, then one figure (with the text
    alternative) holding the key and the rows of panels, each panel's caption set under
    it; more than one figure if the diagram is longer than a column, each later one titled
    "(continued)"."""
    cell = sheet_cell_mm(diagram) * enlarge
    lines = _panels(diagram, cell)
    columns = _columns(lines, width)
    slot = (width - (columns - 1) * PANEL_GAP_MM) / columns
    rows: list[tuple[str | None, list[Panel]]] = []
    for line_title, panels in lines:
        for start in range(0, len(panels), columns):
            rows.append((line_title if start == 0 else None, panels[start:start + columns]))
    aside = _aside(rows, width)
    if aside is not None:
        return [_aside_code(sheet, ids, diagram, theme, width, level, rows[0], aside,
                            key or diagram)]
    legend = _legend_code(sheet, ids, key or diagram, sheet_cell_mm(diagram), theme, width)
    heights = _diagram_height(legend[1] if legend else 0.0, rows, slot)
    parts: list[list[int]] = [[]]
    used = 10.0 + (legend[1] + 3.0 if legend else 0.0)
    for k, height in enumerate(heights):
        if parts[-1] and used + height > column_height:
            parts.append([])
            used = 10.0
        parts[-1].append(k)
        used += height
    out = []
    for number, part in enumerate(parts):
        body = []
        if number == 0 and legend is not None:
            body += [legend[0], "v(4pt)"]
        for k in part:
            line_title, row = rows[k]
            if line_title:
                body.append(f"line-title({_content(line_title)})")
            cells = [f'svg("{_svg(sheet, ids, p.figure, theme)}", {p.figure.width:.3f})'
                     for p in row]
            # A caption no wider than its slot, nor much wider than its panel: a lone
            # panel's caption does not run the width of the page.
            captions = [f"caption({min(slot, max(p.figure.width + 10.0, CAPTION_MIN_MM)):.1f}"
                        f", {_content(p.caption)})" for p in row]
            blank = ["[]"] * (columns - len(row))
            body.append(f"panels({columns}, {', '.join(cells + blank + captions + blank)})")
        if number == 0:
            title = _content(diagram.title)
            alt = describe(diagram)
            if len(parts) > 1:
                alt += " " + tr("The figure continues on the next page.")
            out.append(f"diagram(level: {level}, title: {title}, alt: {_string(_smart(alt))},"
                       f" {{ {'; '.join(body)} }})")
        else:
            continued = tr(" (continued)")
            title = f"[{inline(diagram.title)}#{_string(continued)}]"
            alt = tr("{title} (continued): more panels of the figure that starts on the "
                     "previous page, described there.").format(title=_plain(diagram.title))
            out.append(f"diagram(level: none, title: {title}, alt: {_string(_smart(alt))}, "
                       f"{{ {'; '.join(body)} }})")
    return out


def _aside(rows: list[tuple[str | None, list[Panel]]], width: float) -> float | None:
    """The width of the panels when a diagram of one row of narrow panels has its key, its
    line's title and (a lone panel) its caption set beside them, in the room the panels
    leave, rather than above and below them; None if the panels are too wide for that."""
    if len(rows) != 1:
        return None
    row = rows[0][1]
    slot = row[0].figure.width if len(row) == 1 else \
        max(max(p.figure.width for p in row), ASIDE_SLOT_MM)
    panels = len(row) * slot + (len(row) - 1) * PANEL_GAP_MM
    if panels > ASIDE_SHARE * width:
        return None
    # A lone panel's caption goes beside it, the others' under them: either way no longer
    # than a caption may be, or the words go under the panels.
    room = width - panels - ASIDE_GAP_MM if len(row) == 1 else slot
    if any(_caption_lines(p.caption, room) > CAPTION_MAX_LINES for p in row):
        return None
    return panels


def _aside_code(sheet: Sheet, ids: _Ids, diagram: Diagram, theme: Theme, width: float,
                level: int, row: tuple[str | None, list[Panel]], panels_mm: float,
                key: Diagram) -> str:
    """A one-row diagram with its words beside the panels (see :func:`_aside`)."""
    line_title, panels = row
    room = width - panels_mm - ASIDE_GAP_MM
    cells = [f'svg("{_svg(sheet, ids, p.figure, theme)}", {p.figure.width:.3f})'
             for p in panels]
    words = []
    legend = _legend_code(sheet, ids, key, sheet_cell_mm(diagram), theme, room)
    if legend is not None:
        words.append(legend[0])
    if line_title:
        words.append(f"line-title({_content(line_title)})")
    if len(panels) == 1:
        left = f"align(center, {cells[0]})"
        if panels[0].caption:
            words.append(f"caption(none, {_content(panels[0].caption)})")
    else:
        captions = [f"caption(none, {_content(p.caption)})" for p in panels]
        left = f"panels({len(panels)}, {', '.join(cells + captions)})"
    right = f"stack(spacing: 6pt, {', '.join(words)})" if words else "[]"
    body = (f"grid(columns: ({panels_mm:.2f}mm, 1fr), column-gutter: {ASIDE_GAP_MM}mm, "
            f"align: top + left, {left}, block(above: 3pt, {right}))")
    return (f"diagram(level: {level}, title: {_content(diagram.title)}, "
            f"alt: {_string(_smart(describe(diagram)))}, {{ {body} }})")


def _one_row(diagram: Diagram, half: float) -> bool:
    """True if the diagram is one row of panels within half a column: two such figures in
    a row share it."""
    cell = sheet_cell_mm(diagram)
    lines = _panels(diagram, cell)
    columns = _columns(lines, half)
    if not (len(lines) == 1 and lines[0][0] is None and len(lines[0][1]) <= columns):
        return False
    # Not when half a column would set a caption on more lines than a caption may take.
    slot = (half - (columns - 1) * PANEL_GAP_MM) / columns
    return all(_caption_lines(p.caption, min(slot, max(p.figure.width + 10.0, CAPTION_MIN_MM)))
               <= CAPTION_MAX_LINES for p in lines[0][1])


def _board_code(sheet: Sheet, ids: _Ids, game: str, theme: Theme, column: tuple[float, float],
                paper: Paper) -> str:
    """The board at exact scale, on a page of its own with a bar across and a bar up; the
    page says in words which pieces fit.  A fixed board (a lattice) and its pieces are the
    board file's own pages, landscape, at the one spacing every printed copy has."""
    description = game_named(game)
    fixed = description.fixed_board
    if fixed is not None:
        figures = board_pages(fixed, paper, None)
        aside = None
        if description.kit.tracker is not None and fixed.strips is not None:
            # The capture tracker folded onto the pieces' page, as the kit folds it.
            from boardgen.publish.tracker import piece_size, tracker_figure, tracker_intro

            tracker = tracker_figure(description.kit.tracker, piece_size(description))
            room = content_size(paper.size("landscape"))[0] - tracker.width - \
                2 * ASIDE_GAP_MM
            pieces = pieces_sheet(fixed.strips, figures[0].cell_width, room)
            if pieces.width <= room and len(figures) > 1:
                figures[-1] = pieces
                aside = (tracker, tr("Capture tracker") + "\n" + tr(
                    "A capture tracker: a column of {boxes} boxes for each player, each box "
                    "{length} mm long, longer than a piece.").format(
                        boxes=description.kit.tracker.boxes,
                        length=f"{tracker.cell_width:.0f}") + " " +
                    tracker_intro(description.kit.tracker))
        return _fixed_board_code(sheet, ids, description.name, figures, theme, paper,
                                 aside=aside)
    # The bar up the page stands in the board's empty top-left corner (a hexagonal board
    # leaves one) when the board at its largest leaves it free, else in a band beside it,
    # else under the board: whichever prints larger cells, never a bar stranded below.
    height = column[1] - 34.0
    (corner,) = sheet_board(game, (column[0], height))
    (beside,) = sheet_board(game, (column[0] - 2 * BAR_BAND_MM, height))
    (under,) = sheet_board(game, (column[0], height - VBAR_MM - 3.0))
    if corner_is_free(corner, (column[0] - corner.width) / 2):
        return _board_page(sheet, ids, description.name, corner, theme, "corner",
                           height - corner.height)
    board = under if under.cell_width >= beside.cell_width else beside
    if max(corner.cell_width if corner_is_free(corner, (column[0] - corner.width) / 2)
           else 0.0, board.cell_width) + 1e-9 < min(size for _, size in COMMON_PIECES) + 1.0:
        return _board_elsewhere(board.cell_width)
    return _board_page(sheet, ids, description.name, board, theme,
                       "under" if board is under else "beside",
                       height - board.height - (VBAR_MM + 3.0 if board is under else 0.0))


def _board_elsewhere(cell_width: float) -> str:
    """Where the page is too small for a board anyone can play on (no common piece fits
    its cells, as on an A5 booklet): a word to print the board on larger paper instead."""
    said = tr("On paper this size the board's cells would be {width} mm across, too small "
              "for any common piece. Print the board on its own on A4 or Letter paper, or "
              "larger, at 100\u00a0% (actual size).").format(width=decimal(cell_width))
    return "\n".join([board_elsewhere(), f"#par({_content(said)})"])


def board_elsewhere() -> str:
    """The heading of a sheet's board section where no board prints (current language)."""
    heading = tr("The board")
    return f"#heading(level: 2, {_string(heading)})"


def corner_is_free(figure: Figure, offset: float) -> bool:
    """Whether nothing of ``figure``, set ``offset`` mm from the column's left edge, lies in
    the band the bar up the page takes at the top left (BAR_BAND_MM wide, VBAR_MM tall)."""
    reach = VBAR_MM + 2.0
    lefts = [offset + c.x - figure.cell_width / 2 for c in figure.cells
             if c.y - figure.cell_width < reach]
    lefts += [offset + text_box(t)[0] for t in figure.texts if text_box(t)[1] < reach]
    return bool(figure.cells) and min(lefts, default=offset) >= BAR_BAND_MM


OTHER_CELLS_MIN_MM = 30.0  # room left under a board for the table of other cell sizes


def _other_cells(board: Figure) -> str:
    """A table for the room under a board: each common piece, the cells it needs, and how
    large the whole board prints with them (this page's board where it fits already)."""
    rows = []
    other_pieces = tr("Cells for other pieces")
    for piece, size in COMMON_PIECES:
        cell = size + 1.0  # a round piece fits with 1 mm to spare
        scale = cell / board.cell_width
        prints = tr("this page\u2019s board") if cell <= board.cell_width + 1e-9 else \
            f"{board.width * scale:.0f}\u00a0\u00d7\u00a0{board.height * scale:.0f}\u00a0mm"
        named = tr(piece)
        rows += [_content(named[:1].upper() + named[1:]),
                 _content(decimal_commas(f"{cell:g}\u00a0mm")),
                 _content(prints)]
    head = [f"text(weight: \"bold\", {_content(h)})"
            for h in (tr("Pieces"), tr("Cells at least"), tr("The whole board"))]
    return (f"block(above: 10mm, breakable: false, text({BODY_PT}pt, {{ "
            f"block(below: 3pt, text(weight: \"bold\", {_content(other_pieces)}))"
            f"; table(columns: 3, stroke: none, inset: (x: 0pt, right: 12mm, y: 4pt), "
            f"align: left, table.hline(stroke: 0.4pt), {', '.join(head)}, "
            f"table.hline(stroke: 0.4pt), {', '.join(rows)}, table.hline(stroke: 0.4pt)) }}))")


def _board_page(sheet: Sheet, ids: _Ids, name: str, board: Figure, theme: Theme,
                bar: Literal["corner", "beside", "under"], spare: float = 0.0) -> str:
    said = tr("Each cell is {width} mm flat to flat.").format(
        width=decimal(board.cell_width)) + f" {pieces_in_words(board.cell_width)}"
    alt = tr("The {game} board at actual size.").format(game=name) + f" {said}"
    heading = tr("A board to print at 100 % (actual size)")
    image = f'svg("{_svg(sheet, ids, board, theme)}", {board.width:.3f})'
    figure = f'align(center, figure(alt: {_string(alt)}, kind: "board", supplement: none, ' \
        f"{image}))"
    out = ["pagebreak(weak: true)",
           f"heading(level: 2, {_string(heading)})",
           f"par({_content(said)})",
           "scalebar",
           f"block(width: 100%, breakable: false, {{ {figure}; v(3mm); vbar }})"
           if bar == "under" else
           f"block(width: 100%, breakable: false, {{ {figure}; place(top + left, vbar) }})"]
    if spare >= OTHER_CELLS_MIN_MM:  # the room under the board put to use
        out.append(_other_cells(board))
    return "\n".join(f"#{line}" for line in out)


def _fixed_board_code(sheet: Sheet, ids: _Ids, name: str, figures: list[Figure],
                      theme: Theme, paper: Paper, title: str | None = None,
                      level: int = 2, aside: tuple[Figure, str] | None = None) -> str:
    """Each figure on a landscape page laid out as the board file lays it out: a title in
    the header, the figure centred in the room between header and footer, the bar across
    the foot with what it checks and the figure's unit, the bar up the left margin, and
    the sheet's own footer."""
    page = paper.size("landscape")
    room_w, room_h = content_size(page)
    bar_top = BOARD_MARGIN_MM + HEADER_MM + room_h  # where the footer band starts (y down)
    def at(x: float, y: float, what: str) -> str:
        """``what`` placed at (x, y) mm from the page's top-left corner: from the sheet's
        own margins, which the flipped page keeps (and its footer, an artifact, as on every
        page)."""
        return f"place(top + left, dx: {x - MARGIN_MM:.3f}mm, dy: {y - MARGIN_MM:.3f}mm, " \
            f"{what})"

    out = []
    for number, figure in enumerate(figures):
        unit = figure.scale_note[:1].upper() + figure.scale_note[1:] + "." \
            if figure.scale_note else ""
        alt = (tr("The {game} board at actual size.").format(game=name) if number == 0 else
               tr("Pieces to cut out, at actual size.")) + " " + unit
        beside = aside if number == len(figures) - 1 and number > 0 else None
        total = figure.width + (ASIDE_GAP_MM * 2 + beside[0].width if beside else 0.0)
        left = content_left() + (room_w - total) / 2
        # Centred in the room; with a part beside it, both from the top, under the heading
        # (the pieces' instructions are not stranded half-way down the page).
        top = BOARD_MARGIN_MM + HEADER_MM + ((room_h - figure.height) / 2 if beside is None
                                             else ASIDE_TOP_MM)
        bar_y = page[1] - BOARD_MARGIN_MM - 9.5  # as on the board file (from the top)
        image = f'svg("{_svg(sheet, ids, figure, theme)}", {figure.width:.3f})'
        if number == 0 and title is not None:
            heading_text = title
        else:
            heading_text = tr("A board to print at 100 % (actual size)") if number == 0 else \
                tr("Pieces to print at 100 % (actual size)")
        heading = f'heading(level: {level}, outlined: {"true" if number == 0 else "false"}, ' \
            f'bookmarked: {"true" if number == 0 else "false"}, {_string(heading_text)})'
        width = page[0] - 2 * BOARD_MARGIN_MM
        body = [
            at(BOARD_MARGIN_MM, BOARD_MARGIN_MM, f"block(width: {width:.3f}mm, {heading})"),
            at(left, top, f"figure(alt: {_string(alt)}, kind: \"board\", supplement: none, "
                          f"{image})"),
            at(BOARD_MARGIN_MM, bar_y - 3.5,
               f"block(width: {width:.3f}mm, figure(alt: bar-alt, kind: \"scalebar\", "
               "supplement: none, scalebar-line))"),
            at(BOARD_MARGIN_MM, bar_y + 2.5,
               f"text({SMALL_PT}pt, fill: furniture, {_string(unit)})"),
            # Up the left margin, its label's end just above the footer band.
            at(VERTICAL_BAR_X_MM, bar_top - VBAR_MM, "vbar"),
        ]
        if beside is not None:
            # A small part folded onto this page, beside the figure, under its own heading.
            extra, (extra_title, extra_alt) = beside[0], beside[1].split("\n", 1)
            x = left + figure.width + 2 * ASIDE_GAP_MM
            y = BOARD_MARGIN_MM + HEADER_MM + ASIDE_TOP_MM - 9.0
            body.append(at(x, y, f"block(width: {extra.width:.3f}mm, {{ heading(level: "
                                 f"{level}, {_string(extra_title)}); figure(alt: "
                                 f"{_string(extra_alt)}, kind: \"board\", supplement: none, "
                                 f'svg("{_svg(sheet, ids, extra, theme)}", '
                                 f"{extra.width:.3f})) }})"))
        out.append(f"#page(flipped: true, {{ {'; '.join(body)} }})")
    return "\n".join(out)


def two_columns(paper: Paper) -> bool:
    """Whether a sheet on this paper is set in two columns (A4, Letter) or one (A5)."""
    return paper.size("portrait")[0] >= TWO_COLUMNS_MIN_MM


def _column_width(column: tuple[float, float], paper: Paper) -> float:
    return (column[0] - GUTTER_MM) / 2 if two_columns(paper) else column[0]


def _fits_column(diagram: Diagram, width: float, height: float) -> bool:
    """Whether a diagram's panels fit one column, one to a row at least, and the whole
    stays well under the column's height (else it spans both columns)."""
    lines = _panels(diagram, sheet_cell_mm(diagram))
    widest = max(p.figure.width for _, row in lines for p in row)
    if widest > width:
        return False
    columns = _columns(lines, width)
    slot = (width - (columns - 1) * PANEL_GAP_MM) / columns
    rows = [(title if start == 0 else None, row[start:start + columns])
            for title, row in lines for start in range(0, len(row), columns)]
    return sum(_diagram_height(0.0, rows, slot)) + 20.0 <= 0.62 * height


def _new_key(diagram: Diagram, seen: set[str]) -> Diagram:
    """The diagram as its key shows it: only the marks no earlier figure of the sheet has
    keyed (one key per sheet for each kind of mark), and its note only the first time."""
    roles = tuple(role for role in diagram.legend if role.legend not in seen)
    seen.update(role.legend for role in roles)
    # A note says one thing a sentence ("Circled: the pivot. Double circles: the apexes."):
    # each sentence is given once.
    sentences = re.split(r"(?<=\.) (?=[A-Z])", diagram.legend_note or "")
    new = [sentence for sentence in sentences if sentence and sentence not in seen]
    seen.update(new)
    return replace(diagram, legend=roles, legend_note=" ".join(new) or None)


def build_units(game: str, blocks: list[Block], theme: Theme, column: tuple[float, float],
                quick: bool, paper: Paper, quick_cell: float = 1.0, base: str = "") -> Sheet:
    """The sheet's units; ``quick_cell`` enlarges a quick reference's diagram cells, so
    that its diagram takes the room its text leaves."""
    sheet = Sheet([])
    ids = _Ids(base)
    section = 0
    figure_level = 2 if quick or not any(b.kind == "heading" for b in blocks) else 3
    paired = not two_columns(paper)  # two narrow figures share a row of a single column
    width = _column_width(column, paper)
    half = (width - PAIR_GAP_MM) / 2
    pending: tuple[Diagram, Diagram, Block] | None = None  # a narrow figure, its key, its block
    seen: set[str] = set()  # the key texts already given on this sheet
    header: list[str] = []  # the title and what stands under it, across both columns
    quick_text: list[str] = []  # a quick reference's text, set in two balanced columns

    def _quick_text_done() -> None:
        if quick_text:
            sheet.units.append(Unit("text", "#balanced[\n" + "\n\n".join(quick_text) +
                                    "\n]", section, 1))
            quick_text.clear()

    def flush() -> None:
        nonlocal pending
        if pending is not None:
            diagram, key, block = pending
            pending = None
            _figure_unit(diagram, key, block, width)

    def _figure_unit(diagram: Diagram, key: Diagram, block: Block, width: float,
                     cell: float = 1.0) -> None:
        beside = _diagram_code(sheet, ids, diagram, theme, half, column[1], figure_level,
                               key) if paired and _one_row(diagram, half) else None
        for number, code in enumerate(_diagram_code(sheet, ids, diagram, theme, width,
                                                    column[1], figure_level, key, cell)):
            uid = ids.next()
            sheet.units.append(Unit("figure", f'#block(width: 100%, breakable: false, '
                                    f'above: 8pt, below: 10pt, {{ mark("{uid}s"); {code}; '
                                    f'mark("{uid}e") }})', section, block.line,
                                    beside=beside[0] if beside and len(beside) == 1
                                    else None, continues=number > 0))

    def _spanning_unit(diagram: Diagram, key: Diagram, block: Block, where: str) -> None:
        """A figure across both columns, at the top or foot of its page."""
        for number, code in enumerate(_diagram_code(sheet, ids, diagram, theme, column[0],
                                                    column[1], figure_level, key)):
            uid = ids.next()
            sheet.units.append(Unit(
                "figure", f'#place({where}, float: true, scope: "parent", clearance: 12pt, '
                f'align(left, block(width: 100%, breakable: false, {{ mark("{uid}s"); '
                f'{code}; mark("{uid}e") }})))', section, block.line, continues=number > 0))

    def _header_done() -> None:
        if header:
            sheet.units.append(Unit("title", '#place(top, float: true, scope: "parent", '
                                    'clearance: 10pt, block(width: 100%, {' +
                                    "; ".join(header) + "}))", 0, 1))
            header.clear()

    for block in blocks:
        if block.kind != "diagram":
            flush()
        # Under the title across both columns: its one-line subtitle (a full sheet's).
        in_header = len(header) == 1 and block.kind == "para" and not quick
        if block.kind == "title":
            sheet.title = _plain(block.text)
            code = f"heading(level: 1)[{inline(block.text)}]"
            if paired:
                sheet.units.append(Unit("title", f"#{code}", section, block.line))
            else:
                header.append(code)
            continue
        if in_header:
            header.append(f"par(justify: false)[{inline(block.text)}]")
            continue
        _header_done()
        if block.kind == "heading":
            section += 1
            sheet.units.append(Unit("heading", f"#heading(level: 2)[{inline(block.text)}]",
                                    section, block.line))
        elif block.kind in ("para", "bullets", "note"):
            uid = ids.next()
            start, end = f'#tick("{uid}s")', f'#tick("{uid}e")'
            if block.kind == "para":
                code = f"{start}{inline(block.text)}{end}"
                kind: UnitKind = "text"
            elif block.kind == "note":
                code = f"#note[{start}{inline(block.text)}{end}]"
                kind = "note"
            else:
                items = [inline(item) for item in block.items]
                items[0] = start + items[0]
                items[-1] = items[-1] + end
                code = "#list(" + ", ".join(f"[{item}]" for item in items) + ")"
                kind = "text"
            if quick and not paired:
                quick_text.append(code)
            else:
                sheet.units.append(Unit(kind, code, section, block.line,
                                        breakable=kind == "text"))
        elif block.kind == "diagram":
            _quick_text_done()
            diagram = _sheet_diagram(game, block.args[1], quick)
            key = _new_key(diagram, seen)
            if not paired:
                if quick:
                    # At the page's foot, its cells as large as the room allows.
                    sheet.units.append(Unit("note", "#v(1fr)", section, block.line))
                    _figure_unit(diagram, key, block, column[0], quick_cell)
                elif _fits_column(diagram, width, column[1]):
                    _figure_unit(diagram, key, block, width)
                else:
                    _spanning_unit(diagram, key, block, "auto")
            elif _one_row(diagram, half):
                if pending is not None:
                    first = pending
                    pending = None
                    uid = ids.next()
                    codes = [_diagram_code(sheet, ids, first[0], theme, half, column[1],
                                           figure_level, first[1])[0],
                             _diagram_code(sheet, ids, diagram, theme, half, column[1],
                                           figure_level, key)[0]]
                    sheet.units.append(Unit(
                        "figure", f'#block(width: 100%, breakable: false, above: 8pt, '
                        f'below: 10pt, {{ mark("{uid}s"); grid(columns: (1fr, 1fr), '
                        f'column-gutter: {PAIR_GAP_MM}mm, {codes[0]}, {codes[1]}); '
                        f'mark("{uid}e") }})', section, first[2].line))
                else:
                    pending = (diagram, key, block)
            else:
                flush()
                _figure_unit(diagram, key, block, width)
        elif block.kind == "board":
            code = _board_code(sheet, ids, game, theme, column, paper)
            if code.startswith(board_elsewhere()):  # a word in the text, not a page
                sheet.units.append(Unit("text", code, section, block.line))
            else:
                sheet.units.append(Unit("board", "#set page(columns: 1)\n" + code, section,
                                        block.line))
    flush()
    _header_done()
    _quick_text_done()
    return sheet


# --- setting, measuring, correcting -------------------------------------------------------


def _source(sheet: Sheet, order: list[int]) -> tuple[str, list[tuple[int, int]]]:
    """The Typst source of the units in ``order``, and each unit's first source line."""
    lines = sheet.preamble.count("\n") + 1
    text = [sheet.preamble]
    starts = []
    for index in order:
        code = sheet.units[index].code
        starts.append((lines, index))
        text.append(code + "\n")
        lines += code.count("\n") + 2
    return "\n".join(text), starts


@dataclass(frozen=True)
class Placed:
    page: int
    y_mm: float


# The last few sources measured, for the process: their marks, and the Typst compiler that
# laid each out until it is used to compile.  The setting measured last is the one compiled,
# and a compiler that has laid a source out compiles it in about half the time, with the same
# bytes.  (Typst's compiler evaluates once: asked again, it looks for its source as a file;
# it compiles any number of times.)
_MEASURED: dict[tuple[str, tuple[tuple[str, str], ...]], tuple[typst.Compiler | None, str]] = {}
_MEASURED_KEPT = 3
_MEASURED_LOCK = threading.Lock()  # a compiler is handed over to one caller only


def _key(source: str, images: dict[str, str]) -> tuple[str, tuple[tuple[str, str], ...]]:
    return source, tuple(sorted(images.items()))


def _new_compiler(source: str, images: dict[str, str]) -> typst.Compiler:
    import typst

    return typst.Compiler(source.encode("utf-8"), font_paths=_fonts(),
                          ignore_system_fonts=True, sys_inputs=images)


def _marks_of(source: str, images: dict[str, str]) -> str:
    """The marks' query of ``source`` (JSON), evaluated once."""
    key = _key(source, images)
    with _MEASURED_LOCK:
        found = _MEASURED.pop(key, None)
    if found is None:
        compiler = _new_compiler(source, images)
        found = (compiler, compiler.eval(f"query(<{MARK_LABEL}>).map(m => (m.value, "
                                         "m.location().page(), m.location().position().y"
                                         ".mm()))"))
    with _MEASURED_LOCK:
        _MEASURED[key] = found  # the most recent last
        while len(_MEASURED) > _MEASURED_KEPT:
            del _MEASURED[next(iter(_MEASURED))]
    return found[1]


def _compiler_for(source: str, images: dict[str, str]) -> typst.Compiler:
    """The compiler that measured ``source``, handed over (or a new one)."""
    key = _key(source, images)
    with _MEASURED_LOCK:
        found = _MEASURED.get(key)
        if found is not None and found[0] is not None:
            _MEASURED[key] = (None, found[1])
            return found[0]
    return _new_compiler(source, images)


def _measure(source: str, sheet: Sheet) -> dict[str, Placed]:
    out = _marks_of(source, sheet.images)
    return {name: Placed(page, y) for name, page, y in json.loads(out)}


@dataclass
class Setting:
    order: list[int]
    pages: int  # text pages
    fills: list[float]  # how full each text page is (the last one included)
    opener: dict[int, int]  # page -> the index (in order) of the first unit set on it


def _judge(sheet: Sheet, order: list[int], marks: dict[str, Placed], top: float,
           column_height: float) -> Setting:
    """How full each page is, from the marks: the lowest end on the page, or full when
    running text carries on to the next page."""
    bottoms: dict[int, float] = {}
    full: set[int] = set()
    opener: dict[int, int] = {}
    uids = _unit_marks(sheet)
    for position, index in enumerate(order):
        uid = uids.get(index)
        if uid is None:
            continue
        start, end = marks[f"{uid}s"], marks[f"{uid}e"]
        # An inline end mark stands on the last line's baseline: its descenders go lower.
        descent = 1.2 if sheet.units[index].kind in ("text",) else 0.0
        bottoms[end.page] = max(bottoms.get(end.page, 0.0), end.y_mm + descent)
        for page in range(start.page, end.page):
            full.add(page)
        opener.setdefault(start.page, position)
    last = max(bottoms) if bottoms else 1
    fills = [1.0 if page in full else max(0.0, bottoms.get(page, top) - top) / column_height
             for page in range(1, last + 1)]
    return Setting(order, last, fills, opener)


def _unit_marks(sheet: Sheet) -> dict[int, str]:
    found = {}
    for index, unit in enumerate(sheet.units):
        m = re.search(r'(?:tick|mark)\("([um][a-z]*\d+)s"\)', unit.code)
        if m:
            found[index] = m.group(1)
    return found


def _correction(sheet: Sheet, setting: Setting) -> list[int] | None:
    """A new order that fills the first short page, or None: the unit opening the next
    page is a figure (perhaps under its heading), so the running text after it in the same
    section is set before it."""
    order = setting.order
    for page, fill in enumerate(setting.fills[:-1], start=1):
        if fill >= FILL_TARGET or page + 1 not in setting.opener:
            continue
        position = setting.opener[page + 1]
        unit = sheet.units[order[position]]
        if unit.kind != "figure" or unit.continues:
            continue
        before = sheet.units[order[position - 1]] if position else None
        if unit.beside is not None and before is not None and before.kind == "text" and \
                before.section == unit.section:
            # A narrow figure stands beside the paragraph before it: the two take the
            # height of the taller instead of both.
            uid = f"m{len(sheet.units)}"
            sheet.units.append(Unit(
                "figure", f'#block(width: 100%, breakable: false, above: 6pt, below: 10pt, '
                f'{{ mark("{uid}s"); grid(columns: (1fr, 1fr), column-gutter: '
                f'{PAIR_GAP_MM}mm, [{before.code}], {unit.beside}); mark("{uid}e") }})',
                unit.section, before.line))
            return order[:position - 1] + [len(sheet.units) - 1] + order[position + 1:]
        for later in range(position + 1, len(order)):
            candidate = sheet.units[order[later]]
            if candidate.section != unit.section or candidate.kind in ("heading", "board"):
                break
            if candidate.kind in ("text", "note"):
                moved = order[:position] + [order[later]] + \
                    [i for i in order[position:] if i != order[later]]
                return moved
    return None


def typeset(sheet: Sheet, column: tuple[float, float], source_name: str) -> str:
    """The Typst source of the best setting found: the fewest pages, then no short page."""
    order = list(range(len(sheet.units)))
    best: tuple[tuple[int, float], str] | None = None
    seen: set[tuple[int, ...]] = set()
    for _ in range(MAX_PASSES):
        source, starts = _source(sheet, order)
        try:
            marks = _measure(source, sheet)
        except Exception as exc:  # typst.TypstError, named with the template's line
            raise _typst_error(exc, starts, sheet, source_name) from None
        setting = _judge(sheet, order, marks, MARGIN_MM, column[1])
        short = sum(max(0.0, FILL_TARGET - f) for f in setting.fills[:-1])
        score = (setting.pages, short)
        if best is None or score < best[0]:
            best = (score, source)
        seen.add(tuple(order))
        corrected = _correction(sheet, setting)
        if corrected is None or tuple(corrected) in seen:
            break
        order = corrected
    assert best is not None
    return best[1]


def _typst_error(exc: Exception, starts: list[tuple[int, int]], sheet: Sheet,
                 source_name: str) -> BoardgenError:
    """Typst's complaint in one line, at the template line of the unit it concerns."""
    message = str(getattr(exc, "message", exc)).splitlines()[0] if str(exc) else repr(exc)
    diagnostic = str(getattr(exc, "diagnostic", ""))
    found = re.search(r":(\d+):\d+", diagnostic)
    line = 1
    if found:
        source_line = int(found.group(1))
        for start, index in starts:
            if start <= source_line:
                line = sheet.units[index].line
    return BoardgenError(f"{source_name}:{line}: the typesetter refused the sheet: {message}")


def _ask_for_actual_size(pdf: bytes) -> bytes:
    """Add /PrintScaling /None to the catalog's viewer preferences (Typst writes
    /DisplayDocTitle only), so that a print dialog offers 100 %: the catalog is rewritten
    in place and every later offset in the cross-reference table moved by the bytes added."""
    found = re.search(rb"/ViewerPreferences<<", pdf)
    if found is None:
        raise BoardgenError("the typeset PDF has no viewer preferences to extend")
    insert = found.end()
    addition = b"/PrintScaling/None"
    out = pdf[:insert] + addition + pdf[insert:]
    xref = re.search(rb"\nxref\n(\d+) (\d+)\n", out)
    startxref = re.search(rb"startxref\n(\d+)\n%%EOF\s*$", out)
    if xref is None or startxref is None or int(startxref.group(1)) < insert:
        raise BoardgenError("the typeset PDF's cross-reference table was not where expected")
    entries_at = xref.end()
    count = int(xref.group(2))
    table = bytearray(out[entries_at:entries_at + 20 * count])
    for k in range(count):
        entry = table[20 * k:20 * k + 20]
        offset, kind = int(entry[:10]), entry[17:18]
        if kind == b"n" and offset > insert:
            table[20 * k:20 * k + 10] = b"%010d" % (offset + len(addition))
    moved = int(startxref.group(1)) + len(addition)
    out = out[:entries_at] + bytes(table) + out[entries_at + 20 * count:startxref.start()]
    return out + b"startxref\n%d\n%%%%EOF\n" % moved


# Sheets set while a build is memoised (sheets_memoised), by what they are set from.
_SHEETS: list[dict[tuple[object, ...], tuple[Theme, bytes]]] = []
# And the enlargement each quick reference's search chose (_sheet_setting), by the same.
_ENLARGEMENTS: list[dict[tuple[object, ...], tuple[Theme, float]]] = []


@contextmanager
def sheets_memoised() -> Iterator[None]:
    """Set each sheet once while inside: ``boardgen all`` sets each quick reference twice,
    for its own file and in the kit.  Not for longer: a template may be edited between two
    commands of one Python session."""
    _SHEETS.append({})
    _ENLARGEMENTS.append({})
    try:
        yield
    finally:
        _SHEETS.pop()
        _ENLARGEMENTS.pop()


def render_sheet_pdf(game: str, *, paper: Paper, theme: Theme, quick: bool = False,
                     board: bool = True) -> bytes:
    """The rule sheet (or the one-page quick reference) as PDF/UA-1 bytes, set by Typst;
    without its board pages when ``board`` is false (a kit prints the board files after
    the sheet)."""
    check_sheet_paper(paper)
    date, timestamp = _date()  # a malformed SOURCE_DATE_EPOCH is refused before any work
    key = (game, paper, quick, board, date, timestamp, language())
    if _SHEETS and key in _SHEETS[-1] and _SHEETS[-1][key][0] == theme:
        return _SHEETS[-1][key][1]
    # Read from the cache of finished sheets when an earlier build set the same sheet from
    # the same inputs (boardgen.publish.sheet_cache).
    pdf = cached_sheet("pdf", game, {"paper": paper, "theme": theme, "quick": quick,
                                     "board": board, "date": date, "timestamp": timestamp},
                       functools.partial(_set_sheet, game, paper, theme, quick, board, date,
                                         timestamp))
    if _SHEETS:
        _SHEETS[-1][key] = (theme, pdf)
    return pdf


def _set_sheet(game: str, paper: Paper, theme: Theme, quick: bool, board: bool, date: str,
               timestamp: int | None) -> bytes:
    sheet, source = _sheet_setting(game, paper, theme, quick, board, date)
    return _compile(source, sheet.images, timestamp, str(sheet_path(game, quick)))


def _compile(source: str, images: dict[str, str], timestamp: int | None,
             source_name: str) -> bytes:
    import typst

    def setting(text: str) -> bytes:
        try:
            pdf = _compiler_for(text, images).compile(
                input=text.encode("utf-8"), format="pdf", pdf_standards=["ua-1"],
                timestamp=timestamp)
            assert isinstance(pdf, bytes)  # one PDF (a list: one image a page)
            return pdf
        except typst.TypstError as exc:
            raise BoardgenError(f"{source_name}: the typesetter refused the sheet: "
                                f"{str(exc.message).splitlines()[0]}") from None

    pdf = setting(source)
    # A word hyphenated across a page turn is set whole instead (Typst cannot forbid that
    # one break): the page is set again with that word kept in one piece.
    for _ in range(PAGE_TURN_PASSES):
        word = _split_across_pages(pdf, source)
        kept = _keep_whole(source, word) if word else source
        if kept == source:
            break
        trial = setting(kept)
        if _page_count(trial) > _page_count(pdf):
            break
        source, pdf = kept, trial
    return _ask_for_actual_size(pdf)


PAGE_TURN_PASSES = 4
# Where the footer starts, from the page's foot (mm): the running text is above it.
_FOOTER_TOP_MM = 15.0


def _page_count(pdf: bytes) -> int:
    import pypdfium2 as pdfium

    return len(pdfium.PdfDocument(pdf))


def _split_across_pages(pdf: bytes, source: str) -> str | None:
    """The first word of ``source`` whose first part ends a page's running text with a
    hyphen and whose rest starts a line of the next page's, or None."""
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(pdf)
    bodies = []
    for page in doc:
        textpage = page.get_textpage()
        foot = _FOOTER_TOP_MM * 72 / 25.4
        body = textpage.get_text_bounded(bottom=foot)
        bodies.append(body.replace("\r", "").strip())
    for this, after in zip(bodies, bodies[1:], strict=False):
        last = this.splitlines()[-1] if this else ""
        # pdfium reads the break's hyphen as U+0002 or U+FFFE; a figure set at the top of
        # the next page comes first in its text, so the rest is sought among the lines
        # that start in lower case.
        end = re.search(r"([A-Za-z]+)[-\u0002\u00ad\u2010\ufffe]$", last)
        if end is None:
            continue
        for start in re.finditer(r"^([a-z]+)\b", after, re.MULTILINE):
            word = end.group(1) + start.group(1)
            if re.search(rf"\b{word}\b", source):  # the word the sheet says, not a caption's
                return word
    return None


def _keep_whole(source: str, word: str) -> str:
    """The source with ``word`` boxed (never hyphenated nor broken) where it stands in
    running text, which the sheet sets as string literals in markup (``#"..."``): the
    literal is closed before the word and opened again after it."""
    pattern = re.compile(rf"(?<![\w\-]){re.escape(word)}(?![\w\-])")

    def boxed(literal: re.Match[str]) -> str:
        return pattern.sub(lambda m: f'"#box("{m.group(0)}")#"', literal.group(0))

    return re.sub(r'#"(?:[^"\\]|\\.)*"', boxed, source)


def _sheet_setting(game: str, paper: Paper, theme: Theme, quick: bool, board: bool,
                   date: str, base: str = "") -> tuple[Sheet, str]:
    """The sheet's units and the Typst source of its best setting (``base`` names its
    images apart from another part's in one document)."""
    blocks = [b for b in load_sheet(game, quick) if board or b.kind != "board"]
    theme = print_theme(theme)
    width, height = paper.size("portrait")
    column = (width - 2 * MARGIN_MM, height - 2 * MARGIN_MM - FOOTER_BAND_MM)
    source_name = str(sheet_path(game, quick))

    def setting(enlarge: float) -> tuple[Sheet, str]:
        sheet = build_units(game, blocks, theme, column, quick, paper, enlarge, base)
        sheet.preamble = _preamble(game, sheet.title, paper, theme, date, quick)
        return sheet, typeset(sheet, column, source_name)

    # A quick reference set before in this build (its own file, then in the kit, where
    # only its images' names differ, ``base``): set again at the enlargement found then,
    # without the search's six settings.
    key = (game, paper, quick, board, date, language())
    found = _ENLARGEMENTS[-1].get(key) if _ENLARGEMENTS and quick else None
    if found is not None and found[0] == theme:
        return setting(found[1])
    sheet, source = setting(1.0)
    if quick:
        # The diagram's cells as large as the page allows, for a reference that uses its
        # whole page: the largest enlargement (in steps) that still sets one page.
        low, high = 1.0, QUICK_MAX_ENLARGE
        for _ in range(QUICK_SEARCH_STEPS):
            middle = (low + high) / 2
            trial = setting(middle)
            if _pages(trial[0], trial[1]) == 1:
                low, (sheet, source) = middle, trial
            else:
                high = middle
        if _ENLARGEMENTS:
            _ENLARGEMENTS[-1][key] = (theme, low)
    return sheet, source


# --- a kit: the sheet, its quick reference, boards and the rest as one document ------------


@dataclass(frozen=True)
class KitBoard:
    """A kit's page at exact scale: its heading (and bookmark), the figure, the words under
    the heading (which pieces fit), and the figure's text alternative."""

    title: str
    figure: Figure
    said: str
    alt: str
    corner: bool = False  # the bar up the page stands in the figure's empty top-left corner


@dataclass(frozen=True)
class KitWords:
    """A short part of words (a note on pens), set where the rule sheet leaves room."""

    title: str
    paragraphs: tuple[str, ...]


@dataclass(frozen=True)
class KitTracker:
    """A small figure set beside the last page of a fixed board (a capture tracker)."""

    title: str
    figure: Figure
    alt: str


KIT_BOARD_ALLOWANCE_MM = 42.0  # a board page's heading, words and bar above the board


def kit_board_room(paper: Paper, corner: bool = False) -> tuple[float, float]:
    """The room (mm) a board or sheet of stones has on a kit's page: the column less the
    band of the bar up the page, or all of it (``corner``) for a figure whose empty
    top-left corner takes the bar (see :func:`corner_is_free`)."""
    width, height = column_mm(paper)
    return width - (0.0 if corner else BAR_BAND_MM), height - KIT_BOARD_ALLOWANCE_MM


def render_kit_pdf(game: str, *, paper: Paper, theme: Theme, title: str,
                   boards: list[KitBoard], words: list[KitWords],
                   tracker: KitTracker | None) -> bytes:
    """The whole kit as one tagged document (PDF/UA-1): the rule sheet (its notes folded
    in where it leaves room), the quick reference, then each board and sheet of pieces at
    exact scale, "page N of M" throughout, a bookmark per part."""
    check_sheet_paper(paper)
    date, timestamp = _date()
    rules, rules_source = _sheet_setting(game, paper, theme, False, False, date, "r")
    quick, quick_source = _sheet_setting(game, paper, theme, True, True, date, "q")
    printed = print_theme(theme)
    parts = Sheet([], {**rules.images, **quick.images})
    ids = _Ids("k")
    preamble = _preamble(game, title, paper, printed, date)
    body = [rules_source[len(rules.preamble) + 1:]]
    for part in words:
        # A short part flows on after the sheet, in its columns, headed as a section.
        body.append(f"#block(above: 14pt, {{ show heading: set text({HEADING_PT}pt); "
                    f"heading(level: 1, {_string(part.title)}) }})")
        body += [f"#par[{inline(paragraph)}]" for paragraph in part.paragraphs]
    body += ["#set page(columns: 1)", quick_source[len(quick.preamble) + 1:]]
    for board in boards:
        body.append(_kit_board_code(parts, ids, board, printed))
    fixed = game_named(game).fixed_board
    if fixed is not None:
        figures = board_pages(fixed, paper, None)
        aside = None
        if tracker is not None and fixed.strips is not None:
            # The tracker beside the pieces: their rows made as narrow as leaves it room.
            room = content_size(paper.size("landscape"))[0] - tracker.figure.width - \
                2 * ASIDE_GAP_MM
            pieces = pieces_sheet(fixed.strips, figures[0].cell_width, room)
            if pieces.width <= room:
                figures[-1] = pieces
                aside = (tracker.figure, f"{tracker.title}\n{tracker.alt}")
        body.append(_fixed_board_code(parts, ids, game_named(game).name, figures, printed,
                                      paper, title=tr("{game}: board and pieces").format(
                                          game=game_named(game).name), level=1, aside=aside))
        if tracker is not None and aside is None:
            body.append(_kit_board_code(parts, ids, KitBoard(tracker.title, tracker.figure,
                                                             "", tracker.alt), printed))
    source = preamble + "\n" + "\n".join(body)
    return _compile(source, parts.images, timestamp, f"the {game} kit")


def _kit_board_code(sheet: Sheet, ids: _Ids, board: KitBoard, theme: Theme) -> str:
    """A board (or sheet of stones) on a portrait page of its own at exact scale: its
    heading, what fits it, the bar across above it and the bar up its left."""
    image = f'svg("{_svg(sheet, ids, board.figure, theme)}", {board.figure.width:.3f})'
    # Right of the band the bar up the page stands in.
    figure = f'pad(left: {0.0 if board.corner else BAR_BAND_MM}mm, align(center, ' \
        f'figure(alt: {_string(board.alt)}, kind: "board", supplement: none, {image})))'
    out = ["pagebreak(weak: true)",
           f"block(below: 6pt, {{ show heading: set text({HEADING_PT}pt); "
           f"heading(level: 1, {_string(board.title)}) }})",
           f"par({_content(board.said)})" if board.said else "v(0pt)",
           # The bar across as on every board page, with what it checks, on one line.
           'block(above: 6pt, below: 8pt, figure(alt: bar-alt, kind: "scalebar", '
           'supplement: none, scalebar-line))',
           f"block(width: 100%, breakable: false, {{ {figure}; place(top + left, vbar) }})"]
    return "\n".join(f"#{line}" for line in out)


def _pages(sheet: Sheet, source: str) -> int:
    """How many pages a setting takes, from its marks."""
    return max((placed.page for placed in _measure(source, sheet).values()), default=1)


def column_mm(paper: Paper) -> tuple[float, float]:
    width, height = paper.size("portrait")
    return width - 2 * MARGIN_MM, height - 2 * MARGIN_MM - FOOTER_BAND_MM


