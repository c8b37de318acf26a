"""Lists of cell indices that a game's engine draws from at random (the empty cells, the
cells that end a turn), with ``slot[i]`` saying where cell i stands: a cell leaves in O(1)
(the last one takes its place), and an undo puts it back exactly where it stood, so that
a random draw after an undo is the draw before the move.  Engines whose play-outs are hot
write :func:`swap_remove` out inline; undo is not hot."""

from __future__ import annotations


def swap_remove(items: list[int], slot: list[int], i: int) -> None:
    """Take i out of ``items`` in O(1): the last item takes its place."""
    last = items.pop()
    if last != i:
        where = slot[i]
        items[where] = last
        slot[last] = where


def put_back(items: list[int], slot: list[int], i: int) -> None:
    """Undo :func:`swap_remove` of i, the last one taken out: every item where it stood."""
    where = slot[i]  # unchanged since i went out
    if where == len(items):
        items.append(i)
    else:
        moved = items[where]
        slot[moved] = len(items)
        items.append(moved)
        items[where] = i


def append(items: list[int], slot: list[int], i: int) -> None:
    """i at the end of ``items`` (a list that never held it in order)."""
    slot[i] = len(items)
    items.append(i)
