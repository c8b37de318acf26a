"""Rules fidelity IV (issue 31): every ruling of ours marked wherever it is printed, the
sources and notation named, the designer's year given one way, and the omissions filled.

The printed words are the templates' blocks as the sheets print them (figures filled in,
each {print|screen} alternative taken both ways) and the kits' own words (a capture
tracker's instructions, a note page); the PDF and HTML sheets set exactly these blocks
(tests/test_fidelity.py reads them back from the built files)."""

from __future__ import annotations

import io
import re

import pytest
from pypdf import PdfReader

from boardgen.games.registry import game_named
from boardgen.publish.markup import for_medium
from boardgen.publish.sheet import load_sheet
from boardgen.publish.tracker import tracker_intro
from boardgen.publish.typeset import render_sheet_pdf
from boardgen.render.paper import parse_paper
from boardgen.render.scene import THEMES

# Slow: left out of the quick subset (pytest -m "not slow"; the README says which).
pytestmark = pytest.mark.slow

GAMES = ("copolymer", "o", "polygone")
Where = str  # "sheet", "quick" or "kit"


def printed(game: str) -> dict[Where, list[str]]:
    """Each document's sentences, as printed and as shown on screen."""
    def sentences(texts: list[str]) -> list[str]:
        out: list[str] = []
        for text in texts:
            for medium in ("print", "screen"):
                flat = " ".join(for_medium(text, medium).split())
                out += re.split(r"(?<=[.!?])\s+(?=[A-Z*(])", flat)
        return out

    docs: dict[Where, list[str]] = {}
    for where, quick in (("sheet", False), ("quick", True)):
        blocks = load_sheet(game, quick)
        docs[where] = sentences([t for b in blocks for t in (b.text, *b.items) if t])
    kit = game_named(game).kit
    kit_words = [tracker_intro(kit.tracker)] if kit.tracker else []  # as printed
    if kit.note:
        kit_words += [kit.note.title, *kit.note.paragraphs]
    docs["kit"] = sentences(kit_words)
    return docs


# The spec's rulings (shared/spec, where the seeds are silent or ours is a reading), each
# as (game, name, what states it, where it must be stated).  Every sentence that states
# one must carry the mark, in whichever document it stands.
MARK = re.compile(r"\(our ruling|\(ours\)|\bours\)|our ruling\b|\bour reading\b")
RULINGS: list[tuple[str, str, str, tuple[Where, ...]]] = [
    ("polygone", "the goal is the far apex", r"\bgoal\b[^.]*\bapex\b|\bapex\b[^.]*\bgoal\b",
     ("sheet", "quick")),
    ("polygone", "the swinging end ends no nearer home", r"at least as far\s+forward",
     ("sheet",)),
    ("polygone", "only pieces at the pivot block",
     r"do not touch the pivot never block|only pieces at the pivot", ("sheet", "quick")),
    ("polygone", "seven captures win at once",
     r"\b(seven|7)\b[^.;]*\bwins? at (once|that very moment)", ("sheet", "quick", "kit")),
    ("polygone", "a broken polygon no longer counts", r"broken by an earlier capture",
     ("sheet", "quick")),
    ("polygone", "a piece sticking in from a corner", r"sticking (in|into)",
     ("sheet", "quick")),
    ("polygone", "no move loses", r"(cannot|unable to) move loses", ("sheet", "quick")),
    ("o", "off the board counts as empty", r"off the board counts? as empty",
     ("sheet", "quick")),
    ("o", "the outside counts as open", r"outside of the board counts as open", ("sheet",)),
    ("o", "neither can place: no winner", r"without a winner", ("sheet", "quick")),
    ("o", "which glyph is Left's", r"left-handed one|which is which", ("sheet", "quick")),
]


def _ruling_id(case: tuple[str, str, str, tuple[Where, ...]]) -> str:
    return f"{case[0]}-{case[1].replace(' ', '-')}"


