"""boardgen's Python API: the command line's work as functions with keyword-only options.

Everything here is re-exported from ``boardgen`` (lazily, so ``import boardgen`` stays
light); each function's docstring shows it in use, and the docs build and the test suite
run those examples (docs: reference/api, tutorials/scripting).
The options are checked by :mod:`boardgen.requests`, as the command line's are; every
refusal is a :class:`~boardgen.errors.BoardgenError` naming the argument at fault.
``lang`` (``play``, ``diagram``, ``load_diagram``, ``parse_diagram``, ``draw``,
``animate``, ``board``; default ``"en"``) is the language of every word they make, as
``--lang``: a diagram's captions and key, a page's furniture, a refusal's reason
(docs: howto/translate).  Moves and coordinates are the same in every language.
"""

from __future__ import annotations

import contextlib
import functools
import inspect
import os
import random
import warnings
from collections.abc import Callable, Iterable, Mapping
from operator import attrgetter
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Literal, ParamSpec, TypeVar, overload

from boardgen.errors import BoardgenError, option
from boardgen.games.registry import Position, games, read_diagram_file, replay_read
from boardgen.games.script import DesignerMarks, ExampleError, parse_directives
from boardgen.geometry import NotationName
from boardgen.picture import Diagram, PageInfo, highlight_roles
from boardgen.picture import designer_marks as marks_drawn
from boardgen.publish.drawing import render_animation_of, render_position
from boardgen.render.diagram import draw_diagram
from boardgen.requests import (
    ANNOTATION_FIELDS,
    DEFAULT_LANGUAGE,
    Arrows,
    CutterName,
    DrawOptions,
    Format,
    Highlights,
    LabelMode,
    Marks,
    Mask,
    Orientation,
    PlayRequest,
    ShapeName,
    ShopName,
    ThemeChoice,
    animate_options,
    board_request,
    board_size,
    checked_format,
    designer_marks,
    diagram_in_notation,
    draw_options,
    game_of,
    game_options,
    in_language,
    need,
    plain,
    play_request,
)
from boardgen.text import MAX_INPUT_BYTES, read_once
from boardgen.text import quoted_value as quoted

__all__ = ["Diagram", "Engine", "Position", "animate", "board", "diagram", "draw", "engine",
           "game_names", "load_diagram", "parse_diagram", "play"]

_P = ParamSpec("_P")
_R = TypeVar("_R")


def _plain_arguments(function: Callable[_P, _R]) -> Callable[_P, _R]:
    """Every argument made of Python's own types before ``function`` sees it
    (:func:`boardgen.requests.plain`): a str subclass whose __eq__, __hash__ or split()
    raises, or a list subclass whose __iter__ does, is a BoardgenError naming the
    argument, or a plain value, never another exception from deep inside."""
    names = list(inspect.signature(function).parameters)

    @functools.wraps(function)
    def checked(*args: _P.args, **kwargs: _P.kwargs) -> _R:
        args = tuple(plain(value, names[i]) if i < len(names) else value  # type: ignore[assignment]
                     for i, value in enumerate(args))
        kwargs = {key: plain(value, key) for key, value in kwargs.items()}  # type: ignore[assignment]
        return function(*args, **kwargs)

    return checked


def game_names() -> list[str]:
    """The games boardgen knows, by their command-line names: the built-in ones, then any
    installed plug-in's.

    >>> import boardgen
    >>> boardgen.game_names()[:3]
    ['copolymer', 'o', 'polygone']
    """
    return list(games())


def _play_request(game: str, *, side: int | None, preset: str | None, diameter: int | None,
                  shape: ShapeName | None, mask: Mask | None,
                  options: dict[str, object],
                  notation: NotationName | None = None) -> PlayRequest:
    description = game_of(game)
    return play_request(description, board_size(side=side, preset=preset, diameter=diameter,
                                                shape=shape, mask=mask, notation=notation),
                        options)


_PLAIN_RANDOM = random.Random  # random_legal's first test, without an attribute look-up


