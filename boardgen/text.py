"""Text coming in (files named on the command line, titles) and going out (into files).

Every input file is read through :func:`read_input_text`, which reads at most
``MAX_INPUT_BYTES`` whatever the file is (a device or a pipe has no size on disk to check).
Every text that reaches a file is checked by :func:`check_line` (user input: refused with one
line) or :func:`check_lines` (templates: refused with file and line), and cleaned by
:func:`printable` in the writers as a last line of defence, so that no control character
can make an SVG ill-formed XML.
"""

from __future__ import annotations

import os
import re
import stat
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from boardgen.errors import BoardgenError, option
from boardgen.inputs import note_input, split_lines
from boardgen.limits import MAX_INPUT_BYTES as MAX_INPUT_BYTES
from boardgen.limits import MAX_QUOTED_CHARS
from boardgen.limits import MAX_TITLE_CHARS as MAX_TITLE_CHARS

# Characters XML 1.0 forbids, or that are control characters all the same (C1, DEL), and
# lone surrogates (what undecodable bytes on the command line become).
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff\ufffe\uffff]")


def quoted(text: str, limit: int = MAX_QUOTED_CHARS) -> str:
    """``text`` quoted for an error line (as repr does), cut to ``limit`` characters: a
    line of a file may be megabytes long, its error line is one line."""
    if len(text) <= limit:
        return repr(text)
    return f"{text[:limit]!r}... ({len(text):,} characters)"


MAX_QUOTED = MAX_QUOTED_CHARS  # characters of a refused value quoted in an error


def quoted_value(value: object) -> str:
    """``repr(value)``, cut to about one line: an error quotes, it does not echo (nor fails:
    a caller's object may have a repr() that raises)."""
    try:
        if isinstance(value, int) and abs(value) >= 10 ** 60:
            return f"a number of {value.bit_length()} bits"  # repr() refuses the longest
        text = repr(value)
    except Exception:
        return f"a {type(value).__name__} object"
    if not isinstance(text, str):
        return f"a {type(value).__name__} object"
    return text if len(text) <= MAX_QUOTED else text[:MAX_QUOTED] + "..."


def check_text_size(text: str, field: str) -> None:
    """A text given in place of a file (the API's ``start=``, ``glyphs=``, a mask) is held to
    the size a file may have, before anything reads it."""
    if len(text) > MAX_INPUT_BYTES:
        raise BoardgenError(f"{option(field)}: {len(text):,} characters, more than the limit "
                            f"of {MAX_INPUT_BYTES:,} (as a file)", field=field)


# A quoted run in an error message: what repr() makes of a string.
_QUOTED_RUN = re.compile(r"'(?:[^'\\\n]|\\.)*'|\"(?:[^\"\\\n]|\\.)*\"")
MAX_ERROR_LINE_CHARS = 400


def clip_quotes(message: str) -> str:
    """An error line with every quoted part cut to MAX_QUOTED_CHARS and the whole to
    MAX_ERROR_LINE_CHARS: the last guard for messages that quote a user's input whole."""
    def clip(m: re.Match[str]) -> str:
        run = m.group()
        if len(run) <= MAX_QUOTED_CHARS + 2:
            return run
        return f"{run[:MAX_QUOTED_CHARS + 1]}{run[0]}..."

    clipped = _QUOTED_RUN.sub(clip, message)
    if len(clipped) > MAX_ERROR_LINE_CHARS:
        clipped = clipped[:MAX_ERROR_LINE_CHARS - 3] + "..."
    return clipped


def shown_path(path: Path | str, whole_up_to: int = MAX_QUOTED_CHARS) -> str:
    """A file's name as an error line shows it: whole up to ``whole_up_to`` characters,
    else quoted and cut to MAX_QUOTED_CHARS (a name may be 4,000 characters long)."""
    text = str(path)
    return text if len(text) <= whole_up_to else quoted(text)


_READ_ONCE = threading.local()  # .texts: name -> text, inside read_once()


@contextmanager
def read_once() -> Iterator[None]:
    """Inside, a pipe or a device that :func:`read_input_text` reads is read once, and a
    second read of the same name gets the same text: a diagram file is read for its
    'game:' line, then replayed, and ``/dev/stdin`` or ``<(command)`` can be read only
    once."""
    before = getattr(_READ_ONCE, "texts", None)
    _READ_ONCE.texts = {}
    try:
        yield
    finally:
        _READ_ONCE.texts = before


