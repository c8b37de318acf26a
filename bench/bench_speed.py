"""Every ratio of issue 25's table in one paired run: `boardgen all` against older code,
the side-100 PNG and SVG against their floors, the engines against lean and naive ones.

    python bench/bench_speed.py [--repeat N] [--games N] [--against REV] [--skip-all]
                                [--only all|writers|engines]

Medians of N rounds; in each round the two sides of a comparison run one right after the
other (interleaved), so that a busy machine slows both alike.  Compare the ratios, not
the seconds.

- ``all``: ``boardgen all`` in fresh interpreters, on this checkout and on the code at
  REV (default 7494c29, the code issue 25 measures against), which is checked out into a
  temporary folder (``git archive``) and run with the same interpreter.  The old code has
  no ``--jobs``: it is run as it was, against ours with its default (all cores) and with
  ``--jobs 1``.  Target: <= 0.35x, and <= 0.5x with ``--jobs 1``; these runs share one
  cache folder (BOARDGEN_CACHE_DIR), as a user's second build does: the HTML sheets' cut
  fonts and every finished file (sheets, kits, diagrams, boards, the printer check) and
  thumbnail (boardgen.publish.sheet_cache) are read back from it.  A first build on a machine (an
  empty cache: fonts cut, every sheet set and kept) is shown beside them.  After it, the
  rule sheets' share of ``all --jobs 1`` (the time inside the Typst and HTML sheet
  writers and the kits, with the cache warm: reading them back).
- PNG: ``boardgen board copolymer --side 100 --cell-mm C --dpi D -o b.png`` on the
  default board (labels and title) and with ``--labels none --title ''`` (the bare board),
  at 36 dpi (8 mm cells) and 150 dpi (5 mm: 8 mm would pass the 80-million-pixel limit),
  against ``bench/floors.py png``: cairo drawing the same hexagons as ONE path (and, on the
  default board, the labels with cairo's own text call) into an image of the same pixels,
  written by cairo's PNG writer, importing nothing of boardgen.  Target <= 1.0x.
- SVG: ``boardgen board copolymer --side 100 -o b.svg`` (default and bare) against
  ``bench/floors.py svg``: the same per-cell markup from one f-string per cell in the same
  document frame (labels and title as ``<text>``), importing nothing of boardgen.
  Target <= 3x.
- Engines (bench_engines.py, in one process, paired seed by seed): O random play-outs
  (edges 4, 6, 10) against the lean engine, target >= 1.0x (floor / boardgen); Copolymer
  against the lean engine, >= 1.2x; Polygone against the naive engine, >= 10x.
"""

from __future__ import annotations

import argparse
import atexit
import os
import shutil
import statistics
import struct
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
CHECKOUT = HERE.parent
sys.path.insert(0, str(HERE))

OLD_REV = "7494c29"


# boardgen keeps the sheet fonts it cuts and the sheets it finishes in a cache folder
# (BOARDGEN_CACHE_DIR): one of the bench's own, kept across its rounds (a user's second
# build), and a fresh one per run for the first build on a machine ("cold").
CACHE = tempfile.mkdtemp(prefix="bench-speed-cache-")
atexit.register(shutil.rmtree, CACHE, ignore_errors=True)
COLD = "cold"


def environment(checkout: Path, cache: str = CACHE) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPATH"] = str(checkout)
    env["BOARDGEN_CACHE_DIR"] = tempfile.mkdtemp(prefix="bench-speed-cold-", dir=CACHE) \
        if cache == COLD else cache
    return env


def timed(argv: list[str], checkout: Path, folder: str, cache: str = CACHE) -> float:
    """Seconds of one fresh interpreter running argv (a failure is an error: a ratio of a
    command that did not do its work would mean nothing)."""
    env = environment(checkout, cache)
    start = time.perf_counter()
    result = subprocess.run([sys.executable, *argv], cwd=folder, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, check=False)
    seconds = time.perf_counter() - start
    if result.returncode:
        raise SystemExit(f"{' '.join(argv)} failed in {checkout}: "
                         f"{result.stderr.decode(errors='replace')[-500:]}")
    return seconds


def paired_processes(sides: dict[str, tuple[list[str], Path]], repeat: int,
                     folder: str, cold: frozenset[str] = frozenset()) -> dict[str, float]:
    """Median seconds of each side, run in turn, after one round not counted (byte-code
    caches, the disk cache, boardgen's font cache); the sides named in ``cold`` run with
    an empty font cache every time."""
    times: dict[str, list[float]] = {name: [] for name in sides}
    for round_ in range(repeat + 1):
        for name, (argv, checkout) in sides.items():
            seconds = timed(argv, checkout, folder, COLD if name in cold else CACHE)
            if round_:
                times[name].append(seconds)
    return {name: statistics.median(t) for name, t in times.items()}


def report(what: str, ours: float, floor: float, target: str) -> None:
    print(f"{what:58} {ours:8.3f} s {floor:8.3f} s {ours / floor:7.2f}x   {target}",
          flush=True)


def png_size(path: Path) -> tuple[int, int]:
    width, height = struct.unpack(">II", path.read_bytes()[16:24])
    return width, height


