"""Finished rule sheets, quick references, kits, HTML sheets, diagrams, the printer check and
the gallery's thumbnails kept between builds.

Setting a sheet is most of ``boardgen all``'s work (measuring and correcting a setting
with Typst, drawing its figures, compiling; cutting the HTML page's fonts).  A finished
file is kept in the user's cache folder, beside the cut sheet fonts (``sheets/``), under a
key made of everything its bytes are made from, and the next build that asks for the same
file reads it back instead of setting it again:

- the request: which writer, the game, the paper, the theme (every paint it holds), a
  quick reference or the full sheet, with or without its board pages, the language,
  SOURCE_DATE_EPOCH;
- the game's template folder (its sheet texts, diagram files and figures), file by file,
  and the extra folders BOARDGEN_LANGUAGES names (their templates and catalogues);
- boardgen's own files (every source file and catalogue of the package: any change to the
  code misses), the bundled fonts Typst is given, and the versions of Python, Typst,
  pypdfium2, fontTools, Pillow, reportlab, cairocffi, cffi, CairoSVG, numpy and the font
  package, and the files of the system's cairo and pixman libraries;
- the games boardgen knows (a plug-in may declare paints).

The built-in diagrams (PDF, SVG, PNG), their gallery pictures, the gallery's boards and
the printer check are kept under the same key (their request instead of a sheet's).  A
thumbnail of a file is kept by the SHA-256 of the file's bytes, with its parameters (its
width, the file's kind), boardgen's own files and the libraries' versions
(:func:`cached_thumbnail`): it is the same picture for the same bytes whoever made them.

Only a built-in game's files are kept: a plug-in's code is outside what boardgen can
digest.  A file's digest is read once per process and trusted again while its size, its
modification time and its inode stay the same and that time is more than
``_RACY_SECONDS`` old (a file edited twice within a file system's clock tick is read
again, as git does).

A file is kept only if the key taken again once it is made is the same (a template saved
while the sheet was set is not kept under the old text's key).
An entry is the SHA-256 of its name and bytes followed by the bytes; an entry cut short,
emptied or replaced by another is set again and rewritten.  Entries are written whole (a
temporary file, then a rename), so that two builds side by side never read half of one.
The folder is kept under ``MAX_SHEET_CACHE_BYTES``: the entries used longest ago go first.
``BOARDGEN_CACHE_DIR=`` (empty) turns every cache off; ``BOARDGEN_OUTPUT_CACHE=off`` this
one alone (every finished file and thumbnail; ``BOARDGEN_SHEET_CACHE=off``, its first name,
still does the same).  Deleting the folder clears it.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.util
import json
import os
import re
import stat
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import fields, is_dataclass
from functools import partial
from pathlib import Path

from boardgen.limits import MAX_CACHED_SHEET_BYTES, MAX_SHEET_CACHE_BYTES
from boardgen.render.fonts import GLYPH_CACHE_ENV, cache_folder, read_cache_file

# The user's cache folder (a folder; set to the empty string: no cache at all), as
# boardgen.render.fonts reads it for its glyphs: one variable for every cache.
CACHE_ENV = GLYPH_CACHE_ENV
# "off" (or 0, no, false): no finished file kept (sheets, diagrams, boards, thumbnails).
OUTPUT_CACHE_ENV = "BOARDGEN_OUTPUT_CACHE"
SHEET_CACHE_ENV = "BOARDGEN_SHEET_CACHE"  # its first name (sheets alone were kept): the same
SHEETS_FOLDER = "sheets"
ENTRY_SUFFIX = ".sheet"
# Bumped when what an entry holds, or how its key is made, changes.
_FORMAT = "boardgen-sheet-cache-1"
_DIGEST = hashlib.sha256().digest_size
_RACY_SECONDS = 2
# Versions of the libraries a finished file's bytes pass through (their distributions'
# names): the sheets', the diagrams' and pictures' (cairocffi and its cffi, CairoSVG), the
# animations' (numpy).
_LIBRARIES = ("typst", "pypdfium2", "fonttools", "font-source-sans-pro", "pillow", "reportlab",
              "cairocffi", "cffi", "cairosvg", "numpy")
# The system's libraries that make the kept files' bytes (cairo, and pixman, which fills
# its pixels; zlib, which compresses the PNGs and the PDFs' streams; libpng, cairo's PNG
# writer; FreeType, which cairo may load): no distribution lists them, so the files
# themselves are digested, each found where the dynamic linker looks for them
# (LD_LIBRARY_PATH, then the system's folders; one preloaded or found through ld.so.conf's
# other folders is not seen).
_SYSTEM_LIBRARIES = ("libcairo.so.2", "libpixman-1.so.0", "libz.so.1", "libpng16.so.16",
                     "libfreetype.so.6")
_SYSTEM_FOLDERS = ("/usr/local/lib", "/usr/lib/{multiarch}", "/lib/{multiarch}", "/usr/lib64",
                   "/lib64", "/usr/lib", "/lib")


def sheet_cache_folder() -> Path | None:
    """Where finished files (sheets, diagrams, thumbnails) are kept, or None when this cache
    is off (BOARDGEN_OUTPUT_CACHE or its first name BOARDGEN_SHEET_CACHE)."""
    for variable in (OUTPUT_CACHE_ENV, SHEET_CACHE_ENV):
        if os.environ.get(variable, "").strip().lower() in ("off", "0", "no", "false"):
            return None
    return cache_folder(SHEETS_FOLDER)


# --- entries ---------------------------------------------------------------------------------


def entry_digest(name: str, data: bytes) -> bytes:
    """What an entry named ``name`` starts with: the SHA-256 of its name and its bytes."""
    return hashlib.sha256(name.encode("ascii") + b"\0" + data).digest()


def read_entry(path: Path, name: str, limit: int) -> bytes | None:
    """The bytes kept at ``path`` under ``name`` if they are whole and this entry's, else
    None (read as any file of the user's cache is: never waiting on a pipe, never more than
    ``limit`` bytes)."""
    stored = read_cache_file(path, limit + _DIGEST)
    if stored is None:
        return None
    digest, data = stored[:_DIGEST], stored[_DIGEST:]
    if not data or entry_digest(name, data) != digest:
        return None
    return data


def write_entry(path: Path, name: str, data: bytes) -> None:
    """Keep ``data`` at ``path`` under ``name``, whole or not at all (a build running beside
    this one reads a finished file); a folder that cannot be made or written is passed by."""
    folder = path.parent
    try:
        folder.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=folder, prefix=f".{name[:24]}-",
                                             suffix=".tmp")
        try:
            with os.fdopen(handle, "wb") as out:
                out.write(entry_digest(name, data) + data)
            os.replace(temporary, path)  # over a pipe or a link there too: a name, replaced
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
            raise
    except OSError:
        pass


# --- the key -------------------------------------------------------------------------------


class _Uncacheable(Exception):
    """Something in the request has no stable description: the sheet is set, not kept."""


def _described(value: object) -> object:
    """``value`` as plain JSON data that changes whenever it does (a theme's paints, read
    through its mappings; no object address); anything else is uncacheable."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return [type(value).__name__, repr(value)]
    if is_dataclass(value) and not isinstance(value, type):
        return [type(value).__qualname__,
                {f.name: _described(getattr(value, f.name)) for f in fields(value)}]
    if isinstance(value, Mapping):
        items = [(str(key), _described(item)) for key, item in value.items()]
        if len({key for key, _ in items}) != len(items):
            raise _Uncacheable(repr(value))
        return ["mapping", sorted(items)]
    if isinstance(value, (tuple, list)):
        return ["sequence", [_described(item) for item in value]]
    raise _Uncacheable(type(value).__qualname__)


