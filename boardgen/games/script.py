"""Diagram files: their plain-text format, and the one runner that replays them.

The format, one directive per line (example files live under ``templates/GAME/``)::

    # a comment
    title: Three connections, one taken
    position:
        x . x
       x . . .
    end
    panel: 2b
    place: B2 connection 2

A directive is ``key: value``.  A block key (``position:``, ``glyphs:``, ``board:``) whose
value is empty takes the lines after it as a block, up to a line ``end``.  Every directive
keeps its line number, so that an engine that disagrees with a claim can say where.

The runner (:class:`GameScript`) owns the steps every game's files share: the header up to
the first panel (``game:``, ``title:``, claims about the start), lines of play (``line:``,
each starting again from the start position), panels (``panel:``), claims (``expect:``)
checked against the engine, notes (``note:``), annotations (``arrow:``, ``mark:``,
``highlight:``, ``caption:``), and errors as ``FILE:LINE: message``.  A game gives it tables:
its header directives, its panel directives and its claims (``expect: WORD ...``, keyed on
the first word), and says how to start a game and how to open and close a panel.
"""

from __future__ import annotations

import copy
import inspect
import re
import textwrap
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path
from typing import Any, Generic, Protocol, TypeVar

from boardgen.errors import BoardgenError, Refusal
from boardgen.geometry import NOTATIONS, Hex
from boardgen.inputs import split_lines
from boardgen.limits import (
    MAX_ANNOTATIONS,
    MAX_CAPTION_CHARS,
    MAX_DRAWN_CELLS,
    MAX_NUMBER_DIGITS,
    MAX_TITLE_CHARS,
)
from boardgen.limits import MAX_PANELS as MAX_PANELS
from boardgen.picture import DESIGNER, MARK_KINDS, TINT, Arrow, DesignerMark, Marker, Scene
from boardgen.text import check_lines, quoted, read_input_text, shown_path

MAX_SHOWN_SOURCE = 255  # characters of a file's name before FILE:LINE cuts it
BLOCK_KEYS = frozenset({"position", "glyphs", "board"})  # a block when the value is empty
# Directives whose value is text to print, not words to read: their digits are not numbers.
TEXT_KEYS = frozenset({"title", "source", "caption", "note", "line", "panel", "number"})
# What a panel prints under it: its label, caption and notes, all together.
PANEL_TEXT_KEYS = frozenset({"panel", "caption", "note"})


@dataclass(frozen=True)
class Directive:
    key: str
    value: str
    line: int
    block: tuple[str, ...] = ()


class ExampleError(BoardgenError):
    """A problem in an example file, reported as ``path:line: message`` (a diagram given as
    text, with no file: ``line N: message``)."""

    def __init__(self, source: str, line: int, message: str, key: str = "") -> None:
        # FILE:LINE, which editors and terminals open, whole unless it is absurdly long.
        super().__init__(f"{shown_path(source, MAX_SHOWN_SOURCE)}:{line}: {message}" if source else
                         f"line {line}: {message}" if line else message)
        self.line = line
        self.key = key  # the directive at fault, when one is
        self.reason = message  # without its place


def read_directives(path: Path) -> list[Directive]:
    """A diagram file's directives; the file is read with a size cap (it may be anything a
    user names: a device, a pipe)."""
    return parse_directives(read_input_text(path, "diagram file"), str(path))


def parse_directives(text: str, source: str) -> list[Directive]:
    lines = split_lines(text)
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
            raise ExampleError(source, i, f"expected 'key: value', found {quoted(stripped)}")
        if key in BLOCK_KEYS and not value.strip():
            start = i
            block: list[str] = []
            while i < len(lines) and lines[i].strip() != "end":
                block.append(lines[i])
                i += 1
            if i == len(lines):
                raise ExampleError(source, start, f"'{key}:' block has no closing 'end' line")
            if not block:
                raise ExampleError(source, start, f"'{key}:' block is empty")
            i += 1
            directives.append(Directive(key, value.strip(), start, tuple(block)))
        else:
            directive = Directive(key, value.strip(), i)
            _check_words(directive, source)
            directives.append(directive)
            panels += key == "panel"
            if panels > MAX_PANELS:
                raise ExampleError(source, i, f"more than {MAX_PANELS} panels in one diagram")
    _check_texts(directives, source)
    _check_rows(directives, source)
    return directives


def _check_words(d: Directive, source: str) -> None:
    """A number is ASCII digits, at most MAX_NUMBER_DIGITS of them: refused here, once for
    every game, before any reader converts it (Python will not convert 4,301 digits, and
    str.isdigit() accepts '²', which int() refuses)."""
    if d.key in TEXT_KEYS:
        return
    for word in d.value.split():
        if not word.isdigit():
            continue
        if not word.isascii():
            raise ExampleError(source, d.line, f"{quoted(word)}: write numbers with the digits "
                               "0-9")
        if len(word) > MAX_NUMBER_DIGITS:
            raise ExampleError(source, d.line, f"a number of {len(word):,} digits: at most "
                               f"{MAX_NUMBER_DIGITS}")


