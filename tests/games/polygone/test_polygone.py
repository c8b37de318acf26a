"""Polygone: the lattice, move generation, polygons and captures, and random play-outs."""

from __future__ import annotations

import io
import json
import random
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import ROOT, Run
from naive_engines import naive_polygone_moves
from pypdf import PdfReader

from boardgen.errors import BoardgenError
from boardgen.games.polygone.directives import load_polygone_example
from boardgen.games.polygone.engine import (
    CAPTURES_TO_WIN,
    PIECES_EACH,
    START,
    Move,
    Polygone,
    parse_move,
    polygons,
    position_json,
)
from boardgen.games.script import ExampleError
from boardgen.geometry.lattice import (
    HOLES,
    LINES,
    ROW_LEVELS,
    TRIANGLES,
    hole_name,
    line_name,
    parse_hole,
    parse_line,
)

RunCli = Callable[..., Run]


def game_with(white: str = "", black: str = "", to_move: str = "white",
              captured: dict[str, int] | None = None) -> Polygone:
    pieces = {parse_line(n): "white" for n in white.split()}
    pieces.update({parse_line(n): "black" for n in black.split()})
    return Polygone(pieces, to_move, captured)


def targets(game: Polygone, moving: str, pivot: str) -> set[str]:
    return {hole_name(m.target) for m in game.legal_moves()
            if hole_name(m.moving) == moving and hole_name(m.pivot) == pivot}


def test_lattice_counts() -> None:
    assert (len(HOLES), len(LINES), len(TRIANGLES)) == (24, 55, 32)
    assert [len(levels) for levels in ROW_LEVELS.values()] == [4, 5, 6, 5, 4]
    for hole in HOLES:
        assert parse_hole(hole_name(hole)) == hole
    for ln in LINES:
        assert parse_line(line_name(ln)) == ln
    with pytest.raises(BoardgenError):
        parse_hole("c1")  # no hole at row c, level 1
    with pytest.raises(BoardgenError):
        parse_line("c0-c4")  # not neighbours


def test_start_position() -> None:
    game = Polygone()
    colours = list(START.values())
    assert colours.count("white") == colours.count("black") == PIECES_EACH
    assert all(ln[0].h <= 4 and ln[1].h <= 4 for ln, c in START.items() if c == "white")
    assert all(ln[0].h >= 6 and ln[1].h >= 6 for ln, c in START.items() if c == "black")
    # Two one-colour pentagons per side, which capture nothing.
    assert len(game.polygons) == 4 and all(len(p) == 5 for p in game.polygons)
    assert game.to_move == "white" and game.legal_moves()


def test_a_lone_piece_swings_forward_only() -> None:
    game = game_with("c4-c6")
    assert targets(game, "c4", "c6") == {"b5", "b7", "c8", "d5", "d7"}
    assert targets(game, "c6", "c4") == set()  # every end about c4 is lower than 6
    black = game_with(black="c4-c6", to_move="black")
    assert targets(black, "c6", "c4") == {"b3", "b5", "c2", "d3", "d5"}


def test_lateral_moves_keep_the_level() -> None:
    game = game_with("b3-c4")
    assert targets(game, "b3", "c4") == {"b5", "c6", "d5", "d3"}  # d3: same level, lateral
    black = game_with(black="d5-c6", to_move="black")
    assert targets(black, "d5", "c6") == {"b5", "c4"}  # b5: level 5 like d5, lateral


def test_blocking_at_the_pivot_either_way_round() -> None:
    game = game_with("c4-c6", black="c6-d7")
    assert targets(game, "c4", "c6") == {"b5", "b7", "c8", "d5"}  # c8 the other way round
    both = game_with("c4-c6", black="c6-d7 c6-b7")
    assert targets(both, "c4", "c6") == {"b5", "d5"}
    assert both.why_illegal(parse_move("c4-c6>c8")) == \
        "blocked both ways round by pieces at the pivot"
    # Pieces that do not touch the pivot never block.
    far = game_with("c4-c6", black="d7-d9 b7-b9")
    assert targets(far, "c4", "c6") == {"b5", "b7", "c8", "d5", "d7"}


