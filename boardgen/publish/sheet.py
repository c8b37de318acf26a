"""Rule sheets: our own text from ``templates/GAME/sheet.md`` (and ``quick.md``) with the
engine's diagrams.

The markup is small on purpose:
  # Title                      the sheet's title (first line)
  ## Heading                   a section
  a paragraph                  lines up to a blank line; **bold**, *italic*, `code`,
                               {printed words|words on screen}
  - item                       a bullet (continuation lines indented)
  > text                       a boxed note (designer's terms, reconstructions)
  ::: diagram GAME NAME        a diagram replayed through the engine, inline
  ::: board GAME               a page with a full-size printable board (last)
  {{name}}                     a figure from a computation (a count of games), read from
                               ``figures.json`` beside the template, never typed in
This module reads and checks the markup and writes the HTML sheet (inline SVG); the PDF
is set by Typst, tagged PDF/UA-1: ``boardgen.publish.typeset.render_sheet_pdf``, which
builds on this module.
"""

from __future__ import annotations

import base64
import functools
import hashlib
import html
import io
import json
import math
import re
from collections.abc import Iterable
from dataclasses import dataclass, replace
from pathlib import Path

from boardgen._version import __version__
from boardgen.errors import BoardgenError
from boardgen.games.registry import build_diagram, game_named
from boardgen.i18n import SOURCE_LANGUAGE, language, language_tag, tr, typography
from boardgen.inputs import split_lines
from boardgen.limits import MAX_CACHED_FONT_BYTES
from boardgen.picture import Diagram, PointScene, Scene
from boardgen.publish.markup import check_inline, for_medium
from boardgen.publish.sheet_animation import SHEET_ANIMATION_CSS, sheet_animation
from boardgen.publish.sheet_cache import (
    CACHE_ENV,
    cached_sheet,
    read_entry,
    write_entry,
)
from boardgen.render.board import largest_fitting_figure
from boardgen.render.diagram import (
    describe,
    diagram_pages,
)
from boardgen.render.figure import COMMON_PIECES, Figure, board_figure
from boardgen.render.fonts import BOLD, REGULAR, cache_folder, font_path
from boardgen.render.lattice import default_spacing, lattice_figure, pieces_sheet
from boardgen.render.paper import Paper
from boardgen.render.scene import Theme
from boardgen.render.svg import render_svg
from boardgen.text import check_lines

# The smallest paper a rule sheet is laid out on (A5): below it a note box or a diagram
# panel no longer fits a page.
MIN_SHEET_PAPER_MM = (148.0, 210.0)
# Captions and coordinates on a printed sheet: 82 % black, dark enough to read at 8 pt.
SHEET_CAPTION_INK = "#2e2e2e"
MIN_SHEET_CELL_MM = 8.0
SHEET_LATTICE_MM = 10.2
SCREEN_SCALE = 1.35  # HTML diagrams against their printed size


@dataclass(frozen=True)
class Block:
    kind: str  # title, heading, para, bullets, note, diagram, board
    text: str = ""
    items: tuple[str, ...] = ()
    args: tuple[str, ...] = ()
    line: int = 0


def sheet_path(game: str, quick: bool = False) -> Path:
    return game_named(game).sheet_path(quick)


def parse_sheet(text: str, source: str) -> list[Block]:
    blocks: list[Block] = []
    lines = split_lines(text)
    i = 0
    while i < len(lines):
        raw = lines[i]
        stripped = raw.strip()
        start = i + 1
        i += 1
        if not stripped:
            continue
        if stripped.startswith("::: "):
            words = stripped[4:].split()
            if not words or words[0] not in ("diagram", "board"):
                raise BoardgenError(f"{source}:{start}: unknown directive {stripped!r}")
            blocks.append(Block(words[0], args=tuple(words[1:]), line=start))
        elif stripped.startswith("## "):
            blocks.append(Block("heading", stripped[3:], line=start))
        elif stripped.startswith("# "):
            blocks.append(Block("title", stripped[2:], line=start))
        else:
            kind = "bullets" if stripped.startswith("- ") else \
                "note" if stripped.startswith(">") else "para"
            chunk = [raw]
            while i < len(lines) and lines[i].strip() and not lines[i].strip().startswith(
                    ("::: ", "#")):
                if kind == "para" and lines[i].strip().startswith(("- ", ">")):
                    break
                chunk.append(lines[i])
                i += 1
            if kind == "bullets":
                items: list[str] = []
                for line in chunk:
                    if line.strip().startswith("- "):
                        items.append(line.strip()[2:])
                    else:
                        items[-1] += " " + line.strip()
                blocks.append(Block("bullets", items=tuple(items), line=start))
            elif kind == "note":
                blocks.append(Block("note", " ".join(line.strip().lstrip(">").strip()
                                                     for line in chunk), line=start))
            else:
                blocks.append(Block("para", " ".join(line.strip() for line in chunk),
                                    line=start))
    if not blocks or blocks[0].kind != "title":
        raise BoardgenError(f"{source}:1: a sheet starts with '# Title'")
    return blocks


