"""O: glyphs, the corner rule, loops, the partisan variant, and the designer's claims."""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import Run
from naive_engines import Board, naive_o_legal, naive_o_reachable_counts, single_run_of_two_to_five

from boardgen.errors import BoardgenError
from boardgen.games.o.engine import (
    DEFAULT_GLYPH_TABLE,
    OGame,
    allows,
    parse_glyph_table,
    reachable_positions,
)
from boardgen.geometry import Hex, hexhex
from boardgen.geometry.rings import (
    GLYPHS,
    dihedral_class,
    glyph,
    rotation_class,
)

RunCli = Callable[..., Run]

# One representative per glyph, bit i = ring position i clockwise from east; written out
# by hand, independently of glyph()'s rules.
REPRESENTATIVES = {
    "k0": 0b000000, "k1": 0b000001, "k2-adjacent": 0b000011, "k2-gap": 0b000101,
    "k2-opposite": 0b001001, "k3-row": 0b000111,
    "k3-left": 0b001101,  # from the lone stone (0) clockwise: stone empty stone stone
    "k3-right": 0b001011,  # its mirror image: stone stone empty stone, from stone 0
    "k3-alternate": 0b010101, "k4-row": 0b001111, "k4-gap": 0b010111,
    "k4-opposite": 0b011011, "k5": 0b011111, "k6": 0b111111,
}


def test_glyph_class_counts() -> None:
    below_six = range(63)
    assert len({rotation_class(b) for b in below_six}) == 13  # chiral pair split
    assert len({dihedral_class(b) for b in below_six}) == 12
    assert len({glyph(b) for b in below_six}) == 13
    assert set(GLYPHS) == set(REPRESENTATIVES)


def glyph_by_hand(bits: int) -> str:
    """The spec's glyph names worked out from the ring itself (bit i is ring position i,
    clockwise): how many stones, and how the stones or the gaps sit."""
    ring = [bool(bits >> i & 1) for i in range(6)]
    stones = sum(ring)
    if stones in (0, 1, 5, 6):
        return f"k{stones}"
    if stones == 2:
        a, b = (i for i in range(6) if ring[i])
        return {1: "k2-adjacent", 2: "k2-gap", 3: "k2-opposite"}[min(b - a, 6 - (b - a))]
    if stones == 4:
        a, b = (i for i in range(6) if not ring[i])
        return {1: "k4-row", 2: "k4-gap", 3: "k4-opposite"}[min(b - a, 6 - (b - a))]
    pattern = "".join("s" if r else "." for r in ring)
    for turn in range(6):  # read clockwise from every position
        read = pattern[turn:] + pattern[:turn]
        if read == "sss...":
            return "k3-row"
        if read == "s.s.s.":
            return "k3-alternate"
        if read == "s.ss..":  # from the lone stone: stone, empty, stone, stone
            return "k3-left"
        if read == "ss.s..":  # its mirror image
            return "k3-right"
    raise AssertionError(pattern)


def mirror_by_hand(bits: int) -> int:
    """Reflect the ring in the axis through position 0: position i goes to 6 - i."""
    return sum(1 << ((6 - i) % 6) for i in range(6) if bits >> i & 1)


def test_every_ring_pattern_maps_to_its_glyph() -> None:
    for name, bits in REPRESENTATIVES.items():
        assert glyph_by_hand(bits) == name
    for bits in range(64):
        assert glyph(bits) == glyph_by_hand(bits), bin(bits)
    counts = Counter(glyph(b) for b in range(64))
    assert counts["k3-left"] == counts["k3-right"] == 6 and counts["k2-opposite"] == 3


def test_left_and_right_are_mirror_images_and_nothing_else_is_chiral() -> None:
    for bits in range(64):
        mirrored = glyph(mirror_by_hand(bits))
        if glyph(bits) == "k3-left":
            assert mirrored == "k3-right"
        elif glyph(bits) != "k3-right":
            assert mirrored == glyph(bits)


def test_glyph_table_is_the_single_run_rule() -> None:
    for bits in range(63):
        single_run = single_run_of_two_to_five([bool(bits >> i & 1) for i in range(6)])
        ruling = DEFAULT_GLYPH_TABLE[glyph(bits)]
        assert (ruling == "illegal") == single_run, bin(bits)
    assert [g for g, r in DEFAULT_GLYPH_TABLE.items() if r == "illegal"] == \
        ["k2-adjacent", "k3-row", "k4-row", "k5"]


