"""Every caption says what the engine's positions say (issue 20).

For every shipped diagram (templates/GAME/*.txt) and the README's example files
(tests/diagram_files/), tests/captions.py replays the file with its own reader through the
naive engines and works out what each panel's caption must state: the winner and the
counts, the player to move, the connections open, what each placement touched, the stones
placed and where a stone may go, where a Polygone end may swing and which targets are
backwards or blocked, which polygons a move closes and what each captures.  The captions
are taken from the diagrams as the public API builds them, and the drawn SVG must carry
exactly those captions.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
from captions import copolymer_problems, o_problems, polygone_problems

import boardgen

ROOT = Path(__file__).resolve().parent.parent
TEMPLATES = ROOT / "templates"
README_FILES = ROOT / "tests" / "diagram_files"

ORACLES: dict[str, Callable[[Path, list[list[str]]], list[str]]] = {
    "copolymer": copolymer_problems, "o": o_problems, "polygone": polygone_problems}


def _game_of(path: Path) -> str:
    said = re.search(r"^game:\s*(\w+)", path.read_text(encoding="utf-8"), re.MULTILINE)
    return said.group(1) if said else path.parent.name


SHIPPED = sorted(TEMPLATES.glob("*/*.txt"))
README = sorted(README_FILES.glob("*.txt"))
ALL_FILES = [*SHIPPED, *README]


def _diagram(path: Path) -> boardgen.Diagram:
    if path.parent.parent == TEMPLATES:
        return boardgen.diagram(path.parent.name, path.stem)  # as the CLI names it
    return boardgen.load_diagram(path)


def panel_captions(diagram: boardgen.Diagram) -> list[list[str]]:
    """Each row's panel captions, as drawn under the panels (the one place that knows how
    a diagram holds them)."""
    return [[scene.caption or "" for scene in scenes] for _, scenes in diagram.rows]


def _id(path: Path) -> str:
    return f"{path.parent.name}/{path.stem}"


def test_every_shipped_diagram_and_readme_file_is_checked() -> None:
    assert len(SHIPPED) >= 16 and len(README) == 3
    assert {_game_of(p) for p in ALL_FILES} == set(ORACLES)


@pytest.mark.parametrize("path", ALL_FILES, ids=_id)
def test_captions_state_what_the_positions_say(path: Path) -> None:
    captions = panel_captions(_diagram(path))
    assert all(c for row in captions for c in row)
    assert ORACLES[_game_of(path)](path, captions) == []


def _drawn_text(svg: str) -> str:
    return " ".join(" ".join(re.findall(r'class="caption" aria-label="([^"]*)"', svg)).split())


@pytest.mark.parametrize("path", ALL_FILES, ids=_id)
def test_the_drawing_carries_those_captions_in_order(path: Path) -> None:
    diagram = _diagram(path)
    drawn = _drawn_text(str(boardgen.draw(diagram, "svg")))
    drawn = drawn.replace("&amp;", "&").replace("&#x27;", "'").replace("&#39;", "'")
    at = 0
    for caption in (c for row in panel_captions(diagram) for c in row):
        found = drawn.find(" ".join(caption.split()), at)
        assert found >= 0, (caption, drawn[at:])
        at = found + len(caption)


# --- the oracle can fail: captions that lie are caught ----------------------------------------


def _lie(path: Path, old: str, new: str) -> list[str]:
    captions = panel_captions(_diagram(path))
    lied = [[c.replace(old, new) for c in row] for row in captions]
    assert lied != captions, f"{old!r} is not in the captions of {path.name}"
    return ORACLES[_game_of(path)](path, lied)


@pytest.mark.parametrize(("file", "old", "new"), [
    ("copolymer/forced", "X wins 10 to 9", "X wins 9 to 10"),
    ("copolymer/forced", "X wins 10 to 9", "O wins 10 to 9"),
    ("copolymer/tempo", "O to play, with connections open at B4, D3 and D5",
     "X to play, with connections open at B4, D3 and D5"),
    ("copolymer/tempo", "open at B4, D3 and D5", "open at B4 and D3"),
    ("copolymer/help-page", "ends the turn at C5 (touching no X cell)",
     "ends the turn at C5 (touching 1 X cell)"),
    ("copolymer/help-page", "(touching 3 O cells) and goes on", "(touching 3 O cells)"),
    ("copolymer/tempo", "X must connect", "X connects"),
    ("o/loop", "loop of 13 stones", "loop of 12 stones"),
    ("o/short-game", "2. Second B1", "2. First B1"),
    ("o/corners", "A1: corner rule", "A1: its ring is glyph k2-adjacent, where no stone may go."
     " corner rule"),
    ("diagram_files/o-where", "E5: its ring is glyph k2-adjacent", "E5: a stone may go here"),
    ("polygone/03-blocking", "c4 is blocked", "c4 is backwards"),
    ("polygone/02-targets", "c6 is backwards", "c6 is blocked"),
    ("polygone/02-targets", "may reach b3, b5, c2 and d3", "may reach b3, b5 and c2"),
    ("polygone/06-triangle", "White captures Black's d3-c4", "Black captures White's d3-c4"),
    ("polygone/09-capture-back", "first a triangle", "first a four-sided polygon"),
    ("polygone/08-piece-inside", "closes no polygon", "closes a triangle that captures nothing"),
    ("polygone/02-targets", "Black's end d5", "White's end d5"),
])
def test_a_caption_that_says_otherwise_is_caught(file: str, old: str, new: str) -> None:
    folder, stem = file.split("/")
    path = (README_FILES if folder == "diagram_files" else TEMPLATES / folder) / f"{stem}.txt"
    assert _lie(path, old, new) != []


# --- O: the cells shown are coloured as the caption words them -------------------------------

SHOW_THEN_PLACE = """game: o
board: hexhex 4
setup: D4
panel: E5 shown, then D5 placed
show: E5 D6
place: D5
"""


def _panel_roles(svg: str) -> list[dict[str, str]]:
    """Each panel's cell roles from the SVG: the cells of one panel come one after the other,
    each named once."""
    panels: list[dict[str, str]] = []
    for role, name in re.findall(r'<use class="cell ([\w-]+)" data-cell="([\w-]+)"', svg):
        if name.startswith("legend-"):
            continue
        if not panels or name in panels[-1]:
            panels.append({})
        panels[-1][name] = role
    return panels


@pytest.mark.parametrize("source", [*sorted(TEMPLATES.glob("o/*.txt")),
                                    README_FILES / "o-where.txt", "show-then-place"],
                         ids=str)
def test_o_cells_shown_are_coloured_as_their_captions_say(tmp_path: Path,
                                                          source: Path | str) -> None:
    path = Path(source) if isinstance(source, Path) else tmp_path / f"{source}.txt"
    if isinstance(source, str):
        path.write_text(SHOW_THEN_PLACE)
    diagram = _diagram(path)
    captions = [c for row in panel_captions(diagram) for c in row]
    assert o_problems(path, [captions]) == []
    roles = _panel_roles(str(boardgen.draw(diagram, "svg")))
    assert len(roles) == len(captions)
    shown = 0
    for caption, panel in zip(captions, roles, strict=True):
        for name, reason in re.findall(r"\b([A-Z]+\d+): (.*?)\.(?= |$)", caption):
            shown += 1
            assert panel[name] == ("legal" if reason == "a stone may go here" else "illegal"), \
                (name, reason, panel[name])
    assert shown or path.stem in ("loop", "short-game")