def _smart(text: str) -> str:
    """Typographer's quotes and apostrophes, outside `code`."""
    parts = text.split("`")
    for k in range(0, len(parts), 2):
        part = re.sub(r'(^|[\s(\[\u2014-])"', "\\1\u201c", parts[k])
        part = re.sub(r"(^|[\s(\[\u2014-])'", "\\1\u2018", part)
        parts[k] = part.replace('"', "\u201d").replace("'", "\u2019")
    return "`".join(parts)


def _tied(text: str) -> str:
    """No runts: the last two words of a paragraph, and the words of a `code` span, are
    joined by no-break spaces so that a line never holds one of them alone."""
    text = re.sub(r"`([^`]+)`", lambda m: "`" + m.group(1).replace(" ", "\u00a0") + "`", text)
    return re.sub(r" (\S+)$", "\u00a0\\1", text.rstrip())


def _inline(text: str, code_open: str, code_close: str) -> str:
    """**bold**, *italic* and `code` to markup, everything else escaped; curly quotes, and
    the paragraph's last two words tied together."""
    out = html.escape(_tied(typography(_smart(for_medium(text, "screen")))), quote=False)
    out = re.sub(r"`([^`]+)`", lambda m: f"{code_open}{m.group(1)}{code_close}", out)
    out = re.sub(r"\*\*([^*]+)\*\*", r"<b>\1</b>", out)
    return re.sub(r"\*([^*]+)\*", r"<i>\1</i>", out)


FIGURES_FILE = "figures.json"
_FIGURE = re.compile(r"\{\{([a-z0-9-]+)\}\}")


def sheet_figures(folder: Path) -> dict[str, str]:
    """The figures a game's sheets print by name (``{{name}}``): ``figures.json`` in its
    template folder (``{"figures": {name: text}}``, written by a computation that a test
    repeats), or none.  In another language, ``figures.LANG.json`` where it is (its numbers
    grouped as that language groups them)."""
    path = folder / FIGURES_FILE
    lang = language()
    if lang != SOURCE_LANGUAGE:
        own = path.with_suffix(f".{lang}.json")
        path = own if own.is_file() else path
    if not path.is_file():
        return {}
    try:
        figures = json.loads(path.read_text(encoding="utf-8"))["figures"]
    except (ValueError, KeyError, TypeError) as exc:
        raise BoardgenError(f"{path}: not a figures file ({exc})") from None
    if not isinstance(figures, dict) or not all(
            isinstance(k, str) and isinstance(v, str) for k, v in figures.items()):
        raise BoardgenError(f"{path}: 'figures' must map names to texts")
    return figures


def write_sheet_figures(folder: Path, about: str, figures: dict[str, str]) -> Path:
    """Write ``figures.json`` in a template folder, as :func:`sheet_figures` reads it
    (``about`` says what computation wrote it); the scripts that compute a game's figures
    call this."""
    path = folder / FIGURES_FILE
    path.write_text(json.dumps({"about": about, "figures": figures}, indent=2) + "\n",
                    encoding="utf-8")
    return path


def with_figures(text: str, figures: dict[str, str], source: str) -> str:
    """The template with every ``{{name}}`` replaced by its figure; an unknown name is
    refused with the template's FILE:LINE."""
    lines = text.splitlines(keepends=True)
    for number, line in enumerate(lines, start=1):
        for name in _FIGURE.findall(line):
            if name not in figures:
                raise BoardgenError(f"{source}:{number}: no figure named {name!r} (known: "
                                    f"{', '.join(sorted(figures)) or 'none'})")
        lines[number - 1] = _FIGURE.sub(lambda m: figures[m.group(1)], line)
    return "".join(lines)


