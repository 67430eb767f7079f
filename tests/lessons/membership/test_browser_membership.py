"""Membership lesson in real Chromium: it loads, a keyboard move of the ε slider changes the
noisy attack and the region's bound, ε lands in the link, and no traceback appears."""

from playwright.sync_api import Page, expect

import dp
from browser_helpers import (
    assert_no_exception,
    link_params,
    metric_value,
    move_slider_with_keyboard,
    open_lesson,
    wait_for_run,
)
from lessons.membership import model
from ui import text

BOUND = "The most any attack can find at 1%"


def _bound(epsilon: float) -> str:
    return text.percent(dp.tpr_bound(model.FPR_TARGET, epsilon))


def test_moving_epsilon_updates_the_region_and_the_link(page: Page, app_server: str) -> None:
    open_lesson(page, app_server, "membership/page.py")
    assert_no_exception(page)
    expect(metric_value(page, BOUND)).to_have_text(_bound(model.DEFAULT_EPSILON))
    move_slider_with_keyboard(page, "Privacy loss ε")  # one step: 1 -> 2
    following = model.EPSILONS[model.EPSILONS.index(model.DEFAULT_EPSILON) + 1]
    expect(metric_value(page, BOUND)).to_have_text(_bound(following))
    assert link_params(page).get("mi_eps") == [text.number(following)], page.url
    page.goto(page.url, wait_until="domcontentloaded")
    wait_for_run(page)
    expect(metric_value(page, BOUND)).to_have_text(_bound(following))
    assert_no_exception(page)