def _check_texts(directives: Sequence[Directive], source: str) -> None:
    """Titles as long as --title allows; a panel's label, caption and notes together, and a
    line's title, as long as a few lines under a panel."""
    panel_text = 0
    for d in directives:
        if d.key == "title" and len(d.value) > MAX_TITLE_CHARS:
            raise ExampleError(source, d.line, f"title: {len(d.value):,} characters is longer "
                               f"than the limit of {MAX_TITLE_CHARS} (as --title)")
        if d.key == "source" and len(d.value) > MAX_CAPTION_CHARS:
            raise ExampleError(source, d.line, f"source: {len(d.value):,} characters is "
                               f"longer than the limit of {MAX_CAPTION_CHARS}")
        if d.key == "line" and len(d.value) > MAX_CAPTION_CHARS:
            raise ExampleError(source, d.line, f"line: {len(d.value):,} characters is longer "
                               f"than the limit of {MAX_CAPTION_CHARS} for a line's title")
        if d.key in ("panel", "line"):
            panel_text = 0
        if d.key in PANEL_TEXT_KEYS:
            panel_text += len(d.value)
            if panel_text > MAX_CAPTION_CHARS:
                raise ExampleError(source, d.line, f"{d.key}: the panel's label, caption and "
                                   f"notes come to {panel_text:,} characters, more than the "
                                   f"limit of {MAX_CAPTION_CHARS}")


def _check_rows(directives: Sequence[Directive], source: str) -> None:
    """Every 'line:' (a row of panels) has a 'panel:' before the next line or the end."""
    open_line: Directive | None = None
    for d in [*directives, None]:
        if d is not None and d.key == "panel":
            open_line = None
        elif d is None or d.key == "line":
            if open_line is not None:
                raise ExampleError(source, open_line.line, "this 'line:' has no 'panel:' "
                                   "after it; a line is a row of panels")
            open_line = d


def in_notation(directives: Sequence[Directive], notation: str, source: str,
                given_as: str) -> list[Directive]:
    """A file's directives, read in ``notation`` given from outside it (``given_as``, such
    as ``--notation a1``): a file that names its own must name the same; one that names
    none is read in it, as if its header said so (at its 'game:' line, or its first)."""
    own = next((d for d in directives if d.key == "notation"), None)
    if own is not None:
        if own.value != notation:
            raise ExampleError(source, own.line, f"the file says 'notation: {own.value}', but "
                               f"{given_as} was given: leave one out", own.key)
        return list(directives)
    at = next((k + 1 for k, d in enumerate(directives) if d.key == "game"), 0)
    line = directives[at - 1].line if at else 1
    return [*directives[:at], Directive("notation", notation, line), *directives[at:]]


def check_drawn_cells(panels: int, cells: int, source: str, line: int) -> None:
    """Refuse a diagram whose panels draw more cells in all than MAX_DRAWN_CELLS, before it
    is replayed or drawn."""
    if panels * cells > MAX_DRAWN_CELLS:
        raise ExampleError(source, line, f"{panels} panels of a {cells:,}-cell board draw "
                           f"{panels * cells:,} cells, more than the limit of "
                           f"{MAX_DRAWN_CELLS:,}: use fewer panels or a smaller board")


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
MAX_MARK_TEXT = 3  # a number or a letter or two: it is drawn inside one cell


@dataclass
class Annotations(Generic[P, R]):
    """What a designer drew on a panel beside the engine's own marks."""

    arrows: list[tuple[P, P]] = field(default_factory=list)
    marks: list[DesignerMark] = field(default_factory=list)
    highlights: dict[R, str] = field(default_factory=dict)  # role from the theme
    caption: str | None = None  # replaces the caption the engine writes
    # Each highlight as asked for: (region, its name as written, role, the directive).
    highlighted: list[tuple[R, str, str, Directive]] = field(default_factory=list)


@dataclass(frozen=True)
class DesignerMarks:
    """A designer's arrows, marks and highlights given as values (``boardgen.draw``'s
    ``arrows=``, ``marks=``, ``highlights=``): places named in the game's notation, read
    and checked as a diagram file's ``arrow:``, ``mark:`` and ``highlight:`` are, without
    being written out as a file's text first."""

    arrows: tuple[tuple[str, str], ...] = ()
    marks: tuple[tuple[str, str], ...] = ()  # (where, a mark as 'mark:' writes it)
    highlights: tuple[tuple[str, tuple[str, ...]], ...] = ()  # (role, places)

    def __bool__(self) -> bool:
        return bool(self.arrows or self.marks or self.highlights)


