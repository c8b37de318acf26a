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
