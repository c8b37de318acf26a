"""boardgen.Engine as a python-chess user expects it (issue 33, item 1): push/pop, copies
that share nothing, positions as snapshots, moves as a tuple in one spelling, ==, str(),
a picture in Jupyter, set-up from start=, errors with .line/.field.  The three aliasing
cases of the issue (engine.position live, copy.copy shared, engine.moves the internal list)
each have a test here that fails on main 5e221b8.  Every game, built-in and plug-in (the
example plug-in of examples/fives, through the protocol's defaults)."""

from __future__ import annotations

import copy
import random
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from conftest import ROOT, Run
from hypothesis import given, settings
from hypothesis import strategies as st

import boardgen
from boardgen.games import registry

GAMES: list[tuple[str, dict[str, object]]] = [
    ("copolymer", {"side": 3}), ("o", {"side": 4}), ("o", {"side": 4, "partisan": True}),
    ("polygone", {}), ("free", {"side": 3})]
SETTINGS = {"deadline": None, "derandomize": True}


@pytest.fixture
def fives(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """The example plug-in game (examples/fives) known to the registry, in this process."""
    monkeypatch.syspath_prepend(str(ROOT / "examples" / "fives"))
    from boardgen_fives import GAME

    known = {**registry.games(), GAME.key: GAME}
    monkeypatch.setattr(registry, "games", lambda: known)
    yield GAME.key
    sys.modules.pop("boardgen_fives", None)


def random_moves(handle: boardgen.Engine, rng: random.Random, limit: int) -> list[str]:
    played = []
    while not handle.over and len(played) < limit:
        played.append(handle.push(handle.random_legal(rng)))
    return played


def state(handle: boardgen.Engine) -> tuple[object, ...]:
    """Everything a program reads of a position."""
    return (handle.to_json(), str(handle), handle.legal_moves(), handle.to_move,
            handle.over, handle.winner, handle.moves)


# --- the aliasing cases of the issue: each failed on 5e221b8 ------------------------------

def test_the_position_is_a_snapshot_that_later_moves_never_change() -> None:
    game = boardgen.engine("o", side=4)
    seen = []
    for move in ("D4", "A1", "G4"):
        game.play(move)
        seen.append(game.position)
    assert [len(p.to_json()["stones"]) for p in seen] == [1, 2, 3]  # type: ignore[arg-type]
    assert [p.moves for p in seen] == [("D4",), ("D4", "A1"), ("D4", "A1", "G4")]
    with pytest.raises(boardgen.BoardgenError, match="snapshot"):
        seen[0].play(["B2"])


def test_copy_copy_and_deepcopy_share_no_state() -> None:
    game = boardgen.engine("o", side=4)
    game.play("D4")
    for twin in (copy.copy(game), copy.deepcopy(game), game.copy()):
        twin.play("A1")
        assert game.moves == ("D4",) and len(game.to_json()["stones"]) == 1  # type: ignore[arg-type]
        assert twin.moves == ("D4", "A1")
    assert copy.copy(game) == game and copy.copy(game) is not game


def test_moves_is_a_tuple_not_the_internal_list() -> None:
    game = boardgen.engine("o", side=4)
    game.play("D4")
    moves = game.moves
    assert isinstance(moves, tuple)
    with pytest.raises(AttributeError):
        moves.append("B2")  # type: ignore[attr-defined]
    listed = list(game.moves)
    listed.append("B2")
    assert game.moves == ("D4",) and game.to_json()["stones"] == ["D4"]


# --- push and pop -------------------------------------------------------------------------

@settings(max_examples=25, **SETTINGS)  # type: ignore[arg-type]
@given(game=st.sampled_from(GAMES), seed=st.integers(0, 10**6), back=st.integers(1, 30))
def test_pop_restores_exactly_the_position_before(game: tuple[str, dict[str, object]],
                                                  seed: int, back: int) -> None:
    """Every position on the way is seen again, identical, when the moves are taken back;
    the engine then plays on as a fresh one would (the same random game from a seed)."""
    name, options = game
    handle = boardgen.engine(name, **options)  # type: ignore[arg-type]
    rng = random.Random(seed)
    seen = [state(handle)]
    while not handle.over and len(seen) <= 40:
        handle.push(handle.random_legal(rng))
        seen.append(state(handle))
    for _ in range(min(back, len(handle.moves))):
        moves = handle.moves
        assert handle.pop() == moves[-1]
        assert state(handle) == seen[len(handle.moves)]
    again = random_moves(handle, random.Random(seed + 1), 10)
    fresh = boardgen.engine(name, **options)  # type: ignore[arg-type]
    for move in handle.moves[:len(handle.moves) - len(again)]:
        fresh.push(move)
    assert random_moves(fresh, random.Random(seed + 1), 10) == again
    assert fresh == handle


def test_pop_on_no_move_is_a_boardgen_error_and_undo_is_pop() -> None:
    game = boardgen.engine("copolymer", side=3)
    with pytest.raises(boardgen.BoardgenError, match="no move to take back") as refused:
        game.pop()
    assert refused.value.field == "moves"
    assert game.play("c3") == "C3" and game.undo() == "C3" and game.moves == ()
    assert game.peek() is None and game.push("B2") == "B2" and game.peek() == "B2"


def test_moves_are_kept_in_one_spelling() -> None:
    o = boardgen.engine("o", side=4)
    assert [o.push(m) for m in ("d4", "0,-3")] == ["D4", "A1"]  # a name, or axial q,r
    assert o.moves == ("D4", "A1")
    polygone = boardgen.engine("polygone")
    assert polygone.push("C0 c2 -> D1") == "c0-c2>d1" and polygone.moves == ("c0-c2>d1",)
    assert set(o.legal_moves()) <= {m.upper() for m in o.legal_moves()}


def test_a_refused_move_names_its_field_and_index() -> None:
    game = boardgen.engine("o", side=4)
    game.push("D4")
    with pytest.raises(boardgen.BoardgenError) as refused:
        game.push("D4")
    assert (refused.value.field, refused.value.move_index) == ("moves", 1)
    with pytest.raises(boardgen.BoardgenError) as refused:
        boardgen.play("o", ["D4", "A1", "Z9"], side=4)
    assert (refused.value.field, refused.value.move_index) == ("moves", 2)
    assert str(refused.value).startswith("move 3 (Z9): ")


def test_parse_diagram_errors_carry_their_line() -> None:
    with pytest.raises(boardgen.BoardgenError) as refused:
        boardgen.parse_diagram("game: o\nboard: hexhex 4\npanel: one\nplace: D4 D4\n")
    assert refused.value.line == 4 and refused.value.field == "text"
    with pytest.raises(boardgen.BoardgenError) as refused:
        boardgen.parse_diagram("title: x\n\ngame: nope\n")
    assert refused.value.line == 3


def test_load_diagram_errors_carry_their_line(tmp_path: Path) -> None:
    path = tmp_path / "d.txt"
    for text, line in (("game: o\nboard: hexhex 4\npanel: one\nplace: D4 D4\n", 4),
                       ("\ngame: nope\n", 2)):
        path.write_text(text)
        with pytest.raises(boardgen.BoardgenError) as refused:
            boardgen.load_diagram(path)
        assert refused.value.line == line, str(refused.value)


# --- equality, text, pictures, copies -----------------------------------------------------

def test_equality_is_game_board_options_and_position() -> None:
    one, two = boardgen.engine("o", side=4), boardgen.engine("o", side=4)
    assert one == two and one != boardgen.engine("o", side=5)
    assert one != boardgen.engine("o", side=4, partisan=True)
    one.push("D4")
    assert one != two
    two.push("D4")
    assert one == two and one != "D4"
    with pytest.raises(TypeError):
        hash(one)


@pytest.mark.parametrize(("name", "options"), GAMES, ids=lambda v: str(v))
def test_str_is_what_play_prints_and_jupyter_gets_a_picture(
        name: str, options: dict[str, object], run_cli: Callable[..., Run]) -> None:
    handle = boardgen.engine(name, **options)  # type: ignore[arg-type]
    random_moves(handle, random.Random(3), 4)
    flags = [f"--{k}" if v is True else f"--{k}={v}" for k, v in options.items()]
    printed = run_cli("play", name, *flags, "--moves", " ".join(handle.moves))
    assert printed.code == 0, printed.err
    assert str(handle) == printed.out.rstrip("\n") == str(handle.position)
    assert handle._repr_svg_() == handle.position._repr_svg_()
    assert (handle._repr_svg_() or "").lstrip().startswith("<?xml")
    assert repr(handle).startswith(f"<boardgen.Engine {name}: 4 moves")


@pytest.mark.parametrize(("name", "options"), GAMES, ids=lambda v: str(v))
def test_a_copy_goes_its_own_way(name: str, options: dict[str, object]) -> None:
    handle = boardgen.engine(name, **options)  # type: ignore[arg-type]
    random_moves(handle, random.Random(5), 3)
    before = state(handle)
    twin = handle.copy()
    assert twin == handle and state(twin) == before
    random_moves(twin, random.Random(6), 5)
    while twin.moves:
        twin.pop()
    assert state(handle) == before  # nothing the copy did reached the original


def test_legal_is_a_deprecated_name_of_legal_moves() -> None:
    game = boardgen.engine("o", side=4)
    with pytest.deprecated_call():
        assert game.legal() == list(game.legal_moves())


# --- a plug-in, through the protocol's defaults ----------------------------------------------

def test_a_plugin_game_gets_push_pop_copy_and_snapshots(fives: str) -> None:
    handle = boardgen.engine(fives, side=4)
    seen = [state(handle)]
    rng = random.Random(1)
    for _ in range(6):
        handle.push(handle.random_legal(rng))
        seen.append(state(handle))
    snapshot, twin = handle.position, copy.deepcopy(handle)
    assert handle.pop() == seen[-1][-1][-1]  # type: ignore[index]
    assert state(handle) == seen[-2] and snapshot.moves == seen[-1][-1]
    assert state(twin) == seen[-1]
    while handle.moves:
        handle.pop()
        assert state(handle) == seen[len(handle.moves)]


# --- set-up: start= and --start --------------------------------------------------------------

def test_o_starts_from_a_drawing_as_play_prints_it() -> None:
    game = boardgen.engine("o", side=4)
    for move in ("D4", "A1", "G4"):
        game.push(move)
    set_up = boardgen.engine("o", side=4, start=str(game))  # its status line read back
    assert set_up.moves == () and set_up.to_move == "second" == game.to_move
    assert set_up.to_json()["stones"] == game.to_json()["stones"]
    assert not {"A1", "B2"} & set(set_up.legal_moves())  # taken; the corner rule
    with pytest.raises(boardgen.BoardgenError, match="^start: ") as refused:
        boardgen.engine("o", side=5, start=str(game))
    assert refused.value.field == "start"


def test_polygone_starts_from_pieces_and_captures() -> None:
    start = "white: c0-c2 b1-c2\nblack: c10-c8\ncaptured: white 3 black 2\nto-move: black\n"
    game = boardgen.engine("polygone", start=start)
    assert game.to_json()["captured"] == {"white": 3, "black": 2}
    assert game.to_json()["pieces"] == {"b1-c2": "white", "c0-c2": "white",
                                        "c8-c10": "black"}
    assert game.to_move == "black"
    with pytest.raises(boardgen.BoardgenError, match=r"^start: line 2: 'place:' does not set "
                                                     r"up a position") as refused:
        boardgen.engine("polygone", start="white: c0-c2\nplace: c0\n")
    assert (refused.value.line, refused.value.field) == (2, "start")


def test_start_on_the_command_line(run_cli: Callable[..., Run], in_tmp: Path) -> None:
    Path("p.txt").write_text("white: c0-c2\nblack: c10-c8\ncaptured: white 6 black 0\n"
                             "to-move: black\n")
    played = run_cli("play", "polygone", "--start", "p.txt", "--json")
    assert played.code == 0, played.err
    assert '"captured": {"white": 6, "black": 0}' in played.out
    drawn = run_cli("play", "o", "--side", "4", "--moves", "D4 A1")
    Path("o.txt").write_text(drawn.out)
    again = run_cli("play", "o", "--side", "4", "--start", "o.txt", "--moves", "B2")
    assert again.code == 2 and again.err.startswith("boardgen: error: move 1 (B2): corner")
    Path("bad.txt").write_text("white: c0-c2\nblack: c10-c8 c11-c9\n")
    refused = run_cli("play", "polygone", "--start", "bad.txt")
    assert refused.code == 2 and refused.err.startswith("boardgen: error: bad.txt: line 2: ")


# --- the reviewer's findings on the handle (a notebook trial of 33's item 1) ------------------

def _played(game: str, options: dict[str, object], seed: int) -> boardgen.Engine:
    """A random play-out of ``game`` stopped at a random move before its end."""
    rng = random.Random(seed)
    engine = boardgen.engine(game, **options)  # type: ignore[arg-type]
    for _ in range(rng.randrange(1, 12)):
        if engine.over:
            break
        move = engine.random_legal(rng)
        engine.push(move)
        if engine.over:
            engine.pop()
            break
    return engine


@pytest.mark.parametrize(("game", "options"), GAMES)
@pytest.mark.parametrize("seed", range(6))
def test_str_round_trips_through_start_with_the_side_to_move(
        game: str, options: dict[str, object], seed: int) -> None:
    """str(engine) → start= is the whole position, the side to move with it (a FEN)."""
    engine = _played(game, options, seed)
    again = boardgen.engine(game, **options, start=str(engine))  # type: ignore[arg-type]
    assert again.to_move == engine.to_move
    assert again.to_json() == engine.to_json()
    assert again.legal_moves() == engine.legal_moves()


@pytest.mark.parametrize(("game", "start", "line"), [
    ("copolymer", "  . . .\n . q . .\n", 2), ("o", "\n\n q\n", 3),
    ("polygone", "white: a2-a4\nfoo\n", 2), ("free", ". .\n ?\n", 2)])
def test_a_start_error_has_its_line_and_field_worded_alike(game: str, start: str,
                                                           line: int) -> None:
    with pytest.raises(boardgen.BoardgenError) as caught:
        boardgen.engine(game, start=start)
    assert caught.value.line == line and caught.value.field == "start"
    assert str(caught.value).startswith(f"start: line {line}"), str(caught.value)


def test_a_status_line_naming_no_player_is_refused_at_its_line() -> None:
    drawn = str(boardgen.engine("o", side=4)).replace("First to move", "Zed to move")
    with pytest.raises(boardgen.BoardgenError, match="'Zed' is not a player") as caught:
        boardgen.engine("o", side=4, partisan=True, start=drawn)
    assert caught.value.line == len(drawn.rstrip().split("\n"))


@pytest.mark.parametrize(("game", "options"), GAMES)
def test_an_engine_and_its_position_pickle(game: str, options: dict[str, object]) -> None:
    import pickle

    engine = _played(game, options, 1)
    twin = pickle.loads(pickle.dumps(engine))
    assert twin == engine and str(twin) == str(engine) and twin.moves == engine.moves
    if twin.legal_moves():
        twin.push(twin.legal_moves()[0])
        assert twin != engine and twin.moves[:-1] == engine.moves  # independent
    snap = pickle.loads(pickle.dumps(engine.position))
    assert snap.text() == engine.position.text() and snap.frozen


def test_free_takes_a_start_and_the_refusal_lists_games_properly() -> None:
    free = boardgen.engine("free", side=3)
    free.push("B2")
    assert "1 stone." in str(free)
    again = boardgen.engine("free", side=3, start=str(free))
    assert again.to_move == "white" and again.to_json()["stones"] == {"B2": "black"}
    with pytest.raises(boardgen.BoardgenError, match=r"applies to O, not Polygone"):
        boardgen.engine("polygone", partisan=True)


@pytest.mark.parametrize(("game", "options"), GAMES)
def test_position_and_engine_agree_on_pop_legal_moves_and_equality(
        game: str, options: dict[str, object]) -> None:
    engine = _played(game, options, 2)
    position = engine.position.copy()
    assert isinstance(position.legal_moves(), tuple)
    assert position.legal_moves() == engine.legal_moves()
    twin = engine.copy()
    assert position.pop() == twin.pop()  # both the move, as moves spells it
    assert position == twin.position and position.moves == twin.moves
    assert engine.position != twin.position
    replayed = boardgen.engine(game, **options)  # type: ignore[arg-type]
    for move in engine.moves:
        replayed.push(move)
    assert replayed.position == engine.position  # the same moves: equal positions
    assert hash(replayed.position) == hash(engine.position)  # snapshots only
    with pytest.raises(TypeError):
        hash(position)


def test_every_copy_of_a_snapshot_is_playable() -> None:
    snapshot = boardgen.play("o", "D4", side=4).snapshot()
    copies = [snapshot.copy(), copy.copy(snapshot), copy.deepcopy(snapshot)]
    assert [c.frozen for c in copies] == [False, False, False]
    copies[1].push("D5")
    assert snapshot.moves == ("D4",) and copies[0].moves == ("D4",)
    with pytest.raises(boardgen.BoardgenError, match="snapshot") as refused:
        snapshot.push("D5")
    assert refused.value.field == "moves"


def test_is_legal_reads_a_move_as_push_does() -> None:
    game = boardgen.engine("o", side=4)
    assert "d4" not in game.legal_moves() and game.is_legal("d4") and game.is_legal("D4")
    game.push("d4")
    assert not game.is_legal("D4") and not game.is_legal("zz") and not game.is_legal("")
    assert game.moves == ("D4",)  # asking changes nothing
    polygone = boardgen.engine("polygone")
    assert polygone.is_legal("C0 c2 -> d1") and not polygone.is_legal("c0-c2>e2")


def test_the_board_and_options_are_readable_not_writable() -> None:
    game = boardgen.engine("o", side=4, partisan=True)
    assert game.board == "hexhex side 4" and game.options == {"partisan": True}
    with pytest.raises(TypeError):
        game.options["partisan"] = False  # type: ignore[index]
    assert boardgen.engine("polygone").options == {}


def test_one_line_reprs_and_a_set_position_said_so() -> None:
    tempo = boardgen.diagram("copolymer", "tempo")
    assert repr(tempo).startswith("<boardgen.Diagram 'Tempo") and "\n" not in repr(tempo)
    assert len(repr(tempo)) < 120
    set_up = boardgen.engine("o", side=4, start=str(boardgen.play("o", "D4 D5", side=4)))
    assert set_up.position.heading() == "O from a set position"
    assert "O from a set position" in boardgen.draw(set_up, "svg")
    set_up.push("A2")
    assert set_up.position.heading() == "O, 1 move from a set position"


def test_a_finished_copolymer_picture_says_who_won() -> None:
    game = boardgen.engine("copolymer", side=3)
    rng = random.Random(2)
    while not game.over:
        game.push(game.random_legal(rng))
    counts = game.to_json()["counts"]
    assert isinstance(counts, dict) and game.winner
    said = f"{game.winner.upper()} wins, {counts[game.winner]} cells to"
    assert said in boardgen.draw(game, "svg")


def test_load_diagram_names_its_field(tmp_path: Path) -> None:
    path = tmp_path / "bad.txt"
    path.write_text("game: o\nboard: hexhex 4\npanel: one\nplace: D4 D4\n")
    with pytest.raises(boardgen.BoardgenError) as refused:
        boardgen.load_diagram(path)
    assert refused.value.field == "path" and refused.value.line == 4


@pytest.mark.parametrize("game", ["copolymer", "o", "polygone", "free"])
def test_a_snapshot_refuses_the_games_own_hooks_too(game: str) -> None:
    """push, play and pop refuse on a snapshot, and so do the hooks a game implements
    (take_back, play_one, play_named, play_out): the hostile sweep took a move back under a
    snapshot's moves with take_back().  Its copies and a pickled one stay as they were."""
    import pickle

    engine = boardgen.engine(game, **({} if game == "polygone" else {"side": 4}))
    engine.push(engine.legal_moves()[0])
    snapshot = engine.position
    before = (snapshot.to_json(), snapshot.moves)
    for hook, args in (("take_back", ()), ("play_one", ("A1",)), ("play_named", ("A1",)),
                       ("play_out", (random.Random(1),))):
        with pytest.raises(boardgen.BoardgenError, match="snapshot and never changes"):
            getattr(snapshot, hook)(*args)
    assert (snapshot.to_json(), snapshot.moves) == before
    copied = snapshot.copy()
    assert copied.pop() == before[1][0] and copied.moves == ()
    restored = pickle.loads(pickle.dumps(snapshot))
    assert restored == snapshot and restored.frozen
    with pytest.raises(boardgen.BoardgenError, match="snapshot"):
        restored.take_back()
