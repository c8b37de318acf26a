"""A Polygone position whose side to move has no legal move is over, the other side the
winner (our ruling, spec/polygone.md): a set-up start as well as a position reached by play,
in the engine, the API, ``play --json`` and the picture alike.  And an error about a move
quotes at most 16 characters of it, however long it was.

The oracle for "no legal move" is bench/naive_engines.py's generator, written from the spec
alone."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from conftest import Run
from hypothesis import given, settings
from hypothesis import strategies as st
from naive_engines import naive_polygone_moves

import boardgen
from boardgen.errors import BoardgenError
from boardgen.games.polygone.engine import Polygone
from boardgen.geometry.lattice import LINES

NO_WHITE_MOVE = "white:\nblack: c6-c8\n"


def naive_view(pieces: dict[tuple[object, object], str]) -> dict[frozenset[tuple[int, int]],
                                                                 str]:
    return {frozenset((end.c, end.h) for end in ln): colour  # type: ignore[attr-defined]
            for ln, colour in pieces.items()}


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(range(len(LINES))), max_size=24, unique=True),
       st.integers(0, 12), st.sampled_from(["white", "black"]))
def test_a_start_without_a_move_is_lost_by_the_side_to_move(chosen: list[int], whites: int,
                                                            to_move: str) -> None:
    black_lines = chosen[whites:][:12]
    pieces = {LINES[k]: "white" for k in chosen[:whites]}
    pieces.update({LINES[k]: "black" for k in black_lines})
    game = Polygone(pieces, to_move)
    stuck = not naive_polygone_moves(naive_view(dict(pieces)), to_move)  # type: ignore[arg-type]
    assert game.over == stuck
    if stuck:
        assert game.winner == ("black" if to_move == "white" else "white")
        assert game.legal_moves() == []
        with pytest.raises(BoardgenError):
            game.random_move(random.Random(1))
    else:
        assert game.winner is None and game.legal_moves()


@pytest.mark.parametrize("start, winner", [
    (NO_WHITE_MOVE, "black"),
    ("white:\nblack:\n", "black"),
    ("white: c2-c4\nblack:\nto-move: black\n", "white"),
])
def test_the_api_says_the_game_is_over(start: str, winner: str) -> None:
    game = boardgen.engine("polygone", start=start)
    assert game.over and game.winner == winner and game.to_move is None
    assert game.legal_moves() == ()
    with pytest.raises(BoardgenError):
        game.random_legal(random.Random(1))
    with pytest.raises(BoardgenError, match="over"):
        game.push("c6-c8>d7")
    state = game.to_json()
    assert state["over"] is True and state["winner"] == winner


def test_play_json_and_the_picture_agree(run_cli, in_tmp: Path) -> None:  # type: ignore[no-untyped-def]
    (in_tmp / "p.txt").write_text(NO_WHITE_MOVE, encoding="utf-8")
    result: Run = run_cli("play", "polygone", "--start", "p.txt", "--json")
    assert result.code == 0, result.err
    state = json.loads(result.out)
    assert (state["over"], state["winner"], state["to_move"], state["legal"]) == \
        (True, "black", None, [])
    text = run_cli("play", "polygone", "--start", "p.txt")
    assert "Black wins: white cannot move" in text.out
    svg = boardgen.draw(boardgen.engine("polygone", start=NO_WHITE_MOVE).position, "svg")
    assert "Black wins" in svg or "black wins" in svg.lower()


@pytest.mark.parametrize("move", [
    "A" * 10_000_000,
    "c0-c2>" + "d" * 1_000_000,
    "c0-c2>d1/" + ",".join(["2"] * 100_000),
])
def test_an_error_quotes_at_most_16_characters_of_the_move(move: str) -> None:
    with pytest.raises(BoardgenError) as caught:
        boardgen.engine("polygone").push(move)
    shown = str(caught.value)
    assert len(shown) < 300, len(shown)
    # After the API's "move 1 (...)": the engine's own words.
    said = shown.split("): ", 1)[1]
    assert move[:17] not in said and "..." in said
    assert move[:16] in said or move[9:25] in said  # the move, or its order