@_plain_arguments
def play(game: str, moves: str | Iterable[str] = "", *, side: int | None = None,
         preset: str | None = None, diameter: int | None = None,
         shape: ShapeName | None = None, mask: Mask | None = None,
         notation: NotationName | None = None, lang: str = DEFAULT_LANGUAGE,
         **options: object) -> Position:
    """Replay ``moves`` (a string as on the command line, or a list of moves) through the
    game's engine and return the position.  An illegal move raises BoardgenError naming
    its number, the move and the reason.

    ``side``, ``preset``, ``diameter``, ``shape`` and ``mask`` (a shape drawn as text, or a
    ``Path`` to a file of one) choose a hex board, as on the command line (default: the
    game's own); ``notation`` names its cells: ``"server"`` (the default, ``F6``) or
    ``"a1"`` (Hex's, ``f6``: rhombus 6 runs a1-f6).  ``options`` are the game's own, as it
    declares them (``boardgen play GAME --help`` lists them): Copolymer's ``first`` and
    ``start`` (a position drawn as text), O's ``partisan`` and ``glyphs`` (a glyph table:
    the text of a glyph file, or a dict), a plug-in's own.

    >>> import boardgen
    >>> position = boardgen.play("copolymer", "C3 B2 C2 D3 B3", side=3)
    >>> position.to_move, position.to_json()["connections"]
    ('x', ['A2'])
    >>> boardgen.play("o", ["D4", "D4"], side=4)
    Traceback (most recent call last):
    ...
    boardgen.errors.BoardgenError: move 2 (D4): there is a stone there already
    """
    with in_language(lang):
        request = _play_request(game, side=side, preset=preset, diameter=diameter, shape=shape,
                                mask=mask, options=options, notation=notation)
        need(moves, (str, list, tuple), "moves")
        position = request.new_position()
        position.play(moves)
        return position


