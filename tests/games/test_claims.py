"""Every claim and directive of the diagram language is enforced (issue 20).

For each kind of claim in the docs' list (docs/reference/diagram-language.md), and each
directive that states something the engine can judge, a file that states it truly must
load and one that states it falsely must be refused naming that file and line.  Files are
read through the public API (boardgen.load_diagram), as a designer's file is.  In every
case below the statement under test is the file's last line, so the line refused is the
file's length.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import ROOT

import boardgen

# The diagram language's reference page, which lists the claims and judged roles.
LANGUAGE = ROOT / "docs" / "reference" / "diagram-language.md"

# Starts the claims are made from (one line each, joined with newlines).
COPOLYMER = "game: copolymer\nboard: hexhex 3\nsetup: C3 B2 C2\npanel: p"  # O to play: D3 opens
CO_FORCED = ("game: copolymer\nboard: hexhex 3\n"
             "setup: C4 C3 D4 C1 C5 A3 A1 B1 D2 E4 E3 B4 D3 D5 A2\npanel: p")  # X; B2 B3 C2 E5
CO_FULL = CO_FORCED + "\nplace: B2 connection 3 forced\nplace: B3 connection 4 forced\n" \
    "place: C2 connection 4 forced\nplace: E5 connection 2 forced"  # X 10, O 9
CO_TEMPO = "game: copolymer\nboard: hexhex 3\nsetup: C4 C3 D4 C1 C5 A3 A1 B1 D2 E4 E3\npanel: p"
O_BASE = "game: o\nboard: hexhex 4\nsetup: D4 D5\npanel: p"  # first to play; E5 k2-adjacent
O_CORNER = "game: o\nboard: hexhex 4\npanel: p\nplace: B2"  # A1 is refused by the corner rule
O_LOOP = ("game: o\nboard: hexhex 4\npanel: p\n"
          "place: B5 B1 D2 B4 G4 E4 C6 F3 D6 C4 E3 F5")  # first to play; G5 closes a loop
O_DONE = O_LOOP + "\nplace: G5"
PO_LONE = "game: polygone\nwhite: c4-c6\npanel: p\nshow: c4 about c6"
PO_BLOCK = ("game: polygone\nblack: c6-c8 c6-d5 c6-b5 b7-a8\nto-move: black\npanel: p\n"
            "show: c8 about c6")
PO_OUTSIDE = "game: polygone\nblack: e6-e8 e6-d7\nto-move: black\npanel: p\nshow: e8 about e6"
PO_TRIANGLE = "game: polygone\nwhite: c2-c4 b1-c2\nblack: c4-d3\npanel: p\nmove: b1-c2>d3"
PO_TWO = ("game: polygone\nwhite: b5-c6 d3-c4 d3-d5 d5-e6 e2-d3\n"
          "black: c4-c6 d3-e4 d5-c6 e4-e6\npanel: p\nmove: d3-d5>c4/2,1")
PO_APEX = "game: polygone\nwhite: d7-d9\nblack: c8-c10\npanel: p\nmove: d7-d9>c10"


def FROM_START(start: str) -> str:  # noqa: N802 - reads as a marker in the table
    """A false statement made from another start: the whole file, not added to the case's
    start."""
    return "\0" + start + "\n"


# claim kind -> [(start, true statement, false statement)]
CLAIMS: dict[tuple[str, str], list[tuple[str, ...]]] = {
    ("copolymer", "to-move"): [(COPOLYMER, "expect: to-move o", "expect: to-move x")],
    ("copolymer", "connections"): [
        (COPOLYMER, "expect: connections D3", "expect: connections D3 A1"),
        (COPOLYMER + "\nplace: D3 connection 2", "expect: connections none",
         "expect: connections D3"),
    ],
    ("copolymer", "forced"): [(CO_FORCED, "expect: forced", "place: B2 connection 3 forced\n"
                               "expect: to-move o"),
                              (CO_FORCED, "expect: forced", FROM_START(COPOLYMER)
                               + "expect: forced")],
    ("copolymer", "turn-continues"): [
        (COPOLYMER + "\nplace: D3 connection 2", "expect: turn-continues",
         "expect: turn-ends")],
    ("copolymer", "turn-ends"): [
        (COPOLYMER + "\nplace: B3 ends 1", "expect: turn-ends", "expect: turn-continues")],
    ("copolymer", "counts"): [(COPOLYMER, "expect: counts x 2 o 1", "expect: counts x 1 o 2"),
                              (CO_FULL, "expect: counts x 10 o 9", "expect: counts x 9 o 10")],
    ("copolymer", "empty"): [(COPOLYMER, "expect: empty 16", "expect: empty 17"),
                             (CO_FULL, "expect: empty 0", "expect: empty 1")],
    ("copolymer", "winner"): [(CO_FULL, "expect: winner x", "expect: winner o"),
                              (CO_FORCED, "expect: to-move x", "expect: winner x")],
    ("copolymer", "solved"): [(CO_TEMPO, "expect: solved winner o",
                               "expect: solved winner x")],
    # A placement and its classification, 'forced' included both ways.
    ("copolymer", "place"): [
        (COPOLYMER, "place: D3 connection 2", "place: D3 connection 3",
         "the example claims D3 is connection 3, but the engine counts 2 enemy neighbours: "
         "a connection"),
        (COPOLYMER, "place: D3 connection 2", "place: D3 ends 2",
         "claims D3 is ends 2, but the engine counts 2 enemy neighbours: a connection"),
        (COPOLYMER, "place: B3 ends 1", "place: B3 ends 0",
         "claims B3 is ends 0, but the engine counts 1 enemy neighbours: not a connection"),
        (COPOLYMER, "place: B3 ends 1", "place: B3 connection 1",
         "counts 1 enemy neighbours: not a connection"),
        (COPOLYMER, "place: B3 ends 1", "place: C3 ends 0", "O cannot place on C3: already "
         "taken by X"),
        (CO_FORCED, "place: B2 connection 3 forced", "place: B2 connection 3",
         "the example claims B2 was not forced, the engine says it was"),
        (COPOLYMER, "place: D3 connection 2", "place: D3 connection 2 forced",
         "the example claims D3 was forced, the engine says a non-connecting cell was empty"),
        (COPOLYMER, "place: D3 connection 2", "place: D3 connection 2 sparkles",
         "unexpected 'sparkles' after the claim"),
        (CO_FORCED, "place: B2 connection 3 forced", "place: B2 connection 3 forced again",
         "unexpected 'forced again' after the claim"),
        (COPOLYMER, "place: D3 connection 2", "place: D3 connects 2",
         "place needs 'CELL', 'CELL connection N' or 'CELL ends N', not 'D3 connects 2'"),
        (COPOLYMER, "place: D3 connection 2", "place: D3 connection two",
         "place needs 'CELL', 'CELL connection N' or 'CELL ends N', not 'D3 connection two'"),
        (COPOLYMER, "place: D3 connection 2", "place: D3 2", "place needs"),
        # No classification claimed: the engine classifies it, and still refuses the cell.
        (COPOLYMER, "place: D3", "place: C3", "O cannot place on C3: already taken by X"),
    ],
    # Highlights in a role the engine judges are claims about the position the panel shows
    # (docs: the diagram language, Highlights); 'tint' is the designer's own and judged by nobody.
    ("copolymer", "highlight new"): [
        (COPOLYMER + "\nplace: D3 connection 2", "highlight: new D3", "highlight: new C2",
         "highlight new C2: the engine finds it was not placed in this turn (placed: D3)")],
    ("copolymer", "highlight connection"): [
        (COPOLYMER, "highlight: connection D3", "highlight: connection A1",
         "highlight connection A1: ")],
    ("copolymer", "highlight legal"): [
        (COPOLYMER, "highlight: legal A1", "highlight: legal C3",
         "highlight legal C3: the engine rules it illegal")],
    ("copolymer", "highlight illegal"): [
        (COPOLYMER, "highlight: illegal C3", "highlight: illegal A1",
         "highlight illegal A1: the engine rules it legal for O")],
    ("o", "to-move"): [(O_BASE, "expect: to-move first", "expect: to-move second"),
                       (O_DONE, "expect: loop", "expect: to-move first")],
    ("o", "legal"): [(O_BASE, "expect: legal D6 C3", "expect: legal D6 E5"),
                     (O_CORNER, "expect: legal A2", "expect: legal A1")],
    # illegal CELL WHY: the reason must be the engine's, not any reason.
    ("o", "illegal"): [
        (O_BASE, "expect: illegal E5 k2-adjacent", "expect: illegal E5 corner"),
        (O_BASE, "expect: illegal E5 k2-adjacent", "expect: illegal E5 taken"),
        (O_BASE, "expect: illegal E5 k2-adjacent", "expect: illegal E5 k2-gap"),
        (O_BASE, "expect: illegal D4 taken", "expect: illegal D4 corner"),
        (O_BASE, "expect: illegal D4 taken", "expect: illegal D4 k0"),
        (O_BASE, "expect: illegal D4 taken", "expect: illegal D6 k0"),  # legal
        (O_CORNER, "expect: illegal A1 corner", "expect: illegal A1 k1"),
        (O_CORNER, "expect: illegal A1 corner", "expect: illegal A1 taken"),
        (O_CORNER, "expect: illegal A1 corner", "expect: illegal A2 corner"),  # legal
    ],
    ("o", "loop"): [(O_DONE, "expect: loop", "expect: stones 13\nundo: 1\nexpect: loop")],
    ("o", "over"): [(O_DONE, "expect: over", "expect: stones 13\nundo: 1\nexpect: over")],
    ("o", "winner"): [(O_DONE, "expect: winner first", "expect: winner second"),
                      (O_LOOP, "expect: to-move first", "expect: winner first")],
    ("o", "stones"): [(O_DONE, "expect: stones 13", "expect: stones 12")],
    ("o", "place"): [(O_BASE, "place: D6", "place: E5"), (O_CORNER, "place: A2", "place: A1"),
                     (O_LOOP, "place: G5", "place: G5 A1")],
    ("o", "undo"): [(O_BASE, "undo: 2", "undo: 3")],
    ("o", "highlight legal"): [(O_BASE, "highlight: legal D6", "highlight: legal E5",
                                "highlight legal E5: the engine rules it illegal: its ring "
                                "is glyph k2-adjacent")],
    ("o", "highlight illegal"): [(O_BASE, "highlight: illegal E5", "highlight: illegal D6",
                                  "highlight illegal D6: the engine rules it legal for "
                                  "First")],
    # G5 closes a loop round F4, the one cell it cuts off from the edge.
    ("o", "highlight new"): [(O_DONE, "highlight: new F4", "highlight: new E5",
                              "highlight new E5: the engine finds it is not cut off")],
    ("o", "highlight perimeter"): [(O_BASE, "highlight: perimeter A1",
                                    "highlight: perimeter D4", "it is not on the perimeter")],
    ("o", "highlight corner"): [(O_BASE, "highlight: corner A1", "highlight: corner A2",
                                 "it is not a corner")],
    ("polygone", "allowed"): [(PO_LONE, "expect: allowed b5 b7 c8 d5 d7",
                               "expect: allowed b5 b7 c8 d5")],
    ("polygone", "backwards"): [(PO_BLOCK + "\nshow: c6 about c8",
                                 "expect: backwards b7 b9 c10 d7 d9",
                                 "expect: backwards b7 b9 c10 d7"),
                                (PO_BLOCK, "expect: backwards none", "expect: backwards c4")],
    ("polygone", "blocked"): [(PO_BLOCK, "expect: blocked c4", "expect: blocked none"),
                              (PO_BLOCK, "expect: blocked c4", "expect: blocked b7")],
    ("polygone", "blocked by"): [(PO_BLOCK, "expect: blocked c4 by c6-d5 c6-b5",
                                  "expect: blocked c4 by c6-d5")],
    ("polygone", "outside"): [(PO_OUTSIDE, "expect: outside d5 e4", "expect: outside d5"),
                              (PO_LONE, "expect: outside none", "expect: outside b5")],
    ("polygone", "moves"): [(PO_LONE, "expect: moves c4-c6 5", "expect: moves c4-c6 4"),
                            ("game: polygone\nwhite: b3-a4 a2-b3\npanel: p",
                             "expect: moves b3-a4 4 lateral 1",
                             "expect: moves b3-a4 4 lateral 0")],
    ("polygone", "captures"): [(PO_TRIANGLE, "expect: captures black c4-d3",
                                "expect: captures white c4-d3"),
                               (PO_TWO, "expect: captures white c4-d5",
                                "expect: captures white d3-c4")],
    ("polygone", "no-capture"): [(PO_APEX, "expect: no-capture",
                                  FROM_START(PO_TRIANGLE) + "expect: no-capture")],
    ("polygone", "polygons"): [(PO_TWO, "expect: polygons 2", "expect: polygons 1"),
                               (PO_APEX, "expect: polygons 0", "expect: polygons 1")],
    ("polygone", "captured"): [(PO_TWO, "expect: captured white 1 black 2",
                                "expect: captured white 2 black 1")],
    ("polygone", "winner"): [(PO_APEX, "expect: winner white", "expect: winner black")],
    ("polygone", "legal"): [(PO_LONE, "expect: legal c4-c6>b5", "expect: legal c4-c6>b3")],
    ("polygone", "illegal"): [(PO_LONE, "expect: illegal c4-c6>b3", "expect: illegal c4-c6>b5")],
    ("polygone", "move"): [(PO_LONE, "move: c4-c6>b5", "move: c4-c6>b3"),
                           (PO_LONE, "move: c4-c6>b5", "move: c6-c4>b5")],
    # ghost: a line some legal move of the player to move ends on; crossed: an empty line
    # none ends on, or a piece just captured.
    ("polygone", "highlight ghost"): [
        (PO_LONE, "highlight: ghost c6-b7", "highlight: ghost c4-c6",
         "highlight ghost c4-c6: c4-c6 holds a white piece"),
        (PO_LONE, "highlight: ghost c6-b7", "highlight: ghost b3-c4",
         "highlight ghost b3-c4: the engine finds no legal move of White ends on it")],
    ("polygone", "highlight crossed"): [
        (PO_LONE, "highlight: crossed b3-c4", "highlight: crossed c6-b7",
         "highlight crossed c6-b7: the engine finds it an allowed target for White"),
        (PO_LONE, "highlight: crossed b3-c4", "highlight: crossed c4-c6",
         "highlight crossed c4-c6: c4-c6 holds a white piece, not captured"),
        (PO_TRIANGLE + "\npanel: q", "highlight: crossed c4-d3", "highlight: crossed c2-c4",
         "highlight crossed c2-c4: c2-c4 holds a white piece, not captured")],
}

def _cases() -> list[tuple[str, str, str, str, str]]:
    """(id, start, true, false, a fragment of the refusal or '')."""
    return [(f"{game} {kind} {k + 1}", *case, *("",) * (4 - len(case)))
            for (game, kind), cases in CLAIMS.items() for k, case in enumerate(cases)]


def test_every_claim_in_the_docs_has_a_true_and_a_false_case() -> None:
    text = " ".join(LANGUAGE.read_text(encoding="utf-8").split())
    listed = text[text.index("Claims: Copolymer"):text.index("Captions are written from")]
    copolymer, rest = listed.split(" O ", 1)
    o_part, polygone = rest.split(" Polygone ", 1)
    for game, part in (("copolymer", copolymer), ("o", o_part), ("polygone", polygone)):
        kinds = set()
        for claim in re.findall(r"`([^`]+)`", part):
            words = claim.split()
            if words[0] in ("corner", "taken") or words[0].endswith(":"):  # reasons, show:
                continue
            kinds.add("blocked by" if words[1:2] == ["HOLE"] and "by" in words else
                      "solved" if words[0] == "solved" else words[0])
        covered = {kind for g, kind in CLAIMS if g == game}
        assert kinds <= covered, (game, kinds - covered)
        assert len(kinds) >= {"copolymer": 8, "o": 7, "polygone": 13}[game]


def test_every_role_the_docs_say_an_engine_judges_has_a_true_and_a_false_case() -> None:
    text = LANGUAGE.read_text(encoding="utf-8")
    table = text[text.index("| game | roles the engine judges |"):]
    table = table[:table.index("\n\n")]
    judged = {}
    for row in table.splitlines()[2:]:
        game, roles = row.split("|")[1:3]
        judged[game.strip().lower()] = set(re.findall(r"`([a-z-]+)`", roles))
    assert set(judged) == {"copolymer", "o", "polygone"}, judged
    for game, roles in judged.items():
        covered = {kind.split()[1] for g, kind in CLAIMS if g == game
                   and kind.startswith("highlight ")}
        assert roles and roles == covered, (game, roles ^ covered)


@pytest.mark.parametrize(("case", "start", "true", "false", "says"), _cases(),
                         ids=[c[0] for c in _cases()])
def test_a_true_claim_passes_and_a_false_one_is_refused_at_its_line(
        tmp_path: Path, case: str, start: str, true: str, false: str, says: str) -> None:
    path = tmp_path / "claim.txt"
    path.write_text(f"{start}\n{true}\n")
    boardgen.load_diagram(path)
    text = false[1:] if false.startswith("\0") else f"{start}\n{false}"
    text = text.rstrip("\n") + "\n"
    path.write_text(text)
    with pytest.raises(boardgen.BoardgenError) as refused:
        boardgen.load_diagram(path)
    line = text.count("\n")
    assert str(refused.value).startswith(f"{path}:{line}: "), (case, str(refused.value))
    assert says in str(refused.value)


# --- directives: each one that says something checkable, stated well and stated badly --------

CO_FILE = "game: copolymer\nboard: hexhex 3\nfirst: x\nsetup: C3 B2 C2\npanel: p\nexpect: to-move o"
DRAWING = "position:\n    x . .\n   . . o .\n  . . x . .\n   . o . .\n    . . .\nend"
O_FILE = "game: o\ntitle: t\nboard: hexhex 4\nvariant: impartial\nnumbers: on\npanel: p"
PO_FILE = ("game: polygone\nwhite: c4-c6\nblack: c8-d9\nto-move: white\n"
           "captured: white 1 black 2\npanel: p")
FREE_FILE = "game: free\nboard: hexhex 4\nstone: black A1\npanel: p"
# The spec's glyph chart written out, one 'glyph: ruling' a line (13 lines).
O_CHART = ("k0: legal\nk1: legal\nk2-adjacent: illegal\nk2-gap: legal\nk2-opposite: legal\n"
           "k3-row: illegal\nk3-left: left\nk3-right: right\nk3-alternate: legal\n"
           "k4-row: illegal\nk4-gap: legal\nk4-opposite: legal\nk5: illegal\n")

# (directive, good file, bad file, the line refused)
DIRECTIVES = [
    ("game", CO_FILE, CO_FILE.replace("game: copolymer", "game: checkers"), 1),
    ("title", O_FILE, O_FILE.replace("title: t", "title: a\x07bell"), 2),
    ("notation", O_FILE.replace("title: t", "title: t\nnotation: server"),
     O_FILE.replace("title: t", "title: t\nnotation: hex"), 3),
    ("board copolymer", CO_FILE, CO_FILE.replace("hexhex 3", "rhombus 4"), 2),
    ("board o", O_FILE, O_FILE.replace("hexhex 4", "hexhex 3"), 3),
    ("board words", O_FILE, O_FILE.replace("hexhex 4", "hexhex"), 3),
    ("first", CO_FILE, CO_FILE.replace("first: x", "first: z"), 3),
    ("source", CO_FILE.replace("first: x", "first: x\nsource: the club's game"),
     CO_FILE.replace("first: x", "first: x\nsource:  "), 4),
    ("setup copolymer", CO_FILE, CO_FILE.replace("C3 B2 C2", "C3 B2 B2"), 4),
    ("setup o", O_FILE.replace("panel: p", "setup: D4 D5\npanel: p"),
     O_FILE.replace("panel: p", "setup: D4 E5 D5\npanel: p"), 6),
    ("position", "game: copolymer\nboard: hexhex 3\nfirst: o\n" + DRAWING + "\npanel: p",
     "game: copolymer\nboard: hexhex 3\nfirst: o\n" + DRAWING.replace("    . . .\n", "")
     + "\npanel: p", 4),
    # An unclosed block is reported where it opens, not as a file without panels.
    ("position end", "game: copolymer\nboard: hexhex 3\nfirst: o\n" + DRAWING + "\npanel: p",
     "game: copolymer\nboard: hexhex 3\nfirst: o\n" + DRAWING.replace("\nend", "")
     + "\npanel: p\nexpect: to-move o", 4),
    ("variant", O_FILE, O_FILE.replace("variant: impartial", "variant: chaotic"), 4),
    ("numbers", O_FILE, O_FILE.replace("numbers: on", "numbers: maybe"), 5),
    ("white", PO_FILE, PO_FILE.replace("white: c4-c6", "white: c4-c9"), 2),
    ("black", PO_FILE, PO_FILE.replace("black: c8-d9", "black: c8-d8"), 3),
    ("to-move", PO_FILE, PO_FILE.replace("to-move: white", "to-move: red"), 4),
    ("captured", PO_FILE, PO_FILE.replace("white 1 black 2", "white one black 2"), 5),
    ("captured count", PO_FILE, PO_FILE.replace("white 1 black 2", "white 12 black 2"), 2),
    ("line", CO_FILE + "\nline: again\npanel: q\nexpect: to-move o",
     CO_FILE + "\nplace: D3 connection 2\nline: again\npanel: q\nexpect: turn-continues", 10),
    # A panel's directive before the first panel: it has no panel to belong to.
    ("panel", CO_FILE, CO_FILE.replace("panel: p\n", "place: D3 connection 2\npanel: p\n"), 5),
    ("show o", O_FILE + "\nshow: E5 D6", O_FILE + "\nshow: E5 Z6", 7),
    ("show polygone", PO_FILE + "\nshow: c4 about c6", PO_FILE + "\nshow: c8 about c6", 7),
    ("number", PO_FILE + "\nnumber: c4-c6 12", PO_FILE + "\nnumber: c4-c6 1234", 7),
    ("expect", CO_FILE, CO_FILE.replace("to-move o", "sparkles"), 6),
    ("note", CO_FILE + "\nnote: a word", CO_FILE + "\nnote: a\x1b[31m word", 7),
    ("caption", CO_FILE + "\ncaption: mine", CO_FILE + "\ncaption: \x00", 7),
    ("arrow", CO_FILE + "\narrow: A1 B2", CO_FILE + "\narrow: A1 Z2", 7),
    ("arrow polygone", PO_FILE + "\narrow: c4 c8", PO_FILE + "\narrow: c4 c88", 7),
    ("mark", O_FILE + "\nmark: A1 ring", O_FILE + "\nmark: A1 glow", 7),
    ("mark text", O_FILE + "\nmark: A1 text 12", O_FILE + "\nmark: A1 text 1234", 7),
    ("highlight", O_FILE + "\nhighlight: corner A1", O_FILE + "\nhighlight: gold A1", 7),
    ("highlight polygone", PO_FILE + "\nhighlight: ghost c6-b7",
     PO_FILE + "\nhighlight: ghost c4-c7", 7),
    ("highlight tint", O_FILE + "\nhighlight: tint A1 D4", O_FILE + "\nhighlight: tint Z9", 7),
    # O's own glyph chart, in the file: each 'glyph: ruling' line checked at its line.
    ("glyphs", O_FILE.replace("panel: p", f"glyphs:\n{O_CHART}end\npanel: p"),
     O_FILE.replace("panel: p", f"glyphs:\n{O_CHART.replace('k1: legal', 'k1: maybe')}"
                    "end\npanel: p"), 8),
    ("glyph", O_FILE.replace("panel: p", f"glyphs:\n{O_CHART}end\npanel: p"),
     O_FILE.replace("panel: p", f"glyphs:\n{O_CHART}k9: legal\nend\npanel: p"), 20),
    ("glyphs twice", O_FILE.replace("panel: p", f"glyphs:\n{O_CHART}end\npanel: p"),
     O_FILE.replace("panel: p", f"glyphs:\n{O_CHART}end\nglyphs:\n{O_CHART}end\npanel: p"),
     21),
    ("board free", FREE_FILE, FREE_FILE.replace("hexhex 4", "hexhex x"), 2),
    ("board free drawn", FREE_FILE.replace("board: hexhex 4", "board:\n . .\n. . .\nend")
     .replace("A1", "B2"), FREE_FILE.replace("board: hexhex 4", "board:\nend"), 2),
    ("stone", FREE_FILE + "\nstone: red B2 C3", FREE_FILE + "\nstone: green B2", 5),
    ("stone cell", FREE_FILE + "\nstone: blue B2", FREE_FILE + "\nstone: blue Z9", 5),
    ("remove", FREE_FILE + "\nremove: A1", FREE_FILE + "\nremove: Z9", 5),
    ("replace", FREE_FILE + "\nreplace: white A1", FREE_FILE + "\nreplace: white B2", 5),
    ("stone onto a stone", FREE_FILE + "\nstone: red B2", FREE_FILE + "\nstone: red A1", 5),
    ("expect free", FREE_FILE, FREE_FILE + "\nexpect: winner black", 5),
]


@pytest.mark.parametrize(("good", "bad", "line"), [d[1:] for d in DIRECTIVES],
                         ids=[d[0] for d in DIRECTIVES])
def test_a_directive_stated_well_passes_and_badly_is_refused_at_its_line(
        tmp_path: Path, good: str, bad: str, line: int) -> None:
    path = tmp_path / "directive.txt"
    path.write_text(good + "\n")
    boardgen.load_diagram(path)
    path.write_text(bad + "\n")
    with pytest.raises(boardgen.BoardgenError) as refused:
        boardgen.load_diagram(path)
    assert str(refused.value).startswith(f"{path}:{line}: "), str(refused.value)


def test_every_directive_of_the_docs_table_is_tried() -> None:
    text = LANGUAGE.read_text(encoding="utf-8")
    table = text[text.index("| directive | games | meaning |"):text.index("Claims: Copolymer")]
    keys = set(re.findall(r"`([a-z-]+):", table))
    tried = {d[0].split()[0] for d in DIRECTIVES} | {kind for _, kind in CLAIMS}
    assert keys, table
    assert keys <= tried | {"place", "undo", "move"}, keys - tried
    assert {"place", "undo", "move"} <= {kind for _, kind in CLAIMS}
