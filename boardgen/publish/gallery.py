"""Everything ``boardgen all`` makes, and the gallery page that shows it.

Each job is a file name and a function returning its bytes; the gallery gets a thumbnail
for every file (page 1 of a PDF, the picture of an SVG, the PDF twin of an HTML sheet) and
links to all of them.

The jobs are independent, so :func:`run_jobs` spreads them over worker processes (forked:
a job is any function, the workers inherit it); each worker makes the file and its
thumbnail and sends the bytes back, and the parent writes them.  What a job makes depends
on nothing but the job, so the files are the same bytes whatever the number of workers or
the order they finish in.  Every diagram is built once, before the workers start, and
shared with them (boardgen.games.registry.diagrams_memoised).  What the cache of finished
files holds (boardgen.publish.sheet_cache) is read back first, in this process, and only
the rest is built: a second build with nothing changed starts no worker.
"""

from __future__ import annotations

import html
import io
import os
import signal
import threading
from collections.abc import Callable, Generator, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, fields, replace
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from boardgen._version import __version__
from boardgen.errors import BoardgenError, cli_flag, raise_terminated
from boardgen.games.registry import build_diagram, games
from boardgen.geometry import HexGrid
from boardgen.i18n import (
    SOURCE_LANGUAGE,
    language_name,
    language_tag,
    languages,
    speaking,
    tr,
    typography,
)
from boardgen.picture import Diagram, FixedBoard, PageInfo, Scene
from boardgen.publish.drawing import render_diagram
from boardgen.render.board import BoardOptions, build_figure, render_board
from boardgen.render.figure import figures_memoised
from boardgen.render.paper import Paper, content_size
from boardgen.render.scene import THEMES, Theme
from boardgen.text import clip_quotes, printable

if TYPE_CHECKING:
    from concurrent.futures import ProcessPoolExecutor

THUMB_WIDTH_PX = 240


@dataclass(frozen=True)
class Job:
    name: str  # the file name in the output folder
    game: str
    kind: str  # "kit" (the kits and the printer check), "rules", "board", "diagram"
    make: Callable[[], bytes]
    # A PNG of the picture THUMB_WIDTH_PX across, drawn from its figure (SVG files);
    # without it the thumbnail is made from the file's bytes.
    picture: Callable[[], bytes] | None = None
    # Built in the main process, never in a forked worker, if the main process has already
    # used Typst (the rule sheets): Typst keeps a pool of threads, and a process forked
    # from one that has used it hangs on its first compile.  The main process then builds
    # these while the workers build the rest.  Otherwise (boardgen all) the workers build
    # them too: the main process setting the sheets and kits alone finished last (1.34-1.49
    # s against 1.26-1.28 s for all of them on the workers, 2 free cores).
    in_main: bool = False
    lang: str = SOURCE_LANGUAGE  # the language it is made in (boardgen.i18n.speaking)
    # Its file (and thumbnail) go through the cache of finished files
    # (boardgen.publish.sheet_cache): run_jobs reads them back, when the cache holds them,
    # before it decides how many workers the rest need.
    kept: bool = False


def board_stem(game: str, grid: HexGrid) -> str:
    """The file name (without suffix) of a board, the same from ``board`` and ``all``."""
    if grid.shape == "hexhex":
        return f"{game}-side{grid.side}"
    return f"{game}-{grid.shape}{grid.side}"


def diagram_stem(game: str, name: str) -> str:
    """The file name (without suffix) of a diagram, the same from ``diagram`` and ``all``."""
    return f"{game}-diagram-{name}"


def default_jobs(paper: Paper, theme: Theme = THEMES["colour"],
                 langs: Sequence[str] | None = None) -> list[Job]:
    """Every file ``boardgen all`` makes, in each of ``langs`` (default: every language
    boardgen knows).  In a language other than English, the printer check and each game
    that has a sheet in that language (``sheet.LANG.md``), with its boards and diagrams;
    the files are named ``NAME-LANG.pdf``."""
    jobs: list[Job] = []
    for lang in langs if langs is not None else languages():
        with speaking(lang):
            made = _jobs_in_language(paper, theme)
        jobs += [replace(job, name=_language_name(job.name, lang), lang=lang) for job in made
                 if lang == SOURCE_LANGUAGE or not job.game or games()[job.game].speaks(lang)]
    return jobs


