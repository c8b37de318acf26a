"""The Polygone sheet's figures about its board (holes, grooves, small triangles): counted on
the lattice, never typed into the prose.  The checked-in figures file is counted again
here, so that a change to the reconstructed board fails this test until the file is
rewritten with ``python bench/polygone_figures.py``."""

from __future__ import annotations

import json
import re

from conftest import ROOT

from boardgen.games.polygone.figures import sheet_figures
from boardgen.geometry.lattice import HOLES, LINES
from boardgen.publish.sheet import load_sheet

FIGURES = ROOT / "templates" / "polygone" / "figures.json"
SHEET = ROOT / "templates" / "polygone" / "sheet.md"


def _checked_in() -> dict[str, str]:
    figures = json.loads(FIGURES.read_text(encoding="utf-8"))["figures"]
    assert isinstance(figures, dict)
    return figures


def test_the_figures_file_is_what_the_lattice_gives_today() -> None:
    assert sheet_figures() == _checked_in(), (
        "the Polygone sheet's figures are stale: run python bench/polygone_figures.py")


def test_the_counts_are_the_boards_own() -> None:
    """Counted apart from the lattice's tables: holes are the distinct ends of the lines,
    and a board of triangles that is one piece without holes in it has E - V + 1 faces
    (Euler); the spec's published counts are 24, 55 and 32."""
    figures = {name: int(text) for name, text in _checked_in().items()}
    ends = {hole for line in LINES for hole in line}
    assert figures["holes"] == len(ends) == len(HOLES)
    assert figures["grooves"] == len(set(LINES))
    assert figures["triangles"] == figures["grooves"] - figures["holes"] + 1
    assert (figures["holes"], figures["grooves"], figures["triangles"]) == (24, 55, 32)


def test_the_board_line_types_no_figure() -> None:
    """The board's description in "What you need" prints {{figures}}, no typed number."""
    text = SHEET.read_text(encoding="utf-8")
    item = text[text.index("- The board:"):]
    item = item[:item.index("\n- ")]
    assert {"holes", "grooves", "triangles"} <= set(re.findall(r"\{\{([a-z-]+)\}\}", item))
    typed = re.findall(r"\d+", re.sub(r"\{\{[a-z0-9-]+\}\}", "", item))
    assert not typed, f"figures typed into the prose: {typed}"


def test_the_sheet_prints_the_figures() -> None:
    figures = _checked_in()
    printed = " ".join(" ".join(block.items) for block in load_sheet("polygone")
                       if block.kind == "bullets")
    assert f"{figures['holes']} holes joined by {figures['grooves']} grooves into " \
        f"{figures['triangles']} small triangles" in " ".join(printed.split())