class Engine:
    """A game in progress, for a program that plays it: an AI player, an analysis script.

    Moves are text in the game's own notation, the same that ``boardgen play --moves``
    takes: a cell name such as ``"D4"`` for Copolymer and O, ``"c0-c2>d1"`` for Polygone.
    Made by :func:`engine` only, never directly.  As python-chess's ``Board``:
    :meth:`push` and :meth:`pop` (also called :meth:`play` and :meth:`undo`),
    :meth:`legal_moves`, :attr:`moves`, :meth:`copy` (and ``copy.copy``, ``copy.deepcopy``:
    a game of its own, sharing nothing that changes); ``print(game)`` prints the board as
    ``boardgen play`` does, Jupyter shows it as a picture; ``==`` compares game, board,
    options and position.

    >>> import boardgen
    >>> game = boardgen.engine("o", side=4)
    >>> game.push("d4"), game.push("D5")          # each move as the game spells it
    ('D4', 'D5')
    >>> before = game.position                    # a snapshot: it never changes
    >>> game.pop(), game.moves, before.moves
    ('D5', ('D4',), ('D4', 'D5'))
    """

    __hash__ = None  # type: ignore[assignment]  # it changes: no use as a key

    def __init__(self, request: PlayRequest, position: Position | None = None) -> None:
        self._request = request
        self._position = request.new_position() if position is None else position
        self._snapshot: Position | None = None

    @property
    def game(self) -> str:
        """The game's command-line name."""
        return self._position.game.key

    @property
    def position(self) -> Position:
        """The position now, as a snapshot (a :class:`~boardgen.Position` that never
        changes, even as moves are played here): ``draw(game.position, "svg")`` draws it,
        ``game.position.text()`` is the text ``boardgen play`` prints."""
        if self._snapshot is None:
            self._snapshot = self._position.snapshot()
        return self._snapshot

    @property
    def moves(self) -> tuple[str, ...]:
        """The moves played so far, in order, each as the game spells it (``"D4"`` for
        ``"d4"`` or ``"0,0"``; Polygone's ``"c0-c2>d1"`` for ``"C0 c2 -> d1"``)."""
        return tuple(self._position.named)

    def legal_moves(self) -> tuple[str, ...]:
        """Every move the player to move may make, in a fixed order, each as the game
        spells it; none once the game is over."""
        return tuple(self._position.legal_moves())

    def is_legal(self, move: str) -> bool:
        """Whether ``move`` may be played now, read as :meth:`push` reads it (``"d4"``,
        ``"D4"``, ``"0,0"`` alike; Polygone's ``"C0 c2 -> d1"``), never raising.
        ``move in legal_moves()`` compares the game's own spelling only."""
        return self._position.is_legal(move)

    @property
    def board(self) -> str:
        """The board played on, in words: ``hexhex 4``, ``rhombus 11``; a game of one
        fixed board says its name."""
        grid = self._request.options.grid
        return grid.description if grid is not None else f"{self._position.game.name}'s board"

    @property
    def options(self) -> Mapping[str, object]:
        """The game's own options given (``partisan``, ``first``, ``start`` ...), as the
        game read them, read-only; ``{}`` when none was given."""
        return MappingProxyType(dict(self._request.options.given))

    def legal(self) -> list[str]:
        """Deprecated: :meth:`legal_moves`."""
        warnings.warn("Engine.legal() is deprecated: use Engine.legal_moves()",
                      DeprecationWarning, stacklevel=2)
        return list(self.legal_moves())

    def push(self, move: str) -> str:
        """Play one move and return it as the game spells it (as :attr:`moves` lists it).
        A refused move raises BoardgenError with the reason (``field`` ``"moves"``,
        ``move_index`` its place in :attr:`moves`) and changes nothing."""
        if type(move) is not str:  # checked as every argument is (_plain_arguments)
            move = plain(move, "move")  # type: ignore[assignment]
            need(move, str, "move")
        name = self._position.push(move)
        self._snapshot = None
        return name

    play = push

    def pop(self) -> str:
        """Take back the last move, returning it as :attr:`moves` spelled it: the position
        is exactly the one before it (as :meth:`Position.pop <boardgen.Position.pop>`
        does).  BoardgenError when no move was played."""
        name = self._position.pop()
        self._snapshot = None
        return name

    undo = pop

    def peek(self) -> str | None:
        """The last move played, or None."""
        named = self._position.named
        return named[-1] if named else None

    if TYPE_CHECKING:
        @property
        def over(self) -> bool:
            """True once the game is over (then ``legal_moves()`` is empty)."""
    else:  # read in C (operator.attrgetter), not in a frame of Python: a play-out's loop
        # asks it before every move
        over = property(attrgetter("_position.over"),
                        doc="True once the game is over (then ``legal_moves()`` is empty).")

    @property
    def winner(self) -> str | None:
        """The winner once the game is over (Copolymer: x or o; O: first or second, or
        left or right; Polygone: white or black), else None."""
        return self._position.winner

    @property
    def to_move(self) -> str | None:
        """Who plays next, named as ``winner`` is; None once the game is over."""
        return self._position.to_move

    def random_legal(self, rng: random.Random) -> str:
        """A legal move chosen with ``rng``, each with the same chance, as the game spells
        it: the same seed gives the same moves.  The move is drawn first and only it is
        named, so a random play-out costs what the engine's own does.  A subclass of
        ``random.Random`` is asked ``randrange`` once over the list of legal moves, its
        answer checked, so it draws other moves than ``random.Random`` seeded alike."""
        if type(rng) is _PLAIN_RANDOM:  # first: a play-out asks at every move
            return self._position.random_move(rng)  # refuses once the game is over
        if not isinstance(rng, random.Random):
            raise BoardgenError(f"{option('rng')}: expected a random.Random, not "
                                f"{quoted(rng)}")
        if self._position.over:
            raise BoardgenError(f"the game is over: {self.game} has no legal move")
        return self._checked_random(rng)

    def play_out(self, rng: random.Random) -> str | None:
        """Play the game out at random and return the winner (as :attr:`winner`): legal
        moves drawn with ``rng`` until the game is over, the very moves of ``while not
        game.over: game.push(game.random_legal(rng))`` (the same seed, the same game, the
        same :attr:`moves`, each one taken back by :meth:`pop`), in fewer steps where
        the game knows how: Copolymer fills its board in one loop and names the moves
        afterwards.  A game already over plays nothing.

        >>> import boardgen, random
        >>> game, same = boardgen.engine("copolymer", side=3), boardgen.engine("copolymer", side=3)
        >>> winner = game.play_out(random.Random(4))
        >>> rng = random.Random(4)
        >>> while not same.over:
        ...     _ = same.push(same.random_legal(rng))
        >>> game.moves == same.moves and game.winner == same.winner == winner
        True
        """
        if type(rng) is random.Random:
            self._position.play_out(rng)
        else:  # checked and drawn as random_legal does, move by move
            while not self.over:
                self.push(self.random_legal(rng))
        self._snapshot = None
        return self.winner

    def _checked_random(self, rng: random.Random) -> str:
        """A subclass's own randrange may raise, or answer anything: asked once, checked."""
        legal = self.legal_moves()
        try:
            index = rng.randrange(len(legal))
        except Exception as exc:
            raise BoardgenError(f"{option('rng')}: its randrange() failed "
                                f"({type(exc).__name__})", field="rng") from None
        if type(index) is not int or not 0 <= index < len(legal):
            raise BoardgenError(f"{option('rng')}: randrange({len(legal)}) gave "
                                f"{quoted(index)}, not a number from 0 to {len(legal) - 1}",
                                field="rng")
        return legal[index]

    def to_json(self) -> dict[str, object]:
        """The position as ``boardgen play GAME --json`` prints it (a stable contract)."""
        return self._position.to_json()

    def copy(self) -> Engine:
        """An independent copy, to try moves on: the position and its moves copied (not
        replayed), nothing shared that either changes."""
        return Engine(self._request, self._position.copy())

    def __copy__(self) -> Engine:
        return self.copy()

    def __deepcopy__(self, memo: dict[int, object]) -> Engine:
        return self.copy()

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Engine):
            return NotImplemented
        mine, theirs = self._request, other._request
        return (mine.game is theirs.game and _board_key(mine) == _board_key(theirs)
                and mine.options.given == theirs.options.given
                and self._position == other._position)

    def __str__(self) -> str:
        return self._position.text()

    def __repr__(self) -> str:
        state = f"{self.winner} won" if self.winner else "over" if self.over else \
            f"{self.to_move} to move"
        played = len(self._position.named)
        return f"<boardgen.Engine {self.game}: {played} move{'s' * (played != 1)}, {state}>"

    def _repr_svg_(self) -> str | None:
        """Jupyter shows the game as a picture of its position."""
        return self._position._repr_svg_()