# A file's digest by its path, with the size, modification and change times and inode it
# was read at.
_FILE_DIGESTS: dict[str, tuple[tuple[int, int, int, int], str]] = {}


def _file_digest(path: str, info: os.stat_result | None = None) -> str:
    """A file's SHA-256 (hex), from the memo while its size, times and inode are those it
    was read at; ``info``: its os.stat, when the caller has it already."""
    if info is None:
        info = os.stat(path)
    # The change time too: an edit in place whose modification time is set back (touch -r)
    # still moves it.
    seen = (info.st_size, info.st_mtime_ns, info.st_ino, info.st_ctime_ns)
    known = _FILE_DIGESTS.get(path)
    if known is not None and known[0] == seen:
        return known[1]
    if not stat.S_ISREG(info.st_mode):  # a pipe or a device there is not read (nor waited on)
        return f"not a file {stat.filemode(info.st_mode)}"
    with open(path, "rb") as handle:
        digest = hashlib.file_digest(handle, "sha256").hexdigest()
    # A file changed within the last moments may change again within its clock tick
    # without its time moving: read again next time.
    if time.time_ns() - info.st_mtime_ns > _RACY_SECONDS * 1_000_000_000:
        _FILE_DIGESTS[path] = (seen, digest)
    return digest


def _files(folder: str, inside: str = "") -> Iterator[tuple[str, str, os.stat_result]]:
    """Every file under ``folder`` (byte-code caches left out: made from the source), by
    its path inside it (``inside``: the folder's own), with its os.stat, in a fixed order:
    a folder's files by name, then its folders by name (as os.walk goes, links to
    folders neither followed nor digested), without a path computed twice (a key takes
    three trees of some 90 files each: os.walk and relpath cost more than their stats)."""
    try:
        with os.scandir(folder) as listing:
            entries = sorted(listing, key=lambda entry: entry.name)
    except OSError:
        return
    folders = []
    for entry in entries:
        try:
            is_folder = entry.is_dir()
        except OSError:
            is_folder = False
        if is_folder:
            if entry.name != "__pycache__" and not entry.is_symlink():
                folders.append(entry)
            continue
        if entry.name.endswith((".pyc", ".pyo")):
            continue
        try:
            info = entry.stat()
        except OSError:  # a link to nothing: named, as os.stat would have failed on it
            info = os.lstat(entry.path)
        yield inside + entry.name, entry.path, info
    for entry in folders:
        yield from _files(entry.path, f"{inside}{entry.name}/")