@pytest.mark.parametrize("side", [4, 5, 6])
def test_legal_cells_agree_with_a_naive_engine_in_random_games(side: int) -> None:
    grid = hexhex(side)
    board = Board(grid.cells)
    rng = random.Random(side)
    for _ in range(40):
        game = OGame(grid)
        while not game.over:
            stones = set(game.stones())
            assert set(game.legal()) == {h for h in grid.cells
                                         if naive_o_legal(board, stones, h)}
            game.place(game.random_legal(rng))


def test_ring_pattern_is_kept_up_to_date() -> None:
    game = OGame(hexhex(5))
    n = game.notation.parse
    centre = n("E5")
    ring = [centre + d for d in [Hex(1, 0), Hex(0, 1), Hex(-1, 1), Hex(-1, 0), Hex(0, -1),
                                  Hex(1, -1)]]
    game.setup([ring[0], ring[2], ring[3]])
    assert game.ring_bits(centre) == 0b001101
    assert game.ring_glyph(centre) == "k3-left"


def test_corner_rule() -> None:
    game = OGame(hexhex(4))
    n = game.notation.parse
    game.place(n("A1"))  # a corner
    assert game.why_illegal(n("B2")) == "corner rule: it would touch the corner stone on A1"
    assert game.why_illegal(n("A2")) is None  # a perimeter neighbour is fine
    other = OGame(hexhex(4))
    other.place(other.notation.parse("B2"))  # the inner neighbour of corner A1
    reason = other.why_illegal(other.notation.parse("A1"))
    assert reason is not None and reason.startswith("corner rule")
    with pytest.raises(BoardgenError, match="corner rule"):
        other.place(other.notation.parse("A1"))


def test_ring_of_six_around_an_empty_cell_is_a_loop() -> None:
    game = OGame(hexhex(5))
    centre = game.notation.parse("E5")
    ring = [centre + d for d in [Hex(1, 0), Hex(0, 1), Hex(-1, 1), Hex(-1, 0), Hex(0, -1),
                                  Hex(1, -1)]]
    game.setup(ring[:5])
    assert not game.over and not game.loop and not game.enclosed  # asked before the loop
    stone = game.place(ring[5])
    assert stone.loop and game.over and game.winner == "first"
    assert game.loop == frozenset(ring) and game.enclosed == frozenset([centre])
    game.undo()
    assert not game.over and not game.loop and not game.enclosed
    game.place(ring[5])
    assert game.loop == frozenset(ring) and game.enclosed == frozenset([centre])


def test_a_chain_along_the_edge_encloses_nothing() -> None:
    game = OGame(hexhex(4))
    n = game.notation.parse
    # A chain along row B leaves the edge cells of row A beside it empty: outside the
    # board counts as open, so they are not enclosed.
    game.setup([n("B1"), n("B2"), n("B3")])
    game.place(n("B5"))
    assert not game.over and not game.loop


def test_loop_stones_may_lie_on_the_board_edge() -> None:
    game = OGame(hexhex(4))
    pocket = game.notation.parse("B2")  # interior, next to the corner A1
    ring = [h for h in game.grid.ring(pocket) if h is not None]
    assert len(ring) == 6 and sum(h in game.grid.perimeter for h in ring) == 3
    game.setup(ring[:5])
    game.place(ring[5])
    assert game.over and game.enclosed == frozenset([pocket])
    assert game.loop == frozenset(ring)


def test_partisan_skips_a_player_with_no_placement() -> None:
    table = dict.fromkeys(DEFAULT_GLYPH_TABLE, "left")  # only Left may ever place
    game = OGame(hexhex(4), partisan=True, table=table)
    assert game.to_move == "left"
    game.place(game.notation.parse("D4"))
    assert game.to_move == "left" and game.skipped == [(1, "right")]


def test_nobody_can_place_ends_the_game_without_a_winner() -> None:
    table = dict.fromkeys(DEFAULT_GLYPH_TABLE, "illegal")
    table["k0"] = "legal"  # only cells touching no stone
    game = OGame(hexhex(4), table=table)
    rng = random.Random(1)
    while not game.over:
        game.place(game.random_legal(rng))
    assert game.stuck and game.winner is None and not game.loop