def _board_key(request: PlayRequest) -> tuple[str, tuple[object, ...]] | None:
    """A board by what it is (its cells), not by which object holds it."""
    grid = request.options.grid
    return None if grid is None else (grid.description, grid.cells)


@_plain_arguments
def engine(game: str, *, side: int | None = None, preset: str | None = None,
           diameter: int | None = None, shape: ShapeName | None = None,
           mask: Mask | None = None, notation: NotationName | None = None,
           **options: object) -> Engine:
    """A game at its start, as an :class:`Engine` to play move by move.  The options are
    :func:`play`'s.

    >>> import boardgen, random
    >>> game = boardgen.engine("o", side=4)
    >>> game.push("D4"), game.to_move
    ('D4', 'second')
    >>> rng = random.Random(1)
    >>> while not game.over:
    ...     _ = game.push(game.random_legal(rng))
    >>> game.winner in ("first", "second")
    True
    """
    return Engine(_play_request(game, side=side, preset=preset, diameter=diameter, shape=shape,
                                mask=mask, options=options, notation=notation))


@_plain_arguments
def diagram(game: str, name: str, *, lang: str = DEFAULT_LANGUAGE,
            **options: object) -> Diagram:
    """One of a game's built-in diagrams (``boardgen diagram GAME --list`` names them);
    ``options`` are the game's own options of diagrams (O's ``glyphs``, a glyph table, as
    :func:`play` takes it).

    >>> import boardgen
    >>> tempo = boardgen.diagram("copolymer", "tempo")
    >>> len(tempo.rows) >= 1, tempo.title.startswith("Tempo")
    (True, True)
    >>> boardgen.diagram("copolymer", "tempo", lang="xx")
    Traceback (most recent call last):
    ...
    boardgen.errors.BoardgenError: lang: unknown language 'xx' (choose from en, fr; ...
    """
    with in_language(lang):
        description = game_of(game)
        need(name, str, "name")
        return description.diagram(name, options=game_options(description, options, "diagram"))


def _path(path: object) -> Path:
    need(path, (str, os.PathLike), "path")
    try:
        text = os.fspath(path)  # type: ignore[call-overload]
    except Exception as exc:  # a PathLike of the caller's whose __fspath__ raises
        raise BoardgenError(f"{option('path')}: its __fspath__() failed "
                            f"({type(exc).__name__})", field="path") from None
    if not isinstance(text, str):
        raise BoardgenError(f"{option('path')}: expected a file name as text, not bytes")
    if "\x00" in text:
        raise BoardgenError(f"{option('path')} {quoted(text)}: a file name holds no NUL "
                            "character")
    return Path(text)