@pytest.mark.parametrize("case", RULINGS, ids=_ruling_id)
def test_every_ruling_of_ours_is_marked_wherever_it_is_printed(
        case: tuple[str, str, str, tuple[Where, ...]]) -> None:
    game, name, statement, expected = case
    docs = printed(game)
    found: set[Where] = set()
    for where, sentences in docs.items():
        for sentence in sentences:
            if re.search(statement, sentence, flags=re.I):
                found.add(where)
                assert MARK.search(sentence), \
                    f"{game} {where}: our ruling ({name}) printed unmarked: {sentence!r}"
    assert set(expected) <= found, f"{game}: {name} is no longer stated in " \
        f"{sorted(set(expected) - found)}"


def test_the_mark_check_catches_an_unmarked_ruling() -> None:
    """The check above fails on a sentence that states a ruling without the mark."""
    sentence = "Pieces that do not touch the pivot never block."
    assert re.search(RULINGS[2][2], sentence) and not MARK.search(sentence)


# --- the designer's year, one way everywhere ---------------------------------------------

def test_polygone_is_dated_2004_to_2005_everywhere() -> None:
    """The spec: published by FACABO, 2004-2005.  Title lines, footers and boards agree."""
    span = "2004\u20132005"
    assert game_named("polygone").credit.endswith(f"({span})")
    for quick in (False, True):
        title_line = load_sheet("polygone", quick)[1].text
        assert f"({span})" in title_line, title_line
        pdf = render_sheet_pdf("polygone", paper=parse_paper("a4"), theme=THEMES["colour"],
                               quick=quick)
        text = " ".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages)
        assert "(2004)" not in text and "2004-2005" not in text
        assert text.count(span) >= len(PdfReader(io.BytesIO(pdf)).pages), \
            "every page's footer credits the game with its years"


# --- sources, notation and the omissions, each a line of our own -------------------------

MUST_SAY: list[tuple[str, Where, str]] = [
    # 4: the Connections figure's source, and how cells are named
    ("copolymer", "sheet", "worked example of the play-by-email server's help page"),
    ("copolymer", "sheet", "\u00a9 2006 Mark Steere"),
    ("copolymer", "sheet", "rows are lettered from the top, leaving out I"),
    ("copolymer", "sheet", "diagonals that run from upper right to lower left"),
    ("copolymer", "quick", "worked example of the play-by-email server"),
    ("copolymer", "quick", "leaving out I"),
    ("o", "sheet", "rows are lettered from the top, leaving out I"),
    # 6: the omissions
    ("o", "sheet", "Its name is the letter O."),
    ("o", "sheet", "O needs no extra rule to make sure a loop forms, such as a ban on the "
                   "centre cell"),
    ("polygone", "sheet", "you cannot get through to the far end without capturing"),
    ("copolymer", "sheet", "took only one, and won where taking all three would have lost"),
    ("copolymer", "sheet", "His other games are at marksteeregames.com."),
    ("o", "sheet", "His other games are listed at marksteeregames.com."),
]


@pytest.mark.parametrize(("game", "where", "phrase"), MUST_SAY)
def test_sources_notation_and_omissions_are_printed(game: str, where: Where,
                                                    phrase: str) -> None:
    text = " ".join(printed(game)[where])
    assert phrase in text, f"the {game} {where} does not say {phrase!r}"


# --- the independent claim-by-claim review of issue 31's sheets ----------------------------

def test_the_always_a_placement_claim_is_the_impartial_games() -> None:
    """The seed says a player always has a placement in impartial O; in partisan O a player
    with none is skipped.  Every sentence that reports the claim says which game."""
    claim = re.compile(r"always (has|have) a placement|can always place|always place\b")
    stated = [s for where, sentences in printed("o").items() if where != "kit"
              for s in sentences if claim.search(s)]
    assert stated, "the O sheet no longer reports the designer's claims"
    for sentence in stated:
        assert "impartial" in sentence, f"the claim is not limited to impartial O: {sentence!r}"


