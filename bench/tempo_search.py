"""Find Copolymer's tempo position by exhaustive search on the 19-cell board, and check it.

    python bench/tempo_search.py [--x 6 --o 5]

The rule sheet tells of a player with three connections open who took only one, because
taking all three would have lost; its figures were lost.  The sheet's tempo diagram
(templates/copolymer/tempo.txt) shows such a position on the side-3 board (19 cells).  This
script searches every arrangement of X and O cells (six X and five O by default: eight
empty cells, the diagram's counts), up to the board's 12 symmetries, for the positions in
which, with O to move,

1. O has exactly three connections open;
2. taking all three loses against best play, whatever cell then ends O's turn;
3. taking one of them alone (and ending the turn well) wins;
4. the position is reached by legal play from the empty board, X first, O to start a turn.

It prints how many positions pass each step, whether the diagram's position is among them,
and the diagram's outcome for every choice of connections, which must be what the sheet
says: O wins only by taking D3, alone or with B4, then ending the turn on C2.  Exit status
0 when all of that holds, 1 if not.  The search solves each candidate with a bitmask
minimax of its own; tests/test_tempo_search.py runs the search on the diagram's X cells
only and checks what it finds with the engine's solver.  About 90 s of CPU, 600 MB.
"""

from __future__ import annotations

import argparse
import functools
import itertools
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from boardgen.geometry import Hex, Notation, hexhex

GRID = hexhex(3)
NOTATION = Notation(GRID)
CELLS = len(GRID)  # 19
FULL = (1 << CELLS) - 1
NEIGHBOURS = tuple(sum(1 << j for j in GRID.neighbour_indices[i]) for i in range(CELLS))
TEMPO_FILE = Path(__file__).resolve().parent.parent / "templates" / "copolymer" / "tempo.txt"
# What the sheet says of the diagram's position: the winning choices of connections, each
# with the cells that may then end the turn.
SHEET_CLAIM = {("D3",): ("C2",), ("B4", "D3"): ("C2",)}


def _symmetries() -> list[tuple[int, ...]]:
    """The 12 rotations and reflections of the hexagon, as permutations of cell indices."""
    def turn(h: Hex) -> Hex:
        return Hex(-h.r, h.q + h.r)

    def mirror(h: Hex) -> Hex:
        return Hex(h.q + h.r, -h.r)

    found = []
    for reflect in (False, True):
        for turns in range(6):
            image = []
            for cell in GRID.cells:
                h = mirror(cell) if reflect else cell
                for _ in range(turns):
                    h = turn(h)
                image.append(GRID.index[h])
            found.append(tuple(image))
    return found


SYMMETRIES = _symmetries()


def mapped(permutation: tuple[int, ...], mask: int) -> int:
    out = 0
    for i in range(CELLS):
        if mask >> i & 1:
            out |= 1 << permutation[i]
    return out


def canonical(xs: int, os: int) -> tuple[int, int]:
    return min((mapped(p, xs), mapped(p, os)) for p in SYMMETRIES)


def bits(mask: int) -> Iterator[int]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def count(mask: int) -> int:
    return bin(mask).count("1")


def connections(mover: int, enemy: int) -> int:
    """Empty cells touching two or more enemy cells."""
    empty = FULL & ~(mover | enemy)
    return sum(1 << i for i in bits(empty) if count(NEIGHBOURS[i] & enemy) >= 2)


class Solver:
    """Whether the player to move wins under perfect play, from the cells alone (a turn
    in progress and a new turn are the same position: the mover places next either way)."""

    def __init__(self) -> None:
        self.memo: dict[tuple[int, int], bool] = {}

    def wins(self, mover: int, enemy: int) -> bool:
        key = (mover, enemy)
        known = self.memo.get(key)
        if known is not None:
            return known
        result = False
        for i in bits(FULL & ~(mover | enemy)):
            after = mover | 1 << i
            if after | enemy == FULL:
                won = count(after) > count(enemy)
            elif count(NEIGHBOURS[i] & enemy) >= 2:
                won = self.wins(after, enemy)  # a connection: the mover goes on
            else:
                won = not self.wins(enemy, after)
            if won:
                result = True
                break
        self.memo[key] = result
        return result

    def winning_endings(self, mover: int, enemy: int, taken: int, open_: int) -> list[int]:
        """Having taken the connections ``taken`` (of ``open_``), the cells that end the
        mover's turn and keep a win."""
        after = mover | taken
        if after | enemy == FULL:
            return [-1] if count(after) > count(enemy) else []
        endings = FULL & ~(after | enemy) & ~open_
        return [i for i in bits(endings)
                if (after | 1 << i | enemy == FULL and count(after) + 1 > count(enemy))
                or (after | 1 << i | enemy != FULL and not self.wins(enemy, after | 1 << i))]

    def options(self, mover: int, enemy: int, open_: int) -> dict[tuple[int, ...], list[int]]:
        """For every set of the open connections taken, the winning cells to end on."""
        cells = list(bits(open_))
        return {taken: self.winning_endings(mover, enemy, sum(1 << c for c in taken), open_)
                for size in range(len(cells) + 1)
                for taken in itertools.combinations(cells, size)}


