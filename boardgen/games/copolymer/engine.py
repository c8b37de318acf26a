"""Mark Steere's Copolymer (2006), as ruled in shared/spec/copolymer.md.

Two players colour cells of an odd-celled honeycomb.  A placement touching two or more of
the opponent's cells is a *connection*, and the player must place again; a non-connecting
placement ends the turn.  Every empty cell is always a legal placement: a player who wants
to end the turn picks a non-connecting cell, and only when none is left is a connection
forced.  The game ends the moment the board is full, even in mid-turn; the majority wins.

The engine keeps, for every cell, how many neighbours each player holds, and for each
player the empty cells that are not connections for them (calm: they end the turn), as
lists for O(1) random choice, so that a placement and a random draw cost O(1)
(bench/bench_engines.py measures it against a lean engine and a naive one).
"""

from __future__ import annotations

import operator
import random
from collections.abc import Callable
from enum import StrEnum
from typing import NamedTuple

from boardgen.errors import BoardgenError, IllegalMove, Refusal
from boardgen.games.slots import append, put_back, swap_remove
from boardgen.geometry import Hex, HexGrid, Notation, format_hex_text, framed_text
from boardgen.geometry.notation import drawn_on_grid
from boardgen.i18n import tr

NAME = "Copolymer"
CREDIT = "Copolymer by Mark Steere (2006)"
PRESETS = {"small": 5, "medium": 7, "large": 10}  # the server's 9x9, 13x13 and 19x19
DEFAULT_SIDE = 10  # 271 cells: the rule sheet's board and the server's default
PLAYERS = ("x", "o")
CONNECTION_THRESHOLD = 2  # opponent neighbours that make a placement a connection


IllegalPlacement = IllegalMove  # the name the Copolymer rules use for a refused move


class CopolymerReason(StrEnum):
    """Why Copolymer refuses a placement (the message for people is kept apart)."""

    OFF_BOARD = "off-board"
    GAME_OVER = "game-over"
    TAKEN = "taken"


def check_board(grid: HexGrid) -> None:
    """Copolymer is decided by the majority of cells, so the count must be odd."""
    count = len(grid)
    if count % 2 == 0:
        raise BoardgenError(
            f"{grid.description} has {count} cells, an even number: Copolymer needs an odd "
            "number of cells so that the majority decides and a tie is impossible"
        )


def opponent(player: str) -> str:
    return "o" if player == "x" else "x"


_OPPONENT = {"x": "o", "o": "x"}


_Random = random.Random
_new_tuple = tuple.__new__  # a Placement made as its class makes it, one call fewer


class Placement(NamedTuple):
    """What one placement did, as the engine saw it (a named tuple: a play-out makes one
    per move)."""

    cell: Hex
    player: str
    enemy_neighbours: int  # the opponent's cells it touched when placed
    connection: bool
    turn_continues: bool  # the same player places again
    over: bool


# For the board last played on: for each cell, a function from the owners to the tuple
# of its neighbours' owners (operator.itemgetter: the count of the enemy's among them is
# then one C call, where a loop over the neighbours was a tenth of a play-out), and the
# placements made on it so far that did not fill the board, kept for the next games
# (a placement is an immutable tuple: the same cell, player and count make the same
# record, and looking it up costs half of making it).
OwnersAround = Callable[[list[str | None]], tuple[str | None, ...]]
_Tables = tuple[list[OwnersAround], list[Placement | None]]
_tables: tuple[HexGrid | None, _Tables] = (None, ([], []))
_KINDS = 2 * 7  # made placements by cell: for x then o, 0 to 6 enemy neighbours


def _board_tables(grid: HexGrid) -> _Tables:
    global _tables
    tables = _tables  # read once: another thread may replace it meanwhile
    if tables[0] is not grid:
        around = [_owners_at(cells) for cells in grid.neighbour_indices]
        tables = _tables = (grid, (around, [None] * (_KINDS * len(grid))))
    return tables[1]


def _owners_at(cells: tuple[int, ...]) -> OwnersAround:
    if len(cells) >= 2:
        return operator.itemgetter(*cells)  # a tuple
    # itemgetter of one index gives the item itself, of none is refused: a tuple still.
    return lambda owner: tuple(owner[j] for j in cells)


