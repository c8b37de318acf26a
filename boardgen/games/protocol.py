"""What a game is, for boardgen: the one protocol every game implements, built in or
plugged in.

A game is a subclass of :class:`Game` (an abstract base class) with these parts:

- **who**: ``key`` (its command-line name, lower case), ``name``, ``designer``, ``year``;
  :attr:`Game.credit` follows from them.
- **boards**: ``board``, either :class:`HexBoards` (hex boards of any size, shape or mask,
  with a default side, presets and a check that refuses boards the rules do not allow) or a
  :class:`boardgen.picture.FixedBoard` (one board, drawn from a lattice picture, with
  pieces to cut out).
- **options**: ``options``, its own options (:class:`GameOption`: name, kind, help,
  how a value is read, and which commands take it), declared once; the command line and
  the API offer them without a change to boardgen, and its replays and diagram files get
  them checked (:class:`PlayOptions`, ``load_file``).
- **engine**: :meth:`Game.new_position` starts a replay, a :class:`Position` wrapping the
  game's engine (moves as written, the position as text and as the stable JSON of
  ``boardgen play --json``, and as a picture); :meth:`Game.split_moves` cuts a line of
  moves into moves.
- **directives and claims**: :meth:`Game.load_file` replays a diagram file through the
  engine; a game does it with :mod:`boardgen.games.script`, the one runner, giving it
  its tables of directives and of claims (``expect:`` words checked against the engine,
  which reports refusals as codes, never as English to match); :meth:`Game.diagram_syntax`
  reads the reference of that language from the same tables.
- **roles and their words**: ``roles``, the picture roles it uses (names the themes know:
  player1, player2, legal, illegal, new, corner, perimeter, white-piece, black-piece,
  ghost, crossed ...) with what each means to a player in a legend and in a text
  alternative.
- **pictures**: its diagrams, positions and boards are neutral pictures
  (:mod:`boardgen.picture`); the renderer draws them without knowing the game.
  :meth:`Game.generated` names figures built from the engine rather than from files.
- **sheet and templates**: :attr:`Game.template_folder` holds its diagram files
  (``NAME.txt``) and, if it has a rule sheet, ``sheet.md`` and ``quick.md``.
- **kit**: ``kit``, a :class:`Kit`: what a print-and-play kit (``boardgen kit``) holds
  besides the rule sheet, the quick reference and the board: boards to write on, stones
  to cut out, a capture tracker, a note.

The built-in games live in ``boardgen/games/<game>/game.py``; a third-party game is a
package that registers its Game instance under the ``boardgen.games`` entry-point group
(see ``examples/`` and the docs' "Adding a game").  Nothing here imports a renderer.
"""

from __future__ import annotations

import copy
import random
import re
import sys
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from operator import attrgetter
from pathlib import Path
from typing import TYPE_CHECKING, Literal, NoReturn, Protocol

from boardgen.errors import BoardgenError, option
from boardgen.games.replay import refused_move, replay_moves
from boardgen.geometry import SHAPES, HexGrid, make_shape, shape_cell_count
from boardgen.i18n import SOURCE_LANGUAGE, language, localized_template, ntr, speaking, tr
from boardgen.picture import (
    DEFAULT_PANEL_CELL_MM,
    Animation,
    Diagram,
    FixedBoard,
    Frame,
    PageInfo,
    Panel,
    Role,
    RolePaint,
    Scene,
    Turn,
    board_scene,
    legend_of,
)
from boardgen.resources import templates_root
from boardgen.text import check_text_size, quoted, quoted_value

if TYPE_CHECKING:  # the diagram-file runner is imported when a diagram is read
    from boardgen.games.script import DesignerMarks, GameSyntax

TEMPLATES = templates_root()
GlyphTable = dict[str, str]  # O's glyph table (kept for plug-ins that named it)


