"""``python -m boardgen`` and the ``boardgen`` command: the command line.

The entry point answers Ctrl-C and SIGTERM from its first instant: importing the command
line (its libraries) takes a second or two, and a signal then must end the command as one
later does, with one line and exit 130 or 143, not a traceback or a silent death.
"""

import os
import signal
import sys

from boardgen.errors import Terminated, raise_terminated


def run() -> None:
    signal.signal(signal.SIGTERM, raise_terminated)
    try:
        from boardgen.cli import main
    except KeyboardInterrupt:
        _leave("interrupted", 130)
    except Terminated as exc:
        _leave("hung up" if exc.signum == signal.SIGHUP else "terminated", 128 + exc.signum)
    main()


def _leave(word: str, code: int) -> None:
    sys.stderr.write(f"boardgen: {word}\n")
    sys.stderr.flush()
    os._exit(code)


if __name__ == "__main__":
    run()
