"""cairocffi, imported without its search for the cairo library (issue 37).

On import, cairocffi looks up three names for the cairo library with
``ctypes.util.find_library``, which on Linux runs ``ldconfig -p`` for each and, for the two
names no Linux library has (``cairo-2``, ``libcairo-2``), ``gcc`` and ``ld`` too: five
subprocesses, a third of a PNG board's start-up beyond the drawing.  On Linux the one name it
finds is always ``libcairo.so.2`` (the soname ``ldconfig`` and ``dlopen`` know it by), so
:func:`cairocffi` answers the three names as that search would, without running anything,
while cairocffi imports; every other name still goes to ``find_library``.  cairocffi then
opens ``libcairo.so.2`` as before, and fails as before if cairo is not installed.  On other
systems cairocffi is imported as it is.

Every import of cairocffi or CairoSVG (which imports cairocffi) in boardgen goes through here
first: once imported, the module is reused.
"""

from __future__ import annotations

import sys
import threading
from types import ModuleType

_CAIRO_NAMES = ("cairo-2", "cairo", "libcairo-2")  # what cairocffi asks find_library for
_LINUX_SONAME = "libcairo.so.2"


def _found_on_linux(name: str) -> str | None:
    """What ``find_library`` answers on Linux for the names cairocffi asks: only ``cairo``
    is a library name there (``libcairo.so``); the others name Windows' DLL."""
    return _LINUX_SONAME if name == "cairo" else None


_LOCK = threading.Lock()  # one import at a time: find_library is patched process-wide
_MODULE: list[ModuleType] = []  # cairocffi, once fully imported


def cairocffi() -> ModuleType:
    """The cairocffi module, imported on first use without the subprocesses of its
    library search (Linux).  Safe from several threads: none is handed the module while
    another is still importing it (sys.modules holds it half made meanwhile)."""
    if _MODULE:
        return _MODULE[0]
    with _LOCK:
        if not _MODULE:
            _MODULE.append(_imported())
    return _MODULE[0]


def _imported() -> ModuleType:
    if not sys.platform.startswith("linux") or "cairocffi" in sys.modules:
        import cairocffi  # noqa: F401  (Python's import lock waits for a half-made one)

        return sys.modules["cairocffi"]
    import ctypes.util

    search = ctypes.util.find_library

    def find_library(name: str) -> str | None:
        return _found_on_linux(name) if name in _CAIRO_NAMES else search(name)

    ctypes.util.find_library = find_library  # cairocffi binds it as it imports
    try:
        import cairocffi  # noqa: F401
    finally:
        ctypes.util.find_library = search
    return sys.modules["cairocffi"]