@_plain_arguments
def load_diagram(path: str | os.PathLike[str], *, notation: NotationName | None = None,
                 lang: str = DEFAULT_LANGUAGE,
                 **options: object) -> Diagram:
    """A diagram file from anywhere on disk, replayed and checked by the engine; a problem
    raises BoardgenError as ``FILE:LINE: what is wrong``.  ``notation``: how a file that
    names none names its cells (:func:`play`'s; a file that names another is refused).
    ``options``: the game's own options of diagrams, as :func:`diagram` takes them.

    >>> import boardgen, pathlib, tempfile
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "two.txt"
    >>> _ = path.write_text("game: o\\ntitle: Two stones\\nboard: hexhex 4\\n"
    ...                     "panel: one\\nplace: D4 D5\\nexpect: stones 2\\n")
    >>> boardgen.load_diagram(path).title
    'Two stones'
    >>> _ = path.write_text("game: o\\nboard: hexhex 4\\npanel: one\\nplace: D4 D5\\n"
    ...                     "expect: stones 3\\n")
    >>> boardgen.load_diagram(path)
    Traceback (most recent call last):
    ...
    boardgen.games.script.ExampleError: .../two.txt:5: the example expects 'stones 3', ...
    """
    with in_language(lang):
        source = _path(path)
        try:
            with contextlib.suppress(FileNotFoundError):  # the loader says so, naming the file
                source.stat()
            with read_once():  # the file is read once: it may be /dev/stdin
                game, directives = read_diagram_file(source)
                directives = diagram_in_notation(game, directives, notation, str(source))
                return replay_read(game, source, directives,
                                   game_options(game, options, "diagram"))
        except OSError as exc:  # a name too long for the system, a folder we may not read
            raise BoardgenError(f"{option('path')} {quoted(str(source))}: "
                                f"{exc.strerror or exc}") from None
        except BoardgenError as exc:  # the file's fault: its field is the path, as
            if exc.field is None:     # parse_diagram's is its text
                exc.field = "path"
            raise


@_plain_arguments
def parse_diagram(text: str, *, lang: str = DEFAULT_LANGUAGE,
                  **options: object) -> Diagram:
    """A diagram written as a diagram file's text (its ``game:`` line says the game),
    replayed and checked by the engine as a file is; a problem raises BoardgenError as
    ``line N: what is wrong``.

    >>> import boardgen
    >>> two = boardgen.parse_diagram('''
    ... game: o
    ... title: Two stones
    ... board: hexhex 4
    ... panel: After D4 and D5
    ... place: D4 D5
    ... expect: illegal E5 k2-adjacent
    ... ''')
    >>> two.title
    'Two stones'
    >>> boardgen.parse_diagram("game: o\\nboard: hexhex 4\\npanel: one\\nplace: D4 D4\\n")
    Traceback (most recent call last):
    ...
    boardgen.errors.BoardgenError: line 4: Second cannot place on D4: there is a stone there already
    """
    with in_language(lang):
        need(text, str, "text")
        if len(text) > MAX_INPUT_BYTES:
            raise BoardgenError(f"{option('text')}: a diagram of more than {MAX_INPUT_BYTES:,} "
                                "characters", field="text")
        named = next((d for d in parse_directives(text, "") if d.key == "game"), None)
        known = games()
        if named is None:
            raise BoardgenError(f"line 1: the diagram does not say which game it is for; add a "
                                f"line 'game: {'|'.join(known)}' at the top", field="text", line=1)
        key = named.value.strip().lower()
        if key not in known:
            raise BoardgenError(f"line {named.line}: unknown game {quoted(key)} in its "
                                f"'game:' line (choose from {', '.join(known)})",
                                field="text", line=named.line)
        game = known[key]
        given = game_options(game, options, "diagram")
        try:
            return game.load_text(text, given)
        except BoardgenError as exc:  # one exception type for every refusal, 'line N: ...'
            raise BoardgenError(exc.template, field=exc.field or "text",
                                line=exc.line or None) from None


@overload
def draw(subject: Position | Diagram | Engine, fmt: Literal["svg"] = ..., *,
         arrows: Arrows | None = ..., marks: Marks | None = ...,
         highlights: Highlights | None = ..., lastmove: bool = ..., paper: str = ...,
         theme: ThemeChoice = ..., cell_mm: float | None = ..., dpi: int = ...,
         title: str | None = ..., fit: bool = ...,
         lang: str = ...) -> str: ...


