"""Copolymer move by move (``place``, ``random_empty``, ``undo``), against a reference
written here from the rules alone: it shares no code with the engine (its neighbours come
from the six hex steps, its undo from a whole copy of the state before each placement).

The engine keeps nothing per placement for undo (the turn before a placement is read from
the placements before it, or from what was set from outside), looks placements up once
made on a board, and draws random.Random's choice itself: any slip there shows up as a
difference in the turn, the history, an undo or a draw."""

from __future__ import annotations

import copy
import pickle
import random
from collections.abc import Sequence
from typing import NamedTuple, TypeVar

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boardgen.games.copolymer.engine import Copolymer, IllegalPlacement
from boardgen.geometry import Hex, HexGrid, hexhex, rhombus, triangle

STEPS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
LINE_AND_LONE_CELL = HexGrid([Hex(q, 0) for q in range(4)] + [Hex(5, 5), Hex(0, 2), Hex(1, 2)],
                             "a line, a pair and a lone cell")
BOARDS = [hexhex(2), hexhex(3), rhombus(3), triangle(5), LINE_AND_LONE_CELL]
T = TypeVar("T")


class Record(NamedTuple):
    cell: Hex
    player: str
    enemy_neighbours: int
    connection: bool
    turn_continues: bool
    over: bool


class Reference:
    """Copolymer from the rules: a connection (two or more of the opponent's cells touched)
    lets the player place again, unless the board is full, which ends the game."""

    def __init__(self, cells: list[Hex], first: str) -> None:
        self.cells = cells
        self.owner: dict[Hex, str] = {}
        self.to_move = first
        self.turn_continues = False
        self.turn_start = 0
        self.history: list[Record] = []
        self.before: list[tuple[dict[Hex, str], str, bool, int]] = []

    def place(self, cell: Hex) -> Record:
        assert cell in self.cells and cell not in self.owner
        self.before.append((dict(self.owner), self.to_move, self.turn_continues,
                            self.turn_start))
        player = self.to_move
        enemy = {"x": "o", "o": "x"}[player]
        touching = sum(self.owner.get(Hex(cell.q + dq, cell.r + dr)) == enemy
                       for dq, dr in STEPS)
        if not self.turn_continues:
            self.turn_start = len(self.history)
        self.owner[cell] = player
        over = len(self.owner) == len(self.cells)
        self.turn_continues = touching >= 2 and not over
        if not self.turn_continues and not over:
            self.to_move = enemy
        self.history.append(Record(cell, player, touching, touching >= 2,
                                   self.turn_continues, over))
        return self.history[-1]

    def undo(self) -> Record:
        self.owner, self.to_move, self.turn_continues, self.turn_start = self.before.pop()
        return self.history.pop()

    def seen(self) -> tuple[object, ...]:
        over = len(self.owner) == len(self.cells)
        counts = {p: sum(1 for q in self.owner.values() if q == p) for p in "xo"}
        winner = ("x" if counts["x"] > counts["o"] else "o") if over else None
        return (self.owner, self.to_move, self.turn_continues, self.turn_start, counts,
                over, winner, self.history, self.history[self.turn_start:],
                sorted(set(self.cells) - set(self.owner), key=lambda h: (h.r, h.q)))


def seen(game: Copolymer) -> tuple[object, ...]:
    return (game.cells(), game.to_move, game.turn_continues, game.turn_start,
            dict(game.counts), game.over, game.winner,
            [Record(*p) for p in game.history], [Record(*p) for p in game.this_turn()],
            sorted(game.empty_cells(), key=lambda h: (h.r, h.q)))


class OwnDraws(random.Random):
    """A Random whose choice is its own: the engine must ask it, not draw for it."""

    def choice(self, seq: Sequence[T]) -> T:
        return seq[-1 - self.randrange(len(seq))]


ACTIONS = st.lists(st.sampled_from(
    ["random", "random", "random", "named", "undo", "undo", "continues", "start", "copy",
     "pickle", "ask", "own draws", "refused"]), max_size=80)


@settings(max_examples=300, deadline=None)
@given(board=st.sampled_from(BOARDS), first=st.sampled_from("xo"), seed=st.integers(0, 10**6),
       actions=ACTIONS)
def test_move_by_move_is_the_reference_with_undo_and_turns_set_from_outside(
        board: HexGrid, first: str, seed: int, actions: list[str]) -> None:
    rng = random.Random(seed)
    game, reference = Copolymer(board, first=first), Reference(list(board.cells), first)
    for action in actions:
        if action in ("random", "named", "own draws", "refused") and game.over:
            action = "undo"
        if action == "random":
            twin = random.Random()
            twin.setstate(rng.getstate())
            cell = game.random_empty(rng)
            # random.Random's choice among the engine's empty cells, in their order.
            assert cell == board.cells[twin.choice(game._empty)]
            assert rng.getstate() == twin.getstate()
            assert game.place(cell) == reference.place(cell)
        elif action == "own draws":
            own = OwnDraws(seed)
            cell = game.random_empty(own)
            assert cell == board.cells[game._empty[-1 - OwnDraws(seed).randrange(
                len(game._empty))]]
            assert game.place(cell) == reference.place(cell)
        elif action == "named":  # a cell made anew, as a user names it: not the board's own
            empty = game.empty_cells()
            cell = empty[rng.randrange(len(empty))]
            assert game.place(Hex(cell.q, cell.r)) == reference.place(cell)
        elif action == "refused":  # a taken cell, after a draw: refused, nothing changed
            taken = sorted(game.cells(), key=lambda h: (h.r, h.q))
            game.random_empty(random.Random(seed))
            if taken:
                with pytest.raises(IllegalPlacement, match="taken"):
                    game.place(taken[0])
        elif action == "undo":
            if reference.history:
                assert game.undo() == reference.undo()
        elif action == "continues":  # as a starting position's status line sets it
            game.turn_continues = reference.turn_continues = not reference.turn_continues
        elif action == "start":  # as an example's setup starts a fresh turn
            game.turn_start = reference.turn_start = len(reference.history)
        elif action == "copy":
            twin_game = game.copy()
            game = copy.deepcopy(game) if seed % 2 else twin_game
        elif action == "pickle":
            game = pickle.loads(pickle.dumps(game))
        elif action == "ask":  # the counts kept from here on: place's other road
            game.forced()
        assert seen(game) == reference.seen()
    # Every placement taken back: the game the reference started with.
    while reference.history:
        assert game.undo() == reference.undo()
        assert seen(game) == reference.seen()


@settings(max_examples=100, deadline=None)
@given(board=st.sampled_from(BOARDS), first=st.sampled_from("xo"), seed=st.integers(0, 10**6))
def test_a_game_move_by_move_is_its_play_out_on_two_boards_in_turn(
        board: HexGrid, first: str, seed: int) -> None:
    """Placements looked up once made are kept for the board last played: games on two
    boards in turn, move by move, each the game play_out plays with the same seed."""
    other = hexhex(4)
    games = [Copolymer(board, first=first), Copolymer(other, first=first)]
    rngs = [random.Random(seed), random.Random(seed + 1)]
    while not all(game.over for game in games):
        for game, rng in zip(games, rngs, strict=True):
            if not game.over:
                game.place(game.random_empty(rng))
    for game, seed_of in zip(games, (seed, seed + 1), strict=True):
        fast = Copolymer(game.grid, first=first)
        fast.play_out(random.Random(seed_of))
        assert fast.history == game.history
        assert (fast.counts, fast.winner, fast.to_move, fast.turn_start) == \
            (game.counts, game.winner, game.to_move, game.turn_start)