# Inside trees_read_once: each folder's digest since the last file was made.
_READ_ONCE: list[dict[str, str]] = []


@contextmanager
def trees_read_once() -> Iterator[None]:
    """While inside, a folder is digested once between two files made: the keys of the
    files read back one after another (a build with everything kept makes nothing) share
    one reading of boardgen's files, the fonts and a game's templates, as a build that
    started after them.  Each file made still has its key taken before and after it, the
    second afresh, so that one made while its inputs changed is not kept."""
    _READ_ONCE.append({})
    try:
        yield
    finally:
        _READ_ONCE.pop()


def _files_may_change() -> None:
    """A file is about to be made (and may read the files a key digests): read again."""
    if _READ_ONCE:
        _READ_ONCE[-1].clear()


def tree_digest(folder: Path) -> str:
    """A digest of every file under ``folder``: its names and bytes."""
    place = str(folder)
    known = _READ_ONCE[-1].get(place) if _READ_ONCE else None
    if known is not None:
        return known
    digest = hashlib.sha256()
    for relative, path, info in _files(place):
        digest.update(relative.encode("utf-8", "surrogateescape") + b"\0" +
                      _file_digest(path, info).encode("ascii") + b"\n")
    if _READ_ONCE:
        _READ_ONCE[-1][place] = digest.hexdigest()
    return digest.hexdigest()


_VERSIONS: list[dict[str, str]] = []
# The module each library is imported as: its install is the one Python would import.
_MODULES = {"typst": "typst", "pypdfium2": "pypdfium2", "fonttools": "fontTools",
            "font_source_sans_pro": "font_source_sans_pro", "pillow": "PIL",
            "reportlab": "reportlab", "cairocffi": "cairocffi", "cffi": "cffi",
            "cairosvg": "cairosvg", "numpy": "numpy"}


def _distribution(name: str) -> str:
    """A distribution's name as its metadata folder spells it (``font_source_sans_pro``)."""
    return re.sub(r"[-_.]+", "_", name).lower()


def _installed(name: str, module: str) -> str:
    """Where ``module`` is imported from, and the version and record of the install beside
    it: a wheel's ``.dist-info`` (its RECORD lists the hash of every file it installed,
    compiled parts too) or an ``.egg-info`` (a system package's; its PKG-INFO and the
    module's own first file), so that another install of it, on PYTHONPATH or the
    system's, is another key (importlib.metadata would cost some 30 ms a process)."""
    spec = importlib.util.find_spec(module)
    if spec is None or spec.origin is None:
        return "absent"
    origin = spec.origin
    package = os.path.dirname(origin) if spec.submodule_search_locations else origin
    place = os.path.dirname(package)
    try:
        names = sorted(os.listdir(place))
    except OSError:
        names = []
    for folder in names:
        stem, dot, kind = folder.rpartition(".")
        if kind not in ("dist-info", "egg-info") or not dot:
            continue
        found, _, version = stem.partition("-")
        if _distribution(found) != name:
            continue
        metadata = os.path.join(place, folder)
        record = os.path.join(metadata, "RECORD") if kind == "dist-info" else \
            os.path.join(metadata, "PKG-INFO") if os.path.isdir(metadata) else metadata
        try:
            written = _file_digest(record)
        except OSError:
            written = "no record"
        if kind == "egg-info":
            written += " " + _file_digest(origin)
        return f"{origin} {version} {written}"
    return f"{origin} {_file_digest(origin)}"


