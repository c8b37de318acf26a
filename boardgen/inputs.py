"""What a command reads: its input files, noted so that no output is ever written onto one
of them, and the one way their text is cut into lines.

Every input file (a diagram file, a mask, a moves file, a start position, a glyph table) is
read through :func:`boardgen.text.read_input_text`, which notes here what it opened, by
device and inode: the same file whatever name, link or hard link reaches it.  The writer
(:mod:`boardgen.output`) asks :func:`input_named` before it writes and refuses a path that
reaches one of them (``boardgen diagram my.txt -o my.txt`` would replace the diagram with
its own drawing).

Noting is on only inside :func:`inputs_noted` (the command line turns it on for one
command): a long-running program that uses the Python API writes no files through us, and
its reads are not kept.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Iterator
from contextlib import contextmanager

_lock = threading.Lock()
_noted: dict[tuple[int, int], str] | None = None  # (device, inode) -> how it was named


@contextmanager
def inputs_noted() -> Iterator[None]:
    """Note every input file read while the block runs (one command)."""
    global _noted
    with _lock:
        before, _noted = _noted, {}
    try:
        yield
    finally:
        with _lock:
            _noted = before


def note_input(device: int, inode: int, named: str) -> None:
    """An input file was opened: ``named`` says how (``--mask m.txt``)."""
    with _lock:
        if _noted is not None:
            _noted.setdefault((device, inode), named)


def input_named(device: int, inode: int) -> str | None:
    """How the input file with this device and inode was named, if one was read."""
    with _lock:
        return None if _noted is None else _noted.get((device, inode))


_LINE_BREAK = re.compile("\r\n|\r|\n")


def split_lines(text: str) -> list[str]:
    """``text`` cut into lines at ``\n``, ``\r\n`` and ``\r`` only, as editors count them
    (str.splitlines also breaks at form feeds, ``\v``, ``\x1c``-``\x1e``, U+0085, U+2028 and
    U+2029, so an error would name a line the user's editor does not have).  No line for
    the text after a last line break, as str.splitlines."""
    lines = _LINE_BREAK.split(text)
    if lines[-1] == "":
        lines.pop()
    return lines
