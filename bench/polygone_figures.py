"""Rewrite the figures the Polygone rule sheet prints about its board.

    python bench/polygone_figures.py      # rewrite templates/polygone/figures.json

The counts come from boardgen.games.polygone.figures (the lattice's holes, grooves and
triangles); tests/games/polygone/test_polygone_figures.py counts them again.
"""

from __future__ import annotations

import json

from boardgen.games.polygone.figures import sheet_figures
from boardgen.resources import templates_root

FIGURES = templates_root() / "polygone" / "figures.json"
ABOUT = ("The figures the Polygone rule sheet prints about its board, by name ({{name}} in "
         "templates/polygone/sheet.md). Written by bench/polygone_figures.py from "
         "boardgen.games.polygone.figures.sheet_figures; a test recomputes them.")


def main() -> None:
    text = json.dumps({"about": ABOUT, "figures": sheet_figures()}, indent=2) + "\n"
    FIGURES.write_text(text, encoding="utf-8")
    print(f"wrote {FIGURES}")


if __name__ == "__main__":
    main()
