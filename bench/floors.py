"""The floors the board writers are measured against, each run as a whole process.

    python bench/floors.py svg SIDE CELL_MM OUT [bare|default]
    python bench/floors.py png SIDE CELL_MM DPI WIDTH_PX HEIGHT_PX OUT [bare|default]

These import nothing of boardgen: the hex-hex board of SIDE cells a side, its cell
centres and its cell names (rows A B C ... without I, then AA AB ...; numbers along the
diagonals) are worked out here in a few lines, as any writer of these boards must.

``svg``: the same per-cell markup as ``boardgen board`` (``<use class="cell empty"
data-cell="NAME" xlink:href="#hex" x= y=/>``, one f-string per cell) in the same document
frame (XML declaration, size, description, style sheet, the hexagon, the paper and the
layer groups).  ``default`` adds the title and a letter at the start of every row and a
number at the end of every diagonal, as ``<text>`` elements: the least markup that puts
them on the page (boardgen draws them as glyph outlines, which costs more: this floor is
the harder one to meet).
``png``: cairo drawing the board's hexagons as ONE path, filled once and stroked once
(boardgen's default colours and line width), centred in an image of WIDTH_PX x HEIGHT_PX
pixels at DPI, written by cairo's own PNG writer; ``default`` adds the same title and
labels with cairo's own text call.

bench/bench_speed.py times them against the ``boardgen board`` commands that make the
same boards, in fresh interpreters, interleaved.
"""

from __future__ import annotations

import math
import sys

ROW_LETTERS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"
MARGIN_MM = 1.0
LABEL_MM = 6.0  # room for the labels and title on the default board
PAPER, CELL_FILL, CELL_LINE, INK = "#ffffff", "#fbf8f1", "#4a4a4a", "#2e2e2e"


def row_name(index: int) -> str:
    letters, n = "", index + 1
    while n:
        n, rem = divmod(n - 1, len(ROW_LETTERS))
        letters = ROW_LETTERS[rem] + letters
    return letters


def cells(side: int, cell_mm: float, margin: float) -> list[tuple[str, float, float]]:
    """(name, x, y) of every cell in reading order, pointy-top hexagons cell_mm flat to
    flat, the board's outline ``margin`` mm from the top left."""
    n = side - 1
    size = cell_mm / math.sqrt(3)
    left = n * cell_mm + cell_mm / 2 + margin  # the centre of the middle row's first cell
    top = size + margin
    out = []
    for r in range(-n, n + 1):
        letters = row_name(r + n)
        y = top + (r + n) * 1.5 * size
        for q in range(max(-n, -n - r), min(n, n - r) + 1):
            out.append((f"{letters}{q + r + n + 1}", left + cell_mm * (q + r / 2), y))
    return out


def labels(side: int, cell_mm: float, margin: float) -> list[tuple[str, float, float]]:
    """(text, x, y): a row's letters left of its first cell, a diagonal's number past its
    last cell (the diagonals end along the top and the right of the board)."""
    placed = cells(side, cell_mm, margin)
    out, seen_rows, last_of_diagonal = [], set(), {}
    for name, x, y in placed:
        letters = name.rstrip("0123456789")
        if letters not in seen_rows:
            seen_rows.add(letters)
            out.append((letters, x - cell_mm, y))
        last_of_diagonal.setdefault(name[len(letters):], (x, y))
    for number, (x, y) in last_of_diagonal.items():
        out.append((number, x + cell_mm / 2, y - cell_mm * 0.87))
    return out


