"""An animation set in an HTML page (boardgen.publish.animation_html): scoped so that two
share a page, its Pause and Play again controls worked from the keyboard in Chromium, and
the SVG's own alternative text."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from conftest import chromium

import boardgen
from boardgen.errors import BoardgenError
from boardgen.publish.animation_html import animation_figure
from boardgen.render.scene import THEMES

# Slow: left out of the quick subset (pytest -m "not slow"; the README says which).
pytestmark = pytest.mark.slow


def two_figures() -> tuple[str, list[str]]:
    first = boardgen.animate(boardgen.play("copolymer", "C3 B2 C2 D3", side=3), "svg",
                             move_ms=300, hold_ms=0, theme="colour")
    second = boardgen.animate(boardgen.play("copolymer", "C3 B2", side=3), "svg",
                              move_ms=60_000, theme="colourblind", cell_mm=12)
    page = ("<!doctype html><html lang=en><meta charset=utf-8><title>t</title><body>"
            + animation_figure(first, "line-1", "Four moves")
            + animation_figure(second, "line-2") + "</body></html>")
    return page, [first, second]


def test_ids_styles_and_names_are_scoped_to_the_figure() -> None:
    page, _ = two_figures()
    ids = re.findall(r'\bid="([^"]+)"', page)
    assert len(ids) == len(set(ids))
    for reference in re.findall(r'href="#([^"]+)"|url\(#([^)]+)\)', page):
        target = next(r for r in reference if r)
        assert target in ids and target.startswith(("line-1-", "line-2-"))
    for style in re.findall(r"<style>(?:<!\[CDATA\[)?(.*?)(?:\]\]>)?</style>", page, re.S):
        for selector in re.findall(r"(?:^|})([^@{}][^{}]*)\{", style):
            if selector.strip() in ("from", "to"):
                continue
            assert all(s.strip().startswith(("#line-1 ", "#line-2 "))
                       for s in selector.split(",")), selector
    assert "<?xml" not in page and "<script" not in page
    with pytest.raises(BoardgenError, match="key"):
        animation_figure("<svg/>", "Not A Key")


def test_the_alternative_text_is_the_svgs() -> None:
    page, svgs = two_figures()
    labels = re.findall(r'<div class="picture" role="img" aria-label="([^"]*)"', page)
    assert len(labels) == 2
    for label, svg in zip(labels, svgs, strict=True):
        description = re.search(r"<desc>(.*?)</desc>", svg)
        assert description is not None and description.group(1) in label
        assert label.startswith("Copolymer: ")



@pytest.mark.slow
def test_pause_and_play_again_work_from_the_keyboard(tmp_path: Path) -> None:
    browser_path = chromium()
    from playwright.sync_api import sync_playwright

    page_text, _ = two_figures()
    path = tmp_path / "page.html"
    path.write_text(page_text)
    state = ("(key) => Array.from(document.querySelectorAll(`#${key} .frame`), g => "
             "g.getAnimations().map(a => a.playState).join()).join('|')")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=browser_path,
            args=["--no-sandbox", "--disable-gpu", "--headless", "--disable-dev-shm-usage"])
        try:
            page = browser.new_page(viewport={"width": 900, "height": 700})
            page.goto(path.as_uri())
            # Each figure in its own theme: the same class, two fills.
            fill = ("(key) => getComputedStyle(document.querySelector("
                    "`#${key} .frame.last .cell.player1`)).fill")
            assert page.evaluate(fill, "line-1") == _css_rgb(THEMES["colour"], "player1")
            assert page.evaluate(fill, "line-2") == _css_rgb(THEMES["colourblind"], "player1")
            # The keyboard reaches the first figure's Pause; Space pauses it, not the other.
            page.keyboard.press("Tab")
            assert page.evaluate("document.activeElement.id") == "line-1-pause"
            page.keyboard.press("Space")
            assert set(page.evaluate(state, "line-1").replace("|", ",").split(",")) \
                <= {"paused", ""}
            assert "running" in page.evaluate(state, "line-2")
            page.keyboard.press("Space")
            assert "paused" not in page.evaluate(state, "line-1")
            # Play again: after the end (the last frame held), the first frame again.
            page.wait_for_timeout(1600)
            visible = ("(key) => Array.from(document.querySelectorAll(`#${key} .frame`), "
                       "(g, k) => getComputedStyle(g).visibility === 'visible' ? k : -1)"
                       ".filter(k => k >= 0)")
            assert page.evaluate(visible, "line-1") == [3]
            page.keyboard.press("Tab")
            assert page.evaluate("document.activeElement.id") == "line-1-again"
            page.keyboard.press("Space")
            assert page.evaluate(visible, "line-1") == [0]
            calm = browser.new_page(viewport={"width": 900, "height": 700},
                                    reduced_motion="reduce")
            calm.goto(path.as_uri())
            assert calm.evaluate(visible, "line-1") == [3]
            assert calm.evaluate("getComputedStyle(document.querySelector("
                                 "'#line-1 label')).display") == "none"
        finally:
            browser.close()


def _css_rgb(theme: object, role: str) -> str:
    colour = theme.cells[role].fill  # type: ignore[attr-defined]
    r, g, b = (int(colour[k:k + 2], 16) for k in (1, 3, 5))
    return f"rgb({r}, {g}, {b})"


@pytest.mark.slow
def test_frames_drawn_once_and_referred_to_look_as_the_svgs_own(tmp_path: Path) -> None:
    """The figure draws what several frames repeat once (``<use>``): every frame, shown
    alone in Chromium, has the same pixels as in the SVG as ``animate`` wrote it."""
    browser_path = chromium()
    from PIL import Image, ImageChops
    from playwright.sync_api import sync_playwright

    # A swing turning, a capture fading, then a Copolymer turn: groups shared whole and not.
    svgs = [boardgen.animate(boardgen.diagram("polygone", "06-triangle"), "svg"),
            boardgen.animate(boardgen.play("copolymer", "C3 B2 C2 D3 A1", side=3), "svg")]
    bare = "<style>body{margin:0}figure{margin:0}input,label{display:none}</style>"
    show = ("(k) => document.querySelectorAll('.frame').forEach((g, i) => {"
            "g.style.animation = 'none'; g.style.visibility = i === k ? 'visible' : 'hidden'})")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=browser_path,
            args=["--no-sandbox", "--disable-gpu", "--headless", "--disable-dev-shm-usage"])
        try:
            page = browser.new_page(viewport={"width": 700, "height": 700})
            for number, svg in enumerate(svgs):
                figure = animation_figure(svg, "shared")
                if number == 0:  # the swing's in-between frames: a lattice each
                    assert len(figure) < 0.6 * len(svg) and ' href="#shared-shared-' in figure
                own = tmp_path / f"own-{number}.html"
                own.write_text(f"<!doctype html><html><body>{bare}"
                               f"{svg.split('?>', 1)[1]}</body></html>")
                ours = tmp_path / f"ours-{number}.html"
                ours.write_text(f"<!doctype html><html><body>{bare}{figure}</body></html>")
                frames = svg.count('<g class="frame')
                shots: dict[Path, list[bytes]] = {}
                for path in (own, ours):
                    page.goto(path.as_uri())
                    shots[path] = []
                    for k in range(frames):
                        page.evaluate(show, k)
                        shots[path].append(page.locator("svg").first.screenshot())
                for k, (a, b) in enumerate(zip(shots[own], shots[ours], strict=True)):
                    first, second = (Image.open(io.BytesIO(s)).convert("RGB") for s in (a, b))
                    assert first.size == second.size
                    assert ImageChops.difference(first, second).getbbox() is None, (number, k)
        finally:
            browser.close()
