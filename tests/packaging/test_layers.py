"""The layers import in one direction: geometry and the picture model <- games <- render <-
publish <- cli and api, with no import circle anywhere.

import-linter holds the contracts (pyproject.toml, [tool.importlinter]); this runs it, so
that the README's test command enforces them, and adds what its contracts cannot say."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

import grimp
from conftest import ROOT

PACKAGE = ROOT / "boardgen"


def test_lint_imports_keeps_every_contract() -> None:
    lint = Path(sys.executable).parent / "lint-imports"
    result = subprocess.run([str(lint), "--no-cache"], cwd=ROOT, capture_output=True,
                            text=True, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
    kept = re.findall(r" KEPT$", result.stdout, re.MULTILINE)
    assert len(kept) >= 6 and " BROKEN" not in result.stdout, result.stdout


def test_no_module_imports_the_package_root() -> None:
    """``boardgen/__init__.py`` loads the API on first use; a module importing the root
    (``import boardgen`` for its version, say) would close a circle through it, which
    import-linter's sibling check cannot see."""
    graph = grimp.build_graph("boardgen")
    importers = graph.find_modules_that_directly_import("boardgen")
    assert importers <= {"boardgen.__main__"}, importers


def test_the_renderer_names_no_game() -> None:
    """No game key as a string in the renderer's code (a switch on a game's name would
    pass import-linter)."""
    keys = {"copolymer", "o", "polygone"}
    for path in sorted((PACKAGE / "render").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                assert node.value.lower() not in keys, \
                    f"{path.relative_to(ROOT)}:{node.lineno}: {node.value!r}"