def svg(side: int, cell_mm: float, out: str, default: bool) -> None:
    margin = MARGIN_MM + (LABEL_MM if default else 0.0)
    size = cell_mm / math.sqrt(3)
    width = (2 * side - 1) * cell_mm + 2 * margin
    height = (3 * side - 1) * size + 2 * margin
    points = " ".join(f"{size * math.cos(math.pi * (i / 3 + 1 / 6)):.3f},"
                      f"{size * math.sin(math.pi * (i / 3 + 1 / 6)):.3f}" for i in range(6))
    parts = [
        '<?xml version="1.0" encoding="utf-8"?>\n<svg xmlns:inkscape="http://www.inkscape.org/'
        f'namespaces/inkscape" baseProfile="full" height="{height:.3f}mm" version="1.1" '
        f'viewBox="0,0,{width:.3f},{height:.3f}" width="{width:.3f}mm" xmlns="http://www.w3.'
        'org/2000/svg" xmlns:ev="http://www.w3.org/2001/xml-events" xmlns:xlink="http://www.w3'
        '.org/1999/xlink">',
        "<title>Copolymer</title>" if default else "",
        f"<desc>Copolymer board, hexhex side {side}, {3 * side * (side - 1) + 1} cells · each "
        f"cell {cell_mm:.1f} mm flat to flat</desc>",
        f'<defs><style type="text/css"><![CDATA[.paper{{fill:{PAPER}}}.cell{{stroke:'
        f'{CELL_LINE};stroke-width:0.25px;stroke-linejoin:round}}.cell.empty{{fill:'
        f'{CELL_FILL}}}.coordinate,.title{{fill:{INK};font-family:sans-serif}}]]></style>'
        f'<polygon id="hex" points="{points}" /></defs>',
        f'<rect class="paper" height="{height:.3f}" width="{width:.3f}" x="0" y="0" />',
    ]
    if default:
        parts.append(f'<g class="layer-title"><text class="title" x="{width / 2:.3f}" '
                     f'y="{margin - 1:.3f}" font-size="5">Copolymer</text></g>')
    parts.append('<g class="board"><g class="layer-board" inkscape:groupmode="layer" '
                 'inkscape:label="Board">')
    parts += [f'<use class="cell empty" data-cell="{name}" xlink:href="#hex" x="{x:.3f}" '
              f'y="{y:.3f}"/>' for name, x, y in cells(side, cell_mm, margin)]
    parts.append('</g><g class="layer-coordinates" inkscape:groupmode="layer" '
                 'inkscape:label="Coordinates">')
    if default:
        parts += [f'<text class="coordinate" x="{x:.3f}" y="{y:.3f}" font-size="2.7">'
                  f'{text}</text>' for text, x, y in labels(side, cell_mm, margin)]
    parts.append("</g></g></svg>\n")
    with open(out, "wb") as file:
        file.write("".join(parts).encode())


def rgb(colour: str) -> tuple[float, float, float]:
    return (int(colour[1:3], 16) / 255, int(colour[3:5], 16) / 255, int(colour[5:7], 16) / 255)


def png(side: int, cell_mm: float, dpi: float, width: int, height: int, out: str,
        default: bool) -> None:
    import cairocffi as cairo

    margin = MARGIN_MM + (LABEL_MM if default else 0.0)
    size = cell_mm / math.sqrt(3)
    board_width = (2 * side - 1) * cell_mm + 2 * margin
    board_height = (3 * side - 1) * size + 2 * margin
    offsets = [(size * math.cos(math.pi * (i / 3 + 1 / 6)),
                size * math.sin(math.pi * (i / 3 + 1 / 6))) for i in range(6)]
    scale = dpi / 25.4
    surface = cairo.ImageSurface(cairo.FORMAT_RGB24, width, height)
    c = cairo.Context(surface)
    c.scale(scale, scale)
    c.set_source_rgb(*rgb(PAPER))
    c.paint()
    c.translate((width / scale - board_width) / 2, (height / scale - board_height) / 2)
    (x0, y0), rest = offsets[0], offsets[1:]
    for _, x, y in cells(side, cell_mm, margin):
        c.move_to(x + x0, y + y0)
        for dx, dy in rest:
            c.line_to(x + dx, y + dy)
        c.close_path()
    c.set_source_rgb(*rgb(CELL_FILL))
    c.fill_preserve()
    c.set_line_width(0.25)
    c.set_line_join(cairo.LINE_JOIN_ROUND)
    c.set_source_rgb(*rgb(CELL_LINE))
    c.stroke()
    if default:
        c.set_source_rgb(*rgb(INK))
        c.select_font_face("sans-serif")
        c.set_font_size(5)
        c.move_to(board_width / 2, margin - 1)
        c.show_text("Copolymer")
        c.set_font_size(2.7)
        for text, x, y in labels(side, cell_mm, margin):
            c.move_to(x, y)
            c.show_text(text)
    surface.write_to_png(out)


def main(argv: list[str]) -> None:
    kind, *args = argv
    default = bool(args) and args[-1] == "default"
    if args and args[-1] in ("bare", "default"):
        args = args[:-1]
    if kind == "svg" and len(args) == 3:
        svg(int(args[0]), float(args[1]), args[2], default)
    elif kind == "png" and len(args) == 6:
        png(int(args[0]), float(args[1]), float(args[2]), int(args[3]), int(args[4]),
            args[5], default)
    else:
        raise SystemExit(__doc__.splitlines()[2] + "\n" + __doc__.splitlines()[3])


if __name__ == "__main__":
    main(sys.argv[1:])