def load_sheet(game: str, quick: bool = False) -> list[Block]:
    path = sheet_path(game, quick)
    if not path.is_file():
        raise BoardgenError(f"no rule sheet for {game!r} ({path} is missing)")
    text = path.read_text(encoding="utf-8")
    check_lines(text, str(path))
    text = with_figures(text, sheet_figures(path.parent), str(path))
    blocks = parse_sheet(text, str(path))
    lines = split_lines(text)
    for block in blocks:
        if block.kind in ("title", "heading", "para", "note"):
            check_inline([block.text], lines, block.line, str(path))
        elif block.kind == "bullets":
            check_inline(list(block.items), lines, block.line, str(path))
        if block.kind in ("diagram", "board") and (not block.args or block.args[0] != game):
            raise BoardgenError(f"{path}:{block.line}: '{block.kind}' must name the game "
                                f"{game!r} first")
        if block.kind == "diagram":
            known = game_named(game).diagram_names()
            if len(block.args) != 2 or block.args[1] not in known:
                raise BoardgenError(f"{path}:{block.line}: no {game} diagram named "
                                    f"{' '.join(block.args[1:])!r} (known: "
                                    f"{', '.join(sorted(known))})")
    return blocks


# --- the full-size board of each game ----------------------------------------------------


def sheet_board(game: str, room: tuple[float, float]) -> list[Figure]:
    """The game's board at 1:1, as large as fits ``room`` (mm), and for Polygone the sheet
    of pieces too."""
    description = game_named(game)
    fixed = description.fixed_board
    if fixed is not None:
        # Every printed copy of a fixed board has one hole spacing, so that pieces fit any.
        spacing = default_spacing(fixed)
        figures = [lattice_figure(fixed.picture, spacing)]
        if fixed.strips is not None:
            figures.append(pieces_sheet(fixed.strips, spacing, room[0]))
        return figures
    return [fitted_board(description.board_scene(description.hex_board()), room)]


def fitted_board(scene: Scene, room: tuple[float, float]) -> Figure:
    """A hex board at 1:1 with the largest cells that fit ``room`` (mm)."""
    def growth(figure: Figure) -> float:
        return min(room[0] / figure.width, room[1] / figure.height)

    return largest_fitting_figure(scene, growth(board_figure(scene, 10.0)), growth,
                                  smallest=2.0, largest=25.0)


def pieces_in_words(cell_width: float) -> str:
    """Which common pieces fit a board's cells (a round piece needs 1 mm to spare), said
    for players: no program, no option."""
    fitting = [name for name, size in COMMON_PIECES if size + 1.0 <= cell_width + 1e-9]
    larger = [name for name, size in COMMON_PIECES if size + 1.0 > cell_width + 1e-9]
    up_to = math.floor(cell_width - 1.0 + 1e-9)
    said = tr("Pieces up to {size} mm across fit its cells: {pieces}.").format(
        size=up_to, pieces=_listed(fitting)) if fitting else \
        tr("Pieces up to {size} mm across fit its cells.").format(size=up_to)
    if larger:
        need = tr("{pieces} need a board with larger cells.").format(pieces=_listed(larger))
        said += f" {need[:1].upper()}{need[1:]}"
    return said


def _listed(names: list[str]) -> str:
    names = [tr(name) for name in names]
    return names[0] if len(names) == 1 else \
        ", ".join(names[:-1]) + tr(" and ") + names[-1]


# --- PDF -----------------------------------------------------------------------------------


def curled(figure: Figure) -> Figure:
    """The figure with typographer's quotes in its texts (the engine writes straight ones),
    set in the current language's typography (French spaces before : ; ! ?); the font's
    curly apostrophe has the straight one's width to within a hair."""
    texts = [replace(t, text=typography(_smart(t.text))) for t in figure.texts]
    return replace(figure, texts=texts)


def print_theme(theme: Theme) -> Theme:
    """The theme for a rule sheet: captions and coordinates at least 80 % black."""
    return replace(theme, muted=SHEET_CAPTION_INK)


def check_sheet_paper(paper: Paper) -> None:
    """Refuse paper smaller than MIN_SHEET_PAPER_MM (either way round) for a rule sheet."""
    short, long = sorted((paper.width, paper.height))
    if short < MIN_SHEET_PAPER_MM[0] or long < MIN_SHEET_PAPER_MM[1]:
        raise BoardgenError(
            f"paper {paper.name} is too small for a rule sheet: at least "
            f"{MIN_SHEET_PAPER_MM[0]:g} x {MIN_SHEET_PAPER_MM[1]:g} mm (A5)"
        )