def writers(repeat: int, folder: str) -> None:
    """The side-100 board against the honest floors (bench/floors.py: nothing of boardgen
    imported, the PNG's cells one cairo path), on the default board (labels and title) and
    on the bare one (the cells alone), whole processes."""
    boardgen = ["-m", "boardgen.cli"]
    floors = str(HERE / "floors.py")
    boards = {"default": [], "bare": ["--labels", "none", "--title", ""]}
    for dpi, cell in ((36, 8), (150, 5)):
        for board, options in boards.items():
            ours = [*boardgen, "board", "copolymer", "--side", "100", "--cell-mm", str(cell),
                    "--dpi", str(dpi), *options, "-o", "b.png"]
            timed(ours, CHECKOUT, folder)
            width, height = png_size(Path(folder) / "b.png")
            floor = [floors, "png", "100", str(cell), str(dpi), str(width), str(height),
                     "f.png", board]
            medians = paired_processes({"ours": (ours, CHECKOUT),
                                        "floor": (floor, CHECKOUT)}, repeat, folder)
            report(f"PNG side 100 {board}, {cell} mm, {dpi} dpi, x one cairo path",
                   medians["ours"], medians["floor"], "<= 1.0x")
    for board, options in boards.items():
        ours = [*boardgen, "board", "copolymer", "--side", "100", *options, "-o", "b.svg"]
        floor = [floors, "svg", "100", "8", "f.svg", board]
        medians = paired_processes({"ours": (ours, CHECKOUT), "floor": (floor, CHECKOUT)},
                                   repeat, folder)
        report(f"SVG side 100 {board}, x f-string writer", medians["ours"],
               medians["floor"], "<= 3x")


def gallery(repeat: int, folder: str, rev: str) -> None:
    with tempfile.TemporaryDirectory() as old:
        archive = subprocess.run(["git", "-C", str(CHECKOUT), "archive", rev],
                                 capture_output=True, check=True).stdout
        subprocess.run(["tar", "-x", "-C", old], input=archive, check=True)
        boardgen = ["-m", "boardgen.cli", "all", "-o"]
        medians = paired_processes({
            "ours": ([*boardgen, "ours"], CHECKOUT),
            "before": ([*boardgen, "before"], Path(old)),
            "ours, --jobs 1": ([*boardgen, "ours-1", "--jobs", "1"], CHECKOUT),
            "ours, first build": ([*boardgen, "ours-cold"], CHECKOUT),
        }, repeat, folder, cold=frozenset({"ours, first build"}))
        report(f"all, x the code at {rev} (its only way: one process)", medians["ours"],
               medians["before"], "<= 0.35x")
        report(f"all --jobs 1, x the code at {rev}", medians["ours, --jobs 1"],
               medians["before"], "<= 0.5x")
        report(f"all, first build (empty cache: fonts cut, sheets set), x {rev}",
               medians["ours, first build"], medians["before"], "(shown)")


SHARE_PROBE = """
import sys, time
from boardgen.publish import kit, sheet, typeset
spent = [0.0]
def timed(real):
    def call(*args, **kwargs):
        start = time.perf_counter()
        try:
            return real(*args, **kwargs)
        finally:
            spent[0] += time.perf_counter() - start
    return call
typeset.render_sheet_pdf = timed(typeset.render_sheet_pdf)
sheet.render_sheet_html = timed(sheet.render_sheet_html)
kit.render_kit = timed(kit.render_kit)
from boardgen.cli import main
start = time.perf_counter()
try:
    main(sys.argv[1:])
finally:
    print(spent[0], time.perf_counter() - start, file=sys.stderr)
"""


def sheet_share(repeat: int, folder: str) -> None:
    """The rule sheets' share of ``all --jobs 1``: the time inside render_sheet_pdf,
    render_kit and render_sheet_html, over the command's, medians (the cache warm: the
    rounds share it)."""
    shares, totals = [], []
    for round_ in range(repeat + 1):
        result = subprocess.run([sys.executable, "-c", SHARE_PROBE, "all", "-o", "share",
                                 "--jobs", "1"], cwd=folder, env=environment(CHECKOUT),
                                capture_output=True, text=True, check=True)
        sheets, total = map(float, result.stderr.strip().splitlines()[-1].split())
        if round_:
            shares.append(sheets / total)
            totals.append(total)
    print(f"{'all --jobs 1: the sheets and kits (cache warm) share':58} "
          f"{statistics.median(shares) * 100:6.0f} %  of {statistics.median(totals):.3f} s "
          "(in the command, after its imports)", flush=True)


def engines(games: int) -> None:
    from bench_engines import engine_ratios

    print(f"engines, {games} games; ratio = floor time / boardgen time (above 1: faster); "
          "targets: O x lean >= 1.0x, Copolymer x lean >= 1.2x, Polygone x naive >= 10x",
          flush=True)
    engine_ratios(games)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5, help="rounds counted (5)")
    parser.add_argument("--games", type=int, default=200, help="engine play-outs (200)")
    parser.add_argument("--against", default=OLD_REV, help=f"old code for all ({OLD_REV})")
    parser.add_argument("--skip-all", action="store_true", help="leave out boardgen all")
    parser.add_argument("--only", choices=("all", "writers", "engines"),
                        help="run one part alone")
    args = parser.parse_args()
    print(f"{'what':58} {'ours':>10} {'floor':>10} {'ratio':>8}   target", flush=True)
    parts = {args.only} if args.only else {"all", "writers", "engines"} - (
        {"all"} if args.skip_all else set())
    with tempfile.TemporaryDirectory() as folder:
        if "all" in parts:
            gallery(args.repeat, folder, args.against)
            sheet_share(args.repeat, folder)
        if "writers" in parts:
            writers(args.repeat, folder)
    if "engines" in parts:
        engines(args.games)


if __name__ == "__main__":
    main()
