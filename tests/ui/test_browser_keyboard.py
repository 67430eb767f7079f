"""A lesson worked from the keyboard alone (WCAG 2.1.1, 2.1.2, 2.4.1, 2.4.3, 2.4.7), in real
Chromium: the Laplace lesson, tabbed through from the top as a student without a mouse would.

- The first Tab stop is the skip link, and Enter on it moves the focus into the lesson.
- Tab reaches every control of the lesson (sliders, radios, toggles, select boxes, buttons,
  downloads, expanders, links) in the order the page reads, each with a focus you can see:
  the pixels around the control differ between focused and not.
- Nothing traps the focus: the walk comes back round to the skip link, and Shift+Tab goes back.
- The main slider moves with the arrow keys and its chart changes; a button works with Space,
  an expander ("Show the numbers") and a download with Enter.

The survey's and the quiz's answer buttons are pressed with Enter and Space, and their
confirmations found in a status region, by tests/lessons/class_*/test_browser_class_*.py.
"""

from __future__ import annotations

import io

import pytest
from PIL import Image, ImageChops
from playwright.sync_api import Page, expect

from browser_helpers import (
    AXE_FAILS,
    CHART_DESCRIPTION,
    FINISHED,
    assert_no_exception,
    axe_violations,
    expect_rerun,
    open_lesson,
)
from ui import template as ui_template

MAX_STOPS = 200  # a lesson has about 90; more than this and the focus is stuck somewhere
CHANGED_PIXELS = 40  # a focus ring changes at least this many pixels around its control

# What has the focus: where it is in the page's reading (DOM) order, what it is, and its box.
FOCUSED = """() => {
  const e = document.activeElement;
  if (!e || e === document.body) return null;
  const count = document.querySelectorAll('[data-pp-stop]').length;
  if (!e.dataset.ppStop) e.dataset.ppStop = String(count);
  const r = e.getBoundingClientRect();
  const all = [...document.querySelectorAll('*')];
  return {
    stop: Number(e.dataset.ppStop),
    order: all.indexOf(e),
    tag: e.tagName,
    testid: e.closest('[data-testid^="st"]')?.getAttribute('data-testid') || '',
    name: (e.getAttribute('aria-label') || e.textContent || '').trim().slice(0, 60),
    inMain: !!e.closest('[data-testid="stMain"]'),
    box: [r.x, r.y, r.width, r.height],
  };
}"""

# Every control a student can operate in the lesson itself (shown, enabled, a tab stop),
# marked so that the walk can say which it reached. A radio group is one stop (its options
# are chosen with the arrow keys), as the browser makes it: its options share one mark.
CONTROLS = """() => {
  const main = document.querySelector('[data-testid="stMain"]');
  const found = [...main.querySelectorAll(
    'input, button, select, textarea, summary, a[href], [role="slider"], [tabindex="0"]'
  )].filter((e) => !e.disabled && e.tabIndex >= 0 && e.checkVisibility({visibilityProperty: true}));
  const groups = new Map();
  found.forEach((e, i) => {
    const group = e.type === 'radio' ? e.closest('[role="radiogroup"]') : null;
    if (group && !groups.has(group)) groups.set(group, String(i));
    e.dataset.ppControl = group ? groups.get(group) : String(i);
  });
  return [...new Set(found.map((e) => e.dataset.ppControl))];
}"""
REACHED = """() => new Set([...document.querySelectorAll('[data-pp-control][data-pp-stop]')]
  .map((e) => e.dataset.ppControl)).size"""
MISSED = """() => {
  const reached = new Set([...document.querySelectorAll('[data-pp-control][data-pp-stop]')]
    .map((e) => e.dataset.ppControl));
  return [...document.querySelectorAll('[data-pp-control]')]
    .filter((e) => !reached.has(e.dataset.ppControl))
    .map((e) => (e.closest('[data-testid^="st"]')?.getAttribute('data-testid') || e.tagName)
      + ': ' + (e.getAttribute('aria-label') || e.textContent || '').trim().slice(0, 50));
}"""

