"""Commands as a user runs them, end to end, optionally against another checkout.

    python bench/bench_commands.py [--repeat N] [--against PATH]

Times, in fresh interpreters: a side-100 board to PDF, SVG and PNG (--dpi 36), and
``boardgen all`` (one worker and all cores).  With ``--against PATH`` (a checkout of an
earlier boardgen, e.g. ``git worktree add /tmp/before HEAD~5``) every command is run on both,
interleaved (so that a busy machine slows both alike), and the ratio new / old is shown.
Medians of N runs.  Targets: side-100 PDF under 1 s and <= 0.6x before, SVG likewise,
``all`` <= 0.5x before.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent

COMMANDS = {
    "board --side 100 -o b.pdf": ["board", "copolymer", "--side", "100", "-o", "b.pdf"],
    "board --side 100 -o b.svg": ["board", "copolymer", "--side", "100", "-o", "b.svg"],
    "board --side 100 --dpi 36 -o b.png": ["board", "copolymer", "--side", "100", "--dpi",
                                           "36", "-o", "b.png"],
    "all --jobs 1": ["all", "-o", "out", "--jobs", "1"],
    "all": ["all", "-o", "out"],
}


def run(checkout: Path, args: list[str], folder: str) -> float:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPATH"] = str(checkout)
    start = time.perf_counter()
    result = subprocess.run([sys.executable, "-m", "boardgen.cli", *args], cwd=folder,
                            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            check=False)
    seconds = time.perf_counter() - start
    if result.returncode:
        return float("nan")  # an older checkout may lack an option (all --jobs)
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--against", type=Path, help="an earlier checkout to compare with")
    args = parser.parse_args()
    checkouts = {"now": HERE} | ({"before": args.against} if args.against else {})
    print(f"{'command':38} " + " ".join(f"{name:>9}" for name in checkouts)
          + ("   ratio" if args.against else ""))
    with tempfile.TemporaryDirectory() as folder:
        for label, argv in COMMANDS.items():
            times: dict[str, list[float]] = {name: [] for name in checkouts}
            for round_ in range(args.repeat + 1):  # round 0 warms the byte-code caches
                for name, checkout in checkouts.items():
                    seconds = run(checkout, argv, folder)
                    if round_:
                        times[name].append(seconds)
            medians = {name: statistics.median(t) for name, t in times.items()}
            line = f"{label:38} " + " ".join(f"{m:9.3f}" for m in medians.values())
            if args.against:
                line += f"   {medians['now'] / medians['before']:5.2f}"
            print(line)


if __name__ == "__main__":
    main()
