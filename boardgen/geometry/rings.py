"""The six neighbour positions of a cell as a 6-bit pattern, and its class ("glyph").

Bit i is ring position i, clockwise on the page from east (``DIRECTIONS`` order); a set bit
is a stone.  A glyph is a pattern up to rotation and reflection; the names follow
shared/spec/o.md.  One class of three stones is chiral: its two mirror images are told
apart as ``k3-left`` and ``k3-right``, which gives 13 glyphs for 0 to 5 stones (12 without
the split) plus ``k6``, the full ring.
"""

from __future__ import annotations

from functools import cache

RING = 6
FULL = (1 << RING) - 1

# Ordered by stone count, then as the spec lists them.
GLYPHS: tuple[str, ...] = (
    "k0", "k1", "k2-adjacent", "k2-gap", "k2-opposite", "k3-row", "k3-left", "k3-right",
    "k3-alternate", "k4-row", "k4-gap", "k4-opposite", "k5", "k6",
)


def rotate(bits: int, steps: int) -> int:
    """Turn the pattern clockwise by ``steps`` sixths of a turn."""
    steps %= RING
    return ((bits << steps) | (bits >> (RING - steps))) & FULL


def mirror(bits: int) -> int:
    """Reflect across the east-west axis: position i goes to position -i."""
    return sum(1 << (-i % RING) for i in range(RING) if bits >> i & 1)


def rotation_class(bits: int) -> int:
    """The smallest rotation of the pattern: equal for patterns equal up to rotation."""
    return min(rotate(bits, k) for k in range(RING))


def dihedral_class(bits: int) -> int:
    """Equal for patterns equal up to rotation and reflection."""
    return min(rotation_class(bits), rotation_class(mirror(bits)))


def stone_runs(bits: int) -> list[int]:
    """Lengths of the unbroken runs of stones around the ring (neighbouring positions both
    holding stones are one run; the ring wraps)."""
    if bits == FULL:
        return [RING]
    if bits == 0:
        return []
    start = next(i for i in range(RING) if not bits >> i & 1)  # begin on an empty position
    runs, length = [], 0
    for k in range(1, RING + 1):
        if bits >> ((start + k) % RING) & 1:
            length += 1
        elif length:
            runs.append(length)
            length = 0
    return runs


def _positions(bits: int) -> list[int]:
    return [i for i in range(RING) if bits >> i & 1]


@cache
def glyph(bits: int) -> str:
    """The glyph name of a ring pattern."""
    stones = bin(bits).count("1")
    runs = stone_runs(bits)
    if stones in (0, 1, 5, 6):
        return f"k{stones}"
    if stones == 2:
        i, j = _positions(bits)
        return {1: "k2-adjacent", 2: "k2-gap", 3: "k2-opposite"}[min(j - i, RING - (j - i))]
    if stones == 4:
        i, j = _positions(FULL ^ bits)  # the two empty positions
        return {1: "k4-row", 2: "k4-gap", 3: "k4-opposite"}[min(j - i, RING - (j - i))]
    if runs == [3]:
        return "k3-row"
    if len(runs) == 3:
        return "k3-alternate"
    # A pair and a lone stone.  Read clockwise from the lone stone: "left" is stone, empty,
    # stone, stone (one gap before the pair); "right" has two gaps before the pair.
    lone = next(i for i in _positions(bits)
                if not bits >> ((i + 1) % RING) & 1 and not bits >> ((i - 1) % RING) & 1)
    return "k3-left" if bits >> ((lone + 2) % RING) & 1 else "k3-right"


def patterns_of(name: str) -> list[int]:
    """Every 6-bit pattern of a glyph."""
    return [bits for bits in range(FULL + 1) if glyph(bits) == name]