def _versions() -> dict[str, str]:
    """Python's version, and each of the sheets' libraries' install (:func:`_installed`)."""
    if _VERSIONS:
        return _VERSIONS[0]
    found = {"python": sys.version, "platform": sys.platform}
    for name in _LIBRARIES:
        distribution = _distribution(name)
        found[distribution] = _installed(distribution, _MODULES[distribution])
    found["system libraries"] = json.dumps(_system_libraries())
    _VERSIONS.append(found)
    return found


def _system_libraries() -> list[list[str]]:
    """Each of the system's drawing libraries found in a folder the dynamic linker looks
    in, with the digest of its file (every copy found, in the order they are looked for:
    a change to any of them is another key)."""
    import sysconfig

    multiarch = sysconfig.get_config_var("MULTIARCH") or ""
    folders = [folder for folder in os.environ.get("LD_LIBRARY_PATH", "").split(":") if folder]
    folders += [folder.format(multiarch=multiarch) for folder in _SYSTEM_FOLDERS]
    found = []
    seen = set()
    for name in _SYSTEM_LIBRARIES:
        for folder in folders:
            path = os.path.join(folder, name)
            try:
                info = os.stat(path)
                if (info.st_dev, info.st_ino) not in seen:  # /lib a link to /usr/lib
                    seen.add((info.st_dev, info.st_ino))
                    found.append([path, _file_digest(path, info)])
            except OSError:
                continue
    return found


def _package_folder() -> Path:
    """boardgen's own folder (this file is in its ``publish`` folder)."""
    return Path(__file__).resolve().parent.parent


def sheet_key(kind: str, game: str, request: Mapping[str, object]) -> str | None:
    """The name a finished file of ``kind`` (the writer) for ``game`` is kept under: the
    game, the kind and the SHA-256 of everything its bytes are made from; None when it is
    not to be kept (a plug-in's game, boardgen not in a folder of files).  ``game`` empty:
    a file of no game (the printer check), made from boardgen's own files alone."""
    from boardgen.games.registry import BUILT_IN, game_named, games
    from boardgen.i18n import LANGUAGES_VARIABLE, extra_folders, language
    from boardgen.render.fonts import font_folder
    from boardgen.resources import templates_root

    folder: Path | None = None
    if game:
        description = game_named(game)
        templates = templates_root().resolve()
        folder = description.template_folder
        if not any(description is built_in for built_in in BUILT_IN) or \
                not folder.resolve().is_relative_to(templates) or not folder.is_dir():
            return None
    package = _package_folder()
    if not (package / "__init__.py").is_file():  # a zip or a frozen build: not digested
        return None
    try:
        described = _described(dict(request))
    except _Uncacheable:
        return None
    extras = [[str(extra), tree_digest(extra / "templates" / game) if game else None,
               tree_digest(extra / "locale")] for extra in extra_folders()]
    parts = {
        "format": _FORMAT,
        "kind": kind,
        "game": game,
        "request": described,
        "language": language(),
        "source_date_epoch": os.environ.get("SOURCE_DATE_EPOCH"),
        "languages_variable": os.environ.get(LANGUAGES_VARIABLE),
        "extra_folders": extras,
        "games": [[key, type(known).__module__, type(known).__qualname__]
                  for key, known in games().items()],
        "templates": tree_digest(folder) if folder is not None else None,
        "boardgen": tree_digest(package),
        "fonts": tree_digest(Path(font_folder())),
        "versions": _versions(),
    }
    text = json.dumps(parts, sort_keys=True, ensure_ascii=True)
    return f"{game or 'boardgen'}-{kind}-{hashlib.sha256(text.encode('ascii')).hexdigest()[:40]}"


# --- the cache -----------------------------------------------------------------------------


def cached_sheet(kind: str, game: str, request: Mapping[str, object],
                 make: Callable[[], bytes]) -> bytes:
    """``make()``, read from the cache when an earlier build made the same file from the
    same inputs (see the module's notes), else made and kept.  A cache that cannot be read
    or written is passed by; a key that cannot be made (whatever the reason: ``make``
    says what is wrong with the request, in its own words) sets the file as without a
    cache."""
    return _through_cache(partial(_key_or_none, sheet_key, kind, game, request), make)


