"""Mark Steere's Copolymer (2006), as ruled in shared/spec/copolymer.md."""

from __future__ import annotations

from boardgen.errors import BoardgenError
from boardgen.geometry import HexGrid

NAME = "Copolymer"
CREDIT = "Copolymer by Mark Steere (2006)"
PRESETS = {"small": 5, "medium": 7, "large": 10}  # the server's 9x9, 13x13 and 19x19
DEFAULT_SIDE = 10  # 271 cells: the rule sheet's board and the server's default


def check_board(grid: HexGrid) -> None:
    """Copolymer is decided by the majority of cells, so the count must be odd."""
    count = len(grid)
    if count % 2 == 0:
        raise BoardgenError(
            f"{grid.description} has {count} cells, an even number: Copolymer needs an odd "
            "number of cells so that the majority decides and a tie is impossible"
        )
