"""cairocffi imported through boardgen.render.cairolib runs no library search (issue 37)."""

from __future__ import annotations

import subprocess
import sys

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
