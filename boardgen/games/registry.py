"""Each game described once: its name and designer, its engine's diagram files, its
generated figures and its rule sheet.

The command line, the gallery and the sheets read these descriptions instead of switching
on game names.  This module sits above ``render`` (it names the renderers' builders) and
below ``cli``.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from boardgen.errors import BoardgenError, option
from boardgen.games.copolymer import engine as copolymer
from boardgen.games.o import engine as o
from boardgen.games.polygone import engine as polygone
from boardgen.games.replay import replay_moves
from boardgen.geometry import HexGrid, hexhex
from boardgen.geometry.lattice import Line
from boardgen.render.paper import PageInfo, Paper, parse_paper
from boardgen.render.scene import THEMES, Marker, Scene, Theme, board_scene, edge_roles
from boardgen.resources import templates_root

if TYPE_CHECKING:
    from boardgen.render.diagram import Diagram
    from boardgen.render.lattice import LatticeScene

# The drawing modules (boardgen.render.diagram and what it imports: reportlab, the SVG and
# PNG writers) and the diagram-file readers are imported where they are used, not here:
# replaying moves or printing --help must not pay for them.

TEMPLATES = templates_root()
GlyphTable = dict[str, str]


@dataclass(frozen=True)
class Game:
    """One game, as every part of boardgen needs to know it."""

    key: str  # the command-line name
    name: str
    designer: str
    year: int
    # A diagram file (templates/KEY/NAME.txt, or any file saying "game: KEY") as a picture.
    load_file: Callable[[Path, GlyphTable | None], Diagram]
    # Figures built from the engine's tables rather than from files.
    generated: Mapping[str, Callable[[GlyphTable | None], Diagram]] = field(
        default_factory=dict)
    takes_glyphs: bool = False  # O's replaceable glyph chart
    # A replay through the engine, and how a line of moves is cut into moves.
    new_position: Callable[[Game, PlayOptions], Position] | None = None
    split_moves: Callable[[str], list[str]] = str.split
    board_kind: str = "hex"  # "hex": sizes, shapes and masks apply; "lattice": fixed board
    default_side: int = 0  # hex games: the board when no size is given
    check_board: Callable[[HexGrid], None] | None = None  # hex games: refuses a board
    presets: Mapping[str, int] = field(default_factory=dict)  # named sides (--preset)
    marks_edges: bool = False  # its boards shade the perimeter and the corners (O)
    board_note: str | None = None  # what every printed board must also say
    # The boards `boardgen all` prints: (side, label or None, formats).
    gallery_boards: tuple[tuple[int, str | None, tuple[str, ...]], ...] = ()
    play_options: frozenset[str] = frozenset()  # which PlayOptions beyond the grid it takes

    @property
    def credit(self) -> str:
        return f"{self.name} by {self.designer} ({self.year})"

    def board_scene(self, grid: HexGrid, labels: str = "outside") -> Scene:
        """An empty board of this hex game."""
        return board_scene(grid, labels, edges=self.marks_edges)

    def board_info(self, grid: HexGrid, title: str | None = None) -> PageInfo:
        """The page furniture of an empty board: title (the game's name unless given; ''
        for none), a subject naming the board, and the designer's credit."""
        subject = f"{self.name} board, {grid.description}, {len(grid)} cells"
        if self.board_note:
            subject += f" · {self.board_note}"
        return PageInfo(self.name if title is None else (title or None), subject, self.credit)

    @property
    def template_folder(self) -> Path:
        return TEMPLATES / self.key

    def file_names(self) -> list[str]:
        return sorted(p.stem for p in self.template_folder.glob("*.txt"))

    def diagram_names(self) -> list[str]:
        return sorted([*self.generated, *self.file_names()])

    def check_glyphs(self, glyphs: GlyphTable | None) -> None:
        if glyphs is not None and not self.takes_glyphs:
            raise BoardgenError(f"{option('glyphs')} applies to O diagrams only, not {self.name}")

    def diagram(self, name: str, *, glyphs: GlyphTable | None = None) -> Diagram:
        """The named diagram, every position from the engine.  A name is never a path."""
        self.check_glyphs(glyphs)
        if name in self.generated:
            return self.generated[name](glyphs)
        path = self.template_folder / f"{name}.txt"
        if "/" in name or "\\" in name or name.startswith(".") or not path.is_file():
            raise BoardgenError(f"no {self.key} diagram named {name!r} (known: "
                                f"{', '.join(self.diagram_names()) or 'none'}; to draw a file, "
                                "give its path: boardgen diagram FILE)")
        return self.load_file(path, glyphs)


