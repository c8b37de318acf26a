"""The inline markup's spans (boardgen.publish.markup.spans), which take plain text up to
the next marker in one piece: an oracle that reads the text a character at a time, trying
the markers in order at each one, cuts any text into the same spans, and refuses the same
texts at the same marker and offset."""

from __future__ import annotations

from hypothesis import example, given, settings
from hypothesis import strategies as st

from boardgen.publish.markup import Span, UnclosedMarker, spans

ORDER = (("**", "bold"), ("`", "code"), ("*", "italic"))  # "**" tried before "*"


def _one_character_at_a_time(text: str) -> tuple[object, ...]:
    out: list[tuple[str, str]] = []
    plain = ""
    at = 0
    while at < len(text):
        for marker, style in ORDER:
            if text[at:at + len(marker)] == marker:
                end = text.find(marker, at + len(marker))
                inner = text[at + len(marker):end] if end != -1 else ""
                nested = style != "code" and any(m in inner for m in "*`")
                if end == -1 or inner == "" or nested:
                    return ("refused", marker, at)
                if plain:
                    out.append(("plain", plain))
                    plain = ""
                out.append((style, inner))
                at = end + len(marker)
                break
        else:
            plain += text[at]
            at += 1
    if plain:
        out.append(("plain", plain))
    return ("spans", *out)


def _spans(text: str) -> tuple[object, ...]:
    try:
        found: list[Span] = spans(text)
    except UnclosedMarker as exc:
        return ("refused", exc.marker, exc.offset)
    return ("spans", *((span.style, span.text) for span in found))


@settings(max_examples=600, deadline=None)
@given(st.text(alphabet="ab *`\u00e9", max_size=24))
@example("a **bold** and *italic* and `co*de` end")
@example("**a*b**")
@example("plain only")
def test_spans_match_a_reading_one_character_at_a_time(text: str) -> None:
    assert _spans(text) == _one_character_at_a_time(text)