class Copolymer:
    """A game in progress on any odd-celled grid.  ``first`` is the colour that starts."""

    def __init__(self, grid: HexGrid, first: str = "x") -> None:
        check_board(grid)
        if first not in PLAYERS:
            raise BoardgenError(f"first player {first!r} must be x or o")
        self.grid = grid
        # Set here, not added to the instance later as functools.cached_property does: an
        # attribute added after __init__ gives the instance a dictionary of its own, and
        # then every attribute read of place and random_empty costs more (the handle,
        # which names cells, placed 1.5x slower than the engine alone).
        self._notation: Notation | None = None
        n = len(grid)
        self._neighbours = grid.neighbour_indices
        self._cells = grid.cells
        self._around, self._made = _board_tables(grid)
        self._owner: list[str | None] = [None] * n
        # Empty cells, a list for O(1) random choice, with where each cell stands in it
        # (swap-remove; swap_remove).
        self._empty = list(range(n))
        self._slot = list(range(n))
        # The board is full: kept as each move leaves it, a plain attribute (read once a
        # move by the per-move loop, where a property's call was a twentieth of a move).
        self.over = False
        # Kept from the first question that needs them on (_follow), not before: a play-out
        # that only places (a uniform random policy) counts a placement's enemy neighbours
        # as it makes it, and pays for nothing else.
        # _touching[p][i]: how many of player p's cells touch cell i.  For each player the
        # empty cells that are not connections for them ("calm": they end the turn), as
        # lists with their slots like the empty cells.
        self._following = False
        self._following_since = 0
        self._touching: dict[str, list[int]] = {}
        self._calm: dict[str, list[int]] = {}
        self._calm_slot: dict[str, list[int]] = {}
        # The cell a random draw last returned, and its index, until the position changes:
        # place need not look it up and judge it again.
        self._vouched: Hex | None = None
        self._vouched_index = 0
        self.counts = {"x": 0, "o": 0}
        self.to_move = first
        self.first = first
        self._history: list[Placement] = []
        # The turn (turn_continues, turn_start), kept apart from what undo needs: the turn
        # before a placement is read from the placements before it (a connection that did
        # not fill the board continues the turn), unless it was set from outside (a
        # starting position's turn, an example's fresh turn), which _written keeps by
        # the number of placements it was set at.  place then writes nothing for undo.
        self._continues = False
        self._turn_start = 0
        self._written: dict[int, tuple[bool, int]] = {}
        # What play_out placed and has not yet written into the history: the cells in
        # order, and the player of the first (see _record).
        self._unrecorded: tuple[list[int], str] | None = None

    def __getstate__(self) -> dict[str, object]:
        state = dict(self.__dict__)
        del state["_around"], state["_made"]  # the board's tables: functions, made again
        return state

    def __setstate__(self, state: dict[str, object]) -> None:
        self.__dict__.update(state)
        self._around, self._made = _board_tables(self.grid)

    @property
    def turn_continues(self) -> bool:
        """The player to move places again: their last placement was a connection."""
        return self._continues

    @turn_continues.setter
    def turn_continues(self, continues: bool) -> None:
        self._continues = continues
        self._written[len(self.history)] = (continues, self._turn_start)

    @property
    def turn_start(self) -> int:
        """Index into history where the current (or last) turn began."""
        return self._turn_start

    @turn_start.setter
    def turn_start(self, start: int) -> None:
        self._turn_start = start
        self._written[len(self.history)] = (self._continues, start)

    @property
    def notation(self) -> Notation:
        """The grid's cell names (made on first use: a play-out never names a cell)."""
        if self._notation is None:
            self._notation = Notation(self.grid)
        return self._notation

    # --- queries ---------------------------------------------------------------------

    @property
    def history(self) -> list[Placement]:
        """Every placement since the start (or since set_position), in order."""
        if self._unrecorded is not None:
            self._record()
        return self._history

    @property
    def winner(self) -> str | None:
        return self._majority() if self.over else None

    def owner(self, cell: Hex) -> str | None:
        return self._owner[self.grid.index[cell]]

    def cells(self) -> dict[Hex, str]:
        """Occupied cells and their colour."""
        return {h: p for h, p in zip(self._cells, self._owner, strict=True) if p}

    def empty_cells(self) -> list[Hex]:
        return [self._cells[i] for i in sorted(self._empty)]

    def legal_placements(self) -> list[Hex]:
        """Every empty cell (the rules forbid nothing else); empty once the game is over."""
        return self.empty_cells()

    def is_connection(self, cell: Hex, player: str | None = None) -> bool:
        """Would placing on ``cell`` be a connection for ``player`` (default: to move)?"""
        self._follow()
        mover = player or self.to_move
        return self._touching[opponent(mover)][self.grid.index[cell]] >= CONNECTION_THRESHOLD

    def enemy_neighbours(self, cell: Hex, player: str | None = None) -> int:
        self._follow()
        return self._touching[opponent(player or self.to_move)][self.grid.index[cell]]

    def connections(self, player: str | None = None) -> list[Hex]:
        """Empty cells that are connections for ``player`` (default: to move), in reading order."""
        self._follow()
        enemy, owner = self._touching[opponent(player or self.to_move)], self._owner
        return [h for i, h in enumerate(self.grid.cells)
                if owner[i] is None and enemy[i] >= CONNECTION_THRESHOLD]

    def forced(self) -> bool:
        """True when every empty cell is a connection for the player to move."""
        self._follow()
        return bool(self._empty) and not self._calm[self.to_move]

    def this_turn(self) -> list[Placement]:
        """The placements of the turn in progress, or of the last completed turn."""
        return self.history[self._turn_start:]

    def _follow(self) -> None:
        """Count every cell's neighbours of each colour and list the calm cells, from the
        position, and keep them up to date from now on (place and undo)."""
        if self._following:
            return
        n = len(self._owner)
        touching: dict[str, list[int]] = {"x": [0] * n, "o": [0] * n}
        for i, player in enumerate(self._owner):
            if player is not None:
                counts = touching[player]
                for j in self._neighbours[i]:
                    counts[j] += 1
        self._touching = touching
        empty = sorted(self._empty)
        for player in PLAYERS:
            enemy = touching[_OPPONENT[player]]
            calm = [i for i in empty if enemy[i] < CONNECTION_THRESHOLD]
            slot = list(range(n))
            for where, i in enumerate(calm):
                slot[i] = where
            self._calm[player], self._calm_slot[player] = calm, slot
        self._following = True
        self._following_since = len(self.history)  # undo restores exact order from here

    # --- moves -----------------------------------------------------------------------

    def refusal(self, cell: Hex) -> Refusal | None:
        """Why the player to move may not place on ``cell``, or None if they may."""
        grid = self.grid
        if cell not in grid.index:
            return Refusal(CopolymerReason.OFF_BOARD, tr("not on the board ({board})").format(
                board=grid.description))
        if self.over:
            return Refusal(CopolymerReason.GAME_OVER, tr("the game is over (the board is full)"))
        taken = self._owner[grid.index[cell]]
        if taken is not None:
            return Refusal(CopolymerReason.TAKEN, tr("already taken by {player}").format(
                player=taken.upper()))
        return None

    def place(self, cell: Hex) -> Placement:
        """Place for the player to move; raises :class:`IllegalPlacement` with the reason."""
        if cell is self._vouched:  # a random draw has just returned it, in this position
            i = self._vouched_index
            self._vouched = None
            made: list[Placement | None] | None = self._made
        else:
            refusal = self.refusal(cell)
            if refusal is not None:
                shown = self.notation.name(cell) if cell in self.grid.index else str(cell)
                raise IllegalPlacement(shown, refusal)
            i = self.grid.index[cell]
            self._vouched = None
            made = None  # the record keeps the very cell given (an equal tuple, maybe)
        if self._following:
            return self._place_followed(cell, i)
        # Neither counts nor calm lists kept (a uniform random policy, a user's move by
        # move loop): a placement is its enemy neighbours counted, the cell out of the
        # empty ones, the turn passed on or not, and its record.  Written for the loop
        # that runs it once a move (bench/bench_engines.py): locals, one call.
        player = self.to_move
        owner = self._owner
        if player == "x":
            enemy, kind = "o", _KINDS * i
        else:
            enemy, kind = "x", _KINDS * i + 7
        touching_enemy = self._around[i](owner).count(enemy)
        owner[i] = player
        empty = self._empty
        last = empty.pop()  # swap_remove, written out
        if last != i:
            slot = self._slot
            slot[last] = where = slot[i]
            empty[where] = last
        self.counts[player] += 1
        history = self._history
        # The turn: a connection continues it, anything else passes it on; each attribute
        # written only when it changes.
        if empty:
            if self._continues:
                if touching_enemy < CONNECTION_THRESHOLD:
                    self._continues = False
                    self.to_move = enemy
            else:
                self._turn_start = len(history)
                if touching_enemy >= CONNECTION_THRESHOLD:
                    self._continues = True
                else:
                    self.to_move = enemy
            if made is not None:
                kind += touching_enemy
                result = made[kind]
                if result is None:
                    connection = touching_enemy >= CONNECTION_THRESHOLD
                    result = made[kind] = _new_tuple(
                        Placement, (cell, player, touching_enemy, connection, connection, False))
            else:
                connection = touching_enemy >= CONNECTION_THRESHOLD
                result = _new_tuple(
                    Placement, (cell, player, touching_enemy, connection, connection, False))
        else:  # the board is full: the game is over, and the last mover stays to move
            self.over = True
            if not self._continues:
                self._turn_start = len(history)
            self._continues = False
            result = _new_tuple(Placement, (cell, player, touching_enemy,
                                            touching_enemy >= CONNECTION_THRESHOLD, False, True))
        history.append(result)
        return result

    def _place_followed(self, cell: Hex, i: int) -> Placement:
        """place, the counts and calm lists kept up to date as it goes."""
        player = self.to_move
        enemy = _OPPONENT[player]
        if not self._continues:
            self._turn_start = len(self._history)
        owner = self._owner
        own = self._touching[player]
        touching_enemy = self._touching[enemy][i]
        connection = touching_enemy >= CONNECTION_THRESHOLD
        owner[i] = player
        # The cell leaves the empty cells, and the calm cells of each player it was
        # calm for (a connection for a player is a cell touching enough of the other's
        # cells).
        swap_remove(self._empty, self._slot, i)
        if not connection:
            swap_remove(self._calm[player], self._calm_slot[player], i)
        enemy_calm, enemy_slot = self._calm[enemy], self._calm_slot[enemy]
        if own[i] < CONNECTION_THRESHOLD:
            swap_remove(enemy_calm, enemy_slot, i)
        # A cell touching two of `player`'s cells is a connection for the *enemy*.
        for j in self._neighbours[i]:
            touching = own[j] = own[j] + 1
            if touching == CONNECTION_THRESHOLD and owner[j] is None:
                swap_remove(enemy_calm, enemy_slot, j)
        self.counts[player] += 1
        self.over = over = not self._empty
        self._continues = continues = connection and not over
        if not continues and not over:
            self.to_move = enemy
        result = _new_tuple(Placement, (cell, player, touching_enemy, connection, continues,
                                        over))
        self._history.append(result)
        return result

    def _turn_before(self, k: int) -> tuple[bool, int]:
        """The turn as it stood when placement k was made (turn_continues, turn_start):
        as set from outside at that point, else as the placements before it left it."""
        written, history = self._written, self._history
        if k in written:
            return written[k]
        if k == 0:
            return False, 0
        # It began where the latest placement before k that started a turn was made: one
        # made when the turn did not continue.
        j = k - 1
        while True:
            if j in written:
                continued, start = written[j]
                break
            if j == 0 or not history[j - 1].turn_continues:
                continued, start = False, 0
                break
            j -= 1
        return history[k - 1].turn_continues, start if continued else j

    def undo(self) -> Placement:
        """Take back the last placement (for search); restores every count and set."""
        history = self.history
        if not history:
            raise BoardgenError("nothing to undo")
        last = history.pop()
        self._vouched = None
        i = self.grid.index[last.cell]
        player = last.player
        k = len(history)
        if self._following and k >= self._following_since:
            # Placed while the counts were kept: each list put back as it was, in the
            # reverse order of place's removals, so a random draw after an undo is the draw
            # before the move.
            enemy = _OPPONENT[player]
            own = self._touching[player]
            enemy_calm, enemy_slot = self._calm[enemy], self._calm_slot[enemy]
            for j in reversed(self._neighbours[i]):
                if own[j] == CONNECTION_THRESHOLD and self._owner[j] is None:
                    put_back(enemy_calm, enemy_slot, j)
                own[j] -= 1
            if own[i] < CONNECTION_THRESHOLD:
                put_back(enemy_calm, enemy_slot, i)
            if self._touching[enemy][i] < CONNECTION_THRESHOLD:
                put_back(self._calm[player], self._calm_slot[player], i)
        elif self._following:
            # Placed before the counts were first asked for: the calm lists never held
            # the cell in order, so it goes back at their ends (the same sets).
            enemy = _OPPONENT[player]
            own = self._touching[player]
            for j in self._neighbours[i]:
                if own[j] == CONNECTION_THRESHOLD and self._owner[j] is None:
                    append(self._calm[enemy], self._calm_slot[enemy], j)
                own[j] -= 1
            for p in PLAYERS:
                if self._touching[_OPPONENT[p]][i] < CONNECTION_THRESHOLD:
                    append(self._calm[p], self._calm_slot[p], i)
            self._following_since = k  # every move placed from here on is followed
        self._owner[i] = None
        self.counts[player] -= 1
        put_back(self._empty, self._slot, i)  # the empty cells are always kept in order
        self.over = False
        self.to_move = player
        written = self._written
        untouched = k + 1 not in written  # the turn as this placement left it
        if written:  # what was set after this placement was made goes with it
            for at in [at for at in written if at > k]:
                del written[at]
        if untouched and k not in written and k and history[k - 1].turn_continues:
            self._continues = True  # it went on with a turn, whose start it left alone
        else:  # it began a turn: the one before began where the placements say
            self._continues, self._turn_start = self._turn_before(k)
        return last

    def copy(self) -> Copolymer:
        """An independent copy of the game: its state copied, the board shared."""
        twin = Copolymer.__new__(Copolymer)
        twin.grid, twin._notation, twin._neighbours = self.grid, self._notation, self._neighbours
        twin._cells, twin._around, twin._made = self._cells, self._around, self._made
        twin._owner = self._owner[:]
        twin._following, twin._following_since = self._following, self._following_since
        twin._touching = {p: counts[:] for p, counts in self._touching.items()}
        twin._empty, twin._slot = self._empty[:], self._slot[:]
        twin.over = self.over
        twin._calm = {p: cells[:] for p, cells in self._calm.items()}
        twin._calm_slot = {p: slots[:] for p, slots in self._calm_slot.items()}
        twin._vouched, twin._vouched_index = None, 0
        twin.counts = dict(self.counts)
        twin.to_move, twin.first = self.to_move, self.first
        twin._continues, twin._turn_start = self._continues, self._turn_start
        twin._written = dict(self._written)
        twin._history = self._history[:]  # Placements are tuples: shared
        twin._unrecorded = self._unrecorded  # never changed: _record replaces it
        return twin

    def __deepcopy__(self, memo: dict[int, object]) -> Copolymer:
        return self.copy()

    def random_empty(self, rng: random.Random) -> Hex:
        """A random empty cell, each with the same chance: ``rng.choice`` of them."""
        empty = self._empty
        if type(rng) is _Random and empty:
            # rng.choice(empty), its draws made here: random.Random.choice takes
            # getrandbits(k) for the k bits of len(empty) until one is below it (its two
            # calls, choice and _randbelow, were a twentieth of a move).  A subclass may
            # draw otherwise: it is asked.
            n = len(empty)
            k = n.bit_length()
            r = rng.getrandbits(k)
            while r >= n:
                r = rng.getrandbits(k)
            i = empty[r]
        else:
            i = rng.choice(empty)
        self._vouched_index = i
        self._vouched = cell = self._cells[i]
        return cell

    def random_non_connection(self, rng: random.Random) -> Hex | None:
        """A random empty cell that ends the turn, or None if every empty cell connects."""
        self._follow()
        calm = self._calm[self.to_move]
        if not calm:
            return None
        self._vouched_index = i = rng.choice(calm)
        self._vouched = cell = self._cells[i]
        return cell

    def play_out(self, rng: random.Random) -> str:
        """Play the game out at random and return the winner (``x`` or ``o``): until the
        board is full, a cell drawn with ``rng`` among the empty ones, each with the same
        chance, placed for the player to move.  It is ``while not game.over:
        game.place(game.random_empty(rng))`` move for move: the same draws from ``rng``,
        the same position, counts, turns and history, every placement undoable.  Only
        faster, for random play-outs (bench/bench_engines.py): one loop that judges a
        placement only as far as whose turn comes next, and writes the history (each
        placement's record) when something first reads it."""
        if self._following:
            # The counts and calm lists are kept: place keeps them up to date, in the
            # order undo restores, so place it is.
            while self._empty:
                self.place(self.random_empty(rng))
            return self._majority()
        if not self._empty:
            return self._majority()
        if self._unrecorded is not None:
            self._record()
        self._vouched = None
        owner, empty, slot = self._owner, self._empty, self._slot
        around = self._around
        order: list[int] = []
        keep, choice = order.append, rng.choice
        player, enemy = self.to_move, _OPPONENT[self.to_move]
        self._unrecorded = (order, player)
        base = len(self._history)
        turn_start = self._turn_start if self._continues else base
        while True:
            i = choice(empty)
            keep(i)
            owner[i] = player
            last = empty.pop()
            if last != i:
                where = slot[i]
                empty[where] = last
                slot[last] = where
            if not empty:
                break  # the board is full: the last mover stays to move, as place leaves it
            if around[i](owner).count(enemy) < CONNECTION_THRESHOLD:
                # Not a connection: the turn passes, and the next placement starts one.
                player = enemy
                enemy = _OPPONENT[player]
                turn_start = base + len(order)
        self.to_move, self._continues, self._turn_start = player, False, turn_start
        self.over = True
        for colour in PLAYERS:
            self.counts[colour] = owner.count(colour)
        return self._majority()

    def _record(self) -> None:
        """Write what play_out placed into the history, as place would have: each
        placement judged again on the position it was made in (the cells placed after it
        are empty again in a copy of the owners)."""
        assert self._unrecorded is not None
        order, player = self._unrecorded
        self._unrecorded = None
        owner = self._owner[:]
        for i in order:
            owner[i] = None
        neighbours, cells = self._neighbours, self._cells
        record = self._history.append
        last = order[-1]
        for i in order:
            enemy = _OPPONENT[player]
            touching_enemy = 0
            for j in neighbours[i]:
                if owner[j] == enemy:
                    touching_enemy += 1
            owner[i] = player
            connection = touching_enemy >= CONNECTION_THRESHOLD
            over = i == last
            continues = connection and not over
            record(_new_tuple(Placement, (cells[i], player, touching_enemy, connection,
                                          continues, over)))
            if not continues and not over:
                player = enemy

    def _majority(self) -> str:
        return "x" if self.counts["x"] > self.counts["o"] else "o"

    # --- positions as text -----------------------------------------------------------

    def set_position(self, cells: dict[Hex, str], to_move: str) -> None:
        """Start from a given position (the placements are not a history)."""
        if self.history or any(self._owner):
            raise BoardgenError("set_position needs a fresh game")
        for cell, player in sorted(cells.items(), key=lambda item: self.grid.index[item[0]]):
            self.to_move = player
            self._continues = False
            self.place(cell)
        self.history.clear()
        self._written.clear()
        self._turn_start = 0
        self._continues = False
        self.to_move = to_move