def test_going_round_the_outside() -> None:
    game = game_with("a2-a4 a4-b3")
    # The short way from a2 to a6 about a4 passes b3 (taken); the long way passes two
    # directions off the board, which are no obstacle.
    assert targets(game, "a2", "a4") == {"a6", "b5"}


def test_triangle_capture() -> None:
    game = game_with("c2-c4 b1-c2", black="c4-d3")
    turn = game.play(parse_move("b1-c2>d3"))
    (capture,) = turn.captures
    assert capture.captor == "white" and capture.removed == (parse_line("c4-d3"),)
    assert game.captured == {"white": 0, "black": 1} and parse_line("c4-d3") not in game.pieces


def test_polygon_with_a_piece_inside_is_no_polygon() -> None:
    hexagon = [parse_line(n) for n in "c2-c4 c4-d5 d5-e4 e4-e2 e2-d1 d1-c2".split()]
    assert polygons(hexagon) == {frozenset(hexagon)}  # six triangles round d3
    # A piece from the centre to a corner sticks into the interior: no polygon at all.
    assert polygons([*hexagon, parse_line("d3-c4")]) == set()
    # A twelve-sided ring round c6, and a piece floating inside it touching nothing.
    ring = "c2 d3 e4 e6 e8 d9 c10 b9 a8 a6 a4 b3".split()
    twelve = [parse_line(f"{a}-{b}") for a, b in zip(ring, ring[1:] + ring[:1], strict=True)]
    assert polygons(twelve) == {frozenset(twelve)}
    assert polygons([*twelve, parse_line("c6-d7")]) == set()


def test_ties_and_one_colour_polygons_capture_nothing() -> None:
    tie = game_with("c2-c4 c0-c2", black="d1-d3 d3-c4")
    turn = tie.play(parse_move("c0-c2>d1"))
    assert len(turn.polygons) == 1 and turn.captures == []
    one_colour = game_with("c2-c4 b1-c2 c4-d3")
    turn = one_colour.play(parse_move("b1-c2>d3"))
    assert len(turn.polygons) == 1 and turn.captures == []


def test_illegal_moves_say_why() -> None:
    game = Polygone()
    cases = {
        "c4-c6>c8": "no piece on c4-c6",
        "c8-c10>d9": "is black, and white is to move",
        "c2-c0>b1": "is taken",
        "c0-c2>c4": "is taken",
    }
    for text, reason in cases.items():
        message = game.why_illegal(parse_move(text))
        assert message is not None and reason in message, (text, message)
    with pytest.raises(BoardgenError, match="not a move"):
        parse_move("c0 to c2")


def test_move_notation_round_trip() -> None:
    for move in Polygone().legal_moves():
        assert parse_move(move.notation()) == move
    long_form = parse_move("b1 c2 -> d3")
    assert long_form.notation() == "b1-c2>d3"
    assert parse_move("b1-c2>d3/2,1").order == (2, 1)


def naive_view(game: Polygone) -> dict[frozenset[tuple[int, int]], str]:
    return {frozenset((a.c, a.h) for a in ln): colour for ln, colour in game.pieces.items()}


def test_legal_moves_agree_with_a_naive_generator_in_random_games() -> None:
    for seed in range(150):
        rng = random.Random(seed)
        game = Polygone()
        while not game.over:
            legal = game.legal_moves()
            mine = {((m.moving.c, m.moving.h), (m.pivot.c, m.pivot.h),
                     (m.target.c, m.target.h)) for m in legal}
            assert mine == naive_polygone_moves(naive_view(game), game.to_move)
            game.play(rng.choice(legal))


