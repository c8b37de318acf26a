"""Two edges of the rule-sheet sources: a paragraph ends at a heading or a picture line
even without a blank line before it, and a Typst refusal is one line naming the template
line of the part it concerns."""

from __future__ import annotations

from pathlib import Path

import pytest

from boardgen.errors import BoardgenError
from boardgen.publish.sheet import parse_sheet


def test_a_paragraph_ends_at_a_heading_or_picture_line_without_a_blank() -> None:
    blocks = parse_sheet("# Title\n\nSome words\nmore words\n## Heading\nText.\n"
                         "::: diagram o loop\n", "s.md")
    kinds = [(b.kind, b.line) for b in blocks]
    assert kinds == [("title", 1), ("para", 3), ("heading", 5), ("para", 6),
                     ("diagram", 7)], kinds
    assert "Heading" not in blocks[1].text


def test_a_typst_refusal_is_one_line_at_the_template_line(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from boardgen.publish import typeset
    from boardgen.publish.sheet import sheet_path
    from boardgen.render.paper import parse_paper
    from boardgen.render.scene import THEMES

    class Refusal(Exception):
        message = "unknown variable: nope\nhint: a second line"
        diagnostic = "error at main.typ:12:3"

    def refuse(source: str, sheet: object) -> object:
        raise Refusal("typst failed")

    monkeypatch.setattr(typeset, "_measure", refuse)
    with pytest.raises(BoardgenError) as refused:
        typeset.render_sheet_pdf("o", paper=parse_paper("a4"), theme=THEMES["colour"],
                                 quick=True)
    message = str(refused.value)
    assert message.startswith(f"{Path(sheet_path('o', True))}:")
    assert message.endswith(": the typesetter refused the sheet: unknown variable: nope")
    assert "\n" not in message


@pytest.mark.parametrize(("cell", "said"), [
    (13.0, "Pieces up to 12 mm across fit its cells: 8 mm beads and 12 mm glass counters. "
           "Go stones need a board with larger cells."),
    (9.0, "Pieces up to 8 mm across fit its cells: 8 mm beads. 12 mm glass counters and Go "
          "stones need a board with larger cells."),  # a piece fits a cell 1 mm wider
    (8.9, "Pieces up to 7 mm across fit its cells. 8 mm beads, 12 mm glass counters and Go "
          "stones need a board with larger cells."),
    (23.0, "Pieces up to 22 mm across fit its cells: 8 mm beads, 12 mm glass counters and Go "
           "stones."),
])
def test_the_pieces_that_fit_a_cell_are_each_said_once(cell: float, said: str) -> None:
    from boardgen.publish.sheet import pieces_in_words

    assert pieces_in_words(cell) == said
