"""``boardgen serve``: what it draws, what it refuses to serve, half-written saves, the
event stream, Ctrl-C, and the page itself in headless Chromium.

The drawings are checked against the command line's own output for the same file (the
server must draw exactly what ``boardgen diagram FILE`` draws) and structurally (cells per
panel); error lines against the line the test itself broke.
"""

from __future__ import annotations

import http.client
import io
import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from conftest import TESTS, Run, chromium

from boardgen.publish import serve as serve_module
from boardgen.publish.serve import PreviewServer

# Slow: left out of the quick subset (pytest -m "not slow"; the README says which).
pytestmark = pytest.mark.slow

HERE = TESTS
REPO = HERE.parent
ANNOTATED = (HERE / "diagram_files" / "copolymer-annotated.txt").read_text()
WHERE = (HERE / "diagram_files" / "o-where.txt").read_text()
RunCli = Callable[..., Run]
CELLS_SIDE_3 = 19  # a hexhex board of side 3: 1 + 6 + 12


@dataclass
class Reply:
    status: int
    headers: dict[str, str]
    body: bytes


def folder_with_diagrams(base: Path) -> Path:
    """``base/inside`` to serve, beside ``base/outside``, which must never be served."""
    inside, outside = base / "inside", base / "outside"
    (inside / "sub").mkdir(parents=True)
    (inside / ".hidden").mkdir()
    outside.mkdir()
    (inside / "opening.txt").write_text(ANNOTATED)
    (inside / "sub" / "where.txt").write_text(WHERE)
    (inside / "notes.md").write_text("Nothing to draw here.\n")
    (inside / "typo.txt").write_text("game: copolimer\n")
    (inside / "model.py").write_text("class Move:\n    game: str\n")
    (inside / ".hidden" / "x.txt").write_text(ANNOTATED)
    (outside / "secret.txt").write_text(ANNOTATED)  # a good diagram: only refusal stops it
    (inside / "link-out.txt").symlink_to(outside / "secret.txt")
    (inside / "dir-out").symlink_to(outside, target_is_directory=True)
    (inside / "link-in.txt").symlink_to(inside / "opening.txt")
    os.mkfifo(inside / "pipe.txt")
    return inside


@pytest.fixture
def served(tmp_path: Path) -> Iterator[PreviewServer]:
    server = PreviewServer(folder_with_diagrams(tmp_path), port=0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server
    server.close()
    thread.join(timeout=5)
    assert not thread.is_alive()


def get(server: PreviewServer, raw_path: str, host: str | None = None,
        timeout: float = 30) -> Reply:
    """GET the request target exactly as written (http.client does not tidy '..')."""
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=timeout)
    try:
        headers = {"Host": host} if host else {}
        connection.request("GET", raw_path, headers=headers)
        answer = connection.getresponse()
        return Reply(answer.status, {k.lower(): v for k, v in answer.getheaders()},
                     answer.read())
    finally:
        connection.close()


def cli_output(run_cli: RunCli, source: Path, out: Path,
               *options: str) -> bytes:
    result = run_cli("diagram", str(source), "-o", str(out), *options)
    assert result.code == 0, result.err
    return out.read_bytes()


def cli_error(run_cli: RunCli, source: Path, tmp_path: Path) -> str:
    result = run_cli("diagram", str(source), "-o", str(tmp_path / "never.svg"))
    assert result.code == 2
    return result.err.strip()


def cells_drawn(svg: bytes) -> int:
    """Board cells drawn, by their names (the legend's swatches are not cells, and a
    highlight over a cell is not another cell)."""
    root = ET.fromstring(svg)
    return sum(1 for element in root.iter()
               if re.fullmatch(r"[A-Z][0-9]+", element.attrib.get("data-cell", ""))
               and element.attrib.get("class", "").startswith("cell "))


# --- drawings -------------------------------------------------------------------------------

def test_a_good_file_is_drawn_as_the_command_line_draws_it(
        served: PreviewServer, run_cli: RunCli, tmp_path: Path) -> None:
    reply = get(served, "/diagram/opening.txt")
    assert reply.status == 200
    assert reply.headers["content-type"] == "image/svg+xml"
    root = ET.fromstring(reply.body)
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    assert root.attrib["width"].endswith("mm") and len(root.attrib["viewBox"].split(",")) == 4
    # The drawing's text alternative: its title, then every panel in words, then the credit.
    desc = root.findtext("{http://www.w3.org/2000/svg}desc") or ""
    assert desc.startswith("A connection, annotated. ") and "Panel 2:" in desc, desc
    assert desc.endswith("Copolymer by Mark Steere (2006)."), desc
    assert cells_drawn(reply.body) == 2 * CELLS_SIDE_3  # two panels of the side-3 board
    assert reply.body == cli_output(run_cli, served.root / "opening.txt", tmp_path / "a.svg")
    where = get(served, "/diagram/sub/where.txt")
    assert where.status == 200 and b"Where may the stone go?" in where.body


