"""Writing files so that a failure never leaves a half-written one behind.

What an output path may be:
- a new file, or an existing regular file, which is replaced (atomically: the data goes to a
  temporary file beside it, which is then renamed over it) and keeps its permission bits; a
  new file gets the permissions the umask allows (0644 with the usual umask 022);
- a symbolic link: we write through it, like most tools (``cp``, editors, compilers): the
  file the link points to is replaced, the link itself stays a link.  A dangling link makes
  its target;
- never a folder, a device (``/dev/null``, ``/dev/full``), a pipe or a socket: those are
  refused before any work, so that a device node is never replaced by a regular file;
- never a file the command reads (its diagram file, mask, moves file...), by whatever name,
  link or hard link (:mod:`boardgen.inputs`): a drawing must not replace its own source;
- never one of boardgen's own files, nor anything in their folders: the package, its
  templates (sheet texts, figures, diagram files) and the font package it draws text with,
  which every command reads (by any name: the real folder is what counts);
- never a read-only file (no write permission bit set, or one we may not write): its owner
  marked it so, and a rename would replace it all the same; nor another user's file in a
  sticky folder (``/tmp``), which the rename may not replace however writable it is;
- never through a link in a sticky, world-writable folder (``/tmp``) that belongs to another
  user, unless the folder is theirs too: what the kernel's ``protected_symlinks`` refuses for
  an open, because anyone could have planted the link to make us replace their choice.

A failure of the machine while writing (a full disk) is an OSError naming the file.
"""

from __future__ import annotations

import errno
import functools
import importlib.util
import os
import stat
import tempfile
from pathlib import Path

from boardgen.errors import BoardgenError
from boardgen.inputs import input_named
from boardgen.text import quoted

# mkstemp's name for the temporary file: "." + name + "." + 8 random characters + ".part".
_TEMP_EXTRA_BYTES = 1 + 1 + 8 + len(".part")


def _folder(path: Path) -> Path:
    return path.parent if str(path.parent) else Path(".")


def _mode(path: Path) -> int | None:
    """``path``'s st_mode (through links), None if nothing is there; any other failure (a
    name too long, a loop of links) is one line."""
    try:
        return path.stat().st_mode
    except FileNotFoundError:
        return None
    except OSError as exc:
        if exc.errno == errno.ENAMETOOLONG:
            raise BoardgenError(f"output {quoted(str(path))}: file name too long") from None
        raise BoardgenError(f"output {quoted(str(path))}: {exc.strerror or exc}") from None


def is_folder(path: Path) -> bool:
    mode = _mode(path)
    return mode is not None and stat.S_ISDIR(mode)


MAX_LINK_HOPS = 40  # as the kernel: a longer chain of links is a loop


def _target(path: Path) -> Path:
    """The file a write to ``path`` replaces: ``path`` itself, or what its links lead to.
    The path is resolved one name at a time, and each link met on the way, a folder's in
    the middle of the path as much as the last name's, is checked as the kernel's
    protected_symlinks checks a link it follows (see the module doc)."""
    text = str(path)
    pending = list(reversed(text.split("/")))
    current = "/" if text.startswith("/") else os.getcwd()
    followed = False
    hops = 0
    while pending:
        name = pending.pop()
        if name in ("", "."):
            continue
        if name == "..":
            current = os.path.dirname(current)
            continue
        candidate = os.path.join(current, name)
        try:
            info = os.lstat(candidate)
        except OSError:  # nothing there (or _mode() says what is wrong): taken as named
            current = candidate
            continue
        if not stat.S_ISLNK(info.st_mode):
            current = candidate
            continue
        hops += 1
        if hops > MAX_LINK_HOPS:
            raise BoardgenError(f"output {quoted(text)}: too many levels of links")
        _check_planted(candidate, info, path)
        followed = True
        destination = os.readlink(candidate)
        if destination.startswith("/"):
            current = "/"
        pending.extend(reversed(destination.split("/")))
    return Path(current) if followed else path


def _check_planted(link: str, info: os.stat_result, asked: Path) -> None:
    """Refuse to follow ``link`` if it sits in a sticky, world-writable folder and belongs
    neither to us nor to the folder's owner: another user may have planted it there."""
    try:
        folder = os.stat(os.path.dirname(link) or ".")
    except OSError:
        return
    sticky_shared = folder.st_mode & stat.S_ISVTX and folder.st_mode & stat.S_IWOTH
    if sticky_shared and info.st_uid not in (os.geteuid(), folder.st_uid):
        raise BoardgenError(f"output {quoted(str(asked))}: {quoted(link)} is a link in a "
                            f"shared folder that belongs to another user (uid {info.st_uid}): "
                            "will not write through it; give another file name")


def _check_not_input(path: Path, target: Path) -> None:
    """Refuse a target that is one of the command's input files (same device and inode:
    through links and hard links too)."""
    try:
        info = target.stat()
    except OSError:
        return
    named = input_named(info.st_dev, info.st_ino)
    if named is not None:
        same = "" if str(target) == str(path) else f" (it leads to {quoted(str(target))})"
        raise BoardgenError(f"output {quoted(str(path))}{same} is the input file {named}: will "
                            "not write over it; give another file name")


