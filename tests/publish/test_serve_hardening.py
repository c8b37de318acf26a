"""``boardgen serve`` against other sites and under load (issue 30): Origin and
Sec-Fetch-Site, one Host header, port 80's Host form, a malformed request line, a name
that turns into a pipe, saves caught half way, event-stream slots, the folder removed and
made again, idle and surplus connections, SIGTERM and SIGHUP.  Each failed on f4fc8bd."""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from conftest import TESTS, chromium

from boardgen.publish import serve as serve_module
from boardgen.publish.serve import PreviewServer

# Slow: left out of the quick subset (pytest -m "not slow"; the README says which).
pytestmark = pytest.mark.slow

ANNOTATED = (TESTS / "diagram_files" / "copolymer-annotated.txt").read_text()
ONE_PANEL = "game: copolymer\nboard: hexhex 3\ntitle: Growing\npanel: One\nplace: C3\n"
TWO_PANELS = ONE_PANEL + "panel: Two\nplace: B2\n"


@pytest.fixture
def served(tmp_path: Path) -> Iterator[PreviewServer]:
    folder = tmp_path / "inside"
    folder.mkdir()
    (folder / "opening.txt").write_text(ANNOTATED)
    server = PreviewServer(folder, port=0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server
    server.close()
    thread.join(timeout=5)


def ask(server: PreviewServer, path: str, headers: dict[str, str] | None = None,
        timeout: float = 30, port: int | None = None) -> tuple[int, bytes]:
    connection = http.client.HTTPConnection("127.0.0.1", port or server.port, timeout=timeout)
    try:
        connection.request("GET", path, headers=headers or {})
        answer = connection.getresponse()
        return answer.status, answer.read()
    finally:
        connection.close()


def raw(server: PreviewServer, request: bytes, timeout: float = 10) -> bytes:
    with socket.create_connection(("127.0.0.1", server.port), timeout=timeout) as line:
        line.sendall(request)
        chunks = []
        while chunk := line.recv(65536):
            chunks.append(chunk)
        return b"".join(chunks)


# --- 3: other sites ------------------------------------------------------------------------

@pytest.mark.parametrize("path", ["/diagram/opening.txt", "/files", "/source/opening.txt",
                                  "/diagram/missing.txt", "/events",
                                  "/animation/opening.txt?format=html"])
@pytest.mark.parametrize("headers", [{"Sec-Fetch-Site": "cross-site"},
                                     {"Sec-Fetch-Site": "same-site"},
                                     {"Origin": "http://evil.example"},
                                     {"Origin": "null"}])
def test_another_sites_requests_are_refused(served: PreviewServer, path: str,
                                            headers: dict[str, str]) -> None:
    status, _ = ask(served, path, headers)
    assert status == 403  # the same for a file that exists and one that does not


def test_the_page_and_its_own_requests_are_answered(served: PreviewServer) -> None:
    own = {"Sec-Fetch-Site": "same-origin", "Origin": f"http://127.0.0.1:{served.port}"}
    assert ask(served, "/diagram/opening.txt", own)[0] == 200
    # The page's frame of the lines in motion: a navigation of a frame, from this page.
    framed = {"Sec-Fetch-Site": "same-origin", "Sec-Fetch-Mode": "navigate",
              "Sec-Fetch-Dest": "iframe"}
    assert ask(served, "/animation/opening.txt?format=html", framed)[0] == 200
    assert ask(served, "/files", {"Sec-Fetch-Site": "same-origin"})[0] == 200
    assert ask(served, "/", {"Sec-Fetch-Site": "none", "Sec-Fetch-Mode": "navigate"})[0] == 200
    # A link from another site may open the page (it holds no data), nothing else.
    link = {"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "navigate"}
    assert ask(served, "/", link)[0] == 200
    assert ask(served, "/diagram/opening.txt", link)[0] == 403


@pytest.mark.parametrize("order", [0, 1])
def test_two_host_headers_are_refused(served: PreviewServer, order: int) -> None:
    hosts = [f"127.0.0.1:{served.port}", "evil.example"]
    if order:
        hosts.reverse()
    request = (f"GET /files HTTP/1.1\r\nHost: {hosts[0]}\r\nHost: {hosts[1]}\r\n"
               "Connection: close\r\n\r\n").encode()
    assert raw(served, request).startswith(b"HTTP/1.0 400")


# --- 20: port 80 -----------------------------------------------------------------------------

def test_on_port_80_the_host_without_a_port_is_this_server(served: PreviewServer) -> None:
    port, served.port = served.port, 80  # what the checks compare with, as on port 80
    for host in ("127.0.0.1", "localhost", "127.0.0.1:80", "LOCALHOST:80"):
        assert ask(served, "/files", {"Host": host}, port=port)[0] == 200, host
    assert ask(served, "/files", {"Host": "evil.example"}, port=port)[0] == 403
    assert ask(served, "/files", {"Host": "127.0.0.1", "Origin": "http://127.0.0.1"},
               port=port)[0] == 200


# --- 15: a malformed request line --------------------------------------------------------------

def test_a_malformed_url_is_400_not_an_internal_error(
        served: PreviewServer, capsys: pytest.CaptureFixture[str]) -> None:
    answer = raw(served, f"GET http://[::1 HTTP/1.1\r\nHost: 127.0.0.1:{served.port}\r\n"
                         "Connection: close\r\n\r\n".encode())
    assert answer.startswith(b"HTTP/1.0 400"), answer[:80]
    assert "internal error" not in capsys.readouterr().err


# --- 4: a listed name that becomes a pipe ------------------------------------------------------

def test_a_name_that_becomes_a_pipe_does_not_hang_the_list(
        served: PreviewServer, monkeypatch: pytest.MonkeyPatch) -> None:
    """The pipe is put in place between the stat() that says 'a file' and the open()."""
    pipe = served.root / "race.txt"
    os.mkfifo(pipe)
    stand_in = served.root / "opening.txt"
    real_stat = Path.stat

    def stat_before_the_swap(self: Path, **kwargs: bool) -> os.stat_result:
        return real_stat(stand_in if self == pipe else self, **kwargs)

    monkeypatch.setattr(Path, "stat", stat_before_the_swap)
    results: list[int] = []
    listers = [threading.Thread(target=lambda: results.append(ask(served, "/files")[0]),
                                daemon=True) for _ in range(2)]
    for lister in listers:
        lister.start()
    for lister in listers:
        lister.join(timeout=10)
    hung = any(lister.is_alive() for lister in listers)
    if hung:  # let the old code's blocked open() go, so that the test run can end
        with open(os.open(pipe, os.O_WRONLY | os.O_NONBLOCK), "wb"):
            pass
    assert not hung and results == [200, 200]


# --- 11: saves caught half way ---------------------------------------------------------------

def panels_drawn(svg: bytes) -> int:
    return len(re.findall(rb'<g class="panel"', svg)) or svg.count(b"After ")


def test_a_file_rewritten_without_pause_is_never_drawn_cut(
        served: PreviewServer, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each save empties the file, writes a first part that is a good diagram on its own,
    then the rest: a drawing of the first part alone is a cut file drawn as if good."""
    monkeypatch.setattr(serve_module, "SETTLE_LIMIT_S", 0.6)
    path = served.root / "growing.txt"
    path.write_text(TWO_PANELS)
    whole = ask(served, "/diagram/growing.txt")
    assert whole[0] == 200
    cut = served.root / "cut.txt"
    cut.write_text(ONE_PANEL)
    time.sleep(0.2)
    assert ask(served, "/diagram/cut.txt")[1] != whole[1]
    stop = threading.Event()

    def save_again_and_again() -> None:
        while not stop.is_set():
            with open(path, "w") as handle:
                handle.write(ONE_PANEL)
                handle.flush()
                time.sleep(0.03)
                handle.write(TWO_PANELS[len(ONE_PANEL):])
            time.sleep(0.03)

    saver = threading.Thread(target=save_again_and_again, daemon=True)
    saver.start()
    try:
        answers = [ask(served, "/diagram/growing.txt") for _ in range(8)]
    finally:
        stop.set()
        saver.join()
    for status, body in answers:
        assert status in (200, 503), (status, body[:120])
        if status == 200:
            assert body == whole[1]


def test_a_file_removed_and_written_again_is_not_404(served: PreviewServer) -> None:
    path = served.root / "opening.txt"
    path.unlink()
    answers: list[int] = []
    asker = threading.Thread(target=lambda: answers.append(ask(served,
                                                               "/diagram/opening.txt")[0]))
    asker.start()
    time.sleep(0.1)
    path.write_text(ANNOTATED)
    asker.join(timeout=30)
    assert answers == [200]


# --- 22, 23: the event stream ------------------------------------------------------------------

def open_stream(server: PreviewServer) -> tuple[socket.socket, bytes]:
    line = socket.create_connection(("127.0.0.1", server.port), timeout=10)
    line.sendall(b"GET /events HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n\r\n" % server.port)
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = line.recv(4096)
        if not chunk:
            break
        head += chunk
    return line, head


def test_a_closed_stream_frees_its_slot_at_once(served: PreviewServer) -> None:
    streams = [open_stream(served) for _ in range(serve_module.MAX_SUBSCRIBERS)]
    assert all(b" 200 " in head.split(b"\r\n")[0] for _, head in streams)
    refused = open_stream(served)
    assert b" 503 " in refused[1].split(b"\r\n")[0]
    refused[0].close()
    for line, _ in streams:
        line.close()
    deadline = time.monotonic() + 3.0  # the keep-alive is 15 s: this is the pages going
    while True:
        line, head = open_stream(served)
        line.close()
        if b" 200 " in head.split(b"\r\n")[0]:
            break
        assert time.monotonic() < deadline, "the slots outlived their pages"
        time.sleep(0.2)


def events_until(line: socket.socket, wanted: Callable[[dict[str, object]], bool],
                 within: float) -> bool:
    deadline = time.monotonic() + within
    buffer = b""
    while time.monotonic() < deadline:
        line.settimeout(max(0.05, deadline - time.monotonic()))
        try:
            chunk = line.recv(4096)
        except TimeoutError:
            return False
        if not chunk:
            return False
        buffer += chunk
        while b"\n\n" in buffer:
            event, buffer = buffer.split(b"\n\n", 1)
            for row in event.decode().splitlines():
                if row.startswith("data: ") and wanted(json.loads(row[6:])):
                    return True
    return False


def test_live_reload_survives_the_folder_removed_and_made_again(
        served: PreviewServer) -> None:
    line, head = open_stream(served)
    try:
        probe = served.root / "probe.txt"
        for attempt in range(40):  # the watcher is running once it announces a probe
            probe.write_text(f"{attempt}\n")
            if events_until(line, lambda data: "probe.txt" in data.get("paths", []), 0.5):
                break
        root = served.root
        shutil.rmtree(root)
        time.sleep(0.5)
        root.mkdir()
        (root / "opening.txt").write_text(ANNOTATED)
        for attempt in range(20):
            (root / "again.txt").write_text(f"{attempt}\n{ANNOTATED}")
            if events_until(line, lambda data: "again.txt" in data.get("paths", []), 0.5):
                break
        else:
            raise AssertionError("no change announced after the folder was made again")
    finally:
        line.close()


# --- 24: idle and surplus connections, SIGTERM and SIGHUP -----------------------------------

def test_a_half_sent_request_is_closed_when_idle(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(serve_module._Handler, "timeout", 1.0)
    monkeypatch.setattr(serve_module, "MAX_CONNECTIONS", 8)
    folder = tmp_path / "inside"
    folder.mkdir()
    server = PreviewServer(folder, port=0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        idle = [socket.create_connection(("127.0.0.1", server.port), timeout=10)
                for _ in range(12)]
        for line in idle:
            line.sendall(b"GET / HTTP/1.1\r\n")  # and nothing more
        started = time.monotonic()
        for line in idle:  # each closed: at once (no slot) or once idle for a second
            line.settimeout(6)
            try:
                assert line.recv(100) == b""
            except ConnectionResetError:
                pass
            except TimeoutError:
                raise AssertionError("a half-sent request was held open") from None
        assert time.monotonic() - started < 6
        for line in idle:
            line.close()
        assert ask(server, "/files")[0] == 200
    finally:
        server.close()
        thread.join(timeout=5)


SERVE = [sys.executable, "-c", "from boardgen.cli import main; main()", "serve"]


@pytest.mark.parametrize("signum, code, word", [(signal.SIGTERM, 143, "terminated"),
                                                (signal.SIGHUP, 129, "hung up")])
def test_sigterm_and_sighup_remove_the_copies(tmp_path: Path, signum: int, code: int,
                                              word: str) -> None:
    folder = tmp_path / "inside"
    folder.mkdir()
    (folder / "opening.txt").write_text(ANNOTATED)
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    process = subprocess.Popen([*SERVE, str(folder), "--no-open", "--port", "0"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               env={**os.environ, "TMPDIR": str(temporary)})
    try:
        assert process.stdout is not None
        found = re.search(r"http://127\.0\.0\.1:(\d+)/", process.stdout.readline())
        assert found
        connection = http.client.HTTPConnection("127.0.0.1", int(found.group(1)), timeout=30)
        connection.request("GET", "/diagram/opening.txt")
        assert connection.getresponse().status == 200
        connection.close()
        assert any(temporary.iterdir())  # the copy the drawing was made from
        process.send_signal(signum)
        _, err = process.communicate(timeout=20)
    finally:
        process.kill()
    assert process.returncode == code, err
    assert err.strip().splitlines() == [f"boardgen: {word}"]
    assert list(temporary.iterdir()) == []


def test_the_page_listens_again_after_a_refused_stream(served: PreviewServer) -> None:
    """With every event-stream slot taken the page's stream is refused (503), which
    EventSource does not retry by itself: the page opens a new one, and once a slot is free
    it is watching again."""
    browser_path = chromium()
    from playwright.sync_api import sync_playwright

    streams = [open_stream(served) for _ in range(serve_module.MAX_SUBSCRIBERS)]
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path=browser_path,
                args=["--no-sandbox", "--disable-gpu", "--headless", "--disable-dev-shm-usage"])
            try:
                page = browser.new_page()
                page.goto(f"http://127.0.0.1:{served.port}/")
                page.wait_for_selector("#status:has-text('trying again')", timeout=20_000)
                time.sleep(2.5)  # more than one retry, all refused
                for line, _ in streams:
                    line.close()
                streams = []
                page.wait_for_selector("#status:has-text('Watching for saves')",
                                       timeout=20_000)
            finally:
                browser.close()
    finally:
        for line, _ in streams:
            line.close()


# --- Hardening V, 12: two Origin or Sec-Fetch-Site headers; another host named in the URL ---

@pytest.mark.parametrize("name, values", [
    ("Origin", ["http://127.0.0.1:{port}", "http://evil.example"]),
    ("Sec-Fetch-Site", ["same-origin", "cross-site"]),
    ("Sec-Fetch-Mode", ["cors", "navigate"])])
@pytest.mark.parametrize("order", [0, 1])
def test_two_origin_headers_are_refused(served: PreviewServer, name: str, values: list[str],
                                        order: int) -> None:
    values = [value.format(port=served.port) for value in values]
    if order:
        values.reverse()
    request = (f"GET /files HTTP/1.1\r\nHost: 127.0.0.1:{served.port}\r\n{name}: {values[0]}"
               f"\r\n{name}: {values[1]}\r\nConnection: close\r\n\r\n").encode()
    assert raw(served, request).startswith(b"HTTP/1.0 400")


@pytest.mark.parametrize("target", ["http://evil.example/files", "HTTP://EVIL.example/files",
                                    "https://127.0.0.1:{port}/files", "http:/files"])
def test_a_target_naming_another_host_is_refused(served: PreviewServer, target: str) -> None:
    request = (f"GET {target.format(port=served.port)} HTTP/1.1\r\n"
               f"Host: 127.0.0.1:{served.port}\r\nConnection: close\r\n\r\n").encode()
    assert raw(served, request).startswith(b"HTTP/1.0 403")
    # The absolute form naming this server is still this server's.
    own = (f"GET http://127.0.0.1:{served.port}/files HTTP/1.1\r\n"
           f"Host: 127.0.0.1:{served.port}\r\nConnection: close\r\n\r\n").encode()
    assert raw(served, own).startswith(b"HTTP/1.0 200")


# --- Hardening V, 5: a folder 1,100 deep; folders count toward the limit ---------------------

def test_a_folder_1100_deep_is_listed(served: PreviewServer) -> None:
    deep = served.root
    for _ in range(1100):  # one at a time: mkdir(parents=True) recurses too
        deep = deep / "d"
        deep.mkdir()
    (deep / "bottom.txt").write_text(ONE_PANEL)
    try:
        status, body = ask(served, "/files")
        assert status == 200
        paths = [entry["path"] for entry in json.loads(body)["files"]]
        assert "/".join(["d"] * 1100) + "/bottom.txt" in paths and "opening.txt" in paths
    finally:  # removed here, bottom up: pytest's own clean-up (rmtree) recurses too
        (deep / "bottom.txt").unlink()
        while deep != served.root:
            deep.rmdir()
            deep = deep.parent


def test_empty_folders_count_toward_the_limit(served: PreviewServer,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(serve_module, "MAX_VISITED", 50)
    for number in range(100):
        (served.root / f"empty{number:03}").mkdir()
    status, body = ask(served, "/files")
    assert status == 200 and json.loads(body)["truncated"] is True


# --- Hardening V, 4: a request head trickled in line by line has a deadline ------------------

def test_trickled_request_heads_do_not_hold_every_slot(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(serve_module, "HEAD_DEADLINE_S", 1.0, raising=False)
    monkeypatch.setattr(serve_module, "MAX_CONNECTIONS", 8)
    folder = tmp_path / "inside"
    folder.mkdir()
    server = PreviewServer(folder, port=0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    stop = threading.Event()
    lines = [socket.create_connection(("127.0.0.1", server.port), timeout=10)
             for _ in range(8)]

    def trickle() -> None:  # a header line every 0.2 s: each read well within its timeout
        for line in lines:
            line.sendall(b"GET /files HTTP/1.1\r\n")
        while not stop.wait(0.2):
            for line in lines:
                with contextlib.suppress(OSError):
                    line.sendall(b"X-Slow: 1\r\n")

    trickler = threading.Thread(target=trickle, daemon=True)
    trickler.start()
    try:
        time.sleep(0.5)
        started = time.monotonic()
        answered = None
        while answered is None and time.monotonic() - started < 8:
            try:
                answered = ask(server, "/files", timeout=5)[0]
            except (ConnectionError, http.client.HTTPException, OSError):
                time.sleep(0.2)
        assert answered == 200, "the trickled heads held every slot"
        assert time.monotonic() - started < 4
        for line in lines:  # each was closed by its deadline, not answered
            line.settimeout(2)
            try:
                assert not line.recv(100).startswith(b"HTTP/1.0 200")
            except (ConnectionResetError, TimeoutError):
                pass
    finally:
        stop.set()
        trickler.join(timeout=5)
        for line in lines:
            line.close()
        server.close()
        thread.join(timeout=5)


# --- Hardening V, 6: a subfolder the user may not read does not stop live reload ------------

@pytest.mark.skipif(os.geteuid() != 0 or shutil.which("setpriv") is None,
                    reason="serving as another user needs root and setpriv (util-linux)")
def test_an_unreadable_subfolder_does_not_stop_live_reload() -> None:
    import tempfile

    root = Path(tempfile.mkdtemp(prefix="boardgen-serve-6-", dir="/tmp"))
    server = None
    try:
        root.chmod(0o755)
        os.chown(root, 65534, 65534)
        (root / "locked").mkdir(mode=0o700)  # root's: nobody may not read it
        diagram = root / "a.txt"
        diagram.write_text(ONE_PANEL)
        os.chown(diagram, 65534, 65534)
        boardgen = str(Path(sys.executable).parent / "boardgen")
        server = subprocess.Popen(
            [str(shutil.which("setpriv")), "--reuid=65534", "--regid=65534", "--clear-groups",
             boardgen, "serve", str(root), "--port", "0"], stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, text=True, env={**os.environ, "HOME": str(root)})
        assert server.stdout is not None
        port = int(re.search(r"127\.0\.0\.1:(\d+)/", server.stdout.readline()).group(1))
        with socket.create_connection(("127.0.0.1", port), timeout=10) as line:
            line.sendall(f"GET /events HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
            received = b""
            while b"event: hello" not in received:
                received += line.recv(4096)
            time.sleep(1.5)  # the watcher started (and, here, fell back to polling)
            with diagram.open("a") as handle:
                handle.write("place: C3\n")
            deadline = time.monotonic() + 8
            while b'"a.txt"' not in received and time.monotonic() < deadline:
                with contextlib.suppress(TimeoutError):
                    line.settimeout(max(0.1, deadline - time.monotonic()))
                    received += line.recv(4096)
        assert b"event: change" in received and b'"a.txt"' in received, received[-300:]
    finally:
        if server is not None:
            server.terminate()
            server.communicate(timeout=10)
        shutil.rmtree(root)