@pytest.mark.parametrize("seed_base", [0, 1000])
def test_random_play_outs_keep_the_invariants(seed_base: int) -> None:
    lengths = []
    for seed in range(seed_base, seed_base + 1000):
        rng = random.Random(seed)
        game = Polygone()
        moves = 0
        while not game.over:
            legal = game.legal_moves()
            assert legal
            move = rng.choice(legal)
            mover = game.to_move
            # Never backwards, in plain numbers: White's levels rise, Black's fall.
            assert move.target.h >= move.moving.h if mover == "white" else \
                move.target.h <= move.moving.h
            before = dict(game.pieces)
            turn = game.play(move)
            moves += 1
            assert moves < 2000, "a game that does not end"
            for colour in ("white", "black"):
                on_board = sum(1 for c in game.pieces.values() if c == colour)
                assert on_board + game.captured[colour] == PIECES_EACH  # conservation
            for capture in turn.captures:
                on_cycle = [before.get(ln) or (mover if ln == move.new_line else None)
                            for ln in capture.polygon]
                assert all(on_cycle)
                assert on_cycle.count(capture.captor) * 2 > len(capture.polygon)
                assert all(ln in capture.polygon for ln in capture.removed)
            assert all(ln in LINES for ln in game.pieces)
        assert game.winner in ("white", "black") and game.result
        if game.result.startswith("captured"):
            loser = "black" if game.winner == "white" else "white"
            assert game.captured[loser] >= CAPTURES_TO_WIN
        lengths.append(moves)
    assert max(lengths) < 2000


# --- pictures and the command line ---------------------------------------------------------

PICTURES = sorted(p for p in (ROOT / "templates" / "polygone").glob("*.txt")
                  if "." not in p.stem)  # not the translations, NAME.fr.txt


def test_ten_pictures_exist_and_replay() -> None:
    assert len(PICTURES) == 10
    for path in PICTURES:
        example = load_polygone_example(path)
        # Every panel says something: its label, or the engine's words (a panel after a
        # move may be labelled alone: the move is told under its own panel).
        assert example.panels and all(p.label or " ".join(p.caption) for p in example.panels)


def test_picture_10_order_matters_both_ways() -> None:
    example = {p.stem: p for p in PICTURES}["10-two-polygons"]
    text = example.read_text()
    white = next(ln for ln in text.splitlines() if ln.startswith("white:")).split()[1:]
    black = next(ln for ln in text.splitlines() if ln.startswith("black:")).split()[1:]
    outcomes = {}
    for order in ((1, 2), (2, 1)):
        game = game_with(" ".join(white), " ".join(black))
        move = parse_move("d3-d5>c4")
        game.play(Move(move.pivot, move.moving, move.target, order))
        outcomes[order] = dict(game.captured)
    assert outcomes[(2, 1)] == {"white": 1, "black": 2}
    assert outcomes[(1, 2)] == {"white": 3, "black": 0}  # the note in the picture


# --- winning (shared/spec/polygone.md, Winning) ------------------------------------------
# Each outcome below is worked by hand from the spec, not read off the engine.


def test_the_seventh_capture_ends_the_turn_even_when_the_opponent_makes_it() -> None:
    # White swings b5 about c6 to b7.  Two polygons close: the square b5-b7-c6-c4 (all
    # white, nothing happens) and the triangle c6-b7-c8 (black c6-c8 and b7-c8 against the
    # new white c6-b7: Black takes it).  That removal empties the pentagon
    # b5-b7-c8-c6-c4, three white against two black, in which White would take both.
    # Black has already taken 6 white pieces, so the triangle is Black's seventh capture:
    # Black wins there and the pentagon is never resolved.
    game = game_with("b5-b7 b5-c6 c4-b5 c4-c6", "b7-c8 c6-c8",
                     captured={"white": 6, "black": 5})
    turn = game.play(parse_move("b5-c6>b7"))
    assert game.over and game.winner == "black"
    assert game.captured == {"white": 7, "black": 5}
    assert [c.captor for c in turn.captures] == ["black"]
    assert game.pieces[parse_line("b7-c8")] == game.pieces[parse_line("c6-c8")] == "black"
    data = position_json(game)
    assert (data["over"], data["winner"], data["to_move"]) == (True, "black", None)
    assert data["captured"] == {"white": 7, "black": 5} and data["legal"] == []
    # With fewer captures behind them the chain runs to its end and nobody wins (a far
    # black piece keeps Black able to move).
    early = game_with("b5-b7 b5-c6 c4-b5 c4-c6", "b7-c8 c6-c8 e2-e4")
    turn = early.play(parse_move("b5-c6>b7"))
    assert [c.captor for c in turn.captures] == ["black", "white"]
    assert early.captured == {"white": 1, "black": 2}
    assert not early.over and early.to_move == "black"


