"""What the game protocol promises: claims compare the engines' reason codes, never their
English; the one diagram-file runner reports every problem at its line; each game's roles
are painted by every theme and worded for its legend; the renderer draws a neutral picture
that no game made."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import ROOT

from boardgen.errors import BoardgenError, Refusal
from boardgen.games.o.directives import load_o_example
from boardgen.games.o.engine import OGame, OReason
from boardgen.games.protocol import GameOption
from boardgen.games.registry import BUILT_IN, games
from boardgen.games.script import ExampleError
from boardgen.geometry import hexhex
from boardgen.picture import MARK_KINDS, Diagram, PointScene, Role
from boardgen.render.diagram import describe, diagram_pages
from boardgen.render.scene import THEMES

CORNERS = ROOT / "templates" / "o" / "corners.txt"
WHERE = ROOT / "tests" / "diagram_files" / "o-where.txt"


def _reworded(monkeypatch: pytest.MonkeyPatch, words: str) -> None:
    """Every refusal of O's engine keeps its code and says ``words`` instead."""
    original = OGame.refusal

    def refusal(self: OGame, cell: object, player: str | None = None) -> Refusal | None:
        found = original(self, cell, player)  # type: ignore[arg-type]
        return None if found is None else Refusal(found.code, words)

    monkeypatch.setattr(OGame, "refusal", refusal)


def test_claims_compare_codes_not_messages(monkeypatch: pytest.MonkeyPatch) -> None:
    _reworded(monkeypatch, "reworded by a translator")
    # 'illegal A1 corner', 'illegal E5 k2-adjacent': still true with every message changed.
    assert load_o_example(CORNERS).lines
    assert load_o_example(WHERE).lines


def test_a_claim_of_the_wrong_code_fails_at_its_line(tmp_path: Path) -> None:
    text = CORNERS.read_text().replace("expect: illegal A1 corner", "expect: illegal A1 taken")
    wrong = tmp_path / "corners.txt"
    wrong.write_text(text)
    line = text.splitlines().index("expect: illegal A1 taken") + 1
    with pytest.raises(ExampleError, match=f"^{wrong}:{line}: the example expects "
                       "'illegal A1 taken', but corner rule"):
        load_o_example(wrong)


def test_the_engine_gives_a_code_with_each_refusal() -> None:
    game = OGame(hexhex(4))
    a1 = game.notation.parse("A1")
    game.place(a1)
    refusal = game.refusal(a1)
    assert refusal is not None and refusal.code == OReason.TAKEN
    assert game.why_illegal(a1) == refusal.message


@pytest.mark.parametrize("where, line, message", [
    ("board: hexhex 999999999", 2, "board"),  # a header handler's own error
    ("panel: one\nplace: Z99", 4, "'Z99'"),  # a panel directive's
    ("panel: one\nexpect: legal Z99", 4, "'Z99'"),  # a claim's
    ("panel: one\nexpect: sideways", 4, "unknown expectation 'sideways'"),
    ("panel: one\nwobble: 3", 4, "unknown directive 'wobble' in a panel"),
    ("wobble: 3", 3, "unknown directive 'wobble' before the first panel"),
    ("place: A1", 3, "'place:' must come after a 'panel:' line"),
])
def test_the_runner_reports_every_problem_at_its_line(tmp_path: Path, where: str, line: int,
                                                      message: str) -> None:
    path = tmp_path / "o.txt"
    header = "game: o\n" if where.startswith("board") else "game: o\nboard: hexhex 4\n"
    path.write_text(header + where + ("\npanel: end\n" if "panel" not in where else "\n"))
    with pytest.raises(ExampleError) as info:
        load_o_example(path)
    assert str(info.value).startswith(f"{path}:{line}: "), str(info.value)
    assert message in str(info.value)


@pytest.mark.parametrize("game", [g.key for g in BUILT_IN])
def test_every_role_of_a_game_is_painted_by_every_theme_and_worded(game: str) -> None:
    description = games()[game]
    assert description.roles
    for role in description.roles:
        assert role.legend
        for theme in THEMES.values():
            if role.swatch == "cell":
                theme.paint(role.name)  # raises for a role the theme does not know
            elif role.swatch == "stone":  # a stone's colour: a paint, or a stone's own
                assert role.name in theme.cells or role.name in theme.marks
            else:
                assert role.name in theme.cells


def test_every_diagram_legend_uses_only_its_games_roles() -> None:
    for key, game in games().items():
        # and the designer's marks, one language every game's diagrams share.
        declared = {role.name for role in game.roles} | {f"mark-{k}" for k in MARK_KINDS}
        for name in game.diagram_names():
            legend = {role.name for role in game.diagram(name).legend}
            assert legend <= declared, (key, name, legend - declared)


def test_the_renderer_draws_a_lattice_no_game_made() -> None:
    """Three points, two lines and a bar in roles of no game: not Polygone's board, drawn
    all the same, and said in the names the picture gives its points."""
    a, b, c = (0, 0), (0, 2), (1, 1)
    scene = PointScene(places={a: (0.0, 0.0), b: (1.0, 0.0), c: (0.5, 0.8660254037844386)},
                       lines=((a, b), (a, c)), pieces={(a, b): "black-piece"},
                       dashed={(a, c): "ghost"}, caption="A tiny lattice.",
                       names={a: "c0", b: "c2", c: "d1"})
    roles = (Role("black-piece", "a bar", "bars on", "bar"),
             Role("ghost", "allowed", "allowed", "dashed"))
    diagram = Diagram("Tiny", ((None, (scene,)),), roles, roles=roles)
    (figure,) = diagram_pages(diagram, cell_width=14.0, max_width=180.0, max_height=None)
    assert sum(m.role == "point" for m in figure.marks) == 3
    assert sum(s.role == "board-line" for s in figure.strokes) == 2
    assert describe(diagram) == ("Tiny. Key: a bar, allowed. Panel 1: bars on c0-c2; "
                                 "allowed c0-d1. A tiny lattice.")


def test_a_declared_choice_is_refused_in_its_own_noun() -> None:
    """A game's choice names what it chooses in a refusal ("unknown player"), else the
    generic "unknown value"."""
    colour = GameOption("colour", "choice", "Hue: which colour.", choices=("red", "blue"),
                        noun="colour")
    with pytest.raises(BoardgenError, match=r"^colour: unknown colour 'green' \(choose from "
                                            r"red, blue\)$"):
        colour.value("green")
    plain = GameOption("colour", "choice", "Hue: which colour.", choices=("red", "blue"))
    with pytest.raises(BoardgenError, match="unknown value 'green'"):
        plain.value("green")
    assert colour.value("red") == "red"
    first = next(o for o in games()["copolymer"].options if o.name == "first")
    with pytest.raises(BoardgenError, match="^first: unknown player 'z'"):
        first.value("z")
