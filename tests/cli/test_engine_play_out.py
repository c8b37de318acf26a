"""``Engine.play_out(rng)``: the game played out at random is, move for move, what
``push(random_legal(rng))`` until the game is over plays, for every game (Copolymer's own
fast play-out included), from any position, with pop taking each move back after."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import boardgen

GAMES = {"copolymer": {"side": 4}, "o": {"side": 4}, "polygone": {},
         "free": {"side": 3}, "copolymer-first-o": {"side": 3, "first": "o"}}


def made(game: str) -> boardgen.Engine:
    return boardgen.engine(game.split("-")[0], **GAMES[game])  # type: ignore[arg-type]


def looped(engine: boardgen.Engine, rng: random.Random) -> str | None:
    while not engine.over:
        engine.push(engine.random_legal(rng))
    return engine.winner


def seen(engine: boardgen.Engine) -> tuple[object, ...]:
    return (engine.moves, engine.winner, engine.over, engine.to_move, engine.to_json(),
            str(engine), engine.position.heading())


@settings(max_examples=60, deadline=None)
@given(game=st.sampled_from(sorted(GAMES)), seed=st.integers(0, 10**6),
       before=st.integers(0, 12), back=st.integers(0, 30))
def test_play_out_plays_what_random_legal_plays(game: str, seed: int, before: int,
                                                back: int) -> None:
    fast = made(game)
    opening = random.Random(-seed)
    for _ in range(before):
        if fast.over:
            break
        fast.push(fast.random_legal(opening))
    general = fast.copy()
    fast_rng, general_rng = random.Random(seed), random.Random(seed)
    assert fast.play_out(fast_rng) == looped(general, general_rng)
    assert fast_rng.getstate() == general_rng.getstate()
    assert seen(fast) == seen(general) and fast == general
    for _ in range(min(back, len(general.moves))):
        assert fast.pop() == general.pop()
        assert seen(fast) == seen(general)
    assert fast.play_out(fast_rng) == looped(general, general_rng)
    assert seen(fast) == seen(general)


def test_a_random_subclass_draws_as_random_legal_draws_it() -> None:
    class Counting(random.Random):
        asked = 0

        def randrange(self, *args: object, **kwargs: object) -> int:  # type: ignore[override]
            Counting.asked += 1
            return super().randrange(*args, **kwargs)  # type: ignore[arg-type]

    fast, general = made("copolymer"), made("copolymer")
    assert fast.play_out(Counting(5)) == looped(general, Counting(5))
    assert Counting.asked == 2 * len(fast.moves) and fast.moves == general.moves


def test_play_out_on_a_game_over_plays_nothing_and_a_snapshot_refuses() -> None:
    engine = made("copolymer")
    winner = engine.play_out(random.Random(1))
    rng = random.Random(2)
    state = rng.getstate()
    assert engine.play_out(rng) == winner and rng.getstate() == state
    snapshot = engine.position
    with pytest.raises(boardgen.BoardgenError, match="snapshot and never changes"):
        snapshot.play_out(random.Random(3))
    assert snapshot == engine.position and snapshot.moves == engine.moves


@pytest.mark.parametrize("game", ["copolymer", "o"])
def test_the_snapshot_taken_before_a_play_out_stays_as_it_was(game: str) -> None:
    engine = made(game)
    engine.push(engine.legal_moves()[0])
    before = engine.position
    engine.play_out(random.Random(7))
    assert before.moves == engine.moves[:1] and engine.position.moves == engine.moves
    assert engine.position != before