@dataclass(frozen=True)
class HexBoards:
    """A game played on hex boards of many sizes: sizes, shapes and masks apply.  Its
    default board is ``default_shape`` of ``default_side``; a preset names a side of that
    shape.  Every road that makes one of its boards (board, play, sheet, kit, gallery,
    serve, the API) makes it through :meth:`Game.hex_board`, which runs ``check``."""

    default_side: int  # the board when no size is given
    check: Callable[[HexGrid], None] | None = None  # refuses a board the rules do not allow
    presets: Mapping[str, int] = field(default_factory=dict)  # named sides (--preset)
    marks_edges: bool = False  # its boards shade the perimeter and the corners
    note: str | None = None  # what every printed board must also say
    # The boards `boardgen all` prints: (side, label or None, formats).
    gallery: tuple[tuple[int, str | None, tuple[str, ...]], ...] = ()
    default_shape: str = "hexhex"  # a name of boardgen.geometry.SHAPES
    presets_help: str | None = None  # what its presets are, for --preset's help

    def __post_init__(self) -> None:
        if self.default_shape not in SHAPES:
            raise ValueError(f"default_shape {self.default_shape!r}: not one of {SHAPES}")

    def words(self, side: int | None = None) -> str:
        """A board of ``side`` (default: the default side) in the game's shape, in words
        for help texts: ``10 (271 cells)``, ``rhombus 11 (121 cells)``."""
        side = self.default_side if side is None else side
        shape = "" if self.default_shape == "hexhex" else f"{self.default_shape} "
        return f"{shape}{side} ({shape_cell_count(self.default_shape, side)} cells)"


@dataclass(frozen=True)
class Tracker:
    """A capture tracker: one row of ``boxes`` boxes a player, headed ``rows``, under the
    words ``intro`` (how to use it)."""

    rows: tuple[str, ...]
    boxes: int
    intro: str


@dataclass(frozen=True)
class KitNote:
    """A page of words in a kit: a title and its paragraphs."""

    title: str
    paragraphs: tuple[str, ...]


@dataclass(frozen=True)
class Kit:
    """What a print-and-play kit holds after the rule sheet and the quick reference: the
    boards (a fixed board with its pieces; hex boards of the ``boards`` sides, labelled, or
    else of the default side), a sheet of ``stones`` sized to the board's cells, a
    ``tracker`` and a ``note``, in that order."""

    boards: tuple[tuple[int, str | None], ...] = ()
    stones: bool = False
    tracker: Tracker | None = None
    note: KitNote | None = None
    contents: str | None = None  # what it holds besides the sheets, for `kit --help`


OptionKind = Literal["flag", "choice", "file"]
COMMANDS = ("play", "diagram")  # the commands a game's own option may reach


@dataclass(frozen=True)
class GameOption:
    """An option of a game's own, declared once by the game: the command line's
    ``--NAME`` (in the ``commands`` named) and the API's ``NAME=`` keyword both come from
    it, with no change to boardgen.

    ``kind``: ``flag`` (on or off; the command line's ``--NAME``, the API's True/False),
    ``choice`` (one of ``choices``) or ``file`` (the command line reads the file named and
    gives its text to ``read`` with the file's name; the API gives ``read`` what it was
    given, text or another value, with the option's name).  ``read`` turns what was given
    into the value the game takes, raising BoardgenError for a bad one.  ``noun``: what a
    choice is, in a refusal's words ("unknown player 'z'")."""

    name: str  # a Python name: the API's keyword; the command line's --name-with-hyphens
    kind: OptionKind
    help: str
    choices: tuple[str, ...] = ()
    read: Callable[[object, str], object] | None = None
    commands: frozenset[str] = frozenset({"play"})
    metavar: str | None = None
    # Given, it replaces what the game's diagram note speaks of (a table the note calls a
    # reconstruction): a diagram drawn with it does not print the note.
    replaces_note: bool = False
    noun: str = "value"

    def __post_init__(self) -> None:
        if not self.name.isidentifier() or self.name != self.name.lower():
            raise ValueError(f"option name {self.name!r}: a lower-case Python name")
        if self.kind not in ("flag", "choice", "file") or not set(self.commands) <= set(COMMANDS):
            raise ValueError(f"option {self.name!r}: kind or commands unknown")

    @property
    def flag(self) -> str:
        return "--" + self.name.replace("_", "-")

    @property
    def default(self) -> object:
        return False if self.kind == "flag" else None

    def value(self, given: object, source: str | None = None) -> object:
        """What was given (the API's value, or a file's text read by the command line,
        named ``source``), checked and turned into the value the game takes."""
        if self.kind == "flag":
            if not isinstance(given, bool):
                raise BoardgenError(f"{option(self.name)}: expected bool, not "
                                    f"{quoted_value(given)}", field=self.name)
            return given
        if self.kind == "choice" and (not isinstance(given, str) or given not in self.choices):
            raise BoardgenError(f"{option(self.name)}: unknown {self.noun} {quoted_value(given)} "
                                f"(choose from {', '.join(self.choices)})", field=self.name)
        if self.kind == "file" and isinstance(given, str):
            check_text_size(given, self.name)  # text given in place of a file: a file's cap
        if self.read is not None:
            return self.read(given, source or option(self.name))
        return given


