"""Pure coordinates and shapes: no game rules, no rendering."""

from boardgen.geometry.hexgrid import (
    DIRECTIONS,
    MAX_CELLS,
    SHAPES,
    Hex,
    HexGrid,
    format_hex_text,
    grid_from_mask,
    hexhex,
    hexhex_cell_count,
    make_shape,
    parse_hex_text,
    rhombus,
    shape_cell_count,
    triangle,
)
from boardgen.geometry.layout import FLAT, POINTY, SQRT3, Layout, Orientation
from boardgen.geometry.notation import (
    NOTATIONS,
    Notation,
    NotationName,
    column_letters,
    framed_text,
    row_index,
    row_letters,
)

__all__ = [
    "DIRECTIONS", "FLAT", "MAX_CELLS", "NOTATIONS", "POINTY", "SHAPES", "SQRT3", "Hex",
    "HexGrid", "Layout", "Notation", "NotationName", "Orientation", "column_letters",
    "format_hex_text", "framed_text", "grid_from_mask", "hexhex", "hexhex_cell_count", "make_shape",
    "parse_hex_text", "rhombus", "row_index", "row_letters", "shape_cell_count", "triangle",
]
