"""A theme of one's own (``--theme FILE.toml``, ``theme=Path(...)`` or a dict): roles set,
roles left out kept, checked as the built-in themes are, refused in one line otherwise.

The grey check here is written from the rule (ITU-R 601 luma, 40 of 255, or another
pattern), not with boardgen's luma, and the role list of the docs page is read from the
page itself.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import ROOT

import boardgen
from boardgen.errors import BoardgenError
from boardgen.games.registry import games
from boardgen.picture import Paint, RolePaint
from boardgen.render.scene import THEMES
from boardgen.render.theme_file import pairs_told_apart, settable_roles, theme_from_toml


def grey(colour: str) -> float:
    red, green, blue = (int(colour[k:k + 2], 16) for k in (1, 3, 5))
    return 0.299 * red + 0.587 * green + 0.114 * blue


def svg_fill(svg: str, role: str) -> str:
    """The fill the SVG's style sheet gives cells of ``role``."""
    found = re.search(r"\.cell\." + re.escape(role) + r"\{fill:([^;}]+)", svg)
    assert found, role
    return found.group(1)


@pytest.fixture(autouse=True)
def _games_declared() -> None:
    games()


@pytest.mark.parametrize("name", sorted(THEMES))
def test_the_built_in_themes_pass_the_same_check(name: str) -> None:
    theme = THEMES[name]
    checked = 0
    for a, b in pairs_told_apart():
        paint_a, paint_b = theme.cells[a], theme.cells[b]
        assert abs(grey(paint_a.fill) - grey(paint_b.fill)) >= 40 or \
            paint_a.pattern != paint_b.pattern, (name, a, b)
        checked += 1
    assert checked >= 20  # the theme's own pairs and the games' declared ones


def test_roles_set_in_the_file_are_drawn_and_the_rest_kept(tmp_path: Path) -> None:
    path = tmp_path / "mine.toml"
    path.write_text('# blue and gold\n[roles]\nplayer1 = "#1B4F9C"\n'
                    'player2 = { fill = "#f0c419", pattern = "hatch" }\n', encoding="utf-8")
    position = boardgen.play("copolymer", "C3 B2", side=3)
    svg = boardgen.draw(position, "svg", theme=path)
    plain = boardgen.draw(position, "svg")
    assert svg_fill(svg, "player1") == "#1b4f9c"
    assert svg_fill(svg, "player2") == "url(#paint-player2)"  # patterned
    assert 'id="paint-player2"' in svg and 'fill="#f0c419"' in svg
    assert svg_fill(svg, "empty") == svg_fill(plain, "empty")
    # The same data as a dict, and through the command line's file, give the same bytes.
    same = boardgen.draw(position, "svg", theme={"roles": {
        "player1": "#1b4f9c", "player2": {"fill": "#f0c419", "pattern": "hatch"}}})
    assert same == svg
    assert boardgen.draw(position, "pdf", theme=path) == boardgen.draw(position, "pdf",
                                                                       theme=path)


def test_a_colour_keeps_the_base_pattern_and_none_takes_it_away() -> None:
    kept = boardgen.board("copolymer", "svg", side=3,
                          theme={"base": "ink", "roles": {"empty": "#eeeeee"}})
    assert svg_fill(kept, "empty") == "#eeeeee"
    hatched = boardgen.draw(boardgen.play("copolymer", "C3", side=3), "svg",
                            theme={"base": "ink", "roles": {"player1": "#dddddd"}})
    assert svg_fill(hatched, "player1") == "url(#paint-player1)"
    plain = boardgen.draw(boardgen.play("copolymer", "C3", side=3), "svg",
                          theme={"base": "ink", "roles": {
                              "player1": {"fill": "#999999", "pattern": "none"}}})
    assert svg_fill(plain, "player1") == "#999999"


def test_a_game_s_declared_role_is_settable() -> None:
    assert {"stone", "loop", "connection", "white-piece", "stone-red"} <= set(settable_roles())
    svg = boardgen.draw(boardgen.play("o", "D4 D5", side=4), "svg",
                        theme={"roles": {"stone": "#3a0000"}})
    assert 'fill="#3a0000"' in svg