@functools.cache
def reachable(to_move: int, other: int, x_to_move: bool) -> bool:
    """Whether legal play from the empty board (X first) reaches these cells with the player
    holding ``to_move`` about to start a turn.  Backwards: the other player's last turn was
    some of their cells that touch two or more of ours (connections: the turn went on) and
    one that does not (it ended the turn)."""
    if not to_move and not other:
        return x_to_move
    ends = [i for i in bits(other) if count(NEIGHBOURS[i] & to_move) < 2]
    links = [i for i in bits(other) if count(NEIGHBOURS[i] & to_move) >= 2]
    for end in ends:
        for size in range(len(links) + 1):
            for chosen in itertools.combinations(links, size):
                turn = 1 << end | sum(1 << c for c in chosen)
                if reachable(other & ~turn, to_move, not x_to_move):
                    return True
    return False


@dataclass
class Found:
    arrangements: int = 0  # O to move with exactly three connections open
    all_three_lose: int = 0
    one_wins: int = 0
    positions: dict[tuple[int, int], dict[tuple[int, ...], list[int]]] = \
        field(default_factory=dict)  # canonical (X, O) -> options: reachable, steps 1-4


def search(x_count: int = 6, o_count: int = 5, x_cells: int | None = None) -> Found:
    """Every arrangement of the counts with O to move (or those with exactly the X cells
    ``x_cells``), up to symmetry; see the module's docstring for the steps."""
    found = Found()
    solver = Solver()
    x_sets: Iterator[int] = iter([x_cells]) if x_cells is not None else (
        sum(1 << i for i in chosen) for chosen in itertools.combinations(range(CELLS), x_count))
    for xs in x_sets:
        if x_cells is None and canonical(xs, 0)[0] != xs:
            continue  # an image of an X set searched already
        # O's connections are the empty cells touching two X cells: keep exactly three of
        # the cells touching two X cells empty, fill the rest with O, then place the rest.
        double = [i for i in bits(FULL & ~xs) if count(NEIGHBOURS[i] & xs) >= 2]
        filled = len(double) - 3
        if filled < 0 or filled > o_count:
            continue
        others = [i for i in bits(FULL & ~xs) if i not in double]
        for kept in itertools.combinations(double, 3):
            open_ = sum(1 << c for c in kept)
            base = sum(1 << c for c in double if c not in kept)
            for extra in itertools.combinations(others, o_count - filled):
                os = base | sum(1 << c for c in extra)
                found.arrangements += 1
                if len(solver.memo) > 2_000_000:
                    solver.memo.clear()
                options = solver.options(os, xs, open_)
                if options[tuple(kept)]:
                    continue
                found.all_three_lose += 1
                if not any(options[(c,)] for c in kept):
                    continue
                found.one_wins += 1
                key = canonical(xs, os)
                if key not in found.positions and reachable(os, xs, False):
                    found.positions[key] = options
    return found


def diagram_position() -> tuple[int, int]:
    """The X and O cells of the tempo diagram's start, replayed from its set-up line with
    the engine (which checks that every placement is legal)."""
    from boardgen.games.copolymer.engine import Copolymer

    setup = next(line.split(":", 1)[1].split() for line in TEMPO_FILE.read_text().splitlines()
                 if line.startswith("setup:"))
    game = Copolymer(GRID, first="x")
    for name in setup:
        game.place(NOTATION.parse(name))
    assert game.to_move == "o" and not game.turn_continues
    cells = game.cells()
    xs = sum(1 << GRID.index[h] for h, p in cells.items() if p == "x")
    os = sum(1 << GRID.index[h] for h, p in cells.items() if p == "o")
    return xs, os


def named(indices: tuple[int, ...] | list[int]) -> tuple[str, ...]:
    """Cells by name, sorted (-1, 'the board is full', has none)."""
    return tuple(sorted(NOTATION.name(GRID.cells[i]) for i in indices if i >= 0))


def diagram_claim(xs: int, os: int) -> dict[tuple[str, ...], tuple[str, ...]]:
    """The diagram's winning choices, by cell name, as this script's solver finds them."""
    options = Solver().options(os, xs, connections(os, xs))
    return {named(taken): named(ends) for taken, ends in options.items() if ends}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--x", type=int, default=6, help="X cells (default 6)")
    parser.add_argument("--o", type=int, default=5, help="O cells (default 5)")
    args = parser.parse_args()
    start = time.perf_counter()
    found = search(args.x, args.o)
    print(f"{args.x} X and {args.o} O cells on the 19-cell board, O to move, up to symmetry:")
    print(f"  exactly three connections open: {found.arrangements} arrangements")
    print(f"  taking all three loses:         {found.all_three_lose}")
    print(f"  taking one alone can win:       {found.one_wins}")
    print(f"  reached by legal play:          {len(found.positions)} positions "
          f"({time.perf_counter() - start:.0f} s)")
    xs, os = diagram_position()
    among = canonical(xs, os) in found.positions
    print(f"the tempo diagram's position is among them: {'yes' if among else 'NO'}")
    claim = diagram_claim(xs, os)
    for taken, ends in sorted(claim.items()):
        print(f"  O wins by taking {' '.join(taken) or 'no connection'}, then ending on "
              f"{' or '.join(ends)}")
    agrees = claim == SHEET_CLAIM
    print(f"the sheet's claim (only D3, alone or with B4, then C2): "
          f"{'reproduced' if agrees else 'NOT reproduced'}")
    return 0 if among and agrees else 1


if __name__ == "__main__":
    sys.exit(main())