def test_the_largest_copolymer_board_is_called_what_the_sources_call_it() -> None:
    """The seeds call side 10 (271 cells) the server's default and the board the rule
    sheet mentions; nothing calls it the usual board."""
    for where, sentences in printed("copolymer").items():
        about = [s for s in sentences if "271" in s]
        assert not any("usual" in s for s in about), f"{where}: {about}"
        assert not about or any("default" in s for s in about), f"{where}: {about}"
    kit = " ".join(printed("copolymer")["kit"])
    assert "side 10 (271 cells), the server\u2019s default and the board the designer " \
        "mentions" in kit


def test_the_tempo_paragraph_says_what_the_solver_finds() -> None:
    """By the engine's own solver (every complete turn of O's, then perfect play): O wins
    only by taking D3, alone or with B4, and ending on C2; every other choice loses, which
    the sheet says in so many words rather than by a list that may leave one out."""
    from boardgen.games.copolymer.engine import Copolymer
    from boardgen.games.copolymer.solver import Endgame
    from boardgen.geometry import hexhex

    game = Copolymer(hexhex(3), first="x")
    for name in "C4 C3 D4 C1 C5 A3 A1 B1 D2 E4 E3".split():  # the tempo diagram's setup
        game.place(game.notation.parse(name))
    name = game.notation.name
    assert game.to_move == "o" and sorted(map(name, game.connections())) == ["B4", "D3", "D5"]

    outcomes: dict[frozenset[str], set[tuple[str, str]]] = {}

    def every_turn(taken: tuple[str, ...]) -> None:
        for cell in game.legal_placements():
            placed = game.place(cell)
            if placed.connection and not game.over:
                every_turn((*taken, name(cell)))
            else:
                winner = game.winner if game.over else Endgame(game).winner()
                outcomes.setdefault(frozenset(taken), set()).add((name(cell), str(winner)))
            game.undo()

    every_turn(())
    winning = {taken: sorted(end for end, winner in ends if winner == "o")
               for taken, ends in outcomes.items()}
    assert {taken: ends for taken, ends in winning.items() if ends} == {
        frozenset({"D3"}): ["C2"], frozenset({"B4", "D3"}): ["C2"]}
    # Every other choice loses: taking no connection, any one but D3, any two but B4 and
    # D3, or all three.
    assert len(winning) == 8
    text = " ".join(printed("copolymer")["sheet"])
    assert "O wins only by taking D3, with or without B4, and then ending the turn on C2; " \
        "every other choice" in text and "loses against best play" in text


def test_every_glyph_is_named_by_its_number_of_stones_first() -> None:
    """The chart's words say first how many stones surround the cell ("four, three and
    one", not "three and one", for a four-stone glyph)."""
    numbers = ("no", "one", "two", "three", "four", "five")
    for diagram in ("glyphs", "partisan-glyphs"):
        from boardgen.games.registry import build_diagram

        for _, scenes in build_diagram("o", diagram).rows:
            for scene in scenes:
                stones = sum(1 for m in getattr(scene, "markers", ()) if m.kind == "dot")
                words = (scene.caption or "").split(":")[0]
                counted = [w for w in re.findall(r"[a-z]+", words.lower()) if w in numbers]
                assert counted[:1] == [numbers[stones]], \
                    f"{diagram}: {words!r} round {stones} stones"


def test_the_docs_date_polygone_as_the_printed_items_do() -> None:
    """README and the docs site give Polygone's years as its sheets, footers and boards do:
    2004\u20132005, with an en dash."""
    from conftest import ROOT

    pages = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
    said = 0
    for page in pages:
        text = page.read_text(encoding="utf-8")
        for found in re.finditer(r"2004\S*", text):
            said += 1
            assert found[0].startswith("2004\u20132005"), \
                f"{page.relative_to(ROOT)}: Polygone dated {found[0]!r}"
    assert said >= 3  # README's opening and credits, docs/index.md, the credits page