class _Reader(Generic[P, R]):
    """Reads annotations into ``notes``, each checked; an error is an ExampleError at
    ``line`` of ``source`` naming the kind of annotation (its directive's key)."""

    def __init__(self, notes: Annotations[P, R], source: str, line: int,
                 point: Callable[[str], P], region: Callable[[str], R],
                 roles: Iterable[str]) -> None:
        self.notes, self.source, self.line = notes, source, line
        self.point, self.region, self.known = point, region, sorted(roles)

    def fail(self, key: str, message: str) -> ExampleError:
        return ExampleError(self.source, self.line, message, key)

    def parsed(self, key: str, parse: Callable[[str], T], word: str) -> T:
        try:
            return parse(word)
        except BoardgenError as exc:
            raise self.fail(key, str(exc)) from None

    def arrow(self, start: str, end: str) -> None:
        self.notes.arrows.append((self.parsed("arrow", self.point, start),
                                  self.parsed("arrow", self.point, end)))

    def mark(self, where: str, words: Sequence[str]) -> None:
        """A mark on ``where``: ``words`` its kind, and a text mark's text."""
        kind, text = self.mark_kind(words)
        place: Any = self.parsed("mark", self.point, where)  # a Hex or a Hole
        self.notes.marks.append(DesignerMark(place, kind, text))

    def mark_kind(self, words: Sequence[str]) -> tuple[str, str]:
        """(kind, text) of a mark written as ``KIND`` or ``text LABEL`` (LABEL may be
        in double quotes); an unknown kind is refused, naming the kinds."""
        kind, *rest = words
        if kind not in MARK_KINDS:
            # A short unknown word may be a label written the old way: say how it is now.
            hint = f"; a label is written 'text {kind}'" if len(kind) <= MAX_MARK_TEXT \
                else ""
            raise self.fail("mark", f"unknown mark kind {quoted(kind)} (kinds: "
                            f"{', '.join(MARK_KINDS)}{hint})")
        if kind != "text":
            if rest:
                raise self.fail("mark", f"a {kind} mark takes no text: 'mark: WHERE {kind}'")
            return kind, ""
        text = " ".join(rest)
        if len(text) >= 2 and text[0] == text[-1] == '"':
            text = text[1:-1]
        if not text or len(text) > MAX_MARK_TEXT or any(ch.isspace() for ch in text):
            raise self.fail("mark", f"a text mark is 'text LABEL', LABEL a number or letter "
                            f"of 1 to {MAX_MARK_TEXT} characters with no spaces, not "
                            f"{quoted(' '.join(words))}")
        return kind, text

    def highlight(self, role: str, places: Sequence[str], d: Directive) -> None:
        if role not in self.known:
            raise self.fail("highlight", f"unknown highlight role {quoted(role)} (roles: "
                            f"{', '.join(self.known)})")
        for word in places:
            where = self.parsed("highlight", self.region, word)
            self.notes.highlights[where] = role
            self.notes.highlighted.append((where, word, role, d))


@dataclass
class Draft:
    """A panel being written, for a game that needs no more: its label, the notes under
    it, the designer's annotations and how many moves it made."""

    label: str
    notes: list[str] = field(default_factory=list)
    annotations: Annotations[Any, Any] = field(default_factory=Annotations)
    moved: int = 0


def annotate(d: Directive, notes: Annotations[P, R], source: str,
             point: Callable[[str], P], region: Callable[[str], R],
             roles: Iterable[str]) -> None:
    """Read one annotation directive into ``notes``.  ``point`` and ``region`` parse names
    (raising BoardgenError for a bad one); ``roles`` are the highlight roles the game's
    pictures know (those its engine judges are checked when the panel closes)."""
    read = _Reader(notes, source, d.line, point, region, roles)
    words = d.value.split()
    if d.key == "arrow":
        if len(words) != 2:
            raise read.fail(d.key, f"arrow needs 'FROM TO', not {quoted(d.value)}")
        read.arrow(*words)
    elif d.key == "mark":
        if len(words) < 2:
            raise read.fail(d.key, f"mark needs 'WHERE KIND' (KIND: {', '.join(MARK_KINDS)}; "
                            f"'text LABEL' for a number or letter of up to {MAX_MARK_TEXT} "
                            f"characters), not {quoted(d.value)}")
        read.mark(words[0], words[1:])
    elif d.key == "highlight":
        if len(words) < 2:
            raise read.fail(d.key, f"highlight needs 'ROLE WHERE...' (roles: "
                            f"{', '.join(read.known)})")
        read.highlight(words[0], words[1:], d)
    elif d.key == "caption":
        notes.caption = d.value
    else:
        raise read.fail(d.key, f"unknown directive {quoted(d.key)}")


def annotate_marks(given: DesignerMarks, notes: Annotations[P, R], source: str,
                   point: Callable[[str], P], region: Callable[[str], R],
                   roles: Iterable[str]) -> None:
    """Read a designer's annotations given as values into ``notes``, checked as
    :func:`annotate` checks a file's."""
    read = _Reader(notes, source, 0, point, region, roles)
    for start, end in given.arrows:
        read.arrow(start, end)
    for where, written in given.marks:
        if not written.split():
            raise read.fail("mark", f"mark on {quoted(where)}: no kind (kinds: "
                            f"{', '.join(MARK_KINDS)})")
        read.mark(where, written.split())
    for role, places in given.highlights:
        # Where a judged highlight's error is reported: no file line, the annotation's kind.
        read.highlight(role, places, Directive("highlight", role, 0))


def _words(text: str) -> list[str]:
    return re.sub(r"[^0-9a-z]+", " ", text.lower()).split()


# Words that carry no fact of their own in a panel's label ('About c6', 'X to move').
_FILLER = frozenset({"a", "an", "the", "to", "at", "on", "of", "in", "with", "and", "about",
                     "s", "it", "its", "is", "by", "from"})
# Words that say whose turn it is: a label of a player and these says the side to move.
_TURN = frozenset({"move", "moves", "play", "plays", "turn", "turns"})


def _facts(text: str) -> list[str]:
    """The words of a text that state something: place names ('c0-c2' is c0 and c2),
    players, verbs; filler left out, and 'to play', 'to move', 'turn' said one way."""
    return ["move" if word in _TURN else word for word in _words(text)
            if word not in _FILLER]


