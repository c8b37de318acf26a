"""Everything ``boardgen all`` makes, and the gallery page that shows it.

Each job is a file name and a function returning its bytes; the gallery gets a thumbnail
for every file (page 1 of a PDF, the picture of an SVG, the PDF twin of an HTML sheet) and
links to all of them.
"""

from __future__ import annotations

import html
import io
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from boardgen import __version__
from boardgen.games import GAMES as GAME_DESCRIPTIONS
from boardgen.games import render_diagram
from boardgen.geometry import HexGrid, hexhex
from boardgen.render.board import BoardOptions, render_board
from boardgen.render.paper import Paper
from boardgen.render.scene import THEMES, Theme
from boardgen.text import printable

GAMES = tuple(GAME_DESCRIPTIONS)
THUMB_WIDTH_PX = 240


@dataclass(frozen=True)
class Job:
    name: str  # the file name in the output folder
    game: str
    kind: str  # "rules", "board", "diagram"
    make: Callable[[], bytes]


def board_stem(game: str, grid: HexGrid) -> str:
    """The file name (without suffix) of a board, the same from ``board`` and ``all``."""
    if grid.shape == "hexhex":
        return f"{game}-side{grid.side}"
    return f"{game}-{grid.shape}{grid.side}"


def diagram_stem(game: str, name: str) -> str:
    """The file name (without suffix) of a diagram, the same from ``diagram`` and ``all``."""
    return f"{game}-diagram-{name}"


def default_jobs(paper: Paper, theme: Theme = THEMES["colour"]) -> list[Job]:
    from boardgen.render.polygone_figure import render_polygone_board
    from boardgen.render.sheet import render_sheet_html, render_sheet_pdf

    options = BoardOptions(paper)
    jobs: list[Job] = []
    for game in GAMES:
        jobs.append(Job(f"{game}-rules.pdf", game, "rules",
                        partial(render_sheet_pdf, game, paper=paper, theme=theme)))
        jobs.append(Job(f"{game}-quick-reference.pdf", game, "rules",
                        partial(render_sheet_pdf, game, paper=paper, theme=theme, quick=True)))
        jobs.append(Job(f"{game}-rules.html", game, "rules",
                        partial(render_sheet_html, game, theme=theme)))
    for description in GAME_DESCRIPTIONS.values():
        key = description.key
        if description.board_kind == "lattice":
            jobs.append(Job(f"{key}-board.pdf", key, "board",
                            partial(render_polygone_board, "pdf", paper=paper, theme=theme,
                                    spacing=None, dpi=150, title=None)))
        for side, label, formats in description.gallery_boards:
            grid = hexhex(side)
            info = description.board_info(grid, f"{description.name} ({label})" if label
                                          else None)
            for fmt in formats:
                jobs.append(Job(f"{board_stem(key, grid)}.{fmt}", key, "board",
                                partial(render_board, description.board_scene(grid), fmt,
                                        options, theme=theme, info=info)))
    for game in GAMES:
        for name in GAME_DESCRIPTIONS[game].diagram_names():
            for fmt in ("pdf", "svg"):
                jobs.append(Job(f"{diagram_stem(game, name)}.{fmt}", game, "diagram",
                                partial(render_diagram, game, name, fmt, paper=paper,
                                        theme=theme)))
    return jobs


def thumbnail(path: Path) -> bytes:
    """A small PNG of a file: page 1 of a PDF, or an SVG drawn by CairoSVG."""
    if path.suffix == ".pdf":
        import pypdfium2

        document = pypdfium2.PdfDocument(str(path))
        try:
            page = document[0]
            scale = THUMB_WIDTH_PX / page.get_width()
            image = page.render(scale=scale).to_pil()
        finally:
            document.close()
        buffer = io.BytesIO()
        image.save(buffer, format="PNG", optimize=True)
        return buffer.getvalue()
    # From the bytes, not the path: CairoSVG reads a path as a URL, which a folder named
    # with '#', '?' or a control character breaks.
    import cairosvg

    png: bytes = cairosvg.svg2png(bytestring=path.read_bytes(), output_width=THUMB_WIDTH_PX)
    return png


def thumbnail_source(name: str, made: set[str]) -> str | None:
    """The file whose picture stands for ``name`` (an HTML sheet shows its PDF)."""
    if name.endswith(".html"):
        twin = name[: -len(".html")] + ".pdf"
        return twin if twin in made else None
    return name


def gallery_html(jobs: list[Job], made: set[str], failures: Sequence[str] = ()) -> str:
    """The gallery page: a card per file made, and a list of what failed, if anything."""
    sections = []
    if failures:
        # A failure's message may quote a path, which may hold control characters.
        items = "".join(f"<li>{html.escape(printable(failure))}</li>" for failure in failures)
        sections.append(f'<section class="failures"><h2>Not built</h2><ul>{items}</ul>'
                        "</section>")
    for game in GAMES:
        cards = []
        for job in jobs:
            if job.game != game or job.name not in made:
                continue
            source = thumbnail_source(job.name, made)
            image = f'<img src="thumbs/{html.escape(source)}.png" alt="">' if source else ""
            cards.append(f'<a class="card {job.kind}" href="{html.escape(job.name)}">{image}'
                         f"<span>{html.escape(job.name)}</span></a>")
        if cards:
            sections.append(f"<h2>{html.escape(GAME_DESCRIPTIONS[game].name)}</h2>"
                            f'<div class="grid">{"".join(cards)}</div>')
    style = ("body{font-family:sans-serif;margin:2rem;color:#1a1a1a}"
             ".grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(250px,1fr));"
             "gap:1rem}.card{display:block;border:1px solid #ddd;padding:.5rem;"
             "text-decoration:none;color:inherit;background:#fff}.card img{width:100%;"
             "height:auto;display:block;margin-bottom:.4rem}.card span{font-size:.85rem}"
             ".failures{border:2px solid #b91c1c;padding:0 1rem}")
    return ("<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<title>boardgen gallery</title><style>{style}</style></head><body>"
            "<h1>boardgen: boards, diagrams and rule sheets</h1>"
            f"{''.join(sections)}<p>Made by boardgen {__version__}.</p>"
            # A self-check a browser can be asked about: how many pictures failed to load.
            "<script>addEventListener('load',()=>{document.body.dataset.brokenImages="
            "[...document.images].filter(i=>!i.complete||!i.naturalWidth).length;"
            "document.body.dataset.images=document.images.length;});</script>"
            "</body></html>\n")