@overload
def draw(subject: Position | Diagram | Engine, fmt: Literal["pdf", "png"], *,
         arrows: Arrows | None = ..., marks: Marks | None = ...,
         highlights: Highlights | None = ..., lastmove: bool = ..., paper: str = ...,
         theme: ThemeChoice = ..., cell_mm: float | None = ..., dpi: int = ...,
         title: str | None = ..., fit: bool = ...,
         lang: str = ...) -> bytes: ...


@_plain_arguments
def draw(subject: Position | Diagram | Engine, fmt: Format = "svg", *,
         arrows: Arrows | None = None, marks: Marks | None = None,
         highlights: Highlights | None = None, lastmove: bool = True, paper: str = "a4",
         theme: ThemeChoice = "colour", cell_mm: float | None = None, dpi: int = 150,
         title: str | None = None, fit: bool = False,
         lang: str = DEFAULT_LANGUAGE) -> str | bytes:
    """A position or a diagram drawn to SVG (text), PDF or PNG (bytes), at exact scale.
    ``title`` replaces a position's heading ("Copolymer after 5 moves").  ``fit`` crops
    the page to the drawing plus a 3 mm margin, for a document of your own (no page
    furniture, and a position no heading unless ``title`` gives one; a PDF of one page,
    never tiled).  ``theme``: colour, colourblind, ink, a
    ``Path`` to a TOML file of your own (a ``[roles]`` table), or a dict of the same
    shape, checked as the built-in themes are.

    On a position, as a diagram file's directives would: ``arrows`` [(FROM, TO), ...],
    ``marks`` {WHERE: dot|ring|cross|TEXT}, ``highlights`` {ROLE: [WHERE, ...]} (a role
    the engine judges, such as legal, must be true of the position; ``tint`` is your
    own); ``lastmove`` False leaves the last move unnumbered.  Places are named in the
    game's notation (cells, or Polygone holes and lines).

    >>> import boardgen
    >>> position = boardgen.play("o", "D4 D5", side=4)
    >>> svg = boardgen.draw(position, "svg", arrows=[("A1", "D4")], marks={"C4": "ring"},
    ...                     highlights={"legal": ["D6"], "tint": ["E6"]})
    >>> 'class="highlight legal" data-cell="D6"' in svg, 'data-cell="E6"' in svg
    (True, True)
    >>> mine = {"roles": {"player1": "#1b4f9c", "player2": "#f0c419"}}
    >>> boardgen.draw(boardgen.play("copolymer", "C3", side=3), "svg", theme=mine).count(
    ...     "fill:#1b4f9c")
    1
    >>> boardgen.draw(position, "svg", theme={"roles": {"player2": "#f0f0f0"}})
    Traceback (most recent call last):
    ...
    boardgen.errors.BoardgenError: theme: roles player2 (#f0f0f0) and empty (#fbf8f1) are 8 ...
    >>> boardgen.draw(position, "svg", highlights={"legal": ["E5"]})
    Traceback (most recent call last):
    ...
    boardgen.errors.BoardgenError: highlights: highlight legal E5: the engine rules it illegal: ...
    """
    with in_language(lang):
        checked_format(fmt)
        if isinstance(subject, Engine):
            subject = subject.position
        if not isinstance(subject, Position | Diagram):
            raise BoardgenError(f"{option('subject')}: expected Position or Diagram (or an "
                                f"Engine), not {quoted(subject)}")
        need(lastmove, bool, "lastmove")
        options = draw_options(paper=paper, theme=theme, cell_mm=cell_mm, dpi=dpi, title=title,
                               fit=fit)
        given = designer_marks(arrows, marks, highlights)
        if isinstance(subject, Diagram) and (given or not lastmove):
            field = ("arrows" if given.arrows else "marks" if given.marks else "highlights") \
                if given else "lastmove"
            raise BoardgenError(f"{option(field)}: a diagram's annotations are in its file "
                                "(arrow:, mark:, highlight:); these are for a position",
                                field=field)
        if isinstance(subject, Position) and (given or not lastmove):
            data = _draw_annotated(subject, given, lastmove, fmt, options)
        else:
            data = _draw(subject, fmt, options)
        return data.decode("utf-8") if fmt == "svg" else data