# Chromium makes a scrolling box that holds no focusable element a tab stop of its own
# ("keyboard-focusable scrollers"); the lesson's main area is one while the focus is in the
# sidebar. Its ring is the browser's own: not a control of the lesson.
NOT_CONTROLS = ("stMain",)


def _clip(box: list[float], viewport: dict[str, int]) -> dict[str, float]:
    x, y, width, height = box
    left, top = max(0.0, x - 8), max(0.0, y - 8)
    return {
        "x": left,
        "y": top,
        "width": max(1.0, min(viewport["width"] - left, width + 16)),
        "height": max(1.0, min(viewport["height"] - top, height + 16)),
    }


def _changed_pixels(a: bytes, b: bytes) -> int:
    first = Image.open(io.BytesIO(a)).convert("RGB")
    second = Image.open(io.BytesIO(b)).convert("RGB")
    if first.size != second.size:
        return first.size[0] * first.size[1]
    difference = ImageChops.difference(first, second).convert("L")
    return sum(difference.histogram()[25:])  # pixels that changed by more than 24 of 255


def _walk(page: Page) -> list[dict]:
    """Tab from the top of the page until the focus comes back to the skip link: every
    stop, with how many pixels around it its focus changes."""
    viewport = page.viewport_size
    stops: list[dict] = []
    for _ in range(MAX_STOPS):
        page.keyboard.press("Tab")
        focused = page.evaluate(FOCUSED)
        if focused is None:  # past the last stop: the browser's own UI has it
            continue
        if stops and focused["stop"] == stops[0]["stop"]:
            return stops
        clip = _clip(focused["box"], viewport)
        with_ring = page.screenshot(clip=clip, animations="disabled")
        page.evaluate("() => document.activeElement.blur()")
        without = page.screenshot(clip=clip, animations="disabled")
        focused["ring_px"] = _changed_pixels(with_ring, without)
        # blur() leaves the start of the next Tab where it was: the walk goes on from here
        stops.append(focused)
    raise AssertionError(f"the focus never came back round after {MAX_STOPS} Tab presses")


@pytest.fixture(scope="module")
def walked(browser, app_server: str):
    """The Laplace lesson, every control marked, then tabbed through once from the top."""
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    open_lesson(page, app_server, "laplace/page.py")
    page.wait_for_timeout(1_000)  # charts drawn, formulas fitted
    controls = page.evaluate(CONTROLS)
    stops = _walk(page)
    yield page, controls, stops
    page.close()


@pytest.mark.budget("the first reader of `walked`: it pays for tabbing through all of a lesson")
def test_the_first_tab_stop_is_the_skip_link(walked) -> None:
    _, _, stops = walked
    assert stops[0]["testid"] == "stSkipToContent", stops[0]
    assert "Skip to main content" in stops[0]["name"]


def test_tab_reaches_every_control_of_the_lesson(walked) -> None:
    page, controls, stops = walked
    assert len(controls) >= 40, controls  # sliders, radio groups, toggles, buttons, expanders
    kinds = {stop["testid"] for stop in stops if stop["inMain"]}
    for kind in ("stSlider", "stRadioOption", "stCheckbox", "stSelectbox", "stExpander"):
        assert kind in kinds, (kind, kinds)
    assert page.evaluate(MISSED) == []
    assert page.evaluate(REACHED) == len(controls)


def test_the_tab_order_is_the_reading_order(walked) -> None:
    _, _, stops = walked
    orders = [stop["order"] for stop in stops if stop["testid"] not in NOT_CONTROLS]
    backwards = [
        (a["name"], b["name"])
        for a, b in zip(stops, stops[1:], strict=False)
        if b["order"] < a["order"] and b["testid"] not in NOT_CONTROLS
    ]
    # one jump back: from the sidebar's last control to the header's menu button, which
    # Streamlit writes before the sidebar but places on top of the page
    assert len(backwards) <= 1, backwards
    assert orders == sorted(orders) or len(backwards) == 1