def test_theme_paper_and_format_reach_the_drawing(
        served: PreviewServer, run_cli: RunCli, tmp_path: Path) -> None:
    source = served.root / "opening.txt"
    ink = get(served, "/diagram/opening.txt?theme=ink")
    assert ink.status == 200
    assert ink.body == cli_output(run_cli, source, tmp_path / "ink.svg", "--theme", "ink")
    assert ink.body != get(served, "/diagram/opening.txt").body
    pdf = get(served, "/diagram/opening.txt?format=pdf&paper=letter&download=1")
    assert pdf.status == 200 and pdf.headers["content-type"] == "application/pdf"
    assert pdf.headers["content-disposition"] == 'attachment; filename="opening.pdf"'
    assert pdf.body == cli_output(run_cli, source, tmp_path / "l.pdf", "--paper", "letter")
    png = get(served, "/diagram/opening.txt?format=png")
    assert png.status == 200 and png.body.startswith(b"\x89PNG\r\n\x1a\n")
    assert png.body == cli_output(run_cli, source, tmp_path / "a.png")
    for query, word in (("theme=neon", "theme"), ("paper=napkin", "paper"),
                        ("format=gif", "format")):
        refused = get(served, f"/diagram/opening.txt?{query}")
        assert refused.status == 400 and word in refused.body.decode(), query


def broken_copy(text: str, line_text: str, replacement: str) -> tuple[str, int]:
    """``text`` with the line ``line_text`` replaced, and that line's number."""
    lines = text.splitlines()
    number = lines.index(line_text) + 1
    lines[number - 1] = replacement
    return "\n".join(lines) + "\n", number


def test_a_refused_file_answers_422_with_its_file_and_line(
        served: PreviewServer, run_cli: RunCli, tmp_path: Path) -> None:
    bad, number = broken_copy(ANNOTATED, "place: D3 connection 2", "place: D3 connection 5")
    (served.root / "sub" / "bad.txt").write_text(bad)
    reply = get(served, "/diagram/sub/bad.txt")
    assert reply.status == 422 and reply.headers["content-type"].startswith("text/plain")
    message = reply.body.decode()
    assert message.endswith("\n") and "\n" not in message.rstrip("\n")
    assert message.startswith(f"sub/bad.txt:{number}: ")
    # The reason is the command line's, word for word.
    reason = message.rstrip("\n").split(f":{number}: ", 1)[1]
    assert cli_error(run_cli, served.root / "sub" / "bad.txt", tmp_path).endswith(
        f"bad.txt:{number}: {reason}")
    source = get(served, "/source/sub/bad.txt")
    assert source.status == 200 and source.body.decode().splitlines()[number - 1] == \
        "place: D3 connection 5"


def test_the_command_lines_limits_hold(served: PreviewServer) -> None:
    large = served.root / "large.txt"
    large.write_text("game: copolymer\n" + "#" * 2_000_000 + "\n")
    reply = get(served, "/diagram/large.txt")
    assert reply.status == 422 and b"large.txt: larger than 2,000,000 bytes" in reply.body
    many = served.root / "many.txt"
    many.write_text("game: copolymer\nboard: hexhex 3\n" + "panel: p\n" * 201)
    reply = get(served, "/diagram/many.txt")
    assert reply.status == 422
    assert reply.body.decode().startswith("many.txt:203: more than 200 panels")


# --- the lines in motion ---------------------------------------------------------------------

