"""The one exception type that means "the user asked for something we refuse".

An error about an option names it by :func:`option`, not by its spelling: the Python API
shows ``cell_mm``, the command line ``--cell-mm``, from the same raise.  So no layer below
the command line words an error as a command-line flag.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from enum import StrEnum
from typing import NamedTuple

# An option's name inside a message sits between two ASCII separators, characters no
# message of ours holds otherwise; str() and worded() replace each with its spelling.
_OPEN, _CLOSE = "\x1e", "\x1f"
_NAMED = re.compile(f"{_OPEN}([a-z_]+){_CLOSE}")

# The command line's flags whose names are not the API's with dashes.
_FLAGS = {"fmt": "--format", "output": "-o"}


def option(name: str) -> str:
    """An option named in an error message, by its Python name (``cell_mm``)."""
    return f"{_OPEN}{name}{_CLOSE}"


def api_name(name: str) -> str:
    """How the Python API spells an option: its keyword argument."""
    return name


def cli_flag(name: str) -> str:
    """How the command line spells an option: ``cell_mm`` is ``--cell-mm``."""
    return _FLAGS.get(name, "--" + name.replace("_", "-"))


class BoardgenError(Exception):
    """Bad input: the command line prints the message on one line and exits with code 2.

    The message must say what was wrong and where (an option, a file and line, a move
    number), so that it is useful without a traceback.  ``field`` is the option at fault,
    as the Python API names it (``"cell_mm"``), or None; given none, it is the first option
    the message names with :func:`option`.  ``str(error)`` words options as the API does;
    ``error.worded(cli_flag)`` as the command line does.

    For a program, where it is known: ``line``, the line at fault (of a diagram, a start
    position or a game record, counting from 1), and ``move_index``, the refused move's
    place in the game's moves (counting from 0: ``move 3`` in the message is index 2), with
    ``field`` ``"moves"``.  Both are None where nothing is known.
    """

    line: int | None = None
    move_index: int | None = None

    def __init__(self, message: str, *, field: str | None = None, line: int | None = None,
                 move_index: int | None = None) -> None:
        super().__init__(message)
        named = _NAMED.search(message)
        self.field = field if field is not None else (named.group(1) if named else None)
        if line is not None:
            self.line = line
        if move_index is not None:
            self.move_index = move_index

    @property
    def template(self) -> str:
        """The message with its options unspelled (to build a longer message from it)."""
        return str(self.args[0]) if self.args else ""

    def worded(self, spell: Callable[[str], str] = api_name) -> str:
        """The message, each option spelled by ``spell``."""
        return _NAMED.sub(lambda m: spell(m.group(1)), self.template)

    def __str__(self) -> str:
        return self.worded(api_name)

    def __reduce__(self) -> tuple[object, ...]:
        # Across processes (``boardgen all``'s workers) with the field kept.
        return (_rebuild, (type(self), self.template, self.field, self.__dict__))


def _rebuild(kind: type[BoardgenError], message: str, field: str | None,
             state: dict[str, object]) -> BoardgenError:
    error = BoardgenError.__new__(kind)
    BoardgenError.__init__(error, message, field=field)
    error.__dict__.update(state)
    return error


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


class Terminated(BaseException):  # noqa: N818 -- like KeyboardInterrupt, not an error
    """SIGTERM (or SIGHUP) arrived: what is running ends its workers, removes its
    temporary files, and the command says so in one line and exits 128 + ``signum``."""

    def __init__(self, signum: int = 15) -> None:
        super().__init__(signum)
        self.signum = signum


def raise_terminated(signum: int, frame: object) -> None:
    """A signal handler: SIGTERM or SIGHUP becomes :class:`Terminated`."""
    raise Terminated(signum)