def label_said(label: str, caption: str) -> bool:
    """Whether ``caption`` says already what ``label`` says, in its own words: the label
    names whose turn it is and the caption begins with that player ('X to move' over 'X
    to play, with ...', "O's turn" over 'O connects at D3 ...'); or every fact of the label
    is in the caption ('White swings c0-c2 to d1' in 'White swings c0 about c2 to d1.',
    'About c6' in '..., swung about c6, ...'), a player named by one letter (X, O) only as
    the subject of one of its sentences (not 'touching 2 X cells')."""
    said = _facts(label)
    if not said or not caption:
        return False
    sentences = [_words(part) for part in re.split(r"(?<=[.!?])\s+", caption)]
    subjects = {words[0] for words in sentences if words}
    rest = [word for word in said if word != "move"]
    if "move" in said and len(rest) == 1:  # whose turn it is
        return bool(sentences[0]) and sentences[0][0] == rest[0]
    letters = {word for word in said if len(word) == 1 and word.isalpha()}
    return set(said) - letters <= set(_facts(caption)) and letters <= subjects


def labelled(label: str, caption: str) -> str:
    """A panel's caption under its label ('Before. White swings ...'), the label left out
    when the caption says it already, in any words (:func:`label_said`): a panel states
    a move, or whose turn it is, once."""
    label = label.strip()
    if not label:
        return caption
    if label_said(label, caption):
        return caption
    stop = "" if label[-1] in ".!?:" else "."
    return f"{label}{stop} {caption}".strip()


def annotated(scene: Scene, notes: Annotations[Hex, Hex]) -> Scene:
    """A designer's arrows, marks and highlights on top of the engine's picture of a hex
    board.  A highlight is an overlay: the cell keeps its own role (a player's colour) and
    its stone."""
    if not (notes.arrows or notes.marks or notes.highlights):
        return scene
    highlights = dict(scene.highlights)
    highlights.update(notes.highlights)
    # In the designer's own look (boardgen.render.figure.designer_strokes), never in an
    # engine's: a ring here is not an open connection, a letter not a move number.
    markers = (*scene.markers, *(Marker(m.where, m.kind, DESIGNER, m.text)  # type: ignore[arg-type]
                                 for m in notes.marks))
    return replace(scene, highlights=highlights, markers=markers,
                   arrows=scene.arrows + tuple(Arrow(a, b) for a, b in notes.arrows))


# --- the runner ------------------------------------------------------------------------------

G = TypeVar("G")  # a game's engine, for one line of play


class _Draft(Protocol):
    """A panel being written: it collects the designer's annotations."""

    @property
    def annotations(self) -> Annotations[Any, Any]: ...


D = TypeVar("D", bound=_Draft)  # a panel being written
Q = TypeVar("Q")  # a finished panel


class NotAClaim(Exception):
    """Raised by a claim handler whose words do not have its form: the runner reports the
    claim as unknown, with the game's list of claims."""


@dataclass(frozen=True)
class PlayLine(Generic[Q]):
    """A line of play: its title and its panels, from the start position; ``frames``,
    the line move by move (an animation's frames): a panel as it stands after each of its
    moves, its last move's frame the panel itself, and a panel without moves as it is."""

    title: str | None
    panels: tuple[Q, ...]
    frames: tuple[Q, ...] = ()


Handler = Callable[[Directive], None]
# The directives every game's files share (the runner's own).
SHARED_KEYS = frozenset({"game", "title", "line", "panel", "expect", "note"}) | ANNOTATION_KEYS
# Who else has a directive: the registry says, for an error about a directive this game
# lacks (set by boardgen.games.registry, which knows every game; the runner knows none).
_DIRECTIVE_OWNERS: list[Callable[[str], list[str]]] = []


def directive_owners_with(owners: Callable[[str], list[str]]) -> None:
    """How the runner learns which games have a directive (given its key)."""
    _DIRECTIVE_OWNERS.append(owners)