def _draw_annotated(position: Position, given: DesignerMarks, lastmove: bool,
                    fmt: str, options: DrawOptions) -> bytes:
    """A position with a designer's annotations, checked as a diagram file's are."""
    game = position.game
    panel = position.scene() if lastmove else \
        position.strip_scene(None, position.moves_played)
    if given:
        try:
            panel = game.annotated(position, panel, given)
        except ExampleError as exc:
            field = ANNOTATION_FIELDS.get(exc.key, "highlights")
            raise BoardgenError(f"{option(field)}: {exc}", field=field) from None
    heading = options.title if options.title is not None else "" if options.fit else \
        position.heading()  # fitted: no title band
    # A highlight's band and a designer's mark are explained by a legend, as in a diagram
    # file's picture.
    keyed = highlight_roles(panel) or marks_drawn(panel)
    shown = game.panels(heading, [panel], "" if keyed else None)
    return draw_diagram(shown, game.key, "position", fmt, paper=options.paper,
                        theme=options.theme, cell_mm=options.cell_mm, dpi=options.dpi,
                        info=game.position_info(), fit=options.fit)


def _draw(subject: Position | Diagram, fmt: str, options: DrawOptions) -> bytes:
    if isinstance(subject, Position):
        return render_position(subject, fmt, paper=options.paper, theme=options.theme,
                               cell_mm=options.cell_mm, dpi=options.dpi, title=options.title,
                               fit=options.fit)
    return draw_diagram(subject, "", subject.title, fmt, paper=options.paper,
                        theme=options.theme, cell_mm=options.cell_mm, dpi=options.dpi,
                        info=PageInfo(None, f"diagram: {subject.title}"), fit=options.fit)


AnimationFormat = Literal["gif", "png", "svg"]


@overload
def animate(subject: Position | Diagram | Engine, fmt: Literal["svg"], *,
            move_ms: int = ..., hold_ms: int = ..., dpi: int = ..., cell_mm: float | None = ...,
            theme: ThemeChoice = ..., title: str | None = ..., loop: bool = ...,
            line: int | None = ..., lang: str = ...) -> str: ...


@overload
def animate(subject: Position | Diagram | Engine, fmt: Literal["gif", "png"] = ..., *,
            move_ms: int = ..., hold_ms: int = ..., dpi: int = ..., cell_mm: float | None = ...,
            theme: ThemeChoice = ..., title: str | None = ..., loop: bool = ...,
            line: int | None = ..., lang: str = ...) -> bytes: ...


def animate(subject: Position | Diagram | Engine, fmt: AnimationFormat = "gif", *,
            move_ms: int = 900, hold_ms: int = 3000, dpi: int = 96,
            cell_mm: float | None = None, theme: ThemeChoice = "colour",
            title: str | None = None, loop: bool = True, line: int | None = None,
            lang: str = DEFAULT_LANGUAGE) -> str | bytes:
    """A game's moves, or a diagram's lines of play, as an animation: an animated GIF or
    PNG (APNG) as bytes, or an animated SVG as text.  One frame per move (a Polygone
    diagram: per panel), the engine's caption of the move under the board, the move's
    cells marked as in the still pictures; a swing turns about its pivot, captured pieces
    fade out.

    A position (from :func:`play`) or an :class:`Engine` is replayed from its start; a
    diagram is animated line after line, or only ``line`` (counting from 1).  ``move_ms``
    is each move's time, ``hold_ms`` the extra time on the last frame; GIF and APNG
    ``loop`` (an SVG plays once, holds the last frame, and shows it alone to a reader who
    asks for reduced motion).  Identical input gives identical bytes.

    >>> import boardgen
    >>> gif = boardgen.animate(boardgen.play("copolymer", "C3 B2 C2 D3", side=3), "gif")
    >>> gif[:6]
    b'GIF89a'
    >>> svg = boardgen.animate(boardgen.play("polygone", "c0-c2>d1"), "svg")
    >>> "prefers-reduced-motion" in svg
    True
    """
    with in_language(lang):
        options = animate_options(fmt=fmt, move_ms=move_ms, hold_ms=hold_ms, dpi=dpi,
                                  cell_mm=cell_mm, theme=theme, title=title, loop=loop, line=line)
        if isinstance(subject, Engine):
            subject = subject.position
        if not isinstance(subject, Position | Diagram):
            raise BoardgenError(f"{option('subject')}: expected Position or Diagram (or an "
                                f"Engine), not {quoted(subject)}")
        if isinstance(subject, Position) and options.line is not None:
            raise BoardgenError(f"{option('line')}: a line is a diagram's; a position is "
                                "animated move by move", field="line")
        data = render_animation_of(subject, options.fmt, theme=options.theme,
                                   move_ms=options.move_ms, hold_ms=options.hold_ms,
                                   dpi=options.dpi, cell_mm=options.cell_mm, loop=options.loop,
                                   title=options.title, line=options.line)
        return data.decode("utf-8") if options.fmt == "svg" else data