def _language_name(name: str, lang: str) -> str:
    """``copolymer-rules.pdf`` in French: ``copolymer-rules-fr.pdf`` (as the commands'
    default names, boardgen.requests.language_stem)."""
    if lang == SOURCE_LANGUAGE:
        return name
    stem, dot, suffix = name.rpartition(".")
    return f"{stem}-{lang}{dot}{suffix}"


def _jobs_in_language(paper: Paper, theme: Theme) -> list[Job]:
    from boardgen.publish.sheet import render_sheet_html
    from boardgen.publish.typeset import render_sheet_pdf

    options = BoardOptions(paper)
    jobs: list[Job] = []
    known = games()
    # The kits first: a player wants them first, and they take longest to build.
    for game, description in known.items():
        if description.has_sheet():
            # In the main process: a kit sets its rule sheets with Typst (see in_main).
            jobs.append(Job(f"{game}-kit.pdf", game, "kit",
                            partial(_kit, game, paper, theme), in_main=True, kept=True))
    jobs.append(Job("calibrate.pdf", "", "kit", partial(_calibration, paper), kept=True))
    for game, description in known.items():
        if not description.has_sheet():
            continue
        jobs.append(Job(f"{game}-rules.pdf", game, "rules",
                        partial(render_sheet_pdf, game, paper=paper, theme=theme),
                        in_main=True, kept=True))
        jobs.append(Job(f"{game}-quick-reference.pdf", game, "rules",
                        partial(render_sheet_pdf, game, paper=paper, theme=theme, quick=True),
                        in_main=True, kept=True))
        jobs.append(Job(f"{game}-rules.html", game, "rules",
                        partial(render_sheet_html, game, theme=theme), kept=True))
    for description in known.values():
        key = description.key
        fixed = description.fixed_board
        if fixed is not None:
            jobs.append(Job(f"{fixed.stem}.pdf", key, "board",
                            partial(_fixed_board, key, fixed, paper, theme,
                                    description.board_info()), kept=True))
        boards = description.hex_boards
        for side, label, formats in boards.gallery if boards else ():
            grid = description.hex_board(side)
            info = description.board_info(grid, f"{description.name} ({label})" if label
                                          else None)
            scene = description.board_scene(grid)
            for fmt in formats:
                jobs.append(Job(f"{board_stem(key, grid)}.{fmt}", key, "board",
                                partial(_board, key, scene, fmt, options, theme, info),
                                partial(_board_picture, key, scene, options, theme, info)
                                if fmt == "svg" else None, kept=True))
    for game, description in known.items():
        for name in description.diagram_names():
            for fmt in ("pdf", "svg"):
                jobs.append(Job(f"{diagram_stem(game, name)}.{fmt}", game, "diagram",
                                partial(render_diagram, game, name, fmt, paper=paper,
                                        theme=theme),
                                partial(_diagram_picture, game, name, paper, theme)
                                if fmt == "svg" else None, kept=True))
    return jobs


def _kit(game: str, paper: Paper, theme: Theme) -> bytes:
    from boardgen.publish.kit import render_kit

    return render_kit(game, paper=paper, theme=theme)


def _calibration(paper: Paper) -> bytes:
    from boardgen.publish.calibrate import render_calibration
    from boardgen.publish.sheet_cache import cached_sheet

    return cached_sheet("calibrate", "", {"paper": paper},
                        partial(render_calibration, paper=paper))