class GameScript(ABC, Generic[G, D, Q]):
    """One diagram file of one game, replayed: :meth:`run` does the shared steps, the
    subclass gives its tables (``header``, ``directives``, ``claims``) and its engine."""

    game: str  # what the file's 'game:' line must say
    lines = True  # 'line:' starts a row of panels again from the start
    start_claims = True  # 'expect:' before the first panel: checked at every start
    # Highlight roles drawn as asked, which no engine judges ('tint' always is one).
    highlight_roles: tuple[str, ...] = ()
    # Highlight roles the engine can judge, by role: (engine, panel draft, region) -> None
    # if the engine agrees that the region is in that role in the position the panel
    # shows, else what it sees.  Checked like claims when the panel closes.
    highlight_claims: Mapping[str, Callable[[G, D, Any], str | None]] = {}
    # Panel directives that play moves: the line's frames are taken after each.
    move_keys: frozenset[str] = frozenset()
    # Directives before the first panel, by key.
    header: Mapping[str, Handler]
    # Header directives a file may give more than once (each adds to the start); every
    # other one, and 'game:' and 'title:', is refused the second time, naming both lines.
    repeatable_header: frozenset[str] = frozenset()
    # Directives inside a panel, by key: (engine, draft, directive).
    directives: Mapping[str, Callable[[G, D, Directive], None]]
    # Claims, by the first word after 'expect:': (engine, directive, words) -> None if the
    # engine agrees, else what to report; NotAClaim if the words have the wrong form.
    claims: Mapping[str, Callable[[G, Directive, list[str]], str | None]]

    def __init__(self, path: Path, *, text: str | None = None) -> None:
        """A file to read, or (``text``) its contents given directly: errors then name
        the line alone."""
        self.path = path
        self.text = text
        self.source = str(path) if text is None else ""
        # The file's directives when the caller has read them already (a file is read
        # once: its 'game:' line and its replay come from one reading).
        self.read: list[Directive] | None = None
        self.name = path.stem
        self.title = path.stem
        self._start_claims: list[Directive] = []
        self._drawn_annotations = 0  # arrows and marks, all panels together

    def _annotation(self, d: Directive) -> None:
        """Count an arrow or a mark: at most MAX_ANNOTATIONS on one picture."""
        if d.key in ("arrow", "mark"):
            self._drawn_annotations += 1
            if self._drawn_annotations > MAX_ANNOTATIONS:
                raise self.fail(d, f"more than {MAX_ANNOTATIONS:,} arrows and marks in one "
                                   "diagram")

    def fail(self, d: Directive, message: str) -> ExampleError:
        return ExampleError(self.source, d.line, message, d.key)

    # --- what a game gives -------------------------------------------------------------

    def names_cells(self) -> bool:
        """Whether the file's places are cells of a hex grid (the script keeps its board as
        ``grid``, as :meth:`cells_per_panel` reads it): then 'notation:' says how they are
        named."""
        return hasattr(self, "grid")

    def _name_cells(self, notation: str) -> None:
        """The board, once made, named in ``notation`` (a header directive may make it)."""
        grid = getattr(self, "grid", None)
        if grid is not None and grid.notation != notation:
            self.grid = grid.named(notation)

    def _notation(self, header: Sequence[Directive]) -> str:
        """The notation the file's 'notation:' line names (default: the server's); read
        first, so that every cell name of the header is read in it, wherever it stands."""
        d = next((d for d in header if d.key == "notation"), None)
        if d is None:
            return NOTATIONS[0]
        if not self.names_cells():
            raise self.unknown_directive(d, "before the first panel")
        if d.value not in NOTATIONS:
            raise self.fail(d, f"notation {quoted(d.value)}: unknown (choose from "
                               f"{', '.join(NOTATIONS)})")
        return d.value

    def cells_per_panel(self) -> int | None:
        """How many cells (or holes) each panel draws, once the header is read: the runner
        bounds panels x cells before replaying anything.  None: a small fixed board."""
        grid = getattr(self, "grid", None)
        return len(grid) if grid is not None else None

    @abstractmethod
    def start(self) -> G:
        """The engine at the start position (for the first panel, and each 'line:')."""

    @abstractmethod
    def open_panel(self, game: G, label: str) -> D:
        """A panel starting from the position as it is."""

    @abstractmethod
    def close_panel(self, game: G, draft: D) -> Q:
        """The panel finished: its position, caption and annotations."""

    @abstractmethod
    def note(self, draft: D, text: str) -> None:
        """'note: TEXT' added to the panel's caption."""

    @abstractmethod
    def point(self, game: G, word: str) -> Any:
        """Where an arrow or a mark goes; raises BoardgenError for a bad name."""

    def region(self, game: G, word: str) -> Any:
        """What a highlight colours (default: a point)."""
        return self.point(game, word)

    def unknown_claim(self, game: G, d: Directive) -> str:
        return (f"unknown expectation {quoted(' '.join(d.value.split()))} (claims: "
                f"{', '.join(sorted(self.claims)) or 'none'})")

    def roles(self) -> list[str]:
        """Every highlight role a file may use, judged or not."""
        return sorted({*self.highlight_roles, *self.highlight_claims, TINT})

    def keys(self) -> frozenset[str]:
        """Every directive a file of this game may use."""
        return SHARED_KEYS | set(self.header) | set(self.directives) | \
            ({"notation"} if self.names_cells() else set())

    def unknown_directive(self, d: Directive, where: str) -> ExampleError:
        """An error for a directive this game lacks: whose it is, and which are this
        game's."""
        before = where == "before the first panel"
        panel_only = {"note", "expect", *ANNOTATION_KEYS, *self.directives}
        if before and d.key in panel_only:
            return self.fail(d, f"'{d.key}:' must come after a 'panel:' line")
        # This game's own header lines and the shared ones (game:, title:, notation:).
        heading = {*self.header, "game", "title", *(["notation"] if self.names_cells() else [])}
        if not before and d.key in heading:
            return self.fail(d, f"'{d.key}:' belongs before the first panel")
        owners = sorted({owner for ask in _DIRECTIVE_OWNERS for owner in ask(d.key)}
                        - {self.game})
        theirs = f"; '{d.key}:' is for {' and '.join(owners)} diagrams" if owners else ""
        allowed = self.header if before else self.directives
        shared = (["game", "title", *(["notation"] if self.names_cells() else []),
                   *(["expect"] if self.start_claims else [])] if before else
                  sorted({"panel", "expect", "note", *ANNOTATION_KEYS}
                         | ({"line"} if self.lines else set())))
        known = ", ".join(f"{key}:" for key in [*sorted(allowed), *shared])
        return self.fail(d, f"unknown directive {quoted(d.key)} {where}{theirs} ({self.game} "
                            f"takes {known})")

    def judge_highlights(self, game: G, draft: D, notes: Annotations[Any, Any]) -> None:
        """Every highlight in a role the engine judges, checked like a claim about the
        position the panel shows (a picture never shows what the engine denies); the first
        it denies raises ExampleError at its line."""
        for where, word, role, d in notes.highlighted:
            try:
                failure = self.judge_highlight(game, draft, role, where)
            except ExampleError:
                raise
            except BoardgenError as exc:
                raise self.fail(d, str(exc)) from None
            if failure is not None:
                raise self.fail(d, f"highlight {role} {word}: {failure}")

    def annotations_of(self, game: G, draft: D, given: DesignerMarks
                       ) -> Annotations[Any, Any]:
        """Arrows, marks and highlights given as values (by ``boardgen.draw``) read as a
        file's are, every judged highlight checked against ``game``."""
        notes: Annotations[Any, Any] = Annotations()
        if len(given.arrows) + len(given.marks) > MAX_ANNOTATIONS:
            raise ExampleError(self.source, 0, f"more than {MAX_ANNOTATIONS:,} arrows and "
                                               "marks on one picture", "arrow")
        annotate_marks(given, notes, self.source, partial(self.point, game),
                       partial(self.region, game), self.roles())
        self.judge_highlights(game, draft, notes)
        return notes

    def snapshot(self, game: G, draft: D) -> Q:
        """The panel as it stands after one of its moves, for an animation's frame: the
        engine's picture and words without the designer's annotations (a highlight is
        judged in the position the finished panel shows, not in between)."""
        bare = copy.copy(draft)
        vars(bare)["annotations"] = Annotations()
        return self.close_panel(game, bare)

    def judge_highlight(self, game: G, draft: D, role: str, where: Any) -> str | None:
        """None if the engine agrees that ``where`` is in ``role`` in the position the
        panel shows (or no engine judges the role), else what it sees."""
        judge = self.highlight_claims.get(role)
        return None if judge is None else judge(game, draft, where)

    # --- the shared steps --------------------------------------------------------------

    def check(self, game: G, d: Directive) -> None:
        """One 'expect:' claim, checked against the engine."""
        words = d.value.split()
        handler = self.claims.get(words[0]) if words else None
        try:
            if handler is None:
                raise NotAClaim
            failure = handler(game, d, words)
        except NotAClaim:
            raise self.fail(d, self.unknown_claim(game, d)) from None
        except ExampleError:
            raise
        except BoardgenError as exc:  # a bad cell, hole or line inside the claim
            raise self.fail(d, str(exc)) from None
        if failure is not None:
            raise self.fail(d, failure)

    def _handled(self, d: Directive, handler: Callable[..., None], *args: Any) -> None:
        """A directive's handler; a BoardgenError it lets out is reported at the
        directive's line."""
        try:
            handler(*args)
        except ExampleError:
            raise
        except BoardgenError as exc:
            raise self.fail(d, str(exc)) from None

    def _new_game(self) -> G:
        game = self.start()
        for d in self._start_claims:
            self.check(game, d)
        return game

    def run(self) -> list[PlayLine[Q]]:
        """Replay the file; raises ExampleError (``FILE:LINE: reason``) on any disagreement."""
        directives = self.read if self.read is not None else \
            read_directives(self.path) if self.text is None else \
            parse_directives(self.text, self.source)
        body_keys = ("line", "panel") if self.lines else ("panel",)
        body = next((i for i, d in enumerate(directives) if d.key in body_keys),
                    len(directives))
        given: dict[str, Directive] = {}
        notation = self._notation(directives[:body])
        self._name_cells(notation)
        for d in directives[:body]:
            if d.key != "expect" and d.key not in self.repeatable_header:
                first = given.setdefault(d.key, d)
                if first is not d:
                    where = f"{self.source}:{first.line}" if self.source else \
                        f"line {first.line}"
                    raise self.fail(d, f"a second '{d.key}:' line ({where} gives one "
                                       "already): say it once")
            if d.key == "game":
                check_game(d, self.game, self.source)
            elif d.key == "title":
                self.title = d.value
            elif d.key == "expect" and self.start_claims:
                self._start_claims.append(d)
            elif d.key == "notation":
                pass  # read first (_notation)
            elif d.key in self.header:
                self._handled(d, self.header[d.key], d)
                self._name_cells(notation)
            else:
                raise self.unknown_directive(d, "before the first panel")
        if body == len(directives):
            raise ExampleError(self.source, 1, "no panels")
        cells = self.cells_per_panel()
        if cells is not None:
            check_drawn_cells(sum(d.key == "panel" for d in directives), cells, self.source,
                              directives[body].line)

        lines: list[PlayLine[Q]] = []
        line_title: str | None = None
        panels: list[Q] = []
        frames: list[Q] = []  # the line move by move
        moved = 0  # moves in the open panel
        game = self._new_game()
        draft: D | None = None

        def close_panel() -> None:
            nonlocal draft
            if draft is not None:
                self.judge_highlights(game, draft, draft.annotations)
                panels.append(self.close_panel(game, draft))
                if moved:
                    frames[-1] = panels[-1]  # its last move: the panel as drawn
                else:
                    frames.append(panels[-1])
            draft = None

        def close_line() -> None:
            nonlocal panels, frames
            close_panel()
            if panels:
                lines.append(PlayLine(line_title, tuple(panels), tuple(frames)))
            panels, frames = [], []

        for d in directives[body:]:
            if d.key == "line" and self.lines:
                close_line()
                line_title = d.value or None
                game = self._new_game()
            elif d.key == "panel":
                close_panel()
                draft, moved = self.open_panel(game, d.value), 0
            elif draft is None:
                raise self.fail(d, f"'{d.key}:' must come after a 'panel:' line")
            elif d.key == "expect":
                self.check(game, d)
            elif d.key == "note":
                self.note(draft, d.value)
            elif d.key in ANNOTATION_KEYS:
                self._annotation(d)
                annotate(d, draft.annotations, self.source, partial(self.point, game),
                         partial(self.region, game), self.roles())
            elif d.key in self.directives:
                self._handled(d, self.directives[d.key], game, draft, d)
                if d.key in self.move_keys:
                    frames.append(self.snapshot(game, draft))
                    moved += 1
            else:
                raise self.unknown_directive(d, "in a panel")
        close_line()
        return lines