def test_a_plug_in_s_role_is_settable_and_checked(monkeypatch: pytest.MonkeyPatch) -> None:
    import boardgen.picture as picture

    monkeypatch.setitem(picture._DECLARED, "plugin-bead",
                        RolePaint(Paint("#884400"), apart_from=("empty",)))
    theme = theme_from_toml('[roles]\nplugin-bead = "#123456"\n', "beads.toml")
    assert theme.colour("plugin-bead") == "#123456"
    with pytest.raises(BoardgenError, match=r"^beads.toml:2: roles plugin-bead .* and empty"):
        theme_from_toml('[roles]\nplugin-bead = "#fafafa"\n', "beads.toml")


@pytest.mark.parametrize("text, message", [
    ('[roles]\nplayer1 = "#1b4f9c"\nplayer2 = "#2b5fac"\n',
     r"^t.toml:2: roles player1 \(#1b4f9c\) and player2 \(#2b5fac\) are 16 grey levels"),
    ('[roles]\n\nlegal = "#fbf8f0"\n', r"^t.toml:3: roles legal .* and empty"),
    ('[roles]\nplayr2 = "#2b5fac"\n', r"^t.toml:2: unknown role 'playr2' \(did you mean "
     r"player2\?"),
    ('[roles]\nplayer1 = "#1b4f9"\n', r"^t.toml:2: role player1: '#1b4f9' is not a colour"),
    ('[roles]\n"player1" = { fill = "blue" }\n', r"^t.toml:2: role player1: fill 'blue'"),
    ('[roles]\nplayer1 = { fill = "#1b4f9c", pattern = "zigzag" }\n',
     r"^t.toml:2: role player1: unknown pattern 'zigzag'"),
    ('[roles]\nplayer1 = { colour = "#1b4f9c" }\n', r"^t.toml:2: role player1: unknown key"),
    ('[roles]\nplayer1 = 12\n', r"^t.toml:2: role player1: give a colour"),
    ('[roles]\nplayer1 = "#1b4f9c\n', r"^t.toml:2: not a TOML file"),
    ('base = "sepia"\n', r"^t.toml:1: unknown base theme 'sepia'"),
    ('colours = 1\n', r"^t.toml:1: unknown key 'colours'"),
    ('roles = 3\n', r"^t.toml:1: roles must be a table"),
    # Every key given a value of the wrong type: refused with its line, never a TypeError.
    ('base = ["colour"]\n[roles]\nplayer1 = "#1b4f9c"\n', r"^t.toml:1: base must be the "
     r"name of a built-in theme, one of colour, .* not list$"),
    ('# mine\n[base]\nx = 1\n', r"^t.toml:2: base must be .* not dict$"),
    ('base = 3\n', r"^t.toml:1: base must be .* not int$"),
    ('[[roles]]\nplayer1 = "#1b4f9c"\n', r"^t.toml:1: roles must be a table"),
    ('[roles]\nplayer1 = { fill = ["#1b4f9c"] }\n',
     r"^t.toml:2: role player1: fill \['#1b4f9c'\] is not a colour"),
    ('[roles]\nplayer1 = { fill = "#1b4f9c", pattern = ["hatch"] }\n',
     r"^t.toml:2: role player1: unknown pattern \['hatch'\]"),
    ('[roles]\nplayer1 = { fill = "#1b4f9c", pattern = { a = 1 } }\n',
     r"^t.toml:2: role player1: unknown pattern \{'a': 1\}"),
    ('[roles]\nplayer1 = { fill = "#1b4f9c", outline = 0 }\n',
     r"^t.toml:2: role player1: outline 0 is not a colour"),
    ('[roles]\nplayer1 = ["#1b4f9c"]\n', r"^t.toml:2: role player1: give a colour .* not "
     r"list$"),
    ('\n[roles.player1]\nfill = 1\n', r"^t.toml:2: role player1: fill 1 is not a colour"),
    ('[roles]\nplayer1 = 1979-05-27\n', r"^t.toml:2: role player1: give a colour .* not "
     r"date$"),
    # A colour is the whole value: a trailing newline (a TOML escape) is not part of one.
    ('[roles]\nplayer1 = "#000000\\n"\n', r"^t.toml:2: role player1: '#000000\\n' is not a "
     r"colour"),
    ('[roles]\nplayer1 = { fill = "#1b4f9c", outline = "#ffffff\\n" }\n',
     r"^t.toml:2: role player1: outline '#ffffff\\n' is not a colour"),
    # Nested past what tomllib's recursion can read (a 10 kB file): not a TOML file.
    ('x = ' + '[' * 5000 + ']' * 5000 + '\n', r"^t.toml: not a TOML file: nested too deeply$"),
    ('x = ' + '{a=' * 3000 + '1' + '}' * 3000 + '\n',
     r"^t.toml: not a TOML file: nested too deeply$"),
])
def test_bad_files_are_refused_in_one_line(text: str, message: str) -> None:
    with pytest.raises(BoardgenError) as caught:
        theme_from_toml(text, "t.toml")
    shown = str(caught.value)
    assert "\n" not in shown
    assert re.search(message, shown), shown