def sheet_cell_mm(diagram: Diagram) -> float:
    """Hex panels' cells no smaller than 8 mm, so that their coordinates print at 8 pt;
    Polygone's lattice a little tighter than on its own, so that a picture's two panels
    sit side by side with room to spare."""
    lattice = any(isinstance(scene, PointScene) for _, scenes in diagram.rows
                  for scene in scenes)
    return SHEET_LATTICE_MM if lattice else max(diagram.cell_mm, MIN_SHEET_CELL_MM)


def _plain(text: str) -> str:
    return re.sub(r"[*`]", "", _smart(text))


def _sheet_diagram(game: str, name: str, quick: bool = False) -> Diagram:
    """A diagram as a sheet prints it: the reconstruction note is the sheet's, said once
    in its opening box rather than under every picture; a quick reference does not number
    the full sheet's pictures."""
    diagram = build_diagram(game, name)
    if quick:
        title = re.sub(tr(r"^Picture \d+: "), "", diagram.title)
        diagram = replace(diagram, title=title[:1].upper() + title[1:])
    for said in map(tr, game_named(game).said_once):
        if diagram.legend_note and diagram.legend_note.endswith(said):
            note = diagram.legend_note.removesuffix(said).strip()
            diagram = replace(diagram, legend_note=note or None)
        rows = tuple((title.replace(said, "").strip() if title else title, scenes)
                     for title, scenes in diagram.rows)
        diagram = replace(diagram, rows=rows)
    return diagram


# --- HTML ----------------------------------------------------------------------------------

# A diagram is a third larger than print on a wide screen, shrinks with the column, but
# never below its printed size (labels 2.9 mm): on a phone it scrolls sideways instead.
_CSS = """
body { font-family: 'Source Sans Pro', sans-serif; max-width: 52rem; font-size: 1.1rem;
       margin: 2rem auto; padding: 0 1rem; color: #1a1a1a; line-height: 1.5; }
h1 { font-size: 2.2rem; margin-bottom: .2rem; } h2 { margin-top: 2rem; font-size: 1.5rem; }
.note { border: 1px solid #c2410c; background: #fbf8f1; padding: .6rem .9rem; }
.pdf { font-weight: 700; }
figure { margin: 1.6rem 0 1.4rem; }
figure > figcaption { font-weight: 700; font-size: 1.15rem; margin-bottom: .4rem; }
.scroll { overflow-x: auto; }
.scroll:focus { outline: 2px solid #c2410c; outline-offset: 2px; }
/* On a narrow screen a wide figure scrolls sideways: say so above it. */
.hint { display: none; margin: 0 0 .3rem; font-size: .95rem; color: #444; }
@media (max-width: 48rem) { .hint { display: block; } }
.scroll svg { max-width: 100%; height: auto; display: block; }
footer { margin-top: 3rem; color: #444; font-size: .9rem; }
@media print {
  body { max-width: none; margin: 0; padding: 0; font-size: 10pt; line-height: 1.35; }
  .pdf { display: none; }
  h2, figure > figcaption { break-after: avoid; }
  figure, .note { break-inside: avoid; }
  .scroll { overflow: visible; }
  .hint { display: none; }
  footer { margin-top: 1rem; font-size: 8pt; }
}
"""


def _font_faces(text: str) -> str:
    """@font-face rules carrying the bundled Source Sans Pro, cut down to the characters the
    page uses (a few kilobytes instead of a megabyte), as data: URLs."""
    return _font_faces_of(frozenset({ord(ch) for ch in text} | set(range(0x20, 0x7f))))


# Cutting the three fonts down was a third of `boardgen all` (three sheets, three fonts
# each).  A face is cut once per set of characters in a process, and kept on disk in the
# user's cache (FONT_CACHE_ENV, else $XDG_CACHE_HOME/boardgen, else ~/.cache/boardgen:
# boardgen.render.fonts.cache_folder, whose folder keeps glyphs and finished sheets too),
# keyed by the source font's bytes, the characters and fontTools' version: the next build
# reads the bytes fontTools would make.  boardgen ships no cut fonts of its own.
FONT_CACHE_ENV = CACHE_ENV  # a folder; set to the empty string: no cache
_SHEET_FACES = (("regular", 400, "normal"), ("bold", 700, "normal"), ("italic", 400, "italic"))


