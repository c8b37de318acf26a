"""The diagram language's reference lists every directive and claim the parser accepts, and
nothing it refuses (issue 38).

The reference (``boardgen.games.script.directive_syntax``, shown on the docs site) is read
from the runner's tables; the oracle here is the parser's behaviour: each candidate word is
written into a real diagram file, before the first panel and inside a panel, and counts as
accepted unless the file is refused as naming an unknown directive (or claim).  The
candidates are every directive and claim word used by any diagram file in the repository,
every word the reference lists, and words no game takes.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from conftest import ROOT, TESTS

import boardgen
from boardgen.games.registry import games
from boardgen.games.script import GameSyntax, syntax_text

BASE = {  # a diagram file of each game, to write the candidates into
    "copolymer": TESTS / "diagram_files" / "copolymer-annotated.txt",
    "o": TESTS / "diagram_files" / "o-where.txt",
    "polygone": TESTS / "diagram_files" / "polygone-lone-piece.txt",
    "free": ROOT / "templates" / "free" / "bridge.txt",
}
DECOYS = {"size", "colour", "piece", "label", "legend", "theme", "players", "rotate", "end",
          "region", "start", "comment", "score", "turn", "stones", "moves", "flip"}
# Words tried after a claim word: a claim whose words have the wrong form is refused as
# unknown, so each candidate is tried with several.
CLAIM_ARGS = ["", "x", "first", "white", "1", "A1", "A1 taken", "x 1 o 1", "white 1 black 1",
              "winner x", "c4-c6 1", "white c4-c6", "c4"]
DIAGRAM_FILES = [*ROOT.glob("templates/*/*.txt"), *TESTS.glob("diagram_files/*.txt"),
                 *TESTS.glob("caption_cases/*.txt")]


def _used_in_files() -> tuple[set[str], set[str]]:
    """Every directive key and every claim word in the repository's diagram files."""
    keys: set[str] = set()
    claims: set[str] = set()
    for path in DIAGRAM_FILES:
        for line in path.read_text(encoding="utf-8").splitlines():
            found = re.match(r"\s*([a-z-]+):\s*(\S*)", line)
            if found and not line.startswith(" "):
                keys.add(found.group(1))
                if found.group(1) == "expect" and found.group(2):
                    claims.add(found.group(2))
    return keys, claims


def _listed(syntax: GameSyntax) -> tuple[set[str], set[str]]:
    keys = {key for entry in (*syntax.header, *syntax.panel) for key in entry.keys}
    return keys, {key for entry in syntax.claims for key in entry.keys}


def _refusal(text: str) -> str:
    try:
        boardgen.parse_diagram(text)
    except boardgen.BoardgenError as exc:
        return str(exc)
    return ""


def _accepts_directive(base: str, key: str) -> bool:
    lines = base.splitlines()
    game_line = next(i for i, line in enumerate(lines) if line.startswith("game:"))
    panel_line = next(i for i, line in enumerate(lines) if line.startswith("panel:"))
    before = [*lines[:game_line + 1], f"{key}: zz", *lines[game_line + 1:]]
    inside = [*lines[:panel_line + 1], f"{key}: zz", *lines[panel_line + 1:], "panel: after"]
    unknown = (f"unknown directive '{key}'", f"'{key}:' must come after",
               f"'{key}:' belongs before", "nothing to claim")  # free: 'expect:' refused
    return any(not any(says in _refusal("\n".join(text)) for says in unknown)
               for text in (before, inside))


def _accepts_claim(base: str, word: str) -> bool:
    lines = base.splitlines()
    panel_line = next(i for i, line in enumerate(lines) if line.startswith("panel:"))
    for args in CLAIM_ARGS:
        text = "\n".join([*lines[:panel_line + 1], f"expect: {word} {args}".strip()])
        refusal = _refusal(text)
        if "unknown expectation" not in refusal and "nothing to claim" not in refusal:
            return True
    return False


def _syntaxes() -> dict[str, GameSyntax]:
    found = {}
    for key, game in games().items():
        syntax = game.diagram_syntax()
        assert syntax is not None, key
        found[key] = syntax
    return found


def test_every_built_in_game_has_a_reference_and_a_base_file() -> None:
    assert set(_syntaxes()) == set(BASE)


@pytest.mark.parametrize("game", sorted(BASE))
@pytest.mark.parametrize("part", ["directives", "claims"])
def test_the_reference_lists_exactly_what_the_parser_accepts(game: str, part: str) -> None:
    """Directives (before the first panel or inside one), or the claim words of 'expect:'."""
    which = 0 if part == "directives" else 1
    accepts = _accepts_directive if part == "directives" else _accepts_claim
    syntaxes = _syntaxes()
    listed = _listed(syntaxes[game])[which]
    candidates = _used_in_files()[which] | DECOYS
    candidates |= set().union(*(_listed(s)[which] for s in syntaxes.values()))
    base = BASE[game].read_text(encoding="utf-8")
    accepted = {word for word in candidates if accepts(base, word)}
    assert accepted == listed, {"accepted, not listed": accepted - listed,
                                "listed, refused": listed - accepted}


