"""The inline part of the sheet markup: ``**bold**``, ``*italic*`` and `` `code` `` inside a
paragraph, bullet or note, read into spans that each output (Typst, HTML) writes its own
way, and ``{printed words|words on screen}`` for what only one medium may say ("the last two
pages").  A marker left open is refused with the template's FILE:LINE, not printed as a stray
asterisk."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from boardgen.errors import BoardgenError

Style = Literal["plain", "bold", "italic", "code"]
# The order matters: "**" before "*".
_MARKERS: tuple[tuple[str, Style], ...] = (("**", "bold"), ("`", "code"), ("*", "italic"))


Medium = Literal["print", "screen"]
_ALTERNATIVE = re.compile(r"\{([^{}|]*)\|([^{}|]*)\}")


def for_medium(text: str, medium: Medium) -> str:
    """The text with each ``{print|screen}`` alternative resolved for ``medium``."""
    return _ALTERNATIVE.sub(lambda m: m.group(1 if medium == "print" else 2), text)


@dataclass(frozen=True)
class Span:
    style: Style
    text: str


class UnclosedMarker(ValueError):
    """A marker with no partner; ``offset`` is where it opens in the text."""

    def __init__(self, marker: str, offset: int) -> None:
        super().__init__(marker)
        self.marker = marker
        self.offset = offset


_MARKER_START = re.compile(r"[*`]")  # where a marker may open: every marker starts so


def spans(text: str) -> list[Span]:
    """The text cut into styled spans; raises UnclosedMarker for a marker never closed."""
    out: list[Span] = []
    plain: list[str] = []
    at = 0
    while at < len(text):
        # The text up to the next "*" or "`" is plain (taken in one piece, not a
        # character at a time: a sheet has a thousand paragraphs and items).
        found = _MARKER_START.search(text, at)
        if found is None:
            plain.append(text[at:])
            break
        if found.start() > at:
            plain.append(text[at:found.start()])
            at = found.start()
        for marker, style in _MARKERS:
            if text.startswith(marker, at):
                end = text.find(marker, at + len(marker))
                inner = text[at + len(marker):end] if end >= 0 else ""
                # A code span is taken as it is; bold and italic hold no other marker.
                if end < 0 or not inner or (style != "code" and ("*" in inner or
                                                                  "`" in inner)):
                    raise UnclosedMarker(marker, at)
                if plain:
                    out.append(Span("plain", "".join(plain)))
                    plain = []
                out.append(Span(style, inner))
                at = end + len(marker)
                break
    if plain:
        out.append(Span("plain", "".join(plain)))
    return out


def check_inline(texts: list[str], source_lines: list[str], first_line: int,
                 source: str) -> None:
    """Refuse an unclosed marker in any of ``texts`` (one block's paragraph, items or note,
    which start on ``first_line`` of ``source``), naming the line the marker stands on."""
    for text in texts:
        if "{" in _ALTERNATIVE.sub("", text) or "}" in _ALTERNATIVE.sub("", text):
            line = next((n for n in range(first_line, len(source_lines) + 1)
                         if "{" in source_lines[n - 1] or "}" in source_lines[n - 1]),
                        first_line)
            raise BoardgenError(f"{source}:{line}: a brace that is not one "
                                "{printed words|words on screen}")
    texts = [for_medium(text, "print") for text in texts]
    for k, text in enumerate(texts):
        try:
            spans(text)
        except UnclosedMarker as exc:
            # The block's text is its lines joined: find the same occurrence of the marker
            # in the lines themselves, counting those of the block's earlier items.
            nth = _occurrence(text, exc.marker, exc.offset) + sum(
                _occurrence(before, exc.marker, len(before)) for before in texts[:k])
            line = _line_of(source_lines, first_line, exc.marker, nth)
            raise BoardgenError(f"{source}:{line}: '{exc.marker}' is never closed "
                                f"(write {exc.marker}text{exc.marker})") from None


def _occurrence(text: str, marker: str, offset: int) -> int:
    """How many markers like ``marker`` stand before ``offset`` (a "**" is not two "*")."""
    count = 0
    at = 0
    while at < offset:
        hit = _next_marker(text, at)
        if hit is None or hit[0] >= offset:
            break
        if hit[1] == marker:
            count += 1
        at = hit[0] + len(hit[1])
    return count


def _next_marker(text: str, start: int) -> tuple[int, str] | None:
    for at in range(start, len(text)):
        for marker, _ in _MARKERS:
            if text.startswith(marker, at):
                return at, marker
    return None


def _line_of(source_lines: list[str], first_line: int, marker: str, nth: int) -> int:
    """The line (from 1) holding the ``nth`` ``marker`` counted from ``first_line``."""
    seen = 0
    for number in range(first_line, len(source_lines) + 1):
        line = source_lines[number - 1]
        at = 0
        while (hit := _next_marker(line, at)) is not None:
            if hit[1] == marker:
                if seen == nth:
                    return number
                seen += 1
            at = hit[0] + len(hit[1])
        if not line.strip() and number > first_line:
            break
    return first_line
