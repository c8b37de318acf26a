"""The figures the O sheet prints about the designer's claims (issue 31, item 1): computed,
never typed.  The checked-in figures file is recomputed here, so a change to the engine
that changes a figure (as its random draws once did, leaving "one partisan game was
skipped" on the sheet after the bench found none) fails this test until the file is
rewritten with ``python bench/o_claims.py --sheet``."""

from __future__ import annotations

import json
import re

from conftest import ROOT

import boardgen
from boardgen.games.o.claims import SKIP_EDGE, SKIP_GAME, sheet_figures
from boardgen.publish.sheet import load_sheet, render_sheet_html
from boardgen.render.scene import THEMES

FIGURES = ROOT / "templates" / "o" / "figures.json"
SHEET = ROOT / "templates" / "o" / "sheet.md"


def _checked_in() -> dict[str, str]:
    figures = json.loads(FIGURES.read_text(encoding="utf-8"))["figures"]
    assert isinstance(figures, dict)
    return figures


def test_the_figures_file_is_what_the_play_outs_give_today() -> None:
    assert sheet_figures() == _checked_in(), (
        "the O sheet's figures are stale: run python bench/o_claims.py --sheet")


def test_the_claims_section_types_no_figure() -> None:
    """Every number in "About the claims" is a {{figure}}, none typed into the prose."""
    text = SHEET.read_text(encoding="utf-8")
    section = text[text.index("## About the claims"):]
    section = section[:section.find("\n::: ")]
    names = re.findall(r"\{\{([a-z0-9-]+)\}\}", section)
    assert {"games", "loops", "impartial-stuck", "partisan-skips", "skip-game"} <= set(names)
    typed = re.findall(r"\d[\d,]*", re.sub(r"\{\{[a-z0-9-]+\}\}", "", section))
    assert not typed, f"figures typed into the prose: {typed}"


def test_the_sheet_prints_the_figures() -> None:
    figures = _checked_in()
    printed = " ".join(block.text or " ".join(block.items) for block in load_sheet("o"))
    assert "{{" not in printed
    assert f"A loop formed in {figures['loops']} of the {figures['games']} games;" in printed
    assert f"partisan turns skipped: {figures['partisan-skips']}." in printed
    page = render_sheet_html("o", theme=THEMES["colour"]).decode()
    assert figures["skip-game"] in page


def test_the_skip_example_skips_the_player_the_sheet_names() -> None:
    """Replayed through the public API: after the stone the sheet names, the player it
    names has no placement and the other player is to move again."""
    figures = _checked_in()
    moves = SKIP_GAME.split()
    after = int(figures["skip-after"])
    skipped = figures["skip-player"].lower()
    other = {"left": "right", "right": "left"}[skipped]
    # Left places the odd stones: the stone before the skip was the other player's.
    assert (after % 2 == 1) == (other == "left")
    before = boardgen.play("o", moves[:after - 1], side=SKIP_EDGE, partisan=True)
    assert before.to_json()["to_move"] == other
    position = boardgen.play("o", moves[:after], side=SKIP_EDGE, partisan=True)
    state = position.to_json()
    assert state["to_move"] == other and not state["over"], state
    assert state["legal"], state
    assert figures["skip-edge"] == str(SKIP_EDGE)


def test_the_reconstruction_box_says_what_the_figures_show() -> None:
    """The O sheet's box says both claims held in every game we tried: the figures must
    still show every game ending in a loop and no impartial player without a placement
    (should a play-out ever find one, the box's words must change with it)."""
    figures = _checked_in()
    box = next(block.text for block in load_sheet("o") if block.kind == "note"
               and "reconstruction" in block.text)
    assert "held in every game we tried" in box
    assert figures["loops"] == figures["games"]
    assert figures["impartial-stuck"] == "0"