def test_a_listed_file_is_animated_as_the_command_line_animates_it(
        served: PreviewServer, run_cli: RunCli, tmp_path: Path) -> None:
    reply = get(served, "/animation/opening.txt")
    assert reply.status == 200 and reply.headers["content-type"] == "image/svg+xml"
    assert "script-src" not in reply.headers["content-security-policy"]
    assert reply.body == cli_output(run_cli, served.root / "opening.txt", tmp_path / "a.svg",
                                    "--animate")
    root = ET.fromstring(reply.body)
    frames = [g for g in root.iter("{http://www.w3.org/2000/svg}g")
              if g.attrib.get("class", "").startswith("frame")]
    # A frame per move: the first panel as set, then D3, then B3 (its second panel's two);
    # the first panel's label, "O to play", is left out: its caption says whose turn it is.
    assert [g.attrib["aria-label"].split(" (")[0] for g in frames] == [
        "O can connect at D3, touching C2 and C3.", "O connects at D3",
        "O connects at D3"]
    # The page for the frame: the figure with its controls, the SVG's alternative text.
    page = get(served, "/animation/opening.txt?format=html&theme=ink")
    assert page.status == 200 and page.headers["content-type"].startswith("text/html")
    policy = page.headers["content-security-policy"]
    assert "default-src 'none'" in policy and "frame-ancestors 'self'" in policy
    text = page.body.decode()
    assert "<script" not in text
    assert text.count('type="checkbox"') == 2 and 'for="lines-pause"' in text
    description = root.findtext("{http://www.w3.org/2000/svg}desc")
    assert description and f"aria-label=\"A connection, annotated. {description}\"" in text
    ink = get(served, "/animation/opening.txt?theme=ink")
    assert ink.status == 200 and ink.body != reply.body
    assert get(served, "/animation/opening.txt?format=gif").status == 400
    assert get(served, "/animation/opening.txt?theme=neon").status == 400
    download = get(served, "/animation/opening.txt?download=1")
    assert download.headers["content-disposition"] == \
        'attachment; filename="opening-moving.svg"'
    bad, number = broken_copy(ANNOTATED, "place: D3 connection 2", "place: D3 connection 5")
    (served.root / "bad.txt").write_text(bad)
    refused = get(served, "/animation/bad.txt?format=html")
    assert refused.status == 422 and refused.body.decode().startswith(f"bad.txt:{number}: ")
    # The command line's limits: the same loader reads the file.
    (served.root / "large.txt").write_text("game: copolymer\n" + "#" * 2_000_000 + "\n")
    large = get(served, "/animation/large.txt")
    assert large.status == 422 and b"large.txt: larger than 2,000,000 bytes" in large.body


def test_source_and_drawing_share_the_size_limit_to_the_byte(served: PreviewServer) -> None:
    """A file of exactly 2,000,000 bytes (the README's limit) is drawn and its text shown;
    one byte more is refused by both routes."""
    head = "game: copolymer\nboard: hexhex 3\npanel: p\n# "
    for size, drawn in ((2_000_000, True), (2_000_001, False)):
        path = served.root / f"edge-{size}.txt"
        path.write_text(head + "x" * (size - len(head) - 1) + "\n")
        assert path.stat().st_size == size
        source = get(served, f"/source/{path.name}")
        diagram = get(served, f"/diagram/{path.name}")
        if drawn:
            assert source.status == 200 and len(source.body) == size
            assert diagram.status == 200, diagram.body[:200]
            assert cells_drawn(diagram.body) == 19
        else:
            assert source.status == 413, source.status
            assert source.body.decode().strip() == "larger than 2,000,000 bytes"
            assert diagram.status == 422
            assert b"larger than 2,000,000 bytes" in diagram.body


# --- what is never served -------------------------------------------------------------------

ESCAPES = [
    "../outside/secret.txt",
    "%2e%2e/outside/secret.txt",
    "%2E%2E%2Foutside%2Fsecret.txt",
    "sub/../../outside/secret.txt",
    "sub/%2e%2e/%2e%2e/outside/secret.txt",
    "..%5Coutside%5Csecret.txt",
    "%252e%252e/outside/secret.txt",
    "link-out.txt",
    "dir-out/secret.txt",
    "{absolute}",
    "{absolute_encoded}",
    ".hidden/x.txt",
    "./opening.txt",
    "sub//where.txt",
    "sub",
    "pipe.txt",
    "missing.txt",
    "notes.md",  # inside, but not a diagram file: its text is not shown either
    "model.py",
    "%ff.txt",
    "opening.txt%00.png",
]


@pytest.mark.parametrize("route", ["/diagram/", "/source/", "/animation/"])
@pytest.mark.parametrize("target", ESCAPES)
def test_nothing_outside_the_folder_and_no_other_file_is_served(
        served: PreviewServer, route: str, target: str) -> None:
    secret = served.root.parent / "outside" / "secret.txt"
    target = target.format(absolute=secret, absolute_encoded=str(secret).replace("/", "%2F"))
    reply = get(served, route + target)
    assert reply.status == 404, (route + target, reply.body[:200])
    assert b"<svg" not in reply.body and b"A connection" not in reply.body


def test_a_link_inside_the_folder_is_served_and_other_hosts_are_refused(
        served: PreviewServer) -> None:
    assert get(served, "/diagram/link-in.txt").status == 200  # so the 404s above mean it
    assert get(served, "/diagram/opening.txt",
               host=f"localhost:{served.port}").status == 200
    # A page elsewhere whose name was pointed at 127.0.0.1 (DNS rebinding) reads nothing.
    assert get(served, "/diagram/opening.txt", host=f"evil.example:{served.port}").status == 403
    assert get(served, "/files", host="evil.example").status == 403


