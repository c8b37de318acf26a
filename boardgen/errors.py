"""The one exception type that means "the user asked for something we refuse"."""

from __future__ import annotations

from enum import StrEnum
from typing import NamedTuple


class BoardgenError(Exception):
    """Bad input: the command line prints the message on one line and exits with code 2.

    The message must say what was wrong and where (an option, a file and line, a move
    number), so that it is useful without a traceback.
    """


class Refusal(NamedTuple):
    """Why the rules refuse a move: a code to compare (each engine has its own enum of
    them) and the message for people, kept apart so that rewording a message never
    changes what a claim about the code means."""

    code: StrEnum
    message: str


class IllegalMove(BoardgenError):
    """A move the rules refuse.  ``subject`` names it (a cell, or a move in notation),
    ``reason`` says why and ``code`` is the engine's code for it; replays prefix the move
    number."""

    def __init__(self, subject: str, refusal: Refusal) -> None:
        super().__init__(f"{subject}: {refusal.message}")
        self.subject = subject
        self.reason = refusal.message
        self.code = refusal.code
