"""Writing files so that a failure never leaves a half-written one behind."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from boardgen.errors import BoardgenError


def check_writable(path: Path) -> None:
    """Refuse early, before any work, if ``path`` cannot be written."""
    folder = path.parent if str(path.parent) else Path(".")
    if path.is_dir():
        raise BoardgenError(f"output {str(path)!r} is a folder, not a file name")
    if not folder.is_dir():
        raise BoardgenError(f"output folder {str(folder)!r} does not exist")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise BoardgenError(f"output folder {str(folder)!r} is not writable")


def write_atomic(path: Path, data: bytes) -> None:
    """Write to a temporary file beside ``path``, then rename it into place."""
    check_writable(path)
    folder = path.parent if str(path.parent) else Path(".")
    try:
        fd, temp_name = tempfile.mkstemp(dir=folder, prefix=f".{path.name}.", suffix=".part")
    except OSError as exc:
        # os.access() says yes to root everywhere; the real answer comes from trying.
        raise BoardgenError(
            f"cannot write into folder {str(folder)!r}: {exc.strerror or exc}"
        ) from None
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.chmod(temp_name, 0o644)
        os.replace(temp_name, path)
    except BaseException:
        try:
            os.unlink(temp_name)
        except FileNotFoundError:
            pass
        raise