def sheet_font_source(weight: str) -> str:
    """The file of the bundled font a sheet face is cut from."""
    import font_source_sans_pro

    if weight == "italic":  # a real italic, not a slanted roman
        return str(font_source_sans_pro.font_files_ttf["SourceSansProIt"])
    return font_path(BOLD if weight == "bold" else REGULAR)


def cut_font(weight: str, characters: Iterable[int]) -> bytes:
    """The sheet face ``weight`` cut down to ``characters`` by fontTools' subsetter."""
    from fontTools import subset
    from fontTools.ttLib import TTFont

    font = TTFont(sheet_font_source(weight), recalcTimestamp=False)  # the same bytes always
    options = subset.Options()
    options.flavor = None
    options.name_IDs = ["*"]
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=characters)
    subsetter.subset(font)
    out = io.BytesIO()
    font.save(out)
    return out.getvalue()


def font_cache_folder() -> Path | None:
    """Where cut sheet fonts are kept between builds, or None when the cache is off."""
    return cache_folder("sheet-fonts")


# A cached face is stored after the SHA-256 of its key (its file name: the face, the source
# font's digest, fontTools' version, the characters) and its bytes, and read back only if
# they agree (boardgen.publish.sheet_cache.read_entry): a file cut short, emptied, or
# replaced by another font, even another whole face of the cache (bold over italic), is
# cut again, not embedded.  A cut face is some tens of kilobytes; anything larger than
# MAX_CACHED_FONT_BYTES in the folder is not one of ours.


def cached_cut_font(weight: str, characters: frozenset[int]) -> bytes:
    """:func:`cut_font`, read from the cache when an earlier build cut the same face to the
    same characters with the same fontTools; a cache that cannot be read or written, or
    holds a file that is not whole, is passed by (the font is then cut here, as without
    one, and the cache's file made again)."""
    folder = font_cache_folder()
    if folder is None:
        return cut_font(weight, characters)
    from fontTools import version as fonttools_version

    source = Path(sheet_font_source(weight)).read_bytes()
    key = hashlib.sha256(b"|".join([
        hashlib.sha256(source).hexdigest().encode(), fonttools_version.encode(),
        " ".join(f"{c:x}" for c in sorted(characters)).encode()])).hexdigest()[:40]
    name = f"{weight}-{key}"
    path = folder / f"{name}.ttf"
    cached = read_entry(path, name, MAX_CACHED_FONT_BYTES)
    if cached is not None:
        return cached
    font = cut_font(weight, characters)
    write_entry(path, name, font)
    return font


@functools.lru_cache(maxsize=8)
def _font_faces_of(characters: frozenset[int]) -> str:
    rules = []
    for weight, css_weight, style in _SHEET_FACES:
        data = base64.b64encode(cached_cut_font(weight, characters)).decode("ascii")
        rules.append(f"@font-face {{ font-family: 'Source Sans Pro'; font-weight: {css_weight};"
                     f" font-style: {style}; src: url(data:font/ttf;base64,{data})"
                     f" format('truetype'); }} /* {weight}: SIL Open Font License 1.1 */")
    return "\n".join(rules)


NARROW_SCREEN_MM = 95.0  # a 390 px phone's column, less its padding


def _scroll(svg: str, width_mm: float, title: str) -> str:
    """A figure's drawing in a box that scrolls sideways when the screen is narrower than
    the figure's printed size: focusable (a keyboard scrolls it too), named, and, when the
    figure is wider than a phone's column, under a line saying it scrolls."""
    scroll = html.escape(tr("Scroll sideways for the whole figure \u2192"))
    hint = f'<p class="hint" aria-hidden="true">{scroll}</p>' \
        if width_mm > NARROW_SCREEN_MM else ""
    # ``title`` is escaped already; the sentence around it has nothing to escape.
    label = tr("{title}, scrolls sideways on a narrow screen").format(title=title)
    return (f'{hint}<div class="scroll" role="region" tabindex="0" '
            f'aria-label="{label}">{svg}</div>')


def render_sheet_html(game: str, *, theme: Theme, quick: bool = False) -> bytes:
    """The same sheet for reading on screen: HTML with the diagrams as inline SVG, each
    with a text alternative generated from the engine's positions (read from the cache of
    finished sheets when an earlier build made it from the same inputs:
    boardgen.publish.sheet_cache)."""
    return cached_sheet("html", game, {"theme": theme, "quick": quick},
                        functools.partial(_sheet_html, game, theme, quick))


