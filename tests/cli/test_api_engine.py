"""boardgen.engine(): random play-outs through the public handle, move strings in and out,
against the naive engines written from the spec alone (bench/naive_engines.py)."""

from __future__ import annotations

import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from naive_engines import NaiveCopolymer, NaiveO, NaivePolygone

import boardgen
from boardgen.geometry import Notation, hexhex

SETTINGS = {"deadline": None, "derandomize": True}


def naive_cell(notation: Notation, name: str) -> object:
    return notation.parse(name)  # the names' meaning is the geometry's, tested on its own


@settings(max_examples=40, **SETTINGS)  # type: ignore[arg-type]
@given(side=st.integers(2, 5), first=st.sampled_from(["x", "o"]), seed=st.integers(0, 10**6))
def test_copolymer_play_outs_through_the_handle_agree_with_the_naive_engine(
        side: int, first: str, seed: int) -> None:
    game = boardgen.engine("copolymer", side=side, first=first)
    grid = hexhex(side)
    naive, notation = NaiveCopolymer(grid, first=first), Notation(grid)
    rng = random.Random(seed)
    for _ in range(len(grid) + 1):
        assert game.over == naive.over
        if game.over:
            break
        legal = game.legal_moves()
        assert sorted(naive_cell(notation, m) for m in legal) == sorted(naive.empty_cells())
        assert game.to_move == naive.to_move
        move = game.random_legal(rng)
        assert move in legal
        game.play(move)
        naive.place(naive_cell(notation, move))
    assert game.over, "a game that does not end once the board is full"
    assert len(game.moves) == len(grid)
    assert game.winner == naive.winner and game.to_move is None and game.legal_moves() == ()
    assert game.to_json()["winner"] == naive.winner


@settings(max_examples=30, **SETTINGS)  # type: ignore[arg-type]
@given(side=st.integers(4, 5), seed=st.integers(0, 10**6))
def test_o_play_outs_through_the_handle_agree_with_the_naive_engine(side: int,
                                                                    seed: int) -> None:
    game = boardgen.engine("o", side=side)
    grid = hexhex(side)
    naive, notation = NaiveO(grid), Notation(grid)
    rng = random.Random(seed)
    for _ in range(len(grid) + 1):  # a stone a move, never on a stone: the board bounds it
        assert game.over == naive.over
        if game.over:
            break
        assert {naive_cell(notation, m) for m in game.legal_moves()} == set(naive.legal())
        assert game.to_move == naive.to_move
        move = game.random_legal(rng)
        game.play(move)
        naive.place(naive_cell(notation, move))
    assert game.over
    assert game.winner == naive.winner
    assert {naive_cell(notation, m) for m in game.to_json()["loop"]} == set(naive.loop)  # type: ignore[attr-defined]


_POLYGONE_MOVE = re.compile(r"^([a-e])(\d+)-([a-e])(\d+)>([a-e])(\d+)$")


def holes(move: str) -> tuple[tuple[int, int], ...]:
    """moving-pivot>target as (row across, level) pairs, rows a..e being -2..2."""
    m = _POLYGONE_MOVE.match(move)
    assert m, move
    parts = m.groups()
    return tuple(("abcde".index(parts[k]) - 2, int(parts[k + 1])) for k in (0, 2, 4))


@settings(max_examples=4, **SETTINGS)  # type: ignore[arg-type]
@given(seed=st.integers(0, 10**6))
def test_polygone_play_outs_through_the_handle_agree_with_the_naive_engine(seed: int) -> None:
    game, naive = boardgen.engine("polygone"), NaivePolygone()
    rng = random.Random(seed)
    for _ in range(2000):
        assert game.over == naive.over
        if game.over:
            break
        assert sorted(holes(m) for m in game.legal_moves()) == naive.moves()
        assert game.to_move == naive.to_move
        move = game.random_legal(rng)
        game.play(move)
        naive.play(*holes(move))
    assert game.over, "a game that does not end in 2000 moves"
    assert game.winner == naive.winner and game.to_json()["captured"] == naive.captured


@settings(max_examples=25, **SETTINGS)  # type: ignore[arg-type]
@given(game=st.sampled_from([("copolymer", {"side": 4}), ("o", {"side": 5}),
                             ("o", {"side": 4, "partisan": True}), ("polygone", {})]),
       seed=st.integers(0, 10**6))
def test_random_legal_is_reproducible_from_a_seed_and_copies_are_independent(
        game: tuple[str, dict[str, object]], seed: int) -> None:
    name, options = game

    def play_out(rng: random.Random, limit: int = 60) -> list[str]:
        handle = boardgen.engine(name, **options)  # type: ignore[arg-type]
        while not handle.over and len(handle.moves) < limit:
            handle.play(handle.random_legal(rng))
        return handle.moves

    first = play_out(random.Random(seed))
    assert first == play_out(random.Random(seed))
    assert first  # every game has a first move
    # A copy replays the same position and then goes its own way.
    handle = boardgen.engine(name, **options)  # type: ignore[arg-type]
    for move in first[:5]:
        handle.play(move)
    twin = handle.copy()
    assert twin.to_json() == handle.to_json() and twin.moves == handle.moves
    if not twin.over:
        twin.play(twin.legal_moves()[0])
        assert len(handle.moves) == min(5, len(first)) and twin.to_json() != handle.to_json()


def test_a_refused_move_changes_nothing_and_says_why() -> None:
    game = boardgen.engine("o", side=4)
    game.play("D4")
    before = game.to_json()
    with pytest.raises(boardgen.BoardgenError, match="move 2 .D4.: there is a stone there"):
        game.play("D4")
    with pytest.raises(boardgen.BoardgenError, match="move: expected text"):
        game.play(None)  # type: ignore[arg-type]
    assert game.to_json() == before and game.moves == ("D4",)
    with pytest.raises(boardgen.BoardgenError, match="rng: expected a random.Random"):
        game.random_legal(3)  # type: ignore[arg-type]


def test_a_finished_game_has_no_random_move() -> None:
    game = boardgen.engine("copolymer", side=2)
    while not game.over:
        game.play(game.legal_moves()[0])
    assert game.winner in ("x", "o") and game.to_move is None
    with pytest.raises(boardgen.BoardgenError, match="the game is over"):
        game.random_legal(random.Random(1))


def test_the_handle_draws_and_takes_the_play_options() -> None:
    game = boardgen.engine("copolymer", preset="small", first="o")
    assert game.to_move == "o" and len(game.legal_moves()) == 61
    game.play("E5")
    svg = boardgen.draw(game, "svg")
    assert svg.count('class="cell') >= 61
    assert boardgen.draw(game.position, "svg") == svg
    with pytest.raises(boardgen.BoardgenError, match="^first applies to Copolymer, not O"):
        boardgen.engine("o", first="x")
