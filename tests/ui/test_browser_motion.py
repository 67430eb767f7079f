"""Motion (WCAG 2.3.3): a reader whose system asks for less motion (prefers-reduced-motion)
gets Streamlit's slides, fades and spinners without their movement (ui/style.css)."""

from __future__ import annotations

from playwright.sync_api import Browser

from browser_helpers import open_lesson

# Every element whose transition or animation lasts longer than 1 ms: (what it is, how long).
MOVING = """() => [...document.querySelectorAll('*')].flatMap((e) => {
  const style = getComputedStyle(e);
  const longest = (list) => Math.max(...list.split(',').map((d) => parseFloat(d) * 1000));
  const ms = Math.max(longest(style.transitionDuration), longest(style.animationDuration));
  return ms > 1 ? [[e.getAttribute('data-testid') || e.tagName, ms]] : [];
})"""


def _moving(browser: Browser, app_server: str, motion: str) -> list:
    context = browser.new_context(viewport={"width": 1280, "height": 800}, reduced_motion=motion)
    try:
        page = context.new_page()
        open_lesson(page, app_server, "laplace/page.py")
        return page.evaluate(MOVING)
    finally:
        context.close()


def test_reduced_motion_stills_every_transition(browser: Browser, app_server: str) -> None:
    # without the wish: the sidebar slides, expanders and buttons fade (the check can fail)
    assert len(_moving(browser, app_server, "no-preference")) >= 10
    assert _moving(browser, app_server, "reduce") == []
