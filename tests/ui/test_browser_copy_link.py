"""The classroom panel's "Copy link to this view" (issue 27, item 11): the copied address
reopens the same view, including a slider moved inside a fragment after the page loaded."""

from __future__ import annotations

from urllib.parse import parse_qs, urlparse

from playwright.sync_api import Browser, expect

from browser_helpers import (
    assert_no_exception,
    expect_rerun,
    lesson_url,
    move_slider_with_keyboard,
    open_classroom,
    open_page,
    wait_for_run,
)


def test_copy_link_copies_the_current_view_and_it_reopens_it(browser: Browser, app_server: str):
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=app_server)
    page = context.new_page()
    open_page(page, app_server, lesson_url("laplace/page.py") + "?seed=77")
    with expect_rerun(page):
        move_slider_with_keyboard(page, "Privacy loss ε", "ArrowRight", times=2)
    button = open_classroom(page).get_by_role("button", name="Copy link to this view")
    expect(button).to_be_visible()
    button.click()
    expect(page.get_by_role("button", name="✓ Link copied")).to_be_visible()
    copied = page.evaluate("navigator.clipboard.readText()")
    params = parse_qs(urlparse(copied).query)
    assert params["seed"] == ["77"]
    assert params["lap_eps"] == ["2"]  # the default 1, two steps right: 1.5, 2
    assert copied == page.url
    other = context.new_page()
    other.goto(copied)
    wait_for_run(other)
    assert_no_exception(other)
    expect(other.get_by_text("Scale b = 1/ε", exact=True)).to_be_visible()
    assert parse_qs(urlparse(other.url).query)["lap_eps"] == ["2"]
    context.close()
