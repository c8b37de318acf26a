"""The figures the Polygone rule sheet prints about its board, counted on the lattice
(boardgen.geometry.lattice), never typed: ``{{holes}}``, ``{{grooves}}`` and
``{{triangles}}`` in ``templates/polygone/sheet.md``.  ``bench/polygone_figures.py`` writes
them to ``templates/polygone/figures.json``; tests/games/polygone/test_polygone_figures.py
counts them again, so that a change to the reconstructed board changes the sheet with it."""

from __future__ import annotations

from boardgen.geometry.lattice import HOLES, LINES, TRIANGLES


def sheet_figures() -> dict[str, str]:
    """The board's holes, grooves (lines between neighbouring holes) and small triangles."""
    return {"holes": str(len(HOLES)), "grooves": str(len(LINES)),
            "triangles": str(len(TRIANGLES))}