def test_a_table_that_allows_nothing_ends_the_game_at_once(run_cli: RunCli,
                                                          tmp_path: Path) -> None:
    table = dict.fromkeys(DEFAULT_GLYPH_TABLE, "illegal")
    game = OGame(hexhex(4), table=table)
    assert game.over and game.stuck and game.winner is None and game.legal() == []
    glyphs = tmp_path / "nothing.txt"
    glyphs.write_text("".join(f"{g}: illegal\n" for g in DEFAULT_GLYPH_TABLE))
    result = run_cli("play", "o", "--side", "4", "--glyphs", str(glyphs), "--json")
    assert result.code == 0, result.err
    data = json.loads(result.out)
    assert (data["over"], data["winner"], data["to_move"], data["legal"]) == \
        (True, None, None, [])
    # Partisan: only Right may ever place, so Left is skipped before the first stone.
    right_only = OGame(hexhex(4), partisan=True, table=dict.fromkeys(DEFAULT_GLYPH_TABLE,
                                                                     "right"))
    assert not right_only.over and right_only.to_move == "right"
    assert right_only.skipped == [(0, "left")]


def test_partisan_left_and_right_glyph_rulings() -> None:
    assert allows("left", "left") and not allows("left", "right")
    assert allows("left", "first") and allows("right", "second")
    game = OGame(hexhex(5), partisan=True)
    centre = game.notation.parse("E5")
    ring = [centre + d for d in [Hex(1, 0), Hex(0, 1), Hex(-1, 1), Hex(-1, 0), Hex(0, -1),
                                  Hex(1, -1)]]
    game.setup([ring[0], ring[2], ring[3]])  # a k3-left ring around the centre
    assert game.why_illegal(centre, "left") is None
    assert game.why_illegal(centre, "right") == "only Left may place in a k3-left ring"


def test_glyph_file_parsing(tmp_path: Path) -> None:
    text = "\n".join(f"{g}: {r}  # ruling" for g, r in DEFAULT_GLYPH_TABLE.items())
    assert parse_glyph_table(text, "g.txt") == DEFAULT_GLYPH_TABLE
    with pytest.raises(BoardgenError, match="g.txt:1: unknown glyph 'k9'"):
        parse_glyph_table("k9: legal", "g.txt")
    with pytest.raises(BoardgenError, match="no ruling for"):
        parse_glyph_table("k0: legal", "g.txt")
    with pytest.raises(BoardgenError, match="unknown ruling 'maybe'"):
        parse_glyph_table("k0: maybe", "g.txt")


def _play_out(game: OGame, rng: random.Random) -> None:
    while not game.over:
        before = len(game.legal())
        assert before > 0
        cell = game.random_legal(rng)
        assert game.why_illegal(cell) is None
        game.place(cell)


@pytest.mark.parametrize("side", [4, 5, 6, 7, 8])
def test_designer_claims_in_2000_random_games(side: int) -> None:
    """Impartial O: a player always has a placement, and a loop is always formed."""
    rng = random.Random(2024 + side)
    grid = hexhex(side)
    lengths = []
    for _ in range(2000):
        game = OGame(grid)
        _play_out(game, rng)
        assert game.winner is not None and not game.stuck, "counter-example: no loop"
        assert game.loop and game.enclosed
        assert all(h not in grid.perimeter for h in game.enclosed)
        lengths.append(len(game.history))
    assert max(lengths) < len(grid)


def test_designer_claims_exhaustively_to_four_stones_on_edge_4() -> None:
    counts, stuck = reachable_positions(hexhex(4), 4)
    assert stuck == []  # every reachable position has a placement
    assert counts == naive_o_reachable_counts(hexhex(4), 4)
    assert counts[0] == 37  # every cell of the empty edge-4 board


def test_undo_restores_legality() -> None:
    rng = random.Random(5)
    game = OGame(hexhex(5), partisan=True)
    for _ in range(12):
        if game.over:
            break
        before = (game.legal("left"), game.legal("right"), game.to_move, list(game.skipped))
        game.place(game.random_legal(rng))
        game.undo()
        assert before == (game.legal("left"), game.legal("right"), game.to_move,
                          list(game.skipped))
        game.place(game.random_legal(rng))


@pytest.mark.parametrize(("stones", "only_k0"), [(6, False), (24, False), (10, True)])
def test_random_legal_draws_every_legal_cell_alike(stones: int, only_k0: bool) -> None:
    """random_legal draws among the empty cells and falls back to the list of legal ones
    when draws miss (few legal cells among many empty ones, as under a table that allows
    only cells touching no stone): every legal cell, nothing else, each about as often."""
    rng = random.Random(stones)
    table = {**dict.fromkeys(DEFAULT_GLYPH_TABLE, "illegal"), "k0": "legal"} if only_k0 \
        else None
    game = OGame(hexhex(5), table=table)
    while len(game.history) < stones and not game.over:
        game.place(game.random_legal(rng))
    assert not game.over
    legal = game.legal()
    if only_k0:
        assert 0 < len(legal) < (len(game.grid) - stones) / 4  # the draws mostly miss
    draws = Counter(game.random_legal(rng) for _ in range(300 * len(legal)))
    assert set(draws) == set(legal)
    assert all(abs(count - 300) < 75 for count in draws.values()), draws  # ~4.3 sd


