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

cairocffi also parses cairo's C declarations with pycparser every time it is imported (its
``cairocffi.ffi``, cffi's in-line mode: some 60 ms, most of what a PNG board spends before
drawing).  cffi's out-of-line ABI mode keeps the parsed declarations as data that cffi's C
module loads at once.  The first process makes that data from cairocffi's own parsed
declarations (cffi's ``make_py_source``: the literals of its ``_cffi_backend.FFI(...)``
call) and keeps it in the user's cache, keyed by cairocffi's declaration files, cffi's and
Python's versions; the next ones give cairocffi an ``ffi`` made from it
(:func:`_compiled_ffi`), the same declarations, types and functions.  boardgen ships none of
it.  A cache that is off, unreadable, damaged or not ours is passed by: cairocffi then parses
as it always did.  Only boardgen's own command does this (:func:`keep_declarations`, called
by the command line): a made ``ffi`` has no ``cdef`` or ``include``, and
``cairocffi.pixbuf`` needs the parsed form, so a program that imports boardgen as a library,
and may use cairocffi itself, keeps cairocffi as cairocffi makes it.
"""

from __future__ import annotations

import marshal
import os
import sys
import threading
import zlib
from pathlib import Path
from types import ModuleType
from typing import Any

from boardgen.limits import MAX_FFI_BYTES
from boardgen.render.fonts import cache_folder, read_cache_file

_CAIRO_NAMES = ("cairo-2", "cairo", "libcairo-2")  # what cairocffi asks find_library for
_LINUX_SONAME = "libcairo.so.2"


def _found_on_linux(name: str) -> str | None:
    """What ``find_library`` answers on Linux for the names cairocffi asks: only ``cairo``
    is a library name there (``libcairo.so``); the others name Windows' DLL."""
    return _LINUX_SONAME if name == "cairo" else None


_LOCK = threading.Lock()  # one import at a time: find_library is patched process-wide
_MODULE: list[ModuleType] = []  # cairocffi, once fully imported


_KEEP: list[bool] = []  # [True] once the process is boardgen's command (keep_declarations)


def keep_declarations() -> None:
    """Let this process make cairocffi's ``ffi`` from the declarations kept in the user's
    cache (and keep them there): for boardgen's own command, whose process uses cairocffi
    only through boardgen."""
    _KEEP[:] = [True]


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
    if "cairocffi" in sys.modules:
        import cairocffi  # noqa: F401  (Python's import lock waits for a half-made one)

        return sys.modules["cairocffi"]
    stored = _stored_ffi_path() if _KEEP else None
    compiled = _compiled_ffi(stored) if stored is not None else None
    if compiled is not None:
        sys.modules["cairocffi.ffi"] = compiled
    try:
        module = _import_without_search()
    except BaseException:
        if sys.modules.get("cairocffi.ffi") is compiled is not None:
            del sys.modules["cairocffi.ffi"]
        raise
    if compiled is None and stored is not None:
        _store_ffi(stored, sys.modules.get("cairocffi.ffi"))
    return module


def _import_without_search() -> ModuleType:
    if not sys.platform.startswith("linux"):
        import cairocffi  # noqa: F401

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


# --- cairo's declarations, parsed once per installation -----------------------------------

_FFI_FORMAT = 1
_FFI_NAME = "_boardgen_cairocffi"  # the module name cffi's data is made under
_DECLARATIONS = ("constants.py", "ffi.py")  # cairocffi's files that make its ffi


def _stored_ffi_path() -> Path | None:
    """Where the parsed declarations of the installed cairocffi are kept, or None (the
    cache off, cairocffi or cffi's C module not found)."""
    folder = cache_folder("cairo-ffi")
    if folder is None:
        return None
    try:
        import importlib.util

        import _cffi_backend

        spec = importlib.util.find_spec("cairocffi")
        places = list(spec.submodule_search_locations or []) if spec is not None else []
        if not places or importlib.util.find_spec("xcffib") is not None:
            return None  # with xcffib, cairocffi's ffi takes in XCB's: parsed as always
        key = zlib.crc32(f"{_FFI_FORMAT} {_cffi_backend.__version__} {sys.version} "
                         f"{marshal.version}".encode())
        for name in _DECLARATIONS:
            key = zlib.crc32(Path(places[0], name).read_bytes(), key)
    except (ImportError, OSError, ValueError):
        return None
    return folder / f"ffi-{key:08x}.marshal"


def _literal(value: Any) -> bool:
    """True for the values cffi's data is made of: bytes, text, numbers, tuples of them."""
    if isinstance(value, tuple):
        return all(_literal(item) for item in value)
    return type(value) in (bytes, str, int)


def _compiled_ffi(path: Path) -> ModuleType | None:
    """A ``cairocffi.ffi`` module whose ``ffi`` is made from the stored data, or None."""
    stored = read_cache_file(path, MAX_FFI_BYTES)
    if stored is None:
        return None
    checksum, payload = stored[:8], stored[8:]
    if checksum != b"%08x" % zlib.crc32(payload):
        return None
    try:
        name, arguments = marshal.loads(payload)
        if name != _FFI_NAME or not isinstance(arguments, tuple) or not all(
                isinstance(pair, tuple) and len(pair) == 2 and type(pair[0]) is str
                and _literal(pair[1]) for pair in arguments):
            return None
        import _cffi_backend

        ffi = _cffi_backend.FFI(name, **dict(arguments))
    except Exception:  # data not ours, or not this cffi's: parsed as usual instead
        return None
    module = ModuleType("cairocffi.ffi", "cairo's declarations, as cffi's out-of-line data")
    module.ffi = ffi  # type: ignore[attr-defined]
    module.__file__ = str(path)
    return module


def _store_ffi(path: Path, module: ModuleType | None) -> None:
    """Keep the declarations cairocffi has just parsed as cffi's out-of-line data (the
    literals of the ``FFI(...)`` call cffi writes for them), for the next processes."""
    ffi = getattr(module, "ffi", None)
    if ffi is None or getattr(ffi, "_included_ffis", None):  # with xcb's: not kept
        return
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        import ast

        from cffi.recompiler import make_py_source

        path.parent.mkdir(parents=True, exist_ok=True)
        make_py_source(ffi, _FFI_NAME, str(temporary))
        tree = ast.parse(temporary.read_text(encoding="utf-8"))
        (call,) = [node.value for node in tree.body
                   if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call)]
        name = ast.literal_eval(call.args[0])
        arguments = tuple((keyword.arg, ast.literal_eval(keyword.value))
                          for keyword in call.keywords)
        payload = marshal.dumps((name, arguments))
        temporary.write_bytes(b"%08x" % zlib.crc32(payload) + payload)
        os.replace(temporary, path)
    except Exception:  # a cache not written is only slower next time
        try:
            temporary.unlink()
        except OSError:
            pass