def test_every_entry_says_how_it_is_written_and_what_it_means() -> None:
    for game, syntax in _syntaxes().items():
        for entry in (*syntax.header, *syntax.panel, *syntax.claims):
            assert entry.meaning, (game, entry)
            for key in entry.keys:  # each key appears in its own form
                assert re.search(rf"(^|\| ){re.escape(key)}\b", entry.form), (game, entry)
        text = syntax_text(syntax)
        assert all(entry.form in text for entry in syntax.panel), game
        assert "tint" in syntax.drawn_roles


def test_highlight_roles_are_those_the_parser_takes() -> None:
    base = BASE["o"].read_text(encoding="utf-8")
    syntax = _syntaxes()["o"]
    refusal = _refusal(base + "\nhighlight: nonsense E6\n")
    roles = set(re.search(r"roles: ([a-z, -]+)", refusal).group(1).split(", "))  # type: ignore[union-attr]
    assert roles == {*syntax.judged_roles, *syntax.drawn_roles}


# --- boardgen diagram --syntax: the same language, as the command prints it (issue 33) -------

def _printed(text: str) -> tuple[set[str], set[str]]:
    """The directives and the claim words ``boardgen diagram --syntax`` prints: each entry
    is a line indented two spaces under its section's heading, its forms split by ' | '."""
    keys: set[str] = set()
    claims: set[str] = set()
    section = ""
    for line in text.splitlines():
        if not line.startswith(" "):
            section = line
        elif not line.startswith("   "):
            forms = line.strip().split(" | ")
            if section.startswith("Claims"):
                claims |= {form.split()[0] for form in forms}
            elif section in ("Before the first panel:", "In a panel:"):
                keys |= {form.partition(":")[0] for form in forms}
    return keys, claims


@pytest.mark.parametrize("game", sorted(BASE))
def test_the_syntax_command_prints_exactly_what_the_parser_accepts(game: str,
                                                                   run_cli: Any) -> None:
    """Probed as above, the parser's accepted words against the command's text (not the
    tables it is printed from)."""
    result = run_cli("diagram", "--syntax", game)
    assert result.code == 0, result.err
    keys, claims = _printed(result.out)
    base = BASE[game].read_text(encoding="utf-8")
    used_keys, used_claims = _used_in_files()
    every = [_printed(run_cli("diagram", "--syntax", other).out) for other in sorted(BASE)]
    key_candidates = used_keys | DECOYS | {"notation"} | set().union(*(k for k, _ in every))
    claim_candidates = used_claims | DECOYS | set().union(*(c for _, c in every))
    assert {key for key in key_candidates if _accepts_directive(base, key)} == keys
    assert {word for word in claim_candidates if _accepts_claim(base, word)} == claims


def test_the_syntax_command_without_a_game_prints_every_game(run_cli: Any) -> None:
    result = run_cli("diagram", "--syntax")
    assert result.code == 0, result.err
    for game in games():
        assert f"{game} diagram files:" in result.out
        assert run_cli("diagram", "--syntax", game).out in result.out


def test_the_help_points_to_the_syntax_not_to_the_readme(run_cli: Any) -> None:
    said = " ".join(run_cli("diagram", "--help").out.split())
    assert "README" not in said
    assert "'boardgen diagram --syntax GAME' prints every directive" in said
    assert run_cli("diagram", "--syntax", "chess").code == 2


@pytest.mark.parametrize("game", sorted(BASE))
def test_the_mark_kinds_listed_are_those_the_parser_takes(game: str) -> None:
    """Each candidate word written after 'mark: WHERE' in a real file (a label after
    'text'): the kinds accepted are the kinds the reference lists, each said in its text."""
    base = BASE[game].read_text(encoding="utf-8")
    where = "c4" if game == "polygone" else "A1"
    syntax = _syntaxes()[game]
    listed = {key for entry in syntax.mark_kinds for key in entry.keys}
    candidates = listed | {"rng", "circle", "square", "A", "12", "label", "arrow", "disc"}
    accepted = {word for word in candidates if "unknown mark kind" not in _refusal(
        f"{base}\nmark: {where} {word}{' 1' if word == 'text' else ''}\n")}
    assert accepted == listed == {"ring", "cross", "dot", "text"}
    assert all(entry.form in syntax_text(syntax) for entry in syntax.mark_kinds)
