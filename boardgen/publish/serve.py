"""``boardgen serve``: a page on 127.0.0.1 that redraws a folder's diagram files at every save.

Routes (everything else is 404):

- ``GET /``: the page (:mod:`boardgen.publish.serve_page`), static HTML and script.
- ``GET /files``: the folder's diagram files as JSON.
- ``GET /diagram/PATH?theme=&paper=&format=svg|pdf|png[&download=1][&last=good]``: the file
  drawn as ``boardgen diagram FILE`` draws it (200), or the loader's one-line error,
  ``PATH:LINE: reason``, as text (422).  ``last=good`` answers the last drawing of the file
  that succeeded in this run, so that a page opened on a broken file still has one to show.
- ``GET /animation/PATH?theme=&format=svg|html``: the file's lines of play in motion, as
  ``boardgen diagram FILE --animate`` draws them (an animated SVG, line after line), or that
  SVG in a small HTML page with its Pause and Play again controls (no script), which the
  page shows in a frame; the same checks, limits and answers as ``/diagram/``.
- ``GET /source/PATH``: the file's text, for the page's view of the offending line.
- ``GET /events``: Server-Sent Events, one ``change`` event naming the files (relative
  paths) each time files are saved, added or removed.

Safety: PATH is percent-decoded once and must name a regular file inside the folder that
the list shows (a file with a 'game:' line); ``..``, ``.``, hidden names, backslashes,
absolute paths, links that lead out of the folder, and the folder's other files are 404.
A file is only ever read and parsed, never run.  The work of a request is bounded by the
command line's own limits, because the same loader draws it (file size, panels, board size,
solved claims), and drawings are made one at a time.  A file is drawn from one consistent
read of it, taken once it has not changed for QUIET_S, or at once if no process has it
open for writing (Linux: a read lease) and shown only if it stayed so EARLY_GRACE_S after
its last change, so a save caught half way is not drawn as a finished diagram (a file
still changing after SETTLE_LIMIT_S is answered 503, "being saved", and the page asks
again).

Other sites: a request is answered only when its Host is this server's own (one Host
header, 127.0.0.1 or localhost with the port; without it on port 80), and when the browser
says it comes from this page (``Sec-Fetch-Site`` same-origin, or none for an address typed
or a bookmark; an ``Origin`` of this server's).  So another site's page cannot make it draw
or learn which files exist, not even through an ``<img>``'s load and error events.  A
link from elsewhere may open the page itself (it holds no data).

Load: at most MAX_CONNECTIONS connections at once (more are closed at once); a connection
idle for IDLE_TIMEOUT_S is closed; an event stream's slot is freed as soon as its page goes.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import http.server
import json
import os
import queue
import re
import select
import shutil
import signal
import socket
import socketserver
import stat
import sys
import tempfile
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Literal, TypeVar
from urllib.parse import parse_qs, unquote, urlsplit

from boardgen.errors import BoardgenError, raise_terminated
from boardgen.games.registry import games, load_diagram_file
from boardgen.picture import Diagram, diagram_animation
from boardgen.publish.animation_html import animation_figure
from boardgen.publish.drawing import draw_game_diagram
from boardgen.publish.serve_page import PAGE_HTML, PAGE_POLICY
from boardgen.render.animation import render_animation
from boardgen.render.paper import parse_paper
from boardgen.render.scene import THEMES, theme_named
from boardgen.text import MAX_INPUT_BYTES, shown_path

HOST = "127.0.0.1"
DEFAULT_PORT = 8000
PORTS_TRIED = 20  # without --port: 8000, or the next free one up to 8019
# A file modified less than this long ago may be in the middle of a save: wait for quiet,
# unless no process has it open for writing (read_saved).  70 ms: more than twice the
# pauses of the saves in parts the tests make (20-30 ms).
QUIET_S = 0.07
# The watcher announces changes once none came for this long: a save reaches the page
# 10-20 ms after it (50 ms was 50-100 ms, most of a save's way to the page, once the quiet
# time is not waited for).  A save in parts with longer pauses is announced more than once:
# the page asks again each time, and is answered once the save is over.
WATCH_STEP_MS = 10
# A file read early (no writer had it open) is shown only once it has stayed as read for
# this long after its last change, waited out while it is drawn: a save made through two
# openings of the file (written and closed, then opened again to add the rest) with the
# second this soon after the first is not shown half (30 ms pauses in the review's saves).
EARLY_GRACE_S = 0.045
SETTLE_LIMIT_S = 2.0  # ... but never longer than this (a file rewritten without pause)
GAME_LINE_BYTES = 65_536  # a file is listed if a 'game:' line is in its first 64 KiB
MAX_VISITED = 20_000  # folder entries looked at for the list; more: the list says so
MAX_SUBSCRIBERS = 32  # open event streams (each holds a thread)
MAX_CONNECTIONS = 64  # connections served at once (each holds a thread)
IDLE_TIMEOUT_S = 10.0  # a request not sent whole, or an answer not taken, in this long: closed
# A request's head (its request line and headers) must have come whole this long after the
# connection was taken, however it trickles in (IDLE_TIMEOUT_S is per read: a header line
# every 9 s would hold a slot for ever, and 64 such would hold them all).
HEAD_DEADLINE_S = 10.0
POLL_S = 0.5  # how often the folder is walked when the OS's notifications fail
GONE_POLL_S = 0.5  # how often an event stream checks that its page is still there
MISSING_GRACE_S = 0.3  # a listed file missing for a moment (an editor's save): asked again
CACHE_ENTRIES = 64
KEEPALIVE_S = 15.0
IGNORED_FOLDERS = frozenset({"__pycache__", "node_modules"})  # and every hidden name
DEFAULT_THEME = "colour"
DEFAULT_PAPER = "a4"
Format = Literal["svg", "pdf", "png", "moving-svg", "moving-html"]
CONTENT_TYPES: dict[str, str] = {"svg": "image/svg+xml", "pdf": "application/pdf",
                                 "png": "image/png"}
MOVING_TYPES: dict[str, str] = {"svg": "image/svg+xml", "html": "text/html; charset=utf-8"}
# The animation's page is shown in a frame of ours only; it runs nothing.
MOVING_PAGE_POLICY = "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'self'"
MOVING_PAGE_STYLE = ("body{margin:0;padding:.5rem .75rem;font:15px/1.45 system-ui,sans-serif;"
                     "color:#1f2328;background:#fff}figure{margin:0}label{margin-right:1rem}"
                     ".picture svg{display:block;width:100%;max-width:36rem;height:auto}")
TEXT = "text/plain; charset=utf-8"
# A drawing opened on its own cannot run or fetch anything (ours holds no script anyway).
DRAWING_POLICY = "default-src 'none'; style-src 'unsafe-inline'; img-src data:"
_T = TypeVar("_T")
# Where a request says it comes from: each at most once (as Host).
_ORIGIN_HEADERS = ("Origin", "Sec-Fetch-Site", "Sec-Fetch-Mode")
_GAME_LINE = re.compile(r"^\s*game\s*:\s*(\S+)\s*$", re.IGNORECASE | re.MULTILINE)


@dataclass(frozen=True)
class Answer:
    """One HTTP response, built whole before a byte is sent."""

    status: int
    content_type: str
    body: bytes
    headers: tuple[tuple[str, str], ...] = ()


def text_answer(status: int, message: str) -> Answer:
    return Answer(status, TEXT, (message + "\n").encode("utf-8"))


NOT_FOUND = text_answer(404, "not found")


class NotServed(Exception):
    """The path does not name a regular file inside the folder (404, whatever the reason)."""


class BeingSaved(Exception):
    """The file kept changing for SETTLE_LIMIT_S: no whole version of it to draw (503)."""


BEING_SAVED = Answer(503, TEXT, b"the file is being saved; ask again\n", (("Retry-After", "1"),))


# --- paths --------------------------------------------------------------------------------

def resolve_inside(root: Path, encoded: str) -> tuple[str, Path]:
    """The file a URL path (still percent-encoded, after the route's prefix) names inside
    ``root`` (itself resolved): its relative name as the page shows it, and its real path.
    Raises NotServed for anything that is not a regular file inside ``root``."""
    try:
        text = unquote(encoded, errors="strict")
    except UnicodeDecodeError:
        raise NotServed(encoded) from None
    if not text or text.startswith("/") or "\\" in text or "\x00" in text:
        raise NotServed(text)
    parts = text.split("/")
    # '', '.', '..' and hidden names alike: the list never shows them, so nothing asks.
    if any(not part or part.startswith(".") for part in parts):
        raise NotServed(text)
    try:
        real = root.joinpath(*parts).resolve(strict=True)
        mode = real.stat().st_mode
    except (OSError, RuntimeError):
        raise NotServed(text) from None
    if not real.is_relative_to(root) or not stat.S_ISREG(mode):
        raise NotServed(text)
    return "/".join(parts), real


def read_settled(path: Path) -> bytes:
    """The file's bytes from one read that nothing changed under, taken once the file has
    been quiet for QUIET_S (never before: a file saved in parts is quiet only once whole,
    however long that takes); at most MAX_INPUT_BYTES + 1 bytes, so that the loader refuses a
    larger file as the command line does.  A file still changing after SETTLE_LIMIT_S
    raises BeingSaved (never a read taken while it changed); one missing for a moment (an
    editor that removes and writes again) is looked for again until then."""
    return _read(path, early=False)[0]


def read_saved(path: Path) -> tuple[bytes, bool]:
    """:func:`read_settled`, or sooner: a file changed less than QUIET_S ago is read at once
    if no process has it open for writing (its save is over: an editor, or a program, that
    saves in parts keeps the file open until the last part).  Also the bytes of one read
    that nothing changed under.  Returns the bytes and whether they were read after the
    quiet time (False: read early); what is read early and cannot be drawn is to be read
    again with :func:`read_settled` before it is shown as a problem (a save made through
    two openings of the file, caught between them)."""
    data, settled, _ = _read(path, early=True)
    return data, settled


_READ_FLAGS = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0) | \
    getattr(os, "O_CLOEXEC", 0)


def _read(path: Path, *, early: bool) -> tuple[bytes, bool, os.stat_result]:
    """The bytes, whether they were read once quiet, and the file's state they were read in."""
    deadline = time.monotonic() + SETTLE_LIMIT_S
    while True:
        try:
            before = os.stat(path)
            age = time.time() - before.st_mtime_ns / 1e9
            if 0 <= age < QUIET_S:  # changed a moment ago: perhaps half saved
                if early:
                    unwritten = _read_unwritten(path, before)
                    if unwritten is not None:
                        return unwritten, False, before
                if time.monotonic() >= deadline:
                    raise BeingSaved(str(path))
                time.sleep(QUIET_S - age)
                continue
            descriptor = os.open(path, _READ_FLAGS)  # a link put in its place since: refused
            with os.fdopen(descriptor, "rb") as handle:
                opened = os.fstat(handle.fileno())
                if not stat.S_ISREG(opened.st_mode):
                    raise NotServed(str(path))
                data = handle.read(MAX_INPUT_BYTES + 1)
                read = os.fstat(handle.fileno())
            after = os.stat(path)
        except FileNotFoundError:
            if time.monotonic() >= deadline:
                raise NotServed(str(path)) from None
            time.sleep(0.02)
            continue
        except OSError:
            raise NotServed(str(path)) from None
        if _whole(data, before, opened, read, after):
            return data, True, after
        if time.monotonic() >= deadline:
            raise BeingSaved(str(path))
        time.sleep(0.02)


def _whole(data: bytes, before: os.stat_result, opened: os.stat_result,
           read: os.stat_result, after: os.stat_result) -> bool:
    """True if nothing changed the file around its read and the read took all of it."""
    versions = {_version(before), _version(opened), _version(read), _version(after)}
    return len(versions) == 1 and (len(data) == opened.st_size or len(data) > MAX_INPUT_BYTES)


def _no_writer(path: Path) -> bool:
    """True if no process has the file open for writing (a read lease is granted), False if
    one has or leases are not to be had."""
    return _read_unwritten(path, os.stat(path), read=False) is not None


def _read_unwritten(path: Path, before: os.stat_result, *, read: bool = True
                    ) -> bytes | None:
    """The file's bytes if no process has it open for writing, read under a read lease
    (Linux: the kernel refuses one while a writer has the file open, and a writer's open
    waits until it is given back, so no save starts during the read), else None: a writer
    has it open, or leases are not to be had (another system, another user's file, a file
    system without them).  A writer's open breaking the lease signals this process: with
    SIGURG, which is ignored unless handled, instead of SIGIO, which would end it."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not a POSIX system
        return None
    set_lease = getattr(fcntl, "F_SETLEASE", None)
    set_signal = getattr(fcntl, "F_SETSIG", None)
    if set_lease is None or set_signal is None:  # pragma: no cover - not Linux
        return None
    descriptor = os.open(path, _READ_FLAGS)
    try:
        opened = os.fstat(descriptor)
        if not stat.S_ISREG(opened.st_mode):
            raise NotServed(str(path))
        try:
            fcntl.fcntl(descriptor, set_signal, signal.SIGURG)
            fcntl.fcntl(descriptor, set_lease, fcntl.F_RDLCK)
        except OSError:
            return None
        try:
            parts: list[bytes] = []
            size = 0
            while read and size <= MAX_INPUT_BYTES:
                part = os.read(descriptor, MAX_INPUT_BYTES + 1 - size)
                if not part:
                    break
                parts.append(part)
                size += len(part)
            read_state = os.fstat(descriptor)
            after = os.stat(path)
        finally:
            fcntl.fcntl(descriptor, set_lease, fcntl.F_UNLCK)
    finally:
        os.close(descriptor)
    data = b"".join(parts)
    if not read:
        return data
    return data if _whole(data, before, opened, read_state, after) else None


def _version(info: os.stat_result) -> tuple[int, int, int, int, int]:
    return info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns, info.st_ctime_ns


def _hidden(name: str) -> bool:
    return name.startswith(".") or name in IGNORED_FOLDERS


def walk_folder(root: Path) -> Iterator[tuple[Path, list[tuple[str, bool]]]]:
    """Each folder under ``root`` (``root`` first, then depth first, in name order) with
    the names in it that are not hidden, folders (True) and files alike (so that a folder
    counts as an entry looked at, as a file does).  Without recursion, so that a folder 1,100 deep
    is walked as one 1 deep is; a folder that cannot be read (another user's, 0700) is
    passed by and the others are still walked; links to folders are not followed."""
    stack = [root]
    while stack:
        folder = stack.pop()
        try:
            with os.scandir(folder) as entries:
                shown = sorted((entry.name, entry.is_dir(follow_symlinks=False))
                               for entry in entries if not _hidden(entry.name))
        except OSError:
            continue
        yield folder, shown
        stack.extend(folder / name for name, is_folder in reversed(shown) if is_folder)


@dataclass(frozen=True)
class Listing:
    files: tuple[tuple[str, str], ...]  # (relative path, what its 'game:' line says)
    truncated: bool


class FileFinder:
    """The folder's diagram files: every file whose 'game:' line names one of our games,
    or any ``.txt`` file with a 'game:' line (so that a misspelt game still shows, with its
    error).  Hidden files and folders are skipped, and links that lead out of the folder;
    what each file says is remembered until it changes."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._known: dict[str, tuple[tuple[int, ...], str | None]] = {}
        self._lock = threading.Lock()  # over _known only, never across a read

    def listing(self) -> Listing:
        return self._walk()

    def _walk(self) -> Listing:
        found: list[tuple[str, str]] = []
        seen: set[str] = set()
        visited = 0
        truncated = False
        for folder, names in walk_folder(self.root):
            for name, is_folder in names:
                visited += 1
                if visited > MAX_VISITED:
                    truncated = True
                    break
                if is_folder:
                    continue
                path = folder / name
                relative = path.relative_to(self.root).as_posix()
                game = self._game_of(relative, path)
                seen.add(relative)
                if game is not None:
                    found.append((relative, game))
            if truncated:
                break
        with self._lock:
            for gone in set(self._known) - seen:
                del self._known[gone]
        return Listing(tuple(sorted(found)), truncated)

    def _game_of(self, relative: str, path: Path) -> str | None:
        try:
            real = path.resolve(strict=True)
            info = real.stat()
        except (OSError, RuntimeError):
            return None
        if not real.is_relative_to(self.root) or not stat.S_ISREG(info.st_mode):
            return None
        version = _version(info)
        with self._lock:
            known = self._known.get(relative)
        if known is not None and known[0] == version:
            return known[1]
        game = None
        try:
            # Non-blocking, and a regular file only: a name that became a pipe since the
            # stat() must not hang the list (opening a pipe waits for a writer).
            descriptor = os.open(real, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
            with os.fdopen(descriptor, "rb") as handle:
                if stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
                    game = said_game(handle.read(GAME_LINE_BYTES), path.name)
        except OSError:
            game = None
        with self._lock:
            self._known[relative] = (version, game)
        return game


def said_game(data: bytes, name: str) -> str | None:
    """What the file's first 'game:' line (in its first GAME_LINE_BYTES) says, if the file
    is one the page lists: the line names one of our games, or the file is a .txt file.
    Only such files are drawn or shown, so that the server reveals nothing of the folder's
    other files."""
    head = data[:GAME_LINE_BYTES].decode("utf-8-sig", errors="replace")
    found = _GAME_LINE.search(head)
    if found is None:
        return None
    said = found.group(1).lower()
    return said if said in games() or name.lower().endswith(".txt") else None


# --- drawing ------------------------------------------------------------------------------

class Drawer:
    """Draws files one at a time (an engine's work is bounded per drawing, and so the
    machine's is), from a private copy of one settled read of each file, and remembers the
    answer until the file's bytes change."""

    def __init__(self, root: Path, snapshots: Path) -> None:
        self.root = root
        self.snapshots = snapshots
        self._lock = threading.Lock()
        self._answers: OrderedDict[tuple[str, ...], tuple[bytes, Answer]] = OrderedDict()
        self._last_good: OrderedDict[tuple[str, ...], Answer] = OrderedDict()

    def draw(self, relative: str, data: bytes, fmt: Format, theme: str, paper: str) -> Answer:
        """The file drawn from ``data``, one settled read of it (:func:`read_settled`)."""
        digest = hashlib.sha256(data).digest()
        key = (relative, fmt, theme, paper)
        with self._lock:
            remembered = self._answers.get(key)
            if remembered is not None and remembered[0] == digest:
                return remembered[1]
            answer = self._draw_copy(relative, data, fmt, theme, paper)
            if fmt in ("svg", "moving-html"):  # what the page shows; downloads: each time
                _remember(self._answers, key, (digest, answer))
                if answer.status == 200:
                    _remember(self._last_good, key, answer)
            return answer

    def last_good(self, relative: str, fmt: Format, theme: str, paper: str) -> Answer:
        with self._lock:
            return self._last_good.get((relative, fmt, theme, paper), NOT_FOUND)

    def _draw_copy(self, relative: str, data: bytes, fmt: Format, theme: str,
                   paper: str) -> Answer:
        # The loader reads a file by its path, more than once: it is given a copy that no
        # save can change under it, named as the file is (its name is the default title).
        folder = self.snapshots / hashlib.sha256(relative.encode("utf-8")).hexdigest()[:20]
        folder.mkdir(parents=True, exist_ok=True)
        copy = folder / Path(relative).name
        copy.write_bytes(data)
        try:
            game, built = load_diagram_file(copy)
            if fmt in ("moving-svg", "moving-html"):
                return self._animate(built, fmt, theme)
            body = draw_game_diagram(game, copy.stem, built, fmt, paper=parse_paper(paper),
                                     theme=theme_named(theme))
        except BoardgenError as exc:
            # One line, as the command line prints it, naming the file as the page does.
            lines = str(exc).replace(str(copy), relative).splitlines()
            return text_answer(422, " ".join(line.strip() for line in lines if line.strip()))
        return Answer(200, CONTENT_TYPES[fmt], body,
                      (("Content-Security-Policy", DRAWING_POLICY),))


    @staticmethod
    def _animate(built: Diagram, fmt: Format, theme: str) -> Answer:
        """The diagram's lines, one after another, as ``diagram FILE --animate`` draws them
        (an animated SVG), or in a page with its controls."""
        svg = render_animation(diagram_animation(built), "svg", theme=theme_named(theme))
        if fmt == "moving-svg":
            return Answer(200, MOVING_TYPES["svg"], svg,
                          (("Content-Security-Policy", DRAWING_POLICY),))
        text = svg.decode("utf-8")
        title = re.search(r"<title>(.*?)</title>", text, re.S)
        page = ('<!doctype html><html lang="en"><head><meta charset="utf-8">'
                f"<title>{title.group(1) if title else 'In motion'}</title>"
                f"<style>{MOVING_PAGE_STYLE}</style></head><body>"
                f'{animation_figure(text, "lines")}</body></html>\n')
        return Answer(200, MOVING_TYPES["html"], page.encode("utf-8"),
                      (("Content-Security-Policy", MOVING_PAGE_POLICY),))


def _remember(store: OrderedDict[tuple[str, ...], _T], key: tuple[str, ...], value: _T) -> None:
    store[key] = value
    store.move_to_end(key)
    while len(store) > CACHE_ENTRIES:
        store.popitem(last=False)


# --- change events ------------------------------------------------------------------------

class Announcer:
    """Hands each change to every open event stream."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._streams: list[queue.SimpleQueue[bytes]] = []

    def subscribe(self) -> queue.SimpleQueue[bytes] | None:
        with self._lock:
            if len(self._streams) >= MAX_SUBSCRIBERS:
                return None
            stream: queue.SimpleQueue[bytes] = queue.SimpleQueue()
            self._streams.append(stream)
            return stream

    def unsubscribe(self, stream: queue.SimpleQueue[bytes]) -> None:
        with self._lock:
            with contextlib.suppress(ValueError):
                self._streams.remove(stream)

    def announce(self, event: str, data: object) -> None:
        message = f"event: {event}\ndata: {json.dumps(data)}\n\n".encode()
        with self._lock:
            for stream in self._streams:
                stream.put(message)


# --- the server ---------------------------------------------------------------------------

class _HTTPServer(http.server.ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = False
    preview: PreviewServer
    _slots: threading.BoundedSemaphore  # set by _bind: MAX_CONNECTIONS
    _heads: HeadDeadlines  # set by _bind

    def process_request(self, request: socket.socket | tuple[bytes, socket.socket],
                        client_address: object) -> None:
        if not self._slots.acquire(blocking=False):
            self.shutdown_request(request)  # too many at once: this one is closed
            return
        try:
            super().process_request(request, client_address)
        except BaseException:
            self._slots.release()
            raise

    def process_request_thread(self, request: socket.socket | tuple[bytes, socket.socket],
                               client_address: object) -> None:
        try:
            super().process_request_thread(request, client_address)
        finally:
            self._slots.release()

    def server_bind(self) -> None:
        # HTTPServer.server_bind would look the host's name up (a DNS query): not needed.
        socketserver.TCPServer.server_bind(self)
        self.server_name, self.server_port = HOST, self.server_address[1]

    def handle_error(self, request: object, client_address: object) -> None:
        kind, error = sys.exc_info()[:2]
        if kind is not None and issubclass(kind, (ConnectionError, TimeoutError)):
            return  # the browser went away: nothing to say
        if self.preview.stopping.is_set():
            return  # a drawing cut short by Ctrl-C: the one line is "interrupted"
        print(f"boardgen serve: internal error: {kind.__name__ if kind else '?'}: {error}",
              file=sys.stderr)


class HeadDeadlines:
    """The connections whose request head has not come whole yet, each with its deadline
    (HEAD_DEADLINE_S after it was taken); :meth:`close_late` shuts those past it, which ends
    the read their handler is blocked in (it sees the line closed), so the slot is freed."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._waiting: dict[socket.socket, float] = {}

    def expect(self, connection: socket.socket) -> None:
        with self._lock:
            self._waiting[connection] = time.monotonic() + HEAD_DEADLINE_S

    def arrived(self, connection: socket.socket) -> bool:
        """The head is in: False if it came too late (the line was shut meanwhile, and what
        was read of the head may be cut short)."""
        with self._lock:
            return self._waiting.pop(connection, None) is not None

    def close_late(self) -> None:
        now = time.monotonic()
        with self._lock:
            late = [line for line, deadline in self._waiting.items() if deadline <= now]
            for line in late:
                del self._waiting[line]
        for line in late:
            with contextlib.suppress(OSError):
                line.shutdown(socket.SHUT_RDWR)


class PreviewServer:
    """The HTTP server, the folder watcher and what they share.  ``serve_forever`` in one
    thread; ``close`` from any (or after ``serve_forever`` ended)."""

    def __init__(self, folder: Path, *, port: int | None = None) -> None:
        self.root = folder.resolve()
        self.stopping = threading.Event()
        self.announcer = Announcer()
        self.finder = FileFinder(self.root)
        self._snapshots = Path(tempfile.mkdtemp(prefix=".boardgen-serve-"))
        self.drawer = Drawer(self.root, self._snapshots)
        self._serving = False
        try:
            self.httpd, self.note = _bind(port)
        except BaseException:
            shutil.rmtree(self._snapshots, ignore_errors=True)
            raise
        self.httpd.preview = self
        self.port = int(self.httpd.server_address[1])
        self.url = f"http://{HOST}:{self.port}/"
        self._watcher = threading.Thread(target=self._watch, name="boardgen-serve-watch",
                                         daemon=True)
        self._watcher.start()
        self._reaper = threading.Thread(target=self._reap, name="boardgen-serve-heads",
                                        daemon=True)
        self._reaper.start()

    def _reap(self) -> None:
        """Close, every quarter second, the connections whose head is late."""
        while not self.stopping.wait(0.25):
            self.httpd._heads.close_late()

    def serve_forever(self) -> None:
        self._serving = True
        try:
            self.httpd.serve_forever(poll_interval=0.5)
        finally:
            self._serving = False

    def close(self) -> None:
        """Stop answering, end the event streams and the watcher, remove the copies."""
        self.stopping.set()
        if self._serving:
            self.httpd.shutdown()
        self.httpd.server_close()
        self._watcher.join(timeout=2.0)
        shutil.rmtree(self._snapshots, ignore_errors=True)

    def relative(self, path: str) -> str | None:
        """A watched path as the page names it, or None if it is not one the page lists."""
        try:
            relative = Path(path).relative_to(self.root)
        except ValueError:
            return None
        if not relative.parts or any(_hidden(part) for part in relative.parts):
            return None
        return relative.as_posix()

    def _watch(self) -> None:
        # Imported here: only this command needs the watcher's native module.
        from watchfiles import Change, DefaultFilter, watch

        ours = self._snapshots

        class Shown(DefaultFilter):
            def __call__(self, change: Change, path: str) -> bool:
                return not Path(path).is_relative_to(ours) and super().__call__(change, path)

        # watchfiles waits for a pause of WATCH_STEP_MS in a burst of changes (at most
        # 1.6 s), well within the 2 s the page promises.
        # The OS's notifications; if they fail (a subfolder we may not read makes the
        # recursive watch fail as a whole, and watchfiles' own polling with it), our own
        # polling, which passes such a folder by and announces the others.
        polling = False
        while not self.stopping.is_set():
            watched = self._root_identity()
            if polling:
                self._poll(watched)
            else:
                try:
                    for changes in watch(self.root, watch_filter=Shown(),
                                         stop_event=self.stopping, step=WATCH_STEP_MS,
                                         debounce=1600, raise_interrupt=False,
                                         yield_on_timeout=True,
                                         rust_timeout=1000):
                        named = sorted({name for _, path in changes
                                        if (name := self.relative(path)) is not None})
                        if named:
                            self.announcer.announce("change", {"paths": named})
                        if self._root_identity() != watched:
                            break  # removed (and perhaps made again): watch the new one
                except Exception as exc:
                    if self.stopping.is_set():
                        return
                    if self._root_identity() == watched:
                        print(f"boardgen serve: warning: watching {shown_path(self.root)} "
                              f"failed ({shown_path(str(exc))}); polling instead",
                              file=sys.stderr)
                        polling = True
                        continue
            # The folder went: wait for it to be made again, then tell the pages.
            while not self.stopping.is_set() and self._root_identity() is None:
                self.stopping.wait(0.25)
            if not self.stopping.is_set():
                self.announcer.announce("change", {"paths": [], "folder": True})

    def _poll(self, watched: tuple[int, int] | None) -> None:
        """Announce changes found by walking the folder every POLL_S (a folder that cannot
        be read is passed by), until the server stops or the folder goes."""
        before = self._versions()
        while not self.stopping.wait(POLL_S):
            if self._root_identity() != watched:
                return
            now = self._versions()
            named = sorted(name for name in before.keys() | now.keys()
                           if before.get(name) != now.get(name))
            before = now
            if named:
                self.announcer.announce("change", {"paths": named})

    def _versions(self) -> dict[str, tuple[int, int, int, int, int]]:
        """Each shown file's version (at most MAX_VISITED entries looked at)."""
        versions: dict[str, tuple[int, int, int, int, int]] = {}
        visited = 0
        for folder, names in walk_folder(self.root):
            for name, is_folder in names:
                visited += 1
                if visited > MAX_VISITED:
                    return versions
                if is_folder:
                    continue
                path = folder / name
                try:
                    versions[path.relative_to(self.root).as_posix()] = _version(path.lstat())
                except OSError:
                    continue
        return versions

    def _root_identity(self) -> tuple[int, int] | None:
        try:
            info = self.root.stat()
        except OSError:
            return None
        return (info.st_dev, info.st_ino) if stat.S_ISDIR(info.st_mode) else None


def _bind(port: int | None) -> tuple[_HTTPServer, str | None]:
    """A server listening on HOST: on ``port`` (0: any free one), or without one on
    DEFAULT_PORT or the next free port after it (``note`` says so)."""
    candidates = [port] if port is not None else \
        list(range(DEFAULT_PORT, DEFAULT_PORT + PORTS_TRIED))
    for candidate in candidates:
        try:
            server = _HTTPServer((HOST, candidate), _Handler)
            server._slots = threading.BoundedSemaphore(MAX_CONNECTIONS)
            server._heads = HeadDeadlines()
        except OSError as exc:
            if exc.errno == errno.EADDRINUSE and port is None:
                continue
            if exc.errno == errno.EADDRINUSE:
                raise BoardgenError(f"--port {port}: {HOST}:{port} is already in use (choose "
                                    "another port, or --port 0 for any free one)") from None
            raise BoardgenError(f"--port {candidate}: cannot listen on {HOST}:{candidate}: "
                                f"{exc.strerror or exc}") from None
        note = None
        if port is None and candidate != DEFAULT_PORT:
            note = f"port {DEFAULT_PORT} is in use; using {candidate}"
        return server, note
    raise BoardgenError(f"ports {DEFAULT_PORT} to {DEFAULT_PORT + PORTS_TRIED - 1} are all in "
                        "use: choose one with --port (0 for any free one)")


class _Handler(http.server.BaseHTTPRequestHandler):
    server: _HTTPServer
    server_version = "boardgen-serve"
    sys_version = ""  # no Python version in the Server header
    timeout = IDLE_TIMEOUT_S  # reading a request, writing an answer: then the line is closed

    def log_message(self, format: str, *args: object) -> None:
        """Quiet: the page shows what happened; the terminal stays readable."""

    def setup(self) -> None:
        super().setup()
        self.server._heads.expect(self.connection)

    def parse_request(self) -> bool:
        # The request line has been read; the headers are read here: then the head is in
        # (or refused), and the deadline no longer applies.
        parsed = super().parse_request()
        if not self.server._heads.arrived(self.connection):
            self.close_connection = True
            return False  # cut short by the deadline: not a request to answer
        return parsed

    def finish(self) -> None:
        self.server._heads.arrived(self.connection)
        super().finish()

    def do_GET(self) -> None:
        preview = self.server.preview
        hosts = self.headers.get_all("Host") or []
        # Two of a header that says where a request comes from: which one would a proxy or
        # a browser have meant?  Refused, not guessed (the first is not the one to trust).
        for name in ("Host", *_ORIGIN_HEADERS):
            if len(self.headers.get_all(name) or []) > 1:
                self._send(text_answer(400, f"one {name} header, not several"))
                return
        if not self._host_allowed(hosts[0] if hosts else None, preview.port):
            # Another site's page, its name pointed at 127.0.0.1, must not read the files.
            self._send(text_answer(403, f"this server answers to {HOST} and localhost only"))
            return
        try:
            url = urlsplit(self.path)
        except ValueError:  # 'http://[::1' and the like
            self._send(text_answer(400, "not a path this server knows"))
            return
        if (url.scheme or url.netloc) and not (
                url.scheme == "http" and self._host_allowed(url.netloc, preview.port)):
            # An absolute-form target ('GET http://evil.example/files') names the host it
            # is for: another one than this server is refused, whatever Host says.
            self._send(text_answer(403, f"this server answers to {HOST} and localhost only"))
            return
        route = url.path
        if not self._from_this_page(preview.port, page=route == "/"):
            # Another site's page (an <img>, a script, a form) must not make us draw, nor
            # learn from the answer's status which files exist.
            self._send(text_answer(403, "this server answers its own page only"))
            return
        query = {key: values[-1] for key, values in parse_qs(url.query).items()}
        if route == "/":
            self._send(Answer(200, "text/html; charset=utf-8", PAGE_HTML,
                              (("Content-Security-Policy", PAGE_POLICY),)))
        elif route == "/files":
            self._send(self._files(preview))
        elif route == "/events":
            self._events(preview)
        elif route.startswith("/diagram/"):
            self._send(self._diagram(preview, route.removeprefix("/diagram/"), query))
        elif route.startswith("/animation/"):
            self._send(self._animation(preview, route.removeprefix("/animation/"), query))
        elif route.startswith("/source/"):
            self._send(self._source(preview, route.removeprefix("/source/")))
        else:
            self._send(NOT_FOUND)

    @staticmethod
    def _hosts(port: int) -> set[str]:
        """This server's names as a Host header gives them (the port left out on 80)."""
        names = {f"{HOST}:{port}", f"localhost:{port}"}
        return names | {HOST, "localhost"} if port == 80 else names

    def _host_allowed(self, host: str | None, port: int) -> bool:
        return host is None or host.strip().lower() in self._hosts(port)

    def _from_this_page(self, port: int, *, page: bool) -> bool:
        """What the browser says of where the request comes from: this server's page, or
        nowhere (an address typed, a bookmark).  A link from another site may open the
        page itself, which holds no data."""
        site = self.headers.get("Sec-Fetch-Site")
        if site is not None and site.strip().lower() not in ("same-origin", "none"):
            navigating = self.headers.get("Sec-Fetch-Mode", "").lower() == "navigate"
            if not (page and navigating):
                return False
        origin = self.headers.get("Origin")
        if origin is not None:
            return origin.strip().lower() in {f"http://{host}" for host in self._hosts(port)}
        return True

    def _send(self, answer: Answer) -> None:
        self.send_response(answer.status)
        self.send_header("Content-Type", answer.content_type)
        self.send_header("Content-Length", str(len(answer.body)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Content-Type-Options", "nosniff")
        for name, value in answer.headers:
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(answer.body)

    @staticmethod
    def _files(preview: PreviewServer) -> Answer:
        listing = preview.finder.listing()
        body = {"folder": preview.root.name or str(preview.root),
                "files": [{"path": path, "game": game} for path, game in listing.files],
                "truncated": listing.truncated, "limit": MAX_VISITED}
        return Answer(200, "application/json", json.dumps(body).encode("utf-8"))

    @staticmethod
    def _diagram(preview: PreviewServer, encoded: str, query: dict[str, str]) -> Answer:
        fmt = query.get("format", "svg")
        theme = query.get("theme", DEFAULT_THEME)
        paper = query.get("paper", DEFAULT_PAPER)
        if fmt not in CONTENT_TYPES:
            return text_answer(400, f"format {fmt!r}: svg, pdf or png")
        if theme not in THEMES:
            return text_answer(400, f"theme {theme!r}: {', '.join(sorted(THEMES))}")
        try:
            parse_paper(paper)
        except BoardgenError as exc:
            return text_answer(400, str(exc))
        try:
            relative, real = _resolve_listed(preview.root, encoded)
            if query.get("last") == "good":  # only ever drawn from a diagram file
                answer = preview.drawer.last_good(relative, _format(fmt), theme, paper)
            else:
                answer = _drawn_saved(real, relative, lambda data: preview.drawer.draw(
                    relative, data, _format(fmt), theme, paper))
        except NotServed:
            return NOT_FOUND
        except BeingSaved:
            return BEING_SAVED
        return _downloaded(answer, relative, f".{fmt}", query)

    @staticmethod
    def _animation(preview: PreviewServer, encoded: str, query: dict[str, str]) -> Answer:
        fmt = query.get("format", "svg")
        theme = query.get("theme", DEFAULT_THEME)
        if fmt not in MOVING_TYPES:
            return text_answer(400, f"format {fmt!r}: svg or html")
        if theme not in THEMES:
            return text_answer(400, f"theme {theme!r}: {', '.join(sorted(THEMES))}")
        try:
            relative, real = _resolve_listed(preview.root, encoded)
            kind: Format = "moving-svg" if fmt == "svg" else "moving-html"
            answer = _drawn_saved(real, relative, lambda data: preview.drawer.draw(
                relative, data, kind, theme, DEFAULT_PAPER))
        except NotServed:
            return NOT_FOUND
        except BeingSaved:
            return BEING_SAVED
        return _downloaded(answer, relative, f"-moving.{fmt}", query)

    @staticmethod
    def _source(preview: PreviewServer, encoded: str) -> Answer:
        try:
            relative, real = _resolve_listed(preview.root, encoded)
            data = read_settled(real)
            if said_game(data, Path(relative).name) is None:
                raise NotServed(relative)
        except NotServed:
            return NOT_FOUND
        except BeingSaved:
            return BEING_SAVED
        if len(data) > MAX_INPUT_BYTES:
            return text_answer(413, f"larger than {MAX_INPUT_BYTES:,} bytes")
        return Answer(200, TEXT, data.decode("utf-8-sig", errors="replace").encode("utf-8"))

    def _events(self, preview: PreviewServer) -> None:
        stream = preview.announcer.subscribe()
        if stream is None:
            self._send(text_answer(503, "too many pages are open"))
            return
        try:
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            self.wfile.write(b"retry: 1000\nevent: hello\ndata: {}\n\n")
            self.wfile.flush()
            quiet = 0.0
            while not preview.stopping.is_set():
                try:
                    message = stream.get(timeout=GONE_POLL_S)
                except queue.Empty:
                    if self._page_gone():
                        return  # its slot is freed now, not at the next write's failure
                    quiet += GONE_POLL_S
                    if quiet < KEEPALIVE_S:
                        continue
                    message, quiet = b": still here\n\n", 0.0
                self.wfile.write(message)
                self.wfile.flush()
        except (ConnectionError, TimeoutError):
            pass
        finally:
            preview.announcer.unsubscribe(stream)


    def _page_gone(self) -> bool:
        """True once the page has closed its end: an event stream's page sends nothing
        after its request, so the line being readable means it was closed (or reset)."""
        try:
            readable, _, _ = select.select([self.connection], [], [], 0)
            if not readable:
                return False
            return not self.connection.recv(1, socket.MSG_PEEK)
        except (OSError, ValueError):
            return True


def _drawn_saved(real: Path, relative: str, draw: Callable[[bytes], Answer]) -> Answer:
    """``draw`` given the file as soon as its save is over (:func:`read_saved`); what was read
    early and is no diagram, or cannot be drawn, is read again once quiet and drawn from
    that (a problem is shown only for a file that stayed so for QUIET_S).  What was read
    early and drew is shown only if the file stayed as read, with no writer, until
    EARLY_GRACE_S after its last change (:func:`_stayed_as_read`)."""
    data, settled, state = _read(real, early=True)
    if said_game(data, Path(relative).name) is not None:
        answer = draw(data)
        if settled or (answer.status == 200 and _stayed_as_read(real, state)):
            return answer
    elif settled:
        # Truncating a file for a save can show it empty under its old time for a moment
        # (ext4): it is looked at again after a quiet time of this process's own.
        time.sleep(QUIET_S)
    data = read_settled(real)
    if said_game(data, Path(relative).name) is None:
        raise NotServed(relative)
    return draw(data)


def _stayed_as_read(path: Path, state: os.stat_result) -> bool:
    """True if the file is as it was read (``state``) EARLY_GRACE_S after its last change,
    and no process has it open for writing then."""
    wait = EARLY_GRACE_S - (time.time() - state.st_mtime_ns / 1e9)
    if wait > 0:
        time.sleep(wait)
    try:
        return _version(os.stat(path)) == _version(state) and _no_writer(path)
    except OSError:
        return False


def _downloaded(answer: Answer, relative: str, ending: str, query: dict[str, str]) -> Answer:
    """``answer`` as a file to save when the query says ``download=1``: named after the
    diagram file, then ``ending`` (``.svg``, or ``-moving.svg`` for its animation)."""
    if answer.status != 200 or not query.get("download"):
        return answer
    name = re.sub(r"[^A-Za-z0-9._-]", "_", Path(relative).stem) or "diagram"
    return Answer(answer.status, answer.content_type, answer.body, (
        *answer.headers, ("Content-Disposition", f'attachment; filename="{name}{ending}"')))


def _resolve_listed(root: Path, encoded: str) -> tuple[str, Path]:
    """:func:`resolve_inside`, asked again for MISSING_GRACE_S when the file is missing:
    an editor that removes a file and writes it again makes a listed file vanish for a
    moment, and the page must not be told it is gone."""
    deadline = time.monotonic() + MISSING_GRACE_S
    while True:
        try:
            return resolve_inside(root, encoded)
        except NotServed:
            if time.monotonic() >= deadline:
                raise
            time.sleep(0.03)


def _format(fmt: str) -> Format:
    if fmt == "pdf":
        return "pdf"
    return "png" if fmt == "png" else "svg"


# --- the command --------------------------------------------------------------------------

def serve_folder(folder: Path, *, port: int | None, open_browser: bool,
                 say: Callable[[str], None]) -> None:
    """Serve ``folder`` until interrupted (KeyboardInterrupt goes on up, after the server,
    its event streams and the watcher have stopped)."""
    try:
        is_folder = stat.S_ISDIR(folder.stat().st_mode)
        what = "not a folder"
    except OSError as exc:  # missing, a name too long, a loop of links: the input's fault
        is_folder, what = False, "no such folder" if isinstance(exc, FileNotFoundError) \
            else (exc.strerror or str(exc)).lower()
    if not is_folder:
        raise BoardgenError(f"DIR {shown_path(folder)}: {what}")
    # SIGTERM and SIGHUP end the server as Ctrl-C does (the temporary copies removed), then
    # the command says so and exits 143 or 129.
    previous = {signum: signal.signal(signum, raise_terminated)
                for signum in (signal.SIGTERM, signal.SIGHUP)
                if threading.current_thread() is threading.main_thread()}
    try:
        _serve(folder, port=port, open_browser=open_browser, say=say)
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)


def _serve(folder: Path, *, port: int | None, open_browser: bool,
           say: Callable[[str], None]) -> None:
    preview = PreviewServer(folder, port=port)
    try:
        if preview.note:
            say(f"boardgen serve: {preview.note}")
        say(f"boardgen serve: {preview.url} shows the diagram files in {preview.root} "
            "(Ctrl-C to stop)")
        if open_browser:
            _open_browser(preview.url, say)
        preview.serve_forever()
    finally:
        preview.close()


def _open_browser(url: str, say: Callable[[str], None]) -> None:
    if sys.platform.startswith("linux") and not (os.environ.get("DISPLAY")
                                                 or os.environ.get("WAYLAND_DISPLAY")):
        # Without a display webbrowser would start a text browser in this very terminal.
        say("boardgen serve: no display to open a browser on: open the address yourself")
        return
    import webbrowser

    def opening() -> None:
        with contextlib.suppress(Exception):
            webbrowser.open(url)

    threading.Thread(target=opening, name="boardgen-serve-browser", daemon=True).start()