@overload
def board(game: str, fmt: Literal["svg"], *, side: int | None = ..., preset: str | None = ...,
          diameter: int | None = ..., shape: ShapeName | None = ..., mask: Mask | None = ...,
          notation: NotationName | None = ..., labels: LabelMode = ...,
          theme: ThemeChoice = ..., paper: str = ...,
          orientation: Orientation = ..., title: str | None = ..., cell_mm: float | None = ...,
          dpi: int = ..., shop: ShopName | None = ..., bleed: float | None = ...,
          crop_marks: bool = ..., cutter: CutterName | None = ..., kerf: float | None = ...,
          hole_mm: float | None = ..., fit: bool = ..., lang: str = ...) -> str: ...


@overload
def board(game: str, fmt: Literal["pdf", "png"] = ..., *, side: int | None = ...,
          preset: str | None = ..., diameter: int | None = ..., shape: ShapeName | None = ...,
          mask: Mask | None = ..., notation: NotationName | None = ...,
          labels: LabelMode = ..., theme: ThemeChoice = ...,
          paper: str = ..., orientation: Orientation = ..., title: str | None = ...,
          cell_mm: float | None = ..., dpi: int = ..., shop: ShopName | None = ...,
          bleed: float | None = ..., crop_marks: bool = ..., cutter: CutterName | None = ...,
          kerf: float | None = ..., hole_mm: float | None = ..., fit: bool = ...,
          lang: str = ...) -> bytes: ...


@_plain_arguments
def board(game: str, fmt: Format = "pdf", *, side: int | None = None, preset: str | None = None,
          diameter: int | None = None, shape: ShapeName | None = None, mask: Mask | None = None,
          notation: NotationName | None = None, labels: LabelMode = "outside",
          theme: ThemeChoice = "colour", paper: str = "a4",
          orientation: Orientation = "auto", title: str | None = None,
          cell_mm: float | None = None, dpi: int = 150, shop: ShopName | None = None,
          bleed: float | None = None, crop_marks: bool = True, cutter: CutterName | None = None,
          kerf: float | None = None, hole_mm: float | None = None,
          fit: bool = False, lang: str = DEFAULT_LANGUAGE) -> str | bytes:
    """An empty board at exact scale, as ``boardgen board`` prints it: every game (for
    Polygone the board and, in a PDF, a sheet of pieces; ``cell_mm`` is its hole spacing),
    tiled across pages if needed.  ``mask`` is a shape drawn as text, or a ``Path`` to a
    file of one; ``notation`` names the cells it labels (:func:`play`'s); ``title`` None
    prints the game's name, '' none.  ``shop`` (generic, tgc, mounted) or ``bleed`` (mm):
    a print shop's PDF/X trimmed to ``paper``; ``cutter`` (laser, vinyl) with ``kerf`` and
    ``hole_mm``: a cutter's SVG.  ``fit``: the board alone on a page cropped to it plus
    3 mm, with a 50 mm bar under it (never tiled; for Polygone without the sheet of
    pieces), at the cell size it has without ``fit``.

    >>> import boardgen
    >>> svg = boardgen.board("copolymer", "svg", side=5, cell_mm=13)
    >>> svg.count('class="cell empty"')
    61
    >>> boardgen.board("copolymer", "pdf", side=7, cell_mm=23)[:5]   # for Go stones
    b'%PDF-'
    >>> boardgen.board("copolymer", "svg", cell_mm=1)
    Traceback (most recent call last):
    ...
    boardgen.errors.BoardgenError: cell_mm 1: a cell must be between 2 and 200 mm wide
    """
    with in_language(lang):
        description = game_of(game)
        checked_format(fmt)
        request = board_request(description, board_size(side=side, preset=preset,
                                                        diameter=diameter, shape=shape, mask=mask,
                                                        notation=notation),
                                paper=paper, theme=theme, cell_mm=cell_mm, dpi=dpi, title=title,
                                orientation=orientation, labels=labels,
                                pages_checked=fmt == "pdf", shop=shop, bleed=bleed,
                                crop_marks=crop_marks, cutter=cutter, kerf=kerf, hole_mm=hole_mm,
                                fit=fit)
        data = request.render(fmt)
        return data.decode("utf-8") if fmt == "svg" else data
