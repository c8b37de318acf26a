"""Shared helpers: run the CLI in-process and capture its one-line errors."""

from __future__ import annotations

import atexit
import os
import shutil
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

# boardgen's own tests see its three games only, whatever game plug-ins are installed
# beside it (tests/games/test_plugins.py turns them back on where it tests them).  Set before
# boardgen lists its games; the commands the tests start as processes inherit it.
os.environ["BOARDGEN_DISABLE_PLUGINS"] = "1"
# Cut sheet fonts go to a cache of the test run's own (tests/packaging/test_speedups.py tests
# the cache), not to the user's: a fresh folder per run, inherited by the commands started as
# processes.
os.environ["BOARDGEN_CACHE_DIR"] = tempfile.mkdtemp(prefix="boardgen-test-cache-")
atexit.register(shutil.rmtree, os.environ["BOARDGEN_CACHE_DIR"], ignore_errors=True)
# Finished sheets are not kept between the tests (tests/publish/test_sheet_cache.py turns
# the cache on where it tests it): a test that patches the code a sheet is set by must set
# it, not read another test's.
os.environ["BOARDGEN_SHEET_CACHE"] = "off"

from boardgen.cli import main  # noqa: E402

# Where the tests' own data files and the repository's files are, for tests in any sub-folder
# of tests/ (each part of the package has its folder there).
TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent

# bench/naive_engines.py holds the engines written from the spec alone: the benchmarks'
# floor and the tests' oracles.
sys.path.insert(0, str(ROOT / "bench"))


@dataclass
class Run:
    code: int
    out: str
    err: str


@pytest.fixture
def run_cli(capsys: pytest.CaptureFixture[str]) -> Callable[..., Run]:
    def run(*args: str) -> Run:
        code = 0
        try:
            main(list(args))
        except SystemExit as exc:
            code = int(exc.code or 0)
        captured = capsys.readouterr()
        return Run(code, captured.out, captured.err)

    return run


def one_line_error(result: Run, *fragments: str, code: int = 2) -> str:
    """The run failed as it should (bad input: exit 2, unless ``code`` says otherwise): one
    line on stderr holding every fragment, no traceback, no internal error."""
    assert result.code == code, (result.code, result.err)
    lines = result.err.strip().splitlines()
    assert len(lines) == 1, result.err
    assert "Traceback" not in result.err and "internal error" not in result.err, result.err
    for fragment in fragments:
        assert fragment in lines[0], lines[0]
    return lines[0]


@pytest.fixture
def in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The test runs in its own empty folder (the commands write there by default)."""
    monkeypatch.chdir(tmp_path)
    return tmp_path


# A print shop's PDF/X embeds Ghostscript's CMYK profile, and the kit's conversion to CMYK
# runs Ghostscript (Debian's ghostscript package): where neither is installed, the shop
# tests are skipped, except in CI (.ci/run installs it and sets BOARDGEN_REQUIRE_GHOSTSCRIPT).
CMYK_PROFILE = Path("/usr/share/color/icc/ghostscript/default_cmyk.icc")
SHOP_TEST_FILES = {"test_shop_pdf.py", "test_kit_shop.py"}



@pytest.fixture
def templates(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of the templates, which the games read theirs from: a test edits it freely."""
    from boardgen.games import protocol

    copy = tmp_path / "templates"
    shutil.copytree(protocol.TEMPLATES, copy)
    monkeypatch.setattr(protocol, "TEMPLATES", copy)
    monkeypatch.setattr("boardgen.resources.templates_root", lambda: copy)
    return copy

def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    have = (CMYK_PROFILE.is_file() or bool(os.environ.get("BOARDGEN_CMYK_PROFILE"))) \
        and shutil.which("gs") is not None
    if have or os.environ.get("BOARDGEN_REQUIRE_GHOSTSCRIPT"):
        return
    skip = pytest.mark.skip(reason="Ghostscript (Debian's ghostscript) is not installed here; "
                                   "CI installs it and requires these tests")
    for item in items:
        if item.path.name in SHOP_TEST_FILES:
            item.add_marker(skip)


def chromium() -> str:
    """Debian's Chromium for the tests that open pages in a browser: where it is missing they
    are skipped, except in CI (.ci/run installs it and sets BOARDGEN_REQUIRE_BROWSER)."""
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found is None:
        if os.environ.get("BOARDGEN_REQUIRE_BROWSER"):
            pytest.fail("chromium is not installed (.ci/run installs Debian's chromium)")
        pytest.skip("chromium is not installed here; CI installs it and requires this test")
    return found
