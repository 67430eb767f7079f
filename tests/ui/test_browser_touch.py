"""Phones: a vertical swipe that starts on a slider scrolls the page instead of moving the
slider, and the thumb still drags. Touch is sent through the Chrome DevTools
protocol (Input.dispatchTouchEvent) in a 390×844 touch context, as a phone's finger."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Locator, Page

from browser_helpers import assert_no_exception, link_params, open_page

PHONE = {
    "viewport": {"width": 390, "height": 844},
    "has_touch": True,
    "is_mobile": True,
    "device_scale_factor": 2,
}
SETTLE_MS = 1_500  # long enough for a rerun a moved slider would start


@pytest.fixture
def phone(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(**PHONE)
    yield context.new_page()
    context.close()


def touch_path(page: Page, points: list[tuple[float, float]]) -> None:
    """One finger: down at the first point, through the others (a frame apart), then up."""
    cdp = page.context.new_cdp_session(page)
    x, y = points[0]
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
    for x, y in points[1:]:
        cdp.send(
            "Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x, "y": y}]}
        )
        time.sleep(0.016)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    page.wait_for_timeout(SETTLE_MS)


def age_slider(page: Page) -> tuple[Locator, Locator]:
    """The Laplace lesson's first slider (minimum age, full width on a phone) and its thumb."""
    slider = page.locator('[data-testid="stSlider"]').filter(has_text="Minimum age").first
    slider.scroll_into_view_if_needed()
    page.wait_for_timeout(300)
    return slider, slider.get_by_role("slider").last


def thumb_centre(thumb: Locator) -> tuple[float, float]:
    return thumb.evaluate(
        "e => { const r = e.parentElement.getBoundingClientRect();"
        " return [r.x + r.width / 2, r.y + r.height / 2]; }"
    )


def main_scroll(page: Page) -> float:
    return page.evaluate("document.querySelector('[data-testid=\"stMain\"]').scrollTop")


def test_a_vertical_swipe_on_a_slider_scrolls_and_leaves_its_value(
    phone: Page, app_server: str
) -> None:
    open_page(phone, app_server, "laplace")
    slider, thumb = age_slider(phone)
    box = slider.bounding_box()
    _, y = thumb_centre(thumb)
    x = box["x"] + 0.9 * box["width"]  # on the track, far from the thumb (at 40 of 17–90)
    before, scrolled = thumb.evaluate("e => e.value"), main_scroll(phone)
    touch_path(phone, [(x, y - 20 * step) for step in range(16)])
    assert main_scroll(phone) > scrolled + 100  # the page moved with the finger
    assert thumb.evaluate("e => e.value") == before == "40"
    assert "lap_age" not in link_params(phone)  # no rerun wrote a new value
    assert_no_exception(phone)


@pytest.mark.parametrize("offset", [0, -12], ids=["on the thumb", "just left of it"])
def test_the_thumb_still_drags_with_a_finger(phone: Page, app_server: str, offset) -> None:
    """The thumb is drawn 12 px wide; a finger 12 px left of its centre still catches it."""
    open_page(phone, app_server, "laplace")
    _, thumb = age_slider(phone)
    x, y = thumb_centre(thumb)
    touch_path(phone, [(x + offset + 8 * step, y) for step in range(11)])
    assert int(thumb.evaluate("e => e.value")) > 40
    assert int(link_params(phone)["lap_age"][0]) > 40
    assert_no_exception(phone)


def test_a_mouse_click_on_the_track_still_moves_the_slider(page: Page, app_server: str) -> None:
    """The touch rules apply to coarse pointers only: on a desktop the track is clickable."""
    open_page(page, app_server, "laplace")
    slider, thumb = age_slider(page)
    box = slider.bounding_box()
    _, y = thumb_centre(thumb)
    page.mouse.click(box["x"] + 0.9 * box["width"], y)
    page.wait_for_timeout(SETTLE_MS)
    assert int(thumb.evaluate("e => e.value")) > 70
