"""Hardening V (issue 30's remains after an independent sweep): links planted in the middle
of an output path, outputs over boardgen's own data, the font cache keyed by content, the
preview server's deadlines and deep folders, the signals at the very start and end, and
short quoting everywhere.  Each test failed on main 8c52e5c."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import Run, one_line_error

NOBODY = 65534


# --- 1: a link planted as a folder in the middle of the output path ----------------------

@pytest.mark.skipif(os.geteuid() != 0, reason="planting another user's link needs root")
@pytest.mark.parametrize("depth", ["middle", "first of two"])
def test_a_planted_folder_link_in_the_path_is_not_followed(
        tmp_path: Path, run_cli: Callable[..., Run], depth: str) -> None:
    shared = tmp_path / "sticky"
    shared.mkdir()
    shared.chmod(0o1777)
    elsewhere = tmp_path / "elsewhere"
    (elsewhere / "deeper").mkdir(parents=True)
    victim = elsewhere / "deeper" / "victim.txt"
    victim.write_text("precious\n", encoding="utf-8")
    link = shared / "dirlink"
    link.symlink_to(elsewhere / "deeper" if depth == "middle" else elsewhere)
    os.lchown(link, NOBODY, NOBODY)
    out = link / ("victim.txt" if depth == "middle" else "deeper/victim.txt")
    result = run_cli("board", "copolymer", "--side", "3", "--format", "svg", "-o", str(out))
    one_line_error(result, "link", "another user")
    assert victim.read_text(encoding="utf-8") == "precious\n"
    assert [p.name for p in victim.parent.iterdir()] == ["victim.txt"]
    # Our own folder link there is followed, as documented.
    os.lchown(link, os.geteuid(), os.getegid())
    assert run_cli("board", "copolymer", "--side", "3", "--format", "svg",
                   "-o", str(out)).code == 0
    assert victim.read_bytes().startswith(b"<?xml")
