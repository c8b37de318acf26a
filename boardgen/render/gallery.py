"""Everything ``boardgen all`` makes, and the gallery page that shows it.

Each job is a file name and a function returning its bytes; the gallery gets a thumbnail
for every file (page 1 of a PDF, the picture of an SVG, the PDF twin of an HTML sheet) and
links to all of them.
"""

from __future__ import annotations

import html
import io
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path

import cairosvg
import pypdfium2

from boardgen import __version__
from boardgen.geometry import hexhex
from boardgen.render.board import BoardOptions, board_info, render_board
from boardgen.render.diagram import diagram_names, render_diagram
from boardgen.render.paper import Paper
from boardgen.render.polygone_figure import render_polygone_board
from boardgen.render.scene import THEMES, Scene, Theme, board_scene
from boardgen.render.sheet import GAME_TITLES, render_sheet_html, render_sheet_pdf
from boardgen.rules import copolymer, o

GAMES = ("copolymer", "o", "polygone")
THUMB_WIDTH_PX = 240


@dataclass(frozen=True)
class Job:
    name: str  # the file name in the output folder
    game: str
    kind: str  # "rules", "board", "diagram"
    make: Callable[[], bytes]


def default_jobs(paper: Paper, theme: Theme = THEMES["colour"]) -> list[Job]:
    options = BoardOptions(paper)
    jobs: list[Job] = []
    for game in GAMES:
        jobs.append(Job(f"{game}-rules.pdf", game, "rules",
                        partial(render_sheet_pdf, game, paper=paper, theme=theme)))
        jobs.append(Job(f"{game}-quick-reference.pdf", game, "rules",
                        partial(render_sheet_pdf, game, paper=paper, theme=theme, quick=True)))
        jobs.append(Job(f"{game}-rules.html", game, "rules",
                        partial(render_sheet_html, game, theme=theme)))
    for preset, side in sorted(copolymer.PRESETS.items(), key=lambda item: item[1]):
        grid = hexhex(side)
        info = board_info("copolymer", grid, f"Copolymer ({preset})")
        for fmt in ("pdf", "svg"):
            jobs.append(Job(f"copolymer-{preset}-side{side}.{fmt}", "copolymer", "board",
                            partial(render_board, Scene(grid), fmt, options, theme=theme,
                                    info=info)))
    for side in range(o.MIN_SIDE, 11):
        grid = hexhex(side)
        info = board_info("o", grid)
        jobs.append(Job(f"o-board-side{side}.pdf", "o", "board",
                        partial(render_board, board_scene("o", grid), "pdf", options,
                                theme=theme, info=info)))
    jobs.append(Job("polygone-board.pdf", "polygone", "board",
                    partial(render_polygone_board, "pdf", paper=paper, theme=theme,
                            spacing=None, dpi=150, title=None)))
    for game in GAMES:
        for name in diagram_names(game):
            for fmt in ("pdf", "svg"):
                jobs.append(Job(f"{game}-diagram-{name}.{fmt}", game, "diagram",
                                partial(render_diagram, game, name, fmt, paper=paper,
                                        theme=theme)))
    return jobs


def thumbnail(path: Path) -> bytes:
    """A small PNG of a file: page 1 of a PDF, or an SVG drawn by CairoSVG."""
    if path.suffix == ".pdf":
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
    png: bytes = cairosvg.svg2png(url=str(path), output_width=THUMB_WIDTH_PX)
    return png


def thumbnail_source(name: str, made: set[str]) -> str | None:
    """The file whose picture stands for ``name`` (an HTML sheet shows its PDF)."""
    if name.endswith(".html"):
        twin = name[: -len(".html")] + ".pdf"
        return twin if twin in made else None
    return name


def gallery_html(jobs: list[Job], made: set[str]) -> str:
    sections = []
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
            sections.append(f"<h2>{html.escape(GAME_TITLES[game])}</h2>"
                            f'<div class="grid">{"".join(cards)}</div>')
    style = ("body{font-family:sans-serif;margin:2rem;color:#1a1a1a}"
             ".grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(250px,1fr));"
             "gap:1rem}.card{display:block;border:1px solid #ddd;padding:.5rem;"
             "text-decoration:none;color:inherit;background:#fff}.card img{width:100%;"
             "height:auto;display:block;margin-bottom:.4rem}.card span{font-size:.85rem}")
    return ("<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<title>boardgen gallery</title><style>{style}</style></head><body>"
            "<h1>boardgen: boards, diagrams and rule sheets</h1>"
            f"{''.join(sections)}<p>Made by boardgen {__version__}.</p>"
            # A self-check a browser can be asked about: how many pictures failed to load.
            "<script>addEventListener('load',()=>{document.body.dataset.brokenImages="
            "[...document.images].filter(i=>!i.complete||!i.naturalWidth).length;"
            "document.body.dataset.images=document.images.length;});</script>"
            "</body></html>\n")