@functools.cache
def _own_folders() -> tuple[Path, ...]:
    """The folders of the files boardgen reads of its own: the package itself (with its
    templates in a wheel), the templates' folder (at the top of a source checkout) and the
    font package.  Found, not imported, so that this layer draws nothing."""
    folders = {Path(__file__).resolve().parent}
    for package in ("boardgen.templates", "font_source_sans_pro"):
        try:
            spec = importlib.util.find_spec(package)
        except (ImportError, ValueError):
            spec = None
        for location in (spec.submodule_search_locations or []) if spec else []:
            folders.add(Path(location).resolve())
    return tuple(sorted(folders))


def check_not_own(path: Path, folder: Path) -> None:
    """Refuse an output (``path``, a file in ``folder`` or the folder itself) inside one of
    boardgen's own folders (:func:`_own_folders`)."""
    real = Path(os.path.realpath(folder))
    for own in _own_folders():
        if real.is_relative_to(own):
            raise BoardgenError(f"output {quoted(str(path))} is inside boardgen's own files "
                                f"({quoted(str(own))}): will not write there; give another "
                                "file name")


def _check_not_read_only(path: Path, target: Path, mode: int) -> None:
    if not mode & 0o222 or not os.access(target, os.W_OK):
        raise BoardgenError(f"output {quoted(str(path))} is a read-only file: will not replace it "
                            "(make it writable, or give another name)")


def _check_replaceable(path: Path, target: Path) -> None:
    """Refuse, before any work, a file the final rename may not replace: in a sticky folder
    (/tmp), only the file's owner, the folder's owner or root may, however writable the
    file itself is (another user's 0666 file)."""
    if os.geteuid() == 0:
        return
    try:
        info = target.stat()
        folder = os.stat(_folder(target))
    except OSError:
        return
    if folder.st_mode & stat.S_ISVTX and os.geteuid() not in (info.st_uid, folder.st_uid):
        raise BoardgenError(f"output {quoted(str(path))} belongs to another user (uid "
                            f"{info.st_uid}) in a shared folder: it cannot be replaced; give "
                            "another file name")


def _name_max(folder: Path) -> int:
    try:
        return os.pathconf(folder, "PC_NAME_MAX")
    except (OSError, ValueError):
        return 255


def check_writable(path: Path) -> None:
    """Refuse early, before any work, if ``path`` cannot be written (see the module doc)."""
    mode = _mode(path)
    if mode is not None and stat.S_ISDIR(mode):
        raise BoardgenError(f"output {quoted(str(path))} is a folder, not a file name")
    target = _target(path)
    if mode is not None and not stat.S_ISREG(mode):
        raise BoardgenError(f"output {quoted(str(path))} exists and is not a regular file "
                            "(a device, pipe or socket): give a file name")
    if mode is not None:
        _check_not_input(path, target)
        _check_not_read_only(path, target, mode)
        _check_replaceable(path, target)
    folder = _folder(target)
    if not is_folder(folder):
        raise BoardgenError(f"output folder {quoted(str(folder))} does not exist")
    check_not_own(path, folder)
    name_max = _name_max(folder)
    length = len(os.fsencode(target.name))
    if length + _TEMP_EXTRA_BYTES > name_max:
        raise BoardgenError(f"output file name {quoted(target.name)} is too long: {length} "
                            f"bytes, the limit here is {name_max - _TEMP_EXTRA_BYTES}")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise BoardgenError(f"output folder {quoted(str(folder))} is not writable")


def _new_file_mode() -> int:
    # The umask can only be read by setting it; set it straight back.
    mask = os.umask(0o022)
    os.umask(mask)
    return 0o666 & ~mask


def write_atomic(path: Path, data: bytes) -> None:
    """Write to a temporary file beside ``path`` (or beside the file its link points to),
    then rename it into place."""
    check_writable(path)
    target = _target(path)
    folder = _folder(target)
    try:
        mode = stat.S_IMODE(target.stat().st_mode)
    except FileNotFoundError:
        mode = _new_file_mode()
    try:
        fd, temp_name = tempfile.mkstemp(dir=folder, prefix=f".{target.name}.", suffix=".part")
    except OSError as exc:
        # os.access() says yes to root everywhere; the real answer comes from trying.
        reason = "file name too long" if exc.errno == errno.ENAMETOOLONG else \
            exc.strerror or str(exc)
        raise BoardgenError(f"cannot write into folder {quoted(str(folder))}: {reason}") from None
    try:
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(data)
            os.chmod(temp_name, mode)
            os.replace(temp_name, target)
        except OSError as exc:
            # A full disk, a file size limit: the machine, not the input (exit 1), but say
            # which file could not be written.
            raise OSError(exc.errno, exc.strerror or str(exc), str(path)) from None
    except BaseException:
        try:
            os.unlink(temp_name)
        except FileNotFoundError:
            pass
        raise


def check_folder_writable(folder: Path, where: str) -> None:
    """Refuse, before any work, a folder no file can be written into: a read-only one (or
    one the file system refuses).  Tried, not asked: os.access() says yes to root
    everywhere, even on a read-only mount."""
    check_not_own(folder, folder)
    try:
        fd, probe = tempfile.mkstemp(dir=folder, prefix=".boardgen-", suffix=".part")
    except OSError as exc:
        raise BoardgenError(f"{where}: cannot write into {quoted(str(folder))}: "
                            f"{exc.strerror or exc}") from None
    os.close(fd)
    os.unlink(probe)