def game_named(key: str) -> Game:
    try:
        return GAMES[key]
    except KeyError:
        raise BoardgenError(f"unknown game {key!r} (choose from {', '.join(GAMES)})") \
            from None


_MEMO: list[dict[tuple[str, str], Diagram]] = []  # the diagrams built so far, when memoised


def build_diagram(game: str, name: str, *, glyphs: GlyphTable | None = None) -> Diagram:
    """The named diagram of a game (``templates/GAME/NAME.txt`` or a generated figure);
    inside :func:`diagrams_memoised`, built once however often it is asked for."""
    if glyphs is not None or not _MEMO:
        return game_named(game).diagram(name, glyphs=glyphs)
    memo = _MEMO[-1]
    key = (game, name)
    if key not in memo:
        memo[key] = game_named(game).diagram(name)
    return memo[key]


@contextmanager
def diagrams_memoised() -> Iterator[None]:
    """Build each built-in diagram once while inside (``boardgen all`` draws each several
    times: its PDF, its SVG, and in the rule sheets).  Not for longer: a template may be
    edited between two commands of one Python session."""
    _MEMO.append({})
    try:
        yield
    finally:
        _MEMO.pop()


def remember_diagram(game: str, name: str, diagram: Diagram) -> None:
    """Put a diagram built elsewhere (another process) into the memo, if one is open."""
    if _MEMO:
        _MEMO[-1][(game, name)] = diagram


def diagram_file_game(path: Path) -> Game:
    """The game a diagram file is written for: its ``game:`` line, or else the folder it
    lies in under ``templates/``."""
    from boardgen.games.script import read_directives

    if path.exists() and not path.is_file() and not path.is_dir():
        # A pipe or a device: the game line and the replay would each need to read it.
        raise BoardgenError(f"diagram file {path}: not a regular file (save it to a file)")
    line = next((d for d in read_directives(path) if d.key == "game"), None)
    if line is not None:
        declared = line.value.strip().lower()
        if declared not in GAMES:
            raise BoardgenError(f"{path}:{line.line}: unknown game {declared!r} in its "
                                f"'game:' line (choose from {', '.join(GAMES)})")
        return GAMES[declared]
    folder = path.resolve().parent
    if folder.parent == TEMPLATES.resolve() and folder.name in GAMES:
        return GAMES[folder.name]
    raise BoardgenError(f"{path}: the file does not say which game it is for; add a line "
                        f"'game: {'|'.join(GAMES)}' at the top")


def load_diagram_file(path: Path, *, glyphs: GlyphTable | None = None) -> tuple[Game, Diagram]:
    """Replay a diagram file from anywhere on disk; every claim checked by the engine."""
    game = diagram_file_game(path)
    game.check_glyphs(glyphs)
    return game, game.load_file(path, glyphs)


def render_diagram(game: str, name: str, fmt: str, *, paper: Paper, theme: Theme,
                   cell_mm: float | None = None, dpi: int = 150,
                   info: PageInfo | None = None, glyphs: GlyphTable | None = None) -> bytes:
    """Build the named diagram from the engine and draw it."""
    from boardgen.render.diagram import draw_diagram

    return draw_diagram(build_diagram(game, name, glyphs=glyphs), game, name, fmt,
                        paper=paper, theme=theme, cell_mm=cell_mm, dpi=dpi, info=info)


# --- positions: a game replayed through its engine ------------------------------------------

@dataclass(frozen=True)
class PlayOptions:
    """How a replay starts.  ``grid`` for the hex games; ``first`` and ``start`` (a
    position drawn as text, with the name to report errors under) for Copolymer;
    ``partisan`` and ``glyphs`` for O."""

    grid: HexGrid | None = None
    first: str | None = None
    start: tuple[str, str] | None = None
    partisan: bool = False
    glyphs: GlyphTable | None = None


class _Engine(Protocol):
    @property
    def history(self) -> Sequence[object]: ...

    @property
    def over(self) -> bool: ...

    @property
    def winner(self) -> str | None: ...

    @property
    def to_move(self) -> str: ...