GameOptions = Mapping[str, object]  # a game's own options given, by name: checked values


def read_start_text(given: object, source: str) -> tuple[str, str]:
    """A ``start`` option's value: a start position written as text, with the name its
    errors report it under (the file's name, or the option's)."""
    if not isinstance(given, str):
        raise BoardgenError(f"{source}: expected text, not {quoted_value(given)}",
                            field="start")
    return given, source


def read_drawn_start(given: object, source: str) -> tuple[str, str]:
    """A start position drawn as a board, as ``boardgen play`` prints it (and ``str()`` of
    a position), the status line printed under the drawing kept if it came along: the
    game reads who is to move from it (:func:`drawn_start`)."""
    return read_start_text(given, source)


def drawn_start(text: str, source: str, players: Sequence[str]
                ) -> tuple[str, str | None, str | None]:
    """A drawn start cut in two: (the drawing, the player its status line names to move
    or None, the status line or None).  The status line is the last line when it has a
    word in it (a drawing's cells are single characters), as ``boardgen play`` prints it:
    ``X to move; ...``, ``Second to move; ...``, ``White to place; ...``; a status line
    naming no player to move (a finished game's) names none."""
    lines = text.rstrip().split("\n")
    if len(lines) < 2 or not _STATUS_WORD.search(lines[-1]):
        return text, None, None
    status = lines[-1].strip()
    words = _MOVER.match(status)
    if words is None:
        return "\n".join(lines[:-1]) + "\n", None, status
    mover = words.group(1).lower()
    if mover not in players:
        raise BoardgenError(f"{source}: line {len(lines)}: {quoted(words.group(1))} is not a "
                            f"player (choose from {', '.join(players)})", field="start",
                            line=len(lines))
    return "\n".join(lines[:-1]) + "\n", mover, status


_STATUS_WORD = re.compile(r"[A-Za-z]{2}")  # a drawing's cells are single characters
_MOVER = re.compile(r"(\w+) to (?:move|place)\b")


@contextmanager
def reading_start() -> Iterator[None]:
    """Every refusal of a start position given with ``field`` ``start`` (its ``line``
    kept: the drawing's line at fault)."""
    try:
        yield
    except BoardgenError as exc:
        raise BoardgenError(exc.template, field="start", line=exc.line) from None


@dataclass(frozen=True)
class PlayOptions:
    """How a replay starts: ``grid`` for the hex games (None: its default board), and the
    game's own options given (:class:`GameOption`), by name, as checked values."""

    grid: HexGrid | None = None
    given: GameOptions = field(default_factory=dict)

    def get(self, name: str, default: object = None) -> object:
        """A game's own option, or ``default`` if it was not given."""
        return self.given.get(name, default)


class _Engine(Protocol):
    @property
    def history(self) -> Sequence[object]: ...

    @property
    def over(self) -> bool: ...

    @property
    def winner(self) -> str | None: ...

    @property
    def to_move(self) -> str: ...