def _fixed_board(game: str, board: FixedBoard, paper: Paper, theme: Theme,
                 info: PageInfo) -> bytes:
    """A game's board of one size (its PDF), kept between builds
    (boardgen.publish.sheet_cache): the key describes the board, paper, theme and page."""
    from boardgen.publish.sheet_cache import cached_sheet

    def drawn() -> bytes:
        from boardgen.render.lattice import render_fixed_board

        return render_fixed_board(board, "pdf", paper=paper, theme=theme, spacing=None,
                                  dpi=150, info=info)

    return cached_sheet("fixed-board-pdf", game, {"board": board, "paper": paper,
                                                  "theme": theme, "info": info}, drawn)


def _board(game: str, scene: Scene, fmt: str, options: BoardOptions, theme: Theme,
           info: PageInfo) -> bytes:
    """A board of ``game``, kept between builds (boardgen.publish.sheet_cache): the key
    describes the whole scene, its options, theme and page."""
    from boardgen.publish.sheet_cache import cached_sheet

    return cached_sheet(f"board-{fmt}", game, _board_request(scene, options, theme, info),
                        partial(render_board, scene, fmt, options, theme=theme, info=info))


def _board_request(scene: Scene, options: BoardOptions, theme: Theme,
                   info: PageInfo) -> dict[str, object]:
    """A board's request as the cache's key reads it: the scene field by field, its grid
    by what it was made from (its cells in order and the arguments of HexGrid)."""
    grid = scene.grid
    described = {field.name: getattr(scene, field.name) for field in fields(scene)}
    described["grid"] = {"cells": grid.cells, "description": grid.description,
                         "shape": grid.shape, "side": grid.side, "notation": grid.notation}
    return {"scene": described, "options": options, "theme": theme, "info": info}


def _board_picture(game: str, scene: Scene, options: BoardOptions, theme: Theme,
                   info: PageInfo) -> bytes:
    from boardgen.publish.sheet_cache import cached_sheet

    return cached_sheet("board-picture", game, {**_board_request(scene, options, theme, info),
                                                "width_px": THUMB_WIDTH_PX},
                        partial(_board_picture_drawn, scene, options, theme, info))


def _board_picture_drawn(scene: Scene, options: BoardOptions, theme: Theme,
                         info: PageInfo) -> bytes:
    from boardgen.render.raster import figure_png

    return figure_png(build_figure(scene, options), theme=theme, title=info.title,
                      width_px=THUMB_WIDTH_PX)


def _diagram_picture(game: str, name: str, paper: Paper, theme: Theme) -> bytes:
    """The picture of the diagram's SVG (one page, as wide as the paper's content), kept
    with the diagram's files (boardgen.publish.sheet_cache)."""
    from boardgen.publish.sheet_cache import cached_sheet

    return cached_sheet("diagram-picture", game, {"name": name, "paper": paper, "theme": theme,
                                                  "width_px": THUMB_WIDTH_PX},
                        partial(_diagram_picture_drawn, game, name, paper, theme))


def _diagram_picture_drawn(game: str, name: str, paper: Paper, theme: Theme) -> bytes:
    from boardgen.render.diagram import diagram_pages
    from boardgen.render.raster import figure_png

    diagram = build_diagram(game, name)
    (figure,) = diagram_pages(diagram, cell_width=diagram.cell_mm,
                              max_width=content_size(paper.size("portrait"))[0],
                              max_height=None)
    return figure_png(figure, theme=theme, width_px=THUMB_WIDTH_PX)


def thumbnail(path: Path) -> bytes:
    """A small PNG of a file: page 1 of a PDF, or an SVG drawn by CairoSVG."""
    return thumbnail_of(path.suffix, path.read_bytes())


def thumbnail_of(suffix: str, data: bytes) -> bytes:
    """A small PNG of a file's contents: page 1 of a PDF, or an SVG drawn by CairoSVG (our
    own SVGs have a Job.picture instead: CairoSVG costs 5-10x drawing the figure).  Kept
    by the bytes' digest between builds (boardgen.publish.sheet_cache.cached_thumbnail)."""
    from boardgen.publish.sheet_cache import cached_thumbnail

    if suffix != ".pdf":  # CairoSVG may draw text with the system's fonts: not in a key
        return _thumbnail_drawn(suffix, data)
    return cached_thumbnail({"suffix": suffix, "width_px": THUMB_WIDTH_PX}, data,
                            partial(_thumbnail_drawn, suffix, data))


