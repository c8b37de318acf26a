"""Random argument types and values thrown at every public function of the Python API: it
returns, or raises BoardgenError; never a TypeError, ValueError, KeyError or OverflowError
from inside (issue 19, item 11)."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

from conftest import ROOT
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import boardgen

SETTINGS: dict[str, Any] = {"deadline": None, "derandomize": True,
                            "suppress_health_check": [HealthCheck.too_slow]}

# Anything at all: the wrong types, huge and odd numbers, odd text.
GARBAGE = st.one_of(
    st.none(), st.booleans(), st.integers(-10, 10), st.integers(), st.just(10**400),
    st.just(-(10**5000)), st.floats(), st.text(max_size=12), st.just("a\x00b"),
    st.just("x" * 5000), st.binary(max_size=6), st.lists(st.integers(0, 3), max_size=3),
    st.lists(st.text(max_size=3), max_size=3), st.tuples(st.none()),
    st.dictionaries(st.text(max_size=4), st.one_of(st.none(), st.text(max_size=8)), max_size=3),
    st.just(Path("no-such-file.txt")), st.just(Path("/")), st.just(object()),
    st.just(float("nan")), st.just(float("inf")), st.just(random.Random(1)),
)


GAME = st.sampled_from(["copolymer", "o", "polygone", "free"])
SIZE = {"side": st.none() | st.integers(2, 6), "preset": st.sampled_from(["small", "medium"]),
        "diameter": st.integers(3, 9), "shape": st.sampled_from(["hexhex", "rhombus", "triangle"]),
        "mask": st.sampled_from([". . .\n . .\n", ". .\n", "x"])}
PLAY = {"first": st.sampled_from(["x", "o"]), "start": st.just(". x\n"),
        "partisan": st.booleans(),
        "glyphs": st.none() | st.just("k0: legal") | st.just({"k0": "legal"})}
MOVES = st.sampled_from(["", "C3 B2", "D4", "c0-c2>d1", "A1 A1"]) \
    | st.lists(st.sampled_from(["C3", "D4", "A1"]), max_size=3)
PICTURE = {"paper": st.sampled_from(["a4", "letter", "90x90mm", "1x1mm"]),
           "theme": st.sampled_from(["colour", "ink", "colourblind"]),
           "cell_mm": st.none() | st.floats(2, 12), "dpi": st.integers(36, 60),
           "title": st.none() | st.text(max_size=8)}
FORMAT = st.sampled_from(["svg", "pdf", "png"])


@st.composite
def arguments(draw: st.DrawFn, required: dict[str, st.SearchStrategy[Any]],
              optional: dict[str, st.SearchStrategy[Any]]) -> dict[str, Any]:
    """Keyword arguments: sensible values, except one or two spoiled with garbage (so that
    each check is reached with the others passing)."""
    spoiled = draw(st.sets(st.sampled_from(sorted({*required, *optional})), max_size=2))
    given = draw(st.sets(st.sampled_from(sorted(optional)), max_size=2))  # few: no conflicts
    chosen: dict[str, Any] = {}
    for key, valid in {**required, **optional}.items():
        if key in spoiled:
            chosen[key] = draw(GARBAGE)
        elif key in required or key in given:
            chosen[key] = draw(valid)
    return chosen


def returns_or_refuses(call: Callable[[], object]) -> None:
    try:
        call()
    except boardgen.BoardgenError:
        pass


@settings(max_examples=150, **SETTINGS)
@given(kwargs=arguments({"game": GAME, "moves": MOVES}, {**SIZE, **PLAY}))
def test_play_and_engine_raise_only_boardgen_error(kwargs: dict[str, Any]) -> None:
    returns_or_refuses(lambda: boardgen.play(**kwargs))
    kwargs.pop("moves", None)
    returns_or_refuses(lambda: boardgen.engine(**kwargs))


@settings(max_examples=80, **SETTINGS)
@given(kwargs=arguments({"game": GAME, "fmt": FORMAT}, {
    **SIZE, **PICTURE, "labels": st.sampled_from(["outside", "inside", "none"]),
    "orientation": st.sampled_from(["auto", "portrait", "landscape"])}))
def test_board_raises_only_boardgen_error(kwargs: dict[str, Any]) -> None:
    returns_or_refuses(lambda: boardgen.board(**kwargs))


SUBJECTS = {"copolymer": lambda: boardgen.play("copolymer", "C3", side=3),
            "o": lambda: boardgen.play("o", "D4", side=4),
            "polygone": lambda: boardgen.play("polygone"),
            "diagram": lambda: boardgen.load_diagram(ROOT / "tests/diagram_files/o-where.txt"),
            "engine": lambda: boardgen.engine("o", side=4),
            "free": lambda: boardgen.play("free", "A1 B2", side=3)}
PLACES = st.sampled_from(["C3", "D4", "A1", "c6", "c4-c6", "zz", "A 1", ""])
# draw()'s annotations: sensible ones (some the engine denies), or garbage.
ANNOTATIONS = {
    "arrows": st.lists(st.tuples(PLACES, PLACES), max_size=2),
    "marks": st.dictionaries(PLACES, st.sampled_from(["dot", "ring", "7", "toolong"]),
                             max_size=2),
    "highlights": st.dictionaries(st.sampled_from(["legal", "tint", "ghost", "new", "gold"]),
                                  st.lists(PLACES, max_size=2), max_size=2),
    "lastmove": st.booleans()}


@settings(max_examples=120, **SETTINGS)
@given(kwargs=arguments({"subject": st.sampled_from(sorted(SUBJECTS)), "fmt": FORMAT},
                        {**PICTURE, **ANNOTATIONS}))
def test_draw_raises_only_boardgen_error(kwargs: dict[str, Any]) -> None:
    subject = kwargs["subject"]
    if isinstance(subject, str) and subject in SUBJECTS:
        kwargs["subject"] = SUBJECTS[subject]()
    returns_or_refuses(lambda: boardgen.draw(**kwargs))


@settings(max_examples=80, **SETTINGS)
@given(names=arguments({"game": GAME, "name": st.sampled_from(
    ["glyphs", "partisan-glyphs", "01-pieces", "tempo", "nope", "../x"])},
    {"glyphs": PLAY["glyphs"]}),
       files=arguments({"path": st.sampled_from([
           str(ROOT / "tests/diagram_files/o-where.txt"),
           ROOT / "tests/diagram_files/copolymer-annotated.txt", "no-such.txt", str(ROOT)])},
           {"glyphs": PLAY["glyphs"]}))
def test_diagrams_raise_only_boardgen_error(names: dict[str, Any],
                                            files: dict[str, Any]) -> None:
    returns_or_refuses(lambda: boardgen.diagram(**names))
    returns_or_refuses(lambda: boardgen.load_diagram(**files))


DIAGRAM_LINES = st.sampled_from([
    "game: free", "game: o", "game: copolymer", "game: nope", "board: hexhex 4",
    "board: rhombus 3", "board:", ". . .", "end", "panel: p", "stone: red A1", "place: D4",
    "expect: legal D5", "highlight: tint A1", "highlight: legal D4", "glyphs:", "k0: legal",
    "position:", "mark: A1 ring", "arrow: A1 B2", "remove: A1", "{", "x" * 200])


@settings(max_examples=120, **SETTINGS)
@given(lines=st.lists(DIAGRAM_LINES, max_size=8), text=GARBAGE,
       glyphs=st.none() | PLAY["glyphs"] | GARBAGE)
def test_parse_diagram_raises_only_boardgen_error(lines: list[str], text: Any,
                                                  glyphs: Any) -> None:
    returns_or_refuses(lambda: boardgen.parse_diagram("\n".join(lines), glyphs=glyphs))
    returns_or_refuses(lambda: boardgen.parse_diagram(text))


@settings(max_examples=80, **SETTINGS)
@given(game=st.sampled_from([("copolymer", {"side": 3}), ("o", {"side": 4}), ("polygone", {})]),
       move=st.one_of(st.sampled_from(["C3", "D4", "c0-c2>d1", "A1", "zz"]), GARBAGE),
       rng=GARBAGE, moves=st.one_of(MOVES, GARBAGE))
def test_the_handles_methods_raise_only_boardgen_error(game: tuple[str, dict[str, Any]],
                                                       move: Any, rng: Any, moves: Any) -> None:
    name, options = game
    handle = boardgen.engine(name, **options)
    returns_or_refuses(lambda: handle.play(move))
    returns_or_refuses(lambda: handle.random_legal(rng))
    returns_or_refuses(lambda: handle.position.play(moves))
    returns_or_refuses(lambda: handle.copy().legal_moves())
    assert boardgen.game_names() == ["copolymer", "o", "polygone", "free"]
