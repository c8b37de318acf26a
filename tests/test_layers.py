"""The layers import in one direction: geometry <- games <- render <- publish <- cli."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "boardgen"
RENDERING = ("reportlab", "svgwrite", "cairosvg", "cairocffi", "fontTools", "PIL",
             "font_source_sans_pro", "boardgen.render", "boardgen.cli", "click")
FORBIDDEN = {
    "geometry": RENDERING + ("boardgen.games",),
    "games": RENDERING,
    "render": ("boardgen.cli", "click"),
    "publish": ("boardgen.cli", "boardgen.api", "click"),
}


def imports(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
    return found


@pytest.mark.parametrize("layer", sorted(FORBIDDEN))
def test_layer_imports_point_one_way(layer: str) -> None:
    # games/registry.py still names the renderers; it moves below them with the game
    # protocol (issue 17), and import-linter then holds every layer.
    files = sorted(p for p in (PACKAGE / layer).rglob("*.py") if p.name != "registry.py")
    assert files
    for path in files:
        for module in imports(path):
            for banned in FORBIDDEN[layer]:
                assert not (module == banned or module.startswith(banned + ".")), \
                    f"{path.relative_to(PACKAGE)} imports {module}"