class Game(ABC):
    """One game, as every part of boardgen needs to know it (see the module's text)."""

    key: str  # the command-line name
    name: str
    designer: str
    year: int
    board: HexBoards | FixedBoard
    roles: tuple[Role, ...] = ()
    options: tuple[GameOption, ...] = ()  # its own options (play and diagram)
    # How its moves are written, and the keys of its `play --json` object (the help says).
    moves_help: str = 'cells "F6 E5 ..." or axial "0,0"'
    json_keys: tuple[str, ...] = ()
    # How `play` prints its board as text, for the help (empty: nothing to say).
    text_help: str = ""
    # How its own roles look (beside Role.paint, for roles outside its legend): the themes
    # paint only the neutral roles.
    paints: Mapping[str, RolePaint] = {}
    panel_cell_mm: float = DEFAULT_PANEL_CELL_MM  # a position's panel, unless told
    # Sentences a rule sheet says once, in its opening box, rather than under every picture.
    said_once: tuple[str, ...] = ()
    kit: Kit = Kit()  # what its print-and-play kit holds besides sheet and board
    # What every diagram of it drawn on its own must also say (a reconstruction it rests on).
    diagram_note: str | None = None

    def __copy__(self) -> Game:
        return self  # a description, never changed: a copied position shares its game

    def __deepcopy__(self, memo: dict[int, object]) -> Game:
        return self

    def __reduce__(self) -> str | tuple[object, ...]:
        # Pickled by reference to the module-level name that holds it (a process pool's
        # engines): one description a process, so that games compare by identity.
        module = sys.modules.get(type(self).__module__)
        held = next((name for name, value in vars(module).items() if value is self), None) \
            if module is not None else None
        return held if held is not None else super().__reduce__()

    # --- the parts a game implements ---------------------------------------------------

    @abstractmethod
    def new_position(self, options: PlayOptions) -> Position:
        """The start of a replay (the empty board, a drawn position, or a set-up)."""

    @abstractmethod
    def load_file(self, path: Path, options: GameOptions) -> Diagram:
        """A diagram file replayed through the engine, every claim checked; raises
        BoardgenError as ``FILE:LINE: message``.  ``options``: its own options of the
        ``diagram`` command given, checked."""

    def load_text(self, text: str, options: GameOptions) -> Diagram:
        """A diagram file's contents given as text (``boardgen.parse_diagram``); raises
        BoardgenError as ``line N: message``.  Default: files only."""
        raise BoardgenError(f"{self.name} diagrams are read from files only")

    def diagram_directives(self) -> frozenset[str]:
        """Every directive its diagram files take (so that an error about a directive in
        another game's file can say whose it is)."""
        return frozenset()

    def diagram_syntax(self) -> GameSyntax | None:
        """The language of its diagram files, read from its runner's tables
        (:func:`boardgen.games.script.directive_syntax`): the docs' reference, and
        ``boardgen diagram --syntax``.  Default: none."""
        return None

    def annotated(self, position: Position, panel: Panel, marks: DesignerMarks) -> Panel:
        """The position's picture with a designer's arrows, marks and highlights given to
        ``boardgen.draw`` as values, checked as a diagram file's are: a highlight the
        engine judges must be true of the position.  Default: no annotations."""
        raise BoardgenError(f"{self.name} pictures take no arrows, marks or highlights")

    def split_moves(self, text: str) -> list[str]:
        """A line of moves cut into moves (default: at spaces)."""
        return text.split()

    def generated(self) -> Mapping[str, Callable[[GameOptions], Diagram]]:
        """Figures built from the engine's tables rather than from files, by name."""
        return {}

    @property
    def template_folder(self) -> Path:
        """Its diagram files and sheet text (built-in games: ``templates/KEY``)."""
        return TEMPLATES / self.key

    # --- what follows from them ----------------------------------------------------------

    @property
    def credit(self) -> str:
        return tr("{game} by {designer} ({year})").format(game=self.name,
                                                          designer=self.designer, year=self.year)

    @property
    def hex_boards(self) -> HexBoards | None:
        """Its hex boards, or None if it is played on one fixed board."""
        return self.board if isinstance(self.board, HexBoards) else None

    @property
    def fixed_board(self) -> FixedBoard | None:
        return self.board if isinstance(self.board, FixedBoard) else None

    def board_scene(self, grid: HexGrid, labels: str = "outside") -> Scene:
        """An empty board of this hex game."""
        boards = self.hex_boards
        return board_scene(grid, labels, edges=boards is not None and boards.marks_edges)

    def board_info(self, grid: HexGrid | None = None, title: str | None = None) -> PageInfo:
        """The page furniture of an empty board: title (the game's name unless given; ''
        for none), a subject naming the board, and the designer's credit.  A fixed board's
        subject is formatted with its spacing when drawn."""
        heading = self.name if title is None else (title or None)
        boards = self.hex_boards
        if boards is None or grid is None:
            fixed = self.fixed_board
            return PageInfo(heading, tr(fixed.subject) if fixed else self.name, self.credit)
        board = tr("{shape} side {side}").format(shape=grid.shape, side=grid.side) \
            if grid.description == f"{grid.shape} side {grid.side}" else grid.description
        subject = tr("{game} board, {board}, {cells} cells").format(
            game=self.name, board=board, cells=len(grid))
        if boards.note:
            subject += f" · {tr(boards.note)}"
        return PageInfo(heading, subject, self.credit)

    def diagram_info(self, name: str, options: GameOptions | None = None) -> PageInfo:
        """The page furniture of a named diagram or a diagram file: the game's name above
        it; below it what it is, the designer's credit, and the game's diagram note
        (unless one of its own options given replaces what the note speaks of: a table
        the user gave for the one the note calls a reconstruction)."""
        replaced = any(o.replaces_note and (options or {}).get(o.name) not in (None, False)
                       for o in self.options)
        # The name is the English one `boardgen diagram` takes (a file's slug): a page in
        # another language says only whose diagram it is, its own title heading the page.
        subject = tr("{game} diagram: {name}").format(game=self.name, name=name) \
            if language() == SOURCE_LANGUAGE else tr("{game} diagram").format(game=self.name)
        return PageInfo(self.name, subject,
                        self.credit, None if replaced or self.diagram_note is None
                        else tr(self.diagram_note))

    def position_info(self) -> PageInfo:
        """The page furniture of a position played (``play -o``, ``boardgen.draw``): the
        game's name and the designer's credit."""
        return PageInfo(self.name, tr("{game} diagram: position").format(game=self.name),
                        self.credit)

    def check_board(self, grid: HexGrid) -> None:
        boards = self.hex_boards
        if boards is not None and boards.check is not None:
            boards.check(grid)

    def hex_board(self, side: int | None = None, shape: str | None = None) -> HexGrid:
        """One of its hex boards, through its check: ``side`` (default: its default side)
        of ``shape`` (default: its default shape).  Every road that prints, draws or plays
        one of its boards without a size given by the user makes it here."""
        boards = self.hex_boards
        if boards is None:
            raise BoardgenError(f"{self.name} is played on one fixed board, not a hex board")
        grid = make_shape(shape or boards.default_shape,
                          boards.default_side if side is None else side)
        self.check_board(grid)
        return grid

    def sheet_path(self, quick: bool = False) -> Path:
        """Its rule sheet's text (``sheet.md``) or quick reference (``quick.md``), in the
        current language (``sheet.fr.md``: boardgen.i18n.localized_template)."""
        return localized_template(self.template_folder, "quick" if quick else "sheet", "md",
                                  self.key)

    def has_sheet(self) -> bool:
        return (self.template_folder / "sheet.md").is_file()

    def speaks(self, lang: str) -> bool:
        """Whether its sheet is written in ``lang`` (English: whether it has a sheet)."""
        if lang == SOURCE_LANGUAGE:
            return self.has_sheet()
        with speaking(lang):
            try:
                return localized_template(self.template_folder, "sheet", "md",
                                          self.key).is_file()
            except BoardgenError:
                return False

    def file_names(self) -> list[str]:
        """Its diagram files' names (``NAME.txt``; a translation ``NAME.fr.txt`` is the
        same diagram in another language, not one more)."""
        return sorted(p.stem for p in self.template_folder.glob("*.txt") if "." not in p.stem)

    def diagram_names(self) -> list[str]:
        return sorted([*self.generated(), *self.file_names()])

    def declared_paints(self) -> dict[str, RolePaint]:
        """Every paint it declares for roles of its own, by role."""
        return {**{role.name: role.paint for role in self.roles if role.paint is not None},
                **self.paints}

    def option_named(self, name: str) -> GameOption | None:
        return next((o for o in self.options if o.name == name), None)

    def diagram(self, name: str, *, options: GameOptions | None = None) -> Diagram:
        """The named diagram, every position from the engine.  A name is never a path.
        ``options`` are checked before (boardgen.games.registry.check_options)."""
        given = options or {}
        generated = self.generated()
        if name in generated:
            return generated[name](given)
        # Looked up in the list, never turned into a path first: a NAME of 300 characters
        # is an unknown name, not a "file name too long".
        if name not in self.file_names():
            raise BoardgenError(f"no {self.key} diagram named {quoted(name)} (known: "
                                f"{', '.join(self.diagram_names()) or 'none'}; to draw a file, "
                                "give its path: boardgen diagram FILE)")
        return self.load_file(localized_template(self.template_folder, name, "txt", self.key),
                              given)

    def panels(self, heading: str, scenes: Sequence[Panel], note: str | None = None
               ) -> Diagram:
        """Pictures of positions in one row of panels (``play -o``); with a ``note``, a
        strip (``--every``), which carries a legend of the roles it shows and the note."""
        legend = legend_of(self.roles, list(scenes)) if note is not None else ()
        return Diagram(heading, ((None, tuple(scenes)),), legend, note,
                       cell_mm=self.panel_cell_mm, roles=self.roles)