def test_the_list_names_the_diagram_files_only(served: PreviewServer) -> None:
    listing = json.loads(get(served, "/files").body)
    assert {entry["path"]: entry["game"] for entry in listing["files"]} == {
        "opening.txt": "copolymer", "link-in.txt": "copolymer", "sub/where.txt": "o",
        "typo.txt": "copolimer"}  # listed, so that its error can be seen
    assert listing["truncated"] is False
    assert get(served, "/").headers["content-security-policy"].startswith("default-src 'none'")


def test_the_list_follows_a_files_game_line_when_it_is_edited(served: PreviewServer) -> None:
    def games() -> dict[str, str]:
        listing = json.loads(get(served, "/files").body)
        return {entry["path"]: entry["game"] for entry in listing["files"]}

    assert games()["sub/where.txt"] == "o"
    assert games()["sub/where.txt"] == "o"  # asked again, the file unchanged
    where = served.root / "sub" / "where.txt"
    where.write_text(where.read_text().replace("game: o", "game: polygone  "))
    os.utime(where, ns=(where.stat().st_atime_ns, where.stat().st_mtime_ns + 10**9))
    assert games()["sub/where.txt"] == "polygone"


# --- saves caught half way ------------------------------------------------------------------

def test_a_file_saved_in_two_halves(
        served: PreviewServer, run_cli: RunCli, tmp_path: Path) -> None:
    path = served.root / "opening.txt"
    before = get(served, "/diagram/opening.txt")
    assert before.status == 200
    after_text = ANNOTATED.replace("title: A connection, annotated",
                                   "title: A connection, annotated twice")
    cut = after_text.index("place: D3 connection 2") + len("place: D")
    cut_line = after_text[:cut].count("\n") + 1
    with open(path, "w") as handle:
        handle.write(after_text[:cut])
        handle.flush()
        half = get(served, "/diagram/opening.txt")
        assert half.status == 422 and half.body.startswith(f"opening.txt:{cut_line}: ".encode())
        # The last good drawing is still at hand for the page, unchanged.
        kept = get(served, "/diagram/opening.txt?last=good")
        assert kept.status == 200 and kept.body == before.body
        handle.write(after_text[cut:])
    whole = get(served, "/diagram/opening.txt")
    assert whole.status == 200 and b"annotated twice" in whole.body
    copy = tmp_path / "copy.txt"
    copy.write_text(after_text)
    assert whole.body == cli_output(run_cli, copy, tmp_path / "b.svg")


def test_a_save_in_progress_is_never_drawn(served: PreviewServer) -> None:
    """Asked again and again while a file is written in pieces, the server answers the old
    drawing or the new one, whole: never an error, never a part of the diagram."""
    path = served.root / "opening.txt"
    old = get(served, "/diagram/opening.txt").body
    new_text = ANNOTATED.replace("title: A connection, annotated", "title: Saved in pieces")
    new_text += "panel: And once more\nplace: E3 ends 1\n"
    replies: list[Reply] = []
    writing = threading.Event()
    done = threading.Event()

    def ask() -> None:
        writing.wait()
        while not done.is_set():
            replies.append(get(served, "/diagram/opening.txt"))
        replies.append(get(served, "/diagram/opening.txt"))

    asker = threading.Thread(target=ask)
    asker.start()
    pieces = [new_text[i:i + 40] for i in range(0, len(new_text), 40)]
    with open(path, "w") as handle:  # emptied first, as many editors save
        writing.set()
        for piece in pieces:
            time.sleep(0.02)
            handle.write(piece)
            handle.flush()
    done.set()
    asker.join(timeout=60)
    assert len(replies) >= 2
    new = replies[-1].body
    assert replies[-1].status == 200 and b"Saved in pieces" in new
    assert cells_drawn(new) == 3 * CELLS_SIDE_3
    for reply in replies:
        assert reply.status == 200 and reply.body in (old, new), reply.body[:200]


def _leases() -> bool:
    """True where the early read can be had: Linux's read leases, on this file system."""
    try:
        import fcntl
    except ImportError:
        return False
    return hasattr(fcntl, "F_SETLEASE")


@pytest.mark.skipif(not _leases(), reason="read leases are Linux's")
def test_a_save_that_is_over_is_read_at_once_and_one_in_progress_once_quiet(
        tmp_path: Path) -> None:
    """A file just written and closed is read without waiting for the quiet time (no
    process has it open for writing); while a writer has it open, the read waits for quiet
    and takes what is there then."""
    from boardgen.publish.serve import read_saved

    path = tmp_path / "saved.txt"
    path.write_text("game: o\n")
    assert read_saved(path) == (b"game: o\n", False)  # read early: the save is over
    with open(path, "a") as handle:
        handle.write("title: half")
        handle.flush()
        assert read_saved(path) == (b"game: o\ntitle: half", True)  # read once quiet
    link = tmp_path / "link.txt"
    link.symlink_to(path)
    with pytest.raises(serve_module.NotServed):  # early or not, never through a link
        read_saved(link)


