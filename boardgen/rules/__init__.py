"""Game rules: state, legal moves, replay.  Imports geometry only, never a renderer."""

from collections.abc import Callable, Iterable

from boardgen.errors import BoardgenError, IllegalMove


def replay_moves(moves: Iterable[str], play: Callable[[str], object]) -> None:
    """Play each move with ``play``; the first one refused stops the replay with an error
    naming its number, the move as written, and the reason."""
    for number, token in enumerate(moves, start=1):
        shown = token if len(token) <= 40 else token[:40] + "..."
        try:
            play(token)
        except IllegalMove as exc:
            raise BoardgenError(f"move {number} ({shown}): {exc.reason}") from None
        except BoardgenError as exc:
            raise BoardgenError(f"move {number} ({shown}): {exc}") from None
