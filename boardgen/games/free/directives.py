"""Free diagram files (``templates/free/*.txt``, or any file with ``game: free``): a hex
board with no rules, stones of four colours put anywhere, and every annotation.  Nothing
is replayed, so nothing is claimed: an 'expect:' line is refused.

Directives:
  game: free           title: TEXT
  board: SHAPE SIDE    hexhex 4, rhombus 5, triangle 5; or 'board:' and the board drawn
                       as text (any of . # * o x @ a cell) up to a line 'end'
  stone: COLOUR CELLS  stones of a colour (black, white, red, blue) on the cells; before the
                       first panel they are the start, in a panel they are added; a cell
                       that holds a stone already is refused
  replace: COLOUR CELLS  in a panel: the stones on the cells, which must be there, replaced
                       by stones of COLOUR
  remove: CELLS        take stones away
  line: TITLE          a row of panels, starting again from the start
  panel: LABEL         a panel: the board as it is
  note: TEXT           added to the panel's caption
  arrow: / mark: / highlight: tint CELLS / caption:   annotations (see
                       boardgen.games.script)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from boardgen.errors import BoardgenError
from boardgen.games.free.engine import COLOURS, DEFAULT_SIDE, FreeBoard
from boardgen.games.script import Annotations, Directive, GameScript, PlayLine, labelled
from boardgen.geometry import Hex, HexGrid, grid_from_mask, hexhex, make_shape


@dataclass(frozen=True)
class FreePanel:
    label: str
    stones: dict[Hex, str]
    caption: str
    annotations: Annotations[Hex, Hex]


@dataclass(frozen=True)
class FreeExample:
    name: str
    title: str
    grid: HexGrid
    lines: tuple[PlayLine[FreePanel], ...]


@dataclass
class PanelDraft:
    label: str
    notes: list[str] = field(default_factory=list)
    annotations: Annotations[Hex, Hex] = field(default_factory=Annotations)


class FreeScript(GameScript[FreeBoard, PanelDraft, FreePanel]):
    """A free diagram file: its board, stones, panels and annotations; no claims."""

    move_keys = frozenset({"stone", "replace", "remove"})  # an animation's frame after each

    game = "free"
    repeatable_header = frozenset({"stone"})  # a line per colour, or per group of stones

    def __init__(self, path: Path, *, text: str | None = None) -> None:
        super().__init__(path, text=text)
        self.grid: HexGrid = hexhex(DEFAULT_SIDE)
        self.start_stones: list[Directive] = []
        self.header = {"board": self.board, "stone": self.start_stone}
        self.directives = {"stone": self.stone, "replace": self.replace,
                           "remove": self.remove}
        self.claims = {}

    # --- the header ------------------------------------------------------------------------

    def board(self, d: Directive) -> None:
        """board: SHAPE SIDE | board: (a block, up to end)

        The board: ``hexhex 4``, ``rhombus 5``, ``triangle 5``, or any shape drawn as
        ``--mask`` draws one.
        """
        if d.block:
            self.grid = grid_from_mask("\n".join(d.block), "the board drawn")
            return
        words = d.value.split()
        if len(words) != 2 or not words[1].isdigit():
            raise self.fail(d, "board needs 'SHAPE SIDE' (hexhex 4, rhombus 5, triangle 5), "
                               f"or 'board:' and the board drawn up to 'end'; not {d.value!r}")
        self.grid = make_shape(words[0], int(words[1]))

    def start_stone(self, d: Directive) -> None:
        """stone: COLOUR CELLS

        Before the first panel: stones (black, white, red, blue) of the start.
        """
        self._cells_of(FreeBoard(self.grid), d)  # refused here, at its own line
        self.start_stones.append(d)

    def start(self) -> FreeBoard:
        board = FreeBoard(self.grid)
        for d in self.start_stones:
            self.stone(board, None, d)
        return board

    # --- panels ----------------------------------------------------------------------------

    def _cells_of(self, board: FreeBoard, d: Directive, key: str = "stone"
                  ) -> tuple[str, list[Hex]]:
        words = d.value.split()
        if len(words) < 2 or words[0] not in COLOURS:
            raise self.fail(d, f"{key} needs 'COLOUR CELLS' (colours: {', '.join(COLOURS)}), "
                               f"not {d.value!r}")
        try:
            return words[0], [board.notation.parse(w) for w in words[1:]]
        except BoardgenError as exc:
            raise self.fail(d, str(exc)) from None

    def stone(self, board: FreeBoard, draft: PanelDraft | None, d: Directive) -> None:
        """stone: COLOUR CELLS

        In a panel: stones added, on empty cells (a stone on a stone is refused: say
        ``replace:``).
        """
        colour, cells = self._cells_of(board, d)
        for cell in cells:
            held = board.stones.get(cell)
            if held is not None:
                name = board.notation.name(cell)
                if draft is None:  # the start position: one stone a cell
                    raise self.fail(d, f"{name} holds a {held} stone already: the start "
                                       "position takes one stone a cell")
                raise self.fail(d, f"{name} holds a {held} stone already: to put a {colour} "
                                   f"stone in its place, write 'replace: {colour} {name}' (or "
                                   f"'remove: {name}' first)")
            board.put(cell, colour)

    def replace(self, board: FreeBoard, draft: PanelDraft, d: Directive) -> None:
        """replace: COLOUR CELLS

        In a panel: the stones on CELLS (each must hold one) replaced by stones of COLOUR.
        """
        colour, cells = self._cells_of(board, d, "replace")
        for cell in cells:
            if cell not in board.stones:
                name = board.notation.name(cell)
                raise self.fail(d, f"{name} holds no stone to replace: write 'stone: {colour} "
                                   f"{name}' to put one there")
            board.put(cell, colour)

    def remove(self, board: FreeBoard, draft: PanelDraft, d: Directive) -> None:
        """remove: CELLS

        Stones taken away.
        """
        try:
            cells = [board.notation.parse(w) for w in d.value.split()]
        except BoardgenError as exc:
            raise self.fail(d, str(exc)) from None
        if not cells:
            raise self.fail(d, "remove needs the CELLS whose stones to take away")
        for cell in cells:
            board.remove(cell)

    def open_panel(self, board: FreeBoard, label: str) -> PanelDraft:
        return PanelDraft(label)

    def note(self, draft: PanelDraft, text: str) -> None:
        draft.notes.append(text)

    def point(self, board: FreeBoard, word: str) -> Hex:
        return board.notation.parse(word)

    def close_panel(self, board: FreeBoard, draft: PanelDraft) -> FreePanel:
        # Under its label, as in every game: a 'caption:' replaces the notes, not the label.
        said = draft.annotations.caption if draft.annotations.caption is not None \
            else " ".join(draft.notes)
        caption = labelled(draft.label, said)
        return FreePanel(draft.label, dict(board.stones), caption, draft.annotations)

    def unknown_claim(self, board: FreeBoard, d: Directive) -> str:
        return ("a free diagram has no rules, so nothing to claim: 'expect:' is for the "
                "games with an engine")


def load_free_example(path: Path, *, text: str | None = None) -> FreeExample:
    """Read a free diagram file (or ``text``, a file's contents); raises ExampleError
    (file:line: reason) on a mistake."""
    return example_of(FreeScript(path, text=text))


def example_of(script: FreeScript) -> FreeExample:
    """The example a script replays (see :func:`load_free_example`)."""
    lines = script.run()
    return FreeExample(script.name, script.title, script.grid, tuple(lines))
