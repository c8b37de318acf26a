"""How long a save takes to reach the page of ``boardgen serve``.

    python bench/bench_serve.py [--saves 10]

Copies the tempo diagram (templates/copolymer/tempo.txt, with a 'game: copolymer' line, as
a file of one's own must say) into a temporary folder, serves it, opens the page in
headless Chromium (Debian's, driven by Playwright), and saves the file N times, a changed
title each time.  For each save: from just before the write to the moment the page shows
the new drawing (the page stamps that moment on <body data-drawn-at>, same clock).  Also
reports, for comparison, how long the drawing itself takes in this process (the loader and
the SVG writer, nothing else), and the waits the server adds on purpose: the watcher's
step (WATCH_STEP_MS) and the quiet time before a recently written file still open for
writing is read (QUIET_S).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
TEMPO = REPO / "templates" / "copolymer" / "tempo.txt"


def drawing_ms(path: Path, repeat: int) -> list[float]:
    from boardgen.games.registry import load_diagram_file
    from boardgen.render.diagram import draw_diagram
    from boardgen.render.paper import parse_paper
    from boardgen.render.scene import theme_named

    times = []
    for _ in range(repeat + 1):
        started = time.perf_counter()
        game, built = load_diagram_file(path)
        draw_diagram(built, game.key, path.stem, "svg", paper=parse_paper("a4"),
                     theme=theme_named("colour"))
        times.append((time.perf_counter() - started) * 1000)
    return times[1:]  # the first warms the imports


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--saves", type=int, default=10)
    parser.add_argument("--pause", type=float, default=1.0,
                        help="seconds between a drawing shown and the next save")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    from boardgen.publish.serve import EARLY_GRACE_S, QUIET_S, WATCH_STEP_MS

    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        sys.exit("bench_serve: needs Debian's chromium")
    with tempfile.TemporaryDirectory() as folder:
        diagram = Path(folder) / "tempo.txt"
        original = "game: copolymer\n" + TEMPO.read_text()
        diagram.write_text(original)
        draws = drawing_ms(diagram, args.saves)
        server = subprocess.Popen(
            [sys.executable, "-c", "from boardgen.cli import main; main()", "serve", folder,
             "--no-open", "--port", "0"], stdout=subprocess.PIPE, text=True)
        assert server.stdout is not None
        found = re.search(r"http://127\.0\.0\.1:\d+/", server.stdout.readline())
        assert found, "the server printed no address"
        latencies = []
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(
                    executable_path=chromium,
                    args=["--no-sandbox", "--disable-gpu", "--headless"])
                page = browser.new_page()
                page.goto(found.group() + "#file=tempo.txt")
                page.wait_for_selector('body[data-draws="1"]', timeout=30_000)
                for save in range(1, args.saves + 1):
                    time.sleep(args.pause)
                    text = original.replace("title: Tempo:", f"title: Tempo (save {save}):")
                    before_ms = time.time() * 1000
                    diagram.write_text(text)
                    page.wait_for_selector(f'body[data-draws="{save + 1}"]', timeout=30_000)
                    shown_ms = float(page.get_attribute("body", "data-drawn-at") or "nan")
                    latencies.append(shown_ms - before_ms)
                browser.close()
        finally:
            server.send_signal(signal.SIGINT)
            server.wait(timeout=10)
    print(f"save -> page, {args.saves} saves of the tempo diagram (ms): "
          f"median {statistics.median(latencies):.0f}, min {min(latencies):.0f}, "
          f"max {max(latencies):.0f}")
    print("  each: " + " ".join(f"{value:.0f}" for value in latencies))
    print(f"drawing alone, in process (ms): median {statistics.median(draws):.0f}")
    print(f"waits on purpose (ms): watcher step {WATCH_STEP_MS}, a read early shown "
          f"{EARLY_GRACE_S * 1000:.0f} after the last change (drawn meanwhile), quiet time "
          f"{QUIET_S * 1000:.0f} (a file still open for writing only)")
    print("load average at the end: " + ", ".join(f"{x:.1f}" for x in os.getloadavg()))


if __name__ == "__main__":
    main()