def test_the_movers_order_decides_who_reaches_seven() -> None:
    # Picture 10's position.  Resolved 2,1: White's hexagon takes d3-e4 and e4-e6, then
    # Black's triangle c4-c6-d5 takes the moved piece c4-d5.  Resolved 1,2: the triangle
    # takes c4-d5 first, which breaks White's hexagon and empties a larger one round d4 in
    # which Black's four pieces take d3-c4 and d5-e6.  White has lost 6 and Black 5, so
    # whoever captures first this turn wins there.
    white = "b5-c6 d3-c4 d3-d5 d5-e6 e2-d3"
    black = "c4-c6 d3-e4 d5-c6 e4-e6"
    captured = {"white": 6, "black": 5}
    first = game_with(white, black, captured=captured)
    first.play(parse_move("d3-d5>c4/2,1"))
    assert first.over and first.winner == "white"
    assert first.captured == {"white": 6, "black": 7}  # Black's capture never happens
    assert first.pieces[parse_line("c4-d5")] == "white"
    second = game_with(white, black, captured=captured)
    second.play(parse_move("d3-d5>c4/1,2"))
    assert second.over and second.winner == "black"  # the mover loses in his own turn
    assert second.captured == {"white": 7, "black": 5}
    assert second.pieces[parse_line("d3-c4")] == "white"  # the cascade never happens


def test_an_apex_arrival_that_is_captured_does_not_win() -> None:
    # White swings d7 about d9 onto c10, Black's home apex.  The triangle c10-d9-c8 closes:
    # black c8-d9 and c8-c10 against the arriving white d9-c10, so Black takes it.
    game = game_with("d7-d9", "c8-d9 c8-c10")
    turn = game.play(parse_move("d7-d9>c10"))
    assert [c.captor for c in turn.captures] == ["black"]
    assert not game.over and game.winner is None
    assert game.to_move == "black" and game.legal_moves()
    assert game.captured == {"white": 1, "black": 0}


def test_an_apex_arrival_that_survives_wins() -> None:
    # The same swing with only one black piece at c8: no triangle, the piece stays.
    game = game_with("d7-d9", "c8-c10")
    game.play(parse_move("d7-d9>c10"))
    assert game.over and game.winner == "white" and game.result == "reached the opposite apex"
    black = game_with("", "d3-d1 b5-b7", to_move="black")
    black.play(parse_move("d3-d1>c0"))
    assert black.over and black.winner == "black"


def test_a_wrong_picture_claim_fails_with_file_and_line(tmp_path: Path) -> None:
    broken = tmp_path / "bad.txt"
    broken.write_text("white: b3-c4\npanel: one\nshow: b3 about c4\nexpect: allowed c2\n")
    with pytest.raises(ExampleError, match=r"bad.txt:4: the example expects allowed c2, "
                                           r"the engine finds b5 c6 d3 d5"):
        load_polygone_example(broken)


PICTURE_DIR = ROOT / "templates" / "polygone"


