"""Files that ship inside the package: the templates (each game's sheet text and diagram
files), found the same way from a source checkout, an editable install or a wheel."""

from __future__ import annotations

import functools
import importlib.util
from pathlib import Path


@functools.cache
def templates_root() -> Path:
    """The folder of the templates: ``templates/`` at the top of the repository, installed
    as the package ``boardgen.templates`` (see pyproject.toml)."""
    # A package installed on disk (wheel, sdist, editable) is a plain folder: its spec names
    # it, without importing importlib.resources (and with it tempfile, shutil, zipfile and
    # the compression modules: a few milliseconds of every command's start-up).
    spec = importlib.util.find_spec("boardgen.templates")
    places = list(spec.submodule_search_locations or []) if spec is not None else []
    if places:
        return Path(places[0])
    from importlib import resources

    root = resources.files("boardgen.templates")
    # A namespace package is a MultiplexedPath of one folder here.
    if isinstance(root, Path):
        return root
    paths = getattr(root, "_paths", None)
    if paths:
        return Path(paths[0])
    return Path(str(root))
