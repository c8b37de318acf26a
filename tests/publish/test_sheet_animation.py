"""The HTML rule sheets' diagrams in motion (boardgen.publish.sheet_animation): one
animation under each diagram whose lines of play move, with the still figure's own
alternative text, a keyboard-reachable control, hidden in print, the same bytes each time;
pressed from the keyboard in Chromium."""

from __future__ import annotations

import html
import os
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from conftest import chromium

from boardgen.publish.sheet import render_sheet_html
from boardgen.render.scene import THEMES

# Slow: left out of the quick subset (pytest -m "not slow"; the README says which).
pytestmark = pytest.mark.slow

# Read from the templates: the diagrams that show a line of play move by move (Copolymer's
# turns) or a swing turning into the next panel (Polygone's captures).  Glyph charts, one
# piece's targets and single positions do not move.
MOVING = {
    ("copolymer", False): ["Connections: placing again, and ending the turn",
                           "Forced connections: nothing else is empty",
                           "Tempo: three connections open, only one taken"],
    ("polygone", True): ["A triangle captures"],
    ("o", True): [],
}


class Figures(HTMLParser):
    """Each still figure's caption, its SVG's aria-label and <desc>, and the animations
    under it: their summary, picture label, and controls."""

    def __init__(self) -> None:
        super().__init__()
        self.stills: list[dict[str, str]] = []
        self.moving: list[dict[str, object]] = []
        self._text: list[str] = []
        self._in_details = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "details" and a.get("class") == "moving":
            self._in_details = True
            self.moving.append({"summary": "", "label": None, "controls": [], "for": [],
                                "after": self.stills[-1]["caption"], "open": "open" in a})
        elif tag == "figure" and not a.get("class"):
            self.stills.append({"caption": "", "label": "", "desc": ""})
        elif tag == "svg" and a.get("role") == "img" and self.stills:
            self.stills[-1]["label"] = a.get("aria-label", "")
        elif tag == "div" and a.get("role") == "img" and self.moving:
            self.moving[-1]["label"] = a.get("aria-label")
        elif tag == "input" and self.moving:
            self.moving[-1]["controls"].append((a.get("type"), a.get("id")))  # type: ignore[union-attr]
        elif tag == "label" and self.moving:
            self.moving[-1]["for"].append(a.get("for"))  # type: ignore[union-attr]
        if tag != "span":
            self._text = []

    def handle_endtag(self, tag: str) -> None:
        text = "".join(self._text)
        if tag == "figcaption" and self.stills and not self.stills[-1]["caption"]:
            self.stills[-1]["caption"] = text
        elif tag == "desc" and self.stills and not self._in_details:
            self.stills[-1]["desc"] = self.stills[-1]["desc"] or text
        elif tag == "details":
            self._in_details = False
        elif tag == "summary" and self.moving:
            self.moving[-1]["summary"] = text
        if tag != "span":
            self._text = []

    def handle_data(self, data: str) -> None:
        self._text.append(data)


def sheet(game: str, quick: bool) -> str:
    return render_sheet_html(game, theme=THEMES["colour"], quick=quick).decode()


@pytest.mark.parametrize(("game", "quick"), sorted(MOVING))
def test_one_animation_under_each_moving_diagram(game: str, quick: bool) -> None:
    page = sheet(game, quick)
    found = Figures()
    found.feed(page)
    assert [m["after"] for m in found.moving] == MOVING[game, quick]
    stills = {s["caption"]: s for s in found.stills}
    for moving in found.moving:
        still = stills[str(moving["after"])]
        # The same alternative text as the still figure: its description (which opens with
        # its caption, the still's name).
        assert moving["label"] == html.unescape(still["desc"]) != ""
        assert str(moving["label"]).startswith(still["label"])
        # Closed until asked for; the summary (focusable by nature) names the picture.
        assert moving["open"] is False
        assert moving["summary"] == f"Watch it move: {still['caption']}"
        # Pause and Play again: checkboxes, each with its label.
        controls = moving["controls"]
        assert [kind for kind, _ in controls] == ["checkbox", "checkbox"]  # type: ignore[union-attr]
        assert [ident for _, ident in controls] == moving["for"]  # type: ignore[union-attr]
    if found.moving:  # never printed
        assert "@media print { details.moving { display: none; } }" in page
    else:
        assert "details.moving" not in page
    ids = re.findall(r'\bid="(moving-[^"]+)"', page)  # ours (the stills repeat "hex")
    assert len(ids) == len(set(ids))
    assert "<script" not in page


def test_the_same_bytes_each_time() -> None:
    assert sheet("polygone", True) == sheet("polygone", True)



@pytest.mark.slow
def test_the_animation_opens_and_pauses_from_the_keyboard(tmp_path: Path) -> None:
    browser_path = chromium()
    from playwright.sync_api import sync_playwright

    path = tmp_path / "copolymer-quick-reference.html"
    path.write_bytes(render_sheet_html("copolymer", theme=THEMES["colour"], quick=True))
    states = ("() => Array.from(document.querySelectorAll('details.moving .frame'), g => "
              "g.getAnimations().map(a => a.playState).join()).join(',')")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=browser_path,
            args=["--no-sandbox", "--disable-gpu", "--headless", "--disable-dev-shm-usage"])
        try:
            page = browser.new_page(viewport={"width": 1000, "height": 800})
            page.goto(path.as_uri())
            summary = page.locator("details.moving summary")
            assert not page.locator("details.moving .picture").is_visible()
            # Tab through the page's links to the summary, then Enter opens it.
            for _ in range(20):
                page.keyboard.press("Tab")
                if page.evaluate("document.activeElement.tagName") == "SUMMARY":
                    break
            assert page.evaluate("document.activeElement.tagName") == "SUMMARY"
            page.keyboard.press("Enter")
            assert page.locator("details.moving .picture").is_visible()
            assert "running" in page.evaluate(states)
            page.keyboard.press("Tab")
            assert page.evaluate("document.activeElement.className") == "pause"
            page.keyboard.press("Space")
            assert set(page.evaluate(states).split(",")) <= {"paused", ""}
            summary.scroll_into_view_if_needed()
            page.screenshot(path=str(tmp_path / "sheet-animation.png"), full_page=False)
            shot = os.environ.get("BOARDGEN_SHEET_SHOT")
            if shot:
                page.screenshot(path=shot)
            page.emulate_media(media="print")
            assert not page.locator("details.moving").is_visible()
        finally:
            browser.close()