class Position(ABC):
    """A position reached by replaying moves through a game's engine.  Displays itself in
    Jupyter (``_repr_svg_``)."""

    game: Game
    engine: _Engine

    def play(self, moves: str | Iterable[str]) -> None:
        """Play moves in order (a list of moves, or one text of moves as ``boardgen play
        --moves`` takes them); the first one refused raises BoardgenError naming its number
        (counting every move played so far), the move as written, and the reason."""
        replay_moves(self._checked_moves(moves), self._play_one,
                     first_number=self.moves_played + 1)

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

    @property
    def over(self) -> bool:
        return self.engine.over

    @property
    def winner(self) -> str | None:
        return self.engine.winner

    @property
    def to_move(self) -> str | None:
        """Who plays next, as ``--json`` names the players; None once the game is over."""
        return None if self.engine.over else self.engine.to_move

    @abstractmethod
    def legal_moves(self) -> list[str]:
        """Every move the player to move may make, in the game's notation (the same text
        :meth:`play` takes), in a fixed order; none once the game is over."""

    @abstractmethod
    def _play_one(self, token: str) -> object:
        """One move as written; raises IllegalMove or BoardgenError."""

    @abstractmethod
    def to_json(self) -> dict[str, object]:
        """The stable ``boardgen play GAME --json`` object (see the README)."""

    @abstractmethod
    def text(self) -> str:
        """The position as ``boardgen play`` prints it."""

    @abstractmethod
    def scene(self, caption: str | None = None) -> Scene | LatticeScene:
        """A picture of the position, the last turn's cells (or piece) numbered."""

    def _repr_svg_(self) -> str:
        return render_position(self, "svg").decode("utf-8")


class CopolymerPosition(Position):
    engine: copolymer.Copolymer

    def __init__(self, game: Game, options: PlayOptions) -> None:
        self.game = game
        grid = options.grid or hexhex(game.default_side)
        first = options.first or "x"
        self.engine = copolymer.Copolymer(grid, first=first)
        if options.start is not None:
            text, source = options.start
            cells, _capitals = copolymer.parse_text_position(grid, text, source)
            self.engine.set_position(cells, first)

    def _play_one(self, token: str) -> object:
        return self.engine.place(self.engine.notation.parse(token))

    def legal_moves(self) -> list[str]:
        return [self.engine.notation.name(h) for h in self.engine.legal_placements()]

    def to_json(self) -> dict[str, object]:
        grid = self.engine.grid
        return copolymer.position_json(self.engine, grid.side if grid.shape == "hexhex"
                                       else None)

    def text(self) -> str:
        return "\n".join([*copolymer.text_position(self.engine),
                          copolymer.status_line(self.engine)])

    def scene(self, caption: str | None = None) -> Scene:
        from boardgen.render.diagram import PLAYER_ROLES

        engine = self.engine
        numbers = {p.cell: str(k) for k, p in enumerate(engine.this_turn(), start=1)}
        return Scene(engine.grid,
                     cell_roles={h: PLAYER_ROLES[p] for h, p in engine.cells().items()},
                     cell_texts=numbers, markers=tuple(Marker(h, "disc") for h in numbers),
                     caption=caption)


class OPosition(Position):
    engine: o.OGame

    def __init__(self, game: Game, options: PlayOptions) -> None:
        self.game = game
        grid = options.grid or hexhex(game.default_side)
        self.engine = o.OGame(grid, partisan=options.partisan, table=options.glyphs)

    def _play_one(self, token: str) -> object:
        return self.engine.place(self.engine.notation.parse(token))

    def legal_moves(self) -> list[str]:
        return [self.engine.notation.name(h) for h in self.engine.legal()]

    def to_json(self) -> dict[str, object]:
        return o.position_json(self.engine)

    def text(self) -> str:
        return "\n".join([*o.text_position(self.engine), o.status_line(self.engine)])

    def scene(self, caption: str | None = None) -> Scene:
        engine = self.engine
        last = engine.history[-1].cell if engine.history else None
        roles = edge_roles(engine.grid)
        roles.update({h: "new" for h in engine.enclosed})
        markers = [Marker(h, "disc" if h == last else "dot",
                          "loop" if h in engine.loop else "stone") for h in engine.stones()]
        if engine.winner is not None and last is not None:
            markers.append(Marker(last, "ring", "accent"))
        texts = {last: str(len(engine.history))} if last is not None else {}
        return Scene(engine.grid, cell_roles=roles, cell_texts=texts,
                     markers=tuple(markers), caption=caption)


class PolygonePosition(Position):
    engine: polygone.Polygone

    def __init__(self, game: Game, options: PlayOptions) -> None:
        self.game = game
        self.engine = polygone.Polygone()

    def _play_one(self, token: str) -> object:
        return self.engine.play(polygone.parse_move(token))

    def legal_moves(self) -> list[str]:
        return [move.notation() for move in self.engine.legal_moves()]

    def to_json(self) -> dict[str, object]:
        return polygone.position_json(self.engine)

    def text(self) -> str:
        return "\n".join(polygone.text_position(self.engine))

    def scene(self, caption: str | None = None) -> LatticeScene:
        from boardgen.render.lattice import LatticeScene

        engine = self.engine
        labels: dict[Line, str] = {}
        if engine.history:
            moved = engine.history[-1].move.new_line
            if moved in engine.pieces:
                labels[moved] = str(len(engine.history))
        return LatticeScene(pieces=dict(engine.pieces), labels=labels, caption=caption,
                            apexes=False)


