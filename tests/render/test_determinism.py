"""Identical input, identical bytes: across processes, hash seeds and seconds, and against
golden files that a change of output has to update on purpose.

To regenerate the golden files after a deliberate change of output, run

    BOARDGEN_UPDATE_GOLDEN=1 .venv/bin/pytest tests/render/test_determinism.py -k golden

then look at the diff (``git diff --stat tests/golden``; open the SVGs) and commit it.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import TESTS, Run

RunCli = Callable[..., Run]
GOLDEN = TESTS / "golden"
UPDATE = os.environ.get("BOARDGEN_UPDATE_GOLDEN") == "1"

# Small on purpose: a few kilobytes each, in the ink theme (its colours are black and white,
# so a change of the colour themes does not touch them), covering each hex game, the three
# label modes, a custom shape and a title that needs escaping.
GOLDEN_CASES = {
    "copolymer-side2-inside.svg": ["board", "copolymer", "--side", "2", "--theme", "ink",
                                   "--labels", "inside"],
    "copolymer-triangle5-none.svg": ["board", "copolymer", "--shape", "triangle", "--side",
                                     "5", "--theme", "ink", "--labels", "none", "--title",
                                     'Tri <&> "angle"'],
    "o-side4.svg": ["board", "o", "--side", "4", "--theme", "ink"],
}

# One process writes the tempo diagram (several cell roles, numbered discs, captions) in
# every format; the test runs it twice.
_WRITE_TEMPO = """
import sys
from boardgen.cli import main
for fmt in ("svg", "pdf", "png"):
    main(["diagram", "copolymer", "tempo", "-o", f"{sys.argv[1]}/tempo.{fmt}"])
"""


def _write_tempo(folder: Path, seed: str) -> dict[str, bytes]:
    folder.mkdir()
    env = {**os.environ, "PYTHONHASHSEED": seed}
    subprocess.run([sys.executable, "-c", _WRITE_TEMPO, str(folder)], env=env, check=True,
                   capture_output=True, timeout=300)
    return {path.name: path.read_bytes() for path in sorted(folder.iterdir())}


def test_separate_processes_with_other_hash_seeds_seconds_apart_agree(tmp_path: Path) -> None:
    # Three seeds under which a set of the diagram's cell roles iterates in three different
    # orders (CPython 3.11), so that style rules emitted in set order cannot pass.
    runs = []
    for k, seed in enumerate(("1", "2", "4")):
        if k:
            time.sleep(1.1)  # a timestamp to the second would differ now
        runs.append(_write_tempo(tmp_path / f"run{k}", seed))
    first = runs[0]
    assert sorted(first) == ["tempo.pdf", "tempo.png", "tempo.svg"]
    root = ET.fromstring(first["tempo.svg"])
    roles = {c for e in root.iter() for c in (e.get("class") or "").split()}
    assert {"player1", "player2", "empty", "disc", "caption"} <= roles  # several cell roles
    for other in runs[1:]:
        for name, data in first.items():
            assert other[name] == data, f"{name} differs between two runs"


@pytest.mark.parametrize("name", sorted(GOLDEN_CASES))
def test_golden_files(run_cli: RunCli, tmp_path: Path, name: str) -> None:
    out = tmp_path / name
    result = run_cli(*GOLDEN_CASES[name], "-o", str(out))
    assert result.code == 0, result.err
    made = out.read_bytes()
    golden = GOLDEN / name
    if UPDATE:
        GOLDEN.mkdir(exist_ok=True)
        golden.write_bytes(made)
    assert golden.exists(), f"no golden file {golden}: run with BOARDGEN_UPDATE_GOLDEN=1"
    assert made == golden.read_bytes(), (
        f"{name} changed.  If on purpose, regenerate: BOARDGEN_UPDATE_GOLDEN=1 "
        ".venv/bin/pytest tests/render/test_determinism.py -k golden, and commit tests/golden/")


def test_golden_files_stay_small_and_are_all_checked() -> None:
    files = sorted(p.name for p in GOLDEN.iterdir())
    assert files == sorted(GOLDEN_CASES)
    for name in files:
        assert (GOLDEN / name).stat().st_size < 20_000, name
