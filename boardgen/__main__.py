"""``python -m boardgen`` and the ``boardgen`` command: the command line.

The entry point answers Ctrl-C, SIGTERM and SIGHUP from its first instant to its last: a
signal must end the command with one line and exit 130, 143 or 129, never a traceback or a
silent death by the signal.

- From the moment this module is loaded (the console script loads it first; only the
  package's own small ``__init__`` runs before it) until the command line is imported, a
  signal ends the process at once: nothing has been written yet, so there is nothing to
  clean up, and importing the command line's libraries takes a second or two.
- While the command runs, a signal becomes an exception (KeyboardInterrupt, or
  :class:`~boardgen.errors.Terminated`) that ends its workers and removes its temporary
  files on the way out; the command line says so and exits.
- Once the command has returned (its files whole, its line printed), a signal during the
  interpreter's exit ends the process at once again, with its line.

(A signal in the interpreter's own start, before this module is loaded, is the
interpreter's: no package code runs then.)
"""

from __future__ import annotations

import atexit
import os
import signal
import sys
import threading
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import NoReturn

_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
_WORDS: dict[int, str] = {signal.SIGINT: "interrupted", signal.SIGHUP: "hung up"}


def _leave_now(signum: int, frame: object) -> None:
    """A signal handler for the moments with nothing to clean up: one line, then exit."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()  # what the command said before ("wrote ...") is kept
        except Exception:  # noqa: BLE001 -- a flush this signal interrupted: the line still goes out
            pass
    os.write(2, f"boardgen: {_WORDS.get(signum, 'terminated')}\n".encode())
    os._exit(128 + signum)


def _at_once() -> None:
    for signum in _SIGNALS:
        signal.signal(signum, _leave_now)


_at_once()  # the first thing the entry point does: at load, before any other import


def run() -> NoReturn:
    """The ``boardgen`` command, as the whole process: it ends the process when the command
    is done (see :func:`_exit`), never returning.  To run a command inside a program of
    your own, call ``boardgen.cli.main(ARGS)`` (or use the Python API)."""
    _at_once()  # again, in case a caller loaded this module long before running it
    from boardgen.cli import main
    from boardgen.errors import raise_terminated

    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, raise_terminated)
    signal.signal(signal.SIGHUP, raise_terminated)
    try:
        main()
    except SystemExit as done:
        code = done.code
    else:
        code = 0
    finally:
        _at_once()  # the command is done: a signal during the exit is its line, at once
    _exit(code)


def _exit(code: object) -> NoReturn:
    """End the process with ``code`` once the command has returned, skipping only the
    interpreter's teardown of its objects and modules: a fifth of a side-100 board's time
    (some 0.04 s) goes to freeing the tens of thousands of objects a command built, which
    the process's end frees at once.  The exit handlers still run (atexit: temporary
    files' finalizers, logging, a coverage run's report), and both streams are flushed;
    every file the command wrote is closed by then (written whole, then renamed).  With
    another thread still running, an exit code that is not a number, or a stream that
    cannot be flushed, the interpreter exits as usual."""
    if code is None:
        code = 0
    if not isinstance(code, int) or threading.active_count() > 1:
        raise SystemExit(code)
    atexit._run_exitfuncs()
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError):  # a closed pipe: the interpreter reports it as it does
        raise SystemExit(code) from None
    os._exit(code)


if __name__ == "__main__":
    run()
