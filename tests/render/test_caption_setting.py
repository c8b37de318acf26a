"""Stand-alone diagrams set their panels' captions as the rule sheets do (the print
review): flush left, ragged right, and never broken inside a score ("wins 10 to 9") or a
list of counts ("touching 2, 3, 3 X cells").  Read from the SVG's caption runs, which
carry each line's text (aria-label) and its left edge (translate)."""

from __future__ import annotations

import re
from collections import defaultdict

import pytest

import boardgen

RUN = re.compile(r'<g class="caption" aria-label="([^"]*)" transform="translate\(([-\d.]+) '
                 r'([-\d.]+)\) scale\(([\d.]+)\)">')
DIAGRAMS = [("copolymer", "tempo"), ("polygone", "09-capture-back"),
            ("polygone", "10-two-polygons")]


def caption_blocks(svg: str) -> list[list[tuple[str, float]]]:
    """The panels' captions, each a list of (line, left edge): runs of one size whose
    baselines follow one another at the captions' leading, grouped by where they start."""
    runs = [(text, float(x), float(y), float(scale)) for text, x, y, scale in RUN.findall(svg)]
    by_column: dict[tuple[float, float], list[tuple[str, float, float]]] = defaultdict(list)
    blocks: list[list[tuple[str, float]]] = []
    for text, x, y, scale in runs:
        size = scale * 1000  # the font's 1000 units to the em
        for (key_scale, _), lines in by_column.items():
            last_text, last_x, last_y = lines[-1]
            if key_scale == scale and abs(y - last_y - 1.35 * size) < 0.05 and \
                    abs(x - last_x) < 20:
                lines.append((text, x, y))
                break
        else:
            by_column[(scale, len(by_column))].append((text, x, y))
    for lines in by_column.values():
        if len(lines) > 1:
            blocks.append([(text, x) for text, x, _ in lines])
    return blocks


@pytest.mark.parametrize(("game", "name"), DIAGRAMS)
def test_a_panel_s_caption_is_flush_left(game: str, name: str) -> None:
    svg = boardgen.draw(boardgen.diagram(game, name), "svg")
    blocks = caption_blocks(svg)
    assert blocks  # captions of two lines or more, found
    for block in blocks:
        assert len({round(x, 2) for _, x in block}) == 1, block


def test_a_score_and_a_list_of_counts_stay_on_one_line() -> None:
    svg = boardgen.draw(boardgen.diagram("copolymer", "tempo"), "svg")
    lines = [text.replace("\u00a0", " ") for text, *_ in RUN.findall(svg)]
    joined = " ".join(lines)
    assert "wins 10 to 9" in joined and "touching 2, 3, 3 X cells" in joined
    assert any("wins 10 to 9" in line for line in lines)
    assert any("2, 3, 3" in line for line in lines)
    for line in lines:  # no line ends inside one
        assert not re.search(r"(\d,|\d to|wins)$", line), line
