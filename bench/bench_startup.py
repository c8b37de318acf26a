"""Start-up cost of small commands, against importing reportlab's canvas alone.

    python bench/bench_startup.py [--repeat N]

Runs each command in a fresh interpreter N times (interleaved, so that a busy machine
slows all of them alike) and reports medians and the ratio to the floor,
``python -c "import reportlab.pdfgen.canvas"``.  Target: --help, a PDF board and play at
most 2.5x the floor.  Byte-code caches are allowed (as after any install), whatever
PYTHONDONTWRITEBYTECODE says.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

COMMANDS = {
    "floor: import reportlab.pdfgen.canvas": ["-c", "import reportlab.pdfgen.canvas"],
    "boardgen --help": ["-m", "boardgen.cli", "--help"],
    "boardgen board copolymer -o b.pdf": ["-m", "boardgen.cli", "board", "copolymer", "-o",
                                          "b.pdf"],
    "boardgen play copolymer --json": ["-m", "boardgen.cli", "play", "copolymer", "--side",
                                       "5", "--moves", "C3 B2 C2 D3", "--json"],
    "boardgen play o": ["-m", "boardgen.cli", "play", "o", "--side", "5", "--moves", "E5 A1"],
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=9)
    args = parser.parse_args()
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    times: dict[str, list[float]] = {name: [] for name in COMMANDS}
    with tempfile.TemporaryDirectory() as folder:
        for round_ in range(args.repeat + 1):  # the first round only warms the caches
            for name, argv in COMMANDS.items():
                start = time.perf_counter()
                subprocess.run([sys.executable, *argv], cwd=folder, env=env, check=True,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                if round_:
                    times[name].append(time.perf_counter() - start)
    floor = statistics.median(next(iter(times.values())))
    print(f"{'command':42} {'median s':>9} {'x floor':>8}")
    for name, samples in times.items():
        median = statistics.median(samples)
        print(f"{name:42} {median:9.3f} {median / floor:8.2f}")


if __name__ == "__main__":
    main()