# --- the games -----------------------------------------------------------------------------

def _copolymer_file(path: Path, glyphs: GlyphTable | None) -> Diagram:
    del glyphs  # refused before: Game.check_glyphs
    from boardgen.games.copolymer.directives import load_example
    from boardgen.render.diagram import copolymer_diagram

    return copolymer_diagram(load_example(path))


def _o_file(path: Path, glyphs: GlyphTable | None) -> Diagram:
    from boardgen.games.o.directives import load_o_example
    from boardgen.render.diagram import o_file_diagram

    return o_file_diagram(load_o_example(path, table=glyphs))


def _polygone_file(path: Path, glyphs: GlyphTable | None) -> Diagram:
    del glyphs  # refused before: Game.check_glyphs
    from boardgen.games.polygone.directives import load_polygone_example
    from boardgen.render.diagram import polygone_diagram

    return polygone_diagram(load_polygone_example(path))


def _glyph_chart(glyphs: GlyphTable | None) -> Diagram:
    from boardgen.render.o_diagrams import glyph_chart

    return glyph_chart(glyphs)


def _partisan_glyphs(glyphs: GlyphTable | None) -> Diagram:
    from boardgen.render.o_diagrams import partisan_glyphs

    return partisan_glyphs(glyphs)


GAMES: dict[str, Game] = {
    "copolymer": Game(
        "copolymer", copolymer.NAME, "Mark Steere", 2006,
        _copolymer_file,
        new_position=CopolymerPosition, play_options=frozenset({"first", "start"}),
        default_side=copolymer.DEFAULT_SIDE, check_board=copolymer.check_board,
        presets=copolymer.PRESETS,
        gallery_boards=tuple((side, preset, ("pdf", "svg")) for preset, side in
                             sorted(copolymer.PRESETS.items(), key=lambda item: item[1]))),
    "o": Game(
        "o", o.NAME, "Mark Steere", 2024,
        _o_file, {"glyphs": _glyph_chart, "partisan-glyphs": _partisan_glyphs}, takes_glyphs=True,
        new_position=OPosition, play_options=frozenset({"partisan", "glyphs"}),
        default_side=o.DEFAULT_SIDE, check_board=o.check_board, marks_edges=True,
        board_note="glyph chart: our reconstruction",
        gallery_boards=tuple((side, None, ("pdf",)) for side in range(o.MIN_SIDE, 11))),
    "polygone": Game(
        "polygone", polygone.NAME, "Fabien Vandenbussche", 2004,
        _polygone_file,
        new_position=PolygonePosition, split_moves=polygone.split_moves,
        board_kind="lattice"),
}




def new_position(game: str, options: PlayOptions | None = None) -> Position:
    """The start of a game (the empty board, a drawn position, or Polygone's set-up)."""
    description = game_named(game)
    assert description.new_position is not None
    return description.new_position(description, options or PlayOptions())


def render_position(position: Position, fmt: str, *, paper: Paper | None = None,
                    theme: Theme | None = None, cell_mm: float | None = None,
                    dpi: int = 150, title: str | None = None) -> bytes:
    """The position as one panel (SVG text as UTF-8 bytes, PDF or PNG bytes)."""
    played = position.moves_played
    heading = title if title is not None else \
        f"{position.game.name} after {played} move{'s' * (played != 1)}"
    return draw_panels(position.game, heading, [position.scene()], fmt, paper=paper,
                       theme=theme, cell_mm=cell_mm, dpi=dpi)


def draw_panels(game: Game, heading: str, scenes: Sequence[Scene | LatticeScene], fmt: str,
                *, paper: Paper | None = None, theme: Theme | None = None,
                cell_mm: float | None = None, dpi: int = 150) -> bytes:
    """Pictures of positions in one row of panels (``play -o``, and ``--every``'s strip)."""
    from boardgen.render.diagram import Diagram, draw_diagram

    diagram = Diagram(heading, ((None, tuple(scenes)),),
                      cell_mm=14.0 if game.board_kind == "lattice" else 8.0)
    return draw_diagram(diagram, game.key, "position", fmt, paper=paper or parse_paper("a4"),
                        theme=theme or THEMES["colour"], cell_mm=cell_mm, dpi=dpi)
