"""Rewrite the figures the Polygone rule sheet prints about its board.

    python bench/polygone_figures.py      # rewrite templates/polygone/figures.json

The counts come from boardgen.games.polygone.figures (the lattice's holes, grooves and
triangles); tests/games/polygone/test_polygone_figures.py counts them again.
"""

from __future__ import annotations

from boardgen.games.polygone.figures import sheet_figures
from boardgen.publish.sheet import write_sheet_figures
from boardgen.resources import templates_root

ABOUT = ("The figures the Polygone rule sheet prints about its board, by name ({{name}} in "
         "templates/polygone/sheet.md). Written by bench/polygone_figures.py from "
         "boardgen.games.polygone.figures.sheet_figures; a test recomputes them.")


def main() -> None:
    path = write_sheet_figures(templates_root() / "polygone", ABOUT, sheet_figures())
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
