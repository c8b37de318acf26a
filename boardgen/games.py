"""Each game described once: its name and designer, its engine's diagram files, its
generated figures and its rule sheet.

The command line, the gallery and the sheets read these descriptions instead of switching
on game names.  This module sits above ``render`` (it names the renderers' builders) and
below ``cli``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from boardgen.errors import BoardgenError
from boardgen.render.diagram import (
    Diagram,
    copolymer_diagram,
    draw_diagram,
    o_file_diagram,
    polygone_diagram,
)
from boardgen.render.o_diagrams import glyph_chart, partisan_glyphs
from boardgen.render.paper import Paper
from boardgen.render.pdf import PageInfo
from boardgen.render.scene import Theme
from boardgen.rules import copolymer, o, polygone
from boardgen.rules.copolymer_examples import load_example
from boardgen.rules.example_file import declared_game, read_directives
from boardgen.rules.o_examples import load_o_example
from boardgen.rules.polygone_examples import load_polygone_example

TEMPLATES = Path(__file__).resolve().parent.parent / "templates"
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

    @property
    def credit(self) -> str:
        return f"{self.name} by {self.designer} ({self.year})"

    @property
    def template_folder(self) -> Path:
        return TEMPLATES / self.key

    def file_names(self) -> list[str]:
        return sorted(p.stem for p in self.template_folder.glob("*.txt"))

    def diagram_names(self) -> list[str]:
        return sorted([*self.generated, *self.file_names()])

    def diagram(self, name: str, *, glyphs: GlyphTable | None = None) -> Diagram:
        """The named diagram, every position from the engine.  A name is never a path."""
        if glyphs is not None and not self.takes_glyphs:
            raise BoardgenError(f"--glyphs applies to O diagrams only, not {self.name}")
        if name in self.generated:
            return self.generated[name](glyphs)
        path = self.template_folder / f"{name}.txt"
        if "/" in name or "\\" in name or name.startswith(".") or not path.is_file():
            raise BoardgenError(f"no {self.key} diagram named {name!r} (known: "
                                f"{', '.join(self.diagram_names()) or 'none'}; to draw a file, "
                                "give its path: boardgen diagram FILE)")
        return self.load_file(path, glyphs)


def _no_glyphs(load: Callable[[Path], Diagram]) -> Callable[[Path, GlyphTable | None], Diagram]:
    def loader(path: Path, glyphs: GlyphTable | None) -> Diagram:
        if glyphs is not None:
            raise BoardgenError("--glyphs applies to O diagrams only")
        return load(path)
    return loader


GAMES: dict[str, Game] = {
    "copolymer": Game(
        "copolymer", copolymer.NAME, "Mark Steere", 2006,
        _no_glyphs(lambda path: copolymer_diagram(load_example(path)))),
    "o": Game(
        "o", o.NAME, "Mark Steere", 2024,
        lambda path, glyphs: o_file_diagram(load_o_example(path, table=glyphs)),
        {"glyphs": glyph_chart, "partisan-glyphs": partisan_glyphs}, takes_glyphs=True),
    "polygone": Game(
        "polygone", polygone.NAME, "Fabien Vandenbussche", 2004,
        _no_glyphs(lambda path: polygone_diagram(load_polygone_example(path)))),
}


def game_named(key: str) -> Game:
    try:
        return GAMES[key]
    except KeyError:
        raise BoardgenError(f"unknown game {key!r} (choose from {', '.join(GAMES)})") \
            from None


def build_diagram(game: str, name: str, *, glyphs: GlyphTable | None = None) -> Diagram:
    """The named diagram of a game (``templates/GAME/NAME.txt`` or a generated figure)."""
    return game_named(game).diagram(name, glyphs=glyphs)


def diagram_file_game(path: Path) -> Game:
    """The game a diagram file is written for: its ``game:`` line, or else the folder it
    lies in under ``templates/``."""
    declared = declared_game(read_directives(path))
    if declared is not None:
        if declared not in GAMES:
            raise BoardgenError(f"{path}: unknown game {declared!r} in its 'game:' line "
                                f"(choose from {', '.join(GAMES)})")
        return GAMES[declared]
    folder = path.resolve().parent
    if folder.parent == TEMPLATES.resolve() and folder.name in GAMES:
        return GAMES[folder.name]
    raise BoardgenError(f"{path}: the file does not say which game it is for; add a line "
                        f"'game: {'|'.join(GAMES)}' at the top")


def load_diagram_file(path: Path, *, glyphs: GlyphTable | None = None) -> tuple[Game, Diagram]:
    """Replay a diagram file from anywhere on disk; every claim checked by the engine."""
    game = diagram_file_game(path)
    if glyphs is not None and not game.takes_glyphs:
        raise BoardgenError(f"--glyphs applies to O diagrams only, not {game.name}")
    return game, game.load_file(path, glyphs)


def render_diagram(game: str, name: str, fmt: str, *, paper: Paper, theme: Theme,
                   cell_mm: float | None = None, dpi: int = 150,
                   info: PageInfo | None = None, glyphs: GlyphTable | None = None) -> bytes:
    """Build the named diagram from the engine and draw it."""
    return draw_diagram(build_diagram(game, name, glyphs=glyphs), game, name, fmt,
                        paper=paper, theme=theme, cell_mm=cell_mm, dpi=dpi, info=info)