class _Ruled(Protocol):
    """An engine that says why a move is refused (None: it is allowed), and who moves."""

    @property
    def to_move(self) -> str: ...

    def refusal(self, where: Any) -> Refusal | None: ...


Judge = Callable[[Any, Any, Any], "str | None"]


def legality_judges(player: Callable[[str], str]) -> dict[str, Judge]:
    """The highlight judges ``legal`` and ``illegal`` of an engine with ``refusal()``:
    a highlight of either is true of the position only if the engine rules so for the
    player to move (``player`` words the player: ``str.upper`` gives X)."""

    def legal(game: _Ruled, draft: object, where: object) -> str | None:
        refusal = game.refusal(where)
        return None if refusal is None else f"the engine rules it illegal: {refusal.message}"

    def illegal(game: _Ruled, draft: object, where: object) -> str | None:
        return f"the engine rules it legal for {player(game.to_move)}" \
            if game.refusal(where) is None else None

    return {"legal": legal, "illegal": illegal}


class _Turns(Protocol):
    """An engine that says who moves, whether the game is over and who won."""

    @property
    def to_move(self) -> str: ...

    @property
    def over(self) -> bool: ...

    @property
    def winner(self) -> str | None: ...


Claim = Callable[[Any, Directive, list[str]], "str | None"]