def text_position(game: Copolymer, *, coordinates: bool = False) -> list[str]:
    """The board in the server's style: ``.`` empty, lower case for earlier cells, capitals
    for the cells of the turn in progress (or of the last turn).
    With ``coordinates``, each row's label on its left and each line's beyond its top
    end, as ``boardgen play`` prints it."""
    new = {p.cell for p in game.this_turn()}
    chars = {h: (p.upper() if h in new else p) for h, p in game.cells().items()}
    return (framed_text if coordinates else format_hex_text)(game.grid, chars)


def parse_text_position(grid: HexGrid, text: str, source: str) -> tuple[dict[Hex, str],
                                                                      set[Hex]]:
    """Read a server-style position drawn for ``grid``: the colour of each occupied cell and
    the cells written in capitals.  The drawing must show every cell of the board."""
    shifted = drawn_on_grid(grid, text, source, frozenset(".xoXO"))
    cells = {h: ch.lower() for h, ch in shifted.items() if ch != "."}
    capitals = {h for h, ch in shifted.items() if ch in "XO"}
    return cells, capitals


def position_json(game: Copolymer, side: int | None) -> dict[str, object]:
    """The stable ``boardgen play copolymer --json`` contract (docs: reference/play-json)."""
    name = game.notation.name
    return {
        "side": side,
        "to_move": None if game.over else game.to_move,
        "cells": {name(h): p for h, p in game.cells().items()},
        "connections": [] if game.over else [name(h) for h in game.connections()],
        "turn_continues": game.turn_continues,
        "over": game.over,
        "winner": game.winner,
        "counts": dict(game.counts),
    }


def status_line(game: Copolymer) -> str:
    counts = f"X {game.counts['x']}, O {game.counts['o']}"
    if game.over:
        return f"Board full: {game.winner.upper() if game.winner else '?'} wins ({counts})."
    mover = game.to_move.upper()
    state = f"{mover} to move, continuing the turn after a connection" if game.turn_continues \
        else f"{mover} to move"
    connections = [game.notation.name(h) for h in game.connections()]
    if game.forced():
        note = "every empty cell is a connection, so the next placement connects"
    elif connections:
        note = f"connections for {mover}: {' '.join(connections)}"
    else:
        note = f"no connection open for {mover}"
    return f"{state}; {note}. Cells: {counts}."
