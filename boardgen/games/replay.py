"""Game rules: state, legal moves, replay.  Imports geometry only, never a renderer."""

import re
from collections.abc import Callable, Iterable

from boardgen.errors import BoardgenError, IllegalMove


def replay_moves(moves: Iterable[str], play: Callable[[str], object], *,
                 first_number: int = 1) -> None:
    """Play each move with ``play``; the first one refused stops the replay with an error
    naming its number (counting from ``first_number``), the move as written, and the
    reason."""
    for number, token in enumerate(moves, start=first_number):
        shown = token if len(token) <= 40 else token[:40] + "..."
        try:
            play(token)
        except IllegalMove as exc:
            raise BoardgenError(f"move {number} ({shown}): {exc.reason}") from None
        except BoardgenError as exc:
            raise BoardgenError(f"move {number} ({shown}): {exc.template}",
                                field=exc.field) from None


_RECORD_COMMENTS = re.compile(r"\{[^}]*\}|[#;][^\n]*")
_MOVE_NUMBER = re.compile(r"(?:(?<=\s)|^)\d+\s*(?:\.+|\))")
_PLAYER_LABEL = re.compile(r"(?:(?<=\s)|^)[A-Za-z]+:(?=\s|$)")


def moves_from_record(text: str) -> str:
    """The moves of a game record, as one line: comments (``# ...`` or ``; ...`` to the end
    of a line, ``{...}``), move numbers (``12.``, ``12...``, ``12)``) and player labels
    (``X:``, ``White:``) are dropped; what is left is the moves in order."""
    text = _RECORD_COMMENTS.sub(" ", text)
    for brace in "{}":
        if brace in text:
            raise BoardgenError(f"a {brace!r} that is not part of a {{comment}}")
    text = _MOVE_NUMBER.sub(" ", text)
    return " ".join(_PLAYER_LABEL.sub(" ", text).split())