def test_the_grey_check_can_fail_on_each_pair() -> None:
    """Each pair is refused when its second role is given the first's paint (the pair
    named may be another of the role's: the first that fails)."""
    for a, b in pairs_told_apart():
        paint = THEMES["colour"].cells[a]
        value: object = {"fill": paint.fill, "pattern": paint.pattern or "none"}
        with pytest.raises(BoardgenError, match=r"roles .*\b" + re.escape(b) +
                           r" \(.* grey levels apart"):
            boardgen.board("copolymer", "svg", side=3, theme={"roles": {b: value}})


def test_the_docs_page_lists_every_role() -> None:
    page = (ROOT / "docs" / "howto" / "themes.md").read_text(encoding="utf-8")
    listed = re.findall(r"^\| `([a-z0-9-]+)` \| (.+?) \|$", page, re.M)
    assert sorted(name for name, _ in listed) == sorted(settable_roles())
    assert len(listed) == len(settable_roles())
    assert all(len(meaning) > 5 for _, meaning in listed)


@pytest.mark.parametrize("theme, message", [
    ({"base": ["colour"]}, r"^theme: base must be .* not list$"),
    ({"base": {"x": 1}}, r"^theme: base must be .* not dict$"),
    ({"base": None}, r"^theme: base must be .* not NoneType$"),
    ({"roles": {"player1": "#000000\n"}}, r"is not a colour"),
    ({"roles": {"player1": {"fill": "#000000", "pattern": ["hatch"]}}}, r"unknown pattern"),
    ({"roles": {"player1": {"fill": "#000000", 3: 1}}}, r"unknown key 3"),
    ({"roles": {("a",): "#000000"}}, r"unknown role \('a',\)"),
    ({"roles": {"x" * 100_000: "#000000"}}, r"unknown role 'x{20}"),
    ({"roles": {"player1": "#" + "a" * 100_000}}, r"is not a colour"),
])
def test_the_api_s_dict_of_the_wrong_shape_is_refused(theme: object, message: str) -> None:
    with pytest.raises(BoardgenError) as caught:
        boardgen.board("copolymer", "svg", side=3, theme=theme)
    shown = str(caught.value)
    assert "\n" not in shown and len(shown) < 1000, shown[:200]
    assert re.search(message, shown), shown


@pytest.mark.parametrize("roles, pair", [
    ({"white-piece": "#777777", "black-piece": "#787878"}, ("white-piece", "black-piece")),
    ({"white-piece": "#e8dcc0", "groove": "#e8dcc0"}, ("white-piece", "groove")),
    ({"white-piece": "#4a4238", "black-piece": "#000000"}, ("white-piece", "hole")),
    ({"stone": "#fbf8f1"}, ("stone", "empty")),
    ({"stone": "#d9cdb0"}, ("stone", "perimeter")),
    ({"stone": "#b3a074"}, ("stone", "corner")),
])
def test_a_game_s_pieces_and_what_they_lie_on_are_told_apart(roles: dict[str, str],
                                                               pair: tuple[str, str]) -> None:
    """Polygone's two sides' pieces, a white piece and its grooves and holes, O's stones and
    every zone of cell: the pictures ask a player to tell these apart."""
    a, b = pair
    with pytest.raises(BoardgenError, match=rf"roles {a} \(#\w+\) and {b} \(#\w+\) are "
                                            r"\d+ grey levels apart"):
        boardgen.draw(boardgen.play("polygone", "c0-c2>d1"), "svg", theme={"roles": roles})


# The two inks a theme draws marks in, beside the roles (the print review): the engine's
# accent, and a diagram author's marks.
MARKED_DIAGRAM = ("game: copolymer\nboard: hexhex 3\nfirst: x\nsetup: C3 B2 C2\npanel: p\n"
                  "mark: A1 ring\n")


