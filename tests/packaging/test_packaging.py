"""The wheel carries the whole package: pyproject.toml lists its packages by hand (the
templates are mapped into it from the top of the repository), so a new subpackage or a new
kind of template file must be listed there too, or an installed boardgen fails to import it
(CI's .ci/wheel would catch that late; this catches it in the test run)."""

from __future__ import annotations

import fnmatch
import tomllib

from conftest import ROOT

SETUPTOOLS = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]


def test_every_subpackage_is_listed_for_the_wheel() -> None:
    found = {".".join(init.parent.relative_to(ROOT).parts)
             for init in (ROOT / "boardgen").rglob("__init__.py")}
    listed = set(SETUPTOOLS["packages"])
    assert found <= listed, f"not in pyproject.toml's packages: {sorted(found - listed)}"
    assert "boardgen.templates" in listed
    assert SETUPTOOLS["package-dir"]["boardgen.templates"] == "templates"


def test_every_template_file_is_package_data() -> None:
    patterns = SETUPTOOLS["package-data"]["boardgen.templates"]
    templates = ROOT / "templates"
    files = [p.relative_to(templates).as_posix() for p in templates.rglob("*")
             if p.is_file() and "__pycache__" not in p.parts and p.name != "__init__.py"]
    assert files
    missed = [f for f in files if not any(fnmatch.fnmatch(f, pat) for pat in patterns)]
    assert not missed, f"template files the wheel would leave out: {missed}"


def test_the_distribution_has_a_name_of_our_own() -> None:
    """PyPI's ``boardgen`` is an unrelated project: ours is boardgen-games (the import
    package stays boardgen), and the example plug-ins depend on that name, so that pip
    never resolves them to the other project."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert project["name"] == "boardgen-games"
    for example in sorted((ROOT / "examples").glob("*/pyproject.toml")):
        needs = tomllib.loads(example.read_text())["project"]["dependencies"]
        names = [need.split(">")[0].split("=")[0].split("<")[0].strip() for need in needs]
        assert "boardgen-games" in names and "boardgen" not in names, example
