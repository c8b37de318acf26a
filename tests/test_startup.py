"""Start-up: each command imports only the libraries of the output it writes.

Checked structurally, in a fresh interpreter per command (which modules are loaded after it
ran), never by timing: bench/bench_startup.py measures the seconds.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

# The costly imports, each needed by one kind of output only.
PNG_OR_THUMBNAIL = ("cairosvg", "cairocffi", "pypdfium2")
RULE_SHEETS = ("reportlab.platypus",)
SVG_WRITER = ("svgwrite",)
PDF_WRITER = ("reportlab",)

PROBE = """
import json, sys
from boardgen.cli import main
try:
    main(sys.argv[1:])
except SystemExit as exc:
    assert not exc.code, exc.code
print(json.dumps(sorted(sys.modules)))
"""


def loaded_after(*args: str, cwd: Path) -> set[str]:
    result = subprocess.run([sys.executable, "-c", PROBE, *args], cwd=cwd, text=True,
                            capture_output=True, check=True)
    return set(json.loads(result.stdout.strip().splitlines()[-1]))


def heavy(loaded: set[str], families: tuple[str, ...]) -> list[str]:
    return sorted(m for m in loaded for f in families if m == f or m.startswith(f + "."))


@pytest.mark.parametrize(("args", "not_loaded"), [
    (["--help"], PNG_OR_THUMBNAIL + RULE_SHEETS + SVG_WRITER + PDF_WRITER),
    (["board", "--help"], PNG_OR_THUMBNAIL + RULE_SHEETS + SVG_WRITER + PDF_WRITER),
    (["play", "copolymer", "--side", "3", "--moves", "C3 B2", "--json"],
     PNG_OR_THUMBNAIL + RULE_SHEETS + SVG_WRITER + PDF_WRITER),
    (["play", "o", "--side", "4", "--moves", "D4 A1"],
     PNG_OR_THUMBNAIL + RULE_SHEETS + SVG_WRITER + PDF_WRITER),
    (["play", "polygone", "--moves", "c0-c2>d1", "--json"],
     PNG_OR_THUMBNAIL + RULE_SHEETS + SVG_WRITER + PDF_WRITER),
    (["board", "copolymer", "-o", "b.pdf"], PNG_OR_THUMBNAIL + RULE_SHEETS + SVG_WRITER),
    (["board", "polygone", "-o", "p.pdf"], PNG_OR_THUMBNAIL + RULE_SHEETS + SVG_WRITER),
    (["board", "o", "-o", "b.svg"], PNG_OR_THUMBNAIL + RULE_SHEETS + PDF_WRITER),
    (["diagram", "copolymer", "tempo", "-o", "d.pdf"],
     PNG_OR_THUMBNAIL + RULE_SHEETS + SVG_WRITER),
    (["play", "copolymer", "--side", "3", "--moves", "C3", "-o", "p.pdf"],
     PNG_OR_THUMBNAIL + RULE_SHEETS + SVG_WRITER),
])
def test_command_imports_only_what_it_writes(tmp_path: Path, args: list[str],
                                             not_loaded: tuple[str, ...]) -> None:
    assert heavy(loaded_after(*args, cwd=tmp_path), not_loaded) == []


def test_the_probe_sees_a_heavy_import(tmp_path: Path) -> None:
    """The check above can fail: a PNG does load the PNG writer's libraries."""
    loaded = loaded_after("board", "copolymer", "--side", "3", "-o", "b.png", cwd=tmp_path)
    assert heavy(loaded, PNG_OR_THUMBNAIL)