def test_a_save_in_two_openings_is_not_shown_as_a_problem(served: PreviewServer) -> None:
    """A save that opens the file twice (a first part written and closed, the rest appended
    a moment later) is read early between the two: that read cannot be drawn, so the file
    is read again once quiet, and the page is answered the whole drawing, not an error."""
    path = served.root / "opening.txt"
    new_text = ANNOTATED.replace("title: A connection, annotated", "title: Saved twice")
    cut = new_text.index("place: D3 connection 2") + len("place: D")
    replies: list[Reply] = []
    with open(path, "w") as handle:
        handle.write(new_text[:cut])  # a file that does not parse: D is no cell
    asker = threading.Thread(target=lambda: replies.append(get(served, "/diagram/opening.txt")))
    asker.start()
    time.sleep(0.02)
    with open(path, "a") as handle:
        handle.write(new_text[cut:])
    asker.join(timeout=60)
    assert replies[0].status == 200 and b"Saved twice" in replies[0].body



@pytest.mark.skipif(not _leases(), reason="read leases are Linux's")
def test_a_save_whose_first_opening_is_a_diagram_is_not_shown_half(tmp_path: Path) -> None:
    """A save through two openings whose first part is a whole diagram on its own (cut at a
    panel): read early between the two, drawn, and the rest appended while it is drawn; the
    half drawing is not answered, the whole one is (the review's finding 1)."""
    path = tmp_path / "twice.txt"
    whole = "game: o\nside: 4\npanel: one\nplace: D4\npanel: two\nplace: A1\n"
    path.write_text(whole[:whole.index("panel: two")])
    drawn: list[bytes] = []

    def draw(data: bytes) -> serve_module.Answer:
        if not drawn:  # the save's second opening, while the first read is drawn
            with open(path, "a") as handle:
                handle.write(whole[whole.index("panel: two"):])
        drawn.append(data)
        return serve_module.Answer(200, "text/plain", data)

    answer = serve_module._drawn_saved(path, "twice.txt", draw)
    assert drawn[0] == whole[:whole.index("panel: two")].encode()  # read early, drawn
    assert answer.body == whole.encode()  # ... but only the whole file answered