# The hooks a game implements that change its engine: a snapshot refuses them too.
_ENGINE_HOOKS = ("take_back", "play_one", "_play_one", "play_named", "play_out")
SNAPSHOT_REFUSAL = ("this position is a snapshot and never changes: play on the engine, or "
                    "on engine.copy()")


class _RefusedOnSnapshot:
    """Stands on a snapshot for a hook that would change it (a class, so that a snapshot
    still pickles)."""

    def __call__(self, *_args: object, **_kwargs: object) -> NoReturn:
        raise BoardgenError(SNAPSHOT_REFUSAL, field="moves")


class Position(ABC):
    """A position reached by replaying moves through a game's engine.  Displays itself in
    Jupyter (``_repr_svg_``) once the renderer is loaded; ``str()`` is the text ``boardgen
    play`` prints.

    A snapshot (:attr:`boardgen.Engine.position`) is frozen: it never changes, and playing
    on it is refused (``boardgen.Engine.copy()`` gives a game to play on)."""

    game: Game
    engine: _Engine
    # How to start this replay again from its start (set by whoever made the position
    # from its options, boardgen.requests): an animation replays the moves from there.
    restart: Callable[[], Position] | None = None
    #: True for a snapshot: nothing may be played on it.
    frozen: bool = False
    #: True when it started from a position given (``start=``), not the game's own start.
    set_up: bool = False

    def play(self, moves: str | Iterable[str]) -> None:
        """Play moves in order (a list of moves, or one text of moves as ``boardgen play
        --moves`` takes them); the first one refused raises BoardgenError naming its number
        (counting every move played so far), the move as written, and the reason (its
        ``field`` is ``moves``, its ``move_index`` the move's place counting from 0)."""
        self._check_thawed()
        replay_moves(self._checked_moves(moves), self._push_unnumbered,
                     first_number=self.moves_played + 1)

    def push(self, token: str) -> str:
        """Play one move as written; return it as the game spells it (:attr:`moves`).  A
        refusal raises BoardgenError as :meth:`play` words it, and changes nothing."""
        if self.frozen:
            self._check_thawed()
        try:
            name = self.play_named(token)
        except BoardgenError as exc:
            raise refused_move(self.moves_played + 1, token, exc) from None
        kept = self.__dict__
        try:  # a random play-out's every move: the lists without the properties' checks
            kept["_written"].append(token)
            kept["_named"].append(name)
        except KeyError:
            self.written.append(token)
            self.named.append(name)
        return name

    def _push_unnumbered(self, token: str) -> str:
        name = self.play_named(token)
        self.written.append(token)
        self.named.append(name)
        return name

    def _check_thawed(self) -> None:
        if self.frozen:
            raise BoardgenError(SNAPSHOT_REFUSAL, field="moves")

    @property
    def written(self) -> list[str]:
        """The moves played through :meth:`play`, as written."""
        if "_written" not in self.__dict__:
            self.__dict__["_written"] = []
        moves: list[str] = self.__dict__["_written"]
        return moves

    @property
    def named(self) -> list[str]:
        """The moves played through :meth:`play`, as the game spells them (one spelling a
        move: ``C3`` for ``c3`` or ``0,0``)."""
        if "_named" not in self.__dict__:
            self.__dict__["_named"] = []
        moves: list[str] = self.__dict__["_named"]
        return moves

    @property
    def moves(self) -> tuple[str, ...]:
        """The moves played, as the game spells them, in order."""
        return tuple(self.named)

    def play_named(self, token: str) -> str:
        """The hook a game may implement: play one move as written (as :meth:`play_one`)
        and return its one spelling, the game's notation of it (``C3`` for ``c3``).
        Default: :meth:`play_one`, the move returned as written, spaces trimmed."""
        self.play_one(token)
        return token.strip()

    def random_move(self, rng: random.Random) -> str:
        """A legal move drawn with ``rng``, each with the same chance, as the game spells
        it; BoardgenError once the game is over.  A game may implement it to draw first
        and name only the move drawn (default: drawn from :meth:`legal_moves`)."""
        legal = self.legal_moves()
        if not legal:
            raise BoardgenError(f"the game is over: {self.game.name} has no legal move")
        return legal[rng.randrange(len(legal))]

    def play_out(self, rng: random.Random) -> None:
        """The hook a game may implement: play the game out at random, as
        ``while not position.over: position.push(position.random_move(rng))`` does (the
        default), the same moves drawn the same way into :attr:`moves`, only faster
        (:meth:`boardgen.Engine.play_out`)."""
        self._check_thawed()
        while not self.over:
            self.push(self.random_move(rng))

    def take_back(self) -> bool:
        """The hook a game may implement: take back the last move on the engine, exactly
        (every count, set and turn as before it), and True; or False if it cannot, and then
        :meth:`pop` replays the moves before it from the start.  Default: False."""
        return False

    def pop(self) -> str:
        """Take back the last move and return it, as :attr:`moves` spelled it (as
        :meth:`boardgen.Engine.pop`): this position becomes exactly the one before it, by
        the game's own ``take_back()`` or, when it has none, replayed from its start.
        BoardgenError when no move was played."""
        self._check_thawed()
        if not self.named:
            raise BoardgenError("no move to take back: none was played", field="moves")
        if self.take_back():
            self.written.pop()
            return self.named.pop()
        if self.restart is None:
            raise BoardgenError(f"{self.game.name} cannot take a move back here: the "
                                "position does not know its start", field="moves")
        before = self.restart()
        for token in self.written[:-1]:
            before.push(token)
        name = self.named[-1]
        self.__dict__.clear()  # this position is now the one replayed
        self.__dict__.update(before.__dict__)
        return name

    def is_legal(self, move: str) -> bool:
        """Whether ``move`` (written as :meth:`push` takes it: ``"d4"``, ``"D4"`` and
        ``"0,0"`` alike) may be played now.  ``move in legal_moves()`` compares the game's
        spelling only; this reads the move as a push would, on a copy."""
        if not isinstance(move, str):
            return False
        if move in self.legal_moves():
            return True
        if self.over:
            return False
        try:
            self.copy().play_named(move)
        except BoardgenError:
            return False
        return True

    def copy(self) -> Position:
        """An independent copy, playable (never frozen, a snapshot's copy too: as
        ``copy.copy`` and ``copy.deepcopy`` give): moves played on one never reach the
        other.  Default: a deep copy (the game and its board are shared: neither
        changes)."""
        memo: dict[int, object] = {}
        if self.restart is not None:
            memo[id(self.restart)] = self.restart
        twin = self._shallow()
        twin.__dict__.update(copy.deepcopy(self.__dict__, memo))
        for name in _ENGINE_HOOKS:  # a snapshot's refusals (see snapshot) stay behind
            twin.__dict__.pop(name, None)
        twin.frozen = False
        return twin

    def _shallow(self) -> Position:
        """A new position of this class holding this one's attributes, not copies."""
        twin = object.__new__(type(self))
        twin.__dict__.update(self.__dict__)
        for name in _ENGINE_HOOKS:  # a snapshot's refusals (see snapshot) stay behind
            twin.__dict__.pop(name, None)
        return twin

    def __copy__(self) -> Position:
        return self.copy()

    def __deepcopy__(self, memo: dict[int, object]) -> Position:
        return self.copy()

    def snapshot(self) -> Position:
        """A frozen copy (see ``frozen``): push, play and pop refuse, and so do the hooks a
        game implements (take_back, play_one, play_named), which would change it under
        its moves."""
        twin = self.copy()
        twin.frozen = True
        for name in _ENGINE_HOOKS:  # shadow the game's own methods on this instance
            setattr(twin, name, _RefusedOnSnapshot())
        return twin

    def __eq__(self, other: object) -> bool:
        """The same game, and the same position as ``--json`` and ``str()`` tell it (the
        board, who moves, the last move marked): as :class:`boardgen.Engine` compares."""
        if not isinstance(other, Position):
            return NotImplemented
        return (self.game is other.game and self.to_json() == other.to_json()
                and self.text() == other.text())

    def __hash__(self) -> int:
        # A snapshot never changes and may be a key (a table of positions seen); a
        # playable position changes: no hash, as a list has none.
        if not self.frozen:
            raise TypeError("unhashable: a playable position changes (hash its snapshot: "
                            "engine.position, or position.snapshot())")
        return hash((self.game.key, self.text()))

    def __str__(self) -> str:
        return self.text()

    def __repr__(self) -> str:
        state = f"{self.winner} won" if self.winner else "over" if self.over else \
            f"{self.to_move} to move"
        played = self.moves_played
        return f"<boardgen.Position {self.game.key}: {played} move{'s' * (played != 1)}, " \
            f"{state}>"

    def _checked_moves(self, moves: object) -> Iterator[str]:
        if isinstance(moves, str):
            yield from self.game.split_moves(moves)
            return
        if not isinstance(moves, Iterable) or isinstance(moves, bytes | bytearray | Mapping):
            raise BoardgenError(f"{option('moves')}: expected text or a list of moves, not "
                                f"{type(moves).__name__}")
        for number, move in enumerate(moves, start=self.moves_played + 1):
            if not isinstance(move, str):
                raise BoardgenError(f"move {number}: expected text such as a cell name, not "
                                    f"{type(move).__name__}", field="moves")
            yield move

    @property
    def moves_played(self) -> int:
        return len(self.engine.history)

    if TYPE_CHECKING:
        @property
        def over(self) -> bool: ...
    else:  # read in C (operator.attrgetter), not in a frame of Python: a play-out asks it
        # before every move
        over = property(attrgetter("engine.over"))

    @property
    def winner(self) -> str | None:
        return self.engine.winner

    @property
    def to_move(self) -> str | None:
        """Who plays next, as ``--json`` names the players; None once the game is over."""
        return None if self.engine.over else self.engine.to_move

    @abstractmethod
    def legal_moves(self) -> Sequence[str]:
        """Every move the player to move may make, in the game's notation (the same text
        :meth:`play` takes), in a fixed order, as a tuple; none once the game is over.
        (A game's may give a list: :class:`boardgen.Engine` hands out a tuple.)"""

    def play_one(self, token: str) -> object:
        """The hook a game implements: one move as written (a token of
        :meth:`Game.split_moves`), played on its engine; raises IllegalMove (with the
        engine's reason code) or BoardgenError.  :meth:`play` numbers the moves and words
        the errors.  (A plug-in written before this hook was public overrides
        ``_play_one``, which is still called.)"""
        return self._play_one(token)

    def _play_one(self, token: str) -> object:
        raise NotImplementedError(f"{type(self).__name__} implements no play_one()")

    @abstractmethod
    def to_json(self) -> dict[str, object]:
        """The stable ``boardgen play GAME --json`` object (docs: reference/play-json)."""

    @abstractmethod
    def text(self) -> str:
        """The position as ``boardgen play`` prints it."""

    @abstractmethod
    def scene(self, caption: str | None = None) -> Panel:
        """A picture of the position, the last turn's cells (or piece) numbered."""

    def strip_scene(self, caption: str | None, since: int) -> Panel:
        """A picture of the position with every move after the first ``since`` numbered
        by its move number (a strip's panel; ``since`` = moves played: none numbered).
        Default: as :meth:`scene`."""
        return self.scene(caption)

    @property
    def turn_over(self) -> bool:
        """Whether the last move ended its player's turn (a strip counting turns breaks
        there).  Default: every move is a turn."""
        return True

    def move_caption(self) -> str:
        """The engine's words for the move just played, as a diagram's panel says them
        (an animation's caption under each frame).  Default: its number."""
        return f"Move {self.moves_played}."

    def move_turn(self) -> Turn | None:
        """The turn of the move just played, for a game whose pieces turn about one of
        their ends (an animation draws it turning).  Default: none."""
        return None

    def animation(self, moves: Sequence[str], title: str | None = None,
                  play: Callable[[list[str]], None] | None = None) -> Animation:
        """Play ``moves`` one at a time from this position, a frame after each: the
        picture of the position (the move's cells numbered, as :meth:`scene` marks them)
        under the engine's caption of the move.  ``play`` plays one move (default
        :meth:`play`; a game record checks its labels)."""
        start = self.scene(None)
        frames = []
        for move in moves:
            (play or self.play)([move])
            caption = self.move_caption()
            frames.append(Frame(self.scene(caption), caption, self.move_turn()))
        played = self.moves_played
        heading = title if title is not None else \
            f"{self.game.name}: {played} move{'s' * (played != 1)}"
        return Animation(heading, tuple(frames), start, self.game.panel_cell_mm,
                         self.game.roles)

    def diagram(self, title: str | None = None) -> Diagram:
        """The position as a one-panel diagram, titled with the moves played unless
        ``title`` is given."""
        return self.game.panels(title if title is not None else self.heading(),
                                [self.scene()])

    def heading(self) -> str:
        """Its picture's title: ``O after 3 moves``; from a start given
        (``start=``), ``O from a set position`` or ``O, 3 moves from a set position``."""
        played, game = self.moves_played, self.game.name
        if not self.set_up:
            return ntr("{game} after {count} move", "{game} after {count} moves",
                       played).format(game=game, count=played)
        if not played:
            return tr("{game} from a set position").format(game=game)
        return ntr("{game}, {count} move from a set position",
                   "{game}, {count} moves from a set position", played).format(
            game=game, count=played)

    def _repr_svg_(self) -> str | None:
        return self.diagram()._repr_svg_()