def test_partisan_games_pass_the_move_only_to_a_player_who_can_place() -> None:
    """The engine judges whether a player can place from one cell known legal; checked
    here against the full list of legal cells after every stone of random partisan games,
    with tables under which players are often left without a placement."""
    # The second table leaves Right only the cells touching no stone: soon skipped.
    tables = [dict(DEFAULT_GLYPH_TABLE),
              {**DEFAULT_GLYPH_TABLE, "k0": "right", "k1": "left", "k2-gap": "left",
               "k2-opposite": "left", "k3-alternate": "left", "k4-gap": "left"}]
    skips = 0
    for seed in range(60):
        rng = random.Random(seed)
        game = OGame(hexhex(4 + seed % 2), partisan=True, table=tables[seed % 2])
        while not game.over:
            mover = game.to_move
            assert game.legal(mover), (seed, len(game.history))
            game.place(game.random_legal(rng))
            if game.over:
                break
            other = "right" if mover == "left" else "left"
            if game.to_move == mover:  # the other player was skipped: nothing for them
                assert game.legal(other) == [] and game.skipped[-1] == (len(game.history),
                                                                        other)
                skips += 1
            else:
                assert game.to_move == other
        if game.stuck:
            assert game.legal("left") == game.legal("right") == []
    assert skips  # skips were checked


def test_play_o_json_and_errors(run_cli: RunCli, tmp_path: Path) -> None:
    result = run_cli("play", "o", "--side", "4", "--partisan", "--moves", "D4 A1", "--json")
    assert result.code == 0, result.err
    data = json.loads(result.out)
    assert list(data) == ["side", "to_move", "stones", "legal", "over", "winner", "loop"]
    assert data["to_move"] == "left" and data["stones"] == ["A1", "D4"]
    assert "B2" not in data["legal"] and data["loop"] == []
    bad = run_cli("play", "o", "--side", "4", "--moves", "A1 B2")
    assert bad.code == 2 and "move 2 (B2): corner rule" in bad.err
    small = run_cli("play", "o", "--side", "3")
    assert small.code == 2 and "edge 4 or more" in small.err
    glyphs = tmp_path / "g.txt"
    glyphs.write_text("\n".join(f"{g}: legal" for g in DEFAULT_GLYPH_TABLE))
    free = run_cli("play", "o", "--side", "4", "--glyphs", str(glyphs), "--moves", "D4 D5",
                   "--json")
    assert free.code == 0 and json.loads(free.out)["stones"] == ["D4", "D5"]
    wrong = run_cli("play", "copolymer", "--partisan")
    assert wrong.code == 2 and "--partisan applies to O" in wrong.err


# --- diagrams ------------------------------------------------------------------------------


def _chart_roles(glyphs: dict[str, str] | None) -> dict[str, str]:
    from boardgen.games.registry import build_diagram

    diagram = build_diagram("o", "glyphs", options={"glyphs": glyphs})
    ((_, scenes),) = diagram.rows
    return {_glyph_named(s.caption): s.cell_roles[Hex(0, 0)] for s in scenes}


def _glyph_named(caption: str | None) -> str:
    """The engine's glyph name for a flower's caption (which names it in players' words)."""
    from boardgen.games.o.picture import GLYPH_WORDS

    words = (caption or "").split(":")[0]
    return {v: k for k, v in GLYPH_WORDS.items()}[words]


def test_glyph_chart_is_drawn_from_the_table() -> None:
    roles = _chart_roles(None)
    assert len(roles) == 13
    for name, role in roles.items():
        assert (role == "illegal") == (DEFAULT_GLYPH_TABLE[name] == "illegal")
    flipped = {g: ("illegal" if r != "illegal" else "legal") for g, r in
               DEFAULT_GLYPH_TABLE.items()}
    assert all((role == "illegal") == (flipped[name] == "illegal")
               for name, role in _chart_roles(flipped).items())


def test_glyph_chart_flowers_show_each_glyphs_pattern() -> None:
    from boardgen.games.registry import build_diagram
    from boardgen.geometry import DIRECTIONS

    ((_, scenes),) = build_diagram("o", "glyphs").rows
    for scene in scenes:
        bits = sum(1 << DIRECTIONS.index(m.cell) for m in scene.markers)
        assert glyph(bits) == _glyph_named(scene.caption)