def _rgb_apart(a: str, b: str) -> float:
    return sum((int(a[k:k + 2], 16) - int(b[k:k + 2], 16)) ** 2 for k in (1, 3, 5)) ** 0.5


# The ink theme prints black and white only: its designer's ink is the accent's black (its
# marks are told apart by dashes and shapes), and black is every dark role's fill there.
TONED_THEMES = sorted(name for name in THEMES if name != "ink")
INKS = [(base, ink) for base in sorted(THEMES) for ink in ("designer", "accent")
        if (base, ink) != ("ink", "designer")]


@pytest.mark.parametrize("role", ["tint", "connection"])
@pytest.mark.parametrize(("base", "ink"), INKS)
def test_a_role_painted_in_an_ink_is_refused(role: str, ink: str, base: str) -> None:
    """A role given exactly the designer's ink (or the accent) is refused, naming the line
    and the ink: a diagram's marks never print in a role's colour (roles no pair check
    concerns with the inks' greys, so that the ink check is the one that speaks)."""
    colour = getattr(THEMES[base], ink)
    text = f'base = "{base}"\n[roles]\n{role} = {{ fill = "{colour}", pattern = "none" }}\n'
    with pytest.raises(BoardgenError) as caught:
        theme_from_toml(text, "t.toml")
    shown = str(caught.value)
    assert shown.startswith("t.toml:3: ") and ink in shown and colour in shown, shown


def test_the_reviewer_s_plum_theme_is_refused_and_a_house_theme_kept() -> None:
    with pytest.raises(BoardgenError, match=r"^t.toml:2: role player1 \(#a21caf\) is "
                                            r"\d+ grey levels from the designer ink"):
        theme_from_toml('[roles]\nplayer1 = "#a21caf"\nplayer2 = "#d8b4fe"\n', "t.toml")
    house = theme_from_toml('base = "colour"\n[roles]\nplayer1 = "#0f766e"\n'
                            'player2 = { fill = "#e9c46a", pattern = "dots" }\n', "t.toml")
    assert house.cells["player1"].fill == "#0f766e"


def test_a_file_sets_the_designer_s_ink_and_the_accent() -> None:
    """``designer`` and ``accent`` paint the marks and the engine's rings; each checked
    (the two 40 grey levels apart; a role that comes near them refused)."""
    svg = boardgen.draw(boardgen.parse_diagram(MARKED_DIAGRAM), "svg",
                        theme={"designer": "#be185d", "accent": "#0ea5e9"})
    assert re.search(r'class="designer-mark mark-ring"[^>]*stroke="#be185d"', svg)
    assert re.search(r'class="mark ring accent"[^>]*stroke="#0ea5e9"', svg)
    assert "#6b0a7d" not in svg and "#c2410c" not in svg
    for inks, message in (
            ('designer = "#c2410d"\n', r"^t.toml:1: the designer's ink \(#c2410d\) and the "
                                       r"accent \(#c2410c\) are 0 grey levels apart"),
            ('accent = "#6b0a7e"\n', r"^t.toml:1: the designer's ink .* 0 grey levels"),
            ('designer = "#eb6b51"\n', r"^t.toml:1: role player1 \(#ea6a50\) is 1 grey "
                                       r"levels from the designer ink"),
            ('designer = 7\n', r"^t.toml:1: designer: 7 is not a colour"),
    ):
        with pytest.raises(BoardgenError, match=message):
            theme_from_toml(inks, "t.toml")


def test_the_ink_theme_keeps_to_black_and_white() -> None:
    assert THEMES["ink"].designer == THEMES["ink"].accent == "#000000"


@pytest.mark.parametrize("name", TONED_THEMES)
def test_the_built_in_inks_stand_apart(name: str) -> None:
    """Every built-in theme: the designer's ink 40 grey levels from the accent, and from
    every unpatterned role the theme paints itself 40 grey levels or plainly another
    colour (RGB 80 apart)."""
    theme = THEMES[name]
    assert abs(grey(theme.designer) - grey(theme.accent)) >= 40
    for role, paint in theme.cells.items():
        if paint.pattern is None and theme.paints(role):
            assert abs(grey(paint.fill) - grey(theme.designer)) >= 40 or \
                _rgb_apart(paint.fill, theme.designer) >= 80, (role, paint.fill)
