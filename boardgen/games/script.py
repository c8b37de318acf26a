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

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Generic, TypeVar

from boardgen.errors import BoardgenError
from boardgen.text import check_lines, read_input_text

BLOCK_KEYS = frozenset({"position"})
MAX_PANELS = 200  # a diagram is a page or a few; more panels is a mistake, or an attack


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
    """A diagram file's directives; the file is read with a size cap (it may be anything a
    user names: a device, a pipe)."""
    return parse_directives(read_input_text(path, "diagram file"), str(path))


def parse_directives(text: str, source: str) -> list[Directive]:
    lines = text.splitlines()
    directives: list[Directive] = []
    panels = 0
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
            panels += key == "panel"
            if panels > MAX_PANELS:
                raise ExampleError(source, i, f"more than {MAX_PANELS} panels in one diagram")
    return directives


def check_game(d: Directive, game: str, source: str) -> None:
    """A ``game:`` line must name the game the file is being read as."""
    if d.value.strip().lower() != game:
        raise ExampleError(source, d.line, f"this file is read as a {game} diagram, but it "
                           f"says 'game: {d.value}'")


# --- annotations: the same directives in every game's panels -------------------------------

T = TypeVar("T")
P = TypeVar("P")  # a point: a hex cell, or a Polygone hole
R = TypeVar("R")  # what a highlight colours: a hex cell, or a Polygone line

ANNOTATION_KEYS = frozenset({"arrow", "mark", "highlight", "caption"})
MARK_KINDS = ("dot", "ring", "cross")
MAX_MARK_TEXT = 3  # a number or a letter or two: it is drawn inside one cell


@dataclass
class Annotations(Generic[P, R]):
    """What a designer drew on a panel beside the engine's own marks."""

    arrows: list[tuple[P, P]] = field(default_factory=list)
    marks: list[tuple[P, str]] = field(default_factory=list)  # kind, or a short text
    highlights: dict[R, str] = field(default_factory=dict)  # role from the theme
    caption: str | None = None  # replaces the caption the engine writes


def annotate(d: Directive, notes: Annotations[P, R], source: str,
             point: Callable[[str], P], region: Callable[[str], R],
             roles: Iterable[str]) -> None:
    """Read one annotation directive into ``notes``.  ``point`` and ``region`` parse names
    (raising BoardgenError for a bad one); ``roles`` are the highlight roles the game's
    pictures know."""

    def fail(message: str) -> ExampleError:
        return ExampleError(source, d.line, message)

    def parsed(parse: Callable[[str], T], word: str) -> T:
        try:
            return parse(word)
        except BoardgenError as exc:
            raise fail(str(exc)) from None

    words = d.value.split()
    if d.key == "arrow":
        if len(words) != 2:
            raise fail(f"arrow needs 'FROM TO', not {d.value!r}")
        notes.arrows.append((parsed(point, words[0]), parsed(point, words[1])))
    elif d.key == "mark":
        if len(words) != 2:
            raise fail(f"mark needs 'WHERE KIND' (KIND: {', '.join(MARK_KINDS)}, or a number "
                       f"or letter of up to {MAX_MARK_TEXT} characters), not {d.value!r}")
        kind = words[1]
        if kind not in MARK_KINDS and len(kind) > MAX_MARK_TEXT:
            raise fail(f"mark {kind!r}: use {', '.join(MARK_KINDS)}, or a number or letter of "
                       f"up to {MAX_MARK_TEXT} characters")
        notes.marks.append((parsed(point, words[0]), kind))
    elif d.key == "highlight":
        known = sorted(roles)
        if len(words) < 2:
            raise fail(f"highlight needs 'ROLE WHERE...' (roles: {', '.join(known)})")
        if words[0] not in known:
            raise fail(f"unknown highlight role {words[0]!r} (roles: {', '.join(known)})")
        for word in words[1:]:
            notes.highlights[parsed(region, word)] = words[0]
    elif d.key == "caption":
        notes.caption = d.value
    else:
        raise fail(f"unknown directive {d.key!r}")