def _sheet_html(game: str, theme: Theme, quick: bool) -> bytes:
    blocks = load_sheet(game, quick)
    theme = print_theme(theme)
    body: list[str] = []
    # The PDF beside it, named as ``boardgen all`` names it.
    stem = f"{game}-quick-reference" if quick else f"{game}-rules"
    pdf_name = f"{stem}.pdf" if language() == SOURCE_LANGUAGE else f"{stem}-{language()}.pdf"
    for block in blocks:
        if block.kind == "title":
            body.append(f"<h1>{_inline(block.text, '<code>', '</code>')}</h1>")
            to_print = tr("The sheet to print (PDF)")
            body.append(f'<p class="pdf"><a href="{pdf_name}">{html.escape(to_print)}</a></p>')
        elif block.kind == "heading":
            body.append(f"<h2>{_inline(block.text, '<code>', '</code>')}</h2>")
        elif block.kind == "para":
            body.append(f"<p>{_inline(block.text, '<code>', '</code>')}</p>")
        elif block.kind == "note":
            body.append(f'<p class="note">{_inline(block.text, "<code>", "</code>")}</p>')
        elif block.kind == "bullets":
            items = "".join(f"<li>{_inline(item, '<code>', '</code>')}</li>"
                            for item in block.items)
            body.append(f"<ul>{items}</ul>")
        elif block.kind == "diagram":
            diagram = _sheet_diagram(game, block.args[1], quick)
            (figure,) = diagram_pages(replace(diagram, title=""),
                                      cell_width=sheet_cell_mm(diagram), max_width=180.0,
                                      max_height=None)
            text = typography(describe(diagram))
            # Texts kept as text (in the page's own font): captions are read, found and
            # copied like the rest of the page.
            svg = render_svg(curled(figure), theme=theme, description=text, text_as="text")
            title = html.escape(typography(_smart(diagram.title)))
            svg = svg.split("?>", 1)[1].strip().replace(
                "<svg ", f'<svg role="img" aria-label="{title}" '
                f'style="width: {figure.width * SCREEN_SCALE:.0f}mm; '
                f'min-width: {figure.width:.0f}mm" ', 1)
            body.append(f"<figure><figcaption>{title}</figcaption>"
                        f"{_scroll(svg, figure.width, title)}</figure>")
            # Its lines of play in motion, under it (issue 35): collapsed, never printed.
            moving = sheet_animation(diagram, theme=theme, cell_mm=sheet_cell_mm(diagram),
                                     key=f"moving-{len(body)}", name=_smart(diagram.title),
                                     alt=text)
            if moving:
                body.append(moving)
        elif block.kind == "board":
            figure = sheet_board(game, (180.0, 250.0))[0]
            name = tr("{game} board").format(game=game_named(game).name)
            svg = render_svg(figure, theme=theme, description=name, text_as="text")
            svg = svg.split("?>", 1)[1].strip().replace(
                "<svg ", f'<svg role="img" aria-label="{html.escape(name)}" ', 1)
            board_heading = tr("Board")
            body.append(f"<h2>{html.escape(board_heading)}</h2><p>" + html.escape(
                tr("To play, print the {link}PDF sheet{end}: its board prints at exact "
                   "scale.")).format(link=f'<a href="{pdf_name}">', end="</a>") + "</p>"
                        f'<figure><figcaption>{html.escape(name)}</figcaption>'
                        f"{_scroll(svg, figure.width, html.escape(name))}</figure>")
    # The page prints: the program and its version stay in the head (issue 32), as in a PDF.
    body.append(f"</main><footer>{html.escape(game_named(game).credit)}</footer></body></html>")
    text = html.unescape(re.sub(r"<[^>]+>", " ", "\n".join(body)))
    moving_css = SHEET_ANIMATION_CSS if any(part.startswith('<details class="moving">')
                                            for part in body) else ""
    head = ["<!doctype html>", f'<html lang="{language_tag()}"><head><meta charset="utf-8">',
            f"<title>{html.escape(_plain(blocks[0].text))}</title>",
            '<meta name="viewport" content="width=device-width, initial-scale=1">',
            f'<meta name="generator" content="boardgen {__version__}">',
            f"<style>{_font_faces(text + blocks[0].text)}\n{_CSS}{moving_css}</style></head>"
            "<body><main>"]
    return ("\n".join(head + body) + "\n").encode("utf-8")
