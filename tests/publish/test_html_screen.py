"""The HTML sheets on a phone (issue 32), in headless Chromium (Debian's, driven by
Playwright): a <main> landmark; on a 390 px screen no figure pushes the page sideways, a
figure wider than the screen scrolls in its own focusable box under a line saying so, and
no caption or key is cut off for good (scrolling reaches it); axe-core (npm, package.json)
finds no violation of WCAG 2 level A or AA.  On main at f4fc8bd there was no <main>, and
two-panel figures scrolled with no sign that they did."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from conftest import ROOT, chromium

from boardgen.publish.sheet import render_sheet_html
from boardgen.render.scene import THEMES

# Slow: left out of the quick subset (pytest -m "not slow"; the README says which).
pytestmark = pytest.mark.slow

GAMES = ("copolymer", "o", "polygone")
PHONE = {"width": 390, "height": 844}
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"


def _needs(path: str | None, what: str) -> str:
    if path is None:
        if os.environ.get("BOARDGEN_REQUIRE_BROWSER"):
            pytest.fail(f"{what} is not installed (.ci/run installs it)")
        pytest.skip(f"{what} is not installed here; CI installs it and requires this test")
    return path


@pytest.mark.parametrize("quick", [False, True])
@pytest.mark.parametrize("game", GAMES)
def test_the_sheet_on_a_phone_has_a_main_and_scrolls_its_wide_figures(
        game: str, quick: bool, tmp_path: Path) -> None:
    browser_path = chromium()
    axe = Path(_needs(str(AXE) if AXE.exists() else None, "axe-core (npm install)"))
    from playwright.sync_api import sync_playwright

    page_file = tmp_path / "sheet.html"
    page_file.write_bytes(render_sheet_html(game, theme=THEMES["colour"], quick=quick))
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=browser_path,
            args=["--no-sandbox", "--disable-gpu", "--headless", "--disable-dev-shm-usage"])
        try:
            page = browser.new_page(viewport=PHONE)
            page.goto(page_file.as_uri())
            assert page.locator("main").count() == 1
            # The page itself never scrolls sideways: only a figure's own box does.
            assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
            boxes = page.locator(".scroll")
            assert boxes.count() >= 1
            for k in range(boxes.count()):
                box = boxes.nth(k)
                wide = box.evaluate("b => b.scrollWidth > b.clientWidth + 1")
                if wide:
                    # Focusable, and a visible line above it says it scrolls.
                    assert box.get_attribute("tabindex") == "0"
                    hint = box.evaluate("b => b.previousElementSibling && "
                                        "b.previousElementSibling.className")
                    assert hint == "hint", f"figure {k} scrolls with no sign"
                    assert box.evaluate("b => getComputedStyle(b.previousElementSibling)"
                                        ".display") != "none"
            page.add_script_tag(path=str(axe))
            result = page.evaluate("""async () => {
                const r = await axe.run(document, {runOnly: {type: 'tag',
                    values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']}});
                return r.violations.map(v => v.id + ': ' + v.help + ' (' +
                    v.nodes.length + ')');
            }""")
            assert result == [], result
        finally:
            browser.close()
