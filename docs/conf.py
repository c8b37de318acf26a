"""Sphinx configuration of boardgen's documentation site.

Build it as the README's ``<!-- ci:docs -->`` command does: ``sphinx-build -E -W
--keep-going -b html docs docs/_build/html`` and ``-b doctest`` (``-E``: every page read
again, as the generated references follow the code).  Every warning (a broken reference, a
page in no table of contents) fails the build; the doctest builder runs every ``>>>``
example, and every command-line example (``_ext/boardgen_docs.py``).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

DOCS = Path(__file__).resolve().parent
ROOT = DOCS.parent
# The site documents boardgen's own games, whatever game plug-ins are installed beside it.
os.environ["BOARDGEN_DISABLE_PLUGINS"] = "1"
sys.path.insert(0, str(DOCS / "_ext"))

from boardgen import __version__  # noqa: E402

project = "boardgen"
author = "the boardgen developers"
copyright = ("boardgen's developers; Copolymer and O by Mark Steere, Polygone by Fabien "
             "Vandenbussche")
release = __version__
version = __version__

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinx.ext.doctest",
    "sphinx_click",
    "boardgen_docs",
]
source_suffix = {".md": "markdown", ".rst": "restructuredtext"}
exclude_patterns = ["_build", "_ext"]
root_doc = "index"

myst_enable_extensions = ["colon_fence", "deflist"]
myst_heading_anchors = 3

# A reference that leads nowhere is an error, like any other warning (-W).
nitpicky = True
# Types from the standard library and third-party libraries have no page here (the site is
# built without fetching other sites' inventories), nor do boardgen's private aliases.
nitpick_ignore_regex = [
    (r"py:(class|obj|data)", r"(typing|collections\.abc|pathlib|os|random|abc|enum)\..*"),
    (r"py:(class|obj|data)", r"(Path|PathLike|Iterable|Iterator|Mapping|Sequence|Callable|"
                             r"Literal|Any|Generic|Protocol|TypeVar|ABC|StrEnum|Enum|"
                             r"Hex|HexGrid|Scene|Panel|Role|Directive|G|D|Q|T|P|R)"),
    (r"py:(class|obj|data)", r"(str|int|float|bool|bytes|dict|list|tuple|set|frozenset|"
                             r"object|None|Exception|ValueError)"),
    (r"py:(class|obj|data)", r"boardgen\.(requests|picture|geometry)(\.\w+)+"),
    # Internals that docstrings name and the site does not document.
    (r"py:(func|mod|class)", r"(option|show_svg_with|boardgen\.picture)"),
    # The runner's type variables: a game's engine, panel draft, finished panel.
    (r"py:class", r"boardgen\.games\.script\.[GDQTPR]"),
    # ... as Sphinx splits them out of a generic dataclass field's type (list[tuple[P, P]]).
    (r"py:class", r"(list|dict|tuple)\[.*~boardgen\.games\.script\.[PR]"),
    # ... and out of a field of nested tuples (DesignerMarks), or a generic's arguments.
    (r"py:class", r"tuple\[str"),
    (r"py:class", r"boardgen\.games\.script\.Annotations\[.*"),
]

autodoc_member_order = "bysource"
autodoc_typehints = "signature"
autodoc_preserve_defaults = True

# The examples run where a reader's would: in a folder of their own, with no source tree
# (files they read, they write first).
doctest_global_setup = """
import os
import tempfile
os.chdir(tempfile.mkdtemp(prefix="boardgen-doctest-"))
import boardgen
"""
doctest_default_flags = 0
import doctest as _doctest  # noqa: E402

doctest_default_flags = _doctest.ELLIPSIS | _doctest.NORMALIZE_WHITESPACE | \
    _doctest.DONT_ACCEPT_TRUE_FOR_1
doctest_test_doctest_blocks = "default"

# Command lines keep their "--": no dashes made of them (quotes and ellipses only).
smartquotes_action = "qe"

html_theme = "furo"
html_title = f"boardgen {__version__}"
html_static_path: list[str] = []
html_show_sourcelink = False