def _thumbnail_drawn(suffix: str, data: bytes) -> bytes:
    if suffix == ".pdf":
        import pypdfium2

        document = pypdfium2.PdfDocument(data)
        try:
            page = document[0]
            scale = THUMB_WIDTH_PX / page.get_width()
            image = page.render(scale=scale).to_pil()
        finally:
            document.close()
        buffer = io.BytesIO()
        image.save(buffer, format="PNG")  # optimize=True: 5% smaller, 10x the time
        return buffer.getvalue()
    # From the bytes, not the path: CairoSVG reads a path as a URL, which a folder named
    # with '#', '?' or a control character breaks.
    from boardgen.render.cairolib import cairocffi

    cairocffi()  # before CairoSVG imports it, without its library search
    import cairosvg

    png: bytes = cairosvg.svg2png(bytestring=data, output_width=THUMB_WIDTH_PX)
    return png


# --- running the jobs ------------------------------------------------------------------


def default_workers() -> int:
    """All the cores this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def _one_line(text: str) -> str:
    return clip_quotes(" ".join(part.strip() for part in text.strip().splitlines()
                                if part.strip()))


def why_failed(exc: BaseException) -> str:
    """One line saying why a job failed."""
    if isinstance(exc, BoardgenError):
        return _one_line(exc.worded(cli_flag))  # `boardgen all` is the command line's
    if isinstance(exc, MemoryError):
        return "out of memory: this machine could not hold the work"
    if isinstance(exc, OSError):
        return f"{exc.strerror or exc}" + (f" ({exc.filename})" if exc.filename else "")
    return _one_line(f"unexpected {type(exc).__name__}: {exc} (a bug in boardgen; please "
                     "report it)")


@dataclass(frozen=True)
class Built:
    """What one job made: the file's bytes and its thumbnail's, or why not."""

    index: int
    data: bytes | None
    thumb: bytes | None
    failures: tuple[str, ...]


def build(job: Job, index: int) -> Built:
    """Make one job's file and its thumbnail; a failure, whatever it is, is reported, not
    raised (one job's failure stops no other)."""
    try:
        with speaking(job.lang):
            data = job.make()
    except Exception as exc:
        return Built(index, None, None, (f"{job.name}: {why_failed(exc)}",))
    if job.name.endswith(".html"):  # shown by its PDF twin's thumbnail
        return Built(index, data, None, ())
    try:
        with speaking(job.lang):
            thumb = job.picture() if job.picture is not None else \
                thumbnail_of(Path(job.name).suffix, data)
    except Exception as exc:
        return Built(index, data, None, (f"thumbnail of {job.name}: {why_failed(exc)}",))
    return Built(index, data, thumb, ())


def _built_diagram(key: tuple[str, str]) -> Diagram | None:
    try:
        return build_diagram(*key)
    except Exception:  # reported by the jobs that draw it, which build it again
        return None


def build_all_diagrams(workers: int, at_most: int | None = None) -> None:
    """Build every built-in diagram once, in this process, into the open memo
    (boardgen.games.registry.diagrams_memoised), before the jobs that draw them start (the
    workers inherit them).  ``workers`` and ``at_most`` (the jobs that will use them) are
    no longer needed: forking a pool to build them took 0.05-0.07 s of wall time against
    0.026 s for building them all here (every built-in diagram, on the development
    machine)."""
    del workers, at_most
    for key, game in games().items():
        for name in game.diagram_names():
            _built_diagram((key, name))


def _warm_imports() -> None:
    """Import the writers' libraries once, before forking, instead of once per worker."""
    import pypdfium2  # noqa: F401
    import typst  # noqa: F401
    from PIL import Image  # noqa: F401

    import boardgen.publish.sheet  # noqa: F401
    import boardgen.publish.typeset  # noqa: F401
    import boardgen.render.diagram  # noqa: F401
    import boardgen.render.raster  # noqa: F401
    import boardgen.render.svg  # noqa: F401
    from boardgen.render.cairolib import cairocffi

    cairocffi()  # without its library search


# --- the worker processes ------------------------------------------------------------------
#
# Workers end with their parent, however it ends: the parent kills them when it stops early
# (an exception, Ctrl-C, or SIGTERM, which it turns into Terminated while they run), and the
# kernel sends each SIGTERM when the parent dies (prctl PR_SET_PDEATHSIG, Linux), so that
# none is left holding a pipeline's stdout and stderr open.  Workers ignore Ctrl-C: the
# terminal sends it to the whole process group, and the parent alone answers it, in one
# line, without a worker's traceback.


_PARENT: list[int] = []  # the pid of the process that starts the pool, for its workers
_PR_SET_PDEATHSIG = 1  # linux/prctl.h


def _can_fork() -> bool:
    import multiprocessing

    return "fork" in multiprocessing.get_all_start_methods()


def _start_worker() -> None:
    """Run first in each worker: leave Ctrl-C to the parent, and die with it."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    # Forked while the parent held them (_signals_held): let them through now.
    signal.pthread_sigmask(signal.SIG_UNBLOCK, _HELD_SIGNALS)
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, int(signal.SIGTERM), 0, 0, 0)
    except (OSError, AttributeError):  # not Linux: the parent's own clean-up only
        pass
    if _PARENT and os.getppid() != _PARENT[-1]:  # the parent died before prctl took
        os._exit(1)


@contextmanager
def terminated_on_sigterm() -> Iterator[None]:
    """While inside, SIGTERM raises Terminated (in the main thread; elsewhere nothing
    changes), so that what is running ends its workers and says so in one line."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGTERM, raise_terminated)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


_HELD_SIGNALS = frozenset({signal.SIGINT, signal.SIGTERM})


def _no_work() -> None:
    """A job that does nothing: submitting it forks every worker of the pool."""


@contextmanager
def _signals_held() -> Iterator[None]:
    """Ctrl-C and SIGTERM wait (blocked in the kernel) while the workers are forked: a
    signal whose handler ran inside fork()'s own handlers was lost ("Exception ignored in
    _releaseLock ... KeyboardInterrupt") and the build went on.  They arrive on leaving."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    signal.pthread_sigmask(signal.SIG_BLOCK, _HELD_SIGNALS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, _HELD_SIGNALS)


@contextmanager
def worker_pool(workers: int) -> Iterator[ProcessPoolExecutor]:
    """A pool of ``workers`` forked processes (all started at once) that end with this one
    (see above).  A worker that dies (killed, out of memory) breaks the pool, which then
    fails its jobs instead of waiting for them forever."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    _PARENT.append(os.getpid())
    try:
        with terminated_on_sigterm():
            pool = ProcessPoolExecutor(max_workers=workers, initializer=_start_worker,
                                       mp_context=multiprocessing.get_context("fork"))
            try:
                with _signals_held():
                    pool.submit(_no_work)  # every worker forked now, signals held
                yield pool
            except BaseException:
                _end_workers(pool)
                raise
            pool.shutdown(wait=True)
    finally:
        _PARENT.pop()


def _end_workers(pool: ProcessPoolExecutor) -> None:
    """Stop the pool at once: its workers sent SIGTERM, and waited for."""
    # The pool's processes: concurrent.futures has no public list before Python 3.14
    # (terminate_workers); _processes has held them, pid to process, since 3.2.
    workers = list((getattr(pool, "_processes", None) or {}).values())
    for process in workers:
        process.terminate()
    pool.shutdown(wait=False, cancel_futures=True)
    for process in workers:
        process.join(timeout=10)


_WORK: list[Job] = []  # the jobs of the running pool, inherited by its forked workers


def _build_in_worker(index: int) -> Built:
    return build(_WORK[index], index)


def run_jobs(jobs: Sequence[Job], workers: int,
             prepare: Callable[[], None] | None = None) -> Generator[Built, None, None]:
    """Build every job, on ``workers`` processes (never more than there are jobs left to
    build); yields each as it is done (in any order).  The jobs whose files the cache of
    finished files holds are read back first, here (:func:`read_back`), and workers are
    forked only for the rest, if two or more are left: a build with everything kept forks
    nothing.  ``prepare`` runs once before the first job is built (not when every job was
    read back): the command's diagrams built before the workers fork.  Workers are forked
    so that a job can be any function, even a test's closure.  Each panel figure is built
    once a process (boardgen.render.figure.figures_memoised)."""
    from boardgen.publish.sheet_cache import trees_read_once

    # Each panel built once a process (forked workers inherit it); the cache's keys read
    # boardgen's files once between two files made.
    with figures_memoised(), trees_read_once():
        left: list[int] = []
        for index, built in read_back(jobs):
            if built is None:
                left.append(index)
            else:
                yield built
        if not left:
            return
        if prepare is not None:
            prepare()
        yield from _run_jobs(jobs, left, workers)


# Jobs read back one after another before the first is found in the cache: when that many
# are not there (a first build, or boardgen changed), the others are not looked for either.
_MISSES_BEFORE_GIVING_UP = 4


def read_back(jobs: Sequence[Job]) -> Iterator[tuple[int, Built | None]]:
    """Each job's index and what it made if the cache of finished files holds its file
    and thumbnail (Job.kept), else None: the same bytes as building it, nothing made."""
    from boardgen.publish.sheet_cache import sheet_cache_folder

    looking = sheet_cache_folder() is not None
    found = missed = 0
    for index, job in enumerate(jobs):
        built = _read_back(job, index) if looking and job.kept else None
        if job.kept and looking:
            found += built is not None
            missed += built is None
            looking = bool(found) or missed < _MISSES_BEFORE_GIVING_UP
        yield index, built


def _read_back(job: Job, index: int) -> Built | None:
    from boardgen.publish.sheet_cache import NotKept, kept_only

    try:
        with kept_only(), speaking(job.lang):
            data = job.make()
            thumb = None if job.name.endswith(".html") else \
                job.picture() if job.picture is not None else \
                thumbnail_of(Path(job.name).suffix, data)
    except (NotKept, Exception):  # not kept (or a failure: the build says what it is)
        return None
    return Built(index, data, thumb, ())


def _run_jobs(jobs: Sequence[Job], indices: Sequence[int],
              workers: int) -> Generator[Built, None, None]:
    from boardgen.publish.typeset import typesetter_used

    in_main = {index: jobs[index].in_main and typesetter_used() for index in indices}
    pooled = [index for index in indices if not in_main[index]]
    if min(workers, len(indices)) <= 1 or not pooled or not _can_fork():
        for index in indices:
            yield build(jobs[index], index)
        return
    from concurrent.futures import as_completed
    from concurrent.futures.process import BrokenProcessPool

    _warm_imports()
    _WORK[:] = jobs
    try:
        with worker_pool(min(workers, len(pooled))) as pool:
            # Submitting forks every worker at once, so that all of them are forked before
            # the main process sets its first sheet (see Job.in_main).
            futures = {pool.submit(_build_in_worker, index): index for index in pooled}
            for index in indices:
                if in_main[index]:
                    yield build(jobs[index], index)
            for future in as_completed(futures):
                try:
                    built = future.result()
                except BrokenProcessPool:  # a worker was killed: its job and the rest fail
                    index = futures[future]
                    built = Built(index, None, None, (f"{jobs[index].name}: a worker process "
                                                      "died (out of memory?)",))
                yield built
    finally:
        _WORK.clear()


def thumbnail_source(name: str, made: set[str]) -> str | None:
    """The file whose picture stands for ``name`` (an HTML sheet shows its PDF)."""
    if name.endswith(".html"):
        twin = name[: -len(".html")] + ".pdf"
        return twin if twin in made else None
    return name


def _card(job: Job, made: set[str]) -> str:
    source = thumbnail_source(job.name, made)
    image = f'<img src="thumbs/{html.escape(source)}.png" alt="">' if source else ""
    return (f'<a class="card {job.kind}" href="{html.escape(job.name)}">{image}'
            f"<span>{html.escape(job.name)}</span></a>")


def _gallery_part(jobs: list[Job], made: set[str], level: int) -> str:
    """The kits first, then each game's files, in the current language."""
    sections = []
    kits = [_card(job, made) for job in jobs if job.kind == "kit" and job.name in made]
    calibrate = next((job.name for job in jobs if job.kind == "kit" and not job.game),
                     "calibrate.pdf")
    if kits:
        said = typography(tr("One file per game with everything to play; print {check} "
                             "first to check the printer.").format(check=calibrate))
        heading = tr("Print and play")
        sections.append(f"<h{level}>{html.escape(heading)}</h{level}>"
                        f"<p>{html.escape(said)}</p>"
                        f'<div class="grid">{"".join(kits)}</div>')
    for game, description in games().items():
        cards = []
        for job in jobs:
            if job.game != game or job.name not in made or job.kind == "kit":
                continue
            cards.append(_card(job, made))
        if cards:
            sections.append(f"<h{level}>{html.escape(description.name)}</h{level}>"
                            f'<div class="grid">{"".join(cards)}</div>')
    return "".join(sections)


def gallery_html(jobs: list[Job], made: set[str], failures: Sequence[str] = ()) -> str:
    """The gallery page: a card per file made, and a list of what failed, if anything."""
    sections = []
    # The page speaks English when it lists English files, else the first language built.
    langs = list(dict.fromkeys(job.lang for job in jobs))
    page_lang = SOURCE_LANGUAGE if SOURCE_LANGUAGE in langs or not langs else langs[0]
    with speaking(page_lang):
        not_built, title = tr("Not built"), tr("boardgen gallery")
        heading = typography(tr("boardgen: boards, diagrams and rule sheets"))
        made_by = tr("Made by boardgen {version}.").format(version=__version__)
    if failures:
        # A failure's message may quote a path, which may hold control characters.
        items = "".join(f"<li>{html.escape(printable(failure))}</li>" for failure in failures)
        sections.append(f'<section class="failures"><h2>{html.escape(not_built)}</h2>'
                        f"<ul>{items}</ul></section>")
    for lang in langs:
        # English as the page always had it; each other language after it, under its own
        # heading, in its own words (lang="...").
        with speaking(lang):
            part = _gallery_part([job for job in jobs if job.lang == lang], made,
                                 level=2 if lang == page_lang else 3)
        if lang == page_lang:
            sections.append(part)
        elif part:
            sections.append(f'<section lang="{language_tag(lang)}"><h2>'
                            f"{html.escape(language_name(lang))}</h2>{part}</section>")
    style = ("body{font-family:sans-serif;margin:2rem;color:#1a1a1a}"
             ".grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(250px,1fr));"
             "gap:1rem}.card{display:block;border:1px solid #ddd;padding:.5rem;"
             "text-decoration:none;color:inherit;background:#fff}.card img{width:100%;"
             "height:auto;display:block;margin-bottom:.4rem}.card span{font-size:.85rem}"
             ".failures{border:2px solid #b91c1c;padding:0 1rem}")
    page_tag = "en" if page_lang == SOURCE_LANGUAGE else language_tag(page_lang)
    return (f"<!doctype html>\n<html lang=\"{page_tag}\"><head><meta charset=\"utf-8\">"
            f"<title>{html.escape(title)}</title><style>{style}</style></head><body>"
            f"<h1>{html.escape(heading)}</h1>"
            f"{''.join(sections)}<p>{html.escape(made_by)}</p>"
            # A self-check a browser can be asked about: how many pictures failed to load.
            "<script>addEventListener('load',()=>{document.body.dataset.brokenImages="
            "[...document.images].filter(i=>!i.complete||!i.naturalWidth).length;"
            "document.body.dataset.images=document.images.length;});</script>"
            "</body></html>\n")
