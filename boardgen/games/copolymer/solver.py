"""Perfect play in Copolymer's endgame: the exact margin, or only who wins.

Only the empty cells matter to what is left of a game: the filled ones are fixed, so each
empty cell carries how many X and O cells already touch it, and the search runs on a small
board of its own, as bit masks over the empty cells.  A position's cost is then a few
integer operations, whatever the size of the board around it (the old search recomputed a
key over every cell of the board at every node: 200 s on a side-50 board).

The search is negamax with alpha-beta, a transposition table of bounds keyed on the
position (who holds which empty cell, and who is to move), the table's best move tried
first, then connections (an extra placement), then the cells that open fewest
connections to the opponent.  Values are bounded by the cells left and share their
parity, so a null-window test (who wins) settles after a fraction of the positions an
exact value needs.

A search that would visit more than ``node_limit`` positions stops with
:class:`SearchTooLarge`: the caller turns it into a one-line refusal.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from boardgen import limits
from boardgen.errors import BoardgenError

if TYPE_CHECKING:
    from boardgen.games.copolymer.engine import Copolymer
    from boardgen.geometry import Hex

X_TO_MOVE, O_TO_MOVE = 0, 1  # the player to move, as an index
THRESHOLD = 2  # enemy neighbours that make a placement a connection (the rules' number)


class SearchTooLarge(BoardgenError):
    """The search would visit more positions than allowed."""

    def __init__(self, limit: int) -> None:
        super().__init__(f"the search for perfect play passed {limit:,} positions")
        self.limit = limit


class Endgame:
    """The empty cells of a position, as a game of their own."""

    def __init__(self, game: Copolymer, node_limit: int | None = None) -> None:
        owner = game._owner
        empty = sorted(i for i, p in enumerate(owner) if p is None)
        slot = {cell: j for j, cell in enumerate(empty)}
        self.size = len(empty)
        self.full = (1 << self.size) - 1
        # touching[p][j]: cells of player p around empty cell j that are already filled.
        self.touching: tuple[list[int], list[int]] = ([], [])
        self.around: list[int] = []  # the empty cells next to cell j, as a mask
        for i in empty:
            around = 0
            counts = [0, 0]
            for n in game._neighbours[i]:
                held = owner[n]
                if held is None:
                    around |= 1 << slot[n]
                else:
                    counts[X_TO_MOVE if held == "x" else O_TO_MOVE] += 1
            self.touching[X_TO_MOVE].append(counts[X_TO_MOVE])
            self.touching[O_TO_MOVE].append(counts[O_TO_MOVE])
            self.around.append(around)
        self.margin = game.counts["x"] - game.counts["o"]  # X cells minus O cells so far
        self.mover = X_TO_MOVE if game.to_move == "x" else O_TO_MOVE
        # Read when the search starts, not at import: one place to change it.
        self.node_limit = limits.MAX_SOLVER_POSITIONS if node_limit is None else node_limit
        self.nodes = 0
        # (x mask, o mask, mover) -> [lower bound, upper bound, best cell]
        self._table: dict[tuple[int, int, int], list[int]] = {}

    # --- the answers ---------------------------------------------------------------------

    def exact_margin(self) -> int:
        """X cells minus O cells at the end, under perfect play from both sides."""
        value = self._search(0, 0, self.mover, -self.size - 1, self.size + 1)
        return self.margin + (value if self.mover == X_TO_MOVE else -value)

    def winner(self) -> str:
        """Who wins under perfect play ("x" or "o"): a null-window test, not a value."""
        # The mover wins if the cells still to fill give it more than the current margin
        # against it: value >= need.
        against = -self.margin if self.mover == X_TO_MOVE else self.margin
        need = against + 1
        value = self._search(0, 0, self.mover, need - 1, need)
        mover_wins = value >= need
        return ("x" if self.mover == X_TO_MOVE else "o") if mover_wins else \
            ("o" if self.mover == X_TO_MOVE else "x")

    # --- the search ----------------------------------------------------------------------

    def _search(self, xs: int, os: int, mover: int, alpha: int, beta: int) -> int:
        """The mover's cells minus the opponent's among those still empty, under perfect
        play: exact if strictly inside (alpha, beta), else a bound on the side it fails."""
        filled = xs | os
        left = self.size - filled.bit_count()
        if left == 0:
            return 0
        # The mover places at least once: at best every cell, at worst one then none.
        if left <= alpha:
            return left
        if 2 - left >= beta:
            return 2 - left
        key = (xs, os, mover)
        entry = self._table.get(key)
        first = -1
        if entry is not None:
            lower, upper, first = entry
            if lower >= beta:
                return lower
            if upper <= alpha:
                return upper
            alpha, beta = max(alpha, lower), min(beta, upper)
        self.nodes += 1
        if self.nodes > self.node_limit:
            raise SearchTooLarge(self.node_limit)
        own, enemy = (xs, os) if mover == X_TO_MOVE else (os, xs)
        enemy_touching = self.touching[1 - mover]
        own_touching = self.touching[mover]
        around = self.around
        # Connections first (the same player places again), then the cells that turn
        # fewest empty cells into connections for the opponent.
        order: list[tuple[int, int, bool]] = []
        free = self.full & ~filled
        while free:
            bit = free & -free
            free ^= bit
            j = bit.bit_length() - 1
            connects = enemy_touching[j] + (around[j] & enemy).bit_count() >= THRESHOLD
            opened = 0
            if not connects:
                mask = around[j] & ~filled
                while mask:
                    nbit = mask & -mask
                    mask ^= nbit
                    n = nbit.bit_length() - 1
                    if own_touching[n] + (around[n] & own).bit_count() + 1 == THRESHOLD:
                        opened += 1
            rank = -1 if j == first else (0 if connects else 1 + opened)
            order.append((rank, j, connects))
        order.sort()
        start_alpha = alpha
        best, best_cell = -self.size - 1, -1
        for _, j, connects in order:
            bit = 1 << j
            mine = own | bit
            nxs, nos = (mine, enemy) if mover == X_TO_MOVE else (enemy, mine)
            if left == 1:
                value = 1
            elif connects:
                value = 1 + self._search(nxs, nos, mover, alpha - 1, beta - 1)
            else:
                value = 1 - self._search(nxs, nos, 1 - mover, 1 - beta, 1 - alpha)
            if value > best:
                best, best_cell = value, j
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        break
        lower, upper = (entry[0], entry[1]) if entry is not None else (-self.size - 1,
                                                                      self.size + 1)
        if best <= start_alpha:
            upper = min(upper, best)
        elif best >= beta:
            lower = max(lower, best)
        else:
            lower = upper = best
        self._table[key] = [lower, upper, best_cell]
        return best


def solve(game: Copolymer, memo: dict[tuple[int, int, str], int] | None = None) -> int:
    """The final margin (X cells minus O cells) under perfect play from this position
    (the empty cells searched as a game of their own, :class:`Endgame`).  ``memo``, if
    given, keeps each answer by position, for callers that ask again."""

    key = _key(game) if memo is not None else None
    if memo is not None and key is not None and key in memo:
        return memo[key]
    value = Endgame(game).exact_margin()
    if memo is not None and key is not None:
        memo[key] = value
    return value


def _key(game: Copolymer) -> tuple[int, int, str]:
    xs = os = 0
    for i, p in enumerate(game._owner):
        if p == "x":
            xs |= 1 << i
        elif p == "o":
            os |= 1 << i
    return xs, os, game.to_move


def best_placement(game: Copolymer, memo: dict[tuple[int, int, str], int]) -> Hex:
    """A placement that keeps the best outcome for the player to move (first in reading
    order among equals, so the choice is deterministic)."""
    sign = 1 if game.to_move == "x" else -1
    best_cell, best_value = None, None
    for cell in game.empty_cells():
        game.place(cell)
        value = sign * solve(game, memo)
        game.undo()
        if best_value is None or value > best_value:
            best_cell, best_value = cell, value
    assert best_cell is not None
    return best_cell
