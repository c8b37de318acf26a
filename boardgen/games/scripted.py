"""A game whose diagram files are read by a :class:`boardgen.games.script.GameScript`: the
methods every such game needs (``load_file``, ``load_text``, ``diagram_directives``,
``diagram_syntax`` and ``annotated``) written once, from three hooks a game gives.

- :meth:`ScriptedGame.script`: its script for a file (or a file's text), under its own
  options of the diagram command;
- :meth:`ScriptedGame.diagram_of`: the diagram a script's replay makes;
- optionally :meth:`ScriptedGame.annotation_draft` and :meth:`ScriptedGame.annotate`: how
  a designer's arrows, marks and highlights given to ``boardgen.draw`` land on a
  position's picture (default: a panel the script opens, drawn on a hex board by
  :func:`boardgen.games.script.annotated`).
"""

from __future__ import annotations

from abc import abstractmethod
from pathlib import Path
from typing import Any

from boardgen.games.protocol import Game, GameOptions, Position
from boardgen.games.script import (
    Annotations,
    DesignerMarks,
    Directive,
    GameScript,
    GameSyntax,
    annotated,
    directive_syntax,
)
from boardgen.picture import Diagram, Panel, Scene

# A script that has read nothing: what its directives are, and annotations given by
# boardgen.draw (errors then name no file).
NO_FILE = Path("-")
# The name a diagram given as text goes by (its default title).
TEXT = Path("diagram")


class ScriptedGame(Game):
    """A :class:`~boardgen.games.protocol.Game` whose diagram files its
    :class:`~boardgen.games.script.GameScript` reads."""

    @abstractmethod
    def script(self, path: Path, text: str | None, options: GameOptions
               ) -> GameScript[Any, Any, Any]:
        """Its script for the file ``path`` (or, with ``text``, that file's contents)."""

    @abstractmethod
    def diagram_of(self, script: GameScript[Any, Any, Any]) -> Diagram:
        """The diagram ``script`` makes: it runs it (raising ExampleError as
        ``FILE:LINE: message``) and turns its panels into pictures."""

    def annotation_draft(self, script: GameScript[Any, Any, Any], position: Position) -> Any:
        """The panel draft that ``boardgen.draw``'s annotations of ``position`` are read
        into (default: a panel the script opens on the position, labelled '')."""
        return script.open_panel(position.engine, "")

    def annotate(self, panel: Panel, notes: Annotations[Any, Any]) -> Panel:
        """The position's picture with the annotations read (default: a hex board's)."""
        assert isinstance(panel, Scene)
        return annotated(panel, notes)

    # --- the protocol's methods, written once -------------------------------------------

    def load_file(self, path: Path, options: GameOptions) -> Diagram:
        return self.diagram_of(self.script(path, None, options))

    def load_text(self, text: str, options: GameOptions) -> Diagram:
        return self.diagram_of(self.script(TEXT, text, options))

    def load_read(self, path: Path, directives: list[Directive], options: GameOptions
                  ) -> Diagram:
        """The diagram file ``path`` replayed from its ``directives``, read already."""
        script = self.script(path, None, options)
        script.read = directives
        return self.diagram_of(script)

    def diagram_directives(self) -> frozenset[str]:
        return self.script(NO_FILE, None, {}).keys()

    def diagram_syntax(self) -> GameSyntax:
        return directive_syntax(self.script(NO_FILE, None, {}))

    def annotated(self, position: Position, panel: Panel, marks: DesignerMarks) -> Panel:
        script = self.script(NO_FILE, "", {})
        notes = script.annotations_of(position.engine,
                                      self.annotation_draft(script, position), marks)
        return self.annotate(panel, notes)