@pytest.mark.parametrize(("picture", "old", "new", "message"), [
    # The first reconstruction of picture 3: piece 2 on c6-d7 leaves piece 1 one move.
    ("03-blocking", "black: c6-c8 c6-d5", "black: c6-c8 c6-d7", "expects allowed b7 d7"),
    ("03-blocking", "moves c6-c8 2", "moves c6-c8 1", "expects c6-c8 to have 1 moves, the "
     "engine finds 2 moves (c8-c6>b7 c8-c6>d7)"),
    ("03-blocking", "by c6-d5 c6-b5", "by c6-d5", "blocked by d5-c6, the engine finds "
     "b5-c6 d5-c6"),
    # Without piece 2, a2 is one more crossed target about b3.
    ("04-lateral", "white: b3-a4 a2-b3", "white: b3-a4", "expects backwards b1 c2, the engine "
     "finds a2 b1 c2"),
    ("04-lateral", "4 lateral 1", "4 lateral 2", "expects b3-a4 to have 4 moves, 2 lateral, "
     "the engine finds 4 moves, 1 lateral"),
    ("05-outside", "outside d5 e4", "outside e4", "expects e4 reached only round the outside, "
     "the engine finds d5 e4"),
    ("05-outside", "black: e6-e8 e6-d7", "black: e6-e8", "expects allowed d5 e4"),
    ("02-targets", "moves c4-d5 6", "moves c4-d5 4", "the engine finds 6 moves"),
])
def test_pictures_hold_the_seeds_counts(tmp_path: Path, picture: str, old: str, new: str,
                                        message: str) -> None:
    text = (PICTURE_DIR / f"{picture}.txt").read_text()
    assert old in text
    wrong = tmp_path / f"{picture}.txt"
    wrong.write_text(text.replace(old, new))
    with pytest.raises(ExampleError, match=re.escape(message)) as caught:
        load_polygone_example(wrong)
    assert str(caught.value).startswith(f"{wrong}:")


def test_cli_play_polygone(run_cli: RunCli) -> None:
    result = run_cli("play", "polygone", "--moves", "c0-c2>d1 c10-c8>b9", "--json")
    assert result.code == 0, result.err
    data = json.loads(result.out)
    assert list(data) == ["to_move", "pieces", "captured", "legal", "over", "winner"]
    assert data["to_move"] == "white" and data["pieces"]["d1-c2"] == "white"
    assert data["captured"] == {"white": 0, "black": 0} and data["legal"]
    start = run_cli("play", "polygone", "--moves", "", "--json")
    assert len(json.loads(start.out)["pieces"]) == 24
    bad = run_cli("play", "polygone", "--moves", "c0-c2>d1 c0-c2>b1")
    assert bad.code == 2 and "move 2 (c0-c2>b1): no piece on c0-c2" in bad.err
    wrong = run_cli("play", "polygone", "--side", "5")
    assert wrong.code == 2 and "--side does not apply to Polygone" in wrong.err


def test_cli_polygone_board_and_pieces(run_cli: RunCli, tmp_path: Path) -> None:
    out = tmp_path / "board.pdf"
    result = run_cli("board", "polygone", "-o", str(out))
    assert result.code == 0, result.err
    reader = PdfReader(io.BytesIO(out.read_bytes()))
    assert len(reader.pages) == 2  # the board, and the pieces to cut out
    assert "reconstruction" in reader.pages[0].extract_text()
    assert "12 white and 12 black" in reader.pages[1].extract_text()
    svg = tmp_path / "board.svg"
    assert run_cli("board", "polygone", "--cell-mm", "30", "-o", str(svg)).code == 0
    too_big = run_cli("board", "polygone", "--cell-mm", "120", "-o", str(tmp_path / "x.pdf"))
    assert too_big.code == 2 and "does not fit" in too_big.err


@pytest.mark.parametrize(("text", "expected"), [
    ("", "sets up nothing"),
    ("# a comment and nothing else\n", "sets up nothing"),
    ("to-move: black\nto-move: white\n", "line 2: 'to-move:' again (first on line 1)"),
    ("captured: white 1 black 0\nwhite: c4-c6\ncaptured: white 0 black 0\n",
     "line 3: 'captured:' again (first on line 1)"),
])
def test_a_start_that_sets_up_nothing_or_says_a_thing_twice_is_refused(
        text: str, expected: str) -> None:
    from boardgen.games.polygone.directives import start_position

    with pytest.raises(BoardgenError) as refused:
        start_position(text, "start.txt")
    assert expected in str(refused.value)


def test_a_start_with_each_header_once_still_reads() -> None:
    from boardgen.games.polygone.directives import start_position

    game = start_position("white: c4-c6\nblack: d7-d9\nto-move: black\n", "start.txt")
    assert game.to_move == "black"