def test_corner_and_loop_diagrams_say_what_the_engine_says() -> None:
    from boardgen.games.registry import build_diagram

    ((_, corners),) = build_diagram("o", "corners").rows
    captions = [s.caption or "" for s in corners]
    # Players' words: who placed where (numbers off: no stone number to name).
    assert captions[0] == "First places a stone on A2. A1: a stone may go here."
    assert not any(s.cell_texts for s in corners)  # plain stones: numbers off
    assert "corner rule" in captions[1] and "corner rule" in captions[2]
    assert [s.cell_roles[s.grid.cells[0]] for s in corners] == \
        ["legal", "illegal", "corner", "corner"]  # A1: the candidate, then a stone on it
    ((_, (loop,)),) = build_diagram("o", "loop").rows
    enclosed = {h for h, role in loop.cell_roles.items() if role == "new"}
    loop_stones = {m.cell for m in loop.markers if m.role == "loop"}
    assert enclosed and loop_stones
    assert all(any(n in loop_stones for n in loop.grid.neighbours(h)) for h in enclosed)
    # The stone that closed the loop is ringed.
    (closing,) = [m.cell for m in loop.markers if m.kind == "ring"]
    assert closing in loop_stones and loop.grid.cells  # B6, the last stone
    assert "closes a loop of 13 stones with B6" in (loop.caption or "")


def test_cli_o_diagrams(run_cli: RunCli, tmp_path: Path) -> None:
    listing = run_cli("diagram", "o", "--list")
    assert listing.out.split() == ["corners", "glyphs", "loop", "partisan-glyphs",
                                   "short-game"]
    out = tmp_path / "chart.svg"
    glyphs = tmp_path / "g.txt"
    glyphs.write_text("\n".join(f"{g}: legal" for g in DEFAULT_GLYPH_TABLE))
    result = run_cli("diagram", "o", "glyphs", "--glyphs", str(glyphs), "-o", str(out))
    assert result.code == 0, result.err
    def illegal_centres(svg: str) -> int:  # the legend's own swatch is not a glyph
        return len(re.findall(r'class="cell illegal" data-cell="(?!legend-)', svg))

    assert illegal_centres(out.read_text()) == 0
    default = tmp_path / "default.svg"
    assert run_cli("diagram", "o", "glyphs", "-o", str(default)).code == 0
    assert illegal_centres(default.read_text()) == 4
    bad = run_cli("diagram", "o", "nope")
    assert bad.code == 2 and "no o diagram named 'nope'" in bad.err


def test_partisan_glyphs_say_whose_they_are_in_print() -> None:
    """A mark on the centre (L or R), not colour alone, says who may place there."""
    from boardgen.games.registry import build_diagram

    ((_, scenes),) = build_diagram("o", "partisan-glyphs").rows
    assert [s.cell_texts.get(Hex(0, 0)) for s in scenes] == ["L", "R"]
    assert all(any(m.cell == Hex(0, 0) and m.kind == "disc" for m in s.markers)
               for s in scenes)


def test_once_a_loop_wins_no_empty_cell_is_legal_in_a_picture_either() -> None:
    """A diagram's 'highlight: legal' after the game is over is refused: the engine's
    refusal says the game is over, as place does (found by the O highlight property test
    with a game that ends in a loop at its 14th stone)."""
    import boardgen
    from boardgen.games.o.engine import OReason

    played = "E4 E7 A3 D3 G7 D5 D2 C6 C3 E5 D6 B4 B3 C4"
    engine = boardgen.engine("o", side=4)
    for move in played.split():
        engine.push(move)
    assert engine.over and engine.winner == "second"
    assert engine.legal_moves() == () and not engine.is_legal("A1")
    text = f"game: o\nboard: hexhex 4\nsetup: {played}\npanel: p\nhighlight: legal A1\n"
    with pytest.raises(boardgen.BoardgenError, match="line 5: highlight legal .*game is over"):
        boardgen.parse_diagram(text)
    from boardgen.games.o.engine import OGame  # the engine itself, as the judges ask it
    from boardgen.geometry import hexhex

    raw = OGame(hexhex(4))
    for move in played.split():
        raw.place(raw.notation.parse(move))
    refusal = raw.refusal(raw.notation.parse("A1"))
    assert refusal is not None and refusal.code is OReason.GAME_OVER