def turn_claims(players: Sequence[str]) -> dict[str, Claim]:
    """The claims ``expect: to-move P`` and ``expect: winner P|none`` of an engine with
    ``to_move``, ``over`` and ``winner`` (P one of ``players``), for a game's claims
    table."""

    def to_move(game: _Turns, d: Directive, words: list[str]) -> str | None:
        if len(words) != 2 or words[1] not in players:
            raise NotAClaim
        if not game.over and game.to_move == words[1]:
            return None
        return expected(" ".join(words), "the game is over" if game.over
                        else f"{game.to_move} is to move")

    def winner(game: _Turns, d: Directive, words: list[str]) -> str | None:
        if len(words) != 2 or words[1] not in (*players, "none"):
            raise NotAClaim
        if (game.winner or "none") == words[1]:
            return None
        return expected(" ".join(words), f"the winner is {game.winner or 'nobody yet'}")

    return {"to-move": to_move, "winner": winner}


def expected(claim: str, seen: str) -> str:
    """The usual report of a claim the engine does not share."""
    return f"the example expects '{claim}', but {seen}"


# --- the language's reference, read from the tables the runner uses ---------------------------

# The runner's own directives, the same in every game: how each is written and what it does.
SHARED_SYNTAX: Mapping[str, tuple[str, str]] = {
    "game": ("game: NAME", "The game the file is for (may be left out under the game's own "
                           "template folder)."),
    "title": ("title: TEXT", "The diagram's heading."),
    "notation": ("notation: " + "|".join(NOTATIONS),
                 "How the file names cells, and how the picture labels them: server (the "
                 "default: a row letter and a diagonal number, F6) or a1 (a column letter and "
                 "a row number, as Hex players write them: rhombus 6 runs a1-f6)."),
    "line": ("line: TITLE", "A new row of panels, starting again from the start position."),
    "panel": ("panel: LABEL", "A new panel, showing the position as it is (a label the "
                              "caption already says is not repeated)."),
    "expect": ("expect: CLAIM", "A claim about the position as it is, checked by the engine "
                                "(the claims below)."),
    "note": ("note: TEXT", "Added to the caption the engine writes."),
    "caption": ("caption: TEXT", "Replaces the caption the engine writes."),
    "arrow": ("arrow: FROM TO", "An arrow between two places, drawn above rings and numbers."),
    "mark": ("mark: WHERE KIND", "A designer's mark on a place, drawn in a style of its own "
                                 "(dashed or haloed, in the theme's designer ink) that no "
                                 "engine role uses, with a key entry for each kind used; "
                                 "KIND is one of the mark kinds below."),
    "highlight": ("highlight: ROLE WHERE...", "A band over cells (Polygone: lines), in a "
                                              "role below; a role the engine judges is a "
                                              "claim about the panel's position."),
}

