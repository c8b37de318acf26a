"""The plain-text format of example files under ``templates/``: one directive per line.

    # a comment
    title: Three connections, one taken
    position:
        x . x
       x . . .
    end
    panel: 2b
    place: B2 connection 2

A directive is ``key: value``.  A key whose value is empty and that is followed by indented
lines (``position:``) takes those lines as a block, up to a line ``end``.  Every directive
keeps its line number, so that an engine that disagrees with a claim can say where.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from boardgen.errors import BoardgenError
from boardgen.text import check_lines

BLOCK_KEYS = frozenset({"position"})


@dataclass(frozen=True)
class Directive:
    key: str
    value: str
    line: int
    block: tuple[str, ...] = ()


class ExampleError(BoardgenError):
    """A problem in an example file, reported as ``path:line: message``."""

    def __init__(self, source: str, line: int, message: str) -> None:
        super().__init__(f"{source}:{line}: {message}")


def read_directives(path: Path) -> list[Directive]:
    source = str(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise BoardgenError(f"{source}: {exc.strerror or exc}") from None
    return parse_directives(text, source)


def parse_directives(text: str, source: str) -> list[Directive]:
    lines = text.splitlines()
    directives: list[Directive] = []
    i = 0
    check_lines(text, source)  # titles and captions reach SVG, PDF and HTML files
    while i < len(lines):
        raw = lines[i]
        stripped = raw.strip()
        i += 1
        if not stripped or stripped.startswith("#"):
            continue
        key, sep, value = stripped.partition(":")
        key = key.strip().lower()
        if not sep or not key or " " in key:
            raise ExampleError(source, i, f"expected 'key: value', found {stripped!r}")
        if key in BLOCK_KEYS:
            start = i
            block: list[str] = []
            while i < len(lines) and lines[i].strip() != "end":
                block.append(lines[i])
                i += 1
            if i == len(lines):
                raise ExampleError(source, start, f"'{key}:' block has no closing 'end' line")
            i += 1
            directives.append(Directive(key, value.strip(), start, tuple(block)))
        else:
            directives.append(Directive(key, value.strip(), i))
    return directives
