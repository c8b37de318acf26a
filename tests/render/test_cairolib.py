"""cairocffi imported through boardgen.render.cairolib runs no library search (issue 37)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

# In a fresh interpreter (cairocffi imports once): any subprocess (find_library's ldconfig,
# gcc, ld) fails the import; afterwards find_library is the standard library's again.
_PROBE = """
import ctypes.util, subprocess
original = ctypes.util.find_library
def refuse(*args, **kwargs):
    raise AssertionError(f"a subprocess ran: {args[1:]}")
subprocess.Popen.__init__ = refuse
from boardgen.render.cairolib import cairocffi
module = cairocffi()
assert module.cairo.cairo_version() > 0
assert ctypes.util.find_library is original
assert cairocffi() is module
print("ok")
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the search is skipped on Linux")
def test_cairocffi_imports_without_a_library_search() -> None:
    done = subprocess.run([sys.executable, "-c", _PROBE], capture_output=True, text=True,
                          check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "ok"


def test_cairocffi_plain_import_would_search() -> None:
    """The probe can fail: cairocffi imported directly runs find_library's subprocesses."""
    done = subprocess.run([sys.executable, "-c", _PROBE.replace(
        "from boardgen.render.cairolib import cairocffi\nmodule = cairocffi()",
        "import cairocffi as module\ncairocffi = lambda: module")],
        capture_output=True, text=True, check=False)
    if sys.platform.startswith("linux"):
        assert done.returncode != 0 and "a subprocess ran" in done.stderr


# cairo's declarations kept as cffi's out-of-line data in the user's cache: the first process
# parses them (pycparser) and keeps them; the next one makes cairocffi's ffi from them,
# without pycparser, and draws the same pixels.
_DRAW = """
import sys, zlib
from boardgen.render.cairolib import cairocffi, keep_declarations
keep_declarations()  # as the command line does
cairo = cairocffi()
surface = cairo.ImageSurface(cairo.FORMAT_RGB24, 120, 90)
context = cairo.Context(surface)
context.set_source_rgb(1, 1, 1)
context.paint()
context.move_to(10, 10)
context.curve_to(100, 5, 20, 80, 110, 85)
context.set_line_width(3.5)
context.set_source_rgb(0.2, 0.4, 0.6)
context.stroke()
matrix = cairo.Matrix(1, 0.2, 0, 1, 5, 5)
context.set_matrix(matrix)
context.rectangle(20, 20, 30, 25)
context.fill()
surface.flush()
print(zlib.crc32(bytes(surface.get_data())), "pycparser" in sys.modules,
      sys.modules["cairocffi.ffi"].__file__.endswith(".marshal"))
"""


def _draw(cache: str) -> list[str]:
    import os

    done = subprocess.run([sys.executable, "-c", _DRAW], capture_output=True, text=True,
                          check=True, env={**os.environ, "BOARDGEN_CACHE_DIR": cache})
    return done.stdout.split()


def test_cairo_declarations_are_parsed_once_and_draw_the_same(tmp_path: Path) -> None:
    off = _draw("")  # no cache: parsed, as cairocffi always does
    assert off[1:] == ["True", "False"]
    first = _draw(str(tmp_path))  # parsed, then kept
    assert first == off
    (stored,) = (tmp_path / "cairo-ffi").iterdir()
    second = _draw(str(tmp_path))  # made from the kept data: no parser
    assert second == [off[0], "False", "True"]
    # A damaged file is passed by: parsed again (and kept again, whole).
    data = bytearray(stored.read_bytes())
    data[len(data) // 2] ^= 0xFF
    stored.write_bytes(bytes(data))
    assert _draw(str(tmp_path)) == off
    assert _draw(str(tmp_path)) == second
    # Data of another shape under the right checksum is passed by too.
    import marshal
    import zlib

    payload = marshal.dumps(("_boardgen_cairocffi", (("_types", compile("1", "x", "eval")),)))
    stored.write_bytes(b"%08x" % zlib.crc32(payload) + payload)
    assert _draw(str(tmp_path)) == off


def test_a_program_using_boardgen_as_a_library_keeps_cairocffi_whole(tmp_path: Path) -> None:
    """Kept declarations are for boardgen's own command: a program that imports boardgen
    (and may use cairocffi itself) gets cairocffi's parsed ffi, with cdef, include and
    cairocffi.pixbuf, even where the command has kept them (the review's finding 5)."""
    import os

    assert _draw(str(tmp_path))[2] == "False"  # the command's first run: parsed, then kept
    assert _draw(str(tmp_path))[2] == "True"  # the command's next runs: made from them
    probe = ("from boardgen.render.cairolib import cairocffi\n"
             "cairocffi()\n"
             "import sys, cairocffi.pixbuf\n"
             "ffi = sys.modules['cairocffi.ffi']\n"
             "print(hasattr(ffi.ffi, 'cdef'), ffi.__file__.endswith('.marshal'))\n")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          check=True, env={**os.environ, "BOARDGEN_CACHE_DIR": str(tmp_path)})
    assert done.stdout.split() == ["True", "False"]