# The kinds of 'mark:', as written after the place, and what each draws: the parser takes
# MARK_KINDS (boardgen.picture), this table says them (a test keeps the two the same).
MARK_SYNTAX: Mapping[str, tuple[str, str]] = {
    "ring": ("ring", "A dashed ring round the place."),
    "cross": ("cross", "An upright cross (+) on a paper halo: never the × an engine draws."),
    "dot": ("dot", "A small solid diamond on a paper halo."),
    "text": ("text LABEL", f"A number or letter of up to {MAX_MARK_TEXT} characters in a "
                           'dashed ring (LABEL may be in double quotes: text "A").'),
}


@dataclass(frozen=True)
class Syntax:
    """One entry of the reference: the directives (or claim words) one reader takes, how
    they are written and what they mean."""

    keys: tuple[str, ...]
    form: str
    meaning: str


@dataclass(frozen=True)
class GameSyntax:
    """A game's diagram-file language, as its runner reads it."""

    game: str
    header: tuple[Syntax, ...]  # before the first panel
    panel: tuple[Syntax, ...]  # inside a panel
    claims: tuple[Syntax, ...]  # the words after 'expect:'
    judged_roles: tuple[str, ...]  # highlight roles the engine checks
    drawn_roles: tuple[str, ...]  # highlight roles drawn as asked
    block_keys: tuple[str, ...]  # directives that may take lines up to 'end'
    mark_kinds: tuple[Syntax, ...] = ()  # the kinds after 'mark: WHERE'


def _documented(handlers: Mapping[str, Callable[..., Any]], *, claims: bool = False
                ) -> tuple[Syntax, ...]:
    """One entry per handler, its keys together: the handler's docstring gives the form
    (its first line) and the meaning (the rest)."""
    by_handler: dict[Any, list[str]] = {}
    for key in sorted(handlers):
        handler = handlers[key]
        by_handler.setdefault(getattr(handler, "__func__", handler), []).append(key)
    entries = []
    for handler, named in by_handler.items():
        doc = inspect.getdoc(handler) or ""
        form, _, meaning = doc.partition("\n\n")
        if not form or "\n" in form:  # undocumented: the keys alone, no meaning
            form, meaning = " | ".join(f"{key}{' ' if claims else ': '}..."
                                       for key in named), ""
        entries.append(Syntax(tuple(named), form.strip(), " ".join(meaning.split())))
    return tuple(entries)


# 'expect:' before the first panel: a claim about the start.
START_CLAIM = ("expect: CLAIM", "A claim about the start position, checked at the start of "
                                "every line of play.")


def _shared(keys: Iterable[str], *, header: bool = False) -> tuple[Syntax, ...]:
    return tuple(Syntax((key,), *(START_CLAIM if header and key == "expect" else
                                  SHARED_SYNTAX.get(key, (f"{key}: ...", ""))))
                 for key in keys)


def directive_syntax(script: GameScript[Any, Any, Any]) -> GameSyntax:
    """The language of one game's diagram files, read from the tables its runner uses (the
    shared directives, the game's header and panel directives, its claims and highlight
    roles): the reference of the docs site, and of ``boardgen diagram --syntax``."""
    shared_header = ["game", "title", *(["notation"] if script.names_cells() else []),
                     *(["expect"] if script.start_claims and script.claims else [])]
    shared_panel = [*(["line"] if script.lines else []), "panel",
                    *(["expect"] if script.claims else []), "note", *sorted(ANNOTATION_KEYS)]
    return GameSyntax(
        game=script.game,
        header=_shared(shared_header, header=True) + _documented(script.header),
        panel=_shared(shared_panel) + _documented(script.directives),
        claims=_documented(script.claims, claims=True),
        judged_roles=tuple(sorted(script.highlight_claims)),
        drawn_roles=tuple(sorted({*script.highlight_roles, TINT})),
        block_keys=tuple(sorted(BLOCK_KEYS & set(script.header))),
        mark_kinds=tuple(Syntax((kind,), *MARK_SYNTAX[kind]) for kind in MARK_KINDS),
    )


def syntax_text(syntax: GameSyntax) -> str:
    """A game's diagram-file language as plain text, one directive a line."""

    def rows(entries: Iterable[Syntax]) -> list[str]:
        return [f"  {e.form}" + "".join(f"\n      {line}" for line in
                                        textwrap.wrap(e.meaning.replace("``", "'"), 72))
                for e in entries]

    parts = [f"{syntax.game} diagram files: one 'key: value' directive a line, '#' for "
             "comments.", "", "Before the first panel:", *rows(syntax.header), "",
             "In a panel:", *rows(syntax.panel)]
    if syntax.mark_kinds:
        parts += ["", "Mark kinds (mark: WHERE KIND):", *rows(syntax.mark_kinds)]
    if syntax.claims:
        parts += ["", "Claims (expect: ...):", *rows(syntax.claims)]
    else:
        parts += ["", "No claims: nothing is replayed, so 'expect:' is refused."]
    parts += ["", "Highlight roles the engine judges: "
              + (", ".join(syntax.judged_roles) or "none"),
              "Highlight roles drawn as asked: " + ", ".join(syntax.drawn_roles)]
    if syntax.block_keys:
        keys = ", ".join(f"'{key}:'" for key in syntax.block_keys)
        one = len(syntax.block_keys) == 1
        parts += textwrap.wrap(f"With an empty value, {keys} take{'s' * one} the lines after "
                               f"{'it' if one else 'them'}, up to a line 'end'.", 78)
    return "\n".join(parts) + "\n"
