"""Files that ship inside the package: the templates (each game's sheet text and diagram
files), found the same way from a source checkout, an editable install or a wheel."""

from __future__ import annotations

import functools
from importlib import resources
from pathlib import Path


@functools.cache
def templates_root() -> Path:
    """The folder of the templates: ``templates/`` at the top of the repository, installed
    as the package ``boardgen.templates`` (see pyproject.toml)."""
    root = resources.files("boardgen.templates")
    # A package installed on disk (wheel, sdist, editable) is a plain folder; a namespace
    # package is a MultiplexedPath of one folder here.
    if isinstance(root, Path):
        return root
    paths = getattr(root, "_paths", None)
    if paths:
        return Path(paths[0])
    return Path(str(root))
