"""Game rules: state, legal moves, replay.  Imports geometry only, never a renderer."""

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Protocol

from boardgen.errors import BoardgenError, IllegalMove
from boardgen.inputs import split_lines


def replay_moves(moves: Iterable[str], play: Callable[[str], object], *,
                 first_number: int = 1) -> None:
    """Play each move with ``play``; the first one refused stops the replay with an error
    naming its number (counting from ``first_number``), the move as written, and the
    reason."""
    for number, token in enumerate(moves, start=first_number):
        try:
            play(token)
        except BoardgenError as exc:
            raise refused_move(number, token, exc) from None


def refused_move(number: int, token: str, exc: BoardgenError) -> BoardgenError:
    """The error for move ``number`` (counting from 1), written ``token``, refused with
    ``exc``: ``move 3 (D4): the reason``, its field ``moves`` and its ``move_index`` 2."""
    shown = token if len(token) <= 40 else token[:40] + "..."
    reason = exc.reason if isinstance(exc, IllegalMove) else exc.template
    return BoardgenError(f"move {number} ({shown}): {reason}", field="moves",
                         move_index=number - 1)


_RECORD_COMMENTS = re.compile(r"\{[^}]*\}|[#;][^\n]*")
_MOVE_NUMBER = re.compile(r"(?:(?<=\s)|^)\d+\s*(?:\.+|\))")
_PLAYER_LABEL = re.compile(r"(?:(?<=\s)|^)([A-Za-z]+):(?=\s|$)")


@dataclass(frozen=True)
class RecordMove:
    """One move of a game record, the line it is on, and the player label written before
    it (``O`` for ``12) O: F4``), if any."""

    move: str
    line: int
    label: str | None = None


def read_record(text: str, split: Callable[[str], list[str]] = str.split
                ) -> list[RecordMove]:
    """The moves of a game record with their lines: comments (``# ...`` or ``; ...`` to the
    end of a line, ``{...}``, which may span lines) and move numbers (``12.``, ``12...``,
    ``12)``) are dropped; a player label (``X:``, ``White:``) is kept with the move after
    it.  ``split`` cuts a line's moves into moves (the game's notation).  A stray brace
    raises BoardgenError naming its line (``LINE: ...``, for the caller to prefix the
    file)."""
    # One line break, as editors count lines (a lone \r too), before anything counts them.
    text = "\n".join(split_lines(text))
    # Comments become blanks that keep their newlines, so that lines keep their numbers.
    text = _RECORD_COMMENTS.sub(lambda m: " " + "\n" * m.group().count("\n"), text)
    for brace in "{}":
        at = text.find(brace)
        if at >= 0:
            raise BoardgenError(f"{text.count(chr(10), 0, at) + 1}: a {brace!r} that is not "
                                "part of a {comment}")
    moves: list[RecordMove] = []
    label: str | None = None
    for number, line in enumerate(split_lines(text), start=1):
        line = _MOVE_NUMBER.sub(" ", line)
        at = 0
        for found in [*_PLAYER_LABEL.finditer(line), None]:
            end = found.start() if found is not None else len(line)
            for move in split(line[at:end]):
                moves.append(RecordMove(move, number, label))
                label = None
            if found is not None:
                label, at = found.group(1), found.end()
    return moves


class _Replay(Protocol):
    @property
    def moves_played(self) -> int: ...

    @property
    def to_move(self) -> str | None: ...

    def play(self, moves: list[str]) -> None: ...


def labelled_player(label: str, to_move: str | None) -> bool:
    """Whether a record's player label names the player to move: the name the game's
    ``--json`` gives (``x``, ``first``, ``white``), or its initial, in any case."""
    return to_move is not None and label.lower() in (to_move, to_move[0])


def play_record(position: _Replay, record: Iterable[RecordMove], source: str) -> None:
    """Play a record's moves in order, each label checked against the engine's player to
    move; the first problem raises BoardgenError as ``SOURCE:LINE: move N (MOVE): ...``."""
    for entry in record:
        number = position.moves_played + 1
        try:
            if entry.label is not None and not labelled_player(entry.label,
                                                               position.to_move):
                player = position.to_move
                whose = f"{player.capitalize()} is to move" if player else "the game is over"
                raise BoardgenError(f"move {number} ({entry.move}) is labelled {entry.label}, "
                                    f"but {whose}")
            position.play([entry.move])
        except BoardgenError as exc:
            raise BoardgenError(f"{source}:{entry.line}: {exc.template}", field=exc.field,
                                line=entry.line, move_index=number - 1) from None