def test_every_tab_stop_shows_where_the_focus_is(walked) -> None:
    _, _, stops = walked
    faint = [
        (stop["testid"], stop["name"], stop["ring_px"])
        for stop in stops
        if stop["testid"] not in NOT_CONTROLS and stop["ring_px"] < CHANGED_PIXELS
    ]
    assert not faint, faint


def test_nothing_traps_the_focus_and_shift_tab_goes_back(walked) -> None:
    page, _, stops = walked
    # the walk came back round to the skip link (else _walk raised), through every stop once
    assert len({stop["stop"] for stop in stops}) == len(stops)
    page.keyboard.press("Tab")
    ahead = page.evaluate(FOCUSED)
    page.keyboard.press("Shift+Tab")
    back = page.evaluate(FOCUSED)
    assert ahead["stop"] != back["stop"]


def test_the_lesson_works_from_the_keyboard(page: Page, app_server: str) -> None:
    """Enter on the skip link, Tab to the main slider, the arrow keys move it and its chart
    changes; Enter opens "Show the numbers" (its table appears) and a download; Space
    presses "Draw one noisy answer"."""
    open_lesson(page, app_server, "laplace/page.py")
    page.keyboard.press("Tab")
    page.keyboard.press("Enter")  # the skip link
    assert page.evaluate("() => !!document.activeElement.closest('[data-testid=stMain]')")

    def tab_to(selector: str, limit: int = 120) -> None:
        for _ in range(limit):
            page.keyboard.press("Tab")
            if page.evaluate(f"() => document.activeElement.matches({selector!r})"):
                return
        raise AssertionError(f"Tab never reached {selector}")

    slider = page.locator('[data-testid="stSlider"]').filter(has_text="Privacy loss ε").first
    chart = page.locator('[data-testid="stVegaLiteChart"]').first
    name = chart.get_attribute("aria-label")
    before = chart.evaluate(CHART_DESCRIPTION)
    tab_to('[data-testid="stSlider"] input')
    while "Privacy loss ε" not in page.evaluate(
        "() => document.activeElement.closest('[data-testid=stSlider]').textContent"
    ):
        tab_to('[data-testid="stSlider"] input')
    with expect_rerun(page):
        page.keyboard.press("ArrowRight")
    expect(slider).to_contain_text("1.5")
    # the chart's numbers in words change; its name does not (it redraws in place)
    page.wait_for_function(
        f"([chart, old]) => ({CHART_DESCRIPTION})(chart) !== old",
        arg=[chart.element_handle(), before],
        timeout=10_000,
    )
    expect(chart).to_have_attribute("aria-label", name or "")

    tab_to("summary")
    assert ui_template.NUMBERS_LABEL in page.evaluate("() => document.activeElement.textContent")
    with expect_rerun(page):
        page.keyboard.press("Enter")
    expect(page.locator('[data-testid="stExpander"] [data-testid="stTable"]').first).to_be_visible()
    # the table it opened breaks no A or AA rule that axe checks (the sweep sees it closed)
    assert not [v for v in axe_violations(page) if v[1] in AXE_FAILS]

    tab_to('[data-testid="stDownloadButton"] button')
    with page.expect_download(timeout=30_000) as download:
        page.keyboard.press("Enter")
    assert download.value.suggested_filename.endswith(".csv")

    draw = page.get_by_role("button", name="Draw one noisy answer")
    tab_to('[data-testid="stBaseButton-primary"]')
    assert page.evaluate("() => document.activeElement.textContent").startswith("Draw one")
    with expect_rerun(page):
        page.keyboard.press(" ")
    expect(page.locator(FINISHED)).to_have_count(1)
    expect(draw).to_be_visible()
    expect(page.get_by_text("Press the button to see one noisy answer")).to_have_count(0)
    assert_no_exception(page)