def thumbnail_key(parameters: Mapping[str, object], source: bytes) -> str | None:
    """The name a thumbnail of ``source`` (a file's bytes) drawn with ``parameters`` (its
    width, the file's kind: every parameter of the drawing) is kept under; None when it
    is not to be kept (boardgen not in a folder of files)."""
    package = _package_folder()
    if not (package / "__init__.py").is_file():
        return None
    parts = {
        "format": _FORMAT,
        "kind": "thumbnail",
        "parameters": _described(dict(parameters)),
        "source": hashlib.sha256(source).hexdigest(),
        "boardgen": tree_digest(package),
        "versions": _versions(),
    }
    text = json.dumps(parts, sort_keys=True, ensure_ascii=True)
    return f"thumb-{hashlib.sha256(text.encode('ascii')).hexdigest()[:40]}"


def cached_thumbnail(parameters: Mapping[str, object], source: bytes,
                     make: Callable[[], bytes]) -> bytes:
    """``make()``, a thumbnail of ``source`` drawn with ``parameters``, read from the cache
    when an earlier build drew one of the same bytes the same way, else drawn and kept
    (in the same folder as the sheets, under the same budget)."""
    return _through_cache(partial(_key_or_none, thumbnail_key, parameters, source), make)


def _key_or_none(key: Callable[..., str | None], *arguments: object) -> str | None:
    try:
        return key(*arguments)
    except Exception:  # make() reports a bad request in its own words
        return None


class NotKept(BaseException):
    """Raised instead of making a file inside :func:`kept_only` when the cache does not
    hold it (a BaseException: no ``except Exception`` on the way takes it for a failure
    and goes on with something else)."""


_KEPT_ONLY: list[bool] = []


@contextmanager
def kept_only() -> Iterator[None]:
    """While inside, a file the cache does not hold is not made: NotKept is raised instead
    (``boardgen all`` reads back what it can before deciding how many workers to start)."""
    _KEPT_ONLY.append(True)
    try:
        yield
    finally:
        _KEPT_ONLY.pop()


def _through_cache(key: Callable[[], str | None], make: Callable[[], bytes]) -> bytes:
    folder = sheet_cache_folder()
    name = key() if folder is not None else None
    if folder is None or name is None:
        if _KEPT_ONLY:
            raise NotKept
        return make()
    path = folder / f"{name}{ENTRY_SUFFIX}"
    kept = read_entry(path, name, MAX_CACHED_SHEET_BYTES)
    if kept is not None:
        with contextlib.suppress(OSError):
            os.utime(path)  # used now: the last to go when the folder is pruned
        return kept
    if _KEPT_ONLY:
        raise NotKept(name)
    _files_may_change()
    data = make()
    _files_may_change()  # the key taken again afresh
    # Kept only if nothing it is made from changed while it was made (a template saved
    # meanwhile): the bytes would not be those of the key taken before.
    if len(data) <= MAX_CACHED_SHEET_BYTES and key() == name:
        write_entry(path, name, data)
        _pruned_now_and_then(folder, len(data))
    return data


# Bytes this process has kept since it last pruned the folder, by folder: a build keeps
# some 250 files, and listing the folder after each of them cost more than keeping them.
_WRITTEN: dict[Path, int] = {}


def _pruned_now_and_then(folder: Path, size: int) -> None:
    """Prune after a process's first entry, then each time it has kept another
    twentieth of the budget (the folder stays within it, give or take that much for each
    process writing at once)."""
    written = _WRITTEN.get(folder)
    if written is None or written + size >= MAX_SHEET_CACHE_BYTES // 20:
        prune(folder)
        _WRITTEN[folder] = 0
    else:
        _WRITTEN[folder] = written + size


_ABANDONED_SECONDS = 3600  # a temporary file this old was left by a build that died


def prune(folder: Path, limit: int = MAX_SHEET_CACHE_BYTES) -> None:
    """Keep the folder's entries under ``limit`` bytes: the least recently used go first
    (down to three quarters of it, so that pruning is rare); temporary files left by a
    build that died go too."""
    entries: list[tuple[int, int, str]] = []
    now = time.time()
    try:
        with os.scandir(folder) as listing:
            for item in listing:
                try:
                    info = item.stat(follow_symlinks=False)
                except OSError:
                    continue
                if not stat.S_ISREG(info.st_mode):
                    continue
                if item.name.endswith(ENTRY_SUFFIX):
                    entries.append((info.st_mtime_ns, info.st_size, item.path))
                elif item.name.startswith(".") and item.name.endswith(".tmp") and \
                        now - info.st_mtime > _ABANDONED_SECONDS:
                    with contextlib.suppress(OSError):
                        os.unlink(item.path)
    except OSError:
        return
    total = sum(size for _, size, _ in entries)
    if total <= limit:
        return
    for _, size, path in sorted(entries):
        if total <= limit * 3 // 4:
            break
        with contextlib.suppress(OSError):
            os.unlink(path)
        total -= size