def read_input_text(path: Path, option: str) -> str:
    """The UTF-8 text of the file ``option`` names (a byte-order mark is allowed); reads at
    most MAX_INPUT_BYTES, so /dev/zero or an endless pipe is refused, not swallowed.  A
    named pipe that no program is writing to is refused at once: opening it would wait
    for a writer forever."""
    remembered: dict[str, str] | None = getattr(_READ_ONCE, "texts", None)
    if remembered is not None and str(path) in remembered:
        return remembered[str(path)]
    text, regular = _read_input_text(path, option)
    if remembered is not None and not regular:
        remembered[str(path)] = text
    return text


def _read_input_text(path: Path, option: str) -> tuple[str, bool]:
    """The text, and whether the file is a regular one."""
    name = shown_path(path)
    try:
        # O_NONBLOCK: opening a pipe does not wait for a writer (for a file it changes
        # nothing); reads block again once we know someone writes.
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        raise BoardgenError(f"{option} {name}: no such file") from None
    except IsADirectoryError:
        raise BoardgenError(f"{option} {name}: is a folder, not a file") from None
    except OSError as exc:
        raise BoardgenError(f"{option} {name}: {exc.strerror or exc}") from None
    try:
        opened = os.fstat(fd)
        # The writer refuses to write onto a file the command reads (boardgen.inputs).
        note_input(opened.st_dev, opened.st_ino, f"{option} {name}")
        head = b""
        if stat.S_ISFIFO(opened.st_mode):
            try:
                head = os.read(fd, MAX_INPUT_BYTES + 1)
            except BlockingIOError:  # a writer is there, and has not written yet
                head = b""
            else:
                if not head:  # end of file at once: nobody has the pipe open to write
                    raise BoardgenError(f"{option} {name}: a pipe with nothing to read (no "
                                        "program writing to it); save the text to a file")
        os.set_blocking(fd, True)
        with open(fd, "rb", closefd=False) as handle:
            data = head + handle.read(MAX_INPUT_BYTES + 1 - len(head))
    except IsADirectoryError:
        raise BoardgenError(f"{option} {name}: is a folder, not a file") from None
    except OSError as exc:
        raise BoardgenError(f"{option} {name}: {exc.strerror or exc}") from None
    finally:
        os.close(fd)
    if len(data) > MAX_INPUT_BYTES:
        raise BoardgenError(f"{option} {name}: larger than {MAX_INPUT_BYTES:,} bytes")
    try:
        return data.decode("utf-8-sig"), stat.S_ISREG(opened.st_mode)
    except UnicodeDecodeError as exc:
        raise BoardgenError(f"{option} {name}: not a UTF-8 text file (byte {exc.start + 1})"
                            ) from None


def first_control(text: str) -> tuple[int, str] | None:
    """The position (from 1) and character of the first control character in ``text``."""
    m = _CONTROL.search(text)
    return (m.start() + 1, m.group()) if m else None


def check_line(text: str, where: str, max_chars: int = MAX_TITLE_CHARS) -> str:
    """A one-line text from the user (a title): refused, with one line naming ``where``, if
    it is not valid UTF-8, holds a control character or is longer than ``max_chars``."""
    bad = first_control(text)
    if bad is not None:
        position, ch = bad
        if "\ud800" <= ch <= "\udfff":
            raise BoardgenError(f"{where}: not valid UTF-8 text (character {position})")
        raise BoardgenError(f"{where}: control character U+{ord(ch):04X} at character "
                            f"{position}; a title is one line of printable text")
    if len(text) > max_chars:
        raise BoardgenError(f"{where}: {len(text):,} characters is longer than the limit of "
                            f"{max_chars}")
    return text


def check_lines(text: str, source: str) -> None:
    """Refuse a file (a template) holding a control character, naming ``source:line``: its
    text reaches SVG, PDF and HTML files.  Tabs too: write spaces."""
    for number, line in enumerate(split_lines(text), start=1):
        bad = first_control(line)
        if bad is not None:
            where = f"{source}:{number}" if source else f"line {number}"  # text, no file
            raise BoardgenError(f"{where}: control character U+{ord(bad[1]):04X} at "
                                f"column {bad[0]} (write printable text, spaces not tabs)")


def printable(text: str) -> str:
    """``text`` without control characters: for writers, whatever the text's source."""
    return _CONTROL.sub("", text)


def curly_quotes(text: str) -> str:
    """Typographer's quotes and apostrophes for straight ones: an opening quote after a
    space, a bracket, a dash or at the start, a closing one (or an apostrophe) elsewhere."""
    text = re.sub(r'(^|[\s(\[\u2014-])"', "\\1\u201c", text)
    text = re.sub(r"(^|[\s(\[\u2014-])'", "\\1\u2018", text)
    return text.replace('"', "\u201d").replace("'", "\u2019")