def test_a_file_seen_empty_under_its_old_time_is_looked_at_again(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A save's truncation can show the file empty under its old modification time for a
    moment: that read is settled but no diagram; it is looked at again after a quiet time,
    and the saved file drawn, not answered 404 (the review's finding 2)."""
    path = tmp_path / "saved.txt"
    path.write_text("")
    os.utime(path, (time.time() - 5, time.time() - 5))  # empty, and long quiet
    sleep = time.sleep

    def saved_meanwhile(seconds: float) -> None:
        path.write_text("game: o\nside: 4\n")
        os.utime(path, (time.time() - 5, time.time() - 5))
        sleep(seconds)

    monkeypatch.setattr(serve_module.time, "sleep", saved_meanwhile)
    answer = serve_module._drawn_saved(
        path, "saved.txt", lambda data: serve_module.Answer(200, "text/plain", data))
    assert answer.body == b"game: o\nside: 4\n"


# --- the event stream -----------------------------------------------------------------------

class EventStream:
    """GET /events on a plain socket, so that each read can be given its own deadline."""

    def __init__(self, port: int) -> None:
        self.socket = socket.create_connection(("127.0.0.1", port), timeout=10)
        self.socket.sendall(b"GET /events HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n\r\n" % port)
        self.lines = self.socket.makefile("rb")
        status = self.lines.readline()
        headers = []
        while (line := self.lines.readline()) not in (b"\r\n", b"\n", b""):
            headers.append(line.decode().strip().lower())
        assert status.split()[1] == b"200" and "content-type: text/event-stream" in headers

    def next(self, within: float) -> tuple[str, list[str]]:
        """The next event's name and the paths it names; comments (keep-alives) skipped."""
        self.socket.settimeout(within)
        name, data = "message", ""
        while True:
            line = self.lines.readline().decode()
            if not line:
                raise EOFError("the stream ended")
            line = line.rstrip("\n")
            if line == "" and data:
                return name, json.loads(data).get("paths", [])
            if line.startswith("event: "):
                name = line.removeprefix("event: ")
            elif line.startswith("data: "):
                data = line.removeprefix("data: ")

    def close(self) -> None:
        self.lines.close()
        self.socket.close()


def test_each_save_addition_and_removal_is_announced_within_two_seconds(
        served: PreviewServer) -> None:
    events = EventStream(served.port)
    try:
        assert events.next(within=10)[0] == "hello"
        # The watcher starts with the server; wait until it reports (a probe file, touched
        # until it is announced) so that the deadlines below time the announcements only.
        probe = served.root / "probe.txt"
        for attempt in range(40):
            probe.write_text(f"{attempt}\n")
            try:
                if "probe.txt" in events.next(within=0.5)[1]:
                    break
            except TimeoutError:
                continue
        else:
            raise AssertionError("the watcher never announced a change")
        time.sleep(0.2)  # let the probe's last events pass
        for change, name in (
                (lambda: (served.root / "opening.txt").write_text(ANNOTATED + "# saved\n"),
                 "opening.txt"),
                (lambda: (served.root / "sub" / "new.txt").write_text(WHERE), "sub/new.txt"),
                (lambda: (served.root / "sub" / "new.txt").unlink(), "sub/new.txt")):
            change()
            # A deadline, not a measurement: 2 s is what the issue promises the page.
            deadline = time.monotonic() + 2.0
            while True:
                event, paths = events.next(within=max(0.01, deadline - time.monotonic()))
                if name in paths:
                    break
            assert event == "change"
    finally:
        events.close()


# --- the command ----------------------------------------------------------------------------

SERVE = [sys.executable, "-c", "from boardgen.cli import main; main()", "serve"]


def start_serving(folder: Path) -> tuple[subprocess.Popen[str], str]:
    process = subprocess.Popen([*SERVE, str(folder), "--no-open", "--port", "0"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert process.stdout is not None
    line = process.stdout.readline()
    found = re.search(r"http://127\.0\.0\.1:\d+/", line)
    if not found:
        process.kill()
        raise AssertionError(f"no address in {line!r}: {process.communicate()[1]}")
    return process, found.group()


def test_ctrl_c_ends_it_at_once_with_130_and_no_traceback(tmp_path: Path) -> None:
    folder = folder_with_diagrams(tmp_path)
    process, url = start_serving(folder)
    port = int(url.rstrip("/").rsplit(":", 1)[1])
    try:
        # A drawing made and an event stream open: Ctrl-C must end them too.
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        connection.request("GET", "/diagram/opening.txt")
        assert connection.getresponse().read().startswith(b"<?xml")
        events = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        events.request("GET", "/events")
        assert events.getresponse().status == 200
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=10)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 130
    assert "Traceback" not in err and err.strip() == "boardgen: interrupted"
    assert out == ""


def test_a_port_in_use_is_one_line_and_exit_2(
        run_cli: RunCli, tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = run_cli("serve", str(tmp_path), "--port", str(port), "--no-open")
    assert result.code == 2
    err = result.err
    assert err.count("\n") == 1 and f"--port {port}: 127.0.0.1:{port} is already in use" in err


def test_without_port_the_next_free_one_is_taken_and_said(
        monkeypatch: pytest.MonkeyPatch) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        monkeypatch.setattr(serve_module, "DEFAULT_PORT", port)
        server, note = serve_module._bind(None)
        try:
            chosen = server.server_address[1]
            assert port < chosen < port + serve_module.PORTS_TRIED
            assert note == f"port {port} is in use; using {chosen}"
        finally:
            server.server_close()


def test_bad_folders_and_help(run_cli: RunCli, tmp_path: Path) -> None:
    missing = run_cli("serve", str(tmp_path / "nope"), "--no-open")
    assert missing.code == 2
    assert missing.err == f"boardgen: error: DIR {tmp_path / 'nope'}: no such folder\n"
    (tmp_path / "file.txt").write_text("x")
    assert "not a folder" in run_cli("serve", str(tmp_path / "file.txt")).err
    helped = run_cli("serve", "--help")
    assert helped.code == 0
    for words in ("[DIR]", "--port", "--no-open", "127.0.0.1", "FILE:LINE"):
        assert words in helped.out, words


# --- the page, in a real browser ------------------------------------------------------------


def test_the_page_redraws_on_save_shows_errors_and_recovers(tmp_path: Path) -> None:
    browser_path = chromium()
    # The page's policy forbids eval: the test waits on selectors, which need none.
    from playwright.sync_api import sync_playwright

    folder = folder_with_diagrams(tmp_path)
    diagram = folder / "opening.txt"
    process, url = start_serving(folder)
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path=browser_path,
                args=["--no-sandbox", "--disable-gpu", "--headless", "--disable-dev-shm-usage"])
            try:
                page = browser.new_page(viewport={"width": 1200, "height": 760})
                problems: list[str] = []
                page.on("pageerror", lambda error: problems.append(str(error)))
                page.goto(url + "#file=opening.txt")
                page.wait_for_selector("body[data-state=ok]", timeout=20_000)
                title = page.get_attribute("#drawing", "data-title") or ""
                assert title.startswith("A connection, annotated. "), title
                assert page.locator("#files a").all_inner_texts() == [
                    "link-in.txt\ncopolymer", "opening.txt\ncopolymer", "sub/where.txt\no",
                    "typo.txt\ncopolimer"]
                page.evaluate("window.stillTheSamePage = true")

                # A save: the new drawing replaces the old without a reload.
                saved = ANNOTATED.replace("title: A connection, annotated",
                                          "title: A connection, saved")
                diagram.write_text(saved)
                page.wait_for_selector('#drawing[data-title^="A connection, saved. "]',
                                       timeout=20_000)
                assert page.evaluate("window.stillTheSamePage") is True
                assert page.get_attribute("body", "data-draws") == "2"

                # A broken save: FILE:LINE on the page, the line marked, the drawing kept.
                broken, number = broken_copy(saved, "place: D3 connection 2",
                                             "place: D3 connection 5")
                diagram.write_text(broken)
                page.wait_for_selector("body[data-state=error]", timeout=20_000)
                page.wait_for_selector("#bad-line", timeout=20_000)
                assert page.inner_text("#error").startswith(f"opening.txt:{number}: ")
                assert page.inner_text("#bad-line") == "place: D3 connection 5"
                assert page.locator("#source li").count() == len(broken.splitlines())
                assert page.locator("#drawing img").is_visible()
                assert (page.get_attribute("#drawing", "data-title") or "").startswith(
                    "A connection, saved. ")
                error_shot = page.screenshot()

                # The fix: the drawing comes back.
                diagram.write_text(saved)
                page.wait_for_selector("body[data-state=ok]", timeout=20_000)
                assert page.locator("#error").is_hidden() and page.locator("#source").is_hidden()
                assert page.get_attribute("body", "data-draws") == "3"

                # Another file, the ink theme, and the downloads of what is shown.
                page.click("text=where.txt")
                page.wait_for_selector('#drawing[data-title^="Where may the stone go?"]',
                                       timeout=20_000)
                page.select_option("#theme", "ink")
                page.wait_for_selector('body[data-draws="5"]', timeout=20_000)
                assert "theme=ink" in page.evaluate("location.hash")
                links = {name: page.get_attribute(f"#get-{name}", "href")
                         for name in ("pdf", "svg", "png")}
                for name, start in (("pdf", b"%PDF"), ("svg", b"<?xml"), ("png", b"\x89PNG")):
                    href = links[name]
                    assert href and "sub/where.txt" in href and "theme=ink" in href
                    download = page.request.get(url.rstrip("/") + href)
                    assert download.ok and download.body().startswith(start), name
                page.select_option("#theme", "colour")
                page.click("text=opening.txt")
                page.wait_for_selector('body[data-draws="7"][data-state="ok"]', timeout=20_000)
                good_shot = page.screenshot()
                assert page.evaluate("window.stillTheSamePage") is True
                assert problems == []
            finally:
                browser.close()
    finally:
        process.send_signal(signal.SIGINT)
        try:
            process.communicate(timeout=10)
        finally:
            if process.poll() is None:
                process.kill()
    for name, shot, in_colour in (("serve.png", good_shot, True),
                                  ("serve-error.png", error_shot, False)):
        _check_and_keep_screenshot(shot, tmp_path / name, REPO / "docs" / name, in_colour)


def _check_and_keep_screenshot(shot: bytes, scratch: Path, documented: Path,
                               in_colour: bool) -> None:
    """The screenshot is not a blank page, and shows the drawing in colour where it should
    (X's cells); the README's copy is rewritten with BOARDGEN_UPDATE_SCREENSHOTS=1, as a
    small palette PNG."""
    from PIL import Image

    image = Image.open(io.BytesIO(shot)).convert("RGB")
    colours = image.getcolors(maxcolors=1 << 20) or []
    assert len(colours) > 50
    if in_colour:
        x_cells = sum(count for count, (r, g, b) in colours
                      if r > 200 and 80 < g < 130 and 60 < b < 100)
        assert x_cells > 500, "no X cells on the screenshot"
    small = image.quantize(colors=64, method=Image.Quantize.MEDIANCUT)
    small.save(scratch, optimize=True)
    if os.environ.get("BOARDGEN_UPDATE_SCREENSHOTS"):
        documented.parent.mkdir(exist_ok=True)
        small.save(documented, optimize=True)


def test_the_lines_in_motion_open_and_pause_from_the_keyboard(tmp_path: Path) -> None:
    browser_path = chromium()
    from playwright.sync_api import sync_playwright

    folder = folder_with_diagrams(tmp_path)
    process, url = start_serving(folder)
    states = ("() => Array.from(document.querySelectorAll('.frame'), g => "
              "g.getAnimations().map(a => a.playState).join()).join(',')")
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path=browser_path,
                args=["--no-sandbox", "--disable-gpu", "--headless", "--disable-dev-shm-usage"])
            try:
                page = browser.new_page(viewport={"width": 1200, "height": 900})
                problems: list[str] = []
                page.on("pageerror", lambda error: problems.append(str(error)))
                page.on("console", lambda message: problems.append(message.text)
                        if message.type == "error" else None)
                page.goto(url + "#file=opening.txt")
                page.wait_for_selector("body[data-state=ok]", timeout=20_000)
                assert page.locator("#moving-frame").is_hidden()
                # The keyboard reaches the button (after the theme, paper, downloads and
                # the list of files); Enter opens the lines in motion.
                for _ in range(30):
                    page.keyboard.press("Tab")
                    if page.evaluate("document.activeElement.id") == "watch":
                        break
                assert page.evaluate("document.activeElement.id") == "watch"
                page.keyboard.press("Enter")
                assert page.get_attribute("#watch", "aria-expanded") == "true", problems
                page.wait_for_selector("#moving-frame:not([hidden])", timeout=20_000)
                frame = page.frame_locator("#moving-frame")
                frame.locator("#lines-pause").wait_for(timeout=20_000)
                moving = next(f for f in page.frames if "/animation/" in f.url)
                assert "theme=colour" in moving.url and "format=html" in moving.url
                label = frame.locator(".picture").get_attribute("aria-label") or ""
                assert label.startswith("A connection, annotated. An animation of 3 steps")
                assert "running" in moving.evaluate(states)
                # Tab goes on into the frame, to its Pause; Space pauses every frame.
                page.keyboard.press("Tab")
                page.keyboard.press("Tab")
                assert moving.evaluate("document.activeElement.id") == "lines-pause"
                page.keyboard.press("Space")
                assert set(moving.evaluate(states).split(",")) <= {"paused", ""}
                page.locator("#moving").scroll_into_view_if_needed()
                shot = page.screenshot(full_page=True)
                (tmp_path / "serve-moving.png").write_bytes(shot)
                if os.environ.get("BOARDGEN_SERVE_SHOT"):
                    Path(os.environ["BOARDGEN_SERVE_SHOT"]).write_bytes(shot)
                # Pressed again: the frame goes.
                page.focus("#watch")
                page.keyboard.press("Space")
                assert page.locator("#moving-frame").is_hidden()
                assert problems == []
            finally:
                browser.close()
    finally:
        process.send_signal(signal.SIGINT)
        try:
            process.communicate(timeout=10)
        finally:
            if process.poll() is None:
                process.kill()


def test_without_a_port_it_tries_twenty_and_names_those_it_tried(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import errno

    from boardgen.errors import BoardgenError
    from boardgen.publish import serve

    tried: list[int] = []

    def busy(address: tuple[str, int], handler: object) -> object:
        tried.append(address[1])
        raise OSError(errno.EADDRINUSE, "in use")

    monkeypatch.setattr(serve, "_HTTPServer", busy)
    with pytest.raises(BoardgenError) as refused:
        serve._bind(None)
    assert tried == list(range(8000, 8020))  # 8000 and the next 19, as the README says
    assert str(refused.value).startswith(f"ports {tried[0]} to {tried[-1]} are all in use")


def test_a_link_swapped_in_for_a_checked_file_is_not_read(tmp_path: Path) -> None:
    """The file is opened without following a link (O_NOFOLLOW): one put in its place
    between the check and the read is refused, not read through."""
    from boardgen.publish.serve import NotServed, read_settled

    real = tmp_path / "real.txt"
    real.write_text("game: o\n")
    os.utime(real, (1, 1))  # long quiet: read at once
    assert read_settled(real) == b"game: o\n"
    link = tmp_path / "link.txt"
    link.symlink_to(tmp_path / "secret.txt")
    (tmp_path / "secret.txt").write_text("secret\n")
    os.utime(tmp_path / "secret.txt", (1, 1))
    with pytest.raises(NotServed):
        read_settled(link)


def test_an_internal_error_is_one_line_naming_its_kind(
        served: PreviewServer, capsys: pytest.CaptureFixture[str]) -> None:
    try:
        raise ValueError("something broke")
    except ValueError:
        served.httpd.handle_error(None, ("127.0.0.1", 1))
    assert capsys.readouterr().err == \
        "boardgen serve: internal error: ValueError: something broke\n"
    try:
        raise ConnectionResetError("gone")
    except ConnectionResetError:
        served.httpd.handle_error(None, ("127.0.0.1", 1))
    assert capsys.readouterr().err == ""  # the browser went away: nothing to say
