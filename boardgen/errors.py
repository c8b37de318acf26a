"""The one exception type that means "the user asked for something we refuse"."""


class BoardgenError(Exception):
    """Bad input: the command line prints the message on one line and exits with code 2.

    The message must say what was wrong and where (an option, a file and line, a move
    number), so that it is useful without a traceback.
    """


class IllegalMove(BoardgenError):
    """A move the rules refuse.  ``subject`` names it (a cell, or a move in notation),
    ``reason`` says why; replays prefix the move number."""

    def __init__(self, subject: str, reason: str) -> None:
        super().__init__(f"{subject}: {reason}")
        self.subject = subject
        self.reason = reason
